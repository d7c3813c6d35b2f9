"""What every aspml learner shares: input checks, classes, the scikit-learn contract.

A learner subclasses :class:`LogicClassifier` and implements ``_learn(X, y)``
(a DataFrame and a boolean target) returning a Program; fitting, predicting,
probabilities and the fitted attributes (``classes_``, ``n_features_in_``,
``feature_names_in_``, ``schema_``, ``program_``) are handled here once.

With three or more classes and no ``positive``, ``fit`` learns a multi-class
program (a decision list, see :class:`aspml.logic.model.Program`) through
``_learn_multiclass(X, y_idx)``; the default here builds it from one binary
program per class (:meth:`LogicClassifier._one_per_class`), FOLD overrides it
with FOLD-RM's scheme.
"""

from __future__ import annotations

import json
import math
import numbers
import shlex
import warnings
from dataclasses import replace

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted, column_or_1d

from ..data.table import (column_sources, in_memory, looks_like_dates, looks_like_identifier, schema_and_table,
                          take_rows)
from ..errors import AspmlError, AspmlWarning
from ..evaluate import (default_indices, evaluate, first_of_coverage, first_rules,
                        visit_default_rules)
from ..evaluate import predict as fast_predict
from ..kernels.bitset import pack, unpack
from ..logic.model import (Compare, NotAtom, Program, Rule, Schema, Target,
                           exceptions_apart, missing_tokens)
from ..logic.values import as_label, composed


def as_frame(X, names=None) -> pd.DataFrame:
    """``X`` as a DataFrame with string column names (``x0, x1, ...`` for arrays); a Dask
    DataFrame is computed, keeping its names."""
    X = in_memory(X)
    if isinstance(X, pd.DataFrame):
        frame = X
        named = [isinstance(c, str) for c in frame.columns]
        if any(named) and not all(named):
            kinds = sorted({type(c).__name__ for c in frame.columns})
            raise TypeError(f"column names must all be strings (or none of them, to be read by "
                            f"position), got names of types {kinds}; convert them with "
                            "X.columns = X.columns.astype(str)")
        if not any(named):                 # e.g. pd.DataFrame(array): read by position
            frame = frame.set_axis([f"x{i}" for i in range(frame.shape[1])], axis=1)
        if frame.columns.duplicated().any():
            twice = sorted({str(c) for c in frame.columns[frame.columns.duplicated()]})
            raise AspmlError(f"the data names column(s) {twice} more than once; rename them")
    else:
        if hasattr(X, "toarray") or type(X).__module__.startswith("scipy.sparse"):
            raise TypeError("sparse input is not supported: aspml learners read a dense table; "
                            "convert with X.toarray()")
        arr = np.asarray(X, dtype=object) if not isinstance(X, np.ndarray) else X
        if arr.ndim != 2:
            raise ValueError(f"Expected 2D array, got {arr.ndim}D array instead. Reshape your "
                             "data either using X.reshape(-1, 1) if it has a single feature or "
                             "X.reshape(1, -1) if it contains a single sample.")
        if np.iscomplexobj(arr):
            raise ValueError("Complex data not supported")
        frame = pd.DataFrame(arr, columns=names if names is not None
                             else [f"x{i}" for i in range(arr.shape[1])])
    if frame.shape[1] == 0:
        raise ValueError(f"0 feature(s) (shape={frame.shape}) while a minimum of 1 is required.")
    if frame.shape[0] == 0:
        raise ValueError(f"0 sample(s) (shape={frame.shape}) while a minimum of 1 is required.")
    for c in frame.columns:
        if frame[c].dtype.kind == "c":
            raise ValueError("Complex data not supported")
    return frame


def is_real(v, finite: bool = True) -> bool:
    """A real number (Python, numpy, Fraction, ...), not a bool nor NaN; finite unless
    ``finite=False`` (then infinity passes too)."""
    if not isinstance(v, numbers.Real) or isinstance(v, (bool, np.bool_)):
        return False
    try:
        f = float(v)
    except OverflowError:              # an int too large for a float
        f = math.inf
    return not math.isnan(f) and (not finite or math.isfinite(f))


def is_whole(v) -> bool:
    """An integer (Python or numpy), not a bool."""
    return isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_))


def positive_share(y: np.ndarray, weights=None) -> float:
    """The positive rows' share of all rows (``y`` boolean), of their weight when
    ``weights`` is given."""
    if weights is None:
        return float(np.mean(y)) if len(y) else 0.0
    return float(weights[y].sum()) / max(float(weights.sum()), 1e-300)


def balanced_hint(share: float, rows: str = "the rows") -> str:
    """The hint the learners' "no rules" notes give for a minority class of ``rows`` (what
    the share is of), else ''.  Under a fifth of the rows until a held-out sweep: eleven
    fits on classes of 21% to 40% learned no rule in some fold (FOLD-SE, FOLD-R++, MRS),
    macro-F1 0.38-0.51; "balanced" gave 0.41-0.67, higher in ten (docs, real tables)."""
    return (f'class_weight="balanced" (the class is {share_percent(share)} of {rows})'
            if share < 0.5 else "")


def share_percent(share: float) -> str:
    """A share as a percentage a person reads: ``15.0%``, and below 0.1% two significant
    digits (``0.062%``: 10 rows of 16,000, which ``.1%`` prints as ``0.0%``)."""
    if 0 < share < 1e-6:
        return "under 0.0001%"
    if share < 0.001:
        return f"{100 * share:.2g}%"
    return f"{share:.1%}"


def class_totals(y_idx, rows, weight, n_classes: int) -> np.ndarray:
    """Each class's number of rows (their weight when weighted) among ``rows`` (a mask, or
    None: all)."""
    keep = slice(None) if rows is None else rows
    return np.bincount(y_idx[keep], weights=None if weight is None else weight[keep],
                       minlength=n_classes).astype(float)


def largest_class(totals: np.ndarray, *counts) -> int:
    """The class of the largest total, totals within rounding (1e-9, relative: as
    :func:`aspml.kernels.fold_loop.most`) tying; ties go to the class of more rows
    (``counts``, callables giving each class's unweighted rows, asked in turn while
    classes tie), then to the first.  Weights that make the classes weigh the same
    ("balanced") tie them all: the default class is then the class of the most rows,
    not the first by name (nor the one float rounding favours)."""
    tied = np.flatnonzero(totals >= totals.max() * (1 - 1e-9))
    for count in counts:
        if len(tied) == 1:
            break
        values = np.asarray(count())[tied]
        tied = tied[values == values.max()]
    return int(tied[0])


# a multi-class rule's own class, where the training rows it decided do not make it the
# most likely, is put this much (relatively) ahead of the next class in predict_proba
CLASS_MARGIN = 1e-3


