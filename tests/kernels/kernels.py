#!/usr/bin/env python3
"""kernels.py - the random differential test of runtime/kernels/ (README.md
in this directory).

Generates random kernel calls (every kernel, every element type where it
applies, ranks 0-5 and a few up to 8, sizes 0 and 1, views that are
broadcast, transposed, sliced, reversed, or have odd strides on unit axes,
conv/pool parameters with stride, padding, dilation and groups, and the data
errors of spec 9b), computes the expected result with NumPy from the
contract (axon-spec.md 9b and runtime/kernels/kernels.h; nothing here is
read from the kernels' C), runs every call through the C driver
(run_kernels.c), and compares:

  - every element of an output view against the expected value; floats
    within a tolerance (below), integers and bool exactly;
  - every byte of every buffer outside the output views unchanged (inputs
    included), and the driver's canary bytes around each buffer intact;
  - the status, the message and the place of each data error.

Tolerance.  The kernels compute in double, NumPy in float64, but not in the
same order (NumPy sums pairwise, its exp/log/... may differ from libm by an
ulp or so).  So each expected value is a float64 v with an absolute bound t
on how far two double evaluations may differ: 0 for a single IEEE operation
(+ - * / sqrt, max, comparisons, casts, moves), 16 ulps of the result for a
library function (exp, tanh, erf, pow, ...), and for a sum of n terms
2 (n + 2) u sum|terms| (u = 2^-53: each order's error is at most
(n - 1) u sum|terms|).  The result must then lie in
[round_T(v - t), round_T(v + t)]: the rounding to the output type (f32, f16,
bf16) is exact on both sides, so f32 results are checked to the last bit
wherever the double results are close.  An integer result computed through
double (exp of an i32, softmax of an i8) must lie in
[trunc(v - t), trunc(v + t)], and is not checked where spec 9b leaves it
unspecified (NaN, infinite or out of the type's range).  Integer arithmetic
is exact (wrapping at the type's width).

Usage: kernels.py --driver PATH [--seed N] [--rounds N] [--keep FILE]
"""

import argparse
import math
import random
import subprocess
import sys
import time

import numpy as np

TYPES = ['bool', 'i8', 'i16', 'i32', 'i64', 'u8', 'u16', 'u32', 'f16', 'bf16', 'f32', 'f64']
FLOATS = ('f16', 'bf16', 'f32', 'f64')
SIZE = {'bool': 1, 'i8': 1, 'i16': 2, 'i32': 4, 'i64': 8, 'u8': 1, 'u16': 2, 'u32': 4,
        'f16': 2, 'bf16': 2, 'f32': 4, 'f64': 8}
UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
NPT = {'bool': np.uint8, 'i8': np.int8, 'i16': np.int16, 'i32': np.int32, 'i64': np.int64,
       'u8': np.uint8, 'u16': np.uint16, 'u32': np.uint32, 'f16': np.float16, 'bf16': np.uint16,
       'f32': np.float32, 'f64': np.float64}
RANGE = {'bool': (0, 1), 'i8': (-2**7, 2**7 - 1), 'i16': (-2**15, 2**15 - 1),
         'i32': (-2**31, 2**31 - 1), 'i64': (-2**63, 2**63 - 1), 'u8': (0, 2**8 - 1),
         'u16': (0, 2**16 - 1), 'u32': (0, 2**32 - 1)}
U = 2.0 ** -53                  # f64's unit roundoff
FN_TOL = 32 * U                 # 16 ulps of a library function's result

# kernels.h's enums (their order)
UNOPS = ['neg', 'exp', 'log', 'sqrt', 'tanh', 'sigmoid', 'relu', 'abs', 'erf', 'sin', 'cos', 'rsqrt',
         'gelu', 'silu', 'floor', 'ceil', 'sign']
BINOPS = ['add', 'sub', 'mul', 'div', 'maximum', 'minimum', 'pow']
CMPOPS = ['lt', 'le', 'gt', 'ge', 'eq', 'ne']
REDOPS = ['sum', 'mean', 'max', 'min']
STATUS_INDEX, STATUS_ZERO_DIVISION, STATUS_EMPTY = 8, 9, 10
# the sites run_kernels.c passes (line, column, message format)
DIV_SITE = (7, 9, 'integer division by zero at element {}')
GATHER_SITE = (11, 13, 'index {} (at {}) is outside [0, {})')
ARGMAX_SITE = (17, 19, 'argmax over an empty axis')


def fmt(site, *vals):
    s = site[2]
    for v in vals:
        s = s.replace('{}', str(v), 1)
    return s


# ---------------------------------------------------------------- values

def is_float(t):
    return t in FLOATS


def wrap(t, v):
    """A Python int wrapped to type t (bool: v != 0)."""
    v = int(v)
    if t == 'bool':
        return int(v != 0)
    lo, hi = RANGE[t]
    w = hi - lo + 1
    return (v - lo) % w + lo


def wrap_arr(t, a):
    """An object or integer array of Python ints wrapped to t, as int64."""
    a = np.asarray(a, dtype=object)
    return np.array([wrap(t, v) for v in a.ravel()], dtype=np.int64).reshape(a.shape)


def wrap64(v):
    return (int(v) + 2**63) % 2**64 - 2**63


