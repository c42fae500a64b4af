/* fast.h - the fast paths of run() beside the reference kernels
 * (runtime/kernels/, kernels.h): f32 kernels for what dominates time, each
 * with the reference's meaning and a fallback to it where its preconditions
 * do not hold.  The generated run() calls the fast entry for f32 and the
 * reference for every other type; a fast kernel never allocates: what it
 * needs beyond its operands (packed panels, im2col columns) is scratch
 * that prepare() sizes and places in the workspace, live for the one step.
 *
 * Portability: GNU C vector extensions under __GNUC__ (the user's -march
 * picks AVX-512, AVX2 or NEON: 16 lanes of float where AVX-512 is there,
 * 8 else), a plain C fallback otherwise; C99, C++11, nvcc host code, all
 * -Wall -Wextra -Werror clean.  Threads: the outer loops split with OpenMP
 * where the implementation's translation unit is compiled with -fopenmp
 * (_OPENMP), single-threaded otherwise, the results equal either way up
 * to the tolerance of tests/fast (summation order may differ between
 * blockings, never between thread counts).  AXON_MAX_THREADS (default 8,
 * the same in every translation unit) bounds the threads a call uses and
 * the scratch prepare() reserves for them.  With AXON_USE_CBLAS defined in
 * the implementation's unit, GEMM goes through cblas_sgemm (link the BLAS).
 *
 * The entries (every one AXON_RUN_FN unless said; scratch functions are
 * AXON_FN, prepare() calls them on host and device):
 *
 * gemm.c
 *   int64_t axon__gemm_scratch(int64_t m, int64_t n, int64_t k);          AXON_FN
 *   void axon__sgemm(int64_t m, int64_t n, int64_t k,
 *                    const float *a, int64_t a_rs, int64_t a_cs,
 *                    const float *b, int64_t b_rs, int64_t b_cs,
 *                    float *c, int64_t c_rs, int64_t c_cs, int accumulate, void *scratch);
 *       c[i, j] (+)= sum_p a[i, p] * b[p, j], strides in elements (any,
 *       0 allowed for a broadcast operand); scratch of gemm_scratch bytes
 *       (aligned to 64 by the workspace plan).  Packed, cache-blocked, a
 *       register-tiled micro-kernel (BLIS's five loops).
 *   int64_t axon__f_matmul_scratch(const axon_shape *a, const axon_shape *b, const axon_shape *out);  AXON_FN
 *   void axon__f_matmul(const axon_tensor *a, const axon_tensor *b, const axon_tensor *out, void *scratch);
 *       kernels.h's matmul (batch axes of out's rank, stride 0 where
 *       broadcast, linear's weight so) for f32.
 *   int64_t axon__f_einsum_scratch(...), void axon__f_einsum(...)
 *       kernels.h's einsum for f32 where its labels fall into batch, row,
 *       column and summed groups that strided views can read (else the
 *       reference).
 *
 * conv.c, pool.c, norm.c
 *   int64_t axon__f_conv2d_scratch(const axon_shape *x, const axon_shape *w, const axon_shape *out,
 *                                  const int64_t stride[2], const int64_t pad[2], const int64_t dil[2],
 *                                  int64_t groups);                     AXON_FN
 *   void axon__f_conv2d(x, w, out, stride, pad, dil, groups, void *scratch);
 *       kernels.h's conv2d for f32: 1x1 as a contraction, depthwise and
 *       grouped directly, the rest by im2col (or packing) into gemm.
 *   void axon__f_pool2d(...), axon__f_softmax(...), axon__f_layernorm(...)
 *       as the references, one pass where the maths allows.
 *
 * A fast kernel is tested against its reference on random sizes including
 * every tile edge (tests/fast); benchmarks are under bench/ (README).
 */
#ifndef AXON_FAST_H
#define AXON_FAST_H

#ifndef AXON_MAX_THREADS
#define AXON_MAX_THREADS 8
#endif


/* ==== what prepare() needs: every translation unit has it (the generated
 * header puts it before the functions); the kernels are in the files. */

