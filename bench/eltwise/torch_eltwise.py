#!/usr/bin/env python3
"""torch_eltwise.py - PyTorch's side of bench/eltwise/run.sh: the same
operations as bench.c's on x : f32 [rows, cols], timed, and checked.

    torch_eltwise.py THREADS [-t SECONDS] [-r REPS] [-n CALLS] [-c COLS] [-d DIR] SIZE...

torch.set_num_threads(THREADS); SIZE as bench.c's (x's bytes, K or M),
rows = SIZE / 4 / COLS.  The operations, in PyTorch's eager mode at its fastest (into a
preallocated y where PyTorch allows it, so that no call allocates and
faults in fresh pages; a chain is one pass over memory per operator):
  memcpy     y.copy_(x)
  biasrelu   torch.mul(x, a, out=y); y.add_(b); y.relu_()     (three passes)
  expnorm    torch.sub(x, m, out=y); y.exp_(); y.div_(s)       (three passes)
  softmax    torch.softmax(x, -1, out=y)
  layernorm  F.layer_norm(x, (cols,), g, b, eps=1e-5)  (allocates its result)
Inputs: bench.c's, read from DIR (SIZE.x, .a, .b, .m, .s, .g) where they
are there, else x uniform in [-4, 4] and the others as bench.c makes them.
Each measurement is at least -t seconds (or -n calls), best of -r; prints

    RESULT torch-IMPL SIZE THREADS ms_per_call others

(others: the cores other processes kept busy meanwhile, as bench.c's).

Checks: each PyTorch result against the same formula in float64 (max
|diff| <= 1e-4 * max |ref|), and, where DIR has bench.c's outputs at this
size and thread count (SIZE.IMPL.THREADS.out), each of them against
PyTorch's within the same tolerance:

    AGREE|DISAGREE IMPL THREADS SIZE max|diff| / max|ref|

exit 1 on a disagreement.  BENCH_PERTURB=torch perturbs PyTorch's result
by 1e-3 of its maximum at one element before the checks (the test's
liveness check).  Without PyTorch: says so, exits 0.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common'))
from torch_side import best_of, config, parse_args, perturb, rel_diff, start  # noqa: E402  (bench/common/torch_side.py)

TOL = 1e-4
IMPLS = ['memcpy', 'biasrelu', 'expnorm', 'softmax', 'layernorm']


def parse_size(s):
    if s[-1] in 'kK':
        return int(s[:-1]) << 10
    if s[-1] in 'mM':
        return int(s[:-1]) << 20
    return int(s)


def main():
    args = parse_args(sys.argv[1:])
    threads, cols, data = args.threads, args.cols, args.data
    torch = start(threads, 'numpy')
    if torch is None:
        return 0
    import numpy as np
    import torch.nn.functional as F
    print('torch: %s, CPU capability %s, %d threads' % (torch.__version__, config(torch, 'cpu'), threads))
    status = 0
    for arg in args.operands:
        rows = parse_size(arg) // 4 // cols

        def load(name, shape, make):
            p = os.path.join(data, '%s.%s' % (arg, name)) if data else None
            if p and os.path.exists(p):
                return torch.from_numpy(np.fromfile(p, dtype=np.float32).reshape(shape))
            return make()

        x = load('x', (rows, cols), lambda: torch.rand(rows, cols) * 8 - 4)
        a = load('a', (cols,), lambda: torch.rand(cols) + 0.5)
        b = load('b', (cols,), lambda: torch.rand(cols) - 0.5)
        g = load('g', (cols,), lambda: torch.rand(cols) + 0.5)
        m = load('m', (rows, 1), lambda: x.max(dim=1, keepdim=True).values)
        s = load('s', (rows, 1), lambda: torch.exp(x.double() - m.double()).sum(dim=1, keepdim=True).float())
        y = torch.empty(rows, cols)
        x64 = x.double()
        def biasrelu():
            torch.mul(x, a, out=y)
            y.add_(b)
            return y.relu_()

        def expnorm():
            torch.sub(x, m, out=y)
            y.exp_()
            return y.div_(s)

        fns = {
            'memcpy': (lambda: y.copy_(x), lambda: x64),
            'biasrelu': (biasrelu, lambda: torch.relu(x64 * a.double() + b.double())),
            'expnorm': (expnorm, lambda: torch.exp(x64 - m.double()) / s.double()),
            'softmax': (lambda: torch.softmax(x, -1, out=y), lambda: torch.softmax(x64, -1)),
            'layernorm': (lambda: F.layer_norm(x, (cols,), g, b, eps=1e-5),
                          lambda: F.layer_norm(x64, (cols,), g.double(), b.double(), eps=1e-5)),
        }
        for impl in IMPLS:
            f, f64 = fns[impl]
            with torch.no_grad():
                out = f().double().numpy().ravel()
                if impl != 'memcpy':
                    out = perturb(out)
                ref = f64().numpy().ravel()
                rmax = np.abs(ref).max()
                d = np.abs(out - ref).max() / rmax
                if not d <= TOL:
                    print('DISAGREE torch-%s %d %s %.3g (PyTorch against float64)' % (impl, threads, arg, d))
                    status = 1
                if data:
                    p = os.path.join(data, '%s.%s.%d.out' % (arg, impl, threads))
                    if os.path.exists(p):
                        d = rel_diff(p, out)
                        ok = d <= TOL
                        print('%s %s %d %s %.3g' % ('AGREE' if ok else 'DISAGREE', impl, threads, arg, d))
                        if not ok:
                            status = 1
                best, load = best_of(f, args.reps, args.secs, args.fixed)
            print('RESULT torch-%s %s %d %.6g %.2f' % (impl, arg, threads, best * 1e3, load))
            sys.stdout.flush()
    return status


if __name__ == '__main__':
    sys.exit(main())
