"""``aspml learn --dask``: FOLD fitted on a Dask cluster from a file of any size.

The file is read in chunks of ``--chunksize`` rows in this process, exactly as
``aspml learn`` reads it whole (cells as text: ``aspml.data.csvfile`` and
``parquetfile``); each chunk's labelled rows go to the cluster's workers as they
are read (``Client.scatter``), so this process holds one chunk at a time and the
table lives in the workers' memory, one partition a chunk.  While reading, the
decisions ``learn`` makes from the whole table are made from what every chunk
adds: the label's values (numbers when all are; the positive class, or a
multi-class program), the Boolean columns (only ``true``/``false``), and the
columns whose every value reads as a number.  Those are sent to the fit as
numbers (what ``learn`` reads from their text), so that the distributed fit bins
them by quantile instead of gathering their distinct values.

Then ``FoldSE``/``FoldRpp``'s Dask fit (``aspml.learners._dask_fold``) learns the
program the in-memory fit with the same ``max_bins`` learns (``--max-bins``;
256 when not given: the Dask fit bins numbers), and one more pass over the
partitions gives the training figures ``learn`` prints.
"""

from __future__ import annotations

import logging
import sys
import warnings

import numpy as np
import pandas as pd

from ._words import count
from .errors import AspmlError, AspmlWarning

DEFAULT_MAX_BINS = 256
LEARNERS = ("fold-se", "fold-rpp")


def connect(address: str):
    """A Dask client: ``local`` starts a LocalCluster of worker processes on this machine
    (one thread each), anything else is a scheduler's address."""
    try:
        import distributed
    except ImportError:
        raise AspmlError("--dask needs Dask: pip install 'aspml[dask]'") from None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if address == "local":
            # the workers' own log: CRITICAL only (a task's error reaches the client as
            # its exception; a trial's 2M-row fit ended, rc 0, with a worker's 25-line
            # "Failed to communicate with scheduler during heartbeat" at shutdown)
            cluster = distributed.LocalCluster(threads_per_worker=1, processes=True,
                                               dashboard_address=None,
                                               silence_logs=logging.CRITICAL)
            return distributed.Client(cluster), cluster
        try:
            return distributed.Client(address, timeout="10s"), None
        except (OSError, TimeoutError, ValueError) as e:
            raise AspmlError(f"--dask {address}: cannot reach a Dask scheduler there "
                             f"({str(e).splitlines()[0] if str(e) else type(e).__name__})") from None


def _partition(df: pd.DataFrame, features: list, target: str, mapping: dict, positive,
               to_number: list, missing) -> pd.DataFrame:
    """One partition as the fit takes it: the features (those in ``to_number`` as
    numbers) and the label as ``learn`` gives it."""
    from .data.table import encode_column
    from .logic.model import Feature
    X = df[features].copy()
    for c in to_number:                         # the numbers learn reads from their text
        X[c] = encode_column(X[c], Feature(c, "numeric"), missing).num
    y = df[target].map(mapping).astype(object)
    if positive is not None:                    # one class against all the others, as text
        y = pd.Series(np.where(y.astype(str).to_numpy() == positive, positive,
                               f"not {positive}"), index=y.index, dtype=object)
    return X.assign(**{target: y})


class _Reading:
    """What ``learn`` decides from the whole table, gathered chunk by chunk."""

    def __init__(self, columns, path, target, ignore, kinds, missing) -> None:
        from . import cli_learners as L
        self.features = L.check_columns(columns, path, target, ignore, kinds)
        self.target, self.kinds, self.missing = target, dict(kinds or {}), missing
        self.labels: dict = {}                          # label text -> rows
        self.flags = {c: set() for c in self.features}  # None: not a Boolean column
        self.numeric = dict.fromkeys(self.features)    # None: no value seen yet
        # an unnamed column (a separator at the end of every line) that is empty on every
        # row is no column, as read_csv drops it; known only at the end of the file
        self.blank = {c for c in self.features if c.startswith("Unnamed: ")}
        self.rows = 0
        self.unlabelled = 0

    def add(self, df: pd.DataFrame) -> None:
        from . import cli_learners as L
        from .data.table import infer_kind
        for v, n in df[self.target].value_counts().items():
            self.labels[v] = self.labels.get(v, 0) + int(n)
        self.blank = {c for c in self.blank if df[c].isna().all()}
        for c in self.features:
            seen = L.flag_values(df[c], self.missing)
            if not seen:                                # no value in this chunk: no say
                continue
            if self.flags[c] is not None:
                self.flags[c] = self.flags[c] | seen if L.is_flag_column(seen) else None
            if self.numeric[c] is not False:    # numeric in every chunk: numeric in all
                with warnings.catch_warnings():     # (the fit's notes say what it is)
                    warnings.simplefilter("ignore", AspmlWarning)
                    self.numeric[c] = infer_kind(df[c], self.missing) == "numeric"
        self.rows += len(df)

    def decide(self, path: str, positive):
        """(label text -> label, positive, kinds, the columns sent as numbers)."""
        from . import cli_learners as L
        if not self.rows:
            raise AspmlError(f"no row of {path} has a value in column {self.target!r}")
        self.features = [c for c in self.features if c not in self.blank]
        if not self.features:
            raise AspmlError(f"{path} has no feature column besides {self.target!r}")
        texts = list(self.labels)
        mapping = dict(zip(texts, L._numbers_if_all(pd.Series(texts, dtype=object))))
        values = sorted(set(mapping.values()), key=lambda v: (isinstance(v, str), v))
        positive = L.choose_positive(values, self.target, positive, self.rows)
        if len(values) > 2:
            L.warn_missing_word_labels(self.labels, self.target, positive)
        kinds = {c: "boolean" for c in self.features if self.flags[c]}
        kinds.update(self.kinds)
        to_number = [c for c in self.features
                     if self.numeric[c] and kinds.get(c, "numeric") == "numeric"]
        return mapping, positive, kinds, to_number, len(values) > 2


