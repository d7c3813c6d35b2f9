"""The Program model: literals, rules and programs as immutable values.

A learned classifier is a stratified normal logic program with default
exceptions::

    label(X) :- age(X,N), N > 50, not ab1(X).
    ab1(X)   :- smoker(X, "no").

Every object here is a frozen dataclass: hashable, compared by structure, safe
to share.  Value semantics (DESIGN §2): ``f == v`` is false on a missing value;
``f != v`` and ``not ab(X)`` are true on it; ``<= < > >=`` hold only for
numbers.  The negated comparisons of FOLD-SE, ``not (f <= t)`` and
``not (f > t)``, hold for non-numbers and missing values too.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import ClassVar, Mapping

from ..errors import AspmlError, ScaleError
from .names import exception_like
from .values import (INT32_MAX, Value, check_string, fits, is_number, normalize_value, scale_for,
                     sort_key)

COMPARE_OPS = ("==", "!=", "<=", ">", "<", ">=")
ORDER_OPS = ("<=", ">", "<", ">=")
NEGATED_OPS = ("<=", ">")
KINDS = ("numeric", "categorical", "mixed", "boolean")
DEFAULT_MISSING = ("?",)
DERIVED_NAME = re.compile(r"[a-z][A-Za-z0-9_]*\Z")


class Literal:
    """Base class of body literals."""

    def values(self) -> tuple[Value, ...]:
        return ()


@dataclass(frozen=True)
class Compare(Literal):
    """``feature op value`` with op in ``== != <= > < >=``."""

    feature: str
    op: str
    value: Value

    def __post_init__(self) -> None:
        check_string(self.feature, "feature name")
        if self.op not in COMPARE_OPS:
            raise AspmlError(f"unknown comparison {self.op!r}; use one of {COMPARE_OPS}")
        value = normalize_value(self.value, f"value of {self.feature!r}")
        object.__setattr__(self, "value", value)
        if self.op in ORDER_OPS and not is_number(value):
            raise AspmlError(f"{self.feature} {self.op} {value!r}: order comparisons need a number")

    def values(self) -> tuple[Value, ...]:
        return (self.value,)


@dataclass(frozen=True)
class NotCompare(Literal):
    """FOLD-SE's ``not (feature <= t)`` / ``not (feature > t)``: also true for non-numbers and missing."""

    feature: str
    op: str
    value: int | float

    def __post_init__(self) -> None:
        check_string(self.feature, "feature name")
        if self.op not in NEGATED_OPS:
            raise AspmlError(f"negated comparisons use <= or >, not {self.op!r}")
        value = normalize_value(self.value, f"value of {self.feature!r}")
        if not is_number(value):
            raise AspmlError(f"not ({self.feature} {self.op} {value!r}): needs a number")
        object.__setattr__(self, "value", value)

    def values(self) -> tuple[Value, ...]:
        return (self.value,)


@dataclass(frozen=True)
class Interval(Literal):
    """``feature in [lo, hi)``; ``None`` is an unbounded end (and is always open).

    With both ends unbounded it says "the feature's value is a number".
    """

    feature: str
    lo: int | float | None
    hi: int | float | None
    lo_closed: bool = True
    hi_closed: bool = False

    def __post_init__(self) -> None:
        check_string(self.feature, "feature name")
        for end in ("lo", "hi"):
            v = getattr(self, end)
            if v is not None:
                v = normalize_value(v, f"{end} of {self.feature!r}")
                if not is_number(v):
                    raise AspmlError(f"interval of {self.feature!r}: {end} must be a number")
                object.__setattr__(self, end, v)
        if self.lo is None:
            object.__setattr__(self, "lo_closed", False)
        if self.hi is None:
            object.__setattr__(self, "hi_closed", False)
        object.__setattr__(self, "lo_closed", bool(self.lo_closed))
        object.__setattr__(self, "hi_closed", bool(self.hi_closed))
        if self.lo is not None and self.hi is not None and self.lo > self.hi:
            raise AspmlError(f"interval of {self.feature!r}: lower end {self.lo} above upper end {self.hi}")

    def values(self) -> tuple[Value, ...]:
        return tuple(v for v in (self.lo, self.hi) if v is not None)

    @property
    def any_number(self) -> bool:
        """Both ends unbounded: the literal says only that the value is a number (not
        missing; on a mixed feature, not a string)."""
        return self.lo is None and self.hi is None


