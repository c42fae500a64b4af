/* checks.c - the generated shape functions of checks.axon: valid inputs
 * give every output dimension; invalid ones of every kind give the status,
 * the Axon line and column, and the message. */
#include "checks.h"
#include "expect.h"

int main(void)
{
    axon_shape in[4], out[2];
    axon_error err;

    /* same: ranks and equal axes */
    in[0] = SHAPE(3, 4);
    in[1] = SHAPE(3, 4);
    EXPECT_INT(checks_same_shape(in, out, &err), AXON_OK);
    EXPECT_SHAPE(out[0], SHAPE(3, 4));
    in[1] = SHAPE(3, 4, 1);
    EXPECT_ERROR(checks_same_shape, in, out, AXON_ERR_RANK, 5, 36,
                 "checks.axon:5:36: y (input 2) has rank 3, expected 2");
    in[1] = SHAPE(3, 5);
    EXPECT_ERROR(checks_same_shape, in, out, AXON_ERR_SIZE, 5, 40,
                 "checks.axon:5:40: y (input 2) axis 1 is 5, expected 4 (m, from x (input 1) axis 1)");
    in[1] = SHAPE(3, 4);
    in[0] = SHAPE(-1, 4);
    EXPECT_ERROR(checks_same_shape, in, out, AXON_ERR_SIZE, 5, 12,
                 "checks.axon:5:12: x (input 1) axis 0 is -1, expected a size (>= 0)");

    /* bias: broadcast at run time */
    in[0] = SHAPE(8, 16);
    in[1] = SHAPE(16);
    EXPECT_INT(checks_bias_shape(in, out, &err), AXON_OK);
    EXPECT_SHAPE(out[0], SHAPE(8, 16));
    in[1] = SHAPE(1);
    EXPECT_INT(checks_bias_shape(in, out, &err), AXON_OK);
    EXPECT_SHAPE(out[0], SHAPE(8, 16));
    in[0] = SHAPE(8, 1);
    in[1] = SHAPE(5);
    EXPECT_INT(checks_bias_shape(in, out, &err), AXON_OK);
    EXPECT_SHAPE(out[0], SHAPE(8, 5));
    in[0] = SHAPE(8, 16);
    in[1] = SHAPE(15);
    EXPECT_ERROR(checks_bias_shape, in, out, AXON_ERR_BROADCAST, 8, 45,
                 "checks.axon:8:45: +: cannot broadcast size 15 (m, from b (input 2) axis 0) with size 16");

    /* halves: n from 2 * n */
    in[0] = SHAPE(6);
    in[1] = SHAPE(3);
    EXPECT_INT(checks_halves_shape(in, out, &err), AXON_OK);
    EXPECT_SHAPE(out[0], SHAPE(6));
    in[0] = SHAPE(7);
    EXPECT_ERROR(checks_halves_shape, in, out, AXON_ERR_DIVISIBILITY, 11, 23,
                 "checks.axon:11:23: x (input 1) axis 0 is 7, which is not of the form 2 * n");
    /* every input axis is a size before anything is solved from it */
    in[0] = SHAPE(-4);
    EXPECT_ERROR(checks_halves_shape, in, out, AXON_ERR_SIZE, 11, 14,
                 "checks.axon:11:14: x (input 1) axis 0 is -4, expected a size (>= 0)");
    in[0] = SHAPE(6);
    in[1] = SHAPE(4);
    EXPECT_ERROR(checks_halves_shape, in, out, AXON_ERR_SIZE, 11, 40,
                 "checks.axon:11:40: y (input 2) axis 0 is 4, expected 3 (n, from x (input 1) axis 0)");

    /* plus: n from n + 1 */
    in[0] = SHAPE(1);
    EXPECT_INT(checks_plus_shape(in, out, &err), AXON_OK);
    EXPECT_SHAPE(out[0], SHAPE(1));
    in[0] = SHAPE(0);
    EXPECT_ERROR(checks_plus_shape, in, out, AXON_ERR_NEGATIVE, 14, 21,
                 "checks.axon:14:21: x (input 1) axis 0 is 0, which is not of the form n + 1 with n >= 0");

    /* conv2: h - r + 1 must not be negative */
    in[0] = SHAPE(2, 3, 32, 32);
    in[1] = SHAPE(16, 3, 5, 5);
    EXPECT_INT(checks_conv2_shape(in, out, &err), AXON_OK);
    EXPECT_SHAPE(out[0], SHAPE(2, 16, 28, 28));
    in[1] = SHAPE(16, 3, 34, 5);
    EXPECT_ERROR(checks_conv2_shape, in, out, AXON_ERR_NEGATIVE, 17, 59,
                 "checks.axon:17:59: conv: the size h - r + 1 is -1, which is negative");
    in[1] = SHAPE(16, 4, 5, 5);
    EXPECT_ERROR(checks_conv2_shape, in, out, AXON_ERR_SIZE, 17, 47,
                 "checks.axon:17:47: f (input 2) axis 1 is 4, expected 3 (c, from x (input 1) axis 1)");

    /* batched: any number of leading axes, the same in both */
    in[0] = SHAPE(2, 3, 4, 5);
    in[1] = SHAPE(2, 3, 5, 6);
    EXPECT_INT(checks_batched_shape(in, out, &err), AXON_OK);
    EXPECT_SHAPE(out[0], SHAPE(2, 3, 4, 6));
    in[0] = SHAPE(4, 5);
    in[1] = SHAPE(5, 6);
    EXPECT_INT(checks_batched_shape(in, out, &err), AXON_OK);
    EXPECT_SHAPE(out[0], SHAPE(4, 6));
    in[0] = SHAPE(1, 2, 3, 4, 5, 6, 7, 8);
    in[1] = SHAPE(1, 2, 3, 4, 5, 6, 8, 9);
    EXPECT_INT(checks_batched_shape(in, out, &err), AXON_OK);
    EXPECT_SHAPE(out[0], SHAPE(1, 2, 3, 4, 5, 6, 7, 9));
    in[0] = SHAPE(5);
    EXPECT_ERROR(checks_batched_shape, in, out, AXON_ERR_RANK, 20, 21,
                 "checks.axon:20:21: x (input 1) has rank 1, expected at least 2 (s @ [m, k]) and at most AXON_MAX_RANK");
    in[0] = SHAPE(2, 3, 4, 5);
    in[1] = SHAPE(2, 5, 6);
    EXPECT_ERROR(checks_batched_shape, in, out, AXON_ERR_RANK, 20, 39,
                 "checks.axon:20:39: y (input 2) has rank 3, expected 4 (s @ [k, n])");
    in[1] = SHAPE(2, 4, 5, 6);
    EXPECT_ERROR(checks_batched_shape, in, out, AXON_ERR_SIZE, 20, 39,
                 "checks.axon:20:39: y (input 2) axis 1 is 4, expected 3 (s, from x (input 1) axis 1)");
    in[1] = SHAPE(2, 3, 9, 6);
    EXPECT_ERROR(checks_batched_shape, in, out, AXON_ERR_SIZE, 20, 44,
                 "checks.axon:20:44: y (input 2) axis 2 is 9, expected 5 (k, from x (input 1) axis 3)");

    /* anybc: whole shapes broadcast at run time */
    in[0] = SHAPE(4, 1, 3);
    in[1] = SHAPE(5, 1);
    EXPECT_INT(checks_anybc_shape(in, out, &err), AXON_OK);
    EXPECT_SHAPE(out[0], SHAPE(4, 5, 3));
    in[0] = SCALAR;
    in[1] = SHAPE(2, 2);
    EXPECT_INT(checks_anybc_shape(in, out, &err), AXON_OK);
    EXPECT_SHAPE(out[0], SHAPE(2, 2));
    in[0] = SHAPE(4, 2, 3);
    in[1] = SHAPE(5, 3);
    EXPECT_ERROR(checks_anybc_shape, in, out, AXON_ERR_BROADCAST, 23, 23,
                 "checks.axon:23:23: +: cannot broadcast b: axis 1 from the end is 5, where the others give 2");

    /* split: the residual equation n + m = 10 */
    in[0] = SHAPE(3);
    in[1] = SHAPE(7);
    EXPECT_INT(checks_split_shape(in, out, &err), AXON_OK);
    EXPECT_SHAPE(out[0], SHAPE(10));
    in[1] = SHAPE(8);
    EXPECT_ERROR(checks_split_shape, in, out, AXON_ERR_CONSTRAINT, 26, 52,
                 "checks.axon:26:52: the result of this function: m + n = 10 does not hold: m + n is 11, expected 10");

    /* mlp: intermediates, element and byte counts, overflow */
    checks_mlp_plan plan;
    in[0] = SHAPE(32, 784);
    in[1] = SHAPE(784, 128);
    in[2] = SHAPE(128);
    in[3] = SHAPE(128, 10);
    EXPECT_INT(checks_mlp_prepare(in, &plan, &err), AXON_OK);
    EXPECT_SHAPE(plan.out[0], SHAPE(32, 10));
    /* logits is the value returned: output 1, not an intermediate; every
     * other intermediate is planned, named or not (spec section 8b), in
     * the order computed */
    EXPECT_INT(checks_mlp_NUM_TEMPS, 3);
    EXPECT_STR(checks_mlp_temp_name(checks_mlp_TMP_matmul_30_17), "matmul at 30:17");
    EXPECT_STR(checks_mlp_temp_name(checks_mlp_TMP_add_30_31), "add at 30:31");
    EXPECT_STR(checks_mlp_temp_name(checks_mlp_TMP_hidden), "hidden");
    EXPECT_INT(checks_mlp_TMP_hidden, 2);
    EXPECT_TRUE(checks_mlp_temp_name(3) == NULL);
    EXPECT_SHAPE(plan.tmp[checks_mlp_TMP_matmul_30_17], SHAPE(32, 128));
    EXPECT_SHAPE(plan.tmp[checks_mlp_TMP_add_30_31], SHAPE(32, 128));
    EXPECT_SHAPE(plan.tmp[checks_mlp_TMP_hidden], SHAPE(32, 128));
    EXPECT_INT(plan.tmp_elements[checks_mlp_TMP_hidden], 32 * 128);
    EXPECT_INT(plan.tmp_bytes[checks_mlp_TMP_hidden], 32 * 128 * 4);
    EXPECT_INT(plan.out_elements[0], 320);
    EXPECT_INT(plan.out_bytes[0], 1280);
    /* dims are named after the annotation names (spec section 8b) */
    EXPECT_INT(plan.dims.b, 32);
    EXPECT_INT(plan.dims.d, 784);
    EXPECT_INT(plan.dims.h, 128);
    EXPECT_INT(plan.dims.o, 10);
    in[0] = SHAPE(1LL << 40, 784);
    in[3] = SHAPE(128, 1LL << 40);
    {
        axon_error e;
        EXPECT_INT(checks_mlp_prepare(in, &plan, &e), AXON_ERR_OVERFLOW);
        EXPECT_STR(e.message, "checks.axon:31:12: matmul: output 1 has more elements (or bytes) than int64 can count");
        EXPECT_INT(e.line, 31);
        EXPECT_INT(e.column, 12);
    }
    /* ... while the shapes alone are fine; and the intermediate alone
     * overflows too (the output is counted first, then tmp[0]) */
    EXPECT_INT(checks_mlp_shape(in, out, &err), AXON_OK);
    EXPECT_SHAPE(out[0], SHAPE(1LL << 40, 1LL << 40));

    in[0] = SHAPE(1LL << 40, 784);
    in[3] = SHAPE(128, 10);
    in[1] = SHAPE(784, 1LL << 40);
    in[2] = SHAPE(1LL << 40);
    {
        axon_error e;
        EXPECT_INT(checks_mlp_prepare(in, &plan, &e), AXON_ERR_SIZE);    /* w2 is [h, o]: h = 2^40 */
        in[3] = SHAPE(1LL << 40, 10);
        EXPECT_INT(checks_mlp_prepare(in, &plan, &e), AXON_ERR_OVERFLOW);
        /* (the first intermediate that overflows: the unnamed matmul) */
        EXPECT_STR(e.message, "checks.axon:30:17: matmul: matmul at 30:17 has more elements (or bytes) than int64 can count");
        EXPECT_INT(plan.out_elements[0], (1LL << 40) * 10);
    }

    /* ragged: the axis is AXON_DIM_RAGGED */
    in[0] = SHAPE(4, AXON_DIM_RAGGED, 3);
    EXPECT_INT(checks_ragged_shape(in, out, &err), AXON_OK);
    EXPECT_SHAPE(out[0], SHAPE(4, AXON_DIM_RAGGED, 3));
    in[0] = SHAPE(4, 7, 3);
    EXPECT_ERROR(checks_ragged_shape, in, out, AXON_ERR_SIZE, 36, 26,
                 "checks.axon:36:26: x (input 1) axis 1 is 7, expected AXON_DIM_RAGGED (a ragged axis, *)");

    /* err may be NULL */
    in[0] = SHAPE(1);
    EXPECT_INT(checks_same_shape(in, out, NULL), AXON_ERR_RANK);
    return expect_summary();
}
