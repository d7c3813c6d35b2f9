"""The MRS posterior (Wang, NeurIPS 2018, eqs. 2-3) and the support bound of Lemma 1 / Theorem 2.

Prior (eq. 2), with the constant ``C`` written out:

* number of rules ``M``: Poisson with a Gamma(alpha_M, beta_M) rate, i.e. the
  negative binomial ``NB(M) = G(M+aM)/(G(M+1)G(aM)) (bM/(1+bM))^aM (1+bM)^-M``;
* items per rule ``L >= 1``: the same Poisson-Gamma mass ``NB(L; aL, bL)``
  with ``L = 0`` left out (not renormalised -- this is the reading that gives
  the paper's ``Omega`` in Theorem 2);
* features of the ``L`` items: Dirichlet-multinomial with ``theta`` for every
  one of the ``J`` features, ``G(J th)/G(L + J th) prod_j G(l_j + th)/G(th)``
  (``l_j`` items of feature ``j``: the values of its condition).  The
  truncation ``l_j <= |V_j|`` is not renormalised either.

Likelihood (eq. 3): ``B(TP + a+, FP + b+) B(TN + a-, FN + b-)``.  With
``rho_min > 0`` the two Beta priors are truncated to ``[rho_min, 1]`` (a
covered row is positive, an uncovered one negative, at least that often), so
each Beta function becomes ``T(a, b) = B(a, b) I_{1-rho_min}(b, a)``.  Eq. (3)
as printed is symmetric in ``a, b`` up to the pseudo-counts; with tens of
thousands of rows it scores a rule set covering mostly *negatives* as well as
its complement, and the search then finds such inverted sets.

All logs are natural; ``rule_term`` is ``log NB(L) + log DM(l)`` of one rule.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import betainc, betaln, gammaln


@dataclass(frozen=True)
class Hyper:
    alpha_M: float
    beta_M: float
    alpha_L: float
    beta_L: float
    theta: float
    alpha_plus: float
    beta_plus: float
    alpha_minus: float
    beta_minus: float
    n_features: int
    rho_min: float = 0.0


def log_nb(k, a: float, b: float):
    """Log of the Poisson-Gamma (negative binomial) mass at ``k`` (array or scalar)."""
    k = np.asarray(k, dtype=float)
    return (gammaln(k + a) - gammaln(k + 1) - gammaln(a) + a * math.log(b / (1 + b))
            - k * math.log1p(b))


def feature_term(l, theta: float):
    """``log G(l + theta) - log G(theta)``: one condition of ``l`` values."""
    return gammaln(np.asarray(l, dtype=float) + theta) - gammaln(theta)


def rule_term(L, features_sum, h: Hyper):
    """Log prior factor of a rule with ``L`` items whose feature terms add to ``features_sum``."""
    jt = h.n_features * h.theta
    L = np.asarray(L, dtype=float)
    return (log_nb(L, h.alpha_L, h.beta_L) + gammaln(jt) - gammaln(L + jt) + features_sum)


def rule_prior(sizes, h: Hyper) -> float:
    """Log prior factor of one rule given the sizes of its conditions."""
    return float(rule_term(sum(sizes), sum(float(feature_term(s, h.theta)) for s in sizes), h))


def log_prior(rules_sizes, h: Hyper) -> float:
    """Log prior of a rule set, each rule given as the list of its condition sizes."""
    return float(log_nb(len(rules_sizes), h.alpha_M, h.beta_M)) + sum(
        rule_prior(s, h) for s in rules_sizes)


def log_truncated_beta(a, b, lo: float):
    """``log of the integral of r**(a-1) (1-r)**(b-1) over [lo, 1]`` (``B(a, b)`` when ``lo = 0``).

    Where the regularized incomplete Beta underflows (the mass sits far below
    ``lo``), the integral is the boundary Laplace term
    ``lo**(a-1) (1-lo)**(b-1) / ((b-1)/(1-lo) - (a-1)/lo)``.
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    full = betaln(a, b)
    if lo <= 0:
        return full
    tail = betainc(b, a, 1.0 - lo)
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = (b - 1) / (1 - lo) - (a - 1) / lo
        laplace = (a - 1) * math.log(lo) + (b - 1) * math.log1p(-lo) - np.log(slope)
        return np.where(tail > 0, full + np.log(np.where(tail > 0, tail, 1.0)),
                        np.where(slope > 0, laplace, -np.inf))


