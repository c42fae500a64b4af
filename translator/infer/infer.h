/* infer.h - Hindley-Milner inference of a whole program (with the prelude
 * of built-in rules read first), producing a scheme per top-level item. */
#ifndef AXONC_INFER_H
#define AXONC_INFER_H

#include "ast.h"
#include "terms.h"

typedef struct Binding {
    Item *item;
    Scheme *scheme;        /* NULL when the item had an error */
    int builtin;
    int failed;
} Binding;

typedef struct Checked {
    Program *prog;
    PtrVec bindings;       /* Binding*, the user's items in source order */
} Checked;

/* Infers every item; errors go to c->diag.  Returns the number of errors. */
int infer_program(Ctx *c, Program *prelude, Program *prog, Checked *out);

#endif
