/* constraint.c - the constraints that could not be solved on the spot
 * (constraint.h): broadcasts, residual equations, non-negativity of a
 * difference, counts of a shape's axes and elements.
 *
 * A constraint watches the unbound variables it mentions (store.c); binding
 * one puts it back on the worklist, and solve_drain() looks at queued
 * constraints until none is left, so inference does not depend on the
 * order of facts.
 *
 * Broadcasting (axon-spec.md section 5), solved symbolically:
 *   broadcast(x, x) = x            broadcast(x, []) = x
 *   broadcast(p @ q, q) = p @ q    (identical trailing segments peel off)
 *   trailing axes pair up:  broadcast(s @ [m], t @ [n]) = broadcast(s, t) @ [broadcast(m, n)]
 *   dimensions:  n with n is n;  1 with n is n;  c1 with c2 (both not 1,
 *   different) FAILS;  c with symbolic n is c, and n must be 1 or c (a
 *   residual check);  two different symbolic sizes stay broadcast(m, n).
 * broadcast is associative, commutative and idempotent, so operands that
 * are themselves unresolved broadcasts are flattened into one -- while the
 * operands stay few (BCAST_FLAT_MAX): a chain of N additions of unknown
 * shapes would otherwise make N operand lists of up to N each.  Past that
 * a broadcast is an operand of the next (printing flattens it).
 */
#include <string.h>

#include "constraint.h"
#include "dim.h"
#include "print.h"
#include "types.h"

enum { BCAST_FLAT_MAX = 16 };

static void finish(Ctx *c, Constraint *k)
{
    k->done = 1;
    if (k->rewrites)
        rewrite_drop(c, k);
}

/* ---- broadcast of dimensions --------------------------------------- */

Dim *bcast_dim(Ctx *c, PtrVec ops, const Origin *why)
{
    Constraint *k = cons_new(c, C_BCAST_DIM, why);
    k->dres = dvar_new(c, NULL);
    k->dres->def = k;
    k->ops = ops;
    Dim *r = dim_of_var(c, k->dres, why);
    cons_add(c, k);
    return r;
}

static int dims_contain(Ctx *c, const PtrVec *v, Dim *d)
{
    for (int i = 0; i < v->n; i++)
        if (dim_equal(dim_norm(c, v->items[i]), d))
            return 1;
    return 0;
}

static int same_dim_set(Ctx *c, const PtrVec *a, const PtrVec *b)
{
    for (int i = 0; i < a->n; i++)
        if (!dims_contain(c, b, dim_norm(c, a->items[i])))
            return 0;
    for (int i = 0; i < b->n; i++)
        if (!dims_contain(c, a, dim_norm(c, b->items[i])))
            return 0;
    return 1;
}

/* A live broadcast, other than k, over the same operand set: among those k
 * was flattened from and those watching the first operand's variables
 * (every such broadcast watches them).  Its result is k's, whether it is a
 * definition or a check whose result is known.  A broadcast kept in a
 * scheme is a template for the instances: it is never merged with one, or
 * every instance would share its result (or its check would be lost). */
static Constraint *same_dim_def(Ctx *c, Constraint *k, const PtrVec *ops, const PtrVec *expanded)
{
    if (k->templ)
        return NULL;
    for (int i = 0; i < expanded->n; i++) {
        Constraint *d = expanded->items[i];
        if (!d->done && !d->dres->link && same_dim_set(c, &d->ops, ops))
            return d;
    }
    for (int i = 0; i < ops->n; i++) {
        Dim *d = ops->items[i];
        if (d->nt == 0 || d->t[0].nf == 0 || !d->t[0].f[0].var)
            continue;
        for (Watch *w = d->t[0].f[0].var->watch; w; w = w->next) {
            Constraint *o = w->c;
            if (o != k && !o->done && o->kind == C_BCAST_DIM && !o->templ &&
                o->ops.n == ops->n && same_dim_set(c, &o->ops, ops))
                return o;
        }
        break;
    }
    return NULL;
}

static AX_NORETURN void err_bcast_dim(Ctx *c, Constraint *k, Dim *x, Dim *y, const char *why)
{
    Namer nm;
    namer_init(&nm, c, 1);
    const char *xs = pr_dim_str(&nm, x), *ys = pr_dim_str(&nm, y);
    diag_error(c->diag, k->why->loc, "%s: cannot broadcast size %s with size %s%s%s%s",
               origin_text(c, k->why), xs, ys, why ? " (" : "", why ? why : "", why ? ")" : "");
    note_origin(c, xs, x->origin);
    if (y->origin != x->origin)
        note_origin(c, ys, y->origin);
    abandon(c);
}

