/* oracle.c - Axon's shape rules evaluated on concrete shapes (see oracle.h).
 *
 * Built-in rules, from the spec (section 5) and the paper (section 3.3):
 *   matmul     (s @ [m, k], s @ [k, n]) -> s @ [m, n]
 *   transpose  s @ [m, n] -> s @ [n, m]
 *   conv       ([n, c, h, w], [k, c, r, q]) -> [n, k, h - r + 1, w - q + 1]
 *   concat     ([a] @ s, [b] @ s) -> [a + b] @ s
 *   reverse    [n] @ s -> [n] @ s
 *   map        (s -> p, [n] @ s) -> [n] @ p
 *   reduce     ((s, s) -> s, [], [n] @ s) -> s
 *   + - * /    NumPy broadcasting
 *   max, min   equal shapes
 *   exp, relu  the same shape
 * Sizes are int64 and >= 0.  Arithmetic on sizes is checked; a size that
 * exceeds INT64_MAX becomes the marker BIG, and one computed from a BIG (its
 * value lost) the marker UNKNOWN.  A rule that compares a BIG with a size
 * fails (a BIG equals no int64 size); one that must compare an UNKNOWN sets
 * `unsure`.  Verdict: invalid if a rule failed; else OR_EITHER if unsure;
 * else OR_OVERFLOW if some size overflowed; else valid.
 */
#include "oracle.h"

#include <string.h>

#define BIG (-1)
#define UNKNOWN (-2)

typedef struct ctx {
    int overflow, unsure;
} ctx;

/* A rule returns 1 when it holds.  In a test function, RULE returns the
 * verdict invalid; in a rule made of rules, NEED returns 0. */
#define RULE(e) do { if (!(e)) return OR_INVALID; } while (0)
#define NEED(e) do { if (!(e)) return 0; } while (0)

static int known(int64_t v) { return v >= 0; }

static int verdict(const ctx *c)
{
    return c->unsure ? OR_EITHER : c->overflow ? OR_OVERFLOW : OR_VALID;
}

/* ---- sizes ---------------------------------------------------------- */

/* The value of a product in an annotation: BIG when it exceeds INT64_MAX
 * (then no size can equal it). */
static int64_t size_mul(int64_t a, int64_t b)
{
    if (a != 0 && b > INT64_MAX / a)
        return BIG;
    return a * b;
}

static int64_t size_add(ctx *c, int64_t a, int64_t b)
{
    if (a == BIG || b == BIG)
        return BIG;
    if (a == UNKNOWN || b == UNKNOWN)
        return UNKNOWN;
    if (a > INT64_MAX - b) {
        c->overflow = 1;
        return BIG;
    }
    return a + b;
}

/* h - r + 1; 0 when it is negative. */
static int conv_size(ctx *c, int64_t h, int64_t r, int64_t *o)
{
    int64_t t;
    if (h == BIG && known(r)) { /* more than INT64_MAX - r + 1 >= 1 */
        *o = UNKNOWN;
        return 1;
    }
    if (!known(h) || !known(r)) {
        c->unsure = 1;
        *o = UNKNOWN;
        return 1;
    }
    t = h - r; /* both in [0, INT64_MAX]: no overflow */
    if (t < -1)
        return 0;
    if (t == INT64_MAX) {
        c->overflow = 1;
        *o = BIG;
        return 1;
    }
    *o = t + 1;
    return 1;
}

static int size_eq(ctx *c, int64_t a, int64_t b)
{
    if (known(a) && known(b))
        return a == b;
    if ((a == BIG && known(b)) || (b == BIG && known(a)))
        return 0;
    c->unsure = 1;
    return 1;
}

/* NumPy: equal sizes, or one of them 1. */
static int size_bcast(ctx *c, int64_t a, int64_t b, int64_t *o)
{
    if (a == 1 || b == 1) {
        *o = a == 1 ? b : a;
        return 1;
    }
    if (known(a) && known(b)) {
        *o = a;
        return a == b;
    }
    if ((a == BIG && known(b)) || (b == BIG && known(a)))
        return 0;
    c->unsure = 1;
    *o = a;
    return 1;
}

