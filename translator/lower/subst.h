/* subst.h - what a function's types are at one place it is inlined: its
 * generic variables replaced by what a call made of them (the InstPairs
 * that inference recorded at the call, scheme.h), in the terms of the
 * exported function whose run() is being made (lower.c).
 *
 * A Subst is a list of pairs, each `to` already in the exported function's
 * terms; a variable it does not list stays as it is (the exported
 * function's own variables, which the plan computes at run time).
 */
#ifndef AXONC_SUBST_H
#define AXONC_SUBST_H

#include "scheme.h"

typedef struct Subst {
    PtrVec pairs;          /* InstPair* */
} Subst;

/* The context of a callee at a call: base's pairs (the closure's own
 * context), then each pair of log with its `to` put in at's terms. */
Subst *subst_compose(Ctx *c, const Subst *base, const PtrVec *log, const Subst *at);

Dim *subst_dim(Ctx *c, const Subst *s, Dim *d);
Shape *subst_shape(Ctx *c, const Subst *s, Shape *sh);
Elem *subst_elem(Ctx *c, const Subst *s, Elem *e);
Type *subst_type(Ctx *c, const Subst *s, Type *t);

#endif
