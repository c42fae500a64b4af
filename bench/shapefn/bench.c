/* bench.c - nanoseconds per call of the shape functions that axonc generates,
 * next to a hand-written C function that does the same checks (the floor).
 *
 * Built and run by bench/shapefn/run.sh, which first writes the headers:
 *   build/axonc emit bench/shapefn/attention.axon -o DIR/attention.h
 *   build/axonc emit bench/shapefn/transformer12.axon -o DIR/transformer12.h
 * (both programs are this benchmark's own: the hand-written functions below
 * check exactly what their shape functions check).
 *
 * For each function it
 *   1. checks that the generated and the hand-written function agree (same
 *      status, same output shape) on fixed valid and invalid inputs, on
 *      random single mutations of a valid input and on every input the
 *      timing loop passes; that the generated P_NAME_prepare returns the
 *      same status, and on valid inputs the same output shape and the
 *      sizes (the plan's dims struct) read from the inputs; exit 1 if not;
 *   2. times N calls of each, N chosen so that one measurement takes about
 *      TARGET seconds (-t, default 0.3), best of REPS (-r, default 5);
 *      both functions run in the same timing loop (time_calls), called
 *      through a volatile function pointer so that neither is inlined into
 *      the loop and no check can be hoisted out of it; every iteration adds
 *      the status and output sizes into a checksum, which is compared with
 *      the expected value (the input is the same in every iteration: a
 *      store into it before each call, as this loop once made, costs a
 *      stall of about 5 ns on some code layouts of the AMD build machine,
 *      larger than the hand-written attention function itself);
 *   3. counts the heap allocations made during the timed calls (when built
 *      with -DBENCH_COUNT_ALLOCS and -Wl,--wrap=malloc,... : every call to
 *      malloc/calloc/realloc/aligned_alloc/posix_memalign/strdup/strndup
 *      from this object, which holds all the generated code, as the headers
 *      are header-only, goes through a counting wrapper).
 *
 * Usage: bench [-t SECONDS] [-r REPS] [-n CALLS]   (-n fixes N; else calibrated)
 * Exit: 0 = ran; 1 = the functions disagree, a checksum is wrong, or the
 * generated code allocated; 2 = usage.
 */
#define _POSIX_C_SOURCE 199309L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attention.h"
#include "transformer12.h"
#include "../common/load.h"   /* now() */

/* ---- heap allocation counter --------------------------------------------- */

/* volatile: GCC assumes that malloc touches no variable of the program. */
static volatile unsigned long long n_allocs;

#ifdef BENCH_COUNT_ALLOCS
/* For each function ld --wrap redirects: the real one's declaration, the
 * wrapper's, and the wrapper, which counts the call and makes it. */
#define WRAP(type, name, params, args) \
    type __real_##name params; \
    type __wrap_##name params; \
    type __wrap_##name params { n_allocs++; return __real_##name args; }
WRAP(void *, malloc, (size_t n), (n))
WRAP(void *, calloc, (size_t n, size_t m), (n, m))
WRAP(void *, realloc, (void *p, size_t n), (p, n))
WRAP(void *, aligned_alloc, (size_t a, size_t n), (a, n))
WRAP(int, posix_memalign, (void **p, size_t a, size_t n), (p, a, n))
WRAP(char *, strdup, (const char *s), (s))
WRAP(char *, strndup, (const char *s, size_t n), (s, n))
#undef WRAP

/* Proves that the wrappers are in the path: one malloc must count 1. */
static int alloc_counter_works(void)
{
    unsigned long long before = n_allocs;
    void *volatile p = malloc(16);
    free(p);
    return n_allocs == before + 1;
}
#define COUNTING 1
#else
static int alloc_counter_works(void) { return 0; }
#define COUNTING 0
#endif

/* ---- the hand-written functions (the floor) -------------------------------- */

typedef int (*shape_fn)(const axon_shape in[], axon_shape out[], axon_error *err);

