/* lower.c - an exported function as the nodes and loops that run()
 * computes (lower.h): the typed syntax tree evaluated with an environment,
 * making nodes instead of values, every function call inlined. */
#include "lower.h"

#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include "pmap.h"
#include "solve.h"
#include "subst.h"
#include "symtab.h"
#include "types.h"

/* A limit that a real network stays far below; past it run() is not made
 * (emit says why), the shape functions are (LOWER_MAX_NODES: lower.h). */
enum {
    LOWER_MAX_DEPTH = 1000         /* calls inlined inside each other */
};

struct LowerProgram {
    Compilation *cp;
    int elem_default;
    Symtab globals;        /* name -> Binding* (the program's items) */
    Symtab order;          /* name -> its index + 1 among the items */
    long nodes;            /* nodes of the functions lowered before */
    int over;              /* the limit has been reached */
    long steps;            /* their steps (LOWER_MAX_STEPS) */
};

typedef struct Value Value;
typedef PMap Env;          /* a name -> Value * (pmap.h) */

typedef enum { V_NODE, V_TUPLE, V_CLOSURE, V_BUILTIN, V_STRING, V_THUNK } VKind;

struct Value {
    VKind kind;
    LNode *node;           /* V_NODE: a tensor or a dims value */
    Value **items;         /* V_TUPLE */
    int n;
    FnExpr *fn;            /* V_CLOSURE: the lambda, where it was made, */
    Env *env;              /* its environment and its types' context */
    Expr *expr;            /* V_THUNK: a let-bound value that inference
                            * generalised (`one = 1f`), made again at each
                            * use at that use's types (with env, ctx) */
    Subst *ctx;
    int scope;             /* V_CLOSURE: the items its body sees: those before this one */
    const char *name;      /* V_BUILTIN: the operator; V_STRING: the text */
    int is_extern;         /* V_BUILTIN of a program's extern */
    Item *ext;             /* and that extern */
};

typedef struct Low {
    Compilation *cp;
    LowerProgram *lp;
    Ctx *c;
    Arena *a;
    LFunc *f;
    LBlock *block;         /* where new nodes go */
    int scope;             /* the items the code being lowered sees: those
                            * whose index is below (an item's body sees the
                            * items above it, not itself: a built-in of its
                            * name is the built-in) */
    int elem_default;
    const char *why;
    jmp_buf fail;
    int depth;
    long steps;            /* expressions evaluated and names bound for
                            * this function (LOWER_MAX_STEPS) */
    Symtab externs;        /* f->externs by name (made at the first) */
} Low;

static AX_NORETURN void give_up(Low *lo, const char *why)
{
    lo->why = why;
    longjmp(lo->fail, 1);
}

/* ---- values and nodes ------------------------------------------------- */

static Value *value(Low *lo, VKind kind)
{
    Value *v = ar_alloc(lo->a, sizeof *v);
    v->kind = kind;
    return v;
}

static Value *of_node(Low *lo, LNode *n)
{
    Value *v = value(lo, V_NODE);
    v->node = n;
    return v;
}

/* Past the compilation's node limit: which of the functions made it too
 * big says why. */
static void check_size(Low *lo)
{
    if (lo->lp->nodes + lo->f->nodes.n < LOWER_MAX_NODES)
        return;
    lo->lp->over = 1;
    if (lo->lp->nodes == 0)
        give_up(lo, ar_printf(lo->a, "inlined, it computes more than %d tensors", LOWER_MAX_NODES));
    give_up(lo, ar_printf(lo->a, "inlined, it and the functions before it compute more than %d tensors",
                          LOWER_MAX_NODES));
}

/* One step of the lowering (an expression evaluated, a name bound, a part
 * of a tuple taken apart or made again): past the compilation's limit of
 * steps, the same. */
static void step(Low *lo)
{
    if (lo->lp->steps + ++lo->steps <= LOWER_MAX_STEPS)
        return;
    if (lo->lp->steps == 0)
        give_up(lo, ar_printf(lo->a, "inlined, it takes more than %d steps to evaluate", LOWER_MAX_STEPS));
    give_up(lo, ar_printf(lo->a, "inlined, it and the functions before it take more than %d steps to evaluate",
                          LOWER_MAX_STEPS));
}

/* A new node with the given type (a tensor in the exported function's
 * terms), in the current block unless it belongs to a loop. */
