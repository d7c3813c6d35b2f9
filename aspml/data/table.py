"""Typed tables: a schema inferred from a DataFrame, and column arrays for kernels.

Kinds (FOLD-SE's regime, DESIGN §2):

``numeric``      numbers and missing values; any other string is an error.
``categorical``  every value is a category string.  A number, and a text
                 that writes a number as ``DataFrame.to_csv`` does, becomes the
                 number's shortest text (:func:`category_text`: ``2``, ``2.0``,
                 ``"2.0"``, ``"2"`` -> ``"2"``), so a DataFrame of floats, of
                 ints, of strings and the CSV ``to_csv`` writes give the same
                 categories; a text with a leading zero (``"007"``) or a number
                 written otherwise (``"1.10"``, ``"1E3"``) is a code and stays
                 as it is.
``mixed``        numbers and category strings side by side; numeric
                 comparisons hold only for the numbers.
``boolean``      true / false (``True``, ``1``, ``"true"``); a flag ``bird(X)``.

Booleans are not numbers: ``True`` and ``1`` are two values (pandas'
``factorize`` would make them one, see :func:`factorize`).

Missing values are NaN / None / pd.NaT / pd.NA, empty texts (or spaces only: a CSV
file's empty cell) and the ``missing`` tokens (``"?"`` by default).  A DataFrame
reads as the CSV file its ``to_csv`` writes: a text's leading spaces are not part of
it (a CSV file's ``a, b`` is ``"b"``), a float32 is its shortest text, a date or
duration its text (a midnight its date), a Decimal a number, and a whole number
float64 cannot hold keeps its digits (docs, Data).  A :class:`Table` holds, per
feature, plain numpy arrays (float values, category codes, masks) built with
vectorised pandas/numpy calls and a Python step per *distinct* value only, never
per row.
"""

from __future__ import annotations

import math
import re
import warnings
from dataclasses import dataclass
from decimal import Decimal

import numpy as np
import pandas as pd

from ..errors import AspmlError, AspmlWarning
from ..kernels.scale import min_decimals, shortest_float32
from ..logic.model import DEFAULT_MISSING, KINDS, Feature, Schema
from ..logic.values import MAX_DECIMALS, INT32_MAX, check_string

_NUMBER_TEXT = re.compile(r"[ \t]*[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?[ \t]*\Z")
_INTEGER_TEXT = re.compile(r"[ \t]*[+-]?[0-9]+[ \t]*\Z")
_CODE_TEXT = re.compile(r"[ \t]*[+-]?0[0-9]")           # "007", "0123": a code, not a number
_TRUE = {"true", "1", "yes"}
_FALSE = {"false", "0", "no"}


@dataclass(frozen=True)
class Column:
    """One feature as arrays: ``num`` (NaN unless a number), ``code`` (-1 unless a string)."""

    name: str
    kind: str
    num: np.ndarray          # float64
    is_num: np.ndarray       # bool
    code: np.ndarray         # int32, index into categories, -1 when not a string
    categories: tuple        # sorted category strings
    missing: np.ndarray      # bool

    def code_of(self, value: str) -> int:
        """Code of a category string, -1 when the table never holds it."""
        i = np.searchsorted(np.array(self.categories, dtype=object), value) if self.categories else 0
        if i < len(self.categories) and self.categories[i] == value:
            return int(i)
        return -1


@dataclass(frozen=True)
class Table:
    """Encoded rows: one :class:`Column` per schema feature present."""

    schema: Schema
    columns: dict
    n_rows: int

    def __getitem__(self, name: str) -> Column:
        return self.columns[name]


def take_rows(table: Table, rows: np.ndarray) -> Table:
    """The table's ``rows`` (indices, ascending), with the same schema: each column's
    categories are those the rows hold, coded in the same order (a category none of
    them holds is not offered to a learner)."""
    columns = {}
    for name, c in table.columns.items():
        code = c.code[rows]
        held = np.unique(code[code >= 0])
        recode = np.full(len(c.categories) + 1, -1, dtype=code.dtype)  # the last slot: -1
        recode[held] = np.arange(len(held), dtype=code.dtype)
        columns[name] = Column(c.name, c.kind, c.num[rows], c.is_num[rows], recode[code],
                               tuple(c.categories[i] for i in held), c.missing[rows])
    return Table(table.schema, columns, len(rows))


def _missing_texts(missing) -> frozenset:
    """The ``missing`` tokens (one, or several) as the texts a value is compared with:
    without leading spaces, as values are read (``" ?"`` given is ``"?"``)."""
    if isinstance(missing, frozenset):
        return missing
    return frozenset(t.lstrip(" ") for t in ([missing] if isinstance(missing, str) else missing))


