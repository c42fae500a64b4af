#!/usr/bin/env python3
"""bench.py - every sample end to end: its generated header's run() against
PyTorch eager on the same network, inputs and shapes, at 1 and 2 threads
(bench/README.md, "Samples end to end").  Run by bench/samples/run.sh,
which emits the headers and compiles the drivers first; this script runs
them, checks that run() and PyTorch agree, times PyTorch, and prints the
tables.

For each size set, sample and thread count T:
  1. the sample's driver (driver.c, built per sample: BIN/NAME.t1 without
     OpenMP, BIN/NAME.omp with -fopenmp, run with OMP_NUM_THREADS=T) fills
     the inputs with the samples' pseudo-random values (the weights scaled
     as PyTorch initialises them: samples() below), prepares, runs once as
     a warm-up, then times run() (best of at least REPS runs and of TIME
     seconds of them, at most 10,000), and writes the inputs and its outputs
     to WORK/SET-NAME/;
  2. PyTorch (nets.py) computes the same network on those inputs, with
     torch.set_num_threads(T) and OpenBLAS's threads set to T too (torch's
     matmul goes to OpenBLAS here, which set_num_threads does not reach);
     each output of each build must agree with PyTorch's within the
     tolerance below, and have its shape;
  3. PyTorch is timed the same way (warm-up, then best of ...) under
     torch.inference_mode().

Agreement: for every output, max |run - torch| <= TOL * max |torch| (TOL
1e-3 by default, float32: the error of a float32 sum of K terms grows with
K, and the largest sum here has 1.5 million terms), and both are finite at
the same places.  The table's "err" column is the largest such ratio.

The "others" column: the most CPU (in cores) that other processes used
during one of the row's measurements, from /proc/stat less this
benchmark's own CPU time (measurements under 0.5 s are not counted: the
kernel counts in ticks of 10 ms).  On this 2-core machine anything over
0.1 means the row, the 2-thread columns most, was measured beside other
work.  --idle S waits up to S seconds before each measurement for a
second in which the machine is under 5% busy.

Exit status: 0; 1 when an output disagrees or a driver fails; 2 for a
usage problem.
"""
import argparse
import ctypes
import math
import os
import shutil
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, '..', 'common'))
from load import Others  # noqa: E402  (bench/common/load.py)


def T(*dims):
    """A tensor input's shape: values uniform in [-0.5, 0.5)."""
    return ('t', tuple(dims), 1.0)


def W(*dims, fan):
    """A weight's shape: uniform in +-1 / sqrt(fan), as PyTorch initialises
    a Linear or Conv layer of fan-in fan (inputs x kernel size)."""
    return ('t', tuple(dims), 2.0 / math.sqrt(fan))


def D(*vals):
    """A dims input's values (no data)."""
    return ('d', tuple(vals), None)


def transformer_layer(b, n, d, h):
    return [T(b, n, d), D(h)] + [W(d, d, fan=d)] * 4


