"""A new user's trial (a hospital's data scientist and a deployment engineer, 2026-12-03):
what it found, through the doors it found it.  ``--digits`` has its own file
(``test_digits.py``)."""

import json
import warnings

import numpy as np
import pandas as pd
import pytest

import aspml
from aspml.errors import AspmlWarning
from conftest import run_aspml

from test_multiclass_explain import P, ROWS


def test_a_binary_counterfactual_that_needs_no_change_says_so():
    p = aspml.parse('IF age > 50 THEN sick = "yes"\nELSE sick = "no"', dialect="text")
    assert aspml.counterfactual(p, {"age": 60}, target=True).to_text(p) == (
        'no change: the row already gets sick = "yes"\nrule 1 fires: IF age > 50 THEN sick = "yes"\n')
    # no target: the answer the row does not get, as aspml explain --counterfactual (a
    # docs trial: the default was True, and this row got "no change" in Python only)
    assert aspml.counterfactual(p, {"age": 60}).changes == {"age": (60, 50)}
    assert aspml.counterfactual(p, {"age": 40}, target=False).to_text(p) == (
        'no change: the row already gets sick = "no"\n')
    assert aspml.counterfactual(p, {"age": 40}).to_text(p) == (
        'change age: 40 -> 50.5\nthen rule 1 fires: IF age > 50 THEN sick = "yes"\n')


def test_a_binary_counterfactual_without_target_is_the_commands(tmp_path):
    p = aspml.parse('IF age > 50 THEN sick = "yes"\nELSE sick = "no"', dialect="text")
    model, data = tmp_path / "m.lp", tmp_path / "rows.csv"
    p.save(model)
    rows = pd.DataFrame({"age": [60, 40]})
    rows.to_csv(data, index=False)
    for i in range(2):
        done = run_aspml("explain", model, data, "--row", i, "--counterfactual", "--json")
        assert done.returncode == 0, done.stderr
        out = json.loads(done.stdout)
        assert (out["answer"], out["counterfactual"]["answer"]) == \
            (("yes", "no") if i == 0 else ("no", "yes"))
        said = {f: tuple(v) for f, v in out["counterfactual"]["changes"].items()}
        # (a program written by hand: the command steps DATA's whole numbers)
        assert said == aspml.counterfactual(p, rows.iloc[i], steps={"age": 1}).changes != {}


@pytest.fixture
def triage_files(tmp_path):
    model, data = tmp_path / "t.lp", tmp_path / "t.csv"
    P.save(model)
    pd.DataFrame([ROWS["first_rule"][0], ROWS["no_rule"][0]]).to_csv(data, index=False)
    return model, data


def test_why_not_the_rows_own_class_with_a_counterfactual_needs_no_change(triage_files):
    model, data = triage_files
    out = run_aspml("explain", model, data, "--row", 0, "--counterfactual",
                    "--why-not", "emergency")
    assert out.returncode == 0, out.stderr
    assert out.stdout.endswith('No change is needed: the row already gets class "emergency".\n')
    out = run_aspml("explain", model, data, "--row", 0, "--counterfactual",
                    "--why-not", "emergency", "--json")
    assert json.loads(out.stdout)["counterfactual"] == {
        "changes": {}, "rule": None, "distance": 0.0, "any_other": [], "class": "emergency"}
    # no class asked: the nearest other class, as Python's counterfactual(p, row)
    out = run_aspml("explain", model, data, "--row", 1, "--counterfactual")
    assert out.returncode == 0
    cf = aspml.counterfactual(P, ROWS["no_rule"][0])    # (the command steps whole numbers)
    assert cf.to_text(P).splitlines()[1] == out.stdout.splitlines()[-1]


def test_aspml_report_is_reached_from_the_package():
    import subprocess
    import sys
    code = ("import aspml; print(aspml.report.confusion.__name__); "
            "print(sorted(set(dir(aspml)) & {'sys', 'types', 'importlib'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd="/")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["confusion", "[]"]


def test_check_notes_a_label_column_holding_none_of_the_classes(triage_files, tmp_path):
    model, _ = triage_files
    data = tmp_path / "s.csv"
    frame = pd.DataFrame([ROWS[k][0] for k in ROWS])
    frame.assign(sex=["M", "F"] * 3 + ["M"], triage=[ROWS[k][1] for k in ROWS]).to_csv(
        data, index=False)
    out = run_aspml("check", model, data, "--target", "sex")
    assert out.returncode == 0
    assert "note: column 'sex' holds none of the program's classes" in out.stderr
    out = run_aspml("check", model, data)
    assert out.returncode == 0 and "holds none" not in out.stderr


def test_the_weight_column_ignored_as_well_is_no_error(tmp_path):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.normal(size=60), "w": rng.uniform(1, 2, 60)})
    frame["y"] = np.where(frame.a > 0, "yes", "no")
    data = tmp_path / "w.csv"
    frame.to_csv(data, index=False)
    base = ["learn", data, "--target", "y", "--positive", "yes", "--quiet", "--sample-weight", "w"]
    one, two = run_aspml(*base), run_aspml(*base, "--ignore", "w")
    assert one.returncode == two.returncode == 0, two.stderr
    assert one.stdout == two.stdout