def _is_missing_scalar(u, missing) -> bool:
    """Whether a value is missing: NaN, None, NaT, NA, an empty text (or spaces only)
    or one of the ``missing`` tokens (a whole token, not a substring; pass
    :func:`_missing_texts` of them when asking of many values)."""
    if u is None or u is pd.NA or u is pd.NaT:
        return True
    if isinstance(u, float) and math.isnan(u):
        return True
    if not isinstance(u, str):
        return False
    u = u.lstrip(" ")               # as the CSV file to_csv writes reads it: " ?" is "?"
    return not u or u in _missing_texts(missing)


def _as_number(u):
    """The number a scalar denotes, or None (bools are not numbers)."""
    if isinstance(u, str):
        if not _NUMBER_TEXT.match(u):
            return None
        try:
            f = float(u)
        except ValueError:
            return None
        return f if math.isfinite(f) else None
    if isinstance(u, (bool, np.bool_)):
        return None
    if isinstance(u, np.floating) and u.dtype.itemsize < 8:
        u = float(str(u))                       # float32 0.7: "0.7", as to_csv writes it
    if isinstance(u, (int, float, np.integer, np.floating, Decimal)):
        f = float(u)
        return f if math.isfinite(f) else None
    return None


def _loses_digits(u, number: float) -> bool:
    """Whether ``u`` is a whole number (an int, an integer text, a whole Decimal) that
    float64 cannot hold: beyond 2**53, 9007199254740993 reads as 9007199254740992.
    ``number``: ``u`` as float64 (:func:`_as_number`), which settles every value below
    2**53 without a closer look."""
    if abs(number) < 2**53 or isinstance(u, (bool, np.bool_)):
        return False
    if isinstance(u, str):
        if not _NUMBER_TEXT.match(u) or _as_pandas_writes(u.strip(" \t"), number):
            # a float's own text ("1e+300", as to_csv writes the float 1e300: a trial's
            # file read as categories what its DataFrame held as numbers) holds no digits
            # float64 loses
            return False
        u = Decimal(u.strip(" \t"))             # "9007199254740993.0" too
    if isinstance(u, Decimal):
        if not u.is_finite() or u != u.to_integral_value():
            return False
    elif not isinstance(u, (int, np.integer)):
        return False
    u = int(u)
    return abs(u) > 2**53 and float(u) != u


def _big_integers(values: np.ndarray) -> np.ndarray:
    """The values of an integer array that float64 cannot hold (:func:`_loses_digits`)."""
    if values.dtype.kind not in "iu" or not values.size:
        return values[:0]
    if values.max() <= 2**53 and (values.dtype.kind == "u" or values.min() >= -2**53):
        return values[:0]                   # (every fit reads each integer column so)
    far = values > 2**53 if values.dtype.kind == "u" else (values > 2**53) | (values < -2**53)
    return np.array([v for v in np.unique(values[far]).tolist() if float(v) != v],
                    dtype=values.dtype)


def _time_like(dtype) -> bool:
    if isinstance(dtype, pd.CategoricalDtype):
        dtype = dtype.categories.dtype
    return (pd.api.types.is_datetime64_any_dtype(dtype) or pd.api.types.is_timedelta64_dtype(dtype)
            or isinstance(dtype, pd.PeriodDtype))


def written(series: pd.Series) -> pd.Series:
    """Dates, times, durations and periods as texts, each value on its own (``str``;
    :func:`category_text` then writes a midnight ``2021-01-02 00:00:00`` as
    ``2021-01-02``, as ``to_csv`` may), missing ones missing.  Other columns as they
    are.  (``astype(str)`` would write a value by the other rows of the column: a
    midnight is ``2021-01-02`` among midnights, ``2021-01-02 00:00:00`` beside a
    10:30, and one row's answer would depend on the rows predicted with it.)"""
    if not _time_like(series.dtype):
        return series
    codes, uniques = pd.factorize(series, use_na_sentinel=True)
    texts = np.array([str(u) for u in uniques] + [None], dtype=object)
    return pd.Series(texts[codes], index=series.index, name=series.name, dtype=object)


# pandas' texts of a time, each as to_csv may write it: a midnight with its time (when
# another row of the column has one) or without, a fraction of a second padded with
# zeros (.500, .500000); the whole days of a duration with or without 00:00:00
_MIDNIGHT = re.compile(r"\A(\d{4}-\d{2}-\d{2}) 00:00:00(\.0*)?\Z")
_WHOLE_DAYS = re.compile(r"\A(-?\d+ days?) \+?00:00:00(\.0*)?\Z")     # str(-1 days): +00:00:00
_PADDED = re.compile(r"\A((?:\d{4}-\d{2}-\d{2} |-?\d+ days? \+?)\d{2}:\d{2}:\d{2})\.(\d*?)0*"
                     r"([+-]\d{2}:\d{2})?\Z")


