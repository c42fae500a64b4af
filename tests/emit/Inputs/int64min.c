/* int64min.c - the shape functions of int64min.axon at the edges of int64. */
#include "int64min.h"
#include "expect.h"

int main(void)
{
    axon_shape in[2], out[1];
    axon_error err;
    in[0] = SHAPE(5);
    EXPECT_INT(int64min_low_shape(in, out, &err), AXON_ERR_OVERFLOW);
    in[0] = SHAPE(9223372036854775807LL);
    EXPECT_INT(int64min_low_shape(in, out, &err), AXON_ERR_OVERFLOW);
    in[0] = SHAPE(3037000499LL * 3037000499LL);
    in[1] = SHAPE(9223372036854775807LL);
    EXPECT_INT(int64min_square_shape(in, out, &err), AXON_ERR_BROADCAST);
    in[0] = SHAPE(1);
    EXPECT_INT(int64min_square_shape(in, out, &err), AXON_OK);
    EXPECT_SHAPE(out[0], SHAPE(9223372036854775807LL));
    in[0] = SHAPE(0);
    EXPECT_INT(int64min_negated_shape(in, out, &err), AXON_OK);
    in[0] = SHAPE(3);
    EXPECT_INT(int64min_negated_shape(in, out, &err), AXON_ERR_NEGATIVE);
    return expect_summary();
}
