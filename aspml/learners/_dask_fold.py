"""FOLD on a Dask DataFrame: the data stays in its partitions, only counts travel.

``FoldSE(max_bins=...).fit(ddf, y)`` with ``ddf`` a Dask DataFrame and ``y`` a Dask
Series of the same partitions learns the program the in-memory fit with the same
``max_bins`` learns from the whole table (``ddf.compute()``), exactly when the rows are
unweighted or carry whole-number weights (fractional weights are summed partition by
partition, so their sums may differ in the last bits, and two equally good literals
may then tie differently: an equally good program, not the same one; the class
FOLD-RM's loop takes first and the tail bar do not move):

1. one pass summarises each column per partition: a column of a numeric dtype its
   count of numbers, decimals, largest magnitude and a sample evenly spaced in rank,
   whose values bracket the bins' edges; two more passes (counts at or below the
   sample's values, then the few numbers inside each bracket) give each edge exactly,
   the quantile :func:`fold._edge_groups` takes of the whole column, without gathering
   the column.  Any other column sends its distinct values (a row of each) and its
   numbers' counts: the schema (kind, categories, scale) is inferred from their union,
   as the whole column would give it;
2. each partition is encoded once on the workers (each row's bin and category code per
   feature, its class), and kept there;
3. FOLD's recursion runs in this process on row sets held in the partitions (:class:`_Rows`); every literal choice is one
   pass over the partitions counting the active rows per bin and category
   (:func:`aspml.kernels.histogram.count_partition`), the counts summed and searched here
   (:func:`aspml.kernels.histogram.best_from_counts`).  A step costs O(rows / workers)
   on the workers and O(bins x features) here.

Binary and multi-class programs (FOLD-RM's scheme, as in memory); no
``sample_weight``, fixed rules, background theory or ``trace`` on this path
(``class_weight`` is supported).  The training-figure view (``training_figures_``) is
not computed; the probabilities (``rule_precision_`` and ``default_precision_``, or
``rule_class_proba_``) are, from counts summed over the partitions.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd

from ..data.table import (Column, Table, _big_integers, _integers, encode_column, factorize,
                          looks_like_identifier, schema_and_table)
from ..errors import AspmlError, AspmlWarning
from ..kernels.histogram import best_from_counts, count_partition
from ..kernels.scale import min_decimals
from ..logic.values import INT32_MAX, MAX_DECIMALS
from ..logic.model import Feature, Schema
from ._base import class_counts, class_totals, continuous_labels, rule_hits
from .fold import EQ, GT, LE, NE, NOT_LE, _edge_groups, _Lit, _Search, _searchable, tail_bar

SAMPLE = 4096      # numbers a partition sends of each numeric column to place the bins


def _numbers_only(series: pd.Series, kind) -> bool:
    """A column of a numeric dtype read as numbers: its schema and bins need only its
    numbers' statistics, never its values."""
    dtype = series.dtype
    numbers = (pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)
               and kind in (None, "numeric", "mixed"))
    if numbers and kind is None:
        big = _big_integers(_integers(series))
        if big.size:        # in memory the column is categorical: a partition cannot tell
            raise AspmlError(f"column {series.name!r} holds whole numbers that float64 cannot "
                             f"hold ({big[0]}); give it a kind: kinds={{{series.name!r}: "
                             "'categorical'} keeps every digit (as a fit in memory reads "
                             "it), 'numeric' compares them as float64 numbers")
    return numbers


def _sorted_numbers(frame, name, kind, missing) -> np.ndarray:
    col = encode_column(frame[name], Feature(name, kind or "numeric"), missing)
    return np.sort(col.num[col.is_num])