def log_likelihood(tp, fp, n_pos: int, n_neg: int, h: Hyper):
    """Log of eq. (3) (priors truncated at ``rho_min``) for arrays of TP and FP counts."""
    tp = np.asarray(tp, dtype=float)
    fp = np.asarray(fp, dtype=float)
    return (log_truncated_beta(tp + h.alpha_plus, fp + h.beta_plus, h.rho_min)
            + log_truncated_beta(n_neg - fp + h.alpha_minus, n_pos - tp + h.beta_minus,
                                 h.rho_min))


def upsilon(n_pos: int, n_neg: int, h: Hyper) -> float:
    """Lower bound on the likelihood ratio of uncovering one row (Lemma 1's Upsilon).

    Uncovering a positive multiplies eq. (3) by at least the paper's
    ``b-(N+ + a+ + b+ - 1) / ((N- + a- + b-)(N+ + a+ - 1))``; uncovering a
    negative by at least ``a- / (N+ + a- + b-)``.  The smaller of the two is
    returned, so ``lik(R minus r) >= Upsilon**supp(r) * lik(R)`` for any rule.

    With truncated priors each ratio is a posterior mean of ``1/rho+`` (>= 1)
    times ``1 - rho-`` (uncovering a positive) or of ``rho-`` (a negative);
    truncation keeps the orderings these minima rely on, ``E[rho-] >= rho_min``,
    and the positive case is evaluated exactly at its worst corner.
    """
    if h.rho_min <= 0:
        pos = (h.beta_minus * (n_pos + h.alpha_plus + h.beta_plus - 1)
               / ((n_neg + h.alpha_minus + h.beta_minus) * (n_pos + h.alpha_plus - 1)))
        neg = h.alpha_minus / (n_pos + h.alpha_minus + h.beta_minus)
        return min(pos, neg)
    a, b = n_neg + h.alpha_minus, h.beta_minus
    pos = math.exp(float(log_truncated_beta(a, b + 1, h.rho_min)
                         - log_truncated_beta(a, b, h.rho_min)))
    neg = max(h.rho_min, h.alpha_minus / (n_pos + h.alpha_minus + h.beta_minus))
    return min(pos, neg)


def max_rule_term(h: Hyper, max_items: int) -> float:
    """Largest log prior factor of any rule of at most ``max_items`` items (all on one feature)."""
    L = np.arange(1, max(1, max_items) + 1, dtype=float)
    return float(np.max(rule_term(L, feature_term(L, h.theta), h)))


@dataclass(frozen=True)
class Bound:
    """The rules a MAP model can hold: at most ``max_rules``, each covering ``>= min_support`` rows."""

    max_rules: int
    min_support: int


def support_bound(best: float, n_pos: int, n_neg: int, h: Hyper, max_items: int,
                  cap: int = 100_000) -> Bound:
    """Theorem 2 of the paper, derived for this prior: bounds that hold for every MAP model.

    ``best`` is the log posterior of some model found so far (``v[t]``).
    ``max_rules`` is the largest ``M`` with
    ``log L* + log NB(M) + M * max_rule_term >= best`` (no model with more
    rules can beat ``best``).  A rule ``z`` of a MAP model ``R`` satisfies
    ``p(R) >= p(R minus z)``; Lemma 1 bounds the likelihood side by
    ``supp(z) * log(1/Upsilon)``, and the prior side is at least
    ``min over 1 <= M <= max_rules of log NB(M-1) - log NB(M)`` minus
    ``max_rule_term``; so ``supp(z) >= that / log(1/Upsilon)``.
    """
    valid = (h.alpha_plus > h.beta_plus and h.alpha_minus > h.beta_minus)
    ups = upsilon(n_pos, n_neg, h)
    fmax = max_rule_term(h, max_items)
    # L*: eq. (3) at a perfect split; truncation only lowers the likelihood
    log_lstar = float(log_likelihood(n_pos, 0, n_pos, n_neg,
                                     Hyper(**{**h.__dict__, "rho_min": 0.0})))
    m_max = 0
    prev = -np.inf
    for m in range(cap + 1):
        g = log_lstar + float(log_nb(m, h.alpha_M, h.beta_M)) + m * fmax
        if g >= best:
            m_max = m
        elif g < prev:          # falling and already below: it never comes back up
            break
        prev = g
    if not valid or ups >= 1.0 or m_max == 0:
        return Bound(m_max, 0)
    ms = np.arange(1, m_max + 1)
    step = np.min(log_nb(ms - 1, h.alpha_M, h.beta_M) - log_nb(ms, h.alpha_M, h.beta_M))
    need = (step - fmax) / math.log(1.0 / ups)
    return Bound(m_max, max(0, math.ceil(need - 1e-9)))
