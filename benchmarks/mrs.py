"""Benchmark Multi-value Rule Sets: the paper's tables, the reference settings, the synthetic study.

    python benchmarks/mrs.py                       # CV table: MRS against FOLD-SE and LIBRE
    python benchmarks/mrs.py --reference-settings  # heart / breastw as the reference was measured
    python benchmarks/mrs.py --synthetic           # §5.1: beta_M, beta_L against error and size
    python benchmarks/mrs.py --scale               # 1M rows x 50 features, two planted rules
    python benchmarks/mrs.py --wide                # 200 rows x 1,000 and x 5,000 features
    python benchmarks/mrs.py --chains              # n_chains=4 on one process, two, a cluster
    python benchmarks/mrs.py --wide --wide-uncapped  # also max_features_mined=None (slow)

Stratified 5-fold CV (``StratifiedKFold(5, shuffle=True, random_state=0)``),
the same folds for every learner.  Positive classes: heart ``absent`` and
breastw ``malignant`` (ANCHORS.md, the reference implementation's runs);
credit_card ``1`` (default) and adult ``>50K`` as in the paper's Table 2.

MRS rows: "default" is ``MultiValueRuleSet(random_state=0)``; "tuned" follows
the paper's protocol (§5.2): on each training fold 20% is set aside, a grid
over ``beta_M = beta_L`` in {1, 10, 100, 1000} and ``rho_min`` in {0.5, 0.7}
is scored by accuracy there, the setting with the fewest conditions among
those within 0.01 of the best accuracy wins (interpretability first, as the
paper's aim), and it is refit on the whole training fold.  MRS sizes count the rule set itself:
rules, conditions (a value set is one condition), values (items), features.
FOLD-SE and LIBRE sizes count their programs: rules (with exception rules),
literals (with ``not abN``), features.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold, train_test_split

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))            # this checkout's aspml, not an installed one
sys.path.insert(0, str(Path(__file__).resolve().parent))
import aspml  # noqa: E402
import fold as fold_bench  # noqa: E402  (the manifest loader)

DATASETS = {"heart": "absent", "breastw": "malignant", "credit_card": "1", "adult": ">50K"}
REFERENCE = {  # ANCHORS.md: reference implementation, 2,000 iterations, 5 quantile bins
    "heart": dict(acc=0.789, rules=2.2, conds=4.2, values=6.2, sec=44.0),
    "breastw": dict(acc=0.930, rules=2.8, conds=None, values=None, sec=56.0)}
PAPER = {"credit_card": "0.82 / 10 conditions / 5 features",
         "adult": "0.80 / 14 conditions / 5 features"}
GRID = [dict(beta_M=b, beta_L=b, rho_min=r) for b in (1.0, 10.0, 100.0, 1000.0)
        for r in (0.5, 0.7)]


def load(data_dir: Path, name: str, positive: str):
    """The dataset with ``positive`` as the positive class (the paper's, not always the manifest's)."""
    X, y, kinds, *_ = fold_bench.load(data_dir, name, positive)
    return X, y, kinds


def sizes(clf):
    """(rules, conditions, values, features) of a fitted learner."""
    if isinstance(clf, aspml.MultiValueRuleSet):
        rules = clf.rules_
        return (len(rules), sum(len(r) for r in rules),
                sum(len(v) for r in rules for _, v in r), len({f for r in rules for f, _ in r}))
    p = clf.program_
    return p.n_rules, p.n_literals, float("nan"), len(p.features_used)


def tuned_mrs(X, y, kinds, **fixed):
    """The paper's protocol: 20% of the training fold picks the parameters, then refit."""
    X_fit, X_val, y_fit, y_val = train_test_split(X, y, test_size=0.2, stratify=y, random_state=0)
    scored = []
    for params in GRID:
        clf = aspml.MultiValueRuleSet(kinds=kinds, positive=True, random_state=0,
                                      **{**fixed, **params}).fit(X_fit, y_fit)
        scored.append((np.mean(clf.decision(X_val) == y_val), sizes(clf)[1], params))
    top = max(a for a, _, _ in scored)
    best = min((c, -a, i) for i, (a, c, _) in enumerate(scored) if a >= top - 0.01)
    params = scored[best[2]][2]
    return aspml.MultiValueRuleSet(kinds=kinds, positive=True, random_state=0,
                                   **{**fixed, **params}).fit(X, y), params


