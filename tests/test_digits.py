"""``aspml learn --digits N``: a new user's trial found the saved program answering
four rows of a breast-cancer table differently from the figures ``learn`` printed:
the learner saw 0.1308 as 0.13 and learned ``> 0.13``, while ``check`` and every
engine read 0.1308.  The numbers are now rounded halfway down and the thresholds
written at the midpoints between rounded values, so the program answers every row of
the file as the learner answered its rounded row."""

import warnings
from decimal import ROUND_HALF_DOWN, Decimal

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import aspml
from aspml.data.rounding import _round_half_down, at_midpoints, round_numbers
from aspml.errors import AspmlWarning
from aspml.logic.model import Compare, Interval, NotCompare, Program, Rule

from conftest import run_aspml


def _slow_round(x: float, digits: int) -> Decimal:
    """The grid point of ``x``: exact decimal arithmetic on the float's own value, halfway
    down, the halfway point being the float nearest ``(k + 1/2) / 10**digits``."""
    exact = Decimal(x)                      # the float's exact value
    k = int(exact.scaleb(digits).to_integral_value(rounding=ROUND_HALF_DOWN))
    for kk in (k - 1, k, k + 1):
        lo = float(Decimal(2 * kk - 1) / Decimal(2 * 10**digits))
        hi = float(Decimal(2 * kk + 1) / Decimal(2 * 10**digits))
        if lo < x <= hi:
            return Decimal(kk).scaleb(-digits)
    raise AssertionError(x)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 6), st.lists(st.one_of(
    st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False),
    st.integers(-10**6, 10**6).map(lambda k: k / 1000 + 0.0005),      # halfway points
    st.integers(-10**6, 10**6).map(lambda k: k / 100)), min_size=1, max_size=30))
def test_rounding_is_halfway_down_at_the_float_midpoint(digits, xs):
    x = np.array(xs, dtype=np.float64)
    k = _round_half_down(x, digits)
    assert [Decimal(int(v)).scaleb(-digits) for v in k] == [_slow_round(v, digits) for v in xs]


def _holds(lit, v):
    """Whether the literal holds for the number ``v`` (the fast path, one row)."""
    p = Program((Rule(None, (lit,)),))
    return bool(aspml.evaluate.predict(p, pd.DataFrame({"x": [v]}))[0])


THRESHOLDS = st.one_of(st.integers(-300, 300).map(lambda k: k / 100),
                       st.floats(-3, 3, allow_nan=False).map(lambda t: round(t, 4)))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 3), THRESHOLDS, THRESHOLDS, st.booleans(), st.booleans(),
       st.sampled_from(["<=", "<", ">", ">="]), st.sampled_from(["<=", ">"]))
def test_each_literal_at_its_midpoint_holds_where_it_held_on_rounded_numbers(
        digits, t, u, lo_closed, hi_closed, op, nop):
    lo, hi = min(t, u), max(t, u)
    literals = [Compare("x", op, t), NotCompare("x", nop, t),
                Interval("x", lo, hi, lo_closed, hi_closed), Interval("x", None, hi, False, hi_closed),
                Interval("x", lo, None, lo_closed, False)]
    program = Program(tuple(Rule(None, (lit,)) for lit in literals))
    moved = at_midpoints(program, digits, ["x"])
    grid = np.arange(-3.2, 3.2, 10.0**-digits / 4)          # rows all around every threshold
    xs = np.concatenate([grid, grid + 1e-9, grid - 1e-9])
    frame = pd.DataFrame({"x": xs})
    rounded, _ = round_numbers(frame.astype(str), digits, {"x": "numeric"})
    for before, after in zip(program.rules, moved.rules):
        one, two = Program((before,)), Program((after,))
        assert np.array_equal(aspml.evaluate.predict(one, rounded),
                              aspml.evaluate.predict(two, frame)), (before, after)


def test_codes_and_texts_are_not_rounded():
    X = pd.DataFrame({"zip": ["02134", "10001", "02134"], "ward": ["007", "ICU", "1.26"],
                      "dose": ["1.26", "0.3", "7"]})
    out, done = round_numbers(X, 1, {"zip": "categorical"})
    assert done == ["ward", "dose"]                 # ward is mixed: its numbers only
    assert list(out["zip"]) == ["02134", "10001", "02134"]
    assert list(out["ward"]) == ["7", "ICU", "1.3"]
    assert list(out["dose"]) == ["1.3", "0.3", "7"]


