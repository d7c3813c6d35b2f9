"""Programs in one knowledge base (issue #18, item 2): a prefix on the exception and helper
predicates, facts keyed by an entity column, the column-to-predicate mapping.

Two learned programs that both have ``ab1`` are exported with different prefixes and keys,
loaded into one SWI-Prolog session and one clingo run, and must answer every open query
(``label(R, V)``, ``abK(R)``) exactly as each does alone, and as the fast path does.
"""

import csv
import json
import re

import numpy as np
import pandas as pd
import pytest
from clingo import SymbolType
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import aspml
import aspml.asp
import aspml.prolog
from aspml.data.facts import entity_keys
from aspml.evaluate import evaluate
from aspml.logic.printers import Naming

from conftest import one_line_error, predict_with_every_engine, run_aspml, run_swipl
from strategies import HOSTILE, programs, programs_with_tables

SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]


# ---------------------------------------------------------------------------
# asking the engines, answers as key values (int, or the key's text)
# ---------------------------------------------------------------------------

def key_value(v):
    """What a key names in both engines: a plain 32-bit integer, else its text."""
    text = v if isinstance(v, str) else str(v)
    if re.fullmatch(r"(0|-?[1-9][0-9]*)", text) and abs(int(text)) < 2**31:
        return int(text)
    return text


def expected_answers(p, X, keys) -> dict:
    """``{printed predicate: set of keys}`` for the target and every exception, from the
    fast path."""
    target, _, derived = evaluate(p, X)
    naming = Naming.of(p)
    out = {naming.target: {keys[i] for i in np.flatnonzero(target)}}
    for name, printed in naming.derived.items():
        mask = derived.get(name, np.zeros(len(X), dtype=bool))
        out[printed] = {keys[i] for i in np.flatnonzero(mask)}
    return out


def goals_of(p) -> dict:
    """``{printed predicate: open goal}``: ``label(R,_)`` (both unbound), ``heart_ab1(R)``."""
    naming = Naming.of(p)
    goals = {naming.target: f"{naming.target}(R)" if p.target.positive is None
             else f"{naming.target}(R,_)"}
    goals.update({printed: f"{printed}(R)" for printed in naming.derived.values()})
    return goals


def swipl_keys(files, goals: dict) -> dict:
    """Distinct answers of each open goal, in one swipl session that consults ``files``;
    an answer is read back exactly: an integer, or an atom's code points."""
    keys = list(goals)
    write = ("(integer(A) -> format('~w i ~d~n', [{i}, A]) ; atom(A) -> atom_codes(A, C), "
             "format('~w s ~w~n', [{i}, C]) ; format('~w bad~n', [{i}]))")
    query = ", ".join(f"findall(R, {goals[k]}, L{i}), forall(member(A, L{i}), "
                      + write.format(i=i) + ")" for i, k in enumerate(keys))
    result = run_swipl(query, files, timeout=300)
    assert result.returncode == 0 and not result.stderr, result.stderr
    out = {k: set() for k in keys}
    for line in result.stdout.splitlines():
        i, kind, *rest = line.split(" ", 2)
        assert kind in ("i", "s"), f"an answer that is not a key: {line}"
        value = int(rest[0]) if kind == "i" else "".join(map(chr, json.loads(rest[0])))
        out[keys[int(i)]].add(value)
    return out


def clingo_keys(texts, goals: dict, arities: dict) -> dict:
    """The keys of every shown atom, from one clingo run over ``texts``."""
    shows = "\n".join(f"#show {name}/{arities[name]}." for name in goals)
    out = {k: set() for k in goals}
    for sym in aspml.asp.solve([*texts, shows])[0]:
        arg = sym.arguments[0]
        out[sym.name].add(arg.number if arg.type == SymbolType.Number else arg.string)
    return out


def arities(p) -> dict:
    naming = Naming.of(p)
    return {naming.target: 1 if p.target.positive is None else 2,
            **{printed: 1 for printed in naming.derived.values()}}


# ---------------------------------------------------------------------------
# two learned programs, both with ab1
# ---------------------------------------------------------------------------

def _dataset(data_dir, name, n=200):
    m = {r["name"]: r for r in csv.DictReader(open(data_dir / "MANIFEST.tsv"), delimiter="\t")}[name]
    df = pd.read_csv(data_dir / m["files"].split()[0], dtype=str, keep_default_na=False,
                     na_values=[""])
    df = df.sample(n=min(n, len(df)), random_state=0).reset_index(drop=True)
    y = (df[m["label_column"]] == m["positive_value"]).to_numpy()
    return df.drop(columns=[m["label_column"]]), y


