"""Why, why not, and what would change it: explanations of one row's prediction.

``explain(program, row)`` evaluates every literal of every rule on the row
(the fast path, or clingo with ``engine="clingo"``; both give the same
Explanation) and words the result the way s(CASP) justification trees read
("... holds because ...", "there is no evidence that ..."), always with the
row's own values and the numbers of the comparison.

``explain(program, row, minimal=True)`` adds a minimal sufficient reason: a
set of the row's feature values that alone forces the prediction and from
which no value can be dropped (found with clingo from an unsatisfiable core,
then shrunk and re-checked).  ``counterfactual(program, row, target=...)``
finds the fewest feature changes, then the smallest normalised distance, that
give the wanted prediction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .errors import AspmlError
from .evaluate import as_table, rule_masks, literal_mask
from .logic.model import (Compare, Flag, InSet, Interval, Literal, NotAtom, NotCompare, Program,
                          Rule)
from .logic.names import visible
from .logic.printers import LogicPrinter, text_head, text_literal, text_value
from .logic.values import is_number

MISSING = None


@dataclass(frozen=True)
class Check:
    """One literal on this row: does it hold, and with which value."""

    literal: Literal
    holds: bool
    value: object = None              # the row's value of the feature (None: missing)
    exception: "AtomExplanation | None" = None   # for ``not abK``: why abK does or does not hold


@dataclass(frozen=True)
class RuleCheck:
    index: int                        # position of the rule in the program
    rule: Rule
    fires: bool
    checks: tuple

    @property
    def failing(self) -> Check | None:
        """The first literal that fails (as a Prolog or s(CASP) engine would find it)."""
        return next((c for c in self.checks if not c.holds), None)


@dataclass(frozen=True)
class AtomExplanation:
    name: str | None                  # None: the target; else an exception name
    holds: bool
    rules: tuple

    @property
    def firing(self) -> tuple:
        return tuple(r for r in self.rules if r.fires)


@dataclass(frozen=True)
class Explanation:
    program: Program
    row: dict
    prediction: bool
    target: AtomExplanation
    minimal: dict | None = None       # feature -> value: a minimal sufficient reason
    engine: str = "fast"
    atoms: tuple = field(default=(), compare=False)

    @property
    def firing_rules(self) -> tuple[int, ...]:
        """Indices of the default rules that fire for this row."""
        return tuple(r.index for r in self.target.firing)

    def to_text(self) -> str:
        return _Words(self).text()

    def to_dict(self) -> dict:
        return {
            "prediction": bool(self.prediction),
            "target": _atom_dict(self.target, self.program),
            "minimal_reason": None if self.minimal is None
            else {k: _plain(v) for k, v in self.minimal.items()},
            "row": {k: _plain(v) for k, v in self.row.items()},
            "supporting_atoms": list(self.atoms),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False)


# ---------------------------------------------------------------------------
# building an explanation
# ---------------------------------------------------------------------------

def as_row(program: Program, row) -> pd.DataFrame:
    """One row as a one-row DataFrame of the program's features (missing ones: NaN)."""
    if isinstance(row, pd.DataFrame):
        if len(row) != 1:
            raise AspmlError(f"explain takes one row; got a table of {len(row)} rows (use .iloc[[i]])")
        frame = row.reset_index(drop=True)
    elif isinstance(row, (pd.Series, dict)):
        frame = pd.DataFrame([dict(row)])
    else:
        raise AspmlError(f"a row is a pandas Series, a dict or a one-row DataFrame, "
                         f"not {type(row).__name__}")
    for f in program.columns_used:          # background atoms are derived, not given
        if f not in frame.columns:
            frame[f] = np.nan
    return frame


def _value(table, feature: str):
    col = table[feature]
    if col.is_num[0]:
        v = float(col.num[0])
        return int(v) if v.is_integer() and col.kind != "boolean" else (bool(v) if col.kind == "boolean" else v)
    if col.code[0] >= 0:
        return col.categories[col.code[0]]
    return MISSING


