/* plan_steps.c - matches and equations of the run-time plan
 * (plan_steps.h): a pattern against a concrete shape, an equation d = v
 * checked, bound or solved for its one unknown. */
#include "plan_steps.h"

#include <string.h>

#include "cnames.h"
#include "dim.h"
#include "solve.h"
#include "types.h"

/* The name a variable has in the signature, for locals and messages. */
const char *pl_var_name(Pl *pl, uint32_t *stamp, void **mark, uint32_t id)
{
    const char *name = namer_name_of(pl->p->nm, stamp, mark);
    return name ? name : ar_printf(pl->c->arena, "_%u", id);
}

PStep *pl_step(Pl *pl, PStepKind kind, const Origin *why)
{
    PStep *s = ar_alloc(pl->c->arena, sizeof *s);
    s->kind = kind;
    s->why = why;
    s->input = -1;
    pv_push(pl->c->arena, &pl->p->steps, s);
    return s;
}

static PPos pos_copy(Pl *pl, const PPos *p)
{
    PPos r = { p->k, { 0 } };
    for (int i = 0; i < p->runs.n; i++)
        pv_push(pl->c->arena, &r.runs, p->runs.items[i]);
    return r;
}

static int pos_equal(const PPos *a, const PPos *b)
{
    if (a->k != b->k || a->runs.n != b->runs.n)
        return 0;
    for (int i = 0; i < a->runs.n; i++)
        if (a->runs.items[i] != b->runs.items[i])
            return 0;
    return 1;
}

const char *pl_cons_text(Pl *pl, Constraint *k)
{
    Buf b;
    buf_init(&b, pl->c->arena);
    pr_constraint(pl->p->nm, &b, k);
    return buf_str(&b);
}

const char *pl_dim_text(Pl *pl, Dim *d, int raw)
{
    int saved = pl->p->nm->raw;
    pl->p->nm->raw = raw;
    const char *s = pr_dim_str(pl->p->nm, d);
    pl->p->nm->raw = saved;
    return s;
}

/* Where a computed shape comes from, for messages: "the broadcast at 3:14". */
const char *pl_place(Pl *pl, const char *what, const Origin *why)
{
    if (!why || !why->loc.src || why->loc.src->builtin)
        return what;
    int ln, col;
    src_line_col(why->loc.src, why->loc.start, &ln, &col);
    return ar_printf(pl->c->arena, "%s at %d:%d", what, ln, col);
}

/* ---- the segments of a shape as first made ------------------------------ */

/* Shape variables expanded through their bindings, but each dimension node
 * as it stood at that place (a variable's node records, through its
 * binding, the rule that tied it: the messages say why two axes agree).
 * Iterative: a chain of bindings may be as long as the program. */
static void orig_segs(Pl *pl, Shape *s, PtrVec *out)
{
    typedef struct { Shape *s; uint32_t i; } Frame;
    Arena *a = pl->c->arena;
    PtrVec stack = { 0 };
    Frame *f = ar_alloc(a, sizeof *f);
    f->s = s;
    pv_push(a, &stack, f);
    while (stack.n) {
        f = stack.items[stack.n - 1];
        if (f->i == f->s->n) {
            stack.n--;
            continue;
        }
        Seg *seg = &f->s->s[f->i++];
        if (seg->var && seg->var->link) {
            Frame *g = ar_alloc(a, sizeof *g);
            g->s = seg->var->link;
            pv_push(a, &stack, g);
            continue;
        }
        Seg *copy = ar_alloc(a, sizeof *copy);
        *copy = *seg;
        pv_push(a, out, copy);
    }
}

PMatch *pl_add_match(Pl *pl, PSrc *src, Shape *pattern, const Origin *why, int input)
{
    PMatch *m = ar_alloc(pl->c->arena, sizeof *m);
    m->src = src;
    m->pattern = shape_norm(pl->c, pattern);
    m->why = why;
    m->input = input;
    orig_segs(pl, pattern, &m->segs);
    pv_push(pl->c->arena, &pl->matches, m);
    return m;
}

PEq *pl_add_eq(Pl *pl, Dim *d, PVal val, const Origin *why, const char *text, int raw)
{
    PEq *e = ar_alloc(pl->c->arena, sizeof *e);
    e->d = d;
    e->val = val;
    e->why = why;
    e->text = text;
    e->raw = raw;
    pv_push(pl->c->arena, &pl->eqs, e);
    return e;
}

