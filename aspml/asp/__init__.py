"""The clingo bridge: the reference semantics of a Program, and checks by ASP.

This package is the only code in aspml that imports clingo.  The logic lives
in ``encodings/*.lp`` and in the program's own ``asp`` print; here we only
build facts, ground, solve and convert symbols at the boundary.
"""

from __future__ import annotations

import math
from importlib.resources import files

import numpy as np

from ..data.facts import clingo_facts, clingo_numbers, program_limits
from ..data.table import data_scale
from .._given import as_program, engine_program
from ..errors import AspmlError, EngineError
from ..evaluate import data_table
from ..logic.model import Compare, Flag, InSet, Interval, NotAtom, NotCompare, Program, Rule
from ..logic.names import clingo_string
from ..logic.printers import LogicPrinter, Naming, label_term, rank_tables, text_literal
from ..logic.values import SCALED_MAX, is_number, scale_for, scaled
from .solve import atoms, solve

__all__ = ["predict", "derive", "coverage", "subsumption", "is_stratified", "check_stratified",
           "encoding", "solve", "atoms"]

COVER = "aspml_cover"


def encoding(name: str) -> str:
    """The text of ``encodings/<name>.lp``."""
    return files("aspml.encodings").joinpath(f"{name}.lp").read_text()


def _prepare(program: Program, X, missing, ids=None, exact: bool = False):
    """Facts for the rows, and the program at the scales those facts need; ``ids`` the
    rows' terms (default their numbers, see :func:`aspml.data.facts.clingo_facts`).

    ``exact`` (``aspml export --facts``): a feature is printed at the power of ten that
    holds every value of the data too, where 32-bit integers allow, so that each fact
    is the data's value at the scale the header names (a knowledge base asks the facts
    its own questions).  Otherwise a value finer than the program's scale is written
    between its two grid points (odd, at twice the scale), which every comparison of
    the program reads the same way: a trial's export said "x2" and wrote 1.2 as 3."""
    table = data_table(program, X, missing)     # clingo derives the background atoms itself
    scales = {f.name: f.scale or 1 for f in program.schema.features}
    ranks, limits = rank_tables(program), program_limits(program)
    for name, col in table.columns.items() if exact else ():
        if col.kind in ("numeric", "mixed") and name not in ranks and name in scales:
            # the data's numbers and the program's, none replaced (facts.SCALED_MAX)
            values = np.concatenate([col.num[col.is_num],
                                     [v for v in limits.get(name, ()) if v is not None]])
            finer = data_scale(values) if values.size else None
            if finer and finer > scales[name] and np.abs(values).max() * finer <= SCALED_MAX:
                scales[name] = finer
    numbers = clingo_numbers(table, scales, limits, ranks)
    if any(factor != 1 for _, factor in numbers.values()) or any(
            scales[f.name] != (f.scale or 1) for f in program.schema.features):
        # (a ranked feature keeps its ranks: factor 1, no scale)
        program = program.at_scales({name: scales[name] * factor
                                     for name, (_, factor) in numbers.items() if name not in ranks})
    naming = Naming.of(program)
    return program, naming, table, clingo_facts(table, naming.preds, numbers, ids, naming.domain)


def predict(program: Program, X, missing=None) -> np.ndarray:
    """The reference semantics: clingo's answer for every row (a boolean array); for a
    multi-class program each row's class (an object array, None where no class holds)."""
    program = engine_program(program, "aspml.asp.predict")
    program, naming, table, facts = _prepare(program, X, missing)
    if program.is_multiclass:
        return _classes(program, naming, table, facts)
    arity = 1 if program.target.positive is None else 2
    show = f"#show {naming.target}/{arity}."
    out = np.zeros(table.n_rows, dtype=bool)
    for sym in solve([program.to_asp(), facts, show], program_part=0)[0]:
        out[sym.arguments[0].number] = True
    return out


