"""Meaning of the text dialect (see ``grammar/text.lark``).

Text carries the rules and the target but not the schema's scales or the
provenance; a feature's kind is inferred from its literals.  ``NOT name`` is an
exception when some rule derives ``name`` (or it is named like FOLD's ``abN``),
else a Boolean feature; ``NOT "name"`` (quoted) is always a Boolean feature.
A rule whose line ends with the comment ``# expert`` is one of the expert's
rules (``Program.expert``); any other ``#`` comment is ignored.
"""

from __future__ import annotations

import json
import re
import warnings

from lark import Transformer, v_args

from ..errors import AspmlError, AspmlWarning, ParseError
from .model import (DERIVED_NAME, Compare, Flag, InSet, Interval, NotAtom, NotCompare, Program, Rule,
                    Target)
from .names import exception_like
from .printers import text_value
from .values import format_number, read_number
from .values import is_number as is_a_number

_OP = {"=": "==", "!=": "!=", "<=": "<=", ">=": ">=", "<": "<", ">": ">"}
_INF = object()          # +inf: an interval's open upper end
_MINUS_INF = object()    # -inf: its open lower end


class _Quoted(str):
    """A name written in quotes: after NOT always a Boolean feature, never an exception."""


class _TextSyntax(Transformer):
    def fname(self, items):
        tok = items[0]
        return _Quoted(json.loads(str(tok))) if tok.type == "STRING" else str(tok)

    def number(self, items):
        tok = items[0]
        try:
            return read_number(str(tok))
        except AspmlError as e:
            raise ParseError(str(e), tok.line, tok.column) from None

    def string(self, items):
        tok = items[0]
        try:
            return json.loads(str(tok))
        except ValueError as e:     # "\x41", a raw tab: JSON's escapes only (a trial's crash)
            raise ParseError(f"the string {str(tok)[:40]} is not read: {e.msg} (a text takes "
                             "JSON's escapes: \\\" \\\\ \\n \\t \\u00e9)", tok.line,
                             tok.column) from None

    def plus_inf(self, items):
        return _INF

    def minus_inf(self, items):
        return _MINUS_INF

    def empty(self, items):
        return []

    def conditions(self, items):
        return list(items)

    def not_name(self, items):
        return ("not_name", items[0])

    def not_compare(self, items):
        name, op, value = items
        return ("lit", NotCompare(name, _OP[str(op)], value))

    def compare(self, items):
        name, op, value = items
        return ("lit", Compare(name, _OP[str(op)], value))

    def closed(self, items):
        return True

    def open(self, items):
        return False

    def interval(self, items):
        name, lo_closed, lo, hi, hi_closed = items
        # inf ends only where they are unbounded: [inf, 5] or (3, -inf) holds for no number
        # (a trial: both read as unbounded, x in [inf, 5] as x <= 5)
        if lo is _INF or hi is _MINUS_INF:
            raise ParseError(f"the interval of {name} has {'inf' if lo is _INF else '-inf'} "
                             f"at its {'lower' if lo is _INF else 'upper'} end, where no "
                             "number lies: an interval reads [lo, hi] with -inf as lo or inf "
                             "as hi", getattr(name, "line", None), getattr(name, "column", None))
        if lo is _MINUS_INF and hi is _INF:
            return ("lit", Interval(name, None, None, False, False))
        return ("lit", Interval(name, None if lo is _MINUS_INF else lo,
                                None if hi is _INF else hi, lo_closed, hi_closed))

    def is_number(self, items):
        return ("lit", Interval(items[0], None, None, False, False))

    def valueset(self, items):
        return ("lit", InSet(items[0], frozenset(items[1:])))

    def flag(self, items):
        return ("flag", items[0])

    def head(self, items):
        if len(items) > 1 and str(items[1]) != "=":
            raise ParseError(f"a rule head reads name = value, not name {items[1]} value",
                             items[1].line, items[1].column)
        return (items[0], items[2] if len(items) > 1 else None)

    @v_args(meta=True)
    def rule(self, meta, items):
        return ("rule", items[0], items[1], meta.line, meta.end_line, False)

    @v_args(meta=True)
    def else_rule(self, meta, items):
        return ("rule", items[0], items[1], meta.line, meta.end_line, True)

    @v_args(meta=True)
    def classes(self, meta, items):
        return ("classes", tuple(items), meta.line)

    def else_none(self, items):
        return ("else", None, "none", None)

    def else_label(self, items):
        name, op, value = items
        if str(op) not in ("=", "!="):
            raise ParseError(f"ELSE reads name = value or name != value, not {op}",
                             op.line, op.column)
        return ("else", name, "negative" if str(op) == "=" else "positive", value)

    def else_plain(self, items):
        return ("else", items[0], None, None)

    @v_args(meta=True)
    def background(self, meta, items):
        return ("background", items[0], items[1], meta.line)

    def start(self, items):
        return items


_STRING = re.compile(r'"(\\.|[^"\\\n])*"')
_EXPERT = re.compile(r"#\s*expert\b")


