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


def check_same(learner, seed, partitions, n=500, **params):
    X, y, ddf, dy = frames(seed, partitions, n)
    make = lambda: getattr(aspml, learner)(max_bins=12, kinds=KINDS, **params)  # noqa: E731
    here, there = fit(make, X, y), fit(make, ddf, dy)
    assert there.training_figures_ is None          # the distributed path, not in memory
    assert there.program_.rules == here.program_.rules, there.program_.to_text()
    assert there.program_.to_text() == here.program_.to_text()
    assert np.array_equal(there.predict(X), here.predict(X))
    assert np.allclose(there.predict_proba(X), here.predict_proba(X))
    assert there.max_rules_held_ == here.max_rules_held_ == ("max_rules" in params)


def test_on_a_local_cluster_of_two_worker_processes(client):
    """The partitions are encoded and kept on two worker processes; every literal choice
    sums their counts (functions and arrays pickled across processes)."""
    check_same("FoldSE", 0, 4, n=250, positive="y")
    # (asked of the scheduler: scheduler_info() is a copy the client refreshes now and
    # then, and a loaded machine's suite once read it empty)
    assert len(client.nthreads()) == 2


@pytest.mark.parametrize("learner, seed, partitions, params", [
    ("FoldRpp", 1, 5, {}), ("FoldSE", 3, 4, {"class_weight": {"y": 3}})])
def test_distributed_fit_is_the_in_memory_binned_fit(learner, seed, partitions, params):
    """The same on dask's local scheduler (a thread pool, no cluster): missing values, a
    mixed column, categories, a Boolean column, whole-number class weights."""
    with dask.config.set(scheduler="threads"):
        check_same(learner, seed, partitions, **params)


@pytest.mark.parametrize("learner, seed, n, params", [
    ("FoldRpp", 5, 100, {}), ("FoldSE", 6, 300, {"class_weight": {"z": 2}, "tail": 0.05}),
    # small: FoldSE's bar of MIN_DECIDED rows (their mean weight's worth) above the tail's
    ("FoldSE", 7, 120, {}), ("FoldSE", 8, 150, {"class_weight": {"z": 2}}),
    # held to a budget its list passes (max_rules_held_ in both)
    ("FoldRpp", 5, 300, {"max_rules": 4}), ("FoldSE", 6, 300, {"class_weight": {"z": 2},
                                                              "max_rules": 5})])
def test_multiclass_distributed_fit_is_the_in_memory_binned_fit(learner, seed, n, params):
    """Three classes: FOLD-RM's decision list learned over the partitions (11 to 22 rules
    here) is the one learned in memory, its class probabilities too."""
    X, y = mixed_table(n, seed, classes=3)
    X["flag"] = np.random.default_rng(seed).random(n) < 0.3
    rows = dd.from_pandas(X.assign(label=y), npartitions=4)
    make = lambda: getattr(aspml, learner)(max_bins=12, kinds=KINDS, **params)  # noqa: E731
    with dask.config.set(scheduler="threads"):
        there = fit(make, rows.drop(columns="label"), rows["label"])
    here = fit(make, X, y)
    assert there.training_figures_ is None
    assert len(there.classes_) == 3 and there.program_.is_multiclass
    assert there.program_.rules == here.program_.rules, there.program_.to_text()
    assert there.program_.to_text() == here.program_.to_text()
    assert np.array_equal(there.predict(X), here.predict(X))
    assert np.allclose(there.predict_proba(X), here.predict_proba(X))


