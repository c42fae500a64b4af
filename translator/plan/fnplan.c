/* fnplan.c - an exported function made ready to print (fnplan.h): its
 * signature flattened into tensors, the intermediates the header lists,
 * the run-time plan, the bounds and maxima.  What cannot be exported is
 * refused here, with the reason, before anything is printed. */
#include "fnplan.h"

#include <string.h>

#include "cnames.h"
#include "dim.h"
#include "symtab.h"
#include "types.h"

/* ---- flattening the signature into tensors --------------------------- */

enum {
    MAX_TENSORS = 1 << 20,          /* in one exported function's signature */
    MAX_SIGNATURE = 16 * 1024 * 1024    /* bytes of its printed signature */
};

/* Appends t's tensors to out, left to right.  A tuple's items are named by
 * their number among the parameter's tensors ("argument 2 (x) item 3"), so
 * a deep tuple does not make long names. */
static int flatten(Ctx *cx, Type *t, const char *desc, PtrVec *out, const char **why_not, int *item, int depth)
{
    t = type_prune(t);
    if (depth > TYPE_MAX_DEPTH || out->n >= MAX_TENSORS) {
        *why_not = ar_printf(cx->arena, "its signature has more than %d tensors", MAX_TENSORS);
        return 1;
    }
    switch (t->kind) {
    case TY_TENSOR: {
        PTensor *x = ar_alloc(cx->arena, sizeof *x);
        x->desc = item ? ar_printf(cx->arena, "%s item %d", desc, ++*item) : desc;
        x->type = t;
        pv_push(cx->arena, out, x);
        return 0;
    }
    case TY_TUPLE: {
        int first = 0;
        if (!item)
            item = &first;
        for (uint32_t i = 0; i < t->u.fun.n; i++)
            if (flatten(cx, t->u.fun.items[i], desc, out, why_not, item, depth + 1))
                return 1;
        return 0;
    }
    case TY_FUNC:
        *why_not = ar_printf(cx->arena, "%s is a function", desc);
        return 1;
    case TY_VAR:
        *why_not = ar_printf(cx->arena, "%s can be of any type (it is not known to be a tensor)", desc);
        return 1;
    }
    return 1;
}

/* The named intermediate tensors: the names bound by the statements of the
 * function's own body (tuple patterns give one name per item). */
/* The intermediates no statement names (spec section 8b: every one is
 * planned): each operator application under e whose value is a tensor,
 * "matmul at 4:12" (index constant TMP_matmul_4_12; a + b is "add" at the
 * +, so that a + b + c names two), in the order they are
 * computed (operands first); not e itself (a statement's value is its
 * name's, the body's the output, a top tuple's items likewise), not inside
 * a lambda (its values are per element). */
static const char *op_word(const char *op)
{
    return strcmp(op, "+") == 0 ? "add" : strcmp(op, "-") == 0 ? "sub" : strcmp(op, "*") == 0 ? "mul"
         : strcmp(op, "/") == 0 ? "div" : op;
}

static void collect_unnamed(Ctx *cx, Expr *e, PtrVec *out)
{
    /* an explicit stack: expressions nest as deep as the source allows */
    typedef struct { Expr *e; int top; } Item;
    Arena *a = cx->arena;
    PtrVec stack = { 0 }, found = { 0 };
    Item *first = ar_alloc(a, sizeof *first);
    first->e = e;
    first->top = 1;
    pv_push(a, &stack, first);
    while (stack.n) {
        Item *it = stack.items[--stack.n];
        Expr *x = it->e;
        if (!x || x->kind == EX_FN)
            continue;
        Type *t = x->type ? type_prune(x->type) : NULL;
        if (!it->top && t && t->kind == TY_TENSOR &&
            (x->kind == EX_CALL || x->kind == EX_BINARY || x->kind == EX_NEG) &&
            elem_find(t->u.ten.elem)->prim != EL_DIMS) {
            int ln, col;       /* an operator's own place: a + b + c has two */
            Loc at = x->kind == EX_CALL ? x->loc : expr_op_loc(x);
            src_line_col(at.src, at.start, &ln, &col);
            const char *op = x->kind == EX_NEG ? "neg" : x->name ? op_word(x->name) : "call";
            PTensor *p = ar_alloc(a, sizeof *p);
            p->desc = ar_printf(a, "%s at %d:%d", op, ln, col);
            /* (parsed from the right: op_L_C; an op with a ' spelled, so
             * starting with `_`: no user spelling has that form, cnames.h) */
            p->cname = ar_printf(a, "%s_%d_%d", strchr(op, '\'') ? cn_spell(a, op, CN_TENSOR) : op, ln, col);
            p->type = t;
            pv_push(a, &found, p);
        }
        int child_top = it->top && x->kind == EX_TUPLE;
        PtrVec kids = { 0 };
        if (x->kind == EX_CALL || x->kind == EX_TUPLE) {
            if (x->kind == EX_CALL && x->u.call.fn)
                pv_push(a, &kids, x->u.call.fn);
            for (int i = 0; i < x->u.call.args.n; i++)
                pv_push(a, &kids, x->u.call.args.items[i]);
        } else if (x->kind == EX_BINARY) {
            pv_push(a, &kids, x->u.op.l);
            pv_push(a, &kids, x->u.op.r);
        } else if (x->kind == EX_NEG) {
            pv_push(a, &kids, x->u.op.l);
        }
        for (int i = 0; i < kids.n; i++) {     /* (popped right to left) */
            Item *k = ar_alloc(a, sizeof *k);
            k->e = kids.items[i];
            k->top = child_top;
            pv_push(a, &stack, k);
        }
    }
    /* found is an operator before its operands, right to left; reversed,
     * operands come first, left to right (post-order, as computed) */
    for (int i = found.n - 1; i >= 0; i--)
        pv_push(a, out, found.items[i]);
}

