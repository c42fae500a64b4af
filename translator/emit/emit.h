/* emit.h - `axonc emit`: the self-contained C/CUDA header (axon-spec.md
 * section 8), put together from each exported function's printed pieces
 * (emit_fn.h: its shape function; emit_run.h: its run()). */
#ifndef AXONC_EMIT_H
#define AXONC_EMIT_H

#include "cnames.h"
#include "emit_kernels.h"
#include "emit_run.h"

/* One exported function's part of the header. */
typedef struct EmitFn {
    Binding *b;
    const char *cname;     /* P_NAME */
    FnCode fc;             /* its shape function */
    RunCode rc;            /* its run(), or why none */
} EmitFn;

/* Whether prefix can start the header's names (a C identifier); if not,
 * says so on stderr. */
int emit_check_prefix(const char *prefix);
/* Claims the names function b's part of the header defines at file scope
 * (cnames.h).  Spelled as cnames.h says, two things never get one name;
 * should they all the same, returns 1 with a warning that says which name
 * and what has it (the function is then left out). */
int emit_claim_names(Compilation *cp, CnNames *names, Binding *b, const char *cname, FnCode *fc);
/* Writes the header of the functions fns (EmitFn*, in order), whose run()
 * calls the kernels k, into out. */
void emit_header(Compilation *cp, const char *prefix, const PtrVec *fns, const RunKernels *k, Buf *out);

#endif
