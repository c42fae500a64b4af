/* ==== axon fast: vec.c begin ==============================================
 * vec.c - the fast vector layer (AXON__FV) that conv.c, pool.c and norm.c
 * share: included once, before them, after kernels.h, types.h and tensor.c.
 *
 * axon__fv is AXON__FV_W floats in a GNU C vector: 16 where __AVX512F__,
 * 8 where __AVX__, else 4 (SSE2, NEON); a plain float (W = 1) without GNU
 * C, or where AXON__FAST_SCALAR is defined (the tests build that too).  Loads
 * and stores are unaligned; a product and a sum is an FMA where the target
 * has one (the intrinsic: -std=c99 does not contract a * b + c), else the
 * two operations.  Threads: OpenMP where _OPENMP, at most AXON_MAX_THREADS
 * and never more than there are units of work. */
#ifndef AXON__FV_DEFINED
#define AXON__FV_DEFINED 1
#ifndef AXON_MAX_THREADS
#define AXON_MAX_THREADS 8
#endif
#ifdef _OPENMP
#include <omp.h>
#endif
#if (defined(__GNUC__) || defined(__clang__)) && !defined(AXON__FAST_SCALAR)
#if defined(__AVX512F__)
#define AXON__FV_W 16
#include <immintrin.h>
#define AXON__FV_FMA(a, b, c) _mm512_fmadd_ps(a, b, c)
#elif defined(__AVX__)
#define AXON__FV_W 8
#include <immintrin.h>
#if defined(__FMA__)
#define AXON__FV_FMA(a, b, c) _mm256_fmadd_ps(a, b, c)
#endif
#else
#define AXON__FV_W 4
#if defined(__ARM_NEON) && defined(__ARM_FEATURE_FMA) && defined(__aarch64__)
#include <arm_neon.h>
#define AXON__FV_FMA(a, b, c) vfmaq_f32(c, a, b)
#endif
#endif
#ifndef AXON__FV_FMA
#define AXON__FV_FMA(a, b, c) ((a) * (b) + (c))
#endif
typedef float axon__fv __attribute__((vector_size(AXON__FV_W * 4)));
typedef int32_t axon__fvi __attribute__((vector_size(AXON__FV_W * 4)));
typedef uint32_t axon__fvui __attribute__((vector_size(AXON__FV_W * 4)));
typedef float axon__fvu __attribute__((vector_size(AXON__FV_W * 4), aligned(4), may_alias));
/* A select of a or b by the lanes of a comparison's mask (all ones: a). */
#define AXON__FV_SEL(m, a, b) ((axon__fv)(((axon__fvi)(a) & (m)) | ((axon__fvi)(b) & ~(m))))
#else
#define AXON__FV_W 1
#define AXON__FV_FMA(a, b, c) ((a) * (b) + (c))
typedef float axon__fv;
#define AXON__FV_SEL(m, a, b) ((m) ? (a) : (b))
#endif

AXON_RUN_FN axon__fv axon__fv_load(const float *p)
{
#if AXON__FV_W > 1
    return *(const axon__fvu *)p;
#else
    return *p;
#endif
}

AXON_RUN_FN void axon__fv_store(float *p, axon__fv v)
{
#if AXON__FV_W > 1
    *(axon__fvu *)p = v;
#else
    *p = v;
#endif
}

/* s in every lane (s - 0 is s, -0 and NaN included; a loop over the lanes
 * makes GCC write each lane on its own). */
AXON_RUN_FN axon__fv axon__fv_set1(float s)
{
#if AXON__FV_W > 1
    const axon__fv zero = { 0 };
    return s - zero;
#else
    return s;
#endif
}

/* The first n (< W) lanes from p, the others `fill`; and the first n lanes
 * of v stored at p. */
AXON_RUN_FN axon__fv axon__fv_load_part(const float *p, int64_t n, float fill)
{
    float t[AXON__FV_W];
    for (int64_t i = 0; i < AXON__FV_W; i++)
        t[i] = i < n ? p[i] : fill;
    return axon__fv_load(t);
}

AXON_RUN_FN void axon__fv_store_part(float *p, axon__fv v, int64_t n)
{
    float t[AXON__FV_W];
    axon__fv_store(t, v);
    for (int64_t i = 0; i < n; i++)
        p[i] = t[i];
}

/* The W elements p[0], p[2], ..., p[2W - 2] (a row read with stride 2):
 * two loads, the second from p + W - 1 so that nothing past p[2W - 2] is
 * read, and the even lanes of the pair. */
