/* emit_fn.c - the run-time shape function of one exported Axon function.
 *
 * Inference has already solved every equation it could: what is left for
 * run time is exactly what the inputs' sizes decide.  The plan, in order:
 *   1. each input's rank (exact, or "at least" with a shape variable taking
 *      the rest: `t s @ [n]` takes any rank up to AXON_MAX_RANK);
 *   2. each input axis: the first occurrence of a dimension binds it, later
 *      ones check it; a dimension that appears only inside an expression is
 *      solved (`[2 * n]` gives n, with a divisibility check; `[n + 1]` gives
 *      n, with a >= 1 check);
 *   3. the residual constraints of the scheme (broadcasts, equations, the
 *      non-negativity of differences) once their sizes are known, dropping
 *      any implied by another or by the inputs (no check that cannot fail);
 *   4. every output shape, and (when asked) every named intermediate's.
 * Every failing check names the Axon rule and place that imposed it, the
 * argument, the axis, the value found and the value expected.
 */
#include <stdarg.h>
#include <string.h>

#include "dim.h"
#include "emit.h"
#include "print.h"
#include "solve.h"
#include "types.h"

/* What the generated code knows about a dimension variable. */
typedef struct EVar {
    const char *c;          /* C expression of its value, NULL while unknown */
    const char *from;       /* "argument 1 (Q) axis 1", where its value comes from */
    const char *from_idx;   /* the axis as a C expression, when "from" has "axis {}" */
    Dim *src;               /* the dimension node at that axis, as first made */
    int validated;          /* bound from an input axis that was checked >= 0 */
} EVar;

/* ... and about a shape variable: a run of sizes in memory. */
typedef struct ESVar {
    const char *p, *n;      /* C expressions: pointer to the sizes, their count */
    const char *from;       /* "argument 1 (x)" */
    const char *from_off;   /* C expression: its first axis in that input */
    int in, seg;            /* the input and segment that gave it */
} ESVar;

typedef struct Tensor {     /* an input, output or intermediate tensor */
    const char *desc;       /* "argument 2 (K)", "output 1", "q" */
    const Origin *at;       /* an input's parameter */
    Type *type;             /* its tensor type */
    Seg *orig;              /* input: the segments as first made (see orig_segs) */
    uint32_t norig;
} Tensor;

typedef struct Fact {       /* input axis: in[input].dims[pos] must equal dim */
    int input;
    const char *pos;        /* C expression of the axis index */
    int axis;               /* static axis number, or -1 (after a shape variable) */
    const char *axis_text;  /* "axis 2" or "axis {}" with the index as a value */
    Dim *dim;               /* normalised */
    Dim *orig;              /* the node first at this place */
    int done;
} Fact;

typedef struct Gen {
    Ctx *c;
    const EmitOptions *opt;
    Namer nm;
    const char *fname;      /* the Axon name */
    const char *file;       /* the source file's name, for messages */
    PtrVec inputs, outputs, temps;   /* Tensor* */
    PtrVec facts;           /* Fact* */
    PtrVec cons;            /* Constraint*, not yet emitted */
    PtrVec emitted;         /* texts of the constraints emitted, for duplicates */
    PtrVec noted_d, noted_s; /* variables given an aux note (cleared at the end) */
    PtrVec known;           /* Dim*: expressions whose value an input gives */
    PtrVec known_c;         /* ... and that value's C expression */
    Buf *body;
    int indent;             /* extra levels, inside a loop or a block */
    int nlocal;
    int failed;
} Gen;

/* ---- small helpers ---------------------------------------------------- */

