#!/bin/sh
# run.sh - the scaling benchmark: for every input shape of gen_scale.py,
# times `axonc check` and `axonc emit` at N and at 4N and flags a shape
# where 4N takes more than 6 times as long as N (linear or n log n must
# not).  Builds nothing: run `make` first (or set AXONC).
#
#   sh bench/scale/run.sh                     every shape at its default N
#   SHAPES="bcast params" sh bench/scale/run.sh
#   N=500 SHAPES=fns sh bench/scale/run.sh    another N (one for all shapes)
#
# Environment (all optional):
#   AXONC    the compiler (default: build/axonc of this checkout)
#   SHAPES   the shapes (default: all; `python3 bench/scale/gen_scale.py --list`)
#   N        the size for every shape (default: each shape's own, from --list)
#   RUNS     runs per point; the best wall-clock time is kept (default 3)
#   LIMIT    seconds one run may take before it is killed and the point
#            reported as "over" the limit (default 20)
#   MEMLIMIT MiB of address space a run may use (default 4096; some shapes
#            need over 10 GiB today at 4N): past it axonc stops with "out
#            of memory" and the point is reported as over the limit; 0: no
#            limit (an axonc built with AddressSanitizer, which reserves
#            terabytes of address space, needs that)
#   CMDS     "check emit" (default), or one of them
#   PYTHON   the Python 3 interpreter (default: python3)
#   REPEAT   copies of the nested function in the nesting shapes
#            (gen_scale.py --repeat; default: each shape's own, 100 to 1000)
#   TINY     1: the tiny size, a smoke run (tests/bench/scale.test): N
#            defaults to 2 for every shape, REPEAT to 2 and RUNS to 1;
#            every program is generated and run as usual (a run that fails
#            or goes over a limit still fails the script), but the ratios
#            are printed and not judged (the verdict says "ran")
#
# One line per shape and command: N, the best time at N and at 4N, their
# ratio, the peak RSS of the last point run (4N, or N when that failed),
# and "OVER 6" where the ratio exceeds 6 or a run went over the limit.  A run that fails (an exit status
# other than 0, e.g. a crash) is reported with its status instead of a
# time.  `emit` writes the header to stdout, discarded.
#
# Exit status: 0 when every ratio is at most 6 (any ratio with TINY=1) and
# every run succeeded, 1 otherwise, 2 for a setup problem.

# shellcheck source=bench/common/setup.sh
. "$(dirname "$0")/../common/setup.sh"
if [ "$TINY" = 1 ]; then
    N=${N:-2}
    REPEAT=${REPEAT:-2}
    RUNS=${RUNS:-1}
fi
RUNS=${RUNS:-3}
LIMIT=${LIMIT:-20}
MEMLIMIT=${MEMLIMIT:-4096}
CMDS=${CMDS:-check emit}
PYTHON=${PYTHON:-python3}
GEN=$here/gen_scale.py

if ! command -v "$PYTHON" >/dev/null 2>&1; then
    echo "run.sh: '$PYTHON' not found (set PYTHON)" >&2
    exit 2
fi
case $RUNS in ''|*[!0-9]*|0) echo "run.sh: RUNS must be a positive integer" >&2; exit 2 ;; esac
case $LIMIT in ''|*[!0-9]*|0) echo "run.sh: LIMIT must be a positive number of seconds" >&2; exit 2 ;; esac
case $MEMLIMIT in ''|*[!0-9]*) echo "run.sh: MEMLIMIT must be a number of MiB (0: no limit)" >&2; exit 2 ;; esac
case ${N:-1} in ''|*[!0-9]*|0) echo "run.sh: N must be a positive integer" >&2; exit 2 ;; esac
case ${REPEAT:-1} in ''|*[!0-9]*|0) echo "run.sh: REPEAT must be a positive integer" >&2; exit 2 ;; esac
for c in $CMDS; do
    case $c in check|emit) ;; *) echo "run.sh: CMDS are check and emit (got '$c')" >&2; exit 2 ;; esac
done
SHAPES=${SHAPES:-$("$PYTHON" "$GEN" --list | awk '{print $1}')}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/axonc-scale.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# shellcheck disable=SC2086  # SHAPES and CMDS are lists of words
"$PYTHON" - "$AXONC" "$GEN" "$tmp" "$RUNS" "$LIMIT" "$MEMLIMIT" "${N:-0}" "$CMDS" "$TINY" "${REPEAT:-0}" $SHAPES <<'EOF'
import os, resource, signal, subprocess, sys, threading, time

axonc, gen, tmp, runs, limit, memlimit, n_all, cmds, tiny, repeat = sys.argv[1:11]
runs, limit, memlimit = int(runs), float(limit), int(memlimit)
n_all, cmds, tiny, repeat = int(n_all), cmds.split(), tiny == "1", int(repeat)
shapes = sys.argv[11:]
FACTOR, MAX_RATIO = 4, 6.0

