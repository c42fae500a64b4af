/* plans.c - the shape-function benchmark's check of the generated
 * P_NAME_prepare functions against P_NAME_shape (bench.c calls these in its
 * agreement check, never in the timed loop).  A translation unit of its own
 * so that bench.c, whose code is timed, uses only the _shape functions: with
 * _prepare in the same unit, GCC no longer compiles _shape as a clone of
 * _solve without the plan's stores, and the timed code changes.
 *
 * For each input tuple, _shape returned status (and, when AXON_OK, wrote
 * out[0]); _prepare must return the same status, with err->status filled on
 * failure, and on success the same output shape and the sizes of the plan's
 * dims struct as the inputs give them.  One difference is allowed, and
 * counted: where _shape accepts, _prepare may return AXON_ERR_OVERFLOW, as it
 * also counts the elements and bytes of every intermediate, which may not
 * fit int64_t when the output's do (docs/c-api.md). */
#include <string.h>

#include "attention.h"
#include "transformer12.h"

int attention_plan_agrees(const axon_shape *in, int status, const axon_shape *out);
int transformer_plan_agrees(const axon_shape *in, int status, const axon_shape *out);
int same_shape(const axon_shape *a, const axon_shape *b);
int n_prepare_overflow;

static int plan_status_agrees(int prepared, int status, const axon_error *err)
{
    if (status == AXON_OK && prepared == AXON_ERR_OVERFLOW && err->status == prepared) {
        n_prepare_overflow++;
        return 1;
    }
    return prepared == status && (prepared == AXON_OK || err->status == prepared);
}

/* Whether a and b are the same shape (bench.c's agreement check too). */
int same_shape(const axon_shape *a, const axon_shape *b)
{
    if (a->rank != b->rank)
        return 0;
    for (int i = 0; i < a->rank; i++)
        if (a->dims[i] != b->dims[i])
            return 0;
    return 1;
}

/* x [b, n, d], heads [h]: dims b, n, d, h */
int attention_plan_agrees(const axon_shape *in, int status, const axon_shape *out)
{
    static attention_attention_plan plan;
    axon_error err;
    memset(&err, 0, sizeof err);
    int st = attention_attention_prepare(in, &plan, &err);
    if (!plan_status_agrees(st, status, &err))
        return 0;
    if (st != AXON_OK)
        return 1;
    const axon_shape *x = &in[attention_attention_IN_x];
    return same_shape(&plan.out[attention_attention_OUT_0], out) && plan.dims.b == x->dims[0] &&
           plan.dims.n == x->dims[1] && plan.dims.d == x->dims[2] &&
           plan.dims.h == in[attention_attention_IN_heads].dims[0];
}

/* x [s, d], Wq1 [d, e], W1_1 [d, f]: dims s, d, e, f */
int transformer_plan_agrees(const axon_shape *in, int status, const axon_shape *out)
{
    static transformer12_transformer12_plan plan;
    axon_error err;
    memset(&err, 0, sizeof err);
    int st = transformer12_transformer12_prepare(in, &plan, &err);
    if (!plan_status_agrees(st, status, &err))
        return 0;
    if (st != AXON_OK)
        return 1;
    const axon_shape *x = &in[transformer12_transformer12_IN_x];
    return same_shape(&plan.out[transformer12_transformer12_OUT_0], out) && plan.dims.s == x->dims[0] &&
           plan.dims.d == x->dims[1] && plan.dims.e == in[transformer12_transformer12_IN_Wq1].dims[1] &&
           plan.dims.f == in[transformer12_transformer12_IN_W1_1].dims[1];
}
