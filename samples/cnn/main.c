/* main.c - the small CNN of cnn.axon from C: a batch of 8 RGB images of
 * 32 x 32, two 5 x 5 convolutions (16 then 32 filters: 32 -> 28 -> 24), and a
 * 24 x 24 classifier filter per class that leaves one score for each of 10
 * classes.  The chained sizes (c - f + 1, c - f - i + 2) are in the plan; the
 * classifier's `... = 1` is checked at run time.  Inputs and outputs are
 * reached by their index constants; plan.dims has the letters of cnn's
 * signature (a to m). */
#include <stdio.h>
#include <stdlib.h>

#define CNN_IMPLEMENTATION    /* run()'s definitions here (stb-style) */
#include "cnn.h"
#include "print_tensor.h"
#include "run_sample.h"

int main(void)
{
    axon_shape in[cnn_cnn_NUM_INPUTS];
    in[cnn_cnn_IN_x] = (axon_shape){ 4, { 8, 3, 32, 32 } };     /* [batch, channels, height, width] */
    in[cnn_cnn_IN_K1] = (axon_shape){ 4, { 16, 3, 5, 5 } };     /* [filters, channels, rows, cols] */
    in[cnn_cnn_IN_K2] = (axon_shape){ 4, { 32, 16, 5, 5 } };
    in[cnn_cnn_IN_Kc] = (axon_shape){ 4, { 10, 32, 24, 24 } };  /* one 24 x 24 filter per class */
    const char *names[cnn_cnn_NUM_INPUTS] = {
        [cnn_cnn_IN_x] = "x", [cnn_cnn_IN_K1] = "K1", [cnn_cnn_IN_K2] = "K2", [cnn_cnn_IN_Kc] = "Kc",
    };
    cnn_cnn_plan plan;
    axon_error err;
    int status = cnn_cnn_prepare(in, &plan, &err);
    if (status != AXON_OK) {
        printf("unexpected %s: %s\n", axon_status_name(status), err.message);
        return 1;
    }
    RUN_SAMPLE(cnn_cnn, plan, in);
    printf("cnn: inputs accepted\n");
    print_inputs(cnn_cnn_NUM_INPUTS, names, in, -1);
    print_tensor("output", "1", &plan.out[cnn_cnn_OUT_0], plan.out_elements[cnn_cnn_OUT_0],
                 plan.out_bytes[cnn_cnn_OUT_0]);
    print_temps(cnn_cnn_NUM_TEMPS, cnn_cnn_temp_name, plan.tmp, plan.tmp_elements, plan.tmp_bytes);
    printf("  dims   n=%lld a=%lld b=%lld c=%lld (x), d=%lld e=%lld f=%lld (K1),\n", (long long)plan.dims.n,
           (long long)plan.dims.a, (long long)plan.dims.b, (long long)plan.dims.c, (long long)plan.dims.d,
           (long long)plan.dims.e, (long long)plan.dims.f);
    printf("         g=%lld h=%lld i=%lld (K2), m=%lld j=%lld k=%lld (Kc)\n", (long long)plan.dims.g,
           (long long)plan.dims.h, (long long)plan.dims.i, (long long)plan.dims.m, (long long)plan.dims.j,
           (long long)plan.dims.k);

    /* Every buffer sized from the plan: the output, then the temporaries. */
    allocate_buffers("for the output and the temporaries", cnn_cnn_NUM_OUTPUTS, plan.out_bytes, cnn_cnn_NUM_TEMPS,
                     plan.tmp_bytes);

    /* Taller images (36 rows): the classifier filter no longer covers the
     * whole 28-row feature map, c - f - i - l + 3 is 5, not 1. */
    in[cnn_cnn_IN_x].dims[2] = 36;
    axon_shape shapes[cnn_cnn_NUM_OUTPUTS];
    status = cnn_cnn_shape(in, shapes, &err);
    printf("x of height 36: %s\n  %s\n", axon_status_name(status), err.message);
    return status == AXON_ERR_CONSTRAINT ? 0 : 1;
}
