"""Background knowledge (#18 item 3): a theory of derived Boolean atoms that the learners
use as features, that every engine derives, and that travels with the program."""

import re
import warnings

import clingo
import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

import aspml
from aspml import asp, prolog
from aspml.errors import AspmlError, AspmlWarning, ParseError
from aspml.evaluate import as_table
from aspml.explain import explain
from aspml.logic.background import read_background
from aspml.logic.model import Compare, Flag, Program, Rule, Target
from aspml.logic.parser import parse
from aspml.prolog import CLEAN_OPTIONS

from conftest import one_line_error, predict_with_every_engine, run_aspml, run_swipl

THEORY = """\
% a column with a space is read by its predicate: "Body Mass" is body_mass
elderly(X) :- age(X,A), A >= 65.
risk(X) :- smoker(X,"yes"), body_mass(X,B), B > 30.5.
frail(X) :- elderly(X), not risk(X).
young(X) :- not elderly(X).
"""

LEARNERS = [aspml.FoldSE(), aspml.FoldRpp(), aspml.Libre(random_state=0),
            aspml.MultiValueRuleSet(n_iter=200, random_state=0)]


def table(n=240, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "age": rng.integers(20, 90, n).astype(object),
        "smoker": rng.choice(["yes", "no", "?"], n),
        "Body Mass": rng.normal(29, 5, n).round(1),
    })
    X.loc[rng.choice(n, 10, replace=False), "age"] = "?"          # missing values too
    age = pd.to_numeric(X["age"], errors="coerce")
    frail = (age >= 65) & ~((X["smoker"] == "yes") & (X["Body Mass"] > 30.5))
    risky = (X["smoker"] == "yes") & (X["Body Mass"] > 30.5) & (age < 40)
    y = np.where(frail | risky, "sick", "ok")
    return X, y


@pytest.fixture(scope="module")
def data():
    return table()


@pytest.fixture(scope="module")
def fitted(data):
    X, y = data
    out = {}
    for clf in LEARNERS:
        clf = clone(clf).set_params(background=THEORY, target="sick")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AspmlWarning)
            out[type(clf).__name__] = clf.fit(X, y)
    return out


def probe_rows(X):
    """The data and rows at and beside the theory's thresholds."""
    extra = pd.DataFrame({"age": [64, 65, 66, "?", 39, 40], "smoker": ["no", "yes", "?", "yes",
                                                                     "yes", "no"],
                          "Body Mass": [30.5, 30.6, 30.4, 31.0, np.nan, 30.5]})
    return pd.concat([X, extra], ignore_index=True)


# -- the theory -------------------------------------------------------------------------

def test_theory_reads_columns_by_their_predicate_names():
    rules = read_background(THEORY, ["age", "smoker", "Body Mass"], "sick")
    assert rules[1] == Rule("risk", (Compare("smoker", "==", "yes"),
                                     Compare("Body Mass", ">", 30.5)))
    assert rules[2] == Rule("frail", (Flag("elderly"), Flag("risk", False)))
    # the prolog dialect reads the same
    pl = THEORY.replace("not ", "\\+ ").replace('"yes"', "'yes'").replace(">=", ">=")
    assert read_background(pl, ["age", "smoker", "Body Mass"], "sick") == rules


def test_a_number_on_a_categorical_column_is_its_category():
    schema = aspml.Program((), schema=[aspml.logic.model.Feature("sex", "categorical")]).schema
    rules = read_background("male(X) :- sex(X,1).", ["sex"], schema=schema)
    assert rules == (Rule("male", (Compare("sex", "==", "1"),)),)


# -- learners and engines -----------------------------------------------------------------

