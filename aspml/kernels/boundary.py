"""LIBRE's base learner: FindBoundary (Algorithm 1) and FindBoundaryPoint (Algorithm 2).

An inverse one-hot record over F features has exactly one zero bit per
feature (LIBRE §3), so it is stored as the F positions of its zeros; a lattice
element (a candidate boundary point) is a boolean vector over the bits.
Element ``a`` covers record ``x`` (``a <= x``) when ``a`` is 0 at each of
``x``'s zeros.  A point ``p`` conflicts with a negative record ``y`` when it
covers it (Definition 3.3); ``d_l(p, y)`` (Definition 3.4) is the number of
``y``'s zeros where ``p`` is 1, so flipping off bit ``i`` lowers it by one
for the negatives that have a zero at ``i``, and bit ``i`` is blocked exactly
when ``d_l(p, D-_i^0) = 1`` (Definition 3.5).  Every update touches only the
records with a zero at the flipped bit, and each record has F zeros: a flip
costs O(records at that bit x F), not O(records x bits).

With H1 the search needs less: see :func:`find_boundary_h1`, which indexes
the negatives so that a question about one bit reads only the records near
the point.

Heuristics (ties: lowest bit): H1 = (|S_i^0|, |D+_i^0|, d_l), H2 = (d_l, |S_i^0|, |D+_i^0|),
compared lexicographically, the largest wins; an empty ``D-_i^0`` is an
infinite distance.
"""

from __future__ import annotations

import numba
import numpy as np

INF = np.int64(1) << np.int64(40)
# H1 on fewer than this many (positive, negative) pairs keeps a count per negative
# (find_boundary_h1_counts); above it, building the index pays: adult's weak
# learners (about 2,000 x 4,000) run 25% faster with counts, 10,000 x 10,000
# synthetic records 2x faster with the index
SMALL = 1 << 25


@numba.njit(cache=True)
def _by_bit(zeros, n_bits):
    """CSR lists: for each bit, the records with a zero there."""
    n, f = zeros.shape
    counts = np.zeros(n_bits + 1, dtype=np.int64)
    for k in range(n):
        for j in range(f):
            counts[zeros[k, j] + 1] += 1
    for b in range(n_bits):
        counts[b + 1] += counts[b]
    fill = counts[:-1].copy()
    members = np.empty(n * f, dtype=np.int64)
    for k in range(n):
        for j in range(f):
            b = zeros[k, j]
            members[fill[b]] = k
            fill[b] += 1
    return counts, members


@numba.njit(cache=True)
def _zero_counts(zeros, n_bits):
    """How many records have their zero at each bit."""
    counts = np.zeros(n_bits, dtype=np.int64)
    for k in range(zeros.shape[0]):
        for j in range(zeros.shape[1]):
            counts[zeros[k, j]] += 1
    return counts


@numba.njit(cache=True)
def _search_state(pos_zeros, neg_zeros, n_bits):
    """What FindBoundary keeps: the negatives by bit, |D+_i^0|, |S_i^0| (the uncovered
    positives only), which positives are uncovered, and room for the points."""
    neg_start, neg_members = _by_bit(neg_zeros, n_bits)
    d_plus0 = _zero_counts(pos_zeros, n_bits)
    n_pos = pos_zeros.shape[0]
    return (neg_start, neg_members, d_plus0, d_plus0.copy(), np.ones(n_pos, dtype=np.bool_),
            np.zeros((n_pos, n_bits), dtype=np.bool_))


@numba.njit(cache=True)
def _seed(zeros_of_x, p, in_i):
    """Start a point at the positive record: 1 everywhere but its zeros; all of its 1s
    are candidates to flip off."""
    p[:] = True
    for z in zeros_of_x:
        p[z] = False
    in_i[:] = p


@numba.njit(cache=True)
def _retire(k, pos_zeros, uncovered, s0):
    """Positive ``k`` is covered (or gives no point): it leaves S and |S_i^0|."""
    uncovered[k] = False
    for j in range(pos_zeros.shape[1]):
        s0[pos_zeros[k, j]] -= 1


