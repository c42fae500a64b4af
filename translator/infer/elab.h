/* elab.h - turning written annotations into types.
 *
 * Names in annotations are scoped like ML's type variables: one Scope per
 * top-level item, shared by every annotation inside it (nested lambdas
 * included), so `n` in two annotations of a function is one variable and
 * `n` in two top-level functions is two.
 */
#ifndef AXONC_ELAB_H
#define AXONC_ELAB_H

#include "ast.h"
#include "scope.h"

/* kind, what: how notes describe the annotation (origin_text), e.g.
 * OW_ANNOT, "x" for "the annotation of 'x'". */
Type *elab_type(Ctx *c, Scope *sc, TExpr *t, OriginKind kind, const char *what);
/* One dimension expression, in the same scope (a `where` clause's side):
 * a `?` in it is the `?` of the annotations, which must have exactly one
 * (`nonzero : (t [n]) -> i32 [?] where ? <= n`). */
Dim *elab_dim_in(Ctx *c, Scope *sc, DExpr *d, OriginKind kind, const char *what);
/* A shape in the same scope (an axis clause's shape after the axis). */
Shape *elab_shape_in(Ctx *c, Scope *sc, SExpr *s, OriginKind kind, const char *what);
/* A clause between shapes (`where broadcast(a, b) = b`, spec 5b's expand):
 * each side a shape name of the scope or broadcast(...) of such.  Returns
 * 1 with both sides elaborated; 0 if neither side names a shape (a clause
 * between sizes); -1 (nothing elaborated) if a side names a shape but is
 * not such a side.  A name not yet in the scope is a size. */
int elab_shape_clause(Ctx *c, Scope *sc, DExpr *l, DExpr *r, OriginKind kind, const char *what, Shape **sl,
                      Shape **sr);

#endif
