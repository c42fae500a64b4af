#!/usr/bin/env python3
"""compare_run.py - the values that the header's run() computes (axon-spec.md
section 9), compared with the independent float64 evaluator of evaluate.py.

    compare_run.py [options] PROGRAM.axon...           every exported function,
                                                       random accepted shapes
    compare_run.py PROGRAM.axon --fn NAME --shapes '[2,3],[3],[2]'   given shapes
    compare_run.py --generate 25 --seed 1              random programs (gen.py)

For each program: `axonc check` (the signatures: how many inputs, their
element types and shapes), `axonc emit -o DIR/P.h --prefix P` (or --header);
then ONE C harness program over every header (a translation unit per
program, its header included with `#define P_IMPLEMENTATION`, P the prefix
in capitals, compiled in parallel, and a main) that
  1. calls P_NAME_prepare on candidate shape tuples drawn from the signature
     (tests/semantic/run.py's tuple_from_types, sizes kept small), and keeps
     the tuples it accepts (--tuples per function);
  2. for each kept case, fills the inputs with deterministic pseudo-random
     data written here (binary files), allocates every output
     (plan.out_bytes[i]) and the workspace (plan.workspace_bytes) between
     guard regions of canary bytes, and calls P_NAME_run twice: outputs and
     workspace prefilled with different bytes, the second time with a
     fresh workspace and err = NULL; it checks the canaries, that the inputs
     are unchanged, that both runs agree (an output element never written,
     or a workspace byte read before it is written, shows as a difference),
     and counts the calls of malloc/calloc/realloc/free/aligned_alloc/
     posix_memalign made inside run() (ld --wrap);
and the evaluator runs on the same inputs: every output element must agree,
|run - ref| <= K * bound + tiny on floats (K = 4, tiny = 1e-30; NaN with
NaN, an infinity with the same one), integers and bool exactly, elements the
evaluator marks uncertain skipped.  A data error (AXON_ERR_INDEX,
_ZERO_DIVISION, _EMPTY) must agree with the evaluator's DataError.  A
separate translation unit with every header's run() is compiled and read
with nm: no writable global data, no external call beyond <math.h>
(and the memcpy/memset/memmove a compiler may emit), no VLA (-Werror=vla).

Prints one line per disagreement starting with DISAGREE, a summary, and last
`disagreements N`; exit status 1 if N > 0, 2 for a usage error.  A function
whose header has no P_NAME_run is reported ("the header has no P_NAME_run")
and not compared (a disagreement with --require-run, but where emit says
an extern's `?` is why: docs/c-api.md documents that such a function has
no run()).
"""
import argparse
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.join(ROOT, 'tests', 'semantic'))
sys.path.insert(2, os.path.join(ROOT, 'tests', 'lib'))
sys.dont_write_bytecode = True

from evaluate import evaluate, BF16, DataError, EvalError, ParseError, K   # noqa: E402
from axparse import parse as ax_parse, flat_types, is_dims_type, has_fun_type, subtrees  # noqa: E402
from plumbing import (run_cmd, iflags, check_signatures, parallel_map,   # noqa: E402
                      worker_count, fmt_tuple)
from tracked import ELEMS                                               # noqa: E402
import gen                                                              # noqa: E402  (random programs)
import run as semrun                                                    # noqa: E402  (shape tuples)

TINY = 1e-30
ESIZE = {'bool': 1, 'i8': 1, 'u8': 1, 'i16': 2, 'u16': 2, 'f16': 2, 'bf16': 2,
         'i32': 4, 'u32': 4, 'f32': 4, 'i64': 8, 'u64': 8, 'f64': 8}
NPTYPE = {'bool': np.uint8, 'i8': np.int8, 'u8': np.uint8, 'i16': np.int16, 'u16': np.uint16,
          'i32': np.int32, 'u32': np.uint32, 'i64': np.int64, 'u64': np.uint64,
          'f16': np.float16, 'bf16': np.uint16, 'f32': np.float32, 'f64': np.float64}
DATA_ERRORS = {8: 'index', 9: 'zero_division', 10: 'empty'}
STATUS = ['AXON_OK', 'AXON_ERR_RANK', 'AXON_ERR_SIZE', 'AXON_ERR_BROADCAST', 'AXON_ERR_DIVISIBILITY',
          'AXON_ERR_NEGATIVE', 'AXON_ERR_OVERFLOW', 'AXON_ERR_CONSTRAINT', 'AXON_ERR_INDEX',
          'AXON_ERR_ZERO_DIVISION', 'AXON_ERR_EMPTY', 'AXON_ERR_EXTERN']
# what a header's run() may call: <math.h>, and what a compiler emits for
# copies and fills
MATH = set()
for _f in ('acos asin atan atan2 cos sin tan acosh asinh atanh cosh sinh tanh exp exp2 expm1 frexp ilogb '
           'ldexp log log10 log1p log2 logb modf scalbn scalbln cbrt fabs hypot pow sqrt erf erfc lgamma '
           'tgamma ceil floor nearbyint rint lrint llrint round lround llround trunc fmod remainder remquo '
           'copysign nan nextafter nexttoward fdim fmax fmin fma').split():
    MATH.update((_f, _f + 'f', _f + 'l'))
MATH.update(('memcpy', 'memset', 'memmove', '__isnan', '__isnanf', '__isinf', '__isinff', '__finite',
             '__finitef', '__fpclassify', '__fpclassifyf', '__signbit', '__signbitf'))


# ---------------------------------------------------------------- shapes

SIZE_POOL = [3, 4]


def small_dim(rng, large=True):
    """tests/semantic/run.py's rand_dim, kept small (the tensors are filled
    with data and evaluated in NumPy), and mostly one of a tuple's two pool
    sizes (SIZE_POOL, drawn per tuple), so that the sizes a signature's
    clauses or broadcasts want equal (`where a in {1, k}`) often are."""
    r = rng.random()
    if r < 0.25:
        return 1
    if r < 0.3:
        return 0
    if r < 0.75:
        return rng.choice(SIZE_POOL)
    if r < 0.95:
        return rng.randint(2, 5)
    return rng.randint(6, 8)


semrun.rand_dim = small_dim          # used by tuple_from_types / sig_dim
semrun.LARGE = [4, 5, 6, 8]          # dims_size's "large" values


def parse_tuple(text):
    """'[2,3],[3],[]' -> [(2, 3), (3,), ()]."""
    text = text.replace(' ', '')
    if not re.fullmatch(r'(\[(-?\d+(,-?\d+)*)?\](,\[(-?\d+(,-?\d+)*)?\])*)?', text):
        raise ValueError('a shape tuple %r (expected e.g. [2,3],[3],[])' % text)
    return [tuple(int(x) for x in m.split(',') if x) for m in re.findall(r'\[([^\]]*)\]', text)]


def elem_of(t, elem_type):
    """The element type of a flattened parameter or result type (an element
    variable takes --elem-type, spec section 9)."""
    if t[0] != 'tensor':
        return elem_type
    return t[1] if t[1] in ELEMS or t[1] == 'dims' else elem_type


# ---------------------------------------------------------------- data

def case_rng(data_seed, prog, fn, flat):
    h = hashlib.sha256(('%s:%s:%s:%s' % (data_seed, os.path.basename(prog), fn, fmt_tuple(flat))).encode())
    return np.random.default_rng(int.from_bytes(h.digest()[:8], 'little'))


def gather_indices(text, path, fn, ptypes_by_param):
    """{flat input index of an index tensor: flat input index of its table}
    for the calls gather(TABLE, IDX) in function fn whose arguments are
    parameters themselves (so that the indices can be drawn mostly in
    range)."""
    try:
        _, items = ax_parse(text, path)
    except Exception:                                       # noqa: BLE001
        return {}
    node = None
    for it in items:
        if it.kind != 'extern' and (it.name == fn or (it.kind == 'main' and it.name is None)) \
                and it.node and it.node[0] == 'fn':
            node = it.node
            if it.name == fn:
                break
    if node is None:
        return {}
    params = node[1]
    if len(params) != len(ptypes_by_param):
        return {}
    start, pos = 0, {}
    for (name, _), n in zip(params, ptypes_by_param):
        if n == 1:
            pos[name] = start
        start += n
    found = {}
    for e in subtrees(node):
        if len(e) == 3 and e[0] == 'call' and e[1] == ('var', 'gather') and len(e[2]) == 2:
            tab, idx = e[2]
            if tab[0] == 'var' and idx[0] == 'var' and tab[1] in pos and idx[1] in pos:
                found[pos[idx[1]]] = pos[tab[1]]
    return found


