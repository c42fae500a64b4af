/* main.c - the ResNet basic block of resnet_block.axon from C: a batch of
 * 8 feature maps of 64 channels, 56 x 56 (ResNet-18 after its stem), into
 * 128 channels at 28 x 28; then an odd size (57: (57 - 1) / 2 + 1 = 29),
 * and a projection whose channel count does not match.  Inputs and the
 * output are reached by their index constants, the sizes by their annotation
 * names. */
#include <stdio.h>
#include <stdlib.h>

#define RESNET_BLOCK_IMPLEMENTATION    /* run()'s definitions here (stb-style) */
#include "resnet_block.h"
#include "print_tensor.h"
#include "run_sample.h"

static const char *const names[resnet_block_block_NUM_INPUTS] = {
    [resnet_block_block_IN_x] = "x", [resnet_block_block_IN_w1] = "w1", [resnet_block_block_IN_w2] = "w2",
    [resnet_block_block_IN_wp] = "wp",
};

static int show(axon_shape in[resnet_block_block_NUM_INPUTS])
{
    resnet_block_block_plan plan;
    axon_error err;
    int status = resnet_block_block_prepare(in, &plan, &err);
    if (status != AXON_OK) {
        printf("unexpected %s: %s\n", axon_status_name(status), err.message);
        return 1;
    }
    RUN_SAMPLE(resnet_block_block, plan, in);
    printf("block: inputs accepted\n");
    print_inputs(resnet_block_block_NUM_INPUTS, names, in, -1);
    print_tensor("output", "1", &plan.out[resnet_block_block_OUT_0], plan.out_elements[resnet_block_block_OUT_0],
                 plan.out_bytes[resnet_block_block_OUT_0]);
    print_temps(resnet_block_block_NUM_TEMPS, resnet_block_block_temp_name, plan.tmp, plan.tmp_elements,
                plan.tmp_bytes);
    printf("  dims   n=%lld c=%lld h=%lld w=%lld k=%lld\n", (long long)plan.dims.n, (long long)plan.dims.c,
           (long long)plan.dims.h, (long long)plan.dims.w, (long long)plan.dims.k);
    allocate_buffers("for the output and the temporaries", resnet_block_block_NUM_OUTPUTS, plan.out_bytes,
                     resnet_block_block_NUM_TEMPS, plan.tmp_bytes);
    return 0;
}

int main(void)
{
    axon_shape in[resnet_block_block_NUM_INPUTS];
    in[resnet_block_block_IN_x] = (axon_shape){ 4, { 8, 64, 56, 56 } };
    in[resnet_block_block_IN_w1] = (axon_shape){ 4, { 128, 64, 3, 3 } };
    in[resnet_block_block_IN_w2] = (axon_shape){ 4, { 128, 128, 3, 3 } };
    in[resnet_block_block_IN_wp] = (axon_shape){ 4, { 128, 64, 1, 1 } };
    if (show(in) != 0)
        return 1;
    in[resnet_block_block_IN_x].dims[2] = in[resnet_block_block_IN_x].dims[3] = 57;
    if (show(in) != 0)
        return 1;

    /* A projection to 256 channels where the convolutions give 128. */
    in[resnet_block_block_IN_wp].dims[0] = 256;
    axon_shape out[resnet_block_block_NUM_OUTPUTS];
    axon_error err;
    int status = resnet_block_block_shape(in, out, &err);
    printf("a projection to 256 channels: %s\n  %s\n", axon_status_name(status), err.message);
    return status == AXON_ERR_SIZE ? 0 : 1;
}
