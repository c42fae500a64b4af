/* driver.c - randomised differential test of axonc's generated shape
 * functions against an independent oracle (oracle.c).
 *
 * For every function of Inputs/{linalg,spatial,pointwise}.axon it draws
 * random input-shape tuples (built valid from random sizes, then often
 * mutated: a rank changed, an axis changed, set to 1 or 0 or a huge size
 * near 2^62), calls the generated P_NAME_shape and the oracle, and reports
 * every disagreement on validity or on any output rank or size.  Before the
 * cases it checks the intermediates' number and names (P_NAME_NUM_TEMPS,
 * P_NAME_temp_name) against the oracle's list.  With --prepare, where both
 * say valid, it also checks P_NAME_prepare: the output and intermediate
 * shapes (every intermediate, named or not), and their element and byte
 * counts (f32, 4 bytes), or AXON_ERR_OVERFLOW where a count does not fit
 * int64.
 *
 *   driver [SEED [CASES]] [--negative] [--prepare] [--only NAMES]
 *          [--skip NAMES] [--perturb NAME] [--perturb-tmp NAME]
 * SEED (default 1) makes the run deterministic; CASES per function (default
 * 3000).  --negative also mutates sizes to negative values (which are not
 * sizes, so every such input is invalid).  --prepare checks P_NAME_prepare
 * too.  --only/--skip take comma-separated names (file.function).
 * --perturb NAME breaks the oracle of one function on purpose, to show that
 * the test can fail; --perturb-tmp NAME breaks its last intermediate's
 * shape (seen with --prepare).
 * Prints one summary line per function; exits 1 on any disagreement.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linalg.h"
#include "pointwise.h"
#include "spatial.h"

#include "oracle.h"

#if AXON_MAX_RANK != OR_MAX_RANK
#error "the oracle assumes AXON_MAX_RANK == OR_MAX_RANK"
#endif

/* ---- random numbers (splitmix64) ------------------------------------ */
static uint64_t state;
static int big_mode;   /* this case draws many huge sizes */
static int negative;   /* --negative */
static int prepare;    /* --prepare */

