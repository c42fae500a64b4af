/* dot.h - `axonc emit --format=dot`: each function's dataflow graph, with
 * the inferred shape on every edge, for Graphviz. */
#ifndef AXONC_DOT_H
#define AXONC_DOT_H

#include "compilation.h"

void dot_program(Compilation *cp, Buf *out);

#endif
