# lit_replay.py - the lit test format of tests/fuzz/regressions/: every file
# there is a test.  The fuzz target runs it once, whole (`fuzz_axonc
# OPTIONS FILE`, the options without -max_len), and it passes when the
# target exits 0: no crash, hang, leak, sanitizer report or wrong result.
# (A module, not lit.local.cfg, so that lit's workers can unpickle it.)
import os
import subprocess

import lit.formats
import lit.Test


class FuzzReplay(lit.formats.base.TestFormat):
    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig, localConfig):
        source_path = testSuite.getSourcePath(path_in_suite)
        for name in sorted(os.listdir(source_path)):
            if name.startswith('.') or name == 'lit.local.cfg' or name in localConfig.excludes:
                continue
            if os.path.isfile(os.path.join(source_path, name)):
                yield lit.Test.Test(testSuite, path_in_suite + (name,), localConfig)

    def execute(self, test, litConfig):
        if test.config.unsupported or 'libfuzzer' not in test.config.available_features:
            return lit.Test.UNSUPPORTED, 'needs build/fuzz/fuzz_axonc (make test builds it with clang)'
        # Not -max_len: libFuzzer would cut the file to that length.
        opts = [o for o in test.config.fuzz_opts if not o.startswith('-max_len=')]
        cmd = [test.config.fuzz_bin] + opts + [test.getSourcePath()]
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
        except subprocess.TimeoutExpired:
            return lit.Test.FAIL, 'over 120 s: ' + ' '.join(cmd)
        if p.returncode == 0:
            return lit.Test.PASS, ''
        out = p.stdout.decode('utf-8', 'replace').splitlines()
        return lit.Test.FAIL, 'Command: %s\nExit status %d; the last lines:\n%s\n' % (
            ' '.join(cmd), p.returncode, '\n'.join(out[-40:]))
