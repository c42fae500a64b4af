/* emit_fn.c - the shape function of one exported Axon function, as C
 * (emit_fn.h).
 *
 * fnplan.c has flattened the signature into input, output and
 * intermediate tensors and plan.c decided what the shape function does,
 * in order (plan.h); this file writes each step as C, then the outputs and
 * intermediates, the `dims` struct, the element and byte counts, and the
 * comment above.
 * Every failing check names the Axon rule and place that imposed it, the
 * argument, the axis, the value found and the value expected; messages are
 * string literals made here, whose "{}" the runtime fills with integers.
 */
#include <stdarg.h>
#include <string.h>

#include "emit_fn.h"

#include "cnames.h"
#include "dim.h"
#include "print.h"
#include "simplify.h"
#include "solve.h"
#include "symtab.h"
#include "types.h"

typedef struct W {
    Ctx *c;
    Plan *p;
    FnPlan *fp;             /* what is written */
    const char *file;       /* the source file's name, for messages */
    Buf *body;
    int indent;             /* extra levels, inside a loop or a block */
    DimMap cache;           /* Dim* -> the local that holds its value (its
                             * memo: FnPlan.memo, shared with the plan's maps) */
    DimMap block;           /* the same, for the locals of the block of
                             * intermediates (they stay in it) */
    int in_block;
    int no_cache;           /* guarded: keep nothing */
    const char *guard;      /* a condition under which no check fails: the
                             * sizes it compares may be AXON_DIM_UNKNOWN */
    PtrVec decls;           /* Decl*: locals whose declaration is dropped
                             * when nothing reads them */
    char **unread_axes;     /* per input of fixed rank: 1 for an axis only
                             * checks against a size read (w_rank), or NULL */
    Dim *from_vars;         /* computed another way than its own recorded
                             * value (PStep.from_vars; that value is out of
                             * sight, plan_hide_known), not read from the cache */
} W;

typedef struct Decl {
    const char *name;
    const char *effect;     /* decl_effect: the initialiser, kept if unread */
    size_t start, end;      /* the declaration's line in the body */
} Decl;

/* ---- small helpers ---------------------------------------------------- */

static void line(W *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void line(W *w, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    buf_puts(w->body, "    ");
    for (int i = 0; i < w->indent; i++)
        buf_puts(w->body, "    ");
    if (n >= 0 && (size_t)n < sizeof small) {
        buf_puts(w->body, small);
    } else if (n >= 0) {
        char *big = ar_alloc(w->c->arena, (size_t)n + 1);
        va_start(ap, fmt);
        vsnprintf(big, (size_t)n + 1, fmt, ap);
        va_end(ap);
        buf_puts(w->body, big);
    }
    buf_putc(w->body, '\n');
}

/* A C string literal's contents: the text escaped, and any "{}" that is
 * not a placeholder broken up so that axon__fail leaves it alone. */
static void put_c_text(Buf *b, const char *s)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            buf_printf(b, "\\%c", ch);
        else if (ch == '?')
            buf_puts(b, "\\?");          /* no trigraphs */
        else if (ch < 32 || ch >= 127)
            buf_printf(b, "\\%03o", ch);
        else
            buf_putc(b, (char)ch);
        if (ch == '{' && s[1] == '}')
            buf_putc(b, ' ');
    }
}

/* The message literal: "FILE:LINE:COL: RULE: " + text (whose "{}" are the
 * placeholders).  Sets *line, *col from the origin. */
static const char *message(W *w, const Origin *why, int *ln, int *col, const char *text)
{
    Buf b;
    buf_init(&b, w->c->arena);
    *ln = *col = 0;
    if (why && why->loc.src && !why->loc.src->builtin) {
        src_line_col(why->loc.src, why->loc.start, ln, col);
        Buf pre;
        buf_init(&pre, w->c->arena);
        buf_printf(&pre, "%s:%d:%d: ", w->file, *ln, *col);
        if (why->rule)
            buf_printf(&pre, "%s: ", ast_shown_name(why->rule));
        else if ((why->kind == OW_TEXT && why->what && strncmp(why->what, "the ", 4) == 0) || why->kind == OW_VALUE)
            buf_printf(&pre, "%s: ", origin_text(w->c, why));   /* "the result of this function" */
        put_c_text(&b, buf_str(&pre));
    }
    /* The text's own "{}" are placeholders: copy it escaping the rest. */
    for (const char *s = text; *s; s++) {
        if (s[0] == '{' && s[1] == '}') {
            buf_puts(&b, "{}");
            s++;
            continue;
        }
        char one[2] = { *s, 0 };
        put_c_text(&b, one);
    }
    return buf_str(&b);
}

/* Emits `if (COND) return axon__fail(...)`. */
static void fail_if(W *w, const char *cond, const char *status, const Origin *why, const char *text,
                    const char *v0, const char *v1, const char *v2, const char *v3)
{
    int ln, col;
    const char *msg = message(w, why, &ln, &col, text);
    if (w->guard)
        line(w, "if (!(%s) && (%s))", w->guard, cond);
    else
        line(w, "if (%s)", cond);
    line(w, "    return axon__fail(err, %s, %d, %d, \"%s\", %s, %s, %s, %s);", status, ln, col, msg,
         v0 ? v0 : "0", v1 ? v1 : "0", v2 ? v2 : "0", v3 ? v3 : "0");
    if (w->guard && strcmp(cond, "bad") == 0)
        line(w, "bad = 0;                /* set, if at all, by a size that is unknown */");
}

/* Writes the declaration of a local whose initialiser has no side effect,
 * remembering where, so that it can be left out if nothing reads it. */
static void decl(W *w, const char *name, const char *text)
{
    Decl *d = ar_alloc(w->c->arena, sizeof *d);
    d->name = name;
    d->start = w->body->n;
    line(w, "%s", text);
    d->end = w->body->n;
    pv_push(w->c->arena, &w->decls, d);
}

/* `int64_t name = expr;` whose expr's checked arithmetic must run (it sets
 * `bad`, which the next line tests): if nothing reads name, it becomes
 * `(void)expr;`. */
static void decl_effect(W *w, const char *name, const char *expr)
{
    Decl *d = ar_alloc(w->c->arena, sizeof *d);
    d->name = name;
    d->effect = expr;
    d->start = w->body->n;
    line(w, "int64_t %s = %s;", name, expr);
    d->end = w->body->n;
    pv_push(w->c->arena, &w->decls, d);
}

static int is_ident_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
}

/* Adds `by` to the count of every identifier of text[from, to) outside
 * string literals. */
static void count_idents(Symtab *count, Arena *a, const char *text, size_t from, size_t to, intptr_t by)
{
    const char *p = text + from, *end = text + to;
    while (p < end) {
        if (*p == '"') {                      /* a message: skip it */
            for (p++; p < end && *p != '"'; p++)
                if (*p == '\\' && p + 1 < end)
                    p++;
            if (p < end)
                p++;
        } else if (is_ident_char(*p)) {
            const char *start = p;
            while (p < end && is_ident_char(*p))
                p++;
            const char *id = ar_strndup(a, start, (size_t)(p - start));
            st_put(count, id, (void *)((intptr_t)st_get(count, id) + by));
        } else {
            p++;
        }
    }
}

/* A local that nothing reads after its declaration is left out (a run
 * that a broadcast defines, a size that only a check needed): compilers
 * warn of it, and nvcc even where a (void) cast reads it.  Identifiers are
 * counted once over the body; declarations are looked at from the last
 * (a later one reads only earlier ones), and one left out no longer counts
 * as reading what its initialiser names. */
static void drop_unused(W *w)
{
    Arena *a = w->c->arena;
    Symtab count;
    st_init(&count, a);
    const char *text = buf_str(w->body);
    count_idents(&count, a, text, 0, w->body->n, 1);
    char *drop = ar_alloc(a, (size_t)w->decls.n + 1);
    for (int i = w->decls.n - 1; i >= 0; i--) {
        Decl *d = w->decls.items[i];
        drop[i] = (intptr_t)st_get(&count, d->name) == 1;
        if (drop[i] && !d->effect)
            count_idents(&count, a, text, d->start, d->end, -1);
    }
    Buf kept;
    buf_init(&kept, a);
    size_t from = 0;
    for (int i = 0; i < w->decls.n; i++) {
        Decl *d = w->decls.items[i];
        if (!drop[i])
            continue;
        buf_printf(&kept, "%.*s", (int)(d->start - from), text + from);
        if (d->effect) {                      /* the same indentation */
            size_t ind = 0;
            while (text[d->start + ind] == ' ')
                ind++;
            buf_printf(&kept, "%.*s(void)%s;\n", (int)ind, text + d->start, d->effect);
        }
        from = d->end;
    }
    buf_puts(&kept, text + from);
    *w->body = kept;
}

static const char *dim_text(W *w, Dim *d, int raw)
{
    int saved = w->p->nm->raw;
    w->p->nm->raw = raw;
    const char *s = pr_dim_str(w->p->nm, d);
    w->p->nm->raw = saved;
    return s;
}

static const char *shape_text(W *w, Shape *s)
{
    return pr_shape_str(w->p->nm, s);
}

/* A constraint as a message shows it (cut short like every term). */
static const char *cons_text(W *w, Constraint *k)
{
    Buf b;
    buf_init(&b, w->c->arena);
    b.limit = PR_TEXT_LIMIT;
    pr_constraint(w->p->nm, &b, k);
    return b.full ? ar_printf(w->c->arena, "%s ...", buf_str(&b)) : buf_str(&b);
}

