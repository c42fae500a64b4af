/* ==== axon fast: matmul.c begin ===========================================
 * matmul.c - kernels.h's matmul and two-operand einsum for f32 (fast.h),
 * as batched calls of axon__sgemm (gemm.c).
 *
 * Both are a contraction: axes, each with a size and a stride in a, b and
 * out (0 where an operand does not have it or broadcasts it), summed where
 * out does not have them.  Sorted into groups:
 *
 *   row    in out, not read by b (stride 0 in b): the product's m
 *   col    in out, not read by a: its n
 *   sum    not in out: its k (a label of one operand, or of none, too)
 *   batch  in out, read by both: one product per index
 *
 * A size-1 axis is dropped.  Within each group the axes that one strided
 * axis can read in every operand concerned are merged (the rows of a
 * linear layer's [b, s, d] input and output are one axis of b * s rows);
 * of what remains, the largest is the product's axis, and the others are
 * looped over: row and col axes as more batches, sum axes as products
 * added to the first (accumulate).  So every two-operand einsum is
 * products, whatever its strides; the reference (axon__k_einsum_f32) is
 * called for one operand only.
 *
 * Many small products (at most AXON__F_SMALL multiply-adds each) run side
 * by side under OpenMP, each on one thread with its own part of the
 * scratch, where the scratch reserved for the largest product holds one
 * such part per thread; each product's blocks and order are those of
 * axon__sgemm for its m, n, k, so the bits are the same on any number of
 * threads, and the same as one product at a time.
 *
 * The scratch functions are formulas of out's element count and the
 * summed size's bound alone (the views that run() makes, linear's unit
 * axis, einsum's broadcast operands, do not change them): rows and
 * columns at most out's elements each (gemm.c's axon__gemm_scratch_bound).
 */

#define AXON__F_AXES (2 * AXON_MAX_RANK + 2)
#define AXON__F_SMALL ((int64_t)64 * 64 * 64)

/* An axis of a contraction: size, strides in a, b and out. */
typedef struct axon__fax {
    int64_t d, sa, sb, so;
} axon__fax;

typedef struct axon__fplan {
    axon__fax row, col, sum;        /* the product's m, n, k */
    int nb, nk;
    axon__fax batch[AXON__F_AXES];  /* a product per index */
    axon__fax ksum[AXON__F_AXES];   /* products added together */
} axon__fplan;

AXON_RUN_FN int64_t axon__f_abs(int64_t v)
{
    return v < 0 ? -v : v;
}

/* Merges the axes x[0 .. n) of one group where one strided axis reads
 * them in the operands `use` names (bits: 1 a, 2 b, 4 out); returns how
 * many are left.  Sorted by their strides (out's, else a's, then b's),
 * an axis joins the one before it when, in each operand, its stride is
 * the size times the stride of that one. */
AXON_RUN_FN int axon__f_merge(axon__fax *x, int n, int use)
{
    int k = 0;
    for (int i = 1; i < n; i++) {   /* insertion sort */
        axon__fax v = x[i];
        int j = i;
        for (; j > 0; j--) {
            const axon__fax *u = &x[j - 1];
            int64_t ku = axon__f_abs(use & 4 ? u->so : u->sa), kv = axon__f_abs(use & 4 ? v.so : v.sa);
            if (ku < kv || (ku == kv && axon__f_abs(u->sb) <= axon__f_abs(v.sb)))
                break;
            x[j] = x[j - 1];
        }
        x[j] = v;
    }
    for (int i = 0; i < n; i++) {
        if (k > 0) {
            axon__fax *u = &x[k - 1];
            if ((!(use & 1) || x[i].sa == u->d * u->sa) && (!(use & 2) || x[i].sb == u->d * u->sb) &&
                (!(use & 4) || x[i].so == u->d * u->so)) {
                u->d *= x[i].d;
                continue;
            }
        }
        x[k++] = x[i];
    }
    return k;
}

/* The largest of x[0 .. n) (or a unit axis) as the product's axis, the
 * others appended to rest. */
