/* output.c - the output files of `emit`, and standard output (output.h).
 *
 * write_outputs works in three steps: locate every file (follow its links,
 * decide between replacing it and writing it in place, check that no two
 * are one file and none is the input); write every one (the temporary file
 * of each regular one, then the special files in place); and only when all
 * of that succeeded rename the temporary files over their targets.  Any
 * failure removes the temporary files, so nothing is replaced. */
#define _POSIX_C_SOURCE 200809L
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source.h"

enum { MAX_LINKS = 40, MAX_OUTPUTS = 8, MAX_TEMP_BASE = 200 };

/* One output on its way. */
typedef struct Out {
    const OutFile *f;
    int special;          /* written in place (a device, a FIFO) */
    char *target;         /* the name replaced, links followed (malloc'd) */
    char *tmp;            /* the temporary file beside it (malloc'd) */
    int fd;               /* an open file, or -1 */
    int exists;           /* whether target exists */
    dev_t dev;            /* the identity: target's device and inode, or when */
    ino_t ino;            /* it does not exist yet its directory's, */
    const char *base;     /* with its last component */
} Out;

/* Prints "axonc: error: cannot write 'PATH': WHY" and returns -1. */
static int cannot_write(const char *path, const char *why)
{
    fputs("axonc: error: cannot write '", stderr);
    diag_put_name(stderr, path);
    fprintf(stderr, "': %s\n", why);
    return -1;
}

/* The target of the symbolic link `path` as a name usable from here (a
 * relative target is relative to the link's directory): malloc'd, or NULL
 * with errno set. */
static char *link_target(const char *path)
{
    char *buf = NULL;
    ssize_t n = 0;
    size_t cap = 128;
    do {                                            /* until it is not cut */
        free(buf);
        cap *= 2;
        buf = cap <= 1u << 20 ? malloc(cap) : NULL;
        if (!buf) {
            errno = cap <= 1u << 20 ? ENOMEM : ENAMETOOLONG;
            return NULL;
        }
        n = readlink(path, buf, cap);
        if (n < 0) {
            int e = errno;
            free(buf);
            errno = e;
            return NULL;
        }
    } while ((size_t)n == cap);
    buf[n] = 0;
    const char *slash = strrchr(path, '/');
    if (buf[0] == '/' || !slash)
        return buf;
    size_t dlen = (size_t)(slash - path) + 1;
    char *full = malloc(dlen + (size_t)n + 1);
    if (full) {
        memcpy(full, path, dlen);
        memcpy(full + dlen, buf, (size_t)n + 1);
    }
    free(buf);
    return full;
}

/* Follows the symbolic links from o's path to the name that gets the
 * contents: sets o->target and o->exists (with *st).  Returns 0 or errno. */
static int follow_links(Out *o, struct stat *st)
{
    char *cur = strdup(o->f->path);
    for (int hops = 0; cur; hops++) {
        int found = lstat(cur, st) == 0;
        if (!found && errno != ENOENT) {
            int e = errno;
            free(cur);
            return e;
        }
        if (!found || !S_ISLNK(st->st_mode)) {
            o->exists = found;
            o->target = cur;
            return 0;
        }
        if (hops == MAX_LINKS) {
            free(cur);
            return ELOOP;
        }
        char *next = link_target(cur);
        int e = errno;
        free(cur);
        cur = next;
        errno = e;
    }
    return errno;
}

/* Records o's identity: the target's device and inode, or (when it does
 * not exist yet) its directory's and its last component.  Returns 0 or
 * errno (no such directory, or a name ending in '/'). */
static int identify(Out *o, const struct stat *st)
{
    if (o->exists) {
        o->dev = st->st_dev;
        o->ino = st->st_ino;
        return 0;
    }
    const char *slash = strrchr(o->target, '/');
    o->base = slash ? slash + 1 : o->target;
    if (!*o->base)
        return EISDIR;
    char *dir = slash ? strndup(o->target, slash == o->target ? 1 : (size_t)(slash - o->target)) : strdup(".");
    if (!dir)
        return ENOMEM;
    struct stat ds;
    int e = stat(dir, &ds) != 0 ? errno : S_ISDIR(ds.st_mode) ? 0 : ENOTDIR;
    free(dir);
    if (!e) {
        o->dev = ds.st_dev;
        o->ino = ds.st_ino;
    }
    return e;
}

