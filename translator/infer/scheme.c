/* scheme.c - generalisation and instantiation of type schemes.
 *
 * A variable's level is the depth of the let that made it; binding it to a
 * term lowers the levels inside that term.  Leaving a let's right-hand side,
 * the variables still above the current level are local to it and become
 * GENERIC.  A scheme also carries the residual constraints (broadcasts,
 * equations) over its generic variables: every instance gets fresh copies,
 * so `g = fn(a, b) { a + b }` is `(t a, t b) -> t broadcast(a, b)` and each
 * call of g checks its own broadcast.
 */
#include "scheme.h"

#include "dim.h"
#include "phantom.h"
#include "solve.h"
#include "types.h"

void enter_level(Ctx *c)
{
    c->level++;
}

void leave_level(Ctx *c)
{
    c->level--;
}

Scheme *scheme_mono(Ctx *c, Type *t)
{
    Scheme *s = ar_alloc(c->arena, sizeof *s);
    s->type = t;
    return s;
}

/* ---- marking generic variables ----------------------------------------- */

typedef struct Gen {
    Ctx *c;
    int above;
    int hits;
    uint32_t stamp;
} Gen;

static void gen_shape(Gen *g, Shape *s);
static void gen_dim(Gen *g, Dim *d);

static int gen_level(Gen *g, int *level)
{
    if (*level > g->above && *level != GENERIC) {
        *level = GENERIC;
        g->hits++;
        return 1;
    }
    return 0;
}

static void gen_def(Gen *g, Constraint *k)
{
    if (k && !k->done)
        cons_mark_generic(g->c, k, g->above);
}

static void gen_dvar(DVar *v, void *arg)
{
    Gen *g = arg;
    if (gen_level(g, &v->level))
        gen_def(g, v->def);
}

static void gen_dim(Gen *g, Dim *d)
{
    dim_each_var(dim_norm(g->c, d), gen_dvar, g);
}

static void gen_shape(Gen *g, Shape *s)
{
    s = shape_norm(g->c, s);
    for (uint32_t i = 0; i < s->n; i++) {
        if (s->s[i].var) {
            if (gen_level(g, &s->s[i].var->level))
                gen_def(g, s->s[i].var->def);
        } else {
            gen_dim(g, s->s[i].dim);
        }
    }
}

static void gen_type(Gen *g, Type *t, int depth)
{
    t = type_prune(t);
    if (t->stamp == g->stamp)
        return;
    t->stamp = g->stamp;
    if (depth > TYPE_MAX_DEPTH)
        type_too_deep(g->c);
    switch (t->kind) {
    case TY_VAR:
        gen_level(g, &t->u.var.level);
        break;
    case TY_TENSOR: {
        Elem *e = elem_find(t->u.ten.elem);
        if (e->prim == EL_VAR)
            gen_level(g, &e->level);
        gen_shape(g, t->u.ten.shape);
        break;
    }
    case TY_TUPLE:
    case TY_FUNC:
        for (uint32_t i = 0; i < t->u.fun.n; i++)
            gen_type(g, t->u.fun.items[i], depth + 1);
        if (t->kind == TY_FUNC)
            gen_type(g, t->u.fun.ret, depth + 1);
        break;
    }
}

static Scheme *close_level(Ctx *c, Type *t, int settle)
{
    solve_drain(c);
    if (c->level + 1 < c->npending)
        fix_phantoms(c, t, &c->pending[c->level + 1], c->level + 1);
    Scheme *s = scheme_mono(c, t);
    if (settle) {
        type_lower_levels(c, t, c->level);
    } else {
        Gen g = { c, c->level, 0, ++c->stamp };
        gen_type(&g, t, 0);
        s->generic = g.hits > 0;
    }
    int inner = c->level + 1;
    if (inner < c->npending) {
        PtrVec *list = &c->pending[inner];
        for (int i = 0; i < list->n; i++) {
            Constraint *k = list->items[i];
            if (k->done)
                continue;
            if (settle) {
                cons_lower_levels(c, k, c->level);
            } else if (cons_mark_generic(c, k, c->level)) {
                pv_push(c->arena, &s->cons, k);   /* over generic variables */
                k->templ = 1;
                s->generic = 1;
                continue;
            }
            k->level = c->level;
            pv_push(c->arena, &c->pending[c->level], k);
        }
        list->n = 0;
    }
    return s;
}

