"""What the aspml command does when the system says no: a full disk (the real /dev/full),
no memory, a malformed input file; and how fast ``aspml --version`` answers.

Each is one line on stderr and exit status 2, never exit 1 ("a bug of aspml") and
never a traceback.  Subprocesses run ``python -m aspml`` so that Python's own flush
of stdout at exit is part of the test.
"""

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT
from conftest import run_aspml as aspml

BIRDS = ROOT / "examples" / "birds"
WALK = ROOT / "examples" / "walk" / "walk_time.json"
FULL = Path("/dev/full")
needs_dev_full = pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this system")


def python_m_aspml(*args, stdout=subprocess.PIPE, cwd=ROOT, **kw):
    return subprocess.run([sys.executable, "-m", "aspml", *map(str, args)], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, cwd=cwd, timeout=300, **kw)


def one_line(err: str, start: str) -> None:
    assert "Traceback" not in err and "bug of aspml" not in err, err
    assert len(err.strip().splitlines()) == 1 and err.startswith(start), err


@needs_dev_full
@pytest.mark.parametrize("args", [
    ("predict", BIRDS / "birds.lp", BIRDS / "birds.csv"),
    ("export", BIRDS / "birds.lp", "--to", "prolog"),
    ("learn", BIRDS / "animals.csv", "--target", "flies", "--ignore", "name"),
    ("simplify", WALK, "--rho", "1", "--epsilon", "10"),
    ("explain", BIRDS / "birds.lp", BIRDS / "birds.csv", "--row", "1", "--json"),
    ("--help",),
    ("--version",),
], ids=["predict", "export", "learn", "simplify", "explain", "help", "version"])
def test_stdout_on_a_full_disk_is_one_line_exit_2(args):
    with open(FULL, "w") as full:
        out = python_m_aspml(*args, stdout=full)
    assert out.returncode == 2, out.stderr
    one_line(out.stderr, "aspml")
    assert "No space left on device" in out.stderr


@needs_dev_full
@pytest.mark.parametrize("args", [
    ("predict", BIRDS / "birds.lp", BIRDS / "birds.csv", "-o", FULL),
    ("learn", BIRDS / "animals.csv", "--target", "flies", "--ignore", "name", "-o", FULL),
    ("report", BIRDS / "birds.lp", BIRDS / "animals.csv", "-o", FULL),
    ("simplify", WALK, "--rho", "1", "--epsilon", "10", "-o", FULL),
    ("simplify", WALK, "--rho", "1", "--epsilon", "10", "-o", "/dev/full.json"),
    ("simplify", WALK, "--rho", "1", "--epsilon", "10", "--html", FULL),
], ids=["predict", "learn", "report", "simplify", "simplify-json", "simplify-html"])
def test_every_output_file_on_a_full_disk_is_one_line_exit_2(args, tmp_path):
    args = [a if a != "/dev/full.json" else _full_json(tmp_path) for a in args]
    out = aspml(*args)
    assert out.returncode == 2, out.stderr
    one_line(out.stderr, f"aspml {args[0]}: ")
    assert "No space left on device" in out.stderr


def _full_json(tmp_path):
    """A path ending in .json that is /dev/full (simplify picks the format by the suffix)."""
    link = tmp_path / "model.json"
    link.symlink_to(FULL)
    return link


def test_bench_out_on_a_full_disk_is_one_line_exit_2(tmp_path):
    pytest.importorskip("sklearn")
    if not FULL.exists():
        pytest.skip("no /dev/full on this system")
    data = tmp_path / "d.csv"
    data.write_text("x,y\n" + "".join(f"{i},{'pos' if i % 3 else 'neg'}\n" for i in range(30)))
    (tmp_path / "res.csv").symlink_to(FULL)
    out = aspml("bench", data, "--target", "y", "--learners", "fold-se", "--folds", "2",
                "--out", tmp_path / "res")
    assert out.returncode == 2, out.stderr
    assert "No space left on device" in out.stderr and "Traceback" not in out.stderr


# -- out of memory: a real address-space limit, set after the libraries are loaded ----------