@numba.njit(cache=True)
def covers(a, zeros_of_x):
    """True when the lattice element ``a`` (bool[bits]) covers the record with these zeros."""
    for z in zeros_of_x:
        if a[z]:
            return False
    return True


@numba.njit(cache=True, nogil=True)
def find_boundary(pos_zeros, neg_zeros, n_bits, heuristic, order):
    """Boundary points for the positive and negative records (Algorithm 1).

    H1 takes :func:`find_boundary_h1` (or, on small record sets,
    :func:`find_boundary_h1_counts`), which give the same points faster; H2
    (whose first key is the distance) takes the general search below.

    Parameters
    ----------
    pos_zeros, neg_zeros : int64[n, F]   the zero bit of each feature, per distinct record
    n_bits : int                         bits in all (``d``)
    heuristic : int                      1 for H1, 2 for H2
    order : int64[n_pos]                 the order in which uncovered positives are taken

    Returns
    -------
    bool[n_A, n_bits]: the boundary points, none covering another.  A
    positive record that lies below a negative one (a conflict in the data
    itself) yields no point.
    """
    if heuristic == 1:
        if pos_zeros.shape[0] * neg_zeros.shape[0] < SMALL:
            return find_boundary_h1_counts(pos_zeros, neg_zeros, n_bits, order)
        return find_boundary_h1(pos_zeros, neg_zeros, n_bits, order, np.int64(N_FRONT))
    return find_boundary_general(pos_zeros, neg_zeros, n_bits, heuristic, order)


@numba.njit(cache=True, nogil=True)
def find_boundary_general(pos_zeros, neg_zeros, n_bits, heuristic, order):
    """Algorithm 1 with every distance kept up to date (either heuristic)."""
    n_pos, n_f = pos_zeros.shape
    n_neg = neg_zeros.shape[0]
    neg_start, neg_members, d_plus0, s0, uncovered, points = _search_state(pos_zeros, neg_zeros,
                                                                           n_bits)
    n_points = np.int64(0)
    c = np.empty(n_neg, dtype=np.int64)
    dist = np.empty(n_bits, dtype=np.int64)
    p = np.empty(n_bits, dtype=np.bool_)
    in_i = np.empty(n_bits, dtype=np.bool_)
    for t in range(order.shape[0]):
        x = order[t]
        if not uncovered[x]:
            continue
        _seed(pos_zeros[x], p, in_i)
        dist[:] = INF
        conflict = False
        for k in range(n_neg):
            ck = 0
            for j in range(n_f):
                if p[neg_zeros[k, j]]:
                    ck += 1
            c[k] = ck
            if ck == 0:
                conflict = True
            for j in range(n_f):
                z = neg_zeros[k, j]
                if in_i[z] and ck < dist[z]:
                    dist[z] = ck
        if conflict:
            _retire(x, pos_zeros, uncovered, s0)
            continue
        while True:
            n_left = 0
            for i in range(n_bits):
                if in_i[i]:
                    if dist[i] <= 1:
                        in_i[i] = False          # flipping it off would meet a negative
                    else:
                        n_left += 1
            if n_left == 0:
                break
            best = -1
            for i in range(n_bits):
                if not in_i[i]:
                    continue
                if best < 0:
                    best = i
                    continue
                if heuristic == 1:
                    better = (s0[i], d_plus0[i], dist[i]) > (s0[best], d_plus0[best], dist[best])
                else:
                    better = (dist[i], s0[i], d_plus0[i]) > (dist[best], s0[best], d_plus0[best])
                if better:
                    best = i
            in_i[best] = False
            p[best] = False
            for m in range(neg_start[best], neg_start[best + 1]):
                k = neg_members[m]
                c[k] -= 1
                for j in range(n_f):
                    z = neg_zeros[k, j]
                    if in_i[z] and c[k] < dist[z]:
                        dist[z] = c[k]
        # p now holds exactly the bits that could not be flipped off
        n_points = _take_point(p, points, n_points, pos_zeros, uncovered, s0)
        if uncovered[x]:                         # covered by an earlier, more general point
            _retire(x, pos_zeros, uncovered, s0)
    return points[:n_points].copy()


