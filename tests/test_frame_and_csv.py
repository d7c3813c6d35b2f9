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


def cli_answers(tmp_path, program, frame, suffix=".lp"):
    """``aspml predict`` on ``frame.to_csv`` with the ``program`` saved as ``suffix``."""
    model, data = tmp_path / f"model{suffix}", tmp_path / "data.csv"
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
        for query in ("open", "rows"):
            assert np.array_equal(aspml.prolog.predict(p, X, query=query), fast), query
        for suffix in (".lp", ".pl"):
            assert list(cli_answers(tmp_path, p, X, suffix)) == list(labels), suffix
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
    # as a category, a Decimal is its CSV text: "0.10", as a file reads it; "12.0" is 12
    assert aspml.data.table.category_text(Decimal("0.10")) == "0.10"
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


def test_large_floats_as_to_csv_writes_them_stay_numbers(tmp_path):
    """``1e+300`` is how ``to_csv`` writes the float 1e300: a float's own text, no whole
    number float64 loses digits of (a trial's file read it as categories, with a note
    of 300 digits, where its DataFrame held numbers)."""
    X = pd.DataFrame({"v": [1e300, 0.5, 1e23, 2.5e25], "y": ["a", "b", "a", "a"]})
    X.to_csv(tmp_path / "sci.csv", index=False)
    assert (tmp_path / "sci.csv").read_text().splitlines()[1] == "1e+300,a"
    with warnings.catch_warnings():
        warnings.simplefilter("error", AspmlWarning)
        assert aspml.data.table.infer_kind(X["v"]) == "numeric"
        assert aspml.data.table.infer_kind(X["v"].astype(str)) == "numeric"
        r = run_aspml("learn", tmp_path / "sci.csv", "--target", "y", "-o", tmp_path / "m.lp")
    assert r.returncode == 0 and "cannot hold" not in r.stderr
    assert "v <= 0.5" in aspml.parse((tmp_path / "m.lp").read_text(), "asp").to_text()
    # an integer's text past 2**53 still keeps every digit
    with pytest.warns(AspmlWarning, match="float64 cannot hold"):
        assert aspml.data.table.infer_kind(pd.Series(["9007199254740993", "1"])) == "categorical"


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


def test_a_time_reads_the_same_whatever_rows_come_with_it(tmp_path, swipl):
    """pandas writes a column's times one way for all its rows (a midnight with its time
    when another row has one): read value by value, one row alone gets the answer it
    gets among the others, and a CSV written either way reads the same."""
    rng = np.random.default_rng(5)
    stamps = pd.to_datetime(["2021-01-02", "2021-01-03", "2021-02-01 10:30:00",
                             "2021-02-02 10:30:00.500"], format="ISO8601")
    X = pd.DataFrame({"when": stamps[rng.integers(0, 4, 200)],
                      "wait": pd.to_timedelta(rng.choice(["1D", "2D", "2D 03:00:00"], 200))})
    y = np.where((X["when"] == stamps[0]) | (X["wait"] == pd.Timedelta("1D")), "yes", "no")
    p = same_everywhere(tmp_path, aspml.FoldSE(positive="yes"), X, y)
    assert '"2021-01-02"' in p.print("text") and '"1 days"' in p.print("text")
    whole = p.predict(X)
    alone = np.array([p.predict(X.iloc[[i]])[0] for i in range(20)])
    assert np.array_equal(alone, whole[:20])
    cat = aspml.data.table.category_text
    assert cat("2021-01-02 00:00:00") == cat("2021-01-02 00:00:00.000") == "2021-01-02"
    assert cat("2021-02-02 10:30:00.500000") == cat("2021-02-02 10:30:00.500") \
        == "2021-02-02 10:30:00.5"
    assert cat("1 days 00:00:00") == "1 days" and cat(" 2021-01-02") == "2021-01-02"
    assert cat("2021-01-02 00:00:00+01:00") == "2021-01-02 00:00:00+01:00"


def test_a_missing_token_after_spaces_is_missing(tmp_path, swipl):
    """The CSV reader reads `` ?`` as ``?``, a missing value; so does the DataFrame."""
    rng = np.random.default_rng(6)
    c = rng.choice(["a", " ?", "b"], 200)
    X = pd.DataFrame({"c": c, "x": pd.Series(np.where(rng.random(200) < 0.2, " ?",
                                                      rng.integers(0, 9, 200)), dtype=object)})
    y = np.where(c == "a", "yes", "no")
    p = same_everywhere(tmp_path, aspml.FoldSE(positive="yes"), X, y)
    schema = aspml.data.infer_schema(X)
    table = aspml.data.table.encode(X, schema)
    assert table["c"].missing.sum() == (c == " ?").sum() and schema["x"].kind == "numeric"


