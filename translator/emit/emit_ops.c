/* emit_ops.c - run()'s steps (emit_ops.h): each operator's kernel
 * call as kernels.c chose it, the views a step reads, literals, externs,
 * loops, and P_NAME__view's case for each node. */
#include "emit_ops.h"

#include <string.h>

#include "cnames.h"
#include "emit_fused.h"
#include "types.h"

/* The axis of an axis argument (a dims node's value), counted from the end
 * when negative (docs/language.md). */
static const char *axis_of(R *r, LNode *d, const char *rank)
{
    const char *k = ar_printf(r->a, "k%d", r->tmp++);
    er_put(r, "int %s = (int)%s;", k, er_dimval(r, d, 0));
    er_put(r, "if (%s < 0) %s += %s;", k, k, rank);
    return k;
}

/* ---- the view function -------------------------------------------------- */

/* How node n's view is made from what it is a view of (its case in
 * P_NAME__view). */
void er_view_case(R *r, LNode *n)
{
    NodeInfo *in = &r->L->info[n->id];
    int es = n->elem == EL_DIMS ? 0 : elem_size(n->elem);
    switch (in->store) {
    case NS_DIMS:
        return;
    case NS_INPUT:
        er_put(r, "case %d: axon__dense_view((void *)in[%d], %d, &node[%d], v); return;", n->id, in->index, es,
            n->id);
        return;
    case NS_OUTPUT:
        er_put(r, "case %d: axon__dense_view(out[%d], %d, &node[%d], v); return;", n->id, in->index, es, n->id);
        return;
    case NS_BUFFER:
        er_put(r, "case %d: axon__dense_view(ws + plan->ws_offset[%d], %d, &node[%d], v); return;", n->id,
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
            er_put(r, "case %d: %s__view(plan, node, in, out, ws, it, %d, v); return;", n->id, r->cname, s->id);
        } else {
            LNode *x = L->xs[n->index - L->nstate];
            er_put(r, "case %d: %s__view(plan, node, in, out, ws, it, %d, v); axon__index_view(v, it[%d], %d, v); return;",
                n->id, r->cname, x->id, depth, elem_size(x->elem));
        }
        return;
    }
    LNode *x = n->args[0];
    er_put(r, "case %d: /* %s */", n->id, n->op);
    r->indent++;
    er_put(r, "%s__view(plan, node, in, out, ws, it, %d, v);", r->cname, x->id);
    const char *op = n->op;
    if (!strcmp(op, "transpose")) {
        er_put(r, "axon__swap_view(v, v->rank - 2, v->rank - 1, v);");
    } else if (!strcmp(op, "reverse")) {
        er_put(r, "axon__reverse_view(v, %d, v);", elem_size(n->elem));
    } else if (!strcmp(op, "slice")) {
        er_put(r, "{");
        r->indent++;
        const char *k = axis_of(r, n->args[1], "v->rank");
        er_put(r, "axon__slice_view(v, %s, %s, %s, %d, v);", k, er_dimval(r, n->args[2], 0), er_dimval(r, n->args[3], 0),
            elem_size(n->elem));
        r->indent--;
        er_put(r, "}");
    } else if (!strcmp(op, "expand")) {
        er_put(r, "axon__broadcast_view(v, &node[%d], v);", n->id);
    } else if (!strcmp(op, "reshape") || !strcmp(op, "flatten")) {
        er_put(r, "axon__dense_view(v->data, %d, &node[%d], v);", elem_size(n->elem), n->id);
    } else if (!strcmp(op, "einsum")) {
        int perm[64], rank;
        lower_spec_permutation(n->spec, perm, &rank);
        Buf p;
        buf_init(&p, r->a);
        for (int i = 0; i < rank; i++)
            buf_printf(&p, "%s%d", i ? ", " : "", perm[i]);
        er_put(r, "{ static const int perm[%d] = { %s }; axon__permute_view(v, perm, v); }", rank, buf_str(&p));
    }
    /* (a conversion to the same type: the operand as it is) */
    er_put(r, "return;");
    r->indent--;
}