static void line(Gen *g, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void line(Gen *g, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    buf_puts(g->body, "    ");
    for (int i = 0; i < g->indent; i++)
        buf_puts(g->body, "    ");
    if (n >= 0 && (size_t)n < sizeof small) {
        buf_puts(g->body, small);
    } else if (n >= 0) {
        char *big = ar_alloc(g->c->arena, (size_t)n + 1);
        va_start(ap, fmt);
        vsnprintf(big, (size_t)n + 1, fmt, ap);
        va_end(ap);
        buf_puts(g->body, big);
    }
    buf_putc(g->body, '\n');
}

static const char *fresh_local(Gen *g, const char *stem)
{
    return ar_printf(g->c->arena, "%s%d", stem, ++g->nlocal);
}

static EVar *evar(DVar *v)
{
    return v->aux;
}

static void set_evar(Gen *g, DVar *v, EVar *e)
{
    v->aux = e;
    pv_push(g->c->arena, &g->noted_d, v);
}

static void set_esvar(Gen *g, SVar *v, ESVar *e)
{
    v->aux = e;
    pv_push(g->c->arena, &g->noted_s, v);
}

static ESVar *esvar(SVar *v)
{
    return v->aux;
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
static const char *message(Gen *g, const Origin *why, int *ln, int *col, const char *text)
{
    Buf b;
    buf_init(&b, g->c->arena);
    *ln = *col = 0;
    if (why && why->loc.src && !why->loc.src->builtin) {
        src_line_col(why->loc.src, why->loc.start, ln, col);
        Buf pre;
        buf_init(&pre, g->c->arena);
        buf_printf(&pre, "%s:%d:%d: ", g->file, *ln, *col);
        if (why->rule)
            buf_printf(&pre, "%s: ", ast_shown_name(why->rule));
        else if ((why->kind == OW_TEXT && why->what && strncmp(why->what, "the ", 4) == 0) || why->kind == OW_VALUE)
            buf_printf(&pre, "%s: ", origin_text(g->c, why));   /* "the result of this function" */
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
static void fail_if(Gen *g, const char *cond, const char *status, const Origin *why, const char *text,
                    const char *v0, const char *v1, const char *v2, const char *v3)
{
    int ln, col;
    const char *msg = message(g, why, &ln, &col, text);
    line(g, "if (%s)", cond);
    line(g, "    return axon__fail(err, %s, %d, %d, \"%s\", %s, %s, %s, %s);", status, ln, col, msg,
         v0 ? v0 : "0", v1 ? v1 : "0", v2 ? v2 : "0", v3 ? v3 : "0");
}

static const char *dim_text(Gen *g, Dim *d, int raw)
{
    int saved = g->nm.raw;
    g->nm.raw = raw;
    const char *s = pr_dim_str(&g->nm, d);
    g->nm.raw = saved;
    return s;
}

static const char *shape_text(Gen *g, Shape *s)
{
    return pr_shape_str(&g->nm, s);
}

/* ---- dimensions as C expressions ------------------------------------- */

/* The C expression of a normalised dimension, or NULL when a variable in it
 * is not known yet.  Arithmetic goes through the checked helpers, which set
 * `bad` (the caller tests it: *arith is set). */
static const char *known_value(Gen *g, Dim *d)
{
    for (int i = 0; i < g->known.n; i++)
        if (dim_equal(g->known.items[i], d))
            return g->known_c.items[i];
    return NULL;
}

static const char *dim_c(Gen *g, Dim *d, int *arith)
{
    Arena *a = g->c->arena;
    d = dim_norm(g->c, d);
    if (d->ragged)
        return "AXON_DIM_RAGGED";
    int64_t k;
    if (dim_is_const(d, &k))
        return ar_printf(a, "INT64_C(%lld)", (long long)k);
    DVar *v = dim_is_var(d);
    if (v)
        return evar(v) ? evar(v)->c : NULL;
    const char *given = known_value(g, d);
    if (given)
        return given;
    const char *sum = NULL;
    for (uint32_t i = 0; i < d->nt; i++) {
        const Mono *m = &d->t[i];
        const char *term = NULL;
        for (uint32_t j = 0; j < m->nf; j++) {
            const Factor *f = &m->f[j];
            const char *x;
            if (f->var) {
                if (!evar(f->var) || !evar(f->var)->c)
                    return NULL;
                x = evar(f->var)->c;
            } else {
                const char *num = dim_c(g, dim_norm(g->c, f->div->num), arith);
                const char *den = dim_c(g, dim_norm(g->c, f->div->den), arith);
                if (!num || !den)
                    return NULL;
                x = ar_printf(a, "axon__div(%s, %s, &bad)", num, den);
                *arith = 1;
            }
            for (uint32_t p = 0; p < f->pow; p++) {
                term = term ? ar_printf(a, "axon__mul(%s, %s, &bad)", term, x) : x;
                if (term != x)
                    *arith = 1;
            }
        }
        int64_t coef = m->coef;
        if (m->nf == 0) {
            term = ar_printf(a, "INT64_C(%lld)", (long long)(coef < 0 && sum ? -coef : coef));
        } else if (coef != 1 && !(coef == -1 && sum)) {
            term = ar_printf(a, "axon__mul(INT64_C(%lld), %s, &bad)", (long long)(coef < 0 && sum ? -coef : coef), term);
            *arith = 1;
        }
        if (!sum) {
            sum = term;
        } else {
            sum = ar_printf(a, "axon__%s(%s, %s, &bad)", coef < 0 ? "sub" : "add", sum, term);
            *arith = 1;
        }
    }
    return sum ? sum : "INT64_C(0)";
}

/* Evaluates a dimension into a fresh local; NULL if not known yet. */
static const char *dim_local(Gen *g, Dim *d, const Origin *why, const char *what)
{
    int arith = 0;
    const char *e = dim_c(g, d, &arith);
    if (!e || !arith)
        return e;
    const char *v = fresh_local(g, "e");
    line(g, "int64_t %s = %s;", v, e);
    fail_if(g, "bad", "AXON_ERR_OVERFLOW", why,
            ar_printf(g->c->arena, "%s overflows int64 (or divides by zero)", what), NULL, NULL, NULL, NULL);
    pv_push(g->c->arena, &g->known, d);      /* computed once */
    pv_push(g->c->arena, &g->known_c, (void *)v);
    return v;
}

static int dim_known(Gen *g, Dim *d)
{
    int arith = 0;
    return dim_c(g, d, &arith) != NULL;
}

/* ---- shapes at run time ------------------------------------------------ */

static int shape_known(Gen *g, Shape *s)
{
    s = shape_norm(g->c, s);
    for (uint32_t i = 0; i < s->n; i++) {
        if (s->s[i].var ? !esvar(s->s[i].var) : !dim_known(g, s->s[i].dim))
            return 0;
    }
    return 1;
}

/* Materialises a known shape into a local axon_shape; returns its name. */
static const char *shape_local(Gen *g, Shape *s, const Origin *why, const char *what)
{
    s = shape_norm(g->c, s);
    const char *t = fresh_local(g, "sh");
    line(g, "axon_shape %s;", t);
    line(g, "%s.rank = 0;", t);
    for (uint32_t i = 0; i < s->n; i++) {
        const char *push;
        if (s->s[i].var) {
            ESVar *e = esvar(s->s[i].var);
            push = ar_printf(g->c->arena, "axon__append(&%s, %s, %s)", t, e->p, e->n);
        } else {
            const char *v = dim_local(g, s->s[i].dim, why, what);
            push = ar_printf(g->c->arena, "axon__push(&%s, %s)", t, v);
        }
        fail_if(g, push, "AXON_ERR_RANK", why,
                ar_printf(g->c->arena, "%s has more than AXON_MAX_RANK axes", what), NULL, NULL, NULL, NULL);
    }
    return t;
}

/* (pointer, count) of a known shape, materialising it when needed. */
static void shape_run(Gen *g, Shape *s, const Origin *why, const char *what, const char **p, const char **n)
{
    Shape *ns = shape_norm(g->c, s);
    if (ns->n == 1 && ns->s[0].var) {
        *p = esvar(ns->s[0].var)->p;
        *n = esvar(ns->s[0].var)->n;
        return;
    }
    const char *t = shape_local(g, ns, why, what);
    *p = ar_printf(g->c->arena, "%s.dims", t);
    *n = ar_printf(g->c->arena, "%s.rank", t);
}

/* ---- flattening the signature into tensors --------------------------- */

static int flatten(Gen *g, Type *t, const char *desc, PtrVec *out, const char **why_not)
{
    t = type_prune(t);
    switch (t->kind) {
    case TY_TENSOR: {
        Tensor *x = ar_alloc(g->c->arena, sizeof *x);
        x->desc = desc;
        x->type = t;
        pv_push(g->c->arena, out, x);
        return 0;
    }
    case TY_TUPLE:
        for (uint32_t i = 0; i < t->n; i++)
            if (flatten(g, t->items[i], ar_printf(g->c->arena, "%s item %u", desc, i + 1), out, why_not))
                return 1;
        return 0;
    case TY_FUNC:
        *why_not = ar_printf(g->c->arena, "%s is a function", desc);
        return 1;
    case TY_VAR:
        *why_not = ar_printf(g->c->arena, "%s can be of any type (it is not known to be a tensor)", desc);
        return 1;
    }
    return 1;
}

/* The segments of an input's shape as first made: shape variables expanded
 * through their bindings, but each dimension node as it stood at that place
 * (a variable's node records, through its binding, the rule that tied it). */
static void orig_segs(Gen *g, Shape *s, PtrVec *out, int depth)
{
    for (uint32_t i = 0; i < s->n; i++) {
        SVar *v = s->s[i].var;
        if (v && v->link && depth < 1000) {
            orig_segs(g, v->link, out, depth + 1);
        } else {
            Seg *seg = ar_alloc(g->c->arena, sizeof *seg);
            *seg = s->s[i];
            pv_push(g->c->arena, out, seg);
        }
    }
}

/* Why the variables u and w are equal: the unification nearest to u on the
 * chain of equalities that joins them (a breadth-first search over the
 * BindEdges that inference recorded).  NULL when they are not joined. */
typedef struct Hop {
    DVar *v;
    const Origin *first;
} Hop;

static const Origin *why_equal(Gen *g, DVar *u, DVar *w)
{
    uint32_t stamp = ++g->c->stamp;
    PtrVec queue = { 0 };
    Hop *h = ar_alloc(g->c->arena, sizeof *h);
    h->v = u;
    u->seen_stamp = stamp;
    pv_push(g->c->arena, &queue, h);
    for (int i = 0; i < queue.n; i++) {
        Hop *at = queue.items[i];
        for (BindEdge *e = at->v->edges; e; e = e->next) {
            if (e->other->seen_stamp == stamp)
                continue;
            const Origin *first = at->first ? at->first : e->why;
            if (e->other == w)
                return first;
            e->other->seen_stamp = stamp;
            Hop *n = ar_alloc(g->c->arena, sizeof *n);
            n->v = e->other;
            n->first = first;
            pv_push(g->c->arena, &queue, n);
        }
    }
    return NULL;
}

/* The reason a dimension node holds the value it has: the unification that
 * bound its variable, else the place that made it. */
static const Origin *node_reason(Dim *orig)
{
    DVar *v = dim_is_var(orig);
    if (v && v->why)
        return v->why;
    return orig->origin;
}

static int reason_is_binding(Dim *orig)
{
    DVar *v = dim_is_var(orig);
    return v && v->why;
}

/* ---- step 1: ranks and shape variables -------------------------------- */

typedef struct InPlan {
    PtrVec segs;        /* Seg*, original */
    Shape *norm;
    int ndims;
    int exact;          /* no shape variable: the rank is ndims */
    int done;
} InPlan;

static void plan_ranks(Gen *g, InPlan *ip)
{
    Arena *a = g->c->arena;
    int n = g->inputs.n;
    /* Every rank must be valid before any index is used. */
    for (int i = 0; i < n; i++) {
        Tensor *t = g->inputs.items[i];
        InPlan *p = &ip[i];
        p->norm = shape_norm(g->c, t->type->shape);
        orig_segs(g, t->type->shape, &p->segs, 0);
        p->ndims = shape_rank(p->norm, &p->exact);
    }
    int progress = 1;
    while (progress) {
        progress = 0;
        for (int i = 0; i < n; i++) {
            InPlan *p = &ip[i];
            if (p->done)
                continue;
            Tensor *t = g->inputs.items[i];
            /* Shape variables of this input not known yet. */
            SVar *unknown = NULL;
            int nunknown = 0;
            const char *known_len = ar_printf(a, "%d", p->ndims);
            for (uint32_t k = 0; k < p->norm->n; k++) {
                SVar *v = p->norm->s[k].var;
                if (!v)
                    continue;
                if (esvar(v)) {
                    known_len = ar_printf(a, "%s + %s", known_len, esvar(v)->n);
                } else if (v != unknown) {
                    unknown = v;
                    nunknown++;
                } else {
                    nunknown = 2;          /* the same variable twice */
                }
            }
            if (nunknown > 1)
                continue;
            const Origin *why = t->type->shape->origin;
            if (nunknown == 0) {
                fail_if(g, ar_printf(a, "in[%d].rank != %s", i, known_len), "AXON_ERR_RANK", why,
                        ar_printf(a, "%s has rank {}, expected %s", t->desc,
                                  p->exact ? ar_printf(a, "%d", p->ndims)
                                                                   : ar_printf(a, "{} (%s)", shape_text(g, p->norm))),
                        ar_printf(a, "in[%d].rank", i), p->exact ? NULL : known_len, NULL, NULL);
            } else {
                fail_if(g, ar_printf(a, "in[%d].rank < %s || in[%d].rank > AXON_MAX_RANK", i, known_len, i),
                        "AXON_ERR_RANK", why,
                        ar_printf(a, "%s has rank {}, expected at least {} (%s) and at most AXON_MAX_RANK",
                                  t->desc, shape_text(g, p->norm)),
                        ar_printf(a, "in[%d].rank", i), known_len, NULL, NULL);
                /* The unknown variable takes the rest, at its offset. */
                const char *off = "0";
                for (uint32_t k = 0; k < p->norm->n; k++) {
                    SVar *v = p->norm->s[k].var;
                    if (v == unknown)
                        break;
                    off = v ? ar_printf(a, "%s + %s", off, esvar(v)->n) : ar_printf(a, "%s + 1", off);
                }
                ESVar *e = ar_alloc(a, sizeof *e);
                const char *name = namer_name_of(&g->nm, &unknown->stamp, &unknown->mark);
                const char *base = name ? name : ar_printf(a, "_%u", unknown->id);
                e->p = ar_printf(a, "s_%s_p", base);
                e->n = ar_printf(a, "s_%s_n", base);
                e->from = t->desc;
                e->from_off = off;
                e->in = i;
                for (uint32_t k = 0; k < p->norm->n; k++)
                    if (p->norm->s[k].var == unknown)
                        e->seg = (int)k;
                line(g, "const int64_t *%s = in[%d].dims + (%s);", e->p, i, off);
                line(g, "int %s = in[%d].rank - (%s);", e->n, i, known_len);
                const char *j = fresh_local(g, "i");
                line(g, "for (int %s = 0; %s < %s; %s++)", j, j, e->n, j);
                g->indent++;
                fail_if(g, ar_printf(a, "%s[%s] < 0", e->p, j), "AXON_ERR_SIZE", t->at ? t->at : why,
                        ar_printf(a, "%s axis {} is {}, expected a size (>= 0)", t->desc),
                        ar_printf(a, "(int64_t)(%s + %s)", off, j), ar_printf(a, "%s[%s]", e->p, j), NULL, NULL);
                g->indent--;
                set_esvar(g, unknown, e);
            }
            p->done = 1;
            progress = 1;
        }
    }
    for (int i = 0; i < n; i++)
        if (!ip[i].done) {
            Tensor *t = g->inputs.items[i];
            diag_warning(g->c->diag, t->type->shape->origin ? t->type->shape->origin->loc : (Loc){ 0, 0, 0 },
                         "'%s' is not exported: the rank of %s (%s) cannot be split between its shape variables",
                         g->fname, t->desc, shape_text(g, ip[i].norm));
            g->failed = 1;
            return;
        }
}

/* ---- step 2: the sizes of the inputs ---------------------------------- */

static void plan_facts(Gen *g, InPlan *ip)
{
    Arena *a = g->c->arena;
    for (int i = 0; i < g->inputs.n; i++) {
        InPlan *p = &ip[i];
        const char *dyn = NULL;         /* the run-time part of the position */
        int base = 0;                   /* and its static part */
        const char *pos = "0";
        int axis = 0;
        for (int k = 0; k < p->segs.n; k++) {
            Seg *s = p->segs.items[k];
            Shape one = { 1, s, NULL };
            Shape *ns = shape_norm(g->c, &one);
            if (ns->n == 1 && ns->s[0].var) {
                /* A shape variable occurring here again: compare the runs. */
                SVar *v = ns->s[0].var;
                ESVar *e = esvar(v);
                if (!(e->in == i && e->seg == k)) {   /* not the place that gave it */
                    Tensor *t = g->inputs.items[i];
                    const char *name = namer_name_of(&g->nm, &v->stamp, &v->mark);
                    const char *j = fresh_local(g, "i");
                    line(g, "for (int %s = 0; %s < %s; %s++)", j, j, e->n, j);
                    fail_if(g, ar_printf(a, "in[%d].dims[%s + %s] != %s[%s]", i, pos, j, e->p, j), "AXON_ERR_SIZE",
                            t->type->shape->origin,
                            ar_printf(a, "%s axis {} is {}, expected {} (%s, from %s axis {})", t->desc,
                                      name ? name : "a shape", e->from),
                            ar_printf(a, "(int64_t)(%s + %s)", pos, j), ar_printf(a, "in[%d].dims[%s + %s]", i, pos, j),
                            ar_printf(a, "%s[%s]", e->p, j), ar_printf(a, "(int64_t)(%s + %s)", e->from_off, j));
                }
                dyn = dyn ? ar_printf(a, "%s + %s", dyn, e->n) : e->n;
                pos = base ? ar_printf(a, "%s + %d", dyn, base) : dyn;
                axis = -1;
                continue;
            }
            Fact *f = ar_alloc(a, sizeof *f);
            f->input = i;
            f->pos = pos;
            f->axis = axis;
            f->axis_text = axis >= 0 ? ar_printf(a, "axis %d", axis) : "axis {}";
            f->dim = dim_norm(g->c, s->dim);
            f->orig = s->dim;
            pv_push(a, &g->facts, f);
            base++;
            pos = dyn ? ar_printf(a, "%s + %d", dyn, base) : ar_printf(a, "%d", base);
            if (axis >= 0)
                axis++;
        }
    }
}

/* The value at a fact's axis, and (for a dynamic axis) its index. */
static const char *fact_value(Gen *g, Fact *f)
{
    return ar_printf(g->c->arena, "in[%d].dims[%s]", f->input, f->pos);
}

static const char *fact_index(Gen *g, Fact *f)
{
    return f->axis >= 0 ? NULL : ar_printf(g->c->arena, "(int64_t)(%s)", f->pos);
}

static const char *fact_where(Gen *g, Fact *f)
{
    Tensor *t = g->inputs.items[f->input];
    return ar_printf(g->c->arena, "%s %s", t->desc, f->axis_text);
}

/* A check at an input axis: the message's placeholders are the axis (when
 * it is dynamic: idx) and then v. */
static void fact_fail(Gen *g, const char *idx, const char *cond, const char *status, const Origin *why,
                      const char *text, const char *v)
{
    fail_if(g, cond, status, why, text, idx ? idx : v, idx ? v : NULL, NULL, NULL);
}

/* c, the value at f's axis, must be a size (>= 0). */
static void fact_nonneg(Gen *g, Fact *f, const char *idx, const char *where, const Origin *why, const char *c)
{
    Tensor *in = g->inputs.items[f->input];
    fact_fail(g, idx, ar_printf(g->c->arena, "%s < 0", c), "AXON_ERR_SIZE", in->at ? in->at : why,
              ar_printf(g->c->arena, "%s is {}, expected a size (>= 0)", where), c);
}

/* The C local of a dimension variable bound from an input: d_ and its name
 * in the signature (*name; NULL when it has none). */
static const char *dvar_local(Gen *g, DVar *v, const char **name)
{
    *name = namer_name_of(&g->nm, &v->stamp, &v->mark);
    return ar_printf(g->c->arena, "d_%s", *name ? *name : ar_printf(g->c->arena, "_%u", v->id));
}

/* Tries to settle one input axis: check it, or bind the one variable it
 * determines.  Returns 1 when done. */
static int try_fact(Gen *g, Fact *f, int last_resort)
{
    Arena *a = g->c->arena;
    Dim *d = f->dim;
    const Origin *why = node_reason(f->orig);
    const char *val = fact_value(g, f);
    const char *idx = fact_index(g, f);
    const char *where = fact_where(g, f);
    if (d->ragged) {
        fact_fail(g, idx, ar_printf(a, "%s != AXON_DIM_RAGGED", val), "AXON_ERR_SIZE", why,
                  ar_printf(a, "%s is {}, expected AXON_DIM_RAGGED (a ragged axis, *)", where), val);
        return 1;
    }
    int64_t k;
    if (dim_is_const(d, &k)) {
        fact_fail(g, idx, ar_printf(a, "%s != INT64_C(%lld)", val, (long long)k), "AXON_ERR_SIZE", why,
                  ar_printf(a, "%s is {}, expected %lld", where, (long long)k), val);
        return 1;
    }
    DVar *v = dim_is_var(d);
    if (v && !evar(v) && v->def && !v->def->done)
        return 0;         /* a broadcast: compared once the broadcast is computed */
    if (v && !evar(v)) {
        /* The first occurrence binds the variable. */
        const char *name;
        EVar *e = ar_alloc(a, sizeof *e);
        e->c = dvar_local(g, v, &name);
        e->from = where;
        e->from_idx = idx;
        e->src = f->orig;
        e->validated = 1;
        set_evar(g, v, e);
        line(g, "int64_t %s = %s;", e->c, val);
        fact_nonneg(g, f, idx, where, why, e->c);
        return 1;
    }
    int arith = 0;
    const char *expect = dim_c(g, d, &arith);
    if (expect) {
        /* Known: compare.  Say where the expected value comes from. */
        if (arith)
            expect = dim_local(g, d, why, ar_printf(a, "the size expected at %s", where));
        const char *text = dim_text(g, d, 0);
        const char *from = "";
        if (v && evar(v)->from) {
            from = ar_printf(a, " (%s, from %s)", text, evar(v)->from);
            /* The rule that tied this axis to the one the value came from:
             * found on the chain of equalities between their variables;
             * failing that, the rule that tied either axis. */
            DVar *u = dim_is_var(f->orig), *w = evar(v)->src ? dim_is_var(evar(v)->src) : NULL;
            const Origin *tie = u && w && u != w ? why_equal(g, u, w) : NULL;
            if (tie)
                why = tie;
            else if (u && u == w)
                why = f->orig->origin;        /* one name, written twice */
            else if (!reason_is_binding(f->orig)) {
                for (int i = 0; i < g->facts.n; i++) {
                    Fact *o = g->facts.items[i];
                    if (o != f && dim_is_var(o->dim) == v && reason_is_binding(o->orig)) {
                        why = node_reason(o->orig);
                        break;
                    }
                }
            }
        } else if (!dim_is_const(d, &k)) {
            from = ar_printf(a, " (%s)", text);
        }
        /* The values for the placeholders, in the order they appear. */
        const char *vals[4] = { NULL, NULL, NULL, NULL };
        int nv = 0;
        if (idx)
            vals[nv++] = idx;
        vals[nv++] = val;
        vals[nv++] = expect;
        if (v && evar(v)->from_idx)
            vals[nv++] = evar(v)->from_idx;
        fail_if(g, ar_printf(a, "%s != %s", val, expect), "AXON_ERR_SIZE", why,
                ar_printf(a, "%s is {}, expected {}%s", where, from), vals[0], vals[1], vals[2], vals[3]);
        if (dim_has_neg(d))               /* equal, but both could be negative */
            fact_nonneg(g, f, idx, where, why, val);
        return 1;
    }
    /* One unknown variable x, linear: a * x + rest = value. */
    DVar *x = NULL;
    int64_t coef = 0;
    int linear = 1;
    for (uint32_t i = 0; i < d->nt; i++) {
        const Mono *m = &d->t[i];
        for (uint32_t j = 0; j < m->nf; j++) {
            const Factor *fa = &m->f[j];
            if (fa->var && evar(fa->var))
                continue;
            if (!fa->var || m->nf != 1 || fa->pow != 1 || (x && x != fa->var))
                linear = 0;             /* not linear in one unknown */
            x = fa->var;
            coef = m->coef;
        }
    }
    if (!linear || !x) {
        /* Not solvable for its variables (a * b, n / 2): once nothing else
         * can be done, the input gives the expression's value, for outputs
         * and later axes. */
        if (!last_resort)
            return 0;
        const char *c = ar_printf(a, "d_e%d", ++g->nlocal);
        line(g, "int64_t %s = %s;", c, val);
        fact_nonneg(g, f, idx, where, why, c);
        pv_push(a, &g->known, d);
        pv_push(a, &g->known_c, (void *)c);
        return 1;
    }
    /* rest = d - coef * x, known. */
    Dim *cx = dim_scale(g->c, dim_of_var(g->c, x, NULL), coef, NULL);
    Dim *rest = dim_sub(g->c, d, cx, NULL);
    const char *restc = dim_local(g, rest, why, ar_printf(a, "the size at %s", where));
    if (!restc)
        return 0;
    const char *name;
    EVar *e = ar_alloc(a, sizeof *e);
    e->c = dvar_local(g, x, &name);
    e->from = where;
    e->from_idx = idx;
    const char *form = dim_text(g, d, 0);
    const char *t = fresh_local(g, "q");
    int64_t z;
    if (dim_is_const(rest, &z) && z == 0)
        line(g, "int64_t %s = %s;", t, val);
    else {
        line(g, "int64_t %s = axon__sub(%s, %s, &bad);", t, val, restc);
        fail_if(g, "bad", "AXON_ERR_OVERFLOW", why, ar_printf(a, "%s: the size overflows int64", where), NULL,
                NULL, NULL, NULL);
    }
    if (coef != 1 && coef != -1)
        fact_fail(g, idx, ar_printf(a, "%s %% INT64_C(%lld) != 0", t, (long long)coef), "AXON_ERR_DIVISIBILITY",
                  why, ar_printf(a, "%s is {}, which is not of the form %s", where, form), val);
    line(g, "int64_t %s = %s / INT64_C(%lld);", e->c, t, (long long)coef);
    fact_fail(g, idx, ar_printf(a, "%s < 0", e->c), "AXON_ERR_NEGATIVE", why,
              ar_printf(a, "%s is {}, which is not of the form %s with %s >= 0", where, form,
                        name ? name : "the unknown"),
              val);
    e->validated = 1;
    set_evar(g, x, e);
    pv_push(a, &g->known, d);             /* the input gives d's value itself */
    pv_push(a, &g->known_c, (void *)val);
    return 1;
}

/* ---- step 3: residual constraints -------------------------------------- */

static const char *cons_text(Gen *g, Constraint *k)
{
    Buf b;
    buf_init(&b, g->c->arena);
    pr_constraint(&g->nm, &b, k);
    return buf_str(&b);
}

/* The broadcast of dims: a local holding it, checks on the way. */
static const char *emit_bcast_dims(Gen *g, Constraint *k)
{
    Arena *a = g->c->arena;
    const char *acc = fresh_local(g, "bc");
    for (int i = 0; i < k->ops.n; i++) {
        Dim *d = dim_norm(g->c, k->ops.items[i]);
        const char *v = dim_local(g, d, k->why, "a broadcast size");
        if (i == 0) {               /* broadcast(x) = x: nothing to check */
            line(g, "int64_t %s = %s;", acc, v);
            continue;
        }
        const char *text = dim_text(g, d, 0);
        DVar *dv = dim_is_var(d);
        const char *from = dv && evar(dv) && evar(dv)->from ? ar_printf(a, "%s, from %s", text, evar(dv)->from) : text;
        fail_if(g, ar_printf(a, "axon__bcast(&%s, %s)", acc, v), "AXON_ERR_BROADCAST", k->why,
                ar_printf(a, "cannot broadcast size {} (%s) with size {}", from), v, acc, NULL, NULL);
    }
    return acc;
}

static const char *emit_bcast_shapes(Gen *g, Constraint *k)
{
    Arena *a = g->c->arena;
    const char *acc = fresh_local(g, "bs");
    line(g, "axon_shape %s;", acc);
    line(g, "%s.rank = 0;", acc);
    const char *ax = fresh_local(g, "ax");
    line(g, "int %s;", ax);
    for (int i = 0; i < k->ops.n; i++) {
        const char *p, *n;
        shape_run(g, k->ops.items[i], k->why, "a broadcast operand", &p, &n);
        if (i == 0) {               /* the first operand only needs to fit */
            fail_if(g, ar_printf(a, "axon__append(&%s, %s, %s)", acc, p, n), "AXON_ERR_RANK", k->why,
                    "a broadcast has more than AXON_MAX_RANK axes", NULL, NULL, NULL, NULL);
            continue;
        }
        const char *text = shape_text(g, k->ops.items[i]);
        fail_if(g, ar_printf(a, "(%s = axon__bcast_into(&%s, %s, %s)) >= 0", ax, acc, p, n), "AXON_ERR_BROADCAST",
                k->why,
                ar_printf(a, "cannot broadcast %s: axis {} from the end is {}, where the others give {}", text),
                ax, ar_printf(a, "(%s == AXON_MAX_RANK ? 0 : %s[%s - 1 - %s])", ax, p, n, ax),
                ar_printf(a, "(%s == AXON_MAX_RANK ? 0 : %s.dims[%s.rank - 1 - %s])", ax, acc, acc, ax), NULL);
    }
    return acc;
}

/* Compares a known shape's run with the local axon_shape `got`. */
static void emit_shape_equal(Gen *g, Constraint *k, const char *got, Shape *want, const char *what)
{
    Arena *a = g->c->arena;
    const char *p, *n;
    shape_run(g, want, k->why, what, &p, &n);
    fail_if(g, ar_printf(a, "%s.rank != %s", got, n), "AXON_ERR_CONSTRAINT", k->why,
            ar_printf(a, "%s: the rank is {}, expected {}", what), ar_printf(a, "%s.rank", got), n, NULL, NULL);
    const char *j = fresh_local(g, "i");
    line(g, "for (int %s = 0; %s < %s; %s++)", j, j, n, j);
    g->indent++;
    fail_if(g, ar_printf(a, "%s.dims[%s] != %s[%s]", got, j, p, j), "AXON_ERR_CONSTRAINT", k->why,
            ar_printf(a, "%s: axis {} is {}, expected {}", what), j, ar_printf(a, "%s.dims[%s]", got, j),
            ar_printf(a, "%s[%s]", p, j), NULL);
    g->indent--;
}

/* Variables a constraint needs known before it can be emitted. */
static int cons_ready(Gen *g, Constraint *k)
{
    switch (k->kind) {
    case C_BCAST_DIM:
        for (int i = 0; i < k->ops.n; i++)
            if (!dim_known(g, dim_norm(g->c, k->ops.items[i])))
                return 0;
        return !k->dres->link || dim_known(g, dim_norm(g->c, dim_of_var(g->c, k->dres, NULL)));
    case C_BCAST_SHAPE:
        for (int i = 0; i < k->ops.n; i++)
            if (!shape_known(g, k->ops.items[i]))
                return 0;
        return !k->sres->link || shape_known(g, shape_of_var(g->c, k->sres, NULL));
    case C_EQ_DIM:
        return dim_known(g, k->rewrites ? dim_norm_raw(g->c, k->l) : dim_norm(g->c, k->l)) &&
               dim_known(g, k->rewrites ? dim_norm_raw(g->c, k->r) : dim_norm(g->c, k->r));
    case C_EQ_SHAPE:
        return shape_known(g, k->sl) && shape_known(g, k->sr);
    case C_NONNEG:
        return dim_known(g, dim_norm(g->c, k->l));
    }
    return 0;
}

/* A difference known >= 0 because it is exactly a validated input size. */
static int nonneg_implied(Gen *g, Dim *d)
{
    DVar *v = dim_is_var(d);
    if (v && evar(v) && evar(v)->validated)
        return 1;
    for (int i = 0; i < g->facts.n; i++) {
        Fact *f = g->facts.items[i];
        if (dim_equal(f->dim, d))
            return 1;
    }
    return 0;
}

/* The check of k; text is k as printed (cons_text). */
static void emit_cons(Gen *g, Constraint *k, const char *text)
{
    Arena *a = g->c->arena;
    switch (k->kind) {
    case C_BCAST_DIM: {
        const char *acc = emit_bcast_dims(g, k);
        if (!k->dres->link) {
            EVar *e = ar_alloc(a, sizeof *e);
            e->c = acc;
            int ln, col;
            src_line_col(k->why->loc.src, k->why->loc.start, &ln, &col);
            e->from = ar_printf(a, "the broadcast at %d:%d", ln, col);
            set_evar(g, k->dres, e);
        } else {
            Dim *r = dim_norm(g->c, dim_of_var(g->c, k->dres, NULL));
            const char *rv = dim_local(g, r, k->why, "a broadcast result");
            fail_if(g, ar_printf(a, "%s != %s", acc, rv), "AXON_ERR_BROADCAST", k->why,
                    ar_printf(a, "the broadcast is {}, expected {} (%s)", text), acc, rv, NULL, NULL);
        }
        break;
    }
    case C_BCAST_SHAPE: {
        const char *acc = emit_bcast_shapes(g, k);
        if (!k->sres->link) {
            ESVar *e = ar_alloc(a, sizeof *e);
            e->p = ar_printf(a, "%s.dims", acc);
            e->n = ar_printf(a, "%s.rank", acc);
            int ln, col;
            src_line_col(k->why->loc.src, k->why->loc.start, &ln, &col);
            e->from = ar_printf(a, "the broadcast at %d:%d", ln, col);
            set_esvar(g, k->sres, e);
        } else {
            emit_shape_equal(g, k, acc, shape_of_var(g->c, k->sres, NULL), ar_printf(a, "%s", text));
        }
        break;
    }
    case C_EQ_DIM: {
        Dim *l = k->rewrites ? dim_norm_raw(g->c, k->l) : dim_norm(g->c, k->l);
        Dim *r = k->rewrites ? dim_norm_raw(g->c, k->r) : dim_norm(g->c, k->r);
        int64_t kc;
        if (dim_is_const(l, &kc)) {           /* the constant on the right */
            Dim *t = l;
            l = r;
            r = t;
        }
        const char *lv = dim_local(g, l, k->why, dim_text(g, l, k->rewrites));
        const char *rv = dim_local(g, r, k->why, dim_text(g, r, k->rewrites));
        fail_if(g, ar_printf(a, "%s != %s", lv, rv), "AXON_ERR_CONSTRAINT", k->why,
                ar_printf(a, "%s does not hold: %s is {}, expected {}", text, dim_text(g, l, k->rewrites)), lv, rv,
                NULL, NULL);
        break;
    }
    case C_EQ_SHAPE: {
        const char *got = shape_local(g, k->sl, k->why, "a shape");
        emit_shape_equal(g, k, got, k->sr, text);
        break;
    }
    case C_NONNEG: {
        Dim *d = dim_norm(g->c, k->l);
        const char *v = dim_local(g, d, k->why, dim_text(g, d, 0));
        fail_if(g, ar_printf(a, "%s < 0", v), "AXON_ERR_NEGATIVE", k->why,
                ar_printf(a, "the size %s is {}, which is negative", dim_text(g, d, 0)), v, NULL, NULL, NULL);
        break;
    }
    }
}

/* Whether a constraint needs no code: done, a duplicate, or implied.  When
 * it does, *text is k as printed (cons_text). */
static int cons_skip(Gen *g, Constraint *k, const char **text)
{
    if (k->done)
        return 1;
    if (k->kind == C_NONNEG) {
        Dim *d = dim_norm(g->c, k->l);
        int64_t v;
        if (dim_is_const(d, &v) || !dim_has_neg(d) || nonneg_implied(g, d))
            return 1;
    }
    *text = cons_text(g, k);
    if (k->kind == C_BCAST_DIM || k->kind == C_BCAST_SHAPE)
        return 0;                 /* a broadcast also defines its result */
    for (int i = 0; i < g->emitted.n; i++)
        if (strcmp(g->emitted.items[i], *text) == 0)
            return 1;
    return 0;
}

static void plan_rest(Gen *g)
{
    int progress = 1, last_resort = 0;
    while (progress) {
        progress = 0;
        for (int i = 0; i < g->facts.n; i++) {
            Fact *f = g->facts.items[i];
            if (!f->done && try_fact(g, f, last_resort)) {
                f->done = 1;
                progress = 1;
                if (last_resort)
                    break;                /* one, then the ordinary rules again */
            }
        }
        for (int i = 0; i < g->cons.n; i++) {
            Constraint *k = g->cons.items[i];
            if (!k || !cons_ready(g, k))
                continue;
            g->cons.items[i] = NULL;
            progress = 1;
            const char *text;
            if (cons_skip(g, k, &text))
                continue;
            pv_push(g->c->arena, &g->emitted, (void *)text);
            emit_cons(g, k, text);
        }
        if (!progress && !last_resort) {
            last_resort = progress = 1;
        } else if (progress) {
            last_resort = 0;
        }
    }
    /* What is left depends on sizes the inputs do not give. */
    for (int i = 0; i < g->facts.n; i++) {
        Fact *f = g->facts.items[i];
        if (!f->done)
            line(g, "/* %s (%s) is not checked: it depends on sizes the inputs do not give */",
                 fact_where(g, f), dim_text(g, f->dim, 0));
    }
    for (int i = 0; i < g->cons.n; i++) {
        Constraint *k = g->cons.items[i];
        const char *text;
        if (k && !cons_skip(g, k, &text))
            line(g, "/* %s is not checked: it depends on sizes the inputs do not give */", text);
    }
}

/* ---- step 4: outputs and intermediates ------------------------------- */

/* Writes t's shape into the axon_shape `dst`.  The fixed-rank prefix (before
 * any shape variable) is stored directly: the header's #if guarantees
 * AXON_MAX_RANK is large enough for it. */
static void emit_result(Gen *g, Tensor *t, const char *dst, int *max_static, int warn_unknown)
{
    Arena *a = g->c->arena;
    Shape *s = shape_norm(g->c, t->type->shape);
    const Origin *why = t->type->origin;
    uint32_t prefix = 0;
    while (prefix < s->n && s->s[prefix].dim)
        prefix++;
    if ((int)prefix > *max_static)
        *max_static = (int)prefix;
    for (uint32_t i = 0; i < s->n; i++) {
        const char *v = NULL;
        if (s->s[i].dim) {
            Dim *d = s->s[i].dim;
            v = dim_local(g, d, why, ar_printf(a, "a size of %s", t->desc));
            if (!v) {
                v = "AXON_DIM_UNKNOWN";
                if (warn_unknown)
                    diag_warning(g->c->diag, why ? why->loc : (Loc){ 0, 0, 0 },
                                 "'%s': %s axis %u (%s) is not determined by the input shapes; it is "
                                 "AXON_DIM_UNKNOWN at run time",
                                 g->fname, t->desc, i, dim_text(g, d, 0));
            }
        }
        if (i < prefix) {
            line(g, "%s.dims[%u] = %s;", dst, i, v);
            if (i + 1 == prefix)
                line(g, "%s.rank = %u;", dst, prefix);
            continue;
        }
        if (i == 0)
            line(g, "%s.rank = 0;", dst);
        if (s->s[i].var) {
            ESVar *e = esvar(s->s[i].var);
            fail_if(g, ar_printf(a, "axon__append(&%s, %s, %s)", dst, e->p, e->n), "AXON_ERR_RANK", why,
                    ar_printf(a, "%s would have more than AXON_MAX_RANK axes", t->desc), NULL, NULL, NULL, NULL);
        } else {
            fail_if(g, ar_printf(a, "axon__push(&%s, %s)", dst, v), "AXON_ERR_RANK", why,
                    ar_printf(a, "%s would have more than AXON_MAX_RANK axes", t->desc), NULL, NULL, NULL, NULL);
        }
    }
    if (s->n == 0)
        line(g, "%s.rank = 0;", dst);
}

/* Whether every shape variable of t is known (else its rank is unknown). */
static int rank_known(Gen *g, Tensor *t)
{
    Shape *s = shape_norm(g->c, t->type->shape);
    for (uint32_t i = 0; i < s->n; i++)
        if (s->s[i].var && !esvar(s->s[i].var))
            return 0;
    return 1;
}

static int elem_of(Gen *g, Tensor *t)
{
    Elem *e = elem_find(t->type->elem);
    return e->prim != EL_VAR ? e->prim : g->opt->elem_default;
}

/* The named intermediate tensors: the names bound by the statements of the
 * function's own body (tuple patterns give one name per item). */
static void collect_temps(Gen *g, Pattern *p, Type *t)
{
    if (!p || !t)
        return;
    t = type_prune(t);
    if (p->kind == PAT_NAME && t->kind == TY_TENSOR) {
        Tensor *x = ar_alloc(g->c->arena, sizeof *x);
        x->desc = p->name;
        x->type = t;
        pv_push(g->c->arena, &g->temps, x);
    } else if (p->kind == PAT_TUPLE && t->kind == TY_TUPLE && (uint32_t)p->items.n == t->n) {
        for (uint32_t i = 0; i < t->n; i++)
            collect_temps(g, p->items.items[i], t->items[i]);
    }
}

/* ---- the whole function ---------------------------------------------- */

/* The notes on variables belong to one function only. */
static void clear_notes(Gen *g)
{
    for (int i = 0; i < g->noted_d.n; i++)
        ((DVar *)g->noted_d.items[i])->aux = NULL;
    for (int i = 0; i < g->noted_s.n; i++)
        ((SVar *)g->noted_s.items[i])->aux = NULL;
    g->noted_d.n = g->noted_s.n = 0;
}

static int not_exported(Gen *g, Loc loc, const char *why)
{
    clear_notes(g);
    diag_warning(g->c->diag, loc, "'%s' is not exported: %s", g->fname, why);
    return 1;
}

int emit_function(Compilation *cp, Binding *b, const char *cname, const EmitOptions *opt, FnCode *fc)
{
    Gen gen;
    Gen *g = &gen;
    memset(g, 0, sizeof *g);
    g->c = &cp->ctx;
    g->opt = opt;
    g->fname = b->item->name;
    g->file = cp->src->name;
    Arena *a = g->c->arena;
    Loc at = b->item->name_loc;

    memset(fc, 0, sizeof *fc);
    buf_init(&fc->dims, a);
    buf_init(&fc->body, a);
    buf_init(&fc->counts, a);
    buf_init(&fc->temp_names, a);
    g->body = &fc->body;

    /* The signature, named as `axonc check` names it. */
    namer_init(&g->nm, g->c, 0);
    Buf sig;
    buf_init(&sig, a);
    pr_scheme(&g->nm, &sig, b->scheme);

    Type *ft = type_prune(b->scheme->type);   /* a function (emit.c) */
    FnExpr *fn = b->item->value && b->item->value->kind == EX_FN ? b->item->value->lam : NULL;
    const char *why_not = NULL;
    /* A parameter that is a function says most about why; look for one first. */
    for (uint32_t i = 0; i < ft->n; i++)
        if (type_prune(ft->items[i])->kind == TY_FUNC) {
            Param *p = fn && (int)i < fn->params.n ? fn->params.items[i] : NULL;
            return not_exported(g, at, p ? ar_printf(a, "argument %u (%s) is a function", i + 1, p->name)
                                         : ar_printf(a, "argument %u is a function", i + 1));
        }
    for (uint32_t i = 0; i < ft->n; i++) {
        Param *p = fn && (int)i < fn->params.n ? fn->params.items[i] : NULL;
        const char *desc = p ? ar_printf(a, "argument %u (%s)", i + 1, p->name) : ar_printf(a, "argument %u", i + 1);
        int before = g->inputs.n;
        if (flatten(g, ft->items[i], desc, &g->inputs, &why_not))
            return not_exported(g, at, why_not);
        for (int k = before; k < g->inputs.n; k++)
            ((Tensor *)g->inputs.items[k])->at =
                origin_new(g->c, p ? p->loc : at, p ? p->name : g->fname, NULL, 0);
    }
    if (flatten(g, ft->ret, "output", &g->outputs, &why_not))
        return not_exported(g, at, why_not);
    for (int i = 0; i < g->outputs.n; i++) {
        Tensor *t = g->outputs.items[i];
        t->desc = ar_printf(a, "output %d", i + 1);
    }
    if (fn)
        for (int i = 0; i < fn->stmts.n; i++) {
            Stmt *st = fn->stmts.items[i];
            collect_temps(g, st->pat, st->pat->type);
        }
    /* Element types. */
    PtrVec *lists[3] = { &g->inputs, &g->outputs, &g->temps };
    int elem_vars = 0;
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < lists[l]->n; i++)
            if (elem_find(((Tensor *)lists[l]->items[i])->type->elem)->prim == EL_VAR)
                elem_vars = 1;
    if (elem_vars && opt->elem_default == EL_VAR)
        return not_exported(g, at, "its element type is a variable; choose one with --elem-type");

    InPlan *ip = ar_alloc(a, sizeof(InPlan) * (size_t)(g->inputs.n ? g->inputs.n : 1));
    plan_ranks(g, ip);
    if (g->failed) {
        clear_notes(g);
        return 1;
    }
    plan_facts(g, ip);
    for (int i = 0; i < b->scheme->cons.n; i++)
        pv_push(a, &g->cons, b->scheme->cons.items[i]);
    plan_rest(g);

    /* Outputs, then intermediates when asked. */
    int max_static = 0;
    for (int i = 0; i < g->outputs.n; i++) {
        Tensor *t = g->outputs.items[i];
        if (!rank_known(g, t))
            return not_exported(g, at, ar_printf(a, "the rank of %s (%s) is not determined by the input shapes",
                                                 t->desc, shape_text(g, t->type->shape)));
        emit_result(g, t, ar_printf(a, "out[%d]", i), &max_static, 1);
    }
    int ntemps = 0;
    PtrVec temps = { 0 }, aliases = { 0 };
    for (int i = 0; i < g->temps.n; i++) {
        Tensor *t = g->temps.items[i];
        Tensor *is_out = NULL;
        for (int k = 0; k < g->outputs.n && !is_out; k++)
            if (type_prune(((Tensor *)g->outputs.items[k])->type) == type_prune(t->type))
                is_out = g->outputs.items[k];
        if (is_out)        /* the value returned: its buffer is the output's */
            pv_push(a, &aliases, ar_printf(a, "%s is %s", t->desc, is_out->desc));
        else if (rank_known(g, t))
            pv_push(a, &temps, t);
    }
    g->temps = temps;
    if (g->temps.n) {
        int nknown = g->known.n;              /* locals of the block stay in it */
        line(g, "if (tmp) {");
        g->indent++;
        for (int i = 0; i < g->temps.n; i++) {
            Tensor *t = g->temps.items[i];
            emit_result(g, t, ar_printf(a, "tmp[%d]", i), &max_static, 0);
            buf_printf(&fc->temp_names, "    case %d: return \"%s\";\n", i, t->desc);
            ntemps++;
        }
        g->indent--;
        line(g, "}");
        g->known.n = g->known_c.n = nknown;
    }
    for (int i = 0; i < g->inputs.n; i++)
        if ((int)ip[i].ndims > max_static)
            max_static = ip[i].ndims;

    /* The dimensions struct: the variables the signature names. */
    PtrVec named = { 0 };
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < lists[l]->n; i++) {
            Shape *s = shape_norm(g->c, ((Tensor *)lists[l]->items[i])->type->shape);
            for (uint32_t k = 0; k < s->n; k++) {
                if (s->s[k].var) {
                    SVar *v = s->s[k].var;
                    if (namer_name_of(&g->nm, &v->stamp, &v->mark) && !(v->def && !v->def->done))
                        pv_push(a, &named, &s->s[k]);
                } else {
                    Dim *d = dim_norm(g->c, s->s[k].dim);
                    for (uint32_t m = 0; m < d->nt; m++)
                        for (uint32_t f = 0; f < d->t[m].nf; f++) {
                            DVar *v = d->t[m].f[f].var;
                            if (v && !v->dyn && namer_name_of(&g->nm, &v->stamp, &v->mark)) {
                                Seg *seg = ar_alloc(a, sizeof *seg);
                                seg->dim = dim_of_var(g->c, v, NULL);
                                pv_push(a, &named, seg);
                            }
                        }
                }
            }
        }
    PtrVec seen = { 0 };
    line(g, "if (dims) {");
    for (int i = 0; i < named.n; i++) {
        Seg *seg = named.items[i];
        void *key = seg->var ? (void *)seg->var : (void *)dim_is_var(seg->dim);
        int dup = 0;
        for (int k = 0; k < seen.n; k++)
            if (seen.items[k] == key)
                dup = 1;
        if (dup)
            continue;
        pv_push(a, &seen, key);
        if (seg->var) {
            SVar *v = seg->var;
            const char *name = namer_name_of(&g->nm, &v->stamp, &v->mark);
            buf_printf(&fc->dims, "    axon_shape %s;\n", name);
            ESVar *e = esvar(v);
            if (e) {
                line(g, "    dims->%s.rank = 0;", name);
                line(g, "    (void)axon__append(&dims->%s, %s, %s);", name, e->p, e->n);
            } else {
                line(g, "    dims->%s.rank = -1;", name);
            }
        } else {
            DVar *v = dim_is_var(seg->dim);
            const char *name = namer_name_of(&g->nm, &v->stamp, &v->mark);
            buf_printf(&fc->dims, "    int64_t %s;\n", name);
            line(g, "    dims->%s = %s;", name, evar(v) && evar(v)->c ? evar(v)->c : "AXON_DIM_UNKNOWN");
        }
    }
    line(g, "}");
    line(g, "(void)in; (void)out; (void)tmp; (void)dims; (void)err;");
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
    g->body = &fc->counts;
    for (int l = 1; l < 3; l++)
        for (int i = 0; i < lists[l]->n; i++) {
            Tensor *t = lists[l]->items[i];
            const char *arr = list_names[l];
            fail_if(g,
                    ar_printf(a, "axon__count(&plan->%s[%d], %d, &plan->%s_elements[%d], &plan->%s_bytes[%d])", arr, i,
                              elem_size(elem_of(g, t)), arr, i, arr, i),
                    "AXON_ERR_OVERFLOW", t->type->origin,
                    ar_printf(a, "%s has more elements (or bytes) than int64 can count", t->desc), NULL, NULL, NULL,
                    NULL);
        }

    /* The comment above the function. */
    Buf doc;
    buf_init(&doc, a);
    buf_printf(&doc, "/* %s : %s\n", g->fname, buf_str(&sig));
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < lists[l]->n; i++) {
            Tensor *t = lists[l]->items[i];
            buf_printf(&doc, " *   %s[%d]: %s, %s %s\n", list_names[l], i, t->desc, elem_name(elem_of(g, t)),
                       shape_text(g, t->type->shape));
        }
    for (int i = 0; i < aliases.n; i++)
        buf_printf(&doc, " *   (%s: not an intermediate)\n", (const char *)aliases.items[i]);
    if (elem_vars)
        buf_printf(&doc, " * Element type variables are %s here (axonc emit --elem-type).\n",
                   elem_name(opt->elem_default));
    buf_printf(&doc, " */\n#if AXON_MAX_RANK < %d\n#error \"%s needs AXON_MAX_RANK >= %d\"\n#endif\n", max_static,
               cname, max_static);
    fc->doc = buf_str(&doc);
    fc->ninputs = g->inputs.n;
    fc->noutputs = g->outputs.n;
    fc->ntemps = ntemps;

    clear_notes(g);
    return 0;
}