def _time_text(u: str) -> str:
    """A text of pandas' time or duration as one text, whichever way it was written: the
    whole text a date and time, or days and a time, as pandas writes them (``SKU-12:34:56.100``
    is not one)."""
    if ":" not in u:
        return u
    u = _MIDNIGHT.sub(r"\1", u)
    u = _WHOLE_DAYS.sub(r"\1", u)
    return _PADDED.sub(lambda m: m.group(1) + ("." + m.group(2) if m.group(2) else "")
                       + (m.group(3) or ""), u)


def _short_float(dtype):
    """The numpy float type of a numpy or pandas nullable float32 / float16 column (whose
    ``to_csv`` writes each value's shortest text), else None (a pyarrow float32 column
    writes every float64 digit)."""
    if isinstance(dtype, pd.ArrowDtype):
        return None
    dtype = _numpy_dtype(dtype)
    return dtype.type if dtype.kind == "f" and dtype.itemsize < 8 else None


def _numpy_dtype(dtype) -> np.dtype:
    """The numpy dtype of a column's values: a sparse column's subtype, a nullable or
    pyarrow column's numpy type."""
    dtype = getattr(dtype, "subtype", dtype)             # pd.SparseDtype
    dtype = getattr(dtype, "numpy_dtype", dtype)
    return dtype if isinstance(dtype, np.dtype) else np.dtype(object)   # text, categories


def shortest(values: np.ndarray) -> np.ndarray:
    """Each float32 (or float16) value as float64 of its shortest text (``str``): 0.7,
    not 0.699999988079071.  float32 by :func:`~aspml.kernels.scale.shortest_float32`
    (its values beyond its exact powers of ten, and float16, through ``str``)."""
    if values.dtype != np.float32:
        return values.astype(str).astype(np.float64)
    out = np.empty(len(values), dtype=np.float64)
    slow = np.zeros(len(values), dtype=bool)
    shortest_float32(np.ascontiguousarray(values), out, slow)
    if slow.any():
        out[slow] = values[slow].astype(str).astype(np.float64)
    return out


def number_text(f: float) -> str:
    """Category text of a number: ``1.0`` -> ``"1"``, ``2.5`` -> ``"2.5"``."""
    return str(int(f)) if float(f).is_integer() else repr(float(f))


def category_text(u) -> str:
    """The category a value of a categorical column stands for: one text per number,
    whichever way it came in (``2``, ``2.0``, ``np.float32(2)``, ``"2.0"``, ``" 2"`` -> ``"2"``).

    Integers (and integer texts) keep every digit; a float's text is its number when
    it is written as ``to_csv`` writes a float (``"7.0"``, ``"1e+20"``).  A text with a
    leading zero (``"007"``), a number written otherwise (``"1.10"``, ``"1E3"``: a
    code), or a text that is not a finite number stays as written, less the spaces it
    starts with (a CSV file's ``a, b`` reads ``"b"``: ``aspml`` reads a file so, and
    ``to_csv`` writes ``" b"`` without quotes), and a time as one text however pandas
    wrote it (``2021-01-02 00:00:00`` -> ``2021-01-02``, ``10:00:00.500000`` ->
    ``10:00:00.5``, ``1 days 00:00:00`` -> ``1 days``).
    """
    if isinstance(u, str):
        if not _NUMBER_TEXT.match(u) or _CODE_TEXT.match(u):
            return _time_text(u.lstrip(" "))
        if _INTEGER_TEXT.match(u):
            return str(int(u))
        text = u.strip(" \t")
        f = float(text)
        # a float as pandas writes it ("7.0", "1e+20"; a float32 "1.6777216e+07", a float16
        # "6.55e+04") is that number; any other form ("1.10", "1E3", "2.50") is a code as
        # written: version and diagnosis codes "1.1" and "1.10" are two values
        return number_text(f) if _as_pandas_writes(text, f) else text
    if isinstance(u, (bool, np.bool_)):
        return str(bool(u))
    if isinstance(u, (int, np.integer)):
        return str(int(u))
    if isinstance(u, Decimal) and u.is_finite():    # as its CSV text: Decimal("0.10") "0.10"
        return category_text(str(u))
    if isinstance(u, np.floating) and u.dtype.itemsize < 8:
        u = float(str(u))                       # float32 0.1 is "0.1", as to_csv writes it
    if isinstance(u, (float, np.floating)) and math.isfinite(u):
        return number_text(float(u))
    return _time_text(str(u))           # a Timestamp in an object column: as its text


def _as_pandas_writes(text: str, f: float) -> bool:
    """Whether ``text`` is how ``to_csv`` writes the float ``f`` from a float64, float32
    or float16 column (the narrow ones only within their range: no overflow)."""
    if not math.isfinite(f):
        return False
    if text == repr(f):
        return True
    a = abs(f)
    return ((a <= 3.4028234663852886e38 and text == str(np.float32(f)))
            or (a <= 65504.0 and text == str(np.float16(f))))


