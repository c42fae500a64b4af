#!/bin/sh
# compile-matrix.sh - every program under samples/ (-I samples/blocks, where
# the blocks that samples import are) and tests/check/ through `axonc emit`, and each header through the compilers it must satisfy, all
# with -Wall -Wextra -Werror:
#   each header alone:   gcc -std=c99 -pedantic (included twice, every
#                        function called), gcc -ffreestanding -fsyntax-only,
#                        and two translation units including it linked together
#   all headers in one:  gcc -std=c11, gcc -O2 and -O3 (their flow analysis
#                        warns most; every function's plan.dims is read after
#                        prepare),
#                        g++ -std=c++11, gcc and g++ in their default
#                        (GNU) modes, clang -std=c99, and nvcc
#                        (a __global__ kernel calling every shape function, so
#                        they must be __host__ __device__) -- nvcc is skipped,
#                        with a message, only where it is not installed.
#   run():               each header's definitions (P_IMPLEMENTATION) in a
#                        translation unit of their own, linked with the two
#                        others; every header's in one (shared kernels
#                        defined once) with gcc -O2, g++, clang and nvcc
# usage: compile-matrix.sh AXONC ROOT WORKDIR
set -u
AXONC=$1
ROOT=$2
WORK=$3
W="-Wall -Wextra -Werror"

