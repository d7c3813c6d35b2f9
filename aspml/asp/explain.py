"""clingo's side of explanations: literal truth, minimal sufficient reasons, counterfactuals.

One row is a small world: each feature the program reads takes one value
from a finite set of representatives — every constant of the program, the
integers just below and just above each threshold (the program is printed at
twice its scale, so such integers exist), one category no literal names, the
row's own value, and "missing" — so every way the program could treat the
feature is there.  A ranked feature (no scale holds its numbers) takes every
rank: each constant, and in each gap between them one number (the row's own,
else the one next to the row's side of the gap).  ``encodings/world.lp`` chooses a value per feature;
assumptions keep chosen features at the row's values.

* A **minimal sufficient reason** is a set of features whose row values
  force the prediction: with them fixed, no choice of the others gives the
  other answer.  clingo reports an unsatisfiable core over the assumptions;
  it is shrunk by deletion until no value can be dropped.
* A **counterfactual** is the best model of the world asked for the other
  answer, with ``encodings/counterfactual.lp``: fewest changed features, then
  the smallest distance (normalised per feature as in §3.2 of the
  rule-generalization paper: |x - x'| / range for numbers, 1 for a category).
  A feature with a *step* (1: whole numbers, 0.1: one decimal) takes only
  multiples of it, so a count never becomes 9.5.  Features change
  independently: a column derived from another (``age_cat`` from ``age``) is
  not kept consistent; name one of them immutable.
"""

from __future__ import annotations

import math
import numbers
import warnings
from dataclasses import dataclass, field
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

import clingo
import numpy as np
import pandas as pd

from .._given import engine_program
from ..data.facts import clingo_numbers, program_limits
from ..data.table import encode_column
from ..errors import AspmlError
from ..evaluate import as_table
from ..logic.model import Interval, Program, Rule
from ..logic.names import clingo_string, text_name
from ..logic.printers import LogicPrinter, Naming, feature_numbers, rank_tables
from ..logic.values import INT32_MAX, fits, is_number
from . import _prepare, encoding
from .solve import Session, solve

OTHER = "(any other value)"
COST_SCALE = 1000


def _holding_atoms(model, naming: Naming, program: Program) -> list[str]:
    heads = ({naming.target} | set(program.derived)
             | {naming.preds[a] for a in program.background_atoms})
    return sorted(str(s) for s in model if s.name in heads)


def literal_truth(program: Program, frame: pd.DataFrame, missing=None):
    """Truth of every body literal and every atom for a one-row frame, read from clingo."""
    program = engine_program(program, "literal_truth")
    program2, naming, table, facts = _prepare(program, frame, missing)
    printer = LogicPrinter(program2, "asp")
    extra = []
    every = program2.rules + program2.background    # background rules numbered after the rules
    for i, r in enumerate(every):
        for j, lit in enumerate(r.body):
            extra.append(printer.rule(Rule(None, (lit,)), head=f"aspml_lit({i},{j},X)"))
    atoms = {naming.preds[a]: a for a in program.background_atoms}
    shows = [f"#show {naming.target}/{1 if program.target.positive is None else 2}.",
             "#show aspml_lit/3."] + [f"#show {d}/1." for d in [*program.derived, *atoms]]
    if program.is_multiclass:                   # label(X,c): the class, from clingo too
        shows[0] = f"#show {naming.target}/2."
    model = solve([program2.to_asp(), facts, "\n".join(extra), "\n".join(shows)],
                  program_part=0)[0]
    lit_true = {(s.arguments[0].number, s.arguments[1].number) for s in model
                if s.name == "aspml_lit"}
    truth = {i: [(i, j) in lit_true for j in range(len(r.body))] for i, r in enumerate(every)}
    names = {s.name for s in model}
    fires = any(r.head is None and all(truth[i]) for i, r in enumerate(every))
    if program.is_multiclass:
        # clingo's class (the printed program's label(0,c)) must be the one the decision
        # list gives from clingo's literal truth
        terms = [str(s.arguments[1]) for s in model if s.name == naming.target]
        first = next((r for i, r in enumerate(every) if r.head is None and all(truth[i])), None)
        expected = program.target.default if first is None else first.label
        if terms != ([] if expected is None else [printer.label(expected)]):
            raise AspmlError(f"internal error: clingo gives the row the classes {terms}, "
                             f"its rules {expected!r}")
    holds = {None: fires if program.is_multiclass else naming.target in names,
             **{d: d in names for d in program.derived},
             **{a: p in names for p, a in atoms.items()}}
    return truth, holds, _holding_atoms(model, naming, program)


