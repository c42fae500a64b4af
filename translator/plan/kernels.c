/* kernels.c - which kernels run() calls (kernels.h): each node's step as
 * emit_ops.c writes it, visited in the same order, choosing the reference
 * kernel file it needs and whether its fast f32 kernel runs. */
#include "kernels.h"

#include <string.h>

#include "dim.h"
#include "types.h"

const char *const kernels_file_names[KF_COUNT] = {
    "elementwise", "matmul", "einsum", "reduce", "conv", "pool", "norm", "index",
};

const ScratchNeed kernels_no_need = { INT64_MAX, 0 };

const int64_t kernels_conv_default[4] = { 1, 0, 1, 1 };

/* ---- the operators' kinds ------------------------------------------------ */

int kernels_unop(const char *op)
{
    static const char *const names[] = { "__neg", "exp", "log", "sqrt", "tanh", "sigmoid", "relu", "abs", "erf",
                                         "sin", "cos", "rsqrt", "gelu", "silu", "floor", "ceil", "sign" };
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
        if (!strcmp(op, names[i]))
            return i;
    return -1;
}

const char *const kernels_unop_names[] = { "NEG", "EXP", "LOG", "SQRT", "TANH", "SIGMOID", "RELU", "ABS", "ERF",
                                           "SIN", "COS", "RSQRT", "GELU", "SILU", "FLOOR", "CEIL", "SIGN" };

const char *kernels_binop(const char *op)
{
    if (!strcmp(op, "+")) return "ADD";
    if (!strcmp(op, "-")) return "SUB";
    if (!strcmp(op, "*")) return "MUL";
    if (!strcmp(op, "/")) return "DIV";
    if (!strcmp(op, "maximum") || !strcmp(op, "max")) return "MAXIMUM";
    if (!strcmp(op, "minimum") || !strcmp(op, "min")) return "MINIMUM";
    if (!strcmp(op, "pow")) return "POW";
    return NULL;
}

const char *kernels_cmpop(const char *op)
{
    static const char *const names[][2] = { { "lt", "LT" }, { "le", "LE" }, { "gt", "GT" },
                                            { "ge", "GE" }, { "eq", "EQ" }, { "ne", "NE" } };
    for (int i = 0; i < 6; i++)
        if (!strcmp(op, names[i][0]))
            return names[i][1];
    return NULL;
}

int kernels_is_conversion(const char *op)
{
    int e = elem_lookup(op);
    return e != EL_VAR && e != EL_DIMS;
}

int kernels_einsum_labels(LNode *n, unsigned char in[256], LNode *of_l[256], int pos_l[256])
{
    const char *sp = n->spec ? n->spec : "", *arrow = strstr(sp, "->"), *comma = strchr(sp, ',');
    if (!arrow || !comma || comma > arrow || strchr(sp, '.') || strchr(comma + 1, ','))
        return 0;
    const char *sides[3] = { sp, comma + 1, arrow + 2 }, *ends[3] = { comma, arrow, sp + strlen(sp) };
    LNode *of[3] = { n->args[0], n->args[1], n };
    for (int t = 0; t < 3; t++) {
        int pos = 0, known = 0, rank = shape_rank(of[t]->shape, &known);
        for (const char *c = sides[t]; c < ends[t]; c++) {
            unsigned char l = (unsigned char)*c;
            if (l == ' ')
                continue;
            if (!known || pos >= rank)
                return 0;                   /* (a spec that does not fit) */
            in[l] |= (unsigned char)(1 << t);
            if (!of_l[l]) {
                of_l[l] = of[t];
                pos_l[l] = pos;
            }
            pos++;
        }
    }
    return 1;
}

int kernels_einsum_group(unsigned char in)
{
    if (!(in & 4))
        return 4;
    return ((in == (1 | 4) || in == 4) ? 1 : 0) | ((in == (2 | 4) || in == 4) ? 2 : 0);
}

LNode *kernels_conv_param(LNode *n, int one_d, int grouped, int q, int i, int *j)
{
    if (n->nargs < 4 || (q >= 2 && !grouped) || (q < 3 && one_d && i == 0))
        return NULL;
    *j = q == 3 || one_d ? 0 : i;
    return n->args[2 + q];
}

/* ---- a bounded function's steps that need scratch: their need at the
 * largest sizes (scratch.h), or kernels_no_need ---- */

typedef struct Sel {
    LFunc *f;
    RunLayout *L;
    int scratch_ok, bounded;
    const ScratchShape *dmax;
    KernelChoice *kc;
    RunKernels *k;
} Sel;

static const ScratchShape *dmax_of(Sel *s, LNode *d)
{
    return s->dmax && s->dmax[d->id].rank >= 0 ? &s->dmax[d->id] : NULL;
}

