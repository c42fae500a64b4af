/* emit_checks.c - each step of a shape function's plan as C
 * (emit_checks.h).  Every failing check names the Axon rule and place that
 * imposed it, the argument, the axis, the value found and the value
 * expected; messages are string literals made here, whose "{}" the runtime
 * fills with integers. */
#include "emit_checks.h"

#include <string.h>

#include "dim.h"
#include "print.h"
#include "simplify.h"
#include "solve.h"
#include "symtab.h"
#include "types.h"

/* ---- why two axes must agree ------------------------------------------- */

/* The unification nearest to u on the chain of equalities that joins u and
 * w (a breadth-first search over the BindEdges that inference recorded).
 * NULL when they are not joined. */
typedef struct Hop {
    DVar *v;
    const Origin *first;
} Hop;

static const Origin *why_equal(W *w, DVar *u, DVar *target)
{
    uint32_t stamp = ++w->c->stamp;
    PtrVec queue = { 0 };
    Hop *h = ar_alloc(w->c->arena, sizeof *h);
    h->v = u;
    u->seen_stamp = stamp;
    pv_push(w->c->arena, &queue, h);
    for (int i = 0; i < queue.n; i++) {
        Hop *at = queue.items[i];
        for (BindEdge *e = at->v->edges; e; e = e->next) {
            if (e->other->seen_stamp == stamp)
                continue;
            const Origin *first = at->first ? at->first : e->why;
            if (e->other == target)
                return first;
            e->other->seen_stamp = stamp;
            Hop *n = ar_alloc(w->c->arena, sizeof *n);
            n->v = e->other;
            n->first = first;
            pv_push(w->c->arena, &queue, n);
        }
    }
    return NULL;
}

/* The reason a dimension node holds the value it has: the unification that
 * bound its variable, else the place that made it. */
static const Origin *node_reason(Dim *orig, const Origin *fallback)
{
    DVar *v = orig ? dim_is_var(orig) : NULL;
    if (v && v->why)
        return v->why;
    return orig && orig->origin ? orig->origin : fallback;
}

/* ---- the steps ----------------------------------------------------------- */

static void w_rank(W *w, PStep *st)
{
    Arena *a = w->c->arena;
    PTensor *t = w->p->inputs.items[st->input];
    int known;
    shape_rank(st->pattern, &known);
    if (known)
        wr_fail_if(w, ar_printf(a, "in[%d].rank != %d", st->input, st->fixed), "AXON_ERR_RANK", st->why,
                ar_printf(a, "%s has rank {}, expected %d", t->desc, st->fixed), ar_printf(a, "in[%d].rank", st->input),
                NULL, NULL, NULL);
    else
        wr_fail_if(w, ar_printf(a, "in[%d].rank < %d || in[%d].rank > AXON_MAX_RANK", st->input, st->fixed, st->input),
                "AXON_ERR_RANK", st->why,
                ar_printf(a, "%s has rank {}, expected at least {} (%s) and at most AXON_MAX_RANK", t->desc,
                          wr_shape_text(w, st->pattern)),
                ar_printf(a, "in[%d].rank", st->input), ar_printf(a, "%d", st->fixed), NULL, NULL);
    if (st->pattern->n == 0)
        return;
    /* Every axis is a size (a ragged one is checked where it stands); one
     * that only a check against a size reads needs no test of its own
     * (equal to a size, it is one), where the rank is fixed. */
    if (known && !st->ragged && w->unread_axes && w->unread_axes[st->input]) {
        const char *skip = w->unread_axes[st->input];
        for (int i = 0; i < st->fixed; i++) {
            if (skip[i])
                continue;
            const char *v = ar_printf(a, "in[%d].dims[%d]", st->input, i);
            wr_fail_if(w, ar_printf(a, "%s < 0", v), "AXON_ERR_SIZE", t->at ? t->at : st->why,
                    ar_printf(a, "%s axis %d is {}, expected a size (>= 0)", t->desc, i), v, NULL, NULL, NULL);
        }
        return;
    }
    const char *j = plan_local(w->p, "i");
    wr_line(w, "for (int %s = 0; %s < %s; %s++)", j, j, known ? ar_printf(a, "%d", st->fixed) : ar_printf(a, "in[%d].rank", st->input), j);
    w->indent++;
    const char *v = ar_printf(a, "in[%d].dims[%s]", st->input, j);
    wr_fail_if(w, st->ragged ? ar_printf(a, "%s < 0 && %s != AXON_DIM_RAGGED", v, v) : ar_printf(a, "%s < 0", v),
            "AXON_ERR_SIZE", t->at ? t->at : st->why,
            ar_printf(a, "%s axis {} is {}, expected a size (>= 0)", t->desc), ar_printf(a, "(int64_t)%s", j), v, NULL,
            NULL);
    w->indent--;
}

static const char *runs_len(W *w, int fixed, const PtrVec *runs)
{
    const char *s = ar_printf(w->c->arena, "%d", fixed);
    for (int i = 0; i < runs->n; i++)
        s = ar_printf(w->c->arena, "%s + %s", s, wr_run_n(w, runs->items[i]));
    return s;
}

