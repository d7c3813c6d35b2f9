"""Multi-value Rule Sets (Wang, NeurIPS 2018): rules whose conditions hold sets of values.

1. Items: a categorical feature's values as they are; a numeric feature cut
   into ``n_bins`` ordered bins (quantiles by default, or equal width), each
   bin an item; a Boolean feature's true / false.  A *condition* is a set of
   items of one feature, a *rule* a conjunction of conditions on distinct
   features, the model their disjunction.
2. The posterior of eqs. (2)-(3) (``aspml.learners._mrs_model``), found by
   simulated annealing (``aspml.learners._mrs_search``) over candidate rules
   mined as frequent itemsets of the positive class, pruned by the support
   bound of Theorem 2.  Coverage is a bitset over distinct records.
3. The program: categorical values as ``f in {v1, v2}`` (``f = v`` for one);
   adjacent bins merged into one interval ``f in [lo, hi)``; bins with gaps as
   their hull with an exception for the gaps (``f in [lo, hi) AND NOT abK``),
   or one rule per allowed range when the hull is every number (``f < lo``,
   ``f >= hi``, not ``f in (-inf, inf) AND NOT abK``);
   a condition holding numbers and strings of a mixed column as one rule per
   kind.  All of these are exact: the program covers precisely the rows the
   learner's bitsets cover.

Missing values satisfy no condition on their feature (they form no item), so
a rule with a condition on ``f`` never covers a row where ``f`` is missing.
The exception is a Boolean feature, whose "false" item is the program's
``not f(X)`` and so also holds where ``f`` is missing.
"""

from __future__ import annotations

import copy
import math
import warnings

import joblib
import numpy as np

from ..errors import AspmlWarning
from ..logic.model import Rule
from . import _mrs_model as mm
from ._base import (
    LogicClassifier,
    balanced_hint,
    floor2,
    is_real,
    is_whole,
    positive_share,
)
from ._mrs_search import Items, Search
from .libre import _conditions, _Exceptions, _feature_bins


def quantile_cuts(values: np.ndarray, n_bins: int, binning: str = "quantile",
                  weights: np.ndarray | None = None) -> np.ndarray:
    """Cut points (data values, so the program's numbers stay exact) for ``n_bins`` bins.

    Bin ``k`` is ``[cuts[k-1], cuts[k])``; fewer bins come out when values repeat.
    With ``weights`` the quantiles are weighted: for whole-number weights exactly
    those of the values repeated that many times.
    """
    ok = ~np.isnan(values)
    v = values[ok]
    if v.size == 0 or n_bins < 2:
        return np.zeros(0)
    uniq = np.unique(v)
    if binning == "quantile" and weights is not None:
        edges = _weighted_higher_quantiles(v, weights[ok], np.arange(1, n_bins) / n_bins)
    elif binning == "quantile":
        edges = np.quantile(v, np.arange(1, n_bins) / n_bins, method="higher")
    else:
        edges = np.linspace(uniq[0], uniq[-1], n_bins + 1)[1:-1]
        edges = uniq[np.minimum(np.searchsorted(uniq, edges, side="left"), len(uniq) - 1)]
    cuts = np.unique(edges)
    return cuts[cuts > uniq[0]]


def _weighted_higher_quantiles(v, w, qs):
    """``np.quantile(v repeated w times, qs, method="higher")`` without repeating: the
    positions numpy would take in the repeated array (numpy computes them, on the
    positions themselves), found in the cumulative weights.  Fractional weights
    take the first value whose cumulative weight reaches ``q`` of the total."""
    order = np.argsort(v, kind="stable")
    v, cum = v[order], np.cumsum(w[order])
    total = cum[-1]
    if np.all(w == np.round(w)) and total <= 2**24:
        at = np.quantile(np.arange(int(total), dtype=float), qs, method="higher")
        return v[np.searchsorted(cum, at, side="right")]
    return v[np.minimum(np.searchsorted(cum, qs * total, side="left"), len(v) - 1)]


