#!/bin/sh
# run-samples.sh - every sample that `make samples` builds (samples/NAME/
# with a main.c): emit NAME.h from the repository root (-I samples/blocks,
# where the shared blocks are), so that the messages name
# samples/NAME/NAME.axon as the Makefile's rule does; compile main.c
# with the given compiler command; run it; compare its stdout with
# samples/NAME/expected.txt.  Prints "ok NAME" or "FAIL NAME: why" for each,
# then "N samples, N failed"; exits 1 if any failed (or none was found).
# usage: run-samples.sh AXONC ROOT WORKDIR CC [CC-ARGS...]
set -u
AXONC=$1
ROOT=$2
WORK=$3
shift 3
cd "$ROOT" || exit 1

n=0
failed=0
fail() {
    echo "FAIL $name: $1"
    [ -n "${2:-}" ] && cat "$2"
    failed=$((failed + 1))
}
for main in samples/*/main.c; do
    [ -f "$main" ] || continue
    dir=${main%/main.c}
    name=${dir#samples/}
    n=$((n + 1))
    if ! "$AXONC" emit "$dir/$name.axon" -I samples/blocks -o "$WORK/$name.h" 2>"$WORK/$name.emit.log"; then
        fail "axonc emit $dir/$name.axon -I samples/blocks failed" "$WORK/$name.emit.log"
        continue
    fi
    if ! "$@" -I"$WORK" -I"$ROOT/samples" "$main" -o "$WORK/$name" -lm >"$WORK/$name.cc.log" 2>&1; then
        fail "$main does not compile" "$WORK/$name.cc.log"
        continue
    fi
    "$WORK/$name" >"$WORK/$name.out" 2>"$WORK/$name.err"
    rc=$?
    if [ $rc -ne 0 ]; then
        fail "the program exited with status $rc" "$WORK/$name.err"
        continue
    fi
    if [ ! -f "$dir/expected.txt" ]; then
        fail "$dir/expected.txt is missing"
        continue
    fi
    if ! diff -u "$dir/expected.txt" "$WORK/$name.out" >"$WORK/$name.diff"; then
        fail "its output differs from $dir/expected.txt" "$WORK/$name.diff"
        continue
    fi
    echo "ok $name"
done
echo "$n samples, $failed failed"
[ $n -gt 0 ] && [ $failed -eq 0 ]
