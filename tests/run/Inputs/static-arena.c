/* static-arena.c - run() of a bounded function in static memory only: the
 * workspace an array of static_arena_mlp_WORKSPACE_BYTES_MAX bytes, the
 * output one of its largest size; every (n, h) the clauses allow fits, and
 * the output is the network's, computed here in double (within 1e-5: a
 * softmax of sums of at most 32 products of numbers below 1 in float).
 * It counts the sizes whose products ran the fast kernels with their
 * scratch in the arena (plan.ws_scratch_bytes > 0).  No heap anywhere. */
#define STATIC_ARENA_IMPLEMENTATION
#include "static_arena.h"

#include <math.h>
#include <stdio.h>

/* softmax(linear(relu(linear(x, W1)), W2)) of row r, in double */
static void expected(const float *x, const float *w1, const float *w2, int r, int h, double *o)
{
    double hid[32], m = -1e300, s = 0;
    for (int j = 0; j < h; j++) {
        double a = 0;
        for (int i = 0; i < 16; i++)
            a += (double)x[r * 16 + i] * w1[i * h + j];
        hid[j] = a > 0 ? a : 0;
    }
    for (int c = 0; c < 4; c++) {
        double a = 0;
        for (int j = 0; j < h; j++)
            a += hid[j] * w2[j * 4 + c];
        o[c] = a;
        m = a > m ? a : m;
    }
    for (int c = 0; c < 4; c++)
        s += o[c] = exp(o[c] - m);
    for (int c = 0; c < 4; c++)
        o[c] /= s;
}

static unsigned char arena[static_arena_mlp_WORKSPACE_BYTES_MAX];
static float out[static_arena_mlp_OUT_0_MAX_ELEMENTS];
static float x[64 * 16], w1[16 * 32], w2[32 * 4];

int main(void)
{
    int cases = 0, bad = 0, fast = 0;
    for (int i = 0; i < 64 * 16; i++)
        x[i] = (float)((i * 37) % 17) / 17.0f - 0.5f;
    for (int i = 0; i < 16 * 32; i++)
        w1[i] = (float)((i * 11) % 13) / 13.0f - 0.5f;
    for (int i = 0; i < 32 * 4; i++)
        w2[i] = (float)((i * 7) % 5) / 5.0f - 0.5f;
    for (int n = 0; n <= 64; n += 7)
        for (int h = 1; h <= 32; h += 5) {
            axon_shape in[3] = { { 2, { n, 16 } }, { 2, { 16, h } }, { 2, { h, 4 } } };
            static_arena_mlp_plan plan;
            axon_error err;
            if (static_arena_mlp_prepare(in, &plan, &err) != AXON_OK || plan.workspace_bytes > (int64_t)sizeof arena) {
                bad++;
                continue;
            }
            const void *ins[3] = { x, w1, w2 };
            void *outs[1] = { out };
            if (static_arena_mlp_run(&plan, ins, outs, arena, &err) != AXON_OK) {
                bad++;
                continue;
            }
            for (int r = 0; r < n; r++) {
                double o[4];
                expected(x, w1, w2, r, h, o);
                for (int c = 0; c < 4; c++)
                    bad += !(fabs(out[r * 4 + c] - o[c]) <= 1e-5);
            }
            fast += plan.ws_scratch_bytes > 0;
            cases++;
        }
    printf("%d sizes in a static arena of %lld bytes, %d wrong\n", cases, (long long)sizeof arena, bad);
    printf("%d with the fast kernels' scratch\n", fast);
    return bad != 0;
}
