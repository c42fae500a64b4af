/* bench.c - the bandwidth benchmark (bench/README.md, "Element-wise
 * chains, softmax, layernorm: bandwidth"): milliseconds per call of a
 * generated header's run() of the functions of bench/eltwise/eltwise.axon
 * (biasrelu, expnorm, rowsoftmax, rowlayernorm) on x : f32 [rows, cols],
 * and of memcpy of the same bytes (x into y), on deterministic inputs.
 *
 *     bench [-p THREADS] [-t SECONDS] [-r REPS] [-n CALLS] [-i IMPL] [-c COLS] [-d DIR] SIZE...
 *
 * SIZE: x's bytes, with K or M (binary: 256K, 16M, 64M); rows = SIZE / 4 /
 * COLS (-c, default 1024).  IMPL (-i; default all): memcpy, biasrelu,
 * expnorm, softmax, layernorm.  -p the threads (omp_set_num_threads: run()
 * uses what its kernels use; memcpy is split into THREADS equal parts
 * under OpenMP); each measurement calls for at least -t seconds (default
 * 0.2; -n: exactly CALLS calls), best of -r repetitions (default 5).  One
 * line per size and implementation:
 *
 *     RESULT impl SIZE threads ms_per_call others
 *
 * others: the cores that other processes kept busy during the timed runs
 * (/proc/stat's busy time less this process's CPU time, over the wall
 * time; -1 when unknown or under 0.5 s): on this 2-core machine a
 * two-thread measurement beside a busy core is not a measurement.
 *
 * Checks (after the first call): each output against a float64
 * computation of the same formula here (PyTorch's meaning: layernorm's
 * biased variance, epsilon 1e-5 inside the square root), max |out - ref|
 * <= 1e-4 * max |ref| (bench/README.md says why), memcpy's bytes equal;
 * a line DISAGREE and exit 1 if not.  -d DIR: for sizes up to 1 MiB, the
 * inputs (SIZE.x, .a, .b, .m, .s, .g; raw float32) and each output
 * (SIZE.IMPL.THREADS.out), which torch_eltwise.py compares with PyTorch's.
 * BENCH_PERTURB=run (environment) adds 1e-3 * max |ref| to one element of
 * each run() output before the check (the test's liveness check).
 *
 * Built with -DBENCH_HEADER="eltwise.h" (run.sh emits it); the fast
 * softmax and layernorm come from the header where it has them.
 */
#define _POSIX_C_SOURCE 200112L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef BENCH_HEADER
#error "build with -DBENCH_HEADER='\"eltwise.h\"' (bench/eltwise/run.sh does)"
#endif
#define ELTWISE_IMPLEMENTATION
#include BENCH_HEADER

#include "../common/bench.h"

enum { IMPL_MEMCPY, IMPL_BIASRELU, IMPL_EXPNORM, IMPL_SOFTMAX, IMPL_LAYERNORM, IMPL_COUNT };
static const char *const impl_name[IMPL_COUNT] = { "memcpy", "biasrelu", "expnorm", "softmax", "layernorm" };

typedef struct operands {
    int64_t rows, cols, n;
    float *x, *y, *a, *b, *m, *s, *g;   /* a, b: [cols]; m, s: [rows]; g and b for layernorm */
    eltwise_biasrelu_plan p_biasrelu;
    eltwise_expnorm_plan p_expnorm;
    eltwise_rowsoftmax_plan p_softmax;
    eltwise_rowlayernorm_plan p_layernorm;
    void *ws;
    int threads;
} operands;

static uint64_t rng = 88172645463325252ull;
static float uniform(float lo, float hi)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (float)((double)(rng >> 40) / (double)(1ull << 24));
}

static void do_memcpy(operands *o)
{
    const size_t bytes = (size_t)o->n * 4;
#ifdef _OPENMP
    if (o->threads > 1) {
        const int nt = o->threads;
#pragma omp parallel num_threads(nt)
        {
            const size_t t = (size_t)omp_get_thread_num();
            /* parts of whole 64-byte lines */
            const size_t lines = (bytes + 63) / 64, l0 = lines * t / (size_t)nt, l1 = lines * (t + 1) / (size_t)nt;
            const size_t b0 = l0 * 64, b1 = l1 * 64 < bytes ? l1 * 64 : bytes;
            if (b1 > b0)
                memcpy((char *)o->y + b0, (const char *)o->x + b0, b1 - b0);
        }
        return;
    }
#endif
    memcpy(o->y, o->x, bytes);
}

