/* types.c - element types, shapes and types: constructors, union-find
 * lookup, and normalisation of shapes through bound shape variables (the
 * paper's "shape simplification": appends are flattened, empty shapes
 * vanish, so `[] @ [n, n]` is `[n, n]`). */
#include "types.h"

#include <string.h>

#include "dim.h"

/* ORDER ELEM */
static const char *const elem_names[EL_COUNT] = {
    "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
    "f16", "bf16", "f32", "f64", "dims",
};
static const int elem_sizes[EL_COUNT] = { 1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 2, 4, 8, 8 };

int elem_lookup(const char *name)
{
    for (int i = 0; i < EL_COUNT; i++)
        if (strcmp(name, elem_names[i]) == 0)
            return i;
    return EL_VAR;
}

const char *elem_name(int prim) { return elem_names[prim]; }
int elem_size(int prim) { return elem_sizes[prim]; }

/* Integer literals need a numeric type (not bool); fractional ones (1.5,
 * 2f, inf) a floating-point one. */
int elem_accepts(int prim, int cls)
{
    if (prim == EL_DIMS)                /* sizes are written [2, 2] */
        return 0;
    if (cls == ELC_FLOAT)
        return prim == EL_F16 || prim == EL_BF16 || prim == EL_F32 || prim == EL_F64;
    if (cls == ELC_NUMBER)
        return prim != EL_BOOL;
    return 1;
}

Origin *origin_new(Ctx *c, Loc loc, const char *what, const char *rule, int arg)
{
    Origin *o = ar_alloc(c->arena, sizeof *o);
    o->loc = loc;
    o->what = what;
    o->rule = rule;
    o->arg = arg;
    return o;
}

Origin *origin_of(Ctx *c, Loc loc, OriginKind kind, const char *name, const char *rule, int arg)
{
    Origin *o = origin_new(c, loc, name, rule, arg);
    o->kind = kind;
    return o;
}

const char *origin_text(Ctx *c, const Origin *o)
{
    if (!o)
        return "here";
    Arena *a = c->arena;
    const char *r = o->rule ? o->rule : "this function";
    switch (o->kind) {
    case OW_TEXT: return o->what ? o->what : "here";
    case OW_ANNOT: return ar_printf(a, "the annotation of '%s'", o->what);
    case OW_RULE: return ar_printf(a, "the rule of '%s'", o->what);
    case OW_SIG: return ar_printf(a, "the signature of '%s'", o->what);
    case OW_ARG:
        if (o->argname)
            return o->rule ? ar_printf(a, "argument %d (%s) of '%s'", o->arg, o->argname, o->rule)
                           : ar_printf(a, "argument %d (%s)", o->arg, o->argname);
        return o->rule ? ar_printf(a, "argument %d of '%s'", o->arg, o->rule) : ar_printf(a, "argument %d", o->arg);
    case OW_LEFT: return ar_printf(a, "the left operand of '%s'", r);
    case OW_RIGHT: return ar_printf(a, "the right operand of '%s'", r);
    case OW_OPERAND: return ar_printf(a, "the operand of '%s'", r);
    case OW_VALUE: return ar_printf(a, "the value of '%s'", o->what);
    case OW_CALL: return o->rule ? ar_printf(a, "the call of '%s'", o->rule) : "this call";
    case OW_QUOTED: return ar_printf(a, "'%s'", r);
    }
    return "here";
}

Elem *elem_var(Ctx *c, const char *hint)
{
    Elem *e = ar_alloc(c->arena, sizeof *e);
    e->prim = EL_VAR;
    e->level = c->level;
    e->id = ++c->next_id;
    e->hint = hint;
    return e;
}

Elem *elem_prim(Ctx *c, int prim, const Origin *o)
{
    Elem *e = ar_alloc(c->arena, sizeof *e);
    e->prim = prim;
    e->origin = o;
    return e;
}

Elem *elem_find(Elem *e)
{
    Elem *r = e;
    while (r->link)
        r = r->link;
    while (e->link && e->link != r) {    /* path compression */
        Elem *next = e->link;
        e->link = r;
        e = next;
    }
    return r;
}

SVar *svar_new(Ctx *c, const char *hint)
{
    SVar *v = ar_alloc(c->arena, sizeof *v);
    v->level = c->level;
    v->id = ++c->next_id;
    v->hint = hint;
    return v;
}

Shape *shape_new(Ctx *c, uint32_t n, const Origin *o)
{
    Shape *s = ar_alloc(c->arena, sizeof *s);
    s->n = n;
    s->s = n ? ar_alloc(c->arena, sizeof(Seg) * n) : NULL;
    s->origin = o;
    return s;
}

