"""Coverage of candidate rules as packed bitsets over rows, for LIBRE's set cover.

A coded table (each row's bin per feature) becomes one bitset per bin over
the rows (``row_sets``); a candidate rule, given as the bins it allows
(``allowed``: bool per bin, all of a feature's bins for a feature it does not
constrain), covers the rows in ``AND over features of (OR over allowed bins)``
(``rule_masks``).  Bit ``r`` of a bitset is bit ``r % 64`` of word ``r // 64``,
the layout of ``pack`` below, so ``np.bitwise_count`` counts rows.
"""

from __future__ import annotations

import numba
import numpy as np


def pack(flags: np.ndarray) -> np.ndarray:
    """A boolean array as uint64 words (row ``r`` at bit ``r % 64`` of word ``r // 64``)."""
    n = len(flags)
    raw = np.packbits(np.asarray(flags, dtype=bool), bitorder="little")
    buf = np.zeros(((n + 63) // 64) * 8, dtype=np.uint8)
    buf[: len(raw)] = raw
    return buf.view("<u8").astype(np.uint64)


def unpack(words: np.ndarray, n: int) -> np.ndarray:
    """The inverse of :func:`pack`: the first ``n`` flags."""
    raw = np.ascontiguousarray(words, dtype="<u8").view(np.uint8)
    return np.unpackbits(raw, bitorder="little")[:n].astype(bool)


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
def rule_masks(sets, allowed, offsets, widths, n_rows):
    """The rows each candidate covers: ``allowed`` is bool[candidates, bins]."""
    n_c = allowed.shape[0]
    n_w = sets.shape[1]
    out = np.empty((n_c, n_w), dtype=np.uint64)
    acc = np.empty(n_w, dtype=np.uint64)
    full = ~np.uint64(0)
    for c in range(n_c):
        out[c, :] = full
        for f in range(widths.shape[0]):
            o, w = offsets[f], widths[f]
            n_allowed = 0
            for b in range(o, o + w):
                if allowed[c, b]:
                    n_allowed += 1
            if n_allowed == w:
                continue                     # the feature is not constrained
            acc[:] = 0
            for b in range(o, o + w):
                if allowed[c, b]:
                    for k in range(n_w):
                        acc[k] |= sets[b, k]
            for k in range(n_w):
                out[c, k] &= acc[k]
        if n_rows % 64:                      # no bits past the last row
            out[c, n_w - 1] &= (np.uint64(1) << np.uint64(n_rows % 64)) - np.uint64(1)
    return out