def rule_hits(program, X, target, weight=None, missing=None, cov=None) -> np.ndarray:
    """2 x (default rules + 1): per default rule, the positive rows (their weight) where it
    fires, then all the rows where it fires; the last column for the rows no rule fires.
    ``cov``: the program's rows x rules coverage of ``X`` when the caller has it (else
    each default rule's mask is made in turn, no rows x rules matrix)."""
    n_default = len(program.default_rules)
    hits = np.zeros((2, n_default + 1))
    if cov is not None:
        w = np.ones(len(target)) if weight is None else weight
        fired = np.zeros(len(target), dtype=bool)
        for k, i in enumerate(default_indices(program)):
            rows = cov[:, i]
            hits[:, k] = (w[rows & target].sum(), w[rows].sum())
            fired |= rows
        hits[:, -1] = (w[~fired & target].sum(), w[~fired].sum())
        return hits
    positive = pack(target)
    fired = np.zeros_like(positive)

    def count(k, mask):
        if weight is None:
            hits[:, k] = (np.bitwise_count(mask & positive).sum(), np.bitwise_count(mask).sum())
        else:
            rows = unpack(mask, len(target))
            hits[:, k] = (weight[rows & target].sum(), weight[rows].sum())
        fired[:] |= mask
    visit_default_rules(program, X, count, missing)
    none = ~unpack(fired, len(target))
    w = np.ones(len(target)) if weight is None else weight
    hits[:, -1] = (w[none & target].sum(), w[none].sum())
    return hits


def class_counts(program, X, y_idx, n_classes, weight=None, missing=None,
                 cov=None) -> np.ndarray:
    """(default rules + 1) x classes: the rows (their weight) of each class that each
    default rule decides, the last row for the rows no rule decides.  ``cov``: the
    program's rows x rules coverage of ``X`` when the caller has it."""
    first = first_rules(program, X, missing) if cov is None else first_of_coverage(program, cov)
    n_default = len(program.default_rules)
    decided = np.where(first < 0, n_default, first)
    counts = np.zeros((n_default + 1, n_classes))
    np.add.at(counts, (decided, y_idx), 1.0 if weight is None else weight)
    return counts


def warn_identifier(name: str, n: int, stacklevel: int = 4) -> None:
    """The note on a rule that uses an identifier-like column of ``n`` rows with a value."""
    # (the advice said as a condition, "if it is one": whole amounts, counts of cents or
    # seconds, are as distinct, and a rule on one carries over; a trial read "like an
    # identifier" as "drop it")
    warnings.warn(f"the rules use column {name!r}, which holds a different value on each of "
                  f"the {n} rows that have one, like an identifier: if it is one (a row's "
                  "number or code, not a measure or an amount), rules on it will not carry "
                  f"over to new rows; leave it out (drop it from X, or aspml learn --ignore "
                  f"{shlex.quote(name)})", AspmlWarning, stacklevel=stacklevel)


def continuous_labels(kind: str, learner) -> ValueError:
    """The error for a regression target (scikit-learn's contract: refused with these
    words).  The command line reads a label column of a few such numbers as classes, and
    so does a fit given them as objects (a trial's 1.5 / 2 / 3)."""
    return ValueError(f"Unknown label type: {kind}; {type(learner).__name__} is a classifier "
                      "and needs class labels (to learn numbers that are not whole as "
                      "classes, as aspml learn reads a label column of them, give "
                      "y.astype(object))")


def _free_target_name(taken) -> str:
    """The target's name when the default, ``label``, is a feature's: the first of
    ``class``, ``target``, ``outcome``, ``label_2``, ``label_3``, ... that is not."""
    taken = set(taken)
    return next(n for n in ("class", "target", "outcome",
                            *(f"label_{k}" for k in range(2, len(taken) + 3)))
                if n not in taken)


# the words for a missing value that a label is not otherwise (of the feature values'
# aspml.data.table.MISSING_WORDS, 'none', 'unknown', '-' are classes of real tables: the
# contact lenses' 'none', a review)
MISSING_LABELS = frozenset({"nan", "na", "n/a", "#n/a", "null", "nil"})

def missing_word_labels(counts) -> tuple[str, str] | None:
    """(the labels said, the --missing options that leave them out) of the (label, rows or
    None) pairs ``counts`` whose label is a word other tools write for a missing value
    (:data:`MISSING_LABELS`); None when there is none."""
    words = [(v, n) for v, n in counts
             if isinstance(v, str) and v.strip().lower() in MISSING_LABELS]
    if not words:
        return None
    return labels_said(words), " ".join(f"--missing {shlex.quote(v)}" for v, _ in words)


def labels_said(pairs) -> str:
    """``'NaN' (3 rows), '?'``: the (label, rows or None) pairs as a note names them."""
    return ", ".join(repr(v) + ("" if n is None else f" ({n} row{'s' if n != 1 else ''})")
                     for v, n in pairs)


# a program of this many rules (default and exception rules) is more than a person
# reads through; a multi-class one, when it also has 5 rules for each class but the
# default (a class a rule is as short as it gets: 125 classes of one number each need
# 124 rules)
LARGE_PROGRAM = 100
# the words of that note, which aspml learn says in its options' terms instead
LARGE_NOTE = "more than a person reads through"
# a rule that excludes this many values of one column one by one (``c != v``) says so
LONG_CHAIN = 10


def floor2(x: float) -> float:
    """``x`` cut (not rounded) to two significant digits: 0.003142 -> 0.0031 (a setting a
    note names, which must still admit what it is named for)."""
    if x <= 0:
        return 0.0
    unit = 10.0 ** (math.floor(math.log10(x)) - 1)
    return math.floor(x / unit * (1 + 1e-12)) * unit


def large_program(program: Program) -> int:
    """The number of rules from which ``program`` is more than a person reads through."""
    return max(LARGE_PROGRAM, 5 * (len(program.classes) - 1))


