"""Do the engines agree on real programs?  Every learner on every shared table, its
program asked for the test rows by the fast path, clingo and SWI-Prolog (the open
query and row by row), and read back from its text and asp prints.

    python benchmarks/agreement.py                          # every binary table of MANIFEST.tsv
    python benchmarks/agreement.py --datasets heart@present "adult@>50K" balance@B

One stratified split (``StratifiedKFold(5, shuffle=True, random_state=1)``, its first
fold; at most ``--rows`` test rows) per table and positive class; the learners
FoldSE, FoldRpp, Libre (``random_state=0``), MRS (``random_state=0``) and FoldSE with
``class_weight="balanced"``.  A row of the table per program: its rules, the test rows
and, per engine, how many rows differ from the fast path (``OK`` when none).  The exit
status is 1 when any program disagrees anywhere.  Needs swipl on the PATH.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.model_selection import StratifiedKFold

import aspml
import aspml.asp
import aspml.evaluate
import aspml.prolog
from aspml.bench import load_dataset, read_manifest

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
LEARNERS = {
    "FoldSE": lambda kinds: aspml.FoldSE(kinds=kinds),
    "FoldRpp": lambda kinds: aspml.FoldRpp(kinds=kinds),
    "Libre": lambda kinds: aspml.Libre(kinds=kinds, random_state=0),
    "MRS": lambda kinds: aspml.MultiValueRuleSet(kinds=kinds, random_state=0),
    "FoldSE balanced": lambda kinds: aspml.FoldSE(kinds=kinds, class_weight="balanced"),
}


def answers(program, X) -> dict:
    """Each engine's (and each read-back's) answer for the rows ``X``."""
    return {"clingo": aspml.asp.predict(program, X),
            "prolog open": aspml.prolog.predict(program, X),
            "prolog rows": aspml.prolog.predict(program, X, query="rows"),
            "text read back": aspml.evaluate.predict(aspml.parse(program.to_text(), "text"), X),
            "asp read back": aspml.evaluate.predict(aspml.parse(program.print("asp"), "asp"), X)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--datasets", nargs="+",
                    help="NAME or NAME@POSITIVE (default: every table of MANIFEST.tsv with a "
                         "positive value)")
    ap.add_argument("--rows", type=int, default=3000, help="at most this many test rows")
    args = ap.parse_args(argv)
    manifest = read_manifest(args.data_dir)
    names = args.datasets or [n for n, e in manifest.items()       # binary tables only
                              if "(" not in e["positive_value"] and e["positive_value"]]
    print("| data | learner | rules | test rows | engines | seconds |")
    print("|---|---|---|---|---|---|")
    bad = 0
    for spec in names:
        name, _, positive = spec.partition("@")
        entry = manifest[name]
        data = load_dataset(args.data_dir, entry, positive=positive or entry["positive_value"])
        X, y, kinds = data.X, data.y, data.kinds
        train, test = next(StratifiedKFold(5, shuffle=True, random_state=1).split(X, y))
        rows = X.iloc[test[: args.rows]]
        for learner, make in LEARNERS.items():
            t = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                program = make(kinds).fit(X.iloc[train], y[train]).program_
            fast = np.asarray(aspml.evaluate.predict(program, rows))
            differ = {k: int(np.sum(np.asarray(v) != fast)) for k, v in answers(program, rows).items()}
            wrong = {k: v for k, v in differ.items() if v}
            bad += bool(wrong)
            said = "OK" if not wrong else ", ".join(f"{k}: {v} rows differ" for k, v in wrong.items())
            print(f"| {spec} | {learner} | {len(program.rules)} | {len(rows)} | {said} | "
                  f"{time.perf_counter() - t:.1f} |", flush=True)
    print(f"\nprograms where an engine or a read-back differs from the fast path: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
