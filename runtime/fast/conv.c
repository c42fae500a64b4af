/* ==== axon fast: conv.c begin =============================================
 * conv.c - the fast f32 2-D convolution (fast.h): kernels.h's conv2d
 * (cross-correlation, zero padding, stride, dilation, groups; 1-D through a
 * unit height) for f32, in float.  Three ways, chosen from the shapes and
 * parameters alone (axon__cv_make_plan, which prepare() sizes the scratch
 * with):
 *   - depthwise and grouped with few channels per group: directly, the
 *     group's input planes packed (zero padded, split by column phase for a
 *     column stride over 1) into the scratch, each output row computed W
 *     columns at a time;
 *   - a 1x1 stride-1 unpadded conv: a contraction, axon__sgemm over the
 *     channels per image reading x in place where its pixels are one stride
 *     apart;
 *   - one window covering the whole image (a classifier written as a conv):
 *     one axon__sgemm over all the images, x and w read in place;
 *   - 3x3 stride 1 of 16 channels and more (unless AXON_NO_WINOGRAD):
 *     Winograd's F(2x2, 3x3), 16 products of the transformed weights and
 *     tiles (2.25x fewer multiplies);
 *   - on the grid (the rest, where at most a quarter of the computed
 *     columns are dropped): x's planes zero padded and split into phases
 *     by the stride once, in the shared scratch (or x itself for a
 *     stride-1 unpadded conv), so that each row of the im2col is one run
 *     of the grid; the product's micro-kernel reads B's rows there in
 *     place through a table of offsets, nothing packed but the last
 *     narrow sliver;
 *   - the rest: im2col of a block of output pixels into the scratch, then
 *     axon__sgemm.
 * Views the fast paths cannot read (a weight whose (c, r, q) axes are not
 * one stride; a direct output whose columns are not contiguous) go to the
 * reference.  Threads share out units of work fixed by the shapes.
 * Included once, after kernels.h, types.h, tensor.c and runtime/fast/gemm.c;
 * calls the f32 instantiation of the reference conv.c (declared here,
 * defined before or after).
 */

/* (the fast vector layer, axon__fv: vec.c, included before this file) */

/* The reference (kernels.h's f32 instantiation of conv.c), for the views
 * that the fast paths leave to it. */
AXON_RUN_FN void axon__k_conv2d_f32(const axon_tensor *x, const axon_tensor *w, const axon_tensor *out,
                                    const int64_t stride[2], const int64_t pad[2], const int64_t dilation[2],
                                    int64_t groups);

/* (the plan, axon__cv_make_plan, and the scratch: fast.h) */

/* ---- copies: n floats from src (stride ss) to dst, zeros ------------------ */

AXON_RUN_FN void axon__cv_copy(float *dst, const float *src, int64_t ss, int64_t n)
{
    int64_t i = 0;
    if (ss == 1 && n >= AXON__FV_W) {
        for (; i + AXON__FV_W <= n; i += AXON__FV_W)
            axon__fv_store(dst + i, axon__fv_load(src + i));
        if (i < n)                      /* the last W again, in part */
            axon__fv_store(dst + n - AXON__FV_W, axon__fv_load(src + n - AXON__FV_W));
    } else if (ss == 2 && n >= AXON__FV_W) {
        for (; i + AXON__FV_W <= n; i += AXON__FV_W)
            axon__fv_store(dst + i, axon__fv_load_even(src + 2 * i));
        if (i < n)
            axon__fv_store(dst + n - AXON__FV_W, axon__fv_load_even(src + 2 * (n - AXON__FV_W)));
    } else {
        for (; i < n; i++)
            dst[i] = src[i * ss];
    }
}

AXON_RUN_FN void axon__cv_zero(float *dst, int64_t n)
{
    int64_t i = 0;
    const axon__fv z = axon__fv_set1(0.0f);
    for (; i + AXON__FV_W <= n; i += AXON__FV_W)
        axon__fv_store(dst + i, z);
    for (; i < n; i++)
        dst[i] = 0.0f;
}

/* dst[m] = src[(m * step + first) * ss] for m in [0, n), 0 where that column
 * is outside [0, w). */
AXON_RUN_FN void axon__cv_row(float *dst, const float *src, int64_t ss, int64_t w, int64_t first, int64_t step,
                              int64_t n)
{
    /* m in [lo, hi): 0 <= m * step + first < w */
    int64_t lo = first >= 0 ? 0 : (-first + step - 1) / step;
    int64_t hi = w - first <= 0 ? 0 : (w - first + step - 1) / step;
    lo = lo > n ? n : lo;
    hi = hi > n ? n : hi < lo ? lo : hi;
    axon__cv_zero(dst, lo);
    if (hi > lo)
        axon__cv_copy(dst + lo, src + (lo * step + first) * ss, step * ss, hi - lo);
    axon__cv_zero(dst + hi, n - hi);
}

