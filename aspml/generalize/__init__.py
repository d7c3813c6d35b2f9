"""Descriptive models of large rule sets (Adilova et al., "Re-interpreting rules interpretability").

``aspml.generalize(model, rho=0.8, epsilon=0.0, reference=X)`` explains a rule
set too large to read -- a decision tree with hundreds of leaves, a forest's
mimic, an aspml Program, a list of rules -- by a smaller set of *union rules*:
pairs of congruent rules are united closest first (Algorithm 1) while each
union's coherence coefficient (and, with reference rows, its fidelity) stays at
least ``rho``.  The result keeps the derivation hierarchy, so each union can be
taken apart again.

Modules: :mod:`.rules` (definitions 1-9, plainly), :mod:`.encoding` (rules as
boxes in arrays), :mod:`.algorithm`
(Algorithm 1 on arrays), :mod:`.sources` (trees, forests, Programs),
:mod:`.model` (the result), :mod:`.render` (HTML/SVG pictures),
:mod:`.command` (``aspml simplify``).
"""

from __future__ import annotations

import math
import sys
import warnings
import numbers

import numpy as np

from .._given import _is_aspml_estimator, as_program
from .._words import count
from ..errors import AspmlError, AspmlWarning
from ..logic.model import Program
from . import algorithm, encoding
from .model import DescriptiveModel, DescriptiveRule
from .rules import (BoxRule, coherence, condition_distance, condition_subsumes, congruent,
                    covers_correctly, rule_distance, subsumes, unite, unite_conditions,
                    unite_predictions)
from .sources import as_box_rules, is_sklearn_model, rules_from_program, rules_from_sklearn

__all__ = ["generalize", "DescriptiveModel", "DescriptiveRule", "BoxRule", "rules_from_sklearn",
           "coherence", "condition_distance", "condition_subsumes", "congruent",
           "covers_correctly", "rule_distance", "subsumes", "unite", "unite_conditions",
           "unite_predictions", "fidelity", "subsumption_pairs"]