/* ---- gemm.c: the configuration: vector width, tile, block limits ---------------- */

#if defined(AXON__TARGET_MR)
/* (a target named by its tile: axonc's own estimate of each target's
 * scratch for a bounded function's WORKSPACE_BYTES_MAX,
 * translator/emit/scratch.c; the kernels are never compiled so) */
#define AXON__GEMM_VB AXON__TARGET_VB
#define AXON__GEMM_MR AXON__TARGET_MR
#define AXON__GEMM_NR AXON__TARGET_NR
#elif defined(__GNUC__) && !defined(AXON_GEMM_SCALAR)
#if defined(__AVX512F__)
#define AXON__GEMM_VB 64
#define AXON__GEMM_MR 8
#elif defined(__AVX__)
#define AXON__GEMM_VB 32
#define AXON__GEMM_MR 6
#else
#define AXON__GEMM_VB 16
#define AXON__GEMM_MR 6
#endif
#define AXON__GEMM_VL (AXON__GEMM_VB / 4)          /* lanes */
#define AXON__GEMM_NR (2 * AXON__GEMM_VL)          /* two vectors a row */
typedef float axon__vf __attribute__((vector_size(AXON__GEMM_VB), may_alias));
typedef float axon__vfu __attribute__((vector_size(AXON__GEMM_VB), aligned(4), may_alias));
#else
#define AXON__GEMM_VB 0
#define AXON__GEMM_MR 4
#define AXON__GEMM_NR 4
#endif

/* Block limits: an A block (Mc x Kc) stays in L2, a B sliver (Kc x NR) in
 * L1 beside the A sliver streaming through, the B panel (Kc x Nc) in L3. */
#ifndef AXON__GEMM_KC
#define AXON__GEMM_KC 384
#endif
#ifndef AXON__GEMM_MC
#define AXON__GEMM_MC (AXON__GEMM_MR * (168 / AXON__GEMM_MR))
#endif
#ifndef AXON__GEMM_NC
#define AXON__GEMM_NC (AXON__GEMM_NR * (4096 / AXON__GEMM_NR))
#endif
/* Operands read in place, where their rows are contiguous: A always (its
 * MR rows stream through L1 as well as a packed sliver does, and packing
 * costs more than it saves); B where it is small (k * n floats in L2: a
 * sliver read in place from a large B, rows far apart, misses in L1 and
 * the TLB).  Measured on AVX-512 (bench/README.md). */
#ifndef AXON__GEMM_A_IN_PLACE
#define AXON__GEMM_A_IN_PLACE(m, n, k) 1
#endif
#ifndef AXON__GEMM_B_IN_PLACE
#define AXON__GEMM_B_IN_PLACE(m, n, k) ((k) * (n) <= 65536)
#endif
/* Below this many multiply-adds a product runs on one thread. */
#ifndef AXON__GEMM_SERIAL
#define AXON__GEMM_SERIAL ((int64_t)48 * 48 * 48)
#endif

/* GCC: fused multiply-add in the micro-kernel whatever -std says. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__) && !defined(__INTEL_COMPILER)
#define AXON__GEMM_FMA __attribute__((optimize("fp-contract=fast")))
#else
#define AXON__GEMM_FMA
#endif

/* The block sizes of a product, from m, n, k alone (the scratch and the
 * summation order depend on nothing else). */
typedef struct axon__gemm_blocks {
    int64_t mc, nc, kc;
} axon__gemm_blocks;

/* n split into ceil(n / max) equal blocks, rounded up to a multiple of r
 * (max is a multiple of r: the result is at most max, and at most n
 * rounded up). */
AXON_FN int64_t axon__gemm_split(int64_t n, int64_t max, int64_t r)
{
    int64_t parts, b;
    if (n <= 0)
        return r;
    parts = n / max + (n % max != 0);
    b = n / parts + (n % parts != 0);
    return (b + r - 1) / r * r;
}

