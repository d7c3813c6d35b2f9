"""Audit: programs learned from numbers clingo's 32-bit integers cannot hold.

    python benchmarks/bigint.py --programs 240

Random tables whose numeric columns hold integers of 2^31 to 2^40, multiples
of 1e15, large negative values, small decimals and raw floats, alone or mixed
in one column; FoldSE, Libre and MultiValueRuleSet in turn learn a program
from each.  Every program is saved and loaded again (it must be the same
Program), then run by the fast path, clingo and SWI-Prolog on the training
rows, on rows at and between its thresholds, and on rows 32 times larger
than any seen in training (2^45 where training stopped at 2^40).  Prints
how many programs saved and how many the three engines agree on, row for row.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import warnings

import numpy as np
import pandas as pd

STYLES = ("int40", "e15", "negative", "decimals", "raw", "mixed")


def column(rng, style: str, n: int) -> np.ndarray:
    if style == "int40":
        return rng.integers(2**31, 2**40, n).astype(float)
    if style == "e15":
        return rng.integers(-5, 6, n) * 1e15
    if style == "negative":
        return -rng.integers(2**31, 2**41, n).astype(float)
    if style == "decimals":
        return rng.uniform(-10, 10, n).round(2)
    if style == "raw":
        return rng.uniform(0, 1, n)
    pick = rng.integers(0, 3, n)              # mixed magnitudes in one column
    return np.where(pick == 0, rng.uniform(-1, 1, n).round(3),
                    np.where(pick == 1, rng.integers(2**31, 2**40, n), -1e15))


def table(seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(40, 120))
    k = int(rng.integers(1, 4))
    styles = rng.choice(STYLES, size=k)
    X = pd.DataFrame({f"f{i}": column(rng, s, n) for i, s in enumerate(styles)})
    score = sum((X[c] > X[c].median()).astype(int) for c in X.columns)
    y = np.where((score >= (k + 1) // 2) ^ (rng.random(n) < 0.1), "yes", "no")
    return X, y


def probes(program, X: pd.DataFrame) -> pd.DataFrame:
    """The training rows, rows at each threshold and next to it, and rows far beyond."""
    rows = [X]
    for f in X.columns:
        nums = sorted({float(v) for lit in program.literals if lit.feature == f
                       for v in lit.values()})
        near = [x for t in nums for x in (t, np.nextafter(t, -np.inf), np.nextafter(t, np.inf),
                                          t - 0.5, t + 0.5)]
        if near:
            extra = X.iloc[np.arange(len(near)) % len(X)].copy()
            extra[f] = near
            rows.append(extra)
    far = X * 32.0
    rows.append(far)
    rows.append(-far)
    return pd.concat(rows, ignore_index=True)


def learner(i: int, seed: int):
    import aspml
    kind = i % 3
    if kind == 0:
        return aspml.FoldSE(positive="yes", ratio=0.5, tail=0.0)
    if kind == 1:
        return aspml.Libre(positive="yes", n_estimators=5, random_state=seed)
    return aspml.MultiValueRuleSet(positive="yes", n_iter=200, random_state=seed)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--programs", type=int, default=240)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    import aspml
    import aspml.asp
    import aspml.prolog
    saved = agreed = 0
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.programs):
            seed = args.seed + i
            X, y = table(seed)
            clf = learner(i, seed)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                clf.fit(X, y)
            p = clf.program_
            path = os.path.join(tmp, f"m{i}.lp")
            try:
                p.save(path)
            except aspml.AspmlError as e:
                failures.append((i, type(clf).__name__, "save", str(e).splitlines()[0]))
                continue
            saved += 1
            q = aspml.load(path)
            P = probes(p, X)
            fast = p.predict(P)
            answers = {"load": q == p, "fast(loaded)": np.array_equal(q.predict(P), fast),
                       "clingo": np.array_equal(aspml.asp.predict(q, P), fast),
                       "prolog": np.array_equal(aspml.prolog.predict(q, P), fast)}
            if all(answers.values()):
                agreed += 1
            else:
                bad = [k for k, ok in answers.items() if not ok]
                failures.append((i, type(clf).__name__, "disagree", ", ".join(bad)))
    for f in failures[:20]:
        print("  program %d (%s): %s: %s" % f, file=sys.stderr)
    print(f"{args.programs} programs learned: {saved} saved; {agreed} of them loaded back equal "
          f"and got the same answer from fast / clingo / prolog on every probe row")
    return 0 if agreed == args.programs else 1


if __name__ == "__main__":
    sys.exit(main())
