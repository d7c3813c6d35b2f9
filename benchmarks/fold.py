"""Benchmark FOLD-SE and FOLD-R++ against the reference FOLD-R++, side by side.

    python benchmarks/fold.py                         # the issue's datasets, 5-fold CV
    python benchmarks/fold.py --datasets heart adult  # some of them
    python benchmarks/fold.py --synthetic 1000000     # scaling: one training run
    python benchmarks/fold.py --memory credit_card    # peak memory of training
    python benchmarks/fold.py --speed adult           # first fit and best of five, one fold
    python benchmarks/fold.py --speed synthetic --synthetic 1000000   # the same on 1M rows

Stratified 5-fold CV (scikit-learn ``StratifiedKFold(5, shuffle=True,
random_state=0)``), positive class and column kinds from ``MANIFEST.tsv`` (heloc
with positive ``Good``, as in ANCHORS.md).  Learners: ``aspml FoldRpp``,
``aspml FoldSE`` and, when the PyPI package ``foldrpp`` is installed, the
reference FOLD-R++ on the very same folds.  Reported per learner: accuracy, F1
of the positive class, rules (default + exception rules), literals (``not ab``
included), training seconds per fold, and the speed ratio to the reference.
Every learned program is also run by clingo on its test fold and must give
the fast path's predictions (``--no-clingo`` skips that).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

import aspml

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
DATASETS = ["acute", "autism", "breastw", "cars", "credit", "heart", "kidney", "krkp", "mushroom",
            "sonar", "voting", "ecoli", "ionosphere", "heloc", "adult", "credit_card", "rain"]
POSITIVE = {"heloc": "Good"}


def load(data_dir: Path, name: str, positive: str | None = None):
    """(X, y, kinds, path, categorical, numeric, label, positive) for a manifest dataset
    (the table as ``aspml bench`` reads it, plus what the reference FOLD-R++ needs);
    ``positive``: another positive class than this table's (POSITIVE) or the manifest's."""
    from aspml.bench import load_dataset, read_manifest
    m = read_manifest(data_dir)[name]
    d = load_dataset(data_dir, m, positive if positive is not None else POSITIVE.get(name))
    return (d.X, d.y, d.kinds, data_dir / m["files"].split()[0], m["categorical_columns"].split(),
            m["numeric_columns"].split(), d.label, d.positive)


def f1(pred, y):
    tp = np.sum(pred & y)
    return 0.0 if tp == 0 else 2 * tp / (np.sum(pred) + np.sum(y))


def run_aspml(cls, X, y, kinds, folds, check_clingo):
    rows = []
    for tr, te in folds:
        clf = cls(kinds=kinds, positive=True)
        t = time.perf_counter()
        clf.fit(X.iloc[tr], y[tr])
        seconds = time.perf_counter() - t
        pred = clf.decision(X.iloc[te])
        if check_clingo:
            same = np.array_equal(aspml.asp.predict(clf.program_, X.iloc[te]), pred)
            if not same:
                raise SystemExit(f"clingo disagrees with the fast path on {cls.__name__}")
        p = clf.program_
        rows.append((np.mean(pred == y[te]), f1(pred, y[te]), p.n_rules, p.n_literals, seconds))
    return rows


def run_reference(path, cats, nums, label, positive, keep, y, folds):
    import foldrpp
    model = foldrpp.Foldrpp(cats, nums, label, positive)
    data = model.load_data(str(path))
    full = pd.read_csv(path, dtype=str, keep_default_na=False)[label]
    kept = [data[i] for i in np.flatnonzero(~full.isin(["?", ""]).to_numpy())]
    rows = []
    for tr, te in folds:
        model.reset()
        t = time.perf_counter()
        model.fit([kept[i] for i in tr], ratio=0.5)
        seconds = time.perf_counter() - t
        pred = np.array(model.predict([kept[i] for i in te]), dtype=bool)
        program = aspml.parse("\n".join(model.asp()), "scasp")
        rows.append((np.mean(pred == y[te]), f1(pred, y[te]), program.n_rules, program.n_literals,
                     seconds))
    return rows


def have_reference() -> bool:
    try:
        import foldrpp  # noqa: F401
        return True
    except ImportError:
        return False


def cross_validate(args) -> list[dict]:
    results = []
    for name in args.datasets:
        X, y, kinds, path, cats, nums, label, positive = load(args.data_dir, name)
        folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
        learners = {"aspml FoldRpp": lambda: run_aspml(aspml.FoldRpp, X, y, kinds, folds, args.clingo),
                    "aspml FoldSE": lambda: run_aspml(aspml.FoldSE, X, y, kinds, folds, args.clingo)}
        if args.reference and have_reference():
            learners["ref FOLD-R++"] = lambda: run_reference(path, cats, nums, label, positive,
                                                             None, y, folds)
        ref_time = None
        for learner, run in learners.items():
            if learner.startswith("ref") and len(X) > args.reference_max_rows:
                continue
            rows = np.array(run())
            acc, f, rules, lits, sec = rows.mean(axis=0)
            results.append({"data": name, "learner": learner, "acc": acc, "f1": f,
                            "rules": rules, "literals": lits, "train_s": sec})
            if learner.startswith("ref"):
                ref_time = sec
        if ref_time:
            for r in results:
                if r["data"] == name and not r["learner"].startswith("ref"):
                    r["speedup"] = ref_time / r["train_s"]
        for r in results:
            if r["data"] == name:
                print(_row(r), flush=True)
    return results


def _row(r) -> str:
    speed = f"{r['speedup']:.0f}x" if r.get("speedup") else ""
    return (f"| {r['data']} | {r['learner']} | {r['acc']:.3f} | {r['f1']:.3f} | {r['rules']:.1f} | "
            f"{r['literals']:.1f} | {r['train_s']:.4f} | {speed} |")


def synthetic(n: int, seed: int = 0):
    """10 features uniform in [0, 100]; the label is a hidden 3-rule set (balanced)."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.uniform(0, 100, (n, 10)).round(2), columns=[f"f{i}" for i in range(10)])
    y = (((X.f0 > 60) & (X.f1 <= 40)) | ((X.f2 > 70) & (X.f3 > 50)) | ((X.f4 <= 30) & (X.f5 > 55)))
    return X, y.to_numpy()


