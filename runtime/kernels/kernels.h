/* kernels.h - the interface between the code that run() is made of (the
 * generated P_NAME_run: emit/run*.c in the translator) and the kernels
 * under runtime/kernels/ (axon-spec.md section 9).  Embedded, like every
 * file here, into the headers that axonc writes, after axon_runtime.h.
 *
 * Tensors are strided views (axon_tensor): the generated code makes every
 * view (a broadcast operand, a slice, a transpose, a reshape of dense data)
 * and gives each kernel views whose shapes already agree; a kernel only
 * loops.  A kernel never allocates, never reads or writes outside the
 * views it is given, and returns a status only where spec section 9b has a
 * data error (a gather index out of range, an integer division by zero,
 * argmax over an empty axis).
 *
 * Element types.  The files elementwise.c, matmul.c, einsum.c, reduce.c,
 * conv.c, pool.c, norm.c and index.c are templates: the header includes each
 * one once per element type it needs, between
 *
 *     #define AXON_T      the C type of an element (float, int32_t, ...)
 *     #define AXON_K(n)   the function's name for that type: axon__k_##n##_f32
 *     #define AXON_FLT    1 for f32, f64, f16 and bf16; 0 for integers and bool
 *     #define AXON_ACC    double where AXON_FLT, else int64_t
 *     #define AXON_LD(p)  the element at p (const AXON_T *) as AXON_ACC
 *     #define AXON_ST(p, v)  stores AXON_ACC v at p (AXON_T *): rounded to
 *                         the type (f16, bf16: to nearest even), an integer
 *                         wrapped at its width, bool as v != 0
 *     #define AXON_TYPE   the type's AXON_ELEM_* code
 *
 * and the matching #undefs.  types.h has them for every type TN (BOOL, I8,
 * I16, I32, I64, U8, U16, U32, F16, BF16, F32, F64) as AXON__TN_T,
 * AXON__TN_FLT, AXON__TN_ACC, AXON__TN_LD(p), AXON__TN_ST(p, v) and
 * AXON__TN_TYPE, so that an instantiation reads
 *
 *     #define AXON_T AXON__F32_T
 *     #define AXON_K(n) axon__k_##n##_f32
 *     ... (FLT, ACC, LD, ST, TYPE likewise)
 *     <the text of elementwise.c>
 *     #undef AXON_T ...  Templates touch elements only through AXON_LD and AXON_ST, and
 * compute in AXON_ACC: double for every float type (more precise than the
 * element type, which spec section 9b allows), int64_t with wrapping
 * arithmetic (axon__iadd and its kin in tensor.c) for the integers and
 * bool.  The other files (tensor.c: views and iteration; convert.c;
 * workspace.c) are included once.
 *
 * Supported element types: bool, i8, i16, i32, i64, u8, u16, u32, f16 (as
 * storage, arithmetic in double), bf16 (likewise), f32, f64.  u64 is not
 * (its values do not fit AXON_ACC): emit says run() is not available.
 */
#ifndef AXON_KERNELS_H
#define AXON_KERNELS_H

/* Every function of run() and the kernels: static to the translation unit
 * that defines P_IMPLEMENTATION (the header is stb-style for run()), host
 * code under nvcc. */
#if defined(__CUDACC__)
#define AXON_RUN_FN static inline __host__
#else
#define AXON_RUN_FN static inline
#endif

/* A strided view: element (i0, ..., ir-1) is at
 * data + (i0 * strides[0] + ... ) * element size, strides in elements
 * (0 on an axis that a broadcast stretches, negative for reverse). */
typedef struct axon_tensor {
    void *data;                     /* the element at index (0, ..., 0) */
    int rank;
    int64_t dims[AXON_MAX_RANK];
    int64_t strides[AXON_MAX_RANK];
} axon_tensor;

/* Where a data error is reported: the Axon rule's place, and the message
 * with a "{}" for each value the kernel gives (axon__failv). */
typedef struct axon__site {
    int line, column;
    const char *fmt;
} axon__site;

