/* ast.h - the syntax tree that the parser builds and inference annotates.
 *
 * Expressions, patterns, statements, functions, and the syntax of type
 * annotations (types, shapes, dimensions) exactly as written; turning an
 * annotation into a semantic type is elab.c's job.  Every node records its
 * byte span and its depth, so that absurdly deep input is refused with a
 * diagnostic instead of overflowing the stack later.
 */
#ifndef AXONC_AST_H
#define AXONC_AST_H

#include <stdint.h>

#include "arena.h"
#include "source.h"

enum { AST_MAX_DEPTH = 1000 };   /* nesting limit, with a diagnostic (docs/language.md) */

typedef struct TExpr TExpr;
typedef struct SExpr SExpr;
typedef struct DExpr DExpr;
typedef struct Expr Expr;
struct Type;               /* terms.h: what inference gives each node */

/* ---- annotations ---------------------------------------------------- */

typedef enum {
    DX_INT,      /* 42 */
    DX_NAME,     /* n */
    DX_RAGGED,   /* *  (variable / ragged dimension) */
    DX_DYN,      /* ?  (known only at run time) */
    DX_BIN,      /* d1 op d2, infix or the paper's prefix form */
    DX_BCAST,    /* broadcast(d1, d2, ...) */
    DX_ELEMS,    /* elements(shape): the product of its sizes (spec section 5b) */
    DX_RANK      /* rank(shape): its number of axes */
} DExprKind;

struct DExpr {
    DExprKind kind;
    Loc loc;
    int depth;
    int64_t ival;
    const char *name;
    char op;               /* '+', '-', '*', '/' */
    DExpr *l, *r;
    PtrVec args;           /* DExpr*, for DX_BCAST */
    SExpr *shape;          /* DX_ELEMS, DX_RANK */
};

typedef enum {
    SA_DIMS,     /* [d1, ..., dn] */
    SA_VAR,      /* s */
    SA_BCAST     /* broadcast(s1, s2, ...) */
} SAtomKind;

typedef struct SAtom {
    SAtomKind kind;
    Loc loc;
    int depth;
    const char *name;
    PtrVec dims;           /* DExpr* */
    PtrVec shapes;         /* SExpr* */
} SAtom;

struct SExpr {             /* a1 @ a2 @ ... */
    Loc loc;
    int depth;
    PtrVec atoms;          /* SAtom* */
};

typedef enum {
    TX_NAME,     /* r (a whole-type variable) or f32 (a scalar) */
    TX_TENSOR,   /* elem shape */
    TX_TUPLE,    /* (T1, T2) */
    TX_FUNC      /* (T1, T2) -> R */
} TExprKind;

struct TExpr {
    TExprKind kind;
    Loc loc;
    int depth;
    const char *name;      /* TX_NAME, TX_TENSOR: the element (or type) name */
    Loc name_loc;
    SExpr *shape;          /* TX_TENSOR */
    PtrVec items;          /* TExpr*: tuple items or parameters */
    TExpr *ret;            /* TX_FUNC */
};

/* ---- expressions ---------------------------------------------------- */

typedef enum { PAT_NAME, PAT_WILD, PAT_TUPLE } PatKind;

typedef struct Pattern {
    PatKind kind;
    Loc loc;
    const char *name;
    PtrVec items;          /* Pattern* */
    struct Type *type;     /* set by inference */
} Pattern;

typedef struct Param {
    const char *name;
    Loc loc;
    TExpr *ann;            /* may be NULL */
    struct Type *type;     /* set by inference */
} Param;

typedef struct Stmt {
    Loc loc;
    Pattern *pat;
    TExpr *ann;            /* `name : T = e;` */
    Expr *value;
} Stmt;

typedef struct FnExpr {
    PtrVec params;         /* Param* */
    TExpr *ret;            /* may be NULL */
    PtrVec stmts;          /* Stmt* */
    Expr *body;            /* the final expression */
    Loc body_loc;
    PtrVec where;          /* WhereClause*: fn (...) where n <= 512 { ... } */
} FnExpr;

typedef enum {
    EX_NAME,     /* x */
    EX_INT,      /* 3 */
    EX_FLOAT,    /* 1.5, 0f, inf */
    EX_OP,       /* + in argument position: the operator as a function */
    EX_CALL,     /* f(a, b) */
    EX_BINARY,   /* a + b */
    EX_NEG,      /* -a */
    EX_TUPLE,    /* (a, b) or a final `a, b` */
    EX_FN,       /* fn (params) [: T] { body } */
    EX_DIMS,     /* [2, n / 2]: a dims value (spec section 5b) */
    EX_STRING    /* "bhnd,bhmd->bhnm": a spec string (name is its text) */
} ExprKind;

