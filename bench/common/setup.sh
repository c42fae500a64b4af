# setup.sh - what the run.sh of the benchmark drivers shares (bench/conv,
# bench/eltwise, bench/gemm, bench/samples, bench/shapefn; bench/scale too),
# sourced first:
#
#   . "$(dirname "$0")/../common/setup.sh"
#
# It sets -eu; here (the driver's folder) and root (the checkout's), and
# changes to root; AXONC (default: build/axonc, exit 2 where it is not
# there) and CC (default: cc); and the defaults of the environment that the
# drivers read alike: THREADS ("1 2"), IDLE (0), TINY (0), STRICT (0).
# The functions below are for the drivers that build a C driver against a
# generated header and time it next to PyTorch (conv, eltwise; gemm some
# of them).
# shellcheck shell=sh
# RUNOPTS, data and status are set for the run.sh that sources this, res is its:
# shellcheck disable=SC2034,SC2154

set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
AXONC=${AXONC:-$root/build/axonc}
CC=${CC:-cc}
THREADS=${THREADS:-1 2}
IDLE=${IDLE:-0}
TINY=${TINY:-0}
STRICT=${STRICT:-0}
if [ ! -x "$AXONC" ]; then
    echo "run.sh: no axonc at $AXONC (run make, or set AXONC)" >&2
    exit 2
fi

# timing_options TINY_CFLAGS: CFLAGS, by default -O3 -march=native, or
# TINY_CFLAGS with TINY=1; RUNOPTS, the timing options of the C drivers
# and the PyTorch scripts: -t SECS (default 0.2) -r REPS (default 5), or
# one call (-n 1 -r 1) with TINY=1.
timing_options() {
    if [ "$TINY" = 1 ]; then
        CFLAGS=${CFLAGS:-$1}
        RUNOPTS="-n 1 -r 1"
    else
        CFLAGS=${CFLAGS:--O3 -march=native}
        RUNOPTS="-t ${SECS:-0.2} -r ${REPS:-5}"
    fi
}

# any_python: PYTHON, or python3 from PATH where PYTHON is not an
# executable (the PyTorch script then says whether it has PyTorch).
any_python() {
    if [ ! -x "$PYTHON" ]; then
        PYTHON=python3
    fi
}

# build_driver OUTPUT HEADER SOURCE [FLAGS...]: the driver SOURCE compiled
# with the generated header OUTDIR/HEADER (-DBENCH_HEADER) and FLAGS.
build_driver() {
    out=$1 header=$2 src=$3
    shift 3
    # shellcheck disable=SC2086
    $CC -std=c99 $CFLAGS "$@" -Wall -Wextra -I"$root" -I"$OUTDIR" "-DBENCH_HEADER=\"$header\"" \
        -o "$out" "$src" -lm
}

# build_drivers HEADER SOURCE: OUTDIR/bench (one thread) and
# OUTDIR/bench_omp (-fopenmp), exit 2 where one does not compile.
build_drivers() {
    build_driver "$OUTDIR/bench" "$1" "$2" || exit 2
    build_driver "$OUTDIR/bench_omp" "$1" "$2" -fopenmp || exit 2
}

# prepare_drivers NAME: PYTHON (any_python); OUTDIR, and in it a fresh
# folder $data for the drivers' inputs and outputs; OUTDIR/NAME.h emitted
# from bench/NAME/NAME.axon, and the drivers built with it (build_drivers).
prepare_drivers() {
    any_python
    mkdir -p "$OUTDIR"
    data="$OUTDIR/data"
    rm -rf "$data"
    mkdir -p "$data"
    "$AXONC" emit "bench/$1/$1.axon" -o "$OUTDIR/$1.h"
    build_drivers "$1.h" "bench/$1/bench.c"
}

# about: the compiler, CFLAGS, the cores and the time, for the first line.
about() {
    echo "$($CC --version | head -1), $CFLAGS; $(getconf _NPROCESSORS_ONLN) cores; $(date -u '+%Y-%m-%d %H:%M UTC')"
}

# about_commit: the commit line (and whether runtime/ or translator/ have
# changes not committed).
about_commit() {
    echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git status --porcelain -- runtime translator 2>/dev/null | grep -q . && echo ' (runtime/ or translator/ with uncommitted changes)')"
}

# wait_idle: with IDLE over 0, wait up to IDLE seconds for a second in
# which the machine is under 5% busy; a line saying so where it never was.
wait_idle() {
    [ "$IDLE" = 0 ] && return 0
    "$PYTHON" - "$IDLE" <<'EOF'
import os, sys, time
def busy():
    v = [int(x) for x in open('/proc/stat').readline().split()[1:9]]
    return sum(v) - v[3] - v[4], sum(v)
deadline = time.monotonic() + float(sys.argv[1])
while time.monotonic() < deadline:
    b0, t0 = busy()
    time.sleep(1.0)
    b1, t1 = busy()
    if t1 > t0 and (b1 - b0) / (t1 - t0) < 0.05:
        sys.exit(0)
print('idle: the machine was still busy after %s s' % sys.argv[1])
EOF
}

# run_drivers "IMPL..." TORCH_SCRIPT ARG...: at each of THREADS, each
# implementation (bench -i IMPL -p THREADS ARG...: OUTDIR/bench for one
# thread, OUTDIR/bench_omp with OMP_NUM_THREADS for more), then the PyTorch
# script (TORCH_SCRIPT THREADS ARG..., without OPENBLAS_CORETYPE and
# OPENBLAS_L2_SIZE), each in a process of its own after wait_idle; their
# output into $res; status=1 where one fails.
run_drivers() {
    impls=$1 script=$2
    shift 2
    for p in $THREADS; do
        if [ "$p" = 1 ]; then bin="$OUTDIR/bench"; else bin="$OUTDIR/bench_omp"; fi
        for impl in $impls; do
            wait_idle >> "$res"
            OMP_NUM_THREADS=$p "$bin" -i "$impl" -p "$p" "$@" >> "$res" || status=1
        done
        wait_idle >> "$res"
        env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_NUM_THREADS="$p" \
            "$PYTHON" "$script" "$p" "$@" >> "$res" 2>&1 || status=1
    done
}
