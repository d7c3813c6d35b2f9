"""Explanations: golden texts, fast path = clingo, minimal reasons and counterfactuals verified."""

import json
import os

import numpy as np
import pandas as pd
import pytest

import aspml
from aspml import Compare, Feature, InSet, Program, Rule, Schema, Target
from conftest import GOLDEN

BIRDS = aspml.parse((GOLDEN / "birds.lp").read_text(), "asp")
LOAN = aspml.parse((GOLDEN / "loan.txt").read_text(), "text")
BIRD_ROWS = {"tweety": {"bird": True}, "pingu": {"bird": True, "penguin": True},
             "zapper": {"bird": True, "penguin": True, "superpenguin": True}, "rocky": {}}
LOAN_ROWS = {
    "rich": {"income": 80000, "debt": 5000, "collateral": "car", "loan age": 5, "savings": 0},
    "indebted": {"income": 80000, "debt": 30000, "collateral": "car", "loan age": 5, "savings": 0},
    "secured": {"income": 80000, "debt": 30000, "collateral": "house", "loan age": 5,
                "savings": 0},
    "new_loan": {"income": 80000, "debt": 30000, "collateral": "house", "loan age": 1,
                 "savings": None},
    "poor": {"income": 20000, "debt": None, "collateral": None, "loan age": None, "savings": 500},
}


LOAN_RANGES = {"income": (0, 200000), "debt": (0, 100000), "savings": (0, 500000),
               "loan age": (0, 30)}


def golden_text(program, row, immutable=(), ranges=None):
    e = aspml.explain(program, row, minimal=True)
    cf = aspml.counterfactual(program, row, target=not e.prediction, immutable=immutable,
                              ranges=ranges)
    return e.to_text() + ("no counterfactual\n" if cf is None else cf.to_text(program))


def check_golden(name, text):
    path = GOLDEN / "explain" / f"{name}.txt"
    if os.environ.get("ASPML_REGEN_GOLDEN"):
        path.write_text(text)
    assert text == path.read_text()


@pytest.mark.parametrize("name", sorted(BIRD_ROWS))
def test_golden_birds(name):
    check_golden(f"birds_{name}", golden_text(BIRDS, BIRD_ROWS[name]))


@pytest.mark.parametrize("name", sorted(LOAN_ROWS))
def test_golden_loan_exceptions_nested_two_deep(name):
    check_golden(f"loan_{name}", golden_text(LOAN, LOAN_ROWS[name], immutable=("income",),
                                             ranges=LOAN_RANGES))


def heart_rows(data_dir):
    X = pd.read_csv(data_dir / "heart" / "heart.csv", dtype=str, keep_default_na=False)
    return X.drop(columns=["id", "label"])


def test_golden_fold_se_program_learned_on_heart(data_dir):
    program = aspml.parse((GOLDEN / "heart_foldse.lp").read_text(), "asp")
    X = heart_rows(data_dir)
    for k in (0, 1, 5):
        check_golden(f"heart_row{k}", golden_text(program, X.iloc[k]))


def assert_same(e_fast, e_clingo):
    assert e_fast.target == e_clingo.target
    assert e_fast.atoms == e_clingo.atoms
    assert e_fast.to_text() == e_clingo.to_text()


def test_fast_path_and_clingo_explanations_agree(data_dir):
    cases = [(BIRDS, r) for r in BIRD_ROWS.values()] + [(LOAN, r) for r in LOAN_ROWS.values()]
    program = aspml.parse((GOLDEN / "heart_foldse.lp").read_text(), "asp")
    X = heart_rows(data_dir)
    cases += [(program, X.iloc[k]) for k in range(0, 270, 9)]
    for p, row in cases:
        assert_same(aspml.explain(p, row), aspml.explain(p, row, engine="clingo"))


def test_firing_rules_minimal_reasons_and_counterfactuals_verified(data_dir):
    """On learned programs: clingo's firing rules, forced and minimal reasons, flipping changes."""
    program = aspml.parse((GOLDEN / "heart_foldse.lp").read_text(), "asp")
    X = heart_rows(data_dir).iloc[:40]
    cov = aspml.asp.coverage(program, X)
    default = [i for i, r in enumerate(program.rules) if r.head is None]
    for k in range(len(X)):
        row = X.iloc[k]
        e = aspml.explain(program, row, minimal=True)
        assert set(e.firing_rules) == {i for i in default if cov[k, i]}
        # the reason forces the answer: every row agreeing on it answers the same
        world = aspml.counterfactual(program, row, target=not e.prediction,
                                     immutable=tuple(e.minimal))
        assert world is None
        cf = aspml.counterfactual(program, row, target=not e.prediction)
        assert cf is not None and program.predict(pd.DataFrame([cf.row]))[0] != e.prediction
        assert set(cf.changes) and all(o != n for o, n in cf.changes.values())


