"""The whole FOLD loop in numba: rules, their exceptions and FOLD-RM's multi-class list.

:class:`aspml.learners.fold._Search` runs FOLD's recursion in Python over boolean masks
of every row, calling :func:`aspml.kernels.literals.best_literal` for each literal.
On a table where FOLD learns hundreds of rules (avila: 1,358 literal searches a fit)
the Python around those calls cost about as much as a third of the fit.  This module
runs the same recursion over lists of row numbers (each step costs the rows still
active, never the whole table) and gives the same rules, bit for bit: the Python loop
stays, for traced fits (and so the command's progress bar), expert rules and Dask, and
as the slow, obvious version the tests compare this one with
(``tests/test_fold_loop.py``).  Weighted totals are added row by row in row order in
both.

Rules go to a store of arrays, in the order they are made: rule ``i`` has the
literals ``lo[i]:hi[i]``, its parent rule ``parent[i]`` (-1: a top-level rule), and
its descendants are the rules ``i + 1 .. end[i] - 1`` (an exception's rules are
learned right after the rule they belong to).  A rule that is not kept is cut from
the end of the store with everything learned for it.  The recursion runs on a stack
of rule sets: numba's cache cannot hold a recursive function (numba issue 6061: a
segfault when it is loaded).

numba caches each function here with the kernels it calls from
:mod:`aspml.kernels.literals` compiled in, and checks only this file's date: after
editing ``literals.py`` in a working copy, delete ``aspml/kernels/__pycache__`` (an
installed package's files all change together).

Settings (``cfg``, float64): ratio, fewest positives a literal must cover
(``min_tp``), fewest rows a rule must cover (``min_rule``), max depth (-1: none),
majority refusal (1.0 or 0.0), heuristic code, negated comparisons (1.0 or 0.0), any
category (1.0 or 0.0), threads allowed for the parallel kernels, and the cells (rows x
features) of a view from which the literal search and the filter take their parallel
forms (when more than one thread is allowed; ``aspml.learners.fold.PARALLEL_CELLS``),
the rows of its class a rule of a decision list must decide (``min_kept``), the
rows an exception must cover for each of its literals (``lit_rows``; 0: no bar), and
a decision list's rule budget: its most rules, exceptions counted (-1: none), the
share of the undecided rows spread over the rules left that a rule must then cover
(``BUDGET_SHARE``), and whether the list is held to the budget (1.0: the bars rise
as it is spent) or only watched (0.0: the loop stops once it is passed, and says
so; see :func:`multiclass`).
"""

from __future__ import annotations

import numba
import numpy as np

from .literals import (
    EQ,
    GROUP_CAP,
    GT,
    LE,
    NE,
    NO_COUNTS,
    NO_OFFSETS,
    NOT_LE,
    best_literal,
    best_literal_parallel,
    filter_sorted,
    filter_sorted_parallel,
)

(RATIO, MIN_TP, MIN_RULE, MAX_DEPTH, MAJORITY, KIND, NEGATED, ANY_CATEGORY, THREADS,
 SEARCH_CELLS, FILTER_CELLS, MIN_KEPT, LIT_ROWS, BUDGET, BUDGET_SHARE, HOLD) = range(16)

# the literals of a class's last rule that narrowed to none of its positives kept to be
# compared with its next (:func:`_rule_literals`); a longer rule is not kept
MEMO_STEPS = 32


# Weighted totals are sums of floats: two totals equal in exact arithmetic may differ in
# their last bits once the weights are scaled (weights normalised to sum to 1).  FOLD's
# comparisons of two totals call them equal within this much (relative), so that a tie
# goes the same way at any scale.  Whole counts (unweighted) never come this close.
ROUNDING = 1e-9


@numba.njit(cache=True)
def fewer(a, b):
    """``a < b`` by more than rounding (a, b >= 0)."""
    return a < b * (1.0 - ROUNDING)


@numba.njit(cache=True)
def more(a, b):
    """``a > b`` by more than rounding (a, b >= 0)."""
    return a > b * (1.0 + ROUNDING)


@numba.njit(cache=True)
def total(rows, weights):
    """The rows' number, or their weight when weighted."""
    if weights is None:
        return float(rows.shape[0])
    s = 0.0
    for r in rows:
        s += weights[r]
    return s


@numba.njit(cache=True)
def _weight_of(weights, r):
    """Row ``r``'s weight (1 unweighted)."""
    if weights is None:
        return 1.0
    return weights[r]


@numba.njit(cache=True)
def _enough(rows, weights, min_rule):
    """A rule covering ``rows`` is large enough: at least one row, and ``min_rule``."""
    if rows.shape[0] == 0:
        return False
    return total(rows, weights) >= min_rule


