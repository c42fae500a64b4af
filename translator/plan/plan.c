/* plan.c - the run-time plan of one exported function (plan.h): a small
 * solver over what the shape function will know once the input shapes are
 * numbers.
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

#include <string.h>

#include "cnames.h"
#include "dim.h"
#include "solve.h"
#include "symtab.h"
#include "types.h"

typedef struct PEq {        /* a waiting equation d = val */
    Dim *d;                 /* as first made */
    int raw;                /* from a residual with a rewrite rule */
    PVal val;
    const Origin *why;
    const char *text;       /* the residual it comes from, or NULL */
    Constraint *bcast;      /* the broadcast whose computed result it is */
    const char *recorded;   /* last resort: the local that holds its value */
    Dim *other;             /* a residual l = r: the known side, val's */
    int done;
} PEq;

typedef struct PMatch {     /* a waiting match of a pattern against src */
    PSrc *src;
    Shape *pattern;         /* normalised, for messages */
    PtrVec segs;            /* Seg*, as first made */
    const Origin *why;
    int input;              /* >= 0: the match of an input */
    int done;
} PMatch;

typedef struct Pl {
    Plan *p;
    Ctx *c;
    PtrVec matches, eqs, cons;
    Symtab emitted;         /* texts of the residuals planned (duplicates) */
    PtrVec nonneg;          /* Dim*: expressions equal to a size >= 0 */
    int hard;               /* solve with a factor known only at run time
                             * (whose 0 leaves the unknown undetermined):
                             * only once nothing simpler is left */
    int last_resort;
} Pl;

/* ---- knowledge ---------------------------------------------------------- */

/* A variable is known from the step that binds it on (Plan.at: while the
 * plan is made, everything so far; while it is written, the step being
 * written): a check written before the step that binds a variable reads
 * it from a known expression, or not at all. */
PVar *plan_var(const Plan *p, const DVar *v)
{
    PVar *k = v->aux;
    return k && k->since <= p->at ? k : NULL;
}
PRun *plan_run(const SVar *v) { return v->aux; }
PRun *plan_run_placed(const SVar *v) { PRun *r = v->aux; return r && r->src ? r : NULL; }

static void set_var(Pl *pl, DVar *v, PVar *k)
{
    k->since = pl->p->steps.n - 1;      /* (the step that binds it: made) */
    v->aux = k;
    pv_push(pl->c->arena, &pl->p->noted_d, v);
}

static void set_run(Pl *pl, SVar *v, PRun *r)
{
    v->aux = r;
    pv_push(pl->c->arena, &pl->p->noted_s, v);
}

void plan_clear(Plan *p)
{
    for (int i = 0; i < p->noted_d.n; i++)
        ((DVar *)p->noted_d.items[i])->aux = NULL;
    for (int i = 0; i < p->noted_s.n; i++)
        ((SVar *)p->noted_s.items[i])->aux = NULL;
    p->noted_d.n = p->noted_s.n = 0;
}

const char *plan_local(Plan *p, const char *stem)
{
    return ar_printf(p->c->arena, "%s%d", stem, ++p->nlocal);
}

/* A known value may be read at the step being written (or planned), and
 * is not out of sight (plan_hide_known). */
static int visible(const Plan *p, const PVal *v)
{
    return v->since <= p->at && !v->hidden;
}

const PVal *plan_known(Plan *p, Dim *d)
{
    const PVal *v = dm_get(&p->known, d);
    return v && visible(p, v) ? v : NULL;
}

int plan_hide_known(Plan *p, Dim *d)
{
    PVal *v = dm_get(&p->known, dim_norm(p->c, d));
    if (!v)
        return -1;
    int was = v->hidden;
    v->hidden = 1;
    return was;
}

void plan_unhide_known(Plan *p, Dim *d, int was)
{
    PVal *v = dm_get(&p->known, dim_norm(p->c, d));
    if (v && was >= 0)
        v->hidden = was;
}

/* Whether a variable of d may be AXON_DIM_UNKNOWN.  With splits, a part
 * an input gives another way does not count: d itself as c * K + rest or
 * with a known product standing in, and the same inside floor divisions
 * ((a * b + c) / 2 with a * b an input axis). */
