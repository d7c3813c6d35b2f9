"""FOLD on a Dask DataFrame (issue #21): the partitions stay on a LocalCluster's workers,
only counts travel, and the program is exactly the in-memory fit's with the same
``max_bins`` (unweighted, or whole-number weights)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import aspml
from aspml.errors import AspmlWarning

from test_max_bins import mixed_table

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
import dask  # noqa: E402

KINDS = {"a": "numeric", "b": "mixed", "c": "categorical", "d": "numeric"}


@pytest.fixture
def client():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
        client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


def frames(seed, partitions, n=500):
    X, y = mixed_table(n, seed)
    X["flag"] = np.random.default_rng(seed).random(n) < 0.3       # a Boolean column too
    ddf = dd.from_pandas(X.assign(label=y), npartitions=partitions)
    return X, y, ddf.drop(columns="label"), ddf["label"]


def fit(make, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AspmlWarning)
        return make().fit(X, y)


def check_same(learner, seed, partitions, **params):
    X, y, ddf, dy = frames(seed, partitions)
    make = lambda: getattr(aspml, learner)(max_bins=12, kinds=KINDS, **params)  # noqa: E731
    here, there = fit(make, X, y), fit(make, ddf, dy)
    assert there.program_.rules == here.program_.rules, there.program_.to_text()
    assert there.program_.to_text() == here.program_.to_text()
    assert np.array_equal(there.predict(X), here.predict(X))
    assert np.allclose(there.predict_proba(X), here.predict_proba(X))


def test_on_a_local_cluster_of_two_worker_processes(client):
    """The partitions are encoded and kept on two worker processes; every literal choice
    sums their counts (functions and arrays pickled across processes)."""
    check_same("FoldSE", 0, 4, positive="y")
    assert len(client.scheduler_info()["workers"]) == 2


@pytest.mark.parametrize("learner, seed, partitions, params", [
    ("FoldRpp", 1, 5, {}), ("FoldSE", 2, 6, {"positive": "y"}),
    ("FoldSE", 3, 4, {"class_weight": {"y": 3}})])
def test_distributed_fit_is_the_in_memory_binned_fit(learner, seed, partitions, params):
    """The same on dask's local scheduler (a thread pool, no cluster): missing values, a
    mixed column, categories, a Boolean column, whole-number class weights."""
    with dask.config.set(scheduler="threads"):
        check_same(learner, seed, partitions, **params)


def test_what_a_distributed_fit_refuses():
    X, y, ddf, dy = frames(0, 2, n=60)
    with pytest.raises(ValueError, match="max_bins"):
        aspml.FoldSE().fit(ddf, dy)
    with pytest.raises(TypeError, match="Dask Series"):
        aspml.FoldSE(max_bins=8).fit(ddf, y)
    with pytest.raises(ValueError, match="sample_weight"):
        aspml.FoldSE(max_bins=8).fit(ddf, dy, sample_weight=np.ones(60))
    three = dd.from_pandas(pd.Series(np.resize(["p", "q", "r"], 60), name="label"), npartitions=2)
    with pytest.raises(ValueError, match="binary program"):
        aspml.FoldSE(max_bins=8).fit(ddf, three)
