/* bounds.c - upper bounds of sizes from a function's `where` clauses
 * (axon-spec.md sections 5b and 8b).  Every size is an integer >= 0, so:
 *   max(c * x1^p1 * ... ) = c * max(x1)^p1 * ...    for c > 0
 *   max(-c * ...)         = 0                        (a term <= 0; a
 *                                                     constant -c is exact)
 *   max(num / den)        = max(num) / min(den)      (min(den) >= 1)
 * A clause `l <= r` is kept as r - l >= 0; when that is D - a * v with D
 * free of v and a > 0, it bounds v by max(D) / a; when it is v - K, it
 * bounds v from below by K.  Bounds feed each other (a `?` at most n, n at
 * most 512): a variable's bound is the bound of its clause's other side.
 *
 * What counts as known decides what a bound is made of.  With constants
 * only, a bound is a number: the maxima a function whose clauses bound
 * every size gets for static arrays.  With what the run-time plan knows
 * (the input sizes), a bound is an expression the shape function computes:
 * `nonzero`'s `?` is at most the n of its input, whatever n is.
 */
#include "bounds.h"

#include "dim.h"
#include "types.h"

typedef struct Clause {    /* a * v <= rhs */
    Dim *rhs;
    int64_t a;
    struct Clause *next;
} Clause;

typedef struct VB {        /* a variable's bounds */
    DVar *v;
    Clause *upper;         /* the clauses that bound it from above */
    int64_t min;           /* a lower bound (a divisor's) */
    int state;             /* 0: ub not found yet, 1: being found, 2: found */
    Dim *ub;               /* its upper bound (state 2), NULL if none */
} VB;

/* (a map by the variable's dimension, not marks on the variables: the
 * emitter's names are marks) */
struct Bounds {
    Ctx *c;
    BoundsKnown known;     /* NULL: constants only */
    void *arg;
    DimMap vars;           /* a variable's Dim -> its VB */
};

static VB *vb(Bounds *b, DVar *v, int make)
{
    Dim *key = dim_of_var(b->c, v, NULL);
    VB *x = dm_get(&b->vars, key);
    if (x || !make)
        return x;
    x = ar_alloc(b->c->arena, sizeof *x);
    x->v = v;
    dm_put(&b->vars, key, x);
    return x;
}

static int known(Bounds *b, Dim *d)
{
    int64_t k;
    return dim_is_const(d, &k) || (b->known && b->known(b->arg, d));
}

static Dim *upper(Bounds *b, Dim *d);

/* The upper bound of v: the least of its clauses' where all are numbers,
 * else the first that has one. */
static Dim *var_upper(Bounds *b, DVar *v)
{
    VB *x = vb(b, v, 0);
    if (!x || x->state == 1)               /* none, or a cycle of clauses */
        return NULL;
    if (x->state == 2)
        return x->ub;
    x->state = 1;
    Dim *best = NULL;
    int best_const = 0;
    int64_t least = 0;
    for (Clause *k = x->upper; k; k = k->next) {
        Dim *u = upper(b, k->rhs);
        if (u && k->a != 1)
            u = dim_div(b->c, u, dim_const(b->c, k->a, NULL), NULL);
        int64_t n;
        if (!u)
            continue;
        if (dim_is_const(u, &n)) {
            if (!best_const || n < least) {
                best = u;
                least = n;
                best_const = 1;
            }
        } else if (!best) {
            best = u;
        }
    }
    x->ub = best;
    x->state = 2;
    return best;
}

/* a lower bound (>= 1) of a divisor that is not known: a variable's */
static Dim *divisor_min(Bounds *b, Dim *d)
{
    DVar *v = dim_is_var(d);
    VB *x = v ? vb(b, v, 0) : NULL;
    return x && x->min >= 1 ? dim_const(b->c, x->min, NULL) : NULL;
}

