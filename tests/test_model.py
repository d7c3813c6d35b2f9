"""The Program model: values, validation, and what a user asks of a program."""

import pytest

import aspml
from aspml import (AspmlError, Compare, Feature, InSet, Interval, NotAtom, ParseError, Program,
                   Rule, Schema, Target)


def example():
    return Program((
        Rule(None, (Compare("age", ">", 50), NotAtom("ab1"))),
        Rule(None, (InSet("city", frozenset(["Rome", "Oslo"])),)),
        Rule("ab1", (Compare("smoker", "==", "no"), NotAtom("ab2"))),
        Rule("ab2", (Interval("bmi", 30, None),)),
    ), Target("risk", "high"))


def test_values_are_immutable_hashable_and_structural():
    a, b = example(), example()
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    with pytest.raises(Exception):
        a.rules = ()
    assert Compare("x", "==", 50.0) == Compare("x", "==", 50)
    assert isinstance(Compare("x", "==", 50.0).value, int)


def test_what_a_user_asks():
    p = example()
    assert p.n_rules == 4 and p.n_literals == 6
    assert len(p.default_rules) == 2 and len(p.exception_rules) == 2
    assert p.features_used == ("age", "city", "smoker", "bmi")
    assert p.derived == ("ab1", "ab2") and p.strata() == ["ab2", "ab1"]
    assert [k.kind for k in p.schema.features] == ["numeric", "categorical", "categorical", "numeric"]
    assert p.rules_for("ab1")[0].exceptions == ("ab2",)


def test_invalid_literals_are_refused():
    with pytest.raises(AspmlError, match="need a number"):
        Compare("x", ">", "abc")
    with pytest.raises(AspmlError, match="unknown comparison"):
        Compare("x", "~", 1)
    with pytest.raises(AspmlError, match="empty"):
        InSet("x", frozenset())
    with pytest.raises(AspmlError, match="NUL"):
        Compare("x", "==", "a\x00b")
    with pytest.raises(AspmlError, match="finite"):
        Compare("x", "<", float("nan"))
    with pytest.raises(AspmlError, match="must match"):
        NotAtom("Ab1")
    with pytest.raises(AspmlError, match="lower end"):
        Interval("x", 5, 1)
    with pytest.raises(AspmlError, match="categorical but a literal on it needs a numeric"):
        Program((Rule(None, (Compare("x", ">", 1),)),), schema=Schema((Feature("x", "categorical"),)))


def test_unstratified_program_is_reported():
    p = Program((Rule(None, (NotAtom("ab1"),)), Rule("ab1", (NotAtom("ab2"),)),
                 Rule("ab2", (NotAtom("ab1"),))))
    with pytest.raises(AspmlError, match="not stratified: ab1 -> ab2 -> ab1"):
        p.strata()
    assert not aspml.asp.is_stratified(p)
    with pytest.raises(AspmlError, match="ab1, ab2"):
        aspml.asp.check_stratified(p)
    assert aspml.asp.is_stratified(example())


def test_scale_is_the_smallest_exact_power_of_ten():
    p = Program((Rule(None, (Compare("x", "<=", 1.25), Compare("y", ">", 3))),))
    assert p.schema["x"].scale == 100 and p.schema["y"].scale == 1
    given = Program(p.rules, schema=Schema((Feature("x", "numeric", 1000),)))
    assert given.schema["x"].scale == 1000


def test_numbers_no_scale_holds_are_ranked_in_asp():
    p = Program((Rule(None, (Compare("income", ">", 3_000_000_000),)),))
    assert p.schema["income"].scale is None
    assert "N1 > 2." in p.to_asp() and '"income" is written as ranks: 2 = 3000000000' in p.to_asp()
    q = Program((Rule(None, (Compare("weight", "<=", 0.1 + 0.2),)),))
    assert "N1 <= 2." in q.to_asp() and aspml.parse(q.to_asp(), "asp") == q
    assert "0.30000000000000004" in q.to_prolog()    # other dialects carry it as it is


