/* runplan.c - run() of one exported function, decided before it is
 * printed (runplan.h). */
#include "runplan.h"

#include <string.h>

#include "dim.h"
#include "types.h"

/* (a variable in out carries stamp st and its index there as its mark:
 * a search of out for each was N * N for N nonzeros) */
static void dyn_vars_of(Ctx *c, Dim *d, PtrVec *out, Arena *a, uint32_t st)
{
    d = dim_norm(c, d);
    for (uint32_t t = 0; t < d->nt; t++)
        for (uint32_t k = 0; k < d->t[t].nf; k++) {
            const Factor *f = &d->t[t].f[k];
            if (f->div) {
                dyn_vars_of(c, f->div->num, out, a, st);
                dyn_vars_of(c, f->div->den, out, a, st);
                continue;
            }
            if (f->var->dyn == 2 && f->var->stamp != st) {
                f->var->stamp = st;
                f->var->mark = (void *)(intptr_t)out->n;
                pv_push(a, out, f->var);
            }
        }
}

/* Why run() cannot be made of f (element types, sizes known only at run
 * time that no nonzero of f produces); fills rp->dyn with those it does. */
static const char *unsupported(Ctx *c, Arena *a, LFunc *f, RunPlan *rp)
{
    uint32_t st = ++c->stamp;
    for (int i = 0; i < f->nodes.n; i++) {
        LNode *n = f->nodes.items[i];
        if (n->elem == EL_U64)
            return "its element type u64 has values an int64 accumulator does not hold";
        Shape *s = shape_norm(c, n->shape);
        for (uint32_t j = 0; j < s->n; j++)
            if (s->s[j].dim)
                dyn_vars_of(c, s->s[j].dim, &rp->dyn, a, st);
    }
    /* each one's first nonzero, in one pass over the nodes */
    rp->dyn_node = ar_alloc(a, sizeof(LNode *) * (size_t)(rp->dyn.n ? rp->dyn.n : 1));
    for (int i = 0; i < f->nodes.n; i++) {
        LNode *n = f->nodes.items[i];
        if (n->kind != LN_OP || strcmp(n->op, "nonzero"))
            continue;
        Shape *s = shape_norm(c, n->shape);
        DVar *v = s->n == 1 && s->s[0].dim ? dim_is_var(dim_norm(c, s->s[0].dim)) : NULL;
        if (v && v->stamp == st && !rp->dyn_node[(intptr_t)v->mark])
            rp->dyn_node[(intptr_t)v->mark] = n;
    }
    for (int k = 0; k < rp->dyn.n; k++)
        if (!rp->dyn_node[k])
            return "a size is known only when an operation runs (an extern's `?`)";
    return NULL;
}

const char *runplan_start(Compilation *cp, LFunc *f, RunPlan *rp)
{
    Arena *a = &cp->arena;
    Ctx *c = &cp->ctx;
    memset(rp, 0, sizeof *rp);
    rp->f = f;
    rp->max_total = -1;
    const char *why = unsupported(c, a, f, rp);
    if (why)
        return why;
    /* every node's shape, for the shape function in run mode */
    for (int i = 0; i < f->nodes.n; i++) {
        LNode *n = f->nodes.items[i];
        PTensor *t = ar_alloc(a, sizeof *t);
        int ln = 0, col = 0;
        if (n->loc.src)
            src_line_col(n->loc.src, n->loc.start, &ln, &col);
        t->desc = ar_printf(a, "%s at %d:%d", n->op ? ast_shown_name(n->op) : "a value", ln, col);
        t->cname = ar_printf(a, "n%d", i);
        t->type = type_tensor(c, elem_prim(c, n->elem, NULL), n->shape, NULL);
        pv_push(a, &rp->nodes, t);
    }
    return NULL;
}

/* Numbers each loop with its depth (the index of its counter in it[]). */
static void loop_depths(LBlock *b, int depth, Arena *a)
{
    for (int i = 0; i < b->items.n; i++) {
        LItem *it = b->items.items[i];
        if (it->loop) {
            int *d = ar_alloc(a, sizeof *d);
            *d = depth;
            it->loop->aux = d;
            loop_depths(&it->loop->body, depth + 1, a);
        }
    }
}

void runplan_finish(Compilation *cp, RunPlan *rp, const FnPlan *nodes, RunKernels *k)
{
    Arena *a = &cp->arena;
    Ctx *c = &cp->ctx;
    LFunc *f = rp->f;
    RunLayout *L = layout_function(c, f);
    loop_depths(&f->body, 0, a);
    rp->L = L;
    k->any = 1;
    int nb = L->buffers.n, nd = rp->dyn.n;

    /* a bounded function (spec 8b): the workspace at its largest sizes */
    rp->max_off = ar_alloc(a, sizeof(int64_t) * (size_t)(nb ? nb : 1));
    const int64_t *temp_max = nodes->maxima[2];
    if (nodes->bounded && temp_max) {
        int64_t *sz = ar_alloc(a, sizeof(int64_t) * (size_t)(nb ? nb : 1));
        int fits = 1;
        for (int i = 0; i < nb && fits; i++) {
            RBuffer *rb = L->buffers.items[i];
            int64_t el = rb->node ? temp_max[rb->node->id] : 0;
            int es = rb->node && rb->node->elem != EL_DIMS ? elem_size(rb->node->elem) : 1;
            fits = el >= 0 && el <= INT64_MAX / es;
            sz[i] = fits ? el * es : 0;
        }
        if (fits)
            rp->max_total = layout_place(L, sz, rp->max_off);
    }

    /* the fast kernels' scratch: where no nonzero changes sizes during
     * run(); a bounded function's at its largest sizes, in its bound */
    rp->scratch_ok = rp->max_total < 0 && nd == 0;
    rp->bounded = rp->max_total >= 0 && nd == 0;
    kernels_select(c, f, L, rp->scratch_ok, rp->bounded, nodes->temp_dims_max, &rp->kernels, k);
    /* (each function's externs once; the header's table takes each once) */
    for (int i = 0; i < f->externs.n; i++)
        pv_push(a, &k->externs, f->externs.items[i]);
}
