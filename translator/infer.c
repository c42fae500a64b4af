/* infer.c - inference over the syntax tree (axon-spec.md sections 2-5).
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
 * A type error abandons the current top-level item (setjmp in infer_item);
 * later items that use it are skipped without a second message.
 */
#include "infer.h"

#include <string.h>

#include "elab.h"
#include "print.h"
#include "scheme.h"
#include "solve.h"
#include "symtab.h"
#include "types.h"

typedef struct Local {
    const char *name;
    Scheme *scheme;
    struct Local *next;
} Local;

typedef struct Inf {
    Ctx *c;
    Symtab globals;        /* name -> Binding* */
    Scope *scope;          /* annotation names of the current item */
    const char *item_name;
} Inf;

static Type *infer(Inf *in, Local *env, Expr *e);

static int is_value(const Expr *e)
{
    switch (e->kind) {
    case EX_FN: case EX_INT: case EX_FLOAT: case EX_OP: case EX_NAME:
        return 1;
    case EX_NEG:
        return e->l->kind == EX_INT || e->l->kind == EX_FLOAT;
    case EX_TUPLE:
        for (int i = 0; i < e->args.n; i++)
            if (!is_value(e->args.items[i]))
                return 0;
        return 1;
    default:
        return 0;
    }
}

/* ---- names -------------------------------------------------------------- */

static Type *use_name(Inf *in, Local *env, const char *name, Loc loc)
{
    Ctx *c = in->c;
    if (strcmp(name, "_") == 0)
        type_error(c, loc, "'_' can only be used in a pattern");
    for (Local *l = env; l; l = l->next)
        if (strcmp(l->name, name) == 0) {
            if (!l->scheme->generic)
                return l->scheme->type;
            Origin *o = origin_new(c, loc, ar_printf(c->arena, "the signature of '%s'", name), name, 0);
            o->scheme = l->scheme;
            return instantiate(c, l->scheme, o);
        }
    Binding *b = st_get(&in->globals, name);
    if (!b) {
        if (name[0] == '+' || name[0] == '-' || name[0] == '*' || name[0] == '/')
            type_error(c, loc, "internal error: the operator '%s' has no rule", name);
        type_error(c, loc, "'%s' is not defined", name);
    }
    if (b->failed)
        abandon(c);              /* its own error was reported */
    Origin *o = origin_new(c, loc,
                           ar_printf(c->arena, b->builtin ? "the rule of '%s'" : "the signature of '%s'",
                                     strcmp(name, "__neg") == 0 ? "-" : name),
                           strcmp(name, "__neg") == 0 ? "-" : name, 0);
    o->scheme = b->scheme;
    return instantiate(c, b->scheme, o);
}

/* ---- calls -------------------------------------------------------------- */

static const char *callee_name(const Expr *f)
{
    if (f->kind == EX_NAME || f->kind == EX_OP)
        return f->name;
    return NULL;
}

static const char *arg_what(Inf *in, const char *fname, int i, int nargs, const Expr *arg, int binary)
{
    Arena *a = in->c->arena;
    if (binary)
        return nargs == 1 ? ar_printf(a, "the operand of '%s'", fname)
                          : ar_printf(a, "the %s operand of '%s'", i == 0 ? "left" : "right", fname);
    if (arg && arg->kind == EX_NAME)
        return fname ? ar_printf(a, "argument %d (%s) of '%s'", i + 1, arg->name, fname)
                     : ar_printf(a, "argument %d (%s)", i + 1, arg->name);
    return fname ? ar_printf(a, "argument %d of '%s'", i + 1, fname) : ar_printf(a, "argument %d", i + 1);
}

/* Applies a function type to argument types, unifying each parameter with
 * its argument (so a mismatch is reported at that argument). */
