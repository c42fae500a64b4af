/* output.h - writing an output file atomically: the new contents appear at
 * once or not at all (an existing file is left untouched on failure). */
#ifndef AXONC_OUTPUT_H
#define AXONC_OUTPUT_H

#include <stddef.h>

/* Returns 0, or -1 after printing "axonc: error: ..." to stderr. */
int write_file_atomic(const char *path, const char *data, size_t len);

#endif
