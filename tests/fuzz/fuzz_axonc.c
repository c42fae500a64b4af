/* fuzz_axonc.c - the libFuzzer target: one input is one Axon source, run
 * in process through what `axonc check` and `axonc emit` do (README.md).
 *
 *   1. as `axonc check`: parse, infer, print the signatures (into memory);
 *   2. as `axonc emit`: the same with the emitter's explanations kept, then
 *      the C header (into memory), prefix "fuzz", element type f32;
 *   3. as `axonc emit --format=dot`, when 2 compiled: the Graphviz graphs.
 *   4. as `axonc emit --format=plan`, likewise: every function's run-time plan.
 * Each is a fresh compilation, freed before the next (LeakSanitizer checks
 * that compile_free releases everything).  Diagnostics go to /dev/null, or
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
#include "emit.h"
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char name[] = "fuzz.axon";
    const char *text = (const char *)data;
    FILE *diag = diag_out();
    Compilation cp;

    /* 1. axonc check */
    int rc_check = compile_text(&cp, name, text, size, diag, 0);
    if (rc_check == 0) {
        const char *sigs = compile_signatures(&cp);
        if (sigs)
            take_output("signatures", sigs, strlen(sigs));
    }
    compile_free(&cp);

    /* 2. axonc emit */
    int rc_emit = compile_text(&cp, name, text, size, diag, 1);
    if ((rc_check == 0) != (rc_emit == 0))
        fuzz_fail(rc_check == 0 ? "check accepts the program but emit rejects it"
                                : "emit accepts the program but check rejects it");
    if (rc_emit == 0) {
        EmitOptions opt = { NULL, EL_F32, 0 };
        Buf header;
        buf_init(&header, &cp.arena);
        if (emit_header(&cp, &opt, &header) == 0) {
            take_output("header", buf_str(&header), header.n);
            check_int64_literals(buf_str(&header), header.n);
        }
    }
    compile_free(&cp);
    if (rc_emit != 0)
        return 0;

    /* 3. axonc emit --format=dot */
    if (compile_text(&cp, name, text, size, diag, 1) == 0) {
        Buf graph;
        buf_init(&graph, &cp.arena);
        dot_program(&cp, &graph);
        take_output("graph", buf_str(&graph), graph.n);
    }
    compile_free(&cp);

    /* 4. axonc emit --format=plan */
    if (compile_text(&cp, name, text, size, diag, 1) == 0) {
        EmitOptions opt = { NULL, EL_F32, 0 };
        Buf plans;
        buf_init(&plans, &cp.arena);
        if (emit_plans(&cp, &opt, &plans) == 0)
            take_output("plans", buf_str(&plans), plans.n);
    }
    compile_free(&cp);
    return 0;
}
