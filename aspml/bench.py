"""``aspml bench``: cross-validated comparison of rule learners on manifest datasets.

A manifest is a tab-separated file (``MANIFEST.tsv`` in the data folder) with,
per dataset, the columns ``name``, ``label_column``, ``positive_value``,
``categorical_columns``, ``numeric_columns`` (space-separated) and ``files``
(CSV files relative to the folder, concatenated).  Values ``?`` and empty
cells are missing; rows without a label are left out; a numeric column that
also holds strings is read as ``mixed``.  When an entry lists no column kinds
at all, every column but the label is a feature and its kind is inferred as
``aspml learn`` infers it (:func:`infer_kinds`).  Datasets whose positive
value is not one label (``(regression)``) are skipped unless ``positive``
overrides it; a ``(multi-class)`` dataset named in ``--datasets`` (and every
named dataset under ``--multiclass``) runs with all its classes, the learners
learning one multi-class program.  A plain CSV file is a dataset too
(:func:`csv_entry`: the manifest entry it would have; a label of three or more
values and no positive value given is multi-class).

Learners: aspml's own (``fold-se``, ``fold-rpp``, ``libre``, ``mrs`` when
present), and, when their packages are importable, the reference FOLD-R++
(``foldrpp``), wittgenstein's RIPPER (``ripper``), a scikit-learn decision
tree of depth 5 (``tree``; rules = leaves that predict the positive class,
literals = the sum of their depths) and imodels' FIGS (``figs``, 12 splits;
rules = its splits).  Every learner sees the same stratified
folds; reported per (dataset, learner): mean accuracy, F1 of the positive
class, balanced accuracy (the mean of the two classes' recalls, which calling
every row negative cannot raise above 0.5), the positive class's precision and
recall, rules, literals and training seconds per fold.  On a multi-class
dataset F1, precision and recall are macro averages over the classes (each
class's score, unweighted mean) and balanced accuracy is the mean recall; the
reference learners that are binary only (``foldrpp``, ``ripper``, ``figs``)
are left out of it, and the tree's rules are all its leaves.

A learner name ending in ``:balanced`` (``fold-se:balanced``, with other
parameters ``libre:max_rules=3,balanced``; ``tree:balanced``) runs it with
``class_weight="balanced"``, as its own column; ``aspml bench --class-weight
balanced`` adds that column for every learner that takes it.  The tree takes
``tree:max_depth=3`` too.
"""

from __future__ import annotations

import csv
import importlib.util
import math
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .cli_learners import ISSUE_VARIANTS, available
from .errors import AspmlError, AspmlWarning
from .logic.model import KINDS

EXTERNAL = {"foldrpp": "foldrpp", "ripper": "wittgenstein", "tree": "sklearn", "figs": "imodels"}
MEASURES = ("acc", "f1", "bal_acc", "precision", "recall", "rules", "literals", "train_s")
# learners that take a class weight: aspml's, and the scikit-learn tree
WEIGHTED = ("tree", "figs")

DEFAULT_EXTRA_LEARNERS = ("libre:max_rules=3",)     # the LIBRE table's "libre 3" column


def split_dataset(spec: str) -> tuple[str, str | None]:
    """``"heart@present"`` -> ``("heart", "present")``; ``"heart"`` -> ``("heart", None)``."""
    name, sep, positive = spec.partition("@")
    return name, (positive if sep else None)


MULTICLASS = "(multi-class)"
BINARY_ONLY = ("foldrpp", "ripper", "figs")


@dataclass
class Dataset:
    name: str
    X: pd.DataFrame
    y: np.ndarray          # bool: the positive class; the labels (str) when multi-class
    kinds: dict
    label: str
    positive: str | None   # None: multi-class
    missing: tuple | None = None    # the tokens read as no value (--missing); None: "?"

    @property
    def multiclass(self) -> bool:
        return self.positive is None


