/* floor-nonneg.c - the shape functions of floor-nonneg.axon on a crop that
 * fits and one wider than its input (tests/emit/floor-nonneg.test). */
#include "floor_nonneg.h"
#include "show-shapes.h"

int main(void)
{
    axon_shape out[1];
    axon_error err;
    axon_shape fit[2] = { { 1, { 7 } }, { 1, { 3 } } };
    show("crop 3 of 7", floor_nonneg_crop_shape(fit, out, &err), out, 1, &err);
    axon_shape wide[2] = { { 1, { 2 } }, { 1, { 3 } } };
    show("crop 3 of 2", floor_nonneg_crop_shape(wide, out, &err), out, 1, &err);
    show("half 3 of 2", floor_nonneg_half_shape(wide, out, &err), out, 1, &err);
    return 0;
}
