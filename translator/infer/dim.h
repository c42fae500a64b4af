/* dim.h - dimensions as canonical polynomials (terms.h, struct Dim).
 *
 * `n + m` and `m + n` are the same polynomial, `n + n` is `2 * n`; floor
 * division simplifies where the divisor divides every coefficient and is
 * otherwise an opaque atom.  Arithmetic is checked: an overflow of 64 bits
 * sets ctx->overflow (1) and a polynomial of more than DIM_MAX_TERMS terms
 * sets it to 2; the caller reports either.
 */
#ifndef AXONC_DIM_H
#define AXONC_DIM_H

#include "terms.h"

/* A polynomial has at most DIM_MAX_TERMS terms, floor divisions nest at
 * most DIM_MAX_NEST deep (each pooling layer of a network nests one), and
 * normalising through bound variables recurses at most DIM_MAX_NORM deep;
 * past any of these c->overflow is 2 ("too large"). */
enum { DIM_MAX_TERMS = 4096, DIM_MAX_NEST = 1000, DIM_MAX_NORM = 5000 };

DVar *dvar_new(Ctx *c, const char *hint);
Dim *dim_const(Ctx *c, int64_t v, const Origin *o);
Dim *dim_of_var(Ctx *c, DVar *v, const Origin *o);
Dim *dim_var_at(Ctx *c, DVar *v, const Origin *o);   /* not shared */
Dim *dim_ragged(Ctx *c, const Origin *o);
/* The canonical form of a sum of monomials (m is taken over, and sorted). */
Dim *dim_canon(Ctx *c, Mono *m, uint32_t n, const Origin *o);

Dim *dim_add(Ctx *c, Dim *a, Dim *b, const Origin *o);
Dim *dim_sub(Ctx *c, Dim *a, Dim *b, const Origin *o);
Dim *dim_mul(Ctx *c, Dim *a, Dim *b, const Origin *o);
Dim *dim_scale(Ctx *c, Dim *a, int64_t k, const Origin *o);
Dim *dim_div(Ctx *c, Dim *a, Dim *b, const Origin *o);   /* NULL: divisor is 0 */
Dim *dim_norm(Ctx *c, Dim *d);                     /* resolve bound variables */
Dim *dim_norm_raw(Ctx *c, Dim *d);                 /* ... without rewrite rules */

int dim_is_const(const Dim *d, int64_t *v);
DVar *dim_is_var(const Dim *d);                    /* exactly 1 * v */
int dim_equal(const Dim *a, const Dim *b);
int dim_cmp(const Dim *a, const Dim *b);
int dim_has_neg(const Dim *d);                     /* may be negative: a negative
                                                    * coefficient, or a floor
                                                    * division of such */
int dim_mentions(const Dim *d, const DVar *v);
/* Whether d can equal v for non-negative values of its variable: 1 yes,
 * 0 never, -1 cannot tell (several variables, or not linear). */
int dim_can_equal(const Dim *d, int64_t v);

int mono_cmp(const Mono *a, const Mono *b);
int mono_degree(const Mono *m);

/* Checked arithmetic on coefficients (sets c->overflow). */
int64_t ck_add(Ctx *c, int64_t a, int64_t b);
int64_t ck_mul(Ctx *c, int64_t a, int64_t b);
int64_t floor_div(int64_t a, int64_t b);           /* b != 0, no overflow case */
uint64_t mag64(int64_t v);                         /* |v|, exact for INT64_MIN */

/* A hash of a normalised dimension (equal dimensions hash alike).  gen:
 * while no variable is bound, the same nonzero value (floor divisions keep
 * their hash for it); 0 to keep nothing. */
uint64_t dim_hash(const Dim *d, uint32_t gen);
/* pre[i]: the hash of the sum of d's first i + 1 terms (d not ragged). */
void dim_hash_prefixes(const Dim *d, uint32_t gen, uint64_t *pre);

/* The hashes of large dimensions computed lately (direct-mapped by
 * address), which maps looking up the same dimensions share: a dimension
 * of k terms is then hashed once, not at every lookup.  An entry holds
 * while the dimension keeps its terms (normalising replaces them). */
enum { DIM_MEMO_SLOTS = 256, DIM_MEMO_MIN_TERMS = 8 };
typedef struct DimHashMemo {
    struct {
        const Dim *d;
        const Mono *t;
        uint32_t nt, gen;
        uint64_t hash;
    } e[DIM_MEMO_SLOTS];
} DimHashMemo;

/* A map from normalised dimensions (compared by dim_equal) to pointers. */
typedef struct DimSlot {
    uint64_t hash;
    Dim *key;             /* NULL: empty */
    void *val;
} DimSlot;
typedef struct DimMap {
    Arena *a;
    DimSlot *slot;
    size_t cap, n;
    uint32_t gen;         /* for dim_hash */
    DimHashMemo *memo;    /* optional (dm_init leaves none) */
} DimMap;
void dm_init(DimMap *m, Arena *a, uint32_t gen);
void *dm_get(const DimMap *m, const Dim *d);
void dm_put(DimMap *m, Dim *d, void *val);
/* The value kept for the sum of d's first n terms, whose hash
 * (dim_hash_prefixes) is h; NULL if none. */
void *dm_get_prefix(const DimMap *m, const Dim *d, uint32_t n, uint64_t h);

/* Calls f on every unbound variable of a normalised dimension. */
void dim_each_var(const Dim *d, void (*f)(DVar *, void *), void *arg);

#endif
