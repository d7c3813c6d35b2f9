"""Serial against parallel kernels (issue #21): where, on this machine, does numba's
``prange`` over the features pay for its threads?

    nice -n 10 python benchmarks/parallel.py
    nice -n 10 python benchmarks/parallel.py --rows 2000 20000 200000 --features 10 40
    python benchmarks/parallel.py --fits --rows 2000 10000 50000 200000 [--busy 1]

For each table size (rows x features: numbers uniform in [0, 100] at two decimals, as
``benchmarks/fold.py --synthetic``; a third of the rows positive, every row active) the
best of five warm calls of each kernel in its serial and its parallel form:
``build_view`` (sort every feature once), ``best_literal`` (one FOLD literal search,
information gain, negated comparisons) and ``filter_sorted`` (cut the view to half its
rows).  ``first parallel call`` is the first call of a parallel kernel in a fresh
process (numba's thread pool starting; the kernels' machine code is cached on disk).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from functools import partial

import numpy as np

from aspml.kernels import literals as K


def table(rows: int, features: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    num = rng.uniform(0, 100, (features, rows)).round(2)
    is_num = np.ones_like(num, dtype=bool)
    state = np.where(rng.random(rows) < 1 / 3, 1, 2).astype(np.int8)
    return num, is_num, np.full(features, 100.0), state


def best_of(fn, *args, repeat=5, median=False) -> float:
    """The best (or, ``median``, the median: what a loaded machine's user sees) of
    ``repeat`` warm calls."""
    fn(*args)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t)
    return float(np.median(times)) if median else min(times)


def measure(rows: int, features: int, repeat: int = 5, median: bool = False) -> dict:
    num, is_num, scales, state = table(rows, features)
    timed = partial(best_of, repeat=repeat, median=median)
    out = {}
    out["build_view"] = (timed(K.build_view_serial, num, is_num, scales),
                         timed(K.build_view, num, is_num, scales))
    groups, rws, offsets, distinct, d_off = K.build_view_serial(num, is_num, scales)
    active = np.flatnonzero(state)
    empty_i, empty_f = np.zeros(0, dtype=np.int64), np.zeros(0)
    args = (groups, rws, offsets, distinct, d_off, np.zeros((features, 0), dtype=np.int32),
            np.zeros(features, dtype=np.int64), state, active, None,
            float((state == 1).sum()), float((state == 2).sum()), int((state == 2).sum()),
            K.IG, True, 1.0, empty_i, empty_i, empty_f)
    out["best_literal"] = (timed(K.best_literal, *args),
                           timed(K.best_literal_parallel, *args))
    half = np.zeros(rows, dtype=bool)
    half[::2] = True
    out["filter_sorted"] = (timed(K.filter_sorted, groups, rws, offsets, half),
                            timed(K.filter_sorted_parallel, groups, rws, offsets, half))
    return out


FIRST = """
import time, numpy as np
from aspml.kernels import literals as K
num = np.random.default_rng(0).uniform(0, 100, (10, 50000)).round(2)
K.build_view_serial(num, np.ones_like(num, dtype=bool), np.full(10, 100.0))
t = time.perf_counter()
K.build_view(num, np.ones_like(num, dtype=bool), np.full(10, 100.0))
first = time.perf_counter() - t
t = time.perf_counter()
K.build_view(num, np.ones_like(num, dtype=bool), np.full(10, 100.0))
print(first, time.perf_counter() - t)
"""


FITS = """
import sys, time, numpy as np
sys.path.insert(0, {here!r})
from fold import synthetic
import aspml
out = []
for n in {rows!r}:
    X, y = synthetic(n)
    aspml.FoldSE(positive=True).fit(X.head(500), y[:500])
    times = []
    for _ in range(9):
        t = time.perf_counter()
        aspml.FoldSE(positive=True).fit(X, y)
        times.append(time.perf_counter() - t)
    out.append(float(np.median(times)))
print(*out)
"""


def fits(rows) -> None:
    """Median of nine FoldSE fits on ``fold.py --synthetic`` tables, in a fresh process
    with two numba threads and with one (``NUMBA_NUM_THREADS=1``)."""
    import os
    from pathlib import Path
    code = FITS.format(here=str(Path(__file__).resolve().parent), rows=list(rows))
    ms = {}
    for threads in ("2", "1"):
        env = dict(os.environ, NUMBA_NUM_THREADS=threads)
        out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                             text=True, env=env).stdout.split()
        ms[threads] = [float(x) * 1e3 for x in out]
    print("| rows x 10 | FoldSE fit, 2 threads ms | 1 thread ms | 2 / 1 |")
    print("|---|---|---|---|")
    for n, two, one in zip(rows, ms["2"], ms["1"]):
        print(f"| {n:,} | {two:.1f} | {one:.1f} | {two / one:.2f} |", flush=True)


def sorts(sizes=(100, 300, 1_000, 2_000, 3_000, 5_000, 10_000, 50_000)) -> None:
    """The sort under each feature's view (``aspml.kernels.sort``): the radix passes
    against the stable merge sort it takes below ``RADIX_MIN`` keys (uint64 keys of
    normal floats at three decimals, best of 30 warm calls, microseconds)."""
    import numba

    from aspml.kernels.sort import RADIX_MIN, _keys, _radix_passes

    @numba.njit
    def merge(keys):
        return np.argsort(keys, kind="mergesort")

    def radix(keys):
        return _radix_passes(keys, keys.min(), keys.max())

    print(f"RADIX_MIN = {RADIX_MIN}\n\n| keys | radix us | merge us |\n|---|---|---|")
    rng = np.random.default_rng(0)
    for n in sizes:
        keys = _keys(rng.normal(size=n).round(3))
        out = []
        for fn in (radix, merge):
            fn(keys)
            out.append(min(best_of(fn, keys) for _ in range(6)) * 1e6)
        print(f"| {n:,} | {out[0]:.1f} | {out[1]:.1f} |", flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, nargs="+",
                    default=[1_000, 5_000, 20_000, 50_000, 200_000, 1_000_000])
    ap.add_argument("--features", type=int, nargs="+", default=[10, 40])
    ap.add_argument("--busy", type=int, default=0,
                    help="run this many busy-looping processes beside the measurement "
                         "(a machine loaded by other work)")
    ap.add_argument("--median", action="store_true",
                    help="the median of 21 calls instead of the best of five")
    ap.add_argument("--repeat", type=int, default=None)
    ap.add_argument("--sort", action="store_true",
                    help="instead of the kernels: the radix sort against the merge sort")
    ap.add_argument("--fits", action="store_true",
                    help="instead of the kernels: whole FoldSE fits (median of nine) with two "
                         "numba threads and with one, on --rows x 10 synthetic tables")
    args = ap.parse_args(argv)
    repeat = args.repeat or (21 if args.median else 5)
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(args.busy)]
    try:
        if args.sort:
            sorts()
        elif args.fits:
            fits(args.rows)
        else:
            report(args, repeat)
    finally:
        for proc in busy:
            proc.kill()


def report(args, repeat) -> None:
    print("| rows | features | kernel | serial ms | parallel ms | parallel / serial |")
    print("|---|---|---|---|---|---|")
    for features in args.features:
        for rows in args.rows:
            for kernel, (serial, parallel) in measure(rows, features, repeat,
                                                      args.median).items():
                print(f"| {rows:,} | {features} | {kernel} | {serial * 1e3:.2f} | "
                      f"{parallel * 1e3:.2f} | {parallel / serial:.2f} |", flush=True)
    first, again = map(float, subprocess.run([sys.executable, "-c", FIRST], check=True,
                                             capture_output=True, text=True).stdout.split())
    print(f"\nfirst parallel call in a fresh process (build_view, 50,000 x 10): "
          f"{first * 1e3:.1f} ms, then {again * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
