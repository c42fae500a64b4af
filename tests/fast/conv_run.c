/* conv_run.c - the driver of the tests of runtime/fast/conv.c, pool.c,
 * norm.c and reduce.c (tests/fast/conv.test; README.md beside it).  The fast f32
 * kernels against the references of runtime/kernels/ (their f32
 * instantiations, compiled after the fast files as a generated header may)
 * (and upsample2d's) on random calls:
 *
 *     conv_run SEED ROUNDS      prints one summary line per kernel
 *
 * Each call runs on random strided views (dense; rows and planes with gaps;
 * an axis reversed; the last axis with a stride of 2 or transposed, which
 * the fast paths give to the reference) of sizes that include 0, 1 and
 * every vector and tile edge (widths 15, 16, 17, 31, 33, ...), every
 * buffer between canaries of 64 bytes (poisoned under AddressSanitizer
 * during the call, so that a read outside the operands stops the driver)
 * and the bytes of the output buffers outside the output view checked
 * unchanged; the inputs are checked unchanged.  Each element of the result
 * is checked within the tolerance the kernel's error bound gives
 * (README.md), NaN where the reference has NaN, infinities equal; the max
 * pool exactly (its taps are in the reference's order).  Where _OPENMP, the
 * call runs with 1, 2 and 3 threads and the results must be the same bits.
 *
 * Built with -DCONV_LIB (and -shared -fPIC) it is instead the library that
 * conv_torch.py calls through ctypes: the conv_api_* functions below run
 * one fast kernel on NumPy's strided views.
 *
 * axon__sgemm comes from runtime/fast/gemm.c where that file exists;
 * until then from a plain triple loop here (the stand-in).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/axon_runtime.h"
#include "runtime/kernels/kernels.h"
#include "runtime/kernels/types.h"
#include "runtime/kernels/tensor.c"
#include "runtime/fast/fast.h"

#if defined(__has_include)
#if __has_include("runtime/fast/gemm.c")
#define CONV_HAVE_GEMM 1
#endif
#endif
#ifdef CONV_HAVE_GEMM
#include "runtime/fast/gemm.c"
#else
/* The stand-in: c = a b, the sum over p from 0 up, in float. */
AXON_FN int64_t axon__gemm_scratch_serial(int64_t m, int64_t n, int64_t k)
{
    (void)m;
    (void)n;
    (void)k;
    return 0;
}

AXON_RUN_FN void axon__sgemm_serial(int64_t m, int64_t n, int64_t k, const float *a, int64_t a_rs, int64_t a_cs,
                             const float *b, int64_t b_rs, int64_t b_cs, float *c, int64_t c_rs, int64_t c_cs,
                             int accumulate, void *scratch)
{
    (void)scratch;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            float s = accumulate ? c[i * c_rs + j * c_cs] : 0.0f;
            for (int64_t p = 0; p < k; p++)
                s += a[i * a_rs + p * a_cs] * b[p * b_rs + j * b_cs];
            c[i * c_rs + j * c_cs] = s;
        }
}
#endif

/* The references: after the fast files (which declare them), or before
 * them with -DCONV_REF_FIRST (a generated header may have either order). */
#ifndef CONV_REF_FIRST
#include "runtime/fast/vec.c"
#include "runtime/fast/conv.c"
#include "runtime/fast/pool.c"
#include "runtime/fast/norm.c"
#include "runtime/fast/reduce.c"
#endif
#define KT_TYPE F32
#define AXON_K(n) axon__k_##n##_f32
#define KT_TEMPLATES (KT_REDUCE | KT_CONV | KT_POOL | KT_NORM)
#include "tests/kernels/instantiate.h"
#ifdef CONV_REF_FIRST
#include "runtime/fast/vec.c"
#include "runtime/fast/conv.c"
#include "runtime/fast/pool.c"
#include "runtime/fast/norm.c"
#include "runtime/fast/reduce.c"
#endif

#ifdef __CUDACC__
/* axon__f_conv2d_scratch is AXON_FN: prepare() calls it on the device too
 * (never launched; it has to compile). */
__global__ void conv_scratch_on_device(const axon_shape *s, const int64_t *p, int64_t *bytes)
{
    bytes[0] = axon__f_conv2d_scratch(&s[0], &s[1], &s[2], p, p + 2, p + 4, p[6]);
}
#endif

#include "tests/kernels/canary.h"   /* HAVE_ASAN, POISON, UNPOISON */

static void set_threads(int n)
{
#ifdef _OPENMP
    omp_set_num_threads(n);
#else
    (void)n;
#endif
}

/* 64-byte aligned scratch of n bytes (the workspace plan aligns so). */
static void *scratch_alloc(int64_t n, void **base)
{
    *base = malloc((size_t)n + 64);
    return (void *)(((uintptr_t)*base + 63) & ~(uintptr_t)63);
}

/* ---- the library for conv_torch.py ----------------------------------------- */
#ifdef CONV_LIB
#define API

static axon_tensor api_view(const float *p, int rank, const int64_t *d, const int64_t *s)
{
    axon_tensor t;
    t.data = (void *)p;
    t.rank = rank;
    for (int i = 0; i < rank; i++) {
        t.dims[i] = d[i];
        t.strides[i] = s[i];
    }
    return t;
}

API int conv_api_conv2d(const float *x, const int64_t *xd, const int64_t *xs, const float *w, const int64_t *wd,
                        const int64_t *ws, float *y, const int64_t *yd, const int64_t *ys, const int64_t *stride,
                        const int64_t *pad, const int64_t *dil, int64_t groups, int threads);
API int conv_api_conv2d(const float *x, const int64_t *xd, const int64_t *xs, const float *w, const int64_t *wd,
                        const int64_t *ws, float *y, const int64_t *yd, const int64_t *ys, const int64_t *stride,
                        const int64_t *pad, const int64_t *dil, int64_t groups, int threads)
{
    axon_tensor tx = api_view(x, 4, xd, xs), tw = api_view(w, 4, wd, ws), ty = api_view(y, 4, yd, ys);
    axon_shape sx, sw, sy;
    void *base, *scratch;
    int64_t n;
    sx.rank = sw.rank = sy.rank = 4;
    for (int i = 0; i < 4; i++) {
        sx.dims[i] = xd[i];
        sw.dims[i] = wd[i];
        sy.dims[i] = yd[i];
    }
    n = axon__f_conv2d_scratch(&sx, &sw, &sy, stride, pad, dil, groups);
    scratch = scratch_alloc(n, &base);
    set_threads(threads);
    axon__f_conv2d(&tx, &tw, &ty, stride, pad, dil, groups, scratch);
    free(base);
    return 0;
}

