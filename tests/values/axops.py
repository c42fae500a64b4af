"""axops.py - Axon's built-in operators (spec sections 5, 5b, 9b) on tracked
tensors (tracked.T), with their error bounds and uncertain masks.

Every function here takes tensors whose element types were already made to
agree (literals forced) by the evaluator, and dims arguments as tuples of
ints.  Higher-order operators (map, reduce, loop, map2) live in evaluate.py.
"""
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from tracked import (T, DataError, EvalError, U, ETA, PBITS, K, LIB,
                     is_float, dtype_of, round_to, ulp_err, apply_same, bcast,
                     any_of, scaled, finish, rounding, int_info, check_int_divisor,
                     floordiv_int, int_pow, ambiguous_sign, ambiguous_pair, ambiguous_step)


def in_masks(vs, es):
    """(all inputs finite, some input inexact), element-wise."""
    fin = np.ones(np.shape(vs[0]), bool)
    inexact = np.zeros(np.shape(vs[0]), bool)
    for x, e in zip(vs, es):
        fin = fin & np.isfinite(x)
        inexact = inexact | (e > 0)
    return fin, inexact


def done(v, e, unc, elem, vs, es):
    fin, inexact = in_masks(vs, es)
    return finish(v, e, unc, elem, fin, inexact)


def same_elem(ts, what):
    elems = set(t.elem for t in ts)
    if len(elems) != 1:
        raise EvalError('%s: element types %s do not agree' % (what, ', '.join(sorted(elems))))
    return ts[0].elem


def const(c, elem):
    """A constant of an operator's definition (1e-5, 1/sqrt(2)) in the float
    element type: its float64 value, with the rounding to the type as bound."""
    r = round_to(c, elem)
    return T(np.float64(c), elem, abs(float(r) - c))


# ---------------------------------------------------------------- element-wise: floats

def f_addsub(a, b, sign):
    (x, y), (ex, ey), us = bcast(a, b)
    elem = a.elem
    with np.errstate(all='ignore'):
        v = x + y if sign > 0 else x - y
        e = ex + ey + rounding(v, elem, (ex == 0) & (ey == 0))
    return done(v, e, any_of(us), elem, [x, y], [ex, ey])


def f_mul(a, b):
    (x, y), (ex, ey), us = bcast(a, b)
    elem = a.elem
    with np.errstate(all='ignore'):
        v = x * y
        e = scaled(y, ex) + scaled(x, ey) + np.where((ex > 0) & (ey > 0), ex * ey, 0.0) \
            + rounding(v, elem, (ex == 0) & (ey == 0))
    return done(v, e, any_of(us), elem, [x, y], [ex, ey])


def f_div(a, b):
    (x, y), (ex, ey), us = bcast(a, b)
    elem = a.elem
    with np.errstate(all='ignore'):
        v = x / y
        e = scaled(1.0 / y, ex) + scaled(x / (y * y), ey) + ulp_err(v, elem)
        sing = (ey > 0) & (np.abs(y) <= K * ey)
        e = np.where(sing, np.inf, e)
    return done(v, e, any_of(us) | sing, elem, [x, y], [ex, ey])


def f_maxmin(a, b, is_max):
    (x, y), (ex, ey), us = bcast(a, b)
    with np.errstate(all='ignore'):
        v = np.maximum(x, y) if is_max else np.minimum(x, y)
        pick_x = (x >= y) if is_max else (x <= y)
        e = np.where(ambiguous_pair(x, ex, y, ey), np.maximum(ex, ey), np.where(pick_x, ex, ey))
    return done(v, e, any_of(us), a.elem, [x, y], [ex, ey])


def f_pow(a, b):
    (x, y), (ex, ey), us = bcast(a, b)
    elem = a.elem
    with np.errstate(all='ignore'):
        v = np.power(x, y)
        dx = y * np.power(x, y - 1)
        dy = v * np.log(np.abs(x))
        e = scaled(dx, ex) + scaled(dy, ey) + LIB * ulp_err(v, elem)
        int_y = (ey == 0) & (y == np.round(y)) & (y >= 1)
        sing = ((ex > 0) & (np.abs(x) <= K * ex) & ~int_y) | ((ey > 0) & (x <= K * ex))
        e = np.where(sing, np.inf, e)
    return done(v, e, any_of(us) | sing, elem, [x, y], [ex, ey])


def _sigmoid(x):
    with np.errstate(all='ignore'):
        ex = np.exp(-np.abs(x))
        return np.where(x >= 0, 1.0 / (1.0 + ex), ex / (1.0 + ex))


_erf = np.frompyfunc(math.erf, 1, 1)


def _erfv(x):
    x = np.asarray(x, np.float64)
    # (frompyfunc gives a Python float, not an array, for a 0-d input)
    return np.asarray(_erf(x), dtype=np.float64) if x.size else x.copy()


