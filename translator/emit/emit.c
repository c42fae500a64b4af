/* emit.c - the generated header: the prologue template, the embedded
 * runtime, one instance of the function template per exported function,
 * the epilogue (axon-spec.md section 8).
 *
 * Templates are real C files (templates/) embedded at build time.  A line
 * ending in a marker comment (at-sign NAME at-sign) is replaced by generated
 * text; the tokens axon_tmpl_ / AXON_TMPL_ become the function's prefix
 * P_NAME_, and AXON_TMPL_GUARD the include guard.  A comment opening with
 * slash-star-bang is about the template itself and is left out.
 */
#include "emit.h"

#include "cnames.h"

#include <ctype.h>
#include <string.h>

#include "emit_run.h"
#include "lower.h"
#include "print.h"
#include "symtab.h"
#include "types.h"

extern const char axon_tmpl_prologue[], axon_tmpl_function[], axon_tmpl_epilogue[], axon_runtime[];

typedef struct Subst {
    const char *marker;     /* "DOC" for the marker at-DOC-at */
    const char *text;       /* replaces the whole line (may be several lines) */
} Subst;

/* Copies a template, replacing marked lines and the placeholder tokens. */
static void instantiate_template(Buf *out, const char *tmpl, const Subst *subs, int nsubs,
                                 const char *lower, const char *upper, const char *guard)
{
    const char *p = tmpl;
    while (*p) {
        if (strncmp(p, "/*!", 3) == 0) {      /* the template's own note */
            const char *close = strstr(p, "*/");
            p = close ? close + 2 : p + strlen(p);
            while (*p == '\n')
                p++;
            continue;
        }
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *hit = NULL;
        for (int i = 0; i < nsubs && !hit; i++) {
            char mark[64];
            snprintf(mark, sizeof mark, "@%s@", subs[i].marker);
            const char *m = strstr(p, mark);
            if (m && m < p + len) {
                hit = subs[i].text;
                buf_puts(out, hit);
                if (hit[0] && hit[strlen(hit) - 1] != '\n')
                    buf_putc(out, '\n');
            }
        }
        if (!hit) {
            for (size_t i = 0; i < len;) {
                if (lower && strncmp(p + i, "axon_tmpl_", 10) == 0) {
                    buf_puts(out, lower);
                    i += 10;
                } else if (upper && strncmp(p + i, "AXON_TMPL_GUARD", 15) == 0 && guard) {
                    buf_puts(out, guard);
                    i += 15;
                } else if (upper && strncmp(p + i, "AXON_TMPL_", 10) == 0) {
                    buf_puts(out, upper);
                    i += 10;
                } else {
                    buf_putc(out, p[i]);
                    i++;
                }
            }
            buf_putc(out, '\n');
        }
        p += len;
        if (*p == '\n')
            p++;
    }
}

void emit_template_into(Buf *out, const char *tmpl, const char *const *markers, const char *const *texts, int n,
                        const char *lower)
{
    Subst subs[8];
    for (int i = 0; i < n && i < 8; i++) {
        subs[i].marker = markers[i];
        subs[i].text = texts[i];
    }
    instantiate_template(out, tmpl, subs, n < 8 ? n : 8, lower, lower, NULL);
}

/* Text pasted into a C comment, escaped as in a C string literal (a
 * backslash, a control or non-ASCII byte as \ooo) so that the comment can
 * neither close early nor open a nested one: the slash of a star-slash or a
 * slash-star pair becomes \057.  No newline is left, so neither a
 * backslash-newline nor a ??/ trigraph can splice lines either. */
static void put_comment_text(Buf *b, const char *s)
{
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        int pair = c == '/' && ((p > s && p[-1] == '*') || p[1] == '*');
        if (c == '\\')
            buf_puts(b, "\\\\");
        else if (c < 32 || c >= 127 || pair)
            buf_printf(b, "\\%03o", c);
        else
            buf_putc(b, (char)c);
    }
}

static int is_c_identifier(const char *s)
{
    if (!s || !*s || !(isalpha((unsigned char)*s) || *s == '_'))
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return 0;
    return 1;
}

