/* output.c - atomic file replacement: write a temporary file next to the
 * target, flush it, give it the usual permissions, and rename it over the
 * target (rename is atomic on POSIX file systems). */
#define _POSIX_C_SOURCE 200809L
#include "output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int write_file_atomic(const char *path, const char *data, size_t len)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp) {
        fputs("axonc: error: out of memory\n", stderr);
        return -1;
    }
    snprintf(tmp, plen + 16, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "axonc: error: cannot create a file next to '%s': %s\n", path, strerror(errno));
        free(tmp);
        return -1;
    }
    mode_t mask = umask(0);
    umask(mask);
    int ok = fchmod(fd, 0666 & ~mask) == 0;
    size_t done = 0;
    while (ok && done < len) {
        ssize_t n = write(fd, data + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            ok = 0;
        else
            done += (size_t)n;
    }
    int saved = errno;
    if (close(fd) != 0 && ok) {
        ok = 0;
        saved = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = 0;
        saved = errno;
    }
    if (!ok) {
        fprintf(stderr, "axonc: error: cannot write '%s': %s\n", path, strerror(saved));
        remove(tmp);
    }
    free(tmp);
    return ok ? 0 : -1;
}
