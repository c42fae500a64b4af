#!/usr/bin/env python3
"""Generate an N-layer residual CNN Axon program for benchmarking axonc.

Usage:
    python3 bench/gen_cnn.py N [OPTIONS] > out.axon
    python3 bench/gen_cnn.py --expected [OPTIONS] N
    OPTIONS: --weights --imagenet-stem --down-every K --max-down M

The CNN companion of gen_transformer.py (a separate generator because the
two programs share nothing but the idea: other operators, other weights,
and a signature that depends on N).  The program is a fully unrolled
ResNet/MobileNet-like graph, one function `model`:

  * Input `x : f32 [n, c, h, w]`: batch, input channels, height and width
    all SYMBOLIC, so every spatial size is an expression the solver builds
    and simplifies.  The stage channel counts are constants, as in a real
    network: 64, 128, 256, then 512 for every later stage (ResNet's
    widths, capped at 512 as ResNet-18/34 are).  (Not symbolic: a
    depthwise conv2d_grouped on k symbolic channels, k groups, leaves
    `g * c = k` with g = k, which axonc rightly does not solve for c = 1
    (k may be 0): it prints `b * e ... where b * e = b`.)

  * Stem: a 3x3 stride-1 convolution with padding 1 and ReLU, to 64
    channels (the CIFAR ResNets' stem, which the very deep ResNets, up to
    ResNet-1202, have), so the first stage works at the input's full
    resolution h x w.  --imagenet-stem instead writes ResNet's ImageNet
    stem: a 7x7 stride-2 convolution with padding 3, ReLU, a 3x3 stride-2
    max pooling with padding 1 (two more halvings).

  * Then N layers ("blocks"), threading h0 -> h1 -> ... -> hN.  Layer i
    is one of:
      - a DOWNSAMPLING block (every K-th layer, at most M of them; see
        below): conv2d 3x3 stride 2 padding 1 + relu, conv2d 3x3 stride 1
        padding 1, plus a 1x1 stride-2 projection shortcut, relu of the sum
        (samples/resnet_block); the next stage starts, with its channels;
      - otherwise, by i mod 4:
        0, 2: a BASIC block: conv2d 3x3 stride 1 padding 1 + relu, conv2d
              3x3 stride 1 padding 1, residual add, relu;
        1:    a DEPTHWISE-SEPARABLE block (samples/mobilenet_block): 3x3
              depthwise conv2d_grouped (one group per channel) + relu, 1x1
              pointwise conv2d, residual add, relu;
        3:    a POOLED block: conv2d 3x3 + relu, 3x3 stride-1 maxpool2d
              (padding 1), conv2d 3x3, 3x3 stride-1 avgpool2d (padding 1),
              residual add, relu.
    Every stride-1 operator computes (H + 2 - 3) / 1 + 1 on the current
    size H, which the solver must simplify back to H (or the residual add
    would not type); every stride-2 one computes (H - 1) / 2 + 1, which
    nests: after D of them the height is, floor divisions by constants
    folded into one,
        (h + 2^D - 1) / 2^D
    and every later layer works on that expression.

  * Head: a global average pool, avgpool2d(hN, [H, W], [1, 1], [0, 0]),
    whose window is the final height and width written out as the
    generator computes them (in x's names h and w); the solver must prove
    that the window equals the size (out: [n, C, 1, 1]).  `model` returns
    the pooled vector and the feature map hN.

  * Nesting is bounded, as in a real network (ResNets downsample 3 to 5
    times whatever their depth): at most M (default 30) downsampling
    blocks, so at most 30 nested floor divisions (32 with
    --imagenet-stem).  K (default max(50, N // M)) spreads them evenly
    over the layers: N = 100 -> 2 blocks (at layers 50, 100), N = 1,000
    -> 20 (every 50), N = 10,000 -> 30 (every 333).  --down-every and
    --max-down override K and M (for bisecting; K >= 1, M >= 0);
    --max-down 0 is a network without downsampling, all N layers at
    full resolution (a super-resolution network such as EDSR).

  * Weights are SHARED PER STAGE: every block of a stage uses the stage's
    Wa_s, Wb_s : f32 [C, C, 3, 3], Dw_s : f32 [C, 1, 3, 3] (depthwise),
    Pw_s : f32 [C, C, 1, 1] (pointwise), and the downsampling block that
    opens stage s >= 1 has Wd_s : f32 [C, C', 3, 3] and the projection
    Wp_s : f32 [C, C', 1, 1] (C' the previous stage's channels).  All the
    blocks of a real stage have exactly these weight shapes; sharing them
    keeps `model`'s signature bounded (6 + 6 * M parameters at most) so
    the timing measures the body, as gen_transformer.py's default does.
    --weights instead gives every block weights of its own (a basic
    block 2, a depthwise one 2, a pooled one 2, a downsampling one 3), as
    a real network has: the signature then grows with N.

  * Only `model`'s parameters are annotated; every intermediate is
    inferred.

Expected output of `axonc check` (one line; --expected prints it exactly):

    model : (f32 [a, b, c, d], f32 [64, b, 3, 3] (7, 7 with
             --imagenet-stem), <the weights>) ->
            (f32 [a, C, 1, 1], f32 [a, C, H, W]) where 1 <= c, 1 <= d

with H = (c + 2^D - 1) / 2^D (D: one per
downsampling block, and two more with --imagenet-stem; H = c without
any) and W the same in d: x's names n, c, h, w are renamed a, b, c, d.
The weights are constants.  build() below computes it.

bench/README.md has the timings, and what in axonc makes a long
full-resolution stage (--max-down 0, a large --down-every) superlinear.
"""

