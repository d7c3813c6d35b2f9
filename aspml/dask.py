"""A program over a Dask DataFrame: the fast path mapped over its partitions.

    import dask.dataframe as dd
    import aspml.dask
    ddf = dd.read_parquet("rows/*.parquet")          # or dd.read_csv(..., dtype=str)
    answers = aspml.dask.predict(program, ddf)       # a lazy Dask Series, one answer a row
    counts = aspml.dask.rule_counts(program, ddf).compute()

Each partition is evaluated on its own (:func:`aspml.evaluate.predict` and
:func:`aspml.evaluate.coverage` read every row by itself, whatever the other rows
hold), so the answers are those of the whole table in memory, partition by
partition, with the partitions' index; no partition ever meets another, and the
table never has to fit in one process.  ``program`` is a Program or a fitted
aspml learner.  Needs ``dask[dataframe]`` (``pip install 'aspml[dask]'``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import evaluate
from ._given import as_program
from .errors import AspmlError


def _dask_frame(ddf, what: str):
    try:
        import dask.dataframe as dd
    except ImportError:
        raise AspmlError(f"{what} needs dask: pip install 'aspml[dask]'") from None
    if not isinstance(ddf, dd.DataFrame):
        raise TypeError(f"{what} takes a Dask DataFrame, not {type(ddf).__name__}; for a "
                        "pandas DataFrame use program.predict(X)")
    return ddf


def predict(program, ddf, missing=None):
    """Each row's answer, as a lazy Dask Series named after the target, with the
    partitions' index: booleans for a binary program (the target holds), the class
    labels for a multi-class one (a row of no class, ``None`` in the fast path, is a
    missing value, NaN, once Dask has put the partitions together)."""
    program = as_program(program, "aspml.dask.predict")
    ddf = _dask_frame(ddf, "aspml.dask.predict")
    name = program.target.name
    kind = object if program.is_multiclass else bool

    def part(frame: pd.DataFrame) -> pd.Series:
        answers = evaluate.predict(program, frame, missing)
        return pd.Series(np.asarray(answers, dtype=kind), index=frame.index, name=name)

    return ddf.map_partitions(part, meta=pd.Series([], dtype=kind, name=name))


def coverage(program, ddf, missing=None):
    """Rows x rules: True where the rule's body holds (its exceptions included), as a lazy
    Dask DataFrame with the columns of :func:`aspml.evaluate.coverage_frame`."""
    program = as_program(program, "aspml.dask.coverage")
    ddf = _dask_frame(ddf, "aspml.dask.coverage")
    names = [f"r{i + 1}: {r.head or program.target.name}" for i, r in enumerate(program.rules)]
    meta = pd.DataFrame({n: pd.Series([], dtype=bool) for n in names})

    def part(frame: pd.DataFrame) -> pd.DataFrame:
        return evaluate.coverage_frame(program, frame, missing).set_axis(frame.index, axis=0)

    return ddf.map_partitions(part, meta=meta)


def rule_counts(program, ddf, missing=None):
    """How many rows each rule's body holds on (lazy; ``.compute()`` gives a pandas Series
    indexed like :func:`coverage`'s columns): per partition, then summed."""
    return coverage(program, ddf, missing).sum()