def read_manifest(data_dir: Path) -> dict:
    path = Path(data_dir) / "MANIFEST.tsv"
    try:
        with open(path, newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh, delimiter="\t"))
    except OSError as e:
        raise AspmlError(f"cannot read {path}: {e.strerror or e}") from None
    need = {"name", "label_column", "positive_value", "categorical_columns", "numeric_columns",
            "files"}
    if not rows or not need <= set(rows[0]):
        raise AspmlError(f"{path} is not a manifest: it needs the columns {sorted(need)}")
    return {r["name"]: r for r in rows}


def csv_entry(path: Path, label: str, positive: str | None = None, missing=None) -> dict:
    """The manifest entry of one CSV file: named after the file, kinds inferred, and the
    positive value given or, for a label of two values, the second one sorted (as
    ``aspml learn`` picks it); ``missing``: the tokens read as no value (default ``?``)."""
    frame = _read(path)                         # as aspml learn reads it
    if label not in frame.columns:
        raise AspmlError(f"{path} has no column {label!r}")
    labels = frame[label]
    if positive is None:
        from .cli_learners import _numbers_if_all
        gone = _gone(missing)
        values = sorted(set(labels) - gone)
        if len(values) > 2:                     # every class: a multi-class program
            from .cli_learners import check_classes
            check_classes(label, list(_numbers_if_all(pd.Series(values))),
                          int((~labels.isin(gone)).sum()))
            positive = MULTICLASS
        elif len(values) != 2:
            raise AspmlError(f"column {label!r} of {path} holds {len(values)} value(s); a "
                             "classifier needs two classes or more")
        else:       # learn's order: numbers as numbers (2 before 10), then text
            read = list(_numbers_if_all(pd.Series(values)))
            positive = max(values, key=lambda v: (isinstance(read[values.index(v)], str),
                                                  read[values.index(v)]))
    return {"name": Path(path).stem, "label_column": label, "positive_value": positive,
            "categorical_columns": "", "numeric_columns": "", "files": str(Path(path).resolve())}


def infer_kinds(X: pd.DataFrame, missing=None) -> dict:
    """Each column's kind, as ``aspml learn`` reads a CSV: ``true``/``false`` (any case)
    only is boolean, numbers only numeric, numbers and words mixed, else categorical;
    ``missing``: the tokens read as no value (default ``?``; an empty cell always)."""
    from .data.table import infer_kind
    gone = _gone(missing)
    kinds = {}
    for c in X.columns:
        words = {str(v).strip().lower() for v in X[c] if v not in gone}
        kinds[c] = "boolean" if words and words <= {"true", "false"} else \
            infer_kind(X[c], missing=tuple(gone))
    return kinds


def _gone(missing) -> set:
    """The cells read as no value: the ``missing`` tokens (default ``?``) and the empty
    cell, as ``aspml learn`` reads them."""
    return set(missing or ("?",)) | {""}


def check_kinds(kinds: dict) -> None:
    """``--kind``'s kinds, each one aspml reads (:data:`aspml.logic.model.KINDS`)."""
    for col, kind in kinds.items():
        if kind not in KINDS:
            raise AspmlError(f"--kind {col}={kind}: {kind!r} is not one of {', '.join(KINDS)}")


def _read(path) -> pd.DataFrame:
    """A CSV file as ``aspml learn`` reads it (separator found, spaces after it dropped,
    every cell text), with empty cells as empty texts (missing, as ``?``, here)."""
    from .data.csvfile import read_csv
    return read_csv(path).fillna("")


def usable(entry: dict, positive: str | None = None, multiclass: bool = False) -> bool:
    """Whether a dataset has a class to learn: a positive value given, every class, or a
    manifest's positive value that is a label (not ``(regression)``; a label may hold
    brackets, ``default (90d)``, when it is the file's own)."""
    value = entry["positive_value"]
    return (positive is not None or multiclass or value.endswith(MULTICLASS)
            or not (value.startswith("(") and value.endswith(")")))


def default_names(manifest: dict, overrides: dict, multiclass: bool = False) -> list[str]:
    """The datasets a run without ``--datasets`` takes: every one with a positive value
    (``overrides`` give some), and the learners' tables' ``NAME@POSITIVE`` variants.  A
    dataset the manifest marks ``(multi-class)`` only with ``multiclass`` (it is long:
    name it to run it)."""
    return ([n for n, e in manifest.items() if usable(e, overrides.get(n), multiclass)
             and (multiclass or overrides.get(n) is not None
                  or not e["positive_value"].endswith(MULTICLASS))]
            + [v for v in ISSUE_VARIANTS if split_dataset(v)[0] in manifest])


