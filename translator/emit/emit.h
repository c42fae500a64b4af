/* emit.h - `axonc emit`: the self-contained C/CUDA header (axon-spec.md
 * section 8).  emit.c assembles the header from the embedded templates and
 * runtime; emit_fn.c plans and writes one function's shape checks. */
#ifndef AXONC_EMIT_H
#define AXONC_EMIT_H

#include "compilation.h"
#include "scratch.h"

/* The most tensors (inputs, outputs and named intermediates together) of
 * an exported function; a function with more is left out, with a warning. */
#define EMIT_MAX_TENSORS 65536

typedef struct EmitOptions {
    const char *prefix;    /* P in P_NAME_shape; NULL: the file's stem */
    int elem_default;      /* ElemPrim for element variables; EL_VAR: refuse them */
    int plans;             /* FnCode.plan: the run-time plan as text */
    int no_run;            /* --no-run: shape functions only, no run() */
    const PtrVec *dyn_known;   /* DVar*: with run_nodes, sizes known as dyn[k] */
    const PtrVec *run_nodes;   /* PTensor*: emit_function writes, in place of
                            * the named intermediates, these shapes (the
                            * nodes of run(): emit_run.c), and on failure
                            * warns nothing (FnCode.why says why) */
} EmitOptions;

/* Writes the header for a compiled program into out.  Returns 0, or 1 when
 * an error was reported (then out must not be used). */
int emit_header(Compilation *cp, const EmitOptions *opt, Buf *out);
/* `--format plan`: each exported function's run-time plan (plan.h) as
 * text, for reading and for tests of the plan solver; the same return. */
int emit_plans(Compilation *cp, const EmitOptions *opt, Buf *out);

/* One exported function's generated pieces (emit_fn.c). */
typedef struct FnCode {
    const char *doc;        /* comment lines: the signature and notes */
    int ninputs, noutputs, ntemps;
    Buf dims;               /* the members of P_NAME_dims */
    Buf body;               /* the body of P_NAME_solve */
    Buf counts;             /* the element/byte counts in P_NAME_prepare */
    Buf temp_names;         /* the cases of P_NAME_temp_name */
    Buf indices;            /* #define P_NAME_IN_x 0 ..., OUT_0, TMP_scores */
    Buf plan;               /* EmitOptions.plans: the plan, a step a line */
    PtrVec names;           /* the index constants' names (emit.c claims
                             * them: cnames.h) */
    const char *why;        /* EmitOptions.run_nodes: why it failed */
    int bounded;            /* every size bounded (spec 8b): temp_max holds */
    const int64_t *temp_max;    /* the largest element count of each intermediate */
    const ScratchShape *temp_dims_max;  /* and of each axis (rank -1: unbounded) */
} FnCode;

/* A template into out: each line marked with markers[i] replaced by
 * texts[i], axon_tmpl_/AXON_TMPL_ by lower (emit_run.c's use). */
void emit_template_into(Buf *out, const char *tmpl, const char *const *markers, const char *const *texts, int n,
                        const char *lower);

/* Plans the checks of one top-level function.  Returns 0 and fills fc; or
 * 1 when the function cannot be exported (a warning was printed). */
int emit_function(Compilation *cp, Binding *b, const char *cname, const EmitOptions *opt, FnCode *fc);

#endif