@numba.njit(cache=True, nogil=True)
def _take_point(p, points, n_points, pos_zeros, uncovered, s0):
    """Add ``p`` to the boundary set unless a point there covers it; mark the positives
    it covers.  Returns the new number of points."""
    n_pos, n_f = pos_zeros.shape
    n_bits = p.shape[0]
    for q in range(n_points):
        sub = True
        for i in range(n_bits):
            if points[q, i] and not p[i]:
                sub = False
                break
        if sub:
            return n_points
    points[n_points] = p
    for k in range(n_pos):
        if uncovered[k] and covers(p, pos_zeros[k]):
            _retire(k, pos_zeros, uncovered, s0)
    return n_points + 1


@numba.njit(cache=True, nogil=True)
def find_boundary_h1_counts(pos_zeros, neg_zeros, n_bits, order):
    """Algorithm 1 with H1 keeping a count per negative: the faster search on
    small record sets (no index to build), see :func:`find_boundary`.

    H1 ranks bits by ``(|S_i^0|, |D+_i^0|, d_l)``: the distance only breaks ties,
    and a bit is blocked exactly when some negative is one flip from being
    covered through it.  So per negative only ``c`` (how many of its zeros the
    point still has at 1) is kept: a flip lowers ``c`` for the negatives with a
    zero at the flipped bit (not for all their bits' distances), a negative
    whose ``c`` reaches 1 blocks its one remaining bit, and a tie's distance is
    computed when a tie occurs.  Same points as the general search.
    """
    n_pos, n_f = pos_zeros.shape
    n_neg = neg_zeros.shape[0]
    neg_start, neg_members, d_plus0, s0, uncovered, points = _search_state(pos_zeros, neg_zeros,
                                                                           n_bits)
    n_points = np.int64(0)
    c = np.empty(n_neg, dtype=np.int64)
    p = np.empty(n_bits, dtype=np.bool_)
    in_i = np.empty(n_bits, dtype=np.bool_)
    tied = np.empty(n_bits, dtype=np.int64)
    for t in range(order.shape[0]):
        x = order[t]
        if not uncovered[x]:
            continue
        _seed(pos_zeros[x], p, in_i)
        # c = F - (features where the negative shares x's value), from the bit lists
        c[:] = n_f
        for j in range(n_f):
            b = pos_zeros[x, j]
            for m in range(neg_start[b], neg_start[b + 1]):
                c[neg_members[m]] -= 1
        conflict = False
        for k in range(n_neg):
            if c[k] == 0:
                conflict = True
                break
            if c[k] == 1:
                for j in range(n_f):
                    if p[neg_zeros[k, j]]:
                        in_i[neg_zeros[k, j]] = False    # its one flip would meet k
        if conflict:
            _retire(x, pos_zeros, uncovered, s0)
            continue
        while True:
            best = -1
            n_tied = 0
            for i in range(n_bits):
                if not in_i[i]:
                    continue
                if best < 0 or s0[i] > s0[best] or (s0[i] == s0[best] and d_plus0[i] > d_plus0[best]):
                    best = i
                    n_tied = 0
                    tied[n_tied] = i
                    n_tied += 1
                elif s0[i] == s0[best] and d_plus0[i] == d_plus0[best]:
                    tied[n_tied] = i
                    n_tied += 1
            if best < 0:
                break
            if n_tied > 1:                       # the distance decides, then the lowest bit
                best_d = -1
                for q in range(n_tied):
                    i = tied[q]
                    d = INF
                    for m in range(neg_start[i], neg_start[i + 1]):
                        if c[neg_members[m]] < d:
                            d = c[neg_members[m]]
                    if d > best_d:
                        best_d = d
                        best = i
            in_i[best] = False
            p[best] = False
            for m in range(neg_start[best], neg_start[best + 1]):
                k = neg_members[m]
                c[k] -= 1
                if c[k] == 1:
                    for j in range(n_f):
                        if p[neg_zeros[k, j]]:
                            in_i[neg_zeros[k, j]] = False
        n_points = _take_point(p, points, n_points, pos_zeros, uncovered, s0)
        if uncovered[x]:                         # covered by an earlier, more general point
            _retire(x, pos_zeros, uncovered, s0)
    return points[:n_points].copy()


