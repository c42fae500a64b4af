/* terms.h - the semantic terms of inference and the state of one compilation.
 *
 *   elem   := prim | element variable                       (Elem)
 *   dim    := polynomial over dimension variables and        (Dim)
 *             opaque floor divisions, or `*` (ragged)
 *   shape  := a sequence of segments, each a dimension or a  (Shape)
 *             shape variable:  s @ [m, n]  is  [s; m; n]
 *   type   := variable | tensor(elem, shape) | tuple | function   (Type)
 *
 * Variables are union-find nodes (a `link` when bound) with an OCaml-style
 * level for let-generalisation; a variable whose level is GENERIC is
 * quantified in a scheme.  Every term records the Origin where it was made
 * and every binding the Origin of the unification that made it, so that a
 * diagnostic can say where each fact came from.
 */
#ifndef AXONC_TERMS_H
#define AXONC_TERMS_H

#include <limits.h>
#include <setjmp.h>
#include <stdint.h>

#include "arena.h"
#include "source.h"

enum { GENERIC = INT_MAX };
/* How deeply tuples and functions may nest in a type.  The source's own
 * nesting is limited to AST_MAX_DEPTH; inference can compose types deeper
 * (a function that pairs its argument, applied to itself, doubles the
 * depth at each call), and every walk over a type is recursive in its
 * depth, so past this a type is an error, not a stack overflow. */
enum { TYPE_MAX_DEPTH = 2000 };

typedef struct Scheme Scheme;

/* What an origin is, rendered only when a message needs it (origin_text). */
typedef enum {
    OW_TEXT,       /* what, as is */
    OW_ANNOT,      /* the annotation of 'name' */
    OW_RULE,       /* the rule of 'name' */
    OW_SIG,        /* the signature of 'name' */
    OW_ARG,        /* argument N (argname) of 'rule' */
    OW_LEFT,       /* the left operand of 'rule' */
    OW_RIGHT,      /* the right operand of 'rule' */
    OW_OPERAND,    /* the operand of 'rule' */
    OW_VALUE,      /* the value of 'name' */
    OW_CALL,       /* the call of 'rule' */
    OW_QUOTED      /* 'rule' */
} OriginKind;

typedef struct Origin {
    Loc loc;
    OriginKind kind;
    int arg;              /* 1-based argument number, 0 for none */
    const char *what;     /* OW_TEXT: the text; otherwise the name */
    const char *rule;     /* the operator or function the rule belongs to */
    const char *argname;  /* OW_ARG: the argument when it is a name; any
                           * other kind: a `where l = r` clause as written
                           * that this origin is (its failures quote it),
                           * through origin_clause() -- one field for the
                           * two, as origins are many (a pointer each) */
    const struct Scheme *scheme;  /* the rule's signature, for notes */
} Origin;

/* The `where` clause an origin stands for, or NULL. */
static inline const char *origin_clause(const Origin *o)
{
    return o && o->kind != OW_ARG ? o->argname : NULL;
}

typedef struct Constraint Constraint;
typedef struct Watch {
    Constraint *c;
    struct Watch *next;
} Watch;

/* ---- element types ------------------------------------------------- */

/* ORDER ELEM: elem_names[] and elem_sizes[] in types.c follow this order. */
typedef enum {
    EL_VAR = -1,
    EL_BOOL, EL_I8, EL_I16, EL_I32, EL_I64, EL_U8, EL_U16, EL_U32, EL_U64,
    EL_F16, EL_BF16, EL_F32, EL_F64,
    EL_DIMS,        /* `dims [a, b]`: a list of sizes (spec section 5b), not a tensor */
    EL_COUNT
} ElemPrim;

/* What a literal asks of its element type.  ORDER CLASS: larger is stricter. */
enum { ELC_ANY, ELC_NUMBER, ELC_FLOAT };

typedef struct Elem {
    int prim;             /* ElemPrim; EL_VAR for a variable */
    int cls;              /* a variable's ELC_*: from the literals it stands for */
    const Origin *cls_origin;  /* the literal that asks it */
    struct Elem *link;
    int level;
    uint32_t id;
    const Origin *origin, *why;
    const char *hint;     /* the name written in an annotation */
    uint32_t stamp;       /* traversal marks (instantiate, naming) */
    void *mark;
} Elem;

/* ---- dimensions ---------------------------------------------------- */

typedef struct Dim Dim;

/* An equality between two dimension variables and the unification that made
 * it: kept (when emitting) to explain why two input axes must agree. */
typedef struct BindEdge {
    struct DVar *other;
    const Origin *why;
    struct BindEdge *next;
} BindEdge;

