"""LIBRE: bottom-up Boolean rule ensembles (Mita et al., AISTATS 2020).

1. Discretize: ChiMerge on numbers (``discretization_threshold``), one bin
   per category, a bin for missing values.
2. Each of ``n_estimators`` weak learners takes a random subset of at most
   ``max_features`` features, writes the distinct records as inverse one-hot
   bit strings and runs FindBoundary (``aspml.kernels.boundary``) with the H1
   or H2 heuristic.  Weak learners are independent and run through joblib
   (``n_jobs``; ``joblib.parallel_backend("dask")`` sends them to a cluster).
3. The union of their boundary points, and each point's hull (the gaps
   between its allowed numeric bins filled, which prints without an exception
   rule), is trimmed by greedy weighted set
   cover: weight ``alpha * (positives) - (1 - alpha) * (negatives)`` counting
   the rows no chosen point covers yet (§3.3: covered samples are removed and
   the weights recalculated), ties to the point with more zeros (the more
   general rule), optionally after keeping the ``top_k`` candidates by
   exclusiveness and local support; ``max_rules`` caps the result ("libre 3"
   is ``max_rules=3``).  The inner folds of the stopping rule also choose
   ``alpha`` among the values given (default 0.7 and 0.5), as the paper's
   cross-validated tuning does.
4. Each point becomes a rule with interval and value-set conditions.  A
   condition that admits the missing-value bin as well as some values is
   written exactly as ``not abK`` with ``abK`` holding for the excluded values.
   So is a condition on a feature with no missing value in training that
   excludes fewer values than it admits, when it admits more than ten
   (``NOT ab3`` with ``ab3: country in {A, B}`` rather than thirty countries;
   an unbounded hull with gaps is just the gaps): the same on every training
   row, shorter to read, and it admits a value never seen in training, where
   the value-set form would refuse it.  A set of up to ten values is written
   as it is: the complement would cost a printed rule to save a few values.
"""

from __future__ import annotations

import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction

import joblib
import numpy as np

from ..data.discretize import bins_of, chimerge, chimerge_codes
from ..errors import AspmlWarning
from ..kernels.boundary import weak_learner_points
from ..kernels.bitset import pack, unpack
from ..kernels.cover import greedy_cover, row_sets, rule_counts, rule_masks
from ..logic.model import Compare, Flag, InSet, Interval, NotAtom, Program, Rule
from ..logic.values import normalize_value
from ._base import LogicClassifier, is_real, is_whole, positive_share, share_percent
from ._threads import free_threads, usable_cores


@dataclass(frozen=True)
class _Bin:
    kind: str                  # "num" (lo, hi), "cat" (value or group), "missing", "flag" (value)
    lo: float | None = None
    hi: float | None = None
    value: object = None
    group: tuple = ()          # "cat": the values of a group of categories (max_categories)

    def values(self) -> tuple:
        """The category values a "cat" bin stands for."""
        return self.group or (self.value,)


# The positive rate that orders categories before they are grouped is shrunk towards
# the column's rate by this many rows (an m-estimate), so a value seen once or twice
# sits in the middle of the order, not at an end next to the values that matter.
_RATE_PRIOR_ROWS = 10.0


# ChiMerge's smallest bin, in rows: once no pair of bins is below the threshold, a bin of
# fewer rows merges with a neighbour first (aspml.kernels.chimerge.merge).  Kerber's test
# cannot judge a bin of a row or two, and one row of the rarer class between long runs of
# the other scores far above the threshold: on a rare class of pure noise (a new-user
# trial: 60 random "fraud" rows of 3,000) such rows became bins and the rules picked them
# out, and the inner folds, whose bins saw every training row, scored them well.
# Measured on the LIBRE benchmark's tables (docs: LIBRE), 3 against none: the same F1 on
# australian, heart, tictactoe, breastw and adult (20.6 rules against 21.8), liver
# 0.600 -> 0.607, sonar 0.687 -> 0.701 (9.6 rules against 11.8), credit_card 0.515 ->
# 0.517; over random_state 0-3 no table lower.  5 cost heart 0.026 on seed 0.
MIN_BIN_ROWS = 3


def _category_groups(code: np.ndarray, n_categories: int, y: np.ndarray, threshold: float,
                     max_groups: int, weights=None) -> np.ndarray:
    """Each category's group: ChiMerge over the categories ordered by their positive rate.

    ``code`` holds each row's category (-1: none).  The categories are ranked by
    their (shrunk, see ``_RATE_PRIOR_ROWS``) positive rate, the categories seen on one
    row together at the rate of all their rows, and ChiMerge cuts the
    ranks as it cuts a number, into at most ``max_groups`` runs; adjacent
    categories whose class counts do not differ significantly end up together
    (:func:`_rate_groups`).

    Then a permutation test of that whole procedure: the groups' chi-square against the
    groups the same procedure finds when the rows are shuffled among the categories
    (:data:`PERMUTATIONS` times).  Ranked by their rates, the categories of a column of
    random ids stand in the order of their rows' labels by construction, and ChiMerge
    finds groups "of a high rate" that hold on the training rows only (a new-user trial:
    500 random ids beside a number, held-out F1 0.28, 0.63 without them); shuffled
    rows give groups as good, and the column is one group (no rule can use it).  The
    grouping itself fits its rows (on 2,000 shuffled rows of a 400-value column its
    groups' chi-square is about 350), so a weak signal in a few of many values can fail
    the test (a review: 20 of 400 values at a rate of 0.6 against 0.2 over 2,000 rows,
    held-out F1 0.02 with the test, 0.24 grouped anyway; docs, LIBRE benchmarks).
    Ranking on half the rows and testing on the other half was no better there.
    """
    ok = code >= 0
    c, t = code[ok], np.asarray(y, dtype=bool)[ok]
    w = np.ones(len(c)) if weights is None else np.asarray(weights, dtype=np.float64)[ok]
    # the categories of one row, the same in every shuffle; under whole-number weights,
    # of one copy of a row (so that they are repeated rows), under others (balanced class
    # weights) still of one row: a total weight of exactly 1 is an accident of rounding
    copies = weights is not None and bool(np.all(w == np.floor(w)))
    single = np.bincount(c, weights=w if copies else None, minlength=n_categories) == 1

    def grouped(t, w):
        pos = np.bincount(c, weights=t * w, minlength=n_categories)
        every = np.bincount(c, weights=w, minlength=n_categories)
        groups = _rate_groups(pos, every, single, threshold, max_groups)
        g_pos = np.bincount(groups, weights=pos)
        g_all = np.bincount(groups, weights=every)
        return groups, _chi_square(g_pos, g_all, pos.sum() / max(every.sum(), 1e-300))

    groups, observed = grouped(t, w)
    if groups.max() == 0 or not t.any() or t.all():
        return np.zeros(n_categories, dtype=np.int64)
    from scipy.stats import chi2
    # at a level finer than the shufflings can tell (threshold above 6.6: 1 in 100), no
    # shuffling may reach the observed groups' chi-square
    level = max(float(chi2.sf(threshold, 1)), 1 / (1 + PERMUTATIONS))
    allowed = int(np.floor(level * (1 + PERMUTATIONS) + 1e-9)) - 1     # shuffles as good
    # the rows in one order whatever order they came in, and a generator of their own
    # seeded by the counts: the same column gives the same groups (no global state)
    order = np.lexsort((w, t, c))
    c, t, w = c[order], t[order], w[order]
    rng = np.random.default_rng([len(c), n_categories, int(t.sum())])
    above = 0
    for _ in range(PERMUTATIONS):
        shuffle = rng.permutation(len(c))
        above += grouped(t[shuffle], w[shuffle])[1] >= observed
        if above > allowed:
            return np.zeros(n_categories, dtype=np.int64)
    return groups


def _chi_square(pos, every, base: float) -> float:
    """Pearson's chi-square of a class against bins: each bin's (weighted) positives
    ``pos`` of its rows ``every`` against ``base``, the class's share of all of them."""
    return float(((pos - base * every) ** 2
                  / np.maximum(every * base * (1 - base), 1e-300)).sum())


# Shufflings of the rows among a many-valued column's categories that its groups must
# beat (:func:`_category_groups`).
PERMUTATIONS = 99


def _rate_groups(pos, every, single, threshold: float, max_groups: int) -> np.ndarray:
    """The groups of :func:`_category_groups` from each category's positive and total
    (weighted) rows: ranks by the shrunk rate (``single``: the categories of one row,
    ranked at their pooled rate), then ChiMerge over the ranks with each category's
    classes as two weighted records (as many as its rows: the same cuts)."""
    base = pos.sum() / max(every.sum(), 1e-300)
    rate = (pos + _RATE_PRIOR_ROWS * base) / (every + _RATE_PRIOR_ROWS)
    # the values seen on one row share one rate, that of all their rows: ranked by their
    # own, each would stand where its row's label puts it, and the groups would split
    # those rows perfectly (an identifier column: rules that fit every training row and
    # say nothing of a new one)
    if single.any():
        rate[single] = (pos[single].sum() + _RATE_PRIOR_ROWS * base) / (every[single].sum()
                                                                         + _RATE_PRIOR_ROWS)
    rank = np.unique(rate, return_inverse=True)[1].astype(np.int64)   # equal rates, one rank
    seen = np.flatnonzero(every > 0)
    values = np.concatenate([rank[seen], rank[seen]]).astype(np.float64)
    classes = np.concatenate([np.ones(len(seen), dtype=bool), np.zeros(len(seen), dtype=bool)])
    counts = np.concatenate([pos[seen], every[seen] - pos[seen]])
    keep = counts > 0
    cuts = chimerge(values[keep], classes[keep], threshold, max_groups, counts[keep],
                    MIN_BIN_ROWS)
    return bins_of(rank.astype(float), cuts)


def _feature_bins(col, y: np.ndarray, threshold: float, cuts=None, max_bins=None,
                  max_categories=None, weights=None, rows=None):
    """Bins of one column and each row's bin index (``cuts``: given cut points, else ChiMerge).

    A column of more than ``max_categories`` categories gets one bin per group of
    categories (:func:`_category_groups`, at most ``max_bins`` groups when given,
    else ``max_categories``) instead of one per category.

    ``rows``: the bins are made from these rows' values and labels alone (an inner
    fold's training rows), and every row is coded in them; None: from every row.
    """
    n = len(col.num)
    code = np.full(n, -1, dtype=np.int64)
    bins: list[_Bin] = []
    if col.kind == "boolean":
        holds = col.is_num & (col.num == 1.0)
        return [_Bin("flag", value=True), _Bin("flag", value=False)], np.where(holds, 0, 1)
    some = slice(None) if rows is None else rows
    w = None if weights is None else weights[some]
    if col.is_num.any():
        values = np.where(col.is_num, col.num, np.nan)
        if cuts is None and rows is None:
            cuts, code = chimerge_codes(values, y, threshold, max_bins, weights, MIN_BIN_ROWS)
        else:
            cuts = (chimerge(values[rows], y[rows], threshold, max_bins, w, MIN_BIN_ROWS)
                    if cuts is None else np.asarray(sorted(cuts), dtype=float))
            code = bins_of(values, cuts)
        edges = [None, *cuts.tolist(), None]
        bins += [_Bin("num", edges[k], edges[k + 1]) for k in range(len(cuts) + 1)]
    cats = list(col.categories)
    if max_categories is not None and len(cats) > max_categories:
        limit = max_categories if max_bins is None else min(max_bins, max_categories)
        group = _category_groups(col.code[some], len(cats), y[some], threshold, limit, w)
        known = col.code >= 0
        if rows is not None:
            # a value the fold's training rows never hold is in no group of the fold, as
            # a value unseen in training is in no value set of the program (ranked at the
            # base rate it joined a group: a review, 36% of an id column's held-out rows)
            seen = np.zeros(len(cats), dtype=bool)
            seen[col.code[rows][col.code[rows] >= 0]] = True
            known &= seen[np.maximum(col.code, 0)]
        code = np.where(known, len(bins) + group[np.maximum(col.code, 0)], code)
        bins += [_Bin("cat", group=tuple(cats[i] for i in np.flatnonzero(group == g)))
                 for g in range(int(group.max()) + 1)]
    else:
        code = np.where(col.code >= 0, len(bins) + col.code, code)
        bins += [_Bin("cat", value=value) for value in cats]
    if (code < 0).any():
        code[code < 0] = len(bins)
        bins.append(_Bin("missing"))
    return bins, code


