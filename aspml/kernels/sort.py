"""A stable argsort for float64 arrays: LSD radix sort on order-preserving integer keys.

numpy's stable sort is a timsort, O(n log n) comparisons; sorting every
numeric feature once is the largest fixed cost of FOLD on a million rows.  A
radix sort over 16-bit digits makes four O(n) passes (fewer when the high
digits are constant, as for small numbers), and is stable, so it returns
exactly ``np.argsort(values, kind="stable")`` for values without NaN.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def _keys(values):
    """Unsigned keys whose order is the order of the floats (no NaN)."""
    bits = values.view(np.uint64)
    keys = np.empty(bits.shape[0], dtype=np.uint64)
    sign = np.uint64(1) << np.uint64(63)
    for i in range(bits.shape[0]):
        b = bits[i]
        if values[i] == 0.0:          # -0.0 and 0.0 are one value
            b = np.uint64(0)
        keys[i] = ~b if b & sign else b | sign
    return keys


# Below this many keys a merge sort is faster than the radix passes, whose 65,536 buckets
# cost about 0.1 ms a pass however few the keys (this 2-core machine, uint64 keys of
# normal floats at three decimals: 100 keys 2 us against 97 us, 2,000 keys 61 against
# 113 us, 5,000 keys 194 against 149 us; ``python benchmarks/parallel.py --sort``).
RADIX_MIN = 3_000


@numba.njit(cache=True)
def _radix(keys):
    """Stable argsort of uint64 keys: a counting sort when they span fewer than about
    twice as many values as there are keys (:func:`_counting`), else
    :func:`_radix_passes`, or below ``RADIX_MIN`` keys a stable merge sort (the same
    order)."""
    n = keys.shape[0]
    if n > 1:
        lo = keys[0]
        hi = keys[0]
        for i in range(1, n):
            if keys[i] < lo:
                lo = keys[i]
            if keys[i] > hi:
                hi = keys[i]
        if hi - lo < np.uint64(2 * n + 256):
            return _counting(keys, lo, np.int64(hi - lo) + 1)
        if n < RADIX_MIN:
            return np.argsort(keys, kind="mergesort").astype(np.int64)
        return _radix_passes(keys, lo, hi)
    return np.arange(n, dtype=np.int64)


@numba.njit(cache=True)
def _counting(keys, lo, span):
    """Stable argsort of keys in ``lo .. lo + span - 1``: one count a key value.  Whole
    numbers of a small range (counts, ages, codes: most columns of a table) sort in two
    passes however few they are (1,700 rows x 21 such columns: 0.9 ms by merge sort
    in parallel, 0.1 ms so)."""
    n = keys.shape[0]
    counts = np.zeros(span + 1, dtype=np.int64)
    for i in range(n):
        counts[np.int64(keys[i] - lo) + 1] += 1
    for d in range(span):
        counts[d + 1] += counts[d]
    order = np.empty(n, dtype=np.int64)
    for i in range(n):
        d = np.int64(keys[i] - lo)
        order[counts[d]] = i
        counts[d] += 1
    return order


@numba.njit(cache=True)
def _radix_passes(keys, lo, hi):
    """Stable argsort of uint64 keys (the least ``lo``, the largest ``hi``), 16 bits a
    pass; passes where a digit is constant are skipped."""
    n = keys.shape[0]
    order = np.arange(n, dtype=np.int64)
    tmp = np.empty(n, dtype=np.int64)
    counts = np.empty(65536, dtype=np.int64)
    for shift in range(0, 64, 16):
        s = np.uint64(shift)
        if (lo >> s) == (hi >> s) and ((lo >> s) & np.uint64(0xFFFF)) == ((hi >> s) & np.uint64(0xFFFF)):
            # every key agrees on this digit and above: nothing left to order
            break
        counts[:] = 0
        for i in range(n):
            counts[(keys[i] >> s) & np.uint64(0xFFFF)] += 1
        total = 0
        for d in range(65536):
            c = counts[d]
            counts[d] = total
            total += c
        for k in range(n):
            i = order[k]
            d = (keys[i] >> s) & np.uint64(0xFFFF)
            tmp[counts[d]] = i
            counts[d] += 1
        order, tmp = tmp, order
    return order


@numba.njit(cache=True)
def argsort_float(values):
    """Stable argsort of a float64 array without NaN (int64 indices)."""
    return _radix(_keys(values))


@numba.njit(cache=True)
def argsort_scaled(values, scale):
    """Stable argsort of floats that are exact at ``scale`` (``values * scale`` integral).

    The keys are the scaled integers shifted to start at zero, so data with a
    small range (two decimals in [0, 100]: 14 bits) sorts in one pass.
    """
    n = values.shape[0]
    keys = np.empty(n, dtype=np.uint64)
    if n == 0:
        return np.arange(0, dtype=np.int64)
    ints = np.empty(n, dtype=np.int64)
    lo = np.int64(0)
    for i in range(n):
        ints[i] = np.int64(np.round(values[i] * scale))
        if i == 0 or ints[i] < lo:
            lo = ints[i]
    for i in range(n):
        keys[i] = np.uint64(ints[i] - lo)
    return _radix(keys)