static LNode *node(Low *lo, LNodeKind kind, Type *t, Loc loc)
{
    check_size(lo);
    t = type_prune(t);
    if (t->kind != TY_TENSOR)
        give_up(lo, "a value whose type is not a tensor's stays where run() needs one");
    LNode *n = ar_alloc(lo->a, sizeof *n);
    n->id = lo->f->nodes.n;
    n->kind = kind;
    n->shape = shape_norm(lo->c, t->u.ten.shape);
    Elem *e = elem_find(t->u.ten.elem);
    n->elem = e->prim == EL_VAR ? lo->elem_default : e->prim;
    if (n->elem == EL_VAR)
        give_up(lo, "an element type is a variable; choose one with --elem-type");
    n->loc = loc;
    pv_push(lo->a, &lo->f->nodes, n);
    if (kind == LN_OP || kind == LN_LITERAL || kind == LN_EXTERN) {
        LItem *it = ar_alloc(lo->a, sizeof *it);
        it->node = n;
        pv_push(lo->a, &lo->block->items, it);
    }
    return n;
}

static LNode *node_of(Low *lo, Value *v, const char *what)
{
    if (v->kind != V_NODE)
        give_up(lo, ar_printf(lo->a, "%s is not a tensor where run() needs one", what));
    return v->node;
}

/* The tensors of a value, left to right (tuples flattened). */
static void flatten(Low *lo, Value *v, PtrVec *out)
{
    step(lo);              /* (a value is a DAG: ((x, x), (x, x))...) */
    if (v->kind == V_TUPLE) {
        for (int i = 0; i < v->n; i++)
            flatten(lo, v->items[i], out);
    } else if (v->kind == V_NODE) {
        pv_push(lo->a, out, v->node);
    } else {
        give_up(lo, "a function is part of a value that run() computes");
    }
}

/* A value of the same nesting as tmpl, its tensors taken from nodes. */
static Value *rebuild(Low *lo, Value *tmpl, LNode **nodes, int *k)
{
    step(lo);
    if (tmpl->kind == V_TUPLE) {
        Value *v = value(lo, V_TUPLE);
        v->n = tmpl->n;
        v->items = ar_alloc(lo->a, sizeof(Value *) * (size_t)(v->n ? v->n : 1));
        for (int i = 0; i < v->n; i++)
            v->items[i] = rebuild(lo, tmpl->items[i], nodes, k);
        return v;
    }
    return of_node(lo, nodes[(*k)++]);
}

/* ---- names --------------------------------------------------------------- */

static Value *lookup_local(Env *env, const char *name)
{
    return pmap_get(env, name);
}

static Env *bind(Low *lo, Env *env, const char *name, Value *v)
{
    step(lo);
    if (strcmp(name, "_") == 0)
        return env;
    return pmap_put(lo->a, env, name, v);
}

static Value *eval(Low *lo, Expr *e, Env *env, Subst *S);

/* A global name at a use (site carries what inference made of the item's
 * scheme there): a program's function as a closure, a program's value
 * evaluated, an extern or a built-in by name. */
/* The program's item that name is where the code being lowered is, or NULL. */
static Binding *visible(Low *lo, const char *name)
{
    Binding *b = st_get(&lo->lp->globals, name);
    intptr_t at = (intptr_t)st_get(&lo->lp->order, name);
    return b && at - 1 < lo->scope ? b : NULL;
}

static Value *global(Low *lo, const char *name, Expr *site, Subst *S)
{
    Binding *b = visible(lo, name);
    if (!b) {
        Value *v = value(lo, V_BUILTIN);
        v->name = name;
        return v;
    }
    Item *it = b->item;
    if (it->kind == IT_EXTERN) {
        Value *v = value(lo, V_BUILTIN);
        v->name = name;
        v->is_extern = 1;
        v->ext = it;
        return v;
    }
    Subst *ctx = subst_compose(lo->c, NULL, site ? site->inst : NULL, S);
    int at = (int)(intptr_t)st_get(&lo->lp->order, name) - 1;
    if (it->value->kind == EX_FN) {
        Value *v = value(lo, V_CLOSURE);
        v->fn = it->value->u.lam;
        v->ctx = ctx;
        v->scope = at;
        return v;
    }
    if (++lo->depth > LOWER_MAX_DEPTH)
        give_up(lo, ar_printf(lo->a, "its calls are nested more than %d deep", LOWER_MAX_DEPTH));
    int saved = lo->scope;
    lo->scope = at;
    Value *v = eval(lo, it->value, NULL, ctx);
    lo->scope = saved;
    lo->depth--;
    return v;
}

/* ---- patterns and statements ------------------------------------------- */

static Env *bind_pattern(Low *lo, Env *env, Pattern *p, Value *v)
{
    switch (p->kind) {
    case PAT_WILD:
        return env;
    case PAT_NAME:
        return bind(lo, env, p->name, v);
    case PAT_TUPLE:
        if (v->kind != V_TUPLE || v->n != p->items.n)
            give_up(lo, "a tuple pattern meets a value of another shape");
        for (int i = 0; i < p->items.n; i++)
            env = bind_pattern(lo, env, p->items.items[i], v->items[i]);
        return env;
    }
    return env;
}

