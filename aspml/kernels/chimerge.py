"""ChiMerge's merge loop (Kerber 1992) over the class counts of sorted distinct values."""

from __future__ import annotations

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
        if e != e or e == np.inf:           # row * col overflowed (weights past 1e154):
            e = row * (col / n)             # a finite expectation, so a key of inf, not NaN
        if e == 0.0:
            e = 0.1
        total += (obs - e) ** 2 / e
    return total if total == total else np.inf      # never NaN: NaN keys would not sort


ARITY = 4   # children per heap node: a node's children share a cache line, and the heap is
            # half as deep (a million intervals merge 2.1x faster than in a binary heap
            # reading its keys through the pair's index)

# The heap is one float64 array of (key, pair) entries side by side: slot s holds its
# chi-square at h[2s] and its pair (the left interval's index, exact as a float below
# 2**53) at h[2s + 1], so that reading a slot's children reads one stretch of memory.


@numba.njit(cache=True, inline="always")
def _less(ka, ia, kb, ib):
    """Pair ``ia`` keyed ``ka`` comes before pair ``ib``: lower chi-square, then the left
    interval."""
    return ka < kb or (ka == kb and ia < ib)


@numba.njit(cache=True)
def _up(h, where, k):
    """Move the entry at slot ``k`` up while it comes before its parent; returns its slot."""
    key, i = h[2 * k], h[2 * k + 1]
    while k > 0:
        parent = (k - 1) // ARITY
        if not _less(key, i, h[2 * parent], h[2 * parent + 1]):
            break
        h[2 * k] = h[2 * parent]
        h[2 * k + 1] = h[2 * parent + 1]
        where[np.int64(h[2 * k + 1])] = k
        k = parent
    h[2 * k] = key
    h[2 * k + 1] = i
    where[np.int64(i)] = k
    return k


@numba.njit(cache=True)
def _down(h, where, k, size):
    """Move the entry at slot ``k`` down while a child comes before it."""
    key, i = h[2 * k], h[2 * k + 1]
    while True:
        first = ARITY * k + 1
        if first >= size:
            break
        c, ck, ci = first, h[2 * first], h[2 * first + 1]
        for q in range(first + 1, min(first + ARITY, size)):
            if _less(h[2 * q], h[2 * q + 1], ck, ci):
                c, ck, ci = q, h[2 * q], h[2 * q + 1]
        if not _less(ck, ci, key, i):
            break
        h[2 * k] = ck
        h[2 * k + 1] = ci
        where[np.int64(ci)] = k
        k = c
    h[2 * k] = key
    h[2 * k + 1] = i
    where[np.int64(i)] = k


@numba.njit(cache=True)
def _rekey(h, where, i, key, size):
    """Pair ``i`` now has chi-square ``key``: restore the heap order around it."""
    k = where[i]
    lower = _less(key, i, h[2 * k], i)
    h[2 * k] = key
    if lower:
        _up(h, where, k)
    else:
        _down(h, where, k, size)


@numba.njit(cache=True)
def _remove(h, where, i, size):
    """Take pair ``i`` out of the heap; returns the new size."""
    k = where[i]
    size -= 1
    where[i] = -1
    if k != size:
        h[2 * k] = h[2 * size]
        h[2 * k + 1] = h[2 * size + 1]
        _down(h, where, _up(h, where, k), size)
    return size


@numba.njit(cache=True, inline="always")
def _pair_key(count, rows, a, b, min_rows, small):
    """The heap key of the pair of intervals ``a``, ``b``: their chi-square; in the
    small-first phase (``small``), a pair with an interval of fewer than ``min_rows``
    rows keys ``-1 - 1 / (1 + chi-square)`` instead: in [-2, -1], below every other key
    (chi-squares, >= 0) and in the same order among themselves, but for chi-squares a
    few units of rounding apart, which may key alike (the leftmost pair then first)."""
    c = chi_square(count[2 * a], count[2 * a + 1], count[2 * b], count[2 * b + 1])
    if small and (rows[a] < min_rows or rows[b] < min_rows):
        return -1.0 - 1.0 / (1.0 + c)
    return c


