/* main.c - the keyword spotter of kws.axon from C: one second of audio at
 * 100 frames a second (101 frames of 40 mel bands), then a batch of 16 clips
 * of 49 frames; then a clip of one frame, too short for the first pooling
 * window.  Inputs and the output are reached by their index constants, the
 * sizes by their annotation names (plan.dims.b, plan.dims.t). */
#include <stdio.h>
#include <stdlib.h>

#define KWS_IMPLEMENTATION    /* run()'s definitions here (stb-style) */
#include "kws.h"
#include "print_tensor.h"
#include "run_sample.h"

static const char *const names[kws_kws_NUM_INPUTS] = {
    [kws_kws_IN_x] = "x", [kws_kws_IN_k1] = "k1", [kws_kws_IN_k2] = "k2", [kws_kws_IN_kc] = "kc",
};

static int show(axon_shape in[kws_kws_NUM_INPUTS])
{
    kws_kws_plan plan;
    axon_error err;
    int status = kws_kws_prepare(in, &plan, &err);
    if (status != AXON_OK) {
        printf("unexpected %s: %s\n", axon_status_name(status), err.message);
        return 1;
    }
    RUN_SAMPLE(kws_kws, plan, in);
    printf("kws: inputs accepted\n");
    print_inputs(kws_kws_NUM_INPUTS, names, in, -1);
    print_tensor("output", "1", &plan.out[kws_kws_OUT_0], plan.out_elements[kws_kws_OUT_0],
                 plan.out_bytes[kws_kws_OUT_0]);
    print_temps(kws_kws_NUM_TEMPS, kws_kws_temp_name, plan.tmp, plan.tmp_elements, plan.tmp_bytes);
    printf("  dims   b=%lld t=%lld\n", (long long)plan.dims.b, (long long)plan.dims.t);
    allocate_buffers("for the output and the temporaries", kws_kws_NUM_OUTPUTS, plan.out_bytes, kws_kws_NUM_TEMPS,
                     plan.tmp_bytes);
    return 0;
}

int main(void)
{
    axon_shape in[kws_kws_NUM_INPUTS];
    in[kws_kws_IN_x] = (axon_shape){ 3, { 1, 40, 101 } };  /* batch, mel bands, frames */
    in[kws_kws_IN_k1] = (axon_shape){ 3, { 64, 40, 5 } };
    in[kws_kws_IN_k2] = (axon_shape){ 3, { 64, 64, 3 } };
    in[kws_kws_IN_kc] = (axon_shape){ 3, { 12, 64, 1 } };  /* 12 keywords */
    if (show(in) != 0)
        return 1;
    in[kws_kws_IN_x].dims[0] = 16;
    in[kws_kws_IN_x].dims[2] = 49;
    if (show(in) != 0)
        return 1;

    in[kws_kws_IN_x].dims[2] = 1;
    axon_shape out[kws_kws_NUM_OUTPUTS];
    axon_error err;
    int status = kws_kws_shape(in, out, &err);
    printf("a clip of one frame: %s\n  %s\n", axon_status_name(status), err.message);
    return status == AXON_ERR_CONSTRAINT ? 0 : 1;
}
