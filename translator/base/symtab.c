/* symtab.c - open addressing with linear probing.  Each slot holds the
 * key's FNV-1a hash, the key and the value side by side, so a probe reads
 * one cache line and compares strings only when the hashes agree; the table
 * doubles at half load (old tables stay in the arena until it is freed, so
 * a caller that knows how many keys are coming reserves room at once). */
#include "symtab.h"

#include <string.h>

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

void st_init(Symtab *t, Arena *a)
{
    t->a = a;
    t->cap = 64;
    t->n = 0;
    t->e = ar_alloc(a, sizeof(SymEntry) * t->cap);
}

static SymEntry *slot(const Symtab *t, const char *key, uint64_t h)
{
    size_t i = (size_t)(h & (t->cap - 1));
    for (;;) {
        SymEntry *e = &t->e[i];
        if (!e->key || (e->hash == h && (e->key == key || strcmp(e->key, key) == 0)))
            return e;
        i = (i + 1) & (t->cap - 1);
    }
}

void *st_get(const Symtab *t, const char *key)
{
    SymEntry *e = slot(t, key, hash(key));
    return e->key ? e->val : NULL;
}

/* A table of cap slots (a power of 2) with the entries rehashed by their
 * stored hashes: the keys themselves are not read. */
static void rehash(Symtab *t, size_t cap)
{
    SymEntry *e = ar_alloc(t->a, sizeof(SymEntry) * cap);
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->e[i].key)
            continue;
        size_t j = (size_t)(t->e[i].hash & (cap - 1));
        while (e[j].key)
            j = (j + 1) & (cap - 1);
        e[j] = t->e[i];
    }
    t->e = e;
    t->cap = cap;
}

void st_reserve(Symtab *t, size_t n)
{
    size_t cap = t->cap;
    while (cap < 2 * (t->n + n))
        cap *= 2;
    if (cap != t->cap)
        rehash(t, cap);
}

void *st_put(Symtab *t, const char *key, void *val)
{
    if (2 * (t->n + 1) > t->cap)
        rehash(t, t->cap * 2);
    uint64_t h = hash(key);
    SymEntry *e = slot(t, key, h);
    void *old = e->key ? e->val : NULL;
    if (!e->key) {
        e->key = key;
        e->hash = h;
        t->n++;
    }
    e->val = val;
    return old;
}

void st_clear(Symtab *t)
{
    memset(t->e, 0, sizeof(SymEntry) * t->cap);
    t->n = 0;
}
