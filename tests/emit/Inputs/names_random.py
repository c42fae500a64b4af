#!/usr/bin/env python3
"""names_random.py - random Axon programs whose every name (functions,
parameters, sizes, shape variables, statements) is drawn from the words a
header generates (ELEMENTS, IN, TMP, shape, plan, ...), the macros compilers
predefine (linux, unix, i386), C and C++ keywords, names with primes, double
and leading underscores: tests/emit/names-random.test.

    names_random.py SEED COUNT OUTDIR

writes OUTDIR/pNNN.axon and OUTDIR/pNNN.use.c (a C file that reads every
index constant and dims member the header must define for that program), and
OUTDIR/expect.txt, one line per program: its stem and its function count.
Standard library only."""
import os
import random
import sys

WORDS = [
    # what the header adds to names
    "ELEMENTS", "BYTES", "MAX", "MAX_ELEMENTS", "MAX_BYTES", "IN", "OUT", "TMP", "NUM",
    "NUM_INPUTS", "NUM_OUTPUTS", "NUM_TEMPS", "EXTERN", "shape", "plan", "dims", "prepare",
    "solve", "temp_name", "temp", "name", "run", "prime", "q", "p", "n", "d", "s", "e", "el",
    "kn", "bc", "bs", "sh", "rk", "arg", "arg1",
    # macros and keywords
    "linux", "unix", "i386", "errno", "int", "class", "char8_t", "new", "this", "NULL", "EOF",
    "INT64_MAX", "NAN", "INFINITY", "axon", "axon_shape", "near", "far", "interface",
    "small", "complex", "stdin", "rank", "bad", "in", "out", "tmp", "err", "status",
    # ordinary names
    "x", "y", "h", "W", "W1", "d_model", "layer_2", "k", "v", "Q", "a", "b",
]
SEPS = ["_", "_", "_", "__", ""]
AXON_RESERVED = {"fn", "extern", "inf", "where", "import", "elements", "rank", "size", "max", "min",
                 "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "bf16",
                 "f32", "f64", "dims", "broadcast"}


def name(rng):
    n = rng.choice([1, 1, 2, 2, 3])
    s = rng.choice(WORDS)
    for _ in range(n - 1):
        s += rng.choice(SEPS) + rng.choice(WORDS)
    r = rng.random()
    if r < 0.1:
        s = "_" + s
    elif r < 0.2:
        s += "'"
    elif r < 0.25:
        s += "''"
    elif r < 0.3:
        s += "_"
    if s in AXON_RESERVED or s[0].isdigit():
        s = "z" + s
    return s


def fresh(rng, taken):
    while True:
        s = name(rng)
        if s not in taken:
            taken.add(s)
            return s


def program(rng, fnames):
    fns = []
    taken_fns = set()
    for _ in range(rng.randint(2, 5)):
        f = fresh(rng, taken_fns | fnames)
        fnames.add(f)
        local = set()
        m, k = fresh(rng, local), fresh(rng, local)
        s = fresh(rng, local)
        p1, p2, p3 = fresh(rng, local), fresh(rng, local), fresh(rng, local)
        t1, t2 = fresh(rng, local), fresh(rng, local)
        form = rng.randint(0, 2)
        if form == 0:
            text = (f"{f} = fn ({p1} : f32 [{m}, {k}], {p2} : f32 [{k}]) {{\n"
                    f"  {t1} = {p1} + {p2};\n  {t2} = relu({t1});\n  {t1} = {t2} * {p2};\n  {t1}, {t2}\n}};")
        elif form == 1:
            text = (f"{f} = fn ({p1} : f32 {s} @ [{m}], {p2} : (f32 [{m}], f32 [{k}]), _ : f32 [2]) {{\n"
                    f"  {t1} = exp({p1});\n  {t2} = concat({p1}, {p1});\n  {t2}\n}};")
        else:
            text = (f"{f} = fn ({p1} : f32 [{m}, 2 * {k}], {p3} : dims [{k}]) {{\n"
                    f"  {t1} = reshape({p1}, [{m}, 2, {k}]);\n  {t2} = [{m}, {k}];\n  {t1}, {t2}\n}};")
        fns.append(text)
    return "\n".join(fns) + "\n"


def collisions(rng, i):
    """Pairs of names that the header once made into one C name: an input x
    beside x_ELEMENTS, a function f (with a parameter shape) beside f_IN, a
    parameter IN_x of f beside x of f_IN, a name bound twice beside y_2, a
    tuple parameter's items beside st_0, f' beside f_prime."""
    fams = []
    for k in range(7):
        u = f"c{i}x{k}"
        fams.append([
        f"{u} = fn (x : f32 [n], x_{rng.choice(['ELEMENTS', 'BYTES', 'MAX_BYTES', 'MAX_ELEMENTS'])} : f32 [2]) {{ x }};",
        f"{u} = fn (shape : f32 [n], IN_x : f32 [2]) {{ shape }};\n{u}_IN = fn (x : f32 [3]) {{ x }};",
        f"{u} = fn (x : f32 [n]) {{ y = x + x; y = y * x; y_2 = relu(y); y_2 }};",
        f"{u} = fn (st : (f32 [n], f32 [m]), st_0 : f32 [2]) {{ st_0 }};",
        f"{u}' = fn (x' : f32 [n], x_prime : f32 [n]) {{ x' + x_prime }};\n{u}_prime = fn (x : f32 [3]) {{ x }};",
        f"{u} = fn (x : f32 [e1, kn1], y : f32 [kn1 * e1]) {{ reshape(y, [e1, kn1]) + x }};",
        f"{u} = fn (x : f32 [linux, unix]) {{ x }};",
        ][k])
    return rng.sample(fams, rng.randint(1, 3))


def main():
    seed, count, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rng = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "expect.txt"), "w") as ex:
        for i in range(count):
            text = program(rng, set())
            if rng.random() < 0.5:
                text += "\n".join(collisions(rng, i)) + "\n"
            stem = f"p{i:03d}"
            with open(os.path.join(out, stem + ".axon"), "w") as f:
                f.write(text)
            ex.write(f"{stem} {text.count(' = fn (')}\n")


if __name__ == "__main__":
    main()