@pytest.fixture(scope="module")
def two_programs(data_dir, tmp_path_factory):
    """heart (FOLD-SE, target heart_disease, keyed by its integer id, prefix heart) and
    voting (FOLD-SE, target democrat, keyed by a text column, prefix vote): both have ab1,
    their integer ids overlap, and voting's first rule starts with a negation, so its
    rows come from the domain guard ``vote_row(X)``."""
    out = {}
    for name, target, prefix in (("heart", "heart_disease", "heart"),
                                 ("voting", "democrat", "vote")):
        X, y = _dataset(data_dir, name)
        p = aspml.FoldSE(target=target).fit(X.drop(columns=["id"]), y).program_
        assert "ab1" in p.derived
        if name == "voting":
            X = X.assign(member=["it's \"member\" " + i for i in X["id"]])
            key = "member"
        else:
            key = "id"
        out[name] = (p, X, key, prefix)
    tmp = tmp_path_factory.mktemp("kb")
    files = {}
    for name, (p, X, key, prefix) in out.items():
        for dialect, suffix in (("prolog", "pl"), ("asp", "lp")):
            path = tmp / f"{name}.{suffix}"
            path.write_text(aspml.export(p, dialect, X, key=key, prefix=prefix), encoding="utf-8")
            files[name, dialect] = path
    return out, files


def test_two_programs_load_into_one_swipl_session_and_one_clingo_run(two_programs, swipl):
    programs_, files = two_programs
    expected, goals, shown = {}, {}, {}
    for name, (p, X, key, prefix) in programs_.items():
        q = p.with_prefix(prefix)
        keys = [key_value(v) for v in X[key]]
        expected[name] = expected_answers(q, X, keys)
        goals[name] = goals_of(q)
        shown[name] = arities(q)
        assert f"{prefix}_ab1" in goals[name]
        alone = swipl_keys([files[name, "prolog"]], goals[name])
        assert alone == expected[name], name
        alone = clingo_keys([files[name, "asp"].read_text(encoding="utf-8")], goals[name],
                            shown[name])
        assert alone == expected[name], name
    both_goals = {**goals["heart"], **goals["voting"]}
    assert len(both_goals) == len(goals["heart"]) + len(goals["voting"])     # no shared name
    together = swipl_keys([files["heart", "prolog"], files["voting", "prolog"]], both_goals)
    assert together == {**expected["heart"], **expected["voting"]}
    together = clingo_keys([files["heart", "asp"].read_text(encoding="utf-8"),
                            files["voting", "asp"].read_text(encoding="utf-8")], both_goals,
                           {**shown["heart"], **shown["voting"]})
    assert together == {**expected["heart"], **expected["voting"]}
    # without the prefixes the two files clash: both define ab1 and row/1, and heart's,
    # consulted second, replace voting's (the failure the prefixes prevent)
    (p1, X1, k1, _), (p2, X2, k2, _) = programs_["heart"], programs_["voting"]
    tmp = files["heart", "prolog"].parent
    (tmp / "h0.pl").write_text(aspml.export(p1, "prolog", X1, key=k1), encoding="utf-8")
    (tmp / "v0.pl").write_text(aspml.export(p2, "prolog", X2, key=k2), encoding="utf-8")
    result = run_swipl("findall(R, democrat(R,_), L), sort(L, S), length(S, N), write(N)",
                       [tmp / "v0.pl", tmp / "h0.pl"])
    assert result.stdout.isdigit() and result.stdout != str(len(expected["voting"]["democrat"]))


@pytest.fixture(scope="module")
def shared_facts(data_dir, tmp_path_factory):
    """One table, two learners (FOLD-SE and FOLD-R++ on voting, both with ab1 and ab2),
    keyed by the same column: the two files carry the same facts, which a Prolog session
    must keep both of (the prefixed print declares feature predicates multifile)."""
    X, y = _dataset(data_dir, "voting")
    fit = X.drop(columns=["id"])
    ps = {"se": aspml.FoldSE(target="party_se").fit(fit, y).program_,
          "rpp": aspml.FoldRpp(target="party_rpp").fit(fit, y).program_}
    tmp = tmp_path_factory.mktemp("shared")
    files = {}
    for prefix, p in ps.items():
        assert "ab1" in p.derived
        for dialect, suffix in (("prolog", "pl"), ("asp", "lp")):
            files[prefix, dialect] = tmp / f"{prefix}.{suffix}"
            files[prefix, dialect].write_text(aspml.export(p, dialect, X, key="id", prefix=prefix),
                                              encoding="utf-8")
    return ps, X, files


