/* ==== axon kernels: pool.c begin ==========================================
 * pool.c - pooling and nearest upsampling over the last two axes
 * (kernels.h): maxpool2d/avgpool2d (1-D through views with a unit
 * height) and upsample2d; the leading axes (batch, channels) are walked by
 * an odometer.  A template (once per element type; no include guard, only
 * AXON_K names).
 *
 * Edges: the max pool pads with -inf (an integer type's least value), so a
 * window wholly in the padding gives -inf; NaN propagates.  The average
 * divides the sum of the window's elements inside x by the whole window's
 * size (PyTorch's count_include_pad), floored for integers; a window of
 * size 0 gives NaN (0 / 0) for floats, 0 for integers.
 */

AXON_RUN_FN void AXON_K(pool2d)(int op, const axon_tensor *x, const axon_tensor *out, const int64_t window[2],
                                const int64_t stride[2], const int64_t pad[2])
{
    const AXON_T *xp = (const AXON_T *)x->data;
    AXON_T *op_ = (AXON_T *)out->data;
    const int r = x->rank;
    const int64_t h = x->dims[r - 2], w = x->dims[r - 1], oh = out->dims[r - 2], ow = out->dims[r - 1];
    const int64_t xh = x->strides[r - 2], xw = x->strides[r - 1];
    const int64_t yh = out->strides[r - 2], yw = out->strides[r - 1];
    const int64_t size = window[0] * window[1];
    axon__iter it;
    int64_t n = axon__iter_start(&it, r - 2, out->dims);
    axon__iter_add(&it, x->strides);
    axon__iter_add(&it, out->strides);
    for (int64_t e = 0; e < n; e++, axon__iter_next(&it)) {
        const AXON_T *plane = xp + it.off[0];
        for (int64_t i = 0; i < oh; i++)
            for (int64_t j = 0; j < ow; j++) {
                AXON_ACC acc;
                if (op == AXON_RED_MAX) {
#if AXON_FLT
                    acc = -(double)INFINITY;
#else
                    acc = axon__elem_min(AXON_TYPE);
#endif
                } else {
                    acc = 0;
                }
                for (int64_t a = 0; a < window[0]; a++) {
                    const int64_t y = i * stride[0] - pad[0] + a;
                    if (y < 0 || y >= h)
                        continue;
                    for (int64_t b = 0; b < window[1]; b++) {
                        const int64_t z = j * stride[1] - pad[1] + b;
                        AXON_ACC v;
                        if (z < 0 || z >= w)
                            continue;
                        v = AXON_LD(plane + y * xh + z * xw);
                        if (op == AXON_RED_MAX) {
#if AXON_FLT
                            if (acc != acc)
                                continue;           /* a NaN stays */
                            if (v != v || v > acc)
                                acc = v;
#else
                            if (v > acc)
                                acc = v;
#endif
                        } else {
#if AXON_FLT
                            acc += v;
#else
                            acc = axon__iadd(acc, v);
#endif
                        }
                    }
                }
                if (op != AXON_RED_MAX) {
#if AXON_FLT
                    acc = size == 0 ? (double)NAN : acc / (double)size;
#else
                    acc = size == 0 ? 0 : axon__ifloordiv(acc, size);
#endif
                }
                AXON_ST(op_ + it.off[1] + i * yh + j * yw, acc);
            }
    }
}

/* Nearest: out[..., i, j] = x[..., i / f1, j / f2] (elements moved as they
 * are). */
AXON_RUN_FN void AXON_K(upsample2d)(const axon_tensor *x, const axon_tensor *out, const int64_t factor[2])
{
    const AXON_T *xp = (const AXON_T *)x->data;
    AXON_T *op_ = (AXON_T *)out->data;
    const int r = out->rank;
    const int64_t oh = out->dims[r - 2], ow = out->dims[r - 1];
    const int64_t xh = x->strides[r - 2], xw = x->strides[r - 1];
    const int64_t yh = out->strides[r - 2], yw = out->strides[r - 1];
    axon__iter it;
    int64_t n = axon__iter_start(&it, r - 2, out->dims);
    axon__iter_add(&it, x->strides);
    axon__iter_add(&it, out->strides);
    if (oh == 0 || ow == 0)
        return;                         /* (a factor 0: nothing, and no division) */
    for (int64_t e = 0; e < n; e++, axon__iter_next(&it))
        for (int64_t i = 0; i < oh; i++) {
            /* (one division a row: column j reads x's column j / f2, each
             * f2 output columns in turn) */
            const AXON_T *src = xp + it.off[0] + (i / factor[0]) * xh;
            AXON_T *dst = op_ + it.off[1] + i * yh;
            for (int64_t j = 0, sj = 0; j < ow; sj++)
                for (int64_t t = 0; t < factor[1] && j < ow; t++, j++)
                    dst[j * yw] = src[sj * xw];
        }
}
/* ==== axon kernels: pool.c end ============================================ */
