"""results.py - what the summaries of bench/conv/run.sh, bench/eltwise/run.sh
and bench/gemm/run.sh share (each the Python at the end of its run.sh, run
from the checkout's root): reading the file into which the C drivers and
the PyTorch scripts wrote their lines, the measurements taken beside other
processes' work (marked, and a line saying how many), and the targets
(each judged, printed, and the exit status)."""
import sys

BUSY = 0.25   # cores that other processes kept busy: a measurement beside them is marked


class Results:
    """The lines of the file at path:
      RESULT IMPL KEY... THREADS VALUE [OTHERS]
          value[k] = VALUE and load[k] = OTHERS (-1 where absent), k the
          tuple IMPL KEY... THREADS, each converted by its type in kinds;
          order, the (KEY...) tuples, and threads, the THREADS, as they
          come first;
      AGREE ...      counted in agree;
      DISAGREE ...   kept in bad;
      any other      kept in notes, once (the lines each process prints
                     about itself, which repeat over the thread counts)."""

    def __init__(self, path, kinds):
        self.value, self.load, self.order, self.threads = {}, {}, [], []
        self.notes, self.agree, self.bad = [], 0, []
        self.met, self.missed = [], []
        n = len(kinds)
        for line in open(path):
            w = line.split()
            if w and w[0] == 'RESULT':
                k = tuple(kind(x) for kind, x in zip(kinds, w[1:1 + n]))
                self.value[k] = float(w[1 + n])
                self.load[k] = float(w[2 + n]) if len(w) > 2 + n else -1
                if k[1:-1] not in self.order:
                    self.order.append(k[1:-1])
                if k[-1] not in self.threads:
                    self.threads.append(k[-1])
            elif w and w[0] == 'AGREE':
                self.agree += 1
            elif w and w[0] == 'DISAGREE':
                self.bad.append(line.strip())
            elif line.strip() and line.strip() not in self.notes:
                self.notes.append(line.strip())

    def busy(self, key):
        """Whether other processes kept more than BUSY cores busy during
        the measurement of key."""
        return self.load.get(key, -1) > BUSY

    def print_busy(self):
        """The line that says how many measurements were taken beside
        other processes' work (or that none was, or that it is not known)."""
        nbusy = sum(1 for k in self.value if self.busy(k))
        print('* measured while other processes kept more than %.2f cores busy (%d of %d measurements): not a measurement of this code'
              % (BUSY, nbusy, len(self.value)) if nbusy else
              '(no measurement had other processes keeping more than %.2f cores busy%s)'
              % (BUSY, '' if any(v >= 0 for v in self.load.values()) else ': not known, each under 0.5 s'))

    def judge(self, ok, what, keys=()):
        """A target met (ok) or missed, said in what, with the load of the
        measurements of keys taken beside other processes' work."""
        b = [k for k in keys if self.busy(k)]
        if b:
            what += ' [busy: %s]' % ', '.join('%s %.2f cores' % (k[0], self.load[k]) for k in b)
        (self.met if ok else self.missed).append(what)

    def finish(self, tiny, strict):
        """Prints the targets met and missed (at the tiny size, that none
        was judged) and exits: 1 where a line said DISAGREE, or, strict, a
        target was missed; else 0."""
        if tiny:
            print('targets: not judged at the tiny size')
            sys.exit(1 if self.bad else 0)
        for m in self.met:
            print('target met:    ' + m)
        for m in self.missed:
            print('target MISSED: ' + m)
        print('targets: ' + ('all met' if not self.missed else '%d of %d missed'
                                                              % (len(self.missed), len(self.missed) + len(self.met))))
        sys.exit(1 if self.bad or (self.missed and strict) else 0)
