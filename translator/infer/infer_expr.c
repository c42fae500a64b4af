/* infer_expr.c - inference over expressions (infer_expr.h; axon-spec.md
 * sections 2-5).
 *
 *   x                 instantiate x's scheme (a built-in rule, an extern's
 *                     signature, a function's inferred scheme)
 *   literal           t []  for a fresh element variable t (literals are
 *                     polymorphic in their element type)
 *   f(a1, .., an)     f : (P1, .., Pn) -> R,  Pi = type of ai,  gives R
 *   a op b, -a        calls of the operator's rule
 *   fn (p: T..) {..}  parameters are monomorphic inside the body
 *   p = e; ...        let: generalised when e is a syntactic value (a
 *                     function, a literal, a name, a tuple of values), as
 *                     ML's value restriction does; tensors computed by calls
 *                     stay monomorphic (they are the intermediates)
 */
#include "infer_expr.h"

#include <stdlib.h>
#include <string.h>

#include "dim.h"
#include "elab.h"
#include "print.h"
#include "parse.h"
#include "scheme.h"
#include "spec.h"
#include "solve.h"
#include "symtab.h"
#include "types.h"
#include "warn.h"

static void bind_local(Inf *in, const char *name, Scheme *s)
{
    Local *l = ar_alloc(in->c->arena, sizeof *l);
    l->name = name;
    l->scheme = s;
    l->shadowed = st_put(&in->locals, name, l);
    pv_push(in->c->arena, &in->stack, l);
}

void in_scope_pop(Inf *in, int mark)
{
    if (mark == 0 && (size_t)in->stack.n * 4 >= in->locals.cap) {
        /* Leaving a top-level item with many locals: nothing is shadowed
         * any more, and one pass over the table is cheaper than a probe
         * per local (a large table misses the cache at every probe). */
        st_clear(&in->locals);
        in->stack.n = 0;
        return;
    }
    while (in->stack.n > mark) {
        Local *l = in->stack.items[--in->stack.n];
        st_put(&in->locals, l->name, l->shadowed);
    }
}

int in_is_value(const Expr *e)
{
    switch (e->kind) {
    case EX_FN: case EX_INT: case EX_FLOAT: case EX_OP: case EX_NAME: case EX_DIMS:
        return 1;
    case EX_NEG:
        return e->u.op.l->kind == EX_INT || e->u.op.l->kind == EX_FLOAT;
    case EX_TUPLE:
        for (int i = 0; i < e->u.call.args.n; i++)
            if (!in_is_value(e->u.call.args.items[i]))
                return 0;
        return 1;
    default:
        return 0;
    }
}

/* ---- names -------------------------------------------------------------- */

/* Edit distance (insertions, deletions, substitutions, swaps of two
 * neighbours) between two short names, or limit + 1 once it exceeds limit. */
static int name_distance(const char *a, const char *b, int limit)
{
    enum { MAXN = 48 };
    int n = (int)strlen(a), m = (int)strlen(b);
    if (n > MAXN || m > MAXN || abs(n - m) > limit)
        return limit + 1;
    int d[MAXN + 1][MAXN + 1];
    for (int i = 0; i <= n; i++)
        d[i][0] = i;
    for (int j = 0; j <= m; j++)
        d[0][j] = j;
    for (int i = 1; i <= n; i++) {
        int best = limit + 1;
        for (int j = 1; j <= m; j++) {
            int v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < v)
                v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
            if (v < best)
                best = v;
        }
        if (best > limit)
            return limit + 1;
    }
    return d[n][m];
}

/* For "'bais' is not defined": the visible name nearest to it (locals,
 * the items above and the built-ins), if one is near enough: a third of
 * its letters (one edit for 3 to 5 letters; nothing for 1 or 2).  Ties go
 * to the first in alphabetical order, so the message does not depend on
 * table order. */
