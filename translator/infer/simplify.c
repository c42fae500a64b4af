/* simplify.c - the shortest form a person would write of a signature's
 * sizes and clauses (simplify.h). */
#include "simplify.h"

#include "dim.h"

static int64_t gcd64(int64_t a, int64_t b)
{
    uint64_t x = mag64(a), y = mag64(b);
    while (y) {
        uint64_t t = x % y;
        x = y;
        y = t;
    }
    return x > (uint64_t)INT64_MAX ? 0 : (int64_t)x;
}

static int is_zero(const Dim *d)
{
    int64_t v;
    return dim_is_const(d, &v) && v == 0;
}

/* d without the term at index skip. */
static Dim *without(Ctx *c, Dim *d, uint32_t skip)
{
    Mono *m = ar_alloc(c->arena, sizeof(Mono) * (d->nt ? d->nt : 1));
    uint32_t n = 0;
    for (uint32_t i = 0; i < d->nt; i++)
        if (i != skip)
            m[n++] = d->t[i];
    return dim_canon(c, m, n, NULL);
}

/* Whether the factors of t other than at index skip are exactly those of
 * the one term of den (a coefficient aside). */
static int rest_is(const Mono *t, uint32_t skip, const Mono *den)
{
    if (t->nf - 1 != den->nf)
        return 0;
    for (uint32_t j = 0; j < den->nf; j++) {
        int found = 0;
        for (uint32_t l = 0; l < t->nf && !found; l++)
            found = l != skip && t->f[l].pow == den->f[j].pow &&
                    ((t->f[l].var && t->f[l].var == den->f[j].var) ||
                     (t->f[l].div && t->f[l].div == den->f[j].div));
        if (!found)
            return 0;
    }
    return 1;
}

/* num modulo a constant k: terms whose coefficient k divides dropped, the
 * constant reduced (`(h - 4) % 2` is `h % 2`). */
static Dim *mod_reduce(Ctx *c, Dim *num, Dim *den)
{
    int64_t k;
    if (!dim_is_const(den, &k) || k <= 0)
        return num;
    Mono *m = ar_alloc(c->arena, sizeof(Mono) * (num->nt ? num->nt : 1));
    uint32_t n = 0;
    for (uint32_t i = 0; i < num->nt; i++) {
        Mono t = num->t[i];
        if (t.nf == 0)
            t.coef = t.coef - floor_div(t.coef, k) * k;
        if (t.coef % k != 0)
            m[n++] = t;
    }
    return dim_canon(c, m, n, NULL);
}

int simp_mod(Ctx *c, Dim *d, SimpMod *out)
{
    if (d->ragged)
        return 0;
    int saved = c->overflow;
    for (uint32_t i = 0; i < d->nt; i++) {
        const Mono *t = &d->t[i];
        for (uint32_t j = 0; j < t->nf; j++) {
            const Factor *f = &t->f[j];
            if (!f->div || f->pow != 1)
                continue;
            Dim *den = dim_norm(c, f->div->den), *num = dim_norm(c, f->div->num);
            if (den->nt != 1 || den->t[0].coef <= 0 || t->coef >= 0 || t->coef % den->t[0].coef != 0 ||
                !rest_is(t, j, &den->t[0]) || num->ragged)
                continue;
            int64_t k = -(t->coef / den->t[0].coef);
            Dim *rest = dim_sub(c, without(c, d, i), dim_scale(c, num, k, NULL), NULL);
            if (c->overflow) {
                c->overflow = saved;
                continue;
            }
            if (rest->nt + num->nt > d->nt)
                continue;               /* num's terms are not there: no shorter */
            out->rest = rest;
            out->num = mod_reduce(c, num, den);
            out->den = den;
            out->k = k;
            return 1;
        }
    }
    return 0;
}

Dim *simp_drop_zero_divisions(Ctx *c, Dim *d)
{
    if (d->ragged)
        return d;
    Mono *m = ar_alloc(c->arena, sizeof(Mono) * (d->nt ? d->nt : 1));
    uint32_t n = 0;
    for (uint32_t i = 0; i < d->nt; i++) {
        int zero = 0;
        for (uint32_t j = 0; j < d->t[i].nf && !zero; j++)
            zero = d->t[i].f[j].div && is_zero(dim_norm(c, d->t[i].f[j].div->num));
        if (!zero)
            m[n++] = d->t[i];
    }
    return n == d->nt || n == 0 ? d : dim_canon(c, m, n, NULL);
}