AXON_RUN_FN axon__fax axon__f_pick(const axon__fax *x, int n, axon__fax *rest, int *nrest)
{
    axon__fax unit = { 1, 0, 0, 0 };
    int best = -1;
    for (int i = 0; i < n; i++)
        if (best < 0 || x[i].d > x[best].d)
            best = i;
    for (int i = 0; i < n; i++)
        if (i != best)
            rest[(*nrest)++] = x[i];
    return best < 0 ? unit : x[best];
}

/* The plan of a contraction of n axes (in_out[i]: axis i is out's).
 * Returns 0 when out is empty (nothing to do). */
AXON_RUN_FN int axon__f_plan(const axon__fax *ax, const int *in_out, int n, axon__fplan *pl)
{
    axon__fax g[4][AXON__F_AXES];
    int cnt[4] = { 0, 0, 0, 0 }, zero_sum = 0;
    enum { ROW, COL, SUM, BATCH };
    for (int i = 0; i < n; i++) {
        int grp;
        if (in_out[i] && ax[i].d == 0)
            return 0;
        if (ax[i].d == 1)
            continue;
        if (!in_out[i]) {
            grp = SUM;
            zero_sum |= ax[i].d == 0;
        } else if (ax[i].sb == 0) {
            grp = ROW;
        } else if (ax[i].sa == 0) {
            grp = COL;
        } else {
            grp = BATCH;
        }
        g[grp][cnt[grp]++] = ax[i];
    }
    cnt[ROW] = axon__f_merge(g[ROW], cnt[ROW], 1 | 4);
    cnt[COL] = axon__f_merge(g[COL], cnt[COL], 2 | 4);
    cnt[SUM] = axon__f_merge(g[SUM], cnt[SUM], 1 | 2);
    cnt[BATCH] = axon__f_merge(g[BATCH], cnt[BATCH], 1 | 2 | 4);
    pl->nb = pl->nk = 0;
    for (int i = 0; i < cnt[BATCH]; i++)
        pl->batch[pl->nb++] = g[BATCH][i];
    pl->row = axon__f_pick(g[ROW], cnt[ROW], pl->batch, &pl->nb);
    pl->col = axon__f_pick(g[COL], cnt[COL], pl->batch, &pl->nb);
    if (zero_sum) {
        axon__fax none = { 0, 0, 0, 0 };
        pl->sum = none;   /* an empty sum: out = 0 */
    } else {
        pl->sum = axon__f_pick(g[SUM], cnt[SUM], pl->ksum, &pl->nk);
    }
    return 1;
}

/* The offsets (in a, b, out) of index e of the axes x[0 .. n), the last
 * fastest. */
AXON_RUN_FN void axon__f_offsets(const axon__fax *x, int n, int64_t e, int64_t *oa, int64_t *ob, int64_t *oo)
{
    *oa = *ob = *oo = 0;
    for (int i = n - 1; i >= 0; i--) {
        const int64_t j = e % x[i].d;
        e /= x[i].d;
        *oa += j * x[i].sa;
        *ob += j * x[i].sb;
        *oo += j * x[i].so;
    }
}

AXON_RUN_FN int64_t axon__f_count(const axon__fax *x, int n)
{
    int64_t c = 1;
    for (int i = 0; i < n; i++)
        c *= x[i].d;
    return c;
}

/* Whether the plan's products run side by side (small and many), given
 * `bytes` of scratch. */
AXON_RUN_FN int axon__f_side_by_side(const axon__fplan *pl, int64_t bytes)
{
    const int64_t m = pl->row.d, n = pl->col.d, k = pl->sum.d;
    const int64_t nb = axon__f_count(pl->batch, pl->nb);
    if (nb < 2 || k < 1 || (double)m * (double)n * (double)k * (double)axon__f_count(pl->ksum, pl->nk) >
                                 (double)AXON__F_SMALL)
        return 0;
    return (int64_t)AXON_MAX_THREADS * axon__gemm_scratch_serial(m, n, k) <= bytes;
}