def cv(X, y, kinds, make, check_engines=False):
    """Mean accuracy, F1, sizes and train seconds over the 5 folds; ``make(X, y)`` fits."""
    rows, chosen = [], []
    for tr, te in StratifiedKFold(5, shuffle=True, random_state=0).split(X, y):
        t = time.perf_counter()
        out = make(X.iloc[tr], y[tr])
        sec = time.perf_counter() - t
        clf, params = out if isinstance(out, tuple) else (out, None)
        chosen.append(params)
        pred = clf.decision(X.iloc[te])
        if check_engines and not np.array_equal(aspml.asp.predict(clf.program_, X.iloc[te]), pred):
            raise SystemExit("clingo disagrees with the fast path")
        tp = np.sum(pred & y[te])
        f1 = 0.0 if tp == 0 else 2 * tp / (pred.sum() + y[te].sum())
        rows.append((np.mean(pred == y[te]), f1, *sizes(clf), sec))
    return np.mean(np.array(rows, dtype=float), axis=0), chosen


def fmt(v, d=1):
    return "–" if v is None or (isinstance(v, float) and np.isnan(v)) else f"{v:.{d}f}"


def table(args) -> int:
    print("| data | positive | learner | accuracy | F1 | rules | conditions | values | features "
          "| train s/fold |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in args.datasets:
        positive = DATASETS[name]
        X, y, kinds = load(args.data_dir, name, positive)
        learners = {
            "MRS default": lambda A, b: aspml.MultiValueRuleSet(kinds=kinds, positive=True,
                                                                random_state=0).fit(A, b),
            "MRS tuned": lambda A, b: tuned_mrs(A, b, kinds),
            "FOLD-SE": lambda A, b: aspml.FoldSE(kinds=kinds, positive=True).fit(A, b),
            "LIBRE": lambda A, b: aspml.Libre(kinds=kinds, positive=True,
                                              random_state=0).fit(A, b)}
        for label, make in learners.items():
            if args.learners and label not in args.learners:
                continue
            (acc, f1, r, c, v, f, sec), chosen = cv(X, y, kinds, make, args.check_engines)
            print(f"| {name} | {positive} | {label} | {acc:.3f} | {f1:.3f} | {fmt(r)} | {fmt(c)} | "
                  f"{fmt(v)} | {fmt(f)} | {sec:.2f} |", flush=True)
            if label == "MRS tuned":
                print(f"<!-- {name} tuned choices per fold: {chosen} -->", flush=True)
        if name in PAPER:
            print(f"| {name} | | paper MRS (Table 2) | {PAPER[name]} | | | | | | |", flush=True)
    return 0


def reference_settings(args) -> int:
    print("| data | positive | accuracy (reference) | F1 | rules (ref.) | conditions (ref.) | "
          "values (ref.) | features | s/fold (ref.) | speed-up |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, ref in REFERENCE.items():
        X, y, kinds = load(args.data_dir, name, DATASETS[name])
        (acc, f1, r, c, v, f, sec), _ = cv(
            X, y, kinds, lambda A, b: aspml.MultiValueRuleSet(
                kinds=kinds, positive=True, random_state=0, n_iter=2000, n_bins=5,
                binning="quantile").fit(A, b), args.check_engines)
        print(f"| {name} | {DATASETS[name]} | {acc:.3f} ({ref['acc']}) | {f1:.3f} | {r:.1f} "
              f"({ref['rules']}) | {c:.1f} ({fmt(ref['conds'])}) | {v:.1f} ({fmt(ref['values'])}) "
              f"| {f:.1f} | {sec:.2f} ({ref['sec']:.0f}) | {ref['sec'] / sec:.0f}x |", flush=True)
    return 0


def hidden_rules(rng, n_features=50, n_rules=10):
    """§5.1: each rule has 1-10 conditions on random features, each a random range in [0, 1]."""
    rules = []
    for _ in range(n_rules):
        k = int(rng.integers(1, 11))
        feats = rng.choice(n_features, size=k, replace=False)
        rules.append([(int(j), *sorted(rng.uniform(0, 1, 2))) for j in feats])
    return rules


def synthetic(args) -> int:
    betas = tuple(args.betas)
    results = {}
    for seed in range(args.synthetic_sets):
        rng = np.random.default_rng(seed)
        n, d = args.synthetic_rows, 50
        X = pd.DataFrame(rng.uniform(0, 1, (n, d)).round(4), columns=[f"x{j}" for j in range(d)])
        truth = np.zeros(n, dtype=bool)
        for rule in hidden_rules(rng, d):
            m = np.ones(n, dtype=bool)
            for j, lo, hi in rule:
                m &= (X.iloc[:, j].to_numpy() >= lo) & (X.iloc[:, j].to_numpy() <= hi)
            truth |= m
        split = int(0.75 * n)
        print(f"<!-- data set {seed}: {n} rows, positive rate {truth.mean():.3f} -->", flush=True)
        for bm in betas:
            for bl in betas:
                t = time.perf_counter()
                clf = aspml.MultiValueRuleSet(n_bins=10, beta_M=bm, beta_L=bl, random_state=0,
                                              n_iter=args.synthetic_iter,
                                              min_support=args.synthetic_min_support)
                clf.fit(X.iloc[:split], truth[:split])
                sec = time.perf_counter() - t
                err = np.mean(clf.decision(X.iloc[split:]) != truth[split:])
                _, c, _, f = sizes(clf)
                results.setdefault((bm, bl), []).append((err, c, f, sec))
                print(f"<!-- beta_M={bm:g} beta_L={bl:g}: error {err:.3f}, {c} conditions, "
                      f"{f} features, {sec:.1f} s -->", flush=True)
    for k, title in ((0, "test error"), (1, "conditions"), (2, "features"), (3, "train s")):
        print(f"\n{title} (rows beta_M, columns beta_L; mean of {args.synthetic_sets} data set(s))\n")
        print("| beta_M \\ beta_L | " + " | ".join(f"{b:g}" for b in betas) + " |")
        print("|---|" + "---|" * len(betas))
        for bm in betas:
            cells = [np.mean([r[k] for r in results[(bm, bl)]]) for bl in betas]
            print(f"| {bm:g} | " + " | ".join(f"{c:.3f}" if k == 0 else f"{c:.1f}"
                                             for c in cells) + " |")
    return 0


def scale(args) -> int:
    """1M rows x 50 uniform features, label from two planted 2-condition rules; one fit."""
    import resource
    n, d = args.scale_rows, 50
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.uniform(0, 100, (n, d)).round(2), columns=[f"x{j}" for j in range(d)])
    y = (((X.x0 > 60) & (X.x1 < 30)) | ((X.x2 > 80) & X.x3.between(20, 60))).to_numpy()
    t = time.perf_counter()
    clf = aspml.MultiValueRuleSet(n_bins=10, random_state=0, n_iter=300).fit(X, y)
    sec = time.perf_counter() - t
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{n:,} rows x {d}: fit {sec:.1f} s, peak RSS {rss:.0f} MB (data included), "
          f"training accuracy {np.mean(clf.decision(X) == y):.4f}")
    print(clf.program_.to_text())
    return 0


