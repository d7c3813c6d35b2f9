"""Printers: the one place where program text is made.

Four dialects (DESIGN §3):

``asp``     clingo 5.8.  Numbers are per-feature scaled integers, or, on a
            feature no scale can hold (``2**40``, ``1e15``, raw floats), ranks
            among the feature's constants, listed in the header (see
            :mod:`aspml.logic.values`); categories are clingo strings; on
            mixed features a guard ``N < ""`` keeps strings out of numeric
            comparisons (clingo orders numbers before strings); intervals
            are chained comparisons ``30 <= N < 50``; value sets are pools
            ``N = ("a";"b")``; ``not (f <= t)`` is the conditional literal
            ``#false : f(X,M), M <= t``.  Rules whose other literals do not
            bind ``X`` start with ``row(X)``.
``prolog``  SWI-Prolog 9: ``\\+``, ``=<``, real numbers, quoted atoms,
            ``:- dynamic`` and ``:- discontiguous`` declarations, a
            ``number(N)`` guard on mixed features, intervals as a parenthesised
            pair of comparisons, value sets with ``memberchk/2``.  A rule
            whose first literal does not bind ``X`` starts with ``row(X)``
            (likewise in ``scasp``): open queries need ``X`` bound before ``\\+``.
``scasp``   s(CASP), in the FOLD-R++ output style (no type guards, so a
            mixed feature's strings meet numeric comparisons as s(CASP) decides): ``not``, real numbers,
            intervals as two comparisons, one open at both ends ("has a number") as
            the bare value atom ``f(X,N)`` on a numeric feature (read back, with the
            print's header, as that interval when no other literal reads ``N``; beside
            a value set on the same feature it is not read back); on a mixed feature,
            where that atom would hold for strings too and s(CASP) has no type test,
            the print is refused (``DialectError``: use ``asp`` or ``prolog``), as it
            is where a rule s(CASP) negates (an exception, a background atom, a
            multi-class default rule) compares a mixed feature (s(CASP)'s dual of a
            comparison fails on a string); value sets are ``member/2``, which the
            print defines at its end (s(CASP) has none built in);
            ``not (f <= t)``, which s(CASP)
            cannot say, is printed as FOLD-SE prints it: ``not abK(X)`` with
            ``abK(X) :- f(X,N), N =< t`` (see ``expand_negated_comparisons``).
``text``    for people: ``IF age in [30, 50) AND NOT ab1 THEN label = "yes"``.

A program's ``prefix`` (``heart``) names its exception and helper atoms
``heart_ab1`` and its domain ``heart_row`` in ``asp``, ``prolog`` and
``scasp``; the ``prolog`` print then also declares the feature predicates
``multifile``, so several programs' files, each with its facts, load into one
session and add to the same facts.  ``text`` prints the names without it.

``asp``, ``prolog`` and ``scasp`` start with a ``% aspml: {...}`` comment that
records the exact target, schema (names, kinds, scales) and provenance, so
``parse(p.to_asp(), "asp") == p`` and likewise for ``prolog``.  ``scasp``
round-trips every program without intervals or negated comparisons; an
interval comes back as its two comparisons, a negated comparison as an
exception rule (same meaning).  ``text`` carries the rules and the target but not
scales or provenance.

The rules an expert fixed before learning (``Program.expert``) are marked: a
``% expert rule`` line before each in ``asp``, ``prolog`` and ``scasp`` (and
their indices in the header, only when there are some), ``  # expert`` after
each in ``text``; the parsers read the marks back.

A multi-class program (``Program.is_multiclass``, a decision list) prints in
the reference FOLD-RM's form in ``asp``, ``prolog`` and ``scasp``: first one
clause per default rule ``k``, ``label(X,"b") :- rule2(X), not rule1(X).``,
whose helper atom is ``Program.rule_atoms[k]`` (prefixed like the exceptions:
``heart_rule2``) and whose negations are ``Program.guards(k)``, the earlier
rules of other classes; then the default class's clause ``label(X,"d") :-
row(X), not rule1(X), ...`` (none when ``target.default`` is None); then the
rules in ``Program.rules`` order, each default rule as its helper atom's rule
``rule1(X) :- body.``, exception rules as they are; then the background.  The
header then records the target's ``"classes"`` and ``"default"``.  The
``text`` print is a decision list read from the top::

    CLASSES "setosa", "versicolor", "virginica"
    IF petal_length <= 2.5 THEN label = "setosa"
    ELSE IF petal_width <= 1.7 AND NOT ab1 THEN label = "versicolor"
    ELSE label = "virginica"
    IF petal_width > 1.6 AND sepal_length > 7 THEN ab1

(``ELSE no class`` when there is no default class); the ``CLASSES`` line lists
every class, in the target's order, including classes no rule concludes.

A program with background knowledge (``Program.background``) prints its
background rules after the learned ones, under ``% background knowledge``
(``text``: ``WHERE elderly IF age >= 65``), and its header lists the derived
atoms (``"background": [...]``, only then, so every other print is unchanged).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..errors import DialectError
from .model import (DEFAULT_MISSING, Compare, Flag, InSet, Interval, Literal, NotAtom, NotCompare,
                    Program, Rule)
from .names import (DOMAIN, clingo_string, exception_like, invisible, predicate_names,
                    prefixed, prolog_atom, text_name, text_string)
from .values import Value, format_number, is_number, rank_code, scaled

DIALECTS = ("asp", "prolog", "scasp", "text")

# the asp print's header comments that say its numbers are not written as they are (the
# parser refuses a print that has them but lost its '% aspml:' header, which holds them)
SCALED_COMMENT = "Numbers are integers scaled per feature:"
RANKED_COMMENT = " is written as ranks: "
META_PREFIX = "% aspml: "
META_VERSION = 1


def print_program(program: Program, dialect: str = "text") -> str:
    if dialect not in DIALECTS:
        raise DialectError(f"unknown dialect {dialect!r}; use one of {DIALECTS}")
    if dialect == "text":
        return _print_text(program)
    if dialect == "scasp" and any(isinstance(lit, NotCompare) for lit in program.literals):
        program = program.expand_negated_comparisons()
    if dialect == "scasp":
        _refuse_number_tests(program)
        _refuse_negated_mixed_comparisons(program)
    return LogicPrinter(program, dialect).program()


def _refuse_negated_mixed_comparisons(program: Program) -> None:
    """s(CASP) answers ``not ab1(X)`` through the dual of ``ab1``'s rule, where a
    comparison becomes its opposite (``N =< 1`` becomes ``N > 1``) and a comparison of a
    string fails: on a mixed feature's string value neither ``ab1`` nor ``not ab1`` holds,
    where the other engines (a number test before the comparison) find ``not ab1`` true.
    A comparison on a mixed feature in a rule s(CASP) negates (an exception, a background
    atom, a multi-class program's default rule, which later classes negate) is refused
    (``DialectError``: print ``asp`` or ``prolog``); in a binary default rule it is
    printed (never negated: a string fails it, as in the other engines)."""
    def numeric_on_mixed(lit) -> bool:
        # (a negated comparison is an exception rule by now: expand_negated_comparisons)
        return (isinstance(lit, (Compare, Interval)) and lit.feature in program.schema
                and program.schema[lit.feature].kind == "mixed"
                and not (isinstance(lit, Compare) and lit.op in ("==", "!=")))
    for rule in _negated_rules(program):
        for lit in rule.body:
            if numeric_on_mixed(lit):
                what = (f"the exception {rule.head}" if rule.head in program.exception_names
                        else f"the background atom {rule.head}" if rule.head is not None
                        else f"a rule of class {text_value(rule.label)}")
                raise DialectError(
                    f"the scasp dialect cannot print this program with the meaning the "
                    f"other engines give it: {what} compares {lit.feature!r}, a mixed "
                    f"feature of numbers and strings ({text_literal(lit)}), and s(CASP) "
                    "negates that rule with the opposite comparison, which fails on a "
                    "string (such a row would get no answer); print the program in the "
                    "asp or prolog dialect, which test the type first")


def _refuse_number_tests(program: Program) -> None:
    """An interval open at both ends on a mixed feature says "the value is a number";
    s(CASP) has no type test (its builtins are comparisons, ``=``, ``\\=``, ``is`` and
    ``findall``), and the bare value atom, which says it on a numeric feature, would say
    "has any value" there: a program of another meaning, so none is printed."""
    for lit in program.literals:
        if (isinstance(lit, Interval) and lit.any_number and lit.feature in program.schema
                and program.schema[lit.feature].kind == "mixed"):
            raise DialectError(
                f"the scasp dialect cannot say {lit.feature!r} is a number "
                f"({text_literal(lit)}, on a mixed feature of numbers and strings): "
                "s(CASP) has no type "
                "test, and its bare value atom would also hold for a string; print the "
                "program in the asp or prolog dialect, which test the type")


def _negated_rules(program: Program) -> list:
    """The rules s(CASP) answers through their duals: those of an atom some rule reads
    under ``not`` (an exception, a background atom read as ``not f(X)``, a multi-class
    default rule a later class's clause negates: :meth:`Program.guards`), and, since a
    dual reads the duals of its body's atoms, those of every atom such a rule's body
    reads."""
    defaults = [i for i, r in enumerate(program.rules) if r.head is None]
    key = {i: ("rule", k) for k, i in enumerate(defaults)}       # a default rule's atom
    keyed = [(key.get(i, r.head), r) for i, r in enumerate((*program.rules, *program.background))]
    heads: dict = {}
    for k, r in keyed:
        heads.setdefault(k, []).append(r)
    todo = []
    if program.is_multiclass:
        last = len(defaults) + (program.target.default is not None)
        todo += [("rule", j) for k in range(last) for j in program.guards(k)]
    background = set(program.background_atoms)
    for r in (*program.rules, *program.background):
        for lit in r.body:
            if isinstance(lit, NotAtom):
                todo.append(lit.name)
            elif isinstance(lit, Flag) and not lit.positive and lit.feature in background:
                todo.append(lit.feature)
    seen: set = set()
    while todo:
        atom = todo.pop()
        if atom in seen:
            continue
        seen.add(atom)
        for r in heads.get(atom, ()):
            todo += [lit.name for lit in r.body if isinstance(lit, NotAtom)]
            todo += [lit.feature for lit in r.body
                     if isinstance(lit, Flag) and lit.feature in background]
    return [r for k, r in keyed if k in seen]      # in the program's order, run to run


def metadata(program: Program, dialect: str, naming: "Naming | None" = None,
             ranks: dict | None = None) -> dict:
    """The ``% aspml:`` header: exact target, schema (with predicate names), provenance,
    and the missing-value tokens when they are not the default ``("?",)``.

    A ranked feature's entry ends with its rank table (``asp`` only): a fifth
    element, so that a reader that does not know ranks refuses the header
    rather than reading ranks as numbers.
    """
    naming = naming or Naming.of(program)
    ranks = ranks or {}
    t = program.target
    meta = {
        "aspml": META_VERSION,
        "dialect": dialect,
        "target": {"name": t.name, "pred": naming.target, "positive": t.positive,
                   "negative": t.negative},
        "features": [[f.name, naming.preds[f.name], f.kind, f.scale]
                     + ([list(ranks[f.name])] if f.name in ranks else [])
                     for f in program.schema.features],
        "provenance": [list(kv) for kv in program.provenance],
    }
    if t.is_multiclass:                         # only then: binary headers stay as they were
        meta["target"]["classes"] = list(t.classes)
        meta["target"]["default"] = t.default
    if program.missing != DEFAULT_MISSING:      # the default leaves the header as it was
        meta["missing"] = list(program.missing)
    if program.expert:                          # likewise: only a program with expert rules
        meta["expert"] = list(program.expert)
    if program.prefix is not None:
        meta["prefix"] = program.prefix
    if program.background:                      # which Boolean features the rules below derive
        meta["background"] = list(program.background_atoms)
    return meta


EXPERT_COMMENT = "% expert rule"       # asp, prolog, scasp: the line before each expert rule
# scasp: s(CASP) has no member/2 built in (its built-ins are comparisons, =, \=, is and
# findall): without a definition every value set would be false, and its negation true.
# A print whose rules test a value set ends with this block; the parser reads past it.
SCASP_MEMBER = ("% s(CASP) has no member/2 built in: the value sets' test",
                "member(V,[V|_]).",
                "member(V,[_|T]) :- member(V,T).")
EXPERT_TEXT = "  # expert"             # text: after each expert rule (the text parser reads it)


def feature_numbers(program: Program) -> dict:
    """``{feature: {numbers its literals use}}`` (background rules included), in one pass."""
    numbers: dict = {}
    for lit in program.literals:
        if lit.feature is not None:
            numbers.setdefault(lit.feature, set()).update(v for v in lit.values() if is_number(v))
    return numbers


def rank_tables(program: Program) -> dict:
    """``{feature: (t1, t2, ...)}``, the sorted constants of each numeric feature that
    no scale holds (scale ``None``): the ``asp`` print writes their ranks."""
    numbers = feature_numbers(program)
    return {f.name: tuple(sorted(numbers[f.name])) for f in program.schema.features
            if f.kind in ("numeric", "mixed") and f.scale is None and numbers.get(f.name)}


@dataclass(frozen=True)
class Naming:
    """The printed predicate names: the target's, each feature's (``preds``), each
    exception's (``derived``: ``ab1`` -> ``heart_ab1`` with prefix ``heart``) and the
    domain's (``row``, ``heart_row``) and, in a multi-class program, each default rule's
    helper atom (``rules``: ``rule1`` or ``heart_rule1``).  Feature predicates avoid the exception names
    both ways, so a column's predicate does not change when a prefix is set, except
    for a column named like a prefixed name (``heart_ab1`` gets ``heart_ab1_2``)."""

    target: str
    preds: dict
    derived: dict = field(default_factory=dict)
    domain: str = DOMAIN
    rules: tuple = ()

    @staticmethod
    def of(program: Program) -> "Naming":
        derived = {n: prefixed(program.prefix, n) for n in program.exception_names}
        domain = prefixed(program.prefix, DOMAIN)
        atoms = program.rule_atoms
        rules = tuple(prefixed(program.prefix, n) for n in atoms)
        taken = set(derived) | set(derived.values()) | {domain} | set(atoms) | set(rules)
        target, preds = predicate_names(program.target.name, program.schema.names, taken)
        if program.prefix is not None and program.background:
            # the background atoms are the program's own (its rules define them): prefixed
            # like its exceptions, so two programs' "elderly" do not merge in one knowledge base
            used = set(preds.values()) | set(derived.values()) | {domain, target}
            for atom in program.background_atoms:
                base = prefixed(program.prefix, preds[atom])
                name, k = base, 2
                while name in used:
                    name, k = f"{base}_{k}", k + 1
                used.add(name)
                preds[atom] = name
        return Naming(target, preds, derived, domain, rules)

    def atom(self, name: str) -> str:
        """The printed name of the derived atom ``name``."""
        return self.derived.get(name, name)


# ---------------------------------------------------------------------------
# asp, prolog, scasp
# ---------------------------------------------------------------------------

_OPS = {
    "asp": {"==": "=", "!=": "!=", "<=": "<=", ">": ">", "<": "<", ">=": ">="},
    "prolog": {"==": "=:=", "!=": "=\\=", "<=": "=<", ">": ">", "<": "<", ">=": ">="},
}
_OPS["scasp"] = _OPS["prolog"]


@dataclass
class _RuleContext:
    bound: dict = field(default_factory=dict)    # feature -> variable
    guarded: set = field(default_factory=set)    # variables after their type guard
    locals: int = 0
    sets: int = 0                                 # value sets (InSet) in the rule's body

    def fresh_local(self) -> str:
        self.locals += 1
        return f"M{self.locals}"


class LogicPrinter:
    def __init__(self, program: Program, dialect: str) -> None:
        self.p = program
        self.d = dialect
        self.naming = Naming.of(program)
        self.schema = program.schema
        self.ranks = rank_tables(program) if dialect == "asp" else {}
        self.neg = "not " if dialect in ("asp", "scasp") else "\\+ "
        terms = [self.label(c) for c in program.classes]
        if len(set(terms)) < len(terms):      # clingo: the class 1.5 is the string "1.5"
            same = next(t for t in terms if terms.count(t) > 1)
            raise DialectError(f"two classes print as {same} in {dialect}: rename one of "
                               f"{[c for c, t in zip(program.classes, terms) if t == same]}")

    # -- constants -----------------------------------------------------
    def const(self, feature: str, value: Value) -> str:
        if isinstance(value, str):
            return clingo_string(value) if self.d == "asp" else prolog_atom(value)
        if self.d == "asp":
            if feature in self.ranks:
                return str(rank_code(value, self.ranks[feature]))
            return str(scaled(value, self.schema[feature].scale, feature))
        return format_number(value)

    def label(self, value: Value) -> str:
        return label_term(value, self.d)

    # -- atoms ---------------------------------------------------------
    def head(self, rule: Rule, var: str = "X") -> str:
        if rule.head is not None:
            return f"{self.naming.atom(rule.head)}({var})"
        t = self.p.target
        if rule.label is not None:
            return f"{self.naming.target}({var},{self.label(rule.label)})"
        if t.positive is None:
            return f"{self.naming.target}({var})"
        return f"{self.naming.target}({var},{self.label(t.positive)})"

    def pred(self, feature: str) -> str:
        return self.naming.preds[feature]

    def binder(self, feature: str, ctx: _RuleContext, out: list[str], numeric: bool) -> str:
        """The variable holding the feature's value, bound on first use.

        Before the first numeric use of a mixed feature's variable comes the
        type guard (value sets need no guard: they may hold strings).
        """
        var = ctx.bound.get(feature)
        if var is None:
            var = f"N{len(ctx.bound) + 1}"
            ctx.bound[feature] = var
            out.append(f"{self.pred(feature)}(X,{var})")
        if numeric and var not in ctx.guarded:
            ctx.guarded.add(var)
            out.extend(self.guard(feature, var))
        return var

    def guard(self, feature: str, var: str) -> list[str]:
        if self.schema[feature].kind != "mixed" or self.d == "scasp":
            return []
        return [f'{var} < ""'] if self.d == "asp" else [f"number({var})"]

    def compare(self, var: str, op: str, feature: str, value: Value) -> str:
        return f"{var} {_OPS[self.d][op]} {self.const(feature, value)}"

    # -- literals ------------------------------------------------------
    def literal(self, lit: Literal, ctx: _RuleContext) -> list[str]:
        out: list[str] = []
        if isinstance(lit, NotAtom):
            out.append(f"{self.neg}{self.naming.atom(lit.name)}(X)")
        elif isinstance(lit, Flag):
            out.append(("" if lit.positive else self.neg) + f"{self.pred(lit.feature)}(X)")
        elif isinstance(lit, Compare) and lit.op in ("==", "!="):
            atom = f"{self.pred(lit.feature)}(X,{self.const(lit.feature, lit.value)})"
            out.append(atom if lit.op == "==" else self.neg + atom)
        elif isinstance(lit, Compare):
            var = self.binder(lit.feature, ctx, out, numeric=True)
            out.append(self.compare(var, lit.op, lit.feature, lit.value))
        elif isinstance(lit, Interval):
            var = self.binder(lit.feature, ctx, out, numeric=True)
            out.extend(self.interval(var, lit))
        elif isinstance(lit, InSet):
            var = self.binder(lit.feature, ctx, out, numeric=False)
            out.append(self.inset(var, lit, counted=ctx.sets > 1))
        elif isinstance(lit, NotCompare):
            out.append(self.not_compare(lit, ctx))
        else:  # pragma: no cover - every Literal subclass is handled above
            raise DialectError(f"cannot print {lit!r}")
        return out

    def interval(self, var: str, lit: Interval) -> list[str]:
        f = lit.feature
        lo_op = "<=" if lit.lo_closed else "<"
        hi_op = "<=" if lit.hi_closed else "<"
        if self.d == "asp":
            lo = "#inf" if lit.lo is None else self.const(f, lit.lo)
            hi = "#sup" if lit.hi is None else self.const(f, lit.hi)
            return [f"{lo} {lo_op} {var} {hi_op} {hi}"]
        ops = _OPS[self.d]
        if self.d == "prolog":
            lo = "-inf" if lit.lo is None else self.const(f, lit.lo)
            hi = "inf" if lit.hi is None else self.const(f, lit.hi)
            lo_cmp = ops[">=" if lit.lo_closed else ">"]
            return [f"({var} {lo_cmp} {lo}, {var} {ops[hi_op]} {hi})"]
        parts = []  # scasp: the FOLD-R++ style, one comparison per bounded end
        if lit.lo is not None:
            parts.append(self.compare(var, ">=" if lit.lo_closed else ">", f, lit.lo))
        if lit.hi is not None:
            parts.append(self.compare(var, hi_op, f, lit.hi))
        return parts    # both ends open: the binding atom alone says "has a value"

    def inset(self, var: str, lit: InSet, counted: bool = False) -> str:
        """``var`` is one of the set's values.  In ``asp`` a pool, ``N1 = ("a";"b")``, which
        clingo reads as one rule per value; in a rule of two sets or more, ``counted``, as
        ``#count{0 : N1 = ("a";"b")} > 0``, one rule (the pools of one rule multiply: a
        trial's LIBRE rule of four sets of 5 to 104 codes was 421,200 rules, and clingo
        ran out of memory)."""
        members = [self.const(lit.feature, v) for v in lit.sorted_members()]
        if self.d == "asp":
            pool = f"{var} = ({';'.join(members)})"
            return f"#count{{0 : {pool}}} > 0" if counted else pool
        fn = "memberchk" if self.d == "prolog" else "member"
        return f"{fn}({var},[{','.join(members)}])"

    def not_compare(self, lit: NotCompare, ctx: _RuleContext) -> str:
        f = lit.feature
        var = ctx.fresh_local()
        inner = [f"{self.pred(f)}(X,{var})", *self.guard(f, var),
                 self.compare(var, lit.op, f, lit.value)]
        if self.d == "asp":
            return "#false : " + ", ".join(inner)
        return "\\+ (" + ", ".join(inner) + ")"

    # -- rules and programs ---------------------------------------------
    def rule(self, rule: Rule, head: str | None = None) -> str:
        """The rule as text; ``head`` replaces its head (aspml's own encodings use that)."""
        ctx = _RuleContext(sets=sum(isinstance(lit, InSet) for lit in rule.body))
        # (a literal may print nothing: an interval open at both ends whose value is bound
        # already, in scasp)
        body = [part for part in (", ".join(self.literal(lit, ctx)) for lit in rule.body) if part]
        if self.needs_domain(rule):
            body.insert(0, f"{self.naming.domain}(X)")
        head = head or self.head(rule)
        text = ""
        for i, part in enumerate(body):
            # after clingo's conditional literal only ';' ends its condition
            sep = ";" if i and body[i - 1].startswith("#false :") else ","
            text += ("" if i == 0 else sep) + "\n    " + part
        return f"{head} :-{text}."

    def split_rule(self, rule: Rule, i: int, head: str | None = None, parts: bool = True) -> str:
        """Rule ``i`` (asp) with each feature's conditions in an atom of its own,
        ``aspml_part(i,K,X) :- <the conditions on feature K>.``, and the rule reading those
        atoms and its exceptions.  The same rule, as clingo grounds it over one row whose
        values are open to change: there each feature ranges over hundreds of values,
        and a body binding several features at once grounds their product (a trial's
        minimal reason, on a rule of three numeric features, passed 20 GB); apart, their
        sum.  A rule of conditions on one feature or none prints as :meth:`rule` prints it.
        ``parts`` False: the rule alone, reading the ``aspml_part`` atoms another print of
        rule ``i`` defined."""
        groups: dict = {}
        rest = []
        for lit in rule.body:
            if isinstance(lit, NotAtom):
                rest.append(lit)
            else:
                groups.setdefault(lit.feature, []).append(lit)
        if len(groups) < 2:
            return self.rule(rule, head)
        lines, body = [], []
        for k, lits in enumerate(groups.values()):
            atom = f"aspml_part({i},{k},X)"
            if parts:
                lines.append(self.rule(Rule(None, tuple(lits)), head=atom))
            body.append(atom)
        body += [part for lit in rest for part in self.literal(lit, _RuleContext())]
        text = ",".join("\n    " + part for part in body)
        lines.append(f"{head or self.head(rule)} :-{text}.")
        return "\n".join(lines)

    def needs_domain(self, rule: Rule) -> bool:
        """Does the rule need ``row(X)`` in front, to bind ``X``?

        clingo only needs some positive literal on ``X`` (safety).  Prolog and
        s(CASP) run a body left to right, and ``\\+ ab1(X)``, ``\\+ f(X,v)`` or
        ``\\+ (f(X,M), M =< t)`` answer for every row only once ``X`` is bound
        (negation as failure is sound on ground goals alone): an open query
        ``label(R, V)`` would otherwise get no answer, or an unbound one.  So
        the first goal must bind ``X``; when the first literal does not,
        ``row(X)`` does.  The literals keep their order, which is part of the
        program (``parse(p.to_prolog(), "prolog") == p``); every comparison
        already follows the atom that binds its variable (:meth:`binder`).
        """
        if self.d == "asp":
            return not any(_binds_x(lit) for lit in rule.body)
        return not rule.body or not _binds_x(rule.body[0])

    def uses_domain(self) -> bool:
        return (any(self.needs_domain(r) for r in self.p.rules + self.p.background)
                or self.p.target.default is not None)       # the default class's clause

    def header(self) -> list[str]:
        p = self.p
        lines = [f"% aspml program, {self.d} dialect: {_describe_target(p)}"]
        # a Boolean feature is pred(X) when true and no fact when false (a deployment
        # trial wrote smoker(0,true) as the line said, and a positive row turned negative)
        flags = ("; a Boolean feature as pred(X) when true, no fact when false"
                 if any(f.kind == "boolean" for f in p.schema.features) else "")
        if self.d == "asp":
            lines.append(f"% Input: {self.naming.domain}(X) for each row X, and pred(X,Value) "
                         f"for each known value{flags}.")
            scales = [f"{json.dumps(f.name)} x{f.scale}" for f in p.schema.features
                      if f.kind in ("numeric", "mixed") and f.scale not in (None, 1)]
            if scales:
                lines.append(f"% {SCALED_COMMENT} " + ", ".join(scales) + ".")
            for name, table in self.ranks.items():
                pairs = ", ".join(f"{2 * i + 2} = {format_number(v)}" for i, v in enumerate(table))
                lines.append(f"% {json.dumps(name, ensure_ascii=True)}{RANKED_COMMENT}{pairs}"
                             " (an odd rank lies between: 1 below all, "
                             f"{2 * len(table) + 1} above all).")
            if any(f.kind == "mixed" for f in p.schema.features):
                lines.append('% N < "" holds only for numbers (clingo orders numbers before strings).')
            hidden = _hidden_strings(p)
            if hidden:      # clingo strings have no escape for them: name them here
                lines.append("% Strings with invisible characters (escaped here, raw below): "
                             + ", ".join(text_string(s) for s in hidden) + ".")
        elif self.d == "prolog" and self.uses_domain():
            # a knowledge base without the row facts: the rules that start from them never
            # hold, and a later rule (or no class) answers in their place
            lines.append(f"% Input: {self.naming.domain}(X) for each row X (the rules that "
                         "start from it hold for no row without it), and pred(X,Value) for "
                         f"each known value{flags}.")
        lines.append(META_PREFIX + json.dumps(metadata(p, self.d, self.naming, self.ranks),
                                              ensure_ascii=True))
        return lines

    def declarations(self) -> list[str]:
        if self.d != "prolog":
            # s(CASP) reads every ":- Body" as a global constraint (an encoding directive
            # would be one on an undefined encoding/1, a deployment trial); it reads its
            # files as UTF-8, as SWI-Prolog does
            return []
        indicators, shared = [], []
        own = set(self.p.background_atoms)     # derived by the program's own rules
        for f in self.p.schema.features:
            arity = 1 if f.kind == "boolean" else 2
            indicators.append(f"{self.pred(f.name)}/{arity}")
            if f.name not in own:
                shared.append(indicators[-1])  # the feature facts
        indicators += [f"{n}/1" for n in self.naming.derived.values()]
        if self.uses_domain():
            indicators.append(f"{self.naming.domain}/1")   # without row facts: loads, answers no
        multi = self.p.is_multiclass
        target_arity = 1 if self.p.target.positive is None and not multi else 2
        helpers = [f"{n}/1" for n in self.naming.rules]
        indicators += helpers
        if not self.p.default_rules and self.p.target.default is None:
            indicators.append(f"{self.naming.target}/{target_arity}")
        # every predicate the program defines: a background atom's clauses may lie apart in
        # its theory (elderly, rich, elderly), and swipl warns of any not so declared
        heads = ([f"{self.naming.target}/{target_arity}"]
                 + [f"{self.naming.atom(n)}/1" for n in self.p.derived] + helpers
                 + [f"{self.pred(f.name)}/{1 if f.kind == 'boolean' else 2}"
                    for f in self.p.schema.features if f.name in own])
        lines = [":- encoding(utf8)."]
        if indicators:
            lines.append(":- dynamic " + ", ".join(indicators) + ".")
        if self.p.prefix is not None and shared:
            # programs of one knowledge base share the feature facts: each file adds to
            # them (without multifile, consulting the second file would wipe the first's)
            lines.append(":- multifile " + ", ".join(shared) + ".")
        # and the feature facts: a feeder that writes them row by row (age(1,..), sex(1,..),
        # age(2,..)) after the rules made swipl warn for every feature (a deployment trial)
        # (and row/1, which export --facts writes for every program)
        lines.append(":- discontiguous " + ", ".join(heads + shared + [f"{self.naming.domain}/1"])
                     + ".")
        return lines

    def program(self, split: bool = False) -> str:
        """The program as text.  ``split`` (asp, aspml's own encodings): each rule whose
        conditions read two features or more reads each feature's in an atom of its own
        (:meth:`split_rule`), the same program for clingo to ground over one row whose
        values are open (minimal reasons, counterfactuals)."""
        lines = self.header() + self.declarations() + [""]
        if self.p.is_multiclass:
            lines += self.decisions()
        expert = set(self.p.expert)
        helper = dict(zip((i for i, r in enumerate(self.p.rules) if r.head is None),
                          self.naming.rules))
        for i, r in enumerate(self.p.rules):
            lines += [EXPERT_COMMENT] if i in expert else []
            # multi-class: a default rule is its helper atom's rule, ruleK(X) :- body
            head = f"{helper[i]}(X)" if i in helper else None
            lines.append(self.split_rule(r, i, head) if split else self.rule(r, head))
        lines += self.background()
        if self.d == "scasp" and any(isinstance(lit, InSet) for lit in self.p.literals):
            lines += ["", *SCASP_MEMBER]
        return "\n".join(lines) + "\n"

    def decisions(self) -> list[str]:
        """Multi-class, FOLD-RM's form: one clause per default rule, ``label(X,c) :-
        ruleK(X), not ruleJ(X), ...`` over the earlier rules of other classes, then the
        default class, ``label(X,d) :- row(X), not rule1(X), ...`` (``row(X)`` binds X
        before the negations, as for any rule that does not bind it)."""
        p, atoms = self.p, self.naming.rules
        lines = []
        for k, r in enumerate(p.default_rules):
            body = [f"{atoms[k]}(X)"] + [f"{self.neg}{atoms[j]}(X)" for j in p.guards(k)]
            lines.append(f"{self.head(r)} :- " + ", ".join(body) + ".")
        if p.target.default is not None:
            body = [f"{self.naming.domain}(X)"] + [
                f"{self.neg}{atoms[j]}(X)" for j in p.guards(len(p.default_rules))]
            lines.append(f"{self.naming.target}(X,{self.label(p.target.default)}) :- "
                         + ", ".join(body) + ".")
        return lines

    def background(self) -> list[str]:
        """The background rules after the learned ones, under a comment: the program
        derives its Boolean background atoms itself, from the data's facts."""
        if not self.p.background:
            return []
        return ["", "% background knowledge"] + [
            self.rule(r, head=f"{self.pred(r.head)}(X)") for r in self.p.background]


def label_term(value: Value, dialect: str) -> str:
    """A class label as a constant of ``dialect``: a clingo string or a quoted Prolog atom
    for a category, a number as it is; clingo has neither fractions nor integers past
    32 bits, so such a number is the string of its digits in ``asp`` (the header's
    ``classes`` tell it apart when read back)."""
    if isinstance(value, str):
        return clingo_string(value) if dialect == "asp" else prolog_atom(value)
    if dialect == "asp" and not (isinstance(value, int) and abs(value) <= 2**31 - 1):
        return clingo_string(format_number(value))
    return format_number(value)


def _binds_x(lit: Literal) -> bool:
    """Is the literal's first goal a positive atom on ``X`` (so it binds ``X``)?

    The others, ``not ab1(X)``, ``not f(X)``, ``f != v`` and ``not (f <= t)``,
    are negations: they need ``X`` bound in Prolog and s(CASP).
    """
    if isinstance(lit, Flag):
        return lit.positive
    if isinstance(lit, Compare):
        return lit.op != "!="
    return isinstance(lit, (Interval, InSet))


def _hidden_strings(p: Program) -> list[str]:
    """The program's string constants that hold an invisible character, sorted."""
    found = {v for v in (p.target.positive, *p.target.classes) if isinstance(v, str)}
    for lit in p.literals:
        values = lit.members if isinstance(lit, InSet) else (getattr(lit, "value", None),)
        found.update(v for v in values if isinstance(v, str))
    return sorted(s for s in found if any(invisible(ch) for ch in s))


def _describe_target(p: Program) -> str:
    t = p.target
    if t.is_multiclass:
        return (f"target {json.dumps(t.name, ensure_ascii=True)}, {len(t.classes)} classes, "
                "first rule that holds decides")
    value = "" if t.positive is None else f" = {json.dumps(t.positive)}"
    return f"target {json.dumps(t.name, ensure_ascii=True)}{value}"


# ---------------------------------------------------------------------------
# text
# ---------------------------------------------------------------------------

_TEXT_OPS = {"==": "=", "!=": "!=", "<=": "<=", ">": ">", "<": "<", ">=": ">="}


def text_value(value: Value) -> str:
    return format_number(value) if is_number(value) else text_string(value)


def text_literal(lit: Literal, derived=()) -> str:
    """One literal as people read it: ``age > 50``, ``sex in {"f", "m"}``, ``NOT ab1``.
    ``derived``: the names the program's rules derive (its exceptions, its target); a
    Boolean feature of one of those names (or named like an exception, ``ab1``) is
    quoted, as bare it would read as the derived atom."""
    if isinstance(lit, NotAtom):
        return f"NOT {lit.name}"
    name = text_name(lit.feature)
    if isinstance(lit, Flag):
        if exception_like(lit.feature) or lit.feature in derived:
            name = text_string(lit.feature)
        return name if lit.positive else f"NOT {name}"
    if isinstance(lit, Compare):
        return f"{name} {_TEXT_OPS[lit.op]} {text_value(lit.value)}"
    if isinstance(lit, NotCompare):
        return f"NOT ({name} {lit.op} {text_value(lit.value)})"
    if isinstance(lit, Interval) and lit.any_number:
        # "in (-inf, inf)" reads as always true; it says the row has a number there
        return f"{name} is a number"
    if isinstance(lit, Interval):
        lo = "-inf" if lit.lo is None else text_value(lit.lo)
        hi = "inf" if lit.hi is None else text_value(lit.hi)
        return f"{name} in {'[' if lit.lo_closed else '('}{lo}, {hi}{']' if lit.hi_closed else ')'}"
    if isinstance(lit, InSet):
        return f"{name} in {{{', '.join(text_value(v) for v in lit.sorted_members())}}}"
    raise DialectError(f"cannot print {lit!r}")  # pragma: no cover


def text_head(program: Program, rule: Rule) -> str:
    if rule.head is not None:
        return rule.head
    t = program.target
    name = text_name(t.name)
    if rule.label is not None:                  # a multi-class program's default rule
        return f"{name} = {text_value(rule.label)}"
    return name if t.positive is None else f"{name} = {text_value(t.positive)}"


# the line between a decision list (its default rules and ELSE) and the rules of the
# exceptions they negate, which read as entries of the list (a teacher's trial); a binary
# program prints as it did before multi-class programs (#17), its ELSE last
EXCEPTIONS_TEXT = "# exceptions"


def _print_text(program: Program) -> str:
    if program.is_multiclass:
        return _print_decision_list(program)
    lines = []
    expert = set(program.expert)
    derived = {*program.exception_names, program.target.name}
    for i, rule in enumerate(program.rules):
        cond = " AND ".join(text_literal(lit, derived) for lit in rule.body) or "TRUE"
        lines.append(f"IF {cond} THEN {text_head(program, rule)}"
                     + (EXPERT_TEXT if i in expert else ""))
    lines.append(f"ELSE {text_otherwise(program)}")
    return "\n".join(lines + _text_background(program)) + "\n"


def text_otherwise(program: Program) -> str:
    """A binary program's answer where no rule holds, in words: ``label = "no"``,
    ``label != "yes"`` without a negative label, ``NOT flies`` without labels."""
    t = program.target
    name = text_name(t.name)
    if t.negative is not None:
        return f"{name} = {text_value(t.negative)}"
    if t.positive is not None:
        return f"{name} != {text_value(t.positive)}"
    return f"NOT {name}"


def _print_decision_list(program: Program) -> str:
    """A multi-class program for people: its classes, then the default rules as a decision
    list a reader follows from the top (``IF`` / ``ELSE IF`` ... ``THEN label = "c"``, the
    first that holds decides) and ``ELSE label = "d"`` (``ELSE no class`` without a default
    class); then the exception rules and the background, as in a binary program."""
    t = program.target
    name = text_name(t.name)
    lines = ["CLASSES " + ", ".join(text_value(c) for c in t.classes)]
    expert = set(program.expert)
    derived = {*program.exception_names, program.target.name}
    exceptions = []
    for i, rule in enumerate(program.rules):
        cond = " AND ".join(text_literal(lit, derived) for lit in rule.body) or "TRUE"
        mark = EXPERT_TEXT if i in expert else ""
        if rule.head is None:
            word = "ELSE IF" if len(lines) > 1 else "IF"
            lines.append(f"{word} {cond} THEN {text_head(program, rule)}{mark}")
        else:
            exceptions.append(f"IF {cond} THEN {rule.head}{mark}")
    lines.append(f"ELSE {name} = {text_value(t.default)}" if t.default is not None
                 else "ELSE no class")
    lines += [EXCEPTIONS_TEXT, *exceptions] if exceptions else []
    return "\n".join(lines + _text_background(program)) + "\n"


def _text_background(program: Program) -> list[str]:
    if not program.background:
        return []
    return ["# background knowledge"] + [
        f"WHERE {text_name(r.head)} IF " + (" AND ".join(text_literal(lit) for lit in r.body)
                                            or "TRUE") for r in program.background]