static void examine_bcast_dim(Ctx *c, Constraint *k)
{
    Site site = site_of(k->why);
    PtrVec ops = { 0 }, expanded = { 0 };
    Dim *ragged = NULL;
    for (int i = 0; i < k->ops.n; i++) {
        Dim *d = dim_norm(c, k->ops.items[i]);
        DVar *v = dim_is_var(d);
        if (v && v->def && !v->def->done && v->def != k && v->def->kind == C_BCAST_DIM &&
            k->ops.n + v->def->ops.n <= BCAST_FLAT_MAX) {
            pv_push(c->arena, &expanded, v->def);
            v->def->within = k;
            for (int j = 0; j < v->def->ops.n; j++)
                pv_push(c->arena, &ops, dim_norm(c, v->def->ops.items[j]));
        } else {
            pv_push(c->arena, &ops, d);
        }
    }
    /* Drop 1s and duplicates; find the constants. */
    PtrVec kept = { 0 };
    Dim *cst = NULL;
    int nsym = 0;
    Dim *sym = NULL;
    for (int i = 0; i < ops.n; i++) {
        Dim *d = ops.items[i];
        int64_t v;
        if (d->ragged) {
            ragged = d;
            continue;
        }
        if (dim_is_const(d, &v)) {
            if (v == 1)
                continue;
            if (cst) {
                int64_t w;
                dim_is_const(cst, &w);
                if (w != v)
                    err_bcast_dim(c, k, cst, d, NULL);
                continue;
            }
            cst = d;
        } else if (dims_contain(c, &kept, d)) {
            continue;
        } else {
            nsym++;
            sym = d;
        }
        pv_push(c->arena, &kept, d);
    }
    Dim *R = dim_of_var(c, k->dres, k->why);
    if (ragged) {
        /* `*` broadcasts only with `*` and 1. */
        for (int i = 0; i < kept.n; i++)
            u_dim(c, ragged, kept.items[i], &site);
        k->ops = kept;
        u_dim(c, R, ragged, &site);
        finish(c, k);
        return;
    }
    k->ops = kept;
    /* With a constant c, each symbolic operand must be 1 or c: where only
     * one of the two is possible it is that one, where neither is, FAIL. */
    if (cst && nsym) {
        int64_t cv;
        dim_is_const(cst, &cv);
        for (int i = 0; i < kept.n; i++) {
            Dim *d = kept.items[i];
            if (d == cst)
                continue;
            int one = dim_can_equal(d, 1), full = dim_can_equal(d, cv);
            if (!one && !full)
                err_bcast_dim(c, k, d, cst,
                              ar_printf(c->arena, "it can be neither 1 nor %lld", (long long)cv));
            if (one != full && one >= 0 && full >= 0)
                u_dim(c, dim_const(c, one ? 1 : cv, k->why), d, &site);
        }
    }
    Dim *result = NULL;
    if (nsym == 0)
        result = cst ? cst : dim_const(c, 1, k->why);
    else if (cst)
        result = cst;
    else if (nsym == 1)
        result = sym;
    if (result) {
        u_dim(c, R, result, &site);
        if (nsym == 0 || (nsym == 1 && !cst))
            finish(c, k);
        else
            watch_cons(c, k);
        return;
    }
    /* Two or more different symbolic sizes: the same broadcast made
     * elsewhere (broadcast is commutative and idempotent) is this one. */
    Constraint *same = same_dim_def(c, k, &kept, &expanded);
    if (same) {
        u_dim(c, R, dim_of_var(c, same->dres, k->why), &site);
        finish(c, k);
        return;
    }
    if (k->dres->link) {
        int64_t r;
        if (dim_is_const(dim_norm(c, R), &r) && r == 1) {
            Dim *one = dim_const(c, 1, k->why);
            for (int i = 0; i < kept.n; i++)
                u_dim(c, one, kept.items[i], &site);
            finish(c, k);
            return;
        }
    }
    watch_cons(c, k);
}

/* ---- broadcast of shapes ------------------------------------------- */

Shape *bcast_shape(Ctx *c, PtrVec ops, const Origin *why)
{
    Constraint *k = cons_new(c, C_BCAST_SHAPE, why);
    k->sres = svar_new(c, NULL);
    k->sres->def = k;
    k->ops = ops;
    Shape *r = shape_of_var(c, k->sres, why);
    cons_add(c, k);
    return r;
}

static int shapes_contain(Ctx *c, const PtrVec *v, Shape *s)
{
    for (int i = 0; i < v->n; i++)
        if (shape_equal(c, v->items[i], s))     /* (it normalises both) */
            return 1;
    return 0;
}

static int same_shape_set(Ctx *c, const PtrVec *a, const PtrVec *b)
{
    for (int i = 0; i < a->n; i++)
        if (!shapes_contain(c, b, shape_norm(c, a->items[i])))
            return 0;
    for (int i = 0; i < b->n; i++)
        if (!shapes_contain(c, a, shape_norm(c, b->items[i])))
            return 0;
    return 1;
}