def test_two_programs_over_the_same_facts(shared_facts, swipl):
    ps, X, files = shared_facts
    keys = [int(v) for v in X["id"]]
    expected, goals, shown = {}, {}, {}
    for prefix, p in ps.items():
        q = p.with_prefix(prefix)
        expected.update(expected_answers(q, X, keys))
        goals.update(goals_of(q))
        shown.update(arities(q))
    assert {"se_ab1", "rpp_ab1", "party_se", "party_rpp"} <= set(goals)
    together = swipl_keys([files["se", "prolog"], files["rpp", "prolog"]], goals)
    assert together == expected
    together = clingo_keys([files["se", "asp"].read_text(encoding="utf-8"),
                            files["rpp", "asp"].read_text(encoding="utf-8")], goals, shown)
    assert together == expected


# ---------------------------------------------------------------------------
# the print: names, header, round trips
# ---------------------------------------------------------------------------

BIRDS = """\
IF penguin = "no" AND NOT ab1 THEN flies = "yes"
IF NOT ab2 AND NOT (weight <= 2) THEN flies = "yes"
IF heart_ab1 = "x" THEN ab1
IF weight > 10 THEN ab2
"""


def test_the_prefix_names_exceptions_and_the_domain_only():
    p = aspml.parse(BIRDS, "text")
    q = p.with_prefix("heart")
    assert q.prefix == "heart" and q.with_prefix(None) == p and q.rules == p.rules
    for dialect in ("asp", "prolog", "scasp"):
        text = q.print(dialect)
        body = text.split("\n\n", 1)[1]
        assert "heart_ab1(X)" in body and "heart_ab2(X)" in body and "heart_row(X)" in body
        assert not re.search(r"(?<![\w])(ab1|ab2|ab3|row)\(", body), body
        assert "flies(X," in body and "penguin(X," in body and "weight(X," in body
        # a column named like a prefixed name keeps clear of it
        assert "heart_ab1_2(X," in body
        assert '"prefix": "heart"' in text and '"prefix"' not in p.print(dialect)
    assert "heart_ab3(X) :-" in q.to_scasp()           # the helper atom of not (weight <= 2)
    assert q.to_text() == p.to_text()                   # for people: the model's own names
    assert q.predicates == {"penguin": "penguin", "weight": "weight", "heart_ab1": "heart_ab1_2"}
    assert p.predicates["heart_ab1"] == "heart_ab1"
    prolog = q.to_prolog()
    assert ":- multifile penguin/2, weight/2, heart_ab1_2/2." in prolog
    assert (":- discontiguous flies/2, heart_ab1/1, heart_ab2/1, penguin/2, weight/2, "
            "heart_ab1_2/2, heart_row/1.") in prolog
    assert "heart_row/1" in prolog.split(":- multifile")[0]
    assert ":- multifile" not in p.to_prolog()


@pytest.mark.parametrize("dialect", ["asp", "prolog"])
def test_prefixed_prints_read_back_exactly(dialect, tmp_path):
    q = aspml.parse(BIRDS, "text").with_prefix("kb2")
    back = aspml.parse(q.print(dialect), dialect)
    assert back == q and back.derived == ("ab1", "ab2")
    scasp = aspml.parse(q.to_scasp(), "scasp")
    assert scasp.prefix == "kb2" and "ab3" in scasp.derived
    path = tmp_path / f"m.{'lp' if dialect == 'asp' else 'pl'}"
    q.save(path)
    assert aspml.load(path) == q
    assert aspml.parse(q.to_text(), "text").prefix is None


@settings(max_examples=60, deadline=None, suppress_health_check=SLOW_OK)
@given(programs(), st.sampled_from(["kb", "heart", "m2_x"]))
def test_random_prefixed_programs_read_back(p, prefix):
    q = p.with_prefix(prefix)
    for dialect in ("asp", "prolog"):
        text = q.print(dialect)
        assert aspml.parse(text, dialect) == q
        body = text.split("\n\n", 1)[1]
        for name in Naming.of(q).derived:                   # no unprefixed exception is left
            assert not re.search(rf"(?<![\w]){name}\(", body), (name, body)


def test_a_prefixed_file_with_a_foreign_exception_is_refused():
    q = aspml.parse(BIRDS, "text").with_prefix("heart")
    text = q.to_prolog().replace("heart_ab2(X) :-", "other_ab2(X) :-")
    with pytest.raises(aspml.ParseError, match="other_ab2 is not an exception of this program"):
        aspml.parse(text, "prolog")


@pytest.mark.parametrize("prefix, words", [
    ("Heart", "must be a lower-case identifier"), ("9x", "must be a lower-case identifier"),
    ("aspml", "makes 'aspml_row'"), ("", "must be a lower-case identifier"),
])
def test_a_bad_prefix_is_one_clear_error(prefix, words):
    p = aspml.parse(BIRDS, "text")
    with pytest.raises(aspml.AspmlError, match=re.escape(words)):
        p.with_prefix(prefix)


# ---------------------------------------------------------------------------
# every engine runs a prefixed program
# ---------------------------------------------------------------------------

