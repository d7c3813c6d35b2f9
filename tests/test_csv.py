"""Tables through every door: a DataFrame, the CSV that DataFrame.to_csv writes, the
``aspml`` command, packed files, a Dask DataFrame; the same rows give the same answers."""

import bz2
import gzip
import io
import lzma
import re
import time
import warnings
import zipfile

import numpy as np
import pandas as pd
import pytest

import aspml
from aspml import Compare, Feature, Program, Rule, Schema, Target
from aspml.data import encode
from aspml.errors import AspmlWarning
from aspml.data.table import infer_kind

from conftest import ROOT, one_line_error, run_aspml

BIRDS = ROOT / "examples" / "birds"


def predictions(out) -> list:
    assert out.returncode == 0, out.stderr
    return pd.read_csv(io.StringIO(out.stdout), dtype=str)["label"].tolist()


def program_text(out) -> str:
    """The program aspml learn prints (its first line, the summary, aside)."""
    assert out.returncode == 0, out.stderr
    return "".join(out.stdout.splitlines(keepends=True)[1:]).split("saved to")[0]


@pytest.fixture
def loans():
    """40 rows: a float code read as a category, a number; label yes when code is 2 or x > 80."""
    rng = np.random.default_rng(0)
    code = rng.integers(1, 5, 40).astype(float)
    x = rng.integers(0, 100, 40)
    label = np.where((code == 2) | (x > 80), "yes", "no")
    return pd.DataFrame({"code": code, "x": x, "label": label})


# -- item 2: a separator at the end of every row ------------------------------------------

def test_a_separator_ending_each_row_is_refused_instead_of_shifting_the_columns(tmp_path, loans):
    clean, trailing = tmp_path / "clean.csv", tmp_path / "trailing.csv"
    loans.to_csv(clean, index=False)
    text = clean.read_text().splitlines()
    trailing.write_text("\n".join([text[0]] + [row + "," for row in text[1:]]) + "\n")
    model = tmp_path / "m.lp"
    assert run_aspml("learn", clean, "--target", "label", "--kind", "code=categorical",
                     "-o", model).returncode == 0
    for args in (("learn", trailing, "--target", "label"), ("predict", model, trailing),
                 ("check", model, trailing)):
        one_line_error(run_aspml(*args), "row 0 has 4 fields but the header names 3 columns "
                                         "('code', 'x', 'label'); a comma at the end of each line?")
    # the header ending in a comma too: an unnamed empty column, dropped
    both = tmp_path / "both.csv"
    both.write_text(text[0] + ",\n" + trailing.read_text().split("\n", 1)[1])
    assert predictions(run_aspml("predict", model, both)) == \
        predictions(run_aspml("predict", model, clean))
    # one row longer than the others, further down
    middle = tmp_path / "middle.csv"
    middle.write_text("\n".join(text[:3] + [text[3] + ",1"] + text[4:]) + "\n")
    one_line_error(run_aspml("predict", model, middle),
                   "line 4 has 4 fields but the header names 3 columns")