/* ---- the operators -------------------------------------------------------- */

/* prepare()'s scratch of a two-operand einsum: its products' rows, columns
 * and sum from the spec where it names every axis ("bnd,bmd->bnm": rows
 * n, columns m, sum d), else the bound from the operands' sizes. */
static const char *einsum_scratch(R *r, LNode *n)
{
    unsigned char in[256] = { 0 };
    LNode *of[256] = { 0 };
    int pos[256];
    if (!kernels_einsum_labels(n, in, of, pos))
        return ar_printf(r->a, "axon__f_einsum_scratch(2, %s, %s, %s)", er_pshape(r, n->args[0]), er_pshape(r, n->args[1]),
                         er_pshape(r, n));
    const char *mck[3] = { "1", "1", "1" };
    for (int l = 0; l < 256; l++)
        for (int g = 0; g < 3 && in[l]; g++)
            if (kernels_einsum_group(in[l]) & (1 << g))
                mck[g] = ar_printf(r->a, "axon__f_sat(%s, plan->node[%d].dims[%d])", mck[g], of[l]->id, pos[l]);
    return ar_printf(r->a, "axon__f_einsum_scratch_mnk(%s, %s, %s)", mck[0], mck[1], mck[2]);
}

/* matmul (and linear, x and o viewed as its batched product): the fast
 * f32 product where it may run. */
static void matmul_call(R *r, LNode *n, const char *x, const char *y, const char *o)
{
    const char *ref = ar_printf(r->a, "axon__k_matmul_%s(&%s, &%s, &%s);", er_tn(n->elem), x, y, o);
    if (!r->rp->kernels.fast[n->id]) {
        er_put(r, "%s", ref);
        return;
    }
    er_fast_or_ref(r, ar_printf(r->a, "axon__f_matmul(&%s, &%s, &%s, ws + plan->ws_scratch, plan->ws_scratch_bytes);", x, y, o), ref, 1);
    er_scratch_for(r, ar_printf(r->a, "axon__f_matmul_scratch(%s, %s, %s)", er_pshape(r, n->args[0]), er_pshape(r, n->args[1]),
                             er_pshape(r, n)));
}

