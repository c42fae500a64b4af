#!/usr/bin/env python3
"""torch_bench.py - PyTorch's f32 matmul for bench/gemm/run.sh.

    torch_bench.py THREADS [-t SECONDS] [-r REPS] [-n CALLS] MxNxK...

torch.set_num_threads(THREADS); row-major operands uniform in [-1, 1];
each measurement at least -t seconds (or -n calls), best of -r; prints
`RESULT torch MxNxK THREADS GFLOP/s` per shape (bench.c's format), and a
line naming PyTorch and its BLAS.  Without PyTorch, says so and exits 0.
"""
import re
import sys
import time


def main():
    argv = sys.argv[1:]
    threads = int(argv.pop(0))
    secs, reps, fixed = 0.2, 5, 0
    while argv and argv[0].startswith('-'):
        opt, val = argv.pop(0), argv.pop(0)
        if opt == '-t':
            secs = float(val)
        elif opt == '-r':
            reps = int(val)
        elif opt == '-n':
            fixed = int(val)
    try:
        import torch
    except ImportError:
        print('torch: not available (no PyTorch in %s)' % sys.executable)
        return 0
    torch.set_num_threads(threads)
    blas = re.search(r'BLAS_INFO=(\w+)', torch.__config__.show())
    cpu = re.search(r'CPU capability usage: (\w+)', torch.__config__.show())
    print('torch: %s, BLAS_INFO=%s, CPU capability %s, %d threads' %
          (torch.__version__, blas.group(1) if blas else '?', cpu.group(1) if cpu else '?', threads))
    torch.manual_seed(1)
    for s in argv:
        m, n, k = (int(x) for x in s.split('x'))
        a = torch.rand(m, k) * 2 - 1
        b = torch.rand(k, n) * 2 - 1
        c = torch.empty(m, n)
        t0 = time.perf_counter()
        torch.matmul(a, b, out=c)
        t = time.perf_counter() - t0
        calls = fixed if fixed > 0 else max(1, int(secs / t) + 1 if t > 0 else 1000)
        best = float('inf')
        for _ in range(reps):
            t0 = time.perf_counter()
            for _ in range(calls):
                torch.matmul(a, b, out=c)
            best = min(best, (time.perf_counter() - t0) / calls)
        print('RESULT torch %s %d %.2f' % (s, threads, 2.0 * m * n * k / best * 1e-9))
        sys.stdout.flush()
    return 0


if __name__ == '__main__':
    sys.exit(main())
