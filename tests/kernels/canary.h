/* canary.h - the canaries of the C test drivers (run_kernels.c here;
 * run_fast.c and conv_run.c in tests/fast/): HAVE_ASAN where the build
 * has AddressSanitizer, POISON and UNPOISON (no-ops without it), and the
 * CANARY bytes written before and after a buffer's data, checked intact
 * after a call and poisoned during it, so that a read outside the buffer
 * stops the driver too.  A block is CANARY bytes, the n bytes of data,
 * CANARY bytes.  (static inline: a driver that uses only the macros gets
 * no warning.) */
#ifndef TESTS_KERNELS_CANARY_H
#define TESTS_KERNELS_CANARY_H

#include <stdint.h>

#if defined(__SANITIZE_ADDRESS__)
#define HAVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_ASAN 1
#endif
#endif
#ifdef HAVE_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define CANARY 64

static inline unsigned char canary_byte(int64_t i)
{
    return (unsigned char)(0xa5 ^ (i * 37));
}

static inline void canary_set(unsigned char *block, int64_t n)
{
    for (int64_t i = 0; i < CANARY; i++) {
        block[i] = canary_byte(i);
        block[CANARY + n + i] = canary_byte(i + CANARY);
    }
}

static inline int canary_ok(const unsigned char *block, int64_t n)
{
    for (int64_t i = 0; i < CANARY; i++)
        if (block[i] != canary_byte(i) || block[CANARY + n + i] != canary_byte(i + CANARY))
            return 0;
    return 1;
}

/* Poisons the canaries (on), or unpoisons them. */
static inline void canary_poison(unsigned char *block, int64_t n, int on)
{
    if (on) {
        POISON(block, CANARY);
        POISON(block + CANARY + n, CANARY);
    } else {
        UNPOISON(block, CANARY);
        UNPOISON(block + CANARY + n, CANARY);
    }
}

#endif
