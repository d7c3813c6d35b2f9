"""FOLD-SE and FOLD-R++: default rules with exceptions, learned top-down.

From ``shared/papers/fold-se.txt`` (and FOLD-R++, which it extends):

* learn one rule at a time; specialise it by the best literal until its false
  positives are at most ``ratio`` times its true positives (or no literal is
  valid); if false positives remain, learn the rule's *exceptions* by swapping
  positives and negatives and recursing; the positives a finished rule covers
  leave the set, the negatives stay;
* FOLD-R++ ranks literals by information gain; FOLD-SE by Magic Gini
  Impurity (``aspml.kernels.literals.heuristic``), considers the negated
  comparisons ``not (x <= v)`` / ``not (x > v)`` of its mixed-type regime,
  and prunes the long tail: a rule or exception must cover at least
  ``tail`` x (training rows) examples.

The search runs in numba kernels over arrays sorted once per feature
(``aspml.kernels.literals``).  The loop around it (rules, exceptions, FOLD-RM's
list) runs in numba too (``aspml.kernels.fold_loop``), over lists of the active
rows; the Python loop here, over numpy masks, gives the same rules and runs traced
fits (the command's progress bar), expert rules and the Dask search.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field, replace
from functools import partial

import numba
import numpy as np

from ..kernels import fold_loop
from ..kernels.fold_loop import fewer, more
from ..kernels.literals import (EQ, GT, IG, LE, MGI, NE, NO_GROUPS, NOT_GT, NOT_LE,
                               best_literal, best_literal_parallel, build_view,
                               build_view_serial, filter_sorted, filter_sorted_parallel,
                               _logs, row_groups_of)
from ..data.table import Column
from ..errors import AspmlWarning
from ..evaluate import rule_masks
from ..logic.model import Compare, Flag, NotAtom, NotCompare, Program, Rule, Schema, Target
from ..logic.printers import text_value
from ..logic.values import as_label, is_number, normalize_value
from . import expert
from ._base import (LogicClassifier, balanced_hint, class_totals, floor2, is_real,
                    largest_class)
from ._threads import free_threads

# Each kernel's parallel form (numba prange over the features) runs from this many cells
# (rows x features) of its view on: measured on the project's 2-core machine with
# benchmarks/parallel.py (docs Large tables), the parallel form was as fast or faster at
# every size from there, and below it the thread pool cost more than it saved (a tiny
# table, like a first fit of a few rows, then never starts the pool).  One thread
# (NUMBA_NUM_THREADS=1): always the serial form.
PARALLEL_CELLS = {"best_literal": 1_000, "build_view": 2_000, "filter_sorted": 20_000}


_NO_ROWS = np.zeros(0, dtype=np.int64)


# the literal masks a search keeps (each one byte a row), so that a rule's mask, made
# again as its rule set grows and its exceptions are learned, costs no new comparisons
MASK_CACHE_BYTES = 64 << 20


def _parallel(kernel: str, rows: int, features: int, threads: int) -> bool:
    """Whether ``kernel`` takes its parallel form on a view of this size, with
    ``threads`` threads (see :func:`free_threads`)."""
    return rows * features >= PARALLEL_CELLS[kernel] and threads > 1


def _kernel(name: str, serial, parallel, rows: int, features: int, threads: int):
    """The form of kernel ``name`` to call on a view of this size: ``parallel`` on
    ``threads`` threads (:func:`_parallel`), else ``serial``."""
    if _parallel(name, rows, features, threads):
        return partial(_in_threads, threads, parallel)
    return serial


def _in_threads(threads: int, kernel, *args):
    """Run a parallel kernel on at most ``threads`` of numba's threads."""
    before = numba.get_num_threads()
    if threads >= before:
        return kernel(*args)
    numba.set_num_threads(threads)          # this thread's setting: restored below
    try:
        return kernel(*args)
    finally:
        numba.set_num_threads(before)


_OPS = {LE: "<=", GT: ">", NOT_LE: "<=", NOT_GT: ">", EQ: "==", NE: "!="}


@dataclass(frozen=True)
class _Lit:
    feature: int
    op: int
    value: float          # the threshold, or the category code


@dataclass
class _Rule:
    literals: list
    exceptions: list = field(default_factory=list)


@dataclass
class _Fixed:
    """An expert's default rule (an aspml Rule, kept as written) and the exceptions
    (``_Rule``) the data made the learner add to it."""

    rule: Rule
    exceptions: list = field(default_factory=list)


