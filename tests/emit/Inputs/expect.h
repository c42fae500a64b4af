/* expect.h - a tiny harness for the C tests of generated headers: each
 * EXPECT_* prints what failed (and counts it); expect_summary() prints
 * "N checks, N failed" and gives the exit status. */
#ifndef EXPECT_H
#define EXPECT_H

#include <stdio.h>
#include <string.h>

static int expect_checks, expect_failed;

#define EXPECT_TRUE(cond)                                                          \
    do {                                                                           \
        expect_checks++;                                                           \
        if (!(cond)) {                                                             \
            expect_failed++;                                                       \
            printf("%s:%d: FAILED: %s\n", __FILE__, __LINE__, #cond);              \
        }                                                                          \
    } while (0)

#define EXPECT_INT(got, want)                                                      \
    do {                                                                           \
        long long g_ = (long long)(got), w_ = (long long)(want);                   \
        expect_checks++;                                                           \
        if (g_ != w_) {                                                            \
            expect_failed++;                                                       \
            printf("%s:%d: FAILED: %s is %lld, expected %lld\n", __FILE__, __LINE__, \
                   #got, g_, w_);                                                  \
        }                                                                          \
    } while (0)

#define EXPECT_STR(got, want)                                                      \
    do {                                                                           \
        const char *g_ = (got), *w_ = (want);                                      \
        expect_checks++;                                                           \
        if (!g_)                                                                   \
            g_ = "(null)";                                                         \
        if (strcmp(g_, w_) != 0) {                                                 \
            expect_failed++;                                                       \
            printf("%s:%d: FAILED: %s is\n  \"%s\"\nexpected\n  \"%s\"\n", __FILE__, \
                   __LINE__, #got, g_, w_);                                        \
        }                                                                          \
    } while (0)

/* A shape literal: SHAPE(2, 3) is rank 2 with dims 2, 3. */
#define SHAPE(...) shape_of((const long long[]){ __VA_ARGS__ }, (int)(sizeof((const long long[]){ __VA_ARGS__ }) / sizeof(long long)))
#define SCALAR shape_of(NULL, 0)

/* (static inline: a test that does not use one gets no warning) */
static inline axon_shape shape_of(const long long *d, int n)
{
    axon_shape s;
    memset(&s, 0, sizeof s);
    s.rank = n;
    for (int i = 0; i < n; i++)
        s.dims[i] = d[i];
    return s;
}

static inline void expect_print_dims(const axon_shape *s)
{
    for (int i = 0; i < s->rank; i++)
        printf(i ? ", %lld" : "%lld", (long long)s->dims[i]);
}

static inline void expect_shape(const char *file, int line, const axon_shape *got, const axon_shape *want)
{
    int same = got->rank == want->rank;
    for (int i = 0; same && i < got->rank; i++)
        same = got->dims[i] == want->dims[i];
    expect_checks++;
    if (!same) {
        expect_failed++;
        printf("%s:%d: FAILED: shape [", file, line);
        expect_print_dims(got);
        printf("] (rank %d), expected [", got->rank);
        expect_print_dims(want);
        printf("]\n");
    }
}

#define EXPECT_SHAPE(got, want)                                                    \
    do {                                                                           \
        axon_shape w__ = (want);                                                   \
        expect_shape(__FILE__, __LINE__, &(got), &w__);                            \
    } while (0)

/* fn(in, out, &err) fails with the status, the rule's line and column, and
 * exactly the message. */
#define EXPECT_ERROR(fn, in, out, st_, ln_, col_, msg_)                          \
    do {                                                                           \
        axon_error e__;                                                            \
        memset(&e__, 0, sizeof e__);                                               \
        int s__ = fn((in), (out), &e__);                                           \
        EXPECT_INT(s__, st_);                                                      \
        EXPECT_INT(e__.status, st_);                                               \
        EXPECT_INT(e__.line, ln_);                                                 \
        EXPECT_INT(e__.column, col_);                                              \
        EXPECT_STR(e__.message, msg_);                                             \
    } while (0)

static inline int expect_summary(void)
{
    printf("%d checks, %d failed\n", expect_checks, expect_failed);
    return expect_failed ? 1 : 0;
}

#endif
