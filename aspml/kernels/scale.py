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
