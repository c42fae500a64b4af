/* main.c - the depthwise-separable block of mobilenet_block.axon from C: a
 * batch of 4 maps of 32 channels, 112 x 112, to 64 channels, with stride 1
 * and then stride 2 (the stride is an input: dims [s1, s2] is an axon_shape
 * of rank 2); then a stride of 0, which the block's where clause rejects.
 * Inputs and the output are reached by their index constants, the sizes by
 * their annotation names (plan.dims.s1 and so on). */
#include <stdio.h>
#include <stdlib.h>

#define MOBILENET_BLOCK_IMPLEMENTATION    /* run()'s definitions here (stb-style) */
#include "mobilenet_block.h"
#include "print_tensor.h"
#include "run_sample.h"

static const char *const names[mobilenet_block_sep_NUM_INPUTS] = {
    [mobilenet_block_sep_IN_x] = "x", [mobilenet_block_sep_IN_dw] = "dw", [mobilenet_block_sep_IN_pw] = "pw",
    [mobilenet_block_sep_IN_stride] = "stride",
};

static int show(axon_shape in[mobilenet_block_sep_NUM_INPUTS])
{
    mobilenet_block_sep_plan plan;
    axon_error err;
    int status = mobilenet_block_sep_prepare(in, &plan, &err);
    if (status != AXON_OK) {
        printf("unexpected %s: %s\n", axon_status_name(status), err.message);
        return 1;
    }
    RUN_SAMPLE(mobilenet_block_sep, plan, in);
    const axon_shape *stride = &in[mobilenet_block_sep_IN_stride];
    printf("sep, stride %lld x %lld: inputs accepted\n", (long long)stride->dims[0], (long long)stride->dims[1]);
    /* The tensors; the stride (sizes, not a tensor) is in the line above. */
    print_inputs(mobilenet_block_sep_NUM_INPUTS, names, in, mobilenet_block_sep_IN_stride);
    print_tensor("output", "1", &plan.out[mobilenet_block_sep_OUT_0], plan.out_elements[mobilenet_block_sep_OUT_0],
                 plan.out_bytes[mobilenet_block_sep_OUT_0]);
    print_temps(mobilenet_block_sep_NUM_TEMPS, mobilenet_block_sep_temp_name, plan.tmp, plan.tmp_elements,
                plan.tmp_bytes);
    printf("  dims   n=%lld h=%lld w=%lld k=%lld s1=%lld s2=%lld\n", (long long)plan.dims.n, (long long)plan.dims.h,
           (long long)plan.dims.w, (long long)plan.dims.k, (long long)plan.dims.s1, (long long)plan.dims.s2);
    allocate_buffers("for the output and the temporaries", mobilenet_block_sep_NUM_OUTPUTS, plan.out_bytes,
                     mobilenet_block_sep_NUM_TEMPS, plan.tmp_bytes);
    return 0;
}

int main(void)
{
    axon_shape in[mobilenet_block_sep_NUM_INPUTS];
    in[mobilenet_block_sep_IN_x] = (axon_shape){ 4, { 4, 32, 112, 112 } };
    in[mobilenet_block_sep_IN_dw] = (axon_shape){ 4, { 32, 1, 3, 3 } };  /* one 3x3 filter per channel */
    in[mobilenet_block_sep_IN_pw] = (axon_shape){ 4, { 64, 32, 1, 1 } };
    in[mobilenet_block_sep_IN_stride] = (axon_shape){ 2, { 1, 1 } };
    if (show(in) != 0)
        return 1;
    in[mobilenet_block_sep_IN_stride] = (axon_shape){ 2, { 2, 2 } };
    if (show(in) != 0)
        return 1;

    in[mobilenet_block_sep_IN_stride].dims[0] = 0;
    axon_shape out[mobilenet_block_sep_NUM_OUTPUTS];
    axon_error err;
    int status = mobilenet_block_sep_shape(in, out, &err);
    printf("a stride of 0: %s\n  %s\n", axon_status_name(status), err.message);
    return status == AXON_ERR_CONSTRAINT ? 0 : 1;
}