struct Expr {
    ExprKind kind;
    int depth;
    Loc loc;
    struct Type *type;     /* set by inference */
    PtrVec *inst;          /* set by inference at a use of a program's own
                            * generic function (EX_CALL of a name, EX_NAME):
                            * what its scheme's variables are here
                            * (InstPair*, scheme.h), for the lowering of run() */
    const char *name;      /* EX_NAME; EX_OP, EX_BINARY, EX_NEG: the operator's
                            * rule; EX_FLOAT: "inf" or NULL */
    /* EX_CALL of a name: name is the callee (u.call.fn is NULL, and the
     * callee's span starts the call's: expr_callee_loc). */
    union {
        int64_t ival;          /* EX_INT */
        double fval;           /* EX_FLOAT */
        FnExpr *lam;           /* EX_FN */
        TExpr *dims;           /* EX_DIMS: the value's type, dims [d1, ...] */
        struct {
            Expr *l, *r;       /* EX_BINARY; EX_NEG uses l */
            uint32_t start, end;   /* the operator itself */
        } op;
        struct {
            Expr *fn;          /* EX_CALL */
            PtrVec args;       /* EX_CALL arguments, EX_TUPLE items (Expr*) */
        } call;
    } u;
};

/* The operator of an EX_BINARY or EX_NEG (its own span, for messages). */
Loc expr_op_loc(const Expr *e);
/* The callee of an EX_CALL (a name's span, or the callee expression's). */
Loc expr_callee_loc(const Expr *e);

/* ---- programs ------------------------------------------------------- */

typedef enum { IT_BIND, IT_MAIN, IT_EXTERN } ItemKind;

/* A clause of `where` in a declaration: l = r or l <= r (spec 5b). */
typedef struct WhereClause {
    Loc loc;
    char op;               /* '=' or '<' (for <=) */
    DExpr *l, *r;
} WhereClause;

typedef struct Item {
    ItemKind kind;
    const char *name;
    Loc loc, name_loc;
    Expr *value;           /* IT_BIND, IT_MAIN */
    TExpr *type;           /* IT_EXTERN */
    PtrVec where;          /* IT_EXTERN: WhereClause* */
} Item;

typedef struct Import {    /* import "path" */
    const char *path;
    Loc loc, path_loc;
} Import;

typedef struct Program {
    const Source *src;
    PtrVec imports;        /* Import*, in order */
    PtrVec items;          /* Item* */
    uint32_t nbinders;     /* parameters and names bound by patterns, in all
                            * (room for the local names at once) */
} Program;

/* Whether pred holds of d or of a dimension inside it (operands, broadcast
 * arguments; not the shapes of elements(s) and rank(s)). */
int dexpr_any(const DExpr *d, int (*pred)(const DExpr *));

/* Constructors (ast.c).  Each one computes the node's depth. */
DExpr *ast_dim(Arena *a, DExprKind k, Loc loc);
DExpr *ast_dim_bin(Arena *a, char op, DExpr *l, DExpr *r, Loc loc);
SAtom *ast_satom(Arena *a, SAtomKind k, Loc loc);
SExpr *ast_shape(Arena *a, SAtom *first);
TExpr *ast_type(Arena *a, TExprKind k, Loc loc);
Expr *ast_expr(Arena *a, ExprKind k, Loc loc);
Expr *ast_binary(Arena *a, const char *op, Expr *l, Expr *r, Loc oploc);
/* A call of fn spanning loc; a name as fn becomes the call node itself. */
Expr *ast_call(Arena *a, Expr *fn, Loc loc);
/* The operator's span of e (EX_BINARY, EX_NEG) is op. */
void ast_set_op(Expr *e, Loc op);
Pattern *ast_pattern_from_expr(Arena *a, Expr *e, Loc *bad);
const char *ast_main_name(Arena *a, const char *path);
/* A rule's name as messages show it: unary minus is the prelude's rule
 * `__neg` and shows as `-`.  NULL stays NULL. */
const char *ast_shown_name(const char *name);

/* Raises a parent's depth to one more than a child's. */
#define AST_DEEPER(parent, child)                                        \
    do {                                                                 \
        if ((child) && (child)->depth + 1 > (parent)->depth)             \
            (parent)->depth = (child)->depth + 1;                        \
    } while (0)

#endif
