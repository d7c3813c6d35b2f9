"""Expert rules: FOLD-SE and FOLD-R++ with a hand-written rule against without it.

    python benchmarks/expert.py                     # heart and adult, 5-fold CV
    python benchmarks/expert.py --datasets heart

Stratified 5-fold CV (``StratifiedKFold(5, shuffle=True, random_state=0)``), the
same folds for both runs; positive class and column kinds from ``MANIFEST.tsv``.
The expert rules (``RULES`` below) are written by hand from common knowledge,
not from the data: for heart (positive ``absent``: no heart disease) a normal
thallium scan and no major vessel coloured; for adult (positive ``<=50K``)
people under 25, and people who are neither husband nor wife with no capital
gain.  Reported per learner and setting: accuracy, F1 of the positive class,
rules and literals (exception rules and ``not ab`` included), and, with the
expert rules, how many exceptions the data added to them.
"""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path

import numpy as np
from sklearn.model_selection import StratifiedKFold

import aspml
from aspml.errors import AspmlWarning
from aspml.bench import load_dataset, read_manifest

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
RULES = {
    "heart": 'IF thal = 3 AND major_vessels = 0 THEN label = "absent"',
    "adult": 'IF age < 25 THEN label = "<=50K"\n'
             'IF relationship != "Husband" AND relationship != "Wife" AND capital_gain = 0 '
             'THEN label = "<=50K"',
}


def run(cls, X, y, kinds, positive, folds, rules):
    out = []
    for tr, te in folds:
        clf = cls(kinds=kinds, positive=positive)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AspmlWarning)
            clf.fit(X.iloc[tr], y[tr], fixed_rules=rules)
        pred = clf.decision(X.iloc[te])
        truth = y[te] == positive
        tp = np.sum(pred & truth)
        f1 = 0.0 if tp == 0 else 2 * tp / (pred.sum() + truth.sum())
        p = clf.program_
        added = sum(e["exception"] is not None for e in clf.expert_report_)
        out.append((np.mean(pred == truth), f1, p.n_rules, p.n_literals, added))
    return np.mean(out, axis=0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--datasets", nargs="+", default=list(RULES))
    args = ap.parse_args()
    manifest = read_manifest(args.data_dir)
    print("| data | learner | expert rules | accuracy | F1 | rules | literals | exceptions added |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for name in args.datasets:
        d = load_dataset(args.data_dir, manifest[name], None)
        y = np.where(d.y, d.positive, "other").astype(object)
        folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(d.X, d.y))
        for cls in (aspml.FoldSE, aspml.FoldRpp):
            for rules in (None, RULES[name]):
                acc, f1, n_rules, n_lits, added = run(cls, d.X, y, d.kinds, d.positive, folds,
                                                      rules)
                print(f"| {name} | {cls.__name__} | {'yes' if rules else 'no'} | {acc:.3f} | "
                      f"{f1:.3f} | {n_rules:.1f} | {n_lits:.1f} | "
                      f"{'' if rules is None else f'{added:.1f}'} |", flush=True)


if __name__ == "__main__":
    main()