def test_balanced_class_weights_tie_every_class_alike_in_both_fits():
    """"balanced" gives every class the same total weight: which class FOLD-RM's loop takes
    first must not hang on the order of a float sum (row by row in memory, partition by
    partition here); before, the two fits began with different classes.  (With fractional
    weights two equally good literals may still tie differently later on: the programs
    are then equally good, not the same; whole weights give the same program.)"""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"x": rng.normal(size=500).round(2), "c": rng.choice(list("pqr"), 500)})
    y = np.where(frame.x > .6, "a", np.where(frame.c == "q", "b", "c"))
    flip = rng.random(500) < .1
    y[flip] = rng.choice(["a", "b", "c"], flip.sum())
    rows = dd.from_pandas(frame.assign(label=y), npartitions=3)
    make = lambda: aspml.FoldSE(max_bins=8, class_weight="balanced")  # noqa: E731
    with dask.config.set(scheduler="threads"):
        there = fit(make, rows.drop(columns="label"), rows["label"])
    here = fit(make, frame, y)
    assert [r.label for r in there.program_.default_rules[:3]] == \
        [r.label for r in here.program_.default_rules[:3]]
    assert there.program_.rules[:3] == here.program_.rules[:3]
    assert abs(np.mean(there.predict(frame) == y) - np.mean(here.predict(frame) == y)) < 0.02


def test_the_largest_class_total_ties_within_rounding():
    from aspml.learners.fold import _most, tail_bar
    assert _most(np.array([299.99999999999915, 300.0000000000004, 299.9999999999998])) == 0
    assert _most(np.array([1.0, 3.0, 2.0])) == 1
    assert 3 - 1e-6 < tail_bar(0.01, 300.00000000000006, 1, weighted=True) <= 3
    assert 3 - 1e-6 < tail_bar(0.01, 299.99999999999994, 1, weighted=True) < 3
    assert tail_bar(0.005, 1.0, 1, weighted=True) == pytest.approx(0.005)
    assert tail_bar(0.01, 300.00000000000006, 1, weighted=False) == 3     # not one ulp over
    assert tail_bar(0.07, 100) == 7 and tail_bar(0.07, 100, weighted=True) < 7


def test_a_missing_token_that_reads_as_a_number():
    """``missing=["-1"]``: the token is missing where the bins are placed, as where the rows
    are encoded (before the fix, the bins counted it as a number: another program)."""
    rng = np.random.default_rng(2)
    v = rng.integers(0, 100, 300)
    s = v.astype(str).astype(object)
    s[rng.random(300) < 0.4] = "-1"
    frame = pd.DataFrame({"s": s, "label": np.where(v > 60, "y", "n")})
    rows = dd.from_pandas(frame, npartitions=3)
    make = lambda: aspml.FoldSE(max_bins=4, missing=["-1"])  # noqa: E731
    with dask.config.set(scheduler="threads"):
        there = fit(make, rows.drop(columns="label"), rows["label"])
    assert there.training_figures_ is None
    assert there.program_.rules == fit(make, frame[["s"]], frame["label"]).program_.rules


def test_without_max_bins_the_frame_is_computed_into_memory_as_before():
    X, y, ddf, dy = frames(0, 3, n=200)
    three = np.resize(["p", "q", "r"], 200)
    with dask.config.set(scheduler="threads"):
        binary = fit(lambda: aspml.FoldSE(kinds=KINDS), ddf, dy)
        multi = fit(lambda: aspml.FoldSE(kinds=KINDS), ddf,
                    dd.from_pandas(pd.Series(three, name="label"), npartitions=3))
        # a y in memory: the frame is computed too
        in_memory_y = fit(lambda: aspml.FoldSE(max_bins=8, kinds=KINDS), ddf, y)
    assert binary.training_figures_ is not None     # computed into memory
    assert binary.program_.rules == fit(lambda: aspml.FoldSE(kinds=KINDS), X, y).program_.rules
    assert len(multi.classes_) == 3
    assert in_memory_y.program_.rules == fit(lambda: aspml.FoldSE(max_bins=8, kinds=KINDS),
                                             X, y).program_.rules


