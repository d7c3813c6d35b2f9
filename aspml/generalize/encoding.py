"""The rules as boxes in arrays: what Algorithm 1 and its kernels work on.

Numeric features hold ``lo .. hi`` with closed flags (``-inf .. inf`` where a rule
has no condition), categorical features a run of bits per value plus an "other"
bit (see :mod:`aspml.kernels.generalize`); predictions are intervals (a class is
its code on both ends).  The reference rows are encoded alongside, with the
original model's answer on each row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..errors import AspmlError
from ..evaluate import equal_rows
from ..kernels import generalize as K
from ..logic.model import Feature, InSet, Interval
from ..logic.values import is_number
from .rules import BoxRule, is_numeric_prediction, prediction_interval


@dataclass
class Encoding:
    """The original rules, the features, and the arrays Algorithm 1 works on."""

    rules: list
    task: str                      # "classification" or "regression"
    classes: list                  # class labels by code (classification)
    eps: float                     # tolerance on encoded predictions (0 for classes)
    numeric: list
    categorical: list
    domains: dict                  # categorical feature -> its values (bit order)
    ranges: dict                   # numeric feature -> (vmin, vmax)
    cat_start: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    loc: np.ndarray
    hic: np.ndarray
    nlo: np.ndarray
    nhi: np.ndarray
    bits: np.ndarray
    plo: np.ndarray
    phi: np.ndarray
    xn: np.ndarray                 # reference rows (numbers), n_rows x numeric
    xc: np.ndarray                 # reference rows (category bits), n_rows x categorical
    rlo: np.ndarray                # the original model's prediction per row (NaN: none)
    rhi: np.ndarray

    @property
    def n(self) -> int:
        return len(self.rules)

    @property
    def has_reference(self) -> bool:
        return self.xn.shape[0] > 0

    # -- boxes <-> rules -------------------------------------------------
    def box_rule(self, s: int) -> BoxRule:
        conds = []
        for f, name in enumerate(self.numeric):
            lo, hi = self.lo[s, f], self.hi[s, f]
            if lo == -np.inf and hi == np.inf:
                continue
            conds.append(Interval(name, None if lo == -np.inf else _num(lo),
                                  None if hi == np.inf else _num(hi),
                                  bool(self.loc[s, f]), bool(self.hic[s, f])))
        for k, name in enumerate(self.categorical):
            a, b = self.cat_start[k], self.cat_start[k + 1]
            if self.bits[s, b - 1]:
                continue
            conds.append(InSet(name, frozenset(v for v, on in zip(self.domains[name], self.bits[s, a:b - 1])
                                               if on)))
        order = {name: i for i, name in enumerate(self.feature_order)}
        conds.sort(key=lambda c: order[c.feature])
        return BoxRule(tuple(conds), self.prediction(s))

    def prediction(self, s: int):
        if self.task == "classification":
            return self.classes[int(self.plo[s])]
        lo, hi = float(self.plo[s]), float(self.phi[s])
        return lo if lo == hi else (lo, hi)

    def rows_in(self, s: int) -> np.ndarray:
        return K.rows_in_box(self.lo[s], self.hi[s], self.loc[s], self.hic[s], self.bits[s],
                             self.cat_start, self.xn, self.xc)

    def codes(self, s: int) -> np.ndarray:
        """0 / 1 / 2 per original rule: not covered, covered correctly, wrongly by slot ``s``."""
        return K.coverage_codes(self.lo[s], self.hi[s], self.loc[s], self.hic[s], self.bits[s],
                                self.plo[s], self.phi[s], self.eps, self.lo, self.hi, self.loc,
                                self.hic, self.bits, self.plo, self.phi, self.n)

    feature_order: list = field(default_factory=list)
    flags: set = field(default_factory=set)   # numeric features whose reference column is boolean


def _num(v: float):
    return int(v) if float(v).is_integer() and abs(v) < 2**53 else float(v)


# ---------------------------------------------------------------------------
# encoding
# ---------------------------------------------------------------------------

def infer_task(rules) -> str:
    preds = [r.prediction for r in rules]
    if any(isinstance(p, tuple) or isinstance(p, float) for p in preds):
        if not all(is_numeric_prediction(p) for p in preds):
            raise AspmlError("the rules mix numeric and class predictions")
        return "regression"
    return "classification"


def encode(rules, task: str, epsilon: float, ranges=None, reference=None,
           reference_predictions=None, schema=None) -> Encoding:
    rules = list(rules)
    if not rules:
        raise AspmlError("there are no rules to generalize")
    kinds: dict = {}
    order: dict = {}
    for r in rules:
        for c in r.conditions:
            order.setdefault(c.feature, len(order))
            if isinstance(c, Interval):
                kinds[c.feature] = "numeric"
            else:
                kinds.setdefault(c.feature, "categorical")
    # a feature tested with an interval anywhere is numeric, and its singleton sets of
    # numbers are [v, v]; a feature only ever tested with sets (even of numbers) is categorical
    if schema is not None:
        for f in schema.features:
            if f.name in kinds and f.kind == "categorical" and kinds[f.name] == "numeric":
                raise AspmlError(f"feature {f.name!r} is categorical but a rule tests it with an interval")
    fixed = []
    for r in rules:
        conds = []
        for c in r.conditions:
            if kinds[c.feature] == "numeric" and isinstance(c, InSet):
                if len(c.members) != 1:
                    raise AspmlError(f"feature {c.feature!r} is tested with intervals and with the "
                                     f"value set {sorted(c.members)}; use one kind of condition")
                v = next(iter(c.members))
                if not is_number(v):
                    raise AspmlError(f"feature {c.feature!r} is tested with intervals and with "
                                     f"the value {v!r}; use one kind of condition")
                c = Interval(c.feature, v, v, True, True)
            conds.append(c)
        fixed.append(BoxRule(tuple(conds), r.prediction) if conds != list(r.conditions) else r)
    rules = fixed
    feature_order = sorted(order, key=order.get)
    numeric = [f for f in feature_order if kinds[f] == "numeric"]
    categorical = [f for f in feature_order if kinds[f] == "categorical"]

    # predictions
    if task not in ("classification", "regression"):
        raise AspmlError(f"task must be 'classification' or 'regression', not {task!r}")
    n = len(rules)
    cap = 2 * n
    plo = np.zeros(cap)
    phi = np.zeros(cap)
    classes: list = []
    if task == "classification":
        if any(isinstance(r.prediction, (tuple, frozenset)) for r in rules):
            raise AspmlError("a classification rule predicts an interval or a set; give one class each")
        index: dict = {}
        for r in rules:
            index.setdefault(r.prediction, len(index))
        classes = list(index)
        for i, r in enumerate(rules):
            plo[i] = phi[i] = index[r.prediction]
        eps = 0.0
    else:
        if not all(is_numeric_prediction(r.prediction) for r in rules):
            raise AspmlError("regression rules must predict numbers or (lo, hi) intervals")
        for i, r in enumerate(rules):
            plo[i], phi[i] = prediction_interval(r.prediction)
        eps = float(epsilon)

    # reference rows
    frame = None
    if reference is not None:
        if not isinstance(reference, pd.DataFrame):
            raise AspmlError(f"reference must be a pandas DataFrame, got {type(reference).__name__}")
        absent = [f for f in feature_order if f not in reference.columns]
        if absent:
            raise AspmlError(f"the reference data has no column(s) {absent}")
        frame = reference
    from ..data.table import encode_column, infer_kind
    cols = {}
    # a Program's flags (``bird``, read as bird > 0.5) stay flags, with or without rows
    flags = {f.name for f in (schema.features if schema is not None else ())
             if f.kind == "boolean" and kinds.get(f.name) == "numeric"}
    for f in feature_order if frame is not None else ():
        kind = "mixed"
        if kinds[f] == "numeric" and (f in flags or infer_kind(frame[f]) == "boolean"):
            kind = "boolean"            # False / True as 0 / 1, as a scikit-learn tree reads them
            flags.add(f)
        cols[f] = encode_column(frame[f], Feature(f, kind))

    # ranges and domains
    ranges = dict(ranges or {})
    for f in numeric:
        if f in ranges:
            vmin, vmax = (float(v) for v in ranges[f])
        else:
            ends = [v for r in rules for c in r.conditions if c.feature == f
                    for v in (c.lo, c.hi) if v is not None]
            vals = np.asarray(ends, dtype=float)
            if f in cols and cols[f].is_num.any():
                vals = np.concatenate([vals, cols[f].num[cols[f].is_num]])
            vmin, vmax = (float(vals.min()), float(vals.max())) if vals.size else (0.0, 0.0)
        ranges[f] = (vmin, vmax)
    domains = {}
    for f in categorical:
        values: dict = {}
        for r in rules:
            c = r.condition(f)
            if c is not None:
                for v in c.sorted_members():
                    values.setdefault(v, None)
        domains[f] = list(values)
    cat_start = np.zeros(len(categorical) + 1, dtype=np.int64)
    for k, f in enumerate(categorical):
        cat_start[k + 1] = cat_start[k] + len(domains[f]) + 1

    dn = len(numeric)
    lo = np.full((cap, dn), -np.inf)
    hi = np.full((cap, dn), np.inf)
    loc = np.zeros((cap, dn), dtype=bool)
    hic = np.zeros((cap, dn), dtype=bool)
    bits = np.zeros((cap, int(cat_start[-1])), dtype=bool)
    for i, r in enumerate(rules):
        for k, f in enumerate(categorical):
            c = r.condition(f)
            a = cat_start[k]
            if c is None:
                bits[i, a:cat_start[k + 1]] = True
            else:
                pos = {v: j for j, v in enumerate(domains[f])}
                for v in c.members:
                    bits[i, a + pos[v]] = True
        for f_i, f in enumerate(numeric):
            c = r.condition(f)
            if c is None:
                continue
            if c.lo is not None:
                lo[i, f_i], loc[i, f_i] = c.lo, c.lo_closed
            if c.hi is not None:
                hi[i, f_i], hic[i, f_i] = c.hi, c.hi_closed
    nlo = np.zeros((cap, dn))
    nhi = np.zeros((cap, dn))
    enc = Encoding(rules, task, classes, eps, numeric, categorical, domains, ranges, cat_start,
                   lo, hi, loc, hic, nlo, nhi, bits, plo, phi,
                   np.zeros((0, dn)), np.zeros((0, len(categorical)), dtype=np.int64),
                   np.zeros(0), np.zeros(0), feature_order, flags)
    for i in range(n):
        normalize_slot(enc, i)

    if frame is not None:
        m = len(frame)
        xn = np.full((m, dn), np.nan)
        for f_i, f in enumerate(numeric):
            col = cols[f]
            xn[:, f_i] = np.where(col.is_num, col.num, np.nan)
        xc = np.full((m, len(categorical)), -1, dtype=np.int64)
        for k, f in enumerate(categorical):
            col = cols[f]
            other = cat_start[k + 1] - 1
            xc[~col.missing, k] = other
            for j, v in enumerate(domains[f]):
                xc[equal_rows(col, v), k] = cat_start[k] + j
        enc.xn, enc.xc = xn, xc
        enc.rlo, enc.rhi = _reference_predictions(enc, reference_predictions)
    return enc


def normalize_slot(enc: Encoding, s: int) -> None:
    for f_i, f in enumerate(enc.numeric):
        vmin, vmax = enc.ranges[f]
        span = vmax - vmin
        if span <= 0:
            enc.nlo[s, f_i] = enc.nhi[s, f_i] = 0.0
            continue
        enc.nlo[s, f_i] = (min(max(enc.lo[s, f_i], vmin), vmax) - vmin) / span
        enc.nhi[s, f_i] = (min(max(enc.hi[s, f_i], vmin), vmax) - vmin) / span


def _reference_predictions(enc: Encoding, given):
    """The original model's answer on each reference row, as an encoded interval (NaN: none).

    ``given`` (one answer per row, e.g. a scikit-learn model's ``predict``) wins;
    otherwise the original rules answer: the class most of the applicable rules
    predict (ties: the first such rule's), or the mean of the applicable rules'
    numeric predictions.
    """
    m = enc.xn.shape[0]
    rlo = np.full(m, np.nan)
    rhi = np.full(m, np.nan)
    if given is not None:
        given = list(given)
        if len(given) != m:
            raise AspmlError(f"{len(given)} reference predictions for {m} reference rows")
        if enc.task == "classification":
            index = {c: i for i, c in enumerate(enc.classes)}
            for r, y in enumerate(given):
                y = y.item() if hasattr(y, "item") else y
                if y is None or (isinstance(y, float) and math.isnan(y)):
                    continue
                rlo[r] = rhi[r] = index.get(y, -1)   # a class no rule predicts never agrees
        else:
            v = np.asarray(given, dtype=float)
            rlo[:], rhi[:] = v, v
        return rlo, rhi
    cover = np.stack([enc.rows_in(i) for i in range(enc.n)], axis=1) if enc.n else np.zeros((m, 0), bool)
    if enc.task == "classification":
        votes = np.zeros((m, len(enc.classes)))
        for i in range(enc.n):
            votes[cover[:, i], int(enc.plo[i])] += 1
        has = votes.sum(axis=1) > 0
        best = votes.argmax(axis=1).astype(float)
        rlo[has] = rhi[has] = best[has]
    else:
        mid = (enc.plo[:enc.n] + enc.phi[:enc.n]) / 2
        count = cover.sum(axis=1)
        has = count > 0
        total = cover.astype(float) @ mid
        rlo[has] = rhi[has] = total[has] / count[has]
    return rlo, rhi


def fidelity_counts(enc: Encoding, s: int) -> tuple[int, int]:
    """Definition 10's counts for slot ``s``: reference rows it applies to where the original
    model answers, and of those the rows where its prediction is congruent with the model's."""
    rows = enc.rows_in(s) & ~np.isnan(enc.rlo)
    width = np.maximum(enc.rhi[rows], enc.phi[s]) - np.minimum(enc.rlo[rows], enc.plo[s])
    return int(rows.sum()), int(np.sum(width <= enc.eps + K.TOL * (1 + abs(enc.eps))))
