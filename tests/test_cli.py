"""The aspml command: every subcommand, one clear line on a mistake, no traceback.

Most tests call ``aspml.cli.main`` (the console script's function) in this
process, which is much faster than a new interpreter per command; a few run
``python -m aspml`` in a real subprocess (exit status, stderr, a closed pipe).
"""

import subprocess
import sys

import pytest

from conftest import ROOT
from conftest import run_aspml as aspml

BIRDS = ROOT / "examples" / "birds"


def test_export_predict_check():
    out = aspml("export", BIRDS / "birds.lp", "--to", "text")
    assert out.returncode == 0 and out.stdout.startswith("IF bird AND NOT abnormal_bird THEN flies")
    out = aspml("predict", BIRDS / "birds.lp", BIRDS / "birds.csv", "--engine", "clingo")
    assert out.stdout.splitlines() == ["row,flies", "0,True", "1,False", "2,True", "3,False"]
    out = aspml("check", BIRDS / "birds.lp", BIRDS / "birds.csv")
    assert "agree on every row: True" in out.stdout and "covers 1 row\n" in out.stdout


@pytest.mark.parametrize("to, suffix", [("prolog", ".pl"), ("asp", ".lp")])
@pytest.mark.parametrize("engine", ["fast", "clingo", "prolog"])
def test_an_exported_program_reads_back_through_every_command(tmp_path, to, suffix, engine):
    """A trial: ``aspml export MODEL --to prolog > m.pl`` then ``aspml predict m.pl`` was
    refused as a save cut short (aspml's header, no checksum line).  An export of the
    program alone is signed as a saved model is: every command reads it back, with the
    same answers on every engine."""
    out = aspml("export", BIRDS / "birds.lp", "--to", to)
    assert out.returncode == 0, out.stderr
    exported = tmp_path / f"m{suffix}"
    exported.write_text(out.stdout)
    want = aspml("predict", BIRDS / "birds.lp", BIRDS / "birds.csv").stdout
    got = aspml("predict", exported, BIRDS / "birds.csv", "--engine", engine)
    assert got.returncode == 0, got.stderr
    assert got.stdout == want
    assert "agree on every row: True" in aspml("check", exported, BIRDS / "birds.csv").stdout
    # an exported file edited after is refused as a changed save, and --edited reads it
    exported.write_text(out.stdout.replace("% aspml program", "% my program", 1))
    assert "changed after it was saved" in aspml("predict", exported, BIRDS / "birds.csv").stderr
    edited = aspml("predict", exported, BIRDS / "birds.csv", "--edited")
    assert edited.returncode == 0 and edited.stdout == want


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


# -- in process: every subcommand, its help, its mistakes ------------------------------

import csv  # noqa: E402
import warnings  # noqa: E402
import json  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import aspml as pkg  # noqa: E402  (aspml() above runs the command)
from aspml.cli import build_parser, main  # noqa: E402

ANIMALS = BIRDS / "animals.csv"
LEARN = ["learn", str(ANIMALS), "--target", "flies", "--ignore", "name", "--ratio", "1",
         "--tail", "0"]


def run_main(capsys, *args):
    """(exit code, stdout, stderr) of ``aspml ARGS`` run in this process."""
    try:
        code = main([str(a) for a in args])
    except SystemExit as e:
        code = e.code
    out = capsys.readouterr()
    return code, out.out, out.err


def subcommands():
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, __import__("argparse")._SubParsersAction))
    return sorted(action.choices)


@pytest.mark.parametrize("command", subcommands())
def test_every_subcommand_has_help_with_an_example(command, capsys):
    code, out, _ = run_main(capsys, command, "--help")
    assert code == 0 and "example" in out and f"aspml {command}" in out


def test_learn_save_and_reuse(tmp_path, capsys):
    model = tmp_path / "birds.lp"
    code, out, err = run_main(capsys, *LEARN, "-o", model)
    assert code == 0 and err == ""
    assert out.splitlines()[1:4] == ['IF bird AND NOT ab1 THEN flies = "yes"',
                                    "IF penguin AND NOT superpenguin THEN ab1",
                                    'ELSE flies = "no"']
    p = pkg.load(model)                        # the saved model loads back exactly
    assert p.target == pkg.Target("flies", "yes", "no") and p.n_rules == 2
    assert dict(p.provenance)["learner"] == "FoldSE" and dict(p.provenance)["ratio"] == 1.0
    code, out, _ = run_main(capsys, "predict", model, ANIMALS, "--engine", "clingo")
    assert out.split() == ["row,flies"] + [f"{i},{v}" for i, v in enumerate(
        ["yes"] * 4 + ["no"] * 3 + ["yes", "no", "no"])]
    code, out, _ = run_main(capsys, "check", model, ANIMALS)
    assert code == 0 and "agree on every row: True" in out


def test_learn_trace_prints_each_step(capsys):
    code, out, _ = run_main(capsys, *LEARN[:-2], "--trace", "--learner", "fold-rpp")
    assert code == 0
    assert "start a default rule: 5 example(s) to cover, 5 to exclude" in out
    assert "add bird  (heuristic " in out
    assert "3 wrongly covered: learn exceptions for them" in out
    assert "start an exception (depth 2)" in out


def test_trace_callback_changes_nothing():
    X = pd.read_csv(ANIMALS, dtype=str).drop(columns=["name", "flies"])
    y = pd.read_csv(ANIMALS, dtype=str)["flies"]
    steps = []
    a = pkg.FoldSE(ratio=1, tail=0).fit(X, y, trace=steps.append).program_
    b = pkg.FoldSE(ratio=1, tail=0).fit(X, y).program_
    assert a == b and {s["step"] for s in steps} == {"rule", "literal", "exceptions", "covered"}
    lit = next(s for s in steps if s["step"] == "literal")
    assert isinstance(lit["literal"], pkg.Literal) and isinstance(lit["score"], float)


def test_learn_other_learners_and_options(tmp_path, capsys):
    cpu = ROOT / "examples" / "libre_cpu_mem" / "cpu_mem.csv"
    code, out, _ = run_main(capsys, "learn", cpu, "--target", "Label", "--learner", "libre",
                            "--n-estimators", "1", "--max-features", "2", "--random-state", "0",
                            "--param", 'cut_points={"CPU": [81, 95], "MEM": [85]}')
    assert code == 0 and "IF CPU in [95, inf) THEN Label = 1" in out   # numeric labels stay numbers
    code, out, _ = run_main(capsys, *LEARN, "--learner", "fold-se", "--param", "heuristic=ig",
                            "--kind", "penguin=categorical")
    assert code == 0 and 'IF penguin != "false" AND NOT superpenguin THEN ab1' in out


def test_learn_one_class_against_the_others(tampered, capsys):
    code, out, _ = run_main(capsys, "learn", tampered / "classes.csv", "--target", "c",
                            "--positive", "1", "--tail", "0")
    assert code == 0 and out.rstrip().endswith('ELSE c = "not 1"')


def test_an_aspml_bug_is_still_one_line(capsys, monkeypatch):
    from aspml import cli_learners
    monkeypatch.delenv("ASPML_DEBUG", raising=False)
    monkeypatch.setattr(cli_learners, "learning_data", lambda *a: 1 / 0)
    code, _, err = run_main(capsys, *LEARN)
    assert code == 1 and "unexpected error ZeroDivisionError" in err
    assert len(err.strip().splitlines()) == 1


