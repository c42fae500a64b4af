/* simplify.h - the shortest form a person would write of a signature's
 * sizes and clauses (axon-spec.md section 7, last point), for printing
 * only: what the header checks stays as inference left it.
 *
 *   d - 2 * (d / 2)              prints  d % 2
 *   b * d * n = b * h * n * (d / h)       d % h = 0
 *   h = 2 * (h / 2)                       h % 2 = 0
 *   1 <= 2 * c                            1 <= c
 *   d / 2 <= d                            (nothing: it always holds)
 *
 * A clause is printed for tensors that are not empty: a size that both
 * sides of an equation have as a factor is cancelled (`b * n` above), as a
 * person would; the header checks the clause as it is (at b = 0 it holds
 * whatever d and h are).  docs/language.md, "How signatures print".
 */
#ifndef AXONC_SIMPLIFY_H
#define AXONC_SIMPLIFY_H

#include "terms.h"

/* d = rest + k * (num % den): a term -k * den * (num / den) with num's
 * terms beside it (den one term: a constant, or a coefficient times
 * sizes).  Returns 0 when d has none; num reduced modulo a constant den
 * (`(h - 4) % 2` is `h % 2`). */
typedef struct SimpMod {
    Dim *rest, *num, *den;
    int64_t k;
} SimpMod;
int simp_mod(Ctx *c, Dim *d, SimpMod *out);

/* d without its terms that have a floor division of 0 (`0 / p`, which the
 * header keeps so that p != 0 is checked: docs/design.md). */
Dim *simp_drop_zero_divisions(Ctx *c, Dim *d);

/* The equation l = r as printed: either `num % den = 0` (*is_mod set), or
 * *l = *r with a factor common to both sides, and the gcd of the
 * coefficients, cancelled and the terms with a minus moved across
 * (`a * b * c * d = a * b * c` is `d = 1`, `b - e + 3 = 1` is
 * `b + 2 = e`), the side with the leading term left.  Returns 0 where
 * it cannot tell (print l = r as it is). */
int simp_equation(Ctx *c, Dim **l, Dim **r, SimpMod *mod, int *is_mod);

/* d with what the known remainders (mods: SimpMod*, each num % den = 0)
 * say: den * (num / den) is num (`2 * ((r + 1) / 2)` is `r + 1` where
 * `r % 2 = 1`, `2 * (h / 2)` is h where `h % 2 = 0`). */
Dim *simp_apply_mods(Ctx *c, Dim *d, const PtrVec *mods);

/* d over the sizes every term of it has and the gcd of its coefficients:
 * `b * n * d - b * n * h * (d / h)` is `d - h * (d / h)`, with *factor (may
 * be NULL) the sizes cancelled, `b * n` (NULL where none were). */
Dim *simp_cancel(Ctx *c, Dim *d, Dim **factor);

/* Whether d >= 0 for every value of its sizes (>= 0, divisors >= 1):
 * every term non-negative, a floor division bounded by its numerator
 * (`d - d / 2`). */
int simp_always_nonneg(Ctx *c, Dim *d);

/* d >= 0 as the same bound in the simplest terms: coefficients divided by
 * their gcd, the constant rounded down (`2 * c - 1 >= 0` is `c - 1 >= 0`);
 * a bound of one floor division by a constant as one of its numerator
 * (`t / 2 - 2 >= 0` is `t - 4 >= 0`). */
Dim *simp_primitive_bound(Ctx *c, Dim *d);

#endif