def _summary(frame: pd.DataFrame, y: pd.Series, missing, kinds, max_bins):
    """One partition's summary of each column, the partition's labels' distinct values,
    its length and its labels' length, and whether a label is missing.

    A column of numbers (:func:`_numbers_only`): how many numbers, their decimals and
    largest magnitude (the clingo scale), whether a value is missing, up to
    ``max_bins + 1`` of its distinct numbers, and ``SAMPLE`` numbers evenly spaced in
    rank (the bins' first guesses).  Any other column: its distinct values (a row of
    each, dtype kept), and the numbers it holds read as a mixed column would read them
    (``missing`` tokens apart), with their row counts."""
    out = {}
    for name in frame.columns:
        s = frame[name]
        if _numbers_only(s, kinds.get(name)):
            col = encode_column(s, Feature(name, kinds.get(name) or "numeric"), missing)
            v = np.sort(col.num[col.is_num])
            few = np.unique(v)[:max_bins + 1]
            picks = np.unique(np.linspace(0, len(v) - 1, min(len(v), SAMPLE)).astype(np.int64))
            out[name] = ("numbers", len(v), int(min_decimals(v, MAX_DECIMALS)),
                         float(np.abs(v).max()) if len(v) else 0.0,
                         bool(col.missing.any()), few, v[picks])
            continue
        codes, _ = factorize(s.to_numpy(dtype=object))
        _, first = np.unique(codes, return_index=True)
        distinct = s.iloc[np.sort(first)]
        if pd.api.types.is_bool_dtype(s.dtype):
            numbers = (np.zeros(0), np.zeros(0, dtype=np.int64))
        else:
            # (the numbers a mixed column would hold: a read for the schema's sake, whose
            # notes, big whole numbers' float64 above all, are not the column's kind's; a
            # trial's kinds={"acct": "categorical"} got the advice to give that kind, once
            # a partition: the schema's own note says what the column is)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", AspmlWarning)
                col = encode_column(s, Feature(name, "mixed"), missing)
            numbers = np.unique(col.num[col.is_num], return_counts=True)
        out[name] = ("values", distinct, numbers)
    labels = np.asarray(y)
    no_label = bool(pd.isna(pd.Series(labels, dtype=object)).any())
    labels = np.unique(labels[~pd.isna(pd.Series(labels, dtype=object)).to_numpy()])
    return out, labels, len(frame), len(y), no_label


def _at_or_below(frame, wanted, missing):
    """Per column: how many of the partition's numbers lie at or below each threshold."""
    return {name: np.searchsorted(_sorted_numbers(frame, name, kind, missing), t, side="right")
            for name, (kind, t) in wanted.items()}


def _add_counts(a, b=None):
    return a if b is None else {name: a[name] + b[name] for name in a}


def _in_brackets(frame, wanted, missing):
    """Per column: the partition's numbers in each bracket ``(low, high]``."""
    out = {}
    for name, (kind, lows, highs) in wanted.items():
        v = _sorted_numbers(frame, name, kind, missing)
        a = np.searchsorted(v, lows, side="right")
        b = np.searchsorted(v, highs, side="right")
        out[name] = [v[i:j] for i, j in zip(a, b)]
    return out


