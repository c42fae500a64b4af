/* plan.c - the run-time plan of one exported function (plan.h): a small
 * solver over what the shape function will know once the input shapes are
 * numbers.  What it knows is plan_known.c's, matches and equations
 * plan_steps.c's; this file takes up the residual constraints, decides
 * what is left at the end, and runs the whole.
 *
 * Knowledge is per variable: a dimension variable is known when a local
 * holds its value (PVar), a shape variable when a run of some concrete
 * shape is its value (PRun).  Facts wait in three lists and are taken up,
 * in a fixed-point loop, as soon as what they need is known:
 *
 *   match    P against S      S a concrete shape (an input, a computed
 *            broadcast, a residual's known side), P a pattern with at
 *            most one shape variable whose run is unknown: S's rank gives
 *            that run's length (and is checked); every axis of P becomes
 *            an equation, every known run in P a comparison.
 *   equation d = v            v a run-time value.  d known: check.  d a
 *            variable: bind it.  d with one unknown x, in one term
 *            c * x^k * K (K known): solve (x^k = (v - rest) / (c * K),
 *            checking divisibility, exact roots, >= 0).  Otherwise wait.
 *   residual (scheme)         broadcast(ops) = r: once the operands are
 *            known it is computed, and r is bound to it, compared with it,
 *            or (a pattern) matched against it.  l = r: checked when both
 *            are known, else an equation for the side with unknowns.
 *            sl = sr (an ambiguous split): the known side is materialised
 *            and the other matched against it.  d >= 0: checked.
 *
 * When nothing more can be done, the last resort takes one waiting fact
 * at a time: a shape variable that a broadcast defines is bound from an
 * input after all; an equation in several unknowns gives its expression's
 * value for later use.  An equation left at the end whose unknowns nothing
 * else mentions only needs a solution to exist (PS_EXISTS, exists_rule);
 * anything else left refuses the function, saying which fact and why.
 */
#include "plan.h"

#include "plan_steps.h"

#include <string.h>

#include "dim.h"
#include "solve.h"
#include "types.h"

/* ---- residual constraints --------------------------------------------------- */

static int implied_nonneg(Pl *pl, Dim *d)
{
    int64_t v;
    if (dim_is_const(d, &v) || !dim_has_neg(d) || dim_is_var(d))
        return 1;
    for (int i = 0; i < pl->nonneg.n; i++)
        if (dim_equal(dim_norm(pl->c, pl->nonneg.items[i]), d))
            return 1;
    return 0;
}

static int duplicate(Pl *pl, const char *text)
{
    if (st_get(&pl->emitted, text))
        return 1;
    st_put(&pl->emitted, text, (void *)text);
    return 0;
}

static PVal val_local(const char *local, const char *where)
{
    PVal v;
    memset(&v, 0, sizeof v);
    v.local = local;
    v.axis = -1;
    v.where = where;
    v.nonneg = 1;
    return v;
}

/* k's result, now in a local: its variable takes it, or (a result that
 * inference bound) it is an equation, returned. */
static PEq *result_value(Pl *pl, Constraint *k, const char *local, const char *where, int unknown)
{
    if (!k->dres->link && !plan_var(pl->p, k->dres)) {
        PVar *v = ar_alloc(pl->c->arena, sizeof *v);
        v->local = local;
        v->from = where;
        v->validated = 1;
        v->maybe_unknown = unknown;
        pl_set_var(pl, k->dres, v);
        return NULL;
    }
    PVal val = val_local(local, where);
    val.maybe_unknown = unknown;
    return pl_add_eq(pl, dim_of_var(pl->c, k->dres, k->why), val, k->why, NULL, 0);
}