/* ---- shapes --------------------------------------------------------- */

/* An input: a rank the type can hold, sizes >= 0. */
static int input_ok(const or_shape *s)
{
    int i;
    if (s->rank < 0 || s->rank > OR_MAX_RANK)
        return 0;
    for (i = 0; i < s->rank; i++)
        if (s->d[i] < 0)
            return 0;
    return 1;
}

static int inputs_ok(const or_shape *in, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (!input_ok(&in[i]))
            return 0;
    return 1;
}

static int same(ctx *c, const or_shape *a, const or_shape *b, or_shape *o)
{
    int i;
    if (a->rank != b->rank)
        return 0;
    for (i = 0; i < a->rank; i++)
        if (!size_eq(c, a->d[i], b->d[i]))
            return 0;
    *o = *a;
    return 1;
}

static int bcast(ctx *c, const or_shape *a, const or_shape *b, or_shape *o)
{
    or_shape r;
    int i, n = a->rank > b->rank ? a->rank : b->rank;
    r.rank = n;
    for (i = 1; i <= n; i++) { /* i-th axis from the end */
        int64_t x = i <= a->rank ? a->d[a->rank - i] : 1;
        int64_t y = i <= b->rank ? b->d[b->rank - i] : 1;
        if (!size_bcast(c, x, y, &r.d[n - i]))
            return 0;
    }
    *o = r;
    return 1;
}

static int matmul(ctx *c, const or_shape *a, const or_shape *b, or_shape *o)
{
    or_shape r;
    int i, n = a->rank;
    if (n < 2 || b->rank != n)
        return 0;
    for (i = 0; i < n - 2; i++) /* the batch axes */
        if (!size_eq(c, a->d[i], b->d[i]))
            return 0;
    if (!size_eq(c, a->d[n - 1], b->d[n - 2]))
        return 0;
    r = *a;
    r.d[n - 1] = b->d[n - 1];
    *o = r;
    return 1;
}

static int transpose(const or_shape *a, or_shape *o)
{
    or_shape r = *a;
    if (a->rank < 2)
        return 0;
    r.d[a->rank - 2] = a->d[a->rank - 1];
    r.d[a->rank - 1] = a->d[a->rank - 2];
    *o = r;
    return 1;
}

static int conv(ctx *c, const or_shape *x, const or_shape *f, or_shape *o)
{
    or_shape r;
    int okh, okw;
    if (x->rank != 4 || f->rank != 4)
        return 0;
    if (!size_eq(c, x->d[1], f->d[1]))
        return 0;
    r.rank = 4;
    r.d[0] = x->d[0];
    r.d[1] = f->d[0];
    okh = conv_size(c, x->d[2], f->d[2], &r.d[2]);
    okw = conv_size(c, x->d[3], f->d[3], &r.d[3]);
    if (!okh || !okw)
        return 0;
    *o = r;
    return 1;
}

static int concat(ctx *c, const or_shape *a, const or_shape *b, or_shape *o)
{
    or_shape r;
    int i;
    if (a->rank < 1 || b->rank != a->rank)
        return 0;
    for (i = 1; i < a->rank; i++)
        if (!size_eq(c, a->d[i], b->d[i]))
            return 0;
    r = *a;
    r.d[0] = size_add(c, a->d[0], b->d[0]);
    *o = r;
    return 1;
}

static int reverse(const or_shape *a, or_shape *o)
{
    *o = *a;
    return a->rank >= 1;
}

/* [n] @ s: the outer size and the slice that map/reduce see. */
static int outer(const or_shape *a, int64_t *n, or_shape *s)
{
    int i;
    if (a->rank < 1)
        return 0;
    *n = a->d[0];
    s->rank = a->rank - 1;
    for (i = 1; i < a->rank; i++)
        s->d[i - 1] = a->d[i];
    return 1;
}

/* reduce(op, init, x) with op : (t s, t s) -> t s (+, max: the same shape
 * on both sides) and a scalar init: the slice. */
static int reduce(const or_shape *x, or_shape *o)
{
    int64_t n;
    return outer(x, &n, o);
}