def factorize(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``pd.factorize`` of an object array (missing -> -1), with booleans apart from numbers.

    pandas hashes ``True`` like ``1`` and ``False`` like ``0`` and keeps whichever
    came first; here the rows under such a code that are of the other sort get
    codes of their own.  Only the rows holding 0, 1, True or False are looked at,
    and one by one only when pandas' C type scan finds both sorts among them.
    """
    codes, uniques = pd.factorize(values, use_na_sentinel=True)
    if pd.api.types.infer_dtype(uniques, skipna=True) == "string":
        return codes, uniques                   # text only (C scan): no flag or 0/1 to split
    is_flag = np.array([isinstance(u, (bool, np.bool_)) for u in uniques], dtype=bool)
    suspects = [i for i, u in enumerate(uniques)
                if is_flag[i] or (_as_number(u) is not None and not isinstance(u, str)
                                  and u in (0, 1))]
    if not suspects:
        return codes, uniques
    rows = np.flatnonzero(np.isin(codes, suspects))
    sorts = pd.api.types.infer_dtype(values[rows], skipna=False)
    if sorts == "boolean":
        flags = np.ones(len(rows), dtype=bool)
    elif sorts in ("integer", "floating", "mixed-integer-float"):
        flags = np.zeros(len(rows), dtype=bool)
    else:
        flags = np.fromiter((isinstance(v, (bool, np.bool_)) for v in values[rows]), bool,
                            len(rows))
    odd = rows[flags != is_flag[codes[rows]]]   # a bool under a number's code, or the reverse
    if odd.size == 0:
        return codes, uniques
    more_codes, more = pd.factorize(values[odd], use_na_sentinel=True)
    codes = codes.copy()
    codes[odd] = more_codes + len(uniques)
    uniques = np.concatenate([np.asarray(uniques, dtype=object), np.asarray(more, dtype=object)])
    return codes, uniques


def in_memory(X):
    """A Dask DataFrame (a frame with ``columns`` and ``compute()``) computed to pandas, so
    its column names are kept; any other frame that is not pandas' is refused, since
    reading it as an array would lose its names.  Other inputs are returned as they are."""
    if isinstance(X, (pd.DataFrame, pd.Series, np.ndarray)) or not hasattr(X, "columns"):
        return X
    kind = f"{type(X).__module__.split('.')[0]} {type(X).__name__}"
    if callable(getattr(X, "compute", None)):
        X = X.compute()                         # aspml's learners read an in-memory table
        if isinstance(X, pd.DataFrame):
            return X
    raise TypeError(f"X is a {kind}: aspml reads a pandas DataFrame (or an array); convert "
                    f"it, e.g. X.to_pandas(), so that its column names are kept")


def _check_frame(X) -> pd.DataFrame:
    X = in_memory(X)
    if not isinstance(X, pd.DataFrame):
        # (a trial: an estimator fitted on an array predicts for one, and the program's
        # own functions refused it without saying how)
        how = (": name its columns as the program's features were named (an estimator "
               "fitted on an array named them x0, x1, ...: pd.DataFrame(X, columns=[f'x{i}' "
               "for i in range(X.shape[1])])), or predict with the estimator"
               if isinstance(X, np.ndarray) else "")
        raise AspmlError(f"expected a pandas DataFrame, got {type(X).__name__}{how}")
    if X.columns.duplicated().any():
        dup = sorted({str(c) for c in X.columns[X.columns.duplicated()]})
        raise AspmlError(f"the data names column(s) {dup} more than once; rename them")
    for name in X.columns:
        check_string(name, "column name") if isinstance(name, str) else None
    return X


# the texts of a column that is a flag (any case, spaces around): true or false
FLAG_TEXTS = frozenset({"true", "false"})


def infer_kind(series: pd.Series, missing=DEFAULT_MISSING) -> str:
    """The kind of a column, judged from its dtype and its distinct values.

    Whole numbers that float64 cannot hold (beyond 2**53: ids, account and card numbers)
    make the column categorical, every digit kept, with an :class:`AspmlWarning`: as
    numbers, 2**60 and 2**60 + 1 would be one value."""
    series = written(series)
    if pd.api.types.is_bool_dtype(series.dtype):
        return "boolean"
    if pd.api.types.is_numeric_dtype(series.dtype):
        big = _big_integers(_integers(series))
        if big.size:
            _warn_big(series.name, big[0], categorical=True)
            return "categorical"
        return "numeric"
    missing = _missing_texts(missing)
    uniques = [u for u in factorize(series.to_numpy(dtype=object))[1]
               if not _is_missing_scalar(u, missing)]
    if uniques and all(isinstance(u, (bool, np.bool_)) for u in uniques):
        return "boolean"
    if uniques and all(isinstance(u, str) and u.strip().lower() in FLAG_TEXTS for u in uniques):
        # texts true / false are a flag, as aspml learn reads them from a CSV file (a
        # deployment trial learned `smoker != "false"` in Python, `smoker` from the same
        # file with the command: a missing value held the one and not the other)
        return "boolean"
    has_num = has_str = False
    code = None             # a number written as a code ("007", "1.10" beside "1.1"), which a
    seen: dict = {}         # mixed column reads as its number (7, 1.1); number -> a text of it
    zero = None             # the first with a leading zero ("007")
    texts = []              # the texts that are not numbers (the first 2,000)
    words = set()           # the texts that other tools write for a missing value
    for u in uniques:
        if isinstance(u, (bool, np.bool_)):
            has_str = True
        elif (number := _as_number(u)) is not None:
            if _loses_digits(u, number):
                _warn_big(series.name, u, categorical=True)
                return "categorical"
            has_num = True
            # a code a mixed column reads as its number: one with a leading zero ("007"),
            # or one that reads as the number another text of the column reads as ("1.10"
            # beside "1.1", "2E1" beside "20": two values made one)
            if (code is None or zero is None) and isinstance(u, str):
                key, as_code = number_text(number), category_text(u)
                if _CODE_TEXT.match(u):
                    zero = zero or f"{u.strip()!r} reads there as the number {key}"
                    code = code or zero
                elif code is None and seen.get(key, as_code) != as_code:
                    code = f"{seen[key]!r} and {u.strip()!r} read there as one number, {key}"
                seen.setdefault(key, as_code)
        else:
            has_str = True
            if isinstance(u, str) and u.strip() and len(texts) < 2000:
                texts.append(u.strip())
            if isinstance(u, str) and u.strip().lower() in MISSING_WORDS:
                words.add(u.strip())
    if has_num and words:
        # numbers and words that mean "no value" in other tools (R's NA, pandas' NaN):
        # read as they are, each word is a value of its own that rules can name (said
        # beside other texts too: a trial's amounts held '$220,398.34' and 'N/A', and
        # neither was said)
        shown = ", ".join(repr(t) for t in sorted(words))
        tokens, flags = _missing_flags(missing, sorted(words))
        warnings.warn(f"column {series.name!r} holds numbers and {shown}, a word other tools "
                      f"write for a missing value: aspml reads it as a value of its own (a "
                      f"mixed column); if it means missing, say so (missing="
                      f"{tokens!r}, aspml {flags})", AspmlWarning, stacklevel=4)
    if has_str:
        _warn_formatted_numbers(series.name, [t for t in texts if t not in words]
                                if has_num else texts, among_numbers=has_num)
    if has_num and has_str:
        if code is not None:
            warnings.warn(f"column {series.name!r} holds texts and numbers (a mixed column): "
                          f"{code}, as every number of the column does; to keep every value "
                          f"a code as written, declare it categorical (kinds={{{series.name!r}: "
                          f"'categorical'}}, aspml learn {_kind_flag(series.name)})",
                          AspmlWarning, stacklevel=4)
        return "mixed"
    if has_num and zero is not None:
        # every value a number, some written as codes: a trial's diagnosis codes ("007",
        # "250.01") were compared as numbers (dx > 12) without a word.  Only a leading
        # zero says so ("1.10" beside "1.1" may be one number written two ways)
        warnings.warn(f"column {series.name!r} holds numbers, some written as codes: {zero}, "
                      f"and the column is compared as numbers; to keep every value a code "
                      f"as written, declare it categorical (kinds={{{series.name!r}: "
                      f"'categorical'}}, aspml learn {_kind_flag(series.name)})",
                      AspmlWarning, stacklevel=4)
    return "numeric" if has_num else "categorical"


# a number as people write it in a report: a decimal comma or thousands separators, a
# currency sign, a negative amount in parentheses ("28,0", "24,965.20", "($ 3,831.55)")
_FORMATTED = re.compile(r"\(?[-+]?[$€£¥]?\s*\d+(?:[.,']\d{3})*(?:[.,]\d+)?\s*[$€£¥]?\)?")


def _warn_formatted_numbers(name, texts: list, among_numbers: bool = False) -> None:
    """Say so when a column read as categorical holds (nearly) only numbers written as
    people write them in a report: a decimal comma, thousands separators, a currency sign
    (a trial's ';'-separated file of decimal commas learned ``age = "28,0"``).  Each is a
    category of its own, compared as text; no guess is made between 1,234 the thousand and
    1,234 the decimal.  ``texts``: the column's texts that are not numbers (beside plain
    numbers, a mixed column: "62,5" beside "45", its words for a missing value left out).
    Among plain numbers one such text is enough (a trial's three '$220,398.34' among 200
    amounts: the rules' ``NOT (amount > t)`` held for them); a column of texts alone needs
    five."""
    if len(texts) < (1 if among_numbers else 5):
        return
    formatted = _formatted(texts)
    if len(formatted) < 0.9 * len(texts):
        return
    shown = ", ".join(repr(t) for t in formatted[:3])
    warnings.warn(f"column {name!r} holds numbers written with separators or signs ({shown}): "
                  "aspml reads each as a text, a category of its own, compared as text, not "
                  "as a number; to compare them as numbers, write them plainly (1234.5) or "
                  f"{_read_so(formatted)}", AspmlWarning, stacklevel=4)


def _formatted(texts: list) -> list:
    """The texts written as numbers in a report (separators, currency signs)."""
    return [t for t in texts if isinstance(t, str) and _FORMATTED.fullmatch(t.strip())
            and re.search(r"[,$€£¥']", t)]


def _read_so(formatted: list) -> str:
    """How to read such numbers with pandas, told from the texts themselves: the last
    separator of most is the decimal one ("52,861.90": thousands=','; "1.234,5":
    decimal=',' and thousands='.'; a trial's US amounts were given the second, which
    leaves them texts), and currency signs are not read by pandas."""
    # the last separator and the digits after it: a comma before other than three digits
    # is a decimal comma (each text on its own: "$5", with none, counts for neither)
    ends = [re.search(r"([.,])(\d+)\D*$", t) for t in formatted]
    comma_decimal = sum(1 for m in ends if m and m.group(1) == "," and len(m.group(2)) != 3)
    how = ("decimal=',', thousands='.'" if comma_decimal > len(formatted) / 2
           else "thousands=','")
    marks = [what for what, chars in (("the currency signs", "$€£¥"), ("the parentheses", "()"))
             if any(c in t for t in formatted for c in chars)]
    removed = f", once {' and '.join(marks)} are removed" if marks else ""
    return f"read the file so (pandas.read_csv(..., {how}){removed})"


# words other tools write for a missing value (read as values unless named as missing)
MISSING_WORDS = frozenset({"na", "n/a", "nan", "null", "none", "-", ".", "missing", "#n/a",
                           "nil", "unknown"})


def _integers(series: pd.Series) -> np.ndarray:
    """A numeric column's known values as its numpy dtype (empty unless integers)."""
    dtype = _numpy_dtype(series.dtype)
    if dtype.kind not in "iu":
        return np.zeros(0, dtype=np.int64)
    if isinstance(series.dtype, np.dtype):
        return series.to_numpy()            # a numpy integer column has no missing value
    return np.asarray(series.dropna().to_numpy(), dtype=dtype)


def _row(series: pd.Series, at: int) -> int:
    """The number of the row at position ``at``: its label where the index counts rows up
    (a RangeIndex of step 1: a file read in chunks gives the file's row, a frame cut by
    ``iloc`` the label ``loc`` finds), else the position."""
    index = series.index
    counts_up = isinstance(index, pd.RangeIndex) and index.step == 1
    return int(index[at]) if counts_up else at


def _not_numbers(name, texts: list, row: int, missing) -> None:
    """Refuse a numeric column's values that are not numbers: all of them in one message
    (up to five), the row of the first (a trial: four runs to see four), and what to
    write in Python and on the command line, quoted for a shell."""
    shown = [repr(t) for t in texts[:5]] + ([f"{len(texts) - 5} more"] if len(texts) > 5 else [])
    said = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
    kind = (f"declare it mixed or categorical (kinds={{{name!r}: 'mixed'}}, on the command "
            f"line {_kind_flag(name, 'mixed')})")
    formatted = _formatted(texts)
    if len(formatted) >= 0.9 * len(texts):
        # numbers written as in a report ("$52,861.90"): declared mixed they would be texts,
        # and no comparison of a number would hold on them (a finance trial: 344 answers
        # of 3,000 changed with no word, following that advice)
        raise AspmlError(f"column {name!r} is numeric but holds {said} (row {row} the "
                         "first), numbers written with separators or signs: write them "
                         f"plainly (1234.5), or {_read_so(formatted)}; declared mixed, "
                         "they would be texts that no comparison of a number holds on")
    words = [t for t in texts if isinstance(t, str)]
    if not words or len(words) != len(texts) or len(words) > 5:
        # a value no token names (True), or too many to list: the kind alone
        raise AspmlError(f"column {name!r} is numeric but holds {said} (row {row} the first); "
                         f"{kind}")
    tokens, flags = _missing_flags(missing, words)
    raise AspmlError(f"column {name!r} is numeric but holds {said} (row {row} the first); "
                     f"{kind}, or list {'them' if len(texts) > 1 else 'it'} as missing "
                     f"(missing={tokens!r}, {flags})")


def _kind_flag(name, kind: str = "categorical") -> str:
    """``--kind NAME=KIND`` as a shell reads it (a name with a space is quoted)."""
    import shlex
    return "--kind " + shlex.quote(f"{name}={kind}")


def _missing_flags(missing, words: list) -> tuple[tuple, str]:
    """The missing tokens given and then ``words`` (the given ones kept: a token given
    replaces the defaults), and the command's flags for them as a shell reads them
    (``--missing=-inf``: a token starting with a minus would be read as an option)."""
    import shlex
    tokens = tuple(sorted(set(missing))) + tuple(t for t in words if t not in missing)
    return tokens, " ".join(f"--missing{'=' if t.startswith('-') else ' '}{shlex.quote(t)}"
                            for t in tokens)


def _warn_big(name, example, categorical: bool) -> None:
    """Say that a column holds whole numbers float64 cannot hold, and how it is read:
    ``categorical`` (inferred so) or as float64 numbers (its kind is numeric)."""
    said = (f"column {name!r} holds whole numbers that float64 cannot hold ({example} would "
            f"read as {int(float(example))}): ")
    if categorical:
        said += ("read as categorical, every digit kept; kinds={" + repr(name) + ": 'numeric'} "
                 "compares them as float64 numbers")
    else:
        said += ("its numbers compare as float64; a model learned with the column categorical "
                 f"(kinds={{{name!r}: 'categorical'}}, aspml learn {_kind_flag(name)}) "
                 "keeps every digit")
    warnings.warn(said, AspmlWarning, stacklevel=4)


def data_scale(values: np.ndarray) -> int | None:
    """Smallest power of ten at which every finite value is an exact 32-bit integer."""
    d = min_decimals(np.ascontiguousarray(values, dtype=np.float64), MAX_DECIMALS)
    if d > MAX_DECIMALS:
        return None
    v = values[np.isfinite(values)]
    if v.size and np.abs(v).max() * 10**d > INT32_MAX:
        return None
    return 10**d


def infer_schema(X: pd.DataFrame, kinds: dict | None = None, missing=DEFAULT_MISSING,
                 exclude=()) -> Schema:
    """A :class:`Schema` for the columns of ``X``; ``kinds`` overrides any column's kind."""
    return schema_and_table(X, kinds, missing, exclude)[0]


def schema_and_table(X: pd.DataFrame, kinds: dict | None = None, missing=DEFAULT_MISSING,
                     exclude=()) -> tuple[Schema, "Table"]:
    """The inferred :class:`Schema` and the :class:`Table` of ``X``, each column read once."""
    X = _check_frame(X)
    kinds = dict(kinds or {})
    unknown = [k for k in kinds if k not in X.columns]
    if unknown:
        raise AspmlError(f"kinds given for unknown column(s) {unknown}")
    features, columns = [], {}
    for name in X.columns:
        if name in exclude:
            continue
        if not isinstance(name, str):
            raise AspmlError(f"column names must be strings, got {name!r}; "
                             "rename them (X.columns = X.columns.astype(str))")
        series = written(X[name])       # once: infer_kind and encode_column find it done
        kind = kinds.get(name) or infer_kind(series, missing)
        if kind not in KINDS:
            raise AspmlError(f"column {name!r}: kind {kind!r} is not one of {KINDS}")
        col = encode_column(series, Feature(name, kind), missing)
        scale = data_scale(col.num) if kind in ("numeric", "mixed") else None
        features.append(Feature(name, kind, scale))
        columns[name] = col
    schema = Schema(tuple(features))
    return schema, Table(schema, columns, len(X))


def encode_column(series: pd.Series, feature: Feature, missing=DEFAULT_MISSING) -> Column:
    """Arrays for one column read as ``feature.kind``."""
    name, kind = feature.name, feature.kind
    series = written(series)
    n = len(series)
    dtype = series.dtype
    if pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype) \
            and kind in ("numeric", "mixed"):
        small = _short_float(dtype)
        if small is not None:
            # float32 0.7 is 0.699999988079071 as float64; to_csv writes "0.7", which
            # every engine then reads: the shortest text of each float32 value
            num = shortest(series.to_numpy(dtype=small, na_value=np.nan))
        else:
            big = _big_integers(_integers(series))
            if big.size:
                _warn_big(name, big[0], categorical=False)
            num = series.to_numpy(dtype=np.float64, na_value=np.nan)
        bad = np.isinf(num)
        if bad.any():
            raise AspmlError(f"column {name!r}: row {_row(series, int(np.argmax(bad)))} holds "
                             "an infinite value")
        is_num = ~np.isnan(num)
        return Column(name, kind, num, is_num, np.full(n, -1, np.int32), (), ~is_num)
    values = series.to_numpy(dtype=object)
    if kind == "categorical" and _short_float(dtype) is not None:
        values = series.to_numpy()              # float32 scalars: their own shortest text
    codes, uniques = factorize(values)
    u_num = np.full(len(uniques) + 1, np.nan)
    u_str: list = [None] * (len(uniques) + 1)      # the last slot serves code -1 (missing)
    big = None                                      # a whole number float64 rounds
    missing = _missing_texts(missing)
    texts = []                                      # a numeric column's non-numbers
    for i, u in enumerate(uniques):
        if _is_missing_scalar(u, missing):
            continue
        if kind == "boolean":
            u_num[i] = _as_flag(u, name)
            continue
        number = _as_number(u) if kind != "categorical" else None
        if number is not None:
            u_num[i] = number
            if big is None and _loses_digits(u, number):
                big = u
        elif kind == "numeric":
            texts.append(i)
        else:               # categorical, or a mixed column's non-number: its one text
            u_str[i] = check_string(category_text(u), f"value in column {name!r}")
    if texts:
        _not_numbers(name, [uniques[i] for i in texts],
                     _row(series, int(np.argmax(codes == texts[0]))), missing)
    if big is not None:
        _warn_big(name, big, categorical=False)
    categories = tuple(sorted({s for s in u_str if s is not None}))
    cat_index = {c: k for k, c in enumerate(categories)}
    u_code = np.array([cat_index[s] if s is not None else -1 for s in u_str], dtype=np.int32)
    num = u_num[codes]
    code = u_code[codes]
    is_num = ~np.isnan(num)
    return Column(name, kind, num, is_num, code, categories, ~is_num & (code < 0))


ID_MIN_ROWS = 20


# a date as pandas and to_csv write one (2021-01-02), with a time (10:30, 10:30:00.5) and a
# zone (+01:00, Z) or not
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?"
                   r"(Z|[+-]\d{2}:?\d{2})?)?")