static int try_bcast_dim(Pl *pl, Constraint *k)
{
    for (int i = 0; i < k->ops.n; i++)
        if (!plan_dim_known(pl->p, k->ops.items[i]))
            return 0;
    PStep *st = pl_step(pl, PS_BCAST_DIM, k->why);
    st->k = k;
    st->local = plan_local(pl->p, "bc");
    const char *where = pl_place(pl, "the broadcast", k->why);
    int unknown = 0;
    for (int i = 0; i < k->ops.n; i++)
        unknown |= plan_maybe_unknown(pl->p, k->ops.items[i]);
    PEq *e = result_value(pl, k, st->local, where, unknown);
    if (e)
        e->bcast = k;
    return 1;
}

static int try_bcast_shape(Pl *pl, Constraint *k)
{
    Ctx *c = pl->c;
    for (int i = 0; i < k->ops.n; i++)
        if (!pl_shape_known(pl->p, k->ops.items[i]))
            return 0;
    PStep *st = pl_step(pl, PS_BCAST_SHAPE, k->why);
    st->k = k;
    st->local = plan_local(pl->p, "bs");
    PSrc *src = pl_computed_src(pl, st->local, pl_place(pl, "the broadcast", k->why), k->why);
    st->src = src;
    for (int i = 0; i < k->ops.n; i++)
        src->maybe_unknown |= pl_shape_maybe_unknown(pl->p, k->ops.items[i]);
    if (!k->sres->link && !plan_run(k->sres)) {
        PRun *r = ar_alloc(c->arena, sizeof *r);
        r->name = pl_var_name(pl, &k->sres->stamp, &k->sres->mark, k->sres->id);
        r->src = src;
        r->from = src->desc;
        pl_set_run(pl, k->sres, r);
        st->run = k->sres;
        return 1;
    }
    pl_add_match(pl, src, shape_of_var(c, k->sres, k->why), k->why, -1);
    return 1;
}

/* rank(v) = d with d known: v's length, which a match of a shape with v
 * and another unknown run then can place. */
static void run_len(Pl *pl, Constraint *k, SVar *v, Dim *d)
{
    Ctx *c = pl->c;
    PRun *r = ar_alloc(c->arena, sizeof *r);
    r->name = pl_var_name(pl, &v->stamp, &v->mark, v->id);
    r->from = ar_printf(c->arena, "rank(%s)", r->name);
    pl_set_run(pl, v, r);
    PStep *st = pl_step(pl, PS_RUN_LEN, k->why);
    st->k = k;
    st->run = v;
    st->d = d;
}

/* An axis clause rank(p) = k left to run time (a dims parameter: it counts
 * from 0, docs/language.md): k, once known, is p's length. */
static int try_axis(Pl *pl, Constraint *k)
{
    Ctx *c = pl->c;
    Dim *d = dim_norm(c, k->r);
    DVar *rv = dim_is_var(dim_norm(c, k->l));
    if (!rv || !rv->def || rv->def->kind != C_RANK || !plan_dim_known(pl->p, d) || plan_maybe_unknown(pl->p, d))
        return 0;
    Shape *s = shape_norm(c, rv->def->sl);
    SVar *v = s->n == 1 ? s->s[0].var : NULL;
    if (!v || plan_run(v))
        return 0;
    run_len(pl, k, v, d);
    return 1;
}

/* elements(s) or rank(s) once s is known at run time: a local that its
 * variable takes, or (the variable bound by inference) an equation. */
static int try_count(Pl *pl, Constraint *k)
{
    Ctx *c = pl->c;
    Shape *s = shape_norm(c, k->sl);
    if (!pl_shape_known(pl->p, s)) {
        /* rank(p) = k with k known and p not: p's length, which a match
         * of a shape with p and another unknown run then can place */
        SVar *v = s->n == 1 ? s->s[0].var : NULL;
        Dim *d = dim_norm(c, dim_of_var(c, k->dres, k->why));
        if (k->kind != C_RANK || !v || plan_run(v) || !k->dres->link || !plan_dim_known(pl->p, d) ||
            plan_maybe_unknown(pl->p, d))
            return 0;
        run_len(pl, k, v, d);
        return 1;
    }
    PStep *st = pl_step(pl, PS_COUNT, k->why);
    st->k = k;
    st->pattern = s;
    st->local = plan_local(pl->p, k->kind == C_ELEMS ? "el" : "rk");
    const char *where = ar_printf(c->arena, "%s(%s)", k->kind == C_ELEMS ? "elements" : "rank",
                                  pr_shape_str(pl->p->nm, s));
    result_value(pl, k, st->local, where, k->kind == C_ELEMS && pl_shape_maybe_unknown(pl->p, s));
    return 1;
}

