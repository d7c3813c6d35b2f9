"""Tables as facts: exact scaled integers and strings for clingo, terms for Prolog.

For clingo a numeric value ``v`` of a feature with scale ``s`` is the integer
``v*s``.  When a value is finer than the scale (``12.34`` at scale 10) it has
no integer of its own; then the feature is written at scale ``2s``: exact
values become ``2r`` and a value strictly between ``k/s`` and ``(k+1)/s``
becomes ``2k+1``.  Every comparison against a threshold of the program (an
integer at scale ``s``, so even at ``2s``) keeps its exact truth value, and no
``==`` can match such a value, as it should not.

A ranked feature (one no scale holds, see :mod:`aspml.logic.values`) writes a
value as its rank among the program's constants of that feature: the even
rank of the constant it equals, else the odd rank of the gap it falls in.
Any number has a rank, however large (``2**45`` when training stopped at
``2**40``) or fine, so a ranked feature never raises ScaleError.

Rows are named by their numbers (``age(17,52)``), or by the values of a key
column (:func:`entity_keys`): a key that is a plain integer in clingo's range
stays an integer (``age(17,52)``), any other is a clingo string or a quoted
Prolog atom (``age("P-17",52)``, ``age('P-17',52)``), so any text is safe.
"""

from __future__ import annotations

import bisect
import re

import numpy as np

from ..errors import AspmlError, ScaleError
from ..logic.names import DOMAIN, clingo_string, prolog_atom, text_string
from ..logic.values import INT32_MAX, SCALED_MAX, format_number
from .table import Column, Table, _is_missing_scalar, _missing_texts, category_text

_PLAIN_INTEGER = re.compile(r"(0|-?[1-9][0-9]*)\Z")


def entity_keys(values, dialect: str, missing=(), column: str = "key") -> list[str]:
    """The term naming each row in facts, from the values of a key column.

    A value whose text is a plain integer (``17``, ``-3``: no sign ``+``, no ``-0``, no
    leading zero, no spaces) within clingo's 32-bit range is that integer, in
    both dialects; any other value is its text as a clingo string (``asp``)
    or a quoted Prolog atom (``prolog``), so ``"017"`` and ``17`` are two keys.
    Numbers that are not text (a DataFrame's int or float column) are read as
    their text (``17.0`` is ``17``).  A missing value (empty, NaN, or one of
    ``missing``) or a value met twice is an error: a key names one row.
    """
    if dialect not in ("asp", "prolog"):
        raise AspmlError(f"facts are written for asp or prolog, not {dialect!r}")
    quote = clingo_string if dialect == "asp" else prolog_atom
    terms, seen = [], {}
    missing = _missing_texts(missing)           # once, not a token set per row
    for i, u in enumerate(values):
        if _is_missing_scalar(u, missing) or (isinstance(u, str) and not u.strip()):
            raise AspmlError(f"key column {column!r} has no value in row {i} (0 is the first "
                             "row): every row needs a key")
        text = u if isinstance(u, str) else category_text(u)
        if "\x00" in text:
            raise AspmlError(f"key column {column!r}: the key in row {i} contains a NUL "
                             "character, which clingo cannot carry")
        # clingo's integers: -2^31 .. 2^31 - 1
        plain = _PLAIN_INTEGER.match(text) and -INT32_MAX - 1 <= int(text) <= INT32_MAX
        term = text if plain else quote(text)
        if term in seen:
            raise AspmlError(f"key column {column!r} holds {text_string(text)} twice (rows "
                             f"{seen[term]} and {i}, 0 is the first): a key names one row")
        seen[term] = i
        terms.append(term)
    return terms


def scaled_values(col: Column, scale: int, limits=None) -> tuple[np.ndarray, int]:
    """``(integers, factor)`` for the numbers of ``col``: factor 1, or 2 when some are finer.

    ``limits`` ``(lo, hi)``, the smallest and largest number the program compares
    this feature with (None: it compares none): a value too large for clingo's
    integers at this scale is replaced by the grid point just beyond them, which
    every comparison with the program's constants treats the same way.  Every
    other value is written as it is, so the facts hold the data (a knowledge
    base asks them its own questions: ``age(P,A), A >= 80``).
    """
    v = col.num[col.is_num]
    if limits is not None:
        lo, hi = limits
        with np.errstate(over="ignore", invalid="ignore"):
            huge = ~(np.abs(v) * scale <= SCALED_MAX)      # room for a doubled scale
        if huge.any():
            if lo is None:
                v = np.where(huge, 0.0, v)
            else:
                v = np.where(huge & (v > hi), hi + 1 / scale,
                             np.where(huge & (v < lo), lo - 1 / scale, v))
    with np.errstate(over="ignore", invalid="ignore"):
        r = np.round(v * scale)
        exact = (r / scale) == v
    if exact.all():
        out, factor = r, 1
    else:
        k = np.floor(v * scale)
        k = np.where(k / scale > v, k - 1, k)
        k = np.where((k + 1) / scale < v, k + 1, k)
        out, factor = np.where(exact, 2 * r, 2 * k + 1), 2
    big = ~np.isfinite(out) | (np.abs(out) > INT32_MAX)
    if big.any():
        bad = float(v[np.argmax(big)])
        raise ScaleError(f"feature {col.name!r}: value {bad!r} at scale {scale * factor} does "
                         "not fit clingo's 32-bit integers")
    return out.astype(np.int64), factor


