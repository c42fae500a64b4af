/* static-arena.c - run() of a bounded function in static memory only: the
 * workspace an array of static_arena_mlp_WORKSPACE_BYTES_MAX bytes, the
 * output one of its largest size; every (n, h) the clauses allow fits, and
 * each row of the softmax sums to 1.  No heap anywhere. */
#define STATIC_ARENA_IMPLEMENTATION
#include "static_arena.h"

#include <stdio.h>

static unsigned char arena[static_arena_mlp_WORKSPACE_BYTES_MAX];
static float out[static_arena_mlp_OUT_0_MAX_ELEMENTS];
static float x[64 * 16], w1[16 * 32], w2[32 * 4];

int main(void)
{
    int cases = 0, bad = 0;
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
                float s = out[r * 4] + out[r * 4 + 1] + out[r * 4 + 2] + out[r * 4 + 3];
                if (s < 0.999f || s > 1.001f)
                    bad++;
            }
            cases++;
        }
    printf("%d sizes in a static arena of %lld bytes, %d wrong\n", cases, (long long)sizeof arena, bad);
    return bad != 0;
}
