/* ==== axon run: fused.c begin ===========================================
 * fused.c - what the fused element-wise loops of run() call (emit_run.c):
 * f32 maximum, minimum, relu and sign as the reference kernels compute them
 * (elementwise.c: NaN propagates through maximum and minimum, relu keeps
 * it, sign(NaN) is NaN).  Included once per header, in its implementation
 * part.
 */

static inline float axon__fmax_nan(float x, float y)
{
    return x != x ? x : y != y ? y : x > y ? x : y;
}

static inline float axon__fmin_nan(float x, float y)
{
    return x != x ? x : y != y ? y : x < y ? x : y;
}

static inline float axon__frelu(float x)
{
    return x < 0.0f ? 0.0f : x;
}

static inline float axon__fsign(float x)
{
    return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : x;
}
/* ==== axon run: fused.c end ============================================== */