int pl_shape_maybe_unknown(Plan *p, Shape *s)
{
    s = shape_norm(p->c, s);
    for (uint32_t i = 0; i < s->n; i++)
        if (s->s[i].dim && plan_maybe_unknown(p, s->s[i].dim))
            return 1;
    return 0;
}

PSrc *pl_computed_src(Pl *pl, const char *local, const char *desc, const Origin *why)
{
    PSrc *s = ar_alloc(pl->c->arena, sizeof *s);
    s->input = -1;
    s->local = local;
    s->desc = desc;
    s->why = why;
    return s;
}

/* ---- matches -------------------------------------------------------------- */

static int has_live_def(const Constraint *def)
{
    return def && !def->done;
}

int pl_try_match(Pl *pl, PMatch *m)
{
    Arena *a = pl->c->arena;
    SVar *unknown = NULL;
    int nunknown = 0, fixed = 0;
    PtrVec runs = { 0 }, placed = { 0 };
    for (int i = 0; i < m->segs.n; i++) {
        Seg *s = m->segs.items[i];
        if (s->dim)
            fixed++;
        else if (plan_run(s->var)) {
            if (!plan_run(s->var)->src) {
                int twice = 0;           /* (placed at its first place) */
                for (int j = 0; j < placed.n; j++)
                    twice |= placed.items[j] == s->var;
                if (!twice)
                    pv_push(a, &placed, s->var);
            }
            pv_push(a, &runs, s->var);
        }
        else if (!unknown) {
            unknown = s->var;
            nunknown = 1;
        } else {
            nunknown = 2;           /* two unknown runs, or one twice */
        }
    }
    if (nunknown > 1)
        return 0;
    /* A run that a broadcast defines is compared with the broadcast once
     * it is computed (a better message), unless nothing else can be done. */
    if (unknown && has_live_def(unknown->def) && !pl->last_resort)
        return 0;
    PStep *st = pl_step(pl, PS_MATCH, m->why);
    st->src = m->src;
    st->pattern = m->pattern;
    st->fixed = fixed;
    st->runs = runs;
    st->unknown = unknown;
    st->input = m->input;
    st->placed = placed;
    PPos pos = { 0, { 0 } };
    int axis = 0;
    for (int i = 0; i < m->segs.n; i++) {
        Seg *s = m->segs.items[i];
        if (s->dim) {
            PVal v;
            memset(&v, 0, sizeof v);
            v.src = m->src;
            v.pos = pos_copy(pl, &pos);
            v.axis = axis;
            v.where = axis >= 0 ? ar_printf(a, "%s axis %d", m->src->desc, axis)
                                : ar_printf(a, "%s axis {}", m->src->desc);
            v.nonneg = m->src->input >= 0 && !m->src->ragged;   /* checked by PS_RANK */
            v.maybe_unknown = m->src->maybe_unknown;
            pl_add_eq(pl, s->dim, v, m->why, NULL, 0);
            pos.k++;
            if (axis >= 0)
                axis++;
            continue;
        }
        SVar *v = s->var;
        if (v == unknown) {
            PRun *r = ar_alloc(a, sizeof *r);
            r->name = pl_var_name(pl, &v->stamp, &v->mark, v->id);
            r->src = m->src;
            r->off = pos_copy(pl, &pos);
            r->rest.k = fixed;
            r->rest.runs = runs;
            r->from = m->src->desc;
            pl_set_run(pl, v, r);
        } else if (!plan_run(v)->src) {     /* a run of known length: here it is */
            PRun *r = plan_run(v);
            r->src = m->src;
            r->off = pos_copy(pl, &pos);
            r->from = m->src->desc;
        } else {
            PRun *r = plan_run(v);
            if (!(r->src == m->src && pos_equal(&r->off, &pos))) {   /* not where it was read */
                PStep *same = pl_step(pl, PS_SAME_RUN, m->why);
                same->src = m->src;
                same->run = v;
                same->pos = pos_copy(pl, &pos);
                same->input = m->input;
            }
        }
        pv_push(a, &pos.runs, v);
        axis = -1;
    }
    return 1;
}

void pl_collect_unknowns(Pl *pl, Dim *d, Unknowns *u, int in_div)
{
    for (uint32_t i = 0; i < d->nt; i++)
        for (uint32_t j = 0; j < d->t[i].nf; j++) {
            const Factor *f = &d->t[i].f[j];
            if (!f->var) {
                if (!pl_known_raw(pl->p, f->div->num, 0) || !pl_known_raw(pl->p, f->div->den, 0)) {
                    pl_collect_unknowns(pl, dim_norm(pl->c, f->div->num), u, 1);
                    pl_collect_unknowns(pl, dim_norm(pl->c, f->div->den), u, 1);
                }
                continue;
            }
            if (plan_var(pl->p, f->var))
                continue;
            if (in_div)
                u->in_div = 1;
            int seen = 0;
            for (int k = 0; k < u->vars.n && !seen; k++)
                seen = u->vars.items[k] == f->var;
            if (!seen)
                pv_push(pl->c->arena, &u->vars, f->var);
        }
}