def looks_like_dates(col: Column) -> bool:
    """A categorical column every value of which is a date (or a date and time): such
    values are compared only for equality (a categorical value each)."""
    return (col.kind != "boolean" and bool(col.categories) and not col.is_num.any()
            and all(_DATE.fullmatch(c) for c in col.categories))


def looks_like_identifier(col: Column, min_rows: int = ID_MIN_ROWS) -> bool:
    """A column that gives every row its own value, like an id: at least ``min_rows``
    (``ID_MIN_ROWS``) rows hold a value, no two the same, and its numbers (if any) are whole.

    Distinct decimals are measurements (every reading of a sensor differs), not ids.
    ``min_rows=0`` asks of a part of a column only whether it could belong to one.
    """
    if col.kind == "boolean":
        return False
    nums, codes = col.num[col.is_num], col.code[col.code >= 0]
    if nums.size + codes.size < min_rows or not np.all(nums == np.floor(nums)):
        return False
    for values in (nums, codes):
        head = values[:1000]                    # most columns repeat a value early: no full sort
        if np.unique(head).size < head.size or np.unique(values).size < values.size:
            return False
    return True


def _as_flag(u, name: str) -> float:
    if isinstance(u, (bool, np.bool_)):
        return float(bool(u))
    if isinstance(u, (int, float, np.integer, np.floating)) and float(u) in (0.0, 1.0):
        return float(u)
    if isinstance(u, str) and u.strip().lower() in _TRUE | _FALSE:
        return 1.0 if u.strip().lower() in _TRUE else 0.0
    if isinstance(u, str) and _as_number(u) in (0.0, 1.0):     # "1.0": to_csv of a float flag
        return _as_number(u)
    raise AspmlError(f"column {name!r} is boolean but holds {u!r}")


