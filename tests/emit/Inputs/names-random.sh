#!/bin/sh
# names-random.sh - programs whose every name is a word the header generates,
# a macro a compiler predefines, a keyword, a name with primes or odd
# underscores (names_random.py): each header must export every function,
# define no name twice, and compile with every dims member and index
# constant read, in gcc -std=c99 -pedantic, gcc and g++ in their default
# (GNU) modes, and clang, all -Wall -Wextra -Werror.
# usage: names-random.sh AXONC WORKDIR SEED COUNT
set -u
AXONC=$1
WORK=$2
SEED=$3
COUNT=$4
W="-Wall -Wextra -Werror"
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$WORK"
python3 "$HERE/names_random.py" "$SEED" "$COUNT" "$WORK" || exit 1
cd "$WORK" || exit 1
fail=0
while read -r stem nfns; do
    if ! "$AXONC" emit "$stem.axon" -o "$stem.h" 2> "$stem.warn"; then
        echo "FAIL emit $stem"; cat "$stem.warn"; fail=1; continue
    fi
    if [ -s "$stem.warn" ]; then
        echo "FAIL warnings $stem"; cat "$stem.warn"; fail=1
    fi
    got=$(grep -c '^AXON_FN int [A-Za-z0-9_]*_shape(' "$stem.h")
    [ "$got" = "$nfns" ] || { echo "FAIL $stem: $got of $nfns functions exported"; fail=1; }
    dup=$(sed -n "s/^#define \\(${stem}_[A-Za-z0-9_]*\\).*/\\1/p" "$stem.h" | sort | uniq -d)
    [ -z "$dup" ] || { echo "FAIL $stem: defined twice: $dup"; fail=1; }
    # every index constant and every dims member, read
    {
        printf '#include "%s.h"\nint use_%s(void);\nint use_%s(void)\n{\n    long s = 0;\n' "$stem" "$stem" "$stem"
        sed -n 's/^#define \([A-Za-z0-9_]*_\(IN\|OUT\|TMP\)_[A-Za-z0-9_]*\) .*/    s += \1;/p' "$stem.h"
        for f in $(sed -n 's/^AXON_FN int \([A-Za-z0-9_]*\)_shape(.*/\1/p' "$stem.h"); do
            printf '    {\n        %s_plan plan;\n        axon_shape in[%s_NUM_INPUTS] = { { 0, { 0 } } };\n' "$f" "$f"
            printf '        if (%s_prepare(in, &plan, 0) == AXON_OK) {\n' "$f"
            sed -n "/^typedef struct ${f}_dims {/,/^} ${f}_dims;/p" "$stem.h" |
                sed -n 's/^    int64_t \([A-Za-z0-9_]*\);/            s += (long)plan.dims.\1;/p; s/^    axon_shape \([A-Za-z0-9_]*\);/            s += plan.dims.\1.rank;/p'
            printf '        }\n    }\n'
        done
        printf '    return (int)s;\n}\n'
    } > "$stem.use.c"
    gcc -std=c99 -pedantic $W -c "$stem.use.c" -o "$stem.o" || { echo "FAIL gcc -std=c99 $stem"; fail=1; }
    gcc $W -c "$stem.use.c" -o "$stem.o" || { echo "FAIL gcc (GNU C) $stem"; fail=1; }
    g++ $W -x c++ -c "$stem.use.c" -o "$stem.o" || { echo "FAIL g++ (GNU C++) $stem"; fail=1; }
    if command -v clang >/dev/null 2>&1; then
        clang -std=c99 $W -c "$stem.use.c" -o "$stem.o" || { echo "FAIL clang $stem"; fail=1; }
    fi
done < expect.txt
[ $fail = 0 ] && echo "all $COUNT programs: every function exported, no name twice, compiled"
exit $fail
