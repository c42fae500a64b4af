#!/usr/bin/env python3
"""gen_scale.py - Axon programs of one shape, parameterised by N, for the
scaling benchmark (bench/scale/run.sh): axonc must take at most 6 times
as long for 4N as for N, on every shape, for `check` and for `emit`.

Usage:
    python3 bench/scale/gen_scale.py SHAPE N > out.axon
    python3 bench/scale/gen_scale.py SHAPE N --repeat R > out.axon
    python3 bench/scale/gen_scale.py --list      # SHAPE  default-N  what

Every program is valid (axonc accepts it); each shape stresses one way an
input can grow:

  fns        N top-level functions, each calling the one before
  params     one function with N annotated parameters (N dimension names)
  bcast      a chain of N broadcasts between unknown shapes:
             s1 = p0 + p1; s2 = s1 + p2; ... (unannotated parameters)
  concat     a chain of N concats of unannotated parameters (the outer
             dimension a sum of N variables)
  nest-expr  expressions N deep, `x + (x - (x + ...))` (two levels each)
  nest-call  calls N deep, `f(f(f(...(x))))` of a user function
  nest-type  annotations N deep: a tuple type nested N times
  nest-dim   dimension expressions N deep, `[n + (1 + (n + ...))]` (two
             levels each)
  postfix    a call chain N long, `k(k)(k)...(k)(x)` with k the identity:
             calls applied to calls, not nested brackets
  lambdas    one function with N local lambdas, each calling the one before
  rank       a rank-polymorphic chain: `x : t s @ [n, n]` through N
             operators (relu, transpose, matmul, a broadcast bias)
  tuples     a function returning an N-wide tuple and one destructuring it
  axes       a tensor of N axes, each its own dimension name, through `+`
  transformer  bench/gen_transformer.py N --weights: an N-layer model with
             three weight parameters per layer
  elements   elements(s) of a shape of rank N (`where rank(s) = N`)
  clauses    N where clauses `n <= k` bounding one size
  clause-pairs  N where clauses `n <= m + k` between two sizes
  clause-vars   N parameters, each size bounded by a clause of its own

The nesting shapes (nest-*, postfix) stay under axonc's nesting limit of
1000 levels (docs/language.md): N is the depth, with 4N levels at most
960, and each program repeats the nested function REPEAT times (100 to
1000, below) so that the time is measurable (--repeat R: R times instead,
for a smoke run at a tiny size; the other shapes ignore it).  The default N
of each shape
(--list) is chosen so that `axonc check` takes roughly 0.05 to 1 s where
it is linear.
"""

import os
import sys

# Copies of the nested function in the nesting shapes, so that N (the
# depth, which the nesting limit caps) takes a measurable time.
REPEAT = {"nest-expr": 100, "nest-call": 300, "nest-type": 100, "nest-dim": 1000,
          "postfix": 300}


def gen_fns(n, w):
    w("f0 = fn (x : t [n, m], v : t [m, m]) { relu(matmul(x, v)) + x };\n")
    for i in range(1, n):
        w("f%d = fn (x, v) { f%d(relu(matmul(x, v)) + x, v) };\n" % (i, i - 1))


def gen_params(n, w):
    w("f = fn (\n")
    w(",\n".join("  p%d : t [n, d%d]" % (i, i) for i in range(n)))
    w(") {\n  p0\n};\n")


def gen_chain(n, w, var, step):
    # N parameters folded left: v1 = step(p0, p1), v2 = step(v1, p2), ...
    w("f = fn (%s) {\n" % ", ".join("p%d" % i for i in range(n + 1)))
    w("  %s1 = %s;\n" % (var, step("p0", "p1")))
    for i in range(2, n + 1):
        w("  %s%d = %s;\n" % (var, i, step("%s%d" % (var, i - 1), "p%d" % i)))
    w("  %s%d\n};\n" % (var, n))


def gen_bcast(n, w):
    gen_chain(n, w, "s", lambda a, b: "%s + %s" % (a, b))


def gen_concat(n, w):
    gen_chain(n, w, "c", lambda a, b: "concat(%s, %s)" % (a, b))


