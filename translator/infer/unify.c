/* unify.c - unification of types, element types and shapes, variable
 * binding with level adjustment, and the diagnostics of a failed unification.
 *
 * Type rules (paper figure 3):
 *   tau s = a          =>  a = tau s                      (reorder)
 *   tau1 s1 = tau2 s2  =>  tau1 = tau2, s1 = s2           (split)
 *   a = tau s          =>  FAIL if a occurs in tau s      (occurs check)
 * Shape rules (paper section 5) as applied by u_shape_step:
 *   append unpacking   s @ [.., dn] = s' @ [.., d'm]  =>  dn = d'm, ...
 *                      [d1, ..] @ s = [d'1, ..] @ s'  =>  d1 = d'1, ...
 *   unpacking          [d1..dn] = [d'1..d'm]  =>  di = d'i, FAIL if n != m
 *   empty shapes       [d1..dn] = s1 @ [d'1..d'n] @ s2  =>  s1 = s2 = []
 *   append dimensionality  FAIL if an append needs more axes than it equals
 *   basic              a = s  =>  bind a := s (FAIL if a occurs in s with
 *                      axes around it: no infinite shapes)
 */
#include <stdarg.h>
#include <string.h>

#include "dim.h"
#include "print.h"
#include "solve_int.h"
#include "types.h"

/* ---- diagnostics --------------------------------------------------- */

void abandon(Ctx *c)
{
    longjmp(*c->abort, 1);
}

void type_too_deep(Ctx *c)
{
    type_error(c, c->where, "this makes a type nested more than %d levels deep", TYPE_MAX_DEPTH);
}

void type_error(Ctx *c, Loc loc, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_error(c->diag, loc, "%s", msg);
    abandon(c);
}

void note_origin(Ctx *c, const char *term, const Origin *o)
{
    if (!o || !o->loc.src)
        return;
    if (o->scheme)
        diag_note(c->diag, o->loc, "%s comes from %s: %s", term, origin_text(c, o),
                  pr_scheme_str(c, o->scheme, PR_TEXT_LIMIT));
    else
        diag_note(c->diag, o->loc, "%s comes from %s", term, origin_text(c, o));
}

Site site_of(const Origin *why)
{
    Site s;
    memset(&s, 0, sizeof s);
    s.why = why;
    s.axis = INT_MIN;
    return s;
}

static const char *what_of(Ctx *c, const Site *site)
{
    return origin_text(c, site->why);
}

static Loc loc_of(const Site *site)
{
    Loc none = { 0, 0, 0 };
    return site->why ? site->why->loc : none;
}

/* "axis 1" of the actual shape, counted from the start when it is known. */
static const char *axis_text(Ctx *c, const Site *site)
{
    if (site->axis == INT_MIN)
        return NULL;
    int axis = site->axis;
    if (axis < 0 && site->act_shape) {
        int known;
        int rank = shape_rank(shape_norm(c, site->act_shape), &known);
        if (known)
            axis += rank;
    }
    return axis >= 0 ? ar_printf(c->arena, "axis %d", axis)
                     : ar_printf(c->arena, "axis %d (from the end)", axis);
}

/* A size 1 against another where the rule does not broadcast: say so,
 * since `+` would have stretched it (max and min; matmul's batch axes). */
static void note_no_broadcast(Ctx *c, const Site *site)
{
    const char *rule = site->why ? site->why->rule : NULL;
    if (!rule)
        return;
    if (strcmp(rule, "max") == 0 || strcmp(rule, "min") == 0) {
        diag_note_plain(c->diag, "'%s' does not broadcast: its operands must have the same shape (%s does)", rule,
                        rule[1] == 'a' ? "maximum" : "minimum");
    } else if (strcmp(rule, "matmul") == 0 && site->axis != INT_MIN && site->act_shape) {
        int known;
        int rank = shape_rank(shape_norm(c, site->act_shape), &known);
        int axis = site->axis < 0 ? site->axis + rank : site->axis;
        if (known && axis >= 0 && axis < rank - 2)
            diag_note_plain(c->diag, "'matmul' does not broadcast its batch axes: they must be equal");
    }
}

