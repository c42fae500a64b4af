/* symtab.h - a string-keyed hash map in the arena (top-level names). */
#ifndef AXONC_SYMTAB_H
#define AXONC_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"

typedef struct Symtab {
    Arena *a;
    const char **keys;
    void **vals;
    uint64_t *hashes;
    size_t cap, n;
} Symtab;

void st_init(Symtab *t, Arena *a);
void *st_get(const Symtab *t, const char *key);
void st_put(Symtab *t, const char *key, void *val);

#endif