Scheme *generalize(Ctx *c, Type *t)
{
    return close_level(c, t, 0);
}

Scheme *settle(Ctx *c, Type *t)
{
    return close_level(c, t, 1);
}

/* ---- instantiation ------------------------------------------------------ */

typedef struct Inst {
    Ctx *c;
    uint32_t stamp;
    const Origin *o;
    int raw;               /* copying an equation that defines a rewrite */
    int match;             /* instantiate_call: a generic variable's mark is
                            * what it stands for -- a Dim* for a dimension
                            * variable, a Shape* for a shape variable (the
                            * argument's part it matched, or a fresh one) */
    PtrVec *log;           /* Ctx.inst_log: InstPair* (scheme.h) */
} Inst;

static void inst_note(Inst *in, InstKind kind, void *from, void *to)
{
    if (!in->log)
        return;
    InstPair *p = ar_alloc(in->c->arena, sizeof *p);
    p->kind = kind;
    p->from = from;
    p->to = to;
    pv_push(in->c->arena, in->log, p);
}

static Dim *inst_dim(Inst *in, Dim *d);

static DVar *inst_dvar(Inst *in, DVar *v)
{
    if (v->level != GENERIC)
        return v;
    if (v->stamp == in->stamp)
        return v->mark;
    DVar *n = dvar_new(in->c, NULL);
    n->dyn = v->dyn;
    v->stamp = in->stamp;
    v->mark = n;
    inst_note(in, INST_DIM, v, dim_of_var(in->c, n, in->o));
    return n;
}

/* What a dimension variable stands for in this instance, as a Dim. */
static Dim *inst_dvar_dim(Inst *in, DVar *v)
{
    if (!in->match || v->level != GENERIC)
        return dim_of_var(in->c, inst_dvar(in, v), in->o);
    if (v->stamp != in->stamp) {
        DVar *n = dvar_new(in->c, NULL);
        n->dyn = v->dyn;
        v->stamp = in->stamp;
        v->mark = dim_of_var(in->c, n, in->o);
        inst_note(in, INST_DIM, v, v->mark);
    }
    return v->mark;
}

static SVar *inst_svar(Inst *in, SVar *v)
{
    if (v->level != GENERIC)
        return v;
    if (v->stamp == in->stamp)
        return v->mark;
    SVar *n = svar_new(in->c, NULL);
    v->stamp = in->stamp;
    v->mark = n;
    inst_note(in, INST_SHAPE, v, shape_of_var(in->c, n, in->o));
    return n;
}

/* What a shape variable stands for in this instance, as a Shape. */
static Shape *inst_svar_shape(Inst *in, SVar *v)
{
    if (!in->match || v->level != GENERIC)
        return shape_of_var(in->c, inst_svar(in, v), in->o);
    if (v->stamp != in->stamp) {
        v->stamp = in->stamp;
        v->mark = shape_of_var(in->c, svar_new(in->c, NULL), in->o);
        inst_note(in, INST_SHAPE, v, v->mark);
    }
    return v->mark;
}

