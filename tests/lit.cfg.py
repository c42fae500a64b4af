# lit.cfg.py - how the axonc tests run (lit + FileCheck from llvm-14-tools).
#
# Each test file says how it runs (`// RUN:`) and what must appear
# (`// CHECK:`).  Parameters (lit --param):
#   axonc=PATH      the axonc binary under test (build/axonc or build/asan/axonc)
#   sanitize=1      compile the C test programs with ASan/UBSan as well
import os
import shutil

import lit.formats

config.name = 'axonc'
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = ['.axon', '.test']
config.excludes = ['Inputs', 'lib', 'lit.cfg.py']
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(config.test_source_root)
config.test_exec_root = os.path.join(root, 'build', 'lit', lit_config.params.get('name', 'normal'))

axonc = os.path.abspath(lit_config.params.get('axonc', os.path.join(root, 'build', 'axonc')))
config.substitutions.append(('%axonc', axonc))
# The object files of the axonc under test (tests/build/layers.test):
# build/obj for build/axonc, build/asan for build/asan/axonc.
objdir = os.path.join(os.path.dirname(axonc), 'obj')
config.substitutions.append(('%objdir', objdir if os.path.isdir(objdir) else os.path.dirname(axonc)))
config.substitutions.append(('%root', root))
config.substitutions.append(('%inputs', os.path.join(config.test_source_root, 'Inputs')))

sanitize = lit_config.params.get('sanitize', '0') == '1'
san = ' -fsanitize=address,undefined -fno-sanitize-recover=all' if sanitize else ''
config.substitutions.append(('%cc', 'gcc -std=c99 -pedantic -Wall -Wextra -Werror -g' + san))
# Python for the test scripts: Debian's, which has NumPy (the value oracle of
# tests/values needs it; the shape oracles use the standard library only).
config.substitutions.append(('%python', shutil.which('python3', path='/usr/bin:' + os.environ.get('PATH', '')) or 'python3'))
config.substitutions.append(('%cxx', 'g++ -std=c++11 -Wall -Wextra -Werror -g' + san))

# FileCheck and the other LLVM test tools; nvcc where CUDA is installed
# outside PATH (/usr/local/cuda/bin), so that it is skipped only where absent.
path = os.environ.get('PATH', '')
for d in ['/usr/lib/llvm-14/bin', '/usr/local/cuda/bin']:
    if os.path.isdir(d):
        path = d + os.pathsep + path
config.environment['PATH'] = path
for var in ['HOME', 'TMPDIR', 'CUDA_PATH']:
    if var in os.environ:
        config.environment[var] = os.environ[var]
# Optional tools: tests that need one say `REQUIRES: <tool>`.
for tool in ['nvcc', 'clang', 'dot', 'cmake']:
    if shutil.which(tool, path=path):
        config.available_features.add(tool)
if sanitize:
    config.available_features.add('sanitize')
# PyTorch (python3-torch): the benchmarks' smoke runs and the fast kernels'
# second oracle compare with it; `REQUIRES: torch` where it is needed.
import subprocess
try:
    if subprocess.run(['/usr/bin/python3' if os.path.exists('/usr/bin/python3') else 'python3', '-c', 'import torch'],
                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120).returncode == 0:
        config.available_features.add('torch')
except (OSError, subprocess.TimeoutExpired):
    pass
