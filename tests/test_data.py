"""Typed tables: kinds, missing values, overrides, and what happens at prediction time."""

import numpy as np
import pandas as pd
import pytest

import aspml
from aspml import AspmlError, Compare, Feature, Program, Rule, Schema
from aspml.data import encode, infer_schema


def test_kinds_are_inferred_from_values():
    X = pd.DataFrame({
        "age": [30, 40, np.nan],
        "ratio": ["1.5", "?", "2"],
        "city": ["Paris", "Rome", None],
        "ca": ["0", "?", "x"],
        "smoker": [True, False, True],
    })
    s = infer_schema(X)
    assert [f.kind for f in s.features] == ["numeric", "numeric", "categorical", "mixed", "boolean"]
    assert s["ratio"].scale == 10 and s["age"].scale == 1


def test_overrides_and_missing_tokens():
    X = pd.DataFrame({"code": [1, 2, 3], "v": ["a", "NA", "b"]})
    s = infer_schema(X, kinds={"code": "categorical"}, missing=("NA",))
    assert s["code"].kind == "categorical"
    t = encode(X, s, missing=("NA",))
    assert t["code"].categories == ("1", "2", "3")
    assert list(t["v"].missing) == [False, True, False]
    with pytest.raises(AspmlError, match="unknown column"):
        infer_schema(X, kinds={"nope": "numeric"})
    with pytest.raises(AspmlError, match="kind 'weird'"):
        infer_schema(X, kinds={"code": "weird"})


def test_column_arrays():
    X = pd.DataFrame({"m": [5, "x", None, "2.5", "?"]})
    col = encode(X, Schema((Feature("m", "mixed"),)))["m"]
    assert col.num.dtype == np.float64 and col.code.dtype == np.int32
    assert list(col.is_num) == [True, False, False, True, False]
    assert list(col.missing) == [False, False, True, False, True]
    assert col.categories == ("x",) and list(col.code) == [-1, 0, -1, -1, -1]


def test_prediction_time_behaviour():
    p = Program((Rule(None, (Compare("city", "==", "Paris"),)),
                 Rule(None, (Compare("age", ">", 60),))))
    # unseen category: just a value no literal matches; extra columns are ignored
    X = pd.DataFrame({"city": ["Oslo", "Paris"], "age": [20, 20], "extra": [1, 2]})
    assert list(p.predict(X)) == [False, True]
    assert list(aspml.asp.predict(p, X)) == [False, True]
    with pytest.raises(AspmlError, match=r"no column\(s\) \['age'\]"):
        p.predict(X[["city"]])
    with pytest.raises(AspmlError, match="is numeric but holds 'old'"):
        p.predict(pd.DataFrame({"city": ["Rome"], "age": ["old"]}))
    with pytest.raises(AspmlError, match="expected a pandas DataFrame"):
        p.predict([[1, 2]])


def test_an_array_given_to_a_program_is_told_how_to_name_its_columns():
    """An estimator fitted on an array predicts for one; the program's own functions
    (and each engine's) read a DataFrame and say how to make one of the array."""
    from sklearn.datasets import load_breast_cancer
    X, y = load_breast_cancer(return_X_y=True)
    clf = aspml.FoldSE().fit(X, y)
    program = clf.program_
    assert len(program.schema.names) < X.shape[1]        # (the rules read some columns)
    for predict in (program.predict, lambda a: aspml.asp.predict(program, a)):
        with pytest.raises(AspmlError, match=r"columns=\[f'x\{i\}' for i in range"):
            predict(X)
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])])    # as it says
    assert list(program.predict(frame)) == list(clf.predict(X))
    assert list(aspml.asp.predict(program, frame)) == list(clf.predict(X))


def test_numbers_in_categorical_columns_become_text():
    X = pd.DataFrame({"c": [1.0, 2.5, np.nan]})
    col = encode(X, Schema((Feature("c", "categorical"),)))["c"]
    assert col.categories == ("1", "2.5") and list(col.missing) == [False, False, True]


