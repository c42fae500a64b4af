/* print.c - signatures and terms as text (axon-spec.md section 7).
 *
 *   function   (T1, T2) -> R          tuple   (T1, T2)
 *   tensor     f32 [a, 4]   t [a] @ b   t a   f32 (a scalar)   t [] (scalar of t)
 *   dimension  infix, canonical: terms by descending degree, then by variable
 *              name, the constant last:  2 * a,  a - b + 1,  a + b
 *   broadcast  an unresolved broadcast prints as broadcast(x, y) in place;
 *              any other residual constraint after the type as `where C, ...`
 */
#include "print.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dim.h"
#include "scope.h"
#include "simplify.h"
#include "symtab.h"
#include "types.h"

enum { PR_MAX_DEPTH = 200 };

void namer_init(Namer *nm, Ctx *c, int hints)
{
    memset(nm, 0, sizeof *nm);
    nm->ctx = c;
    nm->stamp = ++c->stamp;
    nm->hints = hints;
}

const char *namer_letter(int index)
{
    static const char letters[] = "abcdefghijklmnopqrsuvwxyz";   /* no t */
    static char buf[32];
    int round = index / 25;
    if (round == 0)
        snprintf(buf, sizeof buf, "%c", letters[index % 25]);
    else
        snprintf(buf, sizeof buf, "%c%d", letters[index % 25], round);
    return buf;
}

static int name_used(Namer *nm, const char *name)
{
    for (int i = 0; i < nm->used.n; i++)
        if (strcmp(nm->used.items[i], name) == 0)
            return 1;
    return 0;
}

static const char *fresh_name(Namer *nm, int elem)
{
    Arena *a = nm->ctx->arena;
    for (;;) {
        const char *name;
        if (elem) {
            name = nm->next_elem == 0 ? ar_strdup(a, "t") : ar_printf(a, "t%d", nm->next_elem);
            nm->next_elem++;
        } else {
            name = ar_strdup(a, namer_letter(nm->next_var++));
        }
        if (nm->reserved && st_get(nm->reserved, name))
            continue;
        if (!nm->hints || !name_used(nm, name)) {
            if (nm->hints)
                pv_push(a, &nm->used, (void *)name);
            return name;
        }
    }
}

/* Names a variable through its (stamp, mark) slots on first sight. */
static const char *name_var(Namer *nm, uint32_t *stamp, void **mark, const char *hint, int elem)
{
    if (*stamp == nm->stamp)
        return *mark;
    const char *name;
    if (nm->hints && hint && !name_used(nm, hint)) {
        name = hint;
        pv_push(nm->ctx->arena, &nm->used, (void *)hint);
    } else {
        name = fresh_name(nm, elem);
    }
    *stamp = nm->stamp;
    *mark = (void *)name;
    return name;
}

const char *namer_name_of(Namer *nm, uint32_t *stamp, void **mark)
{
    return *stamp == nm->stamp ? *mark : NULL;
}

/* A broadcast prints in place of its result variable once per namer; the
 * constraint is marked so that pr_where does not print it again. */
static int def_live(const Constraint *c)
{
    return c && !c->done;
}

static void mark_shown(Namer *nm, Constraint *c)
{
    c->stamp = nm->stamp;
    c->mark = c;
}

static int was_shown(Namer *nm, Constraint *c)
{
    return c->stamp == nm->stamp && c->mark == c;
}

/* broadcast(...) with its operands in a canonical (sorted) order, so that
 * x + y and y + x print alike. */