static int unknown_in(Plan *p, Dim *d, int splits)
{
    d = dim_norm(p->c, d);
    if (plan_known(p, d))
        return 0;
    int any = 0;
    for (uint32_t i = 0; i < d->nt && !any; i++)
        for (uint32_t j = 0; j < d->t[i].nf && !any; j++) {
            const Factor *f = &d->t[i].f[j];
            any = f->var ? plan_var(p, f->var) && plan_var(p, f->var)->maybe_unknown
                         : unknown_in(p, f->div->num, splits) || unknown_in(p, f->div->den, splits);
        }
    if (!any || !splits)
        return any;
    int64_t c;
    Dim *rest;
    return !plan_known_split(p, d, &c, &rest, 1) && !plan_known_subst(p, d, 1);
}

int plan_unknown_vars(Plan *p, Dim *d)
{
    return unknown_in(p, d, 0);
}

int plan_maybe_unknown(Plan *p, Dim *d)
{
    return unknown_in(p, d, 1);
}

/* The index of the known expressions by variable (Plan.known_ix): for
 * each variable, the expressions whose lead term (plan_known_split) has
 * it as its first variable, the products of variables (plan_known_subst)
 * whose first variable it is, and the sums in which it is a term of its
 * own (known_sum_subst).  A lookup reads the lists of d's variables only:
 * with one known expression per input axis, reading them all for every
 * size made a plan quadratic in the inputs. */
typedef struct KnownRef {
    Dim *key;
    PVal *val;
    uint32_t stamp;         /* Plan.ix_stamp of the lookup that last read it */
    struct KnownRef *next;
} KnownRef;
typedef struct KnownIx {
    KnownRef *lead, *prod, *sum;
} KnownIx;

static KnownIx *known_ix(Plan *p, DVar *v, int make)
{
    Dim *d = dim_of_var(p->c, v, NULL);
    KnownIx *x = dm_get(&p->known_ix, d);
    if (!x && make) {
        x = ar_alloc(p->c->arena, sizeof *x);
        dm_put(&p->known_ix, d, x);
    }
    return x;
}

static void ref_push(Plan *p, KnownRef **list, Dim *key, PVal *val)
{
    KnownRef *r = ar_alloc(p->c->arena, sizeof *r);
    r->key = key;
    r->val = val;
    r->next = *list;
    *list = r;
}

static DVar *first_var(const Mono *m)
{
    for (uint32_t j = 0; j < m->nf; j++)
        if (m->f[j].var)
            return m->f[j].var;
    return NULL;
}

/* K's first term with a variable or a floor division, or NULL. */
static const Mono *lead_term(const Dim *k)
{
    for (uint32_t i = 0; i < k->nt; i++)
        if (k->t[i].nf)
            return &k->t[i];
    return NULL;
}

static void index_known(Plan *p, Dim *key, PVal *val)
{
    if (key->ragged)
        return;
    const Mono *lead = lead_term(key);
    if (lead) {
        DVar *v = first_var(lead);
        ref_push(p, v ? &known_ix(p, v, 1)->lead : &p->lead_other, key, val);
    }
    if (key->nt == 1 && key->t[0].nf && key->t[0].coef == 1) {
        int vars_only = 1;
        for (uint32_t a = 0; a < key->t[0].nf; a++)
            vars_only &= key->t[0].f[a].var != NULL;
        if (vars_only)
            ref_push(p, &known_ix(p, key->t[0].f[0].var, 1)->prod, key, val);
    }
    if (key->nt >= 2)
        for (uint32_t i = 0; i < key->nt; i++) {
            const Mono *t = &key->t[i];
            if (t->nf == 1 && t->f[0].var && t->f[0].pow == 1 && (t->coef == 1 || t->coef == -1))
                ref_push(p, &known_ix(p, t->f[0].var, 1)->sum, key, val);
        }
}

static void put_known(Plan *p, Dim *d, PVal *val)
{
    dm_put(&p->known, d, val);
    index_known(p, d, val);
}

/* Remembers that d's value is val's (an input axis, a local): an output or
 * a check that needs d reads it, even when d's variables stay unknown. */
static void note_known(Plan *p, Dim *d, const PVal *val)
{
    int64_t k;
    if (!dim_is_var(d) && !dim_is_const(d, &k) && !val->maybe_unknown && !dm_get(&p->known, d)) {
        PVal *copy = ar_alloc(p->c->arena, sizeof *copy);
        *copy = *val;
        copy->since = p->steps.n;          /* after the step that gave it */
        put_known(p, d, copy);
    }
}

static int known_raw(Plan *p, Dim *d, int raw);

/* Inside floor divisions nested this deep or less a numerator is split
 * (a deep CNN nests a pooling per stage; a few dozen at most); deeper,
 * trying every split at every level would be cubic in the depth. */