/* ---- DIRECT ---------------------------------------------------------------- */

/* Channel plane xc (row stride xs2, column stride xs3) packed into dst:
 * hp rows of s1 phases of mrow columns, of which only x's elements are
 * written here: the padding around them is the zeros the thread wrote
 * into its scratch first (every plane of a call has the same geometry). */
AXON_RUN_FN void axon__cv_pack(const axon__cv_plan *p, const float *xc, int64_t xs2, int64_t xs3, float *dst)
{
    const int64_t ylo = p->p0 > 0 ? p->p0 : 0, yhi = p->h + p->p0 < p->hp ? p->h + p->p0 : p->hp;
    for (int64_t t = 0; t < p->s1; t++) {
        /* packed columns [lo, hi) of phase t: x's columns m s1 + t - p1 in [0, w) */
        const int64_t first = t - p->p1;
        int64_t lo = first >= 0 ? 0 : (-first + p->s1 - 1) / p->s1;
        int64_t hi = p->w - first <= 0 ? 0 : (p->w - first + p->s1 - 1) / p->s1;
        hi = hi > p->mrow ? p->mrow : hi;
        if (hi <= lo)
            continue;
        for (int64_t y = ylo; y < yhi; y++)
            axon__cv_copy(dst + y * p->rowlen + t * p->mrow + lo, xc + (y - p->p0) * xs2 + (lo * p->s1 + first) * xs3,
                          p->s1 * xs3, hi - lo);
    }
}

/* NV output vectors of one out channel (weights at wo, strides ws): vector
 * u's W columns start at dst[u], and src[u] is where its first column's
 * tap (0, 0, 0) is in the packed planes; the taps (ci, r, q) in the
 * reference's order, one FMA each, every lane on its own.  Tap (r, q) is
 * r d0 packed rows down, in phase (q d1) % s1, (q d1) / s1 columns on
 * (walked without a division). */
#define AXON__CV_DIRECT_TILE(name, NV)                                                                      \
    AXON_RUN_FN void name(const axon__cv_plan *p, const float *wo, const int64_t *ws, const float *const *src, \
                          float *const *dst)                                                                \
    {                                                                                                       \
        axon__fv acc[NV];                                                                                   \
        for (int v = 0; v < NV; v++)                                                                        \
            acc[v] = axon__fv_set1(0.0f);                                                                   \
        for (int64_t ci = 0; ci < p->c; ci++)                                                               \
            for (int64_t r = 0; r < p->r; r++) {                                                            \
                const int64_t row = ci * p->plane + r * p->d0 * p->rowlen;                                  \
                const float *wr = wo + ci * ws[1] + r * ws[2];                                              \
                int64_t phase = 0, shift = 0;                                                               \
                for (int64_t q = 0; q < p->q; q++) {                                                        \
                    const axon__fv wv = axon__fv_set1(wr[q * ws[3]]);                                       \
                    const int64_t off = row + phase * p->mrow + shift;                                      \
                    for (int v = 0; v < NV; v++)                                                            \
                        acc[v] = AXON__FV_FMA(wv, axon__fv_load(src[v] + off), acc[v]);                     \
                    for (phase += p->d1; phase >= p->s1; phase -= p->s1)                                    \
                        shift++;                                                                            \
                }                                                                                           \
            }                                                                                               \
        for (int v = 0; v < NV; v++) {                                                                      \
            if (p->ow < AXON__FV_W)                                                                         \
                axon__fv_store_part(dst[v], acc[v], p->ow);                                                 \
            else                                                                                            \
                axon__fv_store(dst[v], acc[v]);                                                             \
        }                                                                                                   \
    }
AXON__CV_DIRECT_TILE(axon__cv_direct_tile4, 4)
AXON__CV_DIRECT_TILE(axon__cv_direct_tile1, 1)

/* The same for a depthwise 3x3 (c = 1): the nine weights k[] and the taps'
 * offsets off[] computed once per plane. */
#define AXON__CV_DW3_TILE(name, NV)                                                                         \
    AXON_RUN_FN void name(const axon__cv_plan *p, const axon__fv *k, const int64_t *off,                     \
                          const float *const *src, float *const *dst)                                       \
    {                                                                                                       \
        axon__fv acc[NV];                                                                                   \
        for (int v = 0; v < NV; v++)                                                                        \
            acc[v] = AXON__FV_FMA(k[0], axon__fv_load(src[v] + off[0]), axon__fv_set1(0.0f));               \
        for (int t = 1; t < 9; t++)                                                                         \
            for (int v = 0; v < NV; v++)                                                                    \
                acc[v] = AXON__FV_FMA(k[t], axon__fv_load(src[v] + off[t]), acc[v]);                        \
        for (int v = 0; v < NV; v++) {                                                                      \
            if (p->ow < AXON__FV_W)                                                                         \
                axon__fv_store_part(dst[v], acc[v], p->ow);                                                 \
            else                                                                                            \
                axon__fv_store(dst[v], acc[v]);                                                             \
        }                                                                                                   \
    }
