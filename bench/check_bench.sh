#!/bin/sh
# check_bench.sh - how long `axonc check` takes on an unrolled N-layer
# transformer-like model (bench/gen_transformer.py), for N = 100, 1,000 and
# 10,000 layers: the default program (weights shared by all layers), next
# to it the same with three weights per layer (--weights), and an N-layer
# residual CNN (bench/gen_cnn.py).
#
#   sh bench/check_bench.sh            (or bench/check_bench.sh), from anywhere
#   AXONC=path/to/axonc sh bench/check_bench.sh
#
# Environment (all optional):
#   AXONC    the compiler to time (default: build/axonc of this checkout)
#   SIZES    the layer counts (default: "100 1000 10000")
#   RUNS     timed runs per size; the best wall-clock time is reported
#            (default: 5)
#   MODE     the programs, one table each (default: "inline weights cnn"):
#            "inline" (the layers are statements of one `model` function,
#            the weights shared), "weights" (the same with three weights
#            per layer: 3 * N + 10 parameters) or "fns" (one top-level
#            function per layer), see the header of gen_transformer.py;
#            "cnn" (N residual blocks of conv2d, depthwise conv2d_grouped
#            and pooling on symbolic sizes, at most 30 of them halving the
#            size; weights shared per stage), see the header of gen_cnn.py
#   STRICT   1: also exit 1 when a target below is missed
#   PYTHON   the Python 3 interpreter (default: python3)
#   TINY     1: the tiny size, a smoke run (tests/bench/check_bench.test):
#            SIZES defaults to "4 50" (at 4 layers each kind of CNN block
#            but the downsampling one, which layer 50 is), RUNS to 1 and
#            MODE to all four programs; every program is generated and
#            checked as usual, the times are printed and not judged
#
# For every size it generates the program into a temporary directory,
# checks that axonc accepts it and prints exactly the expected signatures
# (gen_transformer.py --expected, gen_cnn.py --expected; the transformer's
# is  model : (t [a, b], t [b, c], ..., t [d, b], t [b]) -> t [a, b]),
# then times RUNS runs of `axonc check FILE > /dev/null`.  Wall-clock time
# and peak RSS come from a small Python (standard library) timer: time.
# perf_counter around fork/exec, and the child's ru_maxrss from os.wait4 --
# millisecond resolution, which /usr/bin/time -f %e (10 ms) lacks.
#
# The project's targets: for both the inline and the weights program,
# N = 10,000 in at most 0.25 s with a peak RSS of at most 300 MiB (the
# issue's "300 MB", in the unit this script prints); for the
# inline program also under 0.5 s (the first target) and linear time:
# time(10,000) / time(1,000) <= 12.  The other programs print that ratio,
# as information.  The CNN program has no target (its numbers are far
# from the transformer's: bench/README.md); it prints its time, RSS and
# ratio.
#
# Exit status: 0 when every program is accepted with the expected
# signatures (targets missed only print MISSED, unless STRICT=1); 1 when a
# program is rejected or a signature differs; 2 for a setup problem.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
AXONC=${AXONC:-$root/build/axonc}
TINY=${TINY:-0}
if [ "$TINY" = 1 ]; then
    SIZES=${SIZES:-4 50}
    RUNS=${RUNS:-1}
    MODE=${MODE:-inline weights fns cnn}
fi
SIZES=${SIZES:-100 1000 10000}
RUNS=${RUNS:-5}
MODE=${MODE:-inline weights cnn}
STRICT=${STRICT:-0}
PYTHON=${PYTHON:-python3}

for mode in $MODE; do
    case $mode in
        inline|weights|fns|cnn) ;;
        *) echo "check_bench: MODE must be inline, weights, fns or cnn (got '$mode')" >&2; exit 2 ;;
    esac
done
case $RUNS in
    ''|*[!0-9]*|0) echo "check_bench: RUNS must be a positive integer" >&2; exit 2 ;;
esac
nsizes=0
for n in $SIZES; do
    case $n in
        *[!0-9]*|0) echo "check_bench: SIZES must be positive integers (got '$n')" >&2; exit 2 ;;
    esac
    nsizes=$((nsizes + 1))
done
if [ "$nsizes" -eq 0 ]; then
    echo "check_bench: SIZES is empty" >&2; exit 2
fi
if [ ! -x "$AXONC" ]; then
    echo "check_bench: no compiler at '$AXONC' (run 'make' first, or set AXONC)" >&2
    exit 2
fi
if ! command -v "$PYTHON" >/dev/null 2>&1; then
    echo "check_bench: '$PYTHON' not found (set PYTHON)" >&2
    exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/axonc-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# 1. Generate and check every program before timing anything.
