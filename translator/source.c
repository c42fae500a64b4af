/* source.c - loading sources, computing line/column, printing diagnostics. */
#define _POSIX_C_SOURCE 200809L
#include "source.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

Loc loc_span(Loc a, Loc b)
{
    Loc r = a;
    if (b.end > r.end)
        r.end = b.end;
    return r;
}

Source *src_from_text(Arena *a, const char *name, const char *text, size_t len, int builtin)
{
    Source *s = ar_alloc(a, sizeof *s);
    s->name = ar_strdup(a, name);
    char *t = ar_alloc(a, len + 1);
    memcpy(t, text, len);
    t[len] = 0;
    s->text = t;
    s->len = len;
    s->builtin = builtin;
    int n = 1;
    for (size_t i = 0; i < len; i++)
        if (t[i] == '\n')
            n++;
    s->lines = ar_alloc(a, sizeof(uint32_t) * (size_t)n);
    int k = 0;
    s->lines[k++] = 0;
    for (size_t i = 0; i < len; i++)
        if (t[i] == '\n')
            s->lines[k++] = (uint32_t)(i + 1);
    s->nlines = n;
    return s;
}

Source *src_load(Arena *a, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        errno = EISDIR;
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        errno = ENOMEM;
        return NULL;
    }
    for (;;) {
        if (len == cap) {
            char *nb = cap < ((size_t)1 << 40) ? realloc(buf, cap * 2) : NULL;
            if (!nb) {
                free(buf);
                fclose(f);
                errno = ENOMEM;
                return NULL;
            }
            buf = nb;
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
        free(buf);
        errno = bad ? EIO : EFBIG;
        return NULL;
    }
    Source *s = src_from_text(a, path, buf, len, 0);
    free(buf);
    return s;
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