# name -> (f(x), derivative(x, v), local error in units of u|v|, singular(x, e))
def _sing_log(x, e):
    """log, rsqrt: an argument that may reach 0 (within K bounds of it); one
    surely below 0 gives NaN whatever the rounding (_surely_negative)."""
    return (e > 0) & (x - K * e <= 0) & (x + K * e >= 0)


def _sing_sqrt(x, e):
    return (e > 0) & (x - K * e < 0) & (x + K * e >= 0)


def _surely_negative(x, e):
    return (e > 0) & (x + K * e < 0)


FLOAT_UNARY = {
    'exp': (np.exp, lambda x, v: v, LIB, None),
    'log': (np.log, lambda x, v: 1.0 / x, LIB, _sing_log),
    'sqrt': (np.sqrt, lambda x, v: 0.5 / v, 2.0, _sing_sqrt),
    'rsqrt': (lambda x: 1.0 / np.sqrt(x), lambda x, v: 0.5 * v / x, LIB, _sing_log),
    'tanh': (np.tanh, lambda x, v: 1.0 - v * v, LIB, None),
    'sigmoid': (_sigmoid, lambda x, v: v * (1.0 - v), LIB, None),
    'erf': (_erfv, lambda x, v: 2.0 / math.sqrt(math.pi) * np.exp(-x * x), LIB, None),
    'sin': (np.sin, lambda x, v: np.cos(x), LIB, None),
    'cos': (np.cos, lambda x, v: np.sin(x), LIB, None),
}


def f_unary(name, a):
    x, ex, elem = a.v, a.e, a.elem
    f, deriv, local, sing = FLOAT_UNARY[name]
    with np.errstate(all='ignore'):
        v = f(x)
        e = scaled(deriv(x, v), ex) + local * ulp_err(v, elem)
        unc = a.unc
        ex_nan = ex
        if sing is not None:
            s = sing(x, ex)
            unc = unc | s
            e = np.where(s, np.inf, e)
            # the NaN of an argument surely below 0 is decided: not the
            # "NaN made from inexact values" that finish() marks
            ex_nan = np.where(_surely_negative(x, ex), 0.0, ex)
    return done(v, e, unc, elem, [x], [ex_nan])


def f_exact_unary(name, a):
    """neg, abs, relu: no rounding; relu is continuous, so its bound is
    the input's where the input may be positive, else 0."""
    x, ex = a.v, a.e
    with np.errstate(all='ignore'):
        if name == 'neg':
            return T(-x, a.elem, ex, a.unc)
        if name == 'abs':
            return T(np.abs(x), a.elem, ex, a.unc)
        v = np.maximum(x, 0.0)                   # NaN propagates
        e = np.where(x > -K * ex, ex, 0.0)
        e = np.where(np.isfinite(v), e, 0.0)
    return T(v, a.elem, e, a.unc)


def f_step(name, a):
    """floor, ceil, sign: exact results, uncertain near a jump."""
    x, ex = a.v, a.e
    with np.errstate(all='ignore'):
        if name == 'sign':
            v = np.sign(x)
            amb = ambiguous_sign(x, ex)
        else:
            f = np.floor if name == 'floor' else np.ceil
            v = f(x)
            amb = ambiguous_step(x, ex, f)
    return T(v, a.elem, 0.0, a.unc | amb)


# ---------------------------------------------------------------- element-wise: dispatch

ARITH = ('+', '-', '*', '/', 'maximum', 'minimum', 'max', 'min', 'pow')
COMPARE = {'lt': np.less, 'le': np.less_equal, 'gt': np.greater, 'ge': np.greater_equal,
           'eq': np.equal, 'ne': np.not_equal}
UNARY_EXACT = ('neg', 'abs', 'relu')
UNARY_STEP = ('floor', 'ceil', 'sign')
UNARY_COMPOSITE = ('gelu', 'silu')


def binary(op, a, b):
    elem = same_elem([a, b], "'%s'" % op)
    if op in COMPARE:
        return compare(op, a, b)
    if is_float(elem):
        if op in ('+', '-'):
            return f_addsub(a, b, 1 if op == '+' else -1)
        if op == '*':
            return f_mul(a, b)
        if op == '/':
            return f_div(a, b)
        if op == 'pow':
            return f_pow(a, b)
        return f_maxmin(a, b, op in ('max', 'maximum'))
    return int_binary(op, a, b)


def int_binary(op, a, b):
    (x, y), _, us = bcast(a, b)
    elem = a.elem
    if elem == 'bool':
        r = int_binary(op, T(x.astype(np.int8), 'i8'), T(y.astype(np.int8), 'i8'))
        return T(r.v != 0, 'bool', 0.0, any_of(us))
    dt = dtype_of(elem)
    with np.errstate(all='ignore'):
        if op == '+':
            v = x + y
        elif op == '-':
            v = x - y
        elif op == '*':
            v = x * y
        elif op == '/':
            check_int_divisor(y, x.size, us[1])
            v = floordiv_int(x, y)
        elif op in ('max', 'maximum'):
            v = np.maximum(x, y)
        elif op in ('min', 'minimum'):
            v = np.minimum(x, y)
        elif op == 'pow':
            v = int_pow(x, y)
        else:
            raise EvalError('no integer %s' % op)
    return T(np.asarray(v).astype(dt), elem, 0.0, any_of(us))


