/* ==== axon kernels: einsum.c begin ========================================
 * einsum.c - einsum of one or two operands (kernels.h): permutes, sums
 * over labels (sum/mean specs go to reduce.c), batched and broadcast
 * contractions.  A template (once per element type; no include guard,
 * only AXON_K names).  The reference: an odometer over out's labels, and
 * inside it one over the summed labels, the product of the operands summed
 * in AXON_ACC (wrapping for integers); an empty sum is 0.
 */

/* The stride of label l in an operand of rank `rank` with those labels
 * (0 where it does not appear). */
AXON_RUN_FN int64_t AXON_K(einsum_stride)(const axon_tensor *t, const int *labels, int l)
{
    for (int j = 0; j < t->rank; j++)
        if (labels[j] == l)
            return t->strides[j];
    return 0;
}

AXON_RUN_FN void AXON_K(einsum)(int nops, const axon_tensor *const ops[], const int *const labels[],
                                const axon_tensor *out, const int *out_labels, int nlabels,
                                const int64_t *label_dims)
{
    const AXON_T *p0 = (const AXON_T *)ops[0]->data;
    const AXON_T *p1 = nops > 1 ? (const AXON_T *)ops[1]->data : p0;
    AXON_T *op_ = (AXON_T *)out->data;
    int64_t st[AXON__ITER_OPS][AXON__ITER_RANK], dims[AXON__ITER_RANK] = { 0 };
    int64_t factor = 1, nout, nsum;
    int nsl = 0;
    axon__iter outer, inner;

    /* out's axes: each operand's stride for the axis's label */
    for (int i = 0; i < nops; i++)
        for (int j = 0; j < out->rank; j++)
            st[i][j] = AXON_K(einsum_stride)(ops[i], labels[i], out_labels[j]);
    nout = axon__iter_start(&outer, out->rank, out->dims);
    for (int i = 0; i < nops; i++)
        axon__iter_add(&outer, st[i]);
    axon__iter_add(&outer, out->strides);

    /* the summed labels: those of the operands that out does not have, in
     * order of first appearance; a label of neither (nowhere to read it)
     * multiplies the sum by its size */
    for (int l = 0; l < nlabels; l++) {
        int in_out = 0, in_op = 0;
        for (int j = 0; j < out->rank; j++)
            in_out |= out_labels[j] == l;
        for (int i = 0; i < nops; i++)
            for (int j = 0; j < ops[i]->rank; j++)
                in_op |= labels[i][j] == l;
        if (in_out)
            continue;
        if (!in_op) {
            factor *= label_dims[l];
            continue;
        }
        dims[nsl] = label_dims[l];
        for (int i = 0; i < nops; i++)
            st[i][nsl] = AXON_K(einsum_stride)(ops[i], labels[i], l);
        nsl++;
    }
    nsum = axon__iter_start(&inner, nsl, dims);
    for (int i = 0; i < nops; i++)
        axon__iter_add(&inner, st[i]);
    if (factor == 0)
        nsum = 0;

    for (int64_t e = 0; e < nout; e++, axon__iter_next(&outer)) {
        AXON_ACC acc = 0;
        const AXON_T *x = p0 + outer.off[0], *y = p1 + (nops > 1 ? outer.off[1] : 0);
        for (int64_t s = 0; s < nsum; s++, axon__iter_next(&inner)) {
            AXON_ACC v = AXON_LD(x + inner.off[0]);
#if AXON_FLT
            if (nops > 1)
                v *= AXON_LD(y + inner.off[1]);
            acc += v;
#else
            if (nops > 1)
                v = axon__imul(v, AXON_LD(y + inner.off[1]));
            acc = axon__iadd(acc, v);
#endif
        }
#if AXON_FLT
        if (factor != 1 && nsum != 0)
            acc *= (double)factor;
#else
        if (factor != 1)
            acc = axon__imul(acc, factor);
#endif
        AXON_ST(op_ + outer.off[nops], acc);
    }
}
/* ==== axon kernels: einsum.c end ========================================== */
