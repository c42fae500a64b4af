/* ==== axon fast: gemm.c begin =============================================
 * gemm.c - f32 matrix product for run()'s fast paths (fast.h):
 *
 *     c[i, j] (+)= sum_p a[i, p] * b[p, j]      (any strides, 0 included)
 *
 * BLIS's five loops around one register-tiled micro-kernel:
 *
 *   jc: n in blocks of Nc
 *     pc: k in blocks of Kc         pack b[pc.., jc..] into the shared
 *                                   panel: Nc / NR slivers of Kc x NR
 *       ic: m in blocks of Mc       pack a[ic.., pc..] into this thread's
 *                                   block: Mc / MR slivers of MR x Kc
 *         jr: the Nc block by NR    (the B sliver stays in L1)
 *           ir: the Mc block by MR  the micro-kernel: an MR x NR tile of c
 *                                   in vector registers, Kc rank-1 updates
 *
 * (A few long dot products go another way: axon__gemm_dots below.)
 * Edges (m, n not multiples of MR, NR) are packed with zeros and the tile
 * stored through a scalar loop over its valid part; k needs no padding (the
 * micro-kernel runs exactly Kc steps).  Nothing outside the operands is
 * read, nothing outside c written; c is read only where accumulating (or
 * after the first k block).
 *
 * Summation order: c[i, j] is the k blocks' partial sums added in order,
 * each summed by one accumulator from p = pc up (fused multiply-adds).  It
 * depends on Kc alone, which depends on k alone: any thread count, and any
 * split of the (ic, jr) tiles between threads, gives the same bits.
 *
 * Vectors: GNU C vector extensions where __GNUC__ (64 bytes where
 * __AVX512F__, 32 where __AVX__, 16 else: 16, 8 or 4 lanes; the tile is
 * MR rows of two vectors), plain C elsewhere (or with AXON_GEMM_SCALAR
 * defined: the test of that path).  Fused multiply-add: GCC contracts
 * a * b + c only under -ffp-contract=fast, which an ISO -std turns off, so
 * the micro-kernel asks for it itself; clang contracts within an
 * expression by default.
 *
 * Threads (_OPENMP): one parallel region per (jc, pc) block, at most
 * AXON_MAX_THREADS threads (fast.h) and one for a small product; the B
 * panel packed by all of them, then the tiles (ic block, range of NR
 * slivers) shared out, each thread packing A into its own block of the
 * scratch.
 *
 * AXON_USE_CBLAS: cblas_sgemm where c and both operands have a layout it
 * takes (unit stride on one axis, the other within int), else the above.
 */
#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef AXON_USE_CBLAS
#include <cblas.h>
#endif

/* (the configuration, the block sizes and the scratch: fast.h) */

/* ---- packing ---------------------------------------------------------------- */

/* a[0 .. mc) x [0 .. kc) (strides rs, cs) into slivers of MR rows: sliver s
 * holds, for each p, rows s * MR .. s * MR + MR - 1 (zeros past mc). */
AXON_RUN_FN void axon__gemm_pack_a(int64_t mc, int64_t kc, const float *a, int64_t rs, int64_t cs, float *dst)
{
    const int MR = AXON__GEMM_MR;
    for (int64_t i0 = 0; i0 < mc; i0 += MR, dst += MR * kc) {
        const int64_t mr = mc - i0 < MR ? mc - i0 : MR;
        const float *src = a + i0 * rs;
        if (mr == MR && cs == 1) {
            /* rows contiguous: each row read once, written with stride MR */
            for (int i = 0; i < MR; i++) {
                const float *row = src + i * rs;
                for (int64_t p = 0; p < kc; p++)
                    dst[p * MR + i] = row[p];
            }
        } else {
            for (int64_t p = 0; p < kc; p++) {       /* (zeroed first: as pack_b) */
                float *d = dst + p * MR;
                const float *col = src + p * cs;
                for (int i = 0; i < MR; i++)
                    d[i] = 0.0f;
                for (int64_t i = 0; i < mr; i++)
                    d[i] = col[i * rs];
            }
        }
    }
}

