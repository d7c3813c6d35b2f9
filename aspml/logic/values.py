"""Values of the Program model and their exact integer forms for clingo.

A value is a number (``int`` or ``float``; integral floats are stored as
``int``) or a category string.  clingo has only 32-bit integers, so each
numeric feature is written in one of two ways:

*scaled*  the feature carries a *scale*: the value ``v`` is written as the
          integer ``v * scale``.  A number is *exact* at a scale when that
          product is an integer and dividing it back gives the same float; the
          Program chooses the smallest power of ten that makes all of its own
          numbers exact with ``|v * scale| <= SCALED_MAX`` (a quarter of
          clingo's range, so that aspml's encodings may double the scale twice:
          values between grid points, explanation worlds).
*ranked*  when no such scale exists (``2**40``, ``1e15``, ``0.1 + 0.2``) the
          feature's scale is ``None`` and a number is written as its *rank*
          among the feature's own constants ``t1 < t2 < ... < tk`` (its
          *rank table*): ``ti`` is ``2i``, a value strictly between ``ti`` and
          ``t(i+1)`` is ``2i+1``, below ``t1`` is ``1``, above ``tk`` is
          ``2k+1``.  The map keeps the order and tells the constants apart, so
          every comparison with a constant keeps its truth, for any data value.
"""

from __future__ import annotations

import bisect
import math
import re
import sys
import unicodedata
from numbers import Integral, Real

import numpy as np

from ..errors import AspmlError, ScaleError

Value = int | float | str

INT32_MAX = 2**31 - 1
SCALED_MAX = INT32_MAX // 4
_LARGEST = int(sys.float_info.max)
MAX_DECIMALS = 9


def check_string(text: str, what: str) -> str:
    """Return ``text`` if it can be carried by every dialect (no NUL character), in
    Unicode's composed form (NFC): "é" typed as one character or as "e" and an accent
    (macOS and some spreadsheets export the second) is one value, in a table and in a
    program alike (a finance trial: the same applicant answered otherwise, and explained
    as ``product = "Crédit", not "Crédit"``)."""
    if not isinstance(text, str):
        raise AspmlError(f"{what} must be a string, got {type(text).__name__} {text!r}")
    if "\x00" in text:
        raise AspmlError(f"{what} {text!r} contains a NUL character, which clingo cannot carry")
    return composed(text)


def composed(text: str) -> str:
    """``text`` in Unicode's composed form (NFC), one text for what reads alike."""
    if text.isascii() or unicodedata.is_normalized("NFC", text):
        return text
    return unicodedata.normalize("NFC", text)


def normalize_value(value: object, what: str = "value") -> Value:
    """Return ``value`` as an ``int``, a finite ``float`` or a ``str``.

    Integral floats become ``int`` so that ``50.0`` and ``50`` are one value.
    Booleans, NaN and infinities are rejected: they are not values of a feature.
    """
    if type(value) is float and math.isfinite(value):    # the common case, first (a
        return int(value) if value.is_integer() else value  # learner's thresholds)
    if isinstance(value, str):
        return check_string(value, what)
    if isinstance(value, bool) or value is None:
        raise AspmlError(f"{what} must be a number or a string, got {value!r}")
    if isinstance(value, Integral):
        if abs(int(value)) > _LARGEST:      # the engines compare values as doubles
            raise AspmlError(f"{what} must be within +-1.8e308 (a double), got an integer "
                             f"of {len(str(abs(int(value))))} digits")
        return int(value)
    if isinstance(value, Real):
        f = float(value)
        if not math.isfinite(f):
            raise AspmlError(f"{what} must be finite, got {value!r}")
        return int(f) if f.is_integer() else f
    raise AspmlError(f"{what} must be a number or a string, got {type(value).__name__} {value!r}")


def read_number(text: str) -> int | float:
    """The value of a number as program text writes it (``42``, ``-1.5``, ``2.5e3``).

    Text beyond a double is refused with one message, like ``1e400`` and
    integers longer than Python converts at all (4,300 digits).
    """
    shown = text if len(text) <= 40 else f"{text[:20]}...{text[-10:]} ({len(text)} characters)"
    if re.fullmatch(r"[+-]?\d+", text):
        try:
            value = int(text)
        except ValueError:              # over 4,300 digits: far beyond a double anyway
            value = None
    else:
        value = float(text)
    if value is None or abs(value) > _LARGEST:
        raise AspmlError(f"the number {shown} is out of range (beyond +-1.8e308, a double)")
    return normalize_value(value)


