/* main.c - the U-Net level of unet_step.axon from C: a batch of 2 images of
 * 16 channels, 128 x 96, through a 32-channel bottleneck, back to 16
 * channels concatenated with the input's 16; then an odd height, which the
 * skip connection cannot take (the up path is one row short).  Inputs and the
 * output are reached by their index constants, the sizes by their annotation
 * names. */
#include <stdio.h>
#include <stdlib.h>

#define UNET_STEP_IMPLEMENTATION    /* run()'s definitions here (stb-style) */
#include "unet_step.h"
#include "print_tensor.h"
#include "run_sample.h"

static const char *const names[unet_step_unet_NUM_INPUTS] = {
    [unet_step_unet_IN_x] = "x", [unet_step_unet_IN_kd] = "kd", [unet_step_unet_IN_ku] = "ku",
};

int main(void)
{
    axon_shape in[unet_step_unet_NUM_INPUTS];
    in[unet_step_unet_IN_x] = (axon_shape){ 4, { 2, 16, 128, 96 } };
    in[unet_step_unet_IN_kd] = (axon_shape){ 4, { 32, 16, 3, 3 } };  /* down to 32 channels */
    in[unet_step_unet_IN_ku] = (axon_shape){ 4, { 16, 32, 3, 3 } };  /* back to 16 */
    unet_step_unet_plan plan;
    axon_error err;
    int status = unet_step_unet_prepare(in, &plan, &err);
    if (status != AXON_OK) {
        printf("unexpected %s: %s\n", axon_status_name(status), err.message);
        return 1;
    }
    RUN_SAMPLE(unet_step_unet, plan, in);
    printf("unet: inputs accepted\n");
    print_inputs(unet_step_unet_NUM_INPUTS, names, in, -1);
    print_tensor("output", "1", &plan.out[unet_step_unet_OUT_0], plan.out_elements[unet_step_unet_OUT_0],
                 plan.out_bytes[unet_step_unet_OUT_0]);
    print_temps(unet_step_unet_NUM_TEMPS, unet_step_unet_temp_name, plan.tmp, plan.tmp_elements, plan.tmp_bytes);
    printf("  dims   n=%lld c=%lld h=%lld w=%lld m=%lld\n", (long long)plan.dims.n, (long long)plan.dims.c,
           (long long)plan.dims.h, (long long)plan.dims.w, (long long)plan.dims.m);
    allocate_buffers("for the output and the temporaries", unet_step_unet_NUM_OUTPUTS, plan.out_bytes,
                     unet_step_unet_NUM_TEMPS, plan.tmp_bytes);

    in[unet_step_unet_IN_x].dims[2] = 127;
    axon_shape out[unet_step_unet_NUM_OUTPUTS];
    status = unet_step_unet_shape(in, out, &err);
    printf("an odd height (127): %s\n  %s\n", axon_status_name(status), err.message);
    return status == AXON_ERR_DIVISIBILITY ? 0 : 1;
}