def _marked(lines: list[str], line: int) -> bool:
    """Does source line ``line`` end with the comment ``# expert`` (outside strings)?"""
    if not 0 < line <= len(lines):
        return False
    code = _STRING.sub('""', lines[line - 1])
    return "#" in code and bool(_EXPERT.match(code[code.index("#"):]))


def build_text(tree, text: str = "") -> Program:
    """The Program of a text-dialect parse tree; two classes a file of answers writes
    alike (``1`` and ``"1"``) are refused (a trial: ``aspml check`` then scored the
    prediction 1 on a row labelled 1 as wrong)."""
    program = _build_text(tree, text)
    t = program.target
    labels = t.classes if t.is_multiclass else [c for c in (t.positive, t.negative)
                                                 if c is not None]
    written: dict = {}
    for c in labels:
        w = format_number(c) if is_a_number(c) else str(c)
        if w in written and written[w] != c:
            raise ParseError(f"the classes {text_value(written[w])} and {text_value(c)} are "
                             f"both written {w} in a file of answers and in a CSV label "
                             "column: rename one")
        written[w] = c
    return program


def _build_text(tree, text: str = "") -> Program:
    try:
        items = _TextSyntax().transform(tree)
    except Exception as e:  # a model constructor refused a literal
        orig = getattr(e, "orig_exc", e)
        if isinstance(orig, ParseError):
            raise orig from None
        if isinstance(orig, AspmlError):
            raise ParseError(str(orig)) from None
        raise
    rules = [i for i in items if i[0] == "rule"]
    elses = [i for i in items if i[0] == "else"]
    listed = [i for i in items if i[0] == "classes"]
    if listed or any(r[5] for r in rules) or any(e[2] == "none" for e in elses):
        return _decision_list(items, rules, elses, listed, text)
    referenced = {c[1] for r in rules for c in r[1] if c[0] == "not_name"}
    if elses:
        target_name = elses[0][1]
    else:
        candidates = [r[2][0] for r in rules if r[2][0] not in referenced]
        target_name = candidates[0] if candidates else "label"
    heads = {r[2][0] for r in rules}
    positive = next((r[2][1] for r in rules if r[2][0] == target_name and r[2][1] is not None), None)
    other = next((r for r in rules if r[2][0] == target_name and r[2][1] is not None
                  and r[2][1] != positive), None)
    if other is not None:
        raise ParseError(f"the rules conclude two classes, {text_value(positive)} and "
                         f"{text_value(other[2][1])}: a program of several classes is a decision "
                         f"list, IF ... THEN {target_name} = ... then ELSE IF ... THEN "
                         f"{target_name} = ... and ELSE {target_name} = ... (or ELSE no class)",
                         other[3], 1)
    if len(elses) > 1:
        raise ParseError("a program has one ELSE line: the rows no rule covers get one answer",
                         elses[1][4] if len(elses[1]) > 4 else None, 1)
    if elses and elses[0][2] == "negative" and positive is not None and elses[0][3] == positive:
        raise ParseError(f"ELSE {target_name} = {text_value(positive)} gives the rows no rule "
                         "covers the class the rules conclude: the ELSE line names the other "
                         f"class (ELSE {target_name} != {text_value(positive)} when it has "
                         "no name)")
    negative = None
    if elses and elses[0][2] == "negative":
        negative = elses[0][3]
    elif elses and elses[0][2] == "positive" and positive is None:
        positive = elses[0][3]
    out = []
    source = text.split("\n")
    expert = tuple(k for k, r in enumerate(rules) if _marked(source, r[4]))
    for _, conds, (head, value), line, _end, _else in rules:
        if head != target_name and value is not None:
            raise ParseError(f"only the target ({target_name}) takes a value; {head} is an "
                             f"exception, written THEN {head}", line, 1)
        body = []
        try:
            body = _body(conds, heads, target_name, line)
            out.append(Rule(None if head == target_name else head, tuple(body)))
        except ParseError:
            raise
        except AspmlError as e:
            raise ParseError(str(e), line, 1) from None
    _no_misspelt_exception(out)
    background = _background(items)
    try:
        return Program(tuple(out), Target(target_name, positive, negative), expert=expert,
                       background=tuple(background))
    except AspmlError as e:
        raise ParseError(str(e)) from None


def _no_misspelt_exception(rules) -> None:
    """Note ``NOT ab1`` where no rule defines ab1 while a rule defines ab2 that no rule
    reads: a misspelt name, most likely (a trial's penguin flew, and ``aspml check``
    credited ab2's rule with rows it decides nothing of).  A note, not a refusal: the
    program means what it says (ab1 never holds), and such a program prints so."""
    read = {lit.name for r in rules for lit in r.body if isinstance(lit, NotAtom)}
    defined = {r.head for r in rules if r.head is not None}
    undefined, unread = sorted(read - defined), sorted(defined - read)
    if undefined and unread:
        warnings.warn(f"NOT {undefined[0]} reads an exception no rule defines (it never "
                      f"holds), and {unread[0]} is defined but no rule reads it (NOT "
                      f"{unread[0]}): a misspelt name?", AspmlWarning, stacklevel=5)


