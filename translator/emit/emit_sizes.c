/* emit_sizes.c - what the writers of a shape function share
 * (emit_sizes.h): lines, checks and their message literals, the locals
 * nothing reads left out, and sizes as C expressions: a known variable's
 * local, a known expression's value (an input axis), a sum a local holds
 * a prefix of, checked arithmetic where it may overflow. */
#include "emit_sizes.h"

#include <stdarg.h>
#include <string.h>

#include "cnames.h"
#include "dim.h"
#include "symtab.h"
#include "types.h"

/* ---- small helpers ---------------------------------------------------- */

void wr_line(W *w, const char *fmt, ...)
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
const char *wr_message(W *w, const Origin *why, int *ln, int *col, const char *text)
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
void wr_fail_if(W *w, const char *cond, const char *status, const Origin *why, const char *text,
                    const char *v0, const char *v1, const char *v2, const char *v3)
{
    int ln, col;
    const char *msg = wr_message(w, why, &ln, &col, text);
    if (w->guard)
        wr_line(w, "if (!(%s) && (%s))", w->guard, cond);
    else
        wr_line(w, "if (%s)", cond);
    wr_line(w, "    return axon__fail(err, %s, %d, %d, \"%s\", %s, %s, %s, %s);", status, ln, col, msg,
         v0 ? v0 : "0", v1 ? v1 : "0", v2 ? v2 : "0", v3 ? v3 : "0");
    if (w->guard && strcmp(cond, "bad") == 0)
        wr_line(w, "bad = 0;                /* set, if at all, by a size that is unknown */");
}

/* Writes the declaration of a local whose initialiser has no side effect,
 * remembering where, so that it can be left out if nothing reads it. */
void wr_decl(W *w, const char *name, const char *text)
{
    Decl *d = ar_alloc(w->c->arena, sizeof *d);
    d->name = name;
    d->start = w->body->n;
    wr_line(w, "%s", text);
    d->end = w->body->n;
    pv_push(w->c->arena, &w->decls, d);
}

/* `int64_t name = expr;` whose expr's checked arithmetic must run (it sets
 * `bad`, which the next line tests): if nothing reads name, it becomes
 * `(void)expr;`. */
