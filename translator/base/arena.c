/* arena.c - chunked bump allocation for one compilation (see arena.h). */
#define _DEFAULT_SOURCE
#include "arena.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ArChunk {
    ArChunk *next;
    size_t size;
    size_t mapped;      /* bytes mapped with mmap; 0 when from calloc */
    int dedicated;      /* one large allocation's own chunk */
    /* payload follows, aligned for pointers and 64-bit integers (the
     * translator allocates nothing that needs more) */
    union { double d; void *p; long long ll; } payload[];
};

enum { AR_CHUNK = 256 * 1024, AR_ALIGN = 8 };
enum { AR_MAX_CHUNK = 16 * 1024 * 1024 };

static void ar_oom(void)
{
    fputs("axonc: error: out of memory\n", stderr);
    exit(1);
}

void ar_init(Arena *a)
{
    a->head = NULL;
    a->cur = NULL;
    a->avail = 0;
    a->total = 0;
}

/* A zeroed chunk.  Large ones are mapped directly (Linux), aligned to 2 MiB
 * and marked for transparent huge pages, then populated in one call: a
 * compilation touches all of its arena, and one fault per 2 MiB (or one
 * call for the whole chunk) costs far less than one fault per 4 KiB page
 * (bench/README.md).  Where the kernel lacks either advice the chunk
 * still works, faulted in page by page. */
enum { AR_HUGE = 2 * 1024 * 1024 };

static ArChunk *chunk_get(size_t bytes)
{
#if defined(__linux__) && defined(MAP_ANONYMOUS)
    if (bytes >= 1024 * 1024 && bytes <= SIZE_MAX - 2 * AR_HUGE) {
        size_t len = (bytes + AR_HUGE - 1) / AR_HUGE * AR_HUGE;
        char *p = mmap(NULL, len + AR_HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) {
            /* Keep the 2 MiB-aligned part; give back the rest. */
            char *start = (char *)(((uintptr_t)p + AR_HUGE - 1) & ~(uintptr_t)(AR_HUGE - 1));
            size_t head = (size_t)(start - p);
            if (head)
                munmap(p, head);
            munmap(start + len, AR_HUGE - head);   /* head < AR_HUGE */
#if defined(MADV_HUGEPAGE)
            madvise(start, len, MADV_HUGEPAGE);
#endif
#if defined(MADV_POPULATE_WRITE)
            /* its first 4 MiB at once (one fault instead of thousands);
             * the rest as it is used, 2 MiB a fault, so that the peak RSS
             * is not a whole chunk past what is used */
            madvise(start, len < 2 * AR_HUGE ? len : 2 * AR_HUGE, MADV_POPULATE_WRITE);
#endif
            ArChunk *c = (ArChunk *)start;
            c->mapped = len;
            return c;
        }
    }
#endif
    return calloc(1, bytes);
}

static void chunk_put(ArChunk *c)
{
#if defined(__linux__) && defined(MAP_ANONYMOUS)
    if (c->mapped) {
        munmap(c, c->mapped);
        return;
    }
#endif
    free(c);
}

void ar_free(Arena *a)
{
    ArChunk *c = a->head;
    while (c) {
        ArChunk *next = c->next;
        chunk_put(c);
        c = next;
    }
    ar_init(a);
}

/* Adds a chunk of at least `need` bytes.  A large object gets a chunk of its
 * own, linked behind the current one so that the current chunk's free space
 * is not wasted; its payload is returned.  Otherwise the new chunk becomes the
 * current one and NULL is returned. */
/* Adds a chunk for an allocation of `need` bytes and returns that
 * allocation.  A large one gets a chunk of its own, linked behind the
 * current one so that the current chunk's free space is not wasted. */
