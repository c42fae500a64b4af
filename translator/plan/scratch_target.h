/* scratch_target.h - one target's scratch functions: runtime/fast/fast.h
 * itself, compiled into axonc with the target's tile (AXON__TARGET_VB,
 * _MR, _NR) and AXON_MAX_THREADS read from its own variable, which
 * scratch.c sets through ScratchTarget.threads, so the
 * estimate is the kernels' own formula, never a copy.  Included once by
 * each scratch_<target>.c, which defines SCRATCH_TARGET_NAME. */
#include <stdint.h>

#include "scratch_types.h"

static int64_t target_threads = 1;
#define AXON_MAX_THREADS target_threads
#include "../../runtime/axon_runtime.h"
#include "../../runtime/fast/fast.h"

static void to_shape(const ScratchShape *s, axon_shape *t)
{
    t->rank = s->rank;
    for (int i = 0; i < AXON_MAX_RANK; i++)
        t->dims[i] = i < s->rank && i < 8 ? s->dims[i] : 1;
}

static int64_t t_matmul(const ScratchShape *a, const ScratchShape *b, const ScratchShape *out)
{
    axon_shape x, y, o;
    to_shape(a, &x);
    to_shape(b, &y);
    to_shape(out, &o);
    return axon__f_matmul_scratch(&x, &y, &o);
}

static int64_t t_einsum_mnk(int64_t m, int64_t n, int64_t k)
{
    return axon__f_einsum_scratch_mnk(m, n, k);
}

static int64_t t_conv(const ScratchShape *x, const ScratchShape *w, const ScratchShape *out, int one_d,
                      const int64_t prm[7])
{
    axon_shape a, b, o;
    to_shape(x, &a);
    to_shape(w, &b);
    to_shape(out, &o);
    return axon__f_conv_scratch(&a, &b, &o, one_d, prm[0], prm[1], prm[2], prm[3], prm[4], prm[5], prm[6]);
}

const ScratchTarget SCRATCH_TARGET_NAME = { t_matmul, t_einsum_mnk, t_conv, &target_threads };
