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
def constrained(lo_u, hi_u, bits_u, cat_start, fidx, kidx):
    """The features box ``u`` constrains: numeric ones into ``fidx``, categorical into ``kidx``.

    Returns ``(nf, nk)``.  A feature ``u`` leaves free contains everything, so
    containment and row tests need only look at these.
    """
    nf = 0
    for f in range(lo_u.shape[0]):
        if not (lo_u[f] == -np.inf and hi_u[f] == np.inf):
            fidx[nf] = f
            nf += 1
    nk = 0
    for k in range(cat_start.shape[0] - 1):
        if not bits_u[cat_start[k + 1] - 1]:
            kidx[nk] = k
            nk += 1
    return nf, nk


@numba.njit(cache=True)
def contains_on(fidx, nf, kidx, nk, cat_start, lo_u, hi_u, loc_u, hic_u, bits_u,
                lo, hi, loc, hic, bits, o):
    """:func:`box_contains` of slot ``o`` (rows of the 2-D arrays), looking only at the
    features ``u`` constrains."""
    for t in range(nf):
        f = fidx[t]
        if not lower_within(lo_u[f], loc_u[f], lo[o, f], loc[o, f]):
            return False
        if not upper_within(hi_u[f], hic_u[f], hi[o, f], hic[o, f]):
            return False
    for t in range(nk):
        k = kidx[t]
        for b in range(cat_start[k], cat_start[k + 1]):
            if bits[o, b] and not bits_u[b]:
                return False
    return True


@numba.njit(cache=True)
def bound_masks(lo_u, hi_u, bits_u, cat_start):
    """Bit ``f`` (f < 63) set where the box has a finite lower end / upper end / a value
    set on feature ``f``: a quick necessary test of containment."""
    mlo = 0
    mhi = 0
    mcat = 0
    for f in range(min(lo_u.shape[0], 63)):
        if lo_u[f] != -np.inf:
            mlo |= 1 << f
        if hi_u[f] != np.inf:
            mhi |= 1 << f
    for k in range(min(cat_start.shape[0] - 1, 63)):
        if not bits_u[cat_start[k + 1] - 1]:
            mcat |= 1 << k
    return mlo, mhi, mcat


@numba.njit(cache=True)
def all_bound_masks(n, lo, hi, bits, cat_start):
    mlo = np.zeros(n, dtype=np.int64)
    mhi = np.zeros(n, dtype=np.int64)
    mcat = np.zeros(n, dtype=np.int64)
    for o in range(n):
        mlo[o], mhi[o], mcat[o] = bound_masks(lo[o], hi[o], bits[o], cat_start)
    return mlo, mhi, mcat


@numba.njit(cache=True)
def first_above(col, v, strict):
    """First index of sorted ``col`` (NaN last) holding a value ``> v`` (``strict``) or
    ``>= v``; NaN counts as above everything."""
    lo = 0
    hi = col.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        below = col[mid] <= v if strict else col[mid] < v
        if below:
            lo = mid + 1
        else:
            hi = mid
    return lo


@numba.njit(cache=True)
def row_in_box_on(r, fidx, nf, kidx, nk, lo_u, hi_u, loc_u, hic_u, bits_u, xn, xc):
    """:func:`row_in_box` looking only at the features ``u`` constrains."""
    for t in range(nf):
        f = fidx[t]
        x = xn[r, f]
        if np.isnan(x):
            return False
        lo = lo_u[f]
        if not (x > lo or (loc_u[f] and x == lo)):
            return False
        hi = hi_u[f]
        if not (x < hi or (hic_u[f] and x == hi)):
            return False
    for t in range(nk):
        k = kidx[t]
        c = xc[r, k]
        if c < 0 or not bits_u[c]:
            return False
    return True