enum { PLAN_SPLIT_DEPTH = 32 };

/* Whether d is known from its variables (and known expressions inside
 * floor divisions, split or substituted there: (a + b + 1) / 2 with a + b
 * an input axis), without splitting d itself. */
static int known_plain(Plan *p, Dim *d, int raw)
{
    d = raw ? dim_norm_raw(p->c, d) : dim_norm(p->c, d);
    if (d->ragged || plan_known(p, d))
        return 1;
    for (uint32_t i = 0; i < d->nt; i++)
        for (uint32_t j = 0; j < d->t[i].nf; j++) {
            const Factor *f = &d->t[i].f[j];
            if (f->var ? !plan_var(p, f->var)
                       : f->div->depth <= PLAN_SPLIT_DEPTH ? !known_raw(p, f->div->num, raw) || !known_raw(p, f->div->den, raw)
                                                           : !known_plain(p, f->div->num, raw) || !known_plain(p, f->div->den, raw))
                return 0;
        }
    return 1;
}

/* d as c * K + rest for the known K of r, or NULL. */
static const PVal *try_split(Plan *p, Dim *d, const KnownRef *r, int64_t *c, Dim **rest, int sure)
{
    Dim *k = r->key;
    if (!visible(p, r->val))
        return NULL;
    const Mono *lead = lead_term(k);
    const Mono *mine = NULL;
    for (uint32_t i = 0; i < d->nt && lead && !mine; i++)
        if (mono_cmp(&d->t[i], lead) == 0)
            mine = &d->t[i];
    if (!mine || lead->coef == -1 || mine->coef % lead->coef != 0)
        return NULL;
    int64_t ratio = mine->coef / lead->coef;
    int saved = p->c->overflow;
    Dim *rs = dim_sub(p->c, d, dim_scale(p->c, k, ratio, NULL), NULL);
    if (p->c->overflow) {
        p->c->overflow = saved;
        return NULL;
    }
    if (known_plain(p, rs, 0) && !(sure && plan_unknown_vars(p, rs))) {
        *c = ratio;
        *rest = rs;
        return r->val;
    }
    return NULL;
}

/* The split whose rest has the fewest terms (the first of those): the
 * simplest arithmetic, the least that can overflow. */
static const PVal *better_split(Plan *p, Dim *d, const KnownRef *r, const PVal *best, int64_t *c, Dim **rest,
                                int sure)
{
    int64_t c1;
    Dim *rest1;
    const PVal *got = try_split(p, d, r, &c1, &rest1, sure);
    if (got && (!best || rest1->nt < (*rest)->nt)) {
        *c = c1;
        *rest = rest1;
        return got;
    }
    return best;
}

const PVal *plan_known_split(Plan *p, Dim *d, int64_t *c, Dim **rest, int sure)
{
    d = dim_norm(p->c, d);
    if (d->ragged)
        return NULL;
    /* A split's rest may hold d again inside a floor division (n split by
     * the known n / 2 + n leaves -(n / 2)): d is not split inside itself. */
    for (int i = 0; i < p->splitting.n; i++)
        if (dim_equal(p->splitting.items[i], d))
            return NULL;
    pv_push(p->c->arena, &p->splitting, d);
    const PVal *best = NULL;
    /* the keys whose lead term is one of d's: found by its first variable */
    for (uint32_t i = 0; i < d->nt; i++) {
        DVar *v = first_var(&d->t[i]);
        KnownIx *x = v ? known_ix(p, v, 0) : NULL;
        for (KnownRef *r = x ? x->lead : NULL; r; r = r->next)
            best = better_split(p, d, r, best, c, rest, sure);
    }
    for (KnownRef *r = p->lead_other; r; r = r->next)
        best = better_split(p, d, r, best, c, rest, sure);
    p->splitting.n--;
    return best;
}

/* How often the product of variables k divides monomial m (0 if not);
 * m's other factors go to q (nq of them). */
static uint32_t mono_div_power(const Mono *m, const Mono *k, Factor *q, uint32_t *nq)
{
    uint32_t j = UINT32_MAX;
    for (uint32_t a = 0; a < k->nf; a++) {
        uint32_t have = 0;
        for (uint32_t b = 0; b < m->nf; b++)
            if (m->f[b].var == k->f[a].var)
                have = m->f[b].pow;
        if (have / k->f[a].pow < j)
            j = have / k->f[a].pow;
    }
    *nq = 0;
    for (uint32_t b = 0; b < m->nf; b++) {
        Factor f = m->f[b];
        for (uint32_t a = 0; a < k->nf && f.var; a++)
            if (k->f[a].var == f.var)
                f.pow -= j * k->f[a].pow;
        if (f.pow)
            q[(*nq)++] = f;
    }
    return j;
}

