/* emit_fn.c - the shape function of one exported Axon function, as C
 * (emit_fn.h).
 *
 * fnplan.c has flattened the signature into input, output and
 * intermediate tensors and plan.c decided what the shape function does,
 * in order (plan.h); this file writes each step as C, then the outputs and
 * intermediates, the `dims` struct, the element and byte counts, and the
 * comment above.  The steps are emit_checks.c's, the sizes as C
 * emit_sizes.c's.
 */
#include "emit_fn.h"

#include <string.h>

#include "cnames.h"
#include "dim.h"
#include "emit_checks.h"
#include "symtab.h"
#include "types.h"

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
            v = wr_dim_value(w, d, why, ar_printf(a, "a size of %s", t->desc));
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
            wr_line(w, "%s.dims[%u] = %s;", dst, i, v);
            if (i + 1 == prefix)
                wr_line(w, "%s.rank = %u;", dst, prefix);
            continue;
        }
        if (i == 0)
            wr_line(w, "%s.rank = 0;", dst);
        if (s->s[i].var) {
            SVar *r = s->s[i].var;
            wr_fail_if(w, ar_printf(a, "axon__append(&%s, %s, %s)", dst, wr_run_p(w, r), wr_run_n(w, r)), "AXON_ERR_RANK", why,
                    ar_printf(a, "%s would have more than AXON_MAX_RANK axes", t->desc), NULL, NULL, NULL, NULL);
            runs = ar_printf(a, "%s + %s", runs, wr_run_n(w, r));
        } else {
            wr_fail_if(w, ar_printf(a, "axon__push(&%s, %s)", dst, v), "AXON_ERR_RANK", why,
                    ar_printf(a, "%s would have more than AXON_MAX_RANK axes", t->desc), NULL, NULL, NULL, NULL);
        }
    }
    if (s->n == 0)
        wr_line(w, "%s.rank = 0;", dst);
}

/* The value of a bound (bounds.c) made of known sizes, for the largest
 * shape: 0 where it is negative (the clause cannot hold: nothing fits),
 * AXON_DIM_UNKNOWN where it overflows or a size of it is unknown.  Nothing
 * fails: a bound past int64 is only no bound.  NULL if not computable. */