# Each sample: (name, the header's function, {set: (what, [input shapes])}).
# 'own' is the size of the sample's main.c (its first, where it shows
# several), 'real' a realistic one (batch 1; a transformer layer at d = 512
# over 256 tokens, images of 224 x 224 with the sample's channel counts),
# 'tiny' the TINY=1 smoke size.  A set a sample has not is left out.  The
# weights (W) are scaled as PyTorch initialises them, so that activations
# stay of order 1 through the layers and the recurrent networks are not
# chaotic (with weights in +-0.5, rnn's and lstm's 128 steps amplify the
# rounding differences to O(1): no tolerance could compare them).
def samples():
    def enc(b, n, d, h, f):
        return transformer_layer(b, n, d, h) + [T(d), T(d), W(d, f, fan=d), T(f), W(f, d, fan=f), T(d), T(d), T(d)]

    def lstm(n, b, d, k):
        return [T(n, b, d), T(b, k), T(b, k)] + [W(d, k, fan=d)] * 4 + [W(k, k, fan=k)] * 4 + [T(k)] * 4

    def rnn(n, b, i, k):
        return [T(b, k), T(b, k), T(n, b, i), W(i, k, fan=i), W(k, k, fan=k), T(k), W(i, k, fan=i), W(k, k, fan=k), T(k)]

    def mlp(n, i, h1, h2, o):
        return [T(n, i), W(i, h1, fan=i), T(h1), W(h1, h2, fan=h1), T(h2), W(h2, o, fan=h2), T(o)]

    def cnn(n, c, hw, k1, k2, classes):
        r = hw - 8  # two 5x5 valid convolutions
        return [T(n, c, hw, hw), W(k1, c, 5, 5, fan=c * 25), W(k2, k1, 5, 5, fan=k1 * 25), W(classes, k2, r, r, fan=k2 * r * r)]

    def transformer(n, d, a, v, f):
        return [T(n, d), T(), W(d, a, fan=d), W(d, a, fan=d), W(d, v, fan=d), W(v, d, fan=v), T(d), W(d, f, fan=d), T(f),
                W(f, d, fan=f), T(d)]

    def resnet(n, c, hw, k):
        return [T(n, c, hw, hw), W(k, c, 3, 3, fan=c * 9), W(k, k, 3, 3, fan=k * 9), W(k, c, 1, 1, fan=c)]

    def mobilenet(n, hw, k, s):
        return [T(n, 32, hw, hw), W(32, 1, 3, 3, fan=9), W(k, 32, 1, 1, fan=32), D(s, s)]

    def kws(n, t):
        return [T(n, 40, t), W(64, 40, 5, fan=200), W(64, 64, 3, fan=192), W(12, 64, 1, fan=64)]

    def unet(n, c, h, w, m):
        return [T(n, c, h, w), W(m, c, 3, 3, fan=c * 9), W(c, m, 3, 3, fan=m * 9)]

    def gpt(b, n, d, h, f):
        return ([T(b, n, d), T(d)] + [W(d, d, fan=d)] * 4 + [D(h), T(d), W(d, f, fan=d), W(d, f, fan=d),
                                                            W(f, d, fan=f)])

    def vit(b, p, c, d, h, f):
        return ([T(b, p, c), W(c, d, fan=c), T(1, 1, d), T(p + 1, d)] + [W(d, d, fan=d)] * 4 +
                [D(h), T(d), T(d), W(d, f, fan=d), T(f), W(f, d, fan=f), T(d), T(d), T(d)])

    return [
        ('attention', 'attention_attention', {
            'own': ('x [2, 10, 64], 8 heads', transformer_layer(2, 10, 64, 8)),
            'real': ('x [1, 256, 512], 8 heads', transformer_layer(1, 256, 512, 8)),
            'tiny': ('x [1, 4, 8], 2 heads', transformer_layer(1, 4, 8, 2))}),
        ('encoder', 'encoder_encoder', {
            'own': ('x [4, 128, 512], 8 heads, f 2048', enc(4, 128, 512, 8, 2048)),
            'real': ('x [1, 256, 512], 8 heads, f 2048', enc(1, 256, 512, 8, 2048)),
            'tiny': ('x [1, 4, 8], 2 heads, f 6', enc(1, 4, 8, 2, 6))}),
        ('softmax', 'softmax_softmax', {
            'own': ('x [10, 4, 16]', [T(10, 4, 16)]),
            'real': ('x [256, 8, 256]', [T(256, 8, 256)]),
            'tiny': ('x [3, 2, 4]', [T(3, 2, 4)])}),
        ('conv', 'conv_conv', {  # every size a constant of the program
            'own': ('x [4, 8, 1031, 263], f [8, 8, 8, 8]', [T(4, 8, 1031, 263), W(8, 8, 8, 8, fan=512)])}),
        ('lstm', 'lstm_lstm', {
            'own': ('x [10, 4, 8], hidden 16', lstm(10, 4, 8, 16)),
            'real': ('x [128, 16, 256], hidden 256', lstm(128, 16, 256, 256)),
            'tiny': ('x [3, 2, 3], hidden 4', lstm(3, 2, 3, 4))}),
        ('rnn', 'rnn_model', {
            'own': ('X [20, 4, 32], hidden 32', rnn(20, 4, 32, 32)),
            'real': ('X [128, 16, 256], hidden 256', rnn(128, 16, 256, 256)),
            'tiny': ('X [3, 2, 4], hidden 4', rnn(3, 2, 4, 4))}),
        ('mlp', 'mlp_mlp', {  # MNIST: the own size is a real one
            'own': ('x [64, 784] -> 256 -> 128 -> 10', mlp(64, 784, 256, 128, 10)),
            'tiny': ('x [2, 8] -> 4 -> 3 -> 2', mlp(2, 8, 4, 3, 2))}),
        ('cnn', 'cnn_cnn', {
            'own': ('x [8, 3, 32, 32] -> 16 -> 32 -> 10', cnn(8, 3, 32, 16, 32, 10)),
            'real': ('x [1, 3, 224, 224] -> 16 -> 32 -> 10', cnn(1, 3, 224, 16, 32, 10)),
            'tiny': ('x [1, 2, 12, 12] -> 3 -> 4 -> 2', cnn(1, 2, 12, 3, 4, 2))}),
        ('transformer', 'transformer_block', {
            'own': ('x [16, 64], qk/v 32, f 256', transformer(16, 64, 32, 32, 256)),
            'real': ('x [256, 512], qk/v 512, f 2048', transformer(256, 512, 512, 512, 2048)),
            'tiny': ('x [4, 8], qk/v 4, f 6', transformer(4, 8, 4, 4, 6))}),
        ('resnet_block', 'resnet_block_block', {
            'own': ('x [8, 64, 56, 56] -> 128', resnet(8, 64, 56, 128)),
            'real': ('x [1, 64, 224, 224] -> 128', resnet(1, 64, 224, 128)),
            'tiny': ('x [1, 2, 6, 6] -> 3', resnet(1, 2, 6, 3))}),
        ('mobilenet_block', 'mobilenet_block_sep', {
            'own': ('x [4, 32, 112, 112] -> 64, stride 1', mobilenet(4, 112, 64, 1)),
            'real': ('x [1, 32, 224, 224] -> 64, stride 1', mobilenet(1, 224, 64, 1)),
            'tiny': ('x [1, 32, 5, 5] -> 2, stride 2', mobilenet(1, 5, 2, 2))}),
        ('kws', 'kws_kws', {  # one second of audio: the own size is a real one
            'own': ('x [1, 40, 101]', kws(1, 101)),
            'tiny': ('x [1, 40, 8]', kws(1, 8))}),
        ('unet_step', 'unet_step_unet', {
            'own': ('x [2, 16, 128, 96], m 32', unet(2, 16, 128, 96, 32)),
            'real': ('x [1, 16, 224, 224], m 32', unet(1, 16, 224, 224, 32)),
            'tiny': ('x [1, 2, 4, 6], m 3', unet(1, 2, 4, 6, 3))}),
        ('gpt_block', 'gpt_block_gpt_block', {
            'own': ('x [2, 16, 64], 8 heads, f 176', gpt(2, 16, 64, 8, 176)),
            'real': ('x [1, 256, 512], 8 heads, f 1536', gpt(1, 256, 512, 8, 1536)),
            'tiny': ('x [1, 4, 8], 2 heads, f 6', gpt(1, 4, 8, 2, 6))}),
        ('vit_block', 'vit_block_vit_block', {
            'own': ('[4, 196, 768] -> d 192, 3 heads, f 768', vit(4, 196, 768, 192, 3, 768)),
            'real': ('[1, 196, 768] -> d 768, 12 heads, f 3072', vit(1, 196, 768, 768, 12, 3072)),
            'tiny': ('[1, 3, 5] -> d 4, 2 heads, f 6', vit(1, 3, 5, 4, 2, 6))}),
    ]


