"""FOLD-SE / FOLD-R++: the scikit-learn contract, bad input, and programs that run everywhere."""

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.utils.estimator_checks import parametrize_with_checks

import aspml
from aspml import FoldRpp, FoldSE
from aspml.errors import AspmlWarning

from conftest import run_aspml


# FOLD-R++ (no long-tail pruning) covers every positive it can isolate, however little it
# weighs: with class_weight={0: 1000, 1: 0.0001} its rules are pure on the training rows but
# cover many test rows.  FOLD-SE's tail, on weighted counts, removes them and passes.
def _expected(est):
    return ({"check_class_weight_classifiers": "FOLD-R++ learns every positive it can isolate, "
             "whatever its weight (no tail)"} if isinstance(est, FoldRpp) else {})


@parametrize_with_checks([FoldSE(), FoldRpp()], expected_failed_checks=_expected)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


def table(n=400, seed=0):
    """Mixed columns with missing values; the label is a default rule with an exception."""
    rng = np.random.default_rng(seed)
    age = rng.integers(18, 90, n).astype(float)
    age[rng.random(n) < 0.05] = np.nan
    city = rng.choice(["Rome", "Oslo", "Lima", "?"], n)
    ca = rng.choice(["0", "1", "2", "x"], n).astype(object)
    y = ((age > 50) & (city != "Oslo")) | (city == "Lima")
    y = np.where(rng.random(n) < 0.03, ~y, y)
    X = pd.DataFrame({"age": age, "city": city, "ca": ca, "const": 1.0, "empty": np.nan})
    return X, np.where(y, "sick", "well")


@pytest.mark.parametrize("cls", [FoldSE, FoldRpp])
def test_learns_a_readable_program(cls):
    X, y = table()
    clf = cls(positive="sick").fit(X, y)
    p = clf.program_
    assert clf.score(X, y) > 0.9
    assert p.target == aspml.Target("label", "sick", "well")
    assert "const" not in p.features_used and "empty" not in p.features_used
    assert set(clf.predict(X)) <= {"sick", "well"}
    assert dict(p.provenance)["learner"] == cls.__name__
    text = p.to_text()
    assert text.startswith("IF ") and 'THEN label = "sick"' in text


@pytest.mark.parametrize("cls", [FoldSE, FoldRpp])
def test_program_runs_unchanged_in_clingo_and_swipl(cls, swipl):
    X, y = table(300, seed=1)
    clf = cls(positive="sick").fit(X, y)
    expected = clf.predict(X) == "sick"
    assert np.array_equal(aspml.asp.predict(clf.program_, X), expected)
    assert np.array_equal(aspml.prolog.predict(clf.program_, X), expected)
    for dialect in ("asp", "prolog"):
        assert aspml.parse(clf.program_.print(dialect), dialect) == clf.program_


def test_training_is_deterministic():
    X, y = table()
    assert FoldSE().fit(X, y).program_ == FoldSE().fit(X, y).program_


def test_predict_proba_agrees_with_predict():
    X, y = table()
    clf = FoldSE(positive="sick").fit(X, y)
    proba = clf.predict_proba(X)
    assert np.allclose(proba.sum(axis=1), 1)
    assert np.array_equal(clf.classes_[proba.argmax(axis=1)], clf.predict(X))
    assert len(np.unique(proba[:, 0])) > 2        # graded, so thresholds and ROC curves work


def test_predict_proba_agrees_where_the_uncovered_rows_are_mostly_positive():
    # a trial: the positive class sorts first and 80% of the rows no rule covers are
    # positive; they got exactly [0.5, 0.5], and argmax took the positive class
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"f": rng.normal(size=400), "g": rng.normal(size=400)})
    y = np.where(rng.random(400) < 0.7, "a", "b")
    clf = FoldSE(positive="a", tail=0.3).fit(X, y)
    pred, proba = clf.predict(X), clf.predict_proba(X)
    assert clf.default_precision_ > 0.5 and (pred == "b").any()
    assert np.array_equal(clf.classes_[proba.argmax(axis=1)], pred)
    assert (proba[pred == "b", 0] < 0.5).all()


def test_works_with_sklearn_tools():
    X, y = table()
    assert clone(FoldSE(ratio=0.3)).get_params()["ratio"] == 0.3
    scores = cross_val_score(FoldSE(), X, y, cv=3)
    assert scores.mean() > 0.85
    grid = GridSearchCV(FoldSE(), {"ratio": [0.3, 0.5], "tail": [0.0, 0.01]}, cv=3).fit(X, y)
    assert grid.best_score_ > 0.85
    pipe = Pipeline([("keep", FunctionTransformer(lambda d: d[["age", "city"]])),
                     ("fold", FoldRpp())]).fit(X, y)
    assert pipe.score(X, y) > 0.85


def test_fold_se_uses_negated_comparisons_only_when_allowed():
    X = pd.DataFrame({"v": [1, 2, 3, 4, "a", "b", "c", 5, 6, "d"]}, dtype=object)
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1, 1, 1])
    se = FoldSE(tail=0).fit(X, y).program_
    assert se.predict(X).tolist() == [False] * 4 + [True] * 6
    assert any(isinstance(lit, aspml.NotCompare) for lit in se.literals)   # not (v <= 4)
    rpp = FoldRpp().fit(X, y).program_
    assert not any(isinstance(lit, aspml.NotCompare) for lit in rpp.literals)


