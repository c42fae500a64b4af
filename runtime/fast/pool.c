/* ==== axon fast: pool.c begin =============================================
 * pool.c - the fast f32 max and average pooling over the last two axes
 * (fast.h), with the meaning of the reference runtime/kernels/pool.c: the
 * max pads with -inf and propagates NaN (taps in the reference's order, so
 * the same bits), the average divides by the whole window, padding
 * included (summed in float).  Vectorized along the output row where x's
 * and out's last axes are contiguous and the column stride is 1 or 2 (the
 * columns whose window lies inside x; the edges one by one), along the
 * window for a wide one (global pooling); any other call goes to the
 * reference.  Nearest upsampling (upsample2d) a row at a time, a row that
 * repeats the one before it copied.  Rows of the output planes are split
 * between threads.  Included once, after kernels.h, types.h and tensor.c; calls the f32
 * instantiation of the reference pool.c (declared here, defined before or
 * after).
 */

/* (the fast vector layer, axon__fv: vec.c, included before this file) */

/* The reference (kernels.h's f32 instantiation of pool.c), for what the
 * fast paths leave to it. */
AXON_RUN_FN void axon__k_pool2d_f32(int op, const axon_tensor *x, const axon_tensor *out, const int64_t window[2],
                                    const int64_t stride[2], const int64_t pad[2]);
AXON_RUN_FN void axon__k_upsample2d_f32(const axon_tensor *x, const axon_tensor *out, const int64_t factor[2]);

/* Below this many window taps a call stays on one thread. */
#define AXON__PL_PAR_MIN 65536

/* The geometry of one call: window r x q, strides, paddings, x's plane h x w
 * (row stride xh) and out's oh x ow; output columns [jlo, jhi) read only
 * columns inside x. */
typedef struct axon__pl_geom {
    int op;
    int64_t r, q, s0, s1, p0, p1, h, w, xh, oh, ow, jlo, jhi;
    float size;
} axon__pl_geom;

/* Output element (i, j), its window rows [a0, a1) inside x: the
 * reference's loop, in float. */
AXON_RUN_FN float axon__pl_one(const axon__pl_geom *g, const float *plane, int64_t i, int64_t j, int64_t a0,
                               int64_t a1)
{
    float acc = g->op == AXON_RED_MAX ? -(float)INFINITY : 0.0f;
    for (int64_t a = a0; a < a1; a++) {
        const float *row = plane + (i * g->s0 - g->p0 + a) * g->xh;
        for (int64_t b = 0; b < g->q; b++) {
            const int64_t z = j * g->s1 - g->p1 + b;
            float v;
            if (z < 0 || z >= g->w)
                continue;
            v = row[z];
            if (g->op == AXON_RED_MAX) {
                if (acc != acc)
                    break;
                if (v != v || v > acc)
                    acc = v;
            } else {
                acc += v;
            }
        }
    }
    return g->op == AXON_RED_MAX ? acc : acc / g->size;
}

/* Output element (i, j) with the window's columns [z0, z1) inside x
 * vectorized along them (a wide window: global pooling); the lanes are
 * combined in order at the end. */
AXON_RUN_FN float axon__pl_wide(const axon__pl_geom *g, const float *plane, int64_t i, int64_t z0, int64_t z1,
                                int64_t a0, int64_t a1)
{
    const int mx = g->op == AXON_RED_MAX;
    const float init = mx ? -(float)INFINITY : 0.0f;
    axon__fv acc = axon__fv_set1(init);
    for (int64_t a = a0; a < a1; a++) {
        const float *row = plane + (i * g->s0 - g->p0 + a) * g->xh;
        int64_t z = z0;
        for (; z + AXON__FV_W <= z1; z += AXON__FV_W)
            acc = mx ? axon__fv_max(acc, axon__fv_load(row + z)) : acc + axon__fv_load(row + z);
        if (z < z1) {
            axon__fv v = axon__fv_load_part(row + z, z1 - z, init);
            acc = mx ? axon__fv_max(acc, v) : acc + v;
        }
    }
    return mx ? axon__fv_hmax(acc) : axon__fv_hsum(acc) / g->size;
}

/* W outputs of row i from column j (all in [jlo, jhi)), window rows
 * [a0, a1): the taps in the reference's order, lane by lane. */
