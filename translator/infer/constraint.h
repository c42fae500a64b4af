/* constraint.h - the constraints that could not be solved on the spot
 * (constraint.c), the solver's fourth layer: broadcasts, residual
 * equations, `>= 0`, `elements(s)` and `rank(s)`, and the loop that looks
 * at queued constraints until none is left. */
#ifndef AXONC_CONSTRAINT_H
#define AXONC_CONSTRAINT_H

#include "unify.h"

/* broadcast(ops...) as a dimension or a shape: the result, resolved at once
 * where the rules allow, else a variable standing for the broadcast. */
Dim *bcast_dim(Ctx *c, PtrVec ops, const Origin *why);
Shape *bcast_shape(Ctx *c, PtrVec ops, const Origin *why);
/* elements(s) and rank(s) as dimensions (spec section 5b): computed from
 * what s's sizes are; each shape variable of s adds a variable standing
 * for its own count (C_ELEMS, C_RANK), which expands as it becomes known. */
Dim *dim_elements(Ctx *c, Shape *s, const Origin *why);
Dim *dim_rank(Ctx *c, Shape *s, const Origin *why);
/* A `>= 0` check on a dimension written with a minus. */
void require_nonneg(Ctx *c, Dim *d, const Origin *why);
/* That d, a size an operation computes, fits in int64 (C_FITS), unless
 * fits_needed says it adds nothing; fits_note records a copy made. */
void require_fits(Ctx *c, Dim *d, const Origin *why);
int fits_needed(Ctx *c, Dim *d);
void fits_note(Ctx *c, Constraint *k);
/* Looks at the queued constraints until none is left (the worklist's
 * drain: solve_init installs it as c->drain). */
void solve_drain(Ctx *c);

#endif