def test_a_code_in_a_mixed_column_that_reads_as_a_number_is_named():
    X = pd.DataFrame({"ward": ["007", "ICU", "12", "ICU"] * 10, "a": np.arange(40) % 7})
    y = np.where(X.a > 3, "yes", "no")
    with pytest.warns(AspmlWarning, match=r"'007' reads there as the number 7.*categorical"):
        aspml.FoldSE(positive="yes").fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", AspmlWarning)     # declared: no note; codes kept
        m = aspml.FoldSE(positive="yes", kinds={"ward": "categorical"}).fit(X, y)
    assert m.schema_["ward"].kind == "categorical"


def test_codes_in_a_column_of_numbers_are_named(tmp_path):
    """A trial's diagnosis codes ("007", "250.01", every value a number) learned
    ``dx > 12 AND dx <= 250.02`` without a word.  The note names a code and the kind that
    keeps them, in Python and from the command; numbers written plainly get no note."""
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"dx": rng.choice(["007", "012", "250.01", "401"], 200),
                      "age": rng.integers(20, 90, 200)})
    y = np.where(X.dx.isin(["250.01", "012"]), "yes", "no")
    with pytest.warns(AspmlWarning, match=r"column 'dx' holds numbers, some written as codes: "
                      r"'0(07|12)' reads there as the number (7|12).*--kind dx=categorical"):
        aspml.FoldSE(positive="yes").fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", AspmlWarning)
        kept = aspml.FoldSE(positive="yes", kinds={"dx": "categorical"}).fit(X, y)
        aspml.FoldSE(positive="yes").fit(X.assign(dx=X.dx.str.lstrip("0")), y)
        # one number written two ways is no sign of codes (a review)
        aspml.FoldSE(positive="yes").fit(X.assign(dx=np.where(X.age > 50, "1.10", "1.1")), y)
    assert '"007"' in kept.program_.to_text()          # the code as written
    data = tmp_path / "codes.csv"
    X.assign(y=y).to_csv(data, index=False)
    out = run_aspml("learn", data, "--target", "y", "--positive", "yes")
    assert out.returncode == 0 and "--kind dx=categorical" in out.stderr, out.stderr