def test_pyarrow_float32_reads_as_its_csv(tmp_path, swipl):
    """A pyarrow float32 column's to_csv writes every float64 digit (not the shortest
    float32 text): read as those numbers, as its CSV is."""
    pytest.importorskip("pyarrow")
    rng = np.random.default_rng(7)
    x = rng.choice(np.array([0.1, 0.3, 0.7], dtype=np.float32), 200)
    X = pd.DataFrame({"x": pd.array(x, dtype="float32[pyarrow]")})
    same_everywhere(tmp_path, aspml.FoldSE(positive="yes"), X,
                    np.where(x <= np.float32(0.3), "yes", "no"))


def test_shortest_float32_kernel_is_numpys_shortest_text():
    from aspml.data.table import shortest
    rng = np.random.default_rng(8)
    for dtype, span in ((np.float32, 40), (np.float16, 5)):
        with np.errstate(over="ignore"):
            wild = (rng.normal(size=20000) * 10.0 ** rng.integers(-span, span, 20000)).astype(dtype)
        cents = (rng.integers(-10**5, 10**5, 20000) / 100).astype(dtype)
        edge = np.array([0.7, 0.1, -0.0, 0, np.nan, np.inf, -np.inf, np.finfo(dtype).max,
                         np.finfo(dtype).tiny, np.finfo(dtype).smallest_subnormal], dtype=dtype)
        for v in (wild, cents, edge):
            got, want = shortest(v), v.astype(str).astype(np.float64)
            assert np.array_equal(got, want, equal_nan=True), dtype


def test_a_program_comparing_a_text_no_value_reads_as_says_so():
    """A program saved before values were read without leading spaces (or written by
    hand) compares `` State-gov``: it never holds now, and predicting says so."""
    p = aspml.parse('IF workclass = " State-gov" THEN label = "yes"\nELSE label = "no"', "text")
    X = pd.DataFrame({"workclass": [" State-gov", "Private"]})
    with pytest.warns(AspmlWarning, match="workclass with ' State-gov'.*never holds"):
        assert not p.predict(X).any()


def test_a_fitted_model_finds_a_column_named_without_its_spaces():
    rng = np.random.default_rng(9)
    X = pd.DataFrame({" Col A": rng.integers(0, 9, 100)})
    y = np.where(X[" Col A"] > 4, "yes", "no")
    model = aspml.FoldSE(positive="yes").fit(X, y)
    renamed = X.rename(columns={" Col A": "Col A"})
    assert np.array_equal(model.predict(renamed), model.predict(X))
    assert np.allclose(model.predict_proba(renamed), model.predict_proba(X))


def test_whole_number_texts_read_alike():
    """``9007199254740993.0`` in a CSV and ``Decimal("9007199254740993.0")`` in a
    DataFrame: both whole numbers float64 cannot hold, both categorical."""
    with pytest.warns(AspmlWarning):
        assert aspml.data.table.infer_kind(pd.Series(["9007199254740993.0", "5"])) == "categorical"
    with pytest.warns(AspmlWarning):
        assert aspml.data.table.infer_kind(
            pd.Series([Decimal("9007199254740993.0"), Decimal(5)])) == "categorical"


def test_the_command_prints_a_data_warning_as_one_note(tmp_path):
    """A warning of the data, met again in every chunk, is one note."""
    p = Program((Rule(None, (Compare("acct", ">", 5),)),),
                schema=Schema((Feature("acct", "numeric"),)))
    model, data = tmp_path / "m.lp", tmp_path / "d.csv"
    p.save(model)
    pd.DataFrame({"acct": [2**60 + 1, 2**60 + 1, 3]}).to_csv(data, index=False)
    out = run_aspml("predict", model, data, "--chunksize", "1")      # two chunks warn alike
    assert out.returncode == 0
    notes = [line for line in out.stderr.splitlines() if line]
    assert len(notes) == 1 and notes[0].startswith("aspml predict: note: column 'acct'"), out.stderr


