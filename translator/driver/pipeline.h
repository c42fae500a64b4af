/* pipeline.h - `axonc emit` after inference: for each exported function,
 * the stages in order (plan/fnplan: its shape plan; emit/emit_fn: its
 * shape function printed; lower/: the function as run() computes it;
 * plan/runplan: run()'s plan and kernels; emit/emit_run: run() printed),
 * then the header put together (emit/emit).  compile.h runs the stages
 * before (front/, infer/). */
#ifndef AXONC_PIPELINE_H
#define AXONC_PIPELINE_H

#include "compilation.h"

/* The choices of `axonc emit` that shape the header. */
typedef struct EmitOptions {
    const char *prefix;    /* P in P_NAME_shape; NULL: the file's stem */
    int elem_default;      /* ElemPrim for element variables; EL_VAR: refuse them */
    int no_run;            /* --no-run: shape functions only, no run() */
} EmitOptions;

/* Writes the header for a compiled program into out.  Returns 0, or 1 when
 * an error was reported (then out must not be used). */
int pipeline_header(Compilation *cp, const EmitOptions *opt, Buf *out);
/* `--format plan`: each exported function's run-time plan (plan.h) as
 * text, for reading and for tests of the plan solver; the same return. */
int pipeline_plans(Compilation *cp, const EmitOptions *opt, Buf *out);

#endif
