/* dot.c - dataflow graphs for Graphviz: one cluster per top-level function,
 * a node per parameter, operation and literal, an edge per value with its
 * inferred type as the label (variables named as in the function's
 * signature, so the graph reads alongside `axonc check`). */
#include "dot.h"

#include <string.h>

#include "print.h"
#include "symtab.h"
#include "types.h"

typedef struct Dot {
    Compilation *cp;
    Buf *out;
    Namer nm;
    int next;              /* node numbers */
    Symtab names;          /* a name in the current function -> its producer node;
                            * a lambda is one node, so this is the only scope */
} Dot;

/* A string as a DOT quoted string. */
static void quoted(Buf *b, const char *s)
{
    buf_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            buf_putc(b, '\\');
        buf_putc(b, *s);
    }
    buf_putc(b, '"');
}

static const char *node(Dot *d, const char *label, const char *shape)
{
    const char *id = ar_printf(&d->cp->arena, "n%d", ++d->next);
    buf_printf(d->out, "    %s [label=", id);
    quoted(d->out, label);
    buf_printf(d->out, ", shape=%s];\n", shape);
    return id;
}

static void edge(Dot *d, const char *from, const char *to, Type *t)
{
    buf_printf(d->out, "    %s -> %s [label=", from, to);
    quoted(d->out, t ? pr_type_str(&d->nm, t) : "");
    buf_puts(d->out, "];\n");
}

static void bind(Dot *d, const char *name, const char *producer)
{
    st_put(&d->names, name, (void *)producer);
}

/* The node that produces e's value (made on the way). */
static const char *flow(Dot *d, Expr *e)
{
    Arena *a = &d->cp->arena;
    switch (e->kind) {
    case EX_NAME: {
        const char *p = st_get(&d->names, e->name);
        return p ? p : node(d, e->name, "plaintext");        /* a top-level name */
    }
    case EX_INT:
        return node(d, ar_printf(a, "%lld", (long long)e->u.ival), "plaintext");
    case EX_FLOAT:
        return node(d, e->name ? e->name : ar_printf(a, "%g", e->u.fval), "plaintext");
    case EX_OP:
        return node(d, e->name, "plaintext");
    case EX_FN:
        return node(d, "fn", "plaintext");
    case EX_DIMS:
        return node(d, "dims", "plaintext");
    case EX_STRING:
        return node(d, "spec", "plaintext");
    case EX_TUPLE: {
        const char *n = node(d, "tuple", "point");
        for (int i = 0; i < e->u.call.args.n; i++) {
            Expr *x = e->u.call.args.items[i];
            edge(d, flow(d, x), n, x->type);
        }
        return n;
    }
    case EX_NEG:
    case EX_BINARY: {
        const char *l = flow(d, e->u.op.l);
        const char *r = e->kind == EX_BINARY ? flow(d, e->u.op.r) : NULL;
        const char *n = node(d, ast_shown_name(e->name), "circle");
        edge(d, l, n, e->u.op.l->type);
        if (r)
            edge(d, r, n, e->u.op.r->type);
        return n;
    }
    case EX_CALL: {
        PtrVec from = { 0 };
        for (int i = 0; i < e->u.call.args.n; i++)
            pv_push(a, &from, (void *)flow(d, e->u.call.args.items[i]));
        const char *label = e->u.call.fn ? "call" : e->name;
        const char *n = node(d, label, "box");
        for (int i = 0; i < e->u.call.args.n; i++)
            edge(d, from.items[i], n, ((Expr *)e->u.call.args.items[i])->type);
        return n;
    }
    }
    return node(d, "?", "plaintext");
}

static void bind_pattern(Dot *d, Pattern *p, const char *producer)
{
    if (p->kind == PAT_NAME) {
        bind(d, p->name, producer);
    } else if (p->kind == PAT_TUPLE) {
        for (int i = 0; i < p->items.n; i++) {
            Pattern *q = p->items.items[i];
            const char *part = node(d, ar_printf(&d->cp->arena, "item %d", i + 1), "point");
            edge(d, producer, part, p->type);
            bind_pattern(d, q, part);
        }
    }
}

static void dot_function(Dot *d, Binding *b, int index)
{
    FnExpr *f = b->item->value->u.lam;
    namer_init(&d->nm, &d->cp->ctx, 0);
    Buf sig;
    buf_init(&sig, &d->cp->arena);
    sig.limit = PR_TEXT_LIMIT;             /* a label: cut short like a message */
    pr_scheme(&d->nm, &sig, b->scheme);
    buf_printf(d->out, "  subgraph cluster_%d {\n    label=", index);
    quoted(d->out, ar_printf(&d->cp->arena, "%s : %s%s", b->item->name, buf_str(&sig), sig.full ? " ..." : ""));
    buf_puts(d->out, ";\n");
    st_init(&d->names, &d->cp->arena);
    for (int i = 0; i < f->params.n; i++) {
        Param *p = f->params.items[i];
        bind(d, p->name, node(d, p->name, "ellipse"));
    }
    for (int i = 0; i < f->stmts.n; i++) {
        Stmt *s = f->stmts.items[i];
        const char *v = flow(d, s->value);
        if (s->pat->kind == PAT_NAME) {
            const char *n = node(d, s->pat->name, "note");
            edge(d, v, n, s->value->type);
            bind(d, s->pat->name, n);
        } else {
            bind_pattern(d, s->pat, v);
        }
    }
    const char *r = flow(d, f->body);
    edge(d, r, node(d, "result", "doublecircle"), f->body->type);
    buf_puts(d->out, "  }\n");
}

void dot_program(Compilation *cp, Buf *out)
{
    Dot d;
    memset(&d, 0, sizeof d);
    d.cp = cp;
    d.out = out;
    buf_puts(out, "digraph axon {\n  rankdir=TB;\n  node [fontname=\"monospace\"];\n"
                  "  edge [fontname=\"monospace\", fontsize=10];\n  label=");
    quoted(out, cp->src->name);
    buf_puts(out, ";\n");
    int k = 0;
    for (int i = 0; i < cp->checked.bindings.n; i++) {
        Binding *b = cp->checked.bindings.items[i];
        if (b->scheme && b->item->value && b->item->value->kind == EX_FN && compile_own_item(cp, b->item))
            dot_function(&d, b, k++);
    }
    buf_puts(out, "}\n");
}