def test_mrs_is_one_line_away(monkeypatch):
    from aspml import cli_learners
    assert "mrs" not in cli_learners.available() or hasattr(pkg, "MultiValueRuleSet")
    monkeypatch.setattr(pkg, "MultiValueRuleSet", pkg.FoldSE, raising=False)
    assert "mrs" in cli_learners.available()


@pytest.fixture
def tampered(tmp_path):
    model = tmp_path / "m.lp"
    pkg.parse("IF age > 50 THEN label = 1", "text").save(model)
    changed = tmp_path / "changed.lp"
    changed.write_text(model.read_text().replace("50", "40"))
    cut = tmp_path / "cut.lp"
    cut.write_text(model.read_text().rpartition("% aspml-sha256")[0][:-10])
    half = tmp_path / "half.lp"
    half.write_text(model.read_text()[:-30])
    binary = tmp_path / "bin.csv"
    binary.write_bytes(b"\xff\xfe\x00a,b\n\x80\x81,2\n")
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    (tmp_path / "one.csv").write_text("a,y\n1,p\n2,p\n")
    (tmp_path / "bad_value.csv").write_text("bird,penguin,superpenguin\nmaybe,false,false\n")
    (tmp_path / "twice.csv").write_text("a,a,y\n1,2,p\n3,4,n\n")
    (tmp_path / "classes.csv").write_text("x,c\n1,0\n2,1\n3,2\n4,1\n5,0\n6,2\n")
    (tmp_path / "nocheck.lp").write_text(model.read_text().rpartition("% aspml-sha256")[0])
    (tmp_path / "empty.lp").write_text("\n")
    (tmp_path / "bin.lp").write_bytes(b"\x80\x81\xff joblib")
    (tmp_path / "garbage.lp").write_text("a,b\n1,2\n")
    # an export with --facts (a trial: "loads with --from asp", which then refused the facts)
    (tmp_path / "facts.lp").write_text(pkg.export(pkg.load(model), "asp", pd.DataFrame(
        {"age": [30, 60]}), source="d.csv"))
    return tmp_path


