"""Each numba kernel against a slow, obvious Python version on small and edge-case inputs."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aspml.kernels.literals import (EQ, GT, LE, NE, NOT_GT, NOT_LE, best_literal,
                                    best_literal_parallel, build_view, build_view_serial,
                                    filter_sorted, filter_sorted_parallel, heuristic,
                                    row_groups_of)
from aspml.kernels.scale import min_decimals
from aspml.kernels.sort import argsort_float, argsort_scaled
from conftest import examples


def slow_heuristic(tp, fn, tn, fp, kind):
    if tp + tn < (fp + fn) * (1 - 1e-9) or tp + fn + tn + fp == 0 or (kind == 1 and tp + fn == 0):
        return -math.inf
    if kind == 0:
        def t(a, b):
            return a * math.log2(a / b) if a > 0 and b > 0 else 0.0
        n = tp + fn + tn + fp
        return (t(tp, tp + fp) + t(fp, tp + fp) + t(tn, tn + fn) + t(fn, tn + fn)) / n
    g = (tp * fp / (tp + fp) if tp + fp else 0) + (tn * fn / (tn + fn) if tn + fn else 0)
    return -g / (tp + fn)


def test_magic_gini_impurity_paper_example():
    assert heuristic(3, 4, 8, 0, 1) == pytest.approx(-0.38, abs=0.005)
    assert heuristic(1, 0, 0, 5, 1) == -math.inf        # tp + tn < fp + fn


@given(st.integers(0, 50), st.integers(0, 50), st.integers(0, 50), st.integers(0, 50),
       st.sampled_from([0, 1]))
def test_heuristic_matches_formula(tp, fn, tn, fp, kind):
    if tp + fn + tn + fp == 0 or (kind == 1 and tp + fn == 0):
        return
    assert heuristic(tp, fn, tn, fp, kind) == pytest.approx(slow_heuristic(tp, fn, tn, fp, kind))


@pytest.mark.parametrize("values", [
    np.array([]), np.array([1.0]), np.zeros(7), np.array([0.0, -0.0, 1.0, -1.0, -np.inf, np.inf]),
    np.array([3.0, 1.0, 2.0, 1.0, 3.0, 1e-300, -1e300]),
    np.random.default_rng(0).normal(size=5000).round(1),
    # either side of RADIX_MIN (a merge sort below it): ties, -0.0 and 0.0, infinities
    *[np.random.default_rng(n).choice([-0.0, 0.0, 1.5, -2.0, np.inf, -np.inf, 3.25], n)
      for n in (2, 2999, 3000)]])
def test_argsort_float_is_a_stable_argsort(values):
    assert np.array_equal(argsort_float(values), np.argsort(values, kind="stable"))


def slow_best(num, is_num, codes, state, kind, negated, min_tp, banned):
    """Every candidate literal on the active rows, in the kernel's tie order."""
    n_pos, n_neg = int((state == 1).sum()), int((state == 2).sum())
    best = (-math.inf, -1, -1, 0.0)
    for f in range(num.shape[0]):
        active_vals = sorted(set(num[f][(state > 0) & is_num[f]]))
        cands = []
        for v in active_vals:
            le = is_num[f] & (num[f] <= v)
            gt = is_num[f] & (num[f] > v)
            masks = [(LE, le), (GT, gt)] + ([(NOT_LE, ~le), (NOT_GT, ~gt)] if negated else [])
            cands += [(op, v, m) for op, m in masks]
        for c in range(codes.shape[1] and codes[f].max() + 1):
            if not ((codes[f] == c) & (state > 0)).any():
                continue
            cands += [(EQ, float(c), codes[f] == c), (NE, float(c), codes[f] != c)]
        for op, v, m in cands:
            tp = int((m & (state == 1)).sum())
            fp = int((m & (state == 2)).sum())
            if tp < min_tp or fp >= n_neg or (f, op, v) in banned:
                continue
            score = slow_heuristic(tp, n_pos - tp, n_neg - fp, fp, kind)
            if score > best[0] + (1e-12 * max(abs(best[0]), 1.0) if best[0] != -np.inf else 0.0):
                best = (score, f, op, v)
    return best