/* A statement: its pattern bound to its value (a generalised value as a
 * thunk, as inference treated it: infer.c's is_value). */
static int is_value(Low *lo, const Expr *e)
{
    step(lo);              /* (once per inlining of the statement) */
    switch (e->kind) {
    case EX_FN: case EX_INT: case EX_FLOAT: case EX_OP: case EX_NAME: case EX_DIMS:
        return 1;
    case EX_NEG:
        return e->u.op.l->kind == EX_INT || e->u.op.l->kind == EX_FLOAT;
    case EX_TUPLE:
        for (int i = 0; i < e->u.call.args.n; i++)
            if (!is_value(lo, e->u.call.args.items[i]))
                return 0;
        return 1;
    default:
        return 0;
    }
}

static Env *statement(Low *lo, Env *env, Stmt *st, Subst *S)
{
    if (st->pat->kind == PAT_NAME && is_value(lo, st->value) && st->value->kind != EX_FN) {
        Value *t = value(lo, V_THUNK);
        t->expr = st->value;
        t->env = env;
        t->ctx = S;
        return bind(lo, env, st->pat->name, t);
    }
    return bind_pattern(lo, env, st->pat, eval(lo, st->value, env, S));
}

/* ---- built-in operators --------------------------------------------------- */

static Value *builtin(Low *lo, const char *name, Value **args, int n, Type *rt, Loc loc);
static Value *apply(Low *lo, Value *f, Value **args, int n, Expr *site, const PtrVec *inst, Subst *S, Type *rt,
                    Loc loc);

/* A loop's body: f applied to params, in a block of its own. */
static Value *loop_body(Low *lo, LLoop *L, Value *f, Value **params, int n, Type *rt)
{
    LBlock *outer = lo->block;
    lo->block = &L->body;
    Value *r = apply(lo, f, params, n, NULL, NULL, NULL, rt, L->loc);
    lo->block = outer;
    return r;
}

static LNode *param_node(Low *lo, LLoop *L, int index, Shape *shape, int elem, Loc loc)
{
    LNode *p = ar_alloc(lo->a, sizeof *p);
    check_size(lo);
    p->id = lo->f->nodes.n;
    p->kind = LN_PARAM;
    p->loop = L;
    p->index = index;
    p->shape = shape;
    p->elem = elem;
    p->loc = loc;
    pv_push(lo->a, &lo->f->nodes, p);
    pv_push(lo->a, &L->params, p);
    return p;
}

/* A slice x[i] of a sliced input: its shape without the first axis. */
static LNode *slice_param(Low *lo, LLoop *L, LNode *x, Loc loc)
{
    Shape *s = shape_norm(lo->c, x->shape);
    if (!s->n || !s->s[0].dim)
        give_up(lo, "a tensor that a loop slices has no first axis run() can see");
    return param_node(lo, L, L->params.n, shape_slice(lo->c, s, 1, s->n, s->origin), x->elem, loc);
}

static LNode *loop_out(Low *lo, LLoop *L, Type *t)
{
    LNode *o = node(lo, LN_LOOP, t, L->loc);
    o->loop = L;
    o->index = L->outs.n;
    pv_push(lo->a, &L->outs, o);
    return o;
}

static LLoop *new_loop(Low *lo, const char *kind, Loc loc)
{
    LLoop *L = ar_alloc(lo->a, sizeof *L);
    L->kind = kind;
    L->loc = loc;
    return L;
}

static void add_loop(Low *lo, LLoop *L)
{
    LItem *it = ar_alloc(lo->a, sizeof *it);
    it->loop = L;
    pv_push(lo->a, &lo->block->items, it);
}

/* The type of a loop body's result: rt without its first axis (map). */
static Type *element_type(Low *lo, Type *rt)
{
    rt = type_prune(rt);
    if (rt->kind != TY_TENSOR)
        give_up(lo, "a loop's result is not a tensor");
    Shape *s = shape_norm(lo->c, rt->u.ten.shape);
    if (!s->n || !s->s[0].dim)
        give_up(lo, "a loop's result has no first axis run() can see");
    return type_tensor(lo->c, rt->u.ten.elem, shape_slice(lo->c, s, 1, s->n, s->origin), rt->origin);
}

/* A slice of a sliced input x as f's parameter i: its shape is x's without
 * the first axis, or (where x's shape does not show that axis: s @ [n]
 * that the loop's rule split another way) the parameter's type. */
