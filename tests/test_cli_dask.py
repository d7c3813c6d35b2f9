"""``aspml learn --dask`` (issue #21): the file read in chunks onto a LocalCluster's
workers gives the program ``aspml learn`` gives with the same ``--max-bins``, from a
CSV and from a Parquet file; what it does not do is one clear error."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from conftest import one_line_error, run_aspml
from test_max_bins import mixed_table

pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler():
    """A LocalCluster of two worker processes, for ``--dask ADDRESS`` (started once: a
    cluster takes seconds to start)."""
    import logging
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=logging.ERROR)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def table(n=600, seed=3, classes=2) -> pd.DataFrame:
    """mixed_table's columns (numbers, a number column with a category, categories,
    missing numbers), a Boolean column written three ways with missing values, and a
    column of numbers whose last rows hold a text (numbers in the first chunks only)."""
    X, y = mixed_table(n, seed, classes)
    rng = np.random.default_rng(seed)
    flag = np.where(rng.random(n) < 0.5, "TRUE", "false").astype(object)
    flag[rng.random(n) < 0.05] = "?"
    late = rng.integers(0, 50, n).astype(object)
    late[-3:] = "n/a"
    return X.assign(flag=flag, late=late, label=y)


def learned(*args):
    done = run_aspml("learn", *args)
    assert done.returncode == 0, done.stderr
    return done


def test_dask_learn_gives_the_in_memory_program(tmp_path, scheduler):
    """A CSV file in four partitions on a running cluster (``--dask ADDRESS``): labels
    that are numbers, two rows without one, a separator at the end of every line (an
    empty unnamed column, which is no column)."""
    frame = table(n=300)
    frame["label"] = np.where(frame["label"] == "x", "0", "1").astype(object)
    frame.loc[[5, 200], "label"] = None
    path = tmp_path / "t.csv"
    path.write_text("".join(line + ",\n" for line in frame.to_csv(index=False).splitlines()))
    options = ["--target", "label", "--max-bins", "16"]
    here = learned(str(path), *options, "-o", str(tmp_path / "here.lp"))
    there = learned(str(path), *options, "--dask", scheduler, "--chunksize", "80",
                    "-o", str(tmp_path / "there.lp"))
    assert "label = 1" in here.stdout                   # the labels are numbers
    assert there.stdout.replace("there.lp", "here.lp") == here.stdout
    assert (tmp_path / "there.lp").read_text() == (tmp_path / "here.lp").read_text()
    assert "left out 2 rows" in here.stderr and "left out 2 rows" in there.stderr
    assert "--max-bins" not in there.stderr      # bins given: no note


def test_bare_dask_learns_a_multiclass_program_from_parquet(tmp_path):
    """Bare --dask: a cluster of this machine's own, started and stopped by the command,
    here from ``python -m aspml`` (whose worker processes import the module again: it
    must not run the command in them); a Parquet file, a multi-class label, no
    --max-bins (the note says which bins it took)."""
    import subprocess
    import sys
    pytest.importorskip("pyarrow")
    path = tmp_path / "t.parquet"
    table(n=300, classes=3).astype({"b": str, "late": str}).to_parquet(path, index=False)
    # (each literal choice of the Dask fit is a round trip to the workers: a tail that
    # keeps the multi-class program at about 16 rules keeps the test short)
    options = ["--target", "label", "--tail", "0.03"]
    there = subprocess.run([sys.executable, "-m", "aspml", "learn", str(path), *options,
                            "--dask", "--chunksize", "100"], capture_output=True, text=True,
                           timeout=300, cwd=tmp_path)
    assert there.returncode == 0, there.stderr
    here = learned(str(path), *options, "--max-bins", "256")
    assert "256 quantile bins" in there.stderr
    assert "for 3 classes" in here.stdout
    assert there.stdout == here.stdout


@pytest.mark.parametrize("extra, words", [
    (["--learner", "libre"], ["--dask fits fold-se and fold-rpp", "libre"]),
    (["--fixed-rules", "rules.lp"], ["--fixed-rules", "--dask"]),
    (["--sample-weight", "a"], ["--sample-weight", "--dask"]),
    (["--trace"], ["--trace", "--dask"]),
    (["--digits", "2"], ["--digits", "--dask"]),
    (["--chunksize", "0"], ["--chunksize 0"]),
])
def test_what_dask_learn_does_not_do_is_one_line(tmp_path, extra, words):
    path = tmp_path / "t.csv"
    table(n=50).to_csv(path, index=False)
    one_line_error(run_aspml("learn", str(path), "--target", "label", "--dask", *extra), *words)


def test_an_unknown_parameter_or_file_is_told_before_a_cluster_starts(tmp_path):
    """Told in a moment, not after a cluster of worker processes started (seconds)."""
    import time
    path = tmp_path / "t.csv"
    table(n=50).to_csv(path, index=False)
    start = time.perf_counter()
    one_line_error(run_aspml("learn", str(path), "--target", "label", "--dask", "--param",
                             "nonsense=1"), "--param nonsense")
    one_line_error(run_aspml("learn", str(tmp_path / "none.csv"), "--target", "label",
                             "--dask"), "none.csv")
    assert time.perf_counter() - start < 5


def test_chunksize_goes_with_dask(tmp_path):
    path = tmp_path / "t.csv"
    table(n=50).to_csv(path, index=False)
    one_line_error(run_aspml("learn", str(path), "--target", "label", "--chunksize", "10"),
                   "--chunksize", "--dask")


def test_dask_learn_names_number_classes_in_class_weight(tmp_path, scheduler):
    """``--class-weight 1=5`` names the class 1 of a label column of numbers with
    ``--dask`` as without it (written 1, 01 or 1.0, as ``--positive`` reads it), and the
    weighted programs are the same."""
    frame = table(n=300)
    frame["label"] = np.where(frame["label"] == "x", "0", "1").astype(object)
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    options = ["--target", "label", "--max-bins", "16"]
    here = learned(str(path), *options, "--class-weight", "1=5", "-o", str(tmp_path / "h.lp"))
    for name in ("1", "01", "1.0"):
        learned(str(path), *options, "--class-weight", f"{name}=5", "--dask", scheduler,
                "-o", str(tmp_path / "t.lp"))
        assert (tmp_path / "t.lp").read_text() == (tmp_path / "h.lp").read_text()
    plain = learned(str(path), *options, "-o", str(tmp_path / "p.lp"))
    assert (tmp_path / "p.lp").read_text() != (tmp_path / "h.lp").read_text()
    assert "label = 1" in here.stdout and plain.returncode == 0


def test_a_column_of_big_whole_numbers_is_noted_once(tmp_path, scheduler):
    # a scale trial: the note on ids float64 cannot hold was said by the chunks' reading,
    # by every partition (telling to give the kind already inferred) and by the fit
    rng = np.random.default_rng(1)
    acct = rng.choice([2**60 + k for k in range(6)], 600)
    path = tmp_path / "ids.csv"
    pd.DataFrame({"acct": [str(int(a)) for a in acct], "x": rng.normal(size=600).round(3),
                  "lab": np.where(np.isin(acct, [2**60 + 1, 2**60 + 3]), "yes", "no")}
                 ).to_csv(path, index=False)
    done = run_aspml("learn", str(path), "--target", "lab", "--dask", scheduler,
                     "--max-bins", "16", "--chunksize", "200")
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("float64 cannot hold") == 1, done.stderr
    assert "compare as float64" not in done.stderr and 'acct = "1152921504606846977"' in done.stdout


def test_a_label_written_nan_is_noted_in_memory_and_on_the_cluster(tmp_path, scheduler):
    """With --positive, labels written 'NaN' (a pandas or Spark export's missing label)
    were learned as the other class without a word, in memory and with --dask (a scale
    trial); both say so, and --missing NaN leaves them out."""
    frame = table(n=300)
    frame.loc[frame.index[::25], "label"] = "NaN"
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    positive = str(frame["label"][frame["label"] != "NaN"].iloc[0])
    options = ["--target", "label", "--positive", positive, "--max-bins", "16"]
    said = (f"column 'label' holds 'NaN' (12 rows), a word other tools write for a missing "
            f"label: learned as not '{positive}' here; if those rows have no label, "
            "--missing NaN leaves them out")
    here = learned(str(path), *options, "-o", str(tmp_path / "here.lp"))
    there = learned(str(path), *options, "--dask", scheduler, "--chunksize", "80",
                    "-o", str(tmp_path / "there.lp"))
    assert said in here.stderr and said in there.stderr
    gone = learned(str(path), *options, "--missing", "NaN", "-o", str(tmp_path / "m.lp"))
    assert "holds 'NaN'" not in gone.stderr and "left out 12 rows" in gone.stderr