/* b[0 .. kc) x [0 .. nc) (strides rs, cs) into slivers of NR columns: sliver
 * s holds, for each p, columns s * NR .. s * NR + NR - 1 (zeros past nc).
 * Only slivers s0 .. s1 - 1 (the threads share the panel out).  With boff,
 * row p is at b + boff[p] (a table of rows: the conv's grid, conv.c), not
 * b + p rs. */
AXON_RUN_FN void axon__gemm_pack_b(int64_t kc, int64_t nc, const float *b, int64_t rs, int64_t cs,
                                   const int64_t *boff, float *dst, int64_t s0, int64_t s1)
{
    const int NR = AXON__GEMM_NR;
    /* the full slivers row by row where b's columns are contiguous: each
     * row of b read from left to right, one stream the hardware prefetches
     * (sliver by sliver, each row was a jump of rs floats: weights cold in
     * the cache were read at a fraction of the memory's speed) */
    const int64_t sf = cs != 1 ? s0 : s1 < nc / NR ? s1 : nc / NR;
    if (s0 < sf) {
        for (int64_t p = 0; p < kc; p++) {
            const float *row = b + (boff ? boff[p] : p * rs);
            for (int64_t s = s0; s < sf; s++) {
                float *d = dst + s * NR * kc + p * NR;
                for (int j = 0; j < NR; j++)
                    d[j] = row[s * NR + j];
            }
        }
        s0 = sf;            /* (the rest: a partial sliver, below) */
    }
    for (int64_t s = s0; s < s1; s++) {
        const int64_t j0 = s * NR, nr = nc - j0 < NR ? nc - j0 : NR;
        const float *src = b + j0 * cs;
        float *d = dst + s * NR * kc;
        if (nr == NR && rs == 1 && !boff) {
            for (int j = 0; j < NR; j++) {
                const float *col = src + j * cs;
                for (int64_t p = 0; p < kc; p++)
                    d[p * NR + j] = col[p];
            }
        } else {
            /* (the whole step zeroed first, a fixed count the compiler
             * writes as vector stores: the zeros after nr alone became a
             * `rep stos` per step, 5% of a small conv's time) */
            for (int64_t p = 0; p < kc; p++) {
                const float *row = src + (boff ? boff[p] : p * rs);
                for (int j = 0; j < NR; j++)
                    d[p * NR + j] = 0.0f;
                for (int64_t j = 0; j < nr; j++)
                    d[p * NR + j] = row[j * cs];
            }
        }
    }
}

/* ---- the micro-kernel --------------------------------------------------------
 * c[0 .. mr) x [0 .. nr) (strides rs, cs) = (add ? c : 0) + the product of
 * an A sliver (kc x MR) and a B sliver (kc x NR). */

/* X(i) for i = 0 .. MR - 1 */
#define AXON__GEMM_R1(X) X(0)
#define AXON__GEMM_R2(X) AXON__GEMM_R1(X) X(1)
#define AXON__GEMM_R3(X) AXON__GEMM_R2(X) X(2)
#define AXON__GEMM_R4(X) AXON__GEMM_R3(X) X(3)
#define AXON__GEMM_R5(X) AXON__GEMM_R4(X) X(4)
#define AXON__GEMM_R6(X) AXON__GEMM_R5(X) X(5)
#define AXON__GEMM_R7(X) AXON__GEMM_R6(X) X(6)
#define AXON__GEMM_R8(X) AXON__GEMM_R7(X) X(7)
#define AXON__GEMM_R9(X) AXON__GEMM_R8(X) X(8)
#define AXON__GEMM_R10(X) AXON__GEMM_R9(X) X(9)
#define AXON__GEMM_R11(X) AXON__GEMM_R10(X) X(10)
#define AXON__GEMM_R12(X) AXON__GEMM_R11(X) X(11)
#define AXON__GEMM_R13(X) AXON__GEMM_R12(X) X(12)
#define AXON__GEMM_R14(X) AXON__GEMM_R13(X) X(13)
#define AXON__GEMM_RN(n) AXON__GEMM_RN_(n)
#define AXON__GEMM_RN_(n) AXON__GEMM_R##n
#define AXON__GEMM_ROWS AXON__GEMM_RN(AXON__GEMM_MR)