def _listed(entry: dict, field: str, columns) -> list:
    """The columns a manifest's ``field`` lists, separated by spaces: a name with spaces
    in it is the run of words that names a column of the files (``Body Mass``); a name
    no column has is said in a note (a trial's manifest lost its ``Body Mass`` column to
    the split, without a word, and its scores changed)."""
    words, names, unknown, i = entry[field].split(), [], [], 0
    columns = set(columns)
    while i < len(words):
        for j in range(len(words), i, -1):          # the longest run that names a column
            if " ".join(words[i:j]) in columns:
                names.append(" ".join(words[i:j]))
                i = j
                break
        else:
            unknown.append(words[i])
            i += 1
    if unknown:
        warnings.warn(f"{entry['name']}: the manifest's {field} names "
                      f"{', '.join(map(repr, unknown))}, which no column of "
                      f"{entry['files']} has: left out", AspmlWarning, stacklevel=3)
    return names


def load_dataset(data_dir: Path, entry: dict, positive: str | None = None,
                 multiclass: bool = False, kinds: dict | None = None,
                 missing=None) -> Dataset:
    """The dataset of a manifest entry: binary (the positive class against the others),
    or with every class when ``multiclass`` or when the entry says ``(multi-class)``
    and no positive value is given.  ``kinds`` (``--kind``) sets the kind of the
    feature columns it names (a manifest that lists kinds names its features; a file
    without them has every column but the label), over the manifest's or the inferred one, as
    ``aspml learn --kind`` does; ``missing`` (``--missing``): the tokens read as no
    value, in place of ``?`` (an empty cell always is), as ``aspml learn --missing``."""
    df = pd.concat([_read(Path(data_dir) / f) for f in entry["files"].split()],
                   ignore_index=True)
    label = entry["label_column"]
    if positive is None and not multiclass:
        positive = entry["positive_value"]
        multiclass = positive.endswith(MULTICLASS)
    if label not in df.columns:
        raise AspmlError(f"{entry['name']}: no column {label!r} in {entry['files']}")
    gone = _gone(missing)
    df = df[~df[label].isin(gone)].reset_index(drop=True)
    cats = _listed(entry, "categorical_columns", df.columns)
    nums = _listed(entry, "numeric_columns", df.columns)
    found = {}
    if not entry["categorical_columns"].split() and not entry["numeric_columns"].split():
        found = infer_kinds(df.drop(columns=[label]), missing)   # no kinds listed: infer them
        cats = [c for c, k in found.items() if k in ("categorical", "boolean")]
        nums = [c for c, k in found.items() if k in ("numeric", "mixed")]
    # the features only: a manifest that lists kinds names its features, and a kind for
    # another dataset's column must not make one here
    check_kinds(kinds or {})
    given = {c: k for c, k in (kinds or {}).items() if c in cats or c in nums}
    for c, k in given.items():
        cats = [x for x in cats if x != c] + ([c] if k in ("categorical", "boolean") else [])
        nums = [x for x in nums if x != c] + ([c] if k in ("numeric", "mixed") else [])
        found[c] = k
    if not cats and not nums:
        raise AspmlError(f"{entry['name']}: no feature column besides {label!r}")
    X = df[[c for c in df.columns if c in cats or c in nums]].copy()    # the file's order
    for c in X.columns:             # a missing token is no value, in every column
        X[c] = X[c].where(~X[c].isin(gone), None)
    kinds = {c: found.get(c, "categorical") for c in cats}
    for c in nums:
        values = X[c]
        as_num = pd.to_numeric(values, errors="coerce")
        if given.get(c) == "mixed":
            kinds[c] = "mixed"
        elif as_num.notna().sum() == values.notna().sum():
            X[c] = as_num
            kinds[c] = "numeric"
        elif given.get(c) == "numeric":
            word = values[values.notna() & as_num.isna()].iloc[0]
            raise AspmlError(f"--kind {c}=numeric: column {c!r} of {entry['name']} holds "
                             f"{word!r}; declare it mixed or categorical, or list the token "
                             "as missing (--missing)")
        else:
            kinds[c] = "mixed"
    if multiclass:
        y = df[label].astype(str).to_numpy(dtype=object)
        if len(set(y)) < 2:
            raise AspmlError(f"{entry['name']}: column {label!r} holds one class only")
        return Dataset(entry["name"], X, y, kinds, label, None, _tokens(missing))
    y = (df[label] == positive).to_numpy()
    if not y.any():
        raise AspmlError(f"{entry['name']}: no row has {label} = {positive!r}")
    return Dataset(entry["name"], X, y, kinds, label, positive, _tokens(missing))