/* Thread tid of nth's products of the plan, in batch order: each on this
 * thread alone in its slot of scratch (side by side), or (slot < 0) each
 * as axon__sgemm with the whole scratch (one after another, each on the
 * threads it takes). */
AXON_RUN_FN void axon__f_part(const axon__fplan *pl, const float *a, const float *b, float *out, void *scratch,
                              int64_t slot, int tid, int nth)
{
    const int64_t nb = axon__f_count(pl->batch, pl->nb), nk = axon__f_count(pl->ksum, pl->nk);
    const axon__fax r = pl->row, c = pl->col, s = pl->sum;
    for (int64_t e = nb * tid / nth; e < nb * (tid + 1) / nth; e++) {
        int64_t oa, ob, oo;
        axon__f_offsets(pl->batch, pl->nb, e, &oa, &ob, &oo);
        for (int64_t f = 0; f < nk; f++) {
            int64_t fa, fb, fo;
            axon__f_offsets(pl->ksum, pl->nk, f, &fa, &fb, &fo);
            if (slot < 0)
                axon__sgemm(r.d, c.d, s.d, a + oa + fa, r.sa, s.sa, b + ob + fb, s.sb, c.sb, out + oo, r.so, c.so,
                            f > 0, scratch);
            else
                axon__sgemm_serial(r.d, c.d, s.d, a + oa + fa, r.sa, s.sa, b + ob + fb, s.sb, c.sb, out + oo, r.so,
                                   c.so, f > 0, (char *)scratch + tid * slot);
        }
    }
}

/* Runs the plan: a, b, out the data pointers. */
AXON_RUN_FN void axon__f_run(const axon__fplan *pl, const float *a, const float *b, float *out, void *scratch,
                             int64_t bytes)
{
    if (axon__f_side_by_side(pl, bytes)) {
        const axon__fax r = pl->row, c = pl->col, s = pl->sum;
        const int64_t slot = axon__gemm_scratch_serial(r.d, c.d, s.d);
#ifdef _OPENMP
        const int64_t nb = axon__f_count(pl->batch, pl->nb), nk = axon__f_count(pl->ksum, pl->nk);
        int threads = omp_get_max_threads();
        if (threads > AXON_MAX_THREADS)
            threads = AXON_MAX_THREADS;
        if (threads > 1 && (double)nb * (double)r.d * (double)c.d * (double)s.d * (double)nk >=
                               (double)AXON__GEMM_SERIAL) {
            /* (no parallel region for one thread: entering one costs) */
#pragma omp parallel num_threads(threads)
            axon__f_part(pl, a, b, out, scratch, slot, omp_get_thread_num(), omp_get_num_threads());
            return;
        }
#endif
        axon__f_part(pl, a, b, out, scratch, slot, 0, 1);
        return;
    }
    axon__f_part(pl, a, b, out, scratch, -1, 0, 1);
}

/* out = 0 */
AXON_RUN_FN void axon__f_zero(const axon_tensor *out)
{
    axon__iter it;
    float *o = (float *)out->data;
    const int64_t no = axon__iter_start(&it, out->rank, out->dims);
    axon__iter_add(&it, out->strides);
    for (int64_t e = 0; e < no; e++, axon__iter_next(&it))
        o[it.off[0]] = 0.0f;
}

/* ---- matmul ------------------------------------------------------------------ */

