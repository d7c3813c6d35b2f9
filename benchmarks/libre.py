"""Benchmark LIBRE on the paper's datasets, its scale test, and its parallel ensemble.

    python benchmarks/libre.py                    # CV on the paper's datasets (F1, rules, atoms)
    python benchmarks/libre.py --scale            # one weak learner on 1M records
    python benchmarks/libre.py --weak-learner     # its parts on 1M x 10, full precision too
    python benchmarks/libre.py --bin-threads      # where binning columns on 2 threads pays
    python benchmarks/libre.py --parallel         # n_jobs=1 against n_jobs=2 on adult
    python benchmarks/libre.py --tuned-features   # max_features chosen by nested 3-fold CV
    python benchmarks/libre.py --check            # issue #20: defaults, today's, max_rules=3
    python benchmarks/libre.py --seeds 6          # F1 over the learner's random_state 0-5
    python benchmarks/libre.py --whole-data-bins  # diagnosis: ChiMerge before the CV split
    python benchmarks/libre.py --balance-boxes    # why held-out F1 on balance is 0
    python benchmarks/libre.py --wide             # categories of 700-800 values, 100k rows
    python benchmarks/libre.py --wide --wide-uncapped  # also max_categories=None (slow)
    python benchmarks/libre.py --many-features    # 50-300 features: the draw by evidence

Stratified 5-fold CV (seed 0) with the paper's positive class (Table 7 of the
paper, listed in ANCHORS.md): adult >50K, australian 1, balance B against L
and R, heart present, liver 1, sonar Rock, tictactoe positive, breastw
malignant.  Settings: 20 weak learners of at most 5 features, H1, alpha 0.7,
ChiMerge threshold 6 (the paper's Appendix D value), random_state 0; and the
same with max_rules=3 ("libre 3").  Also the reference implementation's
setting of ANCHORS.md: heart and breastw with MANIFEST.tsv's positive class.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

import aspml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fold as fold_bench  # noqa: E402  (the manifest loader)

PAPER = {  # data: (positive class, paper F1 libre, libre 3, rules libre)
    "adult": (">50K", .70, .62, 14.0), "australian": ("1", .84, .84, 2.4),
    "balance": ("B", .16, .14, 9.0), "heart": ("present", .77, .75, 10.6),
    "liver": ("1", .60, .63, 3.4), "sonar": ("Rock", .79, .76, 6.6),
    "tictactoe": ("positive", 1.0, .68, 9.0), "breastw": ("malignant", .95, .93, 4.2),
}
REFERENCE = {"heart": ("absent", .805, 9.4), "breastw": ("malignant", .920, 10.0)}


def load(data_dir, name, positive):
    """The dataset with ``positive`` as the positive class (the paper's, not always the manifest's)."""
    X, y, kinds, *_ = fold_bench.load(data_dir, name, positive)
    return X, y, kinds


GRID = {"n_estimators": [5, 20, 50], "heuristic": ["H1", "H2"], "alpha": [0.5, 0.7, 0.9],
        "discretization_threshold": [6.0, 4.6, 4.0]}     # the paper's tuning grid (§4)
FEATURES_GRID = {"max_features": [3, 5, 8]}             # --tuned-features: features per learner


def cv(X, y, kinds, tuned=None, seed=0, **params):
    """Outer 5-fold CV; with ``tuned`` (a grid) a stratified 3-fold grid search on each
    training fold (nested), scored by F1."""
    from sklearn.model_selection import GridSearchCV
    f1s, rules, atoms, secs = [], [], [], []
    for tr, te in StratifiedKFold(5, shuffle=True, random_state=0).split(X, y):
        t = time.perf_counter()
        base = aspml.Libre(kinds=kinds, positive=True, random_state=seed, **params)
        if tuned:
            grid = {k: v for k, v in tuned.items() if k not in params}
            inner = StratifiedKFold(3, shuffle=True, random_state=1)
            search = GridSearchCV(base, grid, scoring="f1", cv=inner).fit(X.iloc[tr], y[tr])
            clf = search.best_estimator_
        else:
            clf = base.fit(X.iloc[tr], y[tr])
        secs.append(time.perf_counter() - t)
        pred = clf.decision(X.iloc[te])
        tp = np.sum(pred & y[te])
        f1s.append(0.0 if tp == 0 else 2 * tp / (pred.sum() + y[te].sum()))
        d = clf.program_.default_rules
        rules.append(len(d))
        atoms.append(np.mean([len(r.body) for r in d]) if d else 0.0)
    return np.mean(f1s), np.mean(rules), np.mean(atoms), np.mean(secs)


def dataset(args, name, positive, params):
    """``X, y, kinds`` and the learner's parameters for one dataset (with
    --whole-data-bins, the cut points from all its rows)."""
    X, y, kinds = load(args.data_dir, name, positive)
    if args.whole_data_bins:
        threshold = params.get("discretization_threshold", 6.0)
        params = dict(params, cut_points=whole_data_cuts(X, y, kinds, threshold))
    return X, y, kinds, params


def whole_data_cuts(X, y, kinds, threshold):
    """ChiMerge cut points of every numeric column computed on *all* rows, test folds
    included: a diagnosis only (the labels of the test rows leak into the bins)."""
    from aspml.data.discretize import chimerge
    return {c: list(chimerge(pd.to_numeric(X[c], errors="coerce").to_numpy(float), y, threshold, 10))
            for c, kind in kinds.items() if kind == "numeric"}


def seeds(args, params) -> int:
    """F1 and rules over the learner's random_state 0..N-1 on the same folds (default and
    libre 3): the spread that the random feature subsets alone cause."""
    print(f"| data | paper | F1 mean (sd, min-max) over random_state 0-{args.seeds - 1} | "
          "rules | paper - mean | libre 3 F1 mean (sd) | paper |")
    print("|---|---|---|---|---|---|---|")
    for name in args.datasets:
        positive, paper_f1, paper_f1_3, _ = PAPER[name]
        X, y, kinds, p = dataset(args, name, positive, params)
        runs = [cv(X, y, kinds, args.tuned, seed=s, **p) for s in range(args.seeds)]
        runs3 = [cv(X, y, kinds, args.tuned, seed=s, max_rules=3, **p)
                 for s in range(args.seeds)]
        f1 = np.array([r[0] for r in runs])
        f3 = np.array([r[0] for r in runs3])
        print(f"| {name} | {paper_f1:.2f} | {f1.mean():.3f} ({f1.std():.3f}, {f1.min():.3f}-"
              f"{f1.max():.3f}) | {np.mean([r[1] for r in runs]):.1f} | "
              f"{paper_f1 - f1.mean():+.3f} | {f3.mean():.3f} ({f3.std():.3f}) | "
              f"{paper_f1_3:.2f} |", flush=True)
    print("\nReference implementation's setting (positive class from MANIFEST.tsv):")
    for name, (positive, ref_f1, ref_rules) in REFERENCE.items():
        X, y, kinds, p = dataset(args, name, positive, params)
        runs = [cv(X, y, kinds, args.tuned, seed=s, **p) for s in range(args.seeds)]
        f1 = np.array([r[0] for r in runs])
        print(f"| {name} | {positive} | F1 {f1.mean():.3f} ({f1.std():.3f}, {f1.min():.3f}-"
              f"{f1.max():.3f}; reference {ref_f1}) | rules "
              f"{np.mean([r[1] for r in runs]):.1f} (reference {ref_rules}) |", flush=True)
    return 0


def balance_boxes(args) -> int:
    """Balance's B rows (left weight x distance = right weight x distance, every one of the
    625 combinations of 1-5 once): does a box of value sets hold two of them and no L or
    R row?  Over the whole table (the smallest box around each pair suffices), and on
    the benchmark's folds: a training B row and a held-out one in a box free of the
    *training* L and R rows (such a box must then hold a held-out L or R row)."""
    import itertools
    X, y, _ = load(args.data_dir, "balance", "B")
    rows = [tuple(int(v) for v in r) for r in X.to_numpy()]
    label = dict(zip(rows, y))
    b = [p for p in rows if label[p]]

    def box(p, q):
        return list(itertools.product(*({p[i], q[i]} for i in range(4))))

    folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))

    def top_share(k, keep):
        """The largest share of B among the rows ``keep`` of a cell over ``k`` features."""
        best = 0.0
        for fs in itertools.combinations(range(4), k):
            for vals in itertools.product(range(1, 6), repeat=k):
                cell = [label[rows[i]] for i in keep if all(rows[i][f] == v for f, v in zip(fs, vals))]
                if cell:
                    best = max(best, float(np.mean(cell)))
        return best

    for k in (1, 2, 3):     # cells over k features: the smallest boxes a k-atom rule can be
        train = [top_share(k, tr) for tr, _ in folds]
        print(f"cells over {k} feature(s): at most {top_share(k, range(len(rows))):.0%} of the rows "
              f"are B; of a fold's training rows at most {max(train):.0%} "
              f"({', '.join(f'{t:.0%}' for t in train)})")
    free = [(p, q) for p, q in itertools.combinations(b, 2)
            if all(label[r] for r in box(p, q))]
    print(f"{len(b)} B rows, {len(b) * (len(b) - 1) // 2} pairs; boxes holding a pair and "
          f"no L or R row of the whole table: {len(free)}")
    for k, (tr, te) in enumerate(folds):
        train = {rows[i] for i in tr}
        pairs = [(p, q) for p in (rows[i] for i in tr if y[i]) for q in (rows[i] for i in te if y[i])
                 if all(label[r] or r not in train for r in box(p, q))]
        least = min((sum(not label[r] for r in box(p, q)) for p, q in pairs), default=0)
        print(f"fold {k}: (training B, held-out B) pairs in a box free of training L/R rows: "
              f"{len(pairs)}; held-out L/R rows in such a box: at least {least}")
    return 0


def rare_table(n, share, signal, seed=1, cardinalities=(3, 5, 10, 30, 4, 6, 8, 12),
               numbers=8, informative=3):
    """A rare class whose log-odds are a sum of small effects: one effect per value of
    each categorical column (normal, sd ``signal``) and ``signal * 0.8`` per unit of the
    first ``informative`` numbers (the other numbers are noise); the intercept gives
    the positives ``share`` of the rows."""
    rng = np.random.default_rng(seed)
    cols, logit = {}, np.zeros(n)
    for j, k in enumerate(cardinalities):
        c = rng.integers(0, k, n)
        logit += rng.normal(0, signal, k)[c]
        cols[f"c{j}"] = np.array([f"v{i}" for i in range(k)], dtype=object)[c]
    for j in range(numbers):
        x = rng.normal(size=n)
        logit += signal * 0.8 * x if j < informative else 0
        cols[f"x{j}"] = x.round(2)
    lo, hi = -10.0, 5.0
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if (1 / (1 + np.exp(-(logit + mid)))).mean() < share else (lo, mid)
    return pd.DataFrame(cols), rng.random(n) < 1 / (1 + np.exp(-(logit + mid)))


def rare() -> int:
    """``alpha=(0.7, 0.5)`` against ``"auto"`` on synthetic rare classes (docs, LIBRE
    benchmarks: "The base rate's alpha"): printed rules and held-out F1 on one 75/25
    split, and the F1 of calling every row positive."""
    import warnings
    from sklearn.metrics import f1_score
    from sklearn.model_selection import train_test_split
    print("| rows | positives | signal | (0.7, 0.5): rules / F1 | \"auto\": alpha / rules / F1 "
          "| every row positive |")
    print("|---|---|---|---|---|---|")
    for n, share, signal, name in [(30_000, 0.05, 0.3, "weak"), (30_000, 0.12, 0.3, "weak"),
                                   (30_000, 0.2, 0.3, "weak"), (30_000, 0.12, 0.6, "medium"),
                                   (45_000, 0.12, 1.0, "strong"), (5_000, 0.1, 0.5, "medium")]:
        X, y = rare_table(n, share, signal)
        Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.25, random_state=0, stratify=y)
        cells = []
        for alpha in [(0.7, 0.5), "auto"]:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                m = aspml.Libre(random_state=0, alpha=alpha).fit(Xtr, ytr)
            f1 = f1_score(yte, m.predict(Xte))
            cells.append(f"{m.program_.n_rules} / {f1:.3f}" if alpha != "auto" else
                         f"{m.alpha_:.2f} / {m.program_.n_rules} / {f1:.3f}")
        every = 2 * yte.mean() / (1 + yte.mean())
        print(f"| {n:,} | {y.mean():.1%} | {name} | {cells[0]} | {cells[1]} | {every:.3f} |",
              flush=True)
    return 0


def readmission_table(n=9000, seed=0):
    """A hospital-like rare class: readmission at 45% where one of three rules holds
    (age >= 75 and a stay of 8 days or more; one of 12 of 300 diagnosis codes with an
    emergency admission; creatinine above 1.8 in cardiology or the ICU), 1.5% elsewhere
    (about 6.5% in all), beside a patient id, labs missing at random (12% and 20%) and
    noise columns.  Returns ``X, y, truth`` (``truth``: the rows the rules hold on)."""
    rng = np.random.default_rng(seed)
    age = rng.integers(18, 96, n)
    stay = np.round(rng.gamma(2.0, 2.5, n)).astype(int) + 1
    creatinine = np.round(rng.lognormal(0.0, 0.35, n), 2)
    hemoglobin = np.round(rng.normal(12.5, 1.8, n), 1)
    ward = rng.choice(["cardiology", "oncology", "surgery", "medicine", "orthopedics", "icu"], n,
                      p=[.18, .12, .25, .25, .12, .08])
    admission = rng.choice(["emergency", "elective", "transfer"], n, p=[.55, .35, .10])
    codes = np.array([f"{c}{i:02d}.{j}" for c in "EIJKN" for i in range(10, 40) for j in range(2)])
    heart = codes[60:72]
    weight = np.where(np.isin(codes, heart), 0.007, 0.916 / 288)
    diagnosis = rng.choice(codes, n, p=weight / weight.sum())
    truth = (((age >= 75) & (stay >= 8)) | (np.isin(diagnosis, heart) & (admission == "emergency"))
             | ((creatinine > 1.8) & np.isin(ward, ["cardiology", "icu"])))
    y = rng.random(n) < np.where(truth, 0.45, 0.015)
    creatinine = np.where(rng.random(n) < 0.12, np.nan, creatinine)
    hemoglobin = np.where(rng.random(n) < 0.2, np.nan, hemoglobin)
    X = pd.DataFrame({"patient_id": [f"P{i:06d}" for i in rng.choice(999_999, n, replace=False)],
                      "age": age, "length_of_stay": stay, "creatinine": creatinine,
                      "hemoglobin": hemoglobin, "ward": ward, "admission_type": admission,
                      "diagnosis_code": diagnosis})
    return X, y, truth


def readmission(seeds=3) -> int:
    """LIBRE and FOLD-SE, with and without class_weight="balanced", on the readmission
    table (docs, LIBRE benchmarks): 6,000 training rows and 3,000 held out per seed (the
    table's and the learner's), F1 / printed rules, and the F1 of the three true rules."""
    import warnings

    from sklearn.metrics import f1_score
    cells = {}
    learners = [("libre", lambda s: aspml.Libre(random_state=s)),
                ("libre balanced", lambda s: aspml.Libre(random_state=s, class_weight="balanced")),
                ("fold-se", lambda s: aspml.FoldSE()),
                ("fold-se balanced", lambda s: aspml.FoldSE(class_weight="balanced"))]
    for seed in range(seeds):
        X, y, truth = readmission_table(seed=seed)
        X = X.drop(columns="patient_id")
        tr, te = np.arange(6000), np.arange(6000, len(y))
        cells.setdefault("the true rules", []).append((f1_score(y[te], truth[te]), 3))
        for name, make in learners:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                m = make(seed).set_params(positive=True).fit(X.iloc[tr], y[tr])
            cells.setdefault(name, []).append((f1_score(y[te], m.decision(X.iloc[te])),
                                               m.program_.n_rules))
    print("| learner | " + " | ".join(f"seed {s}" for s in range(seeds)) + " | mean |")
    print("|---|" + "---|" * (seeds + 1))
    for name, runs in cells.items():
        print(f"| {name} | " + " | ".join(f"{f:.3f} / {r}" for f, r in runs)
              + f" | {np.mean([f for f, _ in runs]):.3f} / {np.mean([r for _, r in runs]):.1f} |")
    return 0


def wide_table(n, n_categorical=3, seed=0):
    """``n`` rows: ``n_categorical`` categories of 700, 750 and 800 values, used with a long
    tail (Zipf), and three normal numbers; the label is drawn with log-odds
    ``2 * (cat0 is one of every seventh value) + 1.5 * (num0 > 0.5) - 2``."""
    rng = np.random.default_rng(seed)
    cols = {}
    for k, levels in enumerate((700, 750, 800)[:n_categorical]):
        draw = rng.zipf(1.3, size=4 * n)
        cols[f"cat{k}"] = np.array([f"v{k}_{i}" for i in range(levels)])[draw[draw <= levels][:n] - 1]
    for k in range(3):
        cols[f"num{k}"] = rng.normal(size=n).round(2)
    X = pd.DataFrame(cols)
    hot = X.cat0.isin([f"v0_{i}" for i in range(0, 700, 7)]).to_numpy()
    logit = 2.0 * hot + 1.5 * (X.num0 > 0.5).to_numpy() - 2.0
    return X, rng.random(n) < 1 / (1 + np.exp(-logit))


def wide_one(n, n_categorical, cap) -> int:
    """One fit in this process: seconds, peak RSS, held-out F1 (20,000 more rows)."""
    import warnings
    X, y = wide_table(n + 20_000, n_categorical)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        aspml.Libre(n_estimators=2).fit(X.head(300), y[:300])      # numba's cache, warm
        t = time.perf_counter()
        clf = aspml.Libre(random_state=0, max_categories=cap).fit(X.iloc[:n], y[:n])
    sec = time.perf_counter() - t
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    pred, truth = clf.decision(X.iloc[n:]), y[n:]
    f1 = 2 * np.sum(pred & truth) / (pred.sum() + truth.sum())
    print(f"| {n:,} | {n_categorical} | {cap} | {sec:.1f} s | {rss:.0f} MB | {f1:.3f} | "
          f"{len(clf.program_.default_rules)} |", flush=True)
    return 0


def wide(args) -> int:
    """The wide-category cases, each fit in a process of its own (its own peak RSS)."""
    import subprocess
    print("| rows | categories of 700-800 values | max_categories | fit | peak RSS (process) "
          "| held-out F1 | rules |")
    print("|---|---|---|---|---|---|---|")
    caps = [64, None] if args.wide_uncapped else [64]
    for k in (1, 3):
        for cap in caps:
            cmd = [sys.executable, __file__, "--wide-one", str(args.wide_rows), str(k), str(cap)]
            try:
                subprocess.run(cmd, check=True, timeout=args.wide_timeout)
            except subprocess.TimeoutExpired:
                print(f"| {args.wide_rows:,} | {k} | {cap} | did not finish in "
                      f"{args.wide_timeout:.0f} s | | | |", flush=True)
    return 0


CHECK = {"australian": "1", "heart": "present", "liver": "1", "sonar": "Rock",
         "tictactoe": "positive", "breastw": "malignant", "adult": ">50K", "credit_card": "1"}
BASELINE = "e1b7822"   # the commit before the one-SE stopping, hulls and inline value sets


def cv_all(X, y, kinds, seed=0, **params):
    """Outer 5-fold CV with the learner's defaults (plus ``params``): F1, every printed
    rule (exceptions included), atoms per default rule, seconds per fit."""
    import warnings
    f1s, rules, atoms, secs = [], [], [], []
    for tr, te in StratifiedKFold(5, shuffle=True, random_state=0).split(X, y):
        t = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            clf = aspml.Libre(kinds=kinds, positive=True, random_state=seed, **params).fit(
                X.iloc[tr], y[tr])
        secs.append(time.perf_counter() - t)
        pred = clf.decision(X.iloc[te])
        tp = np.sum(pred & y[te])
        f1s.append(0.0 if tp == 0 else 2 * tp / (pred.sum() + y[te].sum()))
        d = clf.program_.default_rules
        rules.append(clf.program_.n_rules)
        atoms.append(np.mean([len(r.body) for r in d]) if d else 0.0)
    return [float(np.mean(v)) for v in (f1s, rules, atoms, secs)]


def check_rows(data_dir, names, params, seeds=1) -> dict:
    """``{name: cv_all(...)}`` for ``names`` with ``params`` (a JSON-able dict), the
    mean over the learner's ``random_state`` 0 to ``seeds - 1``."""
    import warnings
    out = {}
    for name in names:
        X, y, kinds, *_ = fold_bench.load(data_dir, name, CHECK[name])
        with warnings.catch_warnings():                       # numba's kernels, warm
            warnings.simplefilter("ignore")
            few = np.r_[np.flatnonzero(y)[:150], np.flatnonzero(~y)[:150]]
            aspml.Libre(kinds=kinds, positive=True, n_estimators=2).fit(X.iloc[few], y[few])
        runs = [cv_all(X, y, kinds, seed=k, **params) for k in range(seeds)]
        out[name] = np.mean(runs, axis=0).tolist()
    return out


