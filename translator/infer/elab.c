/* elab.c - annotations (TExpr/SExpr/DExpr) to types, shapes, dimensions.
 *
 *   type  name            a prim is a scalar (f32 = f32 []), else a
 *                         variable for a whole type (r)
 *         elem shape      elem: a prim or an element variable (t)
 *   shape a1 @ a2 ...     atoms: [d, ...], a shape variable, broadcast(s, ...)
 *   dim   integer | name | * | ? | d op d | broadcast(d, ...)
 *         | elements(shape) | rank(shape)     (spec section 5b)
 * A dimension written with a minus must stay >= 0 (spec section 4): that
 * becomes a C_NONNEG constraint, checked as soon as it is known and at run
 * time otherwise.
 */
#include "elab.h"

#include <string.h>

#include "dim.h"
#include "solve.h"
#include "symtab.h"
#include "types.h"

static const char *const kind_names[] = { "a type", "an element type", "a shape", "a dimension" };

typedef struct Elab {
    Ctx *c;
    Scope *sc;
    OriginKind kind;
    const char *what;
    int clause;           /* a `where` clause: `?` is the annotations' one */
} Elab;

static const Origin *at(Elab *e, Loc loc)
{
    return origin_of(e->c, loc, e->kind, e->what, NULL, 0);
}

enum { SCOPE_SCAN = 16 };   /* up to this many names a scan; then a table */

static ScopeName *find_name(Scope *sc, const char *name)
{
    if (sc->index)
        return st_get(sc->index, name);
    for (int i = 0; i < sc->names.n; i++) {
        ScopeName *n = sc->names.items[i];
        if (strcmp(n->name, name) == 0)
            return n;
    }
    return NULL;
}

static void add_name(Elab *e, ScopeName *n)
{
    Scope *sc = e->sc;
    pv_push(e->c->arena, &sc->names, n);
    if (!sc->index && sc->names.n > SCOPE_SCAN) {
        sc->index = ar_alloc(e->c->arena, sizeof *sc->index);
        st_init(sc->index, e->c->arena);
        for (int i = 0; i < sc->names.n; i++) {
            ScopeName *m = sc->names.items[i];
            st_put(sc->index, m->name, m);
        }
    } else if (sc->index) {
        st_put(sc->index, n->name, n);
    }
}

/* The variable a name stands for in this scope, made on first use. */
static void *lookup(Elab *e, const char *name, NameKind kind, Loc loc)
{
    Scope *sc = e->sc;
    ScopeName *n = find_name(sc, name);
    if (n) {
        if (n->kind != kind) {
            int line, col;
            src_line_col(n->loc.src, n->loc.start, &line, &col);
            diag_error(e->c->diag, loc, "'%s' is used as %s here, but as %s at line %d, column %d",
                       name, kind_names[kind], kind_names[n->kind], line, col);
            diag_note(e->c->diag, n->loc, "'%s' is first used here", name);
            abandon(e->c);
        }
        return n->var;
    }
    /* Annotation variables belong to the whole item, not to the let that
     * mentions them first (they are generalised with the item). */
    int saved = e->c->level;
    e->c->level = sc->level;
    void *var = NULL;
    switch (kind) {
    case NK_TYPE: var = type_var(e->c, name); break;
    case NK_ELEM: var = elem_var(e->c, name); break;
    case NK_SHAPE: var = svar_new(e->c, name); break;
    case NK_DIM: var = dvar_new(e->c, name); break;
    }
    e->c->level = saved;
    n = ar_alloc(e->c->arena, sizeof *n);
    n->name = name;
    n->kind = kind;
    n->var = var;
    n->loc = loc;
    add_name(e, n);
    return var;
}

static int is_minus(const DExpr *d)
{
    return d->kind == DX_BIN && d->op == '-';
}

static void check_broadcast_name(Elab *e, const char *name, Loc loc)
{
    if (strcmp(name, "broadcast") != 0)
        type_error(e->c, loc, "unknown shape function '%s' (only broadcast(...) may appear in a type)", name);
}

static Shape *elab_shape(Elab *e, SExpr *s);

