#!/usr/bin/env python3
"""gen.py - a random generator of Axon programs for the semantic
differential test.

Type-directed: every local carries an abstract shape (a list of items, each
a dimension - a polynomial over the function's size names, or an opaque
size - or a shape variable), and operators are applied to operands whose
abstract shapes fit their rules, inventing new parameters of the shape an
operand needs.  Annotations are written from the abstract shapes, with
random rewrites (fresh names, arithmetic, shape variables), so that most
functions type-check while their signatures keep residual constraints.

Seeded and deterministic:
    gen.py --seed N [--count K] [--out DIR]      writes DIR/pNNNN.axon
    gen.py --seed N                              prints one program
    gen.py --no-ops18 ... without spec 5b's last table (conv1d_grouped, linear,
        expand, concat_axis of several tensors, arange, negative axes), `%`
        in where clauses, programs importing a helper file (DIR/pNNNN_lib.axon):
        the programs of the generator before them (no random draw differs)
"""
import argparse
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
sys.dont_write_bytecode = True
import interp   # noqa: E402  (its polynomials)
import axparse  # noqa: E402  (its type parser reads the extern signatures)

DIM_NAMES = ['n', 'm', 'k', 'd', 'h', 'l', 'p', 'q', 'r', 'i', 'j', 'e', 'g', 'o']
SHAPE_NAMES = ['s', 's1', 's2', 's3', 'z1', 'z2', 'z3', 'z4']
VALUE_NAMES = ['x', 'y', 'z', 'u', 'v', 'w', 'x1', 'y1', 'z1_', 'u1', 'v1', 'w1']
UNARY = ['exp', 'log', 'sqrt', 'tanh', 'sigmoid', 'relu', 'abs',
         # spec section 5b
         'erf', 'sin', 'cos', 'rsqrt', 'gelu', 'silu', 'floor', 'ceil', 'sign']
LITERALS = ['1f', '0.5', '2f', '1.5f', '2.', '1e-3', '3', '0f', '2', 'inf']
INITS = ['0f', '1f', '-inf', 'inf', '0.5', '0', '1']

# ---------------------------------------------------------------- sizes
# An abstract size: ('p', key) a polynomial over size names (key: sorted
# ((monomial, coefficient), ...)), or ('o', id) an opaque size.


# Polynomial arithmetic is the interpreter's (the generator only builds
# abstract shapes with it; it decides nothing).
_padd = interp.padd
_pmul = interp.pmul


def mkp(poly):
    return ('p', tuple(sorted(poly.items())))


def adc(k):
    return mkp({(): k} if k else {})


def ads(name):
    return mkp({(name,): 1})


def poly(a):
    return dict(a[1]) if a[0] == 'p' else None


def adconst(a):
    p = poly(a)
    if p is None:
        return None
    if not p:
        return 0
    if list(p) == [()]:
        return p[()]
    return None


_opq = [0]


def opaque():
    _opq[0] += 1
    return ('o', _opq[0])


def ad_op(op, a, b):
    pa, pb = poly(a), poly(b)
    if pa is None or pb is None:
        return opaque()
    if op == '+':
        return mkp(_padd(pa, pb))
    if op == '-':
        return mkp(_padd(pa, pb, -1))
    return mkp(_pmul(pa, pb))


def ad_text(a):
    """The annotation text of a size; None for an opaque one."""
    p = poly(a)
    if p is None:
        return None
    if not p:
        return '0'
    terms = sorted(p.items(), key=lambda t: (-len(t[0]), t[0]))
    pos = [t for t in terms if t[1] > 0]
    neg = [t for t in terms if t[1] < 0]
    out = ''
    for m, c in pos + neg:
        mono = ' * '.join(m)
        ac = abs(c)
        if not m:
            body = str(ac)
        elif ac == 1:
            body = mono
        else:
            body = '%d * %s' % (ac, mono)
        if not out:
            out = body if c > 0 else '0 - ' + body
        else:
            out += (' + ' if c > 0 else ' - ') + body
    return out



# Abstract shapes: tuples of items ('d', size) | ('s', name).

def shape_text(items, elem):
    parts = []
    cur = []
    for it in items:
        if it[0] == 'd':
            cur.append(it[1])
        else:
            if cur:
                parts.append('[' + ', '.join(cur) + ']')
                cur = []
            parts.append(it[1])
    if cur or not parts:
        parts.append('[' + ', '.join(cur) + ']')
    return elem + ' ' + ' @ '.join(parts)


def prod(sizes):
    """The product of abstract sizes (an element count)."""
    e = adc(1)
    for a in sizes:
        e = ad_op('*', e, a)
    return e


def has_dimsv(items):
    if items and items[0] == 'dimsv':
        return True
    if items and items[0] == 'tuple':
        return any(has_dimsv(t) for t in items[1])
    return False


def lead_dims(items):
    n = 0
    for it in items:
        if it[0] != 'd':
            break
        n += 1
    return n


def trail_dims(items):
    n = 0
    for it in reversed(items):
        if it[0] != 'd':
            break
        n += 1
    return n


def has_svar(items):
    return any(it[0] == 's' for it in items)


# ---------------------------------------------------------------- programs

class FnInfo(object):
    """What a later function needs to call an earlier one."""

    def __init__(self, name, params, result, callable_=True):
        self.name = name
        self.ho = None
        self.params = params      # list of items (or ('tuple', [items]))
        self.result = result      # items, or ('tuple', [...])
        self.callable = callable_


EXTERNS = [
    '(t [n] @ s) -> t [n + 2] @ s',
    '(t [n, m]) -> t [m, n]',
    '(t [n]) -> t [?]',
    '(t a, t b) -> t broadcast(a, b)',
    '(t [n] @ s) -> (t s, t [n])',
    '(t [2 * n]) -> t [n, 2]',
    '(t [n * m], t [n]) -> t [m]',
    '(t s @ [n]) -> t s',
    '(t [n]) -> t [k]',
    '(t [n]) -> t [n, k]',
    '(t s) -> t [k] @ s',
    '(t [n]) -> t [k + 1]',
    '(t [n, m]) -> t [2 * k, m]',
    '(t [n], t [m]) -> (t [k], t [k, n])',
    '(t s @ [n], t [n, m]) -> t s @ [m]',
    '(t [n, c, h, w]) -> t [n, c, h / 2, w / 2]',
    '(t a) -> t [?] @ a',
    '(t [n] @ s, t [m] @ s) -> t [n + m] @ s',
    '(t [(+ n 1)]) -> t [(* 2 n)]',
    '(t [n - 1]) -> t [n]',
    '(t [n, n]) -> t [n]',
    '(t [n], t [m]) -> t [n * m]',
    '(t [n] @ s) -> t [n, ?] @ s',
    '(t [n + 1, m]) -> t [m, n]',
    '(t s) -> t s @ [1]',
    '(t [n] @ s) -> t [?] @ s',
    '(t [n]) -> t [n, ?]',
    '(t a, t [n]) -> t a @ [?]',
    # spec section 5b: where clauses, dims parameters
    '(t [n]) -> (t [m], t [m]) where 2 * m = n',
    '(t [n], t [m]) -> t [k] where k = n + m',
    '(t [n, m]) -> t [m] where m <= n',
    '(t [n], t [m]) -> t [n, m] where m <= n + 1, 1 <= m',
    '(t [n] @ s, dims [k]) -> t [k] @ s where k <= n',
    '(t [b, c, h, w], dims [f]) -> t [b, c * f, h / f, w / f] where 1 <= f',
    # spec 5b: elements() and rank() in signatures
    '(t a) -> t [elements(a)]',
    '(t [n] @ s) -> t [n, elements(s)]',
    '(t a, t b) -> t b where elements(a) = elements(b)',
    '(t p @ [n], dims [k]) -> t p where rank(p) = k',
    '(t a) -> t [rank(a), 2]',
]

# --ops18: `%` in signatures (spec section 4), linear's rule as an extern's
EXTERNS18 = [
    '(t [n]) -> (t [n / 2], t [n / 2]) where n % 2 = 0',
    '(t [b, d], dims [h]) -> t [b, h, d / h] where d % h = 0',
    '(t s @ [k], t [k, m]) -> t s @ [m]',
    '(t [n, m]) -> t [m % 4, n] where m % 2 = 0',
]


class Gen(object):
    def __init__(self, rng, ops18=False):
        self.rng = rng
        self.fns = []             # FnInfo of earlier items
        self.externs = []         # (name, param templates, result template, text)
        # spec 5b's last table and section 2's imports (conv1d_grouped,
        # linear, expand, concat_axis of several tensors, arange, negative
        # axes, `%`, a helper file): off by default until axonc has them;
        # off, the programs are the same as without it (no random draw of
        # its own)
        self.ops18 = ops18
        self.helpers = {}         # helper file name -> its text
        self.helper_fns = []      # the helper's callable functions
        self.in_helper = False

    def chance(self, p):
        return self.rng.random() < p

    def pick(self, seq):
        return seq[self.rng.randrange(len(seq))]

    # -- the program
    def program(self, stem):
        r = self.rng
        out = []
        if self.chance(0.2):
            out.append('// generated program %s' % stem)
        if self.ops18 and self.chance(0.3):
            # spec section 2: a helper file next to the program (its
            # externs and functions visible to the program's, not exported
            # by its header), now and then imported twice (counts once)
            hname = '%s_lib.axon' % stem
            self.helpers[hname] = self.helper_program()
            out.append('import "%s";' % hname)
            if self.chance(0.1):
                out.append('import "%s";' % hname)
        for i in range(r.choice([0, 1, 1, 2, 2])):
            out.append(self.extern('e%d' % i))
        nf = r.choice([2, 3, 3, 4, 4, 5])
        main = self.chance(0.1)
        for i in range(nf):
            name = 'f%d' % i
            if i == 1 and self.chance(0.1):
                name = "g'"
            is_main = main and i == nf - 1
            text = self.function(name if not is_main else stem, is_main)
            out.append(text)
        return '\n'.join(out) + '\n'

    def helper_program(self):
        """The text of a helper file: externs he0.., functions b0.."""
        r = self.rng
        out = ['// helper file (spec section 2: imported)'] if self.chance(0.3) else []
        self.in_helper = True
        for i in range(r.choice([0, 0, 1])):
            out.append(self.extern('he%d' % i))
        for i in range(r.choice([1, 2, 2, 3])):
            # the first one general, so that the program has one to call
            out.append(self.function('b%d' % i, False, general=(i == 0)))
        self.in_helper = False
        self.helper_fns = [f for f in self.fns if f.callable]
        return '\n'.join(out) + '\n'

    def extern(self, name):
        sig = self.pick(EXTERNS + EXTERNS18 if self.ops18 else EXTERNS)
        if self.chance(0.3):
            sig = re.sub(r'\bn\b', 'q', sig)
        ty, _ = axparse.parse_type(sig)
        params = [self.template_of(t) for t in ty[1]]
        result = self.template_of(ty[2])
        self.externs.append((name, params, result))
        return 'extern %s : %s;' % (name, sig)

    def template_of(self, ty):
        """A type AST (interp's) to an abstract template."""
        if ty[0] == 'tuple':
            return ('tuple', [self.template_of(t) for t in ty[1]])
        if ty[1] == 'dims':
            # a dims parameter: the call passes a literal
            return ('dimsarg', tuple(('d', self.dim_of(d)) for a in ty[2] for d in a[1]))
        items = []
        for a in ty[2]:
            if a[0] == 'dims':
                for d in a[1]:
                    items.append(('d', self.dim_of(d)))
            elif a[0] == 'svar':
                items.append(('s', '%' + a[1]))
            else:
                items.append(('bc', [self.template_of(('tensor', None, op)) for op in a[1]]))
        return tuple(items)

    def dim_of(self, d):
        k = d[0]
        if k == 'int':
            return adc(d[1])
        if k == 'dvar':
            return ads('%' + d[1])
        if k == 'op' and d[1] in '+-*':
            return ad_op(d[1], self.dim_of(d[2]), self.dim_of(d[3]))
        return ('q',)

    # -- a function
    def function(self, name, is_main, general=False):
        f = FnGen(self, name)
        if general:
            text, info = f.general()
            if info is not None:
                self.fns.append(info)
            return text
        if not is_main and self.chance(0.08):
            # a higher-order function (not exported); later ones call it
            kind = self.pick(list(HIGHER_ORDER))
            self.fns.append(FnInfo(name, None, None, callable_=False))
            self.fns[-1].ho = kind
            return '%s = %s;' % (name, HIGHER_ORDER[kind])
        if self.chance(0.25):
            text, info = f.idiom()
        else:
            text, info = f.general()
        if info is not None:
            self.fns.append(info)
        if is_main:
            text = text.split(' = ', 1)[1]
            if text.endswith(';'):
                text = text[:-1]
        elif self.chance(0.15) and text.endswith('};'):
            text = text[:-1]
        return text


HIGHER_ORDER = {
    'map': 'fn (f, x) { map(f, x) }',
    'reduce': 'fn (f, x) { reduce(f, 0f, x) }',
    'twice': 'fn (f, x) { f(f(x)) }',
    'scan': 'fn (c, h, x) { _, ys = loop(h, c, x); ys }',
}

