#!/usr/bin/env python3
"""fast.py - the fast f32 matrix products of runtime/fast/ (gemm.c's
axon__sgemm, matmul.c's axon__f_matmul and axon__f_einsum) against NumPy and
against the reference kernels (README.md in this directory).

    fast.py --driver RUN_FAST [--seed S] [--rounds R] [--threads 1,2] [--blas]

Generates random calls (sizes 0, 1 and every tile and block edge of the
driver's configuration, `run_fast --config`; strides transposed, sliced,
reversed, broadcast; accumulate on and off), runs them through the driver
once per thread count of --threads (OMP_NUM_THREADS), and checks for each:

  - every element of the result view within the tolerance of NumPy's
    float64 product of the same float32 inputs, and of the reference's;
  - every element of the output buffer outside the view, bit for bit as it
    was; the inputs unchanged and the canaries around every buffer (the
    scratch included) intact (the driver's CANARY);
  - the results of every thread count bit for bit the same (not with
    --blas: the driver was built with -DAXON_USE_CBLAS, OpenBLAS's
    results are only checked within the tolerance).

The tolerance: the fast path sums k products in float32 (fused
multiply-adds, in blocks of Kc whose partial sums are added to c, and
products over a summed axis that no strided axis reads added to each
other), so against the exact sum it errs by at most about k roundings of a
partial sum bounded by sum |a| |b|:

    |fast - exact| <= (k + 4) * eps * (sum_p |a[i, p]| |b[p, j]| + |c0|)

with eps = 2^-23 (float32's epsilon; the +4 covers the accumulated c0 and
the factor of a label of neither operand), and the reference (double,
rounded once) is within eps / 2 of the exact result.  Prints one FAIL line
per disagreement and ends with

    fast: N cases (sgemm A, matmul B, einsum C), F failed
"""
import argparse
import os
import subprocess
import sys

import numpy as np

EPS = 2.0 ** -23


def config(driver):
    out = subprocess.run([driver, '--config'], check=True, capture_output=True, text=True).stdout.split()
    mr, nr, mc, kc, nc, vb, threads = (int(x) for x in out)
    return dict(MR=mr, NR=nr, MC=mc, KC=kc, NC=nc, VB=vb, threads=threads)


# ---- views -------------------------------------------------------------------------


def make_view(rng, dims, is_out, order=None):
    """A strided view of the given dims in a buffer of its own: a permuted
    layout now and then (a transpose), padding between rows (a slice),
    reversed axes (negative strides), broadcast axes (stride 0, inputs
    only), any stride on a unit axis.  Returns (nelem, offset, strides)."""
    rank = len(dims)
    if order is None:
        order = list(range(rank))
        if rng.random() < 0.35:
            rng.shuffle(order)
    order = list(order)
    strides = [0] * rank
    cur = 1 if rng.random() < 0.9 else 2
    for ax in reversed(order):
        strides[ax] = cur
        pad = int(rng.integers(1, 5)) if rng.random() < 0.2 else 0
        cur *= max(dims[ax], 1) + pad
    for ax in range(rank):
        if dims[ax] == 1 and rng.random() < 0.3:
            strides[ax] = int(rng.integers(-5, 50))
        elif not is_out and rng.random() < 0.08:
            strides[ax] = 0
        elif rng.random() < 0.12:
            strides[ax] = -strides[ax]
    if any(d == 0 for d in dims):
        return int(rng.integers(0, 4)), 0, strides
    lo = sum(min(0, s * (d - 1)) for d, s in zip(dims, strides))
    hi = sum(max(0, s * (d - 1)) for d, s in zip(dims, strides))
    off = -lo + int(rng.integers(0, 4))
    nel = off + hi + 1 + int(rng.integers(0, 4))
    return nel, off, strides


def positions(dims, off, strides):
    """The buffer index of every element of the view, shaped as it."""
    idx = np.full(tuple(dims), off, dtype=np.int64)
    for ax, (d, s) in enumerate(zip(dims, strides)):
        shape = [1] * len(dims)
        shape[ax] = d
        idx = idx + (np.arange(d, dtype=np.int64) * s).reshape(shape)
    return idx