static void w_match(W *w, PStep *st)
{
    Arena *a = w->c->arena;
    const char *src = wr_src_c(w, st->src);
    const char *rank = ar_printf(a, "%s.rank", src);
    const char *len = runs_len(w, st->fixed, &st->runs);
    const char *pat = wr_shape_text(w, st->pattern);
    const Origin *why = st->why;
    int is_input = st->src->input >= 0;
    if (st->unknown && (!is_input || st->runs.n))
        wr_fail_if(w, ar_printf(a, "%s < %s", rank, len), "AXON_ERR_RANK", why,
                ar_printf(a, "%s has rank {}, expected at least {} (%s)%s", st->src->desc, pat,
                          is_input ? " and at most AXON_MAX_RANK" : ""),
                rank, len, NULL, NULL);
    else if (!st->unknown && (!is_input || st->runs.n))
        wr_fail_if(w, ar_printf(a, "%s != %s", rank, len), "AXON_ERR_RANK", why,
                ar_printf(a, "%s has rank {}, expected {} (%s)", st->src->desc, pat), rank, len, NULL, NULL);
    for (int i = 0; i < st->placed.n; i++) {
        SVar *v = st->placed.items[i];
        wr_decl(w, wr_run_p(w, v), ar_printf(a, "const int64_t *%s = %s.dims + (%s);", wr_run_p(w, v), src, wr_pos_c(w, &plan_run(v)->off)));
    }
    if (st->unknown) {
        PRun *r = plan_run(st->unknown);
        wr_decl(w, wr_run_p(w, st->unknown),
             ar_printf(a, "const int64_t *%s = %s.dims + (%s);", wr_run_p(w, st->unknown), src, wr_pos_c(w, &r->off)));
        wr_decl(w, wr_run_n(w, st->unknown), ar_printf(a, "int %s = %s - (%s);", wr_run_n(w, st->unknown), rank, wr_pos_c(w, &r->rest)));
    }
}

static void w_same_run(W *w, PStep *st)
{
    Arena *a = w->c->arena;
    SVar *v = st->run;
    PRun *r = plan_run(v);
    const char *name = namer_name_of(w->p->nm, &v->stamp, &v->mark);
    const char *j = plan_local(w->p, "i");
    const char *pos = wr_pos_c(w, &st->pos);
    const char *at = ar_printf(a, "%s.dims[%s + %s]", wr_src_c(w, st->src), pos, j);
    wr_line(w, "for (int %s = 0; %s < %s; %s++)", j, j, wr_run_n(w, v), j);
    w->indent++;
    const char *cond = ar_printf(a, "%s != %s[%s]", at, wr_run_p(w, v), j);
    if (st->src->maybe_unknown || r->src->maybe_unknown)   /* an unknown size matches any */
        cond = ar_printf(a, "%s && %s != AXON_DIM_UNKNOWN && %s[%s] != AXON_DIM_UNKNOWN", cond, at, wr_run_p(w, v), j);
    wr_fail_if(w, cond, "AXON_ERR_SIZE", st->why,
            ar_printf(a, "%s axis {} is {}, expected {} (%s, from %s axis {})", st->src->desc, name ? name : "a shape",
                      r->from),
            ar_printf(a, "(int64_t)(%s + %s)", pos, j), at, ar_printf(a, "%s[%s]", wr_run_p(w, v), j),
            ar_printf(a, "(int64_t)(%s + %s)", wr_pos_c(w, &r->off), j));
    w->indent--;
}

/* Says where the expected value of an equation comes from, and which rule
 * tied the two places: " (b, from argument 1 (x) axis 1)". */
static const char *expect_from(W *w, PStep *st, const Origin **why, const char **from_idx)
{
    Arena *a = w->c->arena;
    Dim *d = st->d;
    int64_t k;
    DVar *v = dim_is_var(d);
    const char *text = wr_dim_text(w, d, st->raw);
    *from_idx = NULL;
    if (v && plan_var(w->p, v)->from) {
        PVar *pv = plan_var(w->p, v);
        *from_idx = pv->from_idx;
        DVar *u = st->orig ? dim_is_var(st->orig) : NULL, *src = pv->src ? dim_is_var(pv->src) : NULL;
        const Origin *tie = u && src && u != src ? why_equal(w, u, src) : NULL;
        if (tie)
            *why = tie;
        else if (u && u == src && st->orig->origin)
            *why = st->orig->origin;          /* one name, written twice */
        return ar_printf(a, " (%s, from %s)", text, pv->from);
    }
    return dim_is_const(d, &k) ? "" : ar_printf(a, " (%s)", text);
}

static void eq_failure(W *w, Dim *l, Dim *r, const char *lv, const char *rv, const Origin *why, const char *what);