def explain(program: Program, row, minimal: bool = False, engine: str = "fast",
            missing=None) -> Explanation:
    """Why the program predicts what it does for ``row`` (a Series, dict or one-row DataFrame).

    ``program`` is a Program or a fitted aspml estimator (its ``program_``).

    ``engine="clingo"`` reads every literal's truth from a clingo model of the
    one-row program instead of the fast path; the two explanations are equal.
    ``minimal=True`` adds a minimal sufficient reason (clingo).
    """
    from ._given import engine_program
    program = engine_program(program, "explain")
    frame = as_row(program, row)
    missing = program.missing if missing is None else missing
    table = as_table(program, frame, missing)          # background atoms derived
    if engine == "fast":
        truth, holds, atoms = _fast_truth(program, table)
    elif engine == "clingo":
        from .asp.explain import literal_truth
        truth, holds, atoms = literal_truth(program, frame, missing)
    else:
        raise AspmlError(f"engine must be 'fast' or 'clingo', got {engine!r}")
    values = {f: _value(table, f) for f in program.features_used}
    values.update({f: _value(table, f) for f in program.columns_used})
    built: dict = {}
    background = set(program.background_atoms)
    every = program.rules + program.background      # background rules numbered after the rules

    def atom(name):
        if name not in built:
            rules = []
            for i, r in enumerate(every):
                if r.head != name or (i >= len(program.rules)) != (name in background):
                    continue
                checks = []
                for j, lit in enumerate(r.body):
                    # a background atom is explained like an exception: by its rules
                    exc = (atom(lit.name) if isinstance(lit, NotAtom) else
                           atom(lit.feature) if isinstance(lit, Flag) and lit.feature in background
                           else None)
                    checks.append(Check(lit, bool(truth[i][j]),
                                        values.get(lit.feature) if lit.feature is not None else None,
                                        exc))
                rules.append(RuleCheck(i, r, all(c.holds for c in checks), tuple(checks)))
            built[name] = AtomExplanation(name, bool(holds.get(name, False)), tuple(rules))
        return built[name]

    target = atom(None)
    reason = None
    if minimal:
        from .asp.explain import minimal_reason
        reason = minimal_reason(program, frame, target.holds, missing)
    return Explanation(program, values, target.holds, target, reason, engine, tuple(atoms))


def _fast_truth(program: Program, table):
    """Truth of every literal (rule index -> list) and of every atom, from numpy masks."""
    _, derived, target = rule_masks(program, table)     # every exception finished
    truth = {i: [bool(literal_mask(lit, table, derived)[0]) for lit in r.body]
             for i, r in enumerate(program.rules + program.background)}
    holds = {None: bool(target[0]), **{d: bool(m[0]) for d, m in derived.items()},
             **{a: bool(table[a].num[0] == 1.0) for a in program.background_atoms}}
    printer = LogicPrinter(program, "asp")
    atoms = sorted(printer.head(Rule(h, ()), var="0") for h, v in holds.items() if v)
    return truth, holds, atoms


# ---------------------------------------------------------------------------
# words
# ---------------------------------------------------------------------------

def _show(value) -> str:
    if value is MISSING:
        return "missing"
    if isinstance(value, bool):
        return "true" if value else "false"
    return text_value(value)


def describe(check: Check) -> str:
    """One literal on the row, in words, with the row's value and the comparison's numbers."""
    lit, v, ok = check.literal, check.value, check.holds
    if isinstance(lit, NotAtom):
        return (f"there is no evidence that {lit.name} holds" if ok
                else f"the exception {lit.name} holds")
    name = visible(lit.feature)             # "ro\u200bme", not a name that reads "rome"
    if isinstance(lit, Flag):
        if lit.positive:
            return f"{name} holds" if ok else f"there is no evidence that {name} holds"
        return f"there is no evidence that {name} holds" if ok else f"{name} holds"
    if v is MISSING:
        if isinstance(lit, Compare) and lit.op == "!=":
            return f"{name} is missing, so it is not {text_value(lit.value)}"
        if isinstance(lit, NotCompare):
            return f"{name} is missing, so it is not {lit.op} {text_value(lit.value)}"
        return f"{name} is missing, so {text_literal(lit)} does not hold"
    have = f"{name} = {_show(v)}"
    if isinstance(lit, Compare):
        t = text_value(lit.value)
        if lit.op == "==":
            return have if ok else f"{have}, not {t}"
        if lit.op == "!=":
            return f"{have}, not {t}" if ok else have
        if not is_number(v):
            return f"{have}, which is not a number, so {name} {lit.op} {t} does not hold"
        sign = {"<=": "<=", "<": "<", ">": ">", ">=": ">="}[lit.op]
        return f"{have}, and {_show(v)} {sign} {t}" + ("" if ok else " is false")
    if isinstance(lit, NotCompare):
        t = text_value(lit.value)
        if not is_number(v):
            return f"{have}, which is not a number, so it is not {lit.op} {t}"
        return f"{have}, and {_show(v)} {lit.op} {t} is " + ("false" if ok else "true")
    if isinstance(lit, Interval):
        where = text_literal(lit).split(" in ", 1)[1]
        return f"{have}, " + ("in " if ok else "not in ") + where
    if isinstance(lit, InSet):
        where = text_literal(lit).split(" in ", 1)[1]
        return f"{have}, " + ("one of " if ok else "not one of ") + where
    return text_literal(lit)  # pragma: no cover


