/* fake_p.h - a hand-written header for Inputs/fake.axon with prefix p, in the
 * form of spec section 9 (P_NAME_prepare, P_NAME_run, plan.out_bytes,
 * plan.workspace_bytes; the run part only where P_IMPLEMENTATION is
 * defined), so that compare_run.py can be tested before axonc's header runs
 * anything (driver.test).  Correct by default; each FAKE_* macro breaks it
 * in one way that the driver must report:
 *   FAKE_WRONG        add: element 1 is off by 1e-3             VALUE
 *   FAKE_ULP          add: one ulp off where the sum is exact   VALUE
 *   FAKE_WRAP         addi: saturates instead of wrapping       VALUE
 *   FAKE_MALLOC       add: malloc/free inside run()             HEAP
 *   FAKE_OVERRUN      add: writes one element past the output   CANARY
 *   FAKE_WS_OVERRUN   add: writes one byte past the workspace   CANARY
 *   FAKE_UNWRITTEN    add: leaves the last element unwritten    NONDETERMINISTIC
 *   FAKE_UNINIT       add: reads the workspace before writing   NONDETERMINISTIC
 *   FAKE_WRITE_INPUT  add: writes its input                     INPUT_WRITTEN
 *   FAKE_SPURIOUS     add: returns AXON_ERR_INDEX               SPURIOUS_DATA_ERROR
 *   FAKE_CLAMP        emb: clamps an index instead of failing   MISSED_DATA_ERROR
 *   FAKE_CRASH        add: dies when n is 2                     CRASH (the others still run)
 *   FAKE_HANG         add: loops forever when n is 2            HANG (with --timeout 1)
 *   FAKE_SHAPE        emb: plan.out is [d, k]                   SHAPE
 *   FAKE_GLOBAL       add: counts its calls in a static         GLOBAL_STATE
 *   FAKE_LIBC         add: calls abort() on an impossible path  LIBRARY_CALL
 *   FAKE_NO_RUN       no run() at all                           "the header has no p_add_run"
 */
#ifndef FAKE_P_H
#define FAKE_P_H
#include <stddef.h>
#include <stdint.h>

#ifndef AXON_MAX_RANK
#define AXON_MAX_RANK 8
#endif
typedef struct axon_shape {
    int rank;
    int64_t dims[AXON_MAX_RANK];
} axon_shape;
enum { AXON_OK = 0, AXON_ERR_RANK = 1, AXON_ERR_SIZE = 2, AXON_ERR_INDEX = 8 };
typedef struct axon_error {
    int status;
    int line, column;
    char message[256];
} axon_error;

static inline int fake_fail(axon_error *err, int status, const char *msg)
{
    if (err) {
        int i;
        err->status = status;
        err->line = err->column = 0;
        for (i = 0; msg[i] && i < 255; i++)
            err->message[i] = msg[i];
        err->message[i] = '\0';
    }
    return status;
}

/* ---- add, addi : (T [n], T [n]) -> T [n] */
#define p_add_NUM_INPUTS 2
#define p_add_NUM_OUTPUTS 1
#define p_addi_NUM_INPUTS 2
#define p_addi_NUM_OUTPUTS 1
typedef struct p_add_plan {
    axon_shape out[1];
    int64_t out_elements[1], out_bytes[1], out_max_bytes[1];
    int64_t workspace_bytes;
    int64_t size;        /* emb: the table's rows v; scale: m (a real plan's dims) */
} p_add_plan;
typedef p_add_plan p_addi_plan;

/* The rest of a plan whose out[0] is set: its counts (f32 elements), the
 * workspace, size. */
static inline int fake_planned(p_add_plan *plan, int64_t elements, int64_t workspace_bytes, int64_t size)
{
    plan->out_elements[0] = elements;
    plan->out_bytes[0] = plan->out_max_bytes[0] = 4 * elements;
    plan->workspace_bytes = workspace_bytes;
    plan->size = size;
    return AXON_OK;
}

