"""Counterfactuals keep a column's grain: a count stays a whole number (``priors_count:
0 -> 10``, not ``9.5``), a one-decimal column keeps one decimal."""

import json

import numpy as np
import pandas as pd
import pytest

import aspml
from aspml.asp.explain import steps_of
from conftest import run_aspml


def priors(threshold="9"):
    return aspml.parse(f'IF priors_count > {threshold} THEN label = "yes"\nELSE label = "no"',
                       "text")


def test_steps_keep_whole_numbers_whole():
    row = pd.Series({"priors_count": 0})
    assert aspml.counterfactual(priors(), row, steps={"priors_count": 1}).changes == \
        {"priors_count": (0, 10)}
    assert aspml.counterfactual(priors("9.5"), row, steps={"priors_count": 1}).changes == \
        {"priors_count": (0, 10)}
    # without steps (the program alone does not say): just above the threshold
    assert aspml.counterfactual(priors(), row).changes == {"priors_count": (0, 9.5)}
    low = aspml.parse('IF n <= 9 THEN label = "yes"', "text")
    assert aspml.counterfactual(low, pd.Series({"n": 20}), steps={"n": 1}).changes == {"n": (20, 9)}
    assert aspml.counterfactual(low, pd.Series({"n": 20}), steps={"n": 5}).changes == {"n": (20, 5)}


def test_one_decimal_stays_one_decimal():
    cf = aspml.counterfactual(priors("9.5"), pd.Series({"priors_count": 0.3}),
                              steps={"priors_count": 0.1})
    assert cf.changes == {"priors_count": (0.3, 9.6)}


def test_steps_of_a_table():
    X = pd.DataFrame({"n": ["0", "12", "3"], "x": ["0.5", "1.25", "?"], "c": ["a", "b", "c"]})
    assert steps_of(X) == {"n": 1, "x": 0.01}
    assert steps_of(X, ["n"]) == {"n": 1}


def test_a_fitted_estimator_keeps_its_training_grain():
    X = pd.DataFrame({"priors_count": [0, 1, 2, 3, 12, 15, 11, 20] * 3})
    y = ["yes" if v > 5 else "no" for v in X.priors_count]
    clf = aspml.FoldSE(positive="yes").fit(X, y)
    new = aspml.counterfactual(clf, X.iloc[0]).changes["priors_count"][1]
    assert new == int(new) and clf.program_.predict(pd.DataFrame({"priors_count": [new]}))[0]


@pytest.mark.parametrize("step", [0.3, 0, -1, 2.5, "1", True])
def test_a_bad_step_is_one_clear_error(step):
    with pytest.raises(aspml.AspmlError, match="must be a whole number or 1/N"):
        aspml.counterfactual(priors(), pd.Series({"priors_count": 0}), steps={"priors_count": step})


def test_explain_command_reads_the_grain_from_the_data(tmp_path):
    (tmp_path / "m.txt").write_text('IF priors_count > 9 THEN label = "yes"\nELSE label = "no"\n')
    (tmp_path / "d.csv").write_text("age,priors_count,label\n25,0,no\n40,12,yes\n33,2,no\n")
    out = run_aspml("explain", tmp_path / "m.txt", tmp_path / "d.csv", "--row", "0",
                    "--counterfactual")
    assert out.returncode == 0, out.stderr
    assert "change priors_count: 0 -> 10\n" in out.stdout
    out = run_aspml("explain", tmp_path / "m.txt", tmp_path / "d.csv", "--row", "0",
                    "--counterfactual", "--json")
    assert json.loads(out.stdout)["counterfactual"]["changes"] == {"priors_count": [0, 10]}


def test_counterfactual_past_a_full_precision_threshold_moves_just_past_it():
    """A number of many decimals is written as ranks; past the last threshold a trial's
    counterfactual moved 0.3249 to 2.2585071193691206 (the threshold plus 1), on a column
    of ratios below 2.  Now just past the threshold, a short number."""
    p = aspml.parse('IF "debt ratio" > 1.2585071193691204 THEN risk\n', "text")
    cf = aspml.counterfactual(p, {"debt ratio": 0.32493733083766857}, target=True)
    new = cf.changes["debt ratio"][1]
    assert 1.2585071193691204 < new <= 1.2585071193691204 + 1e-5
    assert len(repr(new)) <= 10
    below = aspml.counterfactual(p, {"debt ratio": 3.0123456789012345}, target=False)
    assert 1.2585071193691204 - 1e-5 <= below.changes["debt ratio"][1] <= 1.2585071193691204


def test_counterfactual_cost_of_a_huge_change_does_not_wrap():
    """clingo sums 32-bit integers: a change of 1,000 spans cost more than 2**31 and
    wrapped to a negative cost, the "cheapest" change (a trial: a column of numbers near
    1e-9 moved to -1.0).  Costs stop at a thousand spans."""
    p = aspml.parse("IF a > 0.3 THEN y\nIF b > 1.5e-09 THEN y\n", "text")
    row = {"a": 0.25, "b": -3.0e-09}
    cf = aspml.counterfactual(p, row, target=True, ranges={"a": (0, 1), "b": (0, 1e-15)})
    assert list(cf.changes) == ["a"], cf.changes


