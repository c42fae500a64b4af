/* ast.c - constructors for the syntax tree, and the small conversions the
 * parser needs (an expression list read as a pattern, a file's main name). */
#include "ast.h"

#include <ctype.h>
#include <string.h>

int dexpr_any(const DExpr *d, int (*pred)(const DExpr *))
{
    if (pred(d))
        return 1;
    if (d->kind == DX_BIN)
        return dexpr_any(d->l, pred) || dexpr_any(d->r, pred);
    if (d->kind == DX_BCAST)
        for (int i = 0; i < d->args.n; i++)
            if (dexpr_any(d->args.items[i], pred))
                return 1;
    return 0;
}

DExpr *ast_dim(Arena *a, DExprKind k, Loc loc)
{
    DExpr *d = ar_alloc(a, sizeof *d);
    d->kind = k;
    d->loc = loc;
    d->depth = 1;
    return d;
}

DExpr *ast_dim_bin(Arena *a, char op, DExpr *l, DExpr *r, Loc loc)
{
    DExpr *d = ast_dim(a, DX_BIN, loc);
    d->op = op;
    d->l = l;
    d->r = r;
    AST_DEEPER(d, l);
    AST_DEEPER(d, r);
    return d;
}

SAtom *ast_satom(Arena *a, SAtomKind k, Loc loc)
{
    SAtom *s = ar_alloc(a, sizeof *s);
    s->kind = k;
    s->loc = loc;
    s->depth = 1;
    return s;
}

SExpr *ast_shape(Arena *a, SAtom *first)
{
    SExpr *s = ar_alloc(a, sizeof *s);
    s->loc = first->loc;
    s->depth = 1;
    pv_push(a, &s->atoms, first);
    AST_DEEPER(s, first);
    return s;
}

TExpr *ast_type(Arena *a, TExprKind k, Loc loc)
{
    TExpr *t = ar_alloc(a, sizeof *t);
    t->kind = k;
    t->loc = loc;
    t->depth = 1;
    return t;
}

Expr *ast_expr(Arena *a, ExprKind k, Loc loc)
{
    Expr *e = ar_alloc(a, sizeof *e);
    e->kind = k;
    e->loc = loc;
    e->depth = 1;
    return e;
}

void ast_set_op(Expr *e, Loc op)
{
    e->u.op.start = op.start;
    e->u.op.end = op.end;
}

Loc expr_op_loc(const Expr *e)
{
    Loc l = { e->loc.src, e->u.op.start, e->u.op.end };
    return l;
}

Loc expr_callee_loc(const Expr *e)
{
    if (e->u.call.fn)
        return e->u.call.fn->loc;
    Loc l = { e->loc.src, e->loc.start, e->loc.start + (uint32_t)strlen(e->name) };
    return l;
}

/* A name's node is reused for its call (half the nodes of a program are
 * calls of names). */
Expr *ast_call(Arena *a, Expr *fn, Loc loc)
{
    Expr *e;
    if (fn->kind == EX_NAME) {
        e = fn;
        e->kind = EX_CALL;
        e->loc = loc;
        e->depth++;
    } else {
        e = ast_expr(a, EX_CALL, loc);
        e->u.call.fn = fn;
        AST_DEEPER(e, fn);
    }
    return e;
}

Expr *ast_binary(Arena *a, const char *op, Expr *l, Expr *r, Loc oploc)
{
    Expr *e = ast_expr(a, EX_BINARY, loc_span(l->loc, r->loc));
    e->name = op;
    e->u.op.l = l;
    e->u.op.r = r;
    ast_set_op(e, oploc);
    AST_DEEPER(e, l);
    AST_DEEPER(e, r);
    return e;
}

/* Patterns are parsed as expressions (the statement `h, c = state;` cannot
 * be told from a final expression `h, c` until its `=` is seen) and then
 * converted:  pattern := name | _ | pattern, pattern | ( pattern, ... ).
 * Returns NULL and sets *bad to the offending sub-expression otherwise. */
Pattern *ast_pattern_from_expr(Arena *a, Expr *e, Loc *bad)
{
    Pattern *p = ar_alloc(a, sizeof *p);
    p->loc = e->loc;
    if (e->kind == EX_NAME) {
        if (strcmp(e->name, "_") == 0) {
            p->kind = PAT_WILD;
        } else {
            p->kind = PAT_NAME;
            p->name = e->name;
        }
        return p;
    }
    if (e->kind == EX_TUPLE) {
        p->kind = PAT_TUPLE;
        for (int i = 0; i < e->u.call.args.n; i++) {
            Pattern *q = ast_pattern_from_expr(a, e->u.call.args.items[i], bad);
            if (!q)
                return NULL;
            pv_push(a, &p->items, q);
        }
        return p;
    }
    *bad = e->loc;
    return NULL;
}

/* The main function of `dir/conv-2d.axon` is called `conv_2d`: the file's
 * stem made into a C identifier (other characters become '_', and a leading
 * digit gets a '_' in front). */
const char *ast_main_name(Arena *a, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    const char *dot = strrchr(base, '.');
    if (dot && dot != base)
        n = (size_t)(dot - base);
    char *out = ar_alloc(a, n + 2);
    size_t k = 0;
    if (n == 0 || isdigit((unsigned char)base[0]))
        out[k++] = '_';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)base[i];
        out[k++] = (char)(isalnum(c) || c == '_' ? c : '_');
    }
    out[k] = 0;
    return out;
}

const char *ast_shown_name(const char *name)
{
    return name && strcmp(name, "__neg") == 0 ? "-" : name;
}