static void collect_temps(Ctx *cx, Pattern *p, Type *t, PtrVec *out)
{
    if (!p || !t)
        return;
    t = type_prune(t);
    if (p->kind == PAT_NAME && t->kind == TY_TENSOR && elem_find(t->u.ten.elem)->prim != EL_DIMS) {
        PTensor *x = ar_alloc(cx->arena, sizeof *x);
        x->desc = p->name;
        x->type = t;
        x->pat = p;
        pv_push(cx->arena, out, x);
    } else if (p->kind == PAT_TUPLE && t->kind == TY_TUPLE && (uint32_t)p->items.n == t->u.fun.n) {
        for (uint32_t i = 0; i < t->u.fun.n; i++)
            collect_temps(cx, p->items.items[i], t->u.fun.items[i], out);
    }
}

/* The tensors of a type (a function's parameters and result), counting
 * no further than just past limit: a type shared as a graph may stand for
 * billions of them.  A value of any type (a variable) counts as one: a
 * tuple of 2^32 of them must stop the count too. */
static long count_tensors(Type *t, long limit, int depth)
{
    t = type_prune(t);
    if (depth > TYPE_MAX_DEPTH)
        return limit + 1;
    if (t->kind == TY_TENSOR || t->kind == TY_VAR)
        return 1;
    long n = 0;
    if (t->kind == TY_TUPLE || t->kind == TY_FUNC)
        for (uint32_t i = 0; i < t->u.fun.n && n <= limit; i++)
            n += count_tensors(t->u.fun.items[i], limit - n, depth + 1);
    if (t->kind == TY_FUNC && n <= limit)
        n += count_tensors(t->u.fun.ret, limit - n, depth + 1);
    return n;
}

/* The names a function returns: a statement's name as the body (or an
 * item of a tuple as the body) is that output, not an intermediate.  Fills
 * alias[i] with the pattern of output i, where there is one. */
static void returned_names(Expr *e, Symtab *last, int *next, const void **alias, int nout)
{
    if (e->kind == EX_TUPLE) {
        for (int i = 0; i < e->u.call.args.n; i++)
            returned_names(e->u.call.args.items[i], last, next, alias, nout);
        return;
    }
    Type *t = e->type ? type_prune(e->type) : NULL;
    if (e->kind == EX_NAME && t && t->kind == TY_TENSOR && *next < nout)
        alias[*next] = st_get(last, e->name);
    *next += t ? (int)count_tensors(t, FNPLAN_MAX_TENSORS, 0) : 1;   /* (at most that: emit_function) */
}

static void last_bindings(Pattern *p, Symtab *last)
{
    if (p->kind == PAT_NAME)
        st_put(last, p->name, p);
    else if (p->kind == PAT_TUPLE)
        for (int i = 0; i < p->items.n; i++)
            last_bindings(p->items.items[i], last);
}
/* ---- the whole function ---------------------------------------------- */

int fnplan_is_dims(const PTensor *t)
{
    return elem_find(t->type->u.ten.elem)->prim == EL_DIMS;
}

int fnplan_rank_known(Ctx *c, const PTensor *t)
{
    Shape *s = shape_norm(c, t->type->u.ten.shape);
    for (uint32_t i = 0; i < s->n; i++)
        if (s->s[i].var && !plan_run_placed(s->s[i].var))
            return 0;
    return 1;
}

int fnplan_elem(const FnPlan *fp, const PTensor *t)
{
    Elem *e = elem_find(t->type->u.ten.elem);
    return e->prim != EL_VAR ? e->prim : fp->opt.elem_default;
}

/* Whether the known predicate of the run-time bounds (bounds.h): what the
 * plan computes. */
static int plan_knows(void *p, Dim *d)
{
    return plan_dim_known(p, d);
}

