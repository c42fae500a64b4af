"""axparse.py - lexer and parser of Axon for the value evaluator.

Written from the contract (/work/shared/axon-spec.md sections 1-5b) and
docs/language.md only; it shares no code with axonc nor with the shape
interpreter of tests/semantic.  The parser produces plain tuples:

Expressions
    ('var', name)              ('num', text)          a literal, 'inf' too
    ('str', text)              a spec string          ('opval', op)  `+` as a value
    ('tuple', [e])             ('call', f, [e])       ('bin', op, a, b)
    ('neg', e)                 ('dimsv', [dim])       a dims value `[n, d / h]`
    ('fn', params, rtype, where, stmts, final)        params: [(name, type|None)]
Statements  ('let', pattern, e)   ('ann', name, type, e)
Patterns    ('pname', name)  ('pwild',)  ('ptuple', [p])
Types       ('tensor', elem, [atom])   elem 'dims' for a dims type
            ('tuple', [t])  ('fun', [t], t)  ('tvar', name)
Shape atoms ('dims', [dim])  ('svar', name)  ('sbc', [[atom]])
Dimensions  ('int', k)  ('dvar', name)  ('rag',)  ('q',)  ('op', op, a, b)
            ('elements', [atom])  ('rank', [atom])  ('dbc', [dim])
Where       [(op, dim, dim)]  op '=' or '<='
Items       Item(kind 'let' | 'extern' | 'main', name, node, where, line)
"""
import re

ELEM_TYPES = ('bool', 'i8', 'i16', 'i32', 'i64', 'u8', 'u16', 'u32', 'u64',
              'f16', 'bf16', 'f32', 'f64')
KEYWORDS = ('fn', 'extern', 'inf', 'where', 'import')


class ParseError(Exception):
    pass