static Dim *inst_dim(Inst *in, Dim *d)
{
    Ctx *c = in->c;
    d = in->raw ? dim_norm_raw(c, d) : dim_norm(c, d);
    if (d->ragged)
        return dim_ragged(c, in->o);
    /* A copy whose variables are replaced; the substitution keeps the
     * canonical order except where generic and fresh variables interleave,
     * so the result goes through the canonicaliser (via dim_add). */
    int linear = !in->match;
    for (uint32_t i = 0; i < d->nt && linear; i++)
        if (d->t[i].nf > 1 || (d->t[i].nf == 1 && (!d->t[i].f[0].var || d->t[i].f[0].pow != 1)))
            linear = 0;
    if (d->nt == 1 && d->t[0].nf == 1 && d->t[0].coef == 1 && d->t[0].f[0].var && d->t[0].f[0].pow == 1)
        return inst_dvar_dim(in, d->t[0].f[0].var);
    if (linear) {
        Mono *m = ar_alloc(c->arena, sizeof(Mono) * (d->nt ? d->nt : 1));
        for (uint32_t i = 0; i < d->nt; i++) {
            m[i].coef = d->t[i].coef;
            m[i].nf = d->t[i].nf;
            if (m[i].nf) {
                m[i].f = ar_alloc(c->arena, sizeof(Factor));
                m[i].f[0].var = inst_dvar(in, d->t[i].f[0].var);
                m[i].f[0].pow = 1;
            }
        }
        return dim_canon(c, m, d->nt, in->o);
    }
    /* (In a match a variable may stand for an expression: substitute.) */
    Dim *sum = dim_const(c, 0, in->o);
    for (uint32_t i = 0; i < d->nt; i++) {
        const Mono *m = &d->t[i];
        Dim *term = dim_const(c, m->coef, in->o);
        for (uint32_t j = 0; j < m->nf; j++) {
            const Factor *f = &m->f[j];
            Dim *x = f->var ? inst_dvar_dim(in, f->var)
                            : dim_div(c, inst_dim(in, f->div->num), inst_dim(in, f->div->den), in->o);
            if (!x)
                x = dim_const(c, 0, in->o);
            for (uint32_t p = 0; p < f->pow; p++)
                term = dim_mul(c, term, x, in->o);
        }
        sum = dim_add(c, sum, term, in->o);
    }
    sum->origin = in->o;
    return sum;
}

static Shape *inst_shape(Inst *in, Shape *s)
{
    s = shape_norm(in->c, s);
    if (in->match && s->n == 1 && s->s[0].var && s->s[0].var->level == GENERIC)
        return inst_svar_shape(in, s->s[0].var);   /* (what it stands for, as is) */
    if (in->match) {
        /* A shape variable stands for segments of its own: splice them. */
        uint32_t n = 0;
        const Origin *o = in->o;
        for (uint32_t i = 0; i < s->n; i++) {
            Shape *v = s->s[i].var ? shape_norm(in->c, inst_svar_shape(in, s->s[i].var)) : NULL;
            n += v ? v->n : 1;
            if (v && s->n == 1)
                o = v->origin;          /* as a bound variable's would be */
        }
        Shape *r = shape_new(in->c, n, o);
        uint32_t k = 0;
        for (uint32_t i = 0; i < s->n; i++) {
            if (s->s[i].var) {
                Shape *v = shape_norm(in->c, inst_svar_shape(in, s->s[i].var));
                for (uint32_t j = 0; j < v->n; j++)
                    r->s[k++] = v->s[j];
            } else {
                r->s[k++].dim = inst_dim(in, s->s[i].dim);
            }
        }
        return r;
    }
    Shape *r = shape_new(in->c, s->n, in->o);
    for (uint32_t i = 0; i < s->n; i++) {
        if (s->s[i].var)
            r->s[i].var = inst_svar(in, s->s[i].var);
        else
            r->s[i].dim = inst_dim(in, s->s[i].dim);
    }
    return r;
}

/* Each node is copied once (stamp, mark), so a DAG stays a DAG. */
static Type *inst_type(Inst *in, Type *t, int depth)
{
    Ctx *c = in->c;
    t = type_prune(t);
    if (t->kind != TY_VAR && t->stamp == in->stamp)
        return t->mark;
    if (depth > TYPE_MAX_DEPTH)
        type_too_deep(c);
    switch (t->kind) {
    case TY_VAR:
        if (t->u.var.level != GENERIC)
            return t;
        if (t->stamp == in->stamp)
            return t->mark;
        t->stamp = in->stamp;
        t->mark = type_var(c, NULL);
        inst_note(in, INST_TYPE, t, t->mark);
        return t->mark;
    case TY_TENSOR: {
        Elem *e = elem_find(t->u.ten.elem);
        Elem *ne;
        if (e->prim != EL_VAR) {
            ne = elem_prim(c, e->prim, in->o);
        } else if (e->level == GENERIC) {
            if (e->stamp != in->stamp) {
                Elem *n = elem_var(c, NULL);
                n->cls = e->cls;
                n->cls_origin = e->cls_origin;
                e->stamp = in->stamp;
                e->mark = n;
                inst_note(in, INST_ELEM, e, n);
            }
            ne = e->mark;
        } else {
            ne = e;
        }
        Type *r = type_tensor(c, ne, inst_shape(in, t->u.ten.shape), in->o);
        t->stamp = in->stamp;
        t->mark = r;
        return r;
    }
    case TY_TUPLE:
    case TY_FUNC: {
        Type *r = t->kind == TY_TUPLE ? type_tuple(c, t->u.fun.n, in->o) : type_func(c, t->u.fun.n, in->o);
        for (uint32_t i = 0; i < t->u.fun.n; i++)
            r->u.fun.items[i] = inst_type(in, t->u.fun.items[i], depth + 1);
        if (t->kind == TY_FUNC)
            r->u.fun.ret = inst_type(in, t->u.fun.ret, depth + 1);
        t->stamp = in->stamp;
        t->mark = r;
        return r;
    }
    }
    return t;
}