/* l = r: checked when both are known; else the known side's value is an
 * equation for the other. */
static int try_eq_dim(Pl *pl, Constraint *k, const char *text)
{
    int raw = k->rewrites;
    Dim *l = raw ? dim_norm_raw(pl->c, k->l) : dim_norm(pl->c, k->l);
    Dim *r = raw ? dim_norm_raw(pl->c, k->r) : dim_norm(pl->c, k->r);
    int kl = pl_known_raw(pl->p, l, raw), kr = pl_known_raw(pl->p, r, raw);
    if (kl && kr) {
        PStep *st = pl_step(pl, PS_EQ_DIM, k->why);
        st->k = k;
        st->text = text;
        st->raw = raw;
        return 1;
    }
    if (!kl && !kr)
        return 0;
    Dim *unknown = kl ? r : l, *known = kl ? l : r;
    PVal v;
    memset(&v, 0, sizeof v);
    v.axis = -1;
    v.local = NULL;
    v.where = pl_dim_text(pl, known, raw);
    PStep *st = pl_step(pl, PS_EVAL, k->why);        /* evaluate the known side */
    st->d = known;
    st->raw = raw;
    st->local = plan_local(pl->p, "e");
    v.local = st->local;
    v.maybe_unknown = plan_maybe_unknown(pl->p, known);
    pl_add_eq(pl, unknown, v, k->why, text, raw)->other = known;
    return 1;
}

static int try_eq_shape(Pl *pl, Constraint *k, const char *text)
{
    Shape *l = shape_norm(pl->c, k->sl), *r = shape_norm(pl->c, k->sr);
    int kl = pl_shape_known(pl->p, l), kr = pl_shape_known(pl->p, r);
    if (!kl && !kr)
        return 0;
    Shape *known = kl ? l : r, *other = kl ? r : l;
    PStep *st = pl_step(pl, PS_SHAPE, k->why);
    st->pattern = known;
    st->local = plan_local(pl->p, "sh");
    st->text = text;
    PSrc *src = pl_computed_src(pl, st->local, ar_printf(pl->c->arena, "%s (from %s)",
                                                       pr_shape_str(pl->p->nm, known), text),
                             k->why);
    st->src = src;
    src->maybe_unknown = pl_shape_maybe_unknown(pl->p, known);
    pl_add_match(pl, src, other, k->why, -1);
    return 1;
}

static int try_cons(Pl *pl, Constraint *k)
{
    if (k->done)
        return 1;
    switch (k->kind) {
    case C_BCAST_DIM:
        return try_bcast_dim(pl, k);
    case C_BCAST_SHAPE:
        return try_bcast_shape(pl, k);
    case C_EQ_DIM:
        if (k->axis && try_axis(pl, k))
            return 1;
        if (!pl_known_raw(pl->p, k->l, k->rewrites) && !pl_known_raw(pl->p, k->r, k->rewrites))
            return 0;
        {
            const char *text = pl_cons_text(pl, k);
            return duplicate(pl, text) ? 1 : try_eq_dim(pl, k, text);
        }
    case C_EQ_SHAPE:
        if (!pl_shape_known(pl->p, k->sl) && !pl_shape_known(pl->p, k->sr))
            return 0;
        {
            const char *text = pl_cons_text(pl, k);
            return duplicate(pl, text) ? 1 : try_eq_shape(pl, k, text);
        }
    case C_NONNEG: {
        Dim *d = dim_norm(pl->c, k->l);
        if (!plan_dim_known(pl->p, d))
            return 0;
        if (implied_nonneg(pl, d) || duplicate(pl, pl_cons_text(pl, k)))
            return 1;
        PStep *st = pl_step(pl, PS_NONNEG, k->why);
        st->k = k;
        st->d = d;
        return 1;
    }
    case C_DYN:
        return 0;               /* only running the operation can check it */
    case C_ELEMS:
    case C_RANK:
        return try_count(pl, k);
    case C_FITS: {
        /* computed with checked arithmetic (emit_sizes.c), once per size */
        Dim *d = dim_norm(pl->c, k->l);
        if (!plan_dim_known(pl->p, d))
            return 0;
        int64_t v;
        if (!dim_is_const(d, &v) && !dim_is_var(d) && !d->ragged) {
            PStep *st = pl_step(pl, PS_FITS, k->why);
            st->k = k;
            st->d = d;
        }
        return 1;
    }
    }
    return 0;
}

