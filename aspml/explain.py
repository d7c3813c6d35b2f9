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
import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .errors import AspmlError, AspmlWarning
from .evaluate import as_table, rule_masks, literal_mask
from .logic.model import (Compare, Flag, InSet, Interval, Literal, NotAtom, NotCompare, Program,
                          Rule)
from .logic.names import text_name
from .logic.printers import LogicPrinter, text_head, text_literal, text_value
from .logic.values import is_number, read_as_csv

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

    @property
    def first_firing(self):
        """The first of the rules that fires (a multi-class target: the one that decides
        the row's class), or None."""
        return next((r for r in self.rules if r.fires), None)


@dataclass(frozen=True)
class Explanation:
    program: Program
    row: dict
    prediction: bool
    target: AtomExplanation
    minimal: dict | None = None       # feature -> value: a minimal sufficient reason
    engine: str = "fast"
    atoms: tuple = field(default=(), compare=False)
    why_not: object = None            # multi-class: the class asked about ("why not d?")

    @property
    def firing_rules(self) -> tuple[int, ...]:
        """Indices of the default rules that fire for this row."""
        return tuple(r.index for r in self.target.firing)

    @property
    def deciding_rule(self) -> int | None:
        """Multi-class: the index (in ``program.rules``) of the first default rule that fires,
        the one whose class the row gets; ``None`` when no rule fires (the default class)."""
        first = self.target.first_firing
        return None if first is None else first.index

    @property
    def earlier(self) -> tuple:
        """Multi-class: the RuleChecks of the earlier default rules of other classes (they
        all fail; else the row would have their class).  For a row no rule covers, every
        default rule of another class than the default."""
        return _earlier(self)

    def to_text(self) -> str:
        if self.program.is_multiclass:
            return _ClassWords(self).text()
        note = ""
        if self.why_not is not None and self.why_not == self.prediction:
            note = ("The row gets this answer; the question why not does not arise. "
                    "Why it gets it:\n")
        return note + _Words(self).text()

    def to_dict(self) -> dict:
        if self.program.is_multiclass:
            return _class_dict(self)
        return {
            "prediction": bool(self.prediction),
            # the answer as predict prints it (a clinic trial: only true/false was said)
            "answer": _plain(binary_answer(self.program, self.prediction)),
            "target": _atom_dict(self.target, self.program),
            "minimal_reason": None if self.minimal is None
            else {k: _plain(v) for k, v in self.minimal.items()},
            "row": {k: _plain(v) for k, v in self.row.items()},
            "supporting_atoms": list(self.atoms),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False)

    def _repr_html_(self) -> str:
        """Jupyter's view: a collapsible justification tree (:mod:`aspml.display`)."""
        from .display import explanation_html
        return explanation_html(self)


# ---------------------------------------------------------------------------
# building an explanation
# ---------------------------------------------------------------------------

def as_row(program: Program, row) -> pd.DataFrame:
    """One row as a one-row DataFrame.  A DataFrame or Series must hold every column the
    program reads, as ``predict`` asks (an unknown value is None or NaN: a trial's row
    without ``age`` was explained as if its age were missing, an answer ``predict``
    refused to give); a dict gives the row's known values, a column it leaves out is
    missing (``{"bird": True}``: the facts that hold)."""
    if isinstance(row, pd.DataFrame):
        if len(row) != 1:
            raise AspmlError(f"explain takes one row; got a table of {len(row)} rows (use .iloc[[i]])")
        frame = row.reset_index(drop=True)
    elif isinstance(row, (pd.Series, dict)):
        frame = pd.DataFrame([dict(row)])
    else:
        raise AspmlError(f"a row is a pandas Series, a dict or a one-row DataFrame, "
                         f"not {type(row).__name__}")
    from .data.table import column_sources
    found = column_sources(program.columns_used, frame.columns)   # " Col A" finds "Col A"
    absent = [f for f in program.columns_used if f not in found]   # (background atoms are
    if absent and not isinstance(row, dict):                       # derived, not given)
        raise AspmlError(f"the row has no column(s) {absent}; the program needs "
                         f"{list(program.columns_used)} (an unknown value is None or NaN)")
    if absent:
        _note_misspelt_keys(program, row, absent)
    for f in absent:
        frame[f] = np.nan
    return frame