class _Search:
    """The FOLD recursion over one encoded training table."""

    # the rows (or weight) an exception must cover for each of its literals (0: no bar;
    # set by _learn_multiclass, with a tail; a class attribute: the Dask search too)
    lit_rows = 0.0
    # a decision list's rule budget (-1: none), the share of the undecided rows a rule
    # must cover, spread over the rules left, and whether the list is held to it or
    # only watched (``over`` then says whether it passed it; set by _learn_multiclass)
    budget = -1.0
    budget_share = 0.0
    hold = False
    over = False

    def __init__(self, table, names, heuristic: int, negated: bool, ratio: float,
                 min_tp: int, min_rule: int, max_depth: int | None, trace=None,
                 weights: np.ndarray | None = None, max_bins: int | None = None) -> None:
        self.names = names
        self._masks: dict = {}        # _Lit -> its rows (see mask)
        self._mask_bytes = 0
        # each row's weight (float64, all > 0) or None: every row counts once, in integers
        self.weights = None if weights is None else np.ascontiguousarray(weights, dtype=float)
        self.trace = trace            # None, or a callable that receives one dict per step
        self.heuristic = heuristic
        self.negated = negated
        self.ratio = ratio
        self.min_tp = min_tp          # fewest positives a literal may cover
        self.min_rule = min_rule      # the rows (or weight) a rule or exception must cover
        # one row's least count: a total of at least this means at least one row
        self.least = 1.0 if weights is None or not len(weights) else float(np.min(weights))
        self.max_depth = max_depth
        # refuse a rule (or exception) wrong on more of the rows it covers than it is right
        self.majority = False
        # why the first default rule was refused: (positives, negatives it covered), or
        # None when no literal was found at all (what a "learned no rules" warning says)
        self.refused: tuple | None = None
        self.cols = [_searchable(table[n]) for n in names]
        self.n = table.n_rows
        # each feature's numbers sorted once; (groups, rows, offsets, rows cut for): see _narrow
        n_f = len(self.cols)
        num = np.empty((n_f, self.n)) if n_f else np.zeros((0, self.n))
        is_num = np.empty((n_f, self.n), dtype=bool)
        for j, col in enumerate(self.cols):
            num[j] = col.num
            is_num[j] = col.is_num
        self._num, self._is_num = num, is_num          # (read by the numba loop)
        scales = np.array([_sort_scale(table.schema[n].scale, c) for n, c in zip(names, self.cols)])
        # the parallel kernels on the cores other processes leave free (free_threads; not
        # asked when no kernel could take its parallel form)
        self.threads = numba.get_num_threads()
        if any(_parallel(kernel, self.n, n_f, self.threads) for kernel in PARALLEL_CELLS):
            self.threads = free_threads(self.threads)
        view = _kernel("build_view", build_view_serial, build_view, self.n, n_f, self.threads)
        groups, rows, offsets, distinct, distinct_offsets = view(num, is_num, scales)
        if max_bins is not None:
            groups, distinct, distinct_offsets = _bin_view(groups, offsets, distinct,
                                                           distinct_offsets, max_bins)
        self.distinct, self.distinct_offsets = distinct, distinct_offsets
        self.view = (groups, rows, offsets, self.n)
        # unweighted, a feature with fewer value groups than active rows is counted by group
        # (literals.best_literal's row_groups: the same literal)
        # (4 bytes a cell; none when weighted, or when no feature holds a number)
        self.row_groups = (row_groups_of(groups, rows, offsets, self.n)
                           if self.weights is None and len(rows) else NO_GROUPS)
        self.any_category = any_category = any(c.categories for c in self.cols)
        self.codes = (np.stack([c.code for c in self.cols]) if any_category
                      else np.zeros((n_f, 0), dtype=np.int32))
        self.n_codes = np.array([len(c.categories) for c in self.cols], dtype=np.int64)

    # -- the numba loop -------------------------------------------------
    # "numba": fits without a trace run FOLD's loop in aspml.kernels.fold_loop, which
    # gives the rules the Python loop below gives (tests/test_fold_loop.py); "python":
    # always the Python loop (the tests' slow version; traced fits and the Dask search
    # take it whatever this says)
    loop = "numba"

    def fast(self) -> bool:
        """Whether this search runs FOLD's loop in numba (:mod:`aspml.kernels.fold_loop`)."""
        return self.loop == "numba" and self.trace is None and type(self) is _Search

    def _loop_args(self):
        cfg = np.array([self.ratio, self.min_tp, self.min_rule,
                        -1.0 if self.max_depth is None else float(self.max_depth),
                        float(self.majority), float(self.heuristic), float(self.negated),
                        float(self.any_category), float(self.threads),
                        PARALLEL_CELLS["best_literal"], PARALLEL_CELLS["filter_sorted"],
                        getattr(self, "min_kept", self.min_rule), self.lit_rows,
                        float(self.budget), float(self.budget_share), float(self.hold)])
        # log2 of 0 .. n once a fit, for information gain of whole counts (each search
        # read it, where it computed its own)
        logs = _logs(float(self.n), 0.0, self.heuristic, self.weights is not None)
        data = (self.distinct, self.distinct_offsets, self.codes, self.n_codes, self._num,
                self._is_num, self.weights, self.row_groups, logs)
        return self.view, data, cfg

    def _rules(self, rules, lits, values, ids) -> list:
        """The ``_Rule`` trees of the store's rules ``ids`` (:mod:`aspml.kernels.fold_loop`)."""
        features, ops, vals = lits[0].tolist(), lits[1].tolist(), values.tolist()
        lo, hi, _, end = rules.tolist()     # (Python numbers: an array's item costs more)

        def rule(i):
            literals = [_Lit(features[k], ops[k], vals[k]) for k in range(lo[i], hi[i])]
            exceptions, c = [], i + 1
            while c < end[i]:
                exceptions.append(rule(c))
                c = end[c]
            return _Rule(literals, exceptions)
        return [rule(int(i)) for i in ids]

    def fast_rule_set(self, pos: np.ndarray, neg: np.ndarray) -> list:
        """``learn_rule_set(pos, neg, [], 0)`` in numba (same rules, same ``refused``)."""
        view, data, cfg = self._loop_args()
        rules, lits, values, refused = _in_threads(
            self.threads, fold_loop.rule_set, view, data, np.flatnonzero(pos),
            np.flatnonzero(neg), cfg)
        if refused[0] == 0:
            self.refused = None
        elif refused[0] == 1:
            if self.weights is None:
                self.refused = (int(refused[1]), int(refused[2]))
            else:
                self.refused = (float(refused[1]), float(refused[2]))
        tops = np.flatnonzero(rules[2] == -1)
        return self._rules(rules, lits, values, tops)

    def fast_multiclass(self, y_idx: np.ndarray, k: int):
        """FOLD-RM's loop (``FoldSE._multiclass_loop``) in numba: (rules, their classes,
        the rows some rule covers)."""
        view, data, cfg = self._loop_args()
        rules, lits, values, tops, classes, decided, self.settled, self.over = _in_threads(
            self.threads, fold_loop.multiclass, view, data, np.ascontiguousarray(y_idx,
                                                                                dtype=np.int64),
            k, cfg)
        return (self._rules(rules, lits, values, tops), [int(c) for c in classes],
                decided.view(bool))

    # -- literals -------------------------------------------------------
    def mask(self, lit: _Lit) -> np.ndarray:
        """The rows where the literal holds (read-only: one array per literal is kept,
        up to ``MASK_CACHE_BYTES``, as rules and their exceptions read them again)."""
        hit = self._masks.get(lit)
        if hit is None:
            hit = self._mask(lit)
            hit.flags.writeable = False
            if self._mask_bytes + hit.nbytes <= MASK_CACHE_BYTES:
                self._masks[lit] = hit
                self._mask_bytes += hit.nbytes
        return hit

    def _mask(self, lit: _Lit) -> np.ndarray:
        col = self.cols[lit.feature]
        if lit.op in (EQ, NE):
            hit = col.code == int(lit.value)
            return hit if lit.op == EQ else ~hit
        with np.errstate(invalid="ignore"):
            if lit.op in (LE, NOT_LE):
                hit = col.is_num & (col.num <= lit.value)
            else:
                hit = col.is_num & (col.num > lit.value)
        return hit if lit.op in (LE, GT) else ~hit

    def best_literal(self, pos: np.ndarray, neg: np.ndarray, used: list, view, min_tp=None):
        """The best valid literal over all features for these active examples, and its score.

        ``(None, -inf)`` when no literal is valid.

        ``view`` holds each feature's sorted numbers restricted to (a superset
        of) the active rows, so the scan costs O(active rows).
        """
        state = pos.view(np.int8) + 2 * neg.view(np.int8)
        # (read for the categories' counts and the counts by value group)
        active_rows = (np.flatnonzero(state) if self.any_category or self.row_groups.size
                       else _NO_ROWS)
        b_feat = np.array([u.feature for u in used], dtype=np.int64)
        b_ops = np.array([u.op for u in used], dtype=np.int64)
        b_vals = np.array([u.value for u in used], dtype=np.float64)
        parallel = partial(best_literal_parallel, threads=self.threads)
        search = _kernel("best_literal", best_literal, parallel, view[3], len(self.cols),
                         self.threads)
        score, f, op, value = search(*view[:3], self.distinct, self.distinct_offsets,
                                     self.codes, self.n_codes, state, active_rows,
                                     self.weights, float(self.total(pos)),
                                     float(self.total(neg)), np.count_nonzero(neg), self.heuristic,
                                     self.negated, float(self.min_tp if min_tp is None else min_tp),
                                     b_feat, b_ops, b_vals,
                                     view[3], self.row_groups)
        if score == -np.inf:
            return None, score
        return _Lit(int(f), int(op), float(value)), float(score)

    def ones(self) -> np.ndarray:
        return np.ones(self.n, dtype=bool)

    def zeros(self) -> np.ndarray:
        return np.zeros(self.n, dtype=bool)

    def of_class(self, y_idx: np.ndarray, c: int) -> np.ndarray:
        return y_idx == c

    def class_totals(self, y_idx: np.ndarray, rows, n_classes: int,
                     unweighted: bool = False) -> np.ndarray:
        """Each class's rows (their weight when weighted, unless ``unweighted``) among
        ``rows`` (None: all)."""
        return class_totals(y_idx, rows, None if unweighted else self.weights, n_classes)

    def narrow(self, view, active: np.ndarray):
        """The view cut down to the active rows once they are clearly fewer (:func:`_narrow`)."""
        return _narrow(view, active, self.threads)

    def total(self, rows: np.ndarray):
        """How many rows of the mask: their number, or their weight when weighted."""
        # count_nonzero: a bool array's sum() converts it to integers first (5-10x slower);
        # weights added row by row in row order, as the numba loop adds them (numpy's sum
        # adds pairwise, and the loops must not part on a total's last bit)
        if self.weights is None:
            return np.count_nonzero(rows)
        return float(fold_loop.total(np.flatnonzero(rows), self.weights))

    def enough(self, rows: np.ndarray) -> bool:
        """Whether a rule covering these rows is large enough to keep (``tail``): at
        least one row, and ``min_rule`` rows (or that weight, when weighted)."""
        if self.weights is None:
            n = np.count_nonzero(rows)
            return n > 0 and n >= self.min_rule
        return bool(rows.any()) and self.total(rows) >= self.min_rule

    def pays(self, rule: _Rule, covered: np.ndarray) -> bool:
        """Whether an exception covering these positives covers ``lit_rows`` of them for
        each of its literals (always, when ``lit_rows`` is 0)."""
        return not (self.lit_rows > 0
                    and fewer(self.total(covered), len(rule.literals) * self.lit_rows))

    # -- rules ----------------------------------------------------------
    def rule_mask(self, rule: _Rule) -> np.ndarray:
        m = np.ones(self.n, dtype=bool)
        for lit in rule.literals:
            m &= self.mask(lit)
        for exc in rule.exceptions:
            m &= ~self.rule_mask(exc)
        return m

    def learn_rule_set(self, pos: np.ndarray, neg: np.ndarray, used: list, depth: int,
                       view=None) -> list:
        rules = []
        pos = pos.copy()
        # cut once to this set's rows: each rule's search narrows on from there
        view = self.narrow(self.view if view is None else view, pos | neg)
        taken = None            # rows an earlier rule of this set covers (majority only)
        while self.enough(pos):
            rule = self.learn_rule(pos, neg, used, depth, view)
            if rule is None:
                if depth == 0 and not rules:
                    self.refused = None
                break
            holds = self.rule_mask(rule)
            covered = holds & pos
            kept = self.enough(covered) and (depth == 0 or self.pays(rule, covered))
            if kept and self.majority:
                # what this rule adds: the positives it covers that no earlier rule of the
                # set does, against the negatives it newly covers
                wrong = holds & neg if taken is None else holds & neg & ~taken
                kept = not more(self.total(wrong), self.total(covered))
                taken = holds if taken is None else taken | holds
            if self.trace:
                self._step("covered", depth, tp=int(covered.sum()), kept=kept)
            if not kept:
                if depth == 0 and not rules:
                    self.refused = (self.total(covered), self.total(holds & neg))
                break
            pos &= ~covered
            rules.append(rule)
        return rules

    def learn_rule(self, pos: np.ndarray, neg: np.ndarray, used: list, depth: int,
                   view) -> _Rule | None:
        literals: list = []
        pos, neg = pos.copy(), neg.copy()
        view = self.narrow(view, pos | neg)
        if self.trace:
            self._step("rule", depth, tp=int(pos.sum()), fp=int(neg.sum()))
        while True:
            lit, score = (self.best_literal(pos, neg, used + literals, view, self.min_tp)
                          if neg.any()
                          else (None, None))
            if lit is None:
                if self.trace:
                    self._step("stop", depth, tp=int(pos.sum()), fp=int(neg.sum()),
                               kept=bool(literals or not neg.any()))
                # no literal improves the rule: it stays a default rule without exceptions
                return _Rule(literals) if literals or not neg.any() else None
            literals.append(lit)
            m = self.mask(lit)
            pos &= m
            neg &= m
            if self.trace:
                self._step("literal", depth, literal=lit, score=score, tp=int(pos.sum()),
                           fp=int(neg.sum()))
            if not pos.any():
                # no positive left: no rule set keeps the rule (each asks it to cover one),
                # so more literals or exceptions would change nothing
                if self.trace:
                    self._step("empty", depth, tp=0, fp=int(neg.sum()))
                return _Rule(literals)
            # (a float product: ratio inf times no positives is nan, without numpy's warning)
            if fewer(self.total(neg), self.ratio * float(self.total(pos))):
                break
            view = self.narrow(view, pos | neg)     # cut only for a search that reads it
        rule = _Rule(literals)
        if neg.any() and (self.max_depth is None or depth < self.max_depth):
            if self.trace:
                self._step("exceptions", depth, tp=int(pos.sum()), fp=int(neg.sum()))
            # (learn_rule cuts the view to these rows before its first search)
            rule.exceptions = self.learn_rule_set(neg, pos, used + literals, depth + 1, view)
        return rule

    def _step(self, step: str, depth: int, **info) -> None:
        """Tell the trace callback about one learning step (callers check ``self.trace``
        first, so an untraced search counts nothing extra); never prints."""
        self.trace({"step": step, "depth": depth, **info})


