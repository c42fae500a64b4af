/* lower.h - an exported function as run() computes it (axon-spec.md
 * section 9): every call of the program's own functions, lambdas and
 * closures inlined (Axon has no recursion), what is left is built-in
 * operators over tensor nodes, and loops (map, map2, reduce, loop) whose
 * bodies are blocks of their own.  Each node's shape is a term over the
 * exported function's own variables, which the header's plan computes at
 * run time (plan/runplan.c); the views, buffers and lifetimes are buffers.c's.
 *
 * The lowering evaluates the typed syntax tree with an environment, as an
 * interpreter would, but makes nodes instead of values: a call of a
 * function binds its parameters to the argument values and goes on in its
 * body, with what its type variables are at that call (the instantiation
 * that inference recorded, subst.h).
 */
#ifndef AXONC_LOWER_H
#define AXONC_LOWER_H

#include "compilation.h"

typedef struct LNode LNode;
typedef struct LLoop LLoop;

typedef enum {
    LN_INPUT,      /* in[input] */
    LN_DIMS,       /* a dims value: its values are its shape */
    LN_LITERAL,    /* a scalar literal (fval, ival) */
    LN_OP,         /* a built-in operator's result (op, args) */
    LN_LOOP,       /* output `index` of a loop */
    LN_PARAM,      /* inside a loop's body: its parameter `index` (a slice
                    * of a sliced input, or the carried state) */
    LN_EXTERN      /* output `index` of a call of an extern (op: its name) */
} LNodeKind;

struct LNode {
    int id;                /* index in LFunc.nodes */
    LNodeKind kind;
    const char *op;        /* LN_OP: the operator ("matmul", "+", "__neg",
                            * "f32", ...); LN_EXTERN: the extern */
    LNode **args;
    int nargs;
    int index;             /* LN_INPUT: in[] index; LN_LOOP, LN_PARAM,
                            * LN_EXTERN: which output or parameter */
    LLoop *loop;           /* LN_LOOP, LN_PARAM */
    struct LCall *call;    /* LN_EXTERN: the call its outputs share */
    Shape *shape;          /* over the exported function's variables */
    int elem;              /* ElemPrim (never EL_VAR: --elem-type given) */
    Loc loc;               /* the expression, for messages and comments */
    const char *spec;      /* einsum and the reductions */
    double fval;           /* LN_LITERAL */
    int64_t ival;
    int is_float;          /* LN_LITERAL: written with a fraction */
    void *aux;             /* buffers.c, runplan.c and emit/ */
};

/* A block: the nodes and loops of one straight-line sequence, in order. */
typedef struct LItem {
    LNode *node;           /* one of these is set */
    LLoop *loop;
} LItem;

typedef struct LBlock {
    PtrVec items;          /* LItem* */
} LBlock;

struct LLoop {
    const char *kind;      /* "map", "map2", "reduce", "loop" */
    Loc loc;
    LNode *xs[2];          /* the sliced inputs (map2: two) */
    int nxs;
    PtrVec init;           /* LNode*: reduce's initial value, loop's state
                            * (flattened), before the loop */
    PtrVec params;         /* LNode* (LN_PARAM): state first, then slices */
    LBlock body;
    PtrVec results;        /* LNode*: the body's values (new state first,
                            * then map's and loop's per-step outputs) */
    PtrVec outs;           /* LNode* (LN_LOOP): state, then stacked outputs */
    int nstate;            /* state tensors (reduce, loop) */
    int *scratch;          /* buffers.c: per state tensor, the workspace
                            * buffer its new value goes through when it is
                            * a view of the state itself (-1: none) */
    void *aux;
};

typedef struct LCall {     /* a call of an extern */
    const char *name;
    Loc loc;
    PtrVec args;           /* LNode* (tensors, dims values, flattened) */
    PtrVec outs;           /* LNode* (LN_EXTERN) */
} LCall;

typedef struct LFunc {
    const char *name;
    Binding *binding;
    PtrVec nodes;          /* LNode*, by id */
    LBlock body;
    PtrVec inputs;         /* LNode* (LN_INPUT or LN_DIMS), in[] order */
    PtrVec outputs;        /* LNode*, out[] order */
    PtrVec externs;        /* Item*: the externs it calls, each once, in
                            * the order of their first calls */
} LFunc;

/* What lowering keeps from one function to the next of a compilation: the
 * program's items by name, and the tensors lowered so far (every call is
 * inlined, so N functions each calling the one before would make N*N/2
 * nodes; the compilation's total is bounded instead, LOWER_MAX_NODES). */
typedef struct LowerProgram LowerProgram;

/* The limit: a real network stays far below it (a 32-layer LLaMA is a few
 * thousand nodes); past it run() is not made (emit says why), the shape
 * functions are.  It bounds the functions' run() together, so that the
 * header stays linear in the program even where every function calls the
 * one before and inlines all of them. */
enum { LOWER_MAX_NODES = 50000 };

/* The other limit, on the work: expressions evaluated, names bound and
 * parts of tuples taken apart or made again, for all functions together.
 * Inlining evaluates a function's body once per call, and a value is a DAG,
 * so calls that compute no tensor (`f1 = fn (x) { f0(f0(x)) }`, k(k)(k)...,
 * tuples of closures) and tuples of tuples of the same tensors (a loop's
 * state p30 of `p2 = id((p1, p1))`: 2^30 tensors as a tree) could take time
 * and memory exponential in the program without reaching the node limit.  A network takes 1 to 4
 * steps per tensor (every sample and test), so that the node limit comes
 * long before this one; past it run() is not made, as past the node
 * limit. */
enum { LOWER_MAX_STEPS = 20 * LOWER_MAX_NODES };

/* Starts lowering the functions of cp.  elem_default gives element
 * variables their type. */
LowerProgram *lower_program(Compilation *cp, int elem_default);

/* Lowers exported function b (a function of the program, first-order:
 * the driver exports no other).  Returns NULL with *why saying what run()
 * cannot do here. */
LFunc *lower_function(LowerProgram *lp, Binding *b, const char **why);

/* Whether the compilation's node limit has been reached (every function
 * lowered after that has no run() for that reason). */
int lower_over_limit(const LowerProgram *lp);

#endif
