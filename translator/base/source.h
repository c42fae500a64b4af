/* source.h - source texts, byte-span locations and diagnostics.
 *
 * A location is a byte span in one source text; line and column are computed
 * only when a diagnostic is printed (as jq does).  Diagnostics print as
 *     FILE:LINE:COL: error: MESSAGE
 *     <the source line>
 *     <caret under the column, tildes under the rest of the span>
 * followed by `note:` lines in the same form.
 */
#ifndef AXONC_SOURCE_H
#define AXONC_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"

typedef struct Source {
    const char *name;     /* as given on the command line, or "<prelude>" */
    const char *text;     /* NUL-terminated copy; may contain NUL bytes */
    size_t len;
    int builtin;          /* the embedded prelude: no source line is shown */
    uint32_t *lines;      /* byte offset of each line start */
    int nlines;
} Source;

typedef struct Loc {
    const Source *src;
    uint32_t start, end;  /* [start, end) byte offsets */
} Loc;

Loc loc_span(Loc a, Loc b);             /* from the start of a to the end of b */
void src_line_col(const Source *s, uint32_t off, int *line, int *col);

/* The largest input: far above any real program, and well inside the 32-bit
 * offsets of a Loc.  docs/language.md section 9 states it. */
#define SRC_MAX_MIB 256
#define SRC_MAX_BYTES ((size_t)SRC_MAX_MIB * 1024 * 1024)

/* Loads a whole file (a regular file, or a pipe or device read to its end).
 * Returns NULL (with errno set) when it cannot be read.  An input larger
 * than SRC_MAX_BYTES is refused from its size, or as soon as that much has
 * been read: NULL with errno EFBIG (compile.c says "FILE: error: the input
 * is larger than 256 MiB"). */
Source *src_load(Arena *a, const char *path);
Source *src_from_text(Arena *a, const char *name, const char *text, size_t len, int builtin);

typedef struct Diag {
    FILE *out;
    int errors;
    int max_errors;       /* stop reporting (but keep counting) past this */
    int suppressed;
    int in_error;         /* 1 while the notes of a shown error may follow */
    int werror;           /* -Werror: a warning is an error */
    int nowarn;           /* -w: no warning is shown (and none is an error) */
} Diag;

void diag_init(Diag *d, FILE *out);
/* Prints a file name with its control characters (a newline, an escape)
 * as '?', so that a diagnostic stays one line and cannot drive the
 * terminal. */
void diag_put_name(FILE *out, const char *name);
void diag_error(Diag *d, Loc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void diag_note(Diag *d, Loc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A note with no location (e.g. the signature of a built-in rule). */
void diag_note_plain(Diag *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void diag_warning(Diag *d, Loc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
