/* print.c - a scheme as its signature (print.h; axon-spec.md section 7):
 * its type in the names of the item's annotations where each is one
 * name's alone, letters for the rest, then its `where` clauses. */
#include "print.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dim.h"
#include "scope.h"
#include "simplify.h"
#include "symtab.h"
#include "types.h"

/* A `?` of a clause the type has not: one more (pr_scheme). */
static void other_dyn(DVar *v, void *arg)
{
    Namer *nm = arg;
    if (v->dyn && v->seen_stamp != nm->stamp) {
        v->seen_stamp = nm->stamp;
        v->seen = 0;
        nm->ndyn++;
    }
}

/* Counts the occurrences of `?` variables (see pr_dvar). */
static void count_dyn(Namer *nm, Dim *d);

static void count_dyn_var(DVar *v, void *arg)
{
    Namer *nm = arg;
    if (v->seen_stamp != nm->stamp) {
        v->seen_stamp = nm->stamp;
        v->seen = 0;
        nm->ndyn += v->dyn != 0;
    }
    v->seen++;
    if (pr_def_live(v->def) && nm->depth < PR_MAX_DEPTH) {
        nm->depth++;
        for (int i = 0; i < v->def->ops.n; i++)
            count_dyn(nm, v->def->ops.items[i]);
        nm->depth--;
    }
}

static void count_dyn(Namer *nm, Dim *d)
{
    dim_each_var(dim_norm(nm->ctx, d), count_dyn_var, nm);
}

static void count_dyn_shape(Namer *nm, Shape *s)
{
    s = shape_norm(nm->ctx, s);
    for (uint32_t i = 0; i < s->n; i++) {
        if (s->s[i].dim)
            count_dyn(nm, s->s[i].dim);
        else if (pr_def_live(s->s[i].var->def) && nm->depth < PR_MAX_DEPTH) {
            Constraint *k = s->s[i].var->def;
            nm->depth++;
            for (int j = 0; j < k->ops.n; j++)
                count_dyn_shape(nm, k->ops.items[j]);
            nm->depth--;
        }
    }
}

/* Types are DAGs: a node met twice has every `?` in it twice already, so
 * it is counted at most twice (stamp: met once; mark set: met twice). */
static void count_dyn_type(Namer *nm, Type *t, uint32_t stamp)
{
    t = type_prune(t);
    if (t->kind == TY_VAR || nm->tdepth > TYPE_MAX_DEPTH)
        return;
    if (t->stamp == stamp) {
        if (t->mark)
            return;
        t->mark = t;
    } else {
        t->stamp = stamp;
        t->mark = NULL;
    }
    nm->tdepth++;
    if (t->kind == TY_TENSOR)
        count_dyn_shape(nm, t->u.ten.shape);
    else {
        for (uint32_t i = 0; i < t->u.fun.n; i++)
            count_dyn_type(nm, t->u.fun.items[i], stamp);
        if (t->kind == TY_FUNC)
            count_dyn_type(nm, t->u.fun.ret, stamp);
    }
    nm->tdepth--;
}

/* How many tensors and variables t has when written out (types are DAGs:
 * a pair of a pair of ... shares its parts, and writes them again each
 * time), saturating; each node's count once (ustamp, umark). */
static uint64_t tree_leaves(Ctx *c, Type *t, uint32_t stamp, int depth)
{
    t = type_prune(t);
    if (t->kind == TY_VAR || t->kind == TY_TENSOR)
        return 1;
    if (t->u.fun.ustamp == stamp)
        return (uint64_t)(uintptr_t)t->u.fun.umark;
    uint64_t n = 0;
    if (depth <= TYPE_MAX_DEPTH)
        for (uint32_t i = 0; i <= t->u.fun.n; i++) {
            Type *x = i < t->u.fun.n ? t->u.fun.items[i] : t->kind == TY_FUNC ? t->u.fun.ret : NULL;
            if (x)
                n += tree_leaves(c, x, stamp, depth + 1);
            if (n > ((uint64_t)1 << 40))
                n = (uint64_t)1 << 40;
        }
    t->u.fun.ustamp = stamp;
    t->u.fun.umark = (Type *)(uintptr_t)n;
    return n;
}

/* The names of a scheme's item (spec section 7): a size or shape that one
 * annotation name alone comes to (its variable is that name's, after
 * inference) prints in that name; one that two names came to, or that is
 * no name's, gets a letter, never one of the item's names. */
