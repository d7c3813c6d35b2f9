"""The clingo bridge: subsumption from rules-as-facts, answer sets as strings."""

import pytest

import aspml
from aspml import Compare, Flag, InSet, Interval, NotAtom, Rule


def R(*body):
    return Rule(None, tuple(body))


def test_interval_subsumption_respects_open_and_closed_ends():
    rules = [R(Interval("x", 0, 10)),                    # [0, 10)
             R(Interval("x", 0, 10, True, True)),        # [0, 10]
             R(Interval("x", 2, 5), Compare("c", "==", "a")),
             R(Compare("x", "<=", 3))]                   # (-inf, 3]
    pairs = aspml.asp.subsumption(rules)
    # [0,10) does not contain [0,10] (the point 10); (-inf,3] does not contain [2,5)
    assert pairs == [(0, 2), (1, 0), (1, 2)]


def test_definition_1_examples():
    general = R(Interval("walk", 0, 20), InSet("precip", frozenset(["no", "light"])))
    specific = R(Interval("walk", 5, 10), Compare("precip", "==", "no"), Compare("age", ">", 30))
    wider = R(Interval("walk", 5, 30))
    narrower = R(Interval("walk", 12, 30))
    pairs = aspml.asp.subsumption([general, specific, wider, narrower])
    assert pairs == [(0, 1), (2, 1), (2, 3)]


def test_sets_points_and_opaque_literals():
    rules = [R(InSet("c", frozenset(["a", "b", 1]))),
             R(Compare("c", "==", "a")),
             R(Interval("n", 1, 3, True, True)),
             R(InSet("n", frozenset([1, 2.5]))),
             R(NotAtom("ab1"), Flag("f")),
             R(NotAtom("ab1"), Flag("f"), Compare("c", "==", "b")),
             R()]
    pairs = set(aspml.asp.subsumption(rules))
    assert {(0, 1), (2, 3), (4, 5), (0, 5)} <= pairs
    assert all((6, j) in pairs for j in range(6))       # the empty body subsumes every rule
    assert (1, 0) not in pairs and (3, 2) not in pairs and (5, 4) not in pairs


def test_conditions_on_one_feature_are_intersected():
    # x > 1 and x < 5 together lie inside [0, 6]: shape inclusion (paper §3)
    pairs = aspml.asp.subsumption([R(Interval("x", 0, 6, True, True)),
                                   R(Compare("x", ">", 1), Compare("x", "<", 5))])
    assert pairs == [(0, 1)]


def test_subsumption_of_a_learned_style_program():
    p = aspml.parse("""
        IF age > 50 AND NOT ab1 THEN label = "yes"
        IF age > 60 AND NOT ab1 AND sex = "m" THEN label = "yes"
        IF bmi > 30 THEN ab1
    """, "text")
    assert aspml.asp.subsumption(p) == [(0, 1)]


def test_answer_sets_read_as_strings():
    model = aspml.asp.solve(["a(1). a(2). b(X) :- a(X), X > 1. #show b/1."])
    assert aspml.asp.atoms(model[0]) == ["b(2)"]
    with pytest.raises(aspml.EngineError, match="no answer set"):
        aspml.asp.solve(["a. :- a."])
