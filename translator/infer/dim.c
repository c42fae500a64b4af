/* dim.c - canonical polynomial dimensions: construction, arithmetic with
 * overflow checks, floor division, normalisation through bound variables.
 *
 * Canonical form (the "simplification" and "arithmetic simplification" of
 * the paper's section 5, made total): a sum of monomials sorted by
 * descending degree then by their factors, like terms merged, no zero
 * coefficient, the constant last.  Equality of dimensions is then equality
 * of their forms, so `n + m = m + n` and `n + n = 2 * n` hold syntactically.
 */
#include "dim.h"

#include <stdlib.h>
#include <string.h>

int64_t ck_add(Ctx *c, int64_t a, int64_t b)
{
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) {
        c->overflow = 1;
        return 0;
    }
    return a + b;
}

int64_t ck_mul(Ctx *c, int64_t a, int64_t b)
{
    if (a == 0 || b == 0)
        return 0;
    int bad;
    if (a > 0)
        bad = b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a;
    else
        bad = b > 0 ? a < INT64_MIN / b : b < INT64_MAX / a;
    if (bad) {
        c->overflow = 1;
        return 0;
    }
    return a * b;
}

uint64_t mag64(int64_t v)
{
    return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0)))
        q--;
    return q;
}

DVar *dvar_new(Ctx *c, const char *hint)
{
    DVar *v = ar_alloc(c->arena, sizeof *v);
    v->level = c->level;
    v->id = ++c->next_id;
    v->hint = hint;
    return v;
}

static Dim *dim_alloc(Ctx *c, uint32_t nt, const Origin *o)
{
    Dim *d = ar_alloc(c->arena, sizeof *d);
    d->nt = nt;
    d->t = nt ? ar_alloc(c->arena, sizeof(Mono) * nt) : NULL;
    d->origin = o;
    return d;
}

Dim *dim_const(Ctx *c, int64_t v, const Origin *o)
{
    Dim *d = dim_alloc(c, v != 0, o);
    if (v != 0)
        d->t[0].coef = v;
    return d;
}

/* Only a dimension made by arithmetic can overflow when it is normalised
 * (a bare variable stands for its value, a constant for itself), so these
 * are the ones that the end of an item must look at (infer.c,
 * check_arith). */
static void note_arith(Ctx *c, Dim *d)
{
    int64_t k;
    if (c->level > 0 && !dim_is_var(d) && !dim_is_const(d, &k))
        pv_push(c->arena, &c->arith, d);
}

/* The dimension made of one atom: a variable or a floor division. */
static Dim *dim_atom(Ctx *c, DVar *v, DivAtom *div, const Origin *o)
{
    Dim *d = dim_alloc(c, 1, o);
    d->t[0].coef = 1;
    d->t[0].nf = 1;
    d->t[0].f = ar_alloc(c->arena, sizeof(Factor));
    d->t[0].f[0].var = v;
    d->t[0].f[0].div = div;
    d->t[0].f[0].pow = 1;
    if (div)
        note_arith(c, d);
    return d;
}

/* A node of its own for one written occurrence of a variable (its origin
 * says where that occurrence is). */
Dim *dim_var_at(Ctx *c, DVar *v, const Origin *o)
{
    return dim_atom(c, v, NULL, o);
}

/* Other uses of a variable share one node; the first use's origin is the
 * node's. */
Dim *dim_of_var(Ctx *c, DVar *v, const Origin *o)
{
    if (v->self && dim_is_var(v->self) == v)
        return v->self;
    Dim *d = dim_atom(c, v, NULL, o);
    if (!v->self)
        v->self = d;
    return d;
}


Dim *dim_ragged(Ctx *c, const Origin *o)
{
    Dim *d = dim_alloc(c, 0, o);
    d->ragged = 1;
    return d;
}

