/* bounds.h - upper bounds of sizes from a function's `where` clauses
 * (axon-spec.md section 8b: a function whose sizes are all bounded gets
 * the maximum of every count it plans, for static arrays). */
#ifndef AXONC_BOUNDS_H
#define AXONC_BOUNDS_H

#include "terms.h"

typedef struct Bounds Bounds;

/* The bounds that scheme s's clauses give its variables: `v <= K`,
 * `a * v <= D` with D bounded (nonzero's `? <= n` makes the `?` as large
 * as n), and lower bounds `K <= v` (a divisor's). */
Bounds *bounds_of(Ctx *c, const Scheme *s);
/* The largest value d can take, into *out; 0 when d is not bounded (a
 * variable without a bound, a division by a size that may be 0, a value
 * past INT64_MAX). */
int bounds_max(Bounds *b, Dim *d, int64_t *out);
/* The largest element count of a tensor of this shape; 0 if unbounded. */
int bounds_max_elements(Bounds *b, Shape *s, int64_t *out);

#endif