def test_a_row_with_fewer_fields_than_the_header_is_refused(tmp_path, loans):
    """pandas fills a short row with missing values: a row cut short (or a value with an
    unquoted line break) would be learned from and answered as a row of missing values."""
    clean = tmp_path / "clean.csv"
    loans.to_csv(clean, index=False)
    text = clean.read_text().splitlines()
    model = tmp_path / "m.lp"
    assert run_aspml("learn", clean, "--target", "label", "--kind", "code=categorical",
                     "-o", model).returncode == 0
    short = tmp_path / "short.csv"
    cut = text[5].rsplit(",", 1)[0]                    # its label's field left out
    short.write_text("\n".join(text[:5] + [cut] + text[6:]) + "\n")
    words = ("line 6 has 2 fields but the header names 3 columns ('code', 'x', 'label'); "
             "write a missing value as an empty field, its comma kept")
    for args in (("learn", short, "--target", "label"), ("predict", model, short),
                 ("predict", model, short, "--chunksize", "7"), ("check", model, short)):
        one_line_error(run_aspml(*args), *words)
    with pytest.raises(aspml.AspmlError, match="line 6 has 2 fields"):
        aspml.read_csv(short)
    # the empty field written: a missing value, read as before
    empty = tmp_path / "empty.csv"
    empty.write_text("\n".join(text[:5] + [cut + ","] + text[6:]) + "\n")
    assert aspml.read_csv(empty)["label"].isna().sum() == 1
    assert run_aspml("predict", model, empty).returncode == 0
    # blank lines, a quoted line break and a last column of empty fields stay readable
    fine = tmp_path / "fine.csv"
    fine.write_text('code,x,label\n1,2,"y\nes"\n   \n\n3,4,\n')
    assert aspml.read_csv(fine)["label"].tolist()[0] == "y\nes"
    assert len(aspml.read_csv(fine)) == 2


def test_a_blank_line_between_rows_of_a_one_column_file_is_refused(tmp_path):
    """pandas skips it: the missing value it may stand for was lost and every later row
    answered under the number of the row before it."""
    model = tmp_path / "m.lp"
    Program((Rule(None, (Compare("x", ">", 5),)),), Target("label", positive="y"),
            Schema((Feature("x", "numeric"),))).save(model)
    blank = tmp_path / "blank.csv"
    blank.write_text("x\n1\n\n7\n")
    words = ("line 3 is blank: in a file of one column a blank line between rows may be a "
             'missing value or no row at all, and is read as no row; write a missing value as ""')
    for args in (("predict", model, blank), ("predict", model, blank, "--chunksize", "1"),
                 ("check", model, blank)):
        one_line_error(run_aspml(*args), words)
    with pytest.raises(aspml.AspmlError, match="line 3 is blank"):
        aspml.read_csv(blank)
    # what to_csv writes for a missing value, and blank lines at the end, read as before
    written = tmp_path / "written.csv"
    pd.DataFrame({"x": [1, None, 7]}).to_csv(written, index=False)
    written.write_text(written.read_text() + "\n\n")
    assert predictions(run_aspml("predict", model, written)) == ["not y", "not y", "y"]


# -- item 19: other separators, spaces in the header ----------------------------------------

@pytest.mark.parametrize("sep", [";", "\t", "|", ", "])
def test_the_separator_is_read_from_the_header(tmp_path, loans, sep):
    comma, other = tmp_path / "comma.csv", tmp_path / "other.csv"
    loans.to_csv(comma, index=False)
    other.write_text(comma.read_text().replace(",", sep))
    learned = [run_aspml("learn", f, "--target", "label", "--kind", "code=categorical",
                         "-o", tmp_path / f"{f.stem}.lp") for f in (comma, other)]
    assert program_text(learned[0]) == program_text(learned[1])
    model = tmp_path / "comma.lp"
    for engine in ("fast", "clingo"):
        assert predictions(run_aspml("predict", model, other, "--engine", engine)) == \
            predictions(run_aspml("predict", model, comma))
    out = run_aspml("check", model, other)
    assert out.returncode == 0 and "40 labelled rows (label): accuracy 1.000" in out.stdout
    assert predictions(run_aspml("predict", model, other, "--sep", sep.strip() or "tab")) == \
        predictions(run_aspml("predict", model, comma))


def test_header_spaces_are_stripped_and_names_quoted_in_messages(tmp_path, loans):
    spaced = tmp_path / "spaced.csv"
    loans.to_csv(spaced, index=False)
    text = spaced.read_text().split("\n", 1)
    spaced.write_text(" code ,  x,label \n" + text[1])
    out = run_aspml("learn", spaced, "--target", "label", "--kind", "code=categorical")
    assert out.returncode == 0 and 'IF code = "2" THEN label = "yes"' in out.stdout
    one_line_error(run_aspml("learn", spaced, "--target", "label", "--sep", ";"),
                   "has no column 'label' (its columns: 'code ,  x,label')")
    one_line_error(run_aspml("learn", spaced, "--target", "Label"),
                   "has no column 'Label' (its columns: 'code', 'x', 'label')")
    one_line_error(run_aspml("learn", spaced, "--target", "label", "--sep", "ab"),
                   "--sep 'ab': give one character")