/* As same_dim_def, for shapes. */
static Constraint *same_shape_def(Ctx *c, Constraint *k, const PtrVec *ops, const PtrVec *expanded)
{
    if (k->templ)
        return NULL;
    for (int i = 0; i < expanded->n; i++) {
        Constraint *d = expanded->items[i];
        if (!d->done && !d->sres->link && same_shape_set(c, &d->ops, ops))
            return d;
    }
    for (int i = 0; i < ops->n; i++) {
        Shape *s = ops->items[i];
        SVar *v = NULL;
        for (uint32_t j = 0; j < s->n && !v; j++)
            v = s->s[j].var;
        if (!v)
            continue;
        for (Watch *w = v->watch; w; w = w->next) {
            Constraint *o = w->c;
            if (o != k && !o->done && o->kind == C_BCAST_SHAPE && !o->templ &&
                o->ops.n == ops->n && same_shape_set(c, &o->ops, ops))
                return o;
        }
        break;
    }
    return NULL;
}

/* Drops empty operands and duplicates. */
static PtrVec tidy_shapes(Ctx *c, PtrVec ops)
{
    PtrVec out = { 0 };
    for (int i = 0; i < ops.n; i++) {
        Shape *s = shape_norm(c, ops.items[i]);
        if (s->n == 0 || shapes_contain(c, &out, s))
            continue;
        pv_push(c->arena, &out, s);
    }
    return out;
}

static void examine_bcast_shape(Ctx *c, Constraint *k)
{
    Site site = site_of(k->why);
    PtrVec ops = { 0 }, expanded = { 0 };
    for (int i = 0; i < k->ops.n; i++) {
        Shape *s = shape_norm(c, k->ops.items[i]);
        SVar *v = s->n == 1 ? s->s[0].var : NULL;
        if (v && v->def && !v->def->done && v->def != k && v->def->kind == C_BCAST_SHAPE &&
            k->ops.n + v->def->ops.n <= BCAST_FLAT_MAX) {
            pv_push(c->arena, &expanded, v->def);
            v->def->within = k;
            for (int j = 0; j < v->def->ops.n; j++)
                pv_push(c->arena, &ops, v->def->ops.items[j]);
        } else {
            pv_push(c->arena, &ops, s);
        }
    }
    ops = tidy_shapes(c, ops);
    /* Peel trailing segments: identical shape variables, or dimensions. */
    PtrVec suffix = { 0 };                  /* in reverse order */
    for (;;) {
        if (ops.n <= 1)
            break;
        int all_dims = 1, same_var = 1;
        SVar *var = NULL;
        for (int i = 0; i < ops.n; i++) {
            Shape *s = ops.items[i];
            Seg *last = &s->s[s->n - 1];
            if (!last->dim)
                all_dims = 0;
            if (!last->var || (var && last->var != var))
                same_var = 0;
            if (last->var)
                var = last->var;
        }
        if (!all_dims && !same_var)
            break;
        PtrVec dims = { 0 };
        for (int i = 0; i < ops.n; i++) {
            Shape *s = ops.items[i];
            if (all_dims)
                pv_push(c->arena, &dims, s->s[s->n - 1].dim);
            ops.items[i] = shape_slice(c, s, 0, s->n - 1, s->origin);
        }
        Seg *seg = ar_alloc(c->arena, sizeof *seg);
        if (all_dims)
            seg->dim = bcast_dim(c, dims, k->why);
        else
            seg->var = var;
        pv_push(c->arena, &suffix, seg);
        ops = tidy_shapes(c, ops);
    }
    Shape *prefix;
    if (ops.n == 0) {
        prefix = shape_new(c, 0, k->why);
    } else if (ops.n == 1) {
        prefix = ops.items[0];
    } else {
        Constraint *same = suffix.n == 0 ? same_shape_def(c, k, &ops, &expanded) : NULL;
        if (same) {
            prefix = shape_of_var(c, same->sres, k->why);
        } else if (suffix.n == 0) {
            k->ops = ops;                   /* nothing to do until more is known */
            watch_cons(c, k);
            return;
        } else {
            prefix = bcast_shape(c, ops, k->why);
        }
    }
    Shape *tail = shape_new(c, (uint32_t)suffix.n, k->why);
    for (int i = 0; i < suffix.n; i++)
        tail->s[i] = *(Seg *)suffix.items[suffix.n - 1 - i];
    finish(c, k);
    u_shape(c, shape_of_var(c, k->sres, k->why), shape_concat(c, prefix, tail, k->why), &site);
}

/* ---- elements(s) and rank(s) --------------------------------------- */

/* Spec section 5b, expanding as s becomes known:
 *   elements([]) = 1    elements([n] @ s) = n * elements(s)
 *   rank([]) = 0        rank([n] @ s) = 1 + rank(s)
 *   elements(s1 @ s2) = elements(s1) * elements(s2), rank alike
 * A shape variable's count is a variable that its C_ELEMS / C_RANK
 * defines (printed `elements(s)`), made at the shape variable's level.
 * elements of a shape with a ragged size (`*`) is ragged. */
enum { RANK_FIX_MAX = 1 << 16 };   /* rank(p) = k makes k sizes: at most this */

/* Makes new variables at shape variable v's level (if outer): returns
 * the level to restore. */
static int at_level_of(Ctx *c, const SVar *v)
{
    int saved = c->level;
    if (v->level != GENERIC && v->level < c->level)
        c->level = v->level;
    return saved;
}