@numba.njit(cache=True)
def _and_lit(rows, f, op, v, num, is_num, codes, out):
    """``out[i] &= literal (f, op, v) holds on rows[i]``, as ``_Search._mask`` reads it
    (one loop per comparison: no branch on the literal inside the loop)."""
    n = rows.shape[0]
    if op == EQ or op == NE:
        c = np.int64(v)
        want = op == EQ
        for i in range(n):
            out[i] &= (codes[f, rows[i]] == c) == want
        return
    plain = op == LE or op == GT
    if op == LE or op == NOT_LE:
        for i in range(n):
            r = rows[i]
            out[i] &= (is_num[f, r] and num[f, r] <= v) == plain
    else:
        for i in range(n):
            r = rows[i]
            out[i] &= (is_num[f, r] and num[f, r] > v) == plain


@numba.njit(cache=True)
def _where_lit(rows, f, op, v, num, is_num, codes):
    """The rows where literal ``(f, op, v)`` holds, in one pass: every row is written and
    the slot moves on past a kept one (as :func:`_select`; a view of a list as long as
    ``rows``).  :func:`_and_lit`'s comparisons written again on purpose: its mask then
    :func:`_select` (two passes and a list) made FoldRpp's avila fit 3 ms slower."""
    n = rows.shape[0]
    out = np.empty(n, dtype=np.int64)
    j = 0
    if op == EQ or op == NE:
        c = np.int64(v)
        want = op == EQ
        for i in range(n):
            r = rows[i]
            out[j] = r
            j += (codes[f, r] == c) == want
        return out[:j]
    plain = op == LE or op == GT
    if op == LE or op == NOT_LE:
        for i in range(n):
            r = rows[i]
            out[j] = r
            j += (is_num[f, r] & (num[f, r] <= v)) == plain
    else:
        for i in range(n):
            r = rows[i]
            out[j] = r
            j += (is_num[f, r] & (num[f, r] > v)) == plain
    return out[:j]


@numba.njit(cache=True)
def _select(rows, keep, want):
    """``rows[keep == want]``.  No branch on ``keep``: every row is written and the slot
    moves on past a kept one (a rule's rows against its literal are as good as random,
    and a mispredicted branch a row cost more than the copy)."""
    n = rows.shape[0]
    k = 0
    for i in range(n):
        k += keep[i] == want
    out = np.empty(k + 1, dtype=np.int64)
    j = 0
    for i in range(n):
        out[j] = rows[i]
        j += keep[i] == want
    return out[:k]


@numba.njit(cache=True)
def _split(rows, keep):
    """``(rows[keep], rows[~keep])`` in one pass (as :func:`_select` writes them)."""
    n = rows.shape[0]
    kept = np.empty(n, dtype=np.int64)
    left = np.empty(n, dtype=np.int64)
    a = 0
    b = 0
    for i in range(n):
        kept[a] = rows[i]
        left[b] = rows[i]
        a += keep[i]
        b += not keep[i]
    return kept[:a], left[:b]


@numba.njit(cache=True)
def _merge(a, b):
    """Two ascending row lists (no row in both) as one: the active rows in row order.
    No branch on which list a row comes from (a rule's positives and negatives
    interleave as good as at random): each step takes the smaller head, the list run
    out reading as a row past every other."""
    na = a.shape[0]
    nb = b.shape[0]
    out = np.empty(na + nb, dtype=np.int64)
    end = np.iinfo(np.int64).max
    i = 0
    j = 0
    for k in range(na + nb):
        x = a[i] if i < na else end
        y = b[j] if j < nb else end
        take_a = x < y
        out[k] = x if take_a else y
        i += take_a
        j += not take_a
    return out


@numba.njit(cache=True)
def _narrow(view, pos, neg, active, cfg, data, share=0.5):
    """The view cut to the rows of ``pos`` and ``neg`` once they are at most ``share`` of
    it (half: as ``aspml.learners.fold._narrow``); ``active`` is all False, and is again
    after."""
    groups, rows, offsets, n_view = view
    count = pos.shape[0] + neg.shape[0]
    if count > share * n_view:
        return view
    for r in pos:
        active[r] = True
    for r in neg:
        active[r] = True
    n_features = offsets.shape[0] - 1
    # unweighted, with each row's value group at hand, the search counts a feature of few
    # groups by group: the cut leaves it out (literals.GROUP_CAP)
    distinct_offsets, weights, row_groups = data[1], data[6], data[7]
    cap = GROUP_CAP if weights is None and row_groups.size > 0 else 0
    if cfg[THREADS] > 1 and n_view * n_features >= cfg[FILTER_CELLS]:
        g, rr, off = filter_sorted_parallel(groups, rows, offsets, active, n_view, count,
                                            distinct_offsets, cap)
    else:
        g, rr, off = filter_sorted(groups, rows, offsets, active, n_view, count,
                                   distinct_offsets, cap)
    for r in pos:
        active[r] = False
    for r in neg:
        active[r] = False
    return (g, rr, off, np.int64(count))


