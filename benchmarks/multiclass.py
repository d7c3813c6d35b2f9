"""Multi-class programs (issue #17): aspml's four learners against the reference FOLD-RM
and a depth-5 tree, side by side on the same folds.

    nice -n 10 python benchmarks/multiclass.py                  # the issue's six sets
    nice -n 10 python benchmarks/multiclass.py --datasets wine ecoli --learners FoldSE FoldRpp
    nice -n 10 python benchmarks/multiclass.py --check          # + clingo and SWI-Prolog
    python benchmarks/multiclass.py --datasets cardiotocography --learners FoldSE "ref FOLD-RM" --repeat 5
    python benchmarks/multiclass.py --datasets balance --learners FoldRpp "ref FOLD-RM" --column-orders 12
    python benchmarks/multiclass.py --datasets avila --learners "FoldRpp(tail=0.05)" "ref FOLD-RM"

Stratified 5-fold CV (``StratifiedKFold(5, shuffle=True, random_state=0)``) on the
multi-class sets of ``MANIFEST.tsv`` (cardiotocography's label is NSP).  Per
learner and set: accuracy, macro-F1, rules (``program.n_rules``: default and
exception rules), literals (``not abK`` included), the first fold's fit seconds
(``first``: cold caches, numba compiled once per machine) and the mean of the
other four (``warm``; with ``--repeat N`` each fold is fit N times, a new learner
each time, and its best counts: the same for the reference and the tree).  The reference FOLD-RM (PyPI ``foldrm`` 0.0.2, ratio 0.5)
reads the CSV rows as its README does; its rules are all the lines it prints
(``ruleK`` helpers and ``label`` rules included, as the issue counts them; the
last column also gives its default and exception rules alone, what
``program.n_rules`` counts for aspml), its literals the atoms of those lines,
and ``unanswered`` the share of test rows it gives no class (counted wrong).  The tree is scikit-learn's
``DecisionTreeClassifier(max_depth=5, random_state=0)`` on one-hot columns.

``--check``: every aspml program of the CV must give the fast path's classes on its
test fold in clingo (``aspml.asp.predict``), and one program per learner and set in
SWI-Prolog (``aspml.prolog.predict``); a disagreement stops the run.
"""

from __future__ import annotations

import argparse
import ast
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedKFold

import aspml

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
DATASETS = ["wine", "balance", "ecoli", "anneal", "cardiotocography", "avila"]
LEARNERS = ["FoldSE", "FoldRpp", "Libre", "MRS", "ref FOLD-RM", "tree depth 5"]


def load(data_dir: Path, name: str):
    """(X, y, kinds, entry, frame): the table as ``aspml bench`` reads it, the class labels
    as text, and the raw text frame of the files (what the reference reads)."""
    from aspml.bench import load_dataset, read_manifest
    entry = read_manifest(data_dir)[name]
    frame = pd.concat([pd.read_csv(data_dir / f, dtype=str, keep_default_na=False)
                       for f in entry["files"].split()], ignore_index=True)
    label = entry["label_column"]
    frame = frame[~frame[label].isin(["?", ""])].reset_index(drop=True)
    d = load_dataset(data_dir, entry, positive=frame[label].iloc[0])
    return d.X, frame[label].to_numpy(dtype=object), d.kinds, entry, frame


