"""aspml.dask: a program over a Dask DataFrame gives the fast path's answers on every row."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings

import aspml

from strategies import multiclass_programs_with_tables, programs_with_tables

dd = pytest.importorskip("dask.dataframe")
import dask  # noqa: E402

SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]


def compute(thing):
    with dask.config.set(scheduler="synchronous"):      # no thread pool per example
        return thing.compute()


def _missing(v) -> bool:
    return v is None or (isinstance(v, float) and np.isnan(v))


def check(program, X, partitions=3):
    ddf = dd.from_pandas(X.reset_index(drop=True), npartitions=partitions)
    got = compute(aspml.dask.predict(program, ddf))
    want = np.asarray(aspml.evaluate.predict(program, X.reset_index(drop=True)))
    assert got.name == program.target.name
    assert list(got.index) == list(range(len(X)))
    # a row of no class (None in the fast path) is a missing label in a Dask Series
    assert [None if _missing(v) else v for v in got.tolist()] == want.tolist()
    cov = compute(aspml.dask.coverage(program, ddf))
    frame = aspml.evaluate.coverage_frame(program, X.reset_index(drop=True))
    pd.testing.assert_frame_equal(cov.reset_index(drop=True), frame.reset_index(drop=True))
    counts = compute(aspml.dask.rule_counts(program, ddf))
    assert counts.tolist() == frame.sum().tolist()


@settings(max_examples=25, deadline=None, suppress_health_check=SLOW_OK)
@given(programs_with_tables())
def test_dask_predict_equals_the_fast_path(case):
    program, X = case
    check(program, X, partitions=min(3, max(1, len(X))))


@settings(max_examples=15, deadline=None, suppress_health_check=SLOW_OK)
@given(multiclass_programs_with_tables())
def test_dask_classes_equal_the_fast_path(case):
    program, X = case
    check(program, X, partitions=min(3, max(1, len(X))))


def test_a_fitted_learner_over_partitions_of_mixed_columns():
    rng = np.random.default_rng(0)
    n = 400
    X = pd.DataFrame({"age": rng.integers(18, 90, n).astype(float),
                      "colour": rng.choice(["red", "blue", "n/a"], n),
                      "mixed": np.where(rng.random(n) < 0.3, "?", rng.normal(size=n).round(2))})
    X.loc[rng.random(n) < 0.1, "age"] = np.nan
    y = np.where(X.age.fillna(0) > 50, "old", np.where(X.colour == "blue", "blue", "other"))
    clf = aspml.FoldSE(tail=0.02).fit(X, y)
    ddf = dd.from_pandas(X, npartitions=4)
    got = compute(aspml.dask.predict(clf, ddf))
    assert got.tolist() == clf.predict(X).tolist()
    check(clf.program_, X, partitions=4)


def test_not_a_dask_frame_is_one_clear_error():
    program = aspml.parse('flies(X) :- bird(X).', "asp")
    with pytest.raises(TypeError, match="Dask DataFrame"):
        aspml.dask.predict(program, pd.DataFrame({"bird": [True]}))


def test_a_row_of_no_class_is_missing():
    """A multi-class program without a default class leaves some rows no class: None in
    the fast path, a missing value in the Dask Series (found by the property test)."""
    from aspml.logic.model import Feature
    program = aspml.Program((aspml.Rule(None, (aspml.Compare("f", "==", 0),), label=""),),
                            aspml.Target("t", classes=("", "a"), default=None),
                            aspml.Schema((Feature("f", "numeric", 1),)))
    X = pd.DataFrame({"f": [0, 1, 0, 1, 2, 0]})
    check(program, X, partitions=3)
    got = compute(aspml.dask.predict(program, dd.from_pandas(X, npartitions=3)))
    assert got.isna().tolist() == [False, True, False, True, True, False]
