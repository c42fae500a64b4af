/* infer.c - inference of a program, item by item (infer.h): each item's
 * expression inferred (infer_expr.c), its sizes settled, its arithmetic
 * checked, its scheme generalised.  A type error abandons the current
 * top-level item (setjmp in infer_item); later items that use it are
 * skipped without a second message.
 */
#include "infer.h"

#include <stdlib.h>
#include <string.h>

#include "dim.h"
#include "infer_expr.h"
#include "parse.h"
#include "print.h"
#include "scheme.h"
#include "types.h"
#include "warn.h"

/* ---- items ------------------------------------------------------------ */

static void reset_after_error(Ctx *c)
{
    c->call_nargs = 0;
    c->inst_log = NULL;
    for (int i = c->qhead; i < c->queue.n; i++)
        ((Constraint *)c->queue.items[i])->queued = 0;
    c->queue.n = 0;
    c->qhead = 0;
    c->draining = 0;
    c->overflow = 0;
    c->norm_depth = 0;
    for (int l = 1; l < c->npending; l++) {
        for (int i = 0; i < c->pending[l].n; i++)
            ((Constraint *)c->pending[l].items[i])->done = 1;
        c->pending[l].n = 0;
    }
    c->level = 0;
}

/* Normalises every dimension of t, so that arithmetic done lazily (an
 * overflow, a division by zero) is noticed while the item is current.
 * Each node once: types are DAGs. */
static void settle_walk(Ctx *c, Type *t, uint32_t stamp, int depth)
{
    t = type_prune(t);
    if (t->stamp == stamp)
        return;
    t->stamp = stamp;
    if (depth > TYPE_MAX_DEPTH)
        type_too_deep(c);
    if (t->kind == TY_TENSOR) {
        Shape *s = shape_norm(c, t->u.ten.shape);
        for (uint32_t i = 0; i < s->n; i++)
            if (s->s[i].dim)
                dim_norm(c, s->s[i].dim);
    } else if (t->kind != TY_VAR) {
        for (uint32_t i = 0; i < t->u.fun.n; i++)
            settle_walk(c, t->u.fun.items[i], stamp, depth + 1);
        if (t->kind == TY_FUNC)
            settle_walk(c, t->u.fun.ret, stamp, depth + 1);
    }
}

static void settle_dims(Ctx *c, Type *t)
{
    settle_walk(c, t, ++c->stamp, 0);
}

/* Innermost first, so that the error points at the expression that made
 * the size. */
static void check_expr_arith(Ctx *c, Expr *e)
{
    if (!e)
        return;
    switch (e->kind) {
    case EX_CALL:
        if (e->u.call.fn)
            check_expr_arith(c, e->u.call.fn);
        for (int i = 0; i < e->u.call.args.n; i++)
            check_expr_arith(c, e->u.call.args.items[i]);
        break;
    case EX_BINARY:
        check_expr_arith(c, e->u.op.l);
        check_expr_arith(c, e->u.op.r);
        break;
    case EX_NEG:
        check_expr_arith(c, e->u.op.l);
        break;
    case EX_TUPLE:
        for (int i = 0; i < e->u.call.args.n; i++)
            check_expr_arith(c, e->u.call.args.items[i]);
        break;
    case EX_FN:
        for (int i = 0; i < e->u.lam->stmts.n; i++)
            check_expr_arith(c, ((Stmt *)e->u.lam->stmts.items[i])->value);
        check_expr_arith(c, e->u.lam->body);
        return;                 /* a function's own type adds nothing */
    default:
        break;
    }
    if (e->type && (e->kind == EX_CALL || e->kind == EX_BINARY || e->kind == EX_NEG)) {
        settle_dims(c, e->type);
        if (c->overflow)
            in_arith_error(c, e->kind == EX_CALL ? e->loc : expr_op_loc(e),
                        e->kind == EX_CALL && e->u.call.fn ? in_callee_name(e->u.call.fn) : e->name);
    }
}

/* An overflow can only come from normalising a dimension made by
 * arithmetic (dim.c, note_arith), so those are normalised first; only when
 * one overflows (rare) is every expression walked, innermost first, to find
 * the one whose size overflows and say where.  Normalising stores nothing
 * after an overflow, so the walk meets it again where it is.  (Without the
 * first pass the walk would run for every item: a second pass over the
 * whole AST, a fifth of the time of `axonc check` on a large model.) */