static void call(int impl, void *arg)
{
    operands *o = (operands *)arg;
    void *out[1] = { o->y };
    int st = AXON_OK;
    switch (impl) {
    case IMPL_MEMCPY:
        do_memcpy(o);
        return;
    case IMPL_BIASRELU: {
        const void *in[3] = { o->x, o->a, o->b };
        st = eltwise_biasrelu_run(&o->p_biasrelu, in, out, o->ws, NULL);
        break;
    }
    case IMPL_EXPNORM: {
        const void *in[3] = { o->x, o->m, o->s };
        st = eltwise_expnorm_run(&o->p_expnorm, in, out, o->ws, NULL);
        break;
    }
    case IMPL_SOFTMAX: {
        const void *in[1] = { o->x };
        st = eltwise_rowsoftmax_run(&o->p_softmax, in, out, o->ws, NULL);
        break;
    }
    default: {
        const void *in[3] = { o->x, o->g, o->b };
        st = eltwise_rowlayernorm_run(&o->p_layernorm, in, out, o->ws, NULL);
        break;
    }
    }
    if (st != AXON_OK) {
        fprintf(stderr, "bench: run() of %s failed\n", impl_name[impl]);
        exit(1);
    }
}

/* The float64 reference of row i into ref[0 .. cols). */
static void reference(int impl, const operands *o, int64_t i, double *ref)
{
    const int64_t c = o->cols;
    const float *x = o->x + i * c;
    switch (impl) {
    case IMPL_MEMCPY:
        for (int64_t j = 0; j < c; j++)
            ref[j] = x[j];
        break;
    case IMPL_BIASRELU:
        for (int64_t j = 0; j < c; j++) {
            const double v = (double)x[j] * o->a[j] + o->b[j];
            ref[j] = v > 0 ? v : 0;
        }
        break;
    case IMPL_EXPNORM:
        for (int64_t j = 0; j < c; j++)
            ref[j] = exp((double)x[j] - o->m[i]) / o->s[i];
        break;
    case IMPL_SOFTMAX: {
        double mx = -INFINITY, sum = 0;
        for (int64_t j = 0; j < c; j++)
            mx = x[j] > mx ? x[j] : mx;
        for (int64_t j = 0; j < c; j++)
            sum += exp((double)x[j] - mx);
        for (int64_t j = 0; j < c; j++)
            ref[j] = exp((double)x[j] - mx) / sum;
        break;
    }
    default: {
        double mean = 0, var = 0;
        for (int64_t j = 0; j < c; j++)
            mean += x[j];
        mean /= (double)c;
        for (int64_t j = 0; j < c; j++)
            var += ((double)x[j] - mean) * ((double)x[j] - mean);
        var /= (double)c;
        for (int64_t j = 0; j < c; j++)
            ref[j] = ((double)x[j] - mean) / sqrt(var + 1e-5) * o->g[j] + o->b[j];
        break;
    }
    }
}

