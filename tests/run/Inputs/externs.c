/* externs.c - run() of tests/run/Inputs/externs.axon with the externs
 * implemented here, through the table: pad1 adds a row of zeros above and
 * below, split2 cuts a vector in two; the context pointer counts the calls.
 * Then a table without split2, and a pad1 that fails. */
#define EXTERNS_IMPLEMENTATION
#include "externs.h"

#include <stdio.h>
#include <string.h>

static int pad1(void *ctx, const axon_tensor *in, int nin, const axon_tensor *out, int nout, axon_error *err)
{
    (void)err;
    ++*(int *)ctx;
    if (nin != 1 || nout != 1)
        return AXON_ERR_EXTERN;
    int64_t rows = in[0].dims[0], cols = in[0].dims[1];
    float *o = (float *)out[0].data;
    const float *x = (const float *)in[0].data;
    for (int64_t j = 0; j < cols; j++) {
        o[j * out[0].strides[1]] = 0;
        o[(rows + 1) * out[0].strides[0] + j * out[0].strides[1]] = 0;
    }
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            o[(i + 1) * out[0].strides[0] + j * out[0].strides[1]] = x[i * in[0].strides[0] + j * in[0].strides[1]];
    return AXON_OK;
}

static int pad1_fails(void *ctx, const axon_tensor *in, int nin, const axon_tensor *out, int nout, axon_error *err)
{
    (void)ctx; (void)in; (void)nin; (void)out; (void)nout;
    if (err) {
        err->status = AXON_ERR_EXTERN;
        strcpy(err->message, "pad1: the device is busy");
    }
    return AXON_ERR_EXTERN;
}

static int split2(void *ctx, const axon_tensor *in, int nin, const axon_tensor *out, int nout, axon_error *err)
{
    (void)err;
    ++*(int *)ctx;
    int64_t n = out[0].dims[0];
    for (int64_t i = 0; nin == 1 && nout == 2 && i < n; i++) {
        ((float *)out[0].data)[i * out[0].strides[0]] = ((const float *)in[0].data)[i * in[0].strides[0]];
        ((float *)out[1].data)[i * out[1].strides[0]] = ((const float *)in[0].data)[(n + i) * in[0].strides[0]];
    }
    return AXON_OK;
}

int main(void)
{
    int calls = 0;
    externs_externs ext = { &calls, pad1, split2 };
    char ws[4096];
    axon_error err;

    axon_shape fin[1] = { { 2, { 2, 3 } } };
    externs_f_plan fp;
    if (externs_f_prepare(fin, &fp, &err) != AXON_OK || fp.workspace_bytes > (int64_t)sizeof ws)
        return 1;
    float x[6] = { 1, -2, 3, -4, 5, -6 }, y[12];
    const void *in[1] = { x };
    void *out[1] = { y };
    int st = externs_f_run(&fp, in, out, ws, &ext, &err);
    printf("f: %s [%lld, %lld]:", axon_status_name(st), (long long)fp.out[0].dims[0], (long long)fp.out[0].dims[1]);
    for (int i = 0; i < 12; i++)
        printf(" %g", y[i]);
    printf("\n");

    axon_shape gin[1] = { { 1, { 6 } } };
    externs_g_plan gp;
    if (externs_g_prepare(gin, &gp, &err) != AXON_OK || gp.workspace_bytes > (int64_t)sizeof ws)
        return 1;
    float v[6] = { 10, 20, 30, 1, 2, 3 }, w[3];
    const void *gi[1] = { v };
    void *go[1] = { w };
    st = externs_g_run(&gp, gi, go, ws, &ext, &err);
    printf("g: %s %g %g %g; %d extern calls\n", axon_status_name(st), w[0], w[1], w[2], calls);

    externs_externs none = { &calls, pad1, 0 };
    st = externs_g_run(&gp, gi, go, ws, &none, &err);
    printf("g without split2: %s: %s\n", axon_status_name(st), err.message);
    st = externs_g_run(&gp, gi, go, ws, 0, &err);
    printf("g without a table: %s\n", axon_status_name(st));
    externs_externs busy = { &calls, pad1_fails, split2 };
    st = externs_f_run(&fp, in, out, ws, &busy, &err);
    printf("f with a failing pad1: %s: %s\n", axon_status_name(st), err.message);
    return 0;
}
