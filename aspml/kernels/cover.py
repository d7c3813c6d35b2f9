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
def rule_counts(sets, allowed, offsets, widths, n_rows, pos_planes, neg_planes, weights=None):
    """Positive and negative rows each candidate covers, as :func:`rule_masks` then
    :func:`aspml.kernels.bitset.counts` would give, keeping one mask at a time.
    With ``weights`` (float64 per row; the planes then one plane per class) the
    rows' weights are summed instead (two float64 arrays)."""
    n_c = allowed.shape[0]
    n_w = sets.shape[1]
    upto = _running_or(sets, offsets, widths)
    out = np.empty(n_w, dtype=np.uint64)
    acc = np.empty(n_w, dtype=np.uint64)
    tp = np.zeros(n_c, dtype=np.float64)
    fp = np.zeros(n_c, dtype=np.float64)
    w = np.empty(0) if weights is None else weights
    for c in range(n_c):
        _mask(upto, allowed[c], offsets, widths, n_rows, out, acc)
        if w.shape[0] == 0:
            tp[c] = weighted_count(out, pos_planes)
            fp[c] = weighted_count(out, neg_planes)
        else:
            for k in range(n_w):
                tp[c] += _weight_of(out[k] & pos_planes[0, k], k, w)
                fp[c] += _weight_of(out[k] & neg_planes[0, k], k, w)
    return tp, fp


_DEBRUIJN = 0x03F79D71B4CB0A89
_CTZ = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _CTZ[(((1 << _i) * _DEBRUIJN) & (2**64 - 1)) >> 58] = _i


@numba.njit(cache=True)
def _low_bit(low):
    """The index of the one set bit of ``low`` (a de Bruijn multiplication); callers
    walk a word's bits in place: ``low = w & -w``, then ``w ^= low``."""
    return _CTZ[(low * np.uint64(_DEBRUIJN)) >> np.uint64(58)]


@numba.njit(cache=True)
def _weight_of(word, k, weights):
    """The rows of word ``k`` set in ``word``: their number (``weights`` None: numba
    compiles that case apart, a popcount), else the sum of their weights (bits in
    ascending order, so the sum is reproducible)."""
    if weights is None:
        return float(popcount(word))
    total = 0.0
    while word != 0:
        low = word & (~word + np.uint64(1))
        total += weights[k * 64 + _low_bit(low)]
        word ^= low
    return total


@numba.njit(cache=True)
def _weight_and(a, b, weights):
    """The rows set in both bitsets ``a`` and ``b``: their number, counted in integers
    (``weights`` None), else the sum of their weights (see :func:`_weight_of`)."""
    if weights is None:
        n = 0
        for k in range(a.shape[0]):
            n += popcount(a[k] & b[k])
        return float(n)
    total = 0.0
    for k in range(a.shape[0]):
        total += _weight_of(a[k] & b[k], k, weights)
    return total


ROWS_BUDGET = 1 << 26      # row-candidate pairs the exact set cover may list (int32 each)


@numba.njit(cache=True, nogil=True)
def greedy_cover(masks, pos, neg, zeros, sizes, keep, wp, wn, room, stop_on_train_f1,
                 budget=ROWS_BUDGET, weights=None):
    """Greedy weighted set cover over candidates' row bitsets: the chosen indices, in order.

    LIBRE §3.3: a candidate weighs ``wp * (positives it covers) - wn * (negatives
    it covers)`` (integers: ``alpha = wp / (wp + wn)``, so weights compare
    exactly), counting only rows no chosen candidate covers yet
    ("all samples covered by the selected element are removed, and the weights
    are recalculated").  The best weight wins, ties go to more ``zeros`` (the
    more general rule), then to the lower index.  It stops when the best weight
    or gain is 0, when the chosen ``sizes`` would pass ``room`` (``room < 0``: no
    bound), or, with ``stop_on_train_f1``, when a choice would not raise the
    training F1.  (A cross-validated stopping point cuts the returned order.)

    When the candidates cover at most ``budget`` rows in all, every weight is
    kept exact through a list of the candidates covering each row
    (:func:`_cover_by_rows`); else weights are bounded and counted lazily
    (:func:`_cover_lazy`).  Both take what the plain greedy takes.

    ``weights`` (float64, one per row) makes a row count as its weight (a row
    of weight 2 as two copies); without it every row counts 1.  Counts are
    float64 either way: sums of whole numbers in a float are exact, so the
    unweighted choices are the integer ones.
    """
    total = np.int64(0)
    for c in keep:
        for k in range(masks.shape[1]):
            total += popcount(masks[c, k])
    if total <= budget:
        return _cover_by_rows(masks, pos, neg, zeros, sizes, keep, wp, wn, room,
                              stop_on_train_f1, total, weights)
    return _cover_lazy(masks, pos, neg, zeros, sizes, keep, wp, wn, room, stop_on_train_f1,
                       weights)


