#!/usr/bin/env python3
"""torch_conv.py - PyTorch's side of bench/conv/run.sh: the same operators
on the same inputs, timed, and every output of bench.c compared with it.

    torch_conv.py THREADS [-t SECONDS] [-r REPS] [-n CALLS] [-d DIR] CASE@SIZE...

torch.set_num_threads(THREADS).  The cases are bench.c's (the table below
must say the same): torch.nn.functional.conv2d (padding 1; groups = 144
for dw3x3), max_pool2d and avg_pool2d (2x2, stride 2).  The inputs are
bench.c's, read from DIR (CASE_SIZE.x, CASE_SIZE.w, raw float32) where
they are there, else uniform random.  Each measurement is at least -t
seconds (or -n calls), best of -r; prints

    RESULT torch CASE SIZE THREADS ms_per_call others

(others: the cores other processes kept busy meanwhile, as bench.c's)
and, once per case, the ATen operator PyTorch dispatched to (its
profiler's innermost convolution or pooling op: mkldnn_convolution is
oneDNN, _slow_conv2d_forward is im2col + BLAS).  Then every output of
bench.c in DIR at the same thread count (CASE_SIZE.IMPL.THREADS.out) is
compared with PyTorch's:

    AGREE|DISAGREE IMPL THREADS CASE SIZE max|out - torch| / max|torch|

within 1e-4 (bench/README.md says why); exit 1 on a disagreement.  With
BENCH_PERTURB=torch in the environment PyTorch's output is perturbed by
1e-3 of its maximum at one element before the comparison, so that the
test sees the check fail.  Without PyTorch: says so, exits 0.
"""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common'))
from torch_side import best_of, config, parse_args, perturb, rel_diff, start  # noqa: E402  (bench/common/torch_side.py)

# name: (op, in channels, out channels, window, groups, padding, stride): bench.c's table
CASES = {
    'conv3x3': ('conv', 64, 64, 3, 1, 1, 1),
    'dw3x3': ('conv', 144, 144, 3, 144, 1, 1),
    'conv1x1': ('conv', 64, 256, 1, 1, 0, 1),
    'maxpool': ('max', 64, 64, 2, 1, 0, 2),
    'avgpool': ('avg', 64, 64, 2, 1, 0, 2),
}
TOL = 1e-4


def blas_core():
    """The kernel OpenBLAS chose, where libblas.so.3 is OpenBLAS (PyTorch's
    im2col + GEMM path calls it: the 1x1 conv on one thread)."""
    import ctypes
    try:
        f = ctypes.CDLL('libblas.so.3').openblas_get_corename
    except (OSError, AttributeError):
        return 'not OpenBLAS'
    f.restype = ctypes.c_char_p
    return 'OpenBLAS ' + f().decode()


def main():
    args = parse_args(sys.argv[1:])
    threads, data = args.threads, args.data
    torch = start(threads, 'numpy')
    if torch is None:
        return 0
    import numpy as np
    import torch.nn.functional as F
    print('torch: %s, oneDNN %s, BLAS_INFO=%s (libblas.so.3: %s), CPU capability %s, %d threads' %
          (torch.__version__, config(torch, 'onednn', '-'), config(torch, 'blas'), blas_core(),
           config(torch, 'cpu'), threads))
    status = 0
    for arg in args.operands:
        name, size = arg.split('@')
        size = int(size)
        op, c, k, r, groups, pad, stride = CASES[name]
        xp = os.path.join(data, '%s_%d.x' % (name, size)) if data else None
        wp = os.path.join(data, '%s_%d.w' % (name, size)) if data else None
        if xp and os.path.exists(xp):
            x = torch.from_numpy(np.fromfile(xp, dtype=np.float32).reshape(1, c, size, size))
        else:
            x = torch.rand(1, c, size, size) * 2 - 1
        if op == 'conv':
            if wp and os.path.exists(wp):
                w = torch.from_numpy(np.fromfile(wp, dtype=np.float32).reshape(k, c // groups, r, r))
            else:
                w = (torch.rand(k, c // groups, r, r) * 2 - 1) / (c // groups * r * r) ** 0.5

            def f():
                return F.conv2d(x, w, padding=pad, stride=stride, groups=groups)
        elif op == 'max':
            def f():
                return F.max_pool2d(x, r, stride=stride, padding=pad)
        else:
            def f():
                return F.avg_pool2d(x, r, stride=stride, padding=pad)
        with torch.no_grad():
            y = f()
            with torch.autograd.profiler.profile() as prof:
                f()
            ops = [e.name for e in prof.function_events
                   if re.search(r'conv|pool', e.name) and e.name not in ('aten::conv2d', 'aten::convolution',
                                                                          'aten::_convolution')]
            print('torch: %s at %d, %d threads, runs %s' % (name, size, threads, ' > '.join(ops) or '?'))
            best, load = best_of(f, args.reps, args.secs, args.fixed)
        print('RESULT torch %s %d %d %.6g %.2f' % (name, size, threads, best * 1e3, load))
        sys.stdout.flush()
        if not data:
            continue
        y = perturb(y.numpy().astype(np.float64).ravel())
        for out in sorted(glob.glob(os.path.join(data, '%s_%d.*.%d.out' % (name, size, threads)))):
            impl, thr = os.path.basename(out).split('.')[1:3]
            rel = rel_diff(out, y)
            ok = rel <= TOL   # NaN fails
            print('%s %s %s %s %d %.3g' % ('AGREE' if ok else 'DISAGREE', impl, thr, name, size, rel))
            if not ok:
                status = 1
    return status


if __name__ == '__main__':
    sys.exit(main())
