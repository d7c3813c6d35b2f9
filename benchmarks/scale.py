"""FOLD on large tables (issue #21): ``FoldSE`` on every distinct value, ``FoldSE`` with
``max_bins`` (quantile thresholds, as histogram-based tree learners bin), and the same
``max_bins`` fit on a Dask ``LocalCluster`` of two worker processes, on a synthetic
table of full-precision numbers.

    nice -n 10 python benchmarks/scale.py                       # 1M rows
    nice -n 10 python benchmarks/scale.py --rows 1000000 10000000 --bins 256 --dask
    python benchmarks/scale.py --cli --rows 1000000 2000000 --bins 64   # aspml learn --dask

Each configuration runs in a fresh process: its first fit (numba loading its cached
kernels, the thread pool starting) and a second, warm fit of the same table, the
process's peak memory (``ru_maxrss``), accuracy on a fresh draw of the same size,
and the program's rules and literals.  The table: ten standard-normal numbers at
full precision and two categorical columns of 4 and 50 values; the label is a
three-rule concept (two with an exception) with 5% of the labels flipped.  The
generator is seeded (``--seed``) and draws the table in partitions of 250,000 rows,
so every configuration learns from the same rows; the Dask runs draw each partition on
a worker (the table is never whole in one process) and report the workers' and this
process's peak memory.  Cost of the distributed fit per search step: one pass over
each worker's rows (O(rows / workers)) and a sum of the counts (O(bins x features)
per partition) here.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import textwrap


PART = 250_000


def part(rows: int, seed: int, k: int):
    """Partition ``k`` of the table: its rows drawn from their own seed."""
    import numpy as np
    import pandas as pd
    rng = np.random.default_rng([seed, k])
    X = pd.DataFrame(rng.normal(size=(rows, 10)), columns=[f"x{j}" for j in range(10)])
    X["colour"] = rng.choice(["red", "green", "blue", "grey"], rows)
    X["shop"] = rng.choice([f"s{j:02d}" for j in range(50)], rows)
    y = (((X.x0 > 0.8) & ~(X.colour == "red"))
         | ((X.x1 <= -1.0) & (X.x2 > 0.0))
         | ((X.x3 > 1.2) & ~(X.x4 > 1.0)))
    flip = rng.random(rows) < 0.05
    return X.assign(label=np.where(y ^ flip, "yes", "no"))


def sizes(rows: int) -> list:
    return [min(PART, rows - start) for start in range(0, rows, PART)]


def make(rows: int, seed: int):
    """The whole table in this process (the in-memory runs)."""
    import numpy as np
    import pandas as pd
    frame = pd.concat([part(n, seed, k) for k, n in enumerate(sizes(rows))], ignore_index=True)
    return frame.drop(columns="label"), frame["label"].to_numpy()


def dask_run(rows: int, seed: int, bins: int) -> dict:
    """The ``max_bins`` fit on a LocalCluster of two single-thread worker processes."""
    import resource
    import time
    import warnings
    import dask
    import dask.dataframe as dd
    import distributed
    import numpy as np
    import aspml
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None, memory_limit="10GiB")
        client = distributed.Client(cluster)
    try:
        meta = part(2, seed, 0).iloc[:0]

        def frame(s):
            return dd.from_delayed([dask.delayed(part)(n, s, k) for k, n in enumerate(sizes(rows))],
                                   meta=meta)
        train, fresh = frame(seed), frame(seed + 1)
        times = []
        for _ in range(2):
            t = time.perf_counter()
            clf = aspml.FoldSE(positive="yes", max_bins=bins).fit(train.drop(columns="label"),
                                                                  train["label"])
            times.append(time.perf_counter() - t)
        right = (aspml.dask.predict(clf.program_, fresh.drop(columns="label"))
                 == (fresh["label"] == "yes")).mean().compute()
        workers = client.run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
        p = clf.program_
        return dict(first=times[0], warm=times[1], peak=max(workers.values()),
                    here=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                    acc=float(right), rules=p.n_rules, literals=p.n_literals)
    finally:
        client.close()
        cluster.close()


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


def cli_csv(path, rows: int, seed: int) -> None:
    """A CSV file of ``rows`` rows for ``--cli``, written a million rows at a time: age,
    income, colour, a noise number, a city of 40 values, and a label (a two-rule concept,
    5% of the labels flipped)."""
    import numpy as np
    import pandas as pd
    header = True
    for k, start in enumerate(range(0, rows, 1_000_000)):
        n = min(1_000_000, rows - start)
        rng = np.random.default_rng([seed, k])
        frame = pd.DataFrame({"age": rng.integers(18, 90, n),
                              "income": rng.normal(50, 20, n).round(1),
                              "colour": rng.choice(["red", "blue", "green"], n),
                              "score": rng.normal(size=n).round(4),
                              "city": rng.choice([f"c{i}" for i in range(40)], n)})
        concept = (frame.age > 50) & (frame.colour != "red") | (frame.income > 80)
        frame["label"] = np.where(concept ^ (rng.random(n) < 0.05), "yes", "no")
        frame.to_csv(path, index=False, header=header, mode="w" if header else "a")
        header = False


def peak_of(command: list) -> tuple:
    """(seconds, peak resident MB of the command's own process, sampled every 0.1 s, its
    first output line)."""
    import time

    import psutil
    t = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)
    me, peak = psutil.Process(proc.pid), 0
    while proc.poll() is None:
        try:
            peak = max(peak, me.memory_info().rss)
        except psutil.NoSuchProcess:
            break
        time.sleep(0.1)
    out = proc.stdout.read()
    return time.perf_counter() - t, peak / 2**20, out.splitlines()[0] if out else ""


def cli(rows_list, bins: int, seed: int) -> None:
    """``aspml learn FILE --max-bins N`` against ``aspml learn FILE --max-bins N --dask
    --chunksize 100000`` (a LocalCluster started by the command), on a CSV of each size."""
    import tempfile
    from pathlib import Path
    print("| rows | command | seconds | peak MB (the command's process) | first line |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for rows in rows_list:
            path = Path(tmp) / f"t{rows}.csv"
            cli_csv(path, rows, seed)
            base = ["aspml", "learn", str(path), "--target", "label", "--max-bins", str(bins)]
            for label, extra in (("aspml learn", []),
                                 ("aspml learn --dask", ["--dask", "--chunksize", "100000"])):
                seconds, peak, line = peak_of(base + extra)
                print(f"| {rows:,} | {label} | {seconds:.1f} | {peak:,.0f} | {line} |",
                      flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, nargs="+", default=[1_000_000])
    ap.add_argument("--bins", type=int, nargs="+", default=[256])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dask", action="store_true",
                    help="also the max_bins fit on a LocalCluster (2 worker processes)")
    ap.add_argument("--in-memory-max-rows", type=int, default=2_000_000,
                    help="skip the in-memory runs above this many rows")
    ap.add_argument("--cli", action="store_true",
                    help="aspml learn against aspml learn --dask on a CSV of each --rows "
                         "(the first --bins), the command's time and peak memory")
    args = ap.parse_args(argv)
    if args.cli:
        return cli(args.rows, args.bins[0], args.seed)
    from pathlib import Path
    here = str(Path(__file__).resolve().parent)
    print("| rows | search | fit s first | fit s warm | peak MiB | accuracy (fresh draw) "
          "| rules | literals |")
    print("|---|---|---|---|---|---|---|---|")
    for rows in args.rows:
        for bins in [None, *args.bins] if rows <= args.in_memory_max_rows else []:
            code = RUN.format(here=here, rows=rows, seed=args.seed, bins=bins)
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
            if out.returncode:
                raise SystemExit(out.stderr)
            r = json.loads(out.stdout.strip().splitlines()[-1])
            search = "every value" if bins is None else f"max_bins={bins}"
            print(f"| {rows:,} | {search} | {r['first']:.2f} | {r['warm']:.2f} | {r['peak']:.0f} "
                  f"| {r['acc']:.4f} | {r['rules']} | {r['literals']} |", flush=True)
        if args.dask:
            for bins in args.bins:
                r = dask_run(rows, args.seed, bins)
                print(f"| {rows:,} | max_bins={bins}, LocalCluster 2 workers | {r['first']:.2f} "
                      f"| {r['warm']:.2f} | {r['peak']:.0f} per worker, {r['here']:.0f} here "
                      f"| {r['acc']:.4f} | {r['rules']} | {r['literals']} |", flush=True)


if __name__ == "__main__":
    main()
