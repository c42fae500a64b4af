#!/usr/bin/env python3
"""Generate an N-layer transformer-like Axon program for benchmarking axonc.

Usage:
    python3 bench/gen_transformer.py N [--fns | --weights] > out.axon

The program is a fully unrolled model graph, the way a framework would hand
it to a compiler after tracing:

  * `softmax` -- one shared Axon function written with exp/map/reduce/
    transpose, exactly like the paper's attention example
    (tests/check/paper-7.1-attention.axon).  Every layer calls it twice, so
    the benchmark also exercises let-polymorphism (instantiating a
    generalised scheme) on every call.

  * `model` -- one function whose parameters are the input activation and
    the weights, and whose body is the N layers as statements, threading the
    activation h<i-1> -> h<i> from one layer to the next.  Each layer is a
    two-head self-attention block followed by a feed-forward block:

        q = matmul(h, Wq); k = matmul(h, Wk); v = matmul(h, Wv)   (per head)
        a = matmul(softmax(matmul(q, transpose(k))), v)            [s, e]
        c = transpose(concat(transpose(a1), transpose(a2)))        [s, 2e]
        r = h + matmul(c, Wo) + Bo          residual + bias [d] broadcast
        f = relu(matmul(r, W1) + B1)        bias [f] broadcast over [s, f]
        h' = r + matmul(f, W2) + B2         residual + bias [d] broadcast

    `concat` is along the outermost axis (the only axis Axon's concat
    joins), so the heads are joined as [e, s] ++ [e, s] = [2e, s] and
    transposed back; the output projection Wo : [2e, d] brings the width
    back to d.  The activation is [s, d] after every layer, so dimensions
    do not grow with N (N = 10,000 does not overflow anything).

  * Weights are SHARED by all layers (the model's parameters are the input
    and one set of 12 weights, as in ALBERT / universal transformers).  A
    real model has per-layer weights, but then the signature of `model`
    would have 12 * N parameters (and its printed line would grow
    linearly); shared weights keep the signature fixed-size, so the timing
    measures inference over the body, not printing.  Every layer still
    unifies its weight uses against the same parameter types, which is the
    interesting part for the solver.

  * Only the parameters of `model` (and softmax's input, as in the paper)
    are annotated; every intermediate shape is inferred.

  * Decision on per-layer functions: by default NO per-layer functions are
    emitted -- the layers are inline statements of `model`, which is what
    an unrolled graph looks like and stresses one large function body.
    With `--fns` the generator instead emits one top-level function
    `layer_<i>` per layer (with the same body, annotated like `model`) and
    `model` calls them in sequence; that mode stresses generalisation and
    per-binding output (N + 2 signature lines) instead, and is offered for
    comparison only (bench/check_bench.sh times the default mode).

  * `--weights`: per-layer weights, three per layer.  The output
    projection and the two feed-forward matrices of layer i are parameters
    of their own, `Wo_i : t [2 * e, d]`, `W1_i : t [d, f]`, `W2_i : t [f, d]`
    (annotated like the others; they are most of a real layer's weights);
    the attention projections and the biases stay shared.  `model` then has
    3 * N + 10 parameters, and its signature line grows linearly with N:
    this variant measures what the default one avoids on purpose (a long
    parameter list, its signature and its header), and bench/check_bench.sh
    times it next to the default one.

Expected output of `axonc check` (default mode, any N >= 1):

    softmax : (t [a, b]) -> t [a, b]
    model : (t [a, b], t [b, c], t [b, c], t [b, c], t [b, c], t [b, c], t [b, c], t [2 * c, b], t [b], t [b, d], t [d], t [d, b], t [b]) -> t [a, b]

i.e. with x : [s, d], heads of width e, feed-forward width f, renamed in
order of first appearance: s -> a, d -> b, e -> c, f -> d.  In --fns mode
every `layer_<i>` has that same signature as `model`.  In --weights mode:

    model : (t [a, b], t [b, c], ... (6 times), t [b], t [d], t [b],
             t [2 * c, b], t [b, d], t [d, b], ... (N times)) -> t [a, b]
The constants below (EXPECTED_*) are the single source of truth; the
timing script reads them with `--expected`.
"""

import os
import sys

EXPECTED_SOFTMAX = "softmax : (t [a, b]) -> t [a, b]"
EXPECTED_SIG = ("(t [a, b], t [b, c], t [b, c], t [b, c], t [b, c], "
                "t [b, c], t [b, c], t [2 * c, b], t [b], t [b, d], t [d], "
                "t [d, b], t [b]) -> t [a, b]")
EXPECTED_MODEL = "model : " + EXPECTED_SIG

WEIGHTS = ["Wq1", "Wk1", "Wv1", "Wq2", "Wk2", "Wv2",
           "Wo", "Bo", "W1", "B1", "W2", "B2"]

# --weights: the shared parameters, then three per layer.
SHARED = ["Wq1", "Wk1", "Wv1", "Wq2", "Wk2", "Wv2", "Bo", "B1", "B2"]
SHARED_PARAMS = """x : t [s, d],
            Wq1 : t [d, e], Wk1 : t [d, e], Wv1 : t [d, e],
            Wq2 : t [d, e], Wk2 : t [d, e], Wv2 : t [d, e],
            Bo : t [d], B1 : t [f], B2 : t [d]"""
EXPECTED_WEIGHTS_HEAD = ("t [a, b], " + "t [b, c], " * 6 + "t [b], t [d], t [b]")
EXPECTED_WEIGHTS_LAYER = "t [2 * c, b], t [b, d], t [d, b]"


