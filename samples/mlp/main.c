/* main.c - the 3-layer perceptron of mlp.axon from C: a batch of 64
 * flattened 28 x 28 images through layers of 256, 128 and 10 units.  The
 * header checks that each weight's rows match the previous layer's width and
 * each bias matches its weight's columns.  Inputs and outputs are reached by
 * their index constants; mlp annotates none of its sizes, so plan.dims has
 * the letters of its signature (a to e). */
#include <stdio.h>
#include <stdlib.h>

#define MLP_IMPLEMENTATION    /* run()'s definitions here (stb-style) */
#include "mlp.h"
#include "print_tensor.h"
#include "run_sample.h"

int main(void)
{
    axon_shape in[mlp_mlp_NUM_INPUTS];
    in[mlp_mlp_IN_x] = (axon_shape){ 2, { 64, 784 } };
    in[mlp_mlp_IN_W1] = (axon_shape){ 2, { 784, 256 } };
    in[mlp_mlp_IN_b1] = (axon_shape){ 1, { 256 } };
    in[mlp_mlp_IN_W2] = (axon_shape){ 2, { 256, 128 } };
    in[mlp_mlp_IN_b2] = (axon_shape){ 1, { 128 } };
    in[mlp_mlp_IN_W3] = (axon_shape){ 2, { 128, 10 } };
    in[mlp_mlp_IN_b3] = (axon_shape){ 1, { 10 } };
    const char *names[mlp_mlp_NUM_INPUTS] = {
        [mlp_mlp_IN_x] = "x",   [mlp_mlp_IN_W1] = "W1", [mlp_mlp_IN_b1] = "b1", [mlp_mlp_IN_W2] = "W2",
        [mlp_mlp_IN_b2] = "b2", [mlp_mlp_IN_W3] = "W3", [mlp_mlp_IN_b3] = "b3",
    };
    mlp_mlp_plan plan;
    axon_error err;
    int status = mlp_mlp_prepare(in, &plan, &err);
    if (status != AXON_OK) {
        printf("unexpected %s: %s\n", axon_status_name(status), err.message);
        return 1;
    }
    RUN_SAMPLE(mlp_mlp, plan, in);
    printf("mlp: inputs accepted\n");
    print_inputs(mlp_mlp_NUM_INPUTS, names, in, -1);
    print_tensor("output", "1", &plan.out[mlp_mlp_OUT_0], plan.out_elements[mlp_mlp_OUT_0],
                 plan.out_bytes[mlp_mlp_OUT_0]);
    print_temps(mlp_mlp_NUM_TEMPS, mlp_mlp_temp_name, plan.tmp, plan.tmp_elements, plan.tmp_bytes);
    printf("  dims   a=%lld b=%lld c=%lld d=%lld e=%lld\n", (long long)plan.dims.a, (long long)plan.dims.b,
           (long long)plan.dims.c, (long long)plan.dims.d, (long long)plan.dims.e);

    /* Every buffer sized from the plan: the output, then the temporaries. */
    allocate_buffers("for the output and the temporaries", mlp_mlp_NUM_OUTPUTS, plan.out_bytes, mlp_mlp_NUM_TEMPS,
                     plan.tmp_bytes);

    /* The second layer's bias with 100 entries for its 128 units. */
    in[mlp_mlp_IN_b2].dims[0] = 100;
    axon_shape shapes[mlp_mlp_NUM_OUTPUTS];
    status = mlp_mlp_shape(in, shapes, &err);
    printf("b2 of length 100: %s\n  %s\n", axon_status_name(status), err.message);
    return status == AXON_ERR_SIZE ? 0 : 1;
}