/* ---- what is left at the end ---------------------------------------------- */

/* Whether variable v occurs in a waiting fact other than `self`. */
static int mentioned_elsewhere(Pl *pl, DVar *v, PEq *self)
{
    for (int i = 0; i < pl->eqs.n; i++) {
        PEq *e = pl->eqs.items[i];
        if (e != self && !e->done && dim_mentions(e->raw ? dim_norm_raw(pl->c, e->d) : dim_norm(pl->c, e->d), v))
            return 1;
    }
    for (int i = 0; i < pl->cons.n; i++) {
        Constraint *k = pl->cons.items[i];
        if (!k)
            continue;
        if ((k->kind == C_EQ_DIM && (dim_mentions(dim_norm(pl->c, k->l), v) || dim_mentions(dim_norm(pl->c, k->r), v))) ||
            (k->kind == C_NONNEG && dim_mentions(dim_norm(pl->c, k->l), v)))
            return 1;
        if (k->kind == C_BCAST_DIM || k->kind == C_BCAST_SHAPE || k->kind == C_EQ_SHAPE || k->kind == C_ELEMS ||
            k->kind == C_RANK)
            return 1;               /* conservative: such a fact is left anyway */
    }
    return 0;
}

/* An equation d = v whose unknowns occur nowhere else only needs a
 * solution to exist.  The rule: some unknown x0 occurs once, in a term
 * +-x0 * M whose other factors M are unknowns of that term only (set to 1);
 * every other term with unknowns has unknowns of its own (set to 0, or
 * grown).  With K the known part and R the rest, x0 = +-(v - K - R):
 *   +x0: a solution exists iff v >= K, or some term of R is negative
 *        (it can absorb any excess);
 *   -x0: iff v <= K, or some term of R is positive.
 * Returns 0 when the rule does not apply; else +1 or -1 (the sign of x0's
 * term) with *always set when no check is needed, and *known the K part. */
