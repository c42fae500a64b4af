/* solve.h - unification and the shape solver.
 *
 * unify_* implement the paper's rules as they arise (section 5): basic
 * replacement, reordering, unpacking, empty shapes, append unpacking, append
 * dimensionality, simplification, arithmetic simplification and partial
 * expression simplification.  What cannot be decided yet becomes a
 * Constraint that waits on its variables and is looked at again whenever
 * one of them is bound, so the result does not depend on the order in which
 * facts arrive.  A type error is reported (with notes on where each side
 * came from) and abandons the current top-level item via ctx->abort.
 */
#ifndef AXONC_SOLVE_H
#define AXONC_SOLVE_H

#include "terms.h"

#if defined(__GNUC__)
#define AX_NORETURN __attribute__((noreturn))
#else
#define AX_NORETURN
#endif

void unify_type(Ctx *c, Type *expected, Type *actual, const Origin *why);
/* Two sizes made equal (a `where l = r` clause), like unify_type. */
void unify_dim(Ctx *c, Dim *expected, Dim *actual, const Origin *why);
/* Two shapes made equal (`where broadcast(a, b) = b`). */
void unify_shape(Ctx *c, Shape *expected, Shape *actual, const Origin *why);

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

Constraint *cons_new(Ctx *c, CKind kind, const Origin *why);
void cons_add(Ctx *c, Constraint *k);     /* queue it and solve what can be */
void solve_drain(Ctx *c);
void cons_lower_levels(Ctx *c, Constraint *k, int level);
/* Marks k's variables with level > above GENERIC; 1 if it has any (then k
 * belongs to the scheme being made). */
int cons_mark_generic(Ctx *c, Constraint *k, int above);

/* Level adjustment when a variable escapes to an outer level: every level
 * above `level` (not GENERIC) is lowered to it, and so are the levels in the
 * broadcasts that such variables stand for. */
void type_lower_levels(Ctx *c, Type *t, int level);
void shape_lower_levels(Ctx *c, Shape *s, int level);
void dim_lower_levels(Ctx *c, Dim *d, int level);

/* Reports an error at loc and abandons the current item. */
AX_NORETURN void type_error(Ctx *c, Loc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
AX_NORETURN void abandon(Ctx *c);
/* A type nested deeper than TYPE_MAX_DEPTH: an error at c->where. */
AX_NORETURN void type_too_deep(Ctx *c);
/* Notes where a term came from ("note: 4 comes from the annotation of 'x'"). */
void note_origin(Ctx *c, const char *term, const Origin *o);

#endif
