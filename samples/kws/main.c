/* main.c - the keyword spotter of kws.axon from C: one second of audio at
 * 100 frames a second (101 frames of 40 mel bands), then a batch of 16 clips
 * of 49 frames; then a clip of one frame, too short for the first pooling
 * window. */
#include <stdio.h>
#include <stdlib.h>

#include "kws.h"
#include "print_tensor.h"

static const char *const names[kws_kws_NUM_INPUTS] = { "x", "k1", "k2", "kc" };

static int show(axon_shape in[kws_kws_NUM_INPUTS])
{
    kws_kws_plan plan;
    axon_error err;
    int status = kws_kws_prepare(in, &plan, &err);
    if (status != AXON_OK) {
        printf("unexpected %s: %s\n", axon_status_name(status), err.message);
        return 1;
    }
    printf("kws: inputs accepted\n");
    for (int i = 0; i < kws_kws_NUM_INPUTS; i++)
        print_tensor("input", names[i], &in[i], axon_elements(&in[i]), axon_bytes(&in[i], sizeof(float)));
    print_tensor("output", "1", &plan.out[0], plan.out_elements[0], plan.out_bytes[0]);
    int64_t total = plan.out_bytes[0];
    for (int i = 0; i < kws_kws_NUM_TEMPS; i++) {
        print_tensor("temp", kws_kws_temp_name(i), &plan.tmp[i], plan.tmp_elements[i], plan.tmp_bytes[i]);
        total += plan.tmp_bytes[i];
    }
    printf("  dims   b=%lld t=%lld\n", (long long)plan.dims.b, (long long)plan.dims.t);
    void *buf = malloc((size_t)total);
    printf("  allocated %lld bytes for the output and the temporaries\n", (long long)total);
    free(buf);
    return 0;
}

int main(void)
{
    axon_shape in[kws_kws_NUM_INPUTS] = {
        { 3, { 1, 40, 101 } },  /* x: batch, mel bands, frames */
        { 3, { 64, 40, 5 } },   /* k1 */
        { 3, { 64, 64, 3 } },   /* k2 */
        { 3, { 12, 64, 1 } },   /* kc: 12 keywords */
    };
    if (show(in) != 0)
        return 1;
    in[0].dims[0] = 16;
    in[0].dims[2] = 49;
    if (show(in) != 0)
        return 1;

    in[0].dims[2] = 1;
    axon_shape out[kws_kws_NUM_OUTPUTS];
    axon_error err;
    int status = kws_kws_shape(in, out, &err);
    printf("a clip of one frame: %s\n  %s\n", axon_status_name(status), err.message);
    return status == AXON_ERR_CONSTRAINT ? 0 : 1;
}
