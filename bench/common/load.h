/* load.h - the C benchmark drivers' clock and load: a monotonic clock
 * (every driver's: bench/conv, bench/eltwise, bench/gemm through bench.h,
 * bench/shapefn, bench/samples), and the cores that other processes kept
 * busy while a measurement ran (the machine's busy time in /proc/stat less
 * this process's CPU time, over the wall time).  Static inline functions:
 * include it once, after defining _POSIX_C_SOURCE (clock_gettime,
 * getrusage); a driver that uses only the clock gets no warning for the
 * rest. */
#ifndef BENCH_COMMON_LOAD_H
#define BENCH_COMMON_LOAD_H

#include <stdio.h>
#include <time.h>
#include <sys/resource.h>
#include <unistd.h>

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU seconds the whole machine has been busy, or -1. */
static inline double machine_busy(void)
{
    unsigned long long v[8];
    FILE *f = fopen("/proc/stat", "r");
    int n = f ? fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                       &v[6], &v[7])
              : 0;
    if (f)
        fclose(f);
    if (n != 8)
        return -1;
    return (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / (double)sysconf(_SC_CLK_TCK);
}

static inline double own_cpu(void)
{
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    return (double)r.ru_utime.tv_sec + 1e-6 * (double)r.ru_utime.tv_usec + (double)r.ru_stime.tv_sec +
           1e-6 * (double)r.ru_stime.tv_usec;
}

/* The cores others kept busy since (busy0, own0, wall0), taken with
 * machine_busy(), own_cpu() and now(); -1 where unknown or under 0.5 s
 * (/proc/stat counts in ticks of 10 ms). */
static inline double others_load(double busy0, double own0, double wall0)
{
    const double busy1 = machine_busy(), own1 = own_cpu(), wall = now() - wall0;
    double l;
    if (busy0 < 0 || busy1 < 0 || wall < 0.5)
        return -1;
    l = ((busy1 - busy0) - (own1 - own0)) / wall;
    return l < 0 ? 0 : l;
}

#endif
