#!/bin/sh
# run.sh - the f32 convolution and pooling benchmark (bench/README.md, "f32
# convolution and pooling"): milliseconds per call and GFLOP/s of the fast
# kernels called directly (axon__f_conv2d, axon__f_pool2d: runtime/fast/),
# of a generated header's run() of the same operator (bench/conv/conv.axon)
# and of PyTorch (torch.nn.functional), on one and two threads, at N = 56 x 56
# and 4N = 112 x 112, batch 1:
#   conv3x3  3x3 conv, 64 -> 64 channels, padding 1
#   dw3x3    depthwise 3x3, 144 channels, padding 1
#   conv1x1  1x1 conv, 64 -> 256 channels
#   maxpool, avgpool  2x2, stride 2, 64 channels
# every output compared with PyTorch's, the ratios, the growth from N to 4N
# and the targets in one command:
#
#   sh bench/conv/run.sh
#
# Environment (all optional):
#   AXONC    the compiler (default: build/axonc of this checkout)
#   CC       the C compiler (default: cc); CFLAGS (default: -O3 -march=native;
#            -O1 -march=native with TINY=1, a third of the compile time)
#   OUTDIR   where the header, the binaries and the data go (default: build/conv)
#   PYTHON   the Python that has PyTorch (default: /usr/bin/python3)
#   THREADS  the thread counts (default: "1 2"): one thread with the driver
#            built without OpenMP, more with -fopenmp and OMP_NUM_THREADS;
#            PyTorch with torch.set_num_threads
#   SIZES    input heights = widths (default: "56 112"; the second is 4N)
#   CASES    (default: "conv3x3 dw3x3 conv1x1 maxpool avgpool")
#   REPS     best of (default 5); SECS: seconds per measurement (default 0.2)
#   IDLE     before each implementation's run, wait up to IDLE seconds
#            (default 0: not at all) for a second with the machine < 5% busy
#   TINY     1: tiny sizes (9 and 18), one call each, every step and check
#            as usual (the smoke run of tests/bench/conv.test); no target judged
#   STRICT   1: exit 1 when a target is missed
# OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are unset for PyTorch (it calls
# OpenBLAS through libblas for the 1x1 conv; set, they force older
# kernels).  Each implementation and thread count runs in a process of
# its own.  BENCH_PERTURB=run or =torch makes one output wrong on purpose
# (the test's liveness check: the run must then fail).
#
# Exit status: 0; 1 when an output disagrees (with the kernel's, or with
# PyTorch's: max |diff| > 1e-4 max |torch|), a program fails, or
# (STRICT=1) a target is missed; 2 for a setup problem.

# shellcheck source=bench/common/setup.sh
. "$(dirname "$0")/../common/setup.sh"
OUTDIR=${OUTDIR:-$root/build/conv}
PYTHON=${PYTHON:-/usr/bin/python3}
CASES=${CASES:-conv3x3 dw3x3 conv1x1 maxpool avgpool}
timing_options "-O1 -march=native"
if [ "$TINY" = 1 ]; then
    SIZES=${SIZES:-9 18}
else
    SIZES=${SIZES:-56 112}
fi

prepare_drivers conv

cases=
for s in $SIZES; do
    for c in $CASES; do
        cases="$cases $c@$s"
    done
done

res="$OUTDIR/results"
: > "$res"
status=0
echo "f32 convolution and pooling, ms per call (best of runs), $(about); load average $(cut -d' ' -f1-3 /proc/loadavg)"
about_commit
if grep -q 'axon__f_conv2d(&' "$OUTDIR/conv.h"; then
    echo "run(): calls the fast kernels (axon__f_conv2d, axon__f_pool2d)"
else
    echo "run(): calls the reference kernels (the header has no call of axon__f_conv2d)"
fi
[ "$TINY" = 1 ] && echo "tiny size (TINY=1): one call each, no target judged"
# shellcheck disable=SC2086
run_drivers "axon_kernel axon_run" "$here/torch_conv.py" -d "$data" $RUNOPTS $cases

"$PYTHON" - "$res" "$TINY" "$STRICT" "$SIZES" <<'EOF' || status=$?
import sys
sys.path.insert(0, 'bench/common')
from results import Results  # bench/common/results.py
res, tiny, strict = sys.argv[1], sys.argv[2] == '1', sys.argv[3] == '1'
sizes = [int(s) for s in sys.argv[4].split()]
# name: (op, c, k, window, groups, stride); as bench.c's table
CASES = {'conv3x3': ('conv', 64, 64, 3, 1, 1), 'dw3x3': ('conv', 144, 144, 3, 144, 1),
         'conv1x1': ('conv', 64, 256, 1, 1, 1), 'maxpool': ('pool', 64, 64, 2, 1, 2),
         'avgpool': ('pool', 64, 64, 2, 1, 2)}