def test_counterfactual_moves_just_past_the_threshold_and_respects_frozen_features():
    row = LOAN_ROWS["indebted"]
    cf = aspml.counterfactual(LOAN, row, target=True, ranges={"debt": (0, 100000)})
    assert cf.changes == {"debt": (30000, 19999.5)} and cf.rule == 0
    assert cf.distance == pytest.approx(10000.5 / 100000)
    frozen = aspml.counterfactual(LOAN, row, target=True, immutable=["debt"])
    assert "debt" not in frozen.changes
    assert LOAN.predict(pd.DataFrame([frozen.row]))[0]
    assert aspml.counterfactual(LOAN, row, target=True,
                                immutable=["debt", "collateral", "savings", "loan age"]) is None
    # the changed row keeps the name of the row asked about (a trial: X.iloc[5] gave 0)
    rows = pd.DataFrame([LOAN_ROWS["rich"], row], index=[7, 5])
    assert aspml.counterfactual(LOAN, rows.loc[5], target=True).row.name == 5
    assert aspml.counterfactual(LOAN, rows.loc[[5]], target=True).row.name == 5


def test_json_is_ready():
    e = aspml.explain(LOAN, LOAN_ROWS["secured"], minimal=True)
    d = json.loads(json.dumps(e.to_dict()))
    assert d["prediction"] is True and d["target"]["rules"][0]["fires"] is True
    assert d["supporting_atoms"] == ['ab2(0)', 'approve(0,"yes")']
    assert d["answer"] == "yes"             # as predict says it (a clinic trial: true only)


def test_supporting_atoms_name_the_row():
    # a dict has no number: row 0; a Series or one-row DataFrame its whole-number name;
    # row_id says it outright (a trial: explain --row 62 --json named row 0)
    rows = pd.DataFrame([LOAN_ROWS["rich"], LOAN_ROWS["secured"]], index=[4, 62])
    for engine in ("fast", "clingo"):
        assert aspml.explain(LOAN, rows.loc[62], engine=engine).atoms == \
            ('ab2(62)', 'approve(62,"yes")')
        assert aspml.explain(LOAN, rows.loc[[62]], engine=engine).atoms == \
            ('ab2(62)', 'approve(62,"yes")')
        assert aspml.explain(LOAN, rows.loc[62], engine=engine, row_id=1).atoms == \
            ('ab2(1)', 'approve(1,"yes")')
    named = pd.DataFrame([LOAN_ROWS["secured"]], index=["ann"])
    assert aspml.explain(LOAN, named.iloc[0]).atoms == ('ab2(0)', 'approve(0,"yes")')
    for bad in (-1, 1.5, True, "3"):
        with pytest.raises(aspml.AspmlError, match="row_id"):
            aspml.explain(LOAN, named.iloc[0], row_id=bad)


def test_bad_rows():
    with pytest.raises(aspml.AspmlError, match="one row"):
        aspml.explain(LOAN, pd.DataFrame([LOAN_ROWS["rich"]] * 2))
    with pytest.raises(aspml.AspmlError, match="immutable names unknown"):
        aspml.counterfactual(LOAN, LOAN_ROWS["rich"], target=False, immutable=["nope"])


def test_a_counterfactual_from_a_text_to_a_number_takes_the_number_the_rule_names():
    # a trial: ward "trail " (a mixed column) was moved to 999 for `ward <= 1000`; 1000,
    # the rule's own number, does as well and is a value the data holds
    p = aspml.parse('IF ward <= 1000 THEN y = "yes"\nELSE y = "no"\n', "text")
    p = p.with_schema(aspml.Schema((aspml.Feature("ward", "mixed", 1),)))
    cf = aspml.counterfactual(p, {"ward": "trail"}, target="yes")
    assert cf.changes == {"ward": ("trail", 1000)}
    strict = aspml.parse('IF ward < 1000 THEN y = "yes"\nELSE y = "no"\n', "text")
    strict = strict.with_schema(p.schema)
    assert aspml.counterfactual(strict, {"ward": "trail"}, target="yes").changes == \
        {"ward": ("trail", 999.5)}                # the grid point just below