/* d divided by the variables every term has (each at its least power) and
 * by the gcd of the coefficients; *cut set when anything was. */
static Dim *cancel_common(Ctx *c, Dim *d, int *cut);

Dim *simp_cancel(Ctx *c, Dim *d, Dim **factor)
{
    int cut;
    d = dim_norm(c, d);
    Dim *p = cancel_common(c, d, &cut);
    if (factor) {
        int saved = c->overflow;
        /* the sizes cancelled: d's first term over p's first term's */
        Dim *f = NULL;
        if (cut && p->nt && d->nt) {
            const Mono *a = &d->t[0], *b = &p->t[0];
            Factor *fs = ar_alloc(c->arena, sizeof(Factor) * (a->nf ? a->nf : 1));
            uint32_t nf = 0;
            for (uint32_t i = 0; i < a->nf; i++) {
                Factor x = a->f[i];
                for (uint32_t j = 0; j < b->nf; j++)
                    if ((x.var && x.var == b->f[j].var) || (x.div && x.div == b->f[j].div))
                        x.pow -= b->f[j].pow;
                if (x.pow && x.var)
                    fs[nf++] = x;
            }
            Mono *m = ar_alloc(c->arena, sizeof *m);
            *m = (Mono){ 1, nf, fs };
            f = dim_canon(c, m, 1, NULL);
        }
        c->overflow = saved;
        *factor = f;
    }
    return p;
}

static Dim *cancel_common(Ctx *c, Dim *d, int *cut)
{
    *cut = 0;
    if (d->nt == 0)
        return d;
    int64_t g = 0;
    for (uint32_t i = 0; i < d->nt; i++)
        g = gcd64(g, d->t[i].coef);
    const Mono *first = &d->t[0];
    Factor *common = ar_alloc(c->arena, sizeof(Factor) * (first->nf ? first->nf : 1));
    uint32_t nc = 0;
    for (uint32_t j = 0; j < first->nf; j++) {
        if (!first->f[j].var)
            continue;
        uint32_t least = first->f[j].pow;
        for (uint32_t i = 1; i < d->nt && least; i++) {
            uint32_t have = 0;
            for (uint32_t l = 0; l < d->t[i].nf; l++)
                if (d->t[i].f[l].var == first->f[j].var)
                    have = d->t[i].f[l].pow;
            if (have < least)
                least = have;
        }
        if (least)
            common[nc++] = (Factor){ first->f[j].var, NULL, least };
    }
    if (nc == 0 && g <= 1)
        return d;
    Mono *m = ar_alloc(c->arena, sizeof(Mono) * d->nt);
    for (uint32_t i = 0; i < d->nt; i++) {
        const Mono *t = &d->t[i];
        Factor *f = ar_alloc(c->arena, sizeof(Factor) * (t->nf ? t->nf : 1));
        uint32_t nf = 0;
        for (uint32_t l = 0; l < t->nf; l++) {
            Factor x = t->f[l];
            for (uint32_t j = 0; j < nc; j++)
                if (x.var && x.var == common[j].var)
                    x.pow -= common[j].pow;
            if (x.pow)
                f[nf++] = x;
        }
        m[i] = (Mono){ g > 1 ? t->coef / g : t->coef, nf, f };
    }
    *cut = 1;
    return dim_canon(c, m, d->nt, NULL);
}

/* p = A * x + k * A = A * (x + k) with x a size and k > 0 a constant: as
 * x + k > 0, p = 0 exactly when A = 0 (`h * (d / h) * (p + 1) = d * (p + 1)`
 * is `h * (d / h) = d`).  Returns A, or NULL. */