int dim_is_const(const Dim *d, int64_t *v)
{
    if (d->ragged)
        return 0;
    if (d->nt == 0) {
        *v = 0;
        return 1;
    }
    if (d->nt == 1 && d->t[0].nf == 0) {
        *v = d->t[0].coef;
        return 1;
    }
    return 0;
}

DVar *dim_is_var(const Dim *d)
{
    if (!d->ragged && d->nt == 1 && d->t[0].coef == 1 && d->t[0].nf == 1 &&
        d->t[0].f[0].var && d->t[0].f[0].pow == 1)
        return d->t[0].f[0].var;
    return NULL;
}

int dim_has_neg(const Dim *d)
{
    for (uint32_t i = 0; i < d->nt; i++) {
        if (d->t[i].coef < 0)
            return 1;
        /* a floor division is as negative as its numerator: (W - w) / 2 */
        for (uint32_t j = 0; j < d->t[i].nf; j++)
            if (d->t[i].f[j].div && dim_has_neg(d->t[i].f[j].div->num))
                return 1;
    }
    return 0;
}

/* ---- ordering ------------------------------------------------------ */

static int factor_cmp(const Factor *a, const Factor *b)
{
    if (a->var && b->var) {
        if (a->var->id != b->var->id)
            return a->var->id < b->var->id ? -1 : 1;
    } else if (a->var || b->var) {
        return a->var ? -1 : 1;           /* variables before divisions */
    } else if (a->div != b->div) {
        int k = dim_cmp(a->div->num, b->div->num);
        if (!k)
            k = dim_cmp(a->div->den, b->div->den);
        if (k)
            return k;
    }
    if (a->pow != b->pow)
        return a->pow > b->pow ? -1 : 1;
    return 0;
}

int mono_degree(const Mono *m)
{
    int d = 0;
    for (uint32_t i = 0; i < m->nf; i++)
        d += (int)m->f[i].pow;
    return d;
}

/* Compares the monomials' factors only (not their coefficients). */
int mono_cmp(const Mono *a, const Mono *b)
{
    int da = mono_degree(a), db = mono_degree(b);
    if (da != db)
        return da > db ? -1 : 1;
    uint32_t n = a->nf < b->nf ? a->nf : b->nf;
    for (uint32_t i = 0; i < n; i++) {
        int k = factor_cmp(&a->f[i], &b->f[i]);
        if (k)
            return k;
    }
    if (a->nf != b->nf)
        return a->nf < b->nf ? -1 : 1;
    return 0;
}

int dim_cmp(const Dim *a, const Dim *b)
{
    if (a == b)
        return 0;
    if (a->ragged != b->ragged)
        return a->ragged ? 1 : -1;
    uint32_t n = a->nt < b->nt ? a->nt : b->nt;
    for (uint32_t i = 0; i < n; i++) {
        int k = mono_cmp(&a->t[i], &b->t[i]);
        if (k)
            return k;
        if (a->t[i].coef != b->t[i].coef)
            return a->t[i].coef < b->t[i].coef ? -1 : 1;
    }
    if (a->nt != b->nt)
        return a->nt < b->nt ? -1 : 1;
    return 0;
}

int dim_equal(const Dim *a, const Dim *b)
{
    return dim_cmp(a, b) == 0;
}

/* ---- building canonical forms -------------------------------------- */

static int mono_qsort_cmp(const void *x, const void *y)
{
    return mono_cmp(x, y);
}

