/* bounds.c - upper bounds of sizes from a function's `where` clauses
 * (axon-spec.md section 8b).  Every size is an integer >= 0, so:
 *   max(c * x1^p1 * ... ) = c * max(x1)^p1 * ...    for c > 0
 *   max(-c * ...)         = 0                        (a term <= 0; a
 *                                                     constant -c is exact)
 *   max(num / den)        = max(num) / min(den)      (min(den) >= 1)
 * A clause `l <= r` is kept as r - l >= 0; when that is D - a * v with D
 * free of v and a > 0, it bounds v by max(D) / a; when it is v - K, it
 * bounds v from below by K.  Bounds feed each other (a `?` at most n, n at
 * most 512), so they are found in rounds until none changes.
 */
#include "bounds.h"

#include "dim.h"
#include "types.h"

typedef struct VB {        /* a variable's bounds */
    DVar *v;
    int has_max;
    int64_t max, min;
} VB;

/* (a list, not marks on the variables: the emitter's names are marks) */
struct Bounds {
    Ctx *c;
    const Scheme *s;
    PtrVec vars;           /* VB*: the few variables that clauses bound */
};

static VB *vb(Bounds *b, DVar *v, int make)
{
    for (int i = 0; i < b->vars.n; i++)
        if (((VB *)b->vars.items[i])->v == v)
            return b->vars.items[i];
    if (!make)
        return NULL;
    VB *x = ar_alloc(b->c->arena, sizeof *x);
    x->v = v;
    pv_push(b->c->arena, &b->vars, x);
    return x;
}

static int mul_ok(int64_t a, int64_t b, int64_t *out)
{
    if (a != 0 && b > INT64_MAX / a)
        return 0;
    *out = a * b;
    return 1;
}

static int dim_min(Bounds *b, Dim *d, int64_t *out);

/* max of d, 0 when unbounded */
static int dim_max(Bounds *b, Dim *d, int64_t *out)
{
    d = dim_norm(b->c, d);
    if (d->ragged)
        return 0;
    int64_t sum = 0;
    for (uint32_t i = 0; i < d->nt; i++) {
        const Mono *m = &d->t[i];
        if (m->coef < 0) {
            if (m->nf == 0 && m->coef > INT64_MIN)
                sum += m->coef;                                /* a constant: exact */
            continue;                                          /* else <= 0 */
        }
        int64_t t = m->coef;
        for (uint32_t j = 0; j < m->nf; j++) {
            const Factor *f = &m->f[j];
            int64_t x;
            if (f->var) {
                VB *v = vb(b, f->var, 0);
                if (!v || !v->has_max)
                    return 0;
                x = v->max;
            } else {
                int64_t num, den;
                if (!dim_max(b, f->div->num, &num) || !dim_min(b, f->div->den, &den) || den < 1)
                    return 0;
                x = num / den;
            }
            for (uint32_t p = 0; p < f->pow; p++)
                if (!mul_ok(t, x, &t))
                    return 0;
        }
        if (sum > 0 && t > INT64_MAX - sum)
            return 0;
        sum += t;
    }
    *out = sum < 0 ? 0 : sum;
    return 1;
}

/* a lower bound of d (0 for any size); only what a divisor needs: a
 * constant, or a variable with a lower bound */
static int dim_min(Bounds *b, Dim *d, int64_t *out)
{
    d = dim_norm(b->c, d);
    int64_t k;
    if (dim_is_const(d, &k)) {
        *out = k;
        return 1;
    }
    DVar *v = dim_is_var(d);
    VB *x = v ? vb(b, v, 0) : NULL;
    *out = x ? x->min : 0;
    return 1;
}

/* One clause D - a * v >= 0 (or v - K >= 0): what it says of v. */
static int learn(Bounds *b, Dim *d)
{
    int changed = 0;
    d = dim_norm(b->c, d);
    if (d->ragged)
        return 0;
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
        if (m->coef < 0) {                      /* a * v <= rest */
            int64_t mr;
            if (dim_max(b, r, &mr)) {
                int64_t ub = mr / -m->coef;
                if (!x->has_max || ub < x->max) {
                    x->has_max = 1;
                    x->max = ub;
                    changed = 1;
                }
            }
        } else if (m->coef == 1) {              /* v >= -rest, rest a constant */
            int64_t k;
            if (dim_is_const(r, &k) && -k > x->min) {
                x->min = -k;
                changed = 1;
            }
        }
    }
    return changed;
}

Bounds *bounds_of(Ctx *c, const Scheme *s)
{
    Bounds *b = ar_alloc(c->arena, sizeof *b);
    b->c = c;
    b->s = s;
    /* each round can only lower a maximum found before; a few suffice for
     * the chains clauses make (a `?` bounded by n, n by a constant) */
    for (int round = 0; round < 8; round++) {
        int changed = 0;
        for (int i = 0; i < s->cons.n; i++) {
            Constraint *k = s->cons.items[i];
            if (!k->done && k->kind == C_NONNEG && k->clause)
                changed |= learn(b, k->l);
        }
        if (!changed)
            break;
    }
    return b;
}

int bounds_max(Bounds *b, Dim *d, int64_t *out)
{
    return dim_max(b, d, out);
}

int bounds_max_elements(Bounds *b, Shape *s, int64_t *out)
{
    s = shape_norm(b->c, s);
    int64_t n = 1;
    for (uint32_t i = 0; i < s->n; i++) {
        int64_t x;
        if (!s->s[i].dim || !dim_max(b, s->s[i].dim, &x) || !mul_ok(n, x, &n))
            return 0;
    }
    *out = n;
    return 1;
}
