/* ==== axon fast: norm.c begin =============================================
 * norm.c - the fast f32 softmax, log_softmax and layernorm over the last
 * axis (fast.h), with the meaning of the references in
 * runtime/kernels/norm.c: softmax subtracts the row's maximum (a row with a
 * NaN, a +inf, or only -inf is NaN throughout), log_softmax is x - max -
 * log(sum), layernorm divides by sqrt(biased variance + 1e-5).  Computed in
 * float (layernorm's sums in double), vectorized along the last axis where
 * x and out have it contiguous (and g and b, for layernorm); any other view
 * goes to the reference.  The leading axes are split between threads by
 * rows.  Included once, after kernels.h, types.h and tensor.c; calls the
 * f32 instantiation of the reference norm.c (declared here, defined before
 * or after).
 */

/* (the fast vector layer, axon__fv: vec.c, included before this file) */

/* The references (kernels.h's f32 instantiations of norm.c), for the views
 * that the fast paths leave to them. */
AXON_RUN_FN void axon__k_softmax_f32(int log_, const axon_tensor *x, const axon_tensor *out);
AXON_RUN_FN void axon__k_layernorm_f32(const axon_tensor *x, const axon_tensor *g, const axon_tensor *b,
                                       const axon_tensor *out);

/* Below this many elements a call stays on one thread (a fork costs more). */
#define AXON__NM_PAR_MIN 32768

/* Prefetches, a 64-byte line per 16 floats from j to j + span, issued
 * once per pass where the pass is at j.  AXON__NM_PREFETCH: the next
 * row's x, during this row's exp pass, so that its maximum's pass reads
 * from the cache instead of waiting on memory (softmax at 16 MiB: that
 * pass was a quarter of the time; 1.33 -> 1.11 ms).  AXON__NM_PREFETCH_W:
 * this row's y, for writing, during the maximum's pass, so that the exp
 * pass's stores do not wait on memory (1.03 -> 0.95 ms; a buffer of the
 * exponentials on the stack instead, y written once, gained nothing). */
#if defined(__GNUC__) || defined(__clang__)
#define AXON__NM_PREFETCH_RW(p, j, span, n, rw)                                \
    do {                                                                        \
        for (int64_t pf_ = ((j) + 15) / 16 * 16; (p) && pf_ < (j) + (span) && pf_ < (n); pf_ += 16) \
            __builtin_prefetch((p) + pf_, rw);                                  \
    } while (0)
#else
#define AXON__NM_PREFETCH_RW(p, j, span, n, rw) ((void)(p))
#endif
#define AXON__NM_PREFETCH(next, j, span, n) AXON__NM_PREFETCH_RW(next, j, span, n, 0)
#define AXON__NM_PREFETCH_W(p, j, span, n) AXON__NM_PREFETCH_RW(p, j, span, n, 1)

/* softmax of one contiguous row of n > 0 elements, y may be x.  Three
 * passes, exp once per element: the maximum M (lanes from -FLT_MAX, the
 * most negative finite float, so that no lane computes -inf - (-inf);
 * a NaN is skipped there, axon__fv_max_num, and comes back as exp(NaN - M)
 * in the sum);
 * y = exp(x - M) and its sum s (log: the sum alone); y / s (log:
 * x - M - log s).  The row is read again from the cache, where a row of a
 * few thousand floats stays.  A row whose maximum is -inf, +inf or NaN
 * gives NaN everywhere, as the reference does (0 * (1 / 0), inf - inf,
 * NaN). */