static int64_t sat_mul(int64_t a, int64_t b)
{
    return a < 0 || b < 0 ? INT64_MAX : b != 0 && a > INT64_MAX / b ? INT64_MAX : a * b;
}

static int64_t count_of(const ScratchShape *s)
{
    int64_t n = 1;
    for (int i = 0; i < s->rank; i++)
        n = sat_mul(n, s->dims[i]);
    return n;
}

/* The largest sizes of node n's first two operands and of n itself, in a
 * bounded function: 0 where one is not known. */
static int operand_maxima(Sel *s, LNode *n, const ScratchShape **a, const ScratchShape **b, const ScratchShape **o)
{
    return s->bounded && (*a = dmax_of(s, n->args[0])) && (*b = dmax_of(s, n->args[1])) && (*o = dmax_of(s, n));
}

static ScratchNeed need_matmul(Sel *s, LNode *n)
{
    const ScratchShape *a, *b, *o;
    return operand_maxima(s, n, &a, &b, &o) ? scratch_matmul(a, b, o) : kernels_no_need;
}

static ScratchNeed need_einsum(Sel *s, LNode *n)
{
    const ScratchShape *a, *b, *o;
    if (!operand_maxima(s, n, &a, &b, &o))
        return kernels_no_need;
    unsigned char in[256] = { 0 };
    LNode *of[256] = { 0 };
    int pos[256];
    if (!kernels_einsum_labels(n, in, of, pos)) {
        int64_t no = count_of(o);
        return scratch_einsum_mnk(no, no, sat_mul(count_of(a), count_of(b)));
    }
    int64_t mck[3] = { 1, 1, 1 };
    for (int l = 0; l < 256; l++)
        for (int g = 0; g < 3 && in[l]; g++)
            if (kernels_einsum_group(in[l]) & (1 << g)) {
                const ScratchShape *d = dmax_of(s, of[l]);
                if (!d || pos[l] >= d->rank)
                    return kernels_no_need;
                mck[g] = sat_mul(mck[g], d->dims[pos[l]]);
            }
    return scratch_einsum_mnk(mck[0], mck[1], mck[2]);
}

/* prm: s0, s1, p0, p1, d0, d1, groups, as the conv's code reads them. */
static ScratchNeed need_conv(Sel *s, LNode *n, int one_d, int grouped)
{
    const ScratchShape *x, *w, *o;
    if (!operand_maxima(s, n, &x, &w, &o))
        return kernels_no_need;
    int64_t prm[7];
    for (int k = 0; k < 7; k++) {
        int q = k / 2, j = 0;
        LNode *a = kernels_conv_param(n, one_d, grouped, q, k % 2, &j);
        const ScratchShape *v = a ? dmax_of(s, a) : NULL;
        if (a && (!v || j >= v->rank))
            return kernels_no_need;
        prm[k] = a ? v->dims[j] : kernels_conv_default[q];
    }
    return scratch_conv(x, w, o, one_d, prm);
}

/* ---- the choice ----------------------------------------------------------- */

static void need(Sel *s, int kf, int elem)
{
    s->k->need[kf][elem] = 1;
}

/* Whether node n runs the fast f32 kernel of family ff (and the header
 * carries it).  nd: NULL where it needs no scratch; else its need at
 * the largest sizes, for a bounded function (P_NAME_WORKSPACE_BYTES_MAX
 * reserves the most of them; where it is not known the step runs the
 * reference).  A function with a nonzero (its sizes change during run())
 * runs the references where they need scratch (docs/c-api.md). */
static void fast(Sel *s, LNode *n, int ff, const ScratchNeed *nd)
{
    if (n->elem != EL_F32)
        return;
    if (nd && !s->scratch_ok) {
        if (!s->bounded || nd->fixed == INT64_MAX)
            return;
        KernelChoice *kc = s->kc;
        kc->most.fixed = nd->fixed > kc->most.fixed ? nd->fixed : kc->most.fixed;
        kc->most.per_thread = nd->per_thread > kc->most.per_thread ? nd->per_thread : kc->most.per_thread;
        kc->bounded_fast = 1;
    }
    s->k->fast[ff] = 1;
    if (ff == FF_MATMUL)
        need(s, KF_EINSUM, EL_F32);         /* (matmul.c's fallback) */
    s->kc->fast[n->id] = 1;
}

static void copy_from(Sel *s, LNode *src)
{
    if (src->elem != EL_DIMS)
        need(s, KF_ELEMENTWISE, src->elem);
}

