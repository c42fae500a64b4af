#!/usr/bin/env python3
"""run.py - the semantic differential test: generated (or given) Axon
programs, their headers from `axonc emit`, and the interpreter of
interp.py, compared on many input-shape tuples.

    run.py --axonc build/axonc --cc "gcc -std=c99" --seed 1 --programs 150 \\
           --tuples 200 --work /tmp/sem
    run.py --axonc build/axonc --cc "gcc -std=c99" --file samples/mlp/mlp.axon ...

Every disagreement prints one line starting with DISAGREE; a summary
follows, and the last line is `disagreements N`.  Exit status 1 if N > 0.
"""
import argparse
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.join(HERE, '..', 'lib'))
sys.dont_write_bytecode = True
import interp  # noqa: E402
import gen     # noqa: E402
from axparse import flat_types, is_dims_type, has_fun_type, subtrees, pattern_names  # noqa: E402
from plumbing import run_cmd, iflags, check_signatures, parallel_map, fmt_tuple  # noqa: E402

INT64_MAX = (1 << 63) - 1
LARGE = [1 << 40, 1 << 40, (1 << 31) + 1, 1 << 62]


# ---------------------------------------------------------------- tuples

def rand_dim(rng, large=True):
    r = rng.random()
    if r < 0.25:
        return 1
    if r < 0.32:
        return 0
    if r < 0.88:
        return rng.randint(2, 6)
    if r < 0.97 or not large:
        return rng.randint(7, 12)
    return rng.choice(LARGE)


def sig_dim(d, env, rng, ctx):
    k = d[0]
    if k == 'int':
        return d[1]
    if k == 'dvar':
        v = env.get(d[1])
        if v is None:
            v = env[d[1]] = rand_dim(rng)
        return v
    if k == 'rag':
        return interp.RAG
    if k == 'q':
        return rand_dim(rng)
    if k == 'op':
        return interp.darith(ctx, d[1], sig_dim(d[2], env, rng, ctx), sig_dim(d[3], env, rng, ctx))
    vals = [sig_dim(x, env, rng, ctx) for x in d[1]]
    r = vals[0]
    for v in vals[1:]:
        r = interp.bcast_dim(ctx, r, v)
    return r


def sig_shape(atoms, env, senv, rng, ctx):
    out = []
    for a in atoms:
        if a[0] == 'dims':
            out.extend(sig_dim(d, env, rng, ctx) for d in a[1])
        elif a[0] == 'svar':
            v = senv.get(a[1])
            if v is None:
                v = senv[a[1]] = tuple(rand_dim(rng) for _ in range(rng.choice([0, 0, 1, 1, 2, 3])))
            out.extend(v)
        else:
            ops = [sig_shape(x, env, senv, rng, ctx) for x in a[1]]
            r = ops[0]
            for s in ops[1:]:
                r = interp.bcast_shapes(ctx, r, s)
            out.extend(r)
    return tuple(out)


ELEM_SIZE = {'bool': 1, 'i8': 1, 'u8': 1, 'i16': 2, 'u16': 2, 'f16': 2, 'bf16': 2,
             'i32': 4, 'u32': 4, 'f32': 4, 'i64': 8, 'u64': 8, 'f64': 8}


def elem_size(e):
    """Bytes of an element type; an element variable is f32 (axonc emit's
    default --elem-type); a dims value's sizes are planned as 8-byte
    elements."""
    if e == 'dims':
        return 8
    return ELEM_SIZE.get(e, 4)


def count_overflows(shape, esize):
    """True/False: whether a plan's element or byte count of this shape
    overflows int64 (a 0 axis makes the counts 0; an unknown or ragged axis
    makes them -1); None when it depends on an unknown element size."""
    if any(d == 0 for d in shape):
        return False
    if any(d < 0 for d in shape):
        return False
    n = 1
    for d in shape:
        n *= d
    if esize is None:
        if n > INT64_MAX:
            return True
        if n * 8 <= INT64_MAX:
            return False
        return None
    return n > INT64_MAX or n * esize > INT64_MAX


def dims_rank(t):
    """The rank of a dims parameter's type, None if a shape variable (an
    un-annotated parameter that inference left `dims a`) makes it open."""
    n = 0
    for a in t[2]:
        if a[0] != 'dims':
            return None
        n += len(a[1])
    return n


def dims_size(rng, pool, negative):
    """A value of a run-time dims parameter (spec 5b: an axis, a window, a
    stride, a padding, a factor, k, a slice bound, a target size): mostly
    small (an axis in range, a window that fits), often a size of the
    tuple's tensors or a product of two (a reshape target, a bound), now and
    then out of range: large, past int64's products, or (with --negative)
    negative."""
    r = rng.random()
    if r < 0.45:
        return rng.choice([0, 0, 1, 1, 1, 2, 2, 3])
    if r < 0.75 and pool:
        a = rng.choice(pool)
        q = rng.random()
        if q < 0.6:
            return a
        if q < 0.75:
            return a * rng.choice(pool)
        if q < 0.9:
            return a // 2
        return max(a - 1, 0)
    if r < 0.9:
        return rng.randint(4, 12)
    if negative and r < 0.94:
        return rng.choice([-1, -1, -3])
    return rng.choice([4, 5, 8] + LARGE)


def tensor_pool(shapes, types):
    pool = set()
    for s, t in zip(shapes, types):
        if s is None or is_dims_type(t):
            continue
        n = 1
        for d in s:
            if d >= 0:
                pool.add(d)
                n *= d
        if s:
            pool.add(n)
    return sorted(d for d in pool if d <= INT64_MAX)


def redraw_dims(rng, flat, ptypes, negative):
    """The tuple with new values for its dims parameters (the tensors
    kept), or None if it has none."""
    idx = [i for i, t in enumerate(ptypes) if is_dims_type(t)]
    if not idx or len(ptypes) != len(flat):
        return None
    pool = tensor_pool(flat, ptypes)
    out = list(flat)
    for i in idx:
        out[i] = tuple(dims_size(rng, pool, negative) for _ in range(len(flat[i])))
    return out


def tuple_from_types(rng, ptypes, negative=False):
    """Input shapes from the parameter types of a signature (or the
    annotations), with random values for the variables; None on failure.
    The tensors first: a dims parameter's size that a tensor's type also
    names takes its value, any other one dims_size's."""
    for _ in range(6):
        env, senv = {}, {}
        ctx = interp.Ctx()
        try:
            shapes = [None] * len(ptypes)
            order = [i for i, t in enumerate(ptypes) if not is_dims_type(t)] + \
                [i for i, t in enumerate(ptypes) if is_dims_type(t)]
            for i in order:
                t = ptypes[i]
                if is_dims_type(t):
                    pool = tensor_pool(shapes, ptypes)
                    free = set()
                    for a in t[2]:
                        if a[0] == 'dims':
                            for d in a[1]:
                                if d[0] == 'dvar' and d[1] not in env:
                                    free.add(d[1])
                    for v in sorted(free):
                        env[v] = dims_size(rng, pool, False)
                    if dims_rank(t) is None:
                        for a in t[2]:
                            if a[0] == 'svar' and a[1] not in senv:
                                senv[a[1]] = tuple(dims_size(rng, pool, False)
                                                   for _ in range(rng.choice([1, 1, 2, 2, 3, 4])))
                    s = sig_shape(t[2], env, senv, rng, ctx)
                elif t[0] == 'tensor':
                    s = sig_shape(t[2], env, senv, rng, ctx)
                else:
                    s = tuple(rand_dim(rng) for _ in range(rng.choice([0, 1, 2])))
                dims = []
                for d in s:
                    if d is interp.RAG:
                        dims.append(-2)         # only where the type says `*`
                    elif isinstance(d, int) and d >= 0:
                        dims.append(d)
                    else:
                        raise interp.Reject('not a size')
                shapes[i] = tuple(dims)
        except (interp.Reject, RecursionError):
            continue
        if any(len(s) > 8 for s in shapes) or any(d > INT64_MAX for s in shapes for d in s):
            continue
        if negative and rng.random() < 0.04:
            d = redraw_dims(rng, shapes, ptypes, True)
            if d is not None:
                shapes = d
        return shapes
    return None


def mutate(rng, shapes, negative=False):
    shapes = list(shapes)
    if not shapes:
        return shapes
    i = rng.randrange(len(shapes))
    s = list(shapes[i])
    r = rng.random()
    if s and negative and r < 0.08:
        s[rng.randrange(len(s))] = rng.choice([-1, -3])
    elif s and r < 0.65:
        j = rng.randrange(len(s))
        old = s[j]
        for _ in range(5):
            s[j] = rng.choice([old + 1, max(old - 1, 0), 1, 0, rand_dim(rng, large=False)])
            if s[j] != old:
                break
    elif r < 0.85 and s:
        del s[rng.randrange(len(s))]
    elif len(s) < 8:
        s.insert(rng.randrange(len(s) + 1), rng.choice([1, 1, 2, 3]))
    shapes[i] = tuple(s)
    return shapes


