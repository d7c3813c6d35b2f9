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
    # a duration's text, each cell alone (pandas writes a column of them block by block:
    # "1 days" beside "1 days 00:00:00" in one file, and otherwise by --chunksize; a
    # scale trial)
    durations = [c for c in frame.columns if pd.api.types.is_timedelta64_dtype(frame[c])]
    if durations:
        frame = frame.assign(**{str(c): frame[c].astype(object).map(
            lambda v: None if pd.isna(v) else str(v)) for c in durations})
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
    read batch by batch, each cell the text :func:`read_parquet` gives it.

    How pandas writes a column depends on the whole column: whole numbers with a
    missing value anywhere are floats (``1.0``), timestamps all at midnight are dates
    (``2020-01-01``) and the others carry the finest fraction of a second any of them
    has.  So a first pass over those columns alone finds, per column, a value that
    demands what the whole column demands (a missing whole number, the timestamp with
    the finest time), and each batch is written with one more row holding those values,
    which is dropped again (:func:`_witnesses`)."""
    source = _open(path)
    done = 0
    with _reading(path):
        witness = _witnesses(source, chunksize)
        # a batch has no pandas index: a named range index (kept in the file's metadata
        # only) is made again from the rows' positions, as read() makes it
        meta = source.schema_arrow.pandas_metadata or {}
        ranges = [i for i in meta.get("index_columns", [])
                  if isinstance(i, dict) and i.get("kind") == "range" and i.get("name")]
        for batch in source.iter_batches(batch_size=chunksize):
            n = batch.num_rows
            frame = _with_witness(batch, witness).to_pandas() if witness else batch.to_pandas()
            for r in ranges:
                at = done + np.arange(len(frame))
                frame.insert(0, r["name"], r["start"] + r["step"] * at)
            done += n
            yield as_text(frame).iloc[:n]


_PER_SECOND = {"s": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}


def _witnesses(source, chunksize: int) -> dict:
    """Column name -> the value a batch's extra row holds (None: missing) for the columns
    whose text depends on the whole column: whole numbers that are missing somewhere,
    and timestamps (the first one of the finest time: a fraction of a nanosecond,
    microsecond or millisecond, else a time of day other than midnight)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    fields = [f for f in source.schema_arrow
              if pa.types.is_integer(f.type) or pa.types.is_timestamp(f.type)]
    if not fields or source.metadata.num_rows == 0:
        return {}
    out: dict = {}
    level = dict.fromkeys((f.name for f in fields if pa.types.is_timestamp(f.type)), 0)
    for batch in source.iter_batches(batch_size=chunksize, columns=[f.name for f in fields]):
        for f in fields:
            col = batch.column(f.name)
            if pa.types.is_integer(f.type):
                if col.null_count:
                    out[f.name] = None
                continue
            ticks = pc.fill_null(col.cast(pa.int64()), 0).to_numpy(zero_copy_only=False)
            per = _PER_SECOND[f.type.unit]          # in the column's own unit: no overflow
            # ticks past a whole microsecond, millisecond, second, day
            for rank, step in ((4, per // 10**6), (3, per // 10**3), (2, per), (1, per * 86_400)):
                if rank <= level[f.name]:
                    break
                if step <= 1:                       # finer than the column's unit: none
                    continue
                hit = ticks % step != 0
                if hit.any():
                    level[f.name] = rank
                    out[f.name] = int(ticks[np.argmax(hit)])
                    break
    return out


def _with_witness(batch, witness: dict):
    """The batch as a table with one more row: its first row, the witness columns set
    to the witness values."""
    import pyarrow as pa
    if batch.num_rows == 0:
        return pa.Table.from_batches([batch])
    row = []
    for name, col in zip(batch.schema.names, batch.columns):
        if name not in witness:
            row.append(col.slice(0, 1))
        elif witness[name] is None:
            row.append(pa.nulls(1, col.type))
        else:
            row.append(pa.array([witness[name]], pa.int64()).cast(col.type))
    extra = pa.RecordBatch.from_arrays(row, schema=batch.schema)
    return pa.Table.from_batches([batch, extra])


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