def _numeric_edges(x_parts, summaries, columns, kinds, missing, max_bins):
    """The bins' edges of each numbers-only column, exactly those of :func:`fold._bin_view`
    on the whole column, without gathering its numbers: edge k is the number of rank
    ceil(k N / max_bins) (1-based; the inverted-CDF quantile); the ranks of the
    partitions' samples bracket each edge (one pass of counts), and the numbers inside the
    brackets (a few per partition) give it (a second pass).  A column of at most
    ``max_bins`` distinct numbers keeps them all."""
    import dask
    edges, wanted = {}, {}
    for name in columns:
        parts = [s[0][name] for s in summaries]
        total = sum(p[1] for p in parts)
        if not total:
            edges[name] = None
            continue
        if all(len(p[5]) <= max_bins for p in parts):
            few = np.unique(np.concatenate([p[5] for p in parts]))
            if len(few) <= max_bins:
                edges[name] = few
                continue
        wanted[name] = (kinds.get(name), np.unique(np.concatenate([p[6] for p in parts])))
    if not wanted:
        return edges
    shared = dask.delayed(wanted, traverse=False)      # one copy in the graph, not one a task
    counts = [dask.delayed(_at_or_below)(xp, shared, missing) for xp in x_parts]
    while len(counts) > 1:                  # summed in pairs on the workers: one comes here
        counts = [dask.delayed(_add_counts)(*counts[k:k + 2]) for k in range(0, len(counts), 2)]
    counts = counts[0].compute()
    brackets, plan = {}, {}
    for name, (kind, t) in wanted.items():
        below = counts[name]                                        # numbers <= t, all parts
        n = int(below[-1])                                          # t ends at the maximum
        rank = (np.arange(1, max_bins + 1, dtype=np.int64) * n + max_bins - 1) // max_bins
        j = np.searchsorted(below, rank, side="left")
        lows = np.where(j > 0, t[np.maximum(j - 1, 0)], -np.inf)
        before = np.where(j > 0, below[np.maximum(j - 1, 0)], 0)
        brackets[name] = (kind, lows, t[j])
        plan[name] = rank - before                                   # rank inside its bracket
    shared = dask.delayed(brackets, traverse=False)
    found = dask.compute(*[dask.delayed(_in_brackets)(xp, shared, missing) for xp in x_parts])
    for name, within in plan.items():
        values = [np.sort(np.concatenate([f[name][k] for f in found]))
                  for k in range(len(within))]
        edges[name] = np.unique([values[k][within[k] - 1] for k in range(len(within))])
    return edges


def _encode(frame: pd.DataFrame, y: pd.Series, features, categories, edges, classes, missing,
            class_weights):
    """One partition as arrays: bins, codes (int32[F, n]), each row's class (its index in
    ``classes``), the weights."""
    n = len(frame)
    bins = np.full((len(features), n), -1, dtype=np.int32)
    codes = np.full((len(features), n), -1, dtype=np.int32)
    for f, feature in enumerate(features):
        col = _searchable(encode_column(frame[feature.name], feature, missing))
        if col.is_num.any() and edges[f] is not None:
            bins[f, col.is_num] = np.searchsorted(edges[f], col.num[col.is_num], side="left")
        if col.categories:
            index = {c: k for k, c in enumerate(categories[f])}
            local = np.array([index[c] for c in col.categories], dtype=np.int32)
            has = col.code >= 0
            codes[f, has] = local[col.code[has]]
    y_idx = np.searchsorted(classes, np.asarray(y))
    weights = None if class_weights is None else class_weights[y_idx]
    return bins, codes, y_idx, weights


class _Rows:
    """A set of training rows held where the rows are: one boolean array per partition,
    persisted (computed on the workers, or here with dask's local scheduler).  ``&``,
    ``|`` and ``~`` give new sets partition by partition; ``any`` and ``sum`` count
    (the only numbers that come back).  Immutable: ``copy`` returns the set itself."""

    def __init__(self, search, parts):
        self.search = search
        self.parts = parts
        self._count = None          # the number of rows, once asked (the set never changes)
        self._weight = None

    def _map(self, fn, *others):
        import dask
        tasks = [dask.delayed(fn)(*args) for args in zip(self.parts, *(o.parts for o in others))]
        return _Rows(self.search, list(dask.persist(*tasks)))

    def __and__(self, other):
        return self._map(np.logical_and, other)

    def __or__(self, other):
        return self._map(np.logical_or, other)

    def __invert__(self):
        return self._map(np.logical_not)

    def copy(self):
        return self

    def sum(self) -> int:
        if self._count is None:
            import dask
            if self.search.weighted:        # the weight comes along, in the same pass
                both = dask.compute(*[dask.delayed(_count_and_weight)(part, p)
                                      for part, p in zip(self.search.parts, self.parts)])
                self._count = int(sum(c for c, _ in both))
                self._weight = float(sum(w for _, w in both))
            else:
                self._count = int(sum(dask.compute(*[dask.delayed(np.count_nonzero)(p)
                                                     for p in self.parts])))
        return self._count

    def any(self) -> bool:
        return self.sum() > 0

    def __bool__(self):
        raise TypeError("a set of rows held in partitions: ask .any()")