static int str_cmp(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

enum { BCAST_SHOWN = 64 };

/* The live broadcast that an operand stands for, if it is one (a lone
 * variable whose definition is an unresolved broadcast of the same kind). */
static Constraint *nested_def(Namer *nm, Constraint *c, void *op)
{
    if (c->kind == C_BCAST_SHAPE) {
        Shape *s = shape_norm(nm->ctx, op);
        SVar *v = s->n == 1 ? s->s[0].var : NULL;
        return v && def_live(v->def) && v->def->kind == C_BCAST_SHAPE && v->def != c ? v->def : NULL;
    }
    DVar *v = dim_is_var(dim_norm(nm->ctx, op));
    return v && def_live(v->def) && v->def->kind == C_BCAST_DIM && v->def != c ? v->def : NULL;
}

/* The operands of broadcast c as text, sorted, each once: operands that are
 * themselves unresolved broadcasts are replaced by theirs (broadcast is
 * associative, commutative and idempotent; inference nests them past a few
 * operands, so that a chain of N stays linear).  Each nested broadcast is
 * visited once (a DAG), without recursion; at most max texts (0: all). */
static void bcast_leaves(Namer *nm, Constraint *c, PtrVec *texts, int max)
{
    Arena *a = nm->ctx->arena;
    uint32_t stamp = ++nm->ctx->stamp;
    PtrVec stack = { 0 };
    c->flat_stamp = stamp;
    pv_push(a, &stack, c);
    while (stack.n && !(max && texts->n >= max)) {
        Constraint *k = stack.items[--stack.n];
        for (int i = 0; i < k->ops.n; i++) {
            Constraint *d = nested_def(nm, k, k->ops.items[i]);
            if (d) {
                if (d->flat_stamp != stamp) {
                    d->flat_stamp = stamp;
                    pv_push(a, &stack, d);
                }
                continue;
            }
            Buf one;
            buf_init(&one, a);
            if (k->kind == C_BCAST_SHAPE)
                pr_shape(nm, &one, k->ops.items[i]);
            else
                pr_dim(nm, &one, k->ops.items[i]);
            pv_push(a, texts, (void *)buf_str(&one));
        }
    }
    if (texts->n > 1)
        qsort(texts->items, (size_t)texts->n, sizeof(void *), str_cmp);
    int n = 0;
    for (int i = 0; i < texts->n; i++)
        if (n == 0 || strcmp(texts->items[n - 1], texts->items[i]) != 0)
            texts->items[n++] = texts->items[i];
    texts->n = n;
}

static void pr_bcast_ops(Namer *nm, Buf *b, Constraint *c)
{
    PtrVec texts = { 0 };
    /* Into a message (PR_TEXT_LIMIT), at most BCAST_SHOWN operands. */
    int max = b->limit && b->limit <= PR_TEXT_LIMIT ? BCAST_SHOWN : 0;
    bcast_leaves(nm, c, &texts, max);
    buf_puts(b, "broadcast(");
    for (int i = 0; i < texts.n && !b->full; i++) {
        if (i)
            buf_puts(b, ", ");
        buf_puts(b, texts.items[i]);
    }
    if (max && texts.n >= max)
        buf_puts(b, ", ...");
    buf_putc(b, ')');
}

/* ---- dimensions ---------------------------------------------------- */

typedef struct PrTerm {
    const Mono *m;
    int degree;
    uint64_t keys[8];
    int nkeys;
} PrTerm;

/* The order of a variable's name: a, b, ..., z, a1, ... or t, t1, ... */
static uint64_t name_order(const char *name)
{
    static const char letters[] = "abcdefghijklmnopqrsuvwxyz";
    const char *p = strchr(letters, name[0]);
    uint64_t letter = p ? (uint64_t)(p - letters) : 25;
    uint64_t round = 0;
    for (const char *d = name + 1; *d >= '0' && *d <= '9'; d++)
        round = round * 10 + (uint64_t)(*d - '0');
    return round * 26 + letter;
}

/* Sort key of a factor at print time: named variables by the order of their
 * names, others (to be named now) after them in creation order, divisions
 * last. */
static uint64_t print_key(Namer *nm, const Factor *f)
{
    if (f->var) {
        DVar *v = f->var;
        if (v->stamp == nm->stamp && v->mark)
            return name_order(v->mark);
        return ((uint64_t)1 << 40) + v->id;
    }
    return (uint64_t)3 << 40;
}

static int prterm_cmp(const void *x, const void *y)
{
    const PrTerm *a = x, *b = y;
    if (a->degree != b->degree)
        return a->degree > b->degree ? -1 : 1;
    if ((a->m->coef < 0) != (b->m->coef < 0) && a->degree)
        return a->m->coef < 0 ? 1 : -1;     /* `w - q`, not `-q + w` */
    int n = a->nkeys < b->nkeys ? a->nkeys : b->nkeys;
    for (int i = 0; i < n; i++)
        if (a->keys[i] != b->keys[i])
            return a->keys[i] < b->keys[i] ? -1 : 1;
    if (a->nkeys != b->nkeys)
        return a->nkeys < b->nkeys ? -1 : 1;
    return 0;
}

/* elements(s), rank(s) (spec section 5b) */
static void pr_count(Namer *nm, Buf *b, Constraint *c)
{
    buf_puts(b, c->kind == C_ELEMS ? "elements(" : "rank(");
    pr_shape(nm, b, c->sl);
    buf_putc(b, ')');
}

/* A variable that stands for an unresolved broadcast prints as it, once
 * per namer (pr_where then leaves it out).  Returns whether it did. */
static int pr_inline_bcast(Namer *nm, Buf *b, Constraint *def)
{
    if (!def_live(def) || nm->depth >= PR_MAX_DEPTH)
        return 0;
    mark_shown(nm, def);
    nm->depth++;
    if (def->kind == C_ELEMS || def->kind == C_RANK)
        pr_count(nm, b, def);
    else
        pr_bcast_ops(nm, b, def);
    nm->depth--;
    return 1;
}

static void pr_dvar(Namer *nm, Buf *b, DVar *v)
{
    if (pr_inline_bcast(nm, b, v->def))
        return;
    /* A `?` prints as `?` where it occurs once; twice or more it needs a
     * name, or the signature would lose that the sizes are equal. */
    if (v->dyn && !(v->seen_stamp == nm->stamp && v->seen > 1)) {
        buf_putc(b, '?');
        return;
    }
    if (v->dyn == 2 && v->stamp != nm->stamp)      /* (named for the first time) */
        pv_push(nm->ctx->arena, &nm->named_dyn, v);
    buf_puts(b, name_var(nm, &v->stamp, &v->mark, v->hint, 0));
}

static void pr_dim_paren(Namer *nm, Buf *b, Dim *d)
{
    int64_t k;
    int simple = dim_is_const(d, &k) || dim_is_var(d);
    if (!simple)
        buf_putc(b, '(');
    pr_dim(nm, b, d);
    if (!simple)
        buf_putc(b, ')');
}

static void pr_factor(Namer *nm, Buf *b, const Factor *f, int alone)
{
    for (uint32_t p = 0; p < f->pow; p++) {
        if (p)
            buf_puts(b, " * ");
        if (f->var) {
            pr_dvar(nm, b, f->var);
        } else {
            int wrap = !alone || f->pow > 1;
            if (wrap)
                buf_putc(b, '(');
            pr_dim_paren(nm, b, f->div->num);
            buf_puts(b, " / ");
            pr_dim_paren(nm, b, f->div->den);
            if (wrap)
                buf_putc(b, ')');
        }
    }
}

/* A dimension as an operand of `%`: in parentheses unless one factor. */
static void pr_operand(Namer *nm, Buf *b, Dim *d)
{
    int64_t k;
    int alone = dim_is_const(d, &k) ? k >= 0 : d->nt == 1 && d->t[0].coef == 1 && d->t[0].nf == 1;
    if (!alone)
        buf_putc(b, '(');
    pr_dim(nm, b, d);
    if (!alone)
        buf_putc(b, ')');
}

void pr_dim(Namer *nm, Buf *b, Dim *d)
{
    d = nm->raw ? dim_norm_raw(nm->ctx, d) : dim_norm(nm->ctx, d);
    if (d->ragged) {
        buf_putc(b, '*');
        return;
    }
    d = simp_drop_zero_divisions(nm->ctx, d);
    d = simp_apply_mods(nm->ctx, d, &nm->mods);
    DVar *same = nm->equal_to && !nm->in_where ? dm_get(nm->equal_to, d) : NULL;
    if (same) {
        buf_puts(b, name_var(nm, &same->stamp, &same->mark, same->hint, 0));
        return;
    }
    SimpMod mod;
    if (nm->depth <= PR_MAX_DEPTH && simp_mod(nm->ctx, d, &mod)) {
        /* rest + k * (num % den) (simplify.h) */
        nm->depth++;
        int64_t z;
        int rest = !(dim_is_const(mod.rest, &z) && z == 0);
        if (rest)
            pr_dim(nm, b, mod.rest);
        if (rest || mod.k < 0)
            buf_puts(b, !rest ? "-" : mod.k < 0 ? " - " : " + ");
        uint64_t mag = mag64(mod.k);
        if (mag != 1)
            buf_printf(b, "%llu * (", (unsigned long long)mag);
        pr_operand(nm, b, mod.num);
        buf_puts(b, " % ");
        pr_operand(nm, b, mod.den);
        if (mag != 1)
            buf_putc(b, ')');
        nm->depth--;
        return;
    }
    if (d->nt == 0) {
        buf_putc(b, '0');
        return;
    }
    if (nm->depth > PR_MAX_DEPTH) {
        buf_puts(b, "...");
        return;
    }
    if (b->full)                  /* a message cut short already */
        return;
    nm->depth++;
    PrTerm *terms = ar_alloc(nm->ctx->arena, sizeof(PrTerm) * d->nt);
    for (uint32_t i = 0; i < d->nt; i++) {
        terms[i].m = &d->t[i];
        terms[i].degree = mono_degree(&d->t[i]);
        int nk = 0;
        for (uint32_t j = 0; j < d->t[i].nf && nk < 8; j++)
            terms[i].keys[nk++] = print_key(nm, &d->t[i].f[j]);
        for (int j = 1; j < nk; j++)          /* at most 8: by insertion */
            for (int q = j; q > 0 && terms[i].keys[q] < terms[i].keys[q - 1]; q--) {
                uint64_t tmp = terms[i].keys[q];
                terms[i].keys[q] = terms[i].keys[q - 1];
                terms[i].keys[q - 1] = tmp;
            }
        terms[i].nkeys = nk;
    }
    uint32_t in_order = 1;
    while (in_order < d->nt && prterm_cmp(&terms[in_order - 1], &terms[in_order]) <= 0)
        in_order++;
    if (in_order < d->nt)
        qsort(terms, d->nt, sizeof(PrTerm), prterm_cmp);
    for (uint32_t i = 0; i < d->nt && !b->full; i++) {
        const Mono *m = terms[i].m;
        int64_t coef = m->coef;
        uint64_t mag = mag64(coef);
        if (i == 0) {
            if (coef < 0)
                buf_putc(b, '-');
        } else {
            buf_puts(b, coef < 0 ? " - " : " + ");
        }
        if (m->nf == 0) {
            buf_printf(b, "%llu", (unsigned long long)mag);
            continue;
        }
        if (mag != 1)
            buf_printf(b, "%llu * ", (unsigned long long)mag);
        /* Factors in print order: named first by name, then new ones. */
        const Factor **fs = ar_alloc(nm->ctx->arena, sizeof(Factor *) * m->nf);
        for (uint32_t j = 0; j < m->nf; j++)
            fs[j] = &m->f[j];
        for (uint32_t j = 1; j < m->nf; j++)
            for (uint32_t k = j; k > 0 && print_key(nm, fs[k]) < print_key(nm, fs[k - 1]); k--) {
                const Factor *tmp = fs[k];
                fs[k] = fs[k - 1];
                fs[k - 1] = tmp;
            }
        for (uint32_t j = 0; j < m->nf; j++) {
            if (j)
                buf_puts(b, " * ");
            pr_factor(nm, b, fs[j], m->nf == 1 && mag == 1);
        }
    }
    nm->depth--;
}

/* ---- shapes -------------------------------------------------------- */

void pr_shape(Namer *nm, Buf *b, Shape *s)
{
    s = shape_norm(nm->ctx, s);
    if (s->n == 0) {
        buf_puts(b, "[]");
        return;
    }
    uint32_t i = 0;
    int first = 1;
    while (i < s->n) {
        if (!first)
            buf_puts(b, " @ ");
        first = 0;
        if (s->s[i].var) {
            SVar *v = s->s[i].var;
            if (!pr_inline_bcast(nm, b, v->def))
                buf_puts(b, name_var(nm, &v->stamp, &v->mark, v->hint, 0));
            i++;
            continue;
        }
        buf_putc(b, '[');
        int k = 0;
        while (i < s->n && s->s[i].dim) {
            if (k++)
                buf_puts(b, ", ");
            pr_dim(nm, b, s->s[i].dim);
            i++;
        }
        buf_putc(b, ']');
    }
}

/* ---- types --------------------------------------------------------- */

void pr_elem(Namer *nm, Buf *b, Elem *e)
{
    e = elem_find(e);
    if (e->prim != EL_VAR)
        buf_puts(b, elem_name(e->prim));
    else
        buf_puts(b, name_var(nm, &e->stamp, &e->mark, e->hint, 1));
}

void pr_type(Namer *nm, Buf *b, Type *t)
{
    t = type_prune(t);
    if (b->full)
        return;
    if (nm->tdepth > TYPE_MAX_DEPTH) {
        buf_puts(b, "...");
        return;
    }
    nm->tdepth++;
    switch (t->kind) {
    case TY_VAR:
        buf_puts(b, name_var(nm, &t->stamp, &t->mark, t->u.var.hint, 0));
        break;
    case TY_TENSOR: {
        Elem *e = elem_find(t->u.ten.elem);
        Shape *s = shape_norm(nm->ctx, t->u.ten.shape);
        pr_elem(nm, b, e);
        if (!(e->prim != EL_VAR && s->n == 0)) {
            buf_putc(b, ' ');
            pr_shape(nm, b, s);
        }
        break;
    }
    case TY_TUPLE:
    case TY_FUNC:
        buf_putc(b, '(');
        for (uint32_t i = 0; i < t->u.fun.n; i++) {
            if (i)
                buf_puts(b, ", ");
            pr_type(nm, b, t->u.fun.items[i]);
        }
        buf_putc(b, ')');
        if (t->kind == TY_FUNC) {
            buf_puts(b, " -> ");
            pr_type(nm, b, t->u.fun.ret);
        }
        break;
    }
    nm->tdepth--;
}

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
                Constraint *d = nested_def(nm, all[i], all[i]->ops.items[k]);
                if (d)
                    d->nest_stamp = stamp;
            }
    PtrVec cand = { 0 }, other = { 0 };    /* indexes into all */
    for (int i = 0; i < n; i++) {
        Constraint *c = all[i];
        if (!is_bcast(c) || c->nest_stamp == stamp || (c->within && is_bcast(c->within)))
            continue;
        pv_push(a, &other, (void *)(intptr_t)i);
        if (result_unused_check(c) && !was_shown(nm, c))
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
        bcast_leaves(nm, all[x], &leaves[x], 0);
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
        if (c->done || (c->kind == C_NONNEG && !c->clause) || c->kind == C_DYN || was_shown(nm, c) || implied[i])
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
                (void *)ar_printf(nm->ctx->arena, "%s = ?", name_var(nm, &v->stamp, &v->mark, v->hint, 0)));
    }
    /* In text order, so that the order in which the solver met them does
     * not show; a check made twice (the same rule applied twice) prints
     * once. */
    if (clauses.n > 1)
        qsort(clauses.items, (size_t)clauses.n, sizeof(void *), str_cmp);
    for (int k = 0; k < clauses.n; k++) {
        if (k > 0 && strcmp(clauses.items[k - 1], clauses.items[k]) == 0)
            continue;
        if (reversed_before(nm->ctx->arena, &clauses, k))
            continue;
        buf_puts(b, k ? ", " : " where ");
        buf_puts(b, clauses.items[k]);
    }
}