def _units(weights, y):
    """Whole-number units per row and the weight of a unit of each class:
    ``(units, pos_scale, neg_scale)``.  Whole-number weights are their own units
    (scale 1: exactly the counts of repeated rows); a class whose rows weigh the
    same (class_weight alone) counts rows and scales them; other weights are
    rounded to 1/1024 of the class's largest weight (each row at least 1 unit)."""
    units = np.ones(len(y), dtype=np.int64)
    if weights is None:
        return units, 1.0, 1.0
    scales = []
    for side in (y, ~y):
        w = weights[side]
        if np.all(w == np.round(w)):
            units[side], scale = np.round(w).astype(np.int64), 1.0
        elif np.all(w == w[0]):
            scale = float(w[0])
        else:
            scale = float(w.max()) / 1024
            units[side] = np.maximum(1, np.round(w / scale)).astype(np.int64)
        scales.append(scale)
    return units, scales[0], scales[1]


class MultiValueRuleSet(LogicClassifier):
    """Multi-value Rule Sets: few, short rules over few features, each condition a value set.

    Parameters
    ----------
    n_iter : int, default 1000
        Annealing steps.
    n_bins : int, default 5
        Bins per numeric feature.
    binning : {"quantile", "uniform"}, default "quantile"
    alpha_M, beta_M : float, default 1, 10
        Gamma prior on the rate of the number of rules (larger ``beta_M``: fewer rules).
    alpha_L, beta_L : float, default 1, 10
        Gamma prior on the rate of the number of items (values) per rule.
    theta : float, default 1
        Dirichlet parameter of the feature assignment, the same for every feature.
    alpha_plus, beta_plus, alpha_minus, beta_minus : float, default 100, 1, 100, 1
        Beta priors of the precision of covered / uncovered rows (eq. 3).
    rho_min : float, default 0.7
        The Beta priors truncated to ``[rho_min, 1)``: covered rows are positive,
        uncovered rows negative, at least this often.  ``0`` is eq. (3) as printed,
        which is symmetric up to the pseudo-counts and on large tables favours
        rule sets that cover mostly negatives (credit_card, adult).
    min_support : float, default 0.05
        Candidate rules cover at least this fraction of the positive rows.
    max_length : int, default 3
        Items per mined candidate rule.
    n_candidates : int, default 1000
        Candidates kept, the best by the posterior of the one-rule model.
    max_features_mined : int or None, default 100
        On a wider table the search (candidate mining and annealing) sees only
        this many features: those whose best single condition scores highest
        (the likelihood of eq. 3 for the value set of the feature's most
        precise values, see :func:`screen_features`), with an ``AspmlWarning``
        naming how many were left out.  Mining over every feature of a wide
        table costs time and memory that grow with the cube of the number of
        items, and with thousands of features the support must rise so far
        that planted rules are lost.  The prior still counts every usable
        feature.  ``None``: mine every feature.
    exploration : float, default 0.1
        Probability of proposing a random neighbour instead of the best.
    t0 : float, default 10
        Initial temperature; step ``t`` anneals at ``t0 ** (1 - t / n_iter)``.
    n_chains : int, default 1
        Independent annealing chains, each from its own random stream (the
        first is the one ``n_chains=1`` runs); the rule set with the highest
        posterior wins.  One chain can stop in a worse state than another
        seed would (see ``examples/mrs_value_sets``); more chains cost time
        in proportion.
    n_jobs : int or None, default 1
        Chains run side by side through joblib (``n_chains`` > 1): its default
        backend runs them in worker processes (the walk is Python, which threads
        would serialize), ``joblib.parallel_backend("dask")`` on a Dask cluster;
        -1 every core.  The same rule set as ``n_jobs=1``: each chain walks its
        own random stream, and the best posterior is chosen in chain order.
    random_state : int, Generator or None
    positive, kinds, missing, target : as for every aspml learner.
    max_class_bins : int, default 20
        Multi-class only: with quantile binning, a class that is a smaller share
        of the rows the decision list leaves it than one of ``n_bins`` bins has
        its numbers cut into ``ceil(1 / share)`` bins, at most this many, so that
        a narrow range of a number where the class lies can be a bin of its own
        (a class of 8% of the rows among bins of 20% each has no precise
        condition on that number; docs, multi-class benchmarks). ``n_bins`` or
        less: every class ``n_bins``, as a binary fit.
    class_order : {"precision", "frequency"}, default "precision"
        Multi-class only: the order of the classes' rule sets, as for ``Libre``
        (whose default is ``"frequency"``: MRS's rules on quantile bins are the less
        precise at their edges, and a decision list of them does better with its
        surest rules first; docs, multi-class benchmarks).
    class_weight : None, "balanced" or dict, default None
        Weights of the classes, scikit-learn's convention (see ``FoldSE``); with
        ``fit(sample_weight=...)`` a row counts as its weight.  The likelihood
        (eq. 3) then reads weighted counts: whole-number weights exactly as
        repeated rows; a class whose rows weigh the same (``class_weight``
        alone) as its row counts times the weight, fractional counts inside the
        Beta functions (Gamma functions of real numbers); other weights rounded
        to 1/1024 of their class's largest weight.  Binning uses weighted
        quantiles.  On fractional counts Theorem 2's support bound is not used
        (only its bound on the number of rules).

    Attributes
    ----------
    rules_ : list of list of (feature name, values)
        The rule set, each condition's values as categories or ``(lo, hi)`` bins.
    posterior_ : float
        Log posterior (up to a constant) of the learned rule set.
    support_bound_ : int
        Theorem 2's bound on the support of a MAP rule at the end of the search.
    n_features_mined_ : int
        Features the search saw (at most ``max_features_mined``).
    """

    _fewer_rules = ("a higher min_support (the share of a class's rows a rule must cover, "
                    "0.05 by default) learns fewer, broader rules")

    _multiclass_only = ("class_order", "max_class_bins")
    _notes_every_row = True     # "MultiValueRuleSet's rules hold on every training row"
    max_class_bins = 0      # an MRS pickled before it had them: every class n_bins
    _weights_as_copies = "its likelihood (the counts against its priors' pseudo-counts)"
    _not_provenance = ("kinds", "missing", "n_jobs")

    def __init__(self, n_iter=1000, n_bins=5, binning="quantile", alpha_M=1.0, beta_M=10.0,
                 alpha_L=1.0, beta_L=10.0, theta=1.0, alpha_plus=100.0, beta_plus=1.0,
                 alpha_minus=100.0, beta_minus=1.0, rho_min=0.7, min_support=0.05, max_length=3,
                 n_candidates=1000, exploration=0.1, t0=10.0, n_chains=1, n_jobs=1, random_state=None,
                 positive=None, kinds=None, missing=None, target=None,
                 max_features_mined=100, background=None, class_weight=None,
                 class_order="precision", max_class_bins=20):
        self.n_iter = n_iter
        self.n_bins = n_bins
        self.binning = binning
        self.alpha_M = alpha_M
        self.beta_M = beta_M
        self.alpha_L = alpha_L
        self.beta_L = beta_L
        self.theta = theta
        self.alpha_plus = alpha_plus
        self.beta_plus = beta_plus
        self.alpha_minus = alpha_minus
        self.beta_minus = beta_minus
        self.rho_min = rho_min
        self.min_support = min_support
        self.max_length = max_length
        self.n_candidates = n_candidates
        self.max_features_mined = max_features_mined
        self.exploration = exploration
        self.t0 = t0
        self.n_chains = n_chains
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.positive = positive
        self.kinds = kinds
        self.missing = missing
        self.target = target
        self.background = background
        self.class_weight = class_weight
        self.class_order = class_order
        self.max_class_bins = max_class_bins

    def _check(self):
        for name in ("n_iter", "n_bins", "max_length", "n_candidates", "n_chains"):
            v = getattr(self, name)
            low = {"n_iter": 0, "n_bins": 2}.get(name, 1)   # one bin: the number says nothing
            if not (is_whole(v) and v >= low):
                raise ValueError(f"{name} must be an integer >= {low}, got {v!r}")
        v = self.n_jobs
        if v is not None and not (is_whole(v) and v != 0):
            raise ValueError(f"n_jobs must be None or a nonzero integer (-1: every core), got {v!r}")
        if not (is_whole(self.max_class_bins) and self.max_class_bins >= 0):
            raise ValueError(f"max_class_bins must be an integer >= 0, got "
                             f"{self.max_class_bins!r}")
        v = self.max_features_mined
        if v is not None and not (is_whole(v) and v >= 1):
            raise ValueError(f"max_features_mined must be None or an integer >= 1, got {v!r}")
        if self.binning not in ("quantile", "uniform"):
            raise ValueError(f"binning must be 'quantile' or 'uniform', got {self.binning!r}")
        for name in ("alpha_M", "beta_M", "alpha_L", "beta_L", "theta", "alpha_plus",
                     "beta_plus", "alpha_minus", "beta_minus", "t0"):
            v = getattr(self, name)
            if not (is_real(v) and v > 0):
                raise ValueError(f"{name} must be a positive number, got {v!r}")
        if self.t0 < 1:
            raise ValueError(f"t0 must be >= 1, got {self.t0!r}")
        if not (is_real(self.rho_min) and 0 <= self.rho_min < 1):
            raise ValueError(f"rho_min must be in [0, 1), got {self.rho_min!r}")
        for name in ("min_support", "exploration"):
            v = getattr(self, name)
            if not (is_real(v) and 0 <= v <= 1):
                raise ValueError(f"{name} must be in [0, 1], got {v!r}")

    def _class_bins(self) -> bool:
        """Whether this fit is a class of a multi-class fit binned by quantiles, whose bins
        ``max_class_bins`` may make finer (:meth:`_n_bins`)."""
        return getattr(self, "_in_decision_list", False) and self.binning == "quantile"

    def _n_bins(self, y, weights=None) -> int:
        """The bins of each number for this fit: ``n_bins``, or for a class of a multi-class
        fit smaller than one bin, ``ceil(1 / share)`` up to ``max_class_bins``."""
        n = int(self.n_bins)
        if self._class_bins():
            share = positive_share(y, weights)
            if 0 < share < 1 / n:
                n = max(n, min(math.ceil(1 / share), int(self.max_class_bins)))
        return n

    def _items(self, table, y, weights=None):
        """Per usable feature: its bins and each row's item (-1: missing, satisfies nothing)."""
        feats, bins, codes = [], [], []
        n_bins = self._n_bins(y, weights)
        for name in self.schema_.names:
            col = table[name]
            cuts = (quantile_cuts(np.where(col.is_num, col.num, np.nan), n_bins,
                                  self.binning, weights)
                    if col.kind != "boolean" and col.is_num.any() else None)
            b, code = _feature_bins(col, y, 0.0, cuts=cuts)
            if b and b[-1].kind == "missing":
                code = np.where(code == len(b) - 1, -1, code)
                b = b[:-1]
            if len(b) < 2:
                continue                          # one value: no condition can help
            feats.append(name)
            bins.append(b)
            codes.append(code)
        return feats, bins, codes

    def _learn(self, table, y):
        self._check()
        n_chains = int(self.n_chains)
        total = int(self.n_iter) * n_chains + 2          # binning, mining, annealing steps
        self._report(0, total, "binning features")
        weights = getattr(self, "_weight", None)
        feats, bins, codes = self._items(table, y, weights)
        h = mm.Hyper(float(self.alpha_M), float(self.beta_M), float(self.alpha_L),
                     float(self.beta_L), float(self.theta), float(self.alpha_plus),
                     float(self.beta_plus), float(self.alpha_minus), float(self.beta_minus),
                     max(1, len(feats)), float(self.rho_min))
        cap = self.max_features_mined
        if cap is not None and len(feats) > int(cap):
            keep = screen_features(codes, bins, y, h, int(cap), weights)
            warnings.warn(f"MultiValueRuleSet mined {int(cap)} of the {len(feats)} usable "
                          f"features, those whose best single condition fits the class best "
                          f"(max_features_mined={cap}; None mines every feature, at a cost that "
                          "grows fast with the width of the table)", AspmlWarning, stacklevel=3)
            feats = [feats[j] for j in keep]
            bins = [bins[j] for j in keep]
            codes = [codes[j] for j in keep]
        self.n_features_mined_ = len(feats)
        rng = self._rng()
        if not feats:
            warnings.warn("MultiValueRuleSet learned no rules: no feature holds two values "
                          "(missing values aside)", AspmlWarning, stacklevel=3)
            self.rules_, self.posterior_, self.support_bound_ = [], float("nan"), 0
            self._train_cover = np.zeros(len(y), dtype=bool)
            return self._finish([])
        items, inverse = _distinct(codes, bins, y, weights)
        self._report(1, total, "mining candidates")
        search = Search(items, h, n_iter=int(self.n_iter), min_support=float(self.min_support),
                        max_length=int(self.max_length), n_candidates=int(self.n_candidates),
                        exploration=float(self.exploration), t0=float(self.t0), rng=rng)
        streams = [rng, *rng.spawn(n_chains - 1)] if n_chains > 1 else [rng]
        chains = []
        for stream in streams:                    # the same candidates, a fresh walk each
            chain = copy.copy(search)
            chain.rng = stream
            chains.append(chain)
        if n_chains > 1 and joblib.effective_n_jobs(self.n_jobs) > 1:
            walks = joblib.Parallel(n_jobs=self.n_jobs, return_as="generator")(
                joblib.delayed(_walk)(chain) for chain in chains)
        else:
            walks = (_walk(chain, lambda t, k=k: self._report(2 + k * search.n_iter + t, total,
                                                              "annealing"))
                     for k, chain in enumerate(chains))
        found, best = None, -np.inf
        for k, (rules, post, chain) in enumerate(walks):      # in chain order
            if k == 0 and chain.rng is not rng:
                # chain 0 walks the fit's own stream: a worker walked a copy, so move the
                # fit's Generator on as the walk in this process would have (a Generator
                # given as random_state, or the next class of a multi-class fit, reads on)
                rng.bit_generator.state = chain.rng.bit_generator.state
            self._report(2 + (k + 1) * search.n_iter, total, "annealing")
            if post > best + 1e-9:
                found, best, kept = rules, post, chain
        search = kept
        self._warn_unmined(found, feats, bins, codes, y, weights)
        if not found:
            # a rare class: the prior of the empty rule set is hard to beat unweighted
            # (FOLD's "no rules" note gives the same hint)
            hint = (balanced_hint(positive_share(y, weights),
                                  getattr(self, "_rows_said", "the rows"))
                    if getattr(self, "class_weight", None) is None else "")
            share, n_bins = positive_share(y, weights), self._n_bins(y, weights)
            more = _more_bins(share, n_bins, "max_class_bins" if self._class_bins() else "n_bins")
            # a class smaller than one bin: no condition on a number can be precise for it,
            # whatever its weight, so the bins come first (a trial, a 0.5% class: "balanced",
            # then first, gave test F1 0.148; the bins named, 0.553)
            first = [more, hint] if _smaller_than_a_bin(share, n_bins) else [hint, more]
            advice = ", ".join(a for a in first if a)
            warnings.warn(f"MultiValueRuleSet learned no rules: none of the "
                          f"{len(search.cands)} candidate rules raised the posterior above the "
                          "empty rule set's. The features may not predict the class; if they "
                          f"should, {advice}, a "
                          f"min_support below {self.min_support} or more iterations than "
                          f"n_iter={self.n_iter} may find rules", AspmlWarning, stacklevel=3)
        cov = np.unpackbits(search.coverage(found).view(np.uint8), bitorder="little")
        self._train_cover = cov[inverse].astype(bool)   # the learner's own coverage, per row
        if found and self._train_cover.all() and not getattr(self, "_in_decision_list", False):
            # a value set of every value (a flag true or false) holds on every row: the
            # program calls every row positive, which describes nothing (a deployment
            # trial's table of Boolean columns gave "IF TRUE" with no word)
            warnings.warn("MultiValueRuleSet's rules hold on every training row: the "
                          f"program calls every row positive ({positive_share(y, weights):.3f} "
                          "of the rows are), so it does not describe the class. The features "
                          "may not tell the classes apart", AspmlWarning, stacklevel=3)
        self.posterior_ = search.posterior(found)
        self.support_bound_ = search.bound.min_support
        self.n_candidates_ = len(search.cands)
        self.rules_ = [[(feats[j], [_describe(bins[j][v]) for v in values]) for j, values in r]
                       for r in found]
        return self._program(found, feats, bins)

    def _warn_unmined(self, found, feats, bins, codes, y, weights) -> None:
        """An AspmlWarning for each categorical column of many values (ten or more, each
        on two rows or more on average: not an id) that no rule reads and none of whose
        values holds ``min_support`` of the class's rows: a mined rule starts from single
        values, so the column never entered the search (a held-out trial's 500 codes in
        five groups of the class's rate: accuracy 0.66 and no word; with a min_support
        below the most common value's share, 0.80, LIBRE's figure, which groups values)."""
        used = {feats[j] for rule in found for j, _ in rule}
        pos = np.asarray(y, dtype=bool)
        units = np.ones(len(pos)) if weights is None else np.asarray(weights, dtype=float)
        total = units[pos].sum()
        for j, name in enumerate(feats):
            cats = [k for k, b in enumerate(bins[j]) if b.kind == "cat"]
            if name in used or len(cats) < 10 or total <= 0:
                continue
            code, width = codes[j], len(bins[j])
            rows = np.bincount(code[code >= 0], minlength=width)[cats]
            if rows.sum() < 2 * len(cats):
                continue
            mine = pos & (code >= 0)
            positives = np.bincount(code[mine], minlength=width)[cats]
            on_pos = (positives if weights is None else
                      np.bincount(code[mine], weights=units[mine], minlength=width)[cats])
            top = float(on_pos.max()) / total
            if top >= self.min_support or top <= 0 or not _tells_classes(rows, positives):
                continue
            below = floor2(top)
            warnings.warn(f"MultiValueRuleSet's rules do not read column {name!r}: none of "
                          f"its {len(cats)} values is on {self.min_support * 100:g}% of the "
                          f"class's rows (min_support={self.min_support:g}; the most common is "
                          f"on {top:.2%}), and a mined rule starts from single values; "
                          f"min_support={below:g} lets them into the mining, at a cost in time "
                          "(Libre groups a column's values itself)", AspmlWarning, stacklevel=4)

    def _program(self, found, feats, bins):
        rules, exceptions = [], _Exceptions()
        for rule in found:
            variants = [[]]
            for j, values in rule:
                options = _conditions(feats[j], bins[j], list(values), exceptions,
                                      complements=False, ranges=True)
                variants = [v + [o] for v in variants for o in options]
            for v in variants:
                rules.append(Rule(None, tuple(lit for option in v for lit in option)))
        return self._finish(list(dict.fromkeys(rules)) + exceptions.rules)


