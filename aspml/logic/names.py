"""Safe names and quoted constants for each dialect.

User strings (feature names, category values, target names, labels) reach
program text in two ways only:

* as *constants*, always quoted and escaped (clingo strings, Prolog quoted
  atoms, JSON-style strings in ``text``), so no character can end the constant;
* as *predicate names*, which are identifiers chosen here: a feature name that
  is already a safe identifier is used as it is, any other is turned into one
  (``"Capital Gain"`` -> ``capital_gain``), and the exact original names are
  recorded in the program's ``% aspml:`` header so that parsing restores them.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from importlib.resources import files

IDENT = re.compile(r"[a-z][A-Za-z0-9_]*\Z")
DOMAIN = "row"                   # row(X): the rows, binds X where no literal does
INTERNAL_PREFIX = "aspml_"       # names aspml's own encodings use


@lru_cache(maxsize=1)
def prolog_reserved() -> frozenset[str]:
    """Names of SWI-Prolog system and library(lists) predicates (arity 0-3)."""
    text = files("aspml.logic").joinpath("prolog_reserved.txt").read_text()
    return frozenset(text.split())


@lru_cache(maxsize=1)
def _always_reserved() -> frozenset[str]:
    return frozenset({DOMAIN, "not", "inf", "sup", "true", "false"}) | prolog_reserved()


def reserved_names(derived) -> set[str]:
    return set(_always_reserved()) | set(derived)


def is_reserved(name: str) -> bool:
    """A name no exception or feature predicate may take as it is."""
    return name in _always_reserved() or name.startswith(INTERNAL_PREFIX)


def _identifier(name: str) -> str:
    # accents off first ("Ünï" -> "uni", not "n"); other characters become "_"
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", name).casefold())
    plain = "".join(c for c in folded if not unicodedata.combining(c))
    base = re.sub(r"[^a-z0-9_]+", "_", plain).strip("_")
    if not base or not base[0].isalpha():
        base = "f_" + base
    return base


def prefixed(prefix: str | None, name: str) -> str:
    """The printed name of an exception or helper predicate: ``heart_ab1`` for prefix
    ``heart`` and ``ab1``; the name itself when there is no prefix."""
    return name if prefix is None else f"{prefix}_{name}"


def predicate_names(target_name: str, features, derived) -> tuple[str, dict[str, str]]:
    """Predicate identifiers for the target and each feature, none clashing.

    The rule (the README's "Column names and predicates"): a name that is
    already an identifier (``[a-z][A-Za-z0-9_]*``) is used as it is, unless it
    is taken; any other is folded to lower-case ASCII, accents dropped and
    every run of other characters made ``_`` (``"Capital Gain"`` ->
    ``capital_gain``, ``"Ünï"`` -> ``uni``), with ``f_`` in front when it would
    not start with a letter.  Taken names are the engines' built-ins, ``row``,
    aspml's ``aspml_...``, the ``derived`` names (exceptions, and with a prefix
    their printed ``heart_ab1`` and ``heart_row``) and the names already
    chosen: the target first, then the features that are identifiers, then the
    others in column order (so ``body_mass`` keeps its name beside ``"Body
    Mass"``, which becomes ``body_mass_2``); a clash gets ``_2``, ``_3`` ...

    Returns ``(target_predicate, {feature name: predicate})``.
    """
    taken = reserved_names(derived)
    chosen: dict[str, str] = {}

    def pick(name: str) -> str:
        if IDENT.match(name) and name not in taken and not name.startswith(INTERNAL_PREFIX):
            ident = name
        else:
            base = _identifier(name)
            if base.startswith(INTERNAL_PREFIX):
                base = "f_" + base
            ident, k = base, 2
            while ident in taken:
                ident, k = f"{base}_{k}", k + 1
        taken.add(ident)
        return ident

    target = pick(target_name)
    features = list(features)
    for f in features:          # identifiers first: no folded name may take one ("Body Mass"
        if IDENT.match(f) and f not in taken and not f.startswith(INTERNAL_PREFIX):
            chosen[f] = pick(f)  # beside body_mass: body_mass keeps its name)
    for f in features:
        if f not in chosen:
            chosen[f] = pick(f)
    return target, {f: chosen[f] for f in features}


# Characters a reader cannot see or that reorder what they see: controls (Cc:
# also U+0085), format characters (Cf: zero-width, bidi overrides, BOM, soft
# hyphen), line and paragraph separators (Zl, Zp: U+2028, U+2029), spaces
# other than U+0020 (Zs), and private, surrogate or unassigned code points.
# "rome" and "ro\u200bme" must not look alike in what people read.
_INVISIBLE = frozenset({"Cc", "Cf", "Zl", "Zp", "Zs", "Co", "Cs", "Cn"})


def invisible(ch: str) -> bool:
    """True for a character that prints as nothing, as blank, or moves other text."""
    return ch != " " and unicodedata.category(ch) in _INVISIBLE


def visible(text: str, escape=None) -> str:
    """``text`` with each invisible character written as an escape.

    ``escape`` gives the escape of one character; the default is the
    JSON/Python form ``\u200b`` (``\U000e0041`` past U+FFFF), used where
    text is shown raw to people (explanations, the HTML report).
    """
    if not any(invisible(ch) for ch in text):
        return text
    escape = escape or _python_escape
    return "".join(escape(ch) if invisible(ch) else ch for ch in text)


def _python_escape(ch: str) -> str:
    code = ord(ch)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _json_escape(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000                         # JSON has only 16-bit escapes: a surrogate pair
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def clingo_string(text: str) -> str:
    """A clingo string constant: only backslash, quote and newline need escapes."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


_PROLOG_ESCAPES = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def prolog_atom(text: str) -> str:
    """A quoted Prolog atom; invisible characters (controls, zero-width, bidi ...) as
    ``\\u200b`` / ``\\U000e0041`` escapes, which SWI-Prolog and s(CASP) read back as the
    character (SWI 9.0 refuses ``\\xd8000\\``, but not ``\\U000d8000``)."""
    out = []
    for ch in text:
        if ch in _PROLOG_ESCAPES:
            out.append(_PROLOG_ESCAPES[ch])
        elif invisible(ch):
            out.append(_python_escape(ch))
        else:
            out.append(ch)
    return "'" + "".join(out) + "'"


def exception_like(name: str) -> bool:
    """Named like an exception of FOLD-R++ and aspml's learners (``ab1``, ``ab2``, ...):
    where a program's text does not say, such a name is read as an exception."""
    return re.fullmatch(r"ab\d+", name) is not None


def text_string(text: str) -> str:
    """A double-quoted string for the text dialect (JSON escapes, invisible characters
    included: ``"ro\\u200bme"``, not a string that looks like ``"rome"``)."""
    return visible(json.dumps(text, ensure_ascii=False), _json_escape)


TEXT_KEYWORDS = {"if", "then", "else", "and", "or", "not", "in", "inf", "true", "where"}


def text_name(name: str) -> str:
    """A feature or target name for the text dialect: bare when plain, else quoted."""
    if (re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) and name.lower() not in TEXT_KEYWORDS
            and name != "CLASSES"):     # the multi-class print's first word (only in capitals)
        return name
    return text_string(name)
