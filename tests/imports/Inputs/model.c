/* model.c - the header of model.axon, which imports its blocks
 * (tests/imports/imports.test): valid shapes, then a weight of the wrong
 * width, whose message points into model.axon. */
#include <stdio.h>

#include "model.h"

static void show(int st, const axon_shape *o, const axon_error *e)
{
    if (st) {
        printf("model: %s: %s\n", axon_status_name(st), e->message);
        return;
    }
    printf("model: [");
    for (int i = 0; i < o->rank; i++)
        printf("%s%lld", i ? ", " : "", (long long)o->dims[i]);
    printf("]\n");
}

int main(void)
{
    axon_shape in[model_model_NUM_INPUTS] = {
        { 3, { 2, 7, 64 } }, { 1, { 64 } }, { 2, { 64, 256 } }, { 2, { 256, 64 } }, { 1, { 64 } },
    };
    axon_shape out[model_model_NUM_OUTPUTS];
    axon_error err;
    show(model_model_shape(in, out, &err), out, &err);
    in[model_model_IN_W2].dims[1] = 32;
    show(model_model_shape(in, out, &err), out, &err);
    return 0;
}