static int exists_rule(Pl *pl, PEq *e, Dim *d, Unknowns *u, int *always, Dim **known)
{
    if (u->in_div || u->vars.n == 0)
        return 0;
    for (int i = 0; i < u->vars.n; i++)
        if (mentioned_elsewhere(pl, u->vars.items[i], e))
            return 0;
    /* Each unknown must occur in one term only. */
    int *term_of = ar_alloc(pl->c->arena, sizeof(int) * (size_t)u->vars.n);
    for (int i = 0; i < u->vars.n; i++) {
        term_of[i] = -1;
        for (uint32_t t = 0; t < d->nt; t++)
            if (dim_mentions(&(Dim){ .nt = 1, .t = &d->t[t] }, u->vars.items[i])) {
                if (term_of[i] >= 0)
                    return 0;
                term_of[i] = (int)t;
            }
    }
    /* x0's term: +-1 times unknowns, each to the first power. */
    int x0_term = -1;
    for (int i = 0; i < u->vars.n && x0_term < 0; i++) {
        const Mono *m = &d->t[term_of[i]];
        int ok = m->coef == 1 || m->coef == -1;
        for (uint32_t j = 0; j < m->nf && ok; j++)
            ok = m->f[j].var && !plan_var(pl->p, m->f[j].var) && m->f[j].pow == 1;
        if (ok)
            x0_term = term_of[i];
    }
    if (x0_term < 0)
        return 0;
    int sign = d->t[x0_term].coef > 0 ? 1 : -1;
    *always = 0;
    Mono *kn = ar_alloc(pl->c->arena, sizeof(Mono) * (d->nt ? d->nt : 1));
    uint32_t nk = 0;
    for (uint32_t t = 0; t < d->nt; t++) {
        if ((int)t == x0_term)
            continue;
        int has_unknown = 0, only_unknown = 1;
        for (int i = 0; i < u->vars.n; i++)
            if (term_of[i] == (int)t)
                has_unknown = 1;
        for (uint32_t j = 0; j < d->t[t].nf; j++)
            if (!d->t[t].f[j].var || plan_var(pl->p, d->t[t].f[j].var))
                only_unknown = 0;
        if (!has_unknown)
            kn[nk++] = d->t[t];
        else if (only_unknown && (d->t[t].coef > 0) != (sign > 0))
            *always = 1;         /* it grows without bound the other way */
    }
    *known = dim_canon(pl->c, kn, nk, NULL);
    return sign;
}

static const char *unknown_names(Pl *pl, Unknowns *u)
{
    Buf b;
    buf_init(&b, pl->c->arena);
    for (int i = 0; i < u->vars.n; i++) {
        DVar *v = u->vars.items[i];
        buf_printf(&b, "%s%s", i ? ", " : "", v->dyn ? "?" : pl_var_name(pl, &v->stamp, &v->mark, v->id));
    }
    return buf_str(&b);
}

static int refuse(Pl *pl, Loc at, const char *why)
{
    pl->p->refused = why;
    pl->p->refused_at = at;
    return 1;
}

static Loc loc_of(const Origin *o)
{
    Loc none = { 0, 0, 0 };
    return o && o->loc.src && !o->loc.src->builtin ? o->loc : none;
}

/* Whether a fact mentions a size that only the operation itself gives. */
static int dyn_in_dim(Pl *pl, Dim *d)
{
    d = dim_norm(pl->c, d);
    for (uint32_t i = 0; i < d->nt; i++)
        for (uint32_t j = 0; j < d->t[i].nf; j++) {
            const Factor *f = &d->t[i].f[j];
            if (f->var ? f->var->dyn == 2 && !plan_var(pl->p, f->var) : dyn_in_dim(pl, f->div->num) || dyn_in_dim(pl, f->div->den))
                return 1;
        }
    return 0;
}

static int dyn_in_shape(Pl *pl, Shape *s)
{
    s = shape_norm(pl->c, s);
    for (uint32_t i = 0; i < s->n; i++)
        if (s->s[i].dim && dyn_in_dim(pl, s->s[i].dim))
            return 1;
    return 0;
}

static int dyn_in_cons(Pl *pl, Constraint *k)
{
    switch (k->kind) {
    case C_BCAST_DIM:
        for (int i = 0; i < k->ops.n; i++)
            if (dyn_in_dim(pl, k->ops.items[i]))
                return 1;
        return k->dres->link && dyn_in_dim(pl, k->dres->link);
    case C_BCAST_SHAPE:
        for (int i = 0; i < k->ops.n; i++)
            if (dyn_in_shape(pl, k->ops.items[i]))
                return 1;
        return k->sres->link && dyn_in_shape(pl, k->sres->link);
    case C_EQ_DIM:
        return dyn_in_dim(pl, k->l) || dyn_in_dim(pl, k->r);
    case C_EQ_SHAPE:
        return dyn_in_shape(pl, k->sl) || dyn_in_shape(pl, k->sr);
    case C_NONNEG:
        return dyn_in_dim(pl, k->l);
    case C_DYN:
        return 1;
    case C_FITS:
        return dyn_in_dim(pl, k->l);
    case C_ELEMS:
    case C_RANK:
        return dyn_in_shape(pl, k->sl) || (k->dres->link && dyn_in_dim(pl, k->dres->link));
    }
    return 0;
}