for mode in $MODE; do
    gen=$here/gen_transformer.py
    case $mode in
        inline) genflag= ;;
        cnn) genflag='' gen=$here/gen_cnn.py ;;
        *) genflag=--$mode ;;
    esac
    for n in $SIZES; do
        f=$tmp/$mode-$n.axon
        # shellcheck disable=SC2086  # genflag is empty or one word
        "$PYTHON" "$gen" "$n" $genflag > "$f"
        # shellcheck disable=SC2086
        "$PYTHON" "$gen" --expected $genflag "$n" > "$tmp/expected-$n"
        if "$AXONC" check --letters "$f" > "$tmp/out-$n" 2> "$tmp/err-$n"; then
            :
        else
            rc=$?
            echo "check_bench: FAIL: axonc rejected the $n-layer $mode program (exit $rc):" >&2
            head -n 20 "$tmp/err-$n" >&2
            exit 1
        fi
        if ! cmp -s "$tmp/out-$n" "$tmp/expected-$n"; then
            echo "check_bench: FAIL: wrong signatures for the $n-layer $mode program:" >&2
            diff "$tmp/expected-$n" "$tmp/out-$n" | head -n 20 >&2 || :
            exit 1
        fi
    done
    echo "all $mode programs accepted; signatures as expected:"
    # the first and the last line of the smallest program's (a long line
    # shortened in its middle)
    awk 'NR == 1 { first = $0 } END { print first; if (NR > 1) print }' \
        "$tmp/expected-$(echo "$SIZES" | awk '{print $1}')" |
        awk '{ if (length($0) > 150) $0 = substr($0, 1, 55) " ... " substr($0, length($0) - 89)
               print "  " $0 }'
done
echo

# 2. Time them.  The timer prints a table per program, and the verdict.
if [ "$TINY" = 1 ]; then
    echo "tiny size (TINY=1): a smoke run; the times below are not judged"
    echo
fi
status=0
for mode in $MODE; do
    # shellcheck disable=SC2086  # SIZES is a list of words
    "$PYTHON" - "$AXONC" "$tmp" "$RUNS" "$STRICT" "$mode" $SIZES <<'EOF' || status=$?
import os, sys, time

axonc, tmp, runs, strict, mode = sys.argv[1:6]
runs, strict = int(runs), strict == "1"
sizes = [int(n) for n in sys.argv[6:]]


def run_once(argv):
    """Wall seconds and peak RSS (KiB) of one run, output discarded."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            os.dup2(devnull, 1)
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    t1 = time.perf_counter()
    os.close(devnull)
    code = os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") \
        else (status >> 8)
    if code != 0:
        sys.exit("check_bench: axonc failed (exit %d) on %s" % (code, argv[-1]))
    rss = ru.ru_maxrss / 1024 if sys.platform == "darwin" else ru.ru_maxrss
    return t1 - t0, rss, ru.ru_utime, ru.ru_stime


rows = []
for n in sizes:
    f = os.path.join(tmp, "%s-%d.axon" % (mode, n))
    with open(f, "rb") as fh:
        data = fh.read()
    lines = data.count(b"\n")
    res = [run_once([axonc, "check", f]) for _ in range(runs)]
    best = min(res, key=lambda r: r[0])
    rows.append((n, lines, len(data), best[0], max(r[0] for r in res),
                 best[2], best[3], max(r[1] for r in res)))

print("axonc check, %s mode, best of %d wall-clock runs" % (mode, runs))
print("%8s %9s %9s %9s %9s %7s %7s %10s %7s" % (
    "N", "lines", "best s", "worst s", "user s", "sys s", "x prev", "peak RSS", "KiB/N"))
prev = None
for n, lines, size, best, worst, user, sys_, rss in rows:
    ratio = "" if prev is None else "%.1f" % (best / prev) if prev > 0 else "inf"
    print("%8d %9d %9.3f %9.3f %9.3f %7.3f %7s %7.0f MiB %7.1f" % (
        n, lines, best, worst, user, sys_, ratio, rss / 1024, rss / n))
    prev = best

by_n = {r[0]: r[3] for r in rows}
rss_n = {r[0]: r[7] for r in rows}
missed = False
if mode == "cnn":
    # No target: the numbers and the ratios, as information.
    if 10000 in by_n:
        print("N = 10,000: %.3f s, %.0f MiB (no target for this program)"
              % (by_n[10000], rss_n[10000] / 1024))
    if 1000 in by_n and 10000 in by_n and by_n[1000] > 0:
        print("time(10,000) / time(1,000): %.1f, peak RSS %.1f (no target for this program)"
              % (by_n[10000] / by_n[1000], rss_n[10000] / rss_n[1000]))
    sys.exit(0)
# The transformer programs: N = 10,000 in at most 0.25 s and 300 MiB.
if 10000 in by_n:
    ok = by_n[10000] <= 0.25 and rss_n[10000] <= 300 * 1024
    missed |= not ok
    print("target: N = 10,000 in at most 0.25 s and 300 MiB: %.3f s, %.0f MiB -> %s"
          % (by_n[10000], rss_n[10000] / 1024, "met" if ok else "MISSED"))
if mode != "inline":
    # No linearity target for the other programs: the ratio, as information.
    if 1000 in by_n and 10000 in by_n and by_n[1000] > 0:
        print("time(10,000) / time(1,000): %.1f (no target for this program)"
              % (by_n[10000] / by_n[1000]))
    sys.exit(1 if strict and missed else 0)
if 10000 in by_n:
    ok = by_n[10000] < 0.5
    missed |= not ok
    print("target: N = 10,000 under 0.5 s: %.3f s -> %s"
          % (by_n[10000], "met" if ok else "MISSED"))
if 1000 in by_n and 10000 in by_n:
    r = by_n[10000] / by_n[1000] if by_n[1000] > 0 else float("inf")
    ok = r <= 12
    missed |= not ok
    print("target: time(10,000) / time(1,000) <= 12: %.1f -> %s"
          % (r, "met" if ok else "MISSED"))
sys.exit(1 if strict and missed else 0)
EOF
    [ "$status" -eq 0 ] || exit "$status"
    echo
done