AXON__CV_DW3_TILE(axon__cv_dw3_tile4, 4)
AXON__CV_DW3_TILE(axon__cv_dw3_tile1, 1)

/* Output plane yo (row stride os2, columns contiguous) of one out channel
 * (weights at wo).  Each output row is ceil(ow / W) vectors (the last one
 * moved back to end at the row's end where W does not divide ow: some
 * columns computed twice, the same values both times; one partial vector
 * where ow < W); the plane's vectors, row after row, go four at a time
 * (narrow rows share a tile). */
AXON_RUN_FN void axon__cv_direct_plane(const axon__cv_plan *p, const float *pk, const float *wo, const int64_t *ws,
                                       float *yo, int64_t os2)
{
    const int64_t nv = p->ow < AXON__FV_W ? 1 : (p->ow + AXON__FV_W - 1) / AXON__FV_W, total = p->oh * nv;
    const int dw3 = p->c == 1 && p->r == 3 && p->q == 3;
    axon__fv k[9];
    int64_t off[9], i = 0, jv = 0;
    for (int t = 0; t < 9; t++) {       /* (set on every path: gcc -O3 warns otherwise) */
        k[t] = axon__fv_set1(0.0f);
        off[t] = 0;
    }
    if (dw3)
        for (int r = 0; r < 3; r++)
            for (int q = 0; q < 3; q++) {
                k[r * 3 + q] = axon__fv_set1(wo[r * ws[2] + q * ws[3]]);
                off[r * 3 + q] = r * p->d0 * p->rowlen + q * p->d1 % p->s1 * p->mrow + q * p->d1 / p->s1;
            }
    for (int64_t v0 = 0; v0 < total; v0 += 4) {
        const int n = total - v0 < 4 ? (int)(total - v0) : 4;
        const float *src[4];
        float *dst[4];
        for (int u = 0; u < n; u++) {
            int64_t j = jv * AXON__FV_W;
            j = p->ow >= AXON__FV_W && j > p->ow - AXON__FV_W ? p->ow - AXON__FV_W : j;
            src[u] = pk + i * p->s0 * p->rowlen + j;
            dst[u] = yo + i * os2 + j;
            if (++jv == nv) {
                jv = 0;
                i++;
            }
        }
        if (n == 4) {
            if (dw3)
                axon__cv_dw3_tile4(p, k, off, src, dst);
            else
                axon__cv_direct_tile4(p, wo, ws, src, dst);
        } else {
            for (int u = 0; u < n; u++) {
                if (dw3)
                    axon__cv_dw3_tile1(p, k, off, src + u, dst + u);
                else
                    axon__cv_direct_tile1(p, wo, ws, src + u, dst + u);
            }
        }
    }
}

/* Thread t of nt's units of the direct conv (its own slot of scratch). */
AXON_RUN_FN void axon__cv_direct_part(const axon__cv_plan *p, const axon_tensor *x, const axon_tensor *w,
                                      const axon_tensor *out, char *scratch, int t, int nt)
{
    const int64_t *xs = x->strides, *os = out->strides;
    float *pk = (float *)(scratch + t * p->slot);
    int64_t u0, u1;
    axon__fv_range(p->units, t, nt, &u0, &u1);
    if (u0 < u1)
        axon__cv_zero(pk, p->c * p->plane);
    for (int64_t u = u0; u < u1; u++) {
        const int64_t kb = u % p->nkc, gi = u / p->nkc % p->g, b = u / p->nkc / p->g;
        const int64_t o1 = (kb + 1) * p->kc < p->k ? (kb + 1) * p->kc : p->k;
        for (int64_t ci = 0; ci < p->c; ci++)
            axon__cv_pack(p, (const float *)x->data + b * xs[0] + (gi * p->c + ci) * xs[1], xs[2], xs[3],
                          pk + ci * p->plane);
        for (int64_t o = gi * p->k + kb * p->kc; o < gi * p->k + o1; o++)
            axon__cv_direct_plane(p, pk, (const float *)w->data + o * w->strides[0], w->strides,
                                  (float *)out->data + b * os[0] + o * os[1], os[2]);
    }
}

AXON_RUN_FN void axon__cv_direct(const axon__cv_plan *p, const axon_tensor *x, const axon_tensor *w,
                                 const axon_tensor *out, char *scratch)
{
    const int nt = axon__fv_threads(p->units);
#ifdef _OPENMP
    if (nt > 1) {   /* (no parallel region for one thread: entering one costs) */
#pragma omp parallel num_threads(nt)
        axon__cv_direct_part(p, x, w, out, scratch, axon__fv_thread_id(), nt);
        return;
    }
#endif
    (void)nt;
    axon__cv_direct_part(p, x, w, out, scratch, 0, 1);
}