@pytest.mark.parametrize("args, message", [
    ([*LEARN[:2], "--target", "nope"], "has no column 'nope'"),
    ([*LEARN, "--positive", "maybe"], "--positive 'maybe' is not a value of column 'flies'"),
    (["learn", "missing.csv", "--target", "x"], "cannot read missing.csv"),
    (["learn", "{tmp}/bin.csv", "--target", "a"], "cannot read"),
    (["learn", "{tmp}/empty.csv", "--target", "a"], "cannot read"),
    ([*LEARN[:3], "name"], "too many to learn each as a class"),
    (["learn", "{tmp}/one.csv", "--target", "y"], "holds only 'p': a classifier needs two classes"),
    (["learn", "{tmp}/twice.csv", "--target", "y"], "names the column(s) ['a'] more than once"),
    (["learn", "{tmp}/classes.csv", "--target", "c", "--positive", "7"],
     "--positive 7 is not a value of column 'c' (its values: 0, 1, 2)"),
    ([*LEARN, "--learner", "c4.5"], "unknown learner 'c4.5'"),
    ([*LEARN, "--n-estimators", "3"], "--n-estimators does not apply to fold-se"),
    ([*LEARN, "--param", "depth=3"], "--param depth: fold-se has no such parameter"),
    ([*LEARN, "--param", "oops"], "write it as KEY=VALUE"),
    ([*LEARN, "--ratio", "-1"], "ratio must be a number >= 0"),
    ([*LEARN[:6], "--learner", "libre", "--trace"], "--trace works with fold-se and fold-rpp"),
    ([*LEARN, "--kind", "bird=weird"], "kind 'weird' is not one of"),
    ([*LEARN, "-o", "/nonexistent/dir/m.lp"], "cannot write /nonexistent/dir/m.lp"),
    (["predict", "{tmp}/changed.lp", str(ANIMALS)], "was changed after it was saved"),
    (["predict", str(BIRDS / "birds.lp"), "{tmp}/bad_value.csv"],
     "column 'bird' is boolean but holds 'maybe'"),
    (["check", "{tmp}/cut.lp", str(ANIMALS)], "a saved model cut short"),
    (["predict", "{tmp}/nocheck.lp", str(ANIMALS)], "no '% aspml-sha256:' line at its end"),
    (["predict", "{tmp}/empty.lp", str(ANIMALS)], "is empty: there is no program in it"),
    (["predict", "{tmp}/facts.lp", str(ANIMALS)], "facts.lp is an export with the rows' facts"),
    (["predict", "{tmp}/facts.lp", str(ANIMALS), "--from", "asp"],
     "give the saved model, or an export without --facts"),
    (["predict", "{tmp}/bin.lp", str(ANIMALS)], "is not a program file: it is not text"),
    (["export", "{tmp}/bin.lp", "--to", "text"], "is not a program file: it is not text"),
    (["predict", "{tmp}/garbage.lp", str(ANIMALS)], "garbage.lp: line 1, column"),
    (["explain", "{tmp}/m.lp", str(ANIMALS), "--row", "0"], "no column(s) ['age']"),
    (["learn", *LEARN[1:], "--digits", "12"], "--digits 12: give 0 to 9 decimals"),
    (["check", "{tmp}/half.lp", str(ANIMALS)], "was changed after it was saved"),
    (["export", "{tmp}/changed.lp", "--to", "prolog"], "was changed after it was saved"),
    (["export", str(BIRDS / "birds.lp"), "--to", "text", "--facts", str(ANIMALS)],
     "--facts goes with --to asp or --to prolog"),
    (["report", "{tmp}/m.lp", str(ANIMALS), "-o", "{tmp}/r.html"], "no column(s) ['age']"),
    (["report", str(BIRDS / "birds.lp"), str(ANIMALS), "--target", "nope", "-o", "{tmp}/r.html"],
     "has no column 'nope'"),
    (["report", str(BIRDS / "birds.lp"), str(ANIMALS), "--bench", str(ANIMALS), "-o", "{tmp}/r.html"],
     "is not the JSON that aspml bench --out writes"),
    (["report", str(BIRDS / "birds.lp"), str(ANIMALS), "-o", "/nonexistent/dir/r.html"],
     "cannot write"),
    (["bench", "--data-dir", "{tmp}/nowhere"], "cannot read"),
    # argparse's own mistakes too: not the whole usage block
    (["learn", str(ANIMALS), "--target", "bird", "--random-state", "abc"],
     "argument --random-state: invalid int value: 'abc'"),
    (["learn", str(ANIMALS)], "the following arguments are required: --target"),
    (["bogus"], "invalid choice: 'bogus'"),
])
def test_mistakes_are_one_line(args, message, tampered, capsys):
    args = [a.replace("{tmp}", str(tampered)) for a in args]
    code, _, err = run_main(capsys, *args)
    assert code == 2, err
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_python_m_aspml_one_line_on_a_mistake():
    out = subprocess.run([sys.executable, "-m", "aspml", "learn", str(ANIMALS), "--target", "nope"],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.startswith("aspml learn: ") and len(out.stderr.strip().splitlines()) == 1


# -- bench on a tiny manifest ------------------------------------------------------------

@pytest.fixture
def manifest(tmp_path):
    rng = np.random.default_rng(0)
    for name in ("small", "tiny"):
        n = 60
        df = pd.DataFrame({"x": rng.integers(0, 100, n), "c": rng.choice(["a", "b", "?"], n)})
        df["y"] = np.where((df.x > 50) | (df.c == "a"), "pos", "neg")
        (tmp_path / name).mkdir()
        df.to_csv(tmp_path / name / f"{name}.csv", index=False)
    rows = [["name", "label_column", "positive_value", "categorical_columns", "numeric_columns",
             "files"],
            ["small", "y", "pos", "c", "x", "small/small.csv"],
            ["tiny", "y", "pos", "c", "x", "tiny/tiny.csv"],
            ["many", "y", "a|b|c (multi-class)", "c", "x", "tiny/tiny.csv"]]
    with open(tmp_path / "MANIFEST.tsv", "w", newline="") as fh:
        csv.writer(fh, delimiter="\t").writerows(rows)
    return tmp_path


def test_bench_table_csv_json(manifest, tmp_path, capsys):
    out = tmp_path / "res"
    code, text, err = run_main(capsys, "bench", "--data-dir", manifest, "--learners", "fold-se",
                               "fold-rpp", "--folds", "3", "--out", out)
    assert code == 0, err
    lines = [line for line in text.splitlines() if line.startswith("| small") or
             line.startswith("| tiny")]
    assert len(lines) == 4                              # "many" is multi-class: left out
    assert "\r" not in err and "fold/s" not in err        # no progress bar off a terminal
    table = pd.read_csv(f"{out}.csv")
    assert list(table.columns) == ["data", "learner", "acc", "f1", "bal_acc", "precision", "recall",
                                   "rules", "literals", "train_s"]
    assert set(table.learner) == {"fold-se", "fold-rpp"} and (table.f1 > 0.8).all()
    saved = json.loads(open(f"{out}.json").read())
    assert saved["settings"]["folds"] == 3 and len(saved["results"][0]["folds"]) == 3
    # the report draws those results
    page = tmp_path / "r.html"
    code, _, _ = run_main(capsys, "report", BIRDS / "birds.lp", BIRDS / "birds.csv",
                          "--bench", f"{out}.json", "-o", page)
    assert code == 0 and page.read_text().count("<svg") == 3    # all datasets + one per dataset


def test_bench_progress_bar_on_a_terminal(manifest, capsys, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    code, _, err = run_main(capsys, "bench", "--data-dir", manifest, "--datasets", "tiny",
                            "--learners", "fold-se", "--folds", "2")
    assert code == 0 and "bench" in err
    code, _, err = run_main(capsys, "bench", "--data-dir", manifest, "--datasets", "tiny",
                            "--learners", "fold-se", "--folds", "2", "--quiet")
    assert code == 0 and err == ""


@pytest.mark.parametrize("args, message", [
    (["--datasets", "nope"], "has no dataset 'nope'"),
    (["--datasets", "many", "--multiclass", "--positive", "many=pos"], "leave out --positive"),
    (["--learners", "c4.5"], "learner 'c4.5' is not available"),
    (["--folds", "1"], "needs at least 2 folds"),
    (["--out", "/nonexistent/dir/res"], "cannot write /nonexistent/dir/res.csv/.json"),
    (["--positive", "tiny"], "write it as DATASET=VALUE"),
    (["--learners", "fold-se:depth=2"], "fold-se has no parameter 'depth'"),
    (["--learners", "fold-se:ratio"], "write parameters as NAME:KEY=VALUE"),
])
def test_bench_mistakes(args, message, manifest, capsys):
    code, _, err = run_main(capsys, "bench", "--data-dir", manifest, *args)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_bench_learner_parameters(manifest, capsys):
    code, out, _ = run_main(capsys, "bench", "--data-dir", manifest, "--datasets", "tiny",
                            "--learners", "fold-se", "fold-se:ratio=1,tail=0", "--folds", "2")
    assert code == 0 and "| tiny | fold-se:ratio=1,tail=0 |" in out


def test_bench_other_positive(manifest, capsys):
    code, out, _ = run_main(capsys, "bench", "--data-dir", manifest, "--datasets", "many",
                            "--positive", "many=pos", "--learners", "fold-se", "--folds", "2")
    assert code == 0 and "| many | fold-se |" in out


def test_help_examples_that_use_the_shipped_examples_run(tmp_path, capsys):
    """The examples in each command's --help that read files of examples/ really run."""
    import shlex

    from test_examples import run_aspml, workspace
    cwd = workspace(tmp_path)
    ran = 0
    for command in subcommands():
        code, out, _ = run_main(capsys, command, "--help")
        lines = out.splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("example"))
        for line in lines[start:]:
            line = line.removeprefix("example: ").split("#")[0]
            words = shlex.split(line)
            if words[:2] != ["aspml", command]:
                continue
            inputs = [w for w in words if w.endswith((".csv", ".lp")) and "/" in w]
            if not inputs or not all(w.startswith("examples/") for w in inputs):
                continue
            target = words[-1] if len(words) > 2 and words[-2] == ">" else None
            code, output = run_aspml(words[1:-2] if target else words[1:], cwd, target)
            assert code == 0, f"{line}\n{output}"
            ran += 1
    assert ran >= 6


def test_check_gives_precision_when_the_data_has_labels(tmp_path, capsys):
    model = tmp_path / "m.lp"
    run_main(capsys, *LEARN, "-o", model)
    code, out, _ = run_main(capsys, "check", model, ANIMALS)
    assert code == 0
    assert "10 labelled rows (flies): accuracy 1.000, precision 1.000" in out
    assert "  rule 2 (ab1): covers 3 rows, precision 1.000 (3/3 negative)" in out
    # the confusion matrix, as a multi-class check prints it (a clinic trial)
    assert ("confusion matrix (rows: the label, columns: the program's answer):\n"
            '  actual  "yes"   "no"\n  "yes"       5      0\n  "no"        0      5\n') in out
    code, _, err = run_main(capsys, "check", model, ANIMALS, "--target", "nope")
    assert code == 2 and "has no column 'nope'" in err


@pytest.mark.parametrize("learner", ["fold-se", "libre", "mrs"])
def test_learn_progress_bar_on_a_terminal(learner, capsys, monkeypatch, tmp_path):
    """Each learner tells its progress; the bar shows on a terminal only, not with --quiet."""
    rng = np.random.default_rng(0)
    data = tmp_path / "d.csv"
    frame = pd.DataFrame({"a": rng.uniform(0, 10, 300).round(1), "b": rng.choice(list("xyz"), 300)})
    frame["y"] = np.where((frame.a > 6) | (frame.b == "x"), "yes", "no")
    frame.to_csv(data, index=False)
    args = ["learn", data, "--target", "y", "--positive", "yes", "--learner", learner]
    if learner != "fold-se":
        args += ["--random-state", "0"]
    code, out, err = run_main(capsys, *args)
    assert code == 0 and err == ""                              # not a terminal: no bar
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    code, out_tty, err = run_main(capsys, *args)
    assert code == 0 and f"learn {learner}" in err and out_tty == out
    code, _, err = run_main(capsys, *args, "--quiet")
    assert code == 0 and err == ""


def test_learners_report_progress_up_to_the_end():
    import aspml
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"a": rng.uniform(0, 10, 400), "b": rng.choice(list("xyz"), 400)})
    y = (X.a > 6) | (X.b == "x")
    for clf in (aspml.FoldSE(), aspml.Libre(n_estimators=5, random_state=0),
                aspml.MultiValueRuleSet(n_iter=200, random_state=0)):
        seen = []
        program = clf.fit(X, y, progress=lambda d, t, note: seen.append((d, t))).program_
        assert seen and all(0 <= d <= t for d, t in seen), type(clf).__name__
        assert [d for d, _ in seen] == sorted(d for d, _ in seen)
        assert program == type(clf)(**clf.get_params()).fit(X, y).program_    # no change