def wide_table(n, d, seed=0):
    """``n`` rows x ``d`` features, every fourth a category of six values, the rest standard
    normal numbers; the label ``(x0 > 0.3 and c3 in {a, b, c}) or x1 < -1`` (32% positive)."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({(f"c{j}" if j % 4 == 3 else f"x{j}"):
                      (rng.choice(list("abcdef"), n) if j % 4 == 3 else rng.normal(size=n).round(3))
                      for j in range(d)})
    y = ((X.x0 > 0.3) & X.c3.isin(list("abc"))) | (X.x1 < -1)
    return X, y.to_numpy()


def wide_one(n, d, cap) -> int:
    """One fit of the wide case in this process: seconds, peak RSS, rules (one line)."""
    import resource
    import warnings
    X, y = wide_table(n, d)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        aspml.MultiValueRuleSet(n_iter=10).fit(X.iloc[:50, :20], y[:50])   # numba's cache, warm
        t = time.perf_counter()
        clf = aspml.MultiValueRuleSet(random_state=0, max_features_mined=cap).fit(X, y)
    sec = time.perf_counter() - t
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rules = " OR ".join(" AND ".join(f"{f} in {v}" for f, v in r) for r in clf.rules_)
    print(f"| {n} x {d:,} | {cap} | {sec:.1f} s | {rss:.0f} MB | "
          f"{np.mean(clf.decision(X) == y):.3f} | {rules} |", flush=True)
    return 0


def wide(args) -> int:
    """Wide tables, each fit in a process of its own (its own peak RSS), at most
    ``--wide-timeout`` seconds each."""
    import subprocess
    print("| rows x features | max_features_mined | fit | peak RSS (process) | training accuracy "
          "| rules |")
    print("|---|---|---|---|---|---|")
    caps = [100, None] if args.wide_uncapped else [100]
    for d in (1000, 5000):
        for cap in caps:
            cmd = [sys.executable, __file__, "--wide-one", "200", str(d), str(cap)]
            try:
                subprocess.run(cmd, check=True, timeout=args.wide_timeout)
            except subprocess.TimeoutExpired:
                print(f"| 200 x {d:,} | {cap} | did not finish in {args.wide_timeout} s | | | |",
                      flush=True)
    return 0


def chains(args, repeat=3) -> int:
    """``n_chains=4`` on adult (``>50K``, all rows): one process against joblib's worker
    processes (``n_jobs=2``) and a Dask ``LocalCluster`` of two single-threaded worker
    processes (``joblib.parallel_backend("dask")``); best of ``repeat`` fits after one
    that starts the workers; every fit must give the program of ``n_jobs=1``."""
    import joblib
    X, y, kinds = load(args.data_dir, "adult", ">50K")
    make = lambda n_jobs: aspml.MultiValueRuleSet(kinds=kinds, random_state=0, n_chains=4,
                                                  n_jobs=n_jobs)

    def best(n_jobs):
        make(n_jobs).fit(X, y)                              # start the workers
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            clf = make(n_jobs).fit(X, y)
            times.append(time.perf_counter() - t)
        return min(times), clf.program_

    one, program = best(1)
    two, p2 = best(2)
    from dask.distributed import Client, LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \
            Client(cluster), joblib.parallel_backend("dask"):
        dask, p3 = best(2)
    if not (p2 == program and p3 == program):
        raise SystemExit("the programs differ")
    print("| adult, n_chains=4 | n_jobs=1 | n_jobs=2 (processes) | Dask LocalCluster, 2 workers |")
    print("|---|---|---|---|")
    print(f"| seconds a fit (best of {repeat}) | {one:.2f} | {two:.2f} ({one / two:.2f}x) | "
          f"{dask:.2f} ({one / dask:.2f}x) |")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data-dir", type=Path, default=fold_bench.DEFAULT_DATA)
    ap.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=list(DATASETS))
    ap.add_argument("--learners", nargs="+", default=None,
                    help='rows to run, e.g. "MRS default" "MRS tuned" (default: all)')
    ap.add_argument("--reference-settings", action="store_true")
    ap.add_argument("--synthetic", action="store_true")
    ap.add_argument("--scale", action="store_true")
    ap.add_argument("--scale-rows", type=int, default=1_000_000)
    ap.add_argument("--wide", action="store_true")
    ap.add_argument("--wide-uncapped", action="store_true",
                    help="--wide: also fit with max_features_mined=None (minutes, gigabytes)")
    ap.add_argument("--wide-timeout", type=float, default=600.0)
    ap.add_argument("--wide-one", nargs=3, metavar=("ROWS", "FEATURES", "CAP"),
                    help=argparse.SUPPRESS)
    ap.add_argument("--synthetic-rows", type=int, default=100_000)
    ap.add_argument("--betas", type=float, nargs="+", default=[1.0, 100.0, 10000.0])
    ap.add_argument("--synthetic-sets", type=int, default=1)
    ap.add_argument("--synthetic-iter", type=int, default=1000)
    ap.add_argument("--synthetic-min-support", type=float, default=0.05)
    ap.add_argument("--chains", action="store_true",
                    help="four chains on adult >50K: n_jobs=1, n_jobs=2 (worker processes) "
                         "and a Dask LocalCluster of two worker processes")
    ap.add_argument("--check-engines", action="store_true",
                    help="also check that clingo agrees with the fast path on every test fold")
    args = ap.parse_args(argv)
    if args.wide_one:
        n, d, cap = args.wide_one
        return wide_one(int(n), int(d), None if cap == "None" else int(cap))
    if args.wide:
        return wide(args)
    if not args.data_dir.is_dir() and not (args.synthetic or args.scale):
        print(f"no data at {args.data_dir}; nothing to do")
        return 0
    if args.chains:
        return chains(args)
    if args.reference_settings:
        return reference_settings(args)
    if args.synthetic:
        return synthetic(args)
    if args.scale:
        return scale(args)
    return table(args)


if __name__ == "__main__":
    sys.exit(main())
