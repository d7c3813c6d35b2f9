# Lesson 1 of the aspml notebooks: default rules and exceptions.
# needs: swipl

# %% [markdown]
# # 1. Default rules: birds, penguins and superpenguins
#
# *Birds fly.* Everybody knows the rule, and everybody knows it has exceptions:
# penguins do not fly — except, in the FOLD papers' story, **superpenguins**,
# which do. Logic programming writes this as a **default rule** with an
# **exception**, using *negation as failure*: `not ab(X)` holds when nothing
# proves `ab(X)`.
#
# In this lesson you will
#
# 1. read a default theory as aspml shows it,
# 2. see why it must be **stratified**,
# 3. compute its **answer set** with clingo, and run it in SWI-Prolog,
# 4. learn the same theory from examples with FOLD-SE.

# %%
from pathlib import Path

import clingo
import numpy as np
import pandas as pd

import aspml

birds = Path("../birds")
program = aspml.parse((birds / "birds.lp").read_text(), dialect="asp")
print((birds / "birds.lp").read_text())

# %% [markdown]
# Jupyter shows a program with its syntax coloured, and each exception rule
# **indented under the rule that uses it**: `abnormal_bird` is an exception of
# the default rule, `abnormal_penguin` an exception of the exception.

# %%
program

# %%
table = pd.read_csv(birds / "birds.csv", dtype=str).set_index("name")
table.assign(flies=program.predict(table))

# %% [markdown]
# ## Stratification
#
# `not abnormal_bird(X)` can only be decided once `abnormal_bird` is known, and
# that needs `abnormal_penguin` first. A program is **stratified** when its
# predicates can be put in such an order: nothing depends on itself through
# `not`. Then it has exactly one answer set, and every engine (clingo,
# Prolog, aspml's vectorised fast path) gives the same answers.

# %%
program.strata()          # the exceptions, in the order they are computed

# %% [markdown]
# A loop through negation has no such order. aspml reads such a program, but
# refuses to run it, with one clear error rather than a guess:

# %%
loop = """flies(X) :- bird(X), not ab1(X).
ab1(X) :- penguin(X), not ab2(X).
ab2(X) :- ostrich(X), not ab1(X)."""
looping = aspml.parse(loop, "asp")
try:
    looping.predict(pd.DataFrame({"bird": [True], "penguin": [True], "ostrich": [True]}))
except aspml.AspmlError as error:
    print("refused:", error)

# %% [markdown]
# clingo, on the other hand, accepts the loop. With an ostrich-penguin it finds
# **two** answer sets: in one `ab1` holds, in the other `ab2`. A classifier
# must give one answer, which is why learned programs are stratified.

# %%
def answer_sets(text):
    control = clingo.Control(["0", "--warn=none"])      # "0": every answer set
    control.add("base", [], text)
    control.ground([("base", [])])
    found = []
    control.solve(on_model=lambda m: found.append(sorted(str(s) for s in m.symbols(atoms=True))))
    return found


for model in answer_sets(loop + "\nbird(tux). penguin(tux). ostrich(tux)."):
    print(model)

# %% [markdown]
# ## The answer set of the birds program
#
# `aspml.export` writes the program with the facts of the rows, ready for
# clingo. Its one answer set holds each animal's facts, the exceptions that
# hold, and `flies(X)` for the animals that fly.

# %%
text = aspml.export(program, "asp", table.reset_index(drop=True))
(model,) = answer_sets(text)
print([atom for atom in model if not atom.startswith(("row(", "bird(", "penguin(", "super"))])

# %%
# the same answers from clingo (aspml.asp) and from SWI-Prolog (aspml.prolog)
pd.DataFrame({"fast path": program.predict(table),
              "clingo": aspml.asp.predict(program, table),
              "SWI-Prolog": aspml.prolog.predict(program, table)}, index=table.index)

# %% [markdown]
# ## Why does zapper fly?
#
# An explanation descends through the exceptions: zapper is a bird, and the
# exception `abnormal_bird` does not hold because zapper is a superpenguin.
# Open and close the branches.

# %%
aspml.explain(program, table.loc["zapper"])

# %% [markdown]
# ## Learning the theory from examples
#
# Two hundred animals: sparrows fly, cats do not, penguins do not, superpenguins
# do. FOLD-SE learns a default rule, then learns the rows it gets wrong as an
# exception, then the exception's own exceptions.

# %%
rng = np.random.default_rng(0)
kind = rng.choice(["sparrow", "penguin", "superpenguin", "cat"], 200, p=[.5, .25, .1, .15])
X = pd.DataFrame({"bird": kind != "cat",
                  "penguin": np.isin(kind, ["penguin", "superpenguin"]),
                  "superpenguin": kind == "superpenguin"})
y = np.where(np.isin(kind, ["sparrow", "superpenguin"]), "yes", "no")
clf = aspml.FoldSE(target="flies", positive="yes").fit(X, y)
clf            # the learned program, each rule with its coverage and precision on the rows

# %% [markdown]
# ## Questions
#
# 1. The learned exception reads `penguin AND NOT superpenguin`: where did the
#    third level of the hand-written theory go? (Hint: lesson 2 shows the
#    learning trace.)
# 2. Add a row for a wounded sparrow that does not fly. Which rule would you
#    expect FOLD-SE to add, and at which depth?
# 3. In the two answer sets of the loop, which atoms differ? Why can no
#    ordering of the rules make the loop stratified?
# 4. Change `birds.csv` so that rocky is a bird. Predict the answer before
#    running the cell.
