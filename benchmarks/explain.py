"""Benchmark and check explanations on a learned program.

    python benchmarks/explain.py                 # 1,000 rows of adult, FOLD-SE program
    python benchmarks/explain.py --rows 200 --data heart

Learns a FOLD-SE program on the dataset, then for each of the first N rows:

* the explanation's firing rules equal the rules clingo derives for the row
  (``aspml.asp.coverage``), and the fast-path and clingo explanations are equal
  (on every 10th row; it is the slow path);
* the minimal reason forces the prediction (no change of the other features
  flips it) and loses that when any one value is dropped (checked inside
  ``minimal_reason`` and again here through counterfactuals);
* the counterfactual flips the prediction on the fast path.

Prints the counts and the latencies (median and 95th percentile, ms per row).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

import aspml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fold as fold_bench  # noqa: E402  (the dataset loader of the FOLD benchmark)


def ms(samples) -> str:
    a = np.array(samples) * 1000
    return f"median {np.median(a):.1f} ms, p95 {np.percentile(a, 95):.1f} ms"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data-dir", type=Path, default=fold_bench.DEFAULT_DATA)
    ap.add_argument("--data", default="adult")
    ap.add_argument("--rows", type=int, default=1000)
    args = ap.parse_args(argv)
    X, y, kinds, *_ = fold_bench.load(args.data_dir, args.data)
    program = aspml.FoldSE(kinds=kinds, positive=True).fit(X, y).program_
    print(f"{args.data}: FOLD-SE program with {program.n_rules} rules, {program.n_literals} literals")
    rows = X.iloc[:args.rows]
    cov = aspml.asp.coverage(program, rows)
    default = [i for i, r in enumerate(program.rules) if r.head is None]
    aspml.explain(program, rows.iloc[0], minimal=True)          # load caches once
    t_fast, t_clingo, t_min, t_cf = [], [], [], []
    agree = same = forced = minimal = flipped = 0
    for k in range(len(rows)):
        row = rows.iloc[k]
        t = time.perf_counter()
        e = aspml.explain(program, row)
        t_fast.append(time.perf_counter() - t)
        agree += set(e.firing_rules) == {i for i in default if cov[k, i]}
        if k % 10 == 0:
            t = time.perf_counter()
            ec = aspml.explain(program, row, engine="clingo")
            t_clingo.append(time.perf_counter() - t)
            same += ec.target == e.target and ec.atoms == e.atoms
        t = time.perf_counter()
        reason = aspml.explain(program, row, minimal=True).minimal
        t_min.append(time.perf_counter() - t)
        # forced: with the reason's features frozen, no change gives the other answer
        forced += aspml.counterfactual(program, row, target=not e.prediction,
                                       immutable=tuple(reason)) is None
        # minimal: freeing any one of them lets some change give the other answer
        minimal += all(aspml.counterfactual(program, row, target=not e.prediction,
                                            immutable=tuple(f for f in reason if f != g))
                       is not None for g in reason)
        t = time.perf_counter()
        cf = aspml.counterfactual(program, row, target=not e.prediction)
        t_cf.append(time.perf_counter() - t)
        flipped += cf is not None and bool(program.predict(pd.DataFrame([cf.row]))[0]) != e.prediction
    n = len(rows)
    print(f"rows: {n}")
    print(f"firing rules = clingo's rules: {agree}/{n}")
    print(f"fast-path explanation = clingo explanation: {same}/{len(t_clingo)}")
    print(f"minimal reason forces the prediction: {forced}/{n}; no value can be dropped: {minimal}/{n}")
    print(f"counterfactual found and flips the prediction: {flipped}/{n}")
    print(f"latency, explain (fast path):       {ms(t_fast)}")
    print(f"latency, explain (clingo):          {ms(t_clingo)}")
    print(f"latency, explain with minimal reason: {ms(t_min)}")
    print(f"latency, counterfactual:            {ms(t_cf)}")
    return 0 if agree == n and same == len(t_clingo) and forced == n and minimal == n else 1


if __name__ == "__main__":
    sys.exit(main())