/* ---- GEMM ------------------------------------------------------------------ */

/* The im2col of output pixels [p_lo, p_lo + n) of image b, group gi:
 * col[(ci, r, q)][m], row stride n. */
AXON_RUN_FN void axon__cv_im2col(const axon__cv_plan *p, const axon_tensor *x, int64_t b, int64_t gi, int64_t p_lo,
                                 int64_t n, float *col)
{
    const int64_t *xs = x->strides;
    for (int64_t ci = 0; ci < p->c; ci++) {
        const float *xc = (const float *)x->data + b * xs[0] + (gi * p->c + ci) * xs[1];
        for (int64_t r = 0; r < p->r; r++)
            for (int64_t q = 0; q < p->q; q++) {
                float *d = col + ((ci * p->r + r) * p->q + q) * n;
                for (int64_t m = 0; m < n;) {
                    const int64_t pix = p_lo + m, i = pix / p->ow, j = pix % p->ow;
                    const int64_t len = p->ow - j < n - m ? p->ow - j : n - m;
                    const int64_t y = i * p->s0 - p->p0 + r * p->d0;
                    if (y < 0 || y >= p->h)
                        axon__cv_zero(d + m, len);
                    else
                        axon__cv_row(d + m, xc + y * xs[2], xs[3], p->w, j * p->s1 - p->p1 + q * p->d1, p->s1, len);
                    m += len;
                }
            }
    }
}

/* ---- wide (plan.wide): the product reads B's rows on the grid ------------ */

/* The grid of image b, group gi's channels (fast.h): x's planes where it
 * is x itself (a stride-1 unpadded conv, x's rows contiguous: the caller
 * checks), else the phases in the shared scratch (a channel's stride is
 * in the offsets, axon__cv_grid_build). */
AXON_RUN_FN const float *axon__cv_grid(const axon__cv_plan *p, const axon_tensor *x, const char *shared, int64_t b,
                                       int64_t gi)
{
    if (!p->grid)
        return (const float *)x->data + b * x->strides[0] + gi * p->c * x->strides[1];
    return (const float *)(const void *)shared + (b * p->g + gi) * p->c * p->cplane;
}

/* The phases of plane pl of x (b, channel) into the grid: phase (a, t),
 * row y, column z is x's row y gs0 + a - p0, column z gs1 + t - p1 (0
 * outside x). */
AXON_RUN_FN void axon__cv_grid_plane(const axon__cv_plan *p, const axon_tensor *x, float *grid, int64_t pl)
{
    const int64_t *xs = x->strides, b = pl / (p->g * p->c), ch = pl % (p->g * p->c);
    const float *src = (const float *)x->data + b * xs[0] + ch * xs[1];
    for (int64_t a = 0; a < p->ph0; a++)
        for (int64_t t = 0; t < p->ph1; t++) {
            float *d = grid + pl * p->cplane + (a * p->ph1 + t) * p->hg * p->wg;
            for (int64_t y = 0; y < p->hg; y++) {
                const int64_t row = y * p->gs0 + a - p->p0;
                if (row < 0 || row >= p->h)
                    axon__cv_zero(d + y * p->wg, p->wg);
                else
                    axon__cv_row(d + y * p->wg, src + row * xs[2], xs[3], p->w, t - p->p1, p->gs1, p->wg);
            }
        }
}

/* The grid's planes (on threads where there are many elements). */
AXON_RUN_FN void axon__cv_grid_planes(const axon__cv_plan *p, const axon_tensor *x, float *grid)
{
    const int64_t planes = p->nb * p->g * p->c;
#ifdef _OPENMP
    const int nt = axon__fv_threads(planes >= 8 && planes * p->h * p->w >= ((int64_t)1 << 15) ? AXON__CV_UNITS : 1);
    if (nt > 1) {
#pragma omp parallel for num_threads(nt) schedule(static)
        for (int64_t pl = 0; pl < planes; pl++)
            axon__cv_grid_plane(p, x, grid, pl);
        return;
    }
#endif
    for (int64_t pl = 0; pl < planes; pl++)
        axon__cv_grid_plane(p, x, grid, pl);
}

/* The grid (where it is not x itself), and the offset of each im2col row
 * (ci, r, q) from its channel group's grid. */
AXON_RUN_FN void axon__cv_grid_build(const axon__cv_plan *p, const axon_tensor *x, char *shared)
{
    int64_t *const off = (int64_t *)(void *)(shared + p->grid);
    const int64_t cplane = p->grid ? p->cplane : x->strides[1];
    for (int64_t t = 0, rq = p->r * p->q; t < p->kk; t++) {
        const int64_t ci = t / rq, r = t / p->q % p->r, q = t % p->q;
        off[t] = ci * cplane + (r * p->d0 % p->s0 * p->ph1 + q * p->d1 % p->s1) * p->hg * p->wg +
                 r * p->d0 / p->s0 * p->wg + q * p->d1 / p->s1;
    }
    if (p->grid)
        axon__cv_grid_planes(p, x, (float *)(void *)shared);
}