@pytest.mark.parametrize("name", ["FoldSE", "FoldRpp", "Libre", "MultiValueRuleSet"])
def test_learned_programs_carry_the_theory_and_every_engine_agrees(fitted, data, swipl, name):
    X, y = data
    clf = fitted[name]
    p = clf.program_
    assert p.background == read_background(THEORY, X.columns, "sick")
    assert p.n_rules == len(p.rules)                  # learned rules only
    assert [f.kind for f in p.schema.features if f.name in p.background_atoms] == ["boolean"] * 4
    rows = probe_rows(X)
    fast = p.predict(rows)
    assert np.array_equal(clf.decision(rows), fast)
    assert np.array_equal(asp.predict(p, rows), fast)
    assert np.array_equal(prolog.predict(p, rows, query="open"), fast)
    assert np.array_equal(prolog.predict(p, rows, query="rows"), fast)
    derived = as_table(p, rows)
    for atom in p.background_atoms:          # each atom asked openly: elderly(R), young(R)
        assert np.array_equal(prolog.holds(p, rows, atom), derived[atom].num == 1.0), atom


def test_the_rules_use_the_atoms(fitted):
    used = set(fitted["FoldSE"].program_.features_used)
    assert used & {"frail", "risk", "elderly"}, fitted["FoldSE"].program_.to_text()
    assert np.mean(fitted["FoldSE"].predict(table()[0]) == table()[1]) > 0.97


@pytest.mark.parametrize("seed", range(6))
def test_clingo_derives_what_the_fast_path_derives(seed):
    """The learner's derivation (clingo, from facts and the theory) against the fast path's,
    on random data with missing values and theories with sets, negation and several rules."""
    rng = np.random.default_rng(seed)
    X, _ = table(60, seed)
    X["Body Mass"] = X["Body Mass"].where(rng.random(60) > 0.1)
    theory = THEORY + f"""
heavy(X) :- body_mass(X,B), B >= {rng.integers(25, 33)}.
heavy(X) :- smoker(X,("no";"?")), not young(X).
calm(X) :- not heavy(X), not risk(X), age(X,A), {rng.integers(20, 50)} < A, A =< 70.
"""
    rules = read_background(theory, X.columns)
    p = Program((Rule(None, (Flag("calm"),)),), background=rules)
    by_clingo = asp.derive(p, X)
    t = as_table(p, X)
    for atom in p.background_atoms:
        assert np.array_equal(by_clingo[atom], t[atom].num == 1.0), atom


def test_estimator_parameter_is_stored_as_given_and_clones(tmp_path, data):
    X, y = data
    path = tmp_path / "bk.lp"
    path.write_text(THEORY)
    rules = read_background(THEORY, X.columns, "sick")
    for given in (THEORY, path, str(path), list(rules), Program((), background=rules)):
        clf = aspml.FoldSE(background=given, target="sick")
        assert clone(clf).get_params()["background"] == given
        assert clf.fit(X, y).program_.background == rules
    assert "background" not in clf.program_.provenance_dict
    assert aspml.FoldSE().fit(X, y).program_.background == ()


# -- prints, files, round trips -------------------------------------------------------------

def test_prints_and_round_trips(fitted, tmp_path):
    p = fitted["FoldSE"].program_
    asp_text = p.to_asp()
    assert "% background knowledge" in asp_text
    assert asp_text.index("% background knowledge") > asp_text.index("sick(X,")
    assert '"background": ["elderly", "risk", "frail", "young"]' in asp_text
    assert "young(X) :-\n    row(X),\n    not elderly(X)." in asp_text     # bound before not
    for dialect in ("asp", "prolog", "text"):
        assert parse(p.print(dialect), dialect).background == p.background
    assert parse(p.to_asp(), "asp") == p
    assert parse(p.to_prolog(), "prolog") == p
    assert "WHERE frail IF elderly AND NOT risk" in p.to_text()
    assert "frail(X) :-\n    elderly(X),\n    not risk(X)." in p.to_scasp()
    for suffix in (".lp", ".pl"):
        p.save(tmp_path / f"m{suffix}")
        assert aspml.load(tmp_path / f"m{suffix}") == p


def test_without_background_the_header_has_no_key():
    p = Program((Rule(None, (Compare("age", ">", 3),)),))
    assert "background" not in p.to_asp() and "WHERE" not in p.to_text()