@pytest.mark.parametrize("text, value, step, want", [
    ('IF x <= 3.8 THEN label = "yes"', 6.62, 1e-6, 3.8),
    ('IF x <= 7.19 THEN label = "yes"', 12.23, 0.01, 7.19),
    ('IF x > 7.19 THEN label = "yes"', 1.0, 0.01, 7.2)])
def test_a_counterfactual_stops_at_the_nearest_value_that_works(text, value, step, want):
    """A trial: x 6.62 went to 3.799999 beside the rule x <= 3.8 (each cost is rounded to
    a thousandth of the span, and the tie went to the lower value); the nearest value
    that gives the answer now wins a tie."""
    p = aspml.parse(text + '\nELSE label = "no"', "text")
    cf = aspml.counterfactual(p, {"x": value}, target="yes", steps={"x": step})
    assert cf.changes == {"x": (value, want)}


def test_a_binary_counterfactual_reads_its_target_as_a_label_or_refuses_it():
    """A trial: target="no" on a row approved gave "no change" (any text was True); the
    labels name the answers, and a value that is none of them is an error."""
    row = LOAN_ROWS["indebted"]                       # not approved
    assert not LOAN.predict(pd.DataFrame([row]))[0]
    wanted = aspml.counterfactual(LOAN, row, target=True, ranges={"debt": (0, 100000)})
    for same in ("yes", np.bool_(True)):
        got = aspml.counterfactual(LOAN, row, target=same, ranges={"debt": (0, 100000)})
        assert (got.changes, got.rule) == (wanted.changes, wanted.rule)
    assert wanted.changes
    rich = LOAN_ROWS["rich"]                          # approved: to "no"
    assert LOAN.predict(pd.DataFrame([rich]))[0]
    to_no = aspml.counterfactual(LOAN, rich, target="no")
    assert to_no.changes == aspml.counterfactual(LOAN, rich, target=False).changes != {}
    assert not LOAN.predict(pd.DataFrame([to_no.row]))[0]
    for bad in ("maybe", 2):
        with pytest.raises(aspml.AspmlError, match="not an answer of this binary program"):
            aspml.counterfactual(LOAN, rich, target=bad)
    # None is the default: the target holds (as True)
    for given in ({}, {"target": None}):
        got = aspml.counterfactual(LOAN, row, ranges={"debt": (0, 100000)}, **given)
        assert (got.changes, got.rule) == (wanted.changes, wanted.rule)
    numbered = aspml.parse("IF x > 3 THEN label = 1\nELSE label = 0", "text")
    for text, answer in (("1.0", True), ("0", False), (" 1", True)):
        got = aspml.counterfactual(numbered, {"x": 9 if not answer else 0}, target=text)
        assert numbered.predict(pd.DataFrame([got.row]))[0] == answer


def test_a_table_row_without_a_column_the_program_reads_is_refused_as_predict_does():
    """A trial: a row without ``age`` was explained as if its age were missing, and
    predict refused it.  A DataFrame or Series must hold the columns (None or NaN for an
    unknown value); a dict gives the values known."""
    full = pd.DataFrame([LOAN_ROWS["rich"]])
    short = full.drop(columns=["debt"])
    with pytest.raises(aspml.AspmlError, match="no column"):
        LOAN.predict(short)
    for row in (short, short.iloc[0]):
        for call in (lambda r: aspml.explain(LOAN, r),
                     lambda r: aspml.counterfactual(LOAN, r, target=False)):
            with pytest.raises(aspml.AspmlError, match=r"row has no column\(s\) \['debt'\]"):
                call(row)
    unknown = full.assign(debt=None)
    as_dict = {k: v for k, v in LOAN_ROWS["rich"].items() if k != "debt"}
    assert aspml.explain(LOAN, as_dict).to_dict() == aspml.explain(LOAN, unknown).to_dict()


