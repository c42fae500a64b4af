/* counts.c - the runtime's element and byte counts (axon_elements,
 * axon_bytes, and axon__count that the plans use) agree with each other on
 * every kind of shape: ordinary, unknown or ragged sizes, an empty axis (in
 * any position, even after axes whose product overflows), and overflow of
 * the elements or only of the bytes. */
#include "checks.h"
#include "expect.h"

#define BIG (INT64_C(1) << 40)

/* What axon__count returns (overflow) and gives when it does not overflow;
 * what axon_elements and axon_bytes give in every case. */
static void expect_counts(axon_shape s, int64_t elem_size, int64_t elements, int64_t bytes, int overflow)
{
    int64_t e = 7, b = 7;
    EXPECT_INT(axon__count(&s, elem_size, &e, &b), overflow);
    if (!overflow) {
        EXPECT_INT(e, elements);
        EXPECT_INT(b, bytes);
    }
    EXPECT_INT(axon_elements(&s), elements);
    EXPECT_INT(axon_bytes(&s, elem_size), bytes);
}

int main(void)
{
    expect_counts((axon_shape){ 0, { 0 } }, 4, 1, 4, 0);                          /* a scalar */
    expect_counts((axon_shape){ 3, { 2, 3, 5 } }, 4, 30, 120, 0);
    expect_counts((axon_shape){ 2, { 3, AXON_DIM_UNKNOWN } }, 4, -1, -1, 0);
    expect_counts((axon_shape){ 2, { 0, AXON_DIM_RAGGED } }, 4, -1, -1, 0);     /* unknown wins */
    expect_counts((axon_shape){ 3, { BIG, 0, BIG } }, 4, 0, 0, 0);
    expect_counts((axon_shape){ 3, { BIG, BIG, 0 } }, 4, 0, 0, 0);              /* empty after an overflow */
    expect_counts((axon_shape){ 2, { BIG, BIG } }, 4, -1, -1, 1);               /* elements overflow */
    expect_counts((axon_shape){ 2, { BIG, 1 << 21 } }, 4, BIG << 21, -1, 1);    /* only the bytes overflow */
    return expect_summary();
}