def test_rank_tables_and_scales_hold_the_theory_constants():
    rules = read_background("big(X) :- money(X,M), M > 1099511627776.\n"
                            "fine(X) :- money(X,M), M < 0.25.", ["money"])
    p = Program((Rule(None, (Flag("big"),)), Rule(None, (Flag("fine"),))), background=rules)
    assert "is written as ranks" in p.to_asp()
    X = pd.DataFrame({"money": [2.0**41, 0.1, 0.3, 2.0**40, -5.0]})
    assert list(p.predict(X)) == [True, True, False, False, True]
    assert np.array_equal(asp.predict(p, X), p.predict(X))
    assert parse(p.to_asp(), "asp") == p


def test_runs_alone_in_clingo_and_swipl(fitted, data, tmp_path, swipl):
    X, _ = data
    model, csv = tmp_path / "m.lp", tmp_path / "d.csv"
    fitted["FoldSE"].program_.save(model)
    X.to_csv(csv, index=False)
    want = set(np.flatnonzero(fitted["FoldSE"].decision(X)).tolist())
    done = run_aspml("export", model, "--to", "asp", "--facts", csv)
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], done.stdout + '\n#show sick/2.')
    ctl.ground([("base", [])])
    got = set()
    ctl.solve(on_model=lambda m: got.update(s.arguments[0].number for s in m.symbols(shown=True)))
    assert got == want
    done = run_aspml("export", model, "--to", "prolog", "--facts", csv)
    assert "age(0," in done.stdout and "elderly(0)." not in done.stdout   # facts: columns only
    (tmp_path / "p.pl").write_text(done.stdout)
    out = run_swipl("findall(R, sick(R,'sick'), Rs), sort(Rs, S), "
                    "forall(member(R, S), writeln(R))", [tmp_path / "p.pl"],
                    options=CLEAN_OPTIONS)
    assert out.stderr == "" and {int(r) for r in out.stdout.split()} == want
    assert parse(run_aspml("export", model, "--to", "prolog").stdout, "prolog") \
        == fitted["FoldSE"].program_


# -- explanations ----------------------------------------------------------------------------

def test_explanations_descend_into_background_rules():
    rules = read_background(THEORY, ["age", "smoker", "Body Mass"], "sick")
    p = Program((Rule(None, (Flag("frail"),)), Rule(None, (Flag("risk"), Compare("age", "<", 40)))),
                Target("sick", "yes", "no"), background=rules)
    row = {"age": 70, "smoker": "no", "Body Mass": 25.0}
    e = explain(p, row)
    assert e.to_dict() == explain(p, row, engine="clingo").to_dict()
    text = e.to_text()
    assert "frail holds (background knowledge) because" in text
    assert "rule 5 fires: IF elderly AND NOT risk THEN frail" in text       # numbered as printed
    assert "rule 3 fires: IF age >= 65 THEN elderly" in text
    assert "age = 70, and 70 >= 65" in text
    assert "there is no evidence that risk holds (background knowledge):" in text
    frail = e.to_dict()["target"]["rules"][0]["literals"][0]["exception"]
    assert frail["atom"] == "frail" and frail["holds"]
    e = explain(p, {"age": 30, "smoker": "yes", "Body Mass": 35.0}, minimal=True)
    assert e.minimal == {"age": 30, "smoker": "yes", "Body Mass": 35}       # columns, not atoms
    cf = aspml.counterfactual(p, row, target=False)
    assert cf is not None and set(cf.changes) <= {"age", "smoker", "Body Mass"}
    # a background atom is derived from columns: kept fixed by naming them (a new-user
    # trial: immutable=("frail",) was taken, and the answer changed frail's columns)
    with pytest.raises(aspml.AspmlError, match="'frail', a background atom its rules derive "
                                               "from the columns 'Body Mass', 'age', 'smoker'"):
        aspml.counterfactual(p, row, target=False, immutable=("frail",))


# -- the command line ------------------------------------------------------------------------

