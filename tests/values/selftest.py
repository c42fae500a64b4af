"""selftest.py - the self-test of evaluate.py (run `evaluate.py --selftest`):
hand-computed cases for every construct, every operator and every rule of
axon-spec.md section 9b; the uncertainty rule; the error bound against
evaluations in float32/float16/bf16 done by hand (sound, and not wildly
loose on long sums); a second opinion from PyTorch 1.13 where it is
importable; and the command line.

Prints one line per failed check and ends with
    selftest: N cases, M failed (torch: T cases|not importable)
"""
import math
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

from evaluate import evaluate, BF16, DataError, EvalError, K
from tracked import round_bf16

F32, F16, F64, I32, I8, U8, I64 = np.float32, np.float16, np.float64, np.int32, np.int8, np.uint8, np.int64
NAN, INF = float('nan'), float('inf')


class Stats(object):
    cases = 0
    failed = 0
    torch_cases = 0
    skipped_uncertain = 0


def fail(name, msg):
    Stats.failed += 1
    print('FAIL %s: %s' % (name, msg))


def arr(x, dt=F32):
    return np.array(x, dtype=dt)


def ev(src, fn, *args, **kw):
    return evaluate(src, fn, list(args), **kw)


def same(got, want, rtol):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return False
    if got.dtype == bool or want.dtype == bool or np.issubdtype(want.dtype, np.integer):
        return np.array_equal(got, want)
    g, w = got.astype(np.float64), want.astype(np.float64)
    both_nan = np.isnan(g) & np.isnan(w)
    with np.errstate(all='ignore'):
        close = (g == w) | (np.abs(g - w) <= rtol * np.abs(w))
    return bool(np.all(both_nan | close))


def check(name, src, fn, args, want, elems=None, rtol=0.0, unc=None, **kw):
    """want: one expected value per output (a tuple for a dims output)."""
    Stats.cases += 1
    try:
        outs = evaluate(src, fn, list(args), **kw)
    except Exception as e:                                  # noqa: BLE001
        return fail(name, 'raised %s: %s' % (type(e).__name__, e))
    if len(outs) != len(want):
        return fail(name, '%d outputs, expected %d' % (len(outs), len(want)))
    for i, (o, w) in enumerate(zip(outs, want)):
        if o.elem == 'dims':
            if tuple(o.value) != tuple(w):
                return fail(name, 'output %d is %s, expected %s' % (i, o.value, w))
            continue
        if not same(o.value, w, rtol):
            return fail(name, 'output %d is %r, expected %r' % (i, o.value, np.asarray(w)))
        if elems is not None and o.elem != elems[i]:
            return fail(name, 'output %d has type %s, expected %s' % (i, o.elem, elems[i]))
        if unc is not None and unc[i] is not None and not np.array_equal(o.uncertain, np.asarray(unc[i], bool)):
            return fail(name, 'output %d uncertain %s, expected %s' % (i, o.uncertain, unc[i]))
        if unc is None and np.any(o.uncertain):
            return fail(name, 'output %d has uncertain elements %s' % (i, o.uncertain))


def check_raises(name, exc, src, fn, args, **kw):
    Stats.cases += 1
    try:
        evaluate(src, fn, list(args), **kw)
    except exc:
        return
    except Exception as e:                                  # noqa: BLE001
        return fail(name, 'raised %s (%s), expected %s' % (type(e).__name__, e, exc.__name__))
    fail(name, 'did not raise %s' % exc.__name__)


SCRATCH = []


def scratch_dir(prefix):
    """A temporary directory, removed when the self-test ends."""
    d = tempfile.mkdtemp(prefix=prefix)
    SCRATCH.append(d)
    return d


def check_true(name, cond, msg=''):
    Stats.cases += 1
    if not cond:
        fail(name, msg or 'condition false')


# ---------------------------------------------------------------- constructs

def t_program():
    src = '''
    half = 0.5;
    scale = fn (x) { x * half };
    dense = fn (x : t [n, i], W : t [i, o], b : t [o]) { matmul(x, W) + b };
    use = fn (x : f32 [n, 2], W : f32 [2, 3], b : f32 [3]) { scale(dense(x, W, b)) };
    '''
    check('top-level bindings and calls', src, 'use',
          [arr([[1, 2]]), arr([[1, 0, 1], [0, 1, 1]]), arr([1, 1, 1])], [[[1, 1.5, 2]]], ['f32'])
    check('main fn named after the file', 'fn (x : f32 [n]) { x + x }', 'prog_1', [arr([1, 2])],
          [[2, 4]], path='/nonexistent/prog-1.axon')
    check('main fn when fn is None', 'f = fn (x) { x }; fn (x : f32 [n]) { f(x) * 3 }', None,
          [arr([1, 2])], [[3, 6]])
    check('an item sees only the items above it (own sum after a use of the built-in)',
          'a = fn (x) { sum("i->", x) }; sum = fn (x, y) { x + y }; b = fn (x) { sum(x, x) + a(x) };',
          'b', [arr([1, 2])], [[5, 7]])
    check('a program item hides a built-in', 'relu = fn (x) { x * 2 }; f = fn (x) { relu(x) };',
          'f', [arr([-1, 2])], [[-2, 4]])
    check('a top-level alias of a built-in', 'r = reshape; f = fn (x) { r(x, [3]) };', 'f',
          [arr([[1], [2], [3]])], [[1, 2, 3]])
    check('a builtin as the function evaluated', 'x = 1;', 'transpose', [arr([[1, 2]])], [[[1], [2]]])
    ext = 'extern twice : (t [n]) -> t [n];\nf = fn (x : f32 [n]) { twice(x) + 1 };'
    check('extern through a Python callable', ext, 'f', [arr([1, 2])], [[3, 5]],
          externs={'twice': lambda a: 2 * a})
    check_raises('extern without an implementation', EvalError, ext, 'f', [arr([1])])
    ext2 = 'extern split : (t [n]) -> (t [n], i32 [n]);\nf = fn (x : f32 [n]) { a, b = split(x); a, b };'
    check('extern with a tuple result', ext2, 'f', [arr([1.5, -2])], [[1.5, -2], [1, -2]], ['f32', 'i32'],
          externs={'split': lambda a: (a, np.trunc(a).astype(np.int32))})


def t_imports():
    d = scratch_dir('axon-values-')
    inc = os.path.join(d, 'inc')
    os.mkdir(inc)

    def w(path, text):
        with open(path, 'w') as fh:
            fh.write(text)
    w(os.path.join(inc, 'lib.axon'), 'double = fn (x) { x + x };')
    w(os.path.join(d, 'mid.axon'), 'import "lib.axon";\nquad = fn (x) { double(double(x)) };')
    main = 'import "mid.axon";\nimport "lib.axon";\nf = fn (x : f32 [n]) { quad(x) + double(x) };'
    check('import, relative then -I, a file imported twice counts once', main, 'f', [arr([1])], [[6]],
          path=os.path.join(d, 'main.axon'), include_dirs=[inc])
    check_raises('import of a missing file', EvalError, 'import "nope.axon";\nf = fn (x) { x };', 'f',
                 [arr([1])], path=os.path.join(d, 'm.axon'))
    w(os.path.join(d, 'c1.axon'), 'import "c2.axon";\na = fn (x) { x };')
    w(os.path.join(d, 'c2.axon'), 'import "c1.axon";\nb = fn (x) { x };')
    check_raises('an import cycle', EvalError, 'import "c1.axon";\nf = fn (x) { x };', 'f', [arr([1])],
                 path=os.path.join(d, 'm.axon'))
    check_raises('a name defined in two files', EvalError, 'import "lib.axon";\ndouble = fn (x) { x };',
                 'double', [arr([1])], path=os.path.join(d, 'm.axon'), include_dirs=[inc])


def t_statements():
    src = '''
    swap = fn (p) { a, b = p; b, a };
    nested = fn (x : f32 [n]) {
      (hT, cT), Y = loop((x, x * 2), fn (s, y) { h, c = s; (h + y, c), y * 3 }, x);
      _, z = (hT, cT);
      z, Y, hT;
    };
    annotated = fn (x : f32 [n, 2]) { y : f32 [2, m] = reshape(x, [2, n]); [m, n] };
    multi = fn (x, y) { a, b = y, x; a - b };
    '''
    check('tuple parameter and final tuple', src, 'swap', [(arr([1]), arr([2, 3]))], [[2, 3], [1]])
    check('flat arguments grouped by a tuple annotation', 'f = fn (p : (f32 [n], f32 [m]), q) { a, b = p; a + b + q };',
          'f', [arr([1]), arr([2]), arr([3])], [[6]])
    check('nested patterns, _, loop with a pair state', src, 'nested', [arr([1, 2])],
          [[2, 4], [3, 6], [4, 5]])
    check('name : T = e binds m', src, 'annotated', [arr([[1, 2], [3, 4]])], [(2, 2)])
    check('unparenthesised tuple on the right', src, 'multi', [arr([1]), arr([5])], [[4]])


def t_closures():
    src = '''
    adder = fn (v) { fn (x) { x + v } };
    applied = fn (v : f32 [3], x : f32 [2, 3]) { add = adder(v); add(x) };
    nested = fn (a : f32 [n]) { outer = fn (b) { inner = fn (c) { a * b * c }; inner }; g = outer(a); g(a) };
    compose = fn (f, g) { fn (x) { f(g(x)) } };
    twice = fn (x : f32 [k, k]) { h = compose(transpose, neg); h(x) };
    poly = fn (x : f32 [n], y : i8 [m]) { t2 = fn (z) { z + z }; t2(x), t2(y) };
    shapes = fn (x : f32 [2], y : f32 [3]) { g = fn (a : f32 [n]) { sum("i->", a) }; g(x) + g(y) };
    '''
    check('closure returned and applied', src, 'applied', [arr([1, 2, 3]), arr([[0, 0, 0], [1, 1, 1]])],
          [[[1, 2, 3], [2, 3, 4]]])
    check('two levels of capture', src, 'nested', [arr([1, 2])], [[1, 8]])
    check('functions as values (builtins too)', src, 'twice', [arr([[1, 2], [3, 4]])], [[[-1, -3], [-2, -4]]])
    check('let-polymorphism: one lambda at f32 and i8', src, 'poly', [arr([1.5]), arr([100], I8)],
          [[3], [-56]], ['f32', 'i8'])
    check('a lambda annotated with a name used at two sizes', src, 'shapes', [arr([1, 2]), arr([1, 1, 1])], [6.0])