AXON_FN axon__gemm_blocks axon__gemm_block_sizes(int64_t m, int64_t n, int64_t k)
{
    axon__gemm_blocks bl;
    bl.mc = axon__gemm_split(m, AXON__GEMM_MC, AXON__GEMM_MR);
    bl.nc = axon__gemm_split(n, AXON__GEMM_NC, AXON__GEMM_NR);
    bl.kc = axon__gemm_split(k, AXON__GEMM_KC, 1);
    return bl;
}

AXON_FN int64_t axon__gemm_round64(int64_t bytes)
{
    return (bytes + 63) / 64 * 64;
}

/* Bytes of one thread's A block and of the B panel. */
AXON_FN int64_t axon__gemm_a_bytes(axon__gemm_blocks bl)
{
    return axon__gemm_round64(bl.mc * bl.kc * (int64_t)sizeof(float));
}

AXON_FN int64_t axon__gemm_b_bytes(axon__gemm_blocks bl)
{
    return axon__gemm_round64(bl.kc * bl.nc * (int64_t)sizeof(float));
}

/* The scratch for these blocks: 64 bytes of slack to align its start, the
 * B panel, and an A block for each of `threads` threads. */
AXON_FN int64_t axon__gemm_bytes(axon__gemm_blocks bl, int64_t threads)
{
    return 64 + axon__gemm_b_bytes(bl) + threads * axon__gemm_a_bytes(bl);
}

/* The scratch of axon__sgemm. */
AXON_FN int64_t axon__gemm_scratch(int64_t m, int64_t n, int64_t k)
{
    if (m <= 0 || n <= 0 || k <= 0)
        return 0;
    return axon__gemm_bytes(axon__gemm_block_sizes(m, n, k), AXON_MAX_THREADS);
}

/* The scratch of one thread's product (axon__sgemm_serial). */
AXON_FN int64_t axon__gemm_scratch_serial(int64_t m, int64_t n, int64_t k)
{
    if (m <= 0 || n <= 0 || k <= 0)
        return 0;
    return axon__gemm_bytes(axon__gemm_block_sizes(m, n, k), 1);
}

/* At least axon__gemm_scratch(m, n, k) for every m <= mx, n <= nx, k <= kx
 * (the blocks at most the sizes rounded up, and at most the limits). */
AXON_FN int64_t axon__gemm_scratch_bound(int64_t mx, int64_t nx, int64_t kx)
{
    axon__gemm_blocks bl;
    if (mx <= 0 || nx <= 0 || kx <= 0)
        return 0;
    bl.mc = mx >= AXON__GEMM_MC ? AXON__GEMM_MC : (mx + AXON__GEMM_MR - 1) / AXON__GEMM_MR * AXON__GEMM_MR;
    bl.nc = nx >= AXON__GEMM_NC ? AXON__GEMM_NC : (nx + AXON__GEMM_NR - 1) / AXON__GEMM_NR * AXON__GEMM_NR;
    bl.kc = kx >= AXON__GEMM_KC ? AXON__GEMM_KC : kx;
    return axon__gemm_bytes(bl, AXON_MAX_THREADS);
}

/* ---- matmul.c: the scratch of a product and an einsum ----------------- */

/* a * b, INT64_MAX past it (sizes: both at least 0) */
AXON_FN int64_t axon__f_sat(int64_t a, int64_t b)
{
    return b != 0 && a > INT64_MAX / b ? INT64_MAX : a * b;
}

AXON_FN int64_t axon__f_numel(const axon_shape *s)
{
    int64_t n = 1;
    for (int i = 0; i < s->rank; i++) {
        if (s->dims[i] <= 0)
            return 0;
        n = axon__f_sat(n, s->dims[i]);
    }
    return n;
}

/* out [..., m, n] = a [..., m, k] b [..., k, n]: the scratch of any
 * product the plan can make: its rows and its columns are out's axes, at
 * most out's elements each, its sum is k.  A formula of out's element
 * count and k alone, which the views of run() do not change (linear's
 * [s, 1, m] for [s, m]); the small products side by side use it only where
 * they fit (axon__f_side_by_side). */