/* What a careful engineer writes for the error path: status, a message. */
static int hand_fail(axon_error *err, int status, const char *msg)
{
    if (err) {
        size_t k = 0;
        err->status = status;
        err->line = err->column = 0;
        while (msg[k] && k + 1 < sizeof err->message) {
            err->message[k] = msg[k];
            k++;
        }
        err->message[k] = '\0';
    }
    return status;
}

/* Whether x * y (x, y >= 0) overflows int64_t; *r = x * y when it does not.
 * What a careful engineer writes: the compiler's checked multiplication
 * where there is one (GCC, Clang), else a division. */
static int mul_overflows(int64_t x, int64_t y, int64_t *r)
{
#if defined(__GNUC__)
    return __builtin_mul_overflow(x, y, r);
#else
    if (x != 0 && y > INT64_MAX / x)
        return 1;
    *r = x * y;
    return 0;
#endif
}

/* attention : (f32 [a, b, c], dims [d], f32 [c, c], f32 [c, c], f32 [c, c], f32 [c, c]) -> f32 [a, b, c]
 *             where a * b * c = a * b * d * (c / d)
 * In the program's names: x [b, n, d], heads [h], Wq, Wk, Wv, Wo [d, d]
 * -> [b, n, d].  Checks exactly what the generated function checks, with
 * the status it returns (one fault at a time; bench/README.md):
 *   the six ranks (AXON_ERR_RANK);
 *   b, n, d, h >= 0 (each at its first occurrence; AXON_ERR_SIZE);
 *   the eight weight axes == d (AXON_ERR_SIZE);
 *   reshape's clause elements(x) = elements([b, n, h, d / h]):
 *     h = 0 divides by zero, and b * n * d must fit int64_t (a product
 *     with a zero factor is 0, whatever the others) (AXON_ERR_OVERFLOW);
 *     b * n * h * (d / h) = b * n * d, i.e. h divides d -- unless b or n is
 *     0, when both sides are 0 (AXON_ERR_DIVISIBILITY);
 * and writes [b, n, d]. */
static int hand_attention(const axon_shape in[], axon_shape out[], axon_error *err)
{
    const axon_shape *x = &in[attention_attention_IN_x], *heads = &in[attention_attention_IN_heads];
    const axon_shape *w[4] = { &in[attention_attention_IN_Wq], &in[attention_attention_IN_Wk],
                               &in[attention_attention_IN_Wv], &in[attention_attention_IN_Wo] };
    if (x->rank != 3 || heads->rank != 1 || w[0]->rank != 2 || w[1]->rank != 2 || w[2]->rank != 2 ||
        w[3]->rank != 2)
        return hand_fail(err, AXON_ERR_RANK, "attention: an input has the wrong rank");
    int64_t b = x->dims[0], n = x->dims[1], d = x->dims[2], h = heads->dims[0];
    if (b < 0 || n < 0 || d < 0 || h < 0)
        return hand_fail(err, AXON_ERR_SIZE, "attention: negative size");
    for (int i = 0; i < 4; i++)
        if (w[i]->dims[0] != d || w[i]->dims[1] != d)
            return hand_fail(err, AXON_ERR_SIZE, "attention: a weight is not [d, d]");
    if (h == 0)
        return hand_fail(err, AXON_ERR_OVERFLOW, "attention: 0 heads (d / h divides by zero)");
    int64_t bn, bnd;
    if (b != 0 && n != 0 && d != 0 && (mul_overflows(b, n, &bn) || mul_overflows(bn, d, &bnd)))
        return hand_fail(err, AXON_ERR_OVERFLOW, "attention: b * n * d overflows int64");
    if (b != 0 && n != 0 && d % h != 0)
        return hand_fail(err, AXON_ERR_DIVISIBILITY, "attention: the head count does not divide d");
    out[0].rank = 3;
    out[0].dims[0] = b;
    out[0].dims[1] = n;
    out[0].dims[2] = d;
    return AXON_OK;
}

/* transformer12 : (x [s, d], then per layer l = 1..12:
 *   Wq [d, e], Wk [d, e], Wv [d, e], Wo [e, d], bo [d],
 *   W1 [d, f], b1 [f], W2 [f, d], b2 [d]) -> [s, d]
 * Checks: 109 ranks (all first, as the generated function does); s, d (from
 * x), e (from Wq of layer 1), f (from W1 of layer 1) >= 0; every other axis
 * equal to its size (178 equalities, plus two that are always true in layer
 * 1: Wq1 axis 1 == e, W1_1 axis 1 == f, which keep the loop uniform);
 * writes [s, d]. */
