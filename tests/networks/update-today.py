#!/usr/bin/env python3
"""update-today.py - refreshes the `// TODAY:` lines of tests/networks/mistakes/.

Each mistake file starts with a comment block (MISTAKE, SYMPTOM, BLAME, FIX)
followed by `// TODAY:` lines: what `axonc check FILE` printed when the file
was last refreshed (its exit status, then stderr, then stdout).  This script
runs build/axonc (or the binary given with --axonc) on each file from inside
mistakes/, so that the messages name the file as `NAME.axon:LINE:COL`, and
writes the output back in place of the old TODAY lines.  The line numbers in
the messages depend on how many TODAY lines there are, so it repeats until
the file no longer changes.

    tests/networks/update-today.py [--axonc PATH] [--check] [FILE ...]

--check changes nothing and exits 1 if a file's TODAY lines are out of date.
The TODAY lines are a record, not a test: nothing runs this in `make test`.
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MISTAKES = os.path.join(HERE, 'mistakes')
PREFIX = '// TODAY:'


def run(axonc, name):
    p = subprocess.run([axonc, 'check', name], cwd=MISTAKES,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    quiet = '' if p.stderr.strip() else ', nothing on stderr (no warning, no error)'
    lines = ['%s `axonc check %s` exits %d%s' % (PREFIX, name, p.returncode, quiet)]
    for label, text in (('stderr', p.stderr), ('stdout', p.stdout)):
        if text.strip():
            lines.append('%s %s:' % (PREFIX, label))
            lines += ['%s   %s' % (PREFIX, l) if l else PREFIX
                      for l in text.rstrip('\n').split('\n')]
    return lines


def place(lines, today):
    """The file's lines with `today` in place of its TODAY lines: where they
    were, or else after the header's last comment line of the FIX field."""
    out = [l for l in lines if not l.startswith(PREFIX)]
    at = None
    for i, l in enumerate(lines):
        if l.startswith(PREFIX):
            at = i
            break
    if at is None:
        # after FIX: and its continuation lines ("//   ...")
        for i, l in enumerate(out):
            if l.startswith('// FIX:'):
                at = i + 1
                while at < len(out) and out[at].startswith('//   '):
                    at += 1
                break
        if at is None:
            sys.exit('%s: no "// FIX:" line' % lines[0] if lines else 'empty file')
    return out[:at] + today + out[at:]


def refresh(axonc, path, check):
    name = os.path.basename(path)
    with open(path) as f:
        original = f.read().split('\n')
    lines = original
    for _ in range(8):
        # Write a candidate, run axonc on it, put its output in; stop when
        # the output no longer moves the lines it reports.
        with open(path, 'w') as f:
            f.write('\n'.join(lines))
        new = place(lines, run(axonc, name))
        if new == lines:
            break
        lines = new
    else:
        sys.exit('%s: the TODAY lines do not settle' % name)
    if check:
        with open(path, 'w') as f:
            f.write('\n'.join(original))
        return lines == original
    with open(path, 'w') as f:
        f.write('\n'.join(lines))
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--axonc', default=os.path.join(HERE, '..', '..', 'build', 'axonc'))
    ap.add_argument('--check', action='store_true')
    ap.add_argument('files', nargs='*')
    args = ap.parse_args()
    axonc = os.path.abspath(args.axonc)
    files = args.files or sorted(os.path.join(MISTAKES, f) for f in os.listdir(MISTAKES)
                                 if f.endswith('.axon'))
    stale = [f for f in files if not refresh(axonc, os.path.abspath(f), args.check)]
    for f in stale:
        print('out of date: %s' % os.path.relpath(f))
    return 1 if stale else 0


if __name__ == '__main__':
    sys.exit(main())
