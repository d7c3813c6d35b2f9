# Lesson 4 of the aspml notebooks: MRS's posterior, why a rule stays or goes.

# %% [markdown]
# # 4. Multi-value rule sets: why a rule stays or goes
#
# A **multi-value rule set** (MRS, Wang 2018) is a set of rules whose conditions
# hold *sets* of values: `state in {"AZ", "CA", "TX"} AND age < 29`. It is
# learned by a Bayesian search: every rule set has a **posterior**
#
# $$\log P(R \mid D) = \underbrace{\log P(D \mid R)}_{\text{likelihood}} + \underbrace{\log P(R)}_{\text{prior}} + \text{const},$$
#
# and simulated annealing looks for the set with the highest one. The prior
# charges for every rule and for every value in a condition; the likelihood
# pays for the rows the rules get right. **A rule stays when the rows it gets
# right are worth more than what it costs.**

# %%
import sys
import warnings

import numpy as np
import pandas as pd

import aspml
from aspml.learners import _mrs_model as mm          # aspml's posterior, term by term

sys.path.insert(0, "../mrs_value_sets")
from loans import loans                              # noqa: E402  (the example's table)

# %% [markdown]
# ## The data
#
# 800 made-up loan applicants. Who defaults follows three hidden rules, each over
# a set of values (see `examples/mrs_value_sets/loans.py`), and 3% of the labels
# are flipped.

# %%
X, y = loans()
train, test = slice(0, 600), slice(600, None)
X.head()

# %%
mrs = aspml.MultiValueRuleSet(n_iter=1000, min_support=0.02, random_state=0)
mrs.fit(X[train], y[train])

# %% [markdown]
# Three rules, one per hidden rule; each condition holds a set. Compare with
# FOLD-SE, whose conditions hold one value each:

# %%
fold = aspml.FoldSE().fit(X[train], y[train])
pd.DataFrame([{"learner": name, "rules": c.program_.n_rules,
               "conditions": c.program_.n_literals,
               "test accuracy": round(float(np.mean(c.predict(X[test]) == y[test])), 3)}
              for name, c in [("MRS", mrs), ("FOLD-SE", fold)]]).set_index("learner")

# %% [markdown]
# ## What a rule costs
#
# The prior of one rule (eqs. 2–3 of the paper) depends on its length and on the
# number of values in each condition. With `beta_M = beta_L = β`, each extra
# value costs about `log(1 + β)` nats: ten times β, about 2.3 nats more per value.

# %%
def hyper(beta):
    """The learner's settings: alpha_M = alpha_L = theta = 1, alpha_+- = 100, beta_+- = 1."""
    return mm.Hyper(1, beta, 1, beta, 1, 100, 1, 100, 1, X.shape[1], mrs.rho_min)


pd.DataFrame({f"beta = {beta}": [round(mm.rule_prior(sizes, hyper(beta)), 1)
                                 for sizes in ([1], [2], [2, 1], [2, 2, 1])]
              for beta in (10, 1000)},
             index=["1 condition, 1 value", "1 condition, 2 values", "2 conditions, 3 values",
                    "3 conditions, 5 values"])

# %% [markdown]
# ## A stronger prior
#
# With `β = 1000` every value costs more. The search now drops the rule for
# retired applicants in Florida and Georgia:

# %%
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    strict = aspml.MultiValueRuleSet(n_iter=1000, min_support=0.02, random_state=0,
                                     beta_M=1000, beta_L=1000).fit(X[train], y[train])
strict

# %% [markdown]
# ## The ledger of that rule
#
# What does the FL/GA rule add to the likelihood, and what does it take from the
# prior, at both settings? The two rule sets differ by that rule alone, so the
# likelihood gain is the difference of their likelihoods.

# %%
def log_likelihood(model):
    hit, t = model.decision(X[train]), y[train]
    return float(mm.log_likelihood(np.sum(hit & t), np.sum(hit & ~t), t.sum(), (~t).sum(),
                                   hyper(10)))       # the likelihood does not depend on beta


rule = next(r for r in mrs.rules_ if any(f == "state" and "FL" in v for f, v in r))
sizes = [len(values) for _, values in rule]
gain = log_likelihood(mrs) - log_likelihood(strict)
print("the rule:", rule)
print(f"values per condition {sizes}; log likelihood gain {gain:+.1f} nats")
for beta in (10, 1000):
    # adding the rule: one more rule in the count (log NB of 3 against 2), and its own prior
    cost = float(mm.log_nb(3, 1, beta) - mm.log_nb(2, 1, beta)) + mm.rule_prior(sizes, hyper(beta))
    print(f"beta = {beta:4d}: log prior {cost:+.1f} nats, total {gain + cost:+.1f}: "
          + ("it stays" if gain + cost > 0 else "it goes"))

# %% [markdown]
# ## Questions
#
# 1. The FL/GA rule covers fewer applicants than the other two. Why is it the
#    first to go when β grows?
# 2. Estimate the β at which the rule's ledger crosses zero. Fit with that β and
#    check.
# 3. Flip more labels (change `loans(...)` to add noise). Which rule's
#    likelihood gain shrinks first?
# 4. MRS and FOLD-SE reach similar accuracy. Count the conditions a reader must
#    check to classify one applicant with each program.