#define T_LAYERS 12
#define T_PER_LAYER 9
#define T_INPUTS (1 + T_LAYERS * T_PER_LAYER)
#define A_INPUTS attention_attention_NUM_INPUTS

/* The layouts the code below assumes, against the headers' index constants
 * (a negative array size if one does not hold): no_checks copies in[0],
 * x in both, to the output. */
typedef char layout_checks[
    (transformer12_transformer12_NUM_INPUTS == T_INPUTS && transformer12_transformer12_IN_x == 0 &&
     transformer12_transformer12_IN_Wq1 == 1 && transformer12_transformer12_IN_W1_1 == 6 &&
     transformer12_transformer12_IN_Wq2 == 1 + T_PER_LAYER &&
     transformer12_transformer12_IN_b2_12 == T_INPUTS - 1 && transformer12_transformer12_NUM_OUTPUTS == 1 &&
     attention_attention_NUM_OUTPUTS == 1 && attention_attention_IN_x == 0 && A_INPUTS <= T_INPUTS) ? 1 : -1];

static int hand_transformer12(const axon_shape in[], axon_shape out[], axon_error *err)
{
    if (in[0].rank != 2)
        return hand_fail(err, AXON_ERR_RANK, "transformer12: x must have rank 2");
    for (int l = 0; l < T_LAYERS; l++) {
        const axon_shape *w = &in[1 + T_PER_LAYER * l];
        if (w[0].rank != 2 || w[1].rank != 2 || w[2].rank != 2 || w[3].rank != 2 || w[4].rank != 1 ||
            w[5].rank != 2 || w[6].rank != 1 || w[7].rank != 2 || w[8].rank != 1)
            return hand_fail(err, AXON_ERR_RANK, "transformer12: a weight has the wrong rank");
    }
    int64_t s = in[0].dims[0], d = in[0].dims[1];
    int64_t e = in[1].dims[1], f = in[6].dims[1];   /* Wq and W1 of layer 1 */
    if (s < 0 || d < 0 || e < 0 || f < 0)
        return hand_fail(err, AXON_ERR_SIZE, "transformer12: negative size");
    for (int l = 0; l < T_LAYERS; l++) {
        const axon_shape *w = &in[1 + T_PER_LAYER * l];
        /* Wq, Wk, Wv [d, e], Wo [e, d], bo [d], W1 [d, f], b1 [f], W2 [f, d], b2 [d] */
        if (w[0].dims[0] != d || w[0].dims[1] != e || w[1].dims[0] != d || w[1].dims[1] != e ||
            w[2].dims[0] != d || w[2].dims[1] != e || w[3].dims[0] != e || w[3].dims[1] != d ||
            w[4].dims[0] != d || w[5].dims[0] != d || w[5].dims[1] != f || w[6].dims[0] != f ||
            w[7].dims[0] != f || w[7].dims[1] != d || w[8].dims[0] != d)
            return hand_fail(err, AXON_ERR_SIZE, "transformer12: a weight has the wrong size");
    }
    out[0].rank = 2;
    out[0].dims[0] = s;
    out[0].dims[1] = d;
    return AXON_OK;
}

/* The harness alone: a call that writes the output and checks nothing. */
static int no_checks(const axon_shape in[], axon_shape out[], axon_error *err)
{
    (void)err;
    out[0].rank = 2;
    out[0].dims[0] = in[0].dims[0];
    out[0].dims[1] = in[0].dims[1];
    return AXON_OK;
}

/* ---- inputs ---------------------------------------------------------------- */

static void set2(axon_shape *s, int64_t a, int64_t b) { memset(s, 0, sizeof *s); s->rank = 2; s->dims[0] = a; s->dims[1] = b; }
static void set1(axon_shape *s, int64_t a) { memset(s, 0, sizeof *s); s->rank = 1; s->dims[0] = a; }