int main(int argc, char **argv)
{
    bench_opts op = bench_defaults();
    int i, status = 0;
    int64_t cols;
    const char *dir, *perturb = getenv("BENCH_PERTURB");
    int threads;
    op.c = 1024;   /* -c COLS */
    i = bench_options(&op, "ptrnicd", argc, argv);
    threads = op.threads;
    cols = op.c;
    dir = op.dir;
    if (bench_start(&op, i, argc, cols >= 1,
                    "[-p THREADS] [-t SECONDS] [-r REPS] [-n CALLS] [-i IMPL] [-c COLS] [-d DIR] SIZE..."))
        return 2;
    for (; i < argc; i++) {
        operands o;
        char *end;
        double *ref;
        int64_t bytes = strtoll(argv[i], &end, 10);
        axon_shape in[3];
        axon_error err;
        int64_t wsb = 0;
        if (*end == 'K' || *end == 'k')
            bytes <<= 10, end++;
        else if (*end == 'M' || *end == 'm')
            bytes <<= 20, end++;
        if (*end || bytes < 4 * cols) {
            fprintf(stderr, "bench: bad size %s (bytes, K or M; at least one row of %lld floats)\n", argv[i],
                    (long long)cols);
            return 2;
        }
        memset(&o, 0, sizeof o);
        o.threads = threads;
        o.cols = cols;
        o.rows = bytes / 4 / cols;
        o.n = o.rows * cols;
        o.x = (float *)xmalloc((size_t)o.n * 4);
        o.y = (float *)xmalloc((size_t)o.n * 4);
        o.a = (float *)xmalloc((size_t)cols * 4);
        o.b = (float *)xmalloc((size_t)cols * 4);
        o.g = (float *)xmalloc((size_t)cols * 4);
        o.m = (float *)xmalloc((size_t)o.rows * 4);
        o.s = (float *)xmalloc((size_t)o.rows * 4);
        ref = (double *)xmalloc((size_t)cols * 8);
        rng = 88172645463325252ull + (uint64_t)bytes;
        for (int64_t e = 0; e < o.n; e++)
            o.x[e] = uniform(-4.0f, 4.0f);
        for (int64_t j = 0; j < cols; j++) {
            o.a[j] = uniform(0.5f, 1.5f);
            o.b[j] = uniform(-0.5f, 0.5f);
            o.g[j] = uniform(0.5f, 1.5f);
        }
        for (int64_t r = 0; r < o.rows; r++) {   /* m: the row's maximum, s: its sum of exp(x - m) */
            double mx = -INFINITY, sum = 0;
            for (int64_t j = 0; j < cols; j++)
                mx = o.x[r * cols + j] > mx ? o.x[r * cols + j] : mx;
            for (int64_t j = 0; j < cols; j++)
                sum += exp((double)o.x[r * cols + j] - mx);
            o.m[r] = (float)mx;
            o.s[r] = (float)sum;
        }
        /* prepare() of every function; one workspace for the largest */
        in[0] = (axon_shape){ 2, { o.rows, cols } };
        in[1] = (axon_shape){ 1, { cols } };
        in[2] = (axon_shape){ 1, { cols } };
        if (eltwise_biasrelu_prepare(in, &o.p_biasrelu, &err) != AXON_OK ||
            eltwise_rowlayernorm_prepare(in, &o.p_layernorm, &err) != AXON_OK ||
            eltwise_rowsoftmax_prepare(in, &o.p_softmax, &err) != AXON_OK) {
            fprintf(stderr, "bench: prepare: %s\n", err.message);
            return 1;
        }
        in[1] = (axon_shape){ 2, { o.rows, 1 } };
        in[2] = (axon_shape){ 2, { o.rows, 1 } };
        if (eltwise_expnorm_prepare(in, &o.p_expnorm, &err) != AXON_OK) {
            fprintf(stderr, "bench: prepare: %s\n", err.message);
            return 1;
        }
        wsb = o.p_biasrelu.workspace_bytes;
        wsb = o.p_expnorm.workspace_bytes > wsb ? o.p_expnorm.workspace_bytes : wsb;
        wsb = o.p_softmax.workspace_bytes > wsb ? o.p_softmax.workspace_bytes : wsb;
        wsb = o.p_layernorm.workspace_bytes > wsb ? o.p_layernorm.workspace_bytes : wsb;
        o.ws = xmalloc((size_t)wsb);
        if (dir && bytes <= (1 << 20)) {
            char name[128];
            const char *const nm[6] = { "x", "a", "b", "m", "s", "g" };
            const float *const pp[6] = { o.x, o.a, o.b, o.m, o.s, o.g };
            const int64_t nn[6] = { o.n, cols, cols, o.rows, o.rows, cols };
            for (int k = 0; k < 6; k++) {
                snprintf(name, sizeof name, "%s.%s", argv[i], nm[k]);
                status |= write_file(dir, name, pp[k], nn[k]);
            }
        }
        for (int impl = 0; impl < IMPL_COUNT; impl++) {
            double best, others, mx = 0, diff = 0;
            long calls;
            if (op.only && strcmp(op.only, impl_name[impl]))
                continue;
            memset(o.y, 0xff, (size_t)o.n * 4);   /* NaN: a value not written shows */
            calls = bench_warmup(&op, call, impl, &o);
            for (int64_t r = 0; r < o.rows; r++) {
                reference(impl, &o, r, ref);
                for (int64_t j = 0; j < cols; j++)
                    mx = fabs(ref[j]) > mx ? fabs(ref[j]) : mx;
            }
            if (impl != IMPL_MEMCPY && perturb && !strcmp(perturb, "run"))
                o.y[o.n / 2] += (float)(1e-3 * mx);
            for (int64_t r = 0; r < o.rows; r++) {
                reference(impl, &o, r, ref);
                for (int64_t j = 0; j < cols; j++) {
                    const double d = fabs((double)o.y[r * cols + j] - ref[j]);
                    diff = d > diff || d != d ? d : diff;
                }
            }
            if (impl == IMPL_MEMCPY ? memcmp(o.x, o.y, (size_t)o.n * 4) != 0 : !(diff <= 1e-4 * mx)) {
                printf("DISAGREE %s %s %d threads: max |out - float64 reference| = %g, max |reference| = %g (tolerance 1e-4 of it)\n",
                       impl_name[impl], argv[i], threads, diff, mx);
                status = 1;
            }
            if (dir && bytes <= (1 << 20) && impl != IMPL_MEMCPY) {
                char name[128];
                snprintf(name, sizeof name, "%s.%s.%d.out", argv[i], impl_name[impl], threads);
                status |= write_file(dir, name, o.y, o.n);
            }
            best = bench_best(&op, calls, call, impl, &o, &others);
            printf("RESULT %s %s %d %.6g %.2f\n", impl_name[impl], argv[i], threads, best * 1e3, others);
            fflush(stdout);
        }
        free(o.x);
        free(o.y);
        free(o.a);
        free(o.b);
        free(o.g);
        free(o.m);
        free(o.s);
        free(o.ws);
        free(ref);
    }
    return status;
}