/* Terms in messages are cut short past PR_TEXT_LIMIT bytes, with " ...":
 * a type that inference made exponentially large (a pair of a pair of ...)
 * must not make a diagnostic of megabytes. */
static void limit_text(Buf *b, size_t limit)
{
    buf_init(b, b->a);
    b->limit = limit;
}

static const char *cut(Buf *b)
{
    if (b->full) {
        b->full = 0;
        b->limit = 0;
        buf_puts(b, " ...");
    }
    return buf_str(b);
}

const char *pr_type_str(Namer *nm, Type *t)
{
    Buf b = { nm->ctx->arena, NULL, 0, 0, 0, 0 };
    limit_text(&b, PR_TEXT_LIMIT);
    pr_type(nm, &b, t);
    return cut(&b);
}

const char *pr_shape_str(Namer *nm, Shape *s)
{
    Buf b = { nm->ctx->arena, NULL, 0, 0, 0, 0 };
    limit_text(&b, PR_TEXT_LIMIT);
    pr_shape(nm, &b, s);
    return cut(&b);
}

const char *pr_dim_str(Namer *nm, Dim *d)
{
    Buf b = { nm->ctx->arena, NULL, 0, 0, 0, 0 };
    limit_text(&b, PR_TEXT_LIMIT);
    pr_dim(nm, &b, d);
    return cut(&b);
}