def _classes(program: Program, naming, table, facts) -> np.ndarray:
    """Each row's class from the answer set: the ``label(X,c)`` atoms, one per row."""
    of = {_clingo_term(c): c for c in program.classes}
    out = np.full(table.n_rows, None, dtype=object)
    found = np.zeros(table.n_rows, dtype=bool)
    for sym in solve([program.to_asp(), facts, f"#show {naming.target}/2."], program_part=0)[0]:
        row, term = sym.arguments[0].number, sym.arguments[1]
        if term not in of:
            raise EngineError(f"clingo derived {sym}, whose class is none of {list(program.classes)}")
        if found[row]:
            raise EngineError(f"clingo derived two classes for row {row}: "
                              f"{out[row]!r} and {of[term]!r}")
        out[row], found[row] = of[term], True
    return out


def _clingo_term(value):
    """A class label as clingo prints the symbol (strings escaped as in the program)."""
    from clingo import parse_term
    return parse_term(label_term(value, "asp"))


def derive(program: Program, X, missing=None) -> dict:
    """``{atom: boolean array}``: where clingo derives each background atom of ``program``
    from the rows' facts and the printed background rules."""
    program = as_program(program, "aspml.asp.derive")
    program, naming, table, facts = _prepare(program, X, missing)
    atoms = program.background_atoms
    show = "".join(f"#show {naming.preds[a]}/1." for a in atoms)
    out = {a: np.zeros(table.n_rows, dtype=bool) for a in atoms}
    feature_of = {naming.preds[a]: a for a in atoms}
    for sym in solve([program.to_asp(), facts, show], program_part=0)[0]:
        out[feature_of[sym.name]][sym.arguments[0].number] = True
    return out


def coverage(program: Program, X, missing=None) -> np.ndarray:
    """Rows x rules boolean matrix from clingo: where each rule's body holds."""
    program = engine_program(program, "aspml.asp.coverage")
    program, naming, table, facts = _prepare(program, X, missing)
    printer = LogicPrinter(program, "asp")
    cover = [printer.rule(r, head=f"{COVER}({i},X)") for i, r in enumerate(program.rules)]
    text = program.to_asp() + "\n" + "\n".join(cover) + f"\n#show {COVER}/2.\n"
    out = np.zeros((table.n_rows, len(program.rules)), dtype=bool)
    for sym in solve([text, facts], program_part=0)[0]:
        i, row = (a.number for a in sym.arguments)
        out[row, i] = True
    return out


# ---------------------------------------------------------------------------
# stratification
# ---------------------------------------------------------------------------

def is_stratified(program: Program) -> bool:
    return not _cycles(as_program(program, "aspml.asp.is_stratified"))


def check_stratified(program: Program) -> None:
    """Raise :class:`AspmlError` naming the atoms on a cycle through negation."""
    cyclic = _cycles(as_program(program, "aspml.asp.check_stratified"))
    if cyclic:
        raise AspmlError("program is not stratified: " + ", ".join(cyclic)
                         + " depend on themselves through negation")


def _cycles(program: Program) -> list[str]:
    facts = "".join(f"depends({r.head or '__target'},{n}).\n"
                    for r in program.rules for n in r.exceptions)
    model = solve([encoding("stratified"), facts])[0]
    return sorted(str(s.arguments[0]) for s in model)


# ---------------------------------------------------------------------------
# subsumption
# ---------------------------------------------------------------------------

def _as_region(lit):
    """``("interval", lo, lo_closed, hi, hi_closed)``, ``("set", values)`` or ``("opaque", key)``."""
    if isinstance(lit, Interval):
        return ("interval", lit.lo, lit.lo_closed, lit.hi, lit.hi_closed)
    if isinstance(lit, InSet):
        return ("set", frozenset(lit.members))
    if isinstance(lit, Compare) and lit.op == "==":
        return ("set", frozenset([lit.value]))
    if isinstance(lit, Compare) and lit.op != "!=":
        v = lit.value
        return {"<=": ("interval", None, False, v, True), "<": ("interval", None, False, v, False),
                ">": ("interval", v, False, None, False),
                ">=": ("interval", v, True, None, False)}[lit.op]
    return ("opaque", text_literal(lit))


