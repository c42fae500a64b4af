#!/bin/sh
# run.sh - the bandwidth benchmark (bench/README.md, "Element-wise chains,
# softmax, layernorm: bandwidth"): GB/s of a generated header's run() of
# bench/eltwise/eltwise.axon's functions on x : f32 [rows, 1024]
#   biasrelu   relu(x * a + b), a and b per column (a fused chain)
#   expnorm    exp(x - m) / s, m and s per row (a fused chain)
#   softmax    softmax(x) over the last axis
#   layernorm  layernorm(x, g, b) over the last axis
# of memcpy of the same bytes, and of PyTorch doing the same, on one and
# two threads, for x in L2 (256 KiB), at the L3's size (16 MiB: x and y
# together are this machine's 32 MiB L3) and out of cache (64 and 256 MiB);
# GB/s counts x read once and y written once (2 * 4 * rows * cols bytes
# per call; the broadcast vectors are not counted).  The ratios to memcpy,
# the growth from N to 4N and the targets (run() >= 0.5x memcpy where x and
# y are out of the L2; in the L2, where memcpy runs at the L2's bandwidth,
# run() faster than PyTorch: bench/README.md says why) in one command:
#
#   sh bench/eltwise/run.sh
#
# Environment (all optional):
#   AXONC    the compiler (default: build/axonc of this checkout)
#   CC       the C compiler (default: cc); CFLAGS (default: -O3 -march=native;
#            -O1 -march=native with TINY=1)
#   OUTDIR   where the header, the binaries and the data go (default: build/eltwise)
#   PYTHON   the Python that has PyTorch (default: /usr/bin/python3)
#   THREADS  the thread counts (default: "1 2"): one thread with the driver
#            built without OpenMP, more with -fopenmp and OMP_NUM_THREADS;
#            PyTorch with torch.set_num_threads
#   SIZES    x's bytes, K or M (default: "256K 16M 64M 256M")
#   COLS     the last axis (default 1024; 999 with TINY=1)
#   REPS     best of (default 5); SECS: seconds per measurement (default 0.2)
#   IDLE     before each process, wait up to IDLE seconds (default 0: not at
#            all) for a second with the machine < 5% busy
#   TINY     1: tiny sizes (12K and 48K: 3 and 12 rows of 999), one call
#            each, every step and check as usual (tests/bench/eltwise.test);
#            no target judged
#   STRICT   1: exit 1 when a target is missed
# OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are unset for PyTorch.  Each
# implementation and thread count runs in a process of its own.
# BENCH_PERTURB=run or =torch makes one output wrong on purpose (the
# test's liveness check: the run must then fail).
#
# Exit status: 0; 1 when an output disagrees (with the float64 formula or
# with PyTorch: max |diff| > 1e-4 max |ref|), a program fails, or
# (STRICT=1) a target is missed; 2 for a setup problem.

# shellcheck source=bench/common/setup.sh
. "$(dirname "$0")/../common/setup.sh"
OUTDIR=${OUTDIR:-$root/build/eltwise}
PYTHON=${PYTHON:-/usr/bin/python3}
timing_options "-O1 -march=native"
if [ "$TINY" = 1 ]; then
    SIZES=${SIZES:-12K 48K}
    COLS=${COLS:-999}
else
    SIZES=${SIZES:-256K 16M 64M 256M}
    COLS=${COLS:-1024}
fi

prepare_drivers eltwise

res="$OUTDIR/results"
: > "$res"
status=0
echo "bandwidth: x f32 [rows, $COLS] read once, y written once; GB/s (best of runs), $(about); load average $(cut -d' ' -f1-3 /proc/loadavg)"
about_commit
if grep -q 'axon__f_softmax([01], &' "$OUTDIR/eltwise.h"; then
    echo "run(): softmax and layernorm call the fast kernels (axon__f_softmax, axon__f_layernorm)"
else
    echo "run(): softmax and layernorm call the reference kernels (the header has no call of axon__f_softmax)"
fi
[ "$TINY" = 1 ] && echo "tiny size (TINY=1): one call each, no target judged"
# shellcheck disable=SC2086
run_drivers "memcpy biasrelu expnorm softmax layernorm" "$here/torch_eltwise.py" -c "$COLS" -d "$data" $RUNOPTS $SIZES

"$PYTHON" - "$res" "$TINY" "$STRICT" "$SIZES" "$COLS" <<'EOF' || status=$?
import sys
sys.path.insert(0, 'bench/common')
from results import Results  # bench/common/results.py
res, tiny, strict = sys.argv[1], sys.argv[2] == '1', sys.argv[3] == '1'
sizes, cols = sys.argv[4].split(), int(sys.argv[5])


