/* bench.c - the f32 convolution and pooling benchmark (bench/README.md,
 * "f32 convolution and pooling"): milliseconds per call of
 *   axon_kernel  the fast kernels called directly: axon__f_conv2d
 *                (runtime/fast/conv.c, its scratch from
 *                axon__f_conv2d_scratch) and axon__f_pool2d (pool.c), as
 *                tests/fast/conv_run.c calls them;
 *   axon_run     the generated header's run() of the function of
 *                bench/conv/conv.axon that does the same operator
 *                (prepare() once, then run() in its workspace);
 * on deterministic inputs, NCHW, batch 1.
 *
 *     bench [-p THREADS] [-t SECONDS] [-r REPS] [-n CALLS] [-i IMPL] [-d DIR] CASE@SIZE...
 *
 * CASE (the table below): conv3x3 (64 -> 64 channels, padding 1),
 * dw3x3 (144 channels, depthwise, padding 1), conv1x1 (64 -> 256),
 * maxpool and avgpool (2x2, stride 2, 64 channels); SIZE the input's
 * height and width (56: 56 x 56).  -i one implementation (axon_kernel or
 * axon_run; default both: run.sh runs each in a process of its own);
 * -p the threads (omp_set_num_threads; the build without -fopenmp has one);
 * each measurement calls the operator for at least -t seconds (default
 * 0.2; -n: exactly CALLS calls), best of -r repetitions (default 5).
 * Prints one line per case and implementation:
 *
 *     RESULT impl case size threads ms_per_call others
 *
 * others: the cores that other processes kept busy during the timed runs
 * (/proc/stat's busy time less this process's CPU time, over the wall
 * time; -1 when unknown or under 0.5 s): on this 2-core machine a
 * two-thread measurement beside a busy core is not a measurement.
 *
 * Checks: each implementation's output (after its first call) against the
 * portable reference kernel's (runtime/kernels/conv.c, pool.c: the
 * header's f32 instantiations, which sum in double), computed once per
 * case: max |out - ref| <= 1e-4 * max |ref| (exit 1 if not, with a line
 * saying DISAGREE; the reasons for 1e-4 are in bench/README.md).
 * -d DIR: the inputs (CASE_SIZE.x, CASE_SIZE.w) and each output
 * (CASE_SIZE.IMPL.THREADS.out), raw float32, for torch_conv.py to compare
 * with PyTorch.  BENCH_PERTURB=run (environment) adds 1e-3 * max|ref| to
 * one element of run()'s output before the check, so that the test can
 * see the check fail (tests/bench/conv.test).
 *
 * Built with -DBENCH_HEADER="conv.h" (the header of conv.axon, emitted by
 * run.sh); the fast kernels come from the header where it has them
 * already, else from runtime/fast/ (gemm.c, vec.c, conv.c, pool.c).
 */
#define _POSIX_C_SOURCE 200112L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef BENCH_HEADER
#error "build with -DBENCH_HEADER='\"conv.h\"' (bench/conv/run.sh does)"
#endif
/* the generated header, with run()'s definitions (and the reference
 * kernels' f32 instantiations, which the fast ones fall back to) */
#define CONV_IMPLEMENTATION
#include BENCH_HEADER
#include "runtime/fast/fast.h"
/* the fast kernels, unless the header has them already (each file's text
 * in a generated header is inside #ifndef AXON__FAST_<FILE>_1) */
#ifndef AXON__FAST_GEMM_1
#define AXON__FAST_GEMM_1
#include "runtime/fast/gemm.c"
#endif
#ifndef AXON__FAST_VEC_1
#define AXON__FAST_VEC_1
#include "runtime/fast/vec.c"
#endif
#ifndef AXON__FAST_CONV_1
#define AXON__FAST_CONV_1
#include "runtime/fast/conv.c"
#endif
#ifndef AXON__FAST_POOL_1
#define AXON__FAST_POOL_1
#include "runtime/fast/pool.c"
#endif

#include "../common/bench.h"

/* ---- the cases ------------------------------------------------------------ */

enum { OP_CONV, OP_MAXPOOL, OP_AVGPOOL };

typedef struct bcase {
    const char *name;
    int op;
    int64_t c, k, r, groups, pad, stride; /* in channels, out channels, window, groups, padding, stride */
} bcase;