AXON_RUN_FN axon__fv axon__pl_vec(const axon__pl_geom *g, const float *plane, int64_t i, int64_t j, int64_t a0,
                                  int64_t a1)
{
    axon__fv acc = axon__fv_set1(g->op == AXON_RED_MAX ? -(float)INFINITY : 0.0f);
    for (int64_t a = a0; a < a1; a++) {
        const float *p = plane + (i * g->s0 - g->p0 + a) * g->xh + j * g->s1 - g->p1;
        if (g->op == AXON_RED_MAX) {
            if (g->s1 == 1)
                for (int64_t b = 0; b < g->q; b++)
                    acc = axon__fv_max(acc, axon__fv_load(p + b));
            else
                for (int64_t b = 0; b < g->q; b++)
                    acc = axon__fv_max(acc, axon__fv_load_even(p + b));
        } else {
            if (g->s1 == 1)
                for (int64_t b = 0; b < g->q; b++)
                    acc += axon__fv_load(p + b);
            else
                for (int64_t b = 0; b < g->q; b++)
                    acc += axon__fv_load_even(p + b);
        }
    }
    return g->op == AXON_RED_MAX ? acc : acc / axon__fv_set1(g->size);
}

/* Output row i of one plane into y. */
AXON_RUN_FN void axon__pl_row(const axon__pl_geom *g, const float *plane, float *y, int64_t i)
{
    const int64_t top = i * g->s0 - g->p0;
    const int64_t a0 = top < 0 ? -top : 0, a1 = g->h - top < g->r ? g->h - top : g->r;
    int64_t j;
    if (g->jhi - g->jlo >= AXON__FV_W && g->s1 <= 2) {
        for (j = 0; j < g->jlo; j++)
            y[j] = axon__pl_one(g, plane, i, j, a0, a1);
        for (j = g->jlo; j + AXON__FV_W <= g->jhi; j += AXON__FV_W)
            axon__fv_store(y + j, axon__pl_vec(g, plane, i, j, a0, a1));
        if (j < g->jhi)             /* the last W, again in part: the same values */
            axon__fv_store(y + g->jhi - AXON__FV_W, axon__pl_vec(g, plane, i, g->jhi - AXON__FV_W, a0, a1));
        for (j = g->jhi; j < g->ow; j++)
            y[j] = axon__pl_one(g, plane, i, j, a0, a1);
    } else if (g->q >= 2 * AXON__FV_W) {
        for (j = 0; j < g->ow; j++) {
            int64_t z0 = j * g->s1 - g->p1, z1 = z0 + g->q;
            z0 = z0 < 0 ? 0 : z0;
            z1 = z1 > g->w ? g->w : z1;
            y[j] = z0 < z1 ? axon__pl_wide(g, plane, i, z0, z1, a0, a1)
                           : axon__pl_one(g, plane, i, j, a0, a1);
        }
    } else {
        for (j = 0; j < g->ow; j++)
            y[j] = axon__pl_one(g, plane, i, j, a0, a1);
    }
}

/* Thread t of nt's output rows (units: planes times rows). */
AXON_RUN_FN void axon__pl_part(const axon__pl_geom *g, const axon_tensor *x, const axon_tensor *out, int64_t units,
                               int t, int nt)
{
    const int rk = out->rank;
    int64_t u0, u1, idx[AXON_MAX_RANK], ox, oy, i;
    axon__fv_range(units, t, nt, &u0, &u1);
    i = u0 % g->oh;
    axon__fv_seek(rk - 2, out->dims, x->strides, out->strides, u0 / g->oh, idx, &ox, &oy);
    for (int64_t u = u0; u < u1; u++) {
        axon__pl_row(g, (const float *)x->data + ox, (float *)out->data + oy + i * out->strides[rk - 2], i);
        if (++i == g->oh) {
            i = 0;
            axon__fv_step(rk - 2, out->dims, x->strides, out->strides, idx, &ox, &oy);
        }
    }
}