/* The A sliver: row i of step p at r[i][p * acs] (packed: r[i] = sliver
 * + i, acs = MR; read in place: the rows of a, acs = 1, the rows past mr
 * pointing at the last valid one).  The B sliver: step p at pb + p * ldb
 * (packed: ldb = NR; read in place: b's rows, where b_cs = 1). */
#if AXON__GEMM_VB
#define AXON__GEMM_DECL(i) \
    axon__vf c##i##0 = zero, c##i##1 = zero; \
    const float *const r##i = r[i];
#define AXON__GEMM_STEP(i)        \
    {                             \
        const float x = r##i[q];  \
        c##i##0 += b0 * x;        \
        c##i##1 += b1 * x;        \
    }
#define AXON__GEMM_STORE(i)                                       \
    {                                                             \
        axon__vfu *u = (axon__vfu *)(c + (i) * rs);               \
        if (add) {                                                \
            u[0] += c##i##0;                                      \
            u[1] += c##i##1;                                      \
        } else {                                                  \
            u[0] = c##i##0;                                       \
            u[1] = c##i##1;                                       \
        }                                                         \
    }
#define AXON__GEMM_SPILL(i)                                       \
    ((axon__vfu *)(t + (i) * AXON__GEMM_NR))[0] = c##i##0;        \
    ((axon__vfu *)(t + (i) * AXON__GEMM_NR))[1] = c##i##1;
#define AXON__GEMM_PREFETCH(i)                                    \
    __builtin_prefetch(c + (i) * rs, 1);                          \
    __builtin_prefetch(c + (i) * rs + AXON__GEMM_NR - 1, 1);

/* the k loop, B's row p at BROW */
#define AXON__GEMM_LOOP(BROW)                                                       \
    for (int64_t p = 0, q = 0; p < kc; p++, q += acs) {                             \
        const float *const bp = (BROW);                                             \
        const axon__vf b0 = ((const axon__vfu *)bp)[0], b1 = ((const axon__vfu *)bp)[1]; \
        AXON__GEMM_ROWS(AXON__GEMM_STEP)                                            \
    }

AXON__GEMM_FMA AXON_RUN_FN void axon__gemm_kernel(int64_t kc, const float *const r[], int64_t acs,
                                                 const float *pb, int64_t ldb, const int64_t *boff, float *c,
                                                 int64_t rs, int64_t cs, int64_t mr, int64_t nr, int add)
{
    const axon__vf zero = { 0 };
    const int full = mr == AXON__GEMM_MR && nr == AXON__GEMM_NR && cs == 1;
    AXON__GEMM_ROWS(AXON__GEMM_DECL)
    if (full) {
        AXON__GEMM_ROWS(AXON__GEMM_PREFETCH)
    }
    if (boff)
        AXON__GEMM_LOOP(pb + boff[p])
    else
        AXON__GEMM_LOOP(pb + p * ldb)
    if (full) {
        AXON__GEMM_ROWS(AXON__GEMM_STORE)
    } else {
        float t[AXON__GEMM_MR * AXON__GEMM_NR];
        AXON__GEMM_ROWS(AXON__GEMM_SPILL)
        for (int64_t i = 0; i < mr; i++)
            for (int64_t j = 0; j < nr; j++) {
                float *u = c + i * rs + j * cs;
                *u = add ? *u + t[i * AXON__GEMM_NR + j] : t[i * AXON__GEMM_NR + j];
            }
    }
}
#else
/* plain C: the same tile, the accumulators an array */
AXON_RUN_FN void axon__gemm_kernel(int64_t kc, const float *const r[], int64_t acs, const float *pb,
                                   int64_t ldb, const int64_t *boff, float *c, int64_t rs, int64_t cs, int64_t mr,
                                   int64_t nr, int add)
{
    float t[AXON__GEMM_MR * AXON__GEMM_NR] = { 0 };
    for (int64_t p = 0; p < kc; p++) {
        const float *bp = pb + (boff ? boff[p] : p * ldb);
        for (int i = 0; i < AXON__GEMM_MR; i++)
            for (int j = 0; j < AXON__GEMM_NR; j++)
                t[i * AXON__GEMM_NR + j] += r[i][p * acs] * bp[j];
    }
    for (int64_t i = 0; i < mr; i++)
        for (int64_t j = 0; j < nr; j++) {
            float *u = c + i * rs + j * cs;
            *u = add ? *u + t[i * AXON__GEMM_NR + j] : t[i * AXON__GEMM_NR + j];
        }
}
#endif