/* c (m x n, row stride n) = w's rows [m_lo, m_lo + m) of group gi times the
 * grid's pixels [p_lo, p_lo + n): BLIS's loops around the micro-kernel, B's
 * rows read on the grid (im2col row t at grid + off[t]; the last, narrower
 * sliver packed), w read in place (wcs 1) or packed. */
AXON_RUN_FN void axon__cv_wide_product(const axon__cv_plan *p, const float *grid, const int64_t *off,
                                       const float *wrows, int64_t ws0, int64_t wcs, int64_t m, int64_t p_lo,
                                       int64_t n, float *c, void *gs)
{
    const axon__gemm_blocks bl = axon__gemm_block_sizes(p->mc, p->nc, p->kk);
    float *const pb = axon__gemm_align(gs);
    float *const pa = pb + axon__gemm_b_bytes(bl) / (int64_t)sizeof(float);
    for (int64_t jc = 0; jc < n; jc += bl.nc) {
        const int64_t nc = n - jc < bl.nc ? n - jc : bl.nc, nsl = (nc + AXON__GEMM_NR - 1) / AXON__GEMM_NR;
        const float *b = grid + p_lo + jc;
        for (int64_t pc = 0; pc < p->kk; pc += bl.kc) {
            const int64_t kc = p->kk - pc < bl.kc ? p->kk - pc : bl.kc;
            if (nc % AXON__GEMM_NR)
                axon__gemm_pack_b(kc, nc, b, 0, 1, off + pc, pb, nsl - 1, nsl);
            for (int64_t ic = 0; ic < m; ic += bl.mc) {
                const int64_t mc = m - ic < bl.mc ? m - ic : bl.mc;
                if (wcs != 1)
                    axon__gemm_pack_a(mc, kc, wrows + ic * ws0 + pc * wcs, ws0, wcs, pa);
                axon__gemm_macro(mc, nc, kc, pa, wcs == 1 ? wrows + ic * ws0 + pc : NULL, ws0, pb, b, 0, off + pc,
                                 c + ic * n + jc, n, 1, pc > 0, 0, nsl);
            }
        }
    }
}

/* ---- WINO: Winograd's F(2x2, 3x3) (plan: fast.h) ---------------------------- */

/* U[e][o][ci] (e's eu apart) = (G g G^T)[e] of out channel o (of all
 * groups), channel ci, G = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1],
 * e = 4 row + column. */
AXON_RUN_FN void axon__cv_wino_weights_part(const axon__cv_plan *p, const axon_tensor *w, float *u, int64_t o0,
                                            int64_t o1)
{
    const int64_t *ws = w->strides;
    for (int64_t o = o0; o < o1; o++)
        for (int64_t ci = 0; ci < p->c; ci++) {
            const float *g = (const float *)w->data + o * ws[0] + ci * ws[1];
            float t[4][3];
            for (int q = 0; q < 3; q++) {
                const float g0 = g[q * ws[3]], g1 = g[ws[2] + q * ws[3]], g2 = g[2 * ws[2] + q * ws[3]];
                t[0][q] = g0;
                t[1][q] = 0.5f * (g0 + g1 + g2);
                t[2][q] = 0.5f * (g0 - g1 + g2);
                t[3][q] = g2;
            }
            for (int i = 0; i < 4; i++) {
                float *d = u + 4 * i * p->eu + o * p->c + ci;
                d[0] = t[i][0];
                d[p->eu] = 0.5f * (t[i][0] + t[i][1] + t[i][2]);
                d[2 * p->eu] = 0.5f * (t[i][0] - t[i][1] + t[i][2]);
                d[3 * p->eu] = t[i][2];
            }
        }
}

/* Every out channel's (on threads where there are many). */
AXON_RUN_FN void axon__cv_wino_weights(const axon__cv_plan *p, const axon_tensor *w, float *u)
{
    const int64_t ko = p->g * p->k;
#ifdef _OPENMP
    const int nt = axon__fv_threads(ko * p->c >= 4096 ? ko : 1);
    if (nt > 1) {
#pragma omp parallel num_threads(nt)
        {
            int64_t o0, o1;
            axon__fv_range(ko, axon__fv_thread_id(), nt, &o0, &o1);
            axon__cv_wino_weights_part(p, w, u, o0, o1);
        }
        return;
    }
#endif
    axon__cv_wino_weights_part(p, w, u, 0, ko);
}

/* V[e][ci][lv .. lv + W) = (B^T d B)[e] of the W tiles from l on the grid,
 * B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1]; d[i][j] of those tiles is
 * W contiguous floats of phase (i % 2, j % 2) (plan: fast.h). */
