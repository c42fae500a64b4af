/* print_tensor.h - a helper the sample programs share (not part of the
 * generated headers' API): one line per tensor with its shape and its
 * element and byte counts.  Include it after a generated header. */
#ifndef SAMPLES_PRINT_TENSOR_H
#define SAMPLES_PRINT_TENSOR_H

#include <stdio.h>

static void print_tensor(const char *kind, const char *name, const axon_shape *s,
                         int64_t elements, int64_t bytes)
{
    char dims[256] = "[";
    size_t k = 1;
    for (int i = 0; i < s->rank && k < sizeof dims; i++)
        k += (size_t)snprintf(dims + k, sizeof dims - k, i ? ", %lld" : "%lld", (long long)s->dims[i]);
    if (k < sizeof dims)
        snprintf(dims + k, sizeof dims - k, "]");
    printf("  %-6s %-9s %-20s %9lld elements %10lld bytes\n", kind, name, dims, (long long)elements,
           (long long)bytes);
}

#endif
