/* soundness2.c - the second round of soundness reproducers (soundness2.axon):
 * the header accepts exactly what the program accepts, computes the sizes it
 * produces, and plans no buffer for a dims value.  The old answer is noted
 * at each case. */
#include "soundness2.h"
#include "expect.h"

#define OK(f) EXPECT_INT(soundness2_##f##_shape(in, out, &err), AXON_OK)
#define BAD(f, status) EXPECT_INT(soundness2_##f##_shape(in, out, &err), status)

int main(void)
{
    axon_shape in[3], out[2];
    axon_error err = { 0, 0, 0, "" };

    /* 1. slice(x, [1], [0], [1]) of [3, 8] is [3, 1]: 3 elements, not 8
     *    (was: accepted, output [8]: the count compared with itself) */
    in[0] = SHAPE(3, 8);
    in[1] = SHAPE(1);
    BAD(sl1, AXON_ERR_SIZE);
    EXPECT_STR(err.message, "soundness2.axon:6:33: reshape: x (input 1) axis 1 is 8, expected 3 (elements(a) * elements(b))");
    in[0] = SHAPE(3, 3);
    OK(sl1);
    EXPECT_SHAPE(out[0], SHAPE(3));
    in[1] = SHAPE(0);                   /* [1, 3]: 3 elements */
    in[0] = SHAPE(4, 3);
    OK(sl1);
    EXPECT_SHAPE(out[0], SHAPE(3));
    in[0] = SHAPE(4, 6);                /* along axis 0 every shape fits */
    OK(sl1);
    EXPECT_SHAPE(out[0], SHAPE(6));
    in[1] = SHAPE(2);                   /* an axis past the rank */
    EXPECT_TRUE(soundness2_sl1_shape(in, out, &err) != AXON_OK);

    /* 2. the same path with [3, n] (was: a header that did not compile) */
    in[0] = SHAPE(5, 5);
    in[1] = SHAPE(1);
    OK(sl3);
    EXPECT_SHAPE(out[0], SHAPE(3, 5));
    in[0] = SHAPE(5, 4);
    BAD(sl3, AXON_ERR_SIZE);
    in[1] = SHAPE(0);
    in[0] = SHAPE(3, 4);                /* [3, 4]: 12 = 3 * 4 */
    OK(sl3);
    EXPECT_SHAPE(out[0], SHAPE(3, 4));

    /* 3. t = [n, d, n, d] is not planned, and a dims output has no buffer
     *    (was: an intermediate of n*d*n*d elements of 8 bytes, and
     *    AXON_ERR_OVERFLOW from prepare() on [65536, 65536]) */
    {
        soundness2_dv_plan plan;
        EXPECT_INT(soundness2_dv_NUM_TEMPS, 0);
        in[0] = SHAPE(65536, 65536);
        EXPECT_INT(soundness2_dv_prepare(in, &plan, &err), AXON_OK);
        EXPECT_SHAPE(plan.out[0], SHAPE(65536, 65536));
    }
    {
        soundness2_dout_plan plan;
        in[0] = SHAPE(1 << 22);
        EXPECT_INT(soundness2_dout_prepare(in, &plan, &err), AXON_OK);
        EXPECT_SHAPE(plan.out[0], SHAPE(1 << 22, 1 << 22, 1 << 22));
        EXPECT_INT(plan.out_elements[0], 0);
        EXPECT_INT(plan.out_bytes[0], 0);
        EXPECT_INT(plan.out_max_bytes[0], 0);
        EXPECT_INT(soundness2_dout_OUT_0_BYTES, 0);
    }

    /* 4. a * b + b with a from g: b = size / (a + 1), checked to divide
     *    (was: not exported) */
    in[0] = SHAPE(3);
    in[1] = SHAPE(12);
    OK(fac);
    EXPECT_SHAPE(out[0], SHAPE(3, 4));
    in[1] = SHAPE(0);
    OK(fac);
    EXPECT_SHAPE(out[0], SHAPE(3, 0));
    in[1] = SHAPE(13);
    BAD(fac, AXON_ERR_DIVISIBILITY);
    EXPECT_STR(err.message, "soundness2.axon:14:37: x (input 2) axis 0 is 13, which is not of the form a * b + b: not a multiple of a + 1 (3)");
    in[0] = SHAPE(0);                   /* a + 1 = 0: a would be -1 */
    BAD(fac, AXON_ERR_NEGATIVE);

    /* ... and n / 2 + 1: any size >= 1 (was: not exported) */
    in[0] = SHAPE(5);
    OK(half);
    EXPECT_SHAPE(out[0], SHAPE(5));
    in[0] = SHAPE(1);
    OK(half);
    in[0] = SHAPE(0);
    BAD(half, AXON_ERR_CONSTRAINT);

    /* 5. a window of 1 needs a non-empty input: b = 0 is an error
     *    (was: accepted, output [a, d, 0]) */
    in[0] = SHAPE(2, 3, 5);
    in[1] = SHAPE(4, 3, 1);
    OK(cg1);
    EXPECT_SHAPE(out[0], SHAPE(2, 4, 5));
    OK(xw1);
    EXPECT_SHAPE(out[0], SHAPE(2, 4, 5));
    in[0] = SHAPE(2, 3, 0);
    BAD(cg1, AXON_ERR_CONSTRAINT);
    EXPECT_STR(err.message, "soundness2.axon:19:51: conv1d_grouped: the clause `where d * (r - 1) + 1 <= l + 2 * p` does not hold (l + 2 * p - (d * (r - 1) + 1) is -1, from b - 1)");
    BAD(xw1, AXON_ERR_CONSTRAINT);
    EXPECT_STR(err.message, "soundness2.axon:21:51: win: the clause `where d * (r - 1) + 1 <= l` does not hold (l - (d * (r - 1) + 1) is -1, from b - 1)");

    /* 6. cgz : (f32 [1, a * b, n], f32 [a * c, b, d]) -> ... where a = (a * b) / 2:
     *    with b = 0 (v's second axis) the product says nothing of a, the
     *    clause says a = m / 2 (was: a left unknown, the clause and v's
     *    first axis not checked, [1, 0, 3] with v [1, 0, 3] accepted) */
    in[0] = SHAPE(1, 0, 3);
    in[1] = SHAPE(1, 0, 3);
    BAD(cgz, AXON_ERR_CONSTRAINT);
    EXPECT_STR(err.message, "soundness2.axon:25:35: conv1d_grouped: v (input 2) axis 0 is 1, which is not of the form a * c (a is 0)");
    in[1] = SHAPE(0, 0, 3);
    OK(cgz);
    EXPECT_SHAPE(out[0], SHAPE(1, 0, 3));
    in[0] = SHAPE(1, 4, 3);             /* a = 2, b = 2 */
    in[1] = SHAPE(6, 2, 3);
    OK(cgz);
    EXPECT_SHAPE(out[0], SHAPE(1, 6, 3));
    in[1] = SHAPE(6, 1, 3);             /* b = 1: a would be 4, not 4 / 2 */
    BAD(cgz, AXON_ERR_CONSTRAINT);

    return expect_summary();
}
