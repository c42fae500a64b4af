/* emit_run.h - the part of the header that runs an exported function
 * (axon-spec.md section 9), printed from its run plan (runplan.h):
 * P_NAME_run(), the shapes of every tensor it computes and the workspace
 * plan, filled by P_NAME_prepare(), and the kernels it calls
 * (runtime/kernels/, embedded: only those the header needs). */
#ifndef AXONC_EMIT_RUN_H
#define AXONC_EMIT_RUN_H

#include "emit_fn.h"
#include "runplan.h"

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

/* Prints run() of function b (cname: P_NAME) from its plan rp; rfc is the
 * shape function of its nodes (P_NAME__r), dfc the same after a nonzero
 * (P_NAME__rd), where rp has nonzeros. */
void emit_run(Compilation *cp, Binding *b, const char *cname, const char *prefix, RunPlan *rp, FnCode *rfc,
              FnCode *dfc, RunCode *rc);
#endif