AXON_RUN_FN void axon__cv_wino_in(const axon__cv_plan *p, const float *grid, int64_t l, float *v, int64_t lv)
{
    const int64_t ph = p->hg * p->wg;
    for (int64_t ci = 0; ci < p->c; ci++) {
        const float *src = grid + ci * p->cplane + l;
        axon__fv t[4][4];
        for (int i = 0; i < 4; i++) {
            const float *r = src + (i % 2 * 2) * ph + i / 2 * p->wg;
            const axon__fv d0 = axon__fv_load(r), d1 = axon__fv_load(r + ph);
            const axon__fv d2 = axon__fv_load(r + 1), d3 = axon__fv_load(r + ph + 1);
            t[i][0] = d0 - d2;
            t[i][1] = d1 + d2;
            t[i][2] = d2 - d1;
            t[i][3] = d1 - d3;
        }
        for (int j = 0; j < 4; j++) {
            float *d = v + j * p->ev + ci * p->tb + lv;
            const int64_t e = 4 * p->ev;            /* (rows 1, 2, 3 of the 4 x 4) */
            axon__fv_store(d, t[0][j] - t[2][j]);
            axon__fv_store(d + e, t[1][j] + t[2][j]);
            axon__fv_store(d + 2 * e, t[2][j] - t[1][j]);
            axon__fv_store(d + 3 * e, t[1][j] - t[3][j]);
        }
    }
}

/* Out channel o's tiles (ty, tx .. tx + n) (n <= W) = A^T M A, A^T = [1 1 1
 * 0; 0 1 -1 -1], M[e] at m + e * em: two rows of 2n columns, clipped to
 * out. */
AXON_RUN_FN void axon__cv_wino_out(const axon__cv_plan *p, const float *m, int64_t ty, int64_t tx, int64_t n,
                                   float *y, const int64_t *os)
{
    const int64_t em = p->em;
    axon__fv s[4][2];
    for (int i = 0; i < 4; i++) {
        const float *r = m + 4 * i * em;
        const axon__fv m0 = axon__fv_load(r), m1 = axon__fv_load(r + em), m2 = axon__fv_load(r + 2 * em);
        const axon__fv m3 = axon__fv_load(r + 3 * em);
        s[i][0] = m0 + m1 + m2;
        s[i][1] = m1 - m2 - m3;
    }
    const int64_t cols = 2 * n < p->ow - 2 * tx ? 2 * n : p->ow - 2 * tx;
    for (int a = 0; a < 2 && 2 * ty + a < p->oh; a++) {
        const axon__fv y0 = a ? s[1][0] - s[2][0] - s[3][0] : s[0][0] + s[1][0] + s[2][0];
        const axon__fv y1 = a ? s[1][1] - s[2][1] - s[3][1] : s[0][1] + s[1][1] + s[2][1];
        float *row = y + (2 * ty + a) * os[2] + 2 * tx * os[3];
        if (os[3] == 1) {
            axon__fv_store_zip(row, y0, y1, cols);
        } else {
            float t0[AXON__FV_W], t1[AXON__FV_W];
            axon__fv_store(t0, y0);
            axon__fv_store(t1, y1);
            for (int64_t j = 0; j < cols; j++)
                row[j * os[3]] = j % 2 ? t1[j / 2] : t0[j / 2];
        }
    }
}

/* Thread t of nt's units: each its tiles' V, 16 products, the output. */
AXON_RUN_FN void axon__cv_wino_part(const axon__cv_plan *p, const axon_tensor *out, const char *shared,
                                    char *scratch, int t, int nt)
{
    const int64_t *os = out->strides, nu = (p->nt + p->tb - 1) / p->tb;
    const float *const u = (const float *)(const void *)(shared + p->grid);
    char *slot = scratch + t * p->slot;
    float *const v = (float *)(void *)slot, *const m = (float *)(void *)(slot + axon__gemm_round64(p->wv * 4));
    void *const gs = slot + axon__gemm_round64(p->wv * 4) + axon__gemm_round64(p->wm * 4);
    int64_t u0, u1;
    axon__fv_range(p->units, t, nt, &u0, &u1);
    for (int64_t un = u0; un < u1; un++) {
        const int64_t gb = un / nu, t0 = un % nu * p->tb, n = p->nt - t0 < p->tb ? p->nt - t0 : p->tb;
        const int64_t gi = gb % p->g, b = gb / p->g;
        const float *grid = (const float *)(const void *)shared + gb * p->c * p->cplane;
        float *yo = (float *)out->data + b * os[0] + gi * p->k * os[1];
        for (int64_t l = 0; l < n; l += AXON__FV_W)
            axon__cv_wino_in(p, grid, t0 + l, v, l);
        for (int e = 0; e < 16; e++)
            axon__sgemm_serial(p->k, n, p->c, u + e * p->eu + gi * p->k * p->c, p->c, 1, v + e * p->ev, p->tb, 1,
                               m + e * p->em, p->tb, 1, 0, gs);
        /* the output: the tiles a run of one row at a time (not the
         * column tw), W at a time */
        for (int64_t l = 0; l < n;) {
            const int64_t ty = (t0 + l) / p->wg, tx = (t0 + l) % p->wg;
            const int64_t len = tx >= p->tw ? 0 : p->tw - tx < n - l ? p->tw - tx : n - l;
            for (int64_t j = 0; j < len; j += AXON__FV_W)
                for (int64_t o = 0; o < p->k; o++)
                    axon__cv_wino_out(p, m + o * p->tb + l + j, ty, tx + j,
                                      len - j < AXON__FV_W ? len - j : AXON__FV_W, yo + o * os[1], os);
            l += len > 0 ? len : 1;
        }
    }
}