static const char *nearest_name(Inf *in, const char *name)
{
    int limit = (int)strlen(name) / 3;          /* (none for one or two letters) */
    if (limit < 1)
        return NULL;
    const char *best = NULL;
    int bestd = limit + 1;
    for (int i = in->stack.n - 1; i >= 0; i--) {
        const Local *l = in->stack.items[i];
        int d = name_distance(name, l->name, limit);
        if (d < bestd || (d == bestd && best && strcmp(l->name, best) < 0)) {
            best = l->name;
            bestd = d;
        }
    }
    for (size_t i = 0; i < in->globals.cap; i++) {
        const SymEntry *e = &in->globals.e[i];
        if (!e->key || !e->val || e->key[0] == '_')
            continue;
        int d = name_distance(name, e->key, limit);
        if (d < bestd || (d == bestd && best && strcmp(e->key, best) < 0)) {
            best = e->key;
            bestd = d;
        }
    }
    return bestd <= limit && best && strcmp(best, name) != 0 ? best : NULL;
}

/* Instantiates s at a use of name (site: the EX_NAME or EX_CALL, or
 * NULL), recording at a program's own function what its variables became
 * (Expr.inst). */
static Type *inst_at(Inf *in, const Scheme *s, const Origin *o, Expr *site, int own)
{
    Ctx *c = in->c;
    if (site && own && s->generic) {
        site->inst = ar_alloc(c->arena, sizeof(PtrVec));
        c->inst_log = site->inst;
    }
    Type *t = instantiate(c, s, o);
    c->inst_log = NULL;
    return t;
}

static Type *use_name(Inf *in, const char *name, Loc loc, Expr *site)
{
    Ctx *c = in->c;
    if (strcmp(name, "_") == 0)
        type_error(c, loc, "'_' can only be used in a pattern");
    Local *l = st_get(&in->locals, name);
    if (l) {
        if (!l->scheme->generic)
            return l->scheme->type;
        Origin *o = origin_of(c, loc, OW_SIG, name, name, 0);
        o->scheme = l->scheme;
        return inst_at(in, l->scheme, o, site, 1);
    }
    Binding *b = st_get(&in->globals, name);
    if (!b) {
        Item *later = st_get(&in->items, name);
        if (later && later == in->current)
            type_error(c, loc, "'%s' refers to itself; Axon functions cannot be recursive", name);
        if (later) {
            diag_error(c->diag, loc, "'%s' is used before its definition", name);
            diag_note(c->diag, later->name_loc, "'%s' is defined here (an item can use only the items above it)",
                      name);
            abandon(c);
        }
        const char *near = nearest_name(in, name);
        if (near)
            type_error(c, loc, "'%s' is not defined (did you mean '%s'?)", name, near);
        type_error(c, loc, "'%s' is not defined", name);
    }
    if (b->failed)
        abandon(c);              /* its own error was reported */
    const char *shown = ast_shown_name(name);
    Origin *o = origin_of(c, loc, b->builtin ? OW_RULE : OW_SIG, shown, shown, 0);
    o->scheme = b->scheme;
    return inst_at(in, b->scheme, o, site, !b->builtin);
}

/* ---- calls -------------------------------------------------------------- */

const char *in_callee_name(const Expr *f)
{
    if (f->kind == EX_NAME || f->kind == EX_OP)
        return f->name;
    return NULL;
}

static Origin *arg_origin(Inf *in, Loc loc, const char *fname, int i, int nargs, const Expr *arg, int binary)
{
    OriginKind k = !binary ? OW_ARG : nargs == 1 ? OW_OPERAND : i == 0 ? OW_LEFT : OW_RIGHT;
    Origin *o = origin_of(in->c, loc, k, NULL, fname, i + 1);
    if (!binary && arg && arg->kind == EX_NAME)
        o->argname = arg->name;
    return o;
}

/* Whether name, called here, is the prelude's operator (not a local or
 * an item of that name). */
static int builtin_callee(Inf *in, const char *name)
{
    if (st_get(&in->locals, name))
        return 0;
    Binding *b = st_get(&in->globals, name);
    return b && b->builtin;
}

/* concat_axis(a, b, c, ..., axis) of the prelude (spec section 5b: any
 * number of tensors): whether name is it and n > 3. */
static int nary_concat(Inf *in, const char *name, int n)
{
    return n > 3 && strcmp(name, "concat_axis") == 0 && builtin_callee(in, name);
}

/* Applies a function type to argument types, unifying each parameter with
 * its argument (so a mismatch is reported at that argument). */