def gen_nest_expr(n, w):
    ops = "+-"
    body = "x"
    for i in range(n):
        body = "x %s (%s)" % (ops[i % 2], body)
    for k in range(REPEAT["nest-expr"]):
        w("e%d = fn (x : f32 [n, %d]) { %s };\n" % (k, k + 1, body))


def gen_nest_call(n, w):
    w("f = fn (x) { relu(x) + x };\n")
    body = "f(" * n + "x" + ")" * n
    for k in range(REPEAT["nest-call"]):
        w("c%d = fn (x : f32 [n, %d]) { %s };\n" % (k, k + 1, body))


def gen_nest_type(n, w):
    # (f32 [n], (f32 [n], (... f32 [n]))) for the parameter and the result.
    ty = "t [n]"
    for _ in range(n):
        ty = "(t [n], %s)" % ty
    for k in range(REPEAT["nest-type"]):
        w("y%d = fn (x : %s) : %s { x };\n" % (k, ty, ty))


def gen_nest_dim(n, w):
    d = "n"
    for i in range(n):
        d = "%s + (%s)" % ("n" if i % 2 else "1", d)
    for k in range(REPEAT["nest-dim"]):
        w("d%d = fn (x : f32 [%s, %d]) { x };\n" % (k, d, k + 1))


def gen_postfix(n, w):
    # k is the identity; k(k) is k again, so k(k)(k)...(k)(x) is x: one
    # chain of N + 1 calls, each applied to the result of the one before.
    w("k = fn (g) { g };\n")
    for j in range(REPEAT["postfix"]):
        w("h%d = fn (x : f32 [n, %d]) { k%s(x) };\n" % (j, j + 1, "(k)" * n))


def gen_lambdas(n, w):
    w("f = fn (x : t [n, m]) {\n")
    w("  g0 = fn (y) { relu(y) + x };\n")
    for i in range(1, n):
        w("  g%d = fn (y) { g%d(y) * x };\n" % (i, i - 1))
    w("  g%d(x)\n};\n" % (n - 1))


def gen_rank(n, w):
    w("f = fn (x : t s @ [n, n], v : t s @ [n, n], b : t [n]) {\n")
    w("  h0 = x;\n")
    steps = ["relu(h%d)", "transpose(h%d)", "matmul(h%d, v)", "h%d + b"]
    for i in range(1, n + 1):
        w("  h%d = %s;\n" % (i, steps[i % 4] % (i - 1)))
    w("  h%d\n};\n" % n)


def gen_tuples(n, w):
    exprs = ["x", "x + x", "x * x", "relu(x)", "exp(x)", "x - x"]
    w("f = fn (x : t [n, m]) {\n  (%s)\n};\n"
      % ", ".join(exprs[i % len(exprs)] for i in range(n)))
    w("g = fn (x : t [n, m]) {\n  %s = f(x);\n  a0 + a%d\n};\n"
      % (", ".join("a%d" % i for i in range(n)), n - 1))


def gen_axes(n, w):
    w("f = fn (x : t [%s]) {\n  relu(x + x)\n};\n" % ", ".join("a%d" % i for i in range(n)))


def gen_warnings(n, w):
    # every function has a parameter of any type: emit warns N times
    for i in range(n):
        w("f%d = fn (x) { x };\n" % i)


def gen_windows(n, w):
    # a full-resolution stage: N stride-1 3x3 max poolings on symbolic h, w,
    # each with the window clauses `1 <= h`, `1 <= w` (once waited on per
    # operator, each watching h: quadratic)
    w("f = fn (x : f32 [n, 64, h, w]) {\n")
    for i in range(n):
        w("  x%d = maxpool2d(%s, [3, 3], [1, 1], [1, 1]);\n" % (i, "x" if i == 0 else "x%d" % (i - 1)))
    w("  x%d\n};\n" % (n - 1))


def gen_elements(n, w):
    # a shape of rank N (`where rank(s) = N`) counted by elements(s): a
    # product of N sizes (once built one factor at a time: quadratic)
    w("f = fn (x : f32 s) where rank(s) = %d {\n  reshape(x, [elements(s)])\n};\n" % n)


