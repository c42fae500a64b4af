#!/usr/bin/env python3
"""evaluate.py - an independent evaluator of Axon programs in float64 NumPy,
the oracle that the header's run() (axon-spec.md section 9) is checked
against.  Written from the contract (axon-spec.md sections 2-5b, 9, 9b) and
docs/language.md only: it shares nothing with axonc (its parser,
tests/lib/axparse.py, shared with the shape interpreter of tests/semantic;
its operators, axops.py; its numerics, tracked.py).

Library use
    from evaluate import evaluate, BF16, DataError
    outs = evaluate(text, 'fn_name', [x, w, (2, 2)], elem_default='f32',
                    externs={'pad1': f}, path='prog.axon', include_dirs=['lib'])
    for o in outs: o.value, o.elem, o.bound, o.uncertain
Command line
    evaluate.py PROGRAM.axon FN --inputs IN.npz --out OUT.npz [-I DIR] [--elem-type f32]
    evaluate.py --selftest

PRECISION MODEL (running error analysis, first order)
    Every float value v (the float64 reference) carries a bound e such that
    an evaluation of the same program in the value's element type, with
    correctly rounded + - * / and sqrt, library functions within a few ulps,
    and sums in any order, gives v' with |v' - v| <= e to first order in the
    unit roundoff u (f64 2^-53, f32 2^-24, f16 2^-11, bf16 2^-8):
      - inputs, literals (rounded to their type), casts of exact values,
        data movement (reshape, slice, permute, pad, gather, ...): e = 0;
      - an element-wise op z = f(x, y): |df/dx| e_x + |df/dy| e_y + local,
        local = u|z| (+ the underflow term eta, half the least subnormal)
        for + - * / (exactly |round(z) - z| for + - * of exact inputs, which
        IEEE arithmetic then gives, FMA or not), 2 u|z| for sqrt, 8 u|z|
        (4 ulps) for exp log tanh sigmoid erf sin cos rsqrt pow; max, min,
        relu, abs, neg are 1-Lipschitz and add nothing;
      - a sum or contraction of n terms t_i: sum of the terms' propagated
        bounds + (n - 1 + products) u sum|t_i|, the classical bound of
        recursive summation in any order (pairwise and blocked sums, FMA,
        are within it); 0 when every term is an exact integer and
        sum|t_i| <= 2^p (every partial sum is then representable);
      - composites (softmax, log_softmax, layernorm, gelu, silu, mean,
        avgpool) are bounded as their defining formula, op by op
        (softmax's subtracted maximum counts as exact: any shift gives the
        same result); layernorm's eps and gelu's 1/sqrt(2) carry their
        rounding to the type.
    Sound to first order: each rounding is |delta| <= u of its result, and
    each step adds the first-order propagation of its inputs' errors (the
    derivative times the bound) to its own rounding, so by induction on the
    program the bound dominates the first-order term of the total error;
    second-order terms (O(u^2) relative) are absorbed by the factor k.
    A test compares  |run - ref| <= k * bound + tiny  with k = K = 4 (the
    factor the decisions below use too) and tiny about 1e-30; NaN must match
    NaN and an infinity the same infinity (their bound is 0).

UNCERTAIN ELEMENTS
    A discrete decision whose inputs are within K times their bounds of its
    boundary cannot be decided at the element type's precision: a
    comparison (|x - y| <= K (e_x + e_y)), floor/ceil/trunc (an integer
    within K e), sign and float->bool (|x| <= K e), argmax/topk order, a
    float->int cast out of range or of NaN, a nonzero test; likewise a
    singularity within the bound (a divisor, a log/rsqrt/sqrt argument
    that may reach 0), a value that may exceed the type's range (an
    overflow), a NaN or infinity made from finite inexact values.  Such
    elements are marked uncertain, and so is everything that reads them:
    an element-wise result reads its operands' elements, a reduction or
    contraction every element it sums, a gather row its index.  Exact
    values (e = 0) are always decided (ties of exact values follow the
    spec's rule).  Tests skip uncertain elements and report how many.
"""
import argparse
import collections
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))

import axops                                          # noqa: E402
from axparse import parse, ParseError, find_import    # noqa: E402
from tracked import (T, DataError, EvalError, ELEMS, LIB, K, is_float,  # noqa: E402
                     dtype_of, elem_of_dtype, round_to, round_bf16, ulp_err, apply_same,
                     int_info, bcast)

__all__ = ['evaluate', 'BF16', 'Output', 'DataError', 'EvalError', 'ParseError', 'K']

Output = collections.namedtuple('Output', 'value elem bound uncertain')


class BF16(object):
    """A bf16 input: values (any float array) rounded to bfloat16."""

    def __init__(self, values):
        self.values = round_bf16(np.asarray(values, dtype=np.float64))


# ---------------------------------------------------------------- run-time values

class Dims(object):
    """A dims value (spec 5b): a list of sizes.  from_end: an axis argument
    written in a built-in's call as a constant (`[-1]`), which may be
    negative and then counts from the last axis (docs/language.md, the
    decisions on negative axes); every other dims value gives sizes, >= 0."""
    __slots__ = ('d', 'from_end')

    def __init__(self, d, from_end=False):
        self.d = tuple(int(x) for x in d)
        self.from_end = from_end

    def __repr__(self):
        return 'Dims%r' % (self.d,)


class Weak(object):
    """A value made of literals only: its element type is that of its use,
    so it is computed when the type is known (force), f32 (the default
    element type) if it never is."""

    def __init__(self, thunk):
        self.thunk, self.memo = thunk, {}

    def force(self, elem):
        if elem not in self.memo:
            self.memo[elem] = self.thunk(elem)
        return self.memo[elem]