@numba.njit(cache=True)
def _search(view, data, state, pos, neg, bf, bo, bv, cfg, min_tp, groups_by_class, count_offsets,
            cls):
    """The best literal for these positives and negatives (``_Search.best_literal``):
    (score, feature, op, value); ``state`` is all 0, and is again after.  ``groups_by_class``,
    ``count_offsets``, ``cls``: the rows of each class in each value group, when the
    positives are class ``cls``'s remaining rows and the negatives the others' (else
    ``cls`` -1; :func:`aspml.kernels.literals.best_literal`)."""
    groups, rows, offsets, n_view = view
    distinct, distinct_offsets, codes, n_codes, _, _, weights, row_groups, logs = data
    for r in pos:
        state[r] = 1
    for r in neg:
        state[r] = 2
    if cfg[ANY_CATEGORY] > 0 or row_groups.size > 0:
        active_rows = _merge(pos, neg)
    else:
        active_rows = np.zeros(0, dtype=np.int64)
    n_features = offsets.shape[0] - 1
    args_pos = total(pos, weights)
    args_neg = total(neg, weights)
    if cfg[THREADS] > 1 and n_view * n_features >= cfg[SEARCH_CELLS]:
        out = best_literal_parallel(groups, rows, offsets, distinct, distinct_offsets, codes,
                                    n_codes, state, active_rows, weights, args_pos, args_neg,
                                    neg.shape[0], np.int64(cfg[KIND]), cfg[NEGATED] > 0,
                                    min_tp, bf, bo, bv, n_view, row_groups,
                                    np.int64(cfg[THREADS]), logs, groups_by_class, count_offsets, cls)
    else:
        out = best_literal(groups, rows, offsets, distinct, distinct_offsets, codes, n_codes,
                           state, active_rows, weights, args_pos, args_neg, neg.shape[0],
                           np.int64(cfg[KIND]), cfg[NEGATED] > 0, min_tp, bf, bo, bv,
                           n_view, row_groups, logs, groups_by_class, count_offsets, cls)
    for r in pos:
        state[r] = 0
    for r in neg:
        state[r] = 0
    return out


@numba.njit(cache=True)
def _and_rule(store, c, rows, num, is_num, codes, out):
    """``out[i] &= rule c's literals hold on rows[i]`` (none of its exceptions)."""
    lit_f, lit_o, lit_v, rules = store[0], store[1], store[2], store[3]
    for k in range(rules[0, c], rules[1, c]):
        _and_lit(rows, lit_f[k], lit_o[k], lit_v[k], num, is_num, codes, out)


@numba.njit(cache=True)
def holds_rows(store, rid, rows, num, is_num, codes):
    """Where rule ``rid`` holds on ``rows`` (its literals, none of its exceptions): a
    bool a row.  Its descendants are read only on the rows where its own literals
    hold, from the last one back: each one's value goes to its parent's exceptions."""
    rules = store[3]
    out = np.ones(rows.shape[0], dtype=np.bool_)
    _and_rule(store, rid, rows, num, is_num, codes, out)
    size = rules[3, rid] - rid
    if size == 1:
        return out
    at = np.flatnonzero(out)                # the rows where rid's literals hold
    if at.shape[0] == 0:
        return out
    sub = rows[at]
    # excepted[j, i]: some exception of rule rid + j holds on sub[i]
    excepted = np.zeros((size, sub.shape[0]), dtype=np.bool_)
    cur = np.empty(sub.shape[0], dtype=np.bool_)
    for j in range(size - 1, 0, -1):
        c = rid + j
        for i in range(sub.shape[0]):
            cur[i] = not excepted[j, i]
        _and_rule(store, c, sub, num, is_num, codes, cur)
        up = rules[2, c] - rid
        for i in range(sub.shape[0]):
            excepted[up, i] |= cur[i]
    for i in range(sub.shape[0]):
        if excepted[0, i]:
            out[at[i]] = False
    return out


@numba.njit(cache=True)
def _new_store():
    """(lit_f, lit_o, lit_v, rules, counts): literal features, ops and values, rules
    int64[4, R] (literal range lo, hi, parent, end), counts [rules, literals]; grown by
    :func:`_grown` when full."""
    return (np.empty(64, dtype=np.int64), np.empty(64, dtype=np.int64), np.empty(64),
            np.empty((4, 16), dtype=np.int64), np.zeros(2, dtype=np.int64))


@numba.njit(cache=True)
def _grown(store):
    """The store with room for one more rule and literal."""
    lit_f, lit_o, lit_v, rules, counts = store
    if counts[1] == lit_f.shape[0]:
        m = 2 * lit_f.shape[0]
        f = np.empty(m, dtype=np.int64)
        o = np.empty(m, dtype=np.int64)
        v = np.empty(m)
        f[:counts[1]] = lit_f[:counts[1]]
        o[:counts[1]] = lit_o[:counts[1]]
        v[:counts[1]] = lit_v[:counts[1]]
        lit_f, lit_o, lit_v = f, o, v
    if counts[0] == rules.shape[1]:
        r = np.empty((4, 2 * rules.shape[1]), dtype=np.int64)
        r[:, :counts[0]] = rules[:, :counts[0]]
        rules = r
    return (lit_f, lit_o, lit_v, rules, counts)


