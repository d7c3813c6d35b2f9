"""A DataFrame and the CSV file its ``to_csv`` writes are one table.

A deployment engineer's trial found rows answered one way in Python and another by
``aspml predict`` on the same data written out: float32 thresholds printed with their
binary error, dates as ``2021-01-02 00:00:00`` where the file says ``2021-01-02``,
Decimal prices as the text ``"0.10"``, a leading space kept in Python and dropped by
the CSV reader, empty texts as a category the file reads as missing.  And whole
numbers beyond 2**53 (ids, account numbers) merged as float64, while a constant
beyond 2**53 written in a program was rounded by the fast path only.  Each case goes
through every door: the learner on the DataFrame, ``aspml predict`` on the file,
clingo and SWI-Prolog.
"""

import warnings
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest

import aspml
import aspml.asp
import aspml.prolog
from aspml import Compare, Feature, InSet, Interval, NotCompare, Program, Rule, Schema

from aspml.errors import AspmlWarning

from conftest import run_aspml


def cli_answers(tmp_path, program, frame):
    """``aspml predict`` on ``frame.to_csv`` with the saved ``program``."""
    model, data = tmp_path / "model.lp", tmp_path / "data.csv"
    program.save(model)
    frame.to_csv(data, index=False)
    out = run_aspml("predict", model, data)
    assert out.returncode == 0, out.stderr
    return pd.read_csv(pd.io.common.StringIO(out.stdout), dtype=str)["label"].to_numpy()