/* Decides how o is written: in place (a special file) or replaced (a
 * regular file, or a name that does not exist yet), links followed.
 * Returns 0, or -1 after a message. */
static int locate(Out *o)
{
    const char *path = o->f->path;
    struct stat st;
    if (!*path)
        return cannot_write(path, "the name is empty");
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return cannot_write(path, strerror(EISDIR));
        if (S_ISSOCK(st.st_mode))
            return cannot_write(path, "it is a socket");
        if (!S_ISREG(st.st_mode)) {
            o->special = 1;
            return 0;
        }
    } else if (errno != ENOENT) {
        return cannot_write(path, strerror(errno));
    }
    int e = follow_links(o, &st);
    if (!e && o->exists && !S_ISREG(st.st_mode))
        return cannot_write(path, "it is not a regular file");
    if (!e)
        e = identify(o, &st);
    return e ? cannot_write(path, strerror(e)) : 0;
}

/* Whether a and b are one file that both would replace. */
static int same_file(const Out *a, const Out *b)
{
    if (a->special || b->special || a->exists != b->exists || a->dev != b->dev || a->ino != b->ino)
        return 0;
    return a->exists || strcmp(a->base, b->base) == 0;
}

/* Whether o would replace the file `input`. */
static int is_input(const Out *o, const char *input)
{
    struct stat st;
    return input && !o->special && o->exists && stat(input, &st) == 0 && st.st_dev == o->dev &&
           st.st_ino == o->ino;
}

/* Refuses an output that is the input, or that is another output.
 * Returns 0, or -1 after a message. */
static int check_distinct(const Out *o, int n, const char *input)
{
    for (int i = 0; i < n; i++) {
        if (is_input(&o[i], input)) {
            fprintf(stderr, "axonc: error: the %s '", o[i].f->role);
            diag_put_name(stderr, o[i].f->path);
            fputs("' is the input file\n", stderr);
            return -1;
        }
        for (int k = 0; k < i; k++)
            if (same_file(&o[k], &o[i])) {
                fprintf(stderr, "axonc: error: the %s '", o[i].f->role);
                diag_put_name(stderr, o[i].f->path);
                fprintf(stderr, "' is the same file as the %s '", o[k].f->role);
                diag_put_name(stderr, o[k].f->path);
                fputs("'\n", stderr);
                return -1;
            }
    }
    return 0;
}

/* Writes all of data to fd.  Returns 0 or errno. */
static int write_all(int fd, const char *data, size_t len)
{
    while (len) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : EIO;
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Creates o's temporary file beside its target, TARGET.tmp.XXXXXX (the
 * last component cut so that the name fits in NAME_MAX), with the
 * permissions a new file gets.  Returns 0 or errno. */
static int open_temp(Out *o)
{
    const char *slash = strrchr(o->target, '/');
    size_t dlen = slash ? (size_t)(slash - o->target) + 1 : 0;
    size_t blen = strlen(o->target + dlen);
    if (blen > MAX_TEMP_BASE)
        blen = MAX_TEMP_BASE;
    o->tmp = malloc(dlen + blen + sizeof ".tmp.XXXXXX");
    if (!o->tmp)
        return ENOMEM;
    memcpy(o->tmp, o->target, dlen + blen);
    strcpy(o->tmp + dlen + blen, ".tmp.XXXXXX");
    o->fd = mkstemp(o->tmp);
    if (o->fd < 0) {
        int e = errno;
        free(o->tmp);
        o->tmp = NULL;
        return e;
    }
    mode_t mask = umask(0);
    umask(mask);
    return fchmod(o->fd, 0666 & ~mask) == 0 ? 0 : errno;
}

