"""Parse program text (asp, prolog, scasp, text) into the Program model.

The grammars (``grammar/*.lark``) are loaded at run time with LALR.  A lark
Transformer turns the parse tree into small syntax records; :class:`_Builder`
gives them meaning (which atoms are features, which are exceptions, which
variable holds which feature).  No lark object leaves this module.
"""

from __future__ import annotations

import json
import re
import warnings
from dataclasses import dataclass, field
from functools import lru_cache

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, VisitError

from ..errors import AspmlError, AspmlWarning, ParseError
from .model import (DEFAULT_MISSING, Compare, Feature, Flag, InSet, Interval, NotAtom,
                    NotCompare, Program, Rule, Schema, Target, missing_tokens)
from .decisions import LabelClause, OrderError, decision_order
from .names import DOMAIN, exception_like, prefixed
from .printers import DIALECTS, META_VERSION, RANKED_COMMENT, SCALED_COMMENT, label_term
from .values import MAX_DECIMALS, format_number, is_number, normalize_value, read_number, unranked, unscaled


@lru_cache(maxsize=None)
def _grammar(name: str) -> Lark:
    # text keywords (IF, THEN, AND ...) are reserved words: a basic lexer never
    # reads them as names; the logic grammar needs the contextual lexer for
    # its header and directive lines
    return Lark.open(f"grammar/{name}.lark", rel_to=__file__, parser="lalr",
                     lexer="basic" if name == "text" else "contextual",
                     propagate_positions=True, maybe_placeholders=False)


def parse(text: str, dialect: str = "asp") -> Program:
    """Read a program printed in ``dialect`` (``asp``, ``prolog``, ``scasp`` or ``text``).

    Raises :class:`aspml.ParseError` with the line, the column and an excerpt
    when the text is malformed or uses a construct aspml does not model.
    """
    if dialect not in DIALECTS:
        raise ParseError(f"unknown dialect {dialect!r}; use one of {DIALECTS}")
    if not isinstance(text, str):
        raise ParseError(f"program text must be a string, got {type(text).__name__}")
    if dialect == "text":
        return _read(text, dialect)
    if dialect == "scasp":
        text = _without_member_definition(text)
    return _Builder(_read(text, dialect), dialect, text).program()


def parse_given(text: str, dialect: str = "asp") -> Program:
    """:func:`parse` for rules a person hands to a learner (expert rules): aspml prints
    them anew in each dialect, so the spellings of one value that the engines read as
    different terms (``yes``, ``'yes'``, ``"yes"``; ``65.0`` and ``65``) are read alike,
    as in a background theory.  A saved program or an edited one is read by
    :func:`parse`, as the engines read it."""
    if dialect in ("text", "scasp") or dialect not in DIALECTS or not isinstance(text, str):
        return parse(text, dialect)
    return _LenientBuilder(_read(text, dialect), dialect, text).program()


def _without_member_definition(text: str) -> str:
    """An scasp print defines ``member/2`` at its end (s(CASP) has none built in; see
    :data:`aspml.logic.printers.SCASP_MEMBER`), as a hand-written s(CASP) program may:
    the two clauses ``member(V,[V|_]).`` and ``member(V,[_|T]) :- member(V,T).`` (any
    variable names and spacing, with or without the comment line before them) are no
    rules of the program, and are read as blank lines (the other lines keep their
    numbers)."""
    import re

    from .printers import SCASP_MEMBER
    comment = re.escape(SCASP_MEMBER[0])
    definition = re.compile(
        rf"(?m)(^[ \t]*{comment}[ \t]*\n)?"
        r"^[ \t]*member\(\s*([A-Z_]\w*)\s*,\s*\[\s*\2\s*\|\s*_\s*\]\s*\)\s*\.\s*"
        r"member\(\s*([A-Z_]\w*)\s*,\s*\[\s*_\s*\|\s*([A-Z]\w*)\s*\]\s*\)"
        r"\s*:-\s*member\(\s*\3\s*,\s*\4\s*\)\s*\.[ \t]*$")
    return definition.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def _read(text: str, dialect: str):
    """The syntax records of a logic text (or the Program of a text-dialect one)."""
    grammar = "text" if dialect == "text" else "logic"
    try:
        tree = _grammar(grammar).parse(text)
        _check_depth(tree, text)
        if dialect == "text":
            from .text_parser import build_text
            return build_text(tree, text)
        return _Syntax(dialect).transform(tree)
    except UnexpectedInput as e:
        raise _syntax_error(e, text, dialect) from None
    except VisitError as e:
        if isinstance(e.orig_exc, ParseError):
            raise e.orig_exc from None
        raise
    except RecursionError:      # a backstop: _check_depth keeps trees far below the limit
        raise ParseError("the program is nested too deeply to read") from None


MAX_DEPTH = 100     # parse-tree levels; aspml's own prints use fewer than 10


def _check_depth(tree, text: str) -> None:
    """Refuse a tree deeper than MAX_DEPTH before anything walks it recursively.

    lark's Transformer (and the Builder after it) recurse once per level, so
    ``f(X,((((...))))`` nested a few hundred deep would end in RecursionError.
    """
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            line = getattr(node.meta, "line", None) if not node.meta.empty else None
            column = getattr(node.meta, "column", 1) if line else None
            raise ParseError(f"terms nested more than {MAX_DEPTH} levels deep; aspml programs "
                             "never nest that deep", line, column,
                             excerpt(text, line, column) if line else "")
        stack.extend((child, depth + 1) for child in node.children if hasattr(child, "children"))


_TOKEN_NAMES = {"COMMA": "','", "DOT": "'.'", "LPAR": "'('", "RPAR": "')'", "SEMICOLON": "';'",
                "LSQB": "'['", "RSQB": "']'", "LBRACE": "'{'", "RBRACE": "'}'", "COLON": "':'",
                "CMP": "a comparison", "NAME": "a name", "VAR": "a variable",
                "NUMBER": "a number", "STRING": "a string", "QATOM": "a quoted atom",
                "MINUS": "'-'", "$END": "the end"}


