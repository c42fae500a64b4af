/* print_terms.c - terms as text (print_terms.h; axon-spec.md section 7).
 *
 *   function   (T1, T2) -> R          tuple   (T1, T2)
 *   tensor     f32 [a, 4]   t [a] @ b   t a   f32 (a scalar)   t [] (scalar of t)
 *   dimension  infix, canonical: terms by descending degree, then by variable
 *              name, the constant last:  2 * a,  a - b + 1,  a + b
 *   broadcast  an unresolved broadcast prints as broadcast(x, y) in place;
 *              any other residual constraint after the type as `where C, ...`
 */
#include "print_terms.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dim.h"
#include "scope.h"
#include "simplify.h"
#include "symtab.h"
#include "types.h"


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
const char *pr_name_var(Namer *nm, uint32_t *stamp, void **mark, const char *hint, int elem)
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
int pr_def_live(const Constraint *c)
{
    return c && !c->done;
}

static void mark_shown(Namer *nm, Constraint *c)
{
    c->stamp = nm->stamp;
    c->mark = c;
}

int pr_was_shown(Namer *nm, Constraint *c)
{
    return c->stamp == nm->stamp && c->mark == c;
}

/* broadcast(...) with its operands in a canonical (sorted) order, so that
 * x + y and y + x print alike. */
int pr_str_cmp(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

enum { BCAST_SHOWN = 64 };

/* The live broadcast that an operand stands for, if it is one (a lone
 * variable whose definition is an unresolved broadcast of the same kind). */
Constraint *pr_nested_def(Namer *nm, Constraint *c, void *op)
{
    if (c->kind == C_BCAST_SHAPE) {
        Shape *s = shape_norm(nm->ctx, op);
        SVar *v = s->n == 1 ? s->s[0].var : NULL;
        return v && pr_def_live(v->def) && v->def->kind == C_BCAST_SHAPE && v->def != c ? v->def : NULL;
    }
    DVar *v = dim_is_var(dim_norm(nm->ctx, op));
    return v && pr_def_live(v->def) && v->def->kind == C_BCAST_DIM && v->def != c ? v->def : NULL;
}

/* The operands of broadcast c as text, sorted, each once: operands that are
 * themselves unresolved broadcasts are replaced by theirs (broadcast is
 * associative, commutative and idempotent; inference nests them past a few
 * operands, so that a chain of N stays linear).  Each nested broadcast is
 * visited once (a DAG), without recursion; at most max texts (0: all). */
void pr_bcast_leaves(Namer *nm, Constraint *c, PtrVec *texts, int max)
{
    Arena *a = nm->ctx->arena;
    uint32_t stamp = ++nm->ctx->stamp;
    PtrVec stack = { 0 };
    c->flat_stamp = stamp;
    pv_push(a, &stack, c);
    while (stack.n && !(max && texts->n >= max)) {
        Constraint *k = stack.items[--stack.n];
        for (int i = 0; i < k->ops.n; i++) {
            Constraint *d = pr_nested_def(nm, k, k->ops.items[i]);
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
        qsort(texts->items, (size_t)texts->n, sizeof(void *), pr_str_cmp);
    int n = 0;
    for (int i = 0; i < texts->n; i++)
        if (n == 0 || strcmp(texts->items[n - 1], texts->items[i]) != 0)
            texts->items[n++] = texts->items[i];
    texts->n = n;
}

void pr_bcast_ops(Namer *nm, Buf *b, Constraint *c)
{
    PtrVec texts = { 0 };
    /* Into a message (PR_TEXT_LIMIT), at most BCAST_SHOWN operands. */
    int max = b->limit && b->limit <= PR_TEXT_LIMIT ? BCAST_SHOWN : 0;
    pr_bcast_leaves(nm, c, &texts, max);
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
void pr_count(Namer *nm, Buf *b, Constraint *c)
{
    buf_puts(b, c->kind == C_ELEMS ? "elements(" : "rank(");
    pr_shape(nm, b, c->sl);
    buf_putc(b, ')');
}

/* A variable that stands for an unresolved broadcast prints as it, once
 * per namer (pr_where then leaves it out).  Returns whether it did. */
static int pr_inline_bcast(Namer *nm, Buf *b, Constraint *def)
{
    if (!pr_def_live(def) || nm->depth >= PR_MAX_DEPTH)
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
    buf_puts(b, pr_name_var(nm, &v->stamp, &v->mark, v->hint, 0));
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
void pr_operand(Namer *nm, Buf *b, Dim *d)
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
        buf_puts(b, pr_name_var(nm, &same->stamp, &same->mark, same->hint, 0));
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
                buf_puts(b, pr_name_var(nm, &v->stamp, &v->mark, v->hint, 0));
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
        buf_puts(b, pr_name_var(nm, &e->stamp, &e->mark, e->hint, 1));
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
        buf_puts(b, pr_name_var(nm, &t->stamp, &t->mark, t->u.var.hint, 0));
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

/* Terms in messages are cut short past PR_TEXT_LIMIT bytes, with " ...":
 * a type that inference made exponentially large (a pair of a pair of ...)
 * must not make a diagnostic of megabytes. */
void pr_limit_text(Buf *b, size_t limit)
{
    buf_init(b, b->a);
    b->limit = limit;
}

const char *pr_cut(Buf *b)
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
    pr_limit_text(&b, PR_TEXT_LIMIT);
    pr_type(nm, &b, t);
    return pr_cut(&b);
}

const char *pr_shape_str(Namer *nm, Shape *s)
{
    Buf b = { nm->ctx->arena, NULL, 0, 0, 0, 0 };
    pr_limit_text(&b, PR_TEXT_LIMIT);
    pr_shape(nm, &b, s);
    return pr_cut(&b);
}

const char *pr_dim_str(Namer *nm, Dim *d)
{
    Buf b = { nm->ctx->arena, NULL, 0, 0, 0, 0 };
    pr_limit_text(&b, PR_TEXT_LIMIT);
    pr_dim(nm, &b, d);
    return pr_cut(&b);
}