static const char *bound_value(W *w, Dim *u)
{
    const char *cond = wr_unknown_cond(w, u, NULL);
    int saved = w->no_cache, arith = 0;
    w->no_cache = 1;
    const char *e = wr_dim_c(w, u, 0, &arith);
    w->no_cache = saved;
    if (!e)
        return NULL;
    if (!arith && !cond && !dim_has_neg(u))
        return e;
    const char *v = plan_local(w->p, "m");
    wr_line(w, "int64_t %s = %s;", v, e);
    if (dim_has_neg(u)) {
        wr_line(w, "if (%s < 0)", v);
        wr_line(w, "    %s = 0;", v);
    }
    if (arith || cond) {
        wr_line(w, "if (%s%s%s) {", arith ? "bad" : "", arith && cond ? " || " : "", cond ? cond : "");
        wr_line(w, "    %s = AXON_DIM_UNKNOWN;", v);
        if (arith)
            wr_line(w, "    bad = 0;");
        wr_line(w, "}");
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
    wr_line(w, "%s = %s;", mdst, dst);
    for (int i = 0; i < open->n; i++) {
        const OpenAxis *o = open->items[i];
        Dim *u = bounds_upper(rb, o->d);
        const char *v = u ? bound_value(w, u) : NULL;
        if (v)
            t->bound = ar_printf(a, "%s%saxis %u at most %s", t->bound ? t->bound : "", t->bound ? ", " : "",
                                 o->axis, wr_dim_text(w, u, 0));
        else if (warn)
            diag_warning(w->c->diag, why ? why->loc : (Loc){ 0, 0, 0 },
                         "'%s': %s axis %u (%s) is not determined by the input shapes, and no `where` clause "
                         "bounds it: it is AXON_DIM_UNKNOWN at run time, and so is its largest size",
                         w->p->fname, t->desc, o->axis, wr_dim_text(w, o->d, 0));
        wr_line(w, "%s.dims[%s] = %s;", mdst, o->idx, v ? v : "AXON_DIM_UNKNOWN");
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
            buf_printf(&runs, " + %s", wr_run_n(w, s->s[i].var));
        else
            fixed++;
    }
    if (runs.n)
        wr_fail_if(w, ar_printf(a, "%u%s > AXON_MAX_RANK", fixed, buf_str(&runs)), "AXON_ERR_RANK", t->type->origin,
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
    wr_line(w, "if (dims) {");
    for (int i = 0; i < members.n; i++) {
        const Member *mb = members.items[i];
        const char *name = member_name(w, &taken, mb->var, mb->name);
        st_put(&taken, name, mb->var);
        if (mb->shape) {
            SVar *v = mb->var;
            buf_printf(&fc->dims, "    axon_shape %s;\n", name);
            if (plan_run_placed(v)) {
                wr_line(w, "    dims->%s.rank = 0;", name);
                wr_line(w, "    (void)axon__append(&dims->%s, %s, %s);", name, wr_run_p(w, v), wr_run_n(w, v));
            } else {
                wr_line(w, "    dims->%s.rank = -1;", name);
            }
        } else {
            DVar *v = mb->var;
            buf_printf(&fc->dims, "    int64_t %s;\n", name);
            wr_line(w, "    dims->%s = %s;", name, plan_var(w->p, v) ? plan_var(w->p, v)->local : "AXON_DIM_UNKNOWN");
        }
    }
    wr_line(w, "}");
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

    w->unread_axes = wr_checked_only_axes(w);
    for (int i = 0; i < plan->steps.n; i++) {
        plan->at = i;
        wr_write_step(w, plan->steps.items[i]);
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
        wr_line(w, "if (out_max) {");
        w->indent++;
        for (int i = 0; i < plan->outputs.n; i++)
            emit_max(w, plan->outputs.items[i], ar_printf(a, "out[%d]", i), ar_printf(a, "out_max[%d]", i), &open[i],
                     fp->rb, 1);
        w->indent--;
        wr_line(w, "}");
    }
    for (int i = 0; i < plan->temps.n; i++)
        check_temp_rank(w, plan->temps.items[i]);
    if (plan->temps.n) {
        w->in_block = 1;                     /* locals of the block stay in it */
        dm_init(&w->block, a, w->cache.gen);
        w->block.memo = &fp->memo;
        wr_line(w, "if (tmp) {");
        w->indent++;
        PtrVec *topen = ar_alloc(a, sizeof(PtrVec) * (size_t)plan->temps.n);
        for (int i = 0; i < plan->temps.n; i++) {
            PTensor *t = plan->temps.items[i];
            emit_result(w, t, ar_printf(a, "tmp[%d]", i), &max_static, &topen[i]);
            buf_printf(&fc->temp_names, "    case %d: return \"%s\";\n", i, t->desc);
        }
        wr_line(w, "if (tmp_max) {");
        w->indent++;
        for (int i = 0; i < plan->temps.n; i++)
            emit_max(w, plan->temps.items[i], ar_printf(a, "tmp[%d]", i), ar_printf(a, "tmp_max[%d]", i), &topen[i],
                     fp->rb, 0);
        w->indent--;
        wr_line(w, "}");
        w->indent--;
        wr_line(w, "}");
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
    wr_drop_unused(w);
    wr_line(w, "(void)in; (void)out; (void)tmp; (void)dims; (void)out_max; (void)tmp_max; (void)err;");
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
                wr_line(w, "plan->%s_elements[%d] = plan->%s_bytes[%d] = 0;", arr, i, arr, i);
                wr_line(w, "plan->%s_max_elements[%d] = plan->%s_max_bytes[%d] = 0;", arr, i, arr, i);
                continue;
            }
            wr_fail_if(w,
                    ar_printf(a, "axon__count(&plan->%s[%d], %d, &plan->%s_elements[%d], &plan->%s_bytes[%d])", arr, i,
                              elem_size(fnplan_elem(w->fp, t)), arr, i, arr, i),
                    "AXON_ERR_OVERFLOW", t->type->origin,
                    ar_printf(a, "%s has more elements (or bytes) than int64 can count", t->desc), NULL, NULL, NULL,
                    NULL);
            wr_line(w, "(void)axon__count(&plan->%s_max[%d], %d, &plan->%s_max_elements[%d], &plan->%s_max_bytes[%d]);",
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
                       wr_shape_text(w, t->type->u.ten.shape), t->bound ? " (" : "", t->bound ? t->bound : "",
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