def test_a_dict_key_spelt_unlike_the_column_is_noted():
    """A dict whose key is a column misspelt (``"dept"`` for ``"debt"``) left the column
    missing and flipped the answer with no word (a finance trial); explain and
    counterfactual note the absent column and the key written most like it (``Debt``
    too).  Not refused: a row of the training table less its missing values holds
    other columns by right (a review: ``feature_9`` beside an absent ``feature_3`` was
    refused).  Every column the program reads given: no word, whatever else is there;
    an absent column given as None: no word either."""
    import warnings

    from aspml.errors import AspmlWarning
    row = dict(LOAN_ROWS["rich"])
    for key in ("dept", "Debt"):
        typo = {(key if k == "debt" else k): v for k, v in row.items()}
        for call in (lambda r: aspml.explain(LOAN, r),
                     lambda r: aspml.counterfactual(LOAN, r, target=False)):
            with pytest.warns(AspmlWarning, match=rf"no column 'debt' \(the row has '{key}'\)"):
                call(typo)
        with pytest.warns(AspmlWarning):
            got = aspml.explain(LOAN, typo)
        assert got.to_dict() == aspml.explain(LOAN, full_row_with(row, debt=None)).to_dict()
    other = {k: v for k, v in row.items() if k != "debt"} | {"branch": "north"}
    with pytest.warns(AspmlWarning, match=r"no column 'debt', which.*\['branch'\]"):
        aspml.explain(LOAN, other)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        aspml.explain(LOAN, row | {"branch": "north"})
        aspml.explain(LOAN, {**row, "debt": None, "feature_9": 1})


def full_row_with(row, **values):
    return pd.DataFrame([{**row, **values}])


def test_a_hostile_feature_name_is_quoted_in_every_line_as_in_the_rule(tmp_path):
    """A name such as ``x = 3 AND y`` read bare in a reason line ("x = 3 AND y = "a b"")
    says something the rule does not; every line quotes it as the printed rule does."""
    from conftest import run_aspml
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"age, or not": rng.integers(20, 80, 200),
                      "x = 3 AND y": rng.choice(["a b", "c,d"], 200)})
    y = np.where((X["age, or not"] > 50) & (X["x = 3 AND y"] == "a b"), "yes", "no")
    program = aspml.FoldSE(positive="yes").fit(X, y).program_
    row = X.iloc[int(np.flatnonzero(y == "yes")[0])]
    text = aspml.explain(program, row, minimal=True).to_text()
    assert '\n    "x = 3 AND y" = "a b"\n' in text
    assert '\n    "age, or not" = ' in text
    assert 'answer: "x = 3 AND y" = "a b", "age, or not" = ' in text
    assert 'change "age, or not": ' in aspml.counterfactual(program, row, False).to_text(program)
    X.assign(label=y).to_csv(tmp_path / "h.csv", index=False)
    program.save(tmp_path / "h.lp")
    out = run_aspml("explain", tmp_path / "h.lp", tmp_path / "h.csv", "--row",
                    str(row.name), "--counterfactual")
    assert out.returncode == 0, out.stderr
    assert '    "x = 3 AND y" = "a b"\n' in out.stdout
    assert 'change "age, or not": ' in out.stdout


def test_a_flag_that_does_not_hold_says_whether_it_is_false_or_missing():
    """Negation as failure in words, with the row's value: a teacher's trial read a false
    flag and a missing one alike ("there is no evidence that penguin holds"), where a
    comparison says "debt is missing".  For ``f`` and ``NOT f``, in the text, JSON and
    HTML of one explanation; a background atom (derived, no value of the row) says so."""
    from aspml.display import explanation_html
    p = aspml.parse('IF bird AND NOT penguin THEN flies = "yes"\nIF bird AND NOT ab1 THEN flies = "yes"\n'
                    'ELSE flies = "no"\nIF penguin THEN ab1', "text")
    said = {"false": "there is no evidence that penguin holds (penguin = false)",
            "missing": "penguin is missing, so there is no evidence that it holds",
            "true": "penguin holds"}
    for value, words in (("false", said["false"]), ("missing", said["missing"]),
                         ("true", said["true"])):
        row = {"bird": True, **({} if value == "missing" else {"penguin": value == "true"})}
        e = aspml.explain(p, row)
        text = e.to_text()
        # rule 1's NOT penguin and rule 3's penguin (inside ab1) both read the value so
        assert [line.strip() for line in text.splitlines()].count(words) == 2, text
        assert words in _all_words(e.to_dict())
        assert words in explanation_html(e)
    kb = aspml.parse('IF NOT frail THEN ok = "yes"\nELSE ok = "no"\n'
                     '# background knowledge\nWHERE frail IF age > 80', "text")
    e = aspml.explain(kb, {"age": 50})
    words = "there is no evidence that frail holds (background knowledge)"
    assert f"  {words}:\n" in e.to_text()
    assert _all_words(e.to_dict()) == [words, "age = 50, and 50 > 80 is false"]


