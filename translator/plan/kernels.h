/* kernels.h - which kernels run() calls: for each node of a lowered
 * function, the reference kernel file it needs (runtime/kernels/, by
 * element type) and whether it runs the fast f32 kernel of its family
 * (runtime/fast/), with the scratch that takes; and, over the header's
 * functions, the files and families the header must carry.  emit_ops.c
 * writes each call as this chose it; emit_kernels.c carries the files. */
#ifndef AXONC_KERNELS_H
#define AXONC_KERNELS_H

#include "buffers.h"
#include "scratch.h"

/* The kernel files that are templates, by element type. */
enum { KF_ELEMENTWISE, KF_MATMUL, KF_EINSUM, KF_REDUCE, KF_CONV, KF_POOL, KF_NORM, KF_INDEX, KF_COUNT };
/* Their names (the include guards' AXON__K_<name>_<type>_1). */
extern const char *const kernels_file_names[KF_COUNT];

/* The fast f32 families beside the references (runtime/fast/, fast.h). */
enum { FF_MATMUL, FF_CONV, FF_POOL, FF_NORM, FF_REDUCE, FF_COUNT };

/* The kernels a header needs, over all its functions. */
typedef struct RunKernels {
    unsigned char need[KF_COUNT][16];   /* [kernel file][element type] */
    unsigned char fast[FF_COUNT];       /* the fast families some run() calls */
    int any;               /* some function has run() */
    PtrVec externs;        /* Item*: the program's externs that a run() calls (an extern once per function that calls it) */
} RunKernels;

/* What one function's run() calls, chosen by kernels_select. */
typedef struct KernelChoice {
    unsigned char *fast;   /* per node id: runs its family's fast kernel */
    ScratchNeed most;      /* bounded: the most scratch one such step needs
                            * at the largest sizes */
    int bounded_fast;      /* bounded: a step that needs scratch runs fast */
} KernelChoice;

/* The scratch a step needs at the function's largest sizes, or none
 * known (fixed INT64_MAX). */
extern const ScratchNeed kernels_no_need;

/* Chooses the kernels of f's nodes (placed by L) into kc and marks in k
 * what the header must carry.  scratch_ok: a fast kernel that needs
 * scratch may run (no nonzero changes sizes during run(), no bound);
 * bounded: the function's sizes are bounded and dmax gives each node's
 * largest sizes (rank -1: none), within which a step that needs scratch
 * runs fast where its need is known (P_NAME_WORKSPACE_BYTES_MAX reserves
 * the most); otherwise such a step runs the reference. */
void kernels_select(Ctx *c, LFunc *f, RunLayout *L, int scratch_ok, int bounded, const ScratchShape *dmax,
                    KernelChoice *kc, RunKernels *k);

/* ---- the operators' kinds, as both sides name them ---- */

/* An element-wise unary operator: its index in kernels_unop_names, or -1. */
int kernels_unop(const char *op);
extern const char *const kernels_unop_names[];
/* A binary arithmetic operator's AXON_OP_ name, or NULL. */
const char *kernels_binop(const char *op);
/* A comparison's AXON_OP_ name, or NULL. */
const char *kernels_cmpop(const char *op);
/* A conversion to an element type (`f32(x)`). */
int kernels_is_conversion(const char *op);

/* A two-operand einsum's labels by group: bit t of in[l] says label l is
 * in side t (a, b, out), at axis pos[l] of node of[l].  0 where the spec
 * does not name every axis of known rank. */
int kernels_einsum_labels(LNode *n, unsigned char in[256], LNode *of_l[256], int pos_l[256]);
/* Which of an einsum's products' rows (0), columns (1) and sum (2) label
 * l's size multiplies (a label of out alone counts as rows and columns):
 * a mask. */
int kernels_einsum_group(unsigned char in);

/* A conv's parameter q (0 stride, 1 padding, 2 dilation, 3 groups) on
 * spatial axis i (0 height, 1 width; groups: either): the dims node that
 * gives it and its index there, or NULL where it takes its default
 * (kernels_conv_default: 1, 0, 1, 1): a call of two arguments, a plain
 * conv's dilation and groups, a 1-D conv's height. */
LNode *kernels_conv_param(LNode *n, int one_d, int grouped, int q, int i, int *j);
extern const int64_t kernels_conv_default[4];

#endif
