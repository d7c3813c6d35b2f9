"""aspml bench on a plain CSV file, on a manifest that lists no column kinds, and its exit
status when a run fails; the README's tour runs from a clone (no ../shared/data)."""

import csv
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from aspml.errors import AspmlWarning

from conftest import ROOT
from conftest import run_aspml as aspml
from test_examples import blocks, needs


def table(n=60, seed=0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"x": rng.integers(0, 100, n), "c": rng.choice(["a", "b", "?"], n),
                       "f": rng.choice(["true", "false"], n)})
    df["y"] = np.where((df.x > 50) | (df.c == "a"), "pos", "neg")
    return df


def rows(text: str, name: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(f"| {name} |")]


def test_bench_takes_a_csv_file(tmp_path):
    table().to_csv(tmp_path / "small.csv", index=False)
    out = aspml("bench", tmp_path / "small.csv", "--target", "y", "--learners", "fold-se",
                "fold-rpp", "--folds", "3", "--out", tmp_path / "res")
    assert out.returncode == 0, out.stderr
    found = rows(out.stdout, "small")
    assert len(found) == 2 and all(float(r.split("|")[4]) > 0.8 for r in found)  # F1
    # the positive class by default: the second of the two labels, sorted ("pos")
    import json
    saved = json.loads((tmp_path / "res.json").read_text())
    assert saved["settings"]["positive"] == {"small": "pos"}
    out = aspml("bench", tmp_path / "small.csv", "--target", "y", "--positive", "neg",
                "--learners", "fold-se", "--folds", "2", "--out", tmp_path / "neg")
    assert out.returncode == 0, out.stderr
    assert json.loads((tmp_path / "neg.json").read_text())["settings"]["positive"] == {"small": "neg"}


def test_a_csv_file_gets_the_kinds_learn_infers():
    from aspml.bench import csv_entry, load_dataset
    df = table()
    df["m"] = np.where(np.arange(len(df)) % 4 == 0, "none", (np.arange(len(df)) % 7).astype(str))
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        df.to_csv(Path(tmp) / "t.csv", index=False)
        data = load_dataset(Path(tmp), csv_entry(Path(tmp) / "t.csv", "y"))
    assert data.kinds == {"x": "numeric", "c": "categorical", "f": "boolean", "m": "mixed"}
    assert list(data.X.columns) == ["x", "c", "f", "m"] and data.X.x.dtype.kind in "if"


def write_manifest(folder: Path, entries) -> Path:
    table().to_csv(folder / "small.csv", index=False)
    with open(folder / "MANIFEST.tsv", "w", newline="") as fh:
        w = csv.writer(fh, delimiter="\t")
        w.writerow(["name", "label_column", "positive_value", "categorical_columns",
                    "numeric_columns", "files"])
        w.writerows(entries)
    return folder


def test_a_manifest_without_kinds_infers_them(tmp_path):
    write_manifest(tmp_path, [["small", "y", "pos", "", "", "small.csv"]])
    out = aspml("bench", "--data-dir", tmp_path, "--learners", "fold-se", "--folds", "3")
    assert out.returncode == 0, out.stderr
    found = rows(out.stdout, "small")
    assert len(found) == 1 and float(found[0].split("|")[4]) > 0.8 and "skipped" not in out.stderr


def test_a_manifests_column_names_with_spaces_and_names_no_file_has(tmp_path):
    """The manifest's lists are split on spaces: "Body Mass" was two names no column had,
    left out without a word (a trial's scores changed).  A run of words that names a
    column is that column; a name no column has is said in a note."""
    from aspml.bench import load_dataset
    write_manifest(tmp_path, [])
    df = table().rename(columns={"x": "Body Mass"})
    df.to_csv(tmp_path / "small.csv", index=False)
    entry = {"name": "small", "label_column": "y", "positive_value": "pos", "files": "small.csv",
             "categorical_columns": "c", "numeric_columns": "Body Mass"}
    assert list(load_dataset(tmp_path, entry).X.columns) == ["Body Mass", "c"]
    entry["numeric_columns"] = "Body Mass weight"
    with pytest.warns(AspmlWarning, match="the manifest's numeric_columns names "
                      "'weight', which no column of small.csv has: left out"):
        assert list(load_dataset(tmp_path, entry).X.columns) == ["Body Mass", "c"]
    write_manifest(tmp_path, [["small", "y", "pos", "c", "Body weight", "small.csv"]])
    df.rename(columns={"Body Mass": "Body weight"}).to_csv(tmp_path / "small.csv", index=False)
    out = aspml("bench", "--data-dir", tmp_path, "--learners", "fold-se", "--folds", "3")
    assert out.returncode == 0 and "note" not in out.stderr, out.stderr
    assert float(rows(out.stdout, "small")[0].split("|")[3]) > 0.9     # the number is read