def test_times_in_a_mixed_column_and_texts_that_only_look_like_times(tmp_path, swipl):
    """A second review: Timestamps and Timedeltas among numbers and words (a mixed
    column) were written by str, not as their CSV reads them (107 positives in Python,
    0 from the file); and product codes ending like a time were rewritten."""
    rng = np.random.default_rng(10)
    pool = np.array([pd.Timestamp("2021-01-02"), pd.Timedelta("1D"), 3, "w"], dtype=object)
    X = pd.DataFrame({"m": pool[rng.integers(0, 4, 200)]})
    y = np.where([isinstance(v, (pd.Timestamp, pd.Timedelta)) for v in X["m"]], "yes", "no")
    with warnings.catch_warnings():
        warnings.simplefilter("error", AspmlWarning)        # its own program: no stale text
        aspml.FoldSE(positive="yes", kinds={"m": "mixed"}).fit(X, y).predict(X)
    same_everywhere(tmp_path, aspml.FoldSE(positive="yes", kinds={"m": "mixed"}), X, y)
    cat = aspml.data.table.category_text
    for text in ("SKU-12:34:56.100", "Ship 2021-01-02 00:00:00", "x1 days 00:00:00",
                 "12:00:00.0", "3 days 00:00:00 left"):
        assert cat(text) == text


def test_pyarrow_float32_as_categories_reads_as_its_csv():
    pytest.importorskip("pyarrow")
    x = np.array([0.1, 0.7], dtype=np.float32)
    X = pd.DataFrame({"x": pd.array(x, dtype="float32[pyarrow]")})
    schema = Schema((Feature("x", "categorical"),))
    here = aspml.data.table.encode(X, schema)["x"].categories
    written = pd.read_csv(pd.io.common.StringIO(X.to_csv(index=False)), dtype=str)
    there = aspml.data.table.encode(written, schema)["x"].categories
    assert here == there == ("0.10000000149011612", "0.699999988079071")


def test_a_missing_token_given_with_its_spaces():
    """``missing=" ?"`` (adult read by pd.read_csv keeps the space): the token is the text
    the values are compared as, without its leading spaces (a review: nothing was
    missing any more)."""
    X = pd.DataFrame({"workclass": [" State-gov", " ?", " Private", " ?"]})
    schema = aspml.data.infer_schema(X, missing=(" ?",))
    table = aspml.data.table.encode(X, schema, missing=(" ?",))
    assert table["workclass"].missing.tolist() == [False, True, False, True]
    assert table["workclass"].categories == ("Private", "State-gov")


def test_a_third_reviews_cases(tmp_path, swipl):
    """Negative whole days (str: '-1 days +00:00:00', to_csv: '-1 days'); a sparse
    column (crashed: no itemsize); a float flag written '1.0'; labels mixing texts and
    numbers whatever comes first; explain finding ' Col A' as 'Col A'."""
    rng = np.random.default_rng(11)
    lag = pd.to_timedelta(rng.choice(["-1D", "-2D"], 200))
    X = pd.DataFrame({"lag": lag})
    same_everywhere(tmp_path, aspml.FoldSE(positive="yes"), X,
                    np.where(X["lag"] == pd.Timedelta("-1D"), "yes", "no"))
    sparse = pd.DataFrame({"s": pd.arrays.SparseArray([0, 1.5, 0, 2] * 10)})
    model = aspml.FoldSE(positive="yes").fit(sparse, np.where(np.arange(40) % 2, "yes", "no"))
    assert model.predict(sparse).tolist() == ["no", "yes"] * 20
    flags = pd.DataFrame({"b": [1.0, 0.0, np.nan] * 20})
    schema = Schema((Feature("b", "boolean"),))
    written = pd.read_csv(pd.io.common.StringIO(flags.to_csv(index=False)), dtype=str)
    assert np.array_equal(aspml.data.table.encode(flags, schema)["b"].num,
                          aspml.data.table.encode(written, schema)["b"].num, equal_nan=True)
    X6 = pd.DataFrame({"a": range(6)})
    for y in (np.array(["no", 1, "a", 1, "no", "a"], dtype=object),
              np.array([1, "no", "a", 1, "no", "a"], dtype=object)):
        with pytest.raises(ValueError, match="mixes texts and other values"):
            aspml.FoldSE().fit(X6, y)
    p = aspml.parse('IF " Col A" > 1 THEN label = "yes"\nELSE label = "no"', "text")
    row = pd.DataFrame({"Col A": [7]})
    e = aspml.explain(p, row)
    assert e.prediction is True and e.row == {" Col A": 7} and p.predict(row).tolist() == [True]