/* out view v, and the operands' views; writes the kernel call of node n. */
static void op_code(R *r, LNode *n)
{
    const char *op = n->op;
    const char *T = er_tn(n->elem);
    NodeInfo *in = &r->L->info[n->id];
    if (!strcmp(op, "topk.indices"))
        return;                                 /* written by topk */
    if (in->store == NS_VIEW || in->fused)
        return;                                 /* nothing to compute here */
    if (layout_fuses(r->L, n)) {
        er_fused_code(r, n);
        return;
    }
    er_put(r, "{   /* %s */", op);
    r->indent++;
    const char *o = er_view(r, n);
    int u;
    const char *b;
    if (in->copy) {
        /* a reshape of data that is not dense: copied first, with its own shape */
        LNode *x = n->args[0];
        const char *xv = er_view(r, x);
        er_put(r, "axon_tensor d;");
        er_put(r, "axon__dense_view(%s.data, %d, &node[%d], &d);", o, elem_size(n->elem), x->id);
        er_put(r, "axon__k_copy_%s(&%s, &d);", T, xv);
    } else if ((u = kernels_unop(op)) >= 0) {
        const char *x = er_view(r, n->args[0]);
        er_put(r, "axon__k_unary_%s(AXON_OP_%s, &%s, &%s);", T, kernels_unop_names[u], x, o);
    } else if ((b = kernels_binop(op)) != NULL) {
        const char *x = er_view(r, n->args[0]), *y = er_view(r, n->args[1]);
        er_put(r, "axon__broadcast_view(&%s, &node[%d], &%s);", x, n->id, x);
        er_put(r, "axon__broadcast_view(&%s, &node[%d], &%s);", y, n->id, y);
        const char *at = er_site(r, n, "an integer division by zero (at element {} of the result)");
        er_put(r, "if (axon__k_binary_%s(AXON_OP_%s, &%s, &%s, &%s, &%s, err) != AXON_OK) return err ? err->status : "
            "AXON_ERR_ZERO_DIVISION;", T, b, x, y, o, at);
    } else if ((b = kernels_cmpop(op)) != NULL) {
        const char *x = er_view(r, n->args[0]), *y = er_view(r, n->args[1]);
        er_put(r, "axon__broadcast_view(&%s, &node[%d], &%s);", x, n->id, x);
        er_put(r, "axon__broadcast_view(&%s, &node[%d], &%s);", y, n->id, y);
        er_put(r, "axon__k_compare_%s(AXON_OP_%s, &%s, &%s, &%s);", er_tn(n->args[0]->elem), b, x, y, o);
    } else if (!strcmp(op, "select")) {
        const char *cv = er_view(r, n->args[0]), *x = er_view(r, n->args[1]), *y = er_view(r, n->args[2]);
        for (int i = 0; i < 3; i++) {
            const char *v = i == 0 ? cv : i == 1 ? x : y;
            er_put(r, "axon__broadcast_view(&%s, &node[%d], &%s);", v, n->id, v);
        }
        er_put(r, "axon__k_select_%s(&%s, &%s, &%s, &%s);", T, cv, x, y, o);
    } else if (kernels_is_conversion(op)) {
        const char *x = er_view(r, n->args[0]);
        er_put(r, "axon__convert(&%s, %d, &%s, %d);", x, n->args[0]->elem, o, n->elem);
    } else if (!strcmp(op, "matmul")) {
        const char *x = er_view(r, n->args[0]), *y = er_view(r, n->args[1]);
        matmul_call(r, n, x, y, o);
    } else if (!strcmp(op, "linear")) {
        /* x [s, k] as [s, 1, k] by W [k, m] broadcast over s: [s, 1, m] */
        const char *x = er_view(r, n->args[0]), *y = er_view(r, n->args[1]);
        er_put(r, "axon__unit_view(&%s, %s.rank - 1, &%s);", x, x, x);
        er_put(r, "axon__unit_view(&%s, %s.rank - 1, &%s);", o, o, o);
        er_put(r, "{");
        r->indent++;
        er_put(r, "axon_shape to;");
        er_put(r, "to.rank = %s.rank;", o);
        er_put(r, "for (int i = 0; i < to.rank; i++) to.dims[i] = %s.dims[i];", o);
        er_put(r, "to.dims[to.rank - 2] = %s.dims[0];", y);
        er_put(r, "axon__broadcast_view(&%s, &to, &%s);", y, y);
        r->indent--;
        er_put(r, "}");
        matmul_call(r, n, x, y, o);
    } else if (!strcmp(op, "conv") || !strncmp(op, "conv1d", 6) || !strncmp(op, "conv2d", 6)) {
        const char *x = er_view(r, n->args[0]), *w = er_view(r, n->args[1]);
        int one_d = !strncmp(op, "conv1d", 6), grouped = strstr(op, "grouped") != NULL;
        if (one_d) {
            er_put(r, "axon__unit_view(&%s, 2, &%s);", x, x);
            er_put(r, "axon__unit_view(&%s, 2, &%s);", w, w);
            er_put(r, "axon__unit_view(&%s, 2, &%s);", o, o);
        }
        const char *v[4][2];        /* stride, padding, dilation, groups */
        for (int q = 0; q < 4; q++)
            for (int i = 0; i < 2; i++) {
                int j = 0;
                LNode *a = kernels_conv_param(n, one_d, grouped, q, i, &j);
                v[q][i] = a ? er_dimval(r, a, j) : ar_printf(r->a, "%lld", (long long)kernels_conv_default[q]);
            }
        const char *const *s = v[0], *const *p = v[1], *const *d = v[2], *g = v[3][0];
        er_put(r, "{ const int64_t s[2] = { %s, %s }, p[2] = { %s, %s }, d[2] = { %s, %s };", s[0], s[1], p[0], p[1], d[0],
            d[1]);
        r->indent++;
        const char *ref = ar_printf(r->a, "axon__k_conv2d_%s(&%s, &%s, &%s, s, p, d, %s);", T, x, w, o, g);
        if (r->rp->kernels.fast[n->id]) {
            er_fast_or_ref(r, ar_printf(r->a, "axon__f_conv2d(&%s, &%s, &%s, s, p, d, %s, ws + plan->ws_scratch);", x,
                                     w, o, g), ref, 1);
            er_scratch_for(r, ar_printf(r->a, "axon__f_conv_scratch(%s, %s, %s, %d, %s, %s, %s, %s, %s, %s, %s)",
                                     er_pshape(r, n->args[0]), er_pshape(r, n->args[1]), er_pshape(r, n), one_d,
                                     er_pdims(r, s[0]), er_pdims(r, s[1]), er_pdims(r, p[0]), er_pdims(r, p[1]), er_pdims(r, d[0]),
                                     er_pdims(r, d[1]), er_pdims(r, g)));
        } else {
            er_put(r, "%s", ref);
        }
        r->indent--;
        er_put(r, "}");
    } else if (!strncmp(op, "maxpool", 7) || !strncmp(op, "avgpool", 7)) {
        const char *x = er_view(r, n->args[0]);
        int one_d = strstr(op, "1d") != NULL;
        if (one_d) {
            er_put(r, "axon__unit_view(&%s, 2, &%s);", x, x);
            er_put(r, "axon__unit_view(&%s, 2, &%s);", o, o);
        }
        const char *wd[2], *s[2], *p[2];
        for (int i = 0; i < 2; i++) {
            int j = one_d ? 0 : i;
            int unit = one_d && i == 0;
            wd[i] = unit ? "1" : er_dimval(r, n->args[1], j);
            s[i] = unit ? "1" : er_dimval(r, n->args[2], j);
            p[i] = unit ? "0" : er_dimval(r, n->args[3], j);
        }
        er_put(r, "{ const int64_t w[2] = { %s, %s }, s[2] = { %s, %s }, p[2] = { %s, %s };", wd[0], wd[1], s[0], s[1],
            p[0], p[1]);
        const char *ref = ar_printf(r->a, "  axon__k_pool2d_%s(AXON_RED_%s, &%s, &%s, w, s, p); }", T,
                                    op[0] == 'm' ? "MAX" : "MEAN", x, o);
        if (r->rp->kernels.fast[n->id])
            er_fast_or_ref(r, ar_printf(r->a, "  axon__f_pool2d(AXON_RED_%s, &%s, &%s, w, s, p); }",
                                     op[0] == 'm' ? "MAX" : "MEAN", x, o), ref, 0);
        else
            er_put(r, "%s", ref);
    } else if (!strcmp(op, "upsample2d")) {
        const char *x = er_view(r, n->args[0]);
        er_put(r, "{ const int64_t f[2] = { %s, %s };", er_dimval(r, n->args[1], 0), er_dimval(r, n->args[1], 1));
        const char *ref = ar_printf(r->a, "  axon__k_upsample2d_%s(&%s, &%s, f); }", T, x, o);
        if (r->rp->kernels.fast[n->id])
            er_fast_or_ref(r, ar_printf(r->a, "  axon__f_upsample2d(&%s, &%s, f); }", x, o), ref, 0);
        else
            er_put(r, "%s", ref);
    } else if (!strcmp(op, "pad2d")) {
        const char *x = er_view(r, n->args[0]);
        er_put(r, "axon__k_fill_%s(&%s, 0);", T, o);
        er_put(r, "axon__slice_view(&%s, 2, %s, %s.dims[2] - %s, %d, &%s);", o, er_dimval(r, n->args[1], 0), o,
            er_dimval(r, n->args[1], 1), elem_size(n->elem), o);
        er_put(r, "axon__slice_view(&%s, 3, %s, %s.dims[3] - %s, %d, &%s);", o, er_dimval(r, n->args[1], 2), o,
            er_dimval(r, n->args[1], 3), elem_size(n->elem), o);
        er_put(r, "axon__k_copy_%s(&%s, &%s);", T, x, o);
    } else if (!strcmp(op, "concat") || !strcmp(op, "concat_axis")) {
        /* each tensor copied into its part of the result: concat along
         * the first axis, concat_axis along its last argument's axis (any
         * number of tensors before it) */
        int nt = !strcmp(op, "concat") ? n->nargs : n->nargs - 1;
        const char *k = !strcmp(op, "concat") ? "0" : axis_of(r, n->args[nt], ar_printf(r->a, "%s.rank", o));
        er_put(r, "int64_t at = 0;");
        for (int t = 0; t < nt; t++) {
            er_put(r, "{");
            r->indent++;
            const char *x = er_view(r, n->args[t]);
            er_put(r, "axon_tensor part;");
            er_put(r, "axon__slice_view(&%s, %s, at, at + %s.dims[%s], %d, &part);", o, k, x, k, elem_size(n->elem));
            er_put(r, "axon__k_copy_%s(&%s, &part);", T, x);
            er_put(r, "at += %s.dims[%s];", x, k);
            r->indent--;
            er_put(r, "}");
        }
    } else if (!strcmp(op, "softmax") || !strcmp(op, "log_softmax")) {
        const char *x = er_view(r, n->args[0]);
        const char *ref = ar_printf(r->a, "axon__k_softmax_%s(%d, &%s, &%s);", T, op[0] == 'l', x, o);
        if (r->rp->kernels.fast[n->id])
            er_fast_or_ref(r, ar_printf(r->a, "axon__f_softmax(%d, &%s, &%s);", op[0] == 'l', x, o), ref, 0);
        else
            er_put(r, "%s", ref);
    } else if (!strcmp(op, "layernorm")) {
        const char *x = er_view(r, n->args[0]), *g = er_view(r, n->args[1]), *bb = er_view(r, n->args[2]);
        const char *ref = ar_printf(r->a, "axon__k_layernorm_%s(&%s, &%s, &%s, &%s);", T, x, g, bb, o);
        if (r->rp->kernels.fast[n->id])
            er_fast_or_ref(r, ar_printf(r->a, "axon__f_layernorm(&%s, &%s, &%s, &%s);", x, g, bb, o), ref, 0);
        else
            er_put(r, "%s", ref);
    } else if (!strcmp(op, "gather")) {
        const char *x = er_view(r, n->args[0]), *idx = er_view(r, n->args[1]);
        const char *at = er_site(r, n, "index {} at position {} of the indices is outside [0, {})");
        er_put(r, "if (axon__k_gather_%s(&%s, &%s, &%s, &%s, err) != AXON_OK) return err ? err->status : AXON_ERR_INDEX;",
            T, x, idx, o, at);
    } else if (!strcmp(op, "topk")) {
        const char *x = er_view(r, n->args[0]);
        LNode *ix = NULL;
        for (int i = n->id + 1; i < r->f->nodes.n && !ix; i++) {
            LNode *m = r->f->nodes.items[i];
            if (m->kind == LN_OP && !strcmp(m->op, "topk.indices") && m->args[0] == n)
                ix = m;
        }
        const char *iv = er_view(r, ix);
        er_put(r, "axon__k_topk_%s(&%s, &%s, &%s);", T, x, o, iv);
    } else if (!strcmp(op, "nonzero")) {
        /* the indices at its bound, then its size known: every shape after
         * it computed again, into run()'s own (the workspace's end) */
        int k = -1;
        for (int i = 0; i < r->rp->dyn.n; i++)
            if (r->rp->dyn_node[i] == n)
                k = i;
        const char *x = er_view(r, n->args[0]);
        er_put(r, "axon__dense_view(%s.data, %d, &plan->node_max[%d], &%s);", o, elem_size(n->elem), n->id, o);
        er_put(r, "dyn[%d] = axon__k_nonzero_%s(&%s, &%s);", k, er_tn(n->args[0]->elem), x, o);
        er_put(r, "{");
        r->indent++;
        int nin = r->f->inputs.n;
        er_put(r, "axon_shape ins[%d], rout[%d];", nin ? nin : 1, r->f->outputs.n ? r->f->outputs.n : 1);
        for (int i = 0; i < nin; i++)
            er_put(r, "ins[%d] = plan->node[%d];", i, ((LNode *)r->f->inputs.items[i])->id);
        er_put(r, "%s__rd_dims rd;", r->cname);
        er_put(r, "axon_error e2;");
        er_put(r, "axon_shape *dnode = (axon_shape *)(void *)(ws + plan->ws_nodes);");
        er_put(r, "int st = %s__rd_solve(ins, rout, dnode, &rd, 0, 0, dyn, err ? err : &e2);", r->cname);
        er_put(r, "if (st != AXON_OK)");
        er_put(r, "    return st;");
        er_put(r, "node = dnode;");
        er_put(r, "(void)rd;");
        r->indent--;
        er_put(r, "}");
    } else if (!strcmp(op, "arange")) {
        er_put(r, "axon__k_arange_%s(&%s);", T, o);
    } else if (!strcmp(op, "size")) {
        er_put(r, "axon__k_fill_%s(&%s, %s);", T, o, er_dimval(r, n->args[0], 0));
    } else if (!strcmp(op, "einsum")) {
        const char *x = er_view(r, n->args[0]), *y = n->nargs > 1 ? er_view(r, n->args[1]) : x;
        er_put(r, "{");
        r->indent++;
        er_put(r, "axon_tensor ops[2];");
        er_put(r, "int lab[2][AXON_MAX_RANK], olab[AXON_MAX_RANK];");
        er_put(r, "int64_t ld[AXON__MAX_LABELS];");
        er_put(r, "ops[0] = %s;", x);
        er_put(r, "ops[1] = %s;", y);
        er_put(r, "axon__einsum_setup(\"%s\", %d, ops, &%s, lab, olab, ld);", n->spec, n->nargs, o);
        er_put(r, "{ const axon_tensor *opp[2] = { &ops[0], &ops[1] }; const int *labp[2] = { lab[0], lab[1] };");
        r->indent++;
        const char *ref = ar_printf(r->a, "axon__k_einsum_%s(%d, opp, labp, &%s, olab, AXON__MAX_LABELS, ld);", T,
                                    n->nargs, o);
        if (n->nargs == 2 && r->rp->kernels.fast[n->id]) {
            er_fast_or_ref(r, ar_printf(r->a, "axon__f_einsum(2, opp, labp, &%s, olab, AXON__MAX_LABELS, ld, "
                                           "ws + plan->ws_scratch, plan->ws_scratch_bytes);", o), ref, 1);
            er_scratch_for(r, einsum_scratch(r, n));
        } else {
            er_put(r, "%s", ref);
        }
        r->indent--;
        er_put(r, "}");
        r->indent--;
        er_put(r, "}");
    } else if (!strcmp(op, "sum") || !strcmp(op, "mean") || !strcmp(op, "amax") || !strcmp(op, "amin") ||
               !strcmp(op, "argmax")) {
        const char *x = er_view(r, n->args[0]);
        er_put(r, "{");
        r->indent++;
        er_put(r, "axon_tensor red;");
        er_put(r, "axon__reduce_setup(\"%s\", &%s, &%s, &red);", n->spec, x, o);
        if (!strcmp(op, "argmax")) {
            const char *at = er_site(r, n, "an empty axis has no largest element");
            er_put(r, "if (axon__k_argmax_%s(&%s, &red, &%s, err) != AXON_OK) return err ? err->status : AXON_ERR_EMPTY;",
                er_tn(n->args[0]->elem), x, at);
        } else {
            int fl = n->elem == EL_F16 || n->elem == EL_BF16 || n->elem == EL_F32 || n->elem == EL_F64;
            if (!strcmp(op, "mean") && !fl) {
                /* an integer mean of nothing has no value (a float's is NaN) */
                const char *at = er_site(r, n, "the mean of an empty axis has no integer value");
                er_put(r, "if (axon__numel(%s.rank, %s.dims) == 0 && axon__numel(%s.rank, %s.dims) > 0)", x, x, o, o);
                er_put(r, "    return axon__failv(err, AXON_ERR_EMPTY, %s.line, %s.column, %s.fmt, 0, 0);", at, at, at);
            }
            const char *rop = !strcmp(op, "sum") ? "SUM" : !strcmp(op, "mean") ? "MEAN" : !strcmp(op, "amax") ? "MAX"
                                                                                                        : "MIN";
            const char *ref = ar_printf(r->a, "axon__k_reduce_%s(AXON_RED_%s, &%s, &red);", T, rop, x);
            if (r->rp->kernels.fast[n->id])
                er_fast_or_ref(r, ar_printf(r->a, "axon__f_reduce(AXON_RED_%s, &%s, &red);", rop, x), ref, 0);
            else
                er_put(r, "%s", ref);
        }
        r->indent--;
        er_put(r, "}");
    } else {
        er_put(r, "#error \"axonc: run() has no kernel for %s\"", op);
    }
    r->indent--;
    er_put(r, "}");
}

