"""Algorithm 1 of the rule-generalization paper, and its iterative variant (§3.5).

The rules are encoded once as boxes in arrays (see :mod:`aspml.kernels.generalize`);
slots ``0 .. n-1`` hold the original rules and never change, each accepted
union takes the next slot.  Candidate pairs are visited in order of distance:
all congruent pairs of the starting rules sorted once, and for each accepted
union the distance-sorted pairs it forms with the rules alive then; a heap
over these sorted runs yields the globally closest untried pair, and a numba
kernel tests the run up to the next run's head in one call.

Decisions where the paper is silent (documented in the README):

* CC and the coverage of exceptions are always counted against the *original*
  rules, also in the iterative variant (a union is judged by what it says about
  the model, not about the previous descriptive model).
* A pair whose union is rejected is not tried again within one run (its CC and
  fidelity cannot change: both depend only on the union and the originals).
* When a union is accepted, every live rule it covers correctly is dropped --
  unless (numeric predictions only) one of the originals that rule stands for
  would not be covered correctly by the union; then it stays, so that every
  original rule is always correctly covered by some rule of the result.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

import numpy as np

from ..kernels import generalize as K
from .encoding import Encoding, fidelity_counts, normalize_slot


# ---------------------------------------------------------------------------
# the algorithm
# ---------------------------------------------------------------------------

@dataclass
class Node:
    """One rule of the derivation hierarchy: an original rule or an accepted union."""

    slot: int
    children: tuple = ()             # slots united or absorbed into it
    united: tuple = ()               # the two slots whose union it is
    members: tuple = ()              # original rules it stands for (all covered correctly)
    correct: tuple = ()              # original rules it covers correctly
    exceptions: tuple = ()           # original rules it covers wrongly
    depth: int = 0
    rows: int = 0                    # reference rows it applies to (where the model answers)
    agree: int = 0                   # ... and gives a congruent prediction on
    rho: float | None = None         # the threshold it was accepted under


@dataclass
class State:
    enc: Encoding
    alive: np.ndarray
    owner: np.ndarray
    nodes: list
    n_slots: int
    n_unions: int = 0
    tried: int = 0


def start(enc: Encoding) -> State:
    n = enc.n
    alive = np.zeros(2 * n, dtype=bool)
    alive[:n] = True
    nodes = [Node(i, members=(i,)) for i in range(n)]
    return State(enc, alive, np.arange(n, dtype=np.int64), nodes, n)


def run(state: State, rho: float, check_fidelity: bool = True) -> State:
    """Algorithm 1 from the rules alive in ``state``, with roughness threshold ``rho``.

    With reference rows and ``check_fidelity``, a union must also have fidelity
    >= rho (§3.4); without ``check_fidelity`` the fidelity is only measured.
    """
    enc = state.enc
    if check_fidelity:
        xn, xc, rlo, rhi = enc.xn, enc.xc, enc.rlo, enc.rhi
    else:
        xn, xc = enc.xn[:0], enc.xc[:0]
        rlo, rhi = enc.rlo[:0], enc.rhi[:0]
    mlo, mhi, mcat = K.all_bound_masks(enc.n, enc.lo, enc.hi, enc.bits, enc.cat_start)
    olo_ord = np.ascontiguousarray(np.argsort(enc.lo[:enc.n].T, axis=1, kind="stable"))
    ohi_ord = np.ascontiguousarray(np.argsort(enc.hi[:enc.n].T, axis=1, kind="stable"))
    olo = np.ascontiguousarray(np.take_along_axis(enc.lo[:enc.n].T, olo_ord, axis=1))
    ohi = np.ascontiguousarray(np.take_along_axis(enc.hi[:enc.n].T, ohi_ord, axis=1))
    row_order = np.ascontiguousarray(np.argsort(xn, axis=0, kind="stable").T)
    xs = np.ascontiguousarray(np.take_along_axis(xn, row_order.T, axis=0).T)
    slots = np.flatnonzero(state.alive[:state.n_slots]).astype(np.int64)
    pa, pb, pd = K.congruent_pairs(slots, enc.nlo, enc.nhi, enc.bits, enc.cat_start,
                                   enc.plo, enc.phi, enc.eps)
    order = np.argsort(pd, kind="stable")
    runs = [(pa[order], pb[order], pd[order], -1)]
    pos = [0]
    heap = [(float(runs[0][2][0]), 0)] if len(order) else []
    dn, nb = enc.lo.shape[1], enc.bits.shape[1]
    lo_u, hi_u = np.empty(dn), np.empty(dn)
    loc_u, hic_u = np.empty(dn, dtype=bool), np.empty(dn, dtype=bool)
    bits_u = np.empty(nb, dtype=bool)
    while heap:
        _, r = heapq.heappop(heap)
        ra, rb, rd, owner = runs[r]
        if owner >= 0 and not state.alive[owner]:
            continue
        limit = heap[0][0] if heap else math.inf
        k0 = pos[r]
        k, accepted = K.scan_pairs(ra, rb, rd, k0, limit, state.alive, enc.lo, enc.hi, enc.loc,
                                   enc.hic, enc.bits, enc.plo, enc.phi, enc.n, state.owner,
                                   enc.eps, rho, enc.cat_start, xn, xc, rlo, rhi, xs, row_order,
                                   mlo, mhi, mcat, olo, olo_ord, ohi, ohi_ord,
                                   lo_u, hi_u, loc_u, hic_u, bits_u)
        state.tried += k - k0
        pos[r] = k
        if accepted:
            u = _accept(state, int(ra[k - 1]), int(rb[k - 1]), lo_u, hi_u, loc_u, hic_u, bits_u, rho)
            others = np.flatnonzero(state.alive[:state.n_slots])
            others = others[others != u]
            ok = np.maximum(enc.phi[others], enc.phi[u]) - np.minimum(enc.plo[others], enc.plo[u]) \
                <= enc.eps + K.TOL * (1 + abs(enc.eps))
            others = others[ok].astype(np.int64)
            if len(others):
                d = K.distances_from(u, others, enc.nlo, enc.nhi, enc.bits, enc.cat_start)
                o = np.argsort(d, kind="stable")
                runs.append((np.full(len(others), u, dtype=np.int64), others[o], d[o], u))
                pos.append(0)
                heapq.heappush(heap, (float(d[o][0]), len(runs) - 1))
        if pos[r] < len(ra):
            heapq.heappush(heap, (float(rd[pos[r]]), r))
    return state


def _accept(state: State, a: int, b: int, lo_u, hi_u, loc_u, hic_u, bits_u, rho) -> int:
    enc = state.enc
    u = state.n_slots
    state.n_slots += 1
    enc.lo[u], enc.hi[u], enc.loc[u], enc.hic[u], enc.bits[u] = lo_u, hi_u, loc_u, hic_u, bits_u
    enc.plo[u] = min(enc.plo[a], enc.plo[b])
    enc.phi[u] = max(enc.phi[a], enc.phi[b])
    normalize_slot(enc, u)
    state.alive[a] = state.alive[b] = False
    codes = enc.codes(u)
    cand = np.flatnonzero(state.alive[:u]).astype(np.int64)
    inside = K.contained_slots(lo_u, hi_u, loc_u, hic_u, bits_u, enc.plo[u], enc.phi[u], enc.eps,
                               cand, enc.lo, enc.hi, enc.loc, enc.hic, enc.bits, enc.plo, enc.phi)
    absorbed = []
    for s in cand[inside]:
        if np.all(codes[state.owner == s] == 1):
            absorbed.append(int(s))
            state.alive[s] = False
    children = (a, b, *absorbed)
    members = np.flatnonzero(np.isin(state.owner, children))
    state.owner[members] = u
    state.alive[u] = True
    node = Node(u, children=children, united=(a, b), members=tuple(int(m) for m in members),
                correct=tuple(int(i) for i in np.flatnonzero(codes == 1)),
                exceptions=tuple(int(i) for i in np.flatnonzero(codes == 2)),
                depth=1 + max(state.nodes[c].depth for c in children), rho=rho)
    if enc.has_reference:
        node.rows, node.agree = fidelity_counts(enc, u)
    state.nodes.append(node)
    state.n_unions += 1
    return u
