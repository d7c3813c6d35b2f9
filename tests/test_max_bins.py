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
@pytest.mark.parametrize("seed", [0, 1, 2])
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