static void w_check(W *w, PStep *st)
{
    Arena *a = w->c->arena;
    const char *val = wr_val_c(w, &st->val);
    const Origin *why = node_reason(st->orig, st->why);
    int64_t k;
    if (st->k) {                             /* a broadcast's known result */
        const char *want = wr_dim_local(w, st->d, st->why, wr_dim_text(w, st->d, 0));
        wr_fail_if(w, ar_printf(a, "%s != %s", val, want), "AXON_ERR_BROADCAST", st->why,
                ar_printf(a, "the broadcast is {}, expected {} (%s)", wr_cons_text(w, st->k)), val, want, NULL, NULL);
        return;
    }
    if (st->text) {                          /* from a residual: l = r */
        const char *want = wr_dim_local_raw(w, st->d, st->raw, st->why, wr_dim_text(w, st->d, st->raw));
        if (!st->raw && st->val.local && st->val.src == NULL && st->other) {
            eq_failure(w, st->d, st->other, want, val, st->why, st->text);
            return;
        }
        wr_fail_if(w, ar_printf(a, "%s != %s", want, val), "AXON_ERR_CONSTRAINT", st->why,
                ar_printf(a, "%s does not hold: %s is {}, expected {}", st->text, wr_dim_text(w, st->d, st->raw)), want, val,
                NULL, NULL);
        return;
    }
    if (dim_is_const(st->d, &k)) {
        wr_val_fail(w, &st->val, ar_printf(a, "%s != %s", val, wr_i64(w, k)), "AXON_ERR_SIZE", why,
                 ar_printf(a, "is {}, expected %lld", (long long)k), val, NULL, NULL);
        return;
    }
    int since = -1;
    if (st->from_vars) {
        w->from_vars = dim_norm(w->c, st->d);
        since = plan_hide_known(w->p, st->d);
    }
    const char *want = wr_dim_local(w, st->d, why, ar_printf(a, "the size expected at %s", st->val.where));
    if (st->from_vars)
        plan_unhide_known(w->p, st->d, since);
    w->from_vars = NULL;
    const char *from_idx;
    const char *from = expect_from(w, st, &why, &from_idx);
    wr_val_fail(w, &st->val, ar_printf(a, "%s != %s", val, want), "AXON_ERR_SIZE", why,
             ar_printf(a, "is {}, expected {}%s", from), val, want, from_idx);
    if (dim_has_neg(st->d) && !st->val.nonneg)     /* equal, but both could be negative */
        wr_val_fail(w, &st->val, ar_printf(a, "%s < 0", val), "AXON_ERR_SIZE", why, "is {}, expected a size (>= 0)", val,
                 NULL, NULL);
}

static void w_bind(W *w, PStep *st)
{
    PVar *pv = plan_var(w->p, st->var);
    const char *val = wr_val_c(w, &st->val);
    pv->from_idx = wr_val_idx(w, &st->val);
    wr_decl(w, pv->local, ar_printf(w->c->arena, "int64_t %s = %s;", pv->local, val));
    if (!st->val.nonneg)
        wr_val_fail(w, &st->val, ar_printf(w->c->arena, "%s < 0", pv->local), "AXON_ERR_SIZE",
                 node_reason(st->orig, st->why), "is {}, expected a size (>= 0)", pv->local, NULL, NULL);
}

/* coef * x^pow * factor + rest = val: x from val.  With a factor known
 * only at run time, x is AXON_DIM_UNKNOWN where the factor is 0 (then
 * nothing here determines it, and val - rest must be 0); x is unknown too
 * where rest, the factor or val is. */