static void set3(axon_shape *s, int64_t a, int64_t b, int64_t c) { set2(s, a, b); s->rank = 3; s->dims[2] = c; }

/* x [b, n, d], heads [h], the four weights [d, d]. */
static void attention_inputs(axon_shape in[A_INPUTS], int64_t b, int64_t n, int64_t d, int64_t h)
{
    set3(&in[attention_attention_IN_x], b, n, d);
    set1(&in[attention_attention_IN_heads], h);
    set2(&in[attention_attention_IN_Wq], d, d);
    set2(&in[attention_attention_IN_Wk], d, d);
    set2(&in[attention_attention_IN_Wv], d, d);
    set2(&in[attention_attention_IN_Wo], d, d);
}

static void transformer_inputs(axon_shape in[T_INPUTS], int64_t s, int64_t d, int64_t e, int64_t f)
{
    set2(&in[transformer12_transformer12_IN_x], s, d);
    for (int l = 0; l < T_LAYERS; l++) {
        axon_shape *w = &in[transformer12_transformer12_IN_Wq1 + T_PER_LAYER * l];
        set2(&w[0], d, e);
        set2(&w[1], d, e);
        set2(&w[2], d, e);
        set2(&w[3], e, d);
        set1(&w[4], d);
        set2(&w[5], d, f);
        set1(&w[6], f);
        set2(&w[7], f, d);
        set1(&w[8], d);
    }
}

/* ---- agreement -------------------------------------------------------------- */

static int n_cases, n_disagree;

/* Whether P_NAME_prepare agrees with P_NAME_shape, which returned status
 * (and, when AXON_OK, wrote out[0]) on in: plans.c, a translation unit of
 * its own, so that this one, whose code is timed, uses only the _shape
 * functions (as a runtime's hot path would; with _prepare here too, GCC
 * compiles _shape differently). */
typedef int (*plan_fn)(const axon_shape *in, int status, const axon_shape *out);
int attention_plan_agrees(const axon_shape *in, int status, const axon_shape *out);
int transformer_plan_agrees(const axon_shape *in, int status, const axon_shape *out);
int same_shape(const axon_shape *a, const axon_shape *b);
extern int n_prepare_overflow;

static void compare(const char *what, shape_fn gen, shape_fn hand, plan_fn plan, const axon_shape *in, int expect)
{
    axon_shape og, oh;
    axon_error eg, eh;
    memset(&og, 0x55, sizeof og);
    memset(&oh, 0x55, sizeof oh);
    memset(&eg, 0, sizeof eg);
    memset(&eh, 0, sizeof eh);
    int sg = gen(in, &og, &eg);
    int sh = hand(in, &oh, &eh);
    int ok = sg == sh;
    if (expect >= 0 && sg != expect)
        ok = 0;
    if (sg != AXON_OK && eg.status != sg)
        ok = 0;
    if (ok && sg == AXON_OK)
        ok = same_shape(&og, &oh);
    int plan_ok = plan(in, sg, &og);
    n_cases++;
    if (!ok || !plan_ok) {
        n_disagree++;
        fprintf(stderr, "DISAGREE %s: generated %s (%s), hand-written %s (%s), expected %s%s\n", what,
                axon_status_name(sg), sg ? eg.message : "ok", axon_status_name(sh), sh ? eh.message : "ok",
                expect >= 0 ? axon_status_name(expect) : "either",
                plan_ok ? "" : "; the generated _prepare does not agree with _shape");
    }
}

/* The input the timing loop passes (time_calls). */
static void compare_timed(const char *what, shape_fn gen, shape_fn hand, plan_fn plan, const axon_shape *in)
{
    char label[128];
    snprintf(label, sizeof label, "%s timed input", what);
    compare(label, gen, hand, plan, in, AXON_OK);
}

/* A small deterministic generator for the mutations. */
static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(rng_state >> 33) % n;
}

/* Random single mutations of a valid input: one rank or one axis changed
 * (to -2, -1, 0, 1, the value +- 1 or a copy of another axis).  Both functions
 * must return the same status (and shape, when it stays valid). */
