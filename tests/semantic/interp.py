#!/usr/bin/env python3
"""interp.py - a concrete shape interpreter for Axon, written from the
contract (axon-spec.md sections 1-5 and the dims values, elements() and
rank(), `where` clauses and operators of section 5b) and docs/language.md
only.

It shares nothing with axonc: its own evaluator, and the lexer and parser
of tests/lib/axparse.py (written from the contract too, shared with the
value evaluator of tests/values, never with axonc).  A top-level function is run on concrete input shapes; every value is a tensor
(a concrete shape), a tuple or a function.  Annotations are constraints,
solved against the concrete shapes by a small constraint solver
(propagation, then a bounded search).  See README.md for the semantics.

Library use:
    prog = parse_program(text, filename)
    out = run_function(prog, name, flat_input_shapes, structure)
Command line (for debugging):
    interp.py FILE.axon NAME '[3, 4]' '[4]' ...
    interp.py FILE.axon NAME '[3, 8]' 'dims [1]'   (a dims value for a
        parameter that no annotation says is one)
    interp.py -I DIR ... FILE.axon NAME ...        (where imports are
        looked for after the importing file's directory, in order)
"""
import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import axparse  # noqa: E402

INT64_MAX = (1 << 63) - 1


# ---------------------------------------------------------------- errors

AxonSyntaxError = axparse.ParseError


class Reject(Exception):
    """A definite rejection of the input shapes (or a static error)."""


class UndetRank(Exception):
    """An output whose rank the inputs do not determine."""


class GaveUp(Exception):
    """The solver's search exceeded its budget."""


# ---------------------------------------------------------------- programs
#
# The lexer and parser are tests/lib/axparse.py (shared with the value
# evaluator of tests/values); its docstring gives the tree's nodes.  A dims
# type `dims [a, b]` is ('tensor', 'dims', shape): a list of sizes, matched
# and built like a shape (its values are DimsV).  Here an item also knows
# its `file`, the file it is defined in (spec 2: imports).

class Program(object):
    """items: every top-level item, those of imported files first (spec
    section 2: "as if defined before this file's items"), each file once;
    own: the items of the file itself (the functions `emit` exports);
    imports: the file's own `import` lines [(path text, offset)]; visible:
    file -> the files whose items an item of that file sees (itself and
    what it imports, transitively)."""

    def __init__(self, text, filename, items, own=None, imports=(), visible=None):
        self.text, self.filename, self.items = text, filename, items
        self.own = items if own is None else own
        self.imports = list(imports)
        self.visible = visible or {}
        self.by_name = {}
        for it in items:
            self.by_name[it.name] = it

    def sees(self, user, item):
        """Whether item `user` may refer to `item` (an earlier item of its
        own file or of a file it imports)."""
        if user.file == item.file:
            return True
        vis = self.visible.get(user.file)
        return vis is None or item.file in vis


def stem_name(filename):
    base = filename.replace('\\', '/').rsplit('/', 1)[-1]
    if base.endswith('.axon'):
        base = base[:-5]
    s = re.sub(r'[^A-Za-z0-9_]', '_', base)
    if not s or s[0].isdigit():
        s = '_' + s
    return s


class ImportError_(AxonSyntaxError):
    """spec section 2: a missing file, an import cycle, a name defined in
    two files (errors of the program, like a syntax error)."""


def parse_program(text, filename='prog.axon', include=()):
    """The program of a file: its items after those of every file it
    imports (spec section 2; include: the `-I DIR`s in order)."""
    items = []
    visible = {}
    stack = []
    seen_names = {}

    def load(text, path):
        key = os.path.realpath(path) if os.path.exists(path) else path
        if key in stack:
            chain = ' -> '.join(os.path.basename(k) for k in stack[stack.index(key):] + [key])
            raise ImportError_('an import cycle: %s' % chain)
        if key in visible:
            return key                          # imported twice counts once
        stack.append(key)
        imports, its = axparse.parse(text, path)
        vis = {key}
        for ipath, off in imports:
            f = axparse.find_import(ipath, path, include)
            if f is None:
                raise ImportError_('%s:%d: cannot find the imported file "%s"'
                                   % (path, text.count('\n', 0, off) + 1, ipath))
            try:
                with open(f) as fh:
                    itext = fh.read()
            except (OSError, UnicodeDecodeError) as e:
                raise ImportError_('cannot read the imported file %s: %s' % (f, e))
            vis |= visible[load(itext, f)]
        own = set()
        for it in its:
            it.file = key
            if it.kind == 'main':
                it.name = stem_name(path)
            if it.name in own:
                raise AxonSyntaxError('two items named %r' % it.name)
            own.add(it.name)
            if it.name in seen_names:
                raise ImportError_('%r is defined in two files: %s and %s'
                                   % (it.name, seen_names[it.name], path))
            seen_names[it.name] = path
        items.extend(its)
        stack.pop()
        visible[key] = vis
        top.append((its, imports))
        return key

    top = []
    load(text, filename)
    own, imports = top[-1]
    return Program(text, filename, items, own, imports, visible)


def free_names(node, bound=frozenset()):
    """Names an expression uses that it does not bind (for item dependencies)."""
    out = set()

    def walk(e, b):
        k = e[0]
        if k == 'var':
            if e[1] not in b:
                out.add(e[1])
        elif k == 'call':
            walk(e[1], b)
            for a in e[2]:
                walk(a, b)
        elif k == 'bin':
            walk(e[2], b)
            walk(e[3], b)
        elif k == 'neg':
            walk(e[1], b)
        elif k == 'tuple':
            for a in e[1]:
                walk(a, b)
        elif k == 'fn':
            b = set(b) | {p[0] for p in e[1]}
            for st in e[3]:
                walk(st[-1], b)
                if st[0] == 'let':
                    axparse.pattern_names(st[1], b)
                else:
                    b.add(st[1])
            walk(e[4], b)
    walk(node, set(bound))
    return out


# ---------------------------------------------------------------- dimensions
#
# A dimension value is an int (>= 0 for a size), RAG (a ragged axis `*`), or
# a Sym: a polynomial over two kinds of atoms:
#   'dN'      a DYN token: a size known only at run time (`?`); a check that
#             needs its value is UNDECIDABLE;
#   'v:NAME'  an existential variable of the store (the Solver of the
#             evaluation): an extern's result variable that no parameter
#             binds, or the result of broadcasting such a size.  A check on
#             it becomes a constraint, solved like the annotation names.
# The solver uses the same polynomials with its variables ('v:NAME') as
# atoms, so an existential in a value is simply a variable of the solver.

class _Rag(object):
    __slots__ = ()

    def __repr__(self):
        return '*'


RAG = _Rag()


def padd(p, q, sign=1):
    r = dict(p)
    for m, c in q.items():
        v = r.get(m, 0) + sign * c
        if v:
            r[m] = v
        else:
            r.pop(m, None)
    return r


def pmul(p, q):
    r = {}
    for m1, c1 in p.items():
        for m2, c2 in q.items():
            m = tuple(sorted(m1 + m2))
            v = r.get(m, 0) + c1 * c2
            if v:
                r[m] = v
            else:
                r.pop(m, None)
    return r


def pconst(p):
    """The int a polynomial is, or None."""
    if not p:
        return 0
    if len(p) == 1 and () in p:
        return p[()]
    return None


class Sym(object):
    __slots__ = ('poly', 'key')

    def __init__(self, poly):
        self.poly = poly
        self.key = tuple(sorted(poly.items()))

    def __eq__(self, other):
        return isinstance(other, Sym) and self.key == other.key

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.key)

    def __repr__(self):
        terms = []
        for m, c in self.key:
            terms.append('%s%s' % (c, ''.join('*' + a for a in m)))
        return 'DYN(' + ' + '.join(terms) + ')'


def mk_dim(poly):
    c = pconst(poly)
    if c is not None:
        return c
    return Sym(poly)


def to_poly(v):
    if isinstance(v, int):
        return {(): v} if v else {}
    return v.poly


def evars(v):
    """The names of the existential variables ('v:' atoms) in a value."""
    out = set()
    if isinstance(v, Sym):
        for m in v.poly:
            for a in m:
                if a.startswith('v:'):
                    out.add(a[2:])
    return out


def has_v(v):
    if isinstance(v, Sym):
        for m in v.poly:
            for a in m:
                if a.startswith('v:'):
                    return True
    return False


def evar_value(name):
    return Sym({('v:' + name,): 1})


def sym_sign(poly):
    """+1 if surely > 0, -1 if surely < 0, 0 if surely 0, None if unknown
    (DYN tokens are sizes >= 0)."""
    c = poly.get((), 0)
    others = [v for m, v in poly.items() if m != ()]
    if not others:
        return (c > 0) - (c < 0)
    if all(v > 0 for v in others) and c > 0:
        return 1
    if all(v < 0 for v in others) and c < 0:
        return -1
    return None


def is_nonneg(v):
    """True/False/None (unknown) for a dimension value being >= 0."""
    if v is RAG:
        return True
    if isinstance(v, int):
        return v >= 0
    p = v.poly
    if p.get((), 0) >= 0 and all(c >= 0 for m, c in p.items() if m != ()):
        return True
    if p.get((), 0) < 0 and all(c <= 0 for m, c in p.items() if m != ()):
        return False
    return None


def dim_eq(a, b):
    """Exact equality of two dimension values: True, False or None (needs a
    DYN's value)."""
    if a is b:
        return True
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    if a is RAG or b is RAG:
        if has_v(a) or has_v(b):
            return None          # an existential may become `*`
        return False
    d = padd(to_poly(a), to_poly(b), -1)
    if not d:
        return True
    s = sym_sign(d)
    if s in (1, -1):
        return False
    return None


# ---------------------------------------------------------------- values

class Tens(object):
    __slots__ = ('s',)

    def __init__(self, s):
        self.s = s

    def __repr__(self):
        return 'T' + fmt_shape(self.s)


class DimsV(object):
    """A dims value (spec 5b): a list of sizes, `[2, n / 2]`.  Not a
    tensor; as an input or output of a function it is a shape of that rank
    whose sizes are the values."""
    __slots__ = ('s',)

    def __init__(self, s):
        self.s = s

    def __repr__(self):
        return 'D' + fmt_shape(self.s)


class SpecV(object):
    """A spec string, as the first argument of einsum or a reduction."""
    __slots__ = ('text',)

    def __init__(self, text):
        self.text = text


class Tup(object):
    __slots__ = ('items',)

    def __init__(self, items):
        self.items = items

    def __repr__(self):
        return '(' + ', '.join(map(repr, self.items)) + ')'


class Clo(object):
    __slots__ = ('node', 'env', 'solver', 'name')

    def __init__(self, node, env, solver, name=None):
        self.node, self.env, self.solver, self.name = node, env, solver, name


class Builtin(object):
    __slots__ = ('name', 'arity')

    def __init__(self, name, arity):
        self.name, self.arity = name, arity


class ExternFn(object):
    __slots__ = ('name', 'ty', 'where')

    def __init__(self, name, ty, where=()):
        self.name, self.ty, self.where = name, ty, where


class Contract(object):
    """A function value checked against a function type annotation."""
    __slots__ = ('fn', 'ty', 'solver')

    def __init__(self, fn, ty, solver):
        self.fn, self.ty, self.solver = fn, ty, solver


def fmt_dim(d):
    if d is RAG:
        return '*'
    if isinstance(d, Sym):
        return '?'
    return str(d)


def fmt_shape(s):
    return '[' + ', '.join(fmt_dim(d) for d in s) + ']'


def is_fun(v):
    return isinstance(v, (Clo, Builtin, ExternFn, Contract))


# ---------------------------------------------------------------- context

class Ctx(object):
    """One evaluation (one top-level call on one input tuple)."""

    def __init__(self, budget=20000):
        self.ntok = 0
        self.nvar = 0
        self.nscope = 0
        self.undecidable = None          # reason, once a check needs a DYN's value
        self.budget = budget
        self.divtok = {}
        self.depth = 0
        self.dynbound = {}               # DYN token -> its upper bound (an int)
        # DYN token -> where its upper bound comes from, for the largest
        # shapes (spec 5b): ('le', v) at most the value v (nonzero's n, read
        # when the evaluation ends, so that an existential in it is what the
        # constraints made it); ('div', a, b) the floor division a / b
        self.dynsrc = {}
        # the one constraint store of the evaluation: the annotation names of
        # every scope (qualified by the scope), the variables of every extern
        # call, and the existential variables that values mention
        self.store = Solver(self)

    def fresh_dyn(self, bound=None):
        """A new DYN token; bound: a size it is at most (spec 5b: nonzero's
        `?` is at most n), kept where it has a finite upper bound."""
        self.ntok += 1
        tok = 'd%d' % self.ntok
        if bound is not None:
            self.dynsrc[tok] = ('le', bound)
            b = self.resolve(bound)
            if isinstance(b, int):
                self.dynbound[tok] = b
            elif isinstance(b, Sym) and not has_v(b):
                hi = self.dyn_range(b)[1]
                if hi is not None:
                    self.dynbound[tok] = hi
        return Sym({(tok,): 1})

    def dyn_range(self, v):
        """(lo, hi) of a value without existentials, each DYN token between
        0 and its bound (None: unbounded below / above)."""
        if isinstance(v, int):
            return v, v
        lo = hi = v.poly.get((), 0)
        for m, c in v.poly.items():
            if not m:
                continue
            mhi = 1
            for a in m:
                b = self.dynbound.get(a)
                if b is None:
                    mhi = None
                    break
                mhi *= b
            if c > 0:
                hi = None if hi is None or mhi is None else hi + c * mhi
            else:
                lo = None if lo is None or mhi is None else lo + c * mhi
        return lo, hi

    def dyn_nonneg(self, v):
        """True/False/None: a value without existentials is surely >= 0,
        surely < 0, or either (with the DYN tokens' bounds)."""
        lo, hi = self.dyn_range(v)
        if lo is not None and lo >= 0:
            return True
        if hi is not None and hi < 0:
            return False
        return None

    def fresh_evar(self):
        """A new existential size (a variable of the store), as a value."""
        self.nvar += 1
        return evar_value('%%%d' % self.nvar)

    def resolve(self, v):
        return self.store.resolve(v)

    def constrain(self, c):
        """Add a constraint on existential sizes to the store and propagate
        (a constraint that cannot hold rejects)."""
        self.store.pending.append(c)
        self.store.propagate()

    def opaque(self, key, div=None):
        """The DYN token of an expression that is not a polynomial (a floor
        division, a broadcast of two run-time sizes), one per expression;
        div: (a, b) of a floor division a / b (its bound divides a's)."""
        t = self.divtok.get(key)
        if t is None:
            t = self.divtok[key] = self.fresh_dyn()
            if div is not None:
                (tok,), = t.poly
                self.dynsrc[tok] = ('div', div[0], div[1])
        return t

    def undec(self, why):
        if self.undecidable is None:
            self.undecidable = why

    def check_size(self, v, what):
        v = self.resolve(v)
        if isinstance(v, int):
            if v < 0:
                raise Reject('%s is negative (%d)' % (what, v))
            if v > INT64_MAX:
                raise Reject('%s overflows int64' % what)
        elif isinstance(v, Sym):
            nn = is_nonneg(v)
            if nn is False:
                raise Reject('%s is negative' % what)
            if nn is None:
                if has_v(v):
                    self.constrain(('size', v))
                else:
                    nn = self.dyn_nonneg(v)
                    if nn is False:
                        raise Reject('%s is negative' % what)
                    if nn is None:
                        self.undec('%s may be negative' % what)