static void w_solve(W *w, PStep *st)
{
    Arena *a = w->c->arena;
    PVar *pv = plan_var(w->p, st->var);
    const Origin *why = node_reason(st->orig, st->why);
    const char *val = wr_val_c(w, &st->val);
    const char *form = wr_dim_text(w, st->d, st->raw);
    const char *name = namer_name_of(w->p->nm, &st->var->stamp, &st->var->mark);
    if (!name)
        name = "the unknown";
    pv->from_idx = wr_val_idx(w, &st->val);
    Buf u;
    buf_init(&u, a);
    const char *parts[3] = { wr_unknown_cond(w, st->rest, NULL), st->factor ? wr_unknown_cond(w, st->factor, NULL) : NULL,
                             wr_unknown_cond(w, NULL, &st->val) };
    for (int i = 0; i < 3; i++)
        if (parts[i])
            buf_printf(&u, "%s%s", u.n ? " || " : "", parts[i]);
    const char *unk = u.n ? buf_str(&u) : NULL;
    w->guard = unk;
    const char *restc = wr_dim_local_raw(w, st->rest, st->raw, why, ar_printf(a, "the size at %s", st->val.where));
    const char *t = plan_local(w->p, "q");
    int64_t z;
    int rest0 = dim_is_const(st->rest, &z) && z == 0;
    if (rest0) {
        wr_line(w, "int64_t %s = %s;", t, val);
    } else {
        wr_line(w, "int64_t %s = axon__sub(%s, %s, &bad);", t, val, restc);
        wr_fail_if(w, "bad", "AXON_ERR_OVERFLOW", why, ar_printf(a, "%s: the size overflows int64", st->val.where), NULL,
                NULL, NULL, NULL);
    }
    /* The multiplier: coef * factor, a constant or known at run time. */
    const char *mul = wr_i64(w, st->coef);
    const char *zero = NULL;            /* the multiplier is 0: x undetermined */
    if (st->factor) {
        const char *f = wr_dim_local_raw(w, st->factor, st->raw, why, ar_printf(a, "the size at %s", st->val.where));
        if (st->coef == 1) {
            mul = f;
        } else {
            mul = plan_local(w->p, "m");
            wr_line(w, "int64_t %s = axon__mul(%s, %s, &bad);", mul, wr_i64(w, st->coef), f);
            wr_fail_if(w, "bad", "AXON_ERR_OVERFLOW", why, ar_printf(a, "%s: the size overflows int64", st->val.where),
                    NULL, NULL, NULL, NULL);
        }
        if (!st->nonzero) {
            zero = ar_printf(a, "%s == 0", mul);
            wr_val_fail(w, &st->val, ar_printf(a, "%s && %s != 0", zero, t), "AXON_ERR_CONSTRAINT", why,
                     ar_printf(a, "is {}, which is not of the form %s (%s is 0)", form, wr_dim_text(w, st->factor, st->raw)),
                     val, NULL, NULL);
            /* (the remaining checks hold where the multiplier is 0) */
            w->guard = unk ? ar_printf(a, "%s || %s", unk, zero) : zero;
        }
    }
    const char *x = st->pow == 1 && !zero && !unk ? pv->local : plan_local(w->p, "q");
    if (st->factor || !(st->coef == 1)) {
        if (!(!st->factor && st->coef == -1)) {
            /* "which is not of the form a * b + b: not a multiple of a + 1 ({})" */
            Dim *m = st->factor ? (st->coef == 1 ? st->factor : dim_scale(w->c, st->factor, st->coef, NULL)) : NULL;
            if (m && rest0)
                wr_val_fail(w, &st->val, ar_printf(a, "axon__rem(%s, %s) != 0", t, mul), "AXON_ERR_DIVISIBILITY", why,
                         ar_printf(a, "is {}, which is not of the form %s: not a multiple of %s ({})", form,
                                   wr_dim_text(w, m, st->raw)),
                         val, mul, NULL);
            else
                wr_val_fail(w, &st->val, ar_printf(a, "axon__rem(%s, %s) != 0", t, mul), "AXON_ERR_DIVISIBILITY", why,
                         ar_printf(a, "is {}, which is not of the form %s", form), val, NULL, NULL);
        }
        /* (a size that nothing reads once solved: only its checks stay) */
        if (zero)
            wr_decl_effect(w, x, ar_printf(a, "%s ? AXON_DIM_UNKNOWN : axon__div(%s, %s, &bad)", zero, t, mul));
        else
            wr_decl_effect(w, x, ar_printf(a, "axon__div(%s, %s, &bad)", t, mul));   /* (exact: no rounding) */
        if (st->coef < 0)           /* (only INT64_MIN / -1 overflows) */
            wr_fail_if(w, "bad", "AXON_ERR_OVERFLOW", why, ar_printf(a, "%s: the size overflows int64", st->val.where),
                    NULL, NULL, NULL, NULL);
    } else {
        wr_decl(w, x, ar_printf(a, "int64_t %s = %s;", x, t));
    }
    /* A size >= 0 divided by a positive multiplier cannot be negative. */
    if (!(rest0 && st->val.nonneg && st->coef > 0 && (!st->factor || st->nonzero)))
        wr_val_fail(w, &st->val, ar_printf(a, "%s < 0", x), "AXON_ERR_NEGATIVE", why,
                 ar_printf(a, "is {}, which is not of the form %s with %s >= 0", form, name), val, NULL, NULL);
    const char *r = x;
    if (st->pow != 1) {
        r = plan_local(w->p, "r");
        wr_decl_effect(w, r, ar_printf(a, "axon__root(%s, %u, &bad)", x, st->pow));
        wr_val_fail(w, &st->val, "bad", "AXON_ERR_DIVISIBILITY", why,
                 ar_printf(a, "is {}, which is not of the form %s for a whole %s", form, name), val, NULL, NULL);
    }
    w->guard = NULL;
    if (r != pv->local) {
        const char *cond = unk && zero ? ar_printf(a, "%s || %s", unk, zero) : unk ? unk : zero;
        wr_decl(w, pv->local,
             ar_printf(a, "int64_t %s = %s;", pv->local, cond ? ar_printf(a, "(%s) ? AXON_DIM_UNKNOWN : %s", cond, r) : r));
    }
}

static void w_exists(W *w, PStep *st)
{
    Arena *a = w->c->arena;
    const char *val = wr_val_c(w, &st->val);
    const Origin *why = node_reason(st->orig, st->why);
    const char *k = wr_dim_local(w, st->rest, why, ar_printf(a, "the size at %s", st->val.where));
    const char *form = wr_dim_text(w, st->d, st->raw);
    wr_val_fail(w, &st->val, ar_printf(a, "%s %s %s", val, st->sign > 0 ? "<" : ">", k), "AXON_ERR_CONSTRAINT", why,
             ar_printf(a, "is {}, which is not of the form %s for sizes %s (it must be at %s {})", form, st->text,
                       st->sign > 0 ? "least" : "most"),
             val, k, NULL);
}

static void w_known(W *w, PStep *st)
{
    const char *val = wr_val_c(w, &st->val);
    wr_decl(w, st->local, ar_printf(w->c->arena, "int64_t %s = %s;", st->local, val));
    if (!st->val.nonneg)
        wr_val_fail(w, &st->val, ar_printf(w->c->arena, "%s < 0", st->local), "AXON_ERR_SIZE",
                 node_reason(st->orig, st->why), "is {}, expected a size (>= 0)", st->local, NULL, NULL);
}

/* The known side of an equation, AXON_DIM_UNKNOWN where a variable of it
 * is (plan.c sets the value's maybe_unknown alike). */