def make_input(rng, elem, shape, index_range=None):
    """A tensor of element type elem: floats uniform in [-1, 1] rounded to
    the type (now and then exact small integers instead: sums of them are
    exact, ties are decided by the spec's rules); integers small (-3..3,
    0..5 unsigned); an index tensor of gather mostly in [0, v), now and then
    one index out of range.  Returns the evaluator's argument and the raw
    bytes."""
    shape = tuple(shape)
    if elem == 'bool':
        v = rng.random(shape) < 0.5
        return v, v.astype(np.uint8).tobytes()
    if elem in ('f16', 'bf16', 'f32', 'f64'):
        if rng.random() < 0.2:
            v = rng.integers(-3, 4, shape).astype(np.float64)
        else:
            v = rng.uniform(-1.0, 1.0, shape)
        if elem == 'bf16':
            b = BF16(v)
            bits = (b.values.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
            return b, bits.tobytes()
        a = v.astype(NPTYPE[elem])
        return a, a.tobytes()
    dt = NPTYPE[elem]
    if index_range is not None:
        v = rng.integers(0, max(index_range, 1), shape)
        if v.size and (index_range == 0 or rng.random() < 0.1):
            v.flat[int(rng.integers(0, v.size))] = int(rng.choice([-1, index_range]))
        if elem.startswith('u'):
            v = np.where(v < 0, index_range, v)
    elif rng.random() < 0.15:
        # now and then the type's extremes, so that wrapping is exercised
        info = np.iinfo(dt)
        v = rng.choice(np.array([info.min, info.min + 1, 0, 1, info.max - 1, info.max], dtype=dt), shape)
    elif elem.startswith('u'):
        v = rng.integers(0, 6, shape)
    else:
        v = rng.integers(-3, 4, shape)
    a = v.astype(dt)
    return a, a.tobytes()


def make_inputs(data_seed, prog, fn, flat, elems, gathers):
    rng = case_rng(data_seed, prog, fn, flat)
    args, raw = [None] * len(flat), [None] * len(flat)
    order = sorted(range(len(flat)), key=lambda i: i in gathers)     # tables before their indices
    for i in order:
        if elems[i] == 'dims':
            args[i] = tuple(flat[i])
            continue
        ir = None
        if i in gathers:
            tab = flat[gathers[i]]
            ir = tab[0] if tab else 0
        args[i], raw[i] = make_input(rng, elems[i], flat[i], ir)
    return args, raw


def group_args(flat_args, params):
    """Flat arguments grouped as the signature's parameters (tuples as
    Python tuples, the evaluator's form)."""
    it = iter(flat_args)

    def build(t):
        if t[0] == 'tuple':
            return tuple(build(x) for x in t[1])
        return next(it)
    return [build(p) for p in params]


# ---------------------------------------------------------------- the C harness

COMMON_H = r'''/* Generated by tests/values/compare_run.py: what the harness's translation
 * units share (harness_main.c, and harness_pNNN.c for each program). */
#ifndef CR_COMMON_H
#define CR_COMMON_H
#include <stdint.h>
struct cr_plan {
    axon_shape out[MAXOUT];
    int64_t out_bytes[MAXOUT], out_max_bytes[MAXOUT], ws;
    int64_t out_max_elements_size[MAXOUT];  /* an element's bytes */
};
typedef int (*cr_prep_fn)(const axon_shape *, struct cr_plan *, axon_error *);
typedef int (*cr_run_fn)(const axon_shape *, const void *const *, void *const *, void *, axon_error *, axon_shape *);
struct cr_entry { int nin, nout; cr_prep_fn prep; cr_run_fn run; };
/* set around run(): the allocation calls made meanwhile are counted */
extern int cr_counting;
#endif
'''

PROG_TU = r'''/* Generated by tests/values/compare_run.py: prepare() and run() of the
 * exported functions of one program, for the harness. */
%(define)s#include "%(header)s"
#include <string.h>
#include "cr_common.h"
%(wrappers)s
const struct cr_entry cr_tab_%(prefix)s[%(n)d] = {
%(table)s};
'''

WRAPPERS = r'''
static const int64_t cr_esize_%(k)d[%(nout)d] = { %(esizes)s };

static int cr_prep_%(k)d(const axon_shape *in, struct cr_plan *g, axon_error *err)
{
    %(cn)s_plan plan;
    int i, st;
    memset(&plan, 0xAB, sizeof plan);
    st = %(cn)s_prepare(in, &plan, err);
    if (st == 0) {
        for (i = 0; i < %(cn)s_NUM_OUTPUTS; i++) {
            g->out[i] = plan.out[i];
            g->out_bytes[i] = plan.out_bytes[i];
            g->out_max_bytes[i] = plan.out_max_bytes[i];
            g->out_max_elements_size[i] = cr_esize_%(k)d[i];    /* (its element's bytes) */
        }
#ifndef CR_PREPARE_ONLY
        g->ws = plan.workspace_bytes;
#endif
    }
    return st;
}

static int cr_run_%(k)d(const axon_shape *in, const void *const *ins, void *const *outs, void *ws, axon_error *err,
                        axon_shape *actual)
{
#ifndef CR_PREPARE_ONLY
    %(cn)s_plan plan;
    int st;
    memset(&plan, 0xAB, sizeof plan);
    if (%(cn)s_prepare(in, &plan, err) != 0)
        return -1;
    cr_counting = 1;
    st = %(cn)s_run(&plan, ins, outs, ws, err);
    cr_counting = 0;
    /* the outputs' shapes: a size a nonzero found, as run() reports it */
    if (st == 0) {
        int i;
        for (i = 0; i < %(cn)s_NUM_OUTPUTS; i++)
            actual[i] = plan.out[i];
%(shapes)s    }
    return st;
#else
    (void)in; (void)ins; (void)outs; (void)ws; (void)err; (void)actual;
    return -2;
#endif
}
'''

MAIN_TU = r'''/* Generated by tests/values/compare_run.py: the harness's main (the
 * functions are in harness_pNNN.c, one per program), on the cases read
 * from stdin: `prepare` mode calls each case's prepare(); `run` mode runs
 * it (README.md in tests/values). */
#define _POSIX_C_SOURCE 200112L     /* alarm(): a case that hangs ends the harness */
#include <unistd.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
%(axon_types)s
#include "cr_common.h"

#define CR_GUARD 64

static int cr_same_shape(const axon_shape *a, const axon_shape *b)
{
    int j;
    if (a->rank != b->rank)
        return 0;
    for (j = 0; j < a->rank && j < AXON_MAX_RANK; j++)
        if (a->dims[j] != b->dims[j])
            return 0;
    return 1;
}

/* The bytes of output i at shape s: out_bytes, or for a size that a
 * nonzero found, the largest's bytes scaled to s's elements. */
static size_t cr_actual_bytes(const axon_shape *s, const struct cr_plan *g, int i, size_t room)
{
    int64_t n = 1;
    int j;
    if (g->out_bytes[i] >= 0)
        return (size_t)g->out_bytes[i];
    for (j = 0; j < s->rank; j++)
        n *= s->dims[j] < 0 ? 0 : s->dims[j];
    if (n <= 0 || g->out_max_bytes[i] <= 0)
        return 0;
    {
        size_t b = (size_t)n * (size_t)(g->out_max_elements_size[i]);
        return b <= room ? b : room;
    }
}

%(externs)s
static const struct cr_entry *const cr_entries[NENTRIES] = {
%(table)s};

/* The heap counter: with ld --wrap=malloc,... every allocation call that
 * the harness's objects make (the headers' run() included) goes through
 * these; those made while cr_counting is set are counted. */
int cr_counting;
static long cr_heap;
#ifdef CR_WRAP
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
void *__real_aligned_alloc(size_t a, size_t n);
int __real_posix_memalign(void **p, size_t a, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);
void *__wrap_aligned_alloc(size_t a, size_t n);
int __wrap_posix_memalign(void **p, size_t a, size_t n);
void *__wrap_malloc(size_t n) { cr_heap += cr_counting; return __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t m) { cr_heap += cr_counting; return __real_calloc(n, m); }
void *__wrap_realloc(void *p, size_t n) { cr_heap += cr_counting; return __real_realloc(p, n); }
void __wrap_free(void *p) { cr_heap += cr_counting; __real_free(p); }
void *__wrap_aligned_alloc(size_t a, size_t n) { cr_heap += cr_counting; return __real_aligned_alloc(a, n); }
int __wrap_posix_memalign(void **p, size_t a, size_t n) { cr_heap += cr_counting; return __real_posix_memalign(p, a, n); }
#endif
static void *volatile cr_sink;
'''

MAIN_TAIL = r'''
/* A buffer between two guard regions of canary bytes. */
struct cr_buf { unsigned char *base; size_t n; };

static unsigned char cr_canary(size_t i) { return (unsigned char)(0xA5u ^ (unsigned)((i * 131u) & 0xFFu)); }

static void *cr_alloc(struct cr_buf *b, size_t n, int fill)
{
    size_t i;
    b->n = n;
    b->base = (unsigned char *)malloc(n + 2 * CR_GUARD);
    if (!b->base) {
        printf("X out of memory\n");
        exit(4);
    }
    for (i = 0; i < CR_GUARD; i++) {
        b->base[i] = cr_canary(i);
        b->base[CR_GUARD + n + i] = cr_canary(i + 1000);
    }
    memset(b->base + CR_GUARD, fill, n);
    return b->base + CR_GUARD;
}

static int cr_intact(const struct cr_buf *b)
{
    size_t i;
    for (i = 0; i < CR_GUARD; i++)
        if (b->base[i] != cr_canary(i) || b->base[CR_GUARD + b->n + i] != cr_canary(i + 1000))
            return 0;
    return 1;
}

static void cr_msg(const char *m)
{
    for (; *m; m++)
        putchar(*m == '\n' || *m == '\r' ? ' ' : *m);
}

int main(int argc, char **argv)
{
    static axon_shape in[MAXIN];
    static long long inbytes[MAXIN];
    const int run_mode = argc > 2 && strcmp(argv[1], "run") == 0;
    const char *dir = argc > 2 ? argv[2] : ".";
    long long id, limit = argc > 3 ? atoll(argv[3]) : (1LL << 30);
    const unsigned timeout = argc > 4 ? (unsigned)atoi(argv[4]) : 60u;
    int fid, nin, i, j;
    char path[4096];
    /* the counter's own check: 2 calls (malloc, free) */
    cr_heap = 0;
    cr_counting = 1;
    cr_sink = malloc(16);
    free(cr_sink);
    cr_counting = 0;
    printf("W %ld\n", cr_heap);
    while (scanf("%lld %d %d", &id, &fid, &nin) == 3) {
        struct cr_plan g;
        axon_error err;
        int st;
        if (fid < 0 || fid >= NENTRIES || nin != cr_entries[fid]->nin || nin > MAXIN)
            return 3;
        for (i = 0; i < nin; i++) {
            if (scanf("%d", &in[i].rank) != 1 || in[i].rank < 0 || in[i].rank > AXON_MAX_RANK)
                return 3;
            for (j = 0; j < in[i].rank; j++) {
                long long d;
                if (scanf("%lld", &d) != 1)
                    return 3;
                in[i].dims[j] = (int64_t)d;
            }
            if (scanf("%lld", &inbytes[i]) != 1)
                return 3;
        }
        printf("B %lld\n", id);
        fflush(stdout);
        memset(&err, 0, sizeof err);
        memset(&g, 0, sizeof g);
        st = cr_entries[fid]->prep(in, &g, &err);
        if (!run_mode) {
            printf("P %lld %d %lld %d", id, st, (long long)g.ws, cr_entries[fid]->nout);
            for (i = 0; st == 0 && i < cr_entries[fid]->nout; i++) {
                printf(" %d", g.out[i].rank);
                for (j = 0; j < g.out[i].rank && j < AXON_MAX_RANK; j++)
                    printf(" %lld", (long long)g.out[i].dims[j]);
                printf(" %lld %lld", (long long)g.out_bytes[i], (long long)g.out_max_bytes[i]);
            }
            printf(" | ");
            cr_msg(st ? err.message : "");
            printf("\n");
            continue;
        }
        if (st != 0) {
            printf("R %lld PREP %d | ", id, st);
            cr_msg(err.message);
            printf("\n");
            continue;
        }
        {
            const int nout = cr_entries[fid]->nout;
            struct cr_buf ib[MAXIN], ob[MAXOUT], wb;
            unsigned char *orig[MAXIN];
            unsigned char *saved[MAXOUT];
            size_t ob_n[MAXOUT];
            const void *ins[MAXIN];
            void *outs[MAXOUT];
            void *ws;
            long long total = 0;
            int st2[2] = { 0, 0 }, differ = 0, pass, inchanged = 0;
            axon_shape act[2][MAXOUT];
            long heap = 0;
            unsigned long cout = 0, cin = 0, cws = 0;
            FILE *f;
            for (i = 0; i < nout; i++) {
                int64_t b = g.out_bytes[i] >= 0 ? g.out_bytes[i] : g.out_max_bytes[i];
                if (b < 0) {
                    printf("R %lld BADPLAN output %d has no byte count | \n", id, i);
                    goto next;
                }
                ob_n[i] = (size_t)b;
                total += b;
            }
            if (g.ws < 0) {
                printf("R %lld BADPLAN workspace_bytes %lld | \n", id, (long long)g.ws);
                goto next;
            }
            total += g.ws;
            if (total > limit) {
                printf("R %lld TOOBIG %lld | \n", id, total);
                goto next;
            }
            sprintf(path, "%s/in_%lld.bin", dir, id);
            f = fopen(path, "rb");
            if (!f) {
                printf("X cannot read %s\n", path);
                return 4;
            }
            for (i = 0; i < nin; i++) {
                size_t n = inbytes[i] > 0 ? (size_t)inbytes[i] : 0;
                if (inbytes[i] < 0) {
                    ins[i] = NULL;      /* a dims parameter: its shape only */
                    orig[i] = NULL;
                    ib[i].base = NULL;
                    continue;
                }
                ins[i] = cr_alloc(&ib[i], n, 0);
                if (n && fread(ib[i].base + CR_GUARD, 1, n, f) != n) {
                    printf("X short input file %s\n", path);
                    return 4;
                }
                orig[i] = (unsigned char *)malloc(n + 1);
                memcpy(orig[i], ib[i].base + CR_GUARD, n);
            }
            fclose(f);
            /* twice: outputs and workspace prefilled with other bytes, a
             * fresh workspace, err = NULL the second time */
            alarm(timeout);
            for (pass = 0; pass < 2; pass++) {
                for (i = 0; i < nout; i++)
                    outs[i] = cr_alloc(&ob[i], ob_n[i], pass ? 0x5C : 0xFF);
                ws = cr_alloc(&wb, (size_t)g.ws, pass ? 0x3A : 0xFF);
                if (pass == 0)
                    memset(&err, 0, sizeof err);
                cr_heap = 0;
                st2[pass] = cr_entries[fid]->run(in, ins, outs, ws, pass ? NULL : &err, act[pass]);
                heap += cr_heap;
                for (i = 0; i < nout; i++)
                    if (!cr_intact(&ob[i]))
                        cout |= 1UL << (i % 32);
                if (!cr_intact(&wb))
                    cws = 1;
                if (pass == 0) {
                    for (i = 0; i < nout; i++) {
                        saved[i] = (unsigned char *)malloc(ob_n[i] + 1);
                        memcpy(saved[i], ob[i].base + CR_GUARD, ob_n[i]);
                    }
                } else if (st2[0] == 0 && st2[1] == 0) {
                    for (i = 0; i < nout; i++)
                        if (memcmp(saved[i], ob[i].base + CR_GUARD, cr_actual_bytes(&act[0][i], &g, i, ob_n[i])) != 0 ||
                            !cr_same_shape(&act[0][i], &act[1][i]))
                            differ |= 1 << (i % 30);
                }
                for (i = 0; i < nout; i++)
                    free(ob[i].base);
                free(wb.base);
            }
            alarm(0);
            for (i = 0; i < nin; i++) {
                if (!ib[i].base)
                    continue;
                if (!cr_intact(&ib[i]))
                    cin |= 1UL << (i % 32);
                if (memcmp(orig[i], ib[i].base + CR_GUARD, ib[i].n) != 0)
                    inchanged |= 1 << (i % 30);
                free(orig[i]);
                free(ib[i].base);
            }
            if (st2[0] == 0) {
                sprintf(path, "%s/out_%lld.bin", dir, id);
                f = fopen(path, "wb");
                if (!f) {
                    printf("X cannot write %s\n", path);
                    return 4;
                }
                for (i = 0; i < nout; i++)
                    if (ob_n[i] && fwrite(saved[i], 1, ob_n[i], f) != ob_n[i])
                        return 4;
                fclose(f);
            }
            for (i = 0; i < nout; i++)
                free(saved[i]);
            printf("R %lld RUN %d %d %ld %lu %lu %lu %d %d %d", id, st2[0], st2[1], heap, cout, cws, cin,
                   inchanged, differ, nout);
            for (i = 0; i < nout; i++) {
                /* the shape run() reports (a nonzero's size as found) */
                const axon_shape *s = st2[0] == 0 ? &act[0][i] : &g.out[i];
                printf(" %d", s->rank);
                for (j = 0; j < s->rank && j < AXON_MAX_RANK; j++)
                    printf(" %lld", (long long)s->dims[j]);
                printf(" %lld %lld", (long long)(st2[0] == 0 ? (int64_t)cr_actual_bytes(s, &g, i, ob_n[i])
                                                             : g.out_bytes[i]),
                       (long long)ob_n[i]);
            }
            printf(" | ");
            cr_msg(st2[0] ? err.message : "");
            printf("\n");
        }
    next:
        fflush(stdout);
    }
    return 0;
}
'''


def write_common(d, maxout):
    with open(os.path.join(d, 'cr_common.h'), 'w') as f:
        f.write('#ifndef MAXOUT\n#define MAXOUT %d\n#endif\n' % maxout + COMMON_H)


def write_prog_tu(path, prog, fns, implementation, elem_type='f32'):
    """One program's translation unit: its header (with P_IMPLEMENTATION,
    P the prefix in capitals, unless a --prepare-only dry run) and a
    wrapper pair per function, in a table cr_tab_PREFIX."""
    try:
        with open(prog.header) as fh:
            htext = fh.read()
    except OSError:
        htext = ''
    def esizes(f):
        es = [ESIZE.get(elem_of(t, elem_type), 0) for t in f.results]
        return ', '.join(str(e) for e in es) if es else '0'
    wr = ''.join(WRAPPERS % dict(k=k, cn=f.cname, nout=max(len(f.results), 1), esizes=esizes(f),
                                 shapes='        %s_run_shapes(&plan, ws, actual);\n' % f.cname
                                 if '%s_run_shapes(' % f.cname in htext else '')
                 for k, f in enumerate(fns))
    table = ''.join('    { %s_NUM_INPUTS, %s_NUM_OUTPUTS, cr_prep_%d, cr_run_%d },\n' % (f.cname, f.cname, k, k)
                    for k, f in enumerate(fns))
    with open(path, 'w') as fh:
        fh.write(PROG_TU % dict(define='#define %s_IMPLEMENTATION\n' % prog.prefix.upper() if implementation else '',
                                header=os.path.abspath(prog.header), wrappers=wr, prefix=prog.prefix,
                                n=max(len(fns), 1), table=table))


def write_main_tu(path, progs_fns, axon_header, maxin, maxout):
    """progs_fns: [(prog, [Fn])] in entry order.  The axon types come from
    one of the headers (its shape part: no P_IMPLEMENTATION)."""
    externs = ''.join('extern const struct cr_entry cr_tab_%s[%d];\n' % (p.prefix, len(fs)) for p, fs in progs_fns)
    table = ''.join('    &cr_tab_%s[%d],\n' % (p.prefix, k) for p, fs in progs_fns for k in range(len(fs)))
    n = sum(len(fs) for _, fs in progs_fns)
    with open(path, 'w') as fh:
        fh.write('#define NENTRIES %d\n#define MAXIN %d\n#define MAXOUT %d\n' % (max(n, 1), maxin, maxout))
        fh.write(MAIN_TU % dict(axon_types='#include "%s"' % os.path.abspath(axon_header), externs=externs,
                                table=table or '    0,\n'))
        fh.write(MAIN_TAIL)


def write_symbols_tu(path, headers, entries):
    """Every header's implementation and a table of its run functions, so
    that nm lists what they reference and define."""
    out = ['/* Generated by tests/values/compare_run.py: nm reads this. */\n']
    for prefix, h in headers:
        out.append('#define %s_IMPLEMENTATION\n#include "%s"\n' % (prefix.upper(), os.path.abspath(h)))
    out.append('void (*const cr_symbols_table[])(void) = {\n')
    for cn, _, _ in entries:
        out.append('    (void (*)(void))%s_run,\n' % cn)
    out.append('    0\n};\n')
    with open(path, 'w') as f:
        f.write(''.join(out))


# ---------------------------------------------------------------- programs

class Prog(object):
    def __init__(self, idx, path, include, prefix):
        self.idx, self.path, self.include, self.prefix = idx, path, list(include), prefix
        self.header = None
        self.functions = []          # Fn
        self.no_run_reason = {}      # function name: what emit says
        self.notes = []
        self.text = ''


class Fn(object):
    def __init__(self, prog, name, ty):
        self.prog, self.name, self.ty = prog, name, ty
        self.cname = '%s_%s' % (prog.prefix, semrun.c_name(name))
        self.params = ty[1]
        self.flat = []
        for p in ty[1]:
            flat_types(p, self.flat)
        self.results = flat_types(ty[2], [])
        self.status = None           # exported, not_exported, no_run, externs, higher_order
        self.entry = None
        self.nin = self.nout = 0


def load_program(p, args):
    try:
        with open(p.path) as f:
            p.text = f.read()
    except OSError as e:
        p.notes.append('cannot read: %s' % e)
        return
    chk = run_cmd([args.axonc, 'check', p.path] + iflags(p.include))
    if chk.returncode != 0:
        p.notes.append('axonc check exited %d: %s' % (chk.returncode, first_error(chk.stderr)))
        return
    sigs = [(name, ty) for name, ty, _, _ in check_signatures(chk.stdout, p.notes) if ty[0] == 'fun']
    if args.header:
        p.header = args.header
    else:
        hpath = os.path.join(args.work, 'h', p.prefix + '.h')
        em = run_cmd([args.axonc, 'emit', p.path, '-o', hpath, '--prefix', p.prefix, '--elem-type', args.elem_type]
                     + iflags(p.include))
        if em.returncode != 0:
            p.notes.append('axonc emit exited %d: %s' % (em.returncode, em.stderr.strip()[-300:]))
            return
        p.header = hpath
        # emit's word on a function without run(), if it says one
        for m in re.finditer(r"warning: '([^']+)': run\(\) is not available: (.*)", em.stderr):
            p.no_run_reason[m.group(1)] = m.group(2).strip()
    htext = open(p.header).read()
    exported = {}
    for m in re.finditer(r'#define\s+%s_(\w+)_NUM_(INPUTS|OUTPUTS)\s+(\d+)' % re.escape(p.prefix), htext):
        exported.setdefault(m.group(1), {})[m.group(2)] = int(m.group(3))
    # run() as the compiler sees it (macros, comments and #if resolved)
    pre = run_cmd(shlex.split(args.cc)[:1] + ['-E', '-P', '-D%s_IMPLEMENTATION' % p.prefix.upper()]
                  + shlex.split(args.cflags) + ['-x', 'c', p.header])
    ptext = pre.stdout if pre.returncode == 0 else htext
    if pre.returncode != 0:
        p.notes.append('the header does not preprocess: %s' % pre.stderr.strip()[-200:])
    only = set(args.fn or [])
    items = imported_items(p.text, p.path)
    declared = set(it.name for it in items if it.kind == 'extern')
    with_externs = calls_externs(items, declared)
    for name, ty in sigs:
        if only and name not in only:
            continue
        if name in declared:
            continue                 # an extern's declaration: the user implements it
        f = Fn(p, name, ty)
        cn = semrun.c_name(name)
        if cn not in exported:
            f.status = 'not_exported'
        elif any(has_fun_type(t) for t in ty[1]) or has_fun_type(ty[2]):
            f.status = 'higher_order'
        else:
            f.nin = exported[cn].get('INPUTS', 0)
            f.nout = exported[cn].get('OUTPUTS', 0)
            m = re.search(r'\b%s_run\s*\(([^)]*)\)' % re.escape(f.cname), ptext)
            if not m:
                # a program with externs is skipped for now (its run()
                # takes a table of them, and the evaluator's externs are
                # Python callables)
                f.status = 'externs' if name in with_externs else 'no_run'
            elif 'extern' in m.group(1):
                f.status = 'externs'
            else:
                f.status = 'exported'
        p.functions.append(f)


def imported_items(text, path, seen=None):
    """The items of a program and of the files it imports (beside it), so
    that a function calling an imported extern counts as calling one."""
    seen = set() if seen is None else seen
    seen.add(os.path.realpath(path))
    try:
        items = list(ax_parse(text, path)[1])
    except Exception:                                       # noqa: BLE001
        return []
    for name in re.findall(r'^\s*import\s+"([^"]+)"\s*;', text, re.M):
        sub = os.path.join(os.path.dirname(path), name)
        if os.path.realpath(sub) in seen or not os.path.exists(sub):
            continue
        with open(sub) as fh:
            items += imported_items(fh.read(), sub, seen)
    return items


def calls_externs(items, externs):
    """The names of the items that call an extern, directly or through
    other items (a name used in an item's body counts as a call; an
    imported file's externs are not seen)."""
    uses = {}
    for it in items:
        names = set()

        def walk(e):
            if isinstance(e, str):
                if e in externs:            # (a callee's name in any node)
                    names.add(e)
                return
            if isinstance(e, tuple):
                if len(e) == 2 and e[0] == 'var' and isinstance(e[1], str):
                    names.add(e[1])
                    return
                for x in e:
                    walk(x)
            elif isinstance(e, list):
                for x in e:
                    walk(x)
        if it.kind != 'extern':
            walk(it.node)
        uses[it.name] = names
    bad = set(externs)
    changed = True
    while changed:
        changed = False
        for n, used in uses.items():
            if n not in bad and used & bad:
                bad.add(n)
                changed = True
    return bad - set(externs)


def generated_programs(args):
    out = []
    for k in range(args.generate):
        d = os.path.join(args.work, 'programs', '%03d' % k)
        path, helpers = gen.write_files(args.seed, 'p%04d' % k, d, ops18=True)
        out.append((path, list(args.include) + ([d] if helpers else [])))
    return out


# ---------------------------------------------------------------- cases

class Case(object):
    def __init__(self, cid, fn, flat):
        self.id, self.fn, self.flat = cid, fn, [tuple(s) for s in flat]
        self.plan = None             # (ws, [(shape, out_bytes, max_bytes)])
        self.elems = None
        self.raw = None
        self.args = None
        self.result = None           # the harness's R line, parsed
        self.ev = None               # ('ok', outputs) | ('data', DataError) | ('error', msg)


def candidate_tuples(fn, args, rng, count):
    """(up to count shape tuples for fn, how many were left out as too
    large)."""
    if args.shapes:
        return [parse_tuple(s) for s in args.shapes], 0
    out, seen, big = [], set(), 0
    for _ in range(count):
        SIZE_POOL[:] = [rng.randint(2, 5), rng.randint(2, 5)]
        flat = semrun.tuple_from_types(rng, fn.flat, False)
        if flat is None:
            flat = semrun.random_tuple(rng, len(fn.flat), False, fn.flat)
        if len(flat) != len(fn.flat):
            continue
        key = tuple(tuple(s) for s in flat)
        if key in seen:
            continue
        seen.add(key)
        if any(d < 0 for s in flat for d in s):
            continue                 # a ragged axis (`*`): no dense layout
        if any(not is_dims_type(t) and int(np.prod(s, dtype=np.int64)) > args.max_elements
               for s, t in zip(flat, fn.flat)):
            big += 1
            continue
        out.append(list(flat))
    return out, big


def case_line(c, with_bytes):
    parts = ['%d %d %d' % (c.id, c.fn.entry, len(c.flat))]
    for k, s in enumerate(c.flat):
        nb = -1
        if with_bytes and c.elems[k] != 'dims':
            nb = int(np.prod(s, dtype=np.int64)) * ESIZE[c.elems[k]]
        parts.append('%d %s %d' % (len(s), ' '.join(str(d) for d in s), nb))
    return ' '.join(parts) + '\n'


def run_harness(exe, mode, cases, args, rep):
    """{case id: the line's tokens, message} of the harness over cases; a
    crash is reported and the harness restarted after the case."""
    results = {}
    todo = list(cases)
    heap_check = None
    while todo:
        feed = ''.join(case_line(c, mode == 'run') for c in todo)
        try:
            r = subprocess.run([exe, mode, args.datadir, str(args.max_bytes), str(args.timeout)], input=feed,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                               errors='replace', timeout=args.timeout * 2 * len(todo) + 60)
        except subprocess.TimeoutExpired as e:
            rep.note('the harness ran past %d s and was stopped' % e.timeout)
            r = subprocess.CompletedProcess(e.cmd, -9, e.stdout or '', e.stderr or '')
            if isinstance(r.stdout, bytes):
                r.stdout, r.stderr = r.stdout.decode(errors='replace'), r.stderr.decode(errors='replace')
        started = None
        for ln in r.stdout.splitlines():
            if ln.startswith('W '):
                heap_check = int(ln.split()[1])
            elif ln.startswith('B '):
                started = int(ln.split()[1])
            elif ln[:2] in ('P ', 'R '):
                head, _, msg = ln.partition(' | ')
                t = head.split()
                results[int(t[1])] = (t, msg)
                started = None
            elif ln.startswith('X '):
                rep.note('harness: %s' % ln[2:])
        done_ids = set(results)
        if r.returncode == 0:
            break
        if started is None:
            rep.note('the harness exited %d: %s' % (r.returncode, r.stderr.strip()[-300:]))
            break
        kind = 'HANG' if r.returncode in (-14, -9) else 'CRASH'
        results[started] = ([kind, str(started), str(r.returncode)], r.stderr.strip().replace('\n', ' ')[-300:])
        done_ids.add(started)
        todo = [x for x in todo if x.id not in done_ids]
    return results, heap_check


# ---------------------------------------------------------------- evaluating

def eval_case(job):
    text, path, include, fn, args, elem_type = job
    try:
        outs = evaluate(text, fn, args, elem_default=elem_type, path=path, include_dirs=include)
        return ('ok', outs)
    except DataError as e:
        return ('data', (str(e), e.kind, e.uncertain))
    except (EvalError, ParseError) as e:
        return ('error', str(e))
    except Exception as e:                                  # noqa: BLE001
        return ('error', 'the evaluator failed: %s: %s' % (type(e).__name__, e))


def decode(raw, elem, shape):
    n = int(np.prod(shape, dtype=np.int64))
    a = np.frombuffer(raw, dtype=NPTYPE[elem], count=n).reshape(shape)
    if elem == 'bf16':
        return (a.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    if elem in ('f16', 'f32', 'f64'):
        return a.astype(np.float64)
    return a


def fmt_idx(shape, flat_i):
    return '[' + ','.join(str(x) for x in np.unravel_index(flat_i, shape)) + ']' if shape else '[]'


class Report(object):
    def __init__(self, args):
        self.args = args
        self.count = 0
        self.kinds = {}
        self.shown = {}
        self.failing = set()

    def disagree(self, kind, c, what, rerun=True):
        self.count += 1
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        prog = c.fn.prog.path if c is not None else '-'
        fn = c.fn.name if c is not None else '-'
        if c is not None:
            self.failing.add(c.fn.prog)
        key = (kind, prog, fn)
        self.shown[key] = self.shown.get(key, 0) + 1
        if self.shown[key] > 3 and not self.args.verbose:
            return
        if c is None:
            print('DISAGREE %s %s' % (kind, what))
        else:
            print('DISAGREE %s %s %s in=%s %s' % (kind, prog, fn, fmt_tuple(c.flat), what))
        if c is not None and rerun and self.shown[key] == 1:
            print('  rerun: %s' % rerun_command(c, self.args))

    def note(self, msg):
        print('note: %s' % msg)


def rerun_command(c, args):
    p = c.fn.prog
    cmd = [sys.executable, os.path.abspath(__file__), p.path, '--fn', c.fn.name, '--shapes', fmt_tuple(c.flat),
           '--axonc', args.axonc, '--elem-type', args.elem_type, '--data-seed', str(args.data_seed), '--verbose']
    if args.header:
        cmd += ['--header', args.header, '--prefix', p.prefix]
    for d in p.include:
        cmd += ['-I', d]
    if args.cflags:
        cmd += ['--cflags=' + args.cflags]
    return ' '.join(shlex.quote(x) for x in cmd)


def eval_refused(c, rep, stats, args):
    """The evaluator refused a case that prepare() accepted: counted, a
    disagreement with --strict, else a note (the first five, or all with
    --verbose)."""
    stats['eval_refused'] += 1
    if args.strict:
        rep.disagree('EVAL_REFUSED', c, 'prepare() accepted, the evaluator refused: %s' % c.ev[1])
    elif stats['eval_refused'] <= 5 or args.verbose:
        rep.note('the evaluator refused %s %s in=%s (prepare() accepted): %s'
                 % (c.fn.prog.path, c.fn.name, fmt_tuple(c.flat), c.ev[1]))


def compare_case(c, rep, stats, args):
    t, msg = c.result
    if t[0] in ('CRASH', 'HANG'):
        stats['run'] += 1
    if t[0] == 'CRASH':
        rep.disagree('CRASH', c, 'the harness died in run() (exit %s): %s' % (t[2], msg))
        return
    if t[0] == 'HANG':
        rep.disagree('HANG', c, 'run() did not return within %d s (twice)' % args.timeout)
        return
    kind = t[2]
    if kind == 'PREP':
        rep.disagree('PREPARE', c, 'prepare() accepted these shapes, then refused them (%s): %s' % (t[3], msg))
        return
    if kind in ('BADPLAN', 'TOOBIG'):
        stats['skipped_plan'] += 1
        if kind == 'BADPLAN':
            rep.note('%s %s in=%s: %s' % (c.fn.prog.path, c.fn.name, fmt_tuple(c.flat), ' '.join(t[3:])))
        return
    st0, st1, heap, cout, cws, cin, inch, differ, nout = [int(x) for x in t[3:12]]
    pos = 12
    outs = []
    for _ in range(nout):
        r = int(t[pos])
        shape = tuple(int(x) for x in t[pos + 1:pos + 1 + r])
        outs.append((shape, int(t[pos + 1 + r]), int(t[pos + 2 + r])))
        pos += 3 + r
    stats['run'] += 1
    if heap:
        rep.disagree('HEAP', c, 'run() made %d heap allocation calls (malloc/calloc/realloc/free/...) in two calls'
                     % heap)
    for i in range(nout):
        if cout >> i & 1:
            rep.disagree('CANARY', c, 'the guard bytes around output %d changed' % (i + 1))
    if cws:
        rep.disagree('CANARY', c, 'the guard bytes around the workspace changed')
    for i in range(len(c.flat)):
        if cin >> i & 1:
            rep.disagree('CANARY', c, 'the guard bytes around input %d changed' % (i + 1))
        if inch >> i & 1:
            rep.disagree('INPUT_WRITTEN', c, 'run() changed input %d' % (i + 1))
    if st0 != st1:
        rep.disagree('NONDETERMINISTIC', c, 'run() returned %s, then %s (a fresh workspace, err = NULL)'
                     % (status_name(st0), status_name(st1)))
    for i in range(nout):
        if differ >> i & 1:
            rep.disagree('NONDETERMINISTIC', c, 'output %d differs between two runs whose outputs and workspace '
                         'were prefilled differently (an element not written, or scratch read before written)'
                         % (i + 1))
    ev = c.ev
    if ev[0] == 'error':
        eval_refused(c, rep, stats, args)
        return
    if ev[0] == 'data':
        text, dkind, unc = ev[1]
        if st0 in DATA_ERRORS:
            stats['data_errors'] += 1
            if dkind and DATA_ERRORS[st0] != dkind:
                stats['data_kind_differs'] += 1
            if not msg.strip():
                rep.disagree('NO_MESSAGE', c, 'run() returned %s with an empty message' % status_name(st0))
        elif st0 == 0:
            if unc:
                stats['undecided'] += 1
            else:
                rep.disagree('MISSED_DATA_ERROR', c, 'run() returned AXON_OK; evaluator: data error: %s' % text)
        else:
            rep.disagree('RUN_STATUS', c, 'run() returned %s: %s; evaluator: data error: %s'
                         % (status_name(st0), msg, text))
        return
    outputs = ev[1]
    any_unc = any(o.uncertain is not None and np.any(o.uncertain) for o in outputs)
    if st0 != 0:
        if st0 in DATA_ERRORS and any_unc:
            stats['undecided'] += 1
        elif st0 in DATA_ERRORS:
            rep.disagree('SPURIOUS_DATA_ERROR', c, 'run() returned %s: %s; the evaluator computes every output'
                         % (status_name(st0), msg))
        else:
            rep.disagree('RUN_STATUS', c, 'run() returned %s: %s; the evaluator computes every output'
                         % (status_name(st0), msg))
        return
    if len(outputs) != nout:
        rep.disagree('OUTPUT_COUNT', c, 'the header has %d outputs, the evaluator %d' % (nout, len(outputs)))
        return
    try:
        with open(os.path.join(args.datadir, 'out_%d.bin' % c.id), 'rb') as f:
            raw = f.read()
    except OSError as e:
        rep.disagree('NO_OUTPUT', c, str(e))
        return
    off = 0
    for i, (o, (shape, out_bytes, nbytes)) in enumerate(zip(outputs, outs)):
        chunk = raw[off:off + nbytes]
        off += nbytes
        if o.elem == 'dims':
            if tuple(shape) != tuple(o.value) or out_bytes != 0:
                rep.disagree('DIMS_OUTPUT', c, 'output %d: plan.out %s, out_bytes %d; evaluator: the dims value %s'
                             % (i + 1, list(shape), out_bytes, list(o.value)))
            continue
        if any(d < 0 for d in shape):
            stats['unknown_size_outputs'] += 1       # a `?`: run() knows its size, the plan only a bound
            continue
        if tuple(shape) != tuple(o.value.shape):
            rep.disagree('SHAPE', c, 'output %d: plan.out %s, evaluator %s' % (i + 1, list(shape), list(o.value.shape)))
            continue
        want = int(np.prod(shape, dtype=np.int64)) * ESIZE[o.elem]
        if out_bytes != want:
            rep.disagree('OUT_BYTES', c, 'output %d (%s %s): plan.out_bytes %d, expected %d'
                         % (i + 1, o.elem, list(shape), out_bytes, want))
            continue
        compare_values(c, i, o, decode(chunk, o.elem, shape), rep, stats)


def dump_case(c, args, limit=64):
    """--verbose, a case that disagrees: its inputs, and each output as run()
    wrote it beside the evaluator's value and bound (small tensors whole)."""
    def show(a):
        a = np.asarray(a)
        if a.size > limit:
            return '%s %s (first %d) %s' % (a.dtype, list(a.shape), limit, np.array2string(a.ravel()[:limit],
                                                                                         precision=9))
        return np.array2string(a, precision=9, separator=', ').replace('\n', ' ')
    for i, (a, e) in enumerate(zip(c.args, c.elems)):
        v = a.values if isinstance(a, BF16) else a
        print('  input %d (%s): %s' % (i + 1, e, show(v) if e != 'dims' else list(a)))
    if c.ev[0] != 'ok' or c.result is None or c.result[0][2] != 'RUN' or int(c.result[0][3]) != 0:
        print('  evaluator: %s; run(): %s' % (c.ev[0] if c.ev[0] == 'ok' else c.ev, ' '.join(c.result[0][2:5])
                                               if c.result else '-'))
        return
    try:
        with open(os.path.join(args.datadir, 'out_%d.bin' % c.id), 'rb') as f:
            raw = f.read()
    except OSError:
        return
    t = c.result[0]
    pos, off = 12, 0
    for i, o in enumerate(c.ev[1]):
        r = int(t[pos])
        shape = tuple(int(x) for x in t[pos + 1:pos + 1 + r])
        nbytes = int(t[pos + 2 + r])
        pos += 3 + r
        chunk = raw[off:off + nbytes]
        off += nbytes
        if o.elem == 'dims' or any(d < 0 for d in shape) or tuple(shape) != o.value.shape:
            continue
        print('  output %d (%s) run():    %s' % (i + 1, o.elem, show(decode(chunk, o.elem, shape))))
        print('  output %d evaluator:    %s' % (i + 1, show(o.value)))
        if o.bound is not None and o.elem in ('f16', 'bf16', 'f32', 'f64'):
            print('  output %d K * bound:    %s' % (i + 1, show(K * np.asarray(o.bound))))
        if np.any(o.uncertain):
            print('  output %d uncertain:    %s' % (i + 1, show(o.uncertain)))


def dry_run_case(c, rep, stats, args):
    """--prepare-only: the evaluator on a case that prepare() accepted,
    its outputs' shapes against the plan's; no run()."""
    stats['run'] += 1
    ev = c.ev
    if ev[0] == 'error' and 'has no implementation (externs=' in ev[1]:
        stats['run'] -= 1               # it calls an extern: its run() would take a table of them
        return
    if ev[0] == 'error':
        eval_refused(c, rep, stats, args)
        return
    if ev[0] == 'data':
        stats['data_errors'] += 1
        return
    for i, o in enumerate(ev[1]):
        if o.elem != 'dims':
            stats['elements'] += o.value.size
            stats['uncertain'] += int(np.sum(o.uncertain))
            if args.verbose and np.any(o.uncertain):
                rep.note('%s %s in=%s output %d: %d of %d elements uncertain'
                         % (c.fn.prog.path, c.fn.name, fmt_tuple(c.flat), i + 1, int(np.sum(o.uncertain)),
                            o.value.size))


def compare_values(c, i, o, got, rep, stats):
    ref = np.asarray(o.value)
    unc = np.asarray(o.uncertain, bool)
    stats['elements'] += ref.size
    stats['uncertain'] += int(np.sum(unc))
    if o.elem in ('f16', 'bf16', 'f32', 'f64'):
        bound = np.asarray(o.bound, np.float64)
        with np.errstate(all='ignore'):
            err = np.abs(got - ref)
            ok = (got == ref) | (np.isnan(got) & np.isnan(ref)) | (err <= K * bound + TINY)
    elif o.elem == 'bool':
        ok = got == ref.astype(np.uint8)          # one byte, 0 or 1
        bound = err = None
    else:
        ok = got == ref.astype(got.dtype)
        bound = err = None
    bad = ~ok & ~unc
    nbad = int(np.sum(bad))
    if not nbad:
        return
    idx = np.flatnonzero(bad)
    shown = idx[:3] if not rep.args.verbose else idx
    for j in shown:
        if bound is not None:
            what = 'output %d %s of %d wrong (%s): element %s run=%r ref=%r |diff|=%.3g K*bound=%.3g' % (
                i + 1, '%d' % nbad, ref.size, o.elem, fmt_idx(ref.shape, j), float(got.flat[j]), float(ref.flat[j]),
                float(err.flat[j]), float(K * bound.flat[j]))
        else:
            what = 'output %d %d of %d wrong (%s): element %s run=%r ref=%r' % (
                i + 1, nbad, ref.size, o.elem, fmt_idx(ref.shape, j), got.flat[j].item(), ref.flat[j].item())
        rep.disagree('VALUE', c, what)


def status_name(st):
    return STATUS[st] if 0 <= st < len(STATUS) else 'status %d' % st


# ---------------------------------------------------------------- symbols

def check_symbols(headers, entries, args, rep):
    """nm on every header's run() (compiled at -O0, so that every call the
    code makes is a symbol: -O2 is ten times slower on big headers, and
    what it adds, memcpy/memset for loops, is allowed): writable global
    data, external calls beyond <math.h>, VLAs."""
    if not entries:
        return
    tu = os.path.join(args.work, 'symbols.c')
    obj = os.path.join(args.work, 'symbols.o')
    write_symbols_tu(tu, headers, entries)
    cc = shlex.split(args.cc)[:1]
    r = run_cmd(cc + ['-std=c99', '-O0', '-fno-stack-protector', '-fno-pic', '-Werror=vla', '-c', tu, '-o', obj]
                + shlex.split(args.cflags))
    if r.returncode != 0:
        if 'vla' in r.stderr.lower():
            rep.disagree('VLA', None, 'a variable-length array: %s' % first_error(r.stderr))
        else:
            rep.note('the symbols check did not compile: %s' % first_error(r.stderr))
        return
    nm = run_cmd(['nm', obj])
    if nm.returncode != 0:
        rep.note('nm failed: %s' % nm.stderr.strip()[:200])
        return
    writable, calls = [], []
    for ln in nm.stdout.splitlines():
        t = ln.split()
        if len(t) == 2 and t[0] == 'U':
            if t[1] not in MATH and not t[1].startswith('_GLOBAL_OFFSET_TABLE_'):
                calls.append(t[1])
        elif len(t) == 3 and t[1] in 'bBdDCgGsS' and not t[2].startswith('cr_'):
            writable.append(t[2])
    if writable:
        rep.disagree('GLOBAL_STATE', None, 'writable data in the headers\' run(): %s' % ', '.join(sorted(writable)[:10]))
    if calls:
        rep.disagree('LIBRARY_CALL', None, 'run() calls beyond <math.h>: %s' % ', '.join(sorted(calls)[:10]))


def first_error(text):
    for ln in text.splitlines():
        if 'error:' in ln:
            return ln.strip()[:300]
    for ln in text.splitlines():
        if 'error' in ln:
            return ln.strip()[:300]
    return text.strip()[:300]


# ---------------------------------------------------------------- building the harness

def build_harness(progs, fns, live, exe, args, rep):
    """One harness program: harness_main.c and one translation unit per
    program (its header and the wrappers of its functions), compiled in
    parallel; a program whose unit does not compile is a HEADER_COMPILE
    disagreement and is left out, the others go on.  Sets each live
    function's entry; False if nothing is left to run."""
    from concurrent.futures import ThreadPoolExecutor
    cc = shlex.split(args.cc) + shlex.split(args.cflags) + (['-DCR_PREPARE_ONLY'] if args.prepare_only else [])
    groups = [(p, [f for f in p.functions if f in live]) for p in progs]
    groups = [(p, fs) for p, fs in groups if fs]
    if not groups:
        return False
    maxin = max([f.nin for _, fs in groups for f in fs] + [1])
    maxout = max([f.nout for _, fs in groups for f in fs] + [1])
    write_common(args.work, maxout)

    def compile_one(g):
        p, fs = g
        src = os.path.join(args.work, 'harness_%s.c' % p.prefix)
        write_prog_tu(src, p, fs, not args.prepare_only, args.elem_type)
        return run_cmd(cc + ['-I', args.work, '-c', src, '-o', src[:-2] + '.o'])
    with ThreadPoolExecutor(max_workers=worker_count(args.jobs)) as pool:
        results = list(pool.map(compile_one, groups))
    ok = []
    for (p, fs), r in zip(groups, results):
        if r.returncode == 0:
            ok.append((p, fs))
            continue
        rep.disagree('HEADER_COMPILE', None, '%s (%s): %s' % (p.path, os.path.basename(p.header),
                                                               first_error(r.stderr)), rerun=False)
        for f in fs:
            f.status = 'uncompiled'
    if not ok:
        return False
    k = 0
    for p, fs in ok:
        for f in fs:
            f.entry = k
            k += 1
    main_c = os.path.join(args.work, 'harness_main.c')
    write_main_tu(main_c, ok, ok[0][0].header, maxin, maxout)
    objs = [os.path.join(args.work, 'harness_%s.o' % p.prefix) for p, _ in ok]
    wrap = '-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=aligned_alloc,--wrap=posix_memalign'
    r = run_cmd(cc + ['-I', args.work, '-DCR_WRAP', main_c] + objs + ['-o', exe, wrap, '-lm'])
    if r.returncode != 0 and '__wrap' in r.stderr + r.stdout:
        rep.note('linking with ld --wrap failed; heap allocations are not counted: %s' % first_error(r.stderr))
        r = run_cmd(cc + ['-I', args.work, main_c] + objs + ['-o', exe, '-lm'])
    if r.returncode != 0:
        rep.disagree('HARNESS_COMPILE', None, 'the harness does not compile or link: %s' % first_error(r.stderr),
                     rerun=False)
        return False
    return True


# ---------------------------------------------------------------- main

def main(argv):
    ap = argparse.ArgumentParser(prog='compare_run.py', description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('programs', nargs='*', metavar='PROGRAM.axon')
    ap.add_argument('--fn', action='append', metavar='NAME', help='only these functions (any number)')
    ap.add_argument('--shapes', action='append', metavar='TUPLE',
                    help="an input-shape tuple, '[2,3],[3],[2]' (a dims parameter: its values); any number; "
                         "instead of random tuples")
    ap.add_argument('--samples', metavar='DIR',
                    help='also every .axon file of each subdirectory of DIR that has a main.c (samples/)')
    ap.add_argument('--generate', type=int, default=0, metavar='N', help="N random programs of tests/semantic/gen.py")
    ap.add_argument('--seed', type=int, default=1, help='the generator\'s seed (with --generate)')
    ap.add_argument('--tuples', type=int, default=3, help='accepted shape tuples per function (default 3)')
    ap.add_argument('--candidates', type=int, default=24,
                    help='shape tuples drawn per function, of which prepare() keeps --tuples (default 24)')
    ap.add_argument('--data-seed', type=int, default=0, help='the seed of the input data')
    ap.add_argument('-I', dest='include', action='append', default=[], metavar='DIR', help='import directories')
    ap.add_argument('--elem-type', default='f32', choices=[e for e in ELEMS],
                    help='the element type of element variables (axonc emit --elem-type; default f32)')
    ap.add_argument('--axonc', default=os.path.join(ROOT, 'build', 'axonc'))
    ap.add_argument('--cc', default='gcc -std=c99 -pedantic -Wall -Wextra -Werror -g',
                    help='the C compiler and flags of the harness')
    ap.add_argument('--cflags', default='', help='more flags for the harness (e.g. -D for a test header)')
    ap.add_argument('--header', help='use this header instead of `axonc emit` (one program; --prefix names it)')
    ap.add_argument('--prefix', help='the prefix (default p, or p000, p001, ... for several programs)')
    ap.add_argument('--work', help='the work directory (default: a temporary one, removed unless --keep or '
                                   'something disagrees)')
    ap.add_argument('--keep', action='store_true', help='keep the work directory')
    ap.add_argument('--jobs', type=int, default=0, help='evaluator processes (default: CPUs, at most 4)')
    ap.add_argument('--max-elements', type=int, default=1 << 18,
                    help='the largest input tensor drawn (elements; default 262144)')
    ap.add_argument('--max-bytes', type=int, default=1 << 24,
                    help='cases whose outputs and workspace need more bytes are skipped (default 16 MiB)')
    ap.add_argument('--timeout', type=int, default=60,
                    help='seconds for the two run() calls of a case, after which it is a HANG (default 60)')
    ap.add_argument('--require-run', action='store_true',
                    help='an exported function without P_NAME_run is a disagreement (unless an extern\'s `?` is why)')
    ap.add_argument('--strict', action='store_true',
                    help='a case that prepare() accepts and the evaluator refuses is a disagreement')
    ap.add_argument('--prepare-only', action='store_true',
                    help='a dry run for headers without run(): prepare() picks the cases, the evaluator computes '
                         'them, nothing is compared (the evaluator\'s refusals are reported)')
    ap.add_argument('--no-symbols', dest='symbols', action='store_false', help='skip the nm check')
    ap.add_argument('--verbose', action='store_true', help='every disagreeing element, every note')
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    if args.samples:
        for d in sorted(os.listdir(args.samples)):
            sd = os.path.join(args.samples, d)
            if os.path.isfile(os.path.join(sd, 'main.c')):
                args.programs += sorted(os.path.join(sd, f) for f in os.listdir(sd) if f.endswith('.axon'))
    if not args.programs and not args.generate:
        print('compare_run.py: give programs or --generate N', file=sys.stderr)
        return 2
    if args.header and (len(args.programs) != 1 or args.generate):
        print('compare_run.py: --header takes exactly one program', file=sys.stderr)
        return 2
    try:
        for s in args.shapes or []:
            parse_tuple(s)
    except ValueError as e:
        print('compare_run.py: %s' % e, file=sys.stderr)
        return 2
    t0 = time.time()
    args.axonc = os.path.abspath(args.axonc)
    if not os.access(args.axonc, os.X_OK):
        print('compare_run.py: no axonc at %s' % args.axonc, file=sys.stderr)
        return 2
    if args.header:
        args.header = os.path.abspath(args.header)
    temp = args.work is None
    args.work = os.path.abspath(args.work or tempfile.mkdtemp(prefix='axon-compare-run-'))
    if os.path.isdir(args.work) and not temp:
        if os.listdir(args.work) and not os.path.exists(os.path.join(args.work, 'data')):
            print('compare_run.py: --work %s is not empty and not a work directory of this script' % args.work,
                  file=sys.stderr)
            return 2
        shutil.rmtree(args.work)
    for d in ('h', 'data', 'programs'):
        os.makedirs(os.path.join(args.work, d), exist_ok=True)
    args.datadir = os.path.join(args.work, 'data')
    args.include = [os.path.abspath(d) for d in args.include]
    rep = Report(args)

    # the programs, their headers, their functions
    files = [(os.path.abspath(p), list(args.include)) for p in args.programs] + generated_programs(args)
    progs = []
    for k, (path, inc) in enumerate(files):
        prefix = args.prefix or ('p' if len(files) == 1 else 'p%03d' % k)
        progs.append(Prog(k, path, inc, prefix))
    for p in progs:
        load_program(p, args)
        for n in p.notes:
            rep.note('%s: %s' % (p.path, n))
    t_load = time.time()
    fns = [f for p in progs for f in p.functions]
    counts = {}
    for f in fns:
        counts[f.status] = counts.get(f.status, 0) + 1
        if f.status == 'no_run':
            why = f.prog.no_run_reason.get(f.name)
            what = '%s %s: the header has no %s_run%s' % (f.prog.path, f.name, f.cname,
                                                          ' (emit: %s)' % why if why else '')
            print('NO_RUN ' + what)
            # (an extern's `?` has no bound run() could plan: docs/c-api.md
            # says such a function has no run(), so that is no disagreement)
            if args.require_run and not (why and "an extern's `?`" in why):
                rep.disagree('NO_RUN', None, what, rerun=False)
    live = [f for f in fns if f.status == 'exported' or (args.prepare_only and f.status == 'no_run')]

    # the harness
    stats = dict(candidates=0, accepted=0, cases=0, run=0, elements=0, uncertain=0, data_errors=0,
                 data_kind_differs=0, undecided=0, eval_refused=0, skipped_plan=0, unknown_size_outputs=0)
    headers = []
    exe = os.path.join(args.work, 'harness')
    compiled = build_harness(progs, fns, live, exe, args, rep)
    live = [f for f in fns if f.status == 'exported' or (args.prepare_only and f.status == 'no_run')]
    headers = [(p.prefix, p.header) for p in progs if any(f in live for f in p.functions)]
    t1 = time.time()

    cases = []
    heap_check = None
    if compiled:
        # phase 1: candidate tuples, kept where prepare() accepts them; a
        # function with none accepted gets ten times as many once more
        import random
        cand, per_fn, too_big = [], {}, {}
        tp0 = time.time()
        for attempt in (1, 10):
            batch = []
            for f in live:
                if f in per_fn or (attempt > 1 and args.shapes):
                    continue
                rng = random.Random('%s:%s:%s:%d' % (args.seed, os.path.basename(f.prog.path), f.name, attempt))
                tuples, big = candidate_tuples(f, args, rng, args.candidates * attempt)
                too_big[f] = too_big.get(f, 0) + big
                for flat in tuples:
                    c = Case(len(cand) + len(batch), f, flat)
                    c.elems = [elem_of(t, args.elem_type) for t in f.flat]
                    if len(c.flat) != f.nin:
                        rep.disagree('INPUT_COUNT', c, 'the signature has %d inputs, %s_NUM_INPUTS %d'
                                     % (len(c.flat), f.cname, f.nin), rerun=False)
                        break
                    batch.append(c)
            if not batch:
                break
            cand += batch
            res, hc1 = run_harness(exe, 'prepare', batch, args, rep)
            heap_check = hc1 if hc1 is not None else heap_check
            for c in batch:
                r = res.get(c.id)
                if r is None or r[0][0] != 'P' or int(r[0][2]) != 0:
                    if r is not None and r[0][0] == 'CRASH':
                        rep.disagree('CRASH', c, 'prepare() crashed: %s' % r[1])
                    continue
                stats['accepted'] += 1
                n = per_fn.get(c.fn, 0)
                if n >= args.tuples:
                    continue
                t = r[0]
                ws, nout, pos, total = int(t[3]), int(t[4]), 5, 0
                for _ in range(nout):
                    rk = int(t[pos])
                    ob = int(t[pos + 1 + rk])
                    total += max(ob, int(t[pos + 2 + rk]), 0)
                    pos += 3 + rk
                if total + max(ws, 0) > args.max_bytes:
                    too_big[c.fn] = too_big.get(c.fn, 0) + 1
                    continue
                per_fn[c.fn] = n + 1
                cases.append(c)
        stats['t_prepare'] = time.time() - tp0
        stats['candidates'] = len(cand)
        stats['cases'] = len(cases)
        stats['no_tuple'] = sum(1 for f in live if f not in per_fn)
        for f in live:
            if f not in per_fn and (args.verbose or too_big.get(f)):
                rep.note('%s %s: no case: prepare() accepted none of the shape tuples tried%s'
                         % (f.prog.path, f.name, ' (%d left out as larger than --max-elements or --max-bytes)'
                            % too_big[f] if too_big.get(f) else ''))
        # phase 2: the data, run(), the evaluator
        for c in cases:
            gathers = gather_indices(c.fn.prog.text, c.fn.prog.path, c.fn.name,
                                     [len(flat_types(p, [])) for p in c.fn.params])
            c.args, c.raw = make_inputs(args.data_seed, c.fn.prog.path, c.fn.name, c.flat, c.elems, gathers)
            with open(os.path.join(args.datadir, 'in_%d.bin' % c.id), 'wb') as fh:
                for b in c.raw:
                    if b is not None:
                        fh.write(b)
        if not args.prepare_only:
            tr0 = time.time()
            res, hc2 = run_harness(exe, 'run', cases, args, rep)
            stats['t_run'] = time.time() - tr0
            heap_check = hc2 if hc2 is not None else heap_check
            for c in cases:
                c.result = res.get(c.id)
        jobs = [(c.fn.prog.text, c.fn.prog.path, c.fn.prog.include, c.fn.name,
                 group_args(c.args, c.fn.params), args.elem_type) for c in cases]
        te0 = time.time()
        evs = parallel_map(eval_case, jobs, args.jobs)
        stats['t_eval'] = time.time() - te0
        for c, e in zip(cases, evs):
            c.ev = e
            if args.prepare_only:
                dry_run_case(c, rep, stats, args)
                continue
            if c.result is None:
                rep.disagree('NO_RESULT', c, 'the harness printed nothing for this case')
                continue
            before = rep.count
            compare_case(c, rep, stats, args)
            if args.verbose and rep.count > before:
                dump_case(c, args)
        if heap_check is not None and heap_check != 2:
            rep.note('the heap counter saw %d calls in its own check (2 expected): heap allocations are not '
                     'counted' % heap_check)
        ts0 = time.time()
        if args.symbols and not args.prepare_only:
            check_symbols(headers, [(f.cname, f.nin, f.nout) for f in live], args, rep)
        stats['t_symbols'] = time.time() - ts0
    t2 = time.time()

    # the summary
    print('programs %d (rejected by check or emit %d), functions %d: with run() %d, without run() %d, '
          'with externs (skipped) %d, not exported %d, header does not compile %d'
          % (len(progs), sum(1 for p in progs if p.header is None), len(fns), counts.get('exported', 0),
             counts.get('no_run', 0), counts.get('externs', 0),
             counts.get('not_exported', 0) + counts.get('higher_order', 0),
             sum(1 for f in fns if f.status == 'uncompiled')))
    print('shape tuples tried %d, accepted by prepare() %d (functions with none %d); cases %s %d (skipped by '
          'size or plan %d)' % (stats['candidates'], stats['accepted'], stats.get('no_tuple', 0),
                                'evaluated (a dry run: run() not called)' if args.prepare_only else 'run',
                                stats['run'], stats['skipped_plan']))
    if args.prepare_only:
        print('elements evaluated %d (uncertain %d); data errors %d; evaluator refused %d'
              % (stats['elements'], stats['uncertain'], stats['data_errors'], stats['eval_refused']))
    else:
        print('elements compared %d (uncertain, skipped %d); data errors agreed %d (of another kind %d), '
              'undecided (an uncertain index or divisor) %d; outputs of a data-dependent size (not compared) %d; '
              'evaluator refused %d'
              % (stats['elements'] - stats['uncertain'], stats['uncertain'], stats['data_errors'],
                 stats['data_kind_differs'], stats['undecided'], stats['unknown_size_outputs'],
                 stats['eval_refused']))
    if heap_check == 2 and not args.prepare_only and stats['run']:
        print('heap calls counted inside run() (ld --wrap; the counter\'s own check saw 2)')
    if rep.kinds:
        print('disagreements by kind: ' + ', '.join('%s %d' % kv for kv in sorted(rep.kinds.items())))
    sys.stdout.flush()
    print('time: headers %.1fs, harness %.1fs, cases %.1fs (prepare() %.1fs, run() %.1fs, evaluator %.1fs, '
          'nm %.1fs); work %s' % (t_load - t0, t1 - t_load, t2 - t1, stats.get('t_prepare', 0), stats.get('t_run', 0),
                                  stats.get('t_eval', 0), stats.get('t_symbols', 0), args.work), file=sys.stderr)
    if counts.get('no_run') and not counts.get('exported') and not args.prepare_only:
        print('no run(): the header has no %s (axon-spec.md section 9 not implemented yet)'
              % ' / '.join(sorted(set(f.cname + '_run' for f in fns if f.status == 'no_run'))[:3]))
    keep = args.keep or rep.count > 0
    if rep.failing:
        d = os.path.join(args.work, 'failing')
        os.makedirs(d, exist_ok=True)
        for p in rep.failing:
            if p.path.startswith(os.path.join(args.work, 'programs')):
                for fn in os.listdir(os.path.dirname(p.path)):
                    shutil.copyfile(os.path.join(os.path.dirname(p.path), fn), os.path.join(d, fn))
    if keep:
        print('work directory kept: %s' % args.work)
    elif temp:
        shutil.rmtree(args.work, ignore_errors=True)
    print('disagreements %d' % rep.count)
    return 1 if rep.count else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