class _DaskSearch(_Search):
    """FOLD's search over encoded partitions: row sets are :class:`_Rows`; a literal
    choice sums the partitions' counts."""

    def __init__(self, parts, lengths, meta, names, edges, categories, heuristic, negated,
                 ratio, min_tp, min_rule, max_depth, weighted=False):
        self.names = names
        self.trace = None
        self.heuristic = heuristic
        self.negated = negated
        self.ratio = ratio
        self.min_tp = min_tp
        self.min_rule = min_rule
        self.max_depth = max_depth
        self.majority = False
        self.cols = [meta[n] for n in names]
        self.n = int(sum(lengths))
        self.view = None
        self.parts = parts                   # persisted delayed (bins, codes, target, weights)
        self.weighted = weighted
        self.least = 1.0            # one row's least weight (set by the fit when weighted)
        self.weights = True if weighted else None      # the weights live in the parts
        self.edges = edges
        n_f = len(names)
        self.bin_offsets = np.zeros(n_f + 1, dtype=np.int64)
        self.code_offsets = np.zeros(n_f + 1, dtype=np.int64)
        for f in range(n_f):
            self.bin_offsets[f + 1] = self.bin_offsets[f] + (0 if edges[f] is None else len(edges[f]))
            self.code_offsets[f + 1] = self.code_offsets[f] + len(categories[f])
        self.flat_edges = (np.concatenate([e for e in edges if e is not None])
                           if any(e is not None for e in edges) else np.zeros(0))
        self.masks = {}                     # literal -> its rows (the last 64 asked)

    def _rows(self, fn, *args):
        import dask
        return _Rows(self, list(dask.persist(*[dask.delayed(fn)(p, *args) for p in self.parts])))

    def of_class(self, y_idx, c: int) -> _Rows:
        return self._rows(_class_rows, c)

    def ones(self) -> _Rows:
        return self._rows(_all_rows)

    def zeros(self) -> _Rows:
        return self._rows(_no_rows)

    def class_totals(self, y_idx, rows, n_classes: int, unweighted: bool = False) -> np.ndarray:
        """Each class's rows (their weight when weighted, unless ``unweighted``) among
        ``rows`` (None: all)."""
        import dask
        rows = self.ones() if rows is None else rows
        return np.sum(dask.compute(*[dask.delayed(_class_totals)(p, m, n_classes, unweighted)
                                     for p, m in zip(self.parts, rows.parts)]), axis=0)

    def mask(self, lit: _Lit) -> _Rows:
        k = (int(lit.value) if lit.op in (EQ, NE)
             else int(np.searchsorted(self.edges[lit.feature], lit.value)))
        key = (lit.feature, lit.op, k)
        if key not in self.masks:           # a rule's literals are asked again for its mask
            if len(self.masks) >= 64:
                self.masks.pop(next(iter(self.masks)))
            self.masks[key] = self._rows(_literal_rows, *key)
        return self.masks[key]

    def rule_mask(self, rule) -> _Rows:
        m = self.ones()
        for lit in rule.literals:
            m = m & self.mask(lit)
        for exc in rule.exceptions:
            m = m & ~self.rule_mask(exc)
        return m

    def narrow(self, view, active):
        return None

    def total(self, rows: _Rows):
        count = rows.sum()
        return count if self.weights is None else rows._weight

    def enough(self, rows: _Rows) -> bool:
        return rows.any() and self.total(rows) >= self.min_rule

    def best_literal(self, pos: _Rows, neg: _Rows, used, view, min_tp=None):
        import dask
        offsets = (self.bin_offsets, self.code_offsets)
        parts = [dask.delayed(_count)(p, a, b, self.weighted, *offsets)
                 for p, a, b in zip(self.parts, pos.parts, neg.parts)]
        counts = dask.delayed(_sum)(parts).compute()
        b_feat = np.array([u.feature for u in used], dtype=np.int64)
        b_ops = np.array([u.op for u in used], dtype=np.int64)
        b_vals = np.array([u.value for u in used], dtype=np.float64)
        score, f, op, value = best_from_counts(counts, self.flat_edges, self.bin_offsets,
                                               self.code_offsets, self.heuristic,
                                               self.negated,
                                               float(self.min_tp if min_tp is None else min_tp),
                                               b_feat,
                                               b_ops, b_vals, self.weighted)
        if score == -np.inf:
            return None, score
        return _Lit(int(f), int(op), float(value)), float(score)