@numba.njit(cache=True)
def passes(lo_u, hi_u, loc_u, hic_u, bits_u, plo_u, phi_u, a, b,
           lo, hi, loc, hic, bits, plo, phi, n_orig, owner, eps, rho,
           cat_start, xn, xc, rlo, rhi, xs, order, mlo, mhi, mcat,
           olo, olo_ord, ohi, ohi_ord, fidx, kidx):
    """Algorithm 1's acceptance test of union ``u`` of slots ``a`` and ``b``.

    CC >= rho over the original rules (Definition 4), every original that ``a``
    or ``b`` stands for covered correctly, and with reference rows fidelity >=
    rho (Definition 10).  Both counts stop as soon as the threshold is out of
    reach (``rho * wrong > (1 - rho) * (right + still unseen)``).  ``xs[f]`` holds
    numeric column ``f`` sorted (NaN last) and ``order[f]`` its rows in that
    order, so only the rows within the box's narrowest condition are visited.
    """
    nf, nk = constrained(lo_u, hi_u, bits_u, cat_start, fidx, kidx)
    ulo, uhi, ucat = bound_masks(lo_u, hi_u, bits_u, cat_start)
    # candidates: originals whose lower end is at or above u's (a suffix of the originals
    # sorted by lower end) or whose upper end is at or below u's (a prefix of those sorted
    # by upper end), on the feature and side leaving the fewest; any original inside u
    # (the members of a and b among them) is a candidate
    cstart, cstop, side, cf = 0, n_orig, -1, 0
    for t in range(nf):
        f = fidx[t]
        if lo_u[f] != -np.inf:
            i = first_above(olo[f], lo_u[f], False)
            if n_orig - i < cstop - cstart:
                cstart, cstop, side, cf = i, n_orig, 0, f
        if hi_u[f] != np.inf:
            j = first_above(ohi[f], hi_u[f], True)
            if j < cstop - cstart:
                cstart, cstop, side, cf = 0, j, 1, f
    slack = 1.0 - rho
    correct = 0
    wrong = 0
    for q in range(cstart, cstop):
        o = q if side < 0 else (olo_ord[cf, q] if side == 0 else ohi_ord[cf, q])
        if (ulo & ~mlo[o]) == 0 and (uhi & ~mhi[o]) == 0 and (ucat & ~mcat[o]) == 0 and \
                contains_on(fidx, nf, kidx, nk, cat_start, lo_u, hi_u, loc_u, hic_u, bits_u,
                            lo, hi, loc, hic, bits, o):
            if congruent(plo_u, phi_u, plo[o], phi[o], eps):
                correct += 1
            else:
                if owner[o] == a or owner[o] == b:
                    return False
                wrong += 1
                if rho * wrong > slack * (correct + cstop - q - 1) + TOL:
                    return False
    if correct + wrong == 0 or correct < rho * (correct + wrong) - TOL:
        return False
    if xn.shape[0] == 0:
        return True
    # the reference rows: only those inside the box's narrowest numeric condition
    start, stop, best = 0, xn.shape[0], -1
    for t in range(nf):
        f = fidx[t]
        col = xs[f]
        i = first_above(col, lo_u[f], not loc_u[f])
        j = first_above(col, hi_u[f], hic_u[f])
        if best < 0 or j - i < stop - start:
            start, stop, best = i, j, f
    agree = 0
    disagree = 0
    for q in range(start, stop):
        r = order[best, q] if best >= 0 else q
        if np.isnan(rlo[r]):
            continue
        if row_in_box_on(r, fidx, nf, kidx, nk, lo_u, hi_u, loc_u, hic_u, bits_u, xn, xc):
            if congruent(plo_u, phi_u, rlo[r], rhi[r], eps):
                agree += 1
            else:
                disagree += 1
                if rho * disagree > slack * (agree + stop - q - 1) + TOL:
                    return False
    if agree + disagree > 0 and agree < rho * (agree + disagree) - TOL:
        return False
    return True


@numba.njit(cache=True)
def scan_pairs(pa, pb, pd, start, limit, alive, lo, hi, loc, hic, bits, plo, phi,
               n_orig, owner, eps, rho, cat_start, xn, xc, rlo, rhi, xs, order,
               mlo, mhi, mcat, olo, olo_ord, ohi, ohi_ord, lo_u, hi_u, loc_u, hic_u, bits_u):
    """Algorithm 1's inner step over a distance-sorted run of candidate pairs.

    From ``start``, while ``pd[k] <= limit``: skip pairs with a dead rule, unite
    the pair, and stop at the first union that :func:`passes`.  Returns
    ``(k, accepted)``: the first pair not yet examined, and whether pair
    ``k - 1`` was accepted (its union then sits in ``lo_u ... bits_u``).
    """
    fidx = np.empty(lo.shape[1], dtype=np.int64)
    kidx = np.empty(cat_start.shape[0], dtype=np.int64)
    k = start
    while k < pa.shape[0] and pd[k] <= limit:
        a = pa[k]
        b = pb[k]
        k += 1
        if not (alive[a] and alive[b]):
            continue
        union_box(lo[a], hi[a], loc[a], hic[a], bits[a], lo[b], hi[b], loc[b], hic[b], bits[b],
                  lo_u, hi_u, loc_u, hic_u, bits_u)
        if passes(lo_u, hi_u, loc_u, hic_u, bits_u, min(plo[a], plo[b]), max(phi[a], phi[b]),
                  a, b, lo, hi, loc, hic, bits, plo, phi, n_orig, owner, eps, rho,
                  cat_start, xn, xc, rlo, rhi, xs, order, mlo, mhi, mcat,
                  olo, olo_ord, ohi, ohi_ord, fidx, kidx):
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