static const char *because(Pl *pl, int dyn)
{
    (void)pl;
    return dyn ? "it depends on a size known only when an operation runs (?)"
               : "it depends on sizes the inputs do not give";
}

/* d with each floor division x / k of an unknown x that occurs nowhere
 * else (k a positive constant) replaced by a fresh unknown: as x runs over
 * the sizes, x / k runs over them all (`n / 2 + 1 = v` has a solution iff
 * v >= 1).  d itself where there is none. */
static Dim *free_divisions(Pl *pl, PEq *e, Dim *d)
{
    Ctx *c = pl->c;
    Mono *ms = ar_alloc(c->arena, sizeof(Mono) * (d->nt ? d->nt : 1));
    int hit = 0;
    for (uint32_t i = 0; i < d->nt; i++) {
        const Mono *m = &d->t[i];
        Factor *q = ar_alloc(c->arena, sizeof(Factor) * (m->nf ? m->nf : 1));
        for (uint32_t j = 0; j < m->nf; j++) {
            q[j] = m->f[j];
            const DivAtom *dv = m->f[j].div;
            DVar *x = dv ? dim_is_var(dim_norm(c, dv->num)) : NULL;
            int64_t k;
            if (!x || plan_var(pl->p, x) || x->dyn || !dim_is_const(dim_norm(c, dv->den), &k) || k <= 0 ||
                mentioned_elsewhere(pl, x, e))
                continue;
            int uses = 0;           /* x's occurrences in d: this one only */
            for (uint32_t a = 0; a < d->nt; a++)
                for (uint32_t b = 0; b < d->t[a].nf; b++) {
                    const Factor *g = &d->t[a].f[b];
                    uses += g->var ? g->var == x : dim_mentions(dim_norm(c, g->div->num), x) ||
                                                       dim_mentions(dim_norm(c, g->div->den), x);
                }
            if (uses == 1) {
                q[j] = (Factor){ dvar_new(c, NULL), NULL, m->f[j].pow };
                hit = 1;
            }
        }
        ms[i] = (Mono){ m->coef, m->nf, q };
    }
    return hit ? dim_canon(c, ms, d->nt, d->origin) : d;
}

static int finish_eqs(Pl *pl)
{
    Arena *a = pl->c->arena;
    for (int i = 0; i < pl->eqs.n; i++) {
        PEq *e = pl->eqs.items[i];
        if (e->done)
            continue;
        Dim *d = e->raw ? dim_norm_raw(pl->c, e->d) : dim_norm(pl->c, e->d);
        Unknowns shown = { { 0 }, 0 };          /* (for messages: as written) */
        pl_collect_unknowns(pl, d, &shown, 0);
        Dim *free = free_divisions(pl, e, d);
        Unknowns u = { { 0 }, 0 };
        pl_collect_unknowns(pl, free, &u, 0);
        int always = 0;
        Dim *kpart = NULL;
        int sign = dyn_in_dim(pl, d) ? 0 : exists_rule(pl, e, free, &u, &always, &kpart);
        if (!sign) {
            const char *what = e->text ? e->text : ar_printf(a, "%s = %s", pl_dim_text(pl, d, e->raw), e->val.where);
            if (dyn_in_dim(pl, d))
                return refuse(pl, loc_of(e->why),
                              ar_printf(a, "a size that an operation produces (a `?` of its signature) must equal "
                                           "%s; only running it can check that", e->val.where));
            return refuse(pl, loc_of(e->why),
                          ar_printf(a, "the header cannot decide %s from the input shapes (unknowns %s; axonc "
                                       "solves one unknown at a time)",
                                    what, unknown_names(pl, &shown)));
        }
        e->done = 1;
        int64_t kc;
        if (always || (sign > 0 && e->val.nonneg && dim_is_const(kpart, &kc) && kc <= 0))
            continue;                   /* (v >= 0 >= K holds already) */
        PStep *st = pl_step(pl, PS_EXISTS, e->why);
        st->val = e->val;
        st->d = d;
        st->orig = e->d;
        st->rest = kpart;
        st->sign = sign;
        st->text = unknown_names(pl, &shown);
    }
    return 0;
}

