/* store.h - the bottom of the solver (store.c): binding variables with
 * level adjustment, the constraints waiting on variables and the worklist
 * they are queued on, and the solver's diagnostics.  Used by the solver's
 * files above it (dimsolve.c, unify.c, constraint.c, solve.c) and by the
 * parts of inference that make or generalise constraints; the rest of the
 * translator uses solve.h. */
#ifndef AXONC_STORE_H
#define AXONC_STORE_H

#include "terms.h"

#if defined(__GNUC__)
#define AX_NORETURN __attribute__((noreturn))
#else
#define AX_NORETURN
#endif

/* ---- diagnostics ---- */

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
Site site_of(const Origin *why);
/* What a site is ("the argument of 'f'") and where, for messages. */
const char *site_what(Ctx *c, const Site *site);
Loc site_loc(const Site *site);
AX_NORETURN void err_dims(Ctx *c, const Site *site, Dim *e, Dim *a, const char *why_text);
AX_NORETURN void err_overflow(Ctx *c, const Site *site);
void check_overflow(Ctx *c, const Site *site);

/* ---- levels ---- */

/* Level adjustment when a variable escapes to an outer level: every level
 * above `level` (not GENERIC) is lowered to it, and so are the levels in the
 * broadcasts that such variables stand for. */
void type_lower_levels(Ctx *c, Type *t, int level);
void shape_lower_levels(Ctx *c, Shape *s, int level);
void dim_lower_levels(Ctx *c, Dim *d, int level);
/* Lowers one variable's level (and its broadcast's) to `level`. */
void dvar_lower_to(Ctx *c, DVar *v, int level);
void svar_lower_to(Ctx *c, SVar *v, int level);

/* ---- binding ---- */

void bind_dvar(Ctx *c, DVar *v, Dim *val, const Origin *why);
void bind_svar(Ctx *c, SVar *v, Shape *val, const Origin *why);
/* A type variable bound (with the occurs check: an infinite type is an
 * error at site). */
void bind_tvar(Ctx *c, Type *v, Type *val, const Site *site);

/* ---- constraints and the worklist ---- */

Constraint *cons_new(Ctx *c, CKind kind, const Origin *why);
/* Queues k; unless the worklist is being drained, drains it (c->drain). */
void cons_add(Ctx *c, Constraint *k);
/* k watches its unbound variables: binding one queues it again. */
void watch_cons(Ctx *c, Constraint *k);
void cons_lower_levels(Ctx *c, Constraint *k, int level);
/* Marks k's variables with level > above GENERIC; 1 if it has any (then k
 * belongs to the scheme being made). */
int cons_mark_generic(Ctx *c, Constraint *k, int above);
/* Records that inference fixed v, a size an operation produces (dyn 2). */
void record_dyn(Ctx *c, DVar *v, Dim *val, const Origin *why);

#endif
