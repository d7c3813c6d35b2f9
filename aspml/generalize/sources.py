"""Where rule sets come from: aspml Programs, lists of rules, scikit-learn trees and forests."""

from __future__ import annotations

import numpy as np

from ..errors import AspmlError
from ..logic.model import Interval, NotAtom, NotCompare, Program, Rule
from .rules import BoxRule


def rules_from_sklearn(model, feature_names=None) -> list[BoxRule]:
    """One rule per leaf of a fitted DecisionTreeClassifier/Regressor or random forest.

    A leaf's rule is its path, one interval per feature (``x <= t`` on the left,
    ``x > t`` on the right, intersected); its prediction is the leaf's majority
    class, or its mean value for a regressor.  Leaves of every tree of a forest
    are listed tree after tree.
    """
    trees = _trees(model)
    names = _feature_names(model, feature_names)
    classes = getattr(model, "classes_", None)
    out = []
    for est in trees:
        t = est.tree_
        if t.n_outputs != 1:
            raise AspmlError("multi-output trees are not supported")
        stack = [(0, {})]
        leaves = []
        while stack:
            node, bounds = stack.pop()
            left, right = t.children_left[node], t.children_right[node]
            if left == right:                                   # a leaf
                leaves.append((node, bounds))
                continue
            f, thr = int(t.feature[node]), _threshold(t.threshold[node])
            lo, hi = bounds.get(f, (None, None))
            # the left child: x <= thr ; the right child: x > thr
            stack.append((right, {**bounds, f: (thr if lo is None or thr > lo else lo, hi)}))
            stack.append((left, {**bounds, f: (lo, thr if hi is None or thr < hi else hi)}))
        leaves.sort(key=lambda x: x[0])
        for node, bounds in leaves:
            conds = tuple(Interval(names[f], lo, hi, False, hi is not None)
                          for f, (lo, hi) in sorted(bounds.items()))
            value = t.value[node, 0]
            if classes is not None:
                pred = classes[int(np.argmax(value))]
            else:
                pred = float(value[0])
            out.append(BoxRule(conds, pred))
    return out


def _threshold(t) -> float:
    """A split threshold as written.  scikit-learn's tree compares ``float32(x) <= t``,
    ``t`` a float64 (the mean of two float32 values, itself a float32 or not): its left
    side holds the float32 values up to ``a``, the largest float32 at most ``t``, and the
    shortest decimal of ``a`` is the same test on them (and on aspml's reading of a
    float32 column, its values' shortest decimals) and reads as ``0.55`` rather than
    ``0.550000011920929``.  Not the float32 nearest ``t``: it may lie above ``t`` (a tree
    on 0.1 and 0.2 splits at 0.15000000223517418, whose nearest float32 is 0.15's,
    0.150000006: ``x <= 0.15`` then took the row 0.15, which the tree sends right; a
    new-user trial); ``a`` is 0.14999999."""
    a = np.float32(t)
    if float(a) > float(t):
        a = np.nextafter(a, np.float32(-np.inf))
    return float(np.format_float_positional(a, unique=True, trim="-"))


def _trees(model):
    try:
        from sklearn.ensemble._forest import ForestClassifier, ForestRegressor
        from sklearn.tree import BaseDecisionTree
    except ImportError:                                          # pragma: no cover
        raise AspmlError("reading a scikit-learn model needs scikit-learn") from None
    if isinstance(model, BaseDecisionTree):
        est = [model]
    elif isinstance(model, (ForestClassifier, ForestRegressor)) and hasattr(model, "estimators_"):
        # a random forest or extra trees: each tree predicts the class (or the value) on
        # every feature.  Not gradient boosting (its trees fit residuals), an isolation
        # forest (path lengths) or bagging (each tree sees a subset of the features)
        est = list(np.ravel(model.estimators_))
    else:
        raise AspmlError(f"{type(model).__name__} is not a fitted scikit-learn decision tree or "
                         "forest (DecisionTree*, RandomForest*, ExtraTrees*): its trees' leaves "
                         "are not its predictions")
    if not all(hasattr(e, "tree_") for e in est):
        raise AspmlError("the scikit-learn model is not fitted")
    for k, e in enumerate(est):
        _check_nodes(e.tree_, getattr(model, "n_features_in_", None), k)
    return est


