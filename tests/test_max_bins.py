"""FOLD on binned numbers (issue #21): ``max_bins`` searches each numeric column on at most
that many quantile thresholds; the program is the one learned from the table with each
number replaced by its bin's edge, and says the same of the original rows."""

import warnings

import numpy as np
import pandas as pd
import pytest

import aspml
from aspml.errors import AspmlWarning
from aspml.learners.fold import _binned
from aspml.data.table import schema_and_table


def mixed_table(n, seed, classes=2):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n).round(3)
    b = rng.integers(0, 1000, n).astype(object)
    b[rng.random(n) < 0.1] = "none"                 # a category among the numbers
    c = rng.choice(["red", "green", "blue"], n)
    d = rng.exponential(size=n).round(4)
    d[rng.random(n) < 0.1] = np.nan                 # missing values
    score = a + (np.where(b == "none", 0, b).astype(float) > 600) + (c == "red") - d
    y = np.digitize(score + rng.normal(scale=0.5, size=n), [0.2, 1.0][:classes - 1])
    return pd.DataFrame({"a": a, "b": b, "c": c, "d": d}), np.array(["x", "y", "z"])[y]


def binned_frame(X, max_bins):
    """X with each number replaced by its bin's edge, the way _binned does."""
    _, table = schema_and_table(X)
    out = X.copy()
    for name in X.columns:
        col = _binned(table[name], max_bins)
        if col is table[name]:
            continue
        values = out[name].to_numpy(dtype=object).copy()
        values[col.is_num] = col.num[col.is_num]
        out[name] = values
    return out


def fit(learner, X, y, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AspmlWarning)
        return learner(**params).fit(X, y)


@pytest.mark.parametrize("learner", [aspml.FoldSE, aspml.FoldRpp])
@pytest.mark.parametrize("classes", [2, 3])
@pytest.mark.parametrize("seed", [0, 1])
def test_binned_fit_is_the_fit_on_binned_numbers(learner, classes, seed):
    X, y = mixed_table(600, seed, classes)
    Xb = binned_frame(X, 16)
    kinds = {"a": "numeric", "b": "mixed", "c": "categorical", "d": "numeric"}
    p = fit(learner, X, y, max_bins=16, kinds=kinds).program_
    q = fit(learner, Xb, y, kinds=kinds).program_
    assert p.rules == q.rules and p.to_text() == q.to_text()
    # the thresholds are edges: the program says the same of a row and of its binned row
    assert np.array_equal(np.asarray(p.predict(X), dtype=object),
                          np.asarray(p.predict(Xb), dtype=object))
    # and each threshold is a value of its column
    for rule in p.rules:
        for lit in rule.body:
            if getattr(lit, "op", None) in ("<=", ">") and lit.feature in ("a", "d"):
                assert lit.value in set(X[lit.feature].dropna())


def test_few_distinct_values_are_not_binned_and_bins_bound_the_thresholds():
    X, y = mixed_table(2000, 3)
    _, table = schema_and_table(X)
    assert _binned(table["c"], 4) is table["c"]
    col = _binned(table["a"], 8)
    assert len(np.unique(col.num[col.is_num])) <= 8
    assert col.num[col.is_num].max() == X.a.max()
    assert np.array_equal(col.is_num, table["a"].is_num)
    big = fit(aspml.FoldSE, X, y, max_bins=10**6).program_
    assert big.rules == fit(aspml.FoldSE, X, y).program_.rules


@pytest.mark.parametrize("bad", [1, 0, -3, 2.5, "10", True])
def test_bad_max_bins_is_one_clear_error(bad):
    X, y = mixed_table(50, 0)
    with pytest.raises(ValueError, match="max_bins"):
        aspml.FoldSE(max_bins=bad).fit(X, y)


def test_cli_learns_with_max_bins(tmp_path):
    from aspml.cli import main
    X, y = mixed_table(300, 0)
    X.assign(label=y).to_csv(tmp_path / "t.csv", index=False)
    assert main(["learn", str(tmp_path / "t.csv"), "--target", "label", "--positive", "y",
                 "--param", "max_bins=8", "-o", str(tmp_path / "m.lp"), "--quiet"]) == 0
    p = aspml.load(tmp_path / "m.lp")
    q = fit(aspml.FoldSE, X, y, positive="y", max_bins=8).program_
    assert p.rules == q.rules and dict(p.provenance)["max_bins"] == 8


@pytest.mark.parametrize("seed", range(120))
def test_counts_summed_over_partitions_pick_the_literal_the_sorted_search_picks(seed):
    """aspml.kernels.histogram (the Dask fit's search) against aspml.kernels.literals on
    the same binned rows: counts per partition, summed, give the same literal and score,
    weighted (whole weights) or not, with banned literals and negated comparisons."""
    from aspml.kernels import histogram, literals
    rng = np.random.default_rng(seed)
    n, n_f = int(rng.integers(1, 60)), int(rng.integers(1, 4))
    num = rng.choice([0.5, 1.0, 2.0, 3.5, 7.0], size=(n_f, n))
    is_num = rng.random((n_f, n)) < 0.8
    codes = np.where(is_num, -1, rng.integers(-1, 3, (n_f, n))).astype(np.int32)
    n_codes = np.array([max(int(c.max()) + 1, 0) for c in codes], dtype=np.int64)
    state = rng.choice([0, 1, 2], n).astype(np.int8)
    weights = None if seed % 2 else rng.integers(1, 4, n).astype(float)
    kind, negated, min_tp = int(seed % 3 == 0), bool(seed % 4), float(seed % 3)
    banned = [(0, literals.LE, 2.0)] if seed % 5 == 0 else []
    b = np.array(banned, dtype=np.float64).reshape(-1, 3)
    bf, bo, bv = b[:, 0].astype(np.int64), b[:, 1].astype(np.int64), b[:, 2]
    groups, rows, offsets, distinct, d_off = literals.build_view(num, is_num, np.zeros(n_f))
    w = np.ones(n) if weights is None else weights
    active = state > 0
    want = literals.best_literal(groups, rows, offsets, distinct, d_off, codes, n_codes, state,
                                 np.flatnonzero(state), weights, float(w[state == 1].sum()),
                                 float(w[state == 2].sum()), int((state == 2).sum()), kind,
                                 negated, min_tp, bf, bo, bv)
    # each row's bin: the rank of its number among its feature's distinct numbers
    bins = np.full((n_f, n), -1, dtype=np.int32)
    for f in range(n_f):
        d = distinct[d_off[f]:d_off[f + 1]]
        bins[f, is_num[f]] = np.searchsorted(d, num[f, is_num[f]])
    cuts = np.sort(rng.choice(np.arange(n + 1), 2))
    # (each partition's arrays contiguous, as the Dask fit's are: one compiled kernel)
    counts = sum(histogram.count_partition(np.ascontiguousarray(bins[:, a:z]),
                                           np.ascontiguousarray(codes[:, a:z]), state[a:z],
                                           None if weights is None else weights[a:z],
                                           d_off, np.concatenate([[0], np.cumsum(n_codes)]))
                 for a, z in zip([0, *cuts], [*cuts, n]))
    got = histogram.best_from_counts(counts, distinct, d_off,
                                     np.concatenate([[0], np.cumsum(n_codes)]), kind, negated,
                                     min_tp, bf, bo, bv, weights is not None)
    assert got[1:] == want[1:]
    assert got[0] == want[0] or (np.isinf(got[0]) and np.isinf(want[0]))
    assert active.sum() == counts[-4] + counts[-3]
