/* ==== axon kernels: tensor.c begin ========================================
 * tensor.c - strided views and their iteration (kernels.h): the view
 * helpers that the generated run() makes its operands with (broadcast,
 * dense, index, slice, swap, reverse, unit axis, diagonal, permute), the
 * odometer that every kernel template walks its views with, and the
 * failure helper of the kernels' data errors.
 *
 * Included once per header, after kernels.h and types.h.  Every view
 * helper may be given view == x.  A view that has no elements keeps x's
 * data pointer (no pointer is ever moved outside its buffer).
 */

/* ---- iteration ------------------------------------------------------------ *
 * An odometer over the indices of `rank` axes of sizes dims, row-major (the
 * last axis fastest), carrying one element offset per operand (in
 * elements, from each operand's data pointer) that it advances by the
 * operand's strides: no multiplication per element.  Up to
 * AXON__ITER_OPS operands and AXON__ITER_RANK axes (einsum's summed labels
 * can number twice a rank).
 *
 *     axon__iter it;
 *     int64_t n = axon__iter_start(&it, x->rank, x->dims);
 *     axon__iter_add(&it, x->strides);
 *     axon__iter_add(&it, out->strides);
 *     for (int64_t e = 0; e < n; e++, axon__iter_next(&it))
 *         ... it.off[0], it.off[1] ...
 *
 * n is the number of index tuples: 1 for rank 0, 0 if a size is 0.  After
 * the last one, axon__iter_next wraps every offset back to 0. */
#define AXON__ITER_OPS 4
#define AXON__ITER_RANK (2 * AXON_MAX_RANK)

typedef struct axon__iter {
    int rank, nops;
    int64_t dims[AXON__ITER_RANK];
    int64_t idx[AXON__ITER_RANK];
    int64_t strides[AXON__ITER_OPS][AXON__ITER_RANK];
    int64_t off[AXON__ITER_OPS];
} axon__iter;

/* The number of elements of dims[0 .. rank-1] (1 for rank 0). */
AXON_RUN_FN int64_t axon__numel(int rank, const int64_t *dims)
{
    int64_t n = 1;
    for (int i = 0; i < rank; i++) {
        if (dims[i] <= 0)
            return 0;
        n *= dims[i];
    }
    return n;
}

AXON_RUN_FN int64_t axon__iter_start(axon__iter *it, int rank, const int64_t *dims)
{
    it->rank = rank;
    it->nops = 0;
    for (int i = 0; i < rank; i++) {
        it->dims[i] = dims[i];
        it->idx[i] = 0;
    }
    return axon__numel(rank, dims);
}

/* Adds an operand whose stride on axis i is strides[i]; returns its
 * number (the index into it->off). */
AXON_RUN_FN int axon__iter_add(axon__iter *it, const int64_t *strides)
{
    int k = it->nops++;
    for (int i = 0; i < it->rank; i++)
        it->strides[k][i] = strides[i];
    it->off[k] = 0;
    return k;
}

AXON_RUN_FN void axon__iter_next(axon__iter *it)
{
    for (int i = it->rank - 1; i >= 0; i--) {
        if (++it->idx[i] < it->dims[i]) {
            for (int k = 0; k < it->nops; k++)
                it->off[k] += it->strides[k][i];
            return;
        }
        /* the axis wraps: back by (dims - 1) strides */
        for (int k = 0; k < it->nops; k++)
            it->off[k] -= (it->idx[i] - 1) * it->strides[k][i];
        it->idx[i] = 0;
    }
}

/* The element pointer at an offset: data + off elements of elem_size. */
AXON_RUN_FN void *axon__at(void *data, int64_t off, int64_t elem_size)
{
    return (char *)data + off * elem_size;
}

/* ---- data errors ------------------------------------------------------------ */

/* Fills *err for a kernel's data error at the site `at` (its fmt has one
 * "{}" per value); without a site, a message of the kernel's own. */
AXON_RUN_FN int axon__kernel_fail(axon_error *err, int status, const axon__site *at,
                                  const int64_t *vals, int n)
{
    const char *fmt;
    if (at)
        return axon__failv(err, status, at->line, at->column, at->fmt, vals, n);
    switch (status) {
    case AXON_ERR_INDEX: fmt = "index {} (position {}) is outside [0, {})"; break;
    case AXON_ERR_ZERO_DIVISION: fmt = "integer division by zero (element {})"; break;
    case AXON_ERR_EMPTY: fmt = "argmax over an empty axis"; break;
    default: fmt = "data error"; break;
    }
    return axon__failv(err, status, 0, 0, fmt, vals, n);
}