static void mutations(const char *what, shape_fn gen, shape_fn hand, plan_fn plan, const axon_shape *valid, int n_in,
                      int count)
{
    axon_shape in[T_INPUTS];
    char label[128];
    for (int k = 0; k < count; k++) {
        memcpy(in, valid, (size_t)n_in * sizeof *in);
        int i = (int)rnd((uint32_t)n_in);
        if (rnd(4) == 0) {
            int r = (int)rnd(4);
            in[i].rank = r;
            snprintf(label, sizeof label, "%s mutation %d: in[%d].rank = %d", what, k, i, r);
        } else {
            int ax = (int)rnd((uint32_t)in[i].rank);
            int64_t v = in[i].dims[ax];
            switch (rnd(6)) {
            case 0: v = -2; break;
            case 1: v = -1; break;
            case 2: v = 0; break;
            case 3: v = 1; break;
            case 4: v = v + (rnd(2) ? 1 : -1); break;
            default: {
                int j = (int)rnd((uint32_t)n_in);
                v = in[j].dims[rnd((uint32_t)in[j].rank)];
            }
            }
            in[i].dims[ax] = v;
            snprintf(label, sizeof label, "%s mutation %d: in[%d].dims[%d] = %lld", what, k, i, ax, (long long)v);
        }
        compare(label, gen, hand, plan, in, -1);
    }
}

/* The input the timing loop starts from: BERT-base's sizes, a batch of 8
 * sequences of 512 tokens of width 768 in 12 heads. */
#define A_TIMED 8, 512, 768, 12

static void check_attention(void)
{
    shape_fn gen = attention_attention_shape, hand = hand_attention;
    plan_fn plan = attention_plan_agrees;
    axon_shape in[A_INPUTS];
    /* b, n, d, h; the last two: no head width divides d, accepted as the
     * tensors have no element (b or n is 0) */
    static const int64_t valid[][4] = { { 2, 10, 64, 8 }, { 0, 0, 0, 1 }, { 1, 1, 1, 1 }, { 128, 64, 768, 12 },
                                        { 7, 3, 0, 5 },   { 3, 5, 64, 64 }, { 0, 5, 64, 7 }, { 4, 0, 6, 4 } };
    for (size_t k = 0; k < sizeof valid / sizeof valid[0]; k++) {
        attention_inputs(in, valid[k][0], valid[k][1], valid[k][2], valid[k][3]);
        compare("attention valid", gen, hand, plan, in, AXON_OK);
    }
#define X in[attention_attention_IN_x]
#define H in[attention_attention_IN_heads]
#define W(name) in[attention_attention_IN_##name]
#define BAD(label, stmt, status) \
    do { attention_inputs(in, 2, 10, 64, 8); stmt; compare("attention " label, gen, hand, plan, in, status); } while (0)
    BAD("x rank 2", X.rank = 2, AXON_ERR_RANK);
    BAD("heads rank 0", H.rank = 0, AXON_ERR_RANK);
    BAD("heads rank 2", (H.rank = 2, H.dims[1] = 1), AXON_ERR_RANK);
    BAD("Wv rank 1", W(Wv).rank = 1, AXON_ERR_RANK);
    BAD("Wo rank 3", (W(Wo).rank = 3, W(Wo).dims[2] = 64), AXON_ERR_RANK);
    BAD("x batch -1", X.dims[0] = -1, AXON_ERR_SIZE);
    BAD("x length -2", X.dims[1] = -2, AXON_ERR_SIZE);
    BAD("x width -1", X.dims[2] = -1, AXON_ERR_SIZE);
    BAD("heads -1", H.dims[0] = -1, AXON_ERR_SIZE);
    BAD("Wq axis 0 -1", W(Wq).dims[0] = -1, AXON_ERR_SIZE);
    BAD("Wk axis 1 65", W(Wk).dims[1] = 65, AXON_ERR_SIZE);
    BAD("Wo axis 0 63", W(Wo).dims[0] = 63, AXON_ERR_SIZE);
    BAD("heads 0", H.dims[0] = 0, AXON_ERR_OVERFLOW);
    BAD("heads 7", H.dims[0] = 7, AXON_ERR_DIVISIBILITY);
    BAD("heads 65", H.dims[0] = 65, AXON_ERR_DIVISIBILITY);
    /* b * n * d = 2^66: overflows, even though d / h is exact */
    BAD("x elements overflow", (X.dims[0] = INT64_C(1) << 40, X.dims[1] = INT64_C(1) << 20), AXON_ERR_OVERFLOW);
#undef BAD
#undef X
#undef H
#undef W
    /* b * n * d would overflow, but a factor is 0: 0 elements (and with
     * b = 0, 3 heads need not divide d) */
    attention_inputs(in, 0, INT64_C(1) << 40, INT64_C(1) << 40, 3);
    compare("attention x [0, 2^40, 2^40]", gen, hand, plan, in, AXON_OK);
    attention_inputs(in, INT64_C(1) << 40, INT64_C(1) << 40, 0, 3);
    compare("attention x [2^40, 2^40, 0]", gen, hand, plan, in, AXON_OK);
    attention_inputs(in, 2, 10, 64, 8);
    mutations("attention", gen, hand, plan, in, A_INPUTS, 2000);
    attention_inputs(in, A_TIMED);
    compare_timed("attention", gen, hand, plan, in);
}