@numba.njit(cache=True, nogil=True)
def _cover_by_rows(masks, pos, neg, zeros, sizes, keep, wp, wn, room, stop_on_train_f1, total,
                   weights):
    """:func:`greedy_cover` with exact weights: each row lists the candidates covering
    it, so a chosen candidate's newly covered rows lower just those candidates'
    counts; a step is then one pass over the candidates' weights."""
    n_c = keep.shape[0]
    n_w = masks.shape[1]
    n_rows = n_w * 64
    start = np.zeros(n_rows + 1, dtype=np.int64)
    for q in range(n_c):
        for k in range(n_w):
            w = masks[keep[q], k]
            while w != 0:
                low = w & (~w + np.uint64(1))
                start[k * 64 + _low_bit(low) + 1] += 1
                w ^= low
    for r in range(n_rows):
        start[r + 1] += start[r]
    members = np.empty(total, dtype=np.int32)
    fill = start[:-1].copy()
    g = np.zeros(n_c, dtype=np.float64)
    f = np.zeros(n_c, dtype=np.float64)
    for q in range(n_c):
        for k in range(n_w):
            w = masks[keep[q], k]
            g[q] += _weight_of(w & pos[k], k, weights)
            f[q] += _weight_of(w & neg[k], k, weights)
            while w != 0:
                low = w & (~w + np.uint64(1))
                r = k * 64 + _low_bit(low)
                members[fill[r]] = q
                fill[r] += 1
                w ^= low
    n_pos = 0.0
    for k in range(n_w):
        n_pos += _weight_of(pos[k], k, weights)
    uncovered = np.empty(n_w, dtype=np.uint64)
    for k in range(n_w):
        uncovered[k] = pos[k] | neg[k]
    alive = np.ones(n_c, dtype=np.bool_)
    chosen = np.empty(n_c, dtype=np.int64)
    n_chosen = 0
    tp_u = 0.0                                   # positives and rows the chosen ones cover
    n_u = 0.0
    best_f1 = 0.0
    left = room
    while room < 0 or left > 0:
        best = -1
        best_key = 0.0
        for q in range(n_c):
            if not alive[q]:
                continue
            c = keep[q]
            if room >= 0 and sizes[c] > left:
                alive[q] = False                 # too big for what is left; room only shrinks
                continue
            key = wp * g[q] - wn * f[q]
            if best < 0 or key > best_key or (key == best_key and (
                    zeros[c] > zeros[keep[best]]
                    or (zeros[c] == zeros[keep[best]] and c < keep[best]))):
                best = q
                best_key = key
        if best < 0 or wp * g[best] - wn * f[best] <= 0 or g[best] == 0:
            break
        if stop_on_train_f1:
            f1 = 2.0 * (tp_u + g[best]) / (n_u + g[best] + f[best] + n_pos)
            if f1 <= best_f1:
                break                            # the training F1 stops rising
            best_f1 = f1
        tp_u += g[best]
        n_u += g[best] + f[best]
        c = keep[best]
        chosen[n_chosen] = c
        n_chosen += 1
        alive[best] = False
        left -= sizes[c]
        for k in range(n_w):
            w = masks[c, k] & uncovered[k]           # the rows it newly covers
            uncovered[k] &= ~masks[c, k]
            while w != 0:
                low = w & (~w + np.uint64(1))
                r = k * 64 + _low_bit(low)
                counts = g if pos[k] & low else f
                one = 1.0 if weights is None else weights[r]
                for m in range(start[r], start[r + 1]):
                    counts[members[m]] -= one
                w ^= low
    return chosen[:n_chosen].copy()