static uint64_t next(void)
{
    uint64_t z = (state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static int64_t below(int64_t n) { return (int64_t)(next() % (uint64_t)n); } /* n > 0 */
static int chance(int pct) { return below(100) < pct; }

static int64_t huge(void) /* in [2^61, INT64_MAX], the ends often */
{
    switch (below(4)) {
    case 0: return INT64_MAX - below(3);
    case 1: return ((int64_t)1 << 62) - 1 + below(3);
    default: return (int64_t)((next() >> 1) | ((uint64_t)1 << 61));
    }
}

static int64_t size(void)
{
    int64_t p = below(100);
    if (big_mode && p < 50)
        return huge();
    if (p < 25)
        return below(4); /* 0, 1 often */
    if (p < 75)
        return 1 + below(64);
    if (p < 97)
        return 1 + below(4096);
    return huge();
}

static int64_t small(void) { return chance(80) ? 1 + below(4) : size(); } /* batch axes */

static int64_t sat_add(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }

/* A size in [0, v] (v >= 0), small ones often. */
static int64_t upto(int64_t v)
{
    if (chance(70) && v >= 0)
        return below(v < 5 ? v + 1 : 6);
    return v == INT64_MAX ? (int64_t)(next() >> 1) : below(v + 1);
}

/* ---- building shapes ------------------------------------------------ */
static void push(or_shape *s, int64_t v)
{
    if (s->rank < OR_MAX_RANK)
        s->d[s->rank++] = v;
}

static or_shape shape(int rank, int64_t (*gen)(void))
{
    or_shape s;
    memset(&s, 0, sizeof s);
    while (s.rank < rank)
        push(&s, gen());
    return s;
}

static or_shape none(void) { return shape(0, size); }

static or_shape any_rank(int lo, int hi) { return shape(lo + (int)below(hi - lo + 1), small); }

static or_shape dims2(const or_shape *batch, int64_t a, int64_t b)
{
    or_shape s = *batch;
    push(&s, a);
    push(&s, b);
    return s;
}

static or_shape vec(int64_t a)
{
    or_shape s = none();
    push(&s, a);
    return s;
}

/* A shape that broadcasts with s: a suffix of it (sometimes with more
 * leading axes), some axes 1. */
static or_shape partner(const or_shape *s)
{
    or_shape p;
    int r = (int)below(s->rank + 1), i;
    int extra = chance(15) ? (int)below(OR_MAX_RANK - s->rank + 1) : 0;
    memset(&p, 0, sizeof p);
    for (i = 0; i < extra; i++)
        push(&p, small());
    for (i = s->rank - r; i < s->rank; i++)
        push(&p, chance(25) ? 1 : s->d[i]);
    return p;
}

static or_shape conv_in(int64_t *h, int64_t *w) /* [n, c, h, w] */
{
    or_shape s = shape(4, size);
    s.d[1] = small();
    *h = s.d[2];
    *w = s.d[3];
    return s;
}

/* A filter for channels c over h x w: [k, c, r, q], r <= h + 1; *h, *w
 * become the output's sizes. */
static or_shape filter(int64_t c, int64_t *h, int64_t *w)
{
    or_shape f = none();
    push(&f, small());
    push(&f, c);
    push(&f, upto(sat_add(*h, 1)));
    push(&f, upto(sat_add(*w, 1)));
    *h = sat_add(*h - f.d[2], 1);
    *w = sat_add(*w - f.d[3], 1);
    return f;
}

/* ---- generators: valid input tuples (most of the time) --------------- */
static void g_bmm(or_shape *in)
{
    or_shape b = any_rank(0, 6);
    int64_t k = size();
    in[0] = dims2(&b, size(), k);
    in[1] = dims2(&b, k, size());
}

static void g_gram(or_shape *in)
{
    or_shape b = any_rank(0, 6);
    in[0] = dims2(&b, size(), size());
}

static void g_proj(or_shape *in)
{
    g_bmm(in);
    in[2] = vec(in[1].d[in[1].rank - 1]);
}

static void g_linear(or_shape *in)
{
    or_shape o;
    g_bmm(in);
    o = in[0]; /* the product's shape */
    o.d[o.rank - 1] = in[1].d[in[1].rank - 1];
    in[2] = partner(&o);
}

static void g_mlp(or_shape *in)
{
    or_shape b = any_rank(0, 5);
    int64_t k = size(), h = size(), b1 = chance(20) ? 1 : h, o = size();
    if (h == 1 && chance(50))
        b1 = size();
    in[0] = dims2(&b, size(), k);
    in[1] = dims2(&b, k, h);
    in[2] = vec(b1);
    in[3] = dims2(&b, b1 == 1 ? h : b1, o);
    in[4] = vec(chance(20) ? 1 : o);
}

static void g_softmax(or_shape *in) { in[0] = shape(2, size); }

static void g_attention(or_shape *in)
{
    int64_t b = size(), c = size();
    or_shape z = none();
    in[0] = dims2(&z, size(), b);
    in[1] = dims2(&z, c, b);
    in[2] = dims2(&z, c, size());
}

static void g_rank1(or_shape *in) { in[0] = any_rank(1, OR_MAX_RANK); }
static void g_rank2(or_shape *in) { in[0] = any_rank(2, OR_MAX_RANK); }

static void g_normalize(or_shape *in)
{
    in[0] = any_rank(1, OR_MAX_RANK);
    in[1] = in[0];
}

static void g_convs(or_shape *in)
{
    int64_t h, w;
    in[0] = conv_in(&h, &w);
    in[1] = filter(in[0].d[1], &h, &w);
    in[2] = filter(in[1].d[0], &h, &w);
}

static void g_convfix(or_shape *in)
{
    or_shape z = none();
    in[0] = dims2(&z, 1, 3);
    in[0] = dims2(&in[0], size(), size());
    in[1] = dims2(&z, 2, 3);
    in[1] = dims2(&in[1], 3, 3);
}

static void g_stack(or_shape *in)
{
    int64_t h, w;
    in[0] = conv_in(&h, &w);
    in[1] = filter(in[0].d[1], &h, &w);
    in[2] = vec(size());
    in[2] = dims2(&in[2], in[1].d[0], h);
    push(&in[2], w);
}

static void g_cat(or_shape *in)
{
    or_shape s = any_rank(0, OR_MAX_RANK - 1);
    in[0] = vec(size());
    in[1] = vec(size());
    memcpy(&in[0].d[1], s.d, sizeof s.d[0] * (size_t)s.rank);
    memcpy(&in[1].d[1], s.d, sizeof s.d[0] * (size_t)s.rank);
    in[0].rank = in[1].rank = s.rank + 1;
}

static void g_deep(or_shape *in)
{
    int64_t h, w;
    in[0] = conv_in(&h, &w);
    in[1] = filter(in[0].d[1], &h, &w);
    in[2] = filter(in[1].d[0], &h, &w);
    in[3] = vec(size());
    in[3] = dims2(&in[3], in[2].d[0], h);
    push(&in[3], w);
}

static void g_odd(or_shape *in)
{
    int64_t n = size();
    if (n > (INT64_MAX - 1) / 2)
        n = (INT64_MAX - 1) / 2 - below(2);
    in[0] = vec(2 * n + 1);
    in[1] = vec(n);
}

static void g_padded(or_shape *in)
{
    int64_t n = size(), c = size();
    or_shape z = none();
    if (n == INT64_MAX)
        n--;
    in[0] = dims2(&z, n + 1, c);
    in[1] = dims2(&z, n, c);
}

static void g_halves(or_shape *in)
{
    int64_t n = size() / (big_mode ? 1 : 2);
    if (n > INT64_MAX / 2)
        n = INT64_MAX / 2 - below(2);
    in[0] = vec(2 * n);
    in[1] = vec(n);
}

static void g_pool(or_shape *in)
{
    int64_t n = size(), c = size();
    or_shape z = none();
    in[0] = dims2(&z, n, c);
    in[1] = dims2(&z, n / 2, c);
}

static void g_split(or_shape *in)
{
    in[0] = vec(size());
    in[1] = vec(size());
}

/* n * m, or a huge size when that does not fit. */
static int64_t product(int64_t n, int64_t m)
{
    return n != 0 && m > INT64_MAX / n ? huge() : n * m;
}

static void g_flatten(or_shape *in)
{
    or_shape z = none();
    int64_t n = size(), m = chance(50) ? small() : size();
    in[0] = dims2(&z, n, m);
    in[1] = vec(product(n, m));
}

static void g_area(or_shape *in)
{
    int64_t n = size(), m = chance(50) ? small() : size();
    in[0] = vec(product(n, m));
    in[1] = vec(n);
    in[2] = vec(m);
}

static void g_maxsum(or_shape *in)
{
    int64_t n = size(), k = chance(70) ? n : chance(50) ? 1 : size();
    in[0] = vec(n);
    in[1] = vec(k);
    in[2] = vec(n == 1 ? k : n);
}

static void g_bcast(or_shape *in)
{
    or_shape s = any_rank(0, OR_MAX_RANK);
    in[0] = chance(30) ? s : partner(&s);
    in[1] = partner(&s);
    in[2] = partner(&s);
}

static void g_outer(or_shape *in)
{
    or_shape z = none();
    in[0] = dims2(&z, size(), 1);
    in[1] = dims2(&z, 1, size());
}

static void g_clamp(or_shape *in)
{
    in[0] = in[1] = in[2] = any_rank(0, OR_MAX_RANK);
}

static void g_scaled(or_shape *in)
{
    in[0] = any_rank(0, OR_MAX_RANK);
    in[1] = none();
}

static void g_trailing(or_shape *in)
{
    or_shape s = any_rank(1, OR_MAX_RANK - 1);
    in[0] = s;
    push(&in[0], 4);
    s.rank--;
    in[1] = partner(&s);
    if (in[1].rank == OR_MAX_RANK)
        in[1].rank--;
    push(&in[1], 1);
}

static void g_fixed(or_shape *in)
{
    static const int64_t pick[] = { 1, 3, 3, 0 };
    int64_t x = pick[below(4)];
    in[0] = vec(x ? x : size());
    in[1] = vec(3);
}

static void g_bias2(or_shape *in)
{
    or_shape z = none();
    int64_t m = size();
    in[0] = dims2(&z, size(), m);
    in[1] = vec(chance(60) ? m : chance(50) ? 1 : size());
}

/* ---- mutations ------------------------------------------------------ */
static void mutate(or_shape *in, int nin)
{
    or_shape *s = &in[below(nin)];
    int i = s->rank > 0 ? (int)below(s->rank) : 0, j;
    if (s->rank > OR_MAX_RANK) /* already made too long: no axes to change */
        return;
    switch (below(negative ? 10 : 9)) {
    case 0: /* drop an axis */
        if (s->rank > 0) {
            for (j = i; j + 1 < s->rank; j++)
                s->d[j] = s->d[j + 1];
            s->rank--;
        }
        break;
    case 1: /* insert an axis */
        if (s->rank < OR_MAX_RANK) {
            for (j = s->rank; j > i; j--)
                s->d[j] = s->d[j - 1];
            s->d[i] = small();
            s->rank++;
        }
        break;
    case 2: if (s->rank) s->d[i] = size(); break;
    case 3: if (s->rank) s->d[i] = 1; break;
    case 4: if (s->rank) s->d[i] = 0; break;
    case 5: /* one more or one less */
        if (s->rank)
            s->d[i] += s->d[i] == INT64_MAX ? -1 : s->d[i] <= 0 || chance(50) ? 1 : -1;
        break;
    case 6: if (s->rank) s->d[i] = huge(); break;
    case 7: /* another input's shape, or a rank too large for the type */
        if (chance(10))
            s->rank = OR_MAX_RANK + 1;
        else
            *s = in[below(nin)];
        break;
    case 8: if (s->rank) s->d[i] = chance(50) ? s->d[below(s->rank)] : size(); break;
    case 9: if (s->rank) s->d[i] = chance(80) ? -1 - below(3) : INT64_MIN; break;
    }
}

/* ---- the functions under test --------------------------------------- */
/* (Arrays of intermediates hold OR_MAX_TMP; run() calls prepare only when
 * the header's P_NAME_NUM_TEMPS equals the oracle's count, at most that.) */
typedef int (*shape_fn)(const axon_shape *, axon_shape *, axon_error *);
typedef int (*prep_fn)(const axon_shape *, axon_shape *, int64_t *, int64_t *, axon_shape *,
                       int64_t *, int64_t *, axon_error *);

/* P_NAME_prepare, with the plan copied out. */
#define PREP(P, N)                                                                          \
    static int prep_##P##_##N(const axon_shape *in, axon_shape *out, int64_t *oe,           \
                              int64_t *ob, axon_shape *tmp, int64_t *te, int64_t *tb,       \
                              axon_error *err)                                              \
    {                                                                                       \
        P##_##N##_plan plan;                                                                \
        int i, st;                                                                          \
        memset(&plan, 0, sizeof plan); /* gcc -O3 -Wmaybe-uninitialized otherwise */       \
        st = P##_##N##_prepare(in, &plan, err);                                             \
        for (i = 0; st == AXON_OK && i < P##_##N##_NUM_OUTPUTS; i++) {                      \
            out[i] = plan.out[i];                                                           \
            oe[i] = plan.out_elements[i];                                                   \
            ob[i] = plan.out_bytes[i];                                                      \
        }                                                                                   \
        for (i = 0; st == AXON_OK && i < P##_##N##_NUM_TEMPS; i++) {                        \
            tmp[i] = plan.tmp[i];                                                           \
            te[i] = plan.tmp_elements[i];                                                   \
            tb[i] = plan.tmp_bytes[i];                                                      \
        }                                                                                   \
        return st;                                                                          \
    }

#define FUNCTIONS(X)                                                            \
    X(linalg, bmm, g_bmm) X(linalg, gram, g_gram) X(linalg, proj, g_proj)        \
    X(linalg, linear, g_linear) X(linalg, mlp, g_mlp)                            \
    X(linalg, softmax, g_softmax) X(linalg, attention, g_attention)              \
    X(linalg, softmax_any, g_rank1) X(linalg, rowsum, g_rank2)                   \
    X(linalg, normalize, g_normalize)                                            \
    X(spatial, convs, g_convs) X(spatial, convfix, g_convfix)                    \
    X(spatial, stack, g_stack) X(spatial, cat, g_cat) X(spatial, deep, g_deep)   \
    X(spatial, odd, g_odd) X(spatial, padded, g_padded)                          \
    X(spatial, halves, g_halves) X(spatial, pool, g_pool)                        \
    X(spatial, split, g_split) X(spatial, flatten, g_flatten)                    \
    X(spatial, area, g_area)                                                     \
    X(pointwise, bcast, g_bcast) X(pointwise, outer, g_outer)                    \
    X(pointwise, clamp, g_clamp) X(pointwise, scaled, g_scaled)                  \
    X(pointwise, trailing, g_trailing) X(pointwise, fixed, g_fixed)              \
    X(pointwise, bias2, g_bias2) X(pointwise, maxsum, g_maxsum)

#define DEFINE_PREP(P, N, G) PREP(P, N)
FUNCTIONS(DEFINE_PREP)

typedef struct entry {
    const char *name;
    int nin, nout, ntmp;
    shape_fn shape;
    prep_fn prep;
    const char *(*temp_name)(int);
    void (*gen)(or_shape *);
} entry;

#define ENTRY(P, N, G)                                                                 \
    { #P "." #N, P##_##N##_NUM_INPUTS, P##_##N##_NUM_OUTPUTS, P##_##N##_NUM_TEMPS,     \
      P##_##N##_shape, prep_##P##_##N, P##_##N##_temp_name, G },
static const entry entries[] = { FUNCTIONS(ENTRY) };

/* ---- comparing ------------------------------------------------------ */
static void print_shape(int rank, const int64_t *d)
{
    int i;
    printf("[");
    for (i = 0; i < rank && i < OR_MAX_RANK; i++)
        printf("%s%lld", i ? ", " : "", (long long)d[i]);
    if (rank > OR_MAX_RANK)
        printf(" ... (rank %d)", rank);
    printf("]");
}

static int same_shape(const axon_shape *h, const or_shape *o)
{
    int i;
    if (h->rank != o->rank)
        return 0;
    for (i = 0; i < o->rank; i++)
        if (h->dims[i] != o->d[i])
            return 0;
    return 1;
}

static const char *verdict_name(int v)
{
    static const char *const names[] = { "valid", "invalid", "overflow", "invalid-or-overflow" };
    return names[v];
}

static long printed;

/* Reports one disagreement (the first 20 of each function in full). */
static void disagree(const entry *e, long k, const char *what, const or_shape *in, int hs,
                     const axon_error *err, const axon_shape *hout, int ov, const or_shape *oout,
                     int nout)
{
    int i;
    if (++printed > 20)
        return;
    printf("DISAGREE %s case %ld: %s\n  inputs:", e->name, k, what);
    for (i = 0; i < e->nin; i++) {
        printf(" ");
        print_shape(in[i].rank, in[i].d);
    }
    printf("\n  header: %s", axon_status_name(hs));
    if (hs != AXON_OK)
        printf(" \"%.*s\"", (int)sizeof err->message, err->message);
    for (i = 0; hs == AXON_OK && i < nout; i++) {
        printf(" ");
        print_shape(hout[i].rank, hout[i].dims);
    }
    printf("\n  oracle: %s", verdict_name(ov));
    for (i = 0; ov == OR_VALID && i < nout; i++) {
        printf(" ");
        print_shape(oout[i].rank, oout[i].d);
    }
    printf("\n");
}

/* The first of the n tensors that prepare planned (shapes h, counts he
 * and hb) whose shape (*shape set) or counts (*shape clear) differ from
 * the oracle's o: its index, or -1 when none does. */
static int first_difference(int n, const axon_shape *h, const int64_t *he, const int64_t *hb, const or_shape *o,
                            int *shape)
{
    int64_t e, b;
    int i;
    for (i = 0; i < n; i++) {
        or_count(&o[i], 4, &e, &b);
        *shape = !same_shape(&h[i], &o[i]);
        if (*shape || he[i] != e || hb[i] != b)
            return i;
    }
    return -1;
}

/* Checks prepare against the oracle's outputs and intermediates (valid
 * cases only); returns what is wrong, or NULL.  When an intermediate's shape
 * or counts differ, *bad_tmp is its index and *htmp prepare's shape of it;
 * else *bad_tmp is -1. */
static const char *check_prepare(const entry *e, const or_entry *o, const axon_shape *hin,
                                 const or_shape *oout, const or_shape *otmp, axon_error *err,
                                 int *bad_tmp, axon_shape *htmp)
{
    axon_shape out[OR_MAX_IO], tmp[OR_MAX_TMP];
    int64_t oe[OR_MAX_IO], ob[OR_MAX_IO], te[OR_MAX_TMP], tb[OR_MAX_TMP], n, b;
    int i, shape, over = 0, ps = e->prep(hin, out, oe, ob, tmp, te, tb, err);
    *bad_tmp = -1;
    for (i = 0; i < o->nout + o->ntmp; i++)
        over |= or_count(i < o->nout ? &oout[i] : &otmp[i - o->nout], 4, &n, &b) != OR_VALID;
    if (over)
        return ps == AXON_ERR_OVERFLOW ? NULL : "prepare: an element or byte count overflows int64 but prepare does not say AXON_ERR_OVERFLOW";
    if (ps != AXON_OK)
        return "prepare fails where the shapes are valid and every count fits";
    if (first_difference(o->nout, out, oe, ob, oout, &shape) >= 0)
        return shape ? "prepare: an output shape differs" : "prepare: an output's element or byte count differs";
    i = first_difference(o->ntmp, tmp, te, tb, otmp, &shape);
    if (i < 0)
        return NULL;
    *bad_tmp = i;
    *htmp = tmp[i];
    return shape ? "prepare: an intermediate's shape differs"
                 : "prepare: an intermediate's element or byte count differs";
}

/* Whether name is one of the comma-separated names in list. */
static int listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    const char *p;
    for (p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

/* Runs one function; returns its number of disagreements. */
static long run(const entry *e, uint64_t seed, long cases, const char *perturb,
                const char *perturb_tmp)
{
    const or_entry *o = or_lookup(e->name);
    long k, valid = 0, invalid = 0, overflow = 0, bad = 0;
    const char *p;
    int i;
    if (!o || o->nin != e->nin || o->nout != e->nout || o->ntmp != e->ntmp) {
        printf("DISAGREE %s: the header's numbers of inputs/outputs/temps are %d/%d/%d\n",
               e->name, e->nin, e->nout, e->ntmp);
        return 1;
    }
    for (i = 0; i < o->ntmp; i++) /* every intermediate, in the oracle's order */
        if (!e->temp_name(i) || strcmp(e->temp_name(i), o->tmp_names[i]) != 0) {
            printf("DISAGREE %s: intermediate %d is not %s (the header says %s)\n", e->name, i,
                   o->tmp_names[i], e->temp_name(i) ? e->temp_name(i) : "NULL");
            return 1;
        }
    if (e->temp_name(o->ntmp) || e->temp_name(-1)) {
        printf("DISAGREE %s: temp_name(%d) or temp_name(-1) is not NULL\n", e->name, o->ntmp);
        return 1;
    }
    state = seed * UINT64_C(0x100000001B3);
    for (p = e->name; *p; p++) /* each function its own stream */
        state = (state ^ (unsigned char)*p) * UINT64_C(0x100000001B3);
    printed = 0;
    for (k = 0; k < cases; k++) {
        or_shape in[OR_MAX_IO], oout[OR_MAX_IO], otmp[OR_MAX_TMP];
        axon_shape hin[OR_MAX_IO], hout[OR_MAX_IO], hout2[OR_MAX_IO];
        axon_shape htmp;
        axon_error err;
        const char *what = NULL;
        int hs, hs2, ov, bad_tmp = -1;
        memset(in, 0, sizeof in);
        memset(hout, 0x5A, sizeof hout); /* garbage the header must overwrite */
        memset(hout2, 0x5A, sizeof hout2);
        memset(&err, 0, sizeof err);
        big_mode = chance(8);
        e->gen(in);
        if (chance(55)) {
            mutate(in, e->nin);
            if (chance(30))
                mutate(in, e->nin);
        }
        for (i = 0; i < e->nin; i++) {
            hin[i].rank = in[i].rank;
            memcpy(hin[i].dims, in[i].d, sizeof hin[i].dims);
        }
        hs = e->shape(hin, hout, &err);
        hs2 = e->shape(hin, hout2, NULL);
        ov = o->fn(in, oout, otmp);
        if (perturb && strcmp(perturb, e->name) == 0 && ov == OR_VALID) {
            if (oout[0].rank > 0)
                oout[0].d[oout[0].rank - 1] ^= 1;
            else
                ov = OR_INVALID;
        }
        if (perturb_tmp && strcmp(perturb_tmp, e->name) == 0 && ov == OR_VALID && o->ntmp > 0) {
            or_shape *t = &otmp[o->ntmp - 1];
            if (t->rank > 0)
                t->d[t->rank - 1] ^= 1;
            else
                t->rank = 1, t->d[0] = 2; /* a scalar becomes [2] */
        }
        valid += ov == OR_VALID;
        invalid += ov == OR_INVALID || ov == OR_EITHER;
        overflow += ov == OR_OVERFLOW;
        if (hs != hs2)
            what = "the status differs when err is NULL";
        else if (hs < AXON_OK || hs > AXON_ERR_CONSTRAINT)
            what = "the status is not an AXON_ERR_* code";
        else if (hs != AXON_OK && (err.status != hs || err.message[0] == '\0' ||
                                   !memchr(err.message, '\0', sizeof err.message)))
            what = "err is not filled in (status, message)";
        else if (ov == OR_VALID && hs != AXON_OK)
            what = "the header rejects shapes that the oracle accepts";
        else if (ov != OR_VALID && hs == AXON_OK)
            what = "the header accepts shapes that the oracle rejects";
        else if (ov == OR_OVERFLOW && hs != AXON_ERR_OVERFLOW)
            what = "the oracle finds a size past INT64_MAX (and no other error); the header's status is not AXON_ERR_OVERFLOW";
        else if (ov == OR_VALID) {
            for (i = 0; i < e->nout && !what; i++)
                if (!same_shape(&hout[i], &oout[i]) || !same_shape(&hout2[i], &oout[i]))
                    what = "an output shape differs";
            if (!what && prepare)
                what = check_prepare(e, o, hin, oout, otmp, &err, &bad_tmp, &htmp);
        }
        if (what) {
            bad++;
            disagree(e, k, what, in, hs, &err, hout, ov, oout, e->nout);
            if (bad_tmp >= 0 && printed <= 20) {
                printf("  intermediate %d (%s): prepare ", bad_tmp, o->tmp_names[bad_tmp]);
                print_shape(htmp.rank, htmp.dims);
                printf(", oracle ");
                print_shape(otmp[bad_tmp].rank, otmp[bad_tmp].d);
                printf("\n");
            }
        }
    }
    printf("%s: cases %ld valid %ld invalid %ld overflow %ld disagreements %ld\n", e->name,
           cases, valid, invalid, overflow, bad);
    return bad;
}

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    long cases = 3000, bad = 0, npos = 0, ran = 0;
    const char *perturb = NULL, *perturb_tmp = NULL, *only = NULL, *skip = "";
    size_t i, n = sizeof entries / sizeof entries[0];
    int a;
    for (a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--negative") == 0)
            negative = 1;
        else if (strcmp(argv[a], "--prepare") == 0)
            prepare = 1;
        else if (strcmp(argv[a], "--perturb") == 0 && a + 1 < argc)
            perturb = argv[++a];
        else if (strcmp(argv[a], "--perturb-tmp") == 0 && a + 1 < argc)
            perturb_tmp = argv[++a];
        else if (strcmp(argv[a], "--only") == 0 && a + 1 < argc)
            only = argv[++a];
        else if (strcmp(argv[a], "--skip") == 0 && a + 1 < argc)
            skip = argv[++a];
        else if (npos++ == 0)
            seed = strtoull(argv[a], NULL, 0);
        else if (npos == 2)
            cases = strtol(argv[a], NULL, 0);
        else {
            fprintf(stderr, "usage: %s [SEED [CASES]] [--negative] [--prepare] [--only NAMES]"
                            " [--skip NAMES] [--perturb NAME]"
                            " [--perturb-tmp NAME]\n", argv[0]);
            return 2;
        }
    }
    printf("seed %llu, %ld cases per function%s%s\n", (unsigned long long)seed, cases,
           negative ? ", negative sizes too" : "", prepare ? ", prepare checked" : "");
    for (i = 0; i < n; i++)
        if ((!only || listed(only, entries[i].name)) && !listed(skip, entries[i].name)) {
            bad += run(&entries[i], seed, cases, perturb, perturb_tmp);
            ran++;
        }
    printf("total: %ld functions, %ld disagreements\n", ran, bad);
    return bad ? 1 : 0;
}
