#!/bin/sh
# run.sh - the f32 matrix product benchmark (bench/README.md, "f32 matrix
# product"): GFLOP/s of axon__sgemm (runtime/fast/gemm.c), of a generated
# header's run() of an Axon `matmul`, of OpenBLAS's cblas_sgemm and of
# PyTorch's matmul, on one and two threads, for square sizes and the shapes
# of the samples' linear layers; the ratio of each to OpenBLAS, and the
# targets.  One command:
#
#   sh bench/gemm/run.sh
#
# Environment (all optional):
#   AXONC    the compiler (default: build/axonc of this checkout)
#   CC       the C compiler (default: cc); CFLAGS (default: -O3 -march=native)
#   OUTDIR   where the header and the binaries go (default: build/gemm)
#   PYTHON   the Python that has PyTorch (default: /usr/bin/python3)
#   THREADS  the thread counts (default: "1 2")
#   SHAPES   MxNxK... (default: the squares 64 .. 1024 and the linear layers)
#   REPS     best of (default 5); SECS: seconds per measurement (default 0.2)
#   TINY     1: tiny sizes, one call each, every step as usual (the smoke
#            run of tests/bench/gemm.test); no target is judged
#   STRICT   1: exit 1 when a target is missed
# OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are unset for OpenBLAS's runs (set,
# they force older kernels; PyTorch calls the same library through
# libblas); the kernel it chose is printed
# (openblas_get_corename).  Each implementation and thread count runs in a
# process of its own, so that no library's idle threads spin beside
# another's.  OpenBLAS and PyTorch are skipped (said so) where absent.
#
# Exit status: 0; 1 when an implementation disagrees with axon__sgemm, a
# program fails, or (STRICT=1) a target is missed; 2 for a setup problem.

# shellcheck source=bench/common/setup.sh
. "$(dirname "$0")/../common/setup.sh"
OUTDIR=${OUTDIR:-$root/build/gemm}
PYTHON=${PYTHON:-/usr/bin/python3}
timing_options "-O3 -march=native"
if [ "$TINY" = 1 ]; then
    SHAPES=${SHAPES:-8x8x8 33x17x9 1x40x3}
else
    # squares, then linear layers of the samples: mlp/transformer-like
    # [16*64, 64] x [64, 256], kws-like [2*16, 64] x [64, 176], ViT's
    # [4*197, 192] x [192, 768] and back [4*197, 768] x [768, 192]
    SHAPES=${SHAPES:-64x64x64 128x128x128 256x256x256 384x384x384 512x512x512 768x768x768 1024x1024x1024 1024x256x64 32x176x64 788x768x192 788x192x768}
fi

mkdir -p "$OUTDIR"
any_python

# The Axon program: one matmul, its header's run() timed as is.
printf 'mm = fn (x : f32 [m, k], w : f32 [k, n]) { matmul(x, w) };\n' > "$OUTDIR/mm.axon"
"$AXONC" emit "$OUTDIR/mm.axon" -o "$OUTDIR/mm.h"

build_driver "$OUTDIR/bench" mm.h bench/gemm/bench.c -fopenmp
blas=0
# shellcheck disable=SC2086
if $CC -std=c99 $CFLAGS -fopenmp -Wall -Wextra -I"$root" -DBENCH_CBLAS -o "$OUTDIR/bench_blas" \
        bench/gemm/bench.c -lopenblas -lm 2> "$OUTDIR/blas.log"; then
    blas=1
fi

res="$OUTDIR/results"
: > "$res"
status=0
echo "f32 matrix product, GFLOP/s (best of runs), $(about)"
[ "$TINY" = 1 ] && echo "tiny size (TINY=1): one call each, no target judged"
for p in $THREADS; do
    for impl in axon_sgemm axon_run; do
        # shellcheck disable=SC2086
        "$OUTDIR/bench" -i $impl -p "$p" $RUNOPTS $SHAPES >> "$res" || status=1
    done
    if [ "$blas" = 1 ]; then
        # shellcheck disable=SC2086
        env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$OUTDIR/bench_blas" -i openblas -p "$p" $RUNOPTS $SHAPES \
            >> "$res" || status=1
    fi
    # shellcheck disable=SC2086
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$PYTHON" "$here/torch_bench.py" "$p" $RUNOPTS $SHAPES \
        >> "$res" 2>&1 || status=1
done
[ "$blas" = 1 ] || echo "openblas: not available (cannot link -lopenblas: $OUTDIR/blas.log)"

"$PYTHON" - "$res" "$TINY" "$STRICT" <<'EOF' || status=$?
import sys
sys.path.insert(0, 'bench/common')
from results import Results  # bench/common/results.py
res, tiny, strict = sys.argv[1], sys.argv[2] == '1', sys.argv[3] == '1'
r = Results(res, (str, str, int))   # impl, shape, threads: GFLOP/s
g, order, threads = r.value, [k[0] for k in r.order], r.threads
for n in r.notes:
    print(n)
impls = ['axon_sgemm', 'axon_run', 'openblas', 'torch']
print()
print('%-16s %3s %11s %11s %11s %11s   %s' % ('m x n x k', 'thr', 'axon_sgemm', 'axon_run', 'openblas', 'torch',
                                          'axon/blas run/blas torch/blas'))
def f(v):
    return '%11.1f' % v if v is not None else '%11s' % '-'
missed = []
for p in threads:
    for s in order:
        v = [g.get((i, s, p)) for i in impls]
        b = v[2]
        ratios = ' '.join('%9s' % ('%.2f' % (x / b) if x is not None and b else '-') for x in (v[0], v[1], v[3]))
        m, n, k = (int(x) for x in s.split('x'))
        print('%-16s %3d %s %s %s %s   %s' % (s, p, f(v[0]), f(v[1]), f(v[2]), f(v[3]), ratios))
        if p == 1 and b and v[0] is not None:
            need = 0.8 if min(m, n, k) >= 256 else 0.5
            r = v[0] / b
            if r < need:
                missed.append('%s: axon_sgemm %.2f x OpenBLAS on one thread (target %.1f)' % (s, r, need))
# growth: time at 4N over time at N (a cubic product: 64)
print()
for p in threads:
    for n0 in (64, 128, 256):
        a, b = '%dx%dx%d' % (n0, n0, n0), '%dx%dx%d' % (4 * n0, 4 * n0, 4 * n0)
        if ('axon_sgemm', a, p) in g and ('axon_sgemm', b, p) in g:
            t = 64 * g['axon_sgemm', a, p] / g['axon_sgemm', b, p]
            print('growth, %d thread(s): time(%d) / time(%d) = %.1f (64 if GFLOP/s held)' % (p, 4 * n0, n0, t))
s1, s2 = g.get(('axon_sgemm', '1024x1024x1024', 1)), g.get(('axon_sgemm', '1024x1024x1024', 2))
if s1 and s2:
    print('two threads over one at 1024: %.2fx (target 1.7x)' % (s2 / s1))
    if s2 / s1 < 1.7:
        missed.append('two threads %.2fx one at 1024 (target 1.7x)' % (s2 / s1))
if tiny:
    print('targets: not judged at the tiny size')
    sys.exit(0)
print('targets: ' + ('all met' if not missed else 'MISSED: ' + '; '.join(missed)))
sys.exit(1 if missed and strict else 0)
EOF
exit $status
