/* ==== axon kernels: elementwise.c begin ===================================
 * elementwise.c - the element-wise kernels (kernels.h): unary, binary
 * (arithmetic, maximum/minimum, pow), compare, select, copy, fill, arange.
 * A template: included once per element type between the AXON_T ...
 * AXON_TYPE definitions (kernels.h), so no include guard and only AXON_K
 * names.  Portable reference loops over any strided views.
 */

/* One unary operator on a double (every type's float semantics). */
AXON_RUN_FN double AXON_K(unary_double)(int op, double v)
{
    switch (op) {
    case AXON_OP_NEG: return -v;
    case AXON_OP_EXP: return exp(v);
    case AXON_OP_LOG: return log(v);
    case AXON_OP_SQRT: return sqrt(v);
    case AXON_OP_TANH: return tanh(v);
    case AXON_OP_SIGMOID: return 1.0 / (1.0 + exp(-v));
    case AXON_OP_RELU: return v < 0.0 ? 0.0 : v;            /* NaN kept */
    case AXON_OP_ABS: return fabs(v);
    case AXON_OP_ERF: return erf(v);
    case AXON_OP_SIN: return sin(v);
    case AXON_OP_COS: return cos(v);
    case AXON_OP_RSQRT: return 1.0 / sqrt(v);
    case AXON_OP_GELU: return 0.5 * v * (1.0 + erf(v / 1.4142135623730951));
    case AXON_OP_SILU: return v * (1.0 / (1.0 + exp(-v)));
    case AXON_OP_FLOOR: return floor(v);
    case AXON_OP_CEIL: return ceil(v);
    case AXON_OP_SIGN: return v > 0.0 ? 1.0 : v < 0.0 ? -1.0 : v;   /* 0, -0, NaN kept */
    default: return v;
    }
}

/* One unary operator in AXON_ACC: for integers, neg/abs/relu/sign/floor/
 * ceil exactly (wrapping), the others through double, truncated. */
AXON_RUN_FN AXON_ACC AXON_K(unary1)(int op, AXON_ACC v)
{
#if AXON_FLT
    return AXON_K(unary_double)(op, v);
#else
    switch (op) {
    case AXON_OP_NEG: return axon__isub(0, v);
    case AXON_OP_ABS: return v < 0 ? axon__isub(0, v) : v;
    case AXON_OP_RELU: return v > 0 ? v : 0;
    case AXON_OP_SIGN: return (v > 0) - (v < 0);
    case AXON_OP_FLOOR:
    case AXON_OP_CEIL: return v;
    default: return axon__f2i(AXON_K(unary_double)(op, (double)v));
    }
#endif
}

AXON_RUN_FN void AXON_K(unary)(int op, const axon_tensor *x, const axon_tensor *out)
{
    const AXON_T *xp = (const AXON_T *)x->data;
    AXON_T *op_ = (AXON_T *)out->data;
    axon__iter it;
    int64_t n = axon__iter_start(&it, out->rank, out->dims);
    axon__iter_add(&it, x->strides);
    axon__iter_add(&it, out->strides);
    for (int64_t e = 0; e < n; e++, axon__iter_next(&it))
        AXON_ST(op_ + it.off[1], AXON_K(unary1)(op, AXON_LD(xp + it.off[0])));
}

#if !AXON_FLT
/* a^b for integers, wrapping; a negative b gives 1 / a^-b floored, with
 * a^-b taken at T's width (0 there is a zero division: returns 1). */
AXON_RUN_FN int AXON_K(ipow)(int64_t a, int64_t b, int64_t *r)
{
    uint64_t k = b < 0 ? (uint64_t)0 - (uint64_t)b : (uint64_t)b;
    int64_t p = 1, base = a;
    while (k != 0) {
        if (k & 1)
            p = axon__imul(p, base);
        k >>= 1;
        if (k != 0)
            base = axon__imul(base, base);
    }
    if (b < 0) {
        AXON_T t;
        AXON_ST(&t, p);
        p = AXON_LD(&t);
        if (p == 0)
            return 1;
        p = axon__ifloordiv(1, p);
    }
    *r = p;
    return 0;
}
#endif

AXON_RUN_FN int AXON_K(binary)(int op, const axon_tensor *a, const axon_tensor *b, const axon_tensor *out,
                               const axon__site *at, axon_error *err)
{
    const AXON_T *ap = (const AXON_T *)a->data, *bp = (const AXON_T *)b->data;
    AXON_T *op_ = (AXON_T *)out->data;
    axon__iter it;
    int64_t n = axon__iter_start(&it, out->rank, out->dims);
    axon__iter_add(&it, a->strides);
    axon__iter_add(&it, b->strides);
    axon__iter_add(&it, out->strides);
    (void)at;                           /* (floats have no data error) */
    (void)err;
    for (int64_t e = 0; e < n; e++, axon__iter_next(&it)) {
        AXON_ACC x = AXON_LD(ap + it.off[0]), y = AXON_LD(bp + it.off[1]), r;
#if AXON_FLT
        switch (op) {
        case AXON_OP_ADD: r = x + y; break;
        case AXON_OP_SUB: r = x - y; break;
        case AXON_OP_MUL: r = x * y; break;
        case AXON_OP_DIV: r = x / y; break;
        case AXON_OP_MAXIMUM: r = x != x ? x : y != y ? y : x > y ? x : y; break;
        case AXON_OP_MINIMUM: r = x != x ? x : y != y ? y : x < y ? x : y; break;
        case AXON_OP_POW: r = pow(x, y); break;
        default: r = 0; break;
        }
#else
        switch (op) {
        case AXON_OP_ADD: r = axon__iadd(x, y); break;
        case AXON_OP_SUB: r = axon__isub(x, y); break;
        case AXON_OP_MUL: r = axon__imul(x, y); break;
        case AXON_OP_DIV:
            if (y == 0)
                return axon__kernel_fail(err, AXON_ERR_ZERO_DIVISION, at, &e, 1);
            r = axon__ifloordiv(x, y);
            break;
        case AXON_OP_MAXIMUM: r = x > y ? x : y; break;
        case AXON_OP_MINIMUM: r = x < y ? x : y; break;
        case AXON_OP_POW:
            if (AXON_K(ipow)(x, y, &r))
                return axon__kernel_fail(err, AXON_ERR_ZERO_DIVISION, at, &e, 1);
            break;
        default: r = 0; break;
        }
#endif
        AXON_ST(op_ + it.off[2], r);
    }
    return AXON_OK;
}

