"""axparse.py - the lexer and parser of Axon shared by the two Python oracles:
the shape interpreter (tests/semantic/interp.py) and the value evaluator
(tests/values/evaluate.py), and the drivers around them (run.py, gen.py,
compare_run.py).

Written from the contract (/work/shared/axon-spec.md sections 1-5b) and
docs/language.md only.  It shares no code with axonc, and must not: the
oracles are checked against axonc, and a mistake the two shared would go
unseen.  What each oracle makes of the tree (imports, evaluation) is its
own.  The parser produces plain tuples:

Expressions
    ('var', name)              ('num', text)          a literal, 'inf' too
    ('str', text)              a spec string "bhnd,bhmd->bhnm" (spec 5b: einsum, sum, ...)
    ('opval', op)              `+` as a value         ('tuple', [e])
    ('call', f, [e])           ('bin', op, a, b)      ('neg', e)
    ('dimsv', [dim])           a dims value `[n, d / h]` (spec 5b)
    ('fn', params, rtype, stmts, final, where)        params: [(name, type|None)]
Statements  ('let', pattern, e)   ('ann', name, type, e)
Patterns    ('pname', name)  ('pwild',)  ('ptuple', [p])
Types       ('tensor', elem, [atom])  ('tuple', [t])  ('fun', [t], t)  ('tvar', name)
            a dims type `dims [a, b]` is ('tensor', 'dims', [atom]): a list of
            sizes, matched and built like a shape
Shape atoms ('dims', [dim])  ('svar', name)  ('sbc', [[atom]])  (a shape is [atom])
Dimensions  ('int', k)  ('dvar', name)  ('rag',)  ('q',)  ('op', op, a, b)
            ('dbc', [dim])
            ('elements', [('q',)], [atom])  ('rank', [('q',)], [atom])   spec 5b:
            the product of a shape's sizes, its number of axes.  The middle
            field is a stand-in for readers that do not know these nodes
            (tests/semantic/run.py draws plausible inputs from a signature
            and reads an unknown node as a broadcast of its second field:
            here one `?`, an arbitrary size); the shape is the third.
Where       [(op, dim, dim)]  op '=' or '<='
Items       Item: kind 'let' | 'extern' | 'main' (a file's `fn ...` item,
            named by its caller), name, node (an extern's: its type), where
            (an extern's clauses), start and end (offsets in the text),
            line, filename
Tokens      (kind, text, offset, line)

Library use
    imports, items = parse(text, filename)   imports: [(path, offset)]
    find_import(path, filename, include)     the file an import names
    name, ty, where = parse_signature(line)  a line of `axonc check`
    ty, parser = parse_type(text)            a type alone
"""
import os
import re

ELEM_TYPES = frozenset(('bool', 'i8', 'i16', 'i32', 'i64', 'u8', 'u16', 'u32', 'u64',
                        'f16', 'bf16', 'f32', 'f64'))
KEYWORDS = ('fn', 'extern', 'inf', 'where', 'import')


class ParseError(Exception):
    pass


_TOKEN = re.compile(r'''
    (?P<ws>[ \t\r\n]+)
  | (?P<lcom>//[^\n]*)
  | (?P<bcom>/\*)
  | (?P<float>[0-9]+\.[0-9]*(?:[eE][+-]?[0-9]+)?f?|[0-9]+[eE][+-]?[0-9]+f?|[0-9]+f)
  | (?P<int>[0-9]+)
  | (?P<str>"[^"\n]*")
  | (?P<id>[A-Za-z_][A-Za-z0-9_']*)
  | (?P<arrow>->)
  | (?P<le><=)
  | (?P<p>[()\[\]{},;:=+\-*/%@?])
''', re.X)