static void use_names(Namer *nm, const Scheme *s)
{
    Ctx *c = nm->ctx;
    Arena *a = c->arena;
    if (!s->names.n || c->letters || nm->hints)
        return;
    nm->reserved = ar_alloc(a, sizeof *nm->reserved);
    st_init(nm->reserved, a);
    Symtab by_var;          /* a variable (its address as text) -> its name, or "" (two) */
    st_init(&by_var, a);
    PtrVec vars = { 0 }, names = { 0 };
    for (int i = 0; i < s->names.n; i++) {
        ScopeName *n = s->names.items[i];
        st_put(nm->reserved, n->name, (void *)n->name);
        void *v = NULL;
        if (n->kind == NK_DIM) {
            DVar *x = dim_is_var(dim_norm(c, dim_of_var(c, n->var, NULL)));
            v = x && !x->dyn ? x : NULL;
        } else if (n->kind == NK_SHAPE) {
            Shape *sh = shape_norm(c, shape_of_var(c, n->var, NULL));
            v = sh->n == 1 && sh->s[0].var ? sh->s[0].var : NULL;
        } else if (n->kind == NK_ELEM) {
            Elem *e = elem_find(n->var);
            v = e->prim == EL_VAR ? e : NULL;
        } else {
            Type *t = type_prune(n->var);
            v = t->kind == TY_VAR ? t : NULL;
        }
        if (!v || strchr(n->name, '?'))
            continue;
        const char *key = ar_printf(a, "%p", v);
        const char *had = st_get(&by_var, key);
        if (had) {
            st_put(&by_var, key, (void *)"");
            continue;
        }
        st_put(&by_var, key, (void *)n->name);
        pv_push(a, &vars, v);
        pv_push(a, &names, (void *)n->name);
        pv_push(a, &names, (void *)(intptr_t)n->kind);
    }
    for (int i = 0; i < vars.n; i++) {
        const char *name = st_get(&by_var, ar_printf(a, "%p", vars.items[i]));
        if (!*name)
            continue;                   /* two names, one size: a letter */
        switch ((NameKind)(intptr_t)names.items[2 * i + 1]) {
        case NK_DIM:
            ((DVar *)vars.items[i])->stamp = nm->stamp;
            ((DVar *)vars.items[i])->mark = (void *)name;
            break;
        case NK_SHAPE:
            ((SVar *)vars.items[i])->stamp = nm->stamp;
            ((SVar *)vars.items[i])->mark = (void *)name;
            break;
        case NK_ELEM:
            ((Elem *)vars.items[i])->stamp = nm->stamp;
            ((Elem *)vars.items[i])->mark = (void *)name;
            break;
        case NK_TYPE:
            ((Type *)vars.items[i])->stamp = nm->stamp;
            ((Type *)vars.items[i])->mark = (void *)name;
            break;
        }
    }
}

/* The sizes the scheme's equations equate to a lone variable (Namer.equal_to). */
static void use_equations(Namer *nm, const Scheme *s)
{
    Ctx *c = nm->ctx;
    for (int i = 0; i < s->cons.n; i++) {
        Constraint *k = s->cons.items[i];
        if (k->done || k->kind != C_EQ_DIM || k->rewrites)
            continue;
        Dim *l = dim_norm(c, k->l), *r = dim_norm(c, k->r);
        Dim *ml = l, *mr = r;
        SimpMod mod;
        int is_mod;
        if (simp_equation(c, &ml, &mr, &mod, &is_mod) && is_mod) {
            SimpMod *m = ar_alloc(c->arena, sizeof *m);
            *m = mod;
            pv_push(c->arena, &nm->mods, m);
            continue;
        }
        DVar *v = dim_is_var(l) ? dim_is_var(l) : dim_is_var(r);
        Dim *e = dim_is_var(l) ? r : l;
        int64_t z;
        if (!v || dim_is_var(e) || dim_is_const(e, &z) || e->ragged)
            continue;
        if (!nm->equal_to) {
            nm->equal_to = ar_alloc(c->arena, sizeof(DimMap));
            dm_init(nm->equal_to, c->arena, 0);
        }
        if (!dm_get(nm->equal_to, e))
            dm_put(nm->equal_to, e, v);
    }
}

void pr_scheme(Namer *nm, Buf *b, const Scheme *s)
{
    use_names(nm, s);
    use_equations(nm, s);
    /* A type that would print past the buffer's limit (two bytes a leaf at
     * least) is not printed at all: a 2^32-leaf type fills any buffer. */
    if (b->limit && tree_leaves(nm->ctx, s->type, ++nm->ctx->stamp, 0) > b->limit / 2) {
        b->full = 1;
        return;
    }
    nm->ndyn = 0;
    count_dyn_type(nm, s->type, ++nm->ctx->stamp);
    /* A `?` that a where clause bounds (`? <= a`) is `?` there too while it
     * is the only one; beside another (in the type or a clause: nonzero of
     * a nonzero's result) it takes a name, or the reader could not tell
     * which is bounded. */
    for (int i = 0; i < s->cons.n && nm->ndyn <= 1; i++) {
        Constraint *k = s->cons.items[i];
        if (!k->done && k->kind == C_NONNEG && k->clause)
            dim_each_var(dim_norm(nm->ctx, k->l), other_dyn, nm);
    }
    if (nm->ndyn > 1)
        for (int i = 0; i < s->cons.n; i++) {
            Constraint *k = s->cons.items[i];
            if (!k->done && k->kind == C_NONNEG && k->clause)
                count_dyn(nm, k->l);
        }
    pr_type(nm, b, s->type);
    pr_where(nm, b, &s->cons);
}

const char *pr_scheme_str(Ctx *c, const Scheme *s, size_t limit)
{
    Namer nm;
    namer_init(&nm, c, 0);
    Buf b = { c->arena, NULL, 0, 0, 0, 0 };
    pr_limit_text(&b, limit);
    pr_scheme(&nm, &b, s);
    return pr_cut(&b);
}
