#!/bin/sh
# generators.sh AXONC PYTHON ROOT TMPDIR - the benchmark generators'
# options at tiny sizes, those that bench/check_bench.sh does not run
# itself (it runs gen_transformer.py without an option, --weights and
# --fns, and gen_cnn.py without one; bench/scale/run.sh runs every shape of
# gen_scale.py): each program must be accepted by `axonc check` with
# exactly the signatures that the generator's --expected prints.  One line
# per program, "ok" or "FAIL"; then "N programs, N failed"; exit 1 if any
# failed.
set -u
axonc=$1 python=$2 root=$3 tmp=$4
n=0 failed=0

# try GENERATOR N [OPTIONS]
try() {
    gen=$1 size=$2
    shift 2
    n=$((n + 1))
    f=$tmp/gen-$n
    if ! "$python" "$root/bench/$gen" "$size" "$@" > "$f.axon" ||
       ! "$python" "$root/bench/$gen" --expected "$@" "$size" > "$f.expected"; then
        echo "FAIL $gen $size $*: the generator failed"
        failed=$((failed + 1))
    elif ! "$axonc" check --letters "$f.axon" > "$f.out" 2> "$f.err"; then
        echo "FAIL $gen $size $*: axonc rejects it: $(head -n 1 "$f.err")"
        failed=$((failed + 1))
    elif ! cmp -s "$f.out" "$f.expected"; then
        echo "FAIL $gen $size $*: other signatures than --expected"
        diff "$f.expected" "$f.out" | head -n 5
        failed=$((failed + 1))
    else
        echo "ok $gen $size $*"
    fi
}

try gen_transformer.py 1
try gen_transformer.py 1 --weights
try gen_transformer.py 1 --fns
try gen_cnn.py 1
try gen_cnn.py 6 --weights
try gen_cnn.py 6 --imagenet-stem
try gen_cnn.py 8 --max-down 0
# every layer a downsampling block: the stages 64, 128, 256, 512, 512
try gen_cnn.py 5 --down-every 1
try gen_cnn.py 9 --down-every 2 --max-down 3 --weights --imagenet-stem

echo "$n programs, $failed failed"
[ "$failed" -eq 0 ]