static const char *i64(W *w, int64_t v)
{
    /* INT64_MIN has no literal: write it as an expression. */
    if (v == INT64_MIN)
        return "(-INT64_C(9223372036854775807) - 1)";
    return ar_printf(w->c->arena, "INT64_C(%lld)", (long long)v);
}

/* ---- run-time values ---------------------------------------------------- */

static const char *run_p(W *w, const SVar *v)
{
    return ar_printf(w->c->arena, "s_%s_p", cn_spell(w->c->arena, plan_run(v)->name, CN_TENSOR));
}
static const char *run_n(W *w, const SVar *v)
{
    return ar_printf(w->c->arena, "s_%s_n", cn_spell(w->c->arena, plan_run(v)->name, CN_TENSOR));
}

/* An axis position as C: k plus the runs' lengths. */
static const char *pos_c(W *w, const PPos *p)
{
    const char *s = NULL;
    for (int i = 0; i < p->runs.n; i++)
        s = s ? ar_printf(w->c->arena, "%s + %s", s, run_n(w, p->runs.items[i])) : run_n(w, p->runs.items[i]);
    if (!s)
        return ar_printf(w->c->arena, "%d", p->k);
    return p->k ? ar_printf(w->c->arena, "%s + %d", s, p->k) : s;
}

static const char *src_c(W *w, const PSrc *s)
{
    return s->input >= 0 ? ar_printf(w->c->arena, "in[%d]", s->input) : s->local;
}

static const char *val_c(W *w, const PVal *v)
{
    if (!v->src)
        return v->local;
    return ar_printf(w->c->arena, "%s.dims[%s]", src_c(w, v->src), pos_c(w, &v->pos));
}

/* The axis index of a value, for a message with "axis {}"; NULL if static. */
static const char *val_idx(W *w, const PVal *v)
{
    return v->src && v->axis < 0 ? ar_printf(w->c->arena, "(int64_t)(%s)", pos_c(w, &v->pos)) : NULL;
}

/* A check on a value: "WHERE TEXT", the axis index first when dynamic. */
static void val_fail(W *w, const PVal *v, const char *cond, const char *status, const Origin *why, const char *text,
                     const char *a0, const char *a1, const char *a2)
{
    const char *idx = val_idx(w, v);
    const char *msg = ar_printf(w->c->arena, "%s %s", v->where, text);
    if (idx)
        fail_if(w, cond, status, why, msg, idx, a0, a1, a2);
    else
        fail_if(w, cond, status, why, msg, a0, a1, a2, NULL);
}

/* ---- dimensions as C expressions -------------------------------------- */

/* The C local (or expression) of a known variable. */
static const char *var_c(W *w, PVar *pv)
{
    if (!pv->local && pv->val)          /* a stand-in: its value's place */
        pv->local = val_c(w, pv->val);
    return pv->local;
}

static const char *cached(W *w, Dim *d)
{
    const char *v = dm_get(&w->cache, d);
    return v || !w->in_block ? v : dm_get(&w->block, d);
}

/* The local that holds the sum of d's first n terms (hash h), or NULL. */
static const char *cached_prefix(W *w, Dim *d, uint32_t n, uint64_t h)
{
    const char *v = dm_get_prefix(&w->cache, d, n, h);
    return v || !w->in_block ? v : dm_get_prefix(&w->block, d, n, h);
}

static const char *dim_c(W *w, Dim *d, int raw, int *arith);

/* The condition under which d's value is unknown at run time (a variable
 * of it is AXON_DIM_UNKNOWN: plan.h, PVar.maybe_unknown), or NULL: a term
 * is unknown where a variable of it is, unless another factor of it is 0
 * (then the term is 0, as mono_c computes it: `e * (b / 2)` with e open
 * because b / 2 is 0). */
static void unknown_vars(W *w, Dim *d, Buf *b)
{
    Arena *a = w->c->arena;
    d = dim_norm(w->c, d);
    if (plan_known(w->p, d))
        return;
    for (uint32_t i = 0; i < d->nt; i++) {
        Buf u, z;
        buf_init(&u, a);
        buf_init(&z, a);
        for (uint32_t j = 0; j < d->t[i].nf; j++) {
            const Factor *f = &d->t[i].f[j];
            if (!f->var) {
                size_t before = u.n;
                unknown_vars(w, f->div->num, &u);
                unknown_vars(w, f->div->den, &u);
                int arith = 0;     /* num / den is 0 where 0 <= num < den */
                const char *num = u.n == before ? dim_c(w, f->div->num, 0, &arith) : NULL;
                const char *den = num && !arith ? dim_c(w, f->div->den, 0, &arith) : NULL;
                if (den && !arith)          /* (plain values: no statement, no check) */
                    buf_printf(&z, "%s(%s >= 0 && %s < %s)", z.n ? " || " : "", num, num, den);
            } else if (plan_var(w->p, f->var) && plan_var(w->p, f->var)->maybe_unknown) {
                const char *t = ar_printf(a, "%s == AXON_DIM_UNKNOWN", var_c(w, plan_var(w->p, f->var)));
                if (!strstr(buf_str(&u), t))
                    buf_printf(&u, "%s%s", u.n ? " || " : "", t);
            } else if (plan_var(w->p, f->var)) {
                buf_printf(&z, "%s%s == 0", z.n ? " || " : "", var_c(w, plan_var(w->p, f->var)));
            }
        }
        if (!u.n)
            continue;
        const char *t = z.n ? ar_printf(a, "((%s) && !(%s))", buf_str(&u), buf_str(&z)) : buf_str(&u);
        if (!strstr(buf_str(b), t))
            buf_printf(b, "%s%s", b->n ? " || " : "", t);
    }
}

static const char *unknown_cond(W *w, Dim *d, const PVal *v)
{
    Buf b;
    buf_init(&b, w->c->arena);
    if (d && plan_maybe_unknown(w->p, d))
        unknown_vars(w, d, &b);
    if (v && v->maybe_unknown)
        buf_printf(&b, "%s%s == AXON_DIM_UNKNOWN", b.n ? " || " : "", val_c(w, v));
    return b.n ? buf_str(&b) : NULL;
}

/* Whether d is known from its variables alone (not through a split). */
static int plan_dim_computable(W *w, Dim *d)
{
    d = dim_norm(w->c, d);
    if (plan_known(w->p, d) || cached(w, d))
        return 1;
    for (uint32_t i = 0; i < d->nt; i++)
        for (uint32_t j = 0; j < d->t[i].nf; j++) {
            const Factor *f = &d->t[i].f[j];
            if (f->var ? !plan_var(w->p, f->var) : !plan_dim_computable(w, f->div->num) || !plan_dim_computable(w, f->div->den))
                return 0;
        }
    return 1;
}

static const char *dim_c(W *w, Dim *d, int raw, int *arith);

/* The C expression of one term of a sum; after the first (later) a
 * negative coefficient is subtracted (*neg set), its magnitude (INT64_MIN's
 * included) a literal or an expression.  NULL: a variable is not known.
 * A product is 0 when a factor of it is 0, however large the others: the
 * floor divisions come first (axon__mul gives 0 for a 0 operand without
 * looking at the other, so a 0 quotient makes the rest 0), and the first
 * factor goes through axon__guard, which makes it 0 when a size of the
 * product is 0 (every division is still computed: its divisor is tested). */
/* A product of more factors than this is an array that axon__prod
 * multiplies (0 when a factor is 0, however large the others): nested
 * calls would be as deep as the product is long (`elements(s)` of a
 * 65536-axis s), past what compilers parse. */
enum { MONO_NEST_MAX = 8 };

static const char *mono_c(W *w, const Mono *m, int later, int raw, int *arith, int *neg)
{
    Arena *a = w->c->arena;
    const char *term = NULL, *zero = NULL;
    uint64_t nmul = 0;
    for (uint32_t j = 0; j < m->nf; j++)
        nmul += m->f[j].pow;
    if (nmul > MONO_NEST_MAX)
        nmul = 0;                           /* (no guard: axon__prod's) */
    PtrVec xs = { 0 };                      /* the factors, divisions first */
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t j = 0; j < m->nf; j++) {
            const Factor *f = &m->f[j];
            const char *x;
            if ((f->var != NULL) != (pass == 1))
                continue;
            if (f->var) {
                if (!plan_var(w->p, f->var))
                    return NULL;
                x = var_c(w, plan_var(w->p, f->var));
                if (nmul > 2)
                    zero = zero ? ar_printf(a, "%s || %s == 0", zero, x) : ar_printf(a, "%s == 0", x);
            } else {
                const char *num = dim_c(w, f->div->num, raw, arith);
                const char *den = dim_c(w, f->div->den, raw, arith);
                if (!num || !den)
                    return NULL;
                x = ar_printf(a, "axon__div(%s, %s, &bad)", num, den);
                *arith = 1;
            }
            for (uint32_t p = 0; p < f->pow; p++)
                pv_push(a, &xs, (void *)x);
        }
    if (xs.n > MONO_NEST_MAX) {
        Buf b;
        buf_init(&b, a);
        const char *arr = plan_local(w->p, "pf");
        buf_printf(&b, "const int64_t %s[] = { ", arr);
        for (int i = 0; i < xs.n; i++)
            buf_printf(&b, "%s%s", i ? ", " : "", (const char *)xs.items[i]);
        buf_puts(&b, " };");
        decl(w, arr, buf_str(&b));
        term = ar_printf(a, "axon__prod(%s, %d, &bad)", arr, xs.n);
        *arith = 1;
    }
    for (int i = 0; i < xs.n && xs.n <= MONO_NEST_MAX; i++) {
        const char *x = xs.items[i];
        if (i == 0 && zero)
            x = ar_printf(a, "axon__guard(%s, %s)", x, zero);
        term = term ? ar_printf(a, "axon__mul(%s, %s, &bad)", term, x) : x;
        if (i)
            *arith = 1;
    }
    int64_t coef = m->coef;
    *neg = coef < 0 && later;
    uint64_t mag = mag64(coef);
    const char *cs = *neg ? (mag > (uint64_t)INT64_MAX ? NULL : i64(w, (int64_t)mag)) : i64(w, coef);
    if (m->nf == 0) {
        term = cs ? cs : i64(w, coef);
        if (!cs)                   /* - INT64_MIN: add it instead of subtracting */
            *neg = 0;
    } else if (coef != 1 && !(coef == -1 && later)) {
        if (!cs) {
            cs = i64(w, coef);
            *neg = 0;
        }
        term = ar_printf(a, "axon__mul(%s, %s, &bad)", cs, term);
        *arith = 1;
    }
    return term;
}