@numba.njit(cache=True)
def _feature_ranges(pos_zeros, neg_zeros, n_bits):
    """First bit and width of each feature (columns hold ascending bit ranges)."""
    n_f = pos_zeros.shape[1]
    lo = np.full(n_f, n_bits, dtype=np.int64)
    hi = np.full(n_f, -1, dtype=np.int64)
    for z in (pos_zeros, neg_zeros):
        for k in range(z.shape[0]):
            for j in range(n_f):
                b = z[k, j]
                if b < lo[j]:
                    lo[j] = b
                if b > hi[j]:
                    hi[j] = b
    width = np.empty(n_f, dtype=np.int64)
    for j in range(n_f):
        width[j] = hi[j] - lo[j] + 1 if hi[j] >= 0 else 1
        if hi[j] < 0:
            lo[j] = 0
    return lo, width


@numba.njit(cache=True)
def _relevance(pos_zeros, neg_zeros, lo, width):
    """Features in order of how differently the classes fall into their bins (total
    variation distance), most different first: the ones a boundary point constrains."""
    n_f = pos_zeros.shape[1]
    score = np.zeros(n_f)
    n_p = max(pos_zeros.shape[0], 1)
    n_n = max(neg_zeros.shape[0], 1)
    for j in range(n_f):
        cp = np.zeros(width[j])
        cn = np.zeros(width[j])
        for k in range(pos_zeros.shape[0]):
            cp[pos_zeros[k, j] - lo[j]] += 1.0
        for k in range(neg_zeros.shape[0]):
            cn[neg_zeros[k, j] - lo[j]] += 1.0
        for v in range(width[j]):
            score[j] += abs(cp[v] / n_p - cn[v] / n_n)
    return np.argsort(-score, kind="mergesort")


@numba.njit(cache=True)
def _index(recs, lead, keys, lo, width, cols):
    """The order that sorts ``recs`` by (bin of ``lead``, then the bins of ``keys``: up
    to three features, -1 for no such level), where every (lead, keys) cell starts in
    it (``offsets[cell]``, the cell's bins numbered lead first, mixed radix), and the
    columns ``cols`` of the records in that order, next to each other (so a question
    reads consecutive memory)."""
    n = recs.shape[0]
    n_cells = width[lead] if lead >= 0 else 1
    for k in keys:
        if k >= 0:
            n_cells *= width[k]
    key = np.empty(n, dtype=np.int64)
    for r in range(n):
        c = recs[r, lead] - lo[lead] if lead >= 0 else 0
        for k in keys:
            if k >= 0:
                c = c * width[k] + recs[r, k] - lo[k]
        key[r] = c
    counts = np.zeros(n_cells + 1, dtype=np.int64)
    for r in range(n):
        counts[key[r] + 1] += 1
    for q in range(n_cells):
        counts[q + 1] += counts[q]
    fill = counts[:-1].copy()
    rows = np.empty(n, dtype=np.int32)
    front = np.empty((n, cols.shape[0]), dtype=np.int32)
    for r in range(n):                      # records read in turn, written to their place
        m = fill[key[r]]
        rows[m] = r
        for j in range(cols.shape[0]):
            front[m, j] = recs[r, cols[j]]
        fill[key[r]] += 1
    return rows, counts, front


@numba.njit(cache=True)
def _inside_cols(rec, p, cols):
    for j in cols:
        if p[rec[j]]:
            return False
    return True


