/* warn.c - the warnings of axon-spec.md section 6b: what type-checks but is
 * probably not meant.  Each says what, where each fact was written, and
 * what would fix it.  docs/language.md, "Warnings", gives the rules:
 *
 *  - two different annotation names of one item that inference forces to
 *    be one size (`W1 : f32 [h, i]` where the program needs h = i), unless
 *    a `where n = m` clause of the item says so;
 *  - a broadcast made by an operator of the item itself between sizes that
 *    its annotations name differently, which survives into the item's
 *    signature: `broadcast(n, g)`, or `g in {1, 3}` (a bias of the wrong
 *    layout).  Writing `broadcast(...)` in an annotation of the item says
 *    that a broadcast is meant, and silences it;
 *  - a name of the item that the program forces to a constant (a concat
 *    along the wrong axis makes a channel count 0), or to an expression of
 *    the item's other names, unless a `where` clause says so;
 *  - a residual of the item's signature (a clause, a broadcast) that can
 *    hold only at degenerate sizes, of a name of the item: `where b * s * h
 *    * d = b * s * d` only if h = 1, `broadcast(3 * k, 4 * k)` only if
 *    k = 0, `broadcast(h, h - 4)` only if h = 5.
 *
 * Names and operators of other items (a function called here, the
 * prelude) are theirs: only this item's own annotations and operators
 * count, so a correct network gets no warning.
 */
#include "warn.h"

#include <stdio.h>
#include <string.h>


#include "dim.h"
#include "print.h"
#include "simplify.h"
#include "solve.h"
#include "source.h"
#include "types.h"

/* Whether origin o is a place inside item it (an operator it applies). */
static int in_item(const Origin *o, const Item *it)
{
    return o && o->loc.src == it->loc.src && o->loc.src && !o->loc.src->builtin && o->loc.start >= it->loc.start &&
           o->loc.end <= it->loc.end;
}

/* The annotation name of this item that a dimension variable is, if any:
 * the variables are marked (stamp, mark) by mark_names, in linear time. */
static void mark_names(Ctx *c, Scope *sc, uint32_t *stamp)
{
    *stamp = ++c->stamp;
    for (int i = 0; i < sc->names.n; i++) {
        ScopeName *n = sc->names.items[i];
        if (n->kind == NK_DIM) {
            /* the variable the name's size is now (the name's own, or one
             * it was bound to) */
            DVar *v = dim_is_var(dim_norm(c, dim_of_var(c, n->var, NULL)));
            if (v && v->stamp != *stamp) {
                v->stamp = *stamp;
                v->mark = n;
            }
        }
    }
}

static const ScopeName *dim_name(uint32_t stamp, const DVar *v)
{
    return v->stamp == stamp ? v->mark : NULL;
}

/* The variable a name's size is now, and the binding that made it so. */
static DVar *rep_var(Ctx *c, DVar *v, const Origin **why)
{
    *why = v->link ? v->why : NULL;
    return dim_is_var(dim_norm(c, dim_of_var(c, v, NULL)));
}