static void w_eval(W *w, PStep *st)
{
    int arith = 0;
    const char *cond = wr_unknown_cond(w, st->d, NULL);
    const char *saved = w->guard;
    w->guard = cond;
    const char *e = wr_dim_c(w, st->d, st->raw, &arith);
    const char *v = cond ? plan_local(w->p, "e") : st->local;
    wr_line(w, "int64_t %s = %s;", v, e);
    if (arith)
        wr_fail_if(w, "bad", "AXON_ERR_OVERFLOW", st->why,
                ar_printf(w->c->arena, "%s overflows int64 (or divides by zero)", wr_dim_text(w, st->d, st->raw)), NULL,
                NULL, NULL, NULL);
    w->guard = saved;
    if (cond)
        wr_line(w, "int64_t %s = (%s) ? AXON_DIM_UNKNOWN : %s;", st->local, cond, v);
}

static void w_bcast_dim(W *w, PStep *st)
{
    Arena *a = w->c->arena;
    Constraint *k = st->k;
    const char *acc = st->local;
    for (int i = 0; i < k->ops.n; i++) {
        Dim *d = dim_norm(w->c, k->ops.items[i]);
        const char *v = wr_dim_value(w, d, k->why, "a broadcast size");
        if (i == 0) {               /* broadcast(x) = x: nothing to check */
            wr_line(w, "int64_t %s = %s;", acc, v);
            continue;
        }
        const char *text = wr_dim_text(w, d, 0);
        DVar *dv = dim_is_var(d);
        const char *from = dv && plan_var(w->p, dv) && plan_var(w->p, dv)->from
                               ? ar_printf(a, "%s, from %s", text, plan_var(w->p, dv)->from)
                               : text;
        wr_fail_if(w, ar_printf(a, "axon__bcast(&%s, %s)", acc, v), "AXON_ERR_BROADCAST", k->why,
                ar_printf(a, "cannot broadcast size {} (%s) with size {}", from), v, acc, NULL, NULL);
    }
}

static void w_bcast_shape(W *w, PStep *st)
{
    Arena *a = w->c->arena;
    Constraint *k = st->k;
    const char *acc = st->local;
    wr_line(w, "axon_shape %s;", acc);
    wr_line(w, "%s.rank = 0;", acc);
    const char *ax = plan_local(w->p, "ax");
    wr_line(w, "int %s;", ax);
    for (int i = 0; i < k->ops.n; i++) {
        const char *p, *n;
        wr_shape_run(w, k->ops.items[i], k->why, "a broadcast operand", &p, &n);
        if (i == 0) {               /* the first operand only needs to fit */
            wr_fail_if(w, ar_printf(a, "axon__append(&%s, %s, %s)", acc, p, n), "AXON_ERR_RANK", k->why,
                    "a broadcast has more than AXON_MAX_RANK axes", NULL, NULL, NULL, NULL);
            continue;
        }
        const char *text = wr_shape_text(w, k->ops.items[i]);
        wr_fail_if(w, ar_printf(a, "(%s = axon__bcast_into(&%s, %s, %s)) >= 0", ax, acc, p, n), "AXON_ERR_BROADCAST",
                k->why, ar_printf(a, "cannot broadcast %s: axis {} from the end is {}, where the others give {}", text),
                ax, ar_printf(a, "(%s == AXON_MAX_RANK ? 0 : %s[%s - 1 - %s])", ax, p, n, ax),
                ar_printf(a, "(%s == AXON_MAX_RANK ? 0 : %s.dims[%s.rank - 1 - %s])", ax, acc, acc, ax), NULL);
    }
    if (st->run) {                  /* the broadcast defines this run */
        wr_decl(w, wr_run_p(w, st->run), ar_printf(a, "const int64_t *%s = %s.dims;", wr_run_p(w, st->run), acc));
        wr_decl(w, wr_run_n(w, st->run), ar_printf(a, "int %s = %s.rank;", wr_run_n(w, st->run), acc));
    }
}

/* rank(p) = d with d known: p's length, a rank (0 .. AXON_MAX_RANK). */
static void w_run_len(W *w, PStep *st)
{
    Arena *a = w->c->arena;
    const char *v = wr_dim_value(w, st->d, st->why, "a rank");
    const char *n = wr_run_n(w, st->run);
    wr_fail_if(w, ar_printf(a, "%s < 0 || %s > AXON_MAX_RANK", v, v), "AXON_ERR_RANK", st->why,
            ar_printf(a, "rank(%s) = %s is {}, which is not a rank (0 to AXON_MAX_RANK)", plan_run(st->run)->name,
                      wr_dim_text(w, st->d, 0)),
            v, NULL, NULL, NULL);
    wr_decl(w, n, ar_printf(a, "int %s = (int)%s;", n, v));
}

/* elements(s): the product of the run's sizes, checked (AXON_DIM_UNKNOWN
 * where one is unknown, 0 where one is 0); rank(s): its length. */
static void w_count(W *w, PStep *st)
{
    Arena *a = w->c->arena;
    const char *p, *n;
    wr_shape_run(w, st->pattern, st->why, "a shape", &p, &n);
    if (st->k->kind == C_RANK) {
        wr_decl(w, st->local, ar_printf(a, "int64_t %s = %s;", st->local, n));
        return;
    }
    wr_decl_effect(w, st->local, ar_printf(a, "axon__prod(%s, %s, &bad)", p, n));
    wr_fail_if(w, "bad", "AXON_ERR_OVERFLOW", st->why,
            ar_printf(a, "elements(%s) overflows int64", wr_shape_text(w, st->pattern)), NULL, NULL, NULL, NULL);
}

