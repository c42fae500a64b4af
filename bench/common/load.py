"""load.py - what the Python benchmark scripts share (bench/samples/bench.py,
and bench/conv, bench/eltwise and bench/gemm through torch_side.py): the
cores that other processes kept busy while a measurement ran, the
machine's busy time (/proc/stat) less this process's and its waited-for
children's CPU time, over the wall time (bench/common/load.h is the C
drivers' twin)."""
import os
import resource
import time

TICK = os.sysconf('SC_CLK_TCK')


def machine_busy():
    """CPU seconds the whole machine has been busy (/proc/stat), or None."""
    try:
        with open('/proc/stat') as f:
            v = [int(x) for x in f.readline().split()[1:9]]
    except (OSError, ValueError):
        return None
    user, nice, system, idle, iowait, irq, softirq, steal = v
    return (user + nice + system + irq + softirq + steal) / TICK


def own_cpu():
    """CPU seconds of this process and its waited-for children."""
    t = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        r = resource.getrusage(who)
        t += r.ru_utime + r.ru_stime
    return t


class Others:
    """with Others() as o: ...  then o.load, the cores others kept busy,
    or None when unknown or under 0.5 s (/proc/stat counts in ticks of
    10 ms)."""

    def __enter__(self):
        self.m0, self.c0, self.t0 = machine_busy(), own_cpu(), time.perf_counter()
        return self

    def __exit__(self, *exc):
        m1, c1, wall = machine_busy(), own_cpu(), time.perf_counter() - self.t0
        self.load = None
        if self.m0 is not None and m1 is not None and wall >= 0.5:
            self.load = max(0.0, ((m1 - self.m0) - (c1 - self.c0)) / wall)
        return False