/* Opens o for writing: its temporary file, or the special file itself
 * (a FIFO waits here for its reader).  Returns 0, or -1 after a message. */
static int open_one(Out *o)
{
    int e;
    if (o->special) {
        o->fd = open(o->f->path, O_WRONLY | O_NOCTTY);
        e = o->fd < 0 ? errno : 0;
    } else {
        e = open_temp(o);
    }
    return e ? cannot_write(o->f->path, strerror(e)) : 0;
}

/* Writes o's contents to its open file and closes it.  Returns 0, or -1
 * after a message. */
static int write_one(Out *o)
{
    int e = write_all(o->fd, o->f->data, o->f->len);
    if (close(o->fd) != 0 && !e)
        e = errno;
    o->fd = -1;
    return e ? cannot_write(o->f->path, strerror(e)) : 0;
}

/* Closes and removes what is left of the outputs: nothing of a failed run. */
static void discard(Out *o, int n)
{
    for (int i = 0; i < n; i++) {
        if (o[i].fd >= 0)
            close(o[i].fd);
        if (o[i].tmp)
            unlink(o[i].tmp);
        free(o[i].tmp);
        free(o[i].target);
    }
}

/* Writes every file or none (output.h). */
int write_outputs(const OutFile *files, int n, const char *input)
{
    Out o[MAX_OUTPUTS];                 /* emit has two at most */
    if (n > MAX_OUTPUTS)
        return cannot_write(files[MAX_OUTPUTS].path, "too many output files");
    memset(o, 0, sizeof o);
    for (int i = 0; i < n; i++) {
        o[i].f = &files[i];
        o[i].fd = -1;
    }
    int rc = 0;
    for (int i = 0; i < n && !rc; i++)
        rc = locate(&o[i]);
    if (!rc)
        rc = check_distinct(o, n, input);
    /* The special files are opened first, so that no temporary file exists
     * while one waits for a FIFO's reader; the temporary files are written
     * next; then the special files, which cannot be taken back, so that
     * they are written only when everything else has been; renames last. */
    for (int i = 0; i < n && !rc; i++)
        if (o[i].special)
            rc = open_one(&o[i]);
    for (int i = 0; i < n && !rc; i++)
        if (!o[i].special)
            rc = open_one(&o[i]) || write_one(&o[i]) ? -1 : 0;
    for (int i = 0; i < n && !rc; i++)
        if (o[i].special)
            rc = write_one(&o[i]);
    for (int i = 0; i < n && !rc; i++) {
        if (!o[i].tmp)
            continue;
        if (rename(o[i].tmp, o[i].target) != 0)
            rc = cannot_write(o[i].f->path, strerror(errno));
        else {
            free(o[i].tmp);
            o[i].tmp = NULL;
        }
    }
    discard(o, n);
    return rc;
}

/* Whether stdout is the regular file `input` (as with `>> FILE.axon`). */
static int stdout_is(const char *input)
{
    struct stat out, in;
    return input && fstat(STDOUT_FILENO, &out) == 0 && S_ISREG(out.st_mode) && stat(input, &in) == 0 &&
           out.st_dev == in.st_dev && out.st_ino == in.st_ino;
}

/* Writes data to stdout, every step checked (output.h). */
int write_stdout(const char *data, size_t len, const char *what, const char *input)
{
    fflush(stderr);                     /* (main.c buffers it: keep the order) */
    if (stdout_is(input)) {
        fputs("axonc: error: standard output is the input file '", stderr);
        diag_put_name(stderr, input);
        fputs("'\n", stderr);
        return -1;
    }
    int e = 0;
    errno = 0;
    if (len && fwrite(data, 1, len, stdout) != len)
        e = errno ? errno : EIO;
    if (fflush(stdout) != 0 && !e)
        e = errno ? errno : EIO;
    if (fclose(stdout) != 0 && !e)
        e = errno ? errno : EIO;
    if (!e)
        return 0;
    fprintf(stderr, "axonc: error: cannot write %s to standard output: %s\n", what, strerror(e));
    return -1;
}