def lex(text, filename='<input>'):
    """[(kind, text, offset, line)], ending with ('eof', '', len(text), line)."""
    toks, i, line = [], 0, 1
    while i < len(text):
        m = _TOKEN.match(text, i)
        if not m:
            raise ParseError('%s:%d: unexpected character %r' % (filename, line, text[i]))
        kind, val = m.lastgroup, m.group(m.lastgroup)
        if kind == 'bcom':
            j = text.find('*/', m.end())
            if j < 0:
                raise ParseError('%s:%d: unterminated comment' % (filename, line))
            line += text.count('\n', i, j + 2)
            i = j + 2
            continue
        if kind not in ('ws', 'lcom'):
            if kind == 'id' and val in KEYWORDS:
                kind = val
            elif kind in ('arrow', 'le', 'p'):
                kind = val
            toks.append((kind, val, i, line))
        line += val.count('\n')
        i = m.end()
    toks.append(('eof', '', len(text), line))
    return toks


class Item(object):
    def __init__(self, kind, name, node, where, start, end, line, filename):
        self.kind, self.name, self.node, self.where = kind, name, node, where
        self.start, self.end, self.line, self.filename = start, end, line, filename


class Parser(object):
    def __init__(self, text, filename='<input>'):
        self.toks = lex(text, filename)
        self.i = 0
        self.filename = filename

    # -- token helpers
    def peek(self, k=0):
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def kind(self, k=0):
        return self.peek(k)[0]

    def next(self):
        t = self.toks[self.i]
        self.i += 1
        return t

    def fail(self, what):
        t = self.peek()
        raise ParseError('%s:%d: expected %s, found %r' % (self.filename, t[3], what, t[1] or t[0]))

    def expect(self, kind):
        if self.kind() != kind:
            self.fail(repr(kind))
        return self.next()

    def accept(self, kind):
        return self.next() if self.kind() == kind else None

    def separated(self, item):
        """item, item, ...: one at least."""
        out = [item()]
        while self.accept(','):
            out.append(item())
        return out

    def enclosed(self, item, close):
        """item, item, ... up to `close` (consumed): none if it comes first."""
        out = self.separated(item) if self.kind() != close else []
        self.expect(close)
        return out

    def left_assoc(self, operand, ops, tag):
        """operand op operand op ...: (tag, op, a, b), left-associative."""
        a = operand()
        while self.kind() in ops:
            op = self.next()[0]
            a = (tag, op, a, operand())
        return a

    # -- program
    def program(self):
        """-> (imports, items): the file's `import` lines (spec section 2)
        [(path text, offset)] and its items."""
        imports = []
        while self.kind() == 'import':
            off = self.next()[2]
            imports.append((self.expect('str')[1][1:-1], off))
            if not self.accept(';') and self.kind() != 'eof':
                self.fail("';' after an import")
        items = []
        while self.kind() != 'eof':
            _, _, start, line = self.peek()
            where = []
            if self.kind() == 'import':
                raise ParseError('%s:%d: an import after an item (imports come first in a file)'
                                 % (self.filename, line))
            if self.accept('extern'):
                kind, name = 'extern', self.expect('id')[1]
                self.expect(':')
                node = self.type_()
                if self.accept('where'):
                    where = self.where_clauses()
            elif self.kind() == 'fn':
                kind, name, node = 'main', None, self.lambda_()
            else:
                kind, name = 'let', self.expect('id')[1]
                self.expect('=')
                node = self.expr()
            last = self.toks[self.i - 1]
            items.append(Item(kind, name, node, where, start, last[2] + len(last[1]), line, self.filename))
            if not self.accept(';') and last[0] != '}' and self.kind() != 'eof':
                self.fail("';' after a top-level item")
        return imports, items

    def where_clauses(self):
        """`d1 = d2, d1 <= d2, ...` (spec 5b) -> [(op, d1, d2)]."""
        return self.separated(self.clause)

    def clause(self):
        a = self.dim()
        if self.kind() not in ('=', '<='):
            self.fail("'=' or '<=' in a where clause")
        op = self.next()[0]
        return (op, a, self.dim())

    # -- expressions
    def expr(self):
        return self.left_assoc(self.term, ('+', '-'), 'bin')

    def term(self):
        return self.left_assoc(self.unary, ('*', '/'), 'bin')

    def unary(self):
        if self.accept('-'):
            return ('neg', self.unary())
        return self.postfix()

    def postfix(self):
        e = self.primary()
        while self.accept('('):
            e = ('call', e, self.enclosed(self.arg, ')'))
        return e

    def arg(self):
        if self.kind() in ('+', '-', '*', '/') and self.kind(1) in (',', ')'):
            return ('opval', self.next()[0])
        return self.expr()

    def primary(self):
        k = self.kind()
        if k == 'id':
            return ('var', self.next()[1])
        if k in ('int', 'float', 'inf'):
            return ('num', self.next()[1])
        if k == 'str':
            return ('str', self.next()[1][1:-1])
        if k == 'fn':
            return self.lambda_()
        if self.accept('['):
            # spec 5b: a dims value, a list of dimension expressions
            return ('dimsv', self.enclosed(self.dim, ']'))
        if self.accept('('):
            e = self.exprlist()
            self.expect(')')
            return e
        self.fail('an expression')

    def exprlist(self):
        items = self.separated(self.expr)
        return items[0] if len(items) == 1 else ('tuple', items)

    def lambda_(self):
        self.expect('fn')
        self.expect('(')
        params = self.enclosed(self.param, ')')
        rtype = self.type_() if self.accept(':') else None
        where = self.where_clauses() if self.accept('where') else []
        self.expect('{')
        stmts = []
        while True:
            st = self.try_stmt()
            if st is None:
                break
            stmts.append(st)
        final = self.exprlist()
        self.accept(';')
        self.expect('}')
        return ('fn', params, rtype, stmts, final, where)

    def param(self):
        name = self.expect('id')[1]
        return (name, self.type_() if self.accept(':') else None)

    def try_stmt(self):
        if self.kind() == 'id' and self.kind(1) == ':':
            name = self.next()[1]
            self.next()
            ty = self.type_()
            self.expect('=')
            e = self.exprlist()
            self.expect(';')
            return ('ann', name, ty, e)
        save = self.i
        try:
            pat = self.pattern()
            if self.accept('='):
                e = self.exprlist()
                self.expect(';')
                return ('let', pat, e)
        except ParseError:
            pass
        self.i = save
        return None

    def pattern(self):
        items = self.separated(self.patatom)
        return items[0] if len(items) == 1 else ('ptuple', items)

    def patatom(self):
        if self.kind() == 'id':
            name = self.next()[1]
            return ('pwild',) if name == '_' else ('pname', name)
        if self.accept('('):
            p = self.pattern()
            self.expect(')')
            return p
        self.fail('a pattern')

    # -- types
    def type_(self):
        if self.accept('('):
            items = self.enclosed(self.type_, ')')
            if self.accept('->'):
                return ('fun', items, self.type_())
            return items[0] if len(items) == 1 else ('tuple', items)
        name = self.expect('id')[1]
        if self.kind() in ('[', 'id'):
            return ('tensor', name, self.shape())
        if name in ELEM_TYPES or name == 'dims':
            # spec 5b: `dims` alone is `dims []`
            return ('tensor', name, [])
        return ('tvar', name)

    def shape(self):
        atoms = [self.satom()]
        while self.accept('@'):
            atoms.append(self.satom())
        return atoms

    def satom(self):
        if self.accept('['):
            return ('dims', self.enclosed(self.dim, ']'))
        name = self.expect('id')[1]
        if name == 'broadcast' and self.accept('('):
            ops = self.separated(self.shape)
            self.expect(')')
            return ('sbc', ops)
        return ('svar', name)

    # -- dimensions
    def dim(self):
        return self.left_assoc(self.dterm, ('+', '-'), 'op')

    def dterm(self):
        return self.left_assoc(self.dprim, ('*', '/', '%'), 'op')

    def prefix_form(self):
        """After `(`: the paper's prefix form `(+ a b)`, not an infix
        expression with a leading minus `(-g * m + d)` (as signatures
        print)?  An operand must follow the first one."""
        save = self.i
        try:
            self.next()
            self.dprim()
            return self.kind() in ('int', 'id', '(', '?')
        except ParseError:
            return True
        finally:
            self.i = save

    def dprim(self):
        k = self.kind()
        if self.accept('-'):
            # signatures print a negative leading term as `-f + 4`
            return ('op', '-', ('int', 0), self.dprim())
        if k == 'int':
            return ('int', int(self.next()[1]))
        if self.accept('*'):
            return ('rag',)
        if self.accept('?'):
            return ('q',)
        if k == 'id':
            name = self.next()[1]
            if name == 'broadcast' and self.accept('('):
                ops = self.separated(self.dim)
                self.expect(')')
                return ('dbc', ops)
            if name in ('elements', 'rank') and self.accept('('):
                # spec 5b: `elements(s)`, `rank(s)`: a dimension expression
                # of a shape (`elements([n, 4])`, `rank(p @ [n])`)
                sh = self.shape()
                self.expect(')')
                return (name, [('q',)], sh)
            return ('dvar', name)
        if self.accept('('):
            if self.kind() in ('+', '-', '*', '/') and self.kind(1) not in (')', ',', '+', '-', '/') \
                    and self.prefix_form():
                op = self.next()[0]
                args = [self.dprim()]
                while self.kind() != ')':
                    args.append(self.dprim())
                self.next()
                d = args[0]
                for b in args[1:]:
                    d = ('op', op, d, b)
                return d
            d = self.dim()
            self.expect(')')
            return d
        self.fail('a dimension')