/* The result of map: the outer size n stacked on the function's result. */
static int stacked(int64_t n, const or_shape *p, or_shape *o)
{
    or_shape r;
    int i;
    if (p->rank + 1 > OR_MAX_RANK)
        return 0;
    r.rank = p->rank + 1;
    r.d[0] = n;
    for (i = 0; i < p->rank; i++)
        r.d[i + 1] = p->d[i];
    *o = r;
    return 1;
}

static const or_shape scalar = { 0, { 0 } };

/* ---- the test functions ---------------------------------------------- */
/* Each follows its body in Inputs/<file>.axon; `ann:` marks the checks that
 * come from the function's annotations.  tmp[] gets every intermediate (see
 * oracle.h for which and in what order); the comment at each store names
 * it as the table below does.  A user function called from another is one
 * intermediate of the caller: its helper takes tmp == NULL there. */

#define BEGIN(n) ctx c = { 0, 0 }; (void)tmp; RULE(inputs_ok(in, n))

/* linalg.axon */
static int linear_(ctx *c, const or_shape *x, const or_shape *w, const or_shape *b, or_shape *o,
                   or_shape *tmp)
{
    or_shape m;
    NEED(matmul(c, x, w, &m) && bcast(c, &m, b, o));
    if (tmp)
        tmp[0] = m; /* matmul at 15:25 */
    return 1;
}

static int softmax_(ctx *c, const or_shape *e, or_shape *o, or_shape *tmp)
{
    or_shape z, te, sl, r, s, a, q;
    int64_t n;
    NEED(e->rank == 2); /* ann: e : t [m, n] */
    z = *e; /* exp */
    NEED(transpose(e, &te));
    NEED(outer(&te, &n, &sl) && reduce(&sl, &r) && stacked(n, &r, &s)); /* s = map(...) */
    NEED(outer(&z, &n, &a) && bcast(c, &a, &s, &q) && stacked(n, &q, o)); /* map(a / s) */
    if (tmp) {
        tmp[0] = z;
        tmp[1] = te; /* transpose at 25:40 (the lambdas' values are per row) */
        tmp[2] = s;
    }
    return 1;
}

static int f_bmm(const or_shape *in, or_shape *out, or_shape *tmp)
{
    BEGIN(2);
    RULE(matmul(&c, &in[0], &in[1], &out[0]));
    return verdict(&c);
}

static int f_gram(const or_shape *in, or_shape *out, or_shape *tmp)
{
    or_shape t;
    BEGIN(1);
    RULE(transpose(&in[0], &t) && matmul(&c, &in[0], &t, &out[0]));
    tmp[0] = t; /* transpose at 9:27 */
    return verdict(&c);
}

static int f_proj(const or_shape *in, or_shape *out, or_shape *tmp)
{
    const or_shape *x = &in[0], *w = &in[1], *b = &in[2];
    or_shape m;
    int i;
    BEGIN(3);
    /* ann: x : s @ [m, k], w : s @ [k, n], b : [n] */
    RULE(x->rank >= 2 && w->rank == x->rank && b->rank == 1);
    for (i = 0; i < x->rank - 2; i++)
        RULE(x->d[i] == w->d[i]);
    RULE(x->d[x->rank - 1] == w->d[w->rank - 2] && b->d[0] == w->d[w->rank - 1]);
    RULE(matmul(&c, x, w, &m) && bcast(&c, &m, b, &out[0]));
    tmp[0] = m; /* matmul at 12:61 */
    return verdict(&c);
}

static int f_linear(const or_shape *in, or_shape *out, or_shape *tmp)
{
    BEGIN(3);
    RULE(linear_(&c, &in[0], &in[1], &in[2], &out[0], tmp));
    return verdict(&c);
}

