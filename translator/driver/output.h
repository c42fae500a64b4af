/* output.h - writing what axonc produces: the output files of `emit`, all of
 * them or none, and standard output with every error checked.
 *
 * A regular file (or a name that does not exist yet) is replaced atomically:
 * the new contents go to a temporary file beside it, renamed over it only
 * once every output has been written, so on any failure no file is changed
 * and no temporary file is left.  A symbolic link is followed: the link
 * stays and its target (created if it does not exist) is replaced.  A
 * special file (a character or block device such as /dev/null, a FIFO) is
 * written in place, as gcc does; a directory or a socket is refused. */
#ifndef AXONC_OUTPUT_H
#define AXONC_OUTPUT_H

#include <stddef.h>

typedef struct OutFile {
    const char *role;      /* how messages name it: "output", "depfile" */
    const char *path;      /* as given on the command line */
    const char *data;
    size_t len;
} OutFile;

/* Writes every file or none.  Refuses (before writing anything) a file that
 * is `input` (unless NULL) or that is also another of them, however each is
 * named (links, "./x", hard links).  Returns 0, or -1 after printing
 * "axonc: error: ..." to stderr. */
int write_outputs(const OutFile *files, int n, const char *input);

/* Writes data to stdout, then flushes and closes it.  Returns 0, or -1 after
 * printing "axonc: error: cannot write WHAT to standard output: REASON"
 * (a full disk, a closed descriptor), or when stdout is the file `input`
 * (unless NULL), which it would damage. */
int write_stdout(const char *data, size_t len, const char *what, const char *input);

#endif