def _tokens(missing):
    """``missing`` as the tuple a learner's ``missing=`` takes, or None (its default)."""
    return tuple(missing) if missing else None


def learners_available() -> list[str]:
    have = list(available())
    return have + [k for k, module in EXTERNAL.items() if importlib.util.find_spec(module)]


def default_learners() -> list[str]:
    """Every available learner, and the extra settings the learners' tables report."""
    have = learners_available()
    return have + [x for x in DEFAULT_EXTRA_LEARNERS if x.partition(":")[0] in have]


# -- one training run per learner kind ------------------------------------------

def parse_learner(spec: str) -> tuple[str, dict]:
    """``"libre:max_rules=3,alpha=0.5"`` -> ``("libre", {"max_rules": 3, "alpha": 0.5})``.

    Parameters go to aspml's learners only; a mistake is one AspmlError.
    """
    from .cli_learners import parse_value
    name, _, rest = spec.partition(":")
    params = {}
    for item in filter(None, rest.split(",")):
        if item.strip() == "balanced":            # NAME:balanced, NAME:KEY=VALUE,balanced
            params["class_weight"] = "balanced"
            continue
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise AspmlError(f"learner {spec!r}: write parameters as NAME:KEY=VALUE,KEY=VALUE")
        params[key.strip().replace("-", "_")] = parse_value(value)
    if params and name in WEIGHTED:
        size = "max_depth" if name == "tree" else "max_rules"
        unknown = [k for k in params if k not in (size, "class_weight")]
        if unknown:
            raise AspmlError(f"learner {spec!r}: {name} takes {size} and balanced, not "
                             f"{unknown[0]!r}")
    elif params:
        have = available()
        if name not in have:
            raise AspmlError(f"learner {spec!r}: parameters go with aspml's learners "
                             f"({', '.join(have)})")
        accepted = have[name]().get_params()
        unknown = [k for k in params if k not in accepted]
        if unknown:
            raise AspmlError(f"learner {spec!r}: {name} has no parameter {unknown[0]!r}")
    return name, params


def run_aspml(spec, data: Dataset, tr, te, seed):
    name, extra = parse_learner(spec)
    cls = available()[name]
    params = {"kinds": data.kinds} if data.multiclass else {"kinds": data.kinds, "positive": True}
    if data.missing is not None:
        params["missing"] = data.missing
    if "random_state" in cls().get_params():
        params["random_state"] = seed
    clf = cls(**{**params, **extra})
    with warnings.catch_warnings():             # the table shows an empty or weak program
        warnings.simplefilter("ignore", AspmlWarning)
        t = time.perf_counter()
        clf.fit(data.X.iloc[tr], data.y[tr])
        seconds = time.perf_counter() - t
    p = clf.program_
    pred = clf.predict(data.X.iloc[te]) if data.multiclass else clf.decision(data.X.iloc[te])
    return pred, p.n_rules, p.n_literals, seconds