def random_tuple(rng, n, negative, ptypes=None):
    """Random shapes; a dims parameter (ptypes, where they are known) is
    mostly of its type's rank, its values dims_size's."""
    pool = [rand_dim(rng) for _ in range(rng.choice([1, 2, 3]))]
    r0 = rng.choice([0, 1, 1, 2, 2, 3, 4])
    shapes = []
    for i in range(n):
        t = ptypes[i] if ptypes is not None and len(ptypes) == n else None
        if t is not None and is_dims_type(t) and rng.random() < 0.8:
            rank = dims_rank(t)
            if rank is None or rng.random() < 0.1:
                rank = rng.choice([0, 1, 1, 2, 2, 3, 4])
            shapes.append(tuple(dims_size(rng, pool, negative) for _ in range(rank)))
            continue
        rank = min(max(r0 + rng.choice([-1, 0, 0, 0, 1]), 0), 4)
        dims = []
        for _ in range(rank):
            dims.append(rng.choice(pool) if rng.random() < 0.75 else rand_dim(rng))
        shapes.append(tuple(dims))
    if negative and shapes and rng.random() < 0.08:
        cands = [i for i, s in enumerate(shapes) if s]
        if cands:
            i = rng.choice(cands)
            s = list(shapes[i])
            s[rng.randrange(len(s))] = rng.choice([-1, -3, -7, -(1 << 40)])
            shapes[i] = tuple(s)
    return shapes


def count_structure(st):
    if st == 'T' or st == 'F':
        return 1
    return sum(count_structure(x) for x in st)


# ---------------------------------------------------------------- outcomes

def simple_dim(d):
    if d is interp.RAG:
        return -2
    if isinstance(d, int):
        return d
    return -1


def simple_max(d):
    """A size of a largest shape: an int, -1 where no bound is known (or it
    exceeds int64), -2 ragged."""
    if d is None:
        return -1
    return simple_dim(d)


def simplify(o):
    """An Outcome as plain data: kind, reason, outputs, temps (name, shape,
    is an output), count overflow, the largest shapes of the outputs and of
    the temps (spec 5b: a `?` at its bound)."""
    return (o.kind, o.reason,
            [[simple_dim(d) for d in s] for s in o.outputs],
            [(n, [simple_dim(d) for d in s], al) for n, s, al in o.temps],
            o.count_overflow,
            [[simple_max(d) for d in s] for s in o.max_outputs],
            [[simple_max(d) for d in s] for s in o.max_temps],
            list(o.out_dims), o.undetermined, list(o.dims_names))


def fmt_shape_list(shapes):
    return ' '.join('[' + ','.join(map(str, o)) + ']' for o in shapes)


def fmt_interp(r, with_max=False):
    kind, reason, outs, temps = r[:4]
    if kind != 'accept':
        return '%s(%s)' % (kind.upper(), reason)
    dv = r[7] if len(r) > 7 and r[7] else [False] * len(outs)
    s = 'ACCEPT ' + ' '.join(('dims' if d else '') + '[' + ','.join(map(str, o)) + ']' for o, d in zip(outs, dv))
    if temps:
        s += ' tmp ' + ' '.join('%s=[%s]' % (n, ','.join(map(str, t))) for n, t, _ in temps)
    if with_max:
        s += ' max ' + fmt_shape_list(r[5])
        if temps:
            s += ' tmp_max ' + ' '.join('%s=[%s]' % (t[0], ','.join(map(str, m))) for t, m in zip(temps, r[6]))
    return s


# ---------------------------------------------------------------- axonc

ERR_RE = re.compile(r'^(.*?):(\d+):(\d+): error: (.*)$')
NOTE_RE = re.compile(r'^(.*?):(\d+):(\d+): note: (.*)$')
WARN_RE = re.compile(r"^(.*?):(\d+):(\d+): warning: '(.+)' is not exported: (.*)$")


def reason_class(text):
    t = text.lower()
    if 'function' in t and ('parameter' in t or 'result' in t or 'higher' in t
                            or 'argument' in t or 'output' in t):
        return 'higher-order'
    if 'any type' in t:
        return 'parameter of any type'
    if 'rank' in t and 'output' in t:
        return 'output rank not determined'
    if 'split' in t:
        return 'input rank split not determined'
    if 'elem' in t:
        return 'element type'
    if 'cannot decide' in t:
        what = t.split('cannot decide', 1)[1].split('from the input', 1)[0]
        m = re.match(r"\s*(.*?) = [\w']+ \(input \d+\) axis \d+", what)
        if m:
            # an input's size given by an expression of its annotation
            # (`x : f32 [a * b + b]`): its form, the names lettered
            letters = {}
            form = re.sub(r"[A-Za-z_][\w']*",
                          lambda n: letters.setdefault(n.group(0), 'abcdefghijklmnopqrs'[min(len(letters), 18)]),
                          m.group(1))
            u = re.search(r'\(unknowns ([^;)]*)', t)
            n = len([x for x in u.group(1).split(',') if x.strip()]) if u else 0
            return 'cannot decide an input size %s (%s)' % (
                form, 'no unknown' if n == 0 else '1 unknown' if n == 1 else '%d unknowns' % n)
        if 'broadcast' in what:
            return 'cannot decide a broadcast'
        if '>=' in what:
            return 'cannot decide a size >= 0'
        if ' / ' in what:
            return 'cannot decide a floor division'
        if ' * ' in what:
            return 'cannot decide a product'
        if ' + ' in what or ' - ' in what:
            return 'cannot decide a sum'
        return 'cannot decide (other)'
    t = re.sub(r"'[^']*'", "'_'", text)
    t = re.sub(r'\([^)]*\)', '(_)', t)
    t = re.sub(r'\d+', 'N', t)
    return t


def has_imports(path):
    """Whether a file has `import` lines (spec section 2)."""
    try:
        with open(path) as f:
            text = f.read()
    except (OSError, UnicodeDecodeError):
        return False
    try:
        return bool(interp.parse_program(text, path, [os.path.dirname(os.path.abspath(path))]).imports)
    except interp.AxonSyntaxError:
        return bool(re.search(r'(?m)^\s*import\s+"', text))


AFTER_FUNCTION = {'IN', 'OUT', 'TMP', 'NUM', 'EXTERN'}


def c_name(name):
    """A function's name as the header spells it (docs/c-api.md, "Names in
    C"): as written when plain (letters and digits in segments joined by
    single underscores, no later segment IN, OUT, TMP, NUM or EXTERN), else
    `_` then the name with `_` written `__` and `'` written `_prime`."""
    segs = name.split('_')
    plain = (all(g and g.isascii() and g.isalnum() for g in segs) and not name[0].isdigit()
             and not any(g in AFTER_FUNCTION for g in segs[1:]))
    if plain:
        return name
    return '_' + name.replace('_', '__').replace("'", '_prime')


def item_end_line(prog, it):
    return prog.text.count('\n', 0, it.end) + 1


def dependents(prog, failing):
    """failing items and every item that uses one."""
    bad = set(failing)
    changed = True
    while changed:
        changed = False
        for it in prog.items:
            if it.name in bad or it.kind == 'extern':
                continue
            if interp.free_names(it.node) & bad:
                bad.add(it.name)
                changed = True
    return bad


# ---------------------------------------------------------------- run-time dims

# spec 5b: the operators with dims arguments, and which arguments are dims
DIMS_POS = {'conv1d': (2, 3), 'conv2d': (2, 3), 'conv2d_grouped': (2, 3, 4, 5),
            'maxpool2d': (1, 2, 3), 'avgpool2d': (1, 2, 3), 'maxpool1d': (1, 2, 3),
            'avgpool1d': (1, 2, 3), 'upsample2d': (1,), 'pad2d': (1,), 'size': (0,),
            'topk': (1,), 'reshape': (1,), 'concat_axis': (-1,), 'slice': (1, 2, 3),
            # the last table (concat_axis: any number of tensors, the axis last)
            'conv1d_grouped': (2, 3, 4, 5), 'expand': (1,), 'arange': (0,)}


def dims_positions(op, nargs):
    """The positions of an operator's dims arguments in a call of nargs."""
    return set(p % nargs if p < 0 else p for p in DIMS_POS[op]) if nargs else set()


def ast_names(e, out):
    """Every value name and dimension name under an AST node."""
    for n in subtrees(e):
        if len(n) == 2 and n[0] in ('var', 'dvar') and isinstance(n[1], str):
            out.add(n[1])
    return out


def dims_args(e):
    """[(operator, [its dims arguments])] of the calls of 5b operators
    under an AST node (a program's item of that name hides one)."""
    out = []
    for n in subtrees(e):
        if n and n[0] == 'call' and len(n) == 3 and n[1][0] == 'var' and n[1][1] in DIMS_POS:
            pos = dims_positions(n[1][1], len(n[2]))
            out.append((n[1][1], [a for i, a in enumerate(n[2]) if i in pos]))
    return out


