#!/bin/sh
# run.sh - every sample end to end: its generated header's run() against
# PyTorch eager on the same network, inputs and shapes, at 1 and 2 threads,
# at the samples' own sizes and at realistic ones.  See bench/README.md,
# "Samples end to end".
#
#   sh bench/samples/run.sh                 (from the repository root, or anywhere)
#   SETS=real THREADS=1 SAMPLES="encoder resnet_block" sh bench/samples/run.sh
#   TINY=1 sh bench/samples/run.sh          (tests/bench/samples.test)
#
# Environment (all optional):
#   AXONC    the compiler (default: build/axonc of this checkout)
#   CC       the C compiler (default: cc); drivers built with -std=c99
#            $OPT -Wall -Wextra, the one for 2 threads with -fopenmp as well
#   OPT      optimisation flags (default: -O3 -march=native; -O1 with TINY=1)
#   CFLAGS   extra flags, added after those
#   PYTHON   a Python 3 with PyTorch and NumPy (default: /usr/bin/python3)
#   OUTDIR   where the headers, drivers and data go (default: build/bench-samples)
#   SETS     size sets (default "own real"): own (each main.c's), real (batch
#            1, transformer layers at d = 512 over 256 tokens, 224 x 224 images)
#   THREADS  thread counts (default "1 2"): run() in the driver built without
#            OpenMP for 1, with -fopenmp and OMP_NUM_THREADS for more;
#            PyTorch with torch.set_num_threads and OpenBLAS's threads
#   SAMPLES  only these (default: every sample with a main.c but cmake-project)
#   REPS     timed runs at least, after a warm-up (default 3), each side
#   TIME     timed runs until this many seconds of them (default 1), at most
#            10,000 runs (50 before stop 25: mlp, 0.08 ms a run, was timed
#            over 4 ms, and its best at two threads moved between 0.08 and
#            0.15 ms from one run of this script to the next; over 1 s it
#            holds at 0.077-0.078)
#   TOL      agreement tolerance (default 1e-3: max |run - torch| over an
#            output, relative to max |torch|)
#   IDLE     before each measurement, wait up to IDLE seconds (default 0:
#            not at all) for a second in which the machine is < 5% busy
#   KEEP     1: keep the inputs and outputs under OUTDIR/data
#   NETS     the PyTorch networks (default bench/samples/nets.py; the
#            test's liveness check gives wrong_nets.py)
#   TINY     1: the tiny size, a smoke run: SETS=tiny (every sample at a
#            few elements, but conv, whose sizes are constants), one run
#            each side, times printed and not judged, drivers built at
#            -O1 (a third of -O3's compile time); the agreement checked
#
# Steps: emit each sample's header (axonc emit samples/NAME/NAME.axon -I
# samples/blocks), compile bench/samples/driver.c with it per sample and
# thread setting (its P_IMPLEMENTATION in the driver's unit), then
# bench.py runs them, PyTorch (nets.py) on the same inputs, compares and
# prints the tables.
#
# Exit status: 0; 1 when run() and PyTorch disagree or a run fails; 2 for
# a setup problem (no axonc, no PyTorch, a header that does not emit or a
# driver that does not compile).

# shellcheck source=bench/common/setup.sh
. "$(dirname "$0")/../common/setup.sh"
CFLAGS=${CFLAGS:-}
PYTHON=${PYTHON:-/usr/bin/python3}
OUTDIR=${OUTDIR:-$root/build/bench-samples}
SETS=${SETS:-own real}
SAMPLES=${SAMPLES:-}
REPS=${REPS:-3}
TIME=${TIME:-1}
TOL=${TOL:-1e-3}
OPT=${OPT:-}
if [ "${TINY:-0}" = 1 ]; then
    SETS=tiny
    OPT=${OPT:--O1}
fi
OPT=${OPT:--O3 -march=native}

if ! "$PYTHON" -c 'import torch, numpy' 2> /dev/null; then
    echo "run.sh: $PYTHON has no torch or numpy (set PYTHON)" >&2
    exit 2
fi
mkdir -p "$OUTDIR/h" "$OUTDIR/bin" "$OUTDIR/data"