static Type *apply(Inf *in, Type *ft, Loc fn_loc, const char *fname, Expr **args, Type **targs,
                   int nargs, Loc call_loc, int binary)
{
    Ctx *c = in->c;
    c->where = call_loc;
    ft = type_prune(ft);
    if (ft->kind == TY_VAR) {
        Type *want = type_func(c, (uint32_t)nargs, NULL);
        for (int i = 0; i < nargs; i++)
            want->u.fun.items[i] = type_var(c, NULL);
        want->u.fun.ret = type_var(c, NULL);
        unify_type(c, ft, want, origin_of(c, fn_loc, OW_CALL, NULL, fname, 0));
        ft = type_prune(ft);
    }
    if (ft->kind != TY_FUNC) {
        Namer nm;
        namer_init(&nm, c, 1);
        if (fname)
            type_error(c, fn_loc, "'%s' is not a function; it has type %s", fname, pr_type_str(&nm, ft));
        type_error(c, fn_loc, "this is not a function; it has type %s", pr_type_str(&nm, ft));
    }
    if ((int)ft->u.fun.n != nargs) {
        if (fname && nargs < 3 && nary_concat(in, fname, 4))
            diag_error(c->diag, call_loc, "'%s' takes two or more tensors, then the axis, but %d argument%s %s given",
                       fname, nargs, nargs == 1 ? "" : "s", nargs == 1 ? "was" : "were");
        else
            diag_error(c->diag, call_loc, "'%s' takes %u argument%s, but %d %s given", fname ? fname : "this function",
                       ft->u.fun.n, ft->u.fun.n == 1 ? "" : "s", nargs, nargs == 1 ? "was" : "were");
        /* Where its signature is written down. */
        Binding *b = fname && !st_get(&in->locals, fname) ? st_get(&in->globals, fname) : NULL;
        const char *shown = ast_shown_name(fname);
        if (b && b->builtin)
            diag_note_plain(c->diag, "the rule of '%s' is %s", shown, pr_scheme_str(c, b->scheme, PR_TEXT_LIMIT));
        else if (b)
            diag_note(c->diag, b->item->name_loc, "'%s' is defined here: %s", shown,
                      pr_scheme_str(c, b->scheme, PR_TEXT_LIMIT));
        abandon(c);
    }
    for (int i = 0; i < nargs; i++) {
        Origin *why = arg_origin(in, args[i] ? args[i]->loc : call_loc, fname, i, nargs, args[i], binary);
        why->scheme = ft->origin ? ft->origin->scheme : NULL;
        unify_type(c, ft->u.fun.items[i], targs[i], why);
    }
    return ft->u.fun.ret;
}

AX_NORETURN void in_arith_error(Ctx *c, Loc loc, const char *who)
{
    int what = c->overflow;
    c->overflow = 0;
    const char *text = what == 3 ? "divides a size by zero"
                     : what == 2 ? "gives a size expression too large to handle (more than 4096 terms, or nested too deeply)"
                                 : "gives a size that overflows 64 bits";
    if (who)
        type_error(c, loc, "'%s' %s", ast_shown_name(who), text);
    type_error(c, loc, "this %s", text);
}

/* The generic scheme a called name has, with the origin its instances
 * get (as use_name makes them); NULL when it has none, or is not there. */
static const Scheme *callee_scheme(Inf *in, const char *name, Loc loc, Origin **o)
{
    Ctx *c = in->c;
    if (strcmp(name, "_") == 0)
        return NULL;
    Local *l = st_get(&in->locals, name);
    if (l) {
        if (!l->scheme->generic)
            return NULL;
        *o = origin_of(c, loc, OW_SIG, name, name, 0);
        (*o)->scheme = l->scheme;
        return l->scheme;
    }
    Binding *b = st_get(&in->globals, name);
    if (!b || b->failed || !b->scheme->generic)
        return NULL;
    const char *shown = ast_shown_name(name);
    *o = origin_of(c, loc, b->builtin ? OW_RULE : OW_SIG, shown, shown, 0);
    (*o)->scheme = b->scheme;
    return b->scheme;
}

/* A call of a name: when the arguments already have the shape the callee
 * asks, its result is made straight from the scheme (instantiate_call);
 * otherwise the scheme is instantiated and unified with the arguments. */
/* The scheme a spec string spells for op (spec.h): its signature's text
 * read as an extern's type, generalised, kept for the next use. */
