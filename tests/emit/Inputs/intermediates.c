/* intermediates.c - every size the program computes fits in int64, named or
 * not, here or in a function it calls; shape() and prepare() accept the same
 * inputs; a size that a factor of 0 leaves open is AXON_DIM_UNKNOWN only
 * where the inputs do not give it another way, and a check on it holds
 * (it is the caller's choice).  The old wrong answer is noted at each case. */
#include <stdint.h>

#include "intermediates.h"
#include "expect.h"

#define OK(f) EXPECT_INT(intermediates_##f##_shape(in, out, &err), AXON_OK)
#define BAD(f, status) EXPECT_INT(intermediates_##f##_shape(in, out, &err), status)

int main(void)
{
    axon_shape in[3], out[2], tmp[4];
    axon_error err = { 0, 0, 0, "" };
    const int64_t big = INT64_C(4611686018427387904);   /* 2^62 */

    /* an unnamed concat of [2^62] twice (was: accepted) */
    in[0] = SHAPE(big - 1);
    OK(unnamed);
    in[0] = SHAPE(big);
    BAD(unnamed, AXON_ERR_OVERFLOW);
    EXPECT_STR(err.message, "intermediates.axon:6:43: concat: a size of its result overflows int64 (or divides by zero)");

    /* sq(z, z) inside inner, for a and for concat(a, b) (was: accepted) */
    in[0] = SHAPE(3037000499);      /* its square fits, 2 * 3037000499 too */
    in[1] = SHAPE(0);
    OK(outer);
    in[1] = SHAPE(1);               /* (3037000499 + 1)^2 does not */
    BAD(outer, AXON_ERR_OVERFLOW);
    EXPECT_STR(err.message, "intermediates.axon:8:41: sq: a size of its result overflows int64 (or divides by zero)");
    in[0] = SHAPE(big);
    in[1] = SHAPE(big);             /* concat(a, b) itself */
    BAD(outer, AXON_ERR_OVERFLOW);

    /* v has rank 9: shape() rejects it as prepare() does (was: shape()
     * accepted, prepare() rejected) */
    in[0] = SHAPE(1, 1, 1, 1, 1, 1, 1, 1);
    in[1] = SHAPE(2);
    BAD(deep, AXON_ERR_RANK);
    EXPECT_STR(err.message, "intermediates.axon:12:46: map: v would have more than AXON_MAX_RANK axes");
    EXPECT_INT(intermediates_deep_solve(in, out, tmp, NULL, NULL, NULL, &err), AXON_ERR_RANK);
    in[0] = SHAPE(1, 1, 1, 1, 1, 1, 3);
    OK(deep);
    EXPECT_SHAPE(out[0], SHAPE(1, 1, 1, 1, 1, 1, 3));

    /* [m * n + n] with z = [0], y = [0]: 0 (was: -1) */
    in[0] = SHAPE(0);
    in[1] = SHAPE(0);
    OK(open_sum);
    EXPECT_SHAPE(out[0], SHAPE(0));
    in[0] = SHAPE(6);
    in[1] = SHAPE(2);
    OK(open_sum);
    EXPECT_SHAPE(out[0], SHAPE(8));

    /* unsq(z, u) is [m] with h * m = d * h: with h = 0 any m fits, and
     * broadcast with v's 4 it is 4 (was: "cannot broadcast size 4 with
     * size -1") */
    in[0] = SHAPE(0);
    in[1] = SHAPE(0);
    in[2] = SHAPE(4);
    OK(open_bcast);
    EXPECT_SHAPE(out[0], SHAPE(8));
    in[0] = SHAPE(12);
    in[1] = SHAPE(3);
    OK(open_bcast);
    EXPECT_SHAPE(out[0], SHAPE(8));
    in[2] = SHAPE(5);               /* 12 is not 5 * 3 */
    EXPECT_TRUE(intermediates_open_bcast_shape(in, out, &err) != AXON_OK);
    /* [2^62 - 1] twice is 2^63 - 2 (was: AXON_ERR_OVERFLOW, 2 * p first) */
    in[0] = SHAPE(big - 1);
    OK(twice);
    EXPECT_SHAPE(out[0], SHAPE(INT64_MAX - 1));
    in[0] = SHAPE(big);
    BAD(twice, AXON_ERR_OVERFLOW);

    /* k = 0 leaves m open, so 2 * n = m + 2^62 holds for some m: n is
     * open too (was: "2 * b is -2") */
    in[0] = SHAPE(0);
    in[1] = SHAPE(0);
    in[2] = SHAPE(big);
    OK(open_eval);
    EXPECT_SHAPE(out[0], SHAPE(AXON_DIM_UNKNOWN));
    in[0] = SHAPE(6);
    in[1] = SHAPE(3);               /* m = 2: 2 * n = 2 + 4 */
    in[2] = SHAPE(4);
    OK(open_eval);
    EXPECT_SHAPE(out[0], SHAPE(6));
    in[2] = SHAPE(3);               /* 2 + 3 is odd */
    BAD(open_eval, AXON_ERR_DIVISIBILITY);

    /* sq(u, u) is u's axis squared (was: -1 where k * m = 0) */
    in[0] = SHAPE(0);
    OK(square);
    EXPECT_SHAPE(out[0], SHAPE(0));
    in[0] = SHAPE(6);
    OK(square);
    EXPECT_SHAPE(out[0], SHAPE(36));
    return expect_summary();
}
