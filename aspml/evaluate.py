"""The fast path: a Program evaluated over a whole table with numpy.

Each literal becomes a boolean mask over the rows (one vectorised operation
on the column arrays of :mod:`aspml.data`); each rule is the AND of its
literals; each derived atom the OR of its rules, computed stratum by stratum
so that ``not ab(X)`` reads a finished mask.  Value semantics (DESIGN §2):
``f == v`` is false on missing, ``f != v`` true on it, order comparisons hold
for numbers only, negated comparisons also for non-numbers and missing.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd

from ._given import as_program
from .errors import AspmlError, AspmlWarning
from .data.table import Column, Table, encode
from .kernels.bitset import cut_masks, pack, unpack
from .logic.model import (ORDER_OPS, Compare, Flag, InSet, Interval, Literal, NotAtom,
                          NotCompare, Program)
from .logic.values import is_number


def as_table(program: Program, X, missing=None) -> Table:
    """The rows of ``X`` encoded for ``program``; ``missing`` (the tokens that stand for
    no value) defaults to the program's own, those its learner was given.  The
    background atoms (``program.background``) are derived as Boolean columns."""
    if isinstance(X, Table):
        return with_background(program, X)
    return with_background(program, data_table(program, X, missing))


def data_table(program: Program, X, missing=None) -> Table:
    """The data columns of ``X`` the program reads, without the background atoms: the
    facts clingo and SWI-Prolog get, which derive the atoms with the printed rules."""
    atoms = set(program.background_atoms)
    if isinstance(X, Table):
        if not atoms & set(X.columns):
            return X
        return Table(X.schema, {k: c for k, c in X.columns.items() if k not in atoms}, X.n_rows)
    if atoms and hasattr(X, "columns"):
        clash = [c for c in X.columns if c in atoms]
        if clash:
            raise AspmlError(f"the data has a column {clash[0]!r}, which the program's background "
                             "knowledge derives; drop or rename the column")
    texts = _warn_unmatchable(program)
    table = encode(X, program.schema, program.columns_used,
                   program.missing if missing is None else missing)
    if texts:
        _warn_recoded(program, table, texts)
        _warn_case_twins(program, table, texts)
    return table


def _warn_case_twins(program: Program, table: Table, texts: set) -> None:
    """An AspmlWarning for each column that holds values the program does not name but
    that read as values it names up to case (``Current`` where it names ``current``):
    another value to the rules, so a rule on ``!= "current"`` holds for it and one on
    ``== "current"`` does not (a trial: a row's answer changed without a word).
    ``texts``: the program's (feature, text) pairs."""
    named: dict = {}
    for feature, v in texts:
        named.setdefault(feature, set()).add(v)
    for feature, values in named.items():
        col = table.columns.get(feature)
        if col is None or not col.categories:
            continue
        folded = {v.casefold(): v for v in values}
        twins = [(c, folded[c.casefold()]) for c in col.categories
                 if c not in values and c.casefold() in folded]
        if twins:
            c, v = twins[0]
            more = f" (and {len(twins) - 1} more)" if len(twins) > 1 else ""
            warnings.warn(f"column {feature!r} holds {c!r}{more}, which the program does not "
                          f"name; it names {v!r}: the rules read {c!r} as another value "
                          f"(== {v!r} does not hold for it, != {v!r} does); if the two "
                          "are one value, write the data as the program does", AspmlWarning,
                          stacklevel=4)


def _warn_recoded(program: Program, table: Table, texts: set) -> None:
    """An AspmlWarning when a categorical column holds a number written otherwise than
    ``to_csv`` writes a float (``"4.00"``, a code as written since 2026-12-03) and the
    program compares the column with the text that value used to read as (``"4"``), which
    no value of the data reads as now: a program saved by an earlier aspml, or learned
    from ``pd.read_csv``'s numbers, answers otherwise than it did (a review: accuracy
    1.000 -> 0.707 on the file it was learned from, silently).  ``texts``: the program's
    (feature, text) pairs, as :func:`_warn_unmatchable` collected them."""
    from .data.table import _CODE_TEXT, _INTEGER_TEXT, _NUMBER_TEXT, number_text
    wanted: dict = {}
    for feature, v in texts:
        if (feature in program.schema and program.schema[feature].kind == "categorical"
                and _NUMBER_TEXT.match(v) and not _CODE_TEXT.match(v)):
            wanted.setdefault(feature, set()).add(v)
    for feature, values in wanted.items():
        col = table.columns.get(feature)
        categories = set(col.categories) if col is not None else set()
        for t in sorted(categories - values):
            if not _NUMBER_TEXT.match(t) or _CODE_TEXT.match(t) or _INTEGER_TEXT.match(t):
                continue
            x = float(t)
            was = number_text(x) if math.isfinite(x) else t
            if was != t and was in values and was not in categories:
                warnings.warn(f"column {feature!r} holds {t!r}, a code as written (a number "
                              "written otherwise than a float column writes it), and the "
                              f"program compares the column with {was!r}, which {t!r} read as "
                              "before 2026-12-03 or from pd.read_csv's numbers: no value of "
                              "the data reads so now; learn the program again on "
                              "aspml.read_csv's table", AspmlWarning, stacklevel=4)
                return


def _warn_unmatchable(program: Program) -> set:
    """An AspmlWarning when the program compares a column with a text no data value reads
    as (a text starting with a space, an empty text, a midnight written with its time:
    values are read without them, so that a DataFrame and its CSV agree; a program
    written by hand, or saved before aspml read values so, holds them).  Returns the
    program's (feature, text) pairs, for :func:`_warn_recoded`."""
    from .data.table import _as_number, category_text, number_text
    texts = {(lit.feature, v) for lit in program.literals for v in lit.values()
             if isinstance(v, str)}
    if not texts:                   # (every predict comes here: a program of numbers only)
        return texts
    stale = sorted(((f, v) for f, v in texts if category_text(v) != v or not v.strip(" ")),
                   key=repr)
    kinds = {f.name: f.kind for f in program.schema.features}
    # a column of numbers (or numbers and texts) reads "5" as the number 5: a hand-written
    # m = "5" (quoted) never holds there
    quoted = sorted(((f, v) for f, v in texts if kinds.get(f) in ("numeric", "mixed")
                     and _as_number(v) is not None), key=repr)
    if quoted:
        shown = ", ".join(f"{f} with the text {v!r}" for f, v in quoted[:3])
        f, v = quoted[0]
        warnings.warn(f"the program compares {shown}{' ...' if len(quoted) > 3 else ''}: the "
                      "column's values read as numbers, never as that text, so the comparison "
                      "never holds; write the number without quotes"
                      f" ({f} = {number_text(_as_number(v))})", AspmlWarning, stacklevel=3)
    if stale:
        shown = ", ".join(f"{f} with {v!r}" + (f" (a value reads as {category_text(v)!r})"
                                                if v.strip(" ") else " (missing)")
                          for f, v in stale[:3])
        warnings.warn(f"the program compares {shown}{' ...' if len(stale) > 3 else ''}: no "
                      "value of the data reads so (a text's leading spaces are not part of it, "
                      "an empty text is missing, a midnight is its date), so the comparison "
                      "never holds; learn the program again, or write the value as read",
                      AspmlWarning, stacklevel=3)
    return texts


def with_background(program: Program, table: Table) -> Table:
    """``table`` with each background atom as a Boolean column, derived from the background
    rules in dependency order (an atom holds where one of its rules' bodies holds)."""
    if not program.background or all(a in table.columns for a in program.background_atoms):
        return table
    from .logic.background import background_order
    columns = dict(table.columns)
    n = table.n_rows
    for head in background_order(program.background):
        holds = np.zeros(n, dtype=bool)
        view = Table(table.schema, columns, n)
        for r in program.background:
            if r.head == head:
                mask = np.ones(n, dtype=bool)
                for lit in r.body:
                    mask &= literal_mask(lit, view, {})
                holds |= mask
        columns[head] = Column(head, "boolean", holds.astype(np.float64), np.ones(n, dtype=bool),
                               np.full(n, -1, np.int32), (), np.zeros(n, dtype=bool))
    return Table(table.schema, columns, n)


def _bracket(value) -> tuple[float, float]:
    """The float64 values either side of a number: ``(lo, hi)``, the largest float at
    most ``value`` and the smallest at least it, equal when float64 holds it exactly.
    An integer beyond 2**53 (written in a program, ``acct = 9007199254740993``) may fall
    between two floats; the data's numbers are float64, so comparing against the pair
    is the exact comparison clingo and SWI-Prolog make of the same facts."""
    if isinstance(value, float):
        return value, value
    f = float(value)                        # a Program's numbers are within +-1.8e308
    if f == value:                          # Python compares int and float exactly
        return f, f
    if f < value:
        return f, float(np.nextafter(f, np.inf))
    return float(np.nextafter(f, -np.inf)), f


def _cut(op: str, value) -> tuple[float, bool, bool]:
    """An order comparison ``x op value`` as ``(a, strict, other)``: it holds where
    ``x <= a`` (``x < a`` when ``strict``) holds, or, when ``other``, on the numbers where
    that does not; exactly, ``a`` a float either side of ``value`` (:func:`_bracket`)."""
    lo, hi = _bracket(value)
    if op == "<=" or (op == "<" and lo != hi):
        return lo, False, False
    if op == "<":
        return lo, True, False
    if op == ">" and lo == hi:
        return lo, False, True
    return hi, True, True           # x >= hi: not x < hi (">=", or ">" between two floats)


def _order(op: str, num: np.ndarray, value) -> np.ndarray:
    """``num op value``, exactly (:func:`_cut`); NaN compares false."""
    a, strict, other = _cut(op, value)
    with np.errstate(invalid="ignore"):
        if other:
            return num >= a if strict else num > a
        return num < a if strict else num <= a


def equal_rows(col: Column, value) -> np.ndarray:
    """Rows of ``col`` whose value is ``value`` (a number: exactly, :func:`_bracket`)."""
    if is_number(value):
        lo, hi = _bracket(value)
        return col.is_num & (col.num == lo) if lo == hi else np.zeros(len(col.num), dtype=bool)
    code = col.code_of(value)
    if code < 0:
        return np.zeros(len(col.num), dtype=bool)
    return col.code == code


def literal_mask(lit: Literal, table: Table, derived: dict) -> np.ndarray:
    """Rows where ``lit`` holds; ``derived`` maps exception names to finished masks."""
    if isinstance(lit, NotAtom):
        value = derived.get(lit.name)
        return np.ones(table.n_rows, dtype=bool) if value is None else ~value
    col = table[lit.feature]
    if isinstance(lit, Flag):
        holds = col.is_num & (col.num == 1.0)
        return holds if lit.positive else ~holds
    if isinstance(lit, Compare):
        if lit.op == "==":
            return equal_rows(col, lit.value)
        if lit.op == "!=":
            return ~equal_rows(col, lit.value)
        return col.is_num & _order(lit.op, col.num, lit.value)
    if isinstance(lit, NotCompare):
        return ~(col.is_num & _order(lit.op, col.num, lit.value))
    if isinstance(lit, Interval):
        mask = col.is_num.copy()
        if lit.lo is not None:
            mask &= _order(">=" if lit.lo_closed else ">", col.num, lit.lo)
        if lit.hi is not None:
            mask &= _order("<=" if lit.hi_closed else "<", col.num, lit.hi)
        return mask
    if isinstance(lit, InSet):
        mask = np.zeros(table.n_rows, dtype=bool)
        for v in lit.members:
            mask |= equal_rows(col, v)
        return mask
    raise TypeError(f"unknown literal {lit!r}")  # pragma: no cover


def _order_masks(literals, table: Table, full: np.ndarray) -> dict:
    """The packed rows of each order comparison among ``literals`` (``<``, ``<=``, ``>``,
    ``>=``, negated or not, and intervals): each feature's cuts in one
    :func:`aspml.kernels.bitset.cut_masks` call, the same rows as :func:`literal_mask`."""
    parts: dict = {}        # literal -> its cuts' (index among its feature's, other)
    cuts: dict = {}         # feature -> [(a, strict)]
    for lit in literals:
        if isinstance(lit, (Compare, NotCompare)) and lit.op in ORDER_OPS:
            bounds = [(lit.op, lit.value)]
        elif isinstance(lit, Interval):
            bounds = ([(">=" if lit.lo_closed else ">", lit.lo)] if lit.lo is not None else []) + \
                     ([("<=" if lit.hi_closed else "<", lit.hi)] if lit.hi is not None else [])
        else:
            continue
        mine = []
        at = cuts.setdefault(lit.feature, [])     # (an interval may have no bound)
        for op, value in bounds:
            a, strict, other = _cut(op, value)
            mine.append((len(at), other))
            at.append((a, strict))
        parts[lit] = mine
    sets, numbers = {}, {}
    for feature, at in cuts.items():
        col = table[feature]
        sets[feature] = cut_masks(np.ascontiguousarray(col.num, dtype=np.float64),
                                  np.ascontiguousarray(col.is_num, dtype=bool),
                                  np.array([a for a, _ in at], dtype=np.float64),
                                  np.array([s for _, s in at], dtype=bool))
        numbers[feature] = pack(col.is_num)
    out = {}
    for lit, mine in parts.items():
        mask, held = numbers[lit.feature].copy(), sets[lit.feature]
        for k, other in mine:
            mask &= ~held[k] if other else held[k]
        out[lit] = full & ~mask if isinstance(lit, NotCompare) else mask
    return out


def rule_masks(program: Program, table: Table, keep=None, visit=None):
    """``(masks by rule index, exception masks, target mask)``, strata first, so every
    exception is finished before a rule reads it.

    Masks are combined as packed bits (64 rows a word), so a rule of k literals
    costs k ANDs over n/64 words; each distinct literal is evaluated once.
    ``keep``: the rule indices whose (boolean) masks are returned (all when
    None), so a large program on a large table need not hold a mask per rule;
    ``visit(i, packed)`` sees every rule's packed mask (:func:`aspml.kernels.cover.unpack`
    reads it) as it is made.
    """
    masks, derived, target = _rule_words(program, table, keep, visit)
    n = table.n_rows
    rows = _unpacked(list(masks.values()), n)
    return (dict(zip(masks, rows)), {h: unpack(v, n) for h, v in derived.items()},
            unpack(target, n))


def _rule_words(program: Program, table: Table, keep=None, visit=None):
    """:func:`rule_masks`, every mask packed."""
    n = table.n_rows
    full = pack(np.ones(n, dtype=bool))
    derived: dict = {}                      # packed
    order = program.strata()
    by_head: dict = {}
    for i, r in enumerate(program.rules):
        by_head.setdefault(r.head, []).append(i)
    masks: dict = {}
    # a literal shared by many rules is evaluated once; the order comparisons first,
    # all of a feature's together
    seen: dict = _order_masks({lit for r in program.rules for lit in r.body}, table, full)
    for head in order + [None]:
        value = np.zeros_like(full)
        for i in by_head.get(head, ()):
            mask = full.copy()
            for lit in program.rules[i].body:
                if lit not in seen:
                    if isinstance(lit, NotAtom):
                        seen[lit] = full & ~derived[lit.name] if lit.name in derived else full
                    else:
                        seen[lit] = pack(literal_mask(lit, table, {}))
                mask &= seen[lit]
            if keep is None or i in keep:
                masks[i] = mask
            if visit is not None:
                visit(i, mask)
            value |= mask
        if head is not None:
            derived[head] = value
        else:
            target = value
    return masks, derived, target


def _unpacked(words: list, n: int) -> np.ndarray:
    """Packed masks as the rows of one boolean matrix (one call for all of them)."""
    if not words:
        return np.zeros((0, n), dtype=bool)
    stacked = np.stack(words).astype("<u8", copy=False)
    return np.unpackbits(stacked.view(np.uint8), axis=1, count=n, bitorder="little").view(bool)


def evaluate(program: Program, X, missing=None):
    """``(target, coverage, derived)``: the target mask, rows x rules matrix, exception masks."""
    program = as_program(program, "aspml.evaluate.evaluate")
    table = as_table(program, X, missing)
    masks, derived, target = _rule_words(program, table)
    n = table.n_rows
    cov = _unpacked([masks[i] for i in range(len(program.rules))], n)   # rows of a rule together
    return unpack(target, n), cov.T, {h: unpack(v, n) for h, v in derived.items()}


def predict(program: Program, X, missing=None) -> np.ndarray:
    """Boolean array: True where the program derives the target for the row.  For a
    multi-class program, each row's class (:func:`classify`)."""
    program = as_program(program, "aspml.evaluate.predict")
    table = as_table(program, X, missing)
    if program.is_multiclass:
        return classify(program, table)
    return rule_masks(program, table, keep=())[2]


def first_rules(program: Program, X, missing=None) -> np.ndarray:
    """Multi-class: for each row, the index among ``program.default_rules`` of the
    first default rule whose body holds (the rule that decides the row's class), or
    ``-1`` where none does."""
    table = as_table(program, X, missing)
    out = np.full(table.n_rows, -1, dtype=np.int64)

    def visit(k, packed):       # the default rules in order, after every exception
        out[unpack(packed, table.n_rows) & (out < 0)] = k
    visit_default_rules(program, table, visit)
    return out


def classify(program: Program, X, missing=None) -> np.ndarray:
    """Multi-class: an object array of each row's class, the label of the first default
    rule that holds, else the default class (``None`` when the program has none)."""
    program = as_program(program, "aspml.evaluate.classify")
    if not program.is_multiclass:
        raise AspmlError("classify reads a multi-class program; this one is binary "
                         "(use predict)")
    first = first_rules(program, X, missing)
    labels = np.array([r.label for r in program.default_rules] + [program.target.default],
                      dtype=object)
    return labels[first]        # -1 picks the default, the last entry


def default_indices(program: Program) -> list:
    """The indices in ``program.rules`` of its default rules, in order."""
    return [i for i, r in enumerate(program.rules) if r.head is None]


def first_of_coverage(program: Program, cov: np.ndarray) -> np.ndarray:
    """:func:`first_rules` from the program's rows x rules coverage ``cov`` (as
    :func:`coverage` gives it): each row's first default rule that fires, its index
    among the default rules, or -1."""
    from .kernels.cover import first_true
    cov = np.asarray(cov, dtype=bool)
    if cov.ndim != 2 or cov.shape[1] != len(program.rules):
        raise ValueError(f"coverage of shape {cov.shape}: the program has "
                         f"{len(program.rules)} rules (rows x rules, as coverage gives it)")
    idx = np.array(default_indices(program), dtype=np.int64)
    return first_true(np.ascontiguousarray(cov.T), idx)     # (evaluate's: no copy)


def visit_default_rules(program: Program, X, visit, missing=None) -> np.ndarray:
    """Call ``visit(k, packed)`` with the k-th default rule's mask as packed bits, one
    at a time (no rows x rules matrix); returns the target mask."""
    table = as_table(program, X, missing)
    number = {i: k for k, i in enumerate(default_indices(program))}
    return rule_masks(program, table, keep=(),
                      visit=lambda i, mask: visit(number[i], mask) if i in number else None)[2]


def coverage(program: Program, X, missing=None) -> np.ndarray:
    """Rows x rules boolean matrix: True where the rule's body holds (exceptions included)."""
    return evaluate(program, X, missing)[1]


def coverage_frame(program: Program, X, missing=None) -> pd.DataFrame:
    """:func:`coverage` with columns named by rule (``r1: label``, ``r2: ab1`` ...)."""
    program = as_program(program, "aspml.evaluate.coverage_frame")
    cov = coverage(program, X, missing)
    names = [f"r{i + 1}: {r.head or program.target.name}" for i, r in enumerate(program.rules)]
    return pd.DataFrame(cov, columns=names, index=getattr(X, "index", None))