def t_opvalues():
    src = '''
    ops = fn (x : f32 [n, 2]) { reduce(max, -inf, x), reduce(min, inf, x), reduce(*, 1f, x), reduce(+, 0f, x), reduce(-, 0f, x) };
    maps = fn (x) { map(exp, x), map(fn (r) { r / 2 }, x) };
    '''
    x = arr([[1, 4], [3, 2], [-5, 0]])
    check('operators and max/min as values', src, 'ops', [x],
          [[3, 4], [-5, 0], [-15, 0], [-1, 6], [1, -6]])
    check('a builtin name as a value', src, 'maps', [arr([0, 1])], [[1, math.e], [0, 0.5]], rtol=1e-15)


def t_literals():
    check('a literal takes the type of its use (f32)', 'f = fn (x : f32 [1]) { x * 0.1 };', 'f',
          [arr([1])], [[float(np.float32(0.1))]], ['f32'])
    check('a literal takes the type of its use (f16)', 'f = fn (x : f16 [1]) { x * 0.1 };', 'f',
          [arr([1], F16)], [[float(np.float16(0.1))]], ['f16'])
    check('a literal takes the type of its use (bf16)', 'f = fn (x) { x * 0.1 };', 'f',
          [BF16([1])], [[float(round_bf16(0.1))]], ['bf16'])
    check('literals alone are f32', 'f = fn () { 0.1 };', 'f', [], [float(np.float32(0.1))], ['f32'])
    check('literals alone take --elem-type', 'f = fn () { 0.1 };', 'f', [], [0.1], ['f64'],
          elem_default='f64')
    check('an expression of literals alone, f32', 'f = fn () { 1 / 3 };', 'f', [], [1.0 / 3.0], ['f32'])
    check('an expression of literals alone, i32 default: floored', 'f = fn () { 0 - 7 / 2 };', 'f', [], [-3],
          ['i32'], elem_default='i32')
    check('integer literals in an integer expression', 'f = fn (x : i32 [n]) { x + 7 / 2 };', 'f',
          [arr([1], I32)], [[4]], ['i32'])
    check('a literal bound to a name stays polymorphic', 'f = fn (x : f16 [1], y : f64 [1]) { one = 0.1; x * one, y * one };',
          'f', [arr([1], F16), arr([1], F64)], [[float(np.float16(0.1))], [0.1]], ['f16', 'f64'])
    check('inf and -inf', 'f = fn (x : f32 [2]) { maximum(x, -inf), minimum(x, inf), x * 0 + inf };', 'f',
          [arr([1, -2])], [[1, -2], [1, -2], [INF, INF]])
    check('forms of float literals', 'f = fn (x : f64 [1]) { x * 2. + 1e-3 + 0f + 1.5f };', 'f',
          [arr([1], F64)], [[3.501]], rtol=1e-15)
    check_raises('a fractional literal in an integer expression', EvalError,
                 'f = fn (x : i32 [1]) { x + 1.5 };', 'f', [arr([1], I32)])
    check('a literal through a lambda and a tuple', 'f = fn (x : f32 [1]) { g = fn (c) { c * 0.5 }; p = (1, 2); a, b = p; x * g(a + b) };',
          'f', [arr([2])], [[3]])


def t_dims():
    src = '''
    heads = fn (x : f32 [b, n, d], h : dims [h]) { reshape(x, [b, n, h, d / h]) };
    sizes = fn (x : f32 [n, m]) { [n, 2 * m, n * m - 1, (+ n m), m % n, elements([n, m]), rank([n, m])] };
    mean_by_size = fn (x : f32 [n]) { x / size([n]) };
    svar = fn (x : f32 s @ [d]) { reshape(x, [elements(s), d]) };
    solved = fn (x : f32 [2 * k + 1]) { [k] };
    cnt = fn (x : i32 [n]) { x * size([n]) };
    '''
    out = ev(src, 'heads', np.zeros((1, 2, 6), F32), (3,))
    check_true('dims value of annotation sizes and a dims parameter', out[0].value.shape == (1, 2, 3, 2))
    check('dims arithmetic, prefix form, %, elements, rank', src, 'sizes', [np.zeros((2, 3), F32)],
          [(2, 6, 5, 5, 1, 6, 2)])
    check('size([n]) as a scalar', src, 'mean_by_size', [arr([2, 4])], [[1, 2]])
    check('size([n]) as an integer', src, 'cnt', [arr([2, 4], I32)], [[4, 8]], ['i32'])
    check('a shape variable in elements()', src, 'svar', [np.ones((2, 3, 4), F32)], [np.ones((6, 4))])
    check('a size solved from an annotation expression', src, 'solved', [np.ones(7, F32)], [(3,)])
    check_raises('an argument that does not fit its annotation', EvalError, src, 'heads',
                 [np.zeros((1, 2), F32), (3,)])
    check_raises('a where clause that does not hold', EvalError, 'f = fn (x : f32 [n]) where n <= 2 { x };', 'f',
                 [np.zeros(3, F32)])
    check('a where clause that holds', 'f = fn (x : f32 [n]) where n <= 2, n % 2 = 0 { x };', 'f',
          [np.zeros(2, F32)], [[0, 0]])
    check_raises('an element type that does not fit its annotation', EvalError, src, 'mean_by_size',
                 [np.zeros(2, F64)])


# ---------------------------------------------------------------- spec 5b's last table