/* The known factors of monomial m other than x, as a dimension (NULL: 1). */
static Dim *cofactor(Pl *pl, const Mono *m, const DVar *x)
{
    uint32_t n = 0;
    Factor *f = ar_alloc(pl->c->arena, sizeof(Factor) * (m->nf ? m->nf : 1));
    for (uint32_t j = 0; j < m->nf; j++)
        if (m->f[j].var != x)
            f[n++] = m->f[j];
    if (n == 0)
        return NULL;
    Mono *one = ar_alloc(pl->c->arena, sizeof *one);
    one->coef = 1;
    one->nf = n;
    one->f = f;
    return dim_canon(pl->c, one, 1, NULL);
}

/* d as coef * x^pow * factor + rest, x not in factor nor rest. */
typedef struct Solve {
    int64_t coef;
    uint32_t pow;           /* 0: d is not of that form */
    Dim *factor;            /* NULL: 1 */
    Dim *rest;
} Solve;

/* Collects the terms of d with the unknown x: of one power, they make
 * x^pow * F + rest (`a * b + b` is b * (a + 1)); F as a coefficient times
 * a monomial where it is one term.  0 where x's powers differ. */
static int split_unknown(Pl *pl, Dim *d, const DVar *x, Solve *sv)
{
    Arena *a = pl->c->arena;
    Mono *fm = ar_alloc(a, sizeof(Mono) * (d->nt ? d->nt : 1));
    Mono *rm = ar_alloc(a, sizeof(Mono) * (d->nt ? d->nt : 1));
    uint32_t nf = 0, nr = 0;
    memset(sv, 0, sizeof *sv);
    for (uint32_t i = 0; i < d->nt; i++) {
        const Mono *m = &d->t[i];
        uint32_t pow = 0;
        for (uint32_t j = 0; j < m->nf; j++)
            if (m->f[j].var == x)
                pow = m->f[j].pow;
        if (!pow) {
            rm[nr++] = *m;
            continue;
        }
        if (sv->pow && pow != sv->pow)
            return 0;
        sv->pow = pow;
        Dim *co = cofactor(pl, m, x);
        fm[nf++] = co ? (Mono){ m->coef, co->t[0].nf, co->t[0].f } : (Mono){ m->coef, 0, NULL };
    }
    if (!sv->pow)
        return 0;
    sv->rest = dim_canon(pl->c, rm, nr, NULL);
    Dim *f = dim_canon(pl->c, fm, nf, NULL);
    if (f->nt == 1) {               /* coef * monomial */
        sv->coef = f->t[0].coef;
        if (f->t[0].nf) {
            Mono *one = ar_alloc(a, sizeof *one);
            *one = (Mono){ 1, f->t[0].nf, f->t[0].f };
            sv->factor = dim_canon(pl->c, one, 1, NULL);
        }
    } else {
        sv->coef = 1;
        sv->factor = f;
    }
    return 1;
}

/* Whether d > 0 whatever its sizes (>= 0): no negative coefficient and a
 * positive constant term. */
static int positive_dim(Pl *pl, Dim *d)
{
    (void)pl;
    int64_t k;
    if (dim_is_const(d, &k))
        return k > 0;
    return !dim_has_neg(d) && d->nt && d->t[d->nt - 1].nf == 0 && d->t[d->nt - 1].coef > 0;
}

static const char *record_known(Pl *pl, Dim *d, PVal *val, const Origin *why)
{
    PStep *st = pl_step(pl, PS_KNOWN, why);
    st->d = d;
    st->val = *val;
    st->local = plan_local(pl->p, "kn");
    PVal *v = ar_alloc(pl->c->arena, sizeof *v);
    *v = *val;
    v->src = NULL;
    v->local = st->local;
    v->since = pl->p->steps.n;
    pl_put_known(pl->p, d, v);
    if (val->nonneg)
        pv_push(pl->c->arena, &pl->nonneg, d);
    return st->local;
}

/* 1 when the equation is settled, 2 when it made progress but waits, 0
 * when nothing could be done. */