def test_labels_with_leading_spaces_match_their_csv_text(tmp_path, swipl):
    """A model fitted in Python on ``" yes"`` keeps that label (scikit-learn's
    ``classes_``); its CSV file reads ``yes``.  ``check``, ``report`` and ``explain
    --why-not`` (and ``aspml.report``'s figures) take one for the other, binary and
    multi-class, ``.lp`` and ``.pl`` (they scored F1 0 and an empty confusion matrix)."""
    from aspml.report import confusion
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=300).round(3)})
    y = np.where(X.a > 0.3, " yes", " no")
    y3 = np.select([X.a > 0.5, X.a < -0.5], [" hi", " lo"], " mid")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AspmlWarning)
        binary = aspml.FoldSE(positive=" yes").fit(X, y).program_
        three = aspml.FoldSE().fit(X, y3)
    assert list(three.classes_) == [" hi", " lo", " mid"]       # y's values, as given
    data, data3 = tmp_path / "t.csv", tmp_path / "t3.csv"
    X.assign(label=y).to_csv(data, index=False)
    X.assign(label=y3).to_csv(data3, index=False)
    for suffix in (".lp", ".pl"):
        model = tmp_path / f"m{suffix}"
        binary.save(model)
        out = run_aspml("check", model, data)
        assert out.returncode == 0 and "F1 1.000" in out.stdout, out.stdout + out.stderr
        assert "never holds" not in out.stderr
        model3 = tmp_path / f"m3{suffix}"
        three.program_.save(model3)
        out = run_aspml("check", model3, data3)
        assert out.returncode == 0 and "accuracy 1.000, macro-F1 1.000" in out.stdout, out.stdout
        out = run_aspml("report", model3, data3, "-o", tmp_path / f"r{suffix}.html")
        assert out.returncode == 0, out.stderr
        page = (tmp_path / f"r{suffix}.html").read_text()
        assert "hi" in page and "accuracy" in page.lower()
    read = pd.read_csv(data3, skipinitialspace=True)["label"]       # "hi", "lo", "mid"
    assert set(read) == {"hi", "lo", "mid"}
    figures = confusion(three.program_, X, read)
    assert figures["accuracy"] == 1.0 and figures["classes"] == [" hi", " lo", " mid"]
    known, truth = aspml.report.truth_of(pd.read_csv(data, skipinitialspace=True)["label"],
                                         " yes")
    assert known.all() and np.array_equal(truth, y == " yes")
    row = int(np.flatnonzero(X.a.between(-0.4, 0.4))[0])      # class " mid"
    for asked in ("lo", " lo"):
        out = run_aspml("explain", tmp_path / "m3.lp", data3, "--row", row, "--why-not", asked)
        assert out.returncode == 0, out.stderr
        assert 'label = " lo" does not hold' in out.stdout, out.stdout
    e = aspml.explain(three.program_, X.iloc[[row]], why_not="lo")
    assert e.why_not == " lo"


def test_a_quoted_number_on_a_column_of_numbers_says_it_never_holds(tmp_path):
    """A hand-written ``m = "5"`` beside ``m > 6`` (a column of numbers): the data's 5 is
    the number 5, never the text, in every engine; Python and the command say so once."""
    text = 'IF m = "5" THEN label = "yes"\nELSE IF m > 6 THEN label = "yes"\nELSE label = "no"\n'
    p = aspml.parse(text, "text")
    X = pd.DataFrame({"m": [5, 3, 7]})
    with pytest.warns(AspmlWarning, match=r"m with the text '5'.*write the number without "
                                          r"quotes \(m = 5\)"):
        fast = p.predict(X)
    assert list(fast) == ["no", "no", "yes"]
    with pytest.warns(AspmlWarning, match="m with the text '5'"):      # clingo's facts too
        assert list(aspml.asp.predict(p, X)) == list(fast)
    model, data = tmp_path / "m.txt", tmp_path / "d.csv"
    model.write_text(text)
    X.to_csv(data, index=False)
    out = run_aspml("predict", model, data)
    assert out.returncode == 0 and out.stdout.splitlines()[1:] == ["0,no", "1,no", "2,yes"]
    notes = [line for line in out.stderr.splitlines() if line]
    assert len(notes) == 1 and "m with the text '5'" in notes[0], out.stderr
    with warnings.catch_warnings():                     # no note for a number, or a text
        warnings.simplefilter("error", AspmlWarning)    # on a column of texts
        aspml.parse('IF m = 5 THEN label = "yes"\nELSE label = "no"\n', "text").predict(X)
        aspml.parse('IF m = "5" THEN label = "yes"\nELSE label = "no"\n', "text").predict(
            pd.DataFrame({"m": ["5", "x"]}))


