/* plan_known.c - what the run-time plan knows (plan_known.h, plan.h): the
 * variables it has bound, the shape variables it has placed, and the
 * expressions whose value is there at run time (an input axis, a local),
 * indexed by variable, with the ways a size is computed from them: c * K +
 * rest, a known product or sum standing in for its variables. */
#include "plan_known.h"

#include <string.h>

#include "dim.h"
#include "types.h"

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

void pl_set_var(Pl *pl, DVar *v, PVar *k)
{
    k->since = pl->p->steps.n - 1;      /* (the step that binds it: made) */
    v->aux = k;
    pv_push(pl->c->arena, &pl->p->noted_d, v);
}

void pl_set_run(Pl *pl, SVar *v, PRun *r)
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

void pl_put_known(Plan *p, Dim *d, PVal *val)
{
    dm_put(&p->known, d, val);
    index_known(p, d, val);
}

/* Remembers that d's value is val's (an input axis, a local): an output or
 * a check that needs d reads it, even when d's variables stay unknown. */
void pl_note_known(Plan *p, Dim *d, const PVal *val)
{
    int64_t k;
    if (!dim_is_var(d) && !dim_is_const(d, &k) && !val->maybe_unknown && !dm_get(&p->known, d)) {
        PVal *copy = ar_alloc(p->c->arena, sizeof *copy);
        *copy = *val;
        copy->since = p->steps.n;          /* after the step that gave it */
        pl_put_known(p, d, copy);
    }
}

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
                       : f->div->depth <= PLAN_SPLIT_DEPTH ? !pl_known_raw(p, f->div->num, raw) || !pl_known_raw(p, f->div->den, raw)
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

int pl_known_raw(Plan *p, Dim *d, int raw)
{
    if (known_plain(p, d, raw))
        return 1;
    int64_t c;
    Dim *rest;
    return !raw && (plan_known_split(p, d, &c, &rest, 0) || plan_known_subst(p, d, 0));
}

int plan_dim_known(Plan *p, Dim *d)
{
    return pl_known_raw(p, d, 0);
}

/* Every shape variable known, and every size. */
int pl_shape_known(Plan *p, Shape *s)
{
    s = shape_norm(p->c, s);
    for (uint32_t i = 0; i < s->n; i++)
        if (s->s[i].var ? !plan_run_placed(s->s[i].var) : !plan_dim_known(p, s->s[i].dim))
            return 0;
    return 1;
}