"""plumbing.py - what the two differential drivers, tests/semantic/run.py
(shapes) and tests/values/compare_run.py (values), both do around their
oracles: run a command, pass -I directories to axonc, read the signatures
`axonc check` prints, spread jobs over worker processes, write a shape
tuple as text.  Nothing here decides an outcome, and nothing here comes
from axonc.
"""
import os
import subprocess

import axparse


def run_cmd(cmd, **kw):
    """A command's CompletedProcess, its stdout and stderr as text."""
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, **kw)


def iflags(include):
    """['-I', DIR, ...] for axonc (and the C compiler)."""
    out = []
    for d in include:
        out += ['-I', d]
    return out


def check_signatures(stdout, notes):
    """[(name, type, where_text, line)] of the signature lines of `axonc
    check`'s output; a line that does not parse goes to notes."""
    out = []
    for ln in stdout.splitlines():
        if ' : ' not in ln:
            continue
        try:
            name, ty, where = axparse.parse_signature(ln)
        except axparse.ParseError as e:
            notes.append('cannot parse the signature %r: %s' % (ln, e))
            continue
        out.append((name, ty, where, ln))
    return out


def worker_count(njobs=0):
    """How many workers --jobs N asks for (0: one a CPU, at most 4)."""
    return njobs or min(os.cpu_count() or 1, 4)


def parallel_map(fn, jobs, njobs=0):
    """[fn(job) for job in jobs], in worker_count(njobs) processes."""
    njobs = worker_count(njobs)
    if njobs > 1 and len(jobs) > 1:
        import multiprocessing
        with multiprocessing.Pool(njobs) as pool:
            return pool.map(fn, jobs, chunksize=1)
    return [fn(j) for j in jobs]


def fmt_tuple(flat):
    """[(2, 3), (3,)] -> '[2,3],[3]'."""
    return ','.join('[' + ','.join(str(d) for d in s) + ']' for s in flat)
