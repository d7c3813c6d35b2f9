"""What a review of the knowledge-base features found, each as a user met it (issue #18).

- ``export --to asp --facts`` wrote every number snapped next to the program's
  thresholds (``age("Lea Diaz",64)`` for 34): the facts must hold the data;
- ``f(X,N), N != v`` was read as aspml's ``f != v``, which also holds where
  ``f`` is missing: a theory (or program) meant one thing in clingo and another
  in aspml; now it is refused with the advice to write ``not f(X,v)``;
- two prefixed programs defining the same background atom differently merged
  their definitions in one swipl session or clingo run;
- ``--edited`` dropped a rule written after the checksum line;
- a column named ``body_mass`` lost its name to the folded ``"Body Mass"``.
"""


import clingo
import numpy as np
import pandas as pd
import pytest

import aspml
from aspml.errors import AspmlError, ParseError

from conftest import one_line_error, run_aspml, run_swipl


def people(n=60, seed=0):
    rng = np.random.default_rng(seed)
    age = rng.integers(20, 95, n)
    frame = pd.DataFrame({"pid": [f"p'{i}" for i in range(n)], "age": age,
                          "smoker": rng.choice(["yes", "no"], n)})
    return frame


def test_asp_facts_hold_the_data(tmp_path):
    frame = people()
    y = np.where(frame.age >= 65, "yes", "no")
    clf = aspml.FoldSE(positive="yes").fit(frame[["age", "smoker"]], y)
    text = aspml.export(clf, "asp", frame, key="pid")
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], text + "\nold(P) :- age(P,A), A >= 80.\n#show old/1.")
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as answers:
        shown = [a.arguments[0].string for a in next(iter(answers)).symbols(shown=True)]
    assert sorted(shown) == sorted(frame.pid[frame.age >= 80])       # the knowledge base's question
    for pid, age in zip(frame.pid[:5], frame.age[:5]):
        assert f'age("{pid}",{age}).' in text


def test_asp_facts_finer_than_the_thresholds_hold_the_data_at_a_power_of_ten(tmp_path):
    """A trial: a program ``x > 1`` and data of 1.2, 1.7, 2.25: the export said "x2" and
    wrote 1.2 and 1.7 as 3 (a gap between thresholds), a header aspml could not read back.
    The print now takes the data's power of ten: each fact is the value at the scale the
    header names, and the program's answers in clingo are the fast path's."""
    p = aspml.parse('IF x > 1 THEN y = "yes"\nELSE y = "no"\n', "text")
    rows = pd.DataFrame({"x": [1.2, 1.7, 2, 2.25, 9.99, 0.5]})
    text = aspml.export(p, "asp", rows)
    assert '% Numbers are integers scaled per feature: "x" x100.' in text
    assert [f"x({i},{v})." for i, v in enumerate([120, 170, 200, 225, 999, 50])] == [
        line for line in text.splitlines() if line.startswith("x(")]
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], text + "\nbig(P) :- x(P,V), V >= 150.\n#show big/1. #show y/2.")
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as answers:
        shown = next(iter(answers)).symbols(shown=True)
    assert sorted(a.arguments[0].number for a in shown if a.name == "big") == [1, 2, 3, 4]
    assert sorted(a.arguments[0].number for a in shown if a.name == "y") == \
        list(np.flatnonzero(p.predict(rows)))
    # the command writes the same file from a CSV that to_csv wrote
    model, data = tmp_path / "m.txt", tmp_path / "rows.csv"
    model.write_text(p.to_text())
    rows.to_csv(data, index=False)
    done = run_aspml("export", model, "--to", "asp", "--facts", data)
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stdout.splitlines() if line.startswith("x(")] == [
        line for line in text.splitlines() if line.startswith("x(")]
    # the header reads back (the facts are data: read the program alone)
    program_text = text.split("% rows")[0]
    assert aspml.parse(program_text, "asp") == p.with_schema(aspml.parse(program_text,
                                                                        "asp").schema)


