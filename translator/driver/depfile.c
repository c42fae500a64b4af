/* depfile.c - the make rule that `axonc emit -MD` writes (depfile.h):
 * the depfile's default name, and file names escaped so that make reads
 * them back. */
#include "depfile.h"

#include <stdio.h>
#include <string.h>

#include "source.h"

/* The depfile's name for -MD without -MF: OUT with .d for its extension,
 * as gcc (out.h gives out.d; out and .h, which have none, out.d and .h.d). */
const char *default_depfile(Arena *a, const char *out)
{
    const char *slash = strrchr(out, '/');
    const char *base = slash ? slash + 1 : out;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - out) : strlen(out);
    return ar_printf(a, "%s.d", ar_strndup(a, out, n));
}

/* Appends a file name to a make rule so that make reads it back: a space,
 * tab, '#' or ':' after a backslash (the backslashes before it doubled, as
 * gcc does), '$' doubled, and in a prerequisite '|' and the wildcards
 * after a backslash.  Returns NULL, or what in the name make cannot read
 * in a target (a '%' makes it a pattern) or anywhere. */
static const char *dep_name(Buf *b, const char *s, int target)
{
    size_t n = strlen(s);
    if (n && s[n - 1] == '\\')
        return "a backslash at its end";
    for (const char *p = s; *p; p++) {
        if (*p == '\n' || *p == '\r')
            return *p == '\n' ? "a newline" : "a carriage return";
        if (strchr(";=%", *p))
            return ar_printf(b->a, "'%c'", *p);
        int quoted = strchr(" \t#:", *p) != NULL;
        int wild = !target && strchr("|*?[", *p) != NULL;
        if (wild && p > s && p[-1] == '\\')
            return ar_printf(b->a, "a backslash before '%c'", *p);
        for (const char *q = p; quoted && q > s && q[-1] == '\\'; q--)
            buf_putc(b, '\\');
        if (quoted || wild)
            buf_putc(b, '\\');
        if (*p == '$')
            buf_putc(b, '$');
        buf_putc(b, *p);
    }
    return NULL;
}

/* Appends one name; on a name make cannot read, a message and 1. */
static int put_name(Buf *dep, const char *name, int target)
{
    const char *why = dep_name(dep, name, target);
    if (!why)
        return 0;
    fputs("axonc: error: a depfile cannot name '", stderr);
    diag_put_name(stderr, name);
    fprintf(stderr, "': make cannot read a file name with %s\n", why);
    return 1;
}

/* The depfile: `OUT: SOURCE IMPORTED...` (one name a line after the
 * first, as gcc writes them), then `NAME:` for each prerequisite so that
 * make does not stop when one is gone.  Returns 0, or 1 after a message
 * when make could not read a name back. */
int make_rule(Buf *dep, const char *out, const char *file, const PtrVec *imported)
{
    if (put_name(dep, out, 1))
        return 1;
    buf_puts(dep, ": ");
    for (int i = -1; i < imported->n; i++) {
        if (i >= 0)
            buf_puts(dep, " \\\n  ");
        if (put_name(dep, i < 0 ? file : imported->items[i], 0))
            return 1;
    }
    buf_puts(dep, "\n");
    for (int i = -1; i < imported->n; i++) {
        if (put_name(dep, i < 0 ? file : imported->items[i], 1))
            return 1;
        buf_puts(dep, ":\n");
    }
    return 0;
}
