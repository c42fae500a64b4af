/* fuzz_axonc.c - the libFuzzer target: one input is one Axon source, run
 * in process through what `axonc check` and `axonc emit` do (README.md).
 *
 *   1. as `axonc check`: parse, infer, print the signatures (into memory);
 *   2. as `axonc emit`: the same with the emitter's explanations kept, then
 *      the C header (into memory), prefix "fuzz", element type f32;
 *   3. as `axonc emit --format=dot`, when 2 compiled: the Graphviz graphs.
 *   4. as `axonc emit --format=plan`, likewise: every function's run-time plan.
 * Each is a fresh compilation, freed before the next (LeakSanitizer checks
 * that compile_free releases everything).
 *
 * An input may hold several files, for `import`: a line `//--- NAME`
 * starts the file NAME, and what comes before the first such line is the
 * main file, fuzz.axon (the markers are comments: each piece is Axon as
 * it stands).  The files live in memory only: compile_texts reads nothing
 * from the file system, so an `import "/etc/passwd"` finds nothing.  Diagnostics go to /dev/null, or
 * to stderr when AXONC_FUZZ_VERBOSE is set (to read what a reproducer does).
 *
 * Besides crashes, hangs and leaks, it aborts on two wrong results that
 * need no oracle: `check` and `emit` disagreeing on whether the program is
 * valid, and a header whose INT64_C() literal is out of range (C has no
 * literal for INT64_MIN).  A NUL byte in a signature or header aborts too.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "dot.h"
#include "pipeline.h"
#include "types.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int verbose;
static FILE *diag_sink;

static void fuzz_fail(const char *what)
{
    fprintf(stderr, "fuzz_axonc: %s\n", what);
    abort();
}

static FILE *diag_out(void)
{
    if (!diag_sink) {
        verbose = getenv("AXONC_FUZZ_VERBOSE") != NULL;
        diag_sink = verbose ? stderr : fopen("/dev/null", "w");
        if (!diag_sink)
            fuzz_fail("cannot open /dev/null");
    }
    return diag_sink;
}

/* An output: no NUL inside its length; shown when verbose. */
static void take_output(const char *what, const char *text, size_t n)
{
    if (memchr(text, 0, n))
        fuzz_fail("a NUL byte in the output");
    if (verbose)
        fprintf(stderr, "---- %s (%zu bytes)\n%.*s", what, n, (int)(n > 4096 ? 4096 : n), text);
}

/* Every INT64_C(v) in a header must have |v| <= INT64_MAX: the C literal
 * 9223372036854775808 does not fit int64_t, so INT64_C(-9223372036854775808)
 * is not valid C (-Werror rejects it). */
static void check_int64_literals(const char *h, size_t n)
{
    static const char tag[] = "INT64_C(";
    const char *end = h + n;
    for (const char *p = h; (p = strstr(p, tag)) != NULL && p < end; p++) {
        const char *d = p + sizeof tag - 1;
        if (*d == '-')
            d++;
        size_t len = strspn(d, "0123456789");
        if (len > 19 || (len == 19 && strncmp(d, "9223372036854775807", 19) > 0)) {
            fprintf(stderr, "fuzz_axonc: the header has %.*s\n", (int)(d + len - p + 1), p);
            fuzz_fail("an INT64_C literal out of range");
        }
    }
}

/* The files of one input (see the top): the main one and nfiles more. */
typedef struct Files {
    size_t main_len;
    int nfiles;
    char **names;           /* NUL-terminated copies */
    const char **texts;
    size_t *lens;
} Files;

static const char marker[] = "//--- ";

/* The start of the next marker line in [p, end), or end. */
static const char *next_marker(const char *p, const char *end, const char *start)
{
    for (; p < end; p++)
        if ((p == start || p[-1] == '\n') && (size_t)(end - p) >= sizeof marker - 1 &&
            memcmp(p, marker, sizeof marker - 1) == 0)
            return p;
    return end;
}

