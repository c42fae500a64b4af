/* emit_run.c - P_NAME_run() and what prepare() computes for it
 * (emit_run.h): the lowered function's shapes through a second shape
 * function (emit_fn.c in run mode), the workspace's buffers placed for the
 * actual sizes, one view function, and run() as straight-line kernel calls
 * and loops (docs/c-api.md, "Running the function"). */
#include "emit_run.h"

#include <stdarg.h>
#include <string.h>

#include "buffers.h"
#include "cnames.h"
#include "dim.h"
#include "plan.h"
#include "symtab.h"
#include "types.h"

extern const char axon_kernels_h[], axon_k_types[], axon_k_tensor[], axon_k_convert[], axon_k_workspace[],
    axon_k_elementwise[], axon_k_matmul[], axon_k_einsum[], axon_k_reduce[], axon_k_conv[], axon_k_pool[],
    axon_k_norm[], axon_k_index[], axon_run_spec[];
extern const char axon_tmpl_run_solve[], axon_run_fused[];
extern const char axon_fast_h[], axon_f_gemm[], axon_f_matmul[], axon_f_vec[], axon_f_conv[], axon_f_pool[],
    axon_f_norm[], axon_f_reduce[];

/* The kernel files that are templates, by element type. */
enum { KF_ELEMENTWISE, KF_MATMUL, KF_EINSUM, KF_REDUCE, KF_CONV, KF_POOL, KF_NORM, KF_INDEX, KF_COUNT };
static const char *const kf_names[KF_COUNT] = {
    "elementwise", "matmul", "einsum", "reduce", "conv", "pool", "norm", "index",
};

/* The fast f32 families beside the references (runtime/fast/, fast.h). */
enum { FF_MATMUL, FF_CONV, FF_POOL, FF_NORM, FF_REDUCE, FF_COUNT };
/* (RunKernels.fast, emit_run.h, has a flag for each) */
typedef char ff_flags_fit[FF_COUNT <= (int)sizeof(((RunKernels *)0)->fast) ? 1 : -1];

typedef struct R {
    Compilation *cp;
    Ctx *c;
    Arena *a;
    LFunc *f;
    RunLayout *L;
    RunKernels *k;
    const char *cname;
    const char *file;
    Buf *out;
    int indent;
    int tmp;               /* the next local's number */
    int depth;             /* loops around the code being written */
    int nouts;
    PtrVec dyn;            /* DVar*: the sizes nonzeros produce (dyn[k]) */
    LNode **dyn_node;      /* the nonzero that produces dyn[k] */
    int scratch_ok;        /* the fast kernels that need scratch may run */
    Buf scratch;           /* prepare(): each such step's scratch, "s = ...;" */
    /* A bounded function (WORKSPACE_BYTES_MAX): the steps that need scratch
     * run fast where their largest sizes are known and prepare() finds the
     * scratch fits the bound, the reference otherwise (scratch.h). */
    int bounded;
    const ScratchShape *dmax;  /* each node's largest sizes (rank -1: none) */
    ScratchNeed most;      /* the most any such step needs */
    int bounded_fast;      /* a step runs so */
} R;

static void put(R *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void put(R *r, const char *fmt, ...)
{
    for (int i = 0; i < r->indent + 1; i++)
        buf_puts(r->out, "    ");
    va_list ap;
    va_start(ap, fmt);
    char small[1024];
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof small) {
        buf_puts(r->out, small);
    } else {
        char *big = ar_alloc(r->a, (size_t)n + 1);
        vsnprintf(big, (size_t)n + 1, fmt, aq);
        buf_puts(r->out, big);
    }
    va_end(aq);
    buf_putc(r->out, '\n');
}

static const char *upper(Arena *a, const char *s)
{
    char *u = ar_strdup(a, s);
    for (char *p = u; *p; p++)
        if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - 'a' + 'A');
    return u;
}

static const char *tn(int elem)
{
    return elem_name(elem);
}

static void need(R *r, int kf, int elem)
{
    r->k->need[kf][elem] = 1;
}

/* The scratch a step needs at the function's largest sizes, or none
 * known (fixed INT64_MAX). */
static const ScratchNeed no_need = { INT64_MAX, 0 };

/* Whether node n runs the fast f32 kernel of family ff (and the header
 * carries it).  nd: NULL where it needs no scratch; else its need at
 * the largest sizes, for a bounded function (P_NAME_WORKSPACE_BYTES_MAX
 * reserves the most of them; where it is not known the step runs the
 * reference).  A function with a nonzero (its sizes change during run())
 * runs the references where they need scratch (docs/c-api.md). */
static int fast(R *r, LNode *n, int ff, const ScratchNeed *nd)
{
    if (n->elem != EL_F32)
        return 0;
    if (nd && !r->scratch_ok) {
        if (!r->bounded || nd->fixed == INT64_MAX)
            return 0;
        r->most.fixed = nd->fixed > r->most.fixed ? nd->fixed : r->most.fixed;
        r->most.per_thread = nd->per_thread > r->most.per_thread ? nd->per_thread : r->most.per_thread;
        r->bounded_fast = 1;
    }
    r->k->fast[ff] = 1;
    if (ff == FF_MATMUL)
        need(r, KF_EINSUM, EL_F32);         /* (matmul.c's fallback) */
    return 1;
}

/* The fast call, and the reference's where AXON_NO_FAST is defined (and,
 * in a bounded function, where prepare() found the scratch would not fit
 * and left none: a step that needs scratch). */
static void fast_or_ref(R *r, const char *fastcall, const char *refcall, int scratch)
{
    buf_puts(r->out, "#ifndef AXON_NO_FAST\n");
    if (scratch && r->bounded) {
        put(r, "if (plan->ws_scratch_bytes > 0)");
        put(r, "    %s", fastcall);
        put(r, "else");
        put(r, "    %s", refcall);
    } else {
        put(r, "%s", fastcall);
    }
    buf_puts(r->out, "#else\n");
    put(r, "%s", refcall);
    buf_puts(r->out, "#endif\n");
}

/* prepare(): a step's scratch, the expression's bytes (the workspace
 * holds the largest, after the buffers). */
static void scratch_for(R *r, const char *expr)
{
    buf_printf(&r->scratch, "        s = %s;\n        if (s > scr)\n            scr = s;\n", expr);
}

/* Node d's shape as prepare() has it. */
static const char *pshape(R *r, LNode *d)
{
    return ar_printf(r->a, "&plan->node[%d]", d->id);
}

/* A local view of node n: "vK" (zeroed: GCC's -Wmaybe-uninitialized
 * cannot see that a view's dims below its rank are all written). */
static const char *view(R *r, LNode *n)
{
    const char *v = ar_printf(r->a, "v%d", r->tmp++);
    put(r, "axon_tensor %s = { 0, 0, { 0 }, { 0 } };", v);
    put(r, "%s__view(plan, node, in, out, ws, it, %d, &%s);", r->cname, n->id, v);
    return v;
}

/* The values of dims node d (its shape): "node[7].dims[i]" (node: the
 * shapes run() reads, the plan's or, after a nonzero, its own). */
static const char *dimval(R *r, LNode *d, int i)
{
    return ar_printf(r->a, "node[%d].dims[%d]", d->id, i);
}

/* A data error's place: a static site with its message. */
static const char *site(R *r, LNode *n, const char *what)
{
    int ln = 0, col = 0;
    if (n->loc.src)
        src_line_col(n->loc.src, n->loc.start, &ln, &col);
    const char *s = ar_printf(r->a, "at%d", r->tmp++);
    Buf msg;
    buf_init(&msg, r->a);
    for (const char *p = r->file; *p; p++) {      /* a C string literal */
        if (*p == '"' || *p == '\\')
            buf_putc(&msg, '\\');
        if ((unsigned char)*p < 32 || (unsigned char)*p > 126)
            buf_printf(&msg, "\\%03o", (unsigned char)*p);
        else
            buf_putc(&msg, *p);
    }
    put(r, "const axon__site %s = { %d, %d, \"%s:%d:%d: %s: %s\" };", s, ln, col, buf_str(&msg), ln, col,
        ast_shown_name(n->op ? n->op : "run"), what);
    return s;
}

static int unop(const char *op)
{
    static const char *const names[] = { "__neg", "exp", "log", "sqrt", "tanh", "sigmoid", "relu", "abs", "erf",
                                         "sin", "cos", "rsqrt", "gelu", "silu", "floor", "ceil", "sign" };
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
        if (!strcmp(op, names[i]))
            return i;
    return -1;
}

static const char *const unop_names[] = { "NEG", "EXP", "LOG", "SQRT", "TANH", "SIGMOID", "RELU", "ABS", "ERF",
                                          "SIN", "COS", "RSQRT", "GELU", "SILU", "FLOOR", "CEIL", "SIGN" };

static const char *binop(const char *op)
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

static const char *cmpop(const char *op)
{
    static const char *const names[][2] = { { "lt", "LT" }, { "le", "LE" }, { "gt", "GT" },
                                            { "ge", "GE" }, { "eq", "EQ" }, { "ne", "NE" } };
    for (int i = 0; i < 6; i++)
        if (!strcmp(op, names[i][0]))
            return names[i][1];
    return NULL;
}

static int is_conversion(const char *op)
{
    int e = elem_lookup(op);
    return e != EL_VAR && e != EL_DIMS;
}

/* The axis of an axis argument (a dims node's value), counted from the end
 * when negative (docs/language.md). */
static const char *axis_of(R *r, LNode *d, const char *rank)
{
    const char *k = ar_printf(r->a, "k%d", r->tmp++);
    put(r, "int %s = (int)%s;", k, dimval(r, d, 0));
    put(r, "if (%s < 0) %s += %s;", k, k, rank);
    return k;
}

/* ---- the view function -------------------------------------------------- */

/* How node n's view is made from what it is a view of (its case in
 * P_NAME__view). */
