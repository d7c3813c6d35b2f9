"""Multi-class explanations (issue #17): why class c, why not class d, minimal reasons per
class, counterfactuals to a chosen class, and the check/report figures.

The program is built by hand: a triage decision list with an exception on its first rule
and on its last, so that every kind of row is here (the first rule decides, a later rule
decides after earlier ones failed, an exception blocks a rule, no rule covers the row).
"""

import json
import os
import warnings
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

import aspml
from aspml import Compare, NotAtom, Program, Rule, Target
from aspml.evaluate import first_rules
from aspml.report import class_figures, confusion
from conftest import GOLDEN, run_aspml

CLASSES = ("emergency", "urgent", "routine")


def triage(default="routine", classes=CLASSES):
    e, u, r = classes
    return Program((
        Rule(None, (Compare("pulse", ">", 120), NotAtom("ab1")), label=e),
        Rule(None, (Compare("pain", "==", "severe"),), label=u),
        Rule(None, (Compare("temp", ">=", 40),), label=e),
        Rule(None, (Compare("temp", ">=", 38.5), NotAtom("ab2")), label=u),
        Rule("ab1", (Compare("age", "<", 30), Compare("pain", "==", "none"))),
        Rule("ab2", (Compare("age", "<=", 12),)),
    ), Target("triage", classes=classes, default=default))


P = triage()
ROWS = {   # name: (row, its class, the default rule that decides it: index in P.rules or None)
    "first_rule": (dict(pulse=130, pain="mild", temp=37, age=50), "emergency", 0),
    "later_rule": (dict(pulse=80, pain="none", temp=40.5, age=50), "emergency", 2),
    "exception_blocks": (dict(pulse=130, pain="none", temp=37, age=20), "routine", None),
    "exception_blocks_later": (dict(pulse=80, pain="mild", temp=39, age=8), "routine", None),
    "no_rule": (dict(pulse=80, pain="none", temp=37, age=50), "routine", None),
    "second_class": (dict(pulse=80, pain="severe", temp=40.5, age=50), "urgent", 1),
    "missing_values": (dict(pulse=None, pain=None, temp=39, age=None), "urgent", 3),
}


def grid():
    """Rows that reach every rule and exception either way (values on, below and above
    each threshold, missing values)."""
    rng = np.random.default_rng(0)
    out = []
    for _ in range(40):
        out.append({"pulse": rng.choice([None, 100, 120, 121, 150]),
                    "pain": rng.choice([None, "none", "mild", "severe"]),
                    "temp": rng.choice([None, 37, 38.5, 39.9, 40, 41]),
                    "age": rng.choice([None, 5, 12, 13, 29, 30, 70])})
    return out


# -- why class c --------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(ROWS))
def test_the_class_and_the_deciding_rule(name):
    row, cls, decided = ROWS[name]
    e = aspml.explain(P, row)
    assert e.prediction == cls == P.predict(pd.DataFrame([row]))[0]
    assert e.deciding_rule == decided
    d = json.loads(json.dumps(e.to_dict()))
    assert d["prediction"] == cls and d["default_applies"] == (decided is None)
    assert d["decided_by"] == (None if decided is None else decided + 1)
    assert d["classes"] == list(CLASSES) and d["default_class"] == "routine"
    # every default rule is in the dict, with its class, its literals and its exceptions
    assert [r["class"] for r in d["target"]["rules"]] == [r.label for r in P.default_rules]


def test_first_rule_fires_each_literal_with_the_row_value_and_the_exception_that_failed():
    text = aspml.explain(P, ROWS["first_rule"][0]).to_text()
    assert text.splitlines()[:7] == [
        'triage = "emergency" for this row because',
        '  rule 1 fires: IF pulse > 120 AND NOT ab1 THEN triage = "emergency"',
        '    pulse = 130, and 130 > 120',
        '    there is no evidence that ab1 holds:',
        '      rule 5 does not fire: IF age < 30 AND pain = "none" THEN ab1',
        '        age = 50, and 50 < 30 is false',
        '  and it is the first rule of the list']


