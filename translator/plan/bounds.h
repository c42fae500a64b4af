/* bounds.h - upper bounds of sizes from a function's `where` clauses
 * (axon-spec.md section 8b: a function whose sizes are all bounded gets
 * the maximum of every count it plans, for static arrays; section 5b: the
 * shape function gives the largest a data-dependent `?` can be). */
#ifndef AXONC_BOUNDS_H
#define AXONC_BOUNDS_H

#include "terms.h"

typedef struct Bounds Bounds;

/* Whether d's value is known (at run time: the plan computes it). */
typedef int (*BoundsKnown)(void *arg, Dim *d);

/* The bounds that scheme s's clauses give its variables: `v <= K`,
 * `a * v <= D` (nonzero's `? <= n` makes the `?` as large as n), and lower
 * bounds `K <= v` (a divisor's).  A bound is made of constants and of what
 * known says is known (NULL: constants only). */
Bounds *bounds_of(Ctx *c, const Scheme *s, BoundsKnown known, void *arg);
/* An upper bound of d made of known sizes (d itself when d is known), or
 * NULL: a variable without a bound, a division by a size that may be 0, a
 * constant past int64.  It may be negative where d's clauses cannot hold. */
Dim *bounds_upper(Bounds *b, Dim *d);
/* With constants only: the largest value d can take, into *out; 0 when d
 * is not bounded. */
int bounds_max(Bounds *b, Dim *d, int64_t *out);
/* The largest element count of a tensor of this shape; 0 if unbounded. */
int bounds_max_elements(Bounds *b, Shape *s, int64_t *out);
/* The largest value of each axis of a shape of at most cap axes, into
 * dims: its rank, or -1 when an axis is not bounded (or not known). */
int bounds_max_dims(Bounds *b, Shape *s, int64_t *dims, int cap);

#endif
