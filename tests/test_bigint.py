"""Numbers clingo's 32-bit integers cannot hold (2^40, 1e15, raw floats): ranked features.

Every door: a learned program saves, loads back equal, and the fast path,
clingo and SWI-Prolog agree on every row — at, between and beyond its
thresholds, and far outside the training range; the CLI learns, saves,
predicts and checks such a table.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import aspml
import aspml.asp
import aspml.prolog
from aspml import (Compare, Feature, InSet, Interval, NotAtom, NotCompare, ParseError, Program,
                   Rule, Schema, Target)

from aspml.logic.values import SCALED_MAX
from conftest import predict_with_every_engine, run_aspml
from strategies import programs_with_tables

SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]

big_numbers = st.one_of(
    st.integers(2**31, 2**40), st.integers(-2**41, -2**31),
    st.integers(-9, 9).map(lambda k: k * 10**15),
    st.integers(2**53 - 2, 2**53 + 2), st.integers(2**60, 2**64),     # past float64's digits
    st.builds(lambda i, d: i / d, st.integers(-2000, 2000), st.sampled_from([1, 10, 100])),
    st.floats(-1, 1, allow_nan=False).filter(lambda v: v == v),
    # amounts in millions with cents: integers of clingo's at their scale, not at twice it
    st.integers(SCALED_MAX // 200, SCALED_MAX // 100).map(lambda k: k / 100))


def three_engines(p, X):
    fast = p.predict(X)
    assert np.array_equal(aspml.asp.predict(p, X), fast)
    assert np.array_equal(aspml.prolog.predict(p, X), fast)
    return fast


def probes(p, X):
    """``X``, rows at, next to and between each threshold, and rows 32x beyond training."""
    rows = [X]
    for f in X.columns:
        nums = sorted({float(v) for lit in p.literals if lit.feature == f for v in lit.values()
                       if not isinstance(v, str)})
        if not nums:
            continue
        near = [x for t in nums for x in (t, np.nextafter(t, -np.inf), np.nextafter(t, np.inf),
                                          t - 0.5, t + 0.5)]
        near += [(a + b) / 2 for a, b in zip(nums, nums[1:])]
        extra = X.iloc[np.arange(len(near)) % len(X)].copy()
        extra[f] = near
        rows.append(extra)
    for sign in (32.0, -32.0):
        far = X.copy()
        for c in X.columns:
            if pd.api.types.is_float_dtype(X[c]) or pd.api.types.is_integer_dtype(X[c]):
                far[c] = X[c] * sign
        rows.append(far)
    return pd.concat(rows, ignore_index=True)


def example():
    return Program((Rule(None, (Compare("income", ">", 2**40), NotAtom("ab1"))),
                    Rule(None, (Interval("w", 0.1 + 0.2, 10**15, True, False),)),
                    Rule("ab1", (NotCompare("w", "<=", -3 * 10**12),)),
                    Rule("ab1", (InSet("income", frozenset([2**41, 5, "x"])),))),
                   Target("label", "yes", "no"),
                   Schema((Feature("income", "mixed"), Feature("w", "numeric"))))


ROWS = pd.DataFrame({"income": [2**40, 2**40 + 1, 2**41, 2**45, 5, "x", None, -2**50, 2**40 - 1],
                     "w": [0.3, 0.30000000000000004, 1e15, 1e15 - 1, -3e12, -3e12 + 1, 2**45,
                           None, 0.5]})


def test_ranked_program_prints_parses_saves_and_runs_everywhere(tmp_path, swipl):
    p = example()
    assert p.schema["income"].scale is None and p.schema["w"].scale is None
    text = p.to_asp()
    assert '% "income" is written as ranks: 2 = 5, 4 = 1099511627776, 6 = 2199023255552' in text
    assert "N1 > 4" in text and "4 <= N1 < 6" in text and "M1 <= 2" in text
    assert aspml.parse(text, "asp") == p
    assert aspml.parse(p.to_prolog(), "prolog") == p
    p.save(tmp_path / "m.lp")
    q = aspml.load(tmp_path / "m.lp")
    assert q == p
    fast = three_engines(q, ROWS)
    assert list(fast) == [False, True, False, True, False, False, True, False, True]
    assert np.array_equal(aspml.asp.coverage(q, ROWS), q.coverage(ROWS))


def test_small_numbers_keep_their_scaled_print():
    p = Program((Rule(None, (Compare("x", "<=", 1.25), Compare("y", ">", 3))),))
    assert p.schema["x"].scale == 100 and "ranks" not in p.to_asp()
    assert "N1 <= 125" in p.to_asp()


def test_a_scale_that_no_longer_holds_the_numbers_gives_way_to_ranks():
    p = Program((Rule(None, (Compare("x", ">", 2**40),)),),
                schema=Schema((Feature("x", "numeric", 10),)))
    assert p.schema["x"].scale is None
    q = Program((Rule(None, (Compare("x", ">", 5),)),), schema=Schema((Feature("x", "numeric", 10**9),)))
    assert q.schema["x"].scale == 1                  # 5e9 does not fit: the needed scale
    assert aspml.parse(q.to_asp(), "asp") == q


def test_values_near_the_edge_of_32_bits_keep_exact_comparisons(swipl):
    # 2^30 fitted clingo once but not at twice the scale (values between grid points)
    p = Program((Rule(None, (Compare("x", ">", 2**30), Compare("x", "<=", 2**31 - 1))),))
    X = pd.DataFrame({"x": [2**30, 2**30 + 0.5, 2**31 - 1, 2**31 - 0.5, 2**31, 2**45]})
    assert list(three_engines(p, X)) == [False, True, True, False, False, False]


def test_rank_of_no_constant_is_a_parse_error():
    text = example().to_asp()
    with pytest.raises(ParseError, match="ranked"):
        aspml.parse(text.replace("N1 > 4", "N1 > 3"), "asp")
    with pytest.raises(ParseError, match="ranked"):
        aspml.parse(text.replace("N1 > 4", "N1 > 8"), "asp")
    with pytest.raises(ParseError, match="rank table"):
        aspml.parse(text.replace("[5, 1099511627776, 2199023255552]", "[5, 1, 2]"), "asp")


def test_subsumption_and_explanations_on_ranked_features():
    p = Program((Rule(None, (Interval("v", 2**40, 10**15, True, False),)),
                 Rule(None, (Compare("v", ">", 2**41), Compare("v", "<", 10**15)))),
                Target("label", "yes"))
    assert aspml.asp.subsumption(p) == [(0, 1)]
    row = pd.Series({"v": 2.0**45})
    for engine in ("fast", "clingo"):
        e = aspml.explain(p, row, minimal=True, engine=engine)
        assert e.prediction and e.minimal == {"v": 2**45}
    cf = aspml.asp.explain.counterfactual(p, row, target=False)
    assert cf is not None and not p.predict(pd.DataFrame([cf.row]))[0]


@settings(max_examples=40, deadline=None, suppress_health_check=SLOW_OK)
@given(programs_with_tables(nums=big_numbers))
def test_random_programs_over_big_numbers_agree_and_round_trip(swipl, case):
    p, X = case
    assert aspml.parse(p.to_asp(), "asp") == p
    assert aspml.parse(p.to_prolog(), "prolog") == p
    three_engines(p, probes(p, X))


LEARNERS = {
    "fold-se": lambda: aspml.FoldSE(positive="yes", ratio=0.5, tail=0.0),
    "libre": lambda: aspml.Libre(positive="yes", n_estimators=3, random_state=0),
    "mrs": lambda: aspml.MultiValueRuleSet(positive="yes", n_iter=100, random_state=0),
}

STYLES = {
    "int40": lambda rng, n: rng.integers(2**31, 2**40, n).astype(float),
    "e15": lambda rng, n: rng.integers(-5, 6, n) * 1e15,
    "negative": lambda rng, n: -rng.integers(2**31, 2**41, n).astype(float),
    "decimals": lambda rng, n: rng.uniform(-10, 10, n).round(2),
    "mixed": lambda rng, n: np.where(rng.random(n) < 0.5, rng.uniform(-1, 1, n).round(3),
                                     rng.integers(2**31, 2**40, n).astype(float)),
}


@settings(max_examples=20, deadline=None, suppress_health_check=SLOW_OK)
@given(st.sampled_from(sorted(LEARNERS)), st.lists(st.sampled_from(sorted(STYLES)), min_size=1,
                                                   max_size=3), st.integers(0, 2**32 - 1))
def test_learned_programs_over_big_numbers_save_load_and_agree(swipl, tmp_path_factory,
                                                               learner, styles, seed):
    rng = np.random.default_rng(seed)
    n = 60
    X = pd.DataFrame({f"f{i}": STYLES[s](rng, n) for i, s in enumerate(styles)})
    score = sum((X[c] > X[c].median()).astype(int) for c in X.columns)
    y = np.where((score >= (len(styles) + 1) // 2) ^ (rng.random(n) < 0.1), "yes", "no")
    clf = LEARNERS[learner]()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "no rules" notes on unlucky tables
        clf.fit(X, y)
    p = clf.program_
    path = tmp_path_factory.mktemp("m") / "m.lp"
    p.save(path)
    q = aspml.load(path)
    assert q == p
    three_engines(q, probes(q, X))


def exported_answers(model, data, target: str) -> set:
    """The rows ``aspml export MODEL --to asp --facts DATA`` gives the target in clingo
    alone (the file a deployment runs)."""
    import clingo
    r = run_aspml("export", model, "--to", "asp", "--facts", data)
    assert r.returncode == 0, r.stderr
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], r.stdout)
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as handle:
        return {s.arguments[0].number for s in next(iter(handle)).symbols(atoms=True)
                if s.name == target}


def test_cli_learns_saves_predicts_and_checks_big_numbers(tmp_path, swipl):
    rng = np.random.default_rng(3)
    n = 80
    frame = pd.DataFrame({"income": rng.integers(2**31, 2**40, n),
                          "debt": rng.integers(-5, 6, n) * 10**15,
                          "rate": rng.uniform(0, 1, n).round(3)})
    frame["ok"] = np.where(frame.income > 2**39, "yes", "no")
    data = tmp_path / "big.csv"
    frame.to_csv(data, index=False)
    model = tmp_path / "m.lp"
    r = run_aspml("learn", data, "--target", "ok", "--positive", "yes", "-o", model)
    assert r.returncode == 0, r.stderr
    assert "is written as ranks" in model.read_text()
    later = frame.drop(columns="ok").copy()
    later["income"] = later["income"] * 32                 # 2^45: beyond training
    far = tmp_path / "far.csv"
    later.to_csv(far, index=False)
    answers = predict_with_every_engine(model, far)
    assert answers["fast"] == answers["clingo"] == answers["prolog"]
    r = run_aspml("check", model, data, "--target", "ok")
    assert r.returncode == 0, r.stderr
    # the exported program with its facts runs in clingo alone, with the same answers
    fast = aspml.load(model).predict(later)
    assert exported_answers(model, far, "ok") == set(np.flatnonzero(fast).tolist())
    r = run_aspml("explain", model, far, "--row", "0", "--minimal", "--counterfactual")
    assert r.returncode == 0, r.stderr


def test_amounts_in_millions_with_cents_agree_and_explain_at_their_scale(tmp_path, swipl):
    """A trial's court amounts: 2,827,908.50 fits clingo's integers at the program's
    scale (100) but not at twice it, the scale an engine prints the program at for a
    value between two cents (and the reasoner at for its grid).  The program fell back to
    its own scale while the facts were written at twice it: clingo read every amount
    doubled (rows answered unlike the fast path and SWI-Prolog), a minimal reason named
    a value that did not force the answer, and counterfactuals failed.  Every door."""
    p = aspml.parse("""IF amount > 479195.71 AND NOT ab1 THEN won = "yes"
