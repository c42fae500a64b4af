/* compilation.h - one compilation as the front end and inference leave it:
 * its arena and diagnostics, the prelude and the program (the file's items
 * after those of the files it imports), every binding's scheme, and the
 * files it read.  The stages after inference (lower/, plan/, emit/) read
 * it; driver/compile.c makes it. */
#ifndef AXONC_COMPILATION_H
#define AXONC_COMPILATION_H

#include "imports.h"
#include "infer.h"

#ifndef AXONC_VERSION
#define AXONC_VERSION "0.1.0"   /* printed by --version and in every header */
#endif

typedef struct Compilation {
    Arena arena;
    Diag diag;
    Ctx ctx;
    const Source *src;      /* the file given */
    Program *prelude, *prog;    /* prog: the file's items, after those of
                                 * the files it imports */
    Checked checked;
    ImportPlace imports;    /* where imports are read */
    PtrVec imported;        /* const char*: the files imported (depfiles) */
} Compilation;

/* Whether item it is of the file given (not of one it imports): check
 * prints and emit exports only those. */
int compile_own_item(const Compilation *cp, const Item *it);

#endif