/* The C expression of a known dimension.  Arithmetic goes through the
 * checked helpers, which set `bad` (the caller tests it: *arith is set). */
static const char *dim_c(W *w, Dim *d, int raw, int *arith)
{
    Arena *a = w->c->arena;
    d = raw ? dim_norm_raw(w->c, d) : dim_norm(w->c, d);
    if (d->ragged)
        return "AXON_DIM_RAGGED";
    int64_t k;
    if (dim_is_const(d, &k))
        return i64(w, k);
    DVar *v = dim_is_var(d);
    if (v)
        return plan_var(w->p, v) ? var_c(w, plan_var(w->p, v)) : NULL;
    int own = w->from_vars && dim_equal(d, w->from_vars);
    const PVal *kv = plan_known(w->p, d);
    if (kv)
        return val_c(w, kv);
    const char *given = own ? NULL : cached(w, d);   /* (the cache may hold d's own value) */
    if (given)
        return given;
    int computable = raw || plan_dim_computable(w, d);
    if (!computable || (!raw && (plan_unknown_vars(w->p, d) || dim_has_neg(d)))) {
        /* c * K + rest, with K an expression an input gives: where d's
         * variables are not all known, or where one may be
         * AXON_DIM_UNKNOWN and the split leaves none that may, or where
         * d has a minus (2 * p - 2 computed as such overflows where
         * 2 * K, K = p - 1 an input axis, does not) */
        int64_t c;
        Dim *rest;
        const PVal *k = plan_known_split(w->p, d, &c, &rest, computable);
        if (k) {
            int64_t zero;
            const char *r = dim_c(w, rest, 0, arith);
            const char *kc = c == 1 ? val_c(w, k) : ar_printf(w->c->arena, "axon__mul(%s, %s, &bad)", i64(w, c), val_c(w, k));
            if (c != 1)
                *arith = 1;
            if (dim_is_const(rest, &zero) && zero == 0)
                return kc;
            *arith = 1;
            return ar_printf(w->c->arena, "axon__add(%s, %s, &bad)", kc, r);
        }
        Dim *in_k = plan_known_subst(w->p, d, computable);   /* (K^2: a product's square) */
        if (in_k)
            return dim_c(w, in_k, 0, arith);
        /* (not computable: a floor division's numerator may still be,
         * split there; the terms below say) */
    }
    /* A sum a local holds a prefix of (a chain of concats makes a + b,
     * then a + b + c, ...) starts from that local: the header stays
     * linear in the chain. */
    const char **term = ar_alloc(a, sizeof *term * (d->nt + 1));
    int *neg = ar_alloc(a, sizeof *neg * (d->nt + 1));
    uint32_t n = 0, from = 0;
    if (d->nt > 2) {
        uint64_t *pre = ar_alloc(a, sizeof *pre * d->nt);
        dim_hash_prefixes(d, w->cache.gen, pre);
        for (uint32_t i = d->nt - 1; i >= 2 && !n; i--) {
            const char *held = cached_prefix(w, d, i, pre[i - 1]);
            if (held) {
                term[n] = held;
                neg[n++] = 0;
                from = i;
            }
        }
    }
    for (uint32_t i = from; i < d->nt; i++) {
        term[n] = mono_c(w, &d->t[i], n > 0, raw, arith, &neg[n]);
        if (!term[n])
            return NULL;
        n++;
    }
    if (n == 0)
        return "INT64_C(0)";
    if (n == 1)
        return term[0];
    /* axon__add(axon__sub(t0, t1, &bad), t2, &bad): built in one pass */
    *arith = 1;
    Buf b;
    buf_init(&b, a);
    for (uint32_t i = n - 1; i >= 1; i--)
        buf_printf(&b, "axon__%s(", neg[i] ? "sub" : "add");
    buf_puts(&b, term[0]);
    for (uint32_t i = 1; i < n; i++)
        buf_printf(&b, ", %s, &bad)", term[i]);
    return buf_str(&b);
}

/* Evaluates a known dimension into a local (when it is arithmetic), with
 * the overflow check; NULL if not known. */
static const char *dim_local_raw(W *w, Dim *d, int raw, const Origin *why, const char *what)
{
    int arith = 0;
    const char *e = dim_c(w, d, raw, &arith);
    if (!e || !arith)
        return e;
    const char *v = plan_local(w->p, "e");
    decl_effect(w, v, e);
    fail_if(w, "bad", "AXON_ERR_OVERFLOW", why,
            ar_printf(w->c->arena, "%s overflows int64 (or divides by zero)", what), NULL, NULL, NULL, NULL);
    if (!raw && !w->no_cache)
        dm_put(w->in_block ? &w->block : &w->cache, dim_norm(w->c, d), (void *)v);
    return v;
}

static const char *dim_local(W *w, Dim *d, const Origin *why, const char *what)
{
    return dim_local_raw(w, d, 0, why, what);
}

/* A known dimension's value, AXON_DIM_UNKNOWN when a variable of it is
 * (its arithmetic is then not checked, and not kept for later uses). */
static const char *dim_value(W *w, Dim *d, const Origin *why, const char *what)
{
    const char *cond = unknown_cond(w, d, NULL);
    if (!cond)
        return dim_local(w, d, why, what);
    const char *saved = w->guard;
    int saved_cache = w->no_cache;
    w->guard = cond;
    w->no_cache = 1;
    const char *e = dim_local(w, d, why, what);
    w->guard = saved;
    w->no_cache = saved_cache;
    if (!e)
        return NULL;
    const char *v = plan_local(w->p, "u");
    decl(w, v, ar_printf(w->c->arena, "int64_t %s = (%s) ? AXON_DIM_UNKNOWN : %s;", v, cond, e));
    return v;
}

/* Materialises a known shape into a local axon_shape named t. */
static void shape_local(W *w, Shape *s, const char *t, const Origin *why, const char *what)
{
    s = shape_norm(w->c, s);
    line(w, "axon_shape %s;", t);
    line(w, "%s.rank = 0;", t);
    for (uint32_t i = 0; i < s->n; i++) {
        const char *push;
        if (s->s[i].var) {
            SVar *v = s->s[i].var;
            push = ar_printf(w->c->arena, "axon__append(&%s, %s, %s)", t, run_p(w, v), run_n(w, v));
        } else {
            const char *v = dim_value(w, s->s[i].dim, why, what);
            push = ar_printf(w->c->arena, "axon__push(&%s, %s)", t, v);
        }
        fail_if(w, push, "AXON_ERR_RANK", why,
                ar_printf(w->c->arena, "%s has more than AXON_MAX_RANK axes", what), NULL, NULL, NULL, NULL);
    }
}

/* (pointer, count) of a known shape, materialising it when needed. */
static void shape_run(W *w, Shape *s, const Origin *why, const char *what, const char **p, const char **n)
{
    Shape *ns = shape_norm(w->c, s);
    if (ns->n == 1 && ns->s[0].var) {
        *p = run_p(w, ns->s[0].var);
        *n = run_n(w, ns->s[0].var);
        return;
    }
    const char *t = plan_local(w->p, "sh");
    shape_local(w, ns, t, why, what);
    *p = ar_printf(w->c->arena, "%s.dims", t);
    *n = ar_printf(w->c->arena, "%s.rank", t);
}

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
        fail_if(w, ar_printf(a, "in[%d].rank != %d", st->input, st->fixed), "AXON_ERR_RANK", st->why,
                ar_printf(a, "%s has rank {}, expected %d", t->desc, st->fixed), ar_printf(a, "in[%d].rank", st->input),
                NULL, NULL, NULL);
    else
        fail_if(w, ar_printf(a, "in[%d].rank < %d || in[%d].rank > AXON_MAX_RANK", st->input, st->fixed, st->input),
                "AXON_ERR_RANK", st->why,
                ar_printf(a, "%s has rank {}, expected at least {} (%s) and at most AXON_MAX_RANK", t->desc,
                          shape_text(w, st->pattern)),
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
            fail_if(w, ar_printf(a, "%s < 0", v), "AXON_ERR_SIZE", t->at ? t->at : st->why,
                    ar_printf(a, "%s axis %d is {}, expected a size (>= 0)", t->desc, i), v, NULL, NULL, NULL);
        }
        return;
    }
    const char *j = plan_local(w->p, "i");
    line(w, "for (int %s = 0; %s < %s; %s++)", j, j, known ? ar_printf(a, "%d", st->fixed) : ar_printf(a, "in[%d].rank", st->input), j);
    w->indent++;
    const char *v = ar_printf(a, "in[%d].dims[%s]", st->input, j);
    fail_if(w, st->ragged ? ar_printf(a, "%s < 0 && %s != AXON_DIM_RAGGED", v, v) : ar_printf(a, "%s < 0", v),
            "AXON_ERR_SIZE", t->at ? t->at : st->why,
            ar_printf(a, "%s axis {} is {}, expected a size (>= 0)", t->desc), ar_printf(a, "(int64_t)%s", j), v, NULL,
            NULL);
    w->indent--;
}