/* Sorts and merges monomials (in a scratch array) into a canonical Dim. */
static Dim *dim_from_monos(Ctx *c, Mono *m, uint32_t n, const Origin *o)
{
    if (n > DIM_MAX_TERMS) {
        c->overflow = 2;
        return dim_const(c, 0, o);
    }
    uint32_t k = 1;
    while (k < n && mono_cmp(&m[k - 1], &m[k]) <= 0)   /* often in order already */
        k++;
    if (k < n)
        qsort(m, n, sizeof *m, mono_qsort_cmp);
    k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (k > 0 && mono_cmp(&m[k - 1], &m[i]) == 0)
            m[k - 1].coef = ck_add(c, m[k - 1].coef, m[i].coef);
        else
            m[k++] = m[i];
    }
    uint32_t kept = 0;
    for (uint32_t i = 0; i < k; i++)
        if (m[i].coef != 0)
            m[kept++] = m[i];
    k = kept;
    /* The scratch array (fresh for every operation) becomes the result. */
    Dim *d = ar_alloc(c->arena, sizeof *d);
    d->nt = k;
    d->t = k ? m : NULL;
    d->origin = o;
    note_arith(c, d);
    return d;
}

Dim *dim_canon(Ctx *c, Mono *m, uint32_t n, const Origin *o)
{
    return dim_from_monos(c, m, n, o);
}

static Mono *scratch(Ctx *c, uint32_t n)
{
    return ar_alloc(c->arena, sizeof(Mono) * (n ? n : 1));
}

Dim *dim_add(Ctx *c, Dim *a, Dim *b, const Origin *o)
{
    if (a->ragged || b->ragged)
        return dim_ragged(c, o);
    Mono *m = scratch(c, a->nt + b->nt);
    if (a->nt)
        memcpy(m, a->t, sizeof(Mono) * a->nt);
    if (b->nt)
        memcpy(m + a->nt, b->t, sizeof(Mono) * b->nt);
    return dim_from_monos(c, m, a->nt + b->nt, o);
}

Dim *dim_scale(Ctx *c, Dim *a, int64_t k, const Origin *o)
{
    if (a->ragged)
        return dim_ragged(c, o);
    Mono *m = scratch(c, a->nt);
    for (uint32_t i = 0; i < a->nt; i++) {
        m[i] = a->t[i];
        m[i].coef = ck_mul(c, a->t[i].coef, k);
    }
    return dim_from_monos(c, m, a->nt, o);
}

Dim *dim_sub(Ctx *c, Dim *a, Dim *b, const Origin *o)
{
    if (a->ragged || b->ragged)
        return dim_ragged(c, o);
    Mono *m = scratch(c, a->nt + b->nt);
    if (a->nt)
        memcpy(m, a->t, sizeof(Mono) * a->nt);
    for (uint32_t i = 0; i < b->nt; i++) {
        m[a->nt + i] = b->t[i];
        m[a->nt + i].coef = b->t[i].coef == INT64_MIN ? (c->overflow = 1, 0) : -b->t[i].coef;
    }
    return dim_from_monos(c, m, a->nt + b->nt, o);
}

/* The product of two monomials: factor lists merged, powers added. */
static Mono mono_mul(Ctx *c, const Mono *x, const Mono *y)
{
    Mono r;
    r.coef = ck_mul(c, x->coef, y->coef);
    r.f = ar_alloc(c->arena, sizeof(Factor) * (x->nf + y->nf + 1));
    uint32_t i = 0, j = 0, k = 0;
    while (i < x->nf || j < y->nf) {
        int cmp;
        if (i == x->nf)
            cmp = 1;
        else if (j == y->nf)
            cmp = -1;
        else {
            Factor fx = x->f[i], fy = y->f[j];
            fx.pow = fy.pow = 1;          /* compare the atoms, not powers */
            cmp = factor_cmp(&fx, &fy);
        }
        if (cmp < 0)
            r.f[k++] = x->f[i++];
        else if (cmp > 0)
            r.f[k++] = y->f[j++];
        else {
            r.f[k] = x->f[i++];
            r.f[k].pow += y->f[j++].pow;
            k++;
        }
    }
    r.nf = k;
    return r;
}

