# Lesson 3 of the aspml notebooks: LIBRE's lattice, the boundary, the set cover.

# %% [markdown]
# # 3. LIBRE: learning in a Boolean lattice
#
# LIBRE learns **bottom-up**. Each record becomes a string of bits, one bit per
# bin of each feature; the positive records are then *generalised* — bits are
# switched off — as far as possible without covering a negative record. The
# most general strings reached are the **boundary** between the classes, and
# each boundary point is a rule. A greedy **weighted set cover** then keeps the
# points worth keeping.
#
# This lesson replays Appendix A of the LIBRE paper (Mita et al., AISTATS 2020)
# on its own eight records, then builds a set cover by hand.

# %%
import numpy as np
import pandas as pd

import aspml
from aspml.data.discretize import bins_of
from aspml.kernels.boundary import find_boundary, weak_learner_points

table = pd.read_csv("../libre_cpu_mem/cpu_mem.csv")
table.index = [f"t{i + 1}" for i in range(len(table))]
table

# %% [markdown]
# ## A.1 Discretise, then encode
#
# CPU falls in three bins, `[0,81) [81,95) [95,max)`, MEM in two,
# `[0,85) [85,max)`. A record is written **inverse one-hot**: a 1 for every
# bin *except* its own. `110 01` is a CPU in the third bin and a MEM in the
# first. A string `a` **covers** a record `x` (`a ≤ x`) when `a` has a 0 wherever
# `x` has one: fewer 1s means more general.

# %%
cuts = {"CPU": [81, 95], "MEM": [85]}
widths = [3, 2]
codes = np.stack([bins_of(table[f].to_numpy(float), np.array(cuts[f], float)) for f in cuts],
                 axis=1)


def bits_of(code_row):
    """The inverse one-hot string of a record: a 0 at its bin of each feature."""
    out = []
    for c, w in zip(code_row, widths):
        out += [0 if k == c else 1 for k in range(w)]
    return np.array(out, dtype=bool)


def show(bits):
    text = "".join("1" if b else "0" for b in bits)
    return text[:3] + " " + text[3:]


strings = np.array([bits_of(c) for c in codes])
table["String"] = [show(s) for s in strings]
table

# %% [markdown]
# ## A.2 Walking down the lattice
#
# Take a positive record and switch off its 1-bits one at a time, left to right.
# A flip that makes the string cover a negative record is a **conflict**: that
# bit stays on. What remains is a boundary point.

# %%
y = table.Label.to_numpy() == 1
negatives = strings[~y]
for name, record in zip(table.index[y], strings[y]):
    point = record.copy()
    print(f"{name} = {show(record)}")
    for i in np.flatnonzero(record):
        trial = point.copy()
        trial[i] = False
        covered = [table.index[~y][k] for k, n in enumerate(negatives) if not (trial & ~n).any()]
        if covered:
            print(f"   flip off bit {i + 1}: {show(trial)}  covers {', '.join(covered)}: keep bit {i + 1}")
        else:
            print(f"   flip off bit {i + 1}: {show(trial)}  no conflict")
            point = trial
    print(f"   boundary point {show(point)}")

# %% [markdown]
# aspml's `find_boundary` kernel (Algorithm 1 of the paper, compiled with numba)
# stores each record as the positions of its zeros and finds the same two
# points, `110 00` and `100 10`:

# %%
zeros = codes + np.array([0, 3])                   # the position of each feature's zero bit
points = find_boundary(np.unique(zeros[y], axis=0), np.unique(zeros[~y], axis=0), 5, 1,
                       np.arange(y.sum()))
sorted(show(p) for p in points)

# %% [markdown]
# ## A.4 From the boundary to rules
#
# A 0 in a point allows that bin. `110 00` allows CPU's third bin and both MEM
# bins: *CPU ≥ 95*. `100 10` allows CPU's bins 2–3 and MEM's second: *CPU ≥ 81
# and MEM ≥ 85*. The estimator with the same bins prints the paper's Fig. 3:

# %%
libre = aspml.Libre(n_estimators=1, max_features=2, cut_points=cuts, early_stopping=False)
libre.fit(table[["CPU", "MEM"]], table.Label)