static Dim *cancel_positive_linear(Ctx *c, Dim *p)
{
    for (uint32_t i = 0; i < p->nt; i++)
        for (uint32_t j = 0; j < p->t[i].nf; j++) {
            DVar *x = p->t[i].f[j].var;
            if (!x)
                continue;
            /* A: the terms with x (x taken out), B: those without */
            Mono *a = ar_alloc(c->arena, sizeof(Mono) * p->nt), *b = ar_alloc(c->arena, sizeof(Mono) * p->nt);
            uint32_t na = 0, nb = 0;
            int linear = 1;
            for (uint32_t k = 0; k < p->nt && linear; k++) {
                const Mono *t = &p->t[k];
                int at = -1;
                for (uint32_t l = 0; l < t->nf; l++)
                    if (t->f[l].var == x)
                        at = (int)l;
                if (at < 0) {
                    b[nb++] = *t;
                    continue;
                }
                if (t->f[at].pow != 1) {
                    linear = 0;
                    break;
                }
                Factor *f = ar_alloc(c->arena, sizeof(Factor) * t->nf);
                uint32_t nf = 0;
                for (uint32_t l = 0; l < t->nf; l++)
                    if ((int)l != at)
                        f[nf++] = t->f[l];
                a[na++] = (Mono){ t->coef, nf, f };
            }
            if (!linear || !na || !nb)
                continue;
            Dim *A = dim_canon(c, a, na, NULL), *B = dim_canon(c, b, nb, NULL);
            if (A->nt != B->nt || A->t[0].coef == 0 || B->t[0].coef % A->t[0].coef != 0)
                continue;
            int64_t k = B->t[0].coef / A->t[0].coef;
            int saved = c->overflow;
            Dim *rest = k > 0 ? dim_sub(c, B, dim_scale(c, A, k, NULL), NULL) : NULL;
            int ok = rest && !c->overflow && is_zero(rest);
            c->overflow = saved;
            if (ok)
                return A;
        }
    return NULL;
}

int simp_equation(Ctx *c, Dim **l, Dim **r, SimpMod *mod, int *is_mod)
{
    *is_mod = 0;
    int saved = c->overflow;
    Dim *diff = dim_sub(c, dim_norm(c, *l), dim_norm(c, *r), NULL);
    if (c->overflow || diff->ragged || diff->nt == 0) {
        c->overflow = saved;
        return 0;
    }
    int cut;
    Dim *p = cancel_common(c, diff, &cut);
    for (Dim *a; p->nt > 1 && (a = cancel_positive_linear(c, p)) != NULL;)
        p = cancel_common(c, a, &cut);
    int64_t z;
    if (dim_is_const(p, &z)) {      /* `a * b * h * w = 0`, not `1 = 0` */
        p = diff;
        if (p->nt == 1) {
            Mono *one = ar_alloc(c->arena, sizeof *one);
            *one = (Mono){ 1, p->t[0].nf, p->t[0].f };
            p = dim_canon(c, one, 1, NULL);
        }
    }
    if (p->nt && p->t[0].coef < 0)
        p = dim_scale(c, p, -1, NULL);
    if (c->overflow) {
        c->overflow = saved;
        return 0;
    }
    if ((simp_mod(c, p, mod) && is_zero(mod->rest)) ||
        (simp_mod(c, dim_scale(c, p, -1, NULL), mod) && is_zero(mod->rest))) {
        *is_mod = 1;
        return 1;
    }
    (void)cut;
    /* the terms with a minus on the right */
    Mono *pos = ar_alloc(c->arena, sizeof(Mono) * p->nt), *neg = ar_alloc(c->arena, sizeof(Mono) * p->nt);
    uint32_t np = 0, nn = 0;
    for (uint32_t i = 0; i < p->nt; i++) {
        if (p->t[i].coef == INT64_MIN)
            return 0;
        if (p->t[i].coef > 0)
            pos[np++] = p->t[i];
        else {
            neg[nn] = p->t[i];
            neg[nn++].coef = -p->t[i].coef;
        }
    }
    *l = dim_canon(c, pos, np, NULL);
    *r = dim_canon(c, neg, nn, NULL);
    return 1;
}

/* (the depth of floor divisions looked into) */
enum { SIMP_DEPTH = 8 };

static int nonneg_at(Ctx *c, Dim *d, int depth);

/* Whether every factor of t is >= 0: sizes are; a floor division is where
 * its numerator is (its divisor a size). */
