/* imports.h - `import "file.axon";` (axon-spec.md section 2): the files a
 * program imports, read once each, in the order their items are seen.
 *
 * A path is looked up relative to the importing file, then in each `-I DIR`
 * in order.  A file imported twice (by the same path or another, found
 * through its real path) counts once; an import cycle, a missing file and
 * imports nested past IMPORT_MAX_DEPTH are errors at the import, naming
 * both places.  Files are read from the file system, or, for a compilation
 * from memory (the fuzz target), from a set of texts that the caller gives:
 * nothing else is ever opened.
 */
#ifndef AXONC_IMPORTS_H
#define AXONC_IMPORTS_H

#include "ast.h"
#include "source.h"

enum { IMPORT_MAX_DEPTH = 256 };

typedef struct ImportPlace {
    PtrVec include;         /* const char*: the -I directories, in order */
    int from_disk;          /* read files from the file system */
    int nmem;               /* else: these texts, by name */
    const char *const *mem_names;
    const char *const *mem_texts;
    const size_t *mem_lens;
} ImportPlace;

/* Reads the files that main imports (and those they import), parsed, in
 * dependency order: a file's imports before it.  Returns them (Program*)
 * in *programs and their paths (const char*, as found) in *paths; errors
 * go to diag. */
void imports_resolve(Arena *a, Diag *diag, Program *main, const ImportPlace *where, PtrVec *programs,
                     PtrVec *paths);

#endif
