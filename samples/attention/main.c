/* main.c - using the header generated from attention.axon: check the input
 * shapes, size every buffer from the plan, and show a rejected input. */
#include <stdio.h>
#include <stdlib.h>

#include "attention.h"

static void print_shape(const char *what, const axon_shape *s)
{
    printf("  %-8s [", what);
    for (int i = 0; i < s->rank; i++)
        printf(i ? ", %lld" : "%lld", (long long)s->dims[i]);
    printf("]\n");
}

int main(void)
{
    /* 4 queries of width 64 against 10 keys; values of width 32. */
    axon_shape in[attention_attention_NUM_INPUTS] = {
        { 2, { 4, 64 } },   /* Q */
        { 2, { 10, 64 } },  /* K */
        { 2, { 10, 32 } },  /* V */
    };
    attention_attention_plan plan;
    axon_error err;
    if (attention_attention_prepare(in, &plan, &err) != AXON_OK) {
        fprintf(stderr, "rejected: %s\n", err.message);
        return 1;
    }
    printf("attention: inputs accepted\n");
    print_shape("Q", &in[0]);
    print_shape("K", &in[1]);
    print_shape("V", &in[2]);
    print_shape("output", &plan.out[0]);
    for (int i = 0; i < attention_attention_NUM_TEMPS; i++)
        print_shape(attention_attention_temp_name(i), &plan.tmp[i]);
    printf("  dims: a=%lld b=%lld c=%lld d=%lld\n", (long long)plan.dims.a, (long long)plan.dims.b,
           (long long)plan.dims.c, (long long)plan.dims.d);

    /* Every buffer sized from the plan: the output and each intermediate. */
    int64_t total = 0;
    void *out = malloc((size_t)plan.out_bytes[0]);
    total += plan.out_bytes[0];
    for (int i = 0; i < attention_attention_NUM_TEMPS; i++) {
        void *tmp = malloc((size_t)plan.tmp_bytes[i]);
        printf("  %s: %lld elements, %lld bytes\n", attention_attention_temp_name(i),
               (long long)plan.tmp_elements[i], (long long)plan.tmp_bytes[i]);
        total += plan.tmp_bytes[i];
        free(tmp);
    }
    printf("  output: %lld elements, %lld bytes\n", (long long)plan.out_elements[0], (long long)plan.out_bytes[0]);
    printf("  allocated %lld bytes in all\n", (long long)total);
    free(out);

    /* A key of the wrong width is rejected, with the rule that says why. */
    in[1].dims[1] = 48;
    axon_shape shapes[attention_attention_NUM_OUTPUTS];
    int status = attention_attention_shape(in, shapes, &err);
    printf("K of width 48: %s\n  %s\n", axon_status_name(status), err.message);
    return status == AXON_ERR_SIZE ? 0 : 1;
}