def generalize(model, rho: float = 1.0, epsilon: float = 0.0, reference=None, *,
               iterative: bool = False, rho_start: float = 1.0, rho_step: float = 0.05,
               task: str | None = None, feature_names=None, ranges=None,
               reference_predictions=None, check_fidelity: bool = True,
               target: str | None = None) -> DescriptiveModel:
    """A descriptive model of ``model``'s rules.

    Parameters
    ----------
    model : aspml.Program (or a fitted aspml estimator: its ``program_``), a list of rules, or a fitted scikit-learn
        DecisionTreeClassifier / DecisionTreeRegressor / random forest.  A list
        holds :class:`BoxRule` objects or ``(conditions, prediction)`` pairs whose
        conditions are aspml ``Interval``/``InSet`` (or ``== <= < > >=``)
        literals and whose prediction is a class, a number or a ``(lo, hi)``
        interval.  A Program's rules predict its target's positive label.
    rho : roughness threshold: the least coherence (and fidelity) a union may have.
    epsilon : tolerance: numeric predictions within ``epsilon`` are congruent.
    reference : optional DataFrame of rows on which each union's fidelity must
        also reach ``rho`` (with ``check_fidelity=False`` it is only measured);
        required, with the check, for a Program (its rules are all of one class);
        the original model's answers on it come from the
        scikit-learn model or the Program when there is one, else from the rules
        (``reference_predictions`` overrides).  It also gives the features' ranges.
    iterative : the variant of §3.5: ``rho`` from ``rho_start`` down to ``rho``
        by ``rho_step``, each run starting from the last one's result.
    task : "classification" or "regression"; inferred when omitted (float or
        interval predictions mean regression; scikit-learn says which).
    ranges : ``{feature: (vmin, vmax)}`` for the distance; by default the
        reference data's range joined with the rules' thresholds.
    """
    for name, v, lo, hi in (("rho", rho, 0, 1), ("rho_start", rho_start, 0, 1)):
        if not isinstance(v, numbers.Real) or isinstance(v, bool) or not lo <= v <= hi:
            raise AspmlError(f"{name} must be a number in [0, 1], got {v!r}")
    if not isinstance(epsilon, numbers.Real) or isinstance(epsilon, bool) \
            or not math.isfinite(epsilon) or epsilon < 0:
        raise AspmlError(f"epsilon must be a finite number >= 0, got {epsilon!r}")
    if iterative and (not isinstance(rho_step, numbers.Real) or not rho_step > 0):
        raise AspmlError(f"rho_step must be a positive number, got {rho_step!r}")
    if iterative and rho_start < rho:
        raise AspmlError(f"rho_start {rho_start:g} is below rho {rho:g}: the iterative run "
                         "lowers rho from rho_start down to rho")
    positive = negative = schema = None
    target_name = target or "prediction"
    if _is_aspml_estimator(model):             # a fitted FoldSE, Libre ...: its program
        model = as_program(model, "generalize")
    if isinstance(model, Program):
        rules, positive, negative = rules_from_program(model)
        if not model.is_multiclass and (reference is None or not check_fidelity):
            # every rule predicts the positive label, so every union is coherent: only the
            # reference rows' fidelity can refuse one (else all collapse into one rule)
            fix = ("give reference rows (reference=, --reference DATA.csv) on which each "
                   "union's fidelity is judged" if reference is None else
                   "keep the fidelity check on (no check_fidelity=False / --no-fidelity-check)")
            raise AspmlError(f"the program's rules all predict {positive!r}, so every union of "
                             f"them is coherent and nothing would stop them all merging: {fix}")
        if model.is_multiclass:
            _note_overlaps(rules)
        schema = model.schema
        target_name = target or model.target.name
        task = task or "classification"
        if reference is not None and reference_predictions is None:
            # a list: the labels may be a number and a string (1, "not 1")
            reference_predictions = (list(model.predict(reference)) if model.is_multiclass else
                                     [positive if hit else negative
                                      for hit in model.predict(reference)])
    elif is_sklearn_model(model):
        rules = rules_from_sklearn(model, feature_names)
        task = task or ("classification" if hasattr(model, "classes_") else "regression")
        if reference is not None:
            reference = _sklearn_reference(model, reference, feature_names)
        if reference is not None and reference_predictions is None:
            reference_predictions = _sklearn_predict(model, reference, feature_names)
    elif isinstance(model, (list, tuple)):
        rules = as_box_rules(model)
    else:
        raise AspmlError(f"cannot generalize a {type(model).__name__}: give an aspml Program, a list "
                         "of rules, or a fitted scikit-learn decision tree or random forest")
    task = task or encoding.infer_task(rules)
    enc = encoding.encode(rules, task, epsilon, ranges, reference, reference_predictions, schema)
    state = algorithm.start(enc)
    history = []
    if iterative:
        steps = []
        r = float(rho_start)
        while r > rho + 1e-9:
            steps.append(round(r, 10))
            r -= rho_step
        steps.append(float(rho))
    else:
        steps = [float(rho)]
    for r in steps:
        before = state.n_unions
        algorithm.run(state, r, check_fidelity)
        history.append((r, int(state.alive.sum()), state.n_unions - before))
    return DescriptiveModel(state, float(rho), float(epsilon), target_name, positive, negative,
                            schema, history,
                            model.classes if isinstance(model, Program) else ())


def _note_overlaps(rules) -> None:
    """Warn when two rules of different classes of a decision list can hold on one row: the
    program answers the earlier rule's class there, and the descriptive model, which reads
    each rule where its conditions hold, may then claim a class the program does not give."""
    pairs = [(i, j) for j in range(len(rules)) for i in range(j)
             if rules[i].prediction != rules[j].prediction and _overlap(rules[i], rules[j])]
    if pairs:
        i, j = pairs[0]
        more = f" (and {count(len(pairs) - 1, 'other pair')})" if len(pairs) > 1 else ""
        warnings.warn(
            f"rules {i + 1} ({rules[i].prediction!r}) and {j + 1} ({rules[j].prediction!r}) of "
            f"this decision list can hold on one row{more}: the program answers the earlier "
            "rule's class there, but the descriptive model reads each rule wherever its "
            "conditions hold, so a rule may claim a class the program does not give; the "
            "fidelity on reference rows measures how often", AspmlWarning, stacklevel=3)


def _overlap(a: BoxRule, b: BoxRule) -> bool:
    """Whether some row can meet both rules' conditions."""
    try:
        BoxRule(a.conditions + b.conditions, None)  # intersects them feature by feature
    except AspmlError:                              # "... exclude each other"
        return False
    return True