BIRD_ROWS = pd.DataFrame({"penguin": ["no", "yes", "no", None, "no", "yes"],
                          "weight": [1, 3, 12, 5, None, 30],
                          "heart_ab1": ["x", "y", "y", "y", None, "y"]})


def test_every_engine_runs_a_prefixed_program(swipl):
    p = aspml.parse(BIRDS, "text")
    q = p.with_prefix("heart")
    fast = p.predict(BIRD_ROWS)
    assert fast.any() and not fast.all()
    assert np.array_equal(q.predict(BIRD_ROWS), fast)
    assert np.array_equal(aspml.asp.predict(q, BIRD_ROWS), fast)
    assert np.array_equal(aspml.asp.coverage(q, BIRD_ROWS), aspml.asp.coverage(p, BIRD_ROWS))
    for query in aspml.prolog.QUERIES:
        assert np.array_equal(aspml.prolog.predict(q, BIRD_ROWS, query=query), fast)
        ab1 = aspml.prolog.holds(p, BIRD_ROWS, "ab1", query=query)
        assert np.array_equal(aspml.prolog.holds(q, BIRD_ROWS, "ab1", query=query), ab1)
        assert np.array_equal(aspml.prolog.holds(q, BIRD_ROWS, "heart_ab1", query=query), ab1)
    for row in range(len(BIRD_ROWS)):
        for engine in ("fast", "clingo"):
            e = aspml.explain(q, BIRD_ROWS.iloc[row], engine=engine, minimal=True)
            assert e.to_dict() == aspml.explain(p, BIRD_ROWS.iloc[row], engine=engine,
                                                minimal=True).to_dict()
    for row in range(len(BIRD_ROWS)):
        cf = aspml.counterfactual(q, BIRD_ROWS.iloc[row], target=not fast[row])
        plain = aspml.counterfactual(p, BIRD_ROWS.iloc[row], target=not fast[row])
        assert (cf is None) == (plain is None)
        assert cf is None or cf.changes == plain.changes


@pytest.mark.parametrize("suffix", ["lp", "pl"])
def test_cli_runs_an_exported_prefixed_model(tmp_path, suffix, swipl):
    p = aspml.parse(BIRDS, "text")
    p.save(tmp_path / "m.lp")
    BIRD_ROWS.to_csv(tmp_path / "rows.csv", index=False)
    to = "asp" if suffix == "lp" else "prolog"
    done = run_aspml("export", tmp_path / "m.lp", "--to", to, "--prefix", "heart")
    assert done.returncode == 0, done.stderr
    assert "heart_ab1(X)" in done.stdout
    (tmp_path / f"k.{suffix}").write_text(done.stdout, encoding="utf-8")
    assert aspml.parse(done.stdout, to) == p.with_prefix("heart")
    # an exported print has no checksum line: it is read as a program file (--from)
    got = predict_with_every_engine(tmp_path / f"k.{suffix}", tmp_path / "rows.csv", "--from", to)
    want = predict_with_every_engine(tmp_path / "m.lp", tmp_path / "rows.csv")
    assert got == want and len(set(map(tuple, got.values()))) == 1
    done = run_aspml("check", tmp_path / f"k.{suffix}", tmp_path / "rows.csv", "--from", to)
    assert done.returncode == 0, done.stderr
    done = run_aspml("explain", tmp_path / f"k.{suffix}", tmp_path / "rows.csv", "--row", "2",
                     "--from", to)
    plain = run_aspml("explain", tmp_path / "m.lp", tmp_path / "rows.csv", "--row", "2")
    assert done.returncode == 0 and "NOT ab1" in done.stdout and done.stdout == plain.stdout


# ---------------------------------------------------------------------------
# keys
# ---------------------------------------------------------------------------

def test_keys_integers_stay_integers_and_other_values_are_strings():
    values = ["17", "-3", "0", "-0", "017", "+5", " 17", "1.5", "2147483647", "2147483648", "P-17",
              "it's", 'a"b', "a\\b", "new\nline"]
    assert entity_keys(values, "asp") == [
        "17", "-3", "0", '"-0"', '"017"', '"+5"', '" 17"', '"1.5"', "2147483647", '"2147483648"',
        '"P-17"', '"it\'s"', '"a\\"b"', '"a\\\\b"', '"new\\nline"']
    assert entity_keys(values, "prolog")[10:] == ["'P-17'", "'it\\'s'", "'a\"b'", "'a\\\\b'",
                                                 "'new\\nline'"]
    assert entity_keys([17, 18.0, np.int64(19)], "prolog") == ["17", "18", "19"]
    # clingo's integers run from -2^31 (a trial: -2147483648 was written as a string)
    assert entity_keys(["-2147483648", "-2147483649"], "asp") == ["-2147483648",
                                                                  '"-2147483649"']
    import clingo
    ctl = clingo.Control()
    ctl.add("base", [], "row(-2147483648).")
    ctl.ground([("base", [])])
    assert [str(a.symbol) for a in ctl.symbolic_atoms.by_signature("row", 1)] == \
        ["row(-2147483648)"]
    with pytest.raises(aspml.AspmlError, match=r"key column 'k' has no value in row 1"):
        entity_keys(["a", None, "b"], "asp", column="k")
    with pytest.raises(aspml.AspmlError, match=r"key column 'k' has no value in row 2"):
        entity_keys(["a", "b", "?"], "asp", ("?",), column="k")
    with pytest.raises(aspml.AspmlError, match=r"holds \"a\" twice \(rows 0 and 2"):
        entity_keys(["a", "b", "a"], "prolog", column="k")


