/* runplan.h - run() of one exported function, decided before it is
 * printed: the lowered function (lower.h) checked for what run() can do,
 * every node's shape as a tensor of the shape function that prepare()
 * runs (fnplan.h, in run mode), where each node lives (buffers.h), the
 * workspace placed at the largest sizes of a bounded function, and the
 * kernels each step calls (kernels.h).  emit_run.c prints it. */
#ifndef AXONC_RUNPLAN_H
#define AXONC_RUNPLAN_H

#include "compilation.h"
#include "fnplan.h"
#include "kernels.h"

typedef struct RunPlan {
    LFunc *f;              /* the lowered function */
    PtrVec nodes;          /* PTensor*: each node's shape (FnPlanOptions.run_nodes) */
    PtrVec dyn;            /* DVar*: the sizes nonzeros produce (run()'s dyn[k]) */
    LNode **dyn_node;      /* the nonzero that produces dyn[k] */
    RunLayout *L;          /* where each node lives */
    /* A bounded function (spec 8b, FnPlan.bounded of the nodes' plan): */
    int64_t max_total;     /* the workspace at the largest sizes, or -1 */
    int64_t *max_off;      /* ... each buffer's place in it */
    int scratch_ok;        /* the fast kernels that need scratch may run */
    int bounded;           /* ... within P_NAME_WORKSPACE_BYTES_MAX */
    KernelChoice kernels;  /* each step's kernel */
} RunPlan;

/* Starts the run() of f: NULL with rp's nodes and nonzeros filled, or why
 * run() cannot be made of f (an element type, a size known only at run
 * time that no nonzero of f produces). */
const char *runplan_start(Compilation *cp, LFunc *f, RunPlan *rp);
/* The rest, once the nodes' shape function is planned (nodes: its plan,
 * for the largest sizes): the layout, the workspace at the largest sizes,
 * the kernels (marked in k, with the externs f calls). */
void runplan_finish(Compilation *cp, RunPlan *rp, const FnPlan *nodes, RunKernels *k);

#endif