class Case:
    def __init__(self, kind, acc=0, nlabels=0, ld=(), nops=2, factor=1, spec=None, salign=0):
        self.kind = kind
        self.acc = acc
        self.nlabels = nlabels
        self.ld = list(ld)
        self.nops = nops
        self.factor = factor
        self.spec = spec
        self.salign = salign
        self.views = []       # (dims, offset, strides, labels)
        self.bufs = []

    def add(self, rng, dims, labels, is_out, order=None):
        nel, off, strides = make_view(rng, dims, is_out, order)
        self.views.append((list(dims), off, strides, list(labels)))
        buf = rng.uniform(-1.0, 1.0, nel).astype(np.float32)
        if is_out and not self.acc and rng.random() < 0.5:
            buf[:] = np.nan     # not read: a product that reads c unasked gives NaN
        self.bufs.append(buf)

    def text(self):
        parts = [self.kind, str(self.acc), str(self.salign), str(self.nlabels)]
        parts += [str(x) for x in self.ld]
        parts.append(str(self.nops))
        for (dims, off, strides, labels), buf in zip(self.views, self.bufs):
            parts += [str(len(buf)), str(off), str(len(dims))]
            parts += [str(x) for x in dims] + [str(x) for x in strides] + [str(x) for x in labels]
        return ' '.join(parts) + '\n'

    def data(self):
        return b''.join(b.astype('<f4').tobytes() for b in self.bufs)

    def operand(self, t):
        dims, off, strides, _ = self.views[t]
        if any(d == 0 for d in dims):
            return np.zeros(dims, dtype=np.float64)
        return self.bufs[t].astype(np.float64)[positions(dims, off, strides)]

    def expected(self):
        """(exact, bound of sum |a||b| (+ |c0|), number of summed terms)."""
        a, b = self.operand(0), self.operand(1)
        c0 = self.operand(2) if self.acc else None
        if self.kind in ('sgemm', 'matmul'):
            k = a.shape[-1]
            exact = np.matmul(a, b) if k > 0 else np.zeros(self.views[2][0])
            bound = np.matmul(np.abs(a), np.abs(b)) if k > 0 else np.zeros(self.views[2][0])
        else:
            k = self.ksum
            if self.nops == 1:
                exact = np.einsum(self.spec, a)
                bound = np.einsum(self.spec, np.abs(a))
            else:
                exact = np.einsum(self.spec, a, b)
                bound = np.einsum(self.spec, np.abs(a), np.abs(b))
            exact = exact * self.factor
            bound = bound * self.factor
            exact = np.broadcast_to(exact, self.views[2][0])
            bound = np.broadcast_to(bound, self.views[2][0])
        if c0 is not None:
            exact = exact + c0
            bound = bound + np.abs(c0)
        return exact, bound, k


# ---- the cases --------------------------------------------------------------------


def sizes(rng, cfg, budget):
    """m, n, k: each an edge of the tiles or blocks (or small and random),
    at most one of them large, the product within budget."""
    MR, NR, MC, KC, NC = cfg['MR'], cfg['NR'], cfg['MC'], cfg['KC'], cfg['NC']
    small = {
        'm': [0, 1, 2, MR - 1, MR, MR + 1, 2 * MR - 1, 2 * MR + 1, 3 * MR],
        'n': [0, 1, 2, NR - 1, NR, NR + 1, 2 * NR - 1, 2 * NR + 1, 3 * NR],
        'k': [0, 1, 2, 3, 7, 16, 17],
    }
    large = {
        'm': [MC - 1, MC, MC + 1, 2 * MC, 2 * MC + 1],
        'n': [NC - 1, NC, NC + 1],
        'k': [KC - 1, KC, KC + 1, 2 * KC, 2 * KC + 1],
    }
    while True:
        big = rng.choice(['m', 'n', 'k', '', '', ''])
        v = {}
        for d in 'mnk':
            if d == big:
                v[d] = int(rng.choice(large[d]))
            elif rng.random() < 0.7:
                v[d] = int(rng.choice(small[d]))
            else:
                v[d] = int(rng.integers(1, 70))
        if v['m'] * v['n'] * v['k'] <= budget:
            return v['m'], v['n'], v['k']


def gen_sgemm(rng, cfg, budget):
    m, n, k = sizes(rng, cfg, budget)
    c = Case('sgemm', acc=int(rng.random() < 0.5), salign=int(rng.choice([0, 0, 4, 36])))
    order = None
    if rng.random() < 0.15:
        # a few long dot products (gemm.c's axon__gemm_dots): m n <= 128,
        # k >= 256 (and at the edge), a's rows and b's columns contiguous
        m, n = int(rng.integers(1, 13)), int(rng.integers(1, 11))
        k = int(rng.choice([255, 256, 257, 2 * cfg['KC'] + 1, int(rng.integers(256, 3000))]))
        order = ([0, 1], [1, 0])
    c.add(rng, [m, k], [0, 0], False, order and order[0])
    c.add(rng, [k, n], [0, 0], False, order and order[1])
    c.add(rng, [m, n], [0, 0], True)
    return c