int emit_plans(Compilation *cp, const EmitOptions *opt, Buf *out)
{
    Arena *a = &cp->arena;
    EmitOptions with = *opt;
    with.plans = 1;
    const char *prefix = opt->prefix ? opt->prefix : ast_main_name(a, cp->src->name);
    for (int i = 0; i < cp->checked.bindings.n; i++) {
        Binding *b = cp->checked.bindings.items[i];
        if (!b->scheme || type_prune(b->scheme->type)->kind != TY_FUNC || !compile_own_item(cp, b->item))
            continue;
        FnCode fc;
        const char *cname = ar_printf(a, "%s_%s", prefix, cn_spell(a, b->item->name, CN_FUNCTION));
        if (emit_function(cp, b, cname, &with, &fc))
            buf_printf(out, "%s: not exported\n", b->item->name);
        else
            buf_printf(out, "%s:\n%s", b->item->name, buf_str(&fc.plan));
    }
    return cp->diag.errors ? 1 : 0;
}

/* The names a function's part of the header defines at file scope, each
 * claimed (cnames.h).  Spelled as cnames.h says, two things never get one
 * name; should they all the same, the function is left out, with a
 * warning that says which name and what has it. */
static const char *const fn_words[] = {
    "dims", "plan", "solve", "shape", "prepare", "temp_name", "NUM_INPUTS", "NUM_OUTPUTS", "NUM_TEMPS",
    "run", "_view", "_r_solve", "_r_dims",
};

static int claim_names(Compilation *cp, CnNames *names, Binding *b, const char *cname, FnCode *fc)
{
    Arena *a = &cp->arena;
    const char *what = ar_printf(a, "'%s'", b->item->name);
    PtrVec all = { 0 };
    for (size_t i = 0; i < sizeof fn_words / sizeof fn_words[0]; i++)
        pv_push(a, &all, ar_printf(a, "%s_%s", cname, fn_words[i]));
    for (int i = 0; i < fc->names.n; i++)
        pv_push(a, &all, fc->names.items[i]);
    for (int i = 0; i < all.n; i++) {
        const char *had = cn_owner(names, all.items[i]);
        if (had) {
            diag_warning(&cp->diag, b->item->name_loc, "'%s' is not exported: its name %s would also be one of %s",
                         b->item->name, (const char *)all.items[i], had);
            return 1;
        }
    }
    for (int i = 0; i < all.n; i++)
        if (cn_claim(names, all.items[i], what))
            return 1;       /* (one name twice in one function: cannot be) */
    return 0;
}