@pytest.mark.parametrize("kernel", ["serial", "parallel"])
def test_negated_comparison_wins_when_its_plain_twin_is_banned(kernel):
    """Every active row a number: ``not (x <= v)`` covers what ``x > v`` does, so the
    kernel skips the negated forms, unless the plain one is banned, when the negated
    one is the best literal left."""
    search = best_literal if kernel == "serial" else best_literal_parallel
    num = np.array([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]])
    is_num = np.ones_like(num, dtype=bool)
    state = np.array([2, 2, 2, 1, 1, 1], dtype=np.int8)
    groups, rows, offsets, distinct, d_off = build_view(num, is_num, np.zeros(1))
    codes = np.full((1, 6), -1, dtype=np.int32)

    def best(banned):
        b = np.array(banned, dtype=np.float64).reshape(-1, 3)
        return search(groups, rows, offsets, distinct, d_off, codes, np.zeros(1, np.int64),
                      state, np.flatnonzero(state), None, 3.0, 3.0, 3, 1, True, 0.0,
                      b[:, 0].astype(np.int64), b[:, 1].astype(np.int64),
                      np.ascontiguousarray(b[:, 2]))[1:]

    assert best([]) == (0, GT, 3.0)
    assert best([(0, GT, 3.0)]) == (0, NOT_LE, 3.0)
    state[[0, 5]] = 0                      # fewer active rows: the same
    assert best([(0, GT, 3.0)]) == (0, NOT_LE, 3.0)


@st.composite
def search_inputs(draw):
    n = draw(st.integers(1, 30))
    n_f = draw(st.integers(1, 4))
    num = np.array([[draw(st.sampled_from([0.0, 1.0, 1.5, 2.0, -3.0, 7.25])) for _ in range(n)]
                    for _ in range(n_f)])
    # a feature numeric on every row (the kernels' shortcuts) or mixed
    is_num = np.array([[True] * n if draw(st.booleans()) else
                       [draw(st.booleans()) for _ in range(n)] for _ in range(n_f)])
    codes = np.array([[-1 if is_num[f, r] else draw(st.integers(-1, 2)) for r in range(n)]
                      for f in range(n_f)], dtype=np.int32)
    state = np.array([draw(st.sampled_from([0, 1, 2])) for _ in range(n)], dtype=np.int8)
    return num, is_num, codes, state


@settings(max_examples=examples(150), deadline=None)
@given(search_inputs(), st.sampled_from([0, 1]), st.booleans(), st.integers(0, 2),
       st.sampled_from([[], [(0, LE, 1.0)], [(0, GT, 0.0), (0, EQ, 1.0)]]))
def test_best_literal_matches_slow_search(inputs, kind, negated, min_tp, banned):
    num, is_num, codes, state = inputs
    groups, rows, offsets, distinct, d_off = build_view(num, is_num, np.zeros(num.shape[0]))
    n_codes = np.array([(c.max() + 1) if c.max() >= 0 else 0 for c in codes], dtype=np.int64)
    active = np.flatnonzero(state)
    b = np.array(banned, dtype=np.float64).reshape(-1, 3)
    args = (codes, n_codes, state, active, None, float((state == 1).sum()),
            float((state == 2).sum()), int((state == 2).sum()), kind, negated, float(min_tp),
            b[:, 0].astype(np.int64), b[:, 1].astype(np.int64),
            np.ascontiguousarray(b[:, 2]))      # (the learner's layout: one compiled kernel)
    expected = slow_best(num, is_num, codes, state, kind, negated, min_tp, set(map(tuple, banned)))
    # the whole view, counting; the whole view told its rows; the view cut to the active
    # rows and told their number (what the learner does); each feature with no more value
    # groups than active rows counted by group, over the whole view and over the cut one
    cut = filter_sorted(groups, rows, offsets, state != 0)
    by_group = row_groups_of(groups, rows, offsets, num.shape[1])
    views = [((groups, rows, offsets), ()), ((groups, rows, offsets), (num.shape[1],)),
             (cut, (len(active),)), ((groups, rows, offsets), (num.shape[1], by_group)),
             (cut, (len(active), by_group))]
    for search, (view, told) in itertools.product((best_literal, best_literal_parallel), views):
        score, f, op, value = search(*view, distinct, d_off, *args, *told)
        if expected[0] == -math.inf:
            assert score == -math.inf
        else:
            assert (f, op, value) == expected[1:]
            assert score == pytest.approx(expected[0])


@pytest.mark.parametrize("seed", range(6))
def test_runs_of_one_side_skipped_as_scored(seed):
    """Many distinct values and few positives: long runs of thresholds that add rows of
    one side only, blocks the sorted scan bounds by their ends and skips (convexity); the
    literal is the one scoring every threshold finds, with missing values, negated
    comparisons, a banned literal and both heuristics."""
    rng = np.random.default_rng(seed)
    n, n_f = 300, 2
    num = rng.normal(size=(n_f, n)).round(3)
    is_num = rng.random((n_f, n)) > (0.1 if seed % 2 else 0.0)
    y = rng.random(n) < 0.08 + 0.1 * (num[0] > 1.0)
    state = np.where(rng.random(n) < 0.8, np.where(y, 1, 2), 0).astype(np.int8)
    assert_searches_as_scored(num, is_num, state, cut=False)