static Type *apply(Inf *in, Type *ft, Loc fn_loc, const char *fname, Expr **args, Type **targs,
                   int nargs, Loc call_loc, int binary)
{
    Ctx *c = in->c;
    ft = type_prune(ft);
    if (ft->kind == TY_VAR) {
        Type *want = type_func(c, (uint32_t)nargs, NULL);
        for (int i = 0; i < nargs; i++)
            want->items[i] = type_var(c, NULL);
        want->ret = type_var(c, NULL);
        unify_type(c, ft, want, origin_new(c, fn_loc, fname ? ar_printf(c->arena, "the call of '%s'", fname)
                                                             : "this call", fname, 0));
        ft = type_prune(ft);
    }
    if (ft->kind != TY_FUNC) {
        Namer nm;
        namer_init(&nm, c, 1);
        if (fname)
            type_error(c, fn_loc, "'%s' is not a function; it has type %s", fname, pr_type_str(&nm, ft));
        type_error(c, fn_loc, "this is not a function; it has type %s", pr_type_str(&nm, ft));
    }
    if ((int)ft->n != nargs) {
        diag_error(c->diag, call_loc, "'%s' takes %u argument%s, but %d %s given", fname ? fname : "this function",
                   ft->n, ft->n == 1 ? "" : "s", nargs, nargs == 1 ? "was" : "were");
        if (ft->origin && ft->origin->scheme)
            note_origin(c, "its signature", ft->origin);
        abandon(c);
    }
    for (int i = 0; i < nargs; i++) {
        Origin *why = origin_new(c, args[i] ? args[i]->loc : call_loc,
                                 arg_what(in, fname, i, nargs, args[i], binary), fname, i + 1);
        why->scheme = ft->origin ? ft->origin->scheme : NULL;
        unify_type(c, ft->items[i], targs[i], why);
    }
    return ft->ret;
}

