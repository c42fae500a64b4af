/* ==== axon fast: reduce.c begin ===========================================
 * reduce.c - the fast f32 sum, mean, amax and amin (fast.h) with the
 * meaning of the reference runtime/kernels/reduce.c (an empty sum is 0,
 * an empty mean NaN, max/min over nothing -inf/+inf, a NaN propagates
 * through max/min and max keeps the first of equal values), computed in
 * float where the reference sums in double.  out is the reduction's view
 * of x's rank (axon__reduce_setup: size 1, stride 0 on the reduced axes).
 * Two layouts, the others going to the reference:
 *   - leading axes reduced, the kept ones one contiguous block in x and
 *     in out (reduce's fold over the outermost axis, "ab->b", "a...->..."):
 *     out = the first block combined with each next one in order, a chunk
 *     of the block at a time (it stays in L1 over the blocks), W lanes at
 *     a time: the order of a left fold;
 *   - trailing axes reduced, one contiguous block in x ("ab->a",
 *     "...n->...1"): each row's W-lane partial results, two vectors of
 *     them, combined at the end.
 * Threads: the kept block's chunks (leading) or the rows (trailing) split
 * between them from AXON__RD_PAR_MIN elements on; each element is computed
 * the same way on any thread.  Included once, after kernels.h, types.h,
 * tensor.c and vec.c; calls the f32 instantiation of the reference
 * reduce.c (declared here, defined before or after).
 */

/* The reference (kernels.h's f32 instantiation of reduce.c). */
AXON_RUN_FN void axon__k_reduce_f32(int op, const axon_tensor *x, const axon_tensor *out);

/* Below this many elements of x a call stays on one thread. */
#define AXON__RD_PAR_MIN 32768
/* The kept block's chunk (floats) combined over all the leading blocks
 * before the next chunk. */
#define AXON__RD_CHUNK 2048

/* Axes [a0, a1) of t one contiguous block (row-major, the last stride 1;
 * an axis of size 1 has any stride). */
AXON_RUN_FN int axon__rd_dense(const axon_tensor *t, int a0, int a1)
{
    int64_t expect = 1;
    for (int j = a1 - 1; j >= a0; j--) {
        if (t->dims[j] != 1 && t->strides[j] != expect)
            return 0;
        expect *= t->dims[j];
    }
    return 1;
}

AXON_RUN_FN axon__fv axon__rd_op(int op, axon__fv a, axon__fv b)
{
    if (op == AXON_RED_MAX)
        return axon__fv_max(a, b);
    if (op == AXON_RED_MIN)         /* (as the reference: a NaN stays, equal values keep a) */
        return AXON__FV_SEL((a <= b) | (a != a), a, b);
    return a + b;
}

AXON_RUN_FN float axon__rd_identity(int op)
{
    return op == AXON_RED_MAX ? -(float)INFINITY : op == AXON_RED_MIN ? (float)INFINITY : 0.0f;
}

/* ---- leading axes [0, nr) reduced: lb blocks of m floats ---------------- */

/* Elements [c0, c1) of the kept block, over all the blocks. */
AXON_RUN_FN void axon__rd_lead_part(int op, const axon_tensor *x, int nr, int64_t lb, float *y, int64_t c0,
                                    int64_t c1)
{
    const float *xp = (const float *)x->data;
    for (int64_t a = c0; a < c1; a += AXON__RD_CHUNK) {
        const int64_t b = c1 - a < AXON__RD_CHUNK ? c1 - a : AXON__RD_CHUNK;
        int64_t idx[AXON_MAX_RANK], ox, unused;
        axon__fv_seek(nr, x->dims, x->strides, x->strides, 0, idx, &ox, &unused);
        for (int64_t l = 0; l < lb; l++) {
            const float *src = xp + ox + a;
            float *dst = y + a;
            int64_t i = 0;
            for (; i + AXON__FV_W <= b; i += AXON__FV_W)
                axon__fv_store(dst + i, l ? axon__rd_op(op, axon__fv_load(dst + i), axon__fv_load(src + i))
                                          : axon__fv_load(src + i));
            if (i < b) {
                const axon__fv s = axon__fv_load_part(src + i, b - i, 0.0f);
                axon__fv_store_part(dst + i, l ? axon__rd_op(op, axon__fv_load_part(dst + i, b - i, 0.0f), s) : s,
                                    b - i);
            }
            axon__fv_step(nr, x->dims, x->strides, x->strides, idx, &ox, &unused);
        }
        if (op == AXON_RED_MEAN) {
            const float n = (float)lb;
            for (int64_t i = 0; i < b; i++)
                y[a + i] /= n;
        }
    }
}

AXON_RUN_FN void axon__rd_lead(int op, const axon_tensor *x, int nr, float *y)
{
    const int64_t lb = axon__numel(nr, x->dims), m = axon__numel(x->rank - nr, x->dims + nr);
    if (lb == 0) {
        const float v = op == AXON_RED_MEAN ? (float)NAN : axon__rd_identity(op);
        for (int64_t i = 0; i < m; i++)
            y[i] = v;
        return;
    }
    {
        const int64_t chunks = (m + AXON__RD_CHUNK - 1) / AXON__RD_CHUNK;
        const int nt = lb * m >= AXON__RD_PAR_MIN ? axon__fv_threads(chunks) : 1;
#ifdef _OPENMP
        if (nt > 1) {   /* (whole chunks each: the same bits on any thread) */
#pragma omp parallel num_threads(nt)
            {
                int64_t u0, u1;
                axon__fv_range(chunks, axon__fv_thread_id(), nt, &u0, &u1);
                axon__rd_lead_part(op, x, nr, lb, y, u0 * AXON__RD_CHUNK,
                                   u1 * AXON__RD_CHUNK < m ? u1 * AXON__RD_CHUNK : m);
            }
            return;
        }
#endif
        (void)nt;
        axon__rd_lead_part(op, x, nr, lb, y, 0, m);
    }
}