IDIOMS = [
    'fn (x : {E} [n], y) {{ v : {E} [m] = x {OP} y; v }}',
    'fn (x : {E} [n], y) {{ transpose(x {OP} y) }}',
    'fn (x : {E} [n] @ s, y) {{ matmul(x, y) }}',
    'fn (x : {E} [n - 1]) {{ {U}(x) }}',
    'fn (x, y, z) {{ {MAX}(z, x {OP} y) }}',
    'fn (x : {E} [m], y) {{ g = fn (a : {E} [m]) {{ a {OP} y }}; g(g(x)) }}',
    'fn (x : {E} [n * n]) {{ x }}',
    'fn (x : {E} [n], y : {E} [{C}]) {{ v : {E} [2 * m] = concat(x, y); v }}',
    'fn (x, y) {{ reverse(x {OP} y) }}',
    'fn (x : {E} [n] @ s) {{ transpose(x) }}',
    'fn (x, y) {{ v = x {OP} (x {OP} y); reduce({RED}, {INIT}, v), v }}',
    'fn (x : {E} [n, k], y : {E} [k, m]) : {E} [p] @ s {{ matmul(x, y) }}',
    'fn (x : {E} [n + 1], y : {E} [m + 1]) {{ v : {E} [k] = x {OP} y; v }}',
    'fn (x : {E} [2 * n], y) {{ v : {E} [n] @ s = x {OP} y; v }}',
    'fn (x : {E} s @ [n], y : {E} [n]) {{ w = x {OP} y; map(fn (a) {{ a {OP} y }}, w) }}',
    'fn (x, y : {E} [m]) {{ v = map(fn (a : {E} [m]) {{ {U}(a) }}, x); reduce({RED}, {INIT}, v) }}',
    'fn (x : {E} [n, m], h : {E} [m]) {{ hT, ys = loop(h, fn (st, r) {{ hn = st {OP} r; hn, hn }}, x); hT, ys }}',
    'fn (x : {E} [a + b]) {{ x }}',
    'fn (x : {E} [n, {C}], y : {E} [{C}, n]) {{ max(matmul(x, y), matmul(x, y)) }}',
    'fn (x : {E} [n] @ s, y : {E} [m] @ s) {{ v : {E} [k] @ s = concat(x, y); reverse(v) }}',
    'fn (x : {E} [n] @ s) {{ v : {E} [m] @ z1 @ [p] = x; v }}',
    'fn (x : {E} s1 @ s2) {{ x }}',
    'fn (x : {E} [n, c, h, w], k : {E} [o, c, {C}, {C}]) {{ conv(x, k) }}',
    'fn (x, y) {{ v : {E} [n, m] = x {OP} y; transpose(v) }}',
    'fn (x : {E} [n / 2]) {{ x }}',
    'fn (x : {E} [(+ n 1)], y : {E} [(* 2 m)]) {{ concat(x, y) }}',
    'fn (x : {E} [*, n], y : {E} [n]) {{ x {OP} y }}',
    'fn (x : {E} [?, n]) {{ transpose(x) }}',
    'fn (x : r) : r {{ x }}',
    'fn (p : ({E} [n], {E} [m])) {{ a, b = p; concat(a, b) }}',
    # spec section 5b: dims values from the annotation names, dims
    # parameters, the operators that take them
    'fn (x : {E} [n, c, h, w]) {{ avgpool2d(x, [h, w], [1, 1], [0, 0]) }}',
    'fn (x : {E} [b, c, h, w], y : {E} [n, {C}]) {{ upsample2d(x, [2, n]) }}',
    'fn (x : {E} [n, 4]) {{ [2, n / 2], [] }}',
    'fn (x : {E} [b, c, h, w], k : {E} [m, c, 3, 3], s : dims [s1, s2]) {{ conv2d(x, k, s, [1, 1]) }}',
    'fn (x : {E} [b, c, h, w], k : {E} [m, c, r, q], s : dims [s1, s2], p : dims [p1, p2]) {{ relu(conv2d(x, k, s, p)) }}',
    'fn (x : {E} [b, c, l], k : {E} [m, c, {C}]) {{ maxpool1d(relu(conv1d(x, k, [1], [1])), [2], [2], [0]) }}',
    'fn (x : {E} [n, c, h, w], k : {E} [c, 1, 3, 3]) {{ conv2d_grouped(x, k, [1, 1], [1, 1], [1, 1], [c]) }}',
    'fn (x : {E} [n, c, h, w], k : {E} [o, 2, 3, 3], g : dims [g]) {{ conv2d_grouped(x, k, [2, 2], [2, 2], [2, 2], g) }}',
    'fn (x : {E} [b, c, h, w]) {{ upsample2d(pad2d(x, [0, 1, 0, 1]), [2, 2]) }}',
    'fn (x : {E} [b, n], k : dims [k]) {{ v, i = topk(x, k); v }}',
    'fn (x : {E} [n]) {{ x / size([n]) }}',
    'fn (x, s : dims [a, b]) {{ maxpool2d(x, s, s, [0, 0]) }}',
    'fn (x : {E} [b, c, h, w]) {{ d = [h, w / 2]; y = maxpool2d(x, [1, 2], [1, 2], [0, 0]); y, d }}',
    'fn (x : {E} [b, c, h, w], f : dims [f]) {{ upsample2d(x, [f, f]) }}',
    'fn (s : dims [n], x : {E} [n]) {{ s, x }}',
    'fn (x : {E} [b, c, l]) {{ y = avgpool1d(x, [{C}], [{C}], [0]); v, i = topk(y, [1]); v }}',
    # where clauses on functions
    'fn (x : {E} [n, {C}]) where n <= 4 {{ {U}(x) }}',
    'fn (x : {E} [n, m]) where 2 * m = n, m <= n {{ x }}',
    'fn (x : {E} [n], k : {E} [r]) where r <= n + 2 {{ g = fn (a : {E} [n]) where 1 <= n {{ a }}; g(x) }}',
    # spec strings (einsum notation)
    'fn (q : {E} [b, h, n, d], k : {E} [b, h, m, d]) {{ softmax(einsum("bhnd,bhmd->bhnm", q, k)) }}',
    'fn (x, y) {{ einsum("...nd,...md->...nm", x, y) }}',
    'fn (x : {E} s @ [d]) {{ mu = mean("...n->...1", x); x - mu }}',
    'fn (x) {{ sum("...n->...", x), argmax("...n->...", x) }}',
    'fn (x : {E} [n, m], y) {{ einsum("ij,j->i", x, y) }}',
    'fn (x) {{ v = einsum("ii->i", x); amax("i->", v) }}',
    # spec 5b: reshape, flatten, concat_axis, slice, nonzero; elements()
    # and rank() in annotations, dims values and where clauses
    'fn (x : {E} [b, n, d]) {{ reshape(x, [b, n * d]) }}',
    'fn (x : {E} [b, n, d], h : dims [h]) {{ reshape(x, [b, n, h, d / h]) }}',
    'fn (x : {E} [b, n, d], h : dims [h]) {{ q = reshape(x, [b, n, h, d / h]); einsum("bnhd->bhnd", q) }}',
    'fn (x : {E} [b, n, h, e]) {{ reshape(einsum("bhnd->bnhd", x), [b, h, n * e]) }}',
    'fn (x : {E} s) {{ reshape(x, [elements(s)]) }}',
    'fn (x : {E} s @ [n]) {{ v = reshape(x, [elements(s), n]); {U}(v) }}',
    'fn (x : {E} s @ [n]) : {E} [elements(s) * n] {{ reshape(x, [elements(s @ [n])]) }}',
    'fn (x : {E} [n, {C}], y : {E} [{C} * n]) {{ reshape(x, [{C} * n]) {OP} y }}',
    'fn (x) {{ reshape(x, [{C}, 2]) }}',
    'fn (x : {E} [n]) {{ reshape(reshape(x, [1, n]), [n]) }}',
    'fn (x : {E} []) {{ reshape(x, [1, 1]) }}',
    'fn (x : {E} [b, n, d]) {{ flatten(x) }}',
    'fn (x : {E} [b, {C}, n, 4]) {{ v = flatten(x); transpose(v) }}',
    'fn (x : {E} [n]) {{ flatten(x) }}',
    'fn (x) {{ flatten(x) }}',
    'fn (x : {E} [b, c, h, w], k : {E} [m, c, 3, 3]) {{ flatten(conv2d(x, k, [1, 1], [1, 1])) }}',
    'fn (x : {E} [b, n, d], y : {E} [b, m, d]) {{ concat_axis(x, y, [1]) }}',
    'fn (x, y) {{ concat_axis(x, y, [0]) }}',
    'fn (x : {E} [n, m], y : {E} [n, m]) {{ concat_axis(x, y, [{K}]) }}',
    'fn (x : {E} [b, c, h, w], y : {E} [b, e, h, w]) {{ relu(concat_axis(x, y, [1])) }}',
    'fn (x, y, k : dims [k]) {{ concat_axis(x, y, k) }}',
    'fn (x : {E} [n], y : {E} [m]) {{ concat_axis(reshape(x, [1, n]), reshape(y, [1, m]), [0]) }}',
    'fn (x : {E} [b, n], i : dims [i], j : dims [j]) {{ slice(x, [1], i, j) }}',
    'fn (x : {E} [b, n, d]) {{ slice(x, [1], [1], [n]) }}',
    'fn (x : {E} [n, d]) {{ slice(x, [0], [0], [{C}]) }}',
    'fn (x : {E} [n, d], k : dims [k]) {{ slice(x, k, [0], [1]) }}',
    'fn (x : {E} [n]) {{ concat(slice(x, [0], [1], [n]), slice(x, [0], [0], [1])) }}',
    'fn (x : {E} [n]) {{ v = f32(nonzero(x)); {U}(v) * 2f }}',
    'fn (x : {E} [n]) {{ i = nonzero(x); f32(i + i) }}',
    'fn (x) {{ nonzero(x) }}',
    'fn (x : {E} [n, m]) {{ nonzero(x) }}',
    'fn (x : {E} [n], y : {E} [1]) {{ v = f32(nonzero(x)); v {OP} y, v }}',
    # the largest shapes (spec 5b, the bound of a `?`): sums and products of
    # `?`s, nonzero of a reshape or of a nonzero, dims operators on a `?`
    'fn (x : {E} [n], y : {E} [m]) {{ a = nonzero(x); b = nonzero(y); concat_axis(a, b, [0]) }}',
    'fn (x : {E} [n, m]) {{ v = reshape(x, [n * m]); nonzero(v) }}',
    'fn (x : {E} s) {{ nonzero(reshape(x, [elements(s)])) }}',
    'fn (x : {E} [n], y : f32 [m]) {{ concat(f32(nonzero(x)), y) }}',
    'fn (x) {{ a = nonzero(x); nonzero(concat(a, a)) }}',
    'fn (x, y) {{ a = f32(nonzero(x)); b = f32(nonzero(y)); e = einsum("i,j->ij", a, b); concat_axis(e, e, [1]) }}',
    'fn (x : {E} [n], y : {E} [k]) {{ a = f32(nonzero(x)); b = f32(nonzero(y)); flatten(einsum("i,j->ij", a, b)) }}',
    'fn (x : {E} [n]) {{ v : i32 [m] = nonzero(x); w = reshape(f32(v), [1, 1, m, 1]); upsample2d(pad2d(w, [1, 2, 0, 0]), [2, {C}]) }}',
    'fn (x : {E} [n]) {{ v : i32 [m] = nonzero(x); w = reshape(f32(v), [1, 1, m]); maxpool1d(w, [1], [2], [1]) }}',
    'fn (x : {E} [n]) {{ v : i32 [m] = nonzero(x); slice(f32(v), [0], [0], [m]) }}',
    'fn (x : {E} a) where rank(a) = 2 {{ transpose(x) }}',
    'fn (x : {E} a, k : dims [k]) where rank(a) = k + 1 {{ x }}',
    'fn (x : {E} a, y : {E} b) where elements(a) = elements(b) {{ reshape(x, [elements(b)]) }}',
    'fn (x : {E} s, d : dims [m]) where elements(s) = m {{ reshape(x, d) }}',
    'fn (x : {E} [elements(s)], y : {E} s) {{ x }}',
    'fn (x : {E} s @ [n], y : {E} [rank(s)]) {{ y }}',
]