static void names_forced_equal(Ctx *c, const Item *it, Scope *sc)
{
    /* each size (the variable a name is now) marked with its first name,
     * so that the names are compared in linear time */
    uint32_t stamp = ++c->stamp;
    for (int i = 0; i < sc->names.n; i++) {
        const ScopeName *n = sc->names.items[i];
        if (n->kind != NK_DIM)
            continue;
        const Origin *why;
        DVar *r = rep_var(c, n->var, &why);
        if (!r)
            continue;
        if (r->stamp != stamp) {
            r->stamp = stamp;
            r->mark = (void *)n;
            continue;
        }
        const ScopeName *first = r->mark;
        const Origin *why_first;
        rep_var(c, first->var, &why_first);
        /* the binding of whichever of the two was bound says who joined them */
        const Origin *join = why ? why : why_first;
        if (origin_clause(join))
            continue;                       /* `where n = m`: said on purpose */
        /* the operand whose type held both names apart when they were
         * joined: the rule reads its layout otherwise (infer.c, Join) */
        const Join *jn = NULL;
        for (int j = 0; j < c->joins.n && !jn; j++) {
            const Join *x = c->joins.items[j];
            if (x->arg >= 0 && x->why == join)
                jn = x;
        }
        const Expr *culprit = jn ? jn->expr : NULL;
        if (culprit && culprit->loc.src && in_item(origin_new(c, culprit->loc, "", NULL, 0), it)) {
            const char *what = culprit->kind == EX_NAME ? ar_printf(c->arena, "'%s'", culprit->name) : "this operand";
            diag_warning(c->diag, culprit->loc,
                         "'%s' and '%s' are two names for one size: %s reads %s (%s) in another layout",
                         first->name, n->name, join && join->rule ? ar_printf(c->arena, "'%s'", ast_shown_name(join->rule))
                                                                  : "the operation", what, jn->shape);
            diag_note(c->diag, join->loc, "%s is where '%s' and '%s' meet", origin_text(c, join), first->name,
                      n->name);
            diag_note(c->diag, first->loc, "'%s' is written here", first->name);
            diag_note(c->diag, n->loc, "'%s' is written here", n->name);
            diag_note_plain(c->diag, "if %s holds its axes in another order than the operation reads them, put "
                                     "them in that order (a transpose, a permute with einsum, another axis or spec "
                                     "label); only if '%s' and '%s' are one size, write one name for both",
                            what, first->name, n->name);
            continue;
        }
        Loc at = join && in_item(join, it) ? join->loc : n->loc;
        diag_warning(c->diag, at, "'%s' and '%s' are two names for one size: %s makes them equal", first->name,
                     n->name, join ? origin_text(c, join) : "inference");
        diag_note(c->diag, first->loc, "'%s' is written here", first->name);
        diag_note(c->diag, n->loc, "'%s' is written here", n->name);
        diag_note_plain(c->diag, "if an operand holds its axes in another order than the operation reads them "
                                 "(a weight's layout, a transpose), put them in that order; only if they are one "
                                 "size, write '%s' for both", first->name);
    }
}

/* The operands of broadcast k, those of the live broadcasts that define
 * an operand in their place (x + b * g is one broadcast of three). */
static void bcast_leaves(Ctx *c, Constraint *k, PtrVec *out, int depth)
{
    for (int i = 0; i < k->ops.n; i++) {
        Dim *d = dim_norm(c, k->ops.items[i]);
        DVar *v = dim_is_var(d);
        if (v && v->def && !v->def->done && v->def->kind == C_BCAST_DIM && v->def != k && depth < 32)
            bcast_leaves(c, v->def, out, depth + 1);
        else
            pv_push(c->arena, out, d);
    }
}

