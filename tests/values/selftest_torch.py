"""selftest_torch.py - a second opinion from PyTorch (1.13, CPU) for the
evaluator's convolutions, pools, upsample, layernorm, gelu, softmax,
log_softmax, einsum, topk and spec 5b's last table (linear, expand,
concat_axis, conv1d_grouped, arange; the gpt_block and vit_block samples),
on random shapes that include 0 and 1 sizes: the float64 reference must
match torch in float64 (to 1e-11 relative), and torch in float32 must be
within K times the error bound (uncertain elements skipped and counted).  Torch is used here only, never by the evaluator.
"""
import math
import os

import numpy as np

from evaluate import evaluate, EvalError, K

F32 = np.float32


class Ctx(object):
    def __init__(self, torch, stats, fail):
        self.torch, self.stats, self.fail = torch, stats, fail
        self.rng = np.random.default_rng(2024)
        self.cases = 0
        self.skipped = 0
        self.torch_refused = 0

    def rand(self, *shape):
        return self.rng.standard_normal(shape).astype(F32)

    def compare(self, name, out, t64, t32):
        """out: an Output; t64/t32: torch results in float64 / float32."""
        self.cases += 1
        self.stats.cases += 1
        self.stats.torch_cases += 1
        ref = t64.detach().numpy().astype(np.float64)
        got = out.value
        if got.shape != ref.shape:
            return self.fail(name, 'shape %s, torch %s' % (got.shape, ref.shape))
        with np.errstate(all='ignore'):
            ok64 = (got == ref) | (np.isnan(got) & np.isnan(ref)) | (np.abs(got - ref) <= 1e-11 * (1 + np.abs(ref)))
        if not np.all(ok64):
            i = np.argmax(~ok64)
            return self.fail(name, 'float64 differs from torch: %r vs %r' % (got.ravel()[i], ref.ravel()[i]))
        run = t32.detach().numpy().astype(np.float64)
        cert = ~out.uncertain
        self.skipped += int(np.sum(out.uncertain))
        self.stats.skipped_uncertain += int(np.sum(out.uncertain))
        with np.errstate(all='ignore'):
            err = np.abs(run - got)
            ok = (run == got) | (np.isnan(run) & np.isnan(got)) | (err <= K * out.bound + 1e-30)
        if not np.all(ok | ~cert):
            i = np.argmax(~ok & cert)
            self.fail(name, 'torch float32 %r vs %r: error %g above K * bound %g'
                      % (run.ravel()[i], got.ravel()[i], err.ravel()[i], K * out.bound.ravel()[i]))

    def both(self, f, *arrays):
        """f applied to torch tensors in float64 and in float32."""
        t = self.torch
        return (f(*[t.tensor(a.astype(np.float64)) for a in arrays]),
                f(*[t.tensor(a.astype(np.float32)) for a in arrays]))

    def torch_ok(self, f, *arrays):
        try:
            return self.both(f, *arrays)
        except RuntimeError:
            self.torch_refused += 1
            return None


def convs(c):
    F = c.torch.nn.functional
    for trial in range(60):
        nd = 1 + trial % 2
        b = int(c.rng.choice([0, 1, 2]))
        g = int(c.rng.choice([1, 1, 2, 3]))
        cg, kg = int(c.rng.integers(1, 4)), int(c.rng.integers(1, 3))
        ks = [int(c.rng.integers(1, 4)) for _ in range(nd)]
        st = [int(c.rng.integers(1, 4)) for _ in range(nd)]
        pd = [int(c.rng.integers(0, 3)) for _ in range(nd)]
        dl = [int(c.rng.integers(1, 3)) for _ in range(nd)]
        sp = [int(c.rng.integers(1, 8)) for _ in range(nd)]
        x, w = c.rand(b, g * cg, *sp), c.rand(g * kg, cg, *ks)
        fits = all(sp[i] + 2 * pd[i] - dl[i] * (ks[i] - 1) - 1 >= 0 for i in range(nd))
        name = 'conv%dd_grouped b%d g%d c%d k%d sp%s ks%s s%s p%s d%s' % (nd, b, g, cg, kg, sp, ks, st, pd, dl)
        src = 'f = fn (x, w) { conv%dd_grouped(x, w, %s, %s, %s, [%d]) };' % (nd, st, pd, dl, g)
        if not fits:
            c.cases += 1
            c.stats.cases += 1
            try:
                evaluate(src, 'f', [x, w])
                c.fail(name, 'a window that does not fit was accepted')
            except EvalError:
                pass
            continue
        out = evaluate(src, 'f', [x, w])[0]
        tf = F.conv1d if nd == 1 else F.conv2d
        r = c.torch_ok(lambda a, v: tf(a, v, stride=st, padding=pd, dilation=dl, groups=g), x, w)
        if r:
            c.compare(name, out, *r)
        if g == 1 and dl == [1] * nd:
            plain = 'f = fn (x, w) { conv%dd(x, w, %s, %s) };' % (nd, st, pd)
            out = evaluate(plain, 'f', [x, w])[0]
            if r:
                c.compare(name.replace('_grouped', ''), out, *r)
    x, w = c.rand(2, 3, 5, 4), c.rand(4, 3, 2, 3)
    out = evaluate('f = fn (x, w) { conv(x, w) };', 'f', [x, w])[0]
    c.compare('conv (section 5)', out, *c.both(F.conv2d, x, w))