def _class_rows(part, c):
    return part[2] == c


def _all_rows(part):
    return np.ones(len(part[2]), dtype=bool)


def _no_rows(part):
    return np.zeros(len(part[2]), dtype=bool)


def _class_totals(part, rows, n_classes, unweighted=False):
    return class_totals(part[2], rows, None if unweighted else part[3], n_classes)


def _literal_rows(part, f, op, k):
    """Where the literal holds in this partition: ``k`` is the category code, or the bin
    of the threshold (an edge: ``x <= edge k`` exactly where x's bin is at most k)."""
    bins, codes = part[0], part[1]
    if op in (EQ, NE):
        hit = codes[f] == k
        return hit if op == EQ else ~hit
    b = bins[f]
    hit = (b >= 0) & (b <= k) if op in (LE, NOT_LE) else b > k
    return hit if op in (LE, GT) else ~hit


def _count_and_weight(part, rows):
    return int(np.count_nonzero(rows)), float(part[3][rows].sum())


def _count(part, pos, neg, weighted, bin_offsets, code_offsets):
    bins, codes, _, weights = part
    state = pos.view(np.int8) + 2 * neg.view(np.int8)
    return count_partition(bins, codes, state, weights if weighted else None, bin_offsets,
                           code_offsets)


def _sum(counts):
    return np.sum(counts, axis=0)


def _index(frame):
    return frame.index


def _y_split_as(x_parts, y) -> list:
    """``y`` (a Dask Series) read into memory and cut into pieces as X's partitions
    (``x_parts``) are, in order: delayed pandas Series.  Only when its index, row by row,
    is X's: a y of X's rows in another order (``ddf.sort_values(...)["y"]``) is refused, as
    it was before y could be cut (a review), while the label column dask reads in other
    partitions than the rest of one frame has X's index.  X's index, one pass over its
    partitions, gives their lengths too."""
    import dask
    indexes = dask.compute(*[dask.delayed(_index)(xp) for xp in x_parts])
    lengths = [len(i) for i in indexes]
    values = y.compute()
    if len(values) != sum(lengths):
        raise ValueError(f"X has {sum(lengths)} rows but y has {len(values)}: a label for "
                         "each row, in the rows' order (take both from one Dask DataFrame)")
    if not indexes[0].append(list(indexes[1:])).equals(values.index):
        raise ValueError("X and y are split into other partitions and their index differs "
                         "row by row: y's labels are not X's rows' in order (take both from "
                         "one Dask DataFrame, with no sort or filter of one alone)")
    ends = np.cumsum([0, *lengths]).tolist()
    return [dask.delayed(values.iloc[a:b]) for a, b in itertools.pairwise(ends)]