static inline int p_add_prepare(const axon_shape in[], p_add_plan *plan, axon_error *err)
{
    if (in[0].rank != 1 || in[1].rank != 1)
        return fake_fail(err, AXON_ERR_RANK, "x and y have rank 1");
    if (in[0].dims[0] < 0 || in[1].dims[0] != in[0].dims[0])
        return fake_fail(err, AXON_ERR_SIZE, "y's axis 0 is n");
    plan->out[0] = in[0];
    return fake_planned(plan, in[0].dims[0], 4 * in[0].dims[0], 0);  /* the workspace: a scratch copy of x */
}

static inline int p_addi_prepare(const axon_shape in[], p_addi_plan *plan, axon_error *err)
{
    return p_add_prepare(in, plan, err);
}

/* ---- emb : (f32 [v, d], i32 [k]) -> f32 [k, d] */
#define p_emb_NUM_INPUTS 2
#define p_emb_NUM_OUTPUTS 1
typedef p_add_plan p_emb_plan;

static inline int p_emb_prepare(const axon_shape in[], p_emb_plan *plan, axon_error *err)
{
    if (in[0].rank != 2 || in[1].rank != 1)
        return fake_fail(err, AXON_ERR_RANK, "tab has rank 2, ids rank 1");
    if (in[0].dims[0] < 0 || in[0].dims[1] < 0 || in[1].dims[0] < 0)
        return fake_fail(err, AXON_ERR_SIZE, "a negative size");
    plan->out[0].rank = 2;
#ifdef FAKE_SHAPE
    plan->out[0].dims[0] = in[0].dims[1];
    plan->out[0].dims[1] = in[1].dims[0];
#else
    plan->out[0].dims[0] = in[1].dims[0];
    plan->out[0].dims[1] = in[0].dims[1];
#endif
    return fake_planned(plan, in[1].dims[0] * in[0].dims[1], 0, in[0].dims[0]);
}

/* ---- scale : (f32 [n], dims [m]) -> f32 [n] */
#define p_scale_NUM_INPUTS 2
#define p_scale_NUM_OUTPUTS 1
typedef p_add_plan p_scale_plan;

static inline int p_scale_prepare(const axon_shape in[], p_scale_plan *plan, axon_error *err)
{
    if (in[0].rank != 1 || in[1].rank != 1)
        return fake_fail(err, AXON_ERR_RANK, "x has rank 1, k one size");
    if (in[0].dims[0] < 0 || in[1].dims[0] < 0)
        return fake_fail(err, AXON_ERR_SIZE, "a negative size");
    plan->out[0] = in[0];
    return fake_planned(plan, in[0].dims[0], 0, in[1].dims[0]);
}

#if !defined(FAKE_NO_RUN)
int p_add_run(const p_add_plan *plan, const void *const in[], void *const out[], void *workspace,
              axon_error *err);
int p_addi_run(const p_addi_plan *plan, const void *const in[], void *const out[], void *workspace,
               axon_error *err);
int p_emb_run(const p_emb_plan *plan, const void *const in[], void *const out[], void *workspace,
              axon_error *err);
int p_scale_run(const p_scale_plan *plan, const void *const in[], void *const out[], void *workspace,
                axon_error *err);
#endif

#if defined(P_IMPLEMENTATION) && !defined(FAKE_NO_RUN)
#if defined(FAKE_MALLOC) || defined(FAKE_LIBC)
#include <stdlib.h>
#endif
#ifdef FAKE_ULP
#include <math.h>
#endif

