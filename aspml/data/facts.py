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
"""

from __future__ import annotations

import bisect

import numpy as np

from ..errors import ScaleError
from ..logic.names import DOMAIN, clingo_string, prolog_atom
from ..logic.values import INT32_MAX, format_number
from .table import Column, Table


def scaled_values(col: Column, scale: int, limits=None) -> tuple[np.ndarray, int]:
    """``(integers, factor)`` for the numbers of ``col``: factor 1, or 2 when some are finer.

    ``limits`` ``(lo, hi)``, the smallest and largest number the program compares
    this feature with (None: it compares none): a value beyond them is replaced
    by the grid point just beyond them, which every comparison with the
    program's constants treats the same way, so huge values still fit clingo.
    """
    v = col.num[col.is_num]
    if limits is not None:
        lo, hi = limits
        if lo is None:
            v = np.zeros_like(v)
        else:
            v = np.where(v > hi, hi + 1 / scale, np.where(v < lo, lo - 1 / scale, v))
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
    from ..logic.values import is_number
    out = {}
    for f in dict.fromkeys(program.features_used + program.columns_used):   # background's too
        nums = [v for lit in program.literals if lit.feature == f for v in lit.values()
                if is_number(v)]
        out[f] = (min(nums), max(nums)) if nums else (None, None)
    return out


def clingo_facts(table: Table, preds: dict, numbers: dict) -> str:
    """``row(i).`` for every row and ``pred(i,v).`` for every known value.

    ``numbers`` comes from :func:`clingo_numbers`: exact integers, so no float
    reaches clingo; categories are clingo strings.
    """
    rows = "".join(f"row({i}).\n" for i in range(table.n_rows))
    return rows + _facts(table, preds, lambda name, col: numbers[name][0].tolist(), clingo_string)


def _prolog_number(x: float) -> str:
    return format_number(int(x)) if x.is_integer() else format_number(x)


def prolog_facts(table: Table, preds: dict) -> str:
    """``row(i).`` for every row, then the values: numbers as shortest exact decimals,
    categories as quoted atoms.  A printed rule with no positive literal first
    starts with ``row(X)``, so an open query (``label(R, V)``) meets only rows."""
    rows = "".join(f"{DOMAIN}({i}).\n" for i in range(table.n_rows))
    return rows + _facts(table, preds,
                         lambda name, col: [_prolog_number(x)
                                            for x in col.num[col.is_num].tolist()],
                         prolog_atom)


def _facts(table: Table, preds: dict, number_texts, quote) -> str:
    """One fact per known value: ``flag(i).``, ``pred(i,number).``, ``pred(i,category).``"""
    ids = np.arange(table.n_rows)
    parts = []
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
