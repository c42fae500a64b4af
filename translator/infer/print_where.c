/* print_where.c - a scheme's residual constraints as its `where` clauses
 * (print_where.h): each constraint in the shortest form (simplify.h), the
 * bounds one clause implies left out, a broadcast printed in place not
 * repeated, `b = ?` for a size an operation produces that has a name. */
#include "print_where.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dim.h"
#include "simplify.h"
#include "symtab.h"
#include "types.h"

/* ---- residual constraints ------------------------------------------ */

/* A clause d >= 0 as it prints (simplify.h): what the remainders say, then
 * in the simplest terms. */
static Dim *bound_shown(Namer *nm, Constraint *k)
{
    Ctx *c = nm->ctx;
    return simp_primitive_bound(c, simp_apply_mods(c, dim_norm(c, k->l), &nm->mods));
}


/* Each clause a constraint prints as (usually one; a broadcast with a known
 * result gives one `x in {1, r}` per operand). */
static void pr_clauses(Namer *nm, Constraint *c, PtrVec *out)
{
    Ctx *ctx = nm->ctx;
    Buf one;
    buf_init(&one, ctx->arena);
    Buf *b = &one;
    switch (c->kind) {
    case C_BCAST_SHAPE:
        pr_bcast_ops(nm, b, c);
        if (c->sres->link) {
            buf_puts(b, " = ");
            pr_shape(nm, b, c->sres->link);
        }
        break;
    case C_BCAST_DIM: {
        if (!c->dres->link) {
            pr_bcast_ops(nm, b, c);
            break;
        }
        /* The result is known: when an operand equals it, the others must
         * each be 1 or the result:  a in {1, 3}. */
        Dim *r = dim_norm(ctx, dim_of_var(ctx, c->dres, NULL));
        int hit = 0;
        for (int i = 0; i < c->ops.n; i++)
            if (dim_equal(dim_norm(ctx, c->ops.items[i]), r))
                hit = 1;
        if (hit) {
            for (int i = 0; i < c->ops.n; i++) {
                Dim *d = dim_norm(ctx, c->ops.items[i]);
                int64_t one_;
                if (dim_equal(d, r) || (dim_is_const(d, &one_) && one_ == 1))
                    continue;
                Buf cl;
                buf_init(&cl, ctx->arena);
                pr_dim(nm, &cl, d);
                buf_puts(&cl, " in {1, ");
                pr_dim(nm, &cl, r);
                buf_putc(&cl, '}');
                pv_push(ctx->arena, out, (void *)buf_str(&cl));
            }
            return;
        } else {
            pr_bcast_ops(nm, b, c);
            buf_puts(b, " = ");
            pr_dim(nm, b, r);
        }
        break;
    }
    case C_EQ_DIM: {
        /* The shortest form (simplify.h): `d % h = 0`, common factors
         * cancelled; else as inference left it, a constant on the right
         * (the paper's reordering rule). */
        Dim *l = c->l, *r = c->r;
        if (c->axis) {          /* an axis clause, as written: rank(p) = k */
            pr_dim(nm, b, l);
            buf_puts(b, " = ");
            pr_dim(nm, b, r);
            break;
        }
        SimpMod mod;
        int is_mod = 0;
        /* (an equation that made a rewrite rule is printed without the
         * rules: with its own, it would read 0 = 0) */
        Rewrite *rules = ctx->rewrites;
        if (c->rewrites)
            ctx->rewrites = NULL;
        int simple = simp_equation(ctx, &l, &r, &mod, &is_mod);
        ctx->rewrites = rules;
        if (simple && c->rewrites) {
            ctx->rewrites = NULL;       /* (printed the same way) */
            nm->raw = 1;
        }
        if (simple) {
            if (is_mod) {
                /* (x + c) % k = 0 is x % k = (-c mod k) */
                int64_t k0 = 0, kd = 0;
                Dim *num = mod.num;
                if (dim_is_const(mod.den, &kd) && num->nt > 1 && num->t[num->nt - 1].nf == 0) {
                    k0 = num->t[num->nt - 1].coef;
                    num = dim_canon(ctx, num->t, num->nt - 1, NULL);
                }
                pr_operand(nm, b, num);
                buf_puts(b, " % ");
                pr_operand(nm, b, mod.den);
                buf_printf(b, " = %lld", (long long)(k0 ? ((-k0 % kd) + kd) % kd : 0));
            } else {
                pr_dim(nm, b, l);
                buf_puts(b, " = ");
                pr_dim(nm, b, r);
            }
            ctx->rewrites = rules;
            nm->raw = 0;
            break;
        }
        int64_t k;
        int swap = dim_is_const(c->rewrites ? dim_norm_raw(ctx, c->l) : dim_norm(ctx, c->l), &k);
        nm->raw = c->rewrites;
        pr_dim(nm, b, swap ? c->r : c->l);
        buf_puts(b, " = ");
        pr_dim(nm, b, swap ? c->l : c->r);
        nm->raw = 0;
        break;
    }
    case C_EQ_SHAPE:
        pr_shape(nm, b, c->sl);
        buf_puts(b, " = ");
        pr_shape(nm, b, c->sr);
        break;
    case C_NONNEG: {
        /* A declaration's `where l <= r` prints that way round: the terms
         * with a minus on the left (`f <= c` for c - f >= 0). */
        Dim *d = bound_shown(nm, c);       /* (2 * c - 1 >= 0: 1 <= c) */
        Mono *pos = ar_alloc(ctx->arena, sizeof(Mono) * (d->nt + 1));
        Mono *neg = ar_alloc(ctx->arena, sizeof(Mono) * (d->nt + 1));
        uint32_t np = 0, nn = 0;
        int split = c->clause && !d->ragged;
        for (uint32_t i = 0; split && i < d->nt; i++) {
            if (d->t[i].coef == INT64_MIN)
                split = 0;
            else if (d->t[i].coef > 0)
                pos[np++] = d->t[i];
            else {
                neg[nn] = d->t[i];
                neg[nn++].coef = -d->t[i].coef;
            }
        }
        if (split) {
            pr_dim(nm, b, dim_canon(ctx, neg, nn, NULL));
            buf_puts(b, " <= ");
            pr_dim(nm, b, dim_canon(ctx, pos, np, NULL));
        } else {
            pr_dim(nm, b, c->l);
            buf_puts(b, " >= 0");
        }
        break;
    }
    case C_DYN:
        buf_puts(b, "? = ");
        pr_dim(nm, b, c->l);
        break;
    case C_FITS:
        pr_dim(nm, b, c->l);
        buf_puts(b, " fits int64");
        break;
    case C_ELEMS:
    case C_RANK:
        if (!c->dres->link)
            break;              /* a definition: printed where it is used */
        pr_count(nm, b, c);
        buf_puts(b, " = ");
        pr_dim(nm, b, c->dres->link);
        break;
    }
    if (one.n)
        pv_push(ctx->arena, out, (void *)buf_str(&one));
}

