# Lesson 7 of the aspml notebooks: a learned program inside a knowledge base.
# needs: swipl

# %% [markdown]
# # 7. A learned program next to a knowledge base
#
# A learned program is a logic program, so it can live **inside** a knowledge
# base: read the same facts, use the same concepts, answer queries that join
# its conclusions with everything else the knowledge base knows — in Prolog and
# in ASP alike.
#
# A clinic keeps a small knowledge base (`examples/knowledge_base/`): which ward
# each patient is in, who leads each ward, and four concepts its doctors use.

# %%
import subprocess
import tempfile
from pathlib import Path

import clingo
import pandas as pd

import aspml

kb = Path("../knowledge_base")
patients = pd.read_csv(kb / "patients.csv")
print((kb / "clinic.lp").read_text())
patients.head()

# %% [markdown]
# ## Learning in the clinic's words
#
# Without the theory, FOLD-SE finds thresholds of its own. With
# `background=clinic.lp`, the four concepts become Boolean features the learner
# may use by name, and where a concept and a threshold fit equally well, the
# concept wins. The program carries its background rules with it.

# %%
X, y = patients.drop(columns=["name", "readmitted"]), patients["readmitted"]
plain = aspml.FoldSE(target="readmitted", positive="yes").fit(X, y)
print(plain.program_.to_text())

# %%
clf = aspml.FoldSE(target="readmitted", positive="yes", background=str(kb / "clinic.lp"))
clf.fit(X, y)

# %% [markdown]
# ## Why does Dev Lee not come back?
#
# The justification descends into the background rules like into any other
# rule: the exception `ab1` holds because Dev Lee is neither hypertensive nor
# obese, and each of those is a background rule that does not fire.

# %%
aspml.explain(clf, X.iloc[[7]])

# %% [markdown]
# ## In Prolog, next to the knowledge base
#
# `aspml.export` writes the program with the patients' facts, each patient
# named by the `name` column (`key="name"`), and the program's own helper
# predicates prefixed (`clinic_ab1`), so that it shares the knowledge base with
# other programs. `wards.pl` holds the rest of the knowledge base.

# %%
work = Path(tempfile.mkdtemp())
(work / "readmission.pl").write_text(
    aspml.export(clf, "prolog", patients.drop(columns="readmitted"), key="name", prefix="clinic"))


def swipl(goal):
    done = subprocess.run(["swipl", "-q", "-g", goal, "-t", "halt", str(work / "readmission.pl"),
                           str(kb / "wards.pl")], capture_output=True, text=True, timeout=60)
    return done.stdout + done.stderr


print(swipl("forall(readmitted('Hana Ng', V), writeln(V))"))
print(swipl("forall(leads(D, W), (aggregate_all(count, distinct(P, (ward(P, W), "
            "readmitted(P, yes))), N), format('~w (~w): ~w readmitted~n', [W, D, N])))"))

# %% [markdown]
# ## In ASP, with clingo
#
# The same program and facts in the ASP dialect, with `wards.lp`, and two
# questions: how many patients of each ward come back, and which elderly
# cardiology patients the program lets go home because its exception holds.

# %%
questions = """
per_ward(W, D, N) :- leads(D, W), N = #count { P : ward(P, W), readmitted(P, "yes") }.
sent_home(P) :- clinic_elderly(P), clinic_ab1(P), ward(P, cardiology).
#show per_ward/3.
#show sent_home/1.
"""
program = aspml.export(clf, "asp", patients.drop(columns="readmitted"), key="name",
                       prefix="clinic")
control = clingo.Control(["--warn=none"])
control.add("base", [], program + (kb / "wards.lp").read_text() + questions)
control.ground([("base", [])])
with control.solve(yield_=True) as answers:
    shown = next(iter(answers)).symbols(shown=True)   # a stratified program: one answer set
sorted(str(atom) for atom in shown)

# %% [markdown]
# ## Questions
#
# 1. Compare the two learned programs. Which would a doctor at the clinic
#    accept more readily, and why?
# 2. The ASP query uses `clinic_elderly`, but the background rule is written
#    `elderly`. Look at the exported program: which predicates got the prefix,
#    and which did not? Why?
# 3. Write a Prolog query for the patients the program sends home although they
#    are elderly. Does it agree with clingo's `sent_home`?
# 4. Add a concept to `clinic.lp` (for instance `young(X) :- age(X,A), A < 30.`)
#    and learn again. Does the learner use it?