def learning_data(chunks, path: str, target: str, positive, ignore, kinds, missing, client):
    """(X, y, positive, kinds, multi-class or not, rows): the labelled rows of the chunks
    as a Dask DataFrame held by the cluster's workers, and its label as a Dask Series."""
    import dask
    import dask.dataframe as dd
    from . import cli_learners as L
    from .logic.model import missing_tokens
    missing = missing_tokens(missing)
    reading, parts, empty = None, [], None
    for df in chunks:
        if reading is None:
            reading = _Reading(list(df.columns), path, target, ignore, kinds, missing)
            empty = df.iloc[:0]
        keep = L.labelled(df[target], missing)
        reading.unlabelled += int((~keep).sum())
        df = df[keep].reset_index(drop=True)
        if len(df):
            reading.add(df)
            parts.append(client.scatter(df[[*reading.features, target]]))
    if reading is None:
        raise AspmlError(f"{path} holds no rows")
    mapping, positive_text, kinds, to_number, multi = reading.decide(path, positive)
    if reading.unlabelled:
        note(f"left out {count(reading.unlabelled, 'row')} of {path} with no value in column "
             f"{target!r}")
    relabel = positive_text if multi and positive_text is not None else None
    args = (reading.features, target, mapping, relabel, to_number, missing)
    meta = _partition(empty[[*reading.features, target]], *args)
    # the partitions as learn reads the whole table: text as Python objects, labels as
    # numbers when they all are (dask's default turns object columns into strings)
    with dask.config.set({"dataframe.convert-string": False}):
        ddf = dd.from_delayed([dask.delayed(_partition)(part, *args) for part in parts],
                              meta=meta, verify_meta=False)
    return (ddf[reading.features], ddf[target], positive_text, kinds,
            multi and positive_text is None, reading.rows)


def _counts(clf, X: pd.DataFrame, y: pd.Series, multiclass: bool, positive):
    """One partition's figures for the line ``learn`` prints: (actual, predicted) counts
    for a multi-class program; (right, true positives, hits, positives, rows) else."""
    if multiclass:
        pred = clf.predict(X)
        return pd.Series(list(zip(y.to_numpy(dtype=object), pred))).value_counts().to_dict()
    hit = clf.decision(X)
    truth = y.to_numpy(dtype=object) == positive
    return (int(np.sum(hit == truth)), int(np.sum(hit & truth)), int(hit.sum()),
            int(truth.sum()), len(truth))


def training_figures(clf, X, y, multiclass: bool, positive) -> tuple:
    """(accuracy, F1) of the program on its training rows (macro-F1 for a multi-class
    program, as :func:`aspml.bench.macro_scores` gives it), from one pass over the
    partitions."""
    import dask
    parts = dask.compute(*[dask.delayed(_counts)(clf, xp, yp, multiclass, positive)
                           for xp, yp in zip(X.to_delayed(), y.to_delayed())])
    if not multiclass:
        right, tp, hits, truths, n = np.sum(parts, axis=0)
        return right / n, 0.0 if tp == 0 else 2 * tp / (hits + truths)
    pairs: dict = {}                            # (actual, predicted), as text
    for part in parts:
        for (a, p), n in part.items():
            key = (str(a), str(p))
            pairs[key] = pairs.get(key, 0) + n
    total = sum(pairs.values())
    right = sum(n for (a, p), n in pairs.items() if a == p)
    f1s = []
    # each class seen or given, as macro_scores takes them (scikit-learn's f1_macro)
    for c in sorted({a for a, _ in pairs} | {p for _, p in pairs}):
        tp = pairs.get((c, c), 0)
        hit = sum(n for (_, p), n in pairs.items() if p == c)
        real = sum(n for (a, _), n in pairs.items() if a == c)
        f1s.append(0.0 if tp == 0 else 2 * tp / (hit + real))
    return right / total, float(np.mean(f1s))


def refuse(args) -> None:
    """What ``--dask`` does not do, as one clear error."""
    if args.learner not in LEARNERS:
        raise AspmlError(f"--dask fits {' and '.join(LEARNERS)}, not {args.learner}")
    for option, given in (("--sample-weight", args.sample_weight),
                          ("--fixed-rules", args.fixed_rules), ("--background", args.background),
                          ("--trace", args.trace), ("--digits", args.digits is not None)):
        if given:
            raise AspmlError(f"{option} does not work with --dask (the Dask fit has no "
                             f"{option.lstrip('-').replace('-', ' ')})")
    if args.chunksize is not None and args.chunksize < 1:
        raise AspmlError(f"--chunksize {args.chunksize}: give a number of rows, 1 or more")


def note(text: str) -> None:
    print(f"aspml learn: note: {text}", file=sys.stderr)