def test_cli_learn_with_background(tmp_path, data, swipl):
    X, y = data
    csv, bk = tmp_path / "d.csv", tmp_path / "bk.lp"
    X.assign(sick=y).to_csv(csv, index=False)
    bk.write_text(THEORY)
    for model in (tmp_path / "m.lp", tmp_path / "m.pl"):
        done = run_aspml("learn", csv, "--target", "sick", "--background", bk, "-o", model)
        assert done.returncode == 0, done.stderr
        assert "(and 4 background rules)" in done.stdout and "WHERE frail IF" in done.stdout
        answers = predict_with_every_engine(model, csv)
        assert answers["fast"] == answers["clingo"] == answers["prolog"]
        done = run_aspml("check", model, csv)
        assert done.returncode == 0 and "agree on every row: True" in done.stdout
        row = int(np.flatnonzero(pd.to_numeric(X["age"], errors="coerce") >= 65)[0])
        done = run_aspml("explain", model, csv, "--row", row, "--minimal")
        assert done.returncode == 0 and "(background knowledge)" in done.stdout, done.stdout
        atom = next(a for a in aspml.load(model).background_atoms
                    if a in aspml.load(model).features_used)
        one_line_error(run_aspml("explain", model, csv, "--row", row, "--counterfactual",
                                 "--immutable", atom), f"immutable names {atom!r}, a "
                       "background atom its rules derive from the columns")
    done = run_aspml("report", model, csv, "-o", tmp_path / "r.html")
    assert done.returncode == 0 and "% background knowledge" in (tmp_path / "r.html").read_text()


def test_an_atoms_clauses_apart_in_the_theory_load_in_swipl_without_a_warning(data, tmp_path,
                                                                             swipl):
    # a trial: elderly, risk, elderly: the Prolog print declared label/2 and ab/1
    # discontiguous but not elderly/1, so swipl warned and the prolog engine refused
    X, y = data
    theory = ("elderly(X) :- age(X,A), A >= 65.\n"
              'risk(X) :- smoker(X,"yes"), body_mass(X,B), B > 30.5.\n'
              "elderly(X) :- body_mass(X,B), B > 40.\n")
    clf = aspml.FoldSE(background=theory, target="sick").fit(X, y)
    text = clf.program_.to_prolog()                 # the theory travels with the program
    assert re.search(r"(?s)^elderly\(X\) :-.*^risk\(X\) :-.*^elderly\(X\) :-", text, re.MULTILINE)
    assert re.search(r":- discontiguous .*\belderly/1", text)
    (tmp_path / "p.pl").write_text(text)
    out = run_swipl("true", [tmp_path / "p.pl"], options=CLEAN_OPTIONS)
    assert out.returncode == 0 and out.stderr == ""
    assert np.array_equal(aspml.prolog.predict(clf.program_, X), clf.decision(X))
    csv, bk, model = tmp_path / "d.csv", tmp_path / "bk.lp", tmp_path / "m.lp"
    X.assign(sick=y).to_csv(csv, index=False)
    bk.write_text(theory)
    assert run_aspml("learn", csv, "--target", "sick", "--background", bk, "-o",
                     model).returncode == 0
    answers = predict_with_every_engine(model, csv)
    assert answers["fast"] == answers["clingo"] == answers["prolog"]


def test_a_label_made_from_the_theory_is_noted_as_the_theorys_atom(data, tmp_path):
    # a trial (the background guide): "column 'frail' names the classes one to one ...
    # aspml learn --ignore"; frail is the theory's atom, and --ignore frail then failed
    X, _ = data
    age = pd.to_numeric(X["age"], errors="coerce")
    keep = age.notna().to_numpy()
    X, y = X[keep].reset_index(drop=True), np.where(age[keep] >= 65, "sick", "ok")
    with pytest.warns(AspmlWarning, match=r"the background atom 'elderly' \(your theory's\) "
                                          r"names the classes one to one") as caught:
        aspml.FoldSE(background=THEORY, target="sick").fit(X, y)
    assert not any("--ignore" in str(w.message) for w in caught)
    csv, bk = tmp_path / "d.csv", tmp_path / "bk.lp"
    X.assign(sick=y).to_csv(csv, index=False)
    bk.write_text(THEORY)
    done = run_aspml("learn", csv, "--target", "sick", "--background", bk)
    assert done.returncode == 0 and "note: the background atom 'elderly'" in done.stderr


