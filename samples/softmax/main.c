/* main.c - the rank-polymorphic softmax of softmax.axon from C.  One shape
 * function, softmax_softmax_*, accepts an input of any rank >= 1: here a
 * vector of 10 class scores, then a [10, 4, 16] map of scores (10 classes
 * for each of 4 x 16 pixels).  A scalar has no axis to normalise over and is
 * rejected.  The input and output are reached by their index constants;
 * x : f32 s names the whole shape, not its sizes, so plan.dims has the
 * letters of the signature: a, and the shape variable b. */
#include <stdio.h>
#include <stdlib.h>

#define SOFTMAX_IMPLEMENTATION    /* run()'s definitions here (stb-style) */
#include "softmax.h"
#include "print_tensor.h"
#include "run_sample.h"

/* Checks x's shape, prints the plan and allocates every buffer from it. */
static int show(axon_shape x)
{
    axon_shape in[softmax_softmax_NUM_INPUTS];
    in[softmax_softmax_IN_x] = x;
    softmax_softmax_plan plan;
    axon_error err;
    int status = softmax_softmax_prepare(in, &plan, &err);
    if (status != AXON_OK) {
        printf("unexpected %s: %s\n", axon_status_name(status), err.message);
        return 1;
    }
    RUN_SAMPLE(softmax_softmax, plan, in);
    printf("softmax, rank %d: accepted\n", x.rank);
    print_tensor("input", "x", &in[softmax_softmax_IN_x], axon_elements(&in[softmax_softmax_IN_x]),
                 axon_bytes(&in[softmax_softmax_IN_x], sizeof(float)));
    print_tensor("output", "1", &plan.out[softmax_softmax_OUT_0], plan.out_elements[softmax_softmax_OUT_0],
                 plan.out_bytes[softmax_softmax_OUT_0]);
    print_temps(softmax_softmax_NUM_TEMPS, softmax_softmax_temp_name, plan.tmp, plan.tmp_elements, plan.tmp_bytes);
    /* a is the axis normalised over; b, a shape variable, is all the others. */
    char b[256];
    format_dims(b, sizeof b, &plan.dims.b);
    printf("  dims   a=%lld b=%s\n", (long long)plan.dims.a, b);

    allocate_buffers("for the output and the temporaries", softmax_softmax_NUM_OUTPUTS, plan.out_bytes,
                     softmax_softmax_NUM_TEMPS, plan.tmp_bytes);
    return 0;
}

int main(void)
{
    axon_shape vector = { 1, { 10 } };
    axon_shape map = { 3, { 10, 4, 16 } };
    if (show(vector) != 0 || show(map) != 0)
        return 1;

    /* A scalar (rank 0): reduce has no outermost axis to fold. */
    axon_shape in[softmax_softmax_NUM_INPUTS];
    in[softmax_softmax_IN_x] = (axon_shape){ 0, { 0 } };
    axon_shape out[softmax_softmax_NUM_OUTPUTS];
    axon_error err;
    int status = softmax_softmax_shape(in, out, &err);
    printf("a scalar: %s\n  %s\n", axon_status_name(status), err.message);
    return status == AXON_ERR_RANK ? 0 : 1;
}