@dataclass(frozen=True)
class InSet(Literal):
    """``feature in {v1, v2, ...}`` (a multi-value condition); at least one value."""

    feature: str
    members: frozenset

    def __post_init__(self) -> None:
        check_string(self.feature, "feature name")
        members = frozenset(normalize_value(v, f"value of {self.feature!r}") for v in self.members)
        if not members:
            raise AspmlError(f"value set of {self.feature!r} is empty")
        object.__setattr__(self, "members", members)

    def sorted_members(self) -> list[Value]:
        return sorted(self.members, key=sort_key)

    def values(self) -> tuple[Value, ...]:
        return tuple(self.sorted_members())


@dataclass(frozen=True)
class Flag(Literal):
    """A Boolean feature: ``bird(X)`` (``positive``) or ``not bird(X)``."""

    feature: str
    positive: bool = True

    def __post_init__(self) -> None:
        check_string(self.feature, "feature name")
        object.__setattr__(self, "positive", bool(self.positive))


@dataclass(frozen=True)
class NotAtom(Literal):
    """Negation as failure of a derived atom: ``not ab1(X)``."""

    name: str
    feature: ClassVar[None] = None

    def __post_init__(self) -> None:
        check_derived_name(self.name)


def check_derived_name(name: str) -> str:
    """An exception name is printed as it is: an identifier that no engine reserves."""
    from .names import is_reserved
    if not isinstance(name, str) or not DERIVED_NAME.match(name):
        raise AspmlError(f"derived atom name {name!r} must match [a-z][A-Za-z0-9_]*")
    if is_reserved(name):
        # (not "such as ab1": an exception's name, which a column may hold too; a trial)
        other = next(n for n in (f"{name}_1", f"my_{name}", "my_atom") if not is_reserved(n))
        raise AspmlError(f"derived atom name {name!r} is reserved (a built-in of clingo or "
                         f"SWI-Prolog, or aspml's own); choose another, such as {other}")
    return name


def _check_prefix(prefix: str, names) -> None:
    """A prefix is an identifier, and each name it makes (``heart_ab1``, ``heart_row``)
    is one no engine reserves."""
    from .names import is_reserved, prefixed
    if not isinstance(prefix, str) or not DERIVED_NAME.match(prefix):
        raise AspmlError(f"prefix {prefix!r} must be a lower-case identifier "
                         "([a-z][A-Za-z0-9_]*), such as heart")
    for name in names:
        made = prefixed(prefix, name)
        if is_reserved(made):
            raise AspmlError(f"prefix {prefix!r} makes {made!r}, a name reserved by clingo, "
                             "SWI-Prolog or aspml itself; choose another prefix")


@dataclass(frozen=True)
class Rule:
    """``head :- body``.  ``head`` is ``None`` for the target, else a derived atom name.

    ``label`` is the class a default rule of a multi-class program concludes
    (``label(X,"setosa")``); ``None`` in binary programs and on exception rules.
    """

    head: str | None
    body: tuple[Literal, ...] = ()
    label: Value | None = None

    def __post_init__(self) -> None:
        if self.head is not None:
            check_derived_name(self.head)
        if self.label is not None:
            if self.head is not None:
                raise AspmlError(f"exception rule {self.head} carries a class label "
                                 f"{self.label!r}: only default rules conclude a class")
            object.__setattr__(self, "label", normalize_value(self.label, "class label"))
        body = tuple(self.body)
        for lit in body:
            if not isinstance(lit, Literal):
                raise AspmlError(f"rule body holds {lit!r}, which is not a literal")
        object.__setattr__(self, "body", body)

    @property
    def is_default(self) -> bool:
        """A rule for the target predicate (as opposed to an exception rule)."""
        return self.head is None

    @property
    def exceptions(self) -> tuple[str, ...]:
        return tuple(lit.name for lit in self.body if isinstance(lit, NotAtom))

    @property
    def features(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(lit.feature for lit in self.body if lit.feature is not None))


