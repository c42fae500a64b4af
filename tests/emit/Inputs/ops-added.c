/* ops-added.c - the shape functions of tests/check/ops-added.axon (the
 * operators spec section 5b added after real networks: linear,
 * conv1d_grouped, expand, concat_axis of several tensors, arange, negative
 * axes) on valid and invalid shapes (tests/emit/ops-added.test). */
#include "ops_added.h"
#include "show-shapes.h"

int main(void)
{
    axon_shape out[1];
    axon_error err;
    axon_shape l1[2] = { { 3, { 2, 5, 8 } }, { 2, { 8, 3 } } };
    show("lin", ops_added_lin_shape(l1, out, &err), out, 1, &err);
    axon_shape l2[2] = { { 3, { 2, 5, 8 } }, { 2, { 7, 3 } } };
    show("lin_bad", ops_added_lin_shape(l2, out, &err), out, 1, &err);
    axon_shape l3[2] = { { 5, { 2, 3, 4, 5, 8 } }, { 2, { 8, 6 } } };
    show("lin_any", ops_added_lin_any_shape(l3, out, &err), out, 1, &err);
    axon_shape l4[2] = { { 1, { 8 } }, { 2, { 8, 6 } } };
    show("lin_any1", ops_added_lin_any_shape(l4, out, &err), out, 1, &err);
    axon_shape l5[2] = { { 0, { 0 } }, { 2, { 8, 6 } } };
    show("lin_any0", ops_added_lin_any_shape(l5, out, &err), out, 1, &err);

    axon_shape d1[2] = { { 3, { 2, 16, 100 } }, { 3, { 16, 1, 31 } } };
    show("depthwise", ops_added_depthwise_shape(d1, out, &err), out, 1, &err);
    axon_shape d2[2] = { { 3, { 2, 16, 100 } }, { 3, { 15, 1, 31 } } };
    show("depthwise_c", ops_added_depthwise_shape(d2, out, &err), out, 1, &err);
    axon_shape d3[2] = { { 3, { 2, 16, 0 } }, { 3, { 16, 1, 31 } } };
    show("depthwise_0", ops_added_depthwise_shape(d3, out, &err), out, 1, &err);
    axon_shape g1[2] = { { 3, { 1, 8, 10 } }, { 3, { 16, 2, 3 } } };
    show("grouped", ops_added_grouped_shape(g1, out, &err), out, 1, &err);
    axon_shape g2[2] = { { 3, { 1, 8, 2 } }, { 3, { 16, 2, 3 } } };
    show("grouped_short", ops_added_grouped_shape(g2, out, &err), out, 1, &err);
    axon_shape g3[3] = { { 3, { 1, 12, 20 } }, { 3, { 6, 4, 5 } }, { 1, { 3 } } };
    show("dilated", ops_added_dilated_shape(g3, out, &err), out, 1, &err);
    axon_shape g4[3] = { { 3, { 1, 12, 20 } }, { 3, { 6, 4, 5 } }, { 1, { 5 } } };
    show("dilated_g", ops_added_dilated_shape(g4, out, &err), out, 1, &err);
    axon_shape g5[3] = { { 3, { 1, 12, 11 } }, { 3, { 6, 4, 5 } }, { 1, { 3 } } };
    show("dilated_short", ops_added_dilated_shape(g5, out, &err), out, 1, &err);

    axon_shape e1[2] = { { 3, { 1, 1, 8 } }, { 3, { 4, 9, 8 } } };
    show("cls", ops_added_cls_shape(e1, out, &err), out, 1, &err);
    axon_shape e2[2] = { { 3, { 1, 1, 8 } }, { 3, { 4, 9, 7 } } };
    show("cls_d", ops_added_cls_shape(e2, out, &err), out, 1, &err);
    axon_shape e3[2] = { { 1, { 8 } }, { 1, { 5 } } };
    show("row", ops_added_row_shape(e3, out, &err), out, 1, &err);
    axon_shape x1[2] = { { 2, { 1, 6 } }, { 3, { 4, 5, 6 } } };
    show("any", ops_added_any_shape(x1, out, &err), out, 1, &err);
    axon_shape x2[2] = { { 2, { 5, 1 } }, { 3, { 4, 5, 6 } } };
    show("any_stretch", ops_added_any_shape(x2, out, &err), out, 1, &err);
    axon_shape x3[2] = { { 2, { 3, 6 } }, { 3, { 4, 5, 6 } } };
    show("any_bad", ops_added_any_shape(x3, out, &err), out, 1, &err);
    axon_shape x4[2] = { { 4, { 1, 4, 5, 6 } }, { 3, { 4, 5, 6 } } };
    show("any_rank", ops_added_any_shape(x4, out, &err), out, 1, &err);
    axon_shape x5[2] = { { 3, { 4, 1, 6 } }, { 3, { 4, 5, 1 } } };
    show("any_shrink", ops_added_any_shape(x5, out, &err), out, 1, &err);

    axon_shape b1[4] = { { 4, { 2, 3, 7, 7 } }, { 4, { 2, 5, 7, 7 } }, { 4, { 2, 1, 7, 7 } }, { 4, { 2, 8, 7, 7 } } };
    show("branches", ops_added_branches_shape(b1, out, &err), out, 1, &err);
    axon_shape b2[4] = { { 4, { 2, 3, 7, 7 } }, { 4, { 2, 5, 7, 7 } }, { 4, { 2, 1, 7, 6 } }, { 4, { 2, 8, 7, 7 } } };
    show("branches_w", ops_added_branches_shape(b2, out, &err), out, 1, &err);
    axon_shape t1[3] = { { 2, { 3, 4 } }, { 2, { 5, 4 } }, { 2, { 1, 4 } } };
    show("three", ops_added_three_shape(t1, out, &err), out, 1, &err);
    axon_shape t2[3] = { { 2, { 3, 4 } }, { 2, { 5, 4 } }, { 1, { 1 } } };
    show("three_rank", ops_added_three_shape(t2, out, &err), out, 1, &err);

    axon_shape p1[1] = { { 2, { 7, 16 } } };
    show("positions", ops_added_positions_shape(p1, out, &err), out, 1, &err);
    show("causal", ops_added_causal_shape(p1, out, &err), out, 1, &err);

    axon_shape n1[2] = { { 3, { 2, 3, 4 } }, { 3, { 2, 3, 5 } } };
    show("last", ops_added_last_shape(n1, out, &err), out, 1, &err);
    axon_shape n2[2] = { { 3, { 2, 3, 4 } }, { 3, { 2, 4, 5 } } };
    show("last_bad", ops_added_last_shape(n2, out, &err), out, 1, &err);
    axon_shape n3[2] = { { 3, { 2, 3, 4 } }, { 3, { 2, 6, 4 } } };
    show("second_last", ops_added_second_last_shape(n3, out, &err), out, 1, &err);
    axon_shape n4[2] = { { 5, { 1, 2, 3, 4, 5 } }, { 5, { 1, 2, 3, 4, 6 } } };
    show("last_any", ops_added_last_any_shape(n4, out, &err), out, 1, &err);
    axon_shape n5[2] = { { 1, { 5 } }, { 1, { 6 } } };
    show("last_any1", ops_added_last_any_shape(n5, out, &err), out, 1, &err);
    axon_shape n6[2] = { { 2, { 2, 5 } }, { 2, { 3, 6 } } };
    show("last_any_bad", ops_added_last_any_shape(n6, out, &err), out, 1, &err);
    axon_shape n7[1] = { { 3, { 2, 3, 4 } } };
    show("tail", ops_added_tail_shape(n7, out, &err), out, 1, &err);
    axon_shape n8[1] = { { 3, { 2, 3, 2 } } };
    show("tail_short", ops_added_tail_shape(n8, out, &err), out, 1, &err);
    axon_shape n9[3] = { { 3, { 2, 3, 4 } }, { 3, { 2, 3, 1 } }, { 3, { 2, 3, 2 } } };
    show("heads_last", ops_added_heads_last_shape(n9, out, &err), out, 1, &err);
    return 0;
}