def fit(learner, X, y, sample_weight=None):
    """``learner.fit(X, y)`` for a Dask DataFrame ``X`` (see the module)."""
    import dask
    import dask.dataframe as dd
    from sklearn.utils.multiclass import type_of_target
    from .fold import _check_max_bins
    _check_max_bins(learner.max_bins)
    if not isinstance(y, dd.Series):
        raise TypeError("with a Dask DataFrame X, y must be a Dask Series of the same "
                        f"partitions (e.g. ddf[label]), got {type(y).__name__}")
    for what, given in (("sample_weight", sample_weight),
                        ("fixed_rules", getattr(learner, "_fixed", None)),
                        ("background", getattr(learner, "background", None))):
        if given is not None:
            raise ValueError(f"{what} is not supported when fitting on a Dask DataFrame")
    names = [str(c) for c in X.columns]
    if list(X.columns) != names:
        raise AspmlError("column names must be strings")
    learner._resolve_target(X, y)
    learner._clear_target_of(names)
    unknown = [k for k in (getattr(learner, "kinds", None) or {}) if k not in names]
    if unknown:
        raise AspmlError(f"kinds given for unknown column(s) {unknown}")
    missing = learner._missing()
    kinds = dict(getattr(learner, "kinds", None) or {})
    x_parts, y_parts = X.to_delayed(), y.to_delayed()
    if len(x_parts) != len(y_parts):        # (npartitions may say 8 for both, and differ)
        y_parts = _y_split_as(x_parts, y)

    def summarize():
        return dask.compute(*[dask.delayed(_summary)(xp, yp, missing, kinds, learner.max_bins)
                              for xp, yp in zip(x_parts, y_parts)])
    summaries = summarize()
    if any(s[2] != s[3] for s in summaries):
        # one frame's columns read apart may be split apart: dd.read_parquet merges the row
        # groups of a one-column read (a trial: X's partitions of 25,000 rows, y's of 50,000,
        # both from one frame); y, one column, is read into memory and cut as X is, row by
        # row in order, as a pandas y is read by position
        y_parts = _y_split_as(x_parts, y)
        summaries = summarize()
    lengths = [s[2] for s in summaries]
    if any(s[4] for s in summaries):
        raise ValueError("y holds missing labels: every training row needs a label")
    classes = np.unique(np.concatenate([s[1] for s in summaries]))
    kind = type_of_target(classes)
    if kind in ("continuous", "continuous-multioutput"):
        raise continuous_labels(kind, learner)
    if len(classes) < 2:
        raise ValueError(f"y has only one class ({np.asarray(classes).tolist()[0]!r}); a classifier needs "
                         "examples of two classes")
    positive = getattr(learner, "positive", None)
    multiclass = len(classes) > 2
    if multiclass and positive is not None:
        raise ValueError(f"positive={positive!r} learns a binary program, but y has "
                         f"{len(classes)} classes; fit on y == {positive!r} to learn that "
                         "class against the others, or leave positive out to learn one "
                         "multi-class program")
    if multiclass:
        positive_index = None
    elif positive is None:
        positive_index = 1
    else:
        matches = np.flatnonzero(classes == positive)
        if len(matches) == 0:
            raise ValueError(f"positive={positive!r} is not one of the classes {np.asarray(classes).tolist()}")
        positive_index = int(matches[0])
    # the schema as the whole column gives it: from the union of the distinct values, or,
    # for a column of numbers, from their statistics
    numbers = [n for n in names if summaries[0][0][n][0] == "numbers"]
    mixed = [n for n in names if len({s[0][n][0] for s in summaries}) > 1]
    if mixed:
        raise AspmlError(f"column {mixed[0]!r} holds numbers in some partitions and other "
                         "values in others (its dtype differs between partitions); give it "
                         "one dtype, or a kind (kinds=)")
    numeric_edges = _numeric_edges(x_parts, summaries, numbers, kinds, missing,
                                   learner.max_bins)
    features, meta, edges, categories = [], {}, [], []
    for col_name in names:
        if col_name in numeric_edges:
            parts = [s[0][col_name] for s in summaries]
            d = max(p[2] for p in parts)
            largest = max(p[3] for p in parts)
            scale = (None if d > MAX_DECIMALS or largest * 10**d > INT32_MAX else 10**d)
            feature = Feature(col_name, kinds.get(col_name) or "numeric", scale)
            features.append(feature)
            meta[col_name] = Column(col_name, feature.kind, np.zeros(0), np.zeros(0, bool),
                                    np.zeros(0, np.int32), (),
                                    np.array([any(p[4] for p in parts)]))
            categories.append(())
            edges.append(numeric_edges[col_name])
            continue
        distinct = pd.concat([s[0][col_name][1] for s in summaries], ignore_index=True)
        given = {col_name: kinds[col_name]} if col_name in kinds else None
        schema, table = schema_and_table(pd.DataFrame({col_name: distinct}), given, missing)
        feature = schema.features[0]
        col = _searchable(table[col_name])
        features.append(feature)
        meta[col_name] = Column(col_name, feature.kind, np.zeros(0), np.zeros(0, bool),
                                np.zeros(0, np.int32), table[col_name].categories,
                                np.array([bool(table[col_name].missing.any())]))
        categories.append(col.categories)
        if feature.kind in ("numeric", "mixed"):
            values = np.concatenate([s[0][col_name][2][0] for s in summaries])
            counts = np.concatenate([s[0][col_name][2][1] for s in summaries])
            d, inverse = np.unique(values, return_inverse=True)
            c = np.bincount(inverse, weights=counts).astype(np.int64)
            edges.append(d if len(d) <= learner.max_bins else d[_edge_groups(c, learner.max_bins)])
            if not len(d):
                edges[-1] = None
        else:
            edges.append(None)
    learner.classes_ = classes
    learner._warn_missing_word_labels(stacklevel=4)
    learner.multiclass_ = multiclass
    learner.positive_index_ = positive_index
    learner.schema_ = Schema(tuple(features))
    learner.feature_names_in_ = np.asarray(names, dtype=object)
    learner.n_features_in_ = len(names)
    learner.background_ = ()
    class_weights = None
    if getattr(learner, "class_weight", None) is not None:
        per_class = pd.concat(dask.compute(*[dask.delayed(_label_counts)(yp) for yp in y_parts]))
        per_class = per_class.groupby(level=0).sum().reindex(classes).to_numpy(dtype=np.int64)
        class_weights = _class_weights(learner, classes, per_class)
        if not (class_weights > 0).all():
            raise ValueError(f"class_weight gives class {np.asarray(classes).tolist()[int(np.argmin(class_weights))]!r} "
                             "weight 0: on a Dask DataFrame, leave its rows out of the data "
                             "instead")
    parts = [dask.delayed(_encode)(xp, yp, features, categories, edges, classes, missing,
                                   class_weights)
             for xp, yp in zip(x_parts, y_parts)]
    parts = list(dask.persist(*parts))
    heuristic, negated, tail = learner._settings()
    total_weight = float(sum(lengths)) if class_weights is None else None
    search = _DaskSearch(parts, lengths, meta, names, edges, categories, heuristic, negated,
                         float(learner.ratio), 0, 0, learner.max_depth,
                         weighted=class_weights is not None)
    if total_weight is None:
        total_weight = search.total(search.ones())
        search.least = float(class_weights.min())
    meta_table = Table(learner.schema_, meta, search.n)
    if multiclass:          # FOLD-RM's loop as in memory, its tail shared by K - 1 classes
        search.min_rule = tail_bar(tail, total_weight, len(classes) - 1, search.weighted)
        learner.program_ = learner._learn_multiclass(meta_table, None, search)
        counts = dask.compute(*[dask.delayed(_class_counts)(learner.program_, xp, yp, classes,
                                                            class_weights, missing)
                                for xp, yp in zip(x_parts, y_parts)])
        learner._set_class_probabilities(np.sum(counts, axis=0))
    else:
        search.min_rule = tail_bar(tail, total_weight, 1, search.weighted)
        target = search.of_class(None, positive_index)
        learned = search.learn_rule_set(target, ~target, [], 0)
        if not learned:
            learner._warn_no_rules(search, target, stacklevel=4)
        learner.program_ = learner._program(learned, meta_table, names)
        _precisions(learner, x_parts, y_parts, classes, positive_index, class_weights)
    learner.expert_report_ = []
    learner.training_figures_ = None
    _warn_identifiers(learner, X, missing)
    learner._warn_large(stacklevel=4)
    learner._warn_long_chains(meta_table, stacklevel=4)
    learner._warn_default_decides(stacklevel=4)
    return learner


