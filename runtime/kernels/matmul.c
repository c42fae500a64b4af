/* ==== axon kernels: matmul.c begin ========================================
 * matmul.c - batched matrix product (kernels.h): matmul, linear (a weight
 * broadcast over the batch by zero strides), transpose through views.  A
 * template (once per element type; no include guard, only AXON_K names).
 * The reference: a batch odometer around the three plain loops, the sum
 * in AXON_ACC from k = 0 up (wrapping for integers).
 */

AXON_RUN_FN void AXON_K(matmul)(const axon_tensor *a, const axon_tensor *b, const axon_tensor *out)
{
    const AXON_T *ap = (const AXON_T *)a->data, *bp = (const AXON_T *)b->data;
    AXON_T *op_ = (AXON_T *)out->data;
    const int r = out->rank;
    const int64_t m = out->dims[r - 2], n = out->dims[r - 1], k = a->dims[r - 1];
    const int64_t am = a->strides[r - 2], ak = a->strides[r - 1];
    const int64_t bk = b->strides[r - 2], bn = b->strides[r - 1];
    const int64_t om = out->strides[r - 2], on = out->strides[r - 1];
    axon__iter it;
    int64_t nb = axon__iter_start(&it, r - 2, out->dims);
    axon__iter_add(&it, a->strides);
    axon__iter_add(&it, b->strides);
    axon__iter_add(&it, out->strides);
    if (m == 0 || n == 0)
        return;
    for (int64_t e = 0; e < nb; e++, axon__iter_next(&it)) {
        for (int64_t i = 0; i < m; i++) {
            for (int64_t j = 0; j < n; j++) {
                const AXON_T *x = ap + it.off[0] + i * am, *y = bp + it.off[1] + j * bn;
                AXON_ACC acc = 0;
                for (int64_t l = 0; l < k; l++) {
#if AXON_FLT
                    acc += AXON_LD(x + l * ak) * AXON_LD(y + l * bk);
#else
                    acc = axon__iadd(acc, axon__imul(AXON_LD(x + l * ak), AXON_LD(y + l * bk)));
#endif
                }
                AXON_ST(op_ + it.off[2] + i * om + j * on, acc);
            }
        }
    }
}
/* ==== axon kernels: matmul.c end ========================================== */