class Closure(object):
    def __init__(self, node, env, scope, name='lambda'):
        self.node, self.env, self.scope, self.name = node, env, scope, name


class Builtin(object):
    def __init__(self, name):
        self.name = name


class Extern(object):
    def __init__(self, name, ty, where):
        self.name, self.ty, self.where = name, ty, where


class Env(object):
    def __init__(self, parent=None):
        self.vars, self.parent = {}, parent

    def lookup(self, name):
        e = self
        while e is not None:
            if name in e.vars:
                return True, e.vars[name]
            e = e.parent
        return False, None


class Scope(object):
    """The annotation names of one call of a top-level item (sizes, shapes,
    element types).  A lambda call gets a child scope: a name it binds
    first goes to the item's scope; a name the lambda meets at another size
    than the item's (a lambda used at two shapes) is its own in that call."""

    def __init__(self, parent=None):
        self.sizes, self.elems, self.parent = {}, {}, parent

    def get(self, kind, name):
        s = self
        while s is not None:
            d = s.sizes if kind == 'size' else s.elems
            if name in d:
                return d[name]
            s = s.parent
        return None

    def bind(self, kind, name, value):
        cur = self.get(kind, name)
        if cur is None:
            root = self
            while root.parent is not None:
                root = root.parent
            (root.sizes if kind == 'size' else root.elems)[name] = value
        elif cur != value:
            if self.parent is None:
                raise EvalError("annotation name '%s' is %s here and %s before" % (name, value, cur))
            (self.sizes if kind == 'size' else self.elems)[name] = value


# ---------------------------------------------------------------- built-in table

UNARY = ('neg', 'exp', 'log', 'sqrt', 'tanh', 'sigmoid', 'relu', 'abs', 'erf', 'sin', 'cos',
         'rsqrt', 'gelu', 'silu', 'floor', 'ceil', 'sign')
BINARY = ('+', '-', '*', '/', 'max', 'min', 'maximum', 'minimum', 'pow')
COMPARE = ('lt', 'le', 'gt', 'ge', 'eq', 'ne')
SPEC_OPS = ('einsum', 'sum', 'mean', 'amax', 'amin', 'argmax')
HIGHER = ('map', 'map2', 'reduce', 'loop')
# results of the element type t of their operands: all-literal operands
# give a literal result (its type is that of its use)
T_RESULT = set(UNARY + BINARY + ('matmul', 'transpose', 'conv', 'concat', 'reverse', 'conv1d',
                                 'conv2d', 'conv2d_grouped', 'conv1d_grouped', 'maxpool2d',
                                 'avgpool2d', 'maxpool1d', 'avgpool1d', 'upsample2d', 'pad2d',
                                 'reshape', 'flatten', 'concat_axis', 'slice', 'expand', 'einsum',
                                 'sum', 'mean', 'amax', 'amin', 'softmax', 'log_softmax',
                                 'layernorm', 'linear', 'select'))
OTHER = ('gather', 'size', 'topk', 'nonzero', 'arange')
BUILTIN_NAMES = set(UNARY + BINARY + COMPARE + SPEC_OPS + HIGHER + OTHER + ELEMS) | T_RESULT


def literal_value(text):
    """'1.5f' -> (1.5, True); '3' -> (3, False)."""
    if text == 'inf':
        return float('inf'), True
    if text.isdigit():
        return int(text), False
    return float(text.rstrip('f')), True


def literal_tensor(value, is_frac, elem):
    if is_float(elem):
        return T(round_to(np.float64(value), elem), elem)
    if is_frac or elem in ('bool', 'dims'):
        raise EvalError('the literal %r cannot be of type %s' % (value, elem))
    lo, hi = int_info(elem)
    w = hi - lo + 1
    return T(np.asarray((int(value) - lo) % w + lo).astype(dtype_of(elem)), elem)


def weak_literal(value, is_frac):
    return Weak(lambda elem: literal_tensor(value, is_frac, elem))


# ---------------------------------------------------------------- the evaluator

