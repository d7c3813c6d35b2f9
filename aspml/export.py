"""A program as a file for a knowledge base: its print, and the facts of a table's rows.

``aspml.export(program, "prolog", X, key="name", prefix="heart")`` is what
``aspml export MODEL --to prolog --facts DATA.csv --key name --prefix heart``
writes: the program's print, then ``heart_row(K).`` for every row and one fact
per known value, each row named by its key (:func:`aspml.data.facts.entity_keys`:
plain integers stay integers, any other key is a string or quoted atom) or,
without a key, by its number.  The facts use the predicates of the print
(``Program.predicates``) and, in ``asp``, its scales: a number finer than the
program's scale doubles the scale of the printed program, so the two always
go together.
"""

from __future__ import annotations

import pandas as pd

from ._given import as_program
from .errors import AspmlError
from .logic.names import visible
from .logic.printers import DIALECTS, Naming

FACT_DIALECTS = ("asp", "prolog")


def export(program, dialect: str = "prolog", X=None, key: str | None = None,
           prefix: str | None = None, missing=None, source: str | None = None) -> str:
    """The print of ``program`` in ``dialect``, followed by the facts of the rows of ``X``.

    ``program`` is a Program or a fitted aspml estimator.  ``X`` (a DataFrame;
    ``asp`` or ``prolog`` only) adds the facts; ``key`` names the column whose
    values name the rows (default: row numbers, 0 the first); ``prefix`` sets
    the program's prefix (``heart``: ``heart_ab1``, ``heart_row``; None keeps
    the program's own); ``missing`` the tokens read as no value (default the
    program's); ``source`` names the data in the comment before the facts.
    """
    program = as_program(program, "aspml.export")
    if dialect not in DIALECTS:
        raise AspmlError(f"unknown dialect {dialect!r}; use one of {DIALECTS}")
    if prefix is not None:
        program = program.with_prefix(prefix)
    if X is None:
        if key is not None:
            raise AspmlError("a key names a column of the rows: give the rows too "
                             "(aspml export --facts DATA.csv --key COLUMN)")
        return program.print(dialect)
    if dialect not in FACT_DIALECTS:
        raise AspmlError(f"facts are written for asp or prolog, not {dialect}")
    ids = None
    if key is not None:
        from .data.facts import entity_keys
        if not isinstance(X, pd.DataFrame):
            raise AspmlError(f"key {key!r} names a column: the rows must be a DataFrame")
        if key not in X.columns:
            from .data.csvfile import show_names
            raise AspmlError(f"the data has no key column {key!r}; its columns are "
                             f"{show_names(list(X.columns))}")
        ids = entity_keys(X[key].tolist(), dialect,
                          program.missing if missing is None else missing, key)
    comment = "% rows" if source is None else "% rows of " + visible(source)
    if dialect == "asp":
        from .asp import _prepare
        program, _, _, facts = _prepare(program, X, missing, ids, exact=True)
        return program.to_asp() + "\n" + comment + "\n" + facts
    from .data.facts import prolog_facts
    from .evaluate import data_table
    naming = Naming.of(program)         # facts of the data's columns: the rules derive the rest
    facts = prolog_facts(data_table(program, X, missing), naming.preds, ids, naming.domain)
    return program.to_prolog() + "\n" + comment + "\n" + facts


def names(program, dialect: str = "prolog") -> list[tuple[str, str, str]]:
    """``(kind, name, predicate/arity)`` for every predicate of the print in ``dialect``:
    each column (``column``), each background atom (``background``), the target (``target``), each exception or helper atom
    (``exception``), in a multi-class program each default rule's atom (``rule``: ``rule1``)
    and the rows (``rows``), as ``aspml export --names`` lists them."""
    program = as_program(program, "aspml.export.names")
    if dialect == "text":
        raise AspmlError("the text print names no predicates; ask for asp, prolog or scasp")
    if dialect == "scasp":
        program = program.expand_negated_comparisons()      # its helper atoms, as printed
    naming = Naming.of(program)
    derived = set(program.background_atoms)
    out = [("background" if f.name in derived else "column", f.name,
            f"{naming.preds[f.name]}/{1 if f.kind == 'boolean' else 2}")
           for f in program.schema.features]
    arity = 1 if program.target.positive is None and not program.is_multiclass else 2
    out.append(("target", program.target.name, f"{naming.target}/{arity}"))
    out += [("exception", n, f"{p}/1") for n, p in naming.derived.items()]
    # multi-class: each default rule's helper atom (ruleK), as the print names it
    out += [("rule", n, f"{p}/1") for n, p in zip(program.rule_atoms, naming.rules)]
    out.append(("rows", "row", f"{naming.domain}/1"))
    return out