import os
import sys

STAGE0_CH = 64
MAX_CH = 512
DEFAULT_MAX_DOWN = 30


def channels(s):
    return min(STAGE0_CH << s, MAX_CH)


def plan(n, down_every, max_down):
    """The kind of each layer 1..n: 'down', 'basic', 'dw' or 'pool'."""
    if max_down is None:
        max_down = DEFAULT_MAX_DOWN
    if down_every is None:
        down_every = max(50, n // max_down) if max_down > 0 else n + 1
    kinds = []
    downs = 0
    for i in range(1, n + 1):
        if i % down_every == 0 and downs < max_down:
            kinds.append("down")
            downs += 1
        elif i % 4 == 1:
            kinds.append("dw")
        elif i % 4 == 3:
            kinds.append("pool")
        else:
            kinds.append("basic")
    return kinds


def nested(var, depth):
    """The size after `depth` stride-2 (H - 1) / 2 + 1 steps, as axonc
    prints it: (H + 2^depth - 1) / 2^depth (floor divisions by constants
    nest into one)."""
    if depth == 0:
        return var
    return "(%s + %d) / %d" % (var, 2 ** depth - 1, 2 ** depth)


def f32(*dims):
    return "f32 [%s]" % ", ".join(str(d) for d in dims)


class Weights:
    """The parameters of `model`: name, annotation, and printed type."""

    def __init__(self, r):
        self.params = [("x", "f32 [n, c, h, w]", "f32 [a, b, c, d]"),
                       ("S", "f32 [64, c, %d, %d]" % (r, r), "f32 [64, b, %d, %d]" % (r, r))]

    def add(self, name, *dims):
        t = f32(*dims)
        self.params.append((name, t, t))
        return name


def build(n, per_layer, imagenet, down_every, max_down):
    """The program's text (a list of lines) and its expected signature."""
    kinds = plan(n, down_every, max_down)
    ws = Weights(7 if imagenet else 3)
    body = []
    b = body.append
    stage = 0
    ch = channels(0)

    def stage_weights(s, c):
        return {k: ws.add("%s_%d" % (k, s), *dims) for k, dims in
                (("Wa", (c, c, 3, 3)), ("Wb", (c, c, 3, 3)),
                 ("Dw", (c, 1, 3, 3)), ("Pw", (c, c, 1, 1)))}

    shared = None if per_layer else stage_weights(0, ch)
    if imagenet:
        b("  // stem: 7x7/2 convolution, 3x3/2 max pooling")
        b("  h0 = maxpool2d(relu(conv2d(x, S, [2, 2], [3, 3])), [3, 3], [2, 2], [1, 1]);")
    else:
        b("  // stem: 3x3 convolution")
        b("  h0 = relu(conv2d(x, S, [1, 1], [1, 1]));")
    for i, kind in enumerate(kinds, 1):
        h, hn, p = "h%d" % (i - 1), "h%d" % i, "l%d_" % i

        def w(key, *dims):
            if per_layer:
                return ws.add("%s%s" % (p, key), *dims)
            return shared[key]
        if kind == "down":
            prev, stage = ch, stage + 1
            ch = channels(stage)
            b("  // layer %d: downsampling block, stage %d (%d -> %d channels)"
              % (i, stage, prev, ch))
            if per_layer:
                wd = ws.add("%sWd" % p, ch, prev, 3, 3)
                wp = ws.add("%sWp" % p, ch, prev, 1, 1)
                wb = ws.add("%sWb" % p, ch, ch, 3, 3)
            else:
                wd = ws.add("Wd_%d" % stage, ch, prev, 3, 3)
                wp = ws.add("Wp_%d" % stage, ch, prev, 1, 1)
                shared = stage_weights(stage, ch)
                wb = shared["Wb"]
            b("  %sy = relu(conv2d(%s, %s, [2, 2], [1, 1]));" % (p, h, wd))
            b("  %sz = conv2d(%sy, %s, [1, 1], [1, 1]);" % (p, p, wb))
            b("  %s = relu(%sz + conv2d(%s, %s, [2, 2], [0, 0]));" % (hn, p, h, wp))
        elif kind == "basic":
            b("  // layer %d: basic block" % i)
            b("  %sy = relu(conv2d(%s, %s, [1, 1], [1, 1]));"
              % (p, h, w("Wa", ch, ch, 3, 3)))
            b("  %s = relu(%s + conv2d(%sy, %s, [1, 1], [1, 1]));"
              % (hn, h, p, w("Wb", ch, ch, 3, 3)))
        elif kind == "dw":
            b("  // layer %d: depthwise-separable block" % i)
            b("  %sd = relu(conv2d_grouped(%s, %s, [1, 1], [1, 1], [1, 1], [%d]));"
              % (p, h, w("Dw", ch, 1, 3, 3), ch))
            b("  %s = relu(%s + conv2d(%sd, %s, [1, 1], [0, 0]));"
              % (hn, h, p, w("Pw", ch, ch, 1, 1)))
        else:
            b("  // layer %d: pooled block" % i)
            b("  %sy = maxpool2d(relu(conv2d(%s, %s, [1, 1], [1, 1])), [3, 3], [1, 1], [1, 1]);"
              % (p, h, w("Wa", ch, ch, 3, 3)))
            b("  %sz = avgpool2d(conv2d(%sy, %s, [1, 1], [1, 1]), [3, 3], [1, 1], [1, 1]);"
              % (p, p, w("Wb", ch, ch, 3, 3)))
            b("  %s = relu(%s + %sz);" % (hn, h, p))
    depth = (2 if imagenet else 0) + kinds.count("down")
    b("  // head: global average pooling (the size, halved %d times)" % depth)
    b("  g = avgpool2d(h%d, [%s, %s], [1, 1], [0, 0]);"
      % (n, nested("h", depth), nested("w", depth)))
    b("  g, h%d" % n)

    sig = ("model : (%s) -> (%s, %s) where 1 <= c, 1 <= d"
           % (", ".join(t for _, _, t in ws.params),
              f32("a", ch, 1, 1),
              f32("a", ch, nested("c", depth), nested("d", depth))))
    params = ",\n            ".join("%s : %s" % (name, ann) for name, ann, _ in ws.params)
    text = ["model = fn (%s) {" % params] + body + ["};"]
    return text, sig, kinds


def usage():
    sys.stderr.write(
        "usage: gen_cnn.py N [OPTIONS] > out.axon\n"
        "       gen_cnn.py --expected [OPTIONS] N\n"
        "OPTIONS: --weights --imagenet-stem --down-every K --max-down M\n")
    sys.exit(2)


def main(argv):
    expected = per_layer = imagenet = False
    down_every = max_down = None
    rest = []
    args = iter(argv)
    try:
        for a in args:
            if a == "--expected":
                expected = True
            elif a == "--weights":
                per_layer = True
            elif a == "--imagenet-stem":
                imagenet = True
            elif a == "--down-every":
                down_every = int(next(args))
            elif a == "--max-down":
                max_down = int(next(args))
            else:
                rest.append(a)
        if len(rest) != 1:
            usage()
        n = int(rest[0])
    except (ValueError, StopIteration):
        usage()
    if n < 1 or (down_every is not None and down_every < 1) \
            or (max_down is not None and max_down < 0):
        usage()
    text, sig, kinds = build(n, per_layer, imagenet, down_every, max_down)
    if expected:
        sys.stdout.write(sig + "\n")
        return
    out = sys.stdout
    flags = "".join(" " + a for a in argv)
    out.write("// Generated by bench/gen_cnn.py%s -- do not edit.\n" % flags)
    out.write("// A %d-layer residual CNN (%d downsampling, %d basic, %d depthwise-\n"
              "// separable, %d pooled blocks; weights %s).\n"
              % (n, kinds.count("down"), kinds.count("basic"), kinds.count("dw"),
                 kinds.count("pool"), "per layer" if per_layer else "shared per stage"))
    out.write("// Expected `axonc check` output (gen_cnn.py --expected):\n")
    out.write("//   %s\n\n" % (sig if len(sig) <= 2000 else sig[:2000] + " ..."))
    out.write("\n".join(text) + "\n")


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "common"))
    from cli import run  # bench/common/cli.py
    run(main)
