"""torch_side.py - what the PyTorch side of the C drivers shares
(bench/conv/torch_conv.py, bench/eltwise/torch_eltwise.py,
bench/gemm/torch_bench.py): their command line, PyTorch started on the
thread count and seeded, pieces of its configuration for the line each
script prints, the timing loop (best_of, the twin of bench/common/bench.h's
bench_warmup and bench_best), and the comparison of a C driver's raw
float32 output with PyTorch's.  numpy and torch are imported only in
start() and the functions that need them, so that a script without them
can say so and exit 0."""
import argparse
import os
import re
import sys
import time

from load import Others  # bench/common/load.py (this folder is on the scripts' path)

# option: (attribute, type, default); a script ignores those it does not use
OPTIONS = {
    '-t': ('secs', float, 0.2),   # seconds a measurement lasts at least
    '-r': ('reps', int, 5),       # measurements, the best kept
    '-n': ('fixed', int, 0),      # calls per measurement (0: enough for -t)
    '-c': ('cols', int, 1024),    # eltwise: the last axis
    '-d': ('data', str, None),    # the C drivers' inputs and outputs
}


def parse_args(argv):
    """THREADS [-t SECONDS] [-r REPS] [-n CALLS] [-c COLS] [-d DIR] OPERAND...:
    a namespace of threads, the options' attributes (OPTIONS) and operands
    (an option not in OPTIONS is skipped with its value)."""
    argv = list(argv)
    args = argparse.Namespace(threads=int(argv.pop(0)))
    for name, _, default in OPTIONS.values():
        setattr(args, name, default)
    while argv and argv[0].startswith('-'):
        opt, val = argv.pop(0), argv.pop(0)
        if opt in OPTIONS:
            name, conv, _ = OPTIONS[opt]
            setattr(args, name, conv(val))
    args.operands = argv
    return args


def start(threads, *modules):
    """torch, imported with modules (e.g. 'numpy'), set to threads threads
    and seeded 1; None, after a line saying why, where one does not import
    (the script then exits 0: no PyTorch, no comparison)."""
    import importlib
    try:
        for m in modules:
            importlib.import_module(m)
        import torch
    except ImportError as e:
        print('torch: not available (%s in %s)' % (e, sys.executable))
        return None
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    return torch


# what the scripts print of torch.__config__.show()
CONFIG = {'cpu': r'CPU capability usage: (\w+)', 'blas': r'BLAS_INFO=(\w+)', 'onednn': r'MKL-DNN (v[\w.]+)'}


def config(torch, what, missing='?'):
    """PyTorch's CPU capability ('cpu'), BLAS_INFO ('blas') or oneDNN
    version ('onednn'), from torch.__config__.show(); missing where it does
    not say."""
    m = re.search(CONFIG[what], torch.__config__.show())
    return m.group(1) if m else missing


def best_of(f, reps, secs, fixed):
    """f's best time a call over reps runs of `calls` calls each (fixed if
    over 0, else enough for secs, from one timed call), and the cores others
    kept busy meanwhile (-1.0 when unknown)."""
    t0 = time.perf_counter()
    f()
    t = time.perf_counter() - t0
    calls = fixed if fixed > 0 else max(1, int(secs / t) + 1 if t > 0 else 1000)
    best = float('inf')
    with Others() as others:
        for _ in range(reps):
            t0 = time.perf_counter()
            for _ in range(calls):
                f()
            best = min(best, (time.perf_counter() - t0) / calls)
    return best, -1.0 if others.load is None else others.load


def perturb(y):
    """y (a flat float64 array); with BENCH_PERTURB=torch in the
    environment, a copy with one element off by 1e-3 of max |y| (the tests'
    liveness check: the comparisons must then fail)."""
    if os.environ.get('BENCH_PERTURB') != 'torch':
        return y
    y = y.copy()
    y[len(y) // 2] += 1e-3 * abs(y).max()
    return y


def rel_diff(path, y):
    """max |z - y| / max |y| of z, a C driver's raw float32 output in path,
    against PyTorch's y (flat, float64): max |z - y| where y is all 0, inf
    where their sizes differ, NaN where z has one."""
    import numpy as np
    z = np.fromfile(path, dtype=np.float32).astype(np.float64)
    if z.shape != y.shape:
        return float('inf')
    d = np.abs(z - y).max()
    ymax = np.abs(y).max()
    return d / ymax if ymax > 0 else d