def pools(c):
    F = c.torch.nn.functional
    for trial in range(40):
        nd = 1 + trial % 2
        b, ch = int(c.rng.choice([0, 1, 2])), int(c.rng.choice([1, 3]))
        ks = [int(c.rng.integers(1, 4)) for _ in range(nd)]
        st = [int(c.rng.integers(1, 4)) for _ in range(nd)]
        pd = [int(c.rng.integers(0, k // 2 + 1)) for k in ks]       # torch: padding <= kernel / 2
        sp = [int(c.rng.integers(k, 8)) for k in ks]
        x = c.rand(b, ch, *sp)
        for kind in ('max', 'avg'):
            name = '%spool%dd b%d sp%s ks%s s%s p%s' % (kind, nd, b, sp, ks, st, pd)
            src = 'f = fn (x) { %spool%dd(x, %s, %s, %s) };' % (kind, nd, ks, st, pd)
            out = evaluate(src, 'f', [x])[0]
            tf = getattr(F, '%s_pool%dd' % (kind, nd))
            r = c.torch_ok(lambda a: tf(a, ks, st, pd), x)
            if r:
                c.compare(name, out, *r)
    for f1, f2 in [(1, 1), (2, 3), (3, 1)]:
        x = c.rand(int(c.rng.choice([0, 1, 2])), 2, int(c.rng.integers(1, 4)), int(c.rng.integers(1, 4)))
        out = evaluate('f = fn (x) { upsample2d(x, [%d, %d]) };' % (f1, f2), 'f', [x])[0]
        r = c.torch_ok(lambda a: F.interpolate(a, scale_factor=(f1, f2), mode='nearest'), x)
        if r:
            c.compare('upsample2d %s by %d, %d' % (list(x.shape), f1, f2), out, *r)


def last_axis(c):
    F = c.torch.nn.functional
    shapes = [(1,), (7,), (3, 1), (2, 5), (0, 4), (2, 3, 6), (1, 1, 1), (4, 33)]
    for sh in shapes:
        x = c.rand(*sh) * 4
        outs = evaluate('f = fn (x) { softmax(x), log_softmax(x), gelu(x) };', 'f', [x])
        c.compare('softmax %s' % (sh,), outs[0], *c.both(lambda a: F.softmax(a, -1), x))
        c.compare('log_softmax %s' % (sh,), outs[1], *c.both(lambda a: F.log_softmax(a, -1), x))
        c.compare('gelu %s' % (sh,), outs[2], *c.both(F.gelu, x))
        n = sh[-1]
        g, b = c.rand(n), c.rand(n)
        out = evaluate('f = fn (x, g, b) { layernorm(x, g, b) };', 'f', [x, g, b])[0]
        c.compare('layernorm %s' % (sh,), out, *c.both(lambda a, gg, bb: F.layer_norm(a, (n,), gg, bb, 1e-5), x, g, b))


def einsums(c):
    t = c.torch
    cases = [('ij,jk->ik', [(3, 4), (4, 2)]), ('bhnd,bhmd->bhnm', [(2, 2, 3, 4), (2, 2, 5, 4)]),
             ('...nd,...md->...nm', [(2, 1, 3, 4), (3, 5, 4)]), ('ij->ji', [(3, 4)]), ('ii->i', [(4, 4)]),
             ('i,j->ij', [(3,), (0,)]), ('bij,bjk->bik', [(0, 2, 3), (0, 3, 1)]), ('ijk->', [(2, 3, 4)]),
             ('a...b->ba...', [(2, 3, 1, 4)]), ('ij,ij->i', [(5, 1), (5, 1)]), ('bnd,de->bne', [(2, 3, 16), (16, 16)])]
    for spec, shapes in cases:
        arrs = [c.rand(*s) for s in shapes]
        names = ', '.join('x%d' % i for i in range(len(arrs)))
        out = evaluate('f = fn (%s) { einsum("%s", %s) };' % (names, spec, names), 'f', arrs)[0]
        c.compare('einsum %s %s' % (spec, shapes), out, *c.both(lambda *a: t.einsum(spec, *a), *arrs))


def topks(c):
    t = c.torch
    for sh, k in [((5,), 2), ((3, 6), 6), ((2, 4), 0), ((1, 1), 1), ((0, 3), 2), ((2, 3, 9), 4)]:
        x = c.rand(*sh)
        outs = evaluate('f = fn (x) { topk(x, [%d]) };' % k, 'f', [x])
        v64, i64 = t.topk(t.tensor(x.astype(np.float64)), k, dim=-1)
        v32, _ = t.topk(t.tensor(x), k, dim=-1)
        c.compare('topk values %s k %d' % (sh, k), outs[0], v64, v32)
        c.cases += 1
        c.stats.cases += 1
        c.stats.torch_cases += 1
        if not np.array_equal(outs[1].value, i64.numpy()):
            c.fail('topk indices %s k %d' % (sh, k), '%s vs torch %s' % (outs[1].value, i64.numpy()))
    x = np.array([[NAN_(), 1, 3, 3, 2]], F32)
    outs = evaluate('f = fn (x) { argmax("...n->...", x), topk(x, [1]) };', 'f', [x])
    c.cases += 1
    c.stats.cases += 1
    c.stats.torch_cases += 1
    tx = t.tensor(x)
    if outs[0].value.tolist() != [int(t.argmax(tx, -1))] or outs[2].value.tolist() != [[0]]:
        c.fail('argmax NaN as torch', '%s vs %s' % (outs[0].value, t.argmax(tx, -1)))


def added(c):
    """Spec 5b's last table against torch: linear (F.linear with the weight
    transposed), expand (Tensor.expand), concat_axis of several tensors with
    negative axes (torch.cat), a depthwise conv1d_grouped as Conformer's
    (F.conv1d with groups = channels), arange."""
    t, F = c.torch, c.torch.nn.functional
    for lead, k, m in [((), 5, 3), ((4,), 7, 2), ((2, 3), 16, 16), ((0, 2), 3, 4), ((3,), 0, 2), ((2, 1, 2), 33, 1)]:
        x, w = c.rand(*(lead + (k,))), c.rand(k, m)
        out = evaluate('f = fn (x, w) { linear(x, w) };', 'f', [x, w])[0]
        c.compare('linear %s @ [%d, %d]' % (lead + (k,), k, m), out, *c.both(lambda a, b: F.linear(a, b.t()), x, w))
    for src, dst in [((1, 1, 4), (3, 1, 4)), ((4,), (2, 3, 4)), ((2, 1), (2, 5)), ((), (3, 2)), ((1,), (0,)),
                     ((3, 1, 1), (2, 3, 4, 5))]:
        x = c.rand(*src)
        out = evaluate('f = fn (x) { expand(x, %s) };' % list(dst), 'f', [x])[0]
        c.compare('expand %s to %s' % (src, dst), out, *c.both(lambda a: a.expand(*dst), x))
    for shapes, axis in [([(2, 3), (2, 1), (2, 0), (2, 4)], -1), ([(1, 3, 2), (4, 3, 2), (2, 3, 2)], -3),
                         ([(2, 1, 3), (2, 2, 3), (2, 5, 3)], 1), ([(3, 2), (3, 2)], -2)]:
        arrs = [c.rand(*sh) for sh in shapes]
        names = ', '.join('x%d' % i for i in range(len(arrs)))
        out = evaluate('f = fn (%s) { concat_axis(%s, [%d]) };' % (names, names, axis), 'f', arrs)[0]
        c.compare('concat_axis %s [%d]' % (shapes, axis), out, *c.both(lambda *a: t.cat(a, axis), *arrs))
    for b, ch, l, r, pad, dil, st in [(2, 4, 20, 31, 15, 1, 1), (1, 3, 9, 3, 1, 2, 1), (2, 2, 7, 5, 2, 1, 2),
                                      (0, 3, 5, 3, 1, 1, 1), (1, 6, 4, 1, 0, 1, 3)]:
        x, k = c.rand(b, ch, l), c.rand(ch, 1, r)
        out = evaluate('f = fn (x, k) { conv1d_grouped(x, k, [%d], [%d], [%d], [%d]) };' % (st, pad, dil, ch), 'f',
                       [x, k])[0]
        c.compare('conv1d_grouped depthwise b%d c%d l%d r%d p%d d%d s%d' % (b, ch, l, r, pad, dil, st), out,
                  *c.both(lambda a, kk: F.conv1d(a, kk, stride=st, padding=pad, dilation=dil, groups=ch), x, k))
    c.cases += 1
    c.stats.cases += 1
    c.stats.torch_cases += 1
    out = evaluate('f = fn (k : dims [n]) { arange(k) };', 'f', [(6,)])[0]
    if out.value.tolist() != t.arange(6).tolist() or out.elem != 'i32':
        c.fail('arange as torch', '%s %s' % (out.value, out.elem))


def samples(c):
    """Whole networks of samples/: the sample programs against the same
    networks written in torch."""
    t, F = c.torch, c.torch.nn.functional
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'samples')

    def prog(name):
        path = os.path.join(root, name, name + '.axon')
        with open(path) as fh:
            return fh.read(), path

    def resnet(x, w1, w2, wp):
        y1 = t.relu(F.conv2d(x, w1, stride=2, padding=1))
        return t.relu(F.conv2d(y1, w2, padding=1) + F.conv2d(x, wp, stride=2))

    def sep(x, dw, pw):
        return t.relu(F.conv2d(t.relu(F.conv2d(x, dw, stride=(2, 1), padding=1, groups=32)), pw))

    def unet(x, kd, ku):
        down = t.relu(F.conv2d(F.max_pool2d(x, 2, 2), kd, padding=1))
        up = t.relu(F.conv2d(F.interpolate(down, scale_factor=2, mode='nearest'), ku, padding=1))
        return t.cat([up, x], 1)

    def kws(x, k1, k2, kc):
        h1 = F.max_pool1d(t.relu(F.conv1d(x, k1, padding=2)), 2, 2)
        h2 = F.max_pool1d(t.relu(F.conv1d(h1, k2, padding=1)), 2, 2)
        return F.conv1d(h2, kc)

    def attend(x, h, wq, wk, wv, wo):
        b, n, d = x.shape
        q, k, v = [(x @ w).reshape(b, n, h, d // h) for w in (wq, wk, wv)]
        s = t.einsum('bnhk,bmhk->bhnm', q, k) * (1.0 / math.sqrt(d // h))
        return t.einsum('bhnm,bmhk->bnhk', t.softmax(s, -1), v).reshape(b, n, d) @ wo

    def encoder(x, wq, wk, wv, wo, g1, b1, w1, c1, w2, c2, g2, b2):
        d = x.shape[-1]
        a = F.layer_norm(x + attend(x, 2, wq, wk, wv, wo), (d,), g1, b1, 1e-5)
        hid = F.gelu(a @ w1 + c1)
        return F.layer_norm(a + hid @ w2 + c2, (d,), g2, b2, 1e-5)
    r = c.rand
    cases = [('resnet_block', 'block', resnet, [r(2, 3, 8, 8), r(4, 3, 3, 3), r(4, 4, 3, 3), r(4, 3, 1, 1)], []),
             ('mobilenet_block', 'sep', sep, [r(1, 32, 6, 5), r(32, 1, 3, 3), r(5, 32, 1, 1)], [(2, 1)]),
             ('unet_step', 'unet', unet, [r(1, 2, 8, 6), r(3, 2, 3, 3), r(2, 3, 3, 3)], []),
             ('kws', 'kws', kws, [r(2, 40, 16), r(64, 40, 5), r(64, 64, 3), r(12, 64, 1)], []),
             ('encoder', 'encoder', encoder, [r(2, 3, 8)] + [r(8, 8) for _ in range(4)]
              + [r(8), r(8), r(8, 16), r(16), r(16, 8), r(8), r(8), r(8)], [(2,)])]
    for name, fn, tf, arrs, dims in cases:
        text, path = prog(name)
        args = arrs[:1] + dims + arrs[1:] if name in ('encoder',) else arrs + dims
        out = evaluate(text, fn, args, path=path)[0]
        c.compare('sample %s' % name, out, *c.both(tf, *arrs))

    # the samples of spec 5b's last table, importing samples/blocks
    blocks = os.path.join(root, 'blocks')

    def rms(x, g):
        return x * t.rsqrt((x * x).mean(-1, keepdim=True) + 0.00001) * g

    def mha(x, h, wq, wk, wv, wo, bias):
        b, n, d = x.shape
        q, k, v = [(x @ w).reshape(b, n, h, d // h).permute(0, 2, 1, 3) for w in (wq, wk, wv)]
        s = t.einsum('bhnk,bhmk->bhnm', q, k) * (1.0 / math.sqrt(d // h)) + bias
        return t.einsum('bhnm,bhmk->bnhk', t.softmax(s, -1), v).reshape(b, n, d) @ wo

    def gpt(x, g1, wq, wk, wv, wo, g2, wg, wu, wd):
        n = x.shape[1]
        causal = t.zeros(n, n, dtype=x.dtype).masked_fill(t.ones(n, n).triu(1).bool(), float('-inf'))
        h1 = x + mha(rms(x, g1), 2, wq, wk, wv, wo, causal)
        y = rms(h1, g2)
        return h1 + (F.silu(y @ wg) * (y @ wu)) @ wd

    def vit(patches, we, cls, pos, wq, wk, wv, wo, l1g, l1b, w1, b1, w2, b2, l2g, l2b):
        b, d = patches.shape[0], we.shape[1]
        tok = t.cat([cls.expand(b, 1, d), patches @ we], 1) + pos
        n = tok.shape[1]
        a = F.layer_norm(tok + mha(tok, 2, wq, wk, wv, wo, t.zeros(n, n, dtype=tok.dtype)), (d,), l1g, l1b, 1e-5)
        return F.layer_norm(a + F.gelu(a @ w1 + b1) @ w2 + b2, (d,), l2g, l2b, 1e-5)
    d, f = 8, 12
    arrs = [r(2, 5, d), r(d)] + [r(d, d) for _ in range(4)] + [r(d), r(d, f), r(d, f), r(f, d)]
    text, path = prog('gpt_block')
    out = evaluate(text, None, arrs[:6] + [(2,)] + arrs[6:], path=path, include_dirs=[blocks])[0]
    c.compare('sample gpt_block', out, *c.both(gpt, *arrs))
    arrs = [r(2, 4, 6), r(6, d), r(1, 1, d), r(5, d)] + [r(d, d) for _ in range(4)] + \
        [r(d), r(d), r(d, f), r(f), r(f, d), r(d), r(d), r(d)]
    text, path = prog('vit_block')
    out = evaluate(text, None, arrs[:8] + [(2,)] + arrs[8:], path=path, include_dirs=[blocks])[0]
    c.compare('sample vit_block', out, *c.both(vit, *arrs))


def NAN_():
    return float('nan')


def run(stats, fail):
    try:
        import torch
    except Exception:                                       # noqa: BLE001
        return 'torch: not importable, its cases skipped'
    torch.set_num_threads(1)
    c = Ctx(torch, stats, fail)
    for part in (convs, pools, last_axis, einsums, topks, added, samples):
        try:
            part(c)
        except Exception as e:                              # noqa: BLE001
            import traceback
            traceback.print_exc()
            fail(part.__name__, 'crashed: %s: %s' % (type(e).__name__, e))
    return 'torch %s: %d cases, %d uncertain elements skipped, %d shapes torch refused' % (
        torch.__version__, c.cases, c.skipped, c.torch_refused)