@pytest.mark.parametrize("code, number", [("1.10", "1.1"), ("2E1", "20")])
def test_a_code_written_otherwise_than_its_number_is_named_in_a_mixed_column(code, number):
    """A mixed column reads "1.10" and "1.1" (or "2E1" and "20") as one number; a trial's
    region codes learned no rule without a word, where the codes declared categorical
    gave region = "1.10" at accuracy 1.  The note names the code, the command that keeps
    it, quoted for a shell when the column's name holds a space."""
    X = pd.DataFrame({"region code": [code, number, "A-7", "B"] * 10, "a": np.arange(40) % 7})
    y = np.where(X["region code"] == code, "yes", "no")
    with pytest.warns(AspmlWarning, match=rf"'{code}' and '{number}' read there as one number.*"
                      r"aspml learn --kind 'region code=categorical'"):
        aspml.FoldSE(positive="yes").fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", AspmlWarning)
        aspml.FoldSE(positive="yes", kinds={"region code": "categorical"}).fit(X, y)
    # a number written as to_csv writes it is that number, and a price written "19.00"
    # beside a word reads as no other text of the column does: no note
    X2 = X.assign(**{"region code": ["7.0", "12", "A-7", "B"] * 10})
    X3 = X.assign(**{"region code": ["19.00", "5.50", "free", "12"] * 10})
    with warnings.catch_warnings():
        warnings.simplefilter("error", AspmlWarning)
        aspml.FoldSE(positive="yes").fit(X3, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", AspmlWarning)
        aspml.FoldSE(positive="yes").fit(X2, y)


def test_numbers_written_with_separators_or_signs_are_named():
    """A trial's ';'-separated file of decimal commas learned age = "28,0": each formatted
    number a category of its own, without a word.  The learner says so (no guess between
    1,234 the thousand and 1,234 the decimal); plain numbers and codes say nothing."""
    rng = np.random.default_rng(0)
    n = 60
    age = rng.integers(20, 70, n)
    y = np.where(age > 45, "yes", "no")
    for column in ([f"{a},0" for a in age], [f"$ {a * 1000:,.2f}" for a in age],
                   [f"({a},5)" if a % 2 else f"{a},5" for a in age],
                   # beside plain whole numbers (a mixed column): "62,5" beside "45"
                   [f"{a},5" if a % 2 else str(a) for a in age]):
        X = pd.DataFrame({"age": column, "k": rng.choice(["a", "b"], n)})
        with pytest.warns(AspmlWarning, match="age.*separators or signs"):
            aspml.FoldSE(positive="yes").fit(X, y)
    for column in ([str(a) for a in age], [f"A-{a}" for a in age], [f"0{a}" for a in age],
                   [f"({a % 9})" for a in age], [f"{a}%" for a in age]):
        X = pd.DataFrame({"age": column, "k": rng.choice(["a", "b"], n)})
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            aspml.FoldSE(positive="yes").fit(X, y)
        assert not [w for w in seen if "separators" in str(w.message)]


def test_a_few_formatted_amounts_and_a_word_for_missing_among_numbers_are_named(tmp_path):
    """A legal trial's claim amounts: 200 plain numbers, three written '$220,398.34' and
    'N/A'.  Each note stayed silent, the formatted one wanting five such texts and the
    missing-word one no other text; the texts were categories every ``NOT (amount > t)``
    held for.  Both are said now, in Python and from aspml learn."""
    from conftest import run_aspml
    rng = np.random.default_rng(0)
    base = [f"{v:.2f}" for v in rng.uniform(1000, 100000, 200)]
    y = np.where(np.array([float(b) for b in base]) > 50000, "a", "b")
    for odd, said in ((["$1,234.00", "$5,600.50", "$7,000.00"], ["separators"]),
                      (["$1,234.00", "$5,600.50", "N/A", "N/A"], ["'N/A'", "separators"]),
                      (["$1,234.00", "unknown"], ["'unknown'", "separators"])):
        column = odd + base[len(odd):]
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            aspml.FoldSE().fit(pd.DataFrame({"amount": column}), y)
        notes = [str(w.message) for w in seen if issubclass(w.category, AspmlWarning)]
        assert len(notes) == len(said) and all(s in n for s, n in zip(said, notes)), notes
        data = tmp_path / "cases.csv"
        pd.DataFrame({"amount": column, "outcome": y}).to_csv(data, index=False)
        done = run_aspml("learn", data, "--target", "outcome")
        assert done.returncode == 0, done.stderr
        assert all(s in done.stderr for s in said), done.stderr
    # plain numbers beside one code-like text: no note
    with warnings.catch_warnings():
        warnings.simplefilter("error", AspmlWarning)
        aspml.FoldSE().fit(pd.DataFrame({"amount": ["A-7"] + base[1:]}), y)


def test_the_advice_for_formatted_numbers_reads_them():
    """The note's pandas settings come from the values (a finance trial's US amounts,
    "$52,861.90", were told decimal=',' and thousands='.', which leaves them texts), and
    following them does read the numbers once the signs are removed.  Where a numeric
    column must be read (predict), such values are not told to be declared mixed (a
    finance trial: 344 answers of 3,000 changed that way, with no word)."""
    import io
    import re

    from conftest import run_aspml
    rng = np.random.default_rng(0)
    n = 60
    age = rng.integers(20, 70, n)
    y = np.where(age > 45, "yes", "no")
    for column, how in (([f"${a * 1000 + 0.5:,.2f}" for a in age], "thousands=','"),
                        ([f"{a},5" for a in age], "decimal=',', thousands='.'"),
                        ([f"{a}.{a * 7 % 1000:03d},25" for a in age],
                         "decimal=',', thousands='.'")):
        X = pd.DataFrame({"age": column, "k": rng.choice(["a", "b"], n)})
        with pytest.warns(AspmlWarning, match=re.escape(f"pandas.read_csv(..., {how})")):
            aspml.FoldSE(positive="yes").fit(X, y)
        text = pd.DataFrame({"age": [c.replace("$", "") for c in column]}).to_csv(index=False)
        kw = {"thousands": ","} if how == "thousands=','" else {"decimal": ",", "thousands": "."}
        assert pd.read_csv(io.StringIO(text), **kw)["age"].dtype.kind == "f"
    program = aspml.FoldSE(positive="yes").fit(pd.DataFrame({"age": age}), y).program_
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        program.save(f"{tmp}/m.lp")
        pd.DataFrame({"age": [f"${a:,.2f}" for a in age * 1000]}).to_csv(f"{tmp}/r.csv",
                                                                         index=False)
        done = run_aspml("predict", f"{tmp}/m.lp", f"{tmp}/r.csv")
    assert done.returncode == 2 and "declare it mixed" not in done.stderr
    assert "thousands=','" in done.stderr and "currency signs" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_label_that_is_a_word_for_missing_is_named(tmp_path):
    """A legal trial's label column of outcomes and 'NaN' learned a class 'NaN' without
    a word (empty labels are refused in Python, left out by aspml learn): the fit names
    the word and its rows, and aspml learn --missing NaN leaves them out."""
    from conftest import run_aspml
    rng = np.random.default_rng(0)
    x = rng.integers(0, 100, 120)
    y = np.where(x < 40, "won", np.where(x < 80, "lost", "settled"))
    y[::10] = "NaN"
    with pytest.warns(AspmlWarning) as caught:
        aspml.FoldSE().fit(pd.DataFrame({"x": x}), y)
    said = [str(w.message) for w in caught if "labels (y)" in str(w.message)]
    assert [w.filename for w in caught if "labels (y)" in str(w.message)] == [__file__]
    assert said == [("the labels (y) hold 'NaN' (12 rows), a word other tools write for a "
                     "missing value: a class of its own here; if those rows have no label, "
                     "leave them out (fit on the other rows; aspml learn --missing NaN)")]
    data = tmp_path / "cases.csv"
    pd.DataFrame({"x": x, "outcome": y}).to_csv(data, index=False)
    done = run_aspml("learn", data, "--target", "outcome")
    assert done.returncode == 0 and "'NaN' (12 rows)" in done.stderr
    assert "for 4 classes" in done.stdout
    done = run_aspml("learn", data, "--target", "outcome", "--missing", "NaN")
    assert done.returncode == 0 and "labels (y)" not in done.stderr
    assert "left out 12 rows" in done.stderr and "for 3 classes" in done.stdout
    with warnings.catch_warnings():          # a class of a plain word says nothing
        warnings.simplefilter("error", AspmlWarning)
        aspml.FoldSE().fit(pd.DataFrame({"x": x}), np.where(x < 50, "won", "lost"))
    # nor a word that names a real class: the contact lenses' 'none' (a review)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        aspml.FoldSE().fit(pd.DataFrame({"x": x}),
                           np.where(x < 30, "hard", np.where(x < 60, "soft", "none")))
    assert not [w for w in caught if "labels (y)" in str(w.message)]