HOSTILE_KEYS = list(dict.fromkeys(k for k in HOSTILE if k.strip() and k != "?")) + [
    "17", "017", "-0", "x). evil(X) :- true. %", "'quoted'", "2147483648", "end\r\n"]


@pytest.mark.parametrize("prefix", [None, "kb"])
def test_hostile_keys_answer_in_clingo_and_swipl(prefix, tmp_path, swipl):
    p = aspml.parse(BIRDS, "text")
    n = len(HOSTILE_KEYS)
    X = pd.concat([BIRD_ROWS] * (n // len(BIRD_ROWS) + 1), ignore_index=True).iloc[:n].copy()
    X["name"] = HOSTILE_KEYS
    q = p if prefix is None else p.with_prefix(prefix)
    keys = [key_value(k) for k in HOSTILE_KEYS]
    assert len(set(keys)) == n
    expected = expected_answers(q, X, keys)
    assert expected["flies"] and expected[Naming.of(q).atom("ab2")]
    pl = tmp_path / "kb.pl"
    pl.write_text(aspml.export(q, "prolog", X, key="name"), encoding="utf-8")
    assert swipl_keys([pl], goals_of(q)) == expected
    lp = aspml.export(q, "asp", X, key="name")
    assert clingo_keys([lp], goals_of(q), arities(q)) == expected
    domain = "row" if prefix is None else "kb_row"
    assert f"{domain}(17)." in lp and f'{domain}("017").' in lp and f'{domain}("-0").' in lp


@settings(max_examples=25, deadline=None, suppress_health_check=SLOW_OK)
@given(programs_with_tables(), st.sampled_from([None, "kb"]))
def test_random_programs_keyed_by_text_answer_in_clingo(case, prefix):
    p, X = case
    q = p if prefix is None else p.with_prefix(prefix)
    keys = [f"r{i}'\"{i}" for i in range(len(X))]
    X = X.copy()
    X["aspml key column"] = keys
    lp = aspml.export(q, "asp", X, key="aspml key column")
    assert clingo_keys([lp], goals_of(q), arities(q)) == expected_answers(q, X, keys)


# ---------------------------------------------------------------------------
# the command line
# ---------------------------------------------------------------------------

@pytest.fixture()
def birds_files(tmp_path):
    p = aspml.parse(BIRDS, "text")
    p.save(tmp_path / "m.lp")
    X = BIRD_ROWS.assign(name=["tweety", "it's", 'say "hi"', "17", "back\\slash", "0"])
    X.to_csv(tmp_path / "rows.csv", index=False)
    return p, X, tmp_path


@pytest.mark.parametrize("to", ["asp", "prolog"])
def test_cli_export_with_key_and_prefix_is_the_python_export(birds_files, to, swipl):
    p, X, tmp = birds_files
    done = run_aspml("export", tmp / "m.lp", "--to", to, "--facts", tmp / "rows.csv",
                     "--key", "name", "--prefix", "birds")
    assert done.returncode == 0, done.stderr
    frame = pd.read_csv(tmp / "rows.csv", dtype=str, keep_default_na=False, na_values=[""])
    assert done.stdout == aspml.export(p, to, frame, key="name", prefix="birds",
                                       source="rows.csv")
    assert "% rows of rows.csv\n" in done.stdout
    q = p.with_prefix("birds")
    keys = [key_value(k) for k in X["name"]]
    if to == "prolog":
        assert "birds_row('tweety').\nbirds_row('it\\'s')." in done.stdout
        (tmp / "kb.pl").write_text(done.stdout, encoding="utf-8")
        got = swipl_keys([tmp / "kb.pl"], goals_of(q))
    else:
        assert 'birds_row("tweety").\nbirds_row("it\'s").' in done.stdout
        got = clingo_keys([done.stdout], goals_of(q), arities(q))
    assert got == expected_answers(q, X, keys)


def test_cli_names_lists_the_predicates(birds_files):
    _, _, tmp = birds_files
    done = run_aspml("export", tmp / "m.lp", "--to", "prolog", "--names", "--prefix", "birds")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        'column\t"penguin"\tpenguin/2', 'column\t"weight"\tweight/2',
        'column\t"heart_ab1"\theart_ab1/2', 'target\t"flies"\tflies/2',
        'exception\t"ab1"\tbirds_ab1/1', 'exception\t"ab2"\tbirds_ab2/1',
        'rows\t"row"\tbirds_row/1']
    scasp = run_aspml("export", tmp / "m.lp", "--to", "scasp", "--names")
    assert 'exception\t"ab3"\tab3/1' in scasp.stdout


@pytest.mark.parametrize("args, words", [
    (["--facts", "{bad}", "--key", "name"], ["key column 'name' has no value in row 1"]),
    (["--facts", "{dup}", "--key", "name"], ["key column 'name' holds \"a\" twice"]),
    (["--facts", "{rows}", "--key", "nope"], ["no key column 'nope'"]),
    (["--key", "name"], ["--key", "--facts"]),
    (["--facts", "{rows}", "--prefix", "Heart"], ["prefix 'Heart'"]),
    (["--prefix", "aspml"], ["prefix 'aspml' makes 'aspml_row'"]),
    (["--names", "--facts", "{rows}"], ["--names"]),
])
def test_cli_bad_key_or_prefix_is_one_line(birds_files, args, words):
    _, X, tmp = birds_files
    X.assign(name=["a", None, "b", "c", "d", "e"]).to_csv(tmp / "bad.csv", index=False)
    X.assign(name=["a", "b", "a", "c", "d", "e"]).to_csv(tmp / "dup.csv", index=False)
    files = {"bad": tmp / "bad.csv", "dup": tmp / "dup.csv", "rows": tmp / "rows.csv"}
    args = [a.format(**files) for a in args]
    one_line_error(run_aspml("export", tmp / "m.lp", "--to", "prolog", *args), *words)


def test_the_prolog_print_says_when_it_needs_row_facts():
    """A rule that starts from no feature (and a multi-class default) reads the row facts:
    the Prolog print says so in its header, with the prefix; a program that never reads
    them says nothing (a trial's knowledge base without heart_row facts got other
    classes, silently)."""
    guarded = aspml.parse('IF col != "red" AND NOT ab1 THEN label = "yes"\nIF x > 9 THEN ab1',
                          "text").with_prefix("heart")
    text = guarded.print("prolog")
    assert "% Input: heart_row(X) for each row X" in text.splitlines()[1]
    assert aspml.parse(text, "prolog") == guarded
    plain = aspml.parse('IF x > 9 AND col != "red" THEN label = "yes"', "text")
    assert "% Input:" not in plain.print("prolog")


def test_the_input_line_says_how_a_boolean_feature_is_written(tmp_path, swipl):
    """A deployment trial wrote smoker(0,true) as "pred(X,Value)" said, and a positive row
    turned negative: the line says a Boolean feature is pred(X) when true, no fact when
    false; facts written so give the fast path's answers in clingo and SWI-Prolog."""
    import clingo
    p = aspml.parse('IF smoker AND age > 60 THEN y = "sick"\nIF NOT smoker AND age > 80 '
                    'THEN y = "sick"', "text")
    asp, pl = p.print("asp"), aspml.parse(p.print("asp"), "asp").print("prolog")
    line = ("for each known value; a Boolean feature as pred(X) when true, no fact when "
            "false.")
    assert asp.splitlines()[1].endswith(line)
    assert not aspml.parse('IF age > 60 THEN y = "sick"', "text").print("asp") \
        .splitlines()[1].endswith(line)
    X = pd.DataFrame({"smoker": [True, False, True, False], "age": [70, 70, 50, 85]})
    fast = p.predict(X).tolist()
    assert fast == [True, False, False, True]
    facts = "".join(f"row({i}). age({i},{a}). " + (f"smoker({i}). " if s else "")
                    for i, (s, a) in enumerate(zip(X.smoker, X.age)))
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], asp + "\n" + facts)
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as handle:
        atoms = next(iter(handle)).symbols(shown=True)
    sick = {a.arguments[0].number for a in atoms if a.name == "y"}
    assert [i in sick for i in range(4)] == fast
    (tmp_path / "m.pl").write_text(pl + "\n" + facts.replace(". ", ".\n"), encoding="utf-8")
    done = run_swipl("forall(member(I,[0,1,2,3]), (y(I,'sick') -> write(1) ; write(0)))",
                     [tmp_path / "m.pl"])
    assert done.stdout.strip() == "".join("1" if f else "0" for f in fast)