static Dim *elab_dim(Elab *e, DExpr *d)
{
    Ctx *c = e->c;
    const Origin *o = at(e, d->loc);
    switch (d->kind) {
    case DX_INT:
        return dim_const(c, d->ival, o);
    case DX_NAME:
        return dim_var_at(c, lookup(e, d->name, NK_DIM, d->loc), o);
    case DX_RAGGED:
        return dim_ragged(c, o);
    case DX_DYN: {
        if (e->clause) {
            if (e->sc->dyns.n != 1)
                type_error(c, d->loc, "a `?` in a where clause is the signature's `?`, but the signature has %d",
                           e->sc->dyns.n);
            return dim_of_var(c, e->sc->dyns.items[0], o);
        }
        DVar *v = dvar_new(c, NULL);
        v->dyn = 1;
        pv_push(c->arena, &e->sc->dyns, v);
        return dim_of_var(c, v, o);
    }
    case DX_BIN: {
        Dim *l = elab_dim(e, d->l), *r = elab_dim(e, d->r), *x = NULL;
        switch (d->op) {
        case '+': x = dim_add(c, l, r, o); break;
        case '-': x = dim_sub(c, l, r, o); break;
        case '*': x = dim_mul(c, l, r, o); break;
        case '/':
        case '%': {
            /* Decision (docs/language.md): a divisor is a size, so a
             * constant one must be positive. */
            int64_t k;
            if (dim_is_const(r, &k) && k < 0)
                type_error(c, d->r->loc, "the divisor of this %s is %lld, which is negative (a divisor in a dimension must be a positive size)",
                           d->op == '/' ? "division" : "remainder", (long long)k);
            x = dim_div(c, l, r, o);
            if (!x)
                type_error(c, d->loc, "division by zero in a dimension");
            if (d->op == '%')           /* l % r = l - r * (l / r), as floored */
                x = dim_sub(c, l, dim_mul(c, r, x, o), o);
            break;
        }
        }
        if (c->overflow) {
            c->overflow = 0;
            type_error(c, d->loc, "this dimension is too large to compute (it overflows 64 bits or has too many terms)");
        }
        return x;
    }
    case DX_BCAST: {
        check_broadcast_name(e, d->name, d->loc);
        e->sc->wrote_bcast = 1;
        PtrVec ops = { 0 };
        for (int i = 0; i < d->args.n; i++)
            pv_push(c->arena, &ops, elab_dim(e, d->args.items[i]));
        return bcast_dim(c, ops, origin_new(c, d->loc, "broadcast", NULL, 0));
    }
    case DX_ELEMS:
    case DX_RANK: {
        /* spec section 5b: the product of a shape's sizes, its number of axes */
        Shape *s = elab_shape(e, d->shape);
        Dim *x = d->kind == DX_ELEMS ? dim_elements(c, s, o) : dim_rank(c, s, o);
        if (c->overflow) {
            c->overflow = 0;
            type_error(c, d->loc, "this dimension is too large to compute (it overflows 64 bits or has too many terms)");
        }
        return x;
    }
    }
    return NULL;
}

/* [d1, ..., dn]; a dimension written with a minus must stay >= 0. */
static Shape *elab_dims(Elab *e, SAtom *a, const Origin *o)
{
    Shape *r = shape_new(e->c, (uint32_t)a->dims.n, o);
    for (int k = 0; k < a->dims.n; k++) {
        DExpr *dx = a->dims.items[k];
        r->s[k].dim = elab_dim(e, dx);
        if (dexpr_any(dx, is_minus) && !e->c->axis_value)
            require_nonneg(e->c, r->s[k].dim, at(e, dx->loc));
    }
    return r;
}

static Shape *elab_shape(Elab *e, SExpr *s)
{
    Ctx *c = e->c;
    const Origin *o = at(e, s->loc);
    if (s->atoms.n == 1 && ((SAtom *)s->atoms.items[0])->kind == SA_DIMS)
        return elab_dims(e, s->atoms.items[0], o);   /* the common case: one shape, one origin */
    Shape *r = shape_new(c, 0, o);
    for (int i = 0; i < s->atoms.n; i++) {
        SAtom *a = s->atoms.items[i];
        Shape *part = NULL;
        switch (a->kind) {
        case SA_DIMS:
            part = elab_dims(e, a, o);
            break;
        case SA_VAR:
            part = shape_of_var(c, lookup(e, a->name, NK_SHAPE, a->loc), o);
            break;
        case SA_BCAST: {
            check_broadcast_name(e, a->name, a->loc);
            e->sc->wrote_bcast = 1;
            PtrVec ops = { 0 };
            for (int k = 0; k < a->shapes.n; k++)
                pv_push(c->arena, &ops, elab_shape(e, a->shapes.items[k]));
            part = bcast_shape(c, ops, origin_new(c, a->loc, "broadcast", NULL, 0));
            break;
        }
        }
        r = shape_concat(c, r, part, o);
    }
    return r;
}