def _one_group(bins, col) -> bool:
    """Whether a column's texts are one group (:func:`_category_groups`), and its numbers,
    if any, fewer: no rule can use it (a review: an id column of a few numbers beside
    thousands of texts still printed "in {every training value}")."""
    return (sum(1 for b in bins if b.group) == 1
            and int(col.is_num.sum()) < int((col.code >= 0).sum()))


def _one_value(col) -> bool:
    """Whether a column holds the same value on every row (missing counting as a value);
    one pass over each array, no sort."""
    def kinds(a) -> int:            # no value, one value, or more
        return 0 if a.size == 0 else 1 if a.min() == a.max() else 2
    return kinds(col.num[col.is_num]) + kinds(col.code[col.code >= 0]) \
        + bool(col.missing.any()) <= 1


def _weak_learner(codes: np.ndarray, rows: np.ndarray, subset: np.ndarray, widths: np.ndarray,
                  y: np.ndarray, heuristic: int, weights=None, odds=1.0):
    """One weak learner on the columns ``subset`` of the rows ``rows`` (all when
    empty): its boundary points, each as the bins it allows (bool[points, bins]:
    a point's zeros).

    ``codes`` holds each row's bin per column; the inverse one-hot record of a
    row has its zeros at ``offset + bin``.  Distinct records are learned from,
    each positive when its positives outweigh ``odds`` times its negatives
    (:func:`_record_odds`).  One numba call without the GIL
    (:func:`weak_learner_points`), so that threads run weak learners side by side.
    """
    return weak_learner_points(codes, rows, subset, widths, y, heuristic,
                               np.empty(0) if weights is None else weights, float(odds))


# A record (a cell of a weak learner's features) is positive when its positives' share
# is more than RECORD_LIFT times the training rows' (weighted), or than half: the
# majority label for a class of a quarter of the rows or more, a lower bar for a rare
# class.  With the majority alone, a rare class whose rules hold at a precision below
# one half (readmission at 45% in a few cells, against 1.5% elsewhere) has no positive
# record there: the weak learners' points were slivers of pure cells, 20-30 rules at
# held-out F1 0.38 where the three true rules score 0.58; with the lower bar, 4-8
# rules at 0.44 (a new-user trial's table; docs, LIBRE benchmarks).
RECORD_LIFT = 2.0


# The fallback's balanced step (binary programs): a rule pays its way when its precision
# is this many times the base rate, at most half (:meth:`Libre._fallback`), as a record
# of the ensemble must be (RECORD_LIFT)
FALLBACK_LIFT = 2.0


def _record_odds(y, weights=None) -> float:
    """The odds a weak learner's record must beat to be positive (its positives'
    weight over its negatives'): the share ``min(0.5, RECORD_LIFT * share)`` of the
    rows ``y`` (with ``weights``) as odds; 1 for a class of a quarter of the rows or
    more."""
    bar = RECORD_LIFT * positive_share(y, weights)
    bar = 0.5 if bar >= 0.5 - 1e-12 else bar        # a quarter up to rounding: the majority
    return bar / (1.0 - bar)