static const char *runs_len(W *w, int fixed, const PtrVec *runs)
{
    const char *s = ar_printf(w->c->arena, "%d", fixed);
    for (int i = 0; i < runs->n; i++)
        s = ar_printf(w->c->arena, "%s + %s", s, run_n(w, runs->items[i]));
    return s;
}

static void w_match(W *w, PStep *st)
{
    Arena *a = w->c->arena;
    const char *src = src_c(w, st->src);
    const char *rank = ar_printf(a, "%s.rank", src);
    const char *len = runs_len(w, st->fixed, &st->runs);
    const char *pat = shape_text(w, st->pattern);
    const Origin *why = st->why;
    int is_input = st->src->input >= 0;
    if (st->unknown && (!is_input || st->runs.n))
        fail_if(w, ar_printf(a, "%s < %s", rank, len), "AXON_ERR_RANK", why,
                ar_printf(a, "%s has rank {}, expected at least {} (%s)%s", st->src->desc, pat,
                          is_input ? " and at most AXON_MAX_RANK" : ""),
                rank, len, NULL, NULL);
    else if (!st->unknown && (!is_input || st->runs.n))
        fail_if(w, ar_printf(a, "%s != %s", rank, len), "AXON_ERR_RANK", why,
                ar_printf(a, "%s has rank {}, expected {} (%s)", st->src->desc, pat), rank, len, NULL, NULL);
    for (int i = 0; i < st->placed.n; i++) {
        SVar *v = st->placed.items[i];
        decl(w, run_p(w, v), ar_printf(a, "const int64_t *%s = %s.dims + (%s);", run_p(w, v), src, pos_c(w, &plan_run(v)->off)));
    }
    if (st->unknown) {
        PRun *r = plan_run(st->unknown);
        decl(w, run_p(w, st->unknown),
             ar_printf(a, "const int64_t *%s = %s.dims + (%s);", run_p(w, st->unknown), src, pos_c(w, &r->off)));
        decl(w, run_n(w, st->unknown), ar_printf(a, "int %s = %s - (%s);", run_n(w, st->unknown), rank, pos_c(w, &r->rest)));
    }
}

static void w_same_run(W *w, PStep *st)
{
    Arena *a = w->c->arena;
    SVar *v = st->run;
    PRun *r = plan_run(v);
    const char *name = namer_name_of(w->p->nm, &v->stamp, &v->mark);
    const char *j = plan_local(w->p, "i");
    const char *pos = pos_c(w, &st->pos);
    const char *at = ar_printf(a, "%s.dims[%s + %s]", src_c(w, st->src), pos, j);
    line(w, "for (int %s = 0; %s < %s; %s++)", j, j, run_n(w, v), j);
    w->indent++;
    const char *cond = ar_printf(a, "%s != %s[%s]", at, run_p(w, v), j);
    if (st->src->maybe_unknown || r->src->maybe_unknown)   /* an unknown size matches any */
        cond = ar_printf(a, "%s && %s != AXON_DIM_UNKNOWN && %s[%s] != AXON_DIM_UNKNOWN", cond, at, run_p(w, v), j);
    fail_if(w, cond, "AXON_ERR_SIZE", st->why,
            ar_printf(a, "%s axis {} is {}, expected {} (%s, from %s axis {})", st->src->desc, name ? name : "a shape",
                      r->from),
            ar_printf(a, "(int64_t)(%s + %s)", pos, j), at, ar_printf(a, "%s[%s]", run_p(w, v), j),
            ar_printf(a, "(int64_t)(%s + %s)", pos_c(w, &r->off), j));
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
    const char *text = dim_text(w, d, st->raw);
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
    const char *val = val_c(w, &st->val);
    const Origin *why = node_reason(st->orig, st->why);
    int64_t k;
    if (st->k) {                             /* a broadcast's known result */
        const char *want = dim_local(w, st->d, st->why, dim_text(w, st->d, 0));
        fail_if(w, ar_printf(a, "%s != %s", val, want), "AXON_ERR_BROADCAST", st->why,
                ar_printf(a, "the broadcast is {}, expected {} (%s)", cons_text(w, st->k)), val, want, NULL, NULL);
        return;
    }
    if (st->text) {                          /* from a residual: l = r */
        const char *want = dim_local_raw(w, st->d, st->raw, st->why, dim_text(w, st->d, st->raw));
        if (!st->raw && st->val.local && st->val.src == NULL && st->other) {
            eq_failure(w, st->d, st->other, want, val, st->why, st->text);
            return;
        }
        fail_if(w, ar_printf(a, "%s != %s", want, val), "AXON_ERR_CONSTRAINT", st->why,
                ar_printf(a, "%s does not hold: %s is {}, expected {}", st->text, dim_text(w, st->d, st->raw)), want, val,
                NULL, NULL);
        return;
    }
    if (dim_is_const(st->d, &k)) {
        val_fail(w, &st->val, ar_printf(a, "%s != %s", val, i64(w, k)), "AXON_ERR_SIZE", why,
                 ar_printf(a, "is {}, expected %lld", (long long)k), val, NULL, NULL);
        return;
    }
    int since = -1;
    if (st->from_vars) {
        w->from_vars = dim_norm(w->c, st->d);
        since = plan_hide_known(w->p, st->d);
    }
    const char *want = dim_local(w, st->d, why, ar_printf(a, "the size expected at %s", st->val.where));
    if (st->from_vars)
        plan_unhide_known(w->p, st->d, since);
    w->from_vars = NULL;
    const char *from_idx;
    const char *from = expect_from(w, st, &why, &from_idx);
    val_fail(w, &st->val, ar_printf(a, "%s != %s", val, want), "AXON_ERR_SIZE", why,
             ar_printf(a, "is {}, expected {}%s", from), val, want, from_idx);
    if (dim_has_neg(st->d) && !st->val.nonneg)     /* equal, but both could be negative */
        val_fail(w, &st->val, ar_printf(a, "%s < 0", val), "AXON_ERR_SIZE", why, "is {}, expected a size (>= 0)", val,
                 NULL, NULL);
}