static void view_case(R *r, LNode *n)
{
    NodeInfo *in = &r->L->info[n->id];
    int es = n->elem == EL_DIMS ? 0 : elem_size(n->elem);
    switch (in->store) {
    case NS_DIMS:
        return;
    case NS_INPUT:
        put(r, "case %d: axon__dense_view((void *)in[%d], %d, &node[%d], v); return;", n->id, in->index, es,
            n->id);
        return;
    case NS_OUTPUT:
        put(r, "case %d: axon__dense_view(out[%d], %d, &node[%d], v); return;", n->id, in->index, es, n->id);
        return;
    case NS_BUFFER:
        put(r, "case %d: axon__dense_view(ws + plan->ws_offset[%d], %d, &node[%d], v); return;", n->id,
            in->index, es, n->id);
        return;
    case NS_VIEW:
        break;
    }
    if (n->kind == LN_PARAM) {
        LLoop *L = n->loop;
        int depth = *(int *)L->aux;
        if (n->index < L->nstate) {
            LNode *s = L->outs.items[n->index];
            put(r, "case %d: %s__view(plan, node, in, out, ws, it, %d, v); return;", n->id, r->cname, s->id);
        } else {
            LNode *x = L->xs[n->index - L->nstate];
            put(r, "case %d: %s__view(plan, node, in, out, ws, it, %d, v); axon__index_view(v, it[%d], %d, v); return;",
                n->id, r->cname, x->id, depth, elem_size(x->elem));
        }
        return;
    }
    LNode *x = n->args[0];
    put(r, "case %d: /* %s */", n->id, n->op);
    r->indent++;
    put(r, "%s__view(plan, node, in, out, ws, it, %d, v);", r->cname, x->id);
    const char *op = n->op;
    if (!strcmp(op, "transpose")) {
        put(r, "axon__swap_view(v, v->rank - 2, v->rank - 1, v);");
    } else if (!strcmp(op, "reverse")) {
        put(r, "axon__reverse_view(v, %d, v);", elem_size(n->elem));
    } else if (!strcmp(op, "slice")) {
        put(r, "{");
        r->indent++;
        const char *k = axis_of(r, n->args[1], "v->rank");
        put(r, "axon__slice_view(v, %s, %s, %s, %d, v);", k, dimval(r, n->args[2], 0), dimval(r, n->args[3], 0),
            elem_size(n->elem));
        r->indent--;
        put(r, "}");
    } else if (!strcmp(op, "expand")) {
        put(r, "axon__broadcast_view(v, &node[%d], v);", n->id);
    } else if (!strcmp(op, "reshape") || !strcmp(op, "flatten")) {
        put(r, "axon__dense_view(v->data, %d, &node[%d], v);", elem_size(n->elem), n->id);
    } else if (!strcmp(op, "einsum")) {
        int perm[64], rank;
        lower_spec_permutation(n->spec, perm, &rank);
        Buf p;
        buf_init(&p, r->a);
        for (int i = 0; i < rank; i++)
            buf_printf(&p, "%s%d", i ? ", " : "", perm[i]);
        put(r, "{ static const int perm[%d] = { %s }; axon__permute_view(v, perm, v); }", rank, buf_str(&p));
    }
    /* (a conversion to the same type: the operand as it is) */
    put(r, "return;");
    r->indent--;
}

/* ---- the operators -------------------------------------------------------- */

/* ---- fused element-wise groups (f32) ------------------------------------- */

typedef struct Fuse {
    PtrVec leaves;         /* LNode*: the tensors the group reads */
    Buf code;              /* the statements computing each element */
    int tmp;
} Fuse;

static const char *f32_literal(R *r, LNode *n)
{
    if (n->op && !strcmp(n->op, "inf"))
        return "INFINITY";
    return ar_printf(r->a, "(float)%.17g", n->is_float ? n->fval : (double)n->ival);
}

/* The statements computing node n's element (a float named "tN"), its
 * operands first; returns its name.  Each operator as the reference
 * computes it (elementwise.c): +, -, *, / in float (the same rounding as
 * in double then float), the functions in double, rounded once; but exp,
 * sigmoid and silu in float (fused.c's axon__fexp, within 2 ulp) unless
 * AXON_NO_FAST, so that the loop vectorises. */
static const char *fused_expr(R *r, Fuse *fu, LNode *n)
{
    NodeInfo *ni = &r->L->info[n->id];
    if (ni->inline_const)
        return f32_literal(r, n);
    if (!ni->fused) {
        /* a leaf: its value at this element */
        for (int i = 0; i < fu->leaves.n; i++)
            if (fu->leaves.items[i] == n)
                return ar_printf(r->a, "l%d[j * s%d]", i, i);
        pv_push(r->a, &fu->leaves, n);
        return ar_printf(r->a, "l%d[j * s%d]", fu->leaves.n - 1, fu->leaves.n - 1);
    }
    const char *x = n->nargs > 0 ? fused_expr(r, fu, n->args[0]) : "0";
    const char *y = n->nargs > 1 ? fused_expr(r, fu, n->args[1]) : "0";
    const char *t = ar_printf(r->a, "t%d", fu->tmp++);
    const char *op = n->op;
    const char *e;
    if (!strcmp(op, "+")) e = ar_printf(r->a, "%s + %s", x, y);
    else if (!strcmp(op, "-")) e = ar_printf(r->a, "%s - %s", x, y);
    else if (!strcmp(op, "*")) e = ar_printf(r->a, "%s * %s", x, y);
    else if (!strcmp(op, "/")) e = ar_printf(r->a, "%s / %s", x, y);
    else if (!strcmp(op, "maximum") || !strcmp(op, "max"))
        e = ar_printf(r->a, "axon__fmax_nan(%s, %s)", x, y);
    else if (!strcmp(op, "minimum") || !strcmp(op, "min"))
        e = ar_printf(r->a, "axon__fmin_nan(%s, %s)", x, y);
    else if (!strcmp(op, "pow")) e = ar_printf(r->a, "(float)pow((double)%s, (double)%s)", x, y);
    else if (!strcmp(op, "__neg")) e = ar_printf(r->a, "-%s", x);
    else if (!strcmp(op, "relu")) e = ar_printf(r->a, "axon__frelu(%s)", x);
    else if (!strcmp(op, "sign")) e = ar_printf(r->a, "axon__fsign(%s)", x);
    else if (!strcmp(op, "abs")) e = ar_printf(r->a, "fabsf(%s)", x);
    else if (!strcmp(op, "exp")) e = ar_printf(r->a, "AXON__FEXP(%s)", x);
    else if (!strcmp(op, "sigmoid")) e = ar_printf(r->a, "AXON__FSIGMOID(%s)", x);
    else if (!strcmp(op, "tanh")) e = ar_printf(r->a, "AXON__FTANH(%s)", x);
    else if (!strcmp(op, "erf")) e = ar_printf(r->a, "AXON__FERF(%s)", x);
    else if (!strcmp(op, "gelu")) e = ar_printf(r->a, "AXON__FGELU(%s)", x);
    else if (!strcmp(op, "silu")) e = ar_printf(r->a, "AXON__FSILU(%s)", x);
    else e = ar_printf(r->a, "(float)axon__k_unary_double_f32(AXON_OP_%s, (double)%s)", unop_names[unop(op)], x);
    buf_printf(&fu->code, "float %s = %s;\n", t, e);
    return t;
}

/* Whether node n's last size is the constant 1, or n is a scalar (a
 * tensor that broadcasts along the last axis of the loop it is read in). */
static int last_size_one(const LNode *n)
{
    int64_t v = 0;
    if (!n->shape)
        return 0;
    if (n->shape->n == 0)
        return 1;
    const Seg *g = &n->shape->s[n->shape->n - 1];
    return !g->var && g->dim && dim_is_const(g->dim, &v) && v == 1;
}

/* Whether node n, read along the last axis of a loop, has stride 0 there:
 * its last size is 1 or it is a scalar, or it is an `expand` (a view) of
 * such a tensor (`expand(0f, [n, n])`). */
static int row_constant(R *r, const LNode *n)
{
    if (last_size_one(n))
        return 1;
    return n->kind == LN_OP && n->op && !strcmp(n->op, "expand") && n->nargs >= 1 &&
           r->L->info[n->id].store == NS_VIEW && row_constant(r, n->args[0]);
}

/* Node n computed with its fused operands in one loop: rows of the last
 * axis, each a plain loop (the compiler vectorises it where every operand's
 * stride there is 1), the other axes by the odometer. */