/* fail_if with any number of values (axon__failv). */
static void fail_ifv(W *w, const char *cond, const char *status, const Origin *why, const char *text,
                     const PtrVec *vals)
{
    int ln, col;
    const char *msg = wr_message(w, why, &ln, &col, text);
    Buf list;
    buf_init(&list, w->c->arena);
    for (int i = 0; i < vals->n; i++)
        buf_printf(&list, "%s%s", i ? ", " : "", (const char *)vals->items[i]);
    const char *arr = plan_local(w->p, "fv");
    if (w->guard)
        wr_line(w, "if (!(%s) && (%s)) {", w->guard, cond);
    else
        wr_line(w, "if (%s) {", cond);
    wr_line(w, "    const int64_t %s[] = { %s };", arr, vals->n ? buf_str(&list) : "0");
    wr_line(w, "    return axon__failv(err, %s, %d, %d, \"%s\", %s, %d);", status, ln, col, msg, arr, vals->n);
    wr_line(w, "}");
}

/* A size in the model's terms (spec section 8b): `h ({}, from heads
 * (input 2) axis 0)` for a size an input gives, `d / h ({})` otherwise,
 * `2` for a constant; its value in *value, and pushed to vals for a {}.
 * NULL where it is not known. */
static const char *size_said(W *w, Dim *d, PtrVec *vals, const char **value)
{
    int arith = 0;
    int64_t k;
    const char *v = *value = wr_dim_c(w, d, 0, &arith);
    if (!v)
        return NULL;
    if (dim_is_const(dim_norm(w->c, d), &k))
        return ar_printf(w->c->arena, "%lld", (long long)k);
    pv_push(w->c->arena, vals, (void *)v);
    DVar *x = dim_is_var(dim_norm(w->c, d));
    PVar *pv = x ? plan_var(w->p, x) : NULL;
    if (pv && pv->from)
        return ar_printf(w->c->arena, "%s ({}, from %s)", wr_dim_text(w, d, 0), pv->from);
    return ar_printf(w->c->arena, "%s ({})", wr_dim_text(w, d, 0));
}

/* A side of an equation as its factors with their values: `b * n * d =
 * {} * {} * {} = {}` (spec section 8b), or `EXPR = {}` where it is not one
 * product of a few factors; the values pushed to vals, the total last. */
static const char *product_said(W *w, Dim *d, const char *total, PtrVec *vals)
{
    Arena *a = w->c->arena;
    d = dim_norm(w->c, d);
    const char *text = wr_dim_text(w, d, 0);
    if (d->nt == 1 && d->t[0].nf >= 2 && d->t[0].nf <= 8 && d->t[0].coef == 1) {
        Buf b, names;           /* (each factor's name and value, in one order) */
        buf_init(&b, a);
        buf_init(&names, a);
        PtrVec mine = { 0 };
        int ok = 1;
        for (uint32_t j = 0; j < d->t[0].nf && ok; j++) {
            const Factor *f = &d->t[0].f[j];
            for (uint32_t p = 0; p < f->pow && ok; p++) {
                Mono *m = ar_alloc(a, sizeof *m);
                Factor *one = ar_alloc(a, sizeof *one);
                *one = (Factor){ f->var, f->div, 1 };
                *m = (Mono){ 1, 1, one };
                int arith = 0;
                Dim *fd = dim_canon(w->c, m, 1, NULL);
                const char *v = wr_dim_c(w, fd, 0, &arith);
                ok = v != NULL;
                if (ok) {
                    const char *ft = wr_dim_text(w, fd, 0);
                    pv_push(a, &mine, (void *)v);
                    buf_printf(&b, "%s{}", b.n ? " * " : "");
                    buf_printf(&names, f->div ? "%s(%s)" : "%s%s", names.n ? " * " : "", ft);
                }
            }
        }
        if (ok) {
            for (int i = 0; i < mine.n; i++)
                pv_push(a, vals, mine.items[i]);
            pv_push(a, vals, (void *)total);
            return ar_printf(a, "%s = %s = {}", buf_str(&names), buf_str(&b));
        }
    }
    pv_push(a, vals, (void *)total);
    return ar_printf(a, "%s = {}", text);
}

/* The failure of an equation l = r (lv, rv: their values) in the model's
 * terms: where it says a remainder is 0 (`d % h = 0`, simplify.h), first
 * that remainder's own check, `d (64, from ...) is not a multiple of h (6,
 * from ...)`; then both sides as products of the user's names with their
 * values. */
