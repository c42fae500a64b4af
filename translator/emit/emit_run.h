/* emit_run.h - the part of the header that runs an exported function
 * (axon-spec.md section 9): P_NAME_run() over the lowered function
 * (lower.h, buffers.h), the shapes of every tensor it computes and the
 * workspace plan, filled by P_NAME_prepare(), and the kernels it calls
 * (runtime/kernels/, embedded: only those the header needs). */
#ifndef AXONC_EMIT_RUN_H
#define AXONC_EMIT_RUN_H

#include "emit.h"

/* What one function adds to the header for run(). */
typedef struct RunCode {
    const char *why;       /* NULL, or why run() is not available */
    int over_limit;        /* why: the compilation's node limit (lower.h) */
    Buf plan;              /* members of P_NAME_plan */
    Buf solve;             /* the shape function of its nodes (before prepare) */
    Buf prepare;           /* in P_NAME_prepare, after the counts */
    Buf decl;              /* P_NAME_run's declaration and comment */
    Buf impl;              /* its definition (the implementation part) */
    int uses_externs;
} RunCode;

/* The kernels a header needs, over all its functions. */
typedef struct RunKernels {
    unsigned char need[16][16];    /* [kernel file][element type] */
    unsigned char fast[5];         /* the fast f32 families run() calls (emit_run.c) */
    int any;               /* some function has run() */
    PtrVec externs;        /* Item*: the program's externs that a run() calls (an extern once per function that calls it) */
    struct LowerProgram *lp;   /* (made by the first emit_run) */
} RunKernels;

/* Makes run() of function b (cname: P_NAME), whose shape functions fc
 * describes.  Fills rc; rc->why says why not where it cannot. */
void emit_run(Compilation *cp, Binding *b, const char *cname, const char *prefix, const EmitOptions *opt,
              RunKernels *k, RunCode *rc);
/* The implementation part's shared text: the kernels the functions
 * need (once, for each element type), the spec helpers. */
void emit_run_kernels(Compilation *cp, const RunKernels *k, Buf *out);
/* Text needed before the first function when some function has run():
 * the kernels' interface and the workspace planner that prepare() calls;
 * and the externs' table type. */
void emit_run_shared(Compilation *cp, const RunKernels *k, const char *prefix, Buf *out);

#endif