SETS = {
    'own': "the samples' own sizes (as in each main.c)",
    'real': 'realistic sizes (batch 1; transformer layers at d = 512 over 256 tokens, images of 224 x 224)',
    'tiny': 'the tiny size (TINY=1)',
}


def shape_arg(spec):
    kind, dims, scale = spec
    return '%s:%s%s' % (kind, ','.join(str(x) for x in dims), '' if scale in (None, 1.0) else '*%.9g' % scale)


class Threads:
    """torch's and OpenBLAS's thread counts, set together."""

    def __init__(self, torch):
        self.torch = torch
        self.openblas = None
        for lib in ('libopenblas.so.0', 'libblas.so.3'):
            try:
                so = ctypes.CDLL(lib)
                so.openblas_set_num_threads
                self.openblas = so
                break
            except (OSError, AttributeError):
                pass

    def set(self, n):
        self.torch.set_num_threads(n)
        if self.openblas is not None:
            self.openblas.openblas_set_num_threads(n)


def wait_idle(limit):
    """Wait up to limit seconds for a second in which the machine is less
    than 5% busy; True if it was."""
    deadline = time.monotonic() + limit
    while True:
        with Others() as o:
            time.sleep(1.0)
        if o.load is not None and o.load < 0.05 * (os.cpu_count() or 1):
            return True
        if o.load is None or time.monotonic() >= deadline:
            return False