static int f_mlp(const or_shape *in, or_shape *out, or_shape *tmp)
{
    or_shape h;
    BEGIN(5);
    RULE(in[2].rank == 1 && in[4].rank == 1); /* ann: b1 : t [h], b2 : t [o] */
    RULE(linear_(&c, &in[0], &in[1], &in[2], &h, NULL)); /* relu keeps it */
    RULE(linear_(&c, &h, &in[3], &in[4], &out[0], NULL)); /* and the outer relu */
    tmp[0] = h;      /* linear at 19:20 */
    tmp[1] = h;      /* relu at 19:15 */
    tmp[2] = out[0]; /* linear at 19:8 */
    return verdict(&c);
}

static int f_softmax(const or_shape *in, or_shape *out, or_shape *tmp)
{
    BEGIN(1);
    RULE(softmax_(&c, &in[0], &out[0], tmp));
    return verdict(&c);
}

static int f_attention(const or_shape *in, or_shape *out, or_shape *tmp)
{
    or_shape kt, qk, sm;
    BEGIN(3);
    RULE(transpose(&in[1], &kt) && matmul(&c, &in[0], &kt, &qk));
    RULE(softmax_(&c, &qk, &sm, NULL) && matmul(&c, &sm, &in[2], &out[0]));
    tmp[0] = kt; /* transpose at 28:53 */
    tmp[1] = qk; /* matmul at 28:43 */
    tmp[2] = sm; /* softmax at 28:35 */
    return verdict(&c);
}

static int f_softmax_any(const or_shape *in, or_shape *out, or_shape *tmp)
{
    or_shape y, z, r;
    BEGIN(1);
    RULE(reduce(&in[0], &y));          /* y = reduce(max, -inf, x) */
    RULE(bcast(&c, &in[0], &y, &z));   /* z = exp(x - y) */
    RULE(reduce(&z, &r) && bcast(&c, &z, &r, &out[0]));
    tmp[0] = scalar; /* neg at 32:19: -inf */
    tmp[1] = y;
    tmp[2] = z;      /* sub at 33:13: x - y (exp keeps it) */
    tmp[3] = z;
    tmp[4] = r;      /* reduce at 34:7 */
    return verdict(&c);
}

static int f_rowsum(const or_shape *in, or_shape *out, or_shape *tmp)
{
    or_shape s, r;
    int64_t n;
    BEGIN(1);
    RULE(outer(&in[0], &n, &s) && reduce(&s, &r) && stacked(n, &r, &out[0]));
    return verdict(&c);
}

static int f_normalize(const or_shape *in, or_shape *out, or_shape *tmp)
{
    or_shape m, r;
    BEGIN(2);
    RULE(same(&c, &in[0], &in[1], &m) && reduce(&in[0], &r) && bcast(&c, &m, &r, &out[0]));
    tmp[0] = m;      /* max at 41:25 */
    tmp[1] = scalar; /* neg at 41:49: -inf */
    tmp[2] = r;      /* reduce at 41:37 */
    return verdict(&c);
}

/* spatial.axon */
static int stack_(ctx *c, const or_shape *x, const or_shape *f, const or_shape *y, or_shape *o,
                  or_shape *tmp)
{
    or_shape cv, ry;
    NEED(conv(c, x, f, &cv) && reverse(y, &ry) && concat(c, &cv, &ry, o));
    if (tmp) {
        tmp[0] = cv; /* conv at 12:31 */
        tmp[1] = ry; /* reverse at 12:43 */
    }
    return 1;
}

static int cat_(ctx *c, const or_shape *x, const or_shape *y, or_shape *o, or_shape *tmp)
{
    or_shape ry;
    NEED(reverse(y, &ry) && concat(c, x, &ry, o));
    if (tmp)
        tmp[0] = ry; /* reverse at 15:29 */
    return 1;
}

static int f_convs(const or_shape *in, or_shape *out, or_shape *tmp)
{
    or_shape c1;
    BEGIN(3);
    RULE(conv(&c, &in[0], &in[1], &c1) && conv(&c, &c1, &in[2], &out[0]));
    tmp[0] = c1;     /* conv at 6:34 */
    tmp[1] = out[0]; /* conv at 6:29 (relu keeps it) */
    return verdict(&c);
}