need_t1=0 need_omp=0
for t in $THREADS; do
    if [ "$t" = 1 ]; then need_t1=1; else need_omp=1; fi
done

# The samples and their functions: bench.py's list (SAMPLES picks).
list=$("$PYTHON" "$here/bench.py" --list)
if [ -n "$SAMPLES" ]; then
    list=$(echo "$list" | while read -r name fn; do
        for s in $SAMPLES; do
            if [ "$s" = "$name" ]; then echo "$name $fn"; fi
        done
    done)
    if [ -z "$list" ]; then
        echo "run.sh: no sample of SAMPLES=\"$SAMPLES\"; the samples: $("$PYTHON" "$here/bench.py" --list | cut -d' ' -f1 | tr '\n' ' ')" >&2
        exit 2
    fi
fi

# Headers (relative paths, so that messages read samples/NAME/NAME.axon:...).
echo "$list" | while read -r name fn; do
    if ! "$AXONC" emit "samples/$name/$name.axon" -I samples/blocks -o "$OUTDIR/h/$name.h" 2> "$OUTDIR/h/$name.log"; then
        cat "$OUTDIR/h/$name.log" >&2
        echo "run.sh: axonc emit fails on samples/$name/$name.axon" >&2
        exit 2
    fi
done

# Drivers, two compilations at a time.
flags="-std=c99 $OPT -Wall -Wextra"
build() {  # name fn tag extra-flags
    impl=$(echo "$1" | tr 'a-z' 'A-Z')_IMPLEMENTATION
    # shellcheck disable=SC2086
    $CC $flags $4 $CFLAGS -DBENCH_F="$2" "-DBENCH_HEADER=\"$1.h\"" -D"$impl" -I"$OUTDIR/h" \
        "$here/driver.c" -o "$OUTDIR/bin/$1.$3" -lm > "$OUTDIR/bin/$1.$3.log" 2>&1
}
jobs=0 pids=""
failed="$OUTDIR/bin/failed"
rm -f "$failed"
for line in $(echo "$list" | tr ' ' ':'); do
    name=${line%%:*} fn=${line#*:}
    for v in t1 omp; do
        if [ $v = t1 ] && [ $need_t1 = 0 ]; then continue; fi
        if [ $v = omp ] && [ $need_omp = 0 ]; then continue; fi
        x=""; [ $v = omp ] && x=-fopenmp
        (build "$name" "$fn" $v "$x" || { cat "$OUTDIR/bin/$name.$v.log" >&2; echo "$name.$v" >> "$failed"; }) &
        pids="$pids $!"
        jobs=$((jobs + 1))
        if [ $jobs -ge 2 ]; then
            # shellcheck disable=SC2086
            wait $pids
            jobs=0 pids=""
        fi
    done
done
# shellcheck disable=SC2086
wait $pids
if [ -f "$failed" ]; then
    echo "run.sh: these drivers do not compile: $(tr '\n' ' ' < "$failed")" >&2
    exit 2
fi

cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')
avx512=$(grep -qw avx512f /proc/cpuinfo 2>/dev/null && echo ", AVX-512" || true)
echo "$($CC --version 2>/dev/null | head -n 1), $flags $CFLAGS (+ -fopenmp for > 1 thread)"
echo "PyTorch $("$PYTHON" -c 'import torch; print(torch.__version__)'), NumPy $("$PYTHON" -c 'import numpy; print(numpy.__version__)'); $(nproc 2>/dev/null || echo '?') cores, ${cpu:-?}$avx512; $(git rev-parse --short HEAD 2>/dev/null || echo '?'); $(date -u '+%Y-%m-%d %H:%M UTC')"
[ "${TINY:-0}" = 1 ] && echo "tiny size (TINY=1)"

set -- --bin "$OUTDIR/bin" --work "$OUTDIR/data" --sets "$SETS" --threads "$THREADS" --reps "$REPS" --time "$TIME" --tol "$TOL" --idle "$IDLE"
[ -n "$SAMPLES" ] && set -- "$@" --samples "$SAMPLES"
[ "${KEEP:-0}" = 1 ] && set -- "$@" --keep
[ -n "${NETS:-}" ] && set -- "$@" --nets "$NETS"
exec "$PYTHON" "$here/bench.py" "$@"