static DVar *stand_in(Plan *p, PVal *v)
{
    if (!v->stand_in) {
        v->stand_in = dvar_new(p->c, NULL);
        PVar *pv = ar_alloc(p->c->arena, sizeof *pv);
        pv->val = v;
        pv->validated = 1;
        v->stand_in->aux = pv;
        pv_push(p->c->arena, &p->noted_d, v->stand_in);
    }
    return v->stand_in;
}

/* d with the variable v replaced by e (free of v), expanded; NULL where v
 * is inside a floor division or raised past SUBST_MAX_POW (the expansion
 * would grow), or on overflow. */
enum { SUBST_MAX_POW = 8 };
static Dim *subst_var(Ctx *c, Dim *d, DVar *v, Dim *e)
{
    int saved = c->overflow;
    c->overflow = 0;
    Dim *sum = dim_const(c, 0, NULL);
    for (uint32_t i = 0; i < d->nt && sum; i++) {
        const Mono *t = &d->t[i];
        Factor *q = ar_alloc(c->arena, sizeof(Factor) * (t->nf + 1));
        uint32_t nq = 0, pow = 0;
        for (uint32_t j = 0; j < t->nf; j++) {
            const Factor *f = &t->f[j];
            if (f->var == v)
                pow = f->pow;
            else if (!f->var && (dim_mentions(f->div->num, v) || dim_mentions(f->div->den, v)))
                pow = SUBST_MAX_POW + 1;
            else
                q[nq++] = *f;
        }
        if (pow > SUBST_MAX_POW) {
            sum = NULL;
            break;
        }
        Mono *rest = ar_alloc(c->arena, sizeof *rest);
        *rest = (Mono){ t->coef, nq, q };
        Dim *term = dim_canon(c, rest, 1, NULL);
        for (uint32_t k = 0; k < pow && !c->overflow; k++)
            term = dim_mul(c, term, e, NULL);
        sum = dim_add(c, sum, term, NULL);
    }
    if (c->overflow)
        sum = NULL;
    c->overflow = saved;
    return sum;
}

/* d with a known sum (an input axis `m + n`) standing in for one of its
 * variables: K = c * v + R with c = 1 or -1 makes v = c * (K - R), so
 * `(m + n)^2` is K^2.  NULL where no such substitution leaves only known
 * variables. */
static Dim *known_sum_subst(Plan *p, Dim *d, int sure)
{
    Ctx *c = p->c;
    for (uint32_t i = 0; i < d->nt; i++)
        for (uint32_t j = 0; j < d->t[i].nf; j++) {
            DVar *v = d->t[i].f[j].var;
            KnownIx *x = v && !plan_var(p, v) ? known_ix(p, v, 0) : NULL;
            for (KnownRef *ref = x ? x->sum : NULL; ref; ref = ref->next) {
                Dim *k = ref->key;
                if (!visible(p, ref->val) || ref->stamp == p->ix_stamp)
                    continue;
                ref->stamp = p->ix_stamp;
                int64_t coef = 0;
                for (uint32_t a = 0; a < k->nt; a++)
                    if (k->t[a].nf == 1 && k->t[a].f[0].var == v)
                        coef = k->t[a].coef;
                Dim *r = dim_sub(c, k, dim_scale(c, dim_of_var(c, v, NULL), coef, NULL), NULL);  /* R */
                if (dim_mentions(r, v))
                    continue;
                Dim *e = dim_sub(c, dim_of_var(c, stand_in(p, ref->val), NULL), r, NULL);
                if (coef == -1)
                    e = dim_scale(c, e, -1, NULL);
                Dim *out = subst_var(c, d, v, e);
                if (out && known_plain(p, out, 0) && !(sure && plan_unknown_vars(p, out)))
                    return out;
            }
        }
    return NULL;
}

/* cur with the known product of variables of r standing in as often as it
 * divides each term (the stand-in, newest, after the other variables), or
 * NULL where it divides none. */