void err_dims(Ctx *c, const Site *site, Dim *e, Dim *a, const char *why_text)
{
    Namer nm;
    namer_init(&nm, c, 1);
    const char *es = pr_dim_str(&nm, e), *as = pr_dim_str(&nm, a);
    const char *axis = axis_text(c, site);
    int64_t ke, ka;
    int consts = dim_is_const(e, &ke) && dim_is_const(a, &ka);
    const char *base = axis ? ar_printf(c->arena, "%s has size %s, expected %s", axis, as, es)
                            : ar_printf(c->arena, "size %s does not match %s", as, es);
    if (!why_text && !consts)
        why_text = "they can never be equal";
    if (origin_clause(site->why))
        base = ar_printf(c->arena, "the clause `where %s` does not hold: %s", origin_clause(site->why), base);
    if (why_text)
        diag_error(c->diag, loc_of(site), "%s: %s (%s)", what_of(c, site), base, why_text);
    else
        diag_error(c->diag, loc_of(site), "%s: %s", what_of(c, site), base);
    if (site->exp_shape && site->act_shape)
        diag_note_plain(c->diag, "the shapes are %s (expected) and %s",
                        pr_shape_str(&nm, site->exp_shape), pr_shape_str(&nm, site->act_shape));
    if (consts && (ke == 1 || ka == 1))
        note_no_broadcast(c, site);
    note_origin(c, es, e->origin);
    if (a->origin != e->origin)
        note_origin(c, as, a->origin);
    abandon(c);
}

void err_overflow(Ctx *c, const Site *site)
{
    const char *what = c->overflow == 2 ? "a dimension expression grows too large (more than 4096 terms, or nested too deeply)"
                     : c->overflow == 3 ? "division by zero in a dimension"
                                        : "dimension arithmetic overflows 64 bits";
    c->overflow = 0;
    diag_error(c->diag, loc_of(site), "%s: %s", what_of(c, site), what);
    abandon(c);
}

void check_overflow(Ctx *c, const Site *site)
{
    if (c->overflow)
        err_overflow(c, site);
}

static AX_NORETURN void err_rank(Ctx *c, const Site *site, Shape *e, Shape *a)
{
    Namer nm;
    namer_init(&nm, c, 1);
    Shape *fe = site->exp_shape ? site->exp_shape : e, *fa = site->act_shape ? site->act_shape : a;
    fe = shape_norm(c, fe);
    fa = shape_norm(c, fa);
    int ke, ka;
    int re = shape_rank(fe, &ke), ra = shape_rank(fa, &ka);
    const char *es = pr_shape_str(&nm, fe), *as = pr_shape_str(&nm, fa);
    if (ka)
        diag_error(c->diag, loc_of(site), "%s: shape %s has rank %d, expected %srank %d (%s)", what_of(c, site),
                   as, ra, ke ? "" : "at least ", re, es);
    else if (ke)
        diag_error(c->diag, loc_of(site), "%s: shape %s has at least rank %d, expected rank %d (%s)",
                   what_of(c, site), as, ra, re, es);
    else
        diag_error(c->diag, loc_of(site), "%s: shape %s does not fit %s", what_of(c, site), as, es);
    note_origin(c, es, fe->origin);
    if (fa->origin != fe->origin)
        note_origin(c, as, fa->origin);
    abandon(c);
}

static const char *kind_text(Ctx *c, Type *t)
{
    switch (t->kind) {
    case TY_TENSOR: return "a tensor";
    case TY_TUPLE: return ar_printf(c->arena, "a tuple of %u", t->u.fun.n);
    case TY_FUNC: return ar_printf(c->arena, "a function of %u argument%s", t->u.fun.n, t->u.fun.n == 1 ? "" : "s");
    default: return "a value";
    }
}

static AX_NORETURN void err_types(Ctx *c, const Site *site, Type *e, Type *a)
{
    Namer nm;
    namer_init(&nm, c, 1);
    const char *as = pr_type_str(&nm, a);
    diag_error(c->diag, loc_of(site), "%s: expected %s, found %s", what_of(c, site), kind_text(c, e), as);
    note_origin(c, "the expected type", e->origin);
    if (a->origin != e->origin)
        note_origin(c, as, a->origin);
    abandon(c);
}

/* ---- levels ---------------------------------------------------------- */