def _tells_classes(rows: np.ndarray, positives: np.ndarray) -> bool:
    """Whether a column's values hold the class at rates that differ beyond chance: a
    chi-square test of the values against the class, p below 0.001 (a review: the note of
    an unmined column named a 50-value state column of pure noise)."""
    from scipy.stats import chi2_contingency
    table = np.stack([positives, rows - positives], axis=1)
    table = table[rows > 0]
    if (table.sum(axis=0) == 0).any() or len(table) < 2:
        return False
    return bool(chi2_contingency(table, correction=False).pvalue < 1e-3)


def _smaller_than_a_bin(share: float, n_bins: int) -> bool:
    """Whether a class of ``share`` of the rows is smaller than one of ``n_bins`` quantile
    bins: then no condition on a number can be precise for it."""
    return 0 < share < 1 / n_bins


def _more_bins(share: float, n_bins: int, knob: str) -> str:
    """The "no rules" note's advice on bins: a class that is a smaller share of the rows
    than one quantile bin cannot have a bin of its own (a trial's twelve classes, each a
    narrow range of one number, 8% of the rows against bins of 20%: no rules, and the
    note named the defaults as if they were the way out); ``share``: the class's share of
    the rows, ``knob``: the parameter that sets this fit's bins."""
    if _smaller_than_a_bin(share, n_bins):
        return (f"more bins (each of the {n_bins} quantile bins holds {1 / n_bins:.0%} of "
                f"the rows, more than the class: {knob}={math.ceil(1 / share)} or more can "
                "give a narrow range of a number its own bin)")
    if knob == "max_class_bins":
        # the class's own bins (ceil(1 / share), fewer than max_class_bins): n_bins above
        # them gives more (a real-table trial read "n_bins, 14 here" with n_bins at 5)
        return (f"more bins (this class, {share:.0%} of the rows it was learned on, had each "
                f"number cut into {n_bins} quantile bins; n_bins={n_bins + 1} or more gives "
                "more, and a narrow tail of a number needs a bin of its own)")
    return (f"more bins (n_bins, {n_bins} here; a narrow tail of a number needs a bin of its "
            "own)")