/* ---- views ------------------------------------------------------------------ */

AXON_RUN_FN void axon__broadcast_view(const axon_tensor *x, const axon_shape *to, axon_tensor *view)
{
    axon_tensor v;
    int shift = to->rank - x->rank;
    v.data = x->data;
    v.rank = to->rank;
    for (int i = 0; i < to->rank; i++) {
        int j = i - shift;
        v.dims[i] = to->dims[i];
        v.strides[i] = j < 0 || x->dims[j] == 1 ? 0 : x->strides[j];
    }
    *view = v;
}

AXON_RUN_FN void axon__dense_view(void *data, int64_t elem_size, const axon_shape *s, axon_tensor *view)
{
    int64_t stride = 1;
    (void)elem_size;
    view->data = data;
    view->rank = s->rank;
    for (int i = s->rank - 1; i >= 0; i--) {
        view->dims[i] = s->dims[i];
        view->strides[i] = stride;
        stride *= s->dims[i];
    }
}

AXON_RUN_FN int axon__is_dense(const axon_tensor *x)
{
    int64_t expect = 1;
    if (axon__numel(x->rank, x->dims) == 0)
        return 1;
    for (int i = x->rank - 1; i >= 0; i--) {
        if (x->dims[i] != 1 && x->strides[i] != expect)
            return 0;
        expect *= x->dims[i];
    }
    return 1;
}

AXON_RUN_FN void axon__index_view(const axon_tensor *x, int64_t i, int64_t elem_size, axon_tensor *view)
{
    axon_tensor v;
    v.rank = x->rank - 1;
    for (int k = 1; k < x->rank; k++) {
        v.dims[k - 1] = x->dims[k];
        v.strides[k - 1] = x->strides[k];
    }
    v.data = axon__numel(v.rank, v.dims) == 0 ? x->data : axon__at(x->data, i * x->strides[0], elem_size);
    *view = v;
}

AXON_RUN_FN void axon__slice_view(const axon_tensor *x, int k, int64_t i, int64_t j, int64_t elem_size,
                                  axon_tensor *view)
{
    axon_tensor v = *x;
    v.dims[k] = j - i;
    if (axon__numel(v.rank, v.dims) != 0)
        v.data = axon__at(x->data, i * x->strides[k], elem_size);
    *view = v;
}

AXON_RUN_FN void axon__swap_view(const axon_tensor *x, int a, int b, axon_tensor *view)
{
    axon_tensor v = *x;
    v.dims[a] = x->dims[b];
    v.strides[a] = x->strides[b];
    v.dims[b] = x->dims[a];
    v.strides[b] = x->strides[a];
    *view = v;
}

AXON_RUN_FN void axon__reverse_view(const axon_tensor *x, int64_t elem_size, axon_tensor *view)
{
    axon_tensor v = *x;
    if (axon__numel(x->rank, x->dims) != 0)
        v.data = axon__at(x->data, (x->dims[0] - 1) * x->strides[0], elem_size);
    v.strides[0] = -x->strides[0];
    *view = v;
}

AXON_RUN_FN void axon__unit_view(const axon_tensor *x, int k, axon_tensor *view)
{
    axon_tensor v;
    v.data = x->data;
    v.rank = x->rank + 1;
    for (int i = 0; i < v.rank; i++) {
        int j = i < k ? i : i - 1;
        v.dims[i] = i == k ? 1 : x->dims[j];
        v.strides[i] = i == k ? 0 : x->strides[j];
    }
    *view = v;
}

AXON_RUN_FN void axon__diagonal_view(const axon_tensor *x, int a, int b, axon_tensor *view)
{
    axon_tensor v;
    v.data = x->data;
    v.rank = x->rank - 1;
    for (int i = 0, j = 0; i < x->rank; i++) {
        if (i == b)
            continue;
        v.dims[j] = x->dims[i];
        v.strides[j] = i == a ? x->strides[a] + x->strides[b] : x->strides[i];
        j++;
    }
    *view = v;
}

AXON_RUN_FN void axon__permute_view(const axon_tensor *x, const int *perm, axon_tensor *view)
{
    axon_tensor v;
    v.data = x->data;
    v.rank = x->rank;
    for (int i = 0; i < x->rank; i++) {
        v.dims[i] = x->dims[perm[i]];
        v.strides[i] = x->strides[perm[i]];
    }
    *view = v;
}
/* ==== axon kernels: tensor.c end ========================================== */