AXON_RUN_FN void axon__f_pool2d(int op, const axon_tensor *x, const axon_tensor *out, const int64_t window[2],
                                const int64_t stride[2], const int64_t pad[2])
{
    const int rk = x->rank;
    axon__pl_geom g;
    int64_t planes, units;
    if (rk < 2 || (op != AXON_RED_MAX && op != AXON_RED_MEAN) || window[0] < 1 || window[1] < 1 ||
        stride[0] < 1 || stride[1] < 1 || (x->dims[rk - 1] > 1 && x->strides[rk - 1] != 1) ||
        (out->dims[rk - 1] > 1 && out->strides[rk - 1] != 1)) {
        axon__k_pool2d_f32(op, x, out, window, stride, pad);
        return;
    }
    g.op = op;
    g.r = window[0];
    g.q = window[1];
    g.s0 = stride[0];
    g.s1 = stride[1];
    g.p0 = pad[0];
    g.p1 = pad[1];
    g.h = x->dims[rk - 2];
    g.w = x->dims[rk - 1];
    g.xh = x->strides[rk - 2];
    g.oh = out->dims[rk - 2];
    g.ow = out->dims[rk - 1];
    g.size = (float)(window[0] * window[1]);
    /* [jlo, jhi): j * s1 - p1 >= 0 and j * s1 - p1 + q <= w */
    g.jlo = g.p1 <= 0 ? 0 : (g.p1 + g.s1 - 1) / g.s1;
    g.jhi = g.w - g.q + g.p1 < 0 ? 0 : (g.w - g.q + g.p1) / g.s1 + 1;
    g.jhi = g.jhi > g.ow ? g.ow : g.jhi;
    g.jlo = g.jlo > g.jhi ? g.jhi : g.jlo;
    planes = axon__numel(rk - 2, out->dims);
    units = planes * g.oh;
    if (units == 0 || g.ow == 0)
        return;
    const int nt = units * g.ow * g.r * g.q >= AXON__PL_PAR_MIN ? axon__fv_threads(units) : 1;
#ifdef _OPENMP
    if (nt > 1) {   /* (no parallel region for one thread: entering one costs) */
#pragma omp parallel num_threads(nt)
        axon__pl_part(&g, x, out, units, axon__fv_thread_id(), nt);
        return;
    }
#endif
    (void)nt;
    axon__pl_part(&g, x, out, units, 0, 1);
}
/* ---- upsample2d (nearest) -------------------------------------------------------- */

/* Thread t of nt's output rows of the planes (units: planes times rows):
 * a row whose source row is the previous output row's is a copy of it,
 * else each source column written f2 times. */
AXON_RUN_FN void axon__up_part(const axon_tensor *x, const axon_tensor *out, const int64_t f[2], int64_t units,
                               int t, int nt)
{
    const int rk = out->rank;
    const int64_t oh = out->dims[rk - 2], ow = out->dims[rk - 1], xw = x->dims[rk - 1];
    int64_t u0, u1, idx[AXON_MAX_RANK], ox, oy, i;
    axon__fv_range(units, t, nt, &u0, &u1);
    i = u0 % oh;
    axon__fv_seek(rk - 2, out->dims, x->strides, out->strides, u0 / oh, idx, &ox, &oy);
    for (int64_t u = u0; u < u1; u++) {
        float *dst = (float *)out->data + oy + i * out->strides[rk - 2];
        if (u > u0 && i % f[0] != 0) {
            const float *prev = dst - out->strides[rk - 2];
            for (int64_t j = 0; j < ow; j++)
                dst[j] = prev[j];
        } else {
            const float *src = (const float *)x->data + ox + (i / f[0]) * x->strides[rk - 2];
            int64_t j = 0;
            if (f[1] == 2) {
                for (int64_t c = 0; c < xw && j + 1 < ow; c++, j += 2)
                    dst[j] = dst[j + 1] = src[c];
            }
            for (int64_t c = j / f[1]; j < ow; c++)
                for (int64_t r = 0; r < f[1] && j < ow; r++, j++)
                    dst[j] = src[c];
        }
        if (++i == oh) {
            i = 0;
            axon__fv_step(rk - 2, out->dims, x->strides, out->strides, idx, &ox, &oy);
        }
    }
}

/* kernels.h's upsample2d for f32: rows of x and out contiguous (else the
 * reference), rows shared out between threads where there are many
 * elements. */
AXON_RUN_FN void axon__f_upsample2d(const axon_tensor *x, const axon_tensor *out, const int64_t f[2])
{
    const int rk = out->rank;
    int64_t units;
    if (rk < 2 || f[0] < 1 || f[1] < 1 || (x->dims[rk - 1] > 1 && x->strides[rk - 1] != 1) ||
        (out->dims[rk - 1] > 1 && out->strides[rk - 1] != 1)) {
        axon__k_upsample2d_f32(x, out, f);
        return;
    }
    units = axon__numel(rk - 1, out->dims);
    if (units == 0 || out->dims[rk - 1] == 0)
        return;
    const int nt = units * out->dims[rk - 1] >= AXON__PL_PAR_MIN ? axon__fv_threads(units) : 1;
#ifdef _OPENMP
    if (nt > 1) {   /* (no parallel region for one thread: entering one costs) */
#pragma omp parallel num_threads(nt)
        axon__up_part(x, out, f, units, axon__fv_thread_id(), nt);
        return;
    }
#endif
    (void)nt;
    axon__up_part(x, out, f, units, 0, 1);
}
/* ==== axon fast: pool.c end =============================================== */