static int f_convfix(const or_shape *in, or_shape *out, or_shape *tmp)
{
    const or_shape *x = &in[0], *f = &in[1];
    BEGIN(2);
    /* ann: x : [1, 3, h, w], f : [2, 3, 3, 3] */
    RULE(x->rank == 4 && x->d[0] == 1 && x->d[1] == 3);
    RULE(f->rank == 4 && f->d[0] == 2 && f->d[1] == 3 && f->d[2] == 3 && f->d[3] == 3);
    RULE(conv(&c, x, f, &out[0]));
    return verdict(&c);
}

static int f_stack(const or_shape *in, or_shape *out, or_shape *tmp)
{
    BEGIN(3);
    RULE(stack_(&c, &in[0], &in[1], &in[2], &out[0], tmp));
    return verdict(&c);
}

static int f_cat(const or_shape *in, or_shape *out, or_shape *tmp)
{
    BEGIN(2);
    RULE(cat_(&c, &in[0], &in[1], &out[0], tmp));
    return verdict(&c);
}

static int f_deep(const or_shape *in, or_shape *out, or_shape *tmp)
{
    or_shape cv, s;
    BEGIN(4);
    RULE(conv(&c, &in[0], &in[1], &cv)); /* relu keeps it */
    RULE(stack_(&c, &cv, &in[2], &in[3], &s, NULL) && cat_(&c, &s, &in[3], &out[0], NULL));
    tmp[0] = cv; /* conv at 18:41 */
    tmp[1] = cv; /* relu at 18:36 */
    tmp[2] = s;  /* stack at 18:30 */
    return verdict(&c);
}

static int f_odd(const or_shape *in, or_shape *out, or_shape *tmp)
{
    int64_t n;
    BEGIN(2);
    /* ann: x : [2 * n + 1] (odd, >= 1), y : [n] */
    RULE(in[0].rank == 1 && in[0].d[0] >= 1 && (in[0].d[0] - 1) % 2 == 0);
    n = (in[0].d[0] - 1) / 2;
    RULE(in[1].rank == 1 && in[1].d[0] == n);
    RULE(concat(&c, &in[0], &in[1], &out[0]));
    return verdict(&c);
}

static int f_padded(const or_shape *in, or_shape *out, or_shape *tmp)
{
    BEGIN(2);
    /* ann: x : [n + 1, c] (so x's rows >= 1), y : [n, c] */
    RULE(in[0].rank == 2 && in[0].d[0] >= 1 && in[1].rank == 2);
    RULE(in[1].d[0] == in[0].d[0] - 1 && in[1].d[1] == in[0].d[1]);
    RULE(concat(&c, &in[0], &in[1], &out[0]));
    return verdict(&c);
}

static int f_halves(const or_shape *in, or_shape *out, or_shape *tmp)
{
    BEGIN(2);
    /* ann: x : [2 * n] (even), y : [n] */
    RULE(in[0].rank == 1 && in[0].d[0] % 2 == 0);
    RULE(in[1].rank == 1 && in[1].d[0] == in[0].d[0] / 2);
    out[0] = in[0];
    RULE(concat(&c, &in[1], &in[1], &out[1]));
    return verdict(&c);
}

static int f_pool(const or_shape *in, or_shape *out, or_shape *tmp)
{
    BEGIN(2);
    /* ann: x : [n, c], y : [n / 2, c] (floored) */
    RULE(in[0].rank == 2 && in[1].rank == 2);
    RULE(in[1].d[0] == in[0].d[0] / 2 && in[1].d[1] == in[0].d[1]);
    RULE(concat(&c, &in[0], &in[1], &out[0]));
    return verdict(&c);
}

static int f_split(const or_shape *in, or_shape *out, or_shape *tmp)
{
    BEGIN(2);
    RULE(in[0].rank == 1 && in[1].rank == 1); /* ann: p : ([n], [m]) */
    RULE(concat(&c, &in[0], &in[1], &out[0]) && same(&c, &in[0], &in[0], &out[1]));
    tmp[0] = in[0]; /* a */
    tmp[1] = in[1]; /* b */
    return verdict(&c);
}

