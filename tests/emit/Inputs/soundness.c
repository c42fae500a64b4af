/* soundness.c - the header accepts exactly the input shapes the program
 * accepts and computes exactly the shapes it produces, for one function of
 * each family of residual constraint that it once left unchecked (accepting
 * bad shapes) or unsolved (giving AXON_DIM_UNKNOWN for a size the inputs
 * determine).  The old wrong answer is noted at each case. */
#include "soundness.h"
#include "expect.h"

#define OK(f) EXPECT_INT(soundness_##f##_shape(in, out, &err), AXON_OK)
#define BAD(f, status) EXPECT_INT(soundness_##f##_shape(in, out, &err), status)

int main(void)
{
    axon_shape in[3], out[2];
    axon_error err = { 0, 0, 0, "" };

    /* 1. broadcast([a], b) = [c]: c is solved, the broadcast checked
     *    (was: [3] + [4] accepted, [3] + [1] gave [-1]) */
    in[0] = SHAPE(3);
    in[1] = SHAPE(1);
    OK(bcpat);
    EXPECT_SHAPE(out[0], SHAPE(3));
    in[1] = SHAPE(4);
    BAD(bcpat, AXON_ERR_BROADCAST);
    in[1] = SHAPE(2, 3);          /* broadcasts to [2, 3]: not of rank 1 */
    BAD(bcpat, AXON_ERR_RANK);
    EXPECT_STR(err.message, "soundness.axon:4:47: +: the broadcast at 4:47 has rank 2, expected 1 ([m])");
    /* ... and matched against c @ [e, d] (was: not even the broadcast checked) */
    in[1] = SHAPE(4, 1);
    OK(bctr);
    EXPECT_SHAPE(out[0], SHAPE(3, 4));
    in[1] = SHAPE(2, 5, 3);
    OK(bctr);
    EXPECT_SHAPE(out[0], SHAPE(2, 3, 5));
    in[1] = SHAPE(4, 2);
    BAD(bctr, AXON_ERR_BROADCAST);
    in[1] = SCALAR;
    BAD(bctr, AXON_ERR_RANK);

    /* 2. c @ [f, d] = [a] @ b: decided once x's rank is known
     *    (was: [2, 3] . [4, 5] and [7, 2, 3] . [3, 5] accepted, [2, 3] . [3, 5] gave [-1, 5]) */
    in[0] = SHAPE(2, 3);
    in[1] = SHAPE(3, 5);
    OK(split);
    EXPECT_SHAPE(out[0], SHAPE(2, 5));
    in[1] = SHAPE(4, 5);
    BAD(split, AXON_ERR_SIZE);
    in[0] = SHAPE(7, 2, 3);
    in[1] = SHAPE(3, 5);
    BAD(split, AXON_ERR_RANK);
    in[1] = SHAPE(7, 3, 5);
    OK(split);
    EXPECT_SHAPE(out[0], SHAPE(7, 2, 5));
    in[1] = SHAPE(6, 3, 5);
    BAD(split, AXON_ERR_SIZE);

    /* 3. every input axis is a size (was: [-1] accepted, giving [-1]) */
    in[0] = SHAPE(-1);
    BAD(minus, AXON_ERR_SIZE);
    EXPECT_STR(err.message, "soundness.axon:9:13: x (input 1) axis 0 is -1, expected a size (>= 0)");
    in[0] = SHAPE(0);
    OK(minus);
    EXPECT_SHAPE(out[0], SHAPE(0));

    /* 4. an input whose type is a broadcast is compared with it
     *    (was: [1], [3], [2, 3] accepted) */
    in[0] = SHAPE(1);
    in[1] = SHAPE(3);
    in[2] = SHAPE(2, 3);
    BAD(bcin, AXON_ERR_RANK);
    in[2] = SHAPE(3);
    OK(bcin);
    EXPECT_SHAPE(out[0], SHAPE(3));
    in[2] = SHAPE(1);
    BAD(bcin, AXON_ERR_SIZE);

    /* 5. a lambda's annotation shares m with its function: g(g(x)) needs
     *    broadcast([m], b) = [m] (was: y = [2] with x = [3] accepted) */
    in[0] = SHAPE(3);
    in[1] = SHAPE(2);
    BAD(lam, AXON_ERR_BROADCAST);
    in[1] = SHAPE(1, 3);
    BAD(lam, AXON_ERR_RANK);
    in[1] = SHAPE(3);
    OK(lam);
    EXPECT_SHAPE(out[0], SHAPE(3));
    in[1] = SCALAR;
    OK(lam);
    EXPECT_SHAPE(out[0], SHAPE(3));
    /* (was: not exported at all) */
    in[1] = SHAPE(4, 1);
    OK(lam1);
    EXPECT_SHAPE(out[0], SHAPE(4, 3));

    /* 6. [n * n]: n is the exact root (was: [5] and [2] accepted, n = -1) */
    soundness_square_plan plan;
    in[0] = SHAPE(16);
    EXPECT_INT(soundness_square_prepare(in, &plan, &err), AXON_OK);
    EXPECT_INT(plan.dims.n, 4);
    in[0] = SHAPE(5);
    BAD(square, AXON_ERR_DIVISIBILITY);
    EXPECT_STR(err.message, "soundness.axon:16:23: x (input 1) axis 0 is 5, which is not of the form n * n for a whole n");
    in[0] = SHAPE(2);
    BAD(square, AXON_ERR_DIVISIBILITY);
    in[0] = SHAPE(0);
    OK(square);
    in[0] = SHAPE(3037000499LL * 3037000499LL);
    OK(square);

    /* 7. 2 * b = a + 2: b solved, a + 2 must be even (was: [3], [2] accepted) */
    in[0] = SHAPE(3);
    in[1] = SHAPE(2);
    BAD(deq, AXON_ERR_DIVISIBILITY);
    in[0] = SHAPE(4);
    OK(deq);
    EXPECT_SHAPE(out[0], SHAPE(6));

    /* 8. ranks that follow from the inputs' once the residuals are decided
     *    (was: not exported) */
    in[0] = SHAPE(2, 1);
    in[1] = SHAPE(4);
    OK(rev);
    EXPECT_SHAPE(out[0], SHAPE(2, 4));
    in[0] = SCALAR;
    in[1] = SCALAR;
    BAD(rev, AXON_ERR_RANK);
    in[0] = SHAPE(5, 2, 3);
    OK(tr);
    EXPECT_SHAPE(out[0], SHAPE(5, 3, 2));
    in[0] = SHAPE(5);
    BAD(tr, AXON_ERR_RANK);
    in[0] = SHAPE(4, 1);
    in[1] = SHAPE(3);
    OK(red);
    EXPECT_SHAPE(out[0], SHAPE(3));
    EXPECT_SHAPE(out[1], SHAPE(4, 3));

    /* 9. (m + n)^2 with only m + n an input axis: computed, its overflow an
     *    error (was: AXON_DIM_UNKNOWN, and an overflow let through) */
    in[0] = SHAPE(14);
    OK(sumsq);
    EXPECT_SHAPE(out[0], SHAPE(196));
    in[0] = SHAPE(INT64_C(1) << 32);
    BAD(sumsq, AXON_ERR_OVERFLOW);
    {
        soundness_sumsqtmp_plan plan;
        in[0] = SHAPE(14);
        in[1] = SCALAR;
        EXPECT_INT(soundness_sumsqtmp_prepare(in, &plan, &err), AXON_OK);
        EXPECT_SHAPE(plan.tmp[soundness_sumsqtmp_TMP_v], SHAPE(196));
        EXPECT_INT(plan.tmp_bytes[soundness_sumsqtmp_TMP_v], 784);
        in[0] = SHAPE(INT64_C(1) << 62);
        EXPECT_INT(soundness_sumsqtmp_prepare(in, &plan, &err), AXON_ERR_OVERFLOW);
    }
    return expect_summary();
}