/* ---- the whole plan ----------------------------------------------------- */

static int input_has_ragged(Shape *s)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (s->s[i].dim && s->s[i].dim->ragged)
            return 1;
    return 0;
}

/* A residual `x = e` (or `e = x`) whose x a solve left unknown where a
 * factor is 0 at run time, e known: e gives x there (emit_checks.c, open_var_from),
 * so its check goes right after the solve, before steps that read x
 * (they would be skipped while x is unknown).  `where b = (b * c) / 2`
 * with c = 0: b * c says nothing of b, the clause says b = 0. */
static int open_residuals(Pl *pl)
{
    int progress = 0;
    for (int i = 0; i < pl->cons.n; i++) {
        Constraint *k = pl->cons.items[i];
        if (!k || k->done || k->kind != C_EQ_DIM || k->axis)
            continue;
        Dim *l = k->rewrites ? dim_norm_raw(pl->c, k->l) : dim_norm(pl->c, k->l);
        Dim *r = k->rewrites ? dim_norm_raw(pl->c, k->r) : dim_norm(pl->c, k->r);
        DVar *xl = dim_is_var(l), *xr = dim_is_var(r);
        PVar *vl = xl ? plan_var(pl->p, xl) : NULL, *vr = xr ? plan_var(pl->p, xr) : NULL;
        int open_l = vl && vl->assignable && vl->maybe_unknown && pl_known_raw(pl->p, r, k->rewrites);
        int open_r = vr && vr->assignable && vr->maybe_unknown && pl_known_raw(pl->p, l, k->rewrites);
        if (!open_l && !open_r)
            continue;
        int before = pl->eqs.n;
        if (!try_cons(pl, k))
            continue;
        pl->cons.items[i] = NULL;
        progress = 1;
        for (int j = before; j < pl->eqs.n; j++) {      /* its check, now */
            PEq *e = pl->eqs.items[j];
            if (!e->done && pl_try_eq(pl, e) == 1)
                e->done = 1;
        }
    }
    return progress;
}

static int round_of(Pl *pl)
{
    int progress = open_residuals(pl);
    for (int i = 0; i < pl->matches.n; i++) {
        PMatch *m = pl->matches.items[i];
        if (!m->done && pl_try_match(pl, m)) {
            m->done = 1;
            progress = 1;
            if (pl->last_resort || pl->hard)
                return 1;
        }
    }
    for (int i = 0; i < pl->eqs.n; i++) {
        PEq *e = pl->eqs.items[i];
        if (e->done)
            continue;
        int r = pl_try_eq(pl, e);
        if (r == 1)
            e->done = 1;
        if (r) {
            progress = 1;
            if (pl->last_resort || pl->hard)
                return 1;
        }
    }
    for (int i = 0; i < pl->cons.n; i++) {
        Constraint *k = pl->cons.items[i];
        if (k && try_cons(pl, k)) {
            pl->cons.items[i] = NULL;
            progress = 1;
            if (pl->last_resort || pl->hard)
                return 1;
        }
    }
    return progress;
}