Dim *dim_mul(Ctx *c, Dim *a, Dim *b, const Origin *o)
{
    if (a->ragged || b->ragged)
        return dim_ragged(c, o);
    if ((uint64_t)a->nt * b->nt > DIM_MAX_TERMS) {
        c->overflow = 2;
        return dim_const(c, 0, o);
    }
    uint32_t n = a->nt * b->nt;
    Mono *m = scratch(c, n);
    uint32_t k = 0;
    for (uint32_t i = 0; i < a->nt; i++)
        for (uint32_t j = 0; j < b->nt; j++)
            m[k++] = mono_mul(c, &a->t[i], &b->t[j]);
    return dim_from_monos(c, m, n, o);
}

/* The deepest nesting of floor divisions in d. */
static uint32_t div_depth(const Dim *d)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < d->nt; i++)
        for (uint32_t j = 0; j < d->t[i].nf; j++)
            if (d->t[i].f[j].div && d->t[i].f[j].div->depth > m)
                m = d->t[i].f[j].div->depth;
    return m;
}

/* floor(a / b).  Simplifies when b is a constant dividing every non-constant
 * coefficient of a: (k*q + r) / k = q + floor(r / k).  Otherwise the quotient
 * is an opaque atom.  Returns NULL when b is the constant 0. */
/* The terms of a that b (one positive term: a constant, or a coefficient
 * times sizes) divides go to *q, divided, the rest to *r; a constant term
 * c splits as floor(c / k) and c mod k for a constant k.  Then
 * floor(a / b) = q + floor(r / b) for every b > 0: `(h - p) / p` is
 * `h / p - 1`, `(2 * n + 3) / 2` is `n + 1 + 1 / 2` = `n + 1`.  0 when b
 * divides none of them. */
static int div_split(Ctx *c, Dim *a, Dim *b, Dim **q, Dim **r)
{
    if (b->nt != 1 || b->t[0].coef <= 0)
        return 0;
    const Mono *d = &b->t[0];
    Mono *qm = scratch(c, a->nt), *rm = scratch(c, a->nt + 1);
    uint32_t nq = 0, nr = 0;
    for (uint32_t i = 0; i < a->nt; i++) {
        const Mono *t = &a->t[i];
        int fits = d->nf == 0 || t->nf > 0;
        for (uint32_t j = 0; j < d->nf && fits; j++) {
            uint32_t have = 0;
            for (uint32_t l = 0; l < t->nf; l++)
                if ((t->f[l].var && t->f[l].var == d->f[j].var) || (t->f[l].div && t->f[l].div == d->f[j].div))
                    have = t->f[l].pow;
            fits = have >= d->f[j].pow;
        }
        if (fits && d->nf == 0 && t->nf == 0) {     /* a constant by a constant */
            int64_t fq = floor_div(t->coef, d->coef), fr = t->coef - fq * d->coef;
            if (fq)
                qm[nq++] = (Mono){ fq, 0, NULL };
            if (fr)
                rm[nr++] = (Mono){ fr, 0, NULL };
            continue;
        }
        if (!fits || t->coef % d->coef != 0) {
            rm[nr++] = *t;
            continue;
        }
        Factor *f = ar_alloc(c->arena, sizeof(Factor) * (t->nf ? t->nf : 1));
        uint32_t nf = 0;
        for (uint32_t l = 0; l < t->nf; l++) {
            Factor x = t->f[l];
            for (uint32_t j = 0; j < d->nf; j++)
                if ((x.var && x.var == d->f[j].var) || (x.div && x.div == d->f[j].div))
                    x.pow -= d->f[j].pow;
            if (x.pow)
                f[nf++] = x;
        }
        qm[nq++] = (Mono){ t->coef / d->coef, nf, f };
    }
    if (nq == 0)
        return 0;
    *q = dim_from_monos(c, qm, nq, NULL);
    *r = dim_from_monos(c, rm, nr, NULL);
    return 1;
}

