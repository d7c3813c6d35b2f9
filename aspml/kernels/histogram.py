"""FOLD's literal search from counts: the distributed form of :mod:`aspml.kernels.literals`.

A table too large for one process is searched partition by partition: each partition
counts its active rows per (feature, bin) and per (feature, category), positive and
negative, in rows and in weight (:func:`count_partition`); the counts of all partitions
are summed, and :func:`best_from_counts` picks the literal :func:`literals.best_literal`
picks on the whole table whose numbers were replaced by their bins' edges (the same
candidates, heuristic, validity and ties: first feature, smallest value, lowest code).

Layout of the counts (float64; row counts are whole numbers, exact up to 2**53): four
numbers ``(positive rows, negative rows, positive weight, negative weight)`` per bin of
each feature (``bin_offsets``), then per category of each feature (``code_offsets``),
then the same four for all active rows.  Unweighted, the weights are the row counts.
"""

from __future__ import annotations

import numba
import numpy as np

from .literals import EMPTY, EQ, LE, NEG_INF, _logs, _pick, best_threshold


@numba.njit(cache=True)
def count_partition(bins, codes, state, weights, bin_offsets, code_offsets):
    """The counts of one partition's active rows (see the module's layout).

    ``bins``: int32[F, n], each row's bin per feature (``-1``: not a number);
    ``codes``: int32[F, n], its category (``-1``: not a category); ``state``: int8[n],
    0 inactive, 1 positive, 2 negative; ``weights``: float64[n] or None."""
    n_features, n = bins.shape
    n_bins = bin_offsets[n_features]
    n_cells = n_bins + code_offsets[n_features] + 1
    out = np.zeros(4 * n_cells)
    total = 4 * (n_cells - 1)
    for r in range(n):
        s = state[r]
        if s == 0:
            continue
        k = 0 if s == 1 else 1
        w = 1.0 if weights is None else weights[r]
        out[total + k] += 1.0
        out[total + 2 + k] += w
        for f in range(n_features):
            b = bins[f, r]
            if b >= 0:
                i = 4 * (bin_offsets[f] + b)
                out[i + k] += 1.0
                out[i + 2 + k] += w
            c = codes[f, r]
            if c >= 0:
                i = 4 * (n_bins + code_offsets[f] + c)
                out[i + k] += 1.0
                out[i + 2 + k] += w
    return out


@numba.njit(cache=True)
def _cells(counts, lo, hi):
    """The counts of cells ``lo:hi`` (see the module's layout): positive and negative
    rows (integers), positive and negative weights."""
    n = hi - lo
    rows_pos = np.empty(n, dtype=np.int64)
    rows_neg = np.empty(n, dtype=np.int64)
    w_pos = np.empty(n)
    w_neg = np.empty(n)
    for k in range(n):
        i = 4 * (lo + k)
        rows_pos[k] = int(counts[i])
        rows_neg[k] = int(counts[i + 1])
        w_pos[k] = counts[i + 2]
        w_neg[k] = counts[i + 3]
    return rows_pos, rows_neg, w_pos, w_neg


@numba.njit(cache=True)
def _best_on_counts(f, counts, edges, bin_offsets, code_offsets, n_bins, n_pos, n_neg,
                    n_neg_rows, kind, negated, min_tp, banned_features, banned_ops,
                    banned_values, logs):
    best = NEG_INF
    best_op = -1
    best_value = 0.0
    lo = bin_offsets[f]
    hi = bin_offsets[f + 1]
    if hi > lo:
        rows_pos, rows_neg, w_pos, w_neg = _cells(counts, lo, hi)
        num_neg = 0
        for b in range(hi - lo):
            num_neg += rows_neg[b]
        w_num_pos = 0.0
        w_num_neg = 0.0
        for b in range(hi - lo):
            w_num_pos += w_pos[b]
            w_num_neg += w_neg[b]
        best, best_op, best_value = best_threshold(
            f, edges[lo:hi], rows_pos, rows_neg, w_pos, w_neg, hi - lo, True, LE,
            4 if negated else 2, w_num_pos, w_num_neg, num_neg, n_pos, n_neg, n_neg_rows, kind,
            min_tp, logs, best, best_op, best_value, banned_features, banned_ops,
            banned_values)
    first = n_bins + code_offsets[f]
    n_cats = code_offsets[f + 1] - code_offsets[f]
    if n_cats > 0:
        rows_pos, rows_neg, w_pos, w_neg = _cells(counts, first, first + n_cats)
        best, best_op, best_value = best_threshold(
            f, EMPTY, rows_pos, rows_neg, w_pos, w_neg, n_cats, False, EQ, 2, n_pos, n_neg,
            n_neg_rows, n_pos, n_neg, n_neg_rows, kind, min_tp, logs, best, best_op,
            best_value, banned_features, banned_ops, banned_values)
    return best, best_op, best_value


@numba.njit(cache=True)
def best_from_counts(counts, edges, bin_offsets, code_offsets, kind, negated, min_tp,
                     banned_features, banned_ops, banned_values, weighted=True):
    """The best valid literal from summed counts: ``(score, feature, op, value)`` as
    :func:`aspml.kernels.literals.best_literal` returns it (``value``: the bin's edge, or
    the category code); ``edges[bin_offsets[f] + b]`` is the edge of bin ``b`` of
    feature ``f``.  ``n_pos``, ``n_neg`` (weights) and the negative rows are the counts'
    totals.  ``weighted`` False: the counts are whole rows, and information gain is
    scored as :func:`aspml.kernels.literals.best_literal` scores it, from a table of
    logarithms (the same literal, the same score to the last bit)."""
    n_features = bin_offsets.shape[0] - 1
    n_bins = bin_offsets[n_features]
    total = 4 * (n_bins + code_offsets[n_features])
    n_neg_rows = int(counts[total + 1])
    n_pos = counts[total + 2]
    n_neg = counts[total + 3]
    scores = np.empty(n_features)
    ops = np.empty(n_features, dtype=np.int64)
    values = np.empty(n_features)
    logs = _logs(n_pos, n_neg, kind, weighted)
    for f in range(n_features):
        scores[f], ops[f], values[f] = _best_on_counts(
            f, counts, edges, bin_offsets, code_offsets, n_bins, n_pos, n_neg, n_neg_rows,
            kind, negated, min_tp, banned_features, banned_ops, banned_values, logs)
    return _pick(scores, ops, values)
