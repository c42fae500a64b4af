/* scope.h - the names of one item's annotations and what each stands for
 * (elab.c makes them; print.c names variables after them). */
#ifndef AXONC_SCOPE_H
#define AXONC_SCOPE_H

#include "terms.h"

struct Symtab;
typedef enum { NK_TYPE, NK_ELEM, NK_SHAPE, NK_DIM } NameKind;

typedef struct ScopeName {  /* an annotation name and what it stands for */
    const char *name;
    NameKind kind;
    void *var;             /* Type*, Elem*, SVar* or DVar* by kind */
    Loc loc;               /* where it is first written */
} ScopeName;

typedef struct Scope {
    PtrVec names;          /* ScopeName* */
    int level;             /* variables are made at the item's level */
    struct Symtab *index;  /* name -> ScopeName*, once there are many */
    PtrVec dyns;           /* DVar*: the `?`s its annotations made */
    int wrote_bcast;       /* an annotation writes broadcast(...) (warn.c) */
} Scope;

#endif