_TIGHTER = {"<=": min, "<": min, ">": max, ">=": max}
# not (x > a) AND not (x > b) is not (x > min(a, b)), as x <= a AND x <= b is x <= min(a, b)
_NOT_TIGHTER = {">": min, "<=": max}


def _simplify(body: list) -> list:
    """Drop literals another literal of the rule implies (same meaning, shorter rule).

    ``x > 234 AND x > 271`` keeps ``x > 271`` (where the first stood), and so
    ``not (x > 41) AND not (x > 36)`` keeps ``not (x > 36)`` (both hold on a missing
    value; a trial's FOLD-SE rule read ``NOT (age > 41) AND NOT (age <= 25) AND NOT
    (age > 36)``); ``x <= 30`` makes ``not (x > 36)`` redundant;
    ``c == "2"`` makes ``c != "3"`` redundant, and so does ``c > 1`` (order
    comparisons hold for numbers only) for ``c != "x"`` and for ``c != 0``.
    """
    if len({lit.feature for lit in body}) == len(body):
        return list(body)   # each step reads two literals of one feature: none to drop
    out: list = []
    for lit in body:
        if isinstance(lit, (Compare, NotCompare)) and lit.op in _TIGHTER:
            kind = type(lit)
            same = next((k for k, o in enumerate(out) if type(o) is kind
                         and o.feature == lit.feature and o.op == lit.op), None)
            if same is not None:
                tighter = (_NOT_TIGHTER if kind is NotCompare else _TIGHTER)[lit.op]
                out[same] = kind(lit.feature, lit.op, tighter(out[same].value, lit.value))
                continue
        out.append(lit)
    plain = [lit for lit in out if isinstance(lit, Compare) and lit.op in _TIGHTER]
    # not (x > b) holds where x <= a (a <= b) or x < a (a <= b) does; not (x <= b) where
    # x > a (a >= b) or x >= a (a > b) does
    out = [lit for lit in out if not (isinstance(lit, NotCompare) and any(
        o.feature == lit.feature and _IMPLIES_NOT[lit.op][o.op](o.value, lit.value)
        for o in plain if o.op in _IMPLIES_NOT[lit.op]))]
    equal = {lit.feature: lit.value for lit in out if isinstance(lit, Compare) and lit.op == "=="}
    order = {}                                  # feature -> its order comparisons
    for lit in out:
        if isinstance(lit, Compare) and lit.op in _TIGHTER:
            order.setdefault(lit.feature, []).append(lit)

    def implied(lit) -> bool:
        """``f != v`` where another literal already rules ``v`` out: ``f == w`` (w != v), or
        an order comparison, which holds for numbers only and maybe not for ``v``."""
        if not (isinstance(lit, Compare) and lit.op == "!="):
            return False
        if lit.feature in equal and equal[lit.feature] != lit.value:
            return True
        if not is_number(lit.value):
            return lit.feature in order
        return any(not _ORDER_HOLDS[o.op](lit.value, o.value) for o in order.get(lit.feature, ()))
    return [lit for lit in out if not implied(lit)]


# _IMPLIES_NOT[op][o](a, b): the plain comparison ``x o a`` implies ``not (x op b)``
_IMPLIES_NOT = {">": {"<=": lambda a, b: a <= b, "<": lambda a, b: a <= b},
                "<=": {">": lambda a, b: a >= b, ">=": lambda a, b: a > b}}