def exceptions_apart(rules, taken) -> list:
    """``rules`` with every derived atom that shares its name with one of ``taken``
    (feature names, the target) renamed to the next free ``abK``: a column named
    ``ab1`` beside an exception ``ab1`` prints ``ab1 > 30 AND NOT ab1``, which no
    reader should have to untangle (the engines would: the arities differ)."""
    taken = set(taken)
    derived = list(dict.fromkeys([lit.name for r in rules for lit in r.body
                                  if isinstance(lit, NotAtom)]
                                 + [r.head for r in rules if r.head is not None]))
    if not set(derived) & taken:
        return list(rules)
    # numbered afresh in order of first use, skipping the taken names (ab1 a column:
    # the exceptions become ab2, ab3, ...); other derived names keep theirs unless taken
    numbered = [n for n in derived if exception_like(n) or n in taken]
    used = taken | (set(derived) - set(numbered))
    rename, k = {}, 0
    for name in numbered:
        k += 1
        while f"ab{k}" in used:
            k += 1
        rename[name] = f"ab{k}"
        used.add(rename[name])
    return [replace(r, head=rename.get(r.head, r.head),
                    body=tuple(NotAtom(rename.get(lit.name, lit.name)) if isinstance(lit, NotAtom)
                               else lit for lit in r.body)) for r in rules]


@dataclass(frozen=True)
class Target:
    """The predicate a program defines: ``name(X, positive)``, or ``name(X)`` when positive is None.

    A multi-class target (``classes`` not empty) is ``name(X, c)`` for each class
    ``c`` of ``classes`` (all the classes the learner saw, in the order of its
    ``classes_``); ``default`` is the class of a row no rule covers (``None``:
    such a row has no class, as in the programs the reference FOLD-RM prints).
    ``positive`` and ``negative`` stay ``None`` then.
    """

    name: str = "label"
    positive: Value | None = None
    negative: Value | None = None
    classes: tuple = ()
    default: Value | None = None

    def __post_init__(self) -> None:
        check_string(self.name, "target name")
        for attr in ("positive", "negative", "default"):
            v = getattr(self, attr)
            if v is not None:
                object.__setattr__(self, attr, normalize_value(v, f"{attr} label"))
        classes = tuple(normalize_value(c, "class label") for c in self.classes)
        if len(set(classes)) != len(classes):
            raise AspmlError(f"target {self.name!r} lists a class twice: {list(classes)}")
        object.__setattr__(self, "classes", classes)
        if classes:
            if self.positive is not None or self.negative is not None:
                raise AspmlError(f"target {self.name!r}: a multi-class target has classes, "
                                 "not a positive and a negative label")
            if len(classes) < 2:
                raise AspmlError(f"target {self.name!r}: a multi-class target needs two or "
                                 f"more classes, got {list(classes)}")
            if self.default is not None and self.default not in classes:
                raise AspmlError(f"target {self.name!r}: default class {self.default!r} "
                                 f"is not one of its classes {list(classes)}")
        elif self.default is not None:
            raise AspmlError(f"target {self.name!r}: a default class needs the list of "
                             "classes (Target(classes=...))")

    @property
    def is_multiclass(self) -> bool:
        return bool(self.classes)


@dataclass(frozen=True)
class Feature:
    """A column: its name, kind, and for numbers the scale used in clingo
    (``None``: ranked, see :mod:`aspml.logic.values`)."""

    name: str
    kind: str = "numeric"
    scale: int | None = None

    def __post_init__(self) -> None:
        check_string(self.name, "feature name")
        if self.kind not in KINDS:
            raise AspmlError(f"feature {self.name!r}: kind {self.kind!r} is not one of {KINDS}")
        if self.scale is not None:
            if isinstance(self.scale, bool) or not isinstance(self.scale, int) or self.scale < 1:
                raise AspmlError(f"feature {self.name!r}: scale must be a positive integer")
        if self.kind in ("categorical", "boolean"):
            object.__setattr__(self, "scale", None)


