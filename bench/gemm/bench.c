/* bench.c - the f32 matrix product benchmark (bench/README.md, "f32 matrix
 * product"): GFLOP/s of axon__sgemm (runtime/fast/gemm.c), of a generated
 * header's run() of an Axon `matmul` (with -DBENCH_HEADER), and of OpenBLAS's
 * cblas_sgemm (with -DBENCH_CBLAS, linked with -lopenblas), on row-major
 * operands of the given shapes.
 *
 *     bench [-p THREADS] [-t SECONDS] [-r REPS] [-n CALLS] [-i IMPL] [-c 1] MxNxK...
 *
 * -c 1: the process's CPU time instead of wall-clock time (on a loaded
 * machine, one thread: the time the product ran, not the time it waited);
 * -i one implementation only (axon_sgemm, axon_run, openblas; default all
 * that are built in: run.sh runs each in a process of its own, so that no
 * library's idle threads spin beside another's);
 * -p the threads of every implementation (omp_set_num_threads and
 * openblas_set_num_threads; default 1); each measurement calls the product
 * for at least -t seconds (default 0.2; -n: exactly CALLS calls), best of
 * -r repetitions (default 5).  Prints one line per shape and
 * implementation:
 *
 *     RESULT impl MxNxK threads GFLOP/s
 *
 * and checks every implementation's result against the first one's
 * (axon__sgemm): |x - y| <= 1e-5 * k * max|a| * max|b| + 1e-30 (exit 1 if
 * not; the operands are uniform in [-1, 1]).
 */
#define _POSIX_C_SOURCE 200112L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef BENCH_HEADER
/* the generated header, with run()'s definitions (and the runtime's) */
#define MM_IMPLEMENTATION
#include BENCH_HEADER
#else
#include "runtime/axon_runtime.h"
#include "runtime/kernels/kernels.h"
#include "runtime/kernels/types.h"
#include "runtime/kernels/tensor.c"
#endif
#include "runtime/fast/fast.h"
#ifndef AXON__FAST_GEMM_1   /* unless the header has the fast paths already */
#include "runtime/fast/gemm.c"
#endif

#ifdef BENCH_CBLAS
#include <cblas.h>
#endif

#include "../common/bench.h"

/* -c 1: the clock of the measurements */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct shape {
    int64_t m, n, k;
} shape;

typedef struct operands {
    shape s;
    float *a, *b, *c;
    void *scratch;
#ifdef BENCH_HEADER
    mm_mm_plan plan;
    void *ws;
#endif
} operands;

enum { IMPL_AXON, IMPL_RUN, IMPL_CBLAS, IMPL_COUNT };
static const char *const impl_name[IMPL_COUNT] = { "axon_sgemm", "axon_run", "openblas" };

static int have_impl(int impl)
{
    switch (impl) {
    case IMPL_AXON: return 1;
#ifdef BENCH_HEADER
    case IMPL_RUN: return 1;
#endif
#ifdef BENCH_CBLAS
    case IMPL_CBLAS: return 1;
#endif
    default: return 0;
    }
}

static void call(int impl, void *arg)
{
    operands *o = (operands *)arg;
    const shape s = o->s;
    switch (impl) {
    case IMPL_AXON:
        axon__sgemm(s.m, s.n, s.k, o->a, s.k, 1, o->b, s.n, 1, o->c, s.n, 1, 0, o->scratch);
        break;
#ifdef BENCH_HEADER
    case IMPL_RUN: {
        const void *in[2] = { o->a, o->b };
        void *out[1] = { o->c };
        if (mm_mm_run(&o->plan, in, out, o->ws, NULL) != AXON_OK) {
            fprintf(stderr, "bench: run() failed\n");
            exit(1);
        }
        break;
    }
#endif
#ifdef BENCH_CBLAS
    case IMPL_CBLAS:
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)s.m, (int)s.n, (int)s.k, 1.0f, o->a, (int)s.k,
                    o->b, (int)s.n, 0.0f, o->c, (int)s.n);
        break;
#endif
    default: break;
    }
}

static void set_threads(int p)
{
#ifdef _OPENMP
    omp_set_num_threads(p);
#endif
#ifdef BENCH_CBLAS
    openblas_set_num_threads(p);
#endif
    (void)p;
}