def test_a_word_for_missing_beside_numbers_is_noted(tmp_path):
    """R writes NA for a missing lab value: read as a value of its own (a mixed column), it
    went into the rules without a word."""
    rng = np.random.default_rng(0)
    temp = rng.normal(37.5, 1, 200).round(1).astype(object)
    temp[rng.random(200) < 0.1] = "NA"
    X = pd.DataFrame({"temp": temp})
    y = np.where(pd.to_numeric(X.temp, errors="coerce") > 38, "yes", "no")
    with pytest.warns(AspmlWarning, match=r"column 'temp' holds numbers and 'NA', a word other "
                      r"tools write for a missing value"):
        assert aspml.data.infer_schema(X)["temp"].kind == "mixed"
    with warnings.catch_warnings():
        warnings.simplefilter("error", AspmlWarning)
        assert aspml.data.infer_schema(X, missing=("NA",))["temp"].kind == "numeric"
        # a word that is a value (a lab that writes "high") says nothing
        aspml.data.infer_schema(X.assign(temp=np.where(X.temp == "NA", "high", X.temp)))
    data = tmp_path / "t.csv"
    X.assign(label=y).to_csv(data, index=False)
    out = run_aspml("learn", data, "--target", "label")
    assert out.returncode == 0 and "aspml --missing '?' --missing NA)" in out.stderr
    out = run_aspml("learn", data, "--target", "label", "--missing", "NA")
    assert out.returncode == 0 and "note" not in out.stderr


def test_a_word_for_missing_beside_numbers_and_other_words_is_named():
    """Four words for missing and a fifth that is a value ("high"): the column is read
    as a mixed one of values, and the note names the four words, all of them (it looked
    at the first four texts only, once; then it said nothing beside another text, and a
    trial's amounts holding '$220,398.34' and 'N/A' got no word at all)."""
    X = pd.DataFrame({"lab": ["NA", "n/a", "null", "None", "high", "1.5", "2"] * 10})
    with pytest.warns(AspmlWarning) as caught:
        assert aspml.data.infer_schema(X)["lab"].kind == "mixed"
    assert [str(w.message).split(", a word")[0] for w in caught] == [
        "column 'lab' holds numbers and 'NA', 'None', 'n/a', 'null'"]


@pytest.mark.parametrize("learner", ["fold-se", "libre"])
def test_true_false_texts_are_a_flag_in_python_as_from_the_command_line(tmp_path, learner):
    """A deployment trial read one CSV file with aspml.read_csv and learned in Python
    `smoker != "false"` (a category), where aspml learn learned `smoker` (a flag): on a
    row whose smoker is missing the one holds and the other does not, and the two
    programs answered otherwise.  Texts true / false (any case) are a flag in Python
    too: the same program from both doors, the same answers."""
    rng = np.random.default_rng(4)
    n = 600
    age = rng.integers(18, 90, n)
    smoker = rng.choice(["true", "false", "TRUE", "False"], n)
    y = np.where((age > 60) & (np.char.lower(smoker.astype(str)) == "true"), "sick", "well")
    pd.DataFrame({"age": age, "smoker": smoker, "y": y}).to_csv(tmp_path / "t.csv", index=False)
    frame = aspml.read_csv(tmp_path / "t.csv")
    make = {"fold-se": lambda: aspml.FoldSE(positive="sick"),
            "libre": lambda: aspml.Libre(positive="sick", random_state=0)}[learner]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AspmlWarning)
        py = make().fit(frame[["age", "smoker"]], frame["y"])
    assert {f.name: f.kind for f in py.program_.schema.features}["smoker"] == "boolean"
    seed = ["--random-state", "0"] if learner == "libre" else []
    done = run_aspml("learn", tmp_path / "t.csv", "--target", "y", "--positive", "sick",
                     "--learner", learner, *seed, "-o", tmp_path / "m.lp")
    assert done.returncode == 0, done.stderr
    assert aspml.load(tmp_path / "m.lp").rules == py.program_.rules
    rows = pd.DataFrame({"age": [70, 70, 70], "smoker": ["true", None, "FALSE"]})
    assert py.predict(rows).tolist() == ["sick", "well", "well"]
    assert aspml.load(tmp_path / "m.lp").predict(rows).tolist() == [True, False, False]