_TOKEN = re.compile(r'''
    (?P<ws>\s+)
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
    """[(kind, text, line)], ending with ('eof', '', line)."""
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
            toks.append((kind, val, line))
        line += val.count('\n')
        i = m.end()
    toks.append(('eof', '', line))
    return toks


class Item(object):
    def __init__(self, kind, name, node, where, line, filename):
        self.kind, self.name, self.node = kind, name, node
        self.where, self.line, self.filename = where, line, filename


class Parser(object):
    def __init__(self, text, filename='<input>'):
        self.toks = lex(text, filename)
        self.i = 0
        self.filename = filename

    # -- token helpers
    def kind(self, k=0):
        return self.toks[min(self.i + k, len(self.toks) - 1)][0]

    def next(self):
        t = self.toks[self.i]
        self.i += 1
        return t

    def fail(self, what):
        t = self.toks[self.i]
        raise ParseError('%s:%d: expected %s, found %r' % (self.filename, t[2], what, t[1] or t[0]))

    def expect(self, kind):
        if self.kind() != kind:
            self.fail(repr(kind))
        return self.next()

    def accept(self, kind):
        return self.next() if self.kind() == kind else None

    # -- program
    def program(self):
        """-> (imports, items)."""
        imports = []
        while self.kind() == 'import':
            self.next()
            imports.append(self.expect('str')[1][1:-1])
            self.expect(';')
        items = []
        while self.kind() != 'eof':
            line = self.toks[self.i][2]
            where = []
            if self.accept('extern'):
                name = self.expect('id')[1]
                self.expect(':')
                ty = self.type_()
                if self.accept('where'):
                    where = self.where_clauses()
                item = Item('extern', name, ty, where, line, self.filename)
            elif self.kind() == 'fn':
                item = Item('main', None, self.lambda_(), [], line, self.filename)
            elif self.kind() == 'import':
                raise ParseError('%s:%d: an import after an item (imports come first in a file)'
                                 % (self.filename, line))
            else:
                name = self.expect('id')[1]
                self.expect('=')
                item = Item('let', name, self.expr(), [], line, self.filename)
            items.append(item)
            closed = self.toks[self.i - 1][0] == '}'
            if not self.accept(';') and not closed and self.kind() != 'eof':
                self.fail("';' after a top-level item")
        return imports, items

    def where_clauses(self):
        out = []
        while True:
            a = self.dim()
            if self.kind() not in ('=', '<='):
                self.fail("'=' or '<='")
            op = self.next()[0]
            out.append((op, a, self.dim()))
            if not self.accept(','):
                return out

    # -- expressions
    def expr(self):
        a = self.term()
        while self.kind() in ('+', '-'):
            op = self.next()[0]
            a = ('bin', op, a, self.term())
        return a

    def term(self):
        a = self.unary()
        while self.kind() in ('*', '/'):
            op = self.next()[0]
            a = ('bin', op, a, self.unary())
        return a

    def unary(self):
        if self.accept('-'):
            return ('neg', self.unary())
        return self.postfix()

    def postfix(self):
        e = self.primary()
        while self.accept('('):
            args = []
            if self.kind() != ')':
                args.append(self.arg())
                while self.accept(','):
                    args.append(self.arg())
            self.expect(')')
            e = ('call', e, args)
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
            dims = self.dim_list(']')
            return ('dimsv', dims)
        if self.accept('('):
            items = [self.expr()]
            while self.accept(','):
                items.append(self.expr())
            self.expect(')')
            return items[0] if len(items) == 1 else ('tuple', items)
        self.fail('an expression')

    def exprlist(self):
        items = [self.expr()]
        while self.accept(','):
            items.append(self.expr())
        return items[0] if len(items) == 1 else ('tuple', items)

    def lambda_(self):
        self.expect('fn')
        self.expect('(')
        params = []
        if self.kind() != ')':
            while True:
                name = self.expect('id')[1]
                params.append((name, self.type_() if self.accept(':') else None))
                if not self.accept(','):
                    break
        self.expect(')')
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
        return ('fn', params, rtype, where, stmts, final)

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
        items = [self.patatom()]
        while self.accept(','):
            items.append(self.patatom())
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
            items = []
            if self.kind() != ')':
                items.append(self.type_())
                while self.accept(','):
                    items.append(self.type_())
            self.expect(')')
            if self.accept('->'):
                return ('fun', items, self.type_())
            return items[0] if len(items) == 1 else ('tuple', items)
        name = self.expect('id')[1]
        if self.kind() in ('[', 'id'):
            return ('tensor', name, self.shape())
        if name in ELEM_TYPES or name == 'dims':
            return ('tensor', name, [])
        return ('tvar', name)

    def shape(self):
        atoms = [self.satom()]
        while self.accept('@'):
            atoms.append(self.satom())
        return atoms

    def satom(self):
        if self.accept('['):
            return ('dims', self.dim_list(']'))
        name = self.expect('id')[1]
        if name == 'broadcast' and self.accept('('):
            ops = [self.shape()]
            while self.accept(','):
                ops.append(self.shape())
            self.expect(')')
            return ('sbc', ops)
        return ('svar', name)

    def dim_list(self, close):
        dims = []
        if self.kind() != close:
            dims.append(self.dim())
            while self.accept(','):
                dims.append(self.dim())
        self.expect(close)
        return dims

    # -- dimensions
    def dim(self):
        a = self.dterm()
        while self.kind() in ('+', '-'):
            op = self.next()[0]
            a = ('op', op, a, self.dterm())
        return a

    def dterm(self):
        a = self.dprim()
        while self.kind() in ('*', '/', '%'):
            op = self.next()[0]
            a = ('op', op, a, self.dprim())
        return a

    def dprim(self):
        k = self.kind()
        if self.accept('-'):
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
                ops = [self.dim()]
                while self.accept(','):
                    ops.append(self.dim())
                self.expect(')')
                return ('dbc', ops)
            if name in ('elements', 'rank') and self.accept('('):
                sh = self.shape()
                self.expect(')')
                return (name, sh)
            return ('dvar', name)
        if self.accept('('):
            pre = self.try_prefix()
            if pre is not None:
                return pre
            d = self.dim()
            self.expect(')')
            return d
        self.fail('a dimension')

    def try_prefix(self):
        """The paper's prefix form `(+ a b ...)`, after the `(`; None (and
        nothing consumed) if this is an infix expression like `(-g * m)`."""
        if self.kind() not in ('+', '-', '*', '/', '%'):
            return None
        save = self.i
        try:
            op = self.next()[0]
            args = []
            while self.kind() != ')':
                if self.kind() in ('+', '-', '*', '/', '%'):
                    raise ParseError('prefix form')
                args.append(self.dprim())
            self.next()
            if len(args) < 2:
                raise ParseError('prefix form')
        except ParseError:
            self.i = save
            return None
        d = args[0]
        for b in args[1:]:
            d = ('op', op, d, b)
        return d


def parse(text, filename='<input>'):
    """-> (imports, items) of one file."""
    return Parser(text, filename).program()
