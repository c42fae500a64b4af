/* ==== axon run: fused.c begin ===========================================
 * fused.c - what the fused element-wise loops of run() call (emit_run.c):
 * f32 maximum, minimum, relu and sign as the reference kernels compute them
 * (elementwise.c: NaN propagates through maximum and minimum, relu keeps
 * it, sign(NaN) is NaN).  Included once per header, in its implementation
 * part.
 */

/* Threads for a fused loop of `rows` rows (OpenMP): at most
 * AXON_MAX_THREADS, never more than rows; a loop of fewer than
 * AXON__FUSED_PAR_MIN elements runs on one. */
#ifndef AXON_MAX_THREADS
#define AXON_MAX_THREADS 8
#endif
#define AXON__FUSED_PAR_MIN ((int64_t)1 << 15)
#ifdef _OPENMP
#include <omp.h>
static inline int axon__fused_threads(int64_t rows)
{
    int t = omp_get_max_threads();
    t = t > AXON_MAX_THREADS ? AXON_MAX_THREADS : t;
    return (int64_t)t > rows ? (int)rows : t < 1 ? 1 : t;
}
#endif

static inline float axon__fmax_nan(float x, float y)
{
    return x != x ? x : y != y ? y : x > y ? x : y;
}

static inline float axon__fmin_nan(float x, float y)
{
    return x != x ? x : y != y ? y : x < y ? x : y;
}

static inline float axon__frelu(float x)
{
    return x < 0.0f ? 0.0f : x;
}

static inline float axon__fsign(float x)
{
    return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : x;
}
/* a * b + c rounded once where the target has a fused multiply-add (the
 * polynomials' Horner steps below: half the operations and half the
 * latency, and the vectoriser keeps them fused), else the two operations;
 * either is within the bounds stated below (tests/fast/fused-math.test
 * checks both builds). */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__FMA__) || defined(__ARM_FEATURE_FMA))
#define AXON__FMAF(a, b, c) __builtin_fmaf(a, b, c)
#else
#define AXON__FMAF(a, b, c) ((a) * (b) + (c))
#endif

/* exp(x) in float for the fused loops (fast build): Cephes' expf as
 * runtime/fast/vec.c's axon__fv_exp_neg computes it a vector at a time
 * (for x <= 0), here a float at a time with no call and no branch, so
 * that the compiler vectorises the loop around it (-O3, or -O2 with
 * -ftree-vectorize).
 * x is clamped to [-88, 88.5], where n = round(x / ln 2) is in [-127, 128],
 * and 2^n is built in the exponent bits: n = -127 gives the bits of 0 and
 * n = 128 those of +inf, so the ends need no select of their own: 0 below
 * -126.5 ln 2 (-87.68), denormals from there to -87.33, within 2 ulp of exp
 * for x in [-87.33, 88.37], +inf from 127.5 ln 2 (88.376) up, NaN kept
 * (each clamp keeps x where x < lo or x > hi is false).  The clamps select
 * bits through masks, which vectorises to a compare and a masked move
 * each; written as `x < lo ? lo : x` GCC merged the two conditions into
 * a dozen mask operations, 1.7 times the whole function's time.  Bits are
 * read through unions (defined in C99; GCC, clang and MSVC define it in
 * C++ too). */
static inline float axon__fexp(float x)
{
    const float magic = 12582912.0f;                /* 1.5 * 2^23 */
    union { float f; uint32_t u; } v, lo, hi, t, e;
    uint32_t m;
    float n, r, r2, p;
    v.f = x;
    lo.f = -88.0f;
    hi.f = 88.5f;
    m = 0u - (uint32_t)(x < lo.f);                  /* all ones where x < lo */
    v.u = (lo.u & m) | (v.u & ~m);
    m = 0u - (uint32_t)(v.f > hi.f);
    v.u = (hi.u & m) | (v.u & ~m);
    t.f = AXON__FMAF(v.f, 1.44269504088896341f, magic);    /* n rounded, in the low bits */
    n = t.f - magic;
    r = AXON__FMAF(n, -0.693359375f, v.f);          /* x - n ln 2, ln 2 in two parts */
    r = AXON__FMAF(n, 2.12194440e-4f, r);
    r2 = r * r;
    p = AXON__FMAF(1.9875691500e-4f, r, 1.3981999507e-3f);
    p = AXON__FMAF(p, r, 8.3334519073e-3f);
    p = AXON__FMAF(p, r, 4.1665795894e-2f);
    p = AXON__FMAF(p, r, 1.6666665459e-1f);
    p = AXON__FMAF(p, r, 5.0000001201e-1f);
    p = AXON__FMAF(p, r2, r) + 1.0f;
    e.u = (t.u - 0x4B400000u + 127u) << 23;         /* 2^n: 0 at n = -127, +inf at 128 */
    return p * e.f;
}

/* tanh(x) in float for the fused loops (fast build), with no call and no
 * branch: below |x| = 0.5 its odd Taylor polynomial to x^13 (the next term
 * is under 1.5 ulp there), above (1 - e) / (1 + e) with e = exp(-2|x|)
 * and x's sign (exp's error scaled by at most 1.2 there); within 2.1 ulp
 * of tanh (tests/fast/fused-math.test: 44 million floats over the
 * whole range), +-1
 * where it saturates, NaN kept. */
