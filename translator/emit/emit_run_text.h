/* emit_run_text.h - what the files that print run() share (emit_run.c,
 * emit_ops.c, emit_fused.c): the writer's state, lines of code, views of
 * nodes, prepare()'s expressions, the sites of data errors. */
#ifndef AXONC_EMIT_RUN_TEXT_H
#define AXONC_EMIT_RUN_TEXT_H

#include "runplan.h"

typedef struct R {
    Compilation *cp;
    Ctx *c;
    Arena *a;
    RunPlan *rp;           /* what is printed */
    LFunc *f;              /* (rp's) */
    RunLayout *L;
    const char *cname;
    const char *file;
    Buf *out;
    int indent;
    int tmp;               /* the next local's number */
    Buf scratch;           /* prepare(): each step's scratch, "s = ...;" */
} R;

/* A line of code at the current indent. */
void er_put(R *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* An element type's name in the kernels' ("f32"). */
const char *er_tn(int elem);
/* The fast call, and the reference's where AXON_NO_FAST is defined (and,
 * in a bounded function, where prepare() found the scratch would not fit
 * and left none: a step that needs scratch). */
void er_fast_or_ref(R *r, const char *fastcall, const char *refcall, int scratch);
/* prepare(): a step's scratch, the expression's bytes. */
void er_scratch_for(R *r, const char *expr);
/* Node d's shape as prepare() has it. */
const char *er_pshape(R *r, LNode *d);
/* A local view of node n ("vK"). */
const char *er_view(R *r, LNode *n);
/* The values of dims node d: "node[7].dims[i]". */
const char *er_dimval(R *r, LNode *d, int i);
/* A data error's place: a static site with its message. */
const char *er_site(R *r, LNode *n, const char *what);
/* A dims value of run()'s code as prepare() has it. */
const char *er_pdims(R *r, const char *v);

#endif