class _Words:
    def __init__(self, e: Explanation) -> None:
        self.e = e
        self.p = e.program
        self.lines: list[str] = []

    def head(self, name) -> str:
        if name is None:
            return text_head(self.p, Rule(None, ()))
        return name

    def text(self) -> str:
        t = self.e.target
        verdict = "holds" if t.holds else "does not hold"
        self.lines.append(f"{self.head(None)} {verdict} for this row"
                          + (" because" if t.holds else ":"))
        self.atom(t, 1)
        if self.e.minimal is not None:
            parts = [f"{visible(k)} = {_show(v)}" for k, v in self.e.minimal.items()]
            self.lines.append("These values alone are enough for this answer: "
                              + (", ".join(parts) if parts else "none (the program always answers so)")
                              + ".")
        return "\n".join(self.lines) + "\n"

    def atom(self, a: AtomExplanation, depth: int) -> None:
        pad = "  " * depth
        if not a.rules:
            self.lines.append(f"{pad}no rule defines {self.head(a.name)}")
            return
        for r in (a.firing if a.holds else a.rules):
            label = f"{'expert rule' if r.index in self.p.expert else 'rule'} {r.index + 1}"
            if r.fires:
                self.lines.append(f"{pad}{label} fires: IF {_cond(r.rule)} THEN {self.head(a.name)}")
                for c in r.checks:
                    self.check(c, depth + 1)
            else:
                self.lines.append(f"{pad}{label} does not fire: IF {_cond(r.rule)} THEN {self.head(a.name)}")
                self.check(r.failing, depth + 1)

    def check(self, c: Check, depth: int) -> None:
        pad = "  " * depth
        if isinstance(c.literal, NotAtom) and c.exception is not None:
            if c.holds:
                self.lines.append(f"{pad}there is no evidence that {c.literal.name} holds:")
            else:
                self.lines.append(f"{pad}the exception {c.literal.name} holds because")
            self.atom(c.exception, depth + 1)
            return
        if isinstance(c.literal, Flag) and c.exception is not None:     # a background atom
            name = visible(c.literal.feature)
            self.lines.append(f"{pad}{name} holds (background knowledge) because"
                              if c.exception.holds else
                              f"{pad}there is no evidence that {name} holds (background "
                              "knowledge):")
            self.atom(c.exception, depth + 1)
            return
        self.lines.append(f"{pad}{describe(c)}")


def _cond(rule: Rule) -> str:
    return " AND ".join(text_literal(lit) for lit in rule.body) or "TRUE"


def _plain(v):
    if isinstance(v, np.generic):
        return v.item()
    return v


def _atom_dict(a: AtomExplanation, program: Program) -> dict:
    return {
        "atom": "target" if a.name is None else a.name,
        "holds": a.holds,
        "rules": [{
            "rule": r.index + 1,
            **({"expert": True} if r.index in program.expert else {}),
            "text": f"IF {_cond(r.rule)} THEN {text_head(program, r.rule)}",
            "fires": r.fires,
            "literals": [{
                "literal": text_literal(c.literal),
                "holds": c.holds,
                "value": _plain(c.value),
                "words": describe(c),
                **({"exception": _atom_dict(c.exception, program)} if c.exception is not None else {}),
            } for c in r.checks],
        } for r in a.rules],
    }
