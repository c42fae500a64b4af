/* scratch_types.h - what scratch.c and each target's scratch functions
 * (scratch_target.h) share: sizes as rank and axes, a need, a target's
 * entries. */
#ifndef AXONC_SCRATCH_TYPES_H
#define AXONC_SCRATCH_TYPES_H

#include <stdint.h>

/* fixed + per_thread * AXON_MAX_THREADS bytes hold the need for any
 * thread count of at least 1 (a need is linear in the threads, or the
 * smaller of a linear one and a constant). */
typedef struct ScratchNeed {
    int64_t fixed, per_thread;
} ScratchNeed;

/* Shapes as rank and sizes (at most 8 axes). */
typedef struct ScratchShape {
    int rank;
    int64_t dims[8];
} ScratchShape;

/* One target's entries (scratch_target.h), for scratch.c; threads: the
 * thread count its formulas assume (fast.h's AXON_MAX_THREADS). */
typedef struct ScratchTarget {
    int64_t (*matmul)(const ScratchShape *a, const ScratchShape *b, const ScratchShape *out);
    int64_t (*einsum_mnk)(int64_t m, int64_t n, int64_t k);
    int64_t (*conv)(const ScratchShape *x, const ScratchShape *w, const ScratchShape *out, int one_d,
                    const int64_t prm[7]);
    int64_t *threads;
} ScratchTarget;

#endif