def compare(op, a, b):
    (x, y), (ex, ey), us = bcast(a, b)
    with np.errstate(all='ignore'):
        v = COMPARE[op](x, y)
        unc = any_of(us)
        if is_float(a.elem):
            unc = unc | ambiguous_pair(x, ex, y, ey)
    return T(v, 'bool', 0.0, unc)


def unary(name, a):
    elem = a.elem
    if is_float(elem):
        if name in UNARY_EXACT:
            return f_exact_unary(name, a)
        if name in UNARY_STEP:
            return f_step(name, a)
        if name == 'gelu':
            return gelu(a)
        if name == 'silu':
            return binary('*', a, f_unary('sigmoid', a))
        return f_unary(name, a)
    if elem == 'bool':
        if name in UNARY_EXACT + UNARY_STEP:
            return a
        return via_float(lambda t: unary(name, t), a)
    x = a.v
    with np.errstate(all='ignore'):
        if name == 'neg':
            v = -x
        elif name == 'abs':
            v = np.abs(x)
        elif name == 'relu':
            v = np.maximum(x, 0)
        elif name in ('floor', 'ceil'):
            v = x
        elif name == 'sign':
            v = np.sign(x)
        else:
            return via_float(lambda t: unary(name, t), a)
    return T(np.asarray(v).astype(x.dtype), elem, 0.0, a.unc)


def via_float(f, *ts):
    """A float function applied to integer or bool tensors (the spec is
    silent): computed in f64, then converted back as a cast does."""
    elem = ts[0].elem
    r = f(*[cast(t, 'f64') for t in ts])
    if isinstance(r, tuple):
        return tuple(cast(x, elem) if x.elem == 'f64' else x for x in r)
    return cast(r, elem)


# ---------------------------------------------------------------- casts

def cast(a, target):
    src = a.elem
    if src == target:
        return a
    if is_float(src):
        if is_float(target):
            return cast_float_float(a, target)
        if target == 'bool':
            with np.errstate(all='ignore'):
                return T(a.v != 0, 'bool', 0.0, a.unc | ambiguous_sign(a.v, a.e))
        return cast_float_int(a, target)
    # from an integer or bool: exact conversions
    if is_float(target):
        x = a.v
        with np.errstate(all='ignore'):
            if target == 'f32':
                v = x.astype(np.float32).astype(np.float64)
            else:
                v = round_to(x.astype(np.float64), target)
        return T(v, target, 0.0, a.unc)
    if target == 'bool':
        return T(a.v != 0, 'bool', 0.0, a.unc)
    with np.errstate(all='ignore'):
        return T(a.v.astype(dtype_of(target)), target, 0.0, a.unc)


def cast_float_float(a, target):
    with np.errstate(all='ignore'):
        v = round_to(a.v, target)
        if U[target] <= U[a.elem]:
            e = a.e                                  # widening: exact
        else:
            e = np.where(a.e > 0, a.e + 2.0 * ulp_err(v, target), 0.0)
        over = np.isfinite(a.v) & ~np.isfinite(v)  # overflows the target
        amb = over & (a.e > 0)
    return finish(v, e, a.unc | amb, target, np.isfinite(a.v), a.e > 0)


def cast_float_int(a, target):
    lo, hi = int_info(target)
    x, ex = a.v, a.e
    with np.errstate(all='ignore'):
        t = np.trunc(x)
        bad = ~np.isfinite(x) | (t < float(lo)) | (t >= float(hi) + 1.0)
        amb = ambiguous_step(x, ex, np.trunc)
        amb = amb | ((ex > 0) & ((np.trunc(x - K * ex) < float(lo)) | (np.trunc(x + K * ex) >= float(hi) + 1.0)))
        v = np.where(bad, 0.0, t)
        if target == 'u64':
            v = v.astype(np.uint64)
        else:
            v = v.astype(np.int64).astype(dtype_of(target))
    return T(v, target, 0.0, a.unc | bad | amb)


# ---------------------------------------------------------------- spec strings