static void surviving_broadcasts(Ctx *c, const Item *it, Scope *sc, const Scheme *s)
{
    if (sc->wrote_bcast)        /* broadcast(...) in an annotation: one is meant */
        return;
    uint32_t stamp;
    mark_names(c, sc, &stamp);
    for (int i = 0; i < s->cons.n; i++) {
        Constraint *k = s->cons.items[i];
        if (k->done || k->kind != C_BCAST_DIM)
            continue;
        /* (an operator of a function called here counts where it joins two
         * of this item's names: the call made it so) */
        int own = in_item(k->why, it);
        const ScopeName *named[2] = { NULL, NULL };
        int nnamed = 0;
        PtrVec leaves = { 0 };          /* operands, nested broadcasts' included */
        bcast_leaves(c, k, &leaves, 0);
        for (int j = 0; j < leaves.n && nnamed < 2; j++) {
            DVar *v = dim_is_var(dim_norm(c, leaves.items[j]));
            const ScopeName *n = v ? dim_name(stamp, v) : NULL;
            if (n && (nnamed == 0 || n->var != named[0]->var))
                named[nnamed++] = n;
        }
        int64_t r;
        Dim *res = k->dres->link ? dim_norm(c, dim_of_var(c, k->dres, NULL)) : NULL;
        const char *fix = "if they are one size, write one name for both; if the broadcast is meant, say so "
                          "in the result's annotation with broadcast(...)";
        DVar *rv = res ? dim_is_var(res) : NULL;
        const ScopeName *rn = rv ? dim_name(stamp, rv) : NULL;
        if (!own && !(nnamed >= 1 && rn && rn->var != named[0]->var))
            continue;               /* (a callee's: only where it pins a name to another) */
        if (nnamed >= 1 && rn && rn->var != named[0]->var) {
            diag_warning(c->diag, k->why->loc, "%s broadcasts '%s' with '%s': '%s' must be 1 or %s",
                         origin_text(c, k->why), named[0]->name, rn->name, named[0]->name, rn->name);
            named[nnamed < 2 ? nnamed++ : 1] = rn;
        } else if (nnamed == 2 && !res) {
            diag_warning(c->diag, k->why->loc,
                         "%s broadcasts '%s' with '%s', two sizes that stay different: the signature says "
                         "broadcast(%s, %s)", origin_text(c, k->why), named[0]->name, named[1]->name,
                         named[0]->name, named[1]->name);
        } else if (nnamed >= 1 && res && dim_is_const(res, &r) && r != 1) {
            diag_warning(c->diag, k->why->loc,
                         "%s broadcasts '%s' with size %lld: '%s' must be 1 or %lld", origin_text(c, k->why),
                         named[0]->name, (long long)r, named[0]->name, (long long)r);
            fix = ar_printf(c->arena, "if the axis has size %lld, write %lld for '%s'; if it is 1 or %lld on "
                            "purpose, say so in the result's annotation with broadcast(...)", (long long)r,
                            (long long)r, named[0]->name, (long long)r);
        } else {
            continue;
        }
        for (int j = 0; j < nnamed; j++)
            diag_note(c->diag, named[j]->loc, "'%s' is written here", named[j]->name);
        diag_note_plain(c->diag, "%s", fix);
    }
}

/* ---- names forced to a constant ------------------------------------- */

/* The unifications that bound v, in order, to what it is now (a chain of
 * variables, each bound to the next, to the last one's value). */
static void binding_chain(DVar *v, PtrVec *whys, Arena *a)
{
    for (int n = 0; v && v->link && n < 64; n++) {
        if (v->why)
            pv_push(a, whys, (void *)v->why);
        v = dim_is_var(v->link);
    }
}

static void names_forced_constant(Ctx *c, const Item *it, Scope *sc)
{
    uint32_t stamp;
    mark_names(c, sc, &stamp);
    for (int i = 0; i < sc->names.n; i++) {
        const ScopeName *n = sc->names.items[i];
        if (n->kind != NK_DIM || ((DVar *)n->var)->dyn)
            continue;
        Dim *d = dim_norm(c, dim_of_var(c, n->var, NULL));
        int64_t k;
        int constant = dim_is_const(d, &k);
        /* an expression of other names of the item: `d` forced to `h * k` */
        int of_names = !constant && !dim_is_var(d) && !d->ragged && d->nt > 0;
        for (uint32_t t = 0; t < d->nt && of_names; t++)
            for (uint32_t j = 0; j < d->t[t].nf && of_names; j++)
                of_names = d->t[t].f[j].var && dim_name(stamp, d->t[t].f[j].var);
        if (!constant && !of_names)
            continue;
        PtrVec whys = { 0 };
        binding_chain(n->var, &whys, c->arena);
        /* an operator (or an operator's clause) fixed it, not the user's
         * own annotations or `where` clauses */
        int said = !whys.n;
        for (int j = 0; j < whys.n && !said; j++) {
            const Origin *o = whys.items[j];
            int own_clause = origin_clause(o) && o->kind == OW_TEXT && in_item(o, it);   /* (an operator's is quoted) */
            int annotation = o->kind == OW_ANNOT || o->kind == OW_SIG || o->kind == OW_VALUE ||
                             (o->kind == OW_TEXT && !origin_clause(o));
            said = own_clause || annotation;
        }
        if (said)
            continue;
        const Origin *first = whys.items[0];
        Namer nm;
        namer_init(&nm, c, 1);
        const char *what = pr_dim_str(&nm, d);
        Loc at = in_item(first, it) ? first->loc : n->loc;
        diag_warning(c->diag, at, "'%s' is forced to be %s%s: %s makes it so", n->name, what,
                     constant && k == 0 ? " (every tensor with it is empty)" : "", origin_text(c, first));
        diag_note(c->diag, n->loc, "'%s' is written here", n->name);
        for (int j = 1; j < whys.n && j < 4; j++) {
            const Origin *o = whys.items[j];
            if (o->loc.src && !o->loc.src->builtin)
                diag_note(c->diag, o->loc, "then %s", origin_text(c, o));
        }
        diag_note_plain(c->diag, "a size that the program fixes usually means an axis mixed up (a concat or an "
                                 "append along the wrong axis, another layout); if it is meant, write %s for '%s'",
                        what, n->name);
    }
}

