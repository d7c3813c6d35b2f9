"""Hostile program text (issue #19): every malformed program is one ParseError.

Numbers beyond a double, integers past Python's 4,300-digit conversion limit,
terms nested thousands deep and a header JSON nested 100k deep used to end in
lark's VisitError or a RecursionError ("this is a bug of aspml" from the CLI).
"""

import pytest

import aspml
from aspml.errors import ParseError
from conftest import run_aspml

BIG = "9" * 5000                       # past int()'s 4,300-digit limit
WIDE = "9" * 400                       # an integer, but beyond a double
DEEP = 3000

# one rule per dialect, with the hostile piece in place of {}
RULE = {
    "asp": "label(X) :- f(X,N), N > {}.\n",
    "prolog": "label(X) :- f(X,N), N > {}.\n",
    "scasp": "label(X) :- f(X,N), N > {}.\n",
    "text": "IF f > {} THEN label = 1\nELSE label = 0\n",
}
SUFFIX = {"asp": ".lp", "prolog": ".pl", "scasp": ".scasp", "text": ".txt"}


def hostile(dialect):
    """(case name, program text) pairs for a dialect."""
    rule = RULE[dialect]
    cases = [("1e400", rule.format("1e400")), ("-1e400", rule.format("-1e400")),
             ("5000 digits", rule.format(BIG)), ("400 digits", rule.format("-" + WIDE))]
    if dialect == "text":
        cases.append(("nested parens", "IF f = " + "(" * DEEP + "1" + ")" * DEEP
                      + " THEN label = 1\n"))
        cases.append(("nested set", "IF f in " + "{" * DEEP + "1" + "}" * DEEP
                      + " THEN label = 1\n"))
    else:
        cases.append(("nested parens", "label(X) :- f(X," + "(" * DEEP + "1" + ")" * DEEP + ").\n"))
        cases.append(("nested list", "label(X) :- f(X,N), memberchk(N," + "[" * DEEP + "1"
                      + "]" * DEEP + ").\n"))
        cases.append(("nested atom", "label(X) :- f(X," + "g(" * DEEP + "1" + ")" * DEEP + ").\n"))
        cases.append(("deep header", "% aspml: " + "[" * 100_000 + "]" * 100_000
                      + "\nlabel(X) :- f(X).\n"))
        cases.append(("header not an object", "% aspml: [1]\nlabel(X) :- f(X).\n"))
        cases.append(("header 5000 digits", '% aspml: {"aspml": ' + BIG
                      + '}\nlabel(X) :- f(X).\n'))
        cases.append(("escape past Unicode", "label(X) :- f(X,'\\xffffffff\\').\n"))
    return cases


CASES = [(d, name, text) for d in RULE for name, text in hostile(d)]
IDS = [f"{d}-{name}" for d, name, _ in CASES]


@pytest.mark.parametrize("dialect,name,text", CASES, ids=IDS)
def test_parse_refuses_with_one_parse_error(dialect, name, text):
    with pytest.raises(ParseError) as e:
        aspml.parse(text, dialect)
    assert e.value.line is not None or "nested" in str(e.value) or "header" in str(e.value)


@pytest.mark.parametrize("dialect,name,text", CASES, ids=IDS)
def test_cli_refuses_with_one_line(tmp_path, dialect, name, text):
    path = tmp_path / ("program" + SUFFIX[dialect])
    path.write_text(text, encoding="utf-8")
    data = tmp_path / "rows.csv"
    data.write_text("f,label\n1,1\n2,0\n")
    for args in (("export", path, "--to", "text"), ("predict", path, data)):
        r = run_aspml(*args)
        assert r.returncode == 2, (args, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1
        assert "bug of aspml" not in r.stderr and str(path) in r.stderr


def test_numbers_beyond_a_double_are_refused_everywhere():
    # 10**400 is an int Python holds, but every engine compares as doubles
    with pytest.raises(aspml.AspmlError, match="1.8e308"):
        aspml.Compare("f", ">", 10**400)
    # the largest double still reads, and prints back the same
    big = int(1.7e308)
    p = aspml.parse(f"label(X) :- f(X,N), N > {big}.\n", "prolog")
    assert aspml.parse(p.to_prolog(), "prolog") == p


def test_numbers_keep_their_position():
    with pytest.raises(ParseError) as e:
        aspml.parse("label(X) :-\n    f(X,N), N > 1e400.\n", "asp")
    assert (e.value.line, e.value.column) == (2, 17)
