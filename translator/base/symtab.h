/* symtab.h - a string-keyed hash map in the arena (top-level names). */
#ifndef AXONC_SYMTAB_H
#define AXONC_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"

typedef struct SymEntry {
    uint64_t hash;
    const char *key;      /* NULL: an empty slot */
    void *val;
} SymEntry;

typedef struct Symtab {
    Arena *a;
    SymEntry *e;
    size_t cap, n;
} Symtab;

void st_init(Symtab *t, Arena *a);
/* Makes room for n keys at once (no table is made and dropped growing). */
void st_reserve(Symtab *t, size_t n);
void *st_get(const Symtab *t, const char *key);
/* Maps key to val and returns what key mapped to before (NULL if nothing). */
void *st_put(Symtab *t, const char *key, void *val);
/* Forgets every key, keeping the table's room (one sequential pass). */
void st_clear(Symtab *t);

#endif
