"""Reading a Parquet file for the ``aspml`` command, as text cells like a CSV file.

A Parquet file is told by its first bytes (``PAR1``), not its suffix.  Its
typed columns are written as the CSV file ``DataFrame.to_csv`` writes of the
table, and read back as a CSV file is read (``3``, ``0.25``, ``True``,
``2020-01-01``; a missing value or an empty string a missing cell; a named
index a column), so a table gives the same answers from Parquet as from that
CSV file.  Needs pyarrow
(``pip install 'aspml[parquet]'``).
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd

from ..errors import AspmlError
from . import csvfile

MAGIC = b"PAR1"


def is_parquet(path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(4) == MAGIC
    except OSError:
        return False            # the CSV reader says why it cannot read the file


def _pyarrow(path):
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise AspmlError(f"{path} is a Parquet file; reading it needs pyarrow: "
                         "pip install 'aspml[parquet]'") from None
    return pq


def _open(path):
    pq = _pyarrow(path)
    try:
        return pq.ParquetFile(str(path))
    except Exception as e:       # pyarrow's errors have no common base apart from this
        raise AspmlError(f"cannot read {path}: {str(e).splitlines()[0]}") from None


def as_text(frame: pd.DataFrame) -> pd.DataFrame:
    """The text cells of the CSV file ``frame.to_csv`` writes, read as :func:`read_csv` reads
    a CSV file (the same writer and reader: float32 0.1 is ``0.1``, a date ``2020-01-01``,
    an empty string a missing cell); a named index is a column, as ``to_csv`` writes it."""
    if not isinstance(frame.index, pd.RangeIndex) or frame.index.name is not None:
        frame = frame.reset_index()
    names = [str(c) for c in frame.columns]
    text = frame.to_csv(index=False)
    table = pd.read_csv(io.StringIO(text), **csvfile._options(",", names))
    return table.set_axis(names, axis=1)


def read_parquet(path) -> pd.DataFrame:
    """The whole table of the Parquet file ``path``, as text cells."""
    source = _open(path)
    with _reading(path):
        return as_text(source.read().to_pandas())


def iter_parquet(path, chunksize: int = 100_000):
    """The table of the Parquet file ``path`` in text tables of at most ``chunksize`` rows,
    read batch by batch."""
    source = _open(path)
    done = 0
    with _reading(path):
        # a batch has no pandas index: a named range index (kept in the file's metadata
        # only) is made again from the rows' positions, as read() makes it
        meta = source.schema_arrow.pandas_metadata or {}
        ranges = [i for i in meta.get("index_columns", [])
                  if isinstance(i, dict) and i.get("kind") == "range" and i.get("name")]
        for batch in source.iter_batches(batch_size=chunksize):
            frame = batch.to_pandas()
            for r in ranges:
                at = done + np.arange(len(frame))
                frame.insert(0, r["name"], r["start"] + r["step"] * at)
            done += len(frame)
            yield as_text(frame)


class _reading:
    """pyarrow's errors while reading (a damaged page, a type pandas cannot take) as one
    AspmlError naming the file."""

    def __init__(self, path) -> None:
        self.path = path

    def __enter__(self):
        return self

    def __exit__(self, kind, e, tb):
        if e is None or isinstance(e, (AspmlError, GeneratorExit)):
            return False
        if isinstance(e, Exception):
            reason = str(e).splitlines()[0] if str(e) else type(e).__name__
            raise AspmlError(f"cannot read {self.path}: {reason}") from None
        return False