def run_foldrpp(data: Dataset, tr, te, seed):
    import foldrpp

    from .logic.parser import parse
    cats = [c for c, k in data.kinds.items() if k in ("categorical", "boolean")]
    nums = [c for c in data.X.columns if c not in cats]
    frame = data.X.copy()
    frame["label"] = np.where(data.y, "pos", "neg")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "data.csv"
        frame.to_csv(path, index=False, na_rep="?")
        model = foldrpp.Foldrpp(cats, nums, "label", "pos")
        rows = model.load_data(str(path))
    t = time.perf_counter()
    model.fit([rows[i] for i in tr], ratio=0.5)
    seconds = time.perf_counter() - t
    pred = np.array(model.predict([rows[i] for i in te]), dtype=bool)
    try:
        program = parse("\n".join(model.asp()), "scasp")
        n_rules, n_lits = program.n_rules, program.n_literals
    except AspmlError:
        n_rules, n_lits = len(model.asp()), math.nan
    return pred, n_rules, n_lits, seconds


def _plain_frame(data: Dataset) -> pd.DataFrame:
    X = data.X.copy()
    for c, k in data.kinds.items():
        if k != "numeric":
            X[c] = X[c].astype(object).where(X[c].notna(), None).astype(str)
    return X


def run_ripper(data: Dataset, tr, te, seed):
    import wittgenstein
    X = _plain_frame(data)
    clf = wittgenstein.RIPPER(random_state=seed)
    t = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf.fit(X.iloc[tr].reset_index(drop=True), data.y[tr], pos_class=True)
        seconds = time.perf_counter() - t
        pred = np.asarray(clf.predict(X.iloc[te].reset_index(drop=True)), dtype=bool)
    rules = clf.ruleset_.rules
    return pred, len(rules), sum(len(r.conds) for r in rules), seconds


def _encoder(data: Dataset):
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.preprocessing import OneHotEncoder
    X = _plain_frame(data)
    nums = [c for c, k in data.kinds.items() if k == "numeric"]
    cats = [c for c in X.columns if c not in nums]
    return X, ColumnTransformer([("num", SimpleImputer(strategy="median"), nums),
                                 ("cat", OneHotEncoder(handle_unknown="ignore",
                                                       sparse_output=False), cats)])


def run_figs(data: Dataset, tr, te, seed, max_rules=12, class_weight=None):
    """imodels' FIGS (a sum of small trees); rules = its splits, literals not counted."""
    from imodels import FIGSClassifier
    from sklearn.utils.class_weight import compute_sample_weight
    X, prep = _encoder(data)
    t = time.perf_counter()
    Xt = prep.fit_transform(X.iloc[tr])
    clf = FIGSClassifier(max_rules=max_rules, random_state=seed)
    weight = None if class_weight is None else compute_sample_weight(class_weight, data.y[tr])
    clf.fit(Xt, data.y[tr].astype(int), sample_weight=weight)
    seconds = time.perf_counter() - t
    pred = np.asarray(clf.predict(prep.transform(X.iloc[te])), dtype=int).astype(bool)
    return pred, int(clf.complexity_), math.nan, seconds


def run_tree(data: Dataset, tr, te, seed, max_depth=5, class_weight=None):
    from sklearn.pipeline import make_pipeline
    from sklearn.tree import DecisionTreeClassifier
    X, prep = _encoder(data)
    tree = DecisionTreeClassifier(max_depth=max_depth, class_weight=class_weight,
                                  random_state=seed)
    clf = make_pipeline(prep, tree)
    t = time.perf_counter()
    clf.fit(X.iloc[tr], data.y[tr])
    seconds = time.perf_counter() - t
    pred = np.asarray(clf.predict(X.iloc[te]), dtype=object if data.multiclass else bool)
    t_ = tree.tree_
    depth = np.zeros(t_.node_count, dtype=int)
    for node in range(t_.node_count):          # children come after their parent
        for child in (t_.children_left[node], t_.children_right[node]):
            if child >= 0:
                depth[child] = depth[node] + 1
    leaves = t_.children_left < 0
    if data.multiclass:                        # every leaf concludes a class
        return pred, int(leaves.sum()), int(depth[leaves].sum()), seconds
    positive_class = list(tree.classes_).index(True) if True in tree.classes_ else None
    if positive_class is None:
        return pred, 0, 0, seconds
    positive = leaves & (t_.value[:, 0, :].argmax(axis=1) == positive_class)
    return pred, int(positive.sum()), int(depth[positive].sum()), seconds