def runtime_dims(prog, name, ptypes):
    """Whether function `name` passes a run-time dims parameter (or a size
    of one's annotation, or a local computed from one) to a 5b operator:
    the review's 'programs that use 5b with run-time dims parameters'."""
    it = prog.by_name.get(name)
    if it is None or it.kind == 'extern' or it.node[0] != 'fn':
        return False
    params = it.node[1]
    names = set()
    for (pn, pt), t in zip(params, ptypes if ptypes and len(ptypes) == len(params) else [None] * len(params)):
        if (pt is not None and pt[0] == 'tensor' and pt[1] == 'dims') or (t is not None and is_dims_type(t)):
            names.add(pn)
            if pt is not None:
                ast_names(pt[2], names)
    if not names:
        return False
    # a local bound from one of them is one of them
    for st in it.node[3]:
        if ast_names(st[-1], set()) & names:
            names |= pattern_names(st[1]) if st[0] != 'ann' else {st[1]}
    if any(ast_names(args, set()) & names for _, args in dims_args(it.node)):
        return True
    return False


def guess_dims_params(prog, name, st):
    """The structure of a function that check rejects, from its annotations:
    an un-annotated parameter passed straight as a 5b operator's dims
    argument is a dims value."""
    it = prog.by_name.get(name)
    if it is None or it.kind == 'extern' or it.node[0] != 'fn' or len(st) != len(it.node[1]):
        return st
    direct = set()
    for _, args in dims_args(it.node):
        direct.update(a[1] for a in args if a[0] == 'var')
    return [interp.DIMS if pt is None and pn in direct and x == 'T' else x
            for (pn, pt), x in zip(it.node[1], st)]


# ---------------------------------------------------------------- one program

class Job(object):
    def __init__(self, idx, path, prefix, args, include=()):
        self.idx, self.path, self.prefix = idx, path, prefix
        # spec section 2: where imports are looked for after the program's
        # own directory (`-I DIR`, in order), passed to axonc and to the
        # interpreter alike (only where there are some: the directory of a
        # program's helper files, a copied --file's own directory, the
        # user's -I)
        self.include = list(include)
        self.axonc, self.tuples, self.seed = args.axonc, args.tuples, args.seed
        self.negative = args.negative
        self.budget = args.budget
        self.hdir = os.path.join(args.work, 'h')


def run_tuples(prog, name, structure, ptypes, rng, ntuples, negative, budget, sig_share=0.5):
    """[(flat, simple outcome, origin)] for one function."""
    n = sum(count_structure(st) for st in structure)
    out = []
    seen = set()
    attempts = 0
    while len(out) < ntuples and attempts < ntuples * 3:
        attempts += 1
        from_sig = ptypes is not None and rng.random() < sig_share
        if from_sig:
            flat = tuple_from_types(rng, ptypes, negative)
            if flat is None:
                from_sig = False
            else:
                mutated = rng.random() < 0.3
                if mutated:
                    flat = mutate(rng, flat, negative)
        if not from_sig:
            flat = random_tuple(rng, n, negative, ptypes)
        key = tuple(tuple(s) for s in flat)
        if key in seen:
            continue
        seen.add(key)
        o = interp.run_function(prog, name, [tuple(s) for s in flat], structure, budget=budget)
        if from_sig and not mutated and o.kind == 'reject':
            # the where-clauses are not sampled: try again for an accepted
            # one (the rejected tuple kept now and then)
            if rng.random() >= 0.6:
                out.append((list(map(list, flat)), simplify(o), 'sig'))
            # run-time dims parameters (an axis, a window, a reshape's
            # target) that the signature does not tie to the tensors: other
            # values for them, the tensors kept
            for _ in range(4):
                f2 = redraw_dims(rng, flat, ptypes, False)
                if f2 is None:
                    break
                k2 = tuple(tuple(s) for s in f2)
                if k2 in seen:
                    continue
                o2 = interp.run_function(prog, name, [tuple(s) for s in f2], structure, budget=budget)
                if o2.kind != 'reject':
                    seen.add(k2)
                    out.append((list(map(list, f2)), simplify(o2), 'sig'))
                    break
            continue
        out.append((list(map(list, flat)), simplify(o), 'sig' if from_sig else 'rnd'))
    return out


def same_file(a, b):
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return False


def import_lines(prog):
    """A program's own imports, for a reduced copy of it (elsewhere: what
    they name is then found through -I, the original's directory)."""
    return ''.join('import "%s";\n' % p for p, _ in prog.imports)


