"""The descriptive model: union rules with their coherence, fidelity and derivation hierarchy."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._words import count
from ..errors import AspmlError
from ..logic.model import (Compare, Flag, InSet, Interval, NotAtom, Program, Rule, Target,
                           exceptions_apart)
from ..logic.printers import text_literal
from ..logic.values import as_label
from .encoding import fidelity_counts
from .rules import BoxRule, _in_interval, _printable, format_prediction


@dataclass(frozen=True)
class DescriptiveRule:
    """A rule of a descriptive model, or a rule of its derivation hierarchy.

    ``covered`` / ``exceptions``: indices of the original rules it covers
    correctly / wrongly (Definition 3); ``members``: the originals it stands
    for; ``children``: the rules it was united from or absorbed.
    ``fidelity`` is ``None`` without reference data (or when it applies to no
    reference row the original model answers).
    """

    id: int
    rule: BoxRule
    is_union: bool
    covered: tuple
    exceptions: tuple
    members: tuple
    children: tuple
    united: tuple
    depth: int
    rows: int
    agree: int

    @property
    def conditions(self):
        return self.rule.conditions

    @property
    def prediction(self):
        return self.rule.prediction

    @property
    def cc(self) -> float:
        """Coherence coefficient (Definition 4)."""
        n = len(self.covered) + len(self.exceptions)
        return 1.0 if n == 0 else len(self.covered) / n

    @property
    def fidelity(self) -> float | None:
        """Definition 10 on the reference rows (``None`` without them)."""
        return None if self.rows == 0 else self.agree / self.rows

    @property
    def n_conditions(self) -> int:
        return len(self.rule.conditions)


class DescriptiveModel:
    """What :func:`aspml.generalize` returns.

    ``rules``: the rules of the descriptive model (``DescriptiveRule``);
    ``original``: the input rules (``BoxRule``); ``node(id)`` reaches any rule
    of the derivation hierarchy (ids ``0 .. n-1`` are the original rules).
    """

    def __init__(self, state, rho, epsilon, target="prediction", positive=None, negative=None,
                 schema=None, history=(), source_classes=()):
        enc = state.enc
        self.task = enc.task
        self.rho = rho
        self.epsilon = epsilon
        self.target = target
        self.positive = positive
        self.negative = negative
        # the classes of the model described (a multi-class Program's, the default class
        # included even when no rule concludes it): to_program's "other class" comes from them
        self.source_classes = tuple(source_classes)
        self.schema = schema
        self.history = tuple(history)          # (rho, rules, unions) per run of the iterative variant
        self.original = list(enc.rules)
        self.features = list(enc.feature_order)
        self.ranges = dict(enc.ranges)
        self.domains = {f: list(v) for f, v in enc.domains.items()}
        self.flags = frozenset(enc.flags)      # features read as 0/1 from bool reference columns
        self.n_unions = state.n_unions
        self.pairs_tried = state.tried
        self.has_reference = enc.has_reference
        self._nodes = {}
        for node in state.nodes:
            s = node.slot
            if node.children:
                covered, exceptions = node.correct, node.exceptions
                rows, agree = node.rows, node.agree
            else:                                   # an original rule: measured here
                codes = enc.codes(s)
                covered = tuple(int(i) for i in np.flatnonzero(codes == 1))
                exceptions = tuple(int(i) for i in np.flatnonzero(codes == 2))
                rows, agree = fidelity_counts(enc, s) if enc.has_reference else (0, 0)
            self._nodes[s] = DescriptiveRule(s, enc.box_rule(s), bool(node.children), covered,
                                             exceptions, node.members, node.children, node.united,
                                             node.depth, rows, agree)
        alive = [s for s in range(state.n_slots) if state.alive[s]]
        # in the order of the original rules they stand for (a union where its first original was)
        self.rules = sorted((self._nodes[s] for s in alive), key=lambda r: min(r.members))

    def node(self, id: int) -> DescriptiveRule:
        return self._nodes[id]

    # -- measures ----------------------------------------------------------
    @property
    def fidelity(self) -> float | None:
        """Definition 11, counted over rule applications: the reference rows (where the
        original model answers) each rule applies to, summed over the rules, and of those
        the ones where its prediction is congruent with the model's -- as the paper counts
        it (§5.1.1: 1494 / (1494 + 96))."""
        rows = sum(r.rows for r in self.rules)
        return None if rows == 0 else sum(r.agree for r in self.rules) / rows

    def stats(self) -> dict:
        rules = self.rules
        n_cond = sum(r.n_conditions for r in rules)
        unions = [r for r in rules if r.is_union]
        fids = [r.fidelity for r in rules if r.fidelity is not None]
        return {
            "rules": len(rules),
            "conditions": n_cond,
            "conditions_per_rule": n_cond / len(rules) if rules else 0.0,
            "complex_rules": sum(r.n_conditions > 5 for r in rules),
            "min_cc": min((r.cc for r in rules), default=1.0),
            "rough_rules": sum(r.cc < 1 for r in rules),
            "min_rule_fidelity": min(fids) if fids else None,
            "fidelity": self.fidelity,
            "unions": self.n_unions,
            "union_rules": len(unions),
            "originals_in_unions": sum(len(r.members) for r in unions),
            "depth": max((r.depth for r in rules), default=0),
        }

    # -- reading -----------------------------------------------------------
    def rule_text(self, r: DescriptiveRule) -> str:
        return r.rule.to_text(self.target)

    def to_text(self, hierarchy: bool = False) -> str:
        s = self.stats()
        head = (f"% descriptive model of {count(len(self.original), 'rule')}: "
                f"{count(s['rules'], 'rule')}, {count(s['conditions'], 'condition')} (rho={self.rho:g}"
                + (f", epsilon={self.epsilon:g}" if self.task == "regression" else "") + ")")
        if s["fidelity"] is not None:
            # Definition 11 over rule applications: not the share of rows the rules and
            # their exceptions answer as the model does (a trial read 0.912 so, where the
            # saved program agreed with the tree on 99.9% of the rows)
            head += (f"; fidelity {s['fidelity']:.3f} over rule applications (each rule on "
                     "the reference rows it covers, its exceptions' rows included)")
        # rho bounds the unions; an original rule stays as it is, whatever its CC (a
        # forest's leaf that other trees overrule: CC 0.5, fidelity 0)
        kept = [r for r in self.rules if not r.is_union]
        cc = min((r.cc for r in kept), default=1.0)
        fid = min((r.fidelity for r in kept if r.fidelity is not None), default=1.0)
        def floor(v):       # (0.8999 under rho 0.9 reads 0.89, never 0.90)
            return f"{math.floor(v * 100) / 100:.2f}"
        low = [x for x in (f"CC {floor(cc)}" if cc < self.rho else None,
                           f"fidelity {floor(fid)}" if fid < self.rho else None) if x]
        if low:
            head += ("; rules kept as they were in the model go down to "
                     + " and ".join(low))
        lines = [head]
        for r in self.rules:
            lines.append(self._line(r))
            if hierarchy and r.is_union:
                lines += self.hierarchy_lines(r.id, indent=1)
        return "\n".join(lines) + "\n"

    def _line(self, r: DescriptiveRule) -> str:
        tag = f"U{r.id}" if r.is_union else f"R{r.id}"
        info = []
        if r.is_union:
            info.append(f"covers {len(r.covered)}")
        if r.exceptions:
            info.append(f"exceptions {', '.join(f'R{i}' for i in r.exceptions)}")
        info.append(f"CC {r.cc:.2f}")
        if r.fidelity is not None:
            info.append(f"fidelity {r.fidelity:.2f}")
        return f"{tag}: {self.rule_text(r)}   [{'; '.join(info)}]"

    def hierarchy_lines(self, id: int, indent: int = 0) -> list[str]:
        """The derivation tree under rule ``id``: what it was united from or absorbed."""
        out = []
        for c in self.node(id).children:
            child = self.node(c)
            out.append("  " * indent + "- " + self._line(child))
            out += self.hierarchy_lines(c, indent + 1)
        return out

    def to_dict(self) -> dict:
        """JSON-ready; its ``rules`` carry ``if``/``then`` as ``aspml simplify`` reads a rule
        list, so a saved descriptive model can be simplified again."""
        def enc(r):
            return {"id": r.id, "union": r.is_union, "text": self.rule_text(r),
                    "if": {c.feature: _condition_json(c) for c in r.rule.conditions},
                    "then": _jsonable(r.prediction),
                    "prediction": _jsonable(r.prediction), "cc": r.cc, "fidelity": r.fidelity,
                    "covered": list(r.covered), "exceptions": list(r.exceptions),
                    "members": list(r.members), "children": list(r.children), "depth": r.depth}
        return {"target": self.target, "rho": self.rho, "epsilon": self.epsilon,
                "task": self.task, "stats": self.stats(), "rules": [enc(r) for r in self.rules],
                "hierarchy": [enc(n) for n in self._nodes.values()]}

    def to_html(self, title: str | None = None) -> str:
        from .render import render_html
        return render_html(self, title)

    def to_program(self, positive=None, exceptions: bool = True, target: str | None = None,
                   digits: int | None = None) -> Program:
        """The rules predicting class ``positive`` as an aspml Program.

        A Program defines one target (``label(X, positive)``), so a multi-class
        descriptive model becomes one Program per class; ``positive`` defaults
        to the target's positive label when the model came from a Program.  With
        ``exceptions``, each rule's exceptions (the original rules it covers
        wrongly) become ``not abK`` and ``abK :- <the exception's conditions>``:
        the paper's rough rule written as a default with exceptions.  Numeric
        predictions have no Program form.  ``digits`` rounds every interval end
        to that many significant digits (shorter numbers; without it a tree's
        float32 thresholds such as ``0.0035194946`` are written as ranks in the
        ``asp`` print): a rounded end may move a row that lies exactly
        between the old and the new threshold.  A feature whose reference column
        is boolean is a flag: ``c <= 0.5`` becomes ``not c``, ``c > 0.5`` becomes
        ``c``, so the program reads the column as aspml reads booleans (a missing
        value makes ``not c`` true, where ``c <= 0.5`` was false).
        """
        if digits is not None and (not isinstance(digits, int) or isinstance(digits, bool)
                                   or not 1 <= digits <= 15):
            raise AspmlError(f"digits must be an integer from 1 to 15, got {digits!r}")
        if self.task != "classification":
            raise AspmlError("a descriptive model of numeric predictions has no Program form; "
                             "write it as text or HTML")
        classes = self.classes()
        if positive is None:
            positive = self.positive
        if positive is None:
            if len(classes) != 1:
                raise AspmlError(f"say which class the Program defines (positive=, or --positive on the command line): one of {classes}")
            positive = classes[0]
        positive = self.class_named(positive)
        rules, extra = [], []
        k = 0
        for r in self.rules:
            if r.prediction != positive:
                continue
            body = list(_body(r.conditions, digits, self.flags))
            if exceptions and r.exceptions:
                k += 1
                name = f"ab{k}"
                body.append(NotAtom(name))
                for e in r.exceptions:
                    extra.append(Rule(name, _body(self.original[e].conditions, digits,
                                                  self.flags)))
            rules.append(Rule(None, tuple(body)))
        negative = self.negative if positive == self.positive else None
        known = self.source_classes or classes
        if negative is None and len(known) == 2:        # the one other class
            negative = next(c for c in known if c != positive)
        t = Target(target or (self.target if self.target != "prediction" else "label"),
                   as_label(positive), None if negative is None else as_label(negative))
        schema = self.schema if self.schema is not None else ()
        features = {f for r in rules + extra for f in r.features}
        rules = exceptions_apart(rules + extra, [*features, t.name])
        return Program(tuple(rules), t, schema,
                       {"learner": "generalize", "rho": self.rho, "unions": self.n_unions})

    def classes(self) -> list:
        """The classes the original rules predict, in order of first appearance."""
        return list(dict.fromkeys(r.prediction for r in self.original))

    def class_named(self, label):
        """The class ``label`` names: itself, or the one class written as it is (a label
        given as text or as Python sees it: "1" or 1, "true" or True for a bool class)."""
        classes = self.classes()
        if label in classes:
            return label
        text = str(label)
        same = [c for c in classes if str(c) == text
                or (isinstance(c, (bool, np.bool_)) and str(c).lower() == text.lower())]
        if len(same) != 1:
            raise AspmlError(f"no rule predicts {label!r}; the classes are {classes}")
        return same[0]

    def _repr_html_(self) -> str:
        """Jupyter's view: the table and glyph views of the page :meth:`to_html` writes."""
        from .render import render_fragment
        return render_fragment(self)

    def __repr__(self) -> str:
        s = self.stats()
        return (f"DescriptiveModel({count(len(self.original), 'rule')} -> "
                f"{count(s['rules'], 'rule')}, {count(s['conditions'], 'condition')}, "
                f"rho={self.rho:g})")