class Libre(LogicClassifier):
    """LIBRE rule ensembles, strong where the positive class is rare.

    Parameters
    ----------
    n_estimators : int, default 20
    max_features : int, default 5
        Features per weak learner.  With several learners each takes a random
        *proper* subset: on a table of 3 to ``max_features`` features, all
        but one (else every learner would be the same base learner, which the
        paper finds overfits, and the ensemble would be one learner).  A table
        of two features keeps both (a learner on one feature alone often
        learns the always-true rule); ``n_estimators=1`` sees all of them on
        such a table (the paper's base method; on a wider one it draws
        ``max_features`` of them: give it the number of features to see every
        one).  The paper draws the features uniformly, on
        tables of up to 45 of them; on a wider table, where two given features
        meet in one of the learners with a chance below 25% (a note says so),
        a feature is drawn the more often the more it alone tells the classes
        apart (a chi-square test of its values against the class), a quarter of
        each draw's chances spread evenly: a feature of signal among hundreds of
        noise is in most learners, not in none.
    heuristic : {"H1", "H2"}, default "H1"
    alpha : "auto", float or sequence of floats, default "auto"
        Weight of covered positives against covered negatives in the set cover
        (a point pays its way when its precision is above ``1 - alpha``).
        Several values: with the cross-validated stopping (``"cv"``,
        ``"cv-best"``) each gets its own set cover and the inner folds choose,
        as the paper tunes alpha in {.5, .7, .9} by cross-validation (its §4):
        the one of best validation F1 or, among those as good (the stopping
        rule's bar), the one of fewest printed rules.  Without inner folds the
        first is used.  ``"auto"``: 0.7 and 0.5, and for a rare positive class
        also ``1 - share`` (share: the positives' share of the training rows,
        weighted), when that is above 0.7: a point then pays when its precision
        beats the base rate.  On a class of 30% to 50% of the rows 0.7 lets a
        point less precise than the base rate pay, and F1 may choose rules that
        call most rows positive (a real table of 43% positives: one rule true on
        88% of the rows, accuracy 0.50); the fit then says so, and ``alpha=0.5``
        asks each rule to beat the base rate (0.68 there, with more rules: not
        the default, as on a weak signal spread over several numbers it took 35
        to 86 rules; docs, LIBRE benchmarks).  0.5 suits tables whose positives need many rules
        (sonar: held-out F1 0.694 against 0.644 with 0.7 alone); a fixed 0.9 is
        left out: on small tables the noisy inner folds pick it too often
        (heart, sonar 1-3 rules, F1 0.70 and 0.63).  ``1 - share`` is for the
        rare class with a weak signal, where no point of precision above 0.3 is
        large: with 0.7 and 0.5 alone a synthetic 80,000-row table of 14%
        positives took 332 printed rules at held-out F1 0.073, below calling
        every row positive (0.247); with "auto", 2 rules at 0.265 (docs, LIBRE
        benchmarks).
    hull_candidates : {"cv", True, False}, default "cv"
        Whether each boundary point's hull (the gaps between its numeric bins
        filled: one printed rule instead of one per gap) also enters the set
        cover beside the point.  ``"cv"``: the inner folds score set covers with
        the hulls and of the points alone, and the points alone are used only
        when their best inner score (mean F1 less the price of its printed
        rules) beats the hulls' by ``HULL_GAIN`` (0.005, the stopping bar's cap),
        compared within the same choice of the categorical learner's rules;
        without inner folds, the hulls.  The hulls keep a cover from printing an
        exception rule per gap (credit_card over random_state 0-3: F1 0.517 with
        5.6 printed rules, 0.482 with 40.6 from the points alone), while on some
        tables the gaps hold (sonar: 0.712 with ``"cv"``, 0.695 with the hulls
        always, the default before; docs, LIBRE benchmarks).
    categorical_learner : {"cv", True, False}, default "cv"
        One more weak learner over every categorical (and Boolean) feature, for
        tables of more of them than ``max_features`` (a column whose values were
        grouped, ``max_categories``, does not count): a concept spread over many
        categorical features (tictactoe's eight lines of three cells; krkp's 36
        chess features) needs them in one learner, which random subsets of five
        seldom hold (tictactoe F1 0.952 with 10.4 printed rules, krkp 0.819: the
        paper reaches 1.00 on tictactoe).  ``"cv"``: its rules join the set cover
        only when the inner folds score them clearly better than the ensemble
        alone (by ``CATEGORICAL_GAIN``, 0.01 of F1: numbers are not used, a learner
        over many of them fits its records closely; without inner folds, never).  True:
        always; False: the paper's ensemble alone.
    discretization_threshold : float, default 6
        ChiMerge's chi-square threshold (the paper tries 6, 4.6 and 4, and
        finds 6 a good value in its Appendix D).
    top_k : int or None
        Keep only the best ``top_k`` candidate rules (by exclusiveness, then
        local support) before the set cover.  Off by default: it speeds up a
        cover of many candidates, but it keeps the pure, narrow points and drops
        the broad ones (measured: credit_card F1 0.519 with 7 rules without it,
        0.155 with 553 rules with ``top_k=500``; README, "LIBRE").
    max_rules : int or None
        At most this many rules for the target ("libre 3": 3), the paper's count;
        the exception rules that write a value set with gaps (``NOT abK``) come
        with them and are not counted.
    n_jobs : int, default 1
        Weak learners run in parallel through joblib.  With one job, columns of
        20,000 rows or more are still binned side by side on the cores no other
        process is using (as FOLD's parallel kernels).
    random_state : int, Generator or None
    max_bins : int or None, default 10
        ChiMerge's other stopping rule (Kerber's maximum number of intervals):
        merging goes on past the threshold until a feature has at most this
        many bins.  Without it a noisy number (adult's fnlwgt) keeps hundreds
        of bins, and boundary points over them become long, scattered rules.
    early_stopping : {"cv", "cv-best", "train", False}, default "cv"
        The set cover's stopping condition (the paper leaves it open).
        ``"cv"``: the number of set-cover steps is chosen by an inner
        stratified 3-fold split of the training data: the smallest number
        whose mean validation F1 is within one standard error of the best
        (the folds' spread at the best step over sqrt(3); at least ``0.002``,
        at most ``0.005``), F1 less 0.0001 a printed rule, exception rules
        included (a rule must pay for itself: 100 more printed rules must gain
        0.01), and past 20 printed rules more for each rule the longer the program
        (the 40th must gain 0.0004: a program of 40 costs 0.008), then the set
        cover on all the training data stops there.  The greedy
        cover ends with many small rules that fit the training data only, and
        on a large table each still adds a sliver of F1: this cuts them.
        ``"cv-best"``: the same within ``0.002`` of the best F1, unpriced (the
        default before; it keeps the tail on large tables).  ``"train"`` (or True):
        stop as soon as a rule would not raise the training F1.  False: go on
        while a rule has positive weight (the paper's setting in its Appendix C).
    max_categories : int or None, default 64
        A categorical column with more distinct values than this gets its values
        grouped before the boundary search: ordered by their positive rate and
        merged by ChiMerge (``discretization_threshold``, at most ``max_bins``
        groups, or ``max_categories`` without it) as a number's values are, with an ``AspmlWarning`` naming the
        columns.  One bin per value of a column of hundreds of values makes every
        weak learner search a lattice of that many bits (minutes per fit); the
        rules then name a group's values as one value set.  A column whose values
        tell the classes apart no better than chance (a permutation test) is one
        group: no rule uses it.  ``None``: one bin
        per value, whatever their number.
    cut_points : dict or None
        ``{feature: [c1, c2, ...]}`` fixes a numeric feature's bins to
        ``(-inf, c1), [c1, c2), ..., [ck, inf)`` instead of ChiMerge.
    positive, kinds, missing, target : as for every aspml learner (see ``FoldSE``):
        the class the rules describe, column kinds, missing-value tokens, the
        target predicate's name.
    class_order : {"frequency", "precision"}, default "frequency"
        Multi-class only (three or more classes, no ``positive``): one binary
        rule set is learned per class but the largest, which is the default, each
        on the rows the classes before it leave; the classes come from the rarest
        up (``"frequency"``) or in the order of their training precision
        (``"precision"``, surest first, from a first fit of each class on every
        row).  See the guide's Multi-class learning.
    class_weight : None, "balanced" or dict, default None
        Weights of the classes, scikit-learn's convention: ``"balanced"`` gives
        each class ``n_samples / (n_classes * its count)``; a dict maps a class
        to its weight (others 1).  A row counts with its class weight times its
        ``sample_weight`` (``fit``), as that many copies of it would.
        Weighted rows weigh in ChiMerge, the weak learners' records, the set
        cover and its stopping F1.

    Attributes
    ----------
    program_ : Program
        The learned rules (intervals, value sets, exceptions for gaps).
    n_candidates_ : int
        Distinct boundary points the weak learners found (the set cover's input).
    n_cover_steps_ : int or None
        Where the cross-validated stopping point cut the set cover (None without it).
    alpha_, hull_candidates_ : float, bool
        The set cover's alpha and whether hulls were candidates: the inner folds'
        choice among ``alpha`` (and ``hull_candidates="cv"``), or the first.
    categorical_learner_ : bool
        Whether the rules of the learner over every categorical feature were
        candidates of the chosen set cover (``categorical_learner``; under "cv" it
        may have run and been left out).
    """

    _not_provenance = ("kinds", "missing", "cut_points", "n_jobs")
    _multiclass_only = ("class_order",)
    # the learner over the categorical features at its default: saved files as before
    _quiet_default = (*LogicClassifier._quiet_default, ("categorical_learner", "cv"))
    _suggests_balanced = False
    _notes_always = False
    _fewer_rules = ("max_rules=N keeps at most N rules for each class (their exception "
                    "rules aside)")
    _weights_as_copies = "its bins (ChiMerge's chi-square and 3-row smallest bin)"

    def __init__(self, n_estimators=20, max_features=5, heuristic="H1", alpha="auto",
                 discretization_threshold=6.0, top_k=None, max_rules=None, n_jobs=1,
                 random_state=None, max_bins=10, early_stopping="cv", cut_points=None,
                 positive=None, kinds=None, missing=None, target=None, max_categories=64,
                 background=None, class_weight=None,
                 class_order="frequency", hull_candidates="cv", categorical_learner="cv"):
        self.n_estimators = n_estimators
        self.max_features = max_features
        self.heuristic = heuristic
        self.alpha = alpha
        self.discretization_threshold = discretization_threshold
        self.top_k = top_k
        self.max_rules = max_rules
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.max_bins = max_bins
        self.early_stopping = early_stopping
        self.cut_points = cut_points
        self.max_categories = max_categories
        self.positive = positive
        self.kinds = kinds
        self.missing = missing
        self.target = target
        self.background = background
        self.class_weight = class_weight
        self.class_order = class_order
        self.hull_candidates = hull_candidates
        self.categorical_learner = categorical_learner

    def _check(self):
        if self.heuristic not in ("H1", "H2"):
            raise ValueError(f"heuristic must be 'H1' or 'H2', got {self.heuristic!r}")
        for name in ("n_estimators", "max_features"):
            v = getattr(self, name)
            if not (is_whole(v) and v >= 1):
                raise ValueError(f"{name} must be a positive integer, got {v!r}")
        alphas = self.alpha if isinstance(self.alpha, (tuple, list)) else [self.alpha]
        if isinstance(self.alpha, str) and self.alpha == "auto":
            alphas = AUTO_ALPHAS
        if not alphas or not all(is_real(a) and 0 <= a <= 1 for a in alphas):
            raise ValueError(f"alpha must be a number in [0, 1] or a sequence of them, got "
                             f"{self.alpha!r} (or 'auto')")
        v = self.categorical_learner
        if not (isinstance(v, (bool, np.bool_)) or (isinstance(v, str) and v == "cv")):
            raise ValueError(f"categorical_learner must be 'cv', True or False, got {v!r}")
        if self.hull_candidates not in ("cv", True, False):
            raise ValueError(f"hull_candidates must be 'cv', True or False, got "
                             f"{self.hull_candidates!r}")
        if not (is_real(self.discretization_threshold, finite=False)
                and self.discretization_threshold >= 0):
            raise ValueError(f"discretization_threshold must be a number >= 0, got "
                             f"{self.discretization_threshold!r}")
        if self.max_bins is not None and not (is_whole(self.max_bins) and self.max_bins >= 2):
            raise ValueError(f"max_bins must be None or an integer >= 2, got {self.max_bins!r}")
        for name in ("top_k", "max_rules", "max_categories"):
            v = getattr(self, name)
            if v is not None and not (is_whole(v) and v >= 1):
                raise ValueError(f"{name} must be None or a positive integer, got {v!r}")
        v = self.n_jobs
        if v is not None and not (is_whole(v) and v != 0):
            raise ValueError(f"n_jobs must be None or a nonzero integer (-1: every core), got {v!r}")
        if self.early_stopping not in (False, True, "train", "cv", "cv-best"):
            raise ValueError(f"early_stopping must be 'cv', 'cv-best', 'train' (or True) or "
                             f"False, got "
                             f"{self.early_stopping!r}")

    def _learn(self, table, y):
        self._check()
        with _Pool(self.n_jobs) as pool:             # one pool for the whole fit
            return self._learn_in(pool, table, y)

    def _learn_in(self, pool, table, y):
        names = list(self.schema_.names)
        cuts = dict(self.cut_points or {})
        unknown = [f for f in cuts if f not in names]
        if unknown:
            raise ValueError(f"cut_points names unknown feature(s) {unknown}")
        threshold = float(self.discretization_threshold)
        cap = self.max_categories
        weights = getattr(self, "_weight", None)     # None: every row counts once

        def binned_on(rows, now=False):
            """Every column's bins made from the rows ``rows`` (None: every row) and every
            row's bin in them, a column each.  ``now``: asked from inside the weak
            learners' task generator, where a pool's workers are busy with the tasks
            before: binned in this thread (or on free cores when there is no pool)."""
            tasks = [(table[n], y, threshold, cuts.get(n), self.max_bins, cap, weights, rows)
                     for n in names]
            out = (pool.map_columns(_feature_bins, tasks, table.n_rows)
                   if not now or pool.idle else [_feature_bins(*task) for task in tasks])
            return ([b for b, _ in out],
                    np.stack([c for _, c in out], axis=1).astype(np.int64, copy=False))

        bins, codes = binned_on(None)
        grouped = [f"{n} ({len(table[n].categories)} values into {k} groups)" if k > 1 else
                   f"{n} ({len(table[n].categories)} values, one group: they tell the classes "
                   "apart no better than shuffled rows)"
                   for n, b in zip(names, bins) if any(x.group for x in b)
                   for k in [sum(1 for x in b if x.group)]]
        if grouped:
            warnings.warn(f"LIBRE grouped the values of {', '.join(grouped)} by their positive "
                          f"rate, each column having more than max_categories={cap} values "
                          "(None keeps one bin per value, at a cost that grows fast with their "
                          "number)", AspmlWarning, stacklevel=4)
        widths = [len(b) for b in bins]
        rng = self._rng()
        # the features a learner may draw: a column of one value on every row (or missing
        # on every row) tells no row from another, and would only take a learner's slot
        # (a new-user trial: an all-missing column changed the program)
        # nor a column of many values that are one group (they tell the classes apart
        # no better than shuffled rows): its group would print as a set of every training
        # value, which a new row's value is seldom in (a finance trial: a rule "income in
        # {2,762 values}" fired on 472 training rows and 11 held-out rows of 3,000)
        usable = np.array([f for f, n in enumerate(names)
                           if not _one_value(table[n]) and not _one_group(bins[f], table[n])]
                          or range(len(names)), dtype=np.int64)
        k = min(int(self.max_features), len(usable))
        if k == len(usable) > 2 and int(self.n_estimators) > 1:
            k -= 1          # proper subsets: otherwise every learner is the same one
        # the paper draws each learner's features uniformly, on tables of up to 45 of
        # them; on a wide one, where two given features seldom meet in a learner
        # (PAIR_CHANCE), a feature's chance follows the evidence that it alone tells the
        # classes apart, a quarter spread evenly (_draw_chances).  Uniform, a table of
        # 200 features with one strong among them had that feature in no learner of
        # most fits, and every rule on noise (a held-out-shape trial: accuracy 0.50,
        # "x112 >= -2.043" on 98% of the rows)
        chances = None
        if _pair_chance(len(usable), k, int(self.n_estimators)) < PAIR_CHANCE:
            chances = _draw_chances([table[names[f]] for f in usable], codes[:, usable], y,
                                    weights)
        subsets = [np.sort(usable[rng.choice(len(usable), size=k, replace=False, p=chances)])
                   for _ in range(int(self.n_estimators))]
        heuristic = 1 if self.heuristic == "H1" else 2
        # fold 0: every training row; with CV stopping, the inner folds' training rows,
        # split when first needed (while the pool already runs fold 0's learners).
        # Only the task generator below (and, before it, the binning of the folds under
        # another joblib backend) calls rows_of and fold, and Python runs a generator in
        # one thread at a time; cover(t) reads folds[t] and fold t's bins after fold t's
        # tasks were made.
        split = (self._inner_folds(y, rng) if self.early_stopping in ("cv", "cv-best")
                 else None)
        # one more learner over every categorical (or Boolean) feature, when there are more
        # of them than max_features (categorical_learner); not numbers nor grouped
        # categories, whose many bins such a learner fits closely (sonar fell from 0.687
        # to 0.576 with them, measured when the inner folds shared the fit's bins)
        categorical = np.array([f for f, b in enumerate(bins)
                                if all(x.kind != "num" and not x.group for x in b)],
                               dtype=np.int64)
        mode = self.categorical_learner
        mode = mode if isinstance(mode, str) else bool(mode)
        extra = (len(categorical) > int(self.max_features)
                 and (mode is True or (mode == "cv" and split is not None)))
        # (two categorical features meet in the learner that takes all of them)
        if not extra or len(np.setdiff1d(usable, categorical)) > 1:
            _warn_if_wide(len(usable), k, int(self.n_estimators), chances is not None)
        learners = [*subsets, categorical] if extra else subsets
        n_folds = 1 + (split.get_n_splits() if split is not None else 0)
        folds = [np.zeros(0, dtype=np.int64)]                          # empty: every row

        def rows_of(t):
            if t and len(folds) == 1:
                folds.extend(tr.astype(np.int64) for tr, _ in split.split(np.zeros(len(y)), y))
            return folds[t]

        y_bool = np.ascontiguousarray(y, dtype=bool)
        width_arr = np.asarray(widths, dtype=np.int64)
        layout = _Layout(bins, names, _offsets(widths))
        printed_rules = _Printed(layout)    # the stopping's price: rules printed by k steps
        in_fold = {0: (codes, layout, printed_rules)}

        def fold(t):
            """Fold ``t``'s codes of every row, bit layout and printed-rule counter.  An
            inner fold's bins are made from its training rows alone and its held-out
            rows coded in them: bins made from every row had the held-out labels
            shape them (ChiMerge keeps a bin of a few rows around a positive), and the
            stopping then scored rules on them as if they were new rows (a rare-class
            trial: on a 1% class of pure noise, 9-15 rules and no note)."""
            if t not in in_fold:
                b, c = binned_on(rows_of(t), now=True)
                lay = _Layout(b, names, _offsets([len(x) for x in b]))
                in_fold[t] = (c, lay, _Printed(lay))
            return in_fold[t]
        n_steps = n_folds * len(learners) + 1                           # for progress
        self._report(1, n_steps, "bins")

        alphas = self._alphas(positive_share(y, weights))
        hull_options = [True, False] if self.hull_candidates == "cv" else [self.hull_candidates]
        # (hulls, alpha, categorical learner's rules or not) the inner folds choose
        # among; without them, the first
        whole_options = ([False, True] if mode == "cv" else [True]) if extra else [False]
        variants = [(h, a, w) for w in whole_options for h in hull_options for a in alphas]
        if split is None:
            variants = variants[:1]

        def cover(t, found, wanted=None):
            """A fold's set covers, one per variant: candidates and set-cover order (and
            the masks on every training row); for an inner fold the validation F1 after
            each step instead of the masks.  ``wanted``: the variants to cover (the others
            None), every one when None."""
            rows = folds[t] if t else slice(None)
            every_code, layout, _ = fold(t)
            widened = [layout.widen(learners[s], points) for s, points in enumerate(found)]
            fold_codes = every_code[rows]
            sets = layout.row_sets(fold_codes)
            if t:
                va = np.ones(len(y), dtype=bool)
                va[rows] = False
            out, pools = [], {}
            for u, (hulls, alpha, whole) in enumerate(variants):
                if wanted is not None and u not in wanted:
                    out.append(None)
                    continue
                if (hulls, whole) not in pools:
                    use = widened if whole else widened[:len(subsets)]
                    parts = [*use, layout.hulls(np.concatenate(use))] if hulls else use
                    allowed, sizes = layout.candidates(parts)
                    n_found = len(allowed)
                    if self.top_k is not None and n_found > self.top_k:
                        # the set cover sees only the top_k by exclusiveness, then local
                        # support: count every candidate's rows, keep the masks of the
                        # top_k only (in their order, so ties go as they would)
                        tp, fp = rule_counts(sets, allowed, layout.offsets, layout.widths,
                                             len(fold_codes), *_planes(y[rows]),
                                             *_weights_of(weights, rows))
                        exclusiveness = tp / np.maximum(tp + fp, 1e-300)
                        support = tp / max(_total(y[rows], weights, rows), 1e-300)
                        keep = np.sort(np.lexsort((-support, -exclusiveness))[: self.top_k])
                        allowed, sizes = allowed[keep], sizes[keep]
                    pools[hulls, whole] = (allowed, sizes, layout.masks(fold_codes, allowed, sets),
                                           n_found)
                allowed, sizes, masks, n_found = pools[hulls, whole]
                order = self._set_cover(allowed, sizes, masks, y[rows], *_weights_of(weights, rows),
                                        alpha=alpha)
                if t == 0:
                    out.append((allowed, order, masks, n_found))
                else:
                    held_out = layout.masks(every_code[va], allowed[order])
                    out.append((allowed, order, _f1_curve(held_out, y[va],
                                                          *_weights_of(weights, va)),
                                (y[va], None if weights is None else weights[va])))
            return out

        # The results come in the order of the tasks, fold by fold: a fold's set cover
        # runs here as soon as its last weak learner is in, while the pool goes on
        # with the next fold's learners.
        odds = self._record_odds(y_bool, weights)    # the training rows' bar, in every fold
        if pool.joblib is not None:
            # another joblib backend (dask) pulls the tasks from its own threads (its event
            # loop): the folds' bins are made here first (a review: 4.3 s of binning on
            # dask's IO loop on a 300k-row table)
            for t in range(1, n_folds):
                fold(t)
        results = pool.map(_weak_learner, ((fold(t)[0], rows_of(t), s, fold(t)[1].widths[s],
                                            y_bool, heuristic, weights, odds)
                                           for t in range(n_folds) for s in learners))
        done = [None] * n_folds
        every_row = None                    # fold 0's weak learners' points
        for t in range(n_folds):
            found = []
            for _ in learners:
                found.append(next(results))
                self._report(1 + t * len(learners) + len(found), n_steps, "weak learners")
            if t == 0 and n_folds > 1:
                # every row's covers of the default variants (hulls, not the categorical
                # learner's rules) only: the others' are made if the inner folds take them
                # (the set covers of a large table cost most)
                every_row = found
                done[t] = cover(t, found, {u for u, w in enumerate(variants)
                                           if w[0] == hull_options[0] and w[2] == whole_options[0]})
            else:
                done[t] = cover(t, found)
        steps, v = None, 0
        self._inner_scores = {}     # variant (hulls, alpha, categorical rules): inner best score
        if n_folds > 1:
            # the variant (alpha) whose inner folds score best, or among those as good (the
            # same bar as for the steps) the one of fewest printed rules; the points without
            # their hulls only when clearly better than with them (HULL_GAIN), the
            # categorical learner's rules only when clearly better than the ensemble's
            # alone (CATEGORICAL_GAIN: more than the bar, so the ensemble's alone are then
            # none of those as good)
            one_se = self.early_stopping == "cv"
            curves = [[d[v][2] for d in done[1:]] for v in range(len(variants))]
            printed = [None] * len(variants)
            if one_se:      # each printed rule priced: counted as far as a step could win
                for u in range(len(variants)):
                    curves[u], printed[u] = _priced(
                        curves[u], [fold(t)[2].counts(d[u][0][d[u][1]])
                                    for t, d in enumerate(done[1:], 1)])
            best = [_best_score(c, one_se, r) for c, r in zip(curves, printed)]
            self._inner_scores = dict(zip(variants, best))
            # hulls or the points alone within each choice of the categorical learner's
            # rules, then the rules against the covers without them that would be used
            among = [u for w in whole_options for u in _prefer(
                [u for u in range(len(variants)) if variants[u][2] == w], best,
                lambda u: variants[u][0] == hull_options[0], HULL_GAIN)]
            among = _prefer(among, best, lambda u: variants[u][2] == whole_options[0],
                            CATEGORICAL_GAIN)
            wanted = {u for u in among if done[0][u] is None}
            if wanted:                      # every row's covers of the variants taken
                more = cover(0, every_row, wanted)
                done[0] = [a if a is not None else b for a, b in zip(done[0], more)]
            close = []
            for i in _close_variants([curves[u] for u in among], one_se,
                                     [printed[u] for u in among]):
                v = among[i]
                k = _cv_steps(curves[v], one_se, printed=printed[v])
                a, o = done[0][v][0], done[0][v][1][:k]
                n_rules = [0, *printed_rules.counts(a[o])][-1]     # its program's n_rules
                close.append((n_rules, len(close), v, k))
            _, _, v, steps = min(close)
        self.hull_candidates_, self.alpha_, self.categorical_learner_ = variants[v]
        allowed, order, masks, self.n_candidates_ = done[0][v]
        order = order[:steps]      # the greedy order does not depend on where it stops
        self.n_cover_steps_ = steps
        noise = False           # whether the rules were said to be no better than all
        if len(order) and steps is not None:
            noise = _warn_if_no_better_than_all([d[v][2] for d in done[1:]],
                                                [d[v][3] for d in done[1:]], steps)
        if len(order) == 0:
            allowed, order, masks = self._fallback(pool, layout, codes, subsets, width_arr,
                                                   y_bool, heuristic, weights, usable)
        # the rows the chosen points cover, to check the program against (tests)
        self._points_cover = unpack(np.bitwise_or.reduce(masks[order], axis=0)
                                    if len(order) else np.zeros(masks.shape[1], np.uint64), len(y))
        if not noise and not getattr(self, "_in_decision_list", False):
            _warn_if_most_rows_called(self._points_cover, y_bool, weights, self.alpha_)
        return self._program([layout.rule(allowed[i]) for i in order], bins, names)

    def _fallback(self, pool, layout, codes, subsets, widths, y, heuristic, weights=None,
                  usable=None):
        """When the ensemble's set cover takes no rule: try harder before giving up.

        1. The paper's base learner: one weak learner over every feature (a
           feature subset may mix every positive record with negatives).
        2. Balanced classes: each positive row counted ``n_neg // n_pos`` times
           in the records (a record is then positive when its share of
           positives is well above the table's rate), for that learner and the
           ensemble's, and a set-cover alpha of at least ``n_neg / n`` (a rule
           pays its way when its precision beats the base rate).  In a binary
           program the alpha is ``1 - min(0.5, FALLBACK_LIFT * n_pos / n)``: a rule
           pays its way when its precision is twice the base rate (at most half),
           as a record of the ensemble must be.  At the base rate the step kept
           broad rules the inner folds had refused: a held-out sweep's 2% class got
           ``procedure >= 1``, called on 47% of the rows (precision 0.03, accuracy
           0.52 against the majority's 0.98), and a 6% class one of 25-29% in four
           folds of five.  A class of a decision list keeps the base rate (there the
           step gave a 3-class table's second class its rules: accuracy 0.70-0.75
           against the majority's 0.46).

        With ``weights`` (class_weight times sample_weight) every count here is
        the rows' weight, as for the ensemble: a row of weight k counts as k
        copies of it in the records, in ``n_neg // n_pos`` and in the set cover.
        Each step covers on every training row and stops when the training F1
        stops rising (no inner CV: these are last resorts).  A step that finds
        rules says so; when none does, the warning names every step: no box of
        bins holds positives at a rate above the table's, so no rule describes
        the class.  Returns ``allowed, order, masks``.
        """
        w = np.ones(len(y)) if weights is None else weights
        pos = float(w[y].sum())                 # whole numbers unweighted: the counts
        total = float(w.sum())
        every = (np.arange(len(layout.bins), dtype=np.int64) if usable is None
                 else usable)          # the features a learner may draw
        alpha = float(self.alpha_)              # the ensemble's, chosen or given
        tried = [f"{len(subsets)} weak learner(s) of {len(subsets[0])} feature(s), "
                 f"alpha={alpha:g}"]
        # (learners, rows of the records, alpha, what, the records' row weights)
        steps = [([every], np.zeros(0, dtype=np.int64), alpha,
                  ("one weak learner over the one usable feature" if len(every) == 1 else
                   f"one weak learner over all {len(every)} usable features"), weights)]
        reps = int((total - pos) // pos) if pos > 0 else 0
        share = pos / max(total, 1e-300)
        # a class of a decision list: a rule pays its way above the base rate; a binary
        # program's must beat it clearly, FALLBACK_LIFT times it, at most half
        balanced = (max(alpha, 1.0 - share) if getattr(self, "_in_decision_list", False)
                    else 1.0 - min(0.5, FALLBACK_LIFT * share))
        counted = f"each positive row counted {reps} times, " if reps > 1 else ""
        heavier = None
        if weights is None:     # the positive rows repeated in the records
            rows = np.concatenate([np.arange(len(y))] + [np.flatnonzero(y)] * (reps - 1))
        else:
            # weighted, a row of weight k counts as k copies: the positives' weights times
            # reps, not reps copies of them (the weights' ratio is unbounded: class weights
            # of 1000 and 0.0001 asked for 10^7 copies of each positive row, gigabytes)
            rows = np.zeros(0, dtype=np.int64)
            heavier = np.where(y, weights * max(reps, 1), weights)
        steps.append(([every, *subsets], rows.astype(np.int64), balanced,
                      f"{steps[0][3]} and the ensemble, with balanced classes ({counted}"
                      f"alpha={balanced:.3f})", heavier))
        allowed = np.zeros((0, layout.n_bits), dtype=bool)
        masks = np.zeros((0, (len(y) + 63) // 64), dtype=np.uint64)
        extra = () if weights is None else (weights,)   # the kernels' optional weights
        for learners, rows, alpha, what, records in steps:
            if pos == 0:
                break
            some = slice(None) if len(rows) == 0 else rows      # the step's rows' own bar
            odds = self._record_odds(y[some], None if records is None else records[some])
            found = list(pool.map(_weak_learner, ((codes, rows, s, widths[s], y, heuristic,
                                                   records, odds) for s in learners)))
            widened = [layout.widen(s, points) for s, points in zip(learners, found)]
            allowed, sizes = layout.candidates([*widened, layout.hulls(np.concatenate(widened))])
            masks = layout.masks(codes, allowed)
            order = self._set_cover(allowed, sizes, masks, y, *extra, alpha=alpha,
                                    stop_on_train_f1=True)
            tried.append(what)
            if order:
                warnings.warn(f"LIBRE's ensemble found no rule ({tried[0]}); its rules come "
                              f"from {what}", AspmlWarning, stacklevel=5)
                return allowed, order, masks
        warnings.warn("LIBRE learned no rules: tried " + "; ".join(
            f"({k}) {t}" for k, t in enumerate(tried, 1)) + ": no boundary point covers "
            "positives at a rate above the training rows' "
            f"({share:.3g}"
            # the balanced step's own bar, where it is above the base rate (binary)
            + (f"; step {len(tried)} asked for {1 - balanced:.3g}"
               if 1 - balanced > share * (1 + 1e-9) else "") +
            "), so no rule of these bins describes the class "
            "(a lower discretization_threshold or more max_bins gives finer bins)",
            AspmlWarning, stacklevel=5)
        return allowed, [], masks

    def _record_odds(self, y, weights=None) -> float:
        """The odds a weak learner's record must beat to be positive: a binary
        program's (:func:`_record_odds`, judged by its class's F1), or for a class of a
        multi-class decision list, judged by accuracy, its majority label (1): there a
        rule's false positives are the next classes' errors (ecoli's accuracy fell
        from 0.836 to 0.792 with the binary bar, avila's from 0.885 to 0.874; docs,
        LIBRE benchmarks)."""
        return 1.0 if getattr(self, "_in_decision_list", False) else _record_odds(y, weights)

    def _alphas(self, share=None) -> list:
        """``alpha`` as a list of floats (one value or several to choose among);
        ``"auto"``: :data:`AUTO_ALPHAS`, and ``1 - share`` (the positives' share of the
        training rows, weighted) when that is higher."""
        if isinstance(self.alpha, str):
            rare = [] if share is None or 1 - share <= max(AUTO_ALPHAS) else [1 - share]
            return [*AUTO_ALPHAS, *rare]
        return [float(a) for a in (self.alpha if isinstance(self.alpha, (tuple, list))
                                   else [self.alpha])]

    @staticmethod
    def _inner_folds(y, rng, k=3):
        """An inner stratified ``k``-fold split (None when a class is too small)."""
        from sklearn.model_selection import StratifiedKFold
        if min(int(y.sum()), len(y) - int(y.sum())) < k:
            return None
        return StratifiedKFold(k, shuffle=True, random_state=int(rng.integers(2**31 - 1)))

    def _set_cover(self, allowed, sizes, masks, y, weights=None, alpha=None,
                   stop_on_train_f1=None):
        """Greedy weighted set cover over every candidate given: the indices of the
        chosen ones, in order (``top_k`` filtering happens before, in the fit).

        ``allowed`` holds each candidate's allowed bins, ``sizes`` how many
        program rules it becomes, ``masks`` the rows it covers (packed bits),
        so a step is a few AND and popcount passes over words, not a pass over
        the table per candidate.
        """
        if len(allowed) == 0:
            return []
        pos_planes, neg_planes = _planes(y)
        zeros = allowed.sum(axis=1)             # the more zeros, the more general the rule
        room = -1 if self.max_rules is None else int(self.max_rules)
        wp, wn = _alpha_weights(self._alphas()[0] if alpha is None else alpha)
        on_train_f1 = (self.early_stopping in (True, "train") if stop_on_train_f1 is None
                       else stop_on_train_f1)
        y = np.asarray(y, dtype=bool)
        if weights is not None and not on_train_f1 and y.any() and (~y).any() and \
                np.all(weights[y] == weights[y][0]) and np.all(weights[~y] == weights[~y][0]):
            # one weight per class (class_weight alone): the weights scale alpha's, and the
            # cover counts words, not row by row (the training F1 would need the weights)
            wp, wn = wp * float(weights[y][0]), wn * float(weights[~y][0])
            weights = None
        wp, wn = float(wp), float(wn)
        args = (masks, pos_planes[0], neg_planes[0], zeros.astype(np.int64),
                sizes.astype(np.int64), np.arange(len(allowed)), wp, wn, room, on_train_f1)
        order = greedy_cover(*args) if weights is None else greedy_cover(*args, weights=weights)
        return order.tolist()

    def _program(self, chosen, bins, names) -> Program:
        exceptions = _Exceptions()

        def options(f, allowed):
            return _conditions(names[f], bins[f], allowed, exceptions)

        rules = [Rule(None, body) for point in chosen for body in _bodies(point, options)]
        return self._finish(list(dict.fromkeys(rules)) + exceptions.rules)


class _Printed:
    """How many rules the program of a fit's first k points prints, for every k: what
    :meth:`Libre._program` would make of them (its rules, each once, and its exception
    rules), counted without making the program.  A point's rules are worked out once
    per fit (the inner folds' covers share most of their points)."""

    def __init__(self, layout):
        self.layout = layout
        self._exceptions = _Exceptions()        # an exception's name stands for its bodies
        self._options: dict = {}                # (feature, allowed bins) -> _conditions
        self._points: dict = {}                 # point's bits -> (its bodies, its exceptions)

    def counts(self, points):
        """``points``: candidates (bool rows over the layout's bins), in set-cover
        order; yields the printed rules of the first k of them, k = 1, 2, ..."""
        rules, exceptions = set(), set()
        count = 0
        for row in points:
            key = np.packbits(row).tobytes()
            hit = self._points.get(key)
            if hit is None:
                made = _bodies(self.layout.rule(row), self._conditions)
                hit = self._points[key] = (made, self._exceptions.used_by(made))
            made, uses = hit
            for body in made:
                if body not in rules:
                    rules.add(body)
                    count += 1
            for name in uses:
                if name not in exceptions:
                    exceptions.add(name)
                    count += len(self._exceptions.bodies[name])
            yield count

    def _conditions(self, f, allowed):
        hit = self._options.get((f, allowed))
        if hit is None:
            layout = self.layout
            hit = self._options[f, allowed] = _conditions(layout.names[f], layout.bins[f],
                                                          allowed, self._exceptions)
        return hit


def _priced(curves, counts):
    """The folds' F1 curves and printed rules after each step (``counts``: one iterator
    a fold, yielding its rules after steps 1, 2, ...; a fold that stopped keeps its last
    count, as :func:`_padded` keeps its F1), both cut after the last step that could
    still score best under :func:`_score`'s price: a later step's mean F1 is at most the
    best still to come and its printed rules at least today's.  What the stopping
    chooses is then the same as on the whole curves, and a cover of hundreds of steps
    (credit_card) is counted only a little past its best."""
    table = _padded(curves)
    n = table.shape[1]
    mean = table.mean(axis=0)
    to_come = np.maximum.accumulate(mean[::-1])[::-1]
    sizes = np.zeros(table.shape, dtype=np.int64)
    best = -np.inf
    for k in range(n):
        if k:
            sizes[:, k] = [next(c, last) for c, last in zip(counts, sizes[:, k - 1])]
        priced = _price(sizes[:, k].mean())
        best = max(best, mean[k] - priced)
        if k + 1 < n and to_come[k + 1] - priced <= best:
            n = k + 1
            break
    return list(table[:, :n]), list(sizes[:, :n])


def _bodies(point, options) -> list:
    """The bodies of a point's rules, one per combination of its features' alternatives
    (``options(feature, allowed bins)``: :func:`_conditions`), in feature order."""
    bodies = [()]
    for f, allowed in point:
        bodies = [body + tuple(option) for body in bodies for option in options(f, allowed)]
    return bodies


def _alpha_weights(alpha):
    """``alpha`` as integer weights ``(wp, wn)`` with ``wp / (wp + wn) = alpha`` (to six
    digits: a fraction of denominator at most 10^6), so the set cover compares its
    weights ``wp * positives - wn * negatives`` exactly."""
    a = Fraction(float(alpha)).limit_denominator(10**6)
    return int(a.numerator), int(a.denominator - a.numerator)


def _planes(y):
    """The rows of each class as one bit plane each (``bitset`` weighted counts)."""
    y = np.asarray(y, dtype=bool)
    return pack(y)[None, :], pack(~y)[None, :]


def _f1_curve(masks, y, weights=None) -> np.ndarray:
    """F1 on rows ``y`` of the union of the first k candidates (k = 0, 1, ...), on the
    rows' weights when given."""
    pos = pack(y)
    if len(masks) == 0:
        return np.zeros(1)
    union = np.bitwise_or.accumulate(masks, axis=0)
    if weights is not None:
        covered = unpack_rows(union, len(y))
        tp = covered[:, y] @ weights[y]
        n = covered @ weights
        return np.concatenate([[0.0], np.where(tp > 0, 2 * tp / np.maximum(
            n + weights[y].sum(), 1e-300), 0.0)])
    tp = np.bitwise_count(union & pos).sum(axis=1)
    n = np.bitwise_count(union).sum(axis=1)
    return np.concatenate([[0.0], np.where(tp > 0, 2 * tp / np.maximum(n + int(y.sum()), 1), 0.0)])


def unpack_rows(bits, n: int) -> np.ndarray:
    """Packed sets (sets x words) as bool[sets, n]."""
    raw = np.ascontiguousarray(bits, dtype="<u8").view(np.uint8)
    return np.unpackbits(raw, axis=1, bitorder="little")[:, :n].astype(bool)


def _weights_of(weights, rows) -> tuple:
    """``(weights of rows,)`` as a contiguous float64 array, or ``()`` unweighted: the
    kernels' optional last argument."""
    if weights is None:
        return ()
    return (np.ascontiguousarray(weights[rows], dtype=np.float64),)


def _total(y, weights, rows) -> float:
    """How many positives in ``y`` (the rows ``rows``), or their weight."""
    return float(y.sum()) if weights is None else float(weights[rows][y].sum())


def _pair_chance(d: int, k: int, n: int) -> float:
    """The chance that ``n`` learners drawing ``k`` of ``d`` features uniformly draw two
    given features together in one of them (1 when every learner holds every feature)."""
    if d <= k or n < 2 or k < 2:
        return 1.0
    return 1 - (1 - k * (k - 1) / (d * (d - 1))) ** n


def _draw_chances(cols, codes, y, weights) -> np.ndarray | None:
    """Each feature's chance of being drawn by a weak learner on a wide table (see
    ``_learn_in``): :data:`EVEN_SHARE` of it spread evenly, the rest in proportion to
    the evidence that the feature tells the classes apart, alone or beside the feature
    that tells them apart best: ``-log p`` of the chi-square test of its values against
    the class, or of the test within each value of that strongest feature (the sum of
    the tests, of the summed degrees of freedom), whichever is the larger.  A number is
    cut into :data:`EVIDENCE_BINS` quantile bins for the test (its ChiMerge bins are cut
    on the labels: a column of noise keeps ten of them and would look as telling), a
    category is its own bin (many values: their group), a missing value its own bin.
    None when no feature shows any evidence (the uniform draw).

    The second test is for a feature that matters only where the strongest one has some
    values (the class is x29 > 1 where x44 < 0, and not otherwise): alone it shows
    little, and it was seldom drawn beside the strongest, so no learner found the rule
    that needs both (a held-out-shape study: 50 features, 4 of signal, accuracy 0.64
    where the depth-5 tree has 0.90)."""
    t = np.asarray(y, dtype=bool)
    w = np.ones(len(t)) if weights is None else np.asarray(weights, dtype=np.float64)
    bins = [_evidence_bins(col, codes[:, j], w) for j, col in enumerate(cols)]
    evidence = np.array([_evidence(b, t, w) for b in bins])
    if evidence.sum() <= 0:
        return None
    strongest = int(np.argmax(evidence))
    strata = bins[strongest].max() + 1
    rare = min(float((w * t).sum()), float((w * ~t).sum()))     # the rarer class's weight
    for j, b in enumerate(bins):
        # Cochran's rule for the chi-square: the rarer class expected 5 times in a cell
        # on average (sonar's 166 rows in 5 x 5 cells: about 3, and its noise features
        # drew as often as its bands of signal; F1 0.694 -> 0.678 over 8 seeds)
        if j != strongest and rare >= CELL_COUNT * strata * (b.max() + 1):
            evidence[j] = max(evidence[j], _evidence(b, t, w, bins[strongest]))
    return (1 - EVEN_SHARE) * evidence / evidence.sum() + EVEN_SHARE / len(cols)


def _evidence_bins(col, c, w) -> np.ndarray:
    """A feature's bins for :func:`_draw_chances` (0, 1, ... for the bins rows hold): a
    number's :data:`EVIDENCE_BINS` weighted quantile bins (the first value whose
    cumulative weight reaches each share: rows of weight 2 cut as two copies of them
    would), else ``c``, its codes (a category, its group, missing)."""
    if col.kind != "boolean" and col.is_num.any():
        v, vw = col.num[col.is_num], w[col.is_num]
        order = np.argsort(v, kind="stable")
        cum = np.cumsum(vw[order])
        at = np.searchsorted(cum, np.linspace(0, 1, EVIDENCE_BINS + 1)[1:-1] * cum[-1])
        cuts = np.unique(v[order][np.minimum(at, len(v) - 1)])
        c = np.where(col.is_num, np.searchsorted(cuts, col.num, side="right"),
                     len(cuts) + 1 + c)
    return np.unique(c, return_inverse=True)[1].reshape(-1)


def _evidence(b, t, w, strata=None) -> float:
    """``-log p`` (0 or more) of the chi-square test of the class ``t`` against the bins
    ``b`` of the rows (weights ``w``); with ``strata`` (the bins of another feature) the
    test within each stratum, their statistics and degrees of freedom summed.  0 when no
    stratum holds two bins and both classes.  One pass over the rows (a review: a mask
    of every row per stratum cost 82 s on a 2,000-value strongest feature)."""
    n_bins = int(b.max()) + 1
    s = np.zeros(len(b), dtype=np.int64) if strata is None else strata
    n_strata = int(s.max()) + 1
    cell = s * n_bins + b
    every = np.bincount(cell, weights=w, minlength=n_strata * n_bins).reshape(n_strata, n_bins)
    pos = np.bincount(cell, weights=w * t, minlength=n_strata * n_bins).reshape(n_strata,
                                                                                n_bins)
    held = every > 0
    total = every.sum(axis=1)
    base = np.divide(pos.sum(axis=1), total, out=np.zeros(n_strata), where=total > 0)
    bins_held = held.sum(axis=1)
    tested = np.flatnonzero((bins_held >= 2) & (base > 0) & (base < 1))
    stat, df = 0.0, 0
    for k in tested:                            # (one stratum: as _chi_square reads it)
        h = held[k]
        stat += _chi_square(pos[k][h], every[k][h], float(base[k]))
        df += int(bins_held[k]) - 1
    return max(_minus_log_sf(stat, df), 0.0) if df else 0.0


def _minus_log_sf(stat: float, df: int) -> float:
    """``-log P(chi-square(df) >= stat)``, finite however large ``stat``: past about 1,400
    (4 degrees of freedom) scipy's log survival function is ``-inf`` (a review: a wide
    table of 5,000 rows with one strong feature crashed the draw with NaN chances), and
    there its asymptote ``stat/2 - (df/2 - 1) log(stat/2) + log Gamma(df/2)`` is used."""
    from scipy.special import gammaln
    from scipy.stats import chi2
    out = -float(chi2.logsf(stat, df))
    if np.isfinite(out):
        return out
    half = stat / 2
    return float(half - (df / 2 - 1) * np.log(half) + gammaln(df / 2))


# A wide table's draw (:func:`_draw_chances`): the share of each learner's chances spread
# evenly over the features, so that one of no evidence alone (a half of an interaction)
# is still drawn, and the quantile bins of a number in its evidence test.
EVEN_SHARE = 0.25
EVIDENCE_BINS = 5
# the rarer class's rows (weight) a cell of the test within the strongest feature's bins
# must expect on average for that test to count (Cochran's rule of thumb)
CELL_COUNT = 5


def _warn_if_wide(d: int, k: int, n: int, by_evidence: bool = False) -> None:
    """Warn when ``n`` learners of ``k`` of ``d`` features seldom draw two given features
    together (:data:`PAIR_CHANCE`): a rule that needs both is then found by chance, if at
    all (a new-user trial: 8 columns of signal among 110, a rule on two of them; held-out
    F1 0.06 with 43 rules of noise, FoldSE 0.93).  ``by_evidence``: the features were
    drawn by their evidence (:func:`_draw_chances`), which helps features that tell the
    classes apart alone, not those that matter only together."""
    chance = _pair_chance(d, k, n)
    if chance < PAIR_CHANCE:
        how = (f"each draw {k} of the {d} features, those that tell the classes apart on "
               "their own the more often; two features that matter only together are "
               f"drawn together by one of them with a chance of {chance:.0%}"
               if by_evidence else
               f"each draw {k} of the {d} features: two given features are drawn "
               f"together by one of them with a chance of {chance:.0%}")
        warnings.warn(f"LIBRE's {n} weak learners {how}, so a rule that needs both may not "
                      "be found; on a wide table choose the features first, raise "
                      "n_estimators or max_features, or learn with FoldSE, which searches "
                      "every feature for each condition", AspmlWarning, stacklevel=5)


# Below this chance that two given features meet in some weak learner, a fit warns
# (:func:`_warn_if_wide`): 20 learners of 5 features stay above it up to 37 features (the
# 30 of scikit-learn's breast-cancer table, 37%, where LIBRE does as well as FOLD-SE).
PAIR_CHANCE = 0.25


# A class under this share whose rules call RARE_CALLED times its share of the rows or
# more is said to be marked, not found (:func:`_warn_if_most_rows_called`)
RARE_SHARE = 0.2
RARE_CALLED = 5.0


def _warn_if_most_rows_called(cover, y, weights, alpha) -> None:
    """Warn when the rules call most training rows positive (2/3 of them and 1.5 times
    the positives' share) while the set cover's alpha let a point less precise than the
    base rate pay its way: F1, which the stopping maximises, then favours calling most
    rows positive (a real-table trial, 43% positives: "experience < 21", true on 88% of
    the rows, test accuracy 0.48 against the majority's 0.57, and no note on 3 folds of
    4).  ``alpha=0.5`` asks each point to beat the base rate (a minority class only: for
    a majority one 0.5 is below it, and the default already beats the majority's
    accuracy, a review found).  Else, for a class under RARE_SHARE of the rows whose
    rules call RARE_CALLED times its share, that they mark where it is more common.  Not
    said after the note that the rules are no better than calling every row positive
    (noise: no alpha helps)."""
    share = positive_share(y, weights)
    cover = np.asarray(cover, dtype=bool)
    called = positive_share(cover, weights)
    if share <= 0.5 and alpha > 1 - share and called >= 2 / 3 and called >= 1.5 * share:
        # the rows as counted (under class weights the shares above are of the weight)
        rows, positives = float(np.mean(cover)), float(np.mean(y))
        warnings.warn(f"LIBRE's rules call {rows:.0%} of the training rows positive, where "
                      f"{positives:.0%} of them are: at alpha={alpha:g} a rule pays its way "
                      f"with a precision above {1 - alpha:.2g}, below the base rate, and F1, "
                      "which LIBRE maximises, favours calling most rows positive. alpha=0.5 "
                      "asks each rule to beat the base rate (more rules, fewer rows called "
                      "positive, more of them right, at some cost in F1)", AspmlWarning,
                      stacklevel=5)
    elif share < RARE_SHARE and called >= RARE_CALLED * share:
        # a rare class: F1's best cover may call many times its rows, at a precision a
        # little above its rate (a held-out sweep's 2.1% class: 24% of the rows called,
        # test accuracy 0.760 against the majority's 0.979, and no note on a fold).
        # Weighted, the shares and the precision are of the rows' weight, as decided.
        right = positive_share(y[cover], None if weights is None else weights[cover])
        by = "" if weights is None else " (by weight)"
        warnings.warn(f"LIBRE's rules call {called:.0%} of the training rows{by} positive, "
                      f"where {share_percent(share)} of them are; they are right on "
                      f"{right:.1%} of the rows they call ({right / max(share, 1e-300):.1f} "
                      "times the base rate): they mark rows where the class is more common, "
                      "not the class's rows, and most rows they call positive are not (F1, "
                      "which LIBRE maximises, favours calling many rows on a rare class)",
                      AspmlWarning, stacklevel=5)


def _warn_if_no_better_than_all(curves, held_out, steps) -> bool:
    """``held_out``: each fold's validation labels and weights (None: unweighted).
    Whether it warned.

    Warn when the rules' cross-validated F1 is no better than calling every held-out
    row positive (what F1-driven stopping keeps covering towards when there is no signal)
    by more than one standard error of the folds (the stopping rule's own measure: on
    noise, a stop after a few rules can beat that F1 on three small folds by chance)."""
    at = np.array([c[min(steps, len(c) - 1)] for c in curves])
    got = float(at.mean())
    # F1 of calling every held-out row positive, on the same (weighted) counts as the curves
    shares = [y.mean() if w is None else w[y].sum() / max(w.sum(), 1e-300) for y, w in held_out]
    every = np.mean([2 * p / (1 + p) for p in shares])
    se = float(at.std(ddof=1)) / np.sqrt(len(at)) if len(at) > 1 else 0.0
    if got <= every + se:
        folds = ", ".join(f"{v:.3f}" for v in at)
        how = ("below it" if got < every - se else "within one standard error")
        # F1 on the rows' weights (with class_weight="balanced" both sides are near 0.67)
        which = ("F1" if all(w is None or np.all(w == w[0]) for _, w in held_out)
                 else "F1 on the rows' weights")
        warnings.warn(f"LIBRE's rules are not clearly better on held-out rows than calling "
                      f"every row positive: cross-validated {which} {got:.3f} (inner folds {folds}; "
                      f"standard error {se:.3f}) against {every:.3f}, {how}. They may "
                      "describe noise", AspmlWarning, stacklevel=5)
        return True
    return False


def _close_variants(curves, one_se=True, printed=None) -> list:
    """Which of several set covers (one list of inner-fold F1 curves each; ``printed``:
    the same lists of printed rules after each step) reach a best score (mean
    validation F1, priced per printed rule with ``one_se``: :func:`_score`) no worse
    than the best cover's by more than its bar (``_cv_bar``): their indices, the best
    first."""
    printed = [None] * len(curves) if printed is None else printed
    best = [_best_score(c, one_se, r) for c, r in zip(curves, printed)]
    top = int(np.argmax(best))                  # ties to the first
    bar = _cv_bar(_padded(curves[top]), one_se,
                  printed=None if printed[top] is None else _padded(printed[top]))
    return [top] + [v for v in range(len(curves)) if v != top and best[v] >= best[top] - bar]


def _prefer(among, best, default, gain) -> list:
    """Of the variants ``among`` (indices into ``best``, their inner folds' best
    scores), those of the default family (``default(u)`` true), unless the best of the
    others scores at least ``gain`` above the best of the default's: then the others.
    With one family among them, ``among``."""
    mine = [u for u in among if default(u)]
    others = [u for u in among if not default(u)]
    if not mine or not others:
        return among
    return others if max(best[u] for u in others) >= max(best[u] for u in mine) + gain else mine


def _best_score(curves, one_se=True, printed=None) -> float:
    """The best :func:`_score` of a set cover's inner-fold curves (``printed``: their
    printed rules after each step, or None)."""
    return float(_score(_padded(curves), one_se,
                        None if printed is None else _padded(printed)).max())


def _padded(curves) -> np.ndarray:
    """The folds' curves as one table, a fold that stopped early keeping its last F1."""
    longest = max(len(c) for c in curves)
    return np.array([np.concatenate([c, np.full(longest - len(c), c[-1])]) for c in curves])


# The most the one-standard-error bar may be (see ``_cv_bar``).
BAR_CAP = 0.005


def _cv_bar(table, one_se=True, slack=0.002, cap=BAR_CAP, printed=None) -> float:
    """How far below the best score (``table``: folds x steps; :func:`_score`) still
    counts as as good: ``slack``, or with ``one_se`` one standard error of the best step (the
    folds' spread there over the square root of their number) when that is wider,
    but at most ``cap``.  Three inner folds of a 270-row table spread by 0.03-0.05:
    the uncapped error stopped heart after 3-4 rules while every fold's F1 still
    rose (held out: 0.711 against 0.786 before).  A cap of 0.01 still stopped the
    small tables a rule or two early: over random_state 0-2 on the eight tables of
    the LIBRE benchmark, 0.005 gave higher held-out F1 on six (heart +0.023, sonar
    +0.016) and lower on none, with at most 1.9 more rules (adult; docs, LIBRE
    benchmarks)."""
    bar = slack
    if one_se and len(table) > 1:
        best = int(np.argmax(_score(table, one_se, printed)))
        bar = max(bar, min(cap, float(table[:, best].std(ddof=1)) / np.sqrt(len(table))))
    return bar


def _cv_steps(curves, one_se=True, slack=0.002, printed=None) -> int:
    """How many set-cover steps to take: the fewest whose mean F1 over the inner
    validation folds is within ``slack`` of the best (a fold that stopped early
    keeps its last F1), or, with ``one_se``, within one standard error of the best
    when that is wider (up to 0.005, see ``_cv_bar``), F1 priced by the step
    (:func:`_score`): the one-standard-error rule (Breiman et al. 1984; Hastie,
    Tibshirani and Friedman, §7.10), the smallest cover no worse than the best by
    more than the folds can tell apart, on a curve where a rule must pay for itself
    (``printed``: each fold's printed rules after each step, as :func:`_score` prices
    them; None prices the steps)."""
    table = _padded(curves)
    sizes = None if printed is None else _padded(printed)
    score = _score(table, one_se, sizes)
    bar = _cv_bar(table, one_se, slack, printed=sizes)
    return max(1, int(np.flatnonzero(score >= score.max() - bar)[0]))


# How much better the inner folds must score the set cover with the rules of the learner
# over every categorical feature than without them (mean validation F1, priced)
# for them to be used (``categorical_learner="cv"``).  Measured over random_state 0-3 on
# the LIBRE benchmark's tables (scratch runs, docs LIBRE): chosen by the usual bar alone
# (fewest printed rules among the variants as good), heart fell from 0.754 to 0.742;
# preferring the ensemble's rules among those as good, adult still took 31.4 printed
# rules instead of 22.0 for +0.002 F1 (seed 0).  With 0.01 both stay as they were, and
# tictactoe (1.000 against 0.982), krkp (0.935 against 0.874) and anneal (0.998
# against 0.948) keep the gain.
CATEGORICAL_GAIN = 0.01

# How much better the inner folds must score the set cover of the boundary points alone
# than the one whose candidates hold their hulls as well (``hull_candidates="cv"``) for
# the points alone to be used: the bar's cap (``_cv_bar``).  Measured over random_state
# 0-3 on the LIBRE benchmark's tables (docs, LIBRE benchmarks): chosen by the usual bar
# alone (fewest printed rules among the variants as good), heart fell from 0.754 to 0.738;
# with this gain it is 0.747, sonar rose from 0.695 to 0.712 and adult from 0.664 to
# 0.666 (the points' gaps print exception rules: adult 20.6 printed rules, 19.1 before).
HULL_GAIN = BAR_CAP


# ``alpha="auto"``: these, and for a rare positive class ``1 - share`` (see ``Libre``).
AUTO_ALPHAS = (0.7, 0.5)


# What one printed rule (default or exception rule) must buy in mean validation F1 to
# be worth reading, under the one-standard-error stopping (``"cv"``): 0.01 of F1 per
# 100 rules, in a program of up to FREE_RULES printed rules.
RULE_PRICE = 1e-4

# Past this many printed rules a program costs RULE_PRICE * rules * rules / FREE_RULES:
# each further rule more, the longer the program (a program of 40 rules costs 0.008 of
# F1, its 40th rule 0.0004; of 60, 0.018).  A program of tens of rules is read rule by
# rule; past a screenful each rule is one more to hold in mind.  On a large table the
# inner folds tell apart gains of a thousandth, and at a flat price the rules kept
# growing with the rows (a synthetic 45,000-row rare table: 27, 53 and 103 printed rules
# over three seeds, held-out F1 0.384; with this price 19, 22 and 45 at 0.372); every
# table of up to 20 printed rules is priced as before (docs, LIBRE benchmarks).
FREE_RULES = 20


def _score(table, one_se=True, printed=None) -> np.ndarray:
    """Per set-cover step, the inner folds' mean validation F1 (``table``: folds x
    steps), less :data:`RULE_PRICE` per printed rule with ``one_se`` (``printed``: the
    folds' printed rules after each step, their mean priced; None: each step one
    rule): the greedy cover of a
    large table goes on gaining a sliver of F1 a rule for hundreds of rules, each
    within the folds' error of the next (rain, 142k rows: alpha 0.5 took 158 and
    270 steps, 794 and 1,377 printed rules, for F1 0.603 against 0.58 with 46-80
    rules), and "the smallest cover as good as the best" then still means hundreds.
    Priced, the best is the step where a further 100 printed rules would gain less
    than 0.01, and past :data:`FREE_RULES` rules where one more would gain less than its
    rising price (:func:`_price`).  (Rain: 35.6 printed rules with each step priced,
    29.2 with each printed rule; heloc@Good: one fold's 30 steps printed 145 rules,
    its gap exceptions, for 0.005 of F1.)  A small table's cover of a few steps pays a
    few thousandths at most; ``"cv-best"`` pays nothing."""
    mean = table.mean(axis=0)
    if not one_se:
        return mean
    rules = np.arange(table.shape[1]) if printed is None else printed.mean(axis=0)
    return mean - _price(rules)


def _price(rules):
    """What a program of ``rules`` printed rules costs in F1: :data:`RULE_PRICE` a rule
    up to :data:`FREE_RULES` rules, ``RULE_PRICE * rules**2 / FREE_RULES`` past them.  It
    rises with the rules, so :func:`_priced` may stop counting where no later step can
    win."""
    rules = np.asarray(rules, dtype=float)
    return RULE_PRICE * rules * np.maximum(1.0, rules / FREE_RULES)


class _Pool:
    """Runs a fit's tasks (bins, weak learners) in parallel, results in task order.

    The kernels release the GIL, so threads suffice.  With joblib's default
    backend (or "threading") the tasks go to a ``concurrent.futures`` thread pool
    of ``joblib.effective_n_jobs(n_jobs)`` threads, which hands over each result
    as it is ready (joblib's own result loop polls every 10 ms, a large share of a
    fit that takes a quarter of a second).  Any other joblib backend set by the
    caller (``joblib.parallel_backend("dask")``) gets the tasks through
    ``joblib.Parallel``.
    """

    def __init__(self, n_jobs):
        from joblib.parallel import SequentialBackend, ThreadingBackend, get_active_backend
        backend, _ = get_active_backend(prefer="threads")
        workers = int(joblib.effective_n_jobs(n_jobs))
        self.joblib = None
        self.threads = None
        if not isinstance(backend, (ThreadingBackend, SequentialBackend)):
            # results as they come where the backend can ("multiprocessing" cannot)
            lazy = getattr(backend, "supports_return_generator", False)
            self.joblib = joblib.Parallel(n_jobs=n_jobs, prefer="threads",
                                          return_as="generator" if lazy else "list")
        elif workers > 1:
            self.threads = ThreadPoolExecutor(workers)

    def __enter__(self):
        if self.joblib is not None:
            self.joblib.__enter__()
        return self

    def __exit__(self, *exc):
        if self.joblib is not None:
            self.joblib.__exit__(*exc)
        if self.threads is not None:
            self.threads.shutdown(cancel_futures=True)

    def map(self, fn, tasks):
        """``fn(*task)`` for each task, in order: an iterator (tasks are taken as
        they are submitted, so a task's arguments may be made lazily)."""
        if self.joblib is not None:
            return iter(self.joblib(joblib.delayed(fn)(*task) for task in tasks))
        if self.threads is None:
            return (fn(*task) for task in tasks)
        futures = [self.threads.submit(fn, *task) for task in tasks]
        return (f.result() for f in futures)

    @property
    def idle(self) -> bool:
        """Whether the fit runs its tasks in the caller's thread (no pool)."""
        return self.joblib is None and self.threads is None

    def map_columns(self, fn, tasks, rows):
        """:meth:`map` for the columns' binning, as a list.  A fit of one job (no pool)
        still bins its columns side by side on the cores no other process is using
        (:func:`~aspml.learners._threads.free_threads`, as FOLD's kernels do) once a
        column has ``BIN_ROWS`` rows: ``n_jobs`` sets how many weak learners run at
        once, not whether a kernel may use an idle core."""
        if self.idle and rows >= BIN_ROWS and len(tasks) > 1:
            threads = min(free_threads(usable_cores()), len(tasks))
            if threads > 1:
                with ThreadPoolExecutor(threads) as pool:
                    return list(pool.map(lambda task: fn(*task), tasks))
        return list(self.map(fn, tasks))


# Columns of at least this many rows are binned side by side in a fit of one job when
# cores are free.  Measured on the project's 2-core machine (benchmarks/libre.py
# --bin-threads: ChiMerge of 2 and 10 uniform columns, two threads against one; four
# runs, docs LIBRE): 1,000-10,000 rows 0.33x-1.63x, 20,000 rows to 1M 1.23x-1.96x.
BIN_ROWS = 20_000


def _offsets(widths) -> np.ndarray:
    """Where each feature's bits start, its bins' widths given."""
    return np.cumsum([0, *widths[:-1]]).astype(np.int64)


class _Layout:
    """Where each feature's bins sit in the global bit layout, and what a
    candidate (bool over all bins: the bins it allows) becomes."""

    def __init__(self, bins, names, offsets):
        self.bins, self.names = bins, names
        self.offsets = offsets
        self.widths = np.array([len(b) for b in bins], dtype=np.int64)
        self.n_bits = int(self.widths.sum())

    def widen(self, subset, allowed) -> np.ndarray:
        """A weak learner's points over its features as candidates over all features."""
        out = np.ones((len(allowed), self.n_bits), dtype=bool)
        cols = np.concatenate([np.arange(self.offsets[f], self.offsets[f] + self.widths[f])
                               for f in subset])
        out[:, cols] = allowed
        return out

    def hulls(self, allowed) -> np.ndarray:
        """Each candidate with the gaps between its allowed numeric bins filled: a
        feature's numeric bins ``a..b`` allowed wherever some bin at or below and some
        bin at or above are (its category and missing bins as they were)."""
        out = allowed.copy()
        for f, (o, w) in enumerate(zip(self.offsets, self.widths)):
            num = [o + i for i, b in enumerate(self.bins[f]) if b.kind == "num"]
            if len(num) < 3:
                continue
            part = allowed[:, num]
            out[:, num] = (np.logical_or.accumulate(part, axis=1)
                           & np.logical_or.accumulate(part[:, ::-1], axis=1)[:, ::-1])
        return out

    def candidates(self, found):
        """The union of the weak learners' points, each once (in a fixed order), and
        how many program rules each becomes."""
        allowed = np.concatenate(found) if found else np.zeros((0, self.n_bits), dtype=bool)
        # not a point that allows every bin of every feature (a hull can fill each of its
        # features' gaps): the always-true rule is no description of the class, and on a
        # weak signal the set cover took it first (a held-out-shape trial of 300
        # features: "IF TRUE THEN label = 1", no note)
        allowed = allowed[~allowed.all(axis=1)]
        if len(allowed) == 0:
            return allowed, np.zeros(0, dtype=np.int64)
        # each distinct point once, in the byte order of its packed bits (big-endian
        # words sort the same way); np.unique(axis=0) gives the same, five times slower
        packed = np.packbits(allowed, axis=1)
        pad = (-packed.shape[1]) % 8
        words = np.ascontiguousarray(np.pad(packed, ((0, 0), (0, pad)))).view(">u8")
        order = np.lexsort(words.T[::-1])
        words = words[order]
        first = np.ones(len(words), dtype=bool)
        first[1:] = (words[1:] != words[:-1]).any(axis=1)
        allowed = allowed[order[first]]
        return allowed, self.sizes(allowed)

    def sizes(self, allowed) -> np.ndarray:
        """How many program rules each candidate becomes: a constrained feature gives
        one alternative, or two when it allows both numeric and category bins
        (see ``_conditions``); alternatives multiply."""
        n = np.ones(len(allowed), dtype=np.int64)
        for f, (o, w) in enumerate(zip(self.offsets, self.widths)):
            part = allowed[:, o:o + w]
            kinds = [b.kind for b in self.bins[f]]
            if kinds[0] == "flag":
                continue
            num = part[:, [k == "num" for k in kinds]].any(axis=1)
            cat = part[:, [k == "cat" for k in kinds]].any(axis=1)
            alternatives = np.maximum(num.astype(np.int64) + cat, 1)
            if "missing" in kinds:
                alternatives[part[:, kinds.index("missing")]] = 1      # written as `not abK`
            n *= np.where(part.all(axis=1), 1, alternatives)
        return n

    def rule(self, row):
        """A candidate as ``((feature, frozenset of allowed bins), ...)`` over the
        features it constrains."""
        out = []
        for f, (o, w) in enumerate(zip(self.offsets, self.widths)):
            part = row[o:o + w]
            if not part.all():
                out.append((f, frozenset(np.flatnonzero(part).tolist())))
        return tuple(out)

    def row_sets(self, codes) -> np.ndarray:
        """One bitset over the rows of ``codes`` per bin."""
        return row_sets(np.ascontiguousarray(codes, dtype=np.int64), self.offsets, self.n_bits)

    def masks(self, codes, allowed, sets=None) -> np.ndarray:
        """The rows of ``codes`` each candidate covers, as packed bits (``sets``: the
        rows' :meth:`row_sets`, when made already)."""
        if sets is None:
            sets = self.row_sets(codes)
        return rule_masks(sets, np.ascontiguousarray(allowed), self.offsets, self.widths,
                          codes.shape[0])


def _runs(indices):
    """Maximal runs of consecutive integers: [[0, 1], [3]] for {0, 1, 3}."""
    runs = []
    for i in sorted(indices):
        if runs and i == runs[-1][-1] + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def _value_literals(name, bins, allowed, exceptions, ranges=False):
    """Literals, one per alternative, for the allowed value bins (no missing bin).

    Allowed numeric bins that are not contiguous become their hull and an
    exception for the gaps: ``f in [lo, hi) AND NOT abK`` with ``abK`` holding
    on each excluded run, so one boundary point stays one rule.  With ``ranges``
    (MRS), a hull of every number, where ``f in (-inf, inf) AND NOT abK`` would
    only say "f is a number, outside the gaps", becomes one alternative per
    allowed run (``f < 22`` or ``f >= 63``), the ranges a person expects.  LIBRE
    keeps one rule per point: its search counts rules (``_Layout.sizes``).
    """
    nums = sorted(i for i in allowed if bins[i].kind == "num")
    cats = [v for i in allowed if bins[i].kind == "cat" for v in bins[i].values()]
    out = []
    if nums:
        runs = _runs(nums)
        lo, hi = bins[runs[0][0]].lo, bins[runs[-1][-1]].hi
        hull = Interval(name, None if lo is None else normalize_value(lo),
                        None if hi is None else normalize_value(hi), True, False)
        if len(runs) == 1:
            out.append([hull])
        elif ranges and lo is None and hi is None:
            out.extend([_range(name, bins[run[0]].lo, bins[run[-1]].hi)] for run in runs)
        else:
            present = set(nums)
            gaps = [i for i in range(runs[0][0], runs[-1][-1] + 1) if i not in present]
            ab = exceptions.name([(Interval(name, normalize_value(bins[run[0]].lo),
                                            normalize_value(bins[run[-1]].hi), True, False),)
                                  for run in _runs(gaps)])
            out.append([hull, NotAtom(ab)])
    if cats:
        out.append([Compare(name, "==", cats[0]) if len(cats) == 1
                    else InSet(name, frozenset(cats))])
    return out


def _range(name, lo, hi):
    """The literal for numbers in [lo, hi); an open end (None) as a plain comparison."""
    if lo is None:
        return Compare(name, "<", normalize_value(hi))
    if hi is None:
        return Compare(name, ">=", normalize_value(lo))
    return Interval(name, normalize_value(lo), normalize_value(hi), True, False)


class _Exceptions:
    """The exception rules a program needs, each set of bodies named once (``ab1``,
    ``ab2``, ...): rules that exclude the same values share one exception."""

    def __init__(self):
        self.rules: list[Rule] = []
        self._names: dict = {}
        self.bodies: dict = {}          # name -> its rules' bodies

    def name(self, bodies) -> str:
        key = tuple(bodies)
        if key not in self._names:
            self._names[key] = f"ab{len(self._names) + 1}"
            self.rules += [Rule(self._names[key], body) for body in key]
            self.bodies[self._names[key]] = key
        return self._names[key]

    def used_by(self, bodies) -> frozenset:
        """The exceptions these rule bodies name, and those the exceptions' own rules
        name."""
        todo = [lit.name for body in bodies for lit in body if isinstance(lit, NotAtom)]
        seen = set()
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo += [lit.name for body in self.bodies[name] for lit in body
                         if isinstance(lit, NotAtom)]
        return frozenset(seen)


# A value set of up to this many values reads at a glance; a longer one is written as
# ``NOT abK`` naming the fewer values it excludes, which costs a printed rule (abK).
_LONG_SET = 10


def _conditions(name, bins, allowed, exceptions, complements=True, ranges=False):
    """The alternatives (a rule per alternative, each a list of literals) for "in an
    allowed bin".  ``complements``: a condition that excludes fewer values than it
    admits may be written as ``NOT abK`` naming the excluded ones (see the module
    notes); without it a missing or unseen value never satisfies a condition.
    ``ranges``: see :func:`_value_literals`."""
    if bins[0].kind == "flag":
        if len(set(allowed)) > 1:       # both values (a missing flag reads as false): no
            return [[]]                 # condition (MRS's value sets may hold both)
        (b,) = allowed
        return [[Flag(name, bins[b].value)]]
    missing = next((i for i, b in enumerate(bins) if b.kind == "missing"), None)
    values = [i for i in allowed if i != missing]
    kinds = {b.kind for b in bins}
    if complements and missing is None and len(kinds) == 1:
        # a feature with no missing value in training and values of one kind: when
        # the excluded values are fewer, say which (``NOT abK``, abK naming them),
        # which means the same on every training row and reads shorter
        excluded = [i for i in range(len(bins)) if i not in allowed]
        n_values = lambda idx: sum(len(bins[i].values()) for i in idx)   # groups: each value
        if (kinds == {"cat"} and n_values(excluded) < n_values(values)
                and n_values(values) > _LONG_SET):
            cats = [v for i in excluded for v in bins[i].values()]
            lit = Compare(name, "==", cats[0]) if len(cats) == 1 else InSet(name, frozenset(cats))
            return [[NotAtom(exceptions.name([(lit,)]))]]
        if kinds == {"num"} and 0 in allowed and len(bins) - 1 in allowed:
            gaps = [(Interval(name, normalize_value(bins[run[0]].lo),
                              normalize_value(bins[run[-1]].hi), True, False),)
                    for run in _runs(excluded)]
            return [[NotAtom(exceptions.name(gaps))]]
    if missing is None or missing not in allowed:
        return _value_literals(name, bins, values, exceptions, ranges)
    # missing or one of the allowed values = not (one of the excluded values)
    excluded = [i for i in range(len(bins)) if i != missing and i not in allowed]
    options = _value_literals(name, bins, excluded, exceptions)   # may name gap exceptions
    ab = exceptions.name([tuple(option) for option in options])
    return [[NotAtom(ab)]]
