/* fast.h - the fast paths of run() beside the reference kernels
 * (runtime/kernels/, kernels.h): f32 kernels for what dominates time, each
 * with the reference's meaning and a fallback to it where its preconditions
 * do not hold.  The generated run() calls the fast entry for f32 and the
 * reference for every other type; a fast kernel never allocates: what it
 * needs beyond its operands (packed panels, im2col columns) is scratch
 * that prepare() sizes and places in the workspace, live for the one step.
 *
 * Portability: GNU C vector extensions under __GNUC__ (the user's -march
 * picks AVX-512, AVX2 or NEON: 16 lanes of float where AVX-512 is there,
 * 8 else), a plain C fallback otherwise; C99, C++11, nvcc host code, all
 * -Wall -Wextra -Werror clean.  Threads: the outer loops split with OpenMP
 * where the implementation's translation unit is compiled with -fopenmp
 * (_OPENMP), single-threaded otherwise, the results equal either way up
 * to the tolerance of tests/fast (summation order may differ between
 * blockings, never between thread counts).  AXON_MAX_THREADS (default 8,
 * the same in every translation unit) bounds the threads a call uses and
 * the scratch prepare() reserves for them.  With AXON_USE_CBLAS defined in
 * the implementation's unit, GEMM goes through cblas_sgemm (link the BLAS).
 *
 * The entries (every one AXON_RUN_FN unless said; scratch functions are
 * AXON_FN, prepare() calls them on host and device):
 *
 * gemm.c
 *   int64_t axon__gemm_scratch(int64_t m, int64_t n, int64_t k);          AXON_FN
 *   void axon__sgemm(int64_t m, int64_t n, int64_t k,
 *                    const float *a, int64_t a_rs, int64_t a_cs,
 *                    const float *b, int64_t b_rs, int64_t b_cs,
 *                    float *c, int64_t c_rs, int64_t c_cs, int accumulate, void *scratch);
 *       c[i, j] (+)= sum_p a[i, p] * b[p, j], strides in elements (any,
 *       0 allowed for a broadcast operand); scratch of gemm_scratch bytes
 *       (aligned to 64 by the workspace plan).  Packed, cache-blocked, a
 *       register-tiled micro-kernel (BLIS's five loops).
 *   int64_t axon__f_matmul_scratch(const axon_shape *a, const axon_shape *b, const axon_shape *out);  AXON_FN
 *   void axon__f_matmul(const axon_tensor *a, const axon_tensor *b, const axon_tensor *out, void *scratch);
 *       kernels.h's matmul (batch axes of out's rank, stride 0 where
 *       broadcast, linear's weight so) for f32.
 *   int64_t axon__f_einsum_scratch(...), void axon__f_einsum(...)
 *       kernels.h's einsum for f32 where its labels fall into batch, row,
 *       column and summed groups that strided views can read (else the
 *       reference).
 *
 * conv.c, pool.c, norm.c
 *   int64_t axon__f_conv2d_scratch(const axon_shape *x, const axon_shape *w, const axon_shape *out,
 *                                  const int64_t stride[2], const int64_t pad[2], const int64_t dil[2],
 *                                  int64_t groups);                     AXON_FN
 *   void axon__f_conv2d(x, w, out, stride, pad, dil, groups, void *scratch);
 *       kernels.h's conv2d for f32: 1x1 as a contraction, depthwise and
 *       grouped directly, the rest by im2col (or packing) into gemm.
 *   void axon__f_pool2d(...), axon__f_softmax(...), axon__f_layernorm(...)
 *       as the references, one pass where the maths allows.
 *
 * A fast kernel is tested against its reference on random sizes including
 * every tile edge (tests/fast); benchmarks are under bench/ (README).
 */
#ifndef AXON_FAST_H
#define AXON_FAST_H

#ifndef AXON_MAX_THREADS
#define AXON_MAX_THREADS 8
#endif

#endif
