"""nets.py - each sample's network in PyTorch eager (CPU, float32), written
from its samples/NAME/NAME.axon (bench/samples/run.sh; bench/README.md,
"Samples end to end").

Each function takes the sample's inputs in parameter order (torch tensors;
a `dims` parameter as a tuple of ints) and returns its outputs in the
header's order (tuples flattened), as plain PyTorch a user would write for
the same network: torch.nn.functional for the built-ins, `@` for matmul and
linear, torch.einsum where the Axon source writes einsum.  The operators'
meaning is the header's (docs/language.md, axon-spec.md 9b): convolutions
are cross-correlations with zero padding (F.conv*d), max pools pad with
-inf (F.max_pool*d), upsample2d is nearest (F.interpolate), layernorm has
the biased variance and eps 1e-5 (F.layer_norm), gelu the exact erf form
(F.gelu's default), softmax subtracts the maximum (torch.softmax), `reduce`
folds the outermost axis and `map` walks it.  Nothing is fused or
rewritten beyond what an Axon operator names: each line below says which
Axon line it is.
"""
import math

import torch
import torch.nn.functional as F


def attention(x, heads, Wq, Wk, Wv, Wo):
    b, n, d = x.shape
    h = heads[0]
    q = (x @ Wq).reshape(b, n, h, d // h)        # reshape(einsum("bnd,de->bne", x, Wq), [b, n, h, d / h])
    k = (x @ Wk).reshape(b, n, h, d // h)
    v = (x @ Wv).reshape(b, n, h, d // h)
    scores = torch.einsum("bnhk,bmhk->bhnm", q, k) * (1.0 / math.sqrt(d // h))  # * rsqrt(size([d / h]))
    weights = torch.softmax(scores, dim=-1)
    context = torch.einsum("bhnm,bmhk->bnhk", weights, v).reshape(b, n, d)
    return (context @ Wo,)                        # einsum("bnd,de->bne", context, Wo)


def encoder(x, heads, Wq, Wk, Wv, Wo, gamma1, beta1, W1, bias1, W2, bias2, gamma2, beta2):
    d = x.shape[-1]
    (att,) = attention(x, heads, Wq, Wk, Wv, Wo)  # attend: the same lines as attention.axon
    attended = F.layer_norm(x + att, (d,), gamma1, beta1, eps=1e-5)
    hidden = F.gelu(attended @ W1 + bias1)        # gelu(einsum("bnd,df->bnf", attended, W1) + bias1)
    return (F.layer_norm(attended + hidden @ W2 + bias2, (d,), gamma2, beta2, eps=1e-5),)


def softmax(x):
    # y = reduce(max, -inf, x); z = exp(x - y); z / reduce(+, 0f, z): over the outermost axis
    return (torch.softmax(x, dim=0),)


def conv(x, f):
    return (F.conv2d(x, f),)                      # conv(x, f): stride 1, no padding


def lstm(x, h, c, Wi, Wf, Wo, Wc, Ri, Rf, Ro, Rc, Bi, Bf, Bo, Bc):
    # loop((h, c), cell, x): lstmStep on each step of x's outermost axis;
    # the outputs (hn, cn) and the stacked cn of every step
    cs = []
    for t in range(x.shape[0]):
        y = x[t]
        i = torch.sigmoid(y @ Wi + h @ Ri + Bi)
        f = torch.sigmoid(y @ Wf + h @ Rf + Bf)
        o = torch.sigmoid(y @ Wo + h @ Ro + Bo)
        g = torch.tanh(y @ Wc + h @ Rc + Bc)
        c = f * c + i * g
        h = o * torch.tanh(c)
        cs.append(c)
    return (h, c, torch.stack(cs) if cs else x.new_zeros((0,) + tuple(c.shape)))


def _scan(s, W, R, B, xs):
    # loop(s, A, xs) with A = fn (h, y) { hn = tanh(matmul(y, W) + matmul(h, R) + B); hn, hn }
    out = []
    for t in range(xs.shape[0]):
        s = torch.tanh(xs[t] @ W + s @ R + B)
        out.append(s)
    return torch.stack(out)


def rnn(s0, s0p, X, W, R, B, Wp, Rp, Bp):
    x = _scan(s0, W, R, B, X)                     # bidir: _, x = loop(a, b, s)
    y = _scan(s0p, Wp, Rp, Bp, torch.flip(X, [0]))  # _, y = loop(c, d, reverse(s))
    bidir = torch.cat([x, torch.flip(y, [0])], dim=0)  # concat(x, reverse(y))
    r = _scan(s0, W, R, B, X)                     # residual: _, r = loop(a, b, s); r + s
    return (bidir, r + X)


def mlp(x, W1, b1, W2, b2, W3, b3):
    h1 = torch.relu(x @ W1 + b1)                  # relu(dense(x, W1, b1)), dense = matmul(x, W) + b
    h2 = torch.relu(h1 @ W2 + b2)
    return (h2 @ W3 + b3,)


def cnn(x, K1, K2, Kc):
    f1 = torch.relu(F.conv2d(x, K1))              # relu(conv(x, K1))
    f2 = torch.relu(F.conv2d(f1, K2))
    return (F.conv2d(f2, Kc),)


def transformer(x, scale, Wq, Wk, Wv, Wo, bo, W1, b1, W2, b2):
    Q = x @ Wq
    K = x @ Wk
    V = x @ Wv
    # softmax = map(fn (row) { z = exp(row - reduce(max, -inf, row)); z / reduce(+, 0f, z) }, e): per row
    weights = torch.softmax((Q @ K.t()) * scale, dim=-1)
    h = x + ((weights @ V) @ Wo + bo)             # x + dense(matmul(weights, V), Wo, bo)
    hidden = torch.relu(h @ W1 + b1)
    return (h + (hidden @ W2 + b2),)


def resnet_block(x, w1, w2, wp):
    y1 = torch.relu(F.conv2d(x, w1, stride=2, padding=1))  # relu(conv2d(x, w1, [2, 2], [1, 1]))
    y2 = F.conv2d(y1, w2, stride=1, padding=1)
    shortcut = F.conv2d(x, wp, stride=2, padding=0)
    return (torch.relu(y2 + shortcut),)


def mobilenet_block(x, dw, pw, stride):
    # relu(conv2d_grouped(x, dw, stride, [1, 1], [1, 1], [32])): padding 1, dilation 1, 32 groups
    depth = torch.relu(F.conv2d(x, dw, stride=tuple(stride), padding=1, dilation=1, groups=32))
    return (torch.relu(F.conv2d(depth, pw, stride=1, padding=0)),)


def kws(x, k1, k2, kc):
    h1 = F.max_pool1d(torch.relu(F.conv1d(x, k1, stride=1, padding=2)), 2, 2, 0)  # maxpool1d(relu(conv1d(x, k1, [1], [2])), [2], [2], [0])
    h2 = F.max_pool1d(torch.relu(F.conv1d(h1, k2, stride=1, padding=1)), 2, 2, 0)
    return (F.conv1d(h2, kc, stride=1, padding=0),)


def unet_step(x, kd, ku):
    down = torch.relu(F.conv2d(F.max_pool2d(x, 2, 2, 0), kd, stride=1, padding=1))
    up = torch.relu(F.conv2d(F.interpolate(down, scale_factor=2, mode="nearest"), ku, stride=1, padding=1))
    return (torch.cat([up, x], dim=1),)           # map2(fn (a, s) { concat(a, s) }, up, x): each image's channels


# samples/blocks: norm.axon, attention.axon, mlp.axon

def _rmsnorm(x, g):
    # x * rsqrt(mean("...d->...1", x * x) + 0.00001) * g
    return x * torch.rsqrt((x * x).mean(dim=-1, keepdim=True) + 0.00001) * g


def _self_attention(x, Wq, Wk, Wv, Wo, heads, bias):
    b, n, d = x.shape
    h = heads[0]

    def split_heads(t):                           # einsum("bnhk->bhnk", reshape(x, [b, n, h, d / h]))
        return t.reshape(b, n, h, d // h).permute(0, 2, 1, 3)

    q = split_heads(x @ Wq)                       # split_heads(linear(x, Wq), heads)
    k = split_heads(x @ Wk)
    v = split_heads(x @ Wv)
    scores = torch.einsum("bhnk,bhmk->bhnm", q, k) * (1.0 / math.sqrt(d // h))
    if bias is not None:
        scores = scores + bias
    context = torch.einsum("bhnm,bhmk->bnhk", torch.softmax(scores, dim=-1), v)
    return context.reshape(b, n, d) @ Wo          # linear(reshape(context, [b, n, d]), Wo)


def _causal_bias(n):
    # select(ge(reshape(arange(tokens), [n, 1]), arange(tokens)), 0f, -inf)
    ar = torch.arange(n)
    return torch.where(ar.reshape(n, 1) >= ar, torch.tensor(0.0), torch.tensor(-math.inf))


def gpt_block(x, g1, Wq, Wk, Wv, Wo, heads, g2, Wg, Wu, Wd):
    n = x.shape[1]
    h1 = x + _self_attention(_rmsnorm(x, g1), Wq, Wk, Wv, Wo, heads, _causal_bias(n))
    z = _rmsnorm(h1, g2)
    return (h1 + (F.silu(z @ Wg) * (z @ Wu)) @ Wd,)  # swiglu: linear(silu(linear(x, Wg)) * linear(x, Wu), Wd)


def vit_block(patches, We, cls, pos, Wq, Wk, Wv, Wo, heads, ln1g, ln1b, W1, b1, W2, b2, ln2g, ln2b):
    b = patches.shape[0]
    d = We.shape[1]
    # concat_axis(expand(cls, [b, 1, d]), linear(patches, We), [1]) + pos
    tokens = torch.cat([cls.expand(b, 1, d), patches @ We], dim=1) + pos
    # no_bias([p + 1]) is expand(0f, [n, n]): adding zeros, left out here
    a = F.layer_norm(tokens + _self_attention(tokens, Wq, Wk, Wv, Wo, heads, None), (d,), ln1g, ln1b, eps=1e-5)
    mlp_out = F.gelu(a @ W1 + b1) @ W2 + b2       # gelu_mlp: linear(gelu(linear(x, W1) + b1), W2) + b2
    return (F.layer_norm(a + mlp_out, (d,), ln2g, ln2b, eps=1e-5),)