def scaling(args) -> None:
    X, y = synthetic(args.synthetic)
    for cls in (aspml.FoldRpp, aspml.FoldSE):
        t = time.perf_counter()
        clf = cls(positive=True).fit(X, y)
        sec = time.perf_counter() - t
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        acc = np.mean(clf.decision(X) == y)
        print(f"| {args.synthetic:,} | aspml {cls.__name__} | {sec:.2f} s | peak RSS so far "
              f"{rss:.0f} MB | train acc {acc:.3f} | {clf.program_.n_rules} rules |", flush=True)
    if args.reference and have_reference() and args.synthetic <= args.reference_max_rows:
        import foldrpp
        data = [dict(zip(X.columns, map(float, row)), label=int(t)) for row, t in zip(X.to_numpy(), y)]
        model = foldrpp.Foldrpp([], list(X.columns), "label", "1")
        t = time.perf_counter()
        model.fit(data, ratio=0.5)
        sec = time.perf_counter() - t
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"| {args.synthetic:,} | ref FOLD-R++ | {sec:.2f} s | peak RSS so far {rss:.0f} MB | | "
              f"{len(model.asp())} rules |", flush=True)


SPEED_CHILD = """
import sys, time, json
sys.path.insert(0, {here!r})
import numpy as np
import aspml
from fold import speed_data
from pathlib import Path
X, y, kinds, *_ = speed_data(Path({data!r}), {name!r}, {rows!r})
t = time.perf_counter()
aspml.{learner}(kinds=kinds, positive=True).fit(X, y)
print(json.dumps(dict(first=time.perf_counter() - t)))
"""


def speed_data(data_dir: Path, name: str, rows: int | None):
    """What ``--speed`` trains and tests on: ``(X, y, kinds, X_test, y_test, reference)``,
    ``reference`` giving the reference's training and test records.  A dataset: the
    first fold of the CV; ``synthetic`` (with ``rows``): :func:`synthetic` of that many
    rows, tested on a fresh draw of at most 100,000."""
    if name == "synthetic":
        X, y = synthetic(rows)
        Xt, yt = synthetic(min(rows, 100_000), seed=1)

        def reference():
            def records(X, y):
                return [dict(zip(X.columns, map(float, row)), label=int(t))
                        for row, t in zip(X.to_numpy(), y)]
            return [], list(X.columns), "label", "1", records(X, y), records(Xt, yt)
        return X, y, None, Xt, yt, reference
    X, y, kinds, path, cats, nums, label, positive = load(data_dir, name)
    tr, te = next(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))

    def reference():
        import foldrpp
        data = foldrpp.Foldrpp(cats, nums, label, positive).load_data(str(path))
        full = pd.read_csv(path, dtype=str, keep_default_na=False)[label]
        kept = [data[i] for i in np.flatnonzero(~full.isin(["?", ""]).to_numpy())]
        return cats, nums, label, positive, [kept[i] for i in tr], [kept[i] for i in te]
    return X.iloc[tr], y[tr], kinds, X.iloc[te], y[te], reference


