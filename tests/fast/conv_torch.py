#!/usr/bin/env python3
"""conv_torch.py - the fast conv2d, pool2d, softmax, log_softmax and
layernorm of runtime/fast/ against PyTorch (tests/fast/conv.test;
README.md beside it).

conv_run.c built with -DCONV_LIB as a shared library (--lib) runs one fast
kernel on NumPy's strided views (conv_api_*); this script makes random
calls on views of float32 data (sliced with gaps, reversed, transposed),
computes the expected result with PyTorch in float64 from the same float32
inputs, and checks every element within the tolerance of the kernel's error
bound (the same formulas as conv_run.c: README.md), NaN where PyTorch has
NaN.  Each call runs with 1 and 2 threads, which must give the same bits.


    conv_torch.py --lib LIB [--seed N] [--cases N]

Prints one line per kernel; exit status 1 on any failure.
"""
import argparse
import ctypes
import os
import sys

import numpy as np

U = 2.0 ** -24                          # float32's unit roundoff


class Lib:
    """conv_run.c built with -DCONV_LIB, through ctypes."""

    def __init__(self, path):
        P, I, L = ctypes.c_void_p, ctypes.c_int, ctypes.c_int64
        self.lib = ctypes.CDLL(path)
        self.lib.conv_api_conv2d.argtypes = [P, P, P, P, P, P, P, P, P, P, P, P, L, I]
        self.lib.conv_api_conv2d.restype = I
        self.lib.conv_api_pool2d.argtypes = [I, P, I, P, P, P, P, P, P, P, P, I]
        self.lib.conv_api_pool2d.restype = I
        self.lib.conv_api_norm.argtypes = [I, P, I, P, P, P, L, P, L, P, P, I]
        self.lib.conv_api_norm.restype = I
        self.lib.conv_api_info.argtypes = []
        self.lib.conv_api_info.restype = I
        self.info = self.lib.conv_api_info()


def i64(vals):
    a = np.array(list(vals), dtype=np.int64)
    return a, a.ctypes.data


def ptr(a):
    return a.ctypes.data