# ---------------------------------------------------------------------------
# the world of one row
# ---------------------------------------------------------------------------

@dataclass
class _Domain:
    feature: str
    terms: list            # clingo terms (text)
    values: list           # the Python value of each term (None: missing)
    orig: str              # the term of the row's own value
    other: object = None   # the value that stands for any value the program does not name


class _World:
    def __init__(self, program: Program, frame: pd.DataFrame, missing, ranges=None,
                 steps=None) -> None:
        self.program = program      # engine_program's: the program's own names
        self.steps = _checked_steps(steps or {})
        table = as_table(program, frame, missing)
        self.missing = missing
        self.ranks = rank_tables(program)
        limits, constants = program_limits(program), feature_numbers(program)
        base = {}
        for f in program.schema.features:
            # twice the program's scale, a point between two of its grid points, and the
            # grid holding every multiple of the step; without the step, then at the
            # program's own scale, where its constants at that (and at twice that, for a
            # value finer than it) are no integers of clingo's (the program's own always
            # is: a chosen scale leaves room for four times it)
            own, step = f.scale or 1, self.steps.get(f.name)
            tries = [2 * own, own]
            if step is not None and step < 1:
                tries = [math.lcm(t, round(1 / step)) for t in tries] + tries
            base[f.name] = next((t for t in tries
                                 if fits(constants.get(f.name, ()), 2 * t, INT32_MAX)), own)
            if step is not None and step < 1 and base[f.name] % round(1 / step):
                # a step the grid cannot hold is dropped: its multiples between grid points
                # were rounded onto others, and no change was found (a review: a step of
                # 0.001 on constants in millions)
                del self.steps[f.name]
        numbers = clingo_numbers(table, base, limits, self.ranks)
        self.scales = {n: base[n] * numbers[n][1] for n in numbers if n not in self.ranks}
        self.p2 = program.at_scales(self.scales)
        self.naming = Naming.of(self.p2)
        self.table = table
        self.ranges = ranges or {}
        # the data's columns vary; the printed background rules derive the atoms from them
        self.domains = [self._domain(f, numbers.get(f)) for f in program.columns_used]

    def _constants(self, feature: str):
        return [v for lit in self.program.literals if lit.feature == feature for v in lit.values()]

    def _domain(self, feature: str, numbers) -> _Domain:
        col = self.table[feature]
        kind = self.program.schema[feature].kind
        terms, values = ["none"], [None]
        if kind == "boolean":
            # a flag that does not hold: the row's own value when it is missing (a trial's
            # explanation said "f = false" of a row without f)
            values[0] = None if col.missing[0] else False
            terms.append("1")
            values.append(True)
            orig = "1" if (col.is_num[0] and col.num[0] == 1.0) else "none"
            return _Domain(feature, terms, values, orig)
        consts = self._constants(feature)
        orig, other = "none", None
        if feature in self.ranks:
            orig = self._ranked(feature, col, numbers, terms, values)
        elif kind in ("numeric", "mixed"):
            s = self.scales[feature]
            step = self.steps.get(feature)
            ints = set()
            for v in consts:
                if is_number(v) and step is None:   # just below, at and just above
                    k = round(v * s)
                    ints.update((k - 1, k, k + 1))
                elif is_number(v):                  # the multiples of the step around v
                    lo, hi = math.floor(v / step), math.ceil(v / step)
                    ints.update(round(n * step * s) for n in (lo - 1, lo, hi, hi + 1))
            if col.is_num[0]:
                own = int(numbers[0][0])
                ints.add(own)
                orig = str(own)
            if not ints and any(isinstance(lit, Interval) and lit.lo is None and lit.hi is None
                                and lit.feature == feature for lit in self.program.literals):
                # no number named and none held: one stands for every number, which the
                # program's "f is a number" (an interval open at both ends) reads (without
                # it, a trial's row missing f could never hold one: a false minimal reason,
                # and no counterfactual where giving f a number was one)
                ints.add(self._some_number(feature, s))
            for k in sorted(ints):
                terms.append(str(k))
                values.append(int(k // s) if k % s == 0 else k / s)
        if col.is_num[0]:                      # the row's own number, even between grid points
            own_value = float(col.num[0])
            values[terms.index(orig)] = int(own_value) if own_value.is_integer() else own_value
        if kind in ("categorical", "mixed"):
            # a text no data can hold (" lead": a value is read without its leading
            # spaces) is no world: a trial's counterfactual chose it, and the row then
            # read did not change its answer
            strings = sorted(self._readable(feature, {v for v in consts if isinstance(v, str)}))
            own = col.categories[col.code[0]] if col.code[0] >= 0 else None
            if own is not None and own not in strings:
                strings.append(own)
            other = _placeholder(strings)
            for v in strings + [other]:
                terms.append(clingo_string(v))
                values.append(v)
            if own is not None:
                orig = clingo_string(own)
        return _Domain(feature, terms, values, orig, other)

    def _some_number(self, feature: str, scale) -> int:
        """The scaled number that stands for any number: 0, or the low end of the
        feature's range when 0 lies outside it (the step's multiple at or above it)."""
        lo, hi = self.ranges.get(feature, (None, None))
        value = lo if lo is not None and hi is not None and not lo <= 0 <= hi else 0
        step = self.steps.get(feature)
        if step:                                # a multiple of the feature's step
            value = math.ceil(value / step) * step
        return math.ceil(value * scale)

    def _readable(self, feature: str, texts: set) -> set:
        """The ``texts`` a row of data can hold in ``feature`` (each read alone, as a value
        of the column is: a text reads the same whatever its neighbours)."""
        if not texts:
            return set()
        texts = sorted(texts)
        missing = self.program.missing if self.missing is None else self.missing
        with warnings.catch_warnings():     # (the row's own reading gave the notes)
            warnings.simplefilter("ignore")
            col = encode_column(pd.Series(texts, dtype=object), self.program.schema[feature],
                                missing)
        return {v for v, c in zip(texts, col.code) if c >= 0 and col.categories[c] == v}

    def _ranked(self, feature, col, numbers, terms, values) -> str:
        """Every rank of a ranked feature as a term, with a number of its own; the row's term."""
        table = self.ranks[feature]
        own = int(numbers[0][0]) if col.is_num[0] else None
        ref = max(abs(float(t)) for t in table)     # the thresholds' size, not the row's
        for code in range(1, 2 * len(table) + 2):
            if code == own:
                v = float(col.num[0])
                v = int(v) if v.is_integer() else v
            elif code % 2 == 0:
                v = table[code // 2 - 1]
            else:
                lo = table[code // 2 - 1] if code > 1 else None
                hi = table[code // 2] if code // 2 < len(table) else None
                v = _in_gap(lo, hi, own is not None and own < code, ref)
                if v is None:
                    continue                   # no float64 lies strictly between lo and hi
            terms.append(str(code))
            values.append(v)
        return "none" if own is None else str(own)

    def facts(self) -> str:
        lines = ["row(0)."]
        for d in self.domains:
            f = clingo_string(d.feature)
            pred = self.naming.preds[d.feature]
            lines.append(f"aspml_feature({f}). aspml_orig({f},{d.orig}).")
            lines.extend(f"aspml_dom({f},{t})." for t in d.terms)
            if self.program.schema[d.feature].kind == "boolean":
                lines.append(f"aspml_flag({f}). {pred}(0) :- aspml_pick({f},1).")
            else:
                lines.append(f"{pred}(0,V) :- aspml_pick({f},V), V != none.")
        return "\n".join(lines)

    def target_atom(self) -> str:
        return LogicPrinter(self.p2, "asp").head(Rule(None, ()), var="0")

    def require(self, answer) -> str:
        """The constraint that keeps the worlds with ``answer``: True / False for a binary
        program; for a multi-class one ``("is", c)``, ``("not", c)`` (a class), ``"some"``
        (some class) or ``"none"`` (no class)."""
        if not self.program.is_multiclass:
            atom = self.target_atom()
            return f":- not {atom}." if answer else f":- {atom}."
        printer = LogicPrinter(self.p2, "asp")
        if answer in ("some", "none"):            # the printed program's label(0,C)
            some = f"aspml_some_class :- {printer.naming.target}(0,_)."
            return some + (" :- not aspml_some_class." if answer == "some"
                           else " :- aspml_some_class.")
        how, c = answer
        atom = f"{printer.naming.target}(0,{printer.label(c)})"
        return f":- not {atom}." if how == "is" else f":- {atom}."

    def session(self, answer, extra=()) -> Session:
        cover = LogicPrinter(self.p2, "asp")
        # (reading the aspml_part atoms the split program defines, not grounding them again)
        covers = [cover.split_rule(r, i, head=f"aspml_fires({i},X)", parts=False)
                  for i, r in enumerate(self.p2.rules) if r.head is None]
        # each rule's features apart: every feature here ranges over its domain
        parts = [cover.program(split=True), self.facts(), encoding("world"),
                 self.require(answer),
                 "\n".join(covers), "#show aspml_pick/2. #show aspml_fires/2.", *extra]
        return Session(parts, program_part=0)

    def fix_literals(self, s: Session) -> dict:
        return {d.feature: s.literal(clingo.Function("aspml_fix", [clingo.String(d.feature)]))
                for d in self.domains}


def minimal_reason(program: Program, frame: pd.DataFrame, prediction,
                   missing=None, rule_out=None, prefer=()) -> dict:
    """A subset-minimal set of the row's values that forces ``prediction`` (feature -> value).

    Multi-class: ``prediction`` is the row's class (``None``: no class); with ``rule_out``
    a class the row does not get, the values force only that the row's class is not
    ``rule_out`` ("why not d").

    ``prefer``: features to keep where a choice remains, ``{feature: rank}`` (the rule the
    explanation says decides the row: its literals' columns 2, its exceptions' 1): the
    others are dropped first, then the lower ranks, and a solver's core never drops
    them, so a reason that rests on that rule is found more often (a trial's reason
    rested on a later rule of the same class, beside a "because" naming the first)."""
    program = engine_program(program, "minimal_reason")
    world = _World(program, frame, missing)
    if not program.is_multiclass:
        other = not prediction
    elif rule_out is not None:
        other = ("is", rule_out)
    else:
        other = "some" if prediction is None else ("not", prediction)
    s = world.session(other)                     # look for a world with another answer
    fix = world.fix_literals(s)
    sat, core, _ = s.solve(list(fix.values()))
    if sat:
        raise AspmlError("the row's own values do not force its prediction; "
                         "is the program stratified?")
    prefer = dict(prefer)
    kept = [f for f in fix if not core or fix[f] in set(core) or f in prefer]
    # deletion: drop what is not needed, the preferred features last (a superset of a
    # core still forces the answer: fixing more values allows fewer worlds)
    for f in sorted(kept, key=lambda g: prefer.get(g, 0)):
        if f not in kept:
            continue
        trial = [fix[g] for g in kept if g != f]
        sat, core, _ = s.solve(trial)
        if not sat:                              # the core of what still forces it
            inside = set(core) if core else set(trial)
            kept = [g for g in kept if g != f and (fix[g] in inside or g in prefer)]
    # re-check: kept forces the answer.  Each value kept was needed when it was tried,
    # and stays needed: fixing fewer values only allows more worlds (monotone), so no
    # second pass over them
    assert not s.solve([fix[g] for g in kept])[0]
    order = {d.feature: d for d in world.domains}
    return {f: order[f].values[order[f].terms.index(order[f].orig)] for f in kept}


@dataclass(frozen=True)
class Counterfactual:
    """The changed row, the changes ``{feature: (old, new)}`` and the rule that then fires."""

    row: pd.Series
    changes: dict
    rule: int | None            # index of a default rule that fires in the changed row
    distance: float
    label: object = None        # multi-class: the class the changed row gets
    # the features changed to any value the program does not name: their new value in
    # ``changes`` and ``row`` is a placeholder text, ``(any other value)`` (with a number
    # when the program or the row has that very text), never a value the program names
    # or the row holds
    any_other: tuple = ()
    # the program it was found for (its rule is shown in words); not part of the value
    program: Program | None = field(default=None, compare=False, repr=False)

    def _repr_html_(self) -> str:
        """Jupyter's view: the changes as a table, and the rule that then fires."""
        from ..display import counterfactual_html
        return counterfactual_html(self)

    def to_text(self, program: Program | None = None) -> str:
        parts = [f"{text_name(f)}: {_show(o)} -> {_show(n, f in self.any_other)}"
                 for f, (o, n) in self.changes.items()]
        text = "change " + "; ".join(parts)
        if program is not None and program.is_multiclass:
            from ..explain import _cond, class_head
            if not parts:
                text = "no change: the row already gets " + class_head(program, self.label)
            if self.rule is not None:
                rule = program.rules[self.rule]
                text += (f"\nthen rule {self.rule + 1} is the first rule that fires: "
                         f"IF {_cond(rule, self.row)} THEN {class_head(program, rule.label)}")
            else:
                text += (f"\nthen no rule fires, and the default class applies: "
                         f"{class_head(program, self.label)}")
        elif program is not None:
            from ..explain import _cond
            from ..logic.model import Rule
            from ..logic.printers import text_head, text_otherwise
            if not parts:                   # the row already gets the answer asked for
                answer = (text_head(program, Rule(None, ())) if self.rule is not None
                          else text_otherwise(program))
                text = f"no change: the row already gets {answer}"
            if self.rule is not None:
                body = _cond(program.rules[self.rule], self.row)
                head = text_head(program, Rule(None, ()))
                text += (f"\n{'then ' if parts else ''}rule {self.rule + 1} fires: IF {body} "
                         f"THEN {head}")
        return text + "\n"


def _placeholder(names) -> str:
    """The text that stands for any value the program does not name: :data:`OTHER`, or
    when the program names or the row holds that very text (``names``), ``(any other
    value 2)`` and so on, so that it never stands for a value the program reads."""
    other, k = OTHER, 2
    while other in names:
        other, k = f"(any other value {k})", k + 1
    return other


def _show(v, other: bool = False) -> str:
    """A counterfactual's value as written; ``other``: the placeholder for any value the
    program does not name (unquoted: not a value)."""
    from ..explain import _show as show
    return v if other else show(v)


def counterfactual(program: Program, row, target=None, immutable=(), ranges=None,
                   missing=None, steps=None) -> Counterfactual | None:
    """The fewest changes to ``row`` (then the smallest distance) that give ``target``.

    ``target`` is the wanted answer: for a binary program True (the target holds) or
    False, or the program's positive or negative label, ``"no"``; by default (None) the
    answer the row does not get, as ``aspml explain --counterfactual`` (a docs trial: the
    default was True, and a positive row got "no change" in Python, a change on the
    command line); anything else is an error.  For a multi-class program the class the row
    should get, by default (None) the nearest other class: of fewest changes, then of
    smallest distance (as ``aspml explain --counterfactual``; None when no class can be
    reached); True and False are no class there, and are refused (with classes 0, 1
    and 2, True would read as the class 1).  ``immutable``
    names features that may not change; ``ranges`` gives ``{feature: (lo, hi)}``
    for the normalised distance (default: the span of the program's thresholds
    and the row's value).  ``steps`` gives ``{feature: step}``: a changed number
    is a multiple of its step (1 keeps whole numbers whole; :func:`steps_of`
    reads them from a table); for a learned program (or a fitted
    estimator) they default to the grain of the numbers it was learned from, which its
    schema keeps (``x100``: a step of 0.01), so that a row gets the same answer from
    every door; a program written by hand says no grain (just past a threshold).
    Returns None when no change can give ``target``.
    The changed row is checked on the fast path before it is returned.
    """
    from ..explain import as_row
    program = engine_program(program, "counterfactual")
    if steps is None and learned_from_data(program):
        # a learned program: the grain of the numbers it was learned from (x100: 0.01)
        steps = {f.name: 1 / f.scale for f in program.schema.features if f.scale}
    frame = as_row(program, row)
    if program.is_multiclass:
        from ..explain import resolve_class
        if target is None:      # the nearest other class, as the command
            from ..evaluate import classify
            own = classify(program, frame, missing)[0]
            found = [c for c in (counterfactual(program, frame, k, immutable, ranges, missing,
                                                steps)
                                 for k in program.classes if k != own) if c is not None]
            return min(found, key=lambda c: (len(c.changes), c.distance), default=None)
        target = resolve_class(program, target, "target")
        goal = ("is", target)
    else:       # True, False or a label of the program ("no" was True, as any text)
        from ..explain import resolve_class
        if target is None:      # the other answer, as the command
            from ..evaluate import predict
            target = not bool(predict(program, frame, missing)[0])
        goal = target = resolve_class(program, target, "target")
    ranges = _checked_ranges(program, ranges)
    world = _World(program, frame, missing, ranges, steps)
    derived = [f for f in immutable if f in program.background_atoms]
    if derived:                         # the atom follows from columns that would change
        columns = ", ".join(map(repr, program.background_columns(derived[0])))
        raise AspmlError(f"immutable names {derived[0]!r}, a background atom its rules derive "
                         f"from the columns {columns}: name those immutable to keep it")
    unknown = [f for f in immutable if f not in program.schema and f not in frame.columns]
    if unknown:
        raise AspmlError(f"immutable names unknown feature(s) {unknown}")
    costs, fixed = [], []
    cap = (2**31 - 1) // (2 * max(1, len(world.domains)))
    for n, d in enumerate(world.domains):
        f = clingo_string(d.feature)
        own = d.values[d.terms.index(d.orig)]
        # the last tie-break: the value nearest the row's own first (a cost is rounded to
        # 1/COST_SCALE of the span, and a trial's x 6.62 went to 3.799999 beside a rule
        # x <= 3.8, one grain past the nearest value that works)
        # (from a text or a missing value there is no nearest number: a number the program
        # names first, then the grid points beside it; a trial was told to change a ward
        # "trail " to 999 for `ward <= 1000`, where 1000, a value rows hold, did as well)
        named = {v for v in world._constants(d.feature) if is_number(v)}
        near = sorted(range(len(d.terms)), key=lambda k: (0, abs(d.values[k] - own), k)
                      if is_number(d.values[k]) and is_number(own)
                      else (1, 0.0 if d.values[k] in named else 1.0, k))
        costs.extend(f"aspml_rank({f},{d.terms[k]},{n * 1000 + r})." for r, k in enumerate(near))
        if d.feature in immutable:
            fixed.append(f"aspml_immutable({f}).")
        span = _span(world, d, own)
        for t, v in zip(d.terms, d.values):
            if t == d.orig or (t == "none" and v is None):
                continue
            if is_number(v) and is_number(own):
                # clingo sums 32-bit integers over the features, and a cost past 2**31
                # wrapped to a negative one (a trial's counterfactual moved a column of
                # numbers near 1e-9 to -1.0, the "cheapest" change): each cost stops
                # where the features' sum cannot pass it
                c = min(max(1, round(COST_SCALE * abs(v - own) / span)), cap)
            else:
                c = COST_SCALE + (1 if v == d.other else 0)
            costs.append(f"aspml_cost({f},{t},{c}).")
    s = world.session(goal, ["\n".join(costs + fixed), encoding("counterfactual")])
    s.ctl.configuration.solve.opt_mode = "opt"
    sat, _, model = s.solve()
    if not sat or model is None:
        return None
    picks = {}
    fires = []
    for sym in model:
        if sym.name == "aspml_pick":
            picks[sym.arguments[0].string] = str(sym.arguments[1])
        elif sym.name == "aspml_fires":
            fires.append(sym.arguments[0].number)
    changes = {}
    any_other = []
    new_row = frame.iloc[0].astype(object).copy()
    # the changed row keeps the name of the row asked about (X.iloc[5]: 5, not 0)
    new_row.name = (row.name if isinstance(row, pd.Series) else
                    row.index[0] if isinstance(row, pd.DataFrame) else None)
    distance = 0.0
    for d in world.domains:
        term = picks[d.feature]
        if term == d.orig:
            continue
        old = d.values[d.terms.index(d.orig)]
        new = d.values[d.terms.index(term)]
        if d.other is not None and new == d.other:
            any_other.append(d.feature)
        changes[d.feature] = (old, new)
        new_row[d.feature] = new
        span = _span(world, d, old)
        distance += abs(new - old) / span if is_number(new) and is_number(old) else 1.0
    if program.is_multiclass:            # the fast path's class, and the rule that decides it
        from ..evaluate import first_rules
        k = int(first_rules(program, pd.DataFrame([new_row]))[0])
        index = [i for i, r in enumerate(program.rules) if r.head is None]
        check = program.rules[index[k]].label if k >= 0 else program.target.default
        if check != target:
            raise AspmlError("internal error: the counterfactual does not give the class "
                             f"{target!r} (the fast path says {check!r})")
        # clingo's firing rules say the same: the first of them decides
        if (min(fires) if fires else None) != (index[k] if k >= 0 else None):
            raise AspmlError("internal error: clingo and the fast path disagree on the "
                             "counterfactual's deciding rule")
        return Counterfactual(new_row, changes, index[k] if k >= 0 else None, distance, target,
                              program=program, any_other=tuple(any_other))
    check = program.predict(pd.DataFrame([new_row]))[0]
    if bool(check) != target:
        raise AspmlError("internal error: the counterfactual does not change the prediction")
    return Counterfactual(new_row, changes, min(fires) if fires and target else None, distance,
                          program=program, any_other=tuple(any_other))


def learned_from_data(program: Program) -> bool:
    """Whether ``program`` was learned from rows (FoldSE, Libre ...: its schema's scales
    are the grain of their numbers), not written by hand or by ``aspml.generalize`` (whose
    scales are its thresholds')."""
    return program.provenance_dict.get("learner") not in (None, "generalize")


def _just_past(end: float, up: bool, ref: float):
    """A short number just past ``end`` (above it when ``up``): the next multiple of the
    power of ten at most a millionth of ``ref`` (the size of the feature's numbers);
    None when there is none."""
    tol = 1e-6 * ref
    if not (0 < tol < math.inf):
        return None
    q = Decimal(repr(10.0 ** math.floor(math.log10(tol))))
    k = (Decimal(repr(float(end))) / q).to_integral_value(
        rounding=ROUND_FLOOR if up else ROUND_CEILING)
    x = float((k + (1 if up else -1)) * q)
    return x if (x > end if up else x < end) else None


def _in_gap(lo, hi, from_below: bool, ref: float = 0.0):
    """A number strictly between ``lo`` and ``hi`` (None: unbounded), near the end the row
    comes from: a short number just past it (:func:`_just_past`, ``ref`` the size of the
    feature's numbers; the smallest change a counterfactual can make there), else one
    step of 1 from it, else the middle, else the next float; None if none.  (A step of
    1 was first: past a threshold of 1.2585071193691204 on a column of ratios below 2, a
    trial's counterfactual asked for 2.2585071193691206.)"""
    near_lo = lo is not None and (hi is None or from_below)
    end = lo if near_lo else hi
    candidates = [_just_past(end, near_lo, ref), end + 1 if near_lo else end - 1]
    if lo is not None and hi is not None:
        candidates.append(lo + (hi - lo) / 2)
    candidates.append(float(np.nextafter(float(end), np.inf if near_lo else -np.inf)))
    for v in candidates:
        if v is not None and (lo is None or v > lo) and (hi is None or v < hi):
            return int(v) if isinstance(v, float) and v.is_integer() and abs(v) < 2**53 else v
    return None


def steps_of(X: pd.DataFrame, features=None) -> dict:
    """``{column: step}`` of the numeric columns of ``X`` (all, or ``features``): the
    coarsest power of ten that every number of the column is a multiple of (1 for whole
    numbers, 0.1 for one decimal ...); the grain :func:`counterfactual` keeps."""
    from ..data.table import data_scale
    out = {}
    for f in features if features is not None else X.columns:
        if f not in X.columns:
            continue
        v = pd.to_numeric(X[f], errors="coerce").to_numpy(dtype=float)
        v = v[np.isfinite(v)]
        scale = data_scale(v) if v.size else None
        if scale is not None:
            out[f] = 1 / scale
    return out


def _checked_ranges(program: Program, ranges) -> dict:
    """``ranges`` as ``{feature: (lo, hi)}`` of floats, each a feature of numbers the
    program reads, lo <= hi (equal: a column of one value, a span of 1), both finite;
    else one error (a clinic trial: a reversed range
    gave negative distances, and the largest change came back as the nearest; an empty
    one, or a feature's name misspelt, was taken without a word)."""
    if not ranges:
        return {}
    if not isinstance(ranges, dict):
        raise AspmlError(f"ranges is a dict {{feature: (lo, hi)}}, not {type(ranges).__name__}")
    out = {}
    for f, span in ranges.items():
        if f not in program.schema:
            raise AspmlError(f"ranges names {f!r}, which the program does not read; its "
                             f"features: {list(program.schema.names)}")
        if program.schema[f].kind not in ("numeric", "mixed"):
            raise AspmlError(f"ranges names {f!r}, a {program.schema[f].kind} feature: a "
                             "range is of numbers (a changed category costs 1)")
        try:
            lo, hi = span
        except (TypeError, ValueError):
            raise AspmlError(f"ranges[{f!r}] is (lo, hi), not {span!r}") from None
        # (numpy's numbers too: ranges taken from a column, X.age.min(); a review)
        if not all(isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))
                   and math.isfinite(v) for v in (lo, hi)) or not lo <= hi:
            raise AspmlError(f"ranges[{f!r}] is (lo, hi) with lo <= hi, two finite numbers; "
                             f"got {span!r}")
        out[f] = (float(lo), float(hi))
    return out


def _checked_steps(steps: dict) -> dict:
    """The steps as floats; a step is a whole number or one over a whole number."""
    out = {}
    for f, step in steps.items():
        ok = is_number(step) and not isinstance(step, bool) and math.isfinite(step) and step > 0
        if ok and step < 1:
            ok = abs(1 / step - round(1 / step)) < 1e-9
        elif ok:
            ok = float(step).is_integer()
        if not ok:
            raise AspmlError(f"steps: the step of {f!r} must be a whole number or 1/N "
                             f"(1, 0.1, 0.5 ...), got {step!r}")
        out[f] = float(step) if step >= 1 else 1 / round(1 / step)
    return out


def _span(world: _World, d: _Domain, own) -> float:
    if d.feature in world.ranges:
        lo, hi = world.ranges[d.feature]
        return float(hi - lo) or 1.0
    nums = [v for v in d.values if is_number(v) and not isinstance(v, bool)]
    if is_number(own) and not isinstance(own, bool):
        nums.append(own)
    return float(max(nums) - min(nums)) if len(nums) > 1 and max(nums) > min(nums) else 1.0