def test_a_rare_class_left_by_the_tail_is_said_with_the_tail_that_goes_on():
    """A held-out trial's 2% class: FoldSE's tail ended the rules at one, 59% of the
    class found, and nothing was said (the note of a rare class's unfound rows waits for
    under half, and names class_weight="balanced", which gave test F1 0.54 where a lower
    tail gave 0.83).  The fit says the tail ended the rules, and the tail it names learns
    the next rule; a table whose rules find most of the class says nothing."""
    import re

    from sklearn.datasets import make_classification
    X, y = make_classification(n_samples=5000, n_features=12, n_informative=5, n_redundant=2,
                               weights=[0.98], flip_y=0.0, class_sep=1.5, random_state=2)
    X = pd.DataFrame(np.round(X, 3), columns=[f"x{i}" for i in range(12)])
    with pytest.warns(AspmlWarning) as caught:
        clf = aspml.FoldSE(positive=1).fit(X, y)
    said = [str(w.message) for w in caught if "tail ended" in str(w.message)]
    assert [w.filename for w in caught if "tail ended" in str(w.message)] == [__file__]
    assert len(said) == 1
    m = re.fullmatch(r'FoldSE\'s rules find ([0-9.]+)% of the "1" rows in training \(the class '
                     r'is 2\.0% of the rows\): the tail ended the rules there: the next rule '
                     r'covered (\d+) of the (\d+) rows left, and a rule must cover 25 '
                     r'\(tail=0\.005 of the rows\); tail=([0-9.]+) keeps it, and a lower tail '
                     r'learns rules for more of them', said[0])
    assert m, said[0]
    # the next rule is searched quietly: a trace of the fit holds the loop's steps alone,
    # its kept rules and the one the tail refused
    steps = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        aspml.FoldSE(positive=1).fit(X, y, trace=steps.append)
    assert [s["kept"] for s in steps if s["step"] == "covered" and s["depth"] == 0] == \
        [True] * clf.program_.n_rules + [False]
    found = clf.predict(X)[y == 1].mean()
    assert float(m.group(1)) == pytest.approx(100 * found, abs=0.05)
    assert int(m.group(3)) == int(((clf.predict(X) == 0) & (y == 1)).sum())
    tail = float(m.group(4))
    assert tail * len(X) <= int(m.group(2)) < 25
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        more = aspml.FoldSE(positive=1, tail=tail).fit(X, y)
    assert more.program_.n_rules > clf.program_.n_rules
    assert more.predict(X)[y == 1].mean() > found
    # the class found by its rules: no note of the tail
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        aspml.FoldSE(positive=1, tail=0.001).fit(X, y)
    assert not [w for w in caught if "tail ended" in str(w.message)]