static void fused_code(R *r, LNode *n)
{
    Fuse fu;
    memset(&fu, 0, sizeof fu);
    buf_init(&fu.code, r->a);
    /* the root's own operands are read through fused_expr as for a fused node */
    NodeInfo *ri = &r->L->info[n->id];
    int was = ri->fused;
    ri->fused = 1;
    const char *res = fused_expr(r, &fu, n);
    ri->fused = was;
    need(r, KF_ELEMENTWISE, EL_F32);
    put(r, "{   /* %s, fused */", n->op);
    r->indent++;
    const char *o = view(r, n);
    int nl = fu.leaves.n;
    for (int i = 0; i < nl; i++) {
        LNode *x = fu.leaves.items[i];
        put(r, "axon_tensor a%d;", i);
        put(r, "%s__view(plan, node, in, out, ws, it, %d, &a%d);", r->cname, x->id, i);
        put(r, "axon__broadcast_view(&a%d, &node[%d], &a%d);", i, n->id, i);
    }
    put(r, "int rk = %s.rank;", o);
    put(r, "int64_t inner = rk ? %s.dims[rk - 1] : 1, so = rk ? %s.strides[rk - 1] : 0;", o, o);
    for (int i = 0; i < nl; i++)
        put(r, "int64_t s%d = rk ? a%d.strides[rk - 1] : 0;", i, i);
    /* the rows (every axis but the last) by an odometer of our own: any
     * number of operands, each offset moved by its stride */
    put(r, "int64_t rows = inner > 0 ? 1 : 0;");
    put(r, "for (int k = 0; k + 1 < rk; k++)");
    put(r, "    rows *= %s.dims[k] > 0 ? %s.dims[k] : 0;", o, o);
    /* the fast body: every operand's last axis read with stride 1, but an
     * operand whose last size is 1 (a row's max or sum, [r, 1]), read with
     * stride 0: constants the compiler sees, so that it vectorises */
    Buf cond;
    buf_init(&cond, r->a);
    buf_puts(&cond, "so == 1");
    char *row_const = ar_alloc(r->a, (size_t)(nl ? nl : 1));
    for (int i = 0; i < nl; i++) {
        row_const[i] = (char)row_constant(r, fu.leaves.items[i]);
        if (row_const[i])
            buf_printf(&cond, " && (s%d == 0 || inner <= 1)", i);
        else
            buf_printf(&cond, " && s%d == 1", i);
    }
    put(r, "int unit = %s;", buf_str(&cond));
    /* the rows shared out between threads (OpenMP, a large enough loop):
     * each element computed the same way whichever thread has it */
    buf_puts(r->out, "#ifdef _OPENMP\n");
    put(r, "int nth = rows > 1 && rows * inner >= AXON__FUSED_PAR_MIN ? axon__fused_threads(rows) : 1;");
    buf_puts(r->out, "#endif\n");
    /* the block twice: in a parallel region where there are threads, as
     * it is where there are not (entering a region costs a microsecond
     * even on one thread) */
    Buf *outer = r->out, blk;
    buf_init(&blk, r->a);
    r->out = &blk;
    put(r, "{");
    r->indent++;
    put(r, "int64_t e0 = 0, e1 = rows, ix[AXON_MAX_RANK];");
    Buf offs;
    buf_init(&offs, r->a);
    buf_puts(&offs, "int64_t oo = 0");
    for (int i = 0; i < nl; i++)
        buf_printf(&offs, ", o%d = 0", i);
    put(r, "%s;", buf_str(&offs));
    buf_puts(r->out, "#ifdef _OPENMP\n");
    put(r, "if (nth > 1) {");
    put(r, "    const int t = omp_get_thread_num();");
    put(r, "    e0 = rows / nth * t + (t < rows %% nth ? t : rows %% nth);");
    put(r, "    e1 = e0 + rows / nth + (t < rows %% nth);");
    put(r, "}");
    buf_puts(r->out, "#endif\n");
    /* the odometer at row e0 */
    Buf seek;
    buf_init(&seek, r->a);
    buf_printf(&seek, "oo += ix[k] * %s.strides[k];", o);
    for (int i = 0; i < nl; i++)
        buf_printf(&seek, " o%d += ix[k] * a%d.strides[k];", i, i);
    put(r, "for (int64_t k = rk - 2, q = e0; k >= 0; k--) {");
    put(r, "    ix[k] = q > 0 ? q %% %s.dims[k] : 0;", o);
    put(r, "    q = q > 0 ? q / %s.dims[k] : 0;", o);
    put(r, "    %s", buf_str(&seek));
    put(r, "}");
    put(r, "for (int64_t e = e0; e < e1; e++) {");
    r->indent++;
    put(r, "float *po = (float *)%s.data + oo;", o);
    for (int i = 0; i < nl; i++)
        put(r, "const float *l%d = (const float *)a%d.data + o%d;", i, i, i);
    /* the same body twice: unit strides (constants the compiler sees), then any */
    for (int pass = 0; pass < 2; pass++) {
        put(r, pass == 0 ? "if (unit) {" : "} else {");
        r->indent++;
        if (pass == 0)
            for (int i = 0; i < nl; i++)
                put(r, "const int64_t s%d = %d;", i, row_const[i] ? 0 : 1);
        put(r, "for (int64_t j = 0; j < inner; j++) {");
        r->indent++;
        const char *p = buf_str(&fu.code);
        while (*p) {
            const char *nl2 = strchr(p, '\n');
            size_t len = nl2 ? (size_t)(nl2 - p) : strlen(p);
            put(r, "%.*s", (int)len, p);
            p += len + (nl2 != NULL);
        }
        put(r, pass == 0 ? "po[j] = %s;" : "po[j * so] = %s;", res);
        r->indent--;
        put(r, "}");
        r->indent--;
    }
    put(r, "}");
    /* the next row */
    put(r, "for (int k = rk - 2; k >= 0; k--) {");
    r->indent++;
    Buf step, back;
    buf_init(&step, r->a);
    buf_init(&back, r->a);
    buf_printf(&step, "oo += %s.strides[k];", o);
    buf_printf(&back, "oo -= %s.strides[k] * %s.dims[k];", o, o);
    for (int i = 0; i < nl; i++) {
        buf_printf(&step, " o%d += a%d.strides[k];", i, i);
        buf_printf(&back, " o%d -= a%d.strides[k] * %s.dims[k];", i, i, o);
    }
    put(r, "%s", buf_str(&step));
    put(r, "if (++ix[k] < %s.dims[k])", o);
    put(r, "    break;");
    put(r, "%s", buf_str(&back));
    put(r, "ix[k] = 0;");
    r->indent--;
    put(r, "}");
    r->indent--;
    put(r, "}");
    r->indent--;
    put(r, "}");
    r->out = outer;
    buf_puts(r->out, "#ifdef _OPENMP\n");
    put(r, "if (nth > 1) {");
    put(r, "#pragma omp parallel num_threads(nth)");
    buf_puts(r->out, buf_str(&blk));
    put(r, "} else");
    buf_puts(r->out, "#endif\n");
    buf_puts(r->out, buf_str(&blk));
    r->indent--;
    put(r, "}");
}

/* A dims value of run()'s code ("node[7].dims[0]") as prepare() has it. */
static const char *pdims(R *r, const char *v)
{
    return strncmp(v, "node[", 5) ? v : ar_printf(r->a, "plan->%s", v);
}

/* A two-operand einsum's labels by group: bit t of in[l] says label l is
 * in side t (a, b, out), at axis pos[l] of node of[l].  0 where the spec
 * does not name every axis of known rank. */
static int einsum_labels(LNode *n, unsigned char in[256], LNode *of_l[256], int pos_l[256])
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

/* Which of an einsum's products' rows (0), columns (1) and sum (2) label
 * l's size multiplies (a label of out alone counts as rows and columns):
 * a mask. */
static int einsum_group(unsigned char in)
{
    if (!(in & 4))
        return 4;
    return ((in == (1 | 4) || in == 4) ? 1 : 0) | ((in == (2 | 4) || in == 4) ? 2 : 0);
}

/* prepare()'s scratch of a two-operand einsum: its products' rows, columns
 * and sum from the spec where it names every axis ("bnd,bmd->bnm": rows
 * n, columns m, sum d), else the bound from the operands' sizes. */
static const char *einsum_scratch(R *r, LNode *n)
{
    unsigned char in[256] = { 0 };
    LNode *of[256] = { 0 };
    int pos[256];
    if (!einsum_labels(n, in, of, pos))
        return ar_printf(r->a, "axon__f_einsum_scratch(2, %s, %s, %s)", pshape(r, n->args[0]), pshape(r, n->args[1]),
                         pshape(r, n));
    const char *mck[3] = { "1", "1", "1" };
    for (int l = 0; l < 256; l++)
        for (int g = 0; g < 3 && in[l]; g++)
            if (einsum_group(in[l]) & (1 << g))
                mck[g] = ar_printf(r->a, "axon__f_sat(%s, plan->node[%d].dims[%d])", mck[g], of[l]->id, pos[l]);
    return ar_printf(r->a, "axon__f_einsum_scratch_mnk(%s, %s, %s)", mck[0], mck[1], mck[2]);
}

/* ---- a bounded function's steps that need scratch: their need at the
 * largest sizes (scratch.h), or no_need ---- */

