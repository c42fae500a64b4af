/* ==== axon kernels: conv.c begin ==========================================
 * conv.c - 2-D convolution (kernels.h): conv, conv1d, conv2d and the
 * grouped/dilated ones (1-D through views with a unit height).  A template
 * (once per element type; no include guard, only AXON_K names).  The
 * reference: PyTorch's cross-correlation with zero padding, one output
 * element at a time, the sum in AXON_ACC over (c, r, q) in that order
 * (wrapping for integers); taps that fall in the padding are skipped.
 */

AXON_RUN_FN void AXON_K(conv2d)(const axon_tensor *x, const axon_tensor *w, const axon_tensor *out,
                                const int64_t stride[2], const int64_t pad[2], const int64_t dilation[2],
                                int64_t groups)
{
    const AXON_T *xp = (const AXON_T *)x->data, *wp = (const AXON_T *)w->data;
    AXON_T *op_ = (AXON_T *)out->data;
    const int64_t nb = out->dims[0], no = out->dims[1], oh = out->dims[2], ow = out->dims[3];
    const int64_t h = x->dims[2], wd = x->dims[3];
    const int64_t c = w->dims[1], r = w->dims[2], q = w->dims[3];
    const int64_t k = groups > 0 ? no / groups : 0;
    const int64_t *xs = x->strides, *ws = w->strides, *os = out->strides;
    if (k == 0)
        return;                         /* (no output channel) */
    for (int64_t b = 0; b < nb; b++)
        for (int64_t o = 0; o < no; o++) {
            const int64_t c0 = (o / k) * c;
            for (int64_t i = 0; i < oh; i++)
                for (int64_t j = 0; j < ow; j++) {
                    AXON_ACC acc = 0;
                    for (int64_t ci = 0; ci < c; ci++) {
                        const AXON_T *xc = xp + b * xs[0] + (c0 + ci) * xs[1];
                        const AXON_T *wc = wp + o * ws[0] + ci * ws[1];
                        for (int64_t ri = 0; ri < r; ri++) {
                            const int64_t y = i * stride[0] - pad[0] + ri * dilation[0];
                            if (y < 0 || y >= h)
                                continue;
                            for (int64_t qi = 0; qi < q; qi++) {
                                const int64_t z = j * stride[1] - pad[1] + qi * dilation[1];
                                AXON_ACC u, v;
                                if (z < 0 || z >= wd)
                                    continue;
                                u = AXON_LD(xc + y * xs[2] + z * xs[3]);
                                v = AXON_LD(wc + ri * ws[2] + qi * ws[3]);
#if AXON_FLT
                                acc += u * v;
#else
                                acc = axon__iadd(acc, axon__imul(u, v));
#endif
                            }
                        }
                    }
                    AXON_ST(op_ + b * os[0] + o * os[1] + i * os[2] + j * os[3], acc);
                }
        }
}
/* ==== axon kernels: conv.c end ============================================ */