/* A literal: its value filled in at its step. */
static void literal_code(R *r, LNode *n)
{
    if (r->L->info[n->id].store == NS_VIEW || r->L->info[n->id].inline_const)
        return;
    const char *v;
    int fl = n->elem == EL_F16 || n->elem == EL_BF16 || n->elem == EL_F32 || n->elem == EL_F64;
    if (n->op && !strcmp(n->op, "inf"))
        v = "(AXON_ACC_INF)";
    else if (fl)
        v = ar_printf(r->a, "%.17g", n->fval);
    else
        v = ar_printf(r->a, "INT64_C(%lld)", (long long)(n->is_float ? (int64_t)n->fval : n->ival));
    er_put(r, "{   /* %s */", n->is_float || n->op ? "a literal" : "a literal");
    r->indent++;
    const char *o = er_view(r, n);
    if (!strcmp(v, "(AXON_ACC_INF)"))
        er_put(r, "axon__k_fill_%s(&%s, %s);", er_tn(n->elem), o, fl ? "(double)INFINITY" : "0");
    else
        er_put(r, "axon__k_fill_%s(&%s, %s);", er_tn(n->elem), o, v);
    r->indent--;
    er_put(r, "}");
}

/* A call of an extern, through the table: its operands and outputs. */
static void extern_code(R *r, LNode *n)
{
    if (n->index != 0)
        return;                     /* the call writes every output at once */
    LCall *call = n->call;
    er_put(r, "{   /* extern %s */", call->name);
    r->indent++;
    int na = call->args.n, no = call->outs.n;
    er_put(r, "axon_tensor args[%d], outs[%d];", na ? na : 1, no ? no : 1);
    for (int i = 0; i < na; i++) {
        LNode *x = call->args.items[i];
        if (x->elem == EL_DIMS) {
            er_put(r, "args[%d].data = 0; args[%d].rank = node[%d].rank;", i, i, x->id);
            er_put(r, "for (int i = 0; i < args[%d].rank; i++) { args[%d].dims[i] = node[%d].dims[i]; "
                   "args[%d].strides[i] = 0; }", i, i, x->id, i);
        } else {
            er_put(r, "%s__view(plan, node, in, out, ws, it, %d, &args[%d]);", r->cname, x->id, i);
        }
    }
    for (int i = 0; i < no; i++)
        er_put(r, "%s__view(plan, node, in, out, ws, it, %d, &outs[%d]);", r->cname, ((LNode *)call->outs.items[i])->id, i);
    const char *at = er_site(r, n, "the extern has no function in the table");
    er_put(r, "if (!ext || !ext->%s) return axon__failv(err, AXON_ERR_EXTERN, %s.line, %s.column, %s.fmt, 0, 0);",
        cn_spell(r->a, call->name, CN_FUNCTION), at, at, at);
    er_put(r, "{ int st = ext->%s(ext->ctx, args, %d, outs, %d, err);", cn_spell(r->a, call->name, CN_FUNCTION), na, no);
    er_put(r, "  if (st != AXON_OK) return st; }");
    r->indent--;
    er_put(r, "}");
}

