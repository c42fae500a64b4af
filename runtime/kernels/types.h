/* ==== axon kernels: types.h begin =========================================
 * types.h - the element types of run() (kernels.h, axon-spec.md 9b): for
 * each type TN (BOOL I8 I16 I32 I64 U8 U16 U32 F16 BF16 F32 F64) the
 * macros that instantiate a kernel template (AXON__TN_T, _FLT, _ACC,
 * _LD(p), _ST(p, v), _TYPE), the f16/bf16 conversions (bit manipulation,
 * round to nearest even, no hardware half types), and the integer helpers
 * the templates share: wrapping int64 arithmetic, floored division, a
 * double -> int64 conversion without undefined behaviour.
 *
 * Included once per header, after axon_runtime.h and kernels.h; needs
 * <math.h> (included here) and nothing else beyond <stdint.h>.
 */
#ifndef AXON_KERNELS_TYPES_H
#define AXON_KERNELS_TYPES_H

#include <math.h>

/* ---- integers ------------------------------------------------------------ */

/* uint64 -> int64 as two's complement, defined for every value (a plain
 * cast is implementation-defined above INT64_MAX; compilers make this a
 * no-op). */
AXON_RUN_FN int64_t axon__u2i(uint64_t u)
{
    return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}

/* Wrapping int64 arithmetic (modulo 2^64, as the integer kernels compute). */
AXON_RUN_FN int64_t axon__iadd(int64_t a, int64_t b)
{
    return axon__u2i((uint64_t)a + (uint64_t)b);
}

AXON_RUN_FN int64_t axon__isub(int64_t a, int64_t b)
{
    return axon__u2i((uint64_t)a - (uint64_t)b);
}

AXON_RUN_FN int64_t axon__imul(int64_t a, int64_t b)
{
    return axon__u2i((uint64_t)a * (uint64_t)b);
}

/* Floored division and its remainder (Python's // and %), b != 0.
 * INT64_MIN / -1 wraps to INT64_MIN (its remainder is 0). */
AXON_RUN_FN int64_t axon__ifloordiv(int64_t a, int64_t b)
{
    int64_t q;
    if (b == -1)
        return axon__isub(0, a);
    q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0)))
        q--;
    return q;
}

AXON_RUN_FN int64_t axon__ifloormod(int64_t a, int64_t b)
{
    int64_t r;
    if (b == -1)
        return 0;
    r = a % b;
    if (r != 0 && ((r < 0) != (b < 0)))
        r += b;
    return r;
}

/* A double as int64, truncated toward zero.  NaN gives 0 and values
 * outside int64 saturate (spec 9b leaves them unspecified; this only keeps
 * the conversion free of undefined behaviour). */
AXON_RUN_FN int64_t axon__f2i(double v)
{
    if (!(v == v))
        return 0;
    if (v >= 9223372036854775808.0)
        return INT64_MAX;
    if (v <= -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)v;
}

/* int64 -> a narrower signed integer, wrapped (through the unsigned type of
 * that width; no implementation-defined conversion on the way). */
AXON_RUN_FN int8_t axon__wrap_i8(int64_t v)
{
    uint8_t u = (uint8_t)(uint64_t)v;
    return u < 0x80u ? (int8_t)u : (int8_t)((int)u - 0x100);
}

AXON_RUN_FN int16_t axon__wrap_i16(int64_t v)
{
    uint16_t u = (uint16_t)(uint64_t)v;
    return u < 0x8000u ? (int16_t)u : (int16_t)((int32_t)u - 0x10000);
}

AXON_RUN_FN int32_t axon__wrap_i32(int64_t v)
{
    uint32_t u = (uint32_t)(uint64_t)v;
    return u < 0x80000000u ? (int32_t)u : (int32_t)((int64_t)u - INT64_C(0x100000000));
}

/* The least and greatest value of an integer or bool type code (reduce's
 * MAX/MIN over an empty set, the max pool's padding); 0 for the others. */