static PtrVec inst_dims(Inst *in, const PtrVec *v)
{
    PtrVec r = { 0 };
    for (int i = 0; i < v->n; i++)
        pv_push(in->c->arena, &r, inst_dim(in, v->items[i]));
    return r;
}

static PtrVec inst_shapes(Inst *in, const PtrVec *v)
{
    PtrVec r = { 0 };
    for (int i = 0; i < v->n; i++)
        pv_push(in->c->arena, &r, inst_shape(in, v->items[i]));
    return r;
}

/* The result variable of an instance of broadcast k: a fresh one that
 * the copy defines, or (a check) one standing for its known result.  (A
 * match never binds a broadcast's result: instantiate_call gives up.) */
static SVar *inst_sres(Inst *in, Constraint *k, Constraint *k2)
{
    if (k->sres->link) {
        SVar *v = svar_new(in->c, NULL);
        v->link = inst_shape(in, k->sres->link);
        return v;
    }
    SVar *v = in->match ? inst_svar_shape(in, k->sres)->s[0].var : inst_svar(in, k->sres);
    v->def = k2;
    return v;
}

static DVar *inst_dres(Inst *in, Constraint *k, Constraint *k2)
{
    if (k->dres->link) {
        DVar *v = dvar_new(in->c, NULL);
        v->link = inst_dim(in, k->dres->link);
        return v;
    }
    DVar *v = in->match ? dim_is_var(inst_dvar_dim(in, k->dres)) : inst_dvar(in, k->dres);
    v->def = k2;
    return v;
}

/* Copies the scheme's constraints for this instance (and adds them). */
static void inst_constraints(Inst *in, const Scheme *s)
{
    Ctx *c = in->c;
    const Origin *o = in->o;
    /* A constraint of a built-in rule is reported at the call; one of a
     * user's function keeps its own place in the source. */
    Origin *here = NULL;
    PtrVec made = { 0 };
    for (int i = 0; i < s->cons.n; i++) {
        Constraint *k = s->cons.items[i];
        if (k->done)
            continue;
        Dim *fits = NULL;
        if (k->kind == C_FITS) {        /* a size already checked, or needing none */
            fits = inst_dim(in, k->l);
            if (!fits_needed(c, fits))
                continue;
        }
        const Origin *why = k->why;
        if (!why || !why->loc.src || why->loc.src->builtin || k->clause) {   /* (an extern's C_FITS has none) */
            if (!here) {
                here = origin_of(c, o->loc, o->rule ? OW_QUOTED : o->kind, o->what, o->rule, 0);
                here->scheme = o->scheme;
            }
            why = here;
            if (k->clause && k->kind != C_NONNEG && here->kind != OW_ARG) {   /* an equation's */
                Origin *h = ar_alloc(c->arena, sizeof *h);                  /* clause: on its origin */
                *h = *here;
                h->argname = k->clause;     /* (origin_clause) */
                why = h;
            }
        }
        Constraint *k2 = cons_new(c, k->kind, why);
        k2->rewrites = k->rewrites;
        k2->clause = k->clause;
        k2->clause_diff = k->clause_diff;
        k2->promise = k->promise;
        switch (k->kind) {
        case C_BCAST_SHAPE:
            k2->ops = inst_shapes(in, &k->ops);
            k2->sres = inst_sres(in, k, k2);
            break;
        case C_BCAST_DIM:
            k2->ops = inst_dims(in, &k->ops);
            k2->dres = inst_dres(in, k, k2);
            break;
        case C_EQ_DIM:
            in->raw = k->rewrites;
            k2->l = inst_dim(in, k->l);
            k2->r = inst_dim(in, k->r);
            in->raw = 0;
            if (k->axis) {
                k2->axis = 1;
                k2->sr = inst_shape(in, k->sr);
            }
            break;
        case C_EQ_SHAPE:
            k2->sl = inst_shape(in, k->sl);
            k2->sr = inst_shape(in, k->sr);
            break;
        case C_NONNEG:
            k2->l = inst_dim(in, k->r ? k->r : k->l);
            break;
        case C_DYN:
            k2->dres = dvar_new(c, NULL);
            k2->dres->dyn = 2;
            k2->l = inst_dim(in, k->l);
            break;
        case C_FITS:
            k2->l = fits;
            fits_note(c, k2);
            break;
        case C_ELEMS:
        case C_RANK:
            k2->sl = inst_shape(in, k->sl);
            k2->dres = inst_dres(in, k, k2);
            break;
        }
        k->stamp = in->stamp;           /* k's copy, for `within` below */
        k->mark = k2;
        pv_push(c->arena, &made, k2);
    }
    for (int i = 0; i < s->cons.n; i++) {
        Constraint *k = s->cons.items[i];
        if (!k->done && k->within && k->within->stamp == in->stamp)
            ((Constraint *)k->mark)->within = k->within->mark;
    }
    for (int i = 0; i < made.n; i++)
        cons_add(c, made.items[i]);
}