def parse_spec(spec, nops):
    """'bhnd,bhmd->bhnm' -> ([operand tokens], output tokens); a token is a
    letter, '...' or (output only) '1'."""
    s = spec.replace(' ', '')
    if s.count('->') != 1:
        raise EvalError('spec %r: needs one ->' % spec)
    lhs, rhs = s.split('->')
    ins = lhs.split(',')
    if len(ins) != nops:
        raise EvalError('spec %r has %d operands, %d given' % (spec, len(ins), nops))

    def toks(part, allow_one):
        out, i = [], 0
        while i < len(part):
            if part.startswith('...', i):
                out.append('...')
                i += 3
            elif part[i].isalpha() or (allow_one and part[i] == '1'):
                out.append(part[i])
                i += 1
            else:
                raise EvalError('spec %r: unexpected %r' % (spec, part[i]))
        if out.count('...') > 1:
            raise EvalError('spec %r: two ... in one operand' % spec)
        return out
    ops = [toks(p, False) for p in ins]
    out = toks(rhs, True)
    letters_in = set(l for o in ops for l in o if l != '...')
    for l in out:
        if l not in ('...', '1') and l not in letters_in:
            raise EvalError('spec %r: output label %r is in no operand' % (spec, l))
    if any('...' in o for o in ops) != ('...' in out):
        raise EvalError('spec %r: ... must be in the output iff in an operand' % spec)
    outl = [l for l in out if l not in ('...', '1')]
    if len(set(outl)) != len(outl):
        raise EvalError('spec %r: a label twice in the output' % spec)
    return ops, out


def spec_sizes(spec, ops, shapes):
    """Check the operands against the spec; -> {label: size}, ellipsis shape."""
    sizes, ells = {}, []
    for toks, sh in zip(ops, shapes):
        nl = len([t for t in toks if t != '...'])
        if ('...' in toks and len(sh) < nl) or ('...' not in toks and len(sh) != nl):
            raise EvalError('spec %r: an operand of rank %d does not fit %r' % (spec, len(sh), ''.join(toks)))
        ne = len(sh) - nl
        i = 0
        for t in toks:
            if t == '...':
                ells.append(tuple(sh[i:i + ne]))
                i += ne
                continue
            if sizes.setdefault(t, sh[i]) != sh[i]:
                raise EvalError('spec %r: label %r is %d and %d' % (spec, t, sizes[t], sh[i]))
            i += 1
    try:
        ell = np.broadcast_shapes(*ells) if ells else ()
    except ValueError:
        raise EvalError('spec %r: the ... parts %s do not broadcast' % (spec, ells))
    return sizes, tuple(ell)


def np_spec(ops, out):
    return ','.join(''.join(o) for o in ops) + '->' + ''.join(t for t in out if t != '1')


def insert_ones(arr, out, nell):
    """Reshape a result laid out as `out` without its 1s to `out`."""
    shape, i = [], 0
    for t in out:
        if t == '1':
            shape.append(1)
        elif t == '...':
            shape.extend(arr.shape[i:i + nell])
            i += nell
        else:
            shape.append(arr.shape[i])
            i += 1
    return arr.reshape(shape)


# ---------------------------------------------------------------- contractions

def _ones(shape):
    return np.broadcast_to(np.float64(1.0), shape)


def _einsum(s, *arrs):
    return np.einsum(s, *arrs, optimize=len(arrs) > 1)


def contract(s, ts, nterms):
    """np.einsum spec `s` (no 1s) over tracked tensors; nterms is the number
    of terms each output element sums."""
    elem = same_elem(ts, 'einsum')
    m = len(ts)
    ones = [_ones(t.shape) for t in ts]

    def with_one(i, arr):
        return _einsum(s, *[arr if j == i else ones[j] for j in range(m)])

    def any_term(masks):
        """Per output element: does some term read a marked element?"""
        if not any(np.any(x) for x in masks):
            return None
        return sum(with_one(i, x.astype(np.float64)) for i, x in enumerate(masks)) > 0
    unc = any_term([t.unc for t in ts])
    unc = False if unc is None else unc
    if not is_float(elem):
        if elem == 'bool':
            v = _einsum(s, *[t.v.astype(np.int64) for t in ts]) != 0
        else:
            with np.errstate(all='ignore'):
                v = np.einsum(s, *[t.v for t in ts]).astype(dtype_of(elem))
        return T(v, elem, 0.0, unc)
    with np.errstate(all='ignore'):
        vs = [t.v for t in ts]
        absvs = [np.abs(x) for x in vs]
        v = _einsum(s, *vs)
        absv = _einsum(s, *absvs)
        e = np.zeros(np.shape(v))
        for i, t in enumerate(ts):
            if np.any(t.e > 0):
                e = e + _einsum(s, *[t.e if j == i else absvs[j] for j in range(m)])
        if m == 2 and np.any(ts[0].e > 0) and np.any(ts[1].e > 0):
            e = e + _einsum(s, ts[0].e, ts[1].e)
        roundings = max(nterms - 1 + (m - 1), 0) if nterms > 0 else 0
        local = roundings * U[elem] * absv + roundings * ETA[elem]
        # exact: integer-valued exact terms whose partial sums all fit (an
        # operand with no such element makes every term non-integer)
        nonint = [(t.e > 0) | (t.v != np.round(t.v)) for t in ts]
        if not any(x.size and np.all(x) for x in nonint):
            some = any_term(nonint)
            intg = np.ones(np.shape(v), bool) if some is None else ~some
            local = np.where(intg & (absv <= 2.0 ** PBITS[elem]), 0.0, local)
        e = e + local
        nonfin = any_term([~np.isfinite(t.v) for t in ts])
        fin = True if nonfin is None else ~nonfin
        inexact = any_term([t.e > 0 for t in ts])
        inexact = False if inexact is None else inexact
    return finish(v, e, unc, elem, fin, inexact)