static void eq_failure(W *w, Dim *l, Dim *r, const char *lv, const char *rv, const Origin *why, const char *what)
{
    Arena *a = w->c->arena;
    Dim *sl = l, *sr = r;
    SimpMod mod;
    int is_mod = 0;
    if (simp_equation(w->c, &sl, &sr, &mod, &is_mod) && is_mod) {
        PtrVec vals = { 0 };
        const char *nv, *dv = NULL;
        const char *nt = size_said(w, mod.num, &vals, &nv), *dt = nt ? size_said(w, mod.den, &vals, &dv) : NULL;
        if (nt && dt) {
            fail_ifv(w, ar_printf(a, "%s != %s && %s != 0 && axon__rem(%s, %s) != 0", lv, rv, dv, nv, dv),
                     "AXON_ERR_DIVISIBILITY", why,
                     ar_printf(a, "%s does not hold: %s is not a multiple of %s", what, nt, dt), &vals);
        }
    }
    Dim *nl = dim_norm(w->c, l), *nr = dim_norm(w->c, r);
    int products = (nl->nt == 1 && nl->t[0].nf >= 2) || (nr->nt == 1 && nr->t[0].nf >= 2);
    if (!products) {                /* (a sum, a constant: its value says it) */
        wr_fail_if(w, ar_printf(a, "%s != %s", lv, rv), "AXON_ERR_CONSTRAINT", why,
                ar_printf(a, "%s does not hold: %s is {}, expected {}", what, wr_dim_text(w, l, 0)), lv, rv, NULL, NULL);
        return;
    }
    PtrVec vals = { 0 };
    const char *lt = product_said(w, l, lv, &vals);
    const char *rt = product_said(w, r, rv, &vals);
    fail_ifv(w, ar_printf(a, "%s != %s", lv, rv), "AXON_ERR_CONSTRAINT", why,
             ar_printf(a, "%s does not hold: %s, but %s", what, lt, rt), &vals);
}

/* x = e with x a variable that a solve left AXON_DIM_UNKNOWN (a factor 0
 * at run time: plan.c, open_residuals) and e's value ev known: the
 * equation gives x.  `where b = (b * c) / 2` with c = 0: b is 0, and the
 * steps after it check what reads b. */
static void open_var_from(W *w, Dim *x, Dim *e, const char *ev, const Origin *why, const char *what)
{
    Arena *a = w->c->arena;
    DVar *v = dim_is_var(x);
    PVar *pv = v ? plan_var(w->p, v) : NULL;
    if (!pv || !pv->assignable || !pv->maybe_unknown)
        return;
    const char *eunk = wr_unknown_cond(w, e, NULL);
    const char *saved = w->guard;
    w->guard = NULL;
    wr_line(w, "if (%s == AXON_DIM_UNKNOWN%s) {    /* nothing else gave %s: %s does */", pv->local,
         eunk ? ar_printf(a, " && !(%s)", eunk) : "", wr_dim_text(w, x, 0), what);
    w->indent++;
    wr_fail_if(w, ar_printf(a, "%s < 0", ev), "AXON_ERR_CONSTRAINT", why,
            ar_printf(a, "%s does not hold: %s is {}, which is negative", what, wr_dim_text(w, e, 1)), ev, NULL, NULL,
            NULL);
    wr_line(w, "%s = %s;", pv->local, ev);
    w->indent--;
    wr_line(w, "}");
    w->guard = saved;
}

static void w_eq_dim(W *w, PStep *st)
{
    Arena *a = w->c->arena;
    Constraint *k = st->k;
    int raw = st->raw;
    Dim *l = raw ? dim_norm_raw(w->c, k->l) : dim_norm(w->c, k->l);
    Dim *r = raw ? dim_norm_raw(w->c, k->r) : dim_norm(w->c, k->r);
    int64_t kc;
    if (dim_is_const(l, &kc)) {             /* the constant on the right */
        Dim *t = l;
        l = r;
        r = t;
    }
    const char *lv = wr_dim_local_raw(w, l, raw, k->why, wr_dim_text(w, l, raw));
    const char *rv = wr_dim_local_raw(w, r, raw, k->why, wr_dim_text(w, r, raw));
    const char *what = k->clause ? ar_printf(a, "the clause `where %s`", k->clause) : st->text;
    open_var_from(w, l, r, rv, k->why, what);
    open_var_from(w, r, l, lv, k->why, what);
    if (!raw) {
        eq_failure(w, l, r, lv, rv, k->why, what);
        return;
    }
    wr_fail_if(w, ar_printf(a, "%s != %s", lv, rv), "AXON_ERR_CONSTRAINT", k->why,
            ar_printf(a, "%s does not hold: %s is {}, expected {}", what, wr_dim_text(w, l, raw)), lv, rv, NULL, NULL);
}

static void w_nonneg(W *w, PStep *st)
{
    const char *text = wr_dim_text(w, st->d, 0);
    const char *v = wr_dim_local(w, st->d, st->k->why, text);
    if (st->k->clause)          /* a declaration's `where l <= r` */
        wr_fail_if(w, ar_printf(w->c->arena, "%s < 0", v), "AXON_ERR_CONSTRAINT", st->k->why,
                ar_printf(w->c->arena, "the clause `where %s` does not hold (%s is {}, from %s)", st->k->clause,
                          st->k->clause_diff, text), v, NULL, NULL, NULL);
    else
        wr_fail_if(w, ar_printf(w->c->arena, "%s < 0", v), "AXON_ERR_NEGATIVE", st->k->why,
                ar_printf(w->c->arena, "the size %s is {}, which is negative", text), v, NULL, NULL, NULL);
}

/* The condition under which a step's checks are moot: a size they
 * compare is AXON_DIM_UNKNOWN (nothing determines it, so any value is
 * possible), or NULL. */