#if AXON__FV_W > 1 && (defined(__clang__) || __GNUC__ >= 12)
#define AXON__FV_SHUF(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#elif AXON__FV_W > 1
#define AXON__FV_SHUF(a, b, ...) __builtin_shuffle(a, b, (axon__fvi){ __VA_ARGS__ })
#endif
AXON_RUN_FN axon__fv axon__fv_load_even(const float *p)
{
#if AXON__FV_W == 16
    return AXON__FV_SHUF(axon__fv_load(p), axon__fv_load(p + 15), 0, 2, 4, 6, 8, 10, 12, 14, 17, 19, 21, 23, 25, 27,
                         29, 31);
#elif AXON__FV_W == 8
    return AXON__FV_SHUF(axon__fv_load(p), axon__fv_load(p + 7), 0, 2, 4, 6, 9, 11, 13, 15);
#elif AXON__FV_W == 4
    return AXON__FV_SHUF(axon__fv_load(p), axon__fv_load(p + 3), 0, 2, 5, 7);
#else
    return *p;
#endif
}

/* The first n (<= 2W) of a[0], b[0], a[1], b[1], ... stored at p (a row
 * written with two interleaved halves). */
AXON_RUN_FN void axon__fv_store_zip(float *p, axon__fv a, axon__fv b, int64_t n)
{
#if AXON__FV_W > 1
#if AXON__FV_W == 16
    const axon__fv lo = AXON__FV_SHUF(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    const axon__fv hi = AXON__FV_SHUF(a, b, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
#elif AXON__FV_W == 8
    const axon__fv lo = AXON__FV_SHUF(a, b, 0, 8, 1, 9, 2, 10, 3, 11);
    const axon__fv hi = AXON__FV_SHUF(a, b, 4, 12, 5, 13, 6, 14, 7, 15);
#else
    const axon__fv lo = AXON__FV_SHUF(a, b, 0, 4, 1, 5);
    const axon__fv hi = AXON__FV_SHUF(a, b, 2, 6, 3, 7);
#endif
    if (n >= 2 * AXON__FV_W) {
        axon__fv_store(p, lo);
        axon__fv_store(p + AXON__FV_W, hi);
    } else if (n > AXON__FV_W) {
        axon__fv_store(p, lo);
        axon__fv_store_part(p + AXON__FV_W, hi, n - AXON__FV_W);
    } else {
        axon__fv_store_part(p, lo, n);
    }
#else
    if (n > 0)
        p[0] = a;
    if (n > 1)
        p[1] = b;
#endif
}

/* max(a, b) as the reference kernels take it, a the running value: a NaN
 * in either is the result (a's first), and a is kept when they are equal. */
AXON_RUN_FN axon__fv axon__fv_max(axon__fv a, axon__fv b)
{
    return AXON__FV_SEL((a >= b) | (a != a), a, b);
}

/* max(a, b) where a NaN does not matter (a caller that sees it otherwise:
 * softmax's exp of x - max is NaN for a NaN x): b where a > b is false,
 * one instruction where the target has one (the x86 max returns its
 * second operand where either is NaN), so that a running maximum is a
 * chain of one-cycle steps, not a compare and a select. */
AXON_RUN_FN axon__fv axon__fv_max_num(axon__fv a, axon__fv b)
{
#if AXON__FV_W == 16
    /* (the zero-masked form: GCC 12's _mm512_max_ps starts from an
     * "undefined" vector that g++ -Wmaybe-uninitialized reports) */
    return _mm512_maskz_max_ps((__mmask16)0xffff, a, b);
#elif AXON__FV_W == 8 && defined(__AVX__)
    return _mm256_max_ps(a, b);
#else
    return AXON__FV_SEL(a > b, a, b);
#endif
}

/* The lanes in order: their maximum (as axon__fv_max, lane 0 first) and
 * their sum (from lane 0 up). */
AXON_RUN_FN float axon__fv_hmax(axon__fv v)
{
#if AXON__FV_W > 1
    float m = v[0];
    for (int i = 1; i < AXON__FV_W; i++)
        if (m == m && (v[i] != v[i] || v[i] > m))
            m = v[i];
    return m;
#else
    return v;
#endif
}

AXON_RUN_FN float axon__fv_hsum(axon__fv v)
{
#if AXON__FV_W > 1
    float s = v[0];
    for (int i = 1; i < AXON__FV_W; i++)
        s += v[i];
    return s;
#else
    return v;
#endif
}

/* exp(x) in float for x <= 0 or NaN (softmax's x - max), within 2 ulp
 * of the true value for x in [-87.68, 0] (Cephes' expf: x = n ln 2 + r,
 * |r| <= ln 2 / 2, a degree-7 polynomial that is exactly 1 at 0, 2^n by
 * the exponent's bits), as runtime/run/fused.c's axon__fexp without its
 * upper clamp: x clamped at -88, so that n >= -127, where 2^n's bits are
 * 0: 0 below -87.68 (subnormals above), with no select; NaN stays NaN
 * (the clamp keeps a lane where x < -88 is false); 1 + p and the scaling
 * by 2^n in one fused step, 2^n + p 2^n.  No float to int conversion (a
 * NaN's would be undefined): n is rounded by adding 1.5 * 2^23, and its
 * bits are read from that sum.  tests/fast/fused-math.test measures it. */
AXON_RUN_FN axon__fv axon__fv_exp_neg(axon__fv x)
{
#if AXON__FV_W > 1
    const axon__fv lo = axon__fv_set1(-88.0f), magic = axon__fv_set1(12582912.0f);
    axon__fv xc = AXON__FV_SEL(x < lo, lo, x), t, n, r, r2, p, e;
    t = AXON__FV_FMA(xc, axon__fv_set1(1.44269504088896341f), magic);
    n = t - magic;
    r = AXON__FV_FMA(n, axon__fv_set1(-0.693359375f), xc);
    r = AXON__FV_FMA(n, axon__fv_set1(2.12194440e-4f), r);
    r2 = r * r;
    p = AXON__FV_FMA(axon__fv_set1(1.9875691500e-4f), r, axon__fv_set1(1.3981999507e-3f));
    p = AXON__FV_FMA(p, r, axon__fv_set1(8.3334519073e-3f));
    p = AXON__FV_FMA(p, r, axon__fv_set1(4.1665795894e-2f));
    p = AXON__FV_FMA(p, r, axon__fv_set1(1.6666665459e-1f));
    p = AXON__FV_FMA(p, r, axon__fv_set1(5.0000001201e-1f));
    p = AXON__FV_FMA(p, r2, r);
    e = (axon__fv)(((axon__fvui)t - (axon__fvui)magic + 127u) << 23);
    return AXON__FV_FMA(p, e, e);
#else
    return expf(x);
#endif
}

/* Threads for `units` independent units of work. */
AXON_RUN_FN int axon__fv_threads(int64_t units)
{
#ifdef _OPENMP
    int64_t n = omp_get_max_threads();
    if (n > AXON_MAX_THREADS)
        n = AXON_MAX_THREADS;
    if (n > units)
        n = units;
    return n < 1 ? 1 : (int)n;
#else
    (void)units;
    return 1;
#endif
}

AXON_RUN_FN int axon__fv_thread_id(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

/* Thread t of nt's share of `units` units of work: [*u0, *u1), contiguous
 * ranges in order, their sizes differing by at most one. */
AXON_RUN_FN void axon__fv_range(int64_t units, int t, int nt, int64_t *u0, int64_t *u1)
{
    *u0 = units / nt * t + (t < units % nt ? t : units % nt);
    *u1 = *u0 + units / nt + (t < units % nt);
}
/* Rows (or planes) of two views over their first nax axes, row-major:
 * axon__fv_seek sets idx[] and the two element offsets for row e,
 * axon__fv_step goes on to the next row. */
AXON_RUN_FN void axon__fv_seek(int nax, const int64_t *dims, const int64_t *sa, const int64_t *sb, int64_t e,
                               int64_t *idx, int64_t *oa, int64_t *ob)
{
    *oa = 0;
    *ob = 0;
    for (int k = nax - 1; k >= 0; k--) {
        idx[k] = e % dims[k];
        e /= dims[k];
        *oa += idx[k] * sa[k];
        *ob += idx[k] * sb[k];
    }
}

AXON_RUN_FN void axon__fv_step(int nax, const int64_t *dims, const int64_t *sa, const int64_t *sb, int64_t *idx,
                               int64_t *oa, int64_t *ob)
{
    for (int k = nax - 1; k >= 0; k--) {
        if (++idx[k] < dims[k]) {
            *oa += sa[k];
            *ob += sb[k];
            return;
        }
        *oa -= (dims[k] - 1) * sa[k];
        *ob -= (dims[k] - 1) * sb[k];
        idx[k] = 0;
    }
}
#endif /* AXON__FV_DEFINED */
/* ==== axon fast: vec.c end ================================================ */