AXON_RUN_FN int64_t axon__elem_min(int type)
{
    switch (type) {
    case AXON_ELEM_I8: return INT8_MIN;
    case AXON_ELEM_I16: return INT16_MIN;
    case AXON_ELEM_I32: return INT32_MIN;
    case AXON_ELEM_I64: return INT64_MIN;
    default: return 0;
    }
}

AXON_RUN_FN int64_t axon__elem_max(int type)
{
    switch (type) {
    case AXON_ELEM_BOOL: return 1;
    case AXON_ELEM_I8: return INT8_MAX;
    case AXON_ELEM_I16: return INT16_MAX;
    case AXON_ELEM_I32: return INT32_MAX;
    case AXON_ELEM_I64: return INT64_MAX;
    case AXON_ELEM_U8: return UINT8_MAX;
    case AXON_ELEM_U16: return UINT16_MAX;
    case AXON_ELEM_U32: return UINT32_MAX;
    default: return 0;
    }
}

/* The size in bytes of an element of a type code (bool: 1). */
AXON_RUN_FN int64_t axon__elem_size(int type)
{
    switch (type) {
    case AXON_ELEM_I16: case AXON_ELEM_U16: case AXON_ELEM_F16: case AXON_ELEM_BF16: return 2;
    case AXON_ELEM_I32: case AXON_ELEM_U32: case AXON_ELEM_F32: return 4;
    case AXON_ELEM_I64: case AXON_ELEM_U64: case AXON_ELEM_F64: return 8;
    default: return 1;
    }
}

/* ---- f16 and bf16 ------------------------------------------------------- */

/* The bits of a double (type punning through a union: C99, and what g++,
 * clang and nvcc's host compilers document for C++). */
AXON_RUN_FN uint64_t axon__double_bits(double v)
{
    union { double d; uint64_t u; } pun;
    pun.d = v;
    return pun.u;
}

AXON_RUN_FN double axon__bits_double(uint64_t u)
{
    union { double d; uint64_t u; } pun;
    pun.u = u;
    return pun.d;
}

/* The bits of the binary float of ebits exponent bits and mbits mantissa
 * bits (f16: 5, 10; bf16: 8, 7) nearest to (-1)^sign * m * 2^e, ties to
 * even, overflow to infinity, underflow through the subnormals to zero. */
AXON_RUN_FN uint16_t axon__small_float(unsigned sign, uint64_t m, int e, int ebits, int mbits)
{
    const int bias = (1 << (ebits - 1)) - 1, emin = 1 - bias;
    const uint32_t inf = ((1u << ebits) - 1u) << mbits;
    uint32_t s = sign ? 1u << (ebits + mbits) : 0u;
    uint64_t keep, rest, half;
    int len = 0, top, q, drop;
    if (m == 0)
        return (uint16_t)s;
    for (uint64_t t = m; t != 0; t >>= 1)
        len++;
    top = e + len - 1;                  /* m * 2^e lies in [2^top, 2^(top+1)) */
    if (top > bias)
        return (uint16_t)(s | inf);
    q = (top < emin ? emin : top) - mbits;  /* the weight of the last bit kept */
    drop = q - e;
    if (drop <= 0) {
        keep = m << -drop;              /* exact (fewer than mbits + 1 bits) */
    } else if (drop > 64) {
        keep = 0;                       /* below half the least subnormal */
    } else {
        keep = drop == 64 ? 0 : m >> drop;
        rest = drop == 64 ? m : m & ((UINT64_C(1) << drop) - 1);
        half = UINT64_C(1) << (drop - 1);
        if (rest > half || (rest == half && (keep & 1)))
            keep++;
    }
    /* Subnormal: keep is the field itself (a carry into 2^mbits makes the
     * least normal).  Normal: keep carries the implicit bit; a carry past
     * 2^(mbits+1) bumps the exponent, up to infinity. */
    if (top >= emin) {
        uint64_t bits = ((uint64_t)(top + bias - 1) << mbits) + keep;
        if (bits >= inf)
            return (uint16_t)(s | inf);
        return (uint16_t)(s | (uint32_t)bits);
    }
    return (uint16_t)(s | (uint32_t)keep);
}