def test_a_later_rule_lists_why_each_earlier_rule_of_another_class_failed():
    e = aspml.explain(P, ROWS["later_rule"][0])
    # rule 1 is of the same class: not a guard; rule 2 (urgent) is
    assert [r.index for r in e.earlier] == [1]
    assert e.to_dict()["earlier"] == [2]
    text = e.to_text()
    assert "  and no earlier rule of another class fires:\n" in text
    assert '    rule 2 does not fire: IF pain = "severe" THEN triage = "urgent"\n' in text
    assert '      pain = "none", not "severe"\n' in text
    e2 = aspml.explain(P, ROWS["second_class"][0])
    assert [r.index for r in e2.earlier] == [0]
    assert ('    rule 1 does not fire: IF pulse > 120 AND NOT ab1 THEN triage = "emergency"\n'
            "      pulse = 80, and 80 > 120 is false\n") in e2.to_text()


def test_an_exception_that_holds_is_the_reason_a_rule_fails():
    text = aspml.explain(P, ROWS["exception_blocks"][0]).to_text()
    assert text.startswith('triage = "routine" for this row because no rule covers it, and '
                           '"routine" is the default class:\n'
                           '  rule 1 does not fire: IF pulse > 120 AND NOT ab1 THEN triage = '
                           '"emergency"\n'
                           '    the exception ab1 holds because\n'
                           '      rule 5 fires: IF age < 30 AND pain = "none" THEN ab1\n')
    # every default rule is accounted for
    for k in (1, 2, 3, 4):
        assert f"  rule {k} does not fire" in text


def test_no_rule_and_no_default_class():
    p = triage(default=None)
    e = aspml.explain(p, ROWS["no_rule"][0])
    assert e.prediction is None and e.deciding_rule is None
    assert e.to_text().startswith("triage has no class for this row: no rule covers it, and "
                                  "the program has no default class:\n")
    assert e.to_dict()["prediction"] is None
    assert not any(a.startswith("triage(") for a in e.atoms)
    # a row a rule covers still gets its class
    assert aspml.explain(p, ROWS["first_rule"][0]).prediction == "emergency"


# -- why not class d -----------------------------------------------------------------

def test_why_not_a_class_whose_rules_fail():
    e = aspml.explain(P, ROWS["first_rule"][0], why_not="urgent")
    assert e.to_text() == (
        'triage = "urgent" does not hold for this row (its class is "emergency"):\n'
        '  rule 2 does not fire: IF pain = "severe" THEN triage = "urgent"\n'
        '    pain = "mild", not "severe"\n'
        '  rule 4 does not fire: IF temp >= 38.5 AND NOT ab2 THEN triage = "urgent"\n'
        '    temp = 37, and 37 >= 38.5 is false\n')
    d = e.to_dict()["why_not"]
    assert d == {"class": "urgent", "holds": False, "is_default_class": False,
                 "rules": [{"rule": 2, "fires": False, "preempted_by": None},
                           {"rule": 4, "fires": False, "preempted_by": None}],
                 "blocked_by": None}


def test_why_not_a_class_whose_rule_fires_but_is_preempted():
    e = aspml.explain(P, ROWS["later_rule"][0], why_not="urgent")
    text = e.to_text()
    assert '  rule 4 fires: IF temp >= 38.5 AND NOT ab2 THEN triage = "urgent"\n' in text
    assert ("    but an earlier rule of another class fires first:\n"
            '      rule 3 fires: IF temp >= 40 THEN triage = "emergency"\n'
            "        temp = 40.5, and 40.5 >= 40\n") in text
    assert e.to_dict()["why_not"]["rules"][1] == {"rule": 4, "fires": True, "preempted_by": 3}


def test_why_not_the_default_class_names_the_rule_that_keeps_the_row_from_it():
    e = aspml.explain(P, ROWS["first_rule"][0], why_not="routine")
    assert e.to_text().splitlines()[:3] == [
        'triage = "routine" does not hold for this row (its class is "emergency"):',
        '  "routine" is the default class: a row gets it when no rule of another class '
        'fires first, and here one does:',
        '    rule 1 fires: IF pulse > 120 AND NOT ab1 THEN triage = "emergency"']
    assert e.to_dict()["why_not"]["blocked_by"] == 1


def test_why_not_a_class_without_rules_and_the_class_the_row_has():
    p = Program(P.rules, Target("triage", classes=CLASSES + ("other",), default="routine"))
    text = aspml.explain(p, ROWS["no_rule"][0], why_not="other").to_text()
    assert '  no rule concludes "other", and it is not the default class\n' in text
    same = aspml.explain(P, ROWS["first_rule"][0], why_not="emergency")
    assert same.to_text().startswith('The row gets triage = "emergency"; the question why not '
                                     'does not arise. Why it gets it:\ntriage = "emergency" '
                                     'for this row because\n')


