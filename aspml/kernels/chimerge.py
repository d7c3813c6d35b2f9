"""ChiMerge's merge loop (Kerber 1992) over the class counts of sorted distinct values."""

from __future__ import annotations

import heapq

import numba
import numpy as np


@numba.njit(cache=True)
def chi_square(a0, a1, b0, b1):
    """Chi-square of two adjacent intervals with class counts (a0, a1), (b0, b1); an
    expected count of 0 is taken as 0.1 (Kerber)."""
    ra, rb, c0, c1 = a0 + a1, b0 + b1, a0 + b0, a1 + b1
    n = ra + rb
    total = 0.0
    for obs, row, col in ((a0, ra, c0), (a1, ra, c1), (b0, rb, c0), (b1, rb, c1)):
        e = row * col / n if n else 0.0
        if e == 0.0:
            e = 0.1
        total += (obs - e) ** 2 / e
    return total


@numba.njit(cache=True, nogil=True)
def merge(neg, pos, threshold, max_bins):
    """Which intervals survive: repeatedly merge the adjacent pair with the lowest
    chi-square while it is below ``threshold`` or there are more than ``max_bins``
    intervals (``max_bins <= 0``: no such bound).  ``neg``/``pos`` are the class
    counts of the initial intervals, in order; returns bool[alive]."""
    k = neg.shape[0]
    c0, c1 = neg.astype(np.float64), pos.astype(np.float64)
    nxt = np.arange(1, k + 1)
    nxt[k - 1] = -1
    prv = np.arange(-1, k - 1)
    alive = np.ones(k, dtype=np.bool_)
    version = np.zeros(k, dtype=np.int64)
    heap = [(chi_square(c0[i], c1[i], c0[i + 1], c1[i + 1]), i, 0) for i in range(k - 1)]
    heapq.heapify(heap)
    n_bins = k
    while len(heap) > 0:
        chi, i, ver = heapq.heappop(heap)
        if not alive[i] or ver != version[i] or nxt[i] < 0:
            continue                      # a stale entry
        if chi >= threshold and (max_bins <= 0 or n_bins <= max_bins):
            break
        j = nxt[i]                        # merge j into i
        c0[i] += c0[j]
        c1[i] += c1[j]
        alive[j] = False
        nxt[i] = nxt[j]
        if nxt[j] >= 0:
            prv[nxt[j]] = i
        n_bins -= 1
        version[i] += 1
        if nxt[i] >= 0:
            heapq.heappush(heap, (chi_square(c0[i], c1[i], c0[nxt[i]], c1[nxt[i]]), i, version[i]))
        p = prv[i]
        if p >= 0:
            version[p] += 1
            heapq.heappush(heap, (chi_square(c0[p], c1[p], c0[i], c1[i]), p, version[p]))
    return alive
