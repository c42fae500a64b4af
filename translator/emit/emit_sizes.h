/* emit_sizes.h - what the writers of a shape function share (emit_fn.c,
 * emit_checks.c; emit_sizes.c): the writer's state, lines of C, checks
 * with their messages, and sizes as C expressions over what the plan knows
 * at the step being written. */
#ifndef AXONC_EMIT_SIZES_H
#define AXONC_EMIT_SIZES_H

#include "fnplan.h"


typedef struct W {
    Ctx *c;
    Plan *p;
    FnPlan *fp;             /* what is written */
    const char *file;       /* the source file's name, for messages */
    Buf *body;
    int indent;             /* extra levels, inside a loop or a block */
    DimMap cache;           /* Dim* -> the local that holds its value (its
                             * memo: FnPlan.memo, shared with the plan's maps) */
    DimMap block;           /* the same, for the locals of the block of
                             * intermediates (they stay in it) */
    int in_block;
    int no_cache;           /* guarded: keep nothing */
    const char *guard;      /* a condition under which no check fails: the
                             * sizes it compares may be AXON_DIM_UNKNOWN */
    PtrVec decls;           /* Decl*: locals whose declaration is dropped
                             * when nothing reads them */
    char **unread_axes;     /* per input of fixed rank: 1 for an axis only
                             * checks against a size read (emit_checks.c), or NULL */
    Dim *from_vars;         /* computed another way than its own recorded
                             * value (PStep.from_vars; that value is out of
                             * sight, plan_hide_known), not read from the cache */
} W;

typedef struct Decl {
    const char *name;
    const char *effect;     /* decl_effect: the initialiser, kept if unread */
    size_t start, end;      /* the declaration's line in the body */
} Decl;

/* ---- lines and checks ---- */

/* A line of the body at the current indent (printf's format). */
void wr_line(W *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The message literal: "FILE:LINE:COL: RULE: " + text (whose "{}" are the
 * placeholders).  Sets *line, *col from the origin. */
const char *wr_message(W *w, const Origin *why, int *ln, int *col, const char *text);
/* Emits `if (COND) return axon__fail(...)`, v0..v3 the placeholders' values. */
void wr_fail_if(W *w, const char *cond, const char *status, const Origin *why, const char *text, const char *v0,
                const char *v1, const char *v2, const char *v3);
/* A check on a value: "WHERE TEXT", the axis index first when dynamic. */
void wr_val_fail(W *w, const PVal *v, const char *cond, const char *status, const Origin *why, const char *text,
                 const char *a0, const char *a1, const char *a2);
/* The declaration of a local whose initialiser has no side effect, left
 * out if nothing reads it (wr_drop_unused). */
void wr_decl(W *w, const char *name, const char *text);
/* `int64_t name = expr;` whose checked arithmetic must run: if nothing
 * reads name, it becomes `(void)expr;`. */
void wr_decl_effect(W *w, const char *name, const char *expr);
/* Leaves out the locals that nothing reads. */
void wr_drop_unused(W *w);

/* ---- terms as text ---- */

const char *wr_dim_text(W *w, Dim *d, int raw);
const char *wr_shape_text(W *w, Shape *s);
/* A constraint as a message shows it (cut short like every term). */
const char *wr_cons_text(W *w, Constraint *k);
/* An int64 literal (INT64_MIN as an expression). */
const char *wr_i64(W *w, int64_t v);

/* ---- run-time values ---- */

/* A shape variable's run: its first size's pointer, its length. */
const char *wr_run_p(W *w, const SVar *v);
const char *wr_run_n(W *w, const SVar *v);
/* An axis position as C: k plus the runs' lengths. */
const char *wr_pos_c(W *w, const PPos *p);
/* A concrete shape: in[i], or its local. */
const char *wr_src_c(W *w, const PSrc *s);
/* A run-time value as C. */
const char *wr_val_c(W *w, const PVal *v);
/* The axis index of a value, for a message with "axis {}"; NULL if static. */
const char *wr_val_idx(W *w, const PVal *v);

/* ---- sizes as C ---- */

/* d as a C expression over what is known (*arith set where it uses checked
 * arithmetic, which sets `bad`); NULL where a variable is not known. */
const char *wr_dim_c(W *w, Dim *d, int raw, int *arith);
/* The condition under which d's (or v's) value is AXON_DIM_UNKNOWN at run
 * time, or NULL. */
const char *wr_unknown_cond(W *w, Dim *d, const PVal *v);
/* A known dimension evaluated into a local (when it is arithmetic), with
 * the overflow check; NULL if not known. */
const char *wr_dim_local_raw(W *w, Dim *d, int raw, const Origin *why, const char *what);
const char *wr_dim_local(W *w, Dim *d, const Origin *why, const char *what);
/* A known dimension's value, AXON_DIM_UNKNOWN when a variable of it is. */
const char *wr_dim_value(W *w, Dim *d, const Origin *why, const char *what);
/* Materialises a known shape into a local axon_shape named t. */
void wr_shape_local(W *w, Shape *s, const char *t, const Origin *why, const char *what);
/* (pointer, count) of a known shape, materialising it when needed. */
void wr_shape_run(W *w, Shape *s, const Origin *why, const char *what, const char **p, const char **n);

#endif