def test_why_not_names_a_class_or_is_one_clear_error():
    with pytest.raises(aspml.AspmlError, match=r"'nope' is not a class of the program "
                                               r'\(its classes: "emergency", "urgent", '
                                               r'"routine"\)'):
        aspml.explain(P, ROWS["first_rule"][0], why_not="nope")
    with pytest.raises(aspml.AspmlError, match="not an answer of this binary program"):
        aspml.explain(aspml.parse("flies(X) :- bird(X).", "asp"), {"bird": True}, why_not="x")
    # a binary program's why-not is its usual explanation (which says why it does not hold)
    birds = aspml.parse((GOLDEN / "birds.lp").read_text(), "asp")
    assert (aspml.explain(birds, {"bird": True, "penguin": True}, why_not=True).to_text()
            == aspml.explain(birds, {"bird": True, "penguin": True}).to_text())


# -- engines, minimal reasons, counterfactuals -----------------------------------------

def test_fast_path_and_clingo_explain_alike():
    for row in [r for r, _, _ in ROWS.values()] + grid():
        fast, slow = aspml.explain(P, row), aspml.explain(P, row, engine="clingo")
        assert fast.target == slow.target and fast.atoms == slow.atoms
        assert fast.prediction == slow.prediction
        assert fast.to_text() == slow.to_text()


@pytest.mark.parametrize("name", sorted(ROWS))
def test_minimal_reasons_force_the_class_and_rule_out_the_others(name):
    row = ROWS[name][0]
    e = aspml.explain(P, row, minimal=True)
    assert e.minimal and set(e.minimal) <= set(row)
    fixed = tuple(e.minimal)
    for d in CLASSES:
        if d == e.prediction:
            continue
        # with the reason's values kept, no change of the others gives another class
        assert aspml.counterfactual(P, row, target=d, immutable=fixed) is None
        why_not = aspml.explain(P, row, why_not=d, minimal=True)
        assert why_not.to_dict()["minimal_reason_rules_out"] == d
        # no minimal reason asked: nothing it rules out (a trial read d beside null)
        assert aspml.explain(P, row, why_not=d).to_dict()["minimal_reason_rules_out"] is None
        assert aspml.counterfactual(P, row, target=d, immutable=tuple(why_not.minimal)) is None
        # and minimal: each value dropped, d can be reached
        for f in why_not.minimal:
            rest = tuple(g for g in why_not.minimal if g != f)
            assert aspml.counterfactual(P, row, target=d, immutable=rest) is not None


def assert_class(program, row, cls):
    """The fast path and clingo (the program's asp print) give ``row`` the class ``cls``."""
    frame = pd.DataFrame([row])
    assert program.predict(frame)[0] == cls
    assert aspml.evaluate.classify(program, frame)[0] == cls
    assert aspml.asp.predict(program, frame)[0] == cls


@pytest.mark.parametrize("name", sorted(ROWS))
def test_counterfactual_to_every_other_class(name):
    row, cls, _ = ROWS[name]
    for d in CLASSES:
        cf = aspml.counterfactual(P, row, target=d)
        assert cf is not None and cf.label == d
        assert_class(P, cf.row, d)
        if d == cls:
            assert cf.changes == {} and cf.to_text(P).startswith("no change")
            continue
        assert cf.changes and all(o != n for o, n in cf.changes.values())
        k = first_rules(P, pd.DataFrame([cf.row]))[0]
        default = [i for i, r in enumerate(P.rules) if r.head is None]
        assert cf.rule == (default[k] if k >= 0 else None)
        # no single change would do when it took two
        if len(cf.changes) > 1:
            tries = {"pulse": (0, 120, 121), "pain": ("none", "mild", "severe", "x"),
                     "temp": (0, 38.5, 40), "age": (0, 12, 13, 29, 30)}
            for f, values in tries.items():
                for v in values:
                    if P.predict(pd.DataFrame([{**row, f: v}]))[0] == d:
                        raise AssertionError(f"{f} = {v} alone gives {d}, not found")


