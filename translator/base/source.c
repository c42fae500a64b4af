/* source.c - loading sources, computing line/column, printing diagnostics. */
#define _POSIX_C_SOURCE 200809L
#include "source.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
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

/* Reads the rest of f after the `len` bytes in `have` into one malloc'd
 * buffer that doubles but never holds more than SRC_MAX_BYTES + 1 bytes.
 * Returns it with *total, or NULL with errno EFBIG (more than the limit),
 * EIO or ENOMEM. */
static char *read_rest(FILE *f, const char *have, size_t len, size_t *total)
{
    size_t cap = len < 65536 ? 65536 : len * 2;
    if (cap > SRC_MAX_BYTES + 1)
        cap = SRC_MAX_BYTES + 1;
    char *buf = malloc(cap);
    if (!buf)
        return NULL;
    memcpy(buf, have, len);
    for (;;) {
        if (len == cap) {
            if (cap > SRC_MAX_BYTES) {
                free(buf);
                errno = EFBIG;
                return NULL;
            }
            size_t ncap = cap > SRC_MAX_BYTES / 2 ? SRC_MAX_BYTES + 1 : cap * 2;
            char *more = realloc(buf, ncap);
            if (!more) {
                free(buf);
                errno = ENOMEM;
                return NULL;
            }
            buf = more;
            cap = ncap;
        }
        size_t want = cap - len;
        size_t got = fread(buf + len, 1, want, f);
        len += got;
        if (got < want)
            break;                      /* the end, or an error */
    }
    if (ferror(f)) {
        free(buf);
        errno = EIO;
        return NULL;
    }
    *total = len;
    return buf;
}

/* Reads the file into the arena: a regular file straight into one buffer
 * of its size; a pipe or a device (or a file that grew) through read_rest,
 * then copied.  Never more than SRC_MAX_BYTES + 1 bytes are read. */
Source *src_load(Arena *a, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct stat st;
    if (fstat(fileno(f), &st) != 0) {
        int e = errno;
        fclose(f);
        errno = e;
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        fclose(f);
        errno = EISDIR;
        return NULL;
    }
    if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > SRC_MAX_BYTES) {
        fclose(f);
        errno = EFBIG;
        return NULL;
    }
    /* One byte more than the size, so that the end is seen without a retry. */
    size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 0;
    char *buf = ar_alloc(a, cap + 1);
    size_t len = cap ? fread(buf, 1, cap, f) : 0;
    if (len == cap && !ferror(f)) {
        size_t total;
        char *rest = read_rest(f, buf, len, &total);
        if (!rest) {
            int e = errno;
            fclose(f);
            errno = e;
            return NULL;
        }
        buf = ar_alloc(a, total + 1);
        memcpy(buf, rest, total);
        free(rest);
        len = total;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        errno = EIO;
        return NULL;
    }
    buf[len] = 0;
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

void diag_put_name(FILE *out, const char *name)
{
    /* Runs of printable bytes in one call each: stderr is unbuffered. */
    const unsigned char *s = (const unsigned char *)name;
    while (*s) {
        size_t n = 0;
        while (s[n] && s[n] >= 32 && s[n] != 127)
            n++;
        fwrite(s, 1, n, out);
        s += n;
        for (; *s && (*s < 32 || *s == 127); s++)
            fputc('?', out);
    }
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
        diag_put_name(d->out, loc.src->name);
        if (loc.src->builtin)
            fprintf(d->out, ": %s: ", kind);
        else
            fprintf(d->out, ":%d:%d: %s: ", line, col, kind);
    } else {
        fprintf(d->out, "axonc: %s: ", kind);
    }
    vfprintf(d->out, fmt, ap);
    fputc('\n', d->out);
    diag_show_line(d, loc);
}

/* Counts an error; 0 when it is past the ones shown (then it says so once). */
static int count_error(Diag *d)
{
    d->errors++;
    d->in_error = d->errors <= d->max_errors;
    if (!d->in_error && !d->suppressed++)
        fprintf(d->out, "axonc: too many errors; the rest are not shown\n");
    return d->in_error;
}

void diag_error(Diag *d, Loc loc, const char *fmt, ...)
{
    if (!count_error(d))
        return;
    va_list ap;
    va_start(ap, fmt);
    diag_vemit(d, loc, "error", fmt, ap);
    va_end(ap);
}

/* With -Werror a warning is an error (it counts, and says so); with -w
 * it is not shown at all (as gcc's -w, it wins over -Werror). */
void diag_warning(Diag *d, Loc loc, const char *fmt, ...)
{
    if (d->nowarn) {
        d->in_error = 0;            /* (nor its notes) */
        return;
    }
    if (!d->werror)
        d->in_error = 1;
    else if (!count_error(d))
        return;
    va_list ap;
    va_start(ap, fmt);
    diag_vemit(d, loc, d->werror ? "error" : "warning", fmt, ap);
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