def test_bench_exits_1_when_a_run_failed(tmp_path):
    table().to_csv(tmp_path / "small.csv", index=False)
    out = aspml("bench", tmp_path / "small.csv", "--target", "y", "--learners", "fold-se",
                "fold-se:ratio=-1", "--folds", "2")
    assert out.returncode == 1
    assert len(rows(out.stdout, "small")) == 1                  # the other run is still there
    assert "skipped fold-se:ratio=-1 on small" in out.stderr
    assert out.stderr.strip().splitlines()[-1].startswith("aspml bench: 1 run failed")
    few = table(8)
    few.to_csv(tmp_path / "few.csv", index=False)
    out = aspml("bench", tmp_path / "few.csv", "--target", "y", "--learners", "fold-se",
                "--folds", "5")
    # one table: a class too small for the folds is a mistake, said before any table
    # header is printed (it used to print an empty table, then "skipped")
    assert out.returncode == 2 and out.stdout == ""
    assert "fewer than --folds 5" in out.stderr and len(out.stderr.strip().splitlines()) == 1
    # a class of one row fits no number of folds: the advice is not a --folds that fails
    # too (a trial: "--folds 2 or fewer" at --folds 2)
    one = pd.concat([table(), table().iloc[:1].assign(y="lone")], ignore_index=True)
    one.to_csv(tmp_path / "one.csv", index=False)
    for folds in ("3", "2"):
        out = aspml("bench", tmp_path / "one.csv", "--target", "y", "--learners", "fold-se",
                    "--folds", folds)
        assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
        assert "'lone' has 1 row" in out.stderr and "drop its row" in out.stderr
        assert "or fewer" not in out.stderr
    # binary: merging the class into the other would leave one class
    lone = pd.concat([table(), table().iloc[:1].assign(y="lone")], ignore_index=True)
    lone = lone[lone.y != "neg"]
    lone.to_csv(tmp_path / "lone.csv", index=False)
    out = aspml("bench", tmp_path / "lone.csv", "--target", "y", "--learners", "fold-se",
                "--folds", "2")
    assert out.returncode == 2 and "two rows of each class" in out.stderr
    assert "merge" not in out.stderr