def _all_words(d) -> list:
    """Every literal's words in an explanation's JSON, exceptions' included."""
    if isinstance(d, dict):
        return ([d["words"]] if "words" in d else []) + [w for v in d.values()
                                                         for w in _all_words(v)]
    if isinstance(d, list):
        return [w for v in d for w in _all_words(v)]
    return []


def test_a_negated_comparison_that_fails_says_so_in_its_own_terms():
    """FOLD-SE's NOT (n3 <= -0.57) failing printed "-2.342 <= -0.57 is true", and a
    multi-class trial's reader had to turn the NOT round; holding, "... is false"."""
    p = aspml.parse('IF NOT (n3 <= -0.57) THEN y = "a"\nELSE y = "b"', "text")
    fails = aspml.explain(p, {"n3": -2.342}).to_text()
    assert "    n3 = -2.342, and -2.342 <= -0.57, so NOT (n3 <= -0.57) is false\n" in fails
    holds = aspml.explain(p, {"n3": 5}).to_text()
    assert "    n3 = 5, and 5 <= -0.57 is false\n" in holds


def test_counterfactual_ranges_are_checked():
    """A reversed range gave negative distances and the largest change came back as the
    nearest; an empty range or a misspelt name was taken without a word (a clinic trial)."""
    row = LOAN_ROWS["indebted"]
    good = aspml.counterfactual(LOAN, row, target=True, ranges={"debt": (0, 100000)})
    assert good.distance > 0
    # numpy's numbers, as a column's min and max give them, and a column of one value
    same = aspml.counterfactual(LOAN, row, target=True,
                                ranges={"debt": (np.int64(0), np.float32(100000))})
    assert (same.changes, same.distance) == (good.changes, good.distance)
    assert aspml.counterfactual(LOAN, row, target=True, ranges={"debt": (5, 5)}) is not None
    for bad, words in (({"debt": (100000, 0)}, "lo <= hi"),
                       ({"debt": (0, float("inf"))}, "finite"), ({"debt": (0,)}, r"\(lo, hi\)"),
                       ({"debt": ("0", 9)}, "two finite numbers"), ({"Debt": (0, 9)}, "does not read"),
                       ({"collateral": (0, 9)}, "categorical feature"), ([("debt", (0, 9))], "a dict")):
        with pytest.raises(aspml.AspmlError, match=words):
            aspml.counterfactual(LOAN, row, target=True, ranges=bad)


def test_a_long_set_is_cut_short_in_an_explanation_and_whole_in_its_json():
    """A rule on 40 codes printed them all on each line of an explanation (a clinic
    trial); the text shows 8 and how many more, the JSON and the program every value."""
    codes = [f"K{i:02d}" for i in range(40)]
    p = Program((Rule(None, (InSet("dx", frozenset(codes)), Compare("age", ">", 50))),),
                target=Target("sick", "yes", "no"),
                schema=Schema((Feature("dx", "categorical"), Feature("age"))))
    for row, word in (({"dx": "K07", "age": 60}, "one of"), ({"dx": "Z99", "age": 60}, "not one of")):
        text = aspml.explain(p, row).to_text()
        assert '"K00", "K01", "K02", "K03", "K04", "K05", "K06", "K07", ... 32 more of 40}' in text
        assert "K08" not in text and f"{word} {{" in text
        d = aspml.explain(p, row).to_dict()
        assert all(c in json.dumps(d) for c in codes)
    assert all(c in p.to_text() for c in codes)
    cf = aspml.counterfactual(p, {"dx": "K07", "age": 40}, target=True)
    assert "... 32 more of 40}" in cf.to_text(p)
    # a value past the first eight is said among the rest, on the value's line and the
    # rule's (a review: "K30, one of {K00 ... K07, ... 32 more}" hid it), and the JSON's
    # rule text is whole
    e = aspml.explain(p, {"dx": "K30", "age": 60})
    assert e.to_text().count('... 32 more of 40, among them "K30"}') == 2
    assert all(c in e.to_dict()["target"]["rules"][0]["text"] for c in codes)
    cf = aspml.counterfactual(p, {"dx": "K30", "age": 40}, target=True)
    assert '... 32 more of 40, among them "K30"}' in cf.to_text(p)
    # nine values are shown whole (cutting one would save nothing)
    nine = Program((Rule(None, (InSet("dx", frozenset(codes[:9])),)),),
                   target=Target("sick", "yes", "no"), schema=Schema((Feature("dx", "categorical"),)))
    assert '"K08"}' in aspml.explain(nine, {"dx": "K00"}).to_text()
