/* imports.c - the files a program imports (imports.h). */
#define _XOPEN_SOURCE 700           /* realpath (glibc declares it for XSI) */
#include "imports.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "symtab.h"

typedef struct Imp {
    Arena *a;
    Diag *diag;
    const ImportPlace *where;
    Symtab done;            /* key -> "" once read (counted once) */
    PtrVec stack;           /* Frame*: the files being read, outermost first */
    PtrVec *programs, *paths;
} Imp;

typedef struct Frame {
    const char *key;        /* the file's real path */
    const char *path;       /* as found */
    const Import *at;       /* the import that led here (NULL: the main file) */
} Frame;

/* The directory part of a path, with its slash ("" for none). */
static const char *dir_of(Arena *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? ar_strndup(a, path, (size_t)(slash - path + 1)) : "";
}

/* A path with single slashes, without "." segments, and with "x/.." taken
 * out: the key of an in-memory file (disk files are keyed by realpath). */
static const char *tidy(Arena *a, const char *path)
{
    PtrVec segs = { 0 };
    const char *p = path;
    while (*p) {
        const char *q = strchr(p, '/');
        size_t n = q ? (size_t)(q - p) : strlen(p);
        const char *seg = ar_strndup(a, p, n);
        if (n == 2 && seg[0] == '.' && seg[1] == '.' && segs.n && strcmp(segs.items[segs.n - 1], "..") != 0)
            segs.n--;
        else if (n && !(n == 1 && seg[0] == '.'))
            pv_push(a, &segs, (void *)seg);
        p += n + (q != NULL);
    }
    Buf b;
    buf_init(&b, a);
    if (path[0] == '/')
        buf_putc(&b, '/');
    for (int i = 0; i < segs.n; i++)
        buf_printf(&b, "%s%s", i ? "/" : "", (const char *)segs.items[i]);
    return buf_str(&b);
}

/* Whether there is a file at path: *key its identity (a real path, or the
 * tidied name of an in-memory file), *mem its index in memory. */
static int exists_at(Imp *m, const char *path, const char **key, int *mem)
{
    const ImportPlace *w = m->where;
    if (!w->from_disk) {
        const char *t = tidy(m->a, path);
        for (int i = 0; i < w->nmem; i++)
            if (strcmp(tidy(m->a, w->mem_names[i]), t) == 0) {
                *key = t;
                *mem = i;
                return 1;
            }
        return 0;
    }
    char *real = realpath(path, NULL);
    if (!real)
        return 0;
    *key = ar_strdup(m->a, real);
    free(real);
    return 1;
}

static void read_imports(Imp *m, Program *prog);

static void one_import(Imp *m, Program *prog, const Import *im)
{
    Arena *a = m->a;
    const ImportPlace *w = m->where;
    /* the candidates: beside the importing file, then each -I directory */
    PtrVec cands = { 0 };
    if (im->path[0] == '/') {
        pv_push(a, &cands, (void *)im->path);
    } else {
        pv_push(a, &cands, ar_printf(a, "%s%s", dir_of(a, prog->src->name), im->path));
        for (int i = 0; i < w->include.n; i++) {
            const char *d = w->include.items[i];
            size_t n = strlen(d);
            pv_push(a, &cands, ar_printf(a, "%s%s%s", d, n && d[n - 1] == '/' ? "" : "/", im->path));
        }
    }
    const char *key = NULL, *found = NULL;
    int mem = -1;
    for (int i = 0; i < cands.n && !found; i++)
        if (exists_at(m, cands.items[i], &key, &mem))
            found = cands.items[i];
    if (!found) {
        Buf where;
        buf_init(&where, a);
        for (int i = 0; i < cands.n; i++)
            buf_printf(&where, "%s'%s'", i ? ", " : "", (const char *)cands.items[i]);
        diag_error(m->diag, im->path_loc, "cannot find '%s' to import (looked at %s)", im->path, buf_str(&where));
        return;
    }
    /* a cycle: the file is one being read */
    for (int i = 0; i < m->stack.n; i++) {
        const Frame *f = m->stack.items[i];
        if (strcmp(f->key, key) != 0)
            continue;
        diag_error(m->diag, im->loc, "import cycle: '%s' imports '%s', which is being read already", prog->src->name,
                   found);
        for (int j = i + 1; j < m->stack.n; j++) {
            const Frame *g = m->stack.items[j];
            if (g->at)
                diag_note(m->diag, g->at->loc, "'%s' is imported here", g->path);
        }
        return;
    }
    if (st_get(&m->done, key))
        return;                             /* imported before: counted once */
    if (m->stack.n > IMPORT_MAX_DEPTH) {
        diag_error(m->diag, im->loc, "imports are nested more than %d deep", IMPORT_MAX_DEPTH);
        return;
    }
    Source *src = mem >= 0 ? src_from_text(a, found, w->mem_texts[mem], w->mem_lens[mem], 0) : src_load(a, found);
    if (!src) {
        int e = errno;
        if (e == EFBIG)
            diag_error(m->diag, im->path_loc, "the imported file '%s' is larger than %d MiB", found, SRC_MAX_MIB);
        else
            diag_error(m->diag, im->path_loc, "cannot read '%s' to import: %s", found, strerror(e));
        return;
    }
    Program *p = parse_source(a, m->diag, src, 0);
    Frame *f = ar_alloc(a, sizeof *f);
    f->key = key;
    f->path = found;
    f->at = im;
    pv_push(a, &m->stack, f);
    read_imports(m, p);
    m->stack.n--;
    st_put(&m->done, key, (void *)"");
    pv_push(a, m->programs, p);
    pv_push(a, m->paths, (void *)found);
}

static void read_imports(Imp *m, Program *prog)
{
    for (int i = 0; i < prog->imports.n; i++)
        one_import(m, prog, prog->imports.items[i]);
}

void imports_resolve(Arena *a, Diag *diag, Program *main, const ImportPlace *where, PtrVec *programs,
                     PtrVec *paths)
{
    Imp m;
    memset(&m, 0, sizeof m);
    m.a = a;
    m.diag = diag;
    m.where = where;
    m.programs = programs;
    m.paths = paths;
    st_init(&m.done, a);
    Frame *f = ar_alloc(a, sizeof *f);
    f->path = main->src->name;
    f->key = main->src->name;
    if (where->from_disk) {
        char *real = realpath(main->src->name, NULL);
        if (real) {
            f->key = ar_strdup(a, real);
            free(real);
        }
    } else {
        f->key = tidy(a, main->src->name);
    }
    pv_push(a, &m.stack, f);
    read_imports(&m, main);
}
