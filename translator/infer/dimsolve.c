/* dimsolve.c - solving an equation between two dimensions.
 *
 * Rules (paper section 5, extended):
 *   c1 = c2                  FAIL if c1 != c2                       (basic)
 *   a = d                    bind a := d when a is not in d         (basic;
 *                            d may have a minus: its own C_NONNEG keeps it >= 0)
 *   (* d c1) = c2            d = c2 / c1 if c1 divides c2           (arithmetic
 *   (+ d c1) = c2            d = c2 - c1 if that is >= 0             simplification,
 *   (- d c1) = c2            d = c1 + c2                             generalised:)
 *   The difference of the two sides is a polynomial p = 0.  Divided by the
 *   gcd of its coefficients (FAIL if that does not divide the constant), a
 *   variable v with coefficient +-1 that occurs nowhere else is solved for:
 *   in one unknown the solution must be a non-negative integer (else FAIL);
 *   with several, v is bound only when its solution has no negative
 *   coefficient (so it is a dimension for every value of the others).
 *   (op s1 s2) = c           a non-linear monomial or a floor division
 *                            equal to a constant is replaced by it in every
 *                            other dimension (partial expression
 *                            simplification), and the equation stays as a
 *                            residual constraint to check at run time.
 *   Anything else waits (C_EQ_DIM) until its variables are bound.
 */
#include <stdlib.h>
#include <string.h>

#include "dim.h"
#include "dimsolve.h"

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Priority for being bound: `?` variables first (the other name survives),
 * then the variables standing for elements(s) or rank(s) (so that a
 * clause `rank(p) = k` keeps k and prints as written), then plain
 * variables, broadcast results last -- unless the other variable occurs in
 * the broadcast's operands, then the broadcast result goes. */
static int bind_rank(int dyn, const Constraint *def, int in_def)
{
    if (dyn)
        return 0;
    if (!def || def->done)
        return 2;
    if (def->kind == C_ELEMS || def->kind == C_RANK)
        return 1;
    return in_def ? 0 : 3;
}

int bind_first(uint32_t id1, int dyn1, const Constraint *def1, int in_def1,
               uint32_t id2, int dyn2, const Constraint *def2, int in_def2)
{
    int rank1 = bind_rank(dyn1, def1, in_def1), rank2 = bind_rank(dyn2, def2, in_def2);
    if (rank1 != rank2)
        return rank1 < rank2;
    return id1 > id2;            /* the newer variable goes */
}

static int def_mentions(Ctx *c, const Constraint *def, const DVar *v)
{
    if (!def || def->done || def->kind != C_BCAST_DIM)
        return 0;
    for (int i = 0; i < def->ops.n; i++)
        if (dim_mentions(dim_norm(c, def->ops.items[i]), v))
            return 1;
    return 0;
}

/* The sign of r^k - v for r >= 0 (a power past INT64_MAX is larger). */
static int pow_cmp(int64_t r, uint32_t k, int64_t v)
{
    int64_t p = 1;
    for (uint32_t i = 0; i < k; i++) {
        if (r != 0 && p > INT64_MAX / r)
            return 1;
        p *= r;
    }
    return p < v ? -1 : p > v;
}

