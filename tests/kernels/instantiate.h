/* instantiate.h - how the C tests instantiate the kernel templates of
 * runtime/kernels/ (run_kernels.c here; run_fast.c and conv_run.c in
 * tests/fast/): for one element type, the definitions AXON_T ... AXON_TYPE
 * that kernels.h asks for (as a generated header writes them), the
 * templates in the order a generated header has them, then the #undefs.
 * Include it after runtime/axon_runtime.h, kernels/kernels.h, types.h and
 * tensor.c, once per type, with
 *
 *     #define KT_TYPE F32                     the type as types.h names it (AXON__F32_T, ...)
 *     #define AXON_K(n) axon__k_##n##_f32     the functions' names for it
 *     #define KT_TEMPLATES (KT_MATMUL | KT_EINSUM)   (optional) which templates; all by default
 *
 * KT_TYPE, AXON_K and KT_TEMPLATES are #undef'd with the rest at the end,
 * so there is no include guard. */
#ifndef KT_ELEMENTWISE
#define KT_ELEMENTWISE 0x01
#define KT_MATMUL 0x02
#define KT_EINSUM 0x04
#define KT_REDUCE 0x08
#define KT_CONV 0x10
#define KT_POOL 0x20
#define KT_NORM 0x40
#define KT_INDEX 0x80
#define KT_PASTE_(a, b, c) a##b##c
#define KT_PASTE(a, b, c) KT_PASTE_(a, b, c)
#endif
#ifndef KT_TEMPLATES
#define KT_TEMPLATES 0xff
#endif

#define AXON_T KT_PASTE(AXON__, KT_TYPE, _T)
#define AXON_FLT KT_PASTE(AXON__, KT_TYPE, _FLT)
#define AXON_ACC KT_PASTE(AXON__, KT_TYPE, _ACC)
#define AXON_LD(p) KT_PASTE(AXON__, KT_TYPE, _LD)(p)
#define AXON_ST(p, v) KT_PASTE(AXON__, KT_TYPE, _ST)(p, v)
#define AXON_TYPE KT_PASTE(AXON__, KT_TYPE, _TYPE)

#if KT_TEMPLATES & KT_ELEMENTWISE
#include "runtime/kernels/elementwise.c"
#endif
#if KT_TEMPLATES & KT_MATMUL
#include "runtime/kernels/matmul.c"
#endif
#if KT_TEMPLATES & KT_EINSUM
#include "runtime/kernels/einsum.c"
#endif
#if KT_TEMPLATES & KT_REDUCE
#include "runtime/kernels/reduce.c"
#endif
#if KT_TEMPLATES & KT_CONV
#include "runtime/kernels/conv.c"
#endif
#if KT_TEMPLATES & KT_POOL
#include "runtime/kernels/pool.c"
#endif
#if KT_TEMPLATES & KT_NORM
#include "runtime/kernels/norm.c"
#endif
#if KT_TEMPLATES & KT_INDEX
#include "runtime/kernels/index.c"
#endif

#undef AXON_T
#undef AXON_K
#undef AXON_FLT
#undef AXON_ACC
#undef AXON_LD
#undef AXON_ST
#undef AXON_TYPE
#undef KT_TYPE
#undef KT_TEMPLATES