/* The scratch of a two-operand einsum whose products have at most m rows,
 * n columns and a sum of k (run()'s code knows them from the spec: the
 * sizes of the labels of out and a alone, of out and b alone, of a or b
 * and not out). */
AXON_FN int64_t axon__f_einsum_scratch_mnk(int64_t m, int64_t n, int64_t k)
{
    return axon__gemm_scratch_bound(m, n, k);
}

AXON_FN int64_t axon__f_matmul_scratch(const axon_shape *a, const axon_shape *b, const axon_shape *out)
{
    const int64_t no = axon__f_numel(out), k = a->rank > 0 ? a->dims[a->rank - 1] : 0;
    const int64_t na = axon__f_numel(a), nb = axon__f_numel(b);
    const int64_t bound = axon__gemm_scratch_bound(no, no, k);
    /* A product reads distinct elements of a (m x k) and of b (k x n):
     * its B panel holds at most nb + NR k floats, each A block na + MR k. */
    const int64_t pb = axon__f_sat(k, AXON__GEMM_NR) > INT64_MAX / 8 - nb ? INT64_MAX / 8 : nb + k * AXON__GEMM_NR;
    const int64_t pa = axon__f_sat(k, AXON__GEMM_MR) > INT64_MAX / 8 - na ? INT64_MAX / 8 : na + k * AXON__GEMM_MR;
    int64_t ops;
    if (no == 0 || k == 0)
        return 0;
    ops = pb > INT64_MAX / 16 || pa > INT64_MAX / 16 / AXON_MAX_THREADS
              ? INT64_MAX
              : 64 + axon__gemm_round64(4 * pb) + AXON_MAX_THREADS * axon__gemm_round64(4 * pa);
    return ops < bound ? ops : bound;
}

/* The scratch of a two-operand einsum whose operands and out have these
 * shapes (as the Axon operator's, or after axon__einsum_setup): a
 * product's rows and columns are out's axes, at most its elements each;
 * its sum is labels of the operands, each of either one's size, at most
 * the product of their element counts (a label of neither is a factor,
 * not a sum). */
AXON_FN int64_t axon__f_einsum_scratch(int nops, const axon_shape *a, const axon_shape *b, const axon_shape *out)
{
    const int64_t no = axon__f_numel(out), na = axon__f_numel(a), nb = axon__f_numel(b);
    if (nops != 2 || no == 0 || na == 0 || nb == 0)
        return 0;
    return axon__gemm_scratch_bound(no, no, na > INT64_MAX / nb ? INT64_MAX : na * nb);
}

/* ---- conv.c: the plan: a function of the shapes and parameters alone ------------- *
 * prepare() sizes the scratch with it and the kernel follows it, so the two
 * agree whatever the views' strides, the vector width or the threads: the
 * width in it is the widest (16), the threads AXON_MAX_THREADS.
 *
 * ZERO: no taps (c, r or q is 0): out is 0.
 * DIRECT (depthwise, and groups of few channels): per unit (image, group,
 * block of the group's out channels) the group's input planes are packed
 * into the thread's scratch, zero padded and split by column phase (column
 * z of phase t is x's column z * s1 + t - p1), so that output row i,
 * column j, tap (r, q) reads packed row i * s0 + r * d0, phase
 * (q * d1) % s1, column j + (q * d1) / s1: contiguous along j, every read
 * inside; the output rows are then computed W columns at a time.
 * GEMM (the rest): per unit (image, group, block of output pixels, block
 * of out channels) B = the pixels' columns (im2col into the thread's
 * scratch; for a 1x1 stride-1 unpadded conv, x itself where its pixels are
 * one stride apart; on the grid, below, rows of the grid read in place),
 * then out[block] = W[group] B by axon__sgemm, written into out (or a
 * buffer copied there when out's pixels are not one stride apart).
 * The grid (wide): x's planes, zero padded and split into phases by the
 * stride (phase (a, b) of a plane: padded row y s0 + a, column z s1 + b at
 * [y, z]; hg x wg each, wg = ow + (q - 1) d1 / s1), so that output pixel
 * (i, j) of tap (r, q) is element i wg + j of phase ((r d0) % s0,
 * (q d1) % s1) moved on by ((r d0) / s0) wg + (q d1) / s1: each row of
 * the im2col is one run of the grid, offs[(ci, r, q)] from its start, and
 * the product reads it in place.  Pixels are then counted on the grid,
 * i wg + j, the columns j >= ow computed and dropped (at most a quarter
 * of them).  A stride-1 unpadded conv's grid is x itself where its rows
 * are contiguous.  The grid is built once, in the shared scratch, with the
 * table of offsets.  The blocks are fixed by the shapes, each unit's arithmetic is
 * the same on any thread: the bits do not depend on the threads. */