AXON_RUN_FN void axon__cv_wino(const axon__cv_plan *p, const axon_tensor *x, const axon_tensor *w,
                               const axon_tensor *out, char *scratch)
{
    const int nt = axon__fv_threads(p->units);
    axon__cv_grid_planes(p, x, (float *)(void *)scratch);
    axon__cv_wino_weights(p, w, (float *)(void *)(scratch + p->grid));
#ifdef _OPENMP
    if (nt > 1) {
#pragma omp parallel num_threads(nt)
        axon__cv_wino_part(p, out, scratch, scratch + p->shared, axon__fv_thread_id(), nt);
        return;
    }
#endif
    (void)nt;
    axon__cv_wino_part(p, out, scratch, scratch + p->shared, 0, 1);
}

/* The stride of w's (c, r, q) axes read as one axis (1 when all three
 * have size 1), or 0 when they are not one axis (then the reference
 * runs). */
AXON_RUN_FN int64_t axon__cv_wstride(const axon__cv_plan *p, const int64_t *ws)
{
    const int64_t d[3] = { p->c, p->r, p->q };
    int64_t s = 0, expect = 0;
    for (int a = 2; a >= 0; a--) {
        if (d[a] == 1)
            continue;
        if (s == 0) {
            s = ws[a + 1];
            expect = s;
        }
        if (ws[a + 1] != expect)
            return 0;
        expect *= d[a];
    }
    return s == 0 && expect == 0 ? 1 : s;
}

/* Thread t of nt's units of the GEMM conv: a contiguous range of them,
 * each with the thread's slot of scratch (after the shared part: the grid, its offsets). */
AXON_RUN_FN void axon__cv_gemm_part(const axon__cv_plan *p, const axon_tensor *x, const float *wp, int64_t ws0,
                                    int64_t wcs, const axon_tensor *out, const char *shared, char *scratch, int t,
                                    int nt)
{
    const int64_t *xs = x->strides, *os = out->strides;
    /* B is x itself: a 1x1 stride-1 unpadded conv on pixels one stride apart */
    const int direct_b = p->r == 1 && p->q == 1 && p->s0 == 1 && p->s1 == 1 && p->p0 == 0 && p->p1 == 0 &&
                         p->oh == p->h && p->ow == p->w && (p->h == 1 || xs[2] == p->w * xs[3]);
    const int direct_c = !p->wide && (p->oh == 1 || os[2] == p->ow * os[3]);
    int64_t u0, u1;
    axon__fv_range(p->units, t, nt, &u0, &u1);
    for (int64_t u = u0; u < u1; u++) {
        const int64_t mb = u % p->nmc, pc = u / p->nmc % p->nch, gb = u / p->nmc / p->nch;
        const int64_t gi = gb % p->g, b = gb / p->g;
        const int64_t p_lo = pc * p->nc, n = p->np - p_lo < p->nc ? p->np - p_lo : p->nc;
        const int64_t m_lo = mb * p->mc, m = p->k - m_lo < p->mc ? p->k - m_lo : p->mc;
        char *slot = scratch + t * p->slot;
        float *col = (float *)slot, *cbuf = (float *)(slot + axon__gemm_round64(p->col * 4));
        void *gs = slot + axon__gemm_round64(p->col * 4) + axon__gemm_round64(p->cbuf * 4);
        float *yo = (float *)out->data + b * os[0] + (gi * p->k + m_lo) * os[1];
        const float *bp;
        int64_t brs, bcs;
        if (p->wide) {
            const float *grid = axon__cv_grid(p, x, shared, b, gi);
            axon__cv_wide_product(p, grid, (const int64_t *)(const void *)(shared + p->grid),
                                  wp + (gi * p->k + m_lo) * ws0, ws0, wcs, m, p_lo, n, cbuf, gs);
            for (int64_t e = 0; e < n;) {   /* (the grid's columns j < ow, a run per row) */
                const int64_t pix = p_lo + e, i = pix / p->wg, j = pix % p->wg;
                const int64_t len = p->wg - j < n - e ? p->wg - j : n - e;
                const int64_t keep = j >= p->ow ? 0 : p->ow - j < len ? p->ow - j : len;
                for (int64_t o = 0; o < m && keep > 0; o++) {
                    float *dst = yo + o * os[1] + i * os[2] + j * os[3];
                    if (os[3] == 1)
                        axon__cv_copy(dst, cbuf + o * n + e, 1, keep);
                    else
                        for (int64_t z = 0; z < keep; z++)
                            dst[z * os[3]] = cbuf[o * n + e + z];
                }
                e += len;
            }
            continue;
        }
        if (direct_b) {
            bp = (const float *)x->data + b * xs[0] + gi * p->c * xs[1] + p_lo * xs[3];
            brs = xs[1];
            bcs = xs[3];
        } else {
            axon__cv_im2col(p, x, b, gi, p_lo, n, col);
            bp = col;
            brs = n;
            bcs = 1;
        }
        if (direct_c) {
            axon__sgemm_serial(m, n, p->kk, wp + (gi * p->k + m_lo) * ws0, ws0, wcs, bp, brs, bcs, yo + p_lo * os[3], os[1],
                        os[3], 0, gs);
        } else {
            axon__sgemm_serial(m, n, p->kk, wp + (gi * p->k + m_lo) * ws0, ws0, wcs, bp, brs, bcs, cbuf, n, 1, 0, gs);
            for (int64_t o = 0; o < m; o++)
                for (int64_t e = 0; e < n; e++) {
                    const int64_t pix = p_lo + e;
                    yo[o * os[1] + pix / p->ow * os[2] + pix % p->ow * os[3]] = cbuf[o * n + e];
                }
        }
    }
}