# ---- one header (run in parallel by xargs) --------------------------------
if [ "${4:-}" = one ]; then
    src=$5
    stem=$(basename "$src" .axon | tr -c 'A-Za-z0-9_\n' '_')
    case $stem in [0-9]*) stem="_$stem" ;; esac
    # the shared blocks of samples/blocks/ (attention.axon beside the
    # attention sample): their own names and prefix
    pre=
    case $src in samples/blocks/*) stem="blocks_$stem"; pre="--prefix $stem" ;; esac
    h="$WORK/$stem.h"
    if ! "$AXONC" emit "$src" -I samples/blocks $pre -o "$h" 2>"$WORK/$stem.warn"; then
        echo "FAIL emit $src"; cat "$WORK/$stem.warn"; exit 1
    fi
    fns=$(sed -n 's/^AXON_FN int \([A-Za-z0-9_]*\)_shape(.*/\1/p' "$h")
    {
        printf '#include "%s.h"\n#include "%s.h"\n' "$stem" "$stem"
        for f in $fns; do
            cat <<C
int use_$f(void);
int use_$f(void)
{
    axon_shape in[$f\_NUM_INPUTS > 0 ? $f\_NUM_INPUTS : 1] = { { 0, { 0 } } };
    axon_shape out[$f\_NUM_OUTPUTS > 0 ? $f\_NUM_OUTPUTS : 1];
    axon_error err;
    $f\_plan plan;
    int s = $f\_shape(in, out, &err) + ($f\_temp_name(0) != 0);
    if ($f\_prepare(in, &plan, &err) != AXON_OK)
        return s;
C
            # every member of plan.dims read after a successful prepare (gcc
            # -O2 and -O3 once warned "may be used uninitialized" there)
            sed -n "/^typedef struct ${f}_dims {/,/^} ${f}_dims;/p" "$h" |
                sed -n 's/^    int64_t \([A-Za-z0-9_]*\);/    s += (int)plan.dims.\1;/p; s/^    axon_shape \([A-Za-z0-9_]*\);/    s += plan.dims.\1.rank;/p'
            printf '    return s;\n}\n'
        done
    } | sed 's/\\_/_/g' > "$WORK/$stem.use.c"
    printf '#include "%s.h"\nint other_tu(void);\nint other_tu(void) { return AXON_MAX_RANK; }\n' "$stem" > "$WORK/$stem.b.c"
    printf '#include "%s.h"\nint other_tu(void);\nint main(void) { return other_tu() == AXON_MAX_RANK ? 0 : 1; }\n' "$stem" > "$WORK/$stem.main.c"
    # run()'s definitions (stb-style): in one translation unit of its own
    up=$(echo "$stem" | tr 'a-z' 'A-Z')
    printf '#define %s_IMPLEMENTATION\n#include "%s.h"\n' "$up" "$stem" > "$WORK/$stem.impl.c"
    ok=1
    gcc -std=c99 -pedantic $W -I"$WORK" -c "$WORK/$stem.impl.c" -o "$WORK/$stem.impl.o" || { echo "FAIL gcc -std=c99 -pedantic (run()): $src"; ok=0; }
    gcc -std=c99 -pedantic $W -I"$WORK" -c "$WORK/$stem.use.c" -o "$WORK/$stem.use.o" || { echo "FAIL gcc -std=c99 -pedantic: $src"; ok=0; }
    gcc -std=c99 -ffreestanding -fsyntax-only $W -I"$WORK" "$WORK/$stem.use.c" || { echo "FAIL gcc -ffreestanding: $src"; ok=0; }
    gcc -std=c99 $W -I"$WORK" "$WORK/$stem.main.c" "$WORK/$stem.b.c" "$WORK/$stem.use.o" "$WORK/$stem.impl.o" -o "$WORK/$stem.exe" -lm &&
        "$WORK/$stem.exe" || { echo "FAIL two translation units: $src"; ok=0; }
    [ $ok = 1 ] && echo "ok $src"
    exit $((1 - ok))
fi

# ---- all of them ----------------------------------------------------------
mkdir -p "$WORK"
cd "$ROOT" || exit 1
files=$(ls samples/*/*.axon tests/check/*.axon 2>/dev/null)
n=$(echo "$files" | wc -l)
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
status=0
echo "$files" | xargs -P "$jobs" -I{} sh "$0" "$AXONC" "$ROOT" "$WORK" one {} > "$WORK/each.log" 2>&1 || status=1
sort "$WORK/each.log"
[ $status = 0 ] || { echo "FAIL: some headers"; exit 1; }

# One translation unit with every header.
all="$WORK/all.c"
: > "$all"
for h in "$WORK"/*.h; do printf '#include "%s"\n' "$(basename "$h")" >> "$all"; done
cat "$WORK"/*.use.c | grep -v '^#include' >> "$all"
printf 'int main(void) { return 0; }\n' >> "$all"
# and one with every header's run() defined (the kernels that several
# headers share, defined once)
impl="$WORK/impl.c"
: > "$impl"
for h in "$WORK"/*.h; do
    b=$(basename "$h" .h)
    printf '#define %s_IMPLEMENTATION\n#include "%s.h"\n' "$(echo "$b" | tr 'a-z' 'A-Z')" "$b" >> "$impl"
done
gcc -std=c99 -pedantic -O2 $W -I"$WORK" -c "$impl" -o "$WORK/impl.o" || { echo "FAIL gcc -O2 (every run())"; status=1; }
g++ -std=c++11 $W -x c++ -I"$WORK" -c "$impl" -o "$WORK/implxx.o" || { echo "FAIL g++ (every run())"; status=1; }
# the fast kernels as users build them for speed: this machine's vectors
# (AVX-512 here), OpenMP; and the references alone (AXON_NO_FAST)
gcc -std=c99 -pedantic -O3 -march=native -fopenmp $W -I"$WORK" -c "$impl" -o "$WORK/implnative.o" ||
    { echo "FAIL gcc -O3 -march=native -fopenmp (every run())"; status=1; }
g++ -std=c++11 -O2 -march=native -fopenmp $W -x c++ -I"$WORK" -c "$impl" -o "$WORK/implnativexx.o" ||
    { echo "FAIL g++ -O2 -march=native -fopenmp (every run())"; status=1; }
gcc -std=c99 -pedantic -O2 -DAXON_NO_FAST $W -I"$WORK" -c "$impl" -o "$WORK/implref.o" ||
    { echo "FAIL gcc -DAXON_NO_FAST (every run())"; status=1; }
gcc -std=c11 $W -I"$WORK" -c "$all" -o "$WORK/all.o" || { echo "FAIL gcc -std=c11"; status=1; }
gcc -std=c99 -O2 $W -I"$WORK" -c "$all" -o "$WORK/allO2.o" || { echo "FAIL gcc -O2"; status=1; }
gcc -std=c99 -O3 $W -I"$WORK" -c "$all" -o "$WORK/allO3.o" || { echo "FAIL gcc -O3"; status=1; }
g++ -std=c++11 $W -x c++ -I"$WORK" -c "$all" -o "$WORK/allxx.o" || { echo "FAIL g++ -std=c++11"; status=1; }
# the default modes (GNU C and C++), where gcc predefines `linux` and `unix`
gcc $W -I"$WORK" -c "$all" -o "$WORK/allgnu.o" || { echo "FAIL gcc (default mode)"; status=1; }
g++ $W -x c++ -I"$WORK" -c "$all" -o "$WORK/allgnuxx.o" || { echo "FAIL g++ (default mode)"; status=1; }
if command -v clang >/dev/null 2>&1; then
    clang -std=c99 $W -I"$WORK" -c "$all" -o "$WORK/allclang.o" || { echo "FAIL clang"; status=1; }
    clang -std=c99 $W -I"$WORK" -c "$impl" -o "$WORK/implclang.o" || { echo "FAIL clang (every run())"; status=1; }
    clang -std=c99 -O2 -march=native $W -I"$WORK" -c "$impl" -o "$WORK/implclangnative.o" ||
        { echo "FAIL clang -O2 -march=native (every run())"; status=1; }
else
    echo "clang: not installed, skipped"
fi
NVCC=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; })
if [ -n "$NVCC" ]; then
    cu="$WORK/all.cu"
    grep '^#include' "$all" > "$cu"
    printf '__global__ void shapes(int *status)\n{\n    axon_shape in[16] = { { 0, { 0 } } }, out[16];\n    axon_error err;\n    int s = 0;\n' >> "$cu"
    for h in "$WORK"/*.h; do
        sed -n 's/^AXON_FN int \([A-Za-z0-9_]*\)_shape(.*/    s += \1_shape(in, out, \&err);/p' "$h" >> "$cu"
    done
    printf '    *status = s;\n}\n' >> "$cu"
    "$NVCC" -std=c++14 -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -I"$WORK" -c "$cu" -o "$WORK/allcu.o" ||
        { echo "FAIL nvcc"; status=1; }
    cp "$impl" "$WORK/impl.cu"
    "$NVCC" -std=c++14 -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -I"$WORK" -c "$WORK/impl.cu" -o "$WORK/implcu.o" ||
        { echo "FAIL nvcc (every run(), host code)"; status=1; }
    [ $status = 0 ] && echo "nvcc: compiled, shape functions called from a __global__ kernel"
else
    echo "nvcc: not installed, skipped"
fi
[ $status = 0 ] && echo "all $n headers compiled (c99 -pedantic, freestanding, two TUs, c11, -O2, -O3, c++11, gnu, gnu++, clang, nvcc; run() too, also -march=native -fopenmp and AXON_NO_FAST)"
exit $status