_ORDER_HOLDS = {"<=": lambda a, b: a <= b, "<": lambda a, b: a < b,
                ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def _searchable(col: Column) -> Column:
    """A Boolean column as the search sees it: one category, "true".

    ``== true`` is the flag ``f`` and ``!= true`` is ``not f`` (true for false
    and for missing values), exactly as the Program model reads them; no
    numeric threshold is ever proposed on a flag.
    """
    if col.kind != "boolean":
        return col
    holds = col.is_num & (col.num == 1.0)
    n = len(col.num)
    return Column(col.name, col.kind, np.full(n, np.nan), np.zeros(n, dtype=bool),
                  np.where(holds, 0, -1).astype(np.int32), ("true",), col.missing)


def _edge_groups(counts: np.ndarray, max_bins: int) -> np.ndarray:
    """The bins' edges among a feature's distinct numbers (ascending, ``counts`` rows
    each): for k = 1 .. max_bins, the least number at or below which lie at least
    k / max_bins of the rows (the inverted-CDF quantile, in integers), without repeats;
    the largest number is the last edge."""
    cum = np.cumsum(counts, dtype=np.int64)
    k = np.arange(1, max_bins + 1, dtype=np.int64)
    return np.unique(np.searchsorted(cum * max_bins, k * cum[-1], side="left"))


def _bin_view(groups, offsets, distinct, distinct_offsets, max_bins: int):
    """The sorted view with each feature's numbers on at most ``max_bins`` thresholds:
    each value group becomes the bin of the least edge at or above its number
    (:func:`_edge_groups`), and the bin's number is that edge, a value of the column.
    Rows keep their sorted order; the kernels then propose the edges only.

    Exact for the program: for an edge ``e``, ``x <= e`` holds exactly when
    ``edge(x) <= e`` (``edge(x)`` is the least edge >= x), so a rule whose thresholds
    are edges says of every number what it says of its bin, and the learner's masks,
    computed on the numbers themselves, agree with the search's counts."""
    groups = groups.copy()
    out_distinct, out_offsets = [], [0]
    for f in range(len(offsets) - 1):
        d = distinct[distinct_offsets[f]:distinct_offsets[f + 1]]
        g = groups[offsets[f]:offsets[f + 1]]
        if len(d) > max_bins:
            edges = _edge_groups(np.bincount(g, minlength=len(d)), max_bins)
            groups[offsets[f]:offsets[f + 1]] = np.searchsorted(edges, g, side="left")
            d = d[edges]
        out_distinct.append(d)
        out_offsets.append(out_offsets[-1] + len(d))
    return (groups, np.concatenate(out_distinct) if out_distinct else distinct[:0],
            np.array(out_offsets, dtype=np.int64))


def _binned(col: Column, max_bins: int | None) -> Column:
    """The column with each number replaced by the edge of its bin (:func:`_bin_view`'s
    bins, from the numbers themselves): the table a ``max_bins`` search sees."""
    if max_bins is None or col.kind == "boolean" or not col.is_num.any():
        return col
    values = col.num[col.is_num]
    d, counts = np.unique(values, return_counts=True)
    if len(d) <= max_bins:
        return col
    edges = d[_edge_groups(counts, max_bins)]
    num = col.num.copy()
    num[col.is_num] = edges[np.searchsorted(edges, values, side="left")]
    return replace(col, num=num)


def _sort_scale(scale, col) -> float:
    """The feature's scale when its scaled numbers fit 62 bits (integer sort keys), else 0."""
    if not scale or not col.is_num.any():
        return 0.0
    span = np.abs(col.num[col.is_num]).max() * scale
    return float(scale) if span < 2.0**61 else 0.0


_NEGATE = {EQ: NE, NE: EQ, LE: NOT_LE, GT: NOT_GT, NOT_LE: LE, NOT_GT: GT}


def _fold_single_literal_exceptions(rule: _Rule) -> _Rule:
    """``r :- body, not ab.  ab :- l.`` becomes ``r :- body, not l`` (same meaning, one rule less).

    ``not (x == c)`` is ``x != c`` and ``not (x <= v)`` is the negated
    comparison, exactly, under aspml's value semantics; applied bottom-up.
    """
    literals = list(rule.literals)
    kept = []
    for exc in rule.exceptions:
        exc = _fold_single_literal_exceptions(exc)
        if len(exc.literals) == 1 and not exc.exceptions:
            lit = exc.literals[0]
            literals.append(_Lit(lit.feature, _NEGATE[lit.op], lit.value))
        else:
            kept.append(exc)
    return _Rule(literals, kept)


def _narrow(view, active: np.ndarray, threads: int):
    """The sorted view cut down to the active rows, once they are clearly fewer.

    The kernels skip inactive rows anyway; cutting costs about one search
    step, so it pays once the active set is at most half the view.
    """
    count = np.count_nonzero(active)
    if count > 0.5 * view[3]:
        return view
    features = len(view[2]) - 1
    cut = _kernel("filter_sorted", filter_sorted, filter_sorted_parallel, view[3], features,
                  threads)
    return (*cut(view[0], view[1], view[2], active, view[3], count), count)


class FoldSE(LogicClassifier):
    """FOLD-SE: default rules with exceptions, few and short (Wang & Gupta).

    Parameters
    ----------
    ratio : float, default 0.5
        Learn exceptions once a rule's false positives are at most ``ratio``
        times its true positives.
    tail : float, default 0.005
        Long-tail pruning: a rule or an exception must cover at least this
        share of the training rows (at least one row); smaller ones are not learned.
        With K > 2 classes (a multi-class program), this share divided by K - 1,
        and a rule of the decision list must also decide ``MIN_DECIDED`` (3) rows
        of its class, or cover 3 and decide half of them (weighted: 3 times the
        least row weight), and an exception must cover a row of its rule's other
        classes for each of its literals (weighted: the least row weight a row);
        ``tail=0`` lifts these bars.
        Weighted (``class_weight``, ``sample_weight``): this share of the total
        weight, whatever its scale (weights that sum to 1 learn what the same
        weights times n learn).
    heuristic : {"mgi", "ig"}, default "mgi"
        Magic Gini Impurity (FOLD-SE) or information gain (FOLD-R++).
    negated_comparisons : bool, default True
        Consider FOLD-SE's ``not (x <= v)`` and ``not (x > v)`` literals.
    max_depth : int or None
        Deepest nesting of exceptions (None: unbounded).
    positive : label or None
        The target class; default ``classes_[1]``.
    kinds : dict or None
        Column kinds that override inference (``{"zip": "categorical"}``).
    missing : tuple of str or None
        Tokens read as missing values (default ``("?",)``).
    target : str or None, default None
        Name of the target predicate in the learned program; None: the name of
        ``y`` when it is a named pandas Series (``df["outcome"]``: the program
        concludes ``outcome = ...``, as ``aspml learn --target outcome`` does),
        else ``"label"`` (when a feature is so named: ``"class"``, ``"target"``, ...,
        the first no feature has; ``target=`` a feature's name is refused).
        ``target_`` holds the name used.
    fixed_rules : Program, list of Rule, str or path, or None
        Expert rules kept first in every program this estimator learns (see
        :meth:`fit`, whose ``fixed_rules`` replaces this one when given).
    background : str, path, Program, list of Rule or None
        A background theory (see :mod:`aspml.logic.background`): its atoms become
        Boolean features the rules may use, and ``program_`` carries its rules.
    class_weight : None, "balanced" or dict, default None
        Weights of the classes, scikit-learn's convention: ``"balanced"`` gives
        each class ``n_samples / (n_classes * its count)``; a dict maps a class
        to its weight (others 1).  A row counts with its class weight times its
        ``sample_weight`` (``fit``), as that many copies of it would.
        FOLD's heuristic, the ``ratio`` and the ``tail`` then count weights.
    max_bins : int or None, default None
        Search each numeric column on at most this many thresholds, its
        quantiles (values of the column), as histogram-based tree learners do:
        on a large table the search then costs O(rows) per step with at most
        ``max_bins`` candidate thresholds per feature.  The program is exact for
        its thresholds (each is a training value); None: every distinct value is
        a candidate, as FOLD does.  With ``max_bins``, ``fit`` on a Dask DataFrame
        and a Dask Series of its labels learns where the partitions are, the same
        program (docs: Large tables).
    max_rules : int or None, default 20
        The most rules of a multi-class program (its decision list) as it is
        printed, exceptions counted, and at least two for each class but the
        default: a program a person reads through.  The list is learned as FOLD-RM
        learns it; when it passes the budget it is learned again held to it:
        before each rule, the tail's bars rise to 0.1 x (the rows no rule decides
        yet) / (the rules the budget has left), and a rule whose exceptions would
        pass the budget is refused (its class waits, as for any refused rule);
        the list ends when the budget is spent or no class's rule is kept (a note
        says so, and the fitted ``max_rules_held_`` is True).  A list within the
        budget is the one learned without it.  On avila (12 classes, 16,700
        training rows) FOLD's whole list is 154 rules at accuracy 0.888; held to
        22 (two for each class but the default), 20.2 rules at 0.684, above a
        depth-5 tree's 0.609 (docs: multi-class benchmarks).  None: no budget.
        Binary programs have no budget (the tail keeps them short).
    """

    _fewer_rules = ("a higher tail (the share of the rows a rule must cover, 0.005 by "
                    "default) learns fewer, broader rules")
    # (a multi-class program: its budget)
    _fewer_multiclass_rules = ("max_rules=N holds the list to at most N rules, exceptions "
                               "counted, or two for each class but the default when that "
                               "is more (FoldSE 20, FoldRpp 32 by default)")

    _not_provenance = ("kinds", "missing", "fixed_rules")   # the program marks them instead
    # a binary program's saved file stays as it was (max_rules holds decision lists)
    _multiclass_only = ("max_rules",)
    # a FoldSE pickled before it had max_rules refits what it learned: no budget
    max_rules = None

    def __init__(self, ratio=0.5, tail=0.005, heuristic="mgi", negated_comparisons=True,
                 max_depth=None, positive=None, kinds=None, missing=None, target=None,
                 fixed_rules=None, background=None,
                 class_weight=None, max_bins=None, max_rules=20):
        self.ratio = ratio
        self.tail = tail
        self.heuristic = heuristic
        self.negated_comparisons = negated_comparisons
        self.max_depth = max_depth
        self.positive = positive
        self.kinds = kinds
        self.missing = missing
        self.target = target
        self.fixed_rules = fixed_rules
        self.background = background
        self.class_weight = class_weight
        self.max_bins = max_bins
        self.max_rules = max_rules

    def _settings(self):
        """(heuristic code, negated comparisons, tail), checked."""
        _check_ratio(self.ratio)
        _check_count("max_depth", self.max_depth, 0)
        if self.heuristic not in ("mgi", "ig"):
            raise ValueError(f"heuristic must be 'mgi' or 'ig', got {self.heuristic!r}")
        _check_tail(self.tail)
        _check_count("max_rules", self.max_rules, 1)
        return (MGI if self.heuristic == "mgi" else IG), bool(self.negated_comparisons), self.tail

    def fit(self, X, y, sample_weight=None, trace=None, progress=None, fixed_rules=None):
        """Learn the program; ``sample_weight`` as for every aspml learner (see
        :meth:`LogicClassifier.fit`); ``trace`` (optional) is called with one dict per
        learning step: ``step`` (``rule``, ``literal``, ``exceptions``, ``stop``,
        ``empty``, ``covered``, ``expert``; with three or more classes also ``class``, the class
        a default rule is learned for, and ``default``, the default class chosen),
        ``depth``, and the step's figures (``tp``, ``fp``: rows, not weights; a
        ``covered`` step has ``tp`` and ``kept``).

        ``fixed_rules`` (else the constructor's): expert rules for the positive
        class, a Program, a list of Rules, program text (``asp``, ``prolog`` or
        ``text`` dialect) or a file path.  They come first in the program,
        marked (``program_.expert``) and never changed but for an appended
        ``not abK``: the positives they cover leave the training set before
        FOLD's loop, and where they cover negatives FOLD learns exceptions to
        them as to its own rules.  ``expert_report_`` says, per expert rule,
        the rows and negatives it covers and the exception added; a rule the data
        disputes (no row, negatives, no new positive) is kept and also told as an
        AspmlWarning.  Their target must be the learner's (name and positive
        class) and their features columns of ``X``.

        Steps, each with ``step``, ``depth`` (0: default rules, 1: their
        exceptions, ...) and the rule's current true/false positives ``tp``,
        ``fp`` (at an exception's depth, the roles are swapped):
        ``rule`` (a rule is started), ``literal`` (``literal``: the aspml
        Literal chosen, ``score``: its heuristic value), ``exceptions`` (the
        rule's remaining ``fp`` are learned as exceptions), ``stop`` (no valid
        literal; ``kept`` says whether the rule stays), ``empty`` (the last literal
        left the rule no positive: it stops there, and no rule set keeps it),
        ``covered`` (the
        finished rule covers ``tp`` positives; ``kept``: enough to keep it).
        ``progress(done, total, note)`` hears how many positives the default
        rules cover so far.  The learner itself never prints.  With fixed rules,
        an ``expert`` step (``rule``: the expert's Rule, ``tp``, ``fp``) comes
        first for each of them.
        """
        given = self.fixed_rules if fixed_rules is None else fixed_rules
        self._fixed = expert.read_fixed_rules(given)    # unreadable text: an error before fitting
        self._trace = trace
        self._max_rules_held = False     # (a multi-class fit's: its list held to max_rules)
        try:
            if is_dask_frame(X) and self.max_bins is not None and is_dask_frame(y, series=True):
                # the partitions stay where they are (without max_bins, or with a y in
                # memory, the frame is computed into memory, as for every learner)
                if trace is not None:
                    raise ValueError("trace is not supported when fitting on a Dask DataFrame")
                from . import _dask_fold
                fitted = _dask_fold.fit(self, X, y, sample_weight)
            else:
                fitted = super().fit(X, y, sample_weight=sample_weight, progress=progress)
            self.max_rules_held_ = self._max_rules_held
            return fitted
        finally:
            self._trace = None
            self._fixed = None
            self._tail_search = None

    def _search(self, table, names, total: int, others: int = 1) -> "_Search":
        """The FOLD search over the training table with this learner's settings;
        ``total``: the positives the progress callback counts towards; ``others``: the
        classes each rule's class is told apart from (the tail is shared among them)."""
        heuristic, negated, tail = self._settings()
        weights = getattr(self, "_weight", None)
        # tail: a share of the rows, or of their total weight (copies counted as rows)
        rows = table.n_rows if weights is None else float(weights.sum())
        min_tp = tail_bar(tail, rows, others, weights is not None)
        trace = getattr(self, "_trace", None)
        if trace is not None or getattr(self, "_progress", None) is not None:
            user, done = trace, [0]

            def trace(event):
                if event["step"] == "covered" and event["depth"] == 0 and event["kept"]:
                    done[0] += event["tp"]          # positives covered by the default rules
                    self._report(done[0], total, "positives covered")
                if user is None:
                    return
                if "literal" in event:
                    event = {**event, "literal": _literal(event["literal"], table, names)}
                user(event)
        max_bins = _check_max_bins(getattr(self, "max_bins", None))
        return _Search(table, names, heuristic, negated, float(self.ratio), 0, min_tp,
                       self.max_depth, trace, weights, max_bins)

    def _learn(self, table, y):
        names = list(self.schema_.names)
        search = self._search(table, names, int(y.sum()))
        pos, fixed, found = y.copy(), [], []
        given = getattr(self, "_fixed", None)
        if given is not None:
            fixed, found = self._learn_exceptions_to_fixed(given, search, table, pos, ~y)
        learned = (search.fast_rule_set(pos, ~y) if search.fast()
                   else search.learn_rule_set(pos, ~y, [], 0))
        if not fixed and not learned:
            self._warn_no_rules(search, y)
        # the search, for the note of a class the tail cut short (_tail_note, after the fit)
        self._tail_search = (search if learned and not fixed and search.min_rule > search.least
                             else None)
        program = self._program(fixed + learned, table, names)
        self.expert_report_ = expert.report(program, found)
        for note in expert.notes(self.expert_report_):
            warnings.warn(note, AspmlWarning, stacklevel=4)
        return program

    def _learn_multiclass(self, table, y_idx, search=None):
        """FOLD-RM's scheme over FOLD's binary search: while rows remain, take the most
        frequent class among them (weighted when the rows are), learn one default
        rule (with its exceptions, as in a binary program) for it against every other
        remaining row; the rows of that class the rule covers leave, the rows of
        other classes it covers stay as negatives for the next rules (as in FOLD's
        binary loop and FOLD-RM; measured, README Multi-class).  One rule per step,
        not a class's whole rule set: measured on the shared multi-class sets, one
        rule per step was as accurate or more on five of the six.  Each rule is learned
        exactly as in a binary program, with FOLD-R++'s literal search (FOLD-SE's too):
        the literal the heuristic ranks best, even one that keeps none of the rule's
        rows; the rule (or exception) then covers too few to keep, and its set ends.

        A rule is refused when no rule is found, when the rows of its class it covers
        are fewer than ``tail`` of the rows divided by K - 1 for K classes (FOLD-SE's
        long-tail pruning: its binary bar when K = 2; each class is told apart from
        K - 1 others, and at ``tail`` of all rows the small classes of a many-class
        table could have no rule at all; measured with the refused exceptions below,
        docs Multi-class), when the rows of its class it decides (no earlier rule
        covers them) are fewer than that and than half of those it covers (a trial's
        rule covered 2,999 rows and decided one: in the list it speaks for that row
        alone; the bar on decided rows alone cost avila's macro-F1 0.04),
        or when it is wrong more often than right on the rows it decides (those no earlier rule covers): FOLD keeps a rule
        whose search ran out of valid literals with all its false positives (the
        reference FOLD-RM does too), and in a decision list such a rule gives its class
        to every row it reaches (on avila, fold 0: one rule decided 2,985 rows, 3% of
        them of its class).  A refused class waits until a rule of another class is
        kept (the rows change), then is tried again; the list ends when one class
        remains or every class with rows waits.  The default class is the class of the
        most rows no rule covers, counted beside the tail bar's worth of rows at the
        classes' shares of all rows (an m-estimate whose m is the bar; of all rows when
        every row is covered).  Until 2026-12-03 it was the majority of all rows
        whenever the uncovered ones weighed less than the bar, which could give them a
        class none of them had (a trial: four rows of a rare class, alone past a
        threshold, got the largest class); measured, the same or better accuracy on the
        shared tables and the trial's, with the default tail and ``tail=0.05`` (docs,
        multi-class benchmarks).  An exception, too, is refused when
        it is wrong on more rows than it is right (it would take more rows from its
        rule's class than it gives to the others): with label noise FOLD learned
        exceptions around the noise, then rule after rule for the rows those
        exceptions took (a three-class table, 10% of labels noise, 20,000 rows: 308
        rules; refused, the 3 rules of the true concept; binary programs keep FOLD's
        exceptions as they are).  Rules at the end of the list that
        conclude the default class are dropped: without them the same rows get the
        same class.  A list whose rules, as printed, pass ``max_rules`` (at least two
        for each class but the default) is learned again held to it (the
        parameter's docs; the loop's ``budget``, ``hold`` and ``over``)."""
        names = list(self.schema_.names)
        if search is None:      # (the Dask fit brings its own, over the partitions)
            search = self._search(table, names, table.n_rows, others=len(self.classes_) - 1)
        # FOLD-R++'s literal search, as in a binary program and the reference FOLD-RM
        # (asking each literal to keep the rows its rule needs was FoldSE's until
        # 2026-12-03: more accurate on avila, longer everywhere; docs, multi-class)
        search.majority = True
        # with a tail, a rule must decide MIN_DECIDED rows of its class or more: the
        # tail's bar is one row on a small table (a held-out sweep's FOLD-SE learned 51
        # rules on 720 rows of five heating systems, and 53 on 120 skulls of five
        # epochs).  Weighted, that many times the least row weight (``search.least``):
        # whole weights then equal repeated rows, and weights at any scale learn one
        # program; less rounding, as the tail's bar.
        # With a tail, too, an exception must cover a row of the rule's other classes for
        # each of its literals (whole weights: the least row weight each): a conjunction
        # of more conditions than the rows it covers lists them rather than describes
        # them.  On 16 held-out multi-class tables, FoldSE 20.4 -> 16.7 rules a table at
        # accuracy 0.598 -> 0.606 (macro-F1 0.390 -> 0.396); on the shared tables only
        # balance changed (31.4 -> 25.6 rules, the same accuracy).  Measured and not
        # kept: FoldRpp's (no tail) too, avila 0.866 -> 0.820; a row more than the
        # literals, wine 0.950 -> 0.927 (docs, multi-class benchmarks).
        if float(self.tail) > 0:
            floor = MIN_DECIDED * float(search.least)
            search.min_kept = max(search.min_rule, floor - 1e-9 * floor)
            search.lit_rows = float(search.least)
        else:
            search.min_kept = search.min_rule
            search.lit_rows = 0.0
        k = len(self.classes_)
        # max_rules: the list is learned as ever, watched; once its rules as printed
        # (exceptions counted, its trailing rules of the default class not) pass the
        # budget, it is learned again held to it, each rule's bars raised to its share
        # of what the budget has left (_budget_loop); fit() set _max_rules_held False
        every = search.class_totals(y_idx, None, k)
        if self.max_rules is not None:
            search.budget = float(self._budget(k))
            search.budget_share = BUDGET_SHARE
        try:
            learned, labels, decided = self._budget_loop(search, y_idx, k)
            default = self._default_class(search, y_idx, k, decided, every)
            if search.budget >= 0 and (search.over or sum(
                    map(_n_rules, learned[:_kept_end(labels, default)])) > search.budget):
                if search.trace:
                    search._step("budget", 0, budget=int(search.budget))
                search.hold = True
                learned, labels, decided = self._budget_loop(search, y_idx, k)
                default = self._default_class(search, y_idx, k, decided, every)
                self._max_rules_held = True
        finally:
            search.budget, search.hold, search.over = -1.0, False, False
        if search.trace:        # rows of the default class no rule covers, the others
            uncovered = search.class_totals(y_idx, ~decided, k, True)
            search._step("default", 0, label=as_label(self.classes_[default]),
                         tp=int(uncovered[default]), fp=int(uncovered.sum() - uncovered[default]),
                         bar=search.min_rule)
        if self._max_rules_held:
            warnings.warn(f"{type(self).__name__}'s decision list passed "
                          f"{self._budget_said(k)}, exceptions counted, and was learned again "
                          "held to it: each rule then had to cover at least 0.1 x the rows no "
                          "rule decided yet / the rules the budget had left, so its rules are "
                          "fewer and broader than FOLD's whole list; max_rules=None learns "
                          "that list (check on rows held out what it gains)", AspmlWarning,
                          stacklevel=4)
        kept = len(learned)
        end = _kept_end(labels, default)
        del learned[end:], labels[end:]
        if learned:
            self._warn_classes_without_rules(search, y_idx, labels, default, every)
        if not learned:
            least = max(search.least, search.min_kept)
            why = ("its only rules concluded the class every row gets without them" if kept
                   else f"held to {self._budget_said(k)}, no rule of that many rules or "
                   "fewer (exceptions counted) covered its share of the rows (a larger "
                   "max_rules, or None, keeps smaller rules)" if self._max_rules_held
                   else "no rule told a class's rows from the others' well enough to keep (it "
                   f"must cover at least {least:g} row{'s' if least != 1 else ''} of its class "
                   "and be right on more of the rows it decides than wrong"
                   + ("; with a tail it must decide "
                      f"{MIN_DECIDED:g}, and tail=0 keeps smaller rules)"
                      if _decided_bar_binds(search) else ")"))
            warnings.warn(f"{type(self).__name__} learned no rules: {why}. The program "
                          f'answers "{as_label(self.classes_[default])}" for every row.',
                          AspmlWarning, stacklevel=4)
        self.expert_report_ = []        # no expert rules in a multi-class program
        return self._program(learned, table, names,
                             labels=[as_label(self.classes_[c]) for c in labels],
                             default=default)

    @staticmethod
    def _default_class(search, y_idx, k: int, decided, every) -> int:
        """The default class of a list that decides ``decided``: the class of the most
        rows no rule covers, beside the tail bar's worth of rows at the classes' shares
        of all rows (an m-estimate, m the bar): a few stray rows do not outvote the
        table, a region of rows the rules leave does (FoldRpp, no tail: theirs).  Tied
        uncovered rows: the class of more training rows, not the first by name (a
        trial: two rows each of a 2.8% class and a common one, and the rare class,
        first by name, became the default of 83 fresh rows, none of it)."""
        undecided = ~decided
        left = search.total(undecided)
        rows = undecided if left else None
        totals = (search.class_totals(y_idx, undecided, k) + search.min_rule * every / every.sum()
                  if left else every)
        return largest_class(totals, lambda: search.class_totals(y_idx, rows, k, True),
                             lambda: search.class_totals(y_idx, None, k, True))

    def _budget(self, k: int) -> int:
        """The rules a K-class list is held to: ``max_rules``, or two for each class but
        the default when that is more (125 classes of one interval each need 124 rules,
        one a class, as short as that program gets)."""
        return max(int(self.max_rules), 2 * (k - 1))

    def _budget_said(self, k: int) -> str:
        """The budget as a note names it: ``max_rules=20 rules``, or its rule a class."""
        b = self._budget(k)
        return (f"max_rules={b} rules" if b == self.max_rules else
                f"{b} rules (two for each class but the default; max_rules={self.max_rules})")

    def _default_decides_why(self) -> str:
        if self._max_rules_held:
            return (f"the list was held to {self._budget_said(len(self.classes_))}: a larger "
                    "max_rules, or None, lets rules decide more of them")
        return super()._default_decides_why()

    def _budget_loop(self, search, y_idx, k: int):
        """FOLD-RM's loop, in numba or Python (its trace), under the search's budget."""
        if search.fast():
            return search.fast_multiclass(y_idx, k)
        return self._multiclass_loop(search, y_idx, k, [as_label(c) for c in self.classes_])

    def _warn_classes_without_rules(self, search, y_idx, labels, default, every) -> None:
        """Say which classes of the training rows the program never gives (no rule
        concludes them and they are not the default class): a user reads the program as
        a description of every class (a new-user trial: a triage level with no rule, and
        not a word).  The hint: a lower tail (FoldSE), or class_weight="balanced".
        ``every``: each class's total over all rows (the caller's: a Dask fit counts each
        total over its partitions)."""
        k = len(self.classes_)
        silent = [c for c in range(k) if every[c] > 0 and c != default and c not in labels]
        if not silent:
            return
        rows = search.class_totals(y_idx, None, k, True)
        # a class as the program prints it: "C", and a number plain (a trial's "4")
        said = ", ".join(f'{text_value(as_label(self.classes_[c]))} ({int(rows[c])} '
                         f'row{"s" if rows[c] != 1 else ""})' for c in silent)
        hints = ([] if getattr(self, "class_weight", None) is not None
                 else ['class_weight="balanced"'])
        unit = "rows" if getattr(search, "weights", None) is None else "of weight"
        if _decided_bar_binds(search):
            # the tail's own bar is lower: MIN_DECIDED refused it (a review: a separable
            # class of 2 rows was told "a lower tail", which does not help)
            hints.insert(0, f"tail=0 (with a tail, a rule must decide {MIN_DECIDED:g} rows "
                            "of its class)")
        elif search.min_rule > search.least:
            # (a weight to four digits, as the binary note says it: a trial read "5.74143")
            bar = f"{search.min_rule:g}" if unit == "rows" else f"{search.min_rule:.4g}"
            hints.insert(0, f"a lower tail (a rule must cover {bar} {unit})")
        if self._max_rules_held:
            hints.insert(0, f"a larger max_rules (the list was held to {self._budget_said(k)})")
        hints.append("features that tell it apart")
        warnings.warn(f"{type(self).__name__} learned no rule for the class"
                      f"{'es' if len(silent) > 1 else ''} {said}: the program never gives "
                      f"{'them' if len(silent) > 1 else 'it'}"
                      + f"; {', '.join(hints[:-1])}{' or ' if len(hints) > 1 else ''}"
                        f"{hints[-1]} may give {'them' if len(silent) > 1 else 'it'} rules "
                        "(check them on rows held out: where no feature tells a class apart, "
                        "its rules fit the training rows only)",
                      AspmlWarning, stacklevel=5)

    @staticmethod
    def _multiclass_loop(search, y_idx, k: int, names=None):
        """FOLD-RM's loop in Python (see :meth:`_learn_multiclass`): (the kept rules,
        their classes, the rows some rule covers); ``names``: the classes as the trace
        tells them."""
        remaining = search.ones()
        view = search.view          # cut down as rows leave (a superset of the remaining rows)
        decided = search.zeros()                            # rows some learned rule covers
        learned, labels, waiting = [], [], set()
        budget, held = search.budget, search.budget >= 0 and search.hold
        base_rule, base_kept = search.min_rule, search.min_kept
        used = 0                    # the kept rules as the program prints them
        run_class, run_rules = -1, 0    # the list's last run of rules of one class
        search.over = False
        try:
            while remaining.any():
                # watched, the list has passed the budget once the rules before its last
                # run of one class do (rules only join it, and only the rules of the
                # default class at its end are dropped)
                if budget >= 0 and not held and used - run_rules > budget:
                    search.over = True
                    break
                if held:
                    if used >= budget:
                        break
                    bar = search.budget_share * search.total(~decided) / (budget - used)
                    search.min_rule = max(base_rule, bar)
                    search.min_kept = max(base_kept, bar)
                step = FoldSE._multiclass_step(search, y_idx, k, names, remaining, view,
                                               decided, waiting,
                                               budget - used if held else None)
                if step is None:
                    break
                rule, size, c, covered, pos, view = step
                if rule is None:
                    waiting.add(c)
                    continue
                waiting.clear()
                learned.append(rule)
                labels.append(c)
                used += size
                run_rules = run_rules + size if c == run_class else size
                run_class = c
                remaining &= ~(covered & pos)
                decided |= covered
        finally:
            search.min_rule, search.min_kept = base_rule, base_kept
        return learned, labels, decided

    @staticmethod
    def _multiclass_step(search, y_idx, k: int, names, remaining, view, decided, waiting,
                         room):
        """One attempt of FOLD-RM's loop (:meth:`_multiclass_loop`): None when the list
        ends, else (the rule, or None when it is refused; its rules as printed; its
        class; the rows it covers; the class's remaining rows; the view).  ``room``: the
        rules (exceptions counted) the budget has left for it, or None."""
        totals = search.class_totals(y_idx, remaining, k)
        if (totals > 0).sum() < 2:
            return None
        totals[list(waiting)] = 0
        if not totals.any():
            return None
        c = _most(totals)
        of_c = search.of_class(y_idx, c)
        pos, neg = remaining & of_c, remaining & ~of_c
        if not search.enough(pos):
            return None
        view = search.narrow(view, remaining)
        if search.trace:
            search._step("class", 0, label=names[c] if names else c,
                         tp=int(pos.sum()), fp=int(neg.sum()))
        rule = search.learn_rule(pos, neg, [], 0, view)
        covered = (search.rule_mask(rule) & remaining if rule is not None
                   else search.zeros())
        decides = covered & ~decided
        # kept when the rows of its class it decides reach the tail bar, or those it
        # covers do and it decides at least half of them (rows an earlier rule covers
        # stay remaining for their class, but that rule answers for them: a trial's
        # rule covered 2,999 rows and decided one; the bar on decided rows alone cost
        # avila's small classes their rules, macro-F1 0.891 -> 0.851), and right on
        # more of its rows than wrong; held to a budget, when it and its exceptions fit
        # in what the budget has left.
        # (Measured and not kept: leaving those rows out of the class's positives; the
        # same held-out F1 on 150 small random tables, avila's FoldSE macro-F1 0.927 ->
        # 0.905: docs, multi-class benchmarks.)
        mine_rows = decides & pos                       # (within covered & pos)
        mine, theirs = search.total(mine_rows), search.total(covered & pos)
        bar = search.min_kept             # (set by _learn_multiclass)
        kept = (mine_rows.any()
                and (mine >= bar or (theirs >= bar and 2 * mine >= theirs))
                and not more(search.total(decides & neg), mine))
        size = _n_rules(rule) if kept else 0
        kept = kept and (room is None or size <= room)
        if search.trace and rule is not None:
            search._step("covered", 0, tp=int((covered & pos).sum()), kept=kept)
        return (rule if kept else None), size, c, covered, pos, view

    def _tail_note(self, target, holds, share: float, recall: float,
                   weighted: bool) -> str | None:
        """Where the tail ended a binary fit's rules with a quarter or more of a rare
        class's rows left, and the next rule would have covered a tenth or more of them
        (two at least; a row or two among many is the long tail the tail is there to cut:
        noise), the note that says so, with the tail that learns it (a held-out trial's 2%
        class: 59% found, no note; ``class_weight="balanced"`` gave test F1 0.54, a lower
        tail 0.83).  The next rule is FOLD's own next step (the Python loop's, which the
        numba loop equals), searched only here, on the rows the fit's rules leave."""
        search = getattr(self, "_tail_search", None)
        if search is None or not (share < 0.2 and recall < 0.75):
            return None
        left = target & ~holds
        if not search.enough(left):
            return None
        # (quietly: a user's trace of the fit hears the program's rules, not this one)
        search.refused, trace, search.trace = None, search.trace, None
        try:
            if search.learn_rule_set(left, ~target, [], 0) or search.refused is None:
                return None
        finally:
            search.trace = trace
        covered, n_left, n = search.refused[0], search.total(left), search.total(search.ones())
        if not (covered < search.min_rule and covered >= max(2 * search.least, 0.1 * n_left)):
            return None
        # weighted, the counts are the rows' weights (a review: "covered 0.004 of the 0.035
        # rows left")
        what = (f"covered {covered:g} of the {n_left:g} rows left, and a rule must cover "
                f"{search.min_rule:g} (tail={self.tail:g} of the rows)" if not weighted else
                f"covered a weight of {covered:.4g} of the {n_left:.4g} left, and a rule must "
                f"cover {search.min_rule:.4g} (tail={self.tail:g} of the rows' total weight)")
        return (f"the tail ended the rules there: the next rule {what}; "
                f"tail={floor2(covered / n):g} keeps it, and a lower tail learns rules for "
                "more of them")

    def _warn_no_rules(self, search: "_Search", pos, stacklevel: int = 5) -> None:
        """Say that a binary fit learned no rule, why, and what might give one: an empty
        program answers the other class for every row, which is no description of the
        class (what was asked for).  ``pos``: the positive rows (the search's rows)."""
        name = type(self).__name__
        positive = as_label(self.classes_[self.positive_index_])
        other = as_label(self.classes_[1 - self.positive_index_])
        n_pos, n = search.total(pos), search.total(search.ones())
        share = n_pos / n if n else 0.0
        if not search.enough(pos):
            why = (f"the class has {n_pos:g} rows, fewer than the {search.min_rule:g} a rule "
                   f"must cover (tail={self.tail:g} of the rows)")
        elif search.refused is None:
            why = "no literal tells its rows from the others'"
        else:
            tp, fp = search.refused
            why = (f"its first rule covered {tp:g} of the {n_pos:g} positive rows and {fp:g} "
                   "others")
            if not tp:
                why += (" (its literals narrowed the rows until none was left: no literal "
                        "parted the last positives from the negatives beside them)")
            elif tp < search.min_rule:
                why += (f", and a rule must cover at least {search.min_rule:g} "
                        f"(tail={self.tail:g} of the rows)")
        hints = []
        # the rule was found and only the tail refused it: the tail that keeps it comes
        # first (a trial: class_weight="balanced", the first hint, gave test F1 0.08 on a
        # 0.5% class, tail=0.003 the hidden rule at 0.64)
        # (two rows at least, as the tail's note asks: a held-out sweep's 24% class was
        # told the tail that keeps a first rule of one row of 3,488)
        tail_refused = (search.refused is not None
                        and 2 * search.least <= search.refused[0] < search.min_rule)
        if tail_refused and n:
            hints.append(f"tail={floor2(search.refused[0] / n):g} (the first rule would then "
                         "be kept)")
        dead_end = search.refused is not None and not search.refused[0]
        if getattr(self, "class_weight", None) is None and (hint := balanced_hint(share)):
            hints.append(hint)
        if dead_end and name == "FoldRpp":
            # (FoldSE's heuristic found rules on each of the sweep's three such tables)
            hints.append("FoldSE (its heuristic ranks literals another way)")
        if search.min_rule > search.least and not (tail_refused and n):
            hints.append("a lower tail")
        tried = ("; if none gives rules, the features may not tell the class apart"
                 if hints else "; the features may not tell the class apart")
        warnings.warn(f'{name} learned no rules for {self._target_name()} = "{positive}": {why}. '
                      f'The program answers "{other}" for every row'
                      + ("; for rules of the class, try " + ", or ".join(hints) if hints else "")
                      + tried + ".", AspmlWarning, stacklevel=stacklevel)

    def _learn_exceptions_to_fixed(self, given, search: "_Search", table, pos, neg):
        """The expert's rules in order, each as FOLD finishes a rule of its own: where it
        covers negatives, its exceptions are learned (unless ``max_depth`` is 0); the
        positives it then covers leave ``pos`` (changed in place).  Returns the
        ``_Fixed`` default rules followed by the expert's own exception rules, and per
        default rule the counts :func:`expert.report` words."""
        target = Target(self._target_name(), as_label(self.classes_[self.positive_index_]))
        rules = expert.fixed_rules_for(given, target, self.schema_)
        used = {f for r in rules for f in r.features}
        schema = Schema(tuple(f for f in self.schema_.features if f.name in used))
        masks = rule_masks(Program(rules, target, schema), table)[0]
        fixed, found = [], []
        for i, rule in enumerate(rules):
            if rule.head is not None:
                continue
            tp, fp = masks[i] & pos, masks[i] & neg
            if search.trace:
                search._step("expert", 0, rule=rule, tp=int(tp.sum()), fp=int(fp.sum()))
            exceptions = []
            if fp.any() and (self.max_depth is None or self.max_depth > 0):
                banned = [u for u in (_search_literal(lit, search) for lit in rule.body) if u]
                exceptions = search.learn_rule_set(fp, tp, banned, 1)
            holds = masks[i].copy()
            for exc in exceptions:
                holds &= ~search.rule_mask(exc)
            covered = holds & pos
            if search.trace:
                search._step("covered", 0, tp=int(covered.sum()), kept=True)
            found.append({"covers": int(masks[i].sum()), "positives": int((masks[i] & ~neg).sum()),
                          "negatives": int((masks[i] & neg).sum()), "new_positives": int(tp.sum()),
                          "negatives_left": int((holds & neg).sum()),
                          "exception": bool(exceptions)})
            pos &= ~covered
            fixed.append(_Fixed(rule, exceptions))
        return fixed + [r for r in rules if r.head is not None], found

    def _program(self, learned: list, table, names: list, labels=None,
                 default=None) -> Program:
        """The Program of the learned rules (``_Rule``), after the expert's (``_Fixed``
        default rules, then their own exception rules as ``Rule``), which stay as
        written and are marked in ``Program.expert``.  Multi-class: ``labels`` are the
        classes the learned rules conclude, ``default`` the index of the default class."""
        label_of = {}       # id of a learned top-level rule -> its class (multi-class)
        fixed = [r for r in learned if isinstance(r, _Fixed)]
        own = [r for r in learned if isinstance(r, Rule)]                 # expert exceptions
        learned = [r for r in learned if isinstance(r, _Rule)]
        taken = {r.head for r in own} | {n for r in own for n in r.exceptions}
        rules_out: list = []
        exceptions_out: list = []
        counter = [0]   # exceptions named so far

        def literal(lit: _Lit):
            return _literal(lit, table, names)

        def name() -> str:
            counter[0] += 1
            while f"ab{counter[0]}" in taken:      # the expert's own exceptions keep theirs
                counter[0] += 1
            return f"ab{counter[0]}"

        top = [_fold_single_literal_exceptions(r) for r in learned]
        if labels is not None:
            label_of = {id(r): lab for r, lab in zip(top, labels)}
        # breadth first: the rules of one head together, exceptions numbered in printing order
        queue = [(fixed + top, None, rules_out)]
        while queue:
            group, head, out = queue.pop(0)
            for rule in group:
                if isinstance(rule, _Fixed):
                    body = list(rule.rule.body)
                    rule = _Rule([], [_fold_single_literal_exceptions(e) for e in rule.exceptions])
                else:
                    body = _simplify([literal(lit) for lit in rule.literals])
                if rule.exceptions:
                    ab = name()
                    body.append(NotAtom(ab))
                    queue.append((rule.exceptions, ab, exceptions_out))
                out.append(Rule(head, tuple(body),
                                label=label_of.get(id(rule)) if head is None else None))
        rules = rules_out[:len(fixed)] + own + rules_out[len(fixed):] + exceptions_out
        marked = list(range(len(fixed) + len(own)))
        plain = _plain_comparisons(rules, table)        # the expert's literals stay as written
        rules = [rules[i] if i < len(marked) else r for i, r in enumerate(plain)]
        return self._finish(rules, default, expert=marked)


class FoldRpp(FoldSE):
    """FOLD-R++: information gain, no negated comparisons, no long-tail pruning by
    default.

    The parameters are :class:`FoldSE`'s but ``heuristic`` and
    ``negated_comparisons`` (FOLD-R++ has information gain and no negated
    comparisons), and:

    tail : float, default 0.0
        FOLD-SE's long-tail pruning, off by default as in FOLD-R++ and the
        reference FOLD-RM: a rule or an exception must cover at least this share
        of the training rows (divided by K - 1 for K classes, and above 0 a
        multi-class rule must decide 3 rows of its class and its exceptions cover a
        row a literal), as in :class:`FoldSE`.
        The knob that trades accuracy for a shorter program, most of all on a
        large many-class table (docs: multi-class benchmarks).
        ``FoldRpp(tail=t, max_rules=m)`` learns what ``FoldSE(heuristic="ig",
        negated_comparisons=False, tail=t, max_rules=m)`` learns.
    max_rules : int or None, default 32
        The most rules of a multi-class program, exceptions counted, as in
        :class:`FoldSE` (whose default, 20, keeps its programs the shorter): FOLD's
        whole list on avila is 199 rules at accuracy 0.866, held 27.4 at 0.699
        (the reference FOLD-RM prints 31 and leaves 63% of the rows unanswered).  None:
        FOLD-RM's whole list.
    """

    _fewer_rules = ("a tail above 0 (the share of the rows a rule must cover; FoldRpp's "
                    "default 0 prunes nothing) learns fewer, broader rules, and FoldSE "
                    "fewer still")

    # FOLD-R++'s programs saved before it had a tail
    _quiet_default = (*LogicClassifier._quiet_default, ("tail", 0))
    tail = 0.0      # a FoldRpp pickled before it had a tail: get_params, clone, refit

    def __init__(self, ratio=0.5, max_depth=None, positive=None, kinds=None, missing=None,
                 target=None, fixed_rules=None, background=None,
                 class_weight=None, max_bins=None, tail=0.0, max_rules=32):
        self.ratio = ratio
        self.tail = tail
        self.max_depth = max_depth
        self.positive = positive
        self.kinds = kinds
        self.missing = missing
        self.target = target
        self.fixed_rules = fixed_rules
        self.background = background
        self.class_weight = class_weight
        self.max_bins = max_bins
        self.max_rules = max_rules

    def _settings(self):
        _check_ratio(self.ratio)
        _check_count("max_depth", self.max_depth, 0)
        _check_tail(self.tail)
        _check_count("max_rules", self.max_rules, 1)
        return IG, False, self.tail


def is_dask_frame(X, series=False) -> bool:
    """A Dask DataFrame, or a Dask Series (told by its type's module, without importing
    dask)."""
    kind = type(X)
    return kind.__module__.startswith("dask") and kind.__name__ == (
        "Series" if series else "DataFrame")


def _literal(lit: _Lit, table, names: list):
    """The aspml Literal of a search literal."""
    name = names[lit.feature]
    if table[name].kind == "boolean":
        return Flag(name, lit.op == EQ)
    if lit.op in (EQ, NE):
        return Compare(name, _OPS[lit.op], table[name].categories[int(lit.value)])
    value = normalize_value(lit.value)
    if lit.op in (NOT_LE, NOT_GT):
        return NotCompare(name, _OPS[lit.op], value)
    return Compare(name, _OPS[lit.op], value)


def _search_literal(lit, search: _Search) -> _Lit | None:
    """The search literal of an aspml literal (:func:`_literal` read backwards), or None
    for one the search never proposes (intervals, value sets, ``<``, ``>=``, ``not abK``).
    An expert rule's literals are banned from its exceptions, as a rule's own are."""
    if lit.feature is None or lit.feature not in search.names:
        return None
    j = search.names.index(lit.feature)
    col = search.cols[j]
    if isinstance(lit, Flag):
        return _Lit(j, EQ if lit.positive else NE, 0.0)
    if isinstance(lit, NotCompare):
        return _Lit(j, NOT_LE if lit.op == "<=" else NOT_GT, float(lit.value))
    if not isinstance(lit, Compare):
        return None
    if lit.op in ("==", "!="):
        code = col.code_of(lit.value) if isinstance(lit.value, str) else -1
        return _Lit(j, EQ if lit.op == "==" else NE, float(code)) if code >= 0 else None
    ops = {"<=": LE, ">": GT}
    return _Lit(j, ops[lit.op], float(lit.value)) if lit.op in ops else None


def _plain_comparisons(rules: list, table) -> list:
    """``not (f > t)`` as ``f <= t`` (and ``not (f <= t)`` as ``f > t``) where f is numeric
    and never missing in training: there the two hold on the same training rows, and
    the plain comparison is the one a person reads as meant.

    They differ only on a row without a number for f, which training never showed:
    the program then says what every comparison says of a missing value, that it
    does not hold (a rule needs a number to fire).  Where f was missing in some
    training row, the negated form stays: it holds on the missing values, and the
    learner chose it for that.  The body is simplified again (:func:`_simplify`).
    """

    def plain(lit):
        if not isinstance(lit, NotCompare):
            return lit
        col = table[lit.feature]
        if col.kind != "numeric" or col.missing.any():
            return lit
        return Compare(lit.feature, "<=" if lit.op == ">" else ">", lit.value)

    # a plain comparison may now repeat another on its feature (pulse <= 120 AND pulse <= 99)
    return [replace(r, body=tuple(_simplify(list(dict.fromkeys(plain(lit) for lit in r.body)))))
            if any(isinstance(lit, NotCompare) for lit in r.body) else r for r in rules]


# With a tail (FoldSE's default), a rule of a multi-class decision list is kept when it
# decides at least this many rows of its class, or covers that many and decides half of
# them (weighted: this many times the least row weight), besides the tail's bar.
# Measured on 22 held-out multi-class tables (docs, real tables): 23.7 -> 18.8 rules a
# table at the same mean accuracy; the shared tables the same but ecoli (21.2 -> 15.2
# rules, macro-F1 0.605 -> 0.641).  Its exceptions keep the tail's bar (at 3 rows they
# cost wine 0.023 of accuracy and anneal's 8-row class its rules).
MIN_DECIDED = 3
# held to ``max_rules``, a rule of a decision list must cover this share of the rows no
# rule decides yet, spread over the rules the budget has left (FoldSE._learn_multiclass)
BUDGET_SHARE = 0.1


def _decided_bar_binds(search) -> bool:
    """Whether a multi-class search's MIN_DECIDED bar (``min_kept``) is above its tail's
    own (``min_rule``, at least one row): what refused a small class, then, is not what a
    lower tail lifts."""
    return search.min_kept > max(search.min_rule, search.least)


def tail_bar(tail: float, rows: float, others: int = 1, weighted: bool = False) -> float:
    """The rows (or weight) a rule must cover: ``tail x rows / others`` less rounding
    (1e-9, relative), rounded up to whole rows; when weighted, that weight itself.  The
    tolerance keeps the order in which weights were added (row by row, or partition by
    partition) from moving the bar, and a product one ulp above a whole number (0.07 x
    100 = 7.000000000000001) from asking for a row more.  A weight is not rounded up:
    weights that sum to 1 would make the bar the whole table's weight (nothing learned).
    Whole weights equal repeated rows exactly: their sums are whole, and a whole total
    reaches the weighted bar exactly when it reaches the rounded-up one."""
    bar = tail * rows / others
    bar -= 1e-9 * abs(bar)
    return bar if weighted else math.ceil(bar)


def _most(totals: np.ndarray) -> int:
    """The class of the largest total; totals within rounding (1e-9, relative) of it tie,
    and the first of them wins ("balanced" class weights make every class's total the
    same, and the order of a float sum must not choose among them): the numba loop's
    own choice (:func:`aspml.kernels.fold_loop.most`)."""
    return int(fold_loop.most(np.asarray(totals, dtype=np.float64)))


def _check_max_bins(max_bins):
    if max_bins is not None and not (isinstance(max_bins, (int, np.integer))
                                     and not isinstance(max_bins, bool) and max_bins >= 2):
        raise ValueError(f"max_bins must be an integer >= 2 or None, got {max_bins!r}")
    return max_bins


def _check_count(name: str, value, least: int) -> None:
    """A parameter that is None or a whole number (not a bool) of at least ``least``."""
    if value is not None and not (isinstance(value, (int, np.integer))
                                  and not isinstance(value, bool) and value >= least):
        raise ValueError(f"{name} must be None or a whole number >= {least}, got {value!r}")


def _check_ratio(ratio) -> None:
    if not (is_real(ratio, finite=False) and ratio >= 0):     # inf: stop after one literal
        raise ValueError(f"ratio must be a number >= 0, got {ratio!r}")


def _n_rules(rule: _Rule) -> int:
    """A learned rule's rules as the program prints them: itself and its exceptions,
    once :func:`_fold_single_literal_exceptions` (as :meth:`FoldSE._program` calls it)
    has folded an exception of one literal into its rule."""
    def size(r: _Rule) -> int:
        return 1 + sum(size(e) for e in r.exceptions)
    return size(_fold_single_literal_exceptions(rule))


def _kept_end(labels: list, default: int) -> int:
    """How many of a decision list's rules the program keeps: its trailing rules of the
    default class are dropped (without them the same rows get the same class)."""
    end = len(labels)
    while end and labels[end - 1] == default:
        end -= 1
    return end


def _check_tail(tail) -> None:
    if not (is_real(tail) and 0 <= tail < 1):
        raise ValueError(f"tail must be in [0, 1), got {tail!r}")
