"""Open queries in SWI-Prolog: ``label(R, V)``, ``label(R, yes)``, ``ab1(R)`` with ``R`` unbound
give exactly the rows clingo and the fast path give (issue #18).

Prolog runs a body left to right and ``\\+`` is sound only on ground goals, so
every printed rule's first goal binds ``X`` (a feature atom, else ``row(X)``).
Row-by-row questions were always right; these tests ask what a user at the
prompt asks.  A row that several rules prove is answered once per rule: the
tests compare the distinct rows and check every answer is a row.
"""

import csv
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, event, given, settings

import aspml
import aspml.asp
import aspml.prolog
from aspml.data.facts import prolog_facts
from aspml.data.table import DEFAULT_MISSING
from aspml.evaluate import as_table
from aspml.logic.model import InSet
from aspml.logic.printers import SCASP_MEMBER, LogicPrinter, Naming

from conftest import run_swipl
from strategies import programs, programs_with_tables, refused_in_scasp

SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]


# ---------------------------------------------------------------------------
# the three answers: SWI-Prolog's open queries, clingo, the fast path
# ---------------------------------------------------------------------------

def exception_names(p) -> list[str]:
    return list(dict.fromkeys([*p.derived, *(n for r in p.rules for n in r.exceptions)]))


def open_goals(p) -> dict[str, str]:
    """``{what: goal}``: every open query a user may ask, with ``R`` the row."""
    printer = LogicPrinter(p, "prolog")
    target = Naming.of(p).target
    goals = {}
    if p.target.positive is None:
        goals["target"] = f"{target}(R)"
    else:
        pos = printer.label(p.target.positive)
        goals["target"] = f"{target}(R,_)"                          # label(R, V), both unbound
        goals["target given"] = f"{target}(R,{pos})"                # label(R, yes)
        goals["other value"] = f"({target}(R,V), V \\== {pos})"     # must have no answer
    for name in exception_names(p):
        goals[name] = f"{name}(R)"
    return goals


def swipl_answers(path, goals: dict[str, str]) -> dict[str, list[str]]:
    """Every answer (duplicates kept) of each open goal, from swipl over the file ``path``."""
    keys = list(goals)
    query = ", ".join(f"findall(R, {goals[k]}, L{i}), forall(member(A, L{i}), "
                      f"format('~w ~q~n', [{i}, A]))" for i, k in enumerate(keys))
    result = run_swipl(query, [path], timeout=300)
    assert result.returncode == 0 and not result.stderr, result.stderr
    out = {k: [] for k in keys}
    for line in result.stdout.splitlines():
        i, answer = line.split(" ", 1)
        out[keys[int(i)]].append(answer)
    return out


def rows_of(answers: list[str], n_rows: int) -> np.ndarray:
    """The distinct rows answered; every answer must be a row id (bound, in range)."""
    out = np.zeros(n_rows, dtype=bool)
    for a in answers:
        assert re.fullmatch(r"\d+", a) and int(a) < n_rows, f"answer {a!r} is not a row"
        out[int(a)] = True
    return out


def clingo_answers(p, X) -> dict[str, np.ndarray]:
    program, naming, table, facts = aspml.asp._prepare(p, X, DEFAULT_MISSING)
    arity = 1 if p.target.positive is None else 2
    shows = [f"#show {naming.target}/{arity}."] + [f"#show {n}/1." for n in exception_names(p)]
    out = {k: np.zeros(table.n_rows, dtype=bool) for k in ["target", *exception_names(p)]}
    for sym in aspml.asp.solve([program.to_asp(), facts, "\n".join(shows)], program_part=0)[0]:
        key = "target" if sym.name == naming.target and len(sym.arguments) == arity else sym.name
        out[key][sym.arguments[0].number] = True
    return out


def check_open_queries(p, X, path) -> bool:
    """SWI-Prolog's open queries over the file at ``path`` = clingo = the fast path;
    True when some row was answered more than once (several rules prove it)."""
    n = len(X)
    fast_target, _, fast_derived = aspml.evaluate.evaluate(p, X)
    fast = {"target": fast_target, "target given": fast_target}
    for name in exception_names(p):
        fast[name] = fast_derived.get(name, np.zeros(n, dtype=bool))
    clingo = clingo_answers(p, X)
    said = swipl_answers(path, open_goals(p))
    assert said.pop("other value", []) == []
    repeated = False
    for what, answers in said.items():
        got = rows_of(answers, n)
        assert np.array_equal(got, fast[what]), (what, np.flatnonzero(got ^ fast[what]))
        assert np.array_equal(clingo[what.replace(" given", "")], fast[what]), what
        repeated |= len(answers) > got.sum()
    return repeated


def write_export(p, X, path) -> None:
    """What ``aspml export --to prolog --facts`` writes: the program, then the rows."""
    facts = prolog_facts(as_table(p, X), Naming.of(p).preds)
    path.write_text(p.to_prolog() + "\n% rows\n" + facts, encoding="utf-8")