AXON_RUN_FN void AXON_K(compare)(int op, const axon_tensor *a, const axon_tensor *b, const axon_tensor *out)
{
    const AXON_T *ap = (const AXON_T *)a->data, *bp = (const AXON_T *)b->data;
    unsigned char *op_ = (unsigned char *)out->data;
    axon__iter it;
    int64_t n = axon__iter_start(&it, out->rank, out->dims);
    axon__iter_add(&it, a->strides);
    axon__iter_add(&it, b->strides);
    axon__iter_add(&it, out->strides);
    for (int64_t e = 0; e < n; e++, axon__iter_next(&it)) {
        AXON_ACC x = AXON_LD(ap + it.off[0]), y = AXON_LD(bp + it.off[1]);
        int r;
        switch (op) {                   /* (NaN: every comparison false but !=) */
        case AXON_OP_LT: r = x < y; break;
        case AXON_OP_LE: r = x <= y; break;
        case AXON_OP_GT: r = x > y; break;
        case AXON_OP_GE: r = x >= y; break;
        case AXON_OP_EQ: r = x == y; break;
        case AXON_OP_NE: r = x != y; break;
        default: r = 0; break;
        }
        op_[it.off[2]] = (unsigned char)r;
    }
}

/* select and copy move elements as they are (no conversion: f16/bf16 NaN
 * payloads survive). */
AXON_RUN_FN void AXON_K(select)(const axon_tensor *cond, const axon_tensor *b, const axon_tensor *c,
                                const axon_tensor *out)
{
    const unsigned char *cp = (const unsigned char *)cond->data;
    const AXON_T *bp = (const AXON_T *)b->data, *cp2 = (const AXON_T *)c->data;
    AXON_T *op_ = (AXON_T *)out->data;
    axon__iter it;
    int64_t n = axon__iter_start(&it, out->rank, out->dims);
    axon__iter_add(&it, cond->strides);
    axon__iter_add(&it, b->strides);
    axon__iter_add(&it, c->strides);
    axon__iter_add(&it, out->strides);
    for (int64_t e = 0; e < n; e++, axon__iter_next(&it))
        op_[it.off[3]] = cp[it.off[0]] ? bp[it.off[1]] : cp2[it.off[2]];
}

AXON_RUN_FN void AXON_K(copy)(const axon_tensor *x, const axon_tensor *out)
{
    const AXON_T *xp = (const AXON_T *)x->data;
    AXON_T *op_ = (AXON_T *)out->data;
    axon__iter it;
    int64_t n;
    if (axon__is_dense(x) && axon__is_dense(out)) {
        /* both dense (a loop's state, a reshape's copy): a plain loop */
        n = axon__numel(out->rank, out->dims);
        for (int64_t e = 0; e < n; e++)
            op_[e] = xp[e];
        return;
    }
    if (out->rank >= 1 && x->strides[out->rank - 1] == 1 && out->strides[out->rank - 1] == 1) {
        /* rows contiguous (a part of a concat, a slice): row by row */
        const int64_t len = out->dims[out->rank - 1];
        n = axon__iter_start(&it, out->rank - 1, out->dims);
        axon__iter_add(&it, x->strides);
        axon__iter_add(&it, out->strides);
        for (int64_t e = 0; e < n && len > 0; e++, axon__iter_next(&it))
            for (int64_t j = 0; j < len; j++)
                op_[it.off[1] + j] = xp[it.off[0] + j];
        return;
    }
    n = axon__iter_start(&it, out->rank, out->dims);
    axon__iter_add(&it, x->strides);
    axon__iter_add(&it, out->strides);
    for (int64_t e = 0; e < n; e++, axon__iter_next(&it))
        op_[it.off[1]] = xp[it.off[0]];
}

AXON_RUN_FN void AXON_K(fill)(const axon_tensor *out, AXON_ACC v)
{
    AXON_T *op_ = (AXON_T *)out->data, t;
    axon__iter it;
    int64_t n;
    AXON_ST(&t, v);
    if (axon__is_dense(out)) {
        n = axon__numel(out->rank, out->dims);
        for (int64_t e = 0; e < n; e++)
            op_[e] = t;
        return;
    }
    n = axon__iter_start(&it, out->rank, out->dims);
    axon__iter_add(&it, out->strides);
    for (int64_t e = 0; e < n; e++, axon__iter_next(&it))
        op_[it.off[0]] = t;
}

AXON_RUN_FN void AXON_K(arange)(const axon_tensor *out)
{
    AXON_T *op_ = (AXON_T *)out->data;
    for (int64_t i = 0; i < out->dims[0]; i++)
        AXON_ST(op_ + i * out->strides[0], (AXON_ACC)i);
}
/* ==== axon kernels: elementwise.c end ===================================== */