/* A `?` of a clause the type has not: one more (pr_scheme). */
static void other_dyn(DVar *v, void *arg)
{
    Namer *nm = arg;
    if (v->dyn && v->seen_stamp != nm->stamp) {
        v->seen_stamp = nm->stamp;
        v->seen = 0;
        nm->ndyn++;
    }
}

/* Counts the occurrences of `?` variables (see pr_dvar). */
static void count_dyn(Namer *nm, Dim *d);

static void count_dyn_var(DVar *v, void *arg)
{
    Namer *nm = arg;
    if (v->seen_stamp != nm->stamp) {
        v->seen_stamp = nm->stamp;
        v->seen = 0;
        nm->ndyn += v->dyn != 0;
    }
    v->seen++;
    if (def_live(v->def) && nm->depth < PR_MAX_DEPTH) {
        nm->depth++;
        for (int i = 0; i < v->def->ops.n; i++)
            count_dyn(nm, v->def->ops.items[i]);
        nm->depth--;
    }
}

static void count_dyn(Namer *nm, Dim *d)
{
    dim_each_var(dim_norm(nm->ctx, d), count_dyn_var, nm);
}

static void count_dyn_shape(Namer *nm, Shape *s)
{
    s = shape_norm(nm->ctx, s);
    for (uint32_t i = 0; i < s->n; i++) {
        if (s->s[i].dim)
            count_dyn(nm, s->s[i].dim);
        else if (def_live(s->s[i].var->def) && nm->depth < PR_MAX_DEPTH) {
            Constraint *k = s->s[i].var->def;
            nm->depth++;
            for (int j = 0; j < k->ops.n; j++)
                count_dyn_shape(nm, k->ops.items[j]);
            nm->depth--;
        }
    }
}