static void op_kernels(Sel *s, LNode *n)
{
    const char *op = n->op;
    NodeInfo *in = &s->L->info[n->id];
    if (!strcmp(op, "topk.indices"))
        return;                                 /* written by topk */
    if (in->store == NS_VIEW || in->fused)
        return;                                 /* nothing to compute here */
    if (layout_fuses(s->L, n)) {
        need(s, KF_ELEMENTWISE, EL_F32);        /* (a fused loop) */
        return;
    }
    if (in->copy || kernels_unop(op) >= 0 || kernels_binop(op) || !strcmp(op, "select") || !strcmp(op, "pad2d") ||
        !strcmp(op, "concat") || !strcmp(op, "concat_axis") || !strcmp(op, "arange") || !strcmp(op, "size")) {
        need(s, KF_ELEMENTWISE, n->elem);
    } else if (kernels_cmpop(op)) {
        need(s, KF_ELEMENTWISE, n->args[0]->elem);
    } else if (kernels_is_conversion(op)) {
        /* (axon__convert: the shared part) */
    } else if (!strcmp(op, "matmul") || !strcmp(op, "linear")) {
        need(s, KF_MATMUL, n->elem);
        ScratchNeed nd = need_matmul(s, n);
        fast(s, n, FF_MATMUL, &nd);
    } else if (!strcmp(op, "conv") || !strncmp(op, "conv1d", 6) || !strncmp(op, "conv2d", 6)) {
        need(s, KF_CONV, n->elem);
        ScratchNeed nd = need_conv(s, n, !strncmp(op, "conv1d", 6), strstr(op, "grouped") != NULL);
        fast(s, n, FF_CONV, &nd);
    } else if (!strncmp(op, "maxpool", 7) || !strncmp(op, "avgpool", 7) || !strcmp(op, "upsample2d")) {
        need(s, KF_POOL, n->elem);
        fast(s, n, FF_POOL, NULL);
    } else if (!strcmp(op, "softmax") || !strcmp(op, "log_softmax") || !strcmp(op, "layernorm")) {
        need(s, KF_NORM, n->elem);
        fast(s, n, FF_NORM, NULL);
    } else if (!strcmp(op, "gather") || !strcmp(op, "topk")) {
        need(s, KF_INDEX, n->elem);
    } else if (!strcmp(op, "nonzero")) {
        need(s, KF_INDEX, n->args[0]->elem);
    } else if (!strcmp(op, "einsum")) {
        need(s, KF_EINSUM, n->elem);
        if (n->nargs == 2) {
            ScratchNeed nd = need_einsum(s, n);
            fast(s, n, FF_MATMUL, &nd);
        }
    } else if (!strcmp(op, "argmax")) {
        need(s, KF_REDUCE, n->args[0]->elem);
    } else if (!strcmp(op, "sum") || !strcmp(op, "mean") || !strcmp(op, "amax") || !strcmp(op, "amin")) {
        need(s, KF_REDUCE, n->elem);
        fast(s, n, FF_REDUCE, NULL);
    }
}

static void block_kernels(Sel *s, LBlock *b);

static void loop_kernels(Sel *s, LLoop *L)
{
    for (int i = 0; i < L->nstate; i++)      /* the state starts as its initial value */
        need(s, KF_ELEMENTWISE, ((LNode *)L->outs.items[i])->elem);
    block_kernels(s, &L->body);
    for (int i = L->nstate; i < L->results.n; i++)
        copy_from(s, L->results.items[i]);
    for (int i = 0; i < L->nstate; i++) {    /* each new state, through its scratch buffer or not */
        copy_from(s, L->results.items[i]);
        if (L->scratch && L->scratch[i] >= 0)
            need(s, KF_ELEMENTWISE, ((LNode *)L->outs.items[i])->elem);
    }
}

static void block_kernels(Sel *s, LBlock *b)
{
    for (int i = 0; i < b->items.n; i++) {
        LItem *it = b->items.items[i];
        if (it->loop) {
            loop_kernels(s, it->loop);
            continue;
        }
        LNode *n = it->node;
        NodeInfo *in = &s->L->info[n->id];
        if (n->kind == LN_LITERAL && in->store != NS_VIEW && !in->inline_const)
            need(s, KF_ELEMENTWISE, n->elem);
        else if (n->kind == LN_OP)
            op_kernels(s, n);
    }
}

void kernels_select(Ctx *c, LFunc *f, RunLayout *L, int scratch_ok, int bounded, const ScratchShape *dmax,
                    KernelChoice *kc, RunKernels *k)
{
    memset(kc, 0, sizeof *kc);
    kc->fast = ar_alloc(c->arena, (size_t)(f->nodes.n ? f->nodes.n : 1));
    Sel s = { f, L, scratch_ok, bounded, dmax, kc, k };
    block_kernels(&s, &f->body);
    for (int i = 0; i < L->copies.n; i++)   /* outputs copied into out[] */
        copy_from(&s, L->copies.items[i]);
}