#define AXON__CV_ZERO 1
#define AXON__CV_DIRECT 2
#define AXON__CV_GEMM 3
#define AXON__CV_REF 4                  /* sizes past the plan's arithmetic: the reference */
#define AXON__CV_DENSE 5                /* one window covering the image: one product */
#define AXON__CV_WINO 6                 /* 3x3 stride 1: Winograd F(2x2, 3x3) */
#define AXON__CV_WMAX 16                /* the widest axon__fv, in floats */
#define AXON__CV_COL_FLOATS 131072      /* a pixel block's im2col: 512 KiB */
#define AXON__CV_UNITS 8                /* units wanted for the threads */

typedef struct axon__cv_plan {
    int kind;
    int64_t nb, g, c, k, h, w, r, q, oh, ow, s0, s1, p0, p1, d0, d1;
    int64_t kk, np;                     /* taps c * r * q; output pixels oh * ow */
    int64_t units;
    /* DIRECT */
    int64_t hp, mrow, rowlen, plane, nkc, kc;
    /* GEMM */
    int64_t nc, nch, mc, nmc, col, cbuf, gemm;
    int64_t wide;                       /* 1: pixels on the input's grid (above) */
    int64_t hg, wg, ph0, ph1, cplane;   /* the grid: a phase's rows, columns; phases; a channel's floats */
    int64_t gs0, gs1;                   /* the grid's phase steps (the stride; WINO: 2) */
    int64_t grid;                       /* the grid's bytes in the scratch (0: x itself) */
    /* WINO */
    int64_t th, tw, nt, tb;             /* tiles down, across; on the grid; a unit's (at most) */
    int64_t ev, em, eu;                 /* V's, M's, U's stride from one e to the next (floats) */
    int64_t wv, wm;                     /* a unit's transformed inputs, products (floats) */
    int64_t shared;                     /* scratch bytes before the slots: the grid, offsets */
    int64_t slot;                       /* scratch bytes per thread */
} axon__cv_plan;

