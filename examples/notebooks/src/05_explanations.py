# Lesson 5 of the aspml notebooks: explanations and counterfactuals for one patient.

# %% [markdown]
# # 5. Why this level? Explanations and counterfactuals for one patient
#
# A learned program is its own explanation — but a reader still has to find, for
# one row, *which* rule decided, which literals held with which values, and
# which exceptions did or did not apply. `aspml.explain` does that the way
# s(CASP) justification trees read; `aspml.counterfactual` finds the smallest
# change that would give another answer.
#
# The data: a made-up emergency-department triage table
# (`examples/multiclass/make_triage.py`): age, pulse, temperature, pain and
# breathing of 400 patients, each triaged `emergency`, `urgent` or `routine`.

# %%
import sys

import pandas as pd

import aspml

sys.path.insert(0, "../multiclass")
from make_triage import triage_table                 # noqa: E402

table = triage_table(400, seed=0)
X, y = table.drop(columns="level"), table["level"]
X.head()

# %% [markdown]
# FOLD-SE learns a **decision list**: the first rule that holds decides the
# class; a patient no rule covers gets the default class.

# %%
clf = aspml.FoldSE(tail=0.015, target="level").fit(X, y)
clf

# %% [markdown]
# ## One patient
#
# A child with a fever: the hidden triage rule says a temperature of 38.5 or
# more is urgent, *unless* the patient is a child with only a fever under 39.5.

# %%
levels = clf.predict(X)
k = next(k for k in range(len(X)) if X.age[k] <= 13 and 38.4 < X.temp[k] < 39.5
         and levels[k] == "routine")
patient = X.iloc[[k]]        # one row, as a one-row table (docs: Data, "One row for explain")
patient

# %% [markdown]
# ## Why this level?
#
# The explanation is a tree. The verdict comes first; each rule is a
# collapsible block with every literal, the patient's value and whether it
# holds (✓ or ✗); an exception (`NOT abK`) opens onto the rules that define it.
# The earlier rules of other classes are listed with the literal that fails
# them (marked by a red bar).

# %%
why = aspml.explain(clf, patient)
why

# %% [markdown]
# The same explanation as text, and as a dictionary for programs:

# %%
print(why.to_text())
why.to_dict()["decided_by"], why.to_dict()["earlier"]

# %% [markdown]
# ## Why not urgent?
#
# `why_not="urgent"` answers the contrastive question: each rule that concludes
# `urgent`, and why it does not fire — or which earlier rule pre-empts it.

# %%
aspml.explain(clf, patient, why_not="urgent")

# %% [markdown]
# ## A minimal sufficient reason
#
# `minimal=True` asks clingo for a set of the patient's values that alone forces
# the answer, from which no value can be dropped: the other values could be
# anything.

# %%
minimal = aspml.explain(clf, patient, minimal=True)
minimal.minimal

# %% [markdown]
# ## What would make the patient urgent?
#
# A **counterfactual**: the fewest changes to the patient's values (then the
# smallest normalised distance) that give the class asked for. Age cannot
# change, so it is declared immutable.

# %%
cf = aspml.counterfactual(clf, patient, target="urgent", immutable=("age",))
cf

# %%
changed = cf.row
pd.DataFrame({"before": patient.iloc[0], "after": changed}).T.assign(
    level=[levels[k], clf.predict(changed.to_frame().T)[0]])

# %% [markdown]
# ## Questions
#
# 1. Which rule decides the patient's level? Which literal of the earlier rules
#    fails first, and with what value?
# 2. The minimal reason leaves out some of the patient's values. Pick one and
#    explain why it does not matter for this patient.
# 3. Ask for a counterfactual to `emergency`. Is it plausible medically? What
#    would you declare immutable?
# 4. Find a patient the program gets wrong (`levels != y`). Does the
#    explanation show which rule is to blame?