@numba.njit(cache=True, nogil=True)
def merge(neg, pos, threshold, max_bins, rows=None, min_rows=0.0):
    """Which intervals survive: repeatedly merge the adjacent pair with the lowest
    chi-square (ties: the leftmost) while it is below ``threshold`` or there are
    more than ``max_bins`` intervals (``max_bins <= 0``: no such bound).
    ``neg``/``pos`` are the class counts of the initial intervals, in order;
    returns bool[alive].

    ``rows`` (the initial intervals' row counts) and ``min_rows`` > 0: once no pair
    is below ``threshold``, an interval of fewer than ``min_rows`` rows merges
    first, with the neighbour whose chi-square is lower (the lowest such pair
    first), until none is left; then ``max_bins`` as before.  Below the threshold
    nothing changes.  Kerber's test cannot tell a bin of a row or two from chance
    (its expected counts are far below 1, floored at 0.1), and such a bin holding a
    row of the rarer class scores high against a long run of the other: on a rare
    class of pure noise, single rows became bins and LIBRE's rules picked them out.

    Each live pair (named by its left interval) sits once in an indexed
    ``ARITY``-ary heap that holds its key beside it; a merge removes one pair and
    re-keys the two beside it.  An interval's two counts lie side by side
    (``count[2i]``, ``count[2i + 1]``), and so do its links (``link[2i]`` the next
    interval, ``link[2i + 1]`` the previous): a merge reads a few cache lines, not
    one per array (about 10% faster on a million intervals).
    """
    k = neg.shape[0]
    if k < 2:
        return np.ones(k, dtype=np.bool_)
    count = np.empty(2 * k, dtype=np.float64)
    link = np.empty(2 * k, dtype=np.int64)
    for i in range(k):
        count[2 * i] = neg[i]
        count[2 * i + 1] = pos[i]
        link[2 * i] = i + 1
        link[2 * i + 1] = i - 1
    link[2 * (k - 1)] = -1
    by_rows = rows is not None and min_rows > 0.0
    n_rows = np.zeros(k if by_rows else 0, dtype=np.float64)
    if rows is not None and by_rows:
        for i in range(k):
            n_rows[i] = rows[i]
    small = False                         # in the small-first phase
    alive = np.ones(k, dtype=np.bool_)
    h = np.empty(2 * k, dtype=np.float64)
    where = np.full(k, -1, dtype=np.int64)
    size = k - 1
    for i in range(k - 1):
        h[2 * i] = chi_square(count[2 * i], count[2 * i + 1], count[2 * i + 2], count[2 * i + 3])
        h[2 * i + 1] = i
        where[i] = i
    for q in range((size - 2) // ARITY, -1, -1):       # heapify
        _down(h, where, q, size)
    n_bins = k
    while size > 0:
        i = np.int64(h[1])
        if h[0] >= threshold:
            if by_rows and not small:     # the threshold is reached: small intervals first
                small = True
                for q in range(size):
                    a = np.int64(h[2 * q + 1])
                    h[2 * q] = _pair_key(count, n_rows, a, link[2 * a], min_rows, True)
                for q in range((size - 2) // ARITY, -1, -1):
                    _down(h, where, q, size)
                continue
            if max_bins <= 0 or n_bins <= max_bins:
                break
        j = link[2 * i]                   # merge j into i
        count[2 * i] += count[2 * j]
        count[2 * i + 1] += count[2 * j + 1]
        if by_rows:
            n_rows[i] += n_rows[j]
        alive[j] = False
        if where[j] >= 0:
            size = _remove(h, where, j, size)
        after = link[2 * j]
        link[2 * i] = after
        if after >= 0:
            link[2 * after + 1] = i
        n_bins -= 1
        if after >= 0:
            _rekey(h, where, i, _pair_key(count, n_rows, i, after, min_rows, small), size)
        else:
            size = _remove(h, where, i, size)
        p = link[2 * i + 1]
        if p >= 0:
            _rekey(h, where, p, _pair_key(count, n_rows, p, i, min_rows, small), size)
    return alive


@numba.njit(cache=True, nogil=True)
def chimerge_cuts(v, t, order, threshold, max_bins, weights=None, min_rows=0.0):
    """ChiMerge without the GIL from the numbers ``v`` (no NaN), their classes ``t``
    and the order that sorts ``v``: the distinct values with their class counts,
    then :func:`merge` (``min_rows``: its small-first phase, in rows or, weighted, their
    weight: a row of weight 2 is two rows, as its two copies would be); returns the cut points (the lower ends of the surviving intervals but
    the first).  With ``weights`` (float64 per number) the class counts sum the
    weights."""
    w = np.empty(0) if weights is None else weights
    n = v.shape[0]
    uniq = np.empty(n, dtype=np.float64)
    pos = np.zeros(n, dtype=np.float64)
    neg = np.zeros(n, dtype=np.float64)
    rows = np.zeros(n, dtype=np.float64)
    k = -1
    for q in range(n):
        r = order[q]
        if k < 0 or v[r] != uniq[k]:
            k += 1
            uniq[k] = v[r] + 0.0            # -0.0 reads 0.0: the same cut whichever comes first
        one = 1.0 if w.shape[0] == 0 else w[r]
        rows[k] += one
        if t[r]:
            pos[k] += one
        else:
            neg[k] += one
    k += 1
    if k <= 1:
        return np.zeros(0, dtype=np.float64)
    start = _pure_runs(neg, pos, k, threshold)
    if start.shape[0] == 0:
        alive = merge(neg[:k], pos[:k], threshold, max_bins, rows[:k], min_rows)
        return uniq[:k][alive][1:].copy()
    m = start.shape[0]                          # merge the runs' counts, then the runs
    run_neg = np.zeros(m, dtype=np.float64)
    run_pos = np.zeros(m, dtype=np.float64)
    run_rows = np.zeros(m, dtype=np.float64)
    for r in range(m):
        end = start[r + 1] if r + 1 < m else k
        for i in range(start[r], end):
            run_neg[r] += neg[i]
            run_pos[r] += pos[i]
            run_rows[r] += rows[i]
    alive = merge(run_neg, run_pos, threshold, max_bins, run_rows, min_rows)
    return uniq[start[alive]][1:].copy()


@numba.njit(cache=True, nogil=True)
def sorted_bins(v, order, cuts):
    """Each number's bin, how many of the sorted ``cuts`` are at most it (numpy's
    ``searchsorted(cuts, v, side="right")``), walking ``v`` in the ``order`` that sorts it."""
    out = np.empty(v.shape[0], dtype=np.int64)
    b = 0
    for q in range(order.shape[0]):
        r = order[q]
        while b < cuts.shape[0] and v[r] >= cuts[b]:
            b += 1
        out[r] = b
    return out


# chi_square of two adjacent intervals of one class each, the same class: 0.1 + 0.1 from
# the two empty cells whatever the counts (their other cells are exactly as expected)
SAME_CLASS_CHI = 0.2


@numba.njit(cache=True)
def _pure_runs(neg, pos, k, threshold):
    """Where ChiMerge may merge runs first: when every one of the ``k`` distinct values is
    of one class (as on continuous columns, whose values seldom repeat) and ``threshold``
    is above 0.2, the first index of each run of adjacent values of the same class; else
    an empty array.

    Exact: while every interval is of one class, a pair of the same class has chi-square
    0.2 (:data:`SAME_CLASS_CHI`) and a pair of two classes its row count (its weight, kept
    above 0.4 here: every value must weigh more than 0.2), so the
    heap of :func:`merge` pops every same-class pair before any other pair, each merge
    leaving intervals of one class (and pairs keyed 0.2 or above 0.4) behind; below the
    threshold it does not stop for ``max_bins``.  It thus merges each run into its first
    value, then goes on from the runs, whose pairs it orders by (chi-square, first
    value) as before.  A million distinct values in 400k runs merge in half the time.
    The weights must sum to less than 2**40: beyond, ``a * n / n`` in floating point is no
    longer ``a`` closely enough, and same-class keys part from 0.2 (a reviewer's case at
    1e16 gave other cuts).
    """
    empty = np.zeros(0, dtype=np.int64)
    if not threshold > SAME_CLASS_CHI + 1e-9:
        return empty
    total = 0.0
    for i in range(k):
        if (neg[i] > 0) == (pos[i] > 0):        # both classes, or a weight of 0
            return empty
        if neg[i] + pos[i] <= SAME_CLASS_CHI:   # light weights: two classes could key less
            return empty
        total += neg[i] + pos[i]
    if not total < 2.0 ** 40:                   # a * n / n is a again, exactly enough
        return empty
    m = 1
    for i in range(1, k):
        if (pos[i] > 0) != (pos[i - 1] > 0):
            m += 1
    if m == k:                                  # no two neighbours of one class
        return empty
    start = np.empty(m, dtype=np.int64)
    start[0] = 0
    r = 1
    for i in range(1, k):
        if (pos[i] > 0) != (pos[i - 1] > 0):
            start[r] = i
            r += 1
    return start