def ranked_values(col: Column, table: tuple) -> np.ndarray:
    """The rank of each number of ``col`` among the constants ``table`` (sorted)."""
    v = col.num[col.is_num]
    if all(float(t) == t for t in table):     # float64 holds every constant: exact in numpy
        t = np.array(table, dtype=np.float64)
        return np.searchsorted(t, v, "left") + np.searchsorted(t, v, "right") + 1
    # a constant float64 cannot hold (an int beyond 2**53): Python compares int and float exactly
    u, inverse = np.unique(v, return_inverse=True)
    ranks = [bisect.bisect_left(table, x) + bisect.bisect_right(table, x) + 1 for x in u.tolist()]
    return np.array(ranks, dtype=np.int64)[inverse.reshape(-1)]


def clingo_numbers(table: Table, scales: dict, limits: dict | None = None,
                   ranks: dict | None = None) -> dict:
    """``{feature: (integers, factor)}`` for the numeric features, at the program's scales.

    The program must be printed at ``scale * factor`` for these integers;
    ``limits`` as in :func:`scaled_values`, per feature; a feature of ``ranks``
    (``{feature: rank table}``, see :func:`aspml.logic.printers.rank_tables`)
    is ranked instead, with factor 1.
    """
    limits, ranks = limits or {}, ranks or {}
    return {name: ((ranked_values(col, ranks[name]).astype(np.int64), 1) if name in ranks
                   else scaled_values(col, scales[name], limits.get(name)))
            for name, col in table.columns.items() if col.kind in ("numeric", "mixed")}


def program_limits(program) -> dict:
    """``{feature: (smallest, largest) number its literals use}``, ``(None, None)`` if none."""
    from ..logic.printers import feature_numbers
    numbers = feature_numbers(program)
    return {f: (min(numbers[f]), max(numbers[f])) if numbers.get(f) else (None, None)
            for f in dict.fromkeys(program.features_used + program.columns_used)}  # theory's too


def clingo_facts(table: Table, preds: dict, numbers: dict, ids=None, domain: str = DOMAIN) -> str:
    """``row(i).`` for every row and ``pred(i,v).`` for every known value.

    ``numbers`` comes from :func:`clingo_numbers`: exact integers, so no float
    reaches clingo; categories are clingo strings.  ``ids`` are the rows' terms
    (:func:`entity_keys`; default the row numbers), ``domain`` the name of the
    row predicate (``heart_row`` for a prefixed program).
    """
    return _facts(table, preds, lambda name, col: numbers[name][0].tolist(), clingo_string,
                  ids, domain)


def _prolog_number(x: float) -> str:
    return format_number(int(x)) if x.is_integer() else format_number(x)


def prolog_facts(table: Table, preds: dict, ids=None, domain: str = DOMAIN) -> str:
    """``row(i).`` for every row, then the values: numbers as shortest exact decimals,
    categories as quoted atoms.  A printed rule with no positive literal first
    starts with ``row(X)``, so an open query (``label(R, V)``) meets only rows.
    ``ids`` and ``domain`` as in :func:`clingo_facts`."""
    return _facts(table, preds,
                  lambda name, col: [_prolog_number(x) for x in col.num[col.is_num].tolist()],
                  prolog_atom, ids, domain)


def _ids(table: Table, ids) -> np.ndarray:
    if ids is None:
        return np.arange(table.n_rows)
    if len(ids) != table.n_rows:
        raise AspmlError(f"{len(ids)} row ids for {table.n_rows} rows")
    return np.array(list(ids), dtype=object)


def _facts(table: Table, preds: dict, number_texts, quote, ids, domain: str) -> str:
    """``domain(i).`` for every row, then one fact per known value: ``flag(i).``,
    ``pred(i,number).``, ``pred(i,category).``"""
    ids = _ids(table, ids)
    parts = ["".join(f"{domain}({i}).\n" for i in ids.tolist())]
    for name, col in table.columns.items():
        pred = preds[name]
        if col.kind == "boolean":
            parts.append("".join(f"{pred}({i}).\n"
                                 for i in ids[col.is_num & (col.num == 1.0)].tolist()))
            continue
        if col.is_num.any():
            parts.append("".join(f"{pred}({i},{t}).\n"
                                 for i, t in zip(ids[col.is_num].tolist(), number_texts(name, col))))
        if col.categories:
            consts = np.array([quote(c) for c in col.categories], dtype=object)
            has = col.code >= 0
            parts.append("".join(f"{pred}({i},{t}).\n"
                                 for i, t in zip(ids[has].tolist(), consts[col.code[has]])))
    return "".join(parts)