static const ScratchShape *dmax_of(R *r, LNode *d)
{
    return r->dmax && r->dmax[d->id].rank >= 0 ? &r->dmax[d->id] : NULL;
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
static int operand_maxima(R *r, LNode *n, const ScratchShape **a, const ScratchShape **b, const ScratchShape **o)
{
    return r->bounded && (*a = dmax_of(r, n->args[0])) && (*b = dmax_of(r, n->args[1])) && (*o = dmax_of(r, n));
}

static ScratchNeed need_matmul(R *r, LNode *n)
{
    const ScratchShape *a, *b, *o;
    return operand_maxima(r, n, &a, &b, &o) ? scratch_matmul(a, b, o) : no_need;
}

static ScratchNeed need_einsum(R *r, LNode *n)
{
    const ScratchShape *a, *b, *o;
    if (!operand_maxima(r, n, &a, &b, &o))
        return no_need;
    unsigned char in[256] = { 0 };
    LNode *of[256] = { 0 };
    int pos[256];
    if (!einsum_labels(n, in, of, pos)) {
        int64_t no = count_of(o);
        return scratch_einsum_mnk(no, no, sat_mul(count_of(a), count_of(b)));
    }
    int64_t mck[3] = { 1, 1, 1 };
    for (int l = 0; l < 256; l++)
        for (int g = 0; g < 3 && in[l]; g++)
            if (einsum_group(in[l]) & (1 << g)) {
                const ScratchShape *d = dmax_of(r, of[l]);
                if (!d || pos[l] >= d->rank)
                    return no_need;
                mck[g] = sat_mul(mck[g], d->dims[pos[l]]);
            }
    return scratch_einsum_mnk(mck[0], mck[1], mck[2]);
}

/* A conv's parameter q (0 stride, 1 padding, 2 dilation, 3 groups) on
 * spatial axis i (0 height, 1 width; groups: either): the dims node that
 * gives it and its index there, or NULL where it takes its default (1, 0,
 * 1, 1): a call of two arguments, a plain conv's dilation and groups, a
 * 1-D conv's height. */
static LNode *conv_param(LNode *n, int one_d, int grouped, int q, int i, int *j)
{
    if (n->nargs < 4 || (q >= 2 && !grouped) || (q < 3 && one_d && i == 0))
        return NULL;
    *j = q == 3 || one_d ? 0 : i;
    return n->args[2 + q];
}

static const int64_t conv_default[4] = { 1, 0, 1, 1 };

/* prm: s0, s1, p0, p1, d0, d1, groups, as the conv's code reads them. */
static ScratchNeed need_conv(R *r, LNode *n, int one_d, int grouped)
{
    const ScratchShape *x, *w, *o;
    if (!operand_maxima(r, n, &x, &w, &o))
        return no_need;
    int64_t prm[7];
    for (int k = 0; k < 7; k++) {
        int q = k / 2, j = 0;
        LNode *a = conv_param(n, one_d, grouped, q, k % 2, &j);
        const ScratchShape *v = a ? dmax_of(r, a) : NULL;
        if (a && (!v || j >= v->rank))
            return no_need;
        prm[k] = a ? v->dims[j] : conv_default[q];
    }
    return scratch_conv(x, w, o, one_d, prm);
}

/* matmul (and linear, x and o viewed as its batched product): the fast
 * f32 product where it may run. */
static void matmul_call(R *r, LNode *n, const char *x, const char *y, const char *o)
{
    const char *ref = ar_printf(r->a, "axon__k_matmul_%s(&%s, &%s, &%s);", tn(n->elem), x, y, o);
    ScratchNeed nd = need_matmul(r, n);
    if (!fast(r, n, FF_MATMUL, &nd)) {
        put(r, "%s", ref);
        return;
    }
    fast_or_ref(r, ar_printf(r->a, "axon__f_matmul(&%s, &%s, &%s, ws + plan->ws_scratch, plan->ws_scratch_bytes);", x, y, o), ref, 1);
    scratch_for(r, ar_printf(r->a, "axon__f_matmul_scratch(%s, %s, %s)", pshape(r, n->args[0]), pshape(r, n->args[1]),
                             pshape(r, n)));
}

/* out view v, and the operands' views; writes the kernel call of node n. */
static void op_code(R *r, LNode *n)
{
    const char *op = n->op;
    const char *T = tn(n->elem);
    NodeInfo *in = &r->L->info[n->id];
    if (!strcmp(op, "topk.indices"))
        return;                                 /* written by topk */
    if (in->store == NS_VIEW || in->fused)
        return;                                 /* nothing to compute here */
    if (layout_fuses(r->L, n)) {
        fused_code(r, n);
        return;
    }
    put(r, "{   /* %s */", op);
    r->indent++;
    const char *o = view(r, n);
    int u;
    const char *b;
    if (in->copy) {
        /* a reshape of data that is not dense: copied first, with its own shape */
        LNode *x = n->args[0];
        const char *xv = view(r, x);
        put(r, "axon_tensor d;");
        put(r, "axon__dense_view(%s.data, %d, &node[%d], &d);", o, elem_size(n->elem), x->id);
        need(r, KF_ELEMENTWISE, n->elem);
        put(r, "axon__k_copy_%s(&%s, &d);", T, xv);
    } else if ((u = unop(op)) >= 0) {
        const char *x = view(r, n->args[0]);
        need(r, KF_ELEMENTWISE, n->elem);
        put(r, "axon__k_unary_%s(AXON_OP_%s, &%s, &%s);", T, unop_names[u], x, o);
    } else if ((b = binop(op)) != NULL) {
        const char *x = view(r, n->args[0]), *y = view(r, n->args[1]);
        put(r, "axon__broadcast_view(&%s, &node[%d], &%s);", x, n->id, x);
        put(r, "axon__broadcast_view(&%s, &node[%d], &%s);", y, n->id, y);
        need(r, KF_ELEMENTWISE, n->elem);
        const char *at = site(r, n, "an integer division by zero (at element {} of the result)");
        put(r, "if (axon__k_binary_%s(AXON_OP_%s, &%s, &%s, &%s, &%s, err) != AXON_OK) return err ? err->status : "
            "AXON_ERR_ZERO_DIVISION;", T, b, x, y, o, at);
    } else if ((b = cmpop(op)) != NULL) {
        const char *x = view(r, n->args[0]), *y = view(r, n->args[1]);
        put(r, "axon__broadcast_view(&%s, &node[%d], &%s);", x, n->id, x);
        put(r, "axon__broadcast_view(&%s, &node[%d], &%s);", y, n->id, y);
        need(r, KF_ELEMENTWISE, n->args[0]->elem);
        put(r, "axon__k_compare_%s(AXON_OP_%s, &%s, &%s, &%s);", tn(n->args[0]->elem), b, x, y, o);
    } else if (!strcmp(op, "select")) {
        const char *cv = view(r, n->args[0]), *x = view(r, n->args[1]), *y = view(r, n->args[2]);
        for (int i = 0; i < 3; i++) {
            const char *v = i == 0 ? cv : i == 1 ? x : y;
            put(r, "axon__broadcast_view(&%s, &node[%d], &%s);", v, n->id, v);
        }
        need(r, KF_ELEMENTWISE, n->elem);
        put(r, "axon__k_select_%s(&%s, &%s, &%s, &%s);", T, cv, x, y, o);
    } else if (is_conversion(op)) {
        const char *x = view(r, n->args[0]);
        put(r, "axon__convert(&%s, %d, &%s, %d);", x, n->args[0]->elem, o, n->elem);
    } else if (!strcmp(op, "matmul")) {
        const char *x = view(r, n->args[0]), *y = view(r, n->args[1]);
        need(r, KF_MATMUL, n->elem);
        matmul_call(r, n, x, y, o);
    } else if (!strcmp(op, "linear")) {
        /* x [s, k] as [s, 1, k] by W [k, m] broadcast over s: [s, 1, m] */
        const char *x = view(r, n->args[0]), *y = view(r, n->args[1]);
        put(r, "axon__unit_view(&%s, %s.rank - 1, &%s);", x, x, x);
        put(r, "axon__unit_view(&%s, %s.rank - 1, &%s);", o, o, o);
        put(r, "{");
        r->indent++;
        put(r, "axon_shape to;");
        put(r, "to.rank = %s.rank;", o);
        put(r, "for (int i = 0; i < to.rank; i++) to.dims[i] = %s.dims[i];", o);
        put(r, "to.dims[to.rank - 2] = %s.dims[0];", y);
        put(r, "axon__broadcast_view(&%s, &to, &%s);", y, y);
        r->indent--;
        put(r, "}");
        need(r, KF_MATMUL, n->elem);
        matmul_call(r, n, x, y, o);
    } else if (!strcmp(op, "conv") || !strncmp(op, "conv1d", 6) || !strncmp(op, "conv2d", 6)) {
        const char *x = view(r, n->args[0]), *w = view(r, n->args[1]);
        int one_d = !strncmp(op, "conv1d", 6), grouped = strstr(op, "grouped") != NULL;
        if (one_d) {
            put(r, "axon__unit_view(&%s, 2, &%s);", x, x);
            put(r, "axon__unit_view(&%s, 2, &%s);", w, w);
            put(r, "axon__unit_view(&%s, 2, &%s);", o, o);
        }
        const char *v[4][2];        /* stride, padding, dilation, groups */
        for (int q = 0; q < 4; q++)
            for (int i = 0; i < 2; i++) {
                int j = 0;
                LNode *a = conv_param(n, one_d, grouped, q, i, &j);
                v[q][i] = a ? dimval(r, a, j) : ar_printf(r->a, "%lld", (long long)conv_default[q]);
            }
        const char *const *s = v[0], *const *p = v[1], *const *d = v[2], *g = v[3][0];
        need(r, KF_CONV, n->elem);
        put(r, "{ const int64_t s[2] = { %s, %s }, p[2] = { %s, %s }, d[2] = { %s, %s };", s[0], s[1], p[0], p[1], d[0],
            d[1]);
        r->indent++;
        const char *ref = ar_printf(r->a, "axon__k_conv2d_%s(&%s, &%s, &%s, s, p, d, %s);", T, x, w, o, g);
        ScratchNeed nd = need_conv(r, n, one_d, grouped);
        if (fast(r, n, FF_CONV, &nd)) {
            fast_or_ref(r, ar_printf(r->a, "axon__f_conv2d(&%s, &%s, &%s, s, p, d, %s, ws + plan->ws_scratch);", x,
                                     w, o, g), ref, 1);
            scratch_for(r, ar_printf(r->a, "axon__f_conv_scratch(%s, %s, %s, %d, %s, %s, %s, %s, %s, %s, %s)",
                                     pshape(r, n->args[0]), pshape(r, n->args[1]), pshape(r, n), one_d,
                                     pdims(r, s[0]), pdims(r, s[1]), pdims(r, p[0]), pdims(r, p[1]), pdims(r, d[0]),
                                     pdims(r, d[1]), pdims(r, g)));
        } else {
            put(r, "%s", ref);
        }
        r->indent--;
        put(r, "}");
    } else if (!strncmp(op, "maxpool", 7) || !strncmp(op, "avgpool", 7)) {
        const char *x = view(r, n->args[0]);
        int one_d = strstr(op, "1d") != NULL;
        if (one_d) {
            put(r, "axon__unit_view(&%s, 2, &%s);", x, x);
            put(r, "axon__unit_view(&%s, 2, &%s);", o, o);
        }
        const char *wd[2], *s[2], *p[2];
        for (int i = 0; i < 2; i++) {
            int j = one_d ? 0 : i;
            int unit = one_d && i == 0;
            wd[i] = unit ? "1" : dimval(r, n->args[1], j);
            s[i] = unit ? "1" : dimval(r, n->args[2], j);
            p[i] = unit ? "0" : dimval(r, n->args[3], j);
        }
        need(r, KF_POOL, n->elem);
        put(r, "{ const int64_t w[2] = { %s, %s }, s[2] = { %s, %s }, p[2] = { %s, %s };", wd[0], wd[1], s[0], s[1],
            p[0], p[1]);
        const char *ref = ar_printf(r->a, "  axon__k_pool2d_%s(AXON_RED_%s, &%s, &%s, w, s, p); }", T,
                                    op[0] == 'm' ? "MAX" : "MEAN", x, o);
        if (fast(r, n, FF_POOL, NULL))
            fast_or_ref(r, ar_printf(r->a, "  axon__f_pool2d(AXON_RED_%s, &%s, &%s, w, s, p); }",
                                     op[0] == 'm' ? "MAX" : "MEAN", x, o), ref, 0);
        else
            put(r, "%s", ref);
    } else if (!strcmp(op, "upsample2d")) {
        const char *x = view(r, n->args[0]);
        need(r, KF_POOL, n->elem);
        put(r, "{ const int64_t f[2] = { %s, %s };", dimval(r, n->args[1], 0), dimval(r, n->args[1], 1));
        const char *ref = ar_printf(r->a, "  axon__k_upsample2d_%s(&%s, &%s, f); }", T, x, o);
        if (fast(r, n, FF_POOL, NULL))
            fast_or_ref(r, ar_printf(r->a, "  axon__f_upsample2d(&%s, &%s, f); }", x, o), ref, 0);
        else
            put(r, "%s", ref);
    } else if (!strcmp(op, "pad2d")) {
        const char *x = view(r, n->args[0]);
        need(r, KF_ELEMENTWISE, n->elem);
        put(r, "axon__k_fill_%s(&%s, 0);", T, o);
        put(r, "axon__slice_view(&%s, 2, %s, %s.dims[2] - %s, %d, &%s);", o, dimval(r, n->args[1], 0), o,
            dimval(r, n->args[1], 1), elem_size(n->elem), o);
        put(r, "axon__slice_view(&%s, 3, %s, %s.dims[3] - %s, %d, &%s);", o, dimval(r, n->args[1], 2), o,
            dimval(r, n->args[1], 3), elem_size(n->elem), o);
        put(r, "axon__k_copy_%s(&%s, &%s);", T, x, o);
    } else if (!strcmp(op, "concat") || !strcmp(op, "concat_axis")) {
        /* each tensor copied into its part of the result: concat along
         * the first axis, concat_axis along its last argument's axis (any
         * number of tensors before it) */
        int nt = !strcmp(op, "concat") ? n->nargs : n->nargs - 1;
        const char *k = !strcmp(op, "concat") ? "0" : axis_of(r, n->args[nt], ar_printf(r->a, "%s.rank", o));
        need(r, KF_ELEMENTWISE, n->elem);
        put(r, "int64_t at = 0;");
        for (int t = 0; t < nt; t++) {
            put(r, "{");
            r->indent++;
            const char *x = view(r, n->args[t]);
            put(r, "axon_tensor part;");
            put(r, "axon__slice_view(&%s, %s, at, at + %s.dims[%s], %d, &part);", o, k, x, k, elem_size(n->elem));
            put(r, "axon__k_copy_%s(&%s, &part);", T, x);
            put(r, "at += %s.dims[%s];", x, k);
            r->indent--;
            put(r, "}");
        }
    } else if (!strcmp(op, "softmax") || !strcmp(op, "log_softmax")) {
        const char *x = view(r, n->args[0]);
        need(r, KF_NORM, n->elem);
        const char *ref = ar_printf(r->a, "axon__k_softmax_%s(%d, &%s, &%s);", T, op[0] == 'l', x, o);
        if (fast(r, n, FF_NORM, NULL))
            fast_or_ref(r, ar_printf(r->a, "axon__f_softmax(%d, &%s, &%s);", op[0] == 'l', x, o), ref, 0);
        else
            put(r, "%s", ref);
    } else if (!strcmp(op, "layernorm")) {
        const char *x = view(r, n->args[0]), *g = view(r, n->args[1]), *bb = view(r, n->args[2]);
        need(r, KF_NORM, n->elem);
        const char *ref = ar_printf(r->a, "axon__k_layernorm_%s(&%s, &%s, &%s, &%s);", T, x, g, bb, o);
        if (fast(r, n, FF_NORM, NULL))
            fast_or_ref(r, ar_printf(r->a, "axon__f_layernorm(&%s, &%s, &%s, &%s);", x, g, bb, o), ref, 0);
        else
            put(r, "%s", ref);
    } else if (!strcmp(op, "gather")) {
        const char *x = view(r, n->args[0]), *idx = view(r, n->args[1]);
        need(r, KF_INDEX, n->elem);
        const char *at = site(r, n, "index {} at position {} of the indices is outside [0, {})");
        put(r, "if (axon__k_gather_%s(&%s, &%s, &%s, &%s, err) != AXON_OK) return err ? err->status : AXON_ERR_INDEX;",
            T, x, idx, o, at);
    } else if (!strcmp(op, "topk")) {
        const char *x = view(r, n->args[0]);
        LNode *ix = NULL;
        for (int i = n->id + 1; i < r->f->nodes.n && !ix; i++) {
            LNode *m = r->f->nodes.items[i];
            if (m->kind == LN_OP && !strcmp(m->op, "topk.indices") && m->args[0] == n)
                ix = m;
        }
        const char *iv = view(r, ix);
        need(r, KF_INDEX, n->elem);
        put(r, "axon__k_topk_%s(&%s, &%s, &%s);", T, x, o, iv);
    } else if (!strcmp(op, "nonzero")) {
        /* the indices at its bound, then its size known: every shape after
         * it computed again, into run()'s own (the workspace's end) */
        int k = -1;
        for (int i = 0; i < r->dyn.n; i++)
            if (r->dyn_node[i] == n)
                k = i;
        const char *x = view(r, n->args[0]);
        need(r, KF_INDEX, n->args[0]->elem);
        put(r, "axon__dense_view(%s.data, %d, &plan->node_max[%d], &%s);", o, elem_size(n->elem), n->id, o);
        put(r, "dyn[%d] = axon__k_nonzero_%s(&%s, &%s);", k, tn(n->args[0]->elem), x, o);
        put(r, "{");
        r->indent++;
        int nin = r->f->inputs.n;
        put(r, "axon_shape ins[%d], rout[%d];", nin ? nin : 1, r->f->outputs.n ? r->f->outputs.n : 1);
        for (int i = 0; i < nin; i++)
            put(r, "ins[%d] = plan->node[%d];", i, ((LNode *)r->f->inputs.items[i])->id);
        put(r, "%s__rd_dims rd;", r->cname);
        put(r, "axon_error e2;");
        put(r, "axon_shape *dnode = (axon_shape *)(void *)(ws + plan->ws_nodes);");
        put(r, "int st = %s__rd_solve(ins, rout, dnode, &rd, 0, 0, dyn, err ? err : &e2);", r->cname);
        put(r, "if (st != AXON_OK)");
        put(r, "    return st;");
        put(r, "node = dnode;");
        put(r, "(void)rd;");
        r->indent--;
        put(r, "}");
    } else if (!strcmp(op, "arange")) {
        need(r, KF_ELEMENTWISE, n->elem);
        put(r, "axon__k_arange_%s(&%s);", T, o);
    } else if (!strcmp(op, "size")) {
        need(r, KF_ELEMENTWISE, n->elem);
        put(r, "axon__k_fill_%s(&%s, %s);", T, o, dimval(r, n->args[0], 0));
    } else if (!strcmp(op, "einsum")) {
        const char *x = view(r, n->args[0]), *y = n->nargs > 1 ? view(r, n->args[1]) : x;
        need(r, KF_EINSUM, n->elem);
        put(r, "{");
        r->indent++;
        put(r, "axon_tensor ops[2];");
        put(r, "int lab[2][AXON_MAX_RANK], olab[AXON_MAX_RANK];");
        put(r, "int64_t ld[AXON__MAX_LABELS];");
        put(r, "ops[0] = %s;", x);
        put(r, "ops[1] = %s;", y);
        put(r, "axon__einsum_setup(\"%s\", %d, ops, &%s, lab, olab, ld);", n->spec, n->nargs, o);
        put(r, "{ const axon_tensor *opp[2] = { &ops[0], &ops[1] }; const int *labp[2] = { lab[0], lab[1] };");
        r->indent++;
        const char *ref = ar_printf(r->a, "axon__k_einsum_%s(%d, opp, labp, &%s, olab, AXON__MAX_LABELS, ld);", T,
                                    n->nargs, o);
        ScratchNeed nd = n->nargs == 2 ? need_einsum(r, n) : no_need;
        if (n->nargs == 2 && fast(r, n, FF_MATMUL, &nd)) {
            fast_or_ref(r, ar_printf(r->a, "axon__f_einsum(2, opp, labp, &%s, olab, AXON__MAX_LABELS, ld, "
                                           "ws + plan->ws_scratch, plan->ws_scratch_bytes);", o), ref, 1);
            scratch_for(r, einsum_scratch(r, n));
        } else {
            put(r, "%s", ref);
        }
        r->indent--;
        put(r, "}");
        r->indent--;
        put(r, "}");
    } else if (!strcmp(op, "sum") || !strcmp(op, "mean") || !strcmp(op, "amax") || !strcmp(op, "amin") ||
               !strcmp(op, "argmax")) {
        const char *x = view(r, n->args[0]);
        put(r, "{");
        r->indent++;
        put(r, "axon_tensor red;");
        put(r, "axon__reduce_setup(\"%s\", &%s, &%s, &red);", n->spec, x, o);
        if (!strcmp(op, "argmax")) {
            need(r, KF_REDUCE, n->args[0]->elem);
            const char *at = site(r, n, "an empty axis has no largest element");
            put(r, "if (axon__k_argmax_%s(&%s, &red, &%s, err) != AXON_OK) return err ? err->status : AXON_ERR_EMPTY;",
                tn(n->args[0]->elem), x, at);
        } else {
            need(r, KF_REDUCE, n->elem);
            int fl = n->elem == EL_F16 || n->elem == EL_BF16 || n->elem == EL_F32 || n->elem == EL_F64;
            if (!strcmp(op, "mean") && !fl) {
                /* an integer mean of nothing has no value (a float's is NaN) */
                const char *at = site(r, n, "the mean of an empty axis has no integer value");
                put(r, "if (axon__numel(%s.rank, %s.dims) == 0 && axon__numel(%s.rank, %s.dims) > 0)", x, x, o, o);
                put(r, "    return axon__failv(err, AXON_ERR_EMPTY, %s.line, %s.column, %s.fmt, 0, 0);", at, at, at);
            }
            const char *rop = !strcmp(op, "sum") ? "SUM" : !strcmp(op, "mean") ? "MEAN" : !strcmp(op, "amax") ? "MAX"
                                                                                                        : "MIN";
            const char *ref = ar_printf(r->a, "axon__k_reduce_%s(AXON_RED_%s, &%s, &red);", T, rop, x);
            if (fast(r, n, FF_REDUCE, NULL))
                fast_or_ref(r, ar_printf(r->a, "axon__f_reduce(AXON_RED_%s, &%s, &red);", rop, x), ref, 0);
            else
                put(r, "%s", ref);
        }
        r->indent--;
        put(r, "}");
    } else {
        put(r, "#error \"axonc: run() has no kernel for %s\"", op);
    }
    r->indent--;
    put(r, "}");
}

/* A literal: its value filled in at its step. */
static void literal_code(R *r, LNode *n)
{
    if (r->L->info[n->id].store == NS_VIEW || r->L->info[n->id].inline_const)
        return;
    need(r, KF_ELEMENTWISE, n->elem);
    const char *v;
    int fl = n->elem == EL_F16 || n->elem == EL_BF16 || n->elem == EL_F32 || n->elem == EL_F64;
    if (n->op && !strcmp(n->op, "inf"))
        v = "(AXON_ACC_INF)";
    else if (fl)
        v = ar_printf(r->a, "%.17g", n->fval);
    else
        v = ar_printf(r->a, "INT64_C(%lld)", (long long)(n->is_float ? (int64_t)n->fval : n->ival));
    put(r, "{   /* %s */", n->is_float || n->op ? "a literal" : "a literal");
    r->indent++;
    const char *o = view(r, n);
    if (!strcmp(v, "(AXON_ACC_INF)"))
        put(r, "axon__k_fill_%s(&%s, %s);", tn(n->elem), o, fl ? "(double)INFINITY" : "0");
    else
        put(r, "axon__k_fill_%s(&%s, %s);", tn(n->elem), o, v);
    r->indent--;
    put(r, "}");
}

/* A call of an extern, through the table: its operands and outputs. */
static void extern_code(R *r, LNode *n)
{
    if (n->index != 0)
        return;                     /* the call writes every output at once */
    LCall *call = n->call;
    put(r, "{   /* extern %s */", call->name);
    r->indent++;
    int na = call->args.n, no = call->outs.n;
    put(r, "axon_tensor args[%d], outs[%d];", na ? na : 1, no ? no : 1);
    for (int i = 0; i < na; i++) {
        LNode *x = call->args.items[i];
        if (x->elem == EL_DIMS) {
            put(r, "args[%d].data = 0; args[%d].rank = node[%d].rank;", i, i, x->id);
            put(r, "for (int i = 0; i < args[%d].rank; i++) { args[%d].dims[i] = node[%d].dims[i]; "
                   "args[%d].strides[i] = 0; }", i, i, x->id, i);
        } else {
            put(r, "%s__view(plan, node, in, out, ws, it, %d, &args[%d]);", r->cname, x->id, i);
        }
    }
    for (int i = 0; i < no; i++)
        put(r, "%s__view(plan, node, in, out, ws, it, %d, &outs[%d]);", r->cname, ((LNode *)call->outs.items[i])->id, i);
    const char *at = site(r, n, "the extern has no function in the table");
    put(r, "if (!ext || !ext->%s) return axon__failv(err, AXON_ERR_EXTERN, %s.line, %s.column, %s.fmt, 0, 0);",
        cn_spell(r->a, call->name, CN_FUNCTION), at, at, at);
    put(r, "{ int st = ext->%s(ext->ctx, args, %d, outs, %d, err);", cn_spell(r->a, call->name, CN_FUNCTION), na, no);
    put(r, "  if (st != AXON_OK) return st; }");
    r->indent--;
    put(r, "}");
}

static void block_code(R *r, LBlock *b);

/* copy the view of node src into the view `dst` (a local) */
static void copy_into(R *r, LNode *src, const char *dst)
{
    if (src->elem == EL_DIMS)
        return;
    const char *s = view(r, src);
    need(r, KF_ELEMENTWISE, src->elem);
    put(r, "axon__k_copy_%s(&%s, &%s);", tn(src->elem), s, dst);
}

static void loop_code(R *r, LLoop *L)
{
    int d = *(int *)L->aux;
    put(r, "{   /* %s */", L->kind);
    r->indent++;
    /* the state starts as the initial value (broadcast) */
    for (int i = 0; i < L->nstate; i++) {
        LNode *s = L->outs.items[i], *init = L->init.items[i];
        const char *sv = view(r, s), *iv = view(r, init);
        put(r, "axon__broadcast_view(&%s, &node[%d], &%s);", iv, s->id, iv);
        need(r, KF_ELEMENTWISE, s->elem);
        put(r, "axon__k_copy_%s(&%s, &%s);", tn(s->elem), iv, sv);
    }
    put(r, "int64_t n = node[%d].rank ? node[%d].dims[0] : 0;", L->xs[0]->id, L->xs[0]->id);
    put(r, "for (it[%d] = 0; it[%d] < n; it[%d]++) {", d, d, d);
    r->indent++;
    block_code(r, &L->body);
    /* this step's outputs first (they may read the state), then each new
     * state: through its scratch buffer where it is the state itself */
    for (int i = L->nstate; i < L->results.n; i++) {
        LNode *res = L->results.items[i];
        put(r, "{");
        r->indent++;
        const char *dst = view(r, L->outs.items[i]);
        put(r, "axon__index_view(&%s, it[%d], %d, &%s);", dst, d, elem_size(res->elem), dst);
        copy_into(r, res, dst);
        r->indent--;
        put(r, "}");
    }
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < L->nstate; i++) {
            LNode *res = L->results.items[i], *st = L->outs.items[i];
            int sb = L->scratch ? L->scratch[i] : -1;
            if (pass == 0 && sb < 0)
                continue;
            put(r, "{");
            r->indent++;
            const char *dst = NULL;
            if (pass == 0 || sb >= 0) {
                dst = ar_printf(r->a, "sc%d", r->tmp++);
                put(r, "axon_tensor %s;", dst);
                put(r, "axon__dense_view(ws + plan->ws_offset[%d], %d, &node[%d], &%s);", sb,
                    elem_size(st->elem), st->id, dst);
            }
            if (pass == 0) {
                copy_into(r, res, dst);
            } else {
                const char *sv = view(r, st);
                if (sb >= 0) {
                    need(r, KF_ELEMENTWISE, st->elem);
                    put(r, "axon__k_copy_%s(&%s, &%s);", tn(st->elem), dst, sv);
                } else {
                    copy_into(r, res, sv);
                }
            }
            r->indent--;
            put(r, "}");
        }
    r->indent--;
    put(r, "}");
    r->indent--;
    put(r, "}");
}

