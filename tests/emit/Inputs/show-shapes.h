/* show-shapes.h - prints a shape function's outputs, or its status and
 * message, one line per call (the C programs of ops-cnn.test and
 * ops-spec.test).  Include after the header under test. */
#ifndef SHOW_SHAPES_H
#define SHOW_SHAPES_H

#include <stdio.h>

static void show(const char *name, int st, const axon_shape *o, int nout, const axon_error *e)
{
    if (st) {
        printf("%s: %s: %s\n", name, axon_status_name(st), e->message);
        return;
    }
    printf("%s:", name);
    for (int k = 0; k < nout; k++) {
        printf(" [");
        for (int i = 0; i < o[k].rank; i++)
            printf("%s%lld", i ? ", " : "", (long long)o[k].dims[i]);
        printf("]");
    }
    printf("\n");
}

#endif
