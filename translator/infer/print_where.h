/* print_where.h - a scheme's residual constraints as its `where` clauses
 * (print_where.c; axon-spec.md section 7). */
#ifndef AXONC_PRINT_WHERE_H
#define AXONC_PRINT_WHERE_H

#include "print_terms.h"

/* The residual constraints of a scheme that print after its type:
 * writes " where C1, C2" (nothing when there are none). */
void pr_where(Namer *nm, Buf *b, const PtrVec *cons);
void pr_constraint(Namer *nm, Buf *b, Constraint *c);

#endif