def nbytes(s):
    n = int(s[:-1]) << (10 if s[-1] in 'kK' else 20) if s[-1] in 'kKmM' else int(s)
    return 2 * 4 * (n // 4 // cols) * cols   # x read, y written


r = Results(res, (str, str, int))   # impl, size, threads
ms, threads, busy, judge = r.value, r.threads, r.busy, r.judge
for n in r.notes:
    print(n)
ops = ['biasrelu', 'expnorm', 'softmax', 'layernorm']


def gbs(impl, size, p):
    t = ms.get((impl, size, p))
    return nbytes(size) / (t * 1e-3) * 1e-9 if t else None


def mark(key):
    return '*' if busy(key) else ''


for who, pre in (('run()', ''), ('PyTorch', 'torch-')):
    print()
    print('%s: GB/s (and x memcpy\'s GB/s)' % who)
    print('%-6s %3s | %8s | %s' % ('size', 'thr', 'memcpy', ' | '.join('%-16s' % o for o in ops)))
    for p in threads:
        for s in sizes:
            mk = (pre + 'memcpy', s, p)
            mc = gbs(*mk)
            cells = []
            for o in ops:
                g = gbs(pre + o, s, p)
                ref = gbs('memcpy', s, p)   # the ratio is to C memcpy in both tables
                cells.append('%7.1f%s (%5.2fx)' % (g, mark((pre + o, s, p)), g / ref) if g and ref else '%-16s' % '-')
            print('%-6s %3d | %8s | %s' % (s, p, '%8.1f%s' % (mc, mark(mk)) if mc else '-', ' | '.join(cells)))
print('(PyTorch\'s memcpy column is y.copy_(x); both tables\' ratios are to C memcpy)')
r.print_busy()


def cache(level):
    """The size of the cache of this level (sysfs), or None."""
    import glob
    for d in glob.glob('/sys/devices/system/cpu/cpu0/cache/index*'):
        try:
            if int(open(d + '/level').read()) == level and 'Instruction' not in open(d + '/type').read():
                v = open(d + '/size').read().strip()
                return int(v[:-1]) << (10 if v[-1] == 'K' else 20) if v[-1] in 'KM' else int(v)
        except (OSError, ValueError):
            pass
    return None


l2, l3 = cache(2), cache(3)
print()
print('caches: L2 %s per core, L3 %s (sysfs); growth is judged where x alone is at least the L3 (out of cache at N and 4N)'
      % ('%d KiB' % (l2 >> 10) if l2 else '?', '%d MiB' % (l3 >> 20) if l3 else '?'))
for a, b in zip(sizes, sizes[1:]):
    if nbytes(b) == 4 * nbytes(a):
        out_of_cache = l3 is not None and nbytes(a) // 2 >= l3
        for p in threads:
            g = []
            for impl in ['memcpy'] + ops + ['torch-' + o for o in ['memcpy'] + ops]:
                ta, tb = ms.get((impl, a, p)), ms.get((impl, b, p))
                if ta and tb:
                    g.append('%s %.2f' % (impl, tb / ta))
                    if not tiny and impl in ops and out_of_cache:
                        judge(tb / ta <= 6.0, 'run() %s %d thr: time(%s)/time(%s) %.2f (linear: 4, within 1.5x: <= 6)'
                              % (impl, p, b, a, tb / ta), [(impl, a, p), (impl, b, p)])
            print('growth %d thr, time(%s)/time(%s) (4 if linear)%s: %s'
                  % (p, b, a, '' if out_of_cache else ', not judged (N in cache)', ', '.join(g)))
# The bandwidth target (run() >= 0.5x memcpy) is judged where x and y
# are out of the L2 (16 MiB, in the L3, and up): in the L2, memcpy runs at
# the L2's bandwidth (250-330 GB/s here), and half of it is more than a
# float exp can give on a core (about 20 vector operations per 16 floats);
# there run() is judged against PyTorch doing the same (bench/README.md,
# "Element-wise chains": the decision and its reasons).
for p in threads:
    for s in sizes:
        ref = gbs('memcpy', s, p)
        in_l2 = l2 is not None and 2 * nbytes(s) <= l2
        for o in ops:
            g = gbs(o, s, p)
            if g and in_l2:
                t = gbs('torch-' + o, s, p)
                if t:
                    judge(g >= t, 'run() %s at %s (in the L2), %d thr: %.1f GB/s, PyTorch %.1f (target: faster)'
                          % (o, s, p, g, t), [(o, s, p), ('torch-' + o, s, p)])
            elif g and ref:
                judge(g / ref >= 0.5, 'run() %s at %s, %d thr: %.2fx memcpy (target 0.5x)' % (o, s, p, g / ref),
                      [(o, s, p), ('memcpy', s, p)])
print('agreement: %d outputs of run() within 1e-4 * max|torch| of PyTorch (at the sizes up to 1 MiB; every size against float64 in bench.c)%s'
      % (r.agree, '' if not r.bad else '; DISAGREE: ' + '; '.join(r.bad)))
r.finish(tiny, strict)
EOF
exit $status