/* Types are DAGs: a node met twice has every `?` in it twice already, so
 * it is counted at most twice (stamp: met once; mark set: met twice). */
static void count_dyn_type(Namer *nm, Type *t, uint32_t stamp)
{
    t = type_prune(t);
    if (t->kind == TY_VAR || nm->tdepth > TYPE_MAX_DEPTH)
        return;
    if (t->stamp == stamp) {
        if (t->mark)
            return;
        t->mark = t;
    } else {
        t->stamp = stamp;
        t->mark = NULL;
    }
    nm->tdepth++;
    if (t->kind == TY_TENSOR)
        count_dyn_shape(nm, t->u.ten.shape);
    else {
        for (uint32_t i = 0; i < t->u.fun.n; i++)
            count_dyn_type(nm, t->u.fun.items[i], stamp);
        if (t->kind == TY_FUNC)
            count_dyn_type(nm, t->u.fun.ret, stamp);
    }
    nm->tdepth--;
}

/* How many tensors and variables t has when written out (types are DAGs:
 * a pair of a pair of ... shares its parts, and writes them again each
 * time), saturating; each node's count once (ustamp, umark). */
static uint64_t tree_leaves(Ctx *c, Type *t, uint32_t stamp, int depth)
{
    t = type_prune(t);
    if (t->kind == TY_VAR || t->kind == TY_TENSOR)
        return 1;
    if (t->u.fun.ustamp == stamp)
        return (uint64_t)(uintptr_t)t->u.fun.umark;
    uint64_t n = 0;
    if (depth <= TYPE_MAX_DEPTH)
        for (uint32_t i = 0; i <= t->u.fun.n; i++) {
            Type *x = i < t->u.fun.n ? t->u.fun.items[i] : t->kind == TY_FUNC ? t->u.fun.ret : NULL;
            if (x)
                n += tree_leaves(c, x, stamp, depth + 1);
            if (n > ((uint64_t)1 << 40))
                n = (uint64_t)1 << 40;
        }
    t->u.fun.ustamp = stamp;
    t->u.fun.umark = (Type *)(uintptr_t)n;
    return n;
}

