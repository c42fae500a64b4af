/* compile.h - the front end and inference of one compilation: the
 * source read, the prelude and the program parsed, the imports resolved,
 * every item inferred (the result: compilation.h). */
#ifndef AXONC_COMPILE_H
#define AXONC_COMPILE_H

#include "compilation.h"

/* Reads and infers `path`.  Returns 0 on success; on failure the
 * diagnostics have been printed and the return value is the exit status. */
/* warn: what warnings do: COMPILE_WARN print them, COMPILE_WERROR (-Werror)
 * makes them errors, COMPILE_NOWARN (-w) shows none. */
enum { COMPILE_WARN, COMPILE_WERROR, COMPILE_NOWARN };
/* include: the -I directories (const char*), or NULL. */
int compile_file(Compilation *cp, const char *path, FILE *diag_out, int warn, const PtrVec *include);
/* ... keeping what the emitter needs to explain its checks. */
int compile_file_for_emit(Compilation *cp, const char *path, FILE *diag_out, int warn, const PtrVec *include);
/* The same from a buffer in memory (text[0 .. len), which may contain NUL
 * bytes and need not be NUL-terminated; over SRC_MAX_BYTES is refused, as
 * a file is), named `name` in diagnostics and for the default prefix;
 * explain as compile_file (0) or compile_file_for_emit (1).  Used by the
 * fuzz target (tests/fuzz/). */
int compile_text(Compilation *cp, const char *name, const char *text, size_t len, FILE *diag_out,
                 int explain);
/* The same, with the files it may import in memory too (texts[i] named
 * names[i]): nothing is read from the file system. */
int compile_texts(Compilation *cp, const char *name, const char *text, size_t len, int nfiles,
                  const char *const *names, const char *const *texts, const size_t *lens, FILE *diag_out,
                  int explain);
/* Releases everything the compilation allocated (also after a failure). */
void compile_free(Compilation *cp);
/* "name : signature" lines for `axonc check`.  NULL if one is too large. */
const char *compile_signatures(Compilation *cp);

#endif