int p_add_run(const p_add_plan *plan, const void *const in[], void *const out[], void *workspace,
              axon_error *err)
{
    const float *x = (const float *)in[0], *y = (const float *)in[1];
    float *z = (float *)out[0], *tmp = (float *)workspace;
    int64_t n = plan->out[0].dims[0], i;
#ifdef FAKE_GLOBAL
    static long calls;
    calls++;
#endif
#ifdef FAKE_LIBC
    if (n < 0)
        abort();
#endif
#ifdef FAKE_CRASH
    if (n == 2)
        *(volatile int *)0 = 1;
#endif
#ifdef FAKE_HANG
    {
        volatile int forever = n == 2;
        while (forever)
            ;
    }
#endif
#ifdef FAKE_SPURIOUS
    return fake_fail(err, AXON_ERR_INDEX, "add: an index out of range (fake)");
#endif
#ifdef FAKE_MALLOC
    free(malloc(16));
#endif
    (void)err;
#ifndef FAKE_UNINIT
    for (i = 0; i < n; i++)
        tmp[i] = x[i];
#endif
#ifdef FAKE_WRITE_INPUT
    if (n > 0)
        ((float *)in[0])[0] = x[0];
    if (n > 0)
        ((float *)in[0])[0] += 1.0f;
#endif
    for (i = 0; i < n; i++) {
#ifdef FAKE_UNWRITTEN
        if (i == n - 1)
            break;
#endif
#ifdef FAKE_UNINIT
        z[i] = x[i] + y[i] + 0.0f * tmp[i];     /* tmp never written */
#else
        z[i] = tmp[i] + y[i];
#endif
#ifdef FAKE_WRONG
        if (i == 1)
            z[i] += 1e-3f;
#endif
#ifdef FAKE_ULP
        if (z[i] == tmp[i] + y[i] && z[i] != 0 && (double)z[i] == (double)tmp[i] + (double)y[i])
            z[i] = nextafterf(z[i], 1e30f);
#endif
    }
#ifdef FAKE_OVERRUN
    z[n] = 0;
#endif
#ifdef FAKE_WS_OVERRUN
    ((unsigned char *)workspace)[4 * n] = 0;
#endif
    return AXON_OK;
}

int p_addi_run(const p_addi_plan *plan, const void *const in[], void *const out[], void *workspace,
               axon_error *err)
{
    const int32_t *x = (const int32_t *)in[0], *y = (const int32_t *)in[1];
    int32_t *z = (int32_t *)out[0];
    int64_t n = plan->out[0].dims[0], i;
    (void)workspace;
    (void)err;
    for (i = 0; i < n; i++) {
        int64_t s = (int64_t)x[i] + y[i];
#ifdef FAKE_WRAP
        z[i] = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s;
#else
        z[i] = (int32_t)(uint32_t)((uint32_t)x[i] + (uint32_t)y[i]);
        (void)s;
#endif
    }
    return AXON_OK;
}

int p_emb_run(const p_emb_plan *plan, const void *const in[], void *const out[], void *workspace,
              axon_error *err)
{
    const float *tab = (const float *)in[0];
    const int32_t *ids = (const int32_t *)in[1];
    float *z = (float *)out[0];
    int64_t k = plan->out[0].dims[0], d = plan->out[0].dims[1], v = plan->size, i, j;
#ifdef FAKE_SHAPE
    k = plan->out[0].dims[1];
    d = plan->out[0].dims[0];
#endif
    (void)workspace;
    for (i = 0; i < k; i++) {
        int64_t r = ids[i];
        if (r < 0 || r >= v) {
#ifdef FAKE_CLAMP
            (void)err;
            if (v == 0) {
                for (j = 0; j < d; j++)
                    z[i * d + j] = 0;
                continue;
            }
            r = r < 0 ? 0 : v - 1;
#else
            return fake_fail(err, AXON_ERR_INDEX, "emb: an index outside the table");
#endif
        }
        for (j = 0; j < d; j++)
            z[i * d + j] = tab[r * d + j];
    }
    return AXON_OK;
}

int p_scale_run(const p_scale_plan *plan, const void *const in[], void *const out[], void *workspace,
                axon_error *err)
{
    const float *x = (const float *)in[0];
    float *z = (float *)out[0];
    int64_t n = plan->out[0].dims[0], i;
    (void)workspace;
    if (in[1] != NULL)
        return fake_fail(err, AXON_ERR_SIZE, "scale: the dims parameter's data pointer is not NULL");
    for (i = 0; i < n; i++)
        z[i] = x[i] * (float)plan->size;
    return AXON_OK;
}
#endif

#endif