static inline float axon__ftanh(float x)
{
    const float a = x < 0.0f ? -x : x, x2 = x * x, e = axon__fexp(-2.0f * a);
    float p = 3.5921280e-3f, q;
    p = AXON__FMAF(p, x2, -8.8632355e-3f);
    p = AXON__FMAF(p, x2, 2.1869489e-2f);
    p = AXON__FMAF(p, x2, -5.3968254e-2f);
    p = AXON__FMAF(p, x2, 1.3333333e-1f);
    p = AXON__FMAF(p, x2, -3.3333333e-1f);
    p = AXON__FMAF(x, x2 * p, x);
    q = (1.0f - e) / (1.0f + e);
    q = x < 0.0f ? -q : q;
    return a < 0.5f ? p : q;
}

/* erf(z) in float for the fused loops (fast build), with no call, no
 * branch and no division: below |z| = 1, z + z g(z^2) with g of degree 6
 * (so that the leading term is not rounded); from 1 to 3.92, a degree-14
 * polynomial in t = (|z| - 2.46) / 1.46, with z's sign; above, +-1 (erf
 * rounds to 1 in float there).  Both fits are least squares on Chebyshev
 * nodes in double, tests/fast/erf_fit.py, within 1.2e-9 and 7e-9; the
 * float evaluation is within 1 ulp of erf (tests/fast/fused-math.test).
 * It was Numerical Recipes' erfc with an exp and a division above 1: 2.3
 * times the time per element, within 2 ulp.  NaN kept (each select keeps
 * z's lane where its comparison is false). */
static inline float axon__ferf(float z)
{
    const float a = z < 0.0f ? -z : z, z2 = z * z;
    float p = 7.8824971153e-05f, q, t;
    p = AXON__FMAF(p, z2, -8.0188549944e-04f);
    p = AXON__FMAF(p, z2, 5.1893119429e-03f);
    p = AXON__FMAF(p, z2, -2.6854328796e-02f);
    p = AXON__FMAF(p, z2, 1.1283597463e-01f);
    p = AXON__FMAF(p, z2, -3.7612626904e-01f);
    p = AXON__FMAF(z, AXON__FMAF(z2, p, 1.2837916588e-01f), z);     /* (2 / sqrt(pi) = 1 + 0.128...) */
    t = a > 3.92f ? 3.92f : a;
    t = AXON__FMAF(t, 6.8493150685e-01f, -1.6849315068e+00f);
    q = 2.1884188135e-04f;
    q = AXON__FMAF(q, t, 1.2985970393e-05f);
    q = AXON__FMAF(q, t, -1.6258659951e-03f);
    q = AXON__FMAF(q, t, 1.5874085828e-03f);
    q = AXON__FMAF(q, t, 3.3370173158e-03f);
    q = AXON__FMAF(q, t, -9.0311239272e-03f);
    q = AXON__FMAF(q, t, 7.3476352351e-03f);
    q = AXON__FMAF(q, t, 6.4952514969e-03f);
    q = AXON__FMAF(q, t, -2.8447647043e-02f);
    q = AXON__FMAF(q, t, 4.5107023079e-02f);
    q = AXON__FMAF(q, t, -4.5047262075e-02f);
    q = AXON__FMAF(q, t, 3.0599943546e-02f);
    q = AXON__FMAF(q, t, -1.3928983865e-02f);
    q = AXON__FMAF(q, t, 3.8781061294e-03f);
    q = AXON__FMAF(q, t, 9.9949664639e-01f);
    q = a > 3.92f ? 1.0f : q;
    q = z < 0.0f ? -q : q;
    return a < 1.0f ? p : q;
}

/* exp, tanh, erf, gelu, sigmoid and silu in the fused loops: in float through
 * axon__fexp (the fast build), or as the reference computes them, in
 * double and rounded once (AXON_NO_FAST). */
#ifndef AXON_NO_FAST
#define AXON__FEXP(x) axon__fexp(x)
#define AXON__FTANH(x) axon__ftanh(x)
#define AXON__FERF(x) axon__ferf(x)
#define AXON__FGELU(x) (0.5f * ((x) * (1.0f + axon__ferf((x) * 0.70710678f))))
#define AXON__FSIGMOID(x) (1.0f / (1.0f + axon__fexp(-(x))))
#define AXON__FSILU(x) ((x) * (1.0f / (1.0f + axon__fexp(-(x)))))
#else
#define AXON__FEXP(x) ((float)exp((double)(x)))
#define AXON__FTANH(x) ((float)tanh((double)(x)))
#define AXON__FERF(x) ((float)erf((double)(x)))
#define AXON__FGELU(x) ((float)(0.5 * (double)(x) * (1.0 + erf((double)(x) / 1.4142135623730951))))
#define AXON__FSIGMOID(x) ((float)(1.0 / (1.0 + exp(-(double)(x)))))
#define AXON__FSILU(x) ((float)((double)(x) * (1.0 / (1.0 + exp(-(double)(x))))))
#endif
/* ==== axon run: fused.c end ============================================== */