@pytest.mark.parametrize("args, message", [
    ([], "give a CSV file (aspml bench DATA.csv --target COLUMN) or --data-dir DIR"),
    (["{tmp}/small.csv", "--data-dir", "{tmp}"], "not both"),
    (["{tmp}/small.csv"], "say which column is the label with --target"),
    (["{tmp}/small.csv", "--target", "nope"], "has no column 'nope'"),
    (["{tmp}/small.csv", "--target", "x"], "too many to learn each as a class"),
    (["{tmp}/none.csv", "--target", "y"], "cannot read"),
    (["--data-dir", "{tmp}", "--target", "y"], "--target goes with a CSV file"),
])
def test_bench_csv_mistakes_are_one_line(args, message, tmp_path):
    table().to_csv(tmp_path / "small.csv", index=False)
    out = aspml("bench", *[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert out.returncode == 2, out.stderr
    assert message in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_the_tour_runs_from_a_clone():
    """Every command of the README's tour uses files the repository ships or makes."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## A five-minute tour")
    end = text.index("\n## ", start + 1)
    first, last = text[:start].count("\n") + 1, text[:end].count("\n") + 1
    tour = [commands for line, commands in blocks(ROOT / "README.md") if first <= line <= last]
    assert any("aspml bench" in c for commands in tour for c, _ in commands)
    for commands in tour:
        assert "shared/data" not in " ".join(c for c, _ in commands)
        assert needs(commands) is None or "swipl" in needs(commands)


def test_bench_picks_the_positive_class_as_learn_does(tmp_path):
    """Labels 2 and 10: learn takes 10 (numbers sort as numbers), and so does bench (it
    sorted them as text and took 2)."""
    from aspml.bench import csv_entry
    a = np.arange(60) % 10
    path = tmp_path / "d.csv"
    pd.DataFrame({"a": a, "y": np.where(a > 4, 10, 2)}).to_csv(path, index=False)
    assert csv_entry(path, "y")["positive_value"] == "10"
    pd.DataFrame({"a": a, "y": np.where(a > 4, "b", "a")}).to_csv(path, index=False)
    assert csv_entry(path, "y")["positive_value"] == "b"


def test_a_csv_named_like_a_shared_dataset_is_one_table_and_ignore_drops_columns(tmp_path):
    """``aspml bench heart.csv``: one row a learner, not also the learners' tables'
    ``heart@present`` run a manifest would add; ``--ignore id`` leaves an identifier out
    (with it, a rule on the row number fits the training rows), and a column the file
    lacks is one line, exit 2."""
    rng = np.random.default_rng(0)
    n = 120
    frame = pd.DataFrame({"id": np.arange(n), "a": rng.integers(0, 10, n)})
    frame["label"] = np.where(frame.id < 40, "present", "absent")      # the id is the label
    frame.loc[rng.random(n) < 0.05, "label"] = "absent"
    frame.to_csv(tmp_path / "heart.csv", index=False)
    done = aspml("bench", tmp_path / "heart.csv", "--target", "label", "--positive", "present",
                 "--learners", "fold-se", "--folds", "3", "--quiet")
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| heart")]
    assert len(rows) == 1 and rows[0].startswith("| heart | fold-se |")
    with_id = float(rows[0].split("|")[3])
    assert ("note: heart: column 'id' holds a different value on each row, like an "
            "identifier; --ignore id leaves it out") in done.stderr
    done = aspml("bench", tmp_path / "heart.csv", "--target", "label", "--positive", "present",
                 "--learners", "fold-se", "--folds", "3", "--quiet", "--ignore", "id")
    rows = [line for line in done.stdout.splitlines() if line.startswith("| heart")]
    assert len(rows) == 1 and float(rows[0].split("|")[3]) < with_id
    assert "identifier" not in done.stderr
    done = aspml("bench", tmp_path / "heart.csv", "--target", "label", "--learners", "fold-se",
                 "--folds", "3", "--quiet", "--ignore", "nope")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "has no feature column 'nope'" in done.stderr


def test_bench_reads_a_csv_file_as_learn_does_and_a_label_may_hold_brackets(tmp_path):
    """A new user's trial: a ';' file and an 'a, b' file that learn reads were refused
    ("has no column"), and a positive label 'default (90d)' was taken for a manifest's
    '(regression)' marker."""
    df = table().assign(y=lambda d: d.y.replace({"pos": "default (90d)"}))
    df.to_csv(tmp_path / "comma.csv", index=False)
    df.to_csv(tmp_path / "semi.csv", index=False, sep=";")
    (tmp_path / "spaced.csv").write_text(
        df.to_csv(index=False).replace(",", ", "))
    found = []
    for name in ("comma", "semi", "spaced"):
        out = aspml("bench", tmp_path / f"{name}.csv", "--target", "y", "--positive",
                    "default (90d)", "--learners", "fold-se", "--folds", "3")
        assert out.returncode == 0, out.stderr
        found.append(rows(out.stdout, name)[0].split("|")[3:-2])     # the figures
    assert found[0] == found[1] == found[2]


def codes_table(n=240, seed=3) -> pd.DataFrame:
    """Zip codes with leading zeros (read as numbers unless told) of which one is the
    class, and an age column whose missing values are written NA; a label NA too."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"zip": rng.choice(["01001", "02002", "03003", "04004"], n),
                       "age": rng.integers(20, 80, n).astype(object)})
    df.loc[rng.random(n) < 0.15, "age"] = "NA"
    df["y"] = np.where(df.zip == "02002", "yes", "no")
    df.loc[[3, 7], "y"] = "NA"
    return df


def test_bench_reads_kind_and_missing_as_learn_does(tmp_path):
    """``aspml bench --kind/--missing`` read the table as ``aspml learn`` does with them:
    the same kinds, the same missing values, the label's missing rows left out, and the
    learner inside bench learns what ``aspml learn`` saves."""
    import json

    from aspml.bench import csv_entry, load_dataset
    codes_table().to_csv(tmp_path / "t.csv", index=False)
    entry = csv_entry(tmp_path / "t.csv", "y", missing=["NA"])
    assert entry["positive_value"] == "yes"             # NA is not a class
    data = load_dataset(tmp_path, entry, None, False, {"zip": "categorical"}, ["NA"])
    assert data.kinds == {"zip": "categorical", "age": "numeric"} and data.missing == ("NA",)
    assert len(data.X) == 238 and data.X.age.isna().sum() > 0
    plain = load_dataset(tmp_path, csv_entry(tmp_path / "t.csv", "y"))
    assert plain.kinds == {"zip": "numeric", "age": "mixed"}    # as learn reads it untold
    # the learner bench runs learns the program aspml learn saves
    import aspml as A
    clf = A.FoldSE(kinds=data.kinds, missing=data.missing, positive=True).fit(data.X, data.y)
    out = aspml("learn", tmp_path / "t.csv", "--target", "y", "--kind", "zip=categorical",
                "--missing", "NA", "-o", tmp_path / "m.lp")
    assert out.returncode == 0, out.stderr
    saved = A.load(tmp_path / "m.lp")
    assert saved.rules == clf.program_.rules and len(saved.rules) == 1
    # through the command: one literal a rule (zip = "02002"), two when read as numbers
    for flags, literals in ((["--kind", "zip=categorical", "--missing", "NA"], 1.0),
                            (["--missing", "NA"], 2.0)):
        out = aspml("bench", tmp_path / "t.csv", "--target", "y", "--learners", "fold-se",
                    "--folds", "3", "--out", tmp_path / "res", *flags)
        assert out.returncode == 0, out.stderr
        row = rows(out.stdout, "t")[0].split("|")
        assert float(row[3]) == 1.0 and float(row[9]) == literals, row     # accuracy, literals
    saved = json.loads((tmp_path / "res.json").read_text())["settings"]
    assert saved["missing"] == ["NA"] and saved["kinds"]["t"] == {"zip": "numeric",
                                                                  "age": "numeric"}