def speed(args) -> None:
    """Each aspml learner's first fit in a fresh process (numba loading the cached
    kernels, the thread pool starting), then five rounds in this process, each fitting
    the reference FOLD-R++ and both aspml learners in turn (interleaved, so a slow
    moment of the machine falls on all of them; each round starts one learner later,
    so that none always runs right after another); the best of the five rounds per
    learner, and the ratios reference / best.  On one fold of a dataset, or on
    ``--synthetic N`` rows (``--speed synthetic``)."""
    import subprocess
    here = str(Path(__file__).resolve().parent)
    name = args.speed
    X, y, kinds, Xt, yt, reference_data = speed_data(args.data_dir, name, args.synthetic)
    first = {}
    for learner in ("FoldRpp", "FoldSE"):
        code = SPEED_CHILD.format(here=here, data=str(args.data_dir), name=name, learner=learner,
                                  rows=args.synthetic)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        if out.returncode:
            raise SystemExit(out.stderr)
        first["aspml " + learner] = json.loads(out.stdout.strip().splitlines()[-1])["first"]
    fits = {"aspml FoldRpp": lambda: aspml.FoldRpp(kinds=kinds, positive=True).fit(X, y),
            "aspml FoldSE": lambda: aspml.FoldSE(kinds=kinds, positive=True).fit(X, y)}
    if args.reference and have_reference():
        import foldrpp
        cats, nums, label, positive, train, test = reference_data()
        model = foldrpp.Foldrpp(cats, nums, label, positive)

        def reference():
            model.reset()
            model.fit(train, ratio=0.5)
            return model
        fits["ref FOLD-R++"] = reference
    times = {k: [] for k in fits}
    fitted = {}
    names = list(fits)
    for r in range(args.rounds):
        # each round starts one learner later: every learner runs as often right after the
        # reference (whose fit allocates and frees gigabytes of records on large tables)
        for learner in names[r % len(names):] + names[:r % len(names)]:
            t = time.perf_counter()
            fitted[learner] = fits[learner]()
            times[learner].append(time.perf_counter() - t)
            print(f"  round {r}: {learner} {times[learner][-1]:.3f} s", file=sys.stderr, flush=True)
    ref = min(times["ref FOLD-R++"]) if "ref FOLD-R++" in times else None
    print(f"{name}: {len(X):,} training rows, {len(Xt):,} test rows")
    print(f"| learner | first fit s | best of {args.rounds} s | ratio ref / best | accuracy | rules |")
    print("|---|---|---|---|---|---|")
    for learner, fitted_model in fitted.items():
        best = min(times[learner])
        if learner.startswith("ref"):
            pred = np.array(fitted_model.predict(test), dtype=bool)
            rules = aspml.parse("\n".join(fitted_model.asp()), "scasp").n_rules
        else:
            pred, rules = fitted_model.decision(Xt), fitted_model.program_.n_rules
        ratio = f"{ref / best:.1f}x" if ref and not learner.startswith("ref") else ""
        print(f"| {learner} | {first.get(learner, times[learner][0]):.3f} | {best:.3f} | {ratio} "
              f"| {np.mean(pred == yt):.3f} | {rules} |")


def _rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * resource.getpagesize() / 2**20


def _memory_child(data_dir, name, learner, out) -> None:
    X, y, kinds, *_ = load(data_dir, name)
    cls = getattr(aspml, learner)
    small = np.r_[np.flatnonzero(y)[:20], np.flatnonzero(~y)[:20]]
    cls(kinds=kinds, positive=True).fit(X.iloc[small], y[small])     # load numba's cache
    before = _rss_mb()
    t = time.perf_counter()
    cls(kinds=kinds, positive=True).fit(X, y)
    seconds = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out.put((before, peak, seconds))


def memory(args) -> None:
    """Peak memory of one training run on all rows, each learner in a fresh process."""
    import multiprocessing as mp
    ctx = mp.get_context("spawn")
    print("| data | learner | RSS before fit (MB) | peak RSS (MB) | added by training (MB) | s |")
    print("|---|---|---|---|---|---|")
    for learner in ("FoldSE", "FoldRpp"):
        q = ctx.Queue()
        p = ctx.Process(target=_memory_child, args=(args.data_dir, args.memory, learner, q))
        p.start()
        before, peak, seconds = q.get()
        p.join()
        print(f"| {args.memory} | aspml {learner} | {before:.0f} | {peak:.0f} | "
              f"{max(peak - before, 0):.0f} | {seconds:.2f} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data-dir", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--datasets", nargs="+", default=DATASETS)
    ap.add_argument("--no-clingo", dest="clingo", action="store_false")
    ap.add_argument("--no-reference", dest="reference", action="store_false")
    ap.add_argument("--reference-max-rows", type=int, default=50_000,
                    help="skip the (slow, pure Python) reference above this many rows")
    ap.add_argument("--synthetic", type=int, help="instead of CV: train once on N synthetic rows")
    ap.add_argument("--json", type=Path, help="also write the results here")
    ap.add_argument("--memory", metavar="DATASET", help="instead of CV: peak memory of training")
    ap.add_argument("--speed", metavar="DATASET",
                    help="instead of CV: first fit and best of five on one fold, side by side "
                         "('synthetic' with --synthetic N: on N synthetic rows)")
    ap.add_argument("--rounds", type=int, default=5, help="--speed: rounds of fits (default 5)")
    args = ap.parse_args(argv)
    if args.speed:
        speed(args)
        return 0
    # warm the numba cache so no fold pays for compilation
    aspml.FoldSE().fit(pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": ["x", "y", "x", "y"]}), [0, 1, 0, 1])
    if args.synthetic:
        scaling(args)
        return 0
    if args.memory:
        memory(args)
        return 0
    print("| data | learner | acc | F1 | rules | literals | train s/fold | speed vs ref |")
    print("|---|---|---|---|---|---|---|---|")
    results = cross_validate(args)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
