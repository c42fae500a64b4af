#!/bin/sh
# run-all.sh - runs the whole test suite twice: against build/axonc, and
# against build/asan/axonc (AddressSanitizer + UndefinedBehaviorSanitizer,
# with the C test programs sanitized too).  Ends with one line
#   N passed, N failed
# that totals both runs.  Exit status 1 if anything failed.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1

if command -v lit >/dev/null 2>&1; then
    LIT="lit"
elif [ -f /usr/lib/llvm-14/build/utils/lit/lit.py ]; then
    LIT="python3 /usr/lib/llvm-14/build/utils/lit/lit.py"
else
    echo "run-all.sh: lit not found (apt-get install llvm-14-tools python3)" >&2
    echo "0 passed, 1 failed"
    exit 1
fi

jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
passed=0
failed=0
status=0
for run in normal asan; do
    if [ "$run" = normal ]; then
        params="--param name=normal --param axonc=$root/build/axonc"
    else
        params="--param name=asan --param axonc=$root/build/asan/axonc --param sanitize=1"
    fi
    echo "== tests with the $run build"
    log="$root/build/lit-$run.log"
    mkdir -p "$root/build"
    # shellcheck disable=SC2086
    $LIT -j "$jobs" -sv $params tests 2>&1 | tee "$log"
    p=$(sed -n 's/^ *\(Passed\|Expectedly Failed\) *: *\([0-9]*\).*/\2/p' "$log" | awk '{s+=$1} END {print s+0}')
    f=$(sed -n 's/^ *\(Failed\|Unresolved\|Timed Out\|Unexpectedly Passed\) *: *\([0-9]*\).*/\2/p' "$log" | awk '{s+=$1} END {print s+0}')
    if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
        f=1     # lit itself failed to run
    fi
    passed=$((passed + p))
    failed=$((failed + f))
done
[ "$failed" -eq 0 ] || status=1
echo "$passed passed, $failed failed"
exit $status