/* The names of a scheme's item (spec section 7): a size or shape that one
 * annotation name alone comes to (its variable is that name's, after
 * inference) prints in that name; one that two names came to, or that is
 * no name's, gets a letter, never one of the item's names. */
static void use_names(Namer *nm, const Scheme *s)
{
    Ctx *c = nm->ctx;
    Arena *a = c->arena;
    if (!s->names.n || c->letters || nm->hints)
        return;
    nm->reserved = ar_alloc(a, sizeof *nm->reserved);
    st_init(nm->reserved, a);
    Symtab by_var;          /* a variable (its address as text) -> its name, or "" (two) */
    st_init(&by_var, a);
    PtrVec vars = { 0 }, names = { 0 };
    for (int i = 0; i < s->names.n; i++) {
        ScopeName *n = s->names.items[i];
        st_put(nm->reserved, n->name, (void *)n->name);
        void *v = NULL;
        if (n->kind == NK_DIM) {
            DVar *x = dim_is_var(dim_norm(c, dim_of_var(c, n->var, NULL)));
            v = x && !x->dyn ? x : NULL;
        } else if (n->kind == NK_SHAPE) {
            Shape *sh = shape_norm(c, shape_of_var(c, n->var, NULL));
            v = sh->n == 1 && sh->s[0].var ? sh->s[0].var : NULL;
        } else if (n->kind == NK_ELEM) {
            Elem *e = elem_find(n->var);
            v = e->prim == EL_VAR ? e : NULL;
        } else {
            Type *t = type_prune(n->var);
            v = t->kind == TY_VAR ? t : NULL;
        }
        if (!v || strchr(n->name, '?'))
            continue;
        const char *key = ar_printf(a, "%p", v);
        const char *had = st_get(&by_var, key);
        if (had) {
            st_put(&by_var, key, (void *)"");
            continue;
        }
        st_put(&by_var, key, (void *)n->name);
        pv_push(a, &vars, v);
        pv_push(a, &names, (void *)n->name);
        pv_push(a, &names, (void *)(intptr_t)n->kind);
    }
    for (int i = 0; i < vars.n; i++) {
        const char *name = st_get(&by_var, ar_printf(a, "%p", vars.items[i]));
        if (!*name)
            continue;                   /* two names, one size: a letter */
        switch ((NameKind)(intptr_t)names.items[2 * i + 1]) {
        case NK_DIM:
            ((DVar *)vars.items[i])->stamp = nm->stamp;
            ((DVar *)vars.items[i])->mark = (void *)name;
            break;
        case NK_SHAPE:
            ((SVar *)vars.items[i])->stamp = nm->stamp;
            ((SVar *)vars.items[i])->mark = (void *)name;
            break;
        case NK_ELEM:
            ((Elem *)vars.items[i])->stamp = nm->stamp;
            ((Elem *)vars.items[i])->mark = (void *)name;
            break;
        case NK_TYPE:
            ((Type *)vars.items[i])->stamp = nm->stamp;
            ((Type *)vars.items[i])->mark = (void *)name;
            break;
        }
    }
}