def column_sources(names, columns) -> dict:
    """``{name: the column of columns that holds it}`` for the names found: the column of
    that name, else the one column of that name without the spaces around it (the
    ``aspml`` command strips a CSV header's names; a DataFrame keeps them)."""
    source = {f: f for f in names if f in columns}
    for f in names:
        if f not in source:
            alike = [c for c in columns if isinstance(c, str) and c.strip() == f.strip()]
            if len(alike) == 1:
                source[f] = alike[0]
    return source


def encode(X: pd.DataFrame, schema: Schema, features=None, missing=DEFAULT_MISSING) -> Table:
    """Encode the columns of ``X`` that ``schema`` names (or just ``features``).

    A missing column that is needed is an error; extra columns are ignored.  A name
    not in ``X`` is found without the spaces around it when one column matches so
    (the ``aspml`` command strips a CSV header's names; a DataFrame keeps them).
    """
    X = _check_frame(X)
    names = list(features) if features is not None else list(schema.names)
    source = column_sources(names, X.columns)
    absent = [f for f in names if f not in source]
    if absent:
        hint = ""
        if not all(isinstance(c, str) for c in X.columns) and all(
                re.fullmatch(r"x\d+", f) for f in absent):
            # a learner fitted on columns without text names (0, 1, ...) calls them x0, x1
            hint = ("; these are the names a learner gives columns that have none (x0 the "
                    "first): rename the data's columns so (df.columns = [f\"x{i}\" for i in "
                    "range(df.shape[1])]), or predict through the fitted learner")
        raise AspmlError(f"the data has no column(s) {absent}; the program needs "
                         f"{names}{hint}")
    columns = {f: encode_column(X[source[f]], schema[f], missing) for f in names}
    return Table(schema, columns, len(X))