def _body(conditions, digits, flags) -> tuple:
    out = []
    for c in conditions:
        lit = _flag(c) if c.feature in flags and isinstance(c, Interval) else _literal(c, digits)
        if lit is not None:                     # None: the interval holds both 0 and 1
            out.append(lit)
    return tuple(out)


def _flag(c: Interval):
    """An interval on a 0/1 column as the flag literal it amounts to (``None``: no test)."""
    zero, one = _in_interval(c, 0), _in_interval(c, 1)
    if zero and one:
        return None
    if zero or one:
        return Flag(c.feature, one)
    raise AspmlError(f"the condition {text_literal(_printable(c))} on the boolean column "
                     f"{c.feature!r} holds for neither False (0) nor True (1)")


def _literal(c, digits=None):
    if digits is not None and isinstance(c, Interval):
        c = Interval(c.feature, _round(c.lo, digits), _round(c.hi, digits), c.lo_closed, c.hi_closed)
    lit = _printable(c)
    return lit if isinstance(lit, (Compare, Interval, InSet)) else c


def _round(v, digits):
    if v is None or v == 0:
        return v
    r = float(f"{v:.{digits}g}")
    return int(r) if r.is_integer() and abs(r) < 2**53 else r


def _jsonable(p):
    if isinstance(p, tuple):
        return list(p)
    if isinstance(p, frozenset):
        return sorted(p, key=str)
    return p.item() if hasattr(p, "item") else p


__all__ = ["DescriptiveModel", "DescriptiveRule", "format_prediction"]


def _condition_json(c):
    """A condition as a JSON rule list writes it: a value list, or an interval object."""
    if isinstance(c, InSet):
        return sorted((_jsonable(v) for v in c.members), key=lambda v: (isinstance(v, str), v))
    return {"lo": _jsonable(c.lo), "hi": _jsonable(c.hi), "lo_closed": c.lo_closed,
            "hi_closed": c.hi_closed}
