"""Multi-class programs through the command line and the tools around it (issue #17):
``aspml learn`` without ``--positive``, ``predict``, ``check``, ``explain``, ``export``,
``report``, ``bench`` and ``simplify``, each as a user runs it."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import f1_score, precision_score, recall_score

import aspml
from aspml.bench import fold_scores, macro_scores
from aspml.logic.model import Compare, Program, Rule, Target


def _iris():
    from sklearn.datasets import load_iris
    X, y = load_iris(return_X_y=True, as_frame=True)
    X.columns = ["sepal_length", "sepal_width", "petal_length", "petal_width"]
    names = np.array(["setosa", "versicolor", "virginica"], dtype=object)
    return X, names[y.to_numpy()]


def _hand_program():
    t = Target("species", classes=("setosa", "versicolor", "virginica"), default="virginica")
    return Program((Rule(None, (Compare("petal_length", "<=", 2.5),), label="setosa"),
                    Rule(None, (Compare("petal_width", "<=", 1.7),), label="versicolor")),
                   target=t)


def test_macro_scores_equal_scikit_learn():
    rng = np.random.default_rng(0)
    truth = rng.choice(np.array(["a", "b", "c", "d"], dtype=object), 200)
    pred = truth.copy()
    flip = rng.random(200) < 0.4
    pred[flip] = rng.choice(np.array(["a", "b", "c"], dtype=object), flip.sum())  # "d" never
    s = macro_scores(pred, truth)
    assert s["acc"] == pytest.approx(np.mean(pred == truth))
    assert s["f1"] == pytest.approx(f1_score(truth, pred, average="macro", zero_division=0))
    assert s["precision"] == pytest.approx(precision_score(truth, pred, average="macro",
                                                          zero_division=0))
    assert s["recall"] == s["bal_acc"] == pytest.approx(recall_score(truth, pred, average="macro"))
    assert fold_scores(pred, truth) == s                 # labels, not Booleans: macro
    # a row with no class (None) is wrong for every class
    pred[:10] = None
    assert macro_scores(pred, truth)["acc"] == pytest.approx(np.mean(pred == truth))


def test_simplify_reads_a_multiclass_programs_rules():
    X, y = _iris()
    p = _hand_program()
    m = aspml.generalize(p, rho=0.8, reference=X)
    predictions = {r.prediction for r in m.rules}
    assert predictions == {"setosa", "versicolor"}       # each rule predicts its own class
    assert "THEN species = \"setosa\"" in m.to_text()