def timed(fit, repeat):
    """(the first call's seconds, the best of ``repeat`` calls' seconds, the last result)."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fit()
        times.append(time.perf_counter() - t)
    return times[0], min(times), out


def run_aspml(make, X, y, folds, check, name, repeat=1):
    rows = []
    for i, (tr, te) in enumerate(folds):
        seconds, best, clf = timed(lambda: make().fit(X.iloc[tr], y[tr]), repeat)
        pred = clf.predict(X.iloc[te])
        p = clf.program_
        if check:
            fast = np.asarray(p.predict(X.iloc[te]), dtype=object)
            if not np.array_equal(fast, pred.astype(object)):
                raise SystemExit(f"{name}: program_.predict differs from predict")
            answers = np.asarray(aspml.asp.predict(p, X.iloc[te]), dtype=object)
            if not np.array_equal(answers, fast):
                raise SystemExit(f"{name} fold {i}: clingo disagrees with the fast path")
            if i == 0:
                answers = np.asarray(aspml.prolog.predict(p, X.iloc[te]), dtype=object)
                if not np.array_equal(answers, fast):
                    raise SystemExit(f"{name} fold {i}: SWI-Prolog disagrees with the fast path")
        rows.append(dict(acc=np.mean(pred == y[te]),
                         f1=f1_score(y[te], pred, average="macro", zero_division=0),
                         rules=p.n_rules, literals=p.n_literals, seconds=seconds, best=best))
    return rows


def run_reference(entry, frame, y, folds, repeat=1):
    """The reference FOLD-RM on the same folds, reading the rows as its README does."""
    from foldrm import Classifier
    label = entry["label_column"]
    cats = [c for c in entry["categorical_columns"].split() if c in frame.columns]
    nums = [c for c in entry["numeric_columns"].split() if c in frame.columns]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "data.csv"
        frame.to_csv(path, index=False)
        model = Classifier(attrs=cats + nums, numeric=nums, label=label)
        data = model.load_data(str(path))
    rows = []
    for tr, te in folds:
        def fit():
            model.rules, model.asp_rules = None, None
            model.fit([data[i] for i in tr], ratio=0.5)
        seconds, best, _ = timed(fit, repeat)
        pred = np.array(model.predict([data[i] for i in te]), dtype=object)
        printed = model.asp()
        unanswered = np.array([p is None for p in pred])
        truth = np.array([data[i][-1] for i in te], dtype=object)
        shown = np.where(unanswered, "(none)", pred).astype(str)
        rows.append(dict(acc=np.mean(shown == truth.astype(str)),
                         f1=f1_score(truth.astype(str), shown, average="macro",
                                     labels=sorted(set(truth)), zero_division=0),
                         rules=len(printed),
                         # the printed rules less the label(X,c) :- ruleK(X), ... lines: the
                         # default and exception rules, as program.n_rules counts aspml's
                         own=sum(not line.startswith(label.lower().replace(" ", "_") + "(")
                                 for line in printed),
                         literals=sum(line.split(":-", 1)[1].count("(X") for line in printed),
                         seconds=seconds, best=best, unanswered=unanswered.mean()))
    return rows


def run_tree(X, y, kinds, folds, repeat=1):
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder
    from sklearn.tree import DecisionTreeClassifier
    cats = [c for c in X.columns if kinds.get(c) != "numeric"]
    nums = [c for c in X.columns if kinds.get(c) == "numeric"]
    X = X.copy()
    for c in cats:
        X[c] = X[c].astype(str)
    rows = []
    for tr, te in folds:
        tree = make_pipeline(
            ColumnTransformer([("cat", OneHotEncoder(handle_unknown="ignore"), cats),
                               ("num", "passthrough", nums)]),
            DecisionTreeClassifier(max_depth=5, random_state=0))
        seconds, best, _ = timed(lambda: tree.fit(X.iloc[tr], y[tr]), repeat)
        pred = tree.predict(X.iloc[te])
        leaves = tree[-1].get_n_leaves()
        rows.append(dict(acc=np.mean(pred == y[te]),
                         f1=f1_score(y[te], pred, average="macro", zero_division=0),
                         rules=leaves, literals=float("nan"), seconds=seconds, best=best))
    return rows


CLASSES = {"FoldSE": aspml.FoldSE, "FoldRpp": aspml.FoldRpp, "Libre": aspml.Libre,
           "MRS": aspml.MultiValueRuleSet}


def spec(name):
    """``("FoldRpp", {"tail": 0.05})`` for ``"FoldRpp(tail=0.05)"`` (keyword arguments of
    literal values), ``("FoldSE", {})`` for ``"FoldSE"``; ValueError for another name."""
    try:
        call = ast.parse(name, mode="eval").body
    except SyntaxError:
        raise ValueError(f"not a learner: {name!r}") from None
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and not call.args:
        name, params = call.func.id, {k.arg: ast.literal_eval(k.value) for k in call.keywords}
    else:
        params = {}
    if name not in CLASSES:
        raise ValueError(f"not a learner: {name!r}")
    return name, params


def make(name, kinds, **settings):
    """A maker of the learner ``name`` (:func:`spec`) with ``kinds`` and ``settings``
    (``positive=``, ``class_weight=``), its own parameters over them; Libre and MRS with
    ``random_state=0`` unless given."""
    name, params = spec(name)
    if name in ("Libre", "MRS"):
        params = {"random_state": 0, **params}
    cls = CLASSES[name]
    return lambda: cls(**{"kinds": kinds, **settings, **params})


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--datasets", nargs="+", default=DATASETS)
    ap.add_argument("--learners", nargs="+", default=LEARNERS)
    ap.add_argument("--check", action="store_true",
                    help="every program's test-fold classes in clingo, a sample in SWI-Prolog")
    ap.add_argument("--repeat", type=int, default=1,
                    help="fit each fold this many times (a new learner each time); warm "
                         "seconds are then each fold's best, the first stays the first fit")
    ap.add_argument("--column-orders", type=int, default=0, metavar="N",
                    help="instead: mean accuracy over N orders of the feature columns (the "
                         "file's, then random ones, seed 0): how much the order in which "
                         "equally good literals are met moves each learner")
    args = ap.parse_args(argv)
    if args.column_orders:
        return column_orders(args)
    print("| data | learner | accuracy | macro-F1 | rules | literals | fit s first | fit s warm "
          "| unanswered |")
    print("|---|---|---|---|---|---|---|---|---|")
    warm_of = {}                                    # (data, learner) -> warm seconds
    for data in args.datasets:
        X, y, kinds, entry, frame = load(args.data_dir, data)
        folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
        for learner in args.learners:
            if learner == "ref FOLD-RM":
                rows = run_reference(entry, frame, y, folds, args.repeat)
            elif learner == "tree depth 5":
                rows = run_tree(X, y, kinds, folds, args.repeat)
            else:
                rows = run_aspml(make(learner, kinds), X, y, folds, args.check,
                                 f"{learner} on {data}", args.repeat)
            mean = {k: np.mean([r[k] for r in rows]) for k in rows[0]}
            warm = np.mean([r["best"] for r in rows[1:]])
            warm_of[data, learner] = warm
            unanswered = (f"{mean['unanswered']:.3f} ({mean['own']:.1f} default + exception "
                          "rules)" if "unanswered" in mean else "")
            print(f"| {data} | {learner} | {mean['acc']:.3f} | {mean['f1']:.3f} | "
                  f"{mean['rules']:.1f} | {mean['literals']:.1f} | {rows[0]['seconds']:.3f} | "
                  f"{warm:.3f} | {unanswered} |", flush=True)
    if "ref FOLD-RM" in args.learners:              # the speed bar, this run's figures
        print("\n| data | learner | fit s warm | reference fit s warm | reference / learner |")
        print("|---|---|---|---|---|")
        for (data, learner), warm in warm_of.items():
            ref = warm_of.get((data, "ref FOLD-RM"))
            if learner.split("(")[0] in ("FoldSE", "FoldRpp") and ref is not None:
                print(f"| {data} | {learner} | {warm:.4f} | {ref:.4f} | {ref / warm:.1f}x |")
    return 0


def column_orders(args) -> int:
    """Each learner's accuracy (5-fold CV, the same folds) over ``args.column_orders``
    orders of the feature columns: the file's order, then random permutations (seed 0).
    A tie between equally good literals goes to the first feature for every learner
    here, the reference included, so a difference that holds for every order is not
    one of ties."""
    print("| data | learner | accuracy, the file's order | mean over orders | sd | min | max |")
    print("|---|---|---|---|---|---|---|")
    for data in args.datasets:
        X, y, kinds, entry, frame = load(args.data_dir, data)
        folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
        cols = list(X.columns)
        rng = np.random.default_rng(0)
        orders = [cols] + [list(rng.permutation(cols)) for _ in range(args.column_orders - 1)]
        for learner in args.learners:
            accs = []
            for order in orders:
                if learner == "ref FOLD-RM":
                    rest = [c for c in frame.columns if c not in cols]
                    rows = run_reference(entry, frame[order + rest], y, folds)
                elif learner == "tree depth 5":
                    rows = run_tree(X[order], y, kinds, folds)
                else:
                    rows = run_aspml(make(learner, kinds), X[order], y, folds, False, learner)
                accs.append(np.mean([r["acc"] for r in rows]))
            accs = np.array(accs)
            print(f"| {data} | {learner} | {accs[0]:.3f} | {accs.mean():.3f} | "
                  f"{accs.std(ddof=1) if len(accs) > 1 else 0:.3f} | {accs.min():.3f} | "
                  f"{accs.max():.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