def _note_misspelt_keys(program: Program, row: dict, absent: list) -> None:
    """A dict that leaves out a column the program reads gives a missing value there; when
    it also holds a key the program does not read, that key may be the column misspelt
    (a finance trial: ``"late payments (12 m)"`` for ``"(12m)"`` turned an approved
    applicant into a default, with no word).  A note names the absent columns and, for
    each, the key written most like it.  Not a refusal: a learned program keeps only the
    columns its rules read, and a row of the training table less its missing values
    (``df.iloc[i].dropna().to_dict()``) holds other columns by right (``feature_9``
    beside an absent ``feature_3``; a review)."""
    import difflib
    known = {str(n).strip() for n in (*program.schema.names, *program.columns_used)}
    unknown = [str(k) for k in row if str(k).strip() not in known]
    if not unknown:
        return
    folded = {k.strip().casefold(): k for k in unknown}
    guesses = []
    for f in absent:
        same = folded.get(str(f).strip().casefold())
        close = [same] if same else difflib.get_close_matches(str(f), unknown, n=1, cutoff=0.75)
        guesses.append(f"{f!r}" + (f" (the row has {close[0]!r})" if close else ""))
    warnings.warn(f"the row has no column {', '.join(guesses)}, which the program reads: read "
                  "as missing; keys the program does not read: "
                  f"{unknown[:5]}{' ...' if len(unknown) > 5 else ''} (give an unknown value "
                  "as None to say so)", AspmlWarning, stacklevel=4)


def _value(table, feature: str):
    col = table[feature]
    if col.is_num[0]:
        v = float(col.num[0])
        return int(v) if v.is_integer() and col.kind != "boolean" else (bool(v) if col.kind == "boolean" else v)
    if col.code[0] >= 0:
        return col.categories[col.code[0]]
    return MISSING


def explain(program: Program, row, minimal: bool = False, engine: str = "fast",
            missing=None, why_not=None, row_id=None) -> Explanation:
    """Why the program predicts what it does for ``row`` (a Series, dict or one-row DataFrame).

    ``program`` is a Program or a fitted aspml estimator (its ``program_``).

    ``engine="clingo"`` reads every literal's truth from a clingo model of the
    one-row program instead of the fast path; the two explanations are equal.
    ``minimal=True`` adds a minimal sufficient reason (clingo).

    A multi-class program's explanation answers "why class c": the default rule
    that decides the row (each literal with the row's value, each exception and
    why it does not hold) and, for every earlier default rule of another class,
    why it does not fire; for a row no rule covers, why each rule fails and that
    the default class applies.  ``why_not="d"`` answers "why not class d"
    instead: each rule of ``d`` and why it fails or is pre-empted by an earlier
    rule of another class (and, when ``d`` is the default class, which rule
    keeps the row from it); with ``minimal=True`` the minimal reason is then a
    set of the row's values that alone rules ``d`` out.  A class given as text
    (``"2"``, as the command line passes it) names the class it prints as.
    For a binary program ``why_not`` is the answer asked about (``True``, the
    positive label, ``False`` or the negative label); the explanation is the
    usual one, which already says why the row does not get the other answer.

    ``row_id``: the row's number in the supporting atoms (``approve(62,"yes")``), as
    ``aspml export --facts`` numbers the rows of a file; by default the index name of a
    Series or one-row DataFrame's row when it is a whole number (``X.iloc[62]``: of a
    frame split or sampled, its number in the whole table, not its position), else 0.
    """
    from ._given import engine_program
    program = engine_program(program, "explain")
    if why_not is not None:
        why_not = resolve_class(program, why_not, "why_not")
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
    prediction = target.holds
    if program.is_multiclass:
        first = target.first_firing
        prediction = program.target.default if first is None else first.rule.label
        atoms = _class_atoms(program, atoms, prediction)
    atoms = _numbered(atoms, _row_id(row, row_id))
    reason = None
    if minimal:
        from .asp.explain import minimal_reason
        if program.is_multiclass and why_not is not None and why_not != prediction:
            reason = minimal_reason(program, frame, prediction, missing, rule_out=why_not)
        else:
            # multi-class: the reason leans on the rule that decides the row, the one the
            # text names (a binary text names every rule that fires: no preference)
            first = target.first_firing if program.is_multiclass else None
            reason = minimal_reason(program, frame, prediction, missing,
                                    prefer=() if first is None else
                                    _rule_columns(program, first.rule))
    return Explanation(program, values, prediction, target, reason, engine, tuple(atoms),
                       why_not)