@numba.njit(cache=True)
def _cells(p, lead, fixed, keys, lo, width, out):
    """The (lead, keys) cells of an index (see :func:`_index`) whose bins the point
    ``p`` allows, into ``out``; returns how many.  ``fixed >= 0``: only the lead
    bin ``fixed``, allowed or not.  A level of -1 has a single bin."""
    n = 0
    wl = width[lead] if lead >= 0 else 1
    for a in range(wl):
        if fixed >= 0:
            if a != fixed:
                continue
        elif lead >= 0 and p[lo[lead] + a]:
            continue
        out[n] = a
        n += 1
    for k in keys:                          # each level multiplies the cells so far
        if k < 0:
            continue
        m = n
        n = 0
        # cells so far are at out[:m]; their children are written after them, then moved
        for q in range(m):
            for b in range(width[k]):
                if not p[lo[k] + b]:
                    out[m + n] = out[q] * width[k] + b
                    n += 1
        for q in range(n):                  # forward: the source lies after the target
            out[q] = out[m + q]
    return n


@numba.njit(cache=True)
def _slab_has_inside(recs, rows, front, offsets, f, a, keys, lo, width, p, check, cells):
    """Whether a record of the slab ``a`` (its bin of the lead feature ``f``) lies
    inside the point ``p`` on every feature of ``keys`` and ``check``.
    ``front`` holds the first check columns of the slab's records, in slab order
    (read in turn, most records fail there); a record that passes them is read
    on through ``rows``.  ``cells``: room for the cells to read."""
    n_front = front.shape[1]
    for q in cells[:_cells(p, f, a, keys, lo, width, cells)]:
        for m in range(offsets[q], offsets[q + 1]):
            if covers(p, front[m]) and _inside_cols(recs[rows[m]], p, check[n_front:]):
                return True
    return False


N_FRONT = 2         # check columns copied next to each other in each index (find_boundary_h1;
                    # a parameter, not a default, so that tests of 0 share its compilation)
KEY_WIDTH = 32      # an index is keyed only by features of at most this many bins (a
                    # category of 1,000 values as a key would mean 10^6 cells a question)