/* The integer k-th root of v, or -1 (binary search: r <= v). */
static int64_t exact_root(int64_t v, uint32_t k)
{
    if (v < 0)
        return -1;
    int64_t lo = 0, hi = v;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (pow_cmp(mid, k, v) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return pow_cmp(lo, k, v) == 0 ? lo : -1;
}

/* -(x / g) or x / g, for g dividing x (g = |coef| >= 1, up to 2^63). */
static int64_t quotient(Ctx *c, int64_t x, uint64_t g, int negate)
{
    int64_t q = g > (uint64_t)INT64_MAX ? (x == INT64_MIN ? 1 : 0) : x / (int64_t)g;
    return negate ? ck_mul(c, q, -1) : q;
}

static void rewrite_add(Ctx *c, const Mono *m, int64_t value, Constraint *from)
{
    for (Rewrite *r = c->rewrites; r; r = r->next)
        if (r->from == from)
            return;
    Rewrite *r = ar_alloc(c->arena, sizeof *r);
    r->key = *m;
    r->key.coef = 1;
    r->value = value;
    r->from = from;
    r->next = c->rewrites;
    c->rewrites = r;
}

void rewrite_drop(Ctx *c, Constraint *k)
{
    for (Rewrite **p = &c->rewrites; *p; p = &(*p)->next)
        if ((*p)->from == k) {
            *p = (*p)->next;
            return;
        }
}

int dim_solve(Ctx *c, Dim *e, Dim *a, const Site *site, Constraint *existing)
{
    /* A residual that defines a rewrite is judged without its own rewrite. */
    int raw = existing && existing->rewrites;
    e = raw ? dim_norm_raw(c, e) : dim_norm(c, e);
    a = raw ? dim_norm_raw(c, a) : dim_norm(c, a);
    check_overflow(c, site);
    if (dim_equal(e, a))
        return 1;

    /* `*` (ragged) equals only `*`, or a variable that becomes `*`. */
    if (e->ragged || a->ragged) {
        Dim *other = e->ragged ? a : e;
        DVar *v = dim_is_var(other);
        if (other->ragged)
            return 1;
        if (!v)
            err_dims(c, site, e, a, "a ragged dimension (*) cannot equal a fixed size");
        bind_dvar(c, v, e->ragged ? e : a, site->why);
        return 1;
    }

    /* basic rule: a = d binds a when a does not occur in d (a variable
     * alone on both sides: the priority of bind_first decides which). */
    DVar *ve = dim_is_var(e), *va = dim_is_var(a);
    if (ve && va) {
        int first = bind_first(ve->id, ve->dyn, ve->def, def_mentions(c, ve->def, va),
                               va->id, va->dyn, va->def, def_mentions(c, va->def, ve));
        if (first)
            bind_dvar(c, ve, a, site->why);
        else
            bind_dvar(c, va, e, site->why);
        return 1;
    }
    if (ve && !dim_mentions(a, ve)) {
        bind_dvar(c, ve, a, site->why);
        return 1;
    }
    if (va && !dim_mentions(e, va)) {
        bind_dvar(c, va, e, site->why);
        return 1;
    }

    Dim *p = dim_sub(c, e, a, site->why);
    check_overflow(c, site);
    int64_t k;
    if (dim_is_const(p, &k))
        err_dims(c, site, e, a, NULL);   /* k != 0: the sides differ */

    /* gcd of the non-constant coefficients; the constant is last. */
    uint64_t g = 0;
    int64_t c0 = 0;
    uint32_t nonconst = 0;
    for (uint32_t i = 0; i < p->nt; i++) {
        if (p->t[i].nf == 0)
            c0 = p->t[i].coef;
        else {
            g = gcd64(g, mag64(p->t[i].coef));
            nonconst++;
        }
    }
    if (c0 != 0 && mag64(c0) % g != 0)
        err_dims(c, site, e, a, "no integer solution");

    /* Candidates: linear variables with coefficient +-g found nowhere else. */
    int best = -1;
    DVar *bv = NULL;
    for (uint32_t i = 0; i < p->nt; i++) {
        const Mono *m = &p->t[i];
        if (m->nf != 1 || !m->f[0].var || m->f[0].pow != 1 || mag64(m->coef) != g)
            continue;
        DVar *v = m->f[0].var;
        int elsewhere = 0;
        for (uint32_t j = 0; j < p->nt && !elsewhere; j++)
            if (j != i && dim_mentions(&(Dim){ .nt = 1, .t = (Mono *)&p->t[j] }, v))
                elsewhere = 1;
        if (elsewhere)
            continue;
        /* v = -(p - m) / coef: every coefficient of that must be >= 0,
         * unless v is the only unknown (then the value is checked below). */
        int sign = m->coef > 0 ? 1 : -1;
        int nice = 1;
        if (nonconst > 1)          /* (p is canonical: no zero coefficient) */
            for (uint32_t j = 0; j < p->nt; j++)
                if (j != i && (p->t[j].coef > 0) == (sign > 0))
                    nice = 0;
        if (!nice)
            continue;
        if (best < 0) {
            best = (int)i;
            bv = v;
        } else {
            int in_new = def_mentions(c, v->def, bv), in_old = def_mentions(c, bv->def, v);
            if (bind_first(v->id, v->dyn, v->def, in_new, bv->id, bv->dyn, bv->def, in_old)) {
                best = (int)i;
                bv = v;
            }
        }
    }
    if (best >= 0) {
        const Mono *m = &p->t[best];
        int64_t coef = m->coef;
        /* rest = p - m; v = -rest / coef */
        Mono *rest = ar_alloc(c->arena, sizeof(Mono) * p->nt);
        uint32_t n = 0;
        for (uint32_t j = 0; j < p->nt; j++)
            if ((int)j != best) {
                rest[n] = p->t[j];
                /* -coef_j / coef: exact, coef = +-g divides every coef_j */
                rest[n].coef = quotient(c, p->t[j].coef, g, coef > 0);
                n++;
            }
        Dim *val = dim_canon(c, rest, n, NULL);
        check_overflow(c, site);
        int64_t kv;
        if (dim_is_const(val, &kv) && kv < 0)
            err_dims(c, site, e, a, "no non-negative integer solution");
        /* The value's origin is the side that did not hold the variable. */
        val->origin = dim_mentions(e, bv) ? a->origin : e->origin;
        bind_dvar(c, bv, val, site->why);
        return 1;
    }

    /* One non-constant monomial left: partial expression simplification. */
    if (nonconst == 1) {
        const Mono *m = &p->t[0];
        /* value = -c0 / coef, in magnitudes: no overflow, no trap */
        uint64_t mc = mag64(c0), mm = mag64(m->coef);
        if (mc % mm != 0)
            err_dims(c, site, e, a, "no integer solution");
        if (c0 != 0 && (c0 < 0) == (m->coef < 0))
            err_dims(c, site, e, a, "no non-negative integer solution");
        if (mc / mm > (uint64_t)INT64_MAX)
            err_dims(c, site, e, a, "the solution overflows 64 bits");
        int64_t value = (int64_t)(mc / mm);
        if (m->nf == 1 && m->f[0].var) {
            /* v^k = value: an exact root or nothing */
            int64_t r = exact_root(value, m->f[0].pow);
            if (r < 0)
                err_dims(c, site, e, a, "no integer solution");
            bind_dvar(c, m->f[0].var, dim_const(c, r, e->origin), site->why);
            return 1;
        }
        if (!existing) {
            Constraint *k2 = cons_new(c, C_EQ_DIM, site->why);
            k2->l = e;
            k2->r = a;
            k2->rewrites = 1;
            rewrite_add(c, m, value, k2);
            cons_add(c, k2);
        } else if (existing->rewrites) {
            rewrite_add(c, m, value, existing);
        }
        return 0;
    }

    if (!existing) {
        Constraint *k2 = cons_new(c, C_EQ_DIM, site->why);
        k2->l = e;
        k2->r = a;
        cons_add(c, k2);
    }
    return 0;
}