def _expected(names) -> str:
    shown = []
    for name in sorted(names or ()):
        if name.startswith("__ANON") or name.startswith("_") or name in ("META", "SHOW"):
            continue            # (a header or a #show line may come anywhere: no help)
        shown.append(_TOKEN_NAMES.get(name, name))
    return ", ".join(dict.fromkeys(shown))


def _syntax_error(e: UnexpectedInput, text: str, dialect: str) -> ParseError:
    if isinstance(e, UnexpectedCharacters):
        what = f"unexpected character {text[e.pos_in_stream]!r}"
        char = text[e.pos_in_stream]
        if dialect == "text" and char.isalpha() and not char.isascii():
            # a name of other letters than a-z is quoted, as the text print writes it
            # (a trial's `température` got only "unexpected character 'é'")
            name = (re.search(r"\w*$", text[:e.pos_in_stream]).group()
                    + re.match(r"\w*", text[e.pos_in_stream:]).group())
            return ParseError(f"unexpected character {char!r}: a name with letters other "
                              f"than a-z is written in double quotes, \"{name}\"",
                              e.line, e.column, excerpt(text, e.line, e.column))
        word = re.match(r"#[a-z]+", text[e.pos_in_stream:])
        if word and dialect == "asp" and word.group() not in ("#false", "#inf", "#sup"):
            what = (f"clingo's {word.group()} is not read in an aspml program (its rules are, "
                    "and #show lines)")
    elif getattr(e, "token", None) is not None and e.token.type == "$END":
        what = ("unexpected end of program" if dialect == "text"
                else "unexpected end of program (a rule must end with '.')")
    else:
        tok = getattr(e, "token", None)
        what = f"unexpected {str(tok)!r}" if tok is not None else "syntax error"
    expected = _expected(getattr(e, "expected", None) or getattr(e, "allowed", None))
    if expected:
        what += f"; expected {expected}"
    return ParseError(what, e.line, e.column, excerpt(text, e.line, e.column))


def excerpt(text: str, line: int, column: int) -> str:
    lines = text.split("\n")     # as lark counts lines: not at U+2028 or U+0085 in a string
    src = lines[line - 1].rstrip("\r") if 0 < line <= len(lines) else ""
    return f"{src}\n{' ' * max(column - 1, 0)}^"


# ---------------------------------------------------------------------------
# syntax records
# ---------------------------------------------------------------------------

class _Env(dict):
    """A rule body's variables: variable -> the feature it is bound to, and ``used``,
    the variables a comparison or a value set reads."""

    def __init__(self):
        super().__init__()
        self.used: set = set()


@dataclass(frozen=True)
class _Binding:
    """Where a rule body binds ``var`` to a feature's value (``f(X,N)``): dropped when a
    literal reads ``var`` or asks for that feature's value, "f is a number" in aspml's own
    s(CASP) print, else refused (see ``body``)."""

    var: str
    feature: str
    where: object = field(default=None, compare=False)


@dataclass(frozen=True)
class Var:
    name: str


@dataclass(frozen=True)
class Const:
    value: object          # int, float or str
    kind: str              # "number", "string" ("..."), "atom" ('...') or "name" (bare)
    text: str = ""         # a number as written (65.0 reads as 65)

    @property
    def whole_as_float(self) -> bool:
        """A whole number written as a float (``65.0``, ``1e3``): to SWI-Prolog a float,
        which does not unify with the integer aspml's facts and prints write."""
        return isinstance(self.value, int) and bool(re.search(r"[.eE]", self.text))


@dataclass(frozen=True)
class Inf:
    sign: int              # -1: #inf / -inf, +1: #sup / inf


@dataclass(frozen=True)
class Pool:
    items: tuple


@dataclass(frozen=True)
class ListTerm:
    items: tuple


@dataclass(frozen=True)
class Atom:
    name: str
    args: tuple
    line: int
    column: int


@dataclass(frozen=True)
class Lit:
    kind: str              # positive, negative, comparison, negconj, bracketed
    parts: tuple
    line: int
    column: int


@dataclass(frozen=True)
class Declared:
    """A ``:- dynamic name/arity, ...`` directive: the names it declares."""
    names: frozenset


@dataclass(frozen=True)
class RawRule:
    head: Atom
    body: tuple
    line: int


_CLINGO_UNESCAPE = re.compile(r'\\(["\\n])')
_PROLOG_UNESCAPE = re.compile(
    r"\\x([0-9a-fA-F]+)\\|\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})|\\(.)|''")


def _unescape_clingo(body: str) -> str:
    return _CLINGO_UNESCAPE.sub(lambda m: "\n" if m.group(1) == "n" else m.group(1), body)


def _unescape_prolog(body: str) -> str:
    simple = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", "'": "'", '"': '"', "`": "`",
              "a": "\a", "b": "\b", "f": "\f", "v": "\v", "0": "\0", "e": "\x1b", "s": " "}

    def sub(m: re.Match) -> str:
        if m.group(0) == "''":
            return "'"
        code = m.group(1) or m.group(2) or m.group(3)
        if code is not None:
            if int(code, 16) > 0x10FFFF:
                raise AspmlError(f"the escape {m.group(0)} is no Unicode character")
            return chr(int(code, 16))
        return simple.get(m.group(4), m.group(4))
    return _PROLOG_UNESCAPE.sub(sub, body)