def _rule_columns(program: Program, rule) -> dict:
    """The columns a rule reads, ``{column: rank}``: its literals' 2, its exceptions' (and
    theirs) 1; a background atom's, the columns it is derived from."""
    background, ranks, seen = set(program.background_atoms), {}, set()
    todo = [(rule, 2)]
    while todo:
        r, rank = todo.pop()
        for f in r.features:
            for c in (program.background_columns(f) if f in background else (f,)):
                ranks[c] = max(ranks.get(c, 0), rank)
        for name in r.exceptions:
            if name not in seen:
                seen.add(name)
                todo.extend((e, 1) for e in program.rules_for(name))
    return ranks


def binary_answer(program: Program, holds: bool):
    """A binary program's answer as ``predict`` gives it: its positive label where the
    target holds, else its negative one (``not yes`` when it has none); True or False
    for a target without labels."""
    t = program.target
    if t.positive is None:
        return bool(holds)
    if holds:
        return t.positive
    return t.negative if t.negative is not None else f"not {t.positive}"


def resolve_class(program: Program, value, what: str = "class"):
    """The class of ``program`` that ``value`` names: the class itself, or its text (the
    command line's ``--why-not 2`` for the class 2).  A binary program's answers are
    ``True`` / ``False`` or its positive and negative labels.  Anything else: one error
    that lists the classes."""
    if not program.is_multiclass:
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
        t = program.target
        for label, answer in ((t.positive, True), (t.negative, False)):
            if label is not None and (_same(value, label) or
                                      (isinstance(value, str) and value == str(label))):
                return answer
        for label, answer in ((t.positive, True), (t.negative, False)):
            if isinstance(label, str) and isinstance(value, str) and \
                    read_as_csv(label) == read_as_csv(value):      # as a CSV reads " yes"
                return answer
        for label, answer in ((t.positive, True), (t.negative, False)):
            if _number_names(value, label):         # "1.0" for the label 1, as for a class
                return answer
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            # the command line's --why-not True: the answers the message below lists (a
            # program without labels has no other names for them)
            return value.strip().lower() == "true"
        shown = "".join(f", {v!r}" for v in (t.positive, t.negative) if v is not None)
        raise AspmlError(f"{what}: {value!r} is not an answer of this binary program "
                         f"(True, False{shown})")
    choices = program.classes
    exact = [c for c in choices if _same(value, c)]
    if exact:
        return exact[0]
    if isinstance(value, str):          # the text of a class: "2" for 2, '"b"' or b for "b"
        named = [c for c in choices if value in (str(c), text_value(c))]
        if not named:       # " hi" fitted in Python is "hi" read from a CSV (data.md)
            named = [c for c in choices if isinstance(c, str)
                     and read_as_csv(c) == read_as_csv(value)]
        if not named:       # "2.0" for the class 2, as Python's 2.0 names it
            named = [c for c in choices if _number_names(value, c)]
        if not named:       # as the error below lists it, without its quotes: a\\b for a\b
            named = [c for c in choices if isinstance(c, str)
                     and text_value(c)[1:-1] == value]
        if len(named) == 1:
            return named[0]
        if len(named) > 1:
            raise AspmlError(f"{what}: {value!r} could be any of the classes {named}; "
                             "pass the class itself")
    raise AspmlError(f"{what}: {value!r} is not a class of the program (its classes: "
                     + ", ".join(text_value(c) for c in choices) + ")")


def _number_names(text, label) -> bool:
    """``text`` writes the number ``label`` is (``"2.0"`` for the class 2)."""
    if not isinstance(text, str) or label is None or isinstance(label, str):
        return False
    from .data.table import _as_number
    number = _as_number(text)
    return number is not None and _same(number, label)


def _same(a, b) -> bool:
    """Equal values of one kind: 2 and 2.0 are one class, True is not the class 1."""
    if isinstance(a, (bool, np.bool_)) or isinstance(b, (bool, np.bool_)):
        return False
    if isinstance(a, str) != isinstance(b, str):
        return False
    try:
        return a == b
    except Exception:                 # noqa: BLE001 - an odd object is no class
        return False