def parse(text, filename='<input>'):
    """-> (imports, items) of one file: imports [(path text, offset)]."""
    return Parser(text, filename).program()


def find_import(path, importer, include):
    """spec section 2: the file an `import "path";` of file importer names,
    relative to importer's directory, then to each `-I DIR` in order; None
    if none exists."""
    cands = [path] if os.path.isabs(path) else \
        [os.path.join(os.path.dirname(importer or '') or '.', path)] + [os.path.join(d, path) for d in include]
    for c in cands:
        if os.path.isfile(c):
            return c
    return None


def parse_type(text):
    """A type at the start of text -> (type, the parser, after it)."""
    p = Parser(text)
    t = p.type_()
    return t, p


def parse_signature(line):
    """'name : T' (an `axonc check` line) -> (name, type, where_text)."""
    name, _, rest = line.partition(' : ')
    p = Parser(rest)
    ty = p.type_()
    where = ''
    if p.kind() == 'where':
        where = rest[p.peek()[2] + 5:].strip()
    elif p.kind() != 'eof':
        raise ParseError('junk after the signature: %r' % rest[p.peek()[2]:])
    return name.strip(), ty, where


# ---------------------------------------------------------------- trees

def subtrees(tree):
    """Every node (tuple) of a tree, itself first, depth-first and left to
    right, through the tuples and lists that hold them."""
    if isinstance(tree, tuple):
        yield tree
        for x in tree:
            yield from subtrees(x)
    elif isinstance(tree, list):
        for x in tree:
            yield from subtrees(x)


def pattern_names(p, acc=None):
    """The names a pattern binds, added to acc."""
    acc = set() if acc is None else acc
    if p[0] == 'pname':
        acc.add(p[1])
    elif p[0] == 'ptuple':
        for q in p[1]:
            pattern_names(q, acc)
    return acc


# ---------------------------------------------------------------- types

def flat_types(ty, out):
    """A type's leaves, a tuple's flattened (spec section 8), added to out."""
    if ty[0] == 'tuple':
        for t in ty[1]:
            flat_types(t, out)
    else:
        out.append(ty)
    return out


def is_dims_type(t):
    return t[0] == 'tensor' and t[1] == 'dims'


def has_fun_type(ty):
    """Whether a type is, or holds in a tuple, a function type."""
    if ty[0] == 'fun':
        return True
    if ty[0] == 'tuple':
        return any(has_fun_type(t) for t in ty[1])
    return False