@pytest.mark.parametrize("text, dialect", [
    ("label(X) :- age(X,N), N != 5.", "asp"),
    ("label(X) :- age(X,N), 5 != N.", "asp"),
    ("label(X) :- age(X,N), N =\\= 5.", "prolog"),
])
def test_a_bound_variable_differs_is_refused(text, dialect):
    with pytest.raises(ParseError, match=r"not age\(X,v\)"):
        aspml.parse(text, dialect)


def test_a_theory_with_differs_is_one_clear_error(tmp_path):
    frame = people()
    frame["age"] = frame["age"].astype(object)
    frame.loc[:9, "age"] = "?"
    frame["y"] = np.where(frame.index % 2 == 0, "pos", "neg")
    data = tmp_path / "p.csv"
    frame.to_csv(data, index=False)
    theory = tmp_path / "bk.lp"
    theory.write_text("known(X) :- age(X,A), A != 0.\n")
    one_line_error(run_aspml("learn", data, "--target", "y", "--ignore", "pid",
                             "--background", theory), "not age(X,v)")
    theory.write_text("unknown0(X) :- row(X), not age(X,0).\n")      # the advice: it learns
    done = run_aspml("learn", data, "--target", "y", "--ignore", "pid", "--background", theory)
    assert done.returncode == 0, done.stderr


def two_programs(tmp_path):
    """Two programs whose theories define ``elderly`` differently (65 and 80)."""
    frame = people(80, 1)
    out = {}
    for name, limit in (("care", 65), ("audit", 80)):
        clf = aspml.FoldSE(positive="yes", target=f"{name}_flag",
                           background=f"elderly(X) :- age(X,A), A >= {limit}.")
        clf.fit(frame[["age", "smoker"]], np.where(frame.age >= limit, "yes", "no"))
        assert clf.program_.features_used == ("elderly",)
        out[name] = clf.program_
    return frame, out


def test_prefixed_background_atoms_do_not_merge_in_swipl(tmp_path, swipl):
    frame, programs = two_programs(tmp_path)
    files = []
    for name, p in programs.items():
        path = tmp_path / f"{name}.pl"
        path.write_text(aspml.export(p, "prolog", frame, key="pid", prefix=name))
        assert f"{name}_elderly(X) :-" in path.read_text()
        files.append(str(path))
    expected = {name: int((p.predict(frame[["age", "smoker"]])).sum())
                for name, p in programs.items()}
    goal = ", ".join(f"aggregate_all(count, distinct(P, {name}_flag(P, yes)), N{k}), "
                     f"format('~w ~w~n', [{name}, N{k}])" for k, name in enumerate(programs))
    done = run_swipl(goal, files)
    got = dict(line.split() for line in done.stdout.split("\n") if line)
    assert {k: int(v) for k, v in got.items()} == expected, done.stderr


def test_prefixed_background_atoms_do_not_merge_in_clingo(tmp_path):
    frame, programs = two_programs(tmp_path)
    ctl = clingo.Control(["--warn=none"])
    for name, p in programs.items():
        ctl.add("base", [], aspml.export(p, "asp", frame, key="pid", prefix=name))
    ctl.add("base", [], "#show care_flag/2. #show audit_flag/2.")
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as answers:
        shown = list(next(iter(answers)).symbols(shown=True))
    for name, p in programs.items():
        got = {a.arguments[0].string for a in shown if a.name == f"{name}_flag"}
        assert got == set(frame.pid[p.predict(frame[["age", "smoker"]])])


