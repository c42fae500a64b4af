/* solve.c - the solver's entry (solve.h): unification of two terms, then
 * the worklist drained of what that made or woke. */
#include "solve.h"

void solve_init(Ctx *c)
{
    c->drain = solve_drain;
}

/* ---- the public entry point: unify, then solve what that woke up -------- */

void unify_type(Ctx *c, Type *expected, Type *actual, const Origin *why)
{
    Site s = site_of(why);
    u_type(c, expected, actual, &s);
    if (!c->draining)
        solve_drain(c);
}

void unify_dim(Ctx *c, Dim *expected, Dim *actual, const Origin *why)
{
    Site s = site_of(why);
    u_dim(c, expected, actual, &s);
    if (!c->draining)
        solve_drain(c);
}

void unify_shape(Ctx *c, Shape *expected, Shape *actual, const Origin *why)
{
    Site s = site_of(why);
    u_shape(c, expected, actual, &s);
    if (!c->draining)
        solve_drain(c);
}