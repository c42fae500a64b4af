"""tracked.py - tensors that carry a rounding-error bound and an uncertain
mask, and the element-wise primitives of Axon on them (NumPy only).

A float tensor's value is the float64 reference; its bound `e` is a
first-order bound on |(an evaluation in the element type) - (this value)|,
element by element; `unc` marks the elements that such an evaluation cannot
be trusted to reproduce (a discrete decision too close to call, an overflow
of the element type, a singularity within the error bound).  Integer and
bool tensors are exact (e = 0).  The model is described at the top of
evaluate.py and in README.md.
"""
import numpy as np

FLOATS = ('f16', 'bf16', 'f32', 'f64')
INT_DTYPES = {'i8': np.int8, 'i16': np.int16, 'i32': np.int32, 'i64': np.int64,
              'u8': np.uint8, 'u16': np.uint16, 'u32': np.uint32, 'u64': np.uint64}
ELEMS = ('bool',) + tuple(INT_DTYPES) + FLOATS

# unit roundoff, half the smallest subnormal (the absolute error of a
# rounding that underflows), the largest finite value, significand bits
U = {'f64': 2.0 ** -53, 'f32': 2.0 ** -24, 'f16': 2.0 ** -11, 'bf16': 2.0 ** -8}
ETA = {'f64': 2.0 ** -1074, 'f32': 2.0 ** -150, 'f16': 2.0 ** -25, 'bf16': 2.0 ** -134}
FMAX = {'f64': float(np.finfo(np.float64).max), 'f32': float(np.finfo(np.float32).max),
        'f16': 65504.0, 'bf16': (2.0 - 2.0 ** -7) * 2.0 ** 127}
PBITS = {'f64': 53, 'f32': 24, 'f16': 11, 'bf16': 8}

K = 4.0          # decision margin, in bounds; also the factor tests should use
LIB = 8.0        # a library function (exp, log, tanh, erf, ...): 4 ulps = 8 u


class DataError(Exception):
    """A data error of spec section 9b (a gather index out of range, an
    integer division by zero, argmax over an empty axis).  kind: 'index',
    'zero_division' or 'empty' (the header's AXON_ERR_INDEX,
    AXON_ERR_ZERO_DIVISION, AXON_ERR_EMPTY); uncertain: every offending
    element is marked uncertain (an index or a divisor computed from values
    too close to call), so an evaluation in the element type may not fail."""

    def __init__(self, msg, kind=None, uncertain=False):
        Exception.__init__(self, msg)
        self.kind, self.uncertain = kind, uncertain


class EvalError(Exception):
    """The program or its inputs are not valid (a type or shape mismatch)."""


def is_float(elem):
    return elem in FLOATS


def dtype_of(elem):
    if elem == 'bool':
        return np.bool_
    if elem in INT_DTYPES:
        return INT_DTYPES[elem]
    return np.float64


def elem_of_dtype(dt):
    dt = np.dtype(dt)
    for name, d in INT_DTYPES.items():
        if dt == np.dtype(d):
            return name
    return {np.dtype(np.bool_): 'bool', np.dtype(np.float16): 'f16',
            np.dtype(np.float32): 'f32', np.dtype(np.float64): 'f64'}.get(dt)


# ---------------------------------------------------------------- rounding

def round_bf16(v):
    """Round float64 values to bfloat16 (to nearest, ties to even, with
    subnormals and overflow to infinity), returned as float64."""
    v = np.asarray(v, dtype=np.float64)
    with np.errstate(all='ignore'):
        m, ex = np.frexp(v)                      # v = m * 2**ex, 0.5 <= |m| < 1
        ex = np.maximum(ex, -125)                # below 2**-126: fixed quantum 2**-133
        q = np.ldexp(np.ones_like(v), ex - 8)
        r = np.rint(v / q) * q
        r = np.where(np.abs(r) > FMAX['bf16'], np.copysign(np.inf, v), r)
        return np.where(np.isfinite(v), r, v)


def round_to(v, elem):
    """The float64 values rounded to the float element type `elem`."""
    v = np.asarray(v, dtype=np.float64)
    with np.errstate(all='ignore'):
        if elem == 'f64':
            return v
        if elem == 'f32':
            return v.astype(np.float32).astype(np.float64)
        if elem == 'f16':
            return v.astype(np.float16).astype(np.float64)
        if elem == 'bf16':
            return round_bf16(v)
    raise ValueError(elem)


def ulp_err(v, elem):
    """One rounding of the result v: u * |v| plus the underflow term."""
    return U[elem] * np.abs(v) + ETA[elem]


# ---------------------------------------------------------------- values

class T(object):
    """A tensor: value v (float64 for float types, the exact NumPy dtype
    otherwise), element type name, bound e (float64), uncertain mask unc."""
    __slots__ = ('v', 'elem', 'e', 'unc')

    def __init__(self, v, elem, e=None, unc=None):
        v = np.asarray(v, dtype=dtype_of(elem))
        self.v, self.elem = v, elem
        self.e = np.zeros(v.shape) if e is None else np.broadcast_to(
            np.asarray(e, dtype=np.float64), v.shape)
        self.unc = np.zeros(v.shape, bool) if unc is None else np.broadcast_to(
            np.asarray(unc, dtype=bool), v.shape)

    @property
    def shape(self):
        return self.v.shape

    def __repr__(self):
        return 'T(%s, %r, e=%r, unc=%r)' % (self.elem, self.v, self.e, self.unc)