Type *instantiate(Ctx *c, const Scheme *s, const Origin *o)
{
    if (!s->generic)
        return s->type;
    Inst in = { c, ++c->stamp, o, 0, 0, c->inst_log };
    Type *t = inst_type(&in, s->type, 0);
    inst_constraints(&in, s);
    return t;
}

/* ---- a call matched against the callee's scheme ------------------------ */

/* Whether a's part d (normalised) is what the pattern dimension p stands
 * for: p a generic variable (bound now, or already standing for the same),
 * or a term without generic variables equal to d. */
static int match_dim(Inst *in, Dim *p, Dim *d)
{
    Ctx *c = in->c;
    p = dim_norm(c, p);
    d = dim_norm(c, d);
    DVar *v = dim_is_var(p);
    if (v && v->level == GENERIC) {
        if (v->stamp == in->stamp)
            return dim_equal(dim_norm(c, v->mark), d);
        if (v->def && !v->def->done)
            return 0;                   /* a broadcast's result: the slow way */
        v->stamp = in->stamp;
        v->mark = d;
        inst_note(in, INST_DIM, v, d);
        return 1;
    }
    if (p->ragged || d->ragged)
        return p->ragged && d->ragged;
    for (uint32_t i = 0; i < p->nt; i++)
        for (uint32_t j = 0; j < p->t[i].nf; j++)
            if (!p->t[i].f[j].var || p->t[i].f[j].var->level == GENERIC)
                return 0;
    return dim_equal(p, d);
}

/* Pattern shape P against the argument's shape A: the ends pair up (a
 * dimension with a dimension, a shape variable with itself), and what is
 * left of P must be nothing or one generic shape variable, which stands
 * for what is left of A.  Anything else (a rank that does not fit, an
 * argument's unknown rank to split) is left to unification. */