int pl_try_eq(Pl *pl, PEq *e)
{
    Ctx *c = pl->c;
    Dim *d = e->raw ? dim_norm_raw(c, e->d) : dim_norm(c, e->d);
    if (d->ragged) {
        PStep *st = pl_step(pl, PS_RAGGED, e->why);
        st->val = e->val;
        st->d = d;
        st->orig = e->d;
        return 1;
    }
    /* Known: its variables are, or another fact gave the expression's value
     * (not this one: that would compare it with itself). */
    const PVal *kv = plan_known(pl->p, d);
    const char *given = kv ? kv->local : NULL;
    int known = pl_known_raw(pl->p, d, e->raw);
    if (known && e->recorded && given == e->recorded) {
        /* known by this equation's own value only, or another way too */
        int since = plan_hide_known(pl->p, d);
        known = pl_known_raw(pl->p, d, e->raw);
        plan_unhide_known(pl->p, d, since);
    }
    if (known) {
        PStep *st = pl_step(pl, PS_CHECK, e->why);
        st->val = e->val;
        st->d = d;
        st->orig = e->d;
        st->text = e->text;
        st->raw = e->raw;
        st->k = e->bcast;
        st->from_vars = e->recorded != NULL;
        st->other = e->other;
        if (e->val.nonneg)
            pv_push(c->arena, &pl->nonneg, d);
        if (!e->raw)
            pl_note_known(pl->p, d, &e->val);
        return 1;
    }
    DVar *x = dim_is_var(d);
    if (x && x->dyn == 2)
        return 0;                       /* produced by an operation: not ours to bind */
    if (x) {
        if (has_live_def(x->def) && !pl->last_resort)
            return 0;                   /* the broadcast will give it; then check */
        PStep *st = pl_step(pl, PS_BIND, e->why);
        st->val = e->val;
        st->d = d;
        st->orig = e->d;
        st->var = x;
        st->text = e->text;
        PVar *k = ar_alloc(c->arena, sizeof *k);
        const char *name = pl_var_name(pl, &x->stamp, &x->mark, x->id);
        k->local = ar_printf(c->arena, "d_%s", cn_spell(c->arena, name, CN_TENSOR));
        k->from = e->val.where;
        k->src = e->d;
        k->validated = 1;               /* the bind checks >= 0 where needed */
        k->maybe_unknown = e->val.maybe_unknown;
        k->assignable = 1;
        pl_set_var(pl, x, k);
        return 1;
    }
    Unknowns u = { { 0 }, 0 };
    pl_collect_unknowns(pl, d, &u, 0);
    if (u.vars.n == 1 && !u.in_div && ((DVar *)u.vars.items[0])->dyn != 2) {
        x = u.vars.items[0];
        Solve sv;
        int runtime_factor = 0;
        if (split_unknown(pl, d, x, &sv)) {
            int64_t k0;
            runtime_factor = sv.factor && !dim_is_const(sv.factor, &k0);
        }
        /* a factor that is 0 at run time leaves x undetermined: only once
         * nothing simpler is left, unless it is positive whatever the sizes
         * (`a + 1` of `a * b + b`) */
        int may_be_0 = runtime_factor && !positive_dim(pl, sv.factor);
        if (sv.pow && (!may_be_0 || pl->hard)) {
            PStep *st = pl_step(pl, PS_SOLVE, e->why);
            st->val = e->val;
            st->d = d;
            st->orig = e->d;
            st->var = x;
            st->text = e->text;
            st->coef = sv.coef;
            st->pow = sv.pow;
            st->factor = sv.factor;
            st->rest = sv.rest;
            st->nonzero = runtime_factor && !may_be_0;
            PVar *k = ar_alloc(c->arena, sizeof *k);
            const char *name = pl_var_name(pl, &x->stamp, &x->mark, x->id);
            k->local = ar_printf(c->arena, "d_%s", cn_spell(c->arena, name, CN_TENSOR));
            k->from = e->val.where;
            k->validated = 1;
            k->maybe_unknown = may_be_0 || e->val.maybe_unknown || plan_maybe_unknown(pl->p, d);
            k->assignable = 1;
            pl_set_var(pl, x, k);
            if (e->val.nonneg)
                pv_push(c->arena, &pl->nonneg, d);
            if (!e->raw)
                pl_note_known(pl->p, d, &e->val);
            return 1;
        }
    }
    if (pl->last_resort && !e->recorded && !e->raw && !given) {
        e->recorded = record_known(pl, d, &e->val, e->why);
        return 2;
    }
    return 0;
}