/* copy the view of node src into the view `dst` (a local) */
void er_copy_into(R *r, LNode *src, const char *dst)
{
    if (src->elem == EL_DIMS)
        return;
    const char *s = er_view(r, src);
    er_put(r, "axon__k_copy_%s(&%s, &%s);", er_tn(src->elem), s, dst);
}

static void loop_code(R *r, LLoop *L)
{
    int d = *(int *)L->aux;
    er_put(r, "{   /* %s */", L->kind);
    r->indent++;
    /* the state starts as the initial value (broadcast) */
    for (int i = 0; i < L->nstate; i++) {
        LNode *s = L->outs.items[i], *init = L->init.items[i];
        const char *sv = er_view(r, s), *iv = er_view(r, init);
        er_put(r, "axon__broadcast_view(&%s, &node[%d], &%s);", iv, s->id, iv);
        er_put(r, "axon__k_copy_%s(&%s, &%s);", er_tn(s->elem), iv, sv);
    }
    er_put(r, "int64_t n = node[%d].rank ? node[%d].dims[0] : 0;", L->xs[0]->id, L->xs[0]->id);
    er_put(r, "for (it[%d] = 0; it[%d] < n; it[%d]++) {", d, d, d);
    r->indent++;
    er_block_code(r, &L->body);
    /* this step's outputs first (they may read the state), then each new
     * state: through its scratch buffer where it is the state itself */
    for (int i = L->nstate; i < L->results.n; i++) {
        LNode *res = L->results.items[i];
        er_put(r, "{");
        r->indent++;
        const char *dst = er_view(r, L->outs.items[i]);
        er_put(r, "axon__index_view(&%s, it[%d], %d, &%s);", dst, d, elem_size(res->elem), dst);
        er_copy_into(r, res, dst);
        r->indent--;
        er_put(r, "}");
    }
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < L->nstate; i++) {
            LNode *res = L->results.items[i], *st = L->outs.items[i];
            int sb = L->scratch ? L->scratch[i] : -1;
            if (pass == 0 && sb < 0)
                continue;
            er_put(r, "{");
            r->indent++;
            const char *dst = NULL;
            if (pass == 0 || sb >= 0) {
                dst = ar_printf(r->a, "sc%d", r->tmp++);
                er_put(r, "axon_tensor %s;", dst);
                er_put(r, "axon__dense_view(ws + plan->ws_offset[%d], %d, &node[%d], &%s);", sb,
                    elem_size(st->elem), st->id, dst);
            }
            if (pass == 0) {
                er_copy_into(r, res, dst);
            } else {
                const char *sv = er_view(r, st);
                if (sb >= 0) {
                    er_put(r, "axon__k_copy_%s(&%s, &%s);", er_tn(st->elem), dst, sv);
                } else {
                    er_copy_into(r, res, sv);
                }
            }
            r->indent--;
            er_put(r, "}");
        }
    r->indent--;
    er_put(r, "}");
    r->indent--;
    er_put(r, "}");
}

void er_block_code(R *r, LBlock *b)
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