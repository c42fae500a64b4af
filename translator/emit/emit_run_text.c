/* emit_run_text.c - what the files that print run() share
 * (emit_run_text.h). */
#include "emit_run_text.h"

#include <stdarg.h>
#include <string.h>

#include "types.h"

void er_put(R *r, const char *fmt, ...)
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

const char *er_tn(int elem)
{
    return elem_name(elem);
}

/* The fast call, and the reference's where AXON_NO_FAST is defined (and,
 * in a bounded function, where prepare() found the scratch would not fit
 * and left none: a step that needs scratch). */
void er_fast_or_ref(R *r, const char *fastcall, const char *refcall, int scratch)
{
    buf_puts(r->out, "#ifndef AXON_NO_FAST\n");
    if (scratch && r->rp->bounded) {
        er_put(r, "if (plan->ws_scratch_bytes > 0)");
        er_put(r, "    %s", fastcall);
        er_put(r, "else");
        er_put(r, "    %s", refcall);
    } else {
        er_put(r, "%s", fastcall);
    }
    buf_puts(r->out, "#else\n");
    er_put(r, "%s", refcall);
    buf_puts(r->out, "#endif\n");
}

/* prepare(): a step's scratch, the expression's bytes (the workspace
 * holds the largest, after the buffers). */
void er_scratch_for(R *r, const char *expr)
{
    buf_printf(&r->scratch, "        s = %s;\n        if (s > scr)\n            scr = s;\n", expr);
}

/* Node d's shape as prepare() has it. */
const char *er_pshape(R *r, LNode *d)
{
    return ar_printf(r->a, "&plan->node[%d]", d->id);
}

/* A local view of node n: "vK" (zeroed: GCC's -Wmaybe-uninitialized
 * cannot see that a view's dims below its rank are all written). */
const char *er_view(R *r, LNode *n)
{
    const char *v = ar_printf(r->a, "v%d", r->tmp++);
    er_put(r, "axon_tensor %s = { 0, 0, { 0 }, { 0 } };", v);
    er_put(r, "%s__view(plan, node, in, out, ws, it, %d, &%s);", r->cname, n->id, v);
    return v;
}

/* The values of dims node d (its shape): "node[7].dims[i]" (node: the
 * shapes run() reads, the plan's or, after a nonzero, its own). */
const char *er_dimval(R *r, LNode *d, int i)
{
    return ar_printf(r->a, "node[%d].dims[%d]", d->id, i);
}

/* A data error's place: a static site with its message. */
const char *er_site(R *r, LNode *n, const char *what)
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
    er_put(r, "const axon__site %s = { %d, %d, \"%s:%d:%d: %s: %s\" };", s, ln, col, buf_str(&msg), ln, col,
        ast_shown_name(n->op ? n->op : "run"), what);
    return s;
}

/* A dims value of run()'s code ("node[7].dims[0]") as prepare() has it. */
const char *er_pdims(R *r, const char *v)
{
    return strncmp(v, "node[", 5) ? v : ar_printf(r->a, "plan->%s", v);
}