static Dim *count_of_var(Ctx *c, CKind kind, SVar *v, const Origin *why)
{
    Constraint *k = cons_new(c, kind, why);
    int saved = at_level_of(c, v);
    k->dres = dvar_new(c, NULL);
    k->dres->def = k;
    k->sl = shape_of_var(c, v, why);
    Dim *r = dim_of_var(c, k->dres, why);
    cons_add(c, k);
    c->level = saved;
    return r;
}

/* The product of the counts of s's segments lo .. hi - 1, halves first: a
 * product of K sizes copies each factor log K times, not K (`elements(s)`
 * of a rank(s) = 65536 is a monomial of 65536 factors). */
static Dim *count_product(Ctx *c, Shape *s, uint32_t lo, uint32_t hi, const Origin *why)
{
    if (hi - lo == 1) {
        Seg *g = &s->s[lo];
        return g->var ? count_of_var(c, C_ELEMS, g->var, why) : dim_norm(c, g->dim);
    }
    uint32_t mid = lo + (hi - lo) / 2;
    Dim *l = count_product(c, s, lo, mid, why), *r = count_product(c, s, mid, hi, why);
    return l->ragged || r->ragged ? dim_ragged(c, why) : dim_mul(c, l, r, why);
}

static Dim *shape_count(Ctx *c, CKind kind, Shape *s, const Origin *why)
{
    s = shape_norm(c, s);
    if (kind == C_ELEMS)
        return s->n ? count_product(c, s, 0, s->n, why) : dim_const(c, 1, why);
    Dim *r = dim_const(c, 0, why);
    for (uint32_t i = 0; i < s->n; i++) {
        Seg *g = &s->s[i];
        r = dim_add(c, r, g->var ? count_of_var(c, kind, g->var, why) : dim_const(c, 1, why), why);
    }
    return r;
}

Dim *dim_elements(Ctx *c, Shape *s, const Origin *why) { return shape_count(c, C_ELEMS, s, why); }
Dim *dim_rank(Ctx *c, Shape *s, const Origin *why) { return shape_count(c, C_RANK, s, why); }

/* rank(p) = k with k known: p is k fresh sizes. */
static void fix_rank(Ctx *c, Constraint *k, SVar *v, int64_t r, const Site *site)
{
    Namer nm;
    namer_init(&nm, c, 1);
    const char *sv = pr_shape_str(&nm, k->sl);
    if (r < 0)
        type_error(c, k->why->loc, "%s: rank(%s) would be %lld, but a rank is at least 0", origin_text(c, k->why),
                   sv, (long long)r);
    if (r > RANK_FIX_MAX)
        type_error(c, k->why->loc, "%s: rank(%s) would be %lld, more axes than axonc supports (%d)",
                   origin_text(c, k->why), sv, (long long)r, RANK_FIX_MAX);
    int saved = at_level_of(c, v);
    Shape *fresh = shape_new(c, (uint32_t)r, k->why);
    for (uint32_t i = 0; i < (uint32_t)r; i++)
        fresh->s[i].dim = dim_of_var(c, dvar_new(c, NULL), k->why);
    c->level = saved;
    finish(c, k);
    u_shape(c, shape_of_var(c, v, k->why), fresh, site);
}

/* "reshape: the clause `where elements(a) = elements(b)` does not hold:
 * elements([6, 4]) is 24, expected 25", and where the shape came from. */
static AX_NORETURN void err_count(Ctx *c, Constraint *k, Shape *s, int64_t have, int64_t want)
{
    Namer nm;
    namer_init(&nm, c, 1);
    const char *st = pr_shape_str(&nm, s);
    const char *fn = k->kind == C_ELEMS ? "elements" : "rank";
    if (k->clause)
        diag_error(c->diag, k->why->loc, "%s: the clause `where %s` does not hold: %s(%s) is %lld, expected %lld",
                   origin_text(c, k->why), k->clause, fn, st, (long long)have, (long long)want);
    else
        diag_error(c->diag, k->why->loc, "%s: %s(%s) is %lld, expected %lld", origin_text(c, k->why), fn, st,
                   (long long)have, (long long)want);
    note_origin(c, st, s->origin);
    abandon(c);
}

/* k is done, and its value is val: a definition's variable is replaced by
 * it (not the other way round, as unifying two variables might: the
 * value's own counts survive); a bound result is an equation. */
static void count_is(Ctx *c, Constraint *k, Dim *val, const Site *site)
{
    finish(c, k);
    if (!k->dres->link && !dim_mentions(dim_norm(c, val), k->dres))
        bind_dvar(c, k->dres, val, k->why);
    else
        u_dim(c, dim_of_var(c, k->dres, k->why), val, site);
}

/* An axis clause with a negative axis a (`[-1]`): the shape after the
 * axis has -1 - a sizes (and the shape before it what the argument
 * leaves). */
static void fix_axis_from_end(Ctx *c, Constraint *k, int64_t a, const Site *site);

