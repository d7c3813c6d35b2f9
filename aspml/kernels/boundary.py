"""LIBRE's base learner: FindBoundary (Algorithm 1) and FindBoundaryPoint (Algorithm 2).

Records are inverse one-hot bit strings packed in uint64 words.  A lattice
element ``a`` covers a record ``x`` when ``a & x == a`` (``a <= x``).  A
candidate point ``p`` is in conflict with a negative record ``y`` when it
covers it, ``p & ~y == 0`` (Definition 3.3).  ``d_l(p, y)`` (Definition 3.4) is
``popcount(p & ~y)``; flipping off bit ``i`` lowers it by one for the
negatives whose bit ``i`` is 0, so an index is blocked exactly when the
distance to those negatives (Definition 3.5) is 1.

Heuristics (ties: lowest bit): H1 = (|S_i^0|, |D+_i^0|, d_l), H2 = (d_l, |S_i^0|, |D+_i^0|),
compared lexicographically, the largest wins; an empty ``D-_i^0`` is an
infinite distance.
"""

from __future__ import annotations

import numba
import numpy as np

INF = np.int64(1) << np.int64(40)


@numba.njit(cache=True, inline="always")
def _bit(row, i):
    return (row[i >> 6] >> np.uint64(i & 63)) & np.uint64(1)


@numba.njit(cache=True)
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@numba.njit(cache=True)
def distance(p, y):
    """``d_l(p, y)``: bits set in ``p`` and clear in ``y``."""
    total = 0
    for w in range(p.shape[0]):
        total += _popcount(p[w] & ~y[w])
    return total


@numba.njit(cache=True)
def covers(a, x):
    """True when the lattice element ``a`` covers record ``x`` (``a <= x``)."""
    for w in range(a.shape[0]):
        if a[w] & x[w] != a[w]:
            return False
    return True


@numba.njit(cache=True)
def find_boundary(pos, neg, n_bits, heuristic, order):
    """Boundary points for the positive and negative records (Algorithm 1).

    Parameters
    ----------
    pos, neg : uint64[n, W]   distinct positive / negative records
    n_bits : int              bits in use (``d``)
    heuristic : int           1 for H1, 2 for H2
    order : int64[n_pos]      the order in which uncovered positives are taken

    Returns
    -------
    uint64[n_A, W]: the boundary points, none covering another.
    """
    n_pos, W = pos.shape
    n_neg = neg.shape[0]
    d_plus0 = np.zeros(n_bits, dtype=np.int64)
    for k in range(n_pos):
        for i in range(n_bits):
            if _bit(pos[k], i) == 0:
                d_plus0[i] += 1
    uncovered = np.ones(n_pos, dtype=np.bool_)
    points = np.zeros((n_pos, W), dtype=np.uint64)
    n_points = 0
    c = np.empty(n_neg, dtype=np.int64)
    s0 = np.zeros(n_bits, dtype=np.int64)
    dist = np.empty(n_bits, dtype=np.int64)
    in_i = np.zeros(n_bits, dtype=np.bool_)
    in_j = np.zeros(n_bits, dtype=np.bool_)
    for t in range(order.shape[0]):
        x_idx = order[t]
        if not uncovered[x_idx]:
            continue
        p = pos[x_idx].copy()
        s0[:] = 0
        for k in range(n_pos):
            if uncovered[k]:
                for i in range(n_bits):
                    if _bit(pos[k], i) == 0:
                        s0[i] += 1
        for i in range(n_bits):
            in_i[i] = _bit(p, i) == 1
            in_j[i] = False
        in_conflict = False
        for k in range(n_neg):
            c[k] = distance(p, neg[k])
            if c[k] == 0:
                in_conflict = True
        if in_conflict:
            # the record itself lies below a negative one: no boundary point can cover it
            uncovered[x_idx] = False
            continue
        while True:
            # d_l(p, D-_i^0) for every candidate bit
            for i in range(n_bits):
                dist[i] = INF
            for k in range(n_neg):
                for i in range(n_bits):
                    if in_i[i] and _bit(neg[k], i) == 0 and c[k] < dist[i]:
                        dist[i] = c[k]
            n_left = 0
            for i in range(n_bits):
                if in_i[i] and dist[i] <= 1:
                    in_i[i] = False          # flipping it off would meet a negative
                    in_j[i] = True
                elif in_i[i]:
                    n_left += 1
            if n_left == 0:
                break
            best = -1
            for i in range(n_bits):
                if not in_i[i]:
                    continue
                if best < 0:
                    best = i
                    continue
                if heuristic == 1:
                    a = (s0[i], d_plus0[i], dist[i])
                    b = (s0[best], d_plus0[best], dist[best])
                else:
                    a = (dist[i], s0[i], d_plus0[i])
                    b = (dist[best], s0[best], d_plus0[best])
                if a > b:
                    best = i
            in_i[best] = False
            p[best >> 6] &= ~(np.uint64(1) << np.uint64(best & 63))
            for k in range(n_neg):
                if _bit(neg[k], best) == 0:
                    c[k] -= 1
        # p now holds exactly the bits of J
        redundant = False
        for q in range(n_points):
            if covers(points[q], p):
                redundant = True
                break
        if not redundant:
            points[n_points] = p
            n_points += 1
        for k in range(n_pos):
            if uncovered[k]:
                for q in range(n_points):
                    if covers(points[q], pos[k]):
                        uncovered[k] = False
                        break
    return points[:n_points].copy()
