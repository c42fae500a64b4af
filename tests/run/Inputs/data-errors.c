/* data-errors.c - run() of data-errors.axon on good data, then on data
 * that spec section 9b makes an error: an index outside the table, an
 * integer division by zero, argmax of an empty axis. */
#define DATA_ERRORS_IMPLEMENTATION
#include "data_errors.h"

#include <stdio.h>

static char ws[1 << 16];

static void report(const char *what, int st, const axon_error *err)
{
    printf("%s: %s%s%s\n", what, axon_status_name(st), st ? ": " : "", st ? err->message : "");
}

int main(void)
{
    axon_error err;
    float table[6] = { 1, 2, 3, 4, 5, 6 }, picked[6];
    int32_t ids[3] = { 2, 0, 1 };
    axon_shape rin[2] = { { 2, { 3, 2 } }, { 1, { 3 } } };
    data_errors_rows_plan rp;
    if (data_errors_rows_prepare(rin, &rp, &err) != AXON_OK)
        return 1;
    const void *ri[2] = { table, ids };
    void *ro[1] = { picked };
    int st = data_errors_rows_run(&rp, ri, ro, ws, &err);
    report("rows", st, &err);
    printf("  %g %g %g %g %g %g\n", picked[0], picked[1], picked[2], picked[3], picked[4], picked[5]);
    ids[1] = 3;
    report("rows with index 3", data_errors_rows_run(&rp, ri, ro, ws, &err), &err);
    ids[1] = -1;
    report("rows with index -1", data_errors_rows_run(&rp, ri, ro, ws, &err), &err);
    report("rows with index -1, err NULL", data_errors_rows_run(&rp, ri, ro, ws, 0), &err);

    int32_t a[4] = { 7, -7, 7, 0 }, b[4] = { 2, 2, -2, 5 }, q[4];
    axon_shape hin[2] = { { 1, { 4 } }, { 1, { 4 } } };
    data_errors_halve_plan hp;
    if (data_errors_halve_prepare(hin, &hp, &err) != AXON_OK)
        return 1;
    const void *hi[2] = { a, b };
    void *ho[1] = { q };
    st = data_errors_halve_run(&hp, hi, ho, ws, &err);
    report("halve (floored)", st, &err);
    printf("  %d %d %d %d\n", (int)q[0], (int)q[1], (int)q[2], (int)q[3]);
    b[2] = 0;
    report("halve by 0", data_errors_halve_run(&hp, hi, ho, ws, &err), &err);

    float x[1] = { 0 };
    int32_t best[3];
    axon_shape bin[1] = { { 2, { 3, 0 } } };
    data_errors_best_plan bp;
    if (data_errors_best_prepare(bin, &bp, &err) != AXON_OK)
        return 1;
    const void *bi[1] = { x };
    void *bo[1] = { best };
    report("best of an empty axis", data_errors_best_run(&bp, bi, bo, ws, &err), &err);
    return 0;
}