MEMORY_LIMITED = """
import resource, sys
import clingo, numpy, pandas
import aspml.cli
aspml.cli.build_parser()            # the learners' modules: the limit is for the work only
def size():
    with open("/proc/self/status") as fh:
        return next(int(l.split()[1]) * 1024 for l in fh if l.startswith("VmSize:"))
limit = size() + int(sys.argv[1]) * 2**20
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
sys.exit(aspml.cli.main(sys.argv[2:]))
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("engine", ["fast", "clingo"])
def test_out_of_memory_is_one_line_exit_2(engine, tmp_path):
    big = tmp_path / "big.csv"
    rows = 1_000_000 if engine == "fast" else 200_000
    big.write_text("bird,penguin,superpenguin\n" + "true,false,false\n" * rows)
    out = subprocess.run([sys.executable, "-c", MEMORY_LIMITED, "60", "predict",
                          str(BIRDS / "birds.lp"), str(big), "--engine", engine,
                          "-o", str(tmp_path / "out.csv")],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 2, out.stderr
    one_line(out.stderr, "aspml predict: out of memory")


# -- malformed input files -----------------------------------------------------------------

GOOD_BENCH = {"settings": {"folds": 3, "seed": 0},
              "results": [{"data": "heart", "learner": "fold-se", "acc": .75, "f1": .77,
                           "rules": 8.6, "literals": 25.0, "train_s": .004}]}


def _with(path, value):
    """GOOD_BENCH with the item at ``path`` (keys and indexes) set to ``value``."""
    bench = json.loads(json.dumps(GOOD_BENCH))
    *head, last = path
    node = bench
    for key in head:
        node = node[key]
    node[last] = value
    return bench


@pytest.mark.parametrize("bench, where", [
    (_with(("results", 0, "rules"), -5), "results[0].rules: -5"),
    (_with(("settings",), "x"), "settings: expected an object"),
    (_with(("results", 0, "f1"), 1.5), "results[0].f1: 1.5"),
    (_with(("results", 0, "acc"), "0.7"), "results[0].acc: '0.7'"),
    (_with(("results", 0, "learner"), 7), "results[0].learner: 7"),
    (_with(("results", 0, "train_s"), None), "results[0].train_s: None"),
    (_with(("results", 0, "folds"), [{"acc": 1}]), "results[0].folds[0]"),
    (_with(("results", 0), "x"), "results[0]: expected an object"),
    (_with(("results",), {}), "results: expected a list"),
    (_with(("settings", "folds"), 1), "settings.folds: 1"),
    (_with(("settings", "seed"), "zero"), "settings.seed"),
    (_with(("extra",), 1), "\"settings\" and \"results\""),
    ([], "\"settings\" and \"results\""),
], ids=lambda v: v if isinstance(v, str) else None)
def test_report_refuses_a_malformed_bench_file_naming_the_place(bench, where, tmp_path):
    path = tmp_path / "bench.json"
    path.write_text(json.dumps(bench))
    out = aspml("report", BIRDS / "birds.lp", BIRDS / "animals.csv", "--bench", path,
                "-o", tmp_path / "r.html")
    assert out.returncode == 2, out.stderr
    one_line(out.stderr, "aspml report: ")
    assert "is not the JSON that aspml bench --out writes" in out.stderr and where in out.stderr
    assert not (tmp_path / "r.html").exists()


def test_report_takes_what_bench_writes(tmp_path):
    """NaN literals (the reference FOLD-R++ sometimes) and every settings key bench writes."""
    bench = _with(("results", 0, "literals"), float("nan"))
    bench["settings"].update(data_dir="d", datasets=["heart"], learners=["fold-se"],
                             positive={"heart": "present"})
    bench["results"][0]["folds"] = [{"acc": 1, "f1": 1.0, "rules": 2, "literals": 3,
                                     "train_s": 0.1}]
    path = tmp_path / "bench.json"
    path.write_text(json.dumps(bench))
    out = aspml("report", BIRDS / "birds.lp", BIRDS / "animals.csv", "--bench", path,
                "-o", tmp_path / "r.html")
    assert out.returncode == 0, out.stderr


@pytest.mark.parametrize("rules, message", [
    ([{"if": {}, "then": {}}], "rule 1: \"then\" is {}"),
    ([{"if": {"a": [1]}, "then": None}], "rule 1: \"then\" is null"),
    ([{"if": {"a": [1]}, "then": [1, 2, 3]}], "rule 1: \"then\" is [1, 2, 3]"),
    ([{"if": {"a": [[1]]}, "then": 1}], "the value set of 'a' holds [1]"),
    ([{"if": {"a": [{}]}, "then": 1}], "the value set of 'a' holds {}"),
    ([{"if": {"a": {"lo": 1, "lo_closed": "no"}}, "then": 1}], "lo_closed of 'a' must be true"),
    ([{"if": {"": [1]}, "then": 1}], "empty feature name"),
    ({"target": 5, "rules": [{"if": {"a": [1]}, "then": 1}]}, "\"target\" must be a name"),
    ({"rho": "x", "rules": [{"if": {"a": [1]}, "then": 1}]}, "\"rho\" must be a number"),
])
def test_simplify_refuses_a_malformed_rule_list(rules, message, tmp_path):
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(rules))
    out = aspml("simplify", path, "--rho", "1")
    assert out.returncode == 2, out.stderr
    one_line(out.stderr, "aspml simplify: ")
    assert message in out.stderr


def test_simplify_json_written_reads_back(tmp_path):
    out = aspml("simplify", WALK, "--rho", "1", "--epsilon", "10", "-o", tmp_path / "m.json")
    assert out.returncode == 0, out.stderr
    again = aspml("simplify", tmp_path / "m.json", "--rho", "1", "--epsilon", "10")
    assert again.returncode == 0, again.stderr
    direct = aspml("simplify", WALK, "--rho", "1", "--epsilon", "10")

    def rules(text):        # the rules' conditions and heads (names and CC are the run's own)
        return [line.split(": ", 1)[1].split("   [")[0] for line in text.splitlines()[1:]]
    assert rules(again.stdout) == rules(direct.stdout) and len(rules(direct.stdout)) == 4


# -- aspml --version: fast, in a new process -----------------------------------------------

def test_version_is_fast_and_imports_nothing_heavy(tmp_path):
    probe = ("import sys, time; t = time.perf_counter(); sys.argv = ['aspml', '--version']\n"
             "from aspml.cli import main\ncode = main()\n"
             "heavy = sorted(m for m in ('numpy', 'pandas', 'sklearn', 'numba', 'clingo', 'lark')"
             " if m in sys.modules)\n"
             "print(code, heavy, time.perf_counter() - t, file=sys.stderr)")
    out = _python(probe, tmp_path)
    assert out.stdout.startswith("aspml ")
    assert out.stderr.startswith("0 []"), out.stderr       # exit 0, none of them imported
    best = min(_seconds(["--version"], tmp_path) for _ in range(3))
    assert best < 0.3 * _load_factor(), best


def _python(code: str, cwd) -> subprocess.CompletedProcess:
    """``code`` run by a new interpreter in ``cwd`` (a fresh process: nothing imported yet)."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


