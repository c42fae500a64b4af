/* ==== axon kernels: reduce.c begin ========================================
 * reduce.c - reductions over any set of axes (kernels.h): sum, mean,
 * amax, amin (reduce) and argmax.  A template (once per element type; no
 * include guard, only AXON_K names).  The reference: an odometer over
 * out's elements and, inside it, one over the reduced axes (those where
 * out's dim is 1; an axis of x's dim 1 is the same reduced or not), the
 * sum in AXON_ACC in row-major order (wrapping for integers).
 *
 * Edges: an empty sum is 0; an empty mean NaN for floats, 0 for integers
 * (floored otherwise); max/min over nothing -inf/+inf, or the integer
 * type's least/greatest value; NaN propagates through max/min; argmax
 * counts NaN as the largest, takes the first largest, and over nothing
 * is AXON_ERR_EMPTY (when out has any element).
 */

/* Sets up the two odometers: outer over out's elements (operands x, out),
 * inner over the reduced axes of x (operand x).  Returns the inner count;
 * *nout the outer one. */
AXON_RUN_FN int64_t AXON_K(reduce_iters)(const axon_tensor *x, const axon_tensor *out, axon__iter *outer,
                                         axon__iter *inner, int64_t *nout)
{
    int64_t rdims[AXON_MAX_RANK], n;
    for (int i = 0; i < x->rank; i++)
        rdims[i] = out->dims[i] == 1 ? x->dims[i] : 1;
    *nout = axon__iter_start(outer, out->rank, out->dims);
    axon__iter_add(outer, x->strides);
    axon__iter_add(outer, out->strides);
    n = axon__iter_start(inner, x->rank, rdims);
    axon__iter_add(inner, x->strides);
    return n;
}

AXON_RUN_FN void AXON_K(reduce)(int op, const axon_tensor *x, const axon_tensor *out)
{
    const AXON_T *xp = (const AXON_T *)x->data;
    AXON_T *op_ = (AXON_T *)out->data;
    axon__iter outer, inner;
    int64_t nout, n = AXON_K(reduce_iters)(x, out, &outer, &inner, &nout);
    for (int64_t e = 0; e < nout; e++, axon__iter_next(&outer)) {
        const AXON_T *row = xp + outer.off[0];
        AXON_ACC acc;
        if (op == AXON_RED_SUM || op == AXON_RED_MEAN) {
            acc = 0;
            for (int64_t s = 0; s < n; s++, axon__iter_next(&inner)) {
#if AXON_FLT
                acc += AXON_LD(row + inner.off[0]);
#else
                acc = axon__iadd(acc, AXON_LD(row + inner.off[0]));
#endif
            }
            if (op == AXON_RED_MEAN) {
#if AXON_FLT
                acc = n == 0 ? (double)NAN : acc / (double)n;
#else
                acc = n == 0 ? 0 : axon__ifloordiv(acc, n);
#endif
            }
        } else {
            const int max = op == AXON_RED_MAX;
#if AXON_FLT
            acc = max ? -(double)INFINITY : (double)INFINITY;
#else
            acc = max ? axon__elem_min(AXON_TYPE) : axon__elem_max(AXON_TYPE);
#endif
            for (int64_t s = 0; s < n; s++, axon__iter_next(&inner)) {
                AXON_ACC v = AXON_LD(row + inner.off[0]);
#if AXON_FLT
                if (acc != acc)
                    continue;               /* a NaN stays */
                if (v != v || (max ? v > acc : v < acc))
                    acc = v;
#else
                if (max ? v > acc : v < acc)
                    acc = v;
#endif
            }
        }
        AXON_ST(op_ + outer.off[1], acc);
    }
}

AXON_RUN_FN int AXON_K(argmax)(const axon_tensor *x, const axon_tensor *out, const axon__site *at,
                               axon_error *err)
{
    const AXON_T *xp = (const AXON_T *)x->data;
    int32_t *op_ = (int32_t *)out->data;
    axon__iter outer, inner;
    int64_t nout, n = AXON_K(reduce_iters)(x, out, &outer, &inner, &nout);
    if (n == 0 && nout != 0)
        return axon__kernel_fail(err, AXON_ERR_EMPTY, at, NULL, 0);
    for (int64_t e = 0; e < nout; e++, axon__iter_next(&outer)) {
        const AXON_T *row = xp + outer.off[0];
        AXON_ACC best = AXON_LD(row);
        int64_t arg = 0;
        axon__iter_next(&inner);
        for (int64_t s = 1; s < n; s++, axon__iter_next(&inner)) {
            AXON_ACC v = AXON_LD(row + inner.off[0]);
#if AXON_FLT
            if (best != best)
                continue;                   /* the first NaN stays */
            if (v != v || v > best) {
#else
            if (v > best) {
#endif
                best = v;
                arg = s;
            }
        }
        op_[outer.off[1]] = (int32_t)arg;
    }
    return AXON_OK;
}
/* ==== axon kernels: reduce.c end ========================================== */
