/* main.c - the LSTM of lstm.axon from C: 15 inputs (the sequence, the
 * initial state and the weights), 3 outputs (the final state h and c, and
 * the per-step outputs; tuples are flattened left to right).  The gate
 * weights' widths are checked at run time (`e in {1, d}` and so on in the
 * signature): a wrong width is a broadcast error.  Inputs and outputs are
 * reached by their index constants, the sizes by their annotation names
 * (plan.dims.n, b, d, k) or, for the gate widths, which have none, by the
 * letters of lstm's signature (which skip the names: a, c, e, ..., j). */
#include <stdio.h>
#include <stdlib.h>

#define LSTM_IMPLEMENTATION    /* run()'s definitions here (stb-style) */
#include "lstm.h"
#include "print_tensor.h"
#include "run_sample.h"

int main(void)
{
    /* 10 steps of a batch of 4 sequences of 8 features; hidden size 16. */
    axon_shape in[lstm_lstm_NUM_INPUTS];
    in[lstm_lstm_IN_x] = (axon_shape){ 3, { 10, 4, 8 } };
    in[lstm_lstm_IN_h] = in[lstm_lstm_IN_c] = (axon_shape){ 2, { 4, 16 } };
    in[lstm_lstm_IN_Wi] = in[lstm_lstm_IN_Wf] = in[lstm_lstm_IN_Wo] = in[lstm_lstm_IN_Wc] =
        (axon_shape){ 2, { 8, 16 } };
    in[lstm_lstm_IN_Ri] = in[lstm_lstm_IN_Rf] = in[lstm_lstm_IN_Ro] = in[lstm_lstm_IN_Rc] =
        (axon_shape){ 2, { 16, 16 } };
    in[lstm_lstm_IN_Bi] = in[lstm_lstm_IN_Bf] = in[lstm_lstm_IN_Bo] = in[lstm_lstm_IN_Bc] =
        (axon_shape){ 1, { 16 } };
    const char *names[lstm_lstm_NUM_INPUTS] = {
        [lstm_lstm_IN_x] = "x",   [lstm_lstm_IN_h] = "h",   [lstm_lstm_IN_c] = "c",
        [lstm_lstm_IN_Wi] = "Wi", [lstm_lstm_IN_Wf] = "Wf", [lstm_lstm_IN_Wo] = "Wo", [lstm_lstm_IN_Wc] = "Wc",
        [lstm_lstm_IN_Ri] = "Ri", [lstm_lstm_IN_Rf] = "Rf", [lstm_lstm_IN_Ro] = "Ro", [lstm_lstm_IN_Rc] = "Rc",
        [lstm_lstm_IN_Bi] = "Bi", [lstm_lstm_IN_Bf] = "Bf", [lstm_lstm_IN_Bo] = "Bo", [lstm_lstm_IN_Bc] = "Bc",
    };
    /* The final state (h, c), a tuple flattened, then the per-step outputs. */
    const char *outputs[lstm_lstm_NUM_OUTPUTS] = {
        [lstm_lstm_OUT_0] = "h final", [lstm_lstm_OUT_1] = "c final", [lstm_lstm_OUT_2] = "outputs",
    };
    lstm_lstm_plan plan;
    axon_error err;
    int status = lstm_lstm_prepare(in, &plan, &err);
    if (status != AXON_OK) {
        printf("unexpected %s: %s\n", axon_status_name(status), err.message);
        return 1;
    }
    RUN_SAMPLE(lstm_lstm, plan, in);
    printf("lstm: inputs accepted\n");
    print_inputs(lstm_lstm_NUM_INPUTS, names, in, -1);
    print_outputs(lstm_lstm_NUM_OUTPUTS, outputs, plan.out, plan.out_elements, plan.out_bytes);
    /* The cell's intermediates are per step, inside the loop: none here. */
    print_temps(lstm_lstm_NUM_TEMPS, lstm_lstm_temp_name, plan.tmp, plan.tmp_elements, plan.tmp_bytes);
    printf("  dims   n=%lld b=%lld d=%lld k=%lld (steps, batch, features, hidden)\n",
           (long long)plan.dims.n, (long long)plan.dims.b, (long long)plan.dims.d, (long long)plan.dims.k);
    printf("         a=%lld c=%lld e=%lld f=%lld g=%lld h=%lld i=%lld j=%lld (gate widths)\n",
           (long long)plan.dims.a, (long long)plan.dims.c, (long long)plan.dims.e, (long long)plan.dims.f,
           (long long)plan.dims.g, (long long)plan.dims.h, (long long)plan.dims.i, (long long)plan.dims.j);

    allocate_buffers("for the outputs", lstm_lstm_NUM_OUTPUTS, plan.out_bytes, 0, NULL);

    /* The candidate gate's input weights Wc with 12 columns instead of 16:
     * 12 neither equals the hidden size nor is 1, so it cannot broadcast. */
    in[lstm_lstm_IN_Wc].dims[1] = 12;
    axon_shape shapes[lstm_lstm_NUM_OUTPUTS];
    status = lstm_lstm_shape(in, shapes, &err);
    printf("Wc of width 12: %s\n  %s\n", axon_status_name(status), err.message);
    return status == AXON_ERR_BROADCAST ? 0 : 1;
}