/* The sizes the scheme's equations equate to a lone variable (Namer.equal_to). */
static void use_equations(Namer *nm, const Scheme *s)
{
    Ctx *c = nm->ctx;
    for (int i = 0; i < s->cons.n; i++) {
        Constraint *k = s->cons.items[i];
        if (k->done || k->kind != C_EQ_DIM || k->rewrites)
            continue;
        Dim *l = dim_norm(c, k->l), *r = dim_norm(c, k->r);
        Dim *ml = l, *mr = r;
        SimpMod mod;
        int is_mod;
        if (simp_equation(c, &ml, &mr, &mod, &is_mod) && is_mod) {
            SimpMod *m = ar_alloc(c->arena, sizeof *m);
            *m = mod;
            pv_push(c->arena, &nm->mods, m);
            continue;
        }
        DVar *v = dim_is_var(l) ? dim_is_var(l) : dim_is_var(r);
        Dim *e = dim_is_var(l) ? r : l;
        int64_t z;
        if (!v || dim_is_var(e) || dim_is_const(e, &z) || e->ragged)
            continue;
        if (!nm->equal_to) {
            nm->equal_to = ar_alloc(c->arena, sizeof(DimMap));
            dm_init(nm->equal_to, c->arena, 0);
        }
        if (!dm_get(nm->equal_to, e))
            dm_put(nm->equal_to, e, v);
    }
}

