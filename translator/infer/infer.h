/* infer.h - Hindley-Milner inference of a whole program (with the prelude
 * of built-in rules read first), producing a scheme per top-level item. */
#ifndef AXONC_INFER_H
#define AXONC_INFER_H

#include "checked.h"

/* Infers every item; errors go to c->diag.  Returns the number of errors. */
int infer_program(Ctx *c, Program *prelude, Program *prog, Checked *out);

#endif
