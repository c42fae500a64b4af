/* buffers.c - where each node of a lowered function lives, and how long
 * each workspace buffer must (buffers.h). */
#include "buffers.h"

#include <string.h>

#include "dim.h"
#include "types.h"

enum { LOWER_MAX_PERM = 64 };   /* (a permutation's rank; the header's
                                 * AXON_MAX_RANK bounds it at run time) */

/* A single-operand einsum spec without "..." whose output is a
 * permutation of its input's labels (nothing summed, no label twice):
 * "bnhk->bhnk".  Fills perm (output axis i is input axis perm[i]). */
int lower_spec_permutation(const char *spec, int *perm, int *rank)
{
    const char *arrow = strstr(spec, "->");
    if (!arrow || strchr(spec, ',') || strstr(spec, "..."))
        return 0;
    char in[64], out[64];
    int ni = 0, no = 0;
    for (const char *p = spec; p < arrow; p++)
        if (*p != ' ') {
            if (ni >= 63 || !((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
                return 0;
            in[ni++] = *p;
        }
    for (const char *p = arrow + 2; *p; p++)
        if (*p != ' ') {
            if (no >= 63 || !((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
                return 0;
            out[no++] = *p;
        }
    if (ni != no || ni > LOWER_MAX_PERM)
        return 0;
    for (int i = 0; i < ni; i++)
        for (int j = i + 1; j < ni; j++)
            if (in[i] == in[j] || out[i] == out[j])
                return 0;
    for (int i = 0; i < no; i++) {
        perm[i] = -1;
        for (int j = 0; j < ni; j++)
            if (out[i] == in[j])
                perm[i] = j;
        if (perm[i] < 0)
            return 0;
    }
    *rank = no;
    return 1;
}

static int is_conversion(const char *op)
{
    return elem_lookup(op) != EL_VAR && elem_lookup(op) != EL_DIMS;
}

int lower_is_view(Ctx *c, const LNode *n, int arg_dense)
{
    (void)c;
    if (n->kind != LN_OP || !n->op)
        return 0;
    const char *op = n->op;
    if (!strcmp(op, "transpose") || !strcmp(op, "reverse") || !strcmp(op, "slice") || !strcmp(op, "expand"))
        return 1;
    if (!strcmp(op, "reshape") || !strcmp(op, "flatten"))
        return arg_dense;
    if (is_conversion(op))
        return n->nargs == 1 && n->args[0]->elem == n->elem;
    if (!strcmp(op, "einsum") && n->nargs == 1 && n->spec) {
        int perm[LOWER_MAX_PERM], rank;
        return lower_spec_permutation(n->spec, perm, &rank);
    }
    return 0;
}

/* ---- placing ---------------------------------------------------------- */

typedef struct Walk {
    Ctx *c;
    LFunc *f;
    RunLayout *L;
    int step;
    PtrVec loops;          /* LLoop*: the loops around the current step */
    int *loop_end;         /* by loop's aux index: its last step */
} Walk;

/* Whether slice node n keeps its base dense: along axis 0 (a constant). */
static int slice_keeps_dense(Ctx *c, const LNode *n)
{
    if (n->nargs < 2 || n->args[1]->kind != LN_DIMS)
        return 0;
    Shape *s = shape_norm(c, n->args[1]->shape);
    int64_t k;
    return s->n == 1 && s->s[0].dim && dim_is_const(dim_norm(c, s->s[0].dim), &k) && k == 0;
}

static void define(Walk *w, LNode *n)
{
    NodeInfo *in = &w->L->info[n->id];
    in->step = w->step;
    in->depth = w->loops.n;
    switch (n->kind) {
    case LN_DIMS:
        in->store = NS_DIMS;
        return;
    case LN_INPUT:
        in->store = NS_INPUT;
        in->index = n->index;
        in->dense = 1;
        return;
    case LN_PARAM: {
        in->store = NS_VIEW;
        LLoop *L = n->loop;
        if (n->index < L->nstate)
            in->dense = 1;          /* a view of the loop's state buffer */
        else
            in->dense = w->L->info[L->xs[n->index - L->nstate]->id].dense;
        return;
    }
    default:
        break;
    }
    int arg_dense = n->nargs ? w->L->info[n->args[0]->id].dense : 1;
    if (lower_is_view(w->c, n, arg_dense)) {
        in->store = NS_VIEW;
        const char *op = n->op;
        in->dense = (!strcmp(op, "reshape") || !strcmp(op, "flatten")) ? 1
                    : !strcmp(op, "slice") ? arg_dense && slice_keeps_dense(w->c, n)
                    : is_conversion(op) ? arg_dense : 0;
        return;
    }
    in->store = NS_BUFFER;
    in->dense = 1;
    in->copy = n->kind == LN_OP && (!strcmp(n->op, "reshape") || !strcmp(n->op, "flatten"));
    RBuffer *b = ar_alloc(w->c->arena, sizeof *b);
    b->node = n;
    b->first = b->last = w->step;
    in->index = w->L->buffers.n;
    pv_push(w->c->arena, &w->L->buffers, b);
}

/* The node whose storage n reads: itself, or (a view, a loop's parameter)
 * what it is a view of. */
static LNode *root(Walk *w, LNode *n)
{
    for (;;) {
        NodeInfo *in = &w->L->info[n->id];
        if (in->store != NS_VIEW)
            return n;
        if (n->kind == LN_PARAM) {
            LLoop *L = n->loop;
            n = n->index < L->nstate ? L->outs.items[n->index] : L->xs[n->index - L->nstate];
        } else {
            n = n->args[0];
        }
    }
}

/* n is read at the current step (inside the current loops). */
static void use(Walk *w, LNode *n)
{
    LNode *r = root(w, n);
    NodeInfo *in = &w->L->info[r->id];
    if (in->store != NS_BUFFER)
        return;
    RBuffer *b = w->L->buffers.items[in->index];
    int last = w->step;
    /* read again by the next iteration of each loop around the use that
     * is not around the definition */
    if (w->loops.n > in->depth) {
        LLoop *outer = w->loops.items[in->depth];
        int end = w->loop_end[*(int *)outer->aux];
        if (end > last)
            last = end;
    }
    if (last > b->last)
        b->last = last;
}

static void walk_block(Walk *w, LBlock *blk);

/* The operands a fused group reads (its leaves), each once. */
static void use_leaves(Walk *w, LNode *n)
{
    for (int k = 0; k < n->nargs; k++) {
        LNode *x = n->args[k];
        NodeInfo *xi = &w->L->info[x->id];
        if (xi->fused)
            use_leaves(w, x);
        else if (!xi->inline_const)
            use(w, x);
    }
}

static void walk_block(Walk *w, LBlock *blk)
{
    for (int i = 0; i < blk->items.n; i++) {
        LItem *it = blk->items.items[i];
        w->step++;
        if (it->node) {
            LNode *n = it->node;
            NodeInfo *ni = &w->L->info[n->id];
            if (ni->fused || ni->inline_const) {
                ni->step = w->step;
                ni->depth = w->loops.n;
                continue;                       /* computed by its consumer */
            }
            use_leaves(w, n);
            define(w, n);
            if (n->kind == LN_OP && !strcmp(n->op, "topk.indices")) {
                /* written with the values, at their step: live from there */
                NodeInfo *ni = &w->L->info[n->id];
                ni->step = w->L->info[n->args[0]->id].step;
                ((RBuffer *)w->L->buffers.items[ni->index])->first = ni->step;
            }
            if (n->kind == LN_EXTERN)
                for (int k = 0; k < n->call->args.n; k++)
                    use(w, n->call->args.items[k]);
            continue;
        }
        LLoop *L = it->loop;
        for (int k = 0; k < L->nxs; k++)
            use(w, L->xs[k]);
        for (int k = 0; k < L->init.n; k++)
            use(w, L->init.items[k]);
        for (int k = 0; k < L->outs.n; k++)
            define(w, L->outs.items[k]);
        pv_push(w->c->arena, &w->loops, L);
        if (w->loops.n > w->L->max_depth)
            w->L->max_depth = w->loops.n;
        for (int k = 0; k < L->params.n; k++)
            define(w, L->params.items[k]);
        walk_block(w, &L->body);
        w->step++;                      /* the body's end */
        for (int k = 0; k < L->results.n; k++)
            use(w, L->results.items[k]);
        /* a new state that is (a view of) the state: through a buffer of
         * its own, so that no state is overwritten before every new one
         * and every step output is read ((a, b) -> (b, a)) */
        L->scratch = ar_alloc(w->c->arena, sizeof(int) * (size_t)(L->nstate ? L->nstate : 1));
        for (int k = 0; k < L->nstate; k++) {
            L->scratch[k] = -1;
            LNode *r = root(w, L->results.items[k]);
            int of_state = 0;
            for (int j = 0; j < L->nstate; j++)
                of_state |= r == L->outs.items[j];
            if (!of_state)
                continue;
            RBuffer *b = ar_alloc(w->c->arena, sizeof *b);
            b->node = L->outs.items[k];
            b->first = b->last = w->step;
            b->scratch = 1;
            L->scratch[k] = w->L->buffers.n;
            pv_push(w->c->arena, &w->L->buffers, b);
        }
        /* the loop's state and outputs are read and written by every
         * iteration: live from the start to (at least) the end */
        for (int k = 0; k < L->outs.n; k++)
            use(w, L->outs.items[k]);
        w->loops.n--;
    }
}

static void loop_ends(Walk *w, LBlock *blk, int *step)
{
    for (int i = 0; i < blk->items.n; i++) {
        LItem *it = blk->items.items[i];
        (*step)++;
        if (it->loop) {
            loop_ends(w, &it->loop->body, step);
            (*step)++;
            w->loop_end[*(int *)it->loop->aux] = *step;
        }
    }
}

/* Gives each loop an index for loop_end. */
static void index_loops(Walk *w, LBlock *blk, int *n)
{
    for (int i = 0; i < blk->items.n; i++) {
        LItem *it = blk->items.items[i];
        if (it->loop) {
            int *idx = ar_alloc(w->c->arena, sizeof *idx);
            *idx = (*n)++;
            it->loop->aux = idx;
            index_loops(w, &it->loop->body, n);
        }
    }
}

/* Whether op computes element i of its result from element i of its
 * operands and nothing else (so the result may take an operand's place). */
static int elementwise(const char *op)
{
    static const char *const ops[] = {
        "+", "-", "*", "/", "__neg", "maximum", "minimum", "max", "min", "pow", "select", "exp", "log", "sqrt",
        "tanh", "sigmoid", "relu", "abs", "erf", "sin", "cos", "rsqrt", "gelu", "silu", "floor", "ceil", "sign",
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (!strcmp(op, ops[i]))
            return 1;
    return 0;
}

/* The operands a node reads through its fused ones. */
static void collect_leaves(const RunLayout *L, LNode *n, PtrVec *out, Arena *a)
{
    for (int k = 0; k < n->nargs; k++) {
        LNode *x = n->args[k];
        if (L->info[x->id].fused)
            collect_leaves(L, x, out, a);
        else if (!L->info[x->id].inline_const)
            pv_push(a, out, x);
    }
}

/* In place: an element-wise result takes the buffer of an operand of its
 * shape and type whose life ends where the result is made (a chain `x * g
 * + b`, relu of it, ... in one buffer).  The operand itself, not a view of
 * it: the two are then read and written at the same offsets. */
static void share_in_place(Walk *w)
{
    RunLayout *L = w->L;
    for (int i = 0; i < L->buffers.n; i++) {
        RBuffer *b = L->buffers.items[i];
        LNode *n = b->node;
        if (!n || n->kind != LN_OP || !elementwise(n->op) || L->info[n->id].copy)
            continue;
        PtrVec leaves = { 0 };
        collect_leaves(L, n, &leaves, w->c->arena);
        for (int k = 0; k < leaves.n; k++) {
            LNode *x = leaves.items[k];
            NodeInfo *xi = &L->info[x->id];
            if (xi->store != NS_BUFFER || x->elem != n->elem || !shape_equal(w->c, x->shape, n->shape))
                continue;
            RBuffer *xb = L->buffers.items[xi->index];
            if (xb->last != b->first || xi->depth != L->info[n->id].depth)
                continue;
            /* n lives in x's buffer from here */
            xb->last = b->last;
            b->node = NULL;
            b->first = b->last = xb->first;
            L->info[n->id].index = xi->index;
            break;
        }
    }
}

int lower_fusable(const LNode *n)
{
    static const char *const ops[] = {
        "+", "-", "*", "/", "__neg", "maximum", "minimum", "max", "min", "pow", "exp", "log", "sqrt",
        "tanh", "sigmoid", "relu", "abs", "erf", "sin", "cos", "rsqrt", "gelu", "silu", "floor", "ceil", "sign",
    };
    if (n->kind != LN_OP || n->elem != EL_F32 || !n->op)
        return 0;
    for (int k = 0; k < n->nargs; k++)
        if (n->args[k]->elem != EL_F32)
            return 0;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (!strcmp(n->op, ops[i]))
            return 1;
    return 0;
}

int layout_fuses(const RunLayout *L, const LNode *n)
{
    if (lower_fusable(n))
        return 1;
    for (int k = 0; k < n->nargs; k++) {
        const NodeInfo *xi = &L->info[n->args[k]->id];
        if (xi->fused || xi->inline_const)
            return 1;
    }
    return 0;
}

/* Uses of each node: how many, and whether each is an operand of an f32
 * element-wise operator (the one consumer, for fusion). */
typedef struct Uses {
    int n;
    int other;             /* a use that is not an operand of a fusable op */
    LNode *consumer;       /* the last fusable consumer */
    LLoop *in_loop;        /* the loop body the node is in (NULL: the top) */
    LLoop *consumer_loop;
} Uses;

static void count_uses(LBlock *blk, LLoop *loop, Uses *u)
{
    for (int i = 0; i < blk->items.n; i++) {
        LItem *it = blk->items.items[i];
        if (it->node) {
            LNode *n = it->node;
            u[n->id].in_loop = loop;
            int fusable = lower_fusable(n);
            for (int k = 0; k < n->nargs; k++) {
                Uses *x = &u[n->args[k]->id];
                x->n++;
                if (fusable) {
                    x->consumer = n;
                    x->consumer_loop = loop;
                } else {
                    x->other = 1;
                }
            }
            if (n->kind == LN_EXTERN)
                for (int k = 0; k < n->call->args.n; k++)
                    u[((LNode *)n->call->args.items[k])->id].other = 1;
            continue;
        }
        LLoop *L = it->loop;
        for (int k = 0; k < L->nxs; k++)
            u[L->xs[k]->id].other = 1;
        for (int k = 0; k < L->init.n; k++)
            u[((LNode *)L->init.items[k])->id].other = 1;
        for (int k = 0; k < L->results.n; k++)
            u[((LNode *)L->results.items[k])->id].other = 1;
        count_uses(&L->body, L, u);
    }
}

/* Fusion: an f32 element-wise result used once, by an f32 element-wise
 * operator of the same shape in the same block, is computed inside that
 * operator's loop; a literal that only such operators read is a constant
 * of theirs. */
static void fuse(Ctx *c, LFunc *f, RunLayout *L)
{
    Uses *u = ar_alloc(c->arena, sizeof(Uses) * (size_t)(f->nodes.n ? f->nodes.n : 1));
    count_uses(&f->body, NULL, u);
    for (int i = 0; i < f->outputs.n; i++)
        u[((LNode *)f->outputs.items[i])->id].other = 1;
    for (int i = 0; i < f->nodes.n; i++) {
        LNode *n = f->nodes.items[i];
        Uses *x = &u[i];
        if (x->other || !x->n || !x->consumer)
            continue;
        if (n->kind == LN_LITERAL && n->elem == EL_F32) {
            L->info[i].inline_const = 1;        /* (a constant: in any loop) */
            continue;
        }
        if (x->consumer_loop != x->in_loop)
            continue;
        if (x->n == 1 && lower_fusable(n) && shape_equal(c, n->shape, x->consumer->shape))
            L->info[i].fused = 1;
    }
}

RunLayout *layout_function(Ctx *c, LFunc *f)
{
    Arena *a = c->arena;
    RunLayout *L = ar_alloc(a, sizeof *L);
    L->info = ar_alloc(a, sizeof(NodeInfo) * (size_t)(f->nodes.n ? f->nodes.n : 1));
    Walk w;
    memset(&w, 0, sizeof w);
    w.c = c;
    w.f = f;
    w.L = L;
    int nloops = 0, steps = 0;
    fuse(c, f, L);
    index_loops(&w, &f->body, &nloops);
    w.loop_end = ar_alloc(a, sizeof(int) * (size_t)(nloops ? nloops : 1));
    loop_ends(&w, &f->body, &steps);
    /* the inputs and the dims values outside blocks */
    for (int i = 0; i < f->nodes.n; i++) {
        LNode *n = f->nodes.items[i];
        if (n->kind == LN_INPUT || n->kind == LN_DIMS)
            define(&w, n);
    }
    walk_block(&w, &f->body);
    w.step++;
    L->nsteps = w.step;
    /* the outputs: computed in out[] where a node is its own storage and
     * given once; else copied at the end */
    L->copy_to = ar_alloc(a, sizeof(int) * (size_t)(f->outputs.n ? f->outputs.n : 1));
    for (int i = 0; i < f->outputs.n; i++) {
        LNode *n = f->outputs.items[i];
        NodeInfo *in = &L->info[n->id];
        int given_before = 0;
        for (int k = 0; k < i; k++)
            given_before |= f->outputs.items[k] == n;
        if (in->store == NS_BUFFER && !in->copy && !given_before) {
            /* out[i] holds it: no workspace (its buffer stays, empty) */
            ((RBuffer *)L->buffers.items[in->index])->node = NULL;
            in->store = NS_OUTPUT;
            in->index = i;
            continue;
        }
        use(&w, n);
        L->copy_to[L->copies.n] = i;
        pv_push(a, &L->copies, n);
    }
    share_in_place(&w);
    return L;
}

int64_t layout_place(const RunLayout *L, const int64_t *size, int64_t *offset)
{
    int n = L->buffers.n;
    int64_t total = 0;
    /* largest first, ties by index (a selection: O(n^2), as the runtime's) */
    for (int k = 0; k < n; k++)
        offset[k] = -1;
    for (int step = 0; step < n; step++) {
        int best = -1;
        for (int i = 0; i < n; i++)
            if (offset[i] < 0 && (best < 0 || size[i] > size[best]))
                best = i;
        const RBuffer *b = L->buffers.items[best];
        if (size[best] <= 0) {
            offset[best] = 0;
            continue;
        }
        /* the lowest 64-aligned offset clear of every placed buffer whose
         * life meets this one's */
        int64_t at = 0;
        for (int again = 1; again;) {
            again = 0;
            for (int i = 0; i < n; i++) {
                const RBuffer *o = L->buffers.items[i];
                if (i == best || offset[i] < 0 || size[i] <= 0 || o->last < b->first || b->last < o->first)
                    continue;
                if (at < offset[i] + size[i] && offset[i] < at + size[best]) {
                    int64_t end = offset[i] + size[i];
                    if (end > INT64_MAX - 63)
                        return -1;
                    at = (end + 63) / 64 * 64;
                    again = 1;
                }
            }
        }
        offset[best] = at;
        if (at > INT64_MAX - size[best])
            return -1;
        if (at + size[best] > total)
            total = at + size[best];
    }
    return total;
}