class Evaluator(object):
    def __init__(self, items, elem_default='f32', externs=None):
        if elem_default not in ELEMS:
            raise EvalError('unknown element type %r' % elem_default)
        self.elem_default = elem_default
        self.externs = dict(externs or {})
        self.globals = Env()
        for it in items:
            self.define(it)

    def define(self, it):
        """An item sees the items above it (docs/language.md), not itself
        nor later ones: its environment is a snapshot of those."""
        above = Env()
        above.vars = dict(self.globals.vars)
        if it.kind == 'extern':
            v = Extern(it.name, it.node, it.where)
        elif it.node[0] == 'fn':
            v = Closure(it.node, above, None, it.name)
        else:
            v = self.eval(it.node, above, Scope())
        self.globals.vars[it.name] = v

    # -- values
    def tensor(self, v, what, elem=None):
        if isinstance(v, Weak):
            return v.force(elem or self.elem_default)
        if not isinstance(v, T):
            raise EvalError('%s: expected a tensor, got %s' % (what, kind_name(v)))
        return v

    def axis(self, v, what):
        """A built-in's axis argument: dims [k]; k < 0 only where written in
        the call as a constant (Dims.from_end)."""
        k = self.dims(v, 1, "the axis of '%s'" % what)[0]
        if k < 0 and not v.from_end:
            raise EvalError("'%s': an axis of %d from a dims value given elsewhere (only a constant "
                            "written in the call counts from the end)" % (what, k))
        return k

    def dims(self, v, n, what):
        if not isinstance(v, Dims):
            raise EvalError('%s: expected a dims value, got %s' % (what, kind_name(v)))
        if n is not None and len(v.d) != n:
            raise EvalError('%s: a dims value of %d sizes, expected %d' % (what, len(v.d), n))
        return v.d

    # -- expressions
    def eval(self, e, env, scope):
        k = e[0]
        if k == 'var':
            found, v = env.lookup(e[1])
            if found:
                return v
            if e[1] in BUILTIN_NAMES:
                return Builtin(e[1])
            raise EvalError("unknown name '%s'" % e[1])
        if k == 'num':
            return weak_literal(*literal_value(e[1]))
        if k == 'str':
            return e[1]
        if k == 'opval':
            return Builtin(e[1])
        if k == 'tuple':
            return tuple(self.eval(x, env, scope) for x in e[1])
        if k == 'call':
            f = self.eval(e[1], env, scope)
            ax = axis_position(f, len(e[2]))
            return self.apply(f, [self.eval_axis(a, scope) if i == ax and a[0] == 'dimsv'
                                  else self.eval(a, env, scope) for i, a in enumerate(e[2])])
        if k == 'bin':
            return self.call_builtin(e[1], [self.eval(e[2], env, scope), self.eval(e[3], env, scope)])
        if k == 'neg':
            return self.call_builtin('neg', [self.eval(e[1], env, scope)])
        if k == 'dimsv':
            v = Dims(self.eval_dim(d, scope) for d in e[1])
            if any(x < 0 for x in v.d):
                raise EvalError('this dims value gives a negative size, %d (only an axis argument '
                                'counts back from the end)' % min(v.d))
            return v
        if k == 'fn':
            return Closure(e, env, scope)
        raise EvalError('unknown expression %r' % (k,))

    def eval_axis(self, e, scope):
        """A dims value written as a built-in's axis argument: a negative
        constant (no names: `[-1]`, `[0 - 2]`) counts from the last axis; an
        expression of sizes (`[n - 1]`, `[rank(s)]`) is a size, counted from
        0, and must not be negative (as a run-time axis, a rank error)."""
        vals = []
        const = True
        for d in e[1]:
            vals.append(self.eval_dim(d, scope))
            const = const and dim_is_constant(d)
        if not const and any(x < 0 for x in vals):
            raise EvalError('an axis of %d: an axis given by sizes counts from 0' % min(vals))
        return Dims(vals, from_end=const)

    def exec_stmt(self, st, env, scope):
        if st[0] == 'let':
            self.bind_pattern(st[1], self.eval(st[2], env, scope), env)
        else:
            env.vars[st[1]] = self.match(st[2], self.eval(st[3], env, scope), scope)

    def bind_pattern(self, p, v, env):
        if p[0] == 'pname':
            env.vars[p[1]] = v
        elif p[0] == 'ptuple':
            if not isinstance(v, tuple) or len(v) != len(p[1]):
                raise EvalError('a pattern of %d items against %s' % (len(p[1]), kind_name(v)))
            for q, x in zip(p[1], v):
                self.bind_pattern(q, x, env)

    # -- calls
    def apply(self, f, args):
        if isinstance(f, Closure):
            return self.call_closure(f, args)
        if isinstance(f, Builtin):
            return self.call_builtin(f.name, args)
        if isinstance(f, Extern):
            return self.call_extern(f, args)
        raise EvalError('calling %s, not a function' % kind_name(f))

    def call_closure(self, clo, args):
        _, params, rtype, stmts, final, where = clo.node
        if len(args) != len(params):
            raise EvalError("'%s' takes %d arguments, %d given" % (clo.name, len(params), len(args)))
        scope = Scope(clo.scope) if clo.scope is not None else Scope()
        env = Env(clo.env)
        for (name, ty), a in zip(params, args):
            env.vars[name] = self.match(ty, a, scope) if ty is not None else a
        self.check_where(where, scope, clo.name)
        for st in stmts:
            self.exec_stmt(st, env, scope)
        r = self.eval(final, env, scope)
        return self.match(rtype, r, scope) if rtype is not None else r

    def call_builtin(self, name, args):
        if name in HIGHER:
            return getattr(self, 'op_' + name)(args)
        if name in ('max', 'min') and len(args) != 2:
            raise EvalError("'%s' takes 2 arguments" % name)
        group = self.group(name, args)
        typed = set(args[i].elem for i in group if isinstance(args[i], T))
        if len(typed) > 1:
            raise EvalError("'%s': element types %s do not agree" % (name, ', '.join(sorted(typed))))
        weak = [i for i in group if isinstance(args[i], Weak)]
        if weak and not typed and name in T_RESULT:
            return Weak(lambda elem: self.call_builtin(name, forced(args, weak, elem)))
        if weak:
            args = forced(args, weak, typed.pop() if typed else self.elem_default)
        return self.builtin_impl(name, args)

    @staticmethod
    def group(name, args):
        """The positions of the operands that share the element type t."""
        if name == 'select':
            return [i for i in (1, 2) if i < len(args)]
        if name in ('gather',) + ELEMS:
            return [0] if args else []
        return [i for i, a in enumerate(args) if isinstance(a, (T, Weak))]

    def builtin_impl(self, name, args):
        a = args
        t = lambda i: self.tensor(a[i], "argument %d of '%s'" % (i + 1, name))  # noqa: E731
        d = lambda i, n: self.dims(a[i], n, "argument %d of '%s'" % (i + 1, name))  # noqa: E731
        nargs = {'neg': 1, 'select': 3, 'gather': 2, 'size': 1, 'topk': 2, 'nonzero': 1,
                 'arange': 1, 'matmul': 2, 'linear': 2, 'transpose': 1, 'reverse': 1,
                 'flatten': 1, 'softmax': 1, 'log_softmax': 1, 'layernorm': 3, 'conv': 2,
                 'concat': 2, 'reshape': 2, 'expand': 2, 'slice': 4, 'conv1d': 4, 'conv2d': 4,
                 'conv2d_grouped': 6, 'conv1d_grouped': 6, 'maxpool2d': 4, 'avgpool2d': 4,
                 'maxpool1d': 4, 'avgpool1d': 4, 'upsample2d': 2, 'pad2d': 2}
        n = nargs.get(name, 1 if name in UNARY + ELEMS else 2 if name in BINARY + COMPARE else None)
        if name in SPEC_OPS:
            n = len(a) if name == 'einsum' else 2
        if n is not None and len(a) != n:
            raise EvalError("'%s' takes %d arguments, %d given" % (name, n, len(a)))
        if name in UNARY:
            return axops.unary(name, t(0))
        if name in BINARY + COMPARE:
            return axops.binary(name, t(0), t(1))
        if name in ELEMS:
            return axops.cast(t(0), name)
        if name in SPEC_OPS:
            if not isinstance(a[0], str):
                raise EvalError("'%s' needs a spec string first" % name)
            ts = [t(i) for i in range(1, len(a))]
            if name == 'einsum':
                return axops.einsum(a[0], *ts)
            return axops.reduce_spec(name, a[0], ts[0])
        if name == 'select':
            c = t(0)
            if c.elem != 'bool':
                raise EvalError("select: a condition of type %s" % c.elem)
            return select(c, t(1), t(2))
        if name == 'gather':
            return axops.gather(t(0), self.tensor(a[1], 'gather', 'i32'))
        if name == 'size':
            return weak_literal(d(0, 1)[0], False)
        if name == 'topk':
            return axops.topk(t(0), d(1, 1)[0])
        if name == 'arange':
            return axops.arange(d(0, 1)[0])
        if name == 'concat_axis':
            if len(a) < 3:
                raise EvalError("'concat_axis' takes two or more tensors, then the axis")
            return axops.concat_axis([t(i) for i in range(len(a) - 1)], self.axis(a[-1], name))
        simple = {'nonzero': axops.nonzero, 'transpose': axops.transpose,
                  'reverse': axops.reverse, 'flatten': axops.flatten, 'softmax': axops.softmax,
                  'log_softmax': lambda x: axops.softmax(x, log=True)}
        if name in simple:
            return simple[name](t(0))
        if name in ('matmul', 'linear'):
            return getattr(axops, name)(t(0), t(1))
        if name == 'layernorm':
            return axops.layernorm(t(0), t(1), t(2))
        if name == 'concat':
            return axops.concat_axis([t(0), t(1)], 0)
        if name == 'reshape':
            return axops.reshape(t(0), d(1, None))
        if name == 'expand':
            return axops.expand(t(0), d(1, None))
        if name == 'slice':
            return axops.slice_(t(0), self.axis(a[1], name), d(2, 1)[0], d(3, 1)[0])
        if name == 'conv':
            return axops.conv(t(0), t(1), (1, 1), (0, 0), (1, 1), 1, 'conv')
        if name in ('conv1d', 'conv2d'):
            nd = 1 if name == 'conv1d' else 2
            return axops.conv(t(0), t(1), d(2, nd), d(3, nd), (1,) * nd, 1, name)
        if name in ('conv1d_grouped', 'conv2d_grouped'):
            nd = 1 if name == 'conv1d_grouped' else 2
            return axops.conv(t(0), t(1), d(2, nd), d(3, nd), d(4, nd), d(5, 1)[0], name, True)
        if name in ('maxpool2d', 'avgpool2d', 'maxpool1d', 'avgpool1d'):
            nd = 1 if name.endswith('1d') else 2
            return axops.pool(t(0), d(1, nd), d(2, nd), d(3, nd), name[:3], name)
        if name == 'upsample2d':
            f = d(1, 2)
            return axops.upsample2d(t(0), f[0], f[1])
        if name == 'pad2d':
            return axops.pad2d(t(0), d(1, 4))
        raise EvalError("unknown built-in '%s'" % name)

    # -- higher-order built-ins
    def slices(self, x, what):
        x = self.tensor(x, what)
        if len(x.shape) < 1:
            raise EvalError('%s over a scalar' % what)
        return x, [apply_same(x, lambda a, i=i: a[i]) for i in range(x.shape[0])]

    def probe(self, f, args, what):
        """Apply f to zero slices, for the shape of a result over an empty axis."""
        try:
            return self.apply(f, args)
        except DataError:
            raise EvalError('%s over an empty axis: the function fails on a zero slice' % what)

    def zero_slice(self, x):
        return T(np.zeros(x.shape[1:], dtype_of(x.elem)), x.elem)

    def op_map(self, args):
        if len(args) != 2:
            raise EvalError("'map' takes 2 arguments")
        f, (x, xs) = args[0], self.slices(args[1], 'map')
        if not xs:
            return empty_stack(self.probe(f, [self.zero_slice(x)], 'map'), self)
        return self.stack([self.apply(f, [s]) for s in xs])

    def op_map2(self, args):
        if len(args) != 3:
            raise EvalError("'map2' takes 3 arguments")
        f, (x, xs), (y, ys) = args[0], self.slices(args[1], 'map2'), self.slices(args[2], 'map2')
        if len(xs) != len(ys):
            raise EvalError('map2: outer axes %d and %d' % (len(xs), len(ys)))
        if not xs:
            return empty_stack(self.probe(f, [self.zero_slice(x), self.zero_slice(y)], 'map2'), self)
        return self.stack([self.apply(f, [p, q]) for p, q in zip(xs, ys)])

    def op_reduce(self, args):
        """Folds left from the initial value (broadcast to a slice's shape),
        the accumulator first."""
        if len(args) != 3:
            raise EvalError("'reduce' takes 3 arguments")
        f, init, (x, xs) = args[0], args[1], self.slices(args[2], 'reduce')
        acc = self.tensor(init, 'reduce', x.elem)
        if acc.elem != x.elem:
            raise EvalError('reduce: initial value of type %s, slices of %s' % (acc.elem, x.elem))
        acc = axops.expand(acc, x.shape[1:])
        for s in xs:
            acc = self.apply(f, [acc, s])
        return acc

    def op_loop(self, args):
        """A scan: (state, per-step outputs stacked); zero steps give the
        initial state."""
        if len(args) != 3:
            raise EvalError("'loop' takes 3 arguments")
        h, f, (x, xs) = args[0], args[1], self.slices(args[2], 'loop')
        ys = []
        for s in xs:
            r = self.apply(f, [h, s])
            if not isinstance(r, tuple) or len(r) != 2:
                raise EvalError('loop: the function must return (state, output)')
            h, y = r
            ys.append(y)
        if not xs:
            r = self.probe(f, [h, self.zero_slice(x)], 'loop')
            if not isinstance(r, tuple) or len(r) != 2:
                raise EvalError('loop: the function must return (state, output)')
            return h, empty_stack(r[1], self)
        return h, self.stack(ys)

    def stack(self, rs):
        if all(isinstance(r, Weak) for r in rs):
            return Weak(lambda elem: self.stack([r.force(elem) for r in rs]))
        elems = set(r.elem for r in rs if isinstance(r, T))
        if len(elems) != 1:
            raise EvalError('map: results of types %s' % sorted(elems))
        ts = [self.tensor(r, 'map', next(iter(elems))) for r in rs]
        if len(set(t.shape for t in ts)) != 1:
            raise EvalError('map: results of shapes %s' % sorted(set(t.shape for t in ts)))
        return T(np.stack([t.v for t in ts]), ts[0].elem, np.stack([t.e for t in ts]),
                 np.stack([t.unc for t in ts]))

    # -- externs
    def call_extern(self, ext, args):
        ty = ext.ty
        if ty[0] != 'fun':
            raise EvalError("extern '%s' is not a function" % ext.name)
        if len(args) != len(ty[1]):
            raise EvalError("extern '%s' takes %d arguments" % (ext.name, len(ty[1])))
        if ext.name not in self.externs:
            raise EvalError("extern '%s' has no implementation (externs=...)" % ext.name)
        scope = Scope()
        args = [self.match(p, a, scope) for p, a in zip(ty[1], args)]
        self.check_where(ext.where, scope, ext.name)
        f = self.externs[ext.name]
        out = f(*[to_python(a, self) for a in args])
        tens = [x for x in leaves(args) if isinstance(x, T)]
        unc = any(bool(np.any(x.unc)) for x in tens)
        err = extern_sensitivity(f, args, out, self) if any(
            is_float(x.elem) and np.any(x.e > 0) for x in tens) else None
        return self.from_python(ty[2], out, scope, unc, err)

    def from_python(self, ty, out, scope, unc, err):
        if ty[0] == 'tuple':
            if not isinstance(out, (tuple, list)) or len(out) != len(ty[1]):
                raise EvalError('an extern returned %r for a tuple of %d' % (type(out), len(ty[1])))
            return tuple(self.from_python(t, o, scope, unc, err[i] if err else None)
                         for i, (t, o) in enumerate(zip(ty[1], out)))
        if ty[0] == 'tensor' and ty[1] == 'dims':
            return Dims(np.asarray(out).ravel())
        elem = self.elem_default
        if ty[0] == 'tensor':
            elem = ty[1] if ty[1] in ELEMS else (scope.get('elem', ty[1]) or self.elem_default)
        v = np.asarray(out, dtype=dtype_of(elem))
        if elem == 'bf16':
            v = round_bf16(v)
        e = 0.0
        if is_float(elem):
            e = LIB * ulp_err(v, elem) + (err if err is not None else 0.0)
        r = T(v, elem, e, np.full(v.shape, unc))
        return self.match(ty, r, scope)

    # -- annotations
    def match(self, ty, v, scope):
        """Check v against an annotation, binding its names; a literal value
        takes the annotation's element type where it is known."""
        k = ty[0]
        if k == 'tuple':
            if not isinstance(v, tuple) or len(v) != len(ty[1]):
                raise EvalError('a value of %s against a tuple type of %d' % (kind_name(v), len(ty[1])))
            return tuple(self.match(t, x, scope) for t, x in zip(ty[1], v))
        if k in ('fun', 'tvar'):
            return v
        elem, atoms = ty[1], ty[2]
        if elem == 'dims':
            if not isinstance(v, Dims):
                raise EvalError('%s where a dims value is expected' % kind_name(v))
            self.match_shape(atoms, v.d, scope)
            return v
        if isinstance(v, Weak):
            known = elem if elem in ELEMS else scope.get('elem', elem)
            if known is None:
                return v
            v = v.force(known)
        if not isinstance(v, T):
            raise EvalError('%s where a tensor is expected' % kind_name(v))
        if elem in ELEMS:
            if v.elem != elem:
                raise EvalError('a tensor of %s where %s is expected' % (v.elem, elem))
        else:
            scope.bind('elem', elem, v.elem)
        self.match_shape(atoms, v.shape, scope)
        return v

    def match_shape(self, atoms, shape, scope):
        shape = tuple(shape)
        ranks = []
        for a in atoms:
            if a[0] == 'dims':
                ranks.append(len(a[1]))
            elif a[0] == 'svar' and scope.get('size', a[1]) is not None:
                ranks.append(len(scope.get('size', a[1])))
            else:
                ranks.append(None)
        unknown = [i for i, r in enumerate(ranks) if r is None]
        known = sum(r for r in ranks if r is not None)
        if not unknown and known != len(shape) or known > len(shape):
            raise EvalError('shape %s does not fit the annotation (rank %d)' % (list(shape), known))
        if len(unknown) == 1:
            ranks[unknown[0]] = len(shape) - known
        pos = 0
        for a, r in zip(atoms, ranks):                     # left to right, to the first unknown
            if r is None:
                break
            self.match_atom(a, shape[pos:pos + r], scope)
            pos += r
        end = len(shape)
        for a, r in reversed(list(zip(atoms, ranks))):     # right to left, likewise
            if r is None:
                break
            self.match_atom(a, shape[end - r:end], scope)
            end -= r

    def match_atom(self, a, sizes, scope):
        if a[0] == 'dims':
            for d, n in zip(a[1], sizes):
                self.match_dim(d, n, scope)
        elif a[0] == 'svar':
            cur = scope.get('size', a[1])
            if cur is None or cur != tuple(sizes):
                scope.bind('size', a[1], tuple(sizes))

    def match_dim(self, d, n, scope):
        k = d[0]
        if k in ('rag', 'q', 'dbc'):
            return
        if k == 'dvar':
            cur = scope.get('size', d[1])
            if isinstance(cur, tuple):
                raise EvalError("'%s' is a shape, used as a size" % d[1])
            scope.bind('size', d[1], n)
            return
        val = self.try_dim(d, scope)
        if val is not None:
            if val != n:
                raise EvalError('a size %d where the annotation says %d' % (n, val))
            return
        if k == 'op':
            self.solve(d, n, scope)

    def solve(self, d, n, scope):
        """Bind the one unknown name of d (where it can be inverted) so
        that d = n; leave it unbound otherwise."""
        if d[0] == 'dvar':
            if n < 0:
                raise EvalError("annotation name '%s' would be %d" % (d[1], n))
            scope.bind('size', d[1], n)
            return
        if d[0] != 'op':
            return
        op, a, b = d[1], d[2], d[3]
        va, vb = self.try_dim(a, scope), self.try_dim(b, scope)
        if op == '+':
            if va is not None:
                self.solve(b, n - va, scope)
            elif vb is not None:
                self.solve(a, n - vb, scope)
        elif op == '-':
            if va is not None:
                self.solve(b, va - n, scope)
            elif vb is not None:
                self.solve(a, n + vb, scope)
        elif op == '*':
            c, other = (va, b) if va is not None else (vb, a)
            if c is not None and c != 0:
                if n % c:
                    raise EvalError('a size %d is not a multiple of %d' % (n, c))
                self.solve(other, n // c, scope)
        elif op == '/' and vb == 1:
            self.solve(a, n, scope)

    def check_where(self, clauses, scope, what):
        for op, a, b in clauses:
            va, vb = self.try_dim(a, scope), self.try_dim(b, scope)
            if va is None or vb is None:
                continue
            if (va != vb) if op == '=' else (va > vb):
                raise EvalError("'%s': the clause %d %s %d does not hold" % (what, va, op, vb))

    # -- dimensions
    def try_dim(self, d, scope):
        try:
            return self.eval_dim(d, scope)
        except Unbound:
            return None
        except EvalError:
            return None

    def eval_dim(self, d, scope):
        k = d[0]
        if k == 'int':
            return d[1]
        if k == 'dvar':
            v = scope.get('size', d[1]) if scope is not None else None
            if v is None:
                raise Unbound("the size '%s' is not bound by an annotation" % d[1])
            if isinstance(v, tuple):
                raise EvalError("'%s' is a shape, used as a size" % d[1])
            return v
        if k == 'op':
            x, y = self.eval_dim(d[2], scope), self.eval_dim(d[3], scope)
            if d[1] in ('/', '%') and y <= 0:
                raise EvalError('a size divided by %d (a divisor is a size, and not 0)' % y)
            return {'+': x + y, '-': x - y, '*': x * y, '/': x // y if y else 0,
                    '%': x % y if y else 0}[d[1]]
        if k in ('elements', 'rank'):
            sh = self.eval_shape(d[2], scope)
            return len(sh) if k == 'rank' else int(np.prod(sh, dtype=object))
        raise EvalError('a dimension %r has no value' % (k,))

    def eval_shape(self, atoms, scope):
        out = []
        for a in atoms:
            if a[0] == 'dims':
                out.extend(self.eval_dim(d, scope) for d in a[1])
            elif a[0] == 'svar':
                v = scope.get('size', a[1]) if scope is not None else None
                if not isinstance(v, tuple):
                    raise Unbound("the shape '%s' is not bound by an annotation" % a[1])
                out.extend(v)
            else:
                raise EvalError('broadcast(...) has no value here')
        return out


class Unbound(EvalError):
    pass


AXIS_ARG = {'concat_axis': -1, 'slice': 1}


def axis_position(f, nargs):
    """The position of a built-in's axis argument in a call of nargs
    arguments (concat_axis: the last; slice: the second), or None."""
    if isinstance(f, Builtin) and f.name in AXIS_ARG and nargs:
        return AXIS_ARG[f.name] % nargs
    return None


def dim_is_constant(d):
    """A dimension expression without names (sizes, elements, rank)."""
    if d[0] == 'int':
        return True
    if d[0] == 'op':
        return dim_is_constant(d[2]) and dim_is_constant(d[3])
    return False


def forced(args, positions, elem):
    out = list(args)
    for i in positions:
        if isinstance(out[i], Weak):
            out[i] = out[i].force(elem)
    return out


def select(c, b, x):
    (cv, bv, xv), (_, be, xe), (cu, bu, xu) = bcast(c, b, x)
    if b.elem != x.elem:
        raise EvalError('select: element types %s and %s' % (b.elem, x.elem))
    return T(np.where(cv, bv, xv), b.elem, np.where(cv, be, xe), cu | np.where(cv, bu, xu))


def empty_stack(r, ev):
    r = ev.tensor(r, 'map')
    return T(np.zeros((0,) + r.shape, dtype_of(r.elem)), r.elem)


def kind_name(v):
    if isinstance(v, T):
        return 'a tensor %s %s' % (v.elem, list(v.shape))
    if isinstance(v, Weak):
        return 'a literal'
    if isinstance(v, Dims):
        return 'dims %s' % list(v.d)
    if isinstance(v, tuple):
        return 'a tuple of %d' % len(v)
    if isinstance(v, (Closure, Builtin, Extern)):
        return 'a function'
    if isinstance(v, str):
        return 'a spec string'
    return type(v).__name__


def leaves(v):
    if isinstance(v, tuple):
        return [x for y in v for x in leaves(y)]
    return [v]


def to_python(a, ev):
    if isinstance(a, tuple):
        return tuple(to_python(x, ev) for x in a)
    if isinstance(a, Dims):
        return a.d
    if isinstance(a, Weak):
        a = a.force(ev.elem_default)
    if isinstance(a, T):
        return np.array(a.v)
    return a


def extern_sensitivity(f, args, out, ev):
    """A heuristic bound for an extern's outputs when its float inputs are
    inexact: twice the largest change of the outputs over a few perturbations
    of the inputs by their bounds (all +, all -, random signs)."""
    rng = np.random.default_rng(12345)
    base = [np.asarray(o, dtype=np.float64) for o in (out if isinstance(out, (tuple, list)) else [out])]
    worst = [np.zeros(b.shape) for b in base]
    for trial in range(4):
        def perturb(a):
            if isinstance(a, tuple):
                return tuple(perturb(x) for x in a)
            if isinstance(a, T) and is_float(a.elem):
                s = 1.0 if trial == 0 else -1.0 if trial == 1 else rng.choice([-1.0, 1.0], a.shape)
                return np.array(a.v + s * a.e)
            return to_python(a, ev)
        o = f(*[perturb(a) for a in args])
        o = o if isinstance(o, (tuple, list)) else [o]
        with np.errstate(all='ignore'):
            for i, (b, x) in enumerate(zip(base, o)):
                d = np.abs(np.asarray(x, dtype=np.float64) - b)
                worst[i] = np.maximum(worst[i], np.where(np.isnan(d), np.inf, d))
    worst = [2.0 * w for w in worst]
    return tuple(worst) if isinstance(out, (tuple, list)) else worst[0]


# ---------------------------------------------------------------- programs

def stem_name(path):
    base = os.path.basename(path or 'main.axon')
    if base.endswith('.axon'):
        base = base[:-5]
    s = ''.join(c if c.isalnum() or c == '_' else '_' for c in base)
    return '_' + s if not s or s[0].isdigit() else s


MAX_IMPORT_DEPTH = 256      # docs/language.md, section 9: imports nest at most 256 deep


def load_items(text, path, include_dirs):
    """The items of a file and of its imports (those first, in order);
    a file imported twice counts once."""
    items, done, stack = [], set(), []

    def resolve(name, importer):
        c = find_import(name, importer, include_dirs)
        if c is None:
            raise EvalError('%s: cannot find the import "%s"' % (importer or '<input>', name))
        return os.path.realpath(c)

    def visit(src, p, depth=0):
        imports, its = parse(src, p or '<input>')
        for name, _ in imports:
            r = resolve(name, p)
            if r in stack:
                raise EvalError('an import cycle: %s imports %s' % (p, r))
            if r in done:
                continue
            if depth + 1 > MAX_IMPORT_DEPTH:
                raise EvalError('%s: imports are nested more than %d deep' % (p, MAX_IMPORT_DEPTH))
            stack.append(r)
            with open(r) as fh:
                visit(fh.read(), r, depth + 1)
            stack.pop()
            done.add(r)
        for it in its:
            if it.kind == 'main':
                it.name = stem_name(p)
            items.append(it)
    if path:
        stack.append(os.path.realpath(path))
    visit(text, path)
    seen = {}
    for it in items:
        if it.name in seen:
            a = seen[it.name]
            raise EvalError("'%s' is defined twice: %s:%d and %s:%d"
                            % (it.name, a.filename, a.line, it.filename, it.line))
        seen[it.name] = it
    return items


def to_value(a):
    """An argument of evaluate() as an Axon value."""
    if isinstance(a, BF16):
        return T(a.values, 'bf16')
    if isinstance(a, (tuple, list)):
        if all(isinstance(x, (int, np.integer)) for x in a):
            if any(int(x) < 0 for x in a):
                raise EvalError('a dims argument %s with a negative size' % (tuple(int(x) for x in a),))
            return Dims(a)
        return tuple(to_value(x) for x in a)
    if isinstance(a, (np.ndarray, np.generic)):
        elem = elem_of_dtype(a.dtype)
        if elem is None:
            raise EvalError('no element type for the dtype %s' % a.dtype)
        return T(np.asarray(a).astype(dtype_of(elem)), elem)
    raise EvalError('an argument of type %s (give NumPy arrays, BF16, or tuples of ints '
                    'for dims)' % type(a).__name__)


def type_leaves(ty):
    if ty is not None and ty[0] == 'tuple':
        return sum(type_leaves(t) for t in ty[1])
    return 1


def regroup(params, args):
    """Flat arguments (spec 8: tuples flattened) grouped by the parameters'
    tuple annotations; arguments already one per parameter stay."""
    if len(args) == len(params):
        return list(args)
    counts = [type_leaves(ty) for _, ty in params]
    if sum(counts) != len(args):
        raise EvalError('%d arguments for %d parameters' % (len(args), len(params)))
    out, i = [], 0

    def build(ty):
        nonlocal i
        if ty is not None and ty[0] == 'tuple':
            return tuple(build(t) for t in ty[1])
        i += 1
        return args[i - 1]
    for _, ty in params:
        out.append(build(ty))
    return out


def flatten_out(v, ev, out):
    if isinstance(v, tuple):
        for x in v:
            flatten_out(x, ev, out)
        return out
    if isinstance(v, Weak):
        v = v.force(ev.elem_default)
    if isinstance(v, Dims):
        out.append(Output(v.d, 'dims', None, None))
    elif isinstance(v, T):
        out.append(Output(np.array(v.v), v.elem, np.array(v.e, dtype=np.float64),
                          np.array(v.unc, dtype=bool)))
    else:
        raise EvalError('an output that is %s' % kind_name(v))
    return out


def evaluate(source_text, fn_name, args, elem_default='f32', externs=None, path=None,
             include_dirs=()):
    """Evaluate top-level function fn_name (None: the file's main function)
    on args; -> [Output(value, elem, bound, uncertain)], the result
    flattened left to right through tuples."""
    items = load_items(source_text, path, list(include_dirs))
    if fn_name is None:
        mains = [it for it in items if it.kind == 'main' and it.filename == (path or '<input>')]
        if not mains:
            raise EvalError('the file has no main function')
        fn_name = mains[-1].name
    ev = Evaluator(items, elem_default, externs)
    found, f = ev.globals.lookup(fn_name)
    if not found and fn_name in BUILTIN_NAMES:
        found, f = True, Builtin(fn_name)
    if not found:
        raise EvalError("no item named '%s'" % fn_name)
    vals = [to_value(a) for a in args]
    if isinstance(f, Closure):
        vals = regroup(f.node[1], vals)
    elif not isinstance(f, (Builtin, Extern)):
        if vals:
            raise EvalError("'%s' is not a function" % fn_name)
        return flatten_out(f, ev, [])
    return flatten_out(ev.apply(f, vals), ev, [])


# ---------------------------------------------------------------- command line

def read_inputs(path):
    """a<i>: a tensor (its dtype gives the element type); d<i>: a dims
    parameter, an int64 1-D array; bf<i>: a bf16 tensor, as uint16 bit
    patterns or as float values.  i counts the flattened parameters."""
    data = np.load(path)
    out = {}
    for key in data.files:
        for prefix in ('bf', 'a', 'd'):
            if key.startswith(prefix) and key[len(prefix):].isdigit():
                i, arr = int(key[len(prefix):]), data[key]
                if i in out:
                    raise ValueError('two inputs numbered %d' % i)
                if prefix == 'd':
                    out[i] = tuple(int(x) for x in np.asarray(arr).ravel())
                elif prefix == 'bf':
                    if arr.dtype == np.uint16:
                        arr = (arr.astype(np.uint32) << 16).view(np.float32)
                    out[i] = BF16(arr)
                else:
                    out[i] = arr
                break
        else:
            raise ValueError('an input named %r (expected a0, d1, bf2, ...)' % key)
    if sorted(out) != list(range(len(out))):
        raise ValueError('inputs are not numbered 0..%d' % (len(out) - 1))
    return [out[i] for i in range(len(out))]


def write_outputs(path, outs):
    """o<i>: the value (float64 for every float type, the integer dtype
    otherwise; a dims output as int64); e<i>: the bound (float64); u<i>: the
    uncertain mask (bool); t<i>: the element type's name."""
    arrs = {}
    for i, o in enumerate(outs):
        if o.elem == 'dims':
            arrs['o%d' % i] = np.asarray(o.value, dtype=np.int64)
            arrs['e%d' % i] = np.zeros(len(o.value))
            arrs['u%d' % i] = np.zeros(len(o.value), bool)
        else:
            arrs['o%d' % i], arrs['e%d' % i], arrs['u%d' % i] = o.value, o.bound, o.uncertain
        arrs['t%d' % i] = np.array(o.elem)
    np.savez(path, **arrs)


def main(argv):
    if argv[:1] == ['--selftest']:
        import selftest
        return selftest.main(argv[1:])
    ap = argparse.ArgumentParser(prog='evaluate.py', description=__doc__.split('\n\n')[0])
    ap.add_argument('program')
    ap.add_argument('fn')
    ap.add_argument('--inputs', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('-I', dest='include', action='append', default=[])
    ap.add_argument('--elem-type', default='f32', choices=ELEMS)
    try:
        opts = ap.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    try:
        with open(opts.program) as fh:
            text = fh.read()
        inputs = read_inputs(opts.inputs)
    except (OSError, ValueError) as e:
        print('evaluate.py: %s' % e, file=sys.stderr)
        return 2
    try:
        outs = evaluate(text, opts.fn, inputs, opts.elem_type, None, opts.program, opts.include)
    except DataError as e:
        print('evaluate.py: data error: %s' % e, file=sys.stderr)
        return 3
    except (EvalError, ParseError) as e:
        print('evaluate.py: error: %s' % e, file=sys.stderr)
        return 1
    write_outputs(opts.out, outs)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
