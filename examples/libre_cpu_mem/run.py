"""LIBRE's worked example (Appendix A of the paper), step by step.

    python examples/libre_cpu_mem/run.py
"""

import numpy as np
import pandas as pd

import aspml
from aspml.data.discretize import bins_of, pack_bits
from aspml.kernels.boundary import find_boundary

table = pd.DataFrame({"CPU": [95, 80, 81, 10, 10, 82, 85, 81],
                      "MEM": [10, 10, 85, 85, 10, 10, 10, 10],
                      "Label": [1, 0, 1, 0, 0, 0, 0, 0]})
cuts = {"CPU": [81, 95], "MEM": [85]}          # CPU: [0,81) [81,95) [95,max); MEM: [0,85) [85,max)

# 1. discretize, then inverse one-hot encode: one bit per bin, a zero at the record's bin
codes = np.stack([bins_of(table[f].to_numpy(float), np.array(cuts[f], float)) for f in cuts], axis=1)
bits = pack_bits(codes, [3, 2])
table["String"] = ["".join(str((int(b[0]) >> i) & 1) for i in range(5)) for b in bits]
print(table.to_string(index=False), "\n")

# 2. FindBoundary: flip off bits of each positive record until a flip would cover a negative one
zeros = codes + np.array([0, 3])
y = table.Label.to_numpy() == 1
pos, neg = np.unique(zeros[y], axis=0), np.unique(zeros[~y], axis=0)
points = find_boundary(pos, neg, 5, 1, np.arange(len(pos)))
print("boundary points:", sorted("".join("1" if b else "0" for b in p) for p in points), "\n")

# 3. the same through the estimator: boundary points become rules (Fig. 3 of the paper)
clf = aspml.Libre(n_estimators=1, max_features=2, cut_points=cuts, early_stopping=False)
clf.fit(table[["CPU", "MEM"]], table.Label)
print(clf.program_.to_text())