static const bcase cases[] = {
    { "conv3x3", OP_CONV, 64, 64, 3, 1, 1, 1 },
    { "dw3x3", OP_CONV, 144, 144, 3, 144, 1, 1 },
    { "conv1x1", OP_CONV, 64, 256, 1, 1, 0, 1 },
    { "maxpool", OP_MAXPOOL, 64, 64, 2, 1, 0, 2 },
    { "avgpool", OP_AVGPOOL, 64, 64, 2, 1, 0, 2 },
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

enum { IMPL_KERNEL, IMPL_RUN, IMPL_COUNT };
static const char *const impl_name[IMPL_COUNT] = { "axon_kernel", "axon_run" };

typedef struct operands {
    const bcase *bc;
    int64_t size, oh;
    axon_shape xs, ws, os;
    float *x, *w, *out;
    void *scratch;
    /* run(): the plan of the case's function, its workspace */
    union {
        conv_conv3x3_plan conv3x3;
        conv_dw3x3_plan dw3x3;
        conv_conv1x1_plan conv1x1;
        conv_maxpool_plan maxpool;
        conv_avgpool_plan avgpool;
    } plan;
    void *ws_run;
} operands;

static int64_t numel(const axon_shape *s)
{
    int64_t n = 1;
    for (int i = 0; i < s->rank; i++)
        n *= s->dims[i];
    return n;
}

static axon_tensor dense(float *p, const axon_shape *s)
{
    axon_tensor t;
    axon__dense_view(p, 4, s, &t);
    return t;
}

/* A deterministic generator (a 64-bit LCG): uniform in [-a, a]. */
static uint64_t rng = 88172645463325252ull;
static float uniform(float a)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return a * (float)((double)(rng >> 40) / (double)(1ull << 23) - 1.0);
}

static int prepare_run(operands *o)
{
    axon_shape in[3];
    axon_error err;
    int st = AXON_OK;
    int64_t bytes = 0;
    in[0] = o->xs;
    in[1] = o->ws;
    switch (o->bc->op == OP_CONV ? (o->bc->groups > 1 ? 1 : o->bc->r == 1 ? 2 : 0) : o->bc->op == OP_MAXPOOL ? 3 : 4) {
    case 0:
        st = conv_conv3x3_prepare(in, &o->plan.conv3x3, &err);
        bytes = o->plan.conv3x3.workspace_bytes;
        break;
    case 1:
        in[2].rank = 1;   /* g : dims [c] */
        in[2].dims[0] = o->bc->groups;
        st = conv_dw3x3_prepare(in, &o->plan.dw3x3, &err);
        bytes = o->plan.dw3x3.workspace_bytes;
        break;
    case 2:
        st = conv_conv1x1_prepare(in, &o->plan.conv1x1, &err);
        bytes = o->plan.conv1x1.workspace_bytes;
        break;
    case 3:
        st = conv_maxpool_prepare(in, &o->plan.maxpool, &err);
        bytes = o->plan.maxpool.workspace_bytes;
        break;
    default:
        st = conv_avgpool_prepare(in, &o->plan.avgpool, &err);
        bytes = o->plan.avgpool.workspace_bytes;
        break;
    }
    if (st != AXON_OK) {
        fprintf(stderr, "bench: prepare (%s): %s\n", o->bc->name, err.message);
        return 1;
    }
    o->ws_run = xmalloc((size_t)bytes);
    return 0;
}

/* The fast kernel (ref = 0), or the reference kernel (runtime/kernels/,
 * its f32 instantiation in the header: sums in double) into dst. */
static void call_kernel(const operands *o, int ref, float *dst)
{
    const bcase *bc = o->bc;
    axon_tensor x = dense(o->x, &o->xs), out = dense(dst, &o->os);
    if (bc->op == OP_CONV) {
        axon_tensor w = dense(o->w, &o->ws);
        const int64_t s[2] = { bc->stride, bc->stride }, p[2] = { bc->pad, bc->pad }, d[2] = { 1, 1 };
        if (ref)
            axon__k_conv2d_f32(&x, &w, &out, s, p, d, bc->groups);
        else
            axon__f_conv2d(&x, &w, &out, s, p, d, bc->groups, o->scratch);
    } else {
        const int op = bc->op == OP_MAXPOOL ? AXON_RED_MAX : AXON_RED_MEAN;
        const int64_t win[2] = { bc->r, bc->r }, s[2] = { bc->stride, bc->stride }, p[2] = { bc->pad, bc->pad };
        if (ref)
            axon__k_pool2d_f32(op, &x, &out, win, s, p);
        else
            axon__f_pool2d(op, &x, &out, win, s, p);
    }
}

static void call(int impl, void *arg)
{
    operands *o = (operands *)arg;
    const bcase *bc = o->bc;
    if (impl == IMPL_KERNEL) {
        call_kernel(o, 0, o->out);
        return;
    }
    {
        const void *in[3] = { o->x, o->w, NULL };
        void *out[1] = { o->out };
        int st;
        switch (bc->op == OP_CONV ? (bc->groups > 1 ? 1 : bc->r == 1 ? 2 : 0) : bc->op == OP_MAXPOOL ? 3 : 4) {
        case 0: st = conv_conv3x3_run(&o->plan.conv3x3, in, out, o->ws_run, NULL); break;
        case 1: st = conv_dw3x3_run(&o->plan.dw3x3, in, out, o->ws_run, NULL); break;
        case 2: st = conv_conv1x1_run(&o->plan.conv1x1, in, out, o->ws_run, NULL); break;
        case 3: st = conv_maxpool_run(&o->plan.maxpool, in, out, o->ws_run, NULL); break;
        default: st = conv_avgpool_run(&o->plan.avgpool, in, out, o->ws_run, NULL); break;
        }
        if (st != AXON_OK) {
            fprintf(stderr, "bench: run() failed (%s)\n", bc->name);
            exit(1);
        }
    }
}