def einsum(spec, *ts):
    ops, out = parse_spec(spec, len(ts))
    sizes, ell = spec_sizes(spec, ops, [t.shape for t in ts])
    outl = set(out)
    nterms = 1
    for l, n in sizes.items():
        if l not in outl:
            nterms *= n
    r = contract(np_spec(ops, out), list(ts), nterms)
    return apply_same(r, lambda a: insert_ones(a, out, len(ell)))


def reduce_spec(name, spec, a):
    """sum, mean, amax, amin, argmax with a one-operand spec."""
    if name == 'sum':
        return einsum(spec, a)
    ops, out = parse_spec(spec, 1)
    sizes, ell = spec_sizes(spec, ops, [a.shape])
    outl = set(out)
    red = []
    for l in ops[0]:
        if l != '...' and l not in outl and l not in red:
            red.append(l)
    n = 1
    for l in red:
        n *= sizes[l]
    if name == 'mean':
        s = einsum(spec, a)
        if is_float(a.elem):
            return binary('/', s, const(n, a.elem))
        if s.v.size and n == 0:
            raise DataError('mean over an empty axis', 'zero_division')
        return T(floordiv_int(s.v, np.asarray(n, s.v.dtype)) if n else s.v, a.elem, 0.0, s.unc)
    # lay the input out as [output axes..., reduced axes flattened]
    perm = np_spec(ops, out) + ''.join(red)
    lay = apply_same(a, lambda x: np.einsum(perm, x))
    outshape = lay.shape[:len(lay.shape) - len(red)]
    flat = apply_same(lay, lambda x: x.reshape(tuple(outshape) + (n,)))
    if name in ('amax', 'amin'):
        r = reduce_max(flat, name == 'amax')
    elif name == 'argmax':
        r = argmax_last(flat)
    else:
        raise EvalError(name)
    return apply_same(r, lambda x: insert_ones(x, out, len(ell)))


def reduce_max(a, is_max):
    """amax/amin over the last axis: -inf/+inf over an empty axis (for an
    integer type its least/greatest value), NaN propagates; continuous, so
    the bound is the largest bound over the axis."""
    x = a.v
    if is_float(a.elem):
        init = -np.inf if is_max else np.inf
    else:
        lo, hi = int_info(a.elem)
        init = (lo if is_max else hi)
        init = bool(init) if a.elem == 'bool' else init
    with np.errstate(all='ignore'):
        v = (np.max if is_max else np.min)(x, axis=-1, initial=init)
        e = np.max(a.e, axis=-1, initial=0.0)
        unc = np.any(a.unc, axis=-1)
        if is_float(a.elem):
            e = np.where(np.isfinite(v), e, 0.0)
    return T(v, a.elem, e, unc)


def order_keys(a):
    """Sort keys for 'largest first, NaN the largest, ties to the lower
    index' along the last axis: np.lexsort keys (last is primary)."""
    x = a.v
    if is_float(a.elem):
        isn = np.isnan(x)
        return (np.where(isn, 0.0, -x), ~isn)
    if a.elem == 'bool':
        return (~x,)
    return (np.invert(x),)                          # decreasing, no overflow


def argmax_last(a):
    n = a.shape[-1]
    if n == 0:
        if a.v.size or np.prod(a.shape[:-1], dtype=np.int64) > 0:
            raise DataError('argmax over an empty axis', 'empty')
        return T(np.zeros(a.shape[:-1], np.int32), 'i32')
    order = np.lexsort(order_keys(a), axis=-1)
    idx = order[..., 0]
    unc = np.any(a.unc, axis=-1)
    if is_float(a.elem):
        x, e = a.v, a.e
        xm = np.take_along_axis(x, idx[..., None], -1)
        em = np.take_along_axis(e, idx[..., None], -1)
        with np.errstate(all='ignore'):
            amb = ~np.isnan(x) & ~np.isnan(xm) & (e + em > 0) & (x + K * e >= xm - K * em)
        amb = amb & (np.arange(n) != idx[..., None])
        unc = unc | np.any(amb, axis=-1)
    return T(idx.astype(np.int32), 'i32', 0.0, unc)


