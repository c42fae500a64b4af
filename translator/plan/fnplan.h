/* fnplan.h - one exported function made ready to print: its signature
 * flattened into input, output and intermediate tensors (docs/c-api.md,
 * "Index constants"), its run-time plan (plan.h), the bounds of its
 * data-dependent sizes and, where every size is bounded, each tensor's
 * largest size (the maxima of spec 8b).  emit_fn.c writes it as C.
 *
 * fnplan_make notes on the function's variables what the plan knows
 * (plan.h); fnplan_clear takes the notes off once the plan is printed,
 * before another function is planned. */
#ifndef AXONC_FNPLAN_H
#define AXONC_FNPLAN_H

#include "bounds.h"
#include "compilation.h"
#include "plan.h"
#include "scratch.h"

/* The most tensors (inputs, outputs and named intermediates together) of
 * an exported function; a function with more is left out, with a warning. */
#define FNPLAN_MAX_TENSORS 65536

typedef struct FnPlanOptions {
    int elem_default;          /* ElemPrim for element variables; EL_VAR: refuse them */
    const PtrVec *run_nodes;   /* PTensor*: planned in place of the named
                                * intermediates (the nodes of run():
                                * runplan.h); a failure then warns nothing
                                * (FnPlan.why says why) */
    const PtrVec *dyn_known;   /* DVar*: with run_nodes, sizes known as dyn[k] */
} FnPlanOptions;

typedef struct FnPlan {
    Compilation *cp;
    Binding *b;
    FnExpr *fn;                /* its lambda, or NULL */
    FnPlanOptions opt;
    Plan plan;                 /* its tensors and the steps of its shape function */
    Namer nm;                  /* names as the signature prints them */
    DimHashMemo memo;          /* shared by the plan's maps and the writer's */
    uint32_t gen;              /* the writer's maps' generation (dim.h) */
    const char *sig;           /* the signature, as `axonc check` prints it */
    PtrVec inter;              /* every intermediate, named or not, in the order computed */
    PtrVec in_names;           /* each input's index constant's name (IN_x) */
    PtrVec aliases;            /* "x is output 1": a returned name, not an intermediate */
    int elem_vars;             /* element type variables, given elem_default */
    Bounds *rb;                /* the bounds of the sizes, from what the plan knows */
    int bounded;               /* every size bounded (spec 8b): the maxima hold */
    int64_t *maxima[3];        /* the largest element count of each input, output, temp */
    const ScratchShape *temp_dims_max;  /* bounded: each temp's largest sizes (rank -1: none) */
    const char *why;           /* run_nodes: why it cannot be planned */
} FnPlan;

/* Plans the shape function of b.  Returns 0 with fp filled; or 1 when the
 * function cannot be exported (a warning was printed; with run_nodes,
 * fp->why says why instead). */
int fnplan_make(Compilation *cp, Binding *b, const FnPlanOptions *opt, FnPlan *fp);
/* Takes the plan's notes off the variables (after it is printed). */
void fnplan_clear(FnPlan *fp);

/* A tensor's element type (an element variable: elem_default). */
int fnplan_elem(const FnPlan *fp, const PTensor *t);
/* A dims value (an output `[n, n]`): its shape is its values, held by the
 * axon_shape itself; it has no buffer, so no elements (spec section 5b). */
int fnplan_is_dims(const PTensor *t);
/* Whether every shape variable of t is placed (else its rank is unknown). */
int fnplan_rank_known(Ctx *c, const PTensor *t);

#endif