void dvar_lower_to(Ctx *c, DVar *v, int level)
{
    if (v->level > level && v->level != GENERIC) {
        v->level = level;
        if (v->def && !v->def->done)
            cons_lower_levels(c, v->def, level);
    }
}

typedef struct { Ctx *c; int level; } LowerArg;

static void dvar_lower(DVar *v, void *arg)
{
    LowerArg *la = arg;
    dvar_lower_to(la->c, v, la->level);
}

void dim_lower_levels(Ctx *c, Dim *d, int level)
{
    LowerArg la = { c, level };
    dim_each_var(dim_norm(c, d), dvar_lower, &la);
}

void svar_lower_to(Ctx *c, SVar *v, int level)
{
    if (v->level > level && v->level != GENERIC) {
        v->level = level;
        if (v->def && !v->def->done)
            cons_lower_levels(c, v->def, level);
    }
}

void shape_lower_levels(Ctx *c, Shape *s, int level)
{
    s = shape_norm(c, s);
    for (uint32_t i = 0; i < s->n; i++) {
        if (s->s[i].var)
            svar_lower_to(c, s->s[i].var, level);
        else
            dim_lower_levels(c, s->s[i].dim, level);
    }
}

/* Lowers levels under t; with `occ` set, fails if the variable occurs.
 * Each node once (types are DAGs: a pair of a pair shares its parts). */
static int lower_type(Ctx *c, Type *t, int level, Type *occ, uint32_t stamp, int depth)
{
    t = type_prune(t);
    if (t->stamp == stamp)
        return 0;
    t->stamp = stamp;
    if (depth > TYPE_MAX_DEPTH)
        type_too_deep(c);
    switch (t->kind) {
    case TY_VAR:
        if (t == occ)
            return 1;
        if (t->u.var.level > level && t->u.var.level != GENERIC)
            t->u.var.level = level;
        return 0;
    case TY_TENSOR: {
        Elem *e = elem_find(t->u.ten.elem);
        if (e->prim == EL_VAR && e->level > level && e->level != GENERIC)
            e->level = level;
        shape_lower_levels(c, t->u.ten.shape, level);
        return 0;
    }
    case TY_TUPLE:
    case TY_FUNC:
        for (uint32_t i = 0; i < t->u.fun.n; i++)
            if (lower_type(c, t->u.fun.items[i], level, occ, stamp, depth + 1))
                return 1;
        return t->kind == TY_FUNC ? lower_type(c, t->u.fun.ret, level, occ, stamp, depth + 1) : 0;
    }
    return 0;
}

void type_lower_levels(Ctx *c, Type *t, int level)
{
    lower_type(c, t, level, NULL, ++c->stamp, 0);
}

/* ---- binding --------------------------------------------------------- */

static void wake(Ctx *c, Watch **list)
{
    for (Watch *w = *list; w; w = w->next)
        if (!w->c->done && !w->c->queued) {
            w->c->queued = 1;
            pv_push(c->arena, &c->queue, w->c);
        }
    *list = NULL;
}

static void add_edge(Ctx *c, DVar *from, DVar *to, const Origin *why)
{
    BindEdge *e = ar_alloc(c->arena, sizeof *e);
    e->other = to;
    e->why = why;
    e->next = from->edges;
    from->edges = e;
}

/* Whether type t (a tensor's shape, or a tuple's) mentions v. */
static int type_mentions(Ctx *c, Type *t, const DVar *v, int depth)
{
    t = type_prune(t);
    if (depth > 64)
        return 0;
    if (t->kind == TY_TENSOR) {
        Shape *s = shape_norm(c, t->u.ten.shape);
        for (uint32_t i = 0; i < s->n; i++)
            if (s->s[i].dim && dim_mentions(dim_norm(c, s->s[i].dim), v))
                return 1;
        return 0;
    }
    if (t->kind == TY_TUPLE)
        for (uint32_t i = 0; i < t->u.fun.n; i++)
            if (type_mentions(c, t->u.fun.items[i], v, depth + 1))
                return 1;
    return 0;
}

/* Two annotation names are made one size at a call: which argument held
 * both (warn.c blames its layout). */
