/* depfile.h - the make rule that `axonc emit -MD` writes (as gcc -MD):
 * `OUT: SOURCE IMPORTED...` and `NAME:` for each, names escaped for make. */
#ifndef AXONC_DEPFILE_H
#define AXONC_DEPFILE_H

#include "arena.h"

/* The depfile's name for -MD without -MF: OUT with .d for its extension. */
const char *default_depfile(Arena *a, const char *out);
/* Appends the rule for OUT made from FILE and the files it imports
 * (imported: const char*) to dep.  Returns 0, or 1 after a message on
 * stderr when make could not read a name back. */
int make_rule(Buf *dep, const char *out, const char *file, const PtrVec *imported);

#endif
