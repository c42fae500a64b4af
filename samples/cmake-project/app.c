/* app.c - the CMake sample: check an MLP's input shapes with the header
 * that axonc_add_header() makes from mlp.axon. */
#include <stdio.h>

#include "mlp.h"

int main(void)
{
    axon_shape in[mlp_mlp_NUM_INPUTS] = {
        { 2, { 32, 784 } }, { 2, { 784, 128 } }, { 1, { 128 } }, { 2, { 128, 10 } }, { 1, { 10 } },
    };
    mlp_mlp_plan plan;
    axon_error err;
    if (mlp_mlp_prepare(in, &plan, &err) != AXON_OK) {
        printf("rejected: %s\n", err.message);
        return 1;
    }
    printf("mlp: output [%lld, %lld], %lld bytes; hidden %lld bytes\n", (long long)plan.out[0].dims[0],
           (long long)plan.out[0].dims[1], (long long)plan.out_bytes[0], (long long)plan.tmp_bytes[0]);
    in[3].dims[0] = 64;
    int status = mlp_mlp_shape(in, plan.out, &err);
    printf("%s: %s\n", axon_status_name(status), err.message);
    return status == AXON_ERR_SIZE ? 0 : 1;
}
