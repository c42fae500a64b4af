/* source.c - loading sources, computing line/column, printing diagnostics. */
#define _POSIX_C_SOURCE 200809L
#include "source.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

Loc loc_span(Loc a, Loc b)
{
    Loc r = a;
    if (b.end > r.end)
        r.end = b.end;
    return r;
}

/* A source over text (text[len] is 0), with the offsets where lines start. */
static Source *src_new(Arena *a, const char *name, const char *text, size_t len, int builtin)
{
    Source *s = ar_alloc(a, sizeof *s);
    s->name = ar_strdup(a, name);
    s->text = text;
    s->len = len;
    s->builtin = builtin;
    const char *end = text + len;
    int n = 1;
    for (const char *p = text; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        n++;
    s->lines = ar_alloc(a, sizeof(uint32_t) * (size_t)n);
    int k = 0;
    s->lines[k++] = 0;
    for (const char *p = text; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        s->lines[k++] = (uint32_t)(p - text + 1);
    s->nlines = n;
    return s;
}

Source *src_from_text(Arena *a, const char *name, const char *text, size_t len, int builtin)
{
    return src_new(a, name, ar_strndup(a, text, len), len, builtin);
}

/* Reads the file straight into the arena: a regular file in one buffer of
 * its size, anything else (a pipe) in one that doubles. */
Source *src_load(Arena *a, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct stat st;
    int known = fstat(fileno(f), &st) == 0;
    if (known && S_ISDIR(st.st_mode)) {
        fclose(f);
        errno = EISDIR;
        return NULL;
    }
    size_t cap = 4096, len = 0;
    if (known && S_ISREG(st.st_mode)) {
        if ((uintmax_t)st.st_size > UINT32_MAX - 1) {
            fclose(f);
            errno = EFBIG;
            return NULL;
        }
        cap = (size_t)st.st_size + 1;   /* one more, so the end is seen without growing */
    }
    char *buf = ar_alloc(a, cap);
    for (;;) {
        if (len == cap) {
            if (cap > UINT32_MAX)
                break;                  /* too large: EFBIG below */
            buf = ar_grow(a, buf, cap, cap * 2);
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad || len > UINT32_MAX - 1) {
        errno = bad ? EIO : EFBIG;
        return NULL;
    }
    buf[len] = 0;                       /* len < cap: the last read found the end */
    return src_new(a, path, buf, len, 0);
}

void src_line_col(const Source *s, uint32_t off, int *line, int *col)
{
    int lo = 0, hi = s->nlines - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (s->lines[mid] <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    *line = lo + 1;
    *col = (int)(off - s->lines[lo]) + 1;
}

void diag_init(Diag *d, FILE *out)
{
    memset(d, 0, sizeof *d);
    d->out = out;
    d->max_errors = 20;
}

/* Prints the line holding loc, then a caret line under the span. */
static void diag_show_line(Diag *d, Loc loc)
{
    const Source *s = loc.src;
    if (!s || s->builtin)
        return;
    int line, col;
    src_line_col(s, loc.start, &line, &col);
    uint32_t begin = s->lines[line - 1];
    uint32_t end = begin;
    while (end < s->len && s->text[end] != '\n')
        end++;
    if (end > begin && s->text[end - 1] == '\r')
        end--;
    /* Echo the line, replacing control bytes that would garble a terminal
     * (bytes >= 0x80 pass, for UTF-8; columns count bytes). */
    uint32_t shown = end - begin > 300 ? begin + 300 : end;
    fputs("  ", d->out);
    for (uint32_t i = begin; i < shown; i++) {
        unsigned char c = (unsigned char)s->text[i];
        fputc(c == '\t' || (c >= 32 && c < 127) || c >= 128 ? c : '?', d->out);
    }
    if (shown < end)
        fputs("...", d->out);
    fputs("\n  ", d->out);
    for (uint32_t i = begin; i < loc.start && i < shown; i++)
        fputc(s->text[i] == '\t' ? '\t' : ' ', d->out);
    fputc('^', d->out);
    uint32_t stop = loc.end < end ? loc.end : end;
    for (uint32_t i = loc.start + 1; i < stop && i < shown; i++)
        fputc('~', d->out);
    fputc('\n', d->out);
}

static void diag_vemit(Diag *d, Loc loc, const char *kind, const char *fmt, va_list ap)
{
    if (loc.src) {
        int line, col;
        src_line_col(loc.src, loc.start, &line, &col);
        if (loc.src->builtin)
            fprintf(d->out, "%s: %s: ", loc.src->name, kind);
        else
            fprintf(d->out, "%s:%d:%d: %s: ", loc.src->name, line, col, kind);
    } else {
        fprintf(d->out, "axonc: %s: ", kind);
    }
    vfprintf(d->out, fmt, ap);
    fputc('\n', d->out);
    diag_show_line(d, loc);
}

void diag_error(Diag *d, Loc loc, const char *fmt, ...)
{
    d->errors++;
    d->in_error = d->errors <= d->max_errors;
    if (!d->in_error) {
        if (!d->suppressed++)
            fprintf(d->out, "axonc: too many errors; the rest are not shown\n");
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    diag_vemit(d, loc, "error", fmt, ap);
    va_end(ap);
}

void diag_warning(Diag *d, Loc loc, const char *fmt, ...)
{
    d->in_error = 1;
    va_list ap;
    va_start(ap, fmt);
    diag_vemit(d, loc, "warning", fmt, ap);
    va_end(ap);
}

void diag_note(Diag *d, Loc loc, const char *fmt, ...)
{
    if (!d->in_error)
        return;
    va_list ap;
    va_start(ap, fmt);
    diag_vemit(d, loc, "note", fmt, ap);
    va_end(ap);
}

void diag_note_plain(Diag *d, const char *fmt, ...)
{
    if (!d->in_error)
        return;
    va_list ap;
    fputs("note: ", d->out);
    va_start(ap, fmt);
    vfprintf(d->out, fmt, ap);
    va_end(ap);
    fputc('\n', d->out);
}
