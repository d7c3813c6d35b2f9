"""Coverage of candidate rules as packed bitsets over rows, for LIBRE's set cover.

A coded table (each row's bin per feature) becomes one bitset per bin over
the rows (``row_sets``); a candidate rule, given as the bins it allows
(``allowed``: bool per bin, all of a feature's bins for a feature it does not
constrain), covers the rows in ``AND over features of (OR over allowed bins)``
(``rule_masks``).  Bit ``r`` of a bitset is bit ``r % 64`` of word ``r // 64``,
the layout of :func:`aspml.kernels.bitset.pack`, so ``np.bitwise_count`` counts rows.
"""

from __future__ import annotations

import heapq

import numba
import numpy as np

from .bitset import popcount, weighted_count


@numba.njit(cache=True, nogil=True)
def row_sets(codes, offsets, n_bits):
    """One bitset over the rows for each bin: bit ``r`` of set ``offsets[f] + codes[r, f]``."""
    n, n_f = codes.shape
    sets = np.zeros((n_bits, (n + 63) // 64), dtype=np.uint64)
    for r in range(n):
        word, bit = r >> 6, np.uint64(1) << np.uint64(r & 63)
        for f in range(n_f):
            sets[offsets[f] + codes[r, f], word] |= bit
    return sets


@numba.njit(cache=True, nogil=True)
def _running_or(sets, offsets, widths):
    """``upto[b]``: the rows in a feature's bins up to ``b`` (a running OR)."""
    n_w = sets.shape[1]
    upto = np.empty_like(sets)
    for f in range(widths.shape[0]):
        o = offsets[f]
        upto[o, :] = sets[o, :]
        for b in range(o + 1, o + widths[f]):
            for k in range(n_w):
                upto[b, k] = upto[b - 1, k] | sets[b, k]
    return upto


@numba.njit(cache=True, nogil=True)
def _mask(upto, allowed_row, offsets, widths, n_rows, out, acc):
    """One candidate's rows into ``out`` (``acc``: scratch of the same length)."""
    n_w = out.shape[0]
    out[:] = ~np.uint64(0)
    for f in range(widths.shape[0]):
        o, w = offsets[f], widths[f]
        n_allowed = 0
        for b in range(o, o + w):
            if allowed_row[b]:
                n_allowed += 1
        if n_allowed == w:
            continue                     # the feature is not constrained
        acc[:] = 0
        b = o
        while b < o + w:
            if not allowed_row[b]:
                b += 1
                continue
            start = b
            while b + 1 < o + w and allowed_row[b + 1]:
                b += 1
            if start == o:
                for k in range(n_w):
                    acc[k] |= upto[b, k]
            else:
                for k in range(n_w):
                    acc[k] |= upto[b, k] & ~upto[start - 1, k]
            b += 1
        for k in range(n_w):
            out[k] &= acc[k]
    if n_rows % 64:                      # no bits past the last row
        out[n_w - 1] &= (np.uint64(1) << np.uint64(n_rows % 64)) - np.uint64(1)


@numba.njit(cache=True, nogil=True)
def rule_masks(sets, allowed, offsets, widths, n_rows):
    """The rows each candidate covers: ``allowed`` is bool[candidates, bins].

    A row lies in exactly one bin per feature, so the rows in a run of
    consecutive bins ``a..b`` are ``upto[b] & ~upto[a - 1]`` with ``upto`` the
    running OR of a feature's bins: a few word operations per run of allowed
    bins, not one per bin.
    """
    n_c = allowed.shape[0]
    n_w = sets.shape[1]
    upto = _running_or(sets, offsets, widths)
    out = np.empty((n_c, n_w), dtype=np.uint64)
    acc = np.empty(n_w, dtype=np.uint64)
    for c in range(n_c):
        _mask(upto, allowed[c], offsets, widths, n_rows, out[c], acc)
    return out


@numba.njit(cache=True, nogil=True)
def rule_counts(sets, allowed, offsets, widths, n_rows, pos_planes, neg_planes):
    """Positive and negative rows each candidate covers, as :func:`rule_masks` then
    :func:`aspml.kernels.bitset.counts` would give, keeping one mask at a time."""
    n_c = allowed.shape[0]
    n_w = sets.shape[1]
    upto = _running_or(sets, offsets, widths)
    out = np.empty(n_w, dtype=np.uint64)
    acc = np.empty(n_w, dtype=np.uint64)
    tp = np.zeros(n_c, dtype=np.int64)
    fp = np.zeros(n_c, dtype=np.int64)
    for c in range(n_c):
        _mask(upto, allowed[c], offsets, widths, n_rows, out, acc)
        tp[c] = weighted_count(out, pos_planes)
        fp[c] = weighted_count(out, neg_planes)
    return tp, fp


@numba.njit(cache=True, nogil=True)
def greedy_cover(masks, pos, fp, zeros, sizes, keep, alpha, room, stop_on_train_f1):
    """Greedy weighted set cover over candidates' row bitsets: the chosen indices, in order.

    Weight ``alpha * (positives newly covered) - (1 - alpha) * (negatives
    covered)``; the best weight wins, ties go to more ``zeros`` (the more
    general rule), then to the lower index.  It stops when the best weight or
    gain is 0, when the chosen ``sizes`` would pass ``room`` (``room < 0``: no
    bound), or, with ``stop_on_train_f1``, when a choice would not raise the
    training F1.  (A cross-validated stopping point cuts the returned order.)

    Lazy evaluation: a weight only falls as positives get covered, so a stale
    heap key is an upper bound, and a candidate whose fresh key still beats
    every stale key is the one the plain greedy would take.
    """
    n_w = pos.shape[0]
    uncovered = pos.copy()
    covered = np.zeros(n_w, dtype=np.uint64)
    n_pos = 0
    for k in range(n_w):
        n_pos += popcount(pos[k])
    heap = [(0.0, 0, 0) for _ in range(0)]
    for c in keep:
        gain = 0
        for k in range(n_w):
            gain += popcount(masks[c, k] & pos[k])
        heap.append((-(alpha * gain - (1 - alpha) * fp[c]), -zeros[c], c))
    heapq.heapify(heap)
    chosen = np.empty(len(keep), dtype=np.int64)
    n_chosen = 0
    best_f1 = 0.0
    left = room
    while len(heap) > 0 and (room < 0 or left > 0):
        item = heapq.heappop(heap)
        c = item[2]
        if room >= 0 and sizes[c] > left:
            continue                             # too big for what is left; room only shrinks
        gain = 0
        for k in range(n_w):
            gain += popcount(masks[c, k] & uncovered[k])
        fresh = (-(alpha * gain - (1 - alpha) * fp[c]), -zeros[c], c)
        if len(heap) > 0 and fresh > heap[0]:
            heapq.heappush(heap, fresh)
            continue
        if -fresh[0] <= 0 or gain == 0:
            break
        if stop_on_train_f1:
            tp_u = 0
            n_u = 0
            for k in range(n_w):
                u = covered[k] | masks[c, k]
                tp_u += popcount(u & pos[k])
                n_u += popcount(u)
            f1 = 2.0 * tp_u / (n_u + n_pos)
            if f1 <= best_f1:
                break                            # the training F1 stops rising
            best_f1 = f1
            for k in range(n_w):
                covered[k] |= masks[c, k]
        chosen[n_chosen] = c
        n_chosen += 1
        left -= sizes[c]
        for k in range(n_w):
            uncovered[k] &= ~masks[c, k]
    return chosen[:n_chosen].copy()