def as_label(value) -> Value:
    """A class label as a Program value: numpy scalars unwrapped, booleans as text
    (``True`` -> ``"True"``), anything else not a number or a string as its text."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bool):
        return str(value)
    return value if isinstance(value, (str, int, float)) else str(value)


def read_as_csv(label):
    """A text label as a CSV file reads it, without its leading spaces (``" >50K"``,
    fitted in Python, is ``>50K`` in the file ``to_csv`` writes); other labels as
    they are.  Two labels that read alike are one class to ``check``, ``report`` and
    ``explain`` (docs, data)."""
    return composed(label.lstrip(" ")) if isinstance(label, str) else label


def is_number(value: object) -> bool:
    kind = type(value)
    if kind is float or kind is int:
        return True
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def decimals(value: int | float) -> int:
    """Digits after the point in the shortest text of ``value`` (``12.25`` -> 2)."""
    if isinstance(value, (int, np.integer)):
        return 0
    mantissa, _, exponent = repr(float(value)).partition("e")  # as Decimal(repr(value)) reads it
    return max(0, len(mantissa.partition(".")[2]) - int(exponent or 0))


def scale_for(numbers, feature: str) -> int | None:
    """The smallest power of ten at which every number is an exact integer of at most SCALED_MAX.

    ``None`` when no such scale exists (too many decimals, or too large): the
    feature is then ranked.
    """
    d = max((decimals(v) for v in numbers), default=0)
    if d > MAX_DECIMALS:
        return None
    scale = 10**d
    return scale if fits(numbers, scale) else None


def fits(numbers, scale: int, limit: int = SCALED_MAX) -> bool:
    """Every number is an exact integer of at most ``limit`` (SCALED_MAX: the room a
    chosen scale leaves for the engines' finer ones) at ``scale``."""
    for v in numbers:
        if abs(v) > limit:          # before the product: a huge float times scale is inf
            return False
        r = v * scale if isinstance(v, int) else round(v * scale)
        if abs(r) > limit or (not isinstance(v, int) and r / scale != v):
            return False
    return True


def rank_code(value: int | float, table: tuple) -> int:
    """The clingo integer of a constant of a ranked feature: ``2i`` for ``table[i-1]``."""
    i = bisect.bisect_left(table, value)
    if i == len(table) or table[i] != value:
        raise ScaleError(f"{value!r} is not in the rank table {list(table)}")
    return 2 * i + 2


def unranked(code: int, table: tuple) -> int | float:
    """The constant whose rank is ``code``; ValueError when ``code`` names none."""
    if code % 2 or not 2 <= code <= 2 * len(table):
        raise ValueError(f"{code} is not the rank of a constant (2 to {2 * len(table)}, even)")
    return table[code // 2 - 1]


def scaled(value: int | float, scale: int, feature: str) -> int:
    """``value * scale`` as an exact integer; :class:`ScaleError` otherwise."""
    if isinstance(value, int):
        result = value * scale
    else:
        result = round(value * scale)
        if result / scale != value:
            raise ScaleError(
                f"feature {feature!r}: {value!r} is not exact at scale {scale} "
                f"(it needs {decimals(value)} decimal digits)")
    if abs(result) > INT32_MAX:
        raise ScaleError(
            f"feature {feature!r}: {value!r} at scale {scale} is {result}, "
            f"outside clingo's 32-bit integers")
    return result


def unscaled(number: int, scale: int) -> int | float:
    """The value whose scaled form is ``number``."""
    if scale == 1:
        return number
    q = number / scale
    return int(q) if q.is_integer() else q


def format_number(value: int | float) -> str:
    """Shortest exact decimal text of a number, always with a digit before an exponent."""
    if isinstance(value, int):
        return str(value)
    text = repr(value)
    if "e" in text and "." not in text.split("e")[0]:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}.0e{exponent}"
    return text


def sort_key(value: Value) -> tuple:
    """Numbers first (by value), then strings: a total order for printing sets."""
    return (0, value, "") if is_number(value) else (1, 0, value)
