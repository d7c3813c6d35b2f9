"""Multi-value Rule Sets on a small made-up table: what value sets buy, and what the prior costs.

    python examples/mrs_value_sets/run.py
"""

import warnings

import numpy as np

import aspml
from loans import loans      # this folder's table

# 800 loan applicants. Who defaults follows three hidden rules, each over a *set* of values
# (see loans.py), and 3% of the labels are flipped at random.
X, y = loans()
train, test = slice(0, 600), slice(600, None)
print(f"{len(X)} rows, {y.mean():.0%} default; the first 600 to learn from, the last 200 to test\n")


def show(title, clf):
    acc = np.mean(clf.predict(X[test]) == y[test])
    p = clf.program_
    print(f"{title}: {p.n_rules} rules, {p.n_literals} conditions, test accuracy {acc:.3f}")
    print(p.to_text())


# 1. Multi-value rules: one condition holds a set of values, so one rule says what
#    single-value rules need several for.
mrs = aspml.MultiValueRuleSet(n_iter=3000, min_support=0.02, random_state=0)
show("MultiValueRuleSet (beta_M = beta_L = 10, the defaults)", mrs.fit(X[train], y[train]))
show("FoldSE, single values", aspml.FoldSE().fit(X[train], y[train]))

# 2. The prior's price. Each rule and each value in it costs about log(1 + beta) nats of
#    log posterior; a rule stays only when the rows it gets right are worth more.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    strict = aspml.MultiValueRuleSet(n_iter=3000, min_support=0.02, random_state=0,
                                     beta_M=1000, beta_L=1000).fit(X[train], y[train])
show("MultiValueRuleSet, beta_M = beta_L = 1000", strict)

# The ledger of the FL/GA rule, in the model's own terms (eqs. 2-3 of the paper): what it
# adds to the log likelihood against what it takes from the log prior, at both settings.
from aspml.learners import _mrs_model as mm        # noqa: E402  (aspml's posterior)


def hyper(beta):
    """The learner's settings: alpha_M = alpha_L = theta = 1, alpha_+- = 100, beta_+- = 1."""
    return mm.Hyper(1, beta, 1, beta, 1, 100, 1, 100, 1, X.shape[1], mrs.rho_min)


def log_likelihood(model):
    hit, t = model.decision(X[train]), y[train]
    return float(mm.log_likelihood(np.sum(hit & t), np.sum(hit & ~t), t.sum(), (~t).sum(),
                                   hyper(10)))      # the likelihood does not depend on beta


rule = next(r for r in mrs.rules_ if any(f == "state" and "FL" in v for f, v in r))
sizes = [len(values) for _, values in rule]          # values per condition: 2, 2, 1
more = np.sum(mrs.decision(X[train]) & ~strict.decision(X[train]))
gain = log_likelihood(mrs) - log_likelihood(strict)
print(f"The FL/GA rule: {sum(sizes)} values, {more} more training rows covered, "
      f"log likelihood {gain:+.1f} nats.")
for beta in (10, 1000):
    cost = float(mm.log_nb(3, 1, beta) - mm.log_nb(2, 1, beta)) + mm.rule_prior(sizes, hyper(beta))
    print(f"  log prior at beta_M = beta_L = {beta}: {cost:+.1f} nats, so "
          f"{'it stays' if gain + cost > 0 else 'it goes'}")
