/* ==== axon kernels: index.c begin =========================================
 * index.c - the indexing kernels (kernels.h): gather (rows of a table),
 * topk (the k largest along the last axis, with their indices) and
 * nonzero (the indices of a vector's nonzero elements).  A template (once
 * per element type; no include guard, only AXON_K names).  Elements are
 * moved as they are; indices are i32.
 *
 * Edges: gather checks each index before its row is written, so a bad
 * index (AXON_ERR_INDEX) leaves that row and every later one unwritten.
 * topk orders NaN above everything and ties (NaN with NaN, -0 with +0)
 * by the lower index, with no scratch memory: the t-th element is the
 * least (in that strict order) of those after the (t-1)-th, O(n k) a row.
 * nonzero counts NaN as nonzero and -0 as zero.
 */

AXON_RUN_FN int AXON_K(gather)(const axon_tensor *table, const axon_tensor *idx, const axon_tensor *out,
                               const axon__site *at, axon_error *err)
{
    const AXON_T *tp = (const AXON_T *)table->data;
    const int32_t *ip = (const int32_t *)idx->data;
    AXON_T *op_ = (AXON_T *)out->data;
    const int64_t v = table->dims[0];
    const int pr = idx->rank;
    axon__iter outer, inner;
    int64_t n = axon__iter_start(&outer, pr, idx->dims), m;
    axon__iter_add(&outer, idx->strides);
    axon__iter_add(&outer, out->strides);
    m = axon__iter_start(&inner, table->rank - 1, table->dims + 1);
    axon__iter_add(&inner, table->strides + 1);
    axon__iter_add(&inner, out->strides + pr);
    for (int64_t e = 0; e < n; e++, axon__iter_next(&outer)) {
        const int64_t i = ip[outer.off[0]];
        const AXON_T *row;
        AXON_T *dst = op_ + outer.off[1];
        if (i < 0 || i >= v) {
            const int64_t vals[3] = { i, e, v };
            return axon__kernel_fail(err, AXON_ERR_INDEX, at, vals, 3);
        }
        row = tp + i * table->strides[0];
        for (int64_t s = 0; s < m; s++, axon__iter_next(&inner))
            dst[inner.off[1]] = row[inner.off[0]];
    }
    return AXON_OK;
}

/* Whether element i (value a) comes before element j (value b) in topk's
 * order: larger first, NaN the largest, ties to the lower index. */
AXON_RUN_FN int AXON_K(topk_before)(AXON_ACC a, int64_t i, AXON_ACC b, int64_t j)
{
#if AXON_FLT
    const int na = a != a, nb = b != b;
    if (na || nb)
        return na && nb ? i < j : na;
#endif
    if (a != b)
        return a > b;
    return i < j;
}

AXON_RUN_FN void AXON_K(topk)(const axon_tensor *x, const axon_tensor *values, const axon_tensor *indices)
{
    const AXON_T *xp = (const AXON_T *)x->data;
    AXON_T *vp = (AXON_T *)values->data;
    int32_t *ip = (int32_t *)indices->data;
    const int r = x->rank;
    const int64_t n = x->dims[r - 1], k = values->dims[r - 1], xs = x->strides[r - 1];
    const int64_t vs = values->strides[r - 1], is = indices->strides[r - 1];
    axon__iter it;
    int64_t rows = axon__iter_start(&it, r - 1, x->dims);
    axon__iter_add(&it, x->strides);
    axon__iter_add(&it, values->strides);
    axon__iter_add(&it, indices->strides);
    for (int64_t e = 0; e < rows; e++, axon__iter_next(&it)) {
        const AXON_T *row = xp + it.off[0];
        int64_t prev = -1;
        AXON_ACC pv = 0;
        for (int64_t t = 0; t < k; t++) {
            int64_t best = -1;
            AXON_ACC bv = 0;
            for (int64_t j = 0; j < n; j++) {
                AXON_ACC v = AXON_LD(row + j * xs);
                if (prev >= 0 && !AXON_K(topk_before)(pv, prev, v, j))
                    continue;               /* already taken */
                if (best < 0 || AXON_K(topk_before)(v, j, bv, best)) {
                    best = j;
                    bv = v;
                }
            }
            if (best < 0)
                break;                      /* (k > n: not a valid call) */
            vp[it.off[1] + t * vs] = row[best * xs];
            ip[it.off[2] + t * is] = (int32_t)best;
            prev = best;
            pv = bv;
        }
    }
}

AXON_RUN_FN int64_t AXON_K(nonzero)(const axon_tensor *x, const axon_tensor *out)
{
    const AXON_T *xp = (const AXON_T *)x->data;
    int32_t *op_ = (int32_t *)out->data;
    int64_t count = 0;
    for (int64_t i = 0; i < x->dims[0]; i++)
        if (AXON_LD(xp + i * x->strides[0]) != 0)
            op_[count++ * out->strides[0]] = (int32_t)i;
    return count;
}
/* ==== axon kernels: index.c end =========================================== */