static int match_shape(Inst *in, Shape *P, Shape *A)
{
    Ctx *c = in->c;
    P = shape_norm(c, P);
    A = shape_norm(c, A);
    /* P with the shape variables already matched spelled out (a copy only
     * where there is one). */
    uint32_t n = 0;
    int matched = 0;
    for (uint32_t i = 0; i < P->n; i++) {
        SVar *v = P->s[i].var;
        int m = v && v->level == GENERIC && v->stamp == in->stamp;
        matched |= m;
        n += m ? shape_norm(c, v->mark)->n : 1;
    }
    Seg *p = P->s;
    if (matched) {
        p = ar_alloc(c->arena, sizeof(Seg) * (n ? n : 1));
        uint32_t k = 0;
        for (uint32_t i = 0; i < P->n; i++) {
            SVar *v = P->s[i].var;
            if (v && v->level == GENERIC && v->stamp == in->stamp) {
                Shape *m = shape_norm(c, v->mark);
                for (uint32_t j = 0; j < m->n; j++)
                    p[k++] = m->s[j];
            } else {
                p[k++] = P->s[i];
            }
        }
    }
    uint32_t pi = 0, pj = n, ai = 0, aj = A->n;
    for (;;) {                                  /* from the left */
        if (pi == pj || ai == aj)
            break;
        Seg *x = &p[pi], *y = &A->s[ai];
        if (x->dim && y->dim) {
            if (!match_dim(in, x->dim, y->dim))
                return 0;
        } else if (!(x->var && x->var == y->var)) {
            break;
        }
        pi++;
        ai++;
    }
    for (;;) {                                  /* from the right */
        if (pj == pi || aj == ai)
            break;
        Seg *x = &p[pj - 1], *y = &A->s[aj - 1];
        if (x->dim && y->dim) {
            if (!match_dim(in, x->dim, y->dim))
                return 0;
        } else if (!(x->var && x->var == y->var)) {
            break;
        }
        pj--;
        aj--;
    }
    if (pi == pj)
        return ai == aj;
    SVar *v = pj - pi == 1 ? p[pi].var : NULL;
    if (!v || v->level != GENERIC || v->stamp == in->stamp || (v->def && !v->def->done))
        return 0;
    /* What is left of A, sharing its segments (a shape's segments are not
     * changed in place: shape_norm makes new ones). */
    Shape *rest = shape_new(c, 0, A->origin);
    rest->n = aj - ai;
    rest->s = aj > ai ? A->s + ai : NULL;
    v->stamp = in->stamp;
    v->mark = rest;
    inst_note(in, INST_SHAPE, v, rest);
    return 1;
}

static int match_elem(Inst *in, Elem *p, Elem *a)
{
    p = elem_find(p);
    a = elem_find(a);
    if (p->prim != EL_VAR)
        return a->prim == p->prim;
    if (p->level != GENERIC)
        return p == a;
    if (p->stamp == in->stamp)
        return elem_find(p->mark) == a;
    /* A literal's class must already hold (no class to raise, no check). */
    if (a->prim == EL_VAR ? a->cls < p->cls : !elem_accepts(a->prim, p->cls))
        return 0;
    p->stamp = in->stamp;
    p->mark = a;
    inst_note(in, INST_ELEM, p, a);
    return 1;
}

static int match_type(Inst *in, Type *p, Type *a, int depth)
{
    p = type_prune(p);
    a = type_prune(a);
    if (depth > TYPE_MAX_DEPTH)
        return 0;
    if (p->kind == TY_VAR) {
        if (p->u.var.level != GENERIC)
            return p == a;
        if (p->stamp == in->stamp)
            return type_prune(p->mark) == a;
        p->stamp = in->stamp;
        p->mark = a;
        inst_note(in, INST_TYPE, p, a);
        return 1;
    }
    if (p->kind != a->kind)
        return 0;
    switch (p->kind) {
    case TY_TENSOR:
        return match_elem(in, p->u.ten.elem, a->u.ten.elem) && match_shape(in, p->u.ten.shape, a->u.ten.shape);
    case TY_TUPLE:
    case TY_FUNC:
        if (p->u.fun.n != a->u.fun.n)
            return 0;
        for (uint32_t i = 0; i < p->u.fun.n; i++)
            if (!match_type(in, p->u.fun.items[i], a->u.fun.items[i], depth + 1))
                return 0;
        return p->kind == TY_TUPLE || match_type(in, p->u.fun.ret, a->u.fun.ret, depth + 1);
    case TY_VAR:
        break;
    }
    return 0;
}

Type *instantiate_call(Ctx *c, const Scheme *s, const Origin *o, Type **args, int nargs)
{
    Type *ft = type_prune(s->type);
    if (!s->generic || ft->kind != TY_FUNC || (int)ft->u.fun.n != nargs)
        return NULL;
    Inst in = { c, ++c->stamp, o, 0, 1, c->inst_log };
    int logged = c->inst_log ? c->inst_log->n : 0;
    for (int i = 0; i < nargs; i++)
        if (!match_type(&in, ft->u.fun.items[i], args[i], 0)) {
            if (c->inst_log)
                c->inst_log->n = logged;    /* (instantiate does it again) */
            return NULL;
        }
    Type *t = inst_type(&in, ft->u.fun.ret, 0);
    inst_constraints(&in, s);
    return t;
}