def test_a_rule_after_the_checksum_line_is_read_with_edited(tmp_path):
    frame = people()
    data = tmp_path / "p.csv"
    frame.assign(y=np.where(frame.age >= 65, "yes", "no")).to_csv(data, index=False)
    model = tmp_path / "m.lp"
    assert run_aspml("learn", data, "--target", "y", "--positive", "yes", "--ignore", "pid",
                     "-o", model).returncode == 0
    with open(model, "a") as fh:
        fh.write('y(X,"yes") :- age(X,N1), N1 < 25.\n')
    done = run_aspml("predict", model, data, "--edited")
    assert done.returncode == 0, done.stderr
    said = pd.read_csv(pd.io.common.StringIO(done.stdout))
    assert (said.y == "yes").sum() == ((frame.age >= 65) | (frame.age < 25)).sum()
    assert aspml.load(model, edited=True).n_rules == 2
    with open(model, "a") as fh:
        fh.write(":- initialization(main).\n")
    one_line_error(run_aspml("predict", model, data, "--edited"), "initialization")


def test_an_identifier_column_keeps_its_name(tmp_path):
    frame = pd.DataFrame({"Body Mass": [20.0, 35.0] * 20, "body_mass": [35.0, 20.0] * 20})
    y = np.where(frame["body_mass"] > 30, "yes", "no")
    clf = aspml.FoldSE(positive="yes", background="heavy(X) :- body_mass(X,B), B > 30.")
    clf.fit(frame, y)
    assert clf.program_.predicates["body_mass"] == "body_mass"
    assert (clf.predict(frame) == y).all()           # the theory read the body_mass column
    with pytest.raises(AspmlError):
        aspml.FoldSE(background="heavy(X) :- body_mass_3(X,B), B > 30.").fit(frame, y)


def test_an_export_with_facts_read_as_a_program_says_so(tmp_path):
    """``aspml predict`` on a file written by ``export --facts`` met the facts as rules
    ("age is derived ..."); it now says the file holds data."""
    frame = people()
    clf = aspml.FoldSE(positive="yes").fit(frame[["age"]], np.where(frame.age >= 65, "yes", "no"))
    data = tmp_path / "p.csv"
    frame.to_csv(data, index=False)
    for dialect, suffix in (("asp", "lp"), ("prolog", "pl")):
        path = tmp_path / f"kb.{suffix}"
        path.write_text(aspml.export(clf, dialect, frame, key="pid"))
        one_line_error(run_aspml("predict", path, data, "--from", dialect),
                       "is an export with the rows' facts", "--facts")
        with pytest.raises(AspmlError, match="is a fact, not a rule"):    # the text itself
            aspml.parse(path.read_text(), dialect)


def test_expert_rules_may_name_the_target_as_the_print_does():
    """A target ``Sick?`` prints as ``sick``: rules written as aspml prints them are its rules."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"Body Mass": rng.normal(30, 5, 100).round(1)})
    y = np.where(X["Body Mass"] > 33, "ja'),halt.", "nein")
    clf = aspml.FoldSE(positive="ja'),halt.", target="Sick?")
    clf.fit(X, y, fixed_rules="sick(X,\"ja'),halt.\") :- body_mass(X,B), B > 33.\n")
    assert clf.program_.expert == (0,) and clf.program_.target.name == "Sick?"
    with pytest.raises(AspmlError, match="conclude 'healthy'"):
        clf.fit(X, y, fixed_rules="healthy(X,\"ja'),halt.\") :- body_mass(X,B), B > 33.\n")


def test_a_theory_negated_comparison_prints_for_scasp_as_a_helper_atom():
    """s(CASP) cannot read ``\\+ (f(X,M), M =< t)``: a theory's negated comparison gets a
    helper atom there, as FOLD-SE prints a rule's, with the same answers everywhere."""
    X = pd.DataFrame({"age": [10, 70, 80, 30, "?"] * 8})
    y = np.where([a != "?" and a > 65 for a in X.age], "y", "n")
    p = aspml.FoldSE(positive="y", background="old(X) :- row(X), not (age(X,M), M <= 65).") \
        .fit(X, y).program_
    text = p.to_scasp()
    assert "\\+" not in text and "not ab1(X)" in text
    expanded = p.expand_negated_comparisons()
    assert (expanded.predict(X) == p.predict(X)).all()
    assert (aspml.asp.predict(expanded, X) == p.predict(X)).all()
    assert (aspml.parse(text, "scasp").predict(X) == p.predict(X)).all()