# ---------------------------------------------------------------------------
# random programs
# ---------------------------------------------------------------------------

@settings(max_examples=30, deadline=None, suppress_health_check=SLOW_OK)
@given(programs_with_tables())
def test_open_queries_equal_clingo_and_fast_path_on_random_programs(swipl, tmp_path_factory,
                                                                    case):
    p, X = case
    event("a rule starts with a negation" if any(r.body and not _binds_first(r) for r in p.rules)
          else "every rule starts with a positive literal")
    path = tmp_path_factory.mktemp("open") / "p.pl"
    write_export(p, X, path)
    if check_open_queries(p, X, path):
        event("some row answered more than once")
    # aspml.prolog.predict asks the open query; row by row gives the same
    assert np.array_equal(aspml.prolog.predict(p, X, query="rows"), p.predict(X))


def _binds_first(rule) -> bool:
    lit = rule.body[0]
    negated = (isinstance(lit, (aspml.NotAtom, aspml.NotCompare))
               or (isinstance(lit, aspml.Flag) and not lit.positive)
               or (isinstance(lit, aspml.Compare) and lit.op == "!="))
    return not negated


# ---------------------------------------------------------------------------
# the printed order, in Prolog and in s(CASP) (no s(CASP) binary here: its
# print is checked for the same shape as the Prolog one)
# ---------------------------------------------------------------------------

_CMP = re.compile(r"(?<![\w'])(N\d+|M\d+) (?:>|<|>=|=<|=:=|=\\=) ")


def body_goals(rule_text: str) -> list[str]:
    """The goals of a printed rule, one per body line (a feature atom and its
    comparisons share a line)."""
    lines = rule_text.split("\n")
    return [line.strip().rstrip(",.") for line in lines[1:]]


def check_order(text: str, p, dialect: str) -> None:
    """Every rule's first goal binds X; a variable is bound before it is compared."""
    neg = "\\+ " if dialect == "prolog" else "not "
    features = set(Naming.of(p).preds.values())
    body = text.split("\n\n", 1)[1]
    member = "\n".join(SCASP_MEMBER)
    if dialect == "scasp" and any(isinstance(lit, InSet) for lit in p.literals):
        # the print's own member/2 (s(CASP) has none), not a rule of the program: every
        # value set reads the definition that follows the rules
        assert body.rstrip("\n").endswith("\n\n" + member), body
        body = body.rstrip("\n")[:-len(member)]
    else:
        assert member not in body
    rules = re.split(r"\n(?=\S)", body.strip())
    assert len(rules) == len(p.rules)
    for rule in rules:
        goals = body_goals(rule)
        assert goals, f"a rule with no body answers with an unbound row: {rule}"
        first = goals[0]
        assert not first.startswith(neg) and not first.startswith("("), rule
        name = first.split("(", 1)[0]
        assert first == "row(X)" or (name in features and first.startswith(f"{name}(X")), rule
        if first == "row(X)":                       # only where no literal comes first to bind X
            assert len(goals) == 1 or goals[1].startswith((neg, "\\+ (")), rule
        bound = set()
        for goal in goals:
            if goal.startswith(neg):               # \+ (f(X,M1), M1 =< 3) binds M1 inside
                bound |= set(re.findall(r",(M\d+)\)", goal))
            bound |= set(re.findall(r"\w\(X,([NM]\d+)\)", goal))
            for var in _CMP.findall(goal):
                assert var in bound, (var, rule)


@settings(max_examples=100, deadline=None, suppress_health_check=SLOW_OK)
@given(programs())
def test_prolog_and_scasp_prints_bind_x_first(p):
    check_order(p.to_prolog(), p, "prolog")
    if refused_in_scasp(p):                     # refused in scasp (test_roundtrip)
        return
    q = p.expand_negated_comparisons()          # what the s(CASP) print prints
    check_order(p.to_scasp(), q, "scasp")


# ---------------------------------------------------------------------------
# learned programs on real data
# ---------------------------------------------------------------------------

LEARNERS = {
    "FoldSE": lambda: aspml.FoldSE(),
    "FoldRpp": lambda: aspml.FoldRpp(),
    "Libre": lambda: aspml.Libre(random_state=0),
    "MultiValueRuleSet": lambda: aspml.MultiValueRuleSet(random_state=0),
}
# eight shared datasets, 200 rows each (the issue asks for six): titanic, voting, cars and
# acute, where FOLD and LIBRE learn rules that start with a negation; heart and credit
# (numbers, categories); kidney (missing values, mixed columns); autism (many categories)
DATASETS = ["titanic", "voting", "heart", "kidney", "credit", "autism", "cars", "acute"]