API int conv_api_pool2d(int op, const float *x, int rank, const int64_t *xd, const int64_t *xs, float *y,
                        const int64_t *yd, const int64_t *ys, const int64_t *window, const int64_t *stride,
                        const int64_t *pad, int threads);
API int conv_api_pool2d(int op, const float *x, int rank, const int64_t *xd, const int64_t *xs, float *y,
                        const int64_t *yd, const int64_t *ys, const int64_t *window, const int64_t *stride,
                        const int64_t *pad, int threads)
{
    axon_tensor tx = api_view(x, rank, xd, xs), ty = api_view(y, rank, yd, ys);
    set_threads(threads);
    axon__f_pool2d(op, &tx, &ty, window, stride, pad);
    return 0;
}

/* kind 0 softmax, 1 log_softmax, 2 layernorm (g, b: rank 1, strides gs, bs) */
API int conv_api_norm(int kind, const float *x, int rank, const int64_t *xd, const int64_t *xs, const float *g,
                      int64_t gs, const float *b, int64_t bs, float *y, const int64_t *ys, int threads);
API int conv_api_norm(int kind, const float *x, int rank, const int64_t *xd, const int64_t *xs, const float *g,
                      int64_t gs, const float *b, int64_t bs, float *y, const int64_t *ys, int threads)
{
    axon_tensor tx = api_view(x, rank, xd, xs), ty = api_view(y, rank, xd, ys);
    set_threads(threads);
    if (kind == 2) {
        axon_tensor tg = api_view(g, 1, xd + rank - 1, &gs), tb = api_view(b, 1, xd + rank - 1, &bs);
        axon__f_layernorm(&tx, &tg, &tb, &ty);
    } else {
        axon__f_softmax(kind, &tx, &ty);
    }
    return 0;
}