static int factors_nonneg(Ctx *c, const Mono *t, int depth)
{
    for (uint32_t j = 0; j < t->nf; j++)
        if (t->f[j].div && t->f[j].pow % 2 && !nonneg_at(c, dim_norm(c, t->f[j].div->num), depth + 1))
            return 0;
    return 1;
}

static int nonneg_at(Ctx *c, Dim *d, int depth)
{
    if (d->ragged || depth > SIMP_DEPTH)
        return 0;
    int64_t v;
    if (dim_is_const(d, &v))
        return v >= 0;
    /* A term -k * (num / K), K a positive constant, is at least
     * -k * num / K: with the whole scaled by K, it is -k * num. */
    int64_t scale = 1;
    for (uint32_t i = 0; i < d->nt; i++) {
        const Mono *t = &d->t[i];
        if (t->coef >= 0) {
            if (!factors_nonneg(c, t, depth))
                return 0;
            continue;
        }
        int64_t K;
        if (t->nf != 1 || !t->f[0].div || t->f[0].pow != 1 || !dim_is_const(dim_norm(c, t->f[0].div->den), &K) ||
            K <= 0)
            return 0;
        scale = scale / gcd64(scale, K) * K;
        if (scale > (1 << 20))
            return 0;
    }
    int saved = c->overflow;
    Dim *sum = dim_const(c, 0, NULL);
    for (uint32_t i = 0; i < d->nt; i++) {
        const Mono *t = &d->t[i];
        Mono one = *t;
        if (t->coef >= 0) {
            one.coef = ck_mul(c, t->coef, scale);
            Mono *m = ar_alloc(c->arena, sizeof *m);
            *m = one;
            sum = dim_add(c, sum, dim_canon(c, m, 1, NULL), NULL);
        } else {
            int64_t K;
            dim_is_const(dim_norm(c, t->f[0].div->den), &K);
            sum = dim_add(c, sum, dim_scale(c, dim_norm(c, t->f[0].div->num), ck_mul(c, t->coef, scale / K), NULL), NULL);
        }
    }
    if (c->overflow) {
        c->overflow = saved;
        return 0;
    }
    for (uint32_t i = 0; i < sum->nt; i++)
        if (sum->t[i].coef < 0 || !factors_nonneg(c, &sum->t[i], depth))
            return 0;
    return 1;
}

int simp_always_nonneg(Ctx *c, Dim *d)
{
    return nonneg_at(c, dim_norm(c, d), 0);
}

static Dim *cancel_common(Ctx *c, Dim *d, int *cut);

static Dim *primitive_bound(Ctx *c, Dim *d)
{
    int cut;                /* k * (3 - i) >= 0 is 3 - i >= 0 (k is not 0), */
    int64_t z;              /* but -e >= 0 stays (it says e = 0) */
    if (!d->ragged && !dim_is_const(d, &z)) {
        Dim *p = cancel_common(c, d, &cut);
        if (!dim_is_const(p, &z))
            d = p;
    }
    int64_t g = 0, k = 0;
    uint32_t n = 0;
    for (uint32_t i = 0; i < d->nt; i++) {
        if (d->t[i].nf == 0)
            k = d->t[i].coef;
        else
            g = gcd64(g, d->t[i].coef), n++;
    }
    if (n == 0 || g <= 1 || d->ragged)
        return d;
    Mono *m = ar_alloc(c->arena, sizeof(Mono) * (n + 1));
    n = 0;
    for (uint32_t i = 0; i < d->nt; i++)
        if (d->t[i].nf) {
            m[n] = d->t[i];
            m[n++].coef /= g;
        }
    if (floor_div(k, g))
        m[n++] = (Mono){ floor_div(k, g), 0, NULL };
    return dim_canon(c, m, n, NULL);
}

/* c * (N / k) + K0 >= 0 with c, k > 0 says N >= k * ceil(-K0 / c);
 * K0 - c * (N / k) >= 0 says N <= k * (floor(K0 / c) + 1) - 1: the bound
 * on the numerator (`2 <= t / 2` is `4 <= t`).  NULL where d is not so. */