/* A double rounded to f16 / bf16 bits; NaN stays NaN (quiet, the leading
 * payload bits kept), infinities and signed zeros are kept. */
AXON_RUN_FN uint16_t axon__small_from_double(double v, int ebits, int mbits)
{
    uint64_t b = axon__double_bits(v), frac = b & ((UINT64_C(1) << 52) - 1);
    unsigned sign = (unsigned)(b >> 63);
    int ex = (int)((b >> 52) & 0x7ff);
    if (ex == 0x7ff) {
        uint32_t s = (uint32_t)sign << (ebits + mbits), inf = ((1u << ebits) - 1u) << mbits;
        if (frac == 0)
            return (uint16_t)(s | inf);
        return (uint16_t)(s | inf | (1u << (mbits - 1)) | (uint32_t)(frac >> (52 - mbits)));
    }
    if (ex == 0)
        return axon__small_float(sign, frac, -1074, ebits, mbits);
    return axon__small_float(sign, frac | (UINT64_C(1) << 52), ex - 1075, ebits, mbits);
}

AXON_RUN_FN uint16_t axon__f16_from_double(double v)
{
    return axon__small_from_double(v, 5, 10);
}

AXON_RUN_FN uint16_t axon__bf16_from_double(double v)
{
    return axon__small_from_double(v, 8, 7);
}

AXON_RUN_FN uint16_t axon__f16_from_float(float v)
{
    return axon__small_from_double((double)v, 5, 10);   /* (exact widening) */
}

AXON_RUN_FN uint16_t axon__bf16_from_float(float v)
{
    return axon__small_from_double((double)v, 8, 7);
}

/* An int64 rounded to f16 / bf16 bits directly (no double rounding through
 * a double). */
AXON_RUN_FN uint16_t axon__small_from_int(int64_t v, int ebits, int mbits)
{
    uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    return axon__small_float(v < 0, m, 0, ebits, mbits);
}

/* f16 / bf16 bits as a double (exact). */
AXON_RUN_FN double axon__small_to_double(uint16_t h, int ebits, int mbits)
{
    const int bias = (1 << (ebits - 1)) - 1;
    uint64_t sign = (uint64_t)(h >> (ebits + mbits)) << 63;
    uint64_t frac = h & ((1u << mbits) - 1u);
    int ex = (h >> mbits) & ((1 << ebits) - 1);
    if (ex == (1 << ebits) - 1)         /* infinity, NaN (payload kept) */
        return axon__bits_double(sign | (UINT64_C(0x7ff) << 52) | (frac << (52 - mbits)));
    if (ex == 0) {                      /* zero, subnormal: frac * 2^(1 - bias - mbits) */
        int sh = 0;
        if (frac == 0)
            return axon__bits_double(sign);
        while (!(frac & (1u << mbits))) {
            frac <<= 1;
            sh++;
        }
        ex = 1 - sh;
        frac &= (1u << mbits) - 1u;
    }
    return axon__bits_double(sign | ((uint64_t)(ex - bias + 1023) << 52) | (frac << (52 - mbits)));
}

AXON_RUN_FN double axon__f16_to_double(uint16_t h)
{
    return axon__small_to_double(h, 5, 10);
}

AXON_RUN_FN double axon__bf16_to_double(uint16_t h)
{
    return axon__small_to_double(h, 8, 7);
}

AXON_RUN_FN float axon__f16_to_float(uint16_t h)
{
    return (float)axon__small_to_double(h, 5, 10);      /* (exact) */
}

AXON_RUN_FN float axon__bf16_to_float(uint16_t h)
{
    return (float)axon__small_to_double(h, 8, 7);
}

/* ---- the instantiation macros ------------------------------------------- *
 * AXON_LD gives AXON_ACC; AXON_ST stores an AXON_ACC: rounded (f16, bf16
 * to nearest even), wrapped at the width, bool as v != 0.  Integers load
 * as int64 exactly (u32 included). */