def assert_searches_as_scored(num, is_num, state, cut):
    """best_literal and best_literal_parallel find the literal :func:`slow_best` finds
    (both heuristics, with and without negated comparisons, with the best literal banned),
    over the whole view and, when ``cut``, over the view cut to the active rows."""
    n_f = num.shape[0]
    codes = np.full(num.shape, -1, dtype=np.int32)
    groups, rows, offsets, distinct, d_off = build_view(num, is_num, np.zeros(n_f))
    active = np.flatnonzero(state)
    views = [((groups, rows, offsets), ())]
    if cut:
        views.append((filter_sorted(groups, rows, offsets, state != 0), (len(active),)))
    for kind, negated, banned in itertools.product((0, 1), (False, True), ([], "best")):
        if banned == "best":
            first = slow_best(num, is_num, codes, state, kind, negated, 1, set())
            banned = [first[1:]] if first[1] >= 0 else []
        b = np.array(banned, dtype=np.float64).reshape(-1, 3)
        expected = slow_best(num, is_num, codes, state, kind, negated, 1,
                             set(map(tuple, banned)))
        args = (distinct, d_off, codes, np.zeros(n_f, np.int64), state, active, None,
                float((state == 1).sum()), float((state == 2).sum()), int((state == 2).sum()),
                kind, negated, 1.0, b[:, 0].astype(np.int64), b[:, 1].astype(np.int64),
                np.ascontiguousarray(b[:, 2]))
        for search, (view, told) in itertools.product((best_literal, best_literal_parallel),
                                                      views):
            score, f, op, value = search(*view, *args, *told)
            assert (f, op, value) == expected[1:]
            assert score == pytest.approx(expected[0])


@pytest.mark.parametrize("seed", range(8))
def test_blocks_of_thresholds_bounded_as_scored(seed):
    """Many distinct values, classes from rare to balanced, values rounded to few digits
    (ties of counts and of scores): the sorted scan bounds blocks of thresholds by their
    counts' corners and skips those that cannot beat the best so far (convexity); the
    literal is the one scoring every threshold finds, for both heuristics, negated
    comparisons, a banned best literal and after the search's own cut of the view."""
    rng = np.random.default_rng(100 + seed)
    n, n_f = int(rng.integers(200, 700)), 3
    num = rng.normal(size=(n_f, n)).round(int(rng.integers(1, 4)))
    is_num = rng.random((n_f, n)) > (0.05 if seed % 2 else 0.0)
    share = (0.03, 0.15, 0.35, 0.5)[seed % 4]
    y = rng.random(n) < share + 0.2 * np.tanh(num[seed % n_f])
    state = np.where(rng.random(n) < 0.85, np.where(y, 1, 2), 0).astype(np.int8)
    assert_searches_as_scored(num, is_num, state, cut=True)


@settings(max_examples=100, deadline=None)
@given(search_inputs(), st.data())
def test_view_and_filter_match_python(inputs, data):
    num, is_num, codes, state = inputs
    scales = np.array([data.draw(st.sampled_from([0.0, 4.0, 100.0])) for _ in range(num.shape[0])])
    groups, rows, offsets, distinct, d_off = build_view(num, is_num, scales)
    serial = build_view_serial(num, is_num, scales)      # one feature after the other: the same
    for mine, theirs in zip(serial, (groups, rows, offsets, distinct, d_off)):
        assert mine.dtype == theirs.dtype and np.array_equal(mine, theirs)
    for f in range(num.shape[0]):
        mine = rows[offsets[f]:offsets[f + 1]]
        expected = np.flatnonzero(is_num[f])[np.argsort(num[f][is_num[f]], kind="stable")]
        assert np.array_equal(mine, expected)
        values = distinct[d_off[f] + groups[offsets[f]:offsets[f + 1]]]
        assert np.array_equal(values, num[f][mine])
        assert np.array_equal(distinct[d_off[f]:d_off[f + 1]], np.unique(num[f][is_num[f]]))
    active = np.array(data.draw(st.lists(st.booleans(), min_size=num.shape[1],
                                         max_size=num.shape[1])), dtype=bool)
    told = (num.shape[1], int(active.sum()))     # the view's rows, and its active ones
    for cut, extra in itertools.product((filter_sorted, filter_sorted_parallel), ((), told)):
        g2, r2, o2 = cut(groups, rows, offsets, active, *extra)
        for f in range(num.shape[0]):
            keep = active[rows[offsets[f]:offsets[f + 1]]]
            assert np.array_equal(r2[o2[f]:o2[f + 1]], rows[offsets[f]:offsets[f + 1]][keep])
            assert np.array_equal(g2[o2[f]:o2[f + 1]], groups[offsets[f]:offsets[f + 1]][keep])


