"""Kernels of rule-set generalization: boxes, distances, and Algorithm 1's pair test.

A rule is a *box*: per numeric feature an interval ``lo .. hi`` with closed
flags (``-inf``/``inf`` and open when the rule has no condition on it), per
categorical feature a run of bits over the feature's values whose last bit
stands for "any other value" and is set only when the rule has no condition on
the feature.  With that encoding the paper's Definition 1 (subsumption) is
box containment, Definition 7 (union of conditions) is the enclosing box, and
"a missing feature is its full range" (§3.2) needs no special case.

Predictions are intervals ``plo .. phi``: a class is its code on both ends and
``eps = 0``; a number ``v`` is ``v .. v``.  Two predictions are congruent
(Definition 2) when ``max(phi) - min(plo) <= eps``.

Arrays in, arrays out; nothing here imports aspml.
"""

from __future__ import annotations

import numba
import numpy as np

TOL = 1e-9


@numba.njit(cache=True)
def congruent(plo_a, phi_a, plo_b, phi_b, eps):
    """Definition 2 on interval predictions (a class: code .. code with ``eps = 0``)."""
    return max(phi_a, phi_b) - min(plo_a, plo_b) <= eps + TOL * (1.0 + abs(eps))


@numba.njit(cache=True)
def lower_within(lo_u, loc_u, lo_o, loc_o):
    """The lower end ``lo_u`` admits everything the lower end ``lo_o`` admits."""
    return lo_u < lo_o or (lo_u == lo_o and (loc_u or not loc_o))


@numba.njit(cache=True)
def upper_within(hi_u, hic_u, hi_o, hic_o):
    return hi_u > hi_o or (hi_u == hi_o and (hic_u or not hic_o))


@numba.njit(cache=True)
def box_contains(lo_u, hi_u, loc_u, hic_u, bits_u, lo_o, hi_o, loc_o, hic_o, bits_o):
    """Box ``u`` contains box ``o``: every condition of ``u`` subsumes ``o``'s (Definition 1)."""
    for f in range(lo_u.shape[0]):
        if not lower_within(lo_u[f], loc_u[f], lo_o[f], loc_o[f]):
            return False
        if not upper_within(hi_u[f], hic_u[f], hi_o[f], hic_o[f]):
            return False
    for b in range(bits_u.shape[0]):
        if bits_o[b] and not bits_u[b]:
            return False
    return True


@numba.njit(cache=True)
def union_box(lo_a, hi_a, loc_a, hic_a, bits_a, lo_b, hi_b, loc_b, hic_b, bits_b,
              lo_u, hi_u, loc_u, hic_u, bits_u):
    """Definition 7 on every feature at once: the smallest box enclosing ``a`` and ``b``."""
    for f in range(lo_a.shape[0]):
        if lower_within(lo_a[f], loc_a[f], lo_b[f], loc_b[f]):
            lo_u[f] = lo_a[f]
            loc_u[f] = loc_a[f]
        else:
            lo_u[f] = lo_b[f]
            loc_u[f] = loc_b[f]
        if upper_within(hi_a[f], hic_a[f], hi_b[f], hic_b[f]):
            hi_u[f] = hi_a[f]
            hic_u[f] = hic_a[f]
        else:
            hi_u[f] = hi_b[f]
            hic_u[f] = hic_b[f]
    for b in range(bits_a.shape[0]):
        bits_u[b] = bits_a[b] or bits_b[b]


@numba.njit(cache=True)
def box_distance(nlo_a, nhi_a, bits_a, nlo_b, nhi_b, bits_b, cat_start):
    """§3.2: normalised Hausdorff distance per numeric feature, 1 - Jaccard per categorical
    one (over the feature's real values, the last "other" bit left out), summed."""
    d = 0.0
    for f in range(nlo_a.shape[0]):
        d += (abs(nlo_a[f] - nlo_b[f]) + abs(nhi_a[f] - nhi_b[f])) / 2.0
    for k in range(cat_start.shape[0] - 1):
        inter = 0
        uni = 0
        for b in range(cat_start[k], cat_start[k + 1] - 1):
            if bits_a[b] and bits_b[b]:
                inter += 1
            if bits_a[b] or bits_b[b]:
                uni += 1
        if uni > 0:
            d += 1.0 - inter / uni
    return d


