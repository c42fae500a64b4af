/* scratch.h - the scratch run()'s fast kernels take for a step at given
 * sizes, the most over the targets runtime/fast/fast.h knows (AVX-512,
 * AVX, 128-bit vectors, plain C).  A function whose sizes are bounded
 * (spec 8b) reserves it in P_NAME_WORKSPACE_BYTES_MAX (kernels.c), so
 * that a static arena also runs the fast kernels; prepare() still checks
 * the need at the actual sizes against the arena and runs the reference
 * where it would not fit. */
#ifndef AXONC_SCRATCH_H
#define AXONC_SCRATCH_H

#include "scratch_types.h"

/* matmul (and linear viewed as it): fast.h's axon__f_matmul_scratch. */
ScratchNeed scratch_matmul(const ScratchShape *a, const ScratchShape *b, const ScratchShape *out);
/* A two-operand einsum's products of at most m rows, n columns, a sum of k. */
ScratchNeed scratch_einsum_mnk(int64_t m, int64_t n, int64_t k);
/* A convolution: axon__f_conv_scratch's arguments (one_d: rank-3 shapes;
 * prm: s0, s1, p0, p1, d0, d1, groups). */
ScratchNeed scratch_conv(const ScratchShape *x, const ScratchShape *w, const ScratchShape *out, int one_d,
                         const int64_t prm[7]);

#endif
