/* infer_expr.h - inference over expressions (infer_expr.c): the walk's
 * state and what infer.c, which infers whole items, asks of it. */
#ifndef AXONC_INFER_EXPR_H
#define AXONC_INFER_EXPR_H

#include "checked.h"
#include "elab.h"
#include "solve.h"
#include "symtab.h"

/* Local names live in a hash map with shadowing: each binding remembers the
 * one it hides, and leaving a function restores them (scope_pop). */
typedef struct Local {
    const char *name;
    Scheme *scheme;
    struct Local *shadowed;
} Local;

typedef struct Inf {
    Ctx *c;
    Symtab globals;        /* name -> Binding* */
    Symtab locals;         /* name -> innermost Local* */
    Symtab items;          /* every user item's name -> Item*, for messages */
    Symtab specs;          /* "op\x1fspec" -> the Scheme that spec spells */
    Item *current;         /* the item being inferred */
    PtrVec stack;          /* Local*, in binding order */
    Scope *scope;          /* annotation names of the current item */
} Inf;

/* ---- functions and statements -------------------------------------------- */

/* A name bound twice by one pattern (`a, a = p;`) is an error.  The names
 * met so far are compared one by one while they are few, then kept in a
 * table (a pattern may be a tuple of thousands). */
typedef struct Seen {
    PtrVec list;
    Symtab *tab;
} Seen;

/* The type of e (a type error abandons the item: ctx->abort). */
Type *in_infer(Inf *in, Expr *e);
/* Leaves the local names bound since mark (the stack's length then). */
void in_scope_pop(Inf *in, int mark);
/* Whether e is a syntactic value (generalised, as ML's value restriction). */
int in_is_value(const Expr *e);
/* The name of a callee, for messages. */
const char *in_callee_name(const Expr *f);
/* A `where` clause of an annotation elaborated into constraints. */
void in_where_clause(Ctx *c, Scope *sc, const char *who, WhereClause *w, const TExpr *decl);
/* An error of size arithmetic (overflow, a size too large) at loc. */
AX_NORETURN void in_arith_error(Ctx *c, Loc loc, const char *who);

#endif