static int f_flatten(const or_shape *in, or_shape *out, or_shape *tmp)
{
    BEGIN(2);
    /* ann: x : [n, m], y : [n * m] */
    RULE(in[0].rank == 2 && in[1].rank == 1);
    RULE(size_eq(&c, in[1].d[0], size_mul(in[0].d[0], in[0].d[1])));
    RULE(concat(&c, &in[1], &in[1], &out[0]));
    out[1] = in[0];
    return verdict(&c);
}

static int f_area(const or_shape *in, or_shape *out, or_shape *tmp)
{
    BEGIN(3);
    /* ann: x : [n * m], y : [n], z : [m] */
    RULE(in[0].rank == 1 && in[1].rank == 1 && in[2].rank == 1);
    RULE(size_eq(&c, in[0].d[0], size_mul(in[1].d[0], in[2].d[0])));
    RULE(concat(&c, &in[0], &in[0], &out[0]));
    return verdict(&c);
}

/* pointwise.axon */
static int f_bcast(const or_shape *in, or_shape *out, or_shape *tmp)
{
    or_shape a, b;
    BEGIN(3);
    RULE(bcast(&c, &in[0], &in[1], &a) && bcast(&c, &a, &in[2], &b));
    RULE(bcast(&c, &b, &in[0], &out[0]));
    tmp[0] = a; /* sub at 6:27: x - y */
    tmp[1] = b; /* mul at 6:32: (x - y) * z */
    return verdict(&c);
}

static int f_outer(const or_shape *in, or_shape *out, or_shape *tmp)
{
    BEGIN(2);
    /* ann: x : [n, 1], y : [1, m] */
    RULE(in[0].rank == 2 && in[0].d[1] == 1 && in[1].rank == 2 && in[1].d[0] == 1);
    RULE(bcast(&c, &in[0], &in[1], &out[0]));
    return verdict(&c);
}

static int f_clamp(const or_shape *in, or_shape *out, or_shape *tmp)
{
    or_shape m;
    BEGIN(3);
    RULE(same(&c, &in[0], &in[1], &m) && same(&c, &m, &in[2], &out[0]));
    tmp[0] = m; /* max at 12:30 */
    return verdict(&c);
}

static int f_scaled(const or_shape *in, or_shape *out, or_shape *tmp)
{
    or_shape m;
    BEGIN(2);
    RULE(in[1].rank == 0); /* ann: s : f32 */
    RULE(bcast(&c, &in[0], &in[1], &m) && bcast(&c, &m, &scalar, &out[0]));
    tmp[0] = m; /* mul at 15:30 */
    return verdict(&c);
}

static int f_trailing(const or_shape *in, or_shape *out, or_shape *tmp)
{
    const or_shape *x = &in[0], *y = &in[1];
    BEGIN(2);
    /* ann: x : s @ [n, 4], y : p @ [1] */
    RULE(x->rank >= 2 && x->d[x->rank - 1] == 4 && y->rank >= 1 && y->d[y->rank - 1] == 1);
    RULE(bcast(&c, x, y, &out[0]));
    return verdict(&c);
}

static int f_fixed(const or_shape *in, or_shape *out, or_shape *tmp)
{
    BEGIN(2);
    RULE(in[0].rank == 1 && in[1].rank == 1 && in[1].d[0] == 3); /* ann */
    RULE(bcast(&c, &in[0], &in[1], &out[0]));
    return verdict(&c);
}

static int f_bias2(const or_shape *in, or_shape *out, or_shape *tmp)
{
    BEGIN(2);
    RULE(in[0].rank == 2 && in[1].rank == 1); /* ann: x : [n, m], b : [k] */
    RULE(bcast(&c, &in[0], &in[1], &out[0]));
    return verdict(&c);
}

static int f_maxsum(const or_shape *in, or_shape *out, or_shape *tmp)
{
    or_shape s;
    BEGIN(3);
    RULE(in[0].rank == 1 && in[1].rank == 1); /* ann: x : [n], b : [k] */
    RULE(bcast(&c, &in[0], &in[1], &s) && same(&c, &s, &in[2], &out[0]));
    tmp[0] = s; /* add at 28:51 */
    return verdict(&c);
}