class LogicClassifier(ClassifierMixin, BaseEstimator):
    """Base of aspml's rule learners (parameters ``positive``, ``kinds``, ``missing``):
    binary programs, and multi-class ones for three or more classes without ``positive``."""

    # parameters that do not shape the learned rules, left out of the provenance
    _not_provenance = ("kinds", "missing")

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.string = True
        tags.input_tags.categorical = True
        return tags

    # -- fitting ----------------------------------------------------------
    def _target_name(self) -> str:
        """The target predicate's name: ``target``, else the one :meth:`_training_data`
        read from ``y`` (``target_``), else ``"label"``."""
        if self.target is not None:
            return self.target
        return getattr(self, "target_", None) or "label"

    def _resolve_target(self, X, y) -> None:
        """``target_``: ``target``; else y's name (``df["outcome"]``: ``outcome = ...``, as
        ``aspml learn`` names it), unless it is no text or a column of X (the label left
        among the features), or fixed rules conclude ``label`` (written for the name every
        fit used before); else ``"label"``.  Fixed rules that conclude another name than
        this are refused (:func:`aspml.learners.expert.fixed_rules_for`)."""
        fixed = getattr(getattr(self, "_fixed", None), "target", None)
        name = getattr(y, "name", None)
        name = name.strip() if isinstance(name, str) and "\x00" not in name else ""
        usable = name and name not in getattr(X, "columns", ()) and not (
            fixed is not None and fixed.name == "label")
        self.target_ = self.target if self.target is not None else name if usable else "label"

    def _clear_target_of(self, names) -> None:
        """``target_`` apart from the features' ``names`` (a DataFrame's columns, an
        array's x0, x1, ...): ``target=`` a feature's name is refused, and a name read
        from y or the default taken by a feature gives way to the first free one of
        :func:`_free_target_name`.  A trial: y without a name beside a feature 'label'
        printed "IF label <= 6 THEN label = 'q'", and aspml check on the table's CSV read
        the feature as the labels; aspml bench fits such tables with an unnamed y."""
        if self.target_ not in names:
            return
        if self.target is not None:
            raise ValueError(f"target={self.target!r} is also a feature's name: the rules "
                             "would read both alike; give target= another name")
        self.target_ = _free_target_name(names)

    def _training_data(self, X, y, sample_weight=None):
        self._resolve_target(X, y)
        X = in_memory(X)                       # a Dask DataFrame keeps its column names
        has_names = isinstance(X, pd.DataFrame) and all(isinstance(c, str) for c in X.columns)
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the target y "
                             "is None")
        frame = as_frame(X)
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            y = column_or_1d(y, warn=True)
        if y.ndim != 1:
            raise ValueError(f"y should be a 1d array, got an array of shape {y.shape} instead")
        if len(y) != len(frame):
            raise ValueError(f"X has {len(frame)} rows but y has {len(y)} labels")
        if y.dtype.kind == "f" and np.isnan(y).any():
            raise ValueError("y holds NaN: every training row needs a label")
        codes = None
        if y.dtype.kind == "O":
            # the labels' distinct values once (hashed: any mix of types), then every check
            # on those alone (a sort or a type_of_target of every row's object was most of
            # the cost of reading a few thousand labels)
            codes, uniques = pd.factorize(y)
            if (codes < 0).any():
                raise ValueError("y holds missing labels: every training row needs a label")
            # texts in Unicode's composed form (NFC), as table values and program constants
            # are: "é" as one character or as "e" and an accent is one class (np.unique
            # below merges the two)
            uniques = np.asarray([composed(v) if isinstance(v, str) else v for v in uniques],
                                 dtype=object)
            if len({isinstance(v, str) for v in uniques}) > 1:
                kinds = sorted({type(v).__name__ for v in uniques})
                raise ValueError(f"y mixes texts and other values ({', '.join(kinds)}): the "
                                 "classes cannot be ordered; make them one type (y.astype(str))")
        kind = type_of_target(y if codes is None else uniques)
        if kind in ("continuous", "continuous-multioutput"):
            raise continuous_labels(kind, self)
        if codes is None:
            self.classes_, y_idx = np.unique(y, return_inverse=True)
            fixed = [composed(v) for v in self.classes_.tolist()] \
                if self.classes_.dtype.kind == "U" else None
            if fixed is not None and fixed != self.classes_.tolist():     # (as above)
                self.classes_, rank = np.unique(np.asarray(fixed), return_inverse=True)
                y_idx = rank.reshape(-1)[y_idx]
        else:
            self.classes_, rank = np.unique(uniques, return_inverse=True)
            y_idx = rank.reshape(-1)[codes]
        self._warn_missing_word_labels(np.bincount(np.asarray(y_idx).reshape(-1),
                                                   minlength=len(self.classes_)))
        if len(self.classes_) < 2:
            raise ValueError(f"y has only one class ({self.classes_.tolist()[0]!r}); a classifier needs "
                             "examples of two classes")
        positive = getattr(self, "positive", None)
        if len(self.classes_) > 2 and positive is not None:
            # positive= names the class of a binary program; with more classes the user
            # says which rows are the others by fitting on y == positive
            raise ValueError(f"positive={positive!r} learns a binary program, but y has "
                             f"{len(self.classes_)} classes; fit on y == {positive!r} to learn "
                             "that class against the others, or leave positive out to learn "
                             "one multi-class program")
        self.multiclass_ = len(self.classes_) > 2
        if isinstance(positive, (set, frozenset, dict)) or np.ndim(positive) != 0:
            raise ValueError(f"positive must be one class label, got {positive!r}")
        if self.multiclass_:
            self.positive_index_ = None
        elif positive is None:
            self.positive_index_ = 1
        else:
            matches = np.flatnonzero(self.classes_ == positive)
            if len(matches) == 0:
                raise ValueError(f"positive={positive!r} is not one of the classes "
                                 f"{self.classes_.tolist()}")
            self.positive_index_ = int(matches[0])
        self.n_features_in_ = frame.shape[1]
        weight = self._row_weights(y, y_idx, sample_weight)
        if weight is not None and (weight == 0).any():
            # a row of weight 0 is dropped before anything is learned (its values do not even
            # shape the schema), so that it is exactly as if it had never been given
            keep = weight > 0
            frame, y_idx, weight = frame[keep].reset_index(drop=True), y_idx[keep], weight[keep]
            for k, c in enumerate(self.classes_.tolist()):       # (plain values in the text)
                if not (y_idx == k).any():
                    raise ValueError(f"every row of class {c!r} has weight 0: a classifier "
                                     "needs examples of every class with positive weight "
                                     "(leave the class out of y, or give it weight)")
        if has_names:
            self.feature_names_in_ = np.asarray(frame.columns, dtype=object)
        elif hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        self.schema_, table = schema_and_table(frame, kinds=getattr(self, "kinds", None),
                                               missing=self._missing())
        self._clear_target_of(self.schema_.names)
        self.background_ = ()
        if getattr(self, "background", None) is not None:
            table = self._with_background(table)
        if self.multiclass_:
            return table, y_idx, weight
        return table, y_idx == self.positive_index_, weight

    def _row_weights(self, y, y_idx, sample_weight):
        """Each row's weight, class weight times sample weight (scikit-learn's
        conventions), or None when neither is given (the unweighted fast path)."""
        class_weight = getattr(self, "class_weight", None)
        if class_weight is None and sample_weight is None:
            return None
        weight = np.ones(len(y_idx))
        if class_weight is not None:
            if isinstance(class_weight, str) and class_weight != "balanced" or not isinstance(
                    class_weight, (str, dict)):
                raise ValueError(f"class_weight must be None, 'balanced' or a dict "
                                 f"{{class: weight}}, got {class_weight!r}")
            if isinstance(class_weight, dict):
                unknown = [k for k in class_weight if not (self.classes_ == k).any()]
                if unknown:
                    raise ValueError(f"class_weight names {unknown}, not among the classes "
                                     f"{self.classes_.tolist()}")
                bad = {k: v for k, v in class_weight.items()
                       if not (is_real(v) and v >= 0)}
                if bad:
                    raise ValueError(f"class_weight must give each class a finite weight >= 0, "
                                     f"got {bad}")
            if isinstance(class_weight, dict):
                # each class's weight, 1 for a class the dict does not name (scikit-learn's
                # convention); its compute_sample_weight refused a dict of string labels
                # such as {"3": 5} ("The classes, ['3', 'not 3'], are not in class_weight")
                per_class = np.array([float(next((w for k, w in class_weight.items()
                                                  if c == k), 1.0)) for c in self.classes_])
                weight = per_class[y_idx]
            else:
                weight = compute_sample_weight(class_weight, self.classes_[y_idx]).astype(float)
        if sample_weight is not None:
            if isinstance(sample_weight, numbers.Number):
                raise ValueError(f"sample_weight must be an array of one weight per row, got "
                                 f"{sample_weight!r}")
            given = np.asarray(sample_weight)
            if given.dtype.kind not in "biuf":
                raise ValueError(f"sample_weight must hold numbers, got dtype {given.dtype}")
            if given.ndim != 1 or len(given) != len(y_idx):
                raise ValueError(f"sample_weight has shape {given.shape}, expected "
                                 f"({len(y_idx)},): one weight per row")
            given = given.astype(float)
            if not np.isfinite(given).all():
                raise ValueError("sample_weight holds NaN or infinite weights; give every row "
                                 "a finite weight >= 0")
            if (given < 0).any():
                raise ValueError(f"sample_weight holds negative weights (the first at row "
                                 f"{int(np.flatnonzero(given < 0)[0])}); weights must be >= 0")
            weight = weight * given
        if not weight.sum() > 0:
            raise ValueError("every row has weight zero (class_weight times sample_weight): "
                             "nothing to learn from")
        rows, total = int((weight > 0).sum()), float(weight.sum())
        if self._weights_as_copies and total < rows / 10:
            warnings.warn(f"{type(self).__name__} reads a weight as that many copies of a row, "
                          f"and these weights sum to {total:.4g} over {rows} rows: "
                          f"{self._weights_as_copies} see a table of {total:.4g} "
                          f"row{'' if total == 1 else 's'}. Scale "
                          f"the weights to average 1 (multiply them by {rows / total:.4g}) to "
                          "learn at the table's size", AspmlWarning, stacklevel=4)
        return weight

    def _with_background(self, table):
        """The training table with a Boolean column per background atom, as clingo derives
        it from the rows' facts and the theory; ``schema_`` gains the atoms."""
        from ..asp import derive
        from ..data.table import Column, Table
        from ..logic.background import read_background
        from ..logic.model import Feature
        rules = read_background(self.background, self.schema_.names, self._target_name(), self.schema_)
        probe = Program((), Target(self._target_name()), self.schema_, (), self._missing(),
                        background=rules)
        data = Table(table.schema, {k: table[k] for k in probe.columns_used}, table.n_rows)
        probe = replace(probe, schema=Schema(tuple(
            f for f in self.schema_.features if f.name in probe.columns_used)))
        holds = derive(probe, data)
        if not any(m.any() for m in holds.values()):
            raise AspmlError(f"the background theory grounds to nothing: none of its atoms "
                             f"({', '.join(holds)}) holds for any training row")
        n = table.n_rows
        columns = {}        # the atoms first: on a tie, a rule reads in the theory's words
        for name, mask in holds.items():
            if mask.all() or not mask.any():
                warnings.warn(f"the background atom {name} holds for {'every' if mask.any() else 'no'} "
                              f"training row: it cannot tell the classes apart", AspmlWarning,
                              stacklevel=5)
            columns[name] = Column(name, "boolean", mask.astype(np.float64), np.ones(n, bool),
                                   np.full(n, -1, np.int32), (), np.zeros(n, bool))
        columns.update(table.columns)
        self.background_ = rules
        self.schema_ = Schema(tuple(Feature(a, "boolean") for a in holds)
                              + self.schema_.features)
        return Table(self.schema_, columns, n)

    def _missing(self):
        return missing_tokens(getattr(self, "missing", None), TypeError)

    def fit(self, X, y, sample_weight=None, progress=None):
        """Learn the program from ``X`` and ``y``.

        ``sample_weight`` (optional, one number >= 0 per row) weighs the rows,
        times the learner's ``class_weight``: a row of weight 2 counts as two
        copies of it, a row of weight 0 is left out.  ``progress`` (optional) is
        called as ``progress(done, total, note)`` from time to time during long
        work (the command's progress bar uses it); the learner itself never prints."""
        self._progress = progress
        try:
            table, target, weight = self._training_data(X, y, sample_weight)
            self._weight = weight
            if self.multiclass_:
                if getattr(self, "_fixed", None) is not None:
                    raise ValueError("fixed_rules are rules for one positive class: with "
                                     f"{len(self.classes_)} classes, fit on y == that_class "
                                     "(a binary program) to keep them")
                self.program_ = self._learn_multiclass(table, target)
            else:
                self.program_ = self._learn(table, target)
            # the program on its training rows, once: the rules' probabilities, and each
            # rule's coverage and precision for the notebook view (the rows themselves
            # are not kept; the figures aspml report gives)
            from ..display import _figures
            holds, cov = evaluate(self.program_, table)[:2]
            if self.multiclass_:
                self._fit_class_probabilities(table, target, weight, cov)
            else:
                self._fit_probabilities(table, target, weight, cov)
            self.training_figures_ = _figures(self.program_, table,
                                              np.ones(table.n_rows, dtype=bool), target, cov)
            self._warn_identifiers(table)
            self._warn_label_copy(table, target)
            self._warn_large(stacklevel=self._fit_stacklevel)
            self._warn_long_chains(table, stacklevel=self._fit_stacklevel)
            self._warn_default_decides(stacklevel=self._fit_stacklevel)
            if not self.multiclass_:
                self._warn_low_recall(target, weight, holds)
                self._warn_always(target, weight, holds)
        finally:
            self._progress = None
            self._weight = None
        return self

    def _program_view(self) -> str:
        """The HTML of a fitted learner: its program, each rule with its coverage and
        precision on the training rows (``training_figures_``)."""
        from .._html import e
        from ..display import program_html
        figures = getattr(self, "training_figures_", None)
        note = f"<code>{e(repr(self))}</code>" + ("; figures on the training rows"
                                                   if figures is not None else "")
        return program_html(self.program_, figures=figures, note=note)

    # Jupyter's view of a fitted learner is its program (before fitting, scikit-learn's
    # diagram of the estimator); scikit-learn's display="text" setting still turns it off
    def _repr_html_inner(self) -> str:
        return self._program_view() if hasattr(self, "program_") else super()._repr_html_inner()

    def _repr_mimebundle_(self, **kwargs):
        out = super()._repr_mimebundle_(**kwargs)
        if "text/html" in out and hasattr(self, "program_"):
            out["text/html"] = self._program_view()
        return out

    # whether a binary fit whose rules find few of a rare class's rows suggests
    # class_weight="balanced" (LIBRE's set cover already weighs the positives by alpha,
    # and "balanced" on top of it loses F1: docs, Class weights)
    _suggests_balanced = True

    # whether a binary fit whose rules hold for nearly every row of the other class says
    # so (LIBRE's stopping has a held-out note of its own: no better than calling every
    # row positive)
    _notes_always = True

    # whether the learner has a note of its own for rules that hold on every training
    # row (MRS: its value sets can grow to every value of a column); this note then
    # steps aside (a real-table trial read the same news twice)
    _notes_every_row = False

    # how to learn a shorter program, in the learner's parameters (a fit of
    # LARGE_PROGRAM rules or more says it)
    _fewer_rules = "a learner of fewer rules (FoldSE, or Libre with max_rules) may do"

    @property
    def _fit_stacklevel(self) -> int:
        """The stacklevel of a note said during ``fit``: the caller of fit, through a
        learner's own fit when it has one."""
        return 3 if type(self).fit is LogicClassifier.fit else 4

    def _warn_default_decides(self, stacklevel: int) -> None:
        """An AspmlWarning when a multi-class program leaves a quarter or more of its
        training rows to its default class and that class is wrong on most of them: the
        rules describe the other classes for few rows (a held-out trial's 50,000-row table
        of ten classes: 81% of the rows to the default, right on 12%, and no word)."""
        found = getattr(self, "_by_default", None)
        default = self.program_.target.default if self.multiclass_ else None
        if found is None or default is None:
            return
        rows, total = found
        index = {as_label(c): i for i, c in enumerate(self.classes_)}
        decided, right = rows.sum(), rows[index[default]]
        if total > 0 and decided >= 0.25 * total and right < 0.5 * decided:
            every = decided >= total * (1 - 1e-9)     # no rule decides a training row
            # (every row: the learner's own note says why no rule was kept, a review found
            # "the features may not tell the classes apart" beside a bar that refused them)
            said = ("the program gives every row that class whatever its class" if every else
                    f"for {'most' if decided > 0.5 * total else 'those'} rows the program "
                    f"gives one class whatever their class ({self._default_decides_why()})")
            warnings.warn(f"{type(self).__name__}'s rules decide {1 - decided / total:.0%} "
                          f"of the training rows; the other {decided / total:.0%} get the "
                          f"default class {default!r}, which is right on {right / decided:.0%} "
                          f"of them: {said}", AspmlWarning, stacklevel=stacklevel)

    def _default_decides_why(self) -> str:
        """Why, as :meth:`_warn_default_decides` says it, the default class decides
        many rows (a learner that held its program to a budget says that instead)."""
        return "the features may not tell the classes apart in rules"

    # what a multi-class program of large_program() rules or more learns fewer with,
    # when not the learner's _fewer_rules (None: those)
    _fewer_multiclass_rules: str | None = None

    def _warn_large(self, stacklevel: int) -> None:
        """An AspmlWarning when the program is more than a person reads through (a
        new-user trial's notebook fit of 199 rules said nothing; ``aspml learn`` did)."""
        n = self.program_.n_rules
        if n >= large_program(self.program_):
            fewer = ((self.program_.is_multiclass and self._fewer_multiclass_rules)
                     or self._fewer_rules)
            warnings.warn(f"{type(self).__name__} learned {n} rules, {LARGE_NOTE}; "
                          f"{fewer} (aspml.bench, or a "
                          "cross-validation, tells what it costs in accuracy)", AspmlWarning,
                          stacklevel=stacklevel)

    def _warn_long_chains(self, table, stacklevel: int) -> None:
        """An AspmlWarning when a rule excludes :data:`LONG_CHAIN` or more values of one
        column one by one (``code != "v375" AND code != "v230" AND ...``): FOLD's literals
        tell a column's values apart one at a time, and where the signal lies in groups
        of a many-valued column's values the chain grows past reading and fits its
        training rows (a held-out-shape trial: 500 codes, their rate set by groups of
        them; FoldSE's first rule held 62 ``code !=`` literals, accuracy 0.585, where
        Libre, which groups a column's values by their rate, scored 0.804)."""
        worst = None
        for rule in self.program_.rules:
            chains = {}
            for lit in rule.body:
                if isinstance(lit, Compare) and lit.op == "!=":
                    chains.setdefault(lit.feature, []).append(lit.value)
            for feature, values in chains.items():
                if len(values) >= LONG_CHAIN and (worst is None or len(values) > len(worst[1])):
                    worst = (feature, values)
        if worst is None:
            return
        feature, values = worst
        held = len(table[feature].categories) if feature in table.columns else 0
        first, second = (json.dumps(str(v), ensure_ascii=False) for v in values[:2])
        warnings.warn(f"one of {type(self).__name__}'s rules excludes {len(values)} values of "
                      f"{feature!r} one by one ({feature} != {first} AND {feature} != "
                      f"{second} AND ...)" + (f"; the column holds {held} values"
                                              if held else "")
                      + ": its rules tell a column's values apart one at a time, and where "
                      "groups of them carry the class the chain grows past reading and fits "
                      "the training rows. Libre groups a column's values by their rate; so "
                      "does grouping them before learning (a code by its first digits)",
                      AspmlWarning, stacklevel=stacklevel)

    # what reads weights as copies of rows, so that their scale matters (a note when
    # they sum to less than a tenth of the rows: normalised weights, summing to 1); None:
    # the learner's counts are compared as ratios (FOLD), the scale does not matter
    _weights_as_copies: str | None = None

    def _warn_low_recall(self, target: np.ndarray, weight, holds: np.ndarray) -> None:
        """An AspmlWarning when, unweighted, the rules find fewer than half of the rows of
        a positive class that is under a fifth of the rows, or fewer than a tenth of a
        minority class (a held-out sweep: FOLD-R++'s one rule found 1 of 852 union
        members, a class of 24%, and nothing was said): accurate, but of little use to
        whoever asked which rows they are (class_weight="balanced" trades precision for
        recall).  No rule at all has a note of its own."""
        if (not self._suggests_balanced or getattr(self, "class_weight", None) is not None
                or not self.program_.rules or not target.any()):
            return
        share = positive_share(target, weight)
        recall = positive_share(holds[target], None if weight is None else weight[target])
        tail = self._tail_note(target, holds, share, recall, weight is not None)
        if tail is not None or (share < 0.2 and recall < 0.5) or (share < 0.5 and recall < 0.1):
            positive = as_label(self.classes_[self.positive_index_])
            warnings.warn(f'{type(self).__name__}\'s rules find {recall:.1%} of the '
                          f'"{positive}" rows in training (the class is '
                          f'{share_percent(share)} of the rows): '
                          + (tail or 'class_weight="balanced" may find more of them, at some '
                                     "cost in precision"), AspmlWarning,
                          stacklevel=self._fit_stacklevel)

    def _tail_note(self, target, holds, share: float, recall: float,
                   weighted: bool) -> str | None:
        """What ended the rules short of the class, when a learner knows it (FOLD's
        tail); None: the note names class weights."""
        return None

    def _warn_always(self, target: np.ndarray, weight, holds: np.ndarray) -> None:
        """An AspmlWarning when the rules hold for nearly every training row of the other
        class (fewer than a tenth of them left out): the program answers the positive
        class for nearly every row, which is no description of it (a new-user trial:
        ``n5 <= 3.14`` on a column of noise, 95% of the rows positive, held for every row
        but one).  A rule of no condition (LIBRE's ``IF TRUE``) has a note of its own."""
        rules = self.program_.default_rules
        if (not self._notes_always or not rules or target.all()
                or any(not r.body for r in rules) or (self._notes_every_row and holds.all())):
            return
        other = ~target
        found = positive_share(~holds[other], None if weight is None else weight[other])
        if found < 0.1:
            positive = as_label(self.classes_[self.positive_index_])
            negative = as_label(self.classes_[1 - self.positive_index_])
            warnings.warn(f"{type(self).__name__}'s rules hold for {1 - found:.1%} of the "
                          f'"{negative}" rows in training: the program answers "{positive}" '
                          "for nearly every row, as it would without them; they do not tell "
                          "the classes apart (features that describe them, or "
                          'class_weight="balanced", may)', AspmlWarning,
                          stacklevel=self._fit_stacklevel)

    def _warn_missing_word_labels(self, counts=None, stacklevel: int | None = None) -> None:
        """An AspmlWarning when a class is a word other tools write for a missing value
        ('NaN', 'N/A'): a class of its own here (a legal trial's label column of five
        outcomes and 'NaN' learned six classes without a word; empty labels are refused,
        or left out by aspml learn with a note).  ``counts``: the rows of each class, when
        known; ``stacklevel``: the warning's, when not called in ``fit``'s reading of y."""
        pairs = list(zip(self.classes_.tolist(),
                         counts if counts is not None else [None] * len(self.classes_)))
        level = stacklevel or (4 if type(self).fit is LogicClassifier.fit else 5)
        marks = [(v, n) for v, n in pairs if isinstance(v, str) and v in self._missing()]
        said = missing_word_labels([(v, n) for v, n in pairs if (v, n) not in marks])
        if said is not None:
            shown, flags = said
            warnings.warn(f"the labels (y) hold {shown}, a word other tools write for a "
                          "missing value: a class of its own here; if those rows have no "
                          f"label, leave them out (fit on the other rows; aspml learn {flags})",
                          AspmlWarning, stacklevel=level)
        # a label the learner reads as missing in X ('?' by default): aspml learn leaves
        # its rows out as unlabelled (a fuzz trial: one class fewer from the CSV)
        if marks:
            warnings.warn(f"the labels (y) hold {labels_said(marks)}, what this learner reads as a missing "
                          f"value in X (missing={self._missing()!r}) and aspml learn, with the "
                          "same missing values, as a missing label, leaving its rows out: a "
                          "class of its own here; if those rows have no label, leave them out",
                          AspmlWarning, stacklevel=level)

    def _warn_label_copy(self, table, target: np.ndarray) -> None:
        """An AspmlWarning for each categorical (or Boolean) column the rules use that
        names the classes one to one on every training row (one value a class, at least
        50 rows, each with a value): the label under another name, or known only with it
        (a discharge group beside the admission one), and the rules will not carry over
        to new rows (a new-user trial: accuracy 1.000 from one such column, no word).  A
        column of more values than classes, each going with one class, is an ordinary
        concept (``g in {a, b}``) and says nothing."""
        y = np.asarray(target).astype(np.int64)
        if len(y) < 50:
            return
        n_classes, span = np.unique(y).size, int(y.max()) + 1
        for name in self.program_.features_used:
            col = table.columns.get(name)
            if col is None or col.kind not in ("categorical", "boolean") or col.missing.any():
                continue
            code = col.code if col.kind == "categorical" else col.num.astype(np.int64)
            n_values = np.unique(code).size
            if not 1 < n_values == n_classes:
                continue
            if np.unique(code * span + y).size != n_values:
                continue
            if name in self.program_.background_atoms:
                # the theory's own atom: no column to leave out (a trial followed the advice,
                # aspml learn --ignore frail, and was told the data has no such column)
                warnings.warn(f"the background atom {name!r} (your theory's) names the classes "
                              f"one to one on all {len(code)} training rows, so the rules are "
                              "its definition in the theory: expected if the label was made "
                              "from it; if a column it reads is known only with the label, "
                              "the rules will not carry over to new rows", AspmlWarning,
                              stacklevel=self._fit_stacklevel)
            else:
                warnings.warn(f"column {name!r} names the classes one to one on all "
                              f"{len(code)} training rows: if it is the label under another "
                              "name, or known only with the label (a diagnosis made later), "
                              "the rules that read it will not carry over to new rows; leave "
                              "it out (drop it; aspml learn --ignore) unless new rows have "
                              "it too", AspmlWarning,
                              stacklevel=self._fit_stacklevel)

    def _warn_identifiers(self, table) -> None:
        """An AspmlWarning for each feature the rules use that holds a different value on
        every row (an id): such rules name training rows, they do not carry over."""
        for name in self.program_.features_used:
            col = table[name]
            if looks_like_dates(col):
                warnings.warn(f"the rules use column {name!r}, whose values are dates or times: "
                              "aspml reads them as categorical values, so a rule can name a "
                              "date but cannot say before or after one; to compare them, give "
                              "them as numbers (days since a date you choose, a year, a "
                              "month)", AspmlWarning, stacklevel=5)
            elif looks_like_identifier(col):
                warn_identifier(name, int((~col.missing).sum()), stacklevel=5)

    def _report(self, done, total, note="") -> None:
        """Tell the caller's ``progress`` callback how far the learning is."""
        progress = getattr(self, "_progress", None)
        if progress is not None:
            progress(int(done), int(total), note)

    def _learn(self, table, y: np.ndarray):  # pragma: no cover - abstract
        """Learn a Program from the encoded training table and the boolean target;
        ``self._weight`` holds the rows' weights (float64, all > 0) or None (unweighted)."""
        raise NotImplementedError

    def _rng(self) -> np.random.Generator:
        """The fit's random generator from ``random_state`` (None, a non-negative integer,
        or a numpy Generator), with one clear error for anything else."""
        rs = self.random_state
        message = (f"random_state must be None, a non-negative integer or a numpy Generator, "
                   f"got {rs!r}")
        if isinstance(rs, (bool, float, str, bytes)):
            raise ValueError(message)
        try:
            return np.random.default_rng(rs)    # also a SeedSequence or a BitGenerator
        except (TypeError, ValueError):
            raise ValueError(message) from None

    def _finish(self, rules, default=None, expert=()) -> Program:
        """The learned rules as a Program: target labels, the schema of the features
        they use, and the learner with its parameters as provenance.  A multi-class
        fit (``multiclass_``) gets a multi-class target whose class for rows no rule
        covers is ``default`` (an index into ``classes_``).  ``expert``: the indices
        of the rules an expert gave (``Program.expert``)."""
        if getattr(self, "multiclass_", False):
            target = Target(self._target_name(), classes=tuple(as_label(c) for c in self.classes_),
                            default=as_label(self.classes_[default]))
        else:
            target = Target(self._target_name(), as_label(self.classes_[self.positive_index_]),
                            as_label(self.classes_[1 - self.positive_index_]))
        rules = exceptions_apart(rules, [*self.schema_.names, self._target_name()])
        background = getattr(self, "background_", ())      # travels with the program
        used = {f for r in (*rules, *background) for f in (*r.features, r.head)}
        schema = Schema(tuple(f for f in self.schema_.features if f.name in used))
        params = {k: _plain(v) for k, v in self.get_params().items()
                  if k not in self._not_provenance and k != "background"
                  and not (k in self._multiclass_only and not target.is_multiclass)
                  and not self._quiet(k, v)}
        params["target"] = self._target_name()     # the name used (None: read from y)
        return Program(tuple(rules), target, schema,
                       {"learner": type(self).__name__, **params}, self._missing(),
                       background=background, expert=tuple(expert))

    # parameters that shape multi-class programs only, left out of a binary one's provenance
    # (its saved file stays as it was)
    _multiclass_only: tuple = ()

    # (parameter, value) pairs left out of the provenance: a parameter added after
    # programs were saved, at the value that learns what they learned (their saved files
    # stay as they were): unweighted, every value searched
    _quiet_default: tuple = (("class_weight", None), ("max_bins", None))

    def _quiet(self, name: str, value) -> bool:
        """Whether the parameter ``name`` at ``value`` is left out of the provenance
        (:attr:`_quiet_default`); only a plain value equals one there (an array or a
        dict never does)."""
        return any(name == k and (value is v or (
            isinstance(value, (int, float, str)) and not isinstance(value, bool) and value == v))
            for k, v in self._quiet_default)

    # -- multi-class --------------------------------------------------------
    def _learn_multiclass(self, table, y_idx: np.ndarray) -> Program:
        """A multi-class program from one binary program per class (see
        :meth:`_one_per_class`); FOLD overrides it with FOLD-RM's scheme."""
        return self._one_per_class(table, y_idx)

    def _class_totals(self, y_idx: np.ndarray, rows=None) -> np.ndarray:
        """Each class's number of rows (their weight when weighted) among ``rows``."""
        return class_totals(y_idx, rows, getattr(self, "_weight", None), len(self.classes_))

    def _one_per_class(self, table, y_idx: np.ndarray) -> Program:
        """A decision list of binary programs, one per class but the largest (the
        default, without rules), learned in turn in the order ``class_order`` chooses:
        each class against the other classes' rows among those no earlier class's rules
        fire on (the rows the list leaves it), and kept only when its rules are right
        on more of those rows than wrong (FOLD's test of a multi-class rule; else the
        class gets no rules, and a note says so).

        ``class_order="frequency"`` (Libre's default): the rarest class first.
        ``"precision"`` (MRS's): first the class whose rules, each learned on every
        training row, are most often right there (those fits only give the order).

        Until 2026-12-04 every class was learned on every training row: measured
        (docs, multi-class benchmarks), the rows the list leaves gave as accurate or
        more accurate lists with fewer rules (Libre: ecoli 0.774 -> 0.836, avila 0.845
        -> 0.876, twelve small noisy tables 0.602 / 29.3 rules -> 0.621 / 21.5).
        """
        totals = self._class_totals(y_idx)
        default = largest_class(totals, lambda: np.bincount(y_idx, minlength=len(self.classes_)))
        order = getattr(self, "class_order", "frequency")
        if order not in ("precision", "frequency"):
            raise ValueError(f"class_order must be 'precision' or 'frequency', got {order!r}")
        weight = getattr(self, "_weight", None)
        base = np.ones(len(y_idx)) if weight is None else weight
        notes: dict = {}        # a note's text -> the classes whose fit gave it
        labels = [as_label(c) for c in self.classes_]
        learners = [k for k in range(len(labels)) if k != default]
        first = {}              # a class's program learned on every row, where it fires
        first_notes: dict = {}  # their notes: said only of a program the list keeps
        if order == "precision":
            precision = {}
            for k in learners:
                self._report(len(first), 2 * len(learners), f"class {labels[k]!r}")
                binary = self._class_program(table, y_idx, k, None, first_notes.setdefault(k, {}))
                covered = fast_predict(binary, table)
                first[k] = binary, covered
                precision[k] = (base[covered & (y_idx == k)].sum() + 1) / (base[covered].sum() + 2)
            ranked = sorted(learners, key=lambda k: (-precision[k], k))
        else:
            ranked = sorted(learners, key=lambda k: (totals[k], k))
        alive = np.ones(len(y_idx), dtype=bool)     # the rows no kept class's rules fire on
        parts = []
        for step, k in enumerate(ranked):
            self._report(len(first) + step, len(first) + len(ranked), f"class {labels[k]!r}")
            if not (alive & (y_idx == k)).any():
                notes.setdefault("its rows are all taken by the rules of the classes before "
                                 "it", []).append(labels[k])
                continue
            if alive.all() and k in first:      # (the first class of the precision order)
                binary = first[k][0]
                for text, classes in first_notes[k].items():
                    notes.setdefault(text, []).extend(classes)
            else:
                rows = None if alive.all() else np.flatnonzero(alive)
                binary = self._class_program(table, y_idx, k, rows, notes)
            had = bool(binary.default_rules)
            binary, fired = without_idle_rules(binary, table, alive)
            if had and not binary.default_rules:
                notes.setdefault("its rules decide no training row the classes before it "
                                 "leave: left out", []).append(labels[k])
                continue
            right = base[fired & (y_idx == k)].sum()
            wrong = base[fired].sum() - right
            if wrong > right * (1 + 1e-9):
                notes.setdefault(
                    "its rules were wrong on more of the rows they would decide than right "
                    f"({wrong:.12g} against {right:.12g}): left out", []).append(labels[k])
                continue
            parts.append((labels[k], binary))
            alive &= ~fired
        for text, classes in notes.items():     # one note for the classes that gave it
            said = (f"class {classes[0]!r}" if len(classes) == 1 else
                    "classes " + ", ".join(repr(c) for c in classes))
            if len(classes) > 1 and text.startswith("its "):
                text = "each one's " + text[len("its "):]
            warnings.warn(f"{said}: {text}", AspmlWarning, stacklevel=3)
        return self._finish(merge_class_programs(parts), default)

    def _class_program(self, table, y_idx, k, rows, notes) -> Program:
        """Class ``k``'s binary program against the other classes, on ``rows`` of the
        table (None: every row); its notes go to ``notes`` (text -> classes)."""
        weight = getattr(self, "_weight", None)
        if rows is not None:
            table, y_idx = take_rows(table, rows), y_idx[rows]
            if weight is not None:
                self._weight = weight[rows]
        self.multiclass_, self.positive_index_ = False, k
        # a note's share of the rows is of those it was learned on
        self._rows_said = "the rows" if rows is None else "the rows the classes before it leave"
        self._in_decision_list = True   # a class of a list judged by accuracy, not its F1
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", AspmlWarning)
                binary = self._learn(table, y_idx == k)
        finally:
            self.multiclass_, self.positive_index_ = True, None
            self._weight = weight
            self._rows_said = "the rows"
            self._in_decision_list = False
        for w in caught:        # a note about one class's rules says which class
            if issubclass(w.category, AspmlWarning):
                notes.setdefault(str(w.message), []).append(as_label(self.classes_[k]))
            else:
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        return binary

    def _fit_class_probabilities(self, X, y_idx, weight=None, cov=None) -> None:
        """Per default rule (and for 'no rule fires', the last row), the smoothed class
        distribution ``(n_c + 1) / (n + K)`` of the training rows it decides (weighted
        counts when the rows are weighted); the rule's own class is kept the most
        likely, so that ``predict_proba``'s argmax agrees with ``predict``."""
        self._set_class_probabilities(class_counts(self.program_, X, y_idx, len(self.classes_),
                                                   weight, self._missing(), cov))

    def _set_class_probabilities(self, counts: np.ndarray) -> None:
        """``rule_class_proba_`` from the (rules + 1) x classes counts of the training rows
        each default rule decides (the last row: no rule)."""
        k = len(self.classes_)
        # the classes of the rows no rule decides, and all rows
        self._by_default = (counts[-1], counts.sum())
        proba = (counts + 1) / (counts.sum(axis=1, keepdims=True) + k)
        # a rule (the default) that decides no training row: the training rows' classes
        # (smoothed), not 1/K each, where its class stayed first by 1e-10 (a clinic
        # trial: float32 or a rounding gave another class than predict)
        proba[counts.sum(axis=1) == 0] = (counts.sum(axis=0) + 1) / (counts.sum() + k)
        rows, own = np.arange(len(proba)), self._rule_classes()
        others = proba.copy()
        others[rows, own] = -np.inf
        others = others.max(axis=1)             # each row's largest other class
        # ahead by CLASS_MARGIN of the next, not by 1e-9: a tie that float32 or a rounding
        # to four digits keeps (a review: under class_weight="balanced" a default that
        # decided no training row tied every class, and the argmax was another class)
        for r in np.flatnonzero(proba[rows, own] <= others):
            proba[r, own[r]] = others[r] * (1 + CLASS_MARGIN)
            proba[r] /= proba[r].sum()
        self.rule_class_proba_ = proba

    def _rule_classes(self) -> np.ndarray:
        """The index into ``classes_`` of each default rule's class, then the default's."""
        index = {as_label(c): i for i, c in enumerate(self.classes_)}
        labels = [r.label for r in self.program_.default_rules] + [self.program_.target.default]
        return np.array([index[lab] for lab in labels], dtype=np.int64)

    def _fit_probabilities(self, X, target, weight=None, cov=None) -> None:
        """Smoothed training precision of each default rule, and of 'no rule fires'
        (on weighted counts when the rows are weighted)."""
        self._set_precisions(rule_hits(self.program_, X, target, weight, self._missing(), cov))

    def _set_precisions(self, hits: np.ndarray) -> None:
        """``rule_precision_`` and ``default_precision_`` from :func:`rule_hits`' counts."""
        precision = (hits[0] + 1) / (hits[1] + 2)
        self.rule_precision_ = precision[:-1]
        self.default_precision_ = float(precision[-1])

    # -- predicting -------------------------------------------------------
    def _prediction_frame(self, X) -> pd.DataFrame:
        check_is_fitted(self, "program_")
        X = in_memory(X)
        names = list(self.feature_names_in_) if hasattr(self, "feature_names_in_") else None
        if isinstance(X, pd.DataFrame) and names is not None:
            sources = column_sources(names, X.columns)
            missing = [c for c in names if c not in sources]
            if missing:
                raise AspmlError(f"X lacks the column(s) {missing} seen in fit")
            return as_frame(X)
        frame = as_frame(X, names=names)
        if frame.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {frame.shape[1]} features, but {type(self).__name__} is "
                             f"expecting {self.n_features_in_} features as input")
        if names is not None and not isinstance(X, pd.DataFrame):
            # scikit-learn's own warning, its words: the columns are taken by position
            # (after the checks that refuse X: a refused X gets one message, not two)
            warnings.warn(f"X does not have valid feature names, but {type(self).__name__} was "
                          "fitted with feature names; its columns are read in the order of "
                          f"fit's: {', '.join(names[:5])}{', ...' if len(names) > 5 else ''}",
                          UserWarning, stacklevel=3)
        if names is None:
            frame = frame.set_axis([f"x{i}" for i in range(frame.shape[1])], axis=1)
        return frame

    def decision(self, X) -> np.ndarray:
        """Boolean array: True where the learned program derives the positive class."""
        frame = self._prediction_frame(X)
        return self.program_.predict(frame)

    def predict(self, X) -> np.ndarray:
        if getattr(self, "multiclass_", False):
            frame = self._prediction_frame(X)
            first = first_rules(self.program_, frame)
            return self.classes_[self._rule_classes()[first]]    # -1: the default, last
        hit = self.decision(X)
        return np.where(hit, self.classes_[self.positive_index_],
                        self.classes_[1 - self.positive_index_])

    def predict_proba(self, X) -> np.ndarray:
        """Probability of each class from the training precision of the rules that fire.

        Multi-class: the smoothed class distribution of the training rows the deciding
        rule (the first that fires, else the default) decided, its own class the largest
        (a default that decided no training row: that of every training row).

        A row where default rules fire gets the best smoothed precision
        ``(tp + 1) / (n + 2)`` among them; a row where none fires gets the
        smoothed positive rate of such rows in training.  Both stay strictly on the side
        of 1/2 that the program decides, so ``predict_proba`` agrees with ``predict``: a
        figure on the other side is moved just past 1/2 (within 1e-9), in its order, so
        that rows still rank by it (``roc_auc``, a threshold).
        """
        frame = self._prediction_frame(X)
        if getattr(self, "multiclass_", False):
            # the deciding rule's smoothed training class distribution (the default's
            # where no rule fires): see _fit_class_probabilities
            return self.rule_class_proba_[first_rules(self.program_, frame)]
        p = np.zeros(len(frame))
        fired = np.zeros(len(frame), dtype=bool)

        def best(k, packed):
            mask = unpack(packed, len(p))
            np.maximum(p, np.where(mask, self.rule_precision_[k], 0.0), out=p)
            fired[:] |= mask
        visit_default_rules(self.program_, frame, best, self._missing())
        # kept strictly on the side of 1/2 that the program decides, so argmax agrees with
        # predict whichever class sorts first (a tie at 1/2 goes to the first column), and
        # in the order of the precisions: one on the wrong side is moved just past 1/2, by
        # 1e-9 of its distance from the far end (a trial: a rule right on 2% of its rows
        # and one right on 49% both scored 0.5000..., and a ranking could not tell them)
        d = self.default_precision_
        # (and never at 1/2 itself, where 0.5 + 1e-9 * p rounds for a p below 6e-8)
        p = np.where(fired, np.where(p > 0.5, p, np.maximum(0.5 + 1e-9 * p,
                                                            np.nextafter(0.5, 1.0))),
                     d if d < 0.5 else min(0.5 - 1e-9 * (1.0 - d), np.nextafter(0.5, 0.0)))
        proba = np.empty((len(frame), 2))
        proba[:, self.positive_index_] = p
        proba[:, 1 - self.positive_index_] = 1 - p
        return proba