static void block_code(R *r, LBlock *b)
{
    for (int i = 0; i < b->items.n; i++) {
        LItem *it = b->items.items[i];
        if (it->loop) {
            loop_code(r, it->loop);
            continue;
        }
        LNode *n = it->node;
        switch (n->kind) {
        case LN_LITERAL: literal_code(r, n); break;
        case LN_OP: op_code(r, n); break;
        case LN_EXTERN: extern_code(r, n); break;
        default: break;
        }
    }
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

/* ---- the function --------------------------------------------------------- */

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
 * time that no nonzero of f produces); fills r->dyn with those it does. */
static const char *unsupported(R *r, LFunc *f)
{
    Ctx *c = r->c;
    uint32_t st = ++c->stamp;
    for (int i = 0; i < f->nodes.n; i++) {
        LNode *n = f->nodes.items[i];
        if (n->elem == EL_U64)
            return "its element type u64 has values an int64 accumulator does not hold";
        Shape *s = shape_norm(c, n->shape);
        for (uint32_t j = 0; j < s->n; j++)
            if (s->s[j].dim)
                dyn_vars_of(c, s->s[j].dim, &r->dyn, r->a, st);
    }
    /* each one's first nonzero, in one pass over the nodes */
    r->dyn_node = ar_alloc(r->a, sizeof(LNode *) * (size_t)(r->dyn.n ? r->dyn.n : 1));
    for (int i = 0; i < f->nodes.n; i++) {
        LNode *n = f->nodes.items[i];
        if (n->kind != LN_OP || strcmp(n->op, "nonzero"))
            continue;
        Shape *s = shape_norm(c, n->shape);
        DVar *v = s->n == 1 && s->s[0].dim ? dim_is_var(dim_norm(c, s->s[0].dim)) : NULL;
        if (v && v->stamp == st && !r->dyn_node[(intptr_t)v->mark])
            r->dyn_node[(intptr_t)v->mark] = n;
    }
    for (int k = 0; k < r->dyn.n; k++)
        if (!r->dyn_node[k])
            return "a size is known only when an operation runs (an extern's `?`)";
    return NULL;
}