static Type *infer_call(Inf *in, Local *env, Expr *e)
{
    Type *ft = infer(in, env, e->fn);
    int n = e->args.n;
    Type **targs = ar_alloc(in->c->arena, sizeof(Type *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        targs[i] = infer(in, env, e->args.items[i]);
    return apply(in, ft, e->fn->loc, callee_name(e->fn), (Expr **)e->args.items, targs, n, e->loc, 0);
}

static Type *infer_operator(Inf *in, Local *env, Expr *e)
{
    const char *shown = e->kind == EX_NEG ? "-" : e->name;
    Type *ft = use_name(in, env, e->name, e->op_loc);
    Expr *args[2] = { e->l, e->r };
    Type *targs[2];
    int n = e->kind == EX_NEG ? 1 : 2;
    for (int i = 0; i < n; i++)
        targs[i] = infer(in, env, args[i]);
    return apply(in, ft, e->op_loc, shown, args, targs, n, e->loc, 1);
}

/* ---- functions and statements -------------------------------------------- */

static Local *bind_local(Inf *in, Local *env, const char *name, Scheme *s)
{
    Local *l = ar_alloc(in->c->arena, sizeof *l);
    l->name = name;
    l->scheme = s;
    l->next = env;
    return l;
}

/* Destructures t by the pattern, binding the names (monomorphic). */
static Local *bind_pattern(Inf *in, Local *env, Pattern *p, Type *t)
{
    Ctx *c = in->c;
    p->type = t;
    switch (p->kind) {
    case PAT_WILD:
        return env;
    case PAT_NAME:
        return bind_local(in, env, p->name, scheme_mono(c, t));
    case PAT_TUPLE: {
        uint32_t n = (uint32_t)p->items.n;
        Type *want = type_tuple(c, n, origin_new(c, p->loc, "the pattern", NULL, 0));
        for (uint32_t i = 0; i < n; i++)
            want->items[i] = type_var(c, NULL);
        unify_type(c, want, t, origin_new(c, p->loc, "the pattern", NULL, 0));
        for (uint32_t i = 0; i < n; i++)
            env = bind_pattern(in, env, p->items.items[i], want->items[i]);
        return env;
    }
    }
    return env;
}

static Type *infer_fn(Inf *in, Local *env, Expr *e)
{
    Ctx *c = in->c;
    FnExpr *f = e->lam;
    uint32_t n = (uint32_t)f->params.n;
    Type *ft = type_func(c, n, origin_new(c, e->loc, "this function", NULL, 0));
    for (uint32_t i = 0; i < n; i++) {
        Param *p = f->params.items[i];
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(((Param *)f->params.items[j])->name, p->name) == 0 && strcmp(p->name, "_") != 0)
                type_error(c, p->loc, "parameter '%s' appears twice", p->name);
        p->type = p->ann ? elab_type(c, in->scope, p->ann, ar_printf(c->arena, "the annotation of '%s'", p->name))
                         : type_var(c, NULL);
        ft->items[i] = p->type;
        if (strcmp(p->name, "_") != 0)
            env = bind_local(in, env, p->name, scheme_mono(c, p->type));
    }
    for (int i = 0; i < f->stmts.n; i++) {
        Stmt *s = f->stmts.items[i];
        int gen = s->pat->kind == PAT_NAME && is_value(s->value);
        if (gen)
            enter_level(c);
        Type *t = infer(in, env, s->value);
        if (s->ann) {
            const char *name = s->pat->name;
            Type *want = elab_type(c, in->scope, s->ann, ar_printf(c->arena, "the annotation of '%s'", name));
            unify_type(c, want, t, origin_new(c, s->value->loc, ar_printf(c->arena, "the value of '%s'", name), NULL, 0));
        }
        if (gen) {
            leave_level(c);
            Scheme *sc = generalize(c, t);
            s->pat->type = t;
            env = bind_local(in, env, s->pat->name, sc);
        } else {
            env = bind_pattern(in, env, s->pat, t);
        }
    }
    Type *bt = infer(in, env, f->body);
    if (f->ret) {
        Type *want = elab_type(c, in->scope, f->ret, "the result annotation");
        unify_type(c, want, bt, origin_new(c, f->body->loc, "the result of this function", NULL, 0));
        bt = want;
    }
    ft->ret = bt;
    return ft;
}

static Type *literal(Inf *in, Expr *e)
{
    Ctx *c = in->c;
    const Origin *o = origin_new(c, e->loc, "this literal", NULL, 0);
    return type_tensor(c, elem_var(c, NULL), shape_new(c, 0, o), o);
}

static Type *infer(Inf *in, Local *env, Expr *e)
{
    Type *t = NULL;
    switch (e->kind) {
    case EX_NAME:
    case EX_OP:
        t = use_name(in, env, e->name, e->loc);
        break;
    case EX_INT:
    case EX_FLOAT:
        t = literal(in, e);
        break;
    case EX_CALL:
        t = infer_call(in, env, e);
        break;
    case EX_BINARY:
    case EX_NEG:
        t = infer_operator(in, env, e);
        break;
    case EX_TUPLE: {
        t = type_tuple(in->c, (uint32_t)e->args.n, origin_new(in->c, e->loc, "this tuple", NULL, 0));
        for (int i = 0; i < e->args.n; i++)
            t->items[i] = infer(in, env, e->args.items[i]);
        break;
    }
    case EX_FN:
        t = infer_fn(in, env, e);
        break;
    }
    e->type = t;
    return t;
}

/* ---- items ------------------------------------------------------------ */

static void reset_after_error(Ctx *c)
{
    for (int i = c->qhead; i < c->queue.n; i++)
        ((Constraint *)c->queue.items[i])->queued = 0;
    c->queue.n = 0;
    c->qhead = 0;
    c->draining = 0;
    c->overflow = 0;
    for (int l = 1; l < c->npending; l++) {
        for (int i = 0; i < c->pending[l].n; i++)
            ((Constraint *)c->pending[l].items[i])->done = 1;
        c->pending[l].n = 0;
    }
    c->level = 0;
}

static void infer_item(Inf *in, Item *it, Binding *b)
{
    Ctx *c = in->c;
    jmp_buf here;
    jmp_buf *saved = c->abort;
    c->abort = &here;
    if (setjmp(here)) {
        reset_after_error(c);
        b->failed = 1;
        c->abort = saved;
        return;
    }
    Scope sc = { { 0 }, 1 };
    in->scope = &sc;
    in->item_name = it->name;
    enter_level(c);
    if (it->kind == IT_EXTERN) {
        Type *t = elab_type(c, &sc, it->type, ar_printf(c->arena, "the signature of '%s'", it->name));
        leave_level(c);
        b->scheme = generalize(c, t);
    } else {
        Type *t = infer(in, NULL, it->value);
        leave_level(c);
        b->scheme = is_value(it->value) ? generalize(c, t) : settle(c, t);
    }
    c->abort = saved;
}

int infer_program(Ctx *c, Program *prelude, Program *prog, Checked *out)
{
    Inf in;
    memset(&in, 0, sizeof in);
    in.c = c;
    st_init(&in.globals, c->arena);
    out->prog = prog;
    out->bindings = (PtrVec){ 0 };
    Symtab mine;
    st_init(&mine, c->arena);
    for (int pass = 0; pass < 2; pass++) {
        Program *p = pass == 0 ? prelude : prog;
        for (int i = 0; i < p->items.n; i++) {
            Item *it = p->items.items[i];
            Binding *b = ar_alloc(c->arena, sizeof *b);
            b->item = it;
            b->builtin = pass == 0;
            if (pass == 1) {
                Item *first = st_get(&mine, it->name);
                if (first) {
                    diag_error(c->diag, it->name_loc, "'%s' is defined twice", it->name);
                    diag_note(c->diag, first->name_loc, "'%s' is first defined here", it->name);
                    b->failed = 1;
                    pv_push(c->arena, &out->bindings, b);
                    continue;
                }
                st_put(&mine, it->name, it);
            }
            infer_item(&in, it, b);
            st_put(&in.globals, it->name, b);
            if (pass == 1)
                pv_push(c->arena, &out->bindings, b);
        }
    }
    return c->diag->errors;
}