def process(job):
    res = {'idx': job.idx, 'path': job.path, 'prefix': job.prefix, 'functions': [],
           'notes': [], 'check_rc': None, 'syntax': None, 'include': job.include}
    rng = random.Random('%s:%s' % (job.seed, job.idx))
    text = open(job.path).read()
    try:
        prog = interp.parse_program(text, job.path, job.include)
    except interp.AxonSyntaxError as e:
        prog = None
        res['notes'].append('interp.py cannot parse: %s' % e)
    if prog is not None and prog.imports and os.path.dirname(job.path) not in job.include:
        # a reduced copy lives elsewhere: its imports through -I
        job.include = job.include + [os.path.dirname(job.path)]
        res['include'] = job.include
    chk = run_cmd([job.axonc, 'check', job.path] + iflags(job.include))
    res['check_rc'] = chk.returncode
    if chk.returncode not in (0, 1):
        res['notes'].append('axonc check exited %d: %s' % (chk.returncode, chk.stderr[-300:]))
        return res
    if prog is None:
        if chk.returncode == 0:
            res['syntax'] = 'axonc accepts a program that interp.py cannot parse'
        return res
    path = job.path
    if chk.returncode == 1:
        if 'syntax error' in chk.stderr:
            res['syntax'] = 'axonc: ' + chk.stderr.strip().splitlines()[0]
            return res
        # the items holding an error; an error located in an extern's
        # signature (the rule that failed) belongs to the items its notes
        # point at
        # (an error located in an imported file belongs to that file's
        # items: spec section 2)
        texts = {}

        def item_at(F, L):
            own = F is None or same_file(F, job.path) or not os.path.exists(F)
            if own:
                its, t = prog.own, prog.text
            else:
                key = os.path.realpath(F)
                its = [it for it in prog.items if it.file == key]
                if key not in texts:
                    try:
                        texts[key] = open(key).read()
                    except (OSError, UnicodeDecodeError):
                        texts[key] = ''
                t = texts[key]
            for it in its:
                if it.line <= L <= t.count('\n', 0, it.end) + 1:
                    return it
            return None
        # an item uses only the items above it, so an error belongs to the
        # last item among its location and its notes' (the first may be a
        # callee's rule or an extern's signature)
        # (a warning's notes are not the error's: they end its block)
        failing = []
        blocks = []
        in_error = False
        for ln in chk.stderr.splitlines():
            m = ERR_RE.match(ln)
            if m:
                blocks.append([(m.group(1), int(m.group(2)))])
                in_error = True
                continue
            if ': warning: ' in ln:
                in_error = False
                continue
            m = NOTE_RE.match(ln)
            if m and blocks and in_error:
                blocks[-1].append((m.group(1), int(m.group(2))))
        order = dict((id(it), i) for i, it in enumerate(prog.items))
        own_ids = set(id(it) for it in prog.own)
        failing_imported = []
        for lines in blocks:
            its = [item_at(F, L) for F, L in lines]
            its = [it for it in its if it is not None]
            if its:
                last = max(its, key=lambda it: order[id(it)])
                if last.kind == 'extern':
                    continue
                if id(last) not in own_ids:
                    # an imported item: its users are left out, it is not
                    # this program's function to try
                    if last.name not in failing_imported:
                        failing_imported.append(last.name)
                elif last.name not in failing:
                    failing.append(last.name)
        msg = [ln for ln in chk.stderr.splitlines() if ': error: ' in ln]
        for name in failing:
            st = interp.structure_from_annotations(prog, name)
            if st is None or any(interp.has_fun(x) for x in st):
                continue
            st = guess_dims_params(prog, name, st)
            it = prog.by_name[name]
            ptypes = None
            if it.kind != 'extern' and it.node[0] == 'fn':
                ptypes = []
                for (pn, pt), x in zip(it.node[1], st):
                    if pt is None:
                        ptypes.append(('tensor', 'dims', [('svar', '%' + pn)]) if x is interp.DIMS
                                      else ('tvar', pn))
                    else:
                        flat_types(pt, ptypes)
            tuples = run_tuples(prog, name, st, ptypes, rng, max(job.tuples // 2, 10), job.negative, job.budget, 0.6)
            res['functions'].append({'name': name, 'status': 'static_reject', 'tuples': tuples,
                                     'rtdims': runtime_dims(prog, name, ptypes),
                                     'message': ' / '.join(m for m in msg if ':%d:' % it.line in m or True)[:300]})
        # check the rest of the program without the failing items
        bad = dependents(prog, failing + failing_imported)
        keep = [it for it in prog.own if it.name not in bad]
        if failing_imported:
            res['notes'].append('an imported item fails check: %s' % ', '.join(failing_imported))
        if not keep or not failing:
            return res
        rdir = os.path.join(os.path.dirname(os.path.dirname(job.path)), 'reduced', str(job.idx))
        os.makedirs(rdir, exist_ok=True)
        path = os.path.join(rdir, os.path.basename(job.path))
        with open(path, 'w') as f:
            f.write(import_lines(prog))
            for it in keep:
                f.write(text[it.start:it.end].rstrip(';') + ';\n')
        text = open(path).read()
        try:
            prog = interp.parse_program(text, path, job.include)
        except interp.AxonSyntaxError as e:
            res['notes'].append('reduced program does not parse: %s' % e)
            return res
        chk = run_cmd([job.axonc, 'check', path] + iflags(job.include))
        res['reduced'] = path
        if chk.returncode != 0:
            res['notes'].append('reduced program still fails check')
            return res
    sigs = {}
    for name, ty, where, ln in check_signatures(chk.stdout, res['notes']):
        sigs[name] = (ty, where, ln)
    hpath = os.path.join(job.hdir, job.prefix + '.h')
    em = run_cmd([job.axonc, 'emit', path, '-o', hpath, '--prefix', job.prefix] + iflags(job.include))
    if em.returncode != 0:
        res['notes'].append('axonc emit failed (%d): %s' % (em.returncode, em.stderr[-300:]))
        return res
    res['header'] = hpath
    res['path'] = path
    refused = {}
    for ln in em.stderr.splitlines():
        m = WARN_RE.match(ln)
        if m:
            refused[m.group(4)] = m.group(5)
    htext = open(hpath).read()
    exported = {}
    for m in re.finditer(r'#define %s_(\w+)_NUM_(INPUTS|OUTPUTS|TEMPS) (\d+)' % re.escape(job.prefix), htext):
        exported.setdefault(m.group(1), {})[m.group(2)] = int(m.group(3))
    # spec section 2: emit exports the functions of the file it is given,
    # not those it imports
    res['imported_exported'] = [it.name for it in prog.items if it not in prog.own and
                                it.kind != 'extern' and c_name(it.name) in exported]
    for it in prog.own:
        name = it.name
        if name not in sigs:
            continue
        ty = sigs[name][0]
        if ty[0] != 'fun':
            continue
        structure = [interp.structure_of_type(t) for t in ty[1]]
        ptypes = []
        for t in ty[1]:
            flat_types(t, ptypes)
        f = {'name': name, 'sig': sigs[name][2], 'rtdims': runtime_dims(prog, name, ptypes)}
        cn = c_name(name)
        if cn in exported:
            f['status'] = 'exported'
            f['cname'] = '%s_%s' % (job.prefix, cn)
            f['counts'] = exported[cn]
        elif name in refused:
            f['status'] = 'refused'
            f['reason'] = refused[name]
        else:
            f['status'] = 'missing'
        f['out_elems'] = [elem_size(t[1]) if t[0] == 'tensor' else 4 for t in flat_types(ty[2], [])]
        if any(interp.has_fun(x) for x in structure) or has_fun_type(ty[2]):
            f['higher_order'] = True
            f['tuples'] = []
        else:
            f['tuples'] = run_tuples(prog, name, structure, ptypes, rng, job.tuples, job.negative, job.budget)
        res['functions'].append(f)
    return res


# ---------------------------------------------------------------- the C harness

HARNESS_HEAD = r'''/* Generated by tests/semantic/run.py: every exported shape function of the
 * programs below, called on the input tuples read from stdin. */
#include <stdio.h>
#include <string.h>
'''

HARNESS_MAIN = r'''
static void put_shape(const axon_shape *s)
{
    int j;
    printf(" %d", s->rank);
    for (j = 0; j < s->rank && j < AXON_MAX_RANK; j++)
        printf(" %lld", (long long)s->dims[j]);
}

static void put_counts(int64_t e, int64_t b)
{
    printf(" %lld %lld", (long long)e, (long long)b);
}

int main(int argc, char **argv)
{
    static axon_shape in[MAXIN + 1], out[MAXOUT + 1], tmp[MAXTMP + 1], out2[MAXOUT + 1];
    static axon_shape omax[MAXOUT + 1], tmax[MAXTMP + 1];
    static int64_t ocnt[4 * MAXOUT + 4], tcnt[4 * MAXTMP + 4];
    axon_error err, err2;
    int fid, nin, i, j;
    if (argc > 1 && strcmp(argv[1], "--names") == 0) {
        for (i = 0; i < NENTRIES; i++) {
            printf("%d %d %d %d", i, entries[i].nin, entries[i].nout, entries[i].ntmp);
            for (j = 0; j < entries[i].ntmp; j++) {
                const char *n = entries[i].tname(j);
                printf("\t%s", n ? n : "(null)");
            }
            printf("\n");
        }
        return 0;
    }
    while (scanf("%d %d", &fid, &nin) == 2) {
        const struct entry *e;
        int st1, st2;
        if (fid < 0 || fid >= NENTRIES || nin != entries[fid].nin || nin > MAXIN)
            return 3;
        e = &entries[fid];
        for (i = 0; i < nin; i++) {
            long long d;
            if (scanf("%d", &in[i].rank) != 1 || in[i].rank < 0 || in[i].rank > AXON_MAX_RANK)
                return 3;
            for (j = 0; j < in[i].rank; j++) {
                if (scanf("%lld", &d) != 1)
                    return 3;
                in[i].dims[j] = (int64_t)d;
            }
        }
        memset(&err, 0, sizeof err);
        memset(&err2, 0, sizeof err2);
        st1 = e->prep(in, out, tmp, omax, ocnt, tmax, tcnt, &err);
        st2 = e->shape(in, out2, &err2);
        printf("R %d %s %d", st1, axon_status_name(st1), st2);
        if (st1 == 0) {
            printf(" O");
            for (i = 0; i < e->nout; i++)
                put_shape(&out[i]);
            printf(" T");
            for (i = 0; i < e->ntmp; i++)
                put_shape(&tmp[i]);
            /* the largest shapes (spec 5b) and their counts, then each
             * output's and intermediate's own counts */
            printf(" M");
            for (i = 0; i < e->nout; i++) {
                put_shape(&omax[i]);
                put_counts(ocnt[4 * i], ocnt[4 * i + 1]);
                put_counts(ocnt[4 * i + 2], ocnt[4 * i + 3]);
            }
            printf(" N");
            for (i = 0; i < e->ntmp; i++) {
                put_shape(&tmax[i]);
                put_counts(tcnt[4 * i], tcnt[4 * i + 1]);
                put_counts(tcnt[4 * i + 2], tcnt[4 * i + 3]);
            }
        }
        if (st2 == 0) {
            printf(" S");
            for (i = 0; i < e->nout; i++)
                put_shape(&out2[i]);
        }
        printf(" | %s\n", st1 ? err.message : (st2 ? err2.message : ""));
    }
    return 0;
}
'''


def write_harness(path, entries, headers):
    """entries: [(cname, nin, nout, ntmp)]"""
    out = [HARNESS_HEAD]
    for h in headers:
        out.append('#include "%s"\n' % os.path.basename(h))
    out.append('\ntypedef int (*prep_fn)(const axon_shape *, axon_shape *, axon_shape *, axon_shape *, int64_t *,\n'
               '                       axon_shape *, int64_t *, axon_error *);\n')
    out.append('typedef int (*shape_fn)(const axon_shape *, axon_shape *, axon_error *);\n')
    out.append('struct entry { int nin, nout, ntmp; prep_fn prep; shape_fn shape; const char *(*tname)(int); };\n\n')
    maxin = maxout = maxtmp = 1
    for k, (cn, nin, nout, ntmp) in enumerate(entries):
        maxin, maxout, maxtmp = max(maxin, nin), max(maxout, nout), max(maxtmp, ntmp)
        out.append('static int w%d(const axon_shape *in, axon_shape *out, axon_shape *tmp, axon_shape *omax,\n'
                   '               int64_t *ocnt, axon_shape *tmax, int64_t *tcnt, axon_error *err)\n{\n'
                   '    %s_plan plan;\n    int i, st = %s_prepare(in, &plan, err);\n'
                   '    if (st == 0) {\n'
                   '        for (i = 0; i < %s_NUM_OUTPUTS; i++) {\n            out[i] = plan.out[i];\n'
                   '            omax[i] = plan.out_max[i];\n'
                   '            ocnt[4 * i] = plan.out_max_elements[i];\n'
                   '            ocnt[4 * i + 1] = plan.out_max_bytes[i];\n'
                   '            ocnt[4 * i + 2] = plan.out_elements[i];\n'
                   '            ocnt[4 * i + 3] = plan.out_bytes[i];\n        }\n'
                   '        for (i = 0; i < %s_NUM_TEMPS; i++) {\n            tmp[i] = plan.tmp[i];\n'
                   '            tmax[i] = plan.tmp_max[i];\n'
                   '            tcnt[4 * i] = plan.tmp_max_elements[i];\n'
                   '            tcnt[4 * i + 1] = plan.tmp_max_bytes[i];\n'
                   '            tcnt[4 * i + 2] = plan.tmp_elements[i];\n'
                   '            tcnt[4 * i + 3] = plan.tmp_bytes[i];\n        }\n'
                   '    }\n    return st;\n}\n' % (k, cn, cn, cn, cn))
    out.append('\n#define NENTRIES %d\n#define MAXIN %d\n#define MAXOUT %d\n#define MAXTMP %d\n'
               % (len(entries), maxin, maxout, maxtmp))
    out.append('static const struct entry entries[NENTRIES > 0 ? NENTRIES : 1] = {\n')
    for k, (cn, nin, nout, ntmp) in enumerate(entries):
        out.append('    { %s_NUM_INPUTS, %s_NUM_OUTPUTS, %s_NUM_TEMPS, w%d, %s_shape, %s_temp_name },\n'
                   % (cn, cn, cn, k, cn, cn))
    if not entries:
        out.append('    { 0, 0, 0, 0, 0, 0 },\n')
    out.append('};\n')
    out.append(HARNESS_MAIN)
    with open(path, 'w') as f:
        f.write(''.join(out))


def parse_result(line, nout, ntmp):
    toks = line.split(' | ', 1)
    msg = toks[1] if len(toks) > 1 else ''
    t = toks[0].split()
    assert t[0] == 'R'
    st1, name, st2 = int(t[1]), t[2], int(t[3])
    i = 4
    outs = temps = souts = omax = tmax = None

    def shapes(k):
        nonlocal i
        r = []
        for _ in range(k):
            rank = int(t[i])
            r.append([int(x) for x in t[i + 1:i + 1 + rank]])
            i += 1 + rank
        return r
    def shapes_counts(k, nc):
        nonlocal i
        r = []
        for _ in range(k):
            s = shapes(1)[0]
            r.append((s, [int(x) for x in t[i:i + nc]]))
            i += nc
        return r
    if i < len(t) and t[i] == 'O':
        i += 1
        outs = shapes(nout)
        assert t[i] == 'T'
        i += 1
        temps = shapes(ntmp)
        assert t[i] == 'M'
        i += 1
        omax = shapes_counts(nout, 4)
        assert t[i] == 'N'
        i += 1
        tmax = shapes_counts(ntmp, 4)
    if i < len(t) and t[i] == 'S':
        i += 1
        souts = shapes(nout)
    return st1, name, st2, outs, temps, souts, msg, omax, tmax


def header_culprits(r, errs):
    """{function name: [error lines]} of a header's compile errors: the
    exported function whose code (the last line before the error that names
    PREFIX_NAME_) holds each; {} if one cannot be placed."""
    try:
        lines = open(r['header']).read().split('\n')
    except OSError:
        return {}
    fns = [f for f in r['functions'] if f['status'] == 'exported']
    out = {}
    for e in errs:
        m = re.match(r'^[^:]*\.h:(\d+):', e)
        if not m:
            return {}
        L = int(m.group(1))
        best, where = None, -1
        for f in fns:
            pat = re.compile(re.escape(f['cname']) + r'(?![A-Za-z0-9])')
            for i in range(min(L, len(lines)) - 1, -1, -1):
                if pat.search(lines[i]):
                    if i > where:
                        best, where = f, i
                    break
        if best is None:
            return {}
        out.setdefault(best['name'], []).append(e)
    return out


def reemit_without(r, culprits, axonc):
    """Emit r's program again without the items in culprits (and those
    using them) into the same header; True on success (those functions are
    then 'uncompiled')."""
    try:
        text = open(r['path']).read()
        prog = interp.parse_program(text, r['path'], r.get('include', ()))
    except (OSError, interp.AxonSyntaxError):
        return False
    bad = dependents(prog, set(culprits))
    keep = [it for it in prog.own if it.name not in bad]
    if not keep or not any(f['status'] == 'exported' and f['name'] not in bad for f in r['functions']):
        return False
    d = os.path.join(os.path.dirname(r['header']), '..', 'reduced-hc', os.path.basename(r['header'])[:-2])
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, os.path.basename(r['path']))
    with open(path, 'w') as f:
        f.write(import_lines(prog))
        for it in keep:
            f.write(text[it.start:it.end].rstrip(';') + ';\n')
    prefix = os.path.basename(r['header'])[:-2]
    em = run_cmd([axonc, 'emit', path, '-o', r['header'], '--prefix', prefix] + iflags(r.get('include', ())))
    if em.returncode != 0:
        return False
    for f in r['functions']:
        if f['name'] in bad and f['status'] == 'exported':
            f['status'] = 'uncompiled'
    return True


# ---------------------------------------------------------------- comparing

class Report(object):
    def __init__(self, args):
        self.args = args
        self.dis = {}           # kind -> count
        self.lines = 0
        self.failing = set()
        self.per_fn_kind = set()

    def disagree(self, kind, prog, fn, flat, ir, hr, msg=''):
        self.dis[kind] = self.dis.get(kind, 0) + 1
        key = (kind, prog, fn)
        self.failing.add(prog)
        if key in self.per_fn_kind and not self.args.verbose:
            return
        self.per_fn_kind.add(key)
        self.lines += 1
        s = 'DISAGREE %s %s %s in=%s interp=%s header=%s' % (kind, prog, fn, flat, ir, hr)
        if msg:
            s += ' msg=%s' % msg
        print(s)


def fmt_header(st1, name, outs, temps, tnames, msg):
    if st1 != 0:
        return '%s' % name
    s = 'ACCEPT ' + ' '.join('[' + ','.join(map(str, o)) + ']' for o in outs)
    if temps:
        s += ' tmp ' + ' '.join('%s=[%s]' % (n, ','.join(map(str, t))) for n, t in zip(tnames, temps))
    return s


def compare(rep, prog, f, flat, ir, hres, tnames, stats):
    kind, reason, iouts, itemps, ovf = ir[:5]
    st1, sname, st2, outs, temps, souts, msg, omax, tmax = hres
    fn = f['name']
    ftuple = fmt_tuple(flat)
    hr = fmt_header(st1, sname, outs, temps, tnames, msg)
    irs = fmt_interp(ir)
    if kind == 'gave_up':
        stats['gave_up'] += 1
        return
    stats['compared'] += 1
    if (st1 == 0) != (st2 == 0) and not (st2 == 0 and sname == 'AXON_ERR_OVERFLOW'):
        rep.disagree('SHAPE_VS_PREPARE', prog, fn, ftuple, 'prepare=%s' % sname, 'shape=%d' % st2, msg)
    if st1 == 0 and st2 == 0 and outs != souts:
        rep.disagree('SHAPE_VS_PREPARE', prog, fn, ftuple, 'prepare=%s' % outs, 'shape=%s' % souts)
    if kind == 'undecidable':
        stats['undecidable'] += 1
        rep.disagree('DECIDED_UNDECIDABLE', prog, fn, ftuple, irs, hr, msg)
        return
    if kind == 'undet_rank':
        stats['undet_rank'] += 1
        if st1 == 0:
            rep.disagree('DECIDED_UNDETERMINED_RANK', prog, fn, ftuple, irs, hr, msg)
        return
    if kind == 'reject':
        stats['rejected'] += 1
        if st1 == 0:
            rep.disagree('ACCEPTS_INVALID', prog, fn, ftuple, irs, hr)
        return
    stats['accepted'] += 1
    elems = f.get('out_elems') or []
    odims = ir[7] or [False] * len(iouts)
    # a dims output has no buffer (its counts are 0): it cannot overflow
    ovs = [False if odims[i] else count_overflows(o, elems[i] if i < len(elems) else 4)
           for i, o in enumerate(iouts)]
    ovs += [count_overflows(t, None) for _, t, _ in itemps]
    if None in ovs:
        stats['compared'] -= 1
        stats['accepted'] -= 1
        stats['elem_size_unknown'] += 1
        return
    ovf = any(ovs)
    if st1 != 0 and sname == 'AXON_ERR_OVERFLOW' and not ovf and UNNAMED_OVF_RE.search(msg or ''):
        # the count of an intermediate no statement names (the header plans
        # every one, spec section 8b): the interpreter does not model those;
        # tests/emit/random's C oracle does
        stats['compared'] -= 1
        stats['accepted'] -= 1
        stats['unnamed_overflow'] += 1
        return
    if st1 != 0 and sname == 'AXON_ERR_OVERFLOW' and not ovf and KNOWN_LIMIT_RE.search(msg or '') and \
            any(d >= 1 << 31 for s in flat for d in s):
        # docs/language.md's known limits: a size is computed from its
        # canonical polynomial, whose products may overflow where the
        # written formula's do not (`(h - r + 1) * (w - q + 1)` with h, r
        # near 2^62), and elements(b) of `[a] @ b` on its own, which may
        # overflow where a is 0; run-time dims parameters drawn from the
        # tensors' sizes reach them
        stats['compared'] -= 1
        stats['accepted'] -= 1
        stats['known_limit'] += 1
        return
    if st1 != 0:
        if not ovf:
            rep.disagree('REJECTS_VALID', prog, fn, ftuple, irs, hr, msg)
        elif sname != 'AXON_ERR_OVERFLOW':
            rep.disagree('REJECTS_VALID', prog, fn, ftuple, irs + ' (counts overflow)', hr, msg)
        return
    if len(outs) != len(iouts):
        rep.disagree('OUTPUT_COUNT', prog, fn, ftuple, irs, hr)
        return
    for o, io in zip(outs, iouts):
        k = shape_diff(io, o)
        if k:
            rep.disagree(k + '_OUTPUT', prog, fn, ftuple, irs, hr)
            return
    pairs = compare_temps(rep, prog, fn, ftuple, irs, hr, itemps, tnames, temps, ir[9])
    if pairs is None:
        return
    if ovf:
        # the shapes agree, but a plan's count does not fit int64
        rep.disagree('MISSED_COUNT_OVERFLOW', prog, fn, ftuple, irs, hr)
        return
    if not compare_counts(rep, prog, fn, ftuple, irs, f, iouts, odims, itemps, omax, tmax, tnames, pairs):
        return
    compare_max(rep, prog, fn, ftuple, ir, f, omax, tmax, tnames, pairs, stats)


KNOWN_LIMIT_RE = re.compile(r"overflows int64 \(or divides by zero\)|elements\([\w']+\) overflows int64")
BIG_RANK_RE = re.compile(r'#error "\S+ needs AXON_MAX_RANK >= (9|[1-9]\d+)"')
UNNAMED_RE = re.compile(r'^\S+ at \d+:\d+$')
UNNAMED_OVF_RE = re.compile(r': \S+ at \d+:\d+ has more elements \(or bytes\) than int64 can count')


def compare_temps(rep, prog, fn, ftuple, irs, hr, itemps, tnames, temps, dims_names=()):
    # intermediates by name; the header may leave out a name whose value is
    # an output (docs: "v is output 1: not an intermediate"); the unnamed
    # ones ("matmul at 4:12") are not the interpreter's (tests/emit/random
    # compares them)
    # returns [(header index, interpreter index)] of the named ones, or
    # None after a disagreement
    j = 0
    pairs = []
    for hi, (hn, ht) in enumerate(zip(tnames, temps)):
        if UNNAMED_RE.match(hn):
            continue
        if hn in dims_names and not any(t[0] == hn for t in itemps):
            # a name bound to a dims value is not a tensor: not planned
            # (the contract's decision)
            rep.disagree('DIMS_PLANNED', prog, fn, ftuple, irs, hr, 'intermediate %s is a dims value' % hn)
            return None
        while j < len(itemps) and itemps[j][0] != hn and itemps[j][2]:
            j += 1
        if j >= len(itemps) or itemps[j][0] != hn:
            rep.disagree('TEMP_NAMES', prog, fn, ftuple, irs, hr)
            return None
        k = shape_diff(itemps[j][1], ht)
        if k:
            rep.disagree(k + '_TEMP', prog, fn, ftuple, irs, hr)
            return None
        pairs.append((hi, j))
        j += 1
    for n, t, al in itemps[j:]:
        if not al:
            rep.disagree('TEMP_NAMES', prog, fn, ftuple, irs, hr)
            return None
    return pairs


def max_counts(shape, esize):
    """The element and byte counts of a largest shape as a plan counts them
    (docs/c-api.md: -1 where a size is unknown or ragged, here where an axis
    has no bound; 0 where an axis is 0; -1 where a count overflows int64)."""
    if any(d < 0 for d in shape):
        return -1, -1
    n = 1
    for d in shape:
        n *= d
    if n == 0:
        return 0, 0
    if n > INT64_MAX or n * esize > INT64_MAX:
        return -1, -1
    return n, n * esize


def axis_diff(i, h, unknown, overknown, ordered):
    """None if the interpreter's shape i (ints, -1 unknown or no bound, -2
    ragged) is the header's h; else a kind: WRONG (rank, ragged, a size),
    `unknown` (the header has -1 where the interpreter has a size),
    `overknown` (the other way); ordered (largest shapes): LOOSE where the
    header's bound is larger, TIGHT where smaller (an axis the data can make
    larger than the header plans)."""
    if len(i) != len(h):
        return 'WRONG'
    kind = None
    for a, b in zip(i, h):
        if a == b:
            continue
        if a >= 0 and b == -1:
            kind = kind or unknown
        elif a == -1 and b >= 0:
            kind = kind or overknown
        elif ordered and a >= 0 and b >= 0:
            if b < a:
                return 'TIGHT'
            kind = kind or 'LOOSE'
        else:
            return 'WRONG'
    return kind


def max_diff(i, h):
    """axis_diff of largest shapes: UNBOUNDED, OVERBOUNDED, LOOSE, TIGHT."""
    return axis_diff(i, h, 'UNBOUNDED', 'OVERBOUNDED', True)


def fmt_max_header(omax, tmax, tnames):
    s = 'max ' + ' '.join('[%s]{%s}' % (','.join(map(str, sh)), ','.join(map(str, c))) for sh, c in omax)
    named = [(n, sh, c) for n, (sh, c) in zip(tnames, tmax) if not UNNAMED_RE.match(n)]
    if named:
        s += ' tmp_max ' + ' '.join('%s=[%s]{%s}' % (n, ','.join(map(str, sh)), ','.join(map(str, c[:2])))
                                    for n, sh, c in named)
    return s


def compare_max(rep, prog, fn, ftuple, ir, f, omax, tmax, tnames, pairs, stats):
    """spec 5b: each output's and named intermediate's largest shape (a `?`
    at its bound) and its counts, against the interpreter's."""
    imo, imt = ir[5], ir[6]
    irs = fmt_interp(ir, with_max=True)
    hr = fmt_max_header(omax, tmax, tnames)
    stats['max_compared'] += 1
    if any(-1 in m for m in imo) or any(-1 in imt[j] for _, j in pairs) or \
            any(-1 in m for m, _ in omax) or any(-1 in tmax[h][0] for h, _ in pairs):
        stats['max_unbounded'] += 1
    if any(m != o for m, o in zip(imo, ir[2])) or any(imt[j] != ir[3][j][1] for _, j in pairs):
        stats['max_dynamic'] += 1
    elems = f.get('out_elems') or []
    odims = ir[7] or [False] * len(imo)
    for k, (im, (hm, hc)) in enumerate(zip(imo, omax)):
        d = max_diff(im, hm)
        if d:
            rep.disagree('MAX_%s_OUTPUT' % d, prog, fn, ftuple, irs, hr, 'output %d' % (k + 1))
            return
        # a dims output: out_max holds its values, with counts 0 (no buffer)
        want = (0, 0) if odims[k] else max_counts(im, elems[k] if k < len(elems) else 4)
        if tuple(hc[:2]) != want:
            rep.disagree('MAX_COUNT_OUTPUT', prog, fn, ftuple, irs, hr,
                         'output %d: counts %s, expected %s' % (k + 1, tuple(hc[:2]), want))
            return
    for h, j in pairs:
        hm, hc = tmax[h]
        im = imt[j]
        d = max_diff(im, hm)
        if d:
            rep.disagree('MAX_%s_TEMP' % d, prog, fn, ftuple, irs, hr, 'intermediate %s' % tnames[h])
            return
        # the element size is the header's (the interpreter has no element
        # types): the plan's own bytes over elements where it has some
        te, tb = hc[2], hc[3]
        sizes = [tb // te] if te > 0 and tb % te == 0 else [1, 2, 4, 8]
        if tuple(hc[:2]) not in [max_counts(im, e) for e in sizes]:
            rep.disagree('MAX_COUNT_TEMP', prog, fn, ftuple, irs, hr,
                         'intermediate %s: counts %s, expected %s' % (
                             tnames[h], tuple(hc[:2]), ' or '.join(str(max_counts(im, e)) for e in sizes)))
            return


def compare_counts(rep, prog, fn, ftuple, irs, f, iouts, odims, itemps, omax, tmax, tnames, pairs):
    """The plan's own counts of each output (out_elements, out_bytes) and
    named intermediate (tmp_elements; its bytes a multiple 1, 2, 4 or 8 of
    it): as c-api.md counts a shape (-1 where a size is unknown or ragged,
    0 where an axis is 0); a dims output has no buffer, its counts are 0
    (the contract's decision).  False after a disagreement."""
    elems = f.get('out_elems') or []
    for k, (io, (hm, hc)) in enumerate(zip(iouts, omax)):
        want = (0, 0) if odims[k] else max_counts(io, elems[k] if k < len(elems) else 4)
        if tuple(hc[2:4]) != want:
            rep.disagree('COUNT_OUTPUT', prog, fn, ftuple, irs, 'counts %s' % (tuple(hc[2:4]),),
                         'output %d%s: out_elements/out_bytes %s, expected %s'
                         % (k + 1, ' (a dims value)' if odims[k] else '', tuple(hc[2:4]), want))
            return False
    for h, j in pairs:
        hc = tmax[h][1]
        it = itemps[j][1]
        got = tuple(hc[2:4])
        if got not in [max_counts(it, e) for e in (1, 2, 4, 8)]:
            rep.disagree('COUNT_TEMP', prog, fn, ftuple, irs, 'counts %s' % (got,),
                         'intermediate %s: tmp_elements/tmp_bytes %s, expected %s'
                         % (tnames[h], got, ' or '.join(str(max_counts(it, e)) for e in (1, 2, 4, 8))))
            return False
    return True


def shape_diff(i, h):
    """axis_diff of shapes: UNKNOWN, OVERKNOWN."""
    return axis_diff(i, h, 'UNKNOWN', 'OVERKNOWN', False)


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--axonc', default=os.path.join(HERE, '..', '..', 'build', 'axonc'))
    ap.add_argument('--cc', default='gcc -std=c99 -pedantic -Wall -Wextra -Werror')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--programs', type=int, default=40)
    ap.add_argument('--tuples', type=int, default=150, help='tuples per function')
    ap.add_argument('--work', default=None)
    ap.add_argument('--file', action='extend', nargs='+', default=[], metavar='F.axon',
                    help='check these .axon files instead of generated ones')
    ap.add_argument('-I', dest='include', action='append', default=[], metavar='DIR',
                    help='where imports are looked for after the importing file\'s directory (spec section 2), '
                         'for axonc and the interpreter')
    ap.add_argument('--no-ops18', dest='ops18', action='store_false',
                    help="generate only the operators before spec 5b's last table (by default the programs also "
                         "use conv1d_grouped, linear, expand, concat_axis of several tensors, arange, negative "
                         "axes, %% in where clauses, and import a helper file)")
    ap.add_argument('--negative', action='store_true', help='random tuples sometimes have negative sizes')
    ap.add_argument('--jobs', type=int, default=0, help='worker processes (default: the number of CPUs, at most 4)')
    ap.add_argument('--budget', type=int, default=20000, help="the solver's work limit per tuple")
    ap.add_argument('--verbose', action='store_true', help='print every disagreeing tuple, not one per function and kind')
    ap.add_argument('--strict-refusals', action='store_true',
                    help='count a REFUSED_DECIDABLE function (not exported, though the interpreter decides every '
                         'tuple) as a disagreement')
    args = ap.parse_args()
    t0 = time.time()
    args.axonc = os.path.abspath(args.axonc)
    if args.work is None:
        args.work = os.path.join(HERE, '..', '..', 'build', 'semantic-work')
    args.work = os.path.abspath(args.work)
    if os.path.isdir(args.work):
        shutil.rmtree(args.work)
    for d in ('programs', 'h', 'failing'):
        os.makedirs(os.path.join(args.work, d), exist_ok=True)
    jobs = []
    args.include = [os.path.abspath(d) for d in args.include]
    if args.file:
        for k, fpath in enumerate(args.file):
            d = os.path.join(args.work, 'programs', '%03d' % k)
            os.makedirs(d, exist_ok=True)
            dst = os.path.join(d, os.path.basename(fpath))
            shutil.copyfile(fpath, dst)
            # a copy: what it imports relative to itself is found through
            # its original directory (first), then the -I given
            inc = list(args.include)
            if has_imports(fpath):
                inc.insert(0, os.path.dirname(os.path.abspath(fpath)))
            jobs.append(Job(k, dst, 'f%03d' % k, args, inc))
    else:
        for k in range(args.programs):
            stem = 'p%04d' % k
            d = os.path.join(args.work, 'programs', '%03d' % k)
            # with the helper files that the program imports, next to it
            dst, helpers = gen.write_files(args.seed, stem, d, args.ops18)
            jobs.append(Job(k, dst, stem, args, list(args.include) + ([d] if helpers else [])))
    results = parallel_map(process, jobs, args.jobs)
    t1 = time.time()

    rep = Report(args)
    # the harness
    hc = os.path.join(args.work, 'h', 'harness.c')

    def harness_of(results):
        """Writes the harness over every exported function's header."""
        entries, headers = [], []
        for r in results:
            if r.get('header'):
                headers.append(r['header'])
            for f in r['functions']:
                if f['status'] == 'exported':
                    c = f['counts']
                    f['entry'] = len(entries)
                    entries.append((f['cname'], c.get('INPUTS', 0), c.get('OUTPUTS', 0), c.get('TEMPS', 0)))
        write_harness(hc, entries, headers)
        return entries

    entries = harness_of(results)
    big_rank = []
    exe = os.path.join(args.work, 'harness')
    cc = shlex.split(args.cc) + ['-I', os.path.join(args.work, 'h'), hc, '-o', exe]
    comp = run_cmd(cc)
    for _ in range(5):
        if comp.returncode == 0:
            break
        # a header that does not compile (with the same flags as the
        # harness) is a disagreement of its own; leave it out and retry
        bad = set(re.findall(r'(?m)^[^ :]*/h/([A-Za-z0-9_]+)\.h:\d+:\d+: error', comp.stderr))
        bad |= set(re.findall(r'(?m)^In file included from [^ :]*/h/harness\.c:\d+:\n[^ :]*/h/([A-Za-z0-9_]+)\.h', comp.stderr))
        if not bad:
            break
        for r in results:
            if r.get('header') and os.path.basename(r['header'])[:-2] in bad:
                base = os.path.basename(r['header'])
                errs = [ln for ln in comp.stderr.splitlines() if ln.startswith(r['header']) and ': error' in ln]
                first = [ln for ln in comp.stderr.splitlines() if base in ln and 'error' in ln]
                # the functions whose code holds the errors: leave them out
                # and emit the rest again, so that one function's header
                # does not hide the others'
                culprits = header_culprits(r, errs)
                if culprits and reemit_without(r, culprits, args.axonc):
                    for f in r['functions']:
                        if f['name'] in culprits:
                            e = culprits[f['name']]
                            if all(BIG_RANK_RE.search(ln) for ln in e):
                                # a shape of more than 8 axes (the header's
                                # AXON_MAX_RANK; the interpreter rejects it)
                                big_rank.append((r['path'], f['name']))
                                continue
                            rep.disagree('HEADER_COMPILE', r['path'], f['name'], '-', 'compiles', 'error',
                                         (e[0] if e else '')[:300])
                    continue
                rep.disagree('HEADER_COMPILE', r['path'], '-', '-', 'compiles', 'error', (first[0] if first else '')[:300])
                r['header'] = None
                for f in r['functions']:
                    if f['status'] == 'exported':
                        f['status'] = 'uncompiled'
        entries = harness_of(results)
        comp = run_cmd(cc)
    if comp.returncode != 0:
        print('harness does not compile:\n' + comp.stderr[-3000:])
        print('disagreements 1')
        return 1
    t2 = time.time()
    names = run_cmd([exe, '--names'])
    tnames = {}
    for ln in names.stdout.splitlines():
        t = ln.split('\t')             # (an unnamed intermediate's name has spaces)
        h = t[0].split()
        tnames[int(h[0])] = (int(h[1]), int(h[2]), int(h[3]), t[1:])
    feed = []
    order = []
    for r in results:
        for f in r['functions']:
            if f['status'] != 'exported':
                continue
            nin = f['counts'].get('INPUTS', 0)
            for flat, ir, origin in f['tuples']:
                if len(flat) != nin:
                    rep.disagree('INPUT_COUNT', r['path'], f['name'], fmt_tuple(flat), 'inputs=%d' % len(flat), 'NUM_INPUTS=%d' % nin)
                    continue
                feed.append('%d %d %s\n' % (f['entry'], nin, ' '.join('%d %s' % (len(s), ' '.join(map(str, s))) for s in flat)))
                order.append((r, f, flat, ir, origin))
    hr = subprocess.run([exe], input=''.join(feed), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                        universal_newlines=True)
    outl = hr.stdout.splitlines()
    if hr.returncode != 0 or len(outl) != len(order):
        # find the tuple that crashed the harness
        idx = len(outl)
        if idx < len(order):
            r, f, flat, ir, origin = order[idx]
            rep.disagree('HARNESS_CRASH', r['path'], f['name'], fmt_tuple(flat), fmt_interp(ir),
                         'exit %d' % hr.returncode, hr.stderr.strip().replace('\n', ' ')[:400])
        order = order[:len(outl)]
    t3 = time.time()

    stats = dict(compared=0, accepted=0, rejected=0, gave_up=0, undecidable=0, undet_rank=0, elem_size_unknown=0,
                 unnamed_overflow=0, max_compared=0, max_dynamic=0, max_unbounded=0, known_limit=0)
    origin_stats = {}
    rt_tuples = {}
    for (r, f, flat, ir, origin), line in zip(order, outl):
        nin, nout, ntmp, tn = tnames[f['entry']]
        hres = parse_result(line, nout, ntmp)
        compare(rep, r['path'], f, flat, ir, hres, tn, stats)
        key = (origin, ir[0])
        origin_stats[key] = origin_stats.get(key, 0) + 1
        if f.get('rtdims'):
            rt_tuples[ir[0]] = rt_tuples.get(ir[0], 0) + 1

    # static rejections, refusals
    nprog = len(results)
    nrej = sum(1 for r in results if r['check_rc'] == 1)
    nfun = nexp = nref = nstat = 0
    refused_by = {}
    refused_decidable = {}
    rt_refused_decidable = [0]
    rt = dict(programs=0, functions=0, exported=0, refused=0, static=0)
    static_tuples = 0
    missing = 0
    for r in results:
        if r['syntax']:
            rep.disagree('SYNTAX', r['path'], '-', '-', 'parses', r['syntax'])
        for name in r.get('imported_exported', ()):
            rep.disagree('EXPORTS_IMPORTED', r['path'], name, '-', 'imported: not exported', 'in the header')
        for note in r['notes']:
            print('note: %s: %s' % (r['path'], note))
        if any(f.get('rtdims') for f in r['functions']):
            rt['programs'] += 1
        for f in r['functions']:
            nfun += 1
            if f.get('rtdims'):
                rt['functions'] += 1
                st = f['status']
                key = {'exported': 'exported', 'uncompiled': 'exported', 'refused': 'refused',
                       'static_reject': 'static'}.get(st)
                if key:
                    rt[key] += 1
            if f['status'] == 'exported':
                nexp += 1
            elif f['status'] == 'static_reject':
                nstat += 1
                for flat, ir, origin in f['tuples']:
                    if ir[0] == 'gave_up':
                        stats['gave_up'] += 1
                        continue
                    static_tuples += 1
                    if ir[0] == 'accept':
                        rep.disagree('STATIC_REJECT', r['path'], f['name'], fmt_tuple(flat), fmt_interp(ir),
                                     'check: error', f.get('message', ''))
            elif f['status'] == 'refused':
                nref += 1
                cls = reason_class(f['reason'])
                refused_by[cls] = refused_by.get(cls, 0) + 1
                if f.get('higher_order') or cls in ('higher-order', 'parameter of any type', 'element type'):
                    continue
                kinds = set(ir[0] for _, ir, _ in f['tuples'])
                # decided on every tuple tried: accepted (every size of the
                # outputs and intermediates determined: an existential that
                # several values fit, `[n]` of `x : f32 [n / 2 + 1]`, is a
                # size the header may not be able to give) or rejected
                undet = any(ir[0] == 'accept' and ir[8] for _, ir, _ in f['tuples'])
                if f['tuples'] and kinds <= {'accept', 'reject'} and not undet:
                    refused_decidable[cls] = refused_decidable.get(cls, 0) + 1
                    if f.get('rtdims'):
                        rt_refused_decidable[0] += 1
                    acc = [t for t in f['tuples'] if t[1][0] == 'accept']
                    ex = acc[0] if acc else f['tuples'][0]
                    print('REFUSED_DECIDABLE %s %s (%s) e.g. in=%s interp=%s' % (
                        r['path'], f['name'], f['reason'], fmt_tuple(ex[0]), fmt_interp(ex[1])))
                    if args.strict_refusals:
                        rep.disagree('REFUSED_DECIDABLE', r['path'], f['name'], fmt_tuple(ex[0]),
                                     fmt_interp(ex[1]), 'not exported', f['reason'])
            elif f['status'] == 'uncompiled':
                nexp += 1
            else:
                missing += 1
                rep.disagree('NOT_EXPORTED_NO_WARNING', r['path'], f['name'], '-', '-', 'missing from the header')
    kept = []
    incl = dict((r['path'], r.get('include') or []) for r in results)
    progdir = os.path.join(args.work, 'programs')
    for p in sorted(rep.failing):
        d = os.path.join(args.work, 'failing', os.path.basename(os.path.dirname(p)))
        os.makedirs(d, exist_ok=True)
        # the helper files it imports (next to it, or in the generated
        # program's directory that a reduced copy finds through -I) go
        # along, so that the rerun below finds them
        for hd in [os.path.dirname(p)] + [x for x in incl.get(p, []) if x.startswith(progdir + os.sep)]:
            for fn in sorted(os.listdir(hd)) if os.path.isdir(hd) else []:
                if fn.endswith('.axon') and fn != os.path.basename(p) and \
                        not os.path.exists(os.path.join(d, fn)):
                    shutil.copyfile(os.path.join(hd, fn), os.path.join(d, fn))
        shutil.copyfile(p, os.path.join(d, os.path.basename(p)))
        kept.append(os.path.join(d, os.path.basename(p)))
    t4 = time.time()

    ndis = sum(rep.dis.values())
    print('programs %d (rejected by check %d), functions %d: exported %d, refused %d%s, rejected by check %d'
          % (nprog, nrej, nfun, nexp, nref,
             (' (' + ', '.join('%s %d' % kv for kv in sorted(refused_by.items())) + ')') if refused_by else '',
             nstat))
    print('tuples compared %d (accepted %d, rejected %d, undecidable %d, undetermined rank %d), oracle gave up %d, '
          'not compared (a count near 2^63 with an unknown element size) %d, (an unnamed intermediate\'s count '
          'overflows) %d, (a size\'s expanded polynomial overflows, docs/language.md\'s known limit) %d, '
          'tuples on functions rejected by check %d'
          % (stats['compared'], stats['accepted'], stats['rejected'], stats['undecidable'], stats['undet_rank'],
             stats['gave_up'], stats['elem_size_unknown'], stats['unnamed_overflow'], stats['known_limit'],
             static_tuples))
    print('largest shapes compared on %d accepted tuples (with a data-dependent size %d, '
          'a size with no bound on either side %d)'
          % (stats['max_compared'], stats['max_dynamic'], stats['max_unbounded']))
    print('tuple origins: ' + ', '.join('%s/%s %d' % (k[0], k[1], v) for k, v in sorted(origin_stats.items())))
    print('run-time dims (spec 5b operators given a dims parameter): programs %d, functions %d '
          '(exported %d, refused %d, refused but decidable %d, rejected by check %d), tuples compared on '
          'exported ones %d (accepted %d, rejected %d, undecidable %d, undetermined rank %d)'
          % (rt['programs'], rt['functions'], rt['exported'], rt['refused'], rt_refused_decidable[0],
             rt['static'], sum(v for k, v in rt_tuples.items() if k != 'gave_up'), rt_tuples.get('accept', 0),
             rt_tuples.get('reject', 0), rt_tuples.get('undecidable', 0), rt_tuples.get('undet_rank', 0)))
    print('refused but decidable %d%s' % (sum(refused_decidable.values()),
          (' (' + ', '.join('%s %d' % kv for kv in sorted(refused_decidable.items())) + ')') if refused_decidable else ''))
    if rep.dis:
        print('disagreements by kind (tuples): ' + ', '.join('%s %d' % kv for kv in sorted(rep.dis.items())))
        byfn = {}
        for kind, prog, fn in rep.per_fn_kind:
            byfn[kind] = byfn.get(kind, 0) + 1
        print('disagreements by kind (functions): ' + ', '.join('%s %d' % kv for kv in sorted(byfn.items())))
    print('time: programs %.1fs, compile %.1fs, harness %.1fs, compare %.1fs; work %s'
          % (t1 - t0, t2 - t1, t3 - t2, t4 - t3, args.work), file=sys.stderr)
    if big_rank:
        print('not compiled, a shape of more than AXON_MAX_RANK (8) axes: %d (%s)'
              % (len(big_rank), ', '.join('%s %s' % x for x in big_rank[:3])))
    if kept:
        print('failing programs kept in %s; rerun one with: %s %s --axonc %s --file %s'
              % (os.path.join(args.work, 'failing'), sys.executable, os.path.abspath(__file__), args.axonc, kept[0]))
    print('disagreements %d' % ndis)
    return 1 if ndis else 0


if __name__ == '__main__':
    sys.exit(main())
