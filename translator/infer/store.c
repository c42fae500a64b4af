/* store.c - the bottom of the solver (store.h): variables bound and their
 * levels lowered, the constraints that wait on unbound variables, the
 * worklist they go back on when one is bound, and the errors the solver
 * reports.
 *
 * A constraint watches the unbound variables it mentions; binding one puts
 * it back on the worklist (c->queue).  cons_add queues a new constraint
 * and, unless the worklist is being drained already, has it drained at
 * once through c->drain (constraint.c's solve_drain, installed by
 * solve_init), so that inference does not depend on the order of facts.
 */
#include <stdarg.h>
#include <string.h>

#include "dim.h"
#include "print.h"
#include "store.h"
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

const char *site_what(Ctx *c, const Site *site)
{
    return origin_text(c, site->why);
}

Loc site_loc(const Site *site)
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
        diag_error(c->diag, site_loc(site), "%s: %s (%s)", site_what(c, site), base, why_text);
    else
        diag_error(c->diag, site_loc(site), "%s: %s", site_what(c, site), base);
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
    diag_error(c->diag, site_loc(site), "%s: %s", site_what(c, site), what);
    abandon(c);
}

void check_overflow(Ctx *c, const Site *site)
{
    if (c->overflow)
        err_overflow(c, site);
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

void bind_tvar(Ctx *c, Type *v, Type *val, const Site *site)
{
    if (val->kind == TY_VAR) {
        if (val->u.var.level > v->u.var.level)
            val->u.var.level = v->u.var.level;
    } else if (lower_type(c, val, v->u.var.level, v, ++c->stamp, 0)) {
        Namer nm;
        namer_init(&nm, c, 1);
        diag_error(c->diag, site_loc(site), "%s: infinite type: %s would contain itself (%s)",
                   site_what(c, site), pr_type_str(&nm, v), pr_type_str(&nm, val));
        abandon(c);
    }
    v->u.var.link = val;
    v->u.var.why = site->why;
}

/* ---- constraints and the worklist ------------------------------------ */

Constraint *cons_new(Ctx *c, CKind kind, const Origin *why)
{
    Constraint *k = ar_alloc(c->arena, sizeof *k);
    k->kind = kind;
    k->why = why;
    k->id = ++c->next_id;
    if (origin_clause(why) && kind != C_NONNEG)
        k->clause = origin_clause(why);    /* (a `<=` clause sets its own, with clause_diff) */
    return k;
}

void cons_add(Ctx *c, Constraint *k)
{
    if (c->level >= c->npending) {
        int n = c->level + 8;
        c->pending = ar_grow(c->arena, c->pending, sizeof(PtrVec) * (size_t)c->npending,
                             sizeof(PtrVec) * (size_t)n);
        c->npending = n;
    }
    k->level = c->level;
    if (k->kind == C_NONNEG && !k->r) {
        /* keep the expression as made, for the message (normalising k->l in
         * place would lose it) */
        k->r = ar_alloc(c->arena, sizeof *k->r);
        *k->r = *k->l;
    }
    pv_push(c->arena, &c->pending[c->level], k);
    if (!k->queued) {
        k->queued = 1;
        pv_push(c->arena, &c->queue, k);
    }
    if (!c->draining)
        c->drain(c);            /* (solve_drain: solve_init installs it) */
}

/* ---- visiting the terms of a constraint ----------------------------- */

typedef struct Visitor {
    void (*dvar)(Ctx *c, DVar *v, void *arg);
    void (*svar)(Ctx *c, SVar *v, void *arg);
    void *arg;
} Visitor;

typedef struct { Ctx *c; const Visitor *v; } DimVisit;

static void visit_dvar_cb(DVar *v, void *arg)
{
    DimVisit *dv = arg;
    dv->v->dvar(dv->c, v, dv->v->arg);
}

static void visit_dim(Ctx *c, Dim *d, const Visitor *v, int raw)
{
    DimVisit dv = { c, v };
    dim_each_var(raw ? dim_norm_raw(c, d) : dim_norm(c, d), visit_dvar_cb, &dv);
}

static void visit_shape(Ctx *c, Shape *s, const Visitor *v)
{
    s = shape_norm(c, s);
    for (uint32_t i = 0; i < s->n; i++) {
        if (s->s[i].var)
            v->svar(c, s->s[i].var, v->arg);
        else
            visit_dim(c, s->s[i].dim, v, 0);
    }
}

static void cons_visit(Ctx *c, Constraint *k, const Visitor *v)
{
    switch (k->kind) {
    case C_BCAST_SHAPE:
        for (int i = 0; i < k->ops.n; i++)
            visit_shape(c, k->ops.items[i], v);
        if (k->sres->link)
            visit_shape(c, k->sres->link, v);
        else
            v->svar(c, k->sres, v->arg);
        break;
    case C_BCAST_DIM:
        for (int i = 0; i < k->ops.n; i++)
            visit_dim(c, k->ops.items[i], v, 0);
        if (k->dres->link)
            visit_dim(c, k->dres->link, v, 0);
        else
            v->dvar(c, k->dres, v->arg);
        break;
    case C_EQ_DIM:
        visit_dim(c, k->l, v, k->rewrites);
        visit_dim(c, k->r, v, k->rewrites);
        if (k->axis)
            visit_shape(c, k->sr, v);
        break;
    case C_EQ_SHAPE:
        visit_shape(c, k->sl, v);
        visit_shape(c, k->sr, v);
        break;
    case C_NONNEG:
        visit_dim(c, k->l, v, 0);
        break;
    case C_DYN:
        v->dvar(c, k->dres, v->arg);
        visit_dim(c, k->l, v, 0);
        break;
    case C_FITS:
        visit_dim(c, k->l, v, 0);
        break;
    case C_ELEMS:
    case C_RANK:
        visit_shape(c, k->sl, v);
        if (k->dres->link)
            visit_dim(c, k->dres->link, v, 0);
        else
            v->dvar(c, k->dres, v->arg);
        break;
    }
}

/* Adds k to a variable's watch list once: k's own short list of the
 * variables it watches says whether it is there (a variable that 100,000
 * clauses watch is not scanned for each).  Entries of constraints that are
 * done are unlinked when the list has doubled since the last sweep, so a
 * variable shared by many operations (a weight, a batch size) does not
 * accumulate them, at a constant cost per entry. */
static void add_watch(Ctx *c, Watch **list, uint32_t *n, uint32_t *swept, void *var, Constraint *k)
{
    for (int i = 0; i < k->watched.n; i++)
        if (k->watched.items[i] == var)
            return;
    pv_push(c->arena, &k->watched, var);
    Watch *w = ar_alloc(c->arena, sizeof *w);
    w->c = k;
    w->next = *list;
    *list = w;
    if (++*n < 2 * (*swept > 8 ? *swept : 8))
        return;
    *n = 0;
    for (Watch **p = list; *p;) {
        if ((*p)->c->done) {
            *p = (*p)->next;
            continue;
        }
        ++*n;
        p = &(*p)->next;
    }
    *swept = *n;
}

static void watch_dvar(Ctx *c, DVar *v, void *arg) { add_watch(c, &v->watch, &v->nwatch, &v->nswept, v, arg); }
static void watch_svar(Ctx *c, SVar *v, void *arg) { add_watch(c, &v->watch, &v->nwatch, &v->nswept, v, arg); }

void watch_cons(Ctx *c, Constraint *k)
{
    Visitor v = { watch_dvar, watch_svar, k };
    cons_visit(c, k, &v);
}

/* ---- a constraint's variables: levels, generalisation ----------------- */

typedef struct { int level; int hits; } LevelArg;

static void lower_dvar(Ctx *c, DVar *v, void *arg) { dvar_lower_to(c, v, ((LevelArg *)arg)->level); }
static void lower_svar(Ctx *c, SVar *v, void *arg) { svar_lower_to(c, v, ((LevelArg *)arg)->level); }

void cons_lower_levels(Ctx *c, Constraint *k, int level)
{
    LevelArg la = { level, 0 };
    Visitor v = { lower_dvar, lower_svar, &la };
    cons_visit(c, k, &v);
}

static void mark_dvar(Ctx *c, DVar *v, void *arg)
{
    (void)c;
    LevelArg *la = arg;
    if (v->level > la->level) {
        v->level = GENERIC;
        la->hits++;
    }
}

static void mark_svar(Ctx *c, SVar *v, void *arg)
{
    (void)c;
    LevelArg *la = arg;
    if (v->level > la->level) {
        v->level = GENERIC;
        la->hits++;
    }
}

int cons_mark_generic(Ctx *c, Constraint *k, int above)
{
    LevelArg la = { above, 0 };
    Visitor v = { mark_dvar, mark_svar, &la };
    cons_visit(c, k, &v);
    return la.hits > 0;
}

/* ---- a size an operation produces, fixed by inference ----------------- */

void record_dyn(Ctx *c, DVar *v, Dim *val, const Origin *why)
{
    Constraint *k = cons_new(c, C_DYN, why);
    k->dres = v;
    k->l = val;
    cons_add(c, k);
}