typedef struct DVar {
    Dim *link;
    BindEdge *edges;      /* the equalities with other variables (ctx->explain) */
    Dim *self;            /* the dimension `1 * this`, shared by every use */
    int level;
    uint32_t id;
    const Origin *why;
    const char *hint;
    uint8_t dyn;          /* written `?`: 1 an unknown size (a parameter's is
                           * the caller's); 2 a size an operation produces
                           * (the result of an extern), known only when it
                           * runs; a variable it is renamed to takes it */
    uint32_t seen_stamp;  /* printing: occurrences of a `?` in one signature */
    uint32_t seen;
    void *aux;            /* the emitter's note about this variable */
    Watch *watch;
    uint32_t nwatch, nswept;  /* constraint.c: entries in watch; live at the
                           * last sweep */
    Constraint *def;      /* the broadcast this variable stands for */
    uint32_t stamp;
    void *mark;
} DVar;

typedef struct DivAtom {   /* floor(num / den), not simplifiable */
    Dim *num, *den;
    uint32_t depth;        /* divisions nested in it, itself included */
    uint32_t hash_gen;     /* dim_hash: hash is valid for this generation */
    uint64_t hash;
} DivAtom;

typedef struct Factor {    /* var^pow or div^pow: exactly one is set */
    DVar *var;
    DivAtom *div;
    uint32_t pow;
} Factor;

typedef struct Mono {      /* coef * f[0] * ... * f[nf-1] */
    int64_t coef;
    uint32_t nf;
    Factor *f;
} Mono;

/* A polynomial in canonical form: monomials sorted (by descending degree,
 * then factors), like terms merged, no zero coefficients, the constant last. */
struct Dim {
    uint8_t ragged;       /* `*`: varies across the other axes */
    uint16_t nt;          /* (at most DIM_MAX_TERMS) */
    uint32_t clean;       /* Ctx.epoch + 1 when it was found to hold no bound
                           * variable (dim.c: then it needs no normalising) */
    Mono *t;
    const Origin *origin;
};

/* ---- shapes -------------------------------------------------------- */

typedef struct Shape Shape;

typedef struct SVar {
    Shape *link;
    void *aux;            /* the emitter's note about this variable */
    int level;
    uint32_t id;
    const Origin *why;
    const char *hint;
    Watch *watch;
    uint32_t nwatch, nswept;  /* as DVar's */
    Constraint *def;      /* the broadcast this variable stands for */
    uint32_t stamp;
    void *mark;
} SVar;

typedef struct Seg {       /* exactly one is set */
    Dim *dim;
    SVar *var;
} Seg;

struct Shape {
    uint32_t n;
    Seg *s;
    const Origin *origin;
};

/* ---- types --------------------------------------------------------- */

typedef enum { TY_VAR, TY_TENSOR, TY_TUPLE, TY_FUNC } TypeKind;

typedef struct Type Type;
struct Type {
    TypeKind kind;
    uint32_t stamp;        /* traversal marks */
    void *mark;
    const Origin *origin;
    union {
        struct {           /* TY_VAR */
            int level;
            uint32_t id;
            Type *link;
            const Origin *why;
            const char *hint;
        } var;
        struct {           /* TY_TENSOR */
            Elem *elem;
            Shape *shape;
        } ten;
        struct {           /* TY_TUPLE (items), TY_FUNC (items are the parameters) */
            uint32_t n;
            uint32_t ustamp;   /* unified with umark in the unification of */
            Type **items;      /* this stamp (types are DAGs) */
            Type *ret;         /* TY_FUNC */
            Type *umark;
        } fun;
    } u;
};

/* ---- constraints that could not be solved on the spot ------------- */

typedef enum {
    C_BCAST_SHAPE,  /* sres = broadcast(ops: Shape*) */
    C_BCAST_DIM,    /* dres = broadcast(ops: Dim*) */
    C_EQ_DIM,       /* l = r, not solvable yet (e.g. a + b = 10) */
    C_EQ_SHAPE,     /* sl = sr, ambiguous split (s1 @ [n] @ s2 = s3 @ s4) */
    C_NONNEG,       /* l >= 0: a dimension written with a minus */
    C_DYN,          /* dres = l: inference fixed a size that an operation
                     * produces (a `?` of an extern's result), which only
                     * running it can check: never examined, never printed */
    C_FITS,         /* l fits in int64: a size an operation computes (the
                     * arithmetic of a built-in's or an extern's result,
                     * `a + b` of concat), named or not; never printed,
                     * checked by the header where the inputs give it */
    C_ELEMS,        /* dres = elements(sl), sl a lone shape variable (spec
                     * section 5b): expands as sl becomes known */
    C_RANK          /* dres = rank(sl), likewise; a constant dres makes sl
                     * that many fresh sizes */
} CKind;