def gen_matmul(rng, cfg, budget):
    m, n, k = sizes(rng, cfg, budget // 4)
    nb = int(rng.choice([0, 1, 1, 2, 3]))
    batch = [int(rng.choice([0, 1, 2, 3, 5])) if rng.random() < 0.9 else 1 for _ in range(nb)]
    while nb and np.prod(batch) * m * n * k > budget:
        batch = [max(1, d // 2) for d in batch]
    if rng.random() < 0.3 and nb:
        # linear: x [s, 1, k] by a weight broadcast over s, out [s, 1, n]
        m = 1
    c = Case('matmul', salign=int(rng.choice([0, 4])))
    c.add(rng, batch + [m, k], [0] * (nb + 2), False)
    c.add(rng, batch + [k, n], [0] * (nb + 2), False)
    # a weight broadcast over the batch (linear), or an operand so
    for t in (0, 1):
        if nb and rng.random() < 0.35:
            c.views[t][2][:nb] = [0] * nb
    c.add(rng, batch + [m, n], [0] * (nb + 2), True)
    return c


LETTERS = 'abcdefghijklmnopqrstuvwxyz'


def gen_einsum(rng, cfg, budget):
    """Two operands (now and then one): labels in batch, row, col and sum
    groups, a label of one operand only or of neither now and then, each
    operand's and out's axes in a random order."""
    nops = 1 if rng.random() < 0.08 else 2
    groups = ['batch', 'row', 'col', 'sum', 'sum', 'row', 'col', 'aonly', 'bonly', 'neither', 'outonly']
    while True:
        nl = int(rng.integers(1, 7))
        kinds = [str(rng.choice(groups[:7] if rng.random() < 0.7 else groups)) for _ in range(nl)]
        if nops == 1:
            kinds = [x if x in ('row', 'aonly', 'neither') else 'row' for x in kinds]
        dims = []
        for x in kinds:
            r = rng.random()
            if r < 0.1:
                dims.append(int(rng.choice([0, 1])))
            elif r < 0.25:
                dims.append(int(rng.choice([cfg['MR'] + 1, cfg['NR'] + 1, cfg['MR'] - 1])))
            else:
                dims.append(int(rng.integers(1, 9)))
        work = 1
        for d in dims:
            work *= max(d, 1)
        if work <= budget // 4 and sum(1 for x in kinds if x != 'neither') <= 2 * 6:
            break
    la = [i for i, x in enumerate(kinds) if x in ('batch', 'row', 'sum', 'aonly')]
    lb = [i for i, x in enumerate(kinds) if x in ('batch', 'col', 'sum', 'bonly')]
    lo = [i for i, x in enumerate(kinds) if x in ('batch', 'row', 'col', 'outonly')]
    if nops == 1:
        lb = []
        lo = [i for i in lo if kinds[i] != 'outonly']
    if len(la) > 6 or len(lb) > 6 or len(lo) > 6:
        return gen_einsum(rng, cfg, budget)
    for lst in (la, lb, lo):
        rng.shuffle(lst)
    factor = 1
    for i, x in enumerate(kinds):
        if x == 'neither':
            factor *= dims[i]
    ksum = 1
    for i, x in enumerate(kinds):
        if x in ('sum', 'aonly', 'bonly', 'neither'):
            ksum *= dims[i]
    nlabels = nl + int(rng.integers(0, 2))   # now and then a label not used at all (size 1)
    ld = dims + [1] * (nlabels - nl)
    L = LETTERS
    spec_in = [''.join(L[i] for i in la)]
    if nops == 2:
        spec_in.append(''.join(L[i] for i in lb))
    # NumPy cannot sum a label of out alone: out-only labels broadcast the result
    lo_np = [i for i in lo if kinds[i] != 'outonly']
    spec = ','.join(spec_in) + '->' + ''.join(L[i] for i in lo_np)
    c = Case('einsum', nlabels=nlabels, ld=ld, nops=nops, factor=factor, spec=spec,
             salign=int(rng.choice([0, 4])))
    c.ksum = ksum
    c.lo_np = lo_np
    c.lo = lo
    c.add(rng, [dims[i] for i in la], la, False)
    c.add(rng, [dims[i] for i in lb], lb, False)
    c.add(rng, [dims[i] for i in lo], lo, True)
    return c


def expected(c):
    if c.kind != 'einsum' or c.lo == c.lo_np:
        return c.expected()
    # out-only labels: compute without them, then broadcast into out's order
    a, b = c.operand(0), c.operand(1)
    ops = [a] if c.nops == 1 else [a, b]
    e = np.einsum(c.spec, *ops) * c.factor
    s = np.einsum(c.spec, *[np.abs(x) for x in ops]) * c.factor
    # e's axes are c.lo_np in order; insert unit axes for the others
    shape = [c.ld[l] if l in c.lo_np else 1 for l in c.lo]
    # lo_np is lo without those labels, in the same order: a reshape
    e = e.reshape(shape)
    s = s.reshape(shape)
    out_dims = c.views[2][0]
    return np.broadcast_to(e, out_dims), np.broadcast_to(s, out_dims), c.ksum


# ---- running -------------------------------------------------------------------------


def run_driver(driver, cases, threads, blas):
    env = dict(os.environ)
    if threads:
        env['OMP_NUM_THREADS'] = str(threads)
    inp = b''.join(c.text().encode() + c.data() for c in cases)
    p = subprocess.run([driver], input=inp, capture_output=True, env=env)
    if p.returncode != 0:
        sys.stdout.write('FAIL driver exit %d (threads %s): %s\n' % (p.returncode, threads,
                                                                    p.stderr.decode(errors='replace')[-3000:]))
        return None
    out = p.stdout
    pos = 0
    res = []
    for c in cases:
        nl = out.index(b'\n', pos)
        head = out[pos:nl].decode().split()
        pos = nl + 1
        n = len(c.bufs[2])
        fast = np.frombuffer(out, dtype='<f4', count=n, offset=pos)
        pos += 4 * n
        ref = np.frombuffer(out, dtype='<f4', count=n, offset=pos)
        pos += 4 * n
        res.append((int(head[1]), int(head[2]), fast, ref))
    return res


def check(c, r, label):
    canary, scratch, fast, ref = r
    errs = []
    if not canary:
        errs.append('canary or input changed')
    dims, off, strides, _ = c.views[2]
    mask = np.zeros(len(c.bufs[2]), dtype=bool)
    if not any(d == 0 for d in dims):
        pos = positions(dims, off, strides)
        mask[pos.ravel()] = True
        exact, bound, k = expected(c)
        tol = (k + 4) * EPS * bound + 1e-30
        got = fast.astype(np.float64)[pos]
        rv = ref.astype(np.float64)[pos]
        bad = ~(np.abs(got - exact) <= tol)
        if bad.any():
            i = tuple(np.argwhere(bad)[0])
            errs.append('element %s: %r, NumPy %r (tolerance %g), %d wrong' %
                        (i, got[i], exact[i], tol[i], int(bad.sum())))
        badr = ~(np.abs(got - rv) <= 2 * tol)
        if badr.any():
            i = tuple(np.argwhere(badr)[0])
            errs.append('element %s: %r, reference %r' % (i, got[i], rv[i]))
    before = c.bufs[2].view(np.uint32)
    after = fast.view(np.uint32)
    if (before[~mask] != after[~mask]).any():
        errs.append('written outside the view (buffer element %d)' % int(np.argwhere(before[~mask] != after[~mask])[0][0]))
    for e in errs:
        sys.stdout.write('FAIL %s %s: %s\n    %s' % (c.kind, label, e, c.text()))
    return not errs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--driver', required=True)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--rounds', type=int, default=1)
    ap.add_argument('--threads', default='', help='comma-separated OMP_NUM_THREADS values (default: as set)')
    ap.add_argument('--blas', action='store_true', help='the driver uses cblas_sgemm: no bitwise comparison')
    ap.add_argument('--budget', type=int, default=400000, help='multiply-adds of a case at most')
    args = ap.parse_args()
    cfg = config(args.driver)
    rng = np.random.default_rng(args.seed)
    cases = []
    for _ in range(args.rounds):
        cases += [gen_sgemm(rng, cfg, args.budget) for _ in range(160)]
        cases += [gen_matmul(rng, cfg, args.budget) for _ in range(80)]
        cases += [gen_einsum(rng, cfg, args.budget) for _ in range(160)]
    threads = [int(t) for t in args.threads.split(',') if t] or [0]
    failed = set()
    first = None
    for t in threads:
        res = run_driver(args.driver, cases, t, args.blas)
        if res is None:
            failed.add(-1)
            continue
        for i, (c, r) in enumerate(zip(cases, res)):
            if not check(c, r, 'case %d, %s threads' % (i, t or 'default')):
                failed.add(i)
        if first is None:
            first = res
        elif not args.blas:
            for i, (c, r0, r1) in enumerate(zip(cases, first, res)):
                if r0[2].tobytes() != r1[2].tobytes():
                    failed.add(i)
                    sys.stdout.write('FAIL %s case %d: %s threads differ from %s bit for bit\n    %s' %
                                     (c.kind, i, t, threads[0], c.text()))
    count = {k: sum(1 for c in cases if c.kind == k) for k in ('sgemm', 'matmul', 'einsum')}
    sys.stdout.write('fast: config MR %d NR %d MC %d KC %d NC %d, %d-byte vectors; threads %s\n' %
                     (cfg['MR'], cfg['NR'], cfg['MC'], cfg['KC'], cfg['NC'], cfg['VB'], args.threads or 'default'))
    sys.stdout.write('fast: %d cases (sgemm %d, matmul %d, einsum %d), %d failed\n' %
                     (len(cases), count['sgemm'], count['matmul'], count['einsum'], len(failed)))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
