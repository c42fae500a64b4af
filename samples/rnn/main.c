/* main.c - the recurrent networks of rnn.axon from C.  Only model is in the
 * header: bidir and residual take cells (functions) as arguments, so axonc
 * does not export them (its two warnings say so).  model's second output,
 * residual's sum, has the width broadcast(b, d): hidden size with features,
 * computed by the header once the inputs are known.  Inputs and outputs are
 * reached by their index constants (s0' is rnn_model_IN__s0_prime), the sizes
 * by their annotation names. */
#include <stdio.h>
#include <stdlib.h>

#define RNN_IMPLEMENTATION    /* run()'s definitions here (stb-style) */
#include "rnn.h"
#include "print_tensor.h"
#include "run_sample.h"

int main(void)
{
    /* 20 steps of a batch of 4 sequences of 32 features; hidden size 32
     * (equal to the features, so that residual's add is exact). */
    axon_shape in[rnn_model_NUM_INPUTS];
    in[rnn_model_IN_s0] = in[rnn_model_IN__s0_prime] = (axon_shape){ 2, { 4, 32 } };
    in[rnn_model_IN_X] = (axon_shape){ 3, { 20, 4, 32 } };
    in[rnn_model_IN_W] = in[rnn_model_IN_R] = (axon_shape){ 2, { 32, 32 } };
    in[rnn_model_IN_B] = (axon_shape){ 1, { 32 } };
    in[rnn_model_IN__W_prime] = in[rnn_model_IN__R_prime] = (axon_shape){ 2, { 32, 32 } };
    in[rnn_model_IN__B_prime] = (axon_shape){ 1, { 32 } };
    const char *names[rnn_model_NUM_INPUTS] = {
        [rnn_model_IN_s0] = "s0", [rnn_model_IN__s0_prime] = "s0'", [rnn_model_IN_X] = "X",
        [rnn_model_IN_W] = "W",   [rnn_model_IN_R] = "R",          [rnn_model_IN_B] = "B",
        [rnn_model_IN__W_prime] = "W'", [rnn_model_IN__R_prime] = "R'", [rnn_model_IN__B_prime] = "B'",
    };
    const char *outputs[rnn_model_NUM_OUTPUTS] = { [rnn_model_OUT_0] = "bidir", [rnn_model_OUT_1] = "residual" };
    rnn_model_plan plan;
    axon_error err;
    int status = rnn_model_prepare(in, &plan, &err);
    if (status != AXON_OK) {
        printf("unexpected %s: %s\n", axon_status_name(status), err.message);
        return 1;
    }
    RUN_SAMPLE(rnn_model, plan, in);
    printf("model: inputs accepted\n");
    print_inputs(rnn_model_NUM_INPUTS, names, in, -1);
    print_outputs(rnn_model_NUM_OUTPUTS, outputs, plan.out, plan.out_elements, plan.out_bytes);
    print_temps(rnn_model_NUM_TEMPS, rnn_model_temp_name, plan.tmp, plan.tmp_elements, plan.tmp_bytes);
    printf("  dims   b=%lld k=%lld n=%lld i=%lld (batch, hidden, steps, features)\n", (long long)plan.dims.b,
           (long long)plan.dims.k, (long long)plan.dims.n, (long long)plan.dims.i);

    allocate_buffers("for the outputs", rnn_model_NUM_OUTPUTS, plan.out_bytes, 0, NULL);

    /* The backward cell's initial state for a batch of 3, not 4. */
    in[rnn_model_IN__s0_prime].dims[0] = 3;
    axon_shape shapes[rnn_model_NUM_OUTPUTS];
    status = rnn_model_shape(in, shapes, &err);
    printf("s0' for a batch of 3: %s\n  %s\n", axon_status_name(status), err.message);
    return status == AXON_ERR_SIZE ? 0 : 1;
}
