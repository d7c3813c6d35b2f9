"""Simulated annealing over multi-value rule sets (MRS §4), on bitsets of distinct records.

A rule is a tuple of conditions ``(j, values)`` sorted by feature, ``values``
a sorted tuple of item indices local to feature ``j``.  Coverage of items,
conditions and rules are bitsets over distinct records; the score of every
neighbour of the current model is a pair of weighted popcounts
(:mod:`aspml.kernels.bitset`) plus a prior term computed in closed form.

Each step samples a misclassified record.  An uncovered positive proposes
*add a value*, *remove a condition* or *add a rule* (from the mined
candidates that cover it); a covered negative proposes *add a condition* (to a
rule covering it: one value, all values but its own, or for ordered bins all
bins below or above its own) or *remove a rule* (covering it).  All the
neighbours of the chosen action are scored; with probability ``exploration``
a random one is proposed, else the best; it is accepted by the Metropolis
rule at temperature ``t0 ** (1 - t / n_iter)``.  The best model seen is kept,
and each time it improves the support bound (Theorem 2) is recomputed and
candidates below it are dropped.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from ..kernels.bitset import counts, eclat, or_counts, pack, planes, undominated
from . import _mrs_model as mm


@dataclass
class Items:
    """Distinct records and the item bitsets of the usable features."""

    codes: np.ndarray          # distinct records x features, local item index or -1
    pos: np.ndarray            # positive rows per record (whole units, see the scales)
    neg: np.ndarray            # negative rows per record
    widths: list               # items per feature
    ordered: list              # per feature: number of leading items that are ordered bins
    # the weight of one unit of each class: 1 unweighted (and for whole-number weights);
    # else a positive count of u units weighs u * pos_scale in the likelihood
    pos_scale: float = 1.0
    neg_scale: float = 1.0
    item_bits: np.ndarray = field(init=False)
    offsets: np.ndarray = field(init=False)

    def __post_init__(self):
        self.offsets = np.concatenate([[0], np.cumsum(self.widths)]).astype(np.int64)
        n = len(self.pos)
        self.item_bits = np.zeros((int(self.offsets[-1]), max(1, (n + 63) // 64)), np.uint64)
        for j, w in enumerate(self.widths):
            for v in range(w):
                self.item_bits[self.offsets[j] + v] = pack(self.codes[:, j] == v)
        self.pos_planes = planes(self.pos)
        self.neg_planes = planes(self.neg)
        self.pos_any = pack(self.pos > 0)
        self.neg_any = pack(self.neg > 0)
        self.universe = pack(np.ones(n, dtype=bool))
        self.n_pos, self.n_neg = int(self.pos.sum()), int(self.neg.sum())
        self.words = self.item_bits.shape[1]
        self.scaled = (self.pos_scale, self.neg_scale) != (1.0, 1.0)

    def lik(self, tp, fp, h):
        """Eq. (3) for counts of units: weighted counts, fractional when the classes' units
        weigh other than 1 (the Beta functions are Gamma functions of real arguments)."""
        if not self.scaled:
            return mm.log_likelihood(tp, fp, self.n_pos, self.n_neg, h)
        ps, ns = self.pos_scale, self.neg_scale
        return mm.log_likelihood(np.asarray(tp) * ps, np.asarray(fp) * ns, self.n_pos * ps,
                                 self.n_neg * ns, h)

    def bound(self, best, h, max_items):
        """Theorem 2's bounds; on scaled counts only the number of rules (Lemma 1 is
        about uncovering one whole row, so its support bound is not used)."""
        if not self.scaled:
            return mm.support_bound(best, self.n_pos, self.n_neg, h, max_items)
        b = mm.support_bound(best, self.n_pos * self.pos_scale, self.n_neg * self.neg_scale, h,
                             max_items)
        return mm.Bound(b.max_rules, 0)


def _bit(bits, i) -> int:
    return int((bits[..., i >> 6] >> np.uint64(i & 63)) & np.uint64(1)) if bits.ndim == 1 else \
        ((bits[:, i >> 6] >> np.uint64(i & 63)) & np.uint64(1)).astype(bool)


# a feature of more values than this has "all but one value" conditions only for its
# common values (Search._options)
MANY_VALUES = 100


class Search:
    """One annealing run; ``run()`` returns the best rule set found."""

    def __init__(self, items: Items, h: mm.Hyper, *, n_iter, min_support, max_length,
                 n_candidates, exploration, t0, rng):
        self.d, self.h, self.rng = items, h, rng
        self.n_iter, self.exploration, self.t0 = n_iter, exploration, t0
        self._cond, self._rule, self._term, self._nb = {}, {}, {}, {}
        self.max_items = int(sum(w - 1 for w in items.widths)) or 1
        self.best_post = self.posterior([])
        self.bound = items.bound(self.best_post, h, self.max_items)
        self._mine(min_support, max_length, n_candidates)
        self._options()

    # -- bitsets and scores -------------------------------------------------
    def cond_bits(self, j, values):
        key = (j, values)
        b = self._cond.get(key)
        if b is None:
            o = self.d.offsets[j]
            b = np.bitwise_or.reduce(self.d.item_bits[[o + v for v in values]], axis=0)
            self._cond[key] = b
        return b

    def rule_bits(self, rule):
        b = self._rule.get(rule)
        if b is None:
            b = self.d.universe.copy()
            for j, values in rule:
                b &= self.cond_bits(j, values)
            self._rule[rule] = b
        return b

    def rule_term(self, rule) -> float:
        t = self._term.get(rule)
        if t is None:
            t = self._term[rule] = mm.rule_prior([len(v) for _, v in rule], self.h)
        return t

    def nb_rules(self, m: int) -> float:
        """``log NB(m)`` of the number of rules (cached)."""
        t = self._nb.get(m)
        if t is None:
            t = self._nb[m] = float(mm.log_nb(m, self.h.alpha_M, self.h.beta_M))
        return t

    def prior(self, rules) -> float:
        return self.nb_rules(len(rules)) + sum(self.rule_term(r) for r in rules)

    def coverage(self, rules):
        cov = np.zeros(self.d.words, dtype=np.uint64)
        for r in rules:
            cov |= self.rule_bits(r)
        return cov

    def posterior(self, rules) -> float:
        tp, fp = counts(self.coverage(rules)[None, :], self.d.pos_planes, self.d.neg_planes)
        return float(self.d.lik(tp[0], fp[0], self.h)) \
            + self.prior(rules)

    # -- candidates ---------------------------------------------------------
    def _mine(self, min_support, max_length, n_candidates):
        d = self.d
        feature = np.repeat(np.arange(len(d.widths)), d.widths).astype(np.int64)
        # (0.07 * 100 is 7.000000000000001 in floating point: 7 rows are 7%)
        min_pos = max(1, math.ceil(min_support * d.n_pos - 1e-9))
        cap = 200_000
        while True:
            sets, tp, fp, found = eclat(d.item_bits, feature, d.universe, d.pos_planes,
                                        d.neg_planes, min_pos, max_length, cap)
            if found <= cap:
                break
            min_pos = int(min_pos * 1.5) + 1     # too many: raise the support, mine again
        self.min_pos = min_pos
        n_items = (sets >= 0).sum(axis=1)
        score = (d.lik(tp, fp, self.h)
                 + mm.rule_term(n_items, n_items * mm.feature_term(1, self.h.theta), self.h))
        keep = np.flatnonzero(tp + fp >= self.bound.min_support)
        keep = keep[np.argsort(-score[keep], kind="stable")]
        precision = tp / np.maximum(tp + fp, 1)
        keep = keep[undominated(np.ascontiguousarray(sets[keep]), d.item_bits,
                                precision[keep], n_candidates)]
        rules = []
        for s in sets[keep]:
            rules.append(tuple((int(feature[i]), (int(i - d.offsets[feature[i]]),))
                               for i in s if i >= 0))
        self.cands = rules
        self.cand_bits = (np.stack([self.rule_bits(r) for r in rules]) if rules
                          else np.zeros((0, d.words), dtype=np.uint64))
        self.cand_supp = (tp + fp)[keep]
        self.cand_term = np.array([self.rule_term(r) for r in rules])

    def _prune(self):
        self.bound = self.d.bound(self.best_post, self.h, self.max_items)
        keep = self.cand_supp >= self.bound.min_support
        if not keep.all():
            self.cands = [r for r, k in zip(self.cands, keep) if k]
            self.cand_bits, self.cand_supp = self.cand_bits[keep], self.cand_supp[keep]
            self.cand_term = self.cand_term[keep]

    def _options(self):
        """Conditions that *add a condition* may add: per feature, single values, all but
        one value, and for ordered bins every prefix and suffix of bins."""
        d = self.d
        sets = []
        for j, w in enumerate(d.widths):
            seen = set()
            k = d.ordered[j]
            common = None
            if w > MANY_VALUES:
                # "all but v" only for a value of 1% of the feature's rows or more: all but
                # a rarer one holds on nearly every row with a value, and each took O(w) to
                # build (a new-user trial's id column of 4,800 values: 7 s of a fit of 0.6)
                col, units = d.codes[:, j], d.pos + d.neg
                rows = np.bincount(col[col >= 0], weights=units[col >= 0], minlength=w)
                common = rows >= 0.01 * rows.sum()
            for v in range(w):
                cand = [(v,)]
                if common is None or common[v]:
                    cand.append(tuple(u for u in range(w) if u != v))
                if k and v < k:
                    cand += [tuple(range(0, v + 1)), tuple(range(v, k))]
                for vals in cand:
                    if 0 < len(vals) < w and vals not in seen:
                        seen.add(vals)
                        sets.append((j, vals))
        self.opt = sets
        self.opt_feature = np.array([j for j, _ in sets], dtype=np.int64)
        self.opt_size = np.array([len(v) for _, v in sets], dtype=float)
        self.opt_bits = (np.stack([self.cond_bits(j, v) for j, v in sets]) if sets
                         else np.zeros((0, d.words), dtype=np.uint64))

    # -- the walk -----------------------------------------------------------
    def run(self, on_step=None):
        """The annealing walk; ``on_step(t)`` hears every hundredth of the iterations."""
        d, h, rng = self.d, self.h, self.rng
        every = max(1, self.n_iter // 100)
        rules: list = []
        cur = self.best_post
        best_rules = []
        ft = lambda l: mm.feature_term(l, h.theta)
        for t in range(self.n_iter):
            if on_step is not None and t % every == 0:
                on_step(t)
            temp = self.t0 ** (1.0 - t / self.n_iter)
            cov = self.coverage(rules)
            fn_bits = d.pos_any & ~cov
            fp_bits = d.neg_any & cov
            fn_rec = np.flatnonzero(np.unpackbits(fn_bits.view(np.uint8), bitorder="little"))
            fp_rec = np.flatnonzero(np.unpackbits(fp_bits.view(np.uint8), bitorder="little"))
            if len(fn_rec) == 0 and len(fp_rec) == 0:
                break
            w_fn = d.pos[fn_rec].sum() * d.pos_scale      # the weight of what is misclassified
            w_fp = d.neg[fp_rec].sum() * d.neg_scale
            positive = rng.random() * (w_fn + w_fp) < w_fn
            e = int(rng.choice(fn_rec if positive else fp_rec))
            M = len(rules)
            rests = self._rests(rules)
            if positive:
                action = "add_rule" if M == 0 else ("add_value", "remove_condition",
                                                     "add_rule")[rng.integers(3)]
            else:
                action = ("add_condition", "remove_rule")[rng.integers(2)]
            nb = self._neighbours(action, rules, rests, cov, e, ft)
            if nb is None:
                continue
            base, which, extra, dprior, make = nb
            tp, fp = or_counts(base, which, extra, d.pos_planes, d.neg_planes)
            post = d.lik(tp, fp, h) + self.prior(rules) + dprior
            if rng.random() < self.exploration:
                k = int(rng.integers(len(post)))
            else:
                k = int(np.argmax(post))
            delta = float(post[k]) - cur
            if delta >= 0 or rng.random() < math.exp(delta / temp):
                rules = make(k)
                cur = float(post[k])
                if cur > self.best_post + 1e-12:
                    self.best_post, best_rules = cur, list(rules)
                    self._prune()
        return self.polish(best_rules)

    def _rests(self, rules):
        """Coverage of all rules but rule ``m``, for each ``m`` (row ``M`` is all rules)."""
        M = len(rules)
        out = np.zeros((M + 1, self.d.words), dtype=np.uint64)
        bits = [self.rule_bits(r) for r in rules]
        for m in range(M):
            for k in range(M):
                if k != m:
                    out[m] |= bits[k]
        for b in bits:
            out[M] |= b
        return out

    def _new_rules(self, e, present):
        """Rules that *add a rule* may add for record ``e``: the mined candidates covering it
        (all above the support bound) that the model does not hold yet."""
        sel = np.flatnonzero(_bit(self.cand_bits, e)) if len(self.cands) else np.zeros(0, int)
        sel = np.array([c for c in sel if self.cands[c] not in present], dtype=np.int64)
        return self.cand_bits[sel], self.cand_term[sel], [self.cands[c] for c in sel]

    def _others(self, rule, skip):
        b = self.d.universe.copy()
        for i, (j, values) in enumerate(rule):
            if i != skip:
                b &= self.cond_bits(j, values)
        return b

    def _neighbours(self, action, rules, rests, cov, e, ft):
        """``(base, which, extra, prior delta, make)`` for the neighbours of one action."""
        d, h = self.d, self.h
        M = len(rules)
        terms = [self.rule_term(r) for r in rules]
        moves, extras, which, dprior = [], [], [], []
        nb_m = self.nb_rules
        if action == "add_rule":
            bits, terms_new, new_rules = self._new_rules(e, set(rules))
            if not new_rules:
                return None
            dp = nb_m(M + 1) - nb_m(M) + terms_new
            make = lambda k: rules + [new_rules[k]]
            return rests, np.full(len(new_rules), M, np.int64), bits, dp, make
        if action == "remove_rule":
            ms = [m for m in range(M) if _bit(self.rule_bits(rules[m]), e)]
            if not ms:
                return None
            dp = np.array([nb_m(M - 1) - nb_m(M) - terms[m] for m in ms])
            extra = np.zeros((len(ms), d.words), dtype=np.uint64)
            make = lambda k: rules[:ms[k]] + rules[ms[k] + 1:]
            return rests, np.array(ms, np.int64), extra, dp, make
        for m, rule in enumerate(rules):
            sizes = [len(v) for _, v in rule]
            L, fs = sum(sizes), sum(float(ft(s)) for s in sizes)
            if action == "add_condition":
                rb = self.rule_bits(rule)
                if not _bit(rb, e):
                    continue
                used = {j for j, _ in rule}
                ok = ~_bit(self.opt_bits, e) & ~np.isin(self.opt_feature, list(used))
                idx = np.flatnonzero(ok)
                if len(idx) == 0:
                    continue
                extras.append(rb[None, :] & self.opt_bits[idx])
                which += [m] * len(idx)
                n = self.opt_size[idx]
                dprior.append(mm.rule_term(L + n, fs + ft(n), h) - terms[m])
                moves += [(m, "cond", int(o)) for o in idx]
                continue
            for ci, (j, values) in enumerate(rule):
                others = self._others(rule, ci)
                if action == "remove_condition":
                    if len(rule) < 2:
                        continue
                    extras.append(others[None, :])
                    which.append(m)
                    dprior.append(np.atleast_1d(
                        mm.rule_term(L - len(values), fs - float(ft(len(values))), h) - terms[m]))
                    moves.append((m, "drop", ci))
                else:  # add_value
                    w = d.widths[j]
                    if len(values) + 1 >= w:
                        continue
                    new = [v for v in range(w) if v not in values]
                    o = d.offsets[j]
                    cb = self.cond_bits(j, values)
                    extras.append(others[None, :] & (cb[None, :] | d.item_bits[[o + v for v in new]]))
                    which += [m] * len(new)
                    s = len(values)
                    dprior.append(np.full(len(new), float(
                        mm.rule_term(L + 1, fs - float(ft(s)) + float(ft(s + 1)), h)) - terms[m]))
                    moves += [(m, "value", (ci, v)) for v in new]
        if not moves:
            return None
        extra = np.concatenate(extras)
        dp = np.concatenate([np.atleast_1d(x) for x in dprior])

        def make(k):
            m, kind, arg = moves[k]
            rule = list(rules[m])
            if kind == "cond":
                rule.append(self.opt[arg])
            elif kind == "drop":
                del rule[arg]
            else:
                ci, v = arg
                j, values = rule[ci]
                rule[ci] = (j, tuple(sorted(values + (v,))))
            out = list(rules)
            out[m] = tuple(sorted(rule))
            return out
        return rests, np.array(which, np.int64), extra, dp, make

    def polish(self, rules):
        """Greedy clean-up of the best model: merge two rules that differ in the values of
        one condition (the union covers exactly what the two did), drop rules, conditions or
        values, while the posterior does not fall."""
        cur = self.posterior(rules)
        improved = True
        while improved:
            improved = False
            for alt in self._smaller(rules):
                p = self.posterior(alt)
                if p >= cur - 1e-12:
                    rules, cur, improved = alt, p, True
                    break
        self.best_post = max(self.best_post, cur)
        return rules

    def _smaller(self, rules):
        for m1, m2 in itertools.combinations(range(len(rules)), 2):
            merged = _merge(rules[m1], rules[m2])
            if merged is not None:
                yield [r for m, r in enumerate(rules) if m not in (m1, m2)] + [merged]
        for m in range(len(rules)):
            yield rules[:m] + rules[m + 1:]
        for m, rule in enumerate(rules):
            for ci, (j, values) in enumerate(rule):
                if len(rule) > 1:
                    yield rules[:m] + [tuple(c for i, c in enumerate(rule) if i != ci)] + rules[m + 1:]
                if len(values) > 1:
                    for v in values:
                        r = list(rule)
                        r[ci] = (j, tuple(x for x in values if x != v))
                        yield rules[:m] + [tuple(r)] + rules[m + 1:]


def _merge(r1, r2):
    """One rule covering exactly ``r1`` or ``r2`` when they differ in one condition's values."""
    if len(r1) != len(r2) or [j for j, _ in r1] != [j for j, _ in r2]:
        return None
    diff = [i for i, (c1, c2) in enumerate(zip(r1, r2)) if c1 != c2]
    if len(diff) != 1:
        return None
    i = diff[0]
    j = r1[i][0]
    out = list(r1)
    out[i] = (j, tuple(sorted(set(r1[i][1]) | set(r2[i][1]))))
    return tuple(out)