def test_bench_dataset_with_another_positive_class(manifest, capsys):
    """NAME@VALUE: the same dataset with another positive class, beside the manifest's."""
    code, out, err = run_main(capsys, "bench", "--data-dir", manifest, "--datasets", "tiny",
                              "tiny@neg", "--learners", "fold-se", "--folds", "2")
    assert code == 0, err
    rows = [line for line in out.splitlines() if line.startswith("| tiny")]
    assert [r.split("|")[1].strip() for r in rows] == ["tiny", "tiny@neg"]
    code, _, err = run_main(capsys, "bench", "--data-dir", manifest, "--datasets", "nope@x")
    assert code == 2 and "has no dataset 'nope@x'" in err


def test_an_export_loads_with_from_asp_and_numeric_labels_predict(tmp_path, capsys):
    """An exported program (aspml's header, no checksum) is read when --from asp says so;
    a program whose positive label is a number and has no negative label predicts."""
    program = pkg.parse("IF age > 50 THEN label = 1", "text")
    export = tmp_path / "export.lp"
    export.write_text(program.to_asp())
    data = tmp_path / "ages.csv"
    data.write_text("age\n60\n20\n")
    code, out, err = run_main(capsys, "predict", export, data, "--from", "asp")
    assert code == 0, err
    assert out.splitlines() == ["row,label", "0,1", "1,not 1"]


def test_learn_saves_raw_floats_and_digits_rounds_them(tmp_path, capsys):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"z1": rng.normal(size=120), "z2": rng.normal(size=120)})
    frame["y"] = np.where(frame.z1 + frame.z2 > 0, "yes", "no")
    data = tmp_path / "z.csv"
    frame.to_csv(data, index=False)
    args = ["learn", data, "--target", "y", "--positive", "yes", "-o", tmp_path / "z.lp"]
    code, _, err = run_main(capsys, *args)            # raw floats: ranked in the asp print
    assert code == 0, err
    assert "is written as ranks" in (tmp_path / "z.lp").read_text()
    code, _, err = run_main(capsys, *args, "--digits", "3")
    assert code == 0, err
    assert "is written as ranks" not in (tmp_path / "z.lp").read_text()
    assert pkg.load(tmp_path / "z.lp").n_rules > 0


def test_version(capsys):
    code, out, _ = run_main(capsys, "--version")
    assert code == 0 and out.startswith("aspml ")


def test_the_target_column_is_not_a_feature_to_ignore(capsys):
    code, _, err = run_main(capsys, *LEARN, "--ignore", "flies")
    assert code == 2 and "is the --target column" in err


def test_check_notes_a_label_column_without_the_positive_label(capsys, tmp_path):
    model = tmp_path / "m.lp"
    code, _, err = run_main(capsys, *LEARN, "-o", model)
    assert code == 0, err
    code, out, err = run_main(capsys, "check", model, ANIMALS, "--target", "name")
    assert code == 0 and "never holds the program's positive label" in err
    code, out, err = run_main(capsys, "check", model, ANIMALS, "--target", "flies")
    assert code == 0 and "never holds" not in err


def test_check_of_a_program_without_rules_says_so(capsys, tmp_path):
    # a rare-class trial: check printed "precision 0.000" (0/0) and no word of the rules
    pkg.Program((), pkg.Target("y", "b", "a")).save(tmp_path / "e.lp")
    (tmp_path / "e.csv").write_text("x,y\n1,a\n2,b\n3,a\n")
    code, out, _ = run_main(capsys, "check", tmp_path / "e.lp", tmp_path / "e.csv")
    assert code == 0 and "0 rows derive the target (the program has no rules)" in out
    assert "precision - (no row derives it), recall 0.000" in out


def test_check_and_report_note_labels_that_are_neither_class(capsys, tmp_path):
    """A binary program scores a row labelled neither its positive nor its negative label
    as not positive: said in a note (a trial's "maybe" rows were counted as "no" without
    a word, and the report's confusion matrix said "actual no: 3" of one "no" row)."""
    (tmp_path / "p.txt").write_text('IF a > 0 THEN y = "yes"\nELSE y = "no"\n')
    (tmp_path / "t.csv").write_text("a,y\n1,yes\n0,no\n0,maybe\n0,maybe\n2,?\n")
    code, out, err = run_main(capsys, "check", tmp_path / "p.txt", tmp_path / "t.csv")
    note = "2 labelled rows of column 'y' hold neither 'yes' nor 'no' ('maybe'): scored as not 'yes'"
    assert code == 0 and note in err and "2 rows derive the target" in out
    code, out, err = run_main(capsys, "report", tmp_path / "p.txt", tmp_path / "t.csv",
                              "-o", tmp_path / "r.html")
    assert code == 0 and f"aspml report: note: {note}" in err
    assert "1 rule, 1 literal;" in (tmp_path / "r.html").read_text()
    (tmp_path / "u.csv").write_text("a,y\n1,yes\n0,no\n")
    code, out, err = run_main(capsys, "check", tmp_path / "p.txt", tmp_path / "u.csv")
    assert code == 0 and "neither" not in err and "1 row derives the target" in out
    # learn's own "the others" label (--positive on a label of three values) needs no note
    (tmp_path / "t3.csv").write_text("a,y\n" + "".join(f"{i % 3},{'abc'[i % 3]}\n"
                                                         for i in range(30)))
    code, out, err = run_main(capsys, "learn", tmp_path / "t3.csv", "--target", "y",
                              "--positive", "a", "-o", tmp_path / "a.lp")
    assert code == 0 and '"not a"' in (tmp_path / "a.lp").read_text()
    code, out, err = run_main(capsys, "check", tmp_path / "a.lp", tmp_path / "t3.csv")
    assert code == 0 and "neither" not in err and "accuracy 1.000" in out


def test_learn_prints_a_learners_note_as_one_line(tmp_path, capsys):
    """Rules that do no better than calling every row positive: a note, not a Python warning."""
    rng = np.random.default_rng(0)
    df = pd.DataFrame(rng.uniform(0, 100, (600, 4)), columns=list("abcd")).round(1)
    df["y"] = np.where(rng.random(600) < 0.35, "yes", "no")
    df.to_csv(tmp_path / "noise.csv", index=False)
    code, out, err = run_main(capsys, "learn", tmp_path / "noise.csv", "--target", "y",
                              "--positive", "yes", "--learner", "libre",
                              "--random-state", "0")      # (a seed: some draws beat chance)
    assert code == 0
    assert err.startswith("aspml learn: note: LIBRE's rules are not clearly better") and \
        len(err.strip().splitlines()) == 1


def test_learn_says_which_rows_it_left_out(tmp_path, capsys):
    df = pd.DataFrame({"x": range(40), "y": ["a", "b"] * 20})
    df.loc[[3, 7], "y"] = None
    df.to_csv(tmp_path / "t.csv", index=False)
    code, out, err = run_main(capsys, "learn", tmp_path / "t.csv", "--target", "y")
    assert code == 0 and "from 38 rows" in out
    assert "note: left out 2 rows of" in err and "with no value in column 'y'" in err


