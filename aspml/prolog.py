"""SWI-Prolog: run a program's ``prolog`` export over a table, or check that it consults.

A ``swipl`` subprocess is used (SWI-Prolog 9, Debian ``swi-prolog-nox``): one
file holds the program and the facts of the rows, and an open query
(``label(R, yes)``, ``R`` unbound, as a user asks it) prints the ids of the
rows for which the target holds.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile

import numpy as np

from .data.facts import prolog_facts
from .errors import AspmlError, EngineError
from .evaluate import data_table
from .logic.model import Program, Rule
from .logic.names import prolog_atom
from .logic.printers import LogicPrinter, Naming, label_term

SWIPL_TIMEOUT = 600


def swipl_path() -> str:
    path = shutil.which("swipl")
    if path is None:
        raise EngineError("SWI-Prolog (swipl) is not installed; on Debian: "
                          "apt-get install swi-prolog-nox")
    return path


# A clean SWI-Prolog, whoever runs aspml: no user init file (-f none: the user's
# ~/.config/swi-prolog/init.pl could print lines the row reader takes for row ids,
# or add term_expansion rules that rewrite the program), no site init file
# (-F none), no add-on packs (their libraries could shadow the system's), and
# no terminal control (--no-tty).
CLEAN_OPTIONS = ("-f", "none", "-F", "none", "--no-packs", "--no-tty")


ENGINE_OPTIONS = (*CLEAN_OPTIONS, "--on-error=print", "--on-warning=print")
END = "aspml_end"      # the goal's last word: an output without it was cut short
TRIES = 3


def run_goal(goal: str, files=(), options=ENGINE_OPTIONS, cwd=None, env=None,
             timeout=SWIPL_TIMEOUT) -> subprocess.CompletedProcess:
    """``swipl OPTIONS -q -g GOAL -t halt FILES``, its output checked for completeness.

    swipl 9.0 now and then exits 0 having printed nothing (about 1 run in 200 seen):
    the goal ends by printing an end word, and a run that exits 0 without it is asked
    again, :data:`TRIES` times at most, then an :class:`EngineError`.  ``.stdout`` comes
    back exactly as the goal printed it, without the end word; a run that fails (a
    non-zero exit) is returned as it is, for the caller to say why.  ``env``: the
    environment (default: this one with ``LANG=C.UTF-8``)."""
    cmd = [swipl_path(), *options, "-q", "-g",
           f"({goal}), format('~n~w~n', [{END}]), flush_output", "-t", "halt", *map(str, files)]
    env = {**os.environ, "LANG": "C.UTF-8"} if env is None else env
    tail = f"\n{END}\n"
    for _ in range(TRIES):
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env,
                              timeout=timeout)
        if done.returncode != 0:
            return done
        if done.stdout.endswith(tail):
            done.stdout = done.stdout[:-len(tail)]
            return done
    raise EngineError(f"SWI-Prolog's output was cut short {TRIES} times in a row")


QUERIES = ("open", "rows")


def predict(program: Program, X, missing=None, query: str = "open") -> np.ndarray:
    """SWI-Prolog's answer for every row (a boolean array; for a multi-class program each
    row's class, an object array with None where no class holds).

    ``query="open"`` asks the target once with the row unbound, as a user at
    the prompt would (``label(R, yes)``; multi-class ``label(R, C)``), and keeps the
    distinct answers (a row that several rules prove is answered once per rule);
    ``"rows"`` asks for each row in turn.  Both give the same answer.
    """
    from ._given import engine_program
    if query not in QUERIES:
        raise AspmlError(f"unknown query {query!r}; use one of {QUERIES}")
    program = engine_program(program, "aspml.prolog.predict")
    if program.is_multiclass:
        return _classes(program, X, missing, query)
    return holds(program, X, None, missing, query)


def holds(program: Program, X, atom: str | None = None, missing=None,
          query: str = "open") -> np.ndarray:
    """Where SWI-Prolog proves the target (``atom`` None) or the derived atom
    ``atom`` (an exception such as ``ab1``, a background atom, or in a multi-class
    program a rule atom such as ``rule2``: where that default rule's body holds), for
    each row; ``query`` as in :func:`predict`.  A multi-class program has no one
    target to prove: :func:`predict` gives each row's class."""
    from ._given import engine_program
    given = program
    program = engine_program(program, "aspml.prolog.predict")
    if query not in QUERIES:
        raise AspmlError(f"unknown query {query!r}; use one of {QUERIES}")
    names = [*program.exception_names, *program.background_atoms, *program.rule_atoms]
    prefix = getattr(given, "prefix", None)
    if atom is not None and prefix and atom.startswith(prefix + "_") and atom not in names:
        atom = atom[len(prefix) + 1:]          # heart_ab1, as the print names it: ab1
    if atom is None and program.is_multiclass:
        raise AspmlError("a multi-class program concludes a class, not one target: "
                         "aspml.prolog.predict gives each row's class; holds asks for a "
                         f"derived atom, one of {names}")
    if atom is not None and atom not in names:
        raise AspmlError(f"{atom!r} is not a derived atom of the program; it has {names}")
    table = data_table(program, X, missing)     # the printed background rules derive the rest
    naming = Naming.of(program)
    goal = (LogicPrinter(program, "prolog").head(Rule(None, ()), var="R") if atom is None
            else f"{naming.preds.get(atom, atom) if atom in program.background_atoms else atom}(R)")
    if query == "open":
        ask = f"findall(R, {goal}, Rs), sort(Rs, S), forall(member(R, S), format('~q~n', [R]))"
    else:
        ask = (f"forall(between(0,{table.n_rows - 1},R), "
               f"({goal} -> format('~q~n', [R]) ; true))")
    out = np.zeros(table.n_rows, dtype=bool)
    answers = _answers(program, table, naming, ask)
    bad = next((a for a in answers if not (a.isdigit() and int(a) < table.n_rows)), None)
    if bad is not None:
        raise EngineError(f"SWI-Prolog answered {goal} with {bad}, which is not a row")
    out[[int(a) for a in answers]] = True
    return out


def _answers(program: Program, table, naming, ask: str) -> list[str]:
    """What SWI-Prolog prints for ``ask`` over the program and the rows' facts, word by word."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "program.pl")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(program.to_prolog())
            fh.write("\n% rows\n")
            fh.write(prolog_facts(table, naming.preds))
        result = run_goal(f"consult({prolog_atom(path)}), {ask}")
    if result.returncode != 0 or result.stderr.strip():
        raise EngineError("SWI-Prolog failed: "
                          + (_one_line(result.stderr) or f"exit {result.returncode}"))
    return result.stdout.split()


def _one_line(said: str) -> str:
    """SWI-Prolog's message on one line: its place line (``Warning: file:34:``) and the
    lines that follow it (``Warning:    Clauses of elderly/1 are not together``) joined,
    each line's repeated ``Warning:`` or ``ERROR:`` left out after the first."""
    lines = [line.strip() for line in said.strip().splitlines() if line.strip()]
    if not lines:
        return ""
    rest = [re.sub(r"^(Warning|ERROR):\s*", "", line) for line in lines[1:]]
    return " ".join([lines[0], *filter(None, rest)])


def _classes(program: Program, X, missing, query: str) -> np.ndarray:
    """Each row's class, from the answers to ``label(R, C)``: the row and the class's
    position among ``program.classes`` (so no label is ever read back from text)."""
    table = data_table(program, X, missing)
    naming = Naming.of(program)
    classes = "[" + ",".join(label_term(c, "prolog") for c in program.classes) + "]"
    say = (f"(nth0(K, {classes}, C) -> format('~q ~q~n', [R, K]) "
           "; format('~q none~n', [R]))")
    goal = f"{naming.target}(R, C)"
    if query == "open":
        ask = f"findall(R-C, {goal}, L), sort(L, S), forall(member(R-C, S), {say})"
    else:
        ask = f"forall(between(0,{table.n_rows - 1},R), forall({goal}, {say}))"
    words = _answers(program, table, naming, ask)
    out = np.full(table.n_rows, None, dtype=object)
    said: dict = {}
    for row, k in zip(words[0::2], words[1::2]):
        if not (row.isdigit() and int(row) < table.n_rows):
            raise EngineError(f"SWI-Prolog answered {goal} with R = {row}, which is not a row")
        if not k.isdigit():
            raise EngineError(f"SWI-Prolog gave row {row} a class that is none of "
                              f"{list(program.classes)}")
        r = int(row)
        if said.setdefault(r, int(k)) != int(k):
            raise EngineError(f"SWI-Prolog gave row {r} two classes: "
                              f"{program.classes[said[r]]!r} and {program.classes[int(k)]!r}")
        out[r] = program.classes[int(k)]
    return out


def consult_messages(texts: list[str]) -> list[str]:
    """Consult each Prolog text in its own module; return what SWI-Prolog said about each.

    An empty string means the text loaded with no error and no warning.
    """
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for k, text in enumerate(texts):
            path = os.path.join(tmp, f"p{k}.pl")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            paths.append(path)
        listing = ",".join(prolog_atom(p) for p in paths)
        goal = ("forall(nth0(K,[" + listing + "],F), ("
                "format(user_error,'@@ ~w~n',[K]), atom_concat(m,K,M), "
                "catch(load_files(M:F,[]), E, print_message(error,E))))")
        result = run_goal(goal)
    said = {k: [] for k in range(len(texts))}
    current = None
    for line in result.stderr.splitlines():
        if line.startswith("@@ "):
            current = int(line[3:])
        elif current is not None:
            said[current].append(line)
    if result.returncode != 0 and not any(said.values()):
        raise EngineError("SWI-Prolog failed: " + result.stderr.strip())
    return ["\n".join(said[k]) for k in range(len(texts))]