def bf16_bits(v):
    """float64 -> bf16 bits: round to nearest even (8 significant bits,
    exponent range of f32, subnormals down to 2^-133), overflow to inf."""
    v = np.asarray(v, dtype=np.float64)
    out = np.zeros(v.shape, np.uint16)
    with np.errstate(all='ignore'):
        sign = np.signbit(v)
        a = np.abs(v)
        fin = np.isfinite(a) & (a > 0)
        m, e = np.frexp(np.where(fin, a, 1.0))     # a = m 2^e, m in [0.5, 1)
        q = np.maximum(e - 8, -133)                 # the weight of the last kept bit
        r = np.ldexp(np.rint(np.ldexp(np.where(fin, a, 0.0), -q)), q)
        r = np.where(r > 3.3895313892515355e38, np.inf, r)
        bits = (r.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
        out = np.where(fin, bits, 0).astype(np.uint16)
        out = np.where(np.isinf(a), np.uint16(0x7f80), out)
        out = np.where(np.isnan(v), np.uint16(0x7fc0), out)
        out = np.where(sign & ~np.isnan(v), out | np.uint16(0x8000), out)
    return out.astype(np.uint16)


def bf16_from_int(i):
    """An integer rounded to bf16 (exactly: no rounding through a double)."""
    i = int(i)
    s, m = (-1 if i < 0 else 1), abs(i)
    n = m.bit_length()
    if n > 8:
        drop = n - 8
        keep, rest, half = m >> drop, m & ((1 << drop) - 1), 1 << (drop - 1)
        if rest > half or (rest == half and keep & 1):
            keep += 1
        m = keep << drop
    if m >= 2**128 - 2**119:                    # past bf16's greatest (0x7f7f)
        return s * math.inf
    return float(s * m)


def round_to(t, v):
    """float64 values rounded to float type t (as float64)."""
    v = np.asarray(v, dtype=np.float64)
    with np.errstate(all='ignore'):
        if t == 'f64':
            return v.copy()
        if t == 'f32':
            return v.astype(np.float32).astype(np.float64)
        if t == 'f16':
            return v.astype(np.float16).astype(np.float64)
        return bits_to_values('bf16', bf16_bits(v))


def values_to_bits(t, v):
    """Logical values (float64 for float types, ints otherwise) -> bits."""
    v = np.asarray(v)
    if t == 'bf16':
        return bf16_bits(v)
    shape = v.shape
    v = v.reshape(-1)
    if is_float(t):
        with np.errstate(all='ignore'):
            b = v.astype(np.float64).astype(NPT[t]).view(UINT[SIZE[t]])
    elif t == 'bool':
        b = (v != 0).astype(np.uint8)
    else:
        b = np.asarray(v, dtype=np.int64).astype(NPT[t]).view(UINT[SIZE[t]])
    return b.reshape(shape)


def bits_to_values(t, b):
    """Bits -> logical values: float64, or int64 (bool: the raw byte)."""
    b = np.asarray(b)
    shape = b.shape
    b = b.reshape(-1)
    if t == 'bf16':
        with np.errstate(all='ignore'):
            v = (b.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    elif is_float(t):
        with np.errstate(all='ignore'):
            v = b.astype(UINT[SIZE[t]]).view(NPT[t]).astype(np.float64)
    elif t == 'bool':
        v = b.astype(np.int64)
    else:
        v = b.astype(UINT[SIZE[t]]).view(NPT[t]).astype(np.int64)
    return v.reshape(shape)


def tiny(t):
    return {'f16': 2.0**-24, 'bf16': 2.0**-133, 'f32': 2.0**-149, 'f64': 5e-324}[t]


class Gen:
    """Random shapes, data and views."""

    def __init__(self, seed):
        self.r = random.Random(seed)
        self.np = np.random.default_rng(seed)

    def dim(self, zero=0.08, big=6):
        r = self.r.random()
        if r < zero:
            return 0
        if r < zero + 0.25:
            return 1
        return self.r.randint(2, big)

    def shape(self, rank=None, lo=0, hi=5, limit=160, zero=0.08, big=5):
        """A random shape of at most `limit` elements."""
        if hi == 5 and self.r.random() < 0.05:
            hi = 8                                  # AXON_MAX_RANK
        while True:
            k = self.r.randint(lo, hi) if rank is None else rank
            s = [self.dim(zero, big) for _ in range(k)]
            if int(np.prod(s, dtype=np.int64)) <= limit:
                return s

    def floats(self, t, n, special=0.1, scale=2.0):
        x = self.np.standard_normal(n) * scale
        if special and n:
            pick = self.np.random(n) < special
            sp = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, tiny(t), -3 * tiny(t), 1.0, -1.0, 100.0])
            x = np.where(pick, sp[self.np.integers(0, len(sp), n)], x)
        return round_to(t, x)

    def ints(self, t, n, lo=-8, hi=8, extreme=0.05):
        tlo, thi = RANGE[t]
        x = self.np.integers(max(lo, tlo), min(hi, thi) + 1, n, dtype=np.int64)
        if extreme and n:
            pick = self.np.random(n) < extreme
            ex = np.array([tlo, thi, max(tlo, tlo + 1), min(thi, thi - 1)], dtype=np.int64)
            x = np.where(pick, ex[self.np.integers(0, 4, n)], x)
        return x

    def data(self, t, n, **kw):
        if is_float(t):
            kw.pop('lo', None), kw.pop('hi', None), kw.pop('extreme', None)
            return self.floats(t, n, **kw)
        kw.pop('special', None), kw.pop('scale', None)
        return self.ints(t, n, **kw)

    def garbage(self, t, n):
        """Random bits (the initial content of an output buffer)."""
        s = SIZE[t]
        if t == 'bool':
            return self.np.integers(0, 2, n).astype(np.uint8)
        return self.np.integers(0, 2**(8 * s), n, dtype=np.uint64).astype(UINT[s])

    def layout(self, dims, out=False, bcast=True):
        """A strided view of the logical shape dims in a fresh buffer:
        (buffer length, offset, strides, index array of the view's element
        positions in the buffer)."""
        r = self.r
        rank = len(dims)
        bc = [(not out) and bcast and r.random() < 0.2 for _ in range(rank)]
        ext = [1 if bc[k] else dims[k] for k in range(rank)]
        pad = [r.choice([1, 2, 3]) if r.random() < 0.25 else 0 for _ in range(rank)]
        phys = [ext[k] + pad[k] for k in range(rank)]
        perm = list(range(rank))
        if r.random() < 0.35:
            r.shuffle(perm)
        strides = [0] * rank
        s = 1
        for k in reversed(perm):
            strides[k] = s
            s *= phys[k]
        total = s if all(phys) else 0
        lead = r.choice([0, 0, 0, 1, 5])
        trail = r.choice([0, 0, 3])
        offset = lead + sum(r.randint(0, pad[k]) * strides[k] for k in range(rank))
        for k in range(rank):
            if bc[k]:
                strides[k] = 0
            elif dims[k] > 1 and r.random() < 0.2:
                offset += (dims[k] - 1) * strides[k]
                strides[k] = -strides[k]
            if dims[k] == 1 and r.random() < 0.3:
                strides[k] = r.choice([0, 3, -7, 1000, -99999])
        n = lead + total + trail
        if any(d == 0 for d in dims):
            offset = min(offset, n)
        idx = np.full(dims, offset, dtype=np.int64)
        for k in range(rank):
            sh = [1] * rank
            sh[k] = dims[k]
            idx = idx + (np.arange(dims[k], dtype=np.int64) * strides[k]).reshape(sh)
        return n, offset, strides, idx


class Case:
    """One kernel call: buffers (type, initial bits), views (buffer, offset,
    dims, strides, index array), the expected outputs, status and return."""

    def __init__(self, kernel, t1, t2=None, params=()):
        self.kernel, self.t1, self.t2 = kernel, t1, t2 or t1
        self.params = [int(p) for p in params]
        self.bufs = []
        self.views = []
        self.outs = []          # (view, check) ; check(got_values, got_bits, init_bits) -> msg or None
        self.status = 0
        self.message = ''
        self.site = None
        self.ret = None
        self.extra = None       # check(lines) for V / O lines
        self.what = kernel + ' ' + t1 + ('' if t2 is None else '->' + t2)

    def view(self, g, t, dims, data=None, out=False, bcast=True, **kw):
        """Adds a buffer and a view of dims into it: returns the logical
        values of the view (inputs), or None (outputs: garbage filled)."""
        n, off, strides, idx = g.layout(list(dims), out=out, bcast=bcast)
        if out:
            bits = g.garbage(t, n)
        else:
            vals = g.data(t, n, **kw) if data is None else data(n)
            bits = values_to_bits(t, vals)
        self.bufs.append((t, bits))
        self.views.append((len(self.bufs) - 1, off, list(dims), strides, idx))
        if out:
            return None
        return bits_to_values(t, bits[idx]) if idx.size else np.zeros(dims, np.float64 if is_float(t) else np.int64)

    def expect(self, vi, check):
        self.outs.append((vi, check))

    def error(self, status, site, *vals):
        self.status = status
        self.site = site
        self.message = fmt(site, *vals)

    def text(self):
        parts = [self.kernel, self.t1, self.t2, str(len(self.params))] + [str(p) for p in self.params]
        parts.append(str(len(self.bufs)))
        for t, bits in self.bufs:
            parts += [t, str(len(bits))]
            parts += ['%x' % int(b) for b in bits]
        parts.append(str(len(self.views)))
        for bi, off, dims, strides, _ in self.views:
            parts += [str(bi), str(off), str(len(dims))] + [str(d) for d in dims] + [str(s) for s in strides]
        return ' '.join(parts)


