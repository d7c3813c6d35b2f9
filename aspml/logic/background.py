"""Background knowledge: a theory of derived Boolean atoms over a row's columns.

A background theory is text in the rule language aspml's ``asp`` (or
``prolog``) parser reads, with one-argument heads::

    elderly(X) :- age(X,A), A >= 65.
    risk(X)    :- smoker(X,"yes"), bmi(X,B), B > 30.
    frail(X)   :- elderly(X), not risk(X).

Bodies hold feature atoms on the data's columns (named as every print names
them: :func:`aspml.logic.names.predicate_names`, ``"Capital Gain"`` is
``capital_gain``), comparisons of a column's value with a constant, and other
background atoms, positive or negated.  Each rule becomes a :class:`Rule`
whose head is the atom's name and whose body reads the other atoms as
:class:`Flag` literals, the way learned rules read them.  Richer ASP (joins
between rows, aggregates, arithmetic between two columns) is out of scope and
refused with one error, as are a theory that is not stratified or is
recursive, a head that clashes with a column or the target, and a body
predicate that is neither a column nor a background atom.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import AspmlError, ParseError
from .model import Compare, Flag, InSet, Program, Rule
from .graph import dependency_order
from .names import predicate_names
from .parser import _LenientBuilder, _read, parse
from .store import SAVE_DIALECTS, header_dialect


def background_order(rules) -> list[str]:
    """The background atoms in an order where each reads only earlier ones.

    A cycle is one error: "not stratified" when it passes through a negation
    (``a(X) :- not b(X). b(X) :- not a(X).``), "recursive" otherwise.
    """
    heads = list(dict.fromkeys(r.head for r in rules))
    deps: dict = {h: {} for h in heads}           # head -> {atom it reads: through negation?}
    for r in rules:
        for lit in r.body:
            if isinstance(lit, Flag) and lit.feature in deps:
                deps[r.head][lit.feature] = deps[r.head].get(lit.feature, False) or not lit.positive
    def cycle_error(cycle: list) -> AspmlError:
        name, shown = cycle[0], " -> ".join(cycle)
        if any(deps[a][b] for a, b in zip(cycle, cycle[1:])):
            return AspmlError(f"the background theory is not stratified: {name} depends on "
                              f"itself through negation ({shown})")
        return AspmlError(f"the background theory is recursive: {name} depends on itself "
                          f"({shown}); aspml reads non-recursive theories only")

    return dependency_order(deps, cycle_error)


def read_background(given, columns, target: str = "label", schema=None) -> tuple[Rule, ...]:
    """The background rules ``given`` as theory text, a path to a theory file, a Program
    (its background), or Rules; checked against the data's ``columns`` (their names)
    and the ``target`` name.  With the data's ``schema``, a number compared with a
    categorical column (``sex(X,1)``) is the category ``"1"``, as the data reads it."""
    columns = [str(c) for c in columns]
    where = ""                              # " FILE" when the theory was read from one
    if isinstance(given, Program):
        rules = given.background
    elif isinstance(given, (str, os.PathLike)):
        text = _theory_text(given)
        where = "" if text is given else f" {given}"
        try:
            rules = parse_theory(text, columns, target)
        except ParseError as e:           # say which text the line and column are of
            at = f", line {e.line}, column {e.column}" if e.line is not None else ""
            error = ParseError(e.message, e.line, e.column, e.excerpt)
            error.args = (f"background theory{where}{at}: {e.message}"
                          + (f"\n{e.excerpt}" if e.excerpt else ""),)
            raise error from None
    else:
        try:
            rules = tuple(given)
        except TypeError:
            rules = None
        if rules is None or not all(isinstance(r, Rule) for r in rules):
            raise AspmlError("background must be theory text, a path to a theory file, a "
                             f"Program or a list of Rules, not {type(given).__name__}")
    rules = tuple(rules)
    if not rules:
        raise AspmlError("the background theory has no rules")
    check_background(rules, columns, target)
    if schema is None:
        return rules
    return tuple(_as_categories(r, schema, f"background theory{where}, rule {k + 1}")
                 for k, r in enumerate(rules))


def _as_categories(rule: Rule, schema, said: str) -> Rule:
    """The rule over the data's columns: a number compared with a categorical column is
    its category; a text compared with a numeric one is an error (``said``: which rule)."""
    from ..data.table import category_text
    body = []
    for lit in rule.body:
        f = schema.get(lit.feature) if lit.feature is not None else None
        texts = [v for v in lit.values() if isinstance(v, str)] if f is not None else []
        if f is not None and f.kind == "numeric" and texts:
            raise AspmlError(f"{said} ({rule.head}): column {lit.feature!r} holds numbers, and "
                             f"the rule compares it with the text {texts[0]!r} (write the "
                             f"number: {lit.feature}(X,{texts[0]}) without quotes)")
        if f is not None and f.kind == "categorical":
            if isinstance(lit, Compare) and lit.op in ("==", "!="):
                lit = Compare(lit.feature, lit.op, category_text(lit.value))
            elif isinstance(lit, InSet):
                lit = InSet(lit.feature, frozenset(category_text(v) for v in lit.members))
        body.append(lit)
    return Rule(rule.head, tuple(body))


def _theory_text(given) -> str:
    """The theory's text: a path is read; a string that names no file and holds a
    parenthesis is the text itself."""
    if isinstance(given, str) and "(" in given and ("\n" in given or not os.path.isfile(given)):
        return given
    path = Path(given)
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise AspmlError(f"background: no file {str(given)!r} (give a path to a theory file, "
                         "or the theory's text)") from None
    except IsADirectoryError:
        raise AspmlError(f"background: {str(given)!r} is a directory, not a theory file") from None
    except UnicodeDecodeError:
        raise AspmlError(f"background: {str(given)!r} is not UTF-8 text") from None
    except OSError as e:
        raise AspmlError(f"background: cannot read {str(given)!r}: {e.strerror or e}") from None
    return text


def parse_theory(text: str, columns, target: str = "label"):
    """Theory text as background Rules over ``columns``.

    Both dialects are read leniently as one (``not`` or ``\\+``, ``=<`` or
    ``<=``, ``"yes"`` or ``'yes'``, decimals allowed).  A text that carries an
    ``% aspml:`` header is a saved model: its background is taken.
    """
    said = header_dialect(text)
    if said is not None:
        return parse(text, said if said in SAVE_DIALECTS else "asp").background
    try:
        return _theory(text, columns, target, "prolog")
    except ParseError as e:
        # (an aggregate: '#' was no character of the grammar; #count is now, as the asp
        # print writes a value set of a rule of several)
        if any(sign in e.message for sign in _BEYOND) or "#count" in (e.excerpt or ""):
            raise ParseError(f"{e.message} ({OUT_OF_SCOPE})", e.line, e.column,
                             e.excerpt) from None
        raise


OUT_OF_SCOPE = ("a background rule reads one row: joins between rows, aggregates and "
                "arithmetic between two columns are out of scope")
_BEYOND = ("speaks of another row", "found variable", "unexpected character '#'",
           "holds two features")


def _theory(text: str, columns, target: str, dialect: str):
    items = _read(text, dialect)
    raws = [i for i in items if not isinstance(i, tuple)]
    target_pred, preds = predicate_names(target, columns, ())
    heads = {r.head.name for r in raws}
    builder = _TheoryBuilder(items, dialect, text, {p: c for c, p in preds.items()}, heads)
    rules = []
    for raw in raws:
        head = raw.head
        if len(head.args) != 1 or type(head.args[0]).__name__ != "Var":
            raise builder.error(f"a background atom has one argument, the row: write "
                                f"{head.name}(X)", head)
        if not raw.body:
            raise builder.error(f"the background rule for {head.name} has no body; a fact "
                                "about every row is no feature", head)
        if head.name == target_pred:
            raise builder.error(f"the background atom {head.name} clashes with the target "
                                f"{target!r}", head)
        body = builder.body(raw)
        try:
            rules.append(Rule(head.name, body))
        except AspmlError as e:
            raise builder.error(str(e), head) from None
    return tuple(rules)


class _TheoryBuilder(_LenientBuilder):
    """The parser's Builder, reading feature atoms by the data's column predicates and the
    theory's own heads as Boolean features; leniently (aspml prints the theory anew in
    each dialect, so "yes" and 'yes', 65.0 and 65 are alike)."""

    def __init__(self, items, dialect, text, feature_of: dict, heads: set) -> None:
        super().__init__(items, dialect, text)
        self.columns_of, self.heads = feature_of, heads
        self.derived, self.target_pred = set(), None

    def feature(self, pred: str) -> str:
        if pred in self.heads:
            return pred
        if pred in self.columns_of:
            return self.columns_of[pred]
        raise AspmlError(f"{pred} is no column of the data and no background atom "
                         f"(column predicates: {', '.join(sorted(self.columns_of)) or 'none'})")

    def _undefined_exception(self, name: str) -> bool:
        return False                      # not name(X): a Boolean feature, never an exception


def check_background(rules, columns, target: str = "label") -> None:
    """One AspmlError for a head that clashes with a column or the target, a body feature
    that is neither a column nor a background atom, or a cycle (:func:`background_order`)."""
    heads = list(dict.fromkeys(r.head for r in rules))
    target_pred, preds = predicate_names(target, columns, ())
    by_pred = {p: c for c, p in preds.items()}
    for h in heads:
        if h in columns or h in by_pred:
            column = h if h in columns else by_pred[h]
            raise AspmlError(f"the background atom {h} clashes with the column {column!r} "
                             f"(its predicate is {preds[column]}); rename the atom")
        if h in (target, target_pred):
            raise AspmlError(f"the background atom {h} clashes with the target {target!r}")
    known = set(columns) | set(heads)
    for r in rules:
        for f in r.features:
            if f not in known:
                raise AspmlError(f"the background rule for {r.head} reads {f!r}, which is no "
                                 "column of the data and no background atom")
    background_order(rules)

