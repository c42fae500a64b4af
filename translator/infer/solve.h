/* solve.h - unification and the shape solver: the interface the rest of
 * the translator uses (solve.c is its one entry).
 *
 * unify_* implement the paper's rules as they arise (section 5): basic
 * replacement, reordering, unpacking, empty shapes, append unpacking, append
 * dimensionality, simplification, arithmetic simplification and partial
 * expression simplification.  What cannot be decided yet becomes a
 * Constraint that waits on its variables and is looked at again whenever
 * one of them is bound, so the result does not depend on the order in which
 * facts arrive.  A type error is reported (with notes on where each side
 * came from) and abandons the current top-level item via ctx->abort.
 *
 * The solver is a stack of files, each using only those below it:
 *   store.c       variables bound, levels, constraints waiting, the
 *                 worklist, diagnostics
 *   dimsolve.c    an equation between two dimensions
 *   unify.c       types, element types, shapes
 *   constraint.c  the constraints looked at again, and the worklist's drain
 *   solve.c       the entry: unify_*, solve_init
 * Unification feeds the worklist (cons_add) and the top drains it: the
 * drain is installed in the Ctx (solve_init), so that a constraint queued
 * outside a drain is looked at at once, as the rules require.
 */
#ifndef AXONC_SOLVE_H
#define AXONC_SOLVE_H

#include "constraint.h"

/* Makes c ready for the solver (the worklist's drain); once per Ctx,
 * before the first constraint. */
void solve_init(Ctx *c);

void unify_type(Ctx *c, Type *expected, Type *actual, const Origin *why);
/* Two sizes made equal (a `where l = r` clause), like unify_type. */
void unify_dim(Ctx *c, Dim *expected, Dim *actual, const Origin *why);
/* Two shapes made equal (`where broadcast(a, b) = b`). */
void unify_shape(Ctx *c, Shape *expected, Shape *actual, const Origin *why);

#endif