# spec 5b with run-time dims arguments (the review's seeds 601-606): an axis,
# bounds, a window, factors, k, a target as dims parameters (left to
# inference or annotated), then what depends on them: a reshape after a
# slice along a run-time axis, a concat then a slice, counts that combine;
# named dims values and dims results (not tensors: no plan, no counts);
# inputs whose sizes are expressions of names another input gives
IDIOMS_RT = [
    'fn (x : {E} [m, n], ax) {{ reshape(slice(x, ax, [0], [1]), [n]) }}',
    'fn (x : {E} [m, n], ax) {{ reshape(slice(x, ax, [0], [{C}]), [{C}, n]) }}',
    'fn (x : {E} [m, n], ax : dims [k]) {{ v = slice(x, ax, [1], [m]); reshape(v, [m * n - n]) }}',
    'fn (x : {E} [b, n, d], ax) {{ flatten(slice(x, ax, [0], [{C}])) }}',
    'fn (x : {E} [m, n], y : {E} [m, n], ax) {{ v = concat_axis(x, y, ax); reshape(v, [2 * m * n]) }}',
    'fn (x : {E} [m, n], y : {E} [m, n], ax) {{ v = concat_axis(x, y, ax); slice(v, ax, [0], [m]) }}',
    'fn (x : {E} [m, n], y : {E} [m, k], ax) {{ concat_axis(x, y, ax) }}',
    'fn (x : {E} [n, d], ax) {{ slice(concat_axis(x, x, ax), ax, [1], [n]) }}',
    'fn (x : {E} [n, d], ax, j : dims [j]) {{ v = slice(x, ax, [0], j); reshape(v, [n * j]) }}',
    'fn (x : {E} [m, n], i : dims [i], j : dims [j]) {{ v = slice(x, [1], i, j); reshape(v, [m * (j - i)]) }}',
    'fn (x : {E} [b, n, d], ax, i, j) {{ v = slice(x, ax, i, j); {U}(v) }}',
    'fn (x : {E} a, ax : dims [k]) where rank(a) = k + 1 {{ slice(x, ax, [0], [1]) }}',
    'fn (x : {E} [n, m], y : {E} [k]) {{ slice(x, [k], [0], [1]) }}',
    'fn (x : {E} [b, n, d], t) {{ reshape(x, t) }}',
    'fn (x : {E} [b, n, d], t : dims [p, q]) {{ v = reshape(x, t); transpose(v) }}',
    'fn (s : dims [n, m], x : {E} [n * m]) {{ reshape(x, s), s }}',
    'fn (x : {E} [n], s) {{ reshape(x, s), s }}',
    'fn (x : {E} [b, n, d], h) {{ reshape(x, [b, n, {C}, d / {C}]) {OP} reshape(x, [b, n, {C}, d / {C}]), h }}',
    'fn (x : {E} [n, d]) {{ t = [n, d, n, d]; reshape(x, [d, n]) }}',
    'fn (x : {E} [n, d]) {{ t = [d, n]; reshape(x, t), t }}',
    'fn (x : {E} [n]) {{ [n, n, n] }}',
    'fn (x : {E} [n, d]) {{ t : dims [a, b] = [d, n / 2]; x, t }}',
    'fn (x : {E} [b, c, h, w]) {{ s = [h * w, c]; reshape(x, [b] @ s) }}',
    'fn (x : {E} [b, c, h, w]) {{ s = [b, c * h * w]; y = reshape(x, s); y, s, [b] }}',
    'fn (g : {E} [a + 1], x : {E} [a * b + b]) {{ reshape(x, [a + 1, b]) }}',
    'fn (g : {E} [a], x : {E} [(a + 1) * b]) {{ reshape(x, [b, a + 1]) }}',
    'fn (x : {E} [a * b + b], y : {E} [a]) {{ reshape(x, [b, a + 1]) }}',
    'fn (x : {E} [n / 2 + 1]) {{ x }}',
    'fn (x : {E} [n / 2 + 1], y : {E} [n]) {{ x {OP} x, y }}',
    'fn (x : {E} [2 * n + 1]) {{ slice(x, [0], [0], [n]) }}',
    'fn (x : {E} [2 * n + 1], y : {E} [n]) {{ slice(x, [0], [n + 1], [2 * n + 1]) {OP} y }}',
    'fn (x : {E} [b, c, l], r, s) {{ reshape(maxpool1d(x, r, s, [0]), [b, c * l]) }}',
    'fn (x : {E} [b, c, h, w], f) {{ reshape(upsample2d(x, f), [b, c, 2 * h, 2 * w]) }}',
    'fn (x : {E} [b, c, h, w], f : dims [f1, f2]) {{ v = upsample2d(x, f); reshape(v, [b, c * f1 * h * f2 * w]) }}',
    'fn (x : {E} [b, n], k) {{ v, i = topk(x, k); reshape(v, [b * n]) }}',
    'fn (x : {E} [b, n], k : dims [k]) {{ v, i = topk(x, k); reshape(v, [k, b]) }}',
    'fn (x : {E} [b, c, h, w], p : dims [p1, p2, p3, p4]) {{ v = pad2d(x, p); reshape(v, [b * c, (h + p1 + p2) * (w + p3 + p4)]) }}',
    'fn (x : {E} [b, c, h, w], k : {E} [m, c, r, q], s, p) {{ flatten(conv2d(x, k, s, p)) }}',
    'fn (x : {E} [b, c, l], w : {E} [m, c, r], s : dims [s], p : dims [p]) {{ v = conv1d(x, w, s, p); reshape(v, [b * m * ((l + 2 * p - r) / s + 1)]) }}',
    'fn (x : {E} [b, c, l], w : {E} [m, c, r], p : dims [p]) {{ v = conv1d(x, w, [1], p); reshape(v, [b, m * (l + 2 * p - r + 1)]) }}',
    'fn (x : {E} [n, c, h, w], k : {E} [o, 1, 3, 3], g, d) {{ conv2d_grouped(x, k, [1, 1], [1, 1], d, g) }}',
    'fn (x : {E} [b, c, h, w], r : dims [r, q]) {{ v = avgpool2d(x, r, [1, 1], [0, 0]); reshape(v, [b, c, (h - r + 1) * (w - q + 1)]) }}',
    'fn (x : {E} [b, c, h, w], r, s, p) {{ maxpool2d(x, r, s, p) }}',
    'fn (x : {E} [n], s) {{ x / size(s) }}',
]


# --ops18: spec 5b's last table (conv1d_grouped, linear, expand,
# concat_axis of several tensors, arange, negative axis arguments) and `%`
# in where clauses (spec section 4)
IDIOMS18 = [
    # conv1d_grouped: depthwise (Conformer, Mamba), groups, dilation
    'fn (x : {E} [b, c, l], k : {E} [c, 1, 3]) {{ conv1d_grouped(x, k, [1], [1], [1], [c]) }}',
    'fn (x : {E} [b, 4, l], k : {E} [o, 2, {C}]) {{ conv1d_grouped(x, k, [1], [1], [2], [2]) }}',
    'fn (x : {E} [b, e, l], k : {E} [o, c, r], g : dims [g]) {{ conv1d_grouped(x, k, [1], [0], [1], g) }}',
    'fn (x : {E} [b, c, l], k : {E} [c, 1, {C}], s, p) {{ conv1d_grouped(x, k, s, p, [1], [c]) }}',
    'fn (x : {E} [b, c, l], k : {E} [c, 1, 3]) {{ v = conv1d_grouped(x, k, [1], [1], [1], [c]); reshape(v, [b, c * l]) }}',
    'fn (x : {E} [b, c, l], k : {E} [c, 1, r], d : dims [d]) {{ silu(conv1d_grouped(x, k, [1], [0], d, [c])) }}',
    'fn (x : {E} [b, c, l], k : {E} [m, c, {C}]) {{ conv1d_grouped(x, k, [2], [0], [1], [1]) }}',
    # linear over any leading axes
    'fn (x : {E} [b, n, d], w : {E} [d, m]) {{ linear(x, w) }}',
    'fn (x : {E} s @ [k], w : {E} [k, m]) {{ {U}(linear(x, w)) }}',
    'fn (x, w) {{ linear(x, w) }}',
    'fn (x : {E} [n, d], w : {E} [d, h], u : {E} [h, d]) {{ x + linear(gelu(linear(x, w)), u) }}',
    'fn (x : {E} s @ [k], w : {E} [k, m], b : {E} [m]) {{ v = linear(x, w) + b; v }}',
    'fn (x : {E} [k], w : {E} [k, {C}]) {{ linear(x, w) }}',
    'fn (x : {E} [b, n, d], w : {E} [e, m]) {{ linear(x, w) }}',
    # expand: a class token per batch row, a bias to a shape
    'fn (z : {E} [1, d], y : {E} [b, n, d]) {{ concat_axis(expand(reshape(z, [1, 1, d]), [b, 1, d]), y, [1]) }}',
    'fn (x : {E} [1, m]) {{ expand(x, [{C}, m]) }}',
    'fn (x : {E} [n, 1], d : dims [a, b]) {{ expand(x, d) }}',
    'fn (x, d) {{ expand(x, d) }}',
    'fn (x : {E} [d]) {{ expand(x, [{C}, d]) }}',
    'fn (x : {E} [n]) {{ expand(x, [{C}]) }}',
    'fn (x : {E} [b, 1, d], y : {E} [b, n, d]) {{ expand(x, [b, n, d]) {OP} y }}',
    'fn (x : {E} [n], y : {E} [b, n]) {{ v = expand(x, [b, n]); max(v, y) }}',
    'fn (x : {E} [n, 1]) {{ expand(x, [n, 0]) }}',
    # concat_axis of three and four tensors, negative axes
    'fn (x : {E} [b, c, h, w], y : {E} [b, e, h, w], z : {E} [b, k, h, w]) {{ concat_axis(x, y, z, [1]) }}',
    'fn (x, y, z) {{ concat_axis(x, y, z, [0]) }}',
    'fn (x : {E} [n, a], y : {E} [n, b], z : {E} [n, c], u : {E} [n, d]) {{ concat_axis(x, y, z, u, [-1]) }}',
    'fn (x : {E} [n, m], y : {E} [k, m]) {{ concat_axis(x, y, x, [-2]) }}',
    'fn (x, y, z, k) {{ concat_axis(x, y, z, k) }}',
    'fn (x : {E} [b, n, d]) {{ v = concat_axis(x, x, x, [-1]); reshape(v, [b, n, 3, d]) }}',
    'fn (x : {E} [b, n, d], y : {E} [b, n, e]) {{ concat_axis(x, y, [-1]) }}',
    'fn (x : {E} [n, d]) {{ slice(x, [-1], [0], [1]) }}',
    'fn (x : {E} [b, n, d]) {{ slice(x, [-2], [1], [n]) }}',
    'fn (x, y) {{ concat_axis(x, y, [-1]) }}',
    'fn (x, i : dims [i], j : dims [j]) {{ slice(x, [-1], i, j) }}',
    'fn (x : {E} [n]) {{ concat_axis(x, x, [-2]) }}',
    'fn (x : {E} [n, m]) {{ v = concat_axis(x, x, [-1]); slice(v, [-1], [0], [m]) }}',
    'fn (x : {E} [n, m], y : {E} [n, m]) {{ concat_axis(x, y, x, y, [{K}]) }}',
    # arange: positions, causal masks
    'fn (x : {E} [n, d]) {{ x + reshape(f32(arange([n])), [n, 1]) }}',
    'fn (n : dims [n]) {{ arange(n) }}',
    'fn (x : {E} [n]) {{ v = f32(arange([n])); x * v }}',
    'fn (x : {E} [b, n], k) {{ f32(arange(k)) }}',
    'fn (x : {E} [n, n]) {{ m = lt(reshape(arange([n]), [n, 1]), reshape(arange([n]), [1, n])); select(m, x, x) }}',
    'fn (x : {E} [b, n, d], e : {E} [p, d]) {{ x + gather(e, arange([n])) }}',
    # `%` in where clauses
    'fn (x : {E} [b, d], h : dims [h]) where d % h = 0 {{ reshape(x, [b, h, d / h]) }}',
    'fn (x : {E} [n]) where n % 2 = 0 {{ reshape(x, [n / 2, 2]) }}',
    'fn (x : {E} [b, n, d], h : dims [h]) where d % h = 0 {{ q = reshape(x, [b, n, h, d / h]); einsum("bnhd->bhnd", q) }}',
    'fn (x : {E} [n], y : {E} [m]) where n % {C} = m % {C} {{ x, y }}',
]


