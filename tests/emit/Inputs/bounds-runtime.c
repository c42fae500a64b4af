/* bounds-runtime.c - the largest shapes of tensors with a data-dependent
 * size (spec section 5b: the upper bound of a `?`), as prepare() gives them
 * in out_max and tmp_max with their counts, on numbers
 * (tests/emit/bounds-runtime.test; C and C++). */
#include "bounds_runtime.h"

#include <stdio.h>

static void shape(const axon_shape *s)
{
    printf("[");
    for (int i = 0; i < s->rank; i++)
        printf("%s%lld", i ? ", " : "", (long long)s->dims[i]);
    printf("]");
}

/* name: each output's shape, largest shape and largest counts, then each
 * intermediate's, or the status */
#define SHOW(fn, ...)                                                              \
    do {                                                                           \
        axon_shape in_[] = { __VA_ARGS__ };                                        \
        bounds_runtime_##fn##_plan p_;                                             \
        axon_error e_;                                                             \
        int st_ = bounds_runtime_##fn##_prepare(in_, &p_, &e_);                    \
        printf("%s:", #fn);                                                        \
        if (st_) {                                                                 \
            printf(" %s: %s\n", axon_status_name(st_), e_.message);                \
            break;                                                                 \
        }                                                                          \
        for (int k = 0; k < bounds_runtime_##fn##_NUM_OUTPUTS; k++) {             \
            printf(" out ");                                                       \
            shape(&p_.out[k]);                                                     \
            printf(" max ");                                                       \
            shape(&p_.out_max[k]);                                                 \
            printf(" %lld/%lld", (long long)p_.out_max_elements[k], (long long)p_.out_max_bytes[k]); \
        }                                                                          \
        for (int k = 0; k < bounds_runtime_##fn##_NUM_TEMPS; k++) {                \
            printf(" | %s ", bounds_runtime_##fn##_temp_name(k));                  \
            shape(&p_.tmp[k]);                                                     \
            printf(" max ");                                                       \
            shape(&p_.tmp_max[k]);                                                 \
            printf(" %lld/%lld", (long long)p_.tmp_max_elements[k], (long long)p_.tmp_max_bytes[k]); \
        }                                                                          \
        printf("\n");                                                              \
    } while (0)

#define S1(a) { 1, { a } }
#define S2(a, b) { 2, { a, b } }
#define S3(a, b, c) { 3, { a, b, c } }

int main(void)
{
    SHOW(direct, S1(10));
    SHOW(direct, S1(0));
    SHOW(flat, S2(3, 4));
    SHOW(joined, S1(5), S1(7));
    SHOW(less, S1(6));
    SHOW(less, S1(0));                               /* n - 1 < 0: nothing fits */
    SHOW(halved, S1(7));
    SHOW(squared, S1(1000));
    SHOW(squared, S1(INT64_C(1) << 40));             /* n * n past int64: no bound */
    SHOW(batched, S3(2, 3, 9));
    SHOW(anyrank, S3(2, 3, 9));
    SHOW(anyrank, S1(4));
    SHOW(hidden, S1(8));
    SHOW(unbounded, S1(8));
    SHOW(sliced, S1(6));
    SHOW(direct, S2(1, 2));                          /* a failed check: a status */
    /* shape() gives the `?` as unknown, as before */
    {
        axon_shape in[] = { S1(10) }, out[1];
        int st = bounds_runtime_direct_shape(in, out, NULL);
        printf("shape: %d ", st);
        shape(&out[0]);
        printf("\n");
    }
    /* a prepare() that fails leaves every largest shape defined (rank 0) */
    {
        axon_shape in[] = { S1(3) };
        bounds_runtime_flat_plan p;
        int st = bounds_runtime_flat_prepare(in, &p, NULL);
        printf("failed: %d %d %d %d\n", st != AXON_OK, p.out_max[0].rank, p.tmp_max[0].rank, p.tmp_max[1].rank);
    }
    return 0;
}
