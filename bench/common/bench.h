/* bench.h - what the C benchmark drivers bench/conv, bench/eltwise and
 * bench/gemm (bench.c in each) share: their common options (-p THREADS,
 * -t SECONDS, -r REPS, -n CALLS, -i IMPL, -d DIR, -c N), aligned
 * allocation, raw float32 files for the PyTorch side to compare, the
 * OpenMP thread count, and the timing: one timed warm-up call that sets
 * the calls per measurement, then the best of REPS measurements, with the
 * cores other processes kept busy meanwhile (load.h).  Static functions:
 * include it once, after defining _POSIX_C_SOURCE 200112L (posix_memalign,
 * clock_gettime, getrusage). */
#ifndef BENCH_COMMON_BENCH_H
#define BENCH_COMMON_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "load.h"

typedef struct bench_opts {
    int threads;          /* -p: omp_set_num_threads (default 1) */
    double secs;          /* -t: seconds a measurement lasts at least (default 0.2) */
    int reps;             /* -r: measurements, the best kept (default 5) */
    long calls;           /* -n: calls per measurement, or 0: enough for -t */
    const char *only;     /* -i: one implementation, or NULL: all */
    const char *dir;      /* -d: where the inputs and outputs go, or NULL */
    long c;               /* -c: the driver's own number (eltwise: columns; gemm: 1 for CPU time) */
    double (*clock)(void); /* what the measurements read: now(), or the driver's */
} bench_opts;

static inline bench_opts bench_defaults(void)
{
    bench_opts op = { 1, 0.2, 5, 0, NULL, NULL, 0, now };
    return op;
}

/* Reads the options of `accept` (letters of "ptrnidc"), each followed by
 * its value, from argv[1]; returns the index of the first other argument
 * (the operands; an unknown option among them is the driver's to refuse). */
static inline int bench_options(bench_opts *op, const char *accept, int argc, char **argv)
{
    int i = 1;
    for (; i + 1 < argc; i += 2) {
        const char *o = argv[i], *v = argv[i + 1];
        if (o[0] != '-' || !o[1] || o[2] || !strchr(accept, o[1]))
            break;
        switch (o[1]) {
        case 'p': op->threads = atoi(v); break;
        case 't': op->secs = atof(v); break;
        case 'r': op->reps = atoi(v); break;
        case 'n': op->calls = atol(v); break;
        case 'i': op->only = v; break;
        case 'd': op->dir = v; break;
        default: op->c = atol(v); break;
        }
    }
    return i;
}

/* The command line's check, from bench_options's i, and the threads: 0
 * where there are operands, threads and reps are at least 1 and the
 * driver's own condition ok holds, after omp_set_num_threads(threads);
 * else 2, after the line "usage: bench USAGE", or a line saying that a
 * build without -fopenmp has one thread only. */
static inline int bench_start(const bench_opts *op, int i, int argc, int ok, const char *usage)
{
    if (i >= argc || op->threads < 1 || op->reps < 1 || !ok) {
        fprintf(stderr, "usage: bench %s\n", usage);
        return 2;
    }
#ifdef _OPENMP
    omp_set_num_threads(op->threads);
#else
    if (op->threads > 1) {
        fprintf(stderr, "bench: built without -fopenmp: one thread only\n");
        return 2;
    }
#endif
    return 0;
}

/* n bytes (at least 64) aligned to 64; exit 2 when there are none. */
static inline void *xmalloc(size_t n)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, n ? n : 64) != 0) {
        fprintf(stderr, "bench: out of memory\n");
        exit(2);
    }
    return p;
}

/* n floats into DIR/NAME, raw; 1, with a message, when it cannot. */
static inline int write_file(const char *dir, const char *name, const float *p, int64_t n)
{
    char path[1024];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (!f || fwrite(p, sizeof(float), (size_t)n, f) != (size_t)n || fclose(f) != 0) {
        fprintf(stderr, "bench: cannot write %s\n", path);
        return 1;
    }
    return 0;
}

/* What is timed: implementation impl on the driver's operands (arg). */
typedef void (*bench_call)(int impl, void *arg);

/* The warm-up: one call, timed; returns the calls per measurement, -n's,
 * else enough for -t seconds (at least 1; 1000 where the call took no
 * measurable time). */
static inline long bench_warmup(const bench_opts *op, bench_call call, int impl, void *arg)
{
    double t0 = op->clock(), t;
    long calls;
    call(impl, arg);
    t = op->clock() - t0;
    if (op->calls > 0)
        return op->calls;
    calls = t > 0 ? (long)(op->secs / t) + 1 : 1000;
    return calls < 1 ? 1 : calls;
}

/* The best seconds per call over op->reps measurements of `calls` calls
 * each; *others: the cores other processes kept busy meanwhile
 * (others_load: -1 where unknown). */
static inline double bench_best(const bench_opts *op, long calls, bench_call call, int impl, void *arg,
                                double *others)
{
    const double busy0 = machine_busy(), own0 = own_cpu(), wall0 = now();
    double best = 1e300;
    for (int r = 0; r < op->reps; r++) {
        double t0 = op->clock(), t;
        for (long c = 0; c < calls; c++)
            call(impl, arg);
        t = (op->clock() - t0) / (double)calls;
        best = t < best ? t : best;
    }
    *others = others_load(busy0, own0, wall0);
    return best;
}

#endif