def darith(ctx, op, a, b):
    if a is RAG or b is RAG:
        return RAG
    if isinstance(a, int) and isinstance(b, int):
        if op == '+':
            return a + b
        if op == '-':
            return a - b
        if op == '*':
            return a * b
        if b == 0:
            raise Reject('division by zero in a size')
        if op == '%':
            return a % b            # the remainder of the floored division
        return a // b
    if op == '%':
        # spec section 4: `d % h` is the remainder of the floored division,
        # d - h * (d / h)
        return darith(ctx, '-', a, darith(ctx, '*', b, darith(ctx, '/', a, b)))
    pa, pb = to_poly(a), to_poly(b)
    if op == '+':
        return mk_dim(padd(pa, pb))
    if op == '-':
        return mk_dim(padd(pa, pb, -1))
    if op == '*':
        return mk_dim(pmul(pa, pb))
    if isinstance(b, int):
        if b == 0:
            raise Reject('division by zero in a size')
        if b > 0 and all(c % b == 0 for c in pa.values()):
            return mk_dim(dict((m, c // b) for m, c in pa.items()))
    a, b = ctx.resolve(a), ctx.resolve(b)
    if has_v(a) or has_v(b):
        # floor division of an existential size: a new existential r with
        # r = a / b (only the evaluator gets here: the solver keeps such an
        # expression open until its variables are bound)
        r = ctx.fresh_evar()
        ctx.constrain(('dim', ('op', '/', ('val', a), ('val', b)), r))
        return r
    return ctx.opaque(('/', Sym(pa).key if isinstance(a, Sym) else a,
                       Sym(pb).key if isinstance(b, Sym) else b), div=(a, b))


def eqc(a, b):
    """The constraint a = b between two values, the side with existentials
    as the expression (a ragged target binds an existential to `*`)."""
    if not has_v(a) and has_v(b):
        a, b = b, a
    return ('dim', ('val', a), b)


def surely_not_one(v):
    """A value without existentials that cannot be 1."""
    if v is RAG:
        return True
    if isinstance(v, int):
        return v != 1
    return sym_sign(padd(v.poly, {(): 1}, -1)) in (1, -1)


def bcast_dim(ctx, a, b):
    if a is b:
        return a
    if isinstance(a, int) and isinstance(b, int):
        if a == b or b == 1:
            return a
        if a == 1:
            return b
        raise Reject('cannot broadcast %d with %d' % (a, b))
    a, b = ctx.resolve(a), ctx.resolve(b)
    if isinstance(a, int) and isinstance(b, int):
        return bcast_dim(ctx, a, b)
    if a == 1:
        return b
    if b == 1:
        return a
    if has_v(a) or has_v(b):
        # an existential size: the broadcast is a constraint on it
        if dim_eq(a, b) is True:
            return a
        r = None
        for x in (a, b):
            if not has_v(x) and surely_not_one(x):
                r = x           # the other one is 1 or x
        if r is None:
            r = ctx.fresh_evar()
        ctx.constrain(('bc', a, b, r))
        return r
    if a is RAG or b is RAG:
        other = b if a is RAG else a
        if other is RAG:
            return RAG
        if isinstance(other, int):
            raise Reject('cannot broadcast * with %d' % other)
        ctx.undec('broadcast of * with a run-time size')
        return RAG
    e = dim_eq(a, b)
    if e:
        return a
    if isinstance(a, Sym) and isinstance(b, Sym):
        ctx.undec('broadcast of two run-time sizes')
        return ctx.opaque(('bc', a.key, b.key))
    if e is False:
        # two different sizes, one of them a DYN that is surely not 1? we
        # cannot know; it could be 1.
        pass
    ctx.undec('broadcast of a run-time size with %s' % fmt_dim(b if isinstance(a, Sym) else a))
    return b if isinstance(a, Sym) else a


def bcast_shapes(ctx, s1, s2):
    n = max(len(s1), len(s2))
    a = (1,) * (n - len(s1)) + tuple(s1)
    b = (1,) * (n - len(s2)) + tuple(s2)
    # pad with a marker that broadcasts as "absent"
    out = []
    for i in range(n):
        if i < n - len(s1):
            out.append(b[i])
        elif i < n - len(s2):
            out.append(a[i])
        else:
            out.append(bcast_dim(ctx, a[i], b[i]))
    return tuple(out)


def eq_check(ctx, a, b, what):
    a, b = ctx.resolve(a), ctx.resolve(b)
    e = dim_eq(a, b)
    if e is False:
        raise Reject('%s: %s is not %s' % (what, fmt_dim(a), fmt_dim(b)))
    if e is None:
        if has_v(a) or has_v(b):
            try:
                ctx.constrain(eqc(a, b))
            except Reject as ex:
                raise Reject('%s: %s' % (what, ex))
        else:
            # a bounded DYN (nonzero's) may be surely different
            lo, hi = ctx.dyn_range(mk_dim(padd(to_poly(a), to_poly(b), -1)))
            if (lo is not None and lo > 0) or (hi is not None and hi < 0):
                raise Reject('%s: %s cannot be %s' % (what, fmt_dim(a), fmt_dim(b)))
            ctx.undec('%s needs a run-time size' % what)


def shapes_equal(ctx, s1, s2, what):
    if len(s1) != len(s2):
        raise Reject('%s: rank %d is not %d' % (what, len(s1), len(s2)))
    for a, b in zip(s1, s2):
        eq_check(ctx, a, b, what)


def values_equal(ctx, v1, v2, what):
    if (isinstance(v1, Tens) and isinstance(v2, Tens)) or \
            (isinstance(v1, DimsV) and isinstance(v2, DimsV)):
        shapes_equal(ctx, v1.s, v2.s, what)
    elif isinstance(v1, Tup) and isinstance(v2, Tup):
        if len(v1.items) != len(v2.items):
            raise Reject('%s: tuples of different lengths' % what)
        for a, b in zip(v1.items, v2.items):
            values_equal(ctx, a, b, what)
    elif is_fun(v1) and is_fun(v2):
        pass
    else:
        raise Reject('%s: different kinds of values' % what)


def shape_elements(ctx, dims, what='elements'):
    """spec 5b: elements(s), the product of a shape's sizes (1 for []).
    Decision: the product must fit int64 (a size the program computes;
    a 0 axis makes it 0 whatever the others are, as a plan's count)."""
    r = 1
    for x in dims:
        r = darith(ctx, '*', r, x)
    if isinstance(r, int) and r > INT64_MAX:
        raise Reject('%s: the product of the sizes overflows int64' % what)
    return r


# ---------------------------------------------------------------- solver

def dim_vars(d, acc, sacc=None):
    """The dimension names of d (into acc) and the shape names that an
    `elements(s)` or `rank(s)` in it mentions (into sacc, if given)."""
    k = d[0]
    if k == 'dvar':
        acc.add(d[1])
    elif k == 'op':
        dim_vars(d[2], acc, sacc)
        dim_vars(d[3], acc, sacc)
    elif k == 'dbc':
        for x in d[1]:
            dim_vars(x, acc, sacc)
    elif k in ('elements', 'rank'):
        shape_vars(d[2], acc, set() if sacc is None else sacc)


def shape_vars(atoms, dacc, sacc):
    for a in atoms:
        if a[0] == 'dims':
            for d in a[1]:
                dim_vars(d, dacc, sacc)
        elif a[0] == 'svar':
            sacc.add(a[1])
        else:
            for op in a[1]:
                shape_vars(op, dacc, sacc)


class NotBound(Exception):
    pass


class Solver(object):
    """The constraint store of one evaluation (ctx.store; clones of it in a
    search): dimension and shape variables and the constraints not yet
    decided.  Its variables are the annotation names of every scope (a Scope
    qualifies them: 'a3.n'), the variables of every extern call ('x4.k'),
    and the existential sizes that values mention ('%5'); a value refers to
    a variable NAME through the atom 'v:NAME'.  Constraints:
      ('dim', expr, target)      an annotation dimension (an AST, with
                                 ('val', value) leaves) equals a value
      ('shape', items, target)   an annotation shape against a shape
      ('bc', a, b, r)            broadcast(a, b) = r (values)
      ('size', v)                0 <= v <= INT64_MAX (a value)
      ('deq', d1, d2)            an extern's where clause d1 = d2 (ASTs)
      ('le', d1, d2)             an extern's where clause d1 <= d2 (ASTs)"""

    def __init__(self, ctx):
        self.ctx = ctx
        self.dims = {}
        self.shapes = {}
        self.pending = []
        self.undec = None       # set in search branches instead of ctx
        self.truncated = False  # a search enumerated a capped range

    def clone(self):
        s = Solver.__new__(Solver)
        s.ctx = self.ctx
        s.dims = dict(self.dims)
        s.shapes = dict(self.shapes)
        s.pending = list(self.pending)
        s.undec = self.undec
        s.truncated = False
        return s

    def mark_undec(self, why):
        if self.undec is None:
            self.undec = why

    # -- values with variables
    def resolve(self, v):
        """v with its bound variables replaced by their values."""
        if not isinstance(v, Sym):
            return v
        dims = self.dims
        hit = False
        for m in v.poly:
            for a in m:
                if a.startswith('v:') and a[2:] in dims:
                    hit = True
                    break
            if hit:
                break
        if not hit:
            return v
        out = {}
        for m, c in v.poly.items():
            term = {(): c}
            for a in m:
                if a.startswith('v:') and a[2:] in dims:
                    x = self.resolve(dims[a[2:]])
                    if x is RAG:
                        return RAG
                    term = pmul(term, to_poly(x))
                else:
                    term = pmul(term, {(a,): 1})
            out = padd(out, term)
        return mk_dim(out)

    def open_vars(self, v, acc):
        """Add the unbound variables that value v mentions."""
        acc.update(evars(self.resolve(v)))

    def dim_free(self, d, acc, sacc=None):
        """The unbound variables of an annotation dimension (through the
        values of its bound variables); the unbound shape variables that an
        `elements(s)` or `rank(s)` in it mentions go to sacc."""
        k = d[0]
        if k == 'dvar':
            v = self.dims.get(d[1])
            if v is None:
                acc.add(d[1])
            else:
                self.open_vars(v, acc)
        elif k == 'val':
            self.open_vars(d[1], acc)
        elif k == 'op':
            self.dim_free(d[2], acc, sacc)
            self.dim_free(d[3], acc, sacc)
        elif k == 'dbc':
            for x in d[1]:
                self.dim_free(x, acc, sacc)
        elif k in ('elements', 'rank'):
            self.shape_free(d[2], acc, sacc, k == 'elements')
        return acc

    def shape_free(self, atoms, acc, sacc, sizes=True):
        """dim_free of a shape inside elements() (sizes) or rank() (only
        the ranks of its shape variables matter)."""
        for a in atoms:
            if a[0] == 'dims':
                if sizes:
                    for d in a[1]:
                        self.dim_free(d, acc, sacc)
            elif a[0] == 'svar':
                v = self.shapes.get(a[1])
                if v is None:
                    if sacc is not None:
                        sacc.add(a[1])
                elif sizes:
                    for x in v:
                        self.open_vars(x, acc)
            else:
                for op in a[1]:
                    self.shape_free(op, acc, sacc, sizes)

    # -- evaluation of annotation dimensions and shapes
    def eval_dim(self, d):
        """The value of an annotation dimension.  NotBound if a variable is
        unbound, or if an existential that is still open sits under a
        division or a broadcast."""
        k = d[0]
        if k == 'int':
            return d[1]
        if k == 'dvar':
            v = self.dims.get(d[1])
            if v is None:
                raise NotBound(d[1])
            return self.resolve(v)
        if k == 'val':
            return self.resolve(d[1])
        if k == 'rag':
            return RAG
        if k == 'q':
            raise NotBound('?')
        if k == 'op':
            a, b = self.eval_dim(d[2]), self.eval_dim(d[3])
            if d[1] in ('/', '%') and (has_v(a) or has_v(b)):
                raise NotBound('an existential under a division')
            return darith(self.ctx, d[1], a, b)
        if k == 'elements':
            return shape_elements(self.ctx, self.eval_shape(d[2]))
        if k == 'rank':
            return self.shape_rank(d[2])
        # broadcast of dimensions
        vals = [self.eval_dim(x) for x in d[1]]
        r = vals[0]
        for v in vals[1:]:
            r = self.bcast_dim(r, v)
        return r

    def shape_rank(self, atoms):
        """rank(s) of an annotation shape (NotBound while a shape variable
        in it is)."""
        n = 0
        for a in atoms:
            if a[0] == 'dims':
                n += len(a[1])
            elif a[0] == 'svar':
                v = self.shapes.get(a[1])
                if v is None:
                    raise NotBound(a[1])
                n += len(v)
            else:
                n += max(self.shape_rank(x) for x in a[1])
        return n

    def bcast_dim(self, a, b):
        a, b = self.resolve(a), self.resolve(b)
        if has_v(a) or has_v(b):
            if a == 1:
                return b
            if b == 1:
                return a
            if dim_eq(a, b) is True:
                return a
            raise NotBound('an existential under a broadcast')
        saved = self.ctx.undecidable
        self.ctx.undecidable = None
        try:
            r = bcast_dim(self.ctx, a, b)
        finally:
            u = self.ctx.undecidable
            self.ctx.undecidable = saved
        if u:
            self.mark_undec(u)
        return r

    def eval_shape(self, atoms):
        out = []
        for a in atoms:
            if a[0] == 'dims':
                for d in a[1]:
                    out.append(self.eval_dim(d))
            elif a[0] == 'svar':
                v = self.shapes.get(a[1])
                if v is None:
                    raise NotBound(a[1])
                out.extend(self.resolve(x) for x in v)
            else:
                ops = [self.eval_shape(x) for x in a[1]]
                r = ops[0]
                for s in ops[1:]:
                    r = self.bcast_shapes(r, s)
                out.extend(r)
        return tuple(out)

    def bcast_shapes(self, s1, s2):
        n = max(len(s1), len(s2))
        out = []
        for i in range(n):
            j1, j2 = i - (n - len(s1)), i - (n - len(s2))
            if j1 < 0:
                out.append(s2[j2])
            elif j2 < 0:
                out.append(s1[j1])
            else:
                out.append(self.bcast_dim(s1[j1], s2[j2]))
        return tuple(out)

    # -- adding constraints
    def add_shape(self, atoms, target):
        """atoms: qualified by a Scope (no `?` left)."""
        items = []
        for a in atoms:
            if a[0] == 'dims':
                items.extend(('d', d) for d in a[1])
            elif a[0] == 'svar':
                items.append(('s', a[1]))
            else:
                items.append(('b', a))
        self.pending.append(('shape', tuple(items), tuple(target)))

    def bind_dim(self, name, v):
        if isinstance(v, int) and v > INT64_MAX:
            raise Reject('size %s overflows int64' % name)
        self.dims[name] = v

    # -- propagation
    def propagate(self):
        changed = True
        while changed:
            changed = False
            keep = []
            pend = self.pending
            self.pending = []
            for c in pend:
                self.ctx.budget -= 1
                if self.ctx.budget < 0:
                    raise GaveUp('solver budget')
                r = self.process(c)
                if r is not c:
                    changed = True
                if r is not None:
                    keep.append(r)
            # process() may have added constraints
            if self.pending:
                changed = True
            self.pending = keep + self.pending
        return self

    def process(self, c):
        """None: decided (satisfied, or dropped as undecidable); c itself:
        no progress; another constraint: progress.  Raises Reject when it
        cannot hold."""
        k = c[0]
        if k == 'dim':
            r = self.process_dim(c)
        elif k == 'shape':
            r = self.process_shape(c)
        elif k == 'bc':
            r = self.process_bc(c)
        elif k == 'deq':
            r = self.process_deq(c)
        elif k == 'le':
            r = self.process_le(c)
        else:
            r = self.process_size(c)
        if r is not None and r is not c and r == c:
            return c
        return r

    def process_shape(self, c):
        _, items0, target = c
        items = []
        for it in items0:
            k = it[0]
            if k == 's':
                v = self.shapes.get(it[1])
                if v is None:
                    items.append(it)
                else:
                    items.extend(('c', x) for x in v)
            elif k == 'b':
                try:
                    v = self.eval_shape([it[1]])
                except NotBound:
                    items.append(it)
                else:
                    items.extend(('c', x) for x in v)
            else:
                items.append(it)
        nopen = sum(1 for it in items if it[0] in ('s', 'b'))
        if not nopen:
            if len(items) != len(target):
                raise Reject('rank %d does not match the annotation (rank %d)' % (len(target), len(items)))
            for it, t in zip(items, target):
                self.match_item(it, t)
            return None
        if len(items) - nopen > len(target):
            raise Reject('rank %d is too small for the annotation' % len(target))
        i, j = 0, len(items)
        ti, tj = 0, len(target)
        while items[i][0] in ('d', 'c'):
            self.match_item(items[i], target[ti])
            i += 1
            ti += 1
        while items[j - 1][0] in ('d', 'c'):
            self.match_item(items[j - 1], target[tj - 1])
            j -= 1
            tj -= 1
        mid, mt = tuple(items[i:j]), tuple(target[ti:tj])
        names = set(it[1] for it in mid if it[0] == 's')
        if len(names) == 1 and not any(it[0] == 'b' for it in mid):
            name = names.pop()
            k = sum(1 for it in mid if it[0] == 's')
            r, rem = divmod(len(mt) - (len(mid) - k), k)
            if rem or r < 0:
                raise Reject('rank %d cannot be split for the annotation' % len(target))
            self.shapes[name] = mt[:r]          # mid[0] is its first occurrence
            return ('shape', mid, mt)
        return ('shape', mid, mt)

    def match_item(self, it, t):
        if it[0] == 'c':
            x, t = self.resolve(it[1]), self.resolve(t)
            e = dim_eq(x, t)
            if e is False:
                raise Reject('size %s does not match %s' % (fmt_dim(t), fmt_dim(x)))
            if e is None:
                if has_v(x) or has_v(t):
                    self.pending.append(eqc(x, t))
                else:
                    self.mark_undec('size compared with a run-time size')
        else:
            self.pending.append(('dim', it[1], t))

    def process_bc(self, c):
        """broadcast(a, b) = r, with an existential among a, b."""
        a, b, r = self.resolve(c[1]), self.resolve(c[2]), self.resolve(c[3])
        if not has_v(a) and not has_v(b):
            return eqc(self.bcast_dim(a, b), r)
        if a == 1:
            return eqc(b, r)
        if b == 1:
            return eqc(a, r)
        if dim_eq(a, b) is True:
            return eqc(a, r)
        if r == 1:
            # only 1 with 1 gives 1
            self.pending.append(eqc(a, 1))
            return eqc(b, 1)
        for x in (a, b):
            if not has_v(x) and surely_not_one(x):
                # y is 1 or x, and the broadcast is x
                if r is not x and dim_eq(x, r) is not True:
                    self.pending.append(eqc(x, r))
                    r = x
                break
        n = ('bc', a, b, r)
        return c if n == c else n

    def process_deq(self, c):
        """d1 = d2: an annotation dimension against the value of the other
        side once one side has one."""
        _, d1, d2 = c
        for a, b in ((d1, d2), (d2, d1)):
            try:
                v = self.eval_dim(b)
            except NotBound:
                continue
            return ('dim', a, v)
        return ('dim', ('op', '-', d1, d2), 0)

    def process_le(self, c):
        """d1 <= d2, decided once both sides have values (with an
        existential left: 0 <= d2 - d1, a size constraint)."""
        _, d1, d2 = c
        try:
            a, b = self.eval_dim(d1), self.eval_dim(d2)
        except NotBound:
            return c
        if a is RAG or b is RAG:
            return None
        diff = mk_dim(padd(to_poly(b), to_poly(a), -1))
        nn = is_nonneg(diff)
        if nn is True:
            return None
        if nn is False:
            raise Reject('a where clause fails (%s <= %s)' % (fmt_dim(a), fmt_dim(b)))
        if has_v(diff):
            return ('size', diff)
        nn = self.ctx.dyn_nonneg(diff)
        if nn is True:
            return None
        if nn is False:
            raise Reject('a where clause fails (%s <= %s)' % (fmt_dim(a), fmt_dim(b)))
        self.mark_undec('a where clause needs a run-time size')
        return None

    def process_size(self, c):
        """0 <= v <= INT64_MAX for a size computed from an existential."""
        v = self.resolve(c[1])
        if v is RAG:
            return None
        if isinstance(v, int):
            if v < 0:
                raise Reject('a size is negative (%d)' % v)
            if v > INT64_MAX:
                raise Reject('a size overflows int64')
            return None
        nn = is_nonneg(v)
        if nn is False:
            raise Reject('a size is negative')
        if nn is True:
            return None
        if not has_v(v):
            nn = self.ctx.dyn_nonneg(v)
            if nn is False:
                raise Reject('a size is negative')
            if nn is None:
                self.mark_undec('a size may be negative')
            return None
        n = ('size', v)
        return c if n == c else n

    def process_dim(self, c):
        d, target = c[1], self.resolve(c[2])
        if d[0] == 'q':
            return None
        if d[0] == 'dvar' and d[1] not in self.dims and d[1] not in evars(target):
            if isinstance(target, int) and target < 0:
                raise Reject('negative size')
            self.bind_dim(d[1], target)
            return None
        sv = set()
        fv = self.dim_free(d, set(), sv)
        if sv:
            # a shape variable under elements() or rank() that nothing has
            # bound: many shapes fit, the search decides
            return c
        fv.update(evars(target))
        free = sorted(fv)
        if not free:
            try:
                v = self.eval_dim(d)
            except Reject:
                raise
            e = dim_eq(v, target)
            if e is False:
                raise Reject('size %s, expected %s' % (fmt_dim(target), fmt_dim(v)))
            if e is None:
                self.mark_undec('a size compared with a run-time size')
            return None
        if target is RAG:
            if len(free) == 1:
                # arithmetic with * gives *: see whether the rest is ragged
                self.dims[free[0]] = 0
                try:
                    v = self.eval_dim(d)
                except Reject:
                    v = None
                del self.dims[free[0]]
                if v is RAG:
                    return None
                self.dims[free[0]] = RAG
                return None
            return c
        poly = self.to_vpoly(d)
        if poly == 'rag':
            raise Reject('a ragged size against %s' % fmt_dim(target))
        if poly is None:
            if len(free) == 1 and isinstance(target, int):
                return self.solve_nonpoly(c, free[0], target)
            if not isinstance(target, int) and len(free) == 1 and not has_v(target):
                self.mark_undec('a run-time size in a non-linear annotation')
                return None
            return c
        diff = padd(poly, to_poly(target), -1)
        vatoms = set()
        for m in diff:
            for a in m:
                if a.startswith('v:'):
                    vatoms.add(a)
        if not vatoms:
            # the free variables cancelled out
            s = sym_sign(diff)
            if s == 0:
                return None
            if s is not None:
                raise Reject('no size satisfies the annotation')
            self.mark_undec('a size equation with run-time sizes')
            return None
        if len(vatoms) > 1:
            # linear in a variable x with coefficient +-1, the rest a sum
            # that is surely >= 0: x is that sum (`h + 1 = k` binds k)
            for x in sorted(vatoms):
                if diff.get((x,)) not in (1, -1):
                    continue
                if any(x in m for m in diff if m != (x,)):
                    continue
                cf = diff[(x,)]
                sol = dict((m, -v * cf) for m, v in diff.items() if m != (x,))
                if is_nonneg(mk_dim(sol)) is True:
                    self.bind_dim(x[2:], mk_dim(sol))
                    return None
            return c
        x = vatoms.pop()
        name = x[2:]
        # split diff into coefficient polynomials by the power of x
        coef = {}
        for m, cf in diff.items():
            k = m.count(x)
            rest = tuple(a for a in m if a != x)
            coef.setdefault(k, {})
            coef[k] = padd(coef[k], {rest: cf})
        deg = max(coef)
        dyn = any(m for k, p in coef.items() for m in p if m)
        if deg == 1 and not any(m for m in coef[1]):
            a = pconst(coef[1])
            b = coef.get(0, {})
            if dyn:
                if not all(cf % a == 0 for cf in b.values()):
                    self.mark_undec('a run-time size not known to be divisible')
                    return None
                sol = dict((m, -cf // a) for m, cf in b.items())
                nn = is_nonneg(mk_dim(sol) if sol else 0)
                if nn is True:
                    self.bind_dim(name, mk_dim(sol))
                    return None
                if nn is False:
                    raise Reject('the annotation needs a negative size')
                self.mark_undec('a size solved from a run-time size may be negative')
                return None
            b = pconst(b)
            q, r = divmod(-b, a)
            if r:
                raise Reject('size not divisible (%s)' % name)
            if q < 0:
                raise Reject('the annotation needs a negative size (%s = %d)' % (name, q))
            self.bind_dim(name, q)
            return None
        if dyn:
            if deg == 1 and not coef.get(0):
                # x * A = 0 with a run-time A: x = 0 fits whatever A is
                # (`[k * m]` against 0 with m a DYN); another x needs A = 0
                return ('dim', d, target, ('cands', name, [0, 1]))
            self.mark_undec('a non-linear equation with a run-time size')
            return None
        cs = [pconst(coef.get(k, {})) for k in range(deg + 1)]
        roots = int_roots(cs)
        if roots is None:
            raise GaveUp('polynomial roots')
        if not roots:
            raise Reject('no size satisfies %s' % name)
        if len(roots) == 1:
            self.bind_dim(name, roots[0])
            return None
        return ('dim', d, target, ('cands', name, roots))

    def to_vpoly(self, d):
        """The polynomial of d over free variables ('v:NAME') and DYN
        tokens; None if a free variable is under a division or a
        broadcast; 'rag' if the value is ragged."""
        k = d[0]
        if k == 'int':
            return {(): d[1]} if d[1] else {}
        if k == 'dvar':
            v = self.dims.get(d[1])
            if v is None:
                return {('v:' + d[1],): 1}
            v = self.resolve(v)
            if v is RAG:
                return 'rag'
            return to_poly(v)
        if k == 'val':
            v = self.resolve(d[1])
            if v is RAG:
                return 'rag'
            return to_poly(v)
        if k == 'rag':
            return 'rag'
        if k == 'op':
            a = self.to_vpoly(d[2])
            b = self.to_vpoly(d[3])
            if a == 'rag' or b == 'rag':
                return 'rag'
            if a is None or b is None:
                return None
            if d[1] == '+':
                return padd(a, b)
            if d[1] == '-':
                return padd(a, b, -1)
            if d[1] == '*':
                return pmul(a, b)
            if any(x.startswith('v:') for m in list(a) + list(b) for x in m):
                return None
            return to_poly(darith(self.ctx, d[1], mk_dim(a), mk_dim(b)))
        if k == 'dbc':
            try:
                v = self.eval_dim(d)
            except NotBound:
                return None
            return 'rag' if v is RAG else to_poly(v)
        if k == 'elements':
            # the product of the sizes (of bound shape variables' values)
            factors = []
            for a in d[2]:
                if a[0] == 'dims':
                    factors.extend(self.to_vpoly(x) for x in a[1])
                elif a[0] == 'svar':
                    v = self.shapes.get(a[1])
                    if v is None:
                        return None
                    for x in v:
                        x = self.resolve(x)
                        factors.append('rag' if x is RAG else to_poly(x))
                else:
                    try:
                        vals = self.eval_shape([a])
                    except NotBound:
                        return None
                    factors.extend('rag' if x is RAG else to_poly(x) for x in vals)
            if 'rag' in factors:
                return 'rag'
            if any(f is None for f in factors):
                return None
            r = {(): 1}
            for f in factors:
                r = pmul(r, f)
            cst = pconst(r)
            if cst is not None and cst > INT64_MAX:
                raise Reject('elements: the product of the sizes overflows int64')
            return r
        if k == 'rank':
            try:
                n = self.shape_rank(d[2])
            except NotBound:
                return None
            return {(): n} if n else {}
        return None

    def solve_nonpoly(self, c, name, target):
        def f(x):
            self.dims[name] = x
            try:
                return self.eval_dim(c[1])
            except Reject:
                return None
            finally:
                del self.dims[name]
        mono = self.monotone(c[1], name)
        roots = None
        if mono == 1:
            roots = monotone_roots(f, target)
        elif mono == -1:
            roots = monotone_roots(lambda x: None if f(x) is None else -f(x), -target)
        if roots is None:
            roots = [x for x in range(0, 2048) if f(x) == target]
            if not roots:
                raise GaveUp('non-monotone size equation')
        if not roots:
            raise Reject('no size satisfies %s' % name)
        if len(roots) == 1:
            self.bind_dim(name, roots[0])
            return None
        return ('dim', c[1], target, ('cands', name, roots))

    def monotone(self, d, name):
        """+1 nondecreasing, -1 nonincreasing, 0 constant, None unknown (in
        the variable `name`, the others bound)."""
        k = d[0]
        if k == 'int' or k == 'rag':
            return 0
        if k == 'dvar' and d[1] == name:
            return 1
        if k == 'dvar' or k == 'val':
            v = self.dims.get(d[1]) if k == 'dvar' else d[1]
            return poly_monotone(to_poly(v) if isinstance(v, (int, Sym)) else {},
                                 'v:' + name)
        if k == 'op':
            a, b = self.monotone(d[2], name), self.monotone(d[3], name)
            if a is None or b is None:
                return None
            op = d[1]
            if op == '-':
                b = -b
                op = '+'
            if op == '+':
                if a == 0:
                    return b
                if b == 0 or a == b:
                    return a
                return None
            if op == '*':
                if a != 0 and b != 0:
                    return None
                var_side, const_side = (d[2], d[3]) if a != 0 else (d[3], d[2])
                m = a or b
                if m == 0:
                    return 0
                try:
                    cv = self.eval_dim(const_side)
                except (NotBound, Reject):
                    return None
                if not isinstance(cv, int):
                    return None
                return m if cv > 0 else (0 if cv == 0 else -m)
            if op == '/':
                if b != 0:
                    return None
                try:
                    cv = self.eval_dim(d[3])
                except (NotBound, Reject):
                    return None
                if not isinstance(cv, int) or cv == 0:
                    return None
                return a if cv > 0 else -a
        if k == 'rank':
            return 0
        if k == 'elements':
            return 0 if name not in self.dim_free(d, set()) else None
        return None

    # -- search
    def free_in(self, c):
        """The unbound variables of a constraint: [('d', name) | ('s', name)]."""
        k = c[0]
        if k == 'dim':
            sv = set()
            fv = self.dim_free(c[1], set(), sv)
            self.open_vars(c[2], fv)
            return [('d', v) for v in sorted(fv)] + [('s', v) for v in sorted(sv)]
        if k == 'bc':
            fv = set()
            for x in c[1:4]:
                self.open_vars(x, fv)
            return [('d', v) for v in sorted(fv)]
        if k == 'size':
            return [('d', v) for v in sorted(evars(self.resolve(c[1])))]
        if k in ('le', 'deq'):
            sv = set()
            fv = self.dim_free(c[1], set(), sv)
            self.dim_free(c[2], fv, sv)
            return [('d', v) for v in sorted(fv)] + [('s', v) for v in sorted(sv)]
        out = []
        for it in c[1]:
            if it[0] == 's':
                if it[1] not in self.shapes:
                    out.append(('s', it[1]))
            elif it[0] == 'd':
                sv = set()
                fv = self.dim_free(it[1], set(), sv)
                out.extend(('d', v) for v in sorted(fv))
                out.extend(('s', v) for v in sorted(sv))
            elif it[0] == 'c':
                out.extend(('d', v) for v in sorted(evars(self.resolve(it[1]))))
            elif it[0] == 'b':
                dv, sv = set(), set()
                shape_vars([it[1]], dv, sv)
                fv = set()
                for v in dv:
                    self.dim_free(('dvar', v), fv)
                for v in sv:
                    if v in self.shapes:
                        for x in self.shapes[v]:
                            self.open_vars(x, fv)
                out.extend(('d', v) for v in sorted(fv))
                out.extend(('s', v) for v in sorted(sv) if v not in self.shapes)
        fv = set()
        for t in c[2]:
            self.open_vars(t, fv)
        out.extend(('d', v) for v in sorted(fv))
        return out

    def values_of(self, c):
        """The values a constraint compares with (for the search's range)."""
        k = c[0]
        if k == 'dim':
            return [c[2]]
        if k == 'shape':
            return list(c[2]) + [it[1] for it in c[1] if it[0] == 'c']
        if k == 'bc':
            return list(c[1:4])
        if k in ('le', 'deq'):
            return []
        return [c[1]]

    def candidates(self):
        """(kind, name, values) for a variable to branch on."""
        best = None
        bound = 2
        ragged = False
        syms = []
        ints = set()
        for c in self.pending:
            targets = [self.resolve(t) for t in self.values_of(c)]
            total = 0
            for t in targets:
                if isinstance(t, int):
                    total += abs(t)
                    ints.add(t)
                elif t is RAG:
                    ragged = True
                else:
                    if has_v(t):
                        # the constants of a sum of existentials count
                        total += sum(abs(cf) for cf in t.poly.values())
                        cst = t.poly.get((), 0)
                        if cst:
                            ints.add(abs(cst))
                    elif t not in syms:
                        syms.append(t)
            # the constants of the expressions count too: d + 2 - l - p = 3
            # with p = 6 needs d = 7 + l
            if c[0] == 'dim':
                total += self.const_weight(c[1])
            elif c[0] in ('le', 'deq'):
                total += self.const_weight(c[1]) + self.const_weight(c[2])
            elif c[0] == 'shape':
                total += sum(self.const_weight(it[1]) for it in c[1] if it[0] == 'd')
            bound = max(bound, total + 2)
            if c[0] == 'dim' and len(c) > 3:
                _, name, roots = c[3]
                if name not in self.dims:
                    if best is None or len(roots) < len(best[2]):
                        best = ('d', name, roots[:64])
            if c[0] == 'bc':
                # an open operand of a broadcast with a known result r is 1
                # or r: for an operand a * x + b, the x that make it so
                a, b, r = targets
                if isinstance(r, int):
                    for x in (a, b):
                        lin = linear_in_one(x)
                        if lin is None:
                            continue
                        name, ca, cb = lin
                        vals = []
                        for want in ([1] if r == 1 else [1, r]):
                            q, rem = divmod(want - cb, ca)
                            if not rem and q >= 0 and q not in vals:
                                vals.append(q)
                        if best is None or len(vals) < len(best[2]):
                            best = ('d', name, vals)
        if best is not None:
            return best
        if bound > 64:
            self.truncated = True
            bound = 64
        for c in self.pending:
            if c[0] == 'shape':
                items, target = c[1], c[2]
                first = items[0]
                if first[0] == 's' and first[1] not in self.shapes:
                    nfixed = sum(1 for it in items if it[0] in ('d', 'c'))
                    vals = [tuple(target[:r]) for r in range(0, len(target) - nfixed + 1)]
                    return ('s', first[1], vals)
        for c in self.pending:
            for kind, name in self.free_in(c):
                if kind == 'd':
                    vals = list(range(0, bound + 1))
                    vals.extend(sorted(x for x in ints if x > bound))
                    if ragged:
                        vals.append(RAG)
                    vals.extend(syms)
                    return ('d', name, vals)
        inbc = set()
        for c in self.pending:
            if c[0] == 'shape':
                for it in c[1]:
                    if it[0] == 'b':
                        shape_vars([it[1]], set(), inbc)
        for c in self.pending:
            for kind, name in self.free_in(c):
                if kind == 's':
                    if name in inbc:
                        raise GaveUp('a shape variable only inside broadcast()')
                    # only under elements() and rank(): what matters is
                    # its rank r and its product P, and [P, 1, ..., 1]
                    # (or [] for r = 0) has both
                    sizes = list(range(0, bound + 1))
                    sizes.extend(sorted(x for x in ints if x > bound))
                    sizes.extend(syms)
                    maxr = min(bound, 10)
                    if maxr < bound:
                        self.truncated = True
                    vals = []
                    for r in [1, 0] + list(range(2, maxr + 1)):
                        if r == 0:
                            vals.append(())
                        else:
                            vals.extend((v,) + (1,) * (r - 1) for v in sizes)
                    return ('s', name, vals)
        return None

    def const_weight(self, d):
        """The sum of the absolute values of the integers in d (bound
        variables included)."""
        k = d[0]
        if k == 'int':
            return abs(d[1])
        if k == 'dvar' or k == 'val':
            v = self.resolve(self.dims.get(d[1]) if k == 'dvar' else d[1])
            if isinstance(v, int):
                return abs(v)
            if isinstance(v, Sym):
                return abs(v.poly.get((), 0))
            return 0
        if k == 'op':
            return self.const_weight(d[2]) + self.const_weight(d[3])
        if k == 'dbc':
            return sum(self.const_weight(x) for x in d[1])
        if k == 'elements':
            return sum(self.const_weight(x) for a in d[2] if a[0] == 'dims' for x in a[1])
        return 0

    def search(self, want=None, limit=2):
        """Decide the open constraints.  Returns (verdict, values) where
        verdict is 'sat', 'undec' or 'unsat'; with want (variable names),
        values maps each to the set of values it takes in the solutions
        found (stopping once each has `limit` values)."""
        found = {}
        if want:
            for w in want:
                found[w] = set()
        state = {'sat': False, 'undec': False}

        def rec(s):
            """True: stop searching."""
            s.ctx.budget -= 1
            if s.ctx.budget < 0:
                raise GaveUp('search budget')
            try:
                s.propagate()
            except Reject:
                return False
            if not s.pending:
                if s.undec:
                    state['undec'] = True
                else:
                    state['sat'] = True
                if want:
                    for w in want:
                        kind, name = w
                        if kind in ('d', 'e'):
                            v = s.dims.get(name) if kind == 'd' else name
                            v = None if v is None else s.resolve(v)
                            if has_v(v):
                                # still a function of free variables
                                found[w].update((('free', 1), ('free', 2)))
                                continue
                        else:
                            v = s.shapes.get(name)
                            if v is not None:
                                v = tuple(s.resolve(x) for x in v)
                                if any(has_v(x) for x in v):
                                    found[w].update((('free', 1), ('free', 2)))
                                    continue
                        found[w].add(v)
                    return all(len(v) >= limit for v in found.values())
                return state['sat']
            cand = s.candidates()
            if cand is None:
                raise GaveUp('no variable to branch on')
            if s.truncated:
                state['truncated'] = True
            kind, name, vals = cand
            for v in vals:
                t = s.clone()
                if kind == 'd':
                    t.dims[name] = v
                else:
                    t.shapes[name] = v
                if rec(t):
                    return True
            return False

        rec(self.clone())
        self.truncated = bool(state.get('truncated'))
        if state['sat']:
            verdict = 'sat'
        elif state['undec']:
            verdict = 'undec'
        elif state.get('truncated'):
            raise GaveUp('no solution among the sizes up to 64')
        else:
            verdict = 'unsat'
        return verdict, found

    def components(self):
        """The pending constraints in groups that share no variable (each
        searched on its own), as [(constraints, variables)]."""
        parent = {}

        def find(x):
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x
        cvars = []
        for i, c in enumerate(self.pending):
            key = ('#', i)
            parent[key] = key
            vs = self.free_in(c)
            cvars.append(vs)
            for v in vs:
                if v not in parent:
                    parent[v] = v
                ra, rb = find(key), find(v)
                if ra != rb:
                    parent[ra] = rb
        groups = {}
        order = []
        for i, c in enumerate(self.pending):
            r = find(('#', i))
            if r not in groups:
                groups[r] = ([], set())
                order.append(r)
            groups[r][0].append(c)
            groups[r][1].update(cvars[i])
        return [groups[r] for r in order]

    def sub(self, cons):
        """A clone holding only the constraints cons."""
        t = self.clone()
        t.pending = list(cons)
        t.undec = None
        return t

    def finish(self):
        """Decide everything still open (at the end of an evaluation)."""
        self.propagate()
        if self.undec:
            self.ctx.undec(self.undec)
        if not self.pending:
            return
        for cons, _ in self.components():
            verdict, _ = self.sub(cons).search()
            if verdict == 'unsat':
                raise Reject('no assignment of the annotation sizes fits')
            if verdict == 'undec':
                self.ctx.undec('the annotations need run-time sizes')

    def determine(self, values):
        """For each value (a size with open variables) of `values`: the one
        value it takes in every solution of the open constraints, if it is
        so determined.  Returns {value: its value}; a variable so determined
        is bound."""
        out = {}
        comps = self.components()
        where = {}
        for i, (cons, vs) in enumerate(comps):
            for v in vs:
                where[v] = i
        for val in values:
            vs = evars(self.resolve(val))
            idx = set()
            loose = False
            for v in vs:
                if ('d', v) in where:
                    idx.add(where[('d', v)])
                else:
                    loose = True        # in no constraint: anything fits
            if loose or not idx:
                continue
            cons = []
            for i in sorted(idx):
                cons.extend(comps[i][0])
            t = self.sub(cons)
            w = ('e', val)
            verdict, found = t.search(want=[w], limit=2)
            if verdict != 'sat' or t.truncated or len(found[w]) != 1:
                continue
            x = next(iter(found[w]))
            if x is None or isinstance(x, tuple):
                continue
            out[val] = x
            if len(vs) == 1 and val == evar_value(next(iter(vs))):
                self.bind_dim(next(iter(vs)), x)
        return out


def linear_in_one(v):
    """(name, a, b) if value v is a * x + b with x its only atom, a
    variable; else None."""
    if not isinstance(v, Sym):
        return None
    atoms = set(a for m in v.poly for a in m)
    if len(atoms) != 1:
        return None
    x = atoms.pop()
    if not x.startswith('v:') or any(m not in ((), (x,)) for m in v.poly):
        return None
    return x[2:], v.poly[(x,)], v.poly.get((), 0)


def poly_monotone(p, x):
    """+1 / -1 / 0 / None: how polynomial p varies with its atom x (the
    other atoms fixed)."""
    ms = [(m, c) for m, c in p.items() if x in m]
    if not ms:
        return 0
    if all(m == (x,) for m, c in ms):
        c = sum(c for m, c in ms)
        return 1 if c > 0 else (-1 if c < 0 else 0)
    return None


def int_roots(cs):
    """Non-negative integer roots of sum(cs[k] * x^k) = 0; None if unsure."""
    while len(cs) > 1 and cs[-1] == 0:
        cs = cs[:-1]
    if len(cs) == 1:
        return None if cs[0] == 0 else []

    def p(x):
        r = 0
        for c in reversed(cs):
            r = r * x + c
        return r
    pos = [c for c in cs[1:] if c]
    if all(c > 0 for c in pos) or all(c < 0 for c in pos):
        sign = 1 if pos[0] > 0 else -1
        return monotone_roots(lambda x: sign * p(x), 0)
    lead = abs(cs[-1])
    bound = 2 + max(abs(c) for c in cs[:-1]) // lead
    if bound > 200000:
        return None
    return [x for x in range(0, bound + 1) if p(x) == 0]


def monotone_roots(g, target):
    """All x >= 0 with g(x) == target for a nondecreasing g (only the first
    64 and the last of a long run); None if g fails to evaluate."""
    def val(x):
        v = g(x)
        if v is None or not isinstance(v, int):
            raise ValueError
        return v
    try:
        if val(0) > target:
            return []
        hi = 1
        while val(hi) < target:
            hi *= 2
            if hi > (1 << 70):
                return []
        lo = 0
        while lo < hi:
            mid = (lo + hi) // 2
            if val(mid) >= target:
                hi = mid
            else:
                lo = mid + 1
        if val(lo) != target:
            return []
        first = lo
        step = 1
        while val(first + step) <= target:
            step *= 2
            if step > (1 << 70):
                return list(range(first, first + 64))
        lo, hi = first + step // 2 if step > 1 else first, first + step
        while lo < hi - 1:
            mid = (lo + hi) // 2
            if val(mid) <= target:
                lo = mid
            else:
                hi = mid
        last = lo
        if last - first > 64:
            return list(range(first, first + 64)) + [last]
        return list(range(first, last + 1))
    except ValueError:
        return None


# ---------------------------------------------------------------- scopes

class Scope(object):
    """The names of one top-level call (its annotations, nested lambdas
    included) or of one extern call: its dimension and shape variables live
    in the evaluation's store under qualified names ('a3.n', 'x4.k'); its
    whole-type variables are here."""

    def __init__(self, ctx, kind='a'):
        ctx.nscope += 1
        self.ctx = ctx
        self.store = ctx.store
        self.prefix = '%s%d.' % (kind, ctx.nscope)
        self.types = {}
        self.nq = 0

    def qual_dim(self, d):
        """Each `?` in an annotation is a fresh unknown."""
        k = d[0]
        if k == 'q':
            self.nq += 1
            return ('dvar', '%s?%d' % (self.prefix, self.nq))
        if k == 'dvar':
            return ('dvar', self.prefix + d[1])
        if k == 'op':
            return ('op', d[1], self.qual_dim(d[2]), self.qual_dim(d[3]))
        if k == 'dbc':
            return ('dbc', [self.qual_dim(x) for x in d[1]])
        if k in ('elements', 'rank'):
            return (k, d[1], self.qual_shape(d[2]))
        return d

    def qual_shape(self, atoms):
        out = []
        for a in atoms:
            if a[0] == 'dims':
                out.append(('dims', [self.qual_dim(d) for d in a[1]]))
            elif a[0] == 'svar':
                out.append(('svar', self.prefix + a[1]))
            else:
                out.append(('sbc', [self.qual_shape(x) for x in a[1]]))
        return out

    def add_shape(self, atoms, target):
        self.store.add_shape(self.qual_shape(atoms), target)

    def propagate(self):
        self.store.propagate()
        return self

    def dim(self, name):
        return self.store.dims.get(self.prefix + name)

    def shape(self, name):
        return self.store.shapes.get(self.prefix + name)

    def owns(self, name):
        return name.startswith(self.prefix)


# ---------------------------------------------------------------- matching

def match_type(solver, ty, v):
    """Constrain the annotation variables of scope `solver` so that value v
    has type ty.  Returns v (or a checked wrapper of a function)."""
    k = ty[0]
    if k == 'tensor':
        if ty[1] == 'dims':
            if not isinstance(v, DimsV):
                raise Reject('a dims value was expected')
        elif not isinstance(v, Tens):
            raise Reject('a tensor was expected')
        solver.add_shape(ty[2], v.s)
        solver.propagate()
        return v
    if k == 'tuple':
        if not isinstance(v, Tup) or len(v.items) != len(ty[1]):
            raise Reject('a tuple of %d was expected' % len(ty[1]))
        return Tup([match_type(solver, t, x) for t, x in zip(ty[1], v.items)])
    if k == 'fun':
        if not is_fun(v):
            raise Reject('a function was expected')
        return Contract(v, ty, solver)
    # whole-type variable
    b = solver.types.get(ty[1])
    if b is None:
        solver.types[ty[1]] = v
    else:
        values_equal(solver.ctx, b, v, 'whole-type variable %s' % ty[1])
    return v


def build_type(solver, ty, fresh):
    """A value of type ty from the variables of an extern call's scope.
    fresh: the DYN tokens chosen for variables (a `?` is a new DYN at each
    occurrence); a dimension variable that is still open is an existential
    (the store's variable itself)."""
    k = ty[0]
    if k == 'tensor':
        dims = []
        for a in ty[2]:
            if a[0] == 'dims':
                for d in a[1]:
                    dims.append(build_dim(solver, d, fresh))
            elif a[0] == 'svar':
                v = solver.shape(a[1])
                if v is None:
                    raise UndetRank('result shape %s is not determined' % a[1])
                dims.extend(solver.ctx.resolve(x) for x in v)
            else:
                ops = []
                for op in a[1]:
                    ops.append(build_type(solver, ('tensor', None, op), fresh).s)
                r = ops[0]
                for s in ops[1:]:
                    r = bcast_shapes(solver.ctx, r, s)
                dims.extend(r)
        for x in dims:
            solver.ctx.check_size(x, 'a size of the result')
        if ty[1] == 'dims':
            return DimsV(tuple(dims))
        return Tens(tuple(dims))
    if k == 'tuple':
        return Tup([build_type(solver, t, fresh) for t in ty[1]])
    if k == 'fun':
        raise Reject('an extern returning a function is not supported')
    v = solver.types.get(ty[1])
    if v is None:
        raise UndetRank('result type %s is not determined' % ty[1])
    return v


def build_dim(solver, d, fresh):
    k = d[0]
    if k == 'int':
        return d[1]
    if k == 'rag':
        return RAG
    if k == 'q':
        return solver.ctx.fresh_dyn()
    if k == 'dvar':
        v = fresh.get(d[1])
        if v is not None:
            return v
        v = solver.dim(d[1])
        if v is None:
            return evar_value(solver.prefix + d[1])
        return solver.ctx.resolve(v)
    if k == 'op':
        return darith(solver.ctx, d[1], build_dim(solver, d[2], fresh), build_dim(solver, d[3], fresh))
    if k in ('elements', 'rank'):
        sv = set()
        shape_vars(d[2], set(), sv)
        if any(solver.shape(n) is None for n in sv):
            # of a shape no parameter binds: the caller's choice, so this
            # size is too (an existential; one per call and expression)
            return evar_value('%s%s%r' % (solver.prefix, k, d[2]))
        sh = build_type(solver, ('tensor', None, d[2]), fresh).s
        return shape_elements(solver.ctx, sh) if k == 'elements' else len(sh)
    vals = [build_dim(solver, x, fresh) for x in d[1]]
    r = vals[0]
    for v in vals[1:]:
        r = bcast_dim(solver.ctx, r, v)
    return r


def type_vars(ty, dacc, sacc, tacc):
    k = ty[0]
    if k == 'tensor':
        shape_vars(ty[2], dacc, sacc)
    elif k == 'tuple':
        for t in ty[1]:
            type_vars(t, dacc, sacc, tacc)
    elif k == 'fun':
        for t in ty[1]:
            type_vars(t, dacc, sacc, tacc)
        type_vars(ty[2], dacc, sacc, tacc)
    else:
        tacc.add(ty[1])


# ---------------------------------------------------------------- evaluator

class Env(object):
    __slots__ = ('vars', 'parent')

    def __init__(self, vars, parent):
        self.vars, self.parent = vars, parent

    def lookup(self, name):
        e = self
        while e is not None:
            v = e.vars.get(name, e)
            if v is not e:
                return v
            e = e.parent
        raise Reject('unknown name %r' % name)


UNARY = ('exp', 'log', 'sqrt', 'tanh', 'sigmoid', 'relu', 'abs',
         # spec section 5b: element-wise, and the conversions (element
         # types are not modelled: a conversion keeps the shape)
         'erf', 'sin', 'cos', 'rsqrt', 'gelu', 'silu', 'floor', 'ceil', 'sign',
         'bool', 'i8', 'i16', 'i32', 'i64', 'u8', 'u16', 'u32', 'u64',
         'f16', 'bf16', 'f32', 'f64')
# spec section 5b: NumPy broadcasting like + - * / (comparisons give bool)
BROADCASTING = ('maximum', 'minimum', 'pow', 'lt', 'le', 'gt', 'ge', 'eq', 'ne')
BUILTINS = {}
for _n in UNARY:
    BUILTINS[_n] = 1
for _n in BROADCASTING:
    BUILTINS[_n] = 2
BUILTINS.update({'max': 2, 'min': 2, 'matmul': 2, 'transpose': 1, 'conv': 2,
                 'concat': 2, 'reverse': 1, 'map': 2, 'reduce': 3, 'loop': 3,
                 'select': 3, 'softmax': 1, 'log_softmax': 1, 'layernorm': 3,
                 'gather': 2, 'map2': 3,
                 # spec 5b: the operators with dims arguments
                 'conv1d': 4, 'conv2d': 4, 'conv2d_grouped': 6,
                 'maxpool2d': 4, 'avgpool2d': 4, 'maxpool1d': 4, 'avgpool1d': 4,
                 'upsample2d': 2, 'pad2d': 2, 'size': 1, 'topk': 2,
                 # spec 5b: the operators whose rules need elements() and
                 # rank()
                 'reshape': 2, 'flatten': 1, 'concat_axis': None, 'slice': 4,
                 'nonzero': 1,
                 # spec 5b, the operators added after real networks
                 # (concat_axis of any number of tensors above)
                 'conv1d_grouped': 6, 'linear': 2, 'expand': 2, 'arange': 1})
# spec 5b: a spec string first (its operands decide the number of arguments)
SPEC_OPS = ('einsum', 'sum', 'mean', 'amax', 'amin', 'argmax')
# spec 5b: the position of the axis argument (negative: from the end)
AXIS_ARG = {'concat_axis': -1, 'slice': 1}
for _n in SPEC_OPS:
    BUILTINS[_n] = None
OPVALS = {'+': Builtin('+', 2), '-': Builtin('-', 2), '*': Builtin('*', 2), '/': Builtin('/', 2)}


class Interp(object):
    def __init__(self, prog, ctx):
        self.prog = prog
        self.ctx = ctx
        base = {}
        for n, a in BUILTINS.items():
            base[n] = Builtin(n, a)
        self.base = Env(base, None)
        self.items = {}
        self.record = None

    def item_value(self, name):
        v = self.items.get(name)
        if v is not None:
            return v
        it = self.prog.by_name.get(name)
        if it is None:
            raise Reject('unknown item %r' % name)
        idx = self.prog.items.index(it)
        env = Env({}, self.base)
        for prev in self.prog.items[:idx]:
            if self.prog.sees(it, prev):
                env.vars[prev.name] = _Lazy(self, prev.name)
        if it.kind == 'extern':
            v = ExternFn(it.name, it.node, it.where)
        elif it.node[0] == 'fn':
            v = Clo(it.node, env, None, it.name)
        else:
            v = self.eval(it.node, env, Scope(self.ctx))
        self.items[name] = v
        return v

    # -- expressions
    def eval(self, e, env, solver):
        k = e[0]
        if k == 'var':
            v = env.lookup(e[1])
            if isinstance(v, _Lazy):
                v = self.item_value(v.name)
            return v
        if k == 'num':
            return Tens(())
        if k == 'bin':
            a = self.eval(e[2], env, solver)
            b = self.eval(e[3], env, solver)
            return self.apply(OPVALS[e[1]], [a, b])
        if k == 'neg':
            a = self.eval(e[1], env, solver)
            if not isinstance(a, Tens):
                raise Reject('unary - of a non-tensor')
            return Tens(a.s)
        if k == 'call':
            f = self.eval(e[1], env, solver)
            if isinstance(f, Builtin) and f.name in SPEC_OPS:
                # spec 5b: a spec string is the first argument of these
                if not e[2] or e[2][0][0] != 'str':
                    raise Reject("'%s' takes a spec string first" % f.name)
                args = [SpecV(e[2][0][1])] + [self.eval(a, env, solver) for a in e[2][1:]]
            else:
                # spec 5b: an axis argument (concat_axis's last, slice's
                # second) may be a dims value with a negative entry, `[-1]`
                # counting from the last axis; any other dims value may not
                axis_at = None
                if isinstance(f, Builtin) and f.name in AXIS_ARG and len(e[2]) >= 2:
                    axis_at = AXIS_ARG[f.name] % len(e[2])
                args = [self.axis_value(a, solver) if i == axis_at and a[0] == 'dimsv'
                        else self.eval(a, env, solver) for i, a in enumerate(e[2])]
            return self.apply(f, args)
        if k == 'str':
            raise Reject('a spec string is only the first argument of einsum, sum, mean, '
                         'amax, amin or argmax')
        if k == 'tuple':
            return Tup([self.eval(a, env, solver) for a in e[1]])
        if k == 'fn':
            return Clo(e, env, solver)
        if k == 'opval':
            return OPVALS[e[1]]
        if k == 'dimsv':
            vals = tuple(self.dims_value(d, solver) for d in e[1])
            for v in vals:
                self.ctx.check_size(v, 'a size of a dims value')
            return DimsV(vals)
        raise Reject('bad expression %r' % (k,))

    def axis_value(self, e, scope):
        """A dims value written as an axis argument: its sizes may be
        negative (spec 5b: `[-1]` counts from the last axis; the operator
        checks the range), within int64."""
        vals = tuple(self.dims_value(d, scope) for d in e[1])
        for v in vals:
            r = self.ctx.resolve(v)
            if isinstance(r, int):
                if r > INT64_MAX or r < -INT64_MAX - 1:
                    raise Reject('an axis overflows int64')
            else:
                self.ctx.check_size(v, 'a size of a dims value')
        return DimsV(vals)

    def dims_value(self, d, scope):
        """A size of a dims value: its names are the annotation names of
        the item (scope); one not bound yet is the store's variable itself
        (an existential until something binds it)."""
        k = d[0]
        if k == 'int':
            return d[1]
        if k == 'dvar':
            v = scope.dim(d[1])
            if v is None:
                return evar_value(scope.prefix + d[1])
            return self.ctx.resolve(v)
        if k == 'q':
            return self.ctx.fresh_dyn()
        if k == 'rag':
            return RAG
        if k == 'op':
            # exact arithmetic: the value is the size (checked by the
            # caller), so a product with a 0 factor is 0 (`[n * m * k]`)
            return darith(self.ctx, d[1], self.dims_value(d[2], scope), self.dims_value(d[3], scope))
        if k in ('elements', 'rank'):
            # spec 5b: of a shape named by the item's annotations
            # (`reshape(x, [b, elements(s)])`)
            sh = self.dims_shape(d[2], scope)
            return shape_elements(self.ctx, sh) if k == 'elements' else len(sh)
        vals = [self.dims_value(x, scope) for x in d[1]]
        r = vals[0]
        for v in vals[1:]:
            r = bcast_dim(self.ctx, r, v)
        return r

    def dims_shape(self, atoms, scope):
        """The sizes of a shape inside a dims value's elements() or
        rank().  A shape name not bound yet would be an existential shape:
        not modelled (the generator writes none)."""
        out = []
        for a in atoms:
            if a[0] == 'dims':
                out.extend(self.dims_value(d, scope) for d in a[1])
            elif a[0] == 'svar':
                v = scope.shape(a[1])
                if v is None:
                    raise GaveUp('elements()/rank() of a shape %s not bound yet' % a[1])
                out.extend(self.ctx.resolve(x) for x in v)
            else:
                ops = [self.dims_shape(x, scope) for x in a[1]]
                r = tuple(ops[0])
                for o in ops[1:]:
                    r = bcast_shapes(self.ctx, r, tuple(o))
                out.extend(r)
        return tuple(out)

    def apply(self, f, args):
        self.ctx.depth += 1
        if self.ctx.depth > 200:
            raise Reject('recursion too deep')
        try:
            if isinstance(f, Builtin):
                if f.arity is not None and len(args) != f.arity:
                    raise Reject('%s takes %d arguments' % (f.name, f.arity))
                return getattr(self, 'b_' + BNAMES.get(f.name, f.name))(*args)
            if isinstance(f, Clo):
                return self.call_closure(f, args)
            if isinstance(f, ExternFn):
                return self.call_extern(f, args)
            if isinstance(f, Contract):
                return self.call_contract(f, args)
            raise Reject('calling a value that is not a function')
        finally:
            self.ctx.depth -= 1

    def call_closure(self, clo, args, record=None):
        node = clo.node
        params, rty, stmts, final = node[1], node[2], node[3], node[4]
        if len(args) != len(params):
            raise Reject('wrong number of arguments (%d for %d)' % (len(args), len(params)))
        solver = clo.solver
        if solver is None:
            solver = Scope(self.ctx)
        env = Env({}, clo.env)
        for (pname, pty), a in zip(params, args):
            if pty is not None:
                a = match_type(solver, pty, a)
            env.vars[pname] = a
        # a function's where clauses (over its annotation names) constrain
        # every call
        for op, d1, d2 in node[5]:
            self.ctx.store.pending.append(('deq' if op == '=' else 'le',
                                           solver.qual_dim(d1), solver.qual_dim(d2)))
        if node[5]:
            self.ctx.store.propagate()
        for st in stmts:
            if st[0] == 'ann':
                v = self.eval(st[3], env, solver)
                v = match_type(solver, st[2], v)
                env = Env({st[1]: v}, env)
                if record is not None:
                    record.append((st[1], v, env))
            else:
                v = self.eval(st[2], env, solver)
                binds = []
                bind_pattern(st[1], v, binds)
                env = Env(dict(binds), env)
                if record is not None:
                    for n, x in binds:
                        record.append((n, x, env))
        r = self.eval(final, env, solver)
        if rty is not None:
            r = match_type(solver, rty, r)
        if record is not None:
            record.append(('$final', final, env))
        return r

    def call_contract(self, c, args):
        pts, rt = c.ty[1], c.ty[2]
        if len(args) != len(pts):
            raise Reject('wrong number of arguments')
        args = [match_type(c.solver, t, a) for t, a in zip(pts, args)]
        r = self.apply(c.fn, args)
        return match_type(c.solver, rt, r)

    def call_extern(self, f, args):
        ty = f.ty
        if ty[0] != 'fun':
            raise Reject('extern %s is not a function' % f.name)
        pts, rt = ty[1], ty[2]
        if len(args) != len(pts):
            raise Reject('%s takes %d arguments' % (f.name, len(pts)))
        s = Scope(self.ctx, 'x')
        # the variables that a (data) parameter mentions: the arguments
        # determine them, or several values fit (then left open); any other
        # variable is the caller's choice, an existential
        pd, ps, pt_ = set(), set(), set()
        funs = []
        for t, a in zip(pts, args):
            if t[0] == 'fun':
                funs.append((t, a))
            else:
                type_vars(t, pd, ps, pt_)
                match_type(s, t, a)
        # spec 5b: the where clauses are constraints of every call
        for op, d1, d2 in f.where:
            self.ctx.store.pending.append(('deq' if op == '=' else 'le', s.qual_dim(d1), s.qual_dim(d2)))
        s.propagate()
        fresh = {}
        for t, a in funs:
            if not is_fun(a):
                raise Reject('a function was expected')
            s.propagate()
            dv, sv, tv = set(), set(), set()
            for pt in t[1]:
                type_vars(pt, dv, sv, tv)
            self.settle_extern_vars(f, s, dv & pd, sv, fresh)
            fargs = [build_type(s, pt, fresh) for pt in t[1]]
            r = self.apply(a, fargs)
            match_type(s, t[2], r)
        s.propagate()
        dv, sv, tv = set(), set(), set()
        type_vars(rt, dv, sv, tv)
        self.settle_extern_vars(f, s, dv & pd, sv, fresh)
        return build_type(s, rt, fresh)

    def settle_extern_vars(self, f, s, dnames, snames, fresh):
        """Decide the variables of extern call scope s that a parameter
        mentions but propagation left open: one value in every instance of
        the signature that fits the arguments binds it; several leave a
        dimension open, an existential (a shape variable too: an undetermined
        rank).  The search also rejects arguments that fit no instance.  A
        variable tied to existentials outside the call (`pick(e1(y), x)`:
        n * m = k) stays open: an existential itself."""
        store = self.ctx.store
        want = [('d', s.prefix + v) for v in sorted(dnames)
                if s.prefix + v not in store.dims and v not in fresh] + \
               [('s', s.prefix + v) for v in sorted(snames) if s.prefix + v not in store.shapes]
        comps = store.components()
        # the variables connected (by a constraint, or as a bound variable
        # and the variables of its value) to a variable outside the call
        parent = {}

        def find(x):
            parent.setdefault(x, x)
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        def union(a, b):
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[ra] = rb
        for cons, vs in comps:
            vs = sorted(vs)
            for v in vs[1:]:
                union(vs[0][1], v[1])
        for name, val in store.dims.items():
            for v in evars(store.resolve(val)):
                union(name, v)
        outside = set(find(x) for x in list(parent) if not s.owns(x))
        for cons, vs in comps:
            if not any(s.owns(v[1]) for v in vs) or not all(s.owns(v[1]) for v in vs):
                continue
            w = [x for x in want if x in vs]
            t = store.sub(cons)
            verdict, found = t.search(want=w)
            if verdict == 'unsat':
                raise Reject('the arguments of %s fit no instance of its signature' % f.name)
            if verdict == 'undec':
                self.ctx.undec('extern %s needs run-time sizes' % f.name)
            for (kind, name), vals in found.items():
                if len(vals) == 1:
                    v = next(iter(vals))
                    if v is not None and not (isinstance(v, tuple) and v and v[0] == 'free'):
                        (store.dims if kind == 'd' else store.shapes)[name] = v
        store.propagate()
        # A dimension that several values fit (a factor of 0: `[n * m]`
        # against 0 with n = 0) stays open, the caller's choice like one
        # no parameter mentions: the program is valid at these shapes if
        # some value makes it so (the header's AXON_DIM_UNKNOWN, whose
        # checks it skips).

    # -- built-ins
    def b_unary(self, x):
        if not isinstance(x, Tens):
            raise Reject('a tensor was expected')
        return Tens(x.s)

    def b_arith(self, a, b):
        if not isinstance(a, Tens) or not isinstance(b, Tens):
            raise Reject('arithmetic on a non-tensor')
        return Tens(bcast_shapes(self.ctx, a.s, b.s))

    def b_max(self, a, b):
        if not isinstance(a, Tens) or not isinstance(b, Tens):
            raise Reject('max/min of a non-tensor')
        shapes_equal(self.ctx, a.s, b.s, 'max/min')
        return Tens(a.s)

    def b_matmul(self, a, b):
        if not isinstance(a, Tens) or not isinstance(b, Tens):
            raise Reject('matmul of a non-tensor')
        if len(a.s) < 2 or len(b.s) < 2:
            raise Reject('matmul needs rank >= 2')
        if len(a.s) != len(b.s):
            raise Reject('matmul batch axes differ in rank')
        for x, y in zip(a.s[:-2], b.s[:-2]):
            eq_check(self.ctx, x, y, 'matmul batch axis')
        eq_check(self.ctx, a.s[-1], b.s[-2], 'matmul inner size')
        return Tens(a.s[:-2] + (a.s[-2], b.s[-1]))

    def b_transpose(self, a):
        if not isinstance(a, Tens) or len(a.s) < 2:
            raise Reject('transpose needs rank >= 2')
        return Tens(a.s[:-2] + (a.s[-1], a.s[-2]))

    def b_conv(self, x, w):
        if not isinstance(x, Tens) or not isinstance(w, Tens):
            raise Reject('conv of a non-tensor')
        if len(x.s) != 4 or len(w.s) != 4:
            raise Reject('conv needs rank 4')
        n, c, h, wd = x.s
        k, c2, r, q = w.s
        eq_check(self.ctx, c, c2, 'conv channels')
        oh = darith(self.ctx, '+', darith(self.ctx, '-', h, r), 1)
        ow = darith(self.ctx, '+', darith(self.ctx, '-', wd, q), 1)
        self.ctx.check_size(oh, 'conv output height')
        self.ctx.check_size(ow, 'conv output width')
        return Tens((n, k, oh, ow))

    def b_concat(self, a, b):
        if not isinstance(a, Tens) or not isinstance(b, Tens):
            raise Reject('concat of a non-tensor')
        if len(a.s) < 1 or len(b.s) < 1:
            raise Reject('concat needs rank >= 1')
        shapes_equal(self.ctx, a.s[1:], b.s[1:], 'concat inner axes')
        n = darith(self.ctx, '+', a.s[0], b.s[0])
        self.ctx.check_size(n, 'concat size')
        return Tens((n,) + a.s[1:])

    def b_reverse(self, a):
        if not isinstance(a, Tens) or len(a.s) < 1:
            raise Reject('reverse needs rank >= 1')
        return Tens(a.s)

    def b_map(self, f, x):
        if not is_fun(f):
            raise Reject('map needs a function')
        if not isinstance(x, Tens) or len(x.s) < 1:
            raise Reject('map needs rank >= 1')
        p = self.apply(f, [Tens(x.s[1:])])
        if not isinstance(p, Tens):
            raise Reject("map's function must give a tensor")
        return Tens((x.s[0],) + p.s)

    def b_reduce(self, f, init, x):
        if not is_fun(f):
            raise Reject('reduce needs a function')
        if not isinstance(init, Tens) or init.s != ():
            raise Reject("reduce's initial value must be a scalar")
        if not isinstance(x, Tens) or len(x.s) < 1:
            raise Reject('reduce needs rank >= 1')
        s = Tens(x.s[1:])
        r = self.apply(f, [s, s])
        if not isinstance(r, Tens):
            raise Reject("reduce's function must give a tensor")
        shapes_equal(self.ctx, r.s, s.s, "reduce's function")
        return Tens(s.s)

    def b_loop(self, h, f, x):
        if not is_fun(f):
            raise Reject('loop needs a function')
        if not isinstance(x, Tens) or len(x.s) < 1:
            raise Reject('loop needs rank >= 1')
        r = self.apply(f, [h, Tens(x.s[1:])])
        if not isinstance(r, Tup) or len(r.items) != 2:
            raise Reject("loop's function must give a pair")
        h2, p = r.items
        values_equal(self.ctx, h, h2, "loop's state")
        if not isinstance(p, Tens):
            raise Reject("loop's per-step output must be a tensor")
        return Tup([copy_value(h), Tens((x.s[0],) + p.s)])


    # -- spec section 5b
    def b_select(self, c, a, b):
        if not all(isinstance(v, Tens) for v in (c, a, b)):
            raise Reject('select of a non-tensor')
        return Tens(bcast_shapes(self.ctx, bcast_shapes(self.ctx, c.s, a.s), b.s))

    def b_softmax(self, x):
        if not isinstance(x, Tens) or len(x.s) < 1:
            raise Reject('softmax needs rank >= 1')
        return Tens(x.s)

    def b_layernorm(self, x, g, b):
        if not all(isinstance(v, Tens) for v in (x, g, b)):
            raise Reject('layernorm of a non-tensor')
        if len(x.s) < 1:
            raise Reject('layernorm needs rank >= 1')
        shapes_equal(self.ctx, g.s, x.s[-1:], "layernorm's scale")
        shapes_equal(self.ctx, b.s, x.s[-1:], "layernorm's shift")
        return Tens(x.s)

    def b_gather(self, table, ids):
        if not isinstance(table, Tens) or not isinstance(ids, Tens):
            raise Reject('gather of a non-tensor')
        if len(table.s) < 1:
            raise Reject('gather needs a table of rank >= 1')
        return Tens(ids.s + table.s[1:])

    def b_map2(self, f, x, y):
        if not is_fun(f):
            raise Reject('map2 needs a function')
        if not isinstance(x, Tens) or len(x.s) < 1 or not isinstance(y, Tens) or len(y.s) < 1:
            raise Reject('map2 needs two tensors of rank >= 1')
        eq_check(self.ctx, x.s[0], y.s[0], 'map2 outer axes')
        q = self.apply(f, [Tens(x.s[1:]), Tens(y.s[1:])])
        if not isinstance(q, Tens):
            raise Reject("map2's function must give a tensor")
        return Tens((x.s[0],) + q.s)

    # -- spec section 5b: the operators with dims arguments.  Output sizes
    # are floor divisions; where the spec is silent: the window must fit
    # the padded input, every stride is >= 1, a dims argument's sizes are
    # >= 0 (as every dims value's), conv2d_grouped's kernel sizes are >= 1,
    # topk's k <= n; every size computed (the partial sums too) fits int64.
    def tensor_arg(self, v, rank, what):
        if not isinstance(v, Tens):
            raise Reject('%s: a tensor was expected' % what)
        if len(v.s) != rank:
            raise Reject('%s: rank %d, expected %d' % (what, len(v.s), rank))
        return v.s

    def dims_arg(self, v, rank, what):
        if not isinstance(v, DimsV):
            raise Reject('%s: a dims value was expected' % what)
        if len(v.s) != rank:
            raise Reject('%s: dims of rank %d, expected %d' % (what, len(v.s), rank))
        for x in v.s:
            self.ctx.check_size(x, what)
        return [self.ctx.resolve(x) for x in v.s]

    def size_op(self, op, a, b, what):
        r = darith(self.ctx, op, a, b)
        self.ctx.check_size(r, what)
        return r

    def window(self, n, p, span, s, what):
        """(n + 2 * p - span) / s + 1, with span <= n + 2 * p and s >= 1."""
        padded = self.size_op('+', n, self.size_op('*', 2, p, what), what)
        room = darith(self.ctx, '-', padded, span)
        self.ctx.check_size(room, '%s: the window is larger than the padded input' % what)
        self.ctx.check_size(darith(self.ctx, '-', s, 1), '%s: a stride below 1' % what)
        return self.size_op('+', darith(self.ctx, '/', room, s), 1, what)

    def b_conv1d(self, x, w, s, p):
        b, c, l = self.tensor_arg(x, 3, 'conv1d input')
        k, c2, r = self.tensor_arg(w, 3, 'conv1d weights')
        st, = self.dims_arg(s, 1, 'conv1d stride')
        pd, = self.dims_arg(p, 1, 'conv1d padding')
        eq_check(self.ctx, c, c2, 'conv1d channels')
        return Tens((b, k, self.window(l, pd, r, st, 'conv1d')))

    def b_conv2d(self, x, w, s, p):
        b, c, h, wd = self.tensor_arg(x, 4, 'conv2d input')
        k, c2, r, q = self.tensor_arg(w, 4, 'conv2d weights')
        s1, s2 = self.dims_arg(s, 2, 'conv2d strides')
        p1, p2 = self.dims_arg(p, 2, 'conv2d padding')
        eq_check(self.ctx, c, c2, 'conv2d channels')
        return Tens((b, k, self.window(h, p1, r, s1, 'conv2d height'),
                     self.window(wd, p2, q, s2, 'conv2d width')))

    def b_conv2d_grouped(self, x, w, s, p, d, g):
        return self.grouped_conv('conv2d_grouped', 2, x, w, s, p, d, g)

    def b_conv1d_grouped(self, x, w, s, p, d, g):
        """spec 5b: as conv2d_grouped, one spatial axis: (t [b, g * c, l],
        t [g * k, c, r], dims [s], dims [p], dims [d], dims [g]) -> t [b,
        g * k, (l + 2 * p - d * (r - 1) - 1) / s + 1]"""
        return self.grouped_conv('conv1d_grouped', 1, x, w, s, p, d, g)

    def grouped_conv(self, name, nsp, x, w, s, p, d, g):
        xs = self.tensor_arg(x, 2 + nsp, '%s input' % name)
        ws = self.tensor_arg(w, 2 + nsp, '%s weights' % name)
        b, ch, spatial = xs[0], xs[1], xs[2:]
        f, c, kerns = ws[0], ws[1], ws[2:]
        strides = self.dims_arg(s, nsp, '%s strides' % name)
        pads = self.dims_arg(p, nsp, '%s padding' % name)
        dils = self.dims_arg(d, nsp, '%s dilation' % name)
        grp, = self.dims_arg(g, 1, '%s groups' % name)
        # input channels g * c (c: the weights' channels); filters g * k
        eq_check(self.ctx, self.size_op('*', grp, c, '%s channels' % name), ch,
                 '%s input channels (groups * weight channels)' % name)
        if dim_eq(self.ctx.resolve(grp), 0) is True:
            eq_check(self.ctx, f, 0, '%s filters (0 groups)' % name)
        else:
            kk = darith(self.ctx, '/', f, grp)
            eq_check(self.ctx, darith(self.ctx, '*', grp, kk), f,
                     '%s filters (a multiple of the groups)' % name)
        axes = ('height', 'width') if nsp == 2 else ('length',)
        outs = []
        for n, pp, kern, dil, st, ax in zip(spatial, pads, kerns, dils, strides, axes):
            what = '%s %s' % (name, ax)
            self.ctx.check_size(darith(self.ctx, '-', kern, 1), '%s: a kernel size below 1' % what)
            span = self.size_op('+', self.size_op('*', dil, darith(self.ctx, '-', kern, 1), what), 1, what)
            outs.append(self.window(n, pp, span, st, what))
        return Tens((b, f) + tuple(outs))

    def b_pool2d(self, x, win, s, p):
        b, c, h, wd = self.tensor_arg(x, 4, 'pool2d input')
        r, q = self.dims_arg(win, 2, 'pool2d window')
        s1, s2 = self.dims_arg(s, 2, 'pool2d strides')
        p1, p2 = self.dims_arg(p, 2, 'pool2d padding')
        return Tens((b, c, self.window(h, p1, r, s1, 'pool2d height'),
                     self.window(wd, p2, q, s2, 'pool2d width')))

    def b_pool1d(self, x, win, s, p):
        b, c, l = self.tensor_arg(x, 3, 'pool1d input')
        r, = self.dims_arg(win, 1, 'pool1d window')
        st, = self.dims_arg(s, 1, 'pool1d stride')
        pd, = self.dims_arg(p, 1, 'pool1d padding')
        return Tens((b, c, self.window(l, pd, r, st, 'pool1d')))

    def b_upsample2d(self, x, fac):
        b, c, h, wd = self.tensor_arg(x, 4, 'upsample2d input')
        f1, f2 = self.dims_arg(fac, 2, 'upsample2d factors')
        return Tens((b, c, self.size_op('*', f1, h, 'upsample2d height'),
                     self.size_op('*', f2, wd, 'upsample2d width')))

    def b_pad2d(self, x, pads):
        b, c, h, wd = self.tensor_arg(x, 4, 'pad2d input')
        p1, p2, p3, p4 = self.dims_arg(pads, 4, 'pad2d padding')
        return Tens((b, c, self.size_op('+', self.size_op('+', h, p1, 'pad2d height'), p2, 'pad2d height'),
                     self.size_op('+', self.size_op('+', wd, p3, 'pad2d width'), p4, 'pad2d width')))

    def b_size(self, d):
        self.dims_arg(d, 1, 'size')
        return Tens(())

    # -- spec section 5b: spec strings in einsum notation.  A label (a
    # letter) is a size, equal wherever it appears; '...' (at most once an
    # operand) is any axes, the output's the broadcast of the operands';
    # a 1 in a reduction's output is an axis of size 1.
    def spec_apply(self, name, spec, ops, reduction):
        if not isinstance(spec, SpecV):
            raise Reject("'%s' takes a spec string first" % name)
        text = spec.text
        if text.count('->') != 1:
            raise Reject('the spec of %s needs one ->' % name)
        lhs, rhs = text.split('->')

        def items(part, out):
            res, i = [], 0
            while i < len(part):
                c = part[i]
                if c == ' ':
                    i += 1
                elif c == '.':
                    if part[i:i + 3] != '...':
                        raise Reject('the spec of %s: a . that is not part of ...' % name)
                    if '...' in res:
                        raise Reject('the spec of %s: a second ... in one operand' % name)
                    res.append('...')
                    i += 3
                elif c.isascii() and c.isalpha():
                    res.append(c)
                    i += 1
                elif c == '1' and out and reduction:
                    res.append('1')
                    i += 1
                else:
                    raise Reject('the spec of %s: unexpected %r' % (name, c))
            return res
        operands = [items(p, False) for p in lhs.split(',')]
        output = items(rhs, True)
        if reduction and len(operands) != 1:
            raise Reject('the spec of %s: a reduction has one operand' % name)
        if len(ops) != len(operands):
            raise Reject("'%s' takes %d arguments" % (name, len(operands) + 1))
        labels = set(l for o in operands for l in o if l != '...')
        has_ell = any('...' in o for o in operands)
        if has_ell != ('...' in output):
            raise Reject('the spec of %s: ... in the operands and the output, or in neither' % name)
        seen = set()
        for l in output:
            if l not in ('...', '1'):
                if l not in labels:
                    raise Reject('the spec of %s: label %s of the output is in no operand' % (name, l))
                if l in seen:
                    raise Reject('the spec of %s: label %s twice in the output' % (name, l))
                seen.add(l)
        size = {}
        ell = None
        for o, v in zip(operands, ops):
            if not isinstance(v, Tens):
                raise Reject('%s of a non-tensor' % name)
            sh = v.s
            nl = len([l for l in o if l != '...'])
            if '...' in o:
                if len(sh) < nl:
                    raise Reject('%s: rank %d is below %d' % (name, len(sh), nl))
                k = o.index('...')
                after = len(o) - k - 1
                mid = sh[k:len(sh) - after]
                axes = list(sh[:k]) + list(sh[len(sh) - after:])
                ell = mid if ell is None else bcast_shapes(self.ctx, ell, mid)
            else:
                if len(sh) != nl:
                    raise Reject('%s: rank %d is not %d' % (name, len(sh), nl))
                axes = list(sh)
            for l, d in zip([l for l in o if l != '...'], axes):
                if l in size:
                    eq_check(self.ctx, size[l], d, '%s label %s' % (name, l))
                else:
                    size[l] = d
        out = []
        for l in output:
            if l == '...':
                out.extend(ell)
            elif l == '1':
                out.append(1)
            else:
                out.append(size[l])
        return Tens(tuple(out))

    def b_einsum(self, spec=None, *ops):
        return self.spec_apply('einsum', spec, ops, False)

    def b_reduction(self, spec=None, *ops):
        return self.spec_apply('a reduction', spec, ops, True)

    def b_topk(self, x, k):
        if not isinstance(x, Tens) or len(x.s) < 1:
            raise Reject('topk needs a tensor of rank >= 1')
        kk, = self.dims_arg(k, 1, 'topk k')
        self.ctx.check_size(darith(self.ctx, '-', x.s[-1], kk), 'topk: k above the last axis')
        s = x.s[:-1] + (kk,)
        return Tup([Tens(s), Tens(s)])

    # -- spec section 5b: reshape, flatten, concat_axis, slice, nonzero,
    # exactly their signatures.  Where the spec is silent (the project's
    # decisions): a dims argument's sizes are sizes (>= 0); every size
    # computed fits int64, the two element counts a reshape compares too
    # (each side's product; a 0 axis makes it 0); reshape with equal counts
    # is accepted whatever the ranks (no -1 inference); nonzero needs rank
    # exactly 1 and its size is a run-time one (a DYN, at most n).
    def axis_arg(self, v, rank, what):
        """The axis number k of `dims [k]` (an int: a literal, a dims
        parameter or the item's sizes) for a tensor of rank `rank`, in
        [0, rank): spec 5b, a negative one (a literal axis argument) counts
        from the last axis, -1 is rank - 1; one outside [-rank, rank)
        rejects."""
        if not isinstance(v, DimsV):
            raise Reject('%s: a dims value was expected' % what)
        if len(v.s) != 1:
            raise Reject('%s: dims of rank %d, expected 1' % (what, len(v.s)))
        k = self.ctx.resolve(v.s[0])
        if isinstance(k, int):
            if k < -rank or k >= rank:
                raise Reject('%s: axis %d is outside [-%d, %d)' % (what, k, rank, rank))
            return k + rank if k < 0 else k
        self.ctx.check_size(k, what)
        k = self.ctx.resolve(k)
        if isinstance(k, int):
            return self.axis_arg(DimsV((k,)), rank, what)
        if k is RAG:
            raise Reject('%s: a ragged axis number' % what)
        if has_v(k):
            raise GaveUp('%s: an axis number that is an existential size' % what)
        # which axis it is decides the output's shape: nothing to go on with
        self.ctx.undec('%s: the axis number is a run-time size' % what)
        raise UndetRank('%s: the axis number is a run-time size' % what)

    def b_reshape(self, x, d):
        """(t a, dims b) -> t b where elements(a) = elements(b)"""
        if not isinstance(x, Tens):
            raise Reject('reshape: a tensor was expected')
        if not isinstance(d, DimsV):
            raise Reject('reshape: a dims value was expected')
        target = self.dims_arg(d, len(d.s), 'reshape target')
        ea = shape_elements(self.ctx, x.s, "reshape: the input's element count")
        eb = shape_elements(self.ctx, target, "reshape: the target's element count")
        self.ctx.check_size(ea, "reshape: the input's element count")
        self.ctx.check_size(eb, "reshape: the target's element count")
        eq_check(self.ctx, ea, eb, 'reshape: element counts')
        return Tens(tuple(target))

    def b_flatten(self, x):
        """(t [n] @ s) -> t [n, elements(s)]"""
        if not isinstance(x, Tens) or len(x.s) < 1:
            raise Reject('flatten needs a tensor of rank >= 1')
        e = shape_elements(self.ctx, x.s[1:], 'flatten')
        self.ctx.check_size(e, 'flatten: the inner element count')
        return Tens((x.s[0], e))

    def b_concat_axis(self, *args):
        """(t p @ [m] @ s, t p @ [n] @ s, dims [k]) -> t p @ [m + n] @ s
        where rank(p) = k; spec 5b: any number (at least two) of tensors,
        the axis last: every tensor p @ [n_i] @ s, the result p @ [n_1 +
        ... + n_k] @ s (the partial sums left to right must fit int64)"""
        if len(args) < 3:
            raise Reject('concat_axis takes at least two tensors and an axis')
        ts, k = args[:-1], args[-1]
        if not all(isinstance(t, Tens) for t in ts):
            raise Reject('concat_axis of a non-tensor')
        a = ts[0]
        kk = self.axis_arg(k, len(a.s), 'concat_axis axis')
        for b in ts[1:]:
            if len(a.s) != len(b.s):
                raise Reject('concat_axis: ranks %d and %d differ' % (len(a.s), len(b.s)))
        for b in ts[1:]:
            for i, (x, y) in enumerate(zip(a.s, b.s)):
                if i != kk:
                    eq_check(self.ctx, x, y, 'concat_axis axis %d' % i)
        n = a.s[kk]
        for b in ts[1:]:
            n = self.size_op('+', n, b.s[kk], 'concat_axis size')
        return Tens(a.s[:kk] + (n,) + a.s[kk + 1:])

    def b_slice(self, x, k, i, j):
        """(t p @ [n] @ s, dims [k], dims [i], dims [j]) -> t p @ [j - i] @ s
        where rank(p) = k, i <= j, j <= n"""
        if not isinstance(x, Tens):
            raise Reject('slice of a non-tensor')
        kk = self.axis_arg(k, len(x.s), 'slice axis')
        lo, = self.dims_arg(i, 1, 'slice start')
        hi, = self.dims_arg(j, 1, 'slice end')
        n = darith(self.ctx, '-', hi, lo)
        self.ctx.check_size(n, 'slice: j - i (the end minus the start)')
        self.ctx.check_size(darith(self.ctx, '-', x.s[kk], hi), 'slice: n - j (the axis minus the end)')
        return Tens(x.s[:kk] + (n,) + x.s[kk + 1:])

    # -- spec 5b: the operators added after real networks
    def b_linear(self, x, w):
        """(t s @ [k], t [k, m]) -> t s @ [m]: any leading axes"""
        if not isinstance(x, Tens) or len(x.s) < 1:
            raise Reject('linear needs a tensor of rank >= 1')
        k, m = self.tensor_arg(w, 2, 'linear weight')
        eq_check(self.ctx, x.s[-1], k, 'linear: the last axis against the weight')
        return Tens(x.s[:-1] + (m,))

    def b_expand(self, x, d):
        """(t a, dims b) -> t b where broadcast(a, b) = b: NumPy's
        broadcast of a with the target b (trailing axes aligned) must be b
        itself: a's rank at most b's, each axis of a 1 or b's size."""
        if not isinstance(x, Tens):
            raise Reject('expand: a tensor was expected')
        if not isinstance(d, DimsV):
            raise Reject('expand: a dims value was expected')
        target = tuple(self.dims_arg(d, len(d.s), 'expand target'))
        bc = bcast_shapes(self.ctx, x.s, target)
        shapes_equal(self.ctx, bc, target, 'expand: broadcast(a, b) = b')
        return Tens(target)

    def b_arange(self, d):
        """(dims [n]) -> i32 [n]"""
        n, = self.dims_arg(d, 1, 'arange')
        return Tens((n,))

    def b_nonzero(self, x):
        """(t [n]) -> i32 [?], the ? at most n"""
        if not isinstance(x, Tens) or len(x.s) != 1:
            raise Reject('nonzero needs a tensor of rank 1')
        return Tens((self.ctx.fresh_dyn(bound=x.s[0]),))


BNAMES = {'+': 'arith', '-': 'arith', '*': 'arith', '/': 'arith', 'min': 'max',
          'log_softmax': 'softmax', 'maxpool2d': 'pool2d', 'avgpool2d': 'pool2d',
          'maxpool1d': 'pool1d', 'avgpool1d': 'pool1d', 'sum': 'reduction',
          'mean': 'reduction', 'amax': 'reduction', 'amin': 'reduction', 'argmax': 'reduction'}
for _n in UNARY:
    BNAMES[_n] = 'unary'
for _n in BROADCASTING:
    BNAMES[_n] = 'arith'


def copy_value(v):
    """The same shapes as new tensors (a result is not its argument)."""
    if isinstance(v, Tens):
        return Tens(v.s)
    if isinstance(v, DimsV):
        return DimsV(v.s)
    if isinstance(v, Tup):
        return Tup([copy_value(x) for x in v.items])
    return v


class _Lazy(object):
    __slots__ = ('interp', 'name')

    def __init__(self, interp, name):
        self.interp, self.name = interp, name


def bind_pattern(p, v, out):
    k = p[0]
    if k == 'pname':
        out.append((p[1], v))
    elif k == 'ptuple':
        if not isinstance(v, Tup) or len(v.items) != len(p[1]):
            raise Reject('a tuple pattern of %d against another value' % len(p[1]))
        for q, x in zip(p[1], v.items):
            bind_pattern(q, x, out)


# ---------------------------------------------------------------- running

class Outcome(object):
    """kind: 'accept', 'reject', 'undecidable', 'undet_rank', 'gave_up'.
    Accepted: the output shapes, the named intermediates, and the largest
    shape of each (max_outputs, max_temps: ints, RAG, or None where no bound
    is known or it exceeds int64)."""

    def __init__(self, kind, reason='', outputs=None, temps=None):
        self.kind, self.reason = kind, reason
        self.outputs = outputs or []
        self.temps = temps or []      # (name, shape, is_output)
        self.max_outputs = []
        self.max_temps = []           # aligned with temps
        self.out_dims = []            # per output: a dims value (no buffer)
        self.dims_names = []          # names bound to dims values (not
                                      # intermediates)
        self.undetermined = False     # a size of an output or intermediate
                                      # that the inputs leave open
        self.count_overflow = False

    def fmt_max(self):
        """The largest shapes, as the selftest writes them: `MAX [5] | v=[5]`,
        `-` for an axis without a bound."""
        def f(s):
            return '[' + ', '.join('-' if d is None else fmt_dim(d) for d in s) + ']'
        r = 'MAX ' + ' '.join(f(o) for o in self.max_outputs)
        if self.max_temps:
            r += ' | ' + ' '.join('%s=%s' % (t[0], f(m)) for t, m in zip(self.temps, self.max_temps))
        return r

    def __repr__(self):
        if self.kind != 'accept':
            return '%s(%s)' % (self.kind.upper(), self.reason)
        dv = self.out_dims or [False] * len(self.outputs)
        s = 'ACCEPT ' + ' '.join(('dims ' if d else '') + fmt_shape(o) for o, d in zip(self.outputs, dv))
        if self.temps:
            s += ' | ' + ' '.join('%s=%s' % (n, fmt_shape(t)) for n, t, _ in self.temps)
        return s


def flatten(v, out):
    if isinstance(v, (Tens, DimsV)):
        out.append(v.s)
    elif isinstance(v, Tup):
        for x in v.items:
            flatten(x, out)
    else:
        raise Reject('a function among the outputs')
    return out


def flatten_values(v, out):
    if isinstance(v, (Tens, DimsV)):
        out.append(v)
    elif isinstance(v, Tup):
        for x in v.items:
            flatten_values(x, out)
    return out


class _DimsLeaf(str):
    """A dims parameter in a structure: equal to 'T' (one input shape, as
    run.py counts them), but built as a DimsV."""
    __slots__ = ()


DIMS = _DimsLeaf('T')


def build_inputs(structure, flat):
    """structure: per parameter 'T' (a tensor), DIMS (a dims value) or a
    list (a tuple)."""
    pos = [0]

    def mk(st):
        if isinstance(st, _DimsLeaf):
            s = flat[pos[0]]
            pos[0] += 1
            if any(d is RAG for d in s):
                raise Reject('a dims input has a negative size')
            return DimsV(s)
        if st == 'T':
            s = flat[pos[0]]
            pos[0] += 1
            return Tens(s)
        return Tup([mk(x) for x in st])
    vals = [mk(st) for st in structure]
    if pos[0] != len(flat):
        raise ValueError('structure/inputs mismatch')
    return vals


def structure_of_type(ty):
    if ty[0] == 'tuple':
        return [structure_of_type(t) for t in ty[1]]
    if ty[0] == 'tensor':
        return DIMS if ty[1] == 'dims' else 'T'
    if ty[0] == 'fun':
        return 'F'
    return 'T'


def has_fun(st):
    if st == 'F':
        return True
    if isinstance(st, list):
        return any(has_fun(x) for x in st)
    return False


def count_overflow(shape, elem=4):
    if any(d == 0 for d in shape):
        return False
    if any(not isinstance(d, int) for d in shape):
        return False
    n = 1
    for d in shape:
        n *= d
    return n > INT64_MAX or n * elem > INT64_MAX


def poly_hi(ctx, poly, atom_hi):
    """The upper bound of a polynomial of sizes (spec 5b, the bound of a
    data-dependent `?`; docs/c-api.md's maxima), term by term: every atom is
    a size >= 0 at most atom_hi(atom) (None: no bound); a term with a
    positive coefficient is at most the coefficient times its atoms' bounds,
    one with a negative coefficient at most 0 (dropped), the constant
    exactly.  An int, or None where a kept term has no bound.  Decision (the
    contract's letter): a term with a factor that has no bound has none,
    even if another factor is at most 0 (`c * ?` with `c <= 0` is surely 0,
    but the rule is the product of the bounds)."""
    hi = poly.get((), 0)
    for m, c in poly.items():
        if not m or c < 0:
            continue
        bs = [atom_hi(a) for a in m]
        if None in bs:
            return None
        t = c
        for b in bs:
            t *= b
        hi += t
    return hi


def largest(ctx, final):
    """upper(d): the largest value a dimension can take whatever the data
    (spec 5b): an int the inputs determine is itself; a `?` (a DYN) is at
    most its bound (nonzero's n, the bound of an expression of them, a
    floor division by a size at least k its numerator's bound over k); a
    bound below 0 is 0; one past int64, or a `?` or an undetermined
    existential with no bound, is None; RAG is RAG."""
    memo = {}

    def fin(d):
        d = final(d)
        if has_v(d):
            # an existential in a bound (nonzero of an extern's free size):
            # what the constraints make it, if they fix it
            try:
                d = ctx.store.determine([d]).get(d, d)
            except GaveUp:
                pass
        return d

    def clip(v):
        if v is None or v > INT64_MAX:
            return None
        return max(v, 0)

    def atom_hi(a):
        if a in memo:
            return memo[a]
        memo[a] = None                 # (no cycles: a bound is older)
        r = None
        src = ctx.dynsrc.get(a) if not a.startswith('v:') else None
        if src is not None and src[0] == 'le':
            r = upper(src[1])
            if r is RAG:
                r = None
        elif src is not None and src[0] == 'div':
            # a floor division by a known size divides the numerator's
            # bound; by a `?` (even `? + 3`, at least 3) it has none (the
            # contract: "a floor division by a known size")
            num = upper(src[1])
            den = fin(src[2])
            if isinstance(num, int) and isinstance(den, int) and den >= 1:
                r = num // den
        memo[a] = r
        return r

    def upper(d):
        d = fin(d)
        if d is RAG:
            return RAG
        if isinstance(d, int):
            return d
        return clip(poly_hi(ctx, d.poly, atom_hi))
    return upper


def final_names(e, out):
    if e[0] == 'var':
        out.add(e[1])
    elif e[0] == 'tuple':
        for x in e[1]:
            final_names(x, out)


def run_function(prog, name, flat, structure, budget=20000, max_rank=8):
    """Run top-level item `name` on the flattened input shapes.  flat: list
    of tuples of dims (ints; -2 is a ragged axis)."""
    ctx = Ctx(budget)
    it = Interp(prog, ctx)
    try:
        shapes = []
        for s in flat:
            dims = []
            for d in s:
                if d == -2:
                    dims.append(RAG)
                elif d < 0:
                    raise Reject('input size %d is negative' % d)
                else:
                    dims.append(d)
            shapes.append(tuple(dims))
        args = build_inputs(structure, shapes)
        f = it.item_value(name)
        record = []
        if isinstance(f, Clo):
            r = it.call_closure(f, args, record)
        else:
            r = it.apply(f, args)
        outs = flatten(r, [])
        store = ctx.store
        store.finish()
        out_ids = set(id(t) for t in flatten_values(r, []))
        # which outputs are dims values (spec 5b, the contract's decision:
        # a dims output is an axon_shape holding its values, with no buffer:
        # its counts are 0)
        out_dims = [isinstance(v, DimsV) for v in flatten_values(r, [])]
        temps = []
        dims_names = []
        for n, v, env in record:
            # a named intermediate is a tensor; a name bound to a dims value
            # (`t = [n, d, n, d];`) is not one: not planned, no counts (the
            # contract's decision)
            if n != '$final' and isinstance(v, Tens):
                temps.append((n, v.s, id(v) in out_ids))
            elif n != '$final' and isinstance(v, DimsV):
                dims_names.append(n)
        # existential sizes in the results: a size the constraints fix is
        # that size, any other is undetermined
        opn = []
        for sh in outs + [t[1] for t in temps]:
            for d in sh:
                d = store.resolve(d)
                if has_v(d) and d not in opn:
                    opn.append(d)
        fixed = store.determine(opn) if opn else {}

        def final(d):
            d = store.resolve(d)
            return fixed.get(d, d)
        outs = [tuple(final(d) for d in sh) for sh in outs]
        temps = [(n, tuple(final(d) for d in sh), al) for n, sh, al in temps]
        for s in outs + [t[1] for t in temps]:
            if len(s) > max_rank:
                raise Reject('a shape of rank %d exceeds AXON_MAX_RANK' % len(s))
            for d in s:
                if isinstance(d, int) and d > INT64_MAX:
                    raise Reject('a size overflows int64')
        if ctx.undecidable:
            return Outcome('undecidable', ctx.undecidable)
        o = Outcome('accept', '', outs, temps)
        o.out_dims = out_dims
        o.dims_names = dims_names
        # a size no input determines (an existential several values fit)
        o.undetermined = any(has_v(d) for sh in outs + [t[1] for t in temps] for d in sh)
        o.count_overflow = any(count_overflow(s) for s, dv in zip(outs, out_dims) if not dv) or \
            any(count_overflow(t[1]) for t in temps)
        upper = largest(ctx, final)
        o.max_outputs = [tuple(upper(d) for d in sh) for sh in outs]
        o.max_temps = [tuple(upper(d) for d in sh) for _, sh, _ in temps]
        return o
    except Reject as e:
        return Outcome('reject', str(e))
    except UndetRank as e:
        if ctx.undecidable:
            return Outcome('undecidable', ctx.undecidable)
        return Outcome('undet_rank', str(e))
    except GaveUp as e:
        return Outcome('gave_up', str(e))
    except RecursionError:
        return Outcome('gave_up', 'recursion')


def structure_from_annotations(prog, name):
    """Parameter structure from the source alone (for programs that
    `axonc check` rejects): a tuple annotation gives a tuple."""
    it = prog.by_name.get(name)
    if it is None:
        return None
    if it.kind == 'extern':
        ty = it.node
        if ty[0] != 'fun':
            return None
        return [structure_of_type(t) for t in ty[1]]
    if it.node[0] != 'fn':
        return None
    out = []
    for pname, pty in it.node[1]:
        out.append(structure_of_type(pty) if pty is not None else 'T')
    return out


SELFTEST = r"""
nn = fn (x : f32 [n * n]) { x };
even = fn (x : f32 [2 * n]) { x };
minus = fn (x : f32 [n - 1]) { x };
sum = fn (x : f32 [a + b]) { x };
last = fn (x : f32 s @ [n], y : f32 s) { y };
split = fn (x : f32 a @ b) { x };
shared = fn (x : f32 [m], y) { g = fn (a : f32 [m]) { a * y }; g(g(x)) };
stmt = fn (x : f32 [n], y) { v : f32 [m] = x + y; v };
res = fn (x) : f32 [2 * k] { x };
extern pad1 : (t [n] @ s) -> t [n + 2] @ s;
extern nz : (t [n]) -> t [?];
extern pick : (t [n * m], t [n]) -> t [m];
extern free : (t [n]) -> t [k, k];
extern anyrank : (t [n]) -> t s;
pads = fn (x) { pad1(pad1(x)) };
dyn = fn (x, y) { nz(x) + y };
dyn2 = fn (x) { v : f32 [m + 1] = nz(x); v };
same = fn (x) { a = free(x); a + a };
cv = fn (x, w) { conv(x, w) };
mp = fn (x) { map(fn (a : f32 [3]) { a }, x) };
red = fn (x) { reduce(+, 0f, x) };
redbad = fn (x, i) { reduce(+, i, x) };
lp = fn (h, x) { loop(h, fn (s, y) { s + y, y * 2f }, x) };
mm = fn (x, y) { matmul(x, y) };
cat = fn (x, y) { concat(x, y) };
ragged = fn (x : f32 [*, n], y : f32 [n]) { x * y };
prefix = fn (x : f32 [(+ n 1)], y : f32 [(* 2 m)]) { concat(x, y) };
alias = fn (x, y) { v = x + y; w = v; u = exp(w); w, u };
tup = fn (p : (f32 [n], f32 [n])) { a, b = p; a * b };
ur = fn (x) { anyrank(x) };
mixed = fn (x : f32 [n], y : f32 [d + 2 - l - n]) { y };
half = fn (x : f32 [n / 2], y : f32 [n]) { x };
prod = fn (x : f32 [n * m], y : f32 [m]) { x };
split2 = fn (x : f32 a @ b, y : f32 b) { x };
split3 = fn (x : f32 a @ [2] @ b, y : f32 [n] @ b) { y };
poly = fn (x : f32 [n * n + n]) { x };
diff = fn (x : f32 [n - m], y : f32 [n + m]) { x };
twoprod = fn (x : f32 [n * m], y : f32 [n * k], z : f32 [m + k]) { x };
stmt2 = fn (x, y) { v : f32 [n, n] = x + y; w : f32 [n] @ s = v; w };
lam = fn (x : f32 [m, k]) { map(fn (r : f32 [k]) { r }, x) };
lam2 = fn (x : f32 [m, k]) { map(fn (r : f32 [m]) { r }, x) };
extern e1 : (t [q]) -> t [k];
extern img : (t [q]) -> t [q, 3, h, w];
ex1 = fn (y, z : f32 [3]) { max(e1(y), z) };
ex2 = fn (z : f32 [d]) { v1 : f32 [h + 1] = e1(z); z };
ex3 = fn (y) { e1(y) };
ex4 = fn (y, z : f32 [n]) { e1(y) + z };
ex5 = fn (y) { e1(y) + e1(y) };
ex6 = fn (y, z : f32 [4]) { a = e1(y); b = e1(y); c = max(a, b); d = max(b, z); a };
ex7 = fn (y, z : f32 [3], w : f32 [n]) { a = e1(y); b = a + z; c = a + w; a };
ex8 = fn (y) { v : f32 [2 * m] = e1(y) + e1(y); w : f32 [l] = v; v };
ex9 = fn (y, z : f32 [3], w : f32 [4]) { a = e1(y); max(a, z) + w };
ex10 = fn (y, z : f32 [3]) { max(ex3(y), z) };
ex11 = fn (x, w) { conv(img(x), w) };
ex12 = fn (y, x) { pick(e1(y), x) };
ex13 = fn (y) { v : f32 s @ [n] = e1(y); concat(v, v) };
ex14 = fn (y, z) { v : f32 [3] = concat(e1(y), e1(z)); v };
ex15 = fn (y, z) { max(nz(y), e1(z)) + y };
ex16 = fn (y, x, z : f32 [3]) { max(pick(e1(y), x), z) };
ex17 = fn (y, z) { max(pad1(e1(y)), z) };
c1 = fn (x, w, s : dims [a], p : dims [b]) { conv1d(x, w, s, p) };
c2 = fn (x, w, s : dims [a, b], p : dims [c, d]) { conv2d(x, w, s, p) };
c2t = fn (x, w, s, p) { conv2d(x, w, s, p) };
stem = fn (x : f32 [n, 3, h, w], k : f32 [64, 3, 7, 7]) { maxpool2d(relu(conv2d(x, k, [2, 2], [3, 3])), [3, 3], [2, 2], [1, 1]) };
gc = fn (x, w, g : dims [g]) { conv2d_grouped(x, w, [1, 1], [1, 1], [2, 2], g) };
gd = fn (x, w, d : dims [a, b]) { conv2d_grouped(x, w, [1, 1], [0, 0], d, [1]) };
dw = fn (x : f32 [n, c, h, w], k : f32 [c, 1, 3, 3]) { conv2d_grouped(x, k, [2, 2], [1, 1], [1, 1], [c]) };
p1 = fn (x, r : dims [r], s : dims [s], p : dims [p]) { maxpool1d(x, r, s, p) };
kws = fn (x : f32 [b, 40, t], k : f32 [64, 40, 5]) { avgpool1d(relu(conv1d(x, k, [1], [2])), [2], [2], [0]) };
gap = fn (x : f32 [b, c, h, w]) { avgpool2d(x, [h, w], [1, 1], [0, 0]) };
p2 = fn (x, r : dims [r, q], s : dims [s, t]) { maxpool2d(x, r, s, [1, 0]) };
up = fn (x : f32 [b, c, h, w], y : f32 [n, 4]) { upsample2d(x, [2, n]) };
pd = fn (x) { upsample2d(pad2d(x, [0, 1, 0, 1]), [2, 2]) };
sz = fn (x : f32 [n]) { x / size([n]) };
szbad = fn (x) { x / size([1, 2]) };
tk = fn (x, k : dims [k]) { topk(x, k) };
tk2 = fn (x : f32 [b, 10]) { topk(x, [3]) };
dv = fn (x : f32 [n, 4]) { [2, n / 2], [] };
dneg = fn (x : f32 [n]) { y = [n - 5]; x };
dp = fn (s : dims [k], x : f32 [k]) { s };
dnt = fn (x) { x + [2] };
dnt2 = fn (s : dims [a]) { exp(s) };
dlam = fn (x : f32 [b, c, h, w]) { f = fn (s : dims [a, a]) { upsample2d(x, s) }; f([h, h]) };
late = fn (x) { y = [n, 2]; v : f32 [n] = x; y };
extern halves : (t [n]) -> (t [m], t [m]) where 2 * m = n, m <= 4;
extern crop : (t [n], dims [k]) -> t [k] where k <= n;
extern grow : (t [n]) -> t [k] where n <= k;
extern sumx : (t [n], t [m]) -> t [k] where k = n + m;
hv = fn (x) { halves(x) };
cr = fn (x, k : dims [j]) { crop(x, k) };
gr = fn (x, y : f32 [3]) { max(grow(x), y) };
gr2 = fn (x) { grow(x) };
sx = fn (x, y) { sumx(x, y) };
bnd = fn (x : f32 [n, 64]) where n <= 512 { relu(x) };
bndc = fn (y) { bnd(y) };
hlv = fn (x : f32 [n, m]) where 2 * m = n, m <= n { x };
lamw = fn (x : f32 [n]) { g = fn (a : f32 [k]) where k <= n { a }; g(x) };
ein = fn (q, k) { einsum("bhnd,bhmd->bhnm", q, k) };
bmm = fn (x, y) { einsum("...nd,...md->...nm", x, y) };
dg = fn (x) { einsum("ii->i", x) };
reds = fn (x) { amin("...n->...", x), mean("...n->...1", x), argmax("...n->...", x) };
mid = fn (x) { einsum("a...b->ba...", x) };
scal = fn (x, s) { einsum("i,->i", x, s) };
spbad = fn (x) { s = "i->i"; einsum(s, x) };
spbad2 = fn (x) { einsum("i->ii", x) };
ownsum = fn (x) { sum("i->", x) };
rs = fn (x, d : dims [a, b]) { reshape(x, d) };
rs1 = fn (x : f32 [b, n, d]) { reshape(x, [b, n * d]) };
rsh = fn (x : f32 [b, n, d], h : dims [h]) { reshape(x, [b, n, h, d / h]) };
rsp = fn (x : f32 s) { reshape(x, [elements(s)]) };
rs3 = fn (x : f32 [n, m, k]) { reshape(x, [n * m * k]) };
rs0 = fn (x) { reshape(x, [1]) };
rs0b = fn (x) { reshape(x, []) };
rsbad = fn (x : f32 [2, 3]) { reshape(x, [7]) };
rsnz = fn (x) { reshape(nonzero(x), [2]) };
ed = fn (x : f32 [n, 4]) { reshape(x, [elements([n, 4])]) };
es = fn (x : f32 s @ [n]) { reshape(x, [elements(s), n]) };
rd = fn (x : f32 s) { [rank(s)] };
fl = fn (x) { flatten(x) };
flc = fn (x : f32 [b, 4, n]) { v = flatten(x); v };
ca = fn (x, y, k : dims [k]) { concat_axis(x, y, k) };
ca0 = fn (x : f32 [n, m], y : f32 [k, m]) { concat_axis(x, y, [0]) };
cal = fn (x, y) { concat_axis(x, y, [1]) };
sl = fn (x, k : dims [k], i : dims [i], j : dims [j]) { slice(x, k, i, j) };
sln = fn (x : f32 [b, n]) { slice(x, [1], [1], [n - 1]) };
nzr = fn (x) { v = nonzero(x); v + v };
nzb = fn (x, y) { nonzero(x) + y };
nzs = fn (x : f32 [n]) { v : i32 [m] = nonzero(x); slice(x, [0], [0], [m]) };
nzm = fn (x, y : f32 [3]) { max(nonzero(x), y) };
ela = fn (x : f32 s, y : f32 [elements(s)]) { y };
elb = fn (y : f32 [elements(s)], x : f32 s) { y };
elu = fn (x : f32 [elements(s)]) { x };
rk = fn (x : f32 a) where rank(a) = 2 { x };
rkd = fn (x : f32 a, k : dims [k]) where rank(a) = k { x };
rku = fn (x : f32 [rank(s)], y : f32 s) { x };
extern flat2 : (t a) -> t [elements(a)];
extern rk2 : (t p @ [n], dims [k]) -> t p where rank(p) = k;
extern same2 : (t a, t b) -> t b where elements(a) = elements(b);
extern anyel : (t [n]) -> t [elements(s)];
fe = fn (x) { flat2(x) };
fr = fn (x, k : dims [k]) { rk2(x, k) };
fs = fn (x, y) { same2(x, y) };
fa = fn (x, y : f32 [4]) { max(anyel(x), y) };
fa2 = fn (x) { anyel(x) };
nzd = fn (x : f32 [n]) { nonzero(x) };
nzrs = fn (x : f32 [n, m]) { v = reshape(x, [n * m]); nonzero(v) };
nzfl = fn (x : f32 s) { nonzero(reshape(flatten(x), [elements(s)])) };
nzc = fn (x, y) { a = nonzero(x); b = nonzero(y); concat_axis(a, b, [0]) };
nzcc = fn (x, y : f32 [m]) { a = f32(nonzero(x)); concat(a, y) };
nzn = fn (x) { a = nonzero(x); nonzero(concat(a, a)) };
extern xgrow : (t [n]) -> t [2 * n + 1];
extern xmul2 : (t [n], t [m]) -> t [n * m];
extern xdec : (t [n], t [m]) -> t [m - n];
extern xhalf : (t [n]) -> t [n / 2];
extern xquot : (t [n], t [m]) -> t [n / m];
extern xthird : (t [n], t [m]) -> t [n / (m + 3)];
nzg = fn (x) { xgrow(nonzero(x)) };
nzp = fn (x, y) { xmul2(nonzero(x), nonzero(y)) };
nzsq = fn (x) { a = nonzero(x); xmul2(a, a) };
nzdec = fn (x, y : i32 [m]) { xdec(nonzero(x), y) };
nzh = fn (x) { xhalf(nonzero(x)) };
nzq = fn (x, y) { xquot(nonzero(x), nonzero(y)) };
nzt = fn (x, y) { xthird(nonzero(x), nonzero(y)) };
nzu = fn (x) { v = nz(x); xgrow(v) };
nzx = fn (x) { v = nz(x); v };
nzk = fn (x) { v = free(x); w = nonzero(reshape(v, [elements([3, 3])])); w };
qrs1 = fn (x : f32 [m, n], ax) { reshape(slice(x, ax, [0], [1]), [n]) };
qrs2 = fn (x : f32 [m, n], ax) { reshape(slice(x, ax, [0], [3]), [3, n]) };
qrs3 = fn (x : f32 [m, n], ax : dims [k], i : dims [i], j : dims [j]) { reshape(slice(x, ax, i, j), [(j - i) * n]) };
qca = fn (x : f32 [n, m], y : f32 [n, m], ax) { v = concat_axis(x, y, ax); reshape(v, [2 * n * m]) };
qcas = fn (x : f32 [n, m], y : f32 [n, m], ax) { v = concat_axis(x, y, ax); slice(v, ax, [0], [n]) };
qak = fn (x : f32 [n, m], y : f32 [k]) { slice(x, [k], [0], [1]) };
qdt = fn (x : f32 [n, d]) { t = [n, d, n, d]; reshape(x, [d, n]) };
qdt2 = fn (x : f32 [n, d]) { t = [d, n]; reshape(x, t), t };
qdt3 = fn (x : f32 [n, d]) { t : dims [a, b] = [d, n / 2]; u = t; reshape(x, [a, 2 * b]) };
qdn3 = fn (x : f32 [n]) { [n, n, n] };
qab = fn (g : f32 [a + 1], x : f32 [a * b + b]) { reshape(x, [a + 1, b]) };
qab2 = fn (g : f32 [a], x : f32 [(a + 1) * b]) { reshape(x, [b, a + 1]) };
qh21 = fn (x : f32 [n / 2 + 1]) { x };
qh21b = fn (x : f32 [n / 2 + 1], y : f32 [n]) { x };
qo21 = fn (x : f32 [2 * n + 1]) { slice(x, [0], [0], [n]) };
qpr = fn (x : f32 [b, c, l], r, s) { reshape(maxpool1d(x, r, s, [0]), [b, c * l]) };
qur = fn (x : f32 [b, c, h, w], f) { reshape(upsample2d(x, f), [b, c, 2 * h, 2 * w]) };
qtkr = fn (x : f32 [b, n], k) { v, i = topk(x, k); reshape(v, [b * n]) };
qrk = fn (x : f32 a, k : dims [k]) where rank(a) = k + 1 { slice(x, k, [0], [1]) };
extern erk : (t p @ [n], dims [k]) -> t p where rank(p) = k;
qerk = fn (x, k) { erk(x, k) };
// spec 5b, the operators added after real networks: conv1d_grouped,
// linear, expand, concat_axis of any number of tensors, arange, negative
// axis arguments; `%` in dimension expressions (spec section 4)
g1 = fn (x, w, g : dims [g]) { conv1d_grouped(x, w, [1], [1], [1], g) };
g1d = fn (x, w, s : dims [s], p : dims [p], d : dims [d], g : dims [g]) { conv1d_grouped(x, w, s, p, d, g) };
g1w = fn (x : f32 [b, c, l], k : f32 [c, 1, 3]) { conv1d_grouped(x, k, [2], [1], [1], [c]) };
lin = fn (x, w) { linear(x, w) };
linm = fn (x : f32 s @ [k], w : f32 [k, m]) : f32 s @ [m] { v = linear(x, w); v };
xp = fn (x, d) { expand(x, d) };
xpn = fn (x : f32 [1, m]) { expand(x, [3, m]) };
xpc = fn (x : f32 [b, 1, d]) { v = expand(x, [b, 4, d]); v };
xpz = fn (x) { expand(f32(nonzero(x)), [1]) };
xpe = fn (y, z : f32 [5]) { v = expand(e1(y), [5]); v + z };
ar = fn (n : dims [n]) { arange(n) };
arx = fn (x : f32 [n]) { x + f32(arange([n])) };
c3 = fn (a, b, c) { concat_axis(a, b, c, [1]) };
c4 = fn (a, b, c, d) { concat_axis(a, b, c, d, [-1]) };
cneg = fn (a, b) { concat_axis(a, b, [-2]) };
ck = fn (a, b, c, k : dims [k]) { concat_axis(a, b, c, k) };
c1t = fn (a) { concat_axis(a, [0]) };
cmix = fn (a, b) { concat_axis(a, [0], b, [0]) };
slneg = fn (x) { slice(x, [-1], [0], [1]) };
slneg2 = fn (x : f32 [n, m]) { slice(x, [-2], [1], [n]) };
slnn = fn (x : f32 [n, m]) { slice(x, [n - 4], [0], [1]) };
nlet = fn (x) { ax = [-1]; concat_axis(x, x, ax) };
nres = fn (x) { x, [-1] };
nbound = fn (x) { slice(x, [0], [0 - 1], [1]) };
nexp = fn (x) { expand(x, [-1]) };
ncall = fn (x) { g = fn (a, k) { concat_axis(a, a, k) }; g(x, [-1]) };
mod = fn (x : f32 [d], h : dims [h]) where d % h = 0 { reshape(x, [h, d / h]) };
modx = fn (x : f32 [d], y : f32 [d % 4]) { y };
modn = fn (x : f32 [n], y : f32 [(n - 5) % 3]) { y };
nz3 = fn (x, y, z) { concat_axis(f32(nonzero(x)), f32(nonzero(y)), f32(nonzero(z)), [-1]) };
"""

# spec section 2: imports.  Each case: the files (the first is the program;
# a name ending in / is a directory given as `-I`), then (function, inputs,
# expected) rows, or 'ERROR' where the program itself is an error.
SELFTEST_IMPORTS = [
    # a helper file next to the program; its extern and functions visible
    ({'main.axon': 'import "blocks.axon";\nm1 = fn (x) { dbl(x) };\nm2 = fn (x, w) { proj(he(x), w) };',
      'blocks.axon': 'extern he : (t [n]) -> t [n, 2];\ndbl = fn (x : f32 [n]) { concat(x, x) };\n'
                     'proj = fn (x, w) { linear(x, w) };'},
     [('m1', ['[3]'], 'ACCEPT [6]'), ('m1', ['[3, 2]'], 'REJECT'), ('$own', [], 'm1 m2'),
      ('m2', ['[3]', '[2, 5]'], 'ACCEPT [3, 5]'), ('m2', ['[3]', '[3, 5]'], 'REJECT')]),
    # imported twice (directly and through blocks): counts once; what an
    # imported file imports is visible too (as if defined before it)
    ({'main.axon': 'import "blocks.axon";\nimport "base.axon";\nm = fn (x) { one(dbl(x)) };',
      'blocks.axon': 'import "base.axon";\ndbl = fn (x) { one(concat(x, x)) };',
      'base.axon': 'one = fn (x : f32 [n]) { x + x };'},
     [('m', ['[2]'], 'ACCEPT [4]'), ('dbl', ['[2]'], 'ACCEPT [4]'), ('$own', [], 'm')]),
    ({'main.axon': 'import "blocks.axon";\nm = fn (x) { one(x) };',
      'blocks.axon': 'import "base.axon";\ndbl = fn (x) { one(concat(x, x)) };',
      'base.axon': 'one = fn (x : f32 [n]) { x + x };'},
     [('m', ['[2]'], 'ACCEPT [2]')]),
    # relative to the importing file first, then each -I in order
    ({'main.axon': 'import "util.axon";\nm = fn (x) { u(x) };',
      'lib/': '', 'lib/util.axon': 'u = fn (x : f32 [2]) { x };',
      'lib2/': '', 'lib2/util.axon': 'u = fn (x : f32 [3]) { x };'},
     [('m', ['[2]'], 'ACCEPT [2]'), ('m', ['[3]'], 'REJECT')]),
    ({'main.axon': 'import "util.axon";\nm = fn (x) { u(x) };',
      'util.axon': 'u = fn (x : f32 [4]) { x };',
      'lib/': '', 'lib/util.axon': 'u = fn (x : f32 [2]) { x };'},
     [('m', ['[4]'], 'ACCEPT [4]'), ('m', ['[2]'], 'REJECT')]),
    # a helper's bare main fn takes its file's stem
    ({'main.axon': 'import "blk.axon";\nm = fn (x) { blk(x) };',
      'blk.axon': 'fn (x : f32 [n, 2]) { transpose(x) }'},
     [('m', ['[3, 2]'], 'ACCEPT [2, 3]')]),
    # errors: a missing file, a cycle, a name in two files, an import after
    # an item
    ({'main.axon': 'import "nothere.axon";\nm = fn (x) { x };'}, 'ERROR'),
    ({'main.axon': 'import "a.axon";\nm = fn (x) { x };', 'a.axon': 'import "b.axon";\na = fn (x) { x };',
      'b.axon': 'import "a.axon";\nb = fn (x) { x };'}, 'ERROR'),
    ({'main.axon': 'import "main.axon";\nm = fn (x) { x };'}, 'ERROR'),
    ({'main.axon': 'import "a.axon";\ndbl = fn (x) { x };', 'a.axon': 'dbl = fn (x) { concat(x, x) };'}, 'ERROR'),
    ({'main.axon': 'import "a.axon";\nimport "b.axon";\nm = fn (x) { x };', 'a.axon': 'h = fn (x) { x };',
      'b.axon': 'h = fn (x) { x };'}, 'ERROR'),
    ({'main.axon': 'm = fn (x) { x };\nimport "a.axon";', 'a.axon': 'h = fn (x) { x };'}, 'ERROR'),
]

# The largest shapes (spec 5b, the upper bound of a data-dependent `?`):
# accepted cases, `ACCEPT ... MAX ...` (`-`: no bound, or past int64).
SELFTEST_MAX_CASES = [
    ('nzr', ['[5]'], 'ACCEPT [?] | v=[?] MAX [5] | v=[5]'),
    ('nzd', ['[7]'], 'ACCEPT [?] MAX [7]'), ('nzd', ['[0]'], 'ACCEPT [?] MAX [0]'),
    ('nzd', ['[9223372036854775807]'], 'ACCEPT [?] MAX [9223372036854775807]'),
    ('nzs', ['[4]'], 'ACCEPT [?] | v=[?] MAX [4] | v=[4]'),
    ('nzb', ['[5]', '[1]'], 'ACCEPT [?] MAX [5]'), ('nzb', ['[5]', '[1, 1]'], 'ACCEPT [1, ?] MAX [1, 5]'),
    # nonzero of a reshape, of a flatten, of a concat of nonzeros
    ('nzrs', ['[3, 4]'], 'ACCEPT [?] | v=[12] MAX [12] | v=[12]'),
    ('nzrs', ['[3, 0]'], 'ACCEPT [?] | v=[0] MAX [0] | v=[0]'),
    ('nzfl', ['[2, 3, 4]'], 'ACCEPT [?] MAX [24]'), ('nzfl', ['[]'], 'REJECT'),
    # nonzero of an extern's free size that a reshape fixes (k * k = 9)
    ('nzk', ['[4]'], 'ACCEPT [?] | v=[3, 3] w=[?] MAX [9] | v=[3, 3] w=[9]'),
    ('nzn', ['[6]'], 'ACCEPT [?] | a=[?] MAX [12] | a=[6]'),
    # sums: concat_axis of two nonzeros, concat with a known size
    ('nzc', ['[3]', '[4]'], 'ACCEPT [?] | a=[?] b=[?] MAX [7] | a=[3] b=[4]'),
    ('nzc', ['[4611686018427387904]', '[4611686018427387903]'],
     'ACCEPT [?] | a=[?] b=[?] MAX [9223372036854775807] | a=[4611686018427387904] b=[4611686018427387903]'),
    ('nzc', ['[4611686018427387904]', '[4611686018427387904]'],
     'ACCEPT [?] | a=[?] b=[?] MAX [-] | a=[4611686018427387904] b=[4611686018427387904]'),
    ('nzcc', ['[3]', '[5]'], 'ACCEPT [?] | a=[?] MAX [8] | a=[3]'),
    # a dims output's largest shape is its values (spec 5b, the contract's
    # decision; its counts are 0, run.py)
    ('qdn3', ['[4]'], 'ACCEPT dims [4, 4, 4] MAX [4, 4, 4]'),
    ('qdt2', ['[2, 3]'], 'ACCEPT [3, 2] dims [3, 2] MAX [3, 2] [3, 2]'),
    # arithmetic of a `?`: 2 * ? + 1, products, a minus (at most 0), floor
    # divisions (by a constant; by a `?` or `? + 3`: no bound)
    ('nzg', ['[5]'], 'ACCEPT [?] MAX [11]'), ('nzg', ['[0]'], 'ACCEPT [?] MAX [1]'),
    ('nzg', ['[4611686018427387904]'], 'ACCEPT [?] MAX [-]'),
    ('nzp', ['[3]', '[4]'], 'ACCEPT [?] MAX [12]'), ('nzp', ['[3]', '[0]'], 'ACCEPT [?] MAX [0]'),
    ('nzp', ['[4294967296]', '[4294967296]'], 'ACCEPT [?] MAX [-]'),
    ('nzp', ['[4294967296]', '[2147483647]'], 'ACCEPT [?] MAX [9223372032559808512]'),
    ('nzsq', ['[6]'], 'ACCEPT [?] | a=[?] MAX [36] | a=[6]'),
    ('nzdec', ['[3]', '[5]'], 'ACCEPT [?] MAX [5]'), ('nzdec', ['[6]', '[5]'], 'UNDECIDABLE'),
    ('nzh', ['[7]'], 'ACCEPT [?] MAX [3]'), ('nzh', ['[1]'], 'ACCEPT [?] MAX [0]'),
    ('nzq', ['[7]', '[2]'], 'ACCEPT [?] MAX [-]'),
    ('nzt', ['[7]', '[2]'], 'ACCEPT [?] MAX [-]'),
    # a `?` without a bound (an extern's), an expression of one
    ('nzx', ['[4]'], 'ACCEPT [?] | v=[?] MAX [-] | v=[-]'),
    ('nzu', ['[4]'], 'ACCEPT [?] | v=[?] MAX [-] | v=[-]'),
    # determined sizes: the largest shape is the shape
    ('ca0', ['[2, 3]', '[4, 3]'], 'ACCEPT [6, 3] MAX [6, 3]'),
    # spec 5b's additions: concat_axis of three nonzeros, expand, arange
    ('nz3', ['[3]', '[4]', '[5]'], 'ACCEPT [?] MAX [12]'),
    ('nz3', ['[3]', '[4]', '[0]'], 'ACCEPT [?] MAX [7]'),
    ('xpc', ['[2, 1, 3]'], 'ACCEPT [2, 4, 3] | v=[2, 4, 3] MAX [2, 4, 3] | v=[2, 4, 3]'),
    ('ar', ['dims [6]'], 'ACCEPT [6] MAX [6]'),
    ('flc', ['[2, 4, 3]'], 'ACCEPT [2, 12] | v=[2, 12] MAX [2, 12] | v=[2, 12]'),
]

SELFTEST_CASES = [
    # spec 5b: conv1d_grouped, as conv2d_grouped with one spatial axis
    ('g1', ['[1, 8, 5]', '[16, 2, 3]', '[4]'], 'ACCEPT [1, 16, 5]'),
    ('g1', ['[1, 8, 5]', '[16, 2, 3]', '[3]'], 'REJECT'),
    ('g1', ['[1, 8, 5]', '[10, 2, 3]', '[4]'], 'REJECT'),
    ('g1', ['[1, 8, 5]', '[16, 2, 0]', '[4]'], 'REJECT'),
    ('g1', ['[1, 8, 0]', '[16, 2, 3]', '[4]'], 'REJECT'),
    ('g1', ['[1, 8, 1]', '[16, 2, 3]', '[4]'], 'ACCEPT [1, 16, 1]'),
    ('g1', ['[1, 8, 5, 5]', '[16, 2, 3, 3]', '[4]'], 'REJECT'),
    ('g1', ['[1, 0, 3]', '[0, 5, 1]', '[0]'], 'ACCEPT [1, 0, 5]'),
    ('g1', ['[1, 2, 3]', '[0, 5, 1]', '[0]'], 'REJECT'),
    ('g1', ['[0, 4, 3]', '[4, 1, 1]', '[4]'], 'ACCEPT [0, 4, 5]'),
    ('g1d', ['[2, 6, 10]', '[6, 2, 3]', '[2]', '[0]', '[2]', '[3]'], 'ACCEPT [2, 6, 3]'),
    ('g1d', ['[2, 6, 10]', '[6, 2, 3]', '[1]', '[0]', '[0]', '[3]'], 'ACCEPT [2, 6, 10]'),
    ('g1d', ['[2, 6, 10]', '[6, 2, 3]', '[0]', '[0]', '[1]', '[3]'], 'REJECT'),
    ('g1d', ['[2, 6, 4]', '[6, 2, 3]', '[1]', '[0]', '[2]', '[3]'], 'REJECT'),
    ('g1d', ['[2, 6, 4]', '[6, 2, 3]', '[1]', '[1]', '[2]', '[3]'], 'ACCEPT [2, 6, 2]'),
    ('g1d', ['[1, 1, 4611686018427387905]', '[1, 1, 2]', '[1]', '[0]', '[4611686018427387904]', '[1]'],
     'ACCEPT [1, 1, 1]'),
    ('g1d', ['[1, 1, 5]', '[1, 1, 2]', '[1]', '[4611686018427387904]', '[1]', '[1]'], 'REJECT'),
    ('g1w', ['[2, 4, 7]', '[4, 1, 3]'], 'ACCEPT [2, 4, 4]'), ('g1w', ['[2, 4, 7]', '[3, 1, 3]'], 'REJECT'),
    ('g1w', ['[2, 4, 7]', '[4, 2, 3]'], 'REJECT'),
    # linear: any leading axes, the weight's rank exactly 2
    ('lin', ['[2, 3, 4]', '[4, 5]'], 'ACCEPT [2, 3, 5]'), ('lin', ['[4]', '[4, 5]'], 'ACCEPT [5]'),
    ('lin', ['[2, 3, 4]', '[3, 5]'], 'REJECT'), ('lin', ['[]', '[1, 5]'], 'REJECT'),
    ('lin', ['[2, 4]', '[2, 4, 5]'], 'REJECT'), ('lin', ['[2, 4]', '[4]'], 'REJECT'),
    ('lin', ['[2, 0]', '[0, 3]'], 'ACCEPT [2, 3]'), ('lin', ['[2, 1]', '[3, 1]'], 'REJECT'),
    ('lin', ['[7, 1, 2, 3, 1, 4]', '[4, 0]'], 'ACCEPT [7, 1, 2, 3, 1, 0]'),
    ('linm', ['[2, 3]', '[3, 4]'], 'ACCEPT [2, 4] | v=[2, 4]'),
    # expand: broadcast(a, b) = b: a size 1 (or a missing axis) to any
    # size, 0 included; any other size only to itself
    ('xp', ['[1]', 'dims [5]'], 'ACCEPT [5]'), ('xp', ['[1, 3]', 'dims [4, 3]'], 'ACCEPT [4, 3]'),
    ('xp', ['[3]', 'dims [2, 3]'], 'ACCEPT [2, 3]'), ('xp', ['[]', 'dims [2, 3]'], 'ACCEPT [2, 3]'),
    ('xp', ['[3]', 'dims [5]'], 'REJECT'), ('xp', ['[3]', 'dims [1]'], 'REJECT'),
    ('xp', ['[2, 3]', 'dims [3]'], 'REJECT'), ('xp', ['[1]', 'dims [0]'], 'ACCEPT [0]'),
    ('xp', ['[0]', 'dims [1]'], 'REJECT'), ('xp', ['[0]', 'dims [0]'], 'ACCEPT [0]'),
    ('xp', ['[1, 1]', 'dims []'], 'REJECT'), ('xp', ['[]', 'dims []'], 'ACCEPT []'),
    ('xp', ['[2, 3]', 'dims [2, 3]'], 'ACCEPT [2, 3]'), ('xp', ['[3, 1]', 'dims [1, 3, 4]'], 'ACCEPT [1, 3, 4]'),
    ('xp', ['[1]', 'dims [-1]'], 'REJECT'),
    ('xpn', ['[1, 5]'], 'ACCEPT [3, 5]'), ('xpn', ['[2, 5]'], 'REJECT'),
    ('xpc', ['[2, 1, 3]'], 'ACCEPT [2, 4, 3] | v=[2, 4, 3]'),
    ('xpz', ['[0]'], 'REJECT'), ('xpz', ['[1]'], 'UNDECIDABLE'), ('xpz', ['[4]'], 'UNDECIDABLE'),
    ('xpe', ['[2]', '[5]'], 'ACCEPT [5] | v=[5]'),
    # arange
    ('ar', ['dims [4]'], 'ACCEPT [4]'), ('ar', ['dims [0]'], 'ACCEPT [0]'), ('ar', ['dims [-1]'], 'REJECT'),
    ('ar', ['dims [2, 2]'], 'REJECT'), ('arx', ['[3]'], 'ACCEPT [3]'), ('arx', ['[0]'], 'ACCEPT [0]'),
    # concat_axis of three and four tensors, negative axes
    ('c3', ['[2, 1]', '[2, 2]', '[2, 3]'], 'ACCEPT [2, 6]'), ('c3', ['[2, 1]', '[2, 2]', '[3, 3]'], 'REJECT'),
    ('c3', ['[2, 1]', '[2, 0]', '[2, 0]'], 'ACCEPT [2, 1]'), ('c3', ['[2, 1]', '[2, 2]', '[2]'], 'REJECT'),
    ('c3', ['[2]', '[2]', '[2]'], 'REJECT'),
    ('c3', ['[1, 4611686018427387904]', '[1, 4611686018427387903]', '[1, 1]'], 'REJECT'),
    ('c3', ['[1, 4611686018427387904]', '[1, 4611686018427387902]', '[1, 1]'], 'ACCEPT [1, 9223372036854775807]'),
    ('c4', ['[1, 2]', '[1, 3]', '[1, 0]', '[1, 1]'], 'ACCEPT [1, 6]'),
    ('c4', ['[4]', '[1]', '[0]', '[2]'], 'ACCEPT [7]'), ('c4', ['[1, 2]', '[1, 3]', '[2, 0]', '[1, 1]'], 'REJECT'),
    ('c4', ['[]', '[]', '[]', '[]'], 'REJECT'),
    ('cneg', ['[2, 3]', '[4, 3]'], 'ACCEPT [6, 3]'), ('cneg', ['[5, 2, 3]', '[5, 4, 3]'], 'ACCEPT [5, 6, 3]'),
    ('cneg', ['[2]', '[3]'], 'REJECT'), ('cneg', ['[2, 3]', '[2, 4]'], 'REJECT'),
    ('ck', ['[2, 1]', '[2, 2]', '[2, 3]', 'dims [1]'], 'ACCEPT [2, 6]'),
    ('ck', ['[2, 1]', '[2, 2]', '[2, 3]', 'dims [2]'], 'REJECT'),
    ('ck', ['[2, 1]', '[2, 2]', '[2, 3]', 'dims [-1]'], 'REJECT'),
    ('c1t', ['[3]'], 'REJECT'), ('cmix', ['[3]', '[3]'], 'REJECT'),
    ('slneg', ['[4, 5]'], 'ACCEPT [4, 1]'), ('slneg', ['[4, 0]'], 'REJECT'), ('slneg', ['[]'], 'REJECT'),
    ('slneg', ['[4]'], 'ACCEPT [1]'),
    ('slneg2', ['[4, 5]'], 'ACCEPT [3, 5]'), ('slneg2', ['[0, 5]'], 'REJECT'),
    # an axis argument of the item's sizes may be negative too
    ('slnn', ['[3, 5]'], 'ACCEPT [3, 1]'), ('slnn', ['[2, 5]'], 'ACCEPT [1, 5]'),
    ('slnn', ['[5, 5]'], 'ACCEPT [5, 1]'), ('slnn', ['[6, 5]'], 'REJECT'), ('slnn', ['[1, 5]'], 'REJECT'),
    # a dims value with a negative entry anywhere but an axis argument
    ('nlet', ['[2]'], 'REJECT'), ('nres', ['[2]'], 'REJECT'), ('nbound', ['[3]'], 'REJECT'),
    ('nexp', ['[1]'], 'REJECT'), ('ncall', ['[2]'], 'REJECT'),
    # `%`: the remainder of the floored division
    ('mod', ['[6]', 'dims [3]'], 'ACCEPT [3, 2]'), ('mod', ['[7]', 'dims [3]'], 'REJECT'),
    ('mod', ['[0]', 'dims [3]'], 'ACCEPT [3, 0]'), ('mod', ['[6]', 'dims [0]'], 'REJECT'),
    ('modx', ['[7]', '[3]'], 'ACCEPT [3]'), ('modx', ['[7]', '[2]'], 'REJECT'), ('modx', ['[8]', '[0]'], 'ACCEPT [0]'),
    ('modn', ['[3]', '[1]'], 'ACCEPT [1]'), ('modn', ['[3]', '[2]'], 'REJECT'), ('modn', ['[7]', '[2]'], 'ACCEPT [2]'),
    ('nn', ['[16]'], 'ACCEPT [16]'), ('nn', ['[5]'], 'REJECT'), ('nn', ['[0]'], 'ACCEPT [0]'),
    ('even', ['[6]'], 'ACCEPT [6]'), ('even', ['[7]'], 'REJECT'),
    ('minus', ['[3]'], 'ACCEPT [3]'), ('minus', ['[0]'], 'ACCEPT [0]'), ('minus', ['[-1]'], 'REJECT'),
    ('sum', ['[5]'], 'ACCEPT [5]'), ('sum', ['[0]'], 'ACCEPT [0]'),
    ('last', ['[2, 3, 4]', '[2, 3]'], 'ACCEPT [2, 3]'), ('last', ['[2, 3, 4]', '[3]'], 'REJECT'),
    ('split', ['[1, 2, 3]'], 'ACCEPT [1, 2, 3]'),
    ('shared', ['[3]', '[1]'], 'ACCEPT [3]'), ('shared', ['[1]', '[2]'], 'REJECT'),
    ('stmt', ['[3]', '[1]'], 'ACCEPT [3] | v=[3]'), ('stmt', ['[3]', '[2, 3]'], 'REJECT'),
    ('res', ['[4]'], 'ACCEPT [4]'), ('res', ['[5]'], 'REJECT'),
    ('pads', ['[1, 2]'], 'ACCEPT [5, 2]'), ('pads', ['[]'], 'REJECT'),
    ('pick', ['[6]', '[2]'], 'ACCEPT [3]'), ('pick', ['[6]', '[4]'], 'REJECT'),
    ('pick', ['[0]', '[0]'], 'ACCEPT [?]'), ('pick', ['[6]', '[0]'], 'REJECT'),
    ('dyn', ['[3]', '[1]'], 'ACCEPT [?]'), ('dyn', ['[3]', '[4]'], 'UNDECIDABLE'),
    ('dyn', ['[3]', '[2, 1]'], 'ACCEPT [2, ?]'), ('dyn2', ['[3]'], 'UNDECIDABLE'),
    ('same', ['[3]'], 'ACCEPT [?, ?] | a=[?, ?]'),
    ('cv', ['[1, 3, 5, 5]', '[2, 3, 3, 3]'], 'ACCEPT [1, 2, 3, 3]'),
    ('cv', ['[1, 3, 1, 5]', '[2, 3, 3, 3]'], 'REJECT'), ('cv', ['[1, 3, 2, 5]', '[2, 3, 3, 3]'], 'ACCEPT [1, 2, 0, 3]'), ('cv', ['[1, 3, 5, 5]', '[2, 4, 3, 3]'], 'REJECT'),
    ('mp', ['[0, 3]'], 'ACCEPT [0, 3]'), ('mp', ['[0, 2]'], 'REJECT'),
    ('red', ['[4, 2]'], 'ACCEPT [2]'), ('red', ['[]'], 'REJECT'), ('redbad', ['[4, 2]', '[2]'], 'REJECT'),
    ('lp', ['[2]', '[5, 2]'], 'ACCEPT [2] [5, 2]'), ('lp', ['[1]', '[5, 2]'], 'REJECT'),
    ('mm', ['[2, 3]', '[3, 4]'], 'ACCEPT [2, 4]'), ('mm', ['[5, 2, 3]', '[1, 3, 4]'], 'REJECT'),
    ('mm', ['[2, 3]', '[5, 3, 4]'], 'REJECT'),
    ('cat', ['[2, 3]', '[4, 3]'], 'ACCEPT [6, 3]'), ('cat', ['[2, 3]', '[4, 1]'], 'REJECT'),
    ('ragged', ['[10, -2, 3]', '[3]'], 'REJECT'), ('ragged', ['[-2, 3]', '[3]'], 'ACCEPT [*, 3]'),
    ('ragged', ['[4, 3]', '[3]'], 'REJECT'),
    ('prefix', ['[3]', '[4]'], 'ACCEPT [7]'), ('prefix', ['[0]', '[4]'], 'REJECT'),
    ('alias', ['[3]', '[1]'], 'ACCEPT [3] [3] | v=[3] w=[3] u=[3]'),
    ('tup', ['[3]', '[3]'], 'ACCEPT [3] | a=[3] b=[3]'), ('tup', ['[3]', '[2]'], 'REJECT'),
    ('ur', ['[3]'], 'UNDET_RANK'),
    ('mixed', ['[6]', '[3]'], 'ACCEPT [3]'),
    ('half', ['[11]', '[22]'], 'ACCEPT [11]'), ('half', ['[11]', '[23]'], 'ACCEPT [11]'),
    ('half', ['[11]', '[24]'], 'REJECT'), ('half', ['[11]', '[]'], 'REJECT'),
    ('prod', ['[12]', '[4]'], 'ACCEPT [12]'), ('prod', ['[12]', '[5]'], 'REJECT'),
    ('prod', ['[0]', '[5]'], 'ACCEPT [0]'), ('prod', ['[7]', '[0]'], 'REJECT'),
    ('split2', ['[1, 2, 3]', '[2, 3]'], 'ACCEPT [1, 2, 3]'), ('split2', ['[1, 2, 3]', '[2]'], 'REJECT'),
    ('split3', ['[4, 2, 5]', '[7, 5]'], 'ACCEPT [7, 5]'), ('split3', ['[2, 4, 5]', '[7, 5]'], 'REJECT'),
    ('split3', ['[2, 2, 5]', '[7, 2, 5]'], 'ACCEPT [7, 2, 5]'), ('split3', ['[2, 2, 5]', '[]'], 'REJECT'),
    ('poly', ['[12]'], 'ACCEPT [12]'), ('poly', ['[13]'], 'REJECT'), ('poly', ['[0]'], 'ACCEPT [0]'),
    ('diff', ['[2]', '[8]'], 'ACCEPT [2]'), ('diff', ['[3]', '[8]'], 'REJECT'), ('diff', ['[9]', '[8]'], 'REJECT'),
    ('twoprod', ['[6]', '[10]', '[8]'], 'ACCEPT [6]'), ('twoprod', ['[6]', '[10]', '[16]'], 'ACCEPT [6]'),
    ('twoprod', ['[6]', '[10]', '[5]'], 'REJECT'),
    ('twoprod', ['[0]', '[0]', '[9]'], 'ACCEPT [0]'),
    ('stmt2', ['[3, 1]', '[3]'], 'ACCEPT [3, 3] | v=[3, 3] w=[3, 3]'), ('stmt2', ['[3, 1]', '[1]'], 'REJECT'),
    ('lam', ['[0, 4]'], 'ACCEPT [0, 4]'), ('lam2', ['[4, 4]'], 'ACCEPT [4, 4]'), ('lam2', ['[3, 4]'], 'REJECT'),
    # an extern's result variable that no parameter binds (k of e1) is the
    # caller's choice: an existential, fixed by what the program asks of it
    ('ex1', ['[5]', '[3]'], 'ACCEPT [3]'), ('ex1', ['[5]', '[]'], 'REJECT'),
    ('ex2', ['[6]'], 'ACCEPT [6] | v1=[?]'),
    ('ex3', ['[6]'], 'ACCEPT [?]'),
    ('ex4', ['[6]', '[4]'], 'ACCEPT [4]'), ('ex4', ['[6]', '[1]'], 'ACCEPT [?]'),
    ('ex4', ['[6]', '[0]'], 'ACCEPT [0]'),
    ('ex5', ['[2]'], 'ACCEPT [?]'),
    ('ex6', ['[2]', '[4]'], 'ACCEPT [4] | a=[4] b=[4] c=[4] d=[4]'),
    ('ex7', ['[1]', '[3]', '[2]'], 'ACCEPT [1] | a=[1] b=[3] c=[2]'),
    ('ex7', ['[1]', '[3]', '[3]'], 'ACCEPT [?] | a=[?] b=[3] c=[3]'),
    ('ex8', ['[1]', ], 'ACCEPT [?] | v=[?] w=[?]'),
    ('ex9', ['[1]', '[3]', '[4]'], 'REJECT'),
    ('ex10', ['[1]', '[3]'], 'ACCEPT [3]'),
    ('ex11', ['[2]', '[4, 3, 3, 3]'], 'ACCEPT [2, 4, ?, ?]'), ('ex11', ['[2]', '[4, 2, 3, 3]'], 'REJECT'),
    ('ex12', ['[1]', '[2]'], 'ACCEPT [?]'), ('ex12', ['[1]', '[0]'], 'ACCEPT [?]'),
    ('ex13', ['[1]'], 'ACCEPT [?] | v=[?]'),
    ('ex14', ['[1]', '[1]'], 'ACCEPT [3] | v=[3]'),
    # `?` stays a run-time size: k = the DYN fits, the broadcast needs it
    ('ex15', ['[2]', '[2]'], 'UNDECIDABLE'), ('ex15', ['[2]', '[2, 2]'], 'REJECT'),
    # a variable that a parameter binds stays what the arguments make it: tied
    # to the existential (2 * m = k), an existential; several values fitting
    # concrete arguments (0 * m = k forces k = 0, any m), an existential too
    ('ex16', ['[1]', '[2]', '[3]'], 'ACCEPT [3]'), ('ex16', ['[1]', '[0]', '[3]'], 'ACCEPT [3]'),
    ('ex17', ['[1]', '[5]'], 'ACCEPT [5]'), ('ex17', ['[1]', '[1]'], 'REJECT'),
    # spec section 5b: dims values and the operators that take them; a dims
    # parameter is given as a shape whose sizes are the values
    ('c1', ['[2, 3, 10]', '[4, 3, 3]', '[2]', '[1]'], 'ACCEPT [2, 4, 5]'),
    ('c1', ['[2, 3, 10]', '[4, 2, 3]', '[2]', '[1]'], 'REJECT'),
    ('c1', ['[2, 3, 10]', '[4, 3, 3]', '[0]', '[1]'], 'REJECT'),
    ('c1', ['[2, 3, 2]', '[4, 3, 5]', '[1]', '[1]'], 'REJECT'),
    ('c1', ['[2, 3, 2]', '[4, 3, 4]', '[1]', '[1]'], 'ACCEPT [2, 4, 1]'),
    ('c1', ['[2, 3, 10]', '[4, 3, 3]', '[1, 1]', '[1]'], 'REJECT'),
    ('c1', ['[2, 3, 10]', '[4, 3, 3]', '[1]', '[-1]'], 'REJECT'),
    ('c1', ['[2, 3, 10]', '[4, 3, 3]', '[1]', '[4611686018427387904]'], 'REJECT'),
    ('c2', ['[1, 3, 224, 224]', '[64, 3, 7, 7]', '[2, 2]', '[3, 3]'], 'ACCEPT [1, 64, 112, 112]'),
    ('c2', ['[1, 3, 8, 8]', '[2, 3, 3, 3]', '[1, 0]', '[0, 0]'], 'REJECT'),
    ('c2', ['[1, 3, 2, 2]', '[1, 3, 5, 5]', '[1, 1]', '[1, 1]'], 'REJECT'),
    ('c2', ['[1, 3, 2, 2]', '[1, 3, 5, 4]', '[1, 1]', '[2, 1]'], 'ACCEPT [1, 1, 2, 1]'),
    ('c2', ['[1, 3, 8, 8]', '[2, 3, 3]', '[1, 1]', '[0, 0]'], 'REJECT'),
    ('c2t', ['[1, 3, 8, 8]', '[2, 3, 3, 3]', '[1, 1]', '[0, 0]'], 'REJECT'),
    ('stem', ['[1, 3, 224, 224]', '[64, 3, 7, 7]'], 'ACCEPT [1, 64, 56, 56]'),
    ('stem', ['[2, 3, 1, 1]', '[64, 3, 7, 7]'], 'ACCEPT [2, 64, 1, 1]'),
    ('stem', ['[2, 3, 0, 1]', '[64, 3, 7, 7]'], 'REJECT'),
    ('gc', ['[1, 8, 5, 5]', '[16, 2, 3, 3]', '[4]'], 'ACCEPT [1, 16, 3, 3]'),
    ('gc', ['[1, 8, 5, 5]', '[16, 2, 3, 3]', '[3]'], 'REJECT'),
    ('gc', ['[1, 8, 5, 5]', '[10, 2, 3, 3]', '[4]'], 'REJECT'),
    ('gc', ['[1, 8, 5, 5]', '[16, 2, 0, 3]', '[4]'], 'REJECT'),
    ('gc', ['[1, 8, 2, 2]', '[16, 2, 3, 3]', '[4]'], 'REJECT'),
    ('gc', ['[1, 8, 3, 3]', '[16, 2, 3, 3]', '[4]'], 'ACCEPT [1, 16, 1, 1]'),
    # 0 groups: 0 input channels and 0 filters (g * c and g * k), any c
    ('gc', ['[1, 0, 3, 3]', '[0, 5, 1, 1]', '[0]'], 'ACCEPT [1, 0, 5, 5]'),
    ('gc', ['[1, 2, 3, 3]', '[0, 5, 1, 1]', '[0]'], 'REJECT'),
    ('gc', ['[1, 0, 3, 3]', '[2, 5, 1, 1]', '[0]'], 'REJECT'),
    # dilation 0 is allowed; the spec's formula computes d1 * (r - 1) + 1,
    # which fits here (2^62 + 1), not r * d1
    ('gd', ['[1, 1, 5, 5]', '[1, 1, 1, 3]', '[0, 0]'], 'ACCEPT [1, 1, 5, 5]'),
    ('gd', ['[1, 1, 4611686018427387905, 5]', '[1, 1, 2, 3]', '[4611686018427387904, 1]'], 'ACCEPT [1, 1, 1, 3]'),
    ('gd', ['[1, 1, 5, 5]', '[1, 1, 1, 3]', '[1, 4611686018427387904]'], 'REJECT'),
    ('dw', ['[1, 32, 5, 5]', '[32, 1, 3, 3]'], 'ACCEPT [1, 32, 3, 3]'),
    ('dw', ['[1, 32, 5, 5]', '[16, 1, 3, 3]'], 'REJECT'),
    ('p1', ['[2, 3, 9]', '[2]', '[2]', '[0]'], 'ACCEPT [2, 3, 4]'),
    ('p1', ['[2, 3, 9]', '[2]', '[0]', '[0]'], 'REJECT'),
    ('p1', ['[2, 3, 9]', '[10]', '[1]', '[0]'], 'REJECT'),
    ('p1', ['[2, 3, 9]', '[10]', '[1]', '[1]'], 'ACCEPT [2, 3, 2]'),
    ('kws', ['[1, 40, 9]', '[64, 40, 5]'], 'ACCEPT [1, 64, 4]'),
    ('kws', ['[1, 40, 0]', '[64, 40, 5]'], 'REJECT'),
    ('gap', ['[2, 3, 5, 6]'], 'ACCEPT [2, 3, 1, 1]'), ('gap', ['[2, 3, 0, 0]'], 'ACCEPT [2, 3, 1, 1]'),
    ('p2', ['[1, 1, 4, 4]', '[3, 3]', '[2, 1]'], 'ACCEPT [1, 1, 2, 2]'),
    ('p2', ['[1, 1, 4, 4]', '[3, 5]', '[2, 1]'], 'REJECT'),
    ('up', ['[1, 2, 3, 4]', '[5, 4]'], 'ACCEPT [1, 2, 6, 20]'),
    ('up', ['[1, 2, 3, 4611686018427387904]', '[5, 4]'], 'REJECT'),
    ('up', ['[1, 2, 3, 4]', '[5, 3]'], 'REJECT'),
    ('pd', ['[1, 2, 3, 3]'], 'ACCEPT [1, 2, 8, 8]'), ('pd', ['[2, 3, 3]'], 'REJECT'),
    ('sz', ['[4]'], 'ACCEPT [4]'), ('szbad', ['[4]'], 'REJECT'),
    ('tk', ['[3, 10]', '[4]'], 'ACCEPT [3, 4] [3, 4]'), ('tk', ['[3, 10]', '[11]'], 'REJECT'),
    ('tk', ['[10]', '[10]'], 'ACCEPT [10] [10]'), ('tk', ['[]', '[0]'], 'REJECT'),
    ('tk2', ['[2, 10]'], 'ACCEPT [2, 3] [2, 3]'), ('tk2', ['[2, 2]'], 'REJECT'),
    ('dv', ['[6, 4]'], 'ACCEPT dims [2, 3] dims []'), ('dv', ['[7, 4]'], 'ACCEPT dims [2, 3] dims []'),
    ('dneg', ['[3]'], 'REJECT'), ('dneg', ['[7]'], 'ACCEPT [7]'),
    ('dp', ['[3]', '[3]'], 'ACCEPT dims [3]'), ('dp', ['[3]', '[4]'], 'REJECT'), ('dp', ['[2, 3]', '[3]'], 'REJECT'),
    ('dnt', ['[2]'], 'REJECT'), ('dnt2', ['[2]'], 'REJECT'),
    ('dlam', ['[1, 1, 2, 3]'], 'ACCEPT [1, 1, 4, 6]'),
    ('late', ['[3]'], 'ACCEPT dims [3, 2] | v=[3]'),
    # an extern's where clauses constrain every call
    ('hv', ['[8]'], 'ACCEPT [4] [4]'), ('hv', ['[10]'], 'REJECT'), ('hv', ['[7]'], 'REJECT'),
    ('cr', ['[5]', '[3]'], 'ACCEPT [3]'), ('cr', ['[5]', '[6]'], 'REJECT'),
    ('gr', ['[2]', '[3]'], 'ACCEPT [3]'), ('gr', ['[4]', '[3]'], 'REJECT'),
    ('gr2', ['[2]'], 'ACCEPT [?]'),
    ('sx', ['[2]', '[3]'], 'ACCEPT [5]'),
    # a function's where clauses, at every call
    ('bnd', ['[512, 64]'], 'ACCEPT [512, 64]'), ('bnd', ['[513, 64]'], 'REJECT'),
    ('bndc', ['[513, 64]'], 'REJECT'), ('bndc', ['[3, 64]'], 'ACCEPT [3, 64]'),
    ('hlv', ['[6, 3]'], 'ACCEPT [6, 3]'), ('hlv', ['[6, 2]'], 'REJECT'),
    ('lamw', ['[4]'], 'ACCEPT [4]'),
    # spec strings: labels are sizes, '...' broadcast between the operands
    ('ein', ['[2, 3, 4, 5]', '[2, 3, 6, 5]'], 'ACCEPT [2, 3, 4, 6]'),
    ('ein', ['[2, 3, 4, 5]', '[2, 3, 6, 4]'], 'REJECT'), ('ein', ['[2, 3, 4]', '[2, 3, 6, 4]'], 'REJECT'),
    ('bmm', ['[2, 1, 4, 5]', '[3, 6, 5]'], 'ACCEPT [2, 3, 4, 6]'), ('bmm', ['[2, 4, 5]', '[3, 6, 5]'], 'REJECT'),
    ('bmm', ['[4, 5]', '[6, 5]'], 'ACCEPT [4, 6]'),
    ('dg', ['[3, 3]'], 'ACCEPT [3]'), ('dg', ['[3, 4]'], 'REJECT'),
    ('reds', ['[2, 3]'], 'ACCEPT [2] [2, 1] [2]'), ('reds', ['[]'], 'REJECT'),
    ('mid', ['[2, 3, 4, 5]'], 'ACCEPT [5, 2, 3, 4]'), ('mid', ['[2]'], 'REJECT'),
    ('mid', ['[2, 5]'], 'ACCEPT [5, 2]'),
    ('scal', ['[3]', '[]'], 'ACCEPT [3]'), ('scal', ['[3]', '[1]'], 'REJECT'),
    ('spbad', ['[3]'], 'REJECT'), ('spbad2', ['[3]'], 'REJECT'),
    # an item named like a built-in hides it (sum, above, is the program's)
    ('ownsum', ['[3]'], 'REJECT'),
    # spec 5b: reshape (equal element counts, any ranks, no -1 inference;
    # each side's product must fit int64, a 0 axis making it 0)
    ('rs', ['[2, 3]', '[3, 2]'], 'ACCEPT [3, 2]'), ('rs', ['[2, 3]', '[5, 1]'], 'REJECT'),
    ('rs', ['[0, 5]', '[0, 7]'], 'ACCEPT [0, 7]'), ('rs', ['[6]', '[6, -1]'], 'REJECT'),
    ('rs', ['[4611686018427387904, 4]', '[0, 1]'], 'REJECT'),
    ('rs', ['[4611686018427387904, 4, 0]', '[0, 5]'], 'ACCEPT [0, 5]'),
    ('rs', ['[0]', '[4611686018427387904, 4]'], 'REJECT'),
    ('rs', ['[3037000499, 3037000499]', '[3037000499, 3037000499]'], 'ACCEPT [3037000499, 3037000499]'),
    ('rs1', ['[2, 3, 4]'], 'ACCEPT [2, 12]'), ('rs1', ['[2, 3]'], 'REJECT'),
    ('rsh', ['[2, 5, 8]', '[2]'], 'ACCEPT [2, 5, 2, 4]'), ('rsh', ['[2, 5, 8]', '[3]'], 'REJECT'),
    ('rsh', ['[2, 5, 8]', '[0]'], 'REJECT'), ('rsh', ['[2, 0, 8]', '[3]'], 'ACCEPT [2, 0, 3, 2]'),
    # the element counts are products, 0 with a 0 axis; so is a dims
    # value's product with a 0 factor (its value is the size)
    ('rsh', ['[5, 4611686018427387904, 0]', '[2]'], 'ACCEPT [5, 4611686018427387904, 2, 0]'),
    ('rs3', ['[0, 4611686018427387904, 5]'], 'ACCEPT [0]'), ('rs3', ['[5, 4611686018427387904, 0]'], 'ACCEPT [0]'),
    ('rs3', ['[5, 4611686018427387904, 1]'], 'REJECT'),
    ('rsp', ['[2, 3, 4]'], 'ACCEPT [24]'), ('rsp', ['[]'], 'ACCEPT [1]'), ('rsp', ['[5, 0]'], 'ACCEPT [0]'),
    ('rs0', ['[]'], 'ACCEPT [1]'), ('rs0', ['[1, 1]'], 'ACCEPT [1]'), ('rs0', ['[2]'], 'REJECT'),
    ('rs0b', ['[1]'], 'ACCEPT []'), ('rs0b', ['[]'], 'ACCEPT []'), ('rs0b', ['[3]'], 'REJECT'),
    ('rsbad', ['[2, 3]'], 'REJECT'),
    # nonzero's ? is at most n: [1] cannot give 2 elements, [5] may
    ('rsnz', ['[5]'], 'UNDECIDABLE'), ('rsnz', ['[1]'], 'REJECT'),
    ('ed', ['[3, 4]'], 'ACCEPT [12]'),
    ('es', ['[2, 3, 4]'], 'ACCEPT [6, 4]'), ('es', ['[4]'], 'ACCEPT [1, 4]'),
    ('rd', ['[2, 3, 4]'], 'ACCEPT dims [3]'), ('rd', ['[]'], 'ACCEPT dims [0]'),
    # flatten: rank >= 1, [n] gives [n, 1]
    ('fl', ['[2, 3, 4]'], 'ACCEPT [2, 12]'), ('fl', ['[5]'], 'ACCEPT [5, 1]'), ('fl', ['[]'], 'REJECT'),
    ('fl', ['[2, 0, 4611686018427387904, 4]'], 'ACCEPT [2, 0]'),
    ('fl', ['[2, 4611686018427387904, 4]'], 'REJECT'),
    ('flc', ['[2, 4, 3]'], 'ACCEPT [2, 12] | v=[2, 12]'), ('flc', ['[2, 3, 3]'], 'REJECT'),
    # concat_axis: axis below the rank, equal ranks, other axes equal (no
    # broadcasting)
    ('ca', ['[2, 3]', '[2, 4]', '[1]'], 'ACCEPT [2, 7]'), ('ca', ['[2, 3]', '[5, 3]', '[0]'], 'ACCEPT [7, 3]'),
    ('ca', ['[2, 3]', '[2, 3]', '[2]'], 'REJECT'), ('ca', ['[2, 3]', '[3]', '[0]'], 'REJECT'),
    ('ca', ['[1, 3]', '[2, 4]', '[1]'], 'REJECT'), ('ca', ['[2, 3, 4]', '[2, 5, 4]', '[1]'], 'ACCEPT [2, 8, 4]'),
    ('ca', ['[2, 3]', '[2, 4]', '[1, 1]'], 'REJECT'), ('ca', ['[]', '[]', '[0]'], 'REJECT'),
    ('ca', ['[4611686018427387904]', '[4611686018427387904]', '[0]'], 'REJECT'),
    ('ca0', ['[2, 3]', '[4, 3]'], 'ACCEPT [6, 3]'), ('ca0', ['[2, 3]', '[4, 1]'], 'REJECT'),
    ('cal', ['[2, 3]', '[2, 4]'], 'ACCEPT [2, 7]'), ('cal', ['[3]', '[4]'], 'REJECT'),
    # slice: i <= j <= n, the axis below the rank
    ('sl', ['[5, 6]', '[1]', '[2]', '[5]'], 'ACCEPT [5, 3]'), ('sl', ['[5, 6]', '[0]', '[2]', '[5]'], 'ACCEPT [3, 6]'),
    ('sl', ['[5, 6]', '[1]', '[4]', '[2]'], 'REJECT'), ('sl', ['[5, 6]', '[1]', '[2]', '[7]'], 'REJECT'),
    ('sl', ['[5, 6]', '[2]', '[0]', '[0]'], 'REJECT'), ('sl', ['[5, 6]', '[1]', '[6]', '[6]'], 'ACCEPT [5, 0]'),
    ('sl', ['[5, 6]', '[1]', '[-1]', '[2]'], 'REJECT'),
    ('sln', ['[2, 5]'], 'ACCEPT [2, 3]'), ('sln', ['[2, 1]'], 'REJECT'), ('sln', ['[2, 0]'], 'REJECT'),
    # nonzero: rank exactly 1, a run-time size (at most n)
    ('nzr', ['[5]'], 'ACCEPT [?] | v=[?]'), ('nzr', ['[2, 3]'], 'REJECT'), ('nzr', ['[]'], 'REJECT'),
    ('nzb', ['[5]', '[1]'], 'ACCEPT [?]'), ('nzb', ['[5]', '[3]'], 'UNDECIDABLE'),
    ('nzs', ['[4]'], 'ACCEPT [?] | v=[?]'),
    ('nzm', ['[5]', '[3]'], 'UNDECIDABLE'), ('nzm', ['[2]', '[3]'], 'REJECT'),
    # elements() and rank() in annotations, function where clauses, externs
    ('ela', ['[2, 3]', '[6]'], 'ACCEPT [6]'), ('ela', ['[2, 3]', '[5]'], 'REJECT'), ('ela', ['[]', '[1]'], 'ACCEPT [1]'),
    ('ela', ['[4611686018427387904, 4]', '[0]'], 'REJECT'),
    ('elb', ['[6]', '[2, 3]'], 'ACCEPT [6]'), ('elb', ['[5]', '[2, 3]'], 'REJECT'),
    ('elu', ['[7]'], 'ACCEPT [7]'), ('elu', ['[0]'], 'ACCEPT [0]'),
    ('rk', ['[2, 3]'], 'ACCEPT [2, 3]'), ('rk', ['[2]'], 'REJECT'),
    ('rkd', ['[2, 3]', '[2]'], 'ACCEPT [2, 3]'), ('rkd', ['[2, 3]', '[1]'], 'REJECT'),
    ('rku', ['[2]', '[4, 5]'], 'ACCEPT [2]'), ('rku', ['[3]', '[4, 5]'], 'REJECT'),
    ('fe', ['[2, 3]'], 'ACCEPT [6]'), ('fe', ['[]'], 'ACCEPT [1]'),
    ('fr', ['[2, 3, 4]', '[2]'], 'ACCEPT [2, 3]'), ('fr', ['[2, 3, 4]', '[1]'], 'REJECT'),
    ('fs', ['[2, 6]', '[3, 4]'], 'ACCEPT [3, 4]'), ('fs', ['[2, 6]', '[5]'], 'REJECT'),
    ('fa', ['[2]', '[4]'], 'ACCEPT [4]'), ('fa2', ['[2]'], 'ACCEPT [?]'),
    # run-time dims parameters (an axis, bounds, a window, factors, k) and
    # what follows them; `dims [1]` passes a dims value to a parameter that
    # no annotation says is one (inference makes it `dims [k]`).  The
    # reproducers of the review's bugs 1 and 2: the slice along axis 1 of
    # [3, 8] is [3, 1], 3 elements, not 8; [3, 3] is 9, not 24
    ('qrs1', ['[3, 8]', 'dims [1]'], 'REJECT'), ('qrs1', ['[3, 8]', 'dims [0]'], 'ACCEPT [8]'),
    ('qrs1', ['[8, 8]', 'dims [1]'], 'ACCEPT [8]'), ('qrs1', ['[3, 8]', 'dims [2]'], 'REJECT'),
    ('qrs1', ['[3, 8]', 'dims [0, 1]'], 'REJECT'), ('qrs1', ['[3, 8]', 'dims []'], 'REJECT'),
    ('qrs1', ['[3, 8]', 'dims [-1]'], 'REJECT'), ('qrs1', ['[3, 8]', '[0]'], 'REJECT'),
    ('qrs1', ['[0, 5]', 'dims [1]'], 'REJECT'), ('qrs1', ['[1, 5]', 'dims [1]'], 'REJECT'),
    ('qrs1', ['[5, 5]', 'dims [1]'], 'ACCEPT [5]'),
    ('qrs2', ['[3, 8]', 'dims [0]'], 'ACCEPT [3, 8]'), ('qrs2', ['[3, 8]', 'dims [1]'], 'REJECT'),
    ('qrs2', ['[3, 3]', 'dims [1]'], 'ACCEPT [3, 3]'), ('qrs2', ['[2, 8]', 'dims [0]'], 'REJECT'),
    ('qrs2', ['[8, 2]', 'dims [1]'], 'REJECT'),
    ('qrs3', ['[4, 3]', '[0]', '[1]', '[4]'], 'ACCEPT [9]'),
    ('qrs3', ['[4, 3]', '[1]', '[1]', '[3]'], 'REJECT'), ('qrs3', ['[3, 3]', '[1]', '[1]', '[3]'], 'ACCEPT [6]'),
    ('qrs3', ['[4, 3]', '[0]', '[2]', '[1]'], 'REJECT'), ('qrs3', ['[4, 3]', '[0]', '[1]', '[5]'], 'REJECT'),
    ('qca', ['[2, 3]', '[2, 3]', 'dims [0]'], 'ACCEPT [12] | v=[4, 3]'),
    ('qca', ['[2, 3]', '[2, 3]', 'dims [1]'], 'ACCEPT [12] | v=[2, 6]'),
    ('qca', ['[2, 3]', '[2, 3]', 'dims [2]'], 'REJECT'),
    ('qcas', ['[2, 3]', '[2, 3]', 'dims [0]'], 'ACCEPT [2, 3] | v=[4, 3]'),
    ('qcas', ['[2, 3]', '[2, 3]', 'dims [1]'], 'ACCEPT [2, 2] | v=[2, 6]'),
    ('qcas', ['[4, 1]', '[4, 1]', 'dims [1]'], 'REJECT'),
    # an axis that an input's size gives
    ('qak', ['[2, 3]', '[1]'], 'ACCEPT [2, 1]'), ('qak', ['[2, 3]', '[0]'], 'ACCEPT [1, 3]'),
    ('qak', ['[2, 3]', '[2]'], 'REJECT'),
    # a named dims value is not an intermediate (bug 3: [65536, 65536]
    # would make t 2^64 elements); a dims output is its values
    ('qdt', ['[65536, 65536]'], 'ACCEPT [65536, 65536]'), ('qdt', ['[2, 3]'], 'ACCEPT [3, 2]'),
    ('qdt2', ['[2, 3]'], 'ACCEPT [3, 2] dims [3, 2]'),
    ('qdt3', ['[2, 6]'], 'ACCEPT [6, 2]'), ('qdt3', ['[2, 5]'], 'ACCEPT [5, 2]'), ('qdt3', ['[3, 4]'], 'REJECT'),
    ('qdn3', ['[65536]'], 'ACCEPT dims [65536, 65536, 65536]'),
    # an input size with one unknown (bug 4): b = 12 / (a + 1)
    ('qab', ['[3]', '[12]'], 'ACCEPT [3, 4]'), ('qab', ['[3]', '[13]'], 'REJECT'),
    ('qab', ['[0]', '[5]'], 'REJECT'), ('qab', ['[1]', '[0]'], 'ACCEPT [1, 0]'),
    ('qab2', ['[2]', '[9]'], 'ACCEPT [3, 3]'), ('qab2', ['[2]', '[10]'], 'REJECT'),
    ('qh21', ['[5]'], 'ACCEPT [5]'), ('qh21', ['[0]'], 'REJECT'), ('qh21', ['[1]'], 'ACCEPT [1]'),
    ('qh21b', ['[5]', '[8]'], 'ACCEPT [5]'), ('qh21b', ['[5]', '[9]'], 'ACCEPT [5]'),
    ('qh21b', ['[5]', '[10]'], 'REJECT'),
    ('qo21', ['[7]'], 'ACCEPT [3]'), ('qo21', ['[6]'], 'REJECT'), ('qo21', ['[0]'], 'REJECT'),
    ('qo21', ['[1]'], 'ACCEPT [0]'),
    # run-time windows, strides, factors, k
    ('qpr', ['[1, 2, 6]', 'dims [1]', 'dims [1]'], 'ACCEPT [1, 12]'),
    ('qpr', ['[1, 2, 6]', 'dims [2]', 'dims [1]'], 'REJECT'),
    ('qpr', ['[1, 2, 6]', 'dims [7]', 'dims [1]'], 'REJECT'),
    ('qpr', ['[1, 2, 6]', 'dims [1]', 'dims [0]'], 'REJECT'),
    ('qpr', ['[1, 2, 1]', 'dims [1]', 'dims [5]'], 'ACCEPT [1, 2]'),
    ('qur', ['[1, 1, 2, 3]', 'dims [2, 2]'], 'ACCEPT [1, 1, 4, 6]'),
    ('qur', ['[1, 1, 2, 3]', 'dims [2, 1]'], 'REJECT'),
    ('qur', ['[1, 1, 2, 3]', 'dims [1, 4]'], 'ACCEPT [1, 1, 4, 6]'),
    ('qur', ['[1, 1, 2, 3]', 'dims [2]'], 'REJECT'),
    ('qtkr', ['[2, 3]', 'dims [3]'], 'ACCEPT [6] | v=[2, 3] i=[2, 3]'),
    ('qtkr', ['[2, 3]', 'dims [2]'], 'REJECT'), ('qtkr', ['[2, 3]', 'dims [4]'], 'REJECT'),
    ('qtkr', ['[0, 3]', 'dims [1]'], 'ACCEPT [0] | v=[0, 1] i=[0, 1]'),
    # rank(p) = k with k a run-time size: k out of range rejects
    ('qrk', ['[2, 3]', '[1]'], 'ACCEPT [2, 1]'), ('qrk', ['[2, 3]', '[0]'], 'REJECT'),
    ('qrk', ['[2, 3]', '[1099511627776]'], 'REJECT'), ('qrk', ['[]', '[0]'], 'REJECT'),
    ('qerk', ['[2, 3]', 'dims [1]'], 'ACCEPT [2]'), ('qerk', ['[2, 3]', 'dims [0]'], 'REJECT'),
    ('qerk', ['[2, 3]', 'dims [5]'], 'REJECT'), ('qerk', ['[2, 3]', 'dims [9223372036854775807]'], 'REJECT'),
]


def inputs_of(prog, name, ins):
    """(flat, structure) of input texts `[3, 4]`; `dims [1]` passes a dims
    value (a parameter that no annotation says is one: `fn (x, ax) {
    slice(x, ax, ...) }`, whose type inference makes `dims [k]`)."""
    flat, marks = [], []
    for a in ins:
        a = a.strip()
        marks.append(a.startswith('dims'))
        if a.startswith('dims'):
            a = a[4:]
        flat.append(tuple(int(x) for x in a.strip('[] ').split(',') if x.strip()))
    st = structure_from_annotations(prog, name)
    if st is None or count_leaves(st) != len(flat):
        st = ['T'] * len(flat)
    if any(marks) and all(not isinstance(x, list) for x in st):
        st = [DIMS if m else x for x, m in zip(st, marks)]
    return flat, st


def selftest():
    prog = parse_program(SELFTEST, 'selftest.axon')
    bad = 0
    for name, ins, want in SELFTEST_CASES:
        flat, st = inputs_of(prog, name, ins)
        got = repr(run_function(prog, name, flat, st))
        if not (got == want or (want in ('REJECT', 'UNDECIDABLE', 'UNDET_RANK') and got.startswith(want))):
            print('selftest: %s(%s): got %s, expected %s' % (name, ', '.join(ins), got, want))
            bad += 1
    for name, ins, want in SELFTEST_MAX_CASES:
        flat, st = inputs_of(prog, name, ins)
        o = run_function(prog, name, flat, st)
        got = repr(o) + (' ' + o.fmt_max() if o.kind == 'accept' else '')
        if not (got == want or (want in ('REJECT', 'UNDECIDABLE', 'UNDET_RANK') and got.startswith(want))):
            print('selftest: %s(%s): got %s, expected %s' % (name, ', '.join(ins), got, want))
            bad += 1
    n, b = selftest_imports()
    bad += b
    print('selftest: %d cases, %d failed' % (len(SELFTEST_CASES) + len(SELFTEST_MAX_CASES) + n, bad))
    return 1 if bad else 0


def selftest_imports():
    """SELFTEST_IMPORTS, in a temporary directory: (cases, failed).  A
    row ('$own', [], 'a b') checks the items `emit` exports (the
    program's own)."""
    import shutil
    import tempfile
    n = bad = 0
    for k, (files, rows) in enumerate(SELFTEST_IMPORTS):
        d = tempfile.mkdtemp(prefix='axon-selftest-')
        try:
            include = []
            for name, text in files.items():
                path = os.path.join(d, name)
                if name.endswith('/'):
                    os.makedirs(path, exist_ok=True)
                    include.append(path)
                    continue
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, 'w') as f:
                    f.write(text)
            main = os.path.join(d, next(iter(files)))
            try:
                prog = parse_program(open(main).read(), main, include)
            except AxonSyntaxError as e:
                prog = e
            if rows == 'ERROR':
                n += 1
                if not isinstance(prog, AxonSyntaxError):
                    print('selftest: imports case %d: parsed, expected an error' % k)
                    bad += 1
                continue
            if isinstance(prog, AxonSyntaxError):
                n += len(rows)
                bad += len(rows)
                print('selftest: imports case %d: %s' % (k, prog))
                continue
            for name, ins, want in rows:
                n += 1
                if name == '$own':
                    got = ' '.join(it.name for it in prog.own)
                else:
                    flat, st = inputs_of(prog, name, ins)
                    got = repr(run_function(prog, name, flat, st))
                if not (got == want or (want in ('REJECT', 'UNDECIDABLE') and got.startswith(want))):
                    print('selftest: imports case %d: %s(%s): got %s, expected %s'
                          % (k, name, ', '.join(ins), got, want))
                    bad += 1
        finally:
            shutil.rmtree(d, ignore_errors=True)
    return n, bad


def count_leaves(st):
    if isinstance(st, list):
        return sum(count_leaves(x) for x in st)
    return 1


def main(argv):
    if len(argv) == 2 and argv[1] == '--selftest':
        return selftest()
    # `-I DIR` (or -IDIR), any number, before the file: where imports are
    # looked for after the importing file's directory (spec section 2)
    include = []
    args = [argv[0]]
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == '-I' and i + 1 < len(argv):
            include.append(argv[i + 1])
            i += 2
            continue
        if a.startswith('-I') and len(a) > 2:
            include.append(a[2:])
            i += 1
            continue
        args.extend(argv[i:])
        break
    argv = args
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    text = open(argv[1]).read()
    prog = parse_program(text, argv[1], include)
    flat, st = inputs_of(prog, argv[2], argv[3:])
    o = run_function(prog, argv[2], flat, st)
    print(o)
    if o.kind == 'accept':
        print(o.fmt_max())
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
