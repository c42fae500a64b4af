/* phantom.c - a size that the program fixes whenever its tensors are not
 * empty is fixed (axon-spec.md section 7: "not a new variable").
 *
 * A depthwise conv2d_grouped with g = c groups says c * k = c for the
 * filters per group k: k = 1 unless c = 0, and at c = 0 every size that k
 * is part of is c * k = 0 whatever k is.  So, at the end of an item, an
 * equation M * (x - v) = 0 (M a product of sizes, x a size, v a constant)
 * fixes x = v when every occurrence of x, in the type and in every other
 * constraint of the item, is in a term that M divides: nothing the program
 * accepts or computes changes, and the signature has no `where c * k = c`,
 * the header no member for k (docs/language.md, "Sizes fixed when tensors
 * are not empty").
 */
#include "phantom.h"

#include "dim.h"
#include "solve.h"
#include "types.h"

/* Whether every term of d (and of its floor divisions) with x has M's
 * variables, each at least at M's power. */
static int only_with(Ctx *c, Dim *d, DVar *x, const Mono *m, int depth)
{
    d = dim_norm(c, d);
    if (depth > 64)
        return 0;
    for (uint32_t i = 0; i < d->nt; i++) {
        const Mono *t = &d->t[i];
        int has_x = 0;
        for (uint32_t j = 0; j < t->nf; j++) {
            const Factor *f = &t->f[j];
            if (f->var == x)
                has_x = 1;
            else if (f->div && (!only_with(c, f->div->num, x, m, depth + 1) ||
                                !only_with(c, f->div->den, x, m, depth + 1)))
                return 0;
        }
        for (uint32_t a = 0; a < m->nf && has_x; a++) {
            uint32_t have = 0;
            for (uint32_t j = 0; j < t->nf; j++)
                if (t->f[j].var && t->f[j].var == m->f[a].var)
                    have = t->f[j].pow;
            if (have < m->f[a].pow)
                return 0;
        }
    }
    return 1;
}

static int shape_only_with(Ctx *c, Shape *s, DVar *x, const Mono *m)
{
    s = shape_norm(c, s);
    for (uint32_t i = 0; i < s->n; i++)
        if (s->s[i].dim && !only_with(c, s->s[i].dim, x, m, 0))
            return 0;
    return 1;
}

static int type_only_with(Ctx *c, Type *t, DVar *x, const Mono *m, int depth)
{
    t = type_prune(t);
    if (depth > TYPE_MAX_DEPTH)
        return 0;
    switch (t->kind) {
    case TY_VAR:
        return 1;
    case TY_TENSOR:
        return shape_only_with(c, t->u.ten.shape, x, m);
    case TY_TUPLE:
    case TY_FUNC:
        for (uint32_t i = 0; i < t->u.fun.n; i++)
            if (!type_only_with(c, t->u.fun.items[i], x, m, depth + 1))
                return 0;
        return t->kind != TY_FUNC || type_only_with(c, t->u.fun.ret, x, m, depth + 1);
    }
    return 0;
}

static int cons_only_with(Ctx *c, Constraint *k, DVar *x, const Mono *m)
{
    for (int i = 0; i < k->ops.n; i++)
        if (k->kind == C_BCAST_SHAPE ? !shape_only_with(c, k->ops.items[i], x, m)
                                     : !only_with(c, k->ops.items[i], x, m, 0))
            return 0;
    if (k->dres && !only_with(c, dim_of_var(c, k->dres, NULL), x, m, 0))
        return 0;
    if (k->sres && !shape_only_with(c, shape_of_var(c, k->sres, NULL), x, m))
        return 0;
    return (!k->l || only_with(c, k->l, x, m, 0)) && (!k->r || only_with(c, k->r, x, m, 0)) &&
           (!k->sl || shape_only_with(c, k->sl, x, m)) && (!k->sr || shape_only_with(c, k->sr, x, m));
}

/* l - r as M * (a * x + b) with x at the item's level: x, with M and the
 * value -b / a, or NULL. */
static DVar *as_fixed(Ctx *c, Constraint *k, int level, Mono *m, int64_t *value)
{
    int saved = c->overflow;
    Dim *d = dim_sub(c, dim_norm(c, k->l), dim_norm(c, k->r), NULL);
    if (c->overflow || d->ragged || d->nt != 2) {
        c->overflow = saved;
        return NULL;
    }
    /* the two terms: M * a * x and M * b, so M is the constant term's
     * factors (b's), and the other term has one more, x */
    const Mono *tx = d->t[0].nf > d->t[1].nf ? &d->t[0] : &d->t[1];
    const Mono *tb = tx == &d->t[0] ? &d->t[1] : &d->t[0];
    if (tx->nf != tb->nf + 1 || tb->coef == INT64_MIN)
        return NULL;
    DVar *x = NULL;
    for (uint32_t j = 0; j < tx->nf; j++) {
        const Factor *f = &tx->f[j];
        int in_b = 0;
        for (uint32_t l = 0; l < tb->nf; l++)
            in_b |= tb->f[l].var && tb->f[l].var == f->var && tb->f[l].pow == f->pow;
        if (in_b)
            continue;
        if (x || !f->var || f->pow != 1)
            return NULL;
        x = f->var;
    }
    for (uint32_t l = 0; l < tb->nf; l++)
        if (!tb->f[l].var)
            return NULL;
    if (!x || x->link || x->level < level || x->dyn || -tb->coef % tx->coef != 0)
        return NULL;
    *m = (Mono){ 1, tb->nf, tb->f };
    *value = -tb->coef / tx->coef;
    return *value >= 0 ? x : NULL;
}

void fix_phantoms(Ctx *c, Type *t, PtrVec *live, int level)
{
    for (int i = 0; i < live->n; i++) {
        Constraint *k = live->items[i];
        if (k->done || k->kind != C_EQ_DIM || k->rewrites)
            continue;
        Mono m;
        int64_t value;
        DVar *x = as_fixed(c, k, level, &m, &value);
        if (!x || m.nf == 0 || !type_only_with(c, t, x, &m, 0))
            continue;
        int ok = 1;
        for (int j = 0; j < live->n && ok; j++) {
            Constraint *o = live->items[j];
            ok = o == k || o->done || cons_only_with(c, o, x, &m);
        }
        if (!ok)
            continue;
        Site site = site_of(k->why);
        u_dim(c, dim_of_var(c, x, k->why), dim_const(c, value, k->why), &site);
        solve_drain(c);
    }
}