/* ---- residuals that hold only at degenerate sizes --------------------- */

/* d's value with v at x (d in v alone, floor divisions by positive
 * values included): 0 where it cannot tell (another size, an overflow). */
static int eval_at(Ctx *c, Dim *d, DVar *v, int64_t x, int64_t *out)
{
    d = dim_norm(c, d);
    int64_t sum = 0;
    for (uint32_t t = 0; t < d->nt; t++) {
        const Mono *m = &d->t[t];
        int64_t term = m->coef;
        for (uint32_t j = 0; j < m->nf; j++) {
            int64_t f;
            if (m->f[j].var) {
                if (m->f[j].var != v)
                    return 0;
                f = x;
            } else {
                int64_t num, den;
                if (!eval_at(c, m->f[j].div->num, v, x, &num) || !eval_at(c, m->f[j].div->den, v, x, &den) || den <= 0)
                    return 0;
                f = num / den - (num % den != 0 && num < 0);
            }
            for (uint32_t q = 0; q < m->f[j].pow; q++)
                if (__builtin_mul_overflow(term, f, &term))
                    return 0;
        }
        if (__builtin_add_overflow(sum, term, &sum))
            return 0;
    }
    *out = sum;
    return 1;
}

static int negative_at(Ctx *c, Dim *d, DVar *v, int64_t val)
{
    int64_t x;
    return eval_at(c, d, v, val, &x) && x < 0;
}

/* The sizes of d (floor divisions included), up to two: the first
 * returned, *several = 0 for one, 1 for two (*second), 2 for more. */
static DVar *sizes_in(Ctx *c, Dim *d, DVar *one, DVar **second, int *several)
{
    d = dim_norm(c, d);
    for (uint32_t t = 0; t < d->nt; t++)
        for (uint32_t j = 0; j < d->t[t].nf; j++) {
            const Factor *f = &d->t[t].f[j];
            if (f->var) {
                if (!one)
                    one = f->var;
                else if (f->var != one && (!*second || f->var == *second)) {
                    *second = f->var;
                    if (!*several)
                        *several = 1;
                } else if (f->var != one) {
                    *several = 2;
                }
            } else {
                one = sizes_in(c, f->div->num, one, second, several);
                one = sizes_in(c, f->div->den, one, second, several);
            }
        }
    return one;
}

/* d's value with v at x and u at y (as eval_at, two sizes). */
static int eval_at2(Ctx *c, Dim *d, DVar *v, int64_t x, DVar *u, int64_t y, int64_t *out)
{
    d = dim_norm(c, d);
    int64_t sum = 0;
    for (uint32_t t = 0; t < d->nt; t++) {
        const Mono *m = &d->t[t];
        int64_t term = m->coef;
        for (uint32_t j = 0; j < m->nf; j++) {
            int64_t f;
            if (m->f[j].var) {
                if (m->f[j].var != v && m->f[j].var != u)
                    return 0;
                f = m->f[j].var == v ? x : y;
            } else {
                int64_t num, den;
                if (!eval_at2(c, m->f[j].div->num, v, x, u, y, &num) || !eval_at2(c, m->f[j].div->den, v, x, u, y, &den) ||
                    den <= 0)
                    return 0;
                f = num / den - (num % den != 0 && num < 0);
            }
            for (uint32_t q = 0; q < m->f[j].pow; q++)
                if (__builtin_mul_overflow(term, f, &term))
                    return 0;
        }
        if (__builtin_add_overflow(sum, term, &sum))
            return 0;
    }
    *out = sum;
    return 1;
}