def t_added():
    """linear, conv1d_grouped, expand, concat_axis of any number of tensors,
    arange, and negative axis arguments (docs/language.md, 5b: the decisions
    on negative axes)."""
    a = arr([[1, 2, 3], [4, 5, 6]])
    w = arr([[1, 0], [0, 1], [1, -1]])
    check('linear of a vector', 'f = fn (x, w) { linear(x, w) };', 'f', [arr([1, 2, 3]), w], [[4, -1]])
    check('linear over two leading axes', 'f = fn (x, w) { linear(x, w) };', 'f', [np.stack([a, -a]), w],
          [[[[4, -1], [10, -1]], [[-4, 1], [-10, 1]]]])
    check('linear with k = 0 sums nothing', 'f = fn (x, w) { linear(x, w) };', 'f',
          [np.zeros((2, 0), F32), np.zeros((0, 3), F32)], [np.zeros((2, 3))])
    check('linear of integers wraps', 'f = fn (x, w) { linear(x, w) };', 'f', [arr([[100, 100]], I8), arr([[1], [1]], I8)],
          [[[-56]]], ['i8'])
    check('linear with annotations (docs example)',
          'f = fn (x : f32 [b, n, 3], W : f32 [3, 2]) { linear(x, W) };', 'f', [np.stack([a, a]), w],
          [[[[4, -1], [10, -1]], [[4, -1], [10, -1]]]])
    check_raises('linear: the last axis is not the weight\'s first', EvalError, 'f = fn (x, w) { linear(x, w) };',
                 'f', [a, arr([[1, 2]])])
    check_raises('linear: a weight of rank 3', EvalError, 'f = fn (x, w) { linear(x, w) };', 'f',
                 [a, np.zeros((3, 2, 1), F32)])
    check_raises('linear of a scalar', EvalError, 'f = fn (x, w) { linear(x, w) };', 'f', [arr(1), w])
    # conv1d_grouped: depthwise over [1, 2, 4] with kernels [2, 1, 3], padding 1, stride 2
    x = arr([[[1, 2, 3, 4], [10, 20, 30, 40]]])
    k = arr([[[1, 1, 1]], [[1, 0, -1]]])
    check('conv1d_grouped depthwise, padding 1, stride 2 (by hand)',
          'f = fn (x, k) { conv1d_grouped(x, k, [2], [1], [1], [2]) };', 'f', [x, k],
          [[[[3, 9], [-20, -20]]]])
    check('conv1d_grouped two groups of two channels, two filters each',
          'f = fn (x, k) { conv1d_grouped(x, k, [1], [0], [1], [2]) };', 'f',
          [arr([[[1, 2], [3, 4], [5, 6], [7, 8]]]), arr([[[1], [0]], [[0], [1]], [[1], [1]], [[1], [-1]]])],
          [[[[1, 2], [3, 4], [12, 14], [-2, -2]]]])
    check('conv1d_grouped dilation 3 over an exact fit',
          'f = fn (x, k) { conv1d_grouped(x, k, [1], [0], [3], [1]) };', 'f',
          [arr([[[1, 2, 3, 4, 5, 6, 7]]]), arr([[[1, 1, 1]]])], [[[[12]]]])
    check('conv1d_grouped, the Conformer example (annotations, k = 1 filter per group)',
          'f = fn (x : f32 [b, c, l], k : f32 [c, 1, 3]) { conv1d_grouped(x, k, [1], [1], [1], [c]) };', 'f',
          [x, np.ones((2, 1, 3), F32)], [[[[3, 6, 9, 7], [30, 60, 90, 70]]]])
    check_raises('conv1d_grouped: a window of 0 (where 1 <= r)', EvalError,
                 'f = fn (x, k) { conv1d_grouped(x, k, [1], [0], [1], [1]) };', 'f',
                 [arr([[[1, 2]]]), np.zeros((1, 1, 0), F32)])
    check_raises('conv1d_grouped: a dilated window past the padded input', EvalError,
                 'f = fn (x, k) { conv1d_grouped(x, k, [1], [0], [2], [1]) };', 'f',
                 [arr([[[1, 2, 3, 4]]]), np.ones((1, 1, 3), F32)])
    check_raises('conv1d_grouped: channels not a multiple of the groups', EvalError,
                 'f = fn (x, k) { conv1d_grouped(x, k, [1], [0], [1], [2]) };', 'f',
                 [np.ones((1, 3, 4), F32), np.ones((2, 1, 1), F32)])
    # expand: NumPy's broadcast_to
    check('expand: the class token per batch row (docs example)',
          'f = fn (cls : f32 [1, 1, d]) { expand(cls, [3, 1, d]) };', 'f', [arr([[[1, 2]]])],
          [[[[1, 2]], [[1, 2]], [[1, 2]]]])
    check('expand: a shorter shape aligned to the right, 1s stretched', 'f = fn (x, y) { expand(x, [2, 3]), expand(y, [2, 3]) };',
          'f', [arr([1, 2, 3]), arr([[1], [2]])], [[[1, 2, 3], [1, 2, 3]], [[1, 1, 1], [2, 2, 2]]])
    check('expand: a scalar, and to a 0 size', 'f = fn (x, y) { expand(x, [2]), expand(y, [0, 2]) };', 'f',
          [arr(7), arr([[5, 6]])], [[7, 7], np.zeros((0, 2))])
    check('expand: the same shape', 'f = fn (x) { expand(x, [2, 3]) };', 'f', [a], [a])
    check('expand: a literal takes its use\'s type (f16)', 'f = fn (x : f16 [2]) { x + expand(0.1, [2]) };', 'f',
          [arr([0, 0], F16)], [[float(np.float16(0.1))] * 2], ['f16'])
    check('expand keeps bounds and marks', 'f = fn (x) { expand(x / 3, [2, 1]) };', 'f', [arr([1])],
          [[[1 / 3], [1 / 3]]], rtol=1e-7)
    out = ev('f = fn (x) { expand(x / 3, [2, 1]) };', 'f', arr([1]))[0]
    check_true('expand: the broadcast bound', out.bound.shape == (2, 1) and np.all(out.bound > 0)
               and out.bound[0, 0] == out.bound[1, 0])
    check_raises('expand: a size that is neither 1 nor the target\'s', EvalError,
                 'f = fn (x) { expand(x, [2, 3]) };', 'f', [arr([1, 2])])
    check_raises('expand: a rank above the target\'s', EvalError, 'f = fn (x) { expand(x, [3]) };', 'f',
                 [arr([[1, 2, 3]])])
    check_raises('expand: a target with a negative size', EvalError, 'f = fn (x) { expand(x, [-1]) };', 'f',
                 [arr([1])])
    # concat_axis of any number of tensors
    b = arr([[7], [8]])
    check('concat_axis of four tensors on axis 1', 'f = fn (p, q, r, s) { concat_axis(p, q, r, s, [1]) };', 'f',
          [a, b, a[:, :0], b], [[[1, 2, 3, 7, 7], [4, 5, 6, 8, 8]]])
    check('concat_axis of three is a fold of two', 'f = fn (p, q, r) { concat_axis(p, q, r, [0]), concat_axis(concat_axis(p, q, [0]), r, [0]) };',
          'f', [a, a[:1], a], [np.concatenate([a, a[:1], a]), np.concatenate([a, a[:1], a])])
    x3 = np.arange(12, dtype=F32).reshape(2, 3, 2)
    check('concat_axis [-1] [-2] [-3] of rank 3', 'f = fn (x) { concat_axis(x, x, [-1]), concat_axis(x, x, [-2]), concat_axis(x, x, [-3]) };',
          'f', [x3], [np.concatenate([x3, x3], -1), np.concatenate([x3, x3], -2), np.concatenate([x3, x3], -3)])
    check('a negative constant written as an expression counts from the end',
          'f = fn (x) { concat_axis(x, x, [0 - 1]), slice(x, [1 - 3], [1], [3]) };', 'f', [x3],
          [np.concatenate([x3, x3], -1), x3[:, 1:3, :]])
    check('concat_axis with unannotated tensors, [-1] (docs example)',
          'f = fn (x, y) { concat_axis(x, y, [-1]) };', 'f', [np.zeros((2, 1, 3), F32), np.ones((2, 1, 1), F32)],
          [[[[0, 0, 0, 1]], [[0, 0, 0, 1]]]])
    check('concat_axis of integers and bools', 'f = fn (x, y, p, q) { concat_axis(x, y, y, [0]), concat_axis(p, q, [-1]) };', 'f',
          [arr([1], I32), arr([2, 3], I32), arr([[True]], bool), arr([[False]], bool)],
          [[1, 2, 3, 2, 3], [[True, False]]], ['i32', 'bool'])
    check_raises('concat_axis of one tensor', EvalError, 'f = fn (x) { concat_axis(x, [0]) };', 'f', [a])
    check_raises('concat_axis: other sizes off the axis', EvalError, 'f = fn (x, y) { concat_axis(x, y, [1]) };',
                 'f', [a, a[:1]])
    check_raises('concat_axis: an axis past the rank', EvalError, 'f = fn (x) { concat_axis(x, x, [3]) };', 'f', [x3])
    check_raises('concat_axis: [-4] of rank 3', EvalError, 'f = fn (x) { concat_axis(x, x, [-4]) };', 'f', [x3])
    check_raises('concat_axis: element types differ', EvalError, 'f = fn (x, y) { concat_axis(x, x, y, [0]) };', 'f',
                 [a, a.astype(F64)])
    # arange
    check('arange of a size of an annotation, as f32', 'f = fn (x : f32 [n]) { x + f32(arange([n])) };', 'f',
          [arr([10, 10, 10])], [[10, 11, 12]])
    check('arange of a dims parameter', 'f = fn (k : dims [n]) { arange(k) };', 'f', [(3,)], [[0, 1, 2]], ['i32'])
    check('arange: the causal mask (docs example)',
          'f = fn (x : f32 [n]) { ge(reshape(arange([n]), [n, 1]), arange([n])) };', 'f', [arr([0, 0, 0])],
          [[[1, 0, 0], [1, 1, 0], [1, 1, 1]]], ['bool'])
    check('arange as gather indices (position embeddings)',
          'f = fn (x : f32 [n, d], e : f32 [p, d]) { x + gather(e, arange([n])) };', 'f',
          [np.zeros((2, 2), F32), arr([[1, 2], [3, 4], [5, 6]])], [[[1, 2], [3, 4]]])
    check('the causal bias of samples/blocks', 'f = fn (t : dims [n]) { select(ge(reshape(arange(t), [n, 1]), arange(t)), 0f, -inf) };',
          'f', [(2,)], [[[0, -INF], [0, 0]]], ['f32'])
    check_raises('arange of two sizes', EvalError, 'f = fn () { arange([2, 3]) };', 'f', [])
    # negative axes: only a built-in's axis argument written in the call
    check('an axis given by sizes counts from 0', 'f = fn (x : f32 [a, b, c]) { concat_axis(x, x, [a - 1]) };', 'f',
          [x3], [np.concatenate([x3, x3], 1)])
    check('an axis from a dims parameter counts from 0', 'f = fn (x, y, k : dims [a]) { concat_axis(x, y, k) };', 'f',
          [x3, x3, (2,)], [np.concatenate([x3, x3], 2)])
    check('a call through a name bound to the built-in keeps its axis argument',
          'c = concat_axis; f = fn (x) { c(x, x, [-1]) };', 'f', [x3], [np.concatenate([x3, x3], -1)])
    check_raises('an axis given by sizes that is negative', EvalError,
                 'f = fn (x : f32 [a, b, c]) { concat_axis(x, x, [a - 4]) };', 'f', [x3])
    check_raises('[-1] bound to a name first gives sizes, not an axis', EvalError,
                 'f = fn (x) { k = [-1]; concat_axis(x, x, k) };', 'f', [x3])
    check_raises('[-1] to a user function\'s dims parameter', EvalError,
                 'g = fn (x, k : dims [a]) { concat_axis(x, x, k) }; f = fn (x) { g(x, [-1]) };', 'f', [x3])
    check_raises('a negative dims parameter', EvalError, 'f = fn (x, y, k : dims [a]) { concat_axis(x, y, k) };', 'f',
                 [x3, x3, (-1,)])
    check_raises('a negative size in reshape', EvalError, 'f = fn (x) { reshape(x, [-1]) };', 'f', [x3])
    check_raises('a negative slice bound', EvalError, 'f = fn (x) { slice(x, [0], [-1], [1]) };', 'f', [x3])
    check_raises('slice: [-4] of rank 3', EvalError, 'f = fn (x) { slice(x, [-4], [0], [1]) };', 'f', [x3])
    check('slice [-2] of rank 3, an empty range', 'f = fn (x) { slice(x, [-2], [2], [2]) };', 'f', [x3],
          [np.zeros((2, 0, 2))])


