/* emit_fused.c - a chain of f32 element-wise operators computed in one
 * loop (emit_run_int.h; buffers.h decides which nodes are fused). */
#include "emit_fused.h"

#include <string.h>

#include "dim.h"
#include "types.h"

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
    else e = ar_printf(r->a, "(float)axon__k_unary_double_f32(AXON_OP_%s, (double)%s)", kernels_unop_names[kernels_unop(op)], x);
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
void er_fused_code(R *r, LNode *n)
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
    er_put(r, "{   /* %s, fused */", n->op);
    r->indent++;
    const char *o = er_view(r, n);
    int nl = fu.leaves.n;
    for (int i = 0; i < nl; i++) {
        LNode *x = fu.leaves.items[i];
        er_put(r, "axon_tensor a%d;", i);
        er_put(r, "%s__view(plan, node, in, out, ws, it, %d, &a%d);", r->cname, x->id, i);
        er_put(r, "axon__broadcast_view(&a%d, &node[%d], &a%d);", i, n->id, i);
    }
    er_put(r, "int rk = %s.rank;", o);
    er_put(r, "int64_t inner = rk ? %s.dims[rk - 1] : 1, so = rk ? %s.strides[rk - 1] : 0;", o, o);
    for (int i = 0; i < nl; i++)
        er_put(r, "int64_t s%d = rk ? a%d.strides[rk - 1] : 0;", i, i);
    /* the rows (every axis but the last) by an odometer of our own: any
     * number of operands, each offset moved by its stride */
    er_put(r, "int64_t rows = inner > 0 ? 1 : 0;");
    er_put(r, "for (int k = 0; k + 1 < rk; k++)");
    er_put(r, "    rows *= %s.dims[k] > 0 ? %s.dims[k] : 0;", o, o);
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
    er_put(r, "int unit = %s;", buf_str(&cond));
    /* the rows shared out between threads (OpenMP, a large enough loop):
     * each element computed the same way whichever thread has it */
    buf_puts(r->out, "#ifdef _OPENMP\n");
    er_put(r, "int nth = rows > 1 && rows * inner >= AXON__FUSED_PAR_MIN ? axon__fused_threads(rows) : 1;");
    buf_puts(r->out, "#endif\n");
    /* the block twice: in a parallel region where there are threads, as
     * it is where there are not (entering a region costs a microsecond
     * even on one thread) */
    Buf *outer = r->out, blk;
    buf_init(&blk, r->a);
    r->out = &blk;
    er_put(r, "{");
    r->indent++;
    er_put(r, "int64_t e0 = 0, e1 = rows, ix[AXON_MAX_RANK];");
    Buf offs;
    buf_init(&offs, r->a);
    buf_puts(&offs, "int64_t oo = 0");
    for (int i = 0; i < nl; i++)
        buf_printf(&offs, ", o%d = 0", i);
    er_put(r, "%s;", buf_str(&offs));
    buf_puts(r->out, "#ifdef _OPENMP\n");
    er_put(r, "if (nth > 1) {");
    er_put(r, "    const int t = omp_get_thread_num();");
    er_put(r, "    e0 = rows / nth * t + (t < rows %% nth ? t : rows %% nth);");
    er_put(r, "    e1 = e0 + rows / nth + (t < rows %% nth);");
    er_put(r, "}");
    buf_puts(r->out, "#endif\n");
    /* the odometer at row e0 */
    Buf seek;
    buf_init(&seek, r->a);
    buf_printf(&seek, "oo += ix[k] * %s.strides[k];", o);
    for (int i = 0; i < nl; i++)
        buf_printf(&seek, " o%d += ix[k] * a%d.strides[k];", i, i);
    er_put(r, "for (int64_t k = rk - 2, q = e0; k >= 0; k--) {");
    er_put(r, "    ix[k] = q > 0 ? q %% %s.dims[k] : 0;", o);
    er_put(r, "    q = q > 0 ? q / %s.dims[k] : 0;", o);
    er_put(r, "    %s", buf_str(&seek));
    er_put(r, "}");
    er_put(r, "for (int64_t e = e0; e < e1; e++) {");
    r->indent++;
    er_put(r, "float *po = (float *)%s.data + oo;", o);
    for (int i = 0; i < nl; i++)
        er_put(r, "const float *l%d = (const float *)a%d.data + o%d;", i, i, i);
    /* the same body twice: unit strides (constants the compiler sees), then any */
    for (int pass = 0; pass < 2; pass++) {
        er_put(r, pass == 0 ? "if (unit) {" : "} else {");
        r->indent++;
        if (pass == 0)
            for (int i = 0; i < nl; i++)
                er_put(r, "const int64_t s%d = %d;", i, row_const[i] ? 0 : 1);
        er_put(r, "for (int64_t j = 0; j < inner; j++) {");
        r->indent++;
        const char *p = buf_str(&fu.code);
        while (*p) {
            const char *nl2 = strchr(p, '\n');
            size_t len = nl2 ? (size_t)(nl2 - p) : strlen(p);
            er_put(r, "%.*s", (int)len, p);
            p += len + (nl2 != NULL);
        }
        er_put(r, pass == 0 ? "po[j] = %s;" : "po[j * so] = %s;", res);
        r->indent--;
        er_put(r, "}");
        r->indent--;
    }
    er_put(r, "}");
    /* the next row */
    er_put(r, "for (int k = rk - 2; k >= 0; k--) {");
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
    er_put(r, "%s", buf_str(&step));
    er_put(r, "if (++ix[k] < %s.dims[k])", o);
    er_put(r, "    break;");
    er_put(r, "%s", buf_str(&back));
    er_put(r, "ix[k] = 0;");
    r->indent--;
    er_put(r, "}");
    r->indent--;
    er_put(r, "}");
    r->indent--;
    er_put(r, "}");
    r->out = outer;
    buf_puts(r->out, "#ifdef _OPENMP\n");
    er_put(r, "if (nth > 1) {");
    er_put(r, "#pragma omp parallel num_threads(nth)");
    buf_puts(r->out, buf_str(&blk));
    er_put(r, "} else");
    buf_puts(r->out, "#endif\n");
    buf_puts(r->out, buf_str(&blk));
    r->indent--;
    er_put(r, "}");
}