static int not_exported(FnPlan *fp, Loc loc, const char *why)
{
    plan_clear(&fp->plan);
    if (fp->opt.run_nodes)
        fp->why = why;          /* (run mode: the caller says it) */
    else
        diag_warning(&fp->cp->diag, loc, "'%s' is not exported: %s", fp->plan.fname, why);
    return 1;
}

void fnplan_clear(FnPlan *fp)
{
    plan_clear(&fp->plan);
}

int fnplan_make(Compilation *cp, Binding *b, const FnPlanOptions *opt, FnPlan *fp)
{
    Arena *a = &cp->arena;
    Ctx *cx = &cp->ctx;
    memset(fp, 0, sizeof *fp);
    fp->cp = cp;
    fp->b = b;
    fp->opt = *opt;
    Plan *plan = &fp->plan;
    plan->c = cx;
    plan->nm = &fp->nm;
    plan->fname = b->item->name;
    plan->dyn_known = opt->dyn_known;
    fp->gen = cp->ctx.epoch + 1;
    plan->memo = &fp->memo;
    Loc at = b->item->name_loc;

    Type *ft = type_prune(b->scheme->type);   /* a function (the driver exports no other) */
    FnExpr *fn = b->item->value && b->item->value->kind == EX_FN ? b->item->value->u.lam : NULL;
    fp->fn = fn;
    const char *why_not = NULL;
    /* A parameter that is a function says most about why; look for one first. */
    for (uint32_t i = 0; i < ft->u.fun.n; i++)
        if (type_prune(ft->u.fun.items[i])->kind == TY_FUNC) {
            Param *p = fn && (int)i < fn->params.n ? fn->params.items[i] : NULL;
            return not_exported(fp, at, p ? ar_printf(a, "argument %u (%s) is a function", i + 1, p->name)
                                          : ar_printf(a, "argument %u is a function", i + 1));
        }
    /* A bound that no network reaches (a 200-byte program can return 2^19
     * tensors: a header of hundreds of megabytes), counted before anything
     * is made for each tensor. */
    long ntensors = count_tensors(ft, FNPLAN_MAX_TENSORS, 0);
    if (ntensors > FNPLAN_MAX_TENSORS)
        return not_exported(fp, at, ar_printf(a, "it has more than %d input and output tensors", FNPLAN_MAX_TENSORS));
    for (uint32_t i = 0; i < ft->u.fun.n; i++) {
        Param *p = fn && (int)i < fn->params.n ? fn->params.items[i] : NULL;
        /* "K (input 2)": the parameter's name first, and its place among the
         * inputs (not "argument 2", which after "matmul:" reads as matmul's) */
        const char *desc = p && strcmp(p->name, "_") != 0 ? ar_printf(a, "%s (input %u)", p->name, i + 1)
                                                          : ar_printf(a, "input %u", i + 1);
        int before = plan->inputs.n;
        if (flatten(cx, ft->u.fun.items[i], desc, &plan->inputs, &why_not, NULL, 0))
            return not_exported(fp, at, why_not);
        /* (cnames.h: a spelling never has `__` after a letter or a digit,
         * nor starts `__` then a digit, so these are the generated ones) */
        const char *pn = p && strcmp(p->name, "_") != 0 ? cn_spell(a, p->name, CN_TENSOR) : ar_printf(a, "__%u", i + 1);
        for (int k = before; k < plan->inputs.n; k++)
            pv_push(a, &fp->in_names, plan->inputs.n - before == 1 ? (void *)pn : ar_printf(a, "%s__%d", pn, k - before));
        for (int k = before; k < plan->inputs.n; k++)
            ((PTensor *)plan->inputs.items[k])->at = origin_new(cx, p ? p->loc : at, p ? p->name : plan->fname, NULL, 0);
    }
    if (flatten(cx, ft->u.fun.ret, "output", &plan->outputs, &why_not, NULL, 0))
        return not_exported(fp, at, why_not);
    for (int i = 0; i < plan->outputs.n; i++) {
        PTensor *t = plan->outputs.items[i];
        t->desc = ar_printf(a, "output %d", i + 1);
    }
    PtrVec *inter = &fp->inter;   /* every intermediate, named or not, in the order computed */
    if (opt->run_nodes)
        *inter = *opt->run_nodes;
    else if (fn) {
        for (int i = 0; i < fn->stmts.n; i++) {
            Stmt *st = fn->stmts.items[i];
            collect_unnamed(cx, st->value, inter);
            collect_temps(cx, st->pat, st->pat->type, inter);
        }
        collect_unnamed(cx, fn->body, inter);
    }
    ntensors = (long)plan->inputs.n + plan->outputs.n + inter->n;
    if (ntensors > FNPLAN_MAX_TENSORS)
        return not_exported(fp, at, ar_printf(a, "it has %ld input, output and intermediate tensors (more than %d)",
                                              ntensors, FNPLAN_MAX_TENSORS));
    /* Element types. */
    PtrVec *lists[3] = { &plan->inputs, &plan->outputs, inter };
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < lists[l]->n; i++)
            if (elem_find(((PTensor *)lists[l]->items[i])->type->u.ten.elem)->prim == EL_VAR)
                fp->elem_vars = 1;
    if (fp->elem_vars && opt->elem_default == EL_VAR)
        return not_exported(fp, at, "its element type is a variable; choose one with --elem-type");

    /* The signature, named as `axonc check` names it (after the checks
     * above, which are cheaper than printing a huge one). */
    namer_init(&fp->nm, cx, 0);
    Buf sig;
    buf_init(&sig, a);
    sig.limit = MAX_SIGNATURE;
    pr_scheme(&fp->nm, &sig, b->scheme);
    fp->nm.equal_to = NULL;     /* (the checks' messages say each size as it is) */
    fp->nm.mods.n = 0;
    if (sig.full)
        return not_exported(fp, at, ar_printf(a, "its signature is larger than %d bytes", MAX_SIGNATURE));
    fp->sig = buf_str(&sig);

    if (plan_function(plan, b->scheme))
        return not_exported(fp, plan->refused_at.src ? plan->refused_at : at, plan->refused);
    int planned_at = plan->at;
    plan->at = plan->steps.n;   /* (what is known once every step has run) */

    /* Outputs: their ranks known; then the largest shapes (spec section
     * 5b: the bound of a data-dependent `?`), from what the plan knows. */
    for (int i = 0; i < plan->outputs.n; i++) {
        PTensor *t = plan->outputs.items[i];
        if (!fnplan_rank_known(cx, t))
            return not_exported(fp, at, ar_printf(a, "the rank of %s (%s) is not determined by the input shapes",
                                                  t->desc, pr_shape_str(&fp->nm, t->type->u.ten.shape)));
    }
    fp->rb = bounds_of(cx, b->scheme, plan_knows, plan);
    /* Intermediates: a name the body returns is that output's; one whose
     * rank is not known is not listed (run()'s nodes must all be). */
    const void **alias = ar_alloc(a, sizeof(void *) * (size_t)(plan->outputs.n + 1));
    if (fn && !opt->run_nodes) {
        Symtab last;
        st_init(&last, a);
        for (int i = 0; i < fn->stmts.n; i++)
            last_bindings(((Stmt *)fn->stmts.items[i])->pat, &last);
        int next = 0;
        returned_names(fn->body, &last, &next, alias, plan->outputs.n);
    }
    for (int i = 0; i < inter->n; i++) {
        PTensor *t = inter->items[i];
        PTensor *is_out = NULL;
        for (int k = 0; k < plan->outputs.n && !is_out; k++)
            if (t->pat && alias[k] == t->pat)
                is_out = plan->outputs.items[k];
        if (is_out)        /* the value returned: its buffer is the output's */
            pv_push(a, &fp->aliases, ar_printf(a, "%s is %s", t->desc, is_out->desc));
        else if (fnplan_rank_known(cx, t))
            pv_push(a, &plan->temps, t);
        else if (opt->run_nodes)
            return not_exported(fp, at, ar_printf(a, "the rank of %s (%s) is not determined by the input shapes",
                                                  t->desc, pr_shape_str(&fp->nm, t->type->u.ten.shape)));
    }

    /* Maxima (spec section 8b): when every size of every tensor is bounded
     * (`where n <= 512`), the largest count of each, for static arrays. */
    Bounds *bd = bounds_of(cx, b->scheme, NULL, NULL);
    int bounded = 1;
    for (int l = 0; l < 3; l++) {
        PtrVec *list = l == 0 ? &plan->inputs : l == 1 ? &plan->outputs : &plan->temps;
        fp->maxima[l] = ar_alloc(a, sizeof(int64_t) * (size_t)(list->n ? list->n : 1));
        for (int i = 0; i < list->n && bounded; i++)
            if (!fnplan_is_dims(list->items[i]))
                bounded = bounds_max_elements(bd, ((PTensor *)list->items[i])->type->u.ten.shape, &fp->maxima[l][i]);
    }
    fp->bounded = bounded;
    if (bounded) {
        ScratchShape *dm = ar_alloc(a, sizeof(ScratchShape) * (size_t)(plan->temps.n ? plan->temps.n : 1));
        for (int i = 0; i < plan->temps.n; i++)      /* (a dims value's shape is its values) */
            dm[i].rank = bounds_max_dims(bd, ((PTensor *)plan->temps.items[i])->type->u.ten.shape, dm[i].dims, 8);
        fp->temp_dims_max = dm;
    }
    plan->at = planned_at;
    return 0;
}