static void note_join(Ctx *c, DVar *v, DVar *w, const Origin *why)
{
    Join *j = ar_alloc(c->arena, sizeof *j);
    j->a = v;
    j->b = w;
    j->why = why;
    j->arg = -1;
    for (int i = 0; i < c->call_nargs && j->arg < 0; i++)
        if (c->call_args[i] && type_mentions(c, c->call_args[i], v, 0) && type_mentions(c, c->call_args[i], w, 0)) {
            Namer nm;
            namer_init(&nm, c, 1);
            j->arg = i;
            j->shape = pr_type_str(&nm, c->call_args[i]);
            j->expr = c->call_exprs[i];
        }
    pv_push(c->arena, &c->joins, j);
}

void bind_dvar(Ctx *c, DVar *v, Dim *val, const Origin *why)
{
    DVar *w = dim_is_var(val);
    /* A size an operation produces, fixed here: the variable it becomes
     * stands for it; anything else is a fact only running can check. */
    if (v->dyn == 2) {
        if (w && !w->link && w->dyn != 2)
            w->dyn = 2;
        else
            record_dyn(c, v, val, why);
    }
    if (c->explain && w && w != v) {     /* v = w: remember which rule said so */
        add_edge(c, v, w, why);
        add_edge(c, w, v, why);
    }
    if (w && w != v && v->hint && w->hint && c->call_nargs)
        note_join(c, v, w, why);
    v->link = val;
    v->why = why;
    c->epoch++;                  /* dimensions marked clean may not be now */
    dim_lower_levels(c, val, v->level);
    wake(c, &v->watch);
}

void bind_svar(Ctx *c, SVar *v, Shape *val, const Origin *why)
{
    v->link = val;
    v->why = why;
    shape_lower_levels(c, val, v->level);
    wake(c, &v->watch);
}

static void bind_tvar(Ctx *c, Type *v, Type *val, const Site *site)
{
    if (val->kind == TY_VAR) {
        if (val->u.var.level > v->u.var.level)
            val->u.var.level = v->u.var.level;
    } else if (lower_type(c, val, v->u.var.level, v, ++c->stamp, 0)) {
        Namer nm;
        namer_init(&nm, c, 1);
        diag_error(c->diag, loc_of(site), "%s: infinite type: %s would contain itself (%s)",
                   what_of(c, site), pr_type_str(&nm, v), pr_type_str(&nm, val));
        abandon(c);
    }
    v->u.var.link = val;
    v->u.var.why = site->why;
}

/* ---- element types ----------------------------------------------------- */

void u_elem(Ctx *c, Elem *e, Elem *a, const Site *site)
{
    e = elem_find(e);
    a = elem_find(a);
    if (e == a)
        return;
    if (e->prim == EL_VAR || a->prim == EL_VAR) {
        Elem *v = e->prim == EL_VAR ? e : a, *other = v == e ? a : e;
        if (other->prim == EL_VAR) {
            if (other->level > v->level)
                other->level = v->level;
            if (v->cls > other->cls) {
                other->cls = v->cls;
                other->cls_origin = v->cls_origin;
            }
        } else if (!elem_accepts(other->prim, v->cls)) {
            diag_error(c->diag, loc_of(site), "%s: element type %s cannot hold %s", what_of(c, site),
                       elem_name(other->prim),
                       v->cls == ELC_FLOAT ? "a fractional literal" : "a number literal");
            note_origin(c, elem_name(other->prim), other->origin);
            if (v->cls_origin && v->cls_origin->loc.start != loc_of(site).start)
                diag_note(c->diag, v->cls_origin->loc, "the literal is here");
            abandon(c);
        }
        v->link = other;
        v->why = site->why;
        return;
    }
    if (e->prim == a->prim)
        return;
    diag_error(c->diag, loc_of(site), "%s: element type %s does not match %s", what_of(c, site),
               elem_name(a->prim), elem_name(e->prim));
    note_origin(c, elem_name(e->prim), e->origin);
    note_origin(c, elem_name(a->prim), a->origin);
    abandon(c);
}

/* ---- dimensions -------------------------------------------------------- */

void u_dim(Ctx *c, Dim *e, Dim *a, const Site *site)
{
    dim_solve(c, e, a, site, NULL);
}

/* ---- shapes ------------------------------------------------------------ */