def topk(a, k):
    if len(a.shape) < 1:
        raise EvalError('topk of a scalar')
    n = a.shape[-1]
    if not 0 <= k <= n:
        raise EvalError('topk: k = %d, the last axis is %d' % (k, n))
    order = np.lexsort(order_keys(a), axis=-1) if n else np.zeros(a.shape, np.int64)
    top = order[..., :k]
    vals = np.take_along_axis(a.v, top, -1)
    unc_any = np.any(a.unc, axis=-1, keepdims=True) if n else np.zeros(a.shape[:-1] + (1,), bool)
    e = np.max(a.e, axis=-1, keepdims=True, initial=0.0) if is_float(a.elem) else 0.0
    ve = np.where(np.isfinite(vals), e, 0.0) if is_float(a.elem) else 0.0
    values = T(vals, a.elem, ve, np.broadcast_to(unc_any, vals.shape))
    iunc = np.broadcast_to(unc_any, top.shape).copy()
    if is_float(a.elem) and k:
        iunc |= topk_order_uncertain(a, order, k)
    return values, T(top.astype(np.int32), 'i32', 0.0, iunc)


def topk_order_uncertain(a, order, k):
    """Positions < k whose index is not decided: the set of the top r is
    determined when every element of it surely beats every other one."""
    x = np.take_along_axis(a.v, order, -1)
    e = np.take_along_axis(a.e, order, -1)
    with np.errstate(all='ignore'):
        isn = np.isnan(x)
        lo = np.where(isn, np.inf, x - K * e)
        hi = np.where(isn, np.inf, x + K * e)
        n = x.shape[-1]
        pmin = np.minimum.accumulate(lo, axis=-1)                  # over ranks 0..r
        smax = np.flip(np.maximum.accumulate(np.flip(hi, -1), axis=-1), -1)  # over r..n-1
        settled = np.ones(x.shape[:-1] + (n + 1,), bool)           # top r settled, r = 0..n
        gap = pmin[..., :-1] > smax[..., 1:]
        # a tie of exact values (or of NaNs) is decided by the index
        tie = (pmin[..., :-1] == smax[..., 1:])
        if np.any(tie):
            gap = gap | (tie & exact_tie(x, e, isn, tie))
        settled[..., 1:n] = gap
    ok = settled[..., :k] & settled[..., 1:k + 1]
    return ~ok


def exact_tie(x, e, isn, tie):
    """For each boundary r with a tie: is no pair (i <= r < j) ambiguous?"""
    out = np.zeros(tie.shape, bool)
    for pos in zip(*np.nonzero(tie)):
        lead, r = pos[:-1], pos[-1]
        xs, es, ns = x[lead], e[lead], isn[lead]
        good = True
        for i in range(r + 1):
            for j in range(r + 1, len(xs)):
                if ns[i] or ns[j]:
                    continue
                if es[i] + es[j] > 0 and xs[i] - K * es[i] <= xs[j] + K * es[j]:
                    good = False
        out[pos] = good
    return out


def nonzero(a):
    if len(a.shape) != 1:
        raise EvalError('nonzero of rank %d (needs rank 1)' % len(a.shape))
    x = a.v
    nz = x != 0
    idx = np.nonzero(nz)[0].astype(np.int32)
    bad = a.unc.copy()
    if is_float(a.elem):
        bad |= ambiguous_sign(x, a.e)
    unc = np.zeros(idx.shape, bool)
    if bad.any():
        first = int(np.argmax(bad))
        unc[int(np.sum(nz[:first])):] = True
    return T(idx, 'i32', 0.0, unc)


# ---------------------------------------------------------------- last-axis composites

def keep_last(spec_name, a):
    return reduce_spec(spec_name, '...n->...1', a)


def shift_exact(m):
    """The maximum subtracted by softmax: any shift gives the same result
    (shift invariance), so its own error does not count."""
    return T(m.v, m.elem, 0.0, m.unc)


def softmax(a, log=False):
    if not is_float(a.elem):
        return via_float(lambda t: softmax(t, log), a)
    if len(a.shape) < 1:
        raise EvalError('softmax of a scalar')
    # the maximum subtracted as it is (spec 9b), an infinite one too: a row
    # with +inf (inf - inf) or only -inf (-inf + inf) is NaN throughout, as
    # PyTorch's softmax and log_softmax give it
    m = keep_last('amax', a)
    d = binary('-', a, shift_exact(m))
    z = unary('exp', d)
    s = keep_last('sum', z)
    if log:
        return binary('-', d, unary('log', s))
    return binary('/', z, s)


def layernorm(x, g, b):
    if not is_float(x.elem):
        return via_float(layernorm, x, g, b)
    if len(x.shape) < 1 or g.shape != x.shape[-1:] or b.shape != x.shape[-1:]:
        raise EvalError('layernorm: shapes %s, %s, %s' % (list(x.shape), list(g.shape), list(b.shape)))
    n = const(x.shape[-1], x.elem)
    mu = binary('/', keep_last('sum', x), n)
    d = binary('-', x, mu)
    var = binary('/', keep_last('sum', binary('*', d, d)), n)
    r = unary('rsqrt', binary('+', var, const(1e-5, x.elem)))
    return binary('+', binary('*', binary('*', d, r), g), b)


def gelu(x):
    """0.5 * x * (1 + erf(x / sqrt(2))), the exact erf form."""
    t = binary('*', x, const(1.0 / math.sqrt(2.0), x.elem))
    s = binary('+', T(np.float64(1.0), x.elem), unary('erf', t))
    return binary('*', T(np.float64(0.5), x.elem), binary('*', x, s))