# -- item 3: one text for a number read as a category, from every door ----------------------

def test_numbers_read_as_categories_are_the_same_from_every_door(tmp_path, loans, swipl):
    X, y = loans[["code", "x"]], loans["label"].to_numpy()
    api = aspml.FoldSE(kinds={"code": "categorical"}).fit(X, y)
    text = api.program_.to_text()
    assert 'IF code = "2" THEN label = "yes"' in text
    expected = api.predict(X)
    for code in (loans.code.astype(int), loans.code.astype(int).astype(str),
                 loans.code.astype(str), loans.code.astype(np.float32)):
        door = X.assign(code=code)
        assert aspml.FoldSE(kinds={"code": "categorical"}).fit(door, y).program_.to_text() == text
        assert list(api.predict(door)) == list(expected)
    # the CSV DataFrame.to_csv writes ("2.0"), through the command
    data, model = tmp_path / "loans.csv", tmp_path / "loans.lp"
    loans.to_csv(data, index=False)
    assert "2.0," in data.read_text()
    out = run_aspml("learn", data, "--target", "label", "--kind", "code=categorical", "-o", model)
    assert program_text(out) == text
    for engine in ("fast", "clingo", "prolog"):
        assert predictions(run_aspml("predict", model, data, "--engine", engine)) == list(expected)
    ints = tmp_path / "ints.csv"
    loans.assign(code=loans.code.astype(int)).to_csv(ints, index=False)
    assert predictions(run_aspml("predict", model, ints)) == list(expected)
    out = run_aspml("check", model, data)
    assert "agree on every row: True" in out.stdout and "accuracy 1.000" in out.stdout


def test_category_text_keeps_codes_and_big_integers():
    col = encode(pd.DataFrame({"c": ["007", 7, "7.0", "1e3", 12345678901234567891, " 2.50",
                                     2.5, "1e+20", 1e20]}),
                 Schema((Feature("c", "categorical"),)))["c"]
    assert col.categories == ("007", "100000000000000000000", "12345678901234567891",
                              "1e3", "2.5", "2.50", "7")
    assert list(col.code) == [0, 6, 6, 3, 2, 5, 4, 1, 1]


def test_codes_that_read_as_numbers_stay_apart_from_every_door(tmp_path, swipl):
    """Declared categorical, "1.1" and "1.10" (versions, diagnosis codes), "1E3" and
    "1000" are four values: they were merged ("1.10" read as the number 1.1), and a
    table they separate learned no rule.  A float column's text (as to_csv writes it)
    is still its number."""
    version = np.array(["1.1", "1.10", "1.2", "1E3", "1000"] * 40)
    y = np.where(np.isin(version, ["1.10", "1E3"]), "good", "bad")
    X = pd.DataFrame({"version": version})
    clf = aspml.FoldSE(positive="good", kinds={"version": "categorical"}).fit(X, y)
    assert (clf.predict(X) == y).all()
    p = clf.program_
    data, model = tmp_path / "v.csv", tmp_path / "m.lp"
    X.assign(label=y).to_csv(data, index=False)
    p.save(model)
    for engine in ("fast", "clingo", "prolog"):
        assert predictions(run_aspml("predict", model, data, "--engine", engine)) == \
            list(y), engine
    learned = run_aspml("learn", data, "--target", "label", "--positive", "good", "--kind",
                        "version=categorical")
    assert "accuracy 1.000" in learned.stdout, learned.stdout
    # floats written by to_csv read back as the same categories
    floats = pd.DataFrame({"c": [7.0, 1.1, 1e20, 2.5]})
    floats.to_csv(tmp_path / "f.csv", index=False)
    schema = Schema((Feature("c", "categorical"),))
    assert encode(floats, schema)["c"].categories == \
        encode(aspml.read_csv(tmp_path / "f.csv"), schema)["c"].categories