def baseline_rows(args) -> dict:
    """Today's defaults before this change: the package at ``--baseline`` (a git commit),
    unpacked to a temporary directory and run in a process of its own."""
    import json
    import subprocess
    import tempfile
    repo = Path(__file__).resolve().parents[1]
    # a directory of its own per commit, kept: numba caches its kernels next to them
    tmp = str(Path(tempfile.gettempdir()) / f"aspml-baseline-{args.baseline}")
    if not Path(tmp, "aspml").is_dir():
        archive = subprocess.run(["git", "-C", str(repo), "archive", args.baseline, "aspml"],
                                 check=True, capture_output=True).stdout
        Path(tmp).mkdir(parents=True, exist_ok=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
    code = (f"import sys, json; sys.path.insert(0, {tmp!r}); sys.path.insert(1, "
            f"{str(Path(__file__).resolve().parent)!r}); import libre as b; "
            f"print(json.dumps(b.check_rows(b.Path({str(args.data_dir)!r}), "
            f"{list(args.datasets)!r}, {{}}, {args.seeds or 1})))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"the baseline's run failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def many_feature_tables(data_dir) -> dict:
    """The tables of many features the draw by evidence is measured on: name ->
    (X, y, positive or None for multi-class).  Synthetic (scikit-learn's
    make_classification: a few informative features among many of noise, classes in
    clusters, so that a feature may matter only beside another), sonar (60 bands; from
    ``data_dir``, left out when absent) and scikit-learn's digits (64 pixels, 10 classes)."""
    from sklearn.datasets import load_digits, make_classification

    def made(n, d, informative, seed, clusters=2, sep=1.0, flip=0.02, weights=None):
        X, y = make_classification(n_samples=n, n_features=d, n_informative=informative,
                                   n_redundant=0, n_clusters_per_class=clusters,
                                   weights=weights, class_sep=sep, flip_y=flip,
                                   random_state=seed)
        return (pd.DataFrame(np.round(X, 3), columns=[f"x{i}" for i in range(d)]),
                pd.Series(y), 1)
    tables = {"w50": lambda: made(800, 50, 4, 15, sep=1.5),
              "wide": lambda: made(1500, 200, 4, 5, clusters=1, sep=1.2, flip=0.01),
              "w100a": lambda: made(1000, 100, 6, 11), "w100b": lambda: made(1500, 100, 8, 12),
              "w300": lambda: made(2000, 300, 5, 13),
              "w60rare": lambda: made(3000, 60, 6, 14, weights=[0.93])}
    if (Path(data_dir) / "sonar" / "sonar.csv").is_file():
        def sonar():
            f = pd.read_csv(Path(data_dir) / "sonar" / "sonar.csv")
            return f.drop(columns=["id", "label"]), f["label"], "Rock"
        tables["sonar"] = sonar
    def digits():
        d = load_digits(as_frame=True)
        return d.data, d.target, None
    tables["digits"] = digits
    return tables


def many_features(args) -> int:
    """``--many-features``: LIBRE's defaults on tables of 50 to 300 features (stratified
    5-fold, seed 0; ``random_state`` 0 to ``--seeds`` - 1), accuracy / F1 of the positive
    class (macro-F1 on digits) / printed rules, and a depth-5 tree's accuracy / F1 on the
    same folds.  Run it with ``PYTHONPATH`` at another commit's package for its figures."""
    import warnings

    from sklearn.metrics import f1_score
    from sklearn.tree import DecisionTreeClassifier
    names = [n for n in args.datasets if n != "all"] if args.datasets != list(PAPER) else None
    tables = many_feature_tables(args.data_dir)
    print(f"aspml at {Path(aspml.__file__).parent}")
    print("| table | " + " | ".join(f"seed {s}" for s in range(args.seeds or 2))
          + " | mean | tree depth 5 |")
    print("|---|" + "---|" * ((args.seeds or 2) + 2))
    for name, make in tables.items():
        if names and name not in names:
            continue
        X, y, pos = make()
        folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))

        def score(truth, pred, pos=pos):
            return (float(np.mean(truth == pred)),
                    f1_score(truth, pred, average="macro") if pos is None
                    else f1_score(truth == pos, pred == pos))
        cells, means = [], []
        for seed in range(args.seeds or 2):
            got = []
            for tr, te in folds:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    m = aspml.Libre(positive=pos, random_state=seed).fit(X.iloc[tr], y.iloc[tr])
                got.append((*score(y.iloc[te].to_numpy(), m.predict(X.iloc[te])),
                            m.program_.n_rules))
            a, f, r = np.mean(got, axis=0)
            cells.append(f"{a:.3f} / {f:.3f} / {r:.1f}")
            means.append((a, f, r))
        tree = np.mean([score(y.iloc[te].to_numpy(),
                              DecisionTreeClassifier(max_depth=5, random_state=0)
                              .fit(X.iloc[tr], y.iloc[tr]).predict(X.iloc[te]))
                        for tr, te in folds], axis=0)
        a, f, r = np.mean(means, axis=0)
        print(f"| {name} | " + " | ".join(cells) + f" | {a:.3f} / {f:.3f} / {r:.1f} | "
              f"{tree[0]:.3f} / {tree[1]:.3f} |", flush=True)
    return 0