@numba.njit(cache=True)
def _banned_plus(bf, bo, bv, store, lo, hi):
    """The banned literals and the store's literals ``lo:hi`` (``used + literals``)."""
    lit_f, lit_o, lit_v = store[0], store[1], store[2]
    n = bf.shape[0] + hi - lo
    f = np.empty(n, dtype=np.int64)
    o = np.empty(n, dtype=np.int64)
    v = np.empty(n, dtype=np.float64)
    f[:bf.shape[0]] = bf
    o[:bf.shape[0]] = bo
    v[:bf.shape[0]] = bv
    for k in range(lo, hi):
        j = bf.shape[0] + k - lo
        f[j] = lit_f[k]
        o[j] = lit_o[k]
        v[j] = lit_v[k]
    return f, o, v


@numba.njit(cache=True)
def _no_memo():
    """A :func:`_rule_literals` memo that records nothing (class -1)."""
    z = np.zeros((1, 1), dtype=np.int64)
    return (z, z, np.zeros((1, 1)), z, z, np.zeros(1, dtype=np.int64))


@numba.njit(cache=True)
def _new_memo(k):
    """Each class's last top-level rule that narrowed to none of its positives:
    features, ops, values, and after each literal the positives and negatives it kept
    (``MEMO_STEPS`` literals at most), and its length (0: none)."""
    return (np.zeros((k, MEMO_STEPS), dtype=np.int64), np.zeros((k, MEMO_STEPS), dtype=np.int64),
            np.zeros((k, MEMO_STEPS)), np.zeros((k, MEMO_STEPS), dtype=np.int64),
            np.zeros((k, MEMO_STEPS), dtype=np.int64), np.zeros(k, dtype=np.int64))


@numba.njit(cache=True)
def _rule_literals(store, view, data, state, active, pos, neg, bf, bo, bv, parent, cfg,
                   memo, mc, groups_by_class, count_offsets):
    """The literal loop of FOLD's ``learn_rule``: the rule's literals, written to the
    store as rule ``rid`` (its ``end`` still ``rid + 1``).  Returns ``(store, rid, pos,
    neg, view)``: the positives and negatives its exceptions are learned from (no
    negatives: no exceptions) and the view they start from; ``rid`` -1 when no rule
    was found (nothing written).

    ``memo``, ``mc`` (a class, or -1: none): a multi-class top-level rule of class
    ``mc`` is checked against that class's last rule that narrowed to none of its
    positives (:func:`_new_memo`).  Rows only ever leave the remaining rows, so after
    the same literals a rule's positives and negatives are subsets of that rule's; of
    the same sizes they are the same rows, and every later search would find what it
    found: the rule narrows to no positive again, and ``rid`` is -2 (nothing written;
    the store's new literals are the caller's to cut).  Its first literal is searched
    with the loop's counts of the remaining rows by value group and class (``groups_by_class``,
    ``count_offsets``; :func:`_group_counts`)."""
    num, is_num, codes, weights = data[4], data[5], data[2], data[6]
    mf, mo, mv, mp, mn, mlen = memo
    recorded = 0
    if mc >= 0:
        recorded = mlen[mc]
        mlen[mc] = 0
    view = _narrow(view, pos, neg, active, cfg, data)
    counts = store[4]
    start = counts[1]
    n_lits = 0
    while True:
        f = -1
        op = 0
        v = 0.0
        if neg.shape[0] > 0:
            fb, ob, vb = _banned_plus(bf, bo, bv, store, start, start + n_lits)
            cls = mc if n_lits == 0 else -1     # (the remaining rows: the loop's counts)
            _, f, op, v = _search(view, data, state, pos, neg, fb, ob, vb, cfg,
                                  cfg[MIN_TP], groups_by_class, count_offsets, cls)
        if f < 0:
            if n_lits == 0 and neg.shape[0] > 0:
                return store, -1, pos, neg, view
            # no literal improves the rule: it stays a default rule without exceptions
            # (no negatives given back, none to learn exceptions for)
            neg = neg[:0]
            break
        store = _grown(store)
        store[0][counts[1]] = f
        store[1][counts[1]] = op
        store[2][counts[1]] = v
        counts[1] += 1
        n_lits += 1
        pos = _where_lit(pos, f, op, v, num, is_num, codes)
        neg = _where_lit(neg, f, op, v, num, is_num, codes)
        if mc >= 0:
            j = n_lits - 1
            if j < recorded and mf[mc, j] == f and mo[mc, j] == op and mv[mc, j] == v:
                if mp[mc, j] == pos.shape[0] and mn[mc, j] == neg.shape[0]:
                    mlen[mc] = recorded
                    return store, -2, pos, neg, view
            else:
                recorded = min(recorded, j)     # another literal: the rest is not that rule's
            if j < MEMO_STEPS:
                mf[mc, j] = f
                mo[mc, j] = op
                mv[mc, j] = v
                mp[mc, j] = pos.shape[0]
                mn[mc, j] = neg.shape[0]
        if pos.shape[0] == 0:
            # no positive left: no rule set keeps it (each asks it to cover one), so its
            # further literals and exceptions would change nothing (on avila 407 of
            # FoldRpp's 1,203 literal searches narrowed such rules; docs, multi-class)
            if mc >= 0 and n_lits <= MEMO_STEPS:
                mlen[mc] = n_lits
            neg = neg[:0]
            break
        if fewer(total(neg, weights), cfg[RATIO] * total(pos, weights)):
            break
        view = _narrow(view, pos, neg, active, cfg, data)
    store = _grown(store)
    rid = counts[0]
    rules = store[3]
    rules[0, rid] = start
    rules[1, rid] = counts[1]
    rules[2, rid] = parent
    rules[3, rid] = rid + 1
    counts[0] += 1
    return store, rid, pos, neg, view