def run(learner: str, data: Dataset, tr, te, seed):
    """(predictions on te, rules, literals, training seconds) of one learner on one fold."""
    if learner == "foldrpp":
        return run_foldrpp(data, tr, te, seed)
    if learner == "ripper":
        return run_ripper(data, tr, te, seed)
    if learner.partition(":")[0] == "tree":
        return run_tree(data, tr, te, seed, **parse_learner(learner)[1])
    if learner.partition(":")[0] == "figs":
        return run_figs(data, tr, te, seed, **parse_learner(learner)[1])
    return run_aspml(learner, data, tr, te, seed)


def cross_validate(datasets: list, learners: list, folds: int, seed: int, max_rows: int,
                   progress) -> tuple[list[dict], list[str]]:
    """Every learner on the same stratified folds of every dataset: ``(summaries, failed)``.

    ``progress`` (:class:`aspml.progress.Progress`) takes a step per fold and
    prints each summary row as it is ready; a learner that fails on a dataset
    (or a dataset too small for the folds) is reported on stderr, listed in
    ``failed``, and the run goes on.  A reference learner left out on purpose
    (more than ``max_rows`` rows) is not a failure.
    """
    failed = []
    from sklearn.model_selection import StratifiedKFold
    if any(x in available() for x in learners):
        import aspml            # compile the numba kernels once, before any fold is timed
        aspml.FoldSE().fit(pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": ["x", "y", "x", "y"]}),
                           [0, 1, 0, 1])
    results = []
    for data in datasets:
        counts = smallest_class(data.y)[1]
        if counts is None or counts < folds:
            progress.write(f"skipped {data.name}: a class has fewer than {folds} rows", err=True)
            failed.append(data.name)
            continue
        splits = list(StratifiedKFold(folds, shuffle=True, random_state=seed).split(data.X, data.y))
        for learner in learners:
            if data.multiclass and learner.partition(":")[0] in BINARY_ONLY:
                progress.write(f"skipped {learner} on {data.name}: it learns two classes only",
                               err=True)
                for _ in splits:
                    progress.step(f"{data.name} {learner}")
                continue
            if learner.partition(":")[0] in EXTERNAL and len(data.X) > max_rows:
                progress.write(f"skipped {learner} on {data.name}: more than {max_rows} rows",
                               err=True)
                for _ in splits:
                    progress.step(f"{data.name} {learner}")
                continue
            scores = []
            try:
                for tr, te in splits:
                    pred, n_rules, n_lits, sec = run(learner, data, tr, te, seed)
                    scores.append({**fold_scores(pred, data.y[te]), "rules": n_rules,
                                   "literals": n_lits, "train_s": sec})
                    progress.step(f"{data.name} {learner}")
            except Exception as e:  # noqa: BLE001 - one learner failing must not stop the run
                first = (str(e).splitlines() or [type(e).__name__])[0]
                progress.write(f"skipped {learner} on {data.name}: {type(e).__name__}: {first}",
                               err=True)
                failed.append(f"{learner} on {data.name}")
                continue
            r = summary(data.name, learner, scores)
            results.append(r)
            progress.write(markdown_row(r))
    return results, failed


def fold_scores(pred, truth) -> dict:
    """Accuracy; the positive class's F1, precision and recall (0 when undefined: no
    row predicted positive); balanced accuracy, the mean recall of the two classes.
    Labels that are not Booleans (a multi-class fold): :func:`macro_scores`."""
    if np.asarray(truth).dtype != bool:
        return macro_scores(pred, truth)
    from .report import binary_scores  # (the figures check and report print)

    pred, truth = np.asarray(pred, dtype=bool), np.asarray(truth, dtype=bool)
    s = binary_scores(pred, truth, np.ones(len(truth), dtype=bool))
    specificity = s["tn"] / max(s["tn"] + s["fp"], 1)
    return {"acc": float(s["accuracy"]), "f1": float(s["f1"]),
            "bal_acc": float((s["recall"] + specificity) / 2),
            "precision": float(s["precision"]), "recall": float(s["recall"])}


