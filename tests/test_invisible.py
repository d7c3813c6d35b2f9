"""Invisible and right-to-left characters (issue #19): "rome" and "ro\u200bme" must not
look alike to the person reading the rules, and every dialect still round-trips.

Human-facing prints (text, explanations, the HTML report) show them as ``\\u200b``;
Prolog and s(CASP) quoted atoms as ``\\u200b`` escapes that SWI-Prolog reads back;
clingo strings have no such escape, so the asp print names them in a comment.
"""

import json

import pandas as pd
import pytest

import aspml
from aspml import Compare, Feature, Program, Rule, Schema, Target
from aspml.logic.names import invisible, visible
from conftest import run_aspml

ZWSP, RLO, LRI, PDI, LS, NEL = "\u200b", "\u202e", "\u2066", "\u2069", "\u2028", "\x85"
CITY = "ro" + ZWSP + "me"
NAME = "ci" + RLO + "ty"              # a feature name with a right-to-left override
LABEL = "ye" + LRI + "s" + PDI


def program():
    rule = Rule(None, (Compare(NAME, "==", CITY), Compare("n", ">", 2)))
    schema = Schema((Feature(NAME, "categorical"), Feature("n", "numeric", 1)))
    return Program((rule,), Target("label", LABEL, "n" + LS + "o" + NEL), schema)


ROWS = pd.DataFrame({NAME: ["rome", CITY, CITY, "ro" + ZWSP + ZWSP + "me"], "n": [5, 5, 1, 5]})


def seen(text: str) -> bool:
    return not any(invisible(ch) for ch in text.replace("\n", ""))


def test_visible_escapes_what_cannot_be_seen():
    assert visible(CITY) == "ro\\u200bme"
    assert visible("a\U000e0041 b\u00a0c") == "a\\U000e0041 b\\u00a0c"
    assert visible("plain é 日本") == "plain é 日本"


@pytest.mark.parametrize("dialect", ["asp", "prolog", "scasp", "text"])
def test_prints_show_invisible_characters_escaped_and_round_trip(dialect):
    p = program()
    text = p.print(dialect)
    assert aspml.parse(text, dialect) == p if dialect != "text" else (
        aspml.parse(text, dialect).rules == p.rules)
    if dialect == "asp":              # raw in clingo strings, named escaped in a comment
        comment = next(line for line in text.splitlines() if "invisible" in line)
        assert '"ro\\u200bme"' in comment and seen(comment)
    else:
        assert seen(text)
        assert "ro\\u200bme" in text


def test_text_print_is_what_a_person_can_tell_apart():
    text = program().to_text()
    assert 'IF "ci\\u202ety" = "ro\\u200bme" AND n > 2 THEN label = "ye\\u2066s\\u2069"' in text
    assert 'ELSE label = "n\\u2028o\\u0085"' in text


def test_engines_tell_the_strings_apart(swipl):
    p = program()
    want = [False, True, False, False]
    assert aspml.evaluate.predict(p, ROWS).tolist() == want
    assert aspml.asp.predict(p, ROWS).tolist() == want
    assert aspml.prolog.predict(p, ROWS).tolist() == want
    # the printed Prolog and s(CASP) texts load cleanly in SWI-Prolog
    assert aspml.prolog.consult_messages([p.to_prolog()]) == [""]


def test_explanations_show_escapes():
    p = program()
    e = aspml.explain(p, ROWS.iloc[[1]].reset_index(drop=True), minimal=True)
    text = e.to_text()
    assert seen(text), text
    assert "\"ci\\u202ety\" = \"ro\\u200bme\"" in text     # quoted, as the rule quotes it
    assert seen(json.loads(e.to_json())["target"]["rules"][0]["text"])
    cf = aspml.counterfactual(p, ROWS.iloc[[0]].reset_index(drop=True))
    assert cf is not None and seen(cf.to_text(p)) and "ci\\u202ety" in cf.to_text(p)


def test_cli_text_export_explain_and_report(tmp_path):
    model, data = tmp_path / "m.lp", tmp_path / "d.csv"
    program().save(model)
    ROWS.assign(label=[LABEL, "no", "no", "no"]).to_csv(data, index=False)
    r = run_aspml("export", model, "--to", "text")
    assert r.returncode == 0 and seen(r.stdout) and "ro\\u200bme" in r.stdout
    r = run_aspml("explain", model, data, "--row", "1")
    assert r.returncode == 0 and seen(r.stdout) and "ro\\u200bme" in r.stdout
    html = tmp_path / "r.html"
    r = run_aspml("report", model, data, "-o", html)
    assert r.returncode == 0, r.stderr
    page = html.read_text(encoding="utf-8")
    assert seen(page) and "ro\\u200bme" in page and "ci\\u202ety" in page


def test_error_excerpts_count_lines_as_the_parser_does():
    # U+2028 inside a string is no line break for lark or clingo: the excerpt names line 3
    text = 'label(X) :- f(X,"a\u2028b").\nlabel(X) :- g(X).\nlabel(X) :- h(X,N), N > .\n'
    with pytest.raises(aspml.ParseError) as e:
        aspml.parse(text, "asp")
    assert e.value.line == 3 and "h(X,N)" in str(e.value)