static LNode *slice_of(Low *lo, LLoop *L, LNode *x, Value *f, int i, Loc loc)
{
    Shape *s = shape_norm(lo->c, x->shape);
    if ((!s->n || !s->s[0].dim) && f->kind == V_CLOSURE && i < f->fn->params.n) {
        Type *t = type_prune(subst_type(lo->c, f->ctx, ((Param *)f->fn->params.items[i])->type));
        if (t->kind == TY_TENSOR)
            return param_node(lo, L, L->params.n, shape_norm(lo->c, t->u.ten.shape), x->elem, loc);
    }
    return slice_param(lo, L, x, loc);
}

/* map(f, x), map2(f, x, y) */
static Value *lower_map(Low *lo, const char *kind, Value **args, int n, Type *rt, Loc loc)
{
    LLoop *L = new_loop(lo, kind, loc);
    Value *params[2];
    for (int i = 1; i < n; i++) {
        L->xs[L->nxs++] = node_of(lo, args[i], "a mapped value");
        params[i - 1] = of_node(lo, slice_of(lo, L, L->xs[i - 1], args[0], i - 1, loc));
    }
    Value *r = loop_body(lo, L, args[0], params, n - 1, element_type(lo, rt));
    pv_push(lo->a, &L->results, node_of(lo, r, "map's result"));
    add_loop(lo, L);
    return of_node(lo, loop_out(lo, L, rt));
}

/* reduce(+, init, x), reduce(max, init, x), reduce(min, init, x): init
 * combined with one reduction over x's first axis (sum, amax, amin), the
 * fold's value (a sum in another order: within the tolerance of any sum;
 * an empty axis gives init, NaN propagates as in the fold), instead of a
 * loop of one-element steps.  NULL where it does not apply. */
static Value *reduce_as_reduction(Low *lo, Value **args, Type *rt, Loc loc)
{
    if (args[0]->kind != V_BUILTIN || args[0]->is_extern || !args[0]->name || args[2]->kind != V_NODE ||
        args[1]->kind != V_NODE)
        return NULL;
    const char *fn = args[0]->name;
    const char *red = !strcmp(fn, "+") ? "sum" : !strcmp(fn, "max") ? "amax" : !strcmp(fn, "min") ? "amin" : NULL;
    LNode *x = args[2]->node, *init = args[1]->node;
    Type *t = type_prune(rt);
    int known = 0, rank = shape_rank(shape_norm(lo->c, x->shape), &known);
    /* (a rank known only at run time: the outermost axis and the rest,
     * "a...->..."; reduce's rule gives x an outermost axis) */
    if (!red || (known && (rank < 1 || rank > 26)) || t->kind != TY_TENSOR || x->elem == EL_BOOL ||
        x->elem == EL_DIMS || x->elem != init->elem)
        return NULL;
    Elem *e = elem_find(t->u.ten.elem);
    if ((e->prim == EL_VAR ? lo->elem_default : e->prim) != x->elem)
        return NULL;                    /* (an accumulator of another type: the loop) */
    char spec[64];
    int k = 0;
    if (!known) {
        strcpy(spec, "a...->...");
    } else {
        for (int i = 0; i < rank; i++)
            spec[k++] = (char)('a' + i);
        spec[k++] = '-';
        spec[k++] = '>';
        for (int i = 1; i < rank; i++)
            spec[k++] = (char)('a' + i);
        spec[k] = 0;
    }
    LNode *r = node(lo, LN_OP, rt, loc);
    r->op = red;
    r->spec = ar_strdup(lo->a, spec);
    r->nargs = 1;
    r->args = ar_alloc(lo->a, sizeof(LNode *));
    r->args[0] = x;
    LNode *c = node(lo, LN_OP, rt, loc);
    c->op = fn;
    c->nargs = 2;
    c->args = ar_alloc(lo->a, sizeof(LNode *) * 2);
    c->args[0] = init;
    c->args[1] = r;
    return of_node(lo, c);
}