int plan_function(Plan *p, const Scheme *s)
{
    Pl pl;
    memset(&pl, 0, sizeof pl);
    pl.p = p;
    pl.c = p->c;
    Arena *a = pl.c->arena;
    st_init(&pl.emitted, a);
    dm_init(&p->known, a, pl.c->epoch + 1);
    p->known.memo = p->memo;
    dm_init(&p->known_ix, a, pl.c->epoch + 1);
    p->at = INT_MAX;                      /* planning: everything known so far */
    /* Every input's rank, and its sizes, before anything reads them. */
    for (int i = 0; i < p->inputs.n; i++) {
        PTensor *t = p->inputs.items[i];
        Shape *sh = shape_norm(pl.c, t->type->u.ten.shape);
        PStep *st = pl_step(&pl, PS_RANK, sh->origin);
        st->input = i;
        st->pattern = sh;
        int known;
        st->fixed = shape_rank(sh, &known);
        st->ragged = input_has_ragged(sh);
        PSrc *src = ar_alloc(a, sizeof *src);
        src->input = i;
        src->desc = t->desc;
        src->why = t->at;
        src->ragged = st->ragged;
        pl_add_match(&pl, src, t->type->u.ten.shape, sh->origin, i);
    }
    for (int i = 0; i < s->cons.n; i++)
        pv_push(a, &pl.cons, s->cons.items[i]);
    /* Sizes that operations produced, known to run() once they ran. */
    for (int i = 0; p->dyn_known && i < p->dyn_known->n; i++) {
        DVar *v = p->dyn_known->items[i];
        PVar *k = ar_alloc(a, sizeof *k);
        k->local = ar_printf(a, "dyn[%d]", i);
        k->from = "the size an operation found";
        k->validated = 1;
        k->maybe_unknown = 1;   /* AXON_DIM_UNKNOWN until its operation runs:
                                 * what reads it waits (runplan.h) */
        pl_set_var(&pl, v, k);
    }
    /* Simple steps first; a solve by a run-time factor only when no simple
     * step is left; the last resort only when neither is. */
    for (;;) {
        if (round_of(&pl)) {
            pl.hard = pl.last_resort = 0;
            continue;
        }
        if (pl.last_resort)
            break;
        if (pl.hard)
            pl.last_resort = 1;
        pl.hard = 1;
    }
    pl.hard = pl.last_resort = 0;
    for (int i = 0; i < pl.matches.n; i++) {
        PMatch *m = pl.matches.items[i];
        if (m->done)
            continue;
        return refuse(&pl, loc_of(m->why),
                      m->input >= 0
                          ? ar_printf(a, "the rank of %s (%s) cannot be split between its shape variables",
                                      m->src->desc, pr_shape_str(p->nm, m->pattern))
                          : ar_printf(a, "the header cannot match %s against %s: %s", pr_shape_str(p->nm, m->pattern),
                                      m->src->desc, because(&pl, 0)));
    }
    if (finish_eqs(&pl))
        return 1;
    for (int i = 0; i < pl.cons.n; i++) {
        Constraint *k = pl.cons.items[i];
        if (!k || k->done || k->kind == C_FITS)   /* a size the inputs do not give: */
            continue;                              /* only running can check it */
        if (k->kind == C_NONNEG && k->promise && dyn_in_cons(&pl, k))
            continue;           /* a bound on a size an operation produces (nonzero's ? <= n):
                                 * the operation keeps it, the header cannot see it */
        if (k->kind == C_DYN) {
            DVar *other = dim_is_var(dim_norm(pl.c, k->l));
            return refuse(&pl, loc_of(k->why),
                          other && other->dyn == 2
                              ? "two sizes that operations produce (a `?` of their signatures) must be equal; only "
                                "running them can check that"
                              : ar_printf(a, "a size that an operation produces (a `?` of its signature) must be %s; "
                                             "only running it can check that", pl_dim_text(&pl, k->l, 0)));
        }
        return refuse(&pl, loc_of(k->why),
                      ar_printf(a, "the header cannot decide %s from the input shapes (%s)", pl_cons_text(&pl, k),
                                because(&pl, dyn_in_cons(&pl, k))));
    }
    return 0;
}