# ---------------------------------------------------------------- shapes and data movement

def need_rank(a, r, what, exact_rank=True):
    if (len(a.shape) != r) if exact_rank else (len(a.shape) < r):
        raise EvalError('%s: an operand of rank %d (needs %s%d)' % (what, len(a.shape), '' if exact_rank else 'at least ', r))


def axis_arg(k, rank, what, extra=0):
    """An axis argument; negative counts from the last axis."""
    kk = k + rank if k < 0 else k
    if not 0 <= kk < rank + extra:
        raise EvalError('%s: axis %d of a rank-%d operand' % (what, k, rank))
    return kk


def matmul(a, b):
    need_rank(a, 2, 'matmul', False)
    if len(a.shape) != len(b.shape) or a.shape[:-2] != b.shape[:-2] or a.shape[-1] != b.shape[-2]:
        raise EvalError('matmul: shapes %s and %s' % (list(a.shape), list(b.shape)))
    return contract('...mk,...kn->...mn', [a, b], a.shape[-1])


def linear(a, w):
    need_rank(a, 1, 'linear', False)
    need_rank(w, 2, 'linear')
    if a.shape[-1] != w.shape[0]:
        raise EvalError('linear: shapes %s and %s' % (list(a.shape), list(w.shape)))
    return contract('...k,km->...m', [a, w], w.shape[0])


def transpose(a):
    need_rank(a, 2, 'transpose', False)
    return apply_same(a, lambda x: np.swapaxes(x, -1, -2))


def reverse(a):
    need_rank(a, 1, 'reverse', False)
    return apply_same(a, lambda x: x[::-1])


def concat_axis(ts, k):
    same_elem(ts, 'concat')
    r = len(ts[0].shape)
    k = axis_arg(k, r, 'concat_axis')
    for t in ts[1:]:
        if len(t.shape) != r or t.shape[:k] != ts[0].shape[:k] or t.shape[k + 1:] != ts[0].shape[k + 1:]:
            raise EvalError('concat: shapes %s' % ', '.join(str(list(t.shape)) for t in ts))
    return T(np.concatenate([t.v for t in ts], axis=k), ts[0].elem,
             np.concatenate([t.e for t in ts], axis=k), np.concatenate([t.unc for t in ts], axis=k))


def reshape(a, dims):
    if int(np.prod(dims, dtype=object)) != a.v.size:
        raise EvalError('reshape: %s to %s' % (list(a.shape), list(dims)))
    return apply_same(a, lambda x: x.reshape(dims))


def flatten(a):
    need_rank(a, 1, 'flatten', False)
    n = a.shape[0]
    rest = int(np.prod(a.shape[1:], dtype=np.int64))
    return apply_same(a, lambda x: x.reshape((n, rest)))


def slice_(a, k, i, j):
    r = len(a.shape)
    k = axis_arg(k, r, 'slice')
    if not 0 <= i <= j <= a.shape[k]:
        raise EvalError('slice: [%d, %d) of an axis of %d' % (i, j, a.shape[k]))
    idx = (slice(None),) * k + (slice(i, j),)
    return apply_same(a, lambda x: x[idx])


def expand(a, dims):
    try:
        if np.broadcast_shapes(a.shape, tuple(dims)) != tuple(dims):
            raise ValueError
    except ValueError:
        raise EvalError('expand: %s to %s' % (list(a.shape), list(dims)))
    return apply_same(a, lambda x: np.broadcast_to(x, tuple(dims)))


def gather(table, idx):
    need_rank(table, 1, 'gather', False)
    if is_float(idx.elem) or idx.elem == 'bool':
        raise EvalError('gather: indices of element type %s' % idx.elem)
    v = table.shape[0]
    ix = idx.v.astype(np.int64) if idx.elem != 'u64' else idx.v
    if ix.size and (np.any(ix < 0) or np.any(ix >= v)):
        out = (ix < 0) | (ix >= v)
        bad = ix[out].ravel()[0]
        raise DataError('gather: index %d outside [0, %d)' % (int(bad), v), 'index', bool(np.all(idx.unc[out])))
    ix = ix.astype(np.int64)
    r = apply_same(table, lambda x: x[ix])
    extra = (None,) * (len(table.shape) - 1)
    iu = np.broadcast_to(idx.unc[(Ellipsis,) + extra], r.shape)
    return T(r.v, r.elem, r.e, r.unc | iu)


def arange(n):
    with np.errstate(all='ignore'):
        return T(np.arange(n, dtype=np.int64).astype(np.int32), 'i32')


def upsample2d(a, f1, f2):
    need_rank(a, 4, 'upsample2d')
    return apply_same(a, lambda x: np.repeat(np.repeat(x, f1, axis=2), f2, axis=3))