static void w_bind(W *w, PStep *st)
{
    PVar *pv = plan_var(w->p, st->var);
    const char *val = val_c(w, &st->val);
    pv->from_idx = val_idx(w, &st->val);
    decl(w, pv->local, ar_printf(w->c->arena, "int64_t %s = %s;", pv->local, val));
    if (!st->val.nonneg)
        val_fail(w, &st->val, ar_printf(w->c->arena, "%s < 0", pv->local), "AXON_ERR_SIZE",
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
    const char *val = val_c(w, &st->val);
    const char *form = dim_text(w, st->d, st->raw);
    const char *name = namer_name_of(w->p->nm, &st->var->stamp, &st->var->mark);
    if (!name)
        name = "the unknown";
    pv->from_idx = val_idx(w, &st->val);
    Buf u;
    buf_init(&u, a);
    const char *parts[3] = { unknown_cond(w, st->rest, NULL), st->factor ? unknown_cond(w, st->factor, NULL) : NULL,
                             unknown_cond(w, NULL, &st->val) };
    for (int i = 0; i < 3; i++)
        if (parts[i])
            buf_printf(&u, "%s%s", u.n ? " || " : "", parts[i]);
    const char *unk = u.n ? buf_str(&u) : NULL;
    w->guard = unk;
    const char *restc = dim_local_raw(w, st->rest, st->raw, why, ar_printf(a, "the size at %s", st->val.where));
    const char *t = plan_local(w->p, "q");
    int64_t z;
    int rest0 = dim_is_const(st->rest, &z) && z == 0;
    if (rest0) {
        line(w, "int64_t %s = %s;", t, val);
    } else {
        line(w, "int64_t %s = axon__sub(%s, %s, &bad);", t, val, restc);
        fail_if(w, "bad", "AXON_ERR_OVERFLOW", why, ar_printf(a, "%s: the size overflows int64", st->val.where), NULL,
                NULL, NULL, NULL);
    }
    /* The multiplier: coef * factor, a constant or known at run time. */
    const char *mul = i64(w, st->coef);
    const char *zero = NULL;            /* the multiplier is 0: x undetermined */
    if (st->factor) {
        const char *f = dim_local_raw(w, st->factor, st->raw, why, ar_printf(a, "the size at %s", st->val.where));
        if (st->coef == 1) {
            mul = f;
        } else {
            mul = plan_local(w->p, "m");
            line(w, "int64_t %s = axon__mul(%s, %s, &bad);", mul, i64(w, st->coef), f);
            fail_if(w, "bad", "AXON_ERR_OVERFLOW", why, ar_printf(a, "%s: the size overflows int64", st->val.where),
                    NULL, NULL, NULL, NULL);
        }
        if (!st->nonzero) {
            zero = ar_printf(a, "%s == 0", mul);
            val_fail(w, &st->val, ar_printf(a, "%s && %s != 0", zero, t), "AXON_ERR_CONSTRAINT", why,
                     ar_printf(a, "is {}, which is not of the form %s (%s is 0)", form, dim_text(w, st->factor, st->raw)),
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
                val_fail(w, &st->val, ar_printf(a, "axon__rem(%s, %s) != 0", t, mul), "AXON_ERR_DIVISIBILITY", why,
                         ar_printf(a, "is {}, which is not of the form %s: not a multiple of %s ({})", form,
                                   dim_text(w, m, st->raw)),
                         val, mul, NULL);
            else
                val_fail(w, &st->val, ar_printf(a, "axon__rem(%s, %s) != 0", t, mul), "AXON_ERR_DIVISIBILITY", why,
                         ar_printf(a, "is {}, which is not of the form %s", form), val, NULL, NULL);
        }
        /* (a size that nothing reads once solved: only its checks stay) */
        if (zero)
            decl_effect(w, x, ar_printf(a, "%s ? AXON_DIM_UNKNOWN : axon__div(%s, %s, &bad)", zero, t, mul));
        else
            decl_effect(w, x, ar_printf(a, "axon__div(%s, %s, &bad)", t, mul));   /* (exact: no rounding) */
        if (st->coef < 0)           /* (only INT64_MIN / -1 overflows) */
            fail_if(w, "bad", "AXON_ERR_OVERFLOW", why, ar_printf(a, "%s: the size overflows int64", st->val.where),
                    NULL, NULL, NULL, NULL);
    } else {
        decl(w, x, ar_printf(a, "int64_t %s = %s;", x, t));
    }
    /* A size >= 0 divided by a positive multiplier cannot be negative. */
    if (!(rest0 && st->val.nonneg && st->coef > 0 && (!st->factor || st->nonzero)))
        val_fail(w, &st->val, ar_printf(a, "%s < 0", x), "AXON_ERR_NEGATIVE", why,
                 ar_printf(a, "is {}, which is not of the form %s with %s >= 0", form, name), val, NULL, NULL);
    const char *r = x;
    if (st->pow != 1) {
        r = plan_local(w->p, "r");
        decl_effect(w, r, ar_printf(a, "axon__root(%s, %u, &bad)", x, st->pow));
        val_fail(w, &st->val, "bad", "AXON_ERR_DIVISIBILITY", why,
                 ar_printf(a, "is {}, which is not of the form %s for a whole %s", form, name), val, NULL, NULL);
    }
    w->guard = NULL;
    if (r != pv->local) {
        const char *cond = unk && zero ? ar_printf(a, "%s || %s", unk, zero) : unk ? unk : zero;
        decl(w, pv->local,
             ar_printf(a, "int64_t %s = %s;", pv->local, cond ? ar_printf(a, "(%s) ? AXON_DIM_UNKNOWN : %s", cond, r) : r));
    }
}

static void w_exists(W *w, PStep *st)
{
    Arena *a = w->c->arena;
    const char *val = val_c(w, &st->val);
    const Origin *why = node_reason(st->orig, st->why);
    const char *k = dim_local(w, st->rest, why, ar_printf(a, "the size at %s", st->val.where));
    const char *form = dim_text(w, st->d, st->raw);
    val_fail(w, &st->val, ar_printf(a, "%s %s %s", val, st->sign > 0 ? "<" : ">", k), "AXON_ERR_CONSTRAINT", why,
             ar_printf(a, "is {}, which is not of the form %s for sizes %s (it must be at %s {})", form, st->text,
                       st->sign > 0 ? "least" : "most"),
             val, k, NULL);
}

static void w_known(W *w, PStep *st)
{
    const char *val = val_c(w, &st->val);
    decl(w, st->local, ar_printf(w->c->arena, "int64_t %s = %s;", st->local, val));
    if (!st->val.nonneg)
        val_fail(w, &st->val, ar_printf(w->c->arena, "%s < 0", st->local), "AXON_ERR_SIZE",
                 node_reason(st->orig, st->why), "is {}, expected a size (>= 0)", st->local, NULL, NULL);
}

/* The known side of an equation, AXON_DIM_UNKNOWN where a variable of it
 * is (plan.c sets the value's maybe_unknown alike). */
static void w_eval(W *w, PStep *st)
{
    int arith = 0;
    const char *cond = unknown_cond(w, st->d, NULL);
    const char *saved = w->guard;
    w->guard = cond;
    const char *e = dim_c(w, st->d, st->raw, &arith);
    const char *v = cond ? plan_local(w->p, "e") : st->local;
    line(w, "int64_t %s = %s;", v, e);
    if (arith)
        fail_if(w, "bad", "AXON_ERR_OVERFLOW", st->why,
                ar_printf(w->c->arena, "%s overflows int64 (or divides by zero)", dim_text(w, st->d, st->raw)), NULL,
                NULL, NULL, NULL);
    w->guard = saved;
    if (cond)
        line(w, "int64_t %s = (%s) ? AXON_DIM_UNKNOWN : %s;", st->local, cond, v);
}

static void w_bcast_dim(W *w, PStep *st)
{
    Arena *a = w->c->arena;
    Constraint *k = st->k;
    const char *acc = st->local;
    for (int i = 0; i < k->ops.n; i++) {
        Dim *d = dim_norm(w->c, k->ops.items[i]);
        const char *v = dim_value(w, d, k->why, "a broadcast size");
        if (i == 0) {               /* broadcast(x) = x: nothing to check */
            line(w, "int64_t %s = %s;", acc, v);
            continue;
        }
        const char *text = dim_text(w, d, 0);
        DVar *dv = dim_is_var(d);
        const char *from = dv && plan_var(w->p, dv) && plan_var(w->p, dv)->from
                               ? ar_printf(a, "%s, from %s", text, plan_var(w->p, dv)->from)
                               : text;
        fail_if(w, ar_printf(a, "axon__bcast(&%s, %s)", acc, v), "AXON_ERR_BROADCAST", k->why,
                ar_printf(a, "cannot broadcast size {} (%s) with size {}", from), v, acc, NULL, NULL);
    }
}

static void w_bcast_shape(W *w, PStep *st)
{
    Arena *a = w->c->arena;
    Constraint *k = st->k;
    const char *acc = st->local;
    line(w, "axon_shape %s;", acc);
    line(w, "%s.rank = 0;", acc);
    const char *ax = plan_local(w->p, "ax");
    line(w, "int %s;", ax);
    for (int i = 0; i < k->ops.n; i++) {
        const char *p, *n;
        shape_run(w, k->ops.items[i], k->why, "a broadcast operand", &p, &n);
        if (i == 0) {               /* the first operand only needs to fit */
            fail_if(w, ar_printf(a, "axon__append(&%s, %s, %s)", acc, p, n), "AXON_ERR_RANK", k->why,
                    "a broadcast has more than AXON_MAX_RANK axes", NULL, NULL, NULL, NULL);
            continue;
        }
        const char *text = shape_text(w, k->ops.items[i]);
        fail_if(w, ar_printf(a, "(%s = axon__bcast_into(&%s, %s, %s)) >= 0", ax, acc, p, n), "AXON_ERR_BROADCAST",
                k->why, ar_printf(a, "cannot broadcast %s: axis {} from the end is {}, where the others give {}", text),
                ax, ar_printf(a, "(%s == AXON_MAX_RANK ? 0 : %s[%s - 1 - %s])", ax, p, n, ax),
                ar_printf(a, "(%s == AXON_MAX_RANK ? 0 : %s.dims[%s.rank - 1 - %s])", ax, acc, acc, ax), NULL);
    }
    if (st->run) {                  /* the broadcast defines this run */
        decl(w, run_p(w, st->run), ar_printf(a, "const int64_t *%s = %s.dims;", run_p(w, st->run), acc));
        decl(w, run_n(w, st->run), ar_printf(a, "int %s = %s.rank;", run_n(w, st->run), acc));
    }
}

/* rank(p) = d with d known: p's length, a rank (0 .. AXON_MAX_RANK). */
static void w_run_len(W *w, PStep *st)
{
    Arena *a = w->c->arena;
    const char *v = dim_value(w, st->d, st->why, "a rank");
    const char *n = run_n(w, st->run);
    fail_if(w, ar_printf(a, "%s < 0 || %s > AXON_MAX_RANK", v, v), "AXON_ERR_RANK", st->why,
            ar_printf(a, "rank(%s) = %s is {}, which is not a rank (0 to AXON_MAX_RANK)", plan_run(st->run)->name,
                      dim_text(w, st->d, 0)),
            v, NULL, NULL, NULL);
    decl(w, n, ar_printf(a, "int %s = (int)%s;", n, v));
}

/* elements(s): the product of the run's sizes, checked (AXON_DIM_UNKNOWN
 * where one is unknown, 0 where one is 0); rank(s): its length. */
static void w_count(W *w, PStep *st)
{
    Arena *a = w->c->arena;
    const char *p, *n;
    shape_run(w, st->pattern, st->why, "a shape", &p, &n);
    if (st->k->kind == C_RANK) {
        decl(w, st->local, ar_printf(a, "int64_t %s = %s;", st->local, n));
        return;
    }
    decl_effect(w, st->local, ar_printf(a, "axon__prod(%s, %s, &bad)", p, n));
    fail_if(w, "bad", "AXON_ERR_OVERFLOW", st->why,
            ar_printf(a, "elements(%s) overflows int64", shape_text(w, st->pattern)), NULL, NULL, NULL, NULL);
}

/* fail_if with any number of values (axon__failv). */
static void fail_ifv(W *w, const char *cond, const char *status, const Origin *why, const char *text,
                     const PtrVec *vals)
{
    int ln, col;
    const char *msg = message(w, why, &ln, &col, text);
    Buf list;
    buf_init(&list, w->c->arena);
    for (int i = 0; i < vals->n; i++)
        buf_printf(&list, "%s%s", i ? ", " : "", (const char *)vals->items[i]);
    const char *arr = plan_local(w->p, "fv");
    if (w->guard)
        line(w, "if (!(%s) && (%s)) {", w->guard, cond);
    else
        line(w, "if (%s) {", cond);
    line(w, "    const int64_t %s[] = { %s };", arr, vals->n ? buf_str(&list) : "0");
    line(w, "    return axon__failv(err, %s, %d, %d, \"%s\", %s, %d);", status, ln, col, msg, arr, vals->n);
    line(w, "}");
}

/* A size in the model's terms (spec section 8b): `h ({}, from heads
 * (input 2) axis 0)` for a size an input gives, `d / h ({})` otherwise,
 * `2` for a constant; its value in *value, and pushed to vals for a {}.
 * NULL where it is not known. */
static const char *size_said(W *w, Dim *d, PtrVec *vals, const char **value)
{
    int arith = 0;
    int64_t k;
    const char *v = *value = dim_c(w, d, 0, &arith);
    if (!v)
        return NULL;
    if (dim_is_const(dim_norm(w->c, d), &k))
        return ar_printf(w->c->arena, "%lld", (long long)k);
    pv_push(w->c->arena, vals, (void *)v);
    DVar *x = dim_is_var(dim_norm(w->c, d));
    PVar *pv = x ? plan_var(w->p, x) : NULL;
    if (pv && pv->from)
        return ar_printf(w->c->arena, "%s ({}, from %s)", dim_text(w, d, 0), pv->from);
    return ar_printf(w->c->arena, "%s ({})", dim_text(w, d, 0));
}

/* A side of an equation as its factors with their values: `b * n * d =
 * {} * {} * {} = {}` (spec section 8b), or `EXPR = {}` where it is not one
 * product of a few factors; the values pushed to vals, the total last. */
static const char *product_said(W *w, Dim *d, const char *total, PtrVec *vals)
{
    Arena *a = w->c->arena;
    d = dim_norm(w->c, d);
    const char *text = dim_text(w, d, 0);
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
                const char *v = dim_c(w, fd, 0, &arith);
                ok = v != NULL;
                if (ok) {
                    const char *ft = dim_text(w, fd, 0);
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
        fail_if(w, ar_printf(a, "%s != %s", lv, rv), "AXON_ERR_CONSTRAINT", why,
                ar_printf(a, "%s does not hold: %s is {}, expected {}", what, dim_text(w, l, 0)), lv, rv, NULL, NULL);
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
    const char *eunk = unknown_cond(w, e, NULL);
    const char *saved = w->guard;
    w->guard = NULL;
    line(w, "if (%s == AXON_DIM_UNKNOWN%s) {    /* nothing else gave %s: %s does */", pv->local,
         eunk ? ar_printf(a, " && !(%s)", eunk) : "", dim_text(w, x, 0), what);
    w->indent++;
    fail_if(w, ar_printf(a, "%s < 0", ev), "AXON_ERR_CONSTRAINT", why,
            ar_printf(a, "%s does not hold: %s is {}, which is negative", what, dim_text(w, e, 1)), ev, NULL, NULL,
            NULL);
    line(w, "%s = %s;", pv->local, ev);
    w->indent--;
    line(w, "}");
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
    const char *lv = dim_local_raw(w, l, raw, k->why, dim_text(w, l, raw));
    const char *rv = dim_local_raw(w, r, raw, k->why, dim_text(w, r, raw));
    const char *what = k->clause ? ar_printf(a, "the clause `where %s`", k->clause) : st->text;
    open_var_from(w, l, r, rv, k->why, what);
    open_var_from(w, r, l, lv, k->why, what);
    if (!raw) {
        eq_failure(w, l, r, lv, rv, k->why, what);
        return;
    }
    fail_if(w, ar_printf(a, "%s != %s", lv, rv), "AXON_ERR_CONSTRAINT", k->why,
            ar_printf(a, "%s does not hold: %s is {}, expected {}", what, dim_text(w, l, raw)), lv, rv, NULL, NULL);
}

static void w_nonneg(W *w, PStep *st)
{
    const char *text = dim_text(w, st->d, 0);
    const char *v = dim_local(w, st->d, st->k->why, text);
    if (st->k->clause)          /* a declaration's `where l <= r` */
        fail_if(w, ar_printf(w->c->arena, "%s < 0", v), "AXON_ERR_CONSTRAINT", st->k->why,
                ar_printf(w->c->arena, "the clause `where %s` does not hold (%s is {}, from %s)", st->k->clause,
                          st->k->clause_diff, text), v, NULL, NULL, NULL);
    else
        fail_if(w, ar_printf(w->c->arena, "%s < 0", v), "AXON_ERR_NEGATIVE", st->k->why,
                ar_printf(w->c->arena, "the size %s is {}, which is negative", text), v, NULL, NULL, NULL);
}

/* The condition under which a step's checks are moot: a size they
 * compare is AXON_DIM_UNKNOWN (nothing determines it, so any value is
 * possible), or NULL. */
static const char *step_guard(W *w, PStep *st)
{
    switch (st->kind) {
    case PS_CHECK: case PS_EXISTS: case PS_KNOWN: case PS_RAGGED:
        return unknown_cond(w, st->kind == PS_CHECK ? st->d : NULL, &st->val);
    case PS_BIND:
        return unknown_cond(w, NULL, &st->val);
    case PS_EQ_DIM: {
        const char *l = unknown_cond(w, st->k->l, NULL), *r = unknown_cond(w, st->k->r, NULL);
        return l && r ? ar_printf(w->c->arena, "%s || %s", l, r) : l ? l : r;
    }
    case PS_NONNEG:
        return unknown_cond(w, st->d, NULL);
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
static char **checked_only_axes(W *w)
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

static void write_step(W *w, PStep *st)
{
    w->guard = step_guard(w, st);
    switch (st->kind) {
    case PS_RANK: w_rank(w, st); break;
    case PS_MATCH: w_match(w, st); break;
    case PS_SAME_RUN: w_same_run(w, st); break;
    case PS_RAGGED: {
        const char *val = val_c(w, &st->val);
        val_fail(w, &st->val, ar_printf(w->c->arena, "%s != AXON_DIM_RAGGED", val), "AXON_ERR_SIZE",
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
        shape_local(w, st->pattern, st->local, st->why, st->text);
        break;
    case PS_EQ_DIM: w_eq_dim(w, st); break;
    case PS_NONNEG: w_nonneg(w, st); break;
    case PS_COUNT: w_count(w, st); break;
    case PS_RUN_LEN: w_run_len(w, st); break;
    case PS_FITS:
        (void)dim_value(w, st->d, st->k->why, "a size of its result");
        break;
    }
    w->guard = NULL;
}

/* ---- outputs and intermediates ----------------------------------------- */

/* An axis whose size the inputs do not determine (a data-dependent `?`). */
typedef struct OpenAxis {
    const char *idx;        /* its index in the shape, a C expression */
    Dim *d;                 /* its size */
    unsigned axis;          /* its place in the pattern (for messages) */
} OpenAxis;

/* Writes t's shape into the axon_shape `dst`.  The fixed-rank prefix (before
 * any shape variable) is stored directly: the header's #if guarantees
 * AXON_MAX_RANK is large enough for it.  The axes whose size the inputs
 * do not determine go to *open (OpenAxis*). */
static void emit_result(W *w, PTensor *t, const char *dst, int *max_static, PtrVec *open)
{
    Arena *a = w->c->arena;
    Shape *s = shape_norm(w->c, t->type->u.ten.shape);
    const Origin *why = t->type->origin;
    uint32_t prefix = 0;
    while (prefix < s->n && s->s[prefix].dim)
        prefix++;
    if ((int)prefix > *max_static)
        *max_static = (int)prefix;
    const char *runs = "";      /* the lengths of the runs so far: " + s_a_n" */
    uint32_t sizes = 0;         /* the sizes so far */
    for (uint32_t i = 0; i < s->n; i++) {
        const char *v = NULL;
        if (s->s[i].dim) {
            Dim *d = s->s[i].dim;
            v = dim_value(w, d, why, ar_printf(a, "a size of %s", t->desc));
            if (!v) {
                v = "AXON_DIM_UNKNOWN";
                OpenAxis *o = ar_alloc(a, sizeof *o);
                o->idx = sizes || !*runs ? ar_printf(a, "%u%s", sizes, runs) : runs + 3;   /* (no "0 + ") */
                o->d = d;
                o->axis = i;
                pv_push(a, open, o);
            }
            sizes++;
        }
        if (i < prefix) {
            line(w, "%s.dims[%u] = %s;", dst, i, v);
            if (i + 1 == prefix)
                line(w, "%s.rank = %u;", dst, prefix);
            continue;
        }
        if (i == 0)
            line(w, "%s.rank = 0;", dst);
        if (s->s[i].var) {
            SVar *r = s->s[i].var;
            fail_if(w, ar_printf(a, "axon__append(&%s, %s, %s)", dst, run_p(w, r), run_n(w, r)), "AXON_ERR_RANK", why,
                    ar_printf(a, "%s would have more than AXON_MAX_RANK axes", t->desc), NULL, NULL, NULL, NULL);
            runs = ar_printf(a, "%s + %s", runs, run_n(w, r));
        } else {
            fail_if(w, ar_printf(a, "axon__push(&%s, %s)", dst, v), "AXON_ERR_RANK", why,
                    ar_printf(a, "%s would have more than AXON_MAX_RANK axes", t->desc), NULL, NULL, NULL, NULL);
        }
    }
    if (s->n == 0)
        line(w, "%s.rank = 0;", dst);
}

/* The value of a bound (bounds.c) made of known sizes, for the largest
 * shape: 0 where it is negative (the clause cannot hold: nothing fits),
 * AXON_DIM_UNKNOWN where it overflows or a size of it is unknown.  Nothing
 * fails: a bound past int64 is only no bound.  NULL if not computable. */
static const char *bound_value(W *w, Dim *u)
{
    const char *cond = unknown_cond(w, u, NULL);
    int saved = w->no_cache, arith = 0;
    w->no_cache = 1;
    const char *e = dim_c(w, u, 0, &arith);
    w->no_cache = saved;
    if (!e)
        return NULL;
    if (!arith && !cond && !dim_has_neg(u))
        return e;
    const char *v = plan_local(w->p, "m");
    line(w, "int64_t %s = %s;", v, e);
    if (dim_has_neg(u)) {
        line(w, "if (%s < 0)", v);
        line(w, "    %s = 0;", v);
    }
    if (arith || cond) {
        line(w, "if (%s%s%s) {", arith ? "bad" : "", arith && cond ? " || " : "", cond ? cond : "");
        line(w, "    %s = AXON_DIM_UNKNOWN;", v);
        if (arith)
            line(w, "    bad = 0;");
        line(w, "}");
    }
    return v;
}

/* Writes into mdst the largest shape of t (in dst): each size the inputs
 * do not determine (open, from emit_result) at the bound its `where`
 * clauses give (`nonzero`'s `? <= n`), else AXON_DIM_UNKNOWN, with a
 * warning when asked.  Notes the bounds for the comment above the
 * function. */
static void emit_max(W *w, PTensor *t, const char *dst, const char *mdst, PtrVec *open, Bounds *rb, int warn)
{
    Arena *a = w->c->arena;
    const Origin *why = t->type->origin;
    line(w, "%s = %s;", mdst, dst);
    for (int i = 0; i < open->n; i++) {
        const OpenAxis *o = open->items[i];
        Dim *u = bounds_upper(rb, o->d);
        const char *v = u ? bound_value(w, u) : NULL;
        if (v)
            t->bound = ar_printf(a, "%s%saxis %u at most %s", t->bound ? t->bound : "", t->bound ? ", " : "",
                                 o->axis, dim_text(w, u, 0));
        else if (warn)
            diag_warning(w->c->diag, why ? why->loc : (Loc){ 0, 0, 0 },
                         "'%s': %s axis %u (%s) is not determined by the input shapes, and no `where` clause "
                         "bounds it: it is AXON_DIM_UNKNOWN at run time, and so is its largest size",
                         w->p->fname, t->desc, o->axis, dim_text(w, o->d, 0));
        line(w, "%s.dims[%s] = %s;", mdst, o->idx, v ? v : "AXON_DIM_UNKNOWN");
    }
}

static void check_temp_rank(W *w, PTensor *t)
{
    Arena *a = w->c->arena;
    Shape *s = shape_norm(w->c, t->type->u.ten.shape);
    uint32_t fixed = 0;
    Buf runs;
    buf_init(&runs, a);
    for (uint32_t i = 0; i < s->n; i++) {
        if (s->s[i].var)
            buf_printf(&runs, " + %s", run_n(w, s->s[i].var));
        else
            fixed++;
    }
    if (runs.n)
        fail_if(w, ar_printf(a, "%u%s > AXON_MAX_RANK", fixed, buf_str(&runs)), "AXON_ERR_RANK", t->type->origin,
                ar_printf(a, "%s would have more than AXON_MAX_RANK axes", t->desc), NULL, NULL, NULL, NULL);
}

/* A tensor whose every size is a constant: its element and byte counts
 * (spec section 8b: #defined, for static arrays); 0 when a size is not
 * constant or a count does not fit int64. */
static int constant_counts(W *w, PTensor *t, int64_t *elems, int64_t *bytes)
{
    if (fnplan_is_dims(t)) {
        *elems = *bytes = 0;
        return 1;
    }
    Shape *s = shape_norm(w->c, t->type->u.ten.shape);
    uint64_t n = 1;
    for (uint32_t i = 0; i < s->n; i++) {
        int64_t v;
        if (!s->s[i].dim || !dim_is_const(dim_norm(w->c, s->s[i].dim), &v) || v < 0)
            return 0;
        if (v && n > (uint64_t)INT64_MAX / (uint64_t)v)
            return 0;
        n *= (uint64_t)v;
    }
    uint64_t size = (uint64_t)elem_size(fnplan_elem(w->fp, t));
    if (n && n > (uint64_t)INT64_MAX / size)
        return 0;
    *elems = (int64_t)n;
    *bytes = (int64_t)(n * size);
    return 1;
}

/* Whether an annotation name can be a member of P_NAME_dims as it is: a
 * C identifier that is no keyword of C, C++ or CUDA, no macro of the
 * standard headers the header includes (all capitals are refused), and not
 * reserved (a leading underscore). */
/* The member of P_NAME_dims for a variable the signature calls name (its
 * annotation name, or a letter: print.c): the name where it is free as an
 * identifier (cnames.h), else with ' written _prime and _ appended until
 * it is free and no other member's (`int_`, `linux_`, `N_`). */
static const char *member_name(W *w, Symtab *taken, void *key, const char *name)
{
    if (cn_free_identifier(name) && (!st_get(taken, name) || st_get(taken, name) == key))
        return name;
    Buf b;
    buf_init(&b, w->c->arena);
    for (const char *p = name; *p; p++)
        buf_puts(&b, *p == '\'' ? "_prime" : (char[]){ *p, 0 });
    const char *m = buf_str(&b);
    if (!cn_free_identifier(m))
        m = ar_printf(w->c->arena, "%s_", m);
    while (st_get(taken, m) && st_get(taken, m) != key)
        m = ar_printf(w->c->arena, "%s_", m);
    return m;
}

typedef struct Member {     /* a member of P_NAME_dims */
    void *var;              /* SVar* (shape) or DVar* */
    int shape;
    const char *name;       /* as axonc check prints it */
} Member;

static void write_dims(W *w, FnCode *fc, PtrVec **lists)
{
    Arena *a = w->c->arena;
    Namer *nm = w->p->nm;
    /* The variables the signature names, in order, once each. */
    Symtab seen;
    st_init(&seen, a);
    PtrVec members = { 0 };
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < lists[l]->n; i++) {
            Shape *s = shape_norm(w->c, ((PTensor *)lists[l]->items[i])->type->u.ten.shape);
            for (uint32_t k = 0; k < s->n; k++) {
                PtrVec vars = { 0 };
                if (s->s[k].var) {
                    SVar *v = s->s[k].var;
                    if (namer_name_of(nm, &v->stamp, &v->mark) && !(v->def && !v->def->done))
                        pv_push(a, &vars, v);
                } else {
                    Dim *d = dim_norm(w->c, s->s[k].dim);
                    for (uint32_t m = 0; m < d->nt; m++)
                        for (uint32_t f = 0; f < d->t[m].nf; f++) {
                            DVar *v = d->t[m].f[f].var;
                            if (v && (!v->dyn || plan_var(w->p, v)) && namer_name_of(nm, &v->stamp, &v->mark))
                                pv_push(a, &vars, v);
                        }
                }
                for (int j = 0; j < vars.n; j++) {
                    Member *mb = ar_alloc(a, sizeof *mb);
                    mb->var = vars.items[j];
                    mb->shape = s->s[k].var != NULL;
                    mb->name = mb->shape ? namer_name_of(nm, &((SVar *)mb->var)->stamp, &((SVar *)mb->var)->mark)
                                         : namer_name_of(nm, &((DVar *)mb->var)->stamp, &((DVar *)mb->var)->mark);
                    if (!st_put(&seen, mb->name, mb->var))   /* a variable's name is its own */
                        pv_push(a, &members, mb);
                }
            }
        }
    /* The names that are members as they are first, so that one made
     * from another (`int_`) never takes a name the signature prints. */
    Symtab taken;
    st_init(&taken, a);
    for (int i = 0; i < members.n; i++) {
        const Member *mb = members.items[i];
        if (cn_free_identifier(mb->name))
            st_put(&taken, mb->name, mb->var);
    }
    line(w, "if (dims) {");
    for (int i = 0; i < members.n; i++) {
        const Member *mb = members.items[i];
        const char *name = member_name(w, &taken, mb->var, mb->name);
        st_put(&taken, name, mb->var);
        if (mb->shape) {
            SVar *v = mb->var;
            buf_printf(&fc->dims, "    axon_shape %s;\n", name);
            if (plan_run_placed(v)) {
                line(w, "    dims->%s.rank = 0;", name);
                line(w, "    (void)axon__append(&dims->%s, %s, %s);", name, run_p(w, v), run_n(w, v));
            } else {
                line(w, "    dims->%s.rank = -1;", name);
            }
        } else {
            DVar *v = mb->var;
            buf_printf(&fc->dims, "    int64_t %s;\n", name);
            line(w, "    dims->%s = %s;", name, plan_var(w->p, v) ? plan_var(w->p, v)->local : "AXON_DIM_UNKNOWN");
        }
    }
    line(w, "}");
}

/* ---- the whole function ---------------------------------------------- */

void emit_function(FnPlan *fp, const char *cname, FnCode *fc)
{
    Compilation *cp = fp->cp;
    Arena *a = &cp->arena;
    Plan *plan = &fp->plan;
    W writer;
    W *w = &writer;
    memset(w, 0, sizeof *w);
    w->c = &cp->ctx;
    w->p = plan;
    w->fp = fp;
    w->file = cp->src->name;
    dm_init(&w->cache, a, fp->gen);
    w->cache.memo = &fp->memo;

    memset(fc, 0, sizeof *fc);
    buf_init(&fc->dims, a);
    buf_init(&fc->body, a);
    buf_init(&fc->counts, a);
    buf_init(&fc->temp_names, a);
    buf_init(&fc->indices, a);
    w->body = &fc->body;

    w->unread_axes = checked_only_axes(w);
    for (int i = 0; i < plan->steps.n; i++) {
        plan->at = i;
        write_step(w, plan->steps.items[i]);
    }
    plan->at = plan->steps.n;

    /* Outputs, then intermediates when asked. */
    int max_static = 0;
    PtrVec *open = ar_alloc(a, sizeof(PtrVec) * (size_t)(plan->outputs.n + 1));   /* each output's OpenAxis* */
    for (int i = 0; i < plan->outputs.n; i++)
        emit_result(w, plan->outputs.items[i], ar_printf(a, "out[%d]", i), &max_static, &open[i]);
    /* The largest shapes (spec section 5b: the bound of a data-dependent
     * `?`), from what the plan knows. */
    if (plan->outputs.n) {
        line(w, "if (out_max) {");
        w->indent++;
        for (int i = 0; i < plan->outputs.n; i++)
            emit_max(w, plan->outputs.items[i], ar_printf(a, "out[%d]", i), ar_printf(a, "out_max[%d]", i), &open[i],
                     fp->rb, 1);
        w->indent--;
        line(w, "}");
    }
    for (int i = 0; i < plan->temps.n; i++)
        check_temp_rank(w, plan->temps.items[i]);
    if (plan->temps.n) {
        w->in_block = 1;                     /* locals of the block stay in it */
        dm_init(&w->block, a, w->cache.gen);
        w->block.memo = &fp->memo;
        line(w, "if (tmp) {");
        w->indent++;
        PtrVec *topen = ar_alloc(a, sizeof(PtrVec) * (size_t)plan->temps.n);
        for (int i = 0; i < plan->temps.n; i++) {
            PTensor *t = plan->temps.items[i];
            emit_result(w, t, ar_printf(a, "tmp[%d]", i), &max_static, &topen[i]);
            buf_printf(&fc->temp_names, "    case %d: return \"%s\";\n", i, t->desc);
        }
        line(w, "if (tmp_max) {");
        w->indent++;
        for (int i = 0; i < plan->temps.n; i++)
            emit_max(w, plan->temps.items[i], ar_printf(a, "tmp[%d]", i), ar_printf(a, "tmp_max[%d]", i), &topen[i],
                     fp->rb, 0);
        w->indent--;
        line(w, "}");
        w->indent--;
        line(w, "}");
        w->in_block = 0;
    }
    for (int i = 0; i < plan->inputs.n; i++) {
        int known;
        int r = shape_rank(shape_norm(w->c, ((PTensor *)plan->inputs.items[i])->type->u.ten.shape), &known);
        if (r > max_static)
            max_static = r;
    }
    PtrVec *with_temps[3] = { &plan->inputs, &plan->outputs, &plan->temps };
    write_dims(w, fc, with_temps);
    drop_unused(w);
    line(w, "(void)in; (void)out; (void)tmp; (void)dims; (void)out_max; (void)tmp_max; (void)err;");
    /* The overflow flag of the checked arithmetic, where there is any. */
    if (strstr(buf_str(&fc->body), "&bad")) {
        Buf whole;
        buf_init(&whole, a);
        buf_puts(&whole, "    int bad = 0;\n");
        buf_puts(&whole, buf_str(&fc->body));
        fc->body = whole;
    }
    if (fc->dims.n == 0)
        buf_puts(&fc->dims, "    int axon__none;\n");

    /* Counts for the plan. */
    const char *list_names[3] = { "in", "out", "tmp" };
    w->body = &fc->counts;
    for (int l = 1; l < 3; l++)
        for (int i = 0; i < with_temps[l]->n; i++) {
            PTensor *t = with_temps[l]->items[i];
            const char *arr = list_names[l];
            if (fnplan_is_dims(t)) {               /* its values are its shape: no buffer */
                line(w, "plan->%s_elements[%d] = plan->%s_bytes[%d] = 0;", arr, i, arr, i);
                line(w, "plan->%s_max_elements[%d] = plan->%s_max_bytes[%d] = 0;", arr, i, arr, i);
                continue;
            }
            fail_if(w,
                    ar_printf(a, "axon__count(&plan->%s[%d], %d, &plan->%s_elements[%d], &plan->%s_bytes[%d])", arr, i,
                              elem_size(fnplan_elem(w->fp, t)), arr, i, arr, i),
                    "AXON_ERR_OVERFLOW", t->type->origin,
                    ar_printf(a, "%s has more elements (or bytes) than int64 can count", t->desc), NULL, NULL, NULL,
                    NULL);
            line(w, "(void)axon__count(&plan->%s_max[%d], %d, &plan->%s_max_elements[%d], &plan->%s_max_bytes[%d]);",
                 arr, i, elem_size(fnplan_elem(w->fp, t)), arr, i, arr, i);
        }

    /* The comment above the function. */
    Buf doc;
    buf_init(&doc, a);
    buf_printf(&doc, "/* %s : %s\n", plan->fname, fp->sig);
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < with_temps[l]->n; i++) {
            PTensor *t = with_temps[l]->items[i];
            buf_printf(&doc, " *   %s[%d]: %s, %s %s%s%s%s\n", list_names[l], i, t->desc, elem_name(fnplan_elem(w->fp, t)),
                       shape_text(w, t->type->u.ten.shape), t->bound ? " (" : "", t->bound ? t->bound : "",
                       t->bound ? ")" : "");
        }
    for (int i = 0; i < fp->aliases.n; i++)
        buf_printf(&doc, " *   (%s: not an intermediate)\n", (const char *)fp->aliases.items[i]);
    if (fp->elem_vars)
        buf_printf(&doc, " * Element type variables are %s here (axonc emit --elem-type).\n",
                   elem_name(fp->opt.elem_default));
    buf_printf(&doc, " */\n#if AXON_MAX_RANK < %d\n#error \"%s needs AXON_MAX_RANK >= %d\"\n#endif\n", max_static,
               cname, max_static);
    fc->doc = buf_str(&doc);
    /* Index constants (spec section 8b): P_NAME_IN_x, P_NAME_OUT_0,
     * P_NAME_TMP_scores; a name met twice gets _2, _3 (a statement's name
     * bound again). */
    Symtab used;
    st_init(&used, a);
    int bounded = fp->bounded;
    int64_t *const *maxima = fp->maxima;
    for (int l = 0; l < 3; l++) {
        PtrVec *list = l == 0 ? &plan->inputs : l == 1 ? &plan->outputs : &plan->temps;
        for (int i = 0; i < list->n; i++) {
            PTensor *t = list->items[i];
            const char *base = l == 0 ? ar_printf(a, "IN_%s", (const char *)fp->in_names.items[i])
                             : l == 1 ? ar_printf(a, "OUT_%d", i)
                                      : ar_printf(a, "TMP_%s", t->cname ? t->cname : cn_spell(a, t->desc, CN_TENSOR));
            const char *m = base;
            for (int k = 2; st_get(&used, m); k++)      /* a name bound again: x__2 */
                m = ar_printf(a, "%s__%d", base, k);
            st_put(&used, m, (void *)m);
            pv_push(a, &fc->names, ar_printf(a, "%s_%s", cname, m));
            buf_printf(&fc->indices, "#define %s_%s %d\n", cname, m, i);
            int64_t elems, bytes;
            if (constant_counts(w, t, &elems, &bytes)) {
                buf_printf(&fc->indices, "#define %s_%s_ELEMENTS %lld\n#define %s_%s_BYTES %lld\n", cname, m,
                           (long long)elems, cname, m, (long long)bytes);
                pv_push(a, &fc->names, ar_printf(a, "%s_%s_ELEMENTS", cname, m));
                pv_push(a, &fc->names, ar_printf(a, "%s_%s_BYTES", cname, m));
            }
            int64_t mx = fnplan_is_dims(t) ? 0 : maxima[l][i], size = elem_size(fnplan_elem(w->fp, t));
            if (bounded && (mx == 0 || mx <= INT64_MAX / size)) {
                buf_printf(&fc->indices, "#define %s_%s_MAX_ELEMENTS %lld\n#define %s_%s_MAX_BYTES %lld\n", cname,
                           m, (long long)mx, cname, m, (long long)(mx * size));
                pv_push(a, &fc->names, ar_printf(a, "%s_%s_MAX_ELEMENTS", cname, m));
                pv_push(a, &fc->names, ar_printf(a, "%s_%s_MAX_BYTES", cname, m));
            }
        }
    }
    fc->ninputs = plan->inputs.n;
    fc->noutputs = plan->outputs.n;
    fc->ntemps = plan->temps.n;
    fc->bounded = bounded;
    fc->temp_max = maxima[2];
    fc->temp_dims_max = fp->temp_dims_max;
}