AXON_RUN_FN void axon__nm_softmax_row(int log_, const float *x, float *y, int64_t n, const float *next)
{
    axon__fv m0 = axon__fv_set1(-3.40282347e+38f), m1 = m0, m2 = m0, m3 = m0, s0 = axon__fv_set1(0.0f), s1 = s0, sub;
    float big, sum;
    int64_t j = 0;
    for (; j + 4 * AXON__FV_W <= n; j += 4 * AXON__FV_W) {
        AXON__NM_PREFETCH_W(y, j, 4 * AXON__FV_W, n);
        m0 = axon__fv_max_num(axon__fv_load(x + j), m0);
        m1 = axon__fv_max_num(axon__fv_load(x + j + AXON__FV_W), m1);
        m2 = axon__fv_max_num(axon__fv_load(x + j + 2 * AXON__FV_W), m2);
        m3 = axon__fv_max_num(axon__fv_load(x + j + 3 * AXON__FV_W), m3);
    }
    for (; j < n; j += AXON__FV_W)
        m0 = axon__fv_max_num(j + AXON__FV_W <= n ? axon__fv_load(x + j)
                                                   : axon__fv_load_part(x + j, n - j, -(float)INFINITY), m0);
    big = axon__fv_hmax(axon__fv_max_num(axon__fv_max_num(m0, m1), axon__fv_max_num(m2, m3)));
    sub = axon__fv_set1(big);
    if (log_) {
        axon__fv ls;
        for (j = 0; j + 2 * AXON__FV_W <= n; j += 2 * AXON__FV_W) {
            AXON__NM_PREFETCH(next, j, 2 * AXON__FV_W, n);
            s0 += axon__fv_exp_neg(axon__fv_load(x + j) - sub);
            s1 += axon__fv_exp_neg(axon__fv_load(x + j + AXON__FV_W) - sub);
        }
        for (; j < n; j += AXON__FV_W)
            s0 += axon__fv_exp_neg((j + AXON__FV_W <= n ? axon__fv_load(x + j)
                                                    : axon__fv_load_part(x + j, n - j, -(float)INFINITY)) - sub);
        sum = axon__fv_hsum(s0 + s1);
        ls = axon__fv_set1((float)log((double)sum));
        for (j = 0; j + AXON__FV_W <= n; j += AXON__FV_W)
            axon__fv_store(y + j, (axon__fv_load(x + j) - sub) - ls);
        if (j < n)
            axon__fv_store_part(y + j, (axon__fv_load_part(x + j, n - j, 0.0f) - sub) - ls, n - j);
    } else {
        axon__fv inv;
        for (j = 0; j + 2 * AXON__FV_W <= n; j += 2 * AXON__FV_W) {
            AXON__NM_PREFETCH(next, j, 2 * AXON__FV_W, n);
            const axon__fv e0 = axon__fv_exp_neg(axon__fv_load(x + j) - sub);
            const axon__fv e1 = axon__fv_exp_neg(axon__fv_load(x + j + AXON__FV_W) - sub);
            axon__fv_store(y + j, e0);
            axon__fv_store(y + j + AXON__FV_W, e1);
            s0 += e0;
            s1 += e1;
        }
        for (; j < n; j += AXON__FV_W) {
            const int64_t k = n - j < AXON__FV_W ? n - j : AXON__FV_W;
            const axon__fv e0 = axon__fv_exp_neg(axon__fv_load_part(x + j, k, -(float)INFINITY) - sub);
            axon__fv_store_part(y + j, e0, k);
            s0 += e0;
        }
        sum = axon__fv_hsum(s0 + s1);
        inv = axon__fv_set1(1.0f / sum);
        for (j = 0; j + AXON__FV_W <= n; j += AXON__FV_W)
            axon__fv_store(y + j, axon__fv_load(y + j) * inv);
        if (j < n)
            axon__fv_store_part(y + j, axon__fv_load_part(y + j, n - j, 0.0f) * inv, n - j);
    }
}

/* Double vectors of the same bytes as axon__fv (W / 2 lanes), and half an
 * axon__fv's floats, converted to them, for layernorm's sums. */
#if AXON__FV_W > 1 && (defined(__clang__) || __GNUC__ >= 9)
#define AXON__NM_VD 1
typedef double axon__nm_vd __attribute__((vector_size(AXON__FV_W * 4)));
typedef float axon__nm_vh __attribute__((vector_size(AXON__FV_W * 2), aligned(4), may_alias));
#else
#define AXON__NM_VD 0
#endif

/* layernorm of one contiguous row of n > 0 elements, y may be x.  One pass
 * for the statistics: the sums of d = x - x[0] and of d^2 in double (d is
 * exact there; shifting by an element of the row keeps the difference
 * S2 - S1^2 / n from cancelling), mean = x[0] + S1 / n, the biased
 * variance (S2 - S1^2 / n) / n, then one pass writes
 * (x - mean) * rstd * g + b in float. */