def test_what_a_distributed_fit_refuses():
    X, y, ddf, dy = frames(0, 2, n=60)
    with dask.config.set(scheduler="threads"):
        for bad in (1, 0, 2.5, "10", True):
            with pytest.raises(ValueError, match="max_bins"):
                aspml.FoldSE(max_bins=bad).fit(ddf, dy)
        with pytest.raises(ValueError, match="sample_weight"):
            aspml.FoldSE(max_bins=8).fit(ddf, dy, sample_weight=np.ones(60))
        three = dd.from_pandas(pd.Series(np.resize(["p", "q", "r"], 60), name="label"),
                               npartitions=2)
        with pytest.raises(ValueError, match="binary program"):
            aspml.FoldSE(max_bins=8, positive="p").fit(ddf, three)
        holes = dd.from_pandas(pd.Series(np.where(np.arange(60) == 7, None, y), name="label"),
                               npartitions=2)
        with pytest.raises(ValueError, match="missing labels"):
            aspml.FoldSE(max_bins=8).fit(ddf, holes)
        # y split otherwise than X: read by position, as a pandas y is (a trial: the one
        # column of a dd.read_parquet frame came in 3 partitions, its other columns in 8)
        cut = dd.from_pandas(pd.Series(y, name="label"), chunksize=45)
        assert aspml.FoldSE(max_bins=8).fit(ddf, cut).program_ == \
            aspml.FoldSE(max_bins=8).fit(X, y).program_
        short = dd.from_pandas(pd.Series(y[:50], name="label"), chunksize=45)
        with pytest.raises(ValueError, match="X has 60 rows but y has 50"):
            aspml.FoldSE(max_bins=8).fit(ddf, short)
        # the same rows in another order, split otherwise: refused (a review: cut by
        # position, it learned on labels that were not the rows')
        shuffled = dd.from_pandas(pd.Series(y, name="label").sample(frac=1, random_state=0),
                                  chunksize=45, sort=False)
        with pytest.raises(ValueError, match="index differs row by row"):
            aspml.FoldSE(max_bins=8).fit(ddf, shuffled)
        with pytest.raises(aspml.errors.AspmlError, match="unknown column"):
            aspml.FoldSE(max_bins=8, kinds={"zzz": "numeric"}).fit(ddf, dy)
        with pytest.raises(ValueError, match="weight 0"):
            aspml.FoldSE(max_bins=8, class_weight={"x": 0}).fit(ddf, dy)
        with pytest.raises(ValueError, match="trace"):
            aspml.FoldSE(max_bins=8).fit(ddf, dy, trace=print)


@pytest.mark.parametrize("seed", range(15))
def test_bins_placed_from_partition_samples_are_the_whole_columns(seed):
    """The edges of a column of numbers, found from each partition's sample and two passes
    of counts (its numbers never gathered), are those the in-memory search bins on: ties,
    missing values, partitions sorted by value or not, few and many distinct numbers."""
    from aspml.data.table import schema_and_table
    from aspml.learners._dask_fold import _numeric_edges, _summary
    from aspml.learners.fold import _binned
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 3000))
    values = rng.choice([rng.normal(size=n).round(int(rng.integers(0, 4))),
                         rng.integers(0, int(rng.integers(2, 40)), n).astype(float)])
    values[rng.random(n) < 0.1] = np.nan
    if seed % 3 == 0:
        values = np.sort(values)                     # each partition its own range
    frame = pd.DataFrame({"v": values})
    max_bins = int(rng.choice([2, 3, 8, 50, 300]))
    _, table = schema_and_table(frame)
    col = _binned(table["v"], max_bins)
    want = np.unique(col.num[col.is_num])
    parts = [frame.iloc[a:b] for a, b in zip(*(lambda c: (c[:-1], c[1:]))(
        np.unique(np.r_[0, np.sort(rng.integers(0, n, int(rng.integers(0, 6)))), n])))]
    summaries = [_summary(p, pd.Series(["x"] * len(p)), ("?",), {}, max_bins) for p in parts]
    with dask.config.set(scheduler="synchronous"):
        got = _numeric_edges(parts, summaries, ["v"], {}, ("?",), max_bins)["v"]
    if not len(want):
        assert got is None
    else:
        assert np.array_equal(got, want)


