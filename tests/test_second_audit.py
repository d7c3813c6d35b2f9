"""What a second audit of issue #19's fixes found, each through the door it came in by:
a bomb through ``bench`` and ``simplify --reference``; a deep header inside a JSON
object; deep or huge JSON for ``report --bench`` and ``simplify``; a header scale past
what aspml writes; a closed standard output; ``-o m.PL``."""

import gzip
import json
import subprocess
import sys

import pytest

import aspml
from aspml.logic.store import _digest
from conftest import ROOT, one_line_error, run_aspml

BIRDS = ROOT / "examples" / "birds"


@pytest.fixture(scope="module")
def bomb(tmp_path_factory):
    path = tmp_path_factory.mktemp("bomb") / "bomb.csv.gz"
    row = b"1,2,yes\n" * 2**17                                   # 1 MiB
    with gzip.open(path, "wb") as fh:
        fh.write(b"a,b,y\n1,2,no\n")
        for _ in range(80):                                      # 80 MiB from about 80 KiB
            fh.write(row)
    return path


def test_bench_and_simplify_reference_refuse_a_bomb(bomb):
    one_line_error(run_aspml("bench", bomb, "--target", "y", "--positive", "yes",
                             "--learners", "fold-se", "--folds", "2", "--quiet"),
                   "unpacks to more than 64 MiB")
    one_line_error(run_aspml("simplify", BIRDS / "birds.lp", "--rho", "0.5", "--reference", bomb),
                   "unpacks to more than 64 MiB")


def deep(n=100_000):
    return "[" * n + "]" * n


def test_a_deep_header_inside_the_object_is_one_error(tmp_path):
    body = ('% aspml: {"aspml": 1, "dialect": "asp", "features": ' + deep() + '}\n'
            'label(X,"yes") :- x(X,N), N > 1.\n')
    with pytest.raises(aspml.ParseError):
        aspml.parse(body, "asp")
    signed = tmp_path / "d.lp"
    signed.write_bytes((body + "% aspml-sha256: " + _digest(body) + "\n").encode())
    with pytest.raises(aspml.AspmlError):
        aspml.load(signed)
    data = tmp_path / "d.csv"
    data.write_text("x\n1\n2\n")
    for command in ("predict", "check"):
        done = run_aspml(command, signed, data)
        assert done.returncode == 2 and "bug of aspml" not in done.stderr, done.stderr


def test_deep_or_huge_json_is_one_error(tmp_path):
    nested = tmp_path / "nested.json"
    nested.write_text('{"results": ' + deep() + "}")
    one_line_error(run_aspml("report", BIRDS / "birds.lp", BIRDS / "birds.csv", "-o",
                             tmp_path / "r.html", "--bench", nested), "is not the JSON")
    rules = tmp_path / "rules.json"
    rules.write_text('{"rules": ' + deep() + "}")
    one_line_error(run_aspml("simplify", rules, "--rho", "0.5"), "not a rule list")
    huge = tmp_path / "huge.json"
    huge.write_text('{"rules": [{"if": {"a": {"lo": ' + "9" * 5000 + '}}, "then": 1}]}')
    one_line_error(run_aspml("simplify", huge, "--rho", "0.5"), "not a rule list")


@pytest.mark.parametrize("scale", [10**10, 10**20, 10**400])
def test_a_header_scale_past_what_aspml_writes_is_refused(scale):
    text = ('% aspml: {"aspml": 1, "dialect": "asp", "target": {"name": "label", "pred": '
            '"label", "positive": "yes"}, "features": [["x", "x", "numeric", ' + str(scale)
            + ']]}\nlabel(X,"yes") :- x(X,N), N > 25.\n')
    with pytest.raises(aspml.ParseError, match="power of ten"):
        aspml.parse(text, "asp")
    ok = text.replace(str(scale), str(10**9))
    assert aspml.parse(ok, "asp").rules[0].body[0].value == 25 / 10**9


def test_a_closed_standard_output_is_one_line(tmp_path):
    for args in (["predict", BIRDS / "birds.lp", BIRDS / "birds.csv"],
                 ["export", BIRDS / "birds.lp", "--to", "scasp"]):
        done = subprocess.run([sys.executable, "-m", "aspml", *map(str, args)], stdout=None,
                              stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                              preexec_fn=lambda: __import__("os").close(1))
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "standard output is closed" in lines[0], done.stderr


@pytest.mark.parametrize("name", ["m.PL", "m.pro", "m.prolog", "m.LP"])
def test_a_suffix_in_any_case_names_the_dialect(name, tmp_path):
    out = tmp_path / name
    done = run_aspml("learn", BIRDS / "animals.csv", "--target", "flies", "--positive", "yes",
                     "--ignore", "name", "-o", out)
    assert done.returncode == 0, done.stderr
    said = json.loads(next(line for line in out.read_text().splitlines()
                           if line.startswith("% aspml: "))[len("% aspml: "):])["dialect"]
    assert said == ("asp" if name.lower().endswith(".lp") else "prolog")
    lp = tmp_path / "same.lp"
    assert run_aspml("learn", BIRDS / "animals.csv", "--target", "flies", "--positive", "yes",
                     "--ignore", "name", "-o", lp).returncode == 0
    assert aspml.load(out) == aspml.load(lp)
    for engine in ("fast", "clingo"):
        answers = [run_aspml("predict", m, BIRDS / "animals.csv", "--engine", engine).stdout
                   for m in (out, lp)]
        assert answers[0] == answers[1] and answers[0].count("\n") > 2