/* reduce(f, init, x): the accumulator starts as init (broadcast) */
static Value *lower_reduce(Low *lo, Value **args, Type *rt, Loc loc)
{
    Value *direct = reduce_as_reduction(lo, args, rt, loc);
    if (direct)
        return direct;
    LLoop *L = new_loop(lo, "reduce", loc);
    pv_push(lo->a, &L->init, node_of(lo, args[1], "reduce's initial value"));
    L->xs[L->nxs++] = node_of(lo, args[2], "a reduced value");
    L->nstate = 1;
    Type *t = type_prune(rt);
    if (t->kind != TY_TENSOR)
        give_up(lo, "reduce's result is not a tensor");
    Elem *e = elem_find(t->u.ten.elem);
    int elem = e->prim == EL_VAR ? lo->elem_default : e->prim;
    Value *params[2];
    params[0] = of_node(lo, param_node(lo, L, 0, shape_norm(lo->c, t->u.ten.shape), elem, loc));
    /* (an element has the accumulator's shape: reduce's rule) */
    Shape *xs = shape_norm(lo->c, L->xs[0]->shape);
    params[1] = of_node(lo, (!xs->n || !xs->s[0].dim) && args[0]->kind != V_CLOSURE
                                ? param_node(lo, L, 1, shape_norm(lo->c, t->u.ten.shape), L->xs[0]->elem, loc)
                                : slice_of(lo, L, L->xs[0], args[0], 1, loc));
    Value *r = loop_body(lo, L, args[0], params, 2, rt);
    pv_push(lo->a, &L->results, node_of(lo, r, "reduce's function result"));
    add_loop(lo, L);
    return of_node(lo, loop_out(lo, L, rt));
}

/* loop(h, f, x): the state h (any tuple of tensors) carried, the per-step
 * outputs stacked */
static Value *lower_loop(Low *lo, Value **args, Type *rt, Loc loc)
{
    LLoop *L = new_loop(lo, "loop", loc);
    Value *h0 = args[0], *f = args[1];
    flatten(lo, h0, &L->init);
    L->nstate = L->init.n;
    L->xs[L->nxs++] = node_of(lo, args[2], "a looped-over value");
    rt = type_prune(rt);
    if (rt->kind != TY_TUPLE || rt->u.fun.n != 2)
        give_up(lo, "loop's result is not a pair");
    Value **params = ar_alloc(lo->a, sizeof(Value *) * 2);
    LNode **state = ar_alloc(lo->a, sizeof(LNode *) * (size_t)(L->nstate ? L->nstate : 1));
    for (int i = 0; i < L->nstate; i++) {
        LNode *init = L->init.items[i];
        state[i] = param_node(lo, L, i, init->shape, init->elem, loc);
    }
    int k = 0;
    params[0] = rebuild(lo, h0, state, &k);
    params[1] = of_node(lo, slice_of(lo, L, L->xs[0], f, 1, loc));
    Type *step_t = type_tuple(lo->c, 2, rt->origin);
    step_t->u.fun.items[0] = rt->u.fun.items[0];
    step_t->u.fun.items[1] = element_type(lo, rt->u.fun.items[1]);
    Value *r = loop_body(lo, L, f, params, 2, step_t);
    if (r->kind != V_TUPLE || r->n != 2)
        give_up(lo, "loop's function does not return a pair");
    flatten(lo, r->items[0], &L->results);
    if (L->results.n != L->nstate)
        give_up(lo, "loop's new state is not shaped as its initial state");
    pv_push(lo->a, &L->results, node_of(lo, r->items[1], "loop's per-step output"));
    add_loop(lo, L);
    /* the outputs: the final state, then the stacked per-step outputs */
    PtrVec st = { 0 };
    Type *ht = type_prune(rt->u.fun.items[0]);
    PtrVec htypes = { 0 };
    PtrVec stack = { 0 };
    pv_push(lo->a, &stack, ht);
    while (stack.n) {          /* the state's tensor types, left to right */
        step(lo);
        Type *t = type_prune(stack.items[--stack.n]);
        if (t->kind == TY_TUPLE)
            for (int i = (int)t->u.fun.n - 1; i >= 0; i--)
                pv_push(lo->a, &stack, t->u.fun.items[i]);
        else
            pv_push(lo->a, &htypes, t);
    }
    if (htypes.n != L->nstate)
        give_up(lo, "loop's state type is not shaped as its value");
    for (int i = 0; i < L->nstate; i++)
        pv_push(lo->a, &st, loop_out(lo, L, htypes.items[i]));
    LNode *ys = loop_out(lo, L, rt->u.fun.items[1]);
    Value *v = value(lo, V_TUPLE);
    v->n = 2;
    v->items = ar_alloc(lo->a, sizeof(Value *) * 2);
    k = 0;
    v->items[0] = rebuild(lo, h0, (LNode **)st.items, &k);
    v->items[1] = of_node(lo, ys);
    return v;
}