void pr_constraint(Namer *nm, Buf *b, Constraint *c)
{
    PtrVec clauses = { 0 };
    pr_clauses(nm, c, &clauses);
    for (int i = 0; i < clauses.n; i++) {
        if (i)
            buf_puts(b, ", ");
        buf_puts(b, clauses.items[i]);
    }
}

static int cons_id_cmp(const void *x, const void *y)
{
    const Constraint *a = *(Constraint *const *)x, *b = *(Constraint *const *)y;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* A broadcast whose result is unused is only a requirement that its
 * operands broadcast together; it is implied, and not printed, when its
 * result is an operand of another broadcast, or when another broadcast's
 * operands (flattened) include all of its own.  The second test compares
 * pairs, so it is made only while there are few pairs (it only spares the
 * reader a redundant clause). */
enum { IMPLIED_PAIRS = 4096 };

static int is_bcast(const Constraint *c)
{
    return !c->done && (c->kind == C_BCAST_SHAPE || c->kind == C_BCAST_DIM);
}

static int result_unused_check(const Constraint *c)
{
    return c->kind == C_BCAST_SHAPE ? c->sres->link == NULL : c->dres->link == NULL;
}

/* Whether every text of a (sorted, distinct) is in b (sorted, distinct). */
static int texts_subset(const PtrVec *a, const PtrVec *b)
{
    int j = 0;
    for (int i = 0; i < a->n; i++) {
        while (j < b->n && strcmp(b->items[j], a->items[i]) < 0)
            j++;
        if (j == b->n || strcmp(b->items[j], a->items[i]) != 0)
            return 0;
    }
    return 1;
}

/* Marks (nest_stamp) the broadcasts whose result is an operand of another,
 * and fills `implied` (one flag per sorted constraint). */
/* A bound from a `where` clause that another implies (`1 <= b` beside
 * `2 <= b`: their differences differ by a constant >= 0) is not printed;
 * of two equal ones, the first is.  Compared pairwise while they are few. */
static void implied_bounds(Namer *nm, Constraint **all, int n, char *implied)
{
    Ctx *c = nm->ctx;
    PtrVec b = { 0 };
    for (int i = 0; i < n; i++)
        if (all[i]->kind == C_NONNEG && all[i]->clause && !all[i]->done)
            pv_push(c->arena, &b, (void *)(intptr_t)i);
    if ((long)b.n * b.n > IMPLIED_PAIRS)
        return;
    Dim **shown = ar_alloc(c->arena, sizeof(Dim *) * (size_t)(n ? n : 1));
    for (int x = 0; x < b.n; x++) {
        int i = (int)(intptr_t)b.items[x];
        shown[i] = bound_shown(nm, all[i]);    /* (as printed) */
    }
    for (int x = 0; x < b.n; x++) {
        int i = (int)(intptr_t)b.items[x];
        Dim *di = shown[i];
        for (int y = 0; y < b.n && !implied[i]; y++) {
            int j = (int)(intptr_t)b.items[y];
            if (i == j || implied[j])
                continue;
            int64_t k;
            Dim *diff = dim_sub(c, di, shown[j], NULL);
            if (c->overflow) {
                c->overflow = 0;
                continue;
            }
            if (dim_is_const(diff, &k) && (k > 0 || (k == 0 && j < i)))
                implied[i] = 1;
        }
    }
}

static void find_implied(Namer *nm, Constraint **all, int n, char *implied)
{
    Arena *a = nm->ctx->arena;
    uint32_t stamp = ++nm->ctx->stamp;
    for (int i = 0; i < n; i++)
        if (is_bcast(all[i]))
            for (int k = 0; k < all[i]->ops.n; k++) {
                Constraint *d = pr_nested_def(nm, all[i], all[i]->ops.items[k]);
                if (d)
                    d->nest_stamp = stamp;
            }
    PtrVec cand = { 0 }, other = { 0 };    /* indexes into all */
    for (int i = 0; i < n; i++) {
        Constraint *c = all[i];
        if (!is_bcast(c) || c->nest_stamp == stamp || (c->within && is_bcast(c->within)))
            continue;
        pv_push(a, &other, (void *)(intptr_t)i);
        if (result_unused_check(c) && !pr_was_shown(nm, c))
            pv_push(a, &cand, (void *)(intptr_t)i);
    }
    for (int i = 0; i < n; i++)
        implied[i] = is_bcast(all[i]) && result_unused_check(all[i]) &&
                     (all[i]->nest_stamp == stamp || (all[i]->within && is_bcast(all[i]->within)));
    if ((long)cand.n * other.n > IMPLIED_PAIRS)
        return;
    PtrVec *leaves = ar_alloc(a, sizeof(PtrVec) * (size_t)(n ? n : 1));
    for (int i = 0; i < other.n; i++) {
        int x = (int)(intptr_t)other.items[i];
        pr_bcast_leaves(nm, all[x], &leaves[x], 0);
    }
    for (int i = 0; i < cand.n; i++) {
        int self = (int)(intptr_t)cand.items[i];
        for (int j = 0; j < other.n && !implied[self]; j++) {
            int o = (int)(intptr_t)other.items[j];
            if (o == self || all[o]->kind != all[self]->kind)
                continue;
            if (texts_subset(&leaves[self], &leaves[o]) &&
                (!texts_subset(&leaves[o], &leaves[self]) || o < self))
                implied[self] = 1;
        }
    }
}

/* Whether clause k is `x = y` where an earlier clause is `y = x` (two
 * reshapes of the same counts, made each way round). */
static int reversed_before(Arena *a, const PtrVec *clauses, int k)
{
    const char *s = clauses->items[k], *eq = strstr(s, " = ");
    if (!eq || strstr(eq + 3, " = "))
        return 0;
    const char *rev = ar_printf(a, "%s = %.*s", eq + 3, (int)(eq - s), s);
    for (int i = 0; i < k; i++)
        if (strcmp(clauses->items[i], rev) == 0)
            return 1;
    return 0;
}

void pr_where(Namer *nm, Buf *b, const PtrVec *cons)
{
    /* A size's int64 check (C_FITS) is for the header only. */
    int n = 0;
    Constraint **sorted = ar_alloc(nm->ctx->arena, sizeof(Constraint *) * (size_t)(cons->n + 1));
    for (int i = 0; i < cons->n; i++)
        if (((Constraint *)cons->items[i])->kind != C_FITS)
            sorted[n++] = cons->items[i];
    if (n == 0 && nm->named_dyn.n == 0)
        return;
    qsort(sorted, (size_t)n, sizeof *sorted, cons_id_cmp);
    char *implied = ar_alloc(nm->ctx->arena, (size_t)n);
    find_implied(nm, sorted, n, implied);
    implied_bounds(nm, sorted, n, implied);
    PtrVec clauses = { 0 };
    nm->in_where = 1;
    for (int i = 0; i < n && !b->full; i++) {
        Constraint *c = sorted[i];
        if (c->done || (c->kind == C_NONNEG && !c->clause) || c->kind == C_DYN || pr_was_shown(nm, c) || implied[i])
            continue;
        if (c->kind == C_NONNEG && simp_always_nonneg(nm->ctx, bound_shown(nm, c)))
            continue;                   /* `d / 2 <= d` holds for every d */
        pr_clauses(nm, c, &clauses);
    }
    nm->in_where = 0;
    /* A size an operation produces that the signature names (it occurs
     * twice): `b = ?`, so that it does not read like the caller's choice. */
    for (int i = 0; i < nm->named_dyn.n; i++) {
        DVar *v = nm->named_dyn.items[i];
        pv_push(nm->ctx->arena, &clauses,
                (void *)ar_printf(nm->ctx->arena, "%s = ?", pr_name_var(nm, &v->stamp, &v->mark, v->hint, 0)));
    }
    /* In text order, so that the order in which the solver met them does
     * not show; a check made twice (the same rule applied twice) prints
     * once. */
    if (clauses.n > 1)
        qsort(clauses.items, (size_t)clauses.n, sizeof(void *), pr_str_cmp);
    for (int k = 0; k < clauses.n; k++) {
        if (k > 0 && strcmp(clauses.items[k - 1], clauses.items[k]) == 0)
            continue;
        if (reversed_before(nm->ctx->arena, &clauses, k))
            continue;
        buf_puts(b, k ? ", " : " where ");
        buf_puts(b, clauses.items[k]);
    }
}