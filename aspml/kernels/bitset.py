"""Bitsets over distinct records: packing, weighted popcounts, frequent itemsets.

A set of records is a row of ``uint64`` words, record ``i`` at bit ``i % 64``
of word ``i // 64``.  Records are distinct rows of a table, each standing for
several rows of each class; a class's counts are kept as *bit planes*: plane
``k`` holds the records whose count has bit ``k`` set, so the number of rows
of that class in a set is ``sum_k 2**k * popcount(set & plane_k)`` -- a few
popcounts, never a pass over the table.
"""

from __future__ import annotations

import numba
import numpy as np

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


def pack(mask: np.ndarray) -> np.ndarray:
    """Boolean array (records) or 2-D (sets x records) -> ``uint64`` words, little-endian bits."""
    mask = np.asarray(mask, dtype=bool)
    two_d = mask.ndim == 2
    m = mask if two_d else mask[None, :]
    n = m.shape[1]
    words = max(1, (n + 63) // 64)
    padded = np.zeros((m.shape[0], words * 64), dtype=bool)
    padded[:, :n] = m
    out = np.packbits(padded, axis=1, bitorder="little").view("<u8").astype(np.uint64)
    return out if two_d else out[0]


def unpack(words: np.ndarray, n: int) -> np.ndarray:
    """The inverse of :func:`pack` for one set: its first ``n`` flags."""
    raw = np.ascontiguousarray(words, dtype="<u8").view(np.uint8)
    return np.unpackbits(raw, bitorder="little")[:n].astype(bool)


def planes(counts: np.ndarray) -> np.ndarray:
    """Bit planes of non-negative integer ``counts`` (one per record): ``(K, words)``."""
    counts = np.asarray(counts, dtype=np.int64)
    top = int(counts.max()) if counts.size else 0
    k = max(1, top.bit_length())
    return pack(np.stack([(counts >> b) & 1 for b in range(k)]).astype(bool))


@numba.njit(cache=True)
def popcount(x):
    """Set bits of one ``uint64`` word (SWAR)."""
    x = x - ((x >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return (x * _H01) >> np.uint64(56)


@numba.njit(cache=True)
def weighted_count(bits, planes):
    """Rows counted by ``planes`` in the set ``bits`` (1-D words): ``sum_k 2**k |bits & plane_k|``."""
    total = 0
    for k in range(planes.shape[0]):
        c = 0
        for w in range(bits.shape[0]):
            c += np.int64(popcount(bits[w] & planes[k, w]))
        total += c << k
    return total


@numba.njit(cache=True)
def counts(bits, pos_planes, neg_planes):
    """Positive and negative rows in each set of ``bits`` (sets x words): two int64 arrays."""
    n = bits.shape[0]
    tp = np.zeros(n, dtype=np.int64)
    fp = np.zeros(n, dtype=np.int64)
    for i in range(n):
        tp[i] = weighted_count(bits[i], pos_planes)
        fp[i] = weighted_count(bits[i], neg_planes)
    return tp, fp


@numba.njit(cache=True)
def or_counts(base, which, extra, pos_planes, neg_planes):
    """Counts of ``base[which[i]] | extra[i]`` for every ``i``, without building the unions."""
    n, words = extra.shape
    tp = np.zeros(n, dtype=np.int64)
    fp = np.zeros(n, dtype=np.int64)
    buf = np.empty(words, dtype=np.uint64)
    for i in range(n):
        b = which[i]
        for w in range(words):
            buf[w] = base[b, w] | extra[i, w]
        tp[i] = weighted_count(buf, pos_planes)
        fp[i] = weighted_count(buf, neg_planes)
    return tp, fp


@numba.njit(cache=True)
def eclat(item_bits, item_feature, universe, pos_planes, neg_planes, min_pos, max_len, max_out):
    """Itemsets (at most one item per feature) covering at least ``min_pos`` positive rows.

    Depth-first over items in index order (items sorted by feature), the
    coverage of each prefix kept as a bitset on a stack.  Returns
    ``(itemsets, tp, fp, found)``: ``itemsets`` is ``(n, max_len)`` item
    indices padded with -1, for the first ``min(found, max_out)`` itemsets;
    ``found > max_out`` says some were left out.  The search stops at the first
    itemset past ``max_out``: counting all of them is the costly part on a wide
    table (millions of frequent triples), and the caller only asks whether
    there were too many.
    """
    n_items, words = item_bits.shape
    out = np.full((max_out, max_len), -1, dtype=np.int32)
    tp = np.zeros(max_out, dtype=np.int64)
    fp = np.zeros(max_out, dtype=np.int64)
    stack = np.empty((max_len + 1, words), dtype=np.uint64)
    stack[0, :] = universe
    nxt = np.zeros(max_len + 1, dtype=np.int64)
    chosen = np.zeros(max_len, dtype=np.int64)
    found = 0
    depth = 0
    while True:
        i = nxt[depth]
        if i >= n_items or depth >= max_len:
            if depth == 0:
                break
            depth -= 1
            nxt[depth] += 1
            continue
        if depth > 0 and item_feature[i] <= item_feature[chosen[depth - 1]]:
            nxt[depth] += 1
            continue
        for w in range(words):
            stack[depth + 1, w] = stack[depth, w] & item_bits[i, w]
        p = weighted_count(stack[depth + 1], pos_planes)
        if p < min_pos:
            nxt[depth] += 1
            continue
        chosen[depth] = i
        if found == max_out:
            found += 1                           # one too many: the caller raises min_pos
            break
        for d in range(depth + 1):
            out[found, d] = chosen[d]
        tp[found] = p
        fp[found] = weighted_count(stack[depth + 1], neg_planes)
        found += 1
        depth += 1
        nxt[depth] = i + 1
    k = min(found, max_out)
    return out[:k], tp[:k], fp[:k], found


@numba.njit(cache=True)
def undominated(itemsets, item_bits, precision, n_keep):
    """The first ``n_keep`` itemsets (taken in the given order) that no kept one dominates.

    A kept itemset ``k`` dominates ``i`` when ``i`` covers a subset of what
    ``k`` covers, with no better precision and no fewer items: ``i`` can only
    do worse in a rule set.  Returns the indices kept, in order.
    """
    n, max_len = itemsets.shape
    words = item_bits.shape[1]
    kept = np.empty((n_keep, words), dtype=np.uint64)
    kept_idx = np.empty(n_keep, dtype=np.int64)
    kept_size = np.empty(n_keep, dtype=np.int64)
    buf = np.empty(words, dtype=np.uint64)
    k = 0
    for i in range(n):
        if k >= n_keep:
            break
        size = 0
        for w in range(words):
            buf[w] = ~np.uint64(0)
        for d in range(max_len):
            it = itemsets[i, d]
            if it < 0:
                break
            size += 1
            for w in range(words):
                buf[w] &= item_bits[it, w]
        dominated = False
        for j in range(k):
            if precision[kept_idx[j]] < precision[i] or kept_size[j] > size:
                continue
            subset = True
            for w in range(words):
                if buf[w] & ~kept[j, w]:
                    subset = False
                    break
            if subset:
                dominated = True
                break
        if not dominated:
            kept[k, :] = buf
            kept_idx[k] = i
            kept_size[k] = size
            k += 1
    return kept_idx[:k]


@numba.njit(cache=True)
def cut_masks(num, is_num, cuts, strict):
    """The rows where ``is_num & (num <= cuts[k])`` holds (``num < cuts[k]`` where
    ``strict[k]``), packed as :func:`pack` packs them, one set a cut: ``(cuts, words)``.

    A column compared with many numbers (a FOLD program of avila reads each feature at
    about fifty) costs one pass over its rows, where a comparison a cut reads every row
    again.  ``x < a`` is ``x <= a'``, ``a'`` the float below ``a`` (no number is below
    ``-inf``: that set stays empty), so the sets grow with ``a'``: each row is put in
    the first set that holds it (its place among the cuts, counted without a branch on
    the data), and each set is then the one before it and its own rows.  NaN holds in
    no set."""
    n = num.shape[0]
    m = cuts.shape[0]
    words = max(1, (n + 63) // 64)
    out = np.zeros((m, words), dtype=np.uint64)
    live = np.empty(m, dtype=np.int64)          # the cuts a number may hold
    keys = np.empty(m)
    j = 0
    for k in range(m):
        if strict[k] and cuts[k] == -np.inf:
            continue
        live[j] = k
        keys[j] = np.nextafter(cuts[k], -np.inf) if strict[k] else cuts[k]
        j += 1
    if j == 0:
        return out
    sort = np.argsort(keys[:j])
    order = live[:j][sort]
    a = keys[:j][sort]
    # delta[c]: the rows whose first set is c (j: none); then each set is its delta and
    # the set before it
    delta = np.zeros((j + 1, words), dtype=np.uint64)
    blocks = (j + 15) >> 4
    last = np.empty(blocks)                      # each block of 16 keys' last key
    for b in range(blocks):
        last[b] = a[min(16 * b + 15, j - 1)]
    for i in range(n):
        v = num[i]
        c = 0
        if j <= 128:                            # counts the compiler vectorises
            for k in range(j):
                c += a[k] < v
        else:                                   # the blocks below v, then keys in its block
            for b in range(blocks):
                c += last[b] < v
            lo = min(16 * c, j)                 # (every key below v: the last block short)
            c = lo
            for k in range(lo, min(lo + 16, j)):
                c += a[k] < v
        c = c if is_num[i] and not np.isnan(v) else j
        delta[c, i >> 6] |= np.uint64(1) << np.uint64(i & 63)
    for k in range(j):
        if k > 0:
            for w in range(words):
                delta[k, w] |= delta[k - 1, w]
        out[order[k], :] = delta[k]
    return out