/* ---- the loops ------------------------------------------------------------------ */

/* The tiles of c[0 .. mc) x [0 .. nc) whose B slivers are s0 .. s1 - 1.
 * A: the packed block pa, or (a not NULL) a's rows in place, a_rs apart.
 * B: the packed panel pb, or (b not NULL) b's rows in place, b_rs apart
 * (or at b + boff[p]: a table of rows), for every full sliver (the last,
 * narrower one is packed). */
AXON_RUN_FN void axon__gemm_macro(int64_t mc, int64_t nc, int64_t kc, const float *pa, const float *a,
                                  int64_t a_rs, const float *pb, const float *b, int64_t b_rs,
                                  const int64_t *boff, float *c, int64_t rs, int64_t cs, int add, int64_t s0,
                                  int64_t s1)
{
    const int MR = AXON__GEMM_MR, NR = AXON__GEMM_NR;
    const float *r[AXON__GEMM_MR];
    for (int64_t s = s0; s < s1; s++) {
        const int64_t j0 = s * NR, nr = nc - j0 < NR ? nc - j0 : NR;
        const int in_place = b && nr == NR;
        const float *bs = in_place ? b + j0 : pb + j0 * kc;
        const int64_t ldb = in_place ? b_rs : NR;
        for (int64_t i0 = 0; i0 < mc; i0 += MR) {
            const int64_t mr = mc - i0 < MR ? mc - i0 : MR;
            for (int i = 0; i < MR; i++)
                r[i] = a ? a + (i0 + (i < mr ? i : mr - 1)) * a_rs : pa + i0 * kc + i;
            axon__gemm_kernel(kc, r, a ? 1 : MR, bs, ldb, in_place ? boff : NULL, c + i0 * rs + j0 * cs, rs, cs,
                              mr, nr, add);
        }
    }
}

/* The scratch's first 64-byte boundary. */
AXON_RUN_FN float *axon__gemm_align(void *scratch)
{
    uintptr_t u = (uintptr_t)scratch;
    return (float *)(void *)((char *)scratch + ((64 - u % 64) % 64));
}

/* c = 0 (or unchanged when accumulating): the product over k = 0. */
AXON_RUN_FN void axon__gemm_zero(int64_t m, int64_t n, float *c, int64_t rs, int64_t cs, int accumulate)
{
    if (accumulate)
        return;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++)
            c[i * rs + j * cs] = 0.0f;
}

/* ---- a few long dot products ------------------------------------------------
 * A product of few elements (m n <= 128) over a long sum (k >= 256) whose
 * a rows and b columns are contiguous along it (a classifier written as a
 * conv over the whole feature map, scores against a few rows): each
 * element one dot product, a and b read once, nothing packed (packing
 * would write k NR floats per sliver for n of them).  Summed in lanes of
 * the vector width, the lanes added in order, then the tail: a function
 * of k alone, on one thread. */
#define AXON__GEMM_DOT(m, n, k) ((m) * (n) <= 128 && (k) >= 256)

AXON__GEMM_FMA AXON_RUN_FN float axon__gemm_dot1(const float *x, const float *y, int64_t k)
{
    float r = 0.0f;
    int64_t p = 0;
#if AXON__GEMM_VB
    {
        const int64_t L = AXON__GEMM_VL;
        axon__vf s0 = { 0 }, s1 = { 0 };
        float t[AXON__GEMM_VL];
        for (; p + 2 * L <= k; p += 2 * L) {
            s0 += *(const axon__vfu *)(x + p) * *(const axon__vfu *)(y + p);
            s1 += *(const axon__vfu *)(x + p + L) * *(const axon__vfu *)(y + p + L);
        }
        for (; p + L <= k; p += L)
            s0 += *(const axon__vfu *)(x + p) * *(const axon__vfu *)(y + p);
        *(axon__vfu *)t = s0 + s1;
        for (int l = 0; l < AXON__GEMM_VL; l++)
            r += t[l];
    }
#endif
    for (; p < k; p++)
        r += x[p] * y[p];
    return r;
}