def _row_id(row, row_id) -> int:
    """The row's number in its supporting atoms: ``row_id``, else the whole-number name of a
    Series or one-row DataFrame (a trial: ``explain --row 62 --json`` named row 0), else 0."""
    if row_id is None:
        name = (row.name if isinstance(row, pd.Series) else
                row.index[0] if isinstance(row, pd.DataFrame) and len(row) == 1 else 0)
        return int(name) if isinstance(name, (int, np.integer)) and \
            not isinstance(name, (bool, np.bool_)) and name >= 0 else 0
    if isinstance(row_id, (bool, np.bool_)) or not isinstance(row_id, (int, np.integer)) \
            or row_id < 0:
        raise AspmlError(f"row_id is a row's number (0 or more), not {row_id!r}")
    return int(row_id)


def _numbered(atoms, row_id: int) -> list:
    """The atoms of the one-row program (row 0) as atoms of row ``row_id``."""
    if row_id == 0:
        return list(atoms)
    out = []
    for a in atoms:
        name, sep, rest = a.partition("(")
        if sep and rest[:1] == "0" and rest[1:2] in (",", ")"):
            a = f"{name}({row_id}{rest[1:]}"
        out.append(a)
    return out


def _class_atoms(program: Program, atoms, prediction) -> list:
    """The supporting atoms of a multi-class explanation: the exceptions and background
    atoms that hold, and the class atom ``label(0,"c")`` (not the binary view's ``label(0)``)."""
    printer = LogicPrinter(program, "asp")
    name = printer.naming.target
    out = [a for a in atoms if a != f"{name}(0)"]
    if prediction is not None:
        out.append(f"{name}(0,{printer.label(prediction)})")
    return sorted(set(out))


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
    name = text_name(lit.feature)   # quoted as the printed rule quotes it ("ro\u200bme", "a, b")
    if isinstance(lit, Flag) and check.exception is not None:
        # a background atom: the theory derives it, the row holds no value of it
        return (f"{name} holds (background knowledge)" if check.exception.holds else
                f"there is no evidence that {name} holds (background knowledge)")
    if isinstance(lit, Flag):
        if lit.positive == ok:
            return f"{name} holds"
        # negation as failure, with the row's own value: a flag that is false and one
        # that is missing read alike (a teacher's trial), and a reader asks which it was
        if v is MISSING:
            return f"{name} is missing, so there is no evidence that it holds"
        return f"there is no evidence that {name} holds ({name} = {_show(v)})"
    if v is MISSING:
        if isinstance(lit, Compare) and lit.op == "!=":
            return f"{name} is missing, so it is not {text_value(lit.value)}"
        if isinstance(lit, NotCompare):
            return f"{name} is missing, so it is not {lit.op} {text_value(lit.value)}"
        if isinstance(lit, Interval) and lit.any_number:
            return f"{name} is missing, not a number"
        return f"{name} is missing, so {_literal_text(lit)} does not hold"
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
        if ok:
            return f"{have}, and {_show(v)} {lit.op} {t} is false"
        # the literal fails because its comparison holds (a trial read "... is true" and
        # had to turn the NOT round itself)
        return f"{have}, and {_show(v)} {lit.op} {t}, so NOT ({name} {lit.op} {t}) is false"
    if isinstance(lit, Interval) and lit.any_number:
        return f"{have}, " + ("a number" if ok else "not a number")
    if isinstance(lit, Interval):
        where = text_literal(lit).split(" in ", 1)[1]
        return f"{have}, " + ("in " if ok else "not in ") + where
    if isinstance(lit, InSet):
        return f"{have}, " + ("one of " if ok else "not one of ") + _members(lit, v)
    return text_literal(lit)  # pragma: no cover


# an explanation shows this many values of a set, then how many more (a clinic trial: a
# rule on 70 diagnosis codes printed them all on each of its lines); the program's print
# and each rule's "text" and "literal" in to_dict (--json) keep every value
SHOWN_VALUES = 8


def _members(lit: InSet, keep=None) -> str:
    """``{"a", "b", ... 67 more of 75}``: a set's values as the text print writes them,
    the first :data:`SHOWN_VALUES` of a longer one and their count, and ``keep`` (the
    row's value) among them when it is one of the rest (a review: "C11, one of {C00 ...
    C07, ... 4 more}" did not show the value the line is about)."""
    members = lit.sorted_members()
    values = [text_value(v) for v in members]
    if len(values) <= SHOWN_VALUES + 1:
        return "{" + ", ".join(values) + "}"
    rest = values[SHOWN_VALUES:]
    named = (text_value(keep) if keep is not None and keep is not MISSING
             and any(_same(keep, m) for m in members) else None)
    among = f", among them {named}" if named is not None and named in rest else ""
    return ("{" + ", ".join(values[:SHOWN_VALUES])
            + f", ... {len(rest)} more of {len(values)}{among}}}")


