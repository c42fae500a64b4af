/* main.c - the paper's section 6.2 convolution (conv.axon) from C.  The
 * input's shape was inferred backwards from the annotated output, so every
 * size is a constant: the header checks x is exactly [4, 8, 1031, 263], and
 * the function has no symbolic dimensions and no named intermediates. */
#include <stdio.h>
#include <stdlib.h>

#include "conv.h"
#include "print_tensor.h"

int main(void)
{
    /* A batch of 4 images of 8 channels, 1031 x 263; 8 filters, 8 x 8. */
    axon_shape in[conv_conv_NUM_INPUTS] = {
        { 4, { 4, 8, 1031, 263 } },  /* x */
        { 4, { 8, 8, 8, 8 } },       /* f */
    };
    const char *names[conv_conv_NUM_INPUTS] = { "x", "f" };
    conv_conv_plan plan;
    axon_error err;
    int status = conv_conv_prepare(in, &plan, &err);
    if (status != AXON_OK) {
        printf("unexpected %s: %s\n", axon_status_name(status), err.message);
        return 1;
    }
    printf("conv: inputs accepted\n");
    for (int i = 0; i < conv_conv_NUM_INPUTS; i++)
        print_tensor("input", names[i], &in[i], axon_elements(&in[i]), axon_bytes(&in[i], sizeof(float)));
    print_tensor("output", "1", &plan.out[0], plan.out_elements[0], plan.out_bytes[0]);
    printf("  (%d temporaries, no symbolic dimensions: every size is a constant)\n", conv_conv_NUM_TEMPS);

    void *out = malloc((size_t)plan.out_bytes[0]);
    printf("  allocated %lld bytes for the output\n", (long long)plan.out_bytes[0]);
    free(out);

    /* One row short: the annotated output needs h - 8 + 1 = 1024. */
    in[0].dims[2] = 1030;
    axon_shape shapes[conv_conv_NUM_OUTPUTS];
    status = conv_conv_shape(in, shapes, &err);
    printf("x of height 1030: %s\n  %s\n", axon_status_name(status), err.message);
    return status == AXON_ERR_SIZE ? 0 : 1;
}
