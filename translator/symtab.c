/* symtab.c - open addressing with linear probing, FNV-1a hashes kept beside
 * the keys (a probe compares strings only when the hashes agree); the table
 * doubles at half load (old tables stay in the arena until it is freed). */
#include "symtab.h"

#include <stdint.h>
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
    t->keys = ar_alloc(a, sizeof(char *) * t->cap);
    t->vals = ar_alloc(a, sizeof(void *) * t->cap);
    t->hashes = ar_alloc(a, sizeof(uint64_t) * t->cap);
}

static size_t slot(const Symtab *t, const char *key, uint64_t h)
{
    size_t i = (size_t)(h & (t->cap - 1));
    while (t->keys[i] && (t->hashes[i] != h || (t->keys[i] != key && strcmp(t->keys[i], key) != 0)))
        i = (i + 1) & (t->cap - 1);
    return i;
}

void *st_get(const Symtab *t, const char *key)
{
    size_t i = slot(t, key, hash(key));
    return t->keys[i] ? t->vals[i] : NULL;
}

void st_put(Symtab *t, const char *key, void *val)
{
    if (2 * (t->n + 1) > t->cap) {
        Symtab big = { t->a, NULL, NULL, NULL, t->cap * 2, 0 };
        big.keys = ar_alloc(t->a, sizeof(char *) * big.cap);
        big.vals = ar_alloc(t->a, sizeof(void *) * big.cap);
        big.hashes = ar_alloc(t->a, sizeof(uint64_t) * big.cap);
        for (size_t i = 0; i < t->cap; i++)
            if (t->keys[i])
                st_put(&big, t->keys[i], t->vals[i]);
        *t = big;
    }
    uint64_t h = hash(key);
    size_t i = slot(t, key, h);
    if (!t->keys[i]) {
        t->keys[i] = key;
        t->hashes[i] = h;
        t->n++;
    }
    t->vals[i] = val;
}