@dataclass(frozen=True)
class Schema:
    """The features a program may speak of, in column order."""

    features: tuple[Feature, ...] = ()

    def __post_init__(self) -> None:
        features = tuple(self.features)
        names = [f.name for f in features]
        if len(set(names)) != len(names):
            dup = sorted({n for n in names if names.count(n) > 1})
            raise AspmlError(f"schema names feature(s) {dup} twice")
        object.__setattr__(self, "features", features)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.features)

    def __contains__(self, name: object) -> bool:
        return any(f.name == name for f in self.features)

    def __getitem__(self, name: str) -> Feature:
        for f in self.features:
            if f.name == name:
                return f
        raise KeyError(name)

    def get(self, name: str) -> Feature | None:
        return next((f for f in self.features if f.name == name), None)


def _freeze_provenance(provenance) -> tuple[tuple[str, object], ...]:
    items = provenance.items() if isinstance(provenance, Mapping) else provenance
    out = []
    for key, value in items:
        check_string(key, "provenance key")
        if isinstance(value, (list, tuple)):
            value = tuple(value)
        elif value is not None and not isinstance(value, (str, int, float, bool)):
            value = str(value)
        out.append((key, value))
    return tuple(sorted(out))


def missing_tokens(missing, error=AspmlError) -> tuple[str, ...]:
    """``missing`` (None, one string, or strings) as a tuple of distinct tokens; anything
    else raises ``error`` (an estimator's parameter check raises TypeError)."""
    if missing is None:
        return DEFAULT_MISSING
    tokens = (missing,) if isinstance(missing, str) else missing
    try:
        tokens = tuple(tokens)
    except TypeError:
        tokens = (missing,)
    if not all(isinstance(t, str) for t in tokens):
        raise error(f"missing must be a string or a list of strings (the tokens that "
                         f"stand for no value, e.g. ['?', 'NA']), got {missing!r}")
    return tuple(dict.fromkeys(check_string(t, "missing-value token") for t in tokens))


def literal_kind(lit: Literal) -> str | None:
    """The feature kind a literal implies on its own (``None``: any kind)."""
    if isinstance(lit, Flag):
        return "boolean"
    if isinstance(lit, (NotCompare, Interval)):
        return "numeric"
    if isinstance(lit, Compare) and lit.op in ORDER_OPS:
        return "numeric"
    values = lit.values()
    has_num = any(is_number(v) for v in values)
    has_str = any(isinstance(v, str) for v in values)
    if has_num and has_str:
        return "mixed"
    return "numeric" if has_num else "categorical" if has_str else None


def _compatible(kind: str, implied: str | None) -> bool:
    if implied is None or kind == "mixed" or kind == implied:
        return True
    return False