@numba.njit(cache=True, nogil=True)
def find_boundary_h1(pos_zeros, neg_zeros, n_bits, order, n_front):
    """Algorithm 1 with H1, asking the negatives only what H1 needs.

    H1 ranks bits by ``(|S_i^0|, |D+_i^0|, d_l)``, and the first two keys do not
    change while one point grows (|S_i^0| changes only when a point is taken).
    A bit, once blocked (some negative one flip from being covered through it),
    stays blocked as the point grows.  So the candidate bits are taken in the
    order of their key, each tested once: flipped off unless blocked.  The
    distance only breaks ties between equal keys, and is computed when a tie
    occurs.

    "Is bit ``i`` blocked?" asks whether some negative with its zero at ``i``
    lies inside the point on every other feature.  The negatives are indexed
    once per feature ``f``: by their bin of ``f``, then by their bins of the two
    features where the classes differ most (those a point keeps narrow), so a
    question reads only the records in the cells the point allows, not every
    negative (features of more than ``KEY_WIDTH`` bins are checked, never keys).
    The positives a new point covers are found the same way, in an
    index of the uncovered ones (made again whenever half of them got covered).
    Same points as the general search (tested against it).

    ``n_front``: how many of the columns a question checks are copied next to
    each other in every index's order (the rest is read through the order).
    """
    n_pos, n_f = pos_zeros.shape
    n_neg = neg_zeros.shape[0]
    lo, width = _feature_ranges(pos_zeros, neg_zeros, n_bits)
    rel = _relevance(pos_zeros, neg_zeros, lo, width)
    bit_feature = np.full(n_bits, -1, dtype=np.int64)       # -1: no record has its zero there
    for j in range(n_f):
        for v in range(width[j]):
            bit_feature[lo[j] + v] = j
    # negatives: one index per feature, led by it, then by the two most relevant others,
    # and a third when the cells stay fewer than the records
    levels = np.full((n_f, 3), -1, dtype=np.int64)
    checks = np.empty((n_f, max(n_f - 1, 0)), dtype=np.int64)
    n_checks = np.zeros(n_f, dtype=np.int64)
    slab = np.ones(n_f, dtype=np.int64)             # cells a lead bin holds: a question's most
    for f in range(n_f):
        q = 0
        for j in rel:
            if j == f:
                continue
            if width[j] <= KEY_WIDTH and (q < 2 or (q < 3 and width[f] * slab[f] * width[j]
                                                    <= n_neg)):
                levels[f, q] = j
                slab[f] *= width[j]
                q += 1
            else:
                checks[f, n_checks[f]] = j
                n_checks[f] += 1
    most = slab.max() if n_f > 0 else np.int64(1)   # the most cells a question reads
    n_front = min(n_front, n_checks.min()) if n_f > 0 else 0
    neg_rows = np.empty((n_f, n_neg), dtype=np.int32)
    neg_front = np.empty((n_f, n_neg, n_front), dtype=np.int32)
    neg_off = []
    for f in range(n_f):
        r, o, front = _index(neg_zeros, f, levels[f], lo, width, checks[f, :n_front])
        neg_rows[f] = r
        neg_off.append(o)
        neg_front[f] = front
    # positives: one index led by the three most relevant features
    keys = np.full(3, -1, dtype=np.int64)
    p_check = np.empty(n_f, dtype=np.int64)
    n_keys = 0
    n_p_check = 0
    for j in rel:
        if n_keys < 3 and width[j] <= KEY_WIDTH:
            keys[n_keys] = j
            n_keys += 1
        else:
            p_check[n_p_check] = j
            n_p_check += 1
    p_lead = keys[0]
    p_keys = keys.copy()
    p_keys[0] = -1
    p_check = p_check[:n_p_check].copy()
    pos_rows, pos_off, pos_recs = _index(pos_zeros, p_lead, p_keys, lo, width, p_check)
    n_cells = 1
    for j in keys:
        if j >= 0:
            n_cells *= width[j]
    most = max(most, n_cells)

    d_plus0 = _zero_counts(pos_zeros, n_bits)
    s0 = d_plus0.copy()
    uncovered = np.ones(n_pos, dtype=np.bool_)
    n_uncovered = n_pos
    points = np.zeros((n_pos, n_bits), dtype=np.bool_)
    n_points = np.int64(0)
    p = np.empty(n_bits, dtype=np.bool_)
    cand = np.empty(n_bits, dtype=np.int64)
    key = np.empty(n_bits, dtype=np.int64)
    tested = np.zeros(n_bits, dtype=np.bool_)     # blocked, or flipped off
    cells = np.empty(2 * most, dtype=np.int64)     # room for a level's cells and the next's
    big = np.int64(n_pos + 1)
    for t in range(order.shape[0]):
        x = order[t]
        if not uncovered[x]:
            continue
        p[:] = True
        for j in range(n_f):
            p[pos_zeros[x, j]] = False
        # a negative in x's own cell: x gives no point
        if n_neg > 0 and _slab_has_inside(neg_zeros, neg_rows[0], neg_front[0], neg_off[0], np.int64(0),
                                          pos_zeros[x, 0] - lo[0], levels[0], lo, width, p, checks[0, :n_checks[0]], cells):
            uncovered[x] = False
            n_uncovered -= 1
            for j in range(n_f):
                s0[pos_zeros[x, j]] -= 1
            continue
        n_c = 0
        for i in range(n_bits):
            if p[i]:
                cand[n_c] = i
                key[n_c] = -(s0[i] * big + d_plus0[i])
                n_c += 1
        sorter = np.argsort(key[:n_c], kind="mergesort")
        tested[:] = False
        g = 0
        while g < n_c:
            h = g                                      # the group of equal keys: [g, h)
            while h < n_c and key[sorter[h]] == key[sorter[g]]:
                h += 1
            while True:
                # test the group's untested bits; blocked stays blocked
                n_open = 0
                only = -1
                for q in range(g, h):
                    i = cand[sorter[q]]
                    if tested[i]:
                        continue
                    f = bit_feature[i]
                    if f >= 0 and n_neg > 0 and _slab_has_inside(
                            neg_zeros, neg_rows[f], neg_front[f], neg_off[f], f, i - lo[f],
                            levels[f], lo, width, p, checks[f, :n_checks[f]], cells):
                        tested[i] = True
                    else:
                        n_open += 1
                        if only < 0 or i < only:
                            only = i
                if n_open == 0:
                    break
                best = only
                if n_open > 1:                         # the distance decides, then the lowest bit
                    best_d = -1
                    for q in range(g, h):
                        i = cand[sorter[q]]
                        if tested[i]:
                            continue
                        f = bit_feature[i]
                        d = INF
                        if f < 0 or n_neg == 0:
                            if d > best_d or (d == best_d and i < best):
                                best_d = d
                                best = i
                            continue
                        a = i - lo[f]
                        # every negative with its zero at i: its bins outside p
                        o = neg_off[f]
                        for m in range(o[a * slab[f]], o[(a + 1) * slab[f]]):
                            c = 0
                            for j in range(n_f):
                                if p[neg_zeros[neg_rows[f, m], j]]:
                                    c += 1
                            if c < d:
                                d = c
                        if d > best_d or (d == best_d and i < best):
                            best_d = d
                            best = i
                p[best] = False
                tested[best] = True
                if n_open == 1:
                    break
            g = h
        # the point: no earlier point covers it (it would cover x, which is uncovered)
        points[n_points] = p
        n_points += 1
        for q in cells[:_cells(p, p_lead, np.int64(-1), p_keys, lo, width, cells)]:
            for m in range(pos_off[q], pos_off[q + 1]):
                k = pos_rows[m]
                if uncovered[k] and covers(p, pos_recs[m]):
                    uncovered[k] = False
                    n_uncovered -= 1
                    for j in range(n_f):
                        s0[pos_zeros[k, j]] -= 1
        if 2 * n_uncovered < pos_rows.shape[0]:         # index the uncovered ones only
            left = np.flatnonzero(uncovered)
            r, pos_off, pos_recs = _index(pos_zeros[left], p_lead, p_keys, lo, width, p_check)
            pos_rows = left[r].astype(np.int32)
    return points[:n_points].copy()


