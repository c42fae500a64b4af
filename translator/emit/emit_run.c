/* emit_run.c - P_NAME_run() and what prepare() computes for it
 * (emit_run.h), printed from the function's run plan (runplan.h): the
 * plan's members, the nodes' shapes through a second shape function
 * (emit_fn.c in run mode), the workspace's buffers placed for the actual
 * sizes, one view function, and run() as straight-line kernel calls and
 * loops (emit_ops.c; docs/c-api.md, "Running the function"). */
#include "emit_run.h"

#include <string.h>

#include "emit_ops.h"

#include "template.h"
#include "types.h"

extern const char axon_tmpl_run_solve[];


static const char *upper(Arena *a, const char *s)
{
    char *u = ar_strdup(a, s);
    for (char *p = u; *p; p++)
        if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - 'a' + 'A');
    return u;
}

/* ---- the function --------------------------------------------------------- */

void emit_run(Compilation *cp, Binding *b, const char *cname, const char *prefix, RunPlan *rp, FnCode *rfc,
              FnCode *dfc, RunCode *rc)
{
    Arena *a = &cp->arena;
    LFunc *f = rp->f;
    RunLayout *L = rp->L;
    R r;
    memset(&r, 0, sizeof r);
    r.cp = cp;
    r.c = &cp->ctx;
    r.a = a;
    r.rp = rp;
    r.f = f;
    r.L = L;
    r.cname = cname;
    r.file = cp->src->name;
    const char *rname = ar_printf(a, "%s__r", cname), *dname = ar_printf(a, "%s__rd", cname);
    int nd = rp->dyn.n;
    int nn = f->nodes.n, nb = L->buffers.n;
    buf_init(&rc->plan, a);
    buf_init(&rc->solve, a);
    buf_init(&rc->prepare, a);
    buf_init(&rc->decl, a);
    buf_init(&rc->impl, a);

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

    int64_t max_total = rp->max_total;
    const int64_t *max_off = rp->max_off;
    buf_init(&r.scratch, a);
    buf_printf(&rc->plan, "    int64_t ws_scratch;        /* (run(): the fast kernels' scratch in the workspace) */\n");
    buf_printf(&rc->plan, "    int64_t ws_scratch_bytes;\n");

    /* the shape function of the nodes (WORKSPACE_BYTES_MAX goes before
     * it once the body has said what scratch it takes) */
    {
        const char *markers[] = { "DIMS", "BODY" };
        const char *texts[] = { buf_str(&rfc->dims), buf_str(&rfc->body) };
        emit_template_into(&rc->solve, axon_tmpl_run_solve, markers, texts, 2, ar_printf(a, "%s_", rname));
        if (nd) {
            const char *dtexts[] = { buf_str(&dfc->dims), buf_str(&dfc->body) };
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
    er_put(rr, "AXON_RUN_FN void %s__view(const %s_plan *plan, const axon_shape *node, const void *const in[],",
        cname, cname);
    er_put(rr, "                     void *const out[], char *ws, const int64_t *it, int n, axon_tensor *v)");
    er_put(rr, "{");
    rr->indent++;
    er_put(rr, "(void)plan; (void)in; (void)out; (void)ws; (void)it;");
    er_put(rr, "switch (n) {");
    for (int i = 0; i < nn; i++)
        er_view_case(rr, f->nodes.items[i]);
    er_put(rr, "default: v->data = 0; v->rank = 0; return;");
    er_put(rr, "}");
    rr->indent--;
    er_put(rr, "}");
    buf_putc(&rc->impl, '\n');
    er_put(rr, "AXON_RUN_API int %s_run(const %s_plan *plan, const void *const in[], void *const out[], void *workspace,",
        cname, cname);
    er_put(rr, "                 %saxon_error *err)", ext_param);
    er_put(rr, "{");
    rr->indent++;
    /* the body first: what it reads decides the locals it needs */
    Buf body;
    buf_init(&body, a);
    rr->out = &body;
    er_block_code(rr, &f->body);
    for (int i = 0; i < L->copies.n; i++) {
        LNode *n = L->copies.items[i];
        int to = L->copy_to[i];
        er_put(rr, "{   /* output %d */", to + 1);
        rr->indent++;
        er_put(rr, "axon_tensor o;");
        er_put(rr, "axon__dense_view(out[%d], %d, &node[%d], &o);", to, n->elem == EL_DIMS ? 1 : elem_size(n->elem),
            n->id);
        er_copy_into(rr, n, "o");
        rr->indent--;
        er_put(rr, "}");
    }
    rr->out = &rc->impl;
    const char *bt = buf_str(&body);
    if (max_total >= 0) {
        /* the buffers at their largest, then the scratch of the steps that
         * need most, at the largest sizes, for AXON_MAX_THREADS threads */
        Buf d;
        buf_init(&d, a);
        int64_t at = (max_total + 63) / 64 * 64;
        const ScratchNeed most = rp->kernels.most;
        int scratch = rp->kernels.bounded_fast && most.fixed <= INT64_MAX / 4 - at && most.per_thread <= INT64_MAX / 4 / 4096;
        buf_printf(&d, "/* The most workspace %s_run() needs, whatever the sizes its where clauses allow%s. */\n", cname,
                   scratch ? " (with the fast kernels' scratch for AXON_MAX_THREADS threads, unless AXON_NO_FAST)" : "");
        if (scratch)
            buf_printf(&d, "#ifdef AXON_NO_FAST\n#define %s_WORKSPACE_BYTES_MAX INT64_C(%lld)\n#else\n"
                           "#define %s_WORKSPACE_BYTES_MAX (INT64_C(%lld) + INT64_C(%lld) * AXON_MAX_THREADS)\n#endif\n",
                       cname, (long long)max_total, cname, (long long)(at + most.fixed), (long long)most.per_thread);
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
        if (rp->bounded)    /* (a bounded function: in its bound, or none) */
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
        er_put(rr, "char *ws = (char *)workspace;");
    else
        er_put(rr, "(void)workspace;");
    er_put(rr, "if (plan->workspace_bytes < 0)");
    er_put(rr, "    return axon__fail(err, AXON_ERR_OVERFLOW, 0, 0, \"%s: the tensors that run() computes for these "
            "shapes have more bytes than int64 can count\", 0, 0, 0, 0);", b->item->name);
    if (uses_node)
        er_put(rr, "const axon_shape *node = plan->node;");
    if (nd) {
        er_put(rr, "int64_t dyn[%d];", nd);
        for (int i = 0; i < nd; i++)
            er_put(rr, "dyn[%d] = AXON_DIM_UNKNOWN;   /* (until its nonzero runs) */", i);
    }
    if (views && L->max_depth)
        er_put(rr, "int64_t it[%d] = { 0 };", L->max_depth);
    else if (views)
        er_put(rr, "const int64_t *it = 0;   /* (no loop) */");
    er_put(rr, "(void)in; (void)out; (void)err;%s", rc->uses_externs ? " (void)ext;" : "");
    buf_puts(&rc->impl, bt);
    er_put(rr, "return AXON_OK;");
    rr->indent--;
    er_put(rr, "}");
    if (nd) {
        buf_putc(&rc->impl, '\n');
        er_put(rr, "AXON_RUN_API void %s_run_shapes(const %s_plan *plan, const void *workspace, axon_shape out[])", cname,
            cname);
        er_put(rr, "{");
        rr->indent++;
        er_put(rr, "const axon_shape *node = (const axon_shape *)(const void *)((const char *)workspace + plan->ws_nodes);");
        for (int i = 0; i < f->outputs.n; i++)
            er_put(rr, "out[%d] = node[%d];", i, ((LNode *)f->outputs.items[i])->id);
        er_put(rr, "(void)node;");
        rr->indent--;
        er_put(rr, "}");
    }
}