BAD = [
    ("elderly(X) :- age(X,A) A >= 65.", "background theory"),
    ('age(X) :- smoker(X,"yes").', "clashes with the column 'age'"),
    ("body_mass(X) :- age(X,A), A > 3.", "clashes with the column 'Body Mass'"),
    ("sick(X) :- age(X,A), A > 3.", "clashes with the target"),
    ("a(X) :- not b(X), age(X,A), A > 3. b(X) :- not a(X), age(X,A), A > 3.", "not stratified"),
    ("a(X) :- b(X). b(X) :- a(X).", "recursive"),
    ("a(X) :- weight(X,W), W > 3.", "no column of the data"),
    ("a(X) :- age(X,A), A > 1000.", "grounds to nothing"),
    ("a(X) :- age(X,A), age(Y,B), A > B.", "out of scope"),
    ("a(X) :- #count { Y : age(Y,_) } > 3.", "out of scope"),
    ("a(X) :- age(X,A), body_mass(X,B), A > B.", "out of scope"),
    # a number column compared with a text: the theory and the rule named (it was the
    # model's "feature 'age' is numeric but a literal on it needs a categorical feature")
    ('old(X) :- age(X,"70").', "rule 1 (old): column 'age' holds numbers, and the rule "
                               "compares it with the text '70'"),
]


@pytest.mark.parametrize("theory,words", BAD)
def test_bad_theories_are_one_clear_error(theory, words, data, tmp_path):
    X, y = data
    with pytest.raises(AspmlError, match=None) as info:
        aspml.FoldSE(background=theory, target="sick").fit(X, y)
    assert words in str(info.value)
    csv, bk = tmp_path / "d.csv", tmp_path / "bk.lp"
    X.assign(sick=y).to_csv(csv, index=False)
    bk.write_text(theory)
    one_line_error(run_aspml("learn", csv, "--target", "sick", "--background", bk), words)


def test_other_bad_input(data, tmp_path):
    X, y = data
    one_line_error(run_aspml("learn", tmp_path / "none.csv", "--target", "sick"))
    csv = tmp_path / "d.csv"
    X.assign(sick=y).to_csv(csv, index=False)
    one_line_error(run_aspml("learn", csv, "--target", "sick", "--background",
                             tmp_path / "none.lp"), "no file")
    with pytest.raises(ParseError, match="a background atom has one argument"):
        read_background("a(X,1) :- age(X,A), A > 3.", ["age"])
    with pytest.raises(AspmlError, match="not a list of Rules|theory text"):
        aspml.FoldSE(background=3).fit(X, y)
    p = aspml.FoldSE(background=THEORY, target="sick").fit(X, y).program_
    with pytest.raises(AspmlError, match="column 'elderly', which the program's background"):
        p.predict(X.assign(elderly=True))


def test_an_atom_that_never_or_always_holds_is_a_note(data, tmp_path):
    X, y = data
    theory = THEORY + "ancient(X) :- age(X,A), A > 500.\n"
    with pytest.warns(AspmlWarning, match="ancient holds for no training row"):
        aspml.FoldSE(background=theory, target="sick").fit(X, y)
    with pytest.warns(AspmlWarning, match="weighed holds for every training row"):
        aspml.FoldSE(background=THEORY + "weighed(X) :- body_mass(X,B), B > -1.\n",
                     target="sick").fit(X, y)
    csv, bk = tmp_path / "d.csv", tmp_path / "bk.lp"
    X.assign(sick=y).to_csv(csv, index=False)
    bk.write_text(theory)
    done = run_aspml("learn", csv, "--target", "sick", "--background", bk)
    assert done.returncode == 0 and "note: the background atom ancient holds for no" in done.stderr


def test_on_a_tie_the_rule_reads_in_the_theorys_words():
    """``age > 60`` and ``elderly`` (age >= 65) cover the same rows when no one is 61-64:
    the learner takes the theory's atom, which reads better and means what the expert
    wrote (the atoms come before the data's columns in the search)."""
    ages = np.array([30, 40, 50, 55, 60, 65, 70, 75, 80, 85] * 6)
    X = pd.DataFrame({"age": ages})
    y = np.where(ages >= 65, "yes", "no")
    clf = aspml.FoldSE(positive="yes", background="old(X) :- age(X,A), A >= 65.").fit(X, y)
    assert clf.program_.to_text().splitlines()[0] == 'IF old THEN label = "yes"'