/* Element type codes (convert.c, AXON_TYPE). */
enum {
    AXON_ELEM_BOOL, AXON_ELEM_I8, AXON_ELEM_I16, AXON_ELEM_I32, AXON_ELEM_I64,
    AXON_ELEM_U8, AXON_ELEM_U16, AXON_ELEM_U32, AXON_ELEM_U64,
    AXON_ELEM_F16, AXON_ELEM_BF16, AXON_ELEM_F32, AXON_ELEM_F64
};

/* Operators of the element-wise kernels (elementwise.c). */
enum axon__unop {
    AXON_OP_NEG, AXON_OP_EXP, AXON_OP_LOG, AXON_OP_SQRT, AXON_OP_TANH, AXON_OP_SIGMOID, AXON_OP_RELU,
    AXON_OP_ABS, AXON_OP_ERF, AXON_OP_SIN, AXON_OP_COS, AXON_OP_RSQRT, AXON_OP_GELU, AXON_OP_SILU,
    AXON_OP_FLOOR, AXON_OP_CEIL, AXON_OP_SIGN
};
enum axon__binop {
    AXON_OP_ADD, AXON_OP_SUB, AXON_OP_MUL, AXON_OP_DIV, AXON_OP_MAXIMUM, AXON_OP_MINIMUM, AXON_OP_POW
};
enum axon__cmpop { AXON_OP_LT, AXON_OP_LE, AXON_OP_GT, AXON_OP_GE, AXON_OP_EQ, AXON_OP_NE };
/* Reductions (reduce.c) and pools (pool.c). */
enum axon__redop { AXON_RED_SUM, AXON_RED_MEAN, AXON_RED_MAX, AXON_RED_MIN };

