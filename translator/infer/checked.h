/* checked.h - what inference leaves of a program: each top-level item with
 * its scheme (infer.h makes them). */
#ifndef AXONC_CHECKED_H
#define AXONC_CHECKED_H

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

#endif
