/* nonzero-chain.c - run() of nonzero-chain.axon on data that leaves each
 * nonzero fewer elements than its planned bound (none at all, some, all):
 * prints the status, the output's size from run_shapes() and its values. */
#define NONZERO_CHAIN_IMPLEMENTATION
#include "nonzero_chain.h"

#include <stdio.h>

static char ws[1 << 16];

static void show(const char *what, int st, const axon_error *err, const axon_shape *s, const int32_t *v)
{
    printf("%s: %s%s%s", what, axon_status_name(st), st ? ": " : "", st ? err->message : "");
    if (st == AXON_OK) {
        printf(" [%lld]", (long long)s->dims[0]);
        for (int64_t i = 0; i < s->dims[0]; i++)
            printf(" %d", (int)v[i]);
    }
    printf("\n");
}

int main(void)
{
    float cases[3][4] = { { 0, 0, 0, 0 }, { 0, 2, 0, -1 }, { 1, 2, 3, 4 } };
    const char *names[3] = { "none", "some", "all" };
    for (int n = 1; n <= 4; n += 3)
        for (int c = 0; c < 3; c++) {
            axon_error err;
            axon_shape in[1] = { { 1, { n } } }, os;
            int32_t o[64];
            const void *ins[1] = { cases[c] };
            void *outs[1] = { o };
            char what[64];
            nonzero_chain_twice_plan tp;
            if (nonzero_chain_twice_prepare(in, &tp, &err) != AXON_OK)
                return 1;
            int st = nonzero_chain_twice_run(&tp, ins, outs, ws, &err);
            if (st == AXON_OK)
                nonzero_chain_twice_run_shapes(&tp, ws, &os);
            snprintf(what, sizeof what, "twice, [%d] %s", n, names[c]);
            show(what, st, &err, &os, o);
            nonzero_chain_thrice_plan hp;
            if (nonzero_chain_thrice_prepare(in, &hp, &err) != AXON_OK)
                return 1;
            st = nonzero_chain_thrice_run(&hp, ins, outs, ws, &err);
            if (st == AXON_OK)
                nonzero_chain_thrice_run_shapes(&hp, ws, &os);
            snprintf(what, sizeof what, "thrice, [%d] %s", n, names[c]);
            show(what, st, &err, &os, o);
        }
    return 0;
}