/* An axis clause, rank(p) = k (spec section 5b: `[-1]` counts from the
 * last axis): a constant k >= 0 is rank(p), a negative one fixes the
 * shape after the axis.  A k that is an expression of sizes (`[n - 1]`,
 * `[rank(s)]`) is a size, counted from 0 (decision: docs/language.md):
 * the clause is an equation.  While k is a lone variable it waits: an
 * operator's k is bound to its argument only after the tensors are
 * unified (which may fix rank(p) first), and a dims parameter's k stays
 * to run time, where the header counts it from 0 (plan.c). */
static void examine_axis(Ctx *c, Constraint *k)
{
    Site site = site_of(k->why);
    Dim *kd = dim_norm(c, k->r);
    int64_t a;
    if (dim_is_const(kd, &a) && a < 0) {
        fix_axis_from_end(c, k, a, &site);
        return;
    }
    DVar *kv = dim_is_var(kd);
    if (kv && !kv->def) {
        watch_cons(c, k);
        return;
    }
    finish(c, k);
    u_dim(c, k->l, k->r, &site);
}

static void fix_axis_from_end(Ctx *c, Constraint *k, int64_t a, const Site *site)
{
    if (a < -(int64_t)RANK_FIX_MAX)
        type_error(c, k->why->loc, "%s: axis %lld counts back more axes than axonc supports (%d)",
                   origin_text(c, k->why), (long long)a, RANK_FIX_MAX);
    uint32_t n = (uint32_t)(-1 - a);
    Shape *after = shape_norm(c, k->sr);
    int saved = after->n == 1 && after->s[0].var ? at_level_of(c, after->s[0].var) : c->level;
    Shape *fresh = shape_new(c, n, k->why);
    for (uint32_t i = 0; i < n; i++)
        fresh->s[i].dim = dim_of_var(c, dvar_new(c, NULL), k->why);
    c->level = saved;
    finish(c, k);
    u_shape(c, k->sr, fresh, site);
}

static void examine_count(Ctx *c, Constraint *k)
{
    Site site = site_of(k->why);
    Shape *s = shape_norm(c, k->sl);
    if (s->n == 1 && s->s[0].var) {
        SVar *v = s->s[0].var;
        int64_t r;
        if (k->kind == C_RANK && dim_is_const(dim_norm(c, dim_of_var(c, k->dres, k->why)), &r)) {
            fix_rank(c, k, v, r, &site);
            return;
        }
        /* The same count of the same variable, made elsewhere: the two
         * results are equal and one constraint is enough (templates of a
         * scheme excepted, as for broadcasts). */
        for (Watch *w = v->watch; w && !k->templ; w = w->next) {
            Constraint *o = w->c;
            if (o == k || o->done || o->kind != k->kind || o->templ)
                continue;
            Shape *os = shape_norm(c, o->sl);
            if (os->n == 1 && os->s[0].var == v) {
                count_is(c, k, dim_of_var(c, o->dres, o->why), &site);
                return;
            }
        }
        k->sl = s;
        watch_cons(c, k);
        return;
    }
    Dim *val = shape_count(c, k->kind, s, k->why);
    check_overflow(c, &site);
    if (k->kind == C_ELEMS)
        require_fits(c, val, k->why);   /* a count is a size: it fits in int64 */
    int64_t have, want;
    if (k->dres->link && dim_is_const(dim_norm(c, val), &have) &&
        dim_is_const(dim_norm(c, dim_of_var(c, k->dres, k->why)), &want) && have != want)
        err_count(c, k, s, have, want);
    count_is(c, k, val, &site);
}

/* C_FITS are kept once per size: the same size checked by a constraint
 * at this level or an enclosing one needs no other (the two share their
 * variables, so they would be generalised or settled alike).  A trivial
 * size (a constant, whose arithmetic is checked as it is made, or a lone
 * size) needs none. */
/* The map (made on first use) of live constraints of one kind by their
 * dimension: c->fits, c->nonneg. */
static DimMap *by_dim(Ctx *c, void **slot)
{
    if (!*slot) {
        *slot = ar_alloc(c->arena, sizeof(DimMap));
        dm_init(*slot, c->arena, 0);
    }
    return *slot;
}

/* Whether o, kept for a dimension, still says it for a constraint made at
 * `level`: live, not a scheme's template, at this level or an enclosing one
 * (the two share their variables, so they are generalised or settled alike). */
static int covers(const Constraint *o, int level)
{
    return o && !o->done && !o->templ && o->level <= level;
}

int fits_needed(Ctx *c, Dim *d)
{
    d = dim_norm(c, d);
    int64_t v;
    if (c->overflow || d->ragged || dim_is_const(d, &v) || dim_is_var(d))
        return 0;
    return !covers(dm_get(by_dim(c, &c->fits), d), c->level);
}

void fits_note(Ctx *c, Constraint *k)
{
    dm_put(by_dim(c, &c->fits), dim_norm(c, k->l), k);
}