/* The 2 x 4 dots of rows x0, x1 with columns y[0 .. 4) into d[i * 4 + j]:
 * each chunk of a row loaded once for four columns (6 loads for 8
 * multiply-adds, 8 independent sums), then each lane sum as dot1's. */
AXON__GEMM_FMA AXON_RUN_FN void axon__gemm_dot24(const float *x0, const float *x1, const float *const y[4],
                                                int64_t k, float d[8])
{
    int64_t p = 0;
    for (int i = 0; i < 8; i++)
        d[i] = 0.0f;
#if AXON__GEMM_VB
    {
        const int64_t L = AXON__GEMM_VL;
        axon__vf s[8] = { { 0 } };
        float t[AXON__GEMM_VL];
        for (; p + L <= k; p += L) {
            const axon__vf a0 = *(const axon__vfu *)(x0 + p), a1 = *(const axon__vfu *)(x1 + p);
            for (int j = 0; j < 4; j++) {
                const axon__vf b = *(const axon__vfu *)(y[j] + p);
                s[j] += a0 * b;
                s[4 + j] += a1 * b;
            }
        }
        for (int i = 0; i < 8; i++) {
            *(axon__vfu *)t = s[i];
            for (int l = 0; l < AXON__GEMM_VL; l++)
                d[i] += t[l];
        }
    }
#endif
    for (; p < k; p++)
        for (int j = 0; j < 4; j++) {
            d[j] += x0[p] * y[j][p];
            d[4 + j] += x1[p] * y[j][p];
        }
}

AXON_RUN_FN void axon__gemm_dots(int64_t m, int64_t n, int64_t k, const float *a, int64_t a_rs, const float *b,
                                 int64_t b_cs, float *c, int64_t c_rs, int64_t c_cs, int accumulate)
{
    const int64_t m2 = m / 2 * 2, n4 = n / 4 * 4;
    for (int64_t i = 0; i < m2; i += 2)
        for (int64_t j = 0; j < n4; j += 4) {
            const float *y[4] = { b + j * b_cs, b + (j + 1) * b_cs, b + (j + 2) * b_cs, b + (j + 3) * b_cs };
            float d[8];
            axon__gemm_dot24(a + i * a_rs, a + (i + 1) * a_rs, y, k, d);
            for (int t = 0; t < 8; t++) {
                float *u = c + (i + t / 4) * c_rs + (j + t % 4) * c_cs;
                *u = accumulate ? *u + d[t] : d[t];
            }
        }
    for (int64_t i = 0; i < m; i++)     /* the rest: one at a time */
        for (int64_t j = i < m2 ? n4 : 0; j < n; j++) {
            const float d = axon__gemm_dot1(a + i * a_rs, b + j * b_cs, k);
            float *u = c + i * c_rs + j * c_cs;
            *u = accumulate ? *u + d : d;
        }
}