/* p = 0 in one size v, floor divisions included (`(h + 1) / 2 - h`),
 * solved by trying the sizes 0 .. SCAN: degenerate when p keeps away from 0
 * over the upper half (it grows) and is 0 at a few sizes only; their list
 * in *when. */
enum { SCAN = 1024, FEW = 4 };
static int scan_one(Ctx *c, Namer *nm, Dim *p, DVar *v, const char **when, DVar **only, int64_t *val)
{
    int64_t zeros[FEW], x;
    int nz = 0;
    for (int64_t i = 0; i <= SCAN; i++) {
        if (!eval_at(c, p, v, i, &x))
            return 0;
        if (x == 0) {
            if (i > SCAN / 2 || nz == FEW)
                return 0;               /* a family, or too many to say */
            zeros[nz++] = i;
        }
    }
    if (nz == 0)
        return 1;
    Buf b;
    buf_init(&b, c->arena);
    const char *name = pr_dim_str(nm, dim_of_var(c, v, NULL));
    for (int i = 0; i < nz; i++)
        buf_printf(&b, "%s%s = %lld", i ? " or " : "", name, (long long)zeros[i]);
    *when = buf_str(&b);
    if (nz == 1) {
        *only = v;
        *val = zeros[0];
    }
    return 2;
}

/* Whether a dimension mentions a name of the item (stamp: mark_names). */
static int mentions_name(Dim *d, uint32_t stamp)
{
    for (uint32_t t = 0; t < d->nt; t++)
        for (uint32_t j = 0; j < d->t[t].nf; j++)
            if (d->t[t].f[j].var ? dim_name(stamp, d->t[t].f[j].var) != NULL
                                 : mentions_name(d->t[t].f[j].div->num, stamp) || mentions_name(d->t[t].f[j].div->den, stamp))
                return 1;
    return 0;
}

/* p = 0 in two sizes, tried over 0 .. SCAN2 each: degenerate where it
 * holds at a few pairs only, none of them large (`h * w + 35 = 6 * h + 6 *
 * w` only at h = w = 7). */
enum { SCAN2 = 96 };
static int scan_two(Ctx *c, Namer *nm, Dim *p, DVar *v, DVar *u, const char **when)
{
    int64_t zx[FEW], zy[FEW], r;
    int nz = 0;
    for (int64_t i = 0; i <= SCAN2; i++)
        for (int64_t j = 0; j <= SCAN2; j++) {
            if (!eval_at2(c, p, v, i, u, j, &r))
                return 0;
            if (r == 0) {
                if (i > SCAN2 / 2 || j > SCAN2 / 2 || nz == FEW)
                    return 0;
                zx[nz] = i;
                zy[nz++] = j;
            }
        }
    if (nz == 0)
        return 0;
    Buf b;
    buf_init(&b, c->arena);
    const char *vn = pr_dim_str(nm, dim_of_var(c, v, NULL)), *un = pr_dim_str(nm, dim_of_var(c, u, NULL));
    for (int i = 0; i < nz; i++)
        buf_printf(&b, "%s%s = %lld and %s = %lld", i ? " or " : "", vn, (long long)zx[i], un, (long long)zy[i]);
    *when = buf_str(&b);
    return 1;
}