def test_boolean_columns():
    X = pd.DataFrame({"b": ["true", "no", None, 1]})
    col = encode(X, Schema((Feature("b", "boolean"),)))["b"]
    assert list(col.num[:2]) == [1.0, 0.0] and col.missing[2]
    with pytest.raises(AspmlError, match="boolean but holds 'maybe'"):
        encode(pd.DataFrame({"b": ["maybe"]}), Schema((Feature("b", "boolean"),)))


def test_clingo_and_prolog_fact_encodings():
    from aspml.data.facts import clingo_facts, clingo_numbers, prolog_facts
    X = pd.DataFrame({"x": [1.25, np.nan, -3.0], "c": ['a"b', None, "it's"]})
    s = Schema((Feature("x", "numeric", 100), Feature("c", "categorical")))
    t = encode(X, s)
    numbers = clingo_numbers(t, {"x": 100})
    assert clingo_facts(t, {"x": "x", "c": "c"}, numbers) == (
        'row(0).\nrow(1).\nrow(2).\nx(0,125).\nx(2,-300).\nc(0,"a\\"b").\nc(2,"it\'s").\n')
    assert prolog_facts(t, {"x": "x", "c": "c"}) == (
        "row(0).\nrow(1).\nrow(2).\nx(0,1.25).\nx(2,-3).\nc(0,'a\"b').\nc(2,'it\\'s').\n")


def test_duplicate_column_names_are_refused():
    X = pd.DataFrame([[1, 2]], columns=["a", "a"])
    with pytest.raises(AspmlError, match=r"\['a'\] more than once"):
        infer_schema(X)


def test_strings_that_only_look_like_numbers_stay_strings():
    X = pd.DataFrame({"m": ["0\x1f", " 1.5 ", "\u0661", "2"]})
    col = encode(X, Schema((Feature("m", "mixed"),)))["m"]
    assert list(col.is_num) == [False, True, False, True]


LEARNERS = [lambda: aspml.FoldSE(), lambda: aspml.Libre(n_estimators=2, random_state=0),
            lambda: aspml.MultiValueRuleSet(n_iter=50, random_state=0)]


@pytest.mark.parametrize("make", LEARNERS)
def test_column_names_are_all_strings_or_read_by_position(make):
    """Names of mixed types used to be replaced by x0, x1, ... in order, so a frame
    with its columns in another order was read wrongly, without a word."""
    X = pd.DataFrame({"age": [25, 35, 45, 55, 65, 75] * 3, "city": list("abcabc") * 3,
                      2020: np.arange(18)})
    y = (X.age > 50).to_numpy()
    with pytest.raises(TypeError, match="column names must all be strings"):
        make().fit(X, y)
    with pytest.raises(AspmlError, match=r"\['age'\] more than once"):
        make().fit(X.set_axis(["age", "age", "x"], axis=1), y)
    plain = pd.DataFrame(X.to_numpy())            # integer names: by position, as arrays are
    clf = make().fit(plain, y)
    assert not hasattr(clf, "feature_names_in_")
    assert np.array_equal(clf.predict(plain), clf.predict(plain.to_numpy()))


@pytest.mark.parametrize("make", LEARNERS)
def test_missing_as_one_string_is_one_token(make):
    X = pd.DataFrame({"city": ["Paris", "P", "a", "Paris", "P", "a"] * 3})
    y = np.array([1, 0, 0, 1, 0, 0] * 3)
    clf = make().set_params(missing="Pa").fit(X, y)   # neither "P" nor "a" is missing
    assert clf._missing() == ("Pa",)
    for bad in (5, ["?", 5]):
        with pytest.raises(TypeError, match="missing must be a string or a list of strings"):
            make().set_params(missing=bad).fit(X, y)
    for bad in ([1], range(1, 2), frozenset({1})):
        with pytest.raises(ValueError, match="positive must be one class label"):
            make().set_params(positive=bad).fit(X, y)
    assert make().set_params(positive=np.int64(1)).fit(X, y).positive_index_ == 1