/* Thread tid of nth's part of the packed product (below). */
AXON_RUN_FN void axon__sgemm_part(int64_t m, int64_t n, int64_t k, const float *a, int64_t a_rs, int64_t a_cs,
                                  const float *b, int64_t b_rs, int64_t b_cs, float *c, int64_t c_rs, int64_t c_cs,
                                  int accumulate, void *scratch, int tid, int nth)
{
    const axon__gemm_blocks bl = axon__gemm_block_sizes(m, n, k);
    const int64_t MR = AXON__GEMM_MR, NR = AXON__GEMM_NR;
    float *const pb = axon__gemm_align(scratch);
    const int64_t a_floats = axon__gemm_a_bytes(bl) / (int64_t)sizeof(float);
    float *const pa = pb + axon__gemm_b_bytes(bl) / (int64_t)sizeof(float) + (int64_t)tid * a_floats;
    const int64_t mu = (m + MR - 1) / MR;
    /* read in place where the rows are contiguous and small enough */
    const int a_in = a_cs == 1 && AXON__GEMM_A_IN_PLACE(m, n, k);
    const int b_in = b_cs == 1 && AXON__GEMM_B_IN_PLACE(m, n, k);
    for (int64_t jc = 0; jc < n; jc += bl.nc) {
        const int64_t nc = n - jc < bl.nc ? n - jc : bl.nc;
        const int64_t nsl = (nc + NR - 1) / NR;
        /* this thread's part of c: a range of rows (MR at a time) where
         * there are enough of them, else of B's slivers; its rows in
         * blocks of Mc, each packed into its own A block */
        const int split_m = mu >= 4 * nth || mu >= nsl;
        const int64_t r0 = split_m ? MR * (mu * tid / nth) : 0;
        const int64_t r1 = split_m ? (MR * (mu * (tid + 1) / nth) < m ? MR * (mu * (tid + 1) / nth) : m) : m;
        const int64_t s0 = split_m ? 0 : nsl * tid / nth, s1 = split_m ? nsl : nsl * (tid + 1) / nth;
        for (int64_t pc = 0; pc < k; pc += bl.kc) {
            const int64_t kc = k - pc < bl.kc ? k - pc : bl.kc;
            const int add = accumulate || pc > 0;
            const float *bp = b + pc * b_rs + jc * b_cs;
            /* B's panel, packed by all: its slivers in nth ranges */
            {
                const int64_t p0 = nsl * tid / nth, p1 = nsl * (tid + 1) / nth;
                if (!b_in)
                    axon__gemm_pack_b(kc, nc, bp, b_rs, b_cs, NULL, pb, p0, p1);
                else if (p1 == nsl && p0 < p1 && nc % NR != 0)
                    axon__gemm_pack_b(kc, nc, bp, b_rs, b_cs, NULL, pb, nsl - 1, nsl);
            }
#ifdef _OPENMP
            if (nth > 1) {
#pragma omp barrier
            }
#endif
            for (int64_t ic = r0; ic < r1; ic += bl.mc) {
                const int64_t mc = r1 - ic < bl.mc ? r1 - ic : bl.mc;
                if (!a_in)
                    axon__gemm_pack_a(mc, kc, a + ic * a_rs + pc * a_cs, a_rs, a_cs, pa);
                axon__gemm_macro(mc, nc, kc, pa, a_in ? a + ic * a_rs + pc : NULL, a_rs, pb, b_in ? bp : NULL, b_rs,
                                 NULL, c + ic * c_rs + jc * c_cs, c_rs, c_cs, add, s0, s1);
            }
#ifdef _OPENMP
            if (nth > 1) {
#pragma omp barrier     /* the panel is read until here */
            }
#endif
        }
    }
}

/* The packed product on up to `threads` threads (1: this one, with no
 * parallel region: entering one costs a microsecond even when it runs on
 * one thread), scratch as axon__gemm_scratch gives (one A block per
 * thread). */
AXON_RUN_FN void axon__sgemm_packed(int64_t m, int64_t n, int64_t k, const float *a, int64_t a_rs, int64_t a_cs,
                                    const float *b, int64_t b_rs, int64_t b_cs, float *c, int64_t c_rs,
                                    int64_t c_cs, int accumulate, void *scratch, int threads)
{
    if (a_cs == 1 && b_rs == 1 && AXON__GEMM_DOT(m, n, k)) {
        axon__gemm_dots(m, n, k, a, a_rs, b, b_cs, c, c_rs, c_cs, accumulate);
        return;
    }
#ifdef _OPENMP
    if (threads > 1) {
#pragma omp parallel num_threads(threads)
        axon__sgemm_part(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, c_rs, c_cs, accumulate, scratch,
                         omp_get_thread_num(), omp_get_num_threads());
        return;
    }
#endif
    (void)threads;
    axon__sgemm_part(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, c_rs, c_cs, accumulate, scratch, 0, 1);
}

/* The product on this thread alone, with axon__gemm_scratch_serial's
 * scratch (f_matmul runs many small ones side by side). */