LEARNERS = ["fold-se", "fold-rpp", "libre", "mrs"]


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    rng = np.random.default_rng(4)
    n = 400
    x = rng.normal(size=n).round(4)
    z = rng.uniform(0, 1, n).round(4)
    frame = pd.DataFrame({"x": x, "z": z, "c": rng.choice(["a", "b"], n)})
    frame["y"] = np.where((frame.x > 0.13) & (frame.z < 0.55) | (frame.c == "a") & (frame.x > 1),
                          "yes", "no")
    frame["k"] = np.select([frame.x > 0.5, frame.z > 0.6], ["hi", "mid"], "lo")
    folder = tmp_path_factory.mktemp("digits")
    frame.drop(columns="k").to_csv(folder / "b.csv", index=False)
    frame.drop(columns="y").to_csv(folder / "m.csv", index=False)
    return folder


def _figures(text: str, multiclass: bool) -> tuple:
    """(accuracy, F1 or macro-F1) as a command printed them."""
    import re
    f1 = r"macro-F1 ([0-9.]+)" if multiclass else r"F1 ([0-9.]+)"
    return (re.search(r"accuracy ([0-9.]+)", text).group(1), re.search(f1, text).group(1))


@pytest.mark.parametrize("learner", LEARNERS)
@pytest.mark.parametrize("multiclass", [False, True])
def test_the_saved_program_answers_the_file_as_learned(tables, learner, multiclass, swipl):
    data = tables / ("m.csv" if multiclass else "b.csv")
    model = tables / f"{learner}{'_m' if multiclass else ''}.lp"
    args = ["learn", data, "--target", "k" if multiclass else "y", "--learner", learner,
            "--digits", "1", "-o", model, "--quiet"]
    if not multiclass:
        args += ["--positive", "yes"]
    if learner in ("libre", "mrs"):
        args += ["--param", "random_state=0"]
    out = run_aspml(*args)
    assert out.returncode == 0, out.stderr
    # learn compares the saved program on the file's rows with the learner's answers on
    # the rounded rows, and notes any row that differs: none
    assert "get another answer" not in out.stderr, out.stderr
    # the figures learn printed are the saved program's, as check finds them, in clingo too
    check = run_aspml("check", model, data)
    assert check.returncode == 0 and "agree on every row: True" in check.stdout, check.stdout
    assert _figures(out.stdout, multiclass) == _figures(check.stdout, multiclass)
    raw = pd.read_csv(data)
    p = aspml.load(model)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AspmlWarning)
        fast = aspml.evaluate.predict(p, raw)
        for query in ("open", "rows"):          # SWI-Prolog asked both ways
            assert np.array_equal(fast, aspml.prolog.predict(p, raw, query=query)), query
    # the command's predict on the file, from the .lp and from the same program as .pl
    pl = model.with_suffix(".pl")
    p.save(pl)
    answers = [run_aspml("predict", m, data).stdout for m in (model, pl)]
    assert answers[0] == answers[1] and len(answers[0].splitlines()) == len(raw) + 1
    # every threshold sits halfway between tenths: x.x5
    values = [v for lit in p.literals for v in lit.values() if isinstance(v, float)]
    assert values and all(round(v * 100) % 10 == 5 for v in values), values


def test_the_note_when_rules_written_by_hand_read_the_raw_numbers(tables):
    """An expert rule stays as written (about the file's own numbers): where it answers
    otherwise on the rounded numbers, learn says how many rows the saved program answers
    otherwise than the learner did."""
    rules, data = tables / "fixed.txt", tables / "e.csv"
    rules.write_text('IF x > 0.13 THEN y = "yes"\n')
    x = np.random.default_rng(1).uniform(0, 1, 300).round(4)
    pd.DataFrame({"x": x, "y": np.where(x > 0.13, "yes", "no")}).to_csv(data, index=False)
    out = run_aspml("learn", data, "--target", "y", "--positive", "yes",
                    "--digits", "1", "--fixed-rules", rules, "--quiet")
    assert out.returncode == 0, out.stderr
    assert "get another answer from the saved program" in out.stderr, out.stderr
    assert "x > 0.13" in out.stdout


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.integers(-10**30, 10**30)))
def test_decimals_reads_the_shortest_text_as_decimal_does(value):
    """decimals() reads repr's text itself: the digits Decimal(repr(v)) gives."""
    from aspml.logic.values import decimals
    want = 0 if isinstance(value, int) else max(0, -int(Decimal(repr(value)).as_tuple().exponent))
    assert decimals(value) == want
