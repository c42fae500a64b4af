/* main.c - the paper's section 6.2 convolution (conv.axon) from C.  The
 * input's shape was inferred backwards from the annotated output, so every
 * size is a constant: the header checks x is exactly [4, 8, 1031, 263], and
 * the function has no symbolic dimensions and no named intermediates.  Inputs
 * and the output are reached by their index constants, and the output's size
 * is a constant of the header too (conv_conv_OUT_0_BYTES). */
#include <stdio.h>
#include <stdlib.h>

#define CONV_IMPLEMENTATION    /* run()'s definitions here (stb-style) */
#include "conv.h"
#include "print_tensor.h"
#include "run_sample.h"

int main(void)
{
    /* A batch of 4 images of 8 channels, 1031 x 263; 8 filters, 8 x 8. */
    axon_shape in[conv_conv_NUM_INPUTS];
    in[conv_conv_IN_x] = (axon_shape){ 4, { 4, 8, 1031, 263 } };
    in[conv_conv_IN_f] = (axon_shape){ 4, { 8, 8, 8, 8 } };
    const char *names[conv_conv_NUM_INPUTS] = { [conv_conv_IN_x] = "x", [conv_conv_IN_f] = "f" };
    conv_conv_plan plan;
    axon_error err;
    int status = conv_conv_prepare(in, &plan, &err);
    if (status != AXON_OK) {
        printf("unexpected %s: %s\n", axon_status_name(status), err.message);
        return 1;
    }
    RUN_SAMPLE(conv_conv, plan, in);
    printf("conv: inputs accepted\n");
    print_inputs(conv_conv_NUM_INPUTS, names, in, -1);
    print_tensor("output", "1", &plan.out[conv_conv_OUT_0], plan.out_elements[conv_conv_OUT_0],
                 plan.out_bytes[conv_conv_OUT_0]);
    printf("  (%d temporaries, no symbolic dimensions: every size is a constant)\n", conv_conv_NUM_TEMPS);

    /* Every size is a constant, so the header defines the output's byte
     * count, which the plan agrees with. */
    if (plan.out_bytes[conv_conv_OUT_0] != conv_conv_OUT_0_BYTES)
        return 1;
    void *out = malloc((size_t)conv_conv_OUT_0_BYTES);
    printf("  allocated %lld bytes for the output\n", (long long)conv_conv_OUT_0_BYTES);
    free(out);

    /* One row short: the annotated output needs h - 8 + 1 = 1024. */
    in[conv_conv_IN_x].dims[2] = 1030;
    axon_shape shapes[conv_conv_NUM_OUTPUTS];
    status = conv_conv_shape(in, shapes, &err);
    printf("x of height 1030: %s\n  %s\n", axon_status_name(status), err.message);
    return status == AXON_ERR_SIZE ? 0 : 1;
}
