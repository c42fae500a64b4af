/* ==== axon kernels: norm.c begin ==========================================
 * norm.c - normalisations over the last axis (kernels.h): softmax,
 * log_softmax and layernorm.  A template (once per element type; no
 * include guard, only AXON_K names).  Always computed in double (for an
 * integer type too, the result then truncated toward zero as a cast is),
 * one row at a time, the leading axes walked by an odometer.
 *
 * Edges: softmax subtracts the row's maximum first (NaN propagates to
 * the whole row; so does +inf, and a row of -inf is NaN: (-inf) - (-inf)).
 * layernorm: biased variance, epsilon 1e-5 inside the square root.  A row
 * of length 0 writes nothing.
 */

/* A double stored as T: rounded for floats, truncated for integers. */
AXON_RUN_FN void AXON_K(norm_store)(AXON_T *p, double v)
{
#if AXON_FLT
    AXON_ST(p, v);
#else
    AXON_ST(p, axon__f2i(v));
#endif
}

AXON_RUN_FN void AXON_K(softmax)(int log_, const axon_tensor *x, const axon_tensor *out)
{
    const AXON_T *xp = (const AXON_T *)x->data;
    AXON_T *op_ = (AXON_T *)out->data;
    const int r = x->rank;
    const int64_t n = x->dims[r - 1], xs = x->strides[r - 1], ys = out->strides[r - 1];
    axon__iter it;
    int64_t rows = axon__iter_start(&it, r - 1, x->dims);
    axon__iter_add(&it, x->strides);
    axon__iter_add(&it, out->strides);
    if (n == 0)
        return;
    for (int64_t e = 0; e < rows; e++, axon__iter_next(&it)) {
        const AXON_T *row = xp + it.off[0];
        AXON_T *y = op_ + it.off[1];
        double m = -(double)INFINITY, s = 0.0;
        for (int64_t j = 0; j < n; j++) {
            double v = (double)AXON_LD(row + j * xs);
            if (v != v || v > m)
                m = v;
            if (m != m)
                break;
        }
        for (int64_t j = 0; j < n; j++)
            s += exp((double)AXON_LD(row + j * xs) - m);
        for (int64_t j = 0; j < n; j++) {
            double d = (double)AXON_LD(row + j * xs) - m;
            AXON_K(norm_store)(y + j * ys, log_ ? d - log(s) : exp(d) / s);
        }
    }
}

AXON_RUN_FN void AXON_K(layernorm)(const axon_tensor *x, const axon_tensor *g, const axon_tensor *b,
                                   const axon_tensor *out)
{
    const AXON_T *xp = (const AXON_T *)x->data, *gp = (const AXON_T *)g->data, *bp = (const AXON_T *)b->data;
    AXON_T *op_ = (AXON_T *)out->data;
    const int r = x->rank;
    const int64_t n = x->dims[r - 1], xs = x->strides[r - 1], ys = out->strides[r - 1];
    const int64_t gs = g->strides[0], bs = b->strides[0];
    axon__iter it;
    int64_t rows = axon__iter_start(&it, r - 1, x->dims);
    axon__iter_add(&it, x->strides);
    axon__iter_add(&it, out->strides);
    if (n == 0)
        return;
    for (int64_t e = 0; e < rows; e++, axon__iter_next(&it)) {
        const AXON_T *row = xp + it.off[0];
        AXON_T *y = op_ + it.off[1];
        double mean = 0.0, var = 0.0, rstd;
        for (int64_t j = 0; j < n; j++)
            mean += (double)AXON_LD(row + j * xs);
        mean /= (double)n;
        for (int64_t j = 0; j < n; j++) {
            double d = (double)AXON_LD(row + j * xs) - mean;
            var += d * d;
        }
        var /= (double)n;
        rstd = 1.0 / sqrt(var + 1e-5);
        for (int64_t j = 0; j < n; j++) {
            double d = (double)AXON_LD(row + j * xs) - mean;
            AXON_K(norm_store)(y + j * ys, d * rstd * (double)AXON_LD(gp + j * gs) + (double)AXON_LD(bp + j * bs));
        }
    }
}
/* ==== axon kernels: norm.c end ============================================ */
