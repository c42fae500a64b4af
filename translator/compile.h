/* compile.h - one compilation: the arena, the diagnostics, the prelude and
 * the user's program read and inferred. */
#ifndef AXONC_COMPILE_H
#define AXONC_COMPILE_H

#include "infer.h"

#ifndef AXONC_VERSION
#define AXONC_VERSION "0.1.0"   /* printed by --version and in every header */
#endif

typedef struct Compilation {
    Arena arena;
    Diag diag;
    Ctx ctx;
    const Source *src;
    Program *prelude, *prog;
    Checked checked;
} Compilation;

/* Reads and infers `path`.  Returns 0 on success; on failure the
 * diagnostics have been printed and the return value is the exit status. */
int compile_file(Compilation *cp, const char *path, FILE *diag_out);
/* ... keeping what the emitter needs to explain its checks. */
int compile_file_for_emit(Compilation *cp, const char *path, FILE *diag_out);
void compile_free(Compilation *cp);
/* "name : signature" lines for `axonc check`.  NULL if one is too large. */
const char *compile_signatures(Compilation *cp);

#endif