static Dim *subst_product(Plan *p, Dim *cur, const KnownRef *r)
{
    Ctx *c = p->c;
    const Mono *km = &r->key->t[0];
    Mono *ms = ar_alloc(c->arena, sizeof(Mono) * (cur->nt ? cur->nt : 1));
    int hit = 0;
    for (uint32_t i = 0; i < cur->nt; i++) {
        const Mono *t = &cur->t[i];
        Factor *q = ar_alloc(c->arena, sizeof(Factor) * (t->nf + 1));
        uint32_t nq;
        uint32_t j = mono_div_power(t, km, q, &nq);
        if (j > 0) {
            uint32_t at = 0;
            while (at < nq && q[at].var)
                at++;
            memmove(q + at + 1, q + at, sizeof(Factor) * (nq - at));
            q[at] = (Factor){ stand_in(p, r->val), NULL, j };
            nq++;
            hit = 1;
        }
        ms[i] = (Mono){ t->coef, nq, q };
    }
    return hit ? dim_canon(c, ms, cur->nt, cur->origin) : NULL;
}

Dim *plan_known_subst(Plan *p, Dim *d, int sure)
{
    d = dim_norm(p->c, d);
    if (d->ragged)
        return NULL;
    Dim *cur = d;
    p->ix_stamp++;
    /* the known products of variables whose first variable is one of d's
     * (each once: a variable may be in several terms) */
    for (uint32_t i = 0; i < d->nt; i++)
        for (uint32_t j = 0; j < d->t[i].nf; j++) {
            KnownIx *x = d->t[i].f[j].var ? known_ix(p, d->t[i].f[j].var, 0) : NULL;
            for (KnownRef *r = x ? x->prod : NULL; r; r = r->next) {
                if (r->stamp == p->ix_stamp || !visible(p, r->val))
                    continue;
                r->stamp = p->ix_stamp;
                Dim *next = subst_product(p, cur, r);
                if (!next)
                    continue;
                cur = next;
                if (known_plain(p, cur, 0) && !(sure && plan_unknown_vars(p, cur)))
                    return cur;
            }
        }
    return known_sum_subst(p, cur, sure);
}

static int known_raw(Plan *p, Dim *d, int raw)
{
    if (known_plain(p, d, raw))
        return 1;
    int64_t c;
    Dim *rest;
    return !raw && (plan_known_split(p, d, &c, &rest, 0) || plan_known_subst(p, d, 0));
}

int plan_dim_known(Plan *p, Dim *d)
{
    return known_raw(p, d, 0);
}

/* Every shape variable known, and every size. */
static int shape_known(Plan *p, Shape *s)
{
    s = shape_norm(p->c, s);
    for (uint32_t i = 0; i < s->n; i++)
        if (s->s[i].var ? !plan_run_placed(s->s[i].var) : !plan_dim_known(p, s->s[i].dim))
            return 0;
    return 1;
}

/* The name a variable has in the signature, for locals and messages. */
static const char *var_name(Pl *pl, uint32_t *stamp, void **mark, uint32_t id)
{
    const char *name = namer_name_of(pl->p->nm, stamp, mark);
    return name ? name : ar_printf(pl->c->arena, "_%u", id);
}

static PStep *step(Pl *pl, PStepKind kind, const Origin *why)
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

static const char *cons_text(Pl *pl, Constraint *k)
{
    Buf b;
    buf_init(&b, pl->c->arena);
    pr_constraint(pl->p->nm, &b, k);
    return buf_str(&b);
}

static const char *dim_text(Pl *pl, Dim *d, int raw)
{
    int saved = pl->p->nm->raw;
    pl->p->nm->raw = raw;
    const char *s = pr_dim_str(pl->p->nm, d);
    pl->p->nm->raw = saved;
    return s;
}

/* Where a computed shape comes from, for messages: "the broadcast at 3:14". */
static const char *place(Pl *pl, const char *what, const Origin *why)
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

static PMatch *add_match(Pl *pl, PSrc *src, Shape *pattern, const Origin *why, int input)
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

static PEq *add_eq(Pl *pl, Dim *d, PVal val, const Origin *why, const char *text, int raw)
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

static int shape_maybe_unknown(Plan *p, Shape *s)
{
    s = shape_norm(p->c, s);
    for (uint32_t i = 0; i < s->n; i++)
        if (s->s[i].dim && plan_maybe_unknown(p, s->s[i].dim))
            return 1;
    return 0;
}

static PSrc *computed_src(Pl *pl, const char *local, const char *desc, const Origin *why)
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