/* The input the timing loop starts from: x [128, 768], e = 64, f = 3072. */
#define T_TIMED 128, 768, 64, 3072

static void check_transformer(void)
{
    shape_fn gen = transformer12_transformer12_shape, hand = hand_transformer12;
    plan_fn plan = transformer_plan_agrees;
    static axon_shape in[T_INPUTS];
    static const int64_t valid[][4] = { { 16, 768, 64, 3072 }, { 0, 0, 0, 0 }, { 1, 1, 1, 1 },
                                        { 0, 512, 64, 2048 }, { 4096, 4096, 128, 16384 } };
    for (size_t k = 0; k < sizeof valid / sizeof valid[0]; k++) {
        transformer_inputs(in, valid[k][0], valid[k][1], valid[k][2], valid[k][3]);
        compare("transformer12 valid", gen, hand, plan, in, AXON_OK);
    }
    /* in[1 + 9 * (l - 1) + k]: weight k (0 = Wq ... 8 = b2) of layer l. */
#define W(l, k) in[transformer12_transformer12_IN_Wq1 + T_PER_LAYER * ((l) - 1) + (k)]
#define BAD(label, stmt, status) \
    do { transformer_inputs(in, 16, 768, 64, 3072); stmt; compare("transformer12 " label, gen, hand, plan, in, status); } while (0)
    BAD("x rank 3", in[0].rank = 3, AXON_ERR_RANK);
    BAD("Wq1 rank 1", W(1, 0).rank = 1, AXON_ERR_RANK);
    BAD("W1_1 rank 3", W(1, 5).rank = 3, AXON_ERR_RANK);
    BAD("bo7 rank 2", W(7, 4).rank = 2, AXON_ERR_RANK);
    BAD("b2_12 rank 0", W(12, 8).rank = 0, AXON_ERR_RANK);
    BAD("x length -1", in[0].dims[0] = -1, AXON_ERR_SIZE);
    BAD("x width -1", in[0].dims[1] = -1, AXON_ERR_SIZE);
    BAD("Wq1 width -3", W(1, 0).dims[1] = -3, AXON_ERR_SIZE);
    BAD("W1_1 width -2", W(1, 5).dims[1] = -2, AXON_ERR_SIZE);
    BAD("Wk5 width 65", W(5, 1).dims[1] = 65, AXON_ERR_SIZE);
    BAD("Wo12 width 767", W(12, 3).dims[1] = 767, AXON_ERR_SIZE);
    BAD("b1_9 length 3071", W(9, 6).dims[0] = 3071, AXON_ERR_SIZE);
    BAD("b2_12 length 1", W(12, 8).dims[0] = 1, AXON_ERR_SIZE);
    BAD("W2_3 length 768", W(3, 7).dims[0] = 768, AXON_ERR_SIZE);
#undef BAD
#undef W
    transformer_inputs(in, 16, 768, 64, 3072);
    mutations("transformer12", gen, hand, plan, in, T_INPUTS, 5000);
    transformer_inputs(in, T_TIMED);
    compare_timed("transformer12", gen, hand, plan, in);
}