def test_counterfactual_worded_and_impossible_and_refused():
    cf = aspml.counterfactual(P, ROWS["no_rule"][0], target="emergency")
    assert cf.to_text(P) == ("change temp: 37 -> 40\nthen rule 3 is the first rule that fires: "
                             'IF temp >= 40 THEN triage = "emergency"\n')
    back = aspml.counterfactual(P, ROWS["later_rule"][0], target="routine")
    assert back.to_text(P).endswith('then no rule fires, and the default class applies: '
                                    'triage = "routine"\n')
    # temperature frozen and pulse frozen low: nothing gives an emergency
    assert aspml.counterfactual(P, ROWS["no_rule"][0], target="emergency",
                                immutable=("temp", "pulse")) is None
    # no class named: the nearest other class, as `aspml explain --counterfactual` (a new
    # user's trial found the command and Python disagreeing)
    row = ROWS["no_rule"][0]
    nearest = min((c for c in (aspml.counterfactual(P, row, target=k) for k in CLASSES
                               if k != "routine") if c is not None),
                  key=lambda c: (len(c.changes), c.distance))
    for cf in (aspml.counterfactual(P, row), aspml.counterfactual(P, row, target=None)):
        assert (cf.changes, cf.label, cf.rule) == (nearest.changes, nearest.label, nearest.rule)
    with pytest.raises(aspml.AspmlError, match="is not a class"):
        aspml.counterfactual(P, ROWS["no_rule"][0], target="later")
    # True and False are a binary program's answers, no class (True was the nearest)
    for answer in (True, False):
        with pytest.raises(aspml.AspmlError, match="is not a class"):
            aspml.counterfactual(P, row, target=answer)


