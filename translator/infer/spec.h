/* spec.h - spec strings in NumPy's einsum notation (axon-spec.md section
 * 5b): "bhnd,bhmd->bhnm" for einsum, "...n->..." for the reductions.  A
 * spec is a literal whose rule is the signature it spells; spec.c writes
 * that signature as Axon type text, which inference then reads like an
 * extern's (infer.c). */
#ifndef AXONC_SPEC_H
#define AXONC_SPEC_H

#include "terms.h"

/* Whether name is an operator whose first argument is a spec string. */
int spec_is_op(const char *name);

/* The signature that spec spells for op, as type text: the first
 * parameter (the string itself) is a whole-type variable, then one tensor
 * per operand: einsum("...nd,...md->...nm", a, b) is
 *   (h, t e1 @ [L_n, L_d], t e2 @ [L_m, L_d]) -> t broadcast(e1, e2) @ [L_n, L_m]
 * Labels are sizes (equal wherever they appear), "..." any leading, middle
 * or trailing axes (broadcast between operands), a 1 in a reduction's output
 * keeps that axis with size 1.  NULL after an error, reported at the
 * offending character of the string literal at loc. */
const char *spec_signature(Ctx *c, const char *op, const char *spec, Loc loc);

#endif