class FnGen(object):
    def __init__(self, g, name):
        self.g = g
        self.rng = g.rng
        self.name = name
        self.params = []          # [name, items, written]
        self.pool = []            # (name, items) visible values
        self.dims = []            # size names in use
        self.shapes = []          # shape names in use
        self.nvals = 0
        self.ntmp = 0
        self.nfresh = 0
        self.elem = 'f32' if self.rng.random() < 0.6 else 't'
        self.callables = []       # (name, FnInfo-like) let-bound lambdas
        self.maxp = self.rng.choice([3, 4, 5, 6])
        self.nlam = 0
        self.dims_params = {}     # name -> rank (spec 5b: dims parameters)
        self.dims_locals = []     # (name, abstract sizes) let-bound dims values
        self.dims_named = {}      # dims parameter -> its annotation's size names
        self.pinned = set()       # parameters whose annotation must bind the
                                  # names a dims value uses (written exactly)
        # spec 5b, run-time dims arguments: a function "rt" passes many of
        # its operators' dims arguments (axes, windows, strides, targets,
        # bounds, k, factors) as dims parameters, the others now and then
        self.rt_mode = self.rng.random() < 0.35
        if self.rt_mode:
            self.maxp += 3
        self.unannotated = set()  # dims parameters left to inference
        self.forced = None        # the next expr()'s value (a chain)
        self.chain_hint = False   # in a chain: constant slice bounds, targets
                                  # that merge axes
        self.last_axis = None     # (text, axis) of the last axis argument
        self.param_text = {}      # parameter -> its annotation's text (an
                                  # input size `[a * b + b]`)
        self.extra_bound = {}     # size name -> the parameter whose
                                  # param_text binds it
        self.wheres = []          # the function's where clauses (--ops18)

    def chance(self, p):
        return self.rng.random() < p

    def pick(self, seq):
        return seq[self.rng.randrange(len(seq))]

    # -- names
    def fresh_dim(self):
        for n in DIM_NAMES:
            if n not in self.dims:
                self.dims.append(n)
                return n
        n = 'n%d' % len(self.dims)
        self.dims.append(n)
        return n

    def fresh_shape(self):
        for n in SHAPE_NAMES:
            if n not in self.shapes:
                self.shapes.append(n)
                return n
        n = 'z%d' % (len(self.shapes) + 1)
        self.shapes.append(n)
        return n

    def fresh_val(self):
        self.nvals += 1
        return 'v%d' % self.nvals

    def new_size(self):
        r = self.rng.random()
        if r < 0.35 and self.dims:
            return ads(self.pick(self.dims))
        if r < 0.55:
            return adc(self.pick([1, 1, 2, 3, 4, 5]))
        if r < 0.88:
            return ads(self.fresh_dim())
        a = ads(self.pick(self.dims) if self.dims and self.chance(0.5) else self.fresh_dim())
        k = self.rng.randrange(5)
        if k == 0:
            return ad_op('*', adc(2), a)
        if k == 1:
            return ad_op('+', a, adc(1))
        if k == 2:
            return ad_op('-', a, adc(1))
        if k == 3:
            return ad_op('*', a, ads(self.fresh_dim()))
        return ad_op('+', a, ads(self.fresh_dim()))

    def new_shape(self):
        r = self.rng.random()
        if r < 0.12:
            return (('s', self.fresh_shape()),)
        if r < 0.2 and self.shapes:
            return (('s', self.pick(self.shapes)),) + tuple(('d', self.new_size()) for _ in range(self.rng.randrange(1, 3)))
        rank = self.pick([0, 1, 1, 2, 2, 2, 3, 3, 4])
        return tuple(('d', self.new_size()) for _ in range(rank))

    # -- values of a given abstract shape
    def new_param(self, items):
        if len(self.params) >= self.maxp:
            return None
        name = VALUE_NAMES[len(self.params)] if len(self.params) < len(VALUE_NAMES) else 'x%d' % len(self.params)
        self.params.append([name, items])
        self.pool.append((name, items))
        return name

    def value_of(self, items, scope, allow_literal=True):
        """Text of a value of abstract shape `items`: from the scope, a new
        parameter, or a literal (scalars)."""
        cands = [n for n, it in scope if it == items]
        if cands and self.chance(0.8):
            return self.pick(cands)
        if not items and allow_literal and self.chance(0.6):
            if self.chance(0.08):
                # spec 5b: a size as a scalar
                return 'size([%d])' % self.pick([1, 2, 4])
            return self.pick(LITERALS)
        p = self.new_param(items)
        if p is not None:
            return p
        if cands:
            return self.pick(cands)
        if not items:
            return self.pick(LITERALS)
        return None

    def new_dims_param(self, rank):
        """A parameter of type dims [a, ...] (not a tensor: not in the
        pool)."""
        if len(self.params) >= self.maxp:
            return None
        name = VALUE_NAMES[len(self.params)] if len(self.params) < len(VALUE_NAMES) else 'x%d' % len(self.params)
        self.params.append([name, ()])
        self.dims_params[name] = rank
        return name

    def new_named_dims_param(self, rank=1):
        """A dims parameter annotated `dims [h]` with fresh size names,
        which a dims value may then use: (parameter, [names]) or None."""
        p = self.new_dims_param(rank)
        if p is None:
            return None
        names = [self.fresh_dim() for _ in range(rank)]
        self.dims_named[p] = names
        return p, names

    def rt_p(self):
        """The chance that a dims argument is a run-time dims parameter."""
        return 0.45 if self.rt_mode else 0.07

    def rt_dims(self, sizes, annotate=None):
        """A run-time dims parameter standing for a dims value of abstract
        sizes `sizes` (what the program means it to be): (text, the sizes
        the rest of the function works with) or None.  Annotated `p : dims
        [a, b]` with fresh names (the sizes are then those names, which
        later dims values and annotations may use), or left to inference
        (`p`: the intended sizes, now and then opaque).  The run-time
        values are run.py's (mostly small: an axis, a window, a stride)."""
        if annotate is None:
            annotate = self.chance(0.55)
        if annotate:
            hp = self.new_named_dims_param(len(sizes))
            if hp is None:
                return None
            return hp[0], [ads(n) for n in hp[1]]
        p = self.new_dims_param(len(sizes))
        if p is None:
            return None
        self.unannotated.add(p)
        return p, [a if self.chance(0.75) else opaque() for a in sizes]

    # -- spec 5b: names in dims values.  A name in a dims value is an
    # annotation name of the item; one that no annotation binds would be an
    # existential (README: the generator writes none).  So a dims value
    # uses only names that are a whole axis of a parameter's abstract shape
    # (or a dims parameter's), and that parameter is then annotated exactly
    # (and kept).
    def binder(self, name, shape=False):
        """The parameter whose annotation will bind size (or shape) name
        `name`, or None."""
        if not shape and name in self.extra_bound:
            return self.extra_bound[name]
        for pname, items in self.params:
            if pname in self.dims_params:
                if not shape and name in self.dims_named.get(pname, ()):
                    return pname
                continue
            want = ('s', name) if shape else ('d', ads(name))
            if want in items:
                return pname
        return None

    def size_in_dims(self, a):
        """The text of abstract size `a` in a dims value (pinning the
        parameters that bind its names); None if it cannot be written."""
        p = poly(a)
        if p is None:
            return None
        pins = []
        for mono in p:
            for n in mono:
                b = self.binder(n)
                if b is None:
                    return None
                pins.append(b)
        self.pinned.update(pins)
        return ad_text(a)

    def shape_in_dims(self, name):
        """A shape name usable in elements()/rank() (pinning its binder)."""
        b = self.binder(name, shape=True)
        if b is None:
            return False
        self.pinned.add(b)
        return True

    def any_param(self, scope):
        """A new parameter of unknown shape (unannotated)."""
        return self.new_param((('s', self.fresh_shape()),))

    # -- expressions: (text, prec, items); prec 3 atom, 2 mul, 1 add
    def leaf(self, scope):
        tens = [(n, it) for n, it in scope if it is not None and not isinstance(it, str)]
        if not tens or (self.chance(0.15) and len(self.params) < self.maxp):
            items = self.new_shape()
            p = self.new_param(items)
            if p is not None:
                return p, 3, items
        if not tens:
            return self.pick(LITERALS), 3, ()
        # prefer recent values
        if self.chance(0.5):
            n, it = tens[-1 - self.rng.randrange(min(3, len(tens)))]
        else:
            n, it = self.pick(tens)
        return n, 3, it

    def expr(self, scope, depth):
        if self.forced is not None:
            # the operand a chain (stmt_chain) gives the next operator
            f, self.forced = self.forced, None
            return f
        if depth <= 0 or self.chance(0.2):
            return self.leaf(scope)
        ops = ['unary', 'binary', 'binary', 'binary', 'maxmin', 'matmul', 'transpose',
               'concat', 'reverse', 'map', 'reduce', 'call', 'call', 'conv', 'extern', 'extern',
               'lambda_call', 'ho_call', 'lastaxis', 'select', 'cnn', 'cnn', 'shapeop']
        if self.rt_mode:
            ops += ['cnn', 'cnn', 'shapeop', 'shapeop', 'shapeop', 'shapeop']
        for _ in range(6):
            op = self.pick(ops)
            r = getattr(self, 'op_' + op)(scope, depth)
            if r is not None:
                return r
        return self.leaf(scope)

    def paren(self, e, prec):
        return e[0] if e[1] >= prec else '(' + e[0] + ')'

    def op_unary(self, scope, depth):
        x = self.expr(scope, depth - 1)
        if self.chance(0.15):
            return '-' + self.paren(x, 3), 2, x[2]
        return '%s(%s)' % (self.pick(UNARY), x[0]), 3, x[2]

    def partner(self, items, scope):
        """A value that broadcasts with `items`."""
        r = self.rng.random()
        if r < 0.35:
            p = items
        elif r < 0.55:
            k = self.rng.randrange(len(items) + 1)
            p = items[k:]
        elif r < 0.7:
            p = tuple(('d', adc(1)) if it[0] == 'd' and self.chance(0.4) else it for it in items)
        elif r < 0.8:
            p = ()
        elif r < 0.92:
            n = self.any_param(scope)
            if n is not None:
                return n, 3, self.params[-1][1]
            p = items
        else:
            p = self.new_shape()
        v = self.value_of(p, scope)
        if v is None:
            return None
        return v, 3, p

    def bcast(self, a, b):
        a, b = list(a), list(b)
        out = []
        while a and b and a[-1][0] == 'd' and b[-1][0] == 'd':
            x, y = a.pop()[1], b.pop()[1]
            if x == y or adconst(y) == 1:
                out.append(('d', x))
            elif adconst(x) == 1:
                out.append(('d', y))
            elif adconst(x) is not None and adconst(y) is None:
                out.append(('d', x))
            elif adconst(y) is not None and adconst(x) is None:
                out.append(('d', y))
            else:
                out.append(('d', opaque()))
        out.reverse()
        if not a:
            rest = b
        elif not b:
            rest = a
        elif a == b:
            rest = a
        else:
            return (('s', self.fresh_shape()),)
        return tuple(rest) + tuple(out)

    def op_binary(self, scope, depth):
        x = self.expr(scope, depth - 1)
        y = self.partner(x[2], scope)
        if y is None:
            return None
        op = self.pick(['+', '-', '*', '/'])
        prec = 1 if op in '+-' else 2
        items = self.bcast(x[2], y[2])
        if self.chance(0.5):
            x, y = y, x
        if self.chance(0.15):       # spec section 5b: broadcasting functions
            return '%s(%s, %s)' % (self.pick(['maximum', 'minimum', 'pow']), x[0], y[0]), 3, items
        left = self.paren(x, prec)
        right = self.paren(y, prec + 1)
        return '%s %s %s' % (left, op, right), prec, items

    def op_maxmin(self, scope, depth):
        x = self.expr(scope, depth - 1)
        if self.chance(0.2):
            n = self.any_param(scope)
            y = n if n is not None else x[0]
        else:
            y = self.value_of(x[2], scope, allow_literal=False)
            if y is None:
                return None
        a, b = (x[0], y) if self.chance(0.5) else (y, x[0])
        return '%s(%s, %s)' % (self.pick(['max', 'min']), a, b), 3, x[2]

    def op_lastaxis(self, scope, depth):
        """spec section 5b: softmax, log_softmax, layernorm over the last
        axis (only where the last item is a size)."""
        x = self.expr(scope, depth - 1)
        if not x[2] or x[2][-1][0] != 'd':
            return None
        if self.chance(0.5):
            return '%s(%s)' % (self.pick(['softmax', 'log_softmax']), x[0]), 3, x[2]
        g = self.value_of((x[2][-1],), scope, allow_literal=False)
        b = self.value_of((x[2][-1],), scope, allow_literal=False)
        if g is None or b is None:
            return None
        return 'layernorm(%s, %s, %s)' % (x[0], g, b), 3, x[2]

    def op_select(self, scope, depth):
        """spec section 5b: select on a comparison of its two operands."""
        x = self.expr(scope, depth - 1)
        y = self.partner(x[2], scope)
        if y is None:
            return None
        cmp = self.pick(['lt', 'le', 'gt', 'ge', 'eq', 'ne'])
        return 'select(%s(%s, %s), %s, %s)' % (cmp, x[0], y[0], x[0], y[0]), 3, self.bcast(x[2], y[2])

    def op_matmul(self, scope, depth):
        x = self.expr(scope, depth - 1)
        it = x[2]
        if trail_dims(it) >= 2:
            k = it[-1][1]
            nn = self.new_size()
            p = it[:-2] + (('d', k), ('d', nn))
            y = self.value_of(p, scope, allow_literal=False)
            if y is None:
                return None
            return 'matmul(%s, %s)' % (x[0], y), 3, it[:-1] + (('d', nn),)
        if has_svar(it) and self.chance(0.5):
            y = self.any_param(scope)
            if y is None:
                return None
            return 'matmul(%s, %s)' % (x[0], y), 3, (('s', self.fresh_shape()),)
        return None

    def op_transpose(self, scope, depth):
        x = self.expr(scope, depth - 1)
        it = x[2]
        if trail_dims(it) >= 2:
            return 'transpose(%s)' % x[0], 3, it[:-2] + (it[-1], it[-2])
        if has_svar(it) and self.chance(0.4):
            return 'transpose(%s)' % x[0], 3, (('s', self.fresh_shape()),)
        return None

    def op_concat(self, scope, depth):
        x = self.expr(scope, depth - 1)
        it = x[2]
        if lead_dims(it) >= 1:
            b = self.new_size() if self.chance(0.7) else it[0][1]
            p = (('d', b),) + it[1:]
            y = self.value_of(p, scope, allow_literal=False)
            if y is None:
                return None
            a, bb = (x[0], y) if self.chance(0.6) else (y, x[0])
            return 'concat(%s, %s)' % (a, bb), 3, (('d', ad_op('+', it[0][1], b)),) + it[1:]
        if has_svar(it) and self.chance(0.4):
            return 'concat(%s, %s)' % (x[0], x[0]), 3, (('s', self.fresh_shape()),)
        return None

    def op_reverse(self, scope, depth):
        x = self.expr(scope, depth - 1)
        if lead_dims(x[2]) >= 1 or (has_svar(x[2]) and self.chance(0.5)):
            return 'reverse(%s)' % x[0], 3, x[2]
        return None

    def op_conv(self, scope, depth):
        x = self.expr(scope, depth - 1)
        it = x[2]
        if (len(it) != 4 or has_svar(it)) and self.chance(0.6):
            items = tuple(('d', self.new_size()) for _ in range(4))
            p = self.value_of(items, scope, allow_literal=False)
            if p is not None:
                x, it = (p, 3, items), items
        if len(it) != 4 or has_svar(it):
            if self.chance(0.9):
                return None
            y = self.any_param(scope)
            if y is None:
                return None
            return 'conv(%s, %s)' % (x[0], y), 3, (('s', self.fresh_shape()),)
        n, c, h, w = [d[1] for d in it]
        k = self.new_size()
        r = adc(self.pick([1, 1, 2, 3])) if self.chance(0.7) else ads(self.fresh_dim())
        q = adc(self.pick([1, 2, 3])) if self.chance(0.7) else ads(self.fresh_dim())
        y = self.value_of((('d', k), ('d', c), ('d', r), ('d', q)), scope, allow_literal=False)
        if y is None:
            return None
        oh = ad_op('+', ad_op('-', h, r), adc(1))
        ow = ad_op('+', ad_op('-', w, q), adc(1))
        return 'conv(%s, %s)' % (x[0], y), 3, (('d', n), ('d', k), ('d', oh), ('d', ow))

    # -- spec section 5b: the operators with dims arguments, on values of
    # rank 4 (NCHW) or 3 (NCL), with literal dims arguments (now and then a
    # let-bound dims value or a dims parameter)
    def of_rank(self, scope, depth, rank):
        x = self.expr(scope, depth - 1)
        it = x[2]
        if (len(it) != rank or has_svar(it)) and self.chance(0.75):
            items = tuple(('d', self.new_size()) for _ in range(rank))
            p = self.value_of(items, scope, allow_literal=False)
            if p is not None:
                x, it = (p, 3, items), items
        if len(it) != rank or has_svar(it):
            return None
        return x

    def dims_arg(self, vals):
        """(text, abstract sizes) of a dims argument meant to have the
        values vals (ints): a literal, a let-bound dims value, or a
        run-time dims parameter (its names, or the intended values, or
        opaque sizes: rt_dims)."""
        r = self.rng.random()
        p = self.rt_p()
        if r < p:
            d = self.rt_dims([adc(v) for v in vals])
            if d is not None:
                return d
        if r < p + 0.04:
            # an expression of the item's sizes (`[n]`, `[n / 2]`): known
            # when the shape function runs, whatever the value
            names = [n for n in self.dims if self.binder(n) is not None]
            if names:
                texts, sizes = [], []
                for _ in vals:
                    n = self.pick(names)
                    self.size_in_dims(ads(n))
                    if self.chance(0.5):
                        texts.append(n)
                        sizes.append(ads(n))
                    else:
                        texts.append('%s / 2' % n)
                        sizes.append(opaque())
                return '[' + ', '.join(texts) + ']', sizes
        if r < p + 0.18:
            for n, v in self.dims_locals:
                if [adconst(a) for a in v] == list(vals):
                    return n, list(v)
        return '[' + ', '.join(str(v) for v in vals) + ']', [adc(v) for v in vals]

    def window_out(self, n, pad, span, stride):
        """(n + 2 * pad - span) / stride + 1 of abstract sizes; None where
        constants show that the window does not fit (or a stride below 1
        with a known room), opaque where a floor division stays."""
        room = ad_op('-', ad_op('+', n, ad_op('*', adc(2), pad)), span)
        rc, sc = adconst(room), adconst(stride)
        if rc is not None and sc is not None:
            if rc < 0 or sc < 1:
                return None
            return adc(rc // sc + 1)
        if sc == 1:
            return ad_op('+', room, adc(1))
        return opaque()

    def kernel(self):
        return adc(self.pick([1, 2, 3, 3, 5])) if self.chance(0.75) else ads(self.fresh_dim())

    def op_cnn(self, scope, depth):
        kinds = ['conv2d', 'conv2d', 'conv1d', 'pool2d', 'pool1d', 'upsample2d', 'pad2d', 'grouped']
        if self.g.ops18:
            kinds += ['grouped1d', 'grouped1d']     # spec 5b: conv1d_grouped
        kind = self.pick(kinds)
        one = kind in ('conv1d', 'pool1d', 'grouped1d')
        x = self.of_rank(scope, depth, 3 if one else 4)
        if x is None:
            return None
        sizes = [d[1] for d in x[2]]
        if kind == 'upsample2d':
            f = [self.pick([1, 2, 2, 3]) for _ in range(2)]
            ft, fs = self.dims_arg(f)
            hw = [ad_op('*', fs[0], sizes[2]), ad_op('*', fs[1], sizes[3])]
            return 'upsample2d(%s, %s)' % (x[0], ft), 3, tuple(('d', d) for d in sizes[:2] + hw)
        if kind == 'pad2d':
            pads = [self.pick([0, 0, 1, 2]) for _ in range(4)]
            pt, ps = self.dims_arg(pads)
            hw = [ad_op('+', ad_op('+', sizes[2], ps[0]), ps[1]),
                  ad_op('+', ad_op('+', sizes[3], ps[2]), ps[3])]
            return 'pad2d(%s, %s)' % (x[0], pt), 3, tuple(('d', d) for d in sizes[:2] + hw)
        nsp = 1 if one else 2
        strides = [self.pick([1, 1, 1, 2, 2, 3]) for _ in range(nsp)]
        if kind == 'conv2d' and self.chance(0.02):
            strides[0] = 0          # a static error: every stride is >= 1
        pads = [self.pick([0, 0, 1, 1, 2]) for _ in range(nsp)]
        st, ss = self.dims_arg(strides)
        pt, ps = self.dims_arg(pads)
        if kind in ('pool2d', 'pool1d'):
            win = [self.pick([1, 2, 2, 3]) for _ in range(nsp)]
            wt = None
            if self.chance(0.1):
                # the window of the operand's own sizes (a global pool)
                texts = [self.size_in_dims(a) for a in sizes[2:]]
                if None not in texts:
                    wt, spans = '[' + ', '.join(texts) + ']', list(sizes[2:])
            if wt is None:
                wt, spans = self.dims_arg(win)
            lead = sizes[:2]
            call = '%s(%s, %s, %s, %s)' % (self.pick(['max', 'avg']) + kind, x[0], wt, st, pt)
        else:
            ch = sizes[1]
            dil = [1] * nsp
            groups = 1
            grouped = kind in ('grouped', 'grouped1d')
            if grouped:
                cc = adconst(ch)
                if cc and self.chance(0.8):
                    groups = self.pick([g for g in range(1, cc + 1) if cc % g == 0])
                    ch = adc(cc // groups)
                dil = [self.pick([1, 1, 2]) for _ in range(nsp)]
            kern = [self.kernel() for _ in range(nsp)]
            nf = adc(groups * self.pick([1, 2])) if groups > 1 else self.new_size()
            w = self.value_of((('d', nf), ('d', ch)) + tuple(('d', k) for k in kern), scope, allow_literal=False)
            if w is None:
                return None
            dt, ds = self.dims_arg(dil) if grouped else (None, [adc(1)] * nsp)
            spans = []
            for k, d in zip(kern, ds):
                spans.append(ad_op('+', ad_op('*', d, ad_op('-', k, adc(1))), adc(1)))
            lead = [sizes[0], nf]
            if grouped:
                gt, _ = self.dims_arg([groups])
                call = 'conv%dd_grouped(%s, %s, %s, %s, %s, %s)' % (nsp, x[0], w, st, pt, dt, gt)
            else:
                call = '%s(%s, %s, %s, %s)' % (kind, x[0], w, st, pt)
        outs = []
        for i in range(nsp):
            o = self.window_out(sizes[2 + i], ps[i], spans[i], ss[i])
            if o is None:
                return None
            outs.append(o)
        return call, 3, tuple(('d', d) for d in list(lead) + outs)

    # -- spec section 5b: reshape, flatten, concat_axis, slice (nonzero is
    # a statement, stmt_nonzero).  Operands are made to fit their rules;
    # now and then deliberately not (a target with another element count,
    # an axis past the rank, bounds past the axis): static errors or
    # run-time checks.
    def op_shapeop(self, scope, depth):
        kinds = ['reshape', 'reshape', 'flatten', 'concat_axis', 'concat_axis', 'slice', 'slice']
        if self.g.ops18:
            # spec 5b's last table (concat_axis of several tensors and the
            # negative axes are concat_axis's and slice's own)
            kinds += ['linear', 'linear', 'expand', 'expand', 'arange']
        kind = self.pick(kinds)
        return getattr(self, 'shape_' + kind)(scope, depth)

    def dims_text(self, sizes):
        """A dims value of abstract sizes: its text, or None."""
        parts = []
        for a in sizes:
            t = self.size_in_dims(a)
            if t is None:
                return None
            parts.append(t)
        return '[' + ', '.join(parts) + ']'

    def shape_reshape(self, scope, depth):
        x = self.expr(scope, depth - 1)
        it = x[2]
        if not has_svar(it) and self.chance(0.12):
            # any target of small constants: a run-time check of the count
            t = [self.pick([1, 2, 3, 4, 6, 12]) for _ in range(self.pick([0, 1, 1, 2, 3]))]
            return ('reshape(%s, [%s])' % (x[0], ', '.join(map(str, t))), 3,
                    tuple(('d', adc(v)) for v in t))
        if has_svar(it):
            # a rank-polymorphic operand: [elements(s)], [elements(s), n]
            if len(it) == 1 and self.shape_in_dims(it[0][1]):
                return 'reshape(%s, [elements(%s)])' % (x[0], it[0][1]), 3, (('d', opaque()),)
            if it[0][0] == 's' and lead_dims(it[1:]) == len(it) - 1 and len(it) >= 2 \
                    and self.shape_in_dims(it[0][1]):
                rest = self.dims_text([i[1] for i in it[1:]])
                if rest is not None:
                    inner = rest[1:-1]
                    if self.chance(0.5):
                        return ('reshape(%s, [elements(%s), %s])' % (x[0], it[0][1], inner), 3,
                                (('d', opaque()),) + it[1:])
                    return ('reshape(%s, [elements(%s @ [%s])])' % (x[0], it[0][1], inner), 3,
                            (('d', opaque()),))
            return None
        sizes = [i[1] for i in it]
        r = self.rng.random()
        if self.chain_hint and self.chance(0.6):
            # after a run-time dims operation: a target that depends on its
            # result's sizes (axes merged, everything, a 1 dropped)
            r = self.pick([0.1, 0.4, 0.7])
        if r < 0.3 and len(sizes) >= 2:
            # merge two adjacent axes: [b, n * d]
            i = self.rng.randrange(len(sizes) - 1)
            target = sizes[:i] + [ad_op('*', sizes[i], sizes[i + 1])] + sizes[i + 2:]
        elif r < 0.45:
            # everything: [elements]
            e = adc(1)
            for a in sizes:
                e = ad_op('*', e, a)
            target = [e]
        elif r < 0.6 and sizes:
            # split an axis with a dims parameter h: [b, n, h, d / h]
            hp = self.new_named_dims_param(1)
            if hp is None:
                return None
            i = self.rng.randrange(len(sizes))
            t = self.size_in_dims(sizes[i])
            if t is None:
                return None
            h = hp[1][0]
            self.pinned.add(hp[0])      # its name is used, not the parameter
            if ' ' in t:
                t = '(' + t + ')'
            pre = self.dims_text(sizes[:i])
            post = self.dims_text(sizes[i + 1:])
            if pre is None or post is None:
                return None
            parts = [p for p in (pre[1:-1], h, '%s / %s' % (t, h), post[1:-1]) if p]
            if self.g.ops18 and self.chance(0.4):
                # spec section 4: `d % h = 0` says that h divides d
                self.wheres.append('%s %% %s = 0' % (t, h))
            return ('reshape(%s, [%s])' % (x[0], ', '.join(parts)), 3,
                    tuple(('d', a) for a in sizes[:i]) + (('d', ads(h)), ('d', opaque())) +
                    tuple(('d', a) for a in sizes[i + 1:]))
        elif r < 0.75:
            # insert or drop axes of size 1, split a constant
            target = list(sizes)
            k = self.rng.randrange(len(target) + 1)
            c = adconst(target[k]) if k < len(target) else None
            if c is not None and c > 1 and c % 2 == 0 and self.chance(0.6):
                target[k:k + 1] = [adc(c // 2), adc(2)]
            elif k < len(target) and adconst(target[k]) == 1:
                del target[k]
            else:
                target.insert(k, adc(1))
        elif r < 0.88:
            # a deliberate misfit: one more, one axis dropped, one added
            target = list(sizes)
            if target and self.chance(0.4):
                k = self.rng.randrange(len(target))
                target[k] = ad_op('+', target[k], adc(1))
            elif target and self.chance(0.5):
                del target[self.rng.randrange(len(target))]
            else:
                target.insert(self.rng.randrange(len(target) + 1), adc(self.pick([2, 3])))
        else:
            # the same shape (or a scalar's [1] / [] round trip)
            target = list(sizes) if sizes or self.chance(0.5) else [adc(1)]
        if self.dims_locals and self.chance(0.5):
            # a named dims value with the target's element count
            # (`t = [d, n]; reshape(x, t)`)
            want = prod(target)
            for n, v in self.dims_locals:
                if prod(v) == want and poly(want) is not None:
                    return 'reshape(%s, %s)' % (x[0], n), 3, tuple(('d', a) for a in v)
        if self.chance(self.rt_p()):
            # the target as a run-time dims parameter
            d = self.rt_dims(target)
            if d is not None:
                return 'reshape(%s, %s)' % (x[0], d[0]), 3, tuple(('d', a) for a in d[1])
        d = self.dims_text(target)
        if d is None:
            return None
        return 'reshape(%s, %s)' % (x[0], d), 3, tuple(('d', a) for a in target)

    def shape_flatten(self, scope, depth):
        x = self.expr(scope, depth - 1)
        it = x[2]
        if lead_dims(it) < 1:
            if has_svar(it) and self.chance(0.3):
                return 'flatten(%s)' % x[0], 3, (('d', opaque()), ('d', opaque()))
            if not it and self.chance(0.1):
                return 'flatten(%s)' % x[0], 3, (('d', opaque()), ('d', opaque()))  # a static error
            return None
        e = adc(1)
        for i in it[1:]:
            e = ad_op('*', e, i[1]) if i[0] == 'd' else opaque()
        return 'flatten(%s)' % x[0], 3, (it[0], ('d', e))

    def axis_arg(self, n):
        """The axis of concat_axis / slice for an operand with n leading
        sizes: (text, the axis the program means, below n, rarely n itself:
        past the rank).  A literal, or a run-time one: a dims parameter
        (left to inference, `ax`, or `ax : dims [k]`), the name of a dims
        parameter's size (`[k]`), or an input's size (`y : f32 [k]`, then
        `[k]`); run.py draws its value (mostly small)."""
        k = n if self.chance(0.03) else self.rng.randrange(n)
        if self.chance(0.7 if self.chain_hint else min(self.rt_p() * 1.2, 0.6)):
            q = self.rng.random()
            if q < 0.45:
                p = self.new_dims_param(1)
                if p is not None:
                    self.unannotated.add(p)
                    return p, k
            elif q < 0.85:
                hp = self.new_named_dims_param(1)
                if hp is not None:
                    if self.chance(0.3):
                        self.pinned.add(hp[0])
                        return '[%s]' % hp[1][0], k
                    return hp[0], k
            else:
                name = self.fresh_dim()
                y = self.new_param((('d', ads(name)),))
                if y is not None:
                    self.pinned.add(y)
                    return '[%s]' % name, k
        return '[%d]' % k, k

    def axis_operand(self, scope, depth):
        """An operand with leading sizes and an axis argument for it
        (concat_axis, slice): (x, its items, axis text, axis or None)."""
        x = self.expr(scope, depth - 1)
        it = x[2]
        n = lead_dims(it)
        if n < 1:
            return None
        if self.last_axis is not None and self.chance(0.5) and self.last_axis[1] < n:
            # the axis of the operation before (a concat then a slice along
            # the same run-time axis)
            kt, k = self.last_axis
        else:
            kt, k = self.axis_arg(n)
        self.last_axis = (kt, k)
        if self.g.ops18 and re.match(r'\[\d+\]$', kt) and not has_svar(it) and self.chance(0.3):
            # spec 5b: a negative axis counts from the last one (-1 is rank
            # - 1); past the rank: -rank - 1, also an error
            kt = '[%d]' % (k - len(it) if k < len(it) else -len(it) - 1)
        return x, it, kt, k

    def shape_concat_axis(self, scope, depth):
        op = self.axis_operand(scope, depth)
        if op is None:
            return None
        x, it, kt, k = op
        if k is None:
            if has_svar(it):
                return None
            y = self.value_of(it, scope, allow_literal=False)
            if y is None:
                return None
            return 'concat_axis(%s, %s, %s)' % (x[0], y, kt), 3, tuple(('d', opaque()) for _ in it)
        if k >= len(it):
            # past the rank: an error
            return 'concat_axis(%s, %s, %s)' % (x[0], x[0], kt), 3, it
        b = self.new_size() if self.chance(0.7) else it[k][1]
        p = it[:k] + (('d', b),) + it[k + 1:]
        y = self.value_of(p, scope, allow_literal=False)
        if y is None:
            return None
        a, bb = (x[0], y) if self.chance(0.6) else (y, x[0])
        total = ad_op('+', it[k][1], b)
        if self.g.ops18 and self.chance(0.3):
            # spec 5b: concat_axis of three or four tensors, the axis last
            for _ in range(self.pick([1, 1, 2])):
                b2 = self.new_size() if self.chance(0.7) else it[k][1]
                y2 = self.value_of(it[:k] + (('d', b2),) + it[k + 1:], scope, allow_literal=False)
                if y2 is None:
                    break
                bb += ', ' + y2
                total = ad_op('+', total, b2)
        return ('concat_axis(%s, %s, %s)' % (a, bb, kt), 3,
                it[:k] + (('d', total),) + it[k + 1:])

    # -- spec 5b's last table (--ops18): linear, expand, arange
    def shape_linear(self, scope, depth):
        """linear(x, w): (t s @ [k], t [k, m]) -> t s @ [m]"""
        x = self.expr(scope, depth - 1)
        it = x[2]
        if not it or it[-1][0] != 'd':
            return None
        k = it[-1][1]
        if self.chance(0.04):
            k = ad_op('+', k, adc(1))           # a weight that does not fit
        m = self.new_size()
        w = self.value_of((('d', k), ('d', m)), scope, allow_literal=False)
        if w is None:
            return None
        return 'linear(%s, %s)' % (x[0], w), 3, it[:-1] + (('d', m),)

    def shape_expand(self, scope, depth):
        """expand(x, b) where broadcast(a, b) = b: an axis of size 1 to
        a constant or one of the item's sizes, new leading axes; now and
        then an axis that is not 1 to another size (an error, static or at
        run time); the target now and then a run-time dims parameter."""
        x = self.expr(scope, depth - 1)
        it = x[2]
        if has_svar(it):
            return None
        names = [n for n in self.dims if self.binder(n) is not None]
        target, texts = [], []
        for i in it:
            a = i[1]
            if adconst(a) == 1 and self.chance(0.7):
                if names and self.chance(0.3):
                    n = self.pick(names)
                    texts.append(self.size_in_dims(ads(n)))
                    target.append(ads(n))
                else:
                    v = self.pick([0, 1, 2, 3, 4, 4])
                    texts.append(str(v))
                    target.append(adc(v))
                continue
            t = self.size_in_dims(a)
            if t is None:
                return None
            texts.append(t)
            target.append(a)
        for _ in range(self.pick([0, 0, 1, 1, 2])):
            if len(target) >= 6:
                break
            v = self.pick([1, 2, 3])
            texts.insert(0, str(v))
            target.insert(0, adc(v))
        if target and self.chance(0.06):
            j = self.rng.randrange(len(target))
            target[j] = ad_op('+', target[j], adc(1))
            texts[j] = ad_text(target[j]) if poly(target[j]) is not None else texts[j]
        if self.chance(self.rt_p()):
            d = self.rt_dims(target)
            if d is not None:
                return 'expand(%s, %s)' % (x[0], d[0]), 3, tuple(('d', a) for a in d[1])
        return 'expand(%s, [%s])' % (x[0], ', '.join(texts)), 3, tuple(('d', a) for a in target)

    def shape_arange(self, scope, depth):
        """f32(arange(n)): (dims [n]) -> i32 [n], converted before it
        meets the others (element types are not modelled)."""
        names = [n for n in self.dims if self.binder(n) is not None]
        r = self.rng.random()
        if r < 0.4 and names:
            n = self.pick(names)
            text, size = '[%s]' % self.size_in_dims(ads(n)), ads(n)
        elif r < 0.4 + self.rt_p():
            d = self.rt_dims([adc(self.pick([1, 2, 3, 4]))])
            if d is None:
                return None
            text, size = d[0], d[1][0]
        else:
            v = self.pick([0, 1, 2, 3, 4, 8])
            text, size = '[%d]' % v, adc(v)
        return 'f32(arange(%s))' % text, 3, (('d', size),)

    def shape_slice(self, scope, depth):
        op = self.axis_operand(scope, depth)
        if op is None:
            return None
        x, it, kt, k = op
        if k is not None and k >= len(it):
            return 'slice(%s, %s, [0], [0])' % (x[0], kt), 3, it
        r = self.rng.random()
        if self.chain_hint and self.chance(0.5):
            r = 1.0                 # constant bounds: [0], [1]; [0], [2]
        if r < (0.4 if self.rt_mode else 0.12):
            # the bounds as dims parameters: `i : dims [i]`, `j : dims [j]`
            # (the slice is then j - i, which later dims values may use),
            # or only the end, or left to inference
            q = self.rng.random()
            if q < 0.45:
                ip = self.new_named_dims_param(1)
                jp = self.new_named_dims_param(1)
                if ip is None or jp is None:
                    return None
                bounds = (ip[0], jp[0])
                out = ('d', ad_op('-', ads(jp[1][0]), ads(ip[1][0])))
            elif q < 0.75:
                jp = self.new_named_dims_param(1)
                if jp is None:
                    return None
                i = self.pick([0, 0, 1])
                bounds = ('[%d]' % i, jp[0])
                out = ('d', ad_op('-', ads(jp[1][0]), adc(i)))
            else:
                ip = self.rt_dims([adc(0)], annotate=False)
                jp = self.rt_dims([adc(1)], annotate=False)
                if ip is None or jp is None:
                    return None
                bounds = (ip[0], jp[0])
                out = ('d', opaque())
        elif r < 0.2 and k is not None and self.size_in_dims(it[k][1]) is not None \
                and adconst(it[k][1]) is None:
            # bounds of the item's sizes: [0], [n / 2]; [n / 2], [n]
            st = self.size_in_dims(it[k][1])
            if ' ' in st:
                st = '(' + st + ')'
            if self.chance(0.5):
                bounds = ('[0]', '[%s / 2]' % st)
            else:
                bounds = ('[%s / 2]' % st, '[%s]' % st)
            out = ('d', opaque())
        else:
            size = it[k][1] if k is not None else opaque()
            c = adconst(size)
            if c is not None and c < 0:
                c = None                    # (a negative size: no bounds inside it)
            st = self.size_in_dims(size) if c is None else None
            if c is not None:
                i = self.rng.randrange(c + 1)
                j = self.rng.randrange(i, c + 1)
                if self.chance(0.05):
                    j = c + 1               # past the axis
                bounds = ('[%d]' % i, '[%d]' % j)
                out = ('d', adc(j - i))
            elif st is not None and r < 1.0 and self.chance(0.5 if self.rt_mode else 0.75):
                q = self.rng.random()
                if q < 0.3:
                    bounds, out = ('[0]', '[%s]' % st), ('d', size)
                elif q < 0.6:
                    bounds, out = ('[1]', '[%s]' % st), ('d', ad_op('-', size, adc(1)))
                else:
                    e = ad_op('-', size, adc(1))
                    bounds, out = ('[1]', '[%s]' % ad_text(e)), ('d', ad_op('-', e, adc(1)))
            else:
                # constant bounds: a run-time check j <= n
                i = self.pick([0, 0, 1])
                j = i + (self.pick([1, 1, 2, 3]) if self.chain_hint else self.pick([0, 1, 2]))
                bounds, out = ('[%d]' % i, '[%d]' % j), ('d', adc(j - i))
        text = 'slice(%s, %s, %s, %s)' % (x[0], kt, bounds[0], bounds[1])
        if k is None:
            return text, 3, tuple(('d', opaque()) for _ in it) if not has_svar(it) else (('s', self.fresh_shape()),)
        return text, 3, it[:k] + (out,) + it[k + 1:]

    def lambda1(self, slice_items, scope, depth, annotate=None):
        """fn (a) { ... } over a slice; returns (text, result items)."""
        self.nlam += 1
        pname = '%s%d' % (self.pick(['a', 'row', 'el']), self.nlam)
        inner = [(pname, slice_items)] + scope
        ann = ''
        if annotate is None:
            annotate = self.chance(0.35)
        if annotate:
            ann = ' : ' + self.annotation(slice_items, rewrite=0.2)
        stmts = []
        if self.chance(0.3):
            e = self.expr(inner, depth - 1)
            tn = 't%d' % (self.ntmp + 1)
            self.ntmp += 1
            stmts.append('%s = %s; ' % (tn, e[0]))
            inner = [(tn, e[2])] + inner
        body = self.expr(inner, max(depth - 1, 1))
        return 'fn (%s%s) { %s%s }' % (pname, ann, ''.join(stmts), body[0]), body[2]

    def op_map(self, scope, depth):
        x = self.expr(scope, depth - 1)
        it = x[2]
        if lead_dims(it) >= 1:
            lam, res = self.lambda1(it[1:], scope, depth)
            return 'map(%s, %s)' % (lam, x[0]), 3, (it[0],) + tuple(res)
        if has_svar(it) and self.chance(0.5):
            lam, res = self.lambda1((('s', self.fresh_shape()),), scope, depth, annotate=False)
            return 'map(%s, %s)' % (lam, x[0]), 3, (('s', self.fresh_shape()),)
        return None

    def op_reduce(self, scope, depth):
        x = self.expr(scope, depth - 1)
        it = x[2]
        if lead_dims(it) >= 1:
            s = it[1:]
        elif has_svar(it) and self.chance(0.5):
            s = (('s', self.fresh_shape()),)
        else:
            return None
        r = self.rng.random()
        if r < 0.6:
            f = self.pick(['+', '*', 'max', 'min', '-', '/'])
        elif r < 0.85:
            f = 'fn (a, b) { %s }' % self.pick(['a + b', 'max(a, b)', 'a * b', 'min(a, b) - a', 'a + b * 2f'])
        else:
            # a closure over a value that broadcasts into the slice
            k = self.rng.randrange(lead_dims(s) + 1) if not has_svar(s) else len(s)
            c = self.value_of(s[k:], scope)
            if c is None:
                return None
            f = 'fn (a, b) { a + b * %s }' % c
        return 'reduce(%s, %s, %s)' % (f, self.pick(INITS), x[0]), 3, s

    def op_call(self, scope, depth):
        fns = [f for f in self.g.fns if f.callable]
        if not fns:
            return None
        f = self.pick(fns)
        return self.call_template(f.name, f.params, f.result, scope, depth)

    def op_extern(self, scope, depth):
        if not self.g.externs:
            return None
        name, params, result = self.pick(self.g.externs)
        return self.call_template(name, params, result, scope, depth)

    def call_template(self, name, params, result, scope, depth):
        mapping = {}
        args = self.args_for(params, mapping, scope, depth)
        if args is None:
            return None
        res = self.instantiate(result, mapping, fresh=False)
        if res and res[0] == 'tuple':
            return None
        return '%s(%s)' % (name, ', '.join(args)), 3, res

    def call_tuple(self, scope, depth):
        """A call whose result is a tuple: (text, [items...]) or None."""
        cands = [(f.name, f.params, f.result) for f in self.g.fns if f.callable and f.result and f.result[0] == 'tuple']
        cands += [e for e in self.g.externs if e[2] and e[2][0] == 'tuple']
        if not cands:
            return None
        name, params, result = self.pick(cands)
        mapping = {}
        args = self.args_for(params, mapping, scope, depth)
        if args is None:
            return None
        res = self.instantiate(result, mapping, fresh=False)
        return '%s(%s)' % (name, ', '.join(args)), res

    def args_for(self, params, mapping, scope, depth):
        """Argument texts for the parameter templates, in order (each
        binds more of mapping); None if one has none."""
        out = []
        for p in params:
            a = self.arg_for(p, mapping, scope, depth)
            if a is None:
                return None
            out.append(a)
        return out

    def arg_for(self, p, mapping, scope, depth):
        if p and p[0] == 'dimsarg':
            # a literal: the sizes the mapping knows as constants, else small
            vals = []
            for it in p[1]:
                v = adconst(self.subst(it[1], mapping, fresh=False)) if all(
                    n in mapping for mono in (poly(it[1]) or {}) for n in mono) else None
                if v is None or v < 0:
                    v = self.pick([1, 2, 3])
                    pt = poly(it[1])
                    if pt and len(pt) == 1 and list(pt.values())[0] == 1 and len(list(pt)[0]) == 1:
                        mapping[list(pt)[0][0]] = adc(v)
                vals.append(v)
            return '[' + ', '.join(map(str, vals)) + ']'
        if p and p[0] == 'tuple':
            parts = self.args_for(p[1], mapping, scope, depth)
            if parts is None:
                return None
            return '(' + ', '.join(parts) + ')'
        cands = []
        for n, it in scope:
            if it is None or isinstance(it, str):
                continue
            m = dict(mapping)
            if self.match(p, it, m):
                cands.append((n, m))
        if cands and self.chance(0.85):
            n, m = self.pick(cands)
            mapping.clear()
            mapping.update(m)
            return n
        items = self.instantiate(p, mapping, fresh=True)
        if items is None:
            return None
        v = self.value_of(items, scope, allow_literal=False)
        if v is None:
            return None
        # bind what the new value says
        self.match(p, items, mapping)
        return v

    def match(self, tpl, items, m):
        """Unify a template (size names '%x', shape names '%s') with an
        abstract shape, extending mapping m; False if they do not fit."""
        if any(t[0] == 'bc' for t in tpl):
            return True
        svars = [i for i, t in enumerate(tpl) if t[0] == 's']
        if len(svars) > 1:
            return False
        if not svars:
            if has_svar(items) or len(items) != len(tpl):
                return False
            return all(self.match_dim(t[1], it[1], m) for t, it in zip(tpl, items))
        i = svars[0]
        pre, post = tpl[:i], tpl[i + 1:]
        if lead_dims(items) < len(pre) or trail_dims(items) < len(post):
            return False
        if len(pre) + len(post) > len(items):
            return False
        for t, it in zip(pre, items):
            if not self.match_dim(t[1], it[1], m):
                return False
        for t, it in zip(reversed(post), reversed(items)):
            if not self.match_dim(t[1], it[1], m):
                return False
        mid = tuple(items[len(pre):len(items) - len(post)])
        name = tpl[i][1]
        if name in m:
            return m[name] == mid
        m[name] = mid
        return True

    def match_dim(self, t, a, m):
        if t == ('q',):
            return True
        p = poly(t)
        if p is None:
            return True
        names = set()
        for mono in p:
            names.update(mono)
        if not names:
            return t == a
        if len(p) == 1 and list(p.values())[0] == 1 and len(list(p)[0]) == 1:
            n = list(p)[0][0]
            if n in m:
                return m[n] == a
            m[n] = a
            return True
        if all(n in m for n in names):
            return self.subst(t, m) == a
        return False

    def subst(self, t, m, fresh=False):
        if t == ('q',):
            return opaque()
        p = poly(t)
        if p is None:
            return opaque()
        r = adc(0)
        for mono, c in p.items():
            term = adc(c)
            for n in mono:
                if n not in m:
                    m[n] = ads(self.fresh_dim()) if fresh else opaque()
                term = ad_op('*', term, m[n])
            r = ad_op('+', r, term)
        return r

    def instantiate(self, tpl, m, fresh):
        if tpl and tpl[0] == 'tuple':
            return ('tuple', [self.instantiate(t, m, fresh) for t in tpl[1]])
        out = []
        for t in tpl:
            if t[0] == 'd':
                out.append(('d', self.subst(t[1], m, fresh)))
            elif t[0] == 's':
                if t[1] not in m:
                    if fresh:
                        m[t[1]] = self.new_shape()
                    else:
                        m[t[1]] = (('s', self.fresh_shape()),)
                out.extend(m[t[1]])
            else:
                r = None
                for op in t[1]:
                    x = self.instantiate(op, m, fresh)
                    r = x if r is None else self.bcast(r, x)
                out.extend(r)
        return tuple(out)

    def op_ho_call(self, scope, depth):
        hos = [f for f in self.g.fns if getattr(f, 'ho', None)]
        if not hos:
            return None
        f = self.pick(hos)
        x = self.expr(scope, depth - 1)
        it = x[2]
        if f.ho == 'twice':
            self.nlam += 1
            a = 'a%d' % self.nlam
            return '%s(fn (%s) { %s(%s) }, %s)' % (f.name, a, self.pick(UNARY), a, x[0]), 3, it
        if lead_dims(it) < 1:
            return None
        s = it[1:]
        if f.ho == 'map':
            lam, res = self.lambda1(s, scope, depth)
            return '%s(%s, %s)' % (f.name, lam, x[0]), 3, (it[0],) + tuple(res)
        if f.ho == 'reduce':
            return '%s(%s, %s)' % (f.name, self.pick(['+', 'max', 'min', 'fn (a, b) { a * b }']), x[0]), 3, s
        # scan: a cell keeping its state's shape
        h = self.value_of(s, scope, allow_literal=False)
        if h is None:
            return None
        self.nlam += 1
        st, y = 'st%d' % self.nlam, 'y%d' % self.nlam
        return ('%s(fn (%s, %s) { hn = tanh(%s + %s); hn, hn * 2f }, %s, %s)' % (f.name, st, y, st, y, h, x[0]),
                3, (it[0],) + s)

    def op_lambda_call(self, scope, depth):
        if not self.callables:
            return None
        name, pitems, res = self.pick(self.callables)
        v = self.value_of(pitems, scope, allow_literal=False)
        if v is None:
            return None
        text = '%s(%s)' % (name, v)
        if res == pitems and self.chance(0.5):
            text = '%s(%s)' % (name, text)
        return text, 3, res

    # -- annotations
    def size_text(self, a, rewrite):
        t = ad_text(a)
        if t is None or self.chance(rewrite):
            r = self.rng.random()
            if t is not None and r < 0.15:
                return t
            name = self.fresh_dim()
            if r < 0.7:
                return name
            return self.pick(['2 * %s', '%s + 1', '%s - 1', '%s * %s' % ('%s', self.fresh_dim()), '(+ %s 1)'
                              ]) % name
        return t

    def annotation(self, items, rewrite=0.25):
        if items and items[0] == 'tuple':
            return '(' + ', '.join(self.annotation(t, rewrite) for t in items[1]) + ')'
        if items and items[0] == 'dimsv':
            return 'dims [%s]' % ', '.join(self.size_text(a, rewrite) for a in items[1])
        r = self.rng.random()
        elem = self.elem if self.chance(0.85) else ('f32' if self.elem == 't' else 't')
        if r < 0.12 and items:
            # a shape variable for the leading part
            k = self.rng.randrange(len(items) + 1)
            if all(it[0] == 'd' for it in items[k:]):
                s = self.fresh_shape()
                return shape_text((('s', s),) + tuple(('d', self.size_text(it[1], rewrite)) for it in items[k:]), elem)
        parts = []
        for it in items:
            if it[0] == 'd':
                parts.append(('d', self.size_text(it[1], rewrite)))
            else:
                parts.append(it)
        if not parts and self.chance(0.4):
            return elem if elem != 't' else 't []'
        return shape_text(parts, elem)

    # -- statements and the function
    def general(self):
        scope = self.pool
        # seed parameters
        for _ in range(self.rng.choice([1, 1, 2, 2, 3])):
            self.new_param(self.new_shape())
        stmts = []
        nst = self.rng.choice([0, 1, 1, 2, 2, 3, 4])
        depth = self.rng.choice([1, 2, 2, 3])
        if self.g.ops18 and self.g.helper_fns and not self.g.in_helper and self.chance(0.5):
            # spec section 2: a call of the imported helper's function
            f = self.pick(self.g.helper_fns)
            e = self.call_template(f.name, f.params, f.result, scope, depth)
            if e is not None:
                name = self.fresh_val()
                self.pool.append((name, e[2]))
                stmts.append('%s = %s;' % (name, e[0]))
        if self.rt_mode and self.chance(0.7):
            # a chain over run-time dims first (the review's bugs 1, 2)
            for _ in range(3):
                st = self.stmt_chain(depth)
                if st:
                    stmts.append(st)
                    break
        for _ in range(nst):
            st = self.statement(depth)
            if st:
                stmts.append(st)
        # the final expression
        finals = []
        fin_items = []
        for _ in range(1 if self.chance(0.75) else 2):
            e = self.expr(self.pool, depth)
            finals.append(e[0])
            fin_items.append(e[2])
        if self.chance(0.25 if self.rt_mode else 0.06):
            # spec 5b: a dims value among the results (a named one, a dims
            # parameter, or one of the item's sizes): an axon_shape holding
            # its values, with no buffer (the contract)
            d = self.dims_result()
            if d is not None:
                k = self.rng.randrange(len(finals) + 1)
                finals.insert(k, d[0])
                fin_items.insert(k, ('dimsv', d[1]))
        if len(finals) == 1:
            final = finals[0]
            result = fin_items[0]
        else:
            final = ', '.join(finals) if self.chance(0.6) else '(' + ', '.join(finals) + ')'
            result = ('tuple', fin_items)
        rty = ''
        if self.chance(0.12):
            rty = ' : ' + self.annotation(result, rewrite=0.3)
        # a let-bound lambda that nothing calls would constrain its body's
        # shapes statically but never run: drop it
        changed = True
        while changed:
            changed = False
            for i, st in enumerate(stmts):
                m = re.match(r"([\w']+) = fn ", st)
                if m:
                    rest = ' '.join(stmts[i + 1:]) + ' ' + final
                    if not re.search(r"(?<![\w'])%s(?![\w'])" % re.escape(m.group(1)), rest):
                        del stmts[i]
                        changed = True
                        break
        body = ' '.join(stmts)
        used = body + ' ' + final
        if len(self.params) > 1 and self.chance(0.9):
            # drop the parameters nothing uses (they would be of any type)
            keep = [p for p in self.params if p[0] in self.pinned or
                    re.search(r"(?<![\w'])%s(?![\w'])" % re.escape(p[0]), used)]
            self.params = keep or self.params[:1]
        params = []
        for name, items in self.params:
            if name in self.param_text:
                params.append('%s : %s' % (name, self.param_text[name]))
            elif name in self.unannotated:
                params.append(name)
            elif name in self.dims_named:
                params.append('%s : dims [%s]' % (name, ', '.join(self.dims_named[name])))
            elif name in self.dims_params:
                params.append(name + self.dims_annotation(self.dims_params[name]))
            elif name in self.pinned:
                params.append(name + ' : ' + self.exact_annotation(items))
            else:
                params.append(name + self.param_annotation(items))
        if body:
            body += ' '
        semi = ';' if self.chance(0.1) else ''
        if self.wheres:
            rty += ' where ' + ', '.join(self.wheres)
        text = '%s = fn (%s)%s { %s%s%s };' % (self.name, ', '.join(params), rty, body, final, semi)
        # a function with a dims parameter (or a dims result) is not called
        # by later ones
        info = FnInfo(self.name, [self.template(it) for _, it in self.params], self.template(result),
                      callable_=not self.dims_params and not has_dimsv(result))
        return text, info

    def dims_result(self):
        """(text, abstract sizes) of a dims value to return, or None."""
        r = self.rng.random()
        if r < 0.4 and self.dims_locals:
            n, v = self.pick(self.dims_locals)
            return n, list(v)
        if r < 0.6:
            ps = [p for p in self.dims_params if p in self.dims_named]
            if ps:
                p = self.pick(ps)
                return p, [ads(x) for x in self.dims_named[p]]
        tens = [it for _, it in self.pool if it and not has_svar(it)]
        if not tens:
            return None
        sizes = [i[1] for i in self.pick(tens)]
        ok = [(a, self.size_in_dims(a)) for a in sizes]
        ok = [(a, t) for a, t in ok if t is not None]
        if not ok:
            return None
        if self.chance(0.3) and 2 * len(ok) <= 8:
            # [n, n, n]: a dims value of more than 8 sizes would be an
            # output the header cannot hold (AXON_MAX_RANK)
            ok = ok * (3 if 3 * len(ok) <= 8 else 2)
        return '[' + ', '.join(t for _, t in ok) + ']', [a for a, _ in ok]

    def exact_annotation(self, items):
        """The annotation of a parameter whose names a dims value uses:
        its abstract shape as it is (an opaque size gets a fresh name)."""
        return shape_text(tuple(('d', ad_text(it[1]) or self.fresh_dim()) if it[0] == 'd' else it
                                for it in items), self.elem)

    def dims_annotation(self, rank):
        """A dims parameter's annotation: fresh names, or none (inferred)."""
        if self.chance(0.25):
            return ''
        return ' : dims [%s]' % ', '.join(self.fresh_dim() for _ in range(rank))

    def template(self, items):
        if items and items[0] == 'tuple':
            return ('tuple', [self.template(t) for t in items[1]])
        if items and items[0] == 'dimsv':
            return ('dimsv',)
        out = []
        for it in items:
            if it[0] == 'd':
                p = poly(it[1])
                if p is None:
                    out.append(('d', ('q',)))
                else:
                    out.append(('d', mkp(dict((tuple('%' + self.name + ':' + x for x in mono), c)
                                              for mono, c in p.items()))))
            else:
                out.append(('s', '%' + self.name + ':' + it[1]))
        return tuple(out)

    def param_annotation(self, items):
        r = self.rng.random()
        if has_svar(items) and len(items) == 1:
            return '' if r < 0.8 else ' : ' + shape_text(items, self.elem)
        if r < 0.3:
            return ''
        if r < 0.42 and items:
            k = self.rng.randrange(len(items))
            if all(it[0] == 'd' for it in items[k:]):
                s = self.fresh_shape()
                return ' : ' + shape_text((('s', s),) + tuple(('d', ad_text(it[1]) or self.fresh_dim()) for it in items[k:]), self.elem)
            if all(it[0] == 'd' for it in items[:k + 1]):
                s = self.fresh_shape()
                return ' : ' + shape_text(tuple(('d', ad_text(it[1]) or self.fresh_dim()) for it in items[:k + 1]) + (('s', s),), self.elem)
        return ' : ' + self.annotation(items, rewrite=0.05)

    def statement(self, depth):
        r = self.rng.random()
        if self.rt_mode and r < 0.3:
            # run-time dims: more of the 5b operators, named dims values,
            # inputs whose sizes are expressions of others'
            q = self.rng.random()
            if q < 0.15:
                return self.stmt_dims_sizes()
            if q < 0.25:
                return self.stmt_affine()
            if q < 0.6:
                return self.stmt_chain(depth)
            if q < 0.75:
                e = self.op_cnn(self.pool, depth)
            else:
                e = self.op_shapeop(self.pool, depth)
            if e is None:
                return None
            name = self.fresh_val()
            self.pool.append((name, e[2]))
            return '%s = %s;' % (name, e[0])
        if self.chance(0.04):
            return self.stmt_chain(depth)
        r = self.rng.random()
        if r < 0.03:
            return self.stmt_dims_sizes()
        if r < 0.06:
            return self.stmt_affine()
        if r < 0.1:
            return self.stmt_lambda(depth)
        if r < 0.18:
            return self.stmt_loop(depth)
        if r < 0.25:
            return self.stmt_tuple(depth)
        if r < 0.29:
            return self.stmt_dims()
        if r < 0.34:
            return self.stmt_topk(depth)
        if r < 0.42:
            # spec 5b: reshape, flatten, concat_axis, slice
            e = self.op_shapeop(self.pool, depth)
            if e is None:
                return None
            name = self.fresh_val()
            self.pool.append((name, e[2]))
            if self.chance(0.25):
                return '%s : %s = %s;' % (name, self.annotation(e[2], rewrite=0.3), e[0])
            return '%s = %s;' % (name, e[0])
        if r < 0.46:
            return self.stmt_nonzero(depth)
        e = self.expr(self.pool, depth)
        name = self.fresh_val()
        if self.chance(0.3):
            ann = self.annotation(e[2], rewrite=0.35)
            self.pool.append((name, e[2]))
            return '%s : %s = %s;' % (name, ann, e[0])
        self.pool.append((name, e[2]))
        return '%s = %s;' % (name, e[0])

    def stmt_dims(self):
        """spec 5b: a let-bound dims value (strides, windows, factors)."""
        vals = [self.pick([1, 2, 2, 3]) for _ in range(self.pick([1, 2, 2, 4]))]
        name = self.fresh_val()
        self.dims_locals.append((name, [adc(v) for v in vals]))
        lit = '[' + ', '.join(map(str, vals)) + ']'
        if self.chance(0.3):
            ann = ', '.join(str(v) if self.chance(0.3) else self.fresh_dim() for v in vals)
            return '%s : dims [%s] = %s;' % (name, ann, lit)
        return '%s = %s;' % (name, lit)

    def stmt_chain(self, depth):
        """spec 5b with run-time dims: an operator taking them (a slice or
        concat along a run-time axis, a pool with a run-time window, a
        reshape to a run-time target), then one that depends on its result's
        sizes: a reshape merging axes or to the element count, a flatten, a
        slice or concat along the same axis, an element-wise operation with
        an input of the shape the program means (the review's bugs 1 and
        2: `reshape(slice(x, ax, [0], [3]), [3, n])`)."""
        first = self.pick(['slice', 'slice', 'concat_axis', 'cnn', 'reshape'])
        self.last_axis = None
        self.chain_hint = True
        try:
            return self.chain(first, depth)
        finally:
            self.chain_hint = False
            self.forced = None

    def chain(self, first, depth):
        if first in ('slice', 'concat_axis', 'reshape') and self.chance(0.5):
            # an input of symbolic sizes first (`x : f32 [m, n]`)
            items = tuple(('d', ads(self.pick(self.dims)) if self.dims and self.chance(0.3)
                           else ads(self.fresh_dim())) for _ in range(self.pick([2, 2, 3])))
            p = self.new_param(items)
            if p is not None:
                self.forced = (p, 3, items)
        if first == 'cnn':
            e = self.op_cnn(self.pool, depth)
        else:
            e = getattr(self, 'shape_' + first)(self.pool, depth)
        if e is None:
            return None
        for _ in range(self.pick([1, 1, 2])):
            then = self.pick(['reshape', 'reshape', 'reshape', 'flatten', 'slice', 'concat_axis', 'binary'])
            self.forced = e
            if then == 'binary':
                y = self.value_of(e[2], self.pool, allow_literal=False)
                self.forced = None
                e2 = None if y is None else ('%s %s %s' % (self.paren(e, 2), self.pick(['+', '*']), y), 1, e[2])
            else:
                e2 = getattr(self, 'shape_' + then)(self.pool, depth)
            self.forced = None
            if e2 is None:
                break
            e = e2
        name = self.fresh_val()
        self.pool.append((name, e[2]))
        return '%s = %s;' % (name, e[0])

    def stmt_dims_sizes(self):
        """spec 5b: a let-bound dims value of the item's sizes (`t = [n, d,
        n, d];`, `t = [d * n];`, `t = [n / 2];`), sometimes annotated; not a
        tensor (the contract: not planned, no counts).  A later reshape may
        take it as its target, the result may hold it."""
        tens = [it for _, it in self.pool if it and not has_svar(it)]
        if not tens:
            return None
        sizes = [i[1] for i in self.pick(tens)]
        texts = [self.size_in_dims(a) for a in sizes]
        ok = [(a, t) for a, t in zip(sizes, texts) if t is not None]
        if not ok:
            return None
        r = self.rng.random()
        if r < 0.25 and 2 * len(ok) <= 8:
            vals = ok + ok                          # [n, d, n, d]
        elif r < 0.45 or len(ok) >= 8:
            vals = list(reversed(ok))               # [d, n]
        elif r < 0.6:
            e = prod([a for a, _ in ok])
            t = self.size_in_dims(e)
            if t is None:
                return None
            vals = [(e, t)]                         # [n * d]
        elif r < 0.75:
            a, t = self.pick(ok)
            if ' ' in t:
                t = '(' + t + ')'
            vals = [(opaque(), '%s / 2' % t)]       # [n / 2]
        else:
            vals = [(adc(2), '2')] + ok             # [2, n, d]
        name = self.fresh_val()
        self.dims_locals.append((name, [a for a, _ in vals]))
        lit = '[' + ', '.join(t for _, t in vals) + ']'
        if self.chance(0.25):
            ann = ', '.join(self.size_text(a, 0.5) for a, _ in vals)
            return '%s : dims [%s] = %s;' % (name, ann, lit)
        return '%s = %s;' % (name, lit)

    def stmt_affine(self):
        """An input whose size is an expression of two names, one of which
        another input gives (`g : f32 [a + 1], x : f32 [a * b + b]`: b is
        the size over a + 1, checked to divide it), or `[2 * b + 1]`,
        `[b / 2 + 1]`; then a reshape or slice that uses the names."""
        names = [n for n in self.dims if self.binder(n) is not None and self.binder(n) not in self.dims_params
                 and self.binder(n) not in self.param_text]
        if names and self.chance(0.6):
            a = self.pick(names)
            self.pinned.add(self.binder(a))
            ga = ads(a)
        else:
            a = self.fresh_dim()
            ga = ads(a) if self.chance(0.5) else ad_op('+', ads(a), adc(1))
            g = self.new_param((('d', ga),))
            if g is None:
                return None
            self.pinned.add(g)
        b = self.fresh_dim()
        A, B = ads(a), ads(b)
        A1 = ad_op('+', A, adc(1))
        forms = [
            ('%s * %s + %s' % (a, b, b), ad_op('*', A1, B),
             [('[%s + 1, %s]' % (a, b), [A1, B]), ('[%s, %s + 1]' % (b, a), [B, A1])]),
            ('(%s + 1) * %s' % (a, b), ad_op('*', A1, B),
             [('[%s + 1, %s]' % (a, b), [A1, B]), ('[%s * %s + %s]' % (a, b, b), [ad_op('*', A1, B)])]),
            ('%s * %s + %s' % (a, b, a), ad_op('*', A, ad_op('+', B, adc(1))),
             [('[%s, %s + 1]' % (a, b), [A, ad_op('+', B, adc(1))])]),
            ('%s * %s' % (a, b), ad_op('*', A, B), [('[%s, %s]' % (b, a), [B, A])]),
            ('2 * %s + 1' % b, ad_op('+', ad_op('*', adc(2), B), adc(1)), [('slice', [B])]),
            ('%s + %s' % (a, b), ad_op('+', A, B), [('slice', [B])]),
            ('%s / 2 + 1' % b, opaque(), []),
            ('%s / 2 + 1' % a, opaque(), []),
        ]
        form, count, uses = self.pick(forms)
        x = self.new_param((('d', count),))
        if x is None:
            return None
        self.param_text[x] = '%s [%s]' % (self.elem, form)
        self.pinned.add(x)
        if b in form:
            self.extra_bound[b] = x
        if not uses or self.chance(0.15):
            return None
        text, items = self.pick(uses)
        v = self.fresh_val()
        if text == 'slice':
            # the last b of 2 * b + 1 (or of a + b)
            lo = ad_text(ad_op('-', count, B))
            text = 'slice(%s, [0], [%s], [%s])' % (x, lo, ad_text(count))
        else:
            text = 'reshape(%s, %s)' % (x, text)
        self.pool.append((v, tuple(('d', i) for i in items)))
        return '%s = %s;' % (v, text)

    def stmt_topk(self, depth):
        """spec 5b: topk over the last axis (k literal, or a dims
        parameter); the i32 indices are not used further."""
        x = self.expr(self.pool, depth - 1)
        it = x[2]
        if not it or it[-1][0] != 'd':
            return None
        n = adconst(it[-1][1])
        k = self.pick([1, 1, 2, 3])
        if n is not None and k > n:
            k = n
        kt = '[%d]' % k
        kd = adc(k)
        if self.chance(max(self.rt_p(), 0.08)):
            # k as a run-time dims parameter (`k : dims [k]`: the values'
            # last axis is k)
            d = self.rt_dims([adc(k)])
            if d is not None:
                kt, kd = d[0], d[1][0]
        v, i = self.fresh_val(), self.fresh_val()
        self.pool.append((v, it[:-1] + (('d', kd),)))
        return '%s, %s = topk(%s, %s);' % (v, i if self.chance(0.7) else '_', x[0], kt)

    def stmt_nonzero(self, depth):
        """spec 5b: nonzero of a rank-1 value (rarely another rank, an
        error), then element-wise operations on its run-time sized result.
        The i32 result is converted to f32 before it meets the others."""
        x = self.of_rank(self.pool, depth, 1)
        if x is None:
            if not self.chance(0.1):
                return None
            x = self.leaf(self.pool)
        name = self.fresh_val()
        r = self.rng.random()
        if r < 0.4:
            text = '%s = f32(nonzero(%s));' % (name, x[0])
        elif r < 0.7:
            i = self.fresh_val()
            text = '%s = nonzero(%s); %s = f32(%s + %s * 2) * 0.5;' % (i, x[0], name, i, i)
        elif r < 0.85:
            text = '%s = %s(f32(nonzero(%s))) + 1f;' % (name, self.pick(UNARY), x[0])
        else:
            # with a broadcasting partner: a scalar, or [1]
            y = self.value_of(self.pick([(), (('d', adc(1)),)]), self.pool)
            if y is None:
                return None
            text = '%s = f32(nonzero(%s)) * %s;' % (name, x[0], y)
        self.pool.append((name, (('d', opaque()),)))
        return text

    def stmt_tuple(self, depth):
        ct = self.call_tuple(self.pool, depth) if self.chance(0.5) else None
        if ct is not None:
            text, res = ct
            names = []
            for it in res[1]:
                if self.chance(0.15):
                    names.append('_')
                    continue
                n = self.fresh_val()
                names.append(n)
                if not (it and it[0] == 'tuple'):
                    self.pool.append((n, it))
            return '%s = %s;' % (', '.join(names), text)
        a = self.expr(self.pool, depth - 1)
        b = self.expr(self.pool, depth - 1)
        n1, n2 = self.fresh_val(), self.fresh_val()
        self.pool.append((n1, a[2]))
        self.pool.append((n2, b[2]))
        if self.chance(0.5):
            return '%s, %s = %s, %s;' % (n1, n2, a[0], b[0])
        return '(%s, %s) = (%s, %s);' % (n1, n2, a[0], b[0])

    def stmt_lambda(self, depth):
        items = self.new_shape() if self.chance(0.4) else self.leaf(self.pool)[2]
        name = self.pick(['gf', 'cell', 'act', 'k1', 'g2'])  # not a size name (DIM_NAMES has g)
        if any(c[0] == name for c in self.callables):
            name = name + str(len(self.callables))
        lam, res = self.lambda1(items, self.pool, depth, annotate=self.chance(0.5))
        self.callables.append((name, items, res))
        return '%s = %s;' % (name, lam)

    def stmt_loop(self, depth):
        x = self.expr(self.pool, depth - 1)
        it = x[2]
        if lead_dims(it) < 1:
            return None
        s = it[1:]
        # the state: one tensor, or a pair
        pair = self.chance(0.3)
        hshape = self.new_shape() if self.chance(0.5) else s
        h1 = self.value_of(hshape, self.pool, allow_literal=False)
        if h1 is None:
            return None
        self.nlam += 1
        sl = 'sl%d' % self.nlam
        inner = [(sl, s), ('st', hshape)] + self.pool
        r = self.rng.random()
        if r < 0.3:
            hn = 'tanh(st)'
        elif r < 0.5:
            hn = 'st * 0.5'
        elif r < 0.8:
            k = self.rng.randrange(len(hshape) + 1) if not has_svar(hshape) else len(hshape)
            c = self.value_of(hshape[k:], inner)
            if c is None:
                return None
            hn = 'st + %s' % c
        else:
            if trail_dims(s) >= 2 and trail_dims(hshape) >= 2 and s[:-1] == hshape[:-1]:
                w = self.value_of(s[:-2] + (s[-1], hshape[-1]), self.pool, allow_literal=False)
                if w is None:
                    return None
                hn = 'tanh(st + matmul(%s, %s))' % (sl, w)
            else:
                hn = 'relu(st)'
        out = self.expr([('hn', hshape)] + inner, max(depth - 1, 1))
        if pair:
            h2 = self.value_of(hshape, self.pool, allow_literal=False) or h1
            lam = 'fn (st2, %s) { st, c2 = st2; hn = %s; (hn, c2 * 1f), %s }' % (sl, hn, out[0])
            state = '(%s, %s)' % (h1, h2)
            n1, n2, n3 = self.fresh_val(), self.fresh_val(), self.fresh_val()
            self.pool.append((n1, hshape))
            self.pool.append((n2, hshape))
            self.pool.append((n3, (it[0],) + tuple(out[2])))
            return '(%s, %s), %s = loop(%s, %s, %s);' % (n1, n2, n3, state, lam, x[0])
        lam = 'fn (st, %s) { hn = %s; hn, %s }' % (sl, hn, out[0])
        n1, n2 = self.fresh_val(), self.fresh_val()
        left = n1 if self.chance(0.85) else '_'
        if left != '_':
            self.pool.append((n1, hshape))
        self.pool.append((n2, (it[0],) + tuple(out[2])))
        return '%s, %s = loop(%s, %s, %s);' % (left, n2, h1, lam, x[0])

    def idiom(self):
        if self.g.ops18 and self.chance(0.3):
            t = self.pick(IDIOMS18)
        else:
            t = self.pick(IDIOMS_RT if self.chance(0.35) else IDIOMS)
        ops = ['+', '*', '-', '/']
        text = t.format(E=self.elem, OP=self.pick(ops), MAX=self.pick(['max', 'min']),
                        U=self.pick(UNARY), RED=self.pick(['+', 'max', 'min', '*']),
                        INIT=self.pick(INITS), C=self.pick([1, 2, 3]), K=self.pick([0, 1, 1, 2]))
        # the idioms use one operator per template; vary the second
        return '%s = %s;' % (self.name, text), None


def generate(seed, stem, ops18=False):
    return generate_files(seed, stem, ops18)[0]


def generate_files(seed, stem, ops18=False):
    """(the program's text, {helper file name: text}): the helper files
    (--ops18) go next to the program, which imports them by name."""
    rng = random.Random('%s:%s' % (seed, stem))
    _opq[0] = 0
    g = Gen(rng, ops18)
    text = g.program(stem)
    return text, dict(g.helpers)


def write_files(seed, stem, d, ops18=False):
    """Writes the program and its helper files into directory d: (the
    program's path, whether it has helper files)."""
    text, helpers = generate_files(seed, stem, ops18)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, stem + '.axon')
    with open(path, 'w') as f:
        f.write(text)
    for hname, htext in helpers.items():
        with open(os.path.join(d, hname), 'w') as f:
            f.write(htext)
    return path, bool(helpers)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--count', type=int, default=1)
    ap.add_argument('--out')
    ap.add_argument('--no-ops18', dest='ops18', action='store_false',
                    help="without spec 5b's last operators, negative axes, `%%` and helper files imported")
    args = ap.parse_args()
    for i in range(args.count):
        stem = 'p%04d' % i
        if args.out:
            write_files(args.seed, stem, args.out, args.ops18)
        else:
            text, helpers = generate_files(args.seed, stem, args.ops18)
            for hname, htext in helpers.items():
                sys.stdout.write('// ---- %s\n%s// ---- %s.axon\n' % (hname, htext, stem))
            sys.stdout.write(text)
    return 0


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main())