def check(args) -> int:
    """Issue #20's check: F1, rules (every printed rule), atoms per rule and seconds per
    fit for the defaults, today's defaults (``--baseline``) and ``max_rules=3`` (with
    ``--seeds N``: means over the learner's random_state 0 to N-1)."""
    names = [n for n in args.datasets if n in CHECK]
    args.datasets = names
    old = baseline_rows(args)
    new = check_rows(args.data_dir, names, {}, args.seeds or 1)
    three = check_rows(args.data_dir, names, {"max_rules": 3}, args.seeds or 1)
    print("| data | paper F1 / rules | bound | F1 | rules | atoms/rule | s/fit | before: F1 | "
          "rules | atoms/rule | s/fit | max_rules=3: F1 | rules | atoms/rule |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name in names:
        paper = PAPER.get(name)
        mark = f"{paper[1]:.2f} / {paper[3]}" if paper else "–"
        bound = max(2 * paper[3], 10) if paper else 30
        (f, r, a, sec), (f0, r0, a0, s0), (f3, r3, a3, _) = new[name], old[name], three[name]
        print(f"| {name} ({CHECK[name]}) | {mark} | {bound:g} | {f:.3f} | {r:.1f} | {a:.1f} | "
              f"{sec:.2f} | {f0:.3f} | {r0:.1f} | {a0:.1f} | {s0:.2f} | {f3:.3f} | {r3:.1f} | "
              f"{a3:.1f} |", flush=True)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data-dir", type=Path, default=fold_bench.DEFAULT_DATA)
    ap.add_argument("--datasets", nargs="+", default=list(PAPER))
    ap.add_argument("--scale", action="store_true")
    ap.add_argument("--weak-learner", action="store_true",
                    help="one weak learner on 1M x 10 floats (two decimals, full precision): "
                         "ChiMerge (runs first, and the heap alone), FindBoundary, 1 and 2 threads")
    ap.add_argument("--bin-threads", action="store_true",
                    help="where binning columns on two threads pays: 1,000 to 1M rows")
    ap.add_argument("--parallel", action="store_true")
    ap.add_argument("--readmission", action="store_true",
                    help="a hospital-like rare class of three true rules (docs: the record's bar)")
    ap.add_argument("--rare", action="store_true",
                    help="alpha=(0.7, 0.5) against 'auto' on synthetic rare classes")
    ap.add_argument("--repeat", type=int, default=20, help="--parallel: fits per setting")
    ap.add_argument("--tuned", action="store_true",
                    help="tune E, H1/H2, alpha and the threshold by nested 3-fold CV (the paper's grid)")
    ap.add_argument("--seeds", type=int, default=0,
                    help="instead of the table: the mean and spread of F1 over the learner's "
                         "random_state 0..N-1 (the same CV folds): how much the random feature "
                         "subsets move it")
    ap.add_argument("--whole-data-bins", action="store_true",
                    help="diagnosis, not a protocol: ChiMerge on all rows before the CV split "
                         "(the test labels leak into the bins), to compare with the paper")
    ap.add_argument("--balance-boxes", action="store_true",
                    help="check that no conflict-free box of balance holds two B rows")
    ap.add_argument("--tuned-features", action="store_true",
                    help="choose max_features in {3, 5, 8} by nested 3-fold CV on each training fold")
    ap.add_argument("--wide", action="store_true")
    ap.add_argument("--wide-rows", type=int, default=100_000)
    ap.add_argument("--wide-uncapped", action="store_true",
                    help="--wide: also fit with max_categories=None (minutes)")
    ap.add_argument("--wide-timeout", type=float, default=600.0)
    ap.add_argument("--wide-one", nargs=3, metavar=("ROWS", "CATEGORICAL", "CAP"),
                    help=argparse.SUPPRESS)
    ap.add_argument("--many-features", action="store_true",
                    help="the defaults on tables of 50 to 300 features (synthetic, sonar, "
                         "digits), with a depth-5 tree; --seeds N (default 2), --datasets to "
                         "choose among w50 wide w100a w100b w300 w60rare sonar digits")
    ap.add_argument("--check", action="store_true",
                    help="issue #20's table: the defaults, the defaults of --baseline and "
                         "max_rules=3 on the paper's sets and credit_card, every printed rule "
                         "counted (with --datasets among: " + ", ".join(CHECK) + ")")
    ap.add_argument("--baseline", default=BASELINE,
                    help="--check: the git commit whose defaults are 'before' (default %(default)s)")
    args = ap.parse_args(argv)
    if args.many_features:
        return many_features(args)
    if args.check:
        if args.datasets == list(PAPER):
            args.datasets = list(CHECK)
        return check(args)
    if args.wide_one:
        n, k, cap = args.wide_one
        return wide_one(int(n), int(k), None if cap == "None" else int(cap))
    if args.wide:
        return wide(args)
    params = dict(n_estimators=20, max_features=5, heuristic="H1", alpha=0.7,
                  discretization_threshold=6.0)
    if args.tuned:
        args.tuned, params = GRID, dict(max_features=5)
    elif args.tuned_features:
        args.tuned, params = FEATURES_GRID, {k: v for k, v in params.items() if k != "max_features"}
    else:
        args.tuned = None
    if args.balance_boxes:
        return balance_boxes(args)
    if args.scale:
        return scale()
    if args.readmission:
        return readmission()
    if args.rare:
        return rare()
    if args.weak_learner:
        return weak_learner()
    if args.bin_threads:
        return bin_threads()
    if args.parallel:
        X, y, kinds = load(args.data_dir, "adult", ">50K")
        aspml.Libre(kinds=kinds, positive=True, n_estimators=2).fit(X.head(500), y[:500])
        for stopping in ("cv", False):
            times = {1: [], 2: []}
            for _ in range(args.repeat):        # alternate, so both see the same machine
                for n_jobs in (1, 2):
                    t = time.perf_counter()
                    aspml.Libre(kinds=kinds, positive=True, random_state=0, n_jobs=n_jobs,
                                early_stopping=stopping, **params).fit(X, y)
                    times[n_jobs].append(time.perf_counter() - t)
            one, two = min(times[1]), min(times[2])
            m1, m2 = np.median(times[1]), np.median(times[2])
            print(f"adult, 20 weak learners, early_stopping={stopping!r}: n_jobs=1 {one:.3f} s, "
                  f"n_jobs=2 {two:.3f} s, speed-up {one / two:.2f}x (best of {args.repeat}); "
                  f"medians {m1:.3f} s / {m2:.3f} s, {m1 / m2:.2f}x")
        return 0
    if args.seeds:
        return seeds(args, params)
    print("| data | positive | F1 | paper | rules | paper rules | atoms/rule | s/fold | "
          "libre 3 F1 | paper | libre 3 rules | libre 3 atoms/rule | no stopping F1 | "
          "no stopping rules |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name in args.datasets:
        positive, paper_f1, paper_f1_3, paper_rules = PAPER[name]
        X, y, kinds, p = dataset(args, name, positive, params)
        f1, rules, atoms, sec = cv(X, y, kinds, args.tuned, **p)
        f1_3, rules_3, atoms_3, _ = cv(X, y, kinds, args.tuned, max_rules=3, **p)
        f1_n, rules_n, _, _ = cv(X, y, kinds, args.tuned, early_stopping=False, **p)
        print(f"| {name} | {positive} | {f1:.3f} | {paper_f1:.2f} | {rules:.1f} | {paper_rules} | "
              f"{atoms:.1f} | {sec:.2f} | {f1_3:.3f} | {paper_f1_3:.2f} | {rules_3:.1f} | "
              f"{atoms_3:.1f} | {f1_n:.3f} | {rules_n:.1f} |", flush=True)
    print("\nReference implementation's setting (ANCHORS.md, positive class from MANIFEST.tsv):")
    for name, (positive, ref_f1, ref_rules) in REFERENCE.items():
        X, y, kinds, p = dataset(args, name, positive, params)
        f1, rules, atoms, sec = cv(X, y, kinds, args.tuned, **p)
        print(f"| {name} | {positive} | F1 {f1:.3f} (reference {ref_f1}) | rules {rules:.1f} "
              f"(reference {ref_rules}) | {sec:.2f} s/fold |", flush=True)
    return 0


def scale() -> int:
    """One weak learner (all 10 / 50 features) on 1M synthetic records, as in Appendix D:
    uniform features in [0, 100] with two decimals, the label a hidden rule
    (``f0 + f1 - f2`` above a quantile), ChiMerge threshold 6, H1, no stopping
    condition.  The paper's time is rule generation plus simplification "on the
    top 500 rules, if more are generated": ``top_k=500``; also the same fit with
    every candidate in the set cover (``top_k=None``).  "weak learner" is the
    rule generation alone: ChiMerge, distinct records and FindBoundary."""
    from aspml.learners import libre as impl
    rng = np.random.default_rng(0)
    print("| records x features | imbalance | top_k | weak learner | fit | peak RSS | candidates "
          "| rules | train F1 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n, d, imbalance in ((1_000_000, 10, 0.5), (1_000_000, 50, 0.01)):
        X = pd.DataFrame(rng.uniform(0, 100, (n, d)).round(2), columns=[f"f{i}" for i in range(d)])
        score = X.f0 + X.f1 - X.f2
        y = (score > np.quantile(score, 1 - imbalance)).to_numpy()
        aspml.Libre(n_estimators=1, max_features=d).fit(X.head(5000), y[:5000])   # warm up
        # the weak learner alone, through the same functions the fit calls
        probe = aspml.Libre(n_estimators=1, max_features=d)
        table, target, _ = probe._training_data(X, y)
        t = time.perf_counter()
        binned = [impl._feature_bins(table[c], target, 6.0, None, probe.max_bins)
                  for c in probe.schema_.names]
        codes = np.ascontiguousarray(np.stack([c for _, c in binned], axis=1), dtype=np.int64)
        widths = np.array([len(b) for b, _ in binned], dtype=np.int64)
        impl._weak_learner(codes, np.zeros(0, dtype=np.int64), np.arange(d), widths, target, 1)
        weak = time.perf_counter() - t
        for top_k in (500, None):
            clf = aspml.Libre(n_estimators=1, max_features=d, random_state=0,
                              early_stopping=False, top_k=top_k)
            t = time.perf_counter()
            clf.fit(X, y)
            sec = time.perf_counter() - t
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            pred = clf.decision(X)
            tp = np.sum(pred & y)
            print(f"| {n:,} x {d} | {imbalance} | {top_k} | {weak:.1f} s | {sec:.1f} s | "
                  f"{rss:.0f} MB (so far) | {clf.n_candidates_} | "
                  f"{len(clf.program_.default_rules)} | {2 * tp / (pred.sum() + y.sum()):.3f} |",
                  flush=True)
    return 0


def bin_threads(repeat=7) -> int:
    """Where binning the columns side by side pays (``BIN_ROWS`` in aspml.learners.libre):
    ChiMerge of 2 and 10 uniform columns (the label ``f0 + f1`` above its median) on one
    thread against two (a thread pool made for each call, as a fit makes one), best of
    ``repeat`` warm runs, alternating."""
    from concurrent.futures import ThreadPoolExecutor

    from aspml.learners import libre as impl
    rng = np.random.default_rng(0)
    print("| rows | columns | 1 thread | 2 threads | 2 threads faster by |")
    print("|---|---|---|---|---|")
    for n in (1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 200_000, 1_000_000):
        for d in (2, 10):
            X = pd.DataFrame(rng.uniform(0, 100, (n, d)), columns=[f"f{i}" for i in range(d)])
            score = X.f0 + X.f1
            y = (score > np.median(score)).to_numpy()
            probe = aspml.Libre(n_estimators=1, max_features=d)
            probe.fit(X.head(500), y[:500])
            table, target, _ = probe._training_data(X, y)
            names = list(probe.schema_.names)

            def one(c):
                return impl._feature_bins(table[c], target, 6.0, None, probe.max_bins)
            times = {1: [], 2: []}
            for _ in range(repeat if n < 1_000_000 else 3):
                for k in (1, 2):
                    t = time.perf_counter()
                    if k == 1:
                        [one(c) for c in names]
                    else:                   # a pool made for the call, as a fit makes it
                        with ThreadPoolExecutor(2) as pool:
                            list(pool.map(one, names))
                    times[k].append(time.perf_counter() - t)
            a, b = min(times[1]), min(times[2])
            print(f"| {n:,} | {d} | {a * 1000:.2f} ms | {b * 1000:.2f} ms | {a / b:.2f}x |",
                  flush=True)
    return 0


def weak_learner(n=1_000_000, d=10, repeat=3) -> int:
    """One weak learner over all ``d`` features of ``n`` uniform floats in [0, 100] (the
    label ``f0 + f1 - f2`` above its median), its parts timed through the functions the
    fit calls, best of ``repeat`` warm runs: ChiMerge of every column (the kernel, whose
    runs of one class merge first, and its heap alone on the same counts: the cost before
    that shortcut), the same binning on two threads (one column a task, as ``n_jobs=2``
    bins), and FindBoundary with the distinct records (``_weak_learner``)."""
    from concurrent.futures import ThreadPoolExecutor

    from aspml.kernels.chimerge import merge
    from aspml.learners import libre as impl
    rng = np.random.default_rng(0)
    raw = rng.uniform(0, 100, (n, d))
    print("| values | ChiMerge, 1 thread | its heap alone | ChiMerge, 2 threads | "
          "ChiMerge, n_jobs=1 fit | FindBoundary | weak learner (1 thread) | (2 threads) | "
          "(n_jobs=1 fit) | points |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for label, values in (("two decimals", raw.round(2)), ("full precision", raw)):
        X = pd.DataFrame(values, columns=[f"f{i}" for i in range(d)])
        score = X.f0 + X.f1 - X.f2
        y = (score > np.median(score)).to_numpy()
        probe = aspml.Libre(n_estimators=1, max_features=d)
        probe.fit(X.head(2000), y[:2000])                          # warm up the kernels
        table, target, _ = probe._training_data(X, y)
        names = list(probe.schema_.names)

        def bins_of(c):
            return impl._feature_bins(table[c], target, 6.0, None, probe.max_bins)

        def heap_alone(c):
            v = table[c].num
            order = np.argsort(v, kind="stable")
            u, first = np.unique(v[order], return_index=True)
            pos = np.add.reduceat(target[order].astype(float), first)
            neg = np.diff(np.append(first, n)) - pos
            return merge(neg, pos, 6.0, probe.max_bins)

        def best(fn):
            times = []
            for _ in range(repeat):
                t = time.perf_counter()
                out = fn()
                times.append(time.perf_counter() - t)
            return min(times), out

        one, binned = best(lambda: [bins_of(c) for c in names])
        heap, _ = best(lambda: [heap_alone(c) for c in names])
        with ThreadPoolExecutor(2) as pool:
            two, _ = best(lambda: list(pool.map(bins_of, names)))
        tasks = [(table[c], target, 6.0, None, probe.max_bins) for c in names]
        with impl._Pool(1) as pool:              # what a fit of n_jobs=1 does: free cores
            default, _ = best(lambda: pool.map_columns(impl._feature_bins, tasks, len(target)))
        codes = np.ascontiguousarray(np.stack([c for _, c in binned], axis=1), dtype=np.int64)
        widths = np.array([len(b) for b, _ in binned], dtype=np.int64)
        fb, points = best(lambda: impl._weak_learner(codes, np.zeros(0, dtype=np.int64),
                                                     np.arange(d), widths, target, 1))
        print(f"| {label} | {one:.2f} s | {heap:.2f} s | {two:.2f} s | {default:.2f} s | "
              f"{fb:.2f} s | {one + fb:.2f} s | {two + fb:.2f} s | {default + fb:.2f} s | "
              f"{len(points):,} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