static void check_arith(Ctx *c, Item *it, Type *t)
{
    int pending = c->overflow;   /* left by inference: the walk reports it */
    int made = c->arith.n;       /* not what normalising them makes */
    for (int i = 0; i < made && !c->overflow; i++)
        dim_norm(c, c->arith.items[i]);
    if (c->overflow) {
        if (!pending)
            c->overflow = 0;
        check_expr_arith(c, it->value);
    }
    settle_dims(c, t);
    if (c->overflow)
        in_arith_error(c, it->name_loc, NULL);
}

/* Every `?` of an extern's result is a size the operation produces (dyn 2):
 * a fact that inference puts on it is one the header cannot check. */
/* Calls fn on every dimension of a result type (tensors in tuples too). */
static void each_result_dim(Ctx *c, Type *t, int depth, void (*fn)(Ctx *c, Dim *d))
{
    t = type_prune(t);
    if (depth > TYPE_MAX_DEPTH)
        return;
    if (t->kind == TY_TENSOR) {
        Shape *s = shape_norm(c, t->u.ten.shape);
        for (uint32_t i = 0; i < s->n; i++)
            if (s->s[i].dim)
                fn(c, s->s[i].dim);
    } else if (t->kind == TY_TUPLE) {
        for (uint32_t i = 0; i < t->u.fun.n; i++)
            each_result_dim(c, t->u.fun.items[i], depth + 1, fn);
    }
}

static void mark_produced_dim(DVar *v, void *arg)
{
    (void)arg;
    if (v->dyn)
        v->dyn = 2;
}

/* A `?` of an extern's result is a size the operation produces. */
static void mark_produced(Ctx *c, Dim *d)
{
    dim_each_var(dim_norm(c, d), mark_produced_dim, NULL);
}

/* The sizes an extern's result computes (`a + b`, `n * m`, not a lone
 * size) must fit in int64 wherever it is called: C_FITS constraints of its
 * scheme, without an origin, so that each call reports its own place. */
static void require_result_fits(Ctx *c, Dim *d)
{
    int64_t v;
    if (!d->ragged && !dim_is_const(d, &v) && !dim_is_var(d))
        require_fits(c, d, NULL);
}

static void infer_item(Inf *in, Item *it, Binding *b)
{
    Ctx *c = in->c;
    jmp_buf here;
    jmp_buf *saved = c->abort;
    c->abort = &here;
    if (setjmp(here)) {
        reset_after_error(c);
        in_scope_pop(in, 0);
        b->failed = 1;
        c->abort = saved;
        return;
    }
    Scope sc = { { 0 }, 1, NULL, { 0 }, 0 };
    c->arith.n = 0;
    c->joins.n = 0;
    in->scope = &sc;
    in->current = it;
    enter_level(c);
    if (it->kind == IT_EXTERN) {
        Type *t = elab_type(c, &sc, it->type, OW_SIG, it->name);
        for (int i = 0; i < it->where.n; i++)
            in_where_clause(c, &sc, it->name, it->where.items[i], it->type);
        if (type_prune(t)->kind == TY_FUNC) {
            each_result_dim(c, type_prune(t)->u.fun.ret, 0, mark_produced);
            each_result_dim(c, type_prune(t)->u.fun.ret, 0, require_result_fits);
        }
        leave_level(c);
        b->scheme = generalize(c, t);
        if (!b->builtin)
            b->scheme->names = sc.names;
    } else {
        Type *t = in_infer(in, it->value);
        c->where = it->loc;
        check_arith(c, it, t);
        leave_level(c);
        b->scheme = in_is_value(it->value) ? generalize(c, t) : settle(c, t);
        if (!b->builtin) {
            b->scheme->names = sc.names;        /* (what its sizes print as) */
            warn_item(c, it, &sc, b->scheme);
        }
    }
    c->abort = saved;
}

int infer_program(Ctx *c, Program *prelude, Program *prog, Checked *out)
{
    Inf in;
    memset(&in, 0, sizeof in);
    in.c = c;
    solve_init(c);
    st_init(&in.globals, c->arena);
    st_init(&in.specs, c->arena);
    st_init(&in.locals, c->arena);
    st_reserve(&in.locals, prog->nbinders);
    out->prog = prog;
    out->bindings = (PtrVec){ 0 };
    Symtab mine;
    st_init(&mine, c->arena);
    st_init(&in.items, c->arena);
    for (int i = prog->items.n - 1; i >= 0; i--) {
        Item *it = prog->items.items[i];
        st_put(&in.items, it->name, it);
    }
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