static int try_match(Pl *pl, PMatch *m)
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
    PStep *st = step(pl, PS_MATCH, m->why);
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
            add_eq(pl, s->dim, v, m->why, NULL, 0);
            pos.k++;
            if (axis >= 0)
                axis++;
            continue;
        }
        SVar *v = s->var;
        if (v == unknown) {
            PRun *r = ar_alloc(a, sizeof *r);
            r->name = var_name(pl, &v->stamp, &v->mark, v->id);
            r->src = m->src;
            r->off = pos_copy(pl, &pos);
            r->rest.k = fixed;
            r->rest.runs = runs;
            r->from = m->src->desc;
            set_run(pl, v, r);
        } else if (!plan_run(v)->src) {     /* a run of known length: here it is */
            PRun *r = plan_run(v);
            r->src = m->src;
            r->off = pos_copy(pl, &pos);
            r->from = m->src->desc;
        } else {
            PRun *r = plan_run(v);
            if (!(r->src == m->src && pos_equal(&r->off, &pos))) {   /* not where it was read */
                PStep *same = step(pl, PS_SAME_RUN, m->why);
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

/* ---- equations ------------------------------------------------------------ */

typedef struct Unknowns {
    PtrVec vars;            /* DVar*, distinct, not known */
    int in_div;             /* one of them is inside a floor division */
} Unknowns;

static void collect_unknowns(Pl *pl, Dim *d, Unknowns *u, int in_div)
{
    for (uint32_t i = 0; i < d->nt; i++)
        for (uint32_t j = 0; j < d->t[i].nf; j++) {
            const Factor *f = &d->t[i].f[j];
            if (!f->var) {
                if (!known_raw(pl->p, f->div->num, 0) || !known_raw(pl->p, f->div->den, 0)) {
                    collect_unknowns(pl, dim_norm(pl->c, f->div->num), u, 1);
                    collect_unknowns(pl, dim_norm(pl->c, f->div->den), u, 1);
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
    PStep *st = step(pl, PS_KNOWN, why);
    st->d = d;
    st->val = *val;
    st->local = plan_local(pl->p, "kn");
    PVal *v = ar_alloc(pl->c->arena, sizeof *v);
    *v = *val;
    v->src = NULL;
    v->local = st->local;
    v->since = pl->p->steps.n;
    put_known(pl->p, d, v);
    if (val->nonneg)
        pv_push(pl->c->arena, &pl->nonneg, d);
    return st->local;
}

/* 1 when the equation is settled, 2 when it made progress but waits, 0
 * when nothing could be done. */
static int try_eq(Pl *pl, PEq *e)
{
    Ctx *c = pl->c;
    Dim *d = e->raw ? dim_norm_raw(c, e->d) : dim_norm(c, e->d);
    if (d->ragged) {
        PStep *st = step(pl, PS_RAGGED, e->why);
        st->val = e->val;
        st->d = d;
        st->orig = e->d;
        return 1;
    }
    /* Known: its variables are, or another fact gave the expression's value
     * (not this one: that would compare it with itself). */
    const PVal *kv = plan_known(pl->p, d);
    const char *given = kv ? kv->local : NULL;
    int known = known_raw(pl->p, d, e->raw);
    if (known && e->recorded && given == e->recorded) {
        /* known by this equation's own value only, or another way too */
        int since = plan_hide_known(pl->p, d);
        known = known_raw(pl->p, d, e->raw);
        plan_unhide_known(pl->p, d, since);
    }
    if (known) {
        PStep *st = step(pl, PS_CHECK, e->why);
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
            note_known(pl->p, d, &e->val);
        return 1;
    }
    DVar *x = dim_is_var(d);
    if (x && x->dyn == 2)
        return 0;                       /* produced by an operation: not ours to bind */
    if (x) {
        if (has_live_def(x->def) && !pl->last_resort)
            return 0;                   /* the broadcast will give it; then check */
        PStep *st = step(pl, PS_BIND, e->why);
        st->val = e->val;
        st->d = d;
        st->orig = e->d;
        st->var = x;
        st->text = e->text;
        PVar *k = ar_alloc(c->arena, sizeof *k);
        const char *name = var_name(pl, &x->stamp, &x->mark, x->id);
        k->local = ar_printf(c->arena, "d_%s", cn_spell(c->arena, name, CN_TENSOR));
        k->from = e->val.where;
        k->src = e->d;
        k->validated = 1;               /* the bind checks >= 0 where needed */
        k->maybe_unknown = e->val.maybe_unknown;
        k->assignable = 1;
        set_var(pl, x, k);
        return 1;
    }
    Unknowns u = { { 0 }, 0 };
    collect_unknowns(pl, d, &u, 0);
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
            PStep *st = step(pl, PS_SOLVE, e->why);
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
            const char *name = var_name(pl, &x->stamp, &x->mark, x->id);
            k->local = ar_printf(c->arena, "d_%s", cn_spell(c->arena, name, CN_TENSOR));
            k->from = e->val.where;
            k->validated = 1;
            k->maybe_unknown = may_be_0 || e->val.maybe_unknown || plan_maybe_unknown(pl->p, d);
            k->assignable = 1;
            set_var(pl, x, k);
            if (e->val.nonneg)
                pv_push(c->arena, &pl->nonneg, d);
            if (!e->raw)
                note_known(pl->p, d, &e->val);
            return 1;
        }
    }
    if (pl->last_resort && !e->recorded && !e->raw && !given) {
        e->recorded = record_known(pl, d, &e->val, e->why);
        return 2;
    }
    return 0;
}

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
        set_var(pl, k->dres, v);
        return NULL;
    }
    PVal val = val_local(local, where);
    val.maybe_unknown = unknown;
    return add_eq(pl, dim_of_var(pl->c, k->dres, k->why), val, k->why, NULL, 0);
}

static int try_bcast_dim(Pl *pl, Constraint *k)
{
    for (int i = 0; i < k->ops.n; i++)
        if (!plan_dim_known(pl->p, k->ops.items[i]))
            return 0;
    PStep *st = step(pl, PS_BCAST_DIM, k->why);
    st->k = k;
    st->local = plan_local(pl->p, "bc");
    const char *where = place(pl, "the broadcast", k->why);
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
        if (!shape_known(pl->p, k->ops.items[i]))
            return 0;
    PStep *st = step(pl, PS_BCAST_SHAPE, k->why);
    st->k = k;
    st->local = plan_local(pl->p, "bs");
    PSrc *src = computed_src(pl, st->local, place(pl, "the broadcast", k->why), k->why);
    st->src = src;
    for (int i = 0; i < k->ops.n; i++)
        src->maybe_unknown |= shape_maybe_unknown(pl->p, k->ops.items[i]);
    if (!k->sres->link && !plan_run(k->sres)) {
        PRun *r = ar_alloc(c->arena, sizeof *r);
        r->name = var_name(pl, &k->sres->stamp, &k->sres->mark, k->sres->id);
        r->src = src;
        r->from = src->desc;
        set_run(pl, k->sres, r);
        st->run = k->sres;
        return 1;
    }
    add_match(pl, src, shape_of_var(c, k->sres, k->why), k->why, -1);
    return 1;
}

/* rank(v) = d with d known: v's length, which a match of a shape with v
 * and another unknown run then can place. */
static void run_len(Pl *pl, Constraint *k, SVar *v, Dim *d)
{
    Ctx *c = pl->c;
    PRun *r = ar_alloc(c->arena, sizeof *r);
    r->name = var_name(pl, &v->stamp, &v->mark, v->id);
    r->from = ar_printf(c->arena, "rank(%s)", r->name);
    set_run(pl, v, r);
    PStep *st = step(pl, PS_RUN_LEN, k->why);
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
    if (!shape_known(pl->p, s)) {
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
    PStep *st = step(pl, PS_COUNT, k->why);
    st->k = k;
    st->pattern = s;
    st->local = plan_local(pl->p, k->kind == C_ELEMS ? "el" : "rk");
    const char *where = ar_printf(c->arena, "%s(%s)", k->kind == C_ELEMS ? "elements" : "rank",
                                  pr_shape_str(pl->p->nm, s));
    result_value(pl, k, st->local, where, k->kind == C_ELEMS && shape_maybe_unknown(pl->p, s));
    return 1;
}

/* l = r: checked when both are known; else the known side's value is an
 * equation for the other. */
static int try_eq_dim(Pl *pl, Constraint *k, const char *text)
{
    int raw = k->rewrites;
    Dim *l = raw ? dim_norm_raw(pl->c, k->l) : dim_norm(pl->c, k->l);
    Dim *r = raw ? dim_norm_raw(pl->c, k->r) : dim_norm(pl->c, k->r);
    int kl = known_raw(pl->p, l, raw), kr = known_raw(pl->p, r, raw);
    if (kl && kr) {
        PStep *st = step(pl, PS_EQ_DIM, k->why);
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
    v.where = dim_text(pl, known, raw);
    PStep *st = step(pl, PS_EVAL, k->why);        /* evaluate the known side */
    st->d = known;
    st->raw = raw;
    st->local = plan_local(pl->p, "e");
    v.local = st->local;
    v.maybe_unknown = plan_maybe_unknown(pl->p, known);
    add_eq(pl, unknown, v, k->why, text, raw)->other = known;
    return 1;
}

static int try_eq_shape(Pl *pl, Constraint *k, const char *text)
{
    Shape *l = shape_norm(pl->c, k->sl), *r = shape_norm(pl->c, k->sr);
    int kl = shape_known(pl->p, l), kr = shape_known(pl->p, r);
    if (!kl && !kr)
        return 0;
    Shape *known = kl ? l : r, *other = kl ? r : l;
    PStep *st = step(pl, PS_SHAPE, k->why);
    st->pattern = known;
    st->local = plan_local(pl->p, "sh");
    st->text = text;
    PSrc *src = computed_src(pl, st->local, ar_printf(pl->c->arena, "%s (from %s)",
                                                       pr_shape_str(pl->p->nm, known), text),
                             k->why);
    st->src = src;
    src->maybe_unknown = shape_maybe_unknown(pl->p, known);
    add_match(pl, src, other, k->why, -1);
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
        if (!known_raw(pl->p, k->l, k->rewrites) && !known_raw(pl->p, k->r, k->rewrites))
            return 0;
        {
            const char *text = cons_text(pl, k);
            return duplicate(pl, text) ? 1 : try_eq_dim(pl, k, text);
        }
    case C_EQ_SHAPE:
        if (!shape_known(pl->p, k->sl) && !shape_known(pl->p, k->sr))
            return 0;
        {
            const char *text = cons_text(pl, k);
            return duplicate(pl, text) ? 1 : try_eq_shape(pl, k, text);
        }
    case C_NONNEG: {
        Dim *d = dim_norm(pl->c, k->l);
        if (!plan_dim_known(pl->p, d))
            return 0;
        if (implied_nonneg(pl, d) || duplicate(pl, cons_text(pl, k)))
            return 1;
        PStep *st = step(pl, PS_NONNEG, k->why);
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
        /* computed with checked arithmetic (emit_fn.c), once per size */
        Dim *d = dim_norm(pl->c, k->l);
        if (!plan_dim_known(pl->p, d))
            return 0;
        int64_t v;
        if (!dim_is_const(d, &v) && !dim_is_var(d) && !d->ragged) {
            PStep *st = step(pl, PS_FITS, k->why);
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
        buf_printf(&b, "%s%s", i ? ", " : "", v->dyn ? "?" : var_name(pl, &v->stamp, &v->mark, v->id));
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
        collect_unknowns(pl, d, &shown, 0);
        Dim *free = free_divisions(pl, e, d);
        Unknowns u = { { 0 }, 0 };
        collect_unknowns(pl, free, &u, 0);
        int always = 0;
        Dim *kpart = NULL;
        int sign = dyn_in_dim(pl, d) ? 0 : exists_rule(pl, e, free, &u, &always, &kpart);
        if (!sign) {
            const char *what = e->text ? e->text : ar_printf(a, "%s = %s", dim_text(pl, d, e->raw), e->val.where);
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
        PStep *st = step(pl, PS_EXISTS, e->why);
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
 * factor is 0 at run time, e known: e gives x there (emit_fn.c, open_var_from),
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
        int open_l = vl && vl->assignable && vl->maybe_unknown && known_raw(pl->p, r, k->rewrites);
        int open_r = vr && vr->assignable && vr->maybe_unknown && known_raw(pl->p, l, k->rewrites);
        if (!open_l && !open_r)
            continue;
        int before = pl->eqs.n;
        if (!try_cons(pl, k))
            continue;
        pl->cons.items[i] = NULL;
        progress = 1;
        for (int j = before; j < pl->eqs.n; j++) {      /* its check, now */
            PEq *e = pl->eqs.items[j];
            if (!e->done && try_eq(pl, e) == 1)
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
        if (!m->done && try_match(pl, m)) {
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
        int r = try_eq(pl, e);
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
        PStep *st = step(&pl, PS_RANK, sh->origin);
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
        add_match(&pl, src, t->type->u.ten.shape, sh->origin, i);
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
                                 * what reads it waits (emit_run.c) */
        set_var(&pl, v, k);
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
                                             "only running it can check that", dim_text(&pl, k->l, 0)));
        }
        return refuse(&pl, loc_of(k->why),
                      ar_printf(a, "the header cannot decide %s from the input shapes (%s)", cons_text(&pl, k),
                                because(&pl, dyn_in_cons(&pl, k))));
    }
    return 0;
}