/* How p = 0 can hold, for sizes >= 0: 0 for a family of solutions (not
 * degenerate); 1 never (p a nonzero constant); 2 only at degenerate sizes,
 * said in *when: where the sizes cancelled from p are 0 (`y = 0`), where
 * its one size is one value (`h = 5`), where a product is a constant
 * (`h * w = 1`).  *v, *val: the one size and its value, where it is one. */
static int degenerate_eq(Ctx *c, Namer *nm, Dim *diff, const char **when, DVar **v, int64_t *val)
{
    Dim *m;
    Dim *p = simp_cancel(c, diff, &m);
    int64_t k;
    *v = NULL;
    if (p->ragged || p->nt == 0)
        return 0;
    int64_t mk;
    if (m && dim_is_const(m, &mk))
        m = NULL;
    if (dim_is_const(p, &k)) {
        if (!m)
            return 1;
        *when = ar_printf(c->arena, "%s = 0", pr_dim_str(nm, m));
        return 2;
    }
    int several = 0;
    DVar *second = NULL;
    DVar *one = sizes_in(c, p, NULL, &second, &several);
    if (one && !several)
        return scan_one(c, nm, p, one, when, v, val);
    if (p->nt == 1 && p->t[0].nf > 0) {     /* a product: one of its factors is 0 */
        *when = ar_printf(c->arena, "%s = 0", pr_dim_str(nm, p));
        return 2;
    }
    if (one && several == 1 && scan_two(c, nm, p, one, second, when))
        return 2;
    /* a product of sizes (or floor divisions) against a constant */
    int product = p->nt == 2 && p->t[1].nf == 0 && p->t[0].nf > 0 && (p->t[0].coef > 0) != (p->t[1].coef > 0);
    int single = 0;
    if (!product)
        return 0;
    if (single && p->nt == 2 && p->t[0].nf == 1 && p->t[0].f[0].pow == 1 && p->t[1].nf == 0) {
        if (p->t[1].coef % p->t[0].coef != 0 || -p->t[1].coef / p->t[0].coef < 0)
            return 1;                   /* a * v + b = 0 has no size v */
        *v = one;
        *val = -p->t[1].coef / p->t[0].coef;
    }
    Dim *l = p, *r = dim_const(c, 0, NULL);
    SimpMod mod;
    int is_mod;
    if (!simp_equation(c, &l, &r, &mod, &is_mod) || is_mod)
        return 0;
    *when = ar_printf(c->arena, "%s = %s", pr_dim_str(nm, l), pr_dim_str(nm, r));
    return 2;
}

/* Whether every way (an equation's difference = 0) holds only at
 * degenerate sizes; *when: the ways that can, where no operand is then
 * negative. */
static int degenerate_ways(Ctx *c, Namer *nm, const PtrVec *eqs, const PtrVec *ops, const char **when)
{
    if (c->overflow || !eqs->n)
        return 0;
    Buf b;
    buf_init(&b, c->arena);
    for (int i = 0; i < eqs->n; i++) {
        const char *w;
        DVar *v;
        int64_t val;
        int how = degenerate_eq(c, nm, eqs->items[i], &w, &v, &val);
        if (how == 0)
            return 0;
        int valid = how == 2;
        for (int j = 0; valid && v && j < ops->n; j++)
            valid = !negative_at(c, ops->items[j], v, val);
        if (valid && !strstr(buf_str(&b), w))
            buf_printf(&b, "%s%s", b.n ? " or " : "", w);
    }
    *when = b.n ? buf_str(&b) : "no sizes";
    return 1;
}

/* broadcast(x, y) holds where x = y, x = 1 or y = 1; broadcast(ops) = r
 * where each operand is 1 or r.  Degenerate where no way holds for a
 * family of sizes: *when says the ways that can (`h = 5`). */