def t_imports_more():
    """docs/language.md's Imports: -I order, absolute paths, a file through
    two paths, a bare fn's name, import after an item, nesting past 256."""
    d = scratch_dir('axon-values-imp-')

    def w(rel, text):
        path = os.path.join(d, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as fh:
            fh.write(text)
        return path
    w('i1/lib.axon', 'k = fn (x) { x * 2 };')
    w('i2/lib.axon', 'k = fn (x) { x * 3 };')
    main = 'import "lib.axon";\nf = fn (x : f32 [n]) { k(x) };'
    check('-I directories in order', main, 'f', [arr([1])], [[2]], path=os.path.join(d, 'm.axon'),
          include_dirs=[os.path.join(d, 'i1'), os.path.join(d, 'i2')])
    w('lib.axon', 'k = fn (x) { x * 5 };')
    check('the importing file\'s directory before -I', main, 'f', [arr([1])], [[5]], path=os.path.join(d, 'm.axon'),
          include_dirs=[os.path.join(d, 'i1')])
    absp = w('abs/deep.axon', 'q = fn (x) { x - 1 };')
    check('an absolute path', 'import "%s";\nf = fn (x : f32 [n]) { q(x) };' % absp, 'f', [arr([1])], [[0]],
          path=os.path.join(d, 'm2.axon'))
    w('sub/two.axon', 'import "../lib.axon";\ng = fn (x) { k(x) + 1 };')
    check('one file through two paths is read once (no "defined twice")',
          'import "lib.axon";\nimport "sub/../lib.axon";\nimport "sub/two.axon";\nf = fn (x : f32 [n]) { g(x) + k(x) };',
          'f', [arr([1])], [[11]], path=os.path.join(d, 'm3.axon'))
    w('conv-net.axon', 'fn (x : f32 [n]) { x + 1 }')
    check('a bare fn of an imported file is named after its stem', 'import "conv-net.axon";\nf = fn (x) { conv_net(x) };',
          'f', [arr([1])], [[2]], path=os.path.join(d, 'm4.axon'))
    check('visibility is transitive', 'import "sub/two.axon";\nf = fn (x : f32 [n]) { k(x) };', 'f', [arr([1])], [[5]],
          path=os.path.join(d, 'm5.axon'))
    check_raises('an import after an item', Exception, 'f = fn (x) { x };\nimport "lib.axon";', 'f', [arr([1])],
                 path=os.path.join(d, 'm6.axon'))
    for i in range(258):
        w('chain/c%d.axon' % i, ('import "c%d.axon";\n' % (i + 1) if i < 257 else '') + 'v%d = fn (x) { x };' % i)
    check('imports nested 256 deep', 'import "chain/c2.axon";\nf = fn (x) { v257(x) };', 'f', [arr([1])], [[1]],
          path=os.path.join(d, 'm7.axon'))
    check_raises('imports nested 257 deep', EvalError, 'import "chain/c1.axon";\nf = fn (x) { v257(x) };', 'f',
                 [arr([1])], path=os.path.join(d, 'm8.axon'))
    # % in annotations and clauses
    src = 'f = fn (x : f32 [b, d], h : dims [h]) where d % h = 0 { reshape(x, [b, h, d / h]) };'
    check('where d % h = 0 that holds', src, 'f', [np.zeros((1, 6), F32), (3,)], [np.zeros((1, 3, 2))])
    check_raises('where d % h = 0 that does not hold', EvalError, src, 'f', [np.zeros((1, 6), F32), (4,)])
    src = 'f = fn (k : f32 [c, 1, r]) where r % 2 = 1 { [r / 2] };'
    check('where r % 2 = 1 (an odd kernel)', src, 'f', [np.zeros((2, 1, 5), F32)], [(2,)])
    check_raises('where r % 2 = 1 with an even kernel', EvalError, src, 'f', [np.zeros((2, 1, 4), F32)])
    check('% in an annotation solved from a size', 'f = fn (x : f32 [n], y : f32 [n % 3]) { [n % 3] };', 'f',
          [np.zeros(7, F32), np.zeros(1, F32)], [(1,)])


def t_data_errors():
    """DataError's kind and whether its offending elements are uncertain."""
    def kind_of(src, *args):
        try:
            evaluate(src, 'f', list(args))
        except DataError as e:
            return e.kind, e.uncertain
        return None
    tab = arr([[1], [2]])
    check_true('gather out of range: kind index, certain',
               kind_of('f = fn (t, i) { gather(t, i) };', tab, arr([2], I32)) == ('index', False))
    check_true('gather of an index too close to call: uncertain',
               kind_of('f = fn (t, x) { gather(t, i32(x / 3 * 3)) };', tab[:1], arr([1])) == ('index', True))
    check_true('integer division by zero: kind zero_division',
               kind_of('f = fn (x, y) { x / y };', arr([1], I32), arr([0], I32)) == ('zero_division', False))
    check_true('argmax over an empty axis: kind empty',
               kind_of('f = fn (x) { argmax("...n->...", x) };', np.zeros((1, 0), F32)) == ('empty', False))


# ---------------------------------------------------------------- element-wise operators

def t_arith():
    src = 'f = fn (x, y) { x + y, x - y, x * y, x / y };'
    check('+ - * / with broadcasting of 1 and of missing axes', src, 'f',
          [arr([[1], [2]]), arr([1, 2, 4])],
          [[[2, 3, 5], [3, 4, 6]], [[0, -1, -3], [1, 0, -2]], [[1, 2, 4], [2, 4, 8]], [[1, .5, .25], [2, 1, .5]]])
    check('a 0-sized axis broadcasts', src, 'f', [np.zeros((0, 3), F32), arr([1, 2, 3])],
          [np.zeros((0, 3))] * 4)
    check('a 1-sized axis against 0', src, 'f', [np.zeros((2, 1), F32), np.zeros((2, 0), F32)],
          [np.zeros((2, 0))] * 4)
    check('scalars', src, 'f', [arr(3), arr(2)], [5, 1, 6, 1.5])
    check_raises('shapes that do not broadcast', EvalError, src, 'f', [arr([1, 2]), arr([1, 2, 3])])
    check('unary minus, abs, relu', 'f = fn (x) { -x, abs(x), relu(x) };', 'f', [arr([-2, 0, 3])],
          [[2, 0, -3], [2, 0, 3], [0, 0, 3]])
    e = math.e
    check('exp log sqrt tanh sigmoid', 'f = fn (x) { exp(x), log(x), sqrt(x), tanh(x), sigmoid(x) };', 'f',
          [arr([1, 4], F64)],
          [[e, e ** 4], [0, math.log(4)], [1, 2], [math.tanh(1), math.tanh(4)],
           [1 / (1 + e ** -1), 1 / (1 + e ** -4)]], rtol=1e-15)
    check('erf sin cos rsqrt', 'f = fn (x) { erf(x), sin(x), cos(x), rsqrt(x) };', 'f', [arr([0.5, 4], F64)],
          [[math.erf(.5), math.erf(4)], [math.sin(.5), math.sin(4)], [math.cos(.5), math.cos(4)], [math.sqrt(2), .5]],
          rtol=1e-15)
    check('erf and gelu of a scalar (a 0-d tensor)', 'f = fn (x) { erf(x), gelu(x) };', 'f', [arr(0.5, F64)],
          [math.erf(.5), 0.5 * 0.5 * (1 + math.erf(.5 / math.sqrt(2)))], rtol=1e-15)
    check('gelu (exact erf) and silu', 'f = fn (x) { gelu(x), silu(x) };', 'f', [arr([1, -2, 0], F64)],
          [[0.8413447460685429, -0.04550026389635842, 0], [0.7310585786300049, -2 / (1 + math.e ** 2), 0]],
          rtol=1e-14)
    check('floor ceil sign', 'f = fn (x) { floor(x), ceil(x), sign(x) };', 'f', [arr([-1.5, 0, 2.5, NAN])],
          [[-2, 0, 2, NAN], [-1, 0, 3, NAN], [-1, 0, 1, NAN]])
    check('pow', 'f = fn (x, y) { pow(x, y) };', 'f', [arr([2, 4, 9]), arr([3, .5, -1])], [[8, 2, 1 / 9]],
          rtol=1e-7)
    check('maximum minimum broadcast', 'f = fn (x, y) { maximum(x, y), minimum(x, y) };', 'f',
          [arr([[1, 5]]), arr([[3], [0]])], [[[3, 5], [1, 5]], [[1, 3], [0, 0]]])
    check('max min (no broadcasting)', 'f = fn (x, y) { max(x, y), min(x, y) };', 'f',
          [arr([1, 5]), arr([3, 0])], [[3, 5], [1, 0]])
    src = 'f = fn (x, y) { lt(x, y), le(x, y), gt(x, y), ge(x, y), eq(x, y), ne(x, y) };'
    check('comparisons (broadcasting, NaN unordered)', src, 'f', [arr([[1, 2, NAN]]), arr([[2], [NAN]])],
          [[[1, 0, 0], [0, 0, 0]], [[1, 1, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 0]],
           [[0, 1, 0], [0, 0, 0]], [[0, 1, 0], [0, 0, 0]], [[1, 0, 1], [1, 1, 1]]],
          ['bool'] * 6)
    check('comparisons of integers', src, 'f', [arr([1, 2], I32), arr([2, 2], I32)],
          [[1, 0], [1, 1], [0, 0], [0, 1], [0, 1], [1, 0]])
    check('select broadcasts its three operands', 'f = fn (c, x) { select(c, x, 0) };', 'f',
          [arr([[True], [False]], bool), arr([1, 2])], [[[1, 2], [0, 0]]])


def t_nan():
    x, y = arr([NAN, 1, NAN]), arr([1, NAN, NAN])
    src = 'f = fn (x, y) { max(x, y), min(x, y), maximum(x, y), minimum(x, y), relu(x) };'
    check('NaN propagates through max min maximum minimum relu', src, 'f', [x, y], [[NAN] * 3] * 4 + [[NAN, 1, NAN]])
    src = 'f = fn (x) { amax("...n->...", x), amin("...n->...", x), argmax("...n->...", x), sign(x) };'
    check('NaN: amax amin propagate, argmax counts it largest, sign(NaN)', src, 'f',
          [arr([[1, NAN, 3, NAN], [2, 5, 1, 0]])], [[NAN, 5], [NAN, 0], [1, 1], [[1, NAN, 1, NAN], [1, 1, 1, 0]]])
    check('NaN in a max pool', 'f = fn (x) { maxpool1d(x, [2], [2], [0]) };', 'f', [arr([[[1, NAN, 2, 3]]])],
          [[[[NAN, 3]]]])
    check('NaN in reduce(max)', 'f = fn (x) { reduce(max, -inf, x) };', 'f', [arr([1, NAN, 2])], [NAN])


# ---------------------------------------------------------------- integers and casts

def t_integers():
    src = 'f = fn (x, y) { x + y, x - y, x * y, x / y };'
    check('i8 wraps', src, 'f', [arr([127, -128], I8), arr([1, 2], I8)], [[-128, -126], [126, 126], [127, 0], [127, -64]],
          ['i8'] * 4)
    check('u8 wraps', src, 'f', [arr([0, 255], U8), arr([1, 2], U8)], [[1, 1], [255, 253], [0, 254], [0, 127]])
    check('integer / is floored', 'f = fn (x, y) { x / y };', 'f', [arr([-7, 7, -7, 7, 0], I32), arr([2, -2, -2, 2, -3], I32)],
          [[-4, -4, 3, 3, 0]])
    check('i64 floored division and wrap', 'f = fn (x, y) { x / y, x * y };', 'f',
          [arr([-(2 ** 63)], I64), arr([-1], I64)], [[-(2 ** 63)], [-(2 ** 63)]])
    check_raises('integer division by zero is a data error', DataError, 'f = fn (x, y) { x / y };', 'f',
                 [arr([1, 2], I32), arr([1, 0], I32)])
    check_raises('integer division by a zero literal', DataError, 'f = fn (x : i32 [n]) { x / 0 };', 'f',
                 [arr([1], I32)])
    check('integer division by zero over an empty tensor', 'f = fn (x, y) { x / y };', 'f',
          [np.zeros((0, 2), I32), arr([1, 0], I32)], [np.zeros((0, 2))])
    check('integer neg abs relu sign (wrapping)', 'f = fn (x) { -x, abs(x), relu(x), sign(x), floor(x) };', 'f',
          [arr([-128, -3, 0, 5], I8)], [[-128, 3, 0, -5], [-128, 3, 0, 5], [0, 0, 0, 5], [-1, -1, 0, 1], [-128, -3, 0, 5]])
    check('unsigned neg wraps', 'f = fn (x) { -x };', 'f', [arr([0, 1], np.uint32)], [[0, 2 ** 32 - 1]])
    check('integer pow wraps; negative exponents floor', 'f = fn (x, y) { pow(x, y) };', 'f',
          [arr([2, 3, 2, -1, -2], I8), arr([10, 4, -1, -1, -1], I8)], [[0, 81, 0, -1, -1]])
    check_raises('integer pow of 0 to a negative power', DataError, 'f = fn (x, y) { pow(x, y) };', 'f',
                 [arr([0], I32), arr([-1], I32)])
    check('integer max min maximum minimum', 'f = fn (x, y) { max(x, y), minimum(x, y) };', 'f',
          [arr([3, -4], I32), arr([2, 7], I32)], [[3, 7], [2, -4]])
    check('bool arithmetic (as 0/1, then nonzero)', 'f = fn (x, y) { x + y, x * y, x - y };', 'f',
          [arr([1, 1, 0], bool), arr([1, 0, 0], bool)], [[1, 1, 0], [1, 0, 0], [0, 1, 0]], ['bool'] * 3)
    check('integer matmul and sum wrap', 'f = fn (x, y) { matmul(x, y), sum("ij->", x) };', 'f',
          [arr([[100, 100]], I8), arr([[1], [1]], I8)], [[[-56]], -56], ['i8', 'i8'])


def t_casts():
    third = np.float64(1) / 3
    src = 'f = fn (x) { f16(x), bf16(x), f32(x), f64(x) };'
    check('float casts round to the target', src, 'f', [arr([third, 1 + 2 ** -8, 1 + 3 * 2 ** -8, 70000], F64)],
          [[float(np.float16(third)), 1 + 2 ** -8, 1 + 3 * 2 ** -8, INF],
           [float(round_bf16(third)), 1, 1.015625, 70144],
           [float(np.float32(third)), 1 + 2 ** -8, 1 + 3 * 2 ** -8, 70000],
           [third, 1 + 2 ** -8, 1 + 3 * 2 ** -8, 70000]],
          ['f16', 'bf16', 'f32', 'f64'])
    src = 'f = fn (x) { i32(x), i8(x), u8(x), i64(x), bool(x) };'
    check('float to integer truncates toward zero', src, 'f', [arr([-2.7, 2.7, -0.5, 0, 100.9])],
          [[-2, 2, 0, 0, 100], [-2, 2, 0, 0, 100], [0, 2, 0, 0, 100], [-2, 2, 0, 0, 100], [1, 1, 1, 0, 1]],
          unc=[None, None, [1, 0, 0, 0, 0], None, None])
    out = ev('f = fn (x) { i8(x), u32(x) };', 'f', arr([NAN, INF, 300, -1]))
    check_true('NaN, infinities, out of range: unspecified, marked uncertain',
               list(out[0].uncertain) == [True, True, True, False] and list(out[1].uncertain) == [True, True, False, True]
               and out[0].value[3] == -1 and out[1].value[2] == 300)
    src = 'f = fn (x) { u8(x), i8(x), i16(x), bool(x), f32(x), f16(x) };'
    check('integer to integer wraps, to float rounds', src, 'f', [arr([300, 200, -1, 0, 16777217, 2049], I32)],
          [[44, 200, 255, 0, 1, 1], [44, -56, -1, 0, 1, 1], [300, 200, -1, 0, 1, 2049],
           [1, 1, 1, 0, 1, 1], [300, 200, -1, 0, 16777216, 2049], [300, 200, -1, 0, INF, 2048]])
    src = 'f = fn (x) { u16(x), u64(x), i64(x), u32(x) };'
    check('every integer type from a float', src, 'f', [arr([65535.9, 3.5, -0.9])],
          [[65535, 3, 0], [65535, 3, 0], [65535, 3, 0], [65535, 3, 0]], ['u16', 'u64', 'i64', 'u32'])
    check('u64 and i64 extremes', 'f = fn (x) { u64(x), i64(u64(x)) };', 'f', [arr([2.0 ** 63, 2.0 ** 64 - 2048], F64)],
          [[2 ** 63, 2 ** 64 - 2048], [-(2 ** 63), -2048]])
    check('bool to numbers', 'f = fn (x) { i32(x), f32(x) };', 'f', [arr([True, False], bool)], [[1, 0], [1, 0]])
    check('a cast of literals alone', 'f = fn () { i32(2.7) };', 'f', [], [2], ['i32'])


# ---------------------------------------------------------------- shapes and data movement

def t_movement():
    a = arr([[1, 2, 3], [4, 5, 6]])
    check('matmul batched', 'f = fn (x, y) { matmul(x, y) };', 'f',
          [np.stack([a, 2 * a]), np.stack([a.T, a.T])], [np.stack([a @ a.T, 2 * a @ a.T])])
    check('matmul with k = 0', 'f = fn (x, y) { matmul(x, y) };', 'f', [np.zeros((2, 0), F32), np.zeros((0, 3), F32)],
          [np.zeros((2, 3))])
    check_raises('matmul batch axes must be equal', EvalError, 'f = fn (x, y) { matmul(x, y) };', 'f',
                 [np.zeros((2, 2, 2), F32), np.zeros((1, 2, 2), F32)])
    check('linear over leading axes', 'f = fn (x, w) { linear(x, w) };', 'f', [np.stack([a, a]), arr([[1], [0], [2]])],
          [[[[7], [16]], [[7], [16]]]])
    check('transpose swaps the innermost axes', 'f = fn (x) { transpose(x) };', 'f', [a[None]], [a.T[None]])
    check('concat and reverse along the outermost axis', 'f = fn (x, y) { concat(x, y), reverse(x) };', 'f',
          [a, a[:1]], [[[1, 2, 3], [4, 5, 6], [1, 2, 3]], [[4, 5, 6], [1, 2, 3]]])
    check('concat_axis of three, negative axis', 'f = fn (x, y, z) { concat_axis(x, y, z, [-1]) };', 'f',
          [a, a[:, :1], a[:, :0]], [[[1, 2, 3, 1], [4, 5, 6, 4]]])
    check('concat_axis [1]', 'f = fn (x, y) { concat_axis(x, y, [1]) };', 'f', [a, a], [np.concatenate([a, a], 1)])
    check('slice [i, j) of an axis, negative axis', 'f = fn (x) { slice(x, [-1], [1], [3]), slice(x, [0], [1], [1]) };',
          'f', [a], [[[2, 3], [5, 6]], np.zeros((0, 3))])
    check_raises('slice past the end', EvalError, 'f = fn (x) { slice(x, [1], [1], [4]) };', 'f', [a])
    check('reshape row-major, flatten', 'f = fn (x) { reshape(x, [3, 2]), flatten(x), reshape(x, [6]) };', 'f',
          [a], [[[1, 2], [3, 4], [5, 6]], a, [1, 2, 3, 4, 5, 6]])
    check('flatten of rank 1 and 3', 'f = fn (x, y) { flatten(x), flatten(y) };', 'f',
          [arr([1, 2]), np.ones((2, 0, 3), F32)], [[[1], [2]], np.zeros((2, 0))])
    check_raises('reshape to another count', EvalError, 'f = fn (x) { reshape(x, [4]) };', 'f', [a])
    check('expand broadcasts to a shape', 'f = fn (x) { expand(x, [2, 2, 3]), expand(0.5, [2]) };', 'f',
          [a[:1]], [np.broadcast_to(a[:1], (2, 2, 3)), [0.5, 0.5]])
    check('arange', 'f = fn () { arange([4]), arange([0]) };', 'f', [], [[0, 1, 2, 3], np.zeros(0)], ['i32', 'i32'])
    tab = arr([[1, 2], [3, 4], [5, 6]])
    check('gather rows', 'f = fn (t, i) { gather(t, i) };', 'f', [tab, arr([[2, 0]], I32)], [[[[5, 6], [1, 2]]]])
    check('gather with a scalar index and an empty index', 'f = fn (t, i, j) { gather(t, i), gather(t, j) };', 'f',
          [tab, arr(1, I32), np.zeros(0, I32)], [[3, 4], np.zeros((0, 2))])
    check_raises('gather index = v is a data error', DataError, 'f = fn (t, i) { gather(t, i) };', 'f',
                 [tab, arr([3], I32)])
    check_raises('gather index < 0 is a data error', DataError, 'f = fn (t, i) { gather(t, i) };', 'f',
                 [tab, arr([-1], I32)])
    check('upsample2d nearest', 'f = fn (x) { upsample2d(x, [2, 1]) };', 'f', [arr([[[[1, 2], [3, 4]]]])],
          [[[[[1, 2], [1, 2], [3, 4], [3, 4]]]]])
    check('pad2d top bottom left right', 'f = fn (x) { pad2d(x, [1, 0, 0, 2]) };', 'f', [arr([[[[1]]]])],
          [[[[[0, 0, 0], [1, 0, 0]]]]])
    check('nonzero', 'f = fn (x) { nonzero(x) };', 'f', [arr([0, 1.5, 0, -2, NAN])], [[1, 3, 4]], ['i32'])
    check('nonzero of nothing', 'f = fn (x) { nonzero(x) };', 'f', [np.zeros(0, F32)], [np.zeros(0)])


def t_einsum():
    a = arr([[1, 2], [3, 4]])
    b = arr([[5, 6], [7, 8]])
    check('einsum contraction and permute', 'f = fn (x, y) { einsum("ij,jk->ik", x, y), einsum("ij->ji", x) };', 'f',
          [a, b], [a @ b, a.T])
    check('einsum diagonal, outer product, sum all', 'f = fn (x, y) { einsum("ii->i", x), einsum("i,j->ij", y, y), einsum("ij->", x) };',
          'f', [a, arr([1, 2])], [[1, 4], [[1, 2], [2, 4]], 10])
    x = np.arange(12, dtype=F32).reshape(1, 2, 2, 3)
    y = np.arange(6, dtype=F32).reshape(3, 1, 2)
    check('einsum ... broadcast between operands', 'f = fn (x, y) { einsum("...nd,...md->...nm", x, y) };', 'f',
          [x[0], y.reshape(1, 2, 3)], [np.einsum('...nd,...md->...nm', x[0].astype(F64), y.reshape(1, 2, 3).astype(F64))])
    check('einsum ... in the middle', 'f = fn (x) { einsum("a...b->ba...", x) };', 'f', [x],
          [np.einsum('a...b->ba...', x)])
    check('einsum of scalars', 'f = fn (x, y) { einsum(",->", x, y) };', 'f', [arr(2), arr(3)], [6])
    check('einsum summing an empty label', 'f = fn (x, y) { einsum("ij,jk->ik", x, y) };', 'f',
          [np.zeros((2, 0), F32), np.zeros((0, 2), F32)], [np.zeros((2, 2))])
    check_raises('einsum label sizes differ', EvalError, 'f = fn (x, y) { einsum("ij,jk->ik", x, y) };', 'f',
                 [np.zeros((2, 3), F32), np.zeros((2, 2), F32)])


def t_reductions():
    x = arr([[1, 5, 2], [7, 0, 7]])
    src = '''f = fn (x) { sum("...n->...", x), mean("...n->...1", x), amax("ij->j", x), amin("ij->", x),
                         argmax("...n->...", x), argmax("ij->", x), sum("ij->1j", x), argmax("ij->j1", x) };'''
    check('sum mean amax amin argmax with ..., 1 and several labels', src, 'f', [x],
          [[8, 14], [[8 / 3], [14 / 3]], [7, 5, 7], 0, [1, 0], 3, [[8, 5, 9]], [[1], [0], [1]]],
          ['f32', 'f32', 'f32', 'f32', 'i32', 'i32', 'f32', 'i32'], rtol=1e-15)
    check('argmax: the first index of the largest', 'f = fn (x) { argmax("i->", x) };', 'f', [arr([3, 1, 3])], [0])
    check('argmax row-major over two labels', 'f = fn (x) { argmax("ij->", x) };', 'f', [arr([[1, 5], [5, 2]])], [1])
    check('argmax over reordered labels (ji)', 'f = fn (x) { argmax("ji->", x) };', 'f', [arr([[1, 5], [5, 2]])], [1])
    src = 'f = fn (x) { amax("...n->...", x), amin("...n->...", x), mean("...n->...", x), sum("...n->...", x) };'
    check('empty axis: amax -inf, amin +inf, mean NaN, sum 0', src, 'f', [np.zeros((2, 0), F32)],
          [[-INF, -INF], [INF, INF], [NAN, NAN], [0, 0]])
    check_raises('argmax over an empty axis is a data error', DataError, 'f = fn (x) { argmax("...n->...", x) };',
                 'f', [np.zeros((2, 0), F32)])
    check('argmax over an empty axis with no outputs', 'f = fn (x) { argmax("...n->...", x) };', 'f',
          [np.zeros((0, 0), F32)], [np.zeros(0)])
    check('integer mean floors, amax of an empty axis is the least value',
          'f = fn (x, y) { mean("i->", x), amax("i->", y), amin("i->", y) };', 'f',
          [arr([1, 2, -6], I32), np.zeros(0, I8)], [-1, -128, 127])
    check('reductions of a 1-sized axis', src, 'f', [arr([[2], [-3]])], [[2, -3], [2, -3], [2, -3], [2, -3]])


def t_last_axis():
    e = math.exp
    s = e(1) + e(2) + e(3)
    check('softmax', 'f = fn (x) { softmax(x) };', 'f', [arr([1, 2, 3], F64)], [[e(1) / s, e(2) / s, e(3) / s]],
          rtol=1e-15)
    check('softmax subtracts the maximum (no overflow)', 'f = fn (x) { softmax(x), log_softmax(x) };', 'f',
          [arr([[1000, 1000], [-1000, -1000]])], [[[.5, .5], [.5, .5]], [[-math.log(2)] * 2] * 2], rtol=1e-15)
    check('log_softmax', 'f = fn (x) { log_softmax(x) };', 'f', [arr([1, 2, 3], F64)],
          [[1 - math.log(s), 2 - math.log(s), 3 - math.log(s)]], rtol=1e-15)
    check('softmax of a 1-sized and a 0-sized axis', 'f = fn (x, y) { softmax(x), softmax(y) };', 'f',
          [arr([[5], [-inf_()]]), np.zeros((2, 0), F32)], [[[1], [NAN]], np.zeros((2, 0))], unc=[None, None])
    check('softmax of a row with +inf or only -inf: NaN throughout (the maximum subtracted, as PyTorch)',
          'f = fn (x) { softmax(x), log_softmax(x) };', 'f', [arr([[-inf_(), -inf_(), -inf_()], [1, 2, -inf_() * -1]])],
          [[[NAN] * 3, [NAN] * 3]] * 2, unc=[None, None])
    v = 1.25 + 1e-5
    check('layernorm: biased variance, eps 1e-5 inside the sqrt', 'f = fn (x, g, b) { layernorm(x, g, b) };', 'f',
          [arr([[1, 2, 3, 4]], F64), arr([1, 1, 2, 1], F64), arr([0, 0, 0, 1], F64)],
          [[[-1.5 / math.sqrt(v), -.5 / math.sqrt(v), 2 * .5 / math.sqrt(v), 1 + 1.5 / math.sqrt(v)]]], rtol=1e-14)
    check('topk: descending, ties to the lower index', 'f = fn (x) { topk(x, [2]) };', 'f',
          [arr([[3, 1, 3, 2], [0, 4, 4, 4]])], [[[3, 3], [4, 4]], [[0, 2], [1, 2]]], ['f32', 'i32'])
    check('topk: NaN is the largest', 'f = fn (x) { topk(x, [3]) };', 'f', [arr([1, NAN, 2, NAN])],
          [[NAN, NAN, 2], [1, 3, 2]])
    check('topk k = 0 and k = n', 'f = fn (x) { a, b = topk(x, [0]); c, d = topk(x, [3]); a, b, c, d };', 'f',
          [arr([2, 3, 1])], [np.zeros(0), np.zeros(0), [3, 2, 1], [1, 0, 2]])
    check('topk of integers', 'f = fn (x) { topk(x, [2]) };', 'f', [arr([-128, 127, 127], I8)], [[127, 127], [1, 2]])
    check_raises('topk k > n', EvalError, 'f = fn (x) { topk(x, [4]) };', 'f', [arr([1, 2, 3])])


def inf_():
    return INF


# ---------------------------------------------------------------- convolutions and pools

def t_conv():
    x = np.arange(1, 10, dtype=F32).reshape(1, 1, 3, 3)
    check('conv: NCHW cross-correlation, no padding', 'f = fn (x, w) { conv(x, w) };', 'f',
          [x, np.ones((1, 1, 2, 2), F32)], [[[[[12, 16], [24, 28]]]]])
    check('conv cross-correlation (not flipped)', 'f = fn (x, w) { conv(x, w) };', 'f',
          [x, arr([[[[1, 0], [0, 0]]]])], [[[[[1, 2], [4, 5]]]]])
    check('conv2d zero padding and stride', 'f = fn (x, w) { conv2d(x, w, [2, 2], [1, 1]) };', 'f',
          [x, np.ones((1, 1, 2, 2), F32)], [[[[[1, 5], [11, 28]]]]])
    check('conv2d k filters give k channels', 'f = fn (x, w) { conv2d(x, w, [1, 1], [0, 0]) };', 'f',
          [x, arr([1, 2]).reshape(2, 1, 1, 1)], [np.concatenate([x, 2 * x], 1)])
    xs = arr([1, 2, 3, 4, 5]).reshape(1, 1, 5)
    check('conv1d stride 2 pad 1', 'f = fn (x, w) { conv1d(x, w, [2], [1]) };', 'f',
          [xs, np.ones((1, 1, 3), F32)], [[[[3, 9, 9]]]])
    check('conv1d_grouped dilation 2', 'f = fn (x, w) { conv1d_grouped(x, w, [1], [0], [2], [1]) };', 'f',
          [xs, np.ones((1, 1, 2), F32)], [[[[4, 6, 8]]]])
    x2 = np.concatenate([x, 10 * x], 1)
    check('conv2d_grouped depthwise (g = channels)', 'f = fn (x, w) { conv2d_grouped(x, w, [1, 1], [0, 0], [1, 1], [2]) };',
          'f', [x2, arr([2, 3]).reshape(2, 1, 1, 1)], [np.concatenate([2 * x, 30 * x], 1)])
    check('conv2d_grouped two groups of two channels', 'f = fn (x, w) { conv2d_grouped(x, w, [1, 1], [0, 0], [1, 1], [2]) };',
          'f', [np.concatenate([x, x, x, x], 1), np.ones((2, 2, 1, 1), F32)], [np.concatenate([2 * x, 2 * x], 1)])
    check('a convolution over a 0-sized batch', 'f = fn (x, w) { conv2d(x, w, [1, 1], [1, 1]) };', 'f',
          [np.zeros((0, 1, 3, 3), F32), np.ones((2, 1, 3, 3), F32)], [np.zeros((0, 2, 3, 3))])
    check_raises('a window larger than the padded input', EvalError, 'f = fn (x, w) { conv2d(x, w, [1, 1], [0, 0]) };',
                 'f', [x, np.ones((1, 1, 4, 4), F32)])
    check('conv (section 5, no clause): a window one longer than the input gives 0', 'f = fn (x, w) { conv(x, w) };',
          'f', [x, np.ones((2, 1, 4, 3), F32)], [np.zeros((1, 2, 0, 1))])
    check_raises('conv: a window two longer than the input', EvalError, 'f = fn (x, w) { conv(x, w) };', 'f',
                 [x, np.ones((1, 1, 5, 3), F32)])


def t_pools():
    x = -arr([[[[1, 2], [3, 4]]]])
    check('maxpool pads with -inf', 'f = fn (x) { maxpool2d(x, [2, 2], [1, 1], [1, 1]) };', 'f', [x],
          [[[[[-1, -1, -2], [-1, -1, -2], [-3, -3, -4]]]]])
    check('avgpool divides by the whole window, padding included', 'f = fn (x) { avgpool2d(x, [2, 2], [1, 1], [1, 1]) };',
          'f', [np.ones((1, 1, 2, 2), F32)], [[[[[.25, .5, .25], [.5, 1, .5], [.25, .5, .25]]]]])
    check('maxpool1d avgpool1d stride 2', 'f = fn (x) { maxpool1d(x, [2], [2], [0]), avgpool1d(x, [2], [2], [0]) };',
          'f', [arr([[[1, 3, 2, 4, 9]]])], [[[[3, 4]]], [[[2, 3]]]])
    check('maxpool2d stride 2 on an odd size', 'f = fn (x) { maxpool2d(x, [2, 2], [2, 2], [0, 0]) };', 'f',
          [np.arange(9, dtype=F32).reshape(1, 1, 3, 3)], [[[[[4]]]]])
    check('integer pools', 'f = fn (x) { maxpool1d(x, [2], [1], [1]), avgpool1d(x, [2], [1], [0]) };', 'f',
          [arr([[[-3, -1, 4]]], I32)], [[[[-3, -1, 4, 4]]], [[[-2, 1]]]])


# ---------------------------------------------------------------- higher-order

def t_higher():
    check('map over rows', 'f = fn (x) { map(fn (r) { r * 2 }, x) };', 'f', [arr([[1, 2], [3, 4]])], [[[2, 4], [6, 8]]])
    check('map over an empty axis keeps the slice shape', 'f = fn (x) { map(fn (r) { concat(r, r) }, x) };', 'f',
          [np.zeros((0, 3), F32)], [np.zeros((0, 6))])
    check('map2 walks two tensors', 'f = fn (x, y) { map2(fn (a, b) { a * f32(b) }, x, y) };', 'f',
          [arr([[1, 2], [3, 4]]), arr([2, 3], I32)], [[[2, 4], [9, 12]]])
    check('reduce folds left, accumulator first', 'f = fn (x) { reduce(fn (acc, b) { acc * 2 + b }, 0, x), reduce(fn (a, b) { a - b }, 10, x) };',
          'f', [arr([1, 0, 1, 1], I32)], [11, 7])
    check('reduce over rows, initial value broadcast', 'f = fn (x) { reduce(+, 1f, x) };', 'f',
          [arr([[1, 2], [3, 4]])], [[5, 7]])
    check('reduce over an empty axis gives the initial value', 'f = fn (x) { reduce(+, 1f, x) };', 'f',
          [np.zeros((0, 2), F32)], [[1, 1]])
    src = 'f = fn (h0, x) { loop(h0, fn (h, y) { (h + y, h * y) }, x) };'
    check('loop: a scan, outputs stacked', src, 'f', [arr([1]), arr([[2], [3], [4]])], [[10], [[2], [9], [24]]])
    check('loop with zero steps returns its initial state', src, 'f', [arr([1]), np.zeros((0, 1), F32)],
          [[1], np.zeros((0, 1))])


# ---------------------------------------------------------------- uncertainty

def t_uncertain():
    one, tiny = arr([1.0]), arr([2.0 ** -30])
    src = 'f = fn (a, b) { s = a + b; gt(s, a), floor(s), i32(s), sign(s - a), s };'
    out = ev(src, 'f', one, tiny)
    check_true('a rounded sum: bound is |round(s) - s| exactly', out[4].bound[0] == 2.0 ** -30 and not out[4].uncertain[0])
    check_true('comparison near its boundary is uncertain', bool(out[0].uncertain[0]))
    check_true('floor near an integer is uncertain', bool(out[1].uncertain[0]))
    check_true('a cast near an integer is uncertain', bool(out[2].uncertain[0]))
    check_true('sign near 0 is uncertain', bool(out[3].uncertain[0]))
    out = ev(src, 'f', one, arr([0.25]))
    check_true('exact values are decided', not any(o.uncertain[0] for o in out) and out[4].bound[0] == 0)
    out = ev('f = fn (x) { argmax("...n->...", x), topk(x, [2]), eq(x, x) };', 'f', arr([[2, 2, 1], [1, 3, 3]]))
    check_true('exact ties are decided by the index', not any(np.any(o.uncertain) for o in out)
               and list(out[0].value) == [0, 1] and out[2].value.tolist() == [[0, 1], [1, 2]])
    # row sums of ten 0.1s: bounds of about 10 u, far above the difference
    m = np.full((4, 10), 0.1, F32)
    m[1, 0] += F32(2 ** -26)
    m[2] = 0.05
    m[3] = 0.3
    src = 'f = fn (m) { z = sum("ij->i", m); argmax("...n->...", z), topk(z, [3]), topk(z, [1]), argmax("...n->...", slice(z, [0], [1], [3])) };'
    out = ev(src, 'f', m[:3])
    check_true('argmax between near-equal inexact values is uncertain', bool(out[0].uncertain))
    check_true('topk: indices among near-equal values uncertain, the rest not',
               out[2].uncertain.tolist() == [True, True, False] and out[4].uncertain.tolist() == [True])
    out = ev(src, 'f', m[1:])
    check_true('well-separated argmax/topk are certain', not out[0].uncertain and not np.any(out[2].uncertain)
               and not out[5].uncertain)
    src = 'f = fn (t, m) { i = argmax("...n->...", sum("bij->bi", m)); gather(t, i) };'
    out = ev(src, 'f', arr([[1, 2], [3, 4]]), np.stack([m[:2], m[2:]]))
    check_true('a gather row by an uncertain index is uncertain', out[0].uncertain.tolist() == [[True, True], [False, False]])
    src = 'f = fn (c, x, y) { select(gt(x * y, c), x, c) };'
    out = ev(src, 'f', arr([1 / 3]), arr([3.0, 6.0]), arr([1 / 9]))
    check_true('select on an uncertain condition', out[0].uncertain.tolist() == [True, False])
    out = ev('f = fn (x, y) { d = x * y - 1; 1 / d, log(d), sqrt(d) };', 'f', arr([3]), arr([1 / 3]))
    check_true('a divisor or a log/sqrt argument whose bound spans 0', all(o.uncertain[0] for o in out))
    out = ev('f = fn (x, y) { d = x * y - 2; log(d), sqrt(d), rsqrt(d), log(d + 1.5) };', 'f', arr([3]), arr([1 / 3]))
    check_true('log/sqrt/rsqrt of an inexact argument surely below 0: NaN, decided',
               all(np.isnan(o.value[0]) and not o.uncertain[0] for o in out[:3]) and not out[3].uncertain[0]
               and out[3].bound[0] > 0)
    out = ev('f = fn (x) { x * x };', 'f', arr([300, 200], F16))
    check_true('f16 overflow is uncertain', out[0].uncertain.tolist() == [True, False])
    out = ev('f = fn (x, y) { z = x * y; sum("i->", z), z + 1, concat(z, z) };', 'f', arr([1e38, 1]), arr([10, 1]))
    check_true('uncertainty propagates through sums and element-wise ops',
               bool(out[0].uncertain) and out[1].uncertain.tolist() == [True, False]
               and out[2].uncertain.tolist() == [True, False, True, False])
    out = ev('f = fn (x, y) { nonzero(x * y - 1) };', 'f', arr([0, 3, 5, 3]), arr([1 / 3]))
    check_true('nonzero after an ambiguous element is uncertain', out[0].value.tolist() == [0, 1, 2, 3]
               and out[0].uncertain.tolist() == [False, True, True, True])
    out = ev('f = fn (x, y) { relu(x * y - 1), abs(x * y - 1), maximum(x * y, 1) };', 'f', arr([3, 6]), arr([1 / 3]))
    check_true('continuous ops (relu, abs, maximum) are not uncertain at the kink',
               not any(np.any(o.uncertain) for o in out) and out[0].bound[0] > 0)
    out = ev('f = fn (x) { x * 2 };', 'f', arr([1e20]))
    check_true('a value of f32 range stays certain', not out[0].uncertain[0])


# ---------------------------------------------------------------- the bound against real evaluations

def seq_sum(x, dt, rnd=None):
    acc = dt(0)
    for v in x:
        acc = dt(acc + dt(v)) if rnd is None else rnd(acc + v)
    return float(acc)


def check_bound(name, got, out, ratio=None):
    """observed <= bound (to the factor K); with ratio: bound <= ratio * observed."""
    Stats.cases += 1
    obs = np.abs(np.asarray(got, np.float64) - out.value)
    ok = ~out.uncertain
    if np.any(obs[ok] > K * out.bound[ok] + 1e-300):
        return fail(name, 'observed error %g above K * bound %g' % (np.max(obs[ok] - K * out.bound[ok]), K * out.bound[ok].max()))
    if np.any(obs[ok] > out.bound[ok] + 1e-300):
        print('note %s: observed error above the bound but within K (%g)' % (name, np.max(obs[ok] / out.bound[ok])))
    if ratio is not None:
        r = out.bound[ok].max() / max(obs[ok].max(), 1e-300)
        if r > ratio:
            fail(name, 'bound %g is %.0fx the observed error %g' % (out.bound[ok].max(), r, obs[ok].max()))


def t_bounds():
    rng = np.random.default_rng(7)
    for n in (100, 1000, 10000):
        ratios = []
        for seed in range(7):
            x = np.random.default_rng(seed).uniform(0, 1, n).astype(F32)
            out = ev('f = fn (x) { sum("i->", x) };', 'f', x)[0]
            got = np.cumsum(x, dtype=F32)[-1]
            check_bound('f32 sequential sum of %d positives, seed %d' % (n, seed), got, out)
            check_bound('f32 pairwise sum of %d, seed %d' % (n, seed), np.sum(x, dtype=F32), out)
            ratios.append(out.bound / max(abs(float(got) - float(out.value)), 1e-300))
        check_true('f32 sum of %d: median bound / observed %.0f <= 1000' % (n, np.median(ratios)),
                   np.median(ratios) <= 1000, 'ratios %s' % np.round(sorted(ratios)))
        y = rng.standard_normal(n).astype(F32)
        out = ev('f = fn (x, y) { einsum("i,i->", x, y) };', 'f', x, y)[0]
        check_bound('f32 sequential dot product of %d' % n, np.cumsum(x * y, dtype=F32)[-1], out)
    x = rng.uniform(0, 1, 1000).astype(F16)
    out = ev('f = fn (x) { reduce(+, 0f, x) };', 'f', x)[0]
    check_bound('f16 sequential reduce(+) of 1000', seq_sum(x, F16), out, 1000)
    out = ev('f = fn (x) { sum("i->", x) };', 'f', x)[0]
    check_bound('f16 sum of 1000 (any order)', seq_sum(x, F16), out, 1000)
    xb = BF16(rng.uniform(0, 1, 100))
    out = ev('f = fn (x) { sum("i->", x) };', 'f', xb)[0]
    check_bound('bf16 sequential sum of 100', seq_sum(xb.values, float, lambda v: float(round_bf16(v))), out, 1000)
    a, b = rng.standard_normal((20, 64)).astype(F32), rng.standard_normal((64, 30)).astype(F32)
    out = ev('f = fn (a, b) { matmul(a, b) };', 'f', a, b)[0]
    check_bound('f32 matmul', a @ b, out)
    x = rng.standard_normal((8, 50)).astype(F32) * 5
    out = ev('f = fn (x) { softmax(x), log_softmax(x) };', 'f', x)
    xs = x - x.max(-1, keepdims=True)
    z = np.exp(xs)
    check_bound('f32 softmax by hand', z / z.sum(-1, keepdims=True, dtype=F32), out[0])
    check_bound('f32 log_softmax by hand', xs - np.log(z.sum(-1, keepdims=True, dtype=F32)), out[1])
    g, bb = rng.standard_normal(50).astype(F32), rng.standard_normal(50).astype(F32)
    out = ev('f = fn (x, g, b) { layernorm(x, g, b) };', 'f', x, g, bb)[0]
    mu = x.mean(-1, keepdims=True, dtype=F32)
    d = x - mu
    var = (d * d).mean(-1, keepdims=True, dtype=F32)
    check_bound('f32 layernorm by hand', d * (F32(1) / np.sqrt(var + F32(1e-5))) * g + bb, out)
    x = rng.standard_normal(1000).astype(F32) * 3
    out = ev('f = fn (x) { exp(log(abs(x) + 1) * 0.5) - tanh(x) * sigmoid(x) };', 'f', x)[0]
    ax = np.abs(x) + F32(1)
    ref = np.exp(np.log(ax) * F32(0.5)) - np.tanh(x) * (F32(1) / (F32(1) + np.exp(-x)))
    check_bound('f32 element-wise chain by hand', ref, out)
    xb = BF16(rng.standard_normal(500) * 2)
    out = ev('f = fn (x) { x * x - x / 3 + exp(x) };', 'f', xb)[0]
    rb, xv = lambda v: round_bf16(v), xb.values
    check_bound('bf16 element-wise chain by hand', rb(rb(rb(xv * xv) - rb(xv / rb(3.0))) + rb(np.exp(xv))), out)
    x16 = (rng.standard_normal(500) * 2).astype(F16)
    out = ev('f = fn (x) { x * x - x / 3 + 1 };', 'f', x16)[0]
    check_bound('f16 element-wise chain by hand', x16 * x16 - x16 / F16(3) + F16(1), out)


# ---------------------------------------------------------------- the command line

def t_cli():
    d = scratch_dir('axon-values-cli-')
    prog = os.path.join(d, 'p.axon')
    with open(prog, 'w') as fh:
        fh.write('f = fn (x : t [n], h : dims [h], t, i) { x * size([h]), gather(t, i), [n, h] };\n')
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'evaluate.py')

    def run(inputs, *extra):
        np.savez(os.path.join(d, 'in.npz'), **inputs)
        return subprocess.run([sys.executable, here, prog, 'f', '--inputs', os.path.join(d, 'in.npz'),
                               '--out', os.path.join(d, 'out.npz')] + list(extra),
                              capture_output=True, text=True)
    tab = np.arange(6, dtype=F32).reshape(3, 2)
    r = run({'a0': arr([1, 2]), 'd1': np.array([3], I64), 'a2': tab, 'a3': arr([2], I32)})
    Stats.cases += 1
    if r.returncode != 0:
        fail('command line', 'exit %d: %s' % (r.returncode, r.stderr))
    else:
        o = np.load(os.path.join(d, 'out.npz'))
        if not (o['o0'].tolist() == [3, 6] and o['o1'].tolist() == [[4, 5]] and o['o2'].tolist() == [2, 3]
                and str(o['t0']) == 'f32' and str(o['t2']) == 'dims' and o['u0'].dtype == bool
                and o['e0'].dtype == np.float64):
            fail('command line', 'outputs %s' % {k: o[k] for k in o.files})
    r = run({'a0': arr([1, 2]), 'd1': np.array([3], I64), 'a2': tab, 'a3': arr([5], I32)})
    check_true('command line: a data error exits 3', r.returncode == 3 and 'gather' in r.stderr, r.stderr)
    r = run({'a0': arr([1, 2]), 'x1': np.array([3], I64)})
    check_true('command line: bad inputs exit 2', r.returncode == 2, r.stderr)
    r = subprocess.run([sys.executable, here, prog], capture_output=True, text=True)
    check_true('command line: a usage error exits 2', r.returncode == 2, r.stderr)
    r = run({'a0': arr([1, 2], F64), 'd1': np.array([3], I64), 'a2': tab, 'a3': arr([0], F32)})
    check_true('command line: a program error exits 1', r.returncode == 1, r.stderr)
    r = run({'bf0': np.array([0x3f80, 0x4000], np.uint16), 'd1': np.array([3], I64), 'a2': tab, 'a3': arr([0], I32)})
    Stats.cases += 1
    if r.returncode != 0:
        fail('command line bf16 bits', r.stderr)
    else:
        o = np.load(os.path.join(d, 'out.npz'))
        if o['o0'].tolist() != [3, 6] or str(o['t0']) != 'bf16':
            fail('command line bf16 bits', '%s %s' % (o['o0'], o['t0']))


def main(argv):
    import selftest_torch
    tests = [t_program, t_imports, t_statements, t_closures, t_opvalues, t_literals, t_dims, t_arith, t_nan,
             t_integers, t_casts, t_movement, t_added, t_imports_more, t_data_errors, t_einsum, t_reductions,
             t_last_axis, t_conv, t_pools, t_higher,
             t_uncertain, t_bounds, t_cli]
    for t in tests:
        try:
            t()
        except Exception as e:                              # noqa: BLE001
            import traceback
            traceback.print_exc()
            fail(t.__name__, 'crashed: %s: %s' % (type(e).__name__, e))
    for d in SCRATCH:
        shutil.rmtree(d, ignore_errors=True)
    torch_note = selftest_torch.run(Stats, fail)
    print('selftest: %d cases, %d failed (%s)' % (Stats.cases, Stats.failed, torch_note))
    return 1 if Stats.failed else 0