@numba.njit(cache=True)
def _cut(store, n_rules, n_lits):
    """The store back to ``n_rules`` rules and ``n_lits`` literals."""
    store[4][0] = n_rules
    store[4][1] = n_lits


@numba.njit(cache=True)
def _judge(store, rid, pos, neg, taken, data, cfg, depth):
    """Whether a rule set keeps rule ``rid`` (``learn_rule_set``'s test): it covers
    enough positives, an exception (``depth`` > 0) ``lit_rows`` of them for each of its
    literals, and, with majority refusal, is not wrong on more new negatives than it
    covers positives (``taken``: negatives covered by the set's earlier rules,
    updated).  Returns (kept, the positives it leaves, its positives' total, its
    negatives' total)."""
    num, is_num, codes, weights = data[4], data[5], data[2], data[6]
    on_pos = holds_rows(store, rid, pos, num, is_num, codes)
    covered = _select(pos, on_pos, True)
    n_cov = total(covered, weights)
    kept = covered.shape[0] > 0 and n_cov >= cfg[MIN_RULE]          # (_enough)
    if kept and depth > 0 and cfg[LIT_ROWS] > 0:                    # (_pays)
        kept = not fewer(n_cov, (store[3][1, rid] - store[3][0, rid]) * cfg[LIT_ROWS])
    on_neg = holds_rows(store, rid, neg, num, is_num, codes)
    if kept and cfg[MAJORITY] > 0:
        new = np.empty(neg.shape[0], dtype=np.bool_)
        for i in range(neg.shape[0]):
            new[i] = on_neg[i] and not taken[i]
            taken[i] |= on_neg[i]
        kept = not more(total(_select(neg, new, True), weights), n_cov)
    return kept, _select(pos, on_pos, False), n_cov, total(_select(neg, on_neg, True), weights)


@numba.njit(cache=True)
def _frame(pos, neg, bf, bo, bv, depth, parent, view, active, cfg, data):
    """A rule set to learn (``learn_rule_set``), its view cut to its rows."""
    g, rr, off, nv = _narrow(view, pos, neg, active, cfg, data)
    # (pos, neg, banned f/o/v, depth, parent, view, taken, [kept rules, rule awaiting
    # its exceptions or -1])
    return (pos, neg, bf, bo, bv, depth, parent, g, rr, off, nv,
            np.zeros(neg.shape[0], dtype=np.bool_), np.array([0, -1], dtype=np.int64))


@numba.njit(cache=True)
def _exceptions_due(n, depth, cfg):
    """A rule at ``depth`` whose negatives ``n`` remain gets its exceptions learned."""
    return n.shape[0] > 0 and (cfg[MAX_DEPTH] < 0 or depth < cfg[MAX_DEPTH])


@numba.njit(cache=True)
def _exceptions_frame(store, rid, bf, bo, bv, p, n, depth, view, active, cfg, data):
    """Rule ``rid``'s exception set (its negatives against its positives, one level
    deeper, its literals banned with the ones above it)."""
    rules = store[3]
    fb, ob, vb = _banned_plus(bf, bo, bv, store, rules[0, rid], rules[1, rid])
    return _frame(n, p, fb, ob, vb, depth + 1, rid, view, active, cfg, data)