# -- programs that cannot share one knowledge base ------------------------------------

def _body_mass_programs():
    """A trial's pair: A reads "Body Mass" and body_mass (so "Body Mass" is body_mass_2),
    B reads "Body Mass" alone (so it is body_mass): one predicate, two columns."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"Body Mass": rng.normal(28, 5, 200).round(1),
                      "body_mass": rng.normal(60, 5, 200).round(1)})
    a = aspml.parse('IF "Body Mass" > 30 AND body_mass > 58 THEN obese = "yes"', "text")
    b = aspml.parse('IF "Body Mass" > 30 THEN heavy = "yes"', "text")
    return X, a.with_prefix("pa"), b.with_prefix("pb")


def test_clashes_name_what_two_programs_cannot_share(tmp_path, swipl):
    """``aspml.export.clashes``: one predicate for two columns (each program reads the
    other's facts: checked in one swipl session, where B then holds for rows Python
    says it does not), a target that is another program's column, a column of two
    kinds, two scales in asp, one exception in two unprefixed programs; none for the
    documented pair of prefixed programs with different targets."""
    from aspml.export import clashes
    X, a, b = _body_mass_programs()
    assert a.predicates["Body Mass"] != b.predicates["Body Mass"] == a.predicates["body_mass"]
    found = clashes([a, b])
    assert len(found) == 1 and "two columns, one predicate" in found[0], found
    # what it means: B reads A's body_mass facts as its "Body Mass"
    (tmp_path / "a.pl").write_text(aspml.export(a, "prolog", X))
    (tmp_path / "b.pl").write_text(aspml.export(b, "prolog", X))
    got = run_swipl("forall(heavy(R, yes), (write(R), nl))",
                    [tmp_path / "a.pl", tmp_path / "b.pl"])
    rows = {int(r) for r in got.stdout.split()}
    assert rows != set(np.flatnonzero(b.predict(X)))
    cases = [
        ('IF age > 60 THEN label = "yes"', 'IF label = "yes" THEN risk = "high"',
         "prolog", "target 'label' and program 2's column 'label'"),
        ('IF zip = "20095" THEN t1 = "yes"', 'IF zip > 50000 THEN t2 = "yes"',
         "prolog", "column 'zip' is categorical in program 1 and numeric in program 2"),
        ('IF x > 100000.5 THEN t1 = "yes"', 'IF x > 123456.78 THEN t2 = "yes"',
         "asp", "scale 10 in program 1 and 100 in program 2"),
        ('IF a > 1 AND NOT ab1 THEN t1 = "yes"\nIF c = "x" THEN ab1',
         'IF a > 2 AND NOT ab1 THEN t2 = "yes"\nIF c = "y" THEN ab1',
         "prolog", "ab1/1: program 1's exception 'ab1' and program 2's exception 'ab1'"),
    ]
    for one, two, dialect, words in cases:
        p, q = aspml.parse(one, "text"), aspml.parse(two, "text")
        assert any(words in c for c in clashes([p, q], dialect)), clashes([p, q], dialect)
    # the scales differ only in asp; prefixes part the exceptions
    p, q = aspml.parse(cases[2][0], "text"), aspml.parse(cases[2][1], "text")
    assert clashes([p.with_prefix("one"), q.with_prefix("two")], "prolog") == []
    # two programs without a prefix: the second file's facts replace the first's in swipl
    assert any("no prefix" in c for c in clashes([p, q], "prolog"))
    for one_program in ("asp", "scasp"):       # clingo and s(CASP): the files are one program
        assert not any("no prefix" in c for c in clashes([p, q], one_program))
    people = pd.DataFrame({"x": [100001.0, 5.0]})
    (tmp_path / "p.pl").write_text(aspml.export(p, "prolog", people))
    (tmp_path / "q.pl").write_text(aspml.export(q, "prolog", people.assign(x=[9.0, 8.0])))
    got = run_swipl("forall(t1(R, yes), (write(R), nl))", [tmp_path / "p.pl", tmp_path / "q.pl"])
    assert got.stdout.split() != ["0"]          # the answer p gives alone is lost
    # the rows' predicate of one program is another's column
    rows = aspml.parse('IF x != "red" THEN t1 = "yes"', "text").with_prefix("heart")
    col = aspml.parse('IF heart_row THEN t2 = "yes"', "text").with_prefix("other")
    assert any("heart_row/1" in c for c in clashes([rows, col]))
    # scasp: the exception its print makes for not (x <= 3) beside another program's ab1
    n1 = aspml.parse('IF NOT (x <= 3) THEN t1 = "yes"', "text")
    n2 = aspml.parse('IF a > 2 AND NOT ab1 THEN t2 = "yes"\nIF c = "y" THEN ab1', "text")
    assert not any("ab1/1" in c for c in clashes([n1, n2], "asp"))
    assert any("ab1/1" in c for c in clashes([n1, n2], "scasp"))
    p, q = aspml.parse(cases[3][0], "text"), aspml.parse(cases[3][1], "text")
    assert clashes([p.with_prefix("one"), q.with_prefix("two")]) == []
    risk = aspml.parse('IF age > 60 AND NOT ab1 THEN risk = "high"\n'
                       'IF "Sport Club" = "yes" THEN ab1', "text")
    vote = aspml.parse('IF party = "d" AND NOT ab1 THEN democrat = "yes"\n'
                       'IF age <= 20 THEN ab1', "text")
    assert clashes([risk.with_prefix("heart"), vote.with_prefix("vote")]) == []
    assert clashes([risk.with_prefix("heart"), vote.with_prefix("vote")], "asp") == []


def test_export_alongside_refuses_a_program_that_clashes(tmp_path):
    """``aspml export MODEL --alongside OTHER ...``: a program whose predicates clash
    with the knowledge base's other programs (saved models, or exports with their facts
    and prefixes) is one line, exit 2; one that does not prints as without the option."""
    X, a, b = _body_mass_programs()
    data = tmp_path / "bm.csv"
    X.to_csv(data, index=False)
    a.with_prefix(None).save(tmp_path / "a.lp")
    b.with_prefix(None).save(tmp_path / "b.lp")
    a_pl = tmp_path / "a.pl"
    done = run_aspml("export", tmp_path / "a.lp", "--to", "prolog", "--facts", data,
                     "--prefix", "pa")
    a_pl.write_text(done.stdout)
    for other in (a_pl, tmp_path / "a.lp"):
        one_line_error(run_aspml("export", tmp_path / "b.lp", "--to", "prolog", "--prefix",
                                 "pb", "--alongside", other),
                       "cannot share a knowledge base", "body_mass/2", "two columns",
                       "program 2 " + str(tmp_path / "b.lp"))
    one_line_error(run_aspml("export", tmp_path / "a.lp", "--to", "prolog", "--prefix",
                             "pa2", "--alongside", a_pl), "obese/2", "different targets")
    vote = aspml.parse('IF party = "d" AND NOT ab1 THEN democrat = "yes"\n'
                       'IF age <= 20 THEN ab1', "text")
    vote.save(tmp_path / "vote.lp")
    plain = run_aspml("export", tmp_path / "vote.lp", "--to", "prolog", "--prefix", "vote")
    beside = run_aspml("export", tmp_path / "vote.lp", "--to", "prolog", "--prefix", "vote",
                       "--alongside", a_pl)
    assert beside.returncode == 0 and beside.stdout == plain.stdout, beside.stderr
    # a clash among the others is one too: the knowledge base would hold it
    one_line_error(run_aspml("export", tmp_path / "vote.lp", "--to", "prolog", "--prefix",
                             "vote", "--alongside", a_pl, tmp_path / "b.lp"), "body_mass/2")
    one_line_error(run_aspml("export", tmp_path / "vote.lp", "--to", "text", "--alongside",
                             a_pl), "--alongside")
    # two exports in one file: both programs are read (the second clashes)
    both = tmp_path / "both.pl"
    b_pl = run_aspml("export", tmp_path / "b.lp", "--to", "prolog", "--facts", data,
                     "--prefix", "pb").stdout
    both.write_text(a_pl.read_text() + b_pl)
    one_line_error(run_aspml("export", tmp_path / "vote.lp", "--to", "prolog", "--prefix",
                             "vote", "--alongside", both), "body_mass/2")
    # asp with --facts: the scale the export prints (the data's decimals), not the model's
    s1 = aspml.parse('IF x > 1 THEN t1 = "yes"', "text")
    s2 = aspml.parse('IF x > 2 THEN t2 = "yes"', "text")
    s1.save(tmp_path / "s1.lp")
    s2.save(tmp_path / "s2.lp")
    whole, fine = tmp_path / "whole.csv", tmp_path / "fine.csv"
    pd.DataFrame({"x": [0, 3, 5]}).to_csv(whole, index=False)
    pd.DataFrame({"x": [0.5, 1.2, 2.25]}).to_csv(fine, index=False)
    f1 = tmp_path / "f1.lp"
    f1.write_text(run_aspml("export", tmp_path / "s1.lp", "--to", "asp", "--facts", whole,
                            "--prefix", "a").stdout)
    one_line_error(run_aspml("export", tmp_path / "s2.lp", "--to", "asp", "--facts", fine,
                             "--prefix", "b", "--alongside", f1), "x/2", "scale")
    f1.write_text(run_aspml("export", tmp_path / "s1.lp", "--to", "asp", "--facts", fine,
                            "--prefix", "a").stdout)
    done = run_aspml("export", tmp_path / "s2.lp", "--to", "asp", "--facts", fine, "--prefix",
                     "b", "--alongside", f1)
    assert done.returncode == 0, done.stderr
