# Lesson 6 of the aspml notebooks: from a forest to a descriptive model.

# %% [markdown]
# # 6. From a forest to a descriptive model
#
# A random forest is made of rules — every root-to-leaf path of every tree is
# one — but far too many to read. A **descriptive model** (Adilova et al.,
# *Re-interpreting rules interpretability*) explains such a rule set by a
# smaller set of **union rules**: two rules that predict the same class are
# united into the smallest box that holds both, as long as the union stays
# **coherent** — the share of the original rules it covers that agree with it
# (CC) is at least **ρ**. The originals a union covers wrongly become its
# **exceptions**.

# %%
import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier

import aspml
from aspml.logic.printers import text_literal

X, y = load_breast_cancer(return_X_y=True, as_frame=True)
X = X[["mean radius", "mean texture", "worst concave points", "worst area"]]
forest = RandomForestClassifier(n_estimators=5, max_depth=3, random_state=0).fit(X, y)
rules = aspml.rules_from_sklearn(forest)
print(f"{len(rules)} rules from {len(forest.estimators_)} trees; the first three:")
for r in rules[:3]:
    print("   IF", " AND ".join(text_literal(c) for c in r.conditions), "THEN", r.prediction)

# %% [markdown]
# ## ρ = 1: only unions that contradict no original rule

# %%
strict = aspml.generalize(forest, rho=1.0, reference=X)
strict.stats()

# %% [markdown]
# ## ρ = 0.8: rougher, smaller
#
# Jupyter shows a descriptive model with the views of its HTML page: the
# **table view** (a row per rule, a bar per condition placed within the
# feature's range; under each union, the rules it was made from, down to the
# originals) and the **glyph view** (one small picture per rule, an axis per
# feature; the frame's colour is the class).

# %%
rough = aspml.generalize(forest, rho=0.8, reference=X)
rough

# %%
pd.DataFrame([{"rho": m.rho, **{k: m.stats()[k] for k in ("rules", "conditions", "fidelity")}}
              for m in (strict, rough)]).set_index("rho")

# %% [markdown]
# ## The union rules as text, with what each was united from

# %%
print(rough.to_text(hierarchy=True)[:2500])

# %% [markdown]
# ## Back to a logic program
#
# The rules of one class become an aspml program; each union's exceptions are
# written as `not abK`, a default rule with exceptions. The program can then be
# checked with clingo, run in Prolog or explained like any learned program.

# %%
program = rough.to_program(positive=0, digits=3)
program

# %%
agree = np.mean(program.predict(X) == (forest.predict(X) == 0))
print(f"the program agrees with the forest on {agree:.1%} of the rows")

# %% [markdown]
# ## Questions
#
# 1. Lower ρ to 0.6. How many rules remain, and what happens to fidelity?
# 2. Pick a union rule with exceptions in the table view and open its drill-down.
#    Which original rules does it contradict?
# 3. Why must every union have a coherence of at least ρ *and* (with
#    `reference=`) a fidelity of at least ρ on the data?
# 4. Compare the program with one FOLD-SE learns directly from `X, y`. Which is
#    smaller? Which is closer to the forest?