def _walk(chain: Search, on_step=None):
    """One annealing chain (in a worker, when chains run in parallel): its best rule
    set, that set's posterior, and the chain, whose candidates and bound it pruned."""
    rules = chain.run(on_step)
    return rules, chain.posterior(rules), chain


def screen_features(codes, bins, y, h, k, weights=None):
    """The indices (in order) of the ``k`` features whose best single condition scores highest.

    A feature's score is the largest log likelihood (eq. 3) of a one-rule
    model whose condition holds the feature's ``m`` most precise values, over
    every ``m`` below the number of its values: one pass over each column, so
    screening thousands of features costs less than mining a few.  Ties keep
    the earlier feature.
    """
    tps, fps, owner = [], [], []
    w = np.ones(len(y)) if weights is None else weights
    for j, (code, b) in enumerate(zip(codes, bins)):
        ok = code >= 0
        pos = np.bincount(code[ok], weights=(y * w)[ok], minlength=len(b))
        every = np.bincount(code[ok], weights=w[ok], minlength=len(b))
        order = np.argsort(-(pos / np.maximum(every, 1)), kind="stable")
        tps.append(np.cumsum(pos[order])[:-1])
        fps.append(np.cumsum(every[order] - pos[order])[:-1])
        owner.append(np.full(len(b) - 1, j))
    n_pos = int(y.sum()) if weights is None else float(w[y].sum())
    n_all = len(y) if weights is None else float(w.sum())
    lik = mm.log_likelihood(np.concatenate(tps), np.concatenate(fps), n_pos, n_all - n_pos, h)
    scores = np.full(len(codes), -np.inf)
    np.maximum.at(scores, np.concatenate(owner), lik)     # one call: scipy's per-call cost
    return np.sort(np.argsort(-scores, kind="stable")[:k])


def _distinct(codes, bins, y, weights=None):
    """The distinct records of the item codes, with their class counts (in units of
    :func:`_units`), and each row's record."""
    mat = np.stack(codes, axis=1).astype(np.int32)
    uniq, inverse = np.unique(mat, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    units, pos_scale, neg_scale = _units(weights, y)
    pos = np.bincount(inverse, weights=(y * units).astype(float),
                      minlength=len(uniq)).round().astype(np.int64)
    neg = np.bincount(inverse, weights=(~y * units).astype(float),
                      minlength=len(uniq)).round().astype(np.int64)
    ordered = [sum(1 for x in b if x.kind == "num") for b in bins]
    return Items(uniq, pos, neg, [len(b) for b in bins], ordered, pos_scale, neg_scale), inverse


def _describe(b):
    if b.kind == "num":
        return (b.lo, b.hi)
    return b.value