def gen_clauses(n, w):
    # N where clauses that bound one size, each implied by the first (once
    # all kept, printed and checked: quadratic)
    w("f = fn (x : f32 [n], y : f32 [m]) where %s {\n  x\n};\n"
      % ", ".join("n <= %d" % (k + 1) for k in range(n)))


def gen_clause_pairs(n, w):
    # N where clauses between two sizes, `n <= m + k`
    w("f = fn (x : f32 [n], y : f32 [m]) where %s {\n  x\n};\n"
      % ", ".join("n <= m + %d" % k for k in range(n)))


def gen_clause_vars(n, w):
    # N parameters, each size bounded by a clause of its own
    w("f = fn (%s) where %s {\n  x0\n};\n"
      % (", ".join("x%d : f32 [n%d]" % (k, k) for k in range(n)),
         ", ".join("n%d <= %d" % (k, k + 1) for k in range(n))))


def gen_transformer(n, w):
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.dirname(here))
    sys.dont_write_bytecode = True      # no __pycache__ in bench/
    import gen_transformer

    class Out:
        write = staticmethod(w)
    gen_transformer.generate_weights(n, Out)


# name: (generator, default N, what it is)
SHAPES = {
    "fns": (gen_fns, 5000, "N top-level functions, each calling the one before"),
    "params": (gen_params, 5000, "one function with N annotated parameters"),
    "bcast": (gen_bcast, 100, "a chain of N broadcasts of unknown shapes"),
    "concat": (gen_concat, 400, "a chain of N concats of unknown shapes"),
    "nest-expr": (gen_nest_expr, 120, "expressions 2N deep (x 100 functions)"),
    "nest-call": (gen_nest_call, 240, "calls f(f(...)) N deep (x 300 functions)"),
    "nest-type": (gen_nest_type, 240, "tuple types N deep (x 100 functions)"),
    "nest-dim": (gen_nest_dim, 120, "dimension expressions 2N deep (x 1000 functions)"),
    "postfix": (gen_postfix, 240, "a call chain k(k)(k)...(x) N long (x 300 functions)"),
    "lambdas": (gen_lambdas, 2000, "one function with N local lambdas"),
    "rank": (gen_rank, 20000, "t s @ [n, n] through N operators"),
    "tuples": (gen_tuples, 5000, "an N-wide tuple, returned and destructured"),
    "axes": (gen_axes, 5000, "a tensor of N axes through + and relu"),
    "transformer": (gen_transformer, 1000, "N layers, three weights per layer"),
    "warnings": (gen_warnings, 20000, "N functions that emit warns about (not exported)"),
    "windows": (gen_windows, 2000, "N stride-1 poolings at full resolution (window clauses on h, w)"),
    "elements": (gen_elements, 16384, "elements(s) of a shape of rank N"),
    "clauses": (gen_clauses, 25000, "N where clauses n <= k bounding one size"),
    "clause-pairs": (gen_clause_pairs, 25000, "N where clauses n <= m + k between two sizes"),
    "clause-vars": (gen_clause_vars, 10000, "N parameters, each size bounded by its own clause"),
}


def main(argv):
    if argv == ["--list"]:
        for name, (_, n, what) in SHAPES.items():
            sys.stdout.write("%-12s %6d  %s\n" % (name, n, what))
        return 0
    repeat = None
    if len(argv) == 4 and argv[2] == "--repeat" and argv[3].isdigit() and int(argv[3]) >= 1:
        repeat = int(argv[3])
        argv = argv[:2]
    if len(argv) != 2 or argv[0] not in SHAPES or not argv[1].isdigit() or int(argv[1]) < 1:
        sys.stderr.write("usage: gen_scale.py SHAPE N [--repeat R] > out.axon   (N, R >= 1)\n"
                         "       gen_scale.py --list\n"
                         "shapes: %s\n" % " ".join(SHAPES))
        return 2
    name, n = argv[0], int(argv[1])
    if repeat is not None:
        for k in REPEAT:
            REPEAT[k] = repeat
    out = sys.stdout
    out.write("// Generated by bench/scale/gen_scale.py %s %d%s -- do not edit.\n"
              % (name, n, " --repeat %d" % repeat if repeat is not None else ""))
    SHAPES[name][0](n, out.write)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