def _literal_text(lit, row=None) -> str:
    """A literal in an explanation's rule line: as the text print writes it, a long set
    cut short (:func:`_members`, keeping ``row``'s value of its feature)."""
    if isinstance(lit, InSet):
        keep = None if row is None else row.get(lit.feature)
        return f"{text_name(lit.feature)} in {_members(lit, keep)}"
    return text_literal(lit)


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
            parts = [f"{text_name(k)} = {_show(v)}" for k, v in self.e.minimal.items()]
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
            label = _rule_name(self.p, r)
            if r.fires:
                self.lines.append(f"{pad}{label} fires: IF {_cond(r.rule, self.e.row)} "
                                  f"THEN {self.head(a.name)}")
                for c in r.checks:
                    self.check(c, depth + 1)
            else:
                self.lines.append(f"{pad}{label} does not fire: IF {_cond(r.rule, self.e.row)} "
                                  f"THEN {self.head(a.name)}")
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
            self.lines.append(f"{pad}{describe(c)}" + (" because" if c.exception.holds
                                                       else ":"))
            self.atom(c.exception, depth + 1)
            return
        self.lines.append(f"{pad}{describe(c)}")


def _rule_name(program: Program, r: RuleCheck) -> str:
    """``rule 3`` (``expert rule 3`` for a rule the expert fixed): its number in the program."""
    return f"{'expert rule' if r.index in program.expert else 'rule'} {r.index + 1}"


def _cond(rule: Rule, row=None, full: bool = False) -> str:
    """A rule's conditions as an explanation writes them (long sets cut short, keeping
    ``row``'s values); ``full``: as the text print writes them (every value)."""
    return " AND ".join(text_literal(lit) if full else _literal_text(lit, row)
                        for lit in rule.body) or "TRUE"


def class_head(program: Program, label) -> str:
    """``label = "setosa"``: a multi-class target with one of its classes."""
    return f"{text_name(program.target.name)} = {text_value(label)}"


def _earlier(e: Explanation) -> tuple:
    if not e.program.is_multiclass:
        return ()
    rules = e.target.rules                  # the default rules, in order
    decided = next((k for k, r in enumerate(rules) if r.fires), len(rules))
    return tuple(rules[j] for j in e.program.guards(decided))


class _ClassWords:
    """A multi-class explanation in words: why class c, or why not class d."""

    def __init__(self, e: Explanation) -> None:
        self.e = e
        self.p = e.program
        self.words = _Words(e)          # literals and exceptions are worded as in binary programs
        self.lines = self.words.lines

    def rule(self, r: RuleCheck, depth: int, detail: bool = True) -> None:
        pad = "  " * depth
        label = _rule_name(self.p, r)
        verb = "fires" if r.fires else "does not fire"
        self.lines.append(f"{pad}{label} {verb}: IF {_cond(r.rule, self.e.row)} "
                          f"THEN {text_head(self.p, r.rule)}")
        if not detail:
            return
        for c in (r.checks if r.fires else (r.failing,)):
            self.words.check(c, depth + 1)

    def text(self) -> str:
        e = self.e
        if e.why_not is not None and e.why_not != e.prediction:
            self.why_not(e.why_not)
        else:
            if e.why_not is not None:
                self.lines.append(f"The row gets {class_head(self.p, e.why_not)}; the question "
                                  "why not does not arise. Why it gets it:")
            self.why()
        return "\n".join(self.lines) + "\n"

    def why(self) -> None:
        e, p = self.e, self.p
        rules = e.target.rules
        first = e.target.first_firing
        if first is not None:
            self.lines.append(f"{class_head(p, e.prediction)} for this row because")
            self.rule(first, 1)
            earlier = _earlier(e)
            if earlier:
                self.lines.append("  and no earlier rule of another class fires:")
                for r in earlier:
                    self.rule(r, 2)
            elif first is rules[0]:
                self.lines.append("  and it is the first rule of the list")
            else:
                self.lines.append("  and no earlier rule concludes another class")
        elif e.prediction is not None:
            self.lines.append(f"{class_head(p, e.prediction)} for this row because no rule "
                              f"covers it, and {text_value(e.prediction)} is the default class:")
            for r in rules:
                self.rule(r, 1)
        else:
            self.lines.append(f"{text_name(p.target.name)} has no class for this row: no rule "
                              "covers it, and the program has no default class:")
            for r in rules:
                self.rule(r, 1)
        if not rules:
            self.lines.append("  (the program has no rules)")
        self.minimal(f"for {class_head(p, e.prediction)}" if e.prediction is not None
                     else "to leave the row without a class")

    def why_not(self, d) -> None:
        e, p = self.e, self.p
        rules = e.target.rules
        got = ("it has no class" if e.prediction is None
               else f"its class is {text_value(e.prediction)}")
        self.lines.append(f"{class_head(p, d)} does not hold for this row ({got}):")
        first = e.target.first_firing
        own = [r for r in rules if r.rule.label == d]
        for r in own:
            self.rule(r, 1)
            if r.fires:                 # then an earlier rule of another class fired first
                self.lines.append("    but an earlier rule of another class fires first:")
                self.rule(first, 3)
        if d == p.target.default:
            self.lines.append(f"  {text_value(d)} is the default class: a row gets it when no "
                              "rule of another class fires first, and here one does:")
            self.rule(first, 2)
        elif not own:
            self.lines.append(f"  no rule concludes {text_value(d)}, and it is not the "
                              "default class")
        self.minimal(f"to rule out {class_head(p, d)}")

    def minimal(self, what: str) -> None:
        if self.e.minimal is None:
            return
        parts = [f"{text_name(k)} = {_show(v)}" for k, v in self.e.minimal.items()]
        self.lines.append(f"These values alone are enough {what}: "
                          + (", ".join(parts) if parts else "none (the program always answers so)")
                          + ".")