AXON_RUN_FN void axon__cv_gemm(const axon__cv_plan *p, const axon_tensor *x, const float *wp, int64_t ws0,
                               int64_t wcs, const axon_tensor *out, char *scratch)
{
    const int nt = axon__fv_threads(p->units);
    if (p->wide)
        axon__cv_grid_build(p, x, scratch);
#ifdef _OPENMP
    if (nt > 1) {   /* (no parallel region for one thread: entering one costs) */
#pragma omp parallel num_threads(nt)
        axon__cv_gemm_part(p, x, wp, ws0, wcs, out, scratch, scratch + p->shared, axon__fv_thread_id(), nt);
        return;
    }
#endif
    (void)nt;
    axon__cv_gemm_part(p, x, wp, ws0, wcs, out, scratch, scratch + p->shared, 0, 1);
}

/* ---- the entry --------------------------------------------------------------- */

AXON_RUN_FN void axon__f_conv2d(const axon_tensor *x, const axon_tensor *w, const axon_tensor *out,
                                const int64_t stride[2], const int64_t pad[2], const int64_t dil[2], int64_t groups,
                                void *scratch)
{
    axon__cv_plan p;
    axon__cv_make_plan(x->dims, w->dims, out->dims, stride, pad, dil, groups, &p);
    if (p.kind == AXON__CV_ZERO) {
        for (int64_t b = 0; b < p.nb; b++)
            for (int64_t o = 0; o < p.g * p.k; o++)
                for (int64_t i = 0; i < p.oh; i++)
                    for (int64_t j = 0; j < p.ow; j++)
                        ((float *)out->data)[b * out->strides[0] + o * out->strides[1] + i * out->strides[2] +
                                             j * out->strides[3]] = 0.0f;
    } else if (p.kind == AXON__CV_DENSE && axon__cv_wstride(&p, w->strides) && axon__cv_wstride(&p, x->strides)) {
        /* (x's (c, h, w) axes are w's (c, r, q): the same test of one stride) */
        axon__sgemm(p.nb, p.k, p.kk, (const float *)x->data, x->strides[0], axon__cv_wstride(&p, x->strides),
                    (const float *)w->data, axon__cv_wstride(&p, w->strides), w->strides[0], (float *)out->data,
                    out->strides[0], out->strides[1], 0, scratch);
    } else if (p.kind == AXON__CV_WINO) {
        axon__cv_wino(&p, x, w, out, (char *)scratch);
    } else if (p.kind == AXON__CV_DIRECT && (p.ow == 1 || out->strides[3] == 1)) {
        axon__cv_direct(&p, x, w, out, (char *)scratch);
    } else if (p.kind == AXON__CV_GEMM && axon__cv_wstride(&p, w->strides) &&
               (!p.wide || p.grid || (x->strides[3] == 1 && x->strides[2] == p.w))) {
        axon__cv_gemm(&p, x, (const float *)w->data, w->strides[0], axon__cv_wstride(&p, w->strides), out,
                      (char *)scratch);
    } else if (p.kind) {
        axon__k_conv2d_f32(x, w, out, stride, pad, dil, groups);
    }
}
/* ==== axon fast: conv.c end =============================================== */