static int degenerate_bcast(Ctx *c, Namer *nm, Constraint *k, const char **when)
{
    Dim *r = k->dres->link ? dim_norm(c, dim_of_var(c, k->dres, NULL)) : NULL;
    Dim *one = dim_const(c, 1, NULL);
    PtrVec eqs = { 0 }, ops = { 0 };        /* the ways, each an equation's difference */
    for (int i = 0; i < k->ops.n; i++)
        pv_push(c->arena, &ops, dim_norm(c, k->ops.items[i]));
    if (ops.n == 2) {               /* (with r too: the two must fit each other) */
        pv_push(c->arena, &eqs, dim_sub(c, ops.items[0], ops.items[1], NULL));
        pv_push(c->arena, &eqs, dim_sub(c, ops.items[0], one, NULL));
        pv_push(c->arena, &eqs, dim_sub(c, ops.items[1], one, NULL));
    }
    if (r && ops.n == 2 && !degenerate_ways(c, nm, &eqs, &ops, when))
        eqs.n = 0;                  /* they fit: then against r */
    else if (ops.n == 2)
        return degenerate_ways(c, nm, &eqs, &ops, when);
    for (int i = 0; r && i < ops.n && !eqs.n; i++) {
        /* the first operand that is neither r nor 1 whatever the sizes */
        Dim *x = ops.items[i];
        int64_t z;
        Dim *d1 = dim_sub(c, x, r, NULL), *d2 = dim_sub(c, x, one, NULL);
        if (dim_is_const(d1, &z) && z == 0)
            continue;
        pv_push(c->arena, &eqs, d1);
        pv_push(c->arena, &eqs, d2);
    }
    return degenerate_ways(c, nm, &eqs, &ops, when);
}

/* An equation that, its common sizes cancelled, says two names of the
 * item are one size (`b * n * h * k = b * n * g * k`: h = g): the two-names
 * warning, for a residual. */
static void names_equal_in(Ctx *c, const Item *it, Constraint *k, Dim *diff, uint32_t stamp)
{
    Dim *p = simp_cancel(c, diff, NULL);
    if (p->nt != 2 || p->t[0].nf != 1 || p->t[1].nf != 1 || p->t[0].coef + p->t[1].coef != 0 ||
        mag64(p->t[0].coef) != 1 || !p->t[0].f[0].var || !p->t[1].f[0].var || p->t[0].f[0].pow != 1 ||
        p->t[1].f[0].pow != 1)
        return;
    const ScopeName *a = dim_name(stamp, p->t[0].f[0].var), *b = dim_name(stamp, p->t[1].f[0].var);
    if (!a || !b || (k->why && origin_clause(k->why) && k->why->kind == OW_TEXT && in_item(k->why, it)))
        return;                     /* (a `where h = g` of the item's own: said on purpose) */
    Loc at = k->why && k->why->loc.src && !k->why->loc.src->builtin ? k->why->loc : it->name_loc;
    diag_warning(c->diag, at, "'%s' and '%s' are two names for one size: %s makes the signature say `%s = %s`",
                 a->name, b->name, k->why ? origin_text(c, k->why) : "the program", a->name, b->name);
    diag_note(c->diag, a->loc, "'%s' is written here", a->name);
    diag_note(c->diag, b->loc, "'%s' is written here", b->name);
    diag_note_plain(c->diag, "if they are two sizes, an operand has the other's width (a reshape to the wrong "
                             "count, a weight of another layout); if they are one, write one name for both");
}

