/* main.c - the transformer block of transformer.axon from C: 16 tokens of
 * width 64, attention through 32-wide queries, keys and values, and a
 * feed-forward layer of 256 units.  The scale (1/sqrt(32)) is a scalar: an
 * axon_shape of rank 0.  The header sizes all six named intermediates.  Inputs
 * and the output are reached by their index constants, the sizes by their
 * annotation names. */
#include <stdio.h>
#include <stdlib.h>

#define TRANSFORMER_IMPLEMENTATION    /* run()'s definitions here (stb-style) */
#include "transformer.h"
#include "print_tensor.h"
#include "run_sample.h"

int main(void)
{
    axon_shape in[transformer_block_NUM_INPUTS];
    in[transformer_block_IN_x] = (axon_shape){ 2, { 16, 64 } };  /* [tokens, width] */
    in[transformer_block_IN_scale] = (axon_shape){ 0, { 0 } };   /* a scalar */
    in[transformer_block_IN_Wq] = in[transformer_block_IN_Wk] = in[transformer_block_IN_Wv] =
        (axon_shape){ 2, { 64, 32 } };
    in[transformer_block_IN_Wo] = (axon_shape){ 2, { 32, 64 } };
    in[transformer_block_IN_bo] = (axon_shape){ 1, { 64 } };
    in[transformer_block_IN_W1] = (axon_shape){ 2, { 64, 256 } };
    in[transformer_block_IN_b1] = (axon_shape){ 1, { 256 } };
    in[transformer_block_IN_W2] = (axon_shape){ 2, { 256, 64 } };
    in[transformer_block_IN_b2] = (axon_shape){ 1, { 64 } };
    const char *names[transformer_block_NUM_INPUTS] = {
        [transformer_block_IN_x] = "x",   [transformer_block_IN_scale] = "scale", [transformer_block_IN_Wq] = "Wq",
        [transformer_block_IN_Wk] = "Wk", [transformer_block_IN_Wv] = "Wv",       [transformer_block_IN_Wo] = "Wo",
        [transformer_block_IN_bo] = "bo", [transformer_block_IN_W1] = "W1",       [transformer_block_IN_b1] = "b1",
        [transformer_block_IN_W2] = "W2", [transformer_block_IN_b2] = "b2",
    };
    transformer_block_plan plan;
    axon_error err;
    int status = transformer_block_prepare(in, &plan, &err);
    if (status != AXON_OK) {
        printf("unexpected %s: %s\n", axon_status_name(status), err.message);
        return 1;
    }
    RUN_SAMPLE(transformer_block, plan, in);
    printf("block: inputs accepted\n");
    print_inputs(transformer_block_NUM_INPUTS, names, in, -1);
    print_tensor("output", "1", &plan.out[transformer_block_OUT_0], plan.out_elements[transformer_block_OUT_0],
                 plan.out_bytes[transformer_block_OUT_0]);
    print_temps(transformer_block_NUM_TEMPS, transformer_block_temp_name, plan.tmp, plan.tmp_elements,
                plan.tmp_bytes);
    printf("  dims   n=%lld d=%lld a=%lld v=%lld f=%lld (tokens, width, qk, v, feed-forward)\n",
           (long long)plan.dims.n, (long long)plan.dims.d, (long long)plan.dims.a, (long long)plan.dims.v,
           (long long)plan.dims.f);

    /* Every buffer sized from the plan: the output, then the temporaries. */
    allocate_buffers("for the output and the temporaries", transformer_block_NUM_OUTPUTS, plan.out_bytes,
                     transformer_block_NUM_TEMPS, plan.tmp_bytes);

    /* Keys projected to 48 columns while the queries have 32. */
    in[transformer_block_IN_Wk].dims[1] = 48;
    axon_shape shapes[transformer_block_NUM_OUTPUTS];
    status = transformer_block_shape(in, shapes, &err);
    printf("Wk of width 48: %s\n  %s\n", axon_status_name(status), err.message);
    return status == AXON_ERR_SIZE ? 0 : 1;
}