/* ---- the template functions, for one element type T -------------------
 *
 * In every kernel, the views of the operands and the output have the
 * shapes the operator's rule gives (the generated code has made them so);
 * "out" may be any strided view but never overlaps an operand (the
 * workspace plan keeps them apart), except where said.
 *
 * elementwise.c
 *   void AXON_K(unary)(int op, const axon_tensor *x, const axon_tensor *out);
 *       x and out: the same rank and dims.  Float semantics as spec 9b and
 *       NumPy in double (gelu: the erf form; sigmoid 1 / (1 + exp(-x));
 *       silu x * sigmoid(x); rsqrt 1 / sqrt(x); relu max(x, 0) with NaN
 *       kept; sign(NaN) NaN).  For integer and bool T: neg, abs, relu, sign,
 *       floor and ceil exactly (floor, ceil: the value); the others through
 *       double and back, a float to an integer truncated toward zero, NaN
 *       and out-of-range values unspecified but never undefined behaviour
 *       (axon__f2i in tensor.c).
 *   int AXON_K(binary)(int op, const axon_tensor *a, const axon_tensor *b, const axon_tensor *out,
 *                      const axon__site *at, axon_error *err);
 *       a, b, out: the same rank and dims (a broadcast operand has stride 0
 *       on its stretched axes).  maximum/minimum propagate NaN.  Integers:
 *       +, -, * wrap at T's width; / is floored, and a zero divisor is a
 *       data error AXON_ERR_ZERO_DIVISION (at->fmt has one {}: the flat
 *       row-major position in out); pow of integers by repeated squaring
 *       (a negative exponent: 1 / a^-b, floored, at T's width, so 0 for
 *       a > 1 and -1 for a < -1; a power that is 0 there, 0^negative
 *       included, is a zero division).  Returns AXON_OK or the status.
 *   void AXON_K(compare)(int op, const axon_tensor *a, const axon_tensor *b, const axon_tensor *out);
 *       out is bool (unsigned char, 0 or 1); NaN compares false but for NE.
 *   void AXON_K(select)(const axon_tensor *cond, const axon_tensor *b, const axon_tensor *c,
 *                       const axon_tensor *out);      cond is bool
 *   void AXON_K(copy)(const axon_tensor *x, const axon_tensor *out);
 *       any two views of the same dims (out may be a slice of a larger
 *       tensor: concat, pad2d, map's result row); x may overlap out only
 *       when they are the same view.
 *   void AXON_K(fill)(const axon_tensor *out, AXON_ACC v);
 *   void AXON_K(arange)(const axon_tensor *out);      out rank 1: 0, 1, ..., n-1
 *
 * matmul.c
 *   void AXON_K(matmul)(const axon_tensor *a, const axon_tensor *b, const axon_tensor *out);
 *       a [..., m, k], b [..., k, n], out [..., m, n], all three of out's
 *       rank with out's batch dims (stride 0 where one is broadcast, as
 *       linear's weight is).  Sums in AXON_ACC, from k = 0 up.
 *
 * einsum.c
 *   void AXON_K(einsum)(int nops, const axon_tensor *const ops[], const int *const labels[],
 *                       const axon_tensor *out, const int *out_labels, int nlabels,
 *                       const int64_t *label_dims);
 *       nops is 1 or 2.  labels[i][j]: the label (0 .. nlabels - 1) of axis
 *       j of operand i, out_labels likewise; every axis's dim is its
 *       label's (label_dims); a label appears at most once in an operand
 *       and in out (the generated code has made repeated labels diagonal
 *       views).  out[...] = sum over the labels not in out of the product
 *       of the operands, in AXON_ACC; an empty sum is 0.
 *
 * reduce.c
 *   void AXON_K(reduce)(int op, const axon_tensor *x, const axon_tensor *out);
 *       out has x's rank; on a reduced axis its dim is 1 (and its stride
 *       anything), elsewhere x's dim.  SUM, MEAN (NaN over an empty set: 0
 *       / 0), MAX (-inf over an empty set, NaN propagates), MIN (+inf).
 *       For integer T, MAX/MIN over an empty set give T's least/greatest
 *       value, MEAN is floored, and of an empty set 0 (the generated code
 *       makes that a data error, AXON_ERR_EMPTY, before calling).
 *   int AXON_K(argmax)(const axon_tensor *x, const axon_tensor *out, const axon__site *at,
 *                      axon_error *err);
 *       out is i32, x's rank as for reduce; the index is row-major over the
 *       reduced axes of the first largest element (NaN counts as largest);
 *       over an empty set a data error AXON_ERR_EMPTY (no {}).
 *
 * conv.c
 *   void AXON_K(conv2d)(const axon_tensor *x, const axon_tensor *w, const axon_tensor *out,
 *                       const int64_t stride[2], const int64_t pad[2], const int64_t dilation[2],
 *                       int64_t groups);
 *       x [b, g * c, h, w], w [g * k, c, r, q], out [b, g * k, oh, ow]:
 *       cross-correlation with zero padding (PyTorch's), output channel o
 *       of group o / k reading input channels (o / k) * c .. + c - 1.
 *       (conv, conv1d, conv2d and the grouped ones are all this one, 1-D
 *       through views with a unit height.)
 *
 * pool.c
 *   void AXON_K(pool2d)(int op, const axon_tensor *x, const axon_tensor *out, const int64_t window[2],
 *                       const int64_t stride[2], const int64_t pad[2]);
 *       op MAX (padding is -inf; NaN propagates) or MEAN (divides by the
 *       whole window, padding included, as PyTorch's default).
 *   void AXON_K(upsample2d)(const axon_tensor *x, const axon_tensor *out, const int64_t factor[2]);
 *       nearest: out[..., i, j] = x[..., i / f1, j / f2].
 *
 * norm.c
 *   void AXON_K(softmax)(int log, const axon_tensor *x, const axon_tensor *out);
 *       over the last axis, the maximum subtracted first; log: log_softmax.
 *   void AXON_K(layernorm)(const axon_tensor *x, const axon_tensor *g, const axon_tensor *b,
 *                          const axon_tensor *out);
 *       over the last axis: biased variance, epsilon 1e-5 inside the square
 *       root; g and b have rank 1.
 *
 * index.c
 *   int AXON_K(gather)(const axon_tensor *table, const axon_tensor *idx, const axon_tensor *out,
 *                      const axon__site *at, axon_error *err);
 *       table [v] @ s, idx i32 of shape p, out p @ s.  An index outside
 *       [0, v) is AXON_ERR_INDEX; at->fmt has three {}: the index, its flat
 *       row-major position in idx, and v.  Nothing is written past the
 *       first bad index's row.
 *   void AXON_K(topk)(const axon_tensor *x, const axon_tensor *values, const axon_tensor *indices);
 *       along the last axis: the k largest (k = values->dims[last]) in
 *       descending order, ties to the lower index, NaN as the largest;
 *       indices i32.
 *   int64_t AXON_K(nonzero)(const axon_tensor *x, const axon_tensor *out);
 *       x rank 1; writes the indices (i32) of its nonzero elements, in
 *       order, into out (rank 1, room for x's length) and returns how many.
 *
 * ---- once per header (tensor.c, convert.c, workspace.c) ---------------
 * (described here, not declared: a static function declared and not
 * defined would warn in a translation unit without P_IMPLEMENTATION)
 *
 *
 * A view of x as the shape `to` (NumPy's broadcasting: axes aligned at the
 * end, a 1 or a missing axis stretched by a zero stride).  The generated
 * code has checked that they broadcast.
 *   AXON_RUN_FN void axon__broadcast_view(const axon_tensor *x, const axon_shape *to, axon_tensor *view);
 * Dense row-major view of the buffer at data with the shape s.
 *   AXON_RUN_FN void axon__dense_view(void *data, int64_t elem_size, const axon_shape *s, axon_tensor *view);
 * Whether x is dense row-major (a reshape of it is a view).
 *   AXON_RUN_FN int axon__is_dense(const axon_tensor *x);
 * Views: x[i] along the first axis; [i, j) of axis k; axes a and b
 * swapped; the first axis reversed; axis k given a unit axis before it.
 *   AXON_RUN_FN void axon__index_view(const axon_tensor *x, int64_t i, int64_t elem_size, axon_tensor *view);
 *   AXON_RUN_FN void axon__slice_view(const axon_tensor *x, int k, int64_t i, int64_t j, int64_t elem_size,
 *                                 axon_tensor *view);
 *   AXON_RUN_FN void axon__swap_view(const axon_tensor *x, int a, int b, axon_tensor *view);
 *   AXON_RUN_FN void axon__reverse_view(const axon_tensor *x, int64_t elem_size, axon_tensor *view);
 *   AXON_RUN_FN void axon__unit_view(const axon_tensor *x, int k, axon_tensor *view);
 * A diagonal view: axes a < b of equal dims made one (at a).
 *   AXON_RUN_FN void axon__diagonal_view(const axon_tensor *x, int a, int b, axon_tensor *view);
 * A permutation of the axes: view axis i is x's axis perm[i].
 *   AXON_RUN_FN void axon__permute_view(const axon_tensor *x, const int *perm, axon_tensor *view);
 *
 * Every element of x converted to out's type (spec 9b: rounding to the
 * target type, a float to an integer truncated toward zero, integers
 * wrapped; NaN and out-of-range values to an integer give an unspecified
 * value, never undefined behaviour).
 *   AXON_RUN_FN void axon__convert(const axon_tensor *x, int from, const axon_tensor *out, int to);
 *
 * The workspace plan (workspace.c): n buffers, buffer i of size[i] bytes
 * live from step first[i] to step last[i] (inclusive); buffers whose lives
 * overlap get disjoint ranges.  Fills offset[i] (multiples of 64) and
 * returns the bytes needed; order[] is scratch for n ints.  Greedy by
 * size, largest first, each at the lowest offset that fits.  Returns -1 if
 * the total overflows int64.
 *   AXON_RUN_FN int64_t axon__plan_workspace(int n, const int64_t *size, const int *first, const int *last,
 *                                        int64_t *offset, int *order);
 *
 *
 */

#endif
