/* main.c - using the header generated from attention.axon: check the input
 * shapes (the head count is an input too), size every buffer from the plan,
 * and show two rejected inputs.  Inputs, outputs and intermediates are
 * reached by their index constants, sizes by their annotation names. */
#include <stdio.h>
#include <stdlib.h>

#define ATTENTION_IMPLEMENTATION    /* run()'s definitions here (stb-style) */
#include "attention.h"
#include "print_tensor.h"
#include "run_sample.h"

int main(void)
{
    /* A batch of 2 sequences of 10 tokens of width 64, in 8 heads. */
    axon_shape in[attention_attention_NUM_INPUTS];
    in[attention_attention_IN_x] = (axon_shape){ 3, { 2, 10, 64 } };
    in[attention_attention_IN_heads] = (axon_shape){ 1, { 8 } };
    in[attention_attention_IN_Wq] = (axon_shape){ 2, { 64, 64 } };
    in[attention_attention_IN_Wk] = (axon_shape){ 2, { 64, 64 } };
    in[attention_attention_IN_Wv] = (axon_shape){ 2, { 64, 64 } };
    in[attention_attention_IN_Wo] = (axon_shape){ 2, { 64, 64 } };
    attention_attention_plan plan;
    axon_error err;
    if (attention_attention_prepare(in, &plan, &err) != AXON_OK) {
        fprintf(stderr, "rejected: %s\n", err.message);
        return 1;
    }
    RUN_SAMPLE(attention_attention, plan, in);
    printf("attention: inputs accepted\n");
    print_shape(8, "x", &in[attention_attention_IN_x]);
    print_shape(8, "heads", &in[attention_attention_IN_heads]);
    print_shape(8, "output", &plan.out[attention_attention_OUT_0]);
    print_shape(8, "q", &plan.tmp[attention_attention_TMP_q]);
    print_shape(8, "scores", &plan.tmp[attention_attention_TMP_scores]);
    print_shape(8, "weights", &plan.tmp[attention_attention_TMP_weights]);
    print_shape(8, "context", &plan.tmp[attention_attention_TMP_context]);
    printf("  dims: b=%lld n=%lld d=%lld h=%lld (head width %lld)\n", (long long)plan.dims.b,
           (long long)plan.dims.n, (long long)plan.dims.d, (long long)plan.dims.h,
           (long long)(plan.dims.d / plan.dims.h));

    /* Every buffer sized from the plan: the output and each intermediate. */
    print_temp_sizes(attention_attention_NUM_TEMPS, attention_attention_temp_name, plan.tmp_elements, plan.tmp_bytes);
    printf("  output: %lld elements, %lld bytes\n", (long long)plan.out_elements[attention_attention_OUT_0],
           (long long)plan.out_bytes[attention_attention_OUT_0]);
    allocate_buffers("in all", attention_attention_NUM_OUTPUTS, plan.out_bytes, attention_attention_NUM_TEMPS,
                     plan.tmp_bytes);

    /* 6 heads do not divide the width 64: reshape's clause says so. */
    axon_shape shapes[attention_attention_NUM_OUTPUTS];
    in[attention_attention_IN_heads].dims[0] = 6;
    int status = attention_attention_shape(in, shapes, &err);
    printf("6 heads: %s\n  %s\n", axon_status_name(status), err.message);
    /* A key projection of the wrong width is rejected, with the rule. */
    in[attention_attention_IN_heads].dims[0] = 8;
    in[attention_attention_IN_Wk].dims[1] = 48;
    int status2 = attention_attention_shape(in, shapes, &err);
    printf("Wk of width 48: %s\n  %s\n", axon_status_name(status2), err.message);
    return status == AXON_ERR_DIVISIBILITY && status2 == AXON_ERR_SIZE ? 0 : 1;
}
