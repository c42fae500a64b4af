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
    PtrVec pairs;          /* InstPair* (never changed once composed) */
    /* subst.c, made at the first use: */
    InstPair **table;      /* the pairs by their variable (open addressing) */
    uint32_t mask;         /* its size - 1 */
    uint32_t stamp;        /* marks the type nodes it has substituted, so
                            * that none is substituted twice */
} Subst;

/* The context of a callee at a call: base's pairs (the closure's own
 * context), then each pair of log with its `to` put in at's terms. */
Subst *subst_compose(Ctx *c, const Subst *base, const PtrVec *log, const Subst *at);

/* x in s's terms.  A NULL or empty s changes nothing and returns x as it
 * is (no copy); a type is substituted as the DAG it is, each node once per
 * s (a node that s has substituted before is not visited again), so that
 * the instances of a function at types that share structure (k(k)(k)...)
 * cost their DAG's size, not their tree's. */
Dim *subst_dim(Ctx *c, const Subst *s, Dim *d);
Shape *subst_shape(Ctx *c, const Subst *s, Shape *sh);
Elem *subst_elem(Ctx *c, const Subst *s, Elem *e);
Type *subst_type(Ctx *c, const Subst *s, Type *t);

#endif
