"""FOLD on large tables (issue #21): ``FoldSE`` on every distinct value against ``FoldSE``
with ``max_bins`` (quantile thresholds, as histogram-based tree learners bin), on a
synthetic table of full-precision numbers.

    nice -n 10 python benchmarks/scale.py                       # 1M rows
    nice -n 10 python benchmarks/scale.py --rows 200000 1000000 --bins 64 256

Each configuration runs in a fresh process: its first fit (numba loading its cached
kernels, the thread pool starting) and a second, warm fit of the same table, the
process's peak memory (``ru_maxrss``), accuracy on a fresh draw of the same size,
and the program's rules and literals.  The table: ten standard-normal numbers at
full precision and two categorical columns of 4 and 50 values; the label is a
three-rule concept (two with an exception) with 5% of the labels flipped.  The
generator is seeded (``--seed``), so every configuration learns from the same rows.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import textwrap


def make(rows: int, seed: int):
    import numpy as np
    import pandas as pd
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(rows, 10)), columns=[f"x{k}" for k in range(10)])
    X["colour"] = rng.choice(["red", "green", "blue", "grey"], rows)
    X["shop"] = rng.choice([f"s{k:02d}" for k in range(50)], rows)
    y = (((X.x0 > 0.8) & ~(X.colour == "red"))
         | ((X.x1 <= -1.0) & (X.x2 > 0.0))
         | ((X.x3 > 1.2) & ~(X.x4 > 1.0)))
    flip = rng.random(rows) < 0.05
    return X, np.where(y ^ flip, "yes", "no")


RUN = textwrap.dedent("""
    import json, resource, sys, time
    sys.path.insert(0, {here!r})
    import numpy as np
    import aspml
    from scale import make
    X, y = make({rows}, {seed})
    X_new, y_new = make({rows}, {seed} + 1)
    times = []
    for _ in range(2):
        t = time.perf_counter()
        clf = aspml.FoldSE(positive="yes", max_bins={bins}).fit(X, y)
        times.append(time.perf_counter() - t)
    p = clf.program_
    print(json.dumps(dict(first=times[0], warm=times[1],
                          peak=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                          acc=float(np.mean(clf.predict(X_new) == y_new)),
                          rules=p.n_rules, literals=p.n_literals)))
""")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, nargs="+", default=[1_000_000])
    ap.add_argument("--bins", type=int, nargs="+", default=[256])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    from pathlib import Path
    here = str(Path(__file__).resolve().parent)
    print("| rows | search | fit s first | fit s warm | peak MiB | accuracy (fresh draw) "
          "| rules | literals |")
    print("|---|---|---|---|---|---|---|---|")
    for rows in args.rows:
        for bins in [None, *args.bins]:
            code = RUN.format(here=here, rows=rows, seed=args.seed, bins=bins)
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
            if out.returncode:
                raise SystemExit(out.stderr)
            r = json.loads(out.stdout.strip().splitlines()[-1])
            search = "every value" if bins is None else f"max_bins={bins}"
            print(f"| {rows:,} | {search} | {r['first']:.2f} | {r['warm']:.2f} | {r['peak']:.0f} "
                  f"| {r['acc']:.4f} | {r['rules']} | {r['literals']} |", flush=True)


if __name__ == "__main__":
    main()
