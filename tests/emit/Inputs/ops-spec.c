/* ops-spec.c - the shape functions of tests/check/ops-spec.axon on numbers:
 * what the signatures that spec strings spell compute (tests/emit/ops-spec.test). */
#include "ops_spec.h"
#include "show-shapes.h"

int main(void)
{
    axon_shape out[5];
    axon_error err;
    axon_shape a[2] = { { 4, { 2, 8, 10, 64 } }, { 4, { 2, 8, 12, 64 } } };
    show("scores", ops_spec_scores_shape(a, out, &err), out, 1, &err);
    axon_shape a2[2] = { { 4, { 2, 8, 10, 64 } }, { 4, { 2, 4, 12, 64 } } };
    show("heads", ops_spec_scores_shape(a2, out, &err), out, 1, &err);
    axon_shape b[2] = { { 3, { 5, 3, 4 } }, { 2, { 6, 4 } } };
    show("bmm", ops_spec_bmm_shape(b, out, &err), out, 1, &err);
    axon_shape b2[2] = { { 3, { 5, 3, 4 } }, { 3, { 2, 6, 4 } } };
    show("bmmbcast", ops_spec_bmm_shape(b2, out, &err), out, 1, &err);
    axon_shape m[1] = { { 4, { 2, 3, 4, 5 } } };
    show("mid", ops_spec_mid_shape(m, out, &err), out, 1, &err);
    axon_shape r[1] = { { 3, { 2, 3, 7 } } };
    show("red", ops_spec_red_shape(r, out, &err), out, 5, &err);
    axon_shape d[1] = { { 2, { 4, 5 } } };
    show("diag", ops_spec_diag_shape(d, out, &err), out, 1, &err);
    return 0;
}
