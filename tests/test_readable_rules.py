"""Rules a person reads as meant (issue #19, item 16).

* FOLD-SE's ``NOT ("sepal length (cm)" > 7)`` on a numeric column that was never
  missing reads ``"sepal length (cm)" <= 7``.  The two differ only on a missing
  value, which training never showed; there the plain comparison does not hold,
  as no comparison holds on a missing value.  Where the column had missing
  values the negated form stays.
* MRS's ``campaign in (-inf, inf) AND NOT ab1`` (ab1: the excluded range) reads as
  the allowed ranges, one rule each: ``campaign < 22``, ``campaign >= 63``.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris

import aspml
from aspml import NotAtom, NotCompare
from conftest import predict_with_every_engine

IRIS = load_iris(as_frame=True)
X_IRIS = IRIS.data
Y_IRIS = np.where(IRIS.target == 1, "yes", "no")     # versicolor: FOLD-SE negates a comparison
SEPAL = "sepal length (cm)"


@pytest.fixture(scope="module")
def fold_se():
    return aspml.FoldSE().fit(X_IRIS, Y_IRIS)


def engines(p, X):
    return {"fast": aspml.evaluate.predict(p, X).tolist(),
            "clingo": aspml.asp.predict(p, X).tolist(),
            "prolog": aspml.prolog.predict(p, X).tolist()}


def test_fold_se_writes_a_plain_comparison_on_a_complete_numeric_column(fold_se):
    p = fold_se.program_
    text = p.to_text()
    assert "NOT (" not in text and f'"{SEPAL}" <= 7' in text
    assert not any(isinstance(lit, NotCompare) for lit in p.literals)
    # the same answers as the negated form on the training rows
    negated = aspml.Program(tuple(
        aspml.Rule(r.head, tuple(NotCompare(SEPAL, ">", 7) if lit == aspml.Compare(SEPAL, "<=", 7)
                                 else lit for lit in r.body)) for r in p.rules),
        p.target, p.schema, p.provenance)
    assert any(isinstance(lit, NotCompare) for lit in negated.literals)
    assert (negated.predict(X_IRIS) == p.predict(X_IRIS)).all()


def test_the_plain_comparison_survives_every_logic_dialect_and_a_saved_model(fold_se, tmp_path):
    p = fold_se.program_
    for dialect in ("asp", "prolog", "scasp"):
        assert aspml.parse(p.print(dialect), dialect) == p
    p.save(tmp_path / "m.lp")
    assert aspml.load(tmp_path / "m.lp") == p


def test_a_missing_value_later_is_answered_alike_by_every_engine_and_door(fold_se, tmp_path,
                                                                          swipl):
    p = fold_se.program_
    answers = engines(p, X_IRIS)
    assert answers["fast"] == answers["clingo"] == answers["prolog"]
    holes = X_IRIS.copy()
    holes.loc[::7, SEPAL] = np.nan          # never missing in training: now missing
    holes.loc[3, "sepal width (cm)"] = np.nan
    answers = engines(p, holes)
    assert answers["fast"] == answers["clingo"] == answers["prolog"]
    # the comparison does not hold on a missing value, so the rule does not fire there
    one = aspml.Program((aspml.Rule(None, (aspml.Compare(SEPAL, "<=", 7),)),), p.target)
    assert not one.predict(holes)[holes[SEPAL].isna().to_numpy()].any()
    model, data = tmp_path / "m.lp", tmp_path / "d.csv"
    p.save(model)
    holes.to_csv(data, index=False)
    want = ["yes" if a else "no" for a in answers["fast"]]
    for engine, got in predict_with_every_engine(model, data).items():
        assert [line.split(",")[1] for line in got] == want, engine


def test_fold_se_keeps_the_negation_where_training_had_missing_values():
    X = X_IRIS.copy()
    X.iloc[::15, 0] = np.nan
    p = aspml.FoldSE().fit(X, Y_IRIS).program_
    assert NotCompare(SEPAL, ">", 7) in p.literals


def campaign_data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 100, 400)
    X = pd.DataFrame({"campaign": x, "z": rng.integers(0, 3, 400)})
    return X, np.where((x < 20) | (x >= 60), "yes", "no")


def test_mrs_writes_the_allowed_ranges_not_everything_but_a_gap(swipl):
    X, y = campaign_data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = aspml.MultiValueRuleSet(random_state=0).fit(X, y)
    p = m.program_
    text = p.to_text()
    assert "(-inf, inf)" not in text and "NOT ab" not in text, text
    assert "IF campaign < 22 THEN" in text and "IF campaign >= 63 THEN" in text
    assert not any(isinstance(lit, NotAtom) for lit in p.literals)
    # exact: the program covers the rows the learner's bitsets cover
    assert (aspml.evaluate.predict(p, X) == m._train_cover).all()
    # and the engines agree on every row, missing values included
    holes = X.astype(object)
    holes.iloc[:7, 0] = None
    answers = engines(p, holes)
    assert answers["fast"] == answers["clingo"] == answers["prolog"]
    assert not any(answers["fast"][:7])       # a missing value satisfies no condition