Dim *dim_div(Ctx *c, Dim *a, Dim *b, const Origin *o)
{
    if (a->ragged || b->ragged)
        return dim_ragged(c, o);
    int64_t k;
    if (dim_is_const(b, &k)) {
        if (k == 0)
            return NULL;
        if (k == 1)
            return a;
        if (k == -1)                   /* (k % -1 and INT64_MIN / -1 trap) */
            return dim_scale(c, a, -1, o);
        int divisible = 1;
        for (uint32_t i = 0; i < a->nt; i++)
            if (a->t[i].nf > 0 && a->t[i].coef % k != 0)
                divisible = 0;
        if (divisible) {
            Mono *m = scratch(c, a->nt);
            for (uint32_t i = 0; i < a->nt; i++) {
                m[i] = a->t[i];
                m[i].coef = m[i].nf > 0 ? a->t[i].coef / k : floor_div(a->t[i].coef, k);
            }
            return dim_from_monos(c, m, a->nt, o);
        }
    }
    /* (x / j) / k = x / (j * k) for positive constants: `(t / 2) / 2` of
     * two poolings is `t / 4` */
    /* and (x / j + K) / k = (x + K * j) / (j * k): `((h + 1) / 2 + 1) / 2`
     * of two stride-2 convolutions is `(h + 3) / 4` */
    int64_t j, K = 0;
    const Mono *dt = a->nt >= 1 ? &a->t[0] : NULL;
    if (a->nt == 2 && a->t[1].nf == 0)
        K = a->t[1].coef;
    if (dim_is_const(b, &k) && k > 0 && (a->nt == 1 || (a->nt == 2 && a->t[1].nf == 0)) && dt->coef == 1 &&
        dt->nf == 1 && dt->f[0].div && dt->f[0].pow == 1 && dim_is_const(dt->f[0].div->den, &j) && j > 0 &&
        k <= INT64_MAX / j) {
        int saved = c->overflow;
        Dim *num = K ? dim_add(c, dt->f[0].div->num, dim_const(c, ck_mul(c, K, j), o), o) : dt->f[0].div->num;
        if (!c->overflow)
            return dim_div(c, num, dim_const(c, j * k, o), o);
        c->overflow = saved;
    }
    /* (q * b + r) / b = q + r / b; r / b stays a division even where r is
     * 0, so that the header still checks b != 0 */
    Dim *q, *r;
    if (div_split(c, a, b, &q, &r)) {
        int64_t z;
        Dim *rest = dim_is_const(r, &z) && z == 0 && dim_is_const(b, &k) ? r : dim_div(c, r, b, o);
        return rest ? dim_add(c, q, rest, o) : NULL;
    }
    /* (0 / b stays a division: it is 0 only where b is not, and the header
     * checks that) */
    DivAtom *div = ar_alloc(c->arena, sizeof *div);
    div->num = a;
    div->den = b;
    div->depth = 1 + (div_depth(a) > div_depth(b) ? div_depth(a) : div_depth(b));
    if (div->depth > DIM_MAX_NEST) {
        c->overflow = 2;
        return dim_const(c, 0, o);
    }
    return dim_atom(c, NULL, div, o);
}

/* ---- normalisation --------------------------------------------------- */

/* Whether a variable in d is bound.  A dimension found to have none is
 * marked (clean) until the next binding: a deep nest of floor divisions is
 * then not walked again at every normalisation. */
static int needs_norm(Ctx *c, Dim *d)
{
    if (d->clean == c->epoch + 1)
        return 0;
    for (uint32_t i = 0; i < d->nt; i++)
        for (uint32_t j = 0; j < d->t[i].nf; j++) {
            const Factor *f = &d->t[i].f[j];
            if (f->var ? f->var->link != NULL
                       : needs_norm(c, f->div->num) || needs_norm(c, f->div->den))
                return 1;
        }
    d->clean = c->epoch + 1;
    return 0;
}

static Dim *dim_pow(Ctx *c, Dim *x, uint32_t pow, const Origin *o)
{
    Dim *r = x;
    for (uint32_t i = 1; i < pow && !c->overflow; i++)
        r = dim_mul(c, r, x, o);
    return r;
}