def expected_weights(n):
    return ("model : (" + EXPECTED_WEIGHTS_HEAD + ", "
            + ", ".join([EXPECTED_WEIGHTS_LAYER] * n) + ") -> t [a, b]")


PARAMS = """(x : t [s, d],
            Wq1 : t [d, e], Wk1 : t [d, e], Wv1 : t [d, e],
            Wq2 : t [d, e], Wk2 : t [d, e], Wv2 : t [d, e],
            Wo : t [2 * e, d], Bo : t [d],
            W1 : t [d, f], B1 : t [f], W2 : t [f, d], B2 : t [d])"""

SOFTMAX = """softmax = fn (e : t [m, n]) {
  z = exp(e);
  s = map(fn (a) { reduce(+, 0f, a) }, transpose(e));
  map(fn (a) { a / s }, z)
};
"""


def layer(out, i, h, hn, wo="Wo", w1="W1", w2="W2"):
    """Write the statements of layer i, reading h and defining hn, with
    the weights wo, w1, w2 (per-layer names in --weights mode)."""
    p = "l%d_" % i
    w = out.write
    w("  // layer %d\n" % i)
    for head in ("1", "2"):
        w("  %sq%s = matmul(%s, Wq%s);\n" % (p, head, h, head))
        w("  %sk%s = matmul(%s, Wk%s);\n" % (p, head, h, head))
        w("  %sv%s = matmul(%s, Wv%s);\n" % (p, head, h, head))
        w("  %sa%s = matmul(softmax(matmul(%sq%s, transpose(%sk%s))), %sv%s);\n"
          % (p, head, p, head, p, head, p, head))
    w("  %sc = transpose(concat(transpose(%sa1), transpose(%sa2)));\n"
      % (p, p, p))
    w("  %sr = %s + matmul(%sc, %s) + Bo;\n" % (p, h, p, wo))
    w("  %sf = relu(matmul(%sr, %s) + B1);\n" % (p, p, w1))
    w("  %s = %sr + matmul(%sf, %s) + B2;\n" % (hn, p, p, w2))


def generate_weights(n, out):
    """--weights: per-layer Wo_i, W1_i, W2_i; everything else as the
    default mode."""
    w = out.write
    w("// Generated by bench/gen_transformer.py %d --weights -- do not edit.\n" % n)
    w("// A %d-layer transformer-like model graph (two-head attention +\n"
      "// feed-forward, three weights per layer).\n" % n)
    w("// Expected `axonc check` output:\n")
    w("//   %s\n" % EXPECTED_SOFTMAX)
    w("//   model : (%s, %s, ... (%d times)) -> t [a, b]\n\n"
      % (EXPECTED_WEIGHTS_HEAD, EXPECTED_WEIGHTS_LAYER, n))
    w(SOFTMAX)
    w("\nmodel = fn (%s" % SHARED_PARAMS)
    for i in range(1, n + 1):
        w(",\n            Wo_%d : t [2 * e, d], W1_%d : t [d, f], W2_%d : t [f, d]" % (i, i, i))
    w(") {\n")
    w("  h0 = x;\n")
    for i in range(1, n + 1):
        layer(out, i, "h%d" % (i - 1), "h%d" % i, "Wo_%d" % i, "W1_%d" % i, "W2_%d" % i)
    w("  h%d\n};\n" % n)


def generate(n, fns, out):
    w = out.write
    w("// Generated by bench/gen_transformer.py %d%s -- do not edit.\n"
      % (n, " --fns" if fns else ""))
    w("// A %d-layer transformer-like model graph (two-head attention +\n"
      "// feed-forward, shared weights).\n" % n)
    w("// Expected `axonc check` output:\n")
    w("//   %s\n" % EXPECTED_SOFTMAX)
    if fns:
        w("//   layer_<i> : %s   (each i)\n" % EXPECTED_SIG)
    w("//   %s\n\n" % EXPECTED_MODEL)
    w(SOFTMAX)
    if fns:
        for i in range(1, n + 1):
            w("\nlayer_%d = fn %s {\n" % (i, PARAMS))
            layer(out, i, "x", "h")
            w("  h\n};\n")
    w("\nmodel = fn %s {\n" % PARAMS)
    w("  h0 = x;\n")
    for i in range(1, n + 1):
        if fns:
            w("  h%d = layer_%d(h%d, %s);\n" % (i, i, i - 1, ", ".join(WEIGHTS)))
        else:
            layer(out, i, "h%d" % (i - 1), "h%d" % i)
    w("  h%d\n};\n" % n)


def usage():
    sys.stderr.write("usage: gen_transformer.py N [--fns | --weights] > out.axon\n"
                     "       gen_transformer.py --expected [--fns | --weights] N\n")
    sys.exit(2)


def main(argv):
    fns = "--fns" in argv
    weights = "--weights" in argv
    expected = "--expected" in argv
    rest = [a for a in argv if a not in ("--fns", "--weights", "--expected")]
    if len(rest) != 1 or (fns and weights):
        usage()
    try:
        n = int(rest[0])
    except ValueError:
        usage()
    if n < 1:
        usage()
    if expected and weights:
        sys.stdout.write(EXPECTED_SOFTMAX + "\n" + expected_weights(n) + "\n")
        return
    if weights:
        generate_weights(n, sys.stdout)
        return
    if expected:
        # The exact `axonc check` output for this program.
        lines = [EXPECTED_SOFTMAX]
        if fns:
            lines += ["layer_%d : %s" % (i, EXPECTED_SIG)
                      for i in range(1, n + 1)]
        lines.append(EXPECTED_MODEL)
        sys.stdout.write("\n".join(lines) + "\n")
        return
    generate(n, fns, sys.stdout)


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "common"))
    from cli import run  # bench/common/cli.py
    run(main)
