# Lesson 2 of the aspml notebooks: FOLD-SE step by step.

# %% [markdown]
# # 2. FOLD-SE step by step
#
# FOLD-SE learns a program **top-down**: it starts from the rule
# `label :- true`, adds the literal that scores best, and keeps adding until the
# rule covers (almost) no negative example. The negatives it still covers are
# then learned as an **exception** — by the same procedure with the roles of
# positives and negatives swapped. The positives the rule covers leave the
# training set, and the next default rule starts.
#
# The score that chooses the literal is FOLD-SE's **Magic Gini Impurity** (MGI);
# FOLD-R++ used **information gain** (IG). This lesson follows one run step by
# step, then compares the two heuristics on the same data.

# %%
import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import train_test_split

import aspml
from aspml.kernels.literals import IG, MGI, heuristic

# %% [markdown]
# ## The two heuristics on the paper's example
#
# A literal splits the examples into true positives `tp`, false negatives `fn`,
# true negatives `tn` and false positives `fp`. The FOLD-SE paper's example,
# `i > 3` with `(tp, fn, tn, fp) = (3, 4, 8, 0)`, scores −0.38 with MGI.
# Both scores are negative, and higher is better: aspml's IG is FOLD-R++'s
# form of information gain, the negative weighted entropy of the two sides
# (a constant, the entropy before the split, left out), so a pure split scores 0:
#
# $$\mathrm{MGI} = -\frac{1}{tp+fn}\left(\frac{tp\cdot fp}{tp+fp} + \frac{tn\cdot fn}{tn+fn}\right)$$

# %%
print(f"MGI(3, 4, 8, 0) = {heuristic(3, 4, 8, 0, MGI):.2f}")
print(f"IG(3, 4, 8, 0)  = {heuristic(3, 4, 8, 0, IG):.2f}")

# five positives among fifty negatives: a pure literal that covers three of the five,
# against one that covers all five, and five negatives with them
for counts in [(3, 2, 50, 0), (5, 0, 45, 5)]:
    print(counts, f"MGI {heuristic(*counts, MGI):+.3f}   IG {heuristic(*counts, IG):+.3f}")

# %% [markdown]
# ## A run, step by step
#
# `fit(..., trace=callback)` calls the callback with one dict per learning
# step: a rule is started, a literal is chosen (with its score), the remaining
# false positives become exceptions, a rule is finished and kept or dropped.
# `depth` 0 is a default rule, 1 its exception, 2 the exception's exception.
#
# The data: the animals of lesson 1, with a few wounded sparrows that do not fly.

# %%
rng = np.random.default_rng(1)
kind = rng.choice(["sparrow", "penguin", "superpenguin", "cat"], 300, p=[.5, .25, .1, .15])
wounded = (kind == "sparrow") & (rng.random(300) < 0.1)
animals = pd.DataFrame({"bird": kind != "cat",
                        "penguin": np.isin(kind, ["penguin", "superpenguin"]),
                        "superpenguin": kind == "superpenguin",
                        "wounded": wounded})
flies = np.where(np.isin(kind, ["sparrow", "superpenguin"]) & ~wounded, "yes", "no")

steps = []
fold = aspml.FoldSE(target="flies", positive="yes").fit(animals, flies, trace=steps.append)
trace = pd.DataFrame(steps)
trace["literal"] = [aspml.logic.printers.text_literal(lit) if isinstance(lit, aspml.Literal)
                    else "" for lit in trace.get("literal", [None] * len(trace))]
trace.astype(object).fillna("")

# %% [markdown]
# Read the trace from the top: the first rule starts with every example
# (`tp` positives, `fp` negatives), takes `bird`, which leaves the non-flying
# birds as false positives, and turns them into an exception at depth 1...
# The finished program:

# %%
fold

# %% [markdown]
# ## MGI against information gain on the same data
#
# The Wisconsin breast cancer table (569 tumours, 30 measurements, bundled with
# scikit-learn). One split, the same for both heuristics.

# %%
X, y = load_breast_cancer(return_X_y=True, as_frame=True)
y = np.where(y == 1, "benign", "malignant")
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0,
                                                    stratify=y)
rows = []
programs = {}
for name in ("mgi", "ig"):
    clf = aspml.FoldSE(heuristic=name, positive="malignant", target="diagnosis")
    clf.fit(X_train, y_train)
    programs[name] = clf
    p = clf.program_
    rows.append({"heuristic": name, "rules": p.n_rules, "literals": p.n_literals,
                 "test accuracy": round(float(np.mean(clf.predict(X_test) == y_test)), 3)})
pd.DataFrame(rows).set_index("heuristic")

# %%
programs["mgi"]

# %%
programs["ig"]

# %% [markdown]
# ## Questions
#
# 1. In the first comparison (higher is better), which literal does MGI prefer,
#    and which does IG? What does each choice leave to learn next: another rule
#    for the positives left, or an exception for the negatives covered?
# 2. In the trace, find the step where an exception is started. How many false
#    positives does it have to explain, and which literal does it choose?
# 3. Change `ratio` or `tail` (FOLD-SE's two stopping parameters; see
#    `help(aspml.FoldSE)`) and re-run the comparison. Which one changes the size
#    of the program most?
# 4. The two programs differ in size and in test accuracy on this split. Which
#    would you rather show a doctor, and why? Is one split enough to tell which
#    heuristic is the more accurate?