static int svar_in_def(Ctx *c, const SVar *holder, const SVar *v)
{
    const Constraint *d = holder->def;
    if (!d || d->done || d->kind != C_BCAST_SHAPE)
        return 0;
    for (int i = 0; i < d->ops.n; i++) {
        Shape *s = shape_norm(c, d->ops.items[i]);
        for (uint32_t k = 0; k < s->n; k++)
            if (s->s[k].var == v)
                return 1;
    }
    return 0;
}

/* x = s where x is a shape variable: bind, or handle x occurring in s
 * (then everything around it must be empty: no infinite shapes). */
static void solve_svar(Ctx *c, SVar *x, Shape *s, const Site *site)
{
    if (s->n == 1 && s->s[0].var) {
        SVar *y = s->s[0].var;
        if (y == x)
            return;
        int first = bind_first(x->id, 0, x->def, svar_in_def(c, x, y), y->id, 0, y->def, svar_in_def(c, y, x));
        if (first)
            bind_svar(c, x, s, site->why);
        else
            bind_svar(c, y, shape_of_var(c, x, s->origin), site->why);
        return;
    }
    int occurs = 0;
    for (uint32_t i = 0; i < s->n; i++)
        if (s->s[i].var == x)
            occurs++;
    if (!occurs) {
        bind_svar(c, x, s, site->why);
        return;
    }
    for (uint32_t i = 0; i < s->n; i++)
        if (s->s[i].dim) {
            Namer nm;
            namer_init(&nm, c, 1);
            diag_error(c->diag, loc_of(site), "%s: infinite shape: %s would have to equal %s",
                       what_of(c, site), pr_shape_str(&nm, shape_of_var(c, x, NULL)), pr_shape_str(&nm, s));
            abandon(c);
        }
    Shape *empty = shape_new(c, 0, s->origin);
    for (uint32_t i = 0; i < s->n; i++)
        if (s->s[i].var != x || occurs > 1)
            if (!s->s[i].var->link)
                bind_svar(c, s->s[i].var, empty, site->why);
}

int u_shape_step(Ctx *c, Shape *E, Shape *A, const Site *site, Shape **re, Shape **ra)
{
    for (;;) {
        E = shape_norm(c, E);
        A = shape_norm(c, A);
        Site s = *site;
        if (!s.exp_shape) {
            s.exp_shape = E;
            s.act_shape = A;
        }
        /* Ranks first (unpacking, append dimensionality): a rank mismatch is
         * reported as such, before any axis is paired up. */
        int kE0, kA0;
        int dE0 = shape_rank(E, &kE0), dA0 = shape_rank(A, &kA0);
        if ((kE0 && kA0 && dE0 != dA0) || (kE0 && dA0 > dE0) || (kA0 && dE0 > dA0))
            err_rank(c, &s, E, A);
        uint32_t ie = 0, ia = 0, je = E->n, ja = A->n;
        while (ie < je && ia < ja) {              /* append unpacking, left */
            Seg *x = &E->s[ie], *y = &A->s[ia];
            if (x->dim && y->dim) {
                s.axis = (int)ia;
                u_dim(c, x->dim, y->dim, &s);
            } else if (!(x->var && x->var == y->var)) {
                break;
            }
            ie++;
            ia++;
        }
        while (je > ie && ja > ia) {              /* append unpacking, right */
            Seg *x = &E->s[je - 1], *y = &A->s[ja - 1];
            if (x->dim && y->dim) {
                s.axis = -(int)(A->n - ja + 1);
                u_dim(c, x->dim, y->dim, &s);
            } else if (!(x->var && x->var == y->var)) {
                break;
            }
            je--;
            ja--;
        }
        s.axis = INT_MIN;
        if (ie == je && ia == ja)
            return 1;
        Shape *Er = shape_slice(c, E, ie, je, E->origin);
        Shape *Ar = shape_slice(c, A, ia, ja, A->origin);
        int kE, kA;
        int dE = shape_rank(Er, &kE), dA = shape_rank(Ar, &kA);
        if (Er->n == 0 && Ar->n == 0)
            return 1;
        if (kE && kA)                             /* unpacking: ranks differ */
            err_rank(c, &s, E, A);
        if (kE || kA) {
            /* One side has known rank n: the other's axes must fit (append
             * dimensionality); a lone variable takes the whole; when the
             * axes exactly fill n, every variable is empty (empty shapes). */
            Shape *K = kE ? Er : Ar, *V = kE ? Ar : Er;
            int nK = kE ? dE : dA, nV = kE ? dA : dE;
            if (nV > nK)
                err_rank(c, &s, E, A);
            if (V->n == 1) {
                solve_svar(c, V->s[0].var, K, &s);
                return 1;
            }
            if (nV == nK) {
                Shape *empty = shape_new(c, 0, K->origin);
                for (uint32_t i = 0; i < V->n; i++)
                    if (V->s[i].var && !V->s[i].var->link)
                        bind_svar(c, V->s[i].var, empty, s.why);
                continue;                         /* unify what is left */
            }
        } else if (Er->n == 1 || Ar->n == 1) {
            Shape *one = Er->n == 1 ? Er : Ar, *other = one == Er ? Ar : Er;
            solve_svar(c, one->s[0].var, other, &s);
            continue;
        }
        *re = Er;
        *ra = Ar;
        return 0;
    }
}