def clashes(programs, dialect: str = "prolog") -> list[str]:
    """Why ``programs`` cannot share one knowledge base in ``dialect`` (``asp`` or
    ``prolog``): one sentence per clash, ``[]`` when they can.

    Each program's predicate names are chosen for that program alone (a column
    ``"Body Mass"`` is ``body_mass`` beside no column ``body_mass``, ``body_mass_2``
    beside one), and the knowledge base's facts are shared by name: a clash gives
    one program the other's facts, or its answers, without an error.  Clashes:

    * one predicate for two different columns (``body_mass/2``), or for a column of
      one program and the target, an exception, a rule atom or a background atom of
      another (a program concluding ``label/2`` beside one reading a column
      ``label``);
    * one column read as different kinds (categorical in one, numeric in the
      other: Prolog's comparison meets a quoted atom and stops with an error,
      clingo orders strings above numbers), or, in ``asp``, printed at different
      scales or as ranks (each program's numbers are its own integers);
    * one target, exception or multi-class rule atom in two programs (unprefixed
      ``ab1``: each program's exceptions apply to the other's rules; a prefix keeps
      them apart; in ``scasp`` also the ``abK`` atoms its print makes for ``not (f <=
      t)``), and a background atom two programs define differently;
    * the rows' predicate (``row/1``, ``heart_row/1``) as another program's column;
    * in ``prolog``, two programs without a prefix: only a prefixed print declares
      the feature facts ``multifile``, so consulting the second file redefines the
      first's facts (``row/1``, ``age/2``) and the first program answers for no row
      (clingo and s(CASP) read their files as one program).

    ``asp`` compares the programs' own scales: check the programs as exported with
    ``--facts`` (which may print at a finer scale for the data's decimals), as
    ``aspml export --alongside`` does.
    """
    if dialect not in DIALECTS or dialect == "text":
        raise AspmlError(f"knowledge bases are checked for asp, prolog or scasp, not "
                         f"{dialect}")
    programs = [as_program(p, "aspml.export.clashes") for p in programs]
    seen: dict = {}             # predicate/arity -> (program number, kind, name)
    out = []

    def who(i: int) -> str:
        return f"program {i + 1}"

    bare = [i for i, p in enumerate(programs) if p.prefix is None]
    if dialect == "prolog" and len(bare) > 1:
        out.append(f"{who(bare[0])} and {who(bare[1])} have no prefix: in {dialect} only a "
                   "prefixed print declares the shared facts multifile, so consulting the "
                   "second file redefines the first's facts (give each program a prefix, "
                   "--prefix)")
    for i, p in enumerate(programs):
        for kind, name, pred in names(p, dialect):
            if pred not in seen:
                seen[pred] = (i, kind, name)
                continue
            j, other_kind, other_name = seen[pred]
            if j == i or kind == other_kind == "rows":
                continue                    # one row/1 of the entities: shared by design
            q = programs[j]
            what = f"{pred}: {who(j)}'s {other_kind} {other_name!r} and {who(i)}'s {kind} {name!r}"
            if kind == other_kind == "column" and name == other_name:
                a, b = q.schema[name], p.schema[name]
                if a.kind != b.kind:
                    out.append(f"{pred}: column {name!r} is {a.kind} in {who(j)} and "
                               f"{b.kind} in {who(i)} (one program's comparisons meet the "
                               "other's values)")
                elif dialect == "asp" and a.kind in ("numeric", "mixed") and (
                        a.scale != b.scale or a.scale is None):
                    out.append(f"{pred}: column {name!r} is written at scale {a.scale} in "
                               f"{who(j)} and {b.scale} in {who(i)} (None: as ranks; each "
                               "program reads numbers as its own integers)")
            elif kind == other_kind == "background" and name == other_name:
                if ({r for r in q.background if r.head == name}
                        != {r for r in p.background if r.head == name}):
                    out.append(f"{what}: defined by different rules (a prefix keeps "
                               "each program's own)")
            elif kind == other_kind == "column":
                out.append(f"{what}: two columns, one predicate (each program reads the "
                           "other's facts; rename a column so that its name is a predicate "
                           "name already, and learn again)")
            elif kind == other_kind and kind in ("target", "exception", "rule"):
                out.append(f"{what}: both programs define it (give the programs "
                           + ("different targets" if kind == "target" else "prefixes")
                           + ")")
            else:
                out.append(f"{what}: one predicate for both")
    return out