def pad_value(elem, kind):
    if kind == 'max':
        if is_float(elem):
            return -np.inf
        return int_info(elem)[0] if elem != 'bool' else False
    return 0


def pad_spatial(a, pads, value):
    """pads: [(before, after)] for the trailing axes; padding is exact."""
    width = [(0, 0)] * (len(a.shape) - len(pads)) + list(pads)
    v = np.pad(a.v, width, constant_values=value)
    return T(v, a.elem, np.pad(a.e, width), np.pad(a.unc, width))


def pad2d(a, p):
    need_rank(a, 4, 'pad2d')
    return pad_spatial(a, [(p[0], p[1]), (p[2], p[3])], 0)


# ---------------------------------------------------------------- convolutions and pools

def out_size(n, k, s, p, d, what):
    if s < 1:
        raise EvalError('%s: stride %d' % (what, s))
    span = n + 2 * p - d * (k - 1) - 1
    # section 5's conv has no clause: its output h - r + 1 only must be a
    # size (0 where the window is one longer than the input); the others
    # say r <= h + 2 * p (docs/language.md, 5b)
    if span < (-1 if what == 'conv' else 0):
        raise EvalError('%s: a window of %d (dilation %d) on %d with padding %d' % (what, k, d, n, p))
    return span // s + 1


def windows(a, ks, stride, dil):
    """A view [..., *out, *ks] of the windows over the trailing len(ks) axes."""
    a = np.ascontiguousarray(a)
    nd = len(ks)
    sp = a.shape[-nd:]
    out = tuple(max((sp[i] - dil[i] * (ks[i] - 1) - 1) // stride[i] + 1, 0) for i in range(nd))
    shape = a.shape[:-nd] + out + tuple(ks)
    st = a.strides
    strides = st[:-nd] + tuple(st[len(st) - nd + i] * stride[i] for i in range(nd)) \
        + tuple(st[len(st) - nd + i] * dil[i] for i in range(nd))
    return as_strided(a, shape, strides, writeable=False)


def conv(x, w, stride, pad, dil, groups, what, groups_clause=False):
    """Grouped, strided, dilated, zero-padded cross-correlation over the
    trailing len(stride) axes (NC..., weights KC...)."""
    nd = len(stride)
    same_elem([x, w], what)
    need_rank(x, nd + 2, what)
    need_rank(w, nd + 2, what)
    b, cx = x.shape[:2]
    kk, cw = w.shape[:2]
    ks = w.shape[2:]
    if groups_clause and any(k < 1 for k in ks):
        # conv1d_grouped / conv2d_grouped: `where 1 <= r` (docs/language.md)
        raise EvalError('%s: a window of %s (needs at least 1)' % (what, list(ks)))
    outs = tuple(out_size(x.shape[2 + i], ks[i], stride[i], pad[i], dil[i], what) for i in range(nd))
    g = groups
    if g == 0:
        if cx or kk:
            raise EvalError('%s: 0 groups of %d channels, %d filters' % (what, cx, kk))
        return T(np.zeros((b, 0) + outs, dtype_of(x.elem)), x.elem)
    if cx % g or kk % g or cx // g != cw:
        raise EvalError('%s: %d input channels, weights %s, %d groups' % (what, cx, list(w.shape), g))
    xp = pad_spatial(x, [(p, p) for p in pad], 0)
    c = cw

    def win(arr):
        wv = windows(arr, ks, stride, dil)
        return wv.reshape((b, g, c) + wv.shape[2:])
    xw = apply_same(xp, win)
    ww = apply_same(w, lambda arr: arr.reshape((g, kk // g, c) + tuple(ks)))
    sp = 'xyz'[:nd]
    kl = 'rqs'[:nd]
    s = 'bgc%s%s,gkc%s->bgk%s' % (sp, kl, kl, sp)
    nterms = c * int(np.prod(ks, dtype=np.int64))
    r = contract(s, [xw, ww], nterms)
    return apply_same(r, lambda arr: arr.reshape((b, kk) + outs))


def pool(x, ks, stride, pad, kind, what):
    nd = len(ks)
    need_rank(x, nd + 2, what)
    outs = tuple(out_size(x.shape[2 + i], ks[i], stride[i], pad[i], 1, what) for i in range(nd))
    xp = pad_spatial(x, [(p, p) for p in pad], pad_value(x.elem, kind))
    ones = (1,) * nd
    xw = apply_same(xp, lambda arr: windows(arr, ks, stride, ones))
    n = int(np.prod(ks, dtype=np.int64))
    flat = apply_same(xw, lambda arr: arr.reshape(arr.shape[:2] + outs + (n,)))
    if kind == 'max':
        return reduce_max(flat, True)
    s = contract('...n->...', [flat], n)
    if is_float(x.elem):
        return binary('/', s, const(n, x.elem))
    if s.v.size and n == 0:
        raise DataError('avgpool over an empty window', 'zero_division')
    return T(floordiv_int(s.v, np.asarray(n, s.v.dtype)), x.elem, 0.0, s.unc)