static const char *step_guard(W *w, PStep *st)
{
    switch (st->kind) {
    case PS_CHECK: case PS_EXISTS: case PS_KNOWN: case PS_RAGGED:
        return wr_unknown_cond(w, st->kind == PS_CHECK ? st->d : NULL, &st->val);
    case PS_BIND:
        return wr_unknown_cond(w, NULL, &st->val);
    case PS_EQ_DIM: {
        const char *l = wr_unknown_cond(w, st->k->l, NULL), *r = wr_unknown_cond(w, st->k->r, NULL);
        return l && r ? ar_printf(w->c->arena, "%s || %s", l, r) : l ? l : r;
    }
    case PS_NONNEG:
        return wr_unknown_cond(w, st->d, NULL);
    default:                   /* PS_FITS: dim_value guards its own */
        return NULL;
    }
}

/* Whether d is a size whatever its variables' values: no minus, every
 * variable one the plan has checked (an input's axis, or solved from one). */
static int size_by_form(W *w, Dim *d)
{
    d = dim_norm(w->c, d);
    if (d->ragged || dim_has_neg(d))
        return 0;
    for (uint32_t t = 0; t < d->nt; t++)
        for (uint32_t j = 0; j < d->t[t].nf; j++) {
            const Factor *f = &d->t[t].f[j];
            PVar *v = f->var ? plan_var(w->p, f->var) : NULL;
            if (f->var ? !v || !v->validated || v->maybe_unknown : !size_by_form(w, f->div->num))
                return 0;
        }
    return 1;
}

/* For each input of fixed rank, the axes that only PS_CHECKs against a
 * size read: their value, equal to a size, is one (w_rank tests the rest).
 * transformer12 of bench/shapefn tests 4 axes of 218. */
char **wr_checked_only_axes(W *w)
{
    Plan *p = w->p;
    Arena *a = w->c->arena;
    char **out = ar_alloc(a, sizeof(char *) * (size_t)(p->inputs.n ? p->inputs.n : 1));
    int *fixed = ar_alloc(a, sizeof(int) * (size_t)(p->inputs.n ? p->inputs.n : 1));
    for (int i = 0; i < p->steps.n; i++) {
        PStep *st = p->steps.items[i];
        if (st->kind == PS_RANK && st->input >= 0 && st->input < p->inputs.n) {
            int known;
            shape_rank(st->pattern, &known);
            if (known && st->fixed > 0 && !st->ragged) {
                fixed[st->input] = st->fixed;
                out[st->input] = ar_alloc(a, (size_t)st->fixed);
                for (int k = 0; k < st->fixed; k++)
                    out[st->input][k] = 1;
            }
        }
    }
    for (int i = 0; i < p->steps.n; i++) {
        PStep *st = p->steps.items[i];
        const PVal *v = &st->val;
        int reads = st->kind == PS_CHECK || st->kind == PS_BIND || st->kind == PS_SOLVE || st->kind == PS_EXISTS ||
                    st->kind == PS_KNOWN || st->kind == PS_RAGGED;
        if (!reads || !v->src || v->src->input < 0 || !out[v->src->input])
            continue;
        int axis = v->pos.runs.n == 0 ? v->pos.k : -1;
        p->at = i;
        int safe = st->kind == PS_CHECK && !st->k && !st->text && axis >= 0 && size_by_form(w, st->d);
        if (safe)
            continue;
        if (axis >= 0 && axis < fixed[v->src->input])
            out[v->src->input][axis] = 0;
        else
            out[v->src->input] = NULL;          /* (an axis after a run: all tested) */
    }
    p->at = p->steps.n;
    return out;
}

void wr_write_step(W *w, PStep *st)
{
    w->guard = step_guard(w, st);
    switch (st->kind) {
    case PS_RANK: w_rank(w, st); break;
    case PS_MATCH: w_match(w, st); break;
    case PS_SAME_RUN: w_same_run(w, st); break;
    case PS_RAGGED: {
        const char *val = wr_val_c(w, &st->val);
        wr_val_fail(w, &st->val, ar_printf(w->c->arena, "%s != AXON_DIM_RAGGED", val), "AXON_ERR_SIZE",
                 node_reason(st->orig, st->why), "is {}, expected AXON_DIM_RAGGED (a ragged axis, *)", val, NULL, NULL);
        break;
    }
    case PS_CHECK: w_check(w, st); break;
    case PS_BIND: w_bind(w, st); break;
    case PS_SOLVE: w_solve(w, st); break;
    case PS_EXISTS: w_exists(w, st); break;
    case PS_KNOWN: w_known(w, st); break;
    case PS_EVAL: w_eval(w, st); break;
    case PS_BCAST_DIM: w_bcast_dim(w, st); break;
    case PS_BCAST_SHAPE: w_bcast_shape(w, st); break;
    case PS_SHAPE:
        wr_shape_local(w, st->pattern, st->local, st->why, st->text);
        break;
    case PS_EQ_DIM: w_eq_dim(w, st); break;
    case PS_NONNEG: w_nonneg(w, st); break;
    case PS_COUNT: w_count(w, st); break;
    case PS_RUN_LEN: w_run_len(w, st); break;
    case PS_FITS:
        (void)wr_dim_value(w, st->d, st->k->why, "a size of its result");
        break;
    }
    w->guard = NULL;
}