@numba.njit(cache=True, nogil=True)
def weak_learner_points(codes, rows, subset, widths, y, heuristic, weights=None, odds=1.0):
    """One weak learner from start to end without the GIL: the rows ``rows`` (all
    when empty) of ``codes`` on the columns ``subset`` (with ``widths`` bins), their
    distinct records, each positive when its positives outweigh ``odds`` times its
    negatives (1: its majority label), and FindBoundary over them, taking the
    positive records with the most rows first.  With ``weights`` (float64 per row
    of ``codes``) a record's classes count its rows' weights.

    Returns bool[points, sum(widths)]: each point's zeros, i.e. the bins it allows.
    """
    n = codes.shape[0] if rows.shape[0] == 0 else rows.shape[0]
    k = subset.shape[0]
    sub = np.empty((n, k), dtype=np.int64)
    yy = np.empty(n, dtype=np.bool_)
    w = np.empty(0) if weights is None else weights
    ww = np.empty(n if w.shape[0] else 0)
    for r in range(n):
        src = r if rows.shape[0] == 0 else rows[r]
        for j in range(k):
            sub[r, j] = codes[src, subset[j]]
        yy[r] = y[src]
        if w.shape[0]:
            ww[r] = w[src]
    uniq, pos_count, neg_count = distinct_records(sub, widths, yy, ww)
    n_bits = np.int64(0)
    offsets = np.empty(k, dtype=np.int64)
    for j in range(k):
        offsets[j] = n_bits
        n_bits += widths[j]
    n_pos = 0
    for i in range(uniq.shape[0]):
        if pos_count[i] > odds * neg_count[i]:
            n_pos += 1
    pos = np.empty((n_pos, k), dtype=np.int64)
    neg = np.empty((uniq.shape[0] - n_pos, k), dtype=np.int64)
    weight = np.empty(n_pos, dtype=np.float64)
    a = 0
    b = 0
    for i in range(uniq.shape[0]):
        if pos_count[i] > odds * neg_count[i]:
            for j in range(k):
                pos[a, j] = uniq[i, j] + offsets[j]
            weight[a] = -pos_count[i]
            a += 1
        else:
            for j in range(k):
                neg[b, j] = uniq[i, j] + offsets[j]
            b += 1
    if n_pos == 0:
        return np.zeros((0, n_bits), dtype=np.bool_)
    order = np.argsort(weight, kind="mergesort").astype(np.int64)
    return ~find_boundary(pos, neg, n_bits, heuristic, order)


