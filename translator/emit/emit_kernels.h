/* emit_kernels.h - the header's shared parts of run() (emit_kernels.c):
 * what the functions' run() call, over all of them (kernels.h). */
#ifndef AXONC_EMIT_KERNELS_H
#define AXONC_EMIT_KERNELS_H

#include "compilation.h"
#include "kernels.h"

/* The implementation part's shared text: the kernels the functions
 * need (once, for each element type), the spec helpers. */
void emit_run_kernels(Compilation *cp, const RunKernels *k, Buf *out);
/* Text needed before the first function when some function has run():
 * the kernels' interface and the workspace planner that prepare() calls;
 * and the externs' table type. */
void emit_run_shared(Compilation *cp, const RunKernels *k, const char *prefix, Buf *out);

#endif