@pytest.mark.parametrize("values, scale", [
    (np.array([]), 1.0), (np.array([5.0]), 1.0), (np.array([2.5, -1.25, 0.0, -0.0, 7.0]), 4.0),
    (np.random.default_rng(1).integers(-10**6, 10**6, 3000) / 100, 100.0),
    # a small range: the counting sort, either side of its bound (span < 2n + 256) and of
    # RADIX_MIN
    *[(np.random.default_rng(n).integers(-3, span - 3, n).astype(float), 1.0)
      for n, span in ((2, 2), (7, 259), (7, 261), (2999, 40), (3000, 6255), (3000, 6257),
                      (50_000, 1000))],
    (np.random.default_rng(5).integers(0, 400, 2000) / 4, 4.0)])
def test_argsort_scaled_is_a_stable_argsort(values, scale):
    assert np.array_equal(argsort_scaled(values, scale), np.argsort(values, kind="stable"))


@pytest.mark.parametrize("values, expected", [
    ([], 0), ([1.0, 2.0], 0), ([1.5, np.nan, np.inf], 1), ([0.125, 3.0], 3),
    ([0.1 + 0.2], 10), ([1e-12], 10), ([-2.75, 12.3], 2)])
def test_min_decimals(values, expected):
    assert min_decimals(np.array(values, dtype=float), 9) == expected


_EDGES = [-np.inf, np.inf, 0.0, -0.0, 1.0, 2.5, 3.0, -1.0, 1e300, 5e-324, -5e-324,
          float(np.nextafter(1.0, 0.0))]


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_EDGES + [math.nan]), st.booleans()), max_size=150),
       st.lists(st.tuples(st.sampled_from(_EDGES), st.booleans()), max_size=200))
def test_cut_masks_match_a_comparison_a_cut(rows, cuts):
    """cut_masks against numpy's comparison of every row with every cut, packed: edges
    (-0.0, infinities, the float below 1, subnormals, NaN, rows without a number) and
    more cuts than the count over every cut takes (128: blocks of 16 cuts)."""
    from aspml.kernels.bitset import cut_masks, pack
    num = np.array([v for v, _ in rows], dtype=float)
    is_num = np.array([k for _, k in rows], dtype=bool)
    a = np.array([v for v, _ in cuts], dtype=float)
    strict = np.array([s for _, s in cuts], dtype=bool)
    got = cut_masks(num, is_num, a, strict)
    assert got.shape == (len(cuts), max(1, (len(rows) + 63) // 64))
    for k in range(len(cuts)):
        with np.errstate(invalid="ignore"):
            want = is_num & ((num < a[k]) if strict[k] else (num <= a[k]))
        assert np.array_equal(got[k], pack(want))


@pytest.mark.parametrize("m", [0, 1, 128, 129, 130, 143, 144, 145, 300])
@pytest.mark.parametrize("above", [False, True])
def test_cut_masks_of_many_cuts(m, above):
    """Either side of 128 cuts, cuts and rows drawn from the same few values (ties); with
    ``above``, rows above every cut (a short last block of 16 cuts once counted a row
    past the last set: a write out of bounds)."""
    from aspml.kernels.bitset import cut_masks, pack
    rng = np.random.default_rng(m)
    values = np.array(_EDGES + [math.nan, 0.5, 7.0])
    num = rng.choice(values, 1000)
    is_num = rng.random(1000) < 0.95
    a = rng.choice(values[:-3], m)
    if above:
        a = a[np.isfinite(a)]
        m = len(a)
    strict = rng.random(m) < 0.5
    got = cut_masks(num, is_num, a, strict)
    for k in range(m):
        with np.errstate(invalid="ignore"):
            want = is_num & ((num < a[k]) if strict[k] else (num <= a[k]))
        assert np.array_equal(got[k], pack(want))
    # the same code run by Python, whose indexing refuses a place out of bounds (compiled,
    # such a write goes unseen, or corrupts memory)
    with np.errstate(invalid="ignore", over="ignore"):
        slow = cut_masks.py_func(num[:150], is_num[:150], a, strict)
    assert np.array_equal(slow, cut_masks(num[:150], is_num[:150], a, strict))


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(0, 6), st.integers(0, 70), st.data())
def test_first_true_is_the_first_rule_that_holds(n_rules, n_rows, data):
    """first_true against a loop over the rows: the first listed rule whose row holds."""
    from aspml.kernels.cover import first_true
    cells = data.draw(st.lists(st.booleans(), min_size=n_rules * n_rows,
                               max_size=n_rules * n_rows))
    rows = np.array(cells, dtype=bool).reshape(n_rules, n_rows)
    idx = np.array(data.draw(st.lists(st.integers(0, max(n_rules - 1, 0)), max_size=5))
                   if n_rules else [], dtype=np.int64)
    want = [next((k for k, i in enumerate(idx) if rows[i, r]), -1) for r in range(n_rows)]
    assert first_true(rows, idx).tolist() == want
