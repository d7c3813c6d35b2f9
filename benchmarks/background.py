"""Background knowledge: FOLD-SE with and without a hand-written theory, same folds.

    python benchmarks/background.py                    # heart and adult
    python benchmarks/background.py --datasets heart   # one of them

The theories are ``benchmarks/background/<name>.lp`` (a few derived atoms each:
``elderly``, ``hypertensive``, ``at_risk`` ... for heart; ``married``, ``degree``,
``investor`` ... for adult).  Stratified 5-fold CV (``StratifiedKFold(5,
shuffle=True, random_state=0)``), column kinds from ``MANIFEST.tsv``, positive
class ``present`` (heart) and ``>50K`` (adult).  Reported per setting: accuracy,
F1 of the positive class, learned rules (default + exception rules; the
background rules are not counted), literals, the share of learned literals that
read a background atom, and training seconds per fold (with the theory: clingo's
derivation of the atoms for every training row included).  Every program is
also run by clingo on its test fold and must give the fast path's answers.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from sklearn.model_selection import StratifiedKFold

import aspml

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE.parents[1] / "shared" / "data"
POSITIVE = {"heart": "present", "adult": ">50K"}


def load(data_dir: Path, name: str):
    from aspml.bench import load_dataset, read_manifest
    d = load_dataset(data_dir, read_manifest(data_dir)[name], POSITIVE[name])
    return d.X, d.y, d.kinds


def f1(pred, y) -> float:
    tp = np.sum(pred & y)
    return 0.0 if tp == 0 else 2 * tp / (np.sum(pred) + np.sum(y))


def run(X, y, kinds, folds, background) -> list:
    rows = []
    for tr, te in folds:
        clf = aspml.FoldSE(kinds=kinds, positive=True, background=background)
        t = time.perf_counter()
        clf.fit(X.iloc[tr], y[tr])
        seconds = time.perf_counter() - t
        pred = clf.decision(X.iloc[te])
        if not np.array_equal(aspml.asp.predict(clf.program_, X.iloc[te]), pred):
            raise SystemExit("clingo disagrees with the fast path")
        p = clf.program_
        atoms = set(p.background_atoms)
        share = (sum(lit.feature in atoms for lit in p.literals[:p.n_literals])
                 / max(p.n_literals, 1))
        rows.append((np.mean(pred == y[te]), f1(pred, y[te]), p.n_rules, p.n_literals, share,
                     seconds))
    return rows


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", nargs="+", default=["heart", "adult"], choices=sorted(POSITIVE))
    ap.add_argument("--data-dir", type=Path, default=DEFAULT_DATA)
    args = ap.parse_args(argv)
    print("| data | FOLD-SE | accuracy | F1 | rules | literals | literals on atoms | train s |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.datasets:
        X, y, kinds = load(args.data_dir, name)
        folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
        theory = HERE / "background" / f"{name}.lp"
        for label, background in (("without", None), (f"with {theory.name}", theory)):
            acc, f, rules, lits, share, sec = np.array(run(X, y, kinds, folds, background)).mean(0)
            print(f"| {name} | {label} | {acc:.3f} | {f:.3f} | {rules:.1f} | {lits:.1f} | "
                  f"{share:.0%} | {sec:.2f} |", flush=True)


if __name__ == "__main__":
    main()
