#!/bin/sh
# run.sh - the shape-function benchmark: nanoseconds per call of the shape
# functions that axonc generates, next to hand-written C doing the same
# checks, and the heap allocations they make.  See bench/README.md,
# "Shape-function calls".
#
#   sh bench/shapefn/run.sh [bench options]     (from the repository root, or anywhere)
#   AXONC=path/to/axonc CC=clang sh bench/shapefn/run.sh -t 0.5 -r 7
#
# Environment (all optional):
#   AXONC   the compiler (default: build/axonc of this checkout)
#   CC      the C compiler (default: cc); the benchmark is built with -O2
#   CFLAGS  extra flags, added after -O2
#   OUTDIR  where the headers and binaries go (default: build/shapefn)
#   VALGRIND 1: afterwards, a cross-check of the allocation count that sees
#           the whole process (libc included): the benchmark again, short
#           (-n 200000 -r 1), under valgrind, and its heap summary
#   TINY    1: the tiny size, a smoke run (tests/bench/shapefn.test): every
#           step and check as usual, but the timing is one repetition of
#           1,000 calls per function (-n 1000 -r 1, before the options
#           given), whose times are printed and not judged
# Options after the script name go to the benchmark: -t SECONDS (per
# measurement, default 0.3), -r REPS (best of, default 5), -n CALLS (fixed).
#
# Steps: check bench/shapefn/attention.axon and transformer12.axon with
# `axonc check` and emit their headers into OUTDIR; compile symbols.c (the
# generated functions alone, -ffreestanding) and list its undefined
# symbols with nm (there must be none); compile plans.c (the check of the
# _prepare functions) and bench.c, linked with the allocation-counting
# malloc wrappers (ld --wrap); run it.
#
# Exit status: that of the benchmark (0 ok; 1 the functions disagree, a
# checksum is wrong, or the generated code allocated), 1 when the shape
# functions' object needs an external symbol, 2 for a setup problem.

# shellcheck source=bench/common/setup.sh
. "$(dirname "$0")/../common/setup.sh"
CFLAGS=${CFLAGS:-}
OUTDIR=${OUTDIR:-$root/build/shapefn}

mkdir -p "$OUTDIR"

# The programs.  Relative paths, so the headers' messages read
# bench/shapefn/attention.axon:12:7: ...
for p in attention transformer12; do
    "$AXONC" check bench/shapefn/$p.axon > "$OUTDIR/$p.sig" || {
        echo "run.sh: axonc check rejects bench/shapefn/$p.axon" >&2
        exit 2
    }
done
"$AXONC" emit bench/shapefn/attention.axon -o "$OUTDIR/attention.h"
"$AXONC" emit bench/shapefn/transformer12.axon -o "$OUTDIR/transformer12.h"

# The generated functions alone: which external symbols can they call?
$CC -std=c99 -O2 -ffreestanding -Wall -Wextra -Werror -I"$OUTDIR" -c bench/shapefn/symbols.c -o "$OUTDIR/symbols.o"
undef=$(nm -u "$OUTDIR/symbols.o" | awk '{ print $NF }' | tr '\n' ' ')
echo "external symbols the generated shape/prepare functions reference (nm -u, -O2 -ffreestanding): ${undef:-none}"
if [ -n "$undef" ]; then
    echo "run.sh: the generated code references external symbols: $undef" >&2
    exit 1
fi

# The benchmark, with every allocation function of its object counted.
wrap=-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=aligned_alloc,--wrap=posix_memalign,--wrap=strdup,--wrap=strndup
# plans.c (the check of the _prepare functions) is compiled on its own, so
# that bench.c, the timed code, has only the _shape functions.
# shellcheck disable=SC2086
$CC -std=c99 -O2 $CFLAGS -Wall -Wextra -I"$OUTDIR" -c bench/shapefn/plans.c -o "$OUTDIR/plans.o"
# shellcheck disable=SC2086
if ! $CC -std=c99 -O2 $CFLAGS -Wall -Wextra -DBENCH_COUNT_ALLOCS -I"$OUTDIR" \
        -o "$OUTDIR/bench" bench/shapefn/bench.c "$OUTDIR/plans.o" $wrap 2> "$OUTDIR/link.log"; then
    cat "$OUTDIR/link.log" >&2
    echo "run.sh: building with ld --wrap failed; building without the allocation counter" >&2
    # shellcheck disable=SC2086
    $CC -std=c99 -O2 $CFLAGS -Wall -Wextra -I"$OUTDIR" -o "$OUTDIR/bench" bench/shapefn/bench.c "$OUTDIR/plans.o"
else
    cat "$OUTDIR/link.log" >&2      # the warnings, if any
fi

echo "$($CC --version 2>/dev/null | head -n 1), -O2 $CFLAGS; $(nproc 2>/dev/null || echo '?') cores; $(date -u '+%Y-%m-%d %H:%M UTC')"
if [ "${TINY:-0}" = 1 ]; then
    set -- -n 1000 -r 1 "$@"
fi
status=0
"$OUTDIR/bench" "$@" || status=$?

if [ "${VALGRIND:-0}" = 1 ]; then
    echo
    echo "valgrind cross-check (whole process; the 2 expected allocations are stdout's buffer and the counter's own test malloc):"
    valgrind --error-exitcode=3 "$OUTDIR/bench" -n 200000 -r 1 > /dev/null 2> "$OUTDIR/valgrind.log" || status=$?
    grep -E 'total heap usage|ERROR SUMMARY' "$OUTDIR/valgrind.log"
fi
exit $status
