#!/usr/bin/env python3
"""torch_bench.py - PyTorch's f32 matmul for bench/gemm/run.sh.

    torch_bench.py THREADS [-t SECONDS] [-r REPS] [-n CALLS] MxNxK...

torch.set_num_threads(THREADS); row-major operands uniform in [-1, 1];
each measurement at least -t seconds (or -n calls), best of -r; prints
`RESULT torch MxNxK THREADS GFLOP/s` per shape (bench.c's format), and a
line naming PyTorch and its BLAS.  Without PyTorch, says so and exits 0.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common'))
from torch_side import best_of, config, parse_args, start  # noqa: E402  (bench/common/torch_side.py)


def main():
    args = parse_args(sys.argv[1:])
    threads = args.threads
    torch = start(threads)
    if torch is None:
        return 0
    print('torch: %s, BLAS_INFO=%s, CPU capability %s, %d threads' %
          (torch.__version__, config(torch, 'blas'), config(torch, 'cpu'), threads))
    for s in args.operands:
        m, n, k = (int(x) for x in s.split('x'))
        a = torch.rand(m, k) * 2 - 1
        b = torch.rand(k, n) * 2 - 1
        c = torch.empty(m, n)
        best, _ = best_of(lambda: torch.matmul(a, b, out=c), args.reps, args.secs, args.fixed)
        print('RESULT torch %s %d %.2f' % (s, threads, 2.0 * m * n * k / best * 1e-9))
        sys.stdout.flush()
    return 0


if __name__ == '__main__':
    sys.exit(main())