static Type *elab(Elab *e, TExpr *t)
{
    Ctx *c = e->c;
    const Origin *o = at(e, t->loc);
    switch (t->kind) {
    case TX_NAME: {
        int prim = elem_lookup(t->name);
        if (prim != EL_VAR)
            return type_tensor(c, elem_prim(c, prim, o), shape_new(c, 0, o), o);
        return lookup(e, t->name, NK_TYPE, t->name_loc);
    }
    case TX_TENSOR: {
        int prim = elem_lookup(t->name);
        Elem *el = prim != EL_VAR ? elem_prim(c, prim, at(e, t->name_loc))
                                  : lookup(e, t->name, NK_ELEM, t->name_loc);
        return type_tensor(c, el, elab_shape(e, t->shape), o);
    }
    case TX_TUPLE:
    case TX_FUNC: {
        uint32_t n = (uint32_t)t->items.n;
        Type *r = t->kind == TX_TUPLE ? type_tuple(c, n, o) : type_func(c, n, o);
        for (uint32_t i = 0; i < n; i++)
            r->u.fun.items[i] = elab(e, t->items.items[i]);
        if (t->kind == TX_FUNC)
            r->u.fun.ret = elab(e, t->ret);
        return r;
    }
    }
    return NULL;
}

Type *elab_type(Ctx *c, Scope *sc, TExpr *t, OriginKind kind, const char *what)
{
    Elab e = { c, sc, kind, what, 0 };
    return elab(&e, t);
}

Dim *elab_dim_in(Ctx *c, Scope *sc, DExpr *d, OriginKind kind, const char *what)
{
    Elab e = { c, sc, kind, what, 1 };
    return elab_dim(&e, d);
}

Shape *elab_shape_in(Ctx *c, Scope *sc, SExpr *s, OriginKind kind, const char *what)
{
    Elab e = { c, sc, kind, what, 1 };
    return elab_shape(&e, s);
}

/* A clause side as a shape: a name that is a shape in the scope, or
 * broadcast(...) of such sides.  NULL if d is not one. */
static Shape *clause_shape(Elab *e, DExpr *d)
{
    if (d->kind == DX_NAME) {
        ScopeName *n = find_name(e->sc, d->name);
        if (!n || n->kind != NK_SHAPE)
            return NULL;
        return shape_of_var(e->c, n->var, at(e, d->loc));
    }
    if (d->kind != DX_BCAST || strcmp(d->name, "broadcast") != 0)
        return NULL;
    PtrVec ops = { 0 };
    for (int i = 0; i < d->args.n; i++) {
        Shape *op = clause_shape(e, d->args.items[i]);
        if (!op)
            return NULL;
        pv_push(e->c->arena, &ops, op);
    }
    e->sc->wrote_bcast = 1;
    return bcast_shape(e->c, ops, origin_new(e->c, d->loc, "broadcast", NULL, 0));
}

/* Whether d names a shape of the scope anywhere (then a clause is between
 * shapes, or wrong). */
static int mentions_shape(Scope *sc, const DExpr *d)
{
    if (d->kind == DX_NAME) {
        ScopeName *n = find_name(sc, d->name);
        return n && n->kind == NK_SHAPE;
    }
    if (d->kind == DX_BIN)
        return mentions_shape(sc, d->l) || mentions_shape(sc, d->r);
    if (d->kind == DX_BCAST)
        for (int i = 0; i < d->args.n; i++)
            if (mentions_shape(sc, d->args.items[i]))
                return 1;
    return 0;
}

int elab_shape_clause(Ctx *c, Scope *sc, DExpr *l, DExpr *r, OriginKind kind, const char *what, Shape **sl,
                      Shape **sr)
{
    if (!mentions_shape(sc, l) && !mentions_shape(sc, r))
        return 0;
    Elab e = { c, sc, kind, what, 1 };
    *sl = clause_shape(&e, l);
    *sr = *sl ? clause_shape(&e, r) : NULL;
    return *sl && *sr ? 1 : -1;         /* (on -1 an error follows) */
}