/* The intermediates' names: each name a statement binds, or "OP at
 * LINE:COL" (see oracle.h), written from the .axon files by hand: a call's
 * place is its callee's name, a + - * / operator's (and a unary minus's)
 * the operator itself, so that `(x - y) * z` names the - and the *. */
static const or_entry table[] = {
    { "linalg.bmm", 2, 1, 0, { 0 }, f_bmm },
    { "linalg.gram", 1, 1, 1, { "transpose at 9:27" }, f_gram },
    { "linalg.proj", 3, 1, 1, { "matmul at 12:61" }, f_proj },
    { "linalg.linear", 3, 1, 1, { "matmul at 15:25" }, f_linear },
    { "linalg.mlp", 5, 1, 3, { "linear at 19:20", "relu at 19:15", "linear at 19:8" }, f_mlp },
    { "linalg.softmax", 1, 1, 3, { "z", "transpose at 25:40", "s" }, f_softmax },
    { "linalg.attention", 3, 1, 3,
      { "transpose at 28:53", "matmul at 28:43", "softmax at 28:35" }, f_attention },
    { "linalg.softmax_any", 1, 1, 5,
      { "neg at 32:19", "y", "sub at 33:13", "z", "reduce at 34:7" }, f_softmax_any },
    { "linalg.rowsum", 1, 1, 0, { 0 }, f_rowsum },
    { "linalg.normalize", 2, 1, 3, { "max at 41:25", "neg at 41:49", "reduce at 41:37" },
      f_normalize },
    { "spatial.convs", 3, 1, 2, { "conv at 6:34", "conv at 6:29" }, f_convs },
    { "spatial.convfix", 2, 1, 0, { 0 }, f_convfix },
    { "spatial.stack", 3, 1, 2, { "conv at 12:31", "reverse at 12:43" }, f_stack },
    { "spatial.cat", 2, 1, 1, { "reverse at 15:29" }, f_cat },
    { "spatial.deep", 4, 1, 3, { "conv at 18:41", "relu at 18:36", "stack at 18:30" }, f_deep },
    { "spatial.odd", 2, 1, 0, { 0 }, f_odd },
    { "spatial.padded", 2, 1, 0, { 0 }, f_padded },
    { "spatial.halves", 2, 2, 0, { 0 }, f_halves },
    { "spatial.pool", 2, 1, 0, { 0 }, f_pool },
    { "spatial.split", 2, 2, 2, { "a", "b" }, f_split },
    { "spatial.flatten", 2, 2, 0, { 0 }, f_flatten },
    { "spatial.area", 3, 1, 0, { 0 }, f_area },
    { "pointwise.bcast", 3, 1, 2, { "sub at 6:27", "mul at 6:32" }, f_bcast },
    { "pointwise.outer", 2, 1, 0, { 0 }, f_outer },
    { "pointwise.clamp", 3, 1, 1, { "max at 12:30" }, f_clamp },
    { "pointwise.scaled", 2, 1, 1, { "mul at 15:30" }, f_scaled },
    { "pointwise.trailing", 2, 1, 0, { 0 }, f_trailing },
    { "pointwise.fixed", 2, 1, 0, { 0 }, f_fixed },
    { "pointwise.bias2", 2, 1, 0, { 0 }, f_bias2 },
    { "pointwise.maxsum", 3, 1, 1, { "add at 28:51" }, f_maxsum },
};

const or_entry *or_lookup(const char *name)
{
    size_t i;
    for (i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    return NULL;
}

int or_count(const or_shape *s, int64_t elem_size, int64_t *elements, int64_t *bytes)
{
    int64_t n = 1;
    int i;
    for (i = 0; i < s->rank; i++)
        if (s->d[i] == 0)
            n = 0; /* no elements, however large the other sizes */
    for (i = 0; i < s->rank && n != 0; i++) {
        if (n > INT64_MAX / s->d[i])
            return OR_OVERFLOW;
        n *= s->d[i];
    }
    if (n > INT64_MAX / elem_size)
        return OR_OVERFLOW;
    *elements = n;
    *bytes = n * elem_size;
    return OR_VALID;
}
