"""Conjunctive rules and the paper's definitions 1-9 on them, written plainly.

A :class:`BoxRule` is a conjunction of conditions ``f in V`` -- an
:class:`~aspml.Interval` for a numeric feature, an :class:`~aspml.InSet` for a
categorical one, at most one per feature -- and a prediction: a class label, or
for regression a number or a numeric interval ``(lo, hi)``.

These functions are the readable statement of the definitions (and the slow
reference the tests hold the kernels to); Algorithm 1 itself runs on arrays
(:mod:`aspml.generalize.algorithm`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Real

from ..errors import AspmlError
from ..logic.model import Compare, Flag, InSet, Interval, Literal, Rule
from ..logic.printers import text_literal, text_name, text_value
from ..logic.values import is_number


# ---------------------------------------------------------------------------
# conditions
# ---------------------------------------------------------------------------

def _lower_key(c: Interval):
    return (-math.inf if c.lo is None else c.lo, 0 if c.lo_closed else 1)


def _upper_key(c: Interval):
    return (math.inf if c.hi is None else c.hi, 1 if c.hi_closed else 0)


def as_condition(lit: Literal) -> Interval | InSet:
    """A literal as a condition ``f in V``; only intervals, value sets and ``== <= < > >=``."""
    if isinstance(lit, (Interval, InSet)):
        return lit
    if isinstance(lit, Flag) and lit.positive:
        # a flag holds where its value is true, 1 as a tree reads it (a trial's program
        # ``IF bird AND legs > 1`` was refused as neither an interval nor a value set)
        return Interval(lit.feature, 0.5, None, False, False)
    if isinstance(lit, Compare) and lit.op != "!=":
        v = lit.value
        if lit.op == "==":
            return InSet(lit.feature, frozenset([v]))
        return {"<=": Interval(lit.feature, None, v, False, True),
                "<": Interval(lit.feature, None, v, False, False),
                ">": Interval(lit.feature, v, None, False, False),
                ">=": Interval(lit.feature, v, None, True, False)}[lit.op]
    raise AspmlError(f"condition {text_literal(lit)!r} is neither an interval nor a value set; "
                     "descriptive models take conjunctions of intervals, value sets and flags "
                     "(no !=, negated comparisons, NOT of a flag, which holds where it is "
                     "missing too, or exceptions)")


def _intersect(c1, c2):
    """Both conditions on one feature at once (a tree path tests a feature several times)."""
    f = c1.feature
    if isinstance(c1, InSet) and isinstance(c2, InSet):
        members = c1.members & c2.members
    elif isinstance(c1, InSet) or isinstance(c2, InSet):
        s, iv = (c1, c2) if isinstance(c1, InSet) else (c2, c1)
        members = frozenset(v for v in s.members if _in_interval(iv, v))
    else:
        lo = max((c1, c2), key=_lower_key)
        hi = min((c1, c2), key=_upper_key)
        lo_v, hi_v = _lower_key(lo)[0], _upper_key(hi)[0]
        if lo_v > hi_v or (lo_v == hi_v and not (lo.lo_closed and hi.hi_closed)):
            raise AspmlError(f"the conditions on {f!r} of one rule exclude each other")
        return Interval(f, lo.lo, hi.hi, lo.lo_closed, hi.hi_closed)
    if not members:
        raise AspmlError(f"the conditions on {f!r} of one rule exclude each other")
    return InSet(f, members)


def _in_interval(c: Interval, v) -> bool:
    if not is_number(v):
        return False
    return ((c.lo is None or v > c.lo or (c.lo_closed and v == c.lo))
            and (c.hi is None or v < c.hi or (c.hi_closed and v == c.hi)))


def condition_subsumes(c1, c2) -> bool:
    """Definition 1: ``c1 = (f in V1)`` subsumes ``c2 = (f in V2)`` iff same feature and V2 ⊆ V1."""
    if c1.feature != c2.feature:
        return False
    if isinstance(c1, InSet):
        return isinstance(c2, InSet) and c2.members <= c1.members
    if isinstance(c2, InSet):
        return all(_in_interval(c1, v) for v in c2.members)
    return _lower_key(c1) <= _lower_key(c2) and _upper_key(c1) >= _upper_key(c2)


def unite_conditions(c1, c2):
    """Definition 7: the union of two conditions on one feature (``None``: no condition left)."""
    if c1.feature != c2.feature:
        raise AspmlError(f"cannot unite a condition on {c1.feature!r} with one on {c2.feature!r}")
    if isinstance(c1, InSet) and isinstance(c2, InSet):
        return InSet(c1.feature, c1.members | c2.members)
    if isinstance(c1, InSet) or isinstance(c2, InSet):
        raise AspmlError(f"feature {c1.feature!r} has both a value set and an interval")
    lo = min((c1, c2), key=_lower_key)
    hi = max((c1, c2), key=_upper_key)
    if lo.lo is None and hi.hi is None:
        return None
    return Interval(c1.feature, lo.lo, hi.hi, lo.lo_closed, hi.hi_closed)


def condition_distance(c1, c2, vrange=None, domain=None) -> float:
    """§3.2: ``(|lo1-lo2| + |hi1-hi2|) / 2(vmax-vmin)`` for intervals (ends clipped to the
    feature's range, a missing condition being the whole range), ``1 - Jaccard`` for sets
    (a missing condition being the whole ``domain``)."""
    if isinstance(c1, InSet) or isinstance(c2, InSet):
        a = set(domain) if c1 is None else set(c1.members)
        b = set(domain) if c2 is None else set(c2.members)
        union = a | b
        return 0.0 if not union else 1.0 - len(a & b) / len(union)
    vmin, vmax = vrange
    if vmax <= vmin:
        return 0.0

    def ends(c):
        lo = vmin if c is None or c.lo is None else min(max(c.lo, vmin), vmax)
        hi = vmax if c is None or c.hi is None else min(max(c.hi, vmin), vmax)
        return lo, hi
    (l1, h1), (l2, h2) = ends(c1), ends(c2)
    return (abs(l1 - l2) + abs(h1 - h2)) / (2 * (vmax - vmin))


# ---------------------------------------------------------------------------
# predictions
# ---------------------------------------------------------------------------

def is_numeric_prediction(p) -> bool:
    return isinstance(p, tuple) or (isinstance(p, Real) and not isinstance(p, bool))


def prediction_interval(p) -> tuple[float, float]:
    if isinstance(p, tuple):
        return float(p[0]), float(p[1])
    return float(p), float(p)


def congruent(p1, p2, epsilon: float = 0.0) -> bool:
    """Definition 2: equal, or numbers / numeric intervals within ``epsilon``."""
    if p1 == p2:
        return True
    if is_numeric_prediction(p1) and is_numeric_prediction(p2):
        (l1, h1), (l2, h2) = prediction_interval(p1), prediction_interval(p2)
        return max(h1, h2) - min(l1, l2) <= epsilon + 1e-9 * (1 + abs(epsilon))
    return False


def unite_predictions(p1, p2):
    """Definition 8: the same value, the union of value sets, or the enclosing interval."""
    if p1 == p2:
        return p1
    if is_numeric_prediction(p1) and is_numeric_prediction(p2):
        (l1, h1), (l2, h2) = prediction_interval(p1), prediction_interval(p2)
        return (min(l1, l2), max(h1, h2))
    if isinstance(p1, frozenset) or isinstance(p2, frozenset):
        a = p1 if isinstance(p1, frozenset) else frozenset([p1])
        b = p2 if isinstance(p2, frozenset) else frozenset([p2])
        return a | b
    return frozenset([p1, p2])


def _short(v) -> str:
    if isinstance(v, float) and v.is_integer() and abs(v) < 2**53:
        v = int(v)
    return text_value(v)


def format_prediction(p) -> str:
    if isinstance(p, tuple):
        lo, hi = p
        return _short(lo) if lo == hi else f"[{_short(lo)}, {_short(hi)}]"
    if isinstance(p, frozenset):
        return "{" + ", ".join(sorted(text_value(v) for v in p)) + "}"
    if isinstance(p, (str, int, float)) and not isinstance(p, bool):
        return _short(p)
    return str(p)


# ---------------------------------------------------------------------------
# rules
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class BoxRule:
    """``IF c1 AND c2 ... THEN prediction``: at most one condition per feature.

    ``conditions`` may be given as any literals :func:`as_condition` accepts,
    or as an aspml :class:`~aspml.Rule` body; several conditions on one feature
    are intersected (as on a decision-tree path).
    """

    conditions: tuple
    prediction: object

    def __post_init__(self) -> None:
        body = self.conditions.body if isinstance(self.conditions, Rule) else self.conditions
        merged: dict = {}
        for lit in body:
            if not isinstance(lit, Literal):
                raise AspmlError(f"rule condition {lit!r} is not an aspml literal")
            c = as_condition(lit)
            if isinstance(c, Interval) and c.any_number:
                continue                      # the whole range: no condition
            merged[c.feature] = _intersect(merged[c.feature], c) if c.feature in merged else c
        object.__setattr__(self, "conditions", tuple(merged.values()))
        p = self.prediction
        if isinstance(p, list):
            p = tuple(p)
        if isinstance(p, tuple):
            if len(p) != 2 or not all(is_numeric_prediction(v) for v in p) or p[0] > p[1]:
                raise AspmlError(f"interval prediction {self.prediction!r} must be (lo, hi), lo <= hi")
            p = (float(p[0]), float(p[1]))
        elif hasattr(p, "item") and not isinstance(p, (str, bytes)):
            p = p.item()                      # numpy scalars
        if isinstance(p, float) and not math.isfinite(p):
            raise AspmlError(f"prediction {self.prediction!r} is not a finite number")
        object.__setattr__(self, "prediction", p)

    @property
    def features(self) -> tuple[str, ...]:
        return tuple(c.feature for c in self.conditions)

    def condition(self, feature: str):
        return next((c for c in self.conditions if c.feature == feature), None)

    def to_text(self, target: str = "prediction") -> str:
        cond = " AND ".join(text_literal(_printable(c)) for c in self.conditions) or "TRUE"
        # the target's name as the text dialect writes a name (quoted when it is not a
        # plain word): a hostile name must not change the line's structure
        return f"IF {cond} THEN {text_name(target)} = {format_prediction(self.prediction)}"


def _printable(c):
    """An interval open on one side prints as the comparison it is."""
    if isinstance(c, Interval):
        if c.lo is None and c.hi is not None:
            return Compare(c.feature, "<=" if c.hi_closed else "<", c.hi)
        if c.hi is None and c.lo is not None:
            return Compare(c.feature, ">=" if c.lo_closed else ">", c.lo)
    if isinstance(c, InSet) and len(c.members) == 1:
        return Compare(c.feature, "==", next(iter(c.members)))
    return c


def subsumes(r1: BoxRule, r2: BoxRule) -> bool:
    """Definition 1: every condition of ``r1`` subsumes the condition of ``r2`` on its feature."""
    for c1 in r1.conditions:
        c2 = r2.condition(c1.feature)
        if c2 is None or not condition_subsumes(c1, c2):
            return False
    return True


def covers_correctly(r1: BoxRule, r2: BoxRule, epsilon: float = 0.0) -> bool:
    """Definition 3: ``r1`` subsumes ``r2`` and their predictions are congruent."""
    return subsumes(r1, r2) and congruent(r1.prediction, r2.prediction, epsilon)


def coherence(rule: BoxRule, rules, epsilon: float = 0.0) -> float:
    """Definition 4: correctly covered rules over covered rules (1.0 when it covers none)."""
    covered = [r for r in rules if subsumes(rule, r)]
    if not covered:
        return 1.0
    return sum(congruent(rule.prediction, r.prediction, epsilon) for r in covered) / len(covered)


def unite(r1: BoxRule, r2: BoxRule, epsilon: float = 0.0) -> BoxRule:
    """Definition 9: conditions united feature by feature (a feature in only one rule is
    dropped), predictions united; only for congruent predictions."""
    if not congruent(r1.prediction, r2.prediction, epsilon):
        raise AspmlError(f"predictions {format_prediction(r1.prediction)} and "
                         f"{format_prediction(r2.prediction)} are not congruent")
    conds = []
    for c1 in r1.conditions:
        c2 = r2.condition(c1.feature)
        if c2 is not None:
            c = unite_conditions(c1, c2)
            if c is not None:
                conds.append(c)
    return BoxRule(tuple(conds), unite_predictions(r1.prediction, r2.prediction))


def rule_distance(r1: BoxRule, r2: BoxRule, ranges: dict, domains: dict | None = None) -> float:
    """§3.2: the sum over the features of either rule of the condition distances."""
    domains = domains or {}
    total = 0.0
    for f in dict.fromkeys(r1.features + r2.features):
        c1, c2 = r1.condition(f), r2.condition(f)
        if isinstance(c1, InSet) or isinstance(c2, InSet):
            total += condition_distance(c1, c2, domain=domains.get(f, ()))
        else:
            total += condition_distance(c1, c2, vrange=ranges[f])
    return total