static void *ar_new_chunk(Arena *a, size_t need)
{
    int dedicated = need > AR_CHUNK;
    /* Chunks grow with the arena (a quarter of it), up to AR_MAX_CHUNK. */
    size_t grow = a->total / 4 < AR_CHUNK ? AR_CHUNK : a->total / 4 > AR_MAX_CHUNK ? AR_MAX_CHUNK : a->total / 4;
    size_t size = dedicated ? need : grow;
    if (size > SIZE_MAX - sizeof(ArChunk))
        ar_oom();
    ArChunk *c = chunk_get(sizeof(ArChunk) + size);
    if (!c)
        ar_oom();
    c->size = size;
    c->dedicated = dedicated;
    a->total += size;
    if (dedicated && a->head) {
        c->next = a->head->next;
        a->head->next = c;
        return c->payload;
    }
    c->next = a->head;
    a->head = c;
    a->cur = (char *)c->payload + need;
    a->avail = size - need;
    return c->payload;
}

void *ar_alloc_slow(Arena *a, size_t size)
{
    if (size > SIZE_MAX - AR_ALIGN)
        ar_oom();
    return ar_new_chunk(a, size);
}

/* Gives back the dedicated chunk whose payload is p, if there is one (a
 * growing buffer's old copy: without this, a buffer doubled up to n bytes
 * would keep n more bytes of old copies).  Dedicated chunks are few (one
 * per large allocation), so the walk is short. */
static void release_dedicated(Arena *a, void *p)
{
    if (!a->head)
        return;
    /* (never the head: the arena's next free byte may be inside it) */
    for (ArChunk **link = &a->head->next; *link; link = &(*link)->next) {
        ArChunk *c = *link;
        if (c->dedicated && (void *)c->payload == p) {
            *link = c->next;
            a->total -= c->size;
            chunk_put(c);
            return;
        }
    }
}

void *ar_grow(Arena *a, void *old, size_t old_size, size_t new_size)
{
    void *p = ar_alloc(a, new_size);
    if (old && old_size) {
        memcpy(p, old, old_size < new_size ? old_size : new_size);
        if (old_size > AR_CHUNK && old != p)
            release_dedicated(a, old);
    }
    return p;
}

char *ar_strndup(Arena *a, const char *s, size_t n)
{
    char *p = ar_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *ar_strdup(Arena *a, const char *s)
{
    return ar_strndup(a, s, strlen(s));
}

char *ar_printf(Arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    char *p = ar_alloc(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

void pv_push(Arena *a, PtrVec *v, void *item)
{
    if (v->n == v->cap) {
        int ncap = v->cap ? v->cap * 2 : 2;     /* most lists are short */
        v->items = ar_grow(a, v->items, sizeof(void *) * (size_t)v->cap,
                           sizeof(void *) * (size_t)ncap);
        v->cap = ncap;
    }
    v->items[v->n++] = item;
}

void buf_init(Buf *b, Arena *a)
{
    b->a = a;
    b->p = NULL;
    b->n = b->cap = 0;
    b->limit = 0;
    b->full = 0;
}

static void buf_reserve(Buf *b, size_t extra)
{
    if (b->n + extra + 1 <= b->cap)
        return;
    size_t ncap = b->cap ? b->cap * 2 : 64;
    while (ncap < b->n + extra + 1)
        ncap *= 2;
    b->p = ar_grow(b->a, b->p, b->cap, ncap);
    b->cap = ncap;
}

void buf_puts(Buf *b, const char *s)
{
    size_t len = strlen(s);
    if (b->full || (b->limit && b->n + len > b->limit)) {
        b->full = 1;
        return;
    }
    buf_reserve(b, len);
    memcpy(b->p + b->n, s, len);
    b->n += len;
    b->p[b->n] = 0;
}

void buf_putc(Buf *b, char c)
{
    char s[2] = { c, 0 };
    buf_puts(b, s);
}

void buf_printf(Buf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        buf_puts(b, small);
        return;
    }
    char *big = ar_alloc(b->a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    buf_puts(b, big);
}

const char *buf_str(Buf *b)
{
    return b->p ? b->p : "";
}