def _dataset(data_dir, name, n=200):
    """``n`` rows of a shared dataset (a fixed sample), without its identifier columns (``id``,
    ``Name``: a learner would only learn row numbers from them), and the labels."""
    m = {r["name"]: r for r in csv.DictReader(open(data_dir / "MANIFEST.tsv"), delimiter="\t")}[name]
    df = pd.read_csv(data_dir / m["files"].split()[0], dtype=str, keep_default_na=False,
                     na_values=[""])
    df = df.sample(n=min(n, len(df)), random_state=0).reset_index(drop=True)
    y = (df[m["label_column"]] == m["positive_value"]).to_numpy()
    ids = [c for c in df.columns if c.lower() in ("id", "name")]    # identifiers, not features
    return df.drop(columns=[m["label_column"], *ids]), y


@pytest.mark.parametrize("learner", sorted(LEARNERS))
def test_open_queries_on_learned_programs(data_dir, swipl, tmp_path, learner):
    present = [name for name in DATASETS if (data_dir / name).is_dir()]
    if not present:                         # a partial copy of the shared data
        pytest.skip(f"none of {DATASETS} is in {data_dir}")
    for name in present:
        X, y = _dataset(data_dir, name)
        p = LEARNERS[learner]().fit(X, y).program_
        path = tmp_path / f"{name}.pl"
        write_export(p, X, path)
        check_open_queries(p, X, path)
        check_order(p.to_prolog(), p, "prolog")
        if not refused_in_scasp(p):                         # refused in scasp (tested)
            check_order(p.to_scasp(), p.expand_negated_comparisons(), "scasp")
        fast = p.predict(X)
        assert np.array_equal(aspml.prolog.predict(p, X), fast)
        assert np.array_equal(aspml.prolog.predict(p, X, query="rows"), fast)


# ---------------------------------------------------------------------------
# the issue's commands: aspml export --facts, then swipl at the prompt
# ---------------------------------------------------------------------------

ISSUE_MODEL = """\
IF naive_col != "ä" THEN y = "nein"
IF NOT ab1 AND n > 2 THEN y = "nein"
IF NOT (n <= 5) AND NOT ab2 THEN y = "nein"
IF n in [3, 4] THEN ab1
IF naive_col = "b" THEN ab2
"""


def _aspml(*args, cwd):
    return subprocess.run([sys.executable, "-m", "aspml", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=300)


def test_cli_export_with_facts_counts_like_predict(swipl, tmp_path):
    table = pd.DataFrame({"naive_col": ["ä", "b", "ä", None, "ä", "c", "ä", "ä"],
                          "n": [1, 3, 6, 2, None, 9, 4, 7]})
    table.to_csv(tmp_path / "data.csv", index=False)
    (tmp_path / "model.txt").write_text(ISSUE_MODEL, encoding="utf-8")
    export = _aspml("export", "model.txt", "--to", "prolog", "--facts", "data.csv", cwd=tmp_path)
    assert export.returncode == 0, export.stderr
    (tmp_path / "p.pl").write_text(export.stdout, encoding="utf-8")
    predict = _aspml("predict", "model.txt", "data.csv", cwd=tmp_path)
    assert predict.returncode == 0, predict.stderr
    expected = sorted(int(r) for r, y in csv.reader(predict.stdout.splitlines()[1:])
                      if y == "nein")
    assert expected == [1, 2, 3, 4, 5, 7]

    def ask(goal):
        r = run_swipl(goal, ["p.pl"], cwd=tmp_path, timeout=60)
        assert r.returncode == 0 and not r.stderr, r.stderr
        return r.stdout
    assert ask("aggregate_all(count, distinct(R, y(R,'nein')), C), write(C)") == "6"
    assert ask("aggregate_all(count, distinct(R, y(R,V)), C), write(C)") == "6"
    assert ask("setof(R, V^y(R,V), Rs), write(Rs)") == "[1,2,3,4,5,7]"
    assert ask("setof(R, ab1(R), Rs), write(Rs)") == "[1,6]"
    assert ask("setof(R, ab2(R), Rs), write(Rs)") == "[1]"


def test_prolog_holds_asks_the_target_or_an_exception(swipl):
    p = aspml.parse('IF NOT ab1 THEN label = "yes"\nIF x > 1 THEN ab1', "text")
    assert "label(X,'yes') :-\n    row(X),\n    \\+ ab1(X)." in p.to_prolog()
    X = pd.DataFrame({"x": [0, 2, None]})
    for query in aspml.prolog.QUERIES:
        assert list(aspml.prolog.predict(p, X, query=query)) == [True, False, True]
        assert list(aspml.prolog.holds(p, X, "ab1", query=query)) == [False, True, False]
    with pytest.raises(aspml.AspmlError, match="'ab9' is not a derived atom"):
        aspml.prolog.holds(p, X, "ab9")
    with pytest.raises(aspml.AspmlError, match="unknown query 'each'"):
        aspml.prolog.predict(p, X, query="each")
    empty = aspml.Program((aspml.Rule(None, ()),))            # label(X) :- row(X).
    assert list(aspml.prolog.predict(empty, X)) == [True, True, True]