static const Scheme *spec_scheme(Inf *in, const char *op, Expr *spec)
{
    Ctx *c = in->c;
    const char *key = ar_printf(c->arena, "%s\x1f%s", op, spec->name);
    Scheme *s = st_get(&in->specs, key);
    if (s)
        return s;
    const char *sig = spec_signature(c, op, spec->name, spec->loc);
    if (!sig)
        abandon(c);
    const char *text = ar_printf(c->arena, "extern %s : %s;", op, sig);
    int errors = c->diag->errors;
    Program *p = parse_source(c->arena, c->diag, src_from_text(c->arena, "<spec>", text, strlen(text), 1), 1);
    if (c->diag->errors != errors || p->items.n != 1)
        type_error(c, spec->loc, "internal error: the spec's signature '%s' does not parse", sig);
    Item *it = p->items.items[0];
    enter_level(c);
    Scope sc = { { 0 }, c->level, NULL, { 0 }, 0 };
    Type *t = elab_type(c, &sc, it->type, OW_SIG, op);
    leave_level(c);
    s = generalize(c, t);
    st_put(&in->specs, key, s);
    return s;
}

/* Whether a call of name is one of a spec operator (spec.h): the built-in
 * einsum, sum, ... (not a local or item of that name). */
static int spec_call(Inf *in, const char *name, Expr **args, int n)
{
    if (!spec_is_op(name) || st_get(&in->locals, name))
        return 0;
    Binding *b = st_get(&in->globals, name);
    if (b && !b->builtin)
        return 0;
    if (n < 1 || !args[0] || args[0]->kind != EX_STRING)
        type_error(in->c, n >= 1 && args[0] ? args[0]->loc : in->c->where,
                   "'%s' takes a spec string first, e.g. %s", name,
                   strcmp(name, "einsum") == 0 ? "einsum(\"...nd,...md->...nm\", q, k)" : "sum(\"...n->...\", x)");
    return 1;
}

static Type *call_rule(Inf *in, const Scheme *s, Origin *o, Type **targs, int n, const char *name, Loc fn_loc,
                       Expr **args, Loc call_loc, int binary, Expr *fn, Type *ft, Expr *site);

/* Whether parameter i of s is an axis: `dims [k]` with k the axis of an
 * axis clause (constraint.c), so that its value may be negative.
 * Decision (docs/language.md): only a built-in's axis argument, written in
 * the call: a dims parameter is sizes, >= 0 (spec section 4). */
static int axis_param(Ctx *c, const Scheme *s, int i)
{
    Type *ft = s ? type_prune(s->type) : NULL;
    if (!ft || ft->kind != TY_FUNC || i >= (int)ft->u.fun.n)
        return 0;
    Type *p = type_prune(ft->u.fun.items[i]);
    if (p->kind != TY_TENSOR || elem_find(p->u.ten.elem)->prim != EL_DIMS)
        return 0;
    Shape *sh = shape_norm(c, p->u.ten.shape);
    DVar *v = sh->n == 1 && sh->s[0].dim ? dim_is_var(dim_norm(c, sh->s[0].dim)) : NULL;
    for (int j = 0; v && j < s->cons.n; j++) {
        Constraint *k = s->cons.items[j];
        if (!k->done && k->kind == C_EQ_DIM && k->axis && dim_is_var(dim_norm(c, k->r)) == v)
            return 1;
    }
    return 0;
}