struct Constraint {
    CKind kind;
    uint32_t id;
    const Origin *why;
    uint8_t done;         /* solved, or replaced by other constraints */
    uint8_t queued;
    uint8_t rewrites;     /* C_EQ_DIM: registered as a rewrite rule */
    uint8_t axis;         /* C_EQ_DIM of an axis clause, rank(p) = k (l, r),
                           * sr the shape after the axis: a negative k
                           * counts from the end, making sr -1 - k sizes;
                           * a k that is not a constant counts from 0 */
    uint8_t printing;     /* being printed (guards against cycles) */
    uint8_t templ;        /* kept in a scheme: a template that each instance
                           * copies, never itself merged with one */
    int level;
    SVar *sres;
    DVar *dres;
    PtrVec ops;
    Dim *l, *r;
    Shape *sl, *sr;
    uint32_t stamp;
    void *mark;
    struct Constraint *within;  /* a broadcast that took this one's operands
                           * into its own (so this one is implied by it) */
    uint32_t flat_stamp;  /* print.c: visited while flattening a broadcast */
    uint32_t nest_stamp;  /* print.c: its result is another's operand */
    uint8_t promise;      /* C_NONNEG of a clause on the signature's own `?`
                           * (nonzero's `? <= n`): what the operation
                           * promises of the size it produces, which the
                           * header cannot see and does not check */
    const char *clause;   /* C_NONNEG from a declaration's `where l <= r`:
                           * that clause as written, and r - l (messages) */
    const char *clause_diff;
    PtrVec watched;       /* the variables whose watch lists hold it */
};

/* A type scheme: type with GENERIC variables, plus the constraints over
 * them that every instance must satisfy. */
struct Scheme {
    Type *type;
    PtrVec cons;          /* Constraint* */
    int generic;          /* has any GENERIC variable */
    PtrVec names;         /* ScopeName* (elab.h): the annotation names of
                           * the item it is the scheme of, which its sizes
                           * print in (print.c, pr_scheme) */
};

/* Partial expression simplification (paper section 5): a monomial that a
 * residual equation fixes to a constant is replaced by it everywhere. */
typedef struct Rewrite {
    Mono key;             /* coefficient 1 */
    int64_t value;
    Constraint *from;
    struct Rewrite *next;
} Rewrite;

/* Where a unification happens, for its diagnostics. */
typedef struct Site {
    const Origin *why;    /* its location and what it is ("argument 2 of 'matmul'") */
    int axis;             /* axis of the actual shape (negative: from the end), or INT_MIN */
    Shape *exp_shape;     /* the whole shapes being unified, for messages */
    Shape *act_shape;
} Site;

/* Two annotation names made one size, with the argument (of the call
 * being unified) whose type holds both apart: its layout is the one the
 * rule reads otherwise (warn.c, the two-names warning). */
typedef struct Join {
    struct DVar *a, *b;
    const Origin *why;
    int arg;              /* the argument that holds both, or -1 */
    const char *shape;    /* its type as it was then (annotation names) */
    void *expr;           /* its expression (Expr*) */
} Join;

typedef struct Ctx {
    Arena *arena;
    Diag *diag;
    int level;
    uint32_t next_id;
    uint32_t stamp;
    PtrVec *pending;      /* per level: live constraints made at that level */
    int npending;
    PtrVec queue;         /* constraints to look at again */
    int qhead;
    int draining;
    void (*drain)(struct Ctx *c);   /* looks at the queue until it is empty
                                     * (solve.h: solve_init sets it) */
    int axis_value;       /* inferring an axis argument: its dims value may
                           * be negative (`[-1]`: infer.c, elab.c) */
    int overflow;         /* dimension arithmetic overflowed (1), grew too
                           * large (2), divided by zero (3) */
    int norm_depth;       /* dim.c: the recursion of normalisation */
    uint32_t epoch;       /* counts the bindings of dimension variables */
    PtrVec arith;         /* Dim*: every dimension made by arithmetic (a sum,
                           * a product, a coefficient, a floor division)
                           * while the current item is inferred */
    Rewrite *rewrites;
    jmp_buf *abort;       /* a type error abandons the current top-level item */
    Loc where;            /* the expression being inferred (for errors found
                           * deep in a walk, e.g. a type nested too deeply) */
    int explain;          /* record BindEdges (for the emitter's messages) */
    int letters;          /* print every variable as a letter (check
                           * --letters: the paper's form), no names */
    void *fits;           /* constraint.c: the live C_FITS by size (a DimMap) */
    void *nonneg;         /* constraint.c: the waiting C_NONNEG by dimension */
    struct Type **call_args;  /* the arguments' types of the call being
                           * unified with its rule (infer.c), and their
                           * expressions (Expr*) */
    void **call_exprs;
    int call_nargs;
    PtrVec *inst_log;     /* InstPair*: where instantiation records what it
                           * made of each generic variable (scheme.h) */
    PtrVec joins;         /* Join*: two annotation names made one size,
                           * while the current item is inferred (warn.c) */
    void *bounds;         /* constraint.c: the bounds of one size (VarBounds)
                           * by its variable's dimension */
} Ctx;

#endif