void emit_run(Compilation *cp, Binding *b, const char *cname, const char *prefix, const EmitOptions *opt,
              RunKernels *k, RunCode *rc)
{
    Arena *a = &cp->arena;
    Ctx *c = &cp->ctx;
    memset(rc, 0, sizeof *rc);
    buf_init(&rc->plan, a);
    buf_init(&rc->solve, a);
    buf_init(&rc->prepare, a);
    buf_init(&rc->decl, a);
    buf_init(&rc->impl, a);
    const char *why = NULL;
    if (!k->lp)
        k->lp = lower_program(cp, opt->elem_default);
    int over_before = lower_over_limit(k->lp);
    LFunc *f = lower_function(k->lp, b, &why);
    if (!f) {
        rc->why = why;
        rc->over_limit = over_before;
        return;
    }
    R r;
    memset(&r, 0, sizeof r);
    r.cp = cp;
    r.c = c;
    r.a = a;
    r.f = f;
    r.k = k;
    r.cname = cname;
    r.file = cp->src->name;
    if ((why = unsupported(&r, f)) != NULL) {
        rc->why = why;
        return;
    }
    int nd = r.dyn.n;
    /* every node's shape, through the shape function in run mode */
    PtrVec nodes = { 0 };
    for (int i = 0; i < f->nodes.n; i++) {
        LNode *n = f->nodes.items[i];
        PTensor *t = ar_alloc(a, sizeof *t);
        int ln = 0, col = 0;
        if (n->loc.src)
            src_line_col(n->loc.src, n->loc.start, &ln, &col);
        t->desc = ar_printf(a, "%s at %d:%d", n->op ? ast_shown_name(n->op) : "a value", ln, col);
        t->cname = ar_printf(a, "n%d", i);
        t->type = type_tensor(c, elem_prim(c, n->elem, NULL), n->shape, NULL);
        pv_push(a, &nodes, t);
    }
    EmitOptions ropt = *opt;
    ropt.run_nodes = &nodes;
    ropt.plans = 0;
    FnCode rfc;
    const char *rname = ar_printf(a, "%s__r", cname);
    int saved_errors = cp->diag.errors;
    if (emit_function(cp, b, rname, &ropt, &rfc)) {
        rc->why = rfc.why ? rfc.why : "its tensors' shapes are not all computed from the inputs";
        return;
    }
    cp->diag.errors = saved_errors;
    /* after a nonzero: the same shapes, its size known (dyn[k]) */
    FnCode dfc;
    const char *dname = ar_printf(a, "%s__rd", cname);
    if (nd) {
        EmitOptions dopt = ropt;
        dopt.dyn_known = &r.dyn;
        saved_errors = cp->diag.errors;
        if (emit_function(cp, b, dname, &dopt, &dfc)) {
            rc->why = dfc.why ? dfc.why : "its tensors' shapes after a nonzero are not all computed";
            return;
        }
        cp->diag.errors = saved_errors;
    }
    RunLayout *L = layout_function(c, f);
    loop_depths(&f->body, 0, a);
    r.L = L;
    k->any = 1;
    int nn = f->nodes.n, nb = L->buffers.n;

    /* the plan's members */
    buf_printf(&rc->plan, "    int64_t workspace_bytes;   /* run(): the workspace it needs, in bytes */\n");
    buf_printf(&rc->plan, "    axon_shape node[%d];       /* (run(): every tensor's shape) */\n", nn);
    buf_printf(&rc->plan, "    int64_t ws_offset[%d];     /* (run(): each buffer's place in the workspace) */\n",
               nb ? nb : 1);
    buf_printf(&rc->plan, "    int64_t ws_size[%d];\n", nb ? nb : 1);
    buf_printf(&rc->plan, "    int ws_order[%d];\n", nb ? nb : 1);
    if (nd) {
        buf_printf(&rc->plan, "    axon_shape node_max[%d];   /* (run(): the largest, a nonzero at its bound) */\n", nn);
        buf_printf(&rc->plan, "    int64_t ws_nodes;          /* (run(): where its own shapes go in the workspace) */\n");
    }

    /* a bounded function (spec 8b): the workspace at its largest sizes */
    int64_t max_total = -1;
    int64_t *max_off = ar_alloc(a, sizeof(int64_t) * (size_t)(nb ? nb : 1));
    if (rfc.bounded && rfc.temp_max) {
        int64_t *sz = ar_alloc(a, sizeof(int64_t) * (size_t)(nb ? nb : 1));
        int fits = 1;
        for (int i = 0; i < nb && fits; i++) {
            RBuffer *rb = L->buffers.items[i];
            int64_t el = rb->node ? rfc.temp_max[rb->node->id] : 0;
            int es = rb->node && rb->node->elem != EL_DIMS ? elem_size(rb->node->elem) : 1;
            fits = el >= 0 && el <= INT64_MAX / es;
            sz[i] = fits ? el * es : 0;
        }
        if (fits)
            max_total = layout_place(L, sz, max_off);
    }

    /* the fast kernels' scratch: where no nonzero changes sizes during
     * run(); a bounded function's at its largest sizes, in its bound */
    r.scratch_ok = max_total < 0 && nd == 0;
    r.bounded = max_total >= 0 && nd == 0;
    r.dmax = rfc.temp_dims_max;
    r.most.fixed = r.most.per_thread = 0;
    r.bounded_fast = 0;
    buf_init(&r.scratch, a);
    buf_printf(&rc->plan, "    int64_t ws_scratch;        /* (run(): the fast kernels' scratch in the workspace) */\n");
    buf_printf(&rc->plan, "    int64_t ws_scratch_bytes;\n");

    /* the shape function of the nodes (WORKSPACE_BYTES_MAX goes before
     * it once the body has said what scratch it takes) */
    {
        const char *markers[] = { "DIMS", "BODY" };
        const char *texts[] = { buf_str(&rfc.dims), buf_str(&rfc.body) };
        emit_template_into(&rc->solve, axon_tmpl_run_solve, markers, texts, 2, ar_printf(a, "%s_", rname));
        if (nd) {
            const char *dtexts[] = { buf_str(&dfc.dims), buf_str(&dfc.body) };
            emit_template_into(&rc->solve, axon_tmpl_run_solve, markers, dtexts, 2, ar_printf(a, "%s_", dname));
        }
    }

    /* prepare(): the nodes' shapes, the buffers' sizes, the workspace plan.
     * Sizes that run() cannot hold (a count past int64) leave the shapes
     * as valid as they are: workspace_bytes is -1, and run() says so. */
    Buf *p = &rc->prepare;
    buf_printf(p, "    plan->workspace_bytes = -1;\n");
    buf_printf(p, "    for (int i = 0; i < %d; i++)\n        plan->node[i] = none;   /* (defined on every path) */\n", nn);
    buf_printf(p, "    {\n");
    buf_printf(p, "        %s_dims rd;\n", rname);
    buf_printf(p, "        axon_shape rout[%d];\n", f->outputs.n ? f->outputs.n : 1);
    buf_printf(p, "        axon_error rerr;\n");
    if (nd) {
        buf_printf(p, "    for (int i = 0; i < %d; i++)\n        plan->node_max[i] = none;\n", nn);
        buf_printf(p, "    plan->ws_nodes = 0;\n");
    }
    buf_printf(p, "        int ok = %s_solve(in, rout, plan->node, &rd, 0, %s, 0, &rerr) == AXON_OK;\n", rname,
               nd ? "plan->node_max" : "0");
    /* (a size a nonzero finds: the buffers at its bound; an unbounded one
     * leaves the workspace unplanned) */
    const char *sizing = nd ? "plan->node_max" : "plan->node";
    if (nb) {
        Buf fi, la;
        buf_init(&fi, a);
        buf_init(&la, a);
        for (int i = 0; i < nb; i++) {
            RBuffer *rb = L->buffers.items[i];
            buf_printf(&fi, "%s%d", i ? ", " : "", rb->first);
            buf_printf(&la, "%s%d", i ? ", " : "", rb->last);
        }
        buf_printf(p, "        const int first[%d] = { %s };\n", nb, buf_str(&fi));
        buf_printf(p, "        const int last[%d] = { %s };\n", nb, buf_str(&la));
        buf_printf(p, "        int64_t el;\n");
        for (int i = 0; i < nb; i++) {
            RBuffer *rb = L->buffers.items[i];
            if (!rb->node) {
                buf_printf(p, "        plan->ws_size[%d] = 0;\n", i);
                continue;
            }
            LNode *n = rb->node;
            int es = n->elem == EL_DIMS ? 1 : elem_size(n->elem);
            buf_printf(p, "        ok = ok && !axon__count(&%s[%d], %d, &el, &plan->ws_size[%d]) && el >= 0;\n", sizing,
                       n->id, es, i);
        }
        buf_printf(p, "        if (ok)\n            plan->workspace_bytes = axon__plan_workspace(%d, plan->ws_size, first, "
                      "last, plan->ws_offset, plan->ws_order);\n", nb);
        if (max_total >= 0) {
            /* the placement at the largest sizes holds any smaller ones:
             * used where the greedy one for these sizes would need more */
            Buf o;
            buf_init(&o, a);
            for (int i = 0; i < nb; i++)
                buf_printf(&o, "%sINT64_C(%lld)", i ? ", " : "", (long long)max_off[i]);
            buf_printf(p, "        if (plan->workspace_bytes > INT64_C(%lld)) {\n", (long long)max_total);
            buf_printf(p, "            const int64_t at_max[%d] = { %s };\n", nb, buf_str(&o));
            buf_printf(p, "            for (int i = 0; i < %d; i++)\n                plan->ws_offset[i] = at_max[i];\n", nb);
            buf_printf(p, "            plan->workspace_bytes = INT64_C(%lld);\n        }\n", (long long)max_total);
        }
        buf_printf(p, "        (void)el;\n");
    } else {
        buf_printf(p, "        if (ok)\n            plan->workspace_bytes = 0;\n");
    }
    if (nd) {
        /* run()'s own shapes after a nonzero, at the workspace's end */
        buf_printf(p, "        if (plan->workspace_bytes >= 0 && plan->workspace_bytes <= INT64_MAX / 2) {\n");
        buf_printf(p, "            plan->ws_nodes = (plan->workspace_bytes + 63) / 64 * 64;\n");
        buf_printf(p, "            plan->workspace_bytes = plan->ws_nodes + (int64_t)sizeof(axon_shape) * %d;\n        }\n",
                   nn);
    }
    buf_printf(p, "        (void)rd;\n        (void)rerr;\n    }\n");

    /* the declaration */
    rc->uses_externs = f->externs.n > 0;
    /* (each function's once; the table below takes each once) */
    for (int i = 0; i < f->externs.n; i++)
        pv_push(a, &k->externs, f->externs.items[i]);
    const char *ext_param = rc->uses_externs ? ar_printf(a, "const %s_externs *ext, ", prefix) : "";
    buf_printf(&rc->decl, "/* Runs %s on the inputs in[] (tensors dense, row-major, in parameter order; a dims\n"
                          " * input has no data) into the outputs out[] (plan->out_bytes[i] each), with\n"
                          " * plan->workspace_bytes of scratch at workspace, for the shapes prepare() checked.\n"
                          " * Returns AXON_OK, or a data error (spec section 9b) with *err filled.  Defined\n"
                          " * where %s_IMPLEMENTATION is (docs/c-api.md). */\n",
               b->item->name, upper(a, prefix));
    if (nd)
        buf_printf(&rc->decl, "/* After %s_run(): the outputs' shapes, with the sizes that its nonzeros found\n"
                              " * (their buffers have room for their largest, plan->out_max_bytes), read from the\n"
                              " * workspace that run() used (until it is used again). */\n"
                              "AXON_RUN_API void %s_run_shapes(const %s_plan *plan, const void *workspace, axon_shape out[]);\n",
                   cname, cname, cname);
    buf_printf(&rc->decl, "AXON_RUN_API int %s_run(const %s_plan *plan, const void *const in[], void *const out[], "
                          "void *workspace, %saxon_error *err);\n", cname, cname, ext_param);

    /* the implementation: the view function, then run() */
    R *rr = &r;
    rr->out = &rc->impl;
    rr->indent = -1;
    put(rr, "AXON_RUN_FN void %s__view(const %s_plan *plan, const axon_shape *node, const void *const in[],",
        cname, cname);
    put(rr, "                     void *const out[], char *ws, const int64_t *it, int n, axon_tensor *v)");
    put(rr, "{");
    rr->indent++;
    put(rr, "(void)plan; (void)in; (void)out; (void)ws; (void)it;");
    put(rr, "switch (n) {");
    for (int i = 0; i < nn; i++)
        view_case(rr, f->nodes.items[i]);
    put(rr, "default: v->data = 0; v->rank = 0; return;");
    put(rr, "}");
    rr->indent--;
    put(rr, "}");
    buf_putc(&rc->impl, '\n');
    put(rr, "AXON_RUN_API int %s_run(const %s_plan *plan, const void *const in[], void *const out[], void *workspace,",
        cname, cname);
    put(rr, "                 %saxon_error *err)", ext_param);
    put(rr, "{");
    rr->indent++;
    /* the body first: what it reads decides the locals it needs */
    Buf body;
    buf_init(&body, a);
    rr->out = &body;
    block_code(rr, &f->body);
    for (int i = 0; i < L->copies.n; i++) {
        LNode *n = L->copies.items[i];
        int to = L->copy_to[i];
        put(rr, "{   /* output %d */", to + 1);
        rr->indent++;
        put(rr, "axon_tensor o;");
        put(rr, "axon__dense_view(out[%d], %d, &node[%d], &o);", to, n->elem == EL_DIMS ? 1 : elem_size(n->elem),
            n->id);
        copy_into(rr, n, "o");
        rr->indent--;
        put(rr, "}");
    }
    rr->out = &rc->impl;
    const char *bt = buf_str(&body);
    if (max_total >= 0) {
        /* the buffers at their largest, then the scratch of the steps that
         * need most, at the largest sizes, for AXON_MAX_THREADS threads */
        Buf d;
        buf_init(&d, a);
        int64_t at = (max_total + 63) / 64 * 64;
        int scratch = r.bounded_fast && r.most.fixed <= INT64_MAX / 4 - at && r.most.per_thread <= INT64_MAX / 4 / 4096;
        buf_printf(&d, "/* The most workspace %s_run() needs, whatever the sizes its where clauses allow%s. */\n", cname,
                   scratch ? " (with the fast kernels' scratch for AXON_MAX_THREADS threads, unless AXON_NO_FAST)" : "");
        if (scratch)
            buf_printf(&d, "#ifdef AXON_NO_FAST\n#define %s_WORKSPACE_BYTES_MAX INT64_C(%lld)\n#else\n"
                           "#define %s_WORKSPACE_BYTES_MAX (INT64_C(%lld) + INT64_C(%lld) * AXON_MAX_THREADS)\n#endif\n",
                       cname, (long long)max_total, cname, (long long)(at + r.most.fixed), (long long)r.most.per_thread);
        else
            buf_printf(&d, "#define %s_WORKSPACE_BYTES_MAX INT64_C(%lld)\n", cname, (long long)max_total);
        buf_puts(&d, buf_str(&rc->solve));
        rc->solve = d;
    }
    /* prepare(): the scratch of the step that needs most, after the buffers */
    buf_printf(&rc->prepare, "    plan->ws_scratch = 0;\n    plan->ws_scratch_bytes = 0;\n");
    if (r.scratch.n) {
        buf_printf(&rc->prepare, "#ifndef AXON_NO_FAST\n    if (plan->workspace_bytes >= 0) {   /* (the fast kernels' "
                                 "scratch) */\n        int64_t scr = 0, s;\n");
        buf_puts(&rc->prepare, buf_str(&r.scratch));
        if (r.bounded)      /* (a bounded function: in its bound, or none) */
            buf_printf(&rc->prepare, "        if (scr > %s_WORKSPACE_BYTES_MAX - (plan->workspace_bytes + 63) / 64 * 64)\n"
                                     "            scr = 0;\n", cname);
        buf_printf(&rc->prepare, "        if (scr > 0 && plan->workspace_bytes > INT64_MAX - 64 - scr)\n"
                                 "            plan->workspace_bytes = -1;\n"
                                 "        else if (scr > 0) {\n"
                                 "            plan->ws_scratch = (plan->workspace_bytes + 63) / 64 * 64;\n"
                                 "            plan->ws_scratch_bytes = scr;\n"
                                 "            plan->workspace_bytes = plan->ws_scratch + scr;\n        }\n    }\n#endif\n");
    }
    /* (nvcc warns of a local set and not read, a cast to void or not) */
    int views = strstr(bt, "__view(") != NULL;
    int uses_ws = views || strstr(bt, "ws +") != NULL;
    int uses_node = views || strstr(bt, "node[") != NULL || strstr(bt, "node = ") != NULL;
    if (uses_ws)
        put(rr, "char *ws = (char *)workspace;");
    else
        put(rr, "(void)workspace;");
    put(rr, "if (plan->workspace_bytes < 0)");
    put(rr, "    return axon__fail(err, AXON_ERR_OVERFLOW, 0, 0, \"%s: the tensors that run() computes for these "
            "shapes have more bytes than int64 can count\", 0, 0, 0, 0);", b->item->name);
    if (uses_node)
        put(rr, "const axon_shape *node = plan->node;");
    if (nd) {
        put(rr, "int64_t dyn[%d];", nd);
        for (int i = 0; i < nd; i++)
            put(rr, "dyn[%d] = AXON_DIM_UNKNOWN;   /* (until its nonzero runs) */", i);
    }
    if (views && L->max_depth)
        put(rr, "int64_t it[%d] = { 0 };", L->max_depth);
    else if (views)
        put(rr, "const int64_t *it = 0;   /* (no loop) */");
    put(rr, "(void)in; (void)out; (void)err;%s", rc->uses_externs ? " (void)ext;" : "");
    buf_puts(&rc->impl, bt);
    put(rr, "return AXON_OK;");
    rr->indent--;
    put(rr, "}");
    if (nd) {
        buf_putc(&rc->impl, '\n');
        put(rr, "AXON_RUN_API void %s_run_shapes(const %s_plan *plan, const void *workspace, axon_shape out[])", cname,
            cname);
        put(rr, "{");
        rr->indent++;
        put(rr, "const axon_shape *node = (const axon_shape *)(const void *)((const char *)workspace + plan->ws_nodes);");
        for (int i = 0; i < f->outputs.n; i++)
            put(rr, "out[%d] = node[%d];", i, ((LNode *)f->outputs.items[i])->id);
        put(rr, "(void)node;");
        rr->indent--;
        put(rr, "}");
    }
}

