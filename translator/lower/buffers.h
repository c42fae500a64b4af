/* buffers.h - where each node of a lowered function (lower.h) lives when
 * run() computes it: an input, an output's buffer, a view of another node,
 * or a buffer of the workspace; and, for the workspace's buffers, the
 * steps between which each is live, so that prepare() can give buffers
 * whose lives do not overlap the same memory (axon__plan_workspace).
 *
 * Steps number the lowered function's items in order, a loop's body inside
 * the loop (a buffer defined before a loop and used in its body lives to
 * the loop's end: the next iteration reads it again).
 */
#ifndef AXONC_BUFFERS_H
#define AXONC_BUFFERS_H

#include "lower.h"

typedef enum {
    NS_DIMS,       /* a dims value: no storage (plan->node holds its values) */
    NS_INPUT,      /* in[index] */
    NS_OUTPUT,     /* out[index]: computed there */
    NS_BUFFER,     /* workspace buffer `buf` */
    NS_VIEW,       /* a view of args[0] (or, for a loop's parameter, of the
                    * sliced input or the loop's state) */
} NodeStore;

typedef struct NodeInfo {
    NodeStore store;
    int index;             /* NS_INPUT, NS_OUTPUT: in[]/out[] index; NS_BUFFER: buffer */
    int dense;             /* dense row-major (a reshape of it is a view) */
    int copy;              /* NS_BUFFER of a reshape: its operand copied in first */
    int step;              /* where it is defined */
    int depth;             /* loops around it */
    int fused;             /* an f32 element-wise result computed inside its
                            * one consumer's loop (no storage) */
    int inline_const;      /* a literal that every consumer fuses (no storage) */
} NodeInfo;

typedef struct RBuffer {
    LNode *node;           /* the node it holds (NULL: an output's, unused) */
    int first, last;       /* steps */
    int scratch;           /* a loop's new state on its way (LLoop.scratch):
                            * node gives its shape only */
} RBuffer;

typedef struct RunLayout {
    NodeInfo *info;        /* by node id */
    PtrVec buffers;        /* RBuffer* */
    PtrVec copies;         /* LNode*: outputs copied into out[] at the end
                            * (a view, an input, a node given twice) */
    int *copy_to;          /* with copies: the out[] index */
    int nsteps;
    int max_depth;         /* loops nested in loops */
} RunLayout;

/* Whether node n of op is a view of its first argument (given its
 * argument's density): transpose, reverse, slice, expand, a reshape of
 * dense data, a conversion to the same type, a permutation by einsum. */
int lower_is_view(Ctx *c, const LNode *n, int arg_dense);

/* A single-operand einsum spec without "..." whose output permutes its
 * input's axes ("bnhk->bhnk"): perm[i] is the input axis of output axis i. */
int lower_spec_permutation(const char *spec, int *perm, int *rank);

/* The greedy placement of axon__plan_workspace (runtime/kernels/
 * workspace.c) at compile time, for sizes known then (the largest, for
 * WORKSPACE_BYTES_MAX): fills offset[], returns the total (-1 past int64). */
int64_t layout_place(const RunLayout *L, const int64_t *size, int64_t *offset);

/* Whether node n is an f32 element-wise operator that fusion takes
 * (a chain `relu(x * g + b)` computed in one loop: emit_fused.c). */
int lower_fusable(const LNode *n);
/* Whether node n computes its value in one fused loop: an f32
 * element-wise operator (alone too: the loop vectorises where the generic
 * kernel does not), or any node with fused operands. */
int layout_fuses(const RunLayout *L, const LNode *n);

/* Places every node of f. */
RunLayout *layout_function(Ctx *c, LFunc *f);

#endif