def test_an_identifier_the_rules_use_is_noted_on_the_distributed_path_too():
    """The in-memory fit's note on rules that use an id column, from counts over the
    partitions (the column's values are not gathered); decimals are not ids."""
    from test_csv import patients
    X, y = patients()
    rows = dd.from_pandas(X.assign(label=y), npartitions=3)
    with dask.config.set(scheduler="sync"), \
            pytest.warns(AspmlWarning, match=r"column 'patient_nbr', which holds a different "
                                             r"value on each of the 60 rows"):
        clf = aspml.FoldSE(max_bins=64).fit(rows.drop(columns="label"), rows["label"])
    assert "patient_nbr" in clf.program_.features_used
    text = X.assign(patient_nbr="P" + X.patient_nbr.astype(str), label=y)      # text ids
    rows = dd.from_pandas(text, npartitions=3)
    with dask.config.set(scheduler="sync"), pytest.warns(AspmlWarning, match="like an identifier"):
        aspml.FoldSE(max_bins=64).fit(rows.drop(columns="label"), rows["label"])
    quiet = X.assign(patient_nbr=X.patient_nbr + 0.5, label=y)                 # decimals
    rows = dd.from_pandas(quiet, npartitions=3)
    with dask.config.set(scheduler="sync"), warnings.catch_warnings():
        warnings.simplefilter("error", AspmlWarning)
        clf = aspml.FoldSE(max_bins=64).fit(rows.drop(columns="label"), rows["label"])
    assert "patient_nbr" in clf.program_.features_used