@pytest.mark.parametrize("X, y, message", [
    (pd.DataFrame({"a": [1, 2, 3]}), ["x", "x", "x"], "only one class"),
    (pd.DataFrame({"a": [1, 2, 3]}), ["x", "y"], "3 rows but y has 2"),
    (pd.DataFrame({"a": []}), [], "0 sample"),
    (pd.DataFrame(index=range(3)), ["x", "y", "x"], "0 feature"),
    (pd.DataFrame({"a": [1, 2, 3]}), [0.5, 1.5, 2.5], "Unknown label type"),
    (pd.DataFrame({"a": [1, 2, 3]}), ["x", None, "y"], "missing labels"),
])
def test_bad_input_gets_one_clear_error(X, y, message):
    with pytest.raises(ValueError, match=message):
        FoldSE().fit(X, y)


@pytest.mark.parametrize("name", ["FoldSE", "FoldRpp", "Libre", "MultiValueRuleSet"])
def test_a_target_is_never_named_like_a_feature(name, tmp_path):
    """A trial: y without a name beside a feature 'label' printed "IF label <= 6 THEN
    label = 'q'", and aspml check on the table's CSV read the feature as the labels
    (accuracy 0.000); target='c' beside a feature 'c' the same.  The default name
    taken, the target is 'class' (aspml bench fits with an unnamed y); target= a
    feature's name is refused, with the way out."""
    from conftest import run_aspml
    rng = np.random.default_rng(2)
    X = pd.DataFrame({"label": rng.integers(0, 10, 120), "c": rng.choice(["x", "y"], 120)})
    y = np.where(X["label"] > 6, "p", np.where(X["c"] == "x", "q", "r"))
    learner = getattr(aspml, name)
    kw = {"random_state": 0} if name in ("Libre", "MultiValueRuleSet") else {}
    with pytest.raises(ValueError, match="target='c' is also a feature's name.*give target="):
        learner(target="c", **kw).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        program = learner(**kw).fit(X, y).program_
        assert program.target.name == "class"
        assert learner(**kw).fit(X.rename(columns={"c": "class"}), y).program_.target.name \
            == "target"
        assert learner(**kw).fit(X, pd.Series(y, name="kind")).program_.target.name == "kind"
        # an array's columns are x0, x1: a y named "x0" does not name the target so
        named = learner(**kw).fit(X.to_numpy(), pd.Series(y, name="x0")).program_
        assert named.target.name == "class" and "x0" in named.schema.names
        with pytest.raises(ValueError, match="target='x1' is also a feature's name"):
            learner(target="x1", **kw).fit(X.to_numpy(), y)
    # the command line's check reads the labels from the column the program names
    data, model = tmp_path / "d.csv", tmp_path / "m.lp"
    program.save(model)
    X.assign(**{"class": y}).to_csv(data, index=False)
    out = run_aspml("check", model, data)
    assert out.returncode == 0 and "labelled rows (class): accuracy" in out.stdout, out.stdout
    assert "accuracy 0.000" not in out.stdout
    # aspml bench fits with an unnamed y: a table with a feature 'label' learns
    bench = run_aspml("bench", data, "--target", "class", "--learners", "fold-se")
    assert bench.returncode == 0 and "skipped" not in bench.stdout + bench.stderr, bench.stderr


def test_numbers_that_are_not_whole_learn_as_classes_given_as_objects(tmp_path):
    """aspml learn reads a label column of 1.5 / 2 / 3 as three classes; in Python such
    numbers are refused as a regression target (scikit-learn's contract), and the error
    says how to learn them as classes: as objects, the command's program."""
    from conftest import run_aspml
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"x": rng.integers(0, 30, 90)})
    y = np.where(X["x"] < 10, 1.5, np.where(X["x"] < 20, 2, 3))
    with pytest.raises(ValueError, match=r"Unknown label type.*y\.astype\(object\)"):
        FoldSE().fit(X, y)
    program = FoldSE().fit(X, y.astype(object)).program_
    data, model = tmp_path / "d.csv", tmp_path / "m.lp"
    X.assign(label=y).to_csv(data, index=False)
    done = run_aspml("learn", data, "--target", "label", "-o", model)
    assert done.returncode == 0, done.stderr
    assert aspml.load(model).rules == program.rules


def test_bad_parameters_and_positive_class():
    X, y = table(50)
    with pytest.raises(ValueError, match="positive='maybe' is not one of the classes"):
        FoldSE(positive="maybe").fit(X, y)
    with pytest.raises(ValueError, match="heuristic"):
        FoldSE(heuristic="entropy").fit(X, y)
    with pytest.raises(ValueError, match="tail"):
        FoldSE(tail=2).fit(X, y)
    for bad in (-1, float("nan"), "0.5"):
        with pytest.raises(ValueError, match="ratio must be a number >= 0"):
            FoldSE(ratio=bad).fit(X, y)
    FoldSE(ratio=np.float32(0.5), tail=np.float64(0.01)).fit(X, y)   # numpy numbers (grid search)
    FoldSE(ratio=float("inf")).fit(X, y)                             # inf: one literal a rule
    clf = FoldSE().fit(X, y)
    with pytest.raises(aspml.AspmlError, match="lacks the column"):
        clf.predict(X.drop(columns=["age"]))


