/* dimsolve.h - equations between two dimensions (dimsolve.c), the
 * solver's second layer: above store.h, below unify.h. */
#ifndef AXONC_DIMSOLVE_H
#define AXONC_DIMSOLVE_H

#include "store.h"

/* Solves e = a for dimensions: 1 when solved or true, 0 when it must wait.
 * `existing` is the waiting constraint being looked at again, if any. */
int dim_solve(Ctx *c, Dim *e, Dim *a, const Site *site, Constraint *existing);
/* Drops the rewrite rules that constraint k (done now) put in place. */
void rewrite_drop(Ctx *c, Constraint *k);
/* Which of two unbound variables to bind to the other: 1 for the first. */
int bind_first(uint32_t id1, int dyn1, const Constraint *def1, int in_def1,
               uint32_t id2, int dyn2, const Constraint *def2, int in_def2);

#endif