@numba.njit(cache=True)
def learn(store, view, data, state, active, pos, neg, bf, bo, bv, depth, parent, cfg, refused,
          as_set, memo, mc, groups_by_class, count_offsets):
    """FOLD's ``learn_rule`` (``as_set`` False) or ``learn_rule_set`` (``as_set`` True),
    with a stack of rule sets instead of recursion (numba's cache cannot hold a
    recursive function).

    ``learn_rule``: one rule for ``pos`` against ``neg`` under ``parent``, its exceptions
    learned with it; returns ``(store, rid)``, ``rid`` its number in the store, or -1
    (no rule), or -2 (the rule of class ``mc`` the memo knows narrows to none of its
    positives: :func:`_rule_literals`).  ``learn_rule_set``: rules for ``pos`` against
    ``neg`` until too few positives are left or a rule is not kept; returns
    ``(store, -1)``.  At depth 0,
    ``refused`` says why the first rule was not kept: [1, positives, negatives it
    covered], or [0, ...] when no rule was found.
    """
    weights = data[6]
    if as_set:
        stack = [_frame(pos, neg, bf, bo, bv, depth, parent, view, active, cfg, data)]
        top = -1
    else:
        store, top, p, n, v = _rule_literals(store, view, data, state, active, pos, neg, bf,
                                            bo, bv, parent, cfg, memo, mc, groups_by_class,
                                            count_offsets)
        if top < 0:
            return store, top
        if not _exceptions_due(n, depth, cfg):
            return store, top
        stack = [_exceptions_frame(store, top, bf, bo, bv, p, n, depth, v, active, cfg, data)]
    while len(stack) > 0:
        fr = stack.pop()
        s_pos, s_neg, s_bf, s_bo, s_bv, s_depth, s_parent, g, rr, off, nv, taken, status = fr
        s_view = (g, rr, off, nv)
        rid = status[1]
        if rid >= 0:
            # the rule's exceptions are learned: is it kept?
            store[3][3, rid] = store[4][0]
            status[1] = -1
            kept, left, n_cov, n_wrong = _judge(store, rid, s_pos, s_neg, taken, data, cfg,
                                                s_depth)
            if not kept:
                if s_depth == 0 and status[0] == 0:
                    refused[0] = 1.0
                    refused[1] = n_cov
                    refused[2] = n_wrong
                _cut(store, rid, store[3][0, rid])
                continue
            s_pos = left
            status[0] += 1
        if not _enough(s_pos, weights, cfg[MIN_RULE]):
            continue
        store, rid, p, n, v = _rule_literals(store, s_view, data, state, active, s_pos, s_neg,
                                            s_bf, s_bo, s_bv, s_parent, cfg, memo, -1,
                                            NO_COUNTS, NO_OFFSETS)
        if rid < 0:
            if s_depth == 0 and status[0] == 0:
                refused[0] = 0.0
            continue
        status[1] = rid
        stack.append((s_pos, s_neg, s_bf, s_bo, s_bv, s_depth, s_parent, g, rr, off, nv, taken,
                      status))
        if _exceptions_due(n, s_depth, cfg):
            stack.append(_exceptions_frame(store, rid, s_bf, s_bo, s_bv, p, n, s_depth, v,
                                           active, cfg, data))
    if not as_set:
        store[3][3, top] = store[4][0]
    return store, top


@numba.njit(cache=True)
def _as_arrays(store):
    lit_f, lit_o, lit_v, rules, counts = store
    lits = np.empty((2, counts[1]), dtype=np.int64)
    lits[0] = lit_f[:counts[1]]
    lits[1] = lit_o[:counts[1]]
    return rules[:, :counts[0]].copy(), lits, lit_v[:counts[1]].copy()


@numba.njit(cache=True)
def rule_set(view, data, pos, neg, cfg):
    """FOLD's binary rule set (``_Search.learn_rule_set(pos, neg, [], 0)``) over the
    ascending row lists ``pos`` and ``neg``.

    Returns ``(rules, lits, values, refused)``: ``rules`` int64[4, R] (literal range
    lo, hi, parent, end), ``lits`` int64[2, L] (feature, op), ``values`` float64[L],
    ``refused`` as :func:`learn` leaves it (its first entry -1: no rule was refused).
    """
    n = data[4].shape[1]
    store = _new_store()
    state = np.zeros(n, dtype=np.int8)
    active = np.zeros(n, dtype=np.bool_)
    refused = np.full(3, -1.0)
    none = np.zeros(0, dtype=np.int64)
    store, _ = learn(store, view, data, state, active, pos, neg, none, none, np.zeros(0), 0, -1,
                     cfg, refused, True, _no_memo(), -1, NO_COUNTS, NO_OFFSETS)
    rules, lits, values = _as_arrays(store)
    return rules, lits, values, refused


@numba.njit(cache=True)
def _class_totals(y_idx, rows, weights, k):
    totals = np.zeros(k)
    if weights is None:
        for r in rows:
            totals[y_idx[r]] += 1.0
    else:
        for r in rows:
            totals[y_idx[r]] += weights[r]
    return totals