def _body(conds, heads, target_name, line) -> list:
    """A rule's literals: ``NOT name`` is an exception when a rule derives ``name`` or it
    is named like one (``ab1``), else a Boolean feature; a quoted name is always a
    feature."""
    body = []
    for kind, payload in conds:
        if kind == "lit":
            body.append(payload)
        elif kind == "flag":
            if payload in heads and payload != target_name and not isinstance(payload, _Quoted):
                raise ParseError(f"{payload} is derived: use it negated (NOT {payload})",
                                 line, 1)
            body.append(Flag(payload, True))
        elif ((payload in heads or exception_like(payload))
              and DERIVED_NAME.match(payload) and not isinstance(payload, _Quoted)):
            body.append(NotAtom(payload))
        else:
            body.append(Flag(payload, False))
    return body


def _background(items) -> list:
    background = []
    for _, name, conds, line in (i for i in items if i[0] == "background"):
        try:                    # a background body reads other atoms as Boolean features
            background.append(Rule(name, tuple(
                payload if kind == "lit" else Flag(payload, kind == "flag")
                for kind, payload in conds)))
        except AspmlError as e:
            raise ParseError(str(e), line, 1) from None
    return background


def _decision_list(items, rules, elses, listed, text) -> Program:
    """A multi-class program: ``CLASSES ...``, then ``IF ... THEN label = c`` and ``ELSE IF
    ...`` lines in decision order, ``ELSE label = d`` or ``ELSE no class``, and the
    exception rules (``IF ... THEN ab1``).  Without a ``CLASSES`` line the classes are
    the labels in the order the lines name them."""
    if len(listed) > 1:
        raise ParseError("more than one CLASSES line", listed[1][2], 1)
    if len(elses) != 1:
        line = next((r[3] for r in rules if r[5]), 1)
        raise ParseError("a decision list ends with one ELSE line: ELSE label = \"c\" "
                         "(the default class) or ELSE no class", line, 1)
    _, target_name, how, default = elses[0]
    if how == "positive":
        raise ParseError("the default class reads ELSE label = \"c\", not !=")
    if how is None:
        raise ParseError(f"a decision list ends with ELSE {target_name} = \"c\" or "
                         f"ELSE no class, not ELSE NOT {target_name}")
    decisions = [r for r in rules if r[2][1] is not None]
    # the list reads from the top: its ELSE comes after every IF and ELSE IF that concludes
    # a class (only the exception rules may follow it)
    after = items[next(k for k, i in enumerate(items) if i[0] == "else"):]
    late = next((i for i in after if i[0] == "rule" and i[2][1] is not None), None)
    if late is not None:
        raise ParseError("the decision list ends with its ELSE line: an IF or ELSE IF that "
                         "concludes a class comes before it (only exception rules may "
                         "follow)", late[3], 1)
    names = {r[2][0] for r in decisions} | ({target_name} if target_name is not None else set())
    if len(names) > 1:
        raise ParseError(f"the decision list concludes two targets, {sorted(names)[:2]}: "
                         "one program predicts one target", decisions[0][3] if decisions else 1, 1)
    target_name = names.pop() if names else "label"
    started = False
    for r in rules:
        if r[2][0] == target_name and r[2][1] is None:
            raise ParseError(f"THEN {target_name} names no class: write THEN "
                             f"{target_name} = \"c\"", r[3], 1)
        if r[2][1] is not None:
            if r[5] and not started:
                raise ParseError("the decision list starts with IF, not ELSE IF", r[3], 1)
            if started and not r[5]:
                raise ParseError("after the first rule of the decision list, each reads "
                                 "ELSE IF ... THEN ...", r[3], 1)
            started = True
        elif r[5]:
            raise ParseError(f"ELSE IF ... THEN {r[2][0]}: an exception rule reads "
                             f"IF ... THEN {r[2][0]}, after the decision list", r[3], 1)
    heads = {r[2][0] for r in rules}
    source = text.split("\n")
    out, expert = [], []
    for k, (_, conds, (head, value), line, end, _else) in enumerate(rules):
        try:
            body = tuple(_body(conds, heads, target_name, line))
            out.append(Rule(None, body, label=value) if value is not None else Rule(head, body))
        except ParseError:
            raise
        except AspmlError as e:
            raise ParseError(str(e), line, 1) from None
        if _marked(source, end):
            expert.append(k)
    # the program's rules: the decision list in its order, then the exception rules
    order = sorted(range(len(out)), key=lambda k: out[k].head is not None)
    rules_out = tuple(out[k] for k in order)
    expert = tuple(order.index(k) for k in expert)
    seen = [r.label for r in rules_out if r.head is None] + ([default] if default is not None else [])
    classes = listed[0][1] if listed else tuple(dict.fromkeys(seen))
    try:
        return Program(rules_out, Target(target_name, classes=classes, default=default),
                       expert=expert, background=tuple(_background(items)))
    except AspmlError as e:
        raise ParseError(str(e), listed[0][2] if listed else None, 1 if listed else None) from None
