/* pmap.c - the persistent map of pmap.h: a trie on the key's 32-bit FNV-1a
 * hash, four bits a level (16 children), a leaf as soon as a key is alone
 * under its prefix; keys whose whole hashes agree share a leaf list.  A put
 * copies the path from the root to the key's leaf (at most 8 branches of
 * 16 pointers) and shares everything else with the map it came from. */
#include "pmap.h"

#include <stdint.h>
#include <string.h>

enum { PMAP_BITS = 4, PMAP_WAYS = 1 << PMAP_BITS };

struct PMap {
    int leaf;
    /* a leaf: one key (and the next key of the same hash) */
    uint32_t hash;
    const char *key;
    void *val;
    const PMap *same;          /* keys whose whole hash is this one */
    /* a branch */
    const PMap *child[PMAP_WAYS];
};

static uint32_t pmap_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static unsigned digit(uint32_t h, int level)
{
    return (h >> (level * PMAP_BITS)) & (PMAP_WAYS - 1);
}

static PMap *new_leaf(Arena *a, uint32_t h, const char *key, void *val, const PMap *same)
{
    PMap *l = ar_alloc(a, offsetof(PMap, child));
    l->leaf = 1;
    l->hash = h;
    l->key = key;
    l->val = val;
    l->same = same;
    return l;
}

/* The leaf list l (one hash) with key mapped to val: copies the entries
 * before key's, drops key's old entry (a name bound again and again keeps
 * the list as short as the distinct keys of this hash). */
static const PMap *leaf_put(Arena *a, const PMap *l, uint32_t h, const char *key, void *val)
{
    if (!l)
        return new_leaf(a, h, key, val, NULL);
    if (strcmp(l->key, key) == 0)
        return new_leaf(a, h, key, val, l->same);
    return new_leaf(a, h, l->key, l->val, leaf_put(a, l->same, h, key, val));
}

static const PMap *put(Arena *a, const PMap *m, int level, uint32_t h, const char *key, void *val)
{
    if (!m)
        return new_leaf(a, h, key, val, NULL);
    if (m->leaf && m->hash == h)
        return leaf_put(a, m, h, key, val);
    PMap *b = ar_alloc(a, sizeof *b);
    if (m->leaf) {
        /* two hashes under one prefix: a branch where they part */
        memset(b, 0, sizeof *b);
        b->child[digit(m->hash, level)] = m;
    } else {
        *b = *m;
    }
    unsigned d = digit(h, level);
    b->child[d] = put(a, b->child[d], level + 1, h, key, val);
    return b;
}

PMap *pmap_put(Arena *a, const PMap *m, const char *key, void *val)
{
    return (PMap *)put(a, m, 0, pmap_hash(key), key, val);
}

void *pmap_get(const PMap *m, const char *key)
{
    uint32_t h = pmap_hash(key);
    for (int level = 0; m && !m->leaf; level++)
        m = m->child[digit(h, level)];
    for (; m && m->hash == h; m = m->same)
        if (strcmp(m->key, key) == 0)
            return m->val;
    return NULL;
}