@dataclass(frozen=True)
class Program:
    """A stratified normal logic program with default exceptions.

    ``rules`` are the default rules (head ``None``: the target) and the
    exception rules (head a derived atom such as ``ab1``).  ``schema`` lists the
    features with their kinds and clingo scales; when omitted it is inferred
    from the literals, and a numeric feature without a scale gets the smallest
    power of ten that makes each of its numbers an exact integer clingo holds
    with room to spare, or ``None`` when there is none: the ``asp`` print then
    writes the feature's numbers as ranks (see :mod:`aspml.logic.values`).
    ``missing`` are the tokens that stand for no value in the data the program
    reads (a learner's ``missing=``): every engine and command uses them, and a
    saved model keeps them in its header.

    A **multi-class** program (``target.classes`` not empty, issue #17) is a
    decision list: every default rule carries the class it concludes
    (``Rule.label``), and a row's class is the label of the first default rule,
    in the order of ``rules``, whose body holds; a row no rule covers gets
    ``target.default``.  The prints say the same as FOLD-RM does: each default
    rule ``k`` is a helper atom ``ruleK(X)``, and ``label(X,c) :- ruleK(X),
    not ruleJ(X), ...`` negates the earlier rules of other classes
    (:attr:`rule_atoms` names them).

    Three fields serve programs that live in a knowledge base (issue #18); each
    is empty by default, and an empty one leaves every print as it was:

    ``background``  rules of a background theory whose heads are Boolean
                    features the data does not hold (``elderly(X) :- ...``):
                    every engine derives them, and the program travels with them.
    ``expert``      indices into ``rules`` of the rules a user fixed before
                    learning (``fit(..., fixed_rules=...)``).
    ``prefix``      a name put in front of the exception and helper predicates
                    in the ``asp``, ``prolog`` and ``scasp`` prints
                    (``heart_ab1``, ``heart_row``), so that programs share one
                    knowledge base.  Feature predicates and the target are not
                    prefixed: they are the knowledge base's shared facts and the
                    program's answer.  Inside the model the names stay ``ab1``;
                    the ``text`` print, explanations and the engines use them.
    """

    rules: tuple[Rule, ...]
    target: Target = field(default_factory=Target)
    schema: Schema = field(default_factory=Schema)
    provenance: tuple[tuple[str, object], ...] = ()
    missing: tuple[str, ...] = DEFAULT_MISSING
    background: tuple[Rule, ...] = ()
    expert: tuple[int, ...] = ()
    prefix: str | None = None

    def __post_init__(self) -> None:
        rules = tuple(self.rules)
        for r in rules:
            if not isinstance(r, Rule):
                raise AspmlError(f"program rules must be Rule objects, got {r!r}")
        object.__setattr__(self, "rules", rules)
        background = tuple(self.background)
        for r in background:
            if not isinstance(r, Rule) or r.head is None:
                raise AspmlError(f"background rules must be Rule objects with a head, got {r!r}")
            if any(isinstance(lit, NotAtom) for lit in r.body):
                raise AspmlError(f"background rule for {r.head}: its body reads other background "
                                 "atoms as Flag literals, not exceptions (not ab(X))")
        object.__setattr__(self, "background", background)
        if background:
            from .background import background_order
            background_order(background)        # stratified, not recursive: else one error
            clash = set(self.background_atoms) & set(self.exception_names)
            if clash:
                raise AspmlError(f"{sorted(clash)[0]!r} is both a background atom and an "
                                 "exception of the learned rules")
        expert = tuple(sorted(set(self.expert)))
        for k in expert:
            if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < len(rules):
                raise AspmlError(f"expert rule index {k!r} is not a rule of the program "
                                 f"(it has {len(rules)})")
        object.__setattr__(self, "expert", expert)
        self._check_target(rules)
        object.__setattr__(self, "provenance", _freeze_provenance(self.provenance))
        object.__setattr__(self, "missing", missing_tokens(self.missing))
        object.__setattr__(self, "schema", self._complete_schema(self.schema))
        if self.prefix is not None:     # after the schema: the rule atoms avoid its names
            _check_prefix(self.prefix, self._helper_names())

    def _check_target(self, rules) -> None:
        """The target is a Target, no exception shares its name, and each default rule's
        class label is one of its classes (none for a binary target)."""
        t = self.target
        if not isinstance(t, Target):
            raise AspmlError("target must be an aspml.Target")
        if t.name in self.exception_names:    # one predicate, two things: ab1(X) :- not ab1(X)
            raise AspmlError(f"the target {t.name!r} is also the name of an exception; "
                             "rename the exception (aspml.logic.model.exceptions_apart)")
        for r in rules:
            if r.head is not None:
                continue
            if t.classes and r.label not in t.classes:
                raise AspmlError(f"a default rule concludes class {r.label!r}, which is not one "
                                 f"of the target's classes {list(t.classes)}")
            if not t.classes and r.label is not None:
                raise AspmlError(f"a default rule concludes class {r.label!r}, but the target "
                                 "is binary: give Target(classes=...) for a multi-class program")

    # -- schema ---------------------------------------------------------
    def _complete_schema(self, schema: Schema) -> Schema:
        if not isinstance(schema, Schema):
            schema = Schema(tuple(schema))
        implied: dict[str, set] = {}
        numbers: dict[str, list] = {}
        for name in self.background_atoms:             # derived Boolean features
            implied.setdefault(name, set()).add("boolean")
        for r in self.rules + self.background:      # background bodies read columns too
            for lit in r.body:
                if lit.feature is None:
                    continue
                kind = literal_kind(lit)
                implied.setdefault(lit.feature, set())
                if kind is not None:
                    implied[lit.feature].add(kind)
                numbers.setdefault(lit.feature, []).extend(v for v in lit.values() if is_number(v))
        features = list(schema.features)
        known = {f.name for f in features}
        for name, kinds in implied.items():
            if name in known:
                continue
            if kinds == {"boolean"}:
                kind = "boolean"
            elif "mixed" in kinds or ({"numeric", "categorical"} <= kinds):
                kind = "mixed"
            elif "numeric" in kinds:
                kind = "numeric"
            else:
                kind = "categorical"
            features.append(Feature(name, kind))
        out = []
        for f in features:
            for k in implied.get(f.name, ()):
                if not _compatible(f.kind, k) or (k == "boolean") != (f.kind == "boolean"):
                    raise AspmlError(
                        f"feature {f.name!r} is {f.kind} but a literal on it needs a {k} feature")
            if f.kind in ("numeric", "mixed"):
                nums = numbers.get(f.name, [])
                needed = scale_for(nums, f.name)
                if f.scale is None or needed is None:
                    scale = needed           # None: no scale holds them, the feature is ranked
                else:                        # a given scale, if its multiple still holds them
                    scale = math.lcm(f.scale, needed)
                    scale = scale if fits(nums, scale) else needed
                if scale != f.scale:
                    f = Feature(f.name, f.kind, scale)
            out.append(f)
        return Schema(tuple(out))

    # -- questions a user asks of a program ------------------------------
    @property
    def is_multiclass(self) -> bool:
        """Does the program conclude one of several classes (``target.classes``)?"""
        return self.target.is_multiclass

    @property
    def classes(self) -> tuple:
        """The target's classes (multi-class programs; ``()`` for binary ones)."""
        return self.target.classes

    def guards(self, k: int) -> tuple[int, ...]:
        """Multi-class: the indices (among :attr:`default_rules`) of the earlier default
        rules of other classes, which the ``k``-th default rule's class holds only
        without.  For the default class (``k = len(default_rules)``): every rule of
        another class."""
        rules = self.default_rules
        label = self.target.default if k == len(rules) else rules[k].label
        return tuple(j for j in range(min(k, len(rules))) if rules[j].label != label)

    @property
    def rule_atoms(self) -> tuple[str, ...]:
        """Multi-class: the helper atom each default rule is printed as (``rule1``,
        ``rule2``, ... by position among the default rules; a name already taken by a
        feature, exception, background atom or the target moves to the next free
        ``ruleK``).  ``()`` for binary programs."""
        if not self.is_multiclass:
            return ()
        # the completed schema names every feature the rules read, background atoms too
        taken = set(self.exception_names) | set(self.schema.names) | {self.target.name}
        out, k = [], 0
        for _ in self.default_rules:
            k += 1
            while f"rule{k}" in taken:
                k += 1
            out.append(f"rule{k}")
        return tuple(out)

    @property
    def default_rules(self) -> tuple[Rule, ...]:
        return tuple(r for r in self.rules if r.head is None)

    @property
    def exception_rules(self) -> tuple[Rule, ...]:
        return tuple(r for r in self.rules if r.head is not None)

    @property
    def n_rules(self) -> int:
        """Number of learned rules, exception rules included; background rules are not
        counted (``len(program.background)``)."""
        return len(self.rules)

    @property
    def n_literals(self) -> int:
        """Number of body literals over all rules, ``not abK`` included."""
        return sum(len(r.body) for r in self.rules)

    @property
    def literals(self) -> tuple[Literal, ...]:
        """Every body literal, of the learned rules and then of the background rules (so
        scales, rank tables and a row's world hold the background's constants too)."""
        return tuple(lit for r in self.rules + self.background for lit in r.body)

    @property
    def features_used(self) -> tuple[str, ...]:
        """The features the learned rules read (background atoms such as ``elderly`` included)."""
        return tuple(dict.fromkeys(f for r in self.rules for f in r.features))

    @property
    def background_atoms(self) -> tuple[str, ...]:
        """The atoms the background rules derive, in order of first definition."""
        return tuple(dict.fromkeys(r.head for r in self.background))

    @property
    def columns_used(self) -> tuple[str, ...]:
        """The columns the data must hold: what the learned and the background rules read,
        less the background atoms (every engine derives those).  Without background
        knowledge, :attr:`features_used`."""
        atoms = set(self.background_atoms)
        return tuple(dict.fromkeys(f for r in self.rules + self.background for f in r.features
                                   if f not in atoms))

    def background_columns(self, atom: str) -> tuple[str, ...]:
        """The columns background atom ``atom`` is derived from, through the background
        atoms its rules read (sorted)."""
        atoms, columns, todo, seen = set(self.background_atoms), set(), [atom], set()
        while todo:
            a = todo.pop()
            if a not in seen:
                seen.add(a)
                for f in (f for r in self.background if r.head == a for f in r.features):
                    if f in atoms:
                        todo.append(f)
                    else:
                        columns.add(f)
        return tuple(sorted(columns))

    @property
    def exception_names(self) -> tuple[str, ...]:
        """Every exception atom the rules define or read (``abK``), in order of first use:
        the derived atoms, then those only read (``not ab9`` with no rule: never holds)."""
        return tuple(dict.fromkeys([*self.derived,
                                    *(n for r in self.rules for n in r.exceptions)]))

    @property
    def derived(self) -> tuple[str, ...]:
        """Names of the derived (exception) atoms, in order of first definition."""
        return tuple(dict.fromkeys(r.head for r in self.rules if r.head is not None))

    def rules_for(self, head: str | None) -> tuple[Rule, ...]:
        return tuple(r for r in self.rules if r.head == head)

    def strata(self) -> list[str]:
        """Derived atoms in an order where each depends only on earlier ones.

        Raises :class:`AspmlError` when the program is not stratified (an atom
        depends on itself through negation).  An exception that no rule
        defines is not an error: it simply never holds.
        """
        deps = {name: set() for name in self.derived}
        for r in self.rules:
            if r.head is not None:
                deps[r.head].update(n for n in r.exceptions if n in deps)
        from .graph import dependency_order
        return dependency_order({name: sorted(d) for name, d in deps.items()}, lambda cycle:
                                AspmlError("program is not stratified: " + " -> ".join(cycle)))

    @property
    def provenance_dict(self) -> dict:
        return dict(self.provenance)

    # -- printing and running (thin doors to the modules that do the work)
    def to_asp(self) -> str:
        from .printers import print_program
        return print_program(self, "asp")

    def to_prolog(self) -> str:
        from .printers import print_program
        return print_program(self, "prolog")

    def to_scasp(self) -> str:
        from .printers import print_program
        return print_program(self, "scasp")

    def to_text(self) -> str:
        from .printers import print_program
        return print_program(self, "text")

    def print(self, dialect: str = "text") -> str:
        from .printers import print_program
        return print_program(self, dialect)

    def __str__(self) -> str:
        return self.to_text()

    def _repr_html_(self) -> str:
        """Jupyter's view: the rules coloured, each exception under the rules that use it
        (:func:`aspml.display.program_html`; a fitted learner adds its training figures)."""
        from ..display import program_html
        return program_html(self)

    def to_html(self, X=None, y=None) -> str:
        """The notebook view as HTML; with data ``X`` (and labels ``y``), each rule's
        coverage and precision on it, as ``aspml report`` counts them."""
        from ..display import program_html
        return program_html(self, X, y)

    def predict(self, X):
        """Fast path: a boolean array, True where the target holds for the row; for a
        multi-class program, each row's class (an object array, ``None`` where no rule
        covers the row and there is no default class)."""
        from ..evaluate import predict
        return predict(self, X)

    def coverage(self, X):
        """Fast path: a rows x rules boolean matrix, True where a rule's body holds."""
        from ..evaluate import coverage
        return coverage(self, X)

    def expand_negated_comparisons(self) -> "Program":
        """The same program with each ``not (f <= t)`` written as ``not abK`` and ``abK :- f <= t``.

        This is how FOLD-SE prints its negated comparisons, and the form
        s(CASP) can read.
        """
        used = (set(self.exception_names) | set(self.features_used) | {self.target.name}   # apart from features too
                | set(self.background_atoms) | set(self.schema.names))
        made: list[Rule] = []

        def helper(lit: NotCompare) -> str:
            k = len(made) + 1
            while f"ab{k}" in used:
                k += 1
            used.add(f"ab{k}")
            made.append(Rule(f"ab{k}", (Compare(lit.feature, lit.op, lit.value),)))
            return f"ab{k}"

        rules = [replace(r, body=tuple(NotAtom(helper(lit)) if isinstance(lit, NotCompare) else lit
                                       for lit in r.body)) for r in self.rules]
        extra, made = made, []
        # a theory's not (f <= t): a helper atom of its own, read as a negated Boolean feature
        background = [Rule(r.head, tuple(Flag(helper(lit), False) if isinstance(lit, NotCompare)
                                         else lit for lit in r.body)) for r in self.background]
        return replace(self, rules=tuple(rules + extra),
                       background=tuple(made + background))

    def save(self, path) -> None:
        """Write the model to ``path``: the print in the dialect its suffix names (``.pl``
        prolog, else asp; ``.txt`` and ``.scasp`` are refused) plus a checksum line; see
        :func:`aspml.load`."""
        from .store import save
        save(self, path)

    def with_schema(self, schema: Schema) -> "Program":
        return replace(self, schema=schema)

    def at_scales(self, scales: dict) -> "Program":
        """The same program printing each feature of ``scales`` (``{name: scale}``) at that
        scale; :class:`~aspml.errors.ScaleError` when its constants are not integers of
        clingo's at it (the engines' facts are written at these scales: a program
        printed at another would compare other numbers)."""
        # not through the schema's completion, which keeps a scale only while the
        # constants leave room for the engines' finer ones (SCALED_MAX) and else falls
        # back to the one they need: an engine's scale falling back put the program's
        # constants at another scale than its facts (clingo read a trial's amounts
        # doubled, answering rows unlike the fast path)
        from .printers import feature_numbers
        numbers = feature_numbers(self)
        for f in self.schema.features:
            if f.name not in scales:
                continue
            scale = scales[f.name]
            if f.scale is None or scale % f.scale:
                raise ScaleError(f"feature {f.name!r}: scale {scale} is not a multiple of the "
                                 f"program's ({f.scale})")
            if not fits(numbers.get(f.name, ()), scale, INT32_MAX):
                raise ScaleError(f"feature {f.name!r}: the program's numbers do not fit "
                                 f"clingo's 32-bit integers at scale {scale}")
        out = replace(self)
        object.__setattr__(out, "schema", Schema(tuple(
            Feature(f.name, f.kind, scales[f.name]) if f.name in scales else f
            for f in self.schema.features)))
        return out

    def with_prefix(self, prefix: str | None) -> "Program":
        """The same program printing its exception and helper predicates as
        ``{prefix}_ab1``, ``{prefix}_row`` (``None``: unprefixed)."""
        return replace(self, prefix=prefix)

    @property
    def predicates(self) -> dict[str, str]:
        """``{column: predicate}``: the predicate each feature of the schema is printed
        as in the ``asp`` and ``prolog`` prints (and in the facts aspml writes); see
        :func:`aspml.logic.names.predicate_names` for the rule."""
        from .printers import Naming
        return dict(Naming.of(self).preds)

    def _helper_names(self) -> list[str]:
        from .names import DOMAIN
        return [DOMAIN, *(n for n in self.exception_names if n != DOMAIN), *self.rule_atoms]

    def with_missing(self, missing) -> "Program":
        """The same program reading ``missing`` (a string or strings) as no value."""
        return replace(self, missing=missing)