@numba.njit(cache=True)
def distances_from(a, others, nlo, nhi, bits, cat_start):
    """Distances from slot ``a`` to each slot in ``others``."""
    out = np.empty(others.shape[0])
    for t in range(others.shape[0]):
        o = others[t]
        out[t] = box_distance(nlo[a], nhi[a], bits[a], nlo[o], nhi[o], bits[o], cat_start)
    return out


@numba.njit(cache=True)
def congruent_pairs(slots, nlo, nhi, bits, cat_start, plo, phi, eps):
    """Every congruent pair ``(slots[i], slots[j])``, ``i < j``, with its distance."""
    n = slots.shape[0]
    count = 0
    for i in range(n):
        for j in range(i + 1, n):
            if congruent(plo[slots[i]], phi[slots[i]], plo[slots[j]], phi[slots[j]], eps):
                count += 1
    pa = np.empty(count, dtype=np.int64)
    pb = np.empty(count, dtype=np.int64)
    pd = np.empty(count)
    c = 0
    for i in range(n):
        a = slots[i]
        for j in range(i + 1, n):
            b = slots[j]
            if congruent(plo[a], phi[a], plo[b], phi[b], eps):
                pa[c] = a
                pb[c] = b
                pd[c] = box_distance(nlo[a], nhi[a], bits[a], nlo[b], nhi[b], bits[b], cat_start)
                c += 1
    return pa, pb, pd


@numba.njit(cache=True)
def row_in_box(r, lo_u, hi_u, loc_u, hic_u, bits_u, cat_start, xn, xc):
    """Row ``r`` of the reference data satisfies every condition of the box.

    ``xn``: numbers (NaN when missing or not a number); ``xc``: the global bit
    of the row's value per categorical feature, -1 when missing.  A feature the
    box leaves free (unbounded both ways / "other" bit set) holds for any value.
    """
    for f in range(lo_u.shape[0]):
        lo = lo_u[f]
        hi = hi_u[f]
        if lo == -np.inf and hi == np.inf:
            continue
        x = xn[r, f]
        if np.isnan(x):
            return False
        if not (x > lo or (loc_u[f] and x == lo)):
            return False
        if not (x < hi or (hic_u[f] and x == hi)):
            return False
    for k in range(cat_start.shape[0] - 1):
        if bits_u[cat_start[k + 1] - 1]:
            continue
        c = xc[r, k]
        if c < 0 or not bits_u[c]:
            return False
    return True


@numba.njit(cache=True)
def rows_in_box(lo_u, hi_u, loc_u, hic_u, bits_u, cat_start, xn, xc):
    out = np.zeros(xn.shape[0], dtype=np.bool_)
    for r in range(xn.shape[0]):
        out[r] = row_in_box(r, lo_u, hi_u, loc_u, hic_u, bits_u, cat_start, xn, xc)
    return out


@numba.njit(cache=True)
def assess(lo_u, hi_u, loc_u, hic_u, bits_u, plo_u, phi_u, a, b,
           lo, hi, loc, hic, bits, plo, phi, n_orig, owner, eps,
           cat_start, xn, xc, rlo, rhi, stats):
    """Coverage of the original rules by box ``u`` (Definitions 1, 3, 4) and, with
    reference rows, its fidelity (Definition 10).

    ``stats`` receives ``[covered, correct, applicable rows, congruent rows,
    members of a or b wrongly covered]``.
    """
    covered = 0
    correct = 0
    bad_member = 0
    for o in range(n_orig):
        if box_contains(lo_u, hi_u, loc_u, hic_u, bits_u, lo[o], hi[o], loc[o], hic[o], bits[o]):
            covered += 1
            if congruent(plo_u, phi_u, plo[o], phi[o], eps):
                correct += 1
            elif owner[o] == a or owner[o] == b:
                bad_member += 1
        elif owner[o] == a or owner[o] == b:
            bad_member += 1       # cannot happen for a true union; kept as a guard
    applicable = 0
    agree = 0
    for r in range(xn.shape[0]):
        if np.isnan(rlo[r]):
            continue
        if row_in_box(r, lo_u, hi_u, loc_u, hic_u, bits_u, cat_start, xn, xc):
            applicable += 1
            if congruent(plo_u, phi_u, rlo[r], rhi[r], eps):
                agree += 1
    stats[0] = covered
    stats[1] = correct
    stats[2] = applicable
    stats[3] = agree
    stats[4] = bad_member


