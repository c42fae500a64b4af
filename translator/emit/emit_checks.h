/* emit_checks.h - each step of a shape function's plan as C
 * (emit_checks.c): ranks, matches, checks, binds, solves, broadcasts,
 * counts, each failing check with its message. */
#ifndef AXONC_EMIT_CHECKS_H
#define AXONC_EMIT_CHECKS_H

#include "emit_sizes.h"

/* Writes step st (the plan's step being written: Plan.at). */
void wr_write_step(W *w, PStep *st);
/* Per input of fixed rank, its axes that only checks read (a check against
 * a size read elsewhere): w->unread_axes. */
char **wr_checked_only_axes(W *w);

#endif