AXON_FN void axon__cv_make_plan(const int64_t *xd, const int64_t *wd, const int64_t *od, const int64_t stride[2],
                                const int64_t pad[2], const int64_t dil[2], int64_t groups, axon__cv_plan *p)
{
    p->kind = 0;
    p->slot = 0;
    p->units = 0;
    p->kk = p->np = 0;
    p->hp = p->mrow = p->rowlen = p->plane = p->nkc = p->kc = 0;
    p->nc = p->nch = p->mc = p->nmc = p->col = p->cbuf = p->gemm = p->wide = 0;
    p->hg = p->wg = p->ph0 = p->ph1 = p->cplane = p->grid = p->shared = p->gs0 = p->gs1 = 0;
    p->th = p->tw = p->nt = p->tb = p->ev = p->em = p->eu = p->wv = p->wm = 0;
    p->nb = od[0];
    p->g = groups;
    p->k = groups > 0 ? od[1] / groups : 0;
    p->c = wd[1];
    p->h = xd[2];
    p->w = xd[3];
    p->r = wd[2];
    p->q = wd[3];
    p->oh = od[2];
    p->ow = od[3];
    p->s0 = stride[0];
    p->s1 = stride[1];
    p->p0 = pad[0];
    p->p1 = pad[1];
    p->d0 = dil[0];
    p->d1 = dil[1];
    if (p->k <= 0 || p->nb <= 0 || p->oh <= 0 || p->ow <= 0)
        return;                         /* no output */
    {
        /* every product below stays far inside int64 (in double: a bound,
         * not a value), or the reference runs: prepare() may see any sizes
         * that the shape functions accept */
        const double lim = 1125899906842624.0;     /* 2^50 */
        const double hp = ((double)p->oh - 1) * (double)p->s0 + ((double)p->r - 1) * (double)p->d0 + 1;
        const double row = (double)(p->s1 > 0 ? p->s1 : 1) *
                           ((double)p->ow + 16 + ((double)p->q - 1) * (double)p->d1);
        int big = p->s0 < 1 || p->s1 < 1 || p->d0 < 0 || p->d1 < 0 || p->g < 1 ||
                  (double)p->c * (double)p->r * (double)p->q > lim || (double)p->oh * (double)p->ow > lim ||
                  (double)p->nb * (double)p->g * (double)p->k > lim ||
                  (double)p->nb * (double)p->g * (double)p->oh * (double)p->ow > lim ||
                  (double)p->c * hp * row * 4 > lim || (double)p->h > lim || (double)p->w > lim;
        if (big) {
            p->kind = AXON__CV_REF;
            return;
        }
    }
    p->kk = p->c * p->r * p->q;
    p->np = p->oh * p->ow;
    if (p->kk > 0 && p->g == 1 && p->oh == 1 && p->ow == 1 && p->p0 == 0 && p->p1 == 0 && p->r == p->h &&
        p->q == p->w) {
        /* DENSE: the window is the whole image (a classifier written as a
         * conv): out[b, o] = sum over (c, r, q) of x[b, ...] w[o, ...], one
         * product of nb x kk by kk x k, x and w read in place */
        p->kind = AXON__CV_DENSE;
        p->units = 1;
        p->slot = axon__gemm_scratch(p->nb, p->k, p->kk);
        return;
    }
    if (p->kk == 0) {
        p->kind = AXON__CV_ZERO;
        return;
    }
    if (p->c == 1 || (p->c <= 4 && p->k <= 8)) {
        const int64_t base = p->nb * p->g;
        p->kind = AXON__CV_DIRECT;
        p->hp = (p->oh - 1) * p->s0 + (p->r - 1) * p->d0 + 1;
        p->mrow = (p->ow > AXON__CV_WMAX ? p->ow : AXON__CV_WMAX) + (p->q - 1) * p->d1 / p->s1;
        p->rowlen = p->s1 * p->mrow;
        p->plane = (p->hp * p->rowlen + 15) / 16 * 16;
        p->nkc = base >= AXON__CV_UNITS ? 1 : (AXON__CV_UNITS + base - 1) / base;
        p->nkc = p->nkc > p->k ? p->k : p->nkc;
        p->kc = (p->k + p->nkc - 1) / p->nkc;
        p->nkc = (p->k + p->kc - 1) / p->kc;
        p->units = base * p->nkc;
        p->slot = axon__gemm_round64(p->c * p->plane * 4);
        return;
    }
#ifndef AXON_NO_WINOGRAD
    if (p->r == 3 && p->q == 3 && p->s0 == 1 && p->s1 == 1 && p->d0 == 1 && p->d1 == 1 && p->c >= 16 &&
        p->k >= 16 && p->oh >= 4 && p->ow >= 4) {
        /* WINO: Winograd's F(2x2, 3x3) (Lavin and Gray, 2016): the output
         * in tiles of 2 x 2, each from a 4 x 4 tile of x zero padded.  The
         * grid is x's planes padded and split into 2 x 2 phases (as the
         * GEMM's for a stride of 2), th + 2 rows of wg = tw + 1 tiles a
         * phase, so that d[i][j] of tile (ty, tx) is element ty wg + tx
         * of phase (i % 2, j % 2) moved on by (i / 2) wg + j / 2: the
         * tiles are counted on the grid (ty wg + tx, the column tx = tw
         * computed and dropped) and W of them are W contiguous floats.
         * Per unit (image, group, tb tiles of the grid): V = B^T d B
         * (16 x c x tb), 16 products M = U V with U = G g G^T (16 x k x c,
         * transformed once into the shared scratch), and the output
         * A^T M A: 16 multiplies a tile where the direct conv has 36 */
        const int64_t th = (p->oh + 1) / 2, tw = (p->ow + 1) / 2;
        const double bytes = (double)p->nb * (double)p->g * (double)p->c * 4 * (double)(th + 2) *
                             (double)(tw + 1) * 4 + 64.0 * ((double)p->g * (double)p->k * (double)p->c + 16);
        if (bytes <= 1125899906842624.0) {
            const int64_t base = p->nb * p->g;
            p->kind = AXON__CV_WINO;
            p->th = th;
            p->tw = tw;
            p->hg = th + 2;
            p->wg = tw + 1;
            p->ph0 = p->ph1 = p->gs0 = p->gs1 = 2;
            p->cplane = 4 * p->hg * p->wg;
            p->nt = (th - 1) * p->wg + tw;
            /* 64 tiles a unit (two slivers of the widest tile), fewer
             * where the units would not keep the threads busy; a
             * multiple of 16 (whole vectors) */
            p->tb = p->nt < 64 ? (p->nt + 15) / 16 * 16 : 64;
            while (p->tb > 32 && base * ((p->nt + p->tb - 1) / p->tb) < AXON__CV_UNITS)
                p->tb -= 16;
            p->units = base * ((p->nt + p->tb - 1) / p->tb);
            /* (16 floats between the e's: planes 4 KiB apart, or a
             * multiple of it, would share the cache's sets) */
            p->ev = p->c * p->tb + 16;
            p->em = p->k * p->tb + 16;
            p->eu = p->g * p->k * p->c + 16;
            p->wv = 16 * p->ev;
            p->wm = 16 * p->em;
            /* (a vector of the last tiles may read 16 floats past the grid) */
            p->grid = axon__gemm_round64((p->nb * p->g * p->c * p->cplane + 16) * 4);
            p->shared = p->grid + axon__gemm_round64(16 * p->eu * 4);
            p->gemm = axon__gemm_scratch_serial(p->k, p->tb, p->c);
            p->slot = axon__gemm_round64(p->wv * 4) + axon__gemm_round64(p->wm * 4) + axon__gemm_round64(p->gemm);
            return;
        }
    }
#endif
    p->kind = AXON__CV_GEMM;
    /* Wide (the grid, above): but for a 1x1 stride-1 unpadded conv (x is
     * its B already) */
    if (p->r * p->q > 1 || p->s0 > 1 || p->s1 > 1 || p->p0 || p->p1) {
        const int64_t wg = p->ow + (p->q - 1) * p->d1 / p->s1, hg = p->oh + (p->r - 1) * p->d0 / p->s0;
        const int64_t ph0 = p->s0 < (p->r - 1) * p->d0 + 1 ? p->s0 : (p->r - 1) * p->d0 + 1;
        const int64_t ph1 = p->s1 < (p->q - 1) * p->d1 + 1 ? p->s1 : (p->q - 1) * p->d1 + 1;
        const int in_x = p->s0 == 1 && p->s1 == 1 && p->p0 == 0 && p->p1 == 0;
        const double bytes = (double)p->nb * (double)p->g * (double)p->c * (double)(ph0 * ph1) * (double)hg *
                             (double)wg * 4 + (double)p->kk * 8;
        if (4 * (wg - p->ow) <= wg && bytes <= 1125899906842624.0) {
            p->wide = 1;
            p->gs0 = p->s0;
            p->gs1 = p->s1;
            p->wg = wg;
            p->hg = hg;
            p->ph0 = ph0;
            p->ph1 = ph1;
            p->cplane = ph0 * ph1 * hg * wg;
            p->np = (p->oh - 1) * wg + p->ow;
            p->grid = in_x ? 0 : axon__gemm_round64(p->nb * p->g * p->c * p->cplane * 4);
            p->shared = p->grid + axon__gemm_round64(p->kk * 8);
        }
    }
    {
        /* pixel blocks: as many as an im2col of COL_FLOATS holds (on the
         * grid, which has none: 512), whole slivers of the widest tile */
        const int64_t rnd = p->wide ? 32 : 16;
        int64_t ncmax = p->wide ? 512 : AXON__CV_COL_FLOATS / p->kk / 16 * 16, nch, base;
        ncmax = ncmax < 16 ? 16 : ncmax;
        nch = (p->np + ncmax - 1) / ncmax;
        if (nch < AXON__CV_UNITS && p->np / 256 > nch)
            nch = p->np / 256 < AXON__CV_UNITS ? p->np / 256 : AXON__CV_UNITS;
        p->nc = ((p->np + nch - 1) / nch + rnd - 1) / rnd * rnd;
        p->nc = p->nc > p->np ? p->np : p->nc;
        p->nch = (p->np + p->nc - 1) / p->nc;
        base = p->nb * p->g * p->nch;
        p->nmc = 1;
        if (base < AXON__CV_UNITS && p->k >= 128) {
            p->nmc = (AXON__CV_UNITS + base - 1) / base;
            p->nmc = p->nmc > p->k / 64 ? p->k / 64 : p->nmc;
        }
        p->mc = ((p->k + p->nmc - 1) / p->nmc + 15) / 16 * 16;
        p->mc = p->mc > p->k ? p->k : p->mc;
        p->nmc = (p->k + p->mc - 1) / p->mc;
        p->units = base * p->nmc;
        p->col = p->wide ? 0 : p->kk * p->nc;
        p->cbuf = p->mc * p->nc;
        p->gemm = axon__gemm_scratch_serial(p->mc, p->nc, p->kk);
        p->slot = axon__gemm_round64(p->col * 4) + axon__gemm_round64(p->cbuf * 4) + axon__gemm_round64(p->gemm);
    }
}