def without_idle_rules(program: Program, table, alive: np.ndarray) -> tuple[Program, np.ndarray]:
    """``program`` (one class's rules in a decision list) without the default rules that
    decide no row of ``alive`` (the training rows the list leaves the class): on every
    such row they fire on, an earlier rule of the class fires first, and on every other
    training row an earlier class's rules decide.  A trial: Libre kept ``age < 66 AND
    ward is a number AND sex in {...}`` after another class's ``age < 66 AND ward is a
    number`` (on twelve small tables, 50 of 375 rules decided no training row).  Their
    exception rules go when no kept rule reads them.  Also the rows of ``alive`` the
    program's rules fire on: the same with the idle rules or without them (one
    evaluation of the program for both)."""
    if not program.default_rules:
        return program, np.zeros(len(alive), dtype=bool)
    cov = evaluate(program, table)[1]
    defaults = default_indices(program)
    fired = cov[:, defaults].any(axis=1) & alive
    first = first_of_coverage(program, cov[alive])
    deciding = set(np.unique(first[first >= 0]).tolist())
    dead = {i for k, i in enumerate(defaults) if k not in deciding}
    if not dead:
        return program, fired
    kept = [r for i, r in enumerate(program.rules) if i not in dead and r.head is None]
    by_head: dict = {}
    for r in program.rules:
        if r.head is not None:
            by_head.setdefault(r.head, []).append(r)
    read, todo = set(), [lit.name for r in kept for lit in r.body if isinstance(lit, NotAtom)]
    while todo:                                 # the exceptions the kept rules read, in depth
        name = todo.pop()
        if name not in read:
            read.add(name)
            todo += [lit.name for r in by_head.get(name, ()) for lit in r.body
                     if isinstance(lit, NotAtom)]
    rules = [r for i, r in enumerate(program.rules)
             if (r.head is None and i not in dead) or (r.head is not None and r.head in read)]
    return replace(program, rules=tuple(rules)), fired


def merge_class_programs(parts) -> list:
    """The rules of one multi-class decision list from ``(label, binary program)`` pairs,
    in order: each program's default rules concluding its label, its exception
    atoms renamed apart (``ab1, ab2, ...`` numbered across the whole program, so two
    classes' ``ab1`` never merge); the exception rules follow the default rules."""
    defaults, exceptions, k = [], [], 0
    for label, program in parts:
        rename = {}
        for name in program.exception_names:
            k += 1
            rename[name] = f"ab{k}"

        def body(rule):
            return tuple(NotAtom(rename[lit.name]) if isinstance(lit, NotAtom) else lit
                         for lit in rule.body)
        defaults += [Rule(None, body(r), label=label) for r in program.default_rules]
        exceptions += [replace(r, head=rename[r.head], body=body(r))
                       for r in program.exception_rules]
    return defaults + exceptions


def _plain(value):
    return value.item() if isinstance(value, np.generic) else value