static Rewrite *find_rewrite(Ctx *c, const Mono *m)
{
    for (Rewrite *r = c->rewrites; r; r = r->next)
        if (mono_cmp(&r->key, m) == 0)
            return r;
    return NULL;
}

/* Applies the rewrite rules of partial expression simplification to the
 * non-linear monomials of d. */
static Dim *apply_rewrites(Ctx *c, Dim *d)
{
    int hit = 0;
    for (uint32_t i = 0; i < d->nt && !hit; i++)
        if ((mono_degree(&d->t[i]) > 1 || (d->t[i].nf == 1 && d->t[i].f[0].div)) && find_rewrite(c, &d->t[i]))
            hit = 1;
    if (!hit)
        return d;
    Mono *m = scratch(c, d->nt);
    for (uint32_t i = 0; i < d->nt; i++) {
        m[i] = d->t[i];
        Rewrite *r = m[i].nf ? find_rewrite(c, &m[i]) : NULL;
        if (r) {
            m[i].coef = ck_mul(c, m[i].coef, r->value);
            m[i].nf = 0;
            m[i].f = NULL;
        }
    }
    return dim_from_monos(c, m, d->nt, d->origin);
}

static Dim *norm(Ctx *c, Dim *d, int rewrite);

static Dim *norm_fresh(Ctx *c, Dim *d, int rewrite)
{
    if (d->ragged)
        return d;
    if (!needs_norm(c, d))
        return rewrite && c->rewrites ? apply_rewrites(c, d) : d;
    DVar *only = dim_is_var(d);
    if (only) {
        /* A bare bound variable stands for its value (path compression,
         * keeping the value's own origin). */
        Dim *val = norm(c, only->link, rewrite);
        if (!c->overflow)
            only->link = val;
        return val;
    }
    /* Linear (the usual case): substitute each variable's value in one
     * pass and merge once. */
    int linear = 1;
    uint32_t count = 0;
    for (uint32_t i = 0; i < d->nt && linear; i++) {
        const Mono *m = &d->t[i];
        if (m->nf == 0) {
            count++;
        } else if (m->nf == 1 && m->f[0].var && m->f[0].pow == 1) {
            DVar *v = m->f[0].var;
            if (v->link) {
                Dim *val = norm(c, v->link, rewrite);
                if (c->overflow)   /* nothing is stored after an overflow */
                    return dim_const(c, 0, d->origin);
                v->link = val;
                if (v->link->ragged)
                    return v->link;
                count += v->link->nt;
            } else {
                count++;
            }
        } else {
            linear = 0;
        }
    }
    if (linear) {
        Mono *out = scratch(c, count);
        uint32_t k = 0;
        for (uint32_t i = 0; i < d->nt; i++) {
            const Mono *m = &d->t[i];
            DVar *v = m->nf ? m->f[0].var : NULL;
            if (v && v->link) {
                for (uint32_t j = 0; j < v->link->nt; j++) {
                    out[k] = v->link->t[j];
                    out[k].coef = ck_mul(c, m->coef, v->link->t[j].coef);
                    k++;
                }
            } else {
                out[k++] = *m;
            }
        }
        Dim *r = dim_from_monos(c, out, k, d->origin);
        return rewrite && c->rewrites ? apply_rewrites(c, r) : r;
    }
    Dim *sum = dim_const(c, 0, d->origin);
    for (uint32_t i = 0; i < d->nt; i++) {
        const Mono *m = &d->t[i];
        Dim *term = dim_const(c, m->coef, d->origin);
        for (uint32_t j = 0; j < m->nf; j++) {
            const Factor *f = &m->f[j];
            Dim *x;
            if (f->var) {
                if (f->var->link) {
                    x = norm(c, f->var->link, rewrite);
                    if (!c->overflow)
                        f->var->link = x;
                } else {
                    x = dim_of_var(c, f->var, d->origin);
                }
            } else {
                x = dim_div(c, norm(c, f->div->num, rewrite), norm(c, f->div->den, rewrite), d->origin);
                if (!x)   /* the divisor became 0: reported by the solver */
                    x = dim_const(c, 0, d->origin), c->overflow = 3;
            }
            term = dim_mul(c, term, dim_pow(c, x, f->pow, d->origin), d->origin);
            if (term->ragged)
                return term;
        }
        sum = dim_add(c, sum, term, d->origin);
    }
    sum->origin = d->origin;
    return rewrite && c->rewrites ? apply_rewrites(c, sum) : sum;
}