def _seconds(args, cwd) -> float:
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "aspml", *args], capture_output=True, cwd=cwd,
                         timeout=120)
    assert out.returncode == 0
    return time.perf_counter() - t


def _load_factor() -> float:
    """How much slower than idle this machine runs now (a new bare interpreter's time
    against 0.05 s): the suite shares its cores with other jobs."""
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True, timeout=120)
    return max(1.0, (time.perf_counter() - t) / 0.05)


def test_package_names_load_on_first_use(tmp_path):
    """``import aspml`` is light, and every public name still works (as before: explain and
    generalize are the functions, also once their modules are imported)."""
    probe = ("import sys, aspml; assert 'pandas' not in sys.modules\n"
             "from aspml.explain import Explanation\nfrom aspml.generalize import sources\n"
             "import aspml as a\n"
             "assert callable(a.explain) and callable(a.generalize), (a.explain, a.generalize)\n"
             "assert all(getattr(a, n) is not None for n in a.__all__)\n"
             "assert a.asp.predict and a.data and a.evaluate and a.prolog\n"
             "from aspml import *\nassert FoldSE and load\nprint('ok')")
    out = _python(probe, tmp_path)
    assert out.stdout.strip() == "ok", out.stderr


def test_learn_saves_the_model_when_the_reader_stops_early(tmp_path, monkeypatch):
    """``aspml learn ... -o m.lp | head -1``: the reader closes the pipe after a line.  The
    program was printed before it was saved, so a program larger than the pipe's buffer
    ended the run at the broken pipe, quietly with exit 0 and no file.  The model is saved
    first.  (A stdout that breaks after its first line stands for the pipe.)"""
    import io

    import numpy as np
    import pandas as pd

    import aspml as package
    from aspml.cli import main

    class Head(io.StringIO):
        def write(self, text):
            if "\n" in self.getvalue():
                raise BrokenPipeError(32, "Broken pipe")
            return super().write(text)

    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.integers(0, 1000, 500), "b": rng.integers(0, 1000, 500)})
    frame["label"] = np.where(rng.random(500) < 0.5, "yes", "no")
    frame.to_csv(tmp_path / "t.csv", index=False)
    monkeypatch.setattr("sys.stdout", Head())
    monkeypatch.setattr("aspml.cli._drop_stdout", lambda: None)
    code = main(["learn", str(tmp_path / "t.csv"), "--target", "label", "--positive", "yes",
                 "--learner", "fold-rpp", "-o", str(tmp_path / "m.lp"), "--quiet"])
    assert code == 0
    assert package.load(tmp_path / "m.lp").n_rules > 1


def test_explain_row_of_a_table_without_rows_says_so(tmp_path):
    """A CSV of a header alone: "--row 0 is not a row ... (0 to -1)" read as a bug."""
    from conftest import one_line_error
    model, data = tmp_path / "birds.lp", tmp_path / "empty.csv"
    import aspml as lib
    lib.parse("flies(X) :- bird(X), not ab1(X).\nab1(X) :- penguin(X).", "asp").save(model)
    data.write_text("name,bird,penguin\n")
    one_line_error(aspml("explain", str(model), str(data), "--row", "0"), "it has no rows")
    data.write_text("name,bird,penguin\ntweety,true,false\n")
    one_line_error(aspml("explain", str(model), str(data), "--row", "3"), "(0 to 0)")