/* ---- the shared parts ------------------------------------------------------- */

static void put_file(Buf *out, const char *text)
{
    buf_puts(out, text);
    if (out->n && out->p[out->n - 1] != '\n')
        buf_putc(out, '\n');
}

void emit_run_shared(Compilation *cp, const RunKernels *k, const char *prefix, Buf *out)
{
    if (!k->any)
        return;
    buf_puts(out, "#ifndef AXON_KERNELS_H\n");
    put_file(out, axon_kernels_h);
    buf_puts(out, "#endif\n");
    /* (prepare() calls the planner: host and device code, as prepare is) */
    buf_puts(out, "#ifndef AXON__WORKSPACE_C_1\n#define AXON__WORKSPACE_C_1\n#undef AXON_RUN_FN\n"
                  "#define AXON_RUN_FN AXON_FN\n");
    put_file(out, axon_k_workspace);
    buf_puts(out, "#undef AXON_RUN_FN\n#if defined(__CUDACC__)\n#define AXON_RUN_FN static inline __host__\n#else\n"
                  "#define AXON_RUN_FN static inline\n#endif\n#endif\n");
    buf_printf(out, "#if defined(__cplusplus)\n#define AXON_RUN_API extern \"C\"\n#else\n#define AXON_RUN_API\n#endif\n");
    /* (what prepare() needs of the fast kernels: their scratch) */
    int fast_any = 0;
    for (int i = 0; i < FF_COUNT; i++)
        fast_any |= k->fast[i];
    if (fast_any) {
        buf_puts(out, "#ifndef AXON_NO_FAST\n");
        put_file(out, axon_fast_h);
        buf_puts(out, "#endif\n");
    }
    if (k->externs.n) {
        buf_printf(out, "\n/* The externs that run() calls: fill one and pass it to run() (docs/c-api.md).\n"
                        " * Each gets its operands (a dims operand: data NULL, its values as dims) and\n"
                        " * its outputs, shaped and with room, to fill; it returns AXON_OK or a status\n"
                        " * with *err filled. */\n");
        buf_printf(out, "typedef struct %s_externs {\n    void *ctx;\n", prefix);
        /* (in the order the program declares them; k->externs by name,
         * not searched for each item: N externs were N * N) */
        Symtab used;
        st_init(&used, &cp->arena);
        for (int i = 0; i < k->externs.n; i++)
            st_put(&used, ((Item *)k->externs.items[i])->name, k->externs.items[i]);
        for (int j = 0; j < cp->checked.bindings.n; j++) {
            Item *it = ((Binding *)cp->checked.bindings.items[j])->item;
            if (st_get(&used, it->name) != it)
                continue;
            buf_printf(out, "    int (*%s)(void *ctx, const axon_tensor *in, int nin, const axon_tensor *out, int nout,\n"
                            "        axon_error *err);\n", cn_spell(&cp->arena, it->name, CN_FUNCTION));
        }
        buf_printf(out, "} %s_externs;\n", prefix);
    }
}

