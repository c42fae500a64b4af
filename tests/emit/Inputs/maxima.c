/* maxima.c - static arrays sized by the header's maxima (spec section
 * 8b); every plan's counts stay within them (tests/emit/maxima.test). */
#include <stdio.h>

#include "maxima.h"

static float out_small[maxima_small_OUT_0_MAX_ELEMENTS];
static float out_halves[maxima_halves_OUT_0_MAX_ELEMENTS];

int main(void)
{
    maxima_small_plan p1;
    axon_shape s1[2] = { { 2, { 512, 64 } }, { 2, { 64, 10 } } };
    int st = maxima_small_prepare(s1, &p1, NULL);
    printf("small: %d %lld of %d, fits %d\n", st, (long long)p1.out_elements[0], maxima_small_OUT_0_MAX_ELEMENTS,
           p1.out_bytes[0] <= (int64_t)sizeof out_small);
    s1[0].dims[0] = 513;
    printf("small 513: %s\n", axon_status_name(maxima_small_prepare(s1, &p1, NULL)));
    maxima_halves_plan p2;
    axon_shape s2[2] = { { 4, { 8, 3, 224, 224 } }, { 4, { 64, 3, 3, 3 } } };
    st = maxima_halves_prepare(s2, &p2, NULL);
    printf("halves: %d %lld of %d, fits %d\n", st, (long long)p2.out_elements[0], maxima_halves_OUT_0_MAX_ELEMENTS,
           p2.out_bytes[0] <= (int64_t)sizeof out_halves);
    return 0;
}