r = Results(res, (str, str, int, int))   # impl, case, size, threads
ms, load, order, threads, busy, judge = r.value, r.load, r.order, r.threads, r.busy, r.judge
for n in r.notes:
    print(n)


def rate(case, size, t):
    """GFLOP/s (conv: 2 per multiply-add) or, for a pool, GB/s (bytes read and written)."""
    op, c, k, r, g, s = CASES[case]
    if op == 'conv':
        return 2.0 * k * (c // g) * r * r * size * size / (t * 1e-3) * 1e-9
    o = (size - r) // s + 1
    return 4.0 * c * (size * size + o * o) / (t * 1e-3) * 1e-9


impls = ['axon_kernel', 'axon_run', 'torch']


def cell(key, fmt, v):
    """v formatted, marked * where other processes kept BUSY cores busy meanwhile."""
    if v is None:
        return '%*s' % (len(fmt % 0.0), '-')
    t = fmt % v
    return t[1:] + '*' if busy(key) else t


print()
print('%-8s %5s %3s | %9s %9s %9s | %8s %8s %8s | %7s %7s' % (
    'case', 'size', 'thr', 'kernel ms', 'run ms', 'torch ms', 'kernel', 'run', 'torch', 'ker/tch', 'run/tch'))
print('%-8s %5s %3s | %29s | %26s | %15s' % ('', '', '', '', 'GFLOP/s (pools: GB/s)', 'speed vs torch'))
for p in threads:
    for case, size in order:
        t = [ms.get((i, case, size, p)) for i in impls]
        tt = t[2]
        keys = [(i, case, size, p) for i in impls]
        print('%-8s %5d %3d | %s | %s | %s' % (
            case, size, p, ' '.join(cell(k, '%9.3f', x) for k, x in zip(keys, t)),
            ' '.join(cell(k, '%8.1f', rate(case, size, x) if x else None) for k, x in zip(keys, t)),
            ' '.join('%6.2fx' % (tt / x) if x and tt else '%7s' % '-' for x in t[:2])))
r.print_busy()

n0 = sizes[0]
print()
if len(sizes) >= 2:
    n1 = sizes[1]
    for impl in ('axon_kernel', 'axon_run', 'torch'):
        for p in threads:
            g = []
            for case in CASES:
                a, b = ms.get((impl, case, n0, p)), ms.get((impl, case, n1, p))
                if a and b:
                    g.append('%s %.2f' % (case, b / a))
                    if impl != 'torch' and not tiny and n1 * n1 == 4 * n0 * n0:
                        judge(b / a <= 6.0, '%s %s %d thr: time(%d)/time(%d) %.2f (linear: 4, within 1.5x: <= 6)'
                              % (impl, case, p, n1, n0, b / a), [(impl, case, n0, p), (impl, case, n1, p)])
            if g:
                print('growth %-11s %d thr, time(%d)/time(%d) (4 if linear): %s' % (impl, p, n1, n0, ', '.join(g)))
for impl in ('axon_kernel', 'axon_run'):
    for p in threads:
        for case, need in (('conv3x3', 1.0), ('dw3x3', 10.0)):
            a, t = ms.get((impl, case, n0, p)), ms.get(('torch', case, n0, p))
            if a and t:
                judge(t / a >= need, '%s %s at %d, %d thr: %.2fx PyTorch (target %gx)' % (impl, case, n0, p, t / a, need),
                      [(impl, case, n0, p), ('torch', case, n0, p)])
    a1, a2 = ms.get((impl, 'conv3x3', n0, 1)), ms.get((impl, 'conv3x3', n0, 2))
    if a1 and a2:
        judge(a1 / a2 >= 1.7, '%s conv3x3 at %d: 2 threads %.2fx 1 thread (target 1.7x)' % (impl, n0, a1 / a2),
              [(impl, 'conv3x3', n0, 1), (impl, 'conv3x3', n0, 2)])
print('agreement: %d outputs within 1e-4 * max|torch| of PyTorch%s' % (r.agree, '' if not r.bad else '; DISAGREE: ' + '; '.join(r.bad)))
r.finish(tiny, strict)
EOF
exit $status