void u_shape(Ctx *c, Shape *e, Shape *a, const Site *site)
{
    Shape *re, *ra;
    if (!u_shape_step(c, e, a, site, &re, &ra)) {
        Constraint *k = cons_new(c, C_EQ_SHAPE, site->why);
        k->sl = re;
        k->sr = ra;
        cons_add(c, k);
    }
}

/* ---- types ------------------------------------------------------------- */

/* Types are DAGs (a pair of a pair shares its parts), so a pair of nodes
 * already unified in this unification is not walked again: each compound
 * node remembers the last node it was unified with (stamp, mark). */
static void u_type_at(Ctx *c, Type *e, Type *a, const Site *site, uint32_t stamp, int depth)
{
    e = type_prune(e);
    a = type_prune(a);
    if (e == a)
        return;
    if (depth > TYPE_MAX_DEPTH)
        type_too_deep(c);
    if (e->kind == TY_VAR) {
        bind_tvar(c, e, a, site);
        return;
    }
    if (a->kind == TY_VAR) {
        bind_tvar(c, a, e, site);
        return;
    }
    if (e->kind != a->kind)
        err_types(c, site, e, a);
    switch (e->kind) {
    case TY_TENSOR: {
        u_elem(c, e->u.ten.elem, a->u.ten.elem, site);
        Site s = *site;
        s.exp_shape = s.act_shape = NULL;
        u_shape(c, e->u.ten.shape, a->u.ten.shape, &s);
        break;
    }
    case TY_TUPLE:
    case TY_FUNC:
        if (e->u.fun.n != a->u.fun.n)
            err_types(c, site, e, a);
        if (e->u.fun.ustamp == stamp && e->u.fun.umark == a)
            return;
        for (uint32_t i = 0; i < e->u.fun.n; i++)
            u_type_at(c, e->u.fun.items[i], a->u.fun.items[i], site, stamp, depth + 1);
        if (e->kind == TY_FUNC)
            u_type_at(c, e->u.fun.ret, a->u.fun.ret, site, stamp, depth + 1);
        e->u.fun.ustamp = stamp;
        e->u.fun.umark = a;
        break;
    case TY_VAR:
        break;
    }
}

void u_type(Ctx *c, Type *e, Type *a, const Site *site)
{
    u_type_at(c, e, a, site, ++c->stamp, 0);
}

/* ---- the public entry point: unify, then solve what that woke up -------- */

void unify_type(Ctx *c, Type *expected, Type *actual, const Origin *why)
{
    Site s = site_of(why);
    u_type(c, expected, actual, &s);
    if (!c->draining)
        solve_drain(c);
}

void unify_dim(Ctx *c, Dim *expected, Dim *actual, const Origin *why)
{
    Site s = site_of(why);
    u_dim(c, expected, actual, &s);
    if (!c->draining)
        solve_drain(c);
}

void unify_shape(Ctx *c, Shape *expected, Shape *actual, const Origin *why)
{
    Site s = site_of(why);
    u_shape(c, expected, actual, &s);
    if (!c->draining)
        solve_drain(c);
}