static void degenerate_residuals(Ctx *c, const Item *it, Scope *sc, const Scheme *s)
{
    /* every size as inference left it, without the rewrite rules that the
     * residuals themselves made (`c / 2 = 4 * (c / 2)` rewrites c / 2 to 0) */
    Rewrite *rules = c->rewrites;
    c->rewrites = NULL;
    uint32_t stamp;
    mark_names(c, sc, &stamp);
    Namer nm;
    namer_init(&nm, c, 1);
    for (int i = 0; i < s->cons.n; i++) {
        Constraint *k = s->cons.items[i];
        if (k->done)
            continue;
        const char *when = NULL;
        int hit = 0;
        int saved = c->overflow;
        if (k->kind == C_EQ_DIM) {
            /* (one that made a rewrite rule, `c / 2 = 4 * (c / 2)`: the
             * term it fixes against its value) */
            Dim *diff = dim_sub(c, dim_norm_raw(c, k->l), dim_norm_raw(c, k->r), NULL);
            DVar *v;
            int64_t val;
            hit = !c->overflow && mentions_name(diff, stamp) && degenerate_eq(c, &nm, diff, &when, &v, &val) == 2;
            if (!hit && !c->overflow)
                names_equal_in(c, it, k, diff, stamp);
        } else if (k->kind == C_ELEMS && k->dres->link) {     /* elements(a) = elements(b) */
            Dim *diff = dim_sub(c, dim_norm(c, dim_elements(c, k->sl, NULL)), dim_norm(c, k->dres->link), NULL);
            DVar *v;
            int64_t val;
            hit = !c->overflow && mentions_name(diff, stamp) && degenerate_eq(c, &nm, diff, &when, &v, &val) == 2;
        } else if (k->kind == C_BCAST_DIM) {
            int64_t kr;             /* (`c in {1, 3}`: the broadcast warning says it) */
            if (k->dres->link && dim_is_const(dim_norm(c, k->dres->link), &kr))
                continue;
            int named = 0;
            for (int j = 0; j < k->ops.n; j++)
                named |= mentions_name(dim_norm(c, k->ops.items[j]), stamp);
            hit = named && degenerate_bcast(c, &nm, k, &when);
        } else if (k->kind == C_NONNEG && k->clause && !k->promise) {
            /* L + K >= 0 with every term of L below 0 and K = 0: L = 0 */
            Dim *d = simp_primitive_bound(c, k->l);
            int64_t kk;
            int all_neg = d->nt > 0 && !dim_is_const(d, &kk);
            for (uint32_t t = 0; t < d->nt && all_neg; t++)
                all_neg = d->t[t].nf ? d->t[t].coef < 0 : 0;
            if (all_neg && mentions_name(d, stamp)) {
                hit = 1;
                when = ar_printf(c->arena, "%s = 0", pr_dim_str(&nm, dim_scale(c, d, -1, NULL)));
            }
        }
        c->overflow = saved;
        if (!hit)
            continue;
        Namer pn;
        namer_init(&pn, c, 1);
        Buf clause;
        buf_init(&clause, c->arena);
        pr_constraint(&pn, &clause, k);
        Loc at = k->why && k->why->loc.src && !k->why->loc.src->builtin ? k->why->loc : it->name_loc;
        if (k->kind == C_BCAST_DIM)
            diag_warning(c->diag, at, "%s broadcasts sizes that fit only if %s: `%s`",
                         k->why ? origin_text(c, k->why) : "a broadcast", when, buf_str(&clause));
        else {
            size_t wl = strlen(when);
            int same = strcmp(buf_str(&clause), when) == 0;
            int empty = wl > 4 && strcmp(when + wl - 4, " = 0") == 0 && strchr(when, '*');
            if (same)
                diag_warning(c->diag, at, "%s makes the signature say `%s`: %s", k->why ? origin_text(c, k->why)
                                                                                  : "the program",
                             buf_str(&clause), empty ? "it holds only where a tensor is empty (a size of it 0)"
                                                     : "only those sizes fit");
            else
                diag_warning(c->diag, at, "%s makes the signature say `%s`, which holds only if %s",
                             k->why ? origin_text(c, k->why) : "the program", buf_str(&clause), when);
        }
        diag_note_plain(c->diag, "sizes that must be equal for a network to make sense are usually an operand of "
                                 "another width or layout (a weight, a reshape that forgot a factor, a residual "
                                 "around unpadded convolutions)");
    }
    c->rewrites = rules;
}

void warn_item(Ctx *c, const Item *it, Scope *sc, const Scheme *s)
{
    if (!it->loc.src || it->loc.src->builtin)
        return;
    names_forced_equal(c, it, sc);
    names_forced_constant(c, it, sc);
    if (s && type_prune(s->type)->kind == TY_FUNC) {
        surviving_broadcasts(c, it, sc, s);
        degenerate_residuals(c, it, sc, s);
    }
}