@numba.njit(cache=True, nogil=True)
def distinct_records(codes, widths, y, weights=None):
    """The distinct rows of ``codes`` (bins per feature), in lexicographic order
    (first feature most significant), with how many rows of each class each
    stands for: ``(records, positives, negatives)``, the counts as float64 (the
    rows' weights summed when ``weights`` is given and not empty, else whole numbers).

    A small space of records is counted by its mixed-radix key, with no sort; a
    key that fits in 62 bits is sorted; otherwise the rows are radix-sorted a
    feature at a time (a stable counting sort per feature, last feature first),
    which needs no key at all: the key of 50 features of 9 bins would not fit.
    """
    n, n_f = codes.shape
    w = np.empty(0) if weights is None else weights
    space = 1                                     # the mixed-radix key's range (0: past 62 bits)
    for f in range(n_f):
        if space > (1 << 62) // max(widths[f], 1):
            space = 0
            break
        space *= max(widths[f], 1)
    if space > 0:
        key = np.empty(n, dtype=np.int64)
        for r in range(n):
            c = 0
            for f in range(n_f):
                c = c * widths[f] + codes[r, f]
            key[r] = c
        if space > max(4 * n, 1 << 20):           # sort the keys: 4x the radix sort
            # weights are summed in row order within a record (stable); whole counts need not
            order = np.argsort(key, kind="mergesort") if w.shape[0] else np.argsort(key)
            return _runs_of(codes, order, y, w)
        pos = np.zeros(space, dtype=np.float64)   # a small space: count by key, no sort
        neg = np.zeros(space, dtype=np.float64)
        seen = np.zeros(space, dtype=np.bool_)
        for r in range(n):
            seen[key[r]] = True
            one = 1.0 if w.shape[0] == 0 else w[r]
            if y[r]:
                pos[key[r]] += one
            else:
                neg[key[r]] += one
        present = np.flatnonzero(seen)
        records = np.empty((present.shape[0], n_f), dtype=np.int64)
        for i in range(present.shape[0]):
            c = present[i]
            for f in range(n_f - 1, -1, -1):
                records[i, f] = c % widths[f]
                c //= widths[f]
        return records, pos[present], neg[present]
    order = np.arange(n)
    buf = np.empty(n, dtype=np.int64)
    for f in range(n_f - 1, -1, -1):              # LSD radix sort: stable per feature
        counts = np.zeros(widths[f] + 1, dtype=np.int64)
        for r in range(n):
            counts[codes[r, f] + 1] += 1
        for b in range(widths[f]):
            counts[b + 1] += counts[b]
        for q in range(n):
            r = order[q]
            buf[counts[codes[r, f]]] = r
            counts[codes[r, f]] += 1
        order, buf = buf, order
    return _runs_of(codes, order, y, w)


@numba.njit(cache=True)
def _runs_of(codes, order, y, w):
    """The distinct records of ``codes`` read in ``order`` (equal records next to each
    other), with the weight of each class (``w``, or 1 a row when empty)."""
    n, n_f = codes.shape
    first = np.empty(n, dtype=np.int64)
    pos_count = np.zeros(n, dtype=np.float64)
    neg_count = np.zeros(n, dtype=np.float64)
    k = -1
    for q in range(n):
        r = order[q]
        same = k >= 0
        if same:
            for f in range(n_f):
                if codes[r, f] != codes[first[k], f]:
                    same = False
                    break
        if not same:
            k += 1
            first[k] = r
        one = 1.0 if w.shape[0] == 0 else w[r]
        if y[r]:
            pos_count[k] += one
        else:
            neg_count[k] += one
    records = np.empty((k + 1, n_f), dtype=np.int64)
    for i in range(k + 1):
        for f in range(n_f):
            records[i, f] = codes[first[i], f]
    return records, pos_count[:k + 1], neg_count[:k + 1]