IF court = "A" THEN won = "yes"
IF amount > 2827908.5 THEN ab1
ELSE won = "no"
""", "text")
    assert p.schema["amount"].scale == 100
    X = pd.DataFrame({"amount": [479195.705, 479195.715, 2827908.505, 2827908.495,
                                 300000.001, 300000, 100000, 1e7],
                      "court": ["B", "B", "B", "B", "B", "A", "B", "B"]})
    assert list(three_engines(p, X)) == [False, True, False, True, False, True, False, False]
    assert list(three_engines(p, probes(p, X))) == list(p.predict(probes(p, X)))
    for i in range(len(X)):
        row = X.iloc[i]
        own = bool(p.predict(X.iloc[[i]])[0])
        for engine in ("fast", "clingo"):
            e = aspml.explain(p, row, minimal=True, engine=engine)
            # the minimal reason forces the answer: the other values anywhere in range
            others = pd.DataFrame({"amount": [0, 479195.72, 2827908.51, 479195.71, None],
                                   "court": ["A", "B", "C", None, "A"]})
            for f, v in e.minimal.items():
                others[f] = v
            assert set(p.predict(others)) == {own}, (i, engine, e.minimal)
        cf = aspml.asp.explain.counterfactual(p, row, target=not own)
        assert cf is not None and bool(p.predict(pd.DataFrame([cf.row]))[0]) is (not own)
    program, data = tmp_path / "m.lp", tmp_path / "rows.csv"
    p.save(program)
    X.to_csv(data, index=False)
    answers = predict_with_every_engine(program, data)
    assert answers["fast"] == answers["clingo"] == answers["prolog"]
    for i in range(len(X)):
        done = run_aspml("explain", program, data, "--row", str(i), "--minimal",
                         "--counterfactual")
        assert done.returncode == 0, done.stderr
    done = run_aspml("explain", program, data, "--row", "4", "--minimal")
    assert "These values alone are enough for this answer: amount = 300000.001" in done.stdout


def test_a_given_or_learned_scale_past_the_room_for_finer_ones_still_runs_everywhere():
    """A review of the fix above: a schema's given scale (a learner's data scale: cents)
    whose constants fit clingo's integers but leave no room for twice it was kept by the
    schema's completion, and rows between two cents then raised ScaleError in clingo,
    explain and export.  The completion keeps the room; the engines' scales are set
    apart from it."""
    p = aspml.parse('IF amount > 15000000 AND NOT ab1 THEN won = "yes"\n'
                    'IF amount > 21000000 THEN ab1\nELSE won = "no"\n', "text")
    given = p.with_schema(Schema((Feature("amount", "numeric", 100),)))
    X = pd.DataFrame({"amount": [15000000.005, 14999999.995, 20000000.5, 21000000.001, 5.0]})
    assert list(three_engines(given, X)) == [True, False, True, False, False]
    for i in range(len(X)):
        for engine in ("fast", "clingo"):
            e = aspml.explain(given, X.iloc[i], minimal=True, engine=engine)
            assert e.minimal == {"amount": X["amount"][i]}
    cf = aspml.asp.explain.counterfactual(given, X.iloc[4], target=True)
    assert cf is not None and given.predict(pd.DataFrame([cf.row]))[0]
    rng = np.random.default_rng(0)
    amount = np.round(rng.uniform(0, 2.1e7, 400), 0)
    amount[:5] += 0.25
    amount[5], amount[6] = 12000000, 20000000
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        learned = aspml.FoldSE().fit(pd.DataFrame({"amount": amount}),
                                     (amount > 12000000) & (amount <= 20000000)).program_
    rows = pd.DataFrame({"amount": [12000000.005, 1.0, 19999999.995, 20000000.001]})
    assert list(three_engines(learned, rows)) == [True, False, True, False]
    for i in range(len(rows)):
        assert aspml.explain(learned, rows.iloc[i], minimal=True, engine="clingo").minimal


def test_a_step_the_reasoners_grid_cannot_hold_is_dropped():
    """A step of 0.001 (a CSV of three decimals, as aspml explain reads it) on constants
    in millions: the grid at the step's scale does not fit clingo's integers, and its
    multiples rounded onto other grid points: no counterfactual was found."""
    from aspml.asp.explain import counterfactual
    p = aspml.parse('IF amount > 2827908.5 THEN won = "yes"\nELSE won = "no"\n', "text")
    row = pd.Series({"amount": 100.125})
    for steps in (None, {"amount": 0.001}, {"amount": 0.5}):
        cf = counterfactual(p, row, target=True, steps=steps)
        assert cf is not None and p.predict(pd.DataFrame([cf.row]))[0], steps
    assert counterfactual(p, row, target=True, steps={"amount": 0.5}).changes == {
        "amount": (100.125, 2827909.0)}


def test_a_rule_of_several_large_value_sets_grounds_as_one_rule(tmp_path, swipl):
    """clingo reads a pool ``N1 = ("a";"b")`` as one rule per value, and a rule's pools
    multiply: a trial's LIBRE rule of four sets of 5 to 104 codes was 421,200 rules and
    clingo ran out of memory (22 GB).  A rule of two sets or more prints each as
    ``#count{0 : N1 = (...)} > 0``, one rule; it reads back exactly, and every engine,
    explanation and the exported file answer as the fast path."""
    from aspml import InSet
    sets = [InSet(f, frozenset(f"v{k + 7 * j:03d}" for k in range(60)))
            for j, f in enumerate("abcd")]
    p = Program((Rule(None, tuple(sets)), Rule(None, (InSet("a", frozenset({"v001", "w"})),))),
                Target("lab", "yes", "no"))
    text = p.to_asp()
    assert text.count("#count{0 : ") == 4 and 'N1 = ("v001";"w")' in text
    assert aspml.parse(text, "asp") == p
    rng = np.random.default_rng(0)
    X = pd.DataFrame({f: [f"v{v:03d}" for v in rng.integers(0, 90, 400)] for f in "abcd"})
    fast = three_engines(p, X)
    assert 0 < fast.sum() < len(X)
    for i in (int(np.flatnonzero(fast)[0]), int(np.flatnonzero(~fast)[0])):
        e = aspml.explain(p, X.iloc[i], minimal=True, engine="clingo")
        assert e.prediction == fast[i] and e.minimal
        cf = aspml.asp.explain.counterfactual(p, X.iloc[i], target=not fast[i])
        assert cf is not None and p.predict(pd.DataFrame([cf.row]))[0] != fast[i]
    model, data = tmp_path / "m.lp", tmp_path / "rows.csv"
    p.save(model)
    X.to_csv(data, index=False)
    assert exported_answers(model, data, "lab") == set(np.flatnonzero(fast).tolist())