/* An upper bound of d made of known sizes, or NULL (the rules above). */
static Dim *upper(Bounds *b, Dim *d)
{
    Ctx *c = b->c;
    d = dim_norm(c, d);
    if (d->ragged)
        return NULL;
    if (known(b, d))
        return d;
    Dim *sum = dim_const(c, 0, NULL);
    for (uint32_t i = 0; i < d->nt; i++) {
        const Mono *m = &d->t[i];
        Mono *one = ar_alloc(c->arena, sizeof *one);
        *one = *m;
        Dim *term = dim_canon(c, one, 1, NULL);     /* (takes one over) */
        if (known(b, term)) {
            sum = dim_add(c, sum, term, NULL);
            continue;
        }
        if (m->coef < 0)
            continue;                                  /* <= 0 */
        Dim *t = dim_const(c, m->coef, NULL);
        for (uint32_t j = 0; j < m->nf && !c->overflow; j++) {
            const Factor *f = &m->f[j];
            Dim *x;
            if (f->var) {
                x = dim_of_var(c, f->var, NULL);
                if (!known(b, x))
                    x = var_upper(b, f->var);
            } else {
                Dim *num = upper(b, f->div->num);
                Dim *den = dim_norm(c, f->div->den);
                if (!known(b, den))
                    den = divisor_min(b, den);
                x = num && den ? dim_div(c, num, den, NULL) : NULL;
            }
            if (!x)
                return NULL;
            for (uint32_t p = 0; p < f->pow && !c->overflow; p++)
                t = dim_mul(c, t, x, NULL);
        }
        sum = dim_add(c, sum, t, NULL);
        if (c->overflow)
            return NULL;
    }
    return sum;
}

/* One clause D - a * v >= 0 (or v - K >= 0): what it says of v. */
static void learn(Bounds *b, Dim *d)
{
    d = dim_norm(b->c, d);
    if (d->ragged)
        return;
    for (uint32_t i = 0; i < d->nt; i++) {
        const Mono *m = &d->t[i];
        if (m->nf != 1 || !m->f[0].var || m->f[0].pow != 1)
            continue;
        DVar *v = m->f[0].var;
        /* the rest of d must not mention v */
        Mono *rest = ar_alloc(b->c->arena, sizeof(Mono) * (d->nt ? d->nt : 1));
        uint32_t nr = 0;
        int other = 0;
        for (uint32_t j = 0; j < d->nt; j++) {
            if (j == i)
                continue;
            rest[nr++] = d->t[j];
            if (dim_mentions(&(Dim){ .nt = 1, .t = &d->t[j] }, v))
                other = 1;
        }
        if (other)
            continue;
        Dim *r = dim_canon(b->c, rest, nr, NULL);
        VB *x = vb(b, v, 1);
        int64_t k;
        if (m->coef < 0 && m->coef > INT64_MIN) {       /* a * v <= rest */
            Clause *cl = ar_alloc(b->c->arena, sizeof *cl);
            cl->rhs = r;
            cl->a = -m->coef;
            cl->next = x->upper;
            x->upper = cl;
        } else if (m->coef == 1 && dim_is_const(r, &k) && k > INT64_MIN && -k > x->min) {
            x->min = -k;                               /* v >= -rest */
        }
    }
}

Bounds *bounds_of(Ctx *c, const Scheme *s, BoundsKnown known, void *arg)
{
    Bounds *b = ar_alloc(c->arena, sizeof *b);
    b->c = c;
    b->known = known;
    b->arg = arg;
    dm_init(&b->vars, c->arena, 0);
    for (int i = 0; i < s->cons.n; i++) {
        Constraint *k = s->cons.items[i];
        if (!k->done && k->kind == C_NONNEG && k->clause)
            learn(b, k->l);
    }
    return b;
}

Dim *bounds_upper(Bounds *b, Dim *d)
{
    int saved = b->c->overflow;
    b->c->overflow = 0;
    Dim *u = upper(b, d);
    if (b->c->overflow)
        u = NULL;                    /* a bound past int64: none */
    b->c->overflow = saved;
    return u;
}

int bounds_max(Bounds *b, Dim *d, int64_t *out)
{
    Dim *u = bounds_upper(b, d);
    int64_t n;
    if (!u || !dim_is_const(u, &n))
        return 0;
    *out = n < 0 ? 0 : n;
    return 1;
}

int bounds_max_elements(Bounds *b, Shape *s, int64_t *out)
{
    s = shape_norm(b->c, s);
    int64_t n = 1;
    for (uint32_t i = 0; i < s->n; i++) {
        int64_t x;
        if (!s->s[i].dim || !bounds_max(b, s->s[i].dim, &x))
            return 0;
        if (x != 0 && n > INT64_MAX / x)
            return 0;
        n *= x;
    }
    *out = n;
    return 1;
}

int bounds_max_dims(Bounds *b, Shape *s, int64_t *dims, int cap)
{
    s = shape_norm(b->c, s);
    if (s->n > (uint32_t)cap)
        return -1;
    for (uint32_t i = 0; i < s->n; i++)
        if (!s->s[i].dim || !bounds_max(b, s->s[i].dim, &dims[i]))
            return -1;
    return (int)s->n;
}