# %% [markdown]
# ## The set cover
#
# LIBRE runs many **weak learners**, each on a few features. A weak learner
# that sees only MEM cannot tell apart two records that differ only in CPU, so
# its boundary points may cover negatives in the full space. The weighted set
# cover picks points greedily by
# `α · (new positives covered) − (1 − α) · (negatives covered)`, removes the
# positives they cover, and repeats while the best weight is positive.
#
# Below: 200 readings of a bigger system, four bins per feature, and two weak
# learners — one sees CPU alone, the other MEM alone.

# %%
rng = np.random.default_rng(0)
big = pd.DataFrame({"CPU": rng.uniform(0, 100, 200).round(), "MEM": rng.uniform(0, 100, 200).round()})
fails = ((big.CPU >= 75) | ((big.CPU >= 50) & (big.MEM >= 75))).to_numpy()
cuts4 = {"CPU": [25, 50, 75], "MEM": [25, 50, 75]}
codes4 = np.stack([bins_of(big[f].to_numpy(float), np.array(cuts4[f], float)) for f in cuts4],
                  axis=1)
names = ["CPU", "MEM"]


def weak_learner(subset):
    """The boundary points of a weak learner that sees only the features ``subset``,
    each as (its rule, the rows it covers in the full space)."""
    # all rows (no row list), the features' bins, H1 (1), no row weights (empty)
    allowed = weak_learner_points(codes4, np.empty(0, np.int64), np.array(subset),
                                  np.array([4] * len(subset)), np.array(fails), 1, np.empty(0))
    out = []
    for a in allowed:
        covers = np.ones(len(big), dtype=bool)
        parts = []
        for j, f in enumerate(subset):
            bins = a[4 * j:4 * j + 4]
            covers &= bins[codes4[:, f]]
            parts.append(f"{names[f]} in bins {[int(b) + 1 for b in np.flatnonzero(bins)]}")
        out.append((" AND ".join(parts), covers))
    return out


def table_of(candidates):
    return pd.DataFrame({"candidate rule": [t for t, _ in candidates],
                         "positives": [int((m & fails).sum()) for _, m in candidates],
                         "negatives": [int((m & ~fails).sum()) for _, m in candidates]})


candidates = weak_learner([0]) + weak_learner([1])
table_of(candidates)


# %%
def greedy_cover(candidates, y, alpha):
    """The paper's greedy weighted set cover, in plain Python."""
    left = y.copy()
    chosen = []
    while True:
        weights = [alpha * (m & left).sum() - (1 - alpha) * (m & ~y).sum() for _, m in candidates]
        best = int(np.argmax(weights))
        if weights[best] <= 0:
            return chosen
        chosen.append(candidates[best][0])
        left &= ~candidates[best][1]


for alpha in (0.5, 0.7, 0.95):
    print(f"alpha = {alpha}:", greedy_cover(candidates, fails, alpha))

# %% [markdown]
# A third weak learner that sees both features finds a pure rule for the
# failures at high MEM, and the cover prefers it:

# %%
both = candidates + weak_learner([0, 1])
print(table_of(both).to_string(), "\n")
print("alpha = 0.95:", greedy_cover(both, fails, 0.95))

# %% [markdown]
# The estimator does all of this — ChiMerge bins, an ensemble of weak learners
# on random feature subsets, the weighted set cover with a stopping rule — in
# one call:

# %%
aspml.Libre(n_estimators=5, max_features=2, random_state=0).fit(big, fails)

# %% [markdown]
# ## Questions
#
# 1. In A.2, flip the bits right to left instead. Do you reach the same
#    boundary points? Why might the order matter on other data?
# 2. Why can a weak learner on MEM alone produce a point that covers negative
#    records in the full space? Find it in the candidate table. Why is the
#    point of the learner on CPU alone pure on these data?
# 3. At which α does the set cover start to accept a rule that covers some
#    negatives? What does that say about α as a precision/recall knob?
# 4. The boundary points never cover a negative *training* record. Why does
#    LIBRE still need a stopping condition for the set cover?
