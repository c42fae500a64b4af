/* unify.h - unification of types, element types, shapes and sizes
 * (unify.c), the solver's third layer: what cannot be decided on the spot
 * becomes a constraint (store.h), which constraint.c looks at again. */
#ifndef AXONC_UNIFY_H
#define AXONC_UNIFY_H

#include "dimsolve.h"

void u_type(Ctx *c, Type *e, Type *a, const Site *site);
void u_elem(Ctx *c, Elem *e, Elem *a, const Site *site);
void u_dim(Ctx *c, Dim *e, Dim *a, const Site *site);
/* One round of shape unification: 1 when done, 0 when the split is
 * ambiguous (the parts left are returned through re/ra). */
int u_shape_step(Ctx *c, Shape *e, Shape *a, const Site *site, Shape **re, Shape **ra);
void u_shape(Ctx *c, Shape *e, Shape *a, const Site *site);

#endif