def test_learn_checks_where_it_writes_before_learning(capsys, tmp_path):
    """A model that cannot be saved is said at once, not after the learning and its print."""
    for out, message in (("/nonexistent/dir/m.lp", "no directory /nonexistent/dir"),
                         (str(tmp_path), "it is a directory")):
        code, printed, err = run_main(capsys, *LEARN, "-o", out)
        assert code == 2 and printed == "" and message in err


def test_ignore_and_immutable_add_up_when_repeated(capsys, tmp_path):
    """``--ignore a --ignore b`` leaves out both columns (argparse's plain nargs kept only
    the last), as ``--ignore a b`` does."""
    frame = pd.DataFrame({"a": [1, 2, 3, 4] * 5, "b": ["x", "y"] * 10, "c": [0, 1] * 10})
    frame["y"] = np.where(frame.a > 2, "yes", "no")
    data = tmp_path / "t.csv"
    frame.to_csv(data, index=False)
    for ignore in (["--ignore", "a", "--ignore", "c"], ["--ignore", "a", "c"]):
        code, out, err = run_main(capsys, "learn", data, "--target", "y", "--positive", "yes",
                                  *ignore)
        assert code == 0, err
        rules = out.split("\n", 1)[1]
        assert "IF a " not in rules and "AND a " not in rules and "c " not in rules, rules
    parser = pkg.cli.build_parser()
    args = parser.parse_args(["explain", "m.lp", "d.csv", "--row", "0", "--immutable", "a",
                              "--immutable", "b", "c"])
    assert args.immutable == ["a", "b", "c"]



def test_kind_sets_the_kind_of_a_feature_a_text_print_reads(tmp_path):
    """A text print infers kinds from its rules: ``score > 40`` makes score numeric, and
    predicting on the training CSV, whose score also holds "unknown", was refused with
    advice ("declare it mixed") that predict could not follow.  --kind score=mixed does
    it, in every engine, and gives the .lp print's answers; --kind naming no feature of
    the program is one clear error."""
    import numpy as np
    import pandas as pd
    from conftest import one_line_error, predict_with_every_engine
    rng = np.random.default_rng(0)
    score = rng.integers(0, 100, 200).astype(object)
    score[rng.random(200) < 0.2] = "unknown"
    y = np.where([s != "unknown" and s > 40 for s in score], "Y", "N")
    data = tmp_path / "mixed.csv"
    pd.DataFrame({"score": score, "y": y}).to_csv(data, index=False)
    model, text = tmp_path / "m.lp", tmp_path / "m.txt"
    assert aspml("learn", data, "--target", "y", "--positive", "Y", "-o", model).returncode == 0
    done = aspml("export", model, "--to", "text")
    text.write_text(done.stdout)
    one_line_error(aspml("predict", text, data), "is numeric but holds", "--kind score=mixed")
    want = predict_with_every_engine(model, data)
    got = predict_with_every_engine(text, data, "--kind", "score=mixed")
    assert got["fast"] == got["clingo"] == got["prolog"] == want["fast"]
    one_line_error(aspml("predict", text, data, "--kind", "nope=mixed"),
                   "the program reads no feature of that name")
    one_line_error(aspml("predict", text, data, "--kind", "score=boolean"),
                   "needs a numeric feature")
    # the other doors that read a model: check, explain, and an export read back as .pl
    done = aspml("check", text, data, "--kind", "score=mixed")
    assert done.returncode == 0 and "fast path and clingo agree on every row" in done.stdout
    unknown = int(np.flatnonzero(score == "unknown")[0])
    done = aspml("explain", text, data, "--row", str(unknown), "--kind", "score=mixed")
    assert done.returncode == 0 and 'score = "unknown"' in done.stdout, done.stderr
    pl = tmp_path / "m.pl"
    pl.write_text(aspml("export", text, "--to", "prolog", "--kind", "score=mixed").stdout)
    assert predict_with_every_engine(pl, data, "--from", "prolog")["prolog"] == want["fast"]