int emit_header(Compilation *cp, const EmitOptions *opt, Buf *out)
{
    Arena *a = &cp->arena;
    const char *prefix = opt->prefix ? opt->prefix : ast_main_name(a, cp->src->name);
    if (!is_c_identifier(prefix)) {
        fprintf(stderr, "axonc: error: the prefix '%s' is not a C identifier\n", prefix);
        return 1;
    }
    /* The guard: the prefix in capitals. */
    Buf guard;
    buf_init(&guard, a);
    for (const char *s = prefix; *s; s++)
        buf_putc(&guard, (char)toupper((unsigned char)*s));
    buf_puts(&guard, "_AXON_H");

    Buf banner;
    buf_init(&banner, a);
    buf_printf(&banner, "/* Generated by axonc %s from ", AXONC_VERSION);
    put_comment_text(&banner, cp->src->name);
    buf_puts(&banner, "; do not edit.\n");
    buf_puts(&banner,
             " * Shape functions for the Axon functions below: each checks its input\n"
             " * shapes, computes every output (and named intermediate) shape, and sizes\n"
             " * every allocation.  Freestanding C99/C++/CUDA, no heap, no global state.\n"
             " * API: docs/c-api.md in the axonc sources. */");
    Subst pro[] = { { "BANNER", buf_str(&banner) } };
    instantiate_template(out, axon_tmpl_prologue, pro, 1, NULL, "", buf_str(&guard));
    buf_puts(out, axon_runtime);
    if (out->n && out->p[out->n - 1] != '\n')
        buf_putc(out, '\n');

    CnNames names;         /* every name the header defines (cnames.h) */
    cn_init(&names, a);
    /* Each exported function's pieces first: the shared parts of run()
     * (the externs' table, the kernels) depend on all of them. */
    RunKernels kernels;
    memset(&kernels, 0, sizeof kernels);
    PtrVec fns = { 0 };
    int over_more = 0;             /* functions after the node limit */
    Binding *over_first = NULL;
    typedef struct Fn {
        Binding *b;
        const char *cname;
        FnCode fc;
        RunCode rc;
    } Fn;
    for (int i = 0; i < cp->checked.bindings.n; i++) {
        Binding *b = cp->checked.bindings.items[i];
        if (!b->scheme || type_prune(b->scheme->type)->kind != TY_FUNC)
            continue;          /* values are not exported (docs/c-api.md) */
        if (!compile_own_item(cp, b->item))
            continue;          /* nor an imported file's (spec section 2) */
        Fn *fn = ar_alloc(a, sizeof *fn);
        fn->b = b;
        fn->cname = ar_printf(a, "%s_%s", prefix, cn_spell(a, b->item->name, CN_FUNCTION));
        if (emit_function(cp, b, fn->cname, opt, &fn->fc))
            continue;
        if (claim_names(cp, &names, b, fn->cname, &fn->fc))
            continue;
        if (opt->no_run || b->item->kind == IT_EXTERN)
            fn->rc.why = "";        /* (an extern's run() is the user's own) */
        else
            emit_run(cp, b, fn->cname, prefix, opt, &kernels, &fn->rc);
        if (fn->rc.over_limit) {
            if (!over_more++)
                over_first = b;     /* (one warning for all, below) */
        } else if (fn->rc.why && *fn->rc.why) {
            diag_warning(&cp->diag, b->item->name_loc, "'%s': run() is not available: %s", b->item->name,
                         fn->rc.why);
        }
        pv_push(a, &fns, fn);
    }
    if (over_more == 1)
        diag_warning(&cp->diag, over_first->item->name_loc,
                     "'%s': run() is not available: the functions before it reached the limit of %d tensors",
                     over_first->item->name, LOWER_MAX_NODES);
    else if (over_more)
        diag_warning(&cp->diag, over_first->item->name_loc,
                     "'%s' and the %d functions after it: run() is not available: the functions before them "
                     "reached the limit of %d tensors",
                     over_first->item->name, over_more - 1, LOWER_MAX_NODES);
    emit_run_shared(cp, &kernels, prefix, out);
    for (int i = 0; i < fns.n; i++) {
        Fn *fn = fns.items[i];
        FnCode *fc = &fn->fc;
        RunCode *rc = &fn->rc;
        const char *cname = fn->cname;
        const char *pre = ar_printf(a, "%s_", cname);
        int run = !rc->why;
        Subst subs[] = {
            { "DOC", fc->doc },
            { "NUM_INPUTS", ar_printf(a, "#define %s_NUM_INPUTS %d", cname, fc->ninputs) },
            { "NUM_OUTPUTS", ar_printf(a, "#define %s_NUM_OUTPUTS %d", cname, fc->noutputs) },
            { "NUM_TEMPS", ar_printf(a, "#define %s_NUM_TEMPS %d\n%s", cname, fc->ntemps, buf_str(&fc->indices)) },
            { "DIMS", buf_str(&fc->dims) },
            { "BODY", buf_str(&fc->body) },
            { "COUNTS", fc->counts.n ? buf_str(&fc->counts) : "    (void)plan;" },
            { "TEMP_NAMES", fc->temp_names.n ? buf_str(&fc->temp_names) : "    default: break;" },
            { "RUN_PLAN", run ? buf_str(&rc->plan)
                              : "    int64_t workspace_bytes;   /* 0: this function has no run() (docs/c-api.md) */" },
            { "RUN_SOLVE", run ? buf_str(&rc->solve) : "" },
            { "RUN_PREPARE", run ? buf_str(&rc->prepare) : "    plan->workspace_bytes = 0;" },
            { "RUN_DECL", run ? buf_str(&rc->decl)
                              : ar_printf(a, "/* %s has no run(): %s. */", fn->b->item->name,
                                          *rc->why ? rc->why
                                          : fn->b->item->kind == IT_EXTERN ? "it is an extern" : "emit --no-run") },
        };
        buf_putc(out, '\n');
        instantiate_template(out, axon_tmpl_function, subs, (int)(sizeof subs / sizeof subs[0]), pre, pre, NULL);
    }
    Buf impl;
    buf_init(&impl, a);
    if (kernels.any) {
        buf_printf(&impl, "\n/* ---- run(): defined where %s is, declarations everywhere ---- */\n",
                   ar_printf(a, "%.*s_IMPLEMENTATION", (int)(guard.n - 7), buf_str(&guard)));
        buf_printf(&impl, "#ifdef %.*s_IMPLEMENTATION\n", (int)(guard.n - 7), buf_str(&guard));
        emit_run_kernels(cp, &kernels, &impl);
        for (int i = 0; i < fns.n; i++) {
            Fn *fn = fns.items[i];
            if (!fn->rc.why)
                buf_puts(&impl, buf_str(&fn->rc.impl));
        }
        buf_puts(&impl, "#endif\n");
    }
    buf_putc(out, '\n');
    Subst epi[] = { { "RUN_IMPL", buf_str(&impl) } };
    instantiate_template(out, axon_tmpl_epilogue, epi, 1, NULL, NULL, NULL);
    return cp->diag.errors ? 1 : 0;
}