AXON_RUN_FN void axon__nm_layernorm_row(const float *x, const float *g, const float *b, float *y, int64_t n)
{
    const double k = (double)x[0];
    double s1 = 0.0, s2 = 0.0, mean, var, rstd;
    int64_t j = 0;
#if AXON__NM_VD
    {
        axon__nm_vd kv = { 0 }, a1 = { 0 }, a2, b1, b2;   /* (initialised whole: gcc -O1 saw lanes unset) */
        for (int i = 0; i < AXON__FV_W / 2; i++)
            kv[i] = k;
        a2 = b1 = b2 = a1;
        for (; j + AXON__FV_W <= n; j += AXON__FV_W) {
            axon__nm_vd d0 = __builtin_convertvector(*(const axon__nm_vh *)(x + j), axon__nm_vd) - kv;
            axon__nm_vd d1 = __builtin_convertvector(*(const axon__nm_vh *)(x + j + AXON__FV_W / 2), axon__nm_vd) - kv;
            a1 += d0;
            a2 += d0 * d0;
            b1 += d1;
            b2 += d1 * d1;
        }
        a1 += b1;
        a2 += b2;
        for (int i = 0; i < AXON__FV_W / 2; i++) {
            s1 += a1[i];
            s2 += a2[i];
        }
    }
#endif
    for (; j < n; j++) {
        double d = (double)x[j] - k;
        s1 += d;
        s2 += d * d;
    }
    mean = k + s1 / (double)n;
    var = (s2 - s1 * (s1 / (double)n)) / (double)n;
    if (var < 0.0)
        var = 0.0;                      /* (rounding; a NaN stays) */
    rstd = 1.0 / sqrt(var + 1e-5);
    {
        const axon__fv mv = axon__fv_set1((float)mean), rv = axon__fv_set1((float)rstd);
        for (j = 0; j + AXON__FV_W <= n; j += AXON__FV_W) {
            axon__fv t = (axon__fv_load(x + j) - mv) * rv;
            axon__fv_store(y + j, AXON__FV_FMA(t, axon__fv_load(g + j), axon__fv_load(b + j)));
        }
        if (j < n) {
            axon__fv t = (axon__fv_load_part(x + j, n - j, 0.0f) - mv) * rv;
            axon__fv_store_part(y + j, AXON__FV_FMA(t, axon__fv_load_part(g + j, n - j, 0.0f),
                                                    axon__fv_load_part(b + j, n - j, 0.0f)), n - j);
        }
    }
}

/* The rows of x and out (their last axes contiguous) split between the
 * threads in contiguous ranges; a row is computed the same way whichever
 * thread has it, so any number of threads gives the same bits.  kind 0:
 * softmax, 1: log_softmax, 2: layernorm. */
AXON_RUN_FN void axon__nm_rows_part(int kind, const axon_tensor *x, const float *g, const float *b,
                                    const axon_tensor *out, int64_t rows, int t, int nt)
{
    const int r = x->rank;
    const int64_t n = x->dims[r - 1];
    const float *xp = (const float *)x->data;
    float *yp = (float *)out->data;
    int64_t e0, e1, idx[AXON_MAX_RANK], ox, oy;
    axon__fv_range(rows, t, nt, &e0, &e1);
    axon__fv_seek(r - 1, x->dims, x->strides, out->strides, e0, idx, &ox, &oy);
    for (int64_t e = e0; e < e1; e++) {
        const int64_t cx = ox, cy = oy;
        axon__fv_step(r - 1, x->dims, x->strides, out->strides, idx, &ox, &oy);
        if (kind == 2)      /* (prefetching the next row made layernorm slower: 0.66 -> 0.95 ms at 16 MiB) */
            axon__nm_layernorm_row(xp + cx, g, b, yp + cy, n);
        else                /* (the next row, prefetched while this one is computed) */
            axon__nm_softmax_row(kind, xp + cx, yp + cy, n, e + 1 < e1 ? xp + ox : 0);
    }
}

AXON_RUN_FN void axon__nm_rows(int kind, const axon_tensor *x, const float *g, const float *b, const axon_tensor *out)
{
    const int r = x->rank;
    const int64_t n = x->dims[r - 1], rows = axon__numel(r - 1, x->dims);
    const int nt = rows * n >= AXON__NM_PAR_MIN ? axon__fv_threads(rows) : 1;
    if (rows == 0 || n == 0)
        return;
#ifdef _OPENMP
    if (nt > 1) {   /* (no parallel region for one thread: entering one costs) */
#pragma omp parallel num_threads(nt)
        axon__nm_rows_part(kind, x, g, b, out, rows, axon__fv_thread_id(), nt);
        return;
    }
#endif
    (void)nt;
    axon__nm_rows_part(kind, x, g, b, out, rows, 0, 1);
}

AXON_RUN_FN void axon__f_softmax(int log_, const axon_tensor *x, const axon_tensor *out)
{
    const int r = x->rank;
    if (r < 1 || (x->dims[r - 1] > 1 && (x->strides[r - 1] != 1 || out->strides[r - 1] != 1))) {
        axon__k_softmax_f32(log_, x, out);
        return;
    }
    axon__nm_rows(log_ ? 1 : 0, x, 0, 0, out);
}

AXON_RUN_FN void axon__f_layernorm(const axon_tensor *x, const axon_tensor *g, const axon_tensor *b,
                                   const axon_tensor *out)
{
    const int r = x->rank;
    if (r < 1 || (x->dims[r - 1] > 1 && (x->strides[r - 1] != 1 || out->strides[r - 1] != 1 ||
                                         g->strides[0] != 1 || b->strides[0] != 1))) {
        axon__k_layernorm_f32(x, g, b, out);
        return;
    }
    axon__nm_rows(2, x, (const float *)g->data, (const float *)b->data, out);
}
/* ==== axon fast: norm.c end =============================================== */
