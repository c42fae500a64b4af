/* subst.c - a callee's types in the exported function's terms (subst.h). */
#include "subst.h"

#include "dim.h"
#include "types.h"

/* What each variable of s stands for: a table from the variable (a DVar,
 * SVar, Elem or Type of the callee's scheme) to its pair, made at s's first
 * use and kept (s never changes).  A substitution used to mark its
 * variables (stamp, mark) at each use instead, which cost its length every
 * time: a generic function of N type variables whose body has N operators
 * took N * N.  Later pairs of a variable win, as they did. */
static uint32_t slot_of(const void *key, uint32_t mask)
{
    uintptr_t k = (uintptr_t)key;
    return (uint32_t)(((k >> 3) ^ (k >> 17)) * 2654435761u) & mask;
}

static void index_pairs(Ctx *c, Subst *s)
{
    uint32_t cap = 8;
    while (cap < 2 * (uint32_t)s->pairs.n)
        cap *= 2;
    s->table = ar_alloc(c->arena, sizeof(InstPair *) * cap);
    s->mask = cap - 1;
    for (int i = 0; i < s->pairs.n; i++) {
        InstPair *p = s->pairs.items[i];
        uint32_t h = slot_of(p->from, s->mask);
        while (s->table[h] && s->table[h]->from != p->from)
            h = (h + 1) & s->mask;
        s->table[h] = p;
    }
    /* (its stamp marks the compound types it has substituted: type_at) */
    s->stamp = ++c->stamp;
}

/* What variable v stands for in s, or NULL. */
static void *to_of(const Subst *s, const void *v)
{
    for (uint32_t h = slot_of(v, s->mask); s->table[h]; h = (h + 1) & s->mask)
        if (s->table[h]->from == v)
            return s->table[h]->to;
    return NULL;
}

static Dim *dim_at(Ctx *c, const Subst *s, Dim *d)
{
    d = dim_norm(c, d);
    if (d->ragged)
        return d;
    int any = 0;
    for (uint32_t i = 0; i < d->nt && !any; i++)
        for (uint32_t j = 0; j < d->t[i].nf && !any; j++)
            any = !d->t[i].f[j].var || to_of(s, d->t[i].f[j].var);
    if (!any)
        return d;
    Dim *sum = dim_const(c, 0, d->origin);
    for (uint32_t i = 0; i < d->nt; i++) {
        const Mono *m = &d->t[i];
        Dim *term = dim_const(c, m->coef, d->origin);
        for (uint32_t j = 0; j < m->nf; j++) {
            const Factor *f = &m->f[j];
            Dim *x;
            void *to = f->var ? to_of(s, f->var) : NULL;
            if (f->var)
                x = to ? dim_norm(c, to) : dim_of_var(c, f->var, d->origin);
            else
                x = dim_div(c, dim_at(c, s, f->div->num), dim_at(c, s, f->div->den), d->origin);
            if (!x)
                x = dim_const(c, 0, d->origin);
            for (uint32_t p = 0; p < f->pow; p++)
                term = dim_mul(c, term, x, d->origin);
        }
        sum = dim_add(c, sum, term, d->origin);
    }
    return sum;
}

static Shape *shape_at(Ctx *c, const Subst *s, Shape *sh)
{
    sh = shape_norm(c, sh);
    uint32_t n = 0;
    for (uint32_t i = 0; i < sh->n; i++) {
        SVar *v = sh->s[i].var;
        Shape *to = v ? to_of(s, v) : NULL;
        n += to ? shape_norm(c, to)->n : 1;
    }
    Shape *r = shape_new(c, n, sh->origin);
    uint32_t k = 0;
    for (uint32_t i = 0; i < sh->n; i++) {
        SVar *v = sh->s[i].var;
        Shape *to = v ? to_of(s, v) : NULL;
        if (to) {
            Shape *m = shape_norm(c, to);
            for (uint32_t j = 0; j < m->n; j++)
                r->s[k++] = m->s[j];
        } else if (v) {
            r->s[k++].var = v;
        } else {
            r->s[k++].dim = dim_at(c, s, sh->s[i].dim);
        }
    }
    return r;
}

static Elem *elem_at(const Subst *s, Elem *e)
{
    e = elem_find(e);
    Elem *to = e->prim == EL_VAR ? to_of(s, e) : NULL;
    return to ? elem_find(to) : e;
}

/* A type is a DAG (inference shares a node wherever unification met it
 * twice): k(k)(k)...(k) of `k = fn (g) { g }` instantiates the first k at a
 * type of n shared levels whose tree has 2^n nodes.  Each node is therefore
 * substituted once per substitution: a compound node that s has visited
 * carries s's stamp and its result in mark (another traversal in between
 * that marks the node leaves another stamp, and it is substituted again),
 * so the result is a DAG of the same shape. */
static Type *type_at(Ctx *c, const Subst *s, Type *t, int depth)
{
    t = type_prune(t);
    if (depth > TYPE_MAX_DEPTH)
        return t;
    if (t->kind == TY_VAR) {
        Type *to = to_of(s, t);
        return to ? type_prune(to) : t;
    }
    uint32_t st = s->stamp;
    if (t->stamp == st)
        return t->mark;
    Type *r = t;
    switch (t->kind) {
    case TY_VAR:
        break;
    case TY_TENSOR:
        r = type_tensor(c, elem_at(s, t->u.ten.elem), shape_at(c, s, t->u.ten.shape), t->origin);
        break;
    case TY_TUPLE:
    case TY_FUNC:
        r = t->kind == TY_TUPLE ? type_tuple(c, t->u.fun.n, t->origin) : type_func(c, t->u.fun.n, t->origin);
        for (uint32_t i = 0; i < t->u.fun.n; i++)
            r->u.fun.items[i] = type_at(c, s, t->u.fun.items[i], depth + 1);
        if (t->kind == TY_FUNC)
            r->u.fun.ret = type_at(c, s, t->u.fun.ret, depth + 1);
        break;
    }
    t->stamp = st;
    t->mark = r;
    return r;
}

/* Whether s changes nothing (then x itself is the answer: a copy would
 * cost a traversal of x at each use, k(k)(k)...(k)'s N instances N * N);
 * else s is ready for use. */
static int empty(Ctx *c, const Subst *s)
{
    if (!s || !s->pairs.n)
        return 1;
    if (!s->table)
        index_pairs(c, (Subst *)s);
    return 0;
}

Dim *subst_dim(Ctx *c, const Subst *s, Dim *d)
{
    return empty(c, s) ? d : dim_at(c, s, d);
}

Shape *subst_shape(Ctx *c, const Subst *s, Shape *sh)
{
    return empty(c, s) ? sh : shape_at(c, s, sh);
}

Elem *subst_elem(Ctx *c, const Subst *s, Elem *e)
{
    return empty(c, s) ? e : elem_at(s, e);
}

Type *subst_type(Ctx *c, const Subst *s, Type *t)
{
    return empty(c, s) ? t : type_at(c, s, t, 0);
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