def test_learn_notes_a_program_too_long_to_read_and_what_gives_a_shorter_one(tmp_path):
    rng = np.random.default_rng(0)
    x = rng.integers(0, 2000, 3000)
    stripes, bands = tmp_path / "stripes.csv", tmp_path / "bands.csv"
    # 100 stripes of the positive class: FOLD-R++ learns a rule for each
    pd.DataFrame({"x": x, "label": np.where((x // 10) % 2 == 0, "a", "b")}).to_csv(
        stripes, index=False)
    out = aspml("learn", stripes, "--target", "label", "--positive", "a",
                    "--learner", "fold-rpp")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("fold-rpp: 100 rules")
    assert ("aspml learn: note: 100 rules are more than a person reads through; a --tail "
            "above 0 (the share of rows a rule must cover; fold-rpp's default 0 prunes "
            "nothing) learns fewer, broader rules, and --learner fold-se fewer still"
            ) in out.stderr
    assert out.stderr.count("more than a person reads through") == 1   # not the fit's too
    # 125 classes of one interval each: 124 rules, one a class, are as short as it gets
    pd.DataFrame({"x": x, "label": [f"c{v:03d}" for v in x // 16]}).to_csv(bands, index=False)
    out = aspml("learn", bands, "--target", "label")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("fold-se: 124 rules") and "note" not in out.stderr


def test_fit_notes_a_program_too_long_to_read_in_the_learners_parameters():
    """The Python door says what learn says (a trial's notebook fit of 199 rules said
    nothing), in the learner's parameters; 124 rules for 125 classes say nothing."""
    import warnings

    import aspml as lib
    from aspml.errors import AspmlWarning
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"x": rng.integers(0, 2000, 3000)})
    stripes = np.where((X["x"] // 10) % 2 == 0, "a", "b")
    with pytest.warns(AspmlWarning) as caught:
        lib.FoldRpp(positive="a").fit(X, stripes)
    said = [str(w.message) for w in caught if "reads through" in str(w.message)]
    assert said == [("FoldRpp learned 100 rules, more than a person reads through; a tail "
                     "above 0 (the share of the rows a rule must cover; FoldRpp's default 0 "
                     "prunes nothing) learns fewer, broader rules, and FoldSE fewer still "
                     "(aspml.bench, or a cross-validation, tells what it costs in accuracy)")]
    # the user's line, not aspml's
    assert [w.filename for w in caught if "reads through" in str(w.message)] == [__file__]
    bands = [f"c{v:03d}" for v in X["x"] // 16]
    with warnings.catch_warnings():
        warnings.simplefilter("error", AspmlWarning)
        assert lib.FoldSE().fit(X, bands).program_.n_rules == 124


def test_a_randomised_learner_learns_the_same_program_from_the_same_command(tmp_path):
    """libre and mrs draw their features at random: without --random-state the command
    seeds them with 0 (in Python, random_state=None draws anew, as scikit-learn does)."""
    rng = np.random.default_rng(1)
    X = pd.DataFrame({f"x{i}": rng.normal(size=300).round(2) for i in range(8)})
    X["label"] = np.where(X["x0"] + X["x3"] + rng.normal(scale=0.8, size=300) > 0.5, "y", "n")
    data = tmp_path / "d.csv"
    X.to_csv(data, index=False)
    for learner in ("libre", "mrs"):
        runs = [aspml("learn", data, "--target", "label", "--positive", "y", "--learner", learner,
                      "-o", tmp_path / f"{learner}{i}.lp", "--param", "n_iter=200"
                      if learner == "mrs" else "n_estimators=10") for i in range(2)]
        assert all(r.returncode == 0 for r in runs), runs[0].stderr
        assert runs[0].stdout.replace(f"{learner}0", "") == runs[1].stdout.replace(
            f"{learner}1", "")
        assert '["random_state", 0]' in (tmp_path / f"{learner}0.lp").read_text()
        seeded = aspml("learn", data, "--target", "label", "--positive", "y", "--learner",
                       learner, "--random-state", "3", "-o", tmp_path / "s.lp")
        assert seeded.returncode == 0 and '["random_state", 3]' in (tmp_path / "s.lp").read_text()


def test_check_and_report_name_the_column_that_holds_the_labels(tmp_path):
    """A program fitted in Python on an array y names its target "label": check scored
    nothing, silently, on the CSV whose labels are in "cls"."""
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.integers(0, 10, 120)})
    df["cls"] = np.where(df.x > 6, "hi", np.where(df.x > 2, "mid", "lo"))
    data, plain = tmp_path / "t.csv", tmp_path / "plain.csv"
    df.to_csv(data, index=False)
    df[["x"]].to_csv(plain, index=False)
    for positive in ("hi", None):
        model = tmp_path / f"{positive}.lp"
        y = df["cls"] if positive is None else df["cls"].where(df["cls"] == "hi", "other")
        pkg.FoldSE(positive=positive).fit(df[["x"]], y.to_numpy()).program_.save(model)
        for command in ("check", "report"):
            extra = ("-o", tmp_path / "r.html") if command == "report" else ()
            out = aspml(command, model, data, *extra)
            assert out.returncode == 0, out.stderr
            assert (f"aspml {command}: note: {data} has no column 'label' (the program's "
                    "target), so its rows are checked without their labels; --target cls "
                    "scores them against the labels there") in out.stderr
            quiet = aspml(command, model, plain, *extra)        # new rows: nothing to say
            assert quiet.returncode == 0 and "note" not in quiet.stderr
        # labels 0 and 1: a column of counts that holds 0 and 1 among others is no label
        numbers = tmp_path / "numbers.lp"
        pkg.FoldSE(positive=1).fit(df[["x"]], (df.x > 6).astype(int).to_numpy()) \
            .program_.save(numbers)
        rows = tmp_path / "rows.csv"
        df[["x"]].assign(visits=rng.integers(0, 6, len(df))).to_csv(rows, index=False)
        quiet = aspml("check", numbers, rows)
        assert quiet.returncode == 0 and "note" not in quiet.stderr, quiet.stderr
        scored = aspml("check", model, data, "--target", "cls")
        assert ("accuracy 1.000" if positive is None else "precision 1.000, recall 1.000") \
            in scored.stdout, scored.stdout
        # the program's negative label is "other": the rows of "mid" and "lo" are said so
        assert scored.stderr == ("" if positive is None else
                                 "aspml check: note: 82 labelled rows of column 'cls' hold neither 'hi' nor "
                                 "'other' ('mid', 'lo'): scored as not 'hi'\n")


def test_labels_written_as_codes_stay_as_written(tmp_path):
    """"01", "02" and "10" are codes, as in a feature column: learn made them the classes
    1, 2 and 10, and predict wrote 1 for a row labelled "01" (a new-user trial)."""
    data = tmp_path / "codes.csv"
    data.write_text("code,x\n" + "".join(f"{c},{x}\n" for c, x in
                                           [("01", 1), ("02", 2), ("10", 3)] * 4))
    out = aspml("learn", data, "--target", "code", "-o", tmp_path / "m.lp")
    assert out.returncode == 0, out.stderr
    assert 'CLASSES "01", "02", "10"' in out.stdout
    out = aspml("predict", tmp_path / "m.lp", data)
    assert out.returncode == 0 and out.stdout.splitlines()[1:4] == ["0,01", "1,02", "2,10"]
    out = aspml("check", tmp_path / "m.lp", data)
    assert out.returncode == 0 and "accuracy 1.000" in out.stdout


def test_a_label_written_as_a_float_is_that_number_as_pandas_reads_it(tmp_path):
    """"1" and "1.0" in one label column are the class 1 (pd.read_csv reads both as 1.0):
    learn made them two classes, a binary outcome a three-class program."""
    data = tmp_path / "lab.csv"
    data.write_text("x,label\n1,0\n2,1\n3,1.0\n4,0\n5,1\n6,1.0\n")
    out = aspml("learn", data, "--target", "label")
    assert out.returncode == 0, out.stderr
    assert "for 3 classes" not in out.stdout and "THEN label = 1" in out.stdout
    assert list(pkg.FoldSE().fit(pd.read_csv(data)[["x"]], pd.read_csv(data)["label"])
                .classes_) == [0, 1]
    codes = tmp_path / "codes.csv"                      # "01" is a code, not the number 1
    codes.write_text("x,label\n1,0\n2,01\n3,1\n4,0\n5,1\n6,01\n")
    out = aspml("learn", codes, "--target", "label")
    assert out.returncode == 0 and 'CLASSES "0", "01", "1"' in out.stdout, out.stdout


def weighted_and_repeated(tmp_path, seed, n, positive):
    """A table of three classes (two: ``positive`` against "no") written twice: with a
    column ``w`` of weights 0-3 (w.csv), and with each row repeated its weight (r.csv);
    returns (rows, weights, w.csv, r.csv)."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.integers(0, 20, n), "b": rng.integers(0, 20, n)})
    X["label"] = np.where(X.a + rng.integers(-6, 6, n) > 12, "yes",
                          np.where(X.b > 10, "no", "maybe"))
    if positive:
        X["label"] = X["label"].where(X["label"] == "yes", "no")
    w = rng.integers(0, 4, n)
    weighted, repeated = tmp_path / "w.csv", tmp_path / "r.csv"
    X.assign(w=w).to_csv(weighted, index=False)
    X.loc[X.index.repeat(w)].to_csv(repeated, index=False)
    return n, w, weighted, repeated


@pytest.mark.parametrize("positive", ["yes", None])
def test_learn_figures_weigh_rows_as_the_file_of_their_copies(tmp_path, positive):
    """--sample-weight: the printed training figures counted every row once (a row of
    weight 0 too); they are now those of the file with each row repeated its weight."""
    n, w, weighted, repeated = weighted_and_repeated(tmp_path, 4, 300, positive)
    extra = ("--positive", positive) if positive else ()
    one = aspml("learn", weighted, "--target", "label", "--sample-weight", "w",
                "--learner", "fold-rpp", *extra)
    two = aspml("learn", repeated, "--target", "label", "--learner", "fold-rpp", *extra)
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    head_one, head_two = one.stdout.splitlines()[0], two.stdout.splitlines()[0]
    assert f"from {n} rows of total weight {w.sum()}" in head_one
    assert f"from {w.sum()} rows" in head_two
    assert head_one.split("; ")[-1] == head_two.split("; ")[-1]        # the figures
    assert one.stdout.splitlines()[1:] == two.stdout.splitlines()[1:]  # the program


@pytest.mark.parametrize("positive", ["yes", None])
def test_check_and_report_weigh_rows_as_learn_did(tmp_path, positive):
    """A trial: learn --sample-weight printed weighted figures, check and report on the same
    file unweighted ones.  With --sample-weight both print the figures of the file whose
    rows are repeated their weight (learn's), counts of rows staying counts of rows."""
    import re
    n, w, weighted, repeated = weighted_and_repeated(tmp_path, 7, 240, positive)
    model = tmp_path / "m.lp"
    extra = ("--positive", positive) if positive else ()
    out = aspml("learn", weighted, "--target", "label", "--sample-weight", "w",
                "--learner", "fold-rpp", "-o", model, *extra)
    assert out.returncode == 0, out.stderr
    learned = re.findall(r"accuracy ([0-9.]+), (?:macro-)?F1 ([0-9.]+)", out.stdout)[0]
    one = aspml("check", model, weighted, "--sample-weight", "w")
    two = aspml("check", model, repeated)
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    figures = re.compile(r"accuracy ([0-9.]+), (?:precision [0-9.]+, recall [0-9.]+, )?"
                         r"(?:macro-)?F1 ([0-9.]+)")
    assert figures.findall(one.stdout) == figures.findall(two.stdout) == [learned]
    assert f"{n} labelled rows (label, total weight {w.sum()} (column w))" in one.stdout
    # precision per rule and class: the same figures; the rows a rule covers stay rows
    precision = re.compile(r"precision ([0-9.]+) \((\d+)/(\d+)")
    assert precision.findall(one.stdout) == precision.findall(two.stdout)
    # the confusion matrix: each cell the rows' weight, as the repeated rows count it
    def matrix(text):
        return text.split("confusion matrix")[1].split("\n  rule")[0].split("\n", 1)[1]
    assert matrix(one.stdout) == matrix(two.stdout)
    assert "each cell the rows' weight" in one.stdout
    unweighted = aspml("check", model, weighted)
    assert figures.findall(unweighted.stdout) != [learned] or w.min() == w.max()
    # the report: the same figures in HTML
    pages = []
    for data, opts in ((weighted, ("--sample-weight", "w")), (repeated, ())):
        page = tmp_path / f"{data.stem}.html"
        done = aspml("report", model, data, "-o", page, *opts)
        assert done.returncode == 0, done.stderr
        pages.append(page.read_text(encoding="utf-8"))
    accuracy = re.compile(r"Accuracy ([0-9.]+), (?:precision [0-9.]+, recall [0-9.]+, F1|"
                          r"macro-F1) ([0-9]+\.[0-9]+)")
    assert accuracy.findall(pages[0]) == accuracy.findall(pages[1]) == [learned]
    assert "of total weight" in pages[0] and "(column w)" in pages[0]
    if positive is None:        # the classes' table says which column is a weight
        assert "given (rows)</th><th class=n>actual (weight)</th>" in pages[0]
        assert "given (rows)</th><th class=n>actual</th>" in pages[1]
    cells = re.compile(r"\((\d+)/(\d+)\)</td>")
    assert cells.findall(pages[0]) == cells.findall(pages[1])


def test_weighted_figures_leave_out_what_only_rows_of_weight_0_hold(tmp_path):
    """A review: a label only rows of weight 0 hold got a row of the confusion matrix and
    an F1 of 0 in the macro mean (0.667 where the repeated file and learn say 1.0); a
    report whose labelled rows all weigh 0 raised TypeError from Python; a binary check
    with no labelled row printed figures of 0."""
    from aspml.bench import macro_scores
    from aspml.report import confusion, render
    p = pkg.parse('CLASSES "a", "b", "c"\nIF x > 0 THEN label = "a"\nELSE IF x > -5 THEN '
                  'label = "b"\nELSE label = "c"', "text")
    X = pd.DataFrame({"x": [1, 1, -1, -1]})
    y = pd.Series(["a", "a", "b", "zzz"])
    w = np.array([1, 1, 1, 0.0])
    got = confusion(p, X, y, w)
    assert got["macro_f1"] == confusion(p, X[:3], y[:3])["macro_f1"] == 1.0
    assert got["macro_f1"] == macro_scores(p.predict(X), y.to_numpy(object), w)["f1"]
    assert "zzz" not in got["classes"]
    page = render(p, X, y, "m.lp", "d.csv", weights=np.zeros(4), weight_name="w")
    assert "no precision and no confusion matrix" in page
    binary = pkg.parse('IF x > 0 THEN sick = "yes"\nELSE sick = "no"', "text")
    assert "Confusion matrix" not in render(binary, X, pd.Series(["yes"] * 4), "m", "d",
                                            weights=np.zeros(4), weight_name="w")
    model, data = tmp_path / "b.lp", tmp_path / "u.csv"
    binary.save(model)
    data.write_text("x,sick\n1,\n-1,\n")
    out = aspml("check", model, data)
    assert out.returncode == 0 and "no labelled rows in column 'sick'" in out.stdout, out.stdout


def test_check_weight_column_errors_are_one_line(tmp_path):
    """A weight column that is missing, the label, a column the program reads, or holds no
    number on a labelled row: one line, exit 2."""
    data, model = tmp_path / "d.csv", tmp_path / "m.lp"
    rows = [f"{a},{'yes' if a > 4 else 'no'},{a % 3}" for a in range(10)]
    data.write_text("a,label,w\n" + "\n".join(rows) + "\n")
    assert aspml("learn", data, "--target", "label", "--positive", "yes", "--ignore", "w",
                 "-o", model).returncode == 0
    bad = tmp_path / "bad.csv"
    bad.write_text("a,label,w\n" + "\n".join(rows[:-1]) + "\n9,yes,x\n")
    zero = tmp_path / "zero.csv"
    zero.write_text("a,label,w\n" + "\n".join(r.rsplit(",", 1)[0] + ",0" for r in rows) + "\n")
    for args, words in [((data, "--sample-weight", "nope"), "has no column 'nope'"),
                        ((data, "--sample-weight", "label"), "is the label column"),
                        ((data, "--sample-weight", "a"), "a column the program reads"),
                        ((bad, "--sample-weight", "w"), "line 11 of"),
                        ((zero, "--sample-weight", "w"), "every labelled row of"),
                        ((data, "--target", "w", "--sample-weight", "w"), "label column")]:
        for command in ("check", "report"):
            more = ("-o", tmp_path / "r.html") if command == "report" else ()
            out = aspml(command, model, *args, *more)
            assert out.returncode == 2 and words in out.stderr, (command, args, out.stderr)
            assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr


@pytest.mark.parametrize("name", ["FoldSE", "FoldRpp", "Libre", "MultiValueRuleSet"])
def test_python_names_the_target_after_y_as_the_command_does(tmp_path, name):
    """FoldSE().fit(X, df["outcome"]) concluded label = ...; aspml learn --target outcome
    concluded outcome = ...: one table, two programs.  y's name is the target's now."""
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.integers(0, 10, 200), "z": rng.integers(0, 3, 200)})
    df["outcome"] = np.where(df.x > 5, "hi", "lo")
    kw = {"random_state": 0} if name in ("Libre", "MultiValueRuleSet") else {}
    learner = getattr(pkg, name)
    program = learner(positive="hi", **kw).fit(df[["x", "z"]], df["outcome"]).program_
    assert program.target.name == "outcome"
    data = tmp_path / "d.csv"
    df.to_csv(data, index=False)
    cli = {"FoldSE": "fold-se", "FoldRpp": "fold-rpp", "Libre": "libre",
           "MultiValueRuleSet": "mrs"}[name]
    out = aspml("learn", data, "--target", "outcome", "--positive", "hi", "--learner", cli)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n", 1)[1].startswith(program.to_text())
    # an array, a column of X, or target= given: as before
    assert learner(positive="hi", **kw).fit(df[["x"]], df["outcome"].to_numpy()) \
        .program_.target.name == "label"
    assert learner(positive="hi", target="y", **kw).fit(df[["x"]], df["outcome"]) \
        .program_.target.name == "y"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fitted = learner(positive="hi", **kw).fit(df, df["outcome"])
    assert fitted.program_.target.name == "label" and fitted.target_ == "label"


def test_fixed_rules_name_the_target_before_y_does():
    """Expert rules written for label = ... keep working with a named y."""
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.integers(0, 10, 100)})
    df["outcome"] = np.where(df.x > 5, "hi", "lo")
    for name in ("label", "outcome"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            p = pkg.FoldSE(positive="hi").fit(df[["x"]], df["outcome"],
                                               fixed_rules=f'IF x > 7 THEN {name} = "hi"').program_
        assert p.target.name == name


def test_a_numeric_column_with_texts_names_them_all_and_its_hints_paste(tmp_path):
    """A trial: four texts in a numeric column took four runs to see, with no row, and a
    hint (--kind Age (yrs)=mixed) the shell could not take.  One message names them all
    and the first one's row (the file's row, also read in chunks), and each hint, pasted
    as written, predicts; --missing=-inf is not read as an option."""
    import re
    import shlex

    import numpy as np
    import pandas as pd
    from conftest import one_line_error, run_aspml
    rng = np.random.default_rng(0)
    age = rng.integers(20, 80, 300).astype(object)
    y = np.where(age > 50, "yes", "no")
    data, odd = tmp_path / "train.csv", tmp_path / "odd.csv"
    pd.DataFrame({"Age (yrs)": age, "y": y}).to_csv(data, index=False)
    age[250], age[260], age[270] = "n/a", "-inf", "NaN"
    pd.DataFrame({"Age (yrs)": age}).to_csv(odd, index=False)
    model = tmp_path / "m.lp"
    assert run_aspml("learn", data, "--target", "y", "--positive", "yes", "-o",
                     model).returncode == 0
    for chunks in ((), ("--chunksize", "100")):
        done = run_aspml("predict", model, odd, *chunks)
        one_line_error(done, "'n/a', '-inf' and 'NaN' (row 250 the first)",
                       "--kind 'Age (yrs)=mixed'")
    kind = re.search(r"on the command line (--kind '[^']*')", done.stderr).group(1)
    flags = re.search(r"\), (--missing.*)\)$", done.stderr.strip()).group(1)
    for hint in (kind, flags):
        done = run_aspml("predict", model, odd, *shlex.split(hint))
        assert done.returncode == 0, (hint, done.stderr)
        assert len(done.stdout.splitlines()) == 301


def test_a_list_option_that_took_the_data_file_says_so(tmp_path):
    """A trial: ``aspml learn --target y --ignore w pat.csv`` said only that the data was
    required (--ignore had taken the file as a column).  The error says which option took
    it and how to write it; ``--`` ends the list and the command runs."""
    from conftest import one_line_error, run_aspml
    data = tmp_path / "pat.csv"
    data.write_text("w,x,y\n" + "".join(f"{i % 3},{i},{'yes' if i > 20 else 'no'}\n"
                                         for i in range(40)))
    one_line_error(run_aspml("learn", "--target", "y", "--positive", "yes", "--ignore", "w",
                             data), "--ignore took", "pat.csv", "end the list with --")
    assert run_aspml("learn", "--target", "y", "--positive", "yes", "--ignore", "w", "--",
                     data).returncode == 0
    model = tmp_path / "m.lp"
    assert run_aspml("learn", data, "--target", "y", "--positive", "yes", "-o",
                     model).returncode == 0
    one_line_error(run_aspml("explain", model, "--immutable", "x", data, "--row", "3"),
                   "--immutable took", "pat.csv")
    # no list option: the usual message alone
    done = run_aspml("learn", "--target", "y")
    one_line_error(done, "required: data")
    assert "took" not in done.stderr
    # the data given, another argument missing: nothing was swallowed (a review)
    done = run_aspml("learn", data, "--ignore", "w", data)
    one_line_error(done, "required: --target")
    assert "took" not in done.stderr


def test_a_value_that_begins_with_a_dash_is_read_as_the_options(tmp_path):
    """argparse read ``--positive -inf`` as an option without its value ("expected one
    argument") where ``--positive=-inf`` learned (a fuzz trial): the word after
    --positive, --why-not, --missing or --target that no command knows as an option is
    its value; a forgotten value before an option is still refused, in one line."""
    rng = np.random.default_rng(0)
    x = rng.integers(0, 10, 60)
    data, model = tmp_path / "d.csv", tmp_path / "m.lp"
    pd.DataFrame({"x": x, "y": np.where(x > 5, "-inf", "ok")}).to_csv(data, index=False)
    out = aspml("learn", data, "--target", "y", "--positive", "-inf", "-o", model)
    assert out.returncode == 0, out.stderr
    other = tmp_path / "m2.lp"
    assert aspml("learn", data, "--target", "y", "--positive=-inf", "-o", other).returncode == 0
    assert pkg.load(model) == pkg.load(other) and pkg.load(model).target.positive == "-inf"
    row = aspml("explain", model, data, "--row", "0", "--why-not", "-inf")
    assert row.returncode == 0, row.stderr
    for args in (("--positive", "-o", model), ("--positive",), ("--positive", f"-o{model}"),
                 ("--positive", "--outp", model)):
        bad = aspml("learn", data, "--target", "y", *args)
        assert bad.returncode == 2 and "expected one argument" in bad.stderr
        assert len(bad.stderr.strip().splitlines()) == 1


def test_a_long_multiclass_program_note_names_max_rules(tmp_path):
    """A FOLD decision list learned without its budget (``max_rules=None``) past what a
    person reads through: the note names the budget, in Python and from ``learn``."""
    import aspml as lib
    from aspml.errors import AspmlWarning
    rng = np.random.default_rng(0)
    n = 3000
    X = pd.DataFrame({"x": rng.integers(0, 2000, n), "z": rng.normal(size=n).round(2)})
    y = np.array(["a", "b", "c"])[(X["x"].to_numpy() // 10) % 3]
    with pytest.warns(AspmlWarning) as caught:
        assert lib.FoldRpp(max_rules=None).fit(X, y).program_.n_rules >= 100
    said = [str(w.message) for w in caught if "reads through" in str(w.message)]
    assert len(said) == 1 and "max_rules=N holds the list to at most N rules" in said[0]
    data = tmp_path / "stripes3.csv"
    X.assign(label=y).to_csv(data, index=False)
    out = aspml("learn", data, "--target", "label", "--learner", "fold-rpp",
                "--param", "max_rules=None")
    assert out.returncode == 0, out.stderr
    assert ("more than a person reads through; --max-rules N holds the list to at most N "
            "rules, exceptions counted, or two for each class but the default when that is "
            "more (fold-se 20, fold-rpp 32 by default)") in out.stderr
