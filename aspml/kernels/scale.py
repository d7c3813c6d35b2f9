"""Decimal digits a column needs: the kernel behind a feature's clingo scale."""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def min_decimals(values, max_decimals):
    """Fewest decimals ``d`` such that every finite value equals ``round(v * 10**d) / 10**d``.

    Returns ``max_decimals + 1`` when no ``d <= max_decimals`` is enough.
    NaN and infinities are skipped.  One pass: ``d`` only grows.
    """
    d = 0
    scale = 1.0
    for i in range(values.shape[0]):
        v = values[i]
        if not np.isfinite(v):
            continue
        while np.round(v * scale) / scale != v:
            d += 1
            if d > max_decimals:
                return d
            scale *= 10.0
    return d


_POWERS = np.array([10.0 ** k for k in range(23)])      # exact: every 10**k, k <= 22


@numba.njit(cache=True)
def shortest_float32(values, out, slow):
    """Each float32 value as the float64 of its shortest text (numpy's ``str``): the value
    rounded to 1, 2, ... 9 significant digits (to the nearest, else the other
    neighbour), the first that reads back as the same float32.  Multiplying or dividing
    by an exact power of ten rounds correctly, so the result is the float64 of that
    text.  ``slow[i]`` is set where the digits need a power beyond 10**22 (the caller
    reads those through ``str``); NaN, infinities and zeros are copied."""
    powers = _POWERS
    for i in range(values.shape[0]):
        x = np.float64(values[i])
        out[i] = x
        if not np.isfinite(x) or x == 0.0:
            continue
        e = int(np.floor(np.log10(abs(x))))
        if e < -13 or e > 22:
            slow[i] = True
            continue
        target = values[i]
        done = False
        for d in range(1, 10):
            m = d - 1 - e
            p = powers[abs(m)]
            scaled = x * p if m >= 0 else x / p
            near = np.rint(scaled)
            other = np.ceil(scaled) if near == np.floor(scaled) else np.floor(scaled)
            for pick in (near, other):
                back = pick / p if m >= 0 else pick * p
                if np.float32(back) == target:
                    out[i] = back
                    done = True
                    break
            if done:
                break
