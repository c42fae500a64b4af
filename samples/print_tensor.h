/* print_tensor.h - the printing the sample programs share (not part of the
 * generated headers' API): one line per tensor with its shape and its
 * element and byte counts (print_tensor), for each input, output or
 * intermediate of a plan (print_inputs, print_outputs, print_temps), the
 * intermediates' sizes alone (print_temp_sizes), or a shape alone
 * (print_shape, format_dims).  Include it after a generated header.
 * (static inline: a program that does not use one gets no warning.) */
#ifndef SAMPLES_PRINT_TENSOR_H
#define SAMPLES_PRINT_TENSOR_H

#include <stdio.h>

/* s's dims as "[2, 3, 4]" (cut short if they do not fit). */
static inline void format_dims(char *buf, size_t size, const axon_shape *s)
{
    size_t k = (size_t)snprintf(buf, size, "[");
    for (int i = 0; i < s->rank && k < size; i++)
        k += (size_t)snprintf(buf + k, size - k, i ? ", %lld" : "%lld", (long long)s->dims[i]);
    if (k < size)
        snprintf(buf + k, size - k, "]");
}

static inline void print_tensor(const char *kind, const char *name, const axon_shape *s, int64_t elements,
                                int64_t bytes)
{
    char dims[256];
    format_dims(dims, sizeof dims, s);
    printf("  %-6s %-9s %-20s %9lld elements %10lld bytes\n", kind, name, dims, (long long)elements,
           (long long)bytes);
}

/* The n inputs in[] (shapes of f32 tensors) with their names, but input
 * `skip` (a dims input: sizes, not a buffer; -1 for none). */
static inline void print_inputs(int n, const char *const names[], const axon_shape in[], int skip)
{
    for (int i = 0; i < n; i++)
        if (i != skip)
            print_tensor("input", names[i], &in[i], axon_elements(&in[i]), axon_bytes(&in[i], sizeof(float)));
}

/* The n outputs of a plan (plan.out, plan.out_elements, plan.out_bytes). */
static inline void print_outputs(int n, const char *const names[], const axon_shape out[],
                                 const int64_t elements[], const int64_t bytes[])
{
    for (int i = 0; i < n; i++)
        print_tensor("output", names[i], &out[i], elements[i], bytes[i]);
}

/* The n intermediates of a plan (P_NAME_temp_name, plan.tmp,
 * plan.tmp_elements, plan.tmp_bytes); returns the sum of their bytes. */
static inline int64_t print_temps(int n, const char *(*name)(int), const axon_shape tmp[],
                                  const int64_t elements[], const int64_t bytes[])
{
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        print_tensor("temp", name(i), &tmp[i], elements[i], bytes[i]);
        total += bytes[i];
    }
    return total;
}

/* "  WHAT [dims]", WHAT padded to width. */
static inline void print_shape(int width, const char *what, const axon_shape *s)
{
    char dims[256];
    format_dims(dims, sizeof dims, s);
    printf("  %-*s %s\n", width, what, dims);
}

/* One line per intermediate, "  NAME: N elements, N bytes" (the sizes
 * alone). */
static inline void print_temp_sizes(int n, const char *(*name)(int), const int64_t elements[], const int64_t bytes[])
{
    for (int i = 0; i < n; i++)
        printf("  %s: %lld elements, %lld bytes\n", name(i), (long long)elements[i], (long long)bytes[i]);
}

#endif
