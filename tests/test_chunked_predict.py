"""``aspml predict --chunksize``: the file read, predicted and written a chunk at a time,
with the answers of reading it whole, from CSV and Parquet, in every engine."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


def test_parquet_values_read_as_their_csv_text(tmp_path):
    """float32 0.1 is the CSV's 0.1 (not 0.10000000149011612), a date its CSV text, an
    empty string a missing cell, a named index a column: the same answers as the CSV
    file pandas writes of the table."""
    pytest.importorskip("pyarrow")
    frame = pd.DataFrame({"x": np.array([0.1, 0.2, 0.3], dtype=np.float32),
                          "d": pd.to_datetime(["2020-01-01", "2021-02-03", "2022-03-04"]),
                          "s": ["", "a", "b"], "id": [7, 8, 9]}).set_index("id")
    frame.to_parquet(tmp_path / "t.parquet")
    frame.to_csv(tmp_path / "t.csv")
    (tmp_path / "m.txt").write_text('IF x <= 0.1 THEN y = "yes"\nIF d = "2021-02-03" THEN y = '
                                    '"yes"\nIF s = "b" AND id > 8 THEN y = "yes"\nELSE y = "no"\n')
    csv = run_aspml("predict", tmp_path / "m.txt", tmp_path / "t.csv")
    assert csv.stdout.splitlines()[1:] == ["0,yes", "1,yes", "2,yes"], csv.stdout
    for more in ([], ["--chunksize", 1]):
        parquet = run_aspml("predict", tmp_path / "m.txt", tmp_path / "t.parquet", *more)
        assert parquet.stdout == csv.stdout, parquet.stderr
    # an empty string is a missing cell, as in the CSV file (where != holds on it)
    (tmp_path / "n.txt").write_text('IF s != "a" THEN y = "yes"\nELSE y = "no"\n')
    answers = [run_aspml("predict", tmp_path / "n.txt", tmp_path / name).stdout
               for name in ("t.csv", "t.parquet")]
    assert answers[0] == answers[1] == "row,y\n0,yes\n1,no\n2,yes\n"


def test_a_damaged_parquet_file_is_one_line(files):
    pytest.importorskip("pyarrow")
    tmp, table = files
    table.to_parquet(tmp / "ok.parquet")
    data = bytearray((tmp / "ok.parquet").read_bytes())
    data[8:200] = b"\xff" * 192                # the first data pages, header and footer kept
    (tmp / "bad.parquet").write_bytes(bytes(data))
    for more in ([], ["--chunksize", 20, "-o", tmp / "never.csv"]):
        one_line_error(run_aspml("predict", tmp / "binary.lp", tmp / "bad.parquet", *more),
                       "cannot read", "bad.parquet")
    assert not (tmp / "never.csv").exists()


def test_header_only_and_links(files, tmp_path):
    tmp, table = files
    (tmp_path / "empty.csv").write_text(",".join(table.columns) + "\n")
    whole = run_aspml("predict", tmp / "multi.pl", tmp_path / "empty.csv")
    assert whole.stdout == "row,level\n"
    assert run_aspml("predict", tmp / "multi.pl", tmp_path / "empty.csv",
                     "--chunksize", 5).stdout == whole.stdout
    # -o through a link writes the file it points to, and keeps the link
    (tmp_path / "real").mkdir()
    (tmp_path / "link.csv").symlink_to(tmp_path / "real" / "answers.csv")
    done = run_aspml("predict", tmp / "multi.pl", tmp / "t.csv", "--chunksize", 25,
                     "-o", tmp_path / "link.csv")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "link.csv").is_symlink()
    assert (tmp_path / "real" / "answers.csv").read_text() == \
        run_aspml("predict", tmp / "multi.pl", tmp / "t.csv").stdout


def test_a_full_disk_is_one_line(files):
    from pathlib import Path
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    tmp, _ = files
    for size in (1, 1000):
        one_line_error(run_aspml("predict", tmp / "multi.pl", tmp / "t.csv", "--chunksize", size,
                                 "-o", "/dev/full"), "cannot write /dev/full")
    assert Path("/dev/full").is_char_device()


def test_learn_and_check_read_parquet_as_its_csv(files):
    """Every command reads DATA through one reader: a Parquet file learns and checks as the
    CSV file of its table does."""
    pytest.importorskip("pyarrow")
    tmp, table = files
    table.to_parquet(tmp / "same.parquet")
    for data in ("t.csv", "same.parquet"):
        learned = run_aspml("learn", tmp / data, "--target", "level", "--tail", "0.02", "--quiet")
        checked = run_aspml("check", tmp / "multi.pl", tmp / data)
        assert learned.returncode == 0 and checked.returncode == 0, learned.stderr + checked.stderr
        if data == "t.csv":
            want = learned.stdout, checked.stdout
        else:
            assert (learned.stdout, checked.stdout) == want


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 30), chunk=st.integers(1, 12), seed=st.integers(0, 10**6),
       unit=st.sampled_from(["s", "ms", "us", "ns"]), tz=st.sampled_from([None, "UTC", "+02:00"]))
def test_parquet_batches_read_as_the_whole_file(n, chunk, seed, unit, tz):
    """A Parquet file in batches (``predict --chunksize``, ``learn --dask``) gives every
    cell the text the whole file gives it, though pandas writes some columns by what
    the whole column holds: whole numbers missing in one batch only (``1.0``, not ``1``),
    timestamps at midnight in one batch only (dates) or with a fraction of a second in
    one batch only.  Written by pyarrow, without pandas' metadata."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    import io

    from aspml.data.parquetfile import iter_parquet, read_parquet
    rng = np.random.default_rng(seed)
    per = {"s": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}[unit]
    day = 86_400 * per
    stamps = rng.integers(18_000, 18_010, n) * day
    times = rng.random(n) < 0.3                         # some rows not at midnight
    stamps[times] += rng.integers(1, 86_400, times.sum()) * per
    fine = rng.random(n) < 0.2                          # some with a fraction of a second
    stamps[fine] += rng.integers(1, per, fine.sum()) if per > 1 else 0
    ints = pa.array([None if rng.random() < 0.15 else int(v) for v in rng.integers(0, 5, n)],
                    pa.int64())
    # durations of whole days but a few (pandas writes a column of them block by block:
    # "1 days" beside "1 days 00:00:00"; a scale trial)
    waits = rng.integers(0, 5, n) * day
    odd = rng.random(n) < 0.1
    waits[odd] += rng.integers(1, day, odd.sum())
    table = pa.table({"whole": ints,
                      "wait": pa.array(waits, pa.int64()).cast(pa.duration(unit)),
                      "at": pa.array(stamps, pa.int64()).cast(pa.timestamp(unit, tz=tz)),
                      "plain": pa.array(rng.integers(0, 3, n), pa.int32()),
                      "text": pa.array([f"v{k}" for k in rng.integers(0, 3, n)])})
    buf = io.BytesIO()
    pq.write_table(table, buf, row_group_size=max(1, n // 3))
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.parquet"
        path.write_bytes(buf.getvalue())
        whole = read_parquet(path)
        parts = pd.concat(list(iter_parquet(path, chunk)), ignore_index=True)
    assert parts.shape == whole.shape
    assert parts.astype(object).where(parts.notna(), None).values.tolist() == \
        whole.astype(object).where(whole.notna(), None).values.tolist()
    assert whole["wait"].tolist() == [str(pd.Timedelta(int(w), unit=unit)) for w in waits]