def test_counterfactual_to_true_is_no_class_of_numbered_classes():
    """Classes 0, 1, 2: ``target=True`` was taken as "the nearest other class" where
    ``target=1`` is the class 1 (a new-user trial got 2 for row 60 of iris); now True is
    refused as any other non-class is, and ``target=1`` reaches the class 1."""
    from sklearn.datasets import load_iris
    X, y = load_iris(return_X_y=True, as_frame=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = aspml.FoldSE().fit(X, y)
    row = X.iloc[60]
    for answer in (True, np.True_, False, np.False_):
        with pytest.raises(aspml.AspmlError, match="is not a class"):
            aspml.counterfactual(clf, row, target=answer)
    own = clf.predict(X.iloc[[60]])[0]
    for k in (0, 1, 2):
        cf = aspml.counterfactual(clf, row, target=k)
        if k == own:
            assert cf is not None and not cf.changes
        elif cf is not None:
            assert cf.label == k and clf.predict(cf.row.to_frame().T)[0] == k


# -- golden texts ----------------------------------------------------------------------

def golden_text(program, row):
    e = aspml.explain(program, row, minimal=True)
    parts = [e.to_text()]
    for d in program.classes:
        if d != e.prediction:
            parts.append(aspml.explain(program, row, why_not=d, minimal=True).to_text())
            cf = aspml.counterfactual(program, row, target=d)
            parts.append("no counterfactual\n" if cf is None else cf.to_text(program))
    return "\n".join(parts)


@pytest.mark.parametrize("name", sorted(ROWS))
def test_golden(name):
    text = golden_text(P, ROWS[name][0])
    path = GOLDEN / "explain" / f"multiclass_{name}.txt"
    if os.environ.get("ASPML_REGEN_GOLDEN"):
        path.write_text(text)
    assert text == path.read_text()


# -- hostile class labels ----------------------------------------------------------------

HOSTILE = ('x"). :- label(0,_). %', "1", 1)


def test_hostile_labels_are_classes_not_program_text():
    p = triage(default=1, classes=HOSTILE)
    for row in [r for r, _, _ in ROWS.values()]:
        fast, slow = aspml.explain(p, row), aspml.explain(p, row, engine="clingo")
        assert fast.prediction == slow.prediction == p.predict(pd.DataFrame([row]))[0]
        assert fast.to_text() == slow.to_text()
        for d in HOSTILE:
            cf = aspml.counterfactual(p, row, target=d)
            assert cf is not None
            assert_class(p, cf.row, d)
    e = aspml.explain(p, ROWS["first_rule"][0])
    assert e.prediction == HOSTILE[0]
    assert e.to_text().startswith('triage = "x\\"). :- label(0,_). %" for this row because')
    # the class 1 and the class "1" stay two classes; text names the one that prints so
    assert aspml.explain(p, ROWS["no_rule"][0], why_not="1").why_not == "1"
    assert aspml.explain(p, ROWS["first_rule"][0], why_not=1).why_not == 1
    assert aspml.explain(p, ROWS["first_rule"][0], why_not='"1"').why_not == "1"
    json.dumps(e.to_dict())


def test_a_learned_multiclass_program_explains_its_rows():
    rng = np.random.default_rng(0)
    n = 240
    X = pd.DataFrame({"a": rng.integers(0, 10, n), "b": rng.choice(["p", "q", "r"], n)})
    y = np.where(X["a"] > 6, "high", np.where(X["b"] == "q", "mid", "low"))
    clf = aspml.FoldSE(tail=0).fit(X, y)
    p = clf.program_
    assert p.is_multiclass
    for k in range(0, n, 40):
        row = X.iloc[k]
        e = aspml.explain(clf, row)
        assert e.prediction == clf.predict(X.iloc[[k]])[0]
        for d in p.classes:
            cf = aspml.counterfactual(clf, row, target=d)
            assert cf is not None and clf.predict(pd.DataFrame([cf.row]))[0] == d
            assert_class(p, cf.row, d)
            assert all(float(n).is_integer() for _, n in cf.changes.values()
                       if isinstance(n, float))      # the training grain: whole numbers


# -- check and report figures ---------------------------------------------------------

FIG_X = pd.DataFrame([r for r, _, _ in ROWS.values()])
FIG_Y = pd.Series(["emergency", "urgent", "routine", "?", "routine", "urgent", "other"])


def test_class_figures_and_confusion_counted_by_hand():
    # predictions: emergency, emergency, routine, routine, routine, urgent, urgent
    f = class_figures(P, FIG_X, FIG_Y)
    by = {c["class"]: c for c in f["classes"]}
    assert by["emergency"] == {"class": "emergency", "rules": [1, 3], "default": False,
                               "given": 2, "labelled": 2, "actual": 1, "right": 1,
                               "precision": 0.5,
                               "recall": 1.0, "f1": 2 / 3}
    assert by["routine"]["given"] == 3 and by["routine"]["precision"] == 1.0
    assert by["urgent"]["given"] == 2 and by["urgent"]["right"] == 1
    assert by["urgent"]["precision"] == 0.5 and by["urgent"]["recall"] == 0.5
    rules = {r["index"]: r for r in f["rules"]}
    assert (rules[1]["covers"], rules[1]["decides"], rules[1]["precision"]) == (1, 1, 1.0)
    assert (rules[3]["covers"], rules[3]["decides"], rules[3]["precision"]) == (2, 1, 0.0)
    assert (rules[4]["covers"], rules[4]["decides"]) == (3, 1)
    assert rules[5]["class"] is None and rules[6]["covers"] == 1
    assert f["by_default"] == 3 and f["no_class"] == 0
    cm = confusion(P, FIG_X, FIG_Y)
    assert cm["classes"] == ["emergency", "urgent", "routine", "other"]
    assert cm["predicted"] == ["emergency", "urgent", "routine"]
    assert cm["matrix"] == [[1, 0, 0], [1, 1, 0], [0, 0, 2], [0, 1, 0]]
    assert cm["labelled"] == 6 and cm["accuracy"] == pytest.approx(4 / 6)
    # scikit-learn's f1_macro: "other", which the program never gives, counts at F1 0
    assert cm["macro_f1"] == pytest.approx((2 / 3 + 0.5 + 1.0 + 0.0) / 4)
    # labels read as text name the classes that print so; no default: a "no class" column
    p = triage(default=None, classes=(1, 2, 3))
    cm = confusion(p, FIG_X, ["1", "2", "3", "", "3", "2", "2"])
    assert cm["predicted"] == [1, 2, 3, None] and cm["classes"] == [1, 2, 3]
    assert cm["matrix"] == [[1, 0, 0, 0], [1, 2, 0, 0], [0, 0, 0, 2]]
    # F1 of 1, 2, 3, and "(no class)" (given 2 rows, none of it): as scikit-learn counts
    assert cm["macro_f1"] == pytest.approx((2 / 3 + 0.8 + 0.0 + 0.0) / 4)
    assert class_figures(p, FIG_X)["no_class"] == 3
    with pytest.raises(aspml.AspmlError, match="multi-class"):
        confusion(aspml.parse("flies(X) :- bird(X).", "asp"), FIG_X, FIG_Y)


def test_a_class_named_as_the_error_lists_it():
    """The "not a class" error lists the classes as the text print writes them, escaped
    and quoted ("a\\\\b"); a user who types one as listed, without the quotes, names it
    (a trial typed a\\\\b and was refused), as the raw text and the quoted form do."""
    from aspml.explain import resolve_class
    p = Program((Rule(None, (Compare("f", ">", 1),), label="a\\b"),),
                Target("y", classes=("a\\b", "x"), default="x"))
    with pytest.raises(aspml.AspmlError, match=r'"a\\\\b", "x"'):
        resolve_class(p, "zzz")
    for typed in ("a\\b", "a\\\\b", '"a\\\\b"'):
        assert resolve_class(p, typed) == "a\\b"


# A decision list FoldRpp learned on a random table (4 columns of "u", "v", "w", three
# classes).  The row below is decided by rule 4 (b = "v", c != "v", not ab1); the values
# {b, a} force its class too, through the default rule (rule 4 may then fail, and every
# other rule is blocked), and clingo's first core led there: beside a "because" that
# names rule 4.  The reason now keeps the deciding rule's columns where it can.
LATER_RULE = """\
label(X,"p") :- rule1(X).
label(X,"r") :- rule2(X), not rule1(X).
label(X,"r") :- rule3(X), not rule1(X).
label(X,"p") :- rule4(X), not rule2(X), not rule3(X).
label(X,"r") :- rule5(X), not rule1(X), not rule4(X).
label(X,"q") :- rule6(X), not rule1(X), not rule2(X), not rule3(X), not rule4(X), not rule5(X).
label(X,"r") :- rule7(X), not rule1(X), not rule4(X), not rule6(X).
label(X,"p") :- rule8(X), not rule2(X), not rule3(X), not rule5(X), not rule6(X), not rule7(X).
label(X,"q") :- rule9(X), not rule1(X), not rule2(X), not rule3(X), not rule4(X), not rule5(X), \
not rule7(X), not rule8(X).
label(X,"p") :- row(X), not rule2(X), not rule3(X), not rule5(X), not rule6(X), not rule7(X), \
not rule9(X).
rule1(X) :- d(X,"u"), not b(X,"w"), a(X,"u").
rule2(X) :- b(X,"w"), d(X,"w"), not a(X,"v"), not a(X,"u").
rule3(X) :- b(X,"v"), not c(X,"w"), not d(X,"w"), a(X,"v").
rule4(X) :- b(X,"v"), not c(X,"v"), not ab1(X).
rule5(X) :- a(X,"w"), not c(X,"v"), d(X,"v").
rule6(X) :- not d(X,"u"), a(X,"w").
rule7(X) :- not c(X,"w"), not b(X,"u"), a(X,"v").
rule8(X) :- not a(X,"u"), d(X,"u"), c(X,"v").
rule9(X) :- d(X,"v"), b(X,"w").
ab1(X) :- a(X,"u"), c(X,"u").
"""


def test_minimal_reason_rests_on_the_rule_that_decides(tmp_path):
    program = aspml.parse(LATER_RULE, "asp")
    row = {"a": "u", "b": "v", "c": "w", "d": "v"}
    e = aspml.explain(program, row, minimal=True)
    assert e.prediction == "p" and e.deciding_rule == 3
    assert e.minimal == {"b": "v", "c": "w"}
    # the reason alone makes rule 4 fire, whatever the other columns hold (the old
    # reason, {b, a}, left it to fail at c = "v")
    for a in "uvw":
        for d in "uvw":
            filled = aspml.explain(program, {**row, "a": a, "d": d})
            assert filled.prediction == "p" and 3 in filled.firing_rules
    # through the command line, from the program's file
    model, data = tmp_path / "m.lp", tmp_path / "rows.csv"
    program.save(model)
    pd.DataFrame([row]).to_csv(data, index=False)
    done = run_aspml("explain", model, data, "--row", "0", "--minimal", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["minimal_reason"] == {"b": "v", "c": "w"}