/* ---- timing ----------------------------------------------------------------- */

/* n calls of f on in[]; returns the seconds taken and adds to *sum the
 * status and first two output sizes of each call.  The function is read
 * from a volatile every iteration: an opaque, indirect call, the same for
 * every function timed. */
static double time_calls(shape_fn f, const axon_shape *in, long n, uint64_t *sum)
{
    shape_fn volatile fp = f;
    axon_shape out[1];
    axon_error err;
    uint64_t acc = 0;
    memset(out, 0, sizeof out);
    double t0 = now();
    for (long i = 0; i < n; i++) {
        shape_fn g = fp;
        int st = g(in, out, &err);
        acc += (uint64_t)st * 1000003u + (uint64_t)out[0].dims[0] + (uint64_t)out[0].dims[1];
    }
    double t1 = now();
    *sum += acc;
    return t1 - t0;
}

/* What *sum must be after n calls that all succeed (status 0) with an
 * output [out0, out1, ...]. */
static uint64_t expected_sum(long n, int64_t out0, int64_t out1)
{
    return (uint64_t)n * ((uint64_t)out0 + (uint64_t)out1);
}

static double opt_target = 0.3;
static int opt_reps = 5;
static long opt_calls = 0;
static int failures;
static unsigned long long allocs_timed, calls_timed;

typedef struct {
    const char *name;
    shape_fn fn;
    long n;             /* calls per measurement */
    double best_s;      /* the best measurement */
} entry;

/* Calls per measurement for f: about opt_target seconds (at least 1e6), or -n. */
static long calibrate(shape_fn f, const axon_shape *in)
{
    uint64_t sum = 0;
    long m = 100000;
    double t;
    if (opt_calls > 0)
        return opt_calls;
    for (;;) {
        t = time_calls(f, in, m, &sum);
        if (t > 0.05)
            break;
        m *= 4;
    }
    long n = (long)((double)m * opt_target / t) + 1;
    return n < 1000000 ? 1000000 : n;
}

/* e[0]: the harness alone, e[1]: hand-written, e[2]: generated.  Each
 * function is calibrated on its own; the repetitions are interleaved (rep 1
 * of each, rep 2 of each, ...) so that a slow phase of the machine hits all
 * three alike; each function's best is kept. */