/* Normalises, and (when no rewrite rule exists, so that nothing but bound
 * variables was replaced) stores the result in a compound d itself, so the
 * work is not repeated and no garbage accumulates: d keeps its meaning.  A
 * bare variable's node is left alone: it records which variable stood at
 * that place, which the emitter needs to say why two sizes must agree. */
static Dim *norm(Ctx *c, Dim *d, int rewrite)
{
    if (c->norm_depth >= DIM_MAX_NORM) {       /* a chain of bindings too long */
        c->overflow = 2;
        return dim_const(c, 0, d->origin);
    }
    c->norm_depth++;
    Dim *r = norm_fresh(c, d, rewrite);
    c->norm_depth--;
    if (r == d || c->rewrites || dim_is_var(d) || c->overflow)
        return r;
    d->ragged = r->ragged;
    d->nt = r->nt;
    d->t = r->t;
    return d;
}

Dim *dim_norm(Ctx *c, Dim *d)
{
    return norm(c, d, 1);
}

Dim *dim_norm_raw(Ctx *c, Dim *d)
{
    return norm(c, d, 0);
}

int dim_mentions(const Dim *d, const DVar *v)
{
    for (uint32_t i = 0; i < d->nt; i++)
        for (uint32_t j = 0; j < d->t[i].nf; j++) {
            const Factor *f = &d->t[i].f[j];
            if (f->var ? f->var == v : dim_mentions(f->div->num, v) || dim_mentions(f->div->den, v))
                return 1;
        }
    return 0;
}

void dim_each_var(const Dim *d, void (*fn)(DVar *, void *), void *arg)
{
    for (uint32_t i = 0; i < d->nt; i++)
        for (uint32_t j = 0; j < d->t[i].nf; j++) {
            const Factor *f = &d->t[i].f[j];
            if (f->var)
                fn(f->var, arg);
            else {
                dim_each_var(f->div->num, fn, arg);
                dim_each_var(f->div->den, fn, arg);
            }
        }
}

int dim_can_equal(const Dim *d, int64_t v)
{
    if (d->ragged)
        return 0;
    /* c0 + a * x, one variable to the first power */
    int64_t c0 = 0, a = 0;
    DVar *x = NULL;
    for (uint32_t i = 0; i < d->nt; i++) {
        const Mono *m = &d->t[i];
        if (m->nf == 0)
            c0 = m->coef;
        else if (m->nf == 1 && m->f[0].var && m->f[0].pow == 1 && !x) {
            x = m->f[0].var;
            a = m->coef;
        } else
            return -1;
    }
    if (!x)
        return c0 == v;
    if ((v >= 0 && c0 < v - INT64_MAX) || (v < 0 && c0 > v - INT64_MIN))
        return -1;
    int64_t r = v - c0;
    if (a == -1 && r == INT64_MIN)
        return -1;
    return r % a == 0 && r / a >= 0;
}

/* ---- hashing and maps ------------------------------------------------ */

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
}

/* A floor division's hash is kept for the generation it was made in (a
 * nest of them is hashed once, not at every level of every lookup). */
