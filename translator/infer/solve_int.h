/* solve_int.h - declarations shared by unify.c, dimsolve.c and constraint.c
 * (the solver's internals; the rest of the translator uses solve.h). */
#ifndef AXONC_SOLVE_INT_H
#define AXONC_SOLVE_INT_H

#include "solve.h"

void u_type(Ctx *c, Type *e, Type *a, const Site *site);
void u_elem(Ctx *c, Elem *e, Elem *a, const Site *site);
void u_dim(Ctx *c, Dim *e, Dim *a, const Site *site);
/* One round of shape unification: 1 when done, 0 when the split is
 * ambiguous (the parts left are returned through re/ra). */
int u_shape_step(Ctx *c, Shape *e, Shape *a, const Site *site, Shape **re, Shape **ra);
void u_shape(Ctx *c, Shape *e, Shape *a, const Site *site);

/* Solves e = a for dimensions: 1 when solved or true, 0 when it must wait.
 * `existing` is the waiting constraint being looked at again, if any. */
int dim_solve(Ctx *c, Dim *e, Dim *a, const Site *site, Constraint *existing);
void rewrite_drop(Ctx *c, Constraint *k);

void bind_dvar(Ctx *c, DVar *v, Dim *val, const Origin *why);
/* Records that inference fixed v, a size an operation produces (dyn 2). */
void record_dyn(Ctx *c, DVar *v, Dim *val, const Origin *why);
void bind_svar(Ctx *c, SVar *v, Shape *val, const Origin *why);
/* Which of two unbound variables to bind to the other: 1 for the first. */
int bind_first(uint32_t id1, int dyn1, const Constraint *def1, int in_def1,
               uint32_t id2, int dyn2, const Constraint *def2, int in_def2);
void watch_cons(Ctx *c, Constraint *k);
/* Lowers one variable's level (and its broadcast's) to `level`. */
void dvar_lower_to(Ctx *c, DVar *v, int level);
void svar_lower_to(Ctx *c, SVar *v, int level);

/* Diagnostics (unify.c). */
AX_NORETURN void err_dims(Ctx *c, const Site *site, Dim *e, Dim *a, const char *why_text);
AX_NORETURN void err_overflow(Ctx *c, const Site *site);
void check_overflow(Ctx *c, const Site *site);
Site site_of(const Origin *why);
/* At the end of an item (scheme.c): each equation M * (x - v) = 0 whose x
 * occurs only beside M fixes x = v (phantom.c). */
void fix_phantoms(Ctx *c, Type *t, PtrVec *live, int level);

#endif