class _Syntax(Transformer):
    """Parse tree -> syntax records (terms, atoms, literals, raw rules)."""

    def __init__(self, dialect: str = "asp") -> None:
        super().__init__()
        self.dialect = dialect

    def var(self, items):
        return Var(str(items[0]))

    def number(self, items):
        tok = items[0]
        try:
            return Const(read_number(str(tok)), "number", str(tok))
        except AspmlError as e:
            raise ParseError(str(e), tok.line, tok.column) from None

    def string(self, items):
        return Const(_unescape_clingo(str(items[0])[1:-1]), "string")

    def quoted(self, items):
        tok = items[0]
        try:
            return Const(_unescape_prolog(str(tok)[1:-1]), "atom")
        except AspmlError as e:
            raise ParseError(str(e), tok.line, tok.column) from None

    def name(self, items):
        text = str(items[0])
        return Inf(+1) if text == "inf" else Const(text, "name")

    def minus_name(self, items):
        if str(items[0]) != "inf":
            raise ParseError(f"unexpected -{items[0]}", items[0].line, items[0].column)
        return Inf(-1)

    def inf(self, items):
        return Inf(-1)

    def sup(self, items):
        return Inf(+1)

    def list(self, items):
        return ListTerm(tuple(items))

    def pool(self, items):
        return Pool(tuple(items))

    @v_args(meta=True)
    def atom(self, meta, items):
        return Atom(str(items[0]), tuple(items[1:]), meta.line, meta.column)

    def _lit(kind):
        @v_args(meta=True)
        def make(self, meta, items):
            parts = tuple(i for i in items if not isinstance(i, Token))
            return Lit(kind, parts, meta.line, meta.column)
        return make

    positive = _lit("positive")
    negative = _lit("negative")
    negated_conjunction = _lit("negconj")
    bracketed = _lit("bracketed")

    @v_args(meta=True)
    def comparison(self, meta, items):
        return Lit("comparison", tuple(items), meta.line, meta.column)

    @v_args(meta=True)
    def counted(self, meta, items):
        """``#count{0 : V = (pool)} > 0``, the asp print's value set in a rule of several
        (LogicPrinter.inset): the comparison it counts."""
        zero, inner, op, bound = items
        if str(zero) != "0" or str(op) != ">" or str(bound) != "0":
            raise ParseError("a #count in a rule body is read only as aspml prints a value "
                             "set: #count{0 : V = (...)} > 0", meta.line, meta.column)
        return inner

    def count_note(self, items):
        return None

    def rule_label(self, items):
        return None

    def body(self, items):
        return tuple(i for i in items if isinstance(i, Lit))

    @v_args(meta=True)
    def rule(self, meta, items):
        items = [i for i in items if i is not None]
        head = items[0]
        body = items[1] if len(items) > 1 else ()
        return RawRule(head, body, meta.line)

    def meta(self, items):
        tok = items[0]
        try:
            meta = json.loads(str(tok)[len("% aspml: "):])
        except json.JSONDecodeError as e:
            raise ParseError(f"the '% aspml:' header is not valid JSON ({e.msg})",
                             tok.line, tok.column) from None
        except RecursionError:
            raise ParseError("the '% aspml:' header is nested too deeply to be aspml's",
                             tok.line, tok.column) from None
        except ValueError as e:             # a JSON integer over Python's digit limit
            raise ParseError(f"the '% aspml:' header is malformed: {e}",
                             tok.line, tok.column) from None
        if not isinstance(meta, dict):
            raise ParseError("the '% aspml:' header is not a JSON object", tok.line, tok.column)
        return ("meta", meta, tok.line)

    def directive(self, items):
        text = str(items[0])
        if not text.startswith("dynamic"):
            return None
        return Declared(frozenset(name.strip().split("/")[0]
                                  for name in text[len("dynamic"):].rstrip(".").split(",")))

    def show(self, items):
        tok = items[0]
        if self.dialect == "prolog":        # (clingo and s(CASP) read it)
            raise ParseError("#show is a clingo directive, not Prolog: leave it out of a .pl "
                             "program", tok.line, tok.column)
        # (None: which atoms clingo prints; the program's meaning is the same)

    def start(self, items):
        return [i for i in items if i is not None]


# ---------------------------------------------------------------------------
# meaning
# ---------------------------------------------------------------------------

_OP = {"=": "==", "==": "==", "=:=": "==", "!=": "!=", "=\\=": "!=", "<=": "<=", "=<": "<=",
       "<": "<", ">": ">", ">=": ">="}
