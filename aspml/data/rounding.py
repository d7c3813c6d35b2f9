"""``aspml learn --digits N``: numbers rounded before learning, and a program that
answers on the file's own numbers as it did on the rounded ones.

A program learned on numbers rounded to N decimals compares the *rounded* values
with its thresholds.  ``predict``, ``check``, clingo and SWI-Prolog read the file's
own numbers, so a rule ``x > 0.13`` learned where 0.1308 was 0.13 would fire on
that row afterwards.  Here every number is rounded to the grid ``k / 10**N`` with
the halfway point going down (``k`` such that ``m(k-1) < x <= m(k)``, where
``m(k) = (k + 1/2) / 10**N`` as the nearest float64: a correctly rounded
division of two exact integers), and each threshold of the learned rules is then
moved to the midpoint that splits the same rounded values: ``round(x) <= t`` is
``x <= m(K)`` for the largest grid point ``K <= t``, ``round(x) > t`` is
``x > m(K)``.  ``age <= 50`` learned with ``--digits 0`` is written
``age <= 50.5``; the comparisons keep their form.  The program then gives every
row of the file the answer the learner gave its rounded row.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import replace

import numpy as np
import pandas as pd

from ..errors import AspmlWarning
from ..logic.model import Compare, Interval, NotCompare, Program
from .table import infer_kind, number_text

# beyond this a number times 10**N is no longer an exact float64 integer step: a column
# holding such a number is left as it is (its thresholds are not shortened by rounding)
_EXACT = 2.0**52


def _grid(k, digits: int):
    return np.asarray(k, dtype=np.float64) / 10.0**digits


def _mid(k, digits: int):
    """``(k + 1/2) / 10**digits`` as the nearest float64 (``2k + 1`` and ``2 * 10**N`` are
    exact, and IEEE division rounds correctly)."""
    return (2.0 * np.asarray(k, dtype=np.float64) + 1.0) / (2.0 * 10.0**digits)


def _round_half_down(x: np.ndarray, digits: int) -> np.ndarray:
    """The grid index ``k`` of each number: ``m(k - 1) < x <= m(k)``."""
    k = np.rint(x * 10.0**digits)
    k = k - (x <= _mid(k - 1, digits)) + (x > _mid(k, digits))
    return k


def round_numbers(X: pd.DataFrame, digits: int, kinds: dict | None = None,
                  missing=None) -> tuple[pd.DataFrame, list]:
    """``X`` with the numbers of its numeric and mixed columns (``kinds``, else as the
    learners infer them) rounded to ``digits`` decimals, halfway down, as decimal
    texts; and the names of the columns rounded.  Texts of a mixed column and every
    cell of a categorical or Boolean column stay as they are: ``"007"`` is a code.
    A column holding a number of magnitude 2**52 / 10**digits or more is left whole."""
    from .table import DEFAULT_MISSING
    missing = DEFAULT_MISSING if missing is None else missing
    kinds = dict(kinds or {})
    X = X.copy()
    done = []
    for c in X.columns:
        with warnings.catch_warnings():         # the fit that follows warns of the data
            warnings.simplefilter("ignore", AspmlWarning)
            kind = kinds.get(c) or infer_kind(X[c], missing)
        if kind not in ("numeric", "mixed"):
            continue
        numbers = pd.to_numeric(X[c], errors="coerce")
        is_number = (numbers.notna() & np.isfinite(numbers)).to_numpy()
        if not is_number.any():
            continue
        x = numbers.to_numpy(dtype=np.float64)[is_number]
        if np.max(np.abs(x)) * 10.0**digits >= _EXACT:
            continue
        k = _round_half_down(x, digits)
        uniques, back = np.unique(k, return_inverse=True)
        # the grid's floats as texts (their shortest decimals: 0.13), as the file had text
        texts = np.array([number_text(g) for g in _grid(uniques, digits)], dtype=object)
        column = X[c].astype(object).to_numpy(copy=True)
        column[is_number] = texts[back]
        X[c] = column
        done.append(c)
    return X, done


def _below(t: float, digits: int, strict: bool) -> float:
    """The largest grid index ``K`` with ``grid(K) <= t`` (``< t`` when ``strict``)."""
    k = math.floor(t * 10.0**digits)
    while _grid(k + 1, digits) < t or (not strict and _grid(k + 1, digits) == t):
        k += 1
    while _grid(k, digits) > t or (strict and _grid(k, digits) == t):
        k -= 1
    return float(k)


def _mid_below(t: float, digits: int, strict: bool) -> float:
    return float(_mid(_below(t, digits, strict), digits))


def _literal(lit, digits: int):
    if isinstance(lit, Compare) and lit.op in ("<=", "<", ">", ">="):
        strict = lit.op in ("<", ">=")
        m = _mid_below(float(lit.value), digits, strict)
        # round(x) <= K is x <= m(K); round(x) > K is x > m(K)
        return Compare(lit.feature, "<=" if lit.op in ("<=", "<") else ">", m)
    if isinstance(lit, NotCompare):
        return NotCompare(lit.feature, lit.op, _mid_below(float(lit.value), digits, False))
    if isinstance(lit, Interval) and not lit.any_number:
        lo, hi = lit.lo, lit.hi
        if lo is not None:      # x >= lo is round(x) > K(< lo); x > lo is round(x) > K(<= lo)
            lo = _mid_below(float(lo), digits, strict=lit.lo_closed)
        if hi is not None:      # x <= hi is round(x) <= K(<= hi); x < hi is <= K(< hi)
            hi = _mid_below(float(hi), digits, strict=not lit.hi_closed)
        if lo is not None and hi is not None and lo > hi:
            hi = lo             # no rounded value lies inside: empty either way
        return Interval(lit.feature, lo, hi, lo_closed=False, hi_closed=hi is not None)
    return lit


def at_midpoints(program: Program, digits: int, columns) -> Program:
    """``program``, learned on numbers rounded by :func:`round_numbers`, with the
    thresholds of its learned rules on the rounded ``columns`` moved to the midpoints
    between rounded values (the module's notes).  Expert rules and background rules,
    written by a user about the file's own numbers, stay as written."""
    columns = set(columns)
    expert = set(program.expert)
    rules = [r if i in expert else
             replace(r, body=tuple(_literal(lit, digits) if getattr(lit, "feature", None)
                                   in columns else lit for lit in r.body))
             for i, r in enumerate(program.rules)]
    return replace(program, rules=tuple(rules))
