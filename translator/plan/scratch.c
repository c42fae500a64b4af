/* scratch.c - the most scratch any target takes for a step (scratch.h):
 * each target's own formula (scratch_<target>.c) at one and two threads,
 * as fixed + per_thread * threads. */
#include "scratch.h"

extern const ScratchTarget scratch_target_avx512, scratch_target_avx, scratch_target_vec128, scratch_target_plain;

static const ScratchTarget *const targets[] = { &scratch_target_avx512, &scratch_target_avx, &scratch_target_vec128,
                                                &scratch_target_plain };

enum { OP_MATMUL, OP_EINSUM, OP_CONV };

typedef struct Args {
    int op;
    const ScratchShape *s[3];
    int64_t m, n, k;
    int one_d;
    const int64_t *prm;
} Args;

static int64_t one(const ScratchTarget *t, const Args *a)
{
    switch (a->op) {
    case OP_MATMUL:
        return t->matmul(a->s[0], a->s[1], a->s[2]);
    case OP_EINSUM:
        return t->einsum_mnk(a->m, a->n, a->k);
    default:
        return t->conv(a->s[0], a->s[1], a->s[2], a->one_d, a->prm);
    }
}

/* With need(1) and need(2) of a target, per = need(2) - need(1) and
 * fixed = need(1) - per bound need(T) for every T >= 1: a linear need
 * exactly, min(units, T) * slot from above (it is concave).  The most
 * over the targets of each part bounds the most of the needs.  A need
 * past int64 (sizes no bounded function has) gives INT64_MAX, which the
 * caller refuses. */
static ScratchNeed most(const Args *a)
{
    ScratchNeed r = { 0, 0 };
    for (unsigned i = 0; i < sizeof targets / sizeof *targets; i++) {
        *targets[i]->threads = 1;
        int64_t n1 = one(targets[i], a);
        *targets[i]->threads = 2;
        int64_t n2 = one(targets[i], a);
        *targets[i]->threads = 1;
        if (n1 < 0 || n2 < n1 || n1 >= INT64_MAX / 4 || n2 >= INT64_MAX / 4) {
            r.fixed = INT64_MAX;
            return r;
        }
        int64_t per = n2 - n1, fixed = n1 - per;
        fixed = fixed < 0 ? 0 : fixed;
        r.fixed = fixed > r.fixed ? fixed : r.fixed;
        r.per_thread = per > r.per_thread ? per : r.per_thread;
    }
    return r;
}

ScratchNeed scratch_matmul(const ScratchShape *a, const ScratchShape *b, const ScratchShape *out)
{
    Args x = { OP_MATMUL, { a, b, out }, 0, 0, 0, 0, 0 };
    return most(&x);
}

ScratchNeed scratch_einsum_mnk(int64_t m, int64_t n, int64_t k)
{
    Args x = { OP_EINSUM, { 0, 0, 0 }, m, n, k, 0, 0 };
    return most(&x);
}

ScratchNeed scratch_conv(const ScratchShape *x, const ScratchShape *w, const ScratchShape *out, int one_d,
                         const int64_t prm[7])
{
    Args a = { OP_CONV, { x, w, out }, 0, 0, 0, one_d, prm };
    return most(&a);
}