# a column whose approximate count of distinct values (HyperLogLog, about 0.4% standard
# error) is at least this share of its rows with a value counts as all distinct
DISTINCT_SHARE = 0.98


def _warn_identifiers(learner, X, missing) -> None:
    """The in-memory fit's note on a rule that uses an identifier-like column
    (:func:`aspml.data.table.looks_like_identifier`: at least ``ID_MIN_ROWS`` rows with a
    value, whole numbers, no value twice), from one pass over the columns the rules use:
    each partition's rows with a value and whether they are whole and distinct there,
    then the column's distinct values counted approximately (a column of ids is as
    large as the table: it is not gathered)."""
    import dask
    from ..data.table import ID_MIN_ROWS
    from ._base import warn_identifier
    used = [n for n in learner.program_.features_used if n in learner.schema_.names
            and learner.schema_[n].kind != "boolean"]
    if not used:
        return
    stats = dask.compute(*[dask.delayed(_id_stats)(xp, [learner.schema_[n] for n in used],
                                                   missing)
                           for xp in X.to_delayed()])
    for k, name in enumerate(used):
        n = sum(s[k][0] for s in stats)
        if n < ID_MIN_ROWS or not all(s[k][1] for s in stats):
            continue
        distinct = X[name].map_partitions(_id_values, learner.schema_[name], missing,
                                          meta=(name, "object")).nunique_approx().compute()
        if distinct >= DISTINCT_SHARE * n:
            warn_identifier(name, n, stacklevel=5)