AXON_RUN_FN void axon__sgemm_serial(int64_t m, int64_t n, int64_t k, const float *a, int64_t a_rs, int64_t a_cs,
                                    const float *b, int64_t b_rs, int64_t b_cs, float *c, int64_t c_rs,
                                    int64_t c_cs, int accumulate, void *scratch)
{
    if (m <= 0 || n <= 0)
        return;
    if (k <= 0) {
        axon__gemm_zero(m, n, c, c_rs, c_cs, accumulate);
        return;
    }
    axon__sgemm_packed(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, c_rs, c_cs, accumulate, scratch, 1);
}

#ifdef AXON_USE_CBLAS
/* Whether a rows x cols matrix of strides (rs, cs) is one BLAS takes
 * row-major (trans 0) or column-major (trans 1), and its leading dimension. */
AXON_RUN_FN int axon__gemm_blas_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs, int *trans, int *ld)
{
    const int64_t big = 0x7fffffff;
    if ((cs == 1 || cols <= 1) && (rows <= 1 || (rs >= cols && rs >= 1 && rs <= big))) {
        *trans = 0;
        *ld = (int)(rows <= 1 ? (cols > 1 ? cols : 1) : rs);
        return 1;
    }
    if ((rs == 1 || rows <= 1) && (cols <= 1 || (cs >= rows && cs >= 1 && cs <= big))) {
        *trans = 1;
        *ld = (int)(cols <= 1 ? (rows > 1 ? rows : 1) : cs);
        return 1;
    }
    return 0;
}

/* cblas_sgemm if the layouts allow; returns whether it ran. */
AXON_RUN_FN int axon__sgemm_blas(int64_t m, int64_t n, int64_t k, const float *a, int64_t a_rs, int64_t a_cs,
                                 const float *b, int64_t b_rs, int64_t b_cs, float *c, int64_t c_rs, int64_t c_cs,
                                 int accumulate)
{
    const int64_t big = 0x7fffffff;
    int ta, tb, tc, lda, ldb, ldc;
    if (m > big || n > big || k > big)
        return 0;
    if (!axon__gemm_blas_layout(m, n, c_rs, c_cs, &tc, &ldc))
        return 0;
    if (tc) {
        /* c column-major: c^T = b^T a^T row-major */
        const float *t = a;
        int64_t u = m;
        a = b;
        b = t;
        m = n;
        n = u;
        u = a_rs;
        a_rs = b_cs;
        b_cs = u;
        u = a_cs;
        a_cs = b_rs;
        b_rs = u;
    }
    if (!axon__gemm_blas_layout(m, k, a_rs, a_cs, &ta, &lda) || !axon__gemm_blas_layout(k, n, b_rs, b_cs, &tb, &ldb))
        return 0;
    cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, (int)m, (int)n,
                (int)k, 1.0f, a, lda, b, ldb, accumulate ? 1.0f : 0.0f, c, ldc);
    return 1;
}
#endif

AXON_RUN_FN void axon__sgemm(int64_t m, int64_t n, int64_t k, const float *a, int64_t a_rs, int64_t a_cs,
                             const float *b, int64_t b_rs, int64_t b_cs, float *c, int64_t c_rs, int64_t c_cs,
                             int accumulate, void *scratch)
{
    int threads = 1;
    if (m <= 0 || n <= 0)
        return;
    if (k <= 0) {
        axon__gemm_zero(m, n, c, c_rs, c_cs, accumulate);
        return;
    }
#ifdef AXON_USE_CBLAS
    if (axon__sgemm_blas(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, c_rs, c_cs, accumulate))
        return;
#endif
#ifdef _OPENMP
    if ((double)m * (double)n * (double)k > (double)AXON__GEMM_SERIAL) {
        threads = omp_get_max_threads();
        if (threads > AXON_MAX_THREADS)
            threads = AXON_MAX_THREADS;
        if (threads < 1)
            threads = 1;
    }
#endif
    axon__sgemm_packed(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, c_rs, c_cs, accumulate, scratch, threads);
}
/* ==== axon fast: gemm.c end =============================================== */
