#!/usr/bin/env python3
"""erf_fit.py - how the coefficients of runtime/run/fused.c's axon__ferf
were derived (tests/fast/fused-math.test measures the result: erf within
1 ulp of the C library's double erf rounded once, over every 97th float).

Least-squares fits on Chebyshev nodes (near minimax), in double:
  below |z| = 1:    erf(z) = z + z g(z^2), g(w) = erf(sqrt w) / sqrt w - 1,
                    degree 6 in w on [0, 1] (fit error 1.2e-9);
  1 <= |z| < 3.92:  erf(|z|) = h(t), t = (|z| - 2.46) / 1.46 in [-1, 1],
                    degree 14 in t (fit error 7e-9);
  above 3.92 erf rounds to 1 in float.
Prints the coefficients, highest degree first (Horner's order).

    /usr/bin/python3 tests/fast/erf_fit.py      (needs NumPy)
"""
import math

import numpy as np

N = 6000
x = np.cos(np.pi * (np.arange(N) + 0.5) / N)        # Chebyshev nodes in [-1, 1]


def g(w):
    z = math.sqrt(w)
    return math.erf(z) / z - 1.0 if z > 0 else 2.0 / math.sqrt(math.pi) - 1.0


w = (x + 1) / 2
c = np.polynomial.chebyshev.chebfit(x, np.array([g(v) for v in w]), 6)
p = np.polynomial.Chebyshev(c, domain=[0, 1]).convert(kind=np.polynomial.Polynomial).coef
print('g (in z^2):', ', '.join('%.10e' % v for v in p[::-1]))

lo, hi = 1.0, 3.92
a = (x + 1) / 2 * (hi - lo) + lo
c = np.polynomial.chebyshev.chebfit(x, np.array([math.erf(v) for v in a]), 14)
q = np.polynomial.chebyshev.cheb2poly(c)
print('h (in t):', ', '.join('%.10e' % v for v in q[::-1]))
print('t = |z| * %.10e + %.10e' % (2 / (hi - lo), -(hi + lo) / (hi - lo)))
