"""``aspml predict --chunksize``: the file read, predicted and written a chunk at a time,
with the answers of reading it whole, from CSV and Parquet, in every engine."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import aspml
from aspml.data.csvfile import iter_csv, read_csv

from conftest import ENGINES, one_line_error, run_aspml


def mixed_table(n=90, seed=0):
    """Numbers, text, a mixed column and missing cells, with a label that follows them."""
    rng = np.random.default_rng(seed)
    age = rng.integers(18, 90, n).astype(object)
    age[rng.random(n) < 0.1] = None
    colour = rng.choice(['red', 'blue', 'x "y", z'], n).astype(object)
    mixed = np.where(rng.random(n) < 0.3, "n/a", rng.normal(size=n).round(2).astype(str))
    X = pd.DataFrame({"age": age, "colour": colour, "mixed": mixed})
    label = np.where((X.age.fillna(0).astype(float) > 50) | (X.colour == "blue"), "high", "low")
    label[::7] = "mid"
    return X, label


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("chunks")
    X, y = mixed_table()
    table = X.assign(level=y)
    table.to_csv(tmp / "t.csv", index=False)
    binary = aspml.FoldSE(positive="high", target="level").fit(
        X, np.where(y == "high", "high", "other")).program_
    multi = aspml.FoldSE(target="level", tail=0.02).fit(X, y).program_
    assert multi.is_multiclass and binary.rules and multi.rules
    binary.save(tmp / "binary.lp")
    multi.save(tmp / "multi.pl")
    return tmp, table


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("model", ["binary.lp", "multi.pl"])
def test_chunks_give_the_whole_files_answers(files, model, engine, request):
    if engine == "prolog":
        request.getfixturevalue("swipl")
    tmp, _ = files
    whole = run_aspml("predict", tmp / model, tmp / "t.csv", "--engine", engine)
    assert whole.returncode == 0, whole.stderr
    for size in ((32,) if engine == "prolog" else (1, 32, 1000)):    # swipl: a run a chunk
        chunked = run_aspml("predict", tmp / model, tmp / "t.csv", "--engine", engine,
                            "--chunksize", size)
        assert chunked.returncode == 0, chunked.stderr
        assert chunked.stdout == whole.stdout, size
        assert chunked.stderr == ""


@pytest.mark.parametrize("chunksize", [None, 25])
def test_parquet_reads_as_its_csv_file(files, chunksize):
    pytest.importorskip("pyarrow")
    tmp, table = files
    table.to_parquet(tmp / "t.parquet")
    more = ["--chunksize", chunksize] if chunksize else []
    for model in ("binary.lp", "multi.pl"):
        csv = run_aspml("predict", tmp / model, tmp / "t.csv")
        parquet = run_aspml("predict", tmp / model, tmp / "t.parquet", *more)
        assert parquet.returncode == 0, parquet.stderr
        assert parquet.stdout == csv.stdout


def test_output_file_is_whole_or_absent(files):
    tmp, table = files
    out = tmp / "answers.csv"
    done = run_aspml("predict", tmp / "multi.pl", tmp / "t.csv", "--chunksize", 10, "-o", out)
    assert done.returncode == 0 and done.stdout == "", done.stderr
    assert out.read_text() == run_aspml("predict", tmp / "multi.pl", tmp / "t.csv").stdout
    # a row with a field too many, far into the file: the run fails after writing chunks
    lines = (tmp / "t.csv").read_text().splitlines()
    lines[60] += ",extra"
    (tmp / "bad.csv").write_text("\n".join(lines) + "\n")
    bad = tmp / "bad_answers.csv"
    done = run_aspml("predict", tmp / "multi.pl", tmp / "bad.csv", "--chunksize", 10, "-o", bad)
    one_line_error(done, "bad.csv")
    assert not bad.exists() and not (tmp / "bad_answers.csv.part").exists()


def test_bad_chunksize_is_one_line(files):
    tmp, _ = files
    one_line_error(run_aspml("predict", tmp / "binary.lp", tmp / "t.csv", "--chunksize", 0),
                   "--chunksize")


def test_chunks_are_read_as_taken_and_match_the_whole_table(files):
    tmp, _ = files
    chunks = iter_csv(tmp / "t.csv", chunksize=20)
    first = next(chunks)
    assert len(first) == 20
    rest = list(chunks)
    assert [len(c) for c in rest] == [20, 20, 20, 10]
    joined = pd.concat([first, *rest], ignore_index=True)
    pd.testing.assert_frame_equal(joined, read_csv(tmp / "t.csv"))