def smallest_class(y) -> tuple:
    """``(label, rows)`` of the smallest class of ``y`` (as text), or ``(None, None)`` when
    ``y`` holds fewer than two classes: a stratified split needs ``rows >= folds``."""
    values, counts = np.unique(np.asarray(y, dtype=object).astype(str), return_counts=True)
    if len(counts) < 2:
        return None, None
    k = int(np.argmin(counts))
    return str(values[k]), int(counts[k])


def macro_scores(pred, truth, weights=None) -> dict:
    """A multi-class fold, as scikit-learn scores it: accuracy; F1, precision and recall
    of each class of ``truth`` or ``pred``, averaged with equal weight (``f1_macro``: a
    class given but never seen counts, at F1 0; a 0/0 counts 0, ``zero_division=0``);
    balanced accuracy, the mean recall of the classes of ``truth``.  A row with no class
    (``None``) counts as wrong, as one more predicted class.  ``weights``: each row
    counts as that many copies of it (a row of weight 0 as if absent)."""
    pred = np.array([None if p is None else str(p) for p in pred], dtype=object)
    truth = np.asarray(truth, dtype=object).astype(str)
    w = np.ones(len(truth)) if weights is None else np.asarray(weights, dtype=float)
    if weights is not None:
        pred, truth, w = pred[w > 0], truth[w > 0], w[w > 0]
    f1s, precisions, recalls, seen = [], [], [], []
    none = np.equal(pred, None)
    labels = sorted(set(truth.tolist()) | set(pred[~none].tolist()))
    for c in labels + ([None] if none.any() else []):
        hit, real = (pred == c) if c is not None else none, truth == c
        tp, n_hit, n_real = w[hit & real].sum(), w[hit].sum(), w[real].sum()
        precisions.append(tp / n_hit if n_hit else 0.0)
        recalls.append(tp / n_real if n_real else 0.0)
        if real.any():
            seen.append(recalls[-1])
        f1s.append(0.0 if tp == 0 else 2 * tp / (n_hit + n_real))
    return {"acc": float(w[pred == truth].sum() / w.sum()), "f1": float(np.mean(f1s)),
            "bal_acc": float(np.mean(seen)), "precision": float(np.mean(precisions)),
            "recall": float(np.mean(recalls))}


def summary(data: str, learner: str, folds: list[dict]) -> dict:
    out = {"data": data, "learner": learner}
    for m in MEASURES:
        out[m] = float(np.mean([f[m] for f in folds]))
    out["folds"] = folds
    return out


def markdown_row(r: dict) -> str:
    return (f"| {r['data']} | {r['learner']} | {r['acc']:.3f} | {r['f1']:.3f} | "
            f"{r['bal_acc']:.3f} | {r['precision']:.3f} | {r['recall']:.3f} | {r['rules']:.1f} | "
            f"{r['literals']:.1f} | {r['train_s']:.4f} |")


HEADER = ("| data | learner | accuracy | F1 | bal. acc. | precision | recall | rules | literals | "
          "train s/fold |\n|---|---|---|---|---|---|---|---|---|---|")


def with_class_weight(learners: list, weight: str) -> list:
    """The learners, each that takes a class weight followed by its ``NAME:balanced`` twin."""
    out = []
    for spec in learners:
        out.append(spec)
        name, params = parse_learner(spec)
        if (name in available() or name in WEIGHTED) and "class_weight" not in params:
            out.append(spec + ("," if ":" in spec else ":") + weight)
    return out


def write_results(results: list[dict], settings: dict, prefix: str) -> list[str]:
    import json
    base = prefix[:-5] if prefix.endswith(".json") else prefix[:-4] if prefix.endswith(".csv") \
        else prefix
    paths = [base + ".csv", base + ".json"]
    try:
        with open(paths[0], "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(["data", "learner", *MEASURES])
            for r in results:
                w.writerow([r["data"], r["learner"], *(f"{r[m]:.6g}" for m in MEASURES)])
        with open(paths[1], "w", encoding="utf-8") as fh:
            json.dump({"settings": settings, "results": results}, fh, indent=1)
    except OSError as e:
        raise AspmlError(f"cannot write {base}.csv/.json: {e.strerror or e}") from None
    return paths
