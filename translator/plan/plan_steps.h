/* plan_steps.h - matches and equations (plan_steps.c): the facts the plan
 * takes up as soon as what they need is known, and the steps they make. */
#ifndef AXONC_PLAN_STEPS_H
#define AXONC_PLAN_STEPS_H

#include "plan_known.h"

/* ---- equations ------------------------------------------------------------ */

typedef struct Unknowns {
    PtrVec vars;            /* DVar*, distinct, not known */
    int in_div;             /* one of them is inside a floor division */
} Unknowns;

/* A variable's name as the signature prints it (a local's stem). */
const char *pl_var_name(Pl *pl, uint32_t *stamp, void **mark, uint32_t id);
/* A new step of the plan. */
PStep *pl_step(Pl *pl, PStepKind kind, const Origin *why);
/* A constraint, a dimension as the messages print them. */
const char *pl_cons_text(Pl *pl, Constraint *k);
const char *pl_dim_text(Pl *pl, Dim *d, int raw);
/* "what at LINE:COL" for a computed shape's description. */
const char *pl_place(Pl *pl, const char *what, const Origin *why);
/* A fact waiting: pattern against src (input: >= 0 for an input's own),
 * d against val. */
PMatch *pl_add_match(Pl *pl, PSrc *src, Shape *pattern, const Origin *why, int input);
PEq *pl_add_eq(Pl *pl, Dim *d, PVal val, const Origin *why, const char *text, int raw);
/* Whether a size of s may be AXON_DIM_UNKNOWN. */
int pl_shape_maybe_unknown(Plan *p, Shape *s);
/* A shape computed at run time into a local. */
PSrc *pl_computed_src(Pl *pl, const char *local, const char *desc, const Origin *why);
/* Takes up a match, an equation, if what it needs is known: 1 when done. */
int pl_try_match(Pl *pl, PMatch *m);
int pl_try_eq(Pl *pl, PEq *e);
/* The variables of d that are not known. */
void pl_collect_unknowns(Pl *pl, Dim *d, Unknowns *u, int in_div);

#endif
