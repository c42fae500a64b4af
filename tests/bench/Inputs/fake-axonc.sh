#!/bin/sh
# fake-axonc.sh - an "axonc" for the tests of the benchmarks' own checks:
# `check` prints a wrong signature and succeeds, `emit` fails.
case $1 in
    check) echo "model : (t [a]) -> t [a]" ;;
    *) echo "fake-axonc: $1: not supported" >&2; exit 1 ;;
esac