/* A call of a program's extern: its outputs are those of its result type. */
static Value *lower_extern(Low *lo, Item *ext, Value **args, int n, Type *rt, Loc loc)
{
    const char *name = ext->name;
    LCall *call = ar_alloc(lo->a, sizeof *call);
    call->name = name;
    call->loc = loc;
    for (int i = 0; i < n; i++)
        flatten(lo, args[i], &call->args);
    PtrVec types = { 0 }, stack = { 0 };
    pv_push(lo->a, &stack, type_prune(rt));
    while (stack.n) {
        step(lo);
        Type *t = type_prune(stack.items[--stack.n]);
        if (t->kind == TY_TUPLE)
            for (int i = (int)t->u.fun.n - 1; i >= 0; i--)
                pv_push(lo->a, &stack, t->u.fun.items[i]);
        else
            pv_push(lo->a, &types, t);
    }
    LNode **outs = ar_alloc(lo->a, sizeof(LNode *) * (size_t)(types.n ? types.n : 1));
    for (int i = 0; i < types.n; i++) {
        outs[i] = node(lo, LN_EXTERN, types.items[i], loc);
        outs[i]->op = name;
        outs[i]->call = call;
        outs[i]->index = i;
        pv_push(lo->a, &call->outs, outs[i]);
    }
    /* (a table, not a search of the list: N externs called once each were
     * N * N / 2 comparisons) */
    if (!lo->externs.e)
        st_init(&lo->externs, lo->a);
    if (!st_get(&lo->externs, name)) {
        st_put(&lo->externs, name, ext);
        pv_push(lo->a, &lo->f->externs, ext);
    }
    if (type_prune(rt)->kind != TY_TUPLE)
        return of_node(lo, outs[0]);
    /* rebuild the tuple's nesting from the type */
    Value *v = value(lo, V_TUPLE);
    Type *t = type_prune(rt);
    v->n = (int)t->u.fun.n;
    v->items = ar_alloc(lo->a, sizeof(Value *) * (size_t)(v->n ? v->n : 1));
    int k = 0;
    for (int i = 0; i < v->n; i++) {
        Type *it = type_prune(t->u.fun.items[i]);
        if (it->kind == TY_TUPLE)
            give_up(lo, "an extern returns nested tuples");
        v->items[i] = of_node(lo, outs[k++]);
    }
    return v;
}

static Value *builtin(Low *lo, const char *name, Value **args, int n, Type *rt, Loc loc)
{
    if (strcmp(name, "map") == 0 || strcmp(name, "map2") == 0)
        return lower_map(lo, name, args, n, rt, loc);
    if (strcmp(name, "reduce") == 0)
        return lower_reduce(lo, args, rt, loc);
    if (strcmp(name, "loop") == 0)
        return lower_loop(lo, args, rt, loc);
    rt = type_prune(rt);
    if (strcmp(name, "topk") == 0) {
        /* two outputs of one kernel: the values node, and the indices
         * node reading it */
        if (rt->kind != TY_TUPLE || rt->u.fun.n != 2)
            give_up(lo, "topk's result is not a pair");
        LNode *vals = node(lo, LN_OP, rt->u.fun.items[0], loc);
        vals->op = "topk";
        vals->nargs = 2;
        vals->args = ar_alloc(lo->a, sizeof(LNode *) * 2);
        vals->args[0] = node_of(lo, args[0], "topk's argument");
        vals->args[1] = node_of(lo, args[1], "topk's k");
        LNode *idx = node(lo, LN_OP, rt->u.fun.items[1], loc);
        idx->op = "topk.indices";
        idx->nargs = 1;
        idx->args = ar_alloc(lo->a, sizeof(LNode *));
        idx->args[0] = vals;
        Value *v = value(lo, V_TUPLE);
        v->n = 2;
        v->items = ar_alloc(lo->a, sizeof(Value *) * 2);
        v->items[0] = of_node(lo, vals);
        v->items[1] = of_node(lo, idx);
        return v;
    }
    LNode *r = node(lo, LN_OP, rt, loc);
    r->op = name;
    int first = 0;
    if (n && args[0]->kind == V_STRING) {
        r->spec = args[0]->name;
        first = 1;
    }
    r->nargs = n - first;
    r->args = ar_alloc(lo->a, sizeof(LNode *) * (size_t)(n ? n : 1));
    for (int i = first; i < n; i++)
        r->args[i - first] = node_of(lo, args[i], ar_printf(lo->a, "an argument of '%s'", ast_shown_name(name)));
    return of_node(lo, r);
}

/* ---- evaluation -------------------------------------------------------- */

/* f applied to args.  site: the call (its type is the result's, in S's
 * terms), or NULL inside a loop, where rt is the result's type; inst: what
 * a generic callee's variables are at this call (inference's record). */
