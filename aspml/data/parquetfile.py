"""Reading a Parquet file for the ``aspml`` command, as text cells like a CSV file.

A Parquet file is told by its first bytes (``PAR1``), not its suffix.  Its
typed columns are turned into the text a CSV file of the same table holds
(``DataFrame.to_csv``: ``3``, ``0.25``, ``True``; a missing value an empty,
missing cell), so a table reads the same from Parquet as from the CSV file
pandas writes of it, and every command treats its values alike.  Needs pyarrow
(``pip install 'aspml[parquet]'``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import AspmlError

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
    """Each cell as the text ``to_csv`` writes of it; missing values stay missing (NaN)."""
    out = {}
    for name in frame.columns:
        col = frame[name]
        missing = col.isna().to_numpy()
        text = np.full(len(col), np.nan, dtype=object)
        text[~missing] = [str(v) for v in col.to_numpy(dtype=object)[~missing]]
        out[str(name)] = text
    return pd.DataFrame(out, index=pd.RangeIndex(len(frame)))


def read_parquet(path) -> pd.DataFrame:
    """The whole table of the Parquet file ``path``, as text cells."""
    return as_text(_open(path).read().to_pandas())


def iter_parquet(path, chunksize: int = 100_000):
    """The table of the Parquet file ``path`` in text tables of at most ``chunksize`` rows,
    read batch by batch."""
    for batch in _open(path).iter_batches(batch_size=chunksize):
        yield as_text(batch.to_pandas())