def test_numpy_input_and_feature_names():
    X, y = table(200)
    arr = X[["age", "const"]].to_numpy()
    clf = FoldSE().fit(arr, y)
    assert clf.n_features_in_ == 2 and not hasattr(clf, "feature_names_in_")
    assert set(clf.program_.features_used) <= {"x0", "x1"}
    assert clf.predict(arr).shape == (200,)
    named = FoldSE().fit(X, y)
    assert list(named.feature_names_in_) == list(X.columns)


def test_fold_se_is_smaller_than_fold_rpp_on_credit(data_dir):
    import importlib.util
    from conftest import ROOT
    spec = importlib.util.spec_from_file_location("fold_bench", ROOT / "benchmarks" / "fold.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    X, y, kinds, *_ = bench.load(data_dir, "credit")
    se = cross_val_score(FoldSE(kinds=kinds), X, y, cv=5)
    rpp = cross_val_score(FoldRpp(kinds=kinds), X, y, cv=5)
    assert se.mean() > rpp.mean() - 0.02
    assert FoldSE(kinds=kinds).fit(X, y).program_.n_literals < \
        FoldRpp(kinds=kinds).fit(X, y).program_.n_literals


@pytest.mark.parametrize("cls", [FoldSE, FoldRpp])
def test_boolean_columns_become_flags(cls):
    rng = np.random.default_rng(3)
    smoker = rng.random(300) < 0.4
    age = rng.integers(20, 80, 300)
    X = pd.DataFrame({"smoker": smoker.astype(object), "age": age})
    X.loc[::17, "smoker"] = None
    y = np.where((X.smoker == True) & (age > 40), "yes", "no")   # noqa: E712
    clf = cls(positive="yes", tail=0.0) if cls is FoldSE else cls(positive="yes")
    p = clf.fit(X, y).program_
    assert any(isinstance(lit, aspml.Flag) for lit in p.literals)
    assert clf.score(X, y) > 0.95
    assert np.array_equal(aspml.asp.predict(p, X), p.predict(X))


def test_implied_not_equal_literals_are_dropped_with_the_same_meaning():
    """``m != "x" AND m > 1`` is ``m > 1`` (order comparisons hold for numbers only);
    ``m != 5 AND m <= 3`` is ``m <= 3``; the dropped literal never changes an answer."""
    from aspml import Compare, Feature, Program, Rule, Schema, Target
    from aspml.learners.fold import _simplify
    bodies = [[Compare("m", "!=", "x"), Compare("m", ">", 1)],
              [Compare("m", "!=", 5), Compare("m", "<=", 3), Compare("m", "!=", 2)],
              [Compare("m", "!=", "x"), Compare("k", ">", 1)],
              [Compare("m", "==", "y"), Compare("m", "!=", "x")]]
    assert [len(_simplify(b)) for b in bodies] == [1, 2, 2, 1]
    X = pd.DataFrame({"m": [0, 1, 2, 3, 5, "x", "y", None, 1.5], "k": [2, 0, 2, 2, 2, 2, 2, 2, None]})
    for body in bodies:
        schema = Schema((Feature("m", "mixed"), Feature("k", "numeric")))
        before = Program((Rule(None, tuple(body)),), Target("label", "yes", "no"), schema)
        after = Program((Rule(None, tuple(_simplify(body))),), Target("label", "yes", "no"), schema)
        assert np.array_equal(before.predict(X), after.predict(X)), body


def test_implied_negated_comparisons_are_dropped_with_the_same_meaning():
    """A trial's FOLD-SE rule read ``NOT (age > 41) AND NOT (age <= 25) AND NOT (age >
    36)``: the first is implied by the third (on missing values too).  Any body of order
    and negated comparisons keeps its answer on every value, missing and text included,
    once simplified; the trial's loses its first literal."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from aspml import Compare, Feature, NotCompare, Program, Rule, Schema, Target
    from aspml.learners.fold import _simplify
    trial = [NotCompare("age", ">", 41), NotCompare("age", "<=", 25), NotCompare("age", ">", 36)]
    assert _simplify(trial) == [NotCompare("age", ">", 36), NotCompare("age", "<=", 25)]
    values = [20, 25, 30, 36, 41, 50]
    X = pd.DataFrame({"m": [v + d for v in values for d in (-0.5, 0, 0.5)] + [None, "x"]})
    schema = Schema((Feature("m", "mixed"),))
    literal = st.one_of(
        st.builds(Compare, st.just("m"), st.sampled_from(["<=", "<", ">", ">="]),
                  st.sampled_from(values)),
        st.builds(NotCompare, st.just("m"), st.sampled_from(["<=", ">"]), st.sampled_from(values)))

    @settings(max_examples=300, deadline=None, derandomize=True)
    @given(st.lists(literal, min_size=1, max_size=5))
    def same(body):
        short = _simplify(list(body))
        assert len(short) <= len(body)
        before = Program((Rule(None, tuple(body)),), Target("label", "yes", "no"), schema)
        after = Program((Rule(None, tuple(short)),), Target("label", "yes", "no"), schema)
        assert np.array_equal(before.predict(X), after.predict(X)), (body, short)
    same()


@pytest.mark.parametrize("classes", [2, 3])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("learner", [aspml.FoldSE, aspml.FoldRpp, aspml.Libre])
def test_fit_reads_its_program_once_and_gets_the_same_figures(learner, weighted, classes):
    """fit evaluates the learned program on its training rows once (a rows x rules
    coverage) for the rules' probabilities and the training figures: the same numbers
    as each made on its own (one default rule's mask at a time, rule_figures)."""
    from aspml.learners._base import class_counts, rule_hits
    rng = np.random.default_rng(classes + 2 * weighted)
    X = pd.DataFrame({"a": rng.integers(0, 20, 300), "b": rng.choice(list("pqr"), 300),
                      "c": np.where(rng.random(300) < 0.1, np.nan, rng.random(300))})
    y = np.where(X["a"] > 12, "hi", np.where(X["b"] == "p", "mid", "lo"))
    if classes == 2:
        y = np.where(y == "hi", "hi", "lo")
    y = np.where(rng.random(300) < 0.1, rng.permutation(y), y)          # some noise
    weight = rng.integers(1, 4, 300).astype(float) if weighted else None
    kw = {"random_state": 0} if learner is aspml.Libre else {}
    clf = learner(**kw).fit(X, y, sample_weight=weight)
    p = clf.program_
    assert p.n_rules >= 1
    y_idx = np.searchsorted(clf.classes_, y)
    table = aspml.evaluate.as_table(p, X)
    cov = aspml.evaluate.coverage(p, X)
    if classes == 2:
        target = y_idx == clf.positive_index_
        slow = rule_hits(p, X, target, weight)
        assert np.allclose(rule_hits(p, table, target, weight, cov=cov), slow)
        assert np.allclose(clf.rule_precision_, (slow[0, :-1] + 1) / (slow[1, :-1] + 2))
    else:
        slow = class_counts(p, X, y_idx, 3, weight)
        assert np.allclose(class_counts(p, table, y_idx, 3, weight, cov=cov), slow)
        assert slow.sum() == pytest.approx(300 if weight is None else weight.sum())
    assert clf.training_figures_ == aspml.display.rule_figures(p, X, y)


def test_a_search_keeps_each_literal_mask_read_only():
    """The FOLD search keeps the literal masks it made (a rule's mask is made again as
    its rule set grows): the kept array is the one made, and nobody can change it."""
    from aspml.data.table import schema_and_table
    from aspml.learners.fold import _Lit, _Search
    from aspml.kernels.literals import GT, MGI
    X = pd.DataFrame({"a": [1.0, 2.0, np.nan, 4.0], "b": ["x", "y", "x", "z"]})
    _, table = schema_and_table(X)
    search = _Search(table, ["a", "b"], MGI, True, 0.5, 0, 1, None)
    lit = _Lit(0, GT, 1.5)
    first = search.mask(lit)
    assert first.tolist() == [False, True, False, True]
    assert search.mask(lit) is first
    with pytest.raises(ValueError):
        first[0] = True


def test_parallel_kernels_use_the_cores_other_processes_leave(monkeypatch):
    from aspml.learners import _threads as T
    monkeypatch.setattr(T.os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    for others, threads, expected in ((None, 8, 8), (0, 8, 8), (1, 8, 7), (3, 8, 5), (7, 8, 1),
                                      (12, 8, 1), (1, 4, 4), (6, 4, 2)):
        monkeypatch.setattr(T, "others_running", lambda: others)
        assert T.free_threads(threads) == expected, (others, threads)


def test_a_fit_beside_a_busy_process_takes_the_serial_kernels(monkeypatch):
    """On two cores with another process running, the parallel kernels wait for a thread
    it holds (measured: 1.2x to 2x slower than the serial ones), so the fit takes the
    serial kernels; the program is the same."""
    import subprocess
    import sys
    import time

    from aspml.learners import _threads as T
    from aspml.learners import fold as F
    if T.others_running() is None:
        pytest.skip("no /proc: the load is not read here")
    monkeypatch.setattr(T.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    rng = np.random.default_rng(3)
    X = pd.DataFrame(rng.uniform(0, 100, (3000, 10)).round(2), columns=[f"f{i}" for i in range(10)])
    y = ((X.f0 > 60) & (X.f1 <= 40)) | (X.f2 > 80)
    alone = FoldSE(positive=True).fit(X, y).program_
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        for _ in range(50):                      # until it runs
            if T.others_running():
                break
            time.sleep(0.05)
        assert T.others_running() >= 1
        # the busy loop runs: a look that misses it (/proc/loadavg and this process's
        # threads read at two instants, a thread of ours changing state between them) is
        # taken again, so that the fit's own looks see what the line above saw
        real = T.others_running

        def looked():
            for _ in range(50):
                if others := real():
                    return others
            return real()
        monkeypatch.setattr(T, "others_running", looked)

        def refuse(*args):
            raise AssertionError("a parallel kernel ran beside a busy process")
        for name in ("build_view", "best_literal_parallel", "filter_sorted_parallel"):
            monkeypatch.setattr(F, name, refuse)
        # the numba loop picks its kernels' forms itself, from the threads it is given
        threads = []
        loop_args = F._Search._loop_args
        monkeypatch.setattr(F._Search, "_loop_args", lambda self: threads.append(
            self.threads) or loop_args(self))
        assert FoldSE(positive=True).fit(X, y).program_ == alone
        assert threads == [1]
    finally:
        busy.kill()
        busy.wait()


def test_a_kernel_in_fewer_threads_gets_them_and_gives_them_back():
    import numba

    from aspml.learners import fold as F
    before = numba.get_num_threads()
    if before < 2:
        pytest.skip("one numba thread")
    assert F._in_threads(1, numba.get_num_threads) == 1
    assert numba.get_num_threads() == before
    with pytest.raises(ZeroDivisionError):
        F._in_threads(1, lambda: 1 / 0)
    assert numba.get_num_threads() == before
    assert F._in_threads(before + 3, numba.get_num_threads) == before


# -- a fit that learns no rule says so -------------------------------------------------

# a sick row every seventh, the feature cycling every fifth: each value holds both classes
NO_RULE = pd.DataFrame({"a": np.arange(40) % 5})
NO_RULE_Y = np.where(np.arange(40) % 7 == 0, "sick", "well")


@pytest.mark.parametrize("learner", [FoldSE, FoldRpp])
def test_a_fit_without_rules_says_why_and_what_to_try(learner):
    """An empty program answers the other class for every row: no description of the
    class, so the fit warns, naming the class, why no rule was kept and what to try."""
    with pytest.warns(AspmlWarning) as seen:
        clf = learner(positive="sick").fit(NO_RULE, NO_RULE_Y)
    assert clf.program_.rules == ()
    said = [str(w.message) for w in seen if "learned no rules" in str(w.message)]
    assert len(said) == 1, [str(w.message) for w in seen]
    msg = said[0]
    assert f'{learner.__name__} learned no rules for label = "sick"' in msg
    assert "of the 6 positive rows" in msg and 'answers "well" for every row' in msg
    assert 'class_weight="balanced" (the class is 15.0% of the rows)' in msg
    assert seen[0].filename == __file__          # pointing at the caller's fit


def _dead_end_table():
    """A 22% class, more likely below a = 60: FOLD-R++'s literals narrow its first rule's
    rows to none (a held-out sweep found it on three real tables of 21% to 28%)."""
    rng = np.random.default_rng(28)
    n = int(rng.integers(60, 300))
    X = pd.DataFrame({"a": rng.integers(0, 200, n), "b": rng.normal(size=n).round(2),
                      "c": rng.integers(0, 18, n)})
    p = rng.uniform(0.2, 0.3)
    return X, np.where(rng.random(n) < p + 0.15 * (X.a < 60), "yes", "no")


def test_a_dead_end_names_what_gives_rules(tmp_path):
    """The note of a search whose literals narrowed the rows to none names
    class_weight="balanced" for a minority class of a fifth of the rows or more too, and
    FoldSE for FoldRpp, and both give rules; it no longer says 'try features that
    describe the class' to describe the class."""
    X, y = _dead_end_table()
    assert 0.2 < (y == "yes").mean() < 0.25
    with pytest.warns(AspmlWarning, match="learned no rules") as seen:
        FoldRpp(positive="yes").fit(X, y)
    msg = next(str(w.message) for w in seen if "learned no rules" in str(w.message))
    assert "covered 0 of the" in msg
    assert re.search(r'try class_weight="balanced" \(the class is 2\d\.\d% of the rows\), '
                     r"or FoldSE", msg), msg
    assert "features that describe" not in msg
    assert msg.endswith("the features may not tell the class apart.")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert FoldRpp(positive="yes", class_weight="balanced").fit(X, y).program_.rules
        assert FoldSE(positive="yes").fit(X, y).program_.rules
    # the command line says the same, in one line
    data = tmp_path / "t.csv"
    X.assign(label=y).to_csv(data, index=False)
    done = run_aspml("learn", data, "--target", "label", "--positive", "yes",
                     "--learner", "fold-rpp")
    assert done.returncode == 0, done.stderr
    note = [line for line in done.stderr.splitlines() if "learned no rules" in line]
    assert len(note) == 1 and 'try class_weight="balanced" (the class is' in note[0]


def test_rules_that_find_almost_none_of_a_minority_class_are_said(tmp_path):
    """A held-out sweep: FOLD-R++'s one rule found 1 of 852 union members (a class of 24%)
    and nothing was said, as the note on few of the class found spoke only for a class
    under a fifth of the rows.  It now speaks for a minority class whose rules find under
    a tenth of it, in Python and from the command line."""
    rng = np.random.default_rng(12)
    n = int(rng.integers(100, 400))
    X = pd.DataFrame({"a": rng.integers(0, 200, n), "b": rng.normal(size=n).round(2),
                      "c": rng.choice(list("pqrs"), n)})
    y = np.where(rng.random(n) < rng.uniform(0.22, 0.4), "yes", "no")
    with pytest.warns(AspmlWarning, match=r'rules find 1\.1% of the "yes" rows in training '
                      r"\(the class is 33\.2% of the rows\): class_weight=\"balanced\""):
        clf = FoldRpp(positive="yes").fit(X, y)
    assert clf.program_.n_rules == 1
    data = tmp_path / "t.csv"
    X.assign(label=y).to_csv(data, index=False)
    done = run_aspml("learn", data, "--target", "label", "--positive", "yes",
                     "--learner", "fold-rpp")
    assert done.returncode == 0 and 'rules find 1.1% of the "yes" rows' in done.stderr


def test_a_fit_with_rules_does_not_warn_about_none():
    import warnings
    X = pd.DataFrame({"a": np.arange(40) % 10})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert FoldSE().fit(X, X.a > 5).program_.rules


def test_too_few_positives_for_the_tail_are_said_to_be_too_few():
    X = pd.DataFrame({"a": np.arange(1000.0)})
    y = np.zeros(1000, dtype=bool)
    y[[10, 500, 900]] = True
    with pytest.warns(AspmlWarning, match=r"the class has 3 rows, fewer than the 5 a rule must "
                                          r"cover \(tail=0.005 of the rows\)"):
        assert FoldSE().fit(X, y).program_.rules == ()


def test_expert_rules_alone_are_a_program_and_no_warning():
    import warnings
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        clf = FoldSE(positive="sick").fit(NO_RULE, NO_RULE_Y,
                                          fixed_rules='IF a > 3 THEN label = "sick"')
    assert len(clf.program_.rules) == 1
    assert not [w for w in seen if "learned no rules" in str(w.message)]


def test_a_multiclass_fit_without_rules_says_so():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": np.arange(60) % 3})
    y = np.array(["x", "y", "z"])[rng.integers(0, 3, 60)]
    with pytest.warns(AspmlWarning, match='learned no rules: no rule told .* answers "y" for '
                                          "every row") as seen:
        clf = FoldSE().fit(X, y)
    assert clf.program_.rules == () and seen[0].filename == __file__


def test_a_multiclass_fit_whose_rules_all_conclude_the_default_says_so():
    """A rule kept for the largest class and then dropped (it concludes the class every row
    gets anyway) leaves no rule: said as such, not as no rule good enough to keep."""
    a = np.ones(1000)
    a[:2] = 0
    y = np.array(["A"] * 1000, dtype=object)
    y[0], y[1] = "B", "C"
    with pytest.warns(AspmlWarning, match='its only rules concluded the class every row gets '
                                          'without them. The program answers "A"'):
        assert FoldSE().fit(pd.DataFrame({"a": a}), y).program_.rules == ()


def test_cli_learn_without_rules_says_so_in_one_line(tmp_path):
    path = tmp_path / "none.csv"
    pd.DataFrame({"a": NO_RULE.a, "y": NO_RULE_Y}).to_csv(path, index=False)
    done = run_aspml("learn", path, "--target", "y", "--positive", "sick")
    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stderr.splitlines() if "learned no rules" in line]
    assert len(notes) == 1 and 'y = "sick"' in notes[0] and "Traceback" not in done.stderr
    assert 'ELSE y = "well"' in done.stdout


def _codes_in_groups(n=2000, seed=6):
    """200 codes whose class rate is set by groups of them (code mod 5), and a number."""
    rng = np.random.default_rng(seed)
    v = rng.integers(0, 200, n)
    rate = np.array([0.05, 0.1, 0.5, 0.85, 0.95])[v % 5]
    num = rng.normal(size=n)
    y = np.where(rng.random(n) < np.clip(rate + 0.1 * num, 0, 1), "yes", "no")
    return pd.DataFrame({"code": [f"v{k:03d}" for k in v], "num": num.round(3)}), y


@pytest.mark.parametrize("learner", [aspml.FoldSE, aspml.FoldRpp])
def test_a_rule_that_excludes_many_values_one_by_one_says_so(learner, tmp_path):
    """A held-out-shape trial: 500 codes whose rate is set by groups of them; FoldSE's
    first rule held 62 `code !=` literals (accuracy 0.585; Libre, which groups a column's
    values, 0.804) and nothing said so.  The note names the column and Libre, in Python
    and from aspml learn; a column of a few values says nothing."""
    from conftest import run_aspml
    X, y = _codes_in_groups()
    with pytest.warns(AspmlWarning) as caught:
        clf = learner(positive="yes").fit(X, y)
    said = [str(w.message) for w in caught if "one by one" in str(w.message)]
    longest = max(sum(1 for lit in r.body if getattr(lit, "op", None) == "!=")
                  for r in clf.program_.rules)
    assert longest >= 10 and len(said) == 1
    assert said[0].startswith(f"one of {learner.__name__}'s rules excludes {longest} values "
                              "of 'code' one by one (code != ")
    assert "the column holds 200 values" in said[0] and "Libre groups" in said[0]
    chains = [[lit.value for lit in r.body if getattr(lit, "op", None) == "!="]
              for r in clf.program_.rules]
    first = max(chains, key=len)[0]
    assert f'(code != "{first}" AND code != "' in said[0]     # quoted as the program prints
    X.assign(y=y).to_csv(tmp_path / "codes.csv", index=False)
    done = run_aspml("learn", tmp_path / "codes.csv", "--target", "y", "--positive", "yes",
                     "--learner", "fold-se" if learner is aspml.FoldSE else "fold-rpp")
    assert done.returncode == 0 and "one by one (code != " in done.stderr
    dd = pytest.importorskip("dask.dataframe")    # a Dask fit says it too
    with pytest.warns(AspmlWarning, match=r"rules excludes \d+ values of 'code' one by one"):
        learner(positive="yes").fit(dd.from_pandas(X, npartitions=2),
                                    dd.from_pandas(pd.Series(y), npartitions=2))
    few = X.assign(code=X.code.str[-1])        # 10 values: no long chain
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AspmlWarning)
        learner(positive="yes").fit(few, y)
    assert not [w for w in caught if "one by one" in str(w.message)]


@pytest.mark.parametrize("learner", [aspml.FoldSE, aspml.FoldRpp, aspml.MultiValueRuleSet])
def test_rules_that_hold_for_nearly_every_row_are_no_model_and_say_so(learner):
    """Columns of noise, 95% of the rows positive: FoldSE learned n5 <= 3.14 (every row but
    one), FoldRpp two rules that cover every row, MRS a value set of every value; each
    answered "yes" for every row without a word."""
    rng = np.random.default_rng(0)
    n = 1000
    X = pd.DataFrame({f"n{k}": rng.normal(size=n).round(2) for k in range(10)})
    X["c"] = rng.choice(list("abc"), n)
    y = np.where(rng.random(n) < 0.95, "yes", "no")
    kw = {"random_state": 0} if learner is aspml.MultiValueRuleSet else {}
    with pytest.warns(AspmlWarning, match=r'rules hold for \d+\.\d% of the "no" rows in '
                      r'training: the program answers "yes" for nearly every row|'
                      r'rules hold on every training row: the program calls every row '
                      r'positive'):       # MRS's own note, when on every row
        learner(positive="yes", **kw).fit(X, y)
    # a model that finds the other class says nothing
    y = np.where(X.n0 > -0.85, "yes", "no")      # a fifth of the rows "no"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AspmlWarning)
        learner(positive="yes", **kw).fit(X, y)
    assert not [w for w in caught if "nearly every row" in str(w.message)]


@pytest.mark.parametrize("learner", [aspml.FoldSE, aspml.FoldRpp,
                                     lambda **kw: aspml.Libre(random_state=0, **kw)])
def test_a_column_that_copies_the_label_is_named(learner):
    """A discharge diagnosis beside the admission group it was derived from: every learner
    read it alone, accuracy 1.000, and said nothing."""
    rng = np.random.default_rng(0)
    n = 400
    group = rng.choice(["routine", "uro", "surgery"], n, p=[0.6, 0.25, 0.15])
    code = {"routine": "R", "uro": "U", "surgery": "S"}
    X = pd.DataFrame({"age": rng.integers(18, 90, n),
                      "discharge_dx": [code[g] for g in group]})
    with pytest.warns(AspmlWarning, match=r"column 'discharge_dx' names the classes one to "
                      r"one on all 400 training rows") as seen:
        learner().fit(X, group)
    assert [w.filename for w in seen if "one to one" in str(w.message)] == [__file__]
    # a column that only goes with the label says nothing
    noisy = X.assign(discharge_dx=np.where(rng.random(n) < 0.1, "R", X.discharge_dx))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AspmlWarning)
        learner().fit(noisy, group)
    # nor does a concept of a column of more values than classes (g in {a, b})
    concept = X.assign(discharge_dx=[f"{code[g]}{rng.integers(2)}" for g in group])
    with warnings.catch_warnings(record=True) as more:
        warnings.simplefilter("always", AspmlWarning)
        learner().fit(concept, group)
    assert not [w for w in caught + more if "one to one" in str(w.message)]


def test_an_array_after_a_frame_fit_warns_as_scikit_learn_does():
    # a trial: fitted on height, weight, then given weight, height as an array: read by
    # position without a word (accuracy 0.69); scikit-learn's estimators warn
    X, y = table()
    clf = FoldSE(positive="sick").fit(X, y)
    with pytest.warns(UserWarning, match="does not have valid feature names.*read in the order"):
        clf.predict(X.to_numpy())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clf.predict(X)
        FoldSE(positive="sick").fit(X.to_numpy(), y).predict(X.to_numpy())


def test_a_program_learned_on_unnamed_columns_says_what_its_x0_is():
    # a trial: fitted on a DataFrame with columns 0, 1; program_.predict(df) said only
    # "the data has no column(s) ['x0']"
    X = pd.DataFrame(np.random.default_rng(0).normal(size=(100, 2)))
    clf = FoldSE().fit(X, np.where(X[0] > 0, "a", "b"))
    with pytest.raises(aspml.AspmlError, match=r"no column\(s\) \['x0'\].*names a learner gives "
                                               r"columns that have none \(x0 the first\)"):
        clf.program_.predict(X)
    named = X.set_axis([f"x{i}" for i in range(2)], axis=1)
    assert list(clf.program_.predict(named)) == list(clf.decision(X))


def test_a_rule_only_the_tail_refused_is_named_first_with_the_tail_that_keeps_it():
    # a trial (0.5% fraud): the note's first advice, class_weight="balanced", gave test F1
    # 0.08; the tail its own figures call for learned the hidden rule
    rng = np.random.default_rng(0)
    n = 14000
    X = pd.DataFrame({"amount": np.round(rng.lognormal(4, 1.2, n), 2),
                      "hour": rng.integers(0, 24, n),
                      "channel": rng.choice(["online", "store", "phone", "atm"], n,
                                            p=[.3, .4, .2, .1])})
    rule = (X.amount > 400) & (X.channel == "online") & (X.hour < 6)
    y = np.where(rng.random(n) < np.where(rule, 0.9, 0.002), "fraud", "ok")
    with pytest.warns(AspmlWarning, match=r"learned no rules .* try tail=(\d\.\d+) \(the first "
                                          r"rule would then be kept\), or class_weight") as got:
        assert FoldSE(positive="fraud").fit(X, y).program_.n_rules == 0
    tail = float(re.search(r"try tail=(\d\.\d+)", str(got[0].message)).group(1))
    program = FoldSE(positive="fraud", tail=tail).fit(X, y).program_
    assert program.n_rules >= 1 and "channel" in program.features_used


def test_predict_proba_keeps_the_order_of_precisions_on_the_wrong_side_of_one_half():
    # a trial: Libre's rule right on 2.2% of its rows scored 0.5000..., as did any other
    # such rule: a ranking (roc_auc, a threshold) could not tell them apart
    X = pd.DataFrame({"a": np.arange(100.0)})
    y = np.where((X.a < 20) | ((X.a >= 50) & (X.a < 60)), "p", "n")
    clf = FoldSE(positive="p", tail=0).fit(X, y)
    assert clf.program_.n_rules == 2
    clf.rule_precision_ = np.array([0.02, 0.3])         # as a weak learner's rules may be
    clf.default_precision_ = 0.9                         # most uncovered rows positive
    rows = pd.DataFrame({"a": [5.0, 55.0, 90.0]})          # rule 1, rule 2, no rule
    proba = clf.predict_proba(rows)[:, list(clf.classes_).index("p")]
    assert proba[0] > 0.5 and proba[1] > proba[0] and proba[2] < 0.5
    assert list(clf.classes_[clf.predict_proba(rows).argmax(axis=1)]) == list(clf.predict(rows))
    # far from 1/2 (a review: 0.5 + 1e-9 * 1e-8 rounds to 0.5, a tie argmax breaks its way)
    clf.rule_precision_, clf.default_precision_ = np.array([1e-8, 4e-8]), 1 - 1e-8
    proba = clf.predict_proba(rows)[:, list(clf.classes_).index("p")]
    assert proba[0] > 0.5 and proba[1] > 0.5 and proba[2] < 0.5
    assert list(clf.classes_[clf.predict_proba(rows).argmax(axis=1)]) == list(clf.predict(rows))


@pytest.mark.parametrize("name", ["FoldSE", "Libre"])
def test_a_label_the_learner_reads_as_missing_is_said_to_be_a_class(name, tmp_path):
    """'?' among the labels: a class in Python, a missing label to aspml learn (its rows
    left out, one class fewer: a fuzz trial).  The fit says so; a label of another
    word is not said."""
    from conftest import run_aspml
    X = pd.DataFrame({"x": range(60)})
    y = np.array(["a"] * 20 + ["b"] * 20 + ["?"] * 20)
    kw = {"random_state": 0} if name == "Libre" else {}
    with pytest.warns(AspmlWarning, match=r"hold '\?' \(20 rows\), what this learner "
                      r"reads as a missing value in X \(missing=\('\?',\)\) and aspml learn"):
        getattr(aspml, name)(**kw).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", AspmlWarning)
        warnings.filterwarnings("ignore", message=".*like an identifier")
        warnings.filterwarnings("ignore", message=".*rules")
        getattr(aspml, name)(**kw).fit(X, np.where(y == "?", "c", y))
    data = tmp_path / "d.csv"
    X.assign(label=y).to_csv(data, index=False)
    out = run_aspml("learn", data, "--target", "label")
    # the command's program: of "a" and "b" alone (binary), the '?' rows left out
    assert out.returncode == 0 and "from 40 rows" in out.stdout, out.stdout
    assert '"?"' not in out.stdout and "CLASSES" not in out.stdout