def _intersect(a, b):
    if a[0] == "set" and b[0] == "set":
        return ("set", a[1] & b[1])
    if a[0] == "set" or b[0] == "set":
        s, iv = (a, b) if a[0] == "set" else (b, a)
        return ("set", frozenset(v for v in s[1] if _inside(iv, v)))
    lo, lo_c = max((a[1], a[2]), (b[1], b[2]), key=lambda e: (-math.inf if e[0] is None else e[0], not e[1]))
    hi, hi_c = min((a[3], a[4]), (b[3], b[4]), key=lambda e: (math.inf if e[0] is None else e[0], e[1]))
    if lo is not None and hi is not None and (lo > hi or (lo == hi and not (lo_c and hi_c))):
        return ("set", frozenset())
    if lo is not None and lo == hi:
        return ("set", frozenset([lo]))
    return ("interval", lo, lo_c, hi, hi_c)


def _inside(iv, v) -> bool:
    if not is_number(v):
        return False
    _, lo, lo_c, hi, hi_c = iv
    return ((lo is None or v > lo or (lo_c and v == lo))
            and (hi is None or v < hi or (hi_c and v == hi)))


def _conditions(rule: Rule):
    """One region per feature (intersected) plus each opaque literal on its own."""
    regions: dict = {}
    opaque = []
    for lit in rule.body:
        region = _as_region(lit)
        if region[0] == "opaque":
            opaque.append((lit.feature if lit.feature is not None else f"~{lit.name}", region))
        elif lit.feature in regions:
            regions[lit.feature] = _intersect(regions[lit.feature], region)
        else:
            regions[lit.feature] = region
    return list(regions.items()) + opaque


def _bound(code, closed: bool, upper: bool) -> str:
    if code is None:
        return "#sup" if upper else "#inf"
    return str(code if closed else (code - 1 if upper else code + 1))


def _codes(numbers: list) -> dict:
    """Each number's even integer for the subsumption facts: twice its scaled value, or, when
    no scale holds the feature's numbers, twice its rank (either way an odd integer lies
    between any two of them, for the open ends)."""
    scale = scale_for(numbers, "")
    if scale is not None:
        return {v: 2 * scaled(v, scale, "") for v in numbers}
    return {v: 2 * i + 2 for i, v in enumerate(sorted(set(numbers)))}


def subsumption(rules) -> list[tuple[int, int]]:
    """All pairs ``(i, j)`` where rule ``i`` subsumes rule ``j`` (antecedents only).

    ``rules`` is a Program or a sequence of Rules; one clingo grounding over
    rules-as-facts (``encodings/subsumption.lp``) decides every pair.
    """
    program = rules if isinstance(rules, Program) else None
    rules = list(program.rules if program is not None else rules)
    conds = [_conditions(r) for r in rules]
    numbers: dict = {}
    for cs in conds:
        for feature, region in cs:
            vals = region[1] if region[0] == "set" else (region[1], region[3]) if region[0] == "interval" else ()
            numbers.setdefault(feature, []).extend(v for v in vals if is_number(v))
    codes = {feature: _codes(nums) for feature, nums in numbers.items()}
    facts = []
    for r, cs in enumerate(conds):
        facts.append(f"rule({r}).")
        for c, (feature, region) in enumerate(cs):
            cid = f"c({r},{c})"
            facts.append(f"cond({r},{cid},{clingo_string(feature)}).")
            if region[0] == "interval":
                c = codes.get(feature, {})
                facts.append(f"interval({cid}). lower({cid},{_bound(c.get(region[1]), region[2], False)}). "
                             f"upper({cid},{_bound(c.get(region[3]), region[4], True)}).")
            elif region[0] == "set":
                facts.append(f"set({cid}).")
                for v in region[1]:
                    term = str(codes[feature][v]) if is_number(v) else clingo_string(v)
                    facts.append(f"elem({cid},{term}).")
            else:
                facts.append(f"opaque({cid},{clingo_string(region[1])}).")
    model = solve([encoding("subsumption"), "\n".join(facts)])[0]
    return sorted((s.arguments[0].number, s.arguments[1].number) for s in model)