static Value *apply(Low *lo, Value *f, Value **args, int n, Expr *site, const PtrVec *inst, Subst *S, Type *rt,
                    Loc loc)
{
    switch (f->kind) {
    case V_BUILTIN:
        /* (only a built-in needs the result's type: a closure's is its
         * body's, made there) */
        if (site)
            rt = subst_type(lo->c, S, site->type);
        if (f->is_extern)
            return lower_extern(lo, f->ext, args, n, rt, loc);
        return builtin(lo, f->name, args, n, rt, loc);
    case V_CLOSURE: {
        if (++lo->depth > LOWER_MAX_DEPTH)
            give_up(lo, ar_printf(lo->a, "its calls are nested more than %d deep", LOWER_MAX_DEPTH));
        FnExpr *fn = f->fn;
        if (fn->params.n != n)
            give_up(lo, "a function is called with another number of arguments");
        Subst *ctx = inst ? subst_compose(lo->c, f->ctx, inst, S) : f->ctx;
        Env *env = f->env;
        int saved_scope = lo->scope;
        lo->scope = f->scope;
        for (int i = 0; i < n; i++)
            env = bind(lo, env, ((Param *)fn->params.items[i])->name, args[i]);
        for (int i = 0; i < fn->stmts.n; i++)
            env = statement(lo, env, fn->stmts.items[i], ctx);
        Value *r = eval(lo, fn->body, env, ctx);
        lo->scope = saved_scope;
        lo->depth--;
        return r;
    }
    default:
        give_up(lo, "a value that is not a function is called");
    }
    return NULL;
}

static Value *eval(Low *lo, Expr *e, Env *env, Subst *S)
{
    step(lo);
    switch (e->kind) {
    case EX_NAME: {
        Value *v = lookup_local(env, e->name);
        if (v && v->kind == V_THUNK)
            return eval(lo, v->expr, v->env, e->inst ? subst_compose(lo->c, v->ctx, e->inst, S) : v->ctx);
        if (v && v->kind == V_CLOSURE && e->inst) {
            /* a local generic lambda used as a value: at these types */
            Value *w = value(lo, V_CLOSURE);
            *w = *v;
            w->ctx = subst_compose(lo->c, v->ctx, e->inst, S);
            return w;
        }
        return v ? v : global(lo, e->name, e, S);
    }
    case EX_INT:
    case EX_FLOAT: {
        LNode *n = node(lo, LN_LITERAL, subst_type(lo->c, S, e->type), e->loc);
        n->is_float = e->kind == EX_FLOAT;
        n->fval = e->kind == EX_FLOAT ? e->u.fval : (double)e->u.ival;
        n->ival = e->kind == EX_INT ? e->u.ival : 0;
        n->op = e->name;        /* "inf" or NULL */
        return of_node(lo, n);
    }
    case EX_DIMS: {
        Type *t = subst_type(lo->c, S, e->type);
        LNode *n = node(lo, LN_DIMS, t, e->loc);
        n->elem = EL_DIMS;
        return of_node(lo, n);
    }
    case EX_STRING: {
        Value *v = value(lo, V_STRING);
        v->name = e->name;
        return v;
    }
    case EX_OP: {
        Value *v = value(lo, V_BUILTIN);
        v->name = e->name;
        return v;
    }
    case EX_FN: {
        Value *v = value(lo, V_CLOSURE);
        v->fn = e->u.lam;
        v->env = env;
        v->ctx = S;
        v->scope = lo->scope;
        return v;
    }
    case EX_TUPLE: {
        Value *v = value(lo, V_TUPLE);
        v->n = e->u.call.args.n;
        v->items = ar_alloc(lo->a, sizeof(Value *) * (size_t)(v->n ? v->n : 1));
        for (int i = 0; i < v->n; i++)
            v->items[i] = eval(lo, e->u.call.args.items[i], env, S);
        return v;
    }
    case EX_BINARY:
    case EX_NEG: {
        Value *args[2];
        int n = e->kind == EX_NEG ? 1 : 2;
        args[0] = eval(lo, e->u.op.l, env, S);
        if (n == 2)
            args[1] = eval(lo, e->u.op.r, env, S);
        Value *f = global(lo, e->name, NULL, S);
        return apply(lo, f, args, n, e, NULL, S, NULL, e->loc);
    }
    case EX_CALL: {
        int n = e->u.call.args.n;
        Value **args = ar_alloc(lo->a, sizeof(Value *) * (size_t)(n ? n : 1));
        for (int i = 0; i < n; i++)
            args[i] = eval(lo, e->u.call.args.items[i], env, S);
        Value *f;
        const PtrVec *inst = NULL;
        if (e->u.call.fn) {
            f = eval(lo, e->u.call.fn, env, S);
        } else if ((f = lookup_local(env, e->name)) != NULL) {
            inst = e->inst;                 /* a local generic lambda's */
        } else {
            Binding *b = visible(lo, e->name);
            int fn_item = b && b->item->kind != IT_EXTERN && b->item->value->kind == EX_FN;
            /* a function item: the call's inst is its own; a value item
             * (an alias of a function): the value is made at this call */
            f = global(lo, e->name, fn_item ? NULL : e, S);
            inst = fn_item ? e->inst : NULL;
        }
        return apply(lo, f, args, n, e, inst, S, NULL, e->loc);
    }
    }
    give_up(lo, "an expression of a kind run() does not know");
    return NULL;
}