def elem_strides(a):
    return [s // 4 for s in a.strides]


def strided(rng, shape, layout, values):
    """A float32 view of the given shape: 0 dense, 1 gaps (a slice of a
    larger array), 2 an axis reversed, 3 the last axis with stride 2, 4 the
    last two axes transposed in memory."""
    shape = tuple(shape)
    if layout == 1:
        big = values(tuple(d + int(rng.integers(0, 3)) for d in shape))
        v = big[tuple(slice(0, d) for d in shape)]
    elif layout == 2 and len(shape) > 1:
        v = values(shape)
        ax = int(rng.integers(0, len(shape) - 1))
        v = np.flip(v, axis=ax)
    elif layout == 3:
        big = values(shape[:-1] + (2 * shape[-1],))
        v = big[..., ::2]
    elif layout == 4 and len(shape) >= 2:
        t = values(shape[:-2] + (shape[-1], shape[-2]))
        v = np.swapaxes(t, -1, -2)
    else:
        v = values(shape)
    assert v.shape == shape
    return v


def out_view(rng, shape, layout):
    """An output view filled with NaN, and the buffer it is a view of (the
    same layout for both thread counts: a layout the fast path cannot write
    goes to the reference, whose bits differ)."""
    nan = lambda s: np.full(s, np.nan, dtype=np.float32)
    if layout == 1:
        big = nan(tuple(d + int(rng.integers(0, 3)) for d in shape))
        return big[tuple(slice(0, d) for d in shape)], big
    if layout == 3:
        big = nan(tuple(shape[:-1]) + (2 * shape[-1],))
        return big[..., ::2], big
    big = nan(tuple(shape))
    return big, big


class Checker:
    def __init__(self, name):
        self.name, self.cases, self.failed, self.elements, self.worst = name, 0, 0, 0, 0.0

    def compare(self, got, want, tol, what):
        got = np.asarray(got, dtype=np.float64)
        want = np.asarray(want, dtype=np.float64)
        self.elements += want.size
        nan_w, nan_g = np.isnan(want), np.isnan(got)
        bad = nan_w != nan_g
        inf_w = np.isinf(want)
        bad |= inf_w & ~nan_g & (got != want)
        fin = ~nan_w & ~inf_w
        with np.errstate(invalid='ignore'):
            err = np.where(fin & ~nan_g, np.abs(got - want), 0.0)
            bad |= fin & (np.isnan(got) | np.isinf(got) | (err > tol))
            ratio = np.where(fin & (tol > 0), err / np.where(tol > 0, tol, 1.0), 0.0)
        if ratio.size:
            self.worst = max(self.worst, float(np.max(ratio)))
        if bad.any():
            self.failed += 1
            if self.failed <= 10:
                k = np.argwhere(bad)[0]
                print('FAIL %s case %d (%s): element %s is %.9g, PyTorch %.9g (tolerance %.3g)'
                      % (self.name, self.cases, what, tuple(k), got[tuple(k)], want[tuple(k)],
                         np.broadcast_to(tol, want.shape)[tuple(k)]))
            return False
        return True

    def same_bits(self, a, b, what):
        if np.array_equal(a.view(np.uint32), b.view(np.uint32)):
            return True
        self.failed += 1
        if self.failed <= 10:
            print('FAIL %s case %d (%s): 2 threads give other bits than 1' % (self.name, self.cases, what))
        return False

    def line(self):
        return '%s: %d cases, %d elements, worst error/tolerance %.3f, %d failed' % (
            self.name, self.cases, self.elements, self.worst, self.failed)


def edge(rng):
    return int(rng.choice([1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65]))


def wino_bound(torch, ax, aw, pad, g, oh, ow):
    """Winograd's F(2x2, 3x3) computes output (i, j) from the 4 x 4 tile of x
    at (2 (i // 2) - p0, 2 (j // 2) - p1), each product |x w| of it and the
    window counted at most 4 times over (the transforms' coefficients): the
    bound is 4 sum_ci (sum |w[o, ci]|) (sum of the tile's |x[ci]|)."""
    F = torch.nn.functional
    th, tw = (oh + 1) // 2, (ow + 1) // 2
    ch = ax.shape[1]
    xp = F.pad(ax, (pad[1], pad[1] + 4, pad[0], pad[0] + 4))
    tiles = F.conv2d(xp, torch.ones((ch, 1, 4, 4), dtype=ax.dtype), stride=2, groups=ch)[:, :, :th, :tw]
    per = F.conv2d(tiles, aw.sum(dim=(2, 3))[:, :, None, None], groups=g)
    return 4.0 * per.repeat_interleave(2, dim=2).repeat_interleave(2, dim=3)[:, :, :oh, :ow].numpy()


def conv_case(lib, torch, rng, ck):
    F = torch.nn.functional
    kind = int(rng.integers(0, 5))
    nb = int(rng.integers(1, 3))
    r = int(rng.integers(1, 4))
    q = r if rng.integers(0, 3) else int(rng.integers(1, 6))
    stride = [int(rng.integers(1, 3)), int(rng.integers(1, 4))]
    pad = [int(rng.integers(0, 3)), int(rng.integers(0, 3))]
    dil = [1 if rng.integers(0, 4) else 2, 1 if rng.integers(0, 4) else 2]
    h, w = int(rng.integers(1, 10)), edge(rng)
    if kind == 0:
        c, g, k = 1, int(rng.integers(1, 6)), int(rng.integers(1, 3))
    elif kind == 1:
        c, g, k = int(rng.integers(2, 5)), int(rng.integers(1, 4)), int(rng.integers(1, 9))
    elif kind == 2:
        c, g, k = int(rng.integers(5, 41)), 1, int(rng.integers(1, 41))
        r = q = 1
        stride, pad = [1, 1], [0, 0]
    elif kind == 3:
        c, g, k = int(rng.integers(5, 25)), int(rng.integers(1, 3)), int(rng.integers(1, 21))
    else:   # 3x3 stride 1 of 16 channels and more: Winograd's F(2x2, 3x3) (fast.h)
        c, g, k = int(rng.integers(16, 41)), int(rng.integers(1, 3)), int(rng.integers(16, 41))
        r = q = 3
        stride, dil = [1, 1], [1, 1]
        h = int(rng.integers(2, 20))
    while h + 2 * pad[0] < dil[0] * (r - 1) + 1:
        h += 1
    while w + 2 * pad[1] < dil[1] * (q - 1) + 1:
        w += 1
    vals = lambda s: rng.uniform(-1, 1, s).astype(np.float32)
    x = strided(rng, (nb, g * c, h, w), int(rng.integers(0, 5)), vals)
    wt = strided(rng, (g * k, c, r, q), 0 if rng.integers(0, 4) else int(rng.integers(1, 5)), vals)
    oh = (h + 2 * pad[0] - dil[0] * (r - 1) - 1) // stride[0] + 1
    ow = (w + 2 * pad[1] - dil[1] * (q - 1) - 1) // stride[1] + 1
    outs, lay = [], 0 if rng.integers(0, 3) else int(rng.integers(1, 4))
    for threads in (1, 2):
        y, _ = out_view(rng, (nb, g * k, oh, ow), lay)
        args = [i64(a) for a in (x.shape, elem_strides(x), wt.shape, elem_strides(wt), y.shape, elem_strides(y),
                                 stride, pad, dil)]
        lib.lib.conv_api_conv2d(ptr(x), args[0][1], args[1][1], ptr(wt), args[2][1], args[3][1], ptr(y),
                                args[4][1], args[5][1], args[6][1], args[7][1], args[8][1], g, threads)
        outs.append(np.array(y))
    tx, tw = torch.from_numpy(np.ascontiguousarray(x, dtype=np.float64)), torch.from_numpy(
        np.ascontiguousarray(wt, dtype=np.float64))
    want = F.conv2d(tx, tw, stride=stride, padding=pad, dilation=dil, groups=g).numpy()
    bound = F.conv2d(tx.abs(), tw.abs(), stride=stride, padding=pad, dilation=dil, groups=g).numpy()
    if r == 3 and q == 3 and stride == [1, 1] and dil == [1, 1] and c >= 16 and k >= 16 and oh >= 4 and ow >= 4:
        bound = wino_bound(torch, tx.abs(), tw.abs(), pad, g, oh, ow)
    tol = (c * r * q + 2) * U * bound + 1e-37
    what = 'x %s w %s s %s p %s d %s g %d' % (list(x.shape), list(wt.shape), stride, pad, dil, g)
    ck.compare(outs[0], want, tol, what) and ck.same_bits(outs[0], outs[1], what)
    ck.cases += 1


def pool_case(lib, torch, rng, ck):
    F = torch.nn.functional
    lead = [int(rng.integers(1, 3)) for _ in range(int(rng.integers(0, 3)))]
    h, w = int(rng.integers(1, 8)) if rng.integers(0, 2) else edge(rng), edge(rng) + 64 * int(rng.integers(0, 2))
    op = int(rng.integers(0, 2))            # 0: max, 1: mean (AXON_RED_MAX is 2, AXON_RED_MEAN 1)
    if rng.integers(0, 6) == 0:
        win, stride, pad = [h, w], [1, 1], [0, 0]
    else:
        win = [int(rng.integers(1, 5)), int(rng.integers(1, 5))]
        stride = [int(rng.integers(1, 4)), int(rng.integers(1, 3)) if rng.integers(0, 6) else 3]
        pad = [int(rng.integers(0, win[0] // 2 + 1)), int(rng.integers(0, win[1] // 2 + 1))]
    h = max(h, win[0] - 2 * pad[0])
    w = max(w, win[1] - 2 * pad[1])
    special = rng.integers(0, 3) == 0

    def vals(s):
        v = rng.uniform(-1, 1, s).astype(np.float32)
        if special:
            m = rng.uniform(0, 1, s)
            v[m < 0.02] = np.nan
            v[(m >= 0.02) & (m < 0.04)] = np.inf
            v[(m >= 0.04) & (m < 0.06)] = -np.inf
        return v
    x = strided(rng, tuple(lead) + (h, w), int(rng.integers(0, 5)), vals)
    oh = (h + 2 * pad[0] - win[0]) // stride[0] + 1
    ow = (w + 2 * pad[1] - win[1]) // stride[1] + 1
    code = 2 if op == 0 else 1
    outs, lay = [], 0 if rng.integers(0, 3) else int(rng.integers(1, 4))
    for threads in (1, 2):
        y, _ = out_view(rng, tuple(lead) + (oh, ow), lay)
        a = [i64(v) for v in (x.shape, elem_strides(x), y.shape, elem_strides(y), win, stride, pad)]
        lib.lib.conv_api_pool2d(code, ptr(x), x.ndim, a[0][1], a[1][1], ptr(y), a[2][1], a[3][1], a[4][1],
                                a[5][1], a[6][1], threads)
        outs.append(np.array(y))
    t = torch.from_numpy(np.ascontiguousarray(x, dtype=np.float64)).reshape((-1, 1, h, w))
    if op == 0:
        want = F.max_pool2d(t, win, stride, pad).numpy()
        tol = np.zeros_like(want)
    else:
        want = F.avg_pool2d(t, win, stride, pad, count_include_pad=True).numpy()
        bound = F.avg_pool2d(t.abs(), win, stride, pad, count_include_pad=True).numpy()
        tol = (win[0] * win[1] + 2) * U * bound + 1e-37
    want = want.reshape(tuple(lead) + (oh, ow))
    tol = tol.reshape(want.shape)
    what = '%s x %s window %s s %s p %s' % ('max' if op == 0 else 'avg', list(x.shape), win, stride, pad)
    ck.compare(outs[0], want, tol, what) and ck.same_bits(outs[0], outs[1], what)
    ck.cases += 1


def norm_case(lib, torch, rng, ck, kind):
    F = torch.nn.functional
    lead = [int(rng.integers(1, 4)) for _ in range(int(rng.integers(0, 3)))]
    n = edge(rng) if rng.integers(0, 2) else int(rng.choice([1, 2, 100, 1000, 4099]))
    scale = float(rng.choice([1.0, 3.0, 60.0]))
    shift = 300.0 if kind == 2 and rng.integers(0, 3) == 0 else 0.0
    special = kind != 2 and rng.integers(0, 3) == 0

    def vals(s):
        v = (rng.uniform(-1, 1, s) * scale + shift).astype(np.float32)
        if special:
            m = rng.uniform(0, 1, s)
            v[m < 0.01] = -np.inf
            v[(m >= 0.01) & (m < 0.015)] = np.nan
            v[(m >= 0.015) & (m < 0.02)] = np.inf
        return v
    x = strided(rng, tuple(lead) + (n,), int(rng.integers(0, 5)), vals)
    g = strided(rng, (n,), 0 if rng.integers(0, 5) else 3, lambda s: rng.uniform(0, 2, s).astype(np.float32))
    b = strided(rng, (n,), 0 if rng.integers(0, 5) else 3, lambda s: rng.uniform(-1, 1, s).astype(np.float32))
    outs, lay = [], 0 if rng.integers(0, 3) else int(rng.integers(1, 4))
    for threads in (1, 2):
        y, _ = out_view(rng, x.shape, lay)
        xd, xs, ys = i64(x.shape), i64(elem_strides(x)), i64(elem_strides(y))
        lib.lib.conv_api_norm(kind, ptr(x), x.ndim, xd[1], xs[1], ptr(g), g.strides[0] // 4, ptr(b),
                              b.strides[0] // 4, ptr(y), ys[1], threads)
        outs.append(np.array(y))
    t = torch.from_numpy(np.ascontiguousarray(x, dtype=np.float64))
    xd64 = t.numpy()
    with np.errstate(invalid='ignore', over='ignore'):
        mx = np.max(xd64, axis=-1, keepdims=True) if n else xd64
        d = np.abs(xd64 - mx)
    if kind == 0:
        want = F.softmax(t, dim=-1).numpy()
        with np.errstate(invalid='ignore'):
            tol = U * (d + 2.0 * n + 16.0) * np.abs(want) + 2.4e-38
    elif kind == 1:
        want = F.log_softmax(t, dim=-1).numpy()
        with np.errstate(invalid='ignore', divide='ignore'):
            ls = np.abs(np.log(np.sum(np.exp(xd64 - mx), axis=-1, keepdims=True)))
            tol = U * (2.0 * d + np.abs(want) + 2.0 * ls + 2.0 * n + 16.0)
    else:
        tg = torch.from_numpy(np.ascontiguousarray(g, dtype=np.float64))
        tb = torch.from_numpy(np.ascontiguousarray(b, dtype=np.float64))
        want = F.layer_norm(t, (n,), tg, tb, eps=1e-5).numpy()
        mean = np.mean(xd64, axis=-1, keepdims=True)
        rstd = 1.0 / np.sqrt(np.var(xd64, axis=-1, keepdims=True) + 1e-5)
        tol = 4.0 * U * ((np.abs(xd64) + np.abs(mean)) * rstd * np.abs(np.asarray(g, np.float64)) +
                         np.abs(np.asarray(b, np.float64)) + np.abs(want)) + 1e-37
    what = '%s x %s' % (('softmax', 'log_softmax', 'layernorm')[kind], list(x.shape))
    ck.compare(outs[0], want, np.nan_to_num(tol, nan=0.0, posinf=0.0), what) and ck.same_bits(outs[0], outs[1], what)
    ck.cases += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--lib', required=True)
    ap.add_argument('--root', help='(unused; kept for old command lines)')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--cases', type=int, default=60)
    args = ap.parse_args()
    ok = True
    try:
        import torch
    except ImportError:
        print('conv_torch: PyTorch is not available: skipped')
        return 0 if ok else 1
    torch.set_num_threads(1)
    lib = Lib(args.lib)
    print('conv_torch: seed %d, W = %d floats, %s' % (args.seed, lib.info % 1000,
                                                       'gemm.c' if lib.info >= 1000 else 'the stand-in sgemm'))
    rng = np.random.default_rng(args.seed)
    cks = [Checker('conv2d'), Checker('pool2d'), Checker('softmax'), Checker('log_softmax'), Checker('layernorm')]
    for _ in range(args.cases):
        conv_case(lib, torch, rng, cks[0])
        pool_case(lib, torch, rng, cks[1])
        for kind in range(3):
            norm_case(lib, torch, rng, cks[2 + kind], kind)
    for ck in cks:
        print(ck.line())
    return 0 if ok and not any(ck.failed for ck in cks) else 1


if __name__ == '__main__':
    sys.exit(main())