# ---------------------------------------------------------------- checks

def check_float(t, v, tol=0.0):
    """Elements of float type t: within [round(v - tol), round(v + tol)],
    NaN where v is NaN, v exactly where it is infinite."""
    v = np.asarray(v, dtype=np.float64)
    tol = np.broadcast_to(np.asarray(tol, dtype=np.float64), v.shape)
    with np.errstate(all='ignore'):
        fin = np.isfinite(v)
        lo = np.where(fin, round_to(t, v - np.where(fin, tol, 0)), v)
        hi = np.where(fin, round_to(t, v + np.where(fin, tol, 0)), v)

    def check(got, gbits, ibits):
        with np.errstate(all='ignore'):
            ok = np.where(np.isnan(v), np.isnan(got), (got >= lo) & (got <= hi))
        if ok.all():
            return None
        k = np.argwhere(~ok)[0] if v.ndim else ()
        k = tuple(k)
        return 'at %s: got %r, expected %r (in [%r, %r])' % (list(k), float(got[k]), float(v[k]),
                                                            float(lo[k]), float(hi[k]))
    return check


def check_int(t, v, skip=None):
    """Elements of integer/bool type t: exactly v (Python ints, wrapped to t)."""
    e = wrap_arr(t, v)
    skip = np.zeros(e.shape, bool) if skip is None else skip

    def check(got, gbits, ibits):
        ok = skip | (got == e)
        if ok.all():
            return None
        k = tuple(np.argwhere(~ok)[0]) if e.ndim else ()
        return 'at %s: got %d, expected %d' % (list(k), int(got[k]), int(e[k]))
    return check


def check_trunc(t, v, tol=0.0):
    """Integer/bool elements computed through double: within
    [trunc(v - tol), trunc(v + tol)] (bool: != 0), unchecked where that is
    unspecified (NaN, infinite, out of t's range)."""
    v = np.asarray(v, dtype=np.float64)
    tol = np.broadcast_to(np.asarray(tol, dtype=np.float64), v.shape)
    lo_t, hi_t = RANGE[t]
    with np.errstate(all='ignore'):
        bad = ~np.isfinite(v) | ~np.isfinite(tol)
        a = np.trunc(np.where(bad, 0, v - tol))
        b = np.trunc(np.where(bad, 0, v + tol))
    if t == 'bool':
        lo = np.where((a <= 0) & (b >= 0), 0, 1)
        hi = np.where((a == 0) & (b == 0), 0, 1)
        skip = bad
    else:
        skip = bad | (a < lo_t) | (b > hi_t)
        lo, hi = a, b

    def check(got, gbits, ibits):
        ok = skip | ((got >= lo) & (got <= hi))
        if ok.all():
            return None
        k = tuple(np.argwhere(~ok)[0]) if v.ndim else ()
        return 'at %s: got %d, expected %r -> [%r, %r]' % (list(k), int(got[k]), float(v[k]), float(lo[k]), float(hi[k]))
    return check


def check_result(t, v, tol=0.0, exact=None):
    """A double result v in output type t: float rounding, or truncation;
    `exact` (Python ints) for the integer types where the kernel computes
    exactly."""
    if is_float(t):
        return check_float(t, v, tol)
    if exact is not None:
        return check_int(t, exact)
    return check_trunc(t, v, tol)


def check_any():
    return lambda got, gbits, ibits: None


def as_object(x):
    return np.asarray(x, dtype=np.int64).astype(object)


def mod64(x):
    """An integer array as uint64 (two's complement): NumPy's uint64
    arithmetic is then exact modulo 2^64, as the kernels' int64 is."""
    return np.asarray(x, dtype=np.int64).astype(np.uint64)


def from_mod64(x):
    return np.asarray(x, dtype=np.uint64).astype(object)


# ---------------------------------------------------------------- the operators (from the contract)

def erf(x):
    x = np.asarray(x, dtype=np.float64)
    return np.vectorize(math.erf, otypes=[np.float64])(x) if x.size else x.copy()


def unary_f(op, x):
    """(value, tolerance) of a unary operator on float64 values."""
    with np.errstate(all='ignore'):
        if op == 'neg':
            return -x, 0.0
        if op == 'exp':
            v = np.exp(x)
        elif op == 'log':
            v = np.log(x)
        elif op == 'sqrt':
            return np.sqrt(x), 0.0
        elif op == 'tanh':
            v = np.tanh(x)
        elif op == 'sigmoid':
            v = 1.0 / (1.0 + np.exp(-x))
        elif op == 'relu':
            return np.where(np.isnan(x), x, np.where(x < 0, 0.0, x)), 0.0
        elif op == 'abs':
            return np.abs(x), 0.0
        elif op == 'erf':
            v = erf(x)
        elif op == 'sin':
            v = np.sin(x)
        elif op == 'cos':
            v = np.cos(x)
        elif op == 'rsqrt':
            v = 1.0 / np.sqrt(x)
        elif op == 'gelu':
            v = 0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))
            return v, FN_TOL * (np.abs(v) + np.abs(x))
        elif op == 'silu':
            v = x * (1.0 / (1.0 + np.exp(-x)))
        elif op == 'floor':
            return np.floor(x), 0.0
        elif op == 'ceil':
            return np.ceil(x), 0.0
        elif op == 'sign':
            return np.where(np.isnan(x), x, np.sign(x)), 0.0
        return v, FN_TOL * np.abs(v)


def unary_int(op, x):
    """Exact integer results (Python ints) of the operators that integers
    compute exactly; None for the others (through double)."""
    o = as_object(x)
    if op == 'neg':
        return -o
    if op == 'abs':
        return np.abs(o)
    if op == 'relu':
        return np.where(o > 0, o, 0)
    if op == 'sign':
        return np.sign(o)
    if op in ('floor', 'ceil'):
        return o
    return None


def int_pow(a, b, t):
    """a ** b at t's width; b < 0: 1 / a ** -b floored, a ** -b taken at t's
    width, None where that is 0 (a zero division)."""
    if b >= 0:
        return a ** b
    p = wrap(t, a ** (-b))
    if p == 0:
        return None
    return 1 // p


# ---------------------------------------------------------------- case generators

def gen_unary(g, t, op):
    c = Case('unary', t, params=[UNOPS.index(op)])
    c.what += ' ' + op
    s = g.shape()
    x = c.view(g, t, s, special=0.25)
    c.view(g, t, s, out=True)
    if is_float(t):
        v, tol = unary_f(op, x)
        c.expect(1, check_float(t, v, tol))
    else:
        ex = unary_int(op, x)
        if ex is not None:
            c.expect(1, check_int(t, ex))
        else:
            v, tol = unary_f(op, x.astype(np.float64))
            c.expect(1, check_trunc(t, v, tol))
    return c