static void split_files(const char *text, size_t size, Files *f)
{
    const char *end = text + size;
    const char *m = next_marker(text, end, text);
    memset(f, 0, sizeof *f);
    f->main_len = (size_t)(m - text);
    for (const char *p = m; p < end; p = next_marker(p + 1, end, text))
        f->nfiles++;
    if (!f->nfiles)
        return;
    f->names = calloc((size_t)f->nfiles, sizeof *f->names);
    f->texts = calloc((size_t)f->nfiles, sizeof *f->texts);
    f->lens = calloc((size_t)f->nfiles, sizeof *f->lens);
    if (!f->names || !f->texts || !f->lens)
        fuzz_fail("out of memory");
    int i = 0;
    for (const char *p = m; p < end; i++) {
        const char *name = p + sizeof marker - 1;
        const char *eol = memchr(name, '\n', (size_t)(end - name));
        const char *body = eol ? eol + 1 : end;
        size_t n = (size_t)((eol ? eol : end) - name);
        f->names[i] = malloc(n + 1);
        if (!f->names[i])
            fuzz_fail("out of memory");
        memcpy(f->names[i], name, n);
        f->names[i][n] = 0;
        p = next_marker(body, end, text);
        f->texts[i] = body;
        f->lens[i] = (size_t)(p - body);
    }
}

static void free_files(Files *f)
{
    for (int i = 0; i < f->nfiles; i++)
        free(f->names[i]);
    free(f->names);
    free((void *)f->texts);
    free(f->lens);
}

static int compile_input(Compilation *cp, const char *text, const Files *f, FILE *diag, int explain)
{
    return compile_texts(cp, "fuzz.axon", text, f->main_len, f->nfiles, (const char *const *)f->names, f->texts,
                         f->lens, diag, explain);
}

static void one_input(const char *text, const Files *files);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Files files;
    split_files((const char *)data, size, &files);
    one_input((const char *)data, &files);
    free_files(&files);
    return 0;
}

static void one_input(const char *text, const Files *files)
{
    FILE *diag = diag_out();
    Compilation cp;

    /* 1. axonc check */
    int rc_check = compile_input(&cp, text, files, diag, 0);
    if (rc_check == 0) {
        const char *sigs = compile_signatures(&cp);
        if (sigs)
            take_output("signatures", sigs, strlen(sigs));
    }
    compile_free(&cp);

    /* 2. axonc emit */
    int rc_emit = compile_input(&cp, text, files, diag, 1);
    if ((rc_check == 0) != (rc_emit == 0))
        fuzz_fail(rc_check == 0 ? "check accepts the program but emit rejects it"
                                : "emit accepts the program but check rejects it");
    if (rc_emit == 0) {
        EmitOptions opt = { NULL, EL_F32, 0 };
        Buf header;
        buf_init(&header, &cp.arena);
        if (pipeline_header(&cp, &opt, &header) == 0) {
            take_output("header", buf_str(&header), header.n);
            check_int64_literals(buf_str(&header), header.n);
        }
    }
    compile_free(&cp);
    if (rc_emit != 0)
        return;

    /* 3. axonc emit --format=dot */
    if (compile_input(&cp, text, files, diag, 1) == 0) {
        Buf graph;
        buf_init(&graph, &cp.arena);
        dot_program(&cp, &graph);
        take_output("graph", buf_str(&graph), graph.n);
    }
    compile_free(&cp);

    /* 4. axonc emit --format=plan */
    if (compile_input(&cp, text, files, diag, 1) == 0) {
        EmitOptions opt = { NULL, EL_F32, 0 };
        Buf plans;
        buf_init(&plans, &cp.arena);
        if (pipeline_plans(&cp, &opt, &plans) == 0)
            take_output("plans", buf_str(&plans), plans.n);
    }
    compile_free(&cp);
}