def test_a_missing_token_given_as_a_string_is_not_a_substring_test():
    X = pd.DataFrame({"c": ["N", "A", "NA", "N"]})
    col = aspml.data.schema_and_table(X, missing="NA")[1]["c"]
    assert list(col.code < 0) == [False, False, True, False]


def test_a_value_the_program_names_up_to_case_is_said(tmp_path):
    """A trial: "Current" where the program names "current" changed a row's answer
    without a word (another value to the rules).  A value that reads as one the program
    names up to case is a note, through every door: the estimator, Program.predict, and
    the command in each engine (one note, also read in chunks); a value the program does
    not name at all is no note."""
    import warnings

    from conftest import have_swipl, run_aspml

    from aspml.errors import AspmlWarning
    rng = np.random.default_rng(0)
    n = 400
    df = pd.DataFrame({"smoker status": rng.choice(["current", "never", "former"], n),
                       "age": rng.integers(20, 80, n)})
    y = np.where((df["smoker status"] != "never") & (df.age > 50), "sick", "ok")
    clf = aspml.FoldSE(positive="sick").fit(df, y)
    assert "never" in str(clf.program_.literals)
    odd = df.head(6).copy()
    odd.loc[3, "smoker status"] = "NEVER"
    fine = df.head(6).copy()
    fine.loc[3, "smoker status"] = "unknown"
    for predict in (clf.predict, clf.program_.predict):
        with pytest.warns(AspmlWarning, match="holds 'NEVER'.*names 'never'"):
            predict(odd)
        with warnings.catch_warnings():
            warnings.simplefilter("error", AspmlWarning)
            predict(fine)
    train, data = tmp_path / "t.csv", tmp_path / "odd.csv"
    df.assign(y=y).to_csv(train, index=False)
    odd.to_csv(data, index=False)
    for model in (tmp_path / "m.lp", tmp_path / "m.pl"):
        assert run_aspml("learn", train, "--target", "y", "--positive", "sick", "-o",
                         model).returncode == 0
        for options in (("--engine", "fast"), ("--engine", "clingo"),
                        ("--engine", "prolog"), ("--chunksize", "2")):
            if options[-1] == "prolog" and not have_swipl():
                continue
            done = run_aspml("predict", model, data, *options)
            assert done.returncode == 0
            assert done.stderr.count("holds 'NEVER'") == 1, (model, options, done.stderr)


def test_many_texts_in_a_numeric_column_hint_the_kind_alone():
    """More than five texts, or a value no missing token can name (True): the message
    names five and how many more, and hints the kind only (a missing= list of five would
    leave the others out: a review)."""
    X = pd.DataFrame({"A": ["1", "n/a", "x", "2", "-inf", "abc", "q", "z"]})
    with pytest.raises(AspmlError, match=r"and 1 more \(row 1 the first\); declare it mixed") as e:
        aspml.FoldSE(kinds={"A": "numeric"}).fit(X, [0, 1] * 4)
    assert "missing=" not in str(e.value)
    X = pd.DataFrame({"A": [1, True, 2, 3]}, dtype=object)
    with pytest.raises(AspmlError, match="holds True") as e:
        aspml.FoldSE(kinds={"A": "numeric"}).fit(X, [0, 1] * 2)
    assert "missing=" not in str(e.value)


def test_first_of_coverage_refuses_a_coverage_of_another_program():
    """first_true reads without bounds checks: a coverage of the wrong shape is refused
    before it (a review: garbage read past the array)."""
    from aspml import Target
    from aspml.evaluate import first_of_coverage
    p = Program((Rule(None, (Compare("a", ">", 1),), label="p"),
                 Rule(None, (Compare("a", ">", 2),), label="q")),
                target=Target(classes=("p", "q"), default="q"))
    with pytest.raises(ValueError, match="the program has 2 rules"):
        first_of_coverage(p, np.zeros((3, 1), bool))
    assert first_of_coverage(p, np.array([[1, 1], [0, 1], [0, 0]], bool)).tolist() == [0, 1, -1]
