"""ChiMerge discretization (Kerber 1992) and LIBRE's inverse one-hot encoding.

ChiMerge starts from one interval per distinct value and repeatedly merges
the adjacent pair whose class distributions are most alike (lowest chi-square)
while that chi-square is below ``threshold``; the cut points are the lower
ends of the intervals that remain.

Inverse one-hot encoding (LIBRE §3, Example 3.1) writes a discretized record
as one bit per bin, all ones except a zero at the record's own bin, so that a
rule is a bit string ``a`` and covers a record ``x`` when ``a & x == a``.
Missing values get a bin of their own.
"""

from __future__ import annotations

import heapq

import numpy as np


def chi_square(a, b) -> float:
    """Chi-square of two adjacent intervals with class counts ``a`` and ``b`` (Kerber: E >= 0.1)."""
    a0, a1, b0, b1 = float(a[0]), float(a[1]), float(b[0]), float(b[1])
    ra, rb, c0, c1 = a0 + a1, b0 + b1, a0 + b0, a1 + b1
    n = ra + rb
    total = 0.0
    for obs, row, col in ((a0, ra, c0), (a1, ra, c1), (b0, rb, c0), (b1, rb, c1)):
        e = row * col / n if n else 0.0
        if e == 0.0:
            e = 0.1
        total += (obs - e) ** 2 / e
    return total


def chimerge(values: np.ndarray, y: np.ndarray, threshold: float, max_bins: int | None = None):
    """Cut points of ``values`` (numbers, NaN skipped) for the boolean class ``y``.

    Returns a sorted float array ``cuts``: bin ``k`` is ``[cuts[k-1], cuts[k])``
    (the first bin is unbounded below, the last unbounded above).
    """
    ok = ~np.isnan(values)
    v, t = values[ok], y[ok]
    if v.size == 0:
        return np.zeros(0)
    uniq, inv = np.unique(v, return_inverse=True)
    counts = np.zeros((len(uniq), 2))
    np.add.at(counts, (inv, t.astype(int)), 1)
    k = len(uniq)
    lower = list(uniq)                      # lower end of each interval
    cnt = [(float(counts[i, 0]), float(counts[i, 1])) for i in range(k)]
    nxt = list(range(1, k)) + [-1]
    prv = [-1] + list(range(k - 1))
    alive = [True] * k
    version = [0] * k
    heap = [(chi_square(cnt[i], cnt[i + 1]), i, 0) for i in range(k - 1)]
    heapq.heapify(heap)
    n_bins = k
    while heap:
        chi, i, ver = heapq.heappop(heap)
        if not alive[i] or ver != version[i] or nxt[i] < 0:
            continue
        if chi >= threshold and (max_bins is None or n_bins <= max_bins):
            break
        j = nxt[i]                           # merge j into i
        cnt[i] = (cnt[i][0] + cnt[j][0], cnt[i][1] + cnt[j][1])
        alive[j] = False
        nxt[i] = nxt[j]
        if nxt[j] >= 0:
            prv[nxt[j]] = i
        n_bins -= 1
        version[i] += 1
        if nxt[i] >= 0:
            heapq.heappush(heap, (chi_square(cnt[i], cnt[nxt[i]]), i, version[i]))
        p = prv[i]
        if p >= 0:
            version[p] += 1
            heapq.heappush(heap, (chi_square(cnt[p], cnt[i]), p, version[p]))
    starts = [lower[i] for i in range(k) if alive[i]]
    return np.array(starts[1:], dtype=float)


def bins_of(values: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """Bin index of each number (``searchsorted`` on the cut points); -1 for NaN."""
    out = np.searchsorted(cuts, values, side="right").astype(np.int64)
    return np.where(np.isnan(values), -1, out)


def pack_bits(codes: np.ndarray, widths: list[int]) -> np.ndarray:
    """Inverse one-hot records as uint64 words.

    ``codes`` is rows x features, each the record's bin within its feature
    (``0 .. width-1``); bit ``offset_f + code`` is the zero of feature f.
    """
    n = codes.shape[0]
    d = int(sum(widths))
    words = max(1, (d + 63) // 64)
    out = np.zeros((n, words), dtype=np.uint64)
    offset = 0
    for f, w in enumerate(widths):
        for b in range(w):
            pos = offset + b
            mask = np.uint64(1) << np.uint64(pos % 64)
            out[codes[:, f] != b, pos // 64] |= mask
        offset += w
    return out
