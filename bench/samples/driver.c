/* driver.c - one sample's generated run(), timed (bench/samples/run.sh;
 * bench/README.md, "Samples end to end").  Compiled once per sample and
 * thread setting, with the sample's header and its implementation in this
 * translation unit:
 *
 *   cc -std=c99 -O3 -march=native [-fopenmp] -DBENCH_F=attention_attention
 *      -DBENCH_HEADER='"attention.h"' -DATTENTION_IMPLEMENTATION
 *      -I<headers> driver.c -lm
 *
 * Usage: driver [-d DIR] [-i] [-t SECONDS] [-m MIN] [-r MAX] SHAPE...
 *   SHAPE    one per input, in parameter order: t:2,10,64 a tensor (t: a
 *            scalar; t:64,64*0.25 its values times 0.25), d:8 a dims
 *            value (no data)
 *   -d DIR   write the outputs to DIR/out<i>.<tag>.bin (raw, native float),
 *            and with -i the inputs to DIR/in<i>.bin; -g TAG (default "c")
 *   -t S     after the warm-up, time runs until S seconds of them (default
 *            1) and at least -m (default 3), at most -r (default 50)
 *
 * Every tensor input is filled with the samples' pseudo-random values
 * (run_sample.h's generator, seed 2026, one stream over the inputs in
 * order, uniform in [-0.5, 0.5), times the input's scale: bench.py gives
 * the weights 2 / sqrt(fan-in), PyTorch's default initialisation); the
 * outputs and the workspace are allocated from the plan (64-byte aligned).  Prints one line:
 *   ok workspace W temps T first S best S reps N outs <rank:d0,d1,..> ...
 * or "error ..." and exit 1.  Every tensor is f32 (the samples' type). */
#define _POSIX_C_SOURCE 200112L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include BENCH_HEADER
#include "../common/load.h"   /* now() */

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define F(x) CAT(BENCH_F, x)

static float sample_value(unsigned long *seed)
{
    *seed = (*seed * 1103515245UL + 12345UL) & 0x7fffffffUL;
    return (float)((long)(*seed >> 8) - (1L << 22)) / (float)(1L << 23);
}

static void *alloc64(int64_t bytes)
{
    void *p = NULL;
    size_t n = (size_t)(bytes > 0 ? bytes : 1);
    if (posix_memalign(&p, 64, (n + 63) / 64 * 64) != 0)
        return NULL;
    return p;
}

static int write_file(const char *dir, const char *name, const void *data, int64_t bytes)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || (bytes > 0 && fwrite(data, 1, (size_t)bytes, f) != (size_t)bytes)) {
        fprintf(stderr, "driver: cannot write %s\n", path);
        if (f)
            fclose(f);
        return 1;
    }
    return fclose(f) != 0;
}

/* "t:2,10,64" / "t:" / "t:256,256*0.125" / "d:8" into shape, *is_dims and
 * *scale (1 unless given after '*'). */
