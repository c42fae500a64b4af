"""wrong_nets.py - nets.py with a mistake, for the liveness check of
tests/bench/samples.test: the attention sample's scores scaled by
1 / sqrt(d) instead of 1 / sqrt(d / h), a transcription error of the kind
the agreement check is there to catch (bench.py must report DISAGREE and
exit 1)."""
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nets import *  # noqa: F401,F403  (every other network as it is)


def attention(x, heads, Wq, Wk, Wv, Wo):
    b, n, d = x.shape
    h = heads[0]
    q = (x @ Wq).reshape(b, n, h, d // h)
    k = (x @ Wk).reshape(b, n, h, d // h)
    v = (x @ Wv).reshape(b, n, h, d // h)
    scores = torch.einsum("bnhk,bmhk->bhnm", q, k) * (1.0 / math.sqrt(d))  # the mistake: d, not d / h
    weights = torch.softmax(scores, dim=-1)
    context = torch.einsum("bhnm,bmhk->bnhk", weights, v).reshape(b, n, d)
    return (context @ Wo,)
