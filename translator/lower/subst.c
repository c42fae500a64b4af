/* subst.c - a callee's types in the exported function's terms (subst.h). */
#include "subst.h"

#include "dim.h"
#include "types.h"

/* Marks each variable of s with s's stamp and what it stands for.  The
 * stamp is s's own (taken once, at its first use): a compound type that
 * carries it was substituted by s before and its result is its mark
 * (type_at), which stays right since s never changes.  Another traversal
 * in between that marks the same node leaves another stamp there, and the
 * node is substituted again. */
static uint32_t seed(Ctx *c, const Subst *s)
{
    if (!s)
        return ++c->stamp;
    if (!s->stamp)
        ((Subst *)s)->stamp = ++c->stamp;
    uint32_t st = s->stamp;
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

/* A type is a DAG (inference shares a node wherever unification met it
 * twice): k(k)(k)...(k) of `k = fn (g) { g }` instantiates the first k at a
 * type of n shared levels whose tree has 2^n nodes.  Each node is therefore
 * substituted once per stamp: a compound node visited under st has
 * stamp == st and its result in mark (a variable's stamp and mark are
 * seed's, what it stands for), so the result is a DAG of the same shape. */
static Type *type_at(Ctx *c, uint32_t st, Type *t, int depth)
{
    t = type_prune(t);
    if (depth > TYPE_MAX_DEPTH)
        return t;
    if (t->kind == TY_VAR)
        return t->stamp == st ? type_prune(t->mark) : t;
    if (t->stamp == st)
        return t->mark;
    Type *r = t;
    switch (t->kind) {
    case TY_VAR:
        break;
    case TY_TENSOR:
        r = type_tensor(c, elem_at(st, t->u.ten.elem), shape_at(c, st, t->u.ten.shape), t->origin);
        break;
    case TY_TUPLE:
    case TY_FUNC:
        r = t->kind == TY_TUPLE ? type_tuple(c, t->u.fun.n, t->origin) : type_func(c, t->u.fun.n, t->origin);
        for (uint32_t i = 0; i < t->u.fun.n; i++)
            r->u.fun.items[i] = type_at(c, st, t->u.fun.items[i], depth + 1);
        if (t->kind == TY_FUNC)
            r->u.fun.ret = type_at(c, st, t->u.fun.ret, depth + 1);
        break;
    }
    t->stamp = st;
    t->mark = r;
    return r;
}

/* (an empty substitution: x itself; a copy would cost a traversal of x at
 * each use, k(k)(k)...(k)'s N instances N * N) */
static int empty(const Subst *s)
{
    return !s || !s->pairs.n;
}

Dim *subst_dim(Ctx *c, const Subst *s, Dim *d)
{
    return empty(s) ? d : dim_at(c, seed(c, s), d);
}

Shape *subst_shape(Ctx *c, const Subst *s, Shape *sh)
{
    return empty(s) ? sh : shape_at(c, seed(c, s), sh);
}

Elem *subst_elem(Ctx *c, const Subst *s, Elem *e)
{
    return empty(s) ? e : elem_at(seed(c, s), e);
}

Type *subst_type(Ctx *c, const Subst *s, Type *t)
{
    return empty(s) ? t : type_at(c, seed(c, s), t, 0);
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