static Type *call_named(Inf *in, const char *name, Loc fn_loc, Expr **args, int n, Loc call_loc, int binary,
                        Expr *fn, Expr *site)
{
    Ctx *c = in->c;
    Origin *o = NULL;
    int spec = !binary && spec_call(in, name, args, n);
    const Scheme *s;
    if (spec) {
        s = spec_scheme(in, name, args[0]);
        o = origin_of(c, fn_loc, OW_RULE, name, name, 0);
        o->scheme = s;
    } else {
        s = callee_scheme(in, name, fn_loc, &o);
    }
    Type **targs = ar_alloc(c->arena, sizeof(Type *) * (size_t)(n ? n : 1));
    Type *ft = s ? NULL : use_name(in, name, fn_loc, NULL);
    for (int i = 0; i < n; i++) {
        int axis = !spec && !binary && s && builtin_callee(in, name) &&
                   axis_param(c, s, nary_concat(in, name, n) && i == n - 1 ? 2 : i);
        int saved_axis = c->axis_value;
        c->axis_value = axis;
        targs[i] = spec && i == 0 ? (args[0]->type = type_var(c, NULL)) : in_infer(in, args[i]);
        c->axis_value = saved_axis;
    }
    if (!spec && !binary && s && nary_concat(in, name, n)) {
        /* concat_axis(a, b, c, k) is concat_axis(concat_axis(a, b, k), c, k) */
        Type *acc = targs[0];
        for (int i = 1; i < n - 1; i++) {
            Type *three[3] = { acc, targs[i], targs[n - 1] };
            Expr *aexprs[3] = { args[0], args[i], args[n - 1] };
            Origin *oi = o;
            if (i > 1)
                callee_scheme(in, name, fn_loc, &oi);
            Type **saved_args = c->call_args;
            void **saved_exprs = c->call_exprs;
            int saved_n = c->call_nargs;
            c->call_args = three;
            c->call_exprs = (void **)aexprs;
            c->call_nargs = 3;
            acc = call_rule(in, s, oi, three, 3, name, fn_loc, aexprs, call_loc, 0, NULL, NULL, NULL);
            c->call_args = saved_args;
            c->call_exprs = saved_exprs;
            c->call_nargs = saved_n;
        }
        return acc;
    }
    /* (the arguments, for the two-names warning: warn.c) */
    Type **saved_args = c->call_args;
    void **saved_exprs = c->call_exprs;
    int saved_n = c->call_nargs;
    c->call_args = targs;
    c->call_exprs = (void **)args;
    c->call_nargs = n;
    Type *r = call_rule(in, s, o, targs, n, name, fn_loc, args, call_loc, binary, fn, ft, spec ? NULL : site);
    c->call_args = saved_args;
    c->call_exprs = saved_exprs;
    c->call_nargs = saved_n;
    return r;
}

static Type *call_rule(Inf *in, const Scheme *s, Origin *o, Type **targs, int n, const char *name, Loc fn_loc,
                       Expr **args, Loc call_loc, int binary, Expr *fn, Type *ft, Expr *site)
{
    Ctx *c = in->c;
    if (s) {
        c->where = call_loc;
        int pending = c->overflow;
        /* (at a program's own function: what its variables are here) */
        Binding *own = site && !st_get(&in->locals, name) ? st_get(&in->globals, name) : NULL;
        if (site && s->generic && (st_get(&in->locals, name) || (own && !own->builtin))) {
            site->inst = ar_alloc(c->arena, sizeof(PtrVec));
            c->inst_log = site->inst;
        }
        Type *r = instantiate_call(c, s, o, targs, n);
        if (c->overflow && !pending)    /* the result's size, made here */
            in_arith_error(c, binary ? fn_loc : call_loc, name);
        if (r) {
            c->inst_log = NULL;
            if (!c->draining)
                solve_drain(c);
            return r;
        }
        ft = instantiate(c, s, o);
        c->inst_log = NULL;
    }
    if (fn)
        fn->type = ft;
    return apply(in, ft, fn_loc, binary ? ast_shown_name(name) : name, args, targs, n, call_loc, binary);
}

