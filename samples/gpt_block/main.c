/* main.c - the decoder block of gpt_block.axon, whose attention, norm and
 * feed-forward blocks come from samples/blocks/ (imported; the header has
 * only gpt_block): 2 sequences of 16 tokens of width 64 in 8 heads, a
 * SwiGLU layer of 176 units.  The causal mask is made inside (arange): it
 * is an intermediate, not an input.  Then two rejected inputs. */
#include <stdio.h>
#include <stdlib.h>

#define GPT_BLOCK_IMPLEMENTATION    /* run()'s definitions here (stb-style) */
#include "gpt_block.h"
#include "print_tensor.h"
#include "run_sample.h"

#define IN(name) gpt_block_gpt_block_IN_##name

int main(void)
{
    axon_shape in[gpt_block_gpt_block_NUM_INPUTS];
    in[IN(x)] = (axon_shape){ 3, { 2, 16, 64 } };
    in[IN(g1)] = in[IN(g2)] = (axon_shape){ 1, { 64 } };
    in[IN(Wq)] = in[IN(Wk)] = in[IN(Wv)] = in[IN(Wo)] = (axon_shape){ 2, { 64, 64 } };
    in[IN(heads)] = (axon_shape){ 1, { 8 } };
    in[IN(Wg)] = in[IN(Wu)] = (axon_shape){ 2, { 64, 176 } };
    in[IN(Wd)] = (axon_shape){ 2, { 176, 64 } };
    static const char *const names[gpt_block_gpt_block_NUM_INPUTS] = {
        "x", "g1", "Wq", "Wk", "Wv", "Wo", "heads", "g2", "Wg", "Wu", "Wd",
    };
    gpt_block_gpt_block_plan plan;
    axon_error err;
    if (gpt_block_gpt_block_prepare(in, &plan, &err) != AXON_OK) {
        printf("unexpected: %s\n", err.message);
        return 1;
    }
    RUN_SAMPLE(gpt_block_gpt_block, plan, in);
    printf("gpt_block: inputs accepted\n");
    /* (not heads: a dims value, a size, not a buffer) */
    print_inputs(gpt_block_gpt_block_NUM_INPUTS, names, in, IN(heads));
    printf("  dims   heads = %lld\n", (long long)in[IN(heads)].dims[0]);
    print_tensor("output", "0", &plan.out[gpt_block_gpt_block_OUT_0], plan.out_elements[gpt_block_gpt_block_OUT_0],
                 plan.out_bytes[gpt_block_gpt_block_OUT_0]);
    int64_t total = plan.out_bytes[gpt_block_gpt_block_OUT_0] +
                    print_temps(gpt_block_gpt_block_NUM_TEMPS, gpt_block_gpt_block_temp_name, plan.tmp,
                                plan.tmp_elements, plan.tmp_bytes);
    printf("  dims   b=%lld n=%lld d=%lld h=%lld f=%lld; %lld bytes for the output and the intermediates\n",
           (long long)plan.dims.b, (long long)plan.dims.n, (long long)plan.dims.d, (long long)plan.dims.h,
           (long long)plan.dims.f, (long long)total);

    /* 6 heads do not divide the width: the clause of the imported block. */
    axon_shape out[gpt_block_gpt_block_NUM_OUTPUTS];
    in[IN(heads)].dims[0] = 6;
    int s1 = gpt_block_gpt_block_shape(in, out, &err);
    printf("6 heads: %s\n  %s\n", axon_status_name(s1), err.message);
    /* A down projection of the wrong width. */
    in[IN(heads)].dims[0] = 8;
    in[IN(Wd)].dims[0] = 172;
    int s2 = gpt_block_gpt_block_shape(in, out, &err);
    printf("Wd of 172 rows: %s\n  %s\n", axon_status_name(s2), err.message);
    return s1 == AXON_ERR_DIVISIBILITY && s2 == AXON_ERR_SIZE ? 0 : 1;
}