int main(int argc, char **argv)
{
    bench_opts op = bench_defaults();
    int i = bench_options(&op, "ptrnid", argc, argv), status = 0;
    const int threads = op.threads;
    const char *dir = op.dir, *perturb = getenv("BENCH_PERTURB");
    if (bench_start(&op, i, argc, 1,
                    "[-p THREADS] [-t SECONDS] [-r REPS] [-n CALLS] [-i IMPL] [-d DIR] CASE@SIZE..."))
        return 2;
    for (; i < argc; i++) {
        operands o;
        char cname[64];
        long long size;
        const bcase *bc = NULL;
        float *ref;
        double refmax;
        int64_t nx, nw, no;
        if (sscanf(argv[i], "%63[^@]@%lld", cname, &size) != 2 || size < 2) {
            fprintf(stderr, "bench: bad case %s (CASE@SIZE)\n", argv[i]);
            return 2;
        }
        for (int c = 0; c < NCASES; c++)
            if (!strcmp(cases[c].name, cname))
                bc = &cases[c];
        if (!bc) {
            fprintf(stderr, "bench: no case %s\n", cname);
            return 2;
        }
        memset(&o, 0, sizeof o);
        o.bc = bc;
        o.size = size;
        o.oh = (size + 2 * bc->pad - bc->r) / bc->stride + 1;
        o.xs = (axon_shape){ 4, { 1, bc->c, size, size } };
        o.ws = (axon_shape){ 4, { bc->k, bc->c / bc->groups, bc->r, bc->r } };
        o.os = (axon_shape){ 4, { 1, bc->k, o.oh, o.oh } };
        nx = numel(&o.xs);
        nw = bc->op == OP_CONV ? numel(&o.ws) : 0;
        no = numel(&o.os);
        o.x = (float *)xmalloc((size_t)nx * 4);
        o.w = (float *)xmalloc((size_t)(nw ? nw : 1) * 4);
        o.out = (float *)xmalloc((size_t)no * 4);
        ref = (float *)xmalloc((size_t)no * 4);
        rng = 88172645463325252ull + (uint64_t)size * 1000003u + (uint64_t)(bc - cases);
        for (int64_t e = 0; e < nx; e++)
            o.x[e] = uniform(1.0f);
        /* the weights as PyTorch initialises them: uniform in +-1/sqrt(fan_in) */
        for (int64_t e = 0; e < nw; e++)
            o.w[e] = uniform(1.0f / sqrtf((float)(bc->c / bc->groups * bc->r * bc->r)));
        if (bc->op == OP_CONV) {
            const int64_t s[2] = { bc->stride, bc->stride }, p[2] = { bc->pad, bc->pad }, d[2] = { 1, 1 };
            o.scratch = xmalloc((size_t)axon__f_conv2d_scratch(&o.xs, &o.ws, &o.os, s, p, d, bc->groups));
        }
        if (prepare_run(&o))
            return 1;
        if (dir) {
            char name[128];
            snprintf(name, sizeof name, "%s_%lld.x", cname, size);
            status |= write_file(dir, name, o.x, nx);
            if (nw) {
                snprintf(name, sizeof name, "%s_%lld.w", cname, size);
                status |= write_file(dir, name, o.w, nw);
            }
        }
        /* the reference of the checks: the portable kernel, once */
        call_kernel(&o, 1, ref);
        refmax = 0;
        for (int64_t e = 0; e < no; e++)
            refmax = fabs((double)ref[e]) > refmax ? fabs((double)ref[e]) : refmax;
        for (int impl = 0; impl < IMPL_COUNT; impl++) {
            double best, others;
            long calls;
            if (op.only && strcmp(op.only, impl_name[impl]))
                continue;
            /* warm up, and calibrate the calls per measurement */
            memset(o.out, 0xff, (size_t)no * 4);   /* NaN: a value not written shows */
            calls = bench_warmup(&op, call, impl, &o);
            if (impl == IMPL_RUN && perturb && !strcmp(perturb, "run"))
                o.out[no / 2] += (float)(1e-3 * refmax);
            if (dir) {
                char name[128];
                snprintf(name, sizeof name, "%s_%lld.%s.%d.out", cname, size, impl_name[impl], threads);
                status |= write_file(dir, name, o.out, no);
            }
            {
                double diff = 0;
                for (int64_t e = 0; e < no; e++) {
                    double d = fabs((double)o.out[e] - (double)ref[e]);
                    diff = d > diff || d != d ? d : diff;
                }
                if (!(diff <= 1e-4 * refmax)) {
                    printf("DISAGREE %s %s@%lld %d threads: max |out - reference kernel| = %g, max |reference| = %g (tolerance 1e-4 of it)\n",
                           impl_name[impl], cname, size, threads, diff, refmax);
                    status = 1;
                }
            }
            best = bench_best(&op, calls, call, impl, &o, &others);
            printf("RESULT %s %s %lld %d %.6g %.2f\n", impl_name[impl], cname, size, threads, best * 1e3, others);
            fflush(stdout);
        }
        free(o.x);
        free(o.w);
        free(o.out);
        free(ref);
        free(o.scratch);
        free(o.ws_run);
    }
    return status;
}