def _sklearn_reference(model, X, feature_names):
    """The reference rows of a scikit-learn model as a DataFrame (an array: its columns
    named as the model's features), refused where a feature the trees split on is
    missing: scikit-learn sends a missing value down one branch of each split
    (``missing_go_to_left``), which a leaf's intervals do not say, so the rules would
    leave the row uncovered where the model predicts it (a new user's trial: 145 rows
    of 3,000, and a fidelity of 1.0 that left them out)."""
    import pandas as pd

    from .sources import _feature_names, _trees
    cols = _feature_names(model, feature_names)
    if not isinstance(X, pd.DataFrame):
        arr = np.asarray(X, dtype=object) if not hasattr(X, "ndim") else X
        if getattr(arr, "ndim", 0) != 2 or arr.shape[1] != len(cols):
            raise AspmlError(f"reference must be a DataFrame, or a 2-D array of the model's "
                             f"{len(cols)} features, not {type(X).__name__}"
                             + (f" of shape {arr.shape}" if hasattr(arr, "shape") else ""))
        X = pd.DataFrame(arr, columns=cols)
    from ..cli_learners import flag_values, is_flag_column
    X = X.copy()
    for c in cols:              # text read from a file: numbers, and true / false as bools
        if c in X.columns and not (pd.api.types.is_numeric_dtype(X[c])
                                   or pd.api.types.is_bool_dtype(X[c])):
            if is_flag_column(flag_values(X[c], ())):      # as aspml learn reads a flag
                X[c] = X[c].map(lambda v: None if pd.isna(v) else
                                str(v).strip().lower() == "true")
            else:
                X[c] = pd.to_numeric(X[c], errors="coerce")
    split = sorted({int(f) for e in _trees(model) for f in e.tree_.feature if f >= 0})
    used = [cols[f] for f in split if cols[f] in X.columns]
    gaps = [c for c in used if X[c].isna().any()]
    if gaps:
        raise AspmlError(f"the reference data has missing (or non-numeric) values in "
                         f"{', '.join(map(repr, gaps[:3]))}{' ...' if len(gaps) > 3 else ''}, "
                         "which the model splits on: scikit-learn sends a missing value down "
                         "one branch of each split, which a leaf's intervals do not say; fill "
                         "or drop those rows")
    return X


def _sklearn_predict(model, X, feature_names):
    import pandas as pd

    from .sources import _feature_names
    cols = _feature_names(model, feature_names)
    missing = [c for c in cols if c not in X.columns]
    if missing:
        hint = ("" if getattr(model, "feature_names_in_", None) is not None else
                "; the model was fitted without column names: give them with "
                "feature_names= (--feature-names on the command line)")
        raise AspmlError(f"the reference data has no column(s) {missing}{hint}")
    frame = X[cols].apply(pd.to_numeric, errors="coerce")
    if getattr(model, "feature_names_in_", None) is None:
        frame = frame.to_numpy()
    return model.predict(frame).tolist()


def subsumption_pairs(rules, engine: str = "fast") -> list[tuple[int, int]]:
    """All pairs ``(i, j)``, ``i != j``, where rule ``i`` subsumes rule ``j`` (Definition 1).

    ``engine="fast"`` uses the box kernels Algorithm 1 runs on; ``"clingo"`` asks
    clingo (one grounding of ``encodings/subsumption.lp`` over the rules as
    facts, :func:`aspml.asp.subsumption`).  Both give the same pairs (tested).
    """
    rules = as_box_rules(rules)
    if engine == "clingo":
        from ..asp import subsumption
        from ..logic.model import Rule
        return subsumption([Rule(None, r.conditions) for r in rules])
    if engine != "fast":
        raise AspmlError(f"engine must be 'fast' or 'clingo', not {engine!r}")
    from ..kernels.generalize import box_contains
    enc = encoding.encode(rules, encoding.infer_task(rules), 0.0)
    n = enc.n
    return [(i, j) for i in range(n) for j in range(n) if i != j and
            box_contains(enc.lo[i], enc.hi[i], enc.loc[i], enc.hic[i], enc.bits[i],
                         enc.lo[j], enc.hi[j], enc.loc[j], enc.hic[j], enc.bits[j])]


def fidelity(model: DescriptiveModel):
    """Definition 11 (see :attr:`DescriptiveModel.fidelity`)."""
    return model.fidelity


# ``aspml.generalize`` is the function above on the package (aspml/__init__.py), and
# ``import aspml.generalize.rules as r`` looks each name up on it: the submodules are
# there too, so that import (the API reference's name) gives the module.
from . import command, render  # noqa: F401  (bound on generalize below)

for _name in ("algorithm", "command", "encoding", "model", "render", "rules", "sources"):
    setattr(generalize, _name, sys.modules[f"{__name__}.{_name}"])
del _name