/* The fast f32 files that the header's run() calls (after the references
 * they fall back to), each once per translation unit; none where
 * AXON_NO_FAST is defined. */
static void emit_fast_kernels(const RunKernels *k, Buf *out)
{
    int mm = k->fast[FF_MATMUL], cv = k->fast[FF_CONV], pl = k->fast[FF_POOL], nm = k->fast[FF_NORM];
    int rd = k->fast[FF_REDUCE];
    const struct { int use; const char *guard; const char *text; } files[] = {
        { mm || cv, "GEMM", axon_f_gemm },
        { mm, "MATMUL", axon_f_matmul },
        { cv || pl || nm || rd, "VEC", axon_f_vec },
        { cv, "CONV", axon_f_conv },
        { pl, "POOL", axon_f_pool },
        { nm, "NORM", axon_f_norm },
        { rd, "REDUCE", axon_f_reduce },
    };
    if (!(mm || cv || pl || nm || rd))
        return;
    buf_puts(out, "#ifndef AXON_NO_FAST\n");
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        if (!files[i].use)
            continue;
        buf_printf(out, "#ifndef AXON__FAST_%s_1\n#define AXON__FAST_%s_1\n", files[i].guard, files[i].guard);
        put_file(out, files[i].text);
        buf_puts(out, "#endif\n");
    }
    buf_puts(out, "#endif\n");
}

void emit_run_kernels(Compilation *cp, const RunKernels *k, Buf *out)
{
    (void)cp;
    const char *texts[KF_COUNT] = { axon_k_elementwise, axon_k_matmul, axon_k_einsum, axon_k_reduce,
                                    axon_k_conv, axon_k_pool, axon_k_norm, axon_k_index };
    buf_puts(out, "#ifndef AXON__KERNELS_SHARED_1\n#define AXON__KERNELS_SHARED_1\n");
    buf_puts(out, "#include <math.h>\n");
    put_file(out, axon_k_types);
    put_file(out, axon_k_tensor);
    put_file(out, axon_k_convert);
    put_file(out, axon_run_spec);
    put_file(out, axon_run_fused);
    buf_puts(out, "#endif\n");
    for (int f = 0; f < KF_COUNT; f++)
        for (int e = 0; e < EL_DIMS; e++) {
            if (!k->need[f][e])
                continue;
            const char *t = elem_name(e);
            char up[8];
            size_t i = 0;
            for (; t[i] && i < sizeof up - 1; i++)
                up[i] = (char)(t[i] >= 'a' && t[i] <= 'z' ? t[i] - 'a' + 'A' : t[i]);
            up[i] = 0;
            buf_printf(out, "#ifndef AXON__K_%s_%s_1\n#define AXON__K_%s_%s_1\n", kf_names[f], up, kf_names[f], up);
            buf_printf(out, "#define AXON_T AXON__%s_T\n#define AXON_K(n) axon__k_##n##_%s\n", up, t);
            buf_printf(out, "#define AXON_FLT AXON__%s_FLT\n#define AXON_ACC AXON__%s_ACC\n", up, up);
            buf_printf(out, "#define AXON_LD AXON__%s_LD\n#define AXON_ST AXON__%s_ST\n", up, up);
            buf_printf(out, "#define AXON_TYPE AXON__%s_TYPE\n", up);
            put_file(out, texts[f]);
            buf_puts(out, "#undef AXON_T\n#undef AXON_K\n#undef AXON_FLT\n#undef AXON_ACC\n#undef AXON_LD\n"
                          "#undef AXON_ST\n#undef AXON_TYPE\n#endif\n");
        }
    emit_fast_kernels(k, out);
}
