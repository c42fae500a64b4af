/* ==== axon kernels: convert.c begin =======================================
 * convert.c - element type casts (kernels.h, axon-spec.md 9b): f32(x),
 * i32(x), ... between every pair of the supported types.  Included once
 * per header.  Each element is read exactly (an integer or bool as int64,
 * a float as double) and stored: a float rounded to the target to nearest
 * even (int64 -> f16/bf16 directly, not through a double); a float to an
 * integer truncated toward zero, then wrapped (NaN gives 0, values past
 * int64 saturate first: spec 9b leaves those unspecified); integers
 * wrapped at the target's width; bool as v != 0 (NaN is true).  The same
 * type on both sides copies the bits (NaN payloads kept).
 */

/* Reads the element at p (of type `type`): returns 1 and *f for a float
 * type, 0 and *i for an integer or bool. */
AXON_RUN_FN int axon__convert_load(const void *p, int type, double *f, int64_t *i)
{
    switch (type) {
    case AXON_ELEM_BOOL: *i = *(const unsigned char *)p != 0; return 0;
    case AXON_ELEM_I8: *i = *(const int8_t *)p; return 0;
    case AXON_ELEM_I16: *i = *(const int16_t *)p; return 0;
    case AXON_ELEM_I32: *i = *(const int32_t *)p; return 0;
    case AXON_ELEM_I64: *i = *(const int64_t *)p; return 0;
    case AXON_ELEM_U8: *i = *(const uint8_t *)p; return 0;
    case AXON_ELEM_U16: *i = *(const uint16_t *)p; return 0;
    case AXON_ELEM_U32: *i = *(const uint32_t *)p; return 0;
    case AXON_ELEM_U64: *i = axon__u2i(*(const uint64_t *)p); return 0;   /* (not supported) */
    case AXON_ELEM_F16: *f = axon__f16_to_double(*(const uint16_t *)p); return 1;
    case AXON_ELEM_BF16: *f = axon__bf16_to_double(*(const uint16_t *)p); return 1;
    case AXON_ELEM_F32: *f = *(const float *)p; return 1;
    default: *f = *(const double *)p; return 1;
    }
}

AXON_RUN_FN void axon__convert_store(void *p, int type, int isf, double f, int64_t i)
{
    if (isf && type != AXON_ELEM_F16 && type != AXON_ELEM_BF16 && type != AXON_ELEM_F32 &&
        type != AXON_ELEM_F64) {
        if (type == AXON_ELEM_BOOL) {
            *(unsigned char *)p = (unsigned char)(f != 0.0);
            return;
        }
        i = axon__f2i(f);
    }
    switch (type) {
    case AXON_ELEM_BOOL: *(unsigned char *)p = (unsigned char)(i != 0); break;
    case AXON_ELEM_I8: *(int8_t *)p = axon__wrap_i8(i); break;
    case AXON_ELEM_I16: *(int16_t *)p = axon__wrap_i16(i); break;
    case AXON_ELEM_I32: *(int32_t *)p = axon__wrap_i32(i); break;
    case AXON_ELEM_I64: *(int64_t *)p = i; break;
    case AXON_ELEM_U8: *(uint8_t *)p = (uint8_t)(uint64_t)i; break;
    case AXON_ELEM_U16: *(uint16_t *)p = (uint16_t)(uint64_t)i; break;
    case AXON_ELEM_U32: *(uint32_t *)p = (uint32_t)(uint64_t)i; break;
    case AXON_ELEM_U64: *(uint64_t *)p = (uint64_t)i; break;
    case AXON_ELEM_F16:
        *(uint16_t *)p = isf ? axon__f16_from_double(f) : axon__small_from_int(i, 5, 10);
        break;
    case AXON_ELEM_BF16:
        *(uint16_t *)p = isf ? axon__bf16_from_double(f) : axon__small_from_int(i, 8, 7);
        break;
    case AXON_ELEM_F32: *(float *)p = isf ? (float)f : (float)i; break;
    default: *(double *)p = isf ? f : (double)i; break;
    }
}

AXON_RUN_FN void axon__convert(const axon_tensor *x, int from, const axon_tensor *out, int to)
{
    const int64_t fs = axon__elem_size(from), ts = axon__elem_size(to);
    axon__iter it;
    int64_t n = axon__iter_start(&it, out->rank, out->dims);
    axon__iter_add(&it, x->strides);
    axon__iter_add(&it, out->strides);
    for (int64_t e = 0; e < n; e++, axon__iter_next(&it)) {
        const unsigned char *src = (const unsigned char *)x->data + it.off[0] * fs;
        unsigned char *dst = (unsigned char *)out->data + it.off[1] * ts;
        double f = 0.0;
        int64_t i = 0;
        int isf;
        if (from == to) {
            for (int64_t b = 0; b < fs; b++)
                dst[b] = src[b];
            continue;
        }
        isf = axon__convert_load(src, from, &f, &i);
        axon__convert_store(dst, to, isf, f, i);
    }
}
/* ==== axon kernels: convert.c end ========================================= */
