"""LIBRE's worked example (Appendix A of the paper), step by step.

    python examples/libre_cpu_mem/run.py
"""

import numpy as np
import pandas as pd

import aspml
from aspml.data.discretize import bins_of, pack_bits
from aspml.kernels.boundary import find_boundary

table = pd.read_csv(__file__.replace("run.py", "cpu_mem.csv"))
table.index = [f"t{i + 1}" for i in range(len(table))]
cuts = {"CPU": [81, 95], "MEM": [85]}          # CPU: [0,81) [81,95) [95,max); MEM: [0,85) [85,max)
widths = [3, 2]


def show(bits) -> str:
    """A record as the paper writes it: '110 01' (CPU's three bits, then MEM's two)."""
    text = "".join("1" if b else "0" for b in bits)
    return text[:3] + " " + text[3:]


# A.1 discretize, then inverse one-hot encode: one bit per bin, a 0 at the record's own bin
print("A.1  discretize (CPU: [0,81) [81,95) [95,max); MEM: [0,85) [85,max)) and encode\n")
codes = np.stack([bins_of(table[f].to_numpy(float), np.array(cuts[f], float)) for f in cuts], axis=1)
bits = pack_bits(codes, widths)
strings = np.array([[(int(b[0]) >> i) & 1 for i in range(5)] for b in bits], dtype=bool)
table["r1"], table["r2"] = codes[:, 0] + 1, codes[:, 1] + 1
table["String"] = [show(s) for s in strings]
print(table.to_string(), "\n")

# A.2-A.3 flip off the 1-bits of each positive record, left to right; a flip that makes the
# record <= a negative one (its 1s a subset of the negative's 1s) is a conflict: keep that bit
print("A.2  flip off bits of each positive record while no negative record covers it\n")
y = table.Label.to_numpy() == 1
negatives = strings[~y]
for name, record in zip(table.index[y], strings[y]):
    point = record.copy()
    print(f"  {name} = {show(record)}")
    for i in np.flatnonzero(record):
        trial = point.copy()
        trial[i] = False
        hit = [table.index[~y][k] for k, n in enumerate(negatives) if not (trial & ~n).any()]
        verdict = f"<= {', '.join(hit)}: conflict, keep bit {i + 1}" if hit else "no conflict"
        print(f"    flip off bit {i + 1}: {show(trial)}  {verdict}")
        if not hit:
            point = trial
    print(f"    boundary point {show(point)}")

# the same with aspml's FindBoundary kernel (records as the positions of their zeros)
zeros = codes + np.array([0, 3])
pos, neg = np.unique(zeros[y], axis=0), np.unique(zeros[~y], axis=0)
points = find_boundary(pos, neg, 5, 1, np.arange(len(pos)))
print("\n     FindBoundary (aspml.kernels.boundary):", sorted(show(p) for p in points), "\n")

# A.4 the same through the estimator: boundary points become rules (Fig. 3 of the paper)
print("A.4  aspml.Libre with the same bins: the rules of Fig. 3\n")
clf = aspml.Libre(n_estimators=1, max_features=2, cut_points=cuts, early_stopping=False)
clf.fit(table[["CPU", "MEM"]], table.Label)
print(clf.program_.to_text())