def test_distributed_fit_without_rules_says_so_as_in_memory():
    """A Dask fit that learns no rule warns as the in-memory fit does, at the caller."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": np.ones(200), "b": ["x"] * 200})
    y = np.where(rng.random(200) < .4, "p", "q")
    rows = dd.from_pandas(X.assign(label=y), npartitions=2)
    said = {}
    for where, (data, labels) in {"memory": (X, y),
                                  "dask": (rows.drop(columns="label"), rows["label"])}.items():
        with dask.config.set(scheduler="threads"), warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            clf = aspml.FoldSE(max_bins=8, positive="p").fit(data, labels)
        assert clf.program_.rules == ()
        said[where] = [w for w in seen if "learned no rules" in str(w.message)]
        assert len(said[where]) == 1 and said[where][0].filename == __file__, where
    assert str(said["dask"][0].message) == str(said["memory"][0].message)


def test_times_read_alike_in_every_partition():
    """A partition of midnights alone wrote them ``2021-01-02``, one with a 10:30 beside
    them ``2021-01-02 00:00:00`` (pandas writes a column's times one way): each value
    is now read on its own, and the fit through the partitions is the one in memory."""
    rng = np.random.default_rng(0)
    days = pd.to_datetime(["2021-01-02", "2021-01-03"])
    later = pd.to_datetime(["2021-01-02", "2021-01-04 10:30"], format="ISO8601")
    when = np.concatenate([days[rng.integers(0, 2, 200)], later[rng.integers(0, 2, 200)]])
    X = pd.DataFrame({"when": when, "z": rng.normal(size=400)})
    y = np.where(X["when"] == days[0], "yes", "no")
    ddf = dd.from_pandas(X.assign(label=y), npartitions=2, sort=False)
    make = lambda: aspml.FoldSE(positive="yes", max_bins=12)  # noqa: E731
    here, there = fit(make, X, y), fit(make, ddf.drop(columns="label"), ddf["label"])
    assert there.program_.to_text() == here.program_.to_text()
    assert '"2021-01-02"' in here.program_.to_text()


def test_whole_numbers_float64_cannot_hold_need_a_kind_through_the_partitions():
    """In memory such a column is categorical (every digit kept); a partition's summary of
    numbers cannot say so, so the distributed fit asks for the kind."""
    X = pd.DataFrame({"user_id": np.array([2**60 + k for k in range(4)] * 50, dtype=np.int64)})
    y = np.where(np.arange(200) % 4 == 1, "yes", "no")
    ddf = dd.from_pandas(X.assign(label=y), npartitions=2)
    with pytest.raises(aspml.AspmlError, match="user_id.*give it a kind"):
        fit(lambda: aspml.FoldSE(positive="yes", max_bins=12), ddf.drop(columns="label"),
            ddf["label"])
    # the kind given: no partition advises giving it (a trial: each one warned that the
    # numbers "compare as float64", with kinds={'acct': 'categorical'} already given)
    with warnings.catch_warnings(record=True) as caught, dask.config.set(scheduler="sync"):
        warnings.simplefilter("always")
        done = aspml.FoldSE(positive="yes", max_bins=12, kinds={"user_id": "categorical"}).fit(
            ddf.drop(columns="label"), ddf["label"])
    assert not [w for w in caught if "compare as float64" in str(w.message)]
    assert (done.predict(X) == y).all()


def test_a_frame_read_from_parquet_fits_as_in_memory(tmp_path):
    # a trial: X and y from one dd.read_parquet frame of 8 files were refused ("must be split
    # alike"): dask read the label column alone in 3 partitions, the others in 8
    pytest.importorskip("pyarrow")
    rng = np.random.default_rng(0)
    df = pd.DataFrame({f"x{i}": rng.normal(size=4000) for i in range(4)})
    df["label"] = np.where(df.x0 > 0.5, "yes", "no")
    dd.from_pandas(df, npartitions=8).to_parquet(tmp_path / "rows", write_index=False)
    rows = dd.read_parquet(tmp_path / "rows")
    with dask.config.set(scheduler="threads"):
        got = aspml.FoldSE(max_bins=64, positive="yes").fit(rows.drop(columns="label"),
                                                             rows["label"]).program_
    want = aspml.FoldSE(max_bins=64, positive="yes").fit(df.drop(columns="label"),
                                                         df["label"]).program_
    assert got == want


def test_a_tie_of_uncovered_rows_goes_to_the_class_of_more_training_rows():
    """Uncovered rows that tie (two of a 2.8% class, two of a common one) gave the default
    to the class first by name (a multi-class trial: the rare class became the default of
    83 fresh rows, none of them of it); the class of more training rows takes it, then the
    first."""
    from aspml.learners._base import largest_class
    uncovered = np.array([2.0, 0.0, 2.0])
    assert largest_class(uncovered, lambda: [2, 0, 2], lambda: [80, 900, 1200]) == 2
    assert largest_class(uncovered, lambda: [2, 0, 2], lambda: [1200, 900, 80]) == 0
    assert largest_class(uncovered, lambda: [2, 0, 2], lambda: [5, 9, 5]) == 0
    assert largest_class(np.array([1.0, 3.0]), lambda: 1 / 0) == 1     # no tie, no count


def test_a_label_that_is_a_word_for_missing_is_named_over_partitions():
    """The in-memory fit's note of a label 'NaN' (a review: the Dask fit said nothing),
    pointed at the user's line; its rows are not counted (the partitions are not
    gathered for it)."""
    rng = np.random.default_rng(0)
    x = rng.integers(0, 100, 300)
    y = np.where(x < 40, "won", np.where(x < 80, "lost", "NaN"))
    ddf = dd.from_pandas(pd.DataFrame({"x": x.astype(float), "label": y}), npartitions=3)
    with pytest.warns(AspmlWarning) as caught:
        aspml.FoldSE(max_bins=16).fit(ddf[["x"]], ddf["label"])
    said = [w for w in caught if "labels (y)" in str(w.message)]
    assert [str(w.message) for w in said] == [(
        "the labels (y) hold 'NaN', a word other tools write for a missing value: a class of "
        "its own here; if those rows have no label, leave them out (fit on the other rows; "
        "aspml learn --missing NaN)")]
    assert [w.filename for w in said] == [__file__]


def test_a_target_named_like_a_feature_in_a_distributed_fit():
    """The in-memory fit's rule (tests/test_fold.py): y's name, here 'label', taken by a
    feature of X gives the target 'class'; target= a feature's name is refused."""
    X, _, ddf, dy = frames(0, 2, n=80)
    first = X.columns[0]
    with dask.config.set(scheduler="threads"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        taken = ddf.rename(columns={first: "label"})
        program = aspml.FoldSE(max_bins=8).fit(taken, dy).program_
        assert program.target.name == "class" and "label" in program.schema.names
        with pytest.raises(ValueError, match="is also a feature's name"):
            aspml.FoldSE(max_bins=8, target="label").fit(taken, dy)