def _rule_dict(r: RuleCheck, program: Program) -> dict:
    return {
        "rule": r.index + 1,
        **({"expert": True} if r.index in program.expert else {}),
        **({"class": _plain(r.rule.label)} if r.rule.label is not None else {}),
        "text": f"IF {_cond(r.rule, full=True)} THEN {text_head(program, r.rule)}",
        "fires": r.fires,
        "literals": [{
            "literal": text_literal(c.literal),
            "holds": c.holds,
            "value": _plain(c.value),
            "words": describe(c),
            **({"exception": _atom_dict(c.exception, program)} if c.exception is not None else {}),
        } for c in r.checks],
    }


def _class_dict(e: Explanation) -> dict:
    """The whole multi-class explanation: every default rule (with its literals and
    exceptions), which one decides, the earlier rules of other classes, and the why-not."""
    p = e.program
    rules = e.target.rules
    first = e.target.first_firing
    out = {
        "prediction": _plain(e.prediction),
        "classes": [_plain(c) for c in p.classes],
        "default_class": _plain(p.target.default),
        "decided_by": None if first is None else first.index + 1,
        "default_applies": first is None,
        "earlier": [r.index + 1 for r in _earlier(e)],
        "target": _atom_dict(e.target, p),
        "why_not": None,
        "minimal_reason": None if e.minimal is None
        else {k: _plain(v) for k, v in e.minimal.items()},
        "row": {k: _plain(v) for k, v in e.row.items()},
        "supporting_atoms": list(e.atoms),
    }
    if e.why_not is not None:
        d = e.why_not
        out["why_not"] = {
            "class": _plain(d),
            "holds": d == e.prediction,
            "is_default_class": d == p.target.default,
            "rules": [{"rule": r.index + 1, "fires": r.fires,
                       "preempted_by": first.index + 1 if r.fires and first is not r else None}
                      for r in rules if r.rule.label == d],
            "blocked_by": (first.index + 1 if d == p.target.default and first is not None
                           and first.rule.label != d else None),
        }
    # what the minimal reason forces: the row's class, or (asked why not d) that d is ruled out
    # (None without a minimal reason: a trial read a class beside "minimal_reason": null)
    out["minimal_reason_rules_out"] = (_plain(e.why_not) if e.why_not is not None
                                       and e.why_not != e.prediction
                                       and out.get("minimal_reason") is not None else None)
    return out


def _plain(v):
    if isinstance(v, np.generic):
        return v.item()
    return v


def _atom_dict(a: AtomExplanation, program: Program) -> dict:
    return {
        "atom": "target" if a.name is None else a.name,
        "holds": a.holds,
        "rules": [_rule_dict(r, program) for r in a.rules],
    }
