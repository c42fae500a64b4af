/* main.c - the encoder block of vit_block.axon, whose attention, norm and
 * feed-forward blocks come from samples/blocks/ (imported; the header has
 * only vit_block): a batch of 4 images of 196 patches (14 x 14) of 768
 * values, embedded to width 192 in 3 heads; the class token makes 197
 * tokens, so the position table has 197 rows.  Then two rejected inputs. */
#include <stdio.h>
#include <stdlib.h>

#define VIT_BLOCK_IMPLEMENTATION    /* run()'s definitions here (stb-style) */
#include "vit_block.h"
#include "print_tensor.h"
#include "run_sample.h"

#define IN(name) vit_block_vit_block_IN_##name

int main(void)
{
    axon_shape in[vit_block_vit_block_NUM_INPUTS];
    in[IN(patches)] = (axon_shape){ 3, { 4, 196, 768 } };
    in[IN(We)] = (axon_shape){ 2, { 768, 192 } };
    in[IN(cls)] = (axon_shape){ 3, { 1, 1, 192 } };
    in[IN(pos)] = (axon_shape){ 2, { 197, 192 } };
    in[IN(Wq)] = in[IN(Wk)] = in[IN(Wv)] = in[IN(Wo)] = (axon_shape){ 2, { 192, 192 } };
    in[IN(heads)] = (axon_shape){ 1, { 3 } };
    in[IN(ln1g)] = in[IN(ln1b)] = in[IN(ln2g)] = in[IN(ln2b)] = in[IN(b2)] = (axon_shape){ 1, { 192 } };
    in[IN(W1)] = (axon_shape){ 2, { 192, 768 } };
    in[IN(b1)] = (axon_shape){ 1, { 768 } };
    in[IN(W2)] = (axon_shape){ 2, { 768, 192 } };
    static const char *const names[vit_block_vit_block_NUM_INPUTS] = {
        "patches", "We", "cls", "pos", "Wq", "Wk", "Wv", "Wo", "heads",
        "ln1g", "ln1b", "W1", "b1", "W2", "b2", "ln2g", "ln2b",
    };
    vit_block_vit_block_plan plan;
    axon_error err;
    if (vit_block_vit_block_prepare(in, &plan, &err) != AXON_OK) {
        printf("unexpected: %s\n", err.message);
        return 1;
    }
    RUN_SAMPLE(vit_block_vit_block, plan, in);
    printf("vit_block: inputs accepted\n");
    /* (not heads: a dims value, a size, not a buffer) */
    print_inputs(vit_block_vit_block_NUM_INPUTS, names, in, IN(heads));
    printf("  dims   heads = %lld\n", (long long)in[IN(heads)].dims[0]);
    print_tensor("output", "0", &plan.out[vit_block_vit_block_OUT_0], plan.out_elements[vit_block_vit_block_OUT_0],
                 plan.out_bytes[vit_block_vit_block_OUT_0]);
    int64_t total = plan.out_bytes[vit_block_vit_block_OUT_0] +
                    print_temps(vit_block_vit_block_NUM_TEMPS, vit_block_vit_block_temp_name, plan.tmp,
                                plan.tmp_elements, plan.tmp_bytes);
    printf("  dims   b=%lld p=%lld c=%lld d=%lld h=%lld f=%lld; %lld bytes for the output and the intermediates\n",
           (long long)plan.dims.b, (long long)plan.dims.p, (long long)plan.dims.c, (long long)plan.dims.d,
           (long long)plan.dims.h, (long long)plan.dims.f, (long long)total);

    /* A position table without the class token's row. */
    axon_shape out[vit_block_vit_block_NUM_OUTPUTS];
    in[IN(pos)].dims[0] = 196;
    int s1 = vit_block_vit_block_shape(in, out, &err);
    printf("pos of 196 rows: %s\n  %s\n", axon_status_name(s1), err.message);
    /* A class token of another width. */
    in[IN(pos)].dims[0] = 197;
    in[IN(cls)].dims[2] = 96;
    int s2 = vit_block_vit_block_shape(in, out, &err);
    printf("cls of width 96: %s\n  %s\n", axon_status_name(s2), err.message);
    return s1 == AXON_ERR_SIZE && s2 == AXON_ERR_SIZE ? 0 : 1;
}
