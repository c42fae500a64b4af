/* scheme.h - let-polymorphism: levels, generalisation and instantiation
 * (level-based, after Kiselyov's "Efficient and insightful generalization").
 */
#ifndef AXONC_SCHEME_H
#define AXONC_SCHEME_H

#include "terms.h"

void enter_level(Ctx *c);
void leave_level(Ctx *c);
Scheme *scheme_mono(Ctx *c, Type *t);
/* After leave_level(): quantifies the variables of t (and of the
 * constraints made inside) whose level is above the current one. */
Scheme *generalize(Ctx *c, Type *t);
/* After leave_level() for a binding that is not generalised: every variable
 * made inside moves to the current level, its constraints with it. */
Scheme *settle(Ctx *c, Type *t);
Type *instantiate(Ctx *c, const Scheme *s, const Origin *o);
/* A call of a function of scheme s on arguments of these types, when the
 * arguments already have the shape its parameters ask (nothing in them to
 * bind or check, as is usual): its result, with the scheme's constraints
 * added, and nothing copied but the result.  NULL otherwise: instantiate
 * and unify instead (which then reports any error). */
Type *instantiate_call(Ctx *c, const Scheme *s, const Origin *o, Type **args, int nargs);

/* What an instantiation made of each generic variable it met: while
 * Ctx.inst_log is set, instantiate and instantiate_call record one pair per
 * variable (the lowering of run() reads them: what the callee's sizes are
 * at a call, lower.c). */
typedef enum { INST_DIM, INST_SHAPE, INST_ELEM, INST_TYPE } InstKind;
typedef struct InstPair {
    InstKind kind;
    void *from;            /* the generic DVar*, SVar*, Elem* or Type* (a variable) */
    void *to;              /* what it is in the instance: Dim*, Shape*, Elem*, Type* */
} InstPair;

#endif