static double bench(const char *title, const axon_shape *in, entry *e, int ne)
{
    for (int k = 0; k < ne; k++) {
        e[k].n = calibrate(e[k].fn, in);
        e[k].best_s = 1e30;
    }
    for (int r = 0; r < opt_reps; r++) {
        for (int k = 0; k < ne; k++) {
            uint64_t sum = 0;
            unsigned long long before = n_allocs;
            double t = time_calls(e[k].fn, in, e[k].n, &sum);
            allocs_timed += n_allocs - before;
            calls_timed += (unsigned long long)e[k].n;
            /* every function's output starts with x's first two sizes */
            if (sum != expected_sum(e[k].n, in[0].dims[0], in[0].dims[1])) {
                fprintf(stderr, "bench: %s: wrong checksum (a call failed or was skipped)\n", e[k].name);
                failures++;
            }
            if (t < e[k].best_s)
                e[k].best_s = t;
        }
    }
    printf("\n%s\n", title);
    printf("  %-44s %9s %11s %9s %7s\n", "function (best of reps)", "ns/call", "calls", "s (best)", "ratio");
    double ns[8];
    for (int k = 0; k < ne; k++) {
        ns[k] = e[k].best_s * 1e9 / (double)e[k].n;
        char ratio[32] = "";
        if (k == 2)
            snprintf(ratio, sizeof ratio, "%.2fx", ns[2] / ns[1]);
        printf("  %-44s %9.2f %11ld %9.3f %7s\n", e[k].name, ns[k], e[k].n, e[k].best_s, ratio);
        if (e[k].best_s < 0.2 && opt_calls <= 0)
            printf("  (warning: %s: best measurement %.3f s < 0.2 s)\n", e[k].name, e[k].best_s);
    }
    printf("  generated / hand-written: %.2fx (net of the harness: %.2fx)\n", ns[2] / ns[1],
           (ns[2] - ns[0]) / (ns[1] - ns[0]));
    return ns[2] / ns[1];
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-t") && i + 1 < argc)
            opt_target = atof(argv[++i]);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc)
            opt_reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-n") && i + 1 < argc)
            opt_calls = atol(argv[++i]);
        else {
            fprintf(stderr, "usage: bench [-t SECONDS] [-r REPS] [-n CALLS]\n");
            return 2;
        }
    }
    if (opt_reps < 1 || opt_target <= 0) {
        fprintf(stderr, "bench: -r must be >= 1 and -t > 0\n");
        return 2;
    }

    /* 1. Agreement. */
    check_attention();
    check_transformer();
    printf("agreement: %d cases (fixed valid/invalid inputs, random single mutations, the timed inputs), "
           "%d disagreements\n", n_cases, n_disagree);
    printf("  _prepare as _shape in every case; AXON_ERR_OVERFLOW where _shape accepts (an intermediate's count): %d\n",
           n_prepare_overflow);
    if (n_disagree)
        return 1;
    if (COUNTING && !alloc_counter_works()) {
        fprintf(stderr, "bench: the allocation counter does not see malloc\n");
        return 1;
    }

    /* 2. Timing. */
    double r_att, r_tr;
    if (opt_calls > 0)
        printf("\n%d repetitions of each measurement, each %ld calls (-n)\n", opt_reps, opt_calls);
    else
        printf("\n%d repetitions of each measurement, each about %.2f s (calls calibrated per function)\n", opt_reps,
               opt_target);
    {
        axon_shape in[A_INPUTS];
        attention_inputs(in, A_TIMED);
        entry e[] = { { "harness only (no checks)", no_checks, 0, 0 },
                      { "hand-written", hand_attention, 0, 0 },
                      { "generated attention_attention_shape", attention_attention_shape, 0, 0 } };
        r_att = bench("attention : 6 inputs; x [8, 512, 768], heads [12], Wq, Wk, Wv, Wo [768, 768]", in, e, 3);
    }
    {
        static axon_shape in[T_INPUTS];
        transformer_inputs(in, T_TIMED);
        entry e[] = { { "harness only (no checks)", no_checks, 0, 0 },
                      { "hand-written", hand_transformer12, 0, 0 },
                      { "generated transformer12_transformer12_shape", transformer12_transformer12_shape, 0, 0 } };
        r_tr = bench("transformer12 : 109 inputs; x [128, 768], 12 layers x 9 weights, e = 64, f = 3072", in, e, 3);
    }

    /* 3. Allocations. */
    printf("\nheap allocations during the %llu timed calls: ", calls_timed);
    if (COUNTING)
        printf("%llu (malloc/calloc/realloc/aligned_alloc/posix_memalign/strdup/strndup wrapped with ld --wrap)\n",
               allocs_timed);
    else
        printf("not counted (built without -DBENCH_COUNT_ALLOCS)\n");

    printf("\ntarget (generated within 1.5x of hand-written, zero heap allocations):\n");
    if (opt_calls > 0) {
        /* -n: a fixed, usually small number of calls (a smoke run, valgrind):
         * the times are not calibrated, so they are not judged. */
        printf("  attention     %.2fx (not judged: -n fixes the calls)\n", r_att);
        printf("  transformer12 %.2fx (not judged: -n fixes the calls)\n", r_tr);
    } else {
        printf("  attention     %.2fx -> %s\n", r_att, r_att <= 1.5 ? "met" : "MISSED");
        printf("  transformer12 %.2fx -> %s\n", r_tr, r_tr <= 1.5 ? "met" : "MISSED");
    }
    printf("  allocations   %s\n", !COUNTING ? "not counted" : allocs_timed == 0 ? "0 -> met" : "MISSED");
    if (failures || (COUNTING && allocs_timed != 0))
        return 1;
    return 0;
}