/* ---- the exported function ----------------------------------------------- */

/* The inputs of a parameter of type t, tuples flattened as the shape
 * functions flatten them (plan/fnplan.c). */
static Value *input(Low *lo, Type *t, Loc loc)
{
    step(lo);
    t = type_prune(t);
    if (t->kind == TY_TUPLE) {
        Value *v = value(lo, V_TUPLE);
        v->n = (int)t->u.fun.n;
        v->items = ar_alloc(lo->a, sizeof(Value *) * (size_t)(v->n ? v->n : 1));
        for (int i = 0; i < v->n; i++)
            v->items[i] = input(lo, t->u.fun.items[i], loc);
        return v;
    }
    if (t->kind != TY_TENSOR)
        give_up(lo, "a parameter is not a tensor");
    int dims = elem_find(t->u.ten.elem)->prim == EL_DIMS;
    LNode *n = node(lo, dims ? LN_DIMS : LN_INPUT, t, loc);
    if (dims)
        n->elem = EL_DIMS;
    n->index = lo->f->inputs.n;
    pv_push(lo->a, &lo->f->inputs, n);
    return of_node(lo, n);
}

/* (apart from lower_function: no local of its is live across the setjmp) */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void lower_body(Low *lo, Binding *b)
{
    LFunc *f = lo->f;
    Item *it = b->item;
    Type *ft = type_prune(b->scheme->type);
    /* the function: a lambda, or what the item's value is (an alias of
     * another function, a built-in) */
    Value *fv;
    if (it->value->kind == EX_FN) {
        fv = value(lo, V_CLOSURE);
        fv->fn = it->value->u.lam;
        fv->scope = lo->scope;
    } else {
        fv = eval(lo, it->value, NULL, NULL);
    }
    int n = (int)ft->u.fun.n;
    Value **args = ar_alloc(lo->a, sizeof(Value *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        Param *p = it->value->kind == EX_FN && i < it->value->u.lam->params.n ? it->value->u.lam->params.items[i] : NULL;
        args[i] = input(lo, ft->u.fun.items[i], p ? p->loc : it->name_loc);
    }
    Value *r = apply(lo, fv, args, n, NULL, NULL, NULL, ft->u.fun.ret, it->name_loc);
    flatten(lo, r, &f->outputs);
}

LowerProgram *lower_program(Compilation *cp, int elem_default)
{
    LowerProgram *lp = ar_alloc(&cp->arena, sizeof *lp);
    lp->cp = cp;
    lp->elem_default = elem_default;
    st_init(&lp->globals, &cp->arena);
    st_init(&lp->order, &cp->arena);
    for (int i = 0; i < cp->checked.bindings.n; i++) {
        Binding *g = cp->checked.bindings.items[i];
        if (g->failed)
            continue;
        st_put(&lp->globals, g->item->name, g);
        st_put(&lp->order, g->item->name, (void *)(intptr_t)(i + 1));
    }
    return lp;
}

LFunc *lower_function(LowerProgram *lp, Binding *b, const char **why)
{
    Compilation *cp = lp->cp;
    Low lo;
    memset(&lo, 0, sizeof lo);
    lo.cp = cp;
    lo.lp = lp;
    lo.c = &cp->ctx;
    lo.a = &cp->arena;
    lo.elem_default = lp->elem_default;
    lo.scope = (int)(intptr_t)st_get(&lp->order, b->item->name) - 1;
    LFunc *f = ar_alloc(lo.a, sizeof *f);
    f->name = b->item->name;
    f->binding = b;
    lo.f = f;
    lo.block = &f->body;
    if (!b->item->value || type_prune(b->scheme->type)->kind != TY_FUNC) {
        *why = "it is not a function";
        return NULL;
    }
    if (setjmp(lo.fail)) {
        lp->nodes += lo.f->nodes.n;
        lp->steps += lo.steps;
        *why = lo.why;
        return NULL;
    }
    lower_body(&lo, b);
    lp->nodes += lo.f->nodes.n;
    lp->steps += lo.steps;
    return lo.f;
}

int lower_over_limit(const LowerProgram *lp)
{
    return lp && lp->over;
}