def time_torch(fn, args, torch, min_reps, target, max_reps):
    with torch.inference_mode():
        t0 = time.perf_counter()
        out = fn(*args)
        first = time.perf_counter() - t0
        best, total, reps = None, 0.0, 0
        while reps < max_reps and (reps < min_reps or total < target):
            t0 = time.perf_counter()
            fn(*args)
            t = time.perf_counter() - t0
            total += t
            best = t if best is None or t < best else best
            reps += 1
    return (first if best is None else best), reps, out


def run_driver(binary, threads, shapes, work, tag, write_inputs, min_reps, target, max_reps):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    cmd = [binary, '-d', work, '-g', tag, '-t', str(target), '-m', str(min_reps), '-r', str(max_reps)]
    if write_inputs:
        cmd.append('-i')
    cmd += [shape_arg(s) for s in shapes]
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    line = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else '(no output, exit %d)' % p.returncode
    if p.returncode != 0 or not line.startswith('ok '):
        raise RuntimeError('%s: %s' % (os.path.basename(binary), line))
    f = line.split()
    r = {'workspace': int(f[2]), 'temps': float(f[4]), 'first': float(f[6]), 'best': float(f[8]),
         'reps': int(f[10]), 'outs': []}
    for o in f[12:]:
        rank, _, dims = o.partition(':')
        r['outs'].append(tuple(int(x) for x in dims.split(',')) if int(rank) else ())
    return r


def compare(c_out, t_out):
    """max |c - t| / max |t| over one output; None if they disagree in shape or finiteness."""
    if c_out.shape != t_out.shape:
        return None
    cf, tf = np.isfinite(c_out), np.isfinite(t_out)
    if not np.array_equal(cf, tf):
        return None
    if not np.all(cf):  # the same infinities and NaNs
        same = (c_out[~cf] == t_out[~cf]) | (np.isnan(c_out[~cf]) & np.isnan(t_out[~cf]))
        if not np.all(same):
            return None
    if c_out.size == 0 or not np.any(cf):
        return 0.0
    scale = float(np.max(np.abs(t_out[tf].astype(np.float64))))
    diff = float(np.max(np.abs(c_out[cf].astype(np.float64) - t_out[cf].astype(np.float64))))
    return diff / scale if scale > 0 else diff


def fmt_time(s):
    if s is None:
        return '-'
    ms = s * 1e3
    return '%.3f' % ms if ms < 10 else '%.1f' % ms if ms < 1000 else '%.0f' % ms


