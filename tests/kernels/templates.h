/* templates.h - every kernel template of runtime/kernels/, for the element
 * type that AXON_T ... AXON_TYPE describe (kernels.h), as a generated
 * header includes them; then the #undefs.  No include guard: run_kernels.c
 * and compile.c include it once per type. */
#include "runtime/kernels/elementwise.c"
#include "runtime/kernels/matmul.c"
#include "runtime/kernels/einsum.c"
#include "runtime/kernels/reduce.c"
#include "runtime/kernels/conv.c"
#include "runtime/kernels/pool.c"
#include "runtime/kernels/norm.c"
#include "runtime/kernels/index.c"
#undef AXON_T
#undef AXON_K
#undef AXON_FLT
#undef AXON_ACC
#undef AXON_LD
#undef AXON_ST
#undef AXON_TYPE
