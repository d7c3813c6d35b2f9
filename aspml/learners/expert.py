"""Expert rules: rules a person fixes before FOLD learns (issue #18, item 4).

``FoldSE().fit(X, y, fixed_rules=...)`` (or ``FoldSE(fixed_rules=...)``) takes
a :class:`~aspml.Program`, a list of :class:`~aspml.Rule`, program text in the
``asp``, ``prolog`` or ``text`` dialect, or the path of a file holding one.
This module reads what was given (:func:`read_fixed_rules`), checks it against
the learner's target and the columns of ``X`` (:func:`fixed_rules_for`), and
words what the data said of each rule (:func:`report`).  The learning itself
stays in :mod:`aspml.learners.fold`.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path

from ..data.table import category_text
from ..errors import AspmlError, ParseError
from ..logic.model import (Compare, Flag, InSet, NotAtom, Program, Rule, Schema, Target,
                           literal_kind)
from ..logic.names import predicate_names
from ..logic.values import is_number

_TEXT_RULE = re.compile(r"^\s*(IF|ELSE)\b", re.MULTILINE)
_PROLOG_SIGNS = ("\\+", "=<", "=:=", "=\\=")


def guess_dialect(text: str) -> str:
    """The dialect of program text without aspml's header: ``text`` when a line starts
    with IF or ELSE, ``prolog`` when it uses ``\\+``, ``=<``, ``=:=`` or ``=\\=``, else ``asp``."""
    from ..logic.store import header_dialect
    said = header_dialect(text)
    if said is not None:
        return said
    if _TEXT_RULE.search(text):
        return "text"
    return "prolog" if any(sign in text for sign in _PROLOG_SIGNS) else "asp"


def _read_file(path) -> Program:
    from ..logic.store import CHECK_PREFIX, read_program, read_text, suffix_dialect
    text = read_text(path)
    if not text.strip():
        raise AspmlError(f"fixed rules: {path} is empty: there is no rule in it")
    if CHECK_PREFIX in text:                  # a saved model: checked as aspml.load checks it
        return read_program(path)
    from ..logic.store import header_dialect
    dialect = header_dialect(text) or suffix_dialect(path) or guess_dialect(text)
    try:
        from ..logic.parser import parse_given
        return parse_given(text, dialect)
    except ParseError as e:
        raise ParseError(f"fixed rules: {path}: {e}") from None


def read_fixed_rules(given) -> Program | tuple[Rule, ...] | None:
    """What ``fixed_rules=`` was given, as a Program (or rules); None when nothing is fixed.

    A ``str`` of one line naming an existing file, or a path object, is read
    as a file (its ``% aspml:`` header, else its suffix ``.lp``/``.pl``/``.txt``,
    else its text, names the dialect); any other string is program text whose
    dialect is guessed (:func:`guess_dialect`).  An empty list fixes nothing.
    """
    if given is None:
        return None
    if isinstance(given, Program):
        return given
    if isinstance(given, Rule):
        return (given,)
    if isinstance(given, os.PathLike):
        return _read_file(given)
    if isinstance(given, str):
        one_line = "\n" not in given.strip()
        if one_line and given.strip() and Path(given.strip()).is_file():
            return _read_file(given.strip())
        if not given.strip():
            raise AspmlError("fixed rules: the text is empty: there is no rule in it")
        if one_line and re.fullmatch(r"[^\s:]*\.(lp|pl|pro|prolog|txt|scasp)", given.strip()):
            raise AspmlError(f"fixed rules: no file {given.strip()!r}")
        from ..logic.parser import parse_given
        dialect = guess_dialect(given)
        try:
            return parse_given(given, dialect)
        except ParseError as e:
            raise ParseError(f"fixed rules ({dialect} dialect): {e}") from None
    if isinstance(given, (list, tuple)) and all(isinstance(r, Rule) for r in given):
        return tuple(given) or None
    raise TypeError(f"fixed_rules must be an aspml Program, a list of Rules, program text "
                    f"(asp, prolog or text dialect) or a file path, not {type(given).__name__}")


def _same_label(a, b) -> bool:
    """Labels equal as values, or as text (``1`` in a rule file, ``"1"`` read from a CSV)."""
    return a == b or str(a) == str(b)


def rule_text(rule: Rule, target: Target) -> str:
    from ..logic.printers import text_head, text_literal
    body = " AND ".join(text_literal(lit) for lit in rule.body) or "TRUE"
    return f"IF {body} THEN {text_head(Program((), target), rule)}"


def fixed_rules_for(given, target: Target, schema: Schema) -> tuple[Rule, ...]:
    """The fixed rules as rules over the columns of ``schema``, for the learner's ``target``
    (its name and positive label); one clear AspmlError for a rule that cannot be.

    A feature that is not a column but is the predicate name aspml prints for one
    (``marital_status`` for ``marital-status``) is read as that column.  A number
    compared with a categorical column is read as its category (``zip = 1`` is
    ``zip = "1"``); any other literal the column's kind cannot hold is an error.
    """
    if isinstance(given, Program):
        t = given.target
        rules = given.rules
        if not given.default_rules:
            raise AspmlError(f"the fixed rules hold no rule for the target {target.name!r}, "
                             f"only exception rules")
        printed = predicate_names(target.name, schema.names, ())[0]
        if t.name != target.name and t.name != printed:     # 'sick' is how 'Sick?' prints
            # (a review: rules concluding 'label' beside a feature 'label', whose target
            # became 'class', were told of target= 'label', which is refused)
            why = (f"; {t.name!r} is also a feature's name, so the target cannot be: write "
                   f"the rules for {target.name!r}, or rename the feature"
                   if t.name in schema.names else
                   " (the estimator's target=, the command's --target)")
            raise AspmlError(f"the fixed rules conclude {t.name!r}, but the learner's target "
                             f"is {target.name!r}{why}")
        if t.positive is None or not _same_label(t.positive, target.positive):
            said = f"{t.name}(X)" if t.positive is None else f"{t.name} = {t.positive!r}"
            raise AspmlError(f"the fixed rules conclude {said}, but the learner's positive "
                             f"class is {target.positive!r}: fixed rules are rules for the "
                             f"positive class ({target.name} = {target.positive!r})")
    else:
        rules = tuple(given)
        if not any(r.head is None for r in rules):
            raise AspmlError(f"the fixed rules hold no rule for the target {target.name!r}, "
                             f"only exception rules")
    defined = {r.head for r in rules if r.head is not None}
    for k, rule in enumerate(rules):
        undefined = [n for n in rule.exceptions if n not in defined]
        if undefined:
            # it would never hold, and the learner's own exceptions, named ab1, ab2, ...,
            # could take its name and change what the rule says
            raise AspmlError(f"fixed rule {k + 1} reads the exception {undefined[0]}, which no "
                             f"fixed rule defines: give its rules too (IF ... THEN "
                             f"{undefined[0]}), or leave NOT {undefined[0]} out (the learner "
                             "adds the exceptions the data call for)")
    derived = defined | {n for r in rules for n in r.exceptions}
    _, preds = predicate_names(target.name, schema.names, derived)
    by_pred = {}
    for column, pred in preds.items():
        by_pred.setdefault(pred, column)
    out = []
    for k, rule in enumerate(rules):
        body = tuple(_fitted(lit, k, rule, target, schema, by_pred) for lit in rule.body)
        out.append(Rule(rule.head, body))
    return tuple(out)


def _fitted(lit, k: int, rule: Rule, target: Target, schema: Schema, by_pred: dict):
    """``lit`` of fixed rule ``k`` over a column of the schema (see :func:`fixed_rules_for`)."""
    if isinstance(lit, NotAtom):
        return lit
    where = f"fixed rule {k + 1} ({rule_text(rule, target)})"
    name = lit.feature
    if name not in schema:
        if name not in by_pred:
            from ..data.csvfile import show_names
            raise AspmlError(f"{where} uses {name!r}, which is not a column of the data "
                             f"(its columns: {show_names(schema.names)})")
        name = by_pred[name]
        lit = replace(lit, feature=name)
    kind = schema[name].kind
    if kind == "categorical" and isinstance(lit, Compare) and lit.op in ("==", "!="):
        if is_number(lit.value):
            lit = Compare(name, lit.op, category_text(lit.value))
    elif kind == "categorical" and isinstance(lit, InSet):
        lit = InSet(name, frozenset(category_text(v) if is_number(v) else v for v in lit.members))
    if kind == "boolean" and not isinstance(lit, Flag):
        raise AspmlError(f"{where}: column {name!r} is Boolean (true/false): write {name} "
                         f"or NOT {name} in text, {name}(X) or not {name}(X) in asp")
    if kind != "boolean" and isinstance(lit, Flag):
        raise AspmlError(f"{where}: column {name!r} is {kind}, not Boolean: compare it "
                         f"with a value ({name} = ...)")
    implied = literal_kind(lit)
    if implied not in (None, "boolean") and kind != "mixed" and implied != kind:
        raise AspmlError(f"{where}: a {implied} literal on column {name!r}, which is {kind}")
    return lit


def report(program: Program, found: list[dict]) -> list[dict]:
    """``expert_report_``: per expert default rule of ``program`` (its first rules), what
    the training data said of it.  ``found`` holds, per rule, the counts the learner
    made (``covers``, ``positives``, ``negatives``, ``new_positives``,
    ``negatives_left``, ``exception``: whether an exception was learned)."""
    out = []
    for k, counts in enumerate(found):
        rule = program.rules[k]
        exception = rule.body[-1].name if counts.pop("exception") else None
        given = Rule(None, rule.body[:-1]) if exception else rule        # as the expert wrote it
        out.append({"index": k, "rule": rule_text(given, program.target), **counts,
                    "exception": exception})
    return out


def notes(entries: list[dict]) -> list[str]:
    """One sentence per expert rule the data disputes (no support, or negatives covered)."""
    out = []
    for e in entries:
        head = f"expert rule {e['index'] + 1} ({e['rule']})"
        if e["covers"] == 0:
            out.append(f"{head} covers no training row; kept as given")
        elif e["negatives"]:
            left = e["negatives_left"]
            what = ("no exception found for them (kept with them)" if e["exception"] is None
                    else f"learned the exception {e['exception']} for them, which leaves "
                         + (f"{left} of them covered" if left else "none of them covered"))
            out.append(f"{head} covers {e['negatives']} negative row(s) and "
                       f"{e['positives']} positive row(s) in training: {what}")
        elif e["new_positives"] == 0:
            out.append(f"{head} covers no positive row that an earlier rule does not; "
                       f"kept as given")
    return out
