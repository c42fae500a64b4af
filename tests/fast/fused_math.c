/* fused_math.c - the float functions of the fused loops (runtime/run/
 * fused.c: axon__fexp, axon__ftanh, axon__ferf, and sigmoid and gelu
 * through them)
 * against the C library's double functions rounded once, on every 97th
 * float bit pattern of both signs (44 million values over the whole
 * range, subnormals, infinities and NaNs included): the largest error in
 * ulps of the result (the ulp of its binade; subnormal results in units of
 * the least subnormal), and whether NaN, +-inf and the saturated values
 * come out as the double functions give them (tests/fast/fused-math.test);
 * and exp's ends: 0 and +inf where it saturates; and runtime/fast/vec.c's
 * axon__fv_exp_neg (softmax's exp of x - max <= 0), one lane of it.
 *
 *     fused_math          prints one line per function
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "runtime/run/fused.c"
/* the fast kernels' vector exp (softmax's), a lane of it */
#define AXON_RUN_FN static inline
#include "runtime/fast/vec.c"

static double ulps(double ref, float got)
{
    double ulp;
    if (ref != ref)
        return got != got ? 0.0 : 1e30;
    if (isinf(ref) || isinf(got))
        return (double)got == ref ? 0.0 : 1e30;
    ulp = fabs(ref) < ldexp(1.0, -126) ? ldexp(1.0, -149) : ldexp(1.0, ilogb(ref) - 23);
    return fabs((double)got - ref) / ulp;
}

static float f_exp(float x) { return axon__fexp(x); }
static float f_vexp(float x)
{
    axon__fv v = axon__fv_exp_neg(axon__fv_set1(x));
    float lane;
    memcpy(&lane, &v, sizeof lane);
    return lane;
}
static float f_tanh(float x) { return axon__ftanh(x); }
static float f_sigmoid(float x) { return AXON__FSIGMOID(x); }
static float f_erf(float x) { return axon__ferf(x); }
static float f_gelu(float x) { return AXON__FGELU(x); }
static double d_gelu(double x) { return 0.5 * x * (1.0 + erf(x / 1.4142135623730951)); }
static double d_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

static void check(const char *name, float (*f)(float), double (*d)(double), double lo, double hi)
{
    double worst = 0.0;
    float at = 0.0f;
    long n = 0;
    for (uint32_t u = 0; u <= 0x7fc00000u; u += 97) {
        for (int s = 0; s < 2; s++) {
            uint32_t b = u | (s ? 0x80000000u : 0u);
            float x;
            double e;
            memcpy(&x, &b, sizeof x);
            if (!(x != x) && ((double)x < lo || (double)x > hi))
                continue;
            e = ulps((double)(float)d((double)x), f(x));
            n++;
            if (e > worst) {
                worst = e;
                at = x;
            }
        }
        if (u > 0x7fc00000u - 97)
            break;
    }
    printf("%s: %ld values, worst %.2f ulp at %.9g; special: %g %g %g\n", name, n, worst, (double)at,
           (double)f(NAN), (double)f(INFINITY), (double)f(-INFINITY));
}

/* exp's ends: 0 for every float below -87.69 (below -126.5 ln 2 the
 * result is a subnormal under 2^-126.5, flushed), +inf for every float
 * from 88.377 (127.5 ln 2) up (the largest finite float is exp(88.72)). */
static void exp_ends(void)
{
    long n0 = 0, ninf = 0, wrong = 0;
    for (uint32_t u = 0; u < 0x7f800000u; u += 97) {
        float x;
        memcpy(&x, &u, sizeof x);
        if (x > 87.69f) {
            n0++;
            wrong += f_exp(-x) != 0.0f;
        }
        if (x >= 88.377f) {
            ninf++;
            wrong += f_exp(x) != (float)INFINITY;
        }
    }
    printf("exp ends: %ld values below -87.69, %ld from 88.377 up, %ld wrong\n", n0, ninf, wrong);
}

int main(void)
{
    check("exp", f_exp, exp, -87.68, 88.37);
    exp_ends();
    check("vector exp (x <= 0)", f_vexp, exp, -87.68, 0.0);
    check("tanh", f_tanh, tanh, -INFINITY, INFINITY);
    check("sigmoid", f_sigmoid, d_sigmoid, -87.0, INFINITY);
    check("erf", f_erf, erf, -INFINITY, INFINITY);
    /* (gelu above -1: below, 1 + erf cancels, as in its defining formula,
     * which the value oracle's bound follows) */
    check("gelu", f_gelu, d_gelu, -1.0, 1e30);
    return 0;
}