AXON_FN int64_t axon__f_conv2d_scratch(const axon_shape *x, const axon_shape *w, const axon_shape *out,
                                       const int64_t stride[2], const int64_t pad[2], const int64_t dil[2],
                                       int64_t groups)
{
    axon__cv_plan p;
    axon__cv_make_plan(x->dims, w->dims, out->dims, stride, pad, dil, groups, &p);
    /* (a slot for each thread, and never more threads than units) */
    return p.shared + p.slot * (p.units < AXON_MAX_THREADS ? p.units : AXON_MAX_THREADS);
}

/* The same for run()'s call (prepare() sizes the scratch with it): the
 * parameters as scalars; one_d: x, w and out are a 1-D convolution's
 * rank-3 shapes, which run() reads with a unit axis 2 (s0, p0, d0 unused). */
AXON_FN int64_t axon__f_conv_scratch(const axon_shape *x, const axon_shape *w, const axon_shape *out, int one_d,
                                     int64_t s0, int64_t s1, int64_t p0, int64_t p1, int64_t d0, int64_t d1,
                                     int64_t groups)
{
    axon_shape s[3];
    const axon_shape *from[3];
    int64_t st[2], pd[2], dl[2];
    from[0] = x;
    from[1] = w;
    from[2] = out;
    for (int t = 0; t < 3; t++) {
        if (!one_d) {
            s[t] = *from[t];
            continue;
        }
        s[t].rank = 4;
        s[t].dims[0] = from[t]->dims[0];
        s[t].dims[1] = from[t]->dims[1];
        s[t].dims[2] = 1;
        s[t].dims[3] = from[t]->dims[2];
    }
    st[0] = one_d ? 1 : s0;
    st[1] = s1;
    pd[0] = one_d ? 0 : p0;
    pd[1] = p1;
    dl[0] = one_d ? 1 : d0;
    dl[1] = d1;
    return axon__f_conv2d_scratch(&s[0], &s[1], &s[2], st, pd, dl, groups);
}

#endif
