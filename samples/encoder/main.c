/* main.c - using the header generated from encoder.axon: one transformer
 * encoder layer of width 512 in 8 heads with a feed-forward width of 2048
 * (the base model of "Attention is all you need").  Checks the shapes, sizes
 * every buffer from the plan, and shows two rejected inputs.  Inputs and
 * intermediates are reached by their index constants, sizes by name. */
#include <stdio.h>
#include <stdlib.h>

#define ENCODER_IMPLEMENTATION    /* run()'s definitions here (stb-style) */
#include "encoder.h"
#include "print_tensor.h"
#include "run_sample.h"

int main(void)
{
    enum { B = 4, N = 128, D = 512, H = 8, F = 2048 };
    axon_shape in[encoder_encoder_NUM_INPUTS];
    in[encoder_encoder_IN_x] = (axon_shape){ 3, { B, N, D } };
    in[encoder_encoder_IN_heads] = (axon_shape){ 1, { H } };
    in[encoder_encoder_IN_Wq] = in[encoder_encoder_IN_Wk] = in[encoder_encoder_IN_Wv] =
        in[encoder_encoder_IN_Wo] = (axon_shape){ 2, { D, D } };
    in[encoder_encoder_IN_gamma1] = in[encoder_encoder_IN_beta1] = in[encoder_encoder_IN_bias2] =
        in[encoder_encoder_IN_gamma2] = in[encoder_encoder_IN_beta2] = (axon_shape){ 1, { D } };
    in[encoder_encoder_IN_W1] = (axon_shape){ 2, { D, F } };
    in[encoder_encoder_IN_bias1] = (axon_shape){ 1, { F } };
    in[encoder_encoder_IN_W2] = (axon_shape){ 2, { F, D } };
    encoder_encoder_plan plan;
    axon_error err;
    if (encoder_encoder_prepare(in, &plan, &err) != AXON_OK) {
        fprintf(stderr, "rejected: %s\n", err.message);
        return 1;
    }
    RUN_SAMPLE(encoder_encoder, plan, in);
    printf("encoder: inputs accepted\n");
    print_shape(9, "x", &in[encoder_encoder_IN_x]);
    print_shape(9, "output", &plan.out[encoder_encoder_OUT_0]);
    print_shape(9, "attended", &plan.tmp[encoder_encoder_TMP_attended]);
    print_shape(9, "hidden", &plan.tmp[encoder_encoder_TMP_hidden]);
    printf("  dims: b=%lld n=%lld d=%lld h=%lld f=%lld\n", (long long)plan.dims.b, (long long)plan.dims.n,
           (long long)plan.dims.d, (long long)plan.dims.h, (long long)plan.dims.f);

    /* Every buffer sized from the plan. */
    print_temp_sizes(encoder_encoder_NUM_TEMPS, encoder_encoder_temp_name, plan.tmp_elements, plan.tmp_bytes);
    allocate_buffers("in all", encoder_encoder_NUM_OUTPUTS, plan.out_bytes, encoder_encoder_NUM_TEMPS,
                     plan.tmp_bytes);

    /* The first feed-forward weight in the other layout, [f, d]. */
    axon_shape shapes[encoder_encoder_NUM_OUTPUTS];
    in[encoder_encoder_IN_W1] = (axon_shape){ 2, { F, D } };
    int s1 = encoder_encoder_shape(in, shapes, &err);
    printf("W1 as [2048, 512]: %s\n  %s\n", axon_status_name(s1), err.message);
    /* 12 heads do not divide 512. */
    in[encoder_encoder_IN_W1] = (axon_shape){ 2, { D, F } };
    in[encoder_encoder_IN_heads].dims[0] = 12;
    int s2 = encoder_encoder_shape(in, shapes, &err);
    printf("12 heads: %s\n  %s\n", axon_status_name(s2), err.message);
    return s1 == AXON_ERR_SIZE && s2 == AXON_ERR_DIVISIBILITY ? 0 : 1;
}