Shape *shape_of_var(Ctx *c, SVar *v, const Origin *o)
{
    Shape *s = shape_new(c, 1, o);
    s->s[0].var = v;
    return s;
}

/* Expands bound shape variables, in place: the shape keeps its meaning,
 * and the next look at it costs nothing.  Dimension nodes are left as they
 * are (callers normalise each with dim_norm): a variable's node records
 * which variable stood at that place, which the emitter's messages need. */
Shape *shape_norm(Ctx *c, Shape *s)
{
    uint32_t n = 0;
    int bound = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        SVar *v = s->s[i].var;
        if (v && v->link) {
            v->link = shape_norm(c, v->link);
            n += v->link->n;
            bound = 1;
        } else {
            n++;
        }
    }
    if (!bound)
        return s;
    Seg *segs = n ? ar_alloc(c->arena, sizeof(Seg) * n) : NULL;
    uint32_t k = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        SVar *v = s->s[i].var;
        if (v && v->link) {
            if (v->link->n)
                memcpy(segs + k, v->link->s, sizeof(Seg) * v->link->n);
            k += v->link->n;
        } else {
            segs[k++] = s->s[i];
        }
    }
    /* A shape that was a single bound variable takes its value's origin. */
    if (s->n == 1 && s->s[0].var)
        s->origin = s->s[0].var->link->origin;
    s->n = n;
    s->s = segs;
    return s;
}

Shape *shape_slice(Ctx *c, Shape *s, uint32_t from, uint32_t to, const Origin *o)
{
    Shape *r = shape_new(c, to - from, o ? o : s->origin);
    if (to > from)
        memcpy(r->s, s->s + from, sizeof(Seg) * (to - from));
    return r;
}

Shape *shape_concat(Ctx *c, Shape *a, Shape *b, const Origin *o)
{
    Shape *r = shape_new(c, a->n + b->n, o);
    if (a->n)
        memcpy(r->s, a->s, sizeof(Seg) * a->n);
    if (b->n)
        memcpy(r->s + a->n, b->s, sizeof(Seg) * b->n);
    return r;
}

int shape_equal(Ctx *c, Shape *a, Shape *b)
{
    if (a == b)
        return 1;
    a = shape_norm(c, a);
    b = shape_norm(c, b);
    if (a->n != b->n)
        return 0;
    for (uint32_t i = 0; i < a->n; i++) {
        if (a->s[i].var || b->s[i].var) {
            if (a->s[i].var != b->s[i].var)
                return 0;
        } else if (!dim_equal(dim_norm(c, a->s[i].dim), dim_norm(c, b->s[i].dim))) {
            return 0;
        }
    }
    return 1;
}

int shape_rank(const Shape *s, int *known)
{
    int n = 0;
    *known = 1;
    for (uint32_t i = 0; i < s->n; i++) {
        if (s->s[i].var)
            *known = 0;
        else
            n++;
    }
    return n;
}

Type *type_var(Ctx *c, const char *hint)
{
    Type *t = ar_alloc(c->arena, sizeof *t);
    t->kind = TY_VAR;
    t->u.var.level = c->level;
    t->u.var.id = ++c->next_id;
    t->u.var.hint = hint;
    return t;
}

Type *type_tensor(Ctx *c, Elem *e, Shape *s, const Origin *o)
{
    Type *t = ar_alloc(c->arena, sizeof *t);
    t->kind = TY_TENSOR;
    t->u.ten.elem = e;
    t->u.ten.shape = s;
    t->origin = o;
    return t;
}

static Type *type_compound(Ctx *c, TypeKind k, uint32_t n, const Origin *o)
{
    Type *t = ar_alloc(c->arena, sizeof *t);
    t->kind = k;
    t->u.fun.n = n;
    t->u.fun.items = ar_alloc(c->arena, sizeof(Type *) * (n ? n : 1));
    t->origin = o;
    return t;
}

Type *type_tuple(Ctx *c, uint32_t n, const Origin *o) { return type_compound(c, TY_TUPLE, n, o); }
Type *type_func(Ctx *c, uint32_t n, const Origin *o) { return type_compound(c, TY_FUNC, n, o); }

Type *type_prune(Type *t)
{
    Type *r = t;
    while (r->kind == TY_VAR && r->u.var.link)
        r = r->u.var.link;
    while (t->kind == TY_VAR && t->u.var.link && t->u.var.link != r) {
        Type *next = t->u.var.link;
        t->u.var.link = r;
        t = next;
    }
    return r;
}