@numba.njit(cache=True)
def most(totals):
    """The first class whose total is within rounding (1e-9, relative) of the largest
    (``aspml.learners.fold._most`` asks it too)."""
    top = totals.max() * (1 - 1e-9)
    for c in range(totals.shape[0]):
        if totals[c] >= top:
            return c
    return 0


# the cells (value groups x classes) of counts the multi-class loop keeps for its remaining
# rows (:func:`_group_counts`), at most: 8 MiB
COUNT_CELLS = 1 << 20


@numba.njit(cache=True)
def _group_counts(data, y_idx, k, rows):
    """The rows of each class in each value group of each feature the search may count by
    group (unweighted, of at most ``GROUP_CAP`` groups): ``(counts, offsets)``, feature
    ``f``'s group ``g`` at ``counts[offsets[f] + g]`` (``offsets[f]`` -1: not kept; no
    feature kept past ``COUNT_CELLS`` cells).  The loop takes a leaving row's class out
    of them (:func:`_add_counts`), and each class's first search reads them instead of
    its rows: avila's first searches of a class after another, over the same remaining
    rows, counted eight features of up to 751 groups row by row each time."""
    distinct_offsets, weights, row_groups = data[1], data[6], data[7]
    n_features = distinct_offsets.shape[0] - 1
    offsets = np.full(n_features, -1, dtype=np.int64)
    if weights is not None or row_groups.shape[1] == 0:
        return np.zeros((0, k), dtype=np.int64), offsets
    size = 0
    for f in range(n_features):
        n_groups = distinct_offsets[f + 1] - distinct_offsets[f]
        if 0 < n_groups <= GROUP_CAP and (size + n_groups) * k <= COUNT_CELLS:
            offsets[f] = size
            size += n_groups
    counts = np.zeros((size, k), dtype=np.int64)
    _add_counts(counts, offsets, data, y_idx, rows, 1)
    return counts, offsets


@numba.njit(cache=True)
def _add_counts(counts, offsets, data, y_idx, rows, step):
    """Add ``step`` for each of ``rows`` to :func:`_group_counts`' (-1: the rows leave)."""
    row_groups = data[7]
    for f in range(offsets.shape[0]):
        at = offsets[f]
        if at < 0:
            continue
        rg = row_groups[f]
        for r in rows:
            g = rg[r]
            if g >= 0:
                counts[at + g, y_idx[r]] += step


@numba.njit(cache=True)
def _printed(store, lo, hi):
    """How many of the store's rules ``lo`` .. ``hi - 1`` (a top-level rule and its
    exceptions) the program prints: an exception of one literal and no exceptions of
    its own is folded into its rule as the negated literal (as
    ``aspml.learners.fold._fold_single_literal_exceptions``)."""
    rules = store[3]
    n = hi - lo
    for r in range(lo, hi):
        if rules[2, r] >= 0 and rules[1, r] - rules[0, r] == 1:
            leaf = True
            for q in range(lo, hi):
                if rules[2, q] == r:
                    leaf = False
                    break
            if leaf:
                n -= 1
    return n


