#!/usr/bin/env python3
"""layers.py - checks the translator's layout against its stage order.

The stages are the Makefile's STAGES, in pipeline order (base front infer
lower plan emit driver: translator/README.md).  A file of translator/STAGE/
may use only its own stage and the stages before it:

  includes   every `#include "x.h"` names a header of such a stage;
  calls      every symbol an object file uses from another object file of
             the translator (nm) is defined in such a stage;
  circles    no two files use each other, directly or through others (a
             file is X.c with X.h; an edge is an include or a call);
  size       no source file has more than LIMIT lines.

Usage: layers.py ROOT OBJDIR [LIMIT]   (OBJDIR: build/obj or build/asan)
Prints one line per violation and exits 1 if there is any."""
import collections
import os
import re
import subprocess
import sys


def stages(root):
    text = open(os.path.join(root, 'Makefile')).read()
    m = re.search(r'^STAGES\s*:=\s*(.*)$', text, re.M)
    return m.group(1).split()


def main():
    root, objdir = sys.argv[1], sys.argv[2]
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    order = stages(root)
    rank = {s: i for i, s in enumerate(order)}
    tdir = os.path.join(root, 'translator')
    files = {}                      # module "stage/name" -> [paths]
    header_of = {}                  # "x.h" -> module
    for s in order:
        for f in sorted(os.listdir(os.path.join(tdir, s))):
            if f == 'embed.c' or not f.endswith(('.c', '.h')):
                continue        # (embed.c: a build tool, not linked into axonc)
            mod = s + '/' + f[:-2]
            files.setdefault(mod, []).append(os.path.join(tdir, s, f))
            if f.endswith('.h'):
                header_of[f] = mod
    bad = []
    edges = collections.defaultdict(set)

    def use(frm, to, how):
        if frm == to:
            return
        edges[frm].add(to)
        if rank[to.split('/')[0]] > rank[frm.split('/')[0]]:
            bad.append('%s %s %s, a later stage' % (frm, how, to))

    for mod, paths in files.items():
        for p in paths:
            lines = open(p, encoding='utf-8', errors='replace').read().split('\n')
            if lines and lines[-1] == '':
                lines.pop()
            if len(lines) > limit:
                bad.append('%s has %d lines (more than %d)' % (os.path.relpath(p, root), len(lines), limit))
            for ln in lines:
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', ln)
                if m and os.path.basename(m.group(1)) in header_of and '/' not in m.group(1):
                    use(mod, header_of[m.group(1)], 'includes')
    # calls, from the object files
    defined, used = {}, {}
    for mod in files:
        obj = os.path.join(objdir, mod + '.o')
        if not os.path.exists(obj):
            continue
        out = subprocess.run(['nm', obj], capture_output=True, text=True, check=True).stdout
        used[mod] = set()
        for ln in out.splitlines():
            parts = ln.split()
            if len(parts) == 2 and parts[0] == 'U':
                used[mod].add(parts[1])
            elif len(parts) == 3 and parts[1] in 'TDRBCV':
                defined[parts[2]] = mod
    if not used:
        bad.append('no object files under %s' % objdir)
    for mod, syms in used.items():
        for sym in sorted(syms):
            if sym in defined:
                use(mod, defined[sym], 'uses ' + sym + ' of')
    # circles: strongly connected components of more than one file
    index, low, stack, on, comps = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(files):
        if v not in index:
            visit(v)
    for comp in comps:
        bad.append('a circle of files: ' + ' '.join(comp))
    for b in sorted(set(bad)):
        print(b)
    print('%d files in %d stages, %d uses between files: %d problems'
          % (len(files), len(order), sum(len(e) for e in edges.values()), len(set(bad))))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