defaults = {}
for line in subprocess.run([sys.executable, gen, "--list"], check=True,
                           stdout=subprocess.PIPE, text=True).stdout.splitlines():
    name, n = line.split()[:2]
    defaults[name] = int(n)
for s in shapes:
    if s not in defaults:
        sys.exit("run.sh: unknown shape '%s' (gen_scale.py --list)" % s)


def run_once(argv):
    """(seconds, peak RSS KiB, status) of one run, output discarded; the
    status is "time" or "memory" when it went over a limit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    errfile = os.path.join(tmp, "stderr")
    err = os.open(errfile, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            os.dup2(devnull, 1)
            os.dup2(err, 2)
            if memlimit > 0:
                cap = memlimit * 1024 * 1024
                resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    killed = []
    def kill():
        killed.append(1)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    timer = threading.Timer(limit, kill)
    timer.start()
    _, status, ru = os.wait4(pid, 0)
    t1 = time.perf_counter()
    timer.cancel()
    os.close(devnull)
    os.close(err)
    code = os.waitstatus_to_exitcode(status)
    if killed:
        code = "time"
    elif code != 0:
        with open(errfile, "rb") as f:
            if b"out of memory" in f.read()[-4096:]:
                code = "memory"
    return t1 - t0, ru.ru_maxrss, code


def measure(cmd, path):
    """Best of RUNS: (seconds, peak RSS KiB, failure text or ''); after a
    failure the seconds are those of the failed run (for a time or memory
    limit, a lower bound)."""
    argv = [axonc, cmd, path]
    best, rss = None, 0
    for _ in range(runs):
        t, r, code = run_once(argv)
        rss = max(rss, r)
        if code == "time":
            return t, rss, "over %gs" % limit
        if code == "memory":
            return t, rss, "over %d MiB" % memlimit
        if code != 0:
            what = "signal %d" % -code if code < 0 else "exit %d" % code
            return t, rss, what
        best = t if best is None else min(best, t)
    return best, rss, ""


def generate(shape, n):
    path = os.path.join(tmp, "%s-%d.axon" % (shape, n))
    with open(path, "w") as out:
        subprocess.run([sys.executable, gen, shape, str(n)] + (["--repeat", str(repeat)] if repeat else []),
                       stdout=out, check=True)
    return path


print("axonc scaling: best of %d wall-clock runs, limits %gs and %s a run; "
      "flagged when time(%dN) > %g x time(N)"
      % (runs, limit, "%d MiB" % memlimit if memlimit else "no memory limit", FACTOR, MAX_RATIO))
if tiny:
    print("tiny size (TINY=1): a smoke run; the ratios are not judged")
if repeat:
    print("the nesting shapes repeat their function %d times (REPEAT)" % repeat)
print("%-12s %-5s %7s %9s %9s %7s %10s  %s" % (
    "shape", "cmd", "N", "N s", "%dN s" % FACTOR, "ratio", "peak RSS", "verdict"))
bad = 0
def cell(t, failure):
    """A time as the table shows it: a lower bound after a limit, none
    after a crash."""
    if not failure:
        return "%.3f" % t
    return ">%.1f" % t if failure.startswith("over") else "-"


for shape in shapes:
    n = n_all or defaults[shape]
    small, large = generate(shape, n), generate(shape, FACTOR * n)
    for cmd in cmds:
        t1, rss, f1 = measure(cmd, small)
        t4, f4 = None, ""
        if not f1:
            t4, rss, f4 = measure(cmd, large)
        if f1 or f4:
            bad += 1
            failure, where = (f1, "N") if f1 else (f4, "%dN" % FACTOR)
            over = failure.startswith("over")
            ratio = ">%.1f" % (t4 / t1) if over and not f1 and t1 > 0 else "-"
            verdict = "%s (%s at %s)" % ("OVER 6" if over else "FAILED", failure, where)
            cells = (cell(t1, f1), "-" if f1 else cell(t4, f4))
        else:
            r = t4 / t1 if t1 > 0 else float("inf")
            ratio = "%.1f" % r
            if tiny:
                verdict = "ran"
            else:
                verdict = "OVER 6" if r > MAX_RATIO else "ok"
                bad += r > MAX_RATIO
            cells = (cell(t1, ""), cell(t4, ""))
        print("%-12s %-5s %7d %9s %9s %7s %6.0f MiB  %s" % (
            shape, cmd, n, cells[0], cells[1], ratio, rss / 1024, verdict))
        sys.stdout.flush()
print("%d of %d over the limit or failed" % (bad, len(shapes) * len(cmds)))
sys.exit(1 if bad else 0)
EOF
