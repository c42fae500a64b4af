/* plan.h - the run-time plan of one exported function: every fact its
 * shape function must check, bind or solve once the input shapes are
 * numbers, in an order where each step's operands are known
 * (axon-spec.md section 8; docs/design.md, "The run-time plan").
 *
 * Inference leaves a scheme: the function's type over variables, and the
 * residual constraints it could not decide.  At run time each input's
 * shape is concrete, and the plan (plan.c) is a small solver over that
 * knowledge: a shape pattern is matched against a concrete shape (an
 * input, a computed broadcast, a residual's known side), which decides the
 * one shape variable whose length is unknown and turns each axis into an
 * equation `d = value`; an equation checks d when d is known, binds a
 * variable, or solves for the one unknown in it; a residual constraint is
 * checked once its sizes are known or, when it has unknowns, becomes a
 * match or an equation that solves them.  What no input decides refuses
 * the function, with the reason.  emit_fn.c writes each step as C;
 * plan_print.c writes it as text (`axonc emit --format=plan`).
 */
#ifndef AXONC_PLAN_H
#define AXONC_PLAN_H

#include "plan_known.h"

/* Plans the checks of a function whose tensors are in p (inputs, outputs,
 * temps; the type of each is its own).  Returns 0, or 1 with p->refused
 * set when some residual cannot be decided from the input shapes. */
int plan_function(Plan *p, const Scheme *s);

#endif