static uint64_t hash_mono(uint64_t h, const Mono *m, uint32_t gen)
{
    h = mix(h, (uint64_t)m->coef);
    for (uint32_t j = 0; j < m->nf; j++) {
        const Factor *f = &m->f[j];
        uint64_t x;
        if (f->var) {
            x = f->var->id;
        } else if (gen && f->div->hash_gen == gen) {
            x = f->div->hash;
        } else {
            x = mix(dim_hash(f->div->num, gen), dim_hash(f->div->den, gen));
            f->div->hash = x;
            f->div->hash_gen = gen;
        }
        h = mix(mix(h, x), f->pow);
    }
    return h;
}

uint64_t dim_hash(const Dim *d, uint32_t gen)
{
    uint64_t h = d->ragged ? 0x5bd1e995ULL : 0xcbf29ce484222325ULL;
    for (uint32_t i = 0; i < d->nt; i++)
        h = hash_mono(h, &d->t[i], gen);
    return h;
}

/* The hash is a running one over the terms in canonical order: the hash
 * after i terms is that of the sum of d's first i terms (a canonical
 * polynomial too), which dm_get_prefix looks up. */
void dim_hash_prefixes(const Dim *d, uint32_t gen, uint64_t *pre)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (uint32_t i = 0; i < d->nt; i++)
        pre[i] = h = hash_mono(h, &d->t[i], gen);
}

void dm_init(DimMap *m, Arena *a, uint32_t gen)
{
    m->a = a;
    m->slot = NULL;
    m->cap = m->n = 0;
    m->gen = gen;
    m->memo = NULL;
}

static uint64_t map_hash(const DimMap *m, const Dim *d)
{
    if (!m->memo || !m->gen || d->nt < DIM_MEMO_MIN_TERMS)
        return dim_hash(d, m->gen);
    uintptr_t at = (uintptr_t)d;
    DimHashMemo *memo = m->memo;
    size_t i = (size_t)((at >> 4) ^ (at >> 12)) % DIM_MEMO_SLOTS;
    if (memo->e[i].d == d && memo->e[i].t == d->t && memo->e[i].nt == d->nt && memo->e[i].gen == m->gen)
        return memo->e[i].hash;
    uint64_t h = dim_hash(d, m->gen);
    memo->e[i].d = d;
    memo->e[i].t = d->t;
    memo->e[i].nt = d->nt;
    memo->e[i].gen = m->gen;
    memo->e[i].hash = h;
    return h;
}

static DimSlot *dm_find(const DimMap *m, const Dim *d, uint64_t h)
{
    size_t mask = m->cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        DimSlot *s = &m->slot[i];
        if (!s->key || (s->hash == h && dim_equal(s->key, d)))
            return s;
    }
}

void *dm_get(const DimMap *m, const Dim *d)
{
    if (!m->cap)
        return NULL;
    DimSlot *s = dm_find(m, d, map_hash(m, d));
    return s->key ? s->val : NULL;
}

void *dm_get_prefix(const DimMap *m, const Dim *d, uint32_t n, uint64_t h)
{
    if (!m->cap)
        return NULL;
    size_t mask = m->cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        const DimSlot *s = &m->slot[i];
        if (!s->key)
            return NULL;
        if (s->hash != h || s->key->ragged || s->key->nt != n)
            continue;
        uint32_t k = 0;
        while (k < n && mono_cmp(&s->key->t[k], &d->t[k]) == 0)
            k++;
        if (k == n)
            return s->val;
    }
}

void dm_put(DimMap *m, Dim *d, void *val)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 16;
        DimSlot *old = m->slot;
        size_t ocap = m->cap;
        m->slot = ar_alloc(m->a, sizeof(DimSlot) * cap);
        m->cap = cap;
        for (size_t i = 0; i < ocap; i++)
            if (old[i].key)
                *dm_find(m, old[i].key, old[i].hash) = old[i];
    }
    uint64_t h = map_hash(m, d);
    DimSlot *s = dm_find(m, d, h);
    if (!s->key)
        m->n++;
    s->hash = h;
    s->key = d;
    s->val = val;
}
