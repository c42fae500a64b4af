/* print.h - printing types, shapes, dimensions and schemes (axon-spec.md
 * section 7): terms (print_terms.h), `where` clauses (print_where.h),
 * whole signatures (print.c). */
#ifndef AXONC_PRINT_H
#define AXONC_PRINT_H

#include "print_where.h"

/* A scheme as text, cut short (" ...") past limit bytes. */
const char *pr_scheme_str(Ctx *c, const Scheme *s, size_t limit);
/* Prints a scheme with a namer the caller keeps (to ask names afterwards). */
void pr_scheme(Namer *nm, Buf *b, const Scheme *s);

#endif