def _id_values(s: pd.Series, feature, missing) -> pd.Series:
    """The column's values as the fit reads them (numbers as numbers, categories as
    their text), the rows without one left out."""
    col = encode_column(s, feature, missing)
    cats = np.asarray(col.categories, dtype=object)
    out = np.where(col.is_num, col.num.astype(object),
                   cats[np.maximum(col.code, 0)] if len(cats) else None)
    return pd.Series(out[~col.missing], dtype=object)


def _id_stats(frame: pd.DataFrame, features, missing) -> list:
    """Per feature: (rows with a value, whether they could be part of an id column: whole
    numbers, no value twice in this partition)."""
    out = []
    for feature in features:
        col = encode_column(frame[feature.name], feature, missing)
        out.append((int((~col.missing).sum()), looks_like_identifier(col, min_rows=0)))
    return out


def _class_counts(program, frame, y, classes, class_weights, missing):
    y_idx = np.searchsorted(classes, np.asarray(y))
    weight = None if class_weights is None else class_weights[y_idx]
    return class_counts(program, frame, y_idx, len(classes), weight, missing)


def _label_counts(y) -> pd.Series:
    return pd.Series(np.asarray(y)).value_counts()


def _class_weights(learner, classes, per_class) -> np.ndarray:
    """Each class's weight, as :meth:`LogicClassifier._row_weights` gives its rows (checked
    there, on one row of each class; "balanced" from the classes' counts, in the very
    expression scikit-learn uses)."""
    one_each = learner._row_weights(classes, np.arange(len(classes)), None)
    if isinstance(learner.class_weight, str):          # "balanced"
        return sum(per_class) / (len(classes) * per_class.astype(np.float64))
    return one_each


def _rule_hits(program, frame, y, classes, positive_index, class_weights, missing):
    y_idx = np.searchsorted(classes, np.asarray(y))
    weight = None if class_weights is None else class_weights[y_idx]
    return rule_hits(program, frame, y_idx == positive_index, weight, missing)


def _precisions(learner, x_parts, y_parts, classes, positive_index, class_weights) -> None:
    """``rule_precision_`` and ``default_precision_`` as the in-memory fit computes them,
    from counts summed over the partitions."""
    import dask
    hits = dask.compute(*[dask.delayed(_rule_hits)(learner.program_, xp, yp, classes,
                                                   positive_index, class_weights,
                                                   learner._missing())
                          for xp, yp in zip(x_parts, y_parts)])
    learner._set_precisions(np.sum(hits, axis=0))