@numba.njit(cache=True)
def scan_pairs(pa, pb, pd, start, limit, alive, lo, hi, loc, hic, bits, plo, phi,
               n_orig, owner, eps, rho, cat_start, xn, xc, rlo, rhi,
               lo_u, hi_u, loc_u, hic_u, bits_u, stats):
    """Algorithm 1's inner step over a distance-sorted run of candidate pairs.

    From ``start``, while ``pd[k] <= limit``: skip pairs with a dead rule, unite
    the pair, accept when CC >= rho and (with reference rows) fidelity >= rho
    and every original the pair stands for stays correctly covered.  Returns
    ``(k, accepted)``: the first pair not yet examined, and whether ``k - 1``
    was accepted (its union then sits in ``lo_u ... bits_u``; ``stats`` holds
    its counts, see :func:`assess`).
    """
    k = start
    while k < pa.shape[0] and pd[k] <= limit:
        a = pa[k]
        b = pb[k]
        k += 1
        if not (alive[a] and alive[b]):
            continue
        union_box(lo[a], hi[a], loc[a], hic[a], bits[a], lo[b], hi[b], loc[b], hic[b], bits[b],
                  lo_u, hi_u, loc_u, hic_u, bits_u)
        plo_u = min(plo[a], plo[b])
        phi_u = max(phi[a], phi[b])
        assess(lo_u, hi_u, loc_u, hic_u, bits_u, plo_u, phi_u, a, b, lo, hi, loc, hic, bits,
               plo, phi, n_orig, owner, eps, cat_start, xn, xc, rlo, rhi, stats)
        if stats[4] > 0 or stats[0] == 0:
            continue
        if stats[1] < rho * stats[0] - TOL:
            continue
        if stats[2] > 0 and stats[3] < rho * stats[2] - TOL:
            continue
        return k, True
    return k, False


@numba.njit(cache=True)
def contained_slots(lo_u, hi_u, loc_u, hic_u, bits_u, plo_u, phi_u, eps, cand,
                    lo, hi, loc, hic, bits, plo, phi):
    """Which candidate slots box ``u`` covers correctly (contained and congruent)."""
    out = np.zeros(cand.shape[0], dtype=np.bool_)
    for t in range(cand.shape[0]):
        o = cand[t]
        out[t] = (congruent(plo_u, phi_u, plo[o], phi[o], eps)
                  and box_contains(lo_u, hi_u, loc_u, hic_u, bits_u,
                                   lo[o], hi[o], loc[o], hic[o], bits[o]))
    return out


@numba.njit(cache=True)
def coverage_codes(lo_u, hi_u, loc_u, hic_u, bits_u, plo_u, phi_u, eps,
                   lo, hi, loc, hic, bits, plo, phi, n_orig):
    """Per original rule: 0 not covered by box ``u``, 1 covered correctly, 2 wrongly."""
    out = np.zeros(n_orig, dtype=np.int8)
    for o in range(n_orig):
        if box_contains(lo_u, hi_u, loc_u, hic_u, bits_u, lo[o], hi[o], loc[o], hic[o], bits[o]):
            out[o] = 1 if congruent(plo_u, phi_u, plo[o], phi[o], eps) else 2
    return out