/* The vector width and whether the real GEMM is in (conv_torch.py prints them). */
API int conv_api_info(void);
API int conv_api_info(void)
{
#ifdef CONV_HAVE_GEMM
    return AXON__FV_W + 1000;
#else
    return AXON__FV_W;
#endif
}
#else
/* ---- random calls ----------------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
    uint64_t x = rng_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng_state = x;
    return x * 2685821657736338717ull;
}

/* An integer in [lo, hi]. */
static int64_t irand(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static double urand(void)
{
    return (double)(rnd() >> 11) * (1.0 / 9007199254740992.0);
}

/* Sizes around the vector widths (4, 8, 16) and the tiles (4 vectors). */
static int64_t edge_size(void)
{
    static const int64_t e[] = { 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 23, 31, 32, 33, 47, 48, 49, 63, 64, 65, 79, 80, 81 };
    return e[irand(0, (int64_t)(sizeof e / sizeof e[0]) - 1)];
}

#define CAN 16                          /* canary floats each side (64 bytes) */
#define SENTINEL 0x7fa5a5a5u            /* a NaN no kernel computes */

typedef struct buf {
    float *base;                        /* CAN + n + CAN floats */
    float *data;                        /* n floats */
    int64_t n;
    unsigned char *saved;               /* a copy of base, to compare */
} buf;

static void buf_make(buf *b, int64_t n)
{
    uint32_t s = SENTINEL;
    b->n = n;
    b->base = (float *)malloc((size_t)(n + 2 * CAN) * sizeof(float));
    b->data = b->base + CAN;
    for (int64_t i = 0; i < n + 2 * CAN; i++)
        memcpy(b->base + i, &s, 4);
    b->saved = (unsigned char *)malloc((size_t)(n + 2 * CAN) * sizeof(float));
}

static void buf_free(buf *b)
{
    free(b->base);
    free(b->saved);
}

static void buf_save(buf *b)
{
    memcpy(b->saved, b->base, (size_t)(b->n + 2 * CAN) * sizeof(float));
}

static void buf_poison(buf *b)
{
    POISON(b->base, CAN * sizeof(float));
    POISON(b->data + b->n, CAN * sizeof(float));
}

static void buf_unpoison(buf *b)
{
    UNPOISON(b->base, CAN * sizeof(float));
    UNPOISON(b->data + b->n, CAN * sizeof(float));
}

/* A view of the given dims on a new buffer, in one of the layouts:
 * 0 dense; 1 gaps between rows and planes; 2 an axis (not the last)
 * reversed, with gaps; 3 the last axis with stride 2 (the fast paths give
 * that to the reference); 4 the last two axes transposed in memory. */
static axon_tensor view_make(buf *b, int rank, const int64_t *dims, int layout)
{
    axon_tensor t;
    int64_t span = 1, st = layout == 3 ? 2 : 1;
    int rev = layout == 2 && rank > 1 ? (int)irand(0, rank - 2) : -1;
    t.rank = rank;
    for (int i = 0; i < rank; i++)
        t.dims[i] = dims[i];
    if (layout == 4 && rank >= 2) {
        /* memory order: ..., last, second last */
        t.strides[rank - 2] = 1;
        t.strides[rank - 1] = dims[rank - 2] + irand(0, 1);
        st = t.strides[rank - 1] * dims[rank - 1];
        for (int i = rank - 3; i >= 0; i--) {
            t.strides[i] = st;
            st *= dims[i];
        }
    } else {
        for (int i = rank - 1; i >= 0; i--) {
            t.strides[i] = st;
            st *= dims[i] + (layout == 1 || layout == 2 ? (i == rank - 1 ? irand(0, 3) : irand(0, 1)) : 0);
        }
    }
    for (int i = 0; i < rank; i++)
        span += (dims[i] > 0 ? dims[i] - 1 : 0) * (t.strides[i] < 0 ? -t.strides[i] : t.strides[i]);
    buf_make(b, span);
    t.data = b->data;
    if (rev >= 0 && dims[rev] > 1) {
        t.data = b->data + (dims[rev] - 1) * t.strides[rev];
        t.strides[rev] = -t.strides[rev];
    }
    return t;
}

/* Every element of view t, in row-major order: f(i, pointer). */
static int64_t view_offsets(const axon_tensor *t, int64_t *off)
{
    axon__iter it;
    int64_t n = axon__iter_start(&it, t->rank, t->dims);
    axon__iter_add(&it, t->strides);
    for (int64_t e = 0; e < n; e++, axon__iter_next(&it))
        off[e] = it.off[0];
    return n;
}

/* Values: uniform in [-1, 1) times scale plus shift; with probability
 * special, NaN, +inf or -inf. */
static void view_fill(const axon_tensor *t, double scale, double shift, double special)
{
    int64_t n = axon__numel(t->rank, t->dims);
    int64_t *off = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
    view_offsets(t, off);
    for (int64_t e = 0; e < n; e++) {
        float v = (float)((urand() * 2.0 - 1.0) * scale + shift);
        if (special > 0 && urand() < special) {
            int64_t k = irand(0, 2);
            v = k == 0 ? (float)NAN : k == 1 ? (float)INFINITY : -(float)INFINITY;
        }
        ((float *)t->data)[off[e]] = v;
    }
    free(off);
}

/* A dense copy of view t (its absolute values when absv). */
static float *view_dense(const axon_tensor *t, int absv, axon_tensor *d)
{
    int64_t n = axon__numel(t->rank, t->dims);
    int64_t *off = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
    float *p = (float *)malloc((size_t)(n + 1) * sizeof(float));
    axon_shape s;
    view_offsets(t, off);
    for (int64_t e = 0; e < n; e++) {
        float v = ((const float *)t->data)[off[e]];
        p[e] = absv ? (float)fabs(v) : v;
    }
    free(off);
    s.rank = t->rank;
    for (int i = 0; i < t->rank; i++)
        s.dims[i] = t->dims[i];
    axon__dense_view(p, 4, &s, d);
    return p;
}

/* Winograd's F(2x2, 3x3) computes output (i, j) from the 4 x 4 tile of x at
 * (2 (i / 2) - p0, 2 (j / 2) - p1) (zero outside), each product |x w| of
 * it and the window counted at most 4 times over (the transforms'
 * coefficients, 1/2, 1 and 2, in each direction at most 2): its error
 * bound is that of a sum of K terms over 4 sum_ci (sum |w[o, ci]|)
 * (sum of the tile's |x[ci]|), which replaces `bound` (ax, aw: |x|, |w|,
 * dense). */
static void wino_bound(const float *ax, const float *aw, const int64_t *xd, const int64_t *wd, const int64_t *yd,
                       const int64_t *pad, int64_t g, float *bound)
{
    const int64_t cc = wd[1], k = wd[0] / g;
    for (int64_t b = 0; b < yd[0]; b++)
        for (int64_t o = 0; o < yd[1]; o++)
            for (int64_t i = 0; i < yd[2]; i++)
                for (int64_t j = 0; j < yd[3]; j++) {
                    double sum = 0;
                    for (int64_t ci = 0; ci < cc; ci++) {
                        const int64_t ch = o / k * cc + ci;
                        double sw = 0, sx = 0;
                        for (int64_t t = 0; t < wd[2] * wd[3]; t++)
                            sw += aw[(o * cc + ci) * wd[2] * wd[3] + t];
                        for (int64_t y = 2 * (i / 2) - pad[0]; y < 2 * (i / 2) - pad[0] + 4; y++)
                            for (int64_t z = 2 * (j / 2) - pad[1]; z < 2 * (j / 2) - pad[1] + 4; z++)
                                if (y >= 0 && y < xd[2] && z >= 0 && z < xd[3])
                                    sx += ax[((b * xd[1] + ch) * xd[2] + y) * xd[3] + z];
                        sum += sw * sx;
                    }
                    bound[((b * yd[1] + o) * yd[2] + i) * yd[3] + j] = (float)(4.0 * sum);
                }
}

/* A dense float buffer of this shape (one float more, for a count of 0)
 * and its view in t: the references' outputs. */
static float *dense_out(int rank, const int64_t *dims, axon_tensor *t)
{
    axon_shape sh;
    float *p = (float *)malloc((size_t)(axon__numel(rank, dims) + 1) * 4);
    sh.rank = rank;
    memcpy(sh.dims, dims, sizeof(int64_t) * (size_t)rank);
    axon__dense_view(p, 4, &sh, t);
    return p;
}

/* ---- checking ---------------------------------------------------------------- */

typedef struct stats {
    const char *name;
    int64_t cases, failed, elements, paths[10];
    double worst;                       /* the largest error / tolerance */
} stats;

static int verbose;

/* A result element against the reference's within tol; NaN where it is
 * NaN, infinities equal. */
static int check_elem(stats *st, int64_t cs, int64_t e, float f, float r, double tol)
{
    uint32_t bits;
    double err;
    memcpy(&bits, &f, 4);
    st->elements++;
    if (bits == SENTINEL) {
        if (st->failed++ < 10 || verbose)
            printf("FAIL %s case %lld: element %lld never written (reference %.9g)\n", st->name, (long long)cs,
                   (long long)e, r);
        return 1;
    }
    if (f == r)
        return 0;
    if (r != r || f != f || r == (float)INFINITY || r == -(float)INFINITY) {
        if ((r != r && f != f) || r == f)
            return 0;
    } else {
        err = fabs((double)f - (double)r);
        if (tol > 0 && err / tol > st->worst)
            st->worst = err / tol;
        if (err <= tol)
            return 0;
    }
    if (st->failed++ < 10 || verbose)
        printf("FAIL %s case %lld: element %lld is %.9g, the reference %.9g (tolerance %.3g)\n", st->name,
               (long long)cs, (long long)e, f, r, tol);
    return 1;
}

/* The buffers of the output view after the call: outside the view as
 * before it (the canaries too). */
static int check_outside(stats *st, int64_t cs, buf *b, const axon_tensor *t)
{
    int64_t n = axon__numel(t->rank, t->dims);
    int64_t *off = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
    unsigned char *mark = (unsigned char *)calloc((size_t)(b->n + 2 * CAN), 1);
    int bad = 0;
    view_offsets(t, off);
    for (int64_t e = 0; e < n; e++)
        mark[((float *)t->data - b->base) + off[e]] = 1;
    for (int64_t i = 0; i < b->n + 2 * CAN; i++)
        if (!mark[i] && memcmp(b->base + i, b->saved + 4 * i, 4) != 0)
            bad = 1;
    free(off);
    free(mark);
    if (bad && (st->failed++ < 10 || verbose))
        printf("FAIL %s case %lld: a byte outside the output view changed\n", st->name, (long long)cs);
    return bad;
}

static int check_same(stats *st, int64_t cs, buf *b, const char *what)
{
    if (memcmp(b->base, b->saved, (size_t)(b->n + 2 * CAN) * sizeof(float)) == 0)
        return 0;
    if (st->failed++ < 10 || verbose)
        printf("FAIL %s case %lld: %s\n", st->name, (long long)cs, what);
    return 1;
}

/* The thread counts the fast kernel runs with; the results must be the
 * same bits. */
#ifdef _OPENMP
static const int thread_counts[] = { 1, 2, 3 };
#else
static const int thread_counts[] = { 1 };
#endif
#define NTHREADS ((int)(sizeof thread_counts / sizeof thread_counts[0]))

/* Runs call(ctx) once per thread count on output buffer ob (view ov),
 * inputs ins[] poisoned around; keeps the first result in ob and returns
 * nonzero when a later one differs or a check fails. */
typedef void (*call_fn)(void *ctx);

static int run_threads(stats *st, int64_t cs, call_fn call, void *ctx, buf *ob, const axon_tensor *ov, buf **ins,
                       int nin)
{
    unsigned char *first = NULL;
    size_t bytes = (size_t)(ob->n + 2 * CAN) * sizeof(float);
    int bad = 0;
    for (int k = 0; k < nin; k++)
        buf_save(ins[k]);
    buf_save(ob);
    for (int t = 0; t < NTHREADS; t++) {
        if (t > 0)
            memcpy(ob->base, ob->saved, bytes);
        set_threads(thread_counts[t]);
        for (int k = 0; k < nin; k++)
            buf_poison(ins[k]);
        buf_poison(ob);
        call(ctx);
        buf_unpoison(ob);
        for (int k = 0; k < nin; k++)
            buf_unpoison(ins[k]);
        if (t == 0) {
            first = (unsigned char *)malloc(bytes);
            memcpy(first, ob->base, bytes);
        } else if (memcmp(first, ob->base, bytes) != 0) {
            if (st->failed++ < 10 || verbose)
                printf("FAIL %s case %lld: %d threads give other bits than 1\n", st->name, (long long)cs,
                       thread_counts[t]);
            bad = 1;
        }
    }
    bad |= check_outside(st, cs, ob, ov);
    for (int k = 0; k < nin; k++)
        bad |= check_same(st, cs, ins[k], "an input changed");
    free(first);
    set_threads(1);
    return bad;
}

/* ---- conv2d ---------------------------------------------------------------------- */

typedef struct conv_call {
    axon_tensor x, w, y;
    int64_t stride[2], pad[2], dil[2], groups;
    void *scratch;
} conv_call;

static void conv_fast(void *ctx)
{
    conv_call *c = (conv_call *)ctx;
    axon__f_conv2d(&c->x, &c->w, &c->y, c->stride, c->pad, c->dil, c->groups, c->scratch);
}

static void conv_case(stats *st, int64_t cs)
{
    conv_call c;
    buf bx, bw, by;
    int64_t nb, g, cc, k, h, w, r, q, oh, ow, xd[4], wd[4], yd[4];
    int kind = (int)irand(0, 4), bad = 0;
    axon_shape sx, sw, sy;
    axon__cv_plan plan;
    void *sbase;
    float *ref, *bound;
    axon_tensor tr, tb, ax, aw;
    int64_t *off, n;
    nb = irand(0, 12) == 0 ? 0 : irand(1, 2);
    r = irand(1, 3);
    q = irand(0, 3) == 0 ? irand(1, 5) : r;
    c.stride[0] = irand(1, 2);
    c.stride[1] = irand(0, 3) == 0 ? 3 : irand(1, 2);
    c.pad[0] = irand(0, 2);
    c.pad[1] = irand(0, 2);
    c.dil[0] = irand(0, 4) == 0 ? 2 : 1;
    c.dil[1] = irand(0, 4) == 0 ? 2 : 1;
    h = irand(0, 3) == 0 ? edge_size() : irand(1, 9);
    w = edge_size();
    if (kind == 0) {                    /* depthwise, sometimes with a multiplier */
        cc = 1;
        g = irand(1, 5);
        k = irand(0, 3) == 0 ? irand(2, 3) : 1;
    } else if (kind == 1) {             /* few channels a group */
        cc = irand(2, 4);
        g = irand(1, 3);
        k = irand(1, 8);
    } else if (kind == 2) {             /* 1x1 */
        cc = irand(5, 40);
        g = irand(0, 3) == 0 ? 2 : 1;
        k = irand(0, 4) == 0 ? irand(128, 140) : irand(1, 40);
        r = q = 1;
        if (irand(0, 2) > 0) {
            c.stride[0] = c.stride[1] = 1;
            c.pad[0] = c.pad[1] = 0;
        }
        if (irand(0, 3) == 0) {         /* many pixels: several blocks */
            h = irand(16, 40);
            w = edge_size() + 16;
        }
    } else if (kind == 4 && irand(0, 1)) {  /* one window covering the image */
        cc = irand(1, 24);
        g = 1;
        k = irand(1, 40);
        h = irand(1, 9);
        r = h;
        q = w;
        c.pad[0] = c.pad[1] = 0;
        c.dil[0] = c.dil[1] = 1;
    } else if (kind == 3 && irand(0, 1) == 0) {  /* 3x3 stride 1 of 16 channels and more: Winograd */
        cc = irand(16, 40);
        g = irand(0, 4) == 0 ? 2 : 1;
        k = irand(16, 40);
        r = q = 3;
        c.stride[0] = c.stride[1] = 1;
        c.dil[0] = c.dil[1] = 1;
        h = irand(6, 20);
        w = irand(0, 2) ? edge_size() + 5 : irand(6, 60);
    } else {                            /* im2col */
        cc = irand(5, 24);
        g = irand(0, 3) == 0 ? 2 : 1;
        k = irand(1, 20);
        if (irand(0, 2) == 0) {         /* stride 1: often on the (padded) input's grid */
            c.stride[0] = c.stride[1] = 1;
            c.pad[0] = irand(0, 1);
            c.pad[1] = irand(0, 1);
            q = irand(2, 3);
            if (irand(0, 1))            /* rows in several pixel blocks */
                h = irand(16, 40);
        }
        if (irand(0, 5) == 0) {
            cc = irand(0, 1) ? 0 : cc;  /* no taps */
            r = irand(0, 1) ? 0 : r;
        }
    }
    /* a window that fits: h + 2p >= d (r - 1) + 1 */
    while (h + 2 * c.pad[0] < c.dil[0] * (r - 1) + 1)
        h++;
    while (w + 2 * c.pad[1] < c.dil[1] * (q - 1) + 1)
        w++;
    oh = (h + 2 * c.pad[0] - c.dil[0] * (r - 1) - 1) / c.stride[0] + 1;
    ow = (w + 2 * c.pad[1] - c.dil[1] * (q - 1) - 1) / c.stride[1] + 1;
    if (r == 0)
        oh = 1;
    xd[0] = nb, xd[1] = g * cc, xd[2] = h, xd[3] = w;
    wd[0] = g * k, wd[1] = cc, wd[2] = r, wd[3] = q;
    yd[0] = nb, yd[1] = g * k, yd[2] = oh, yd[3] = ow;
    c.groups = g;
    c.x = view_make(&bx, 4, xd, (int)irand(0, 4));
    c.w = view_make(&bw, 4, wd, irand(0, 5) == 0 ? (int)irand(1, 4) : 0);
    c.y = view_make(&by, 4, yd, irand(0, 3) == 0 ? (int)irand(1, 4) : 0);
    view_fill(&c.x, 1.0, 0.0, 0.0);
    view_fill(&c.w, 1.0, 0.0, 0.0);
    sx.rank = sw.rank = sy.rank = 4;
    memcpy(sx.dims, xd, sizeof xd);
    memcpy(sw.dims, wd, sizeof wd);
    memcpy(sy.dims, yd, sizeof yd);
    c.scratch = scratch_alloc(axon__f_conv2d_scratch(&sx, &sw, &sy, c.stride, c.pad, c.dil, g), &sbase);
    axon__cv_make_plan(xd, wd, yd, c.stride, c.pad, c.dil, g, &plan);
    st->paths[plan.kind]++;
    st->paths[8] += plan.kind == AXON__CV_GEMM && plan.wide;
    st->paths[9] += plan.kind == AXON__CV_GEMM && plan.wide && (c.stride[0] > 1 || c.stride[1] > 1);
    {
        buf *ins[2] = { &bx, &bw };
        bad |= run_threads(st, cs, conv_fast, &c, &by, &c.y, ins, 2);
    }
    /* the reference, and the bound sum |x| |w| from the reference on |x|, |w| */
    n = axon__numel(4, yd);
    ref = (float *)malloc((size_t)(n + 1) * 4);
    bound = (float *)malloc((size_t)(n + 1) * 4);
    {
        axon_shape s = sy;
        float *px, *pw;
        axon__dense_view(ref, 4, &s, &tr);
        axon__dense_view(bound, 4, &s, &tb);
        axon__k_conv2d_f32(&c.x, &c.w, &tr, c.stride, c.pad, c.dil, g);
        px = view_dense(&c.x, 1, &ax);
        pw = view_dense(&c.w, 1, &aw);
        axon__k_conv2d_f32(&ax, &aw, &tb, c.stride, c.pad, c.dil, g);
        if (plan.kind == AXON__CV_WINO)
            wino_bound(px, pw, xd, wd, yd, c.pad, g, bound);
        free(px);
        free(pw);
    }
    off = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
    view_offsets(&c.y, off);
    for (int64_t e = 0; e < n && !bad; e++) {
        /* float sums of K products, any order: (K + 2) u sum |x w| */
        double tol = (double)(cc * r * q + 2) * 5.9604644775390625e-8 * bound[e] + 1e-37;
        bad |= check_elem(st, cs, e, ((float *)c.y.data)[off[e]], ref[e], tol);
    }
    if (bad && verbose)
        printf("  conv x [%lld %lld %lld %lld] w [%lld %lld %lld %lld] s %lld %lld p %lld %lld d %lld %lld g %lld, "
               "path %d\n",
               (long long)nb, (long long)(g * cc), (long long)h, (long long)w, (long long)(g * k), (long long)cc,
               (long long)r, (long long)q, (long long)c.stride[0], (long long)c.stride[1], (long long)c.pad[0],
               (long long)c.pad[1], (long long)c.dil[0], (long long)c.dil[1], (long long)g, plan.kind);
    st->cases++;
    free(off);
    free(ref);
    free(bound);
    free(sbase);
    buf_free(&bx);
    buf_free(&bw);
    buf_free(&by);
}

/* ---- pool2d ------------------------------------------------------------------------ */

typedef struct pool_call {
    int op;
    axon_tensor x, y;
    int64_t window[2], stride[2], pad[2];
} pool_call;

static void pool_fast(void *ctx)
{
    pool_call *c = (pool_call *)ctx;
    axon__f_pool2d(c->op, &c->x, &c->y, c->window, c->stride, c->pad);
}

static void pool_case(stats *st, int64_t cs)
{
    pool_call c;
    buf bx, by;
    int rank = (int)irand(2, 5), bad = 0;
    int64_t xd[AXON_MAX_RANK], yd[AXON_MAX_RANK], n, *off;
    float *ref, *bound;
    axon_tensor tr, tb, ax;
    for (int i = 0; i < rank - 2; i++)
        xd[i] = irand(0, 15) == 0 ? 0 : irand(1, 3);
    xd[rank - 2] = irand(0, 2) == 0 ? edge_size() : irand(1, 6);
    xd[rank - 1] = irand(0, 2) == 0 ? edge_size() + irand(0, 1) * 64 : edge_size();
    c.op = irand(0, 1) ? AXON_RED_MAX : AXON_RED_MEAN;
    if (irand(0, 6) == 0) {             /* global pooling */
        c.window[0] = xd[rank - 2];
        c.window[1] = xd[rank - 1];
        c.stride[0] = c.stride[1] = 1;
        c.pad[0] = c.pad[1] = 0;
    } else {
        c.window[0] = irand(1, 4);
        c.window[1] = irand(1, 4);
        c.stride[0] = irand(1, 3);
        c.stride[1] = irand(0, 5) == 0 ? 3 : irand(1, 2);
        c.pad[0] = irand(0, c.window[0] / 2 + (irand(0, 9) == 0 ? 2 : 0));
        c.pad[1] = irand(0, c.window[1] / 2 + (irand(0, 9) == 0 ? 2 : 0));
    }
    for (int a = 0; a < 2; a++) {
        int64_t *d = &xd[rank - 2 + a];
        while (*d + 2 * c.pad[a] < c.window[a])
            (*d)++;
    }
    for (int i = 0; i < rank - 2; i++)
        yd[i] = xd[i];
    yd[rank - 2] = (xd[rank - 2] + 2 * c.pad[0] - c.window[0]) / c.stride[0] + 1;
    yd[rank - 1] = (xd[rank - 1] + 2 * c.pad[1] - c.window[1]) / c.stride[1] + 1;
    c.x = view_make(&bx, rank, xd, (int)irand(0, 4));
    c.y = view_make(&by, rank, yd, irand(0, 3) == 0 ? (int)irand(1, 4) : 0);
    view_fill(&c.x, 1.0, 0.0, irand(0, 3) == 0 ? 0.02 : 0.0);
    {
        buf *ins[1] = { &bx };
        bad |= run_threads(st, cs, pool_fast, &c, &by, &c.y, ins, 1);
    }
    st->paths[c.op == AXON_RED_MAX ? 0 : 1]++;
    n = axon__numel(rank, yd);
    ref = dense_out(rank, yd, &tr);
    bound = dense_out(rank, yd, &tb);
    {
        float *px;
        axon__k_pool2d_f32(c.op, &c.x, &tr, c.window, c.stride, c.pad);
        px = view_dense(&c.x, 1, &ax);
        axon__k_pool2d_f32(AXON_RED_MEAN, &ax, &tb, c.window, c.stride, c.pad);
        free(px);
    }
    off = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
    view_offsets(&c.y, off);
    for (int64_t e = 0; e < n && !bad; e++) {
        /* max: exact; mean: a float sum of r q terms, then a division:
         * (r q + 2) u mean |x| */
        double tol = c.op == AXON_RED_MAX ? 0.0
                                          : (double)(c.window[0] * c.window[1] + 2) * 5.9604644775390625e-8 *
                                                bound[e] + 1e-37;
        bad |= check_elem(st, cs, e, ((float *)c.y.data)[off[e]], ref[e], tol);
    }
    if (bad && verbose)
        printf("  pool op %d rank %d x [.. %lld %lld] window %lld %lld s %lld %lld p %lld %lld\n", c.op, rank,
               (long long)xd[rank - 2], (long long)xd[rank - 1], (long long)c.window[0], (long long)c.window[1],
               (long long)c.stride[0], (long long)c.stride[1], (long long)c.pad[0], (long long)c.pad[1]);
    st->cases++;
    free(off);
    free(ref);
    free(bound);
    buf_free(&bx);
    buf_free(&by);
}

/* ---- upsample2d ------------------------------------------------------------------ */

static void up_fast(void *ctx)
{
    pool_call *c = (pool_call *)ctx;
    axon__f_upsample2d(&c->x, &c->y, c->window);
}

/* Nearest upsampling by factors 1-3 (the window's place holds them): the
 * elements moved exactly, as the reference moves them. */
static void up_case(stats *st, int64_t cs)
{
    pool_call c;
    buf bx, by;
    int rank = (int)irand(2, 5), bad = 0;
    int64_t xd[AXON_MAX_RANK], yd[AXON_MAX_RANK], n, *off;
    float *ref;
    axon_tensor tr;
    for (int i = 0; i < rank - 2; i++)
        xd[i] = irand(0, 15) == 0 ? 0 : irand(1, 3);
    xd[rank - 2] = irand(0, 2) == 0 ? edge_size() : irand(1, 6);
    xd[rank - 1] = irand(0, 2) == 0 ? edge_size() + irand(0, 1) * 64 : edge_size();
    c.op = 0;
    c.window[0] = irand(1, 3);
    c.window[1] = irand(0, 1) ? 2 : irand(1, 3);
    for (int i = 0; i < rank - 2; i++)
        yd[i] = xd[i];
    yd[rank - 2] = xd[rank - 2] * c.window[0];
    yd[rank - 1] = xd[rank - 1] * c.window[1];
    c.x = view_make(&bx, rank, xd, (int)irand(0, 4));
    c.y = view_make(&by, rank, yd, irand(0, 3) == 0 ? (int)irand(1, 4) : 0);
    view_fill(&c.x, 1.0, 0.0, irand(0, 3) == 0 ? 0.02 : 0.0);
    {
        buf *ins[1] = { &bx };
        bad |= run_threads(st, cs, up_fast, &c, &by, &c.y, ins, 1);
    }
    st->paths[c.window[1] == 2 ? 0 : 1]++;
    n = axon__numel(rank, yd);
    ref = dense_out(rank, yd, &tr);
    axon__k_upsample2d_f32(&c.x, &tr, c.window);
    off = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
    view_offsets(&c.y, off);
    for (int64_t e = 0; e < n && !bad; e++)
        bad |= check_elem(st, cs, e, ((float *)c.y.data)[off[e]], ref[e], 0.0);
    if (bad && verbose)
        printf("  upsample rank %d x [.. %lld %lld] f %lld %lld\n", rank, (long long)xd[rank - 2],
               (long long)xd[rank - 1], (long long)c.window[0], (long long)c.window[1]);
    st->cases++;
    free(off);
    free(ref);
    buf_free(&bx);
    buf_free(&by);
}

/* ---- softmax, log_softmax, layernorm ------------------------------------------------- */

typedef struct norm_call {
    int kind;                           /* 0 softmax, 1 log_softmax, 2 layernorm */
    axon_tensor x, g, b, y;
} norm_call;

static void norm_fast(void *ctx)
{
    norm_call *c = (norm_call *)ctx;
    if (c->kind == 2)
        axon__f_layernorm(&c->x, &c->g, &c->b, &c->y);
    else
        axon__f_softmax(c->kind, &c->x, &c->y);
}

static void norm_case(stats *st, int64_t cs, int kind)
{
    norm_call c;
    buf bx, by, bg, bb;
    int rank = (int)irand(1, 4), bad = 0, special = irand(0, 3) == 0;
    int64_t xd[AXON_MAX_RANK], n, len, *off;
    float *ref, *xs;
    axon_tensor tr, dx;
    double scale = kind == 2 ? (irand(0, 1) ? 1.0 : 50.0) : (irand(0, 1) ? 3.0 : 60.0);
    double shift = kind == 2 && irand(0, 2) == 0 ? 300.0 : 0.0;
    static const int64_t lens[] = { 0, 1, 2, 3, 100, 127, 1000, 4099 };
    for (int i = 0; i < rank - 1; i++)
        xd[i] = irand(0, 15) == 0 ? 0 : irand(1, 4);
    xd[rank - 1] = len = irand(0, 2) ? edge_size() : lens[irand(0, 7)];
    c.kind = kind;
    c.x = view_make(&bx, rank, xd, (int)irand(0, 4));
    c.y = view_make(&by, rank, xd, irand(0, 3) == 0 ? (int)irand(1, 4) : 0);
    view_fill(&c.x, scale, shift, special ? 0.01 : 0.0);
    c.g = view_make(&bg, 1, &xd[rank - 1], irand(0, 6) == 0 ? 3 : 0);
    c.b = view_make(&bb, 1, &xd[rank - 1], irand(0, 6) == 0 ? 3 : 0);
    view_fill(&c.g, 1.0, 1.0, 0.0);
    view_fill(&c.b, 1.0, 0.0, 0.0);
    /* rows of -inf, a +inf, mixed -inf, a NaN among finite values (the
     * fast softmax's maximum skips a NaN: it must come back through exp):
     * one row */
    if (special && len > 0 && axon__numel(rank, xd) > 0) {
        int64_t m = irand(0, 3);
        for (int64_t j = 0; j < len; j++)
            ((float *)c.x.data)[j * c.x.strides[rank - 1]] = m == 0 ? -(float)INFINITY
                                                            : m == 1 && j == len / 2 ? (float)INFINITY
                                                            : m == 3 && j == len / 2 ? (float)NAN
                                                            : m == 3 ? (float)j
                                                            : j % 2 ? -(float)INFINITY : (float)j;
    }
    {
        buf *ins[3] = { &bx, &bg, &bb };
        bad |= run_threads(st, cs, norm_fast, &c, &by, &c.y, ins, 3);
    }
    st->paths[kind]++;
    n = axon__numel(rank, xd);
    ref = dense_out(rank, xd, &tr);
    if (kind == 2)
        axon__k_layernorm_f32(&c.x, &c.g, &c.b, &tr);
    else
        axon__k_softmax_f32(kind, &c.x, &tr);
    xs = view_dense(&c.x, 0, &dx);
    off = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
    view_offsets(&c.y, off);
    for (int64_t row = 0; len > 0 && row < n / len && !bad; row++) {
        const float *xr = xs + row * len;
        double mx = -INFINITY, sum = 0.0, mean = 0.0, var = 0.0, rstd;
        const double u = 5.9604644775390625e-8;
        for (int64_t j = 0; j < len; j++) {
            mx = xr[j] > mx ? xr[j] : mx;
            mean += xr[j];
        }
        mean /= (double)len;
        for (int64_t j = 0; j < len; j++) {
            sum += exp(xr[j] - mx);
            var += (xr[j] - mean) * (xr[j] - mean);
        }
        rstd = 1.0 / sqrt(var / (double)len + 1e-5);
        for (int64_t j = 0; j < len && !bad; j++) {
            const int64_t e = row * len + j;
            const double d = fabs(xr[j] - mx), r = fabs((double)ref[e]);
            double tol;
            if (kind == 0)      /* exp of a rounded difference, a float sum */
                tol = u * (d + 2.0 * (double)len + 16.0) * r + 2.4e-38;
            else if (kind == 1)
                tol = u * (2.0 * d + r + 2.0 * fabs(log(sum)) + 2.0 * (double)len + 16.0);
            else {              /* (x - mean) rounded, times rstd, g; + b */
                const int64_t gs = c.g.strides[0], bs = c.b.strides[0];
                const double gj = fabs((double)((const float *)c.g.data)[j * gs]);
                const double bj = fabs((double)((const float *)c.b.data)[j * bs]);
                tol = 4.0 * u * ((fabs((double)xr[j]) + fabs(mean)) * rstd * gj + bj + r) + 1e-37;
            }
            bad |= check_elem(st, cs, e, ((float *)c.y.data)[off[e]], ref[e], tol);
        }
    }
    if (bad && verbose)
        printf("  %s rank %d len %lld\n", kind == 2 ? "layernorm" : "softmax", rank, (long long)len);
    st->cases++;
    free(xs);
    free(off);
    free(ref);
    buf_free(&bx);
    buf_free(&by);
    buf_free(&bg);
    buf_free(&bb);
}

/* ---- reductions ------------------------------------------------------------------ */

typedef struct red_call {
    int op;                             /* AXON_RED_SUM, _MEAN, _MAX, _MIN */
    axon_tensor x, y;                   /* y: the reduction's view (size 1, stride 0 where reduced) */
} red_call;

static void red_fast(void *ctx)
{
    red_call *c = (red_call *)ctx;
    axon__f_reduce(c->op, &c->x, &c->y);
}

/* Leading axes reduced (paths[0]), trailing ones (1), any other set (2:
 * the reference's); sums within (n + 2) u sum |x| of the reference's
 * double sum (n the reduced count), a mean within that over n plus a
 * rounding, max and min exactly. */
static void red_case(stats *st, int64_t cs)
{
    red_call c;
    buf bx, by;
    int rank = (int)irand(1, 4), shape = (int)irand(0, 2), bad = 0, red[AXON_MAX_RANK];
    int64_t xd[AXON_MAX_RANK], yd[AXON_MAX_RANK], n, cnt = 1, *off;
    float *ref, *bound, *ax;
    axon_tensor tr, tb, dx;
    const double u = 5.9604644775390625e-8;
    int k = (int)irand(0, rank);
    for (int i = 0; i < rank; i++) {
        xd[i] = irand(0, 20) == 0 ? 0 : i == rank - 1 ? edge_size() : irand(1, 6);
        red[i] = shape == 0 ? i < k : shape == 1 ? i >= k : irand(0, 1) == 0;
    }
    if (irand(0, 5) == 0)                  /* a long reduced block */
        xd[shape == 0 ? 0 : rank - 1] = 1000 + irand(0, 100);
    for (int i = 0; i < rank; i++) {
        yd[i] = red[i] ? 1 : xd[i];
        cnt *= red[i] ? xd[i] : 1;
    }
    c.op = (int)irand(0, 3);
    c.x = view_make(&bx, rank, xd, (int)irand(0, 4));
    c.y = view_make(&by, rank, yd, irand(0, 3) == 0 ? (int)irand(1, 4) : 0);
    for (int i = 0; i < rank; i++)
        if (red[i])
            c.y.strides[i] = 0;
    view_fill(&c.x, irand(0, 1) ? 1.0 : 100.0, 0.0, irand(0, 4) == 0 ? 0.02 : 0.0);
    {
        buf *ins[1] = { &bx };
        bad |= run_threads(st, cs, red_fast, &c, &by, &c.y, ins, 1);
    }
    st->paths[shape]++;
    n = axon__numel(rank, yd);
    ref = dense_out(rank, yd, &tr);
    bound = dense_out(rank, yd, &tb);
    axon__k_reduce_f32(c.op, &c.x, &tr);
    ax = view_dense(&c.x, 1, &dx);
    axon__k_reduce_f32(AXON_RED_SUM, &dx, &tb);
    off = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
    view_offsets(&c.y, off);
    for (int64_t e = 0; e < n && !bad; e++) {
        double tol = 0.0;
        if (c.op == AXON_RED_SUM)
            tol = (double)(cnt + 2) * u * bound[e] + 1e-37;
        else if (c.op == AXON_RED_MEAN)
            tol = cnt ? (double)(cnt + 2) * u * bound[e] / (double)cnt + 2 * u * fabs((double)ref[e]) + 1e-37 : 0.0;
        bad |= check_elem(st, cs, e, ((float *)c.y.data)[off[e]], ref[e], tol);
    }
    if (bad && verbose)
        printf("  reduce op %d rank %d shape %d\n", c.op, rank, shape);
    st->cases++;
    free(ax);
    free(off);
    free(ref);
    free(bound);
    buf_free(&bx);
    buf_free(&by);
}

int main(int argc, char **argv)
{
    stats sc = { "conv2d", 0, 0, 0, { 0 }, 0 }, sp = { "pool2d", 0, 0, 0, { 0 }, 0 };
    stats ss = { "softmax", 0, 0, 0, { 0 }, 0 }, sl = { "layernorm", 0, 0, 0, { 0 }, 0 };
    stats su = { "upsample2d", 0, 0, 0, { 0 }, 0 }, sr = { "reduce", 0, 0, 0, { 0 }, 0 };
    int64_t rounds;
    if (argc < 3) {
        fprintf(stderr, "usage: conv_run SEED ROUNDS [-v]\n");
        return 2;
    }
    rng_state = 0x9e3779b97f4a7c15ull ^ (uint64_t)strtoull(argv[1], NULL, 10) * 0x2545f4914f6cdd1dull;
    rounds = strtoll(argv[2], NULL, 10);
    verbose = argc > 3;
    printf("conv_run: seed %s, W = %d floats, %s, threads", argv[1], AXON__FV_W,
#ifdef CONV_HAVE_GEMM
           "axon__sgemm of runtime/fast/gemm.c"
#else
           "axon__sgemm of the stand-in"
#endif
    );
    for (int t = 0; t < NTHREADS; t++)
        printf(" %d", thread_counts[t]);
    printf("\n");
    for (int64_t i = 0; i < rounds; i++) {
        conv_case(&sc, sc.cases);
        pool_case(&sp, sp.cases);
        up_case(&su, su.cases);
        norm_case(&ss, ss.cases, (int)irand(0, 1));
        norm_case(&sl, sl.cases, 2);
        red_case(&sr, sr.cases);
    }
    printf("conv2d: %lld cases (zero %lld, direct %lld, gemm %lld of which on the input's grid %lld (strided %lld), "
           "dense %lld, winograd %lld), %lld elements, worst error/tolerance %.3f, %lld failed\n",
           (long long)sc.cases, (long long)sc.paths[1], (long long)sc.paths[2], (long long)sc.paths[3],
           (long long)sc.paths[8], (long long)sc.paths[9], (long long)sc.paths[5], (long long)sc.paths[6],
           (long long)sc.elements, sc.worst, (long long)sc.failed);
    printf("pool2d: %lld cases (max %lld, mean %lld), %lld elements, worst error/tolerance %.3f, %lld failed\n",
           (long long)sp.cases, (long long)sp.paths[0], (long long)sp.paths[1], (long long)sp.elements, sp.worst,
           (long long)sp.failed);
    printf("upsample2d: %lld cases (columns twice %lld, other factors %lld), %lld elements, %lld failed\n",
           (long long)su.cases, (long long)su.paths[0], (long long)su.paths[1], (long long)su.elements,
           (long long)su.failed);
    printf("softmax: %lld cases (softmax %lld, log_softmax %lld), %lld elements, worst error/tolerance %.3f, "
           "%lld failed\n",
           (long long)ss.cases, (long long)ss.paths[0], (long long)ss.paths[1], (long long)ss.elements, ss.worst,
           (long long)ss.failed);
    printf("layernorm: %lld cases, %lld elements, worst error/tolerance %.3f, %lld failed\n", (long long)sl.cases,
           (long long)sl.elements, sl.worst, (long long)sl.failed);
    printf("reduce: %lld cases (leading axes %lld, trailing %lld, others %lld), %lld elements, worst "
           "error/tolerance %.3f, %lld failed\n",
           (long long)sr.cases, (long long)sr.paths[0], (long long)sr.paths[1], (long long)sr.paths[2],
           (long long)sr.elements, sr.worst, (long long)sr.failed);
    return sc.failed + sp.failed + su.failed + ss.failed + sl.failed + sr.failed ? 1 : 0;
}
#endif