@numba.njit(cache=True)
def multiclass(view, data, y_idx, k, cfg):
    """FOLD-RM's decision list (``FoldSE._learn_multiclass``'s loop) over all rows.

    Returns ``(rules, lits, values, tops, classes, decided, settled, over)``: the store
    as :func:`rule_set` returns it, the kept top-level rules' numbers in list order and
    their classes, which rows some kept rule covers (uint8), how many attempts the
    memo of refused rules settled without their later searches (:func:`_rule_literals`),
    and whether the loop stopped because its rules passed the budget it watched
    (``cfg[BUDGET]`` with ``cfg[HOLD]`` 0: the list is then to be learned again, held):
    once the rules before the list's last run of rules of one class pass it (the
    rules of the default class at the list's end are dropped, and that can only be
    a run at its end), whatever the rest of the list.

    Held to a budget of B rules (``cfg[HOLD]`` 1), before each attempt the tail bars
    (``min_rule``, ``min_kept``) rise to ``BUDGET_SHARE`` x (the undecided rows' total)
    / (B - the rules kept, exceptions counted) when that is higher, a rule whose
    exceptions would take the list past B is refused, and the list ends at B rules:
    each rule has to earn its share of what the budget has left.
    """
    n = y_idx.shape[0]
    weights = data[6]
    num, is_num, codes = data[4], data[5], data[2]
    store = _new_store()
    state = np.zeros(n, dtype=np.int8)
    active = np.zeros(n, dtype=np.bool_)
    refused = np.full(3, -1.0)
    none = np.zeros(0, dtype=np.int64)
    no_values = np.zeros(0)
    remaining = np.arange(n)
    decided = np.zeros(n, dtype=np.uint8)
    waiting = np.zeros(k, dtype=np.bool_)
    tops = [np.int64(0)]
    classes = [np.int64(0)]
    tops.pop()
    classes.pop()
    of_class = np.empty(n, dtype=np.bool_)
    memo = _new_memo(k)
    settled = 0
    groups_by_class, count_offsets = _group_counts(data, y_idx, k, remaining)
    every = _class_totals(y_idx, remaining, weights, k)     # (again when rows leave)
    budget = cfg[BUDGET]
    held = budget >= 0 and cfg[HOLD] > 0
    base_rule = cfg[MIN_RULE]
    base_kept = cfg[MIN_KEPT]
    over = False
    used = 0                # the kept rules as the program prints them
    run_class = -1          # the class of the list's last rules, and their rules: the
    run_rules = 0           # rules of the default class at its end are dropped
    size = 0
    while remaining.shape[0] > 0:
        if budget >= 0:
            # watched, the list has passed the budget once the rules before its last run
            # of one class do: rules only join it, and only a run at its end is dropped
            if not held and used - run_rules > budget:
                over = True
                break
            if held:
                if used >= budget:
                    break
                left = 0.0          # the undecided rows' total, added in row order
                for r in range(n):
                    if not decided[r]:
                        left += _weight_of(weights, r)
                bar = cfg[BUDGET_SHARE] * left / (budget - used)
                cfg[MIN_RULE] = max(base_rule, bar)
                cfg[MIN_KEPT] = max(base_kept, bar)
        if np.count_nonzero(every > 0) < 2:
            break
        totals = every.copy()
        for c in range(k):
            if waiting[c]:
                totals[c] = 0.0
        if not totals.any():
            break
        c = most(totals)
        for i in range(remaining.shape[0]):
            of_class[i] = y_idx[remaining[i]] == c
        pos, neg = _split(remaining, of_class[:remaining.shape[0]])
        if not _enough(pos, weights, cfg[MIN_RULE]):
            break
        # the remaining rows' view is cut once they are at most 90% of it, not half: each
        # class after another searches it (2 to 4.4 first searches a kept rule on avila), and
        # a scan reads every row of the view (FoldRpp avila 86.6 -> 83.6 ms a fit)
        view = _narrow(view, remaining, none, active, cfg, data, 0.9)
        n_rules = store[4][0]
        n_lits = store[4][1]
        store, rid = learn(store, view, data, state, active, pos, neg, none, none, no_values, 0,
                           -1, cfg, refused, False, memo, c, groups_by_class, count_offsets)
        kept = False
        on = np.zeros(0, dtype=np.bool_)
        settled += rid == -2
        if rid >= 0:
            on = holds_rows(store, rid, remaining, num, is_num, codes)
            # the class's rows it covers, and of the rows no kept rule covers those of its
            # class and the others' it decides: counted (weights added in row order, as
            # total() adds a list of them), no list made
            n_cov = 0
            w_cov = 0.0
            n_dec = 0
            w_dec = 0.0
            w_wrong = 0.0
            for i in range(remaining.shape[0]):
                if on[i]:
                    r = remaining[i]
                    w = _weight_of(weights, r)
                    if of_class[i]:
                        n_cov += 1
                        w_cov += w
                        if not decided[r]:
                            n_dec += 1
                            w_dec += w
                    elif not decided[r]:
                        w_wrong += w
            # the tail bar counts the rows of its class it decides, or those it covers
            # when it decides half of them: rows an earlier rule covers get that rule's
            # class, whatever this one says (a trial: a rule that covered 2,999 rows and
            # decided one, 'opened != "2018-01-01"'; as FoldSE._multiclass_loop)
            kept = (n_cov > 0 and n_dec > 0 and (w_dec >= cfg[MIN_KEPT]
                                                 or (w_cov >= cfg[MIN_KEPT]
                                                     and 2 * w_dec >= w_cov))
                    and not more(w_wrong, w_dec))
            size = _printed(store, n_rules, store[4][0])
            if held and used + size > budget:     # its exceptions take the list past B
                kept = False
        if not kept:
            _cut(store, n_rules, n_lits)
            waiting[c] = True
            continue
        waiting[:] = False
        used += size
        if c == run_class:
            run_rules += size
        else:
            run_class = c
            run_rules = size
        tops.append(rid)
        classes.append(c)
        leave = np.zeros(remaining.shape[0], dtype=np.bool_)
        for i in range(remaining.shape[0]):
            if on[i]:
                decided[remaining[i]] = 1
                leave[i] = of_class[i]
        gone, remaining = _split(remaining, leave)
        _add_counts(groups_by_class, count_offsets, data, y_idx, gone, -1)
        every = _class_totals(y_idx, remaining, weights, k)
    rules, lits, values = _as_arrays(store)
    t = np.empty(len(tops), dtype=np.int64)
    cl = np.empty(len(classes), dtype=np.int64)
    for i in range(len(tops)):
        t[i] = tops[i]
        cl[i] = classes[i]
    cfg[MIN_RULE] = base_rule
    cfg[MIN_KEPT] = base_kept
    return rules, lits, values, t, cl, decided, settled, over
