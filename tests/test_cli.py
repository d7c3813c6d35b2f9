"""The aspml command: real subprocesses, one clear line on a mistake, no traceback."""

import subprocess
import sys

import pytest

from conftest import ROOT

BIRDS = ROOT / "examples" / "birds"


def aspml(*args, **kw):
    return subprocess.run([sys.executable, "-m", "aspml.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, **kw)


def test_export_predict_check():
    out = aspml("export", BIRDS / "birds.lp", "--to", "text")
    assert out.returncode == 0 and out.stdout.startswith("IF bird AND NOT abnormal_bird THEN flies")
    out = aspml("predict", BIRDS / "birds.lp", BIRDS / "birds.csv", "--engine", "clingo")
    assert out.stdout.splitlines() == ["row,flies", "0,True", "1,False", "2,True", "3,False"]
    out = aspml("check", BIRDS / "birds.lp", BIRDS / "birds.csv")
    assert "agree on every row: True" in out.stdout and "covers 1 row\n" in out.stdout


@pytest.mark.parametrize("args, message", [
    (("predict", "nope.lp", "x.csv"), "cannot read nope.lp"),
    (("predict", ROOT / "tests" / "golden" / "fold_se_adult.scasp", BIRDS / "birds.csv"),
     "no column(s)"),
    (("predict", BIRDS / "birds.lp", BIRDS / "birds.csv", "-o", "/nonexistent/dir/out.csv"),
     "cannot write"),
    (("export", BIRDS / "birds.csv", "--to", "asp"), "cannot tell the dialect"),
])
def test_mistakes_end_in_one_line(args, message, tmp_path):
    out = aspml(*args)
    assert out.returncode == 2
    assert message in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_malformed_program(tmp_path):
    bad = tmp_path / "bad.lp"
    bad.write_text("flies(X) :- bird(X)\n")
    out = aspml("export", bad, "--to", "text")
    assert out.returncode == 2 and "line 1" in out.stderr and "Traceback" not in out.stderr


def test_closed_pipe_is_not_an_error():
    proc = subprocess.Popen([sys.executable, "-m", "aspml.cli", "export", str(BIRDS / "birds.lp"),
                             "--to", "prolog"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=ROOT)
    proc.stdout.read(10)
    proc.stdout.close()
    assert "Traceback" not in proc.stderr.read().decode()
    proc.wait()


def test_explain_command():
    out = aspml("explain", BIRDS / "birds.lp", BIRDS / "birds.csv", "--row", "1", "--minimal",
                "--counterfactual")
    assert out.returncode == 0
    assert out.stdout.startswith("flies does not hold for this row:")
    assert "These values alone are enough" in out.stdout and "To get the other answer" in out.stdout
    bad = aspml("explain", BIRDS / "birds.lp", BIRDS / "birds.csv", "--row", "7")
    assert bad.returncode == 2 and "--row 7 is not a row" in bad.stderr
