/* subst.c - a callee's types in the exported function's terms (subst.h). */
#include "subst.h"

#include "dim.h"
#include "types.h"

/* Marks each variable of s with a fresh stamp and what it stands for. */
static uint32_t seed(Ctx *c, const Subst *s)
{
    uint32_t st = ++c->stamp;
    for (int i = 0; s && i < s->pairs.n; i++) {
        InstPair *p = s->pairs.items[i];
        switch (p->kind) {
        case INST_DIM: ((DVar *)p->from)->stamp = st; ((DVar *)p->from)->mark = p->to; break;
        case INST_SHAPE: ((SVar *)p->from)->stamp = st; ((SVar *)p->from)->mark = p->to; break;
        case INST_ELEM: ((Elem *)p->from)->stamp = st; ((Elem *)p->from)->mark = p->to; break;
        case INST_TYPE: ((Type *)p->from)->stamp = st; ((Type *)p->from)->mark = p->to; break;
        }
    }
    return st;
}

static Dim *dim_at(Ctx *c, uint32_t st, Dim *d)
{
    d = dim_norm(c, d);
    if (d->ragged)
        return d;
    int any = 0;
    for (uint32_t i = 0; i < d->nt && !any; i++)
        for (uint32_t j = 0; j < d->t[i].nf && !any; j++)
            any = !d->t[i].f[j].var || d->t[i].f[j].var->stamp == st;
    if (!any)
        return d;
    Dim *sum = dim_const(c, 0, d->origin);
    for (uint32_t i = 0; i < d->nt; i++) {
        const Mono *m = &d->t[i];
        Dim *term = dim_const(c, m->coef, d->origin);
        for (uint32_t j = 0; j < m->nf; j++) {
            const Factor *f = &m->f[j];
            Dim *x;
            if (f->var)
                x = f->var->stamp == st ? dim_norm(c, f->var->mark) : dim_of_var(c, f->var, d->origin);
            else
                x = dim_div(c, dim_at(c, st, f->div->num), dim_at(c, st, f->div->den), d->origin);
            if (!x)
                x = dim_const(c, 0, d->origin);
            for (uint32_t p = 0; p < f->pow; p++)
                term = dim_mul(c, term, x, d->origin);
        }
        sum = dim_add(c, sum, term, d->origin);
    }
    return sum;
}

static Shape *shape_at(Ctx *c, uint32_t st, Shape *sh)
{
    sh = shape_norm(c, sh);
    uint32_t n = 0;
    for (uint32_t i = 0; i < sh->n; i++) {
        SVar *v = sh->s[i].var;
        n += v && v->stamp == st ? shape_norm(c, v->mark)->n : 1;
    }
    Shape *r = shape_new(c, n, sh->origin);
    uint32_t k = 0;
    for (uint32_t i = 0; i < sh->n; i++) {
        SVar *v = sh->s[i].var;
        if (v && v->stamp == st) {
            Shape *m = shape_norm(c, v->mark);
            for (uint32_t j = 0; j < m->n; j++)
                r->s[k++] = m->s[j];
        } else if (v) {
            r->s[k++].var = v;
        } else {
            r->s[k++].dim = dim_at(c, st, sh->s[i].dim);
        }
    }
    return r;
}

static Elem *elem_at(uint32_t st, Elem *e)
{
    e = elem_find(e);
    if (e->prim == EL_VAR && e->stamp == st)
        return elem_find(e->mark);
    return e;
}

static Type *type_at(Ctx *c, uint32_t st, Type *t, int depth)
{
    t = type_prune(t);
    if (depth > TYPE_MAX_DEPTH)
        return t;
    switch (t->kind) {
    case TY_VAR:
        return t->stamp == st ? type_prune(t->mark) : t;
    case TY_TENSOR:
        return type_tensor(c, elem_at(st, t->u.ten.elem), shape_at(c, st, t->u.ten.shape), t->origin);
    case TY_TUPLE:
    case TY_FUNC: {
        Type *r = t->kind == TY_TUPLE ? type_tuple(c, t->u.fun.n, t->origin) : type_func(c, t->u.fun.n, t->origin);
        for (uint32_t i = 0; i < t->u.fun.n; i++)
            r->u.fun.items[i] = type_at(c, st, t->u.fun.items[i], depth + 1);
        if (t->kind == TY_FUNC)
            r->u.fun.ret = type_at(c, st, t->u.fun.ret, depth + 1);
        return r;
    }
    }
    return t;
}

Dim *subst_dim(Ctx *c, const Subst *s, Dim *d)
{
    return dim_at(c, seed(c, s), d);
}

Shape *subst_shape(Ctx *c, const Subst *s, Shape *sh)
{
    return shape_at(c, seed(c, s), sh);
}

Elem *subst_elem(Ctx *c, const Subst *s, Elem *e)
{
    return elem_at(seed(c, s), e);
}

Type *subst_type(Ctx *c, const Subst *s, Type *t)
{
    return type_at(c, seed(c, s), t, 0);
}

Subst *subst_compose(Ctx *c, const Subst *base, const PtrVec *log, const Subst *at)
{
    Subst *r = ar_alloc(c->arena, sizeof *r);
    for (int i = 0; base && i < base->pairs.n; i++)
        pv_push(c->arena, &r->pairs, base->pairs.items[i]);
    for (int i = 0; log && i < log->n; i++) {
        InstPair *p = log->items[i], *q = ar_alloc(c->arena, sizeof *q);
        *q = *p;
        switch (p->kind) {
        case INST_DIM: q->to = subst_dim(c, at, p->to); break;
        case INST_SHAPE: q->to = subst_shape(c, at, p->to); break;
        case INST_ELEM: q->to = subst_elem(c, at, p->to); break;
        case INST_TYPE: q->to = subst_type(c, at, p->to); break;
        }
        pv_push(c->arena, &r->pairs, q);
    }
    return r;
}