#define AXON__BOOL_T unsigned char
#define AXON__BOOL_FLT 0
#define AXON__BOOL_ACC int64_t
#define AXON__BOOL_LD(p) ((int64_t)(*(p) != 0))
#define AXON__BOOL_ST(p, v) (*(p) = (unsigned char)((v) != 0))
#define AXON__BOOL_TYPE AXON_ELEM_BOOL

#define AXON__I8_T int8_t
#define AXON__I8_FLT 0
#define AXON__I8_ACC int64_t
#define AXON__I8_LD(p) ((int64_t)*(p))
#define AXON__I8_ST(p, v) (*(p) = axon__wrap_i8(v))
#define AXON__I8_TYPE AXON_ELEM_I8

#define AXON__I16_T int16_t
#define AXON__I16_FLT 0
#define AXON__I16_ACC int64_t
#define AXON__I16_LD(p) ((int64_t)*(p))
#define AXON__I16_ST(p, v) (*(p) = axon__wrap_i16(v))
#define AXON__I16_TYPE AXON_ELEM_I16

#define AXON__I32_T int32_t
#define AXON__I32_FLT 0
#define AXON__I32_ACC int64_t
#define AXON__I32_LD(p) ((int64_t)*(p))
#define AXON__I32_ST(p, v) (*(p) = axon__wrap_i32(v))
#define AXON__I32_TYPE AXON_ELEM_I32

#define AXON__I64_T int64_t
#define AXON__I64_FLT 0
#define AXON__I64_ACC int64_t
#define AXON__I64_LD(p) (*(p))
#define AXON__I64_ST(p, v) (*(p) = (int64_t)(v))
#define AXON__I64_TYPE AXON_ELEM_I64

#define AXON__U8_T uint8_t
#define AXON__U8_FLT 0
#define AXON__U8_ACC int64_t
#define AXON__U8_LD(p) ((int64_t)*(p))
#define AXON__U8_ST(p, v) (*(p) = (uint8_t)(uint64_t)(v))
#define AXON__U8_TYPE AXON_ELEM_U8

#define AXON__U16_T uint16_t
#define AXON__U16_FLT 0
#define AXON__U16_ACC int64_t
#define AXON__U16_LD(p) ((int64_t)*(p))
#define AXON__U16_ST(p, v) (*(p) = (uint16_t)(uint64_t)(v))
#define AXON__U16_TYPE AXON_ELEM_U16

#define AXON__U32_T uint32_t
#define AXON__U32_FLT 0
#define AXON__U32_ACC int64_t
#define AXON__U32_LD(p) ((int64_t)*(p))
#define AXON__U32_ST(p, v) (*(p) = (uint32_t)(uint64_t)(v))
#define AXON__U32_TYPE AXON_ELEM_U32

#define AXON__F16_T uint16_t
#define AXON__F16_FLT 1
#define AXON__F16_ACC double
#define AXON__F16_LD(p) axon__f16_to_double(*(p))
#define AXON__F16_ST(p, v) (*(p) = axon__f16_from_double(v))
#define AXON__F16_TYPE AXON_ELEM_F16

#define AXON__BF16_T uint16_t
#define AXON__BF16_FLT 1
#define AXON__BF16_ACC double
#define AXON__BF16_LD(p) axon__bf16_to_double(*(p))
#define AXON__BF16_ST(p, v) (*(p) = axon__bf16_from_double(v))
#define AXON__BF16_TYPE AXON_ELEM_BF16

#define AXON__F32_T float
#define AXON__F32_FLT 1
#define AXON__F32_ACC double
#define AXON__F32_LD(p) ((double)*(p))
#define AXON__F32_ST(p, v) (*(p) = (float)(v))
#define AXON__F32_TYPE AXON_ELEM_F32

#define AXON__F64_T double
#define AXON__F64_FLT 1
#define AXON__F64_ACC double
#define AXON__F64_LD(p) (*(p))
#define AXON__F64_ST(p, v) (*(p) = (double)(v))
#define AXON__F64_TYPE AXON_ELEM_F64

#endif /* AXON_KERNELS_TYPES_H */
/* ==== axon kernels: types.h end =========================================== */
