"""Every function that takes a Program also takes a fitted aspml estimator (its
``program_``, with its missing-value tokens), and anything else is a clear TypeError."""

import pandas as pd
import pytest
from sklearn.exceptions import NotFittedError

import aspml
from conftest import ROOT

ANIMALS = pd.read_csv(ROOT / "examples" / "birds" / "animals.csv", dtype=str)
X = ANIMALS.drop(columns=["name", "flies"])


@pytest.fixture(scope="module")
def clf():
    return aspml.FoldSE(ratio=1, tail=0, positive="yes").fit(X, ANIMALS.flies)


def test_explain_and_counterfactual_take_an_estimator(clf):
    row = X.iloc[7]
    assert aspml.explain(clf, row, minimal=True) == aspml.explain(clf.program_, row, minimal=True)
    assert aspml.explain(clf, row, engine="clingo").to_text() == \
        aspml.explain(clf.program_, row).to_text()
    cf = aspml.counterfactual(clf, row, target=False)
    assert cf is not None and cf.changes == aspml.counterfactual(clf.program_, row,
                                                                 target=False).changes


def test_every_engine_takes_an_estimator(clf, swipl):
    want = clf.program_.predict(X)
    assert (aspml.asp.predict(clf, X) == want).all()
    assert (aspml.prolog.predict(clf, X) == want).all()
    assert (aspml.evaluate.predict(clf, X) == want).all()
    assert (aspml.asp.coverage(clf, X) == aspml.evaluate.coverage(clf, X)).all()
    assert aspml.evaluate.coverage_frame(clf, X).shape == (len(X), clf.program_.n_rules)
    assert aspml.asp.is_stratified(clf)
    aspml.asp.check_stratified(clf)


def test_generalize_takes_an_estimator():
    data = pd.DataFrame({"a": range(20), "b": [i % 3 for i in range(20)]})
    y = ["yes" if a > 11 else "no" for a in data.a]
    flat = aspml.FoldSE(positive="yes").fit(data, y)
    assert not any(r.head for r in flat.program_.rules), flat.program_.to_text()
    a = aspml.generalize(flat, rho=1, reference=data).to_text()
    assert a == aspml.generalize(flat.program_, rho=1, reference=data).to_text()


def test_the_estimators_missing_tokens_are_used():
    data = pd.DataFrame({"a": ["1", "2", "NA", "4", "5", "6"], "y": ["n", "n", "y", "y", "y", "y"]})
    clf = aspml.FoldSE(ratio=1, tail=0, missing=["NA"], positive="y").fit(data[["a"]], data.y)
    row = data.iloc[2][["a"]]
    e = aspml.explain(clf, row)
    assert e == aspml.explain(clf.program_, row, missing=["NA"])
    assert e == aspml.explain(clf.program_, row)        # the program carries its tokens
    with pytest.raises(aspml.AspmlError, match="holds 'NA'"):   # a value, without the tokens
        aspml.explain(clf.program_, row, missing=())


@pytest.mark.parametrize("bad", ["model.lp", None, 3, pd.DataFrame()])
@pytest.mark.parametrize("call", [
    lambda p: aspml.explain(p, X.iloc[0]),
    lambda p: aspml.counterfactual(p, X.iloc[0]),
    lambda p: aspml.asp.predict(p, X),
    lambda p: aspml.prolog.predict(p, X),
    lambda p: aspml.evaluate.predict(p, X),
], ids=["explain", "counterfactual", "asp", "prolog", "evaluate"])
def test_anything_else_is_a_clear_type_error(call, bad):
    with pytest.raises(TypeError, match="takes an aspml Program or a fitted aspml estimator"):
        call(bad)


def test_an_unfitted_estimator_says_fit_first():
    with pytest.raises(NotFittedError, match="not fitted yet; call fit"):
        aspml.explain(aspml.Libre(), X.iloc[0])
    with pytest.raises(NotFittedError, match="not fitted yet"):
        aspml.counterfactual(aspml.FoldSE(), X.iloc[0])