@numba.njit(cache=True, nogil=True)
def _cover_lazy(masks, pos, neg, zeros, sizes, keep, wp, wn, room, stop_on_train_f1, weights):
    """:func:`greedy_cover` for many rows: lazy evaluation.

    Lazy evaluation: a candidate's positives only fall, and its negatives fall
    by at most the negatives covered since its weight was computed (``nc``, the
    same for every candidate).  So ``weight - wn * nc_then`` is a key
    whose heap order is the order of upper bounds on the fresh weights, and a
    candidate whose fresh key still beats every stale key is the one the plain
    greedy would take.  ``wp * (positives when last counted) - wn * nc``
    is a bound too, tighter for a candidate with few positives, tried before
    counting again.  Keys are exact integers, so equal weights tie and the
    tie-break decides.  Rows outside ``pos | neg`` count for nothing.
    """
    n_w = pos.shape[0]
    upos = pos.copy()
    uneg = neg.copy()
    n_pos = _weight_and(pos, pos, weights)
    heap = [(np.float64(0), np.int64(0), np.int64(0)) for _ in range(0)]
    g_last = np.zeros(masks.shape[0], dtype=np.float64)   # positives when last counted
    for c in keep:
        g = _weight_and(masks[c], pos, weights)
        f = _weight_and(masks[c], neg, weights)
        g_last[c] = g
        heap.append((-(wp * g - wn * f), -zeros[c], c))
    heapq.heapify(heap)
    chosen = np.empty(len(keep), dtype=np.int64)
    n_chosen = 0
    pc = 0.0                                     # positives and negatives covered so far
    nc = 0.0
    best_f1 = 0.0
    left = room
    while len(heap) > 0 and (room < 0 or left > 0):
        item = heapq.heappop(heap)
        c = item[2]
        if room >= 0 and sizes[c] > left:
            continue                             # too big for what is left; room only shrinks
        # a cheaper bound first: the positives it had when last counted, no negatives
        cheap = -(wp * g_last[c] - wn * nc)
        if cheap > item[0]:
            bound = (cheap, item[1], c)
            if len(heap) > 0 and bound > heap[0]:
                heapq.heappush(heap, bound)
                continue
        g = _weight_and(masks[c], upos, weights)
        f = _weight_and(masks[c], uneg, weights)
        g_last[c] = g
        weight = wp * g - wn * f
        fresh = (-(weight - wn * nc), -zeros[c], c)
        if len(heap) > 0 and fresh > heap[0]:
            heapq.heappush(heap, fresh)
            continue
        if weight <= 0 or g == 0:
            break
        if stop_on_train_f1:                     # g, f: exactly the rows it adds
            f1 = 2.0 * (pc + g) / (pc + g + nc + f + n_pos)
            if f1 <= best_f1:
                break                            # the training F1 stops rising
            best_f1 = f1
        chosen[n_chosen] = c
        n_chosen += 1
        left -= sizes[c]
        pc += g
        nc += f
        for k in range(n_w):
            upos[k] &= ~masks[c, k]
            uneg[k] &= ~masks[c, k]
    return chosen[:n_chosen].copy()


@numba.njit(cache=True)
def first_true(rows, idx):
    """For each column of ``rows`` (rules x rows, bool), the first ``k`` whose row
    ``idx[k]`` holds there, or -1 (a select a cell, no branch on the data)."""
    n = rows.shape[1]
    first = np.full(n, -1, dtype=np.int64)
    for k in range(idx.shape[0] - 1, -1, -1):
        row = rows[idx[k]]
        for i in range(n):
            first[i] = k if row[i] else first[i]
    return first
