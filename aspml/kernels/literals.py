"""Best literal on one feature, from prefix counts (FOLD-R++ / FOLD-SE literal search).

Arrays in, numbers out; nothing here knows about Programs.  A row's ``state``
is 0 (not active), 1 (active positive) or 2 (active negative).  Numeric
features are sorted once (``rows`` ordered by ``values``); each call scans
that order once, so it is O(M) for M rows, whatever the number of distinct
values.

Literal codes: 0 ``x <= v``, 1 ``x > v``, 2 ``not (x <= v)``, 3 ``not (x > v)``,
4 ``x == c``, 5 ``x != c``.  Heuristic codes: 0 information gain (FOLD-R++),
1 Magic Gini Impurity (FOLD-SE).  A literal is valid when it covers at least
``min_tp`` positives, excludes at least one negative and its heuristic is not
``-inf`` (``tp + tn < fp + fn``).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .sort import argsort_float

LE, GT, NOT_LE, NOT_GT, EQ, NE = 0, 1, 2, 3, 4, 5
IG, MGI = 0, 1
NEG_INF = -np.inf


@numba.njit(cache=True)
def _xlogx(a, b):
    if a <= 0.0 or b <= 0.0:
        return 0.0
    return a * math.log2(a / b)


@numba.njit(cache=True)
def heuristic(tp, fn, tn, fp, kind):
    """Score of a literal with these counts; higher is better, ``-inf`` is invalid.

    ``kind`` 0, information gain as FOLD-R++ uses it (the weighted negative
    entropy of the two sides of the split); ``kind`` 1, Magic Gini Impurity:
    ``-(tp*fp/(tp+fp) + tn*fn/(tn+fn)) / (tp+fn)``, which reproduces the
    FOLD-SE paper's example MGI(3, 4, 8, 0) = -0.38.
    """
    if tp + tn < fp + fn:
        return NEG_INF
    tp = float(tp)
    fn = float(fn)
    tn = float(tn)
    fp = float(fp)
    if kind == 0:
        total = tp + fn + tn + fp
        if total == 0.0:
            return NEG_INF
        cov = tp + fp
        unc = tn + fn
        return (_xlogx(tp, cov) + _xlogx(fp, cov) + _xlogx(tn, unc) + _xlogx(fn, unc)) / total
    pos = tp + fn
    if pos == 0.0:
        return NEG_INF
    g = 0.0
    if tp + fp > 0.0:
        g += tp * fp / (tp + fp)
    if tn + fn > 0.0:
        g += tn * fn / (tn + fn)
    return -g / pos


@numba.njit(cache=True)
def _banned(op, value, banned_ops, banned_values):
    for k in range(banned_ops.shape[0]):
        if banned_ops[k] == op and banned_values[k] == value:
            return True
    return False


@numba.njit(cache=True)
def best_numeric(values, rows, state, n_pos, n_neg, kind, negated, min_tp,
                 banned_ops, banned_values):
    """Best ``x <= v`` / ``x > v`` (and, if ``negated``, ``not (x <= v)`` / ``not (x > v)``).

    Parameters
    ----------
    values : float64[k]  the numbers of the feature in ascending order
    rows : int64[k]      the row of each of those numbers
    state : int8[M]      0 inactive, 1 active positive, 2 active negative
    n_pos, n_neg : int   active positives / negatives, numbers or not
    kind : int           0 information gain, 1 Magic Gini Impurity
    negated : bool       also consider FOLD-SE's negated comparisons
    min_tp : int         fewest positives a valid literal covers
    banned_ops, banned_values : literals already in the rule

    Returns
    -------
    (score, op, value) ; score is -inf when no literal is valid.
    """
    num_pos = 0
    num_neg = 0
    for i in range(rows.shape[0]):
        s = state[rows[i]]
        if s == 1:
            num_pos += 1
        elif s == 2:
            num_neg += 1
    best = NEG_INF
    best_op = -1
    best_value = 0.0
    cum_pos = 0
    cum_neg = 0
    k = rows.shape[0]
    i = 0
    while i < k:
        v = values[i]
        while i < k and values[i] == v:
            s = state[rows[i]]
            if s == 1:
                cum_pos += 1
            elif s == 2:
                cum_neg += 1
            i += 1
        n_ops = 4 if negated else 2
        for op in range(n_ops):
            if op == LE:
                tp, fp = cum_pos, cum_neg
            elif op == GT:
                tp, fp = num_pos - cum_pos, num_neg - cum_neg
            elif op == NOT_LE:
                tp, fp = n_pos - cum_pos, n_neg - cum_neg
            else:
                tp, fp = n_pos - (num_pos - cum_pos), n_neg - (num_neg - cum_neg)
            if tp < min_tp or fp >= n_neg:
                continue
            score = heuristic(tp, n_pos - tp, n_neg - fp, fp, kind)
            if score > best and not _banned(op, v, banned_ops, banned_values):
                best = score
                best_op = op
                best_value = v
    return best, best_op, best_value


@numba.njit(cache=True)
def best_categorical(codes, n_codes, state, n_pos, n_neg, kind, min_tp,
                     banned_ops, banned_values):
    """Best ``x == c`` / ``x != c`` over the category codes (``-1``: not a category).

    Returns ``(score, op, code)``; score is -inf when no literal is valid.
    """
    pos = np.zeros(n_codes, dtype=np.int64)
    neg = np.zeros(n_codes, dtype=np.int64)
    for r in range(codes.shape[0]):
        c = codes[r]
        if c < 0:
            continue
        s = state[r]
        if s == 1:
            pos[c] += 1
        elif s == 2:
            neg[c] += 1
    best = NEG_INF
    best_op = -1
    best_code = -1
    for c in range(n_codes):
        for op in (EQ, NE):
            if op == EQ:
                tp, fp = pos[c], neg[c]
            else:
                tp, fp = n_pos - pos[c], n_neg - neg[c]
            if tp < min_tp or fp >= n_neg:
                continue
            score = heuristic(tp, n_pos - tp, n_neg - fp, fp, kind)
            if score > best and not _banned(op, float(c), banned_ops, banned_values):
                best = score
                best_op = op
                best_code = c
    return best, best_op, best_code


@numba.njit(cache=True)
def best_literal(groups, num_rows, num_offsets, distinct, distinct_offsets, codes, n_codes,
                 state, active_rows, n_pos, n_neg, kind, negated, min_tp, banned_features,
                 banned_ops, banned_values):
    """Best valid literal over every feature in one call.

    Parameters
    ----------
    groups, num_rows : int32[T], int32[T]
        For each feature in turn, its numeric rows in ascending order of value,
        and the rank of each row's value among the feature's distinct values.
    num_offsets : int64[F + 1]
        Feature ``j`` owns ``groups[num_offsets[j]:num_offsets[j + 1]]``.
    distinct, distinct_offsets : float64[U], int64[F + 1]
        The distinct values of each feature, ascending: rank ``g`` of feature
        ``j`` is ``distinct[distinct_offsets[j] + g]``.
    codes : int32[F, M]
        Category code of each row (``-1``: not a category string).
    n_codes : int64[F]
        Number of categories of each feature.
    state : int8[M]
        0 inactive, 1 active positive, 2 active negative.
    active_rows : int64[A]
        The active rows (state != 0); categories are counted over them only.
    banned_features, banned_ops, banned_values
        Literals already in the rule (not chosen again).

    Only value groups that hold an active row are candidate thresholds (the
    thresholds FOLD draws from the current examples), so the heuristic is
    evaluated at most once per active row and feature.

    Returns
    -------
    (score, feature, op, value): ``score`` is ``-inf`` when no literal is valid;
    ``value`` is the threshold, or the category code for ``==`` / ``!=``.
    """
    best = NEG_INF
    best_f = -1
    best_op = -1
    best_value = 0.0
    n_features = num_offsets.shape[0] - 1
    n_ops = 4 if negated else 2
    for f in range(n_features):
        lo = num_offsets[f]
        hi = num_offsets[f + 1]
        nb = 0
        for k in range(banned_features.shape[0]):
            if banned_features[k] == f:
                nb += 1
        b_ops = np.empty(nb, dtype=np.int64)
        b_vals = np.empty(nb, dtype=np.float64)
        nb = 0
        for k in range(banned_features.shape[0]):
            if banned_features[k] == f:
                b_ops[nb] = banned_ops[k]
                b_vals[nb] = banned_values[k]
                nb += 1
        if hi > lo:
            num_pos = 0
            num_neg = 0
            for i in range(lo, hi):
                s = state[num_rows[i]]
                if s == 1:
                    num_pos += 1
                elif s == 2:
                    num_neg += 1
            cum_pos = 0
            cum_neg = 0
            i = lo
            while i < hi:
                g = groups[i]
                v = distinct[distinct_offsets[f] + g]
                seen = False
                while i < hi and groups[i] == g:
                    s = state[num_rows[i]]
                    if s == 1:
                        cum_pos += 1
                        seen = True
                    elif s == 2:
                        cum_neg += 1
                        seen = True
                    i += 1
                if not seen:
                    continue
                for op in range(n_ops):
                    if op == LE:
                        tp = cum_pos
                        fp = cum_neg
                    elif op == GT:
                        tp = num_pos - cum_pos
                        fp = num_neg - cum_neg
                    elif op == NOT_LE:
                        tp = n_pos - cum_pos
                        fp = n_neg - cum_neg
                    else:
                        tp = n_pos - (num_pos - cum_pos)
                        fp = n_neg - (num_neg - cum_neg)
                    if tp < min_tp or fp >= n_neg:
                        continue
                    score = heuristic(tp, n_pos - tp, n_neg - fp, fp, kind)
                    if score > best and not _banned(op, v, b_ops, b_vals):
                        best = score
                        best_f = f
                        best_op = op
                        best_value = v
        nc = n_codes[f]
        if nc > 0:
            pos = np.zeros(nc, dtype=np.int64)
            neg = np.zeros(nc, dtype=np.int64)
            row_codes = codes[f]
            for k in range(active_rows.shape[0]):
                r = active_rows[k]
                c = row_codes[r]
                if c < 0:
                    continue
                s = state[r]
                if s == 1:
                    pos[c] += 1
                elif s == 2:
                    neg[c] += 1
            for c in range(nc):
                if pos[c] + neg[c] == 0:
                    continue
                for op in (EQ, NE):
                    if op == EQ:
                        tp = pos[c]
                        fp = neg[c]
                    else:
                        tp = n_pos - pos[c]
                        fp = n_neg - neg[c]
                    if tp < min_tp or fp >= n_neg:
                        continue
                    score = heuristic(tp, n_pos - tp, n_neg - fp, fp, kind)
                    if score > best and not _banned(op, float(c), b_ops, b_vals):
                        best = score
                        best_f = f
                        best_op = op
                        best_value = float(c)
    return best, best_f, best_op, best_value


@numba.njit(cache=True)
def filter_sorted(groups, rows, offsets, active):
    """Keep only the active rows of each feature's sorted numbers (order preserved).

    Returns ``(groups, rows, offsets)`` in the layout of :func:`best_literal`;
    one pass, so a search restricted to a shrinking set of examples costs
    O(active rows) per step instead of O(all rows).
    """
    n_features = offsets.shape[0] - 1
    new_offsets = np.zeros(n_features + 1, dtype=np.int64)
    for f in range(n_features):
        count = 0
        for i in range(offsets[f], offsets[f + 1]):
            if active[rows[i]]:
                count += 1
        new_offsets[f + 1] = new_offsets[f] + count
    out_groups = np.empty(new_offsets[n_features], dtype=np.int32)
    out_rows = np.empty(new_offsets[n_features], dtype=np.int32)
    k = 0
    for f in range(n_features):
        for i in range(offsets[f], offsets[f + 1]):
            if active[rows[i]]:
                out_groups[k] = groups[i]
                out_rows[k] = rows[i]
                k += 1
    return out_groups, out_rows, new_offsets


@numba.njit(cache=True)
def build_view(num, is_num):
    """Sort every feature's numbers once.

    Parameters
    ----------
    num : float64[F, M]    values (anything where ``is_num`` is False)
    is_num : bool[F, M]

    Returns
    -------
    (groups, rows, offsets, distinct, distinct_offsets) as :func:`best_literal` reads them.
    """
    n_features, n = num.shape
    offsets = np.zeros(n_features + 1, dtype=np.int64)
    for f in range(n_features):
        count = 0
        for r in range(n):
            if is_num[f, r]:
                count += 1
        offsets[f + 1] = offsets[f] + count
    total = offsets[n_features]
    groups = np.empty(total, dtype=np.int32)
    rows = np.empty(total, dtype=np.int32)
    distinct = np.empty(total, dtype=np.float64)
    distinct_offsets = np.zeros(n_features + 1, dtype=np.int64)
    u = 0
    for f in range(n_features):
        lo = offsets[f]
        m = offsets[f + 1] - lo
        sub_rows = np.empty(m, dtype=np.int64)
        sub_vals = np.empty(m, dtype=np.float64)
        k = 0
        for r in range(n):
            if is_num[f, r]:
                sub_rows[k] = r
                sub_vals[k] = num[f, r]
                k += 1
        order = argsort_float(sub_vals)
        g = -1
        last = 0.0
        for k in range(m):
            i = order[k]
            v = sub_vals[i]
            if g < 0 or v != last:
                g += 1
                last = v
                distinct[u + g] = v
            groups[lo + k] = g
            rows[lo + k] = sub_rows[i]
        u += g + 1
        distinct_offsets[f + 1] = u
    return groups, rows, offsets, distinct[:u].copy(), distinct_offsets
