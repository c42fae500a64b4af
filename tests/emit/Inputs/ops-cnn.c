/* ops-cnn.c - the shape functions of ops-cnn.axon (spec section 5b) on
 * valid and invalid shapes: dims parameters as inputs, where clauses as
 * run-time checks (tests/emit/ops-cnn.test). */
#include "ops_cnn.h"
#include "show-shapes.h"

int main(void)
{
    axon_shape out[2];
    axon_error err;
    axon_shape stem[2] = { { 4, { 1, 3, 224, 224 } }, { 4, { 64, 3, 7, 7 } } };
    show("stem", ops_cnn_stem_shape(stem, out, &err), out, 1, &err);
    axon_shape s1[3] = { { 4, { 2, 3, 32, 30 } }, { 4, { 8, 3, 5, 4 } }, { 2, { 2, 3 } } };
    show("strided", ops_cnn_strided_shape(s1, out, &err), out, 1, &err);
    axon_shape s0[3] = { { 4, { 2, 3, 32, 30 } }, { 4, { 8, 3, 5, 4 } }, { 2, { 0, 3 } } };
    show("stride0", ops_cnn_strided_shape(s0, out, &err), out, 1, &err);
    axon_shape sw[3] = { { 4, { 2, 3, 4, 30 } }, { 4, { 8, 3, 5, 4 } }, { 2, { 1, 1 } } };
    show("window", ops_cnn_strided_shape(sw, out, &err), out, 1, &err);
    axon_shape sr[3] = { { 4, { 2, 3, 32, 30 } }, { 4, { 8, 3, 5, 4 } }, { 3, { 1, 1, 1 } } };
    show("dimsrank", ops_cnn_strided_shape(sr, out, &err), out, 1, &err);
    axon_shape k1[2] = { { 3, { 1, 40, 101 } }, { 3, { 64, 40, 5 } } };
    show("kws", ops_cnn_kws_shape(k1, out, &err), out, 1, &err);
    axon_shape k2[2] = { { 3, { 1, 40, 1 } }, { 3, { 64, 40, 5 } } };
    show("kwsshort", ops_cnn_kws_shape(k2, out, &err), out, 1, &err);
    axon_shape d1[2] = { { 4, { 1, 32, 10, 12 } }, { 4, { 32, 1, 3, 3 } } };
    show("depthwise", ops_cnn_depthwise_shape(d1, out, &err), out, 1, &err);
    axon_shape u1[2] = { { 4, { 1, 8, 5, 6 } }, { 4, { 1, 4, 12, 14 } } };
    show("up", ops_cnn_up_shape(u1, out, &err), out, 1, &err);
    axon_shape t1[2] = { { 2, { 4, 9 } }, { 1, { 3 } } };
    show("topd", ops_cnn_topd_shape(t1, out, &err), out, 2, &err);
    axon_shape t2[2] = { { 2, { 4, 9 } }, { 1, { 10 } } };
    show("topdbig", ops_cnn_topd_shape(t2, out, &err), out, 2, &err);
    axon_shape h1[1] = { { 1, { 1026 } } };
    show("halves", ops_cnn_halves_shape(h1, out, &err), out, 2, &err);
    return 0;
}
