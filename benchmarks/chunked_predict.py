"""Whole-file against chunked ``aspml predict`` on a synthetic 1M-row CSV: wall time and
peak memory of each run's process, and whether the answers are the same.

    python benchmarks/chunked_predict.py          # writes its files under /tmp/chb
"""
import os
import resource
import subprocess
import sys
import time

import numpy as np, pandas as pd
import aspml
rng = np.random.default_rng(0)
os.makedirs("/tmp/chb", exist_ok=True)
path = "/tmp/chb/big.csv"
rows = 1_000_000
first = True
for start in range(0, rows, 200_000):
    n = 200_000
    X = pd.DataFrame({"age": rng.integers(18, 90, n), "income": rng.normal(50, 20, n).round(1),
                      "colour": rng.choice(["red", "blue", "green"], n),
                      "score": rng.normal(size=n).round(3)})
    y = np.where((X.age > 50) & (X.colour != "red") | (X.income > 70), "yes", "no")
    X.assign(label=y).to_csv(path, mode="w" if first else "a", header=first, index=False)
    if first:
        aspml.FoldSE(positive="yes", target="label").fit(X[:20000], y[:20000]).program_.save("/tmp/chb/m.lp")
    first = False
for extra in ([], ["--chunksize", "100000"]):
    # a fresh process each, so its own peak memory
    code = f"import resource,subprocess,time;t=time.perf_counter();subprocess.run({['aspml','predict','/tmp/chb/m.lp',path,'-o','/tmp/chb/out'+str(len(extra))+'.csv',*extra]!r},check=True);print(round(time.perf_counter()-t,1),'s',resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss//1024,'MiB peak')"
    print(extra or "whole file", subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip())
print("same:", open("/tmp/chb/out0.csv").read() == open("/tmp/chb/out2.csv").read())