def exact(v, elem):
    if is_float(elem):
        v = round_to(v, elem)
    return T(v, elem)


def apply_same(t, f):
    """A data movement (reshape, slice, permute, ...): f on v, e and unc."""
    return T(f(t.v), t.elem, f(t.e), f(t.unc))


def bcast(*ts):
    """Broadcast the tensors' v, e and unc to one shape (NumPy rules)."""
    try:
        shape = np.broadcast_shapes(*[t.shape for t in ts])
    except ValueError:
        raise EvalError('shapes %s do not broadcast' % ', '.join(str(list(t.shape)) for t in ts))
    vs = [np.broadcast_to(t.v, shape) for t in ts]
    es = [np.broadcast_to(t.e, shape) for t in ts]
    us = [np.broadcast_to(t.unc, shape) for t in ts]
    return vs, es, us


def any_of(us):
    out = np.zeros(np.shape(us[0]), bool)
    for u in us:
        out = out | u
    return out


def scaled(d, e):
    """|d| * e, 0 where e is 0 (an exact input: no term, even if d is inf)."""
    with np.errstate(all='ignore'):
        return np.where(e > 0, np.abs(d) * e, 0.0)


def finish(v, e, unc, elem, fin_in, inexact):
    """The common tail of a float operation: non-finite results, bounds that
    are not finite, and results outside the element type's range.  fin_in:
    where every input is finite; inexact: where some input has a bound."""
    with np.errstate(all='ignore'):
        v = np.asarray(v, dtype=np.float64)
        e = np.asarray(e, dtype=np.float64)
        nonfin = ~np.isfinite(v)
        # an overflow or a NaN made from finite inexact inputs
        unc = unc | (nonfin & fin_in & inexact)
        e = np.where(nonfin, 0.0, e)
        bad = ~np.isfinite(e)
        over = np.isfinite(v) & (np.abs(v) + K * np.where(bad, 0, e) > FMAX[elem])
        unc = unc | bad | over
        e = np.where(bad | over, np.inf, e)
    return T(v, elem, e, unc)


def rounding(v, elem, exact_in):
    """The local rounding of a correctly rounded + - *: exactly
    |round(v) - v| where the inputs are exact, else u|v| (+ underflow)."""
    with np.errstate(all='ignore'):
        r = np.abs(round_to(v, elem) - v)
        r = np.where(np.isfinite(r), r, 0.0)
    return np.where(exact_in, r, ulp_err(v, elem))


# ---------------------------------------------------------------- integers

def int_info(elem):
    if elem == 'bool':
        return 0, 1
    ii = np.iinfo(INT_DTYPES[elem])
    return int(ii.min), int(ii.max)


def check_int_divisor(y, out_size, unc=None):
    if out_size and np.any(y == 0):
        sure = not (unc is not None and np.all(np.broadcast_to(unc, np.shape(y))[y == 0]))
        raise DataError('integer division by zero', 'zero_division', not sure)


def floordiv_int(x, y):
    """Floored integer division (Python's //), wrapping at the width."""
    with np.errstate(all='ignore'):
        return np.floor_divide(x, y)


def int_pow(x, y):
    """x ** y at the integer width (wrapping); a negative exponent is
    1 / x ** -y, floored (a data error where x ** -y is 0)."""
    x, y = np.broadcast_arrays(x, y)
    dt = x.dtype
    out = np.zeros(x.shape, dt)
    neg = y < 0 if np.issubdtype(y.dtype, np.signedinteger) else np.zeros(y.shape, bool)
    with np.errstate(all='ignore'):
        yy = np.where(neg, -y.astype(np.int64), y.astype(np.int64)) if neg.any() else y.astype(np.int64)
        p = np.ones(x.shape, dt)
        base = x.copy()
        e = yy.copy()
        while np.any(e > 0):
            odd = (e & 1) == 1
            p = np.where(odd, (p * base).astype(dt), p)
            base = (base * base).astype(dt)
            e = e >> 1
        if neg.any():
            if np.any(p[neg] == 0):
                raise DataError('integer pow: 0 to a negative power', 'zero_division')
            one = np.ones(x.shape, dt)
            out = np.where(neg, floordiv_int(one, np.where(neg, p, 1)), p)
        else:
            out = p
    return out.astype(dt)


# ---------------------------------------------------------------- decisions

def ambiguous_sign(x, e):
    """Where x's sign (or zero-ness) is not decided at its bound."""
    return (e > 0) & (np.abs(x) <= K * e)


def ambiguous_pair(x, ex, y, ey):
    """Where the order of x and y is not decided (both within K bounds)."""
    with np.errstate(all='ignore'):
        s = ex + ey
        return (s > 0) & (np.abs(x - y) <= K * s)


def ambiguous_step(x, e, f):
    """Where the step function f (floor, ceil, trunc) may jump within
    [x - K e, x + K e]."""
    with np.errstate(all='ignore'):
        return (e > 0) & (f(x - K * e) != f(x + K * e))