static Dim *through_division(Ctx *c, Dim *d)
{
    const Mono *div = NULL;
    int64_t k0 = 0, k;
    for (uint32_t i = 0; i < d->nt; i++) {
        const Mono *t = &d->t[i];
        if (t->nf == 0)
            k0 = t->coef;
        else if (!div && t->nf == 1 && t->f[0].div && t->f[0].pow == 1)
            div = t;
        else
            return NULL;
    }
    if (!div || !dim_is_const(dim_norm(c, div->f[0].div->den), &k) || k <= 0 || div->coef == INT64_MIN)
        return NULL;
    Dim *num = dim_norm(c, div->f[0].div->num);
    int64_t cf = div->coef;
    int saved = c->overflow;
    Dim *out;
    if (cf > 0) {
        int64_t m = -floor_div(k0, cf);                  /* ceil(-k0 / cf) */
        out = dim_sub(c, num, dim_const(c, ck_mul(c, k, m), NULL), NULL);
    } else {
        int64_t M = floor_div(k0, -cf);
        out = dim_sub(c, dim_const(c, ck_add(c, ck_mul(c, k, ck_add(c, M, 1)), -1), NULL), num, NULL);
    }
    if (c->overflow) {
        c->overflow = saved;
        return NULL;
    }
    return out;
}

Dim *simp_primitive_bound(Ctx *c, Dim *d)
{
    d = primitive_bound(c, dim_norm(c, d));
    for (int depth = 0; depth < SIMP_DEPTH; depth++) {
        Dim *t = through_division(c, d);
        if (!t)
            break;
        d = primitive_bound(c, t);
    }
    return d;
}

/* The term t of d with its factor (num / den) at j, num % den = 0 known:
 * den * (num / den) is num, so a term den divides is (t / den / (num /
 * den)) * num.  NULL where den does not divide it. */
static Dim *mod_term(Ctx *c, const Mono *t, uint32_t j, const SimpMod *m)
{
    const Mono *den = &m->den->t[0];
    if (t->coef % den->coef != 0)
        return NULL;
    Factor *f = ar_alloc(c->arena, sizeof(Factor) * t->nf);
    uint32_t nf = 0;
    for (uint32_t l = 0; l < t->nf; l++) {
        Factor x = t->f[l];
        if (l == j)
            x.pow--;
        for (uint32_t a = 0; a < den->nf; a++)
            if (x.var && x.var == den->f[a].var)
                x.pow = x.pow >= den->f[a].pow ? x.pow - den->f[a].pow : (uint32_t)-1;
        if (x.pow == (uint32_t)-1)
            return NULL;
        if (x.pow)
            f[nf++] = x;
    }
    for (uint32_t a = 0; a < den->nf; a++) {      /* every factor of den is there */
        int found = 0;
        for (uint32_t l = 0; l < t->nf && !found; l++)
            found = t->f[l].var && t->f[l].var == den->f[a].var && t->f[l].pow >= den->f[a].pow;
        if (!found)
            return NULL;
    }
    Mono *q = ar_alloc(c->arena, sizeof *q);
    *q = (Mono){ t->coef / den->coef, nf, f };
    return dim_mul(c, dim_canon(c, q, 1, NULL), m->num, NULL);
}

Dim *simp_apply_mods(Ctx *c, Dim *d, const PtrVec *mods)
{
    if (!mods || !mods->n || d->ragged)
        return d;
    int saved = c->overflow;
    Dim *out = dim_const(c, 0, NULL);
    int hit = 0;
    for (uint32_t i = 0; i < d->nt; i++) {
        const Mono *t = &d->t[i];
        Dim *done = NULL;
        for (uint32_t j = 0; j < t->nf && !done; j++) {
            if (!t->f[j].div)
                continue;
            Dim *num = dim_norm(c, t->f[j].div->num), *den = dim_norm(c, t->f[j].div->den);
            for (int k = 0; k < mods->n && !done; k++) {
                const SimpMod *m = mods->items[k];
                if (dim_equal(den, m->den) && dim_equal(num, m->num))
                    done = mod_term(c, t, j, m);
            }
        }
        if (done)
            hit = 1;
        else {
            Mono *one = ar_alloc(c->arena, sizeof *one);
            *one = *t;
            done = dim_canon(c, one, 1, NULL);
        }
        out = dim_add(c, out, done, NULL);
    }
    if (c->overflow || !hit) {
        c->overflow = saved;
        return d;
    }
    return out;
}
