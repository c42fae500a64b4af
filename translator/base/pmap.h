/* pmap.h - a persistent string-keyed map in the arena: putting a key makes
 * a new map and leaves the old one as it was, so an environment captured by
 * a closure stays valid while the code after it binds more names.  A get
 * and a put cost the depth of a hash trie (a few levels), not the number of
 * names bound before: run()'s lowering binds one name per let of a
 * function of any length. */
#ifndef AXONC_PMAP_H
#define AXONC_PMAP_H

#include "arena.h"

typedef struct PMap PMap;   /* NULL: the empty map */

/* m with key mapped to val (a key already there is shadowed). */
PMap *pmap_put(Arena *a, const PMap *m, const char *key, void *val);
/* What key maps to in m, or NULL. */
void *pmap_get(const PMap *m, const char *key);

#endif
