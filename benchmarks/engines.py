"""Benchmark: one program, three engines, N rows.

    python benchmarks/engines.py --rows 1000000

A 20-rule stratified program with exceptions nested three deep, over four
attributes (a two-decimal number, an integer, a category, a number with 10%
missing values), evaluated by the fast path (numpy), by clingo (the reference)
and by SWI-Prolog.  Each engine runs in a fresh child process so that its
peak memory (max RSS) is its own; the data is generated there from one seed.
Prints a Markdown table; all three answers are checked to be identical.
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing as mp
import resource
import shutil
import sys
import time

import numpy as np
import pandas as pd


def make_table(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    d = rng.uniform(0, 50, n).round(1)
    d[rng.random(n) < 0.1] = np.nan
    return pd.DataFrame({
        "a": rng.uniform(0, 100, n).round(2),
        "b": rng.integers(0, 1000, n),
        "c": rng.choice([f"v{i}" for i in range(10)], n),
        "d": d,
    })


PROGRAM = """
IF a > 50 AND NOT ab1 THEN label = "yes"
IF b <= 200 AND c in {"v1", "v2", "v3"} AND NOT ab2 THEN label = "yes"
IF d in [10, 20) AND NOT ab3 THEN label = "yes"
IF c = "v9" AND b > 900 THEN label = "yes"
IF a <= 5.5 AND d > 40 THEN label = "yes"
IF b in [400, 450) AND NOT ab4 THEN label = "yes"
IF c != "v0" AND a > 97.25 AND NOT ab5 THEN label = "yes"
IF b > 990 THEN label = "yes"
IF b > 800 AND NOT ab6 THEN ab1
IF c = "v4" AND a <= 60 THEN ab1
IF d <= 5 THEN ab1
IF a > 90 THEN ab2
IF c = "v2" AND b > 150 THEN ab2
IF b <= 100 THEN ab3
IF a in [20, 30] AND NOT ab8 THEN ab3
IF c in {"v5", "v6"} THEN ab4
IF d > 25 THEN ab5
IF a > 75 AND NOT ab7 THEN ab6
IF b > 950 THEN ab7
IF c = "v1" THEN ab8
"""


def program():
    import aspml
    from aspml import Feature, Schema
    p = aspml.parse(PROGRAM, "text")
    return p.with_schema(Schema((Feature("a", "numeric", 100), Feature("b", "numeric", 1),
                                 Feature("c", "categorical"), Feature("d", "numeric", 10))))


def _engine(name: str, n: int, out) -> None:
    import aspml
    p = program()
    X = make_table(n)
    fn = {"fast": p.predict, "clingo": lambda X: aspml.asp.predict(p, X),
          "prolog": lambda X: aspml.prolog.predict(p, X)}[name]
    if name == "fast":
        fn(X.head(10))                     # first call compiles nothing, but loads modules
    t = time.perf_counter()
    y = fn(X)
    seconds = time.perf_counter() - t
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out.put((seconds, rss, int(y.sum()), hashlib.sha1(np.packbits(y).tobytes()).hexdigest()))


def run(name: str, n: int):
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    proc = ctx.Process(target=_engine, args=(name, n, q))
    proc.start()
    result = q.get()
    proc.join()
    return result


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--engines", default="fast,clingo,prolog")
    args = ap.parse_args(argv)
    engines = args.engines.split(",")
    if "prolog" in engines and shutil.which("swipl") is None:
        print("swipl not found: skipping the Prolog engine", file=sys.stderr)
        engines.remove("prolog")
    p = program()
    print(f"{args.rows:,} rows x 4 attributes; program: {p.n_rules} rules "
          f"({len(p.exception_rules)} exception rules), {p.n_literals} literals\n")
    results = {e: run(e, args.rows) for e in engines}
    print("| engine | time (s) | peak memory (MB) | rows positive |")
    print("|---|---|---|---|")
    for e, (sec, rss, pos, _) in results.items():
        print(f"| {e} | {sec:.3f} | {rss:.0f} | {pos:,} |")
    digests = {r[3] for r in results.values()}
    print(f"\nall engines agree on every row: {len(digests) == 1}")
    if "fast" in results:
        for e in results:
            if e != "fast":
                print(f"fast path is {results[e][0] / results['fast'][0]:.0f}x faster than {e}")
    return 0 if len(digests) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