def test_a_learned_models_counterfactual_is_the_same_from_every_door(tmp_path):
    """A trial: the command took the grain and the distances' scales from the other rows
    of DATA, so one applicant got other advice from the training file than from a file
    of its row alone (0.5 -> 0.6 on a column of four decimals; "become unemployed"), and
    other advice than aspml.counterfactual on the fitted estimator for 14 rows in 100.
    Now all three take the learned model's own."""
    rng = np.random.default_rng(3)
    n = 300
    X = pd.DataFrame({"ratio": rng.uniform(0, 1, n).round(4),
                      "income": rng.uniform(1e4, 9e4, n).round(2),
                      "job": rng.choice(["salaried", "self", "none"], n)})
    y = np.where((X.ratio > 0.55) | ((X.job == "none") & (X.income < 3e4)), "yes", "no")
    data = X.assign(risk=y)
    data.to_csv(tmp_path / "all.csv", index=False)
    model = aspml.FoldSE(positive="yes").fit(X, pd.Series(y, name="risk"))
    model.program_.save(tmp_path / "m.lp")
    for i in (0, 1, 2, 5, 8):
        data.iloc[[i]].to_csv(tmp_path / "one.csv", index=False)
        answers = []
        for path, row in ((tmp_path / "all.csv", str(i)), (tmp_path / "one.csv", "0")):
            out = run_aspml("explain", tmp_path / "m.lp", path, "--row", row,
                            "--counterfactual", "--json")
            assert out.returncode == 0, out.stderr
            answers.append(json.loads(out.stdout)["counterfactual"])
        cf = aspml.counterfactual(model, X.iloc[i], target=not model.predict(X.iloc[[i]])[0] == "yes")
        py = None if cf is None else {k: [o, v] for k, (o, v) in cf.changes.items()}
        assert answers[0] == answers[1]
        assert (answers[0] and answers[0]["changes"]) == py, (i, answers[0], py)


def test_a_huge_change_still_costs_more_than_a_smaller_one():
    """The cost's cap (a review: at a thousand spans, 5,000 and 2,000 spans cost alike and
    the first feature won) sits where the features' sum cannot wrap."""
    p = aspml.parse("IF a > 5000 THEN y\nIF b > 2000 THEN y\n", "text")
    cf = aspml.counterfactual(p, {"a": 0, "b": 0}, target=True,
                              ranges={"a": (0, 1), "b": (0, 1)})
    assert list(cf.changes) == ["b"], cf.changes


def test_a_descriptive_model_says_no_grain():
    """aspml.generalize's programs carry its thresholds' scales, not the data's: the
    command takes DATA's steps for them, as for a program written by hand."""
    import dataclasses

    from aspml.asp.explain import learned_from_data
    p = aspml.parse("IF visits > 6.5 THEN y\n", "text")
    assert not learned_from_data(p)
    assert not learned_from_data(dataclasses.replace(p, provenance=(("learner", "generalize"),)))
    assert learned_from_data(dataclasses.replace(p, provenance=(("learner", "FoldSE"),)))


def test_any_other_value_is_never_a_real_value(tmp_path):
    """A category whose text is the placeholder's, "(any other value)": the change to that
    very category is shown as the value it is (quoted, not in ``any_other``), and a
    program that names it still finds "any other value" (a placeholder of another
    text).  Before, the first was shown as any other value (only that category makes
    the rule fire) and the second found no change at all."""
    from aspml.display import counterfactual_html
    named = aspml.parse('IF c = "(any other value)" THEN y = "yes"', "text")
    cf = aspml.counterfactual(named, pd.Series({"c": "a"}))
    assert cf.changes == {"c": ("a", "(any other value)")} and cf.any_other == ()
    assert 'c: "a" -> "(any other value)"' in cf.to_text(named)
    avoid = aspml.parse('IF c != "x" AND c != "(any other value)" THEN y = "yes"', "text")
    cf = aspml.counterfactual(avoid, pd.Series({"c": "x"}))
    assert cf is not None and cf.any_other == ("c",)
    assert cf.changes["c"][1] not in ("x", "(any other value)")
    assert avoid.predict(pd.DataFrame([cf.row]))[0]
    assert 'c: "x" -> (any other value 2)' in cf.to_text(avoid)
    assert "<b>(any other value 2)</b>" in counterfactual_html(cf)
    # the usual case keeps its words
    plain = aspml.parse('IF c != "x" THEN y = "yes"', "text")
    cf = aspml.counterfactual(plain, pd.Series({"c": "x"}))
    assert cf.any_other == ("c",) and 'c: "x" -> (any other value)' in cf.to_text(plain)
    # the command's JSON says which new values are placeholders
    pd.DataFrame({"c": ["x", "a"]}).to_csv(tmp_path / "d.csv", index=False)
    for program, row, other in ((avoid, 0, ["c"]), (named, 1, [])):
        (tmp_path / "m.txt").write_text(program.print("text"))
        out = run_aspml("explain", tmp_path / "m.txt", tmp_path / "d.csv", "--row", str(row),
                        "--counterfactual", "--json")
        assert out.returncode == 0, out.stderr
        got = json.loads(out.stdout)["counterfactual"]
        assert got["any_other"] == other and list(got["changes"]) == ["c"]