def test_a_kind_makes_no_feature_of_a_column_a_manifest_leaves_out(tmp_path):
    """A manifest that lists kinds names its features: ``--kind id=categorical`` (meant
    for a dataset whose ``id`` is a feature) does not add another dataset's ``id``."""
    from aspml.bench import load_dataset
    df = codes_table()
    df["id"] = np.arange(len(df)) % 7
    df.to_csv(tmp_path / "t.csv", index=False)
    entry = {"name": "t", "label_column": "y", "positive_value": "yes",
             "categorical_columns": "zip", "numeric_columns": "", "files": "t.csv"}
    data = load_dataset(tmp_path, entry, None, False, {"id": "categorical"})
    assert list(data.X.columns) == ["zip"] and data.kinds == {"zip": "categorical"}
    entry["categorical_columns"] = ""                       # kinds inferred: every column
    data = load_dataset(tmp_path, entry, None, False, {"id": "categorical"}, ["NA"])
    assert data.kinds["id"] == "categorical" and set(data.X.columns) == {"zip", "age", "id"}


@pytest.mark.parametrize("flags, said", [
    (["--kind", "zip=bogus"], "'bogus' is not one of numeric, categorical, mixed, boolean"),
    (["--kind", "nothere=bogus"], "'bogus' is not one of numeric, categorical, mixed, boolean"),
    (["--kind", "zipp=categorical"], "--kind 'zipp': no feature column of that name"),
    (["--kind", "y=categorical"], "--kind 'y': that is the label column"),
    (["--kind", "age=numeric"], "column 'age' of t holds 'NA'; declare it mixed or categorical"),
    (["--kind", "zip"], "--kind 'zip': write it as COLUMN=KIND"),
])
def test_bench_refuses_a_kind_it_cannot_use(tmp_path, flags, said):
    codes_table().to_csv(tmp_path / "t.csv", index=False)
    out = aspml("bench", tmp_path / "t.csv", "--target", "y", "--learners", "fold-se",
                "--folds", "2", *flags)
    assert out.returncode == 2 and said in out.stderr and "Traceback" not in out.stderr, \
        out.stderr
    assert out.stderr.strip().splitlines()[-1].startswith("aspml bench: ")


def test_every_list_option_takes_its_names_repeated():
    """An option that takes a list of names (``--ignore a b``) also takes them repeated
    (``--ignore a --ignore b``), as ``learn --help`` shows, in every command: ``bench``
    kept only the last ``--ignore`` (a finance trial: a label copy left in, F1 1.000)."""
    import argparse

    from aspml.cli import build_parser
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    seen = 0
    for name, sub in commands.choices.items():
        for action in sub._actions:
            if action.nargs == "+" and action.option_strings:
                assert isinstance(action, argparse._ExtendAction), (name, action.option_strings)
                seen += 1
    assert seen >= 8


def test_bench_leaves_out_every_ignored_column(tmp_path):
    """``--ignore`` given twice leaves both columns out: a copy of the label among them
    would score 1.000."""
    df = table(90)
    df["y"] = np.where(np.arange(90) % 9 == 4, np.where(df.y == "pos", "neg", "pos"), df.y)
    df = df.assign(leak=lambda d: d.y, id=lambda d: np.arange(len(d)))
    df.to_csv(tmp_path / "t.csv", index=False)
    scores = {}
    for flags in (["--ignore", "leak", "--ignore", "id"], ["--ignore", "leak", "id"],
                  ["--ignore", "id"]):
        out = aspml("bench", tmp_path / "t.csv", "--target", "y", "--learners", "fold-se",
                    "--folds", "3", *flags)
        assert out.returncode == 0, out.stderr
        scores[len(flags)] = float(rows(out.stdout, "t")[0].split("|")[4])
    assert scores[4] == scores[3] < 1.0 == scores[2]