_FLIP = {"<=": ">=", "<": ">", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


class _Builder:
    lenient = False         # a background theory: "yes" or 'yes', 65.0 or 65 alike

    def __init__(self, items, dialect: str, text: str) -> None:
        self.dialect = dialect
        self.text = text
        metas = [i for i in items if isinstance(i, tuple)]
        self.rules = [i for i in items if isinstance(i, RawRule)]
        self.declared = frozenset().union(*(i.names for i in items if isinstance(i, Declared)))
        if len(metas) > 1:
            raise ParseError("more than one '% aspml:' header", metas[1][2], 1)
        self.meta = metas[0][1] if metas else None
        self.meta_line = metas[0][2] if metas else None
        if self.meta is None and dialect == "asp":
            self._refuse_lost_scales(text)
        self.helpers: set = set()          # multi-class: the rule atoms (rule1 ...)
        self.multiclass = False
        self._read_meta()

    @staticmethod
    def _refuse_lost_scales(text: str) -> None:
        """An asp print writes numbers as scaled integers or ranks, and says so in a
        comment; its '% aspml:' header holds the scales.  Without the header every
        number would be read as written (x <= 1.9 at scale 10 as x <= 19): one clear
        error instead of another program."""
        for n, line in enumerate(text.splitlines(), 1):
            said = line.lstrip()
            if said.startswith("%") and (SCALED_COMMENT in said or RANKED_COMMENT in said):
                raise ParseError("this asp print writes its numbers scaled or as ranks (its "
                                 "comment says so), but its '% aspml:' header line, which "
                                 "holds the scales, is gone: every number would be read as "
                                 "written. Put the header line back, or read the program's "
                                 "prolog or text print", n, 1)

    def error(self, message: str, where) -> ParseError:
        line = getattr(where, "line", None)
        column = getattr(where, "column", 1)
        return ParseError(message, line, column,
                          excerpt(self.text, line, column) if line else "")

    # -- header ----------------------------------------------------------
    def _read_meta(self) -> None:
        self.feature_of: dict[str, str] = {}       # predicate -> feature name
        self.ranks: dict[str, tuple] = {}          # ranked feature -> its rank table
        self.features: list[Feature] = []
        self.target_pred = None
        self.target = None
        self.provenance = ()
        self.missing = DEFAULT_MISSING
        self.expert: tuple = ()                    # indices of the expert's rules
        self.prefix = None                         # a knowledge base's name for the program
        self.domain = DOMAIN
        self.background: tuple = ()                # names of the background atoms
        if self.meta is None:
            return
        m = self.meta
        try:
            if m.get("aspml") != META_VERSION:
                raise ValueError(f"unsupported header version {m.get('aspml')!r}")
            said = m.get("dialect", self.dialect)
            if said not in DIALECTS:
                raise ValueError(f"unknown dialect {said!r}")
            t = m["target"]
            self.target = Target(t["name"], t["positive"], t.get("negative"),
                                 tuple(t.get("classes", ())), t.get("default"))
            self.target_pred = t["pred"]
            for entry in m["features"]:
                # name, predicate, kind, scale, and (asp, a ranked feature) the rank table
                name, pred, kind, scale, *tables = entry
                if len(tables) > 1:
                    raise ValueError(f"feature entry {entry!r} has more than five elements")
                if scale is not None and not power_of_ten(scale):
                    # aspml only ever saves powers of ten; any other scale is an edit
                    # that would turn age > 50 (500 at scale 10) into another number
                    raise ValueError(f"feature {name!r} has scale {scale!r}, which is not "
                                     f"a power of ten (1, 10, 100, ...)")
                self.features.append(Feature(name, kind, scale))
                self.feature_of[pred] = name
                if tables:
                    self.ranks[name] = _rank_table(name, tables[0])
            self.provenance = tuple((k, v) for k, v in m.get("provenance", []))
            self.missing = missing_tokens(m.get("missing", DEFAULT_MISSING))
            self.expert = _indices(m.get("expert", []))
            self.prefix = m.get("prefix")
            if self.prefix is not None and not isinstance(self.prefix, str):
                raise ValueError(f"prefix {self.prefix!r} is not a name")
            self.domain = prefixed(self.prefix, DOMAIN)
            self.background = _background_names(m.get("background", []), self.features)
        except (KeyError, TypeError, ValueError) as e:
            raise ParseError(f"the '% aspml:' header is malformed: {e}", self.meta_line, 1) from None
        if said != self.dialect:
            # the header says how the numbers are written (asp: scaled integers): read
            # in another dialect, x > 2.5 written as 25 at scale 10 would mean x > 25
            raise ParseError(f"the '% aspml:' header says the program is in the {said} "
                             f"dialect, not {self.dialect}; read it as {said}",
                             self.meta_line, 1)

    def feature(self, pred: str) -> str:
        return self.feature_of.get(pred, pred) if self.meta is not None else pred

    def scale(self, feature: str) -> int:
        if self.dialect != "asp" or self.meta is None:
            return 1
        f = next((f for f in self.features if f.name == feature), None)
        return (f.scale or 1) if f is not None else 1

    # -- values --------------------------------------------------------
    def spelling(self, term: Const, where, what: str) -> None:
        """Refuse a constant the engine reads as another term than aspml's own prints and
        facts write: in clingo a bare ``sick`` is a constant, not the string ``"sick"``
        (and ``'sick'`` no term at all); in SWI-Prolog ``"sick"`` is a string, which does
        not unify with the atom ``'sick'``.  (s(CASP) reads FOLD's prints: as they are; a
        background theory is read leniently, for aspml prints it anew.)"""
        if self.lenient:
            return
        if self.dialect == "asp" and term.kind in ("name", "atom"):
            shown = term.value if term.kind == "name" else f"'{term.value}'"
            raise self.error(f"{what} {shown} is not a string to clingo ("
                             f"{'a constant' if term.kind == 'name' else 'Prolog quotes'}), "
                             f"and no row's value or class is such a term: write "
                             f"{label_term(term.value, 'asp')}", where)
        if self.dialect == "prolog" and term.kind == "string":
            raise self.error(f"{what} \"{term.value}\" is a string to SWI-Prolog, which does "
                             f"not unify with the atom aspml's facts and classes are: write "
                             f"{label_term(term.value, 'prolog')}", where)

    def value(self, term, feature: str, where, unify: bool = False):
        if isinstance(term, Const):
            self.spelling(term, where, "the value")
            if term.kind == "number":
                v = term.value
                if unify and self.dialect == "prolog" and not self.lenient and term.whole_as_float:
                    # aspml's facts write a whole number as an integer: 65.0 = 65 fails
                    raise self.error(f"{term.text} does not unify with the integer {v} that "
                                     f"aspml's facts write for it in SWI-Prolog (a float is "
                                     f"not an integer there): write {v}, or compare "
                                     f"arithmetically (N =:= {term.text})", where)
                if self.dialect == "asp":
                    if not isinstance(v, int):
                        raise self.error(f"clingo has no floating-point numbers: {v} (asp "
                                         "writes numbers as scaled integers, with aspml's "
                                         "header; write decimals in the prolog or text "
                                         "dialect, a .pl or .txt file)", where)
                    if feature in self.ranks:
                        try:
                            return unranked(v, self.ranks[feature])
                        except ValueError as e:
                            raise self.error(f"feature {feature!r} is ranked: {e}", where) from None
                    return unscaled(v, self.scale(feature))
                return v
            return term.value
        raise self.error(f"expected a constant, found {_show(term)}", where)

    def label(self, term, where):
        if isinstance(term, Const):
            self.spelling(term, where, "the class")
            return term.value
        raise self.error(f"expected a constant label, found {_show(term)}", where)

    # -- program -------------------------------------------------------
    def program(self) -> Program:
        for raw in self.rules:
            head = raw.head
            if not raw.body and head.args and not any(isinstance(a, Var) for a in head.args):
                # age("Lea Diaz",34). -- the rows of an export --facts, not a rule
                raise self.error(f"{head.name}(...). is a fact, not a rule: this file holds "
                                 "data (an export with --facts?); aspml reads the program "
                                 "without its facts, and the rows from a CSV file", head)
            if self.dialect in ("asp", "prolog"):
                self._check_safe(raw)
        heads = [r.head.name for r in self.rules]
        referenced = set()
        for r in self.rules:
            for lit in r.body:
                if lit.kind == "negative" or (lit.kind == "positive" and lit.parts[0].name in heads):
                    referenced.add(lit.parts[0].name)   # rule2(X) in label(X,c) :- rule2(X), ...
        if self.target_pred is None:
            candidates = [h for h in heads if h not in referenced]
            if not candidates and self.rules:
                raise self.error("cannot tell the target predicate: every head is used "
                                 "as an exception", self.rules[0].head)
            self.target_pred = candidates[0] if candidates else "label"
        background_preds = {p for p, name in self.feature_of.items() if name in self.background}
        self.helpers = self._helpers(heads, background_preds)
        self.derived = {h for h in heads if h != self.target_pred and h not in background_preds
                        and h not in self.helpers}
        if self.dialect == "prolog":
            self._note_undefined_negations(set(heads))
        rules, background = [], []
        positive = None
        clauses, defined = [], []           # multi-class: label clauses, helper definitions
        for raw in self.rules:
            head = raw.head
            if not head.args or not isinstance(head.args[0], Var):
                raise self.error(f"the head {head.name} must have the row variable as "
                                 "first argument", head)
            if head.name in background_preds:
                if len(head.args) != 1:
                    raise self.error(f"the background atom {head.name} takes one argument, "
                                     "the row", head)
                background.append(Rule(self.feature_of[head.name], self.body(raw)))
            elif head.name == self.target_pred and self.multiclass:
                clauses.append(self.label_clause(raw))
            elif head.name in self.helpers:
                if len(head.args) != 1:
                    raise self.error(f"the rule atom {head.name} takes one argument, the row", head)
                if head.name in (d.head.name for d in defined):
                    raise self.error(f"{head.name} is defined by two rules: each rule of a "
                                     "multi-class program's decision list is one rule", head)
                defined.append(raw)
                rules.append(raw)           # a slot: filled below, in decision order
            elif head.name == self.target_pred:
                if len(head.args) > 2:
                    raise self.error(f"the head {head.name} has too many arguments", head)
                if len(head.args) == 2:
                    label = self.label(head.args[1], head)
                    if self.target is not None and self.target.positive is not None:
                        self.spelled_as_printed(head.args[1], self.target.positive, head)
                    if positive is not None and positive != label:
                        raise self.error(f"rules for {head.name} name two labels: "
                                         f"{positive!r} and {label!r}", head)
                    positive = label
                rules.append(Rule(None, self.body(raw)))
            else:
                body = self.body(raw)
                name = self.internal(head.name, head)
                try:
                    rules.append(Rule(name, body))
                except AspmlError as e:
                    raise self.error(str(e), head) from None
        if self.multiclass:
            rules = self.decision_list(rules, clauses, defined)
        elif self.target is None:
            self.target = Target(self.target_pred, positive)
        try:
            return Program(tuple(rules), self.target, Schema(tuple(self.features)),
                           self.provenance, self.missing, expert=self.expert,
                           prefix=self.prefix, background=tuple(background))
        except AspmlError as e:
            raise ParseError(str(e), 1, 1) from None

    def _note_undefined_negations(self, heads: set) -> None:
        """``\\+ ab9(X)`` where no clause defines ab9 and no ``:- dynamic`` declares it:
        aspml reads an exception that never holds, but SWI-Prolog, running this text as
        written, stops every query with "Unknown procedure ab9/1" (a deployment trial).
        aspml's own print declares it dynamic; a note says so."""
        missing = sorted({lit.parts[0].name for raw in self.rules for lit in raw.body
                          if lit.kind == "negative" and len(lit.parts[0].args) == 1
                          and lit.parts[0].name not in heads | self.declared
                          and self._undefined_exception(lit.parts[0].name)})
        if missing:
            said = ", ".join(f"{m}/1" for m in missing)
            warnings.warn(f"no clause defines {said}, which the program negates: aspml reads "
                          f"{'it' if len(missing) == 1 else 'each'} as an exception that never "
                          "holds, while SWI-Prolog, running this text as written, stops with "
                          "an unknown-procedure error (declare it ':- dynamic "
                          f"{said}.', as aspml's print does)", AspmlWarning, stacklevel=4)

    def _check_safe(self, raw: RawRule) -> None:
        """A rule whose row variable no positive atom of its body binds (``label(X) :- not
        ab1(X).``) is refused: clingo will not ground it (an unsafe variable) and a Prolog
        query for every row flounders on it, so the text means nothing in the engines
        aspml exports to (a trial's hand-edited default clause was read as if it began
        with ``row(X)``).  s(CASP) answers such rules, and reads them as written."""
        head = raw.head
        if not head.args or not isinstance(head.args[0], Var):
            return              # (refused below, with its own message)
        var = head.args[0].name
        for lit in raw.body:
            if lit.kind == "positive":
                atom = lit.parts[0]
                if atom.args and isinstance(atom.args[0], Var) and atom.args[0].name == var:
                    return
        negated = any(lit.kind in ("negative", "negconj") for lit in raw.body)
        how = "it is read only under negation" if negated else "no atom of the body names it"
        scasp = ""
        if self.dialect == "prolog" and re.search(r"(^|[\s,(])not\s", self.text):
            # FOLD-R++'s and FOLD-RM's own prints negate with 'not': s(CASP) syntax
            scasp = ("; a program in s(CASP)'s syntax ('not', as FOLD-R++ and FOLD-RM print "
                     "it) reads with the scasp dialect (aspml ... --from scasp)")
        raise self.error(f"no positive atom of this rule's body binds its row variable {var} "
                         f"({how}): clingo refuses the rule as unsafe and Prolog's query for "
                         f"every row flounders on it; begin the body with {self.domain}({var}), "
                         f"as aspml prints it{scasp}", head)

    # -- multi-class: FOLD-RM's form ------------------------------------
    def _helpers(self, heads, background_preds) -> set:
        """The rule atoms of a multi-class program (``rule2`` in ``label(X,c) :- rule2(X),
        not rule1(X).``), and whether the program is one (``self.multiclass``): its
        header lists classes, or, without a header, a label clause reads a rule atom or
        the label clauses name two classes."""
        targets = [r for r in self.rules if r.head.name == self.target_pred]
        helpers = {lit.parts[0].name for r in targets for lit in r.body
                   if lit.kind == "positive" and lit.parts[0].name in heads
                   and lit.parts[0].name not in background_preds
                   and lit.parts[0].name != self.target_pred}
        if self.meta is not None:
            self.multiclass = self.target.is_multiclass
            return helpers if self.multiclass else set()
        labels = {self.label(r.head.args[1], r.head) for r in targets if len(r.head.args) == 2}
        self.multiclass = bool(helpers) or len(labels) > 1
        if self.multiclass and not helpers:
            first = next(r for r in targets if len(r.head.args) == 2)
            raise self.error(
                f"the clauses of {self.target_pred} name {len(labels)} classes but read no rule "
                "atom, so they give no order (a row could get two classes); aspml reads a "
                "multi-class program as FOLD-RM's print_asp() writes it: label(X,c) :- "
                "rule2(X), not rule1(X). with rule2(X) :- ... (not print_asp(simple=True))",
                first.head)
        return helpers

    def label_clause(self, raw: RawRule) -> LabelClause:
        """``label(X,c) :- ruleK(X), not ruleJ(X), ...`` (or, for the default class,
        ``label(X,c) :- row(X), not ruleJ(X), ...``)."""
        head = raw.head
        if len(head.args) != 2:
            raise self.error(f"a multi-class program's clause {head.name}(X,Class) names the "
                             "class it concludes", head)
        label = self.class_label(head.args[1], head)
        self.row_var = head.args[0].name
        rule, guards = None, []
        for lit in raw.body:
            atom = lit.parts[0] if lit.kind in ("positive", "negative") else None
            if (atom is not None and lit.kind == "positive" and atom.name == self.domain
                    and len(atom.args) == 1 and atom.name not in self.feature_of):
                self.check_row_var(atom)
                continue
            if atom is not None and atom.name in self.helpers and len(atom.args) == 1:
                self.check_row_var(atom)
                if lit.kind == "negative":
                    guards.append(atom.name)
                elif rule is not None:
                    raise self.error(f"the label clause reads two rules, {rule} and "
                                     f"{atom.name}: it reads one and negates earlier ones", lit)
                else:
                    rule = atom.name
                continue
            if (atom is not None and len(atom.args) == 1 and atom.name not in self.feature_of
                    and atom.name not in {r.head.name for r in self.rules}):
                raise self.error(f"{atom.name} is defined by no rule of the program (no rule "
                                 f"has the head {atom.name}(X)): a label clause reads the rule "
                                 "atoms the program defines", lit)
            raise self.error(f"a multi-class program's clause for {head.name} reads one rule "
                             f"atom and negates the earlier ones ({head.name}(X,c) :- rule2(X), "
                             "not rule1(X).); the conditions belong in the rule atom's own rule "
                             "(rule2(X) :- ...)", lit)
        return LabelClause(label, rule, tuple(guards), head)

    def spelled_as_printed(self, term, value, where) -> None:
        """Refuse a class constant the engine reads as another term than the class it is
        read as here (with a header): in SWI-Prolog ``1.0`` and ``'1'`` are not ``1``;
        in clingo ``"1"`` is not ``1`` (aspml writes a class of clingo's 32-bit integers
        as a number, a fraction or a larger one as a string)."""
        if self.lenient or self.dialect not in ("asp", "prolog") or not isinstance(term, Const):
            return
        printed = label_term(value, self.dialect)
        if isinstance(value, str) or printed.startswith('"'):
            right = term.kind in (("string",) if self.dialect == "asp" else ("atom", "name"))
        else:
            right = term.kind == "number" and not term.whole_as_float
        if not right:
            shown = term.text or (f'"{term.value}"' if term.kind == "string" else
                                  f"'{term.value}'" if term.kind == "atom" else term.value)
            raise self.error(f"the class {shown} is not the term {printed} that "
                             f"{'clingo' if self.dialect == 'asp' else 'SWI-Prolog'} and "
                             f"aspml's prints give the class {value!r}: write {printed}", where)

    def class_label(self, term, where):
        """The class a label constant names; with a header, one of its classes (in ``asp``
        a fraction is written as a string, "1.5")."""
        value = self.label(term, where)
        classes = self.target.classes if self.target is not None else ()
        if not classes or value in classes:
            if classes:
                self.spelled_as_printed(term, value, where)
            return value
        if isinstance(value, str):
            same = [c for c in classes if is_number(c) and format_number(c) == value]
            if same:
                self.spelled_as_printed(term, same[0], where)
                return same[0]
        raise self.error(f"the class {value!r} is not one of the classes the '% aspml:' "
                         f"header lists ({list(classes)})", where)

    def decision_list(self, rules, clauses, defined) -> list:
        """``rules`` with each rule atom's slot filled, in decision order, by a default rule
        that carries its class; the target from the header or the clauses."""
        try:
            ordered, default = decision_order(clauses, [d.head.name for d in defined])
        except OrderError as e:
            raise self.error(str(e), e.where) from None
        bodies = {d.head.name: d for d in defined}
        made = iter(ordered)
        out = []
        for r in rules:
            if isinstance(r, RawRule):
                c = next(made)
                try:
                    out.append(Rule(None, self.body(bodies[c.rule]), label=c.label))
                except AspmlError as e:
                    raise self.error(str(e), bodies[c.rule].head) from None
            else:
                out.append(r)
        said = None if default is None else default.label
        if self.target is None:
            classes = tuple(dict.fromkeys(c.label for c in clauses))
            if len(classes) < 2:
                raise self.error(f"the clauses of {self.target_pred} name one class, "
                                 f"{classes[0]!r}: a multi-class program names two or more "
                                 "(a binary one reads label(X,c) :- ... without rule atoms)",
                                 clauses[0].where)
            try:
                self.target = Target(self.target_pred, classes=classes, default=said)
            except AspmlError as e:
                raise self.error(str(e), clauses[0].where) from None
        elif said != self.target.default:
            where = default.where if default is not None else clauses[0].where if clauses else None
            raise self.error(f"the '% aspml:' header names the default class "
                             f"{self.target.default!r}, but the program's clause for rows no "
                             f"rule covers concludes {said!r}", where)
        return out

    def body(self, raw: RawRule) -> tuple:
        # variable -> feature; in aspml's own s(CASP) print (its header says which features
        # hold numbers) "f in (-inf, inf)" is the bare value atom f(X,N): the bindings no
        # literal reads are kept track of (_Env) and read as that interval; anywhere else a
        # binding alone is refused: it holds only where f has a value, which aspml has no
        # literal for without a header (it was read as true, a trial's rows of a missing
        # value got another answer)
        env = _Env()
        self.row_var = raw.head.args[0].name
        out = []
        for lit in raw.body:
            try:
                out.extend(self.literal(lit, env))
            except ParseError:
                raise
            except AspmlError as e:
                raise self.error(str(e), lit) from None
        own_scasp = self.dialect == "scasp" and self.meta is not None
        kinds = {f.name: f.kind for f in self.features}
        # features another literal of the rule asks to have a value (color(X,C),
        # color(X,red): the binding adds nothing)
        valued = {lit.feature for lit in out
                  if isinstance(lit, (Interval, InSet))
                  or (isinstance(lit, Compare) and lit.op != "!=")}
        kept = []
        for lit in out:
            if not isinstance(lit, _Binding):
                kept.append(lit)
            elif lit.var in env.used:
                continue
            elif own_scasp and kinds.get(lit.feature) in ("numeric", "mixed"):
                kept.append(Interval(lit.feature, None, None, False, False))
            elif lit.feature in valued:
                continue
            else:
                raise self.error(
                    f"{self.pred_name(lit.feature)}({self.row_var},{lit.var}) binds a value no "
                    f"literal of the rule reads: it holds only where {lit.feature} has a value, "
                    f"which aspml reads only from a comparison ({lit.var} > 50; any number: "
                    f"#inf < {lit.var} < #sup in asp, {lit.var} > -inf, {lit.var} < inf in "
                    f"prolog) or a value ({self.pred_name(lit.feature)}({self.row_var},50)); "
                    f"to ask only for the row, write {self.domain}({self.row_var})",
                    lit.where)
        return tuple(kept)

    def literal(self, lit: Lit, env: dict) -> list:
        kind = lit.kind
        if kind == "positive":
            return self.positive(lit.parts[0], env, lit)
        if kind == "negative":
            return self.negative(lit.parts[0], lit)
        if kind == "comparison":
            return self.comparison(lit.parts, env, lit)
        if kind == "negconj":
            return [self.negconj(lit.parts, lit)]
        if kind == "bracketed":
            return [self.bracketed(lit.parts, env, lit)]
        raise self.error(f"unsupported literal {kind}", lit)  # pragma: no cover

    def positive(self, atom: Atom, env: dict, where) -> list:
        name, args = atom.name, atom.args
        if name == self.domain and len(args) == 1 and name not in self.feature_of:
            return []
        if name == "number" and len(args) == 1 and isinstance(args[0], Var):
            return []                                           # type guard
        if name in ("memberchk", "member") and len(args) == 2 and isinstance(args[0], Var):
            feature = self.bound(args[0], env, where)
            if not isinstance(args[1], ListTerm) or not args[1].items:
                raise self.error(f"{name} needs a non-empty list of values", where)
            return [InSet(feature, frozenset(self.value(t, feature, where, True)
                                             for t in args[1].items))]
        if name in self.helpers:
            raise self.error(f"{name} is a rule of the decision list: only the clauses of "
                             f"{self.target_pred} read it", where)
        if name in self.derived or name == self.target_pred:
            raise self.error(f"{name} is derived: aspml rules use derived atoms only "
                             "negated (not ...)", where)
        self.check_row_var(atom)
        feature = self.feature(name)
        if len(args) == 1:
            return [Flag(feature, True)]
        if len(args) != 2:
            raise self.error(f"feature atom {name} must have one or two arguments", where)
        arg = args[1]
        if isinstance(arg, Var):
            if arg.name in env and env[arg.name] != feature:
                raise self.error(f"variable {arg.name} holds two features", where)
            first = arg.name not in env
            env[arg.name] = feature
            return [_Binding(arg.name, feature, where)] if first else []
        if isinstance(arg, Pool):
            if len(arg.items) == 1:
                return [Compare(feature, "==", self.value(arg.items[0], feature, where, True))]
            return [InSet(feature, frozenset(self.value(t, feature, where, True)
                                             for t in arg.items))]
        return [Compare(feature, "==", self.value(arg, feature, where, True))]

    def negative(self, atom: Atom, where) -> list:
        self.check_row_var(atom)
        name, args = atom.name, atom.args
        if name == self.target_pred:
            raise self.error(f"the target {name} cannot appear in a rule body", where)
        if name in self.helpers:
            raise self.error(f"{name} is a rule of the decision list: only the clauses of "
                             f"{self.target_pred} read it", where)
        if name in self.derived or (len(args) == 1 and self._undefined_exception(name)):
            return [NotAtom(self.internal(name, where))]
        feature = self.feature(name)
        if len(args) == 1:
            return [Flag(feature, False)]
        if len(args) == 2 and not isinstance(args[1], (Var, Pool, ListTerm)):
            return [Compare(feature, "!=", self.value(args[1], feature, where, True))]
        raise self.error(f"cannot read 'not {name}(...)': expected not {name}(X) or "
                         f"not {name}(X,value)", where)

    def internal(self, name: str, where) -> str:
        """The model's name of a printed exception atom: ``heart_ab1`` -> ``ab1`` when the
        header names the prefix ``heart``."""
        if self.prefix is None:
            return name
        head = self.prefix + "_"
        if not name.startswith(head) or name == head:
            raise self.error(f"{name} is not an exception of this program: with the prefix "
                             f"{self.prefix!r} its exceptions are named {head}...", where)
        return name[len(head):]

    def _undefined_exception(self, name: str) -> bool:
        """``not name(X)`` with no rule for name: an exception that never holds?

        With aspml's header, every name that is not a feature is one.  Without
        it, only FOLD-R++'s ``abN`` names are; others are Boolean features.
        """
        if self.meta is not None:
            return name not in self.feature_of
        return exception_like(name)

    def pred_name(self, feature: str) -> str:
        """The predicate a feature is read from (for messages)."""
        return next((p for p, f in self.feature_of.items() if f == feature), feature)

    def check_row_var(self, atom: Atom) -> None:
        if not atom.args or not isinstance(atom.args[0], Var):
            raise self.error(f"{atom.name}(...) must have the row variable as first argument", atom)
        if atom.args[0].name != self.row_var and self.row_var != "_":
            raise self.error(f"{atom.name}({atom.args[0].name}, ...) speaks of another row than "
                             f"the head's {self.row_var}", atom)

    def bound(self, var: Var, env: dict, where) -> str:
        if var.name not in env:
            raise self.error(f"variable {var.name} is not bound to a feature before use", where)
        if isinstance(env, _Env):
            env.used.add(var.name)
        return env[var.name]

    def comparison(self, parts: tuple, env: dict, where) -> list:
        terms = parts[0::2]
        ops = [str(o) for o in parts[1::2]]
        if len(terms) == 3:
            return [self.chain(terms, ops, env, where)]
        left, op, right = terms[0], _OP[ops[0]], terms[1]
        if isinstance(right, Var) and not isinstance(left, Var):
            left, right, op = right, left, _FLIP[op]
        if not isinstance(left, Var):
            raise self.error("a comparison needs a variable bound to a feature", where)
        if op == "<" and isinstance(right, Const) and right.kind == "string" and right.value == "":
            return []                                           # type guard N < ""
        feature = self.bound(left, env, where)
        if op == "!=":
            # f(X,N), N != v needs a value of f; aspml's f != v (printed not f(X,v)) also
            # holds where f has none: reading one as the other would change the answers
            raise self.error(f"{left.name} != ...: aspml writes 'differs from v' as "
                             f"not {self.pred_name(feature)}(X,v), which also holds where the "
                             f"value is missing; write that, or say which values are allowed "
                             f"({left.name} = (a;b), {left.name} < v; {left.name} > v)", where)
        if isinstance(right, Pool):
            if op != "==":
                raise self.error("a value set needs '='", where)
            return [InSet(feature, frozenset(self.value(t, feature, where) for t in right.items))]
        # = and == unify (or compare terms) in Prolog, =:= compares numbers
        return [Compare(feature, op, self.value(right, feature, where, ops[0] in ("=", "==")))]

    def chain(self, terms, ops, env, where) -> Interval:
        lo, var, hi = terms
        if not isinstance(var, Var) or any(o not in ("<", "<=", "=<") for o in ops):
            raise self.error("an interval reads lo <= N < hi", where)
        feature = self.bound(var, env, where)
        return Interval(feature, self.end(lo, feature, where), self.end(hi, feature, where),
                        ops[0] != "<", ops[1] != "<")

    def end(self, term, feature, where):
        return None if isinstance(term, Inf) else self.value(term, feature, where)

    def bracketed(self, parts: tuple, env: dict, where) -> Interval:
        (a, op1, lo), (b, op2, hi) = (p.parts for p in parts)
        op1, op2 = _OP[str(op1)], _OP[str(op2)]
        if not (isinstance(a, Var) and isinstance(b, Var) and a == b
                and op1 in (">", ">=") and op2 in ("<", "<=")):
            raise self.error("a bracketed interval reads (N >= lo, N < hi)", where)
        feature = self.bound(a, env, where)
        return Interval(feature, self.end(lo, feature, where), self.end(hi, feature, where),
                        op1 == ">=", op2 == "<=")

    def negconj(self, parts: tuple, where) -> NotCompare:
        shape = "a negated comparison reads not (f(X,N), N <= t) or #false : f(X,N), N > t"
        atoms = [p.parts[0] for p in parts if p.kind == "positive"]
        binders = [a for a in atoms if not (a.name == "number" and len(a.args) == 1)]
        if len(binders) != 1 or len(binders[0].args) != 2 or not isinstance(binders[0].args[1], Var):
            raise self.error(shape, where)
        atom = binders[0]
        env = {atom.args[1].name: self.feature(atom.name)}
        found = [lit for p in parts if p.kind == "comparison"
                 for lit in self.comparison(p.parts, env, where)]
        if len(found) != 1 or not isinstance(found[0], Compare) or found[0].op not in ("<=", ">"):
            raise self.error(shape, where)
        return NotCompare(found[0].feature, found[0].op, found[0].value)


def _indices(items) -> tuple:
    """The header's ``expert``: a list of rule indices (the Program checks their range)."""
    if not isinstance(items, list) or not all(
            isinstance(k, int) and not isinstance(k, bool) for k in items):
        raise ValueError(f"expert must be a list of rule indices, got {items!r}")
    return tuple(items)


class _LenientBuilder(_Builder):
    """Rules aspml prints anew (expert rules, a background theory): every spelling of a
    value read alike (:meth:`_Builder.spelling`)."""

    lenient = True


def _background_names(names, features) -> tuple:
    """The header's ``background`` entry: names of Boolean features of the header."""
    kinds = {f.name: f.kind for f in features}
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValueError("'background' is not a list of names")
    odd = [n for n in names if kinds.get(n) != "boolean"]
    if odd:
        raise ValueError(f"the background atom {odd[0]!r} is not a Boolean feature of the header")
    return tuple(names)


def power_of_ten(scale) -> bool:
    """Is ``scale`` 1, 10, 100, ... up to 10^9: the only scales aspml saves (header check)."""
    return (isinstance(scale, int) and not isinstance(scale, bool)
            and 1 <= scale <= 10 ** MAX_DECIMALS and str(scale).rstrip("0") == "1")


def _rank_table(feature: str, table) -> tuple:
    """A header's rank table: a list of numbers in increasing order."""
    if not isinstance(table, list) or not table:
        raise ValueError(f"the rank table of {feature!r} is not a list of numbers")
    values = tuple(normalize_value(v, f"rank table of {feature!r}") for v in table)
    if not all(is_number(v) for v in values) or any(a >= b for a, b in zip(values, values[1:])):
        raise ValueError(f"the rank table of {feature!r} is not a list of increasing numbers")
    return values


def _show(term) -> str:
    if isinstance(term, Var):
        return f"variable {term.name}"
    if isinstance(term, Inf):
        return "an infinity"
    return type(term).__name__.lower()