/* ---- trailing axes [nk, rank) reduced: rows of n floats ------------------ */

/* The lanes of v combined in order (a NaN stays, equal values keep the
 * earlier lane). */
AXON_RUN_FN float axon__rd_lanes(int op, axon__fv v)
{
#if AXON__FV_W > 1
    float a = v[0];
    for (int i = 1; i < AXON__FV_W; i++) {
        const float b = v[i];
        if (op == AXON_RED_MAX || op == AXON_RED_MIN) {
            if (a == a && (b != b || (op == AXON_RED_MAX ? b > a : b < a)))
                a = b;
        } else {
            a += b;
        }
    }
    return a;
#else
    (void)op;
    return v;
#endif
}

AXON_RUN_FN float axon__rd_row(int op, const float *x, int64_t n)
{
    const int o = op == AXON_RED_MEAN ? AXON_RED_SUM : op;
    const float id = axon__rd_identity(o);
    axon__fv a0 = axon__fv_set1(id), a1 = a0;
    int64_t j = 0;
    for (; j + 2 * AXON__FV_W <= n; j += 2 * AXON__FV_W) {
        a0 = axon__rd_op(o, a0, axon__fv_load(x + j));
        a1 = axon__rd_op(o, a1, axon__fv_load(x + j + AXON__FV_W));
    }
    for (; j + AXON__FV_W <= n; j += AXON__FV_W)
        a0 = axon__rd_op(o, a0, axon__fv_load(x + j));
    if (j < n)
        a1 = axon__rd_op(o, a1, axon__fv_load_part(x + j, n - j, id));
    {
        const float v = axon__rd_lanes(o, axon__rd_op(o, a0, a1));
        return op == AXON_RED_MEAN ? v / (float)n : v;
    }
}

AXON_RUN_FN void axon__rd_rows_part(int op, const axon_tensor *x, const axon_tensor *out, int nk, int64_t n,
                                    int64_t rows, int t, int nt)
{
    const float *xp = (const float *)x->data;
    float *yp = (float *)out->data;
    int64_t e0, e1, idx[AXON_MAX_RANK], ox, oy;
    axon__fv_range(rows, t, nt, &e0, &e1);
    axon__fv_seek(nk, x->dims, x->strides, out->strides, e0, idx, &ox, &oy);
    for (int64_t e = e0; e < e1; e++) {
        yp[oy] = n == 0 ? (op == AXON_RED_MEAN ? (float)NAN : axon__rd_identity(op)) : axon__rd_row(op, xp + ox, n);
        axon__fv_step(nk, x->dims, x->strides, out->strides, idx, &ox, &oy);
    }
}

AXON_RUN_FN void axon__rd_rows(int op, const axon_tensor *x, const axon_tensor *out, int nk)
{
    const int64_t rows = axon__numel(nk, x->dims), n = axon__numel(x->rank - nk, x->dims + nk);
    const int nt = rows * n >= AXON__RD_PAR_MIN ? axon__fv_threads(rows) : 1;
#ifdef _OPENMP
    if (nt > 1) {
#pragma omp parallel num_threads(nt)
        axon__rd_rows_part(op, x, out, nk, n, rows, axon__fv_thread_id(), nt);
        return;
    }
#endif
    (void)nt;
    axon__rd_rows_part(op, x, out, nk, n, rows, 0, 1);
}

/* ---- the entry ----------------------------------------------------------------- */

AXON_RUN_FN void axon__f_reduce(int op, const axon_tensor *x, const axon_tensor *out)
{
    const int r = x->rank;
    int lead = 0, keep = 0, lead_ok, rows_ok = 1;
    /* leading: out's first axes 1 (reduced, or of size 1), the rest x's;
     * trailing: out's first axes x's, the rest 1 */
    while (lead < r && out->dims[lead] == 1)
        lead++;
    while (keep < r && out->dims[keep] == x->dims[keep])
        keep++;
    for (int j = keep; j < r; j++)
        rows_ok &= out->dims[j] == 1;
    lead_ok = 1;
    for (int j = lead; j < r; j++)
        lead_ok &= out->dims[j] == x->dims[j];
    lead_ok = lead_ok && axon__rd_dense(x, lead, r) && axon__rd_dense(out, lead, r);
    rows_ok = rows_ok && axon__rd_dense(x, keep, r);
    if (axon__numel(r, out->dims) == 0)
        return;
    /* (a kept block narrower than two vectors: its rows, where they are) */
    if (lead_ok && !(rows_ok && axon__numel(r - lead, x->dims + lead) < 2 * AXON__FV_W))
        axon__rd_lead(op, x, lead, (float *)out->data);
    else if (rows_ok)
        axon__rd_rows(op, x, out, keep);
    else
        axon__k_reduce_f32(op, x, out);
}
/* ==== axon fast: reduce.c end ============================================= */