void require_fits(Ctx *c, Dim *d, const Origin *why)
{
    if (!fits_needed(c, d))
        return;
    Constraint *k = cons_new(c, C_FITS, why);
    k->l = d;
    fits_note(c, k);
    cons_add(c, k);
}

void require_nonneg(Ctx *c, Dim *d, const Origin *why)
{
    Constraint *k = cons_new(c, C_NONNEG, why);
    k->l = d;
    cons_add(c, k);
}

/* "'conv' gives a negative size: 5 - 7 + 1 = -1", the expression as the
 * rule wrote it with each size's value in place, and where each came from. */
static AX_NORETURN void err_negative(Ctx *c, Constraint *k, int64_t v)
{
    Namer nm;
    namer_init(&nm, c, 1);
    Buf b;
    buf_init(&b, c->arena);
    const Dim *e = k->r ? k->r : k->l;
    PtrVec vars = { 0 };
    for (uint32_t i = 0; i < e->nt; i++) {
        const Mono *m = &e->t[i];
        int64_t coef = m->coef;
        uint64_t mag = mag64(coef);
        buf_puts(&b, i == 0 ? (coef < 0 ? "-" : "") : coef < 0 ? " - " : " + ");
        if (m->nf == 0 || mag != 1)
            buf_printf(&b, "%llu%s", (unsigned long long)mag, m->nf ? " * " : "");
        for (uint32_t j = 0; j < m->nf; j++) {
            const Factor *f = &m->f[j];
            Dim *x = f->var ? dim_norm(c, dim_of_var(c, f->var, NULL)) : NULL;
            if (j)
                buf_puts(&b, " * ");
            if (x) {
                int64_t kv;
                int simple = dim_is_const(x, &kv) && kv >= 0;
                buf_printf(&b, simple ? "%s" : "(%s)", pr_dim_str(&nm, x));
                if (f->var->link)
                    pv_push(c->arena, &vars, x);
            } else {
                buf_printf(&b, "(%s / %s)", pr_dim_str(&nm, f->div->num), pr_dim_str(&nm, f->div->den));
            }
        }
    }
    if (k->clause)
        diag_error(c->diag, k->why->loc, "%s: the clause `where %s` does not hold (%s is %lld)",
                   origin_text(c, k->why), k->clause, k->clause_diff, (long long)v);
    else if (strcmp(buf_str(&b), ar_printf(c->arena, "%lld", (long long)v)) == 0)
        diag_error(c->diag, k->why->loc, "%s gives a negative size, %lld%s", origin_text(c, k->why), (long long)v,
                   k->why->kind == OW_TEXT ? " (only an axis argument counts back from the end)" : "");
    else
        diag_error(c->diag, k->why->loc, "%s gives a negative size: %s = %lld", origin_text(c, k->why), buf_str(&b),
                   (long long)v);
    for (int i = 0; i < vars.n; i++) {
        Dim *x = vars.items[i];
        int dup = 0;
        for (int j = 0; j < i; j++)
            if (((Dim *)vars.items[j])->origin == x->origin)
                dup = 1;
        if (!dup)
            note_origin(c, pr_dim_str(&nm, x), x->origin);
    }
    abandon(c);
}

/* A waiting `d >= 0` the same as one at this level or an enclosing one
 * (of the same kind: a clause or not, a promise or not) adds nothing: every
 * 3x3 convolution of a stage at full resolution says `1 <= h`, and each
 * would otherwise watch h (a list that each new one walks).  Nor does one
 * that an operation's promise says already (`slice(x, [0], [m], [n])` of an
 * m = nonzero(x)'s `?` needs `n - ? >= 0`, which nonzero's `? <= n`
 * promises): the operation keeps it. */
static int same_nonneg(Ctx *c, Constraint *k, Dim *d)
{
    if (k->templ)
        return 0;
    DimMap *m = by_dim(c, &c->nonneg);
    Constraint *o = dm_get(m, d);
    if (o != k && covers(o, k->level) && dim_equal(dim_norm(c, o->l), d) &&
        ((!o->clause == !k->clause && o->promise == k->promise) || (o->promise && !k->promise)))
        return 1;
    dm_put(m, d, k);
    return 0;
}

/* ---- bounds -----------------------------------------------------------
 * A `d >= 0` is L + k >= 0 with k its constant: with g the gcd of L's
 * coefficients, L / g + floor(k / g) >= 0 says the same of the primitive
 * L / g (sizes are integers).  For each primitive L the tightest such bound
 * is kept (Bound, by L): a bound that a covering one implies adds nothing
 * (`where n <= 512` after `where n <= 64`, `n <= m + 5` after `n <= m`:
 * 100,000 clauses stay linear, and print the one that matters); one of the
 * same level that the new one implies is settled; and L >= a with -L >= b
 * that cannot both hold (`where n <= 3, 4 <= n`, `7 <= 2 * n` with
 * `n <= 3`) is an error here, not a header that rejects every input. */
typedef struct Bound {      /* the tightest live L + val >= 0 of a kind */
    Constraint *k;
    int64_t val;
} Bound;

