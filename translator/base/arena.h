/* arena.h - the one bump allocator of a compilation.
 *
 * Every object the translator creates (AST, types, dimensions, strings,
 * growable arrays) lives in the compilation's arena and is released at once
 * by ar_free().  Allocation never returns NULL: running out of memory prints
 * a diagnostic and exits 1.
 */
#ifndef AXONC_ARENA_H
#define AXONC_ARENA_H

#include <stddef.h>

typedef struct ArChunk ArChunk;
typedef struct Arena {
    ArChunk *head;      /* newest chunk */
    char *cur;          /* its next free byte */
    size_t avail;       /* and how many bytes are left there */
    size_t total;       /* bytes obtained from the system */
} Arena;

void ar_init(Arena *a);
void ar_free(Arena *a);
void *ar_alloc_slow(Arena *a, size_t size);

/* Zeroed memory (chunks are zero when obtained and never reused), aligned
 * to 8 bytes.  The common case is a bump of a pointer, inline. */
static inline void *ar_alloc(Arena *a, size_t size)
{
    size = size ? (size + 7) & ~(size_t)7 : 8;
    if (size <= a->avail) {
        void *p = a->cur;
        a->cur += size;
        a->avail -= size;
        return p;
    }
    return ar_alloc_slow(a, size);
}
void *ar_grow(Arena *a, void *old, size_t old_size, size_t new_size);
char *ar_strndup(Arena *a, const char *s, size_t n);
char *ar_strdup(Arena *a, const char *s);
char *ar_printf(Arena *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A growable array of pointers in the arena. */
typedef struct PtrVec {
    void **items;
    int n, cap;
} PtrVec;
void pv_push(Arena *a, PtrVec *v, void *item);

/* A growable string in the arena.  Past `limit` bytes (0: none) it stops
 * growing and sets `full`, so that printing an exponentially large type
 * cannot exhaust memory. */
typedef struct Buf {
    Arena *a;
    char *p;
    size_t n, cap, limit;
    int full;
} Buf;
void buf_init(Buf *b, Arena *a);
void buf_puts(Buf *b, const char *s);
void buf_putc(Buf *b, char c);
void buf_printf(Buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
const char *buf_str(Buf *b);

#endif