AXON_RUN_FN void axon__f_matmul(const axon_tensor *a, const axon_tensor *b, const axon_tensor *out, void *scratch,
                                int64_t scratch_bytes)
{
    axon__fax ax[AXON_MAX_RANK + 1];
    int in_out[AXON_MAX_RANK + 1];
    axon__fplan pl;
    const int r = out->rank;
    int n = 0;
    for (int i = 0; i < r - 2; i++) {
        ax[n].d = out->dims[i];
        ax[n].sa = a->strides[i];
        ax[n].sb = b->strides[i];
        ax[n].so = out->strides[i];
        in_out[n++] = 1;
    }
    ax[n].d = out->dims[r - 2];     /* m */
    ax[n].sa = a->strides[r - 2];
    ax[n].sb = 0;
    ax[n].so = out->strides[r - 2];
    in_out[n++] = 1;
    ax[n].d = out->dims[r - 1];     /* n */
    ax[n].sa = 0;
    ax[n].sb = b->strides[r - 1];
    ax[n].so = out->strides[r - 1];
    in_out[n++] = 1;
    ax[n].d = a->dims[r - 1];       /* k */
    ax[n].sa = a->strides[r - 1];
    ax[n].sb = b->strides[r - 2];
    ax[n].so = 0;
    in_out[n++] = 0;
    if (!axon__f_plan(ax, in_out, n, &pl))
        return;
    axon__f_run(&pl, (const float *)a->data, (const float *)b->data, (float *)out->data, scratch,
                scratch_bytes);
}

/* ---- einsum ------------------------------------------------------------------ */

AXON_RUN_FN void axon__f_einsum(int nops, const axon_tensor *const ops[], const int *const labels[],
                                const axon_tensor *out, const int *out_labels, int nlabels, const int64_t *label_dims,
                                void *scratch, int64_t scratch_bytes)
{
    axon__fax ax[AXON__F_AXES];
    int in_out[AXON__F_AXES], n = 0, ok = nops == 2;
    int64_t factor = 1;
    axon__fplan pl;
    /* every label of the operands and out, once; a label outside
     * [0, nlabels) or repeated in a view is the reference's */
    for (int t = 0; ok && t < 3; t++) {
        const axon_tensor *x = t < 2 ? ops[t] : out;
        const int *lab = t < 2 ? labels[t] : out_labels;
        for (int j = 0; ok && j < x->rank; j++) {
            int i = 0;
            if (lab[j] < 0 || lab[j] >= nlabels || x->dims[j] != label_dims[lab[j]]) {
                ok = 0;
                break;
            }
            for (int j2 = 0; j2 < j; j2++)
                ok &= lab[j2] != lab[j];
            for (; i < n; i++)
                if ((int64_t)in_out[i] == -1 - (int64_t)lab[j])
                    break;
            if (i == n) {
                if (n == AXON__F_AXES) {
                    ok = 0;
                    break;
                }
                ax[n].d = x->dims[j];
                ax[n].sa = ax[n].sb = ax[n].so = 0;
                in_out[n++] = -1 - lab[j];   /* the label, for now */
            }
            if (t == 0)
                ax[i].sa = x->strides[j];
            else if (t == 1)
                ax[i].sb = x->strides[j];
            else
                ax[i].so = x->strides[j];
        }
    }
    if (!ok) {
        axon__k_einsum_f32(nops, ops, labels, out, out_labels, nlabels, label_dims);
        return;
    }
    /* a label of neither operand nor out multiplies the sum by its size */
    for (int l = 0; l < nlabels; l++) {
        int seen = 0;
        for (int i = 0; i < n; i++)
            seen |= in_out[i] == -1 - l;
        if (!seen)
            factor *= label_dims[l];
    }
    for (int i = 0; i < n; i++) {
        const int l = -1 - in_out[i];
        in_out[i] = 0;
        for (int j = 0; j < out->rank; j++)
            in_out[i] |= out_labels[j] == l;
    }
    if (factor == 0 || !axon__f_plan(ax, in_out, n, &pl)) {
        if (factor == 0)
            axon__f_zero(out);
        return;
    }
    axon__f_run(&pl, (const float *)ops[0]->data, (const float *)ops[1]->data, (float *)out->data, scratch,
                scratch_bytes);
    if (factor != 1) {
        axon__iter it;
        float *o = (float *)out->data;
        const int64_t no = axon__iter_start(&it, out->rank, out->dims);
        axon__iter_add(&it, out->strides);
        for (int64_t e = 0; e < no; e++, axon__iter_next(&it))
            o[it.off[0]] = (float)((double)o[it.off[0]] * (double)factor);
    }
}
/* ==== axon fast: matmul.c end ============================================= */
