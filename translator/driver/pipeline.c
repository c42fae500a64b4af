/* pipeline.c - `axonc emit` after inference (pipeline.h): each exported
 * function through plan, emit, lower, plan and emit again, in order; then
 * the header. */
#include "pipeline.h"

#include <string.h>

#include "emit.h"
#include "lower.h"
#include "plan_print.h"
#include "types.h"

/* The functions the header exports: the file's own (not an imported
 * file's: spec section 2), and only functions (values are not exported:
 * docs/c-api.md). */
static int exported(Compilation *cp, Binding *b)
{
    return b->scheme && type_prune(b->scheme->type)->kind == TY_FUNC && compile_own_item(cp, b->item);
}

static const char *prefix_of(Compilation *cp, const EmitOptions *opt)
{
    return opt->prefix ? opt->prefix : ast_main_name(&cp->arena, cp->src->name);
}

/* The shape function of run()'s nodes (the P_NAME__r and, after a nonzero,
 * P_NAME__rd of prepare()), planned and printed into fc; its errors (a
 * warning made one by -Werror) do not count: it is part of run(), which
 * is left out instead.  Returns the plan, or NULL with *why set. */
static FnPlan *run_shapes(Compilation *cp, Binding *b, const FnPlanOptions *po, const char *name, FnCode *fc,
                          const char *fallback, const char **why)
{
    FnPlan *fp = ar_alloc(&cp->arena, sizeof *fp);
    int saved_errors = cp->diag.errors;
    if (fnplan_make(cp, b, po, fp)) {
        *why = fp->why ? fp->why : fallback;
        return NULL;
    }
    emit_function(fp, name, fc);
    fnplan_clear(fp);
    cp->diag.errors = saved_errors;
    return fp;
}

/* run() of function b: lowered (the program's lowering made at the first),
 * planned, printed into rc; or rc->why says why not. */
static void run_function(Compilation *cp, Binding *b, const char *cname, const char *prefix, const EmitOptions *opt,
                         LowerProgram **lp, RunKernels *k, RunCode *rc)
{
    Arena *a = &cp->arena;
    memset(rc, 0, sizeof *rc);
    if (!*lp)
        *lp = lower_program(cp, opt->elem_default);
    int over_before = lower_over_limit(*lp);
    const char *why = NULL;
    LFunc *f = lower_function(*lp, b, &why);
    if (!f) {
        rc->why = why;
        rc->over_limit = over_before;
        return;
    }
    RunPlan *rp = ar_alloc(a, sizeof *rp);
    if ((why = runplan_start(cp, f, rp)) != NULL) {
        rc->why = why;
        return;
    }
    FnPlanOptions po = { opt->elem_default, &rp->nodes, NULL };
    FnCode *rfc = ar_alloc(a, sizeof *rfc), *dfc = NULL;
    FnPlan *nodes = run_shapes(cp, b, &po, ar_printf(a, "%s__r", cname), rfc,
                               "its tensors' shapes are not all computed from the inputs", &rc->why);
    if (!nodes)
        return;
    if (rp->dyn.n) {       /* after a nonzero: the same shapes, its size known (dyn[k]) */
        po.dyn_known = &rp->dyn;
        dfc = ar_alloc(a, sizeof *dfc);
        if (!run_shapes(cp, b, &po, ar_printf(a, "%s__rd", cname), dfc,
                        "its tensors' shapes after a nonzero are not all computed", &rc->why))
            return;
    }
    runplan_finish(cp, rp, nodes, k);
    emit_run(cp, b, cname, prefix, rp, rfc, dfc, rc);
}

int pipeline_header(Compilation *cp, const EmitOptions *opt, Buf *out)
{
    Arena *a = &cp->arena;
    const char *prefix = prefix_of(cp, opt);
    if (!emit_check_prefix(prefix))
        return 1;
    CnNames names;         /* every name the header defines (cnames.h) */
    cn_init(&names, a);
    /* Each exported function's pieces first: the shared parts of run()
     * (the externs' table, the kernels) depend on all of them. */
    RunKernels kernels;
    memset(&kernels, 0, sizeof kernels);
    LowerProgram *lp = NULL;
    PtrVec fns = { 0 };
    int over_more = 0;             /* functions after the node limit */
    Binding *over_first = NULL;
    FnPlanOptions po = { opt->elem_default, NULL, NULL };
    for (int i = 0; i < cp->checked.bindings.n; i++) {
        Binding *b = cp->checked.bindings.items[i];
        if (!exported(cp, b))
            continue;
        EmitFn *fn = ar_alloc(a, sizeof *fn);
        fn->b = b;
        fn->cname = ar_printf(a, "%s_%s", prefix, cn_spell(a, b->item->name, CN_FUNCTION));
        FnPlan *fp = ar_alloc(a, sizeof *fp);
        if (fnplan_make(cp, b, &po, fp))
            continue;
        emit_function(fp, fn->cname, &fn->fc);
        fnplan_clear(fp);
        if (emit_claim_names(cp, &names, b, fn->cname, &fn->fc))
            continue;
        if (opt->no_run || b->item->kind == IT_EXTERN)
            fn->rc.why = "";        /* (an extern's run() is the user's own) */
        else
            run_function(cp, b, fn->cname, prefix, opt, &lp, &kernels, &fn->rc);
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
    emit_header(cp, prefix, &fns, &kernels, out);
    return cp->diag.errors ? 1 : 0;
}

int pipeline_plans(Compilation *cp, const EmitOptions *opt, Buf *out)
{
    Arena *a = &cp->arena;
    const char *prefix = prefix_of(cp, opt);
    FnPlanOptions po = { opt->elem_default, NULL, NULL };
    for (int i = 0; i < cp->checked.bindings.n; i++) {
        Binding *b = cp->checked.bindings.items[i];
        if (!exported(cp, b))
            continue;
        const char *cname = ar_printf(a, "%s_%s", prefix, cn_spell(a, b->item->name, CN_FUNCTION));
        FnPlan *fp = ar_alloc(a, sizeof *fp);
        if (fnplan_make(cp, b, &po, fp)) {
            buf_printf(out, "%s: not exported\n", b->item->name);
            continue;
        }
        Buf text;
        buf_init(&text, a);
        plan_print(&fp->plan, &text);
        FnCode fc;         /* (printed as the header would be: its warnings too) */
        emit_function(fp, cname, &fc);
        fnplan_clear(fp);
        buf_printf(out, "%s:\n%s", b->item->name, buf_str(&text));
    }
    return cp->diag.errors ? 1 : 0;
}