void wr_decl_effect(W *w, const char *name, const char *expr)
{
    Decl *d = ar_alloc(w->c->arena, sizeof *d);
    d->name = name;
    d->effect = expr;
    d->start = w->body->n;
    wr_line(w, "int64_t %s = %s;", name, expr);
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
void wr_drop_unused(W *w)
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

const char *wr_dim_text(W *w, Dim *d, int raw)
{
    int saved = w->p->nm->raw;
    w->p->nm->raw = raw;
    const char *s = pr_dim_str(w->p->nm, d);
    w->p->nm->raw = saved;
    return s;
}

const char *wr_shape_text(W *w, Shape *s)
{
    return pr_shape_str(w->p->nm, s);
}

/* A constraint as a message shows it (cut short like every term). */
const char *wr_cons_text(W *w, Constraint *k)
{
    Buf b;
    buf_init(&b, w->c->arena);
    b.limit = PR_TEXT_LIMIT;
    pr_constraint(w->p->nm, &b, k);
    return b.full ? ar_printf(w->c->arena, "%s ...", buf_str(&b)) : buf_str(&b);
}

const char *wr_i64(W *w, int64_t v)
{
    /* INT64_MIN has no literal: write it as an expression. */
    if (v == INT64_MIN)
        return "(-INT64_C(9223372036854775807) - 1)";
    return ar_printf(w->c->arena, "INT64_C(%lld)", (long long)v);
}

/* ---- run-time values ---------------------------------------------------- */

const char *wr_run_p(W *w, const SVar *v)
{
    return ar_printf(w->c->arena, "s_%s_p", cn_spell(w->c->arena, plan_run(v)->name, CN_TENSOR));
}
const char *wr_run_n(W *w, const SVar *v)
{
    return ar_printf(w->c->arena, "s_%s_n", cn_spell(w->c->arena, plan_run(v)->name, CN_TENSOR));
}

/* An axis position as C: k plus the runs' lengths. */
const char *wr_pos_c(W *w, const PPos *p)
{
    const char *s = NULL;
    for (int i = 0; i < p->runs.n; i++)
        s = s ? ar_printf(w->c->arena, "%s + %s", s, wr_run_n(w, p->runs.items[i])) : wr_run_n(w, p->runs.items[i]);
    if (!s)
        return ar_printf(w->c->arena, "%d", p->k);
    return p->k ? ar_printf(w->c->arena, "%s + %d", s, p->k) : s;
}

const char *wr_src_c(W *w, const PSrc *s)
{
    return s->input >= 0 ? ar_printf(w->c->arena, "in[%d]", s->input) : s->local;
}

const char *wr_val_c(W *w, const PVal *v)
{
    if (!v->src)
        return v->local;
    return ar_printf(w->c->arena, "%s.dims[%s]", wr_src_c(w, v->src), wr_pos_c(w, &v->pos));
}

/* The axis index of a value, for a message with "axis {}"; NULL if static. */
const char *wr_val_idx(W *w, const PVal *v)
{
    return v->src && v->axis < 0 ? ar_printf(w->c->arena, "(int64_t)(%s)", wr_pos_c(w, &v->pos)) : NULL;
}

/* A check on a value: "WHERE TEXT", the axis index first when dynamic. */
void wr_val_fail(W *w, const PVal *v, const char *cond, const char *status, const Origin *why, const char *text,
                     const char *a0, const char *a1, const char *a2)
{
    const char *idx = wr_val_idx(w, v);
    const char *msg = ar_printf(w->c->arena, "%s %s", v->where, text);
    if (idx)
        wr_fail_if(w, cond, status, why, msg, idx, a0, a1, a2);
    else
        wr_fail_if(w, cond, status, why, msg, a0, a1, a2, NULL);
}

/* ---- dimensions as C expressions -------------------------------------- */

/* The C local (or expression) of a known variable. */
static const char *var_c(W *w, PVar *pv)
{
    if (!pv->local && pv->val)          /* a stand-in: its value's place */
        pv->local = wr_val_c(w, pv->val);
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
                const char *num = u.n == before ? wr_dim_c(w, f->div->num, 0, &arith) : NULL;
                const char *den = num && !arith ? wr_dim_c(w, f->div->den, 0, &arith) : NULL;
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

const char *wr_unknown_cond(W *w, Dim *d, const PVal *v)
{
    Buf b;
    buf_init(&b, w->c->arena);
    if (d && plan_maybe_unknown(w->p, d))
        unknown_vars(w, d, &b);
    if (v && v->maybe_unknown)
        buf_printf(&b, "%s%s == AXON_DIM_UNKNOWN", b.n ? " || " : "", wr_val_c(w, v));
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
                const char *num = wr_dim_c(w, f->div->num, raw, arith);
                const char *den = wr_dim_c(w, f->div->den, raw, arith);
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
        wr_decl(w, arr, buf_str(&b));
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
    const char *cs = *neg ? (mag > (uint64_t)INT64_MAX ? NULL : wr_i64(w, (int64_t)mag)) : wr_i64(w, coef);
    if (m->nf == 0) {
        term = cs ? cs : wr_i64(w, coef);
        if (!cs)                   /* - INT64_MIN: add it instead of subtracting */
            *neg = 0;
    } else if (coef != 1 && !(coef == -1 && later)) {
        if (!cs) {
            cs = wr_i64(w, coef);
            *neg = 0;
        }
        term = ar_printf(a, "axon__mul(%s, %s, &bad)", cs, term);
        *arith = 1;
    }
    return term;
}

/* The C expression of a known dimension.  Arithmetic goes through the
 * checked helpers, which set `bad` (the caller tests it: *arith is set). */
const char *wr_dim_c(W *w, Dim *d, int raw, int *arith)
{
    Arena *a = w->c->arena;
    d = raw ? dim_norm_raw(w->c, d) : dim_norm(w->c, d);
    if (d->ragged)
        return "AXON_DIM_RAGGED";
    int64_t k;
    if (dim_is_const(d, &k))
        return wr_i64(w, k);
    DVar *v = dim_is_var(d);
    if (v)
        return plan_var(w->p, v) ? var_c(w, plan_var(w->p, v)) : NULL;
    int own = w->from_vars && dim_equal(d, w->from_vars);
    const PVal *kv = plan_known(w->p, d);
    if (kv)
        return wr_val_c(w, kv);
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
            const char *r = wr_dim_c(w, rest, 0, arith);
            const char *kc = c == 1 ? wr_val_c(w, k) : ar_printf(w->c->arena, "axon__mul(%s, %s, &bad)", wr_i64(w, c), wr_val_c(w, k));
            if (c != 1)
                *arith = 1;
            if (dim_is_const(rest, &zero) && zero == 0)
                return kc;
            *arith = 1;
            return ar_printf(w->c->arena, "axon__add(%s, %s, &bad)", kc, r);
        }
        Dim *in_k = plan_known_subst(w->p, d, computable);   /* (K^2: a product's square) */
        if (in_k)
            return wr_dim_c(w, in_k, 0, arith);
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
const char *wr_dim_local_raw(W *w, Dim *d, int raw, const Origin *why, const char *what)
{
    int arith = 0;
    const char *e = wr_dim_c(w, d, raw, &arith);
    if (!e || !arith)
        return e;
    const char *v = plan_local(w->p, "e");
    wr_decl_effect(w, v, e);
    wr_fail_if(w, "bad", "AXON_ERR_OVERFLOW", why,
            ar_printf(w->c->arena, "%s overflows int64 (or divides by zero)", what), NULL, NULL, NULL, NULL);
    if (!raw && !w->no_cache)
        dm_put(w->in_block ? &w->block : &w->cache, dim_norm(w->c, d), (void *)v);
    return v;
}

const char *wr_dim_local(W *w, Dim *d, const Origin *why, const char *what)
{
    return wr_dim_local_raw(w, d, 0, why, what);
}

/* A known dimension's value, AXON_DIM_UNKNOWN when a variable of it is
 * (its arithmetic is then not checked, and not kept for later uses). */
const char *wr_dim_value(W *w, Dim *d, const Origin *why, const char *what)
{
    const char *cond = wr_unknown_cond(w, d, NULL);
    if (!cond)
        return wr_dim_local(w, d, why, what);
    const char *saved = w->guard;
    int saved_cache = w->no_cache;
    w->guard = cond;
    w->no_cache = 1;
    const char *e = wr_dim_local(w, d, why, what);
    w->guard = saved;
    w->no_cache = saved_cache;
    if (!e)
        return NULL;
    const char *v = plan_local(w->p, "u");
    wr_decl(w, v, ar_printf(w->c->arena, "int64_t %s = (%s) ? AXON_DIM_UNKNOWN : %s;", v, cond, e));
    return v;
}

/* Materialises a known shape into a local axon_shape named t. */
void wr_shape_local(W *w, Shape *s, const char *t, const Origin *why, const char *what)
{
    s = shape_norm(w->c, s);
    wr_line(w, "axon_shape %s;", t);
    wr_line(w, "%s.rank = 0;", t);
    for (uint32_t i = 0; i < s->n; i++) {
        const char *push;
        if (s->s[i].var) {
            SVar *v = s->s[i].var;
            push = ar_printf(w->c->arena, "axon__append(&%s, %s, %s)", t, wr_run_p(w, v), wr_run_n(w, v));
        } else {
            const char *v = wr_dim_value(w, s->s[i].dim, why, what);
            push = ar_printf(w->c->arena, "axon__push(&%s, %s)", t, v);
        }
        wr_fail_if(w, push, "AXON_ERR_RANK", why,
                ar_printf(w->c->arena, "%s has more than AXON_MAX_RANK axes", what), NULL, NULL, NULL, NULL);
    }
}

/* (pointer, count) of a known shape, materialising it when needed. */
void wr_shape_run(W *w, Shape *s, const Origin *why, const char *what, const char **p, const char **n)
{
    Shape *ns = shape_norm(w->c, s);
    if (ns->n == 1 && ns->s[0].var) {
        *p = wr_run_p(w, ns->s[0].var);
        *n = wr_run_n(w, ns->s[0].var);
        return;
    }
    const char *t = plan_local(w->p, "sh");
    wr_shape_local(w, ns, t, why, what);
    *p = ar_printf(w->c->arena, "%s.dims", t);
    *n = ar_printf(w->c->arena, "%s.rank", t);
}