void pr_scheme(Namer *nm, Buf *b, const Scheme *s)
{
    use_names(nm, s);
    use_equations(nm, s);
    /* A type that would print past the buffer's limit (two bytes a leaf at
     * least) is not printed at all: a 2^32-leaf type fills any buffer. */
    if (b->limit && tree_leaves(nm->ctx, s->type, ++nm->ctx->stamp, 0) > b->limit / 2) {
        b->full = 1;
        return;
    }
    nm->ndyn = 0;
    count_dyn_type(nm, s->type, ++nm->ctx->stamp);
    /* A `?` that a where clause bounds (`? <= a`) is `?` there too while it
     * is the only one; beside another (in the type or a clause: nonzero of
     * a nonzero's result) it takes a name, or the reader could not tell
     * which is bounded. */
    for (int i = 0; i < s->cons.n && nm->ndyn <= 1; i++) {
        Constraint *k = s->cons.items[i];
        if (!k->done && k->kind == C_NONNEG && k->clause)
            dim_each_var(dim_norm(nm->ctx, k->l), other_dyn, nm);
    }
    if (nm->ndyn > 1)
        for (int i = 0; i < s->cons.n; i++) {
            Constraint *k = s->cons.items[i];
            if (!k->done && k->kind == C_NONNEG && k->clause)
                count_dyn(nm, k->l);
        }
    pr_type(nm, b, s->type);
    pr_where(nm, b, &s->cons);
}

const char *pr_scheme_str(Ctx *c, const Scheme *s, size_t limit)
{
    Namer nm;
    namer_init(&nm, c, 0);
    Buf b = { c->arena, NULL, 0, 0, 0, 0 };
    limit_text(&b, limit);
    pr_scheme(&nm, &b, s);
    return cut(&b);
}