def _check_nodes(t, n_features, k: int) -> None:
    """Refuse a tree whose node storage is not one scikit-learn builds: a child index out
    of range or not after its parent (so no loop), a feature out of range, a value table of
    the wrong shape.  scikit-learn follows these indexes without bounds checks, and a model
    read from a file (skops) may hold anything."""
    n = int(t.node_count)
    left, right = np.asarray(t.children_left), np.asarray(t.children_right)
    feature, value = np.asarray(t.feature), np.asarray(t.value)
    nodes = np.arange(n)
    inner = left != right
    ok = (n >= 1 and len(left) == len(right) == len(feature) == n and value.shape[0] == n
          and np.all((left[inner] > nodes[inner]) & (left[inner] < n))
          and np.all((right[inner] > nodes[inner]) & (right[inner] < n))
          and np.all(feature[inner] >= 0)
          and (n_features is None or np.all(feature[inner] < n_features)))
    if not ok:
        raise AspmlError(f"tree {k + 1} of the scikit-learn model is malformed (node indexes "
                         "out of range): not a tree scikit-learn built")


def _feature_names(model, feature_names):
    n = getattr(model, "n_features_in_", None)
    if feature_names is None:
        feature_names = getattr(model, "feature_names_in_", None)
        if feature_names is None:
            feature_names = [f"x{i}" for i in range(n)]
    names = [str(f) for f in feature_names]
    if n is not None and len(names) != n:
        raise AspmlError(f"{len(names)} feature names for a model of {n} features")
    return names


def is_sklearn_model(model) -> bool:
    return type(model).__module__.startswith("sklearn.")


def rules_from_program(program: Program) -> tuple[list[BoxRule], object, object]:
    """The default rules of a Program, each predicting the target's positive label (a
    multi-class program's rules: each its own class).

    Returns ``(rules, positive, negative)``; the labels are the target's (True
    and False when it names none; ``None`` and ``None`` for a multi-class program,
    whose rules are read as a rule set: the descriptive model describes where each
    class's rules hold, not the order that settles a row two classes' rules cover;
    :func:`aspml.generalize` warns when two classes' rules can hold on one row).  Exceptions (``not abK``), negated
    comparisons and ``!=`` have no place in a conjunction of intervals and
    value sets, and are refused.
    """
    from ..explain import binary_answer
    positive, negative = binary_answer(program, True), binary_answer(program, False)
    out = []
    for i, rule in enumerate(program.rules):
        if rule.head is not None:
            raise AspmlError(f"rule {i + 1} defines the exception {rule.head}; descriptive models "
                             "take programs without exceptions (conjunctions of intervals and sets)")
        for lit in rule.body:
            if isinstance(lit, (NotAtom, NotCompare)):
                from ..logic.printers import text_literal
                raise AspmlError(f"rule {i + 1} has {text_literal(lit)}; descriptive models take "
                                 "conjunctions of intervals and value sets (no exceptions or negation)")
        out.append(BoxRule(rule, rule.label if program.is_multiclass else positive))
    if program.is_multiclass:
        return out, None, None
    return out, positive, negative


def as_box_rules(items) -> list[BoxRule]:
    """A list of BoxRules, ``(body, prediction)`` pairs (body: literals or a Rule)."""
    out = []
    for i, item in enumerate(items):
        if isinstance(item, BoxRule):
            out.append(item)
        elif isinstance(item, (tuple, list)) and len(item) == 2:
            body, pred = item
            if not isinstance(body, Rule):
                body = tuple(body)
            out.append(BoxRule(body, pred))
        else:
            raise AspmlError(f"rule {i + 1}: expected a BoxRule or a (conditions, prediction) pair, "
                             f"got {type(item).__name__}")
    return out