typedef struct Bounds2 {    /* by kind: a clause prints, a rule's does not */
    Bound clause, rule;
} Bounds2;

static int64_t gcd64(int64_t a, int64_t b)
{
    uint64_t x = mag64(a), y = mag64(b);
    while (y) {
        uint64_t t = x % y;
        x = y;
        y = t;
    }
    return x > (uint64_t)INT64_MAX ? 0 : (int64_t)x;
}

static int64_t floor_div64(int64_t x, int64_t y)      /* y > 0 */
{
    int64_t q = x / y;
    return q * y > x ? q - 1 : q;
}

/* d as L + val >= 0 with L primitive (no constant, coefficients of gcd 1):
 * L, or NULL (d constant, or a gcd past int64). */
static Dim *primitive(Ctx *c, Dim *d, int64_t *val)
{
    int64_t g = 0, k = 0;
    uint32_t n = 0;
    for (uint32_t i = 0; i < d->nt; i++) {
        if (d->t[i].nf == 0)
            k = d->t[i].coef;
        else
            g = gcd64(g, d->t[i].coef), n++;
    }
    if (n == 0 || g == 0)
        return NULL;
    Mono *m = ar_alloc(c->arena, sizeof(Mono) * n);
    n = 0;
    for (uint32_t i = 0; i < d->nt; i++)
        if (d->t[i].nf) {
            m[n] = d->t[i];
            m[n++].coef /= g;
        }
    *val = floor_div64(k, g);
    return dim_canon(c, m, n, NULL);
}

static int mentions_dyn(const Dim *d)
{
    for (uint32_t i = 0; i < d->nt; i++)
        for (uint32_t j = 0; j < d->t[i].nf; j++)
            if (!d->t[i].f[j].var || d->t[i].f[j].var->dyn)
                return 1;           /* (a floor division: not ours to bound) */
    return 0;
}

/* b's constraint, if it still says L + *val >= 0 for a constraint of
 * `level`. */
static int still_bounds(Ctx *c, const Bound *b, Dim *L, int level, int64_t *val)
{
    if (!b || !covers(b->k, level))
        return 0;
    Dim *now = primitive(c, dim_norm(c, b->k->l), val);
    return now && dim_equal(now, L);
}

/* "`where n <= 3`", or "'conv' needs n >= 4" for an operator's rule. */
static const char *bound_text(Ctx *c, Constraint *k, Dim *L, int64_t val)
{
    if (k->clause)
        return ar_printf(c->arena, "`where %s`", k->clause);
    Namer nm;
    namer_init(&nm, c, 1);
    int neg = L->t[0].coef < 0;     /* -L + val >= 0: L <= val */
    Dim *shown = neg ? dim_scale(c, L, -1, NULL) : L;
    return ar_printf(c->arena, "%s needs %s %s %lld", origin_text(c, k->why), pr_dim_str(&nm, shown),
                     neg ? "<=" : ">=", (long long)(neg ? val : -val));
}

/* k says L >= -kv, o says -L >= -ov: L would be at least -kv, at most ov. */
static AX_NORETURN void err_bounds(Ctx *c, Constraint *k, Dim *L, int64_t kv, Constraint *o, int64_t ov)
{
    Namer nm;
    namer_init(&nm, c, 1);
    int neg = L->t[0].coef < 0;
    Dim *shown = neg ? dim_scale(c, L, -1, NULL) : L;
    int64_t lo = neg ? -ov : -kv, hi = neg ? kv : ov;
    const char *ot = bound_text(c, o, dim_scale(c, L, -1, NULL), ov);
    diag_error(c->diag, k->why->loc, "%s and %s cannot both hold: %s would be at least %lld and at most %lld",
               bound_text(c, k, L, kv), ot, pr_dim_str(&nm, shown), (long long)lo, (long long)hi);
    if (o->why && o->why->loc.src)
        diag_note(c->diag, o->why->loc, "%s here", ot);
    abandon(c);
}

/* 1 when k, a bound L + val >= 0, is implied by a kept one (settled): a
 * clause by a clause (the signature prints it as written), an operator's
 * rule by either. */
static int known_bound(Ctx *c, Constraint *k, Dim *d)
{
    int64_t val, have;
    Dim *L = primitive(c, d, &val);
    if (!L || k->promise || k->templ || mentions_dyn(L))
        return 0;
    DimMap *m = by_dim(c, &c->bounds);
    Dim *neg = dim_scale(c, L, -1, NULL);
    Bounds2 *o = dm_get(m, neg);
    for (int i = 0; o && i < 2; i++) {
        Bound *ob = i ? &o->rule : &o->clause;
        if (ob->k != k && still_bounds(c, ob, neg, k->level, &have) && val + have < 0 && !c->overflow)
            err_bounds(c, k, L, val, ob->k, have);
    }
    c->overflow = 0;
    Bounds2 *b2 = dm_get(m, L);
    if (!b2) {
        b2 = ar_alloc(c->arena, sizeof *b2);
        dm_put(m, L, b2);
    }
    /* (a bound kept by k itself, examined again after a binding made its
     * size another's, is no evidence for k) */
    if (b2->clause.k != k && still_bounds(c, &b2->clause, L, k->level, &have) && have <= val)
        return 1;                       /* implied by a kept clause */
    Bound *b = k->clause ? &b2->clause : &b2->rule;
    if (b->k != k && still_bounds(c, b, L, k->level, &have)) {
        if (have <= val)
            return 1;                   /* implied by the kept one */
        if (b->k->level == k->level)
            finish(c, b->k);            /* implied by k */
    }
    b->k = k;
    b->val = val;
    return 0;
}