# -- item 4: True and 1 are two values -----------------------------------------------------

def test_booleans_and_numbers_stay_apart():
    col = encode(pd.DataFrame({"m": [True, 1, 2, 1.0]}), Schema((Feature("m", "mixed"),)))["m"]
    assert col.categories == ("True",) and list(col.code) == [0, -1, -1, -1]
    assert list(col.num[1:]) == [1.0, 2.0, 1.0]
    assert infer_kind(pd.Series([1, True, 2])) == "mixed"
    assert infer_kind(pd.Series([True, False, None])) == "boolean"


def test_a_learned_rule_on_true_does_not_fire_on_one(tmp_path, swipl):
    m = [True, 1, 2, 1.0, False, 0, "a"] * 4
    X = pd.DataFrame({"m": pd.Series(m, dtype=object)})
    y = np.array(["yes" if v is True else "no" for v in m])
    clf = aspml.FoldSE(ratio=0).fit(X, y)
    assert list(clf.predict(X)) == list(y)
    for predict in (aspml.asp.predict, aspml.prolog.predict):
        assert list(predict(clf.program_, X)) == list(y == "yes")
    data, model = tmp_path / "m.csv", tmp_path / "m.lp"
    X.assign(label=y).to_csv(data, index=False)
    out = run_aspml("learn", data, "--target", "label", "--ratio", "0", "-o", model)
    assert program_text(out) == clf.program_.to_text()
    assert predictions(run_aspml("predict", model, data, "--engine", "clingo")) == list(y)


# -- item 11: packed files -----------------------------------------------------------------

