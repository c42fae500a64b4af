/* ops-reshape.c - the shape functions of tests/check/ops-reshape.axon
 * (spec section 5b: elements, rank, reshape, flatten, concat_axis, slice,
 * nonzero) on valid and invalid shapes (tests/emit/ops-reshape.test). */
#include "ops_reshape.h"
#include "show-shapes.h"

int main(void)
{
    axon_shape out[2];
    axon_error err;
    axon_shape f1[1] = { { 4, { 2, 3, 4, 4 } } };
    show("flat", ops_reshape_flat_shape(f1, out, &err), out, 1, &err);
    axon_shape f2[1] = { { 4, { 2, 3, 5, 7 } } };
    show("flat_any", ops_reshape_flat_any_shape(f2, out, &err), out, 1, &err);
    axon_shape f3[1] = { { 1, { 9 } } };
    show("flat_any1", ops_reshape_flat_any_shape(f3, out, &err), out, 1, &err);
    axon_shape f4[1] = { { 0, { 0 } } };
    show("flat_any0", ops_reshape_flat_any_shape(f4, out, &err), out, 1, &err);
    axon_shape h1[2] = { { 3, { 2, 5, 12 } }, { 1, { 4 } } };
    show("heads", ops_reshape_heads_shape(h1, out, &err), out, 1, &err);
    axon_shape h2[2] = { { 3, { 2, 5, 12 } }, { 1, { 5 } } };
    show("heads5", ops_reshape_heads_shape(h2, out, &err), out, 1, &err);
    axon_shape a1[1] = { { 3, { 2, 5, 12 } } };
    show("all", ops_reshape_all_shape(a1, out, &err), out, 1, &err);
    axon_shape a2[1] = { { 3, { INT64_C(1) << 40, INT64_C(1) << 40, 0 } } };
    show("all0", ops_reshape_all_shape(a2, out, &err), out, 1, &err);
    axon_shape a3[1] = { { 3, { INT64_C(1) << 40, INT64_C(1) << 40, 1 << 20 } } };
    show("allbig", ops_reshape_all_shape(a3, out, &err), out, 1, &err);
    axon_shape n1[2] = { { 2, { 2, 3 } }, { 1, { 6 } } };
    show("count", ops_reshape_count_shape(n1, out, &err), out, 1, &err);
    axon_shape n2[2] = { { 2, { 2, 3 } }, { 1, { 5 } } };
    show("count5", ops_reshape_count_shape(n2, out, &err), out, 1, &err);
    axon_shape c1[2] = { { 3, { 2, 3, 4 } }, { 3, { 2, 5, 4 } } };
    show("cat1", ops_reshape_cat1_shape(c1, out, &err), out, 1, &err);
    axon_shape c2[2] = { { 3, { 2, 3, 4 } }, { 3, { 2, 5, 3 } } };
    show("cat1bad", ops_reshape_cat1_shape(c2, out, &err), out, 1, &err);
    axon_shape c3[3] = { { 3, { 2, 3, 4 } }, { 3, { 2, 3, 6 } }, { 1, { 2 } } };
    show("c_axis2", ops_reshape_c_shape(c3, out, &err), out, 1, &err);
    axon_shape c4[3] = { { 3, { 2, 3, 4 } }, { 3, { 2, 3, 6 } }, { 1, { 3 } } };
    show("c_axis3", ops_reshape_c_shape(c4, out, &err), out, 1, &err);
    axon_shape s1[1] = { { 3, { 2, 7, 9 } } };
    show("crop", ops_reshape_crop_shape(s1, out, &err), out, 1, &err);
    axon_shape s2[1] = { { 3, { 2, 7, 3 } } };
    show("cropshort", ops_reshape_crop_shape(s2, out, &err), out, 1, &err);
    axon_shape w1[3] = { { 3, { 2, 7, 4 } }, { 1, { 2 } }, { 1, { 5 } } };
    show("window", ops_reshape_window_shape(w1, out, &err), out, 1, &err);
    axon_shape w2[3] = { { 3, { 2, 7, 4 } }, { 1, { 5 } }, { 1, { 2 } } };
    show("windowback", ops_reshape_window_shape(w2, out, &err), out, 1, &err);
    axon_shape s3[4] = { { 2, { 4, 9 } }, { 1, { 1 } }, { 1, { 3 } }, { 1, { 9 } } };
    show("s_axis1", ops_reshape_s_shape(s3, out, &err), out, 1, &err);
    axon_shape s4[4] = { { 2, { 4, 9 } }, { 1, { 0 } }, { 1, { 3 } }, { 1, { 5 } } };
    show("s_past", ops_reshape_s_shape(s4, out, &err), out, 1, &err);
    axon_shape t1[1] = { { 3, { 5, 7, 2 } } };
    show("two3", ops_reshape_two_shape(t1, out, &err), out, 1, &err);
    axon_shape z1[1] = { { 1, { 10 } } };
    show("nz", ops_reshape_nz_shape(z1, out, &err), out, 1, &err);
    return 0;
}