def gen_binary(g, t, op):
    c = Case('binary', t, params=[BINOPS.index(op)])
    c.what += ' ' + op
    s = g.shape()
    err_case = g.r.random() < 0.15
    kw = {}
    if op == 'pow':
        kw = dict(lo=-3, hi=3)
    a = c.view(g, t, s, **kw)
    if op == 'div' and not is_float(t):
        def nz(n):
            d = g.data(t, n)
            d = np.where(d == 0, 1 if t in ('bool',) or RANGE[t][0] == 0 else g.r.choice([1, -1]), d)
            if err_case and n:
                d[g.np.integers(0, n, g.r.randint(1, 2))] = 0
            return d
        b = c.view(g, t, s, data=nz)
    elif op == 'pow' and not is_float(t):
        lo = -4 if (RANGE[t][0] < 0 and err_case) else 0
        b = c.view(g, t, s, lo=lo, hi=70 if t != 'bool' else 1, extreme=0)
    else:
        b = c.view(g, t, s)
    c.view(g, t, s, out=True)
    if is_float(t):
        with np.errstate(all='ignore'):
            tol = 0.0
            if op == 'add':
                v = a + b
            elif op == 'sub':
                v = a - b
            elif op == 'mul':
                v = a * b
            elif op == 'div':
                v = a / b
            elif op == 'maximum':
                v = np.maximum(a, b)
            elif op == 'minimum':
                v = np.minimum(a, b)
            else:
                v = np.power(a, b)
                tol = FN_TOL * np.abs(v)
        c.expect(2, check_float(t, v, tol))
        return c
    ao, bo = as_object(a), as_object(b)
    flat_a, flat_b = ao.ravel(), bo.ravel()
    res = []
    bad = None
    for i, (x, y) in enumerate(zip(flat_a, flat_b)):
        if op == 'add':
            r = x + y
        elif op == 'sub':
            r = x - y
        elif op == 'mul':
            r = x * y
        elif op == 'div':
            r = None if y == 0 else x // y
        elif op == 'maximum':
            r = max(x, y)
        elif op == 'minimum':
            r = min(x, y)
        else:
            r = int_pow(x, y, t)
        if r is None:
            bad = i
            break
        res.append(r)
    if bad is not None:
        c.error(STATUS_ZERO_DIVISION, DIV_SITE, bad)
        c.expect(2, check_any())
    else:
        c.expect(2, check_int(t, np.array(res, dtype=object).reshape(s) if s else np.array(res[0], dtype=object)))
    return c


def gen_compare(g, t, op):
    c = Case('compare', t, params=[CMPOPS.index(op)])
    c.what += ' ' + op
    s = g.shape()
    a = c.view(g, t, s, special=0.2, lo=-2, hi=2)
    b = c.view(g, t, s, special=0.2, lo=-2, hi=2)
    c.view(g, 'bool', s, out=True)
    f = {'lt': np.less, 'le': np.less_equal, 'gt': np.greater, 'ge': np.greater_equal,
         'eq': np.equal, 'ne': np.not_equal}[op]
    with np.errstate(all='ignore'):
        c.expect(2, check_int('bool', f(a, b).astype(np.int64)))
    return c


def gen_select(g, t):
    c = Case('select', t)
    s = g.shape()
    cond = c.view(g, 'bool', s)
    b = c.view(g, t, s)
    d = c.view(g, t, s)
    c.view(g, t, s, out=True)
    v = np.where(cond != 0, b, d)
    c.expect(3, check_float(t, v) if is_float(t) else check_int(t, v))
    return c


def gen_copy(g, t):
    c = Case('copy', t)
    s = g.shape(lo=0, hi=8 if g.r.random() < 0.1 else 5, limit=300)
    x = c.view(g, t, s)
    c.view(g, t, s, out=True)
    c.expect(1, check_float(t, x) if is_float(t) else check_int(t, x))
    return c


def gen_fill(g, t):
    s = g.shape()
    if is_float(t):
        v = g.r.choice([g.r.gauss(0, 10), 0.1, -0.0, math.inf, math.nan, 1e30, 65520.0, 3.4e38])
        c = Case('fill', t, params=[int(np.array(v, np.float64).view(np.int64))])
        c.view(g, t, s, out=True)
        c.expect(0, check_float(t, np.full(s, v)))
    else:
        v = g.r.choice([g.r.randint(-300, 300), g.r.randint(-2**63, 2**63 - 1), 0, 1])
        c = Case('fill', t, params=[v])
        c.view(g, t, s, out=True)
        c.expect(0, check_int(t, np.full(s, v, dtype=object)))
    return c


def gen_arange(g, t):
    c = Case('arange', t)
    n = g.r.choice([0, 1, 2, 5, 17, 130, 300])
    c.view(g, t, [n], out=True)
    ar = np.arange(n)
    c.expect(0, check_float(t, ar.astype(np.float64)) if is_float(t) else check_int(t, ar.astype(object)))
    return c


def gen_matmul(g, t):
    c = Case('matmul', t)
    batch = g.shape(lo=0, hi=3, limit=12)
    m, k, n = (g.r.choice([0, 1, 2, 3, 5]) for _ in range(3))
    kw = dict(special=0, scale=1.0)
    a = c.view(g, t, batch + [m, k], **kw)
    b = c.view(g, t, batch + [k, n], **kw)
    c.view(g, t, batch + [m, n], out=True)
    if is_float(t):
        v = np.matmul(a, b)
        mag = np.matmul(np.abs(a), np.abs(b))
        c.expect(2, check_float(t, v, 2 * (k + 2) * U * mag))
    else:
        c.expect(2, check_int(t, from_mod64(np.matmul(mod64(a), mod64(b)))))
    return c


def gen_einsum(g, t):
    r = g.r
    nops = r.choice([1, 2, 2])
    used = r.randint(1, 6)
    nl = used + (1 if r.random() < 0.1 else 0)       # a label of neither: a factor
    ldims = [r.choice([0, 1, 2, 3, 3]) if r.random() > 0.05 else 0 for _ in range(nl)]
    while int(np.prod([ldims[i] for i in range(used)], dtype=np.int64)) > 400:
        ldims = [r.choice([1, 2, 3]) for _ in range(nl)]
    labs = []
    for i in range(nops):
        k = r.randint(0, min(4, used))
        labs.append(r.sample(range(used), k))
    union = sorted(set(l for ls in labs for l in ls))
    out = r.sample(union, r.randint(0, len(union)))
    c = Case('einsum', t)
    kw = dict(special=0, scale=1.0, lo=-4, hi=4)
    xs = [c.view(g, t, [ldims[l] for l in ls], **kw) for ls in labs]
    c.view(g, t, [ldims[l] for l in out], out=True)
    c.params = [nops, nl] + ldims + [l for ls in labs for l in ls] + out
    letters = 'abcdefgh'
    spec = ','.join(''.join(letters[l] for l in ls) for ls in labs) + '->' + ''.join(letters[l] for l in out)
    summed = [l for l in range(nl) if l not in out]
    nterms = int(np.prod([ldims[l] for l in summed], dtype=np.int64))
    # a summed label that no operand has: the sum over it of a term that
    # does not depend on it, its size times the term
    factor = int(np.prod([ldims[l] for l in summed if l not in union], dtype=np.int64))
    c.what += ' ' + spec
    if is_float(t):
        v = np.einsum(spec, *xs) * factor
        mag = np.einsum(spec, *[np.abs(x) for x in xs]) * factor
        c.expect(nops, check_float(t, v, 2 * (nterms + 2) * U * mag))
    else:
        with np.errstate(all='ignore'):
            e = np.multiply(np.einsum(spec, *[mod64(x) for x in xs]), np.uint64(factor))
        c.expect(nops, check_int(t, from_mod64(e)))
    return c