int main(int argc, char **argv)
{
    bench_opts op = bench_defaults();
    int i = bench_options(&op, "ptrnic", argc, argv), status = 0;
    const int threads = op.threads;
    const char *only = op.only;
    if (op.c)
        op.clock = cpu_now;
    if (i >= argc || threads < 1 || op.reps < 1) {
        fprintf(stderr, "usage: bench [-p THREADS] [-t SECONDS] [-r REPS] [-n CALLS] [-i IMPL] [-c 1] MxNxK...\n");
        return 2;
    }
    set_threads(threads);
#ifdef BENCH_CBLAS
    printf("openblas: %s, %d threads\n", openblas_get_corename(), threads);
#endif
    srand(1);
    for (; i < argc; i++) {
        operands o;
        float *ref = NULL;
        long long mm, nn, kk;
        if (sscanf(argv[i], "%lldx%lldx%lld", &mm, &nn, &kk) != 3 || mm < 1 || nn < 1 || kk < 1) {
            fprintf(stderr, "bench: bad shape %s (MxNxK)\n", argv[i]);
            return 2;
        }
        o.s.m = mm;
        o.s.n = nn;
        o.s.k = kk;
        o.a = (float *)xmalloc((size_t)(mm * kk) * sizeof(float));
        o.b = (float *)xmalloc((size_t)(kk * nn) * sizeof(float));
        o.c = (float *)xmalloc((size_t)(mm * nn) * sizeof(float));
        ref = (float *)xmalloc((size_t)(mm * nn) * sizeof(float));
        o.scratch = xmalloc((size_t)axon__gemm_scratch(mm, nn, kk));
        for (long long e = 0; e < mm * kk; e++)
            o.a[e] = 2.0f * (float)rand() / (float)RAND_MAX - 1.0f;
        for (long long e = 0; e < kk * nn; e++)
            o.b[e] = 2.0f * (float)rand() / (float)RAND_MAX - 1.0f;
#ifdef BENCH_HEADER
        {
            axon_shape in[2];
            axon_error err;
            in[0].rank = in[1].rank = 2;
            in[0].dims[0] = mm;
            in[0].dims[1] = kk;
            in[1].dims[0] = kk;
            in[1].dims[1] = nn;
            if (mm_mm_prepare(in, &o.plan, &err) != AXON_OK) {
                fprintf(stderr, "bench: prepare: %s\n", err.message);
                return 1;
            }
            o.ws = xmalloc((size_t)o.plan.workspace_bytes);
        }
#endif
        for (int impl = 0; impl < IMPL_COUNT; impl++) {
            double best, others;
            long calls;
            if (!have_impl(impl) || (only && strcmp(only, impl_name[impl]) && impl != IMPL_AXON))
                continue;
            /* warm up, and calibrate the calls per measurement */
            memset(o.c, 0xff, (size_t)(mm * nn) * sizeof(float));
            calls = bench_warmup(&op, call, impl, &o);
            if (impl == IMPL_AXON) {
                memcpy(ref, o.c, (size_t)(mm * nn) * sizeof(float));
                if (only && strcmp(only, impl_name[impl]))
                    continue;   /* only the reference of the check */
            } else {
                double bad = 0;
                for (long long e = 0; e < mm * nn; e++) {
                    double d = fabs((double)o.c[e] - (double)ref[e]);
                    if (!(d <= 1e-5 * (double)kk + 1e-30) && bad == 0) {
                        bad = 1;
                        fprintf(stderr, "bench: %s disagrees with axon_sgemm at %s, element %lld: %g vs %g\n",
                                impl_name[impl], argv[i], e, (double)o.c[e], (double)ref[e]);
                        status = 1;
                    }
                }
            }
            best = bench_best(&op, calls, call, impl, &o, &others);   /* others: not printed here */
            printf("RESULT %s %s %d %.2f\n", impl_name[impl], argv[i], threads,
                   2.0 * (double)mm * (double)nn * (double)kk / best * 1e-9);
            fflush(stdout);
        }
        free(o.a);
        free(o.b);
        free(o.c);
        free(ref);
        free(o.scratch);
#ifdef BENCH_HEADER
        free(o.ws);
#endif
    }
    return status;
}