def test_packed_files_are_read_by_their_first_bytes(tmp_path, loans):
    plain, model = tmp_path / "plain.csv", tmp_path / "m.lp"
    loans.to_csv(plain, index=False)
    run_aspml("learn", plain, "--target", "label", "--kind", "code=categorical", "-o", model)
    expected = predictions(run_aspml("predict", model, plain))
    raw = plain.read_bytes()
    packed = {"t.csv.gz": gzip.compress(raw), "t.csv.bz2": bz2.compress(raw),
              "t.csv.xz": lzma.compress(raw), "packed.csv": gzip.compress(raw)}
    for name, data in packed.items():
        (tmp_path / name).write_bytes(data)
    with zipfile.ZipFile(tmp_path / "t.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.write(plain, "t.csv")
    for name in [*packed, "t.zip"]:
        assert predictions(run_aspml("predict", model, tmp_path / name)) == expected, name
    with zipfile.ZipFile(tmp_path / "two.zip", "w") as z:
        z.write(plain, "a.csv")
        z.write(plain, "b.csv")
    one_line_error(run_aspml("predict", model, tmp_path / "two.zip"), "a zip archive of 2 files")
    (tmp_path / "cut.csv.gz").write_bytes(gzip.compress(raw)[:-20])
    one_line_error(run_aspml("predict", model, tmp_path / "cut.csv.gz"), "cannot read")


def test_a_decompression_bomb_is_refused_while_streaming(tmp_path):
    bomb = tmp_path / "bomb.csv.gz"
    row = b"1,2\n" * 2**18                                   # 1 MiB
    with gzip.open(bomb, "wb") as fh:
        fh.write(b"a,b\n")
        for _ in range(80):                                    # 80 MiB from about 80 KiB
            fh.write(row)
    assert bomb.stat().st_size < 2**20
    start = time.perf_counter()
    for args in (("learn", bomb, "--target", "b"), ("predict", BIRDS / "birds.lp", bomb)):
        one_line_error(run_aspml(*args), "unpacks to more than 64 MiB, the most aspml unpacks "
                                         "from a file of")
    assert time.perf_counter() - start < 30


# -- item 18: identifiers used as features -------------------------------------------------

def patients(n=60):
    rng = np.random.default_rng(1)
    ids = 43140906 + np.cumsum(rng.integers(1, 50, n))
    age = rng.integers(20, 90, n)
    return pd.DataFrame({"patient_nbr": ids, "age": age}), np.where(ids < ids[n // 2], "yes", "no")


def test_an_identifier_the_rules_use_is_noted(tmp_path):
    X, y = patients()
    with pytest.warns(AspmlWarning, match=r"column 'patient_nbr', which holds a different value "
                                          r"on each of the 60 rows .*--ignore patient_nbr"):
        clf = aspml.FoldSE().fit(X, y)
    assert "patient_nbr" in clf.program_.features_used
    for quiet, labels in ((X.assign(patient_nbr=X.patient_nbr + 0.5), y),     # decimals
                          (X.iloc[::4], y[::4])):                              # 15 rows
        with warnings.catch_warnings():
            warnings.simplefilter("error", AspmlWarning)
            assert "patient_nbr" in aspml.FoldSE().fit(quiet, labels).program_.features_used
    ids = X.assign(patient_nbr="P" + X.patient_nbr.astype(str))               # text ids too
    with pytest.warns(AspmlWarning, match="like an identifier"):
        aspml.Libre(n_estimators=3, random_state=0).fit(ids, y)
    data = tmp_path / "p.csv"
    X.assign(label=y).to_csv(data, index=False)
    out = run_aspml("learn", data, "--target", "label")
    assert out.returncode == 0
    assert "aspml learn: note: the rules use column 'patient_nbr'" in out.stderr
    assert "aspml learn --ignore patient_nbr" in out.stderr
    out = run_aspml("learn", data, "--target", "label", "--ignore", "patient_nbr")
    assert out.returncode == 0 and "note" not in out.stderr


def test_dates_the_rules_use_are_noted_as_categorical_values(tmp_path):
    # a trial: the date decided the label and FoldSE learned `d != "2020-01-13"` with only
    # the identifier note; dates are categorical values (docs, Data), and the note says so
    days = pd.Series(pd.date_range("2020-01-01", periods=60, freq="D")).sample(
        frac=1, random_state=0).reset_index(drop=True)
    y = np.where(days > pd.Timestamp("2020-01-31"), "late", "early")
    for d in (days, days.dt.tz_localize("UTC"), days + pd.Timedelta(hours=10, minutes=30)):
        with pytest.warns(AspmlWarning, match=r"column 'd', whose values are dates or times: "
                                              r"aspml reads them as categorical") as caught:
            aspml.FoldSE(tail=0).fit(pd.DataFrame({"d": d}), y)
        assert not any("identifier" in str(w.message) for w in caught)
    data = tmp_path / "d.csv"
    pd.DataFrame({"d": days, "label": y}).to_csv(data, index=False)
    out = run_aspml("learn", data, "--target", "label")
    assert out.returncode == 0, out.stderr
    assert "aspml learn: note: the rules use column 'd', whose values are dates" in out.stderr
    codes = pd.DataFrame({"d": "2020-01-0" + pd.Series(np.arange(60) % 9).astype(str) + "x"})
    with warnings.catch_warnings():
        warnings.simplefilter("error", AspmlWarning)     # not dates: no note
        assert aspml.FoldSE(tail=0).fit(codes, y).program_.features_used == ("d",)


# -- item 22: a Dask DataFrame keeps its column names --------------------------------------

def test_a_dask_dataframe_keeps_its_column_names():
    dd = pytest.importorskip("dask.dataframe")
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"a": rng.integers(0, 100, 60), "b": rng.integers(0, 100, 60),
                       "c": rng.choice(list("xyz"), 60)})
    y = ((df.b > 82) | (df.c == "x")).to_numpy()
    lazy = dd.from_pandas(df, npartitions=3)
    clf = aspml.FoldSE().fit(lazy, y)
    assert list(clf.feature_names_in_) == ["a", "b", "c"]
    assert set(clf.program_.features_used) == {"b", "c"}
    assert clf.program_ == aspml.FoldSE().fit(df, y).program_
    expected = clf.predict(df)
    assert list(clf.predict(lazy[["c", "b", "a"]])) == list(expected)   # by name, not position
    assert list(clf.program_.predict(lazy)) == list(clf.decision(df))
    pyarrow = pytest.importorskip("pyarrow")
    with pytest.raises(TypeError, match="X is a pyarrow Table: aspml reads a pandas DataFrame"):
        clf.predict(pyarrow.Table.from_pandas(df))


# -- words pandas reads as missing: the command keeps them (found by a new-user trial) ------

def test_words_pandas_takes_for_missing_read_as_the_command_reads_them(tmp_path):
    """``NA`` (North America), ``None``, ``n/a`` and ``null`` are values to the command;
    ``pd.read_csv``'s defaults make them missing.  ``aspml.read_csv`` and the pandas call
    the CLI guide gives read them as the command does: the same answer on every row, for
    a model learned on the command line and one learned in Python from that frame."""
    regions = ["NA", "EU", "AS", "", "None", "n/a", "null"]
    market = {"NA": "north", "EU": "euro", "AS": "asia", "": "unknown", "None": "NA",
              "n/a": "euro", "null": "asia"}
    rows = [(regions[i % 7], 5 + i % 3, market[regions[i % 7]]) for i in range(70)]
    data, model = tmp_path / "na.csv", tmp_path / "na.lp"
    data.write_text("region, size, market\n" + "\n".join(f"{r}, {s}, {m}" for r, s, m in rows)
                    + "\n")
    out = run_aspml("learn", data, "--target", "market", "-o", model, "--tail", "0")
    assert out.returncode == 0, out.stderr
    out = run_aspml("predict", model, data)
    assert out.returncode == 0, out.stderr
    cli = pd.read_csv(io.StringIO(out.stdout), dtype=str, keep_default_na=False)["market"].tolist()
    truth = [m for _, _, m in rows]
    assert cli == truth                         # "NA" and "None" are classes, not gaps
    loaded = aspml.load(model)
    recipe = pd.read_csv(data, dtype=str, skipinitialspace=True, keep_default_na=False,
                         na_values=[""])
    for frame in (aspml.read_csv(data), recipe):
        assert [str(v) for v in loaded.predict(frame)] == truth
        X, y = frame.drop(columns="market"), frame["market"].to_numpy(dtype=object)
        learned = aspml.FoldSE(tail=0, target="market").fit(X, y)
        assert learned.program_ == loaded
    # pandas' defaults lose the values (why the guide gives the call above)
    plain = pd.read_csv(data, skipinitialspace=True)
    assert plain["region"].isna().sum() == 50
    assert [str(v) for v in loaded.predict(plain)] != truth


def test_codes_pandas_takes_for_numbers_read_as_the_command_reads_them(tmp_path):
    """Branch codes ``001``, ``01`` and ``1`` are three values to the command (declared
    categorical); pandas without ``dtype=str`` reads all three as the integer 1 (a
    finance trial: 160 answers of 3,000 differed).  The guide's call reads them as the
    command does."""
    codes = ["001", "01", "1", "002"]
    rows = [(codes[i % 4], i % 5, "risk" if codes[i % 4] == "001" else "ok") for i in range(80)]
    data, model = tmp_path / "codes.csv", tmp_path / "codes.lp"
    data.write_text("branch,size,label\n" + "\n".join(f"{b},{s},{y}" for b, s, y in rows)
                    + "\n")
    out = run_aspml("learn", data, "--target", "label", "--positive", "risk", "--kind",
                    "branch=categorical", "-o", model)
    assert out.returncode == 0, out.stderr
    out = run_aspml("predict", model, data)
    cli = pd.read_csv(io.StringIO(out.stdout), dtype=str)["label"].tolist()
    assert cli == [y for _, _, y in rows]
    loaded = aspml.load(model)
    recipe = pd.read_csv(data, dtype=str, skipinitialspace=True, keep_default_na=False,
                         na_values=[""])
    def answers(frame):
        return np.where(loaded.predict(frame), "risk", "ok").tolist()
    assert answers(recipe) == cli
    plain = pd.read_csv(data, skipinitialspace=True, keep_default_na=False, na_values=[""])
    assert answers(plain) != cli


@pytest.mark.parametrize("block", [None, 7])
def test_the_row_checks_read_what_pandas_reads(tmp_path, monkeypatch, block):
    """The short-row and blank-line checks, through both of their paths (a file without a
    quote character is counted with numpy, block by block; with one, by the csv module)
    and across blocks (``block``: bytes a block): files pandas reads are read, a long
    quoted text included."""
    if block is not None:
        monkeypatch.setattr(aspml.data.csvfile, "_CHECK_BLOCK", block)
    cases = {
        "x\n1\n\n7\n": "line 3 is blank", "x\n1\n   \n7\n": "line 3 is blank",
        "x\r\n1\r\n\r\n7\r\n": "line 3 is blank", 'x\n1\n""\n7\n': 3, "x\n1\n7\n\n\n": 2,
        "\n\nx\n1\n2\n": 2, "x\n\n1\n2\n": 2,
        "a,b\n1,2\n3\n": "line 3 has 1 field", "a,b\n1,2\n\n3,4\n": 2,
        "a,b\n1,2\n   \n3,4\n": 2, 'a,b\n1,2\n""\n3,4\n': "line 3 has 1 field",
        "a,b,c\n1,2,3\n,\n4,5,\n": "line 3 has 2 fields", "a,b,\n1,2\n3,\n": 2,
        "a;b\n1;2\n3\n": "line 3 has 1 field", "a,b\r\n1,2\r\n3\r\n": "line 3 has 1 field",
        'a,b\n1,"' + "z" * 200_000 + '"\n2,\n': 2,
    }
    for i, (text, want) in enumerate(cases.items()):
        for quoted in (False, True):        # the same file with a quote: the other path
            if quoted:
                text = text.replace("a,b", 'a,"b"', 1).replace("a;b", 'a;"b"', 1)
                text = '"x"' + text[1:] if text.startswith("x") else text
            path = tmp_path / f"{i}{quoted}.csv"
            path.write_bytes(text.encode())
            if isinstance(want, int):
                assert len(aspml.read_csv(path)) == want, text[:40]
            else:
                with pytest.raises(aspml.AspmlError, match=want):
                    aspml.read_csv(path)


def test_a_program_of_a_code_read_as_a_number_before_says_so(tmp_path):
    """A program learned when "4.00" read as "4" (an earlier aspml, or pd.read_csv's
    numbers) no longer matches the code "4.00": it says so, from Python and the command."""
    p = Program((Rule(None, (Compare("code", "==", "4"),)),), Target("label", positive="y"),
                Schema((Feature("code", "categorical"),)))
    X = pd.DataFrame({"code": ["4.00", "3.25", "1.10"]})
    with pytest.warns(AspmlWarning, match=r"column 'code' holds '4.00', a code as written .* "
                      r"the program compares the column with '4'"):
        p.predict(X)
    model, data = tmp_path / "m.lp", tmp_path / "d.csv"
    p.save(model)
    X.to_csv(data, index=False)
    out = run_aspml("predict", model, data)
    assert out.returncode == 0 and "holds '4.00', a code as written" in out.stderr
    with warnings.catch_warnings():
        warnings.simplefilter("error", AspmlWarning)
        p.predict(pd.DataFrame({"code": ["4", "3.25"]}))        # "4" is there: nothing


def test_reading_a_file_leaves_no_file_open(tmp_path):
    """read_csv closes what it opens: no ResourceWarning (a trial: one for every file
    read, from the header's reader), also where a quoted field and a missing last
    value make it read the file again with csv."""
    import subprocess
    import sys
    plain, quoted = tmp_path / "plain.csv", tmp_path / "quoted.csv"
    plain.write_text("a,b\n1,2\n3,4\n")
    quoted.write_text('a,b\n"x, y",1\nz,\n')
    code = ("import aspml, sys; [aspml.read_csv(p) for p in sys.argv[1:]]; import gc; "
            "gc.collect()")
    out = subprocess.run([sys.executable, "-W", "always", "-c", code, str(plain), str(quoted)],
                         capture_output=True, text=True, check=True)
    assert "ResourceWarning" not in out.stderr, out.stderr


def test_a_stream_reads_as_its_file(tmp_path, loans):
    """read_csv takes an open file or a stream (text or bytes, packed or not) and reads it
    as the file (a trial: read_csv(io.StringIO(...)) said "No such file or directory");
    an error names the stream, not the file it went through."""
    plain = tmp_path / "plain.csv"
    loans.to_csv(plain, index=False)
    expected = aspml.read_csv(plain)
    text = plain.read_text()
    for stream in (io.StringIO(text), io.BytesIO(text.encode()),
                   io.BytesIO(gzip.compress(text.encode())), open(plain),  # noqa: SIM115
                   open(plain, "rb")):  # noqa: SIM115
        with stream:
            pd.testing.assert_frame_equal(aspml.read_csv(stream), expected)
    with pytest.raises(aspml.AspmlError, match=r"^the stream: row 0 has 3 fields"):
        aspml.read_csv(io.StringIO("a,b\n1,2,3\n"))
    (tmp_path / "twice.csv").write_text("a,a\n1,2\n")
    with open(tmp_path / "twice.csv") as fh, pytest.raises(aspml.AspmlError,
                                                           match="twice.csv names the column"):
        aspml.read_csv(fh)
    with pytest.raises(aspml.AspmlError, match="not text or bytes"):
        aspml.read_csv(type("Odd", (), {"read": lambda self: 5})())


def test_a_line_that_is_not_utf8_is_named(tmp_path):
    """A Latin-1 byte deep in a file: the error names its line, not the decoder's
    position within a block (a scale trial: "position 64621" of a 120 MB file), read
    whole, packed, in chunks and from Python."""
    rows = "".join(f"{i},x\n" for i in range(5000))
    data = b"bird,c\n" + rows.encode() + "3,café\n".encode("latin-1") + b"4,z\n"
    plain, packed = tmp_path / "t.csv", tmp_path / "t.csv.gz"
    plain.write_bytes(data)
    packed.write_bytes(gzip.compress(data))
    said = "line 5002 is not UTF-8 text (it holds the byte 0xe9); save the file as UTF-8"
    for path in (plain, packed):
        with pytest.raises(aspml.AspmlError, match=re.escape(said)):
            aspml.read_csv(path)
        for extra in ((), ("--chunksize", "1000")):
            one_line_error(run_aspml("predict", BIRDS / "birds.lp", path, *extra), said)


def test_an_unclosed_quote_names_its_line(tmp_path):
    """pandas said "EOF inside string starting at row 5001" (its lines from 0) beside
    aspml's "line N" (a scale trial read three numberings): the line, whole and in chunks."""
    rows = "true,false,false\n" * 5000
    path = tmp_path / "t.csv"
    path.write_text("bird,penguin,superpenguin\n" + rows + 'true,"false,false\n'
                    + "true,false,false\n" * 50)
    said = "line 5002 opens a quoted value that no quote closes"
    with pytest.raises(aspml.AspmlError, match=said):
        aspml.read_csv(path)
    for extra in ((), ("--chunksize", "1000")):
        one_line_error(run_aspml("predict", BIRDS / "birds.lp", path, *extra), said)