static Type *infer_call(Inf *in, Expr *e)
{
    if (!e->u.call.fn)
        return call_named(in, e->name, expr_callee_loc(e), (Expr **)e->u.call.args.items, e->u.call.args.n, e->loc, 0,
                          NULL, e);
    Type *ft = in_infer(in, e->u.call.fn);
    int n = e->u.call.args.n;
    Type **targs = ar_alloc(in->c->arena, sizeof(Type *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        targs[i] = in_infer(in, e->u.call.args.items[i]);
    return apply(in, ft, e->u.call.fn->loc, in_callee_name(e->u.call.fn), (Expr **)e->u.call.args.items, targs, n, e->loc, 0);
}

static Type *infer_operator(Inf *in, Expr *e)
{
    Expr *args[2] = { e->u.op.l, e->u.op.r };
    return call_named(in, e->name, expr_op_loc(e), args, e->kind == EX_NEG ? 1 : 2, e->loc, 1, NULL, NULL);
}

static Pattern *seen_put(Inf *in, Seen *s, Pattern *p)
{
    if (s->tab)
        return st_put(s->tab, p->name, p);
    for (int i = 0; i < s->list.n; i++)
        if (strcmp(((Pattern *)s->list.items[i])->name, p->name) == 0)
            return s->list.items[i];
    pv_push(in->c->arena, &s->list, p);
    if (s->list.n > 16) {
        s->tab = ar_alloc(in->c->arena, sizeof *s->tab);
        st_init(s->tab, in->c->arena);
        for (int i = 0; i < s->list.n; i++)
            st_put(s->tab, ((Pattern *)s->list.items[i])->name, s->list.items[i]);
    }
    return NULL;
}

static void check_pattern_names(Inf *in, Pattern *p, Seen *seen)
{
    if (p->kind == PAT_NAME) {
        Pattern *q = seen_put(in, seen, p);
        if (q) {
            diag_error(in->c->diag, p->loc, "'%s' is bound twice in this pattern", p->name);
            diag_note(in->c->diag, q->loc, "'%s' is first bound here", p->name);
            abandon(in->c);
        }
    } else if (p->kind == PAT_TUPLE) {
        for (int i = 0; i < p->items.n; i++)
            check_pattern_names(in, p->items.items[i], seen);
    }
}

/* Destructures t by the pattern, binding the names (monomorphic). */
static void bind_pattern(Inf *in, Pattern *p, Type *t)
{
    Ctx *c = in->c;
    p->type = t;
    switch (p->kind) {
    case PAT_WILD:
        return;
    case PAT_NAME:
        bind_local(in, p->name, scheme_mono(c, t));
        return;
    case PAT_TUPLE: {
        uint32_t n = (uint32_t)p->items.n;
        const Origin *o = origin_new(c, p->loc, "the pattern", NULL, 0);
        Type *want = type_tuple(c, n, o);
        for (uint32_t i = 0; i < n; i++)
            want->u.fun.items[i] = type_var(c, NULL);
        unify_type(c, want, t, o);
        for (uint32_t i = 0; i < n; i++)
            bind_pattern(in, p->items.items[i], want->u.fun.items[i]);
        return;
    }
    }
}

/* A parameter given twice is an error (a few are compared in pairs, many
 * through a table: a function may have a hundred thousand). */
static void check_params(Inf *in, FnExpr *f)
{
    Ctx *c = in->c;
    int n = f->params.n;
    Symtab seen;
    if (n > 16) {
        st_init(&seen, c->arena);
        st_reserve(&seen, (size_t)n);
    }
    for (int i = 0; i < n; i++) {
        Param *p = f->params.items[i], *q = NULL;
        if (strcmp(p->name, "_") == 0)
            continue;
        if (n > 16) {
            q = st_put(&seen, p->name, p);
        } else {
            for (int j = 0; j < i && !q; j++)
                if (strcmp(((Param *)f->params.items[j])->name, p->name) == 0)
                    q = f->params.items[j];
        }
        if (q) {
            diag_error(c->diag, p->loc, "parameter '%s' appears twice", p->name);
            diag_note(c->diag, q->loc, "'%s' is first a parameter here", p->name);
            abandon(c);
        }
    }
}

static const char *loc_text(Ctx *c, Loc l)
{
    return ar_strndup(c->arena, l.src->text + l.start, l.end - l.start);
}

/* `?` (in a clause: the signature's own) */
static int is_dyn(const DExpr *d)
{
    return d->kind == DX_DYN;
}

/* An axis clause `rank(p) = k` (spec section 5b, `[-1]` counts from the
 * last axis): where a parameter of the declaration is `p @ [m] @ s`, p
 * first, the shape s after the axis, as written (an empty SExpr for
 * `p @ [m]`); else NULL.  Decision (docs/language.md): such a clause reads
 * "axis k", so a negative k fixes rank(s) = -1 - k instead. */
static SExpr *axis_after(Ctx *c, const TExpr *decl, const DExpr *l, const DExpr *r)
{
    if (!decl || decl->kind != TX_FUNC || l->kind != DX_RANK || r->kind != DX_NAME || l->shape->atoms.n != 1)
        return NULL;
    const SAtom *pv = l->shape->atoms.items[0];
    if (pv->kind != SA_VAR)
        return NULL;
    for (int i = 0; i < decl->items.n; i++) {
        const TExpr *t = decl->items.items[i];
        if (t->kind != TX_TENSOR || t->shape->atoms.n < 2)
            continue;
        const SAtom *a0 = t->shape->atoms.items[0], *a1 = t->shape->atoms.items[1];
        if (a0->kind != SA_VAR || strcmp(a0->name, pv->name) != 0 || a1->kind != SA_DIMS || a1->dims.n != 1)
            continue;
        SExpr *after = ar_alloc(c->arena, sizeof *after);
        after->loc = t->shape->loc;
        for (int k = 2; k < t->shape->atoms.n; k++)
            pv_push(c->arena, &after->atoms, t->shape->atoms.items[k]);
        return after;
    }
    return NULL;
}

/* A clause of a declaration's or a function's `where` (spec section 5b):
 * l = r is an equation between sizes, l <= r a `>= 0` on r - l; both
 * become constraints of the scheme, checked (or solved) at every use.
 * l = r between shapes (`broadcast(a, b) = b`) unifies them.  decl: the
 * declared type of an extern (for axis clauses), or NULL. */
void in_where_clause(Ctx *c, Scope *sc, const char *who, WhereClause *w, const TExpr *decl)
{
    Origin *o = origin_new(c, w->loc, ar_printf(c->arena, "'%s'", ast_shown_name(who)), NULL, 0);
    Shape *sl, *sr;
    int shapes = elab_shape_clause(c, sc, w->l, w->r, OW_SIG, who, &sl, &sr);
    if (shapes < 0 || (shapes && w->op != '='))
        type_error(c, w->loc, "a clause between shapes is `shape = shape`, each side a shape's name or broadcast(...) of them");
    if (shapes) {
        o->argname = loc_text(c, w->loc);
        unify_shape(c, sl, sr, o);
        return;
    }
    /* elements(a) = elements(b): the newer of two such variables is bound,
     * and the clause prints as written when it is the left one */
    int count_left = w->l->kind == DX_ELEMS || w->l->kind == DX_RANK;
    Dim *r = count_left ? elab_dim_in(c, sc, w->r, OW_SIG, who) : NULL;
    Dim *l = elab_dim_in(c, sc, w->l, OW_SIG, who);
    if (!count_left)
        r = elab_dim_in(c, sc, w->r, OW_SIG, who);
    if (w->op == '=') {
        /* the clause goes with the constraints it makes, and with the
         * counts it equates (whose failures are found when they expand) */
        o->argname = loc_text(c, w->loc);    /* (an OW_TEXT origin: origin_clause) */
        DVar *cv[2] = { dim_is_var(dim_norm(c, l)), dim_is_var(dim_norm(c, r)) };
        for (int i = 0; i < 2; i++)
            if (cv[i] && cv[i]->def && !cv[i]->def->done &&
                (cv[i]->def->kind == C_ELEMS || cv[i]->def->kind == C_RANK))
                cv[i]->def->clause = origin_clause(o);
        SExpr *after = axis_after(c, decl, w->l, w->r);
        if (after) {
            /* an axis clause (constraint.c): not an equation while k is
             * not known, so that a rank(p) known first does not fix it */
            Constraint *k = cons_new(c, C_EQ_DIM, o);
            k->axis = 1;
            k->l = l;
            k->r = r;
            k->sr = elab_shape_in(c, sc, after, OW_SIG, who);
            cons_add(c, k);
            return;
        }
        unify_dim(c, l, r, o);
    } else {
        Dim *d = dim_sub(c, r, l, o);
        if (c->overflow) {
            c->overflow = 0;
            type_error(c, w->loc, "this clause is too large to compute (it overflows 64 bits or has too many terms)");
        }
        Constraint *k = cons_new(c, C_NONNEG, o);
        k->l = d;
        k->promise = dexpr_any(w->l, is_dyn) || dexpr_any(w->r, is_dyn);
        k->clause = loc_text(c, w->loc);
        const char *lt = loc_text(c, w->l->loc);
        int paren = strpbrk(lt, "+-") != NULL;
        k->clause_diff = ar_printf(c->arena, "%s - %s%s%s", loc_text(c, w->r->loc), paren ? "(" : "", lt, paren ? ")" : "");
        cons_add(c, k);
    }
}

static Type *infer_fn(Inf *in, Expr *e)
{
    Ctx *c = in->c;
    FnExpr *f = e->u.lam;
    int mark = in->stack.n;
    uint32_t n = (uint32_t)f->params.n;
    Type *ft = type_func(c, n, origin_new(c, e->loc, "this function", NULL, 0));
    check_params(in, f);
    for (uint32_t i = 0; i < n; i++) {
        Param *p = f->params.items[i];
        p->type = p->ann ? elab_type(c, in->scope, p->ann, OW_ANNOT, p->name) : type_var(c, NULL);
        ft->u.fun.items[i] = p->type;
        if (strcmp(p->name, "_") != 0)
            bind_local(in, p->name, scheme_mono(c, p->type));
    }
    for (int i = 0; i < f->where.n; i++)
        in_where_clause(c, in->scope, in->current ? in->current->name : "this function", f->where.items[i], NULL);
    for (int i = 0; i < f->stmts.n; i++) {
        Stmt *s = f->stmts.items[i];
        int gen = s->pat->kind == PAT_NAME && in_is_value(s->value);
        if (gen)
            enter_level(c);
        Type *t = in_infer(in, s->value);
        if (s->ann) {
            const char *name = s->pat->name;
            Type *want = elab_type(c, in->scope, s->ann, OW_ANNOT, name);
            unify_type(c, want, t, origin_of(c, s->value->loc, OW_VALUE, name, NULL, 0));
        }
        if (gen) {
            leave_level(c);
            Scheme *sc = generalize(c, t);
            s->pat->type = t;
            bind_local(in, s->pat->name, sc);
        } else {
            if (s->pat->kind == PAT_TUPLE) {       /* (a name is bound once) */
                Seen seen = { { 0 }, NULL };
                check_pattern_names(in, s->pat, &seen);
            }
            bind_pattern(in, s->pat, t);
        }
    }
    Type *bt = in_infer(in, f->body);
    if (f->ret) {
        Type *want = elab_type(c, in->scope, f->ret, OW_TEXT, "the result annotation");
        unify_type(c, want, bt, origin_new(c, f->body->loc, "the result of this function", NULL, 0));
        bt = want;
    }
    ft->u.fun.ret = bt;
    in_scope_pop(in, mark);
    return ft;
}

/* A literal is a scalar of any element type that can hold it. */
static Type *literal(Inf *in, Expr *e)
{
    Ctx *c = in->c;
    const Origin *o = origin_new(c, e->loc, "this literal", NULL, 0);
    Elem *el = elem_var(c, NULL);
    el->cls = e->kind == EX_FLOAT ? ELC_FLOAT : ELC_NUMBER;
    el->cls_origin = o;
    return type_tensor(c, el, shape_new(c, 0, o), o);
}

Type *in_infer(Inf *in, Expr *e)
{
    Type *t = NULL;
    in->c->where = e->loc;
    switch (e->kind) {
    case EX_NAME:
    case EX_OP:
        t = use_name(in, e->name, e->loc, e);
        break;
    case EX_INT:
    case EX_FLOAT:
        t = literal(in, e);
        break;
    case EX_CALL:
        t = infer_call(in, e);
        break;
    case EX_BINARY:
    case EX_NEG:
        t = infer_operator(in, e);
        break;
    case EX_TUPLE: {
        t = type_tuple(in->c, (uint32_t)e->u.call.args.n, origin_new(in->c, e->loc, "this tuple", NULL, 0));
        for (int i = 0; i < e->u.call.args.n; i++)
            t->u.fun.items[i] = in_infer(in, e->u.call.args.items[i]);
        break;
    }
    case EX_FN:
        t = infer_fn(in, e);
        break;
    case EX_STRING:
        type_error(in->c, e->loc, "a spec string is only the first argument of einsum, sum, mean, amax, amin or argmax");
    case EX_DIMS: {             /* its names are the item's annotation names */
        t = elab_type(in->c, in->scope, e->u.dims, OW_TEXT, "this dims value");
        /* each of its sizes is one the program computes: it fits in int64
         * (`[n * n]`), used or not */
        Shape *s = shape_norm(in->c, t->u.ten.shape);
        for (uint32_t i = 0; i < s->n; i++)
            if (s->s[i].dim)
                require_fits(in->c, s->s[i].dim, t->origin);
        break;
    }
    }
    e->type = t;
    return t;
}