def test_parse_errors_carry_line_column_and_excerpt():
    with pytest.raises(ParseError) as e:
        aspml.parse("label(X) :- age(X,N), N > 50.\nlabel(X) :- foo(X) bar(X).\n", "asp")
    assert (e.value.line, e.value.column) == (2, 20)
    assert "label(X) :- foo(X) bar(X)." in str(e.value) and "^" in e.value.excerpt
    with pytest.raises(ParseError, match="end of program"):
        aspml.parse("label(X) :- a(X)", "asp")
    with pytest.raises(ParseError, match="line 1"):
        aspml.parse("label(X) :- age(X,N), M > 3.", "asp")
    with pytest.raises(ParseError, match="no floating-point"):
        aspml.parse("label(X) :- age(X,N), N > 3.5.", "asp")
    with pytest.raises(ParseError, match="header is not valid JSON"):
        aspml.parse("% aspml: {oops\nlabel(X) :- a(X).", "asp")
    with pytest.raises(ParseError, match="unknown dialect"):
        aspml.parse("", "json")


def test_clingo_errors_point_at_the_program_line():
    from aspml import EngineError
    with pytest.raises(EngineError, match=r"line 2, column \d+.*\n.*bad\(X\) :-"):
        aspml.asp.solve(["ok(1).\nbad(X) :- .\n"], program_part=0)


@pytest.mark.parametrize("name", ["row", "number", "not", "aspml_cover", "is"])
def test_reserved_exception_names_are_refused(name):
    with pytest.raises(AspmlError, match="reserved") as e:
        NotAtom(name)
    # the name suggested is free, and not ab1 (an exception's name, a trial's column)
    suggested = str(e.value).rsplit("such as ", 1)[1]
    assert suggested != "ab1" and NotAtom(suggested).name == suggested


def test_saved_models_load_back_and_refuse_tampering(tmp_path):
    p = Program((Rule(None, (Compare("age", ">", 50.5), NotAtom("ab1"))),
                 Rule("ab1", (Compare("city", "==", 'Ro"me'),))), Target("risk", "high"),
                provenance={"learner": "hand"})
    path = tmp_path / "model.lp"
    p.save(path)
    assert aspml.load(path) == p
    assert aspml.asp.solve([path.read_text(), "#show."]) == [[]]     # still plain clingo input
    text = path.read_text()
    path.write_text(text.replace("505", "515"))
    with pytest.raises(AspmlError, match="changed after it was saved"):
        aspml.load(path)
    path.write_text("\n".join(text.splitlines()[:-3]))
    with pytest.raises(AspmlError, match="cut short"):
        aspml.load(path)
    with pytest.raises(AspmlError, match="cannot read"):
        aspml.load(tmp_path / "missing.lp")


def test_accented_names_keep_their_letters_in_predicates():
    """A name's accents are dropped, not its letters ("Ünï. %" was the predicate n)."""
    from aspml.logic.names import predicate_names
    target, chosen = predicate_names("Ünï. %", ["Ünï. %", "Größe", "café au lait", "ℌeight",
                                                "Temp ℃"], set())
    assert (target, chosen) == ("uni", {"Ünï. %": "uni_2", "Größe": "grosse",
                                        "café au lait": "cafe_au_lait", "ℌeight": "height",
                                        "Temp ℃": "temp_c"})
    p = aspml.Program((aspml.Rule(None, (aspml.Compare("Größe", ">", 3),)),),
                      aspml.Target("Ünï. %", "ja"))
    for dialect in ("asp", "prolog", "scasp"):
        assert aspml.parse(p.print(dialect), dialect) == p


def test_a_target_named_like_an_exception_is_refused():
    # label ab1 and exception ab1 would print ab1(X) :- not ab1(X): one predicate, two meanings
    with pytest.raises(AspmlError, match="also the name of an exception"):
        Program((Rule(None, (NotAtom("ab1"),)), Rule("ab1", (Compare("x", ">", 1),))),
                Target("ab1"))
