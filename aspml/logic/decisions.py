"""The decision order of a multi-class program read from its label clauses.

A multi-class program printed in FOLD-RM's form says its order only through
negation: ``label(X,"b") :- rule2(X), not rule1(X).`` puts ``rule1`` before
``rule2``.  :func:`decision_order` recovers the order (a topological order of
"is negated by"; rules with no such link keep the order of their definitions)
and refuses any set of guards that is not a decision list: every rule must
negate every earlier rule of another class (it may also negate earlier rules
of its own class, as FOLD-RM does), and the default class's clause every rule
of another class.  Otherwise a row could get two classes, or the order would go
round in a circle.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import AspmlError


@dataclass(frozen=True)
class LabelClause:
    """``label(X,label) :- rule(X), not g1(X), ...``; ``rule`` is None for the default class."""

    label: object
    rule: str | None
    guards: tuple[str, ...]
    where: object = None        # the clause's position, for the parser's error


class OrderError(AspmlError):
    """The label clauses do not make a decision list; ``where`` is the clause at fault."""

    def __init__(self, message: str, where=None) -> None:
        super().__init__(message)
        self.where = where


def _show(label) -> str:
    return repr(label)


def decision_order(clauses, defined) -> tuple[list[LabelClause], LabelClause | None]:
    """``(rule clauses in decision order, the default class's clause or None)``.

    ``clauses`` are the label clauses in text order; ``defined`` the rule atoms in
    the order their rules are defined (ties in the order go that way).
    """
    by_rule: dict[str, LabelClause] = {}
    defaults = []
    for c in clauses:
        if c.rule is None:
            defaults.append(c)
        elif c.rule in by_rule:
            raise OrderError(f"two label clauses read {c.rule}: each rule of a decision list "
                             "concludes one class, in one clause", c.where)
        else:
            by_rule[c.rule] = c
        for g in c.guards:
            if g == c.rule:
                raise OrderError(f"the label clause of {g} negates {g} itself: it never holds",
                                 c.where)
    if len(defaults) > 1:
        raise OrderError("two label clauses read no rule: a decision list has one default "
                         f"class, not {_show(defaults[0].label)} and {_show(defaults[1].label)}",
                         defaults[1].where)
    rank = {name: i for i, name in enumerate(defined)}
    # Kahn's algorithm: a rule comes once every rule its clause negates has come
    waiting = {name: set(c.guards) & set(by_rule) for name, c in by_rule.items()}
    order: list[str] = []
    while waiting:
        ready = [n for n, needs in waiting.items() if not needs]
        if not ready:
            stuck = sorted(waiting, key=rank.get)
            raise OrderError("the label clauses' negations go round in a circle ("
                             + ", ".join(f"{n} negates {sorted(waiting[n], key=rank.get)[0]}"
                                         for n in stuck[:3])
                             + "): no rule comes first, so they give no decision order",
                             by_rule[stuck[0]].where)
        first = min(ready, key=rank.get)
        order.append(first)
        del waiting[first]
        for needs in waiting.values():
            needs.discard(first)
    ordered = [by_rule[n] for n in order]
    for i, c in enumerate(ordered):
        guards = set(c.guards)
        for earlier in ordered[:i]:
            if earlier.label != c.label and earlier.rule not in guards:
                raise OrderError(
                    f"{earlier.rule} (class {_show(earlier.label)}) and {c.rule} (class "
                    f"{_show(c.label)}): neither label clause negates the other, so a row where "
                    "both hold would get two classes; in a decision list each rule negates "
                    "every earlier rule of another class", c.where)
    default = defaults[0] if defaults else None
    if default is not None:
        guards = set(default.guards)
        for c in ordered:
            if c.label != default.label and c.rule not in guards:
                raise OrderError(
                    f"the default class {_show(default.label)} does not negate {c.rule} (class "
                    f"{_show(c.label)}): a row where {c.rule} holds would get two classes; the "
                    "default class's clause negates every rule of another class", default.where)
    return ordered, default