def reduce_setup(g, c, t, out_t, **kw):
    s = g.shape(lo=0, hi=5, limit=200)
    red = [g.r.random() < 0.5 for _ in s]
    os_ = [1 if red[i] else s[i] for i in range(len(s))]
    x = c.view(g, t, s, **kw)
    c.view(g, out_t, os_, out=True)
    axes = tuple(i for i in range(len(s)) if red[i])
    return x, s, os_, axes


def gen_reduce(g, t, op):
    c = Case('reduce', t, params=[REDOPS.index(op)])
    c.what += ' ' + op
    x, s, os_, axes = reduce_setup(g, c, t, t)
    n = int(np.prod([s[a] for a in axes], dtype=np.int64))
    if is_float(t):
        with np.errstate(all='ignore'):
            if op in ('sum', 'mean'):
                v = np.sum(x, axis=axes, keepdims=True)
                tol = 2 * (n + 2) * U * np.sum(np.abs(x), axis=axes, keepdims=True)
                if op == 'mean':
                    v = v / n if n else np.full(os_, np.nan)
                    tol = tol / max(n, 1)
            else:
                f = np.max if op == 'max' else np.min
                v = f(x, axis=axes, keepdims=True, initial=-np.inf if op == 'max' else np.inf)
                tol = 0.0
        c.expect(1, check_float(t, np.reshape(v, os_), tol))
        return c
    xo = as_object(x)
    lo, hi = RANGE[t]
    if op in ('sum', 'mean'):
        v = np.sum(xo, axis=axes, keepdims=True) if xo.size else np.zeros(os_, dtype=object)
        v = np.reshape(np.asarray(v, dtype=object), os_)
        if op == 'mean':
            v = np.array([0 if n == 0 else wrap64(e) // n for e in v.ravel()], dtype=object).reshape(os_)
    else:
        f = np.max if op == 'max' else np.min
        v = f(x, axis=axes, keepdims=True, initial=lo if op == 'max' else hi)
    c.expect(1, check_int(t, np.reshape(np.asarray(v, dtype=object), os_)))
    return c


def gen_argmax(g, t):
    c = Case('argmax', t)
    x, s, os_, axes = reduce_setup(g, c, t, 'i32', special=0.15, lo=-3, hi=3)
    n = int(np.prod([s[a] for a in axes], dtype=np.int64))
    nout = int(np.prod(os_, dtype=np.int64))
    if n == 0 and nout > 0:
        c.error(STATUS_EMPTY, ARGMAX_SITE)
        c.expect(1, check_any())
        return c
    keep = [i for i in range(len(s)) if i not in axes]
    lay = np.transpose(x, keep + list(axes)).reshape([s[i] for i in keep] + [n])
    res = np.zeros(lay.shape[:-1], dtype=np.int64)
    for pos in np.ndindex(*lay.shape[:-1]):
        row = lay[pos]
        if is_float(t) and np.isnan(row).any():
            res[pos] = int(np.argmax(np.isnan(row)))
        elif n:
            res[pos] = int(np.argmax(row))
    c.expect(1, check_int('i32', res.reshape(os_)))
    return c


def out_size(h, p, d, r, s):
    return (h + 2 * p - d * (r - 1) - 1) // s + 1


def gen_conv2d(g, t):
    r = g.r
    for _ in range(100):
        groups = r.choice([1, 1, 2, 3])
        cg, kg = r.choice([0, 1, 1, 2, 3]), r.choice([0, 1, 1, 2])
        b = r.choice([0, 1, 1, 2])
        h, w = r.randint(0, 7), r.randint(0, 7)
        rr, qq = r.choice([1, 1, 2, 3, 0]), r.choice([1, 2, 3])
        st = [r.choice([1, 1, 2, 3]), r.choice([1, 2])]
        pd = [r.choice([0, 0, 1, 2]), r.choice([0, 1])]
        dl = [r.choice([1, 1, 2]), r.choice([1, 2])]
        oh, ow = out_size(h, pd[0], dl[0], rr, st[0]), out_size(w, pd[1], dl[1], qq, st[1])
        if oh >= 0 and ow >= 0:
            break
    c = Case('conv2d', t, params=st + pd + dl + [groups])
    kw = dict(special=0, scale=1.0, lo=-3, hi=3)
    x = c.view(g, t, [b, groups * cg, h, w], **kw)
    wt = c.view(g, t, [groups * kg, cg, rr, qq], **kw)
    c.view(g, t, [b, groups * kg, oh, ow], out=True)
    c.what += ' s%s p%s d%s g%d' % (st, pd, dl, groups)
    flt = is_float(t)
    shape = (b, groups * kg, oh, ow)
    if flt:
        v, mag = np.zeros(shape), np.zeros(shape)
    else:
        v = np.zeros(shape, np.uint64)
    if oh > 0 and ow > 0 and b > 0:
        xp = np.zeros((b, groups * cg, h + 2 * pd[0], w + 2 * pd[1]), np.float64 if flt else np.uint64)
        xp[:, :, pd[0]:pd[0] + h, pd[1]:pd[1] + w] = x if flt else mod64(x)
        wv = wt if flt else mod64(wt)
        with np.errstate(all='ignore'):
            for o in range(groups * kg):
                gi = o // kg
                for a in range(rr):
                    for q in range(qq):
                        sl = xp[:, gi * cg:(gi + 1) * cg,
                                a * dl[0]: a * dl[0] + st[0] * (oh - 1) + 1: st[0],
                                q * dl[1]: q * dl[1] + st[1] * (ow - 1) + 1: st[1]]
                        v[:, o] += np.einsum('bcij,c->bij', sl, wv[o, :, a, q])
                        if flt:
                            mag[:, o] += np.einsum('bcij,c->bij', np.abs(sl), np.abs(wv[o, :, a, q]))
    n = cg * rr * qq
    if flt:
        c.expect(2, check_float(t, v, 2 * (n + 2) * U * mag))
    else:
        c.expect(2, check_int(t, from_mod64(v)))
    return c


def windows(xp, rr, qq, st, oh, ow):
    """The pooling windows of padded planes xp [..., H, W] as [..., oh, ow, rr * qq]."""
    lead = xp.shape[:-2]
    if oh == 0 or ow == 0 or rr * qq == 0:
        return np.zeros(lead + (oh, ow, rr * qq), xp.dtype)
    parts = []
    for a in range(rr):
        for q in range(qq):
            parts.append(xp[..., a: a + st[0] * (oh - 1) + 1: st[0], q: q + st[1] * (ow - 1) + 1: st[1]])
    return np.stack(parts, axis=-1)


def gen_pool2d(g, t, op):
    r = g.r
    for _ in range(100):
        lead = g.shape(lo=0, hi=3, limit=6)
        h, w = r.randint(0, 7), r.randint(0, 7)
        win = [r.choice([1, 2, 3, 0]) if r.random() < 0.1 else r.choice([1, 2, 3]), r.choice([1, 2, 3])]
        st = [r.choice([1, 1, 2, 3]), r.choice([1, 2])]
        pd = [r.choice([0, 0, 1, 2]), r.choice([0, 1])]
        oh, ow = out_size(h, pd[0], 1, win[0], st[0]), out_size(w, pd[1], 1, win[1], st[1])
        if oh >= 0 and ow >= 0:
            break
    c = Case('pool2d', t, params=[REDOPS.index(op)] + win + st + pd)
    c.what += ' %s w%s s%s p%s' % (op, win, st, pd)
    kw = dict(special=0.1 if op == 'max' else 0, lo=-5, hi=5)
    x = c.view(g, t, lead + [h, w], **kw)
    c.view(g, t, lead + [oh, ow], out=True)
    flt = is_float(t)
    if op == 'max':
        fillv = -np.inf if flt else RANGE[t][0]
    else:
        fillv = 0
    xp = np.full(tuple(lead) + (h + 2 * pd[0], w + 2 * pd[1]), fillv, dtype=np.float64 if flt else object)
    xp[..., pd[0]:pd[0] + h, pd[1]:pd[1] + w] = x if flt else as_object(x)
    win_ = windows(xp, win[0], win[1], st, oh, ow)
    n = win[0] * win[1]
    with np.errstate(all='ignore'):
        if op == 'max':
            if flt:
                v = np.max(win_, axis=-1, initial=-np.inf)
                c.expect(1, check_float(t, v))
            else:
                v = np.max(win_, axis=-1, initial=RANGE[t][0]) if win_.size else np.full(win_.shape[:-1], RANGE[t][0], dtype=object)
                c.expect(1, check_int(t, np.asarray(v, dtype=object)))
        else:
            if flt:
                v = np.sum(win_, axis=-1) / n if n else np.full(win_.shape[:-1], np.nan)
                tol = 2 * (n + 2) * U * np.sum(np.abs(win_), axis=-1) / max(n, 1)
                c.expect(1, check_float(t, v, tol))
            else:
                sums = np.sum(win_, axis=-1) if win_.size else np.zeros(win_.shape[:-1], dtype=object)
                sums = np.asarray(sums, dtype=object)
                v = np.array([0 if n == 0 else wrap64(e) // n for e in sums.ravel()], dtype=object).reshape(sums.shape)
                c.expect(1, check_int(t, v))
    return c


def gen_upsample2d(g, t):
    c = Case('upsample2d', t)
    lead = g.shape(lo=0, hi=3, limit=6)
    h, w = g.r.randint(0, 4), g.r.randint(0, 4)
    f = [g.r.choice([0, 1, 2, 3]) if g.r.random() < 0.2 else g.r.choice([1, 2, 3]), g.r.choice([1, 2, 3])]
    c.params = f
    x = c.view(g, t, lead + [h, w])
    c.view(g, t, lead + [h * f[0], w * f[1]], out=True)
    v = np.repeat(np.repeat(x, f[0], axis=-2), f[1], axis=-1)
    c.expect(1, check_float(t, v) if is_float(t) else check_int(t, v))
    return c


def gen_softmax(g, t, log):
    c = Case('softmax', t, params=[log])
    c.what += ' log' if log else ''
    s = g.shape(lo=1, hi=4, limit=120, big=8)
    x = c.view(g, t, s, special=0.05, lo=-6, hi=6, scale=3.0)
    c.view(g, t, s, out=True)
    n = s[-1]
    with np.errstate(all='ignore'):
        xf = x.astype(np.float64)
        m = np.max(xf, axis=-1, keepdims=True, initial=-np.inf)
        d = xf - m
        e = np.exp(d)
        ssum = np.sum(e, axis=-1, keepdims=True)
        if log:
            v = d - np.log(ssum)
            tol = 4 * (n + 4) * U * (np.abs(d) + np.abs(np.log(ssum)) + 1)
        else:
            v = e / ssum
            tol = 4 * (n + 4) * U * np.abs(v) + 1e-300
    c.expect(1, check_result(t, v, tol))
    return c


def gen_layernorm(g, t):
    c = Case('layernorm', t)
    s = g.shape(lo=1, hi=4, limit=120, big=8)
    n = s[-1]
    kw = dict(special=0, lo=-5, hi=5, extreme=0)
    x = c.view(g, t, s, **kw)
    gg = c.view(g, t, [n], **kw)
    bb = c.view(g, t, [n], **kw)
    c.view(g, t, s, out=True)
    xf, gf, bf = (a.astype(np.float64) for a in (x, gg, bb))
    with np.errstate(all='ignore'):
        mean = np.mean(xf, axis=-1, keepdims=True) if n else np.zeros(s[:-1] + [1])
        var = np.mean((xf - mean) ** 2, axis=-1, keepdims=True) if n else np.zeros(s[:-1] + [1])
        rstd = 1.0 / np.sqrt(var + 1e-5)
        v = (xf - mean) * rstd * gf + bf
        mag = (np.abs(xf) + np.mean(np.abs(xf), axis=-1, keepdims=True)) * rstd * np.abs(gf) + np.abs(bf) if n else 0
        tol = 16 * (n + 4) * U * mag
    c.expect(3, check_result(t, v, tol))
    return c


def gen_gather(g, t):
    c = Case('gather', t)
    r = g.r
    vrows = r.choice([0, 1, 2, 3, 5])
    srow = g.shape(lo=0, hi=3, limit=12)
    p = g.shape(lo=0, hi=3, limit=12)
    np_ = int(np.prod(p, dtype=np.int64))
    err_case = r.random() < 0.2 or vrows == 0
    table = c.view(g, t, [vrows] + srow)

    def idxdata(n):
        d = g.np.integers(0, max(vrows, 1), n)
        if err_case and n:
            bad = [-1, vrows, vrows + 7, -2**31, 2**31 - 1]
            d[g.np.integers(0, n, r.randint(1, 2))] = r.choice(bad)
        return d
    idx = c.view(g, 'i32', p, data=idxdata)
    c.view(g, t, p + srow, out=True)
    flat = idx.ravel()
    first_bad = next((i for i, v in enumerate(flat) if v < 0 or v >= vrows), None)
    rows = np.zeros(p + srow, dtype=np.float64 if is_float(t) else np.int64)
    for pos in np.ndindex(*p):
        i = int(idx[pos])
        if 0 <= i < vrows:
            rows[pos] = table[i]
    whole = check_float(t, rows) if is_float(t) else check_int(t, rows)
    if first_bad is None:
        c.expect(2, whole)
        return c
    c.error(STATUS_INDEX, GATHER_SITE, int(flat[first_bad]), first_bad, vrows)
    per_row = int(np.prod(srow, dtype=np.int64))
    # rows before the bad one: written right or not written; from it on: not written
    before = (np.arange(np_ * per_row) // max(per_row, 1) < first_bad).reshape(p + srow)

    def check(got, gbits, ibits):
        same = gbits == ibits
        if not (same | before).all():
            return 'a row at or past the bad index (%d) was written' % first_bad
        if whole(np.where(before, got, rows), gbits, ibits) is not None and not same.all():
            msg = whole(np.where(same, rows, got), gbits, ibits)
            return msg and 'before the bad index: ' + msg
        return None
    c.expect(2, check)
    return c


def gen_topk(g, t):
    c = Case('topk', t)
    r = g.r
    s = g.shape(lo=1, hi=4, limit=100, big=8)
    n = s[-1]
    k = r.randint(0, n)

    def data(m):
        if is_float(t):
            pool = np.array([np.nan, np.nan, 0.0, -0.0, 1.0, -1.0, 2.5, np.inf, -np.inf, 0.5])
            return round_to(t, np.where(g.np.random(m) < 0.5, pool[g.np.integers(0, len(pool), m)],
                                        g.np.standard_normal(m)))
        return g.ints(t, m, lo=-3, hi=3)
    x = c.view(g, t, s, data=data)
    c.view(g, t, s[:-1] + [k], out=True)
    c.view(g, 'i32', s[:-1] + [k], out=True)
    vals = np.zeros(s[:-1] + [k], dtype=np.float64 if is_float(t) else np.int64)
    inds = np.zeros(s[:-1] + [k], dtype=np.int64)
    for pos in np.ndindex(*s[:-1]):
        row = x[pos]
        if is_float(t):
            key = lambda j: (0, 0.0, j) if np.isnan(row[j]) else (1, -row[j], j)
        else:
            key = lambda j: (-int(row[j]), j)
        order = sorted(range(n), key=key)[:k]
        inds[pos] = order
        vals[pos] = [row[j] for j in order]
    c.expect(1, check_float(t, vals) if is_float(t) else check_int(t, vals))
    c.expect(2, check_int('i32', inds))
    return c


def gen_nonzero(g, t):
    c = Case('nonzero', t)
    n = g.r.choice([0, 1, 2, 5, 9, 20])
    x = c.view(g, t, [n], special=0.3, lo=-1, hi=1)
    c.view(g, 'i32', [n], out=True)
    nz = [i for i in range(n) if x[i] != 0]        # NaN != 0
    c.ret = len(nz)
    k = len(nz)

    def check(got, gbits, ibits):
        if list(got[:k]) != nz:
            return 'indices %s, expected %s' % (list(got[:k]), nz)
        if (gbits[k:] != ibits[k:]).any():
            return 'written past the count'
        return None
    c.expect(1, check)
    return c


def gen_convert(g, f, t):
    c = Case('convert', f, t)
    s = g.shape(limit=200)

    def data(n):
        if is_float(f):
            x = g.floats(f, n, special=0.15, scale=g.r.choice([1.0, 100.0, 1e5, 1e10]))
            if n and g.r.random() < 0.3:          # halfway cases of the narrower floats
                ties = np.array([1 + 2**-11, 1 + 3 * 2**-11, 1 + 2**-8, 1 + 3 * 2**-8, 65520.0, 65519.0,
                                 2.0**-25, 3 * 2.0**-26, 2.0**-134, 2.0**128 - 2**119, 0.1])
                pick = g.np.random(n) < 0.5
                x = np.where(pick, round_to(f, ties[g.np.integers(0, len(ties), n)]), x)
            return x
        x = g.ints(f, n, lo=-300, hi=300, extreme=0.2)
        if f == 'i64' and n:                      # past 2^53: no rounding through a double
            big = np.array([2**60 + 2**52 + 1, -(2**60 + 2**36 + 1), 2**55 + 2**31 + 2**30 + 1, 2**40 + 1],
                           dtype=np.int64)
            x = np.where(g.np.random(n) < 0.3, big[g.np.integers(0, len(big), n)], x)
        return x
    x = c.view(g, f, s, data=data)
    c.view(g, t, s, out=True)
    if is_float(t):
        if is_float(f):
            v = round_to(t, x)
        elif t == 'bf16':
            v = np.array([bf16_from_int(i) for i in x.ravel()], dtype=np.float64).reshape(s)
        else:
            with np.errstate(all='ignore'):
                v = np.asarray(x, dtype=np.int64).astype(NPT[t]).astype(np.float64)
        c.expect(1, check_float(t, v))
    elif is_float(f):
        if t == 'bool':
            c.expect(1, check_int(t, (x != 0).astype(np.int64)))   # NaN is true
        else:
            c.expect(1, check_trunc(t, x))
    else:
        c.expect(1, check_int(t, as_object(x)))
    return c


def gen_plan(g):
    r = g.r
    n = r.randint(0, 14)
    over = r.random() < 0.1
    sizes = [r.choice([0, 1, 8, 63, 64, 65, 100, 128, 129, 1000, 4096]) for _ in range(n)]
    if over and n:
        for i in r.sample(range(n), r.randint(1, n)):
            sizes[i] = r.choice([2**62, 2**63 - 1, 2**63 - 64, 2**62 + 1])
    first = [r.randint(0, 8) for _ in range(n)]
    last = [f + r.randint(0, 4) for f in first]
    c = Case('plan', 'u8', params=[n] + sizes + first + last)
    c.what += ' n=%d' % n
    # the plan, from the contract: largest first (ties by index), each at
    # the lowest multiple of 64 overlapping no placed buffer it lives with
    offs = [0] * n
    placed = []
    total = 0
    for i in sorted(range(n), key=lambda i: (-sizes[i], i)):
        if sizes[i] == 0:
            continue
        live = [j for j in placed if not (first[i] > last[j] or first[j] > last[i])]
        cands = sorted({0} | {-(-(offs[j] + sizes[j]) // 64) * 64 for j in live})
        for at in cands:
            if all(at + sizes[i] <= offs[j] or offs[j] + sizes[j] <= at for j in live):
                break
        offs[i] = at
        placed.append(i)
        total = max(total, at + sizes[i])
    overflow = total > 2**63 - 1
    c.ret = -1 if overflow else total

    def extra(lines):
        if overflow:
            return None
        o = lines.get('O', '').split()[1:]
        got = [int(v) for v in o]
        if got != offs:
            return 'offsets %s, expected %s' % (got, offs)
        return None
    c.extra = extra
    return c


VIEW_HELPERS = ['broadcast', 'dense', 'is_dense', 'index', 'slice', 'swap', 'reverse', 'unit', 'diagonal',
                'permute']


def gen_view(g, helper):
    r = g.r
    c = Case('view_' + helper, 'i32')
    c.what = 'view ' + helper
    inplace = r.randint(0, 1)
    lo = {'index': 1, 'slice': 1, 'swap': 1, 'reverse': 1, 'diagonal': 2, 'unit': 0}.get(helper, 0)
    s = g.shape(lo=lo, hi=7 if helper == 'unit' else 8, limit=120)     # (a unit axis more: at most 8)
    if helper == 'diagonal':
        a, b = sorted(r.sample(range(len(s)), 2))
        s[b] = s[a]
    if helper == 'dense':
        s = [r.randint(0, 60)]
    uniq = lambda n: np.arange(n, dtype=np.int64) + 1000
    x = c.view(g, 'i32', s, data=uniq, bcast=(helper != 'dense'))
    _, off, _, _, idx = c.views[0]
    n = len(c.bufs[0][1])
    buf = bits_to_values('i32', c.bufs[0][1])
    params = []
    if helper == 'broadcast':
        to = [r.choice([1, 2, 3]) for _ in range(r.randint(0, 2))]
        to += [d if d != 1 or r.random() < 0.5 else r.randint(0, 3) for d in s]
        while len(to) > 8:
            to.pop(0)
        params = [len(to)] + to
        exp = np.broadcast_to(x, to)
    elif helper == 'dense':
        avail = n - off
        shp = g.shape(lo=0, hi=4, limit=max(avail, 0))
        params = [len(shp)] + shp
        exp = buf[off: off + int(np.prod(shp, dtype=np.int64))].reshape(shp)
    elif helper == 'is_dense':
        c.ret = int(idx.size == 0 or (idx.ravel() == off + np.arange(idx.size)).all())
        exp = x
    elif helper == 'index':
        i = r.randint(0, s[0] - 1) if s[0] else 0
        if s[0] == 0:
            return gen_view(g, helper)
        params = [i]
        exp = x[i]
    elif helper == 'slice':
        k = r.randint(0, len(s) - 1)
        i = r.randint(0, s[k])
        j = r.randint(i, s[k])
        params = [k, i, j]
        exp = x[(slice(None),) * k + (slice(i, j),)]
    elif helper == 'swap':
        a, b = r.randint(0, len(s) - 1), r.randint(0, len(s) - 1)
        params = [a, b]
        exp = np.swapaxes(x, a, b)
    elif helper == 'reverse':
        exp = x[::-1]
    elif helper == 'unit':
        k = r.randint(0, len(s))
        params = [k]
        exp = np.expand_dims(x, k)
    elif helper == 'diagonal':
        params = [a, b]
        exp = np.moveaxis(np.diagonal(x, 0, a, b), -1, a)
    else:
        perm = list(range(len(s)))
        r.shuffle(perm)
        params = perm
        exp = np.transpose(x, perm)
    c.params = params + [inplace]
    exp = np.asarray(exp)

    def extra(lines):
        v = lines.get('V', '').split()[1:]
        voff, rank = int(v[0]), int(v[1])
        dims = [int(d) for d in v[2:2 + rank]]
        st = [int(d) for d in v[2 + rank:2 + 2 * rank]]
        if dims != list(exp.shape):
            return 'dims %s, expected %s' % (dims, list(exp.shape))
        if exp.size == 0:
            return None
        pos = np.full(dims, voff, dtype=np.int64)
        for k in range(rank):
            sh = [1] * rank
            sh[k] = dims[k]
            pos = pos + (np.arange(dims[k]) * st[k]).reshape(sh)
        if (pos < 0).any() or (pos >= n).any():
            return 'the view reaches outside its buffer'
        if not (buf[pos] == exp).all():
            return 'the view (offset %d, strides %s) shows other elements' % (voff, st)
        return None
    c.extra = extra
    return c


# ---------------------------------------------------------------- running and comparing

def combos(args):
    """(weight, generator) for every kernel and type it applies to."""
    out = []
    for t in TYPES:
        for op in UNOPS:
            out.append((1, lambda g, t=t, op=op: gen_unary(g, t, op)))
        for op in BINOPS:
            out.append((2, lambda g, t=t, op=op: gen_binary(g, t, op)))
        for op in CMPOPS:
            out.append((1, lambda g, t=t, op=op: gen_compare(g, t, op)))
        for op in REDOPS:
            out.append((2, lambda g, t=t, op=op: gen_reduce(g, t, op)))
        for op in ('max', 'mean'):
            out.append((3, lambda g, t=t, op=op: gen_pool2d(g, t, op)))
        for log in (0, 1):
            out.append((2, lambda g, t=t, log=log: gen_softmax(g, t, log)))
        for gen, w in ((gen_select, 2), (gen_copy, 3), (gen_fill, 2), (gen_arange, 1), (gen_matmul, 4),
                       (gen_einsum, 5), (gen_argmax, 4), (gen_conv2d, 5), (gen_upsample2d, 2),
                       (gen_layernorm, 3), (gen_gather, 4), (gen_topk, 3), (gen_nonzero, 2)):
            out.append((w, lambda g, t=t, gen=gen: gen(g, t)))
        for t2 in TYPES:
            out.append((1, lambda g, f=t, t2=t2: gen_convert(g, f, t2)))
    out.append((40, gen_plan))
    for h in VIEW_HELPERS:
        out.append((12, lambda g, h=h: gen_view(g, h)))
    return out


def parse_results(text):
    """The driver's output as one dict per case: R (fields), B (list of
    bit lists), V, O."""
    cases = []
    cur = None
    for line in text.split('\n'):
        if line.startswith('R '):
            head, _, msg = line.partition('|')
            f = head.split()
            cur = {'R': [int(v) for v in f[1:]], 'msg': msg, 'B': [], 'lines': {}}
            cases.append(cur)
        elif line.startswith('B'):
            cur['B'].append(line[1:].split())
        elif line[:1] in ('V', 'O'):
            cur['lines'][line[0]] = line
    return cases


def check_case(c, res):
    status, ret, canary, est, eline, ecol = res['R']
    if not canary:
        return 'a canary byte next to a buffer was overwritten'
    if status != c.status:
        return 'status %d (%s), expected %d' % (status, res['msg'], c.status)
    if c.status:
        if res['msg'] != c.message or est != c.status or (eline, ecol) != c.site[:2]:
            return 'error %d at %d:%d %r, expected %d at %d:%d %r' % (est, eline, ecol, res['msg'], c.status,
                                                                      c.site[0], c.site[1], c.message)
    if c.ret is not None and ret != c.ret:
        return 'returned %d, expected %d' % (ret, c.ret)
    after = []
    for (t, init), hexes in zip(c.bufs, res['B']):
        if len(hexes) != len(init):
            return 'a buffer came back with %d elements, not %d' % (len(hexes), len(init))
        after.append(np.array([int(h, 16) for h in hexes], dtype=np.uint64).astype(init.dtype)
                     if len(hexes) else init.copy())
    covered = [np.zeros(len(b[1]), bool) for b in c.bufs]
    for vi, check in c.outs:
        bi, _, dims, _, idx = c.views[vi]
        t, init = c.bufs[bi]
        gb, ib = after[bi][idx], init[idx]
        msg = check(bits_to_values(t, gb), gb, ib)
        if msg:
            return 'output %d: %s' % (vi, msg)
        covered[bi][idx.ravel()] = True
    for bi, ((t, init), a) in enumerate(zip(c.bufs, after)):
        changed = (a != init) & ~covered[bi]
        if changed.any():
            return 'buffer %d (%s) changed outside the output views, at %d' % (bi, t, int(np.argmax(changed)))
    if c.extra:
        return c.extra(res['lines'])
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--driver', required=True)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--rounds', type=int, default=4, help='cases per combination and weight unit')
    ap.add_argument('--keep', help='write the cases to this file')
    ap.add_argument('--only', help='only the cases whose description contains this')
    args = ap.parse_args()

    t0 = time.time()
    g = Gen(args.seed)
    cases = []
    for _ in range(args.rounds):
        for w, gen in combos(args):
            for _ in range(w):
                c = gen(g)
                if not args.only or args.only in c.what:
                    cases.append(c)
    text = '\n'.join(c.text() for c in cases) + '\n'
    t1 = time.time()
    if args.keep:
        with open(args.keep, 'w') as f:
            f.write(text)
    p = subprocess.run([args.driver], input=text.encode(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    t2 = time.time()
    results = parse_results(p.stdout.decode())
    failed = 0
    kinds = {}
    for i, c in enumerate(cases):
        kinds[c.kernel] = kinds.get(c.kernel, 0) + 1
        if i >= len(results):
            print('FAIL: case %d (%s): no result from the driver (exit status %d)' % (i, c.what, p.returncode))
            sys.stdout.write(p.stderr.decode()[-4000:])
            failed += len(cases) - i
            break
        msg = check_case(c, results[i])
        if msg:
            failed += 1
            if failed <= 30:
                print('FAIL: case %d (%s): %s' % (i, c.what, msg))
                print('  case: %s' % c.text()[:2000])
    if p.returncode != 0 and failed == 0:
        print('FAIL: the driver exited with status %d' % p.returncode)
        sys.stdout.write(p.stderr.decode()[-4000:])
        failed += 1
    t3 = time.time()
    print('kernels: ' + ', '.join('%s %d' % kv for kv in sorted(kinds.items())))
    print('kernels: %d cases, %d failed (generate %.1fs, run %.1fs, check %.1fs)'
          % (len(cases), failed, t1 - t0, t2 - t1, t3 - t2))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
