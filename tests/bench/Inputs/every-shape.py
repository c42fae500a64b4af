"""every-shape.py LIST OUT - each shape that gen_scale.py --list names (LIST)
has a `check` and an `emit` row in the table of bench/scale/run.sh (OUT)
whose verdict is "ran"; exit 1, naming the missing ones, if not."""
import sys

shapes = [line.split()[0] for line in open(sys.argv[1]) if line.strip()]
rows = {}
for line in open(sys.argv[2]):
    w = line.split()
    if len(w) >= 3 and w[1] in ("check", "emit"):
        rows[(w[0], w[1])] = w[-1]
missing = ["%s %s" % (s, c) for s in shapes for c in ("check", "emit") if rows.get((s, c)) != "ran"]
if not shapes or missing:
    sys.exit("every-shape.py: no row that ran for: %s" % (", ".join(missing) or "(no shapes listed)"))
print("%d shapes, check and emit: ran" % len(shapes))