/* Whether a kept bound (a clause or a rule) says num >= 0; nothing kept. */
static int bound_says(Ctx *c, Constraint *k, Dim *num)
{
    int64_t val, have;
    num = dim_norm(c, num);
    if (!dim_has_neg(num))
        return 1;
    Dim *L = primitive(c, num, &val);
    if (!L || mentions_dyn(L))
        return 0;
    Bounds2 *b2 = dm_get(by_dim(c, &c->bounds), L);
    return b2 && ((still_bounds(c, &b2->clause, L, k->level, &have) && have <= val) ||
                  (still_bounds(c, &b2->rule, L, k->level, &have) && have <= val));
}

/* d >= 0 with no negative coefficient is implied when every floor
 * division in it has a numerator that a kept bound says is >= 0 (conv2d's
 * (h + 2 * p - r) / s + 1 and its clause r <= h + 2 * p). */
static int implied_through_divisions(Ctx *c, Constraint *k, Dim *d)
{
    if (k->promise || k->templ)
        return 0;
    for (uint32_t i = 0; i < d->nt; i++) {
        if (d->t[i].coef < 0)
            return 0;
        for (uint32_t j = 0; j < d->t[i].nf; j++)
            if (d->t[i].f[j].div && !bound_says(c, k, d->t[i].f[j].div->num))
                return 0;
    }
    return 1;
}

static void examine_nonneg(Ctx *c, Constraint *k)
{
    Site site = site_of(k->why);
    Dim *d = dim_norm(c, k->l);
    /* (num / den >= 0 is num >= 0: a divisor is a size, and a zero one is
     * an error of its own; the check then computes no division) */
    while (d->nt == 1 && d->t[0].coef > 0 && d->t[0].nf == 1 && d->t[0].f[0].div && d->t[0].f[0].pow == 1 &&
           !k->clause) {
        k->l = d->t[0].f[0].div->num;
        d = dim_norm(c, k->l);
    }
    check_overflow(c, &site);
    int64_t v;
    if (dim_is_const(d, &v)) {
        if (v < 0)
            err_negative(c, k, v);
        finish(c, k);
    } else if (d->ragged || !dim_has_neg(d) || same_nonneg(c, k, d) || implied_through_divisions(c, k, d) ||
               known_bound(c, k, d)) {
        finish(c, k);
    } else {
        watch_cons(c, k);
    }
}

/* A size computed from sizes: settled when it is a constant (its
 * arithmetic was checked as it was made) or stands for a single size;
 * otherwise kept for the header, not watched (no binding can break it
 * that the header would not see). */
static void examine_fits(Ctx *c, Constraint *k)
{
    Dim *d = dim_norm(c, k->l);   /* (an overflow is reported where the size was made) */
    int64_t v;
    if (c->overflow || d->ragged || dim_is_const(d, &v) || dim_is_var(d))
        finish(c, k);
}

static void examine(Ctx *c, Constraint *k)
{
    Site site = site_of(k->why);
    switch (k->kind) {
    case C_EQ_DIM:
        if (k->axis)
            examine_axis(c, k);
        else if (dim_solve(c, k->l, k->r, &site, k))
            finish(c, k);
        else
            watch_cons(c, k);
        break;
    case C_EQ_SHAPE: {
        Shape *re, *ra;
        if (u_shape_step(c, k->sl, k->sr, &site, &re, &ra)) {
            finish(c, k);
        } else {
            k->sl = re;
            k->sr = ra;
            watch_cons(c, k);
        }
        break;
    }
    case C_NONNEG:
        examine_nonneg(c, k);
        break;
    case C_DYN:
        break;                  /* a record for the header (plan.c) */
    case C_FITS:
        examine_fits(c, k);
        break;
    case C_BCAST_DIM:
        examine_bcast_dim(c, k);
        break;
    case C_BCAST_SHAPE:
        examine_bcast_shape(c, k);
        break;
    case C_ELEMS:
    case C_RANK:
        examine_count(c, k);
        break;
    }
}

void solve_drain(Ctx *c)
{
    if (c->draining)
        return;
    c->draining = 1;
    while (c->qhead < c->queue.n) {
        Constraint *k = c->queue.items[c->qhead++];
        k->queued = 0;
        if (!k->done)
            examine(c, k);
    }
    c->queue.n = 0;
    c->qhead = 0;
    c->draining = 0;
}