static int parse_shape(const char *s, axon_shape *shape, int *is_dims, float *scale)
{
    if ((s[0] != 't' && s[0] != 'd') || s[1] != ':')
        return 1;
    *is_dims = s[0] == 'd';
    *scale = 1.0f;
    shape->rank = 0;
    const char *p = s + 2;
    while (*p && *p != '*') {
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p || shape->rank >= AXON_MAX_RANK || (*end && *end != ',' && *end != '*'))
            return 1;
        shape->dims[shape->rank++] = (int64_t)v;
        p = *end == ',' ? end + 1 : end;
    }
    if (*p == '*') {
        char *end;
        *scale = strtof(p + 1, &end);
        if (end == p + 1 || *end)
            return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *tag = "c";
    int write_inputs = 0, min_reps = 3, max_reps = 50;
    double target = 1.0;
    int a = 1;
    for (; a < argc && argv[a][0] == '-'; a++) {
        if (!strcmp(argv[a], "-i"))
            write_inputs = 1;
        else if (a + 1 < argc && !strcmp(argv[a], "-d"))
            dir = argv[++a];
        else if (a + 1 < argc && !strcmp(argv[a], "-g"))
            tag = argv[++a];
        else if (a + 1 < argc && !strcmp(argv[a], "-t"))
            target = atof(argv[++a]);
        else if (a + 1 < argc && !strcmp(argv[a], "-m"))
            min_reps = atoi(argv[++a]);
        else if (a + 1 < argc && !strcmp(argv[a], "-r"))
            max_reps = atoi(argv[++a]);
        else {
            fprintf(stderr, "driver: unknown option %s\n", argv[a]);
            return 2;
        }
    }
    if (argc - a != F(_NUM_INPUTS)) {
        printf("error: %d shapes given, the function has %d inputs\n", argc - a, F(_NUM_INPUTS));
        return 2;
    }
    axon_shape in[F(_NUM_INPUTS)];
    int is_dims[F(_NUM_INPUTS)];
    float scale[F(_NUM_INPUTS)];
    for (int i = 0; i < F(_NUM_INPUTS); i++)
        if (parse_shape(argv[a + i], &in[i], &is_dims[i], &scale[i])) {
            printf("error: bad shape '%s'\n", argv[a + i]);
            return 2;
        }

    static F(_plan) plan;
    axon_error err;
    int st = F(_prepare)(in, &plan, &err);
    if (st != AXON_OK) {
        printf("error: prepare: %s: %s\n", axon_status_name(st), err.message);
        return 1;
    }

    const void *data[F(_NUM_INPUTS)];
    void *res[F(_NUM_OUTPUTS) > 0 ? F(_NUM_OUTPUTS) : 1];
    unsigned long seed = 2026UL;
    for (int i = 0; i < F(_NUM_INPUTS); i++) {
        data[i] = NULL;
        if (is_dims[i])
            continue;
        int64_t n = axon_elements(&in[i]);
        float *p = (float *)alloc64(n * (int64_t)sizeof(float));
        if (!p) {
            printf("error: out of memory for input %d\n", i);
            return 1;
        }
        for (int64_t k = 0; k < n; k++)
            p[k] = sample_value(&seed) * scale[i];
        data[i] = p;
        if (dir && write_inputs) {
            char name[64];
            snprintf(name, sizeof name, "in%d.bin", i);
            if (write_file(dir, name, p, n * (int64_t)sizeof(float)))
                return 1;
        }
    }
    for (int o = 0; o < F(_NUM_OUTPUTS); o++)
        if (!(res[o] = alloc64(plan.out_bytes[o]))) {
            printf("error: out of memory for output %d\n", o);
            return 1;
        }
    void *ws = alloc64(plan.workspace_bytes);
    if (!ws) {
        printf("error: out of memory for the workspace (%lld bytes)\n", (long long)plan.workspace_bytes);
        return 1;
    }

    /* The warm-up (it also faults the workspace and outputs in), then
     * timed runs: at least min_reps, until target seconds, at most max_reps. */
    double t0 = now();
    st = F(_run)(&plan, data, res, ws, &err);
    double first = now() - t0, best = -1, total = 0;
    if (st != AXON_OK) {
        printf("error: run: %s: %s\n", axon_status_name(st), err.message);
        return 1;
    }
    int reps = 0;
    while (reps < max_reps && (reps < min_reps || total < target)) {
        t0 = now();
        st = F(_run)(&plan, data, res, ws, &err);
        double t = now() - t0;
        if (st != AXON_OK) {
            printf("error: run: %s: %s\n", axon_status_name(st), err.message);
            return 1;
        }
        total += t;
        if (best < 0 || t < best)
            best = t;
        reps++;
    }
    if (reps == 0)
        best = first;

    if (dir)
        for (int o = 0; o < F(_NUM_OUTPUTS); o++) {
            char name[64];
            snprintf(name, sizeof name, "out%d.%s.bin", o, tag);
            if (write_file(dir, name, res[o], plan.out_bytes[o]))
                return 1;
        }

    double temps = 0;
    for (int t = 0; t < F(_NUM_TEMPS); t++)
        temps += (double)plan.tmp_bytes[t];
    printf("ok workspace %lld temps %.0f first %.6f best %.6f reps %d outs", (long long)plan.workspace_bytes, temps,
           first, best, reps);
    for (int o = 0; o < F(_NUM_OUTPUTS); o++) {
        printf(" %d:", plan.out[o].rank);
        for (int k = 0; k < plan.out[o].rank; k++)
            printf(k ? ",%lld" : "%lld", (long long)plan.out[o].dims[k]);
    }
    printf("\n");

    for (int i = 0; i < F(_NUM_INPUTS); i++)
        free((void *)data[i]);
    for (int o = 0; o < F(_NUM_OUTPUTS); o++)
        free(res[o]);
    free(ws);
    return 0;
}