def fmt_bytes(n):
    if n < 1024:
        return '%d B' % n
    if n < 1024 * 1024:
        return '%.1f KiB' % (n / 1024)
    return '%.1f MiB' % (n / (1024 * 1024))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--list', action='store_true', help='print each sample and its function, and exit')
    ap.add_argument('--bin', help='the directory of the compiled drivers')
    ap.add_argument('--work', help='where the inputs and outputs are written (removed after)')
    ap.add_argument('--sets', default='own real', help='size sets: own real tiny')
    ap.add_argument('--threads', default='1 2')
    ap.add_argument('--samples', default='', help='only these samples (default: all)')
    ap.add_argument('--reps', type=int, default=3, help='timed runs at least (after the warm-up)')
    ap.add_argument('--time', type=float, default=1.0, help='timed runs until this many seconds of them')
    ap.add_argument('--max-reps', type=int, default=10000)
    ap.add_argument('--tol', type=float, default=1e-3)
    ap.add_argument('--keep', action='store_true', help='keep the inputs and outputs')
    ap.add_argument('--nets', default=os.path.join(HERE, 'nets.py'),
                    help='the PyTorch networks (default nets.py; the test gives wrong_nets.py too)')
    ap.add_argument('--idle', type=float, default=0,
                    help='before each measurement, wait up to this many seconds for an idle machine')
    args = ap.parse_args()
    if args.list:
        for name, fn, _ in samples():
            print(name, fn)
        return 0
    if not args.bin or not args.work:
        ap.error('--bin and --work are required')

    import importlib.util
    import torch
    spec = importlib.util.spec_from_file_location('nets', args.nets)
    nets = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(nets)
    threads = [int(t) for t in args.threads.split()]
    sets = args.sets.split()
    only = set(args.samples.split())
    table = [s for s in samples() if not only or s[0] in only]
    if only - {s[0] for s in table} or any(s not in SETS for s in sets) or not threads:
        print('bench.py: unknown sample or set, or no thread count', file=sys.stderr)
        return 2
    th = Threads(torch)
    tiny = sets == ['tiny']
    status = 0
    busy_starts = [0]

    for set_name in sets:
        print()
        print('Samples end to end, %s:' % SETS[set_name])
        if tiny:
            print('one run each, no warm-up; times printed, not judged')
        else:
            print('ms, best of at least %d runs and %.1f s after a warm-up (each side); ratio = run() / PyTorch'
                  % (args.reps, args.time))
        cols = ['%-16s %-40s' % ('sample', 'size')]
        for t in threads:
            cols.append('%10s %10s %7s' % ('run() %dT' % t, 'torch %dT' % t, 'ratio'))
        cols.append('%11s %8s %6s' % ('workspace', 'err', 'others'))
        print(' '.join(cols))
        for name, fn, sizes in table:
            if set_name not in sizes:
                if set_name == 'tiny':
                    print('%-16s (its sizes are constants of the program: not run at the tiny size)' % name)
                continue
            what, shapes = sizes[set_name]
            work = os.path.join(args.work, '%s-%s' % (set_name, name))
            shutil.rmtree(work, ignore_errors=True)
            os.makedirs(work)
            min_reps, max_reps = (0, 0) if tiny else (args.reps, args.max_reps)
            row = ['%-16s %-40s' % (name, what)]
            loads = []

            def measure(step, *a):
                if args.idle > 0 and not wait_idle(args.idle):
                    busy_starts[0] += 1
                with Others() as o:
                    r = step(*a)
                if o.load is not None:
                    loads.append(o.load)
                return r

            try:
                c = {}
                for i, t in enumerate(threads):
                    binary = os.path.join(args.bin, '%s.%s' % (name, 't1' if t == 1 else 'omp'))
                    c[t] = measure(run_driver, binary, t, shapes, work, 't%d' % t, i == 0, min_reps, args.time,
                                   max_reps)
                # PyTorch on the same inputs
                tins = []
                for i, (kind, dims, _) in enumerate(shapes):
                    if kind == 'd':
                        tins.append(dims)
                    else:
                        a = np.fromfile(os.path.join(work, 'in%d.bin' % i), dtype=np.float32).reshape(dims)
                        tins.append(torch.from_numpy(a))
                net = getattr(nets, name)
                tt = {}
                ref = None
                for t in threads:
                    th.set(t)
                    best, reps, out = measure(time_torch, net, tins, torch, min_reps, args.time, max_reps)
                    tt[t] = best
                    if ref is None:
                        ref = [o.contiguous().numpy() for o in out]
                err = 0.0
                bad = []
                for t in threads:
                    outs = c[t]['outs']
                    if len(outs) != len(ref):
                        bad.append('%dT: %d outputs, PyTorch %d' % (t, len(outs), len(ref)))
                        continue
                    for o, shape in enumerate(outs):
                        a = np.fromfile(os.path.join(work, 'out%d.t%d.bin' % (o, t)), dtype=np.float32).reshape(shape)
                        e = compare(a, ref[o])
                        if e is not None:
                            err = max(err, e)
                        if e is None or e > args.tol:
                            bad.append('%dT output %d: %s' % (
                                t, o, 'shape %s / %s or non-finite values differ' % (shape, ref[o].shape)
                                if e is None else 'err %.2e' % e))
                for t in threads:
                    ratio = c[t]['best'] / tt[t] if tt[t] > 0 else float('inf')
                    row.append('%10s %10s %6.1fx' % (fmt_time(c[t]['best']), fmt_time(tt[t]), ratio))
                row.append('%11s %8.1e %6s' % (fmt_bytes(c[threads[0]]['workspace']), err,
                                               '%.2f' % max(loads) if loads else '-'))
                print(' '.join(row))
                for b in bad:
                    print('  DISAGREE %s %s (tolerance %.0e): %s' % (name, set_name, args.tol, b))
                    status = 1
            except (RuntimeError, OSError, ValueError) as e:
                print(' '.join(row) + ' FAILED: %s' % e)
                status = 1
            sys.stdout.flush()
            if not args.keep:
                shutil.rmtree(work, ignore_errors=True)
    print()
    print('others: the most cores that other processes kept busy during one of the row\'s measurements '
          '(/proc/stat less this benchmark\'s CPU time)')
    if args.idle > 0:
        print('%d measurements started with the machine still busy after waiting %.0f s for it to be idle'
              % (busy_starts[0], args.idle))
    print('agreement: every output of run() within %.0e * max|PyTorch| of PyTorch: %s'
          % (args.tol, 'yes' if status == 0 else 'NO (see DISAGREE / FAILED above)'))
    return status


if __name__ == '__main__':
    sys.exit(main())