def same_everywhere(tmp_path, learner, X, y):
    """Fit on the DataFrame; the answers of the fast path, clingo, SWI-Prolog and the
    command on the CSV file agree row for row.  Returns the program."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AspmlWarning)
        model = learner.fit(X, y)
        p = model.program_
        fast = p.predict(X)
        labels = model.predict(X)
        assert np.array_equal(labels == "yes", fast)
        assert np.array_equal(aspml.asp.predict(p, X), fast)
        assert np.array_equal(aspml.prolog.predict(p, X), fast)
        assert list(cli_answers(tmp_path, p, X)) == list(labels)
    return p


def test_float32_columns_read_as_the_text_to_csv_writes(tmp_path, swipl):
    rng = np.random.default_rng(0)
    x = rng.choice(np.array([0.1, 0.3, 0.7, 1.3, 1.7], dtype=np.float32), 300)
    y = np.where(x <= np.float32(0.7), "yes", "no")
    X = pd.DataFrame({"x": x, "z": pd.array(np.where(np.arange(300) % 7, x, np.nan),
                                           dtype="Float32")})
    table = aspml.data.table.encode(X, Schema((Feature("x", "numeric"), Feature("z", "numeric"))))
    assert sorted(set(table["x"].num.tolist())) == [0.1, 0.3, 0.7, 1.3, 1.7]
    assert int(table["z"].is_num.sum()) == int(X["z"].notna().sum())
    for learner in (aspml.FoldSE(positive="yes"), aspml.FoldRpp(positive="yes"),
                    aspml.Libre(positive="yes", random_state=0)):
        p = same_everywhere(tmp_path, learner, X, y)
        assert "0.699999988" not in p.print("text")


def test_dates_and_durations_read_as_the_text_to_csv_writes(tmp_path, swipl):
    rng = np.random.default_rng(1)
    days = pd.to_datetime(["2021-01-02", "2021-01-03", "2021-02-01", None])
    day = days[rng.integers(0, 4, 200)]
    X = pd.DataFrame({"day": day, "wait": pd.to_timedelta(rng.integers(1, 4, 200), unit="D")})
    y = np.where((X["day"] == pd.Timestamp("2021-01-02")) | (X["wait"] == pd.Timedelta("2D")),
                 "yes", "no")
    p = same_everywhere(tmp_path, aspml.FoldSE(positive="yes"), X, y)
    text = p.print("text")
    assert '"2021-01-02"' in text and "00:00:00\"" not in text.replace('days 00:00:00"', "")
    table = aspml.data.table.encode(X, p.schema, ["day"])
    assert table["day"].missing.sum() == X["day"].isna().sum()       # NaT is missing


def test_decimal_values_are_numbers(tmp_path, swipl):
    rng = np.random.default_rng(2)
    price = rng.choice([Decimal("0.10"), Decimal("0.20"), Decimal("0.30"), Decimal("0.00")], 200)
    X = pd.DataFrame({"price": price})
    y = np.where(X["price"] > Decimal("0.10"), "yes", "no")
    p = same_everywhere(tmp_path, aspml.FoldSE(positive="yes"), X, y)
    assert p.schema["price"].kind == "numeric"
    assert aspml.data.table.category_text(Decimal("0.10")) == "0.1"
    assert aspml.data.table.category_text(Decimal("12.0")) == "12"


def test_leading_spaces_and_empty_texts_read_as_the_csv_file_does(tmp_path, swipl):
    rng = np.random.default_rng(3)
    name = rng.choice([" lead", "lead ", "two", "", "   ", "x"], 300)
    X = pd.DataFrame({"name": name, " Col A": rng.choice(["u", " v"], 300)})
    y = np.where(np.isin(name, [" lead", "", "   "]) | (X[" Col A"] == " v"), "yes", "no")
    p = same_everywhere(tmp_path, aspml.FoldSE(positive="yes"), X, y)
    table = aspml.data.table.encode(X, p.schema, ["name"])
    assert table["name"].categories == ("lead", "lead ", "two", "x")
    assert table["name"].missing.sum() == np.isin(name, ["", "   "]).sum()
    # the program names " Col A"; the command reads the header as "Col A" and finds it
    assert " Col A" in p.schema.names and "Col A" not in p.schema.names


def test_whole_numbers_beyond_float64_keep_every_digit(tmp_path, swipl):
    ids = np.array([2**60 + k for k in range(4)], dtype=np.int64)
    rng = np.random.default_rng(4)
    X = pd.DataFrame({"user_id": ids[rng.integers(0, 4, 120)]})
    y = np.where(np.isin(X["user_id"], ids[[1, 3]]), "yes", "no")
    with pytest.warns(AspmlWarning, match="user_id.*float64 cannot hold.*categorical"):
        kind = aspml.data.table.infer_kind(X["user_id"])
    assert kind == "categorical"
    p = same_everywhere(tmp_path, aspml.FoldSE(positive="yes"), X, y)
    assert (p.predict(X) == (y == "yes")).all()      # as numbers the four ids were one
    # as text (a CSV file's digits): the same
    assert aspml.data.table.infer_kind(X["user_id"].astype(str)) == "categorical"
    # declared numeric: compared as float64, and said so
    with pytest.warns(AspmlWarning, match="compare as float64"):
        aspml.FoldSE(positive="yes", kinds={"user_id": "numeric"}).fit(X, y)
    # 10**17 is a float64 exactly: still a number
    assert aspml.data.table.infer_kind(pd.Series([10**17, 5])) == "numeric"


def test_constants_beyond_float64_compare_exactly_in_every_engine(tmp_path, swipl):
    """A constant written in a program that float64 cannot hold lies between two floats;
    the fast path compared the rounded constant and disagreed with clingo and SWI-Prolog
    (acct = 2**53 + 1 held on the row 2**53)."""
    c = 2**53 + 1
    X = pd.DataFrame({"acct": [2.0**53, 2.0**53 + 2, 5.0, -1.0, None]})
    F, T = False, True
    cases = [(Compare("acct", "==", c), [F, F, F, F, F]),
             (Compare("acct", "!=", c), [T, T, T, T, T]),
             (InSet("acct", frozenset([c, 5])), [F, F, T, F, F]),
             (Interval("acct", c, None, True, False), [F, T, F, F, F]),
             (Interval("acct", None, c, False, True), [T, F, T, T, F]),
             (Compare("acct", "<", c), [T, F, T, T, F]),
             (Compare("acct", ">", c), [F, T, F, F, F]),
             (NotCompare("acct", "<=", c), [F, T, F, F, T]),
             (Compare("acct", ">", -(2**53) - 1), [T, T, T, T, F]),
             (Compare("acct", "<", 3**600), [T, T, T, T, F])]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AspmlWarning)
        for lit, want in cases:
            p = Program((Rule(None, (lit,)),), schema=Schema((Feature("acct", "numeric"),)))
            got = p.predict(X)
            assert list(got) == want, lit
            assert np.array_equal(aspml.asp.predict(p, X), got), lit
            assert np.array_equal(aspml.prolog.predict(p, X), got), lit
            for suffix in (".lp", ".pl"):
                q = aspml.load(p.save(tmp_path / f"p{suffix}") or tmp_path / f"p{suffix}")
                assert q == p and np.array_equal(q.predict(X), got)


def test_labels_that_mix_texts_and_numbers_are_one_clear_error():
    X = pd.DataFrame({"a": range(6)})
    y = np.array([1, "1", "a", 1, "1", "a"], dtype=object)
    with pytest.raises(ValueError, match="mixes texts and other values"):
        aspml.FoldSE().fit(X, y)
