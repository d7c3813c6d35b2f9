"""aspml: logic programs with default exceptions as classifiers.

  aspml learn   DATA.csv --target COL [--positive VAL] [--learner NAME] [-o MODEL.lp]
  aspml export  MODEL [--from DIALECT] --to asp|prolog|scasp|text [--facts DATA.csv [--key COL]]
                [--prefix NAME] [--names]
  aspml predict MODEL DATA.csv [--engine fast|clingo|prolog] [-o OUT.csv]
  aspml check   MODEL DATA.csv
  aspml explain MODEL DATA.csv --row N [--minimal] [--counterfactual] [--json]
  aspml simplify MODEL --rho R [--epsilon E] [--reference DATA.csv] [-o OUT] [--html OUT.html]
  aspml report  MODEL DATA.csv -o REPORT.html [--bench RESULTS.json]
  aspml bench   DATA.csv --target COL | --data-dir DIR [--learners ...] [--out PREFIX]

`aspml COMMAND --help` shows each command's options and an example.

A mistake (unreadable file, unknown column, malformed program) ends with one
line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import io
import math
import os
import sys
import warnings
from pathlib import Path

from ._words import count as _count
from .errors import AspmlError, AspmlWarning


class _OnFirstUse:
    """A module imported when one of its names is first used: numpy and pandas take a
    second or more to import, and ``aspml --version`` (or a usage mistake) needs neither."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr):
        return getattr(importlib.import_module(self._name), attr)


np = _OnFirstUse("numpy")
pd = _OnFirstUse("pandas")

MISSING_HELP = ("a cell holding TOKEN is a missing value, as an empty cell is; repeatable "
                "(--missing NA --missing ?)")


def _read_program(path: str, dialect: str | None, missing=None, edited: bool = False,
                  kinds=None):
    """A program file (see :func:`aspml.logic.store.read_program`: a saved model is
    checked, and read in the dialect its header names); ``missing`` (``--missing``)
    replaces the tokens it reads as no value; ``edited`` (``--edited``) does not trust
    a saved model's checksum; ``kinds`` (``--kind COLUMN=KIND``) sets the kind of
    features it reads (a text print infers them from its literals: a compared column
    reads as numeric, ``--kind score=mixed`` lets it hold words too)."""
    from dataclasses import replace

    from .logic.model import Schema
    from .logic.store import read_program
    program = read_program(path, dialect, edited)
    given = _kinds(kinds)
    if given:
        names = program.schema.names
        unknown = [c for c in given if c not in names]
        if unknown:
            raise AspmlError(f"--kind {unknown[0]!r}: the program reads no feature of that "
                             f"name (its features: {_columns(names)})")
        program = replace(program, schema=Schema(tuple(
            replace(f, kind=given.get(f.name, f.kind)) for f in program.schema.features)))
    return program if not missing else program.with_missing(missing)


def _columns(names) -> str:
    from .data.csvfile import show_names
    return show_names(names)


def _read_table(path: str, sep: str | None = None) -> pd.DataFrame:
    """A CSV file as text cells: the separator told or detected, header names stripped,
    no row longer than the header, compressed files unpacked within a limit; a Parquet
    file (told by its first bytes) as the text cells of the CSV file of its table."""
    from .data import parquetfile
    from .data.csvfile import read_csv
    if parquetfile.is_parquet(path):
        return parquetfile.read_parquet(path)
    return read_csv(path, sep)


def _table_chunks(path: str, sep: str | None, chunksize: int):
    """:func:`_read_table` in tables of at most ``chunksize`` rows, read as they are taken."""
    from .data import parquetfile
    from .data.csvfile import iter_csv
    if parquetfile.is_parquet(path):
        return parquetfile.iter_parquet(path, chunksize)
    return iter_csv(path, sep, chunksize)


def _kinds(items) -> dict:
    out = {}
    for item in items or ():
        col, sep, kind = item.rpartition("=")
        if not sep or not col:
            raise AspmlError(f"--kind {item!r}: write it as COLUMN=KIND")
        out[col] = kind
    return out


def _named_classes(weights, y):
    """``--class-weight``'s classes, written as text, as the label values of ``y`` (a
    pandas or Dask column) they name: the class written so, or else the one of the same
    number (``3=5``, ``03=5`` and ``3.0=5`` name the class 3 of a label column of
    numbers, as ``--positive`` reads them); a name that matches none stays as written
    (the learner says it is not a class)."""
    if not isinstance(weights, dict):
        return weights
    from .data.table import _as_number
    from .logic.values import format_number, is_number
    values = y.unique().compute() if hasattr(y, "compute") else y
    classes = list(dict.fromkeys(np.asarray(values, dtype=object).tolist()))

    def text(c):
        return format_number(c) if is_number(c) and not isinstance(c, str) else str(c)
    out = {}
    for name, w in weights.items():
        same = [c for c in classes if text(c) == name]
        if not same:            # "yes = 10" names "yes" (a quoted class keeps its spaces)
            same = [c for c in classes if text(c) == name.strip()]
        if not same and _as_number(name) is not None:
            same = [c for c in classes if _as_number(c) == _as_number(name)]
        out[same[0] if len(same) == 1 else name] = w
    return out


def _class_weight(text: str):
    """``--class-weight``: ``balanced``, ``CLASS=W,CLASS=W`` or a JSON object ``{"CLASS": W}``."""
    import json
    text = text.strip()
    if text == "balanced":
        return "balanced"
    if text.startswith("{"):
        try:
            given = json.loads(text)
        except ValueError:
            raise AspmlError(f"--class-weight {text!r}: not a JSON object; write "
                             "'{\"CLASS\": WEIGHT}' or CLASS=WEIGHT,CLASS=WEIGHT") from None
        pairs = given.items() if isinstance(given, dict) else [(None, None)]
    else:
        pairs = [item.rpartition("=")[::2] if "=" in item else (None, None)
                 for item in text.split(",")]
    weights = {}
    for cls, w in pairs:
        if isinstance(w, str):
            try:
                w = float(w)
            except ValueError:
                w = None
        if not cls or isinstance(w, bool) or not isinstance(w, (int, float)):
            raise AspmlError(f"--class-weight {text!r}: write balanced, CLASS=WEIGHT,CLASS=WEIGHT "
                             "or '{\"CLASS\": WEIGHT}' with numbers as weights")
        weights[cls] = w        # a name with spaces around it: see _named_classes
    return weights


def _sample_weight(df, args, missing):
    """``--sample-weight COLUMN``: the table without that column, and the column's numbers
    for the rows that have a label (the rows ``learning_data`` keeps, in order).  A
    missing, non-numeric, negative or infinite weight is one clear error."""
    from . import cli_learners as L
    col = args.sample_weight
    if col not in df.columns:
        raise AspmlError(f"--sample-weight: {args.data} has no column {col!r} "
                         f"(its columns: {', '.join(map(str, df.columns))})")
    if col == args.target:
        raise AspmlError(f"--sample-weight {col!r} is the --target column")
    keep = (L.labelled(df[args.target], missing) if args.target in df.columns
            else np.ones(len(df), dtype=bool))
    return df.drop(columns=[col]), _weights_on(df, args, keep)[keep]


def _weights_on(df, args, keep) -> np.ndarray:
    """The numbers of the ``--sample-weight`` column on every row of ``df`` (0 on the rows
    not in ``keep``, whose weights count nowhere); a missing, non-numeric, negative or
    infinite weight on a row in ``keep`` is one clear error naming its line."""
    col = args.sample_weight
    raw = df[col]
    weights = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=float)
    bad = (~np.isfinite(weights) | (weights < 0)) & keep
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        cell = raw.iloc[k]
        said = "no weight" if pd.isna(cell) else f"weight {cell!r}"
        raise AspmlError(f"--sample-weight {col!r}: line {k + 2} of {args.data} has {said}; "
                         "every row with a label needs a finite number >= 0")
    return np.where(keep, weights, 0.0)


def _scored_weights(args, program, X, labels):
    """``check`` and ``report``: ``(X without the --sample-weight column, its weights or
    None)``; the column is no feature, and weighs the labelled rows as ``aspml learn
    --sample-weight`` weighed them, so that the figures are the ones learn printed."""
    col = args.sample_weight
    if col is None:
        return X, None
    if col not in X.columns:
        raise AspmlError(f"--sample-weight: {args.data} has no column {col!r} "
                         f"(its columns: {_columns(X.columns)})")
    if labels is None:
        raise AspmlError(f"--sample-weight {col!r} weighs the labelled rows, and {args.data} "
                         "has no label column for this program (give one with --target)")
    if col == labels.name:
        raise AspmlError(f"--sample-weight {col!r} is the label column")
    if col in program.columns_used:
        raise AspmlError(f"--sample-weight {col!r} is a column the program reads")
    from .report import class_of_labels, truth_of
    known = (class_of_labels(program, labels)[0] if program.is_multiclass
             else truth_of(labels, program.target.positive, program.missing)[0])
    weights = _weights_on(X, args, known)
    if known.any() and not weights[known].sum() > 0:
        raise AspmlError(f"--sample-weight {col!r}: every labelled row of {args.data} weighs "
                         "0, so no figure can be weighted")
    return X.drop(columns=[col]), weights


def cmd_learn(args) -> int:
    import inspect

    from . import cli_learners as L
    if args.output:                           # before the learning, not after it
        from .logic.store import save_dialect
        out = Path(args.output)
        save_dialect(out)                     # a suffix that names no model format: refused
        if out.is_dir():
            raise AspmlError(f"cannot write {args.output}: it is a directory")
        if not out.resolve().parent.is_dir():
            raise AspmlError(f"cannot write {args.output}: no directory {out.resolve().parent}")
    if args.dask is not None:
        return _learn_on_cluster(args)
    if args.chunksize is not None:
        raise AspmlError("--chunksize goes with --dask (rows per partition)")
    df = _read_table(args.data, args.sep)
    missing = tuple(args.missing) if args.missing else None
    sample_weight = None
    if args.sample_weight is not None:
        df, sample_weight = _sample_weight(df, args, missing)
    # the weight column is never a feature: --ignore naming it too says nothing more
    ignore = [c for c in args.ignore or () if c != args.sample_weight]
    X, y, positive, kinds = L.learning_data(df, args.data, args.target, args.positive,
                                            ignore, _kinds(args.kind), missing)
    if len(X) < len(df):                      # learning_data leaves out rows without a label
        print(f"aspml learn: note: left out {_count(len(df) - len(X), 'row')} of {args.data} "
              f"with no value in column {args.target!r}", file=sys.stderr)
    raw, rounded = X, []
    if args.digits is not None:
        if not 0 <= args.digits <= 9:
            raise AspmlError(f"--digits {args.digits}: give 0 to 9 decimals")
        from .data.rounding import round_numbers
        X, rounded = round_numbers(X, args.digits, kinds, missing)
    options = {o: getattr(args, o) for o in L.OPTIONS}
    clf = L.estimator(args.learner, options, args.param, positive, args.target, kinds, missing)
    if args.background is not None:           # a path; the learner reads and checks it in fit
        clf.set_params(background=Path(args.background))
    if args.class_weight is not None:
        clf.set_params(class_weight=_named_classes(_class_weight(args.class_weight), y))
    fit_kw = {}
    if args.trace:
        if "trace" not in inspect.signature(clf.fit).parameters:
            raise AspmlError(f"--trace works with fold-se and fold-rpp, not {args.learner}")
        fit_kw["trace"] = lambda event: print(L.format_step(event))
    if args.fixed_rules:
        if "fixed_rules" not in inspect.signature(clf.fit).parameters:
            raise AspmlError(f"--fixed-rules works with fold-se and fold-rpp, not {args.learner}")
        from .learners.expert import read_fixed_rules
        fit_kw["fixed_rules"] = read_fixed_rules(Path(args.fixed_rules))
    bar = None
    if not args.quiet and not args.trace and sys.stderr.isatty() \
            and "progress" in inspect.signature(clf.fit).parameters:
        from .progress import Progress
        bar = Progress(0, False, f"learn {args.learner}", unit="step")
        fit_kw["progress"] = bar.at
    try:
        _fit(args, clf, X, y, **fit_kw, **({} if sample_weight is None
                                           else {"sample_weight": sample_weight}))
    finally:
        if bar is not None:
            bar.close()
    program = clf.program_
    if rounded:
        # thresholds between the rounded values: the program answers on the file's own
        # numbers (predict, check, every engine) as the learner did on the rounded ones
        from .data.rounding import at_midpoints
        from .evaluate import predict as program_predict
        program = at_midpoints(program, args.digits, rounded)
        answers = program_predict(program, raw)
        differ = int(np.sum(answers != (clf.predict(X) if program.is_multiclass
                                        else clf.decision(X))))
        if differ:          # rules the user wrote (expert, background) read the raw numbers
            print(f"aspml learn: note: {_count(differ, 'row')} of {args.data} get another "
                  f"answer from the saved program on the file's own numbers than on the numbers "
                  f"rounded to {args.digits} decimals (rules written by hand are kept as "
                  "written); the figures below are the saved program's", file=sys.stderr)
    # the figures weigh each row by its --sample-weight, as that many copies of it
    if program.is_multiclass:
        from .bench import macro_scores
        s = macro_scores(answers if rounded else clf.predict(X), y, sample_weight)
        fit = _fit_text(s["acc"], s["f1"], True)
    else:
        from .report import binary_scores  # (check and report print the same)

        hit = np.asarray(answers if rounded else clf.decision(X), dtype=bool)
        truth = np.asarray(y == positive, dtype=bool)
        s = binary_scores(hit, truth, np.ones(len(truth), dtype=bool), sample_weight)
        fit = _fit_text(s["accuracy"], s["f1"], False)
    rows = _count(len(X), "row") + ("" if sample_weight is None
                                    else f" of total weight {sample_weight.sum():g}")
    longest = _longest_threshold(program)
    if args.digits is None and longest is not None:
        # computed numbers (a BMI, a lab ratio) give thresholds of 17 digits, which a person
        # cannot read (a multi-class trial's "trop <= 0.023673227402110336")
        print(f"aspml learn: note: thresholds are written with up to {longest[0]} digits "
              f"({longest[1]}); --digits N rounds the numbers to N decimals before learning, "
              "for shorter ones", file=sys.stderr)
    return _show_learned(args, program, rows, fit)


def _longest_threshold(program, digits: int = 10):
    """The most significant digits of a number the program's rules compare with, and
    that number as written, when more than ``digits``; else None."""
    from .logic.printers import feature_numbers
    found = None
    for numbers in feature_numbers(program).values():
        for v in numbers:
            if isinstance(v, float) and math.isfinite(v):
                text = repr(v)
                n = len(text.split("e")[0].replace("-", "").replace(".", "").lstrip("0"))
                if n > digits and (found is None or n > found[0]):
                    found = (n, text)
    return found


def _fit(args, clf, X, y, **fit_kw) -> None:
    """``clf.fit``, its notes printed one line each (other warnings as Python shows them)
    and a bad learner option, told by the estimator, as one AspmlError."""
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", AspmlWarning)
            clf.fit(X, y, **fit_kw)
    except AspmlError:
        raise
    except (ValueError, TypeError) as e:
        raise AspmlError(f"{args.learner}: {str(e).splitlines()[0]}") from None
    from .learners._base import LARGE_NOTE
    said = set()            # each note once (a Dask fit met one column's in two passes)
    for w in caught:
        if issubclass(w.category, AspmlWarning):
            # (the learner's own note of a large program: learn says it in its options)
            if str(w.message) not in said and LARGE_NOTE not in str(w.message):
                said.add(str(w.message))
                print(f"aspml learn: note: {w.message}", file=sys.stderr)
        else:
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    if (args.learner in ("fold-se", "fold-rpp") and getattr(args, "max_rules", None) is not None
            and not getattr(clf, "multiclass_", True)):
        print("aspml learn: note: --max-rules holds a multi-class program; a binary one has "
              "no budget (a higher --tail learns fewer, broader rules)", file=sys.stderr)


def _fit_text(accuracy: float, f1: float, multiclass: bool) -> str:
    """How the program does on its training rows, as ``learn`` says it."""
    return f"on them accuracy {accuracy:.3f}, {'macro-F1' if multiclass else 'F1'} {f1:.3f}"


def _show_learned(args, program, rows: str, fit: str) -> int:
    """The line that sums the learned program up, the program, and the file it is saved to
    (saved first: a reader that stops early, ``| head``, must not cost the file)."""
    if args.output:                           # any learned program saves: clingo ranks big numbers
        try:
            program.save(args.output)
        except OSError as e:
            raise AspmlError(f"cannot write {args.output}: {e.strerror or e}") from None
    print(f"{args.learner}: {_count(program.n_rules, 'rule')}, "
          f"{_count(program.n_literals, 'literal')} from {rows}"
          + (f" (and {_count(len(program.background), 'background rule')})"
             if program.background else "")
          + (f" for {_count(len(program.classes), 'class')}" if program.is_multiclass else "")
          + "; " + fit)
    sys.stdout.write(program.to_text())
    if args.output:
        print(f"saved to {args.output}")
    from .learners._base import LARGE_NOTE, large_program
    if program.n_rules >= large_program(program):
        sys.stdout.flush()
        fold_list = program.is_multiclass and args.learner in ("fold-se", "fold-rpp")
        smaller = (_MULTICLASS_SMALLER if fold_list
                   else _SMALLER.get(args.learner, _SMALLER["fold-rpp"]))
        print(f"aspml learn: note: {_count(program.n_rules, 'rule')} are {LARGE_NOTE}; "
              f"{smaller} (aspml bench tells what it costs in accuracy)", file=sys.stderr)
    return 0


# what a program of aspml.learners._base.large_program rules or more learns fewer with
# (a FOLD multi-class program: its budget, which --param max_rules=None lifts)
_MULTICLASS_SMALLER = ("--max-rules N holds the list to at most N rules, exceptions counted, "
                       "or two for each class but the default when that is more (fold-se "
                       "20, fold-rpp 32 by default)")
_SMALLER = {
    "fold-se": "a higher --tail (the share of rows a rule must cover, 0.005 by default) "
               "learns fewer, broader rules",
    "fold-rpp": "a --tail above 0 (the share of rows a rule must cover; fold-rpp's default 0 "
                "prunes nothing) learns fewer, broader rules, and --learner fold-se fewer still",
    "libre": "--max-rules N keeps at most N rules for each class (their exception rules "
             "aside)",
    "mrs": "a higher --param min_support=S (the share of a class's rows a rule must "
           "cover, 0.05 by default) learns fewer, broader rules",
}


def _learn_on_cluster(args) -> int:
    """``learn --dask``: the file read in chunks onto a Dask cluster's workers and FOLD's
    Dask fit (``aspml.cli_dask``).  The options and the file's first chunk are checked
    before a cluster starts."""
    import itertools

    from . import cli_dask as D
    from . import cli_learners as L
    D.refuse(args)
    missing = tuple(args.missing) if args.missing else None
    options = {o: getattr(args, o) for o in L.OPTIONS}
    probe = L.estimator(args.learner, options, args.param, None, args.target, {}, missing)
    chunks = _table_chunks(args.data, args.sep, args.chunksize or 100_000)
    first = next(chunks, None)
    if probe.max_bins is None:
        options["max_bins"] = D.DEFAULT_MAX_BINS
        D.note(f"--dask bins each numeric column into at most {D.DEFAULT_MAX_BINS} quantile "
               "bins (--max-bins N to choose; the same N without --dask learns the same program)")
    client, cluster = D.connect(args.dask)
    try:
        with warnings.catch_warnings():
            # distributed's advice to its developers ("Sending large graph of size 12.66
            # MiB ..."), which a trial's 2M-row file printed among the command's notes
            warnings.filterwarnings("ignore", message="Sending large graph", category=UserWarning)
            X, y, positive, kinds, multiclass, n_rows = D.learning_data(
                itertools.chain([] if first is None else [first], chunks), args.data,
                args.target, args.positive, args.ignore or (), _kinds(args.kind), missing,
                client)
            clf = L.estimator(args.learner, options, args.param, positive, args.target, kinds,
                              missing)
            if args.class_weight is not None:
                clf.set_params(class_weight=_named_classes(_class_weight(args.class_weight), y))
            _fit(args, clf, X, y)
            # (the fit's notes of the data are said; its predictions would say them again)
            warnings.simplefilter("ignore", AspmlWarning)
            accuracy, f1 = D.training_figures(clf, X, y, multiclass, positive)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return _show_learned(args, clf.program_, _count(n_rows, "row"),
                         _fit_text(accuracy, f1, multiclass))


def cmd_export(args) -> int:
    from .export import export, names
    from .logic.names import text_string
    if args.key is not None and not args.facts:
        raise AspmlError("--key names a column of the rows: give --facts DATA.csv too")
    if args.facts and args.to not in ("asp", "prolog"):
        raise AspmlError("--facts goes with --to asp or --to prolog")
    if args.names and args.facts:
        raise AspmlError("--names lists the predicates instead of printing: leave out --facts")
    program = _read_program(args.model, args.source, args.missing, args.edited, args.kind)
    if args.prefix is not None:
        program = program.with_prefix(args.prefix)
    if args.alongside and args.to not in ("asp", "prolog", "scasp"):
        raise AspmlError("--alongside checks a knowledge base: --to asp, prolog or scasp")
    if args.names:
        for kind, name, pred in names(program, args.to):
            print(f"{kind}\t{text_string(name)}\t{pred}")
        return 0
    X = _read_table(args.facts, args.sep) if args.facts else None
    from .logic.store import dumps, odd_scales
    if X is None and args.to in ("asp", "prolog") and not odd_scales(program):
        # the program alone, in asp or prolog: signed as a saved model, so that every
        # command reads the export back as it is (a file of aspml's header without the
        # checksum line is refused as a save cut short); engines read the line as a comment
        text = dumps(program, args.to)
    else:
        # the program's missing tokens (--missing replaced them) read the rows
        text = export(program, args.to, X, args.key,
                      source=Path(args.facts).name if args.facts else None)
    if args.alongside:
        _check_alongside(text, args)
    sys.stdout.write(text)
    return 0


def _check_alongside(text: str, args) -> None:
    """``export --alongside``: the program as this export prints it (its scale in asp
    with --facts, its prefix) beside the programs of the other files; a clash is one
    AspmlError naming the files."""
    from .export import clashes
    others, files = [], []
    for path in args.alongside:
        for p in _knowledge_base_programs(path):
            others.append(p)
            files.append(path)
    program = _knowledge_base_programs(args.model, text)[0]
    found = clashes([*others, program], args.to)
    if found:
        numbers = ", ".join(f"program {i + 1} {m}" for i, m in enumerate([*files, args.model]))
        raise AspmlError(f"these programs cannot share a knowledge base ({numbers}): "
                         f"{found[0]}"
                         + (f" (and {len(found) - 1} more)" if len(found) > 1 else ""))


def _knowledge_base_programs(path: str, text: str | None = None) -> list:
    """The programs of a file in a knowledge base (``export --alongside``): a saved
    model, an export (its facts, after the ``% rows`` line export writes, left out), or
    several exports one after another; each read in the dialect its header names, with
    its prefix.  ``text``: the file's text, when it is not read from ``path``."""
    import re

    from .logic.parser import parse
    from .logic.store import header_dialect, read_text, suffix_dialect
    text = read_text(path) if text is None else text
    out = []
    for part in re.split(r"(?m)^(?=% aspml program, )", text):
        for mark in ("\n% rows\n", "\n% rows of "):
            part = part.split(mark, 1)[0]
        if not part.strip():
            continue
        dialect = header_dialect(part) or suffix_dialect(path)
        if dialect not in ("asp", "prolog", "scasp"):
            raise AspmlError(f"--alongside {path}: not a program aspml printed in asp, "
                             "prolog or scasp (a saved model, or an aspml export)")
        try:
            out.append(parse(part, dialect))
        except AspmlError as e:
            raise AspmlError(f"--alongside {path}: {e}") from None
    if not out:
        raise AspmlError(f"--alongside {path}: no program in it")
    return out


def _predict(program, X, engine: str) -> np.ndarray:
    if engine == "fast":
        return program.predict(X)
    if engine == "clingo":
        from . import asp
        return asp.predict(program, X)
    from . import prolog
    return prolog.predict(program, X)


def _labels(program, y: np.ndarray) -> np.ndarray:
    """The target's labels for a boolean answer (``yes``/``no``, or True/False when unnamed);
    a multi-class program's answers are labels already (``None``, an empty cell: no class)."""
    from .explain import binary_answer
    if program.target.positive is None:
        return y
    out = np.empty(len(y), dtype=object)       # labels of any types: 1 and "not 1"
    out[:] = binary_answer(program, False)
    out[np.asarray(y, dtype=bool)] = binary_answer(program, True)
    return out


def _output_names(program, args) -> tuple[str, str | None]:
    """The names of ``predict``'s row-number and rule-number columns: ``row`` and ``rule``,
    or ``row_number`` and ``rule_number`` when the target bears that name (the answer
    column always carries the target's name; a trial's target ``rule`` lost its answers
    to the rule numbers under one header).  The rule's is None without ``--rule``."""
    target = program.target.name
    row = "row" if target != "row" else "row_number"
    rule = None
    if args.rule:
        rule = "rule" if target != "rule" else "rule_number"
    return row, rule


def _answers(program, X, args, start: int = 0) -> pd.DataFrame:
    """``predict``'s output for the rows of ``X`` (numbered from ``start``): ``row``, the
    ``--keep`` columns as the file holds them, the answer, and with ``--rule`` the number
    of the rule that decided it (as the printed program and ``check`` count rules; empty
    where no rule fires: the default class, or a binary target that does not hold)."""
    y = _predict(program, X, args.engine)
    row_name, rule_name = _output_names(program, args)
    out = {row_name: np.arange(start, start + len(X))}
    for c in args.keep or ():
        out[c] = X[c].to_numpy()
    out[program.target.name] = _labels(program, y)
    if rule_name is not None:
        from .evaluate import default_indices, first_rules
        number = np.array([i + 1 for i in default_indices(program)] + [0], dtype=np.int64)
        first = first_rules(program, X)            # -1 (no rule): the 0 at the end
        rule = pd.array(number[first], dtype="Int64")
        rule[first < 0] = pd.NA
        out[rule_name] = rule
    return pd.DataFrame(out)


def _check_keep(program, args, columns) -> None:
    """``--keep`` names columns of DATA other than the output's own; a target named like
    one of the output's own columns is noted (those columns take other names)."""
    row_name, rule_name = _output_names(program, args)
    own = {row_name, program.target.name, *((rule_name,) if rule_name else ())}
    for c in args.keep or ():
        if c not in columns:
            raise AspmlError(f"--keep {c!r}: {args.data} has no column of that name "
                             f"(its columns: {_columns(list(columns))})")
        if c in (row_name, rule_name) and c not in ("row", "rule"):
            raise AspmlError(f"--keep {c!r}: the predictions name their "
                             f"{c.split('_')[0]} numbers {c!r} (the target is named "
                             f"{program.target.name!r}), so a column {c!r} of {args.data} "
                             "cannot be kept beside them; rename it in the file")
        if c == program.target.name:
            raise AspmlError(f"--keep {c!r}: the predictions have a column of that name "
                             "already (to compare a label column with the answers: aspml "
                             "check MODEL DATA)")
        if c in own:                            # the row or rule numbers' column
            raise AspmlError(f"--keep {c!r}: the predictions give their {c} numbers in a "
                             f"column {c!r}, so a column {c!r} of {args.data} cannot be "
                             "kept beside them; rename it in the file")
    if len(set(args.keep or ())) < len(args.keep or ()):
        raise AspmlError("--keep names a column twice")
    for a, b in (("row", row_name), ("rule", rule_name)):
        if b and a != b:
            print(f"aspml predict: note: the target is named {a!r}: the {a} numbers are in "
                  f"the column {b!r}", file=sys.stderr)


def cmd_predict(args) -> int:
    program = _read_program(args.model, args.source, args.missing, args.edited, args.kind)
    if args.chunksize is not None:
        return _predict_in_chunks(program, args)
    X = _read_table(args.data, args.sep)
    _check_keep(program, args, X.columns)
    out = _answers(program, X, args)
    if args.output:
        try:
            out.to_csv(args.output, index=False)
        except OSError as e:
            raise AspmlError(f"cannot write {args.output}: {e.strerror or e}") from None
    else:
        out.to_csv(sys.stdout, index=False)
    return 0


def _predict_in_chunks(program, args) -> int:
    """``predict --chunksize N``: the file read, predicted and written N rows at a time, so
    memory stays that of one chunk however large the file; the same rows and answers as
    reading it whole.  ``-o`` naming a file (or a link to one) is written to a ``.part``
    file beside it, renamed at the end: a failed run leaves no half-written predictions
    under the name asked for; any other ``-o`` (a device, a pipe) is written through."""
    from .progress import Progress
    if args.chunksize < 1:
        raise AspmlError(f"--chunksize {args.chunksize}: give a number of rows, 1 or more")
    final = os.path.realpath(args.output) if args.output else None
    part = (f"{final}.part" if final and (not os.path.exists(final) or os.path.isfile(final))
            else None)
    try:
        out = open(part or args.output, "w", newline="") if args.output else sys.stdout
    except OSError as e:
        raise AspmlError(f"cannot write {args.output}: {e.strerror or e}") from None

    def write(rows: pd.DataFrame, header: bool) -> None:
        try:
            rows.to_csv(out, index=False, header=header)
        except OSError as e:
            raise AspmlError(f"cannot write {args.output or 'the predictions'}: "
                             f"{e.strerror or e}") from None

    bar = Progress(None, args.quiet, "predict", unit="row")
    done, header, finished = 0, True, False
    try:
        for X in _table_chunks(args.data, args.sep, args.chunksize):
            if header:
                _check_keep(program, args, X.columns)
            write(_answers(program, X, args, done), header)
            done, header = done + len(X), False
            bar.advance(len(X))
        if header:                  # no chunk at all: the answer's header alone
            _check_keep(program, args, _read_table(args.data, args.sep).columns)
            row_name, rule_name = _output_names(program, args)
            write(pd.DataFrame(columns=[row_name, *(args.keep or ()), program.target.name,
                                        *((rule_name,) if rule_name else ())]), True)
        finished = True
    finally:
        bar.close()
        failed = None
        if args.output:
            try:
                out.close()         # a full disk shows here, when the last bytes go out
            except OSError as e:
                failed = e
            if part and not (finished and failed is None):
                os.remove(part)
    if failed is not None:
        raise AspmlError(f"cannot write {args.output}: {failed.strerror or failed}")
    if part:
        os.replace(part, final)
    return 0


def _labels_of(args, program, X):
    """The label column for precision (``--target``, else the column named like the target;
    when there is none, a note names the columns that hold the program's labels)."""
    if args.target and args.target not in X.columns:
        raise AspmlError(f"{args.data} has no column {args.target!r} "
                         f"(its columns: {_columns(X.columns)})")
    label = args.target or program.target.name
    if label in X.columns:
        return X[label]
    import shlex

    from .data.table import _as_number
    from .logic.values import read_as_csv
    t = program.target
    labels = {str(read_as_csv(c)) for c in (program.classes or (t.positive, t.negative))
              if c is not None}
    used = set(program.columns_used)

    def holds_labels(column) -> bool:
        """Only the program's labels, more than one of them (binary: the positive); or, for
        a binary program of a text label, that label among a few other values (the classes
        the binary program told it apart from).  A number is no such sign: a column of
        counts holds 1."""
        values = {str(read_as_csv(v)) for v in X[column].dropna().unique()[:100]}
        values -= set(program.missing)
        if t.positive is None:
            return values <= labels and len(values) > 1
        positive = str(read_as_csv(t.positive))
        return positive in values and (values <= labels or (
            isinstance(t.positive, str) and _as_number(t.positive) is None and len(values) <= 20))
    holding = [c for c in X.columns if c not in used and labels and holds_labels(c)]
    if holding:             # (a table without labels, new rows, says nothing)
        named = " or ".join(shlex.quote(c) for c in holding[:3])
        print(f"aspml {args.command}: note: {args.data} has no column {label!r} (the "
              f"program's target), so its rows are checked without their labels; --target "
              f"{named} scores them against the labels there",
              file=sys.stderr)
    return None


def cmd_check(args) -> int:
    if args.prolog:             # before the clingo run, not after it (a review)
        from .prolog import swipl_path
        swipl_path()
    from .evaluate import evaluate
    from .report import (
        binary_scores,
        other_labels_note,
        rule_rows,
        share_text,
        truth_of,
    )
    program = _read_program(args.model, args.source, args.missing, args.edited, args.kind)
    X = _read_table(args.data, args.sep)
    labels = _labels_of(args, program, X)
    X, weights = _scored_weights(args, program, X, labels)
    if program.is_multiclass:
        return _check_classes(program, X, labels, weights, args.sample_weight, args.prolog)
    target, cov, _ = evaluate(program, X)
    agree = _engines_agree(program, X, target, args.prolog)
    n = int(target.sum())
    print(f"{_count(n, 'row')} derive{'s' if n == 1 else ''} the target"
          + ("" if program.default_rules else " (the program has no rules)"))
    if labels is not None:
        note = other_labels_note(program, labels)
        if note:
            print(f"aspml check: note: {note}", file=sys.stderr)
        known, truth = truth_of(labels, program.target.positive, program.missing)
        if known.any() and not truth[known].any() and program.target.positive is not None:
            print(f"aspml check: note: column {labels.name!r} never holds the program's positive label "
                  f"{program.target.positive!r}; is it the label column? (--target COLUMN)",
                  file=sys.stderr)
        b = binary_scores(target, truth, known, weights)
        if known.any():
            print(f"{int(known.sum())} labelled rows ({labels.name}"
                  + _weighed_by(args.sample_weight, b["labelled"])
                  + f"): accuracy {b['accuracy']:.3f}, precision "
                  # no labelled row answered positive: no precision (0/0), not 0.000
                  + (f"{b['precision']:.3f}" if (target & known).any() else "- (no row derives it)")
                  + f", recall {b['recall']:.3f}, F1 {b['f1']:.3f}")
            # as a multi-class check prints it (a clinic trial: only the report had it)
            from .explain import binary_answer
            from .logic.printers import text_value
            from .report import amount
            said = [text_value(binary_answer(program, a)) for a in (True, False)]
            _print_confusion(said, said, [[amount(b["tp"]), amount(b["fn"])],
                                          [amount(b["fp"]), amount(b["tn"])]],
                             "answer", weights is not None)
        else:
            print(f"no labelled rows in column {labels.name!r}: no accuracy or precision")
        rows = rule_rows(program, X, known, truth, cov, weights)
    for i, rule in enumerate(program.rules):
        n = int(cov[:, i].sum())
        kind = ", expert" if i in program.expert else ""
        line = (f"  rule {i + 1} ({rule.head or program.target.name}{kind}): covers {n} "
                f"row{'s' if n != 1 else ''}")
        if labels is not None and rows[i]["precision"] is not None:
            r = rows[i]
            line += f", precision {share_text(r['right'], r['labelled'], r['argues'])}"
        print(line)
    return 0 if agree else 1


def _weighed_by(column, total) -> str:
    """``, total weight 30.5 (column w)`` when ``--sample-weight column`` weighs the
    figures, else nothing."""
    from .report import amount
    if column is None:
        return ""
    return f", total weight {amount(total)} (column {column})"


def _engines_agree(program, X, fast, prolog: bool) -> bool:
    """Print whether clingo (and with ``--prolog`` SWI-Prolog) gives the fast path's answer
    on every row, naming the first rows where one does not; True when all agree."""
    from . import asp
    engines = [("clingo", asp.predict)]
    if prolog:
        from . import prolog as swi
        engines.append(("SWI-Prolog", swi.predict))
    fast = np.asarray(fast, dtype=object)
    agree = True
    for name, predict in engines:
        other = np.asarray(predict(program, X), dtype=object)
        differ = np.flatnonzero(fast != other)
        agree &= differ.size == 0
        said = "" if not differ.size else (
            " (rows " + ", ".join(map(str, differ[:5])) + (" ..." if differ.size > 5 else "")
            + ")")
        print(f"{len(X)} rows; fast path and {name} agree on every row: {not differ.size}{said}")
    return bool(agree)


def _print_confusion(names, cols, cells, what: str, weighted: bool) -> None:
    """``check``'s confusion matrix: a row per label (``names``), a column per answer of
    the program (``cols``, its ``what``: class or answer), each cell as text."""
    width = max(len(x) for x in [*names, *cols, "actual", *(c for r in cells for c in r)])
    print(f"confusion matrix (rows: the label, columns: the program's {what}"
          + ("; each cell the rows' weight" if weighted else "") + "):")
    print("  " + "actual".ljust(width) + "".join(f" {c:>{width}}" for c in cols))
    for name, row in zip(names, cells):
        print("  " + name.ljust(width) + "".join(f" {n:>{width}}" for n in row))


def _check_classes(program, X, labels, weights=None, weight_name=None, prolog=False) -> int:
    """``check`` of a multi-class program: the engines agree; per class, the rows it is
    given (and with labels its precision and recall, and the confusion matrix); per
    rule, the rows it covers and those it decides.  ``weights``: the labelled rows'
    figures weighted (``--sample-weight weight_name``)."""
    from .logic.printers import text_value
    from .report import (
        amount,
        class_figures,
        confusion,
        share_text,
        unknown_classes_note,
    )
    agree = _engines_agree(program, X, program.predict(X), prolog)
    figures = class_figures(program, X, labels, weights)
    show = {c: text_value(c) for c in program.classes}

    def share(x):
        return "-" if x is None else f"{x:.3f}"
    for c in figures["classes"]:
        # "1 rule and the default": "1 rule, the default" read as if the rule were it
        rules = _count(len(c["rules"]), "rule")
        line = (f"  class {show[c['class']]}: given to {_count(c['given'], 'row')} "
                f"({'the default' if c['default'] and not c['rules'] else rules}"
                + (" and the default" if c["default"] and c["rules"] else "") + ")")
        if labels is not None:
            # precision reads the given rows that are labelled: said when some are not
            # (a trial read "given to 242 rows ... precision" as of the 242)
            if weights is None and c["labelled"] != c["given"]:
                line += f", {amount(c['labelled'])} of them labelled"
            line += ((f"; {amount(c['actual'])} labelled so" if weights is None
                      else f"; labelled so: weight {amount(c['actual'])}")
                     + f", precision {share(c['precision'])}, "
                     f"recall {share(c['recall'])}")
        print(line)
    if figures["no_class"]:
        print(f"  no class: {figures['no_class']} rows (the program has no default class)")
    if labels is not None:
        m = confusion(program, X, labels, weights)
        # the rows of the matrix for the program's classes: all 0, no label is a class
        if m["labelled"] and not any(map(sum, m["matrix"][:len(program.classes)])):
            print(f"aspml check: note: column {labels.name!r} holds none of the program's classes "
                  f"({', '.join(show[c] for c in program.classes)}); is it the label column? "
                  "(--target COLUMN)", file=sys.stderr)
        unknown = list(zip(m["classes"][len(program.classes):],
                           m["matrix"][len(program.classes):]))
        if m["labelled"] and unknown:
            # a class of the labels the program does not have: every row of it is wrong,
            # and macro-F1 counts it at 0 (a trial read the drop as the rules' doing)
            said = ", ".join(f"{text_value(c)} ({amount(sum(row))} row"
                             f"{'s' if sum(row) != 1 else ''})" for c, row in unknown)
            print(f"aspml check: note: {unknown_classes_note(said, len(unknown))}", file=sys.stderr)
        if m["labelled"]:
            print(f"{m['labelled']} labelled rows ({labels.name}"
                  f"{_weighed_by(weight_name, m['weight'])}): accuracy "
                  f"{m['accuracy']:.3f}, macro-F1 {m['macro_f1']:.3f}")
            names = [text_value(c) for c in m["classes"]]
            cols = ["(no class)" if c is None else text_value(c) for c in m["predicted"]]
            cells = [[amount(n) for n in row] for row in m["matrix"]]
            _print_confusion(names, cols, cells, "class", weights is not None)
    for r in figures["rules"]:
        rule = program.rules[r["index"] - 1]
        head = rule.head if rule.head is not None else \
            f"{program.target.name} = {text_value(rule.label)}"
        line = f"  rule {r['index']} ({head}): covers {_count(r['covers'], 'row')}"
        if rule.head is None:
            line += f", decides {r['decides']}"
            if labels is not None and r["precision"] is not None:
                line += f", precision {share_text(r['right'], r['labelled'])}"
        print(line)
    if program.target.default is not None:       # decides 0: every row is covered
        line = (f"  default ({program.target.name} = {text_value(program.target.default)}): "
                f"decides {figures['by_default']}")
        if labels is not None and figures["default_labelled"]:
            line += (", precision "
                     + share_text(figures["default_right"], figures["default_labelled"]))
        print(line)
    return 0 if agree else 1


def cmd_explain(args) -> int:
    import json

    from .asp.explain import counterfactual
    from .data.table import column_sources
    from .explain import binary_answer, explain
    from .logic.printers import text_value
    program = _read_program(args.model, args.source, args.missing, args.edited, args.kind)
    X = _read_table(args.data, args.sep)
    if not 0 <= args.row < len(X):
        raise AspmlError(f"--row {args.row} is not a row of {args.data} "
                         + (f"(0 to {len(X) - 1})" if len(X) else "(it has no rows)"))
    found = column_sources(program.columns_used, X.columns)
    absent = [f for f in program.columns_used if f not in found]
    if absent:
        raise AspmlError(f"{args.data} has no column(s) {absent}; the program needs "
                         f"{list(program.columns_used)}")
    row = X.iloc[args.row]
    option = "--why-not"
    if args.counterfactual_class is not None:
        # --counterfactual CLASS: the changes that give CLASS, and why the row has it not
        # (a trial wrote --counterfactual settled and was told "unrecognized arguments")
        asked = args.counterfactual_class
        if args.why_not is not None and args.why_not != asked:
            raise AspmlError(f"--why-not {args.why_not} and --counterfactual {asked} name two "
                             "classes; give one")
        args.why_not, args.counterfactual, option = asked, True, "--counterfactual"
    asked = None        # a binary program: the answer --why-not names (True or False)
    if args.why_not is not None:      # a class it does not name: said as the option
        from .explain import resolve_class
        asked = resolve_class(program, args.why_not, option)
    # a binary program's --why-not names one of its two answers (a label learned with
    # --positive, or True/False; a trial): its explanation, as Python's explain gives it
    e = explain(program, row, minimal=args.minimal,
                why_not=args.why_not if program.is_multiclass else asked, row_id=args.row)
    cf = None
    # --why-not the row's own class: no change is needed, and none is searched
    already = (args.counterfactual and (e.why_not is not None and e.why_not == e.prediction
                                        if program.is_multiclass
                                        else asked is not None and asked == bool(e.prediction)))
    if args.counterfactual and not already:
        # as aspml.counterfactual takes them: a learned model's own grain and its
        # distances' scales, not the other rows of DATA (a trial's applicant got other
        # advice from a file of one row); a program written by hand says no grain, and
        # takes DATA's (0 -> 10, not 9.5)
        from .asp.explain import learned_from_data, steps_of
        options = {"immutable": tuple(args.immutable or ())}
        if not learned_from_data(program):
            options["steps"] = steps_of(X, program.columns_used)
        if not program.is_multiclass:
            cf = counterfactual(program, row, target=not e.prediction, **options)
        else:       # to the class asked about, else the nearest other class
            cf = counterfactual(program, row, target=e.why_not, **options)
    if args.json:
        out = e.to_dict()
        if already:
            out["counterfactual"] = {"changes": {}, "rule": None, "distance": 0.0,
                                     "any_other": [],
                                     **({"class": _json(e.prediction)}
                                        if program.is_multiclass else
                                        {"answer": _json(binary_answer(program,
                                                                       e.prediction))})}
        elif args.counterfactual:
            out["counterfactual"] = None if cf is None else {
                "changes": {k: [_json(o), _json(n)] for k, (o, n) in cf.changes.items()},
                "rule": None if cf.rule is None else cf.rule + 1, "distance": cf.distance,
                # the features whose new value stands for any value the program does not
                # name (a placeholder text, never one of their values)
                "any_other": list(cf.any_other),
                **({"class": _json(cf.label)} if program.is_multiclass else
                   {"answer": _json(binary_answer(program, not e.prediction))})}
        print(json.dumps(out, indent=1, ensure_ascii=False))
        return 0
    sys.stdout.write(e.to_text())
    if already and not program.is_multiclass:
        label = program.target.positive if asked else program.target.negative
        sys.stdout.write("No change is needed: the row already gets "
                         + (f"{text_value(label)}.\n" if label is not None else
                            f"{'the target' if asked else 'not the target'}.\n"))
    elif already:
        sys.stdout.write(f"No change is needed: the row already gets class "
                         f"{text_value(e.prediction)}.\n")
    elif args.counterfactual:
        other = ("the other answer" if not program.is_multiclass else "another class"
                 if e.why_not is None else f"class {text_value(e.why_not)}")
        sys.stdout.write(f"No change of the mutable features gives {other}.\n" if cf is None
                         else f"To get {other}: " + cf.to_text(program))
    return 0


def cmd_simplify(args) -> int:
    from .generalize.command import run
    return run(args)


def _json(v):
    return v.item() if isinstance(v, np.generic) else v


def cmd_report(args) -> int:
    import json

    from .report import other_labels_note, render
    program = _read_program(args.model, args.source, args.missing, args.edited, args.kind)
    X = _read_table(args.data, args.sep)
    labels = _labels_of(args, program, X)
    note = None if labels is None else other_labels_note(program, labels)
    if note:
        print(f"aspml report: note: {note}", file=sys.stderr)
    X, weights = _scored_weights(args, program, X, labels)
    bench = None
    if args.bench:
        try:
            bench = json.loads(Path(args.bench).read_text(encoding="utf-8"))
        except OSError as e:
            raise AspmlError(f"cannot read {args.bench}: {e.strerror or e}") from None
        except (ValueError, UnicodeDecodeError, RecursionError):  # also nested too deep
            raise AspmlError(f"{args.bench} is not the JSON that aspml bench --out writes") from None
        from .report import check_bench
        try:
            check_bench(bench)
        except AspmlError as e:
            raise AspmlError(f"{args.bench} is not the JSON that aspml bench --out writes: "
                             f"{e}") from None
    page = render(program, X, labels, Path(args.model).name, Path(args.data).name, bench,
                  weights, args.sample_weight)
    try:
        Path(args.output).write_text(page, encoding="utf-8")
    except OSError as e:
        raise AspmlError(f"cannot write {args.output}: {e.strerror or e}") from None
    print(f"wrote {args.output}")
    return 0


def cmd_bench(args) -> int:
    from . import bench as B
    from .progress import Progress
    if (args.data is None) == (args.data_dir is None):
        raise AspmlError("give a CSV file (aspml bench DATA.csv --target COLUMN) or a folder "
                         "with a manifest (--data-dir DIR), not both" if args.data else
                         "give a CSV file (aspml bench DATA.csv --target COLUMN) or --data-dir DIR")
    if args.data is not None:                 # one CSV file: a manifest of one entry
        if not args.target:
            raise AspmlError(f"{args.data}: say which column is the label with --target COLUMN")
        stem = Path(args.data).stem
        given = [p.removeprefix(f"{stem}=") for p in args.positive or ()]
        if len(given) > 1:
            raise AspmlError("--positive: give one VALUE for a CSV file")
        data_dir = Path(args.data).parent
        manifest = {stem: B.csv_entry(Path(args.data), args.target, given[0] if given else None,
                                      args.missing)}
        args.positive = None
    else:
        if args.target:
            raise AspmlError("--target goes with a CSV file; a manifest names each label column")
        data_dir = Path(args.data_dir)
        manifest = B.read_manifest(data_dir)
    overrides = {}
    for item in args.positive or ():
        name, sep, value = item.partition("=")
        if not sep:
            raise AspmlError(f"--positive {item!r}: write it as DATASET=VALUE")
        overrides[name] = value
    if args.multiclass and args.positive:
        raise AspmlError("--multiclass learns every class: leave out --positive")
    # one CSV file: that table alone (not the learners' NAME@POSITIVE variants of a
    # manifest's dataset that happens to have its name)
    names = args.datasets or ([stem] if args.data is not None else
                              B.default_names(manifest, overrides, args.multiclass))
    unknown = [n for n in names if B.split_dataset(n)[0] not in manifest]
    if unknown:
        raise AspmlError(f"{data_dir / 'MANIFEST.tsv'} has no dataset {unknown[0]!r} "
                         f"(it has: {', '.join(manifest)})")
    have = B.learners_available()
    learners = args.learners or B.default_learners()
    if args.class_weight:
        learners = B.with_class_weight(learners, args.class_weight)
    missing = [x for x in learners if B.parse_learner(x)[0] not in have]
    if missing:
        raise AspmlError(f"learner {missing[0]!r} is not available (available: {', '.join(have)})")
    if args.folds < 2:
        raise AspmlError(f"--folds {args.folds}: cross-validation needs at least 2 folds")
    if args.out and not Path(args.out).resolve().parent.is_dir():
        raise AspmlError(f"cannot write {args.out}.csv/.json: no folder {Path(args.out).parent}")
    kinds = _kinds(args.kind)
    B.check_kinds(kinds)            # before any table is read
    datasets = []
    for n in names:
        base, positive = B.split_dataset(n)
        positive = positive if positive is not None else overrides.get(n)
        if args.multiclass and positive is not None:
            raise AspmlError(f"{n}: --multiclass learns every class, not the positive class "
                             f"{positive!r} against the rest: leave out the @{positive} or "
                             "--positive")
        if not B.usable(manifest[base], positive, args.multiclass):
            raise AspmlError(f"{n}: positive value {manifest[base]['positive_value']!r} is not "
                             f"one label; give one with --positive {n}=VALUE or as {n}@VALUE")
        data = B.load_dataset(data_dir, manifest[base], positive, args.multiclass, kinds,
                              args.missing)
        data.name = n
        if args.ignore:
            absent = [c for c in args.ignore if c not in data.X.columns]
            if args.data is not None and absent:
                raise AspmlError(f"--ignore {absent[0]!r}: {args.data} has no feature column "
                                 f"{absent[0]!r}")
            data.X = data.X.drop(columns=[c for c in args.ignore if c in data.X.columns])
            data.kinds = {c: k for c, k in data.kinds.items() if c not in args.ignore}
            if data.X.shape[1] == 0:
                raise AspmlError(f"{n}: --ignore leaves no feature column")
        _note_identifiers(data)
        datasets.append(data)
    for col in kinds:               # a kind for a column no table has is a typing slip
        if all(col not in d.X.columns for d in datasets):
            labels = {d.label for d in datasets}
            raise AspmlError(f"--kind {col!r}: " + (
                "that is the label column" if col in labels else
                f"no feature column of that name (columns: "
                f"{_columns(list(datasets[0].X.columns))})" if args.data is not None else
                "no dataset has a feature column of that name"))
    if args.data is not None:         # one table: a class too small for the folds is an error
        d = datasets[0]
        small, rows = B.smallest_class(d.y)
        if rows is not None and rows < args.folds:
            if np.asarray(d.y).dtype == bool:       # binary: the positive class or the rest
                small = str(d.positive) if small == "True" else f"other than {d.positive}"
            # cross-validation takes 2 folds or more: a class of one row fits no folds
            advice = (f"use --folds {rows} or fewer" if rows >= 2 else
                      "a class of one row fits no folds: drop its row, or merge its class "
                      "into another" if d.multiclass else
                      "a class of one row fits no folds: cross-validation needs two rows "
                      "of each class")
            raise AspmlError(f"{args.data}: class {small!r} has {rows} row"
                             f"{'s' if rows != 1 else ''}, fewer than --folds "
                             f"{args.folds}: each fold needs a row of every class ({advice})")
    progress = Progress(len(datasets) * len(learners) * args.folds, args.quiet, "bench")
    multi = [d.name for d in datasets if d.multiclass]
    progress.write(f"{args.folds}-fold stratified CV, seed {args.seed}"
                   + (f"; on the multi-class {', '.join(multi)}: F1, precision and recall "
                      "are macro averages over the classes, bal. acc. their mean recall"
                      if multi else "") + f"\n\n{B.HEADER}")
    try:
        results, failed = B.cross_validate(datasets, learners, args.folds, args.seed,
                                           args.reference_max_rows, progress)
    finally:
        progress.close()
    if args.out:
        settings = {"folds": args.folds, "seed": args.seed, "data_dir": str(data_dir),
                    "datasets": [d.name for d in datasets], "learners": learners,
                    "positive": {d.name: d.positive for d in datasets},
                    "kinds": {d.name: d.kinds for d in datasets},
                    "missing": list(args.missing) if args.missing else ["?"]}
        paths = B.write_results(results, settings, args.out)
        print(f"\nwrote {paths[0]} and {paths[1]}")
    if failed:                                # the table is partial: say so, and in the status
        print(f"aspml bench: {_count(len(failed), 'run')} failed ({', '.join(failed)}); "
              f"see the lines above", file=sys.stderr)
        return 1
    return 0


def _note_identifiers(data) -> None:
    """A note on each column of a bench dataset that gives every row its own value, like
    an id (``aspml learn`` warns when its rules use one): rules on it fit the training
    rows and say nothing of the test rows; ``--ignore`` leaves it out."""
    import shlex

    from .data.table import encode_column, looks_like_identifier
    from .logic.model import Feature
    for c in data.X.columns:
        col = encode_column(data.X[c], Feature(str(c), data.kinds.get(c, "categorical")))
        if looks_like_identifier(col):
            print(f"aspml bench: note: {data.name}: column {c!r} holds a different value on "
                  f"each row, like an identifier; --ignore {shlex.quote(str(c))} leaves it out",
                  file=sys.stderr)


class _Parser(argparse.ArgumentParser):
    """argparse, but a mistake on the command line is one line on stderr (exit 2), as
    every other mistake is, instead of the whole usage block."""

    def parse_known_args(self, args=None, namespace=None):
        # the arguments this parser reads (a subcommand's parser: those after its name),
        # so that an error can say what an option's list took
        self._read = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message):
        if "arguments are required" in message and any(
                not name.strip().startswith("-")       # a positional (the data) is missing
                for name in message.split("required:", 1)[-1].split(",")):
            message += _swallowed(self, getattr(self, "_read", []))
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")

    def print_help(self, file=None):
        # argparse's own ignores a failed write (a full disk) and exits 0; let main() tell it
        (file or sys.stdout).write(self.format_help())


_FILE_ENDINGS = (".csv", ".tsv", ".txt", ".parquet", ".gz", ".bz2", ".xz", ".zip", ".lp",
                 ".pl", ".json")


def _swallowed(parser: argparse.ArgumentParser, argv: list) -> str:
    """When a required argument is missing, whether one of the parser's options that take
    a list of names (``--ignore``, ``--immutable``) took a file as one of them (``--ignore
    w pat.csv``: a trial read only "required: data"): what to say."""
    lists = {s for a in parser._actions if a.nargs in ("+", "*") for s in a.option_strings}
    option = None
    for arg in argv:
        if arg in lists:
            option = arg
        elif arg.startswith("-"):
            option = None
        elif option and (arg.lower().endswith(_FILE_ENDINGS) or Path(arg).is_file()):
            return (f"; {option} took {arg!r} as one of its names: give the file before "
                    f"{option}, or end the list with --")
    return ""


def build_parser() -> argparse.ArgumentParser:
    from . import __version__
    ap = _Parser(prog="aspml", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--version", action="version", version=f"aspml {__version__}")
    sub = ap.add_subparsers(dest="command", required=True)

    def common(p):
        p.add_argument("model", help="a program file (.lp asp, .pl prolog, .scasp, .txt text)")
        p.add_argument("--from", dest="source", choices=["asp", "prolog", "scasp", "text"],
                       help="dialect of MODEL when neither its '%% aspml:' header nor its "
                            "suffix says (a header that says otherwise is an error)")
        p.add_argument("--missing", action="append", metavar="TOKEN",
                       help=MISSING_HELP + "; default: the tokens saved with the model")
        p.add_argument("--edited", action="store_true",
                       help="MODEL is a saved model a person edited: do not trust (or require) "
                            "its checksum line; its header still gives schema and scales")
        p.add_argument("--kind", action="append", metavar="COLUMN=KIND",
                       help="the kind of a feature the program reads (numeric, categorical, "
                            "mixed, boolean); repeatable. A text print infers kinds from its "
                            "rules: a compared column reads as numeric, and "
                            "--kind COLUMN=mixed lets it hold words too")

    def separator(p):
        p.add_argument("--sep", metavar="CHAR",
                       help="the CSV separator, one character or 'tab' (default: the one of "
                            ", tab ; | that splits the header line into the most fields)")

    def scored_weight(p):
        p.add_argument("--sample-weight", metavar="COLUMN",
                       help="weigh each labelled row by the number in this column, as aspml "
                            "learn --sample-weight does (accuracy, precision, recall, F1, the "
                            "confusion matrix); the column is not a feature")

    from . import cli_learners as L  # no learner imported: predict needs none
    raw = argparse.RawDescriptionHelpFormatter
    le = sub.add_parser("learn", help="learn a program from a CSV table", formatter_class=raw,
                        description="Learn a program from a CSV table and print it; -o saves it "
                                    "(.lp clingo or .pl Prolog text with a checksum line, "
                                    "read back by every command and by aspml.load).\n\nlearners:\n" + L.describe(),
                        epilog="examples:\n"
                               "  aspml learn examples/birds/animals.csv --target flies "
                               "--positive yes --ignore name -o birds.lp\n"
                               "  aspml learn examples/birds/animals.csv --target flies "
                               "--ignore name --ratio 1 --tail 0 --trace\n"
                               "  aspml learn data.csv --target label --learner libre "
                               "--n-estimators 50 --random-state 0 -o model.lp")
    le.add_argument("data", help="a CSV file with a header line")
    le.add_argument("--target", required=True, metavar="COLUMN", help="the column to predict")
    le.add_argument("--positive", metavar="VALUE",
                    help="the class the rules describe (default: the second of two values, "
                         "sorted; a column of three or more values without --positive gives "
                         "one multi-class program, a decision list over every class)")
    le.add_argument("--learner", default="fold-se", metavar="NAME",
                    help=f"one of {', '.join(L.LEARNERS)} (default fold-se)")
    for option, (_, kind, text) in L.OPTIONS.items():
        le.add_argument("--" + option.replace("_", "-"), dest=option, type=kind, help=text,
                        metavar="INT" if kind is int else "X")
    le.add_argument("--param", action="append", metavar="KEY=VALUE",
                    help="any other parameter of the learner (repeatable), e.g. heuristic=ig")
    le.add_argument("--kind", action="append", metavar="COLUMN=KIND",
                    help="read a column as numeric, categorical, mixed or boolean (repeatable)")
    le.add_argument("--ignore", nargs="+", action="extend", metavar="COLUMN",
                    help="columns that are not features (repeatable: --ignore a --ignore b)")
    le.add_argument("--missing", action="append", metavar="TOKEN",
                    help=MISSING_HELP + "; default: ?; saved with the model, so predict, "
                         "check and explain read the data the same way")
    le.add_argument("--background", metavar="THEORY.lp",
                    help="a background theory: rules such as 'elderly(X) :- age(X,A), A >= 65.' "
                         "whose atoms the rules may use as Boolean features; the learned "
                         "program carries them")
    le.add_argument("--digits", type=int, metavar="N",
                    help="round numbers to N decimals before learning (shorter thresholds, "
                         "written halfway between rounded values: the saved program answers "
                         "on the file's own numbers as it learned on the rounded ones; "
                         "without it, numbers clingo's integers cannot hold are saved as ranks)")
    le.add_argument("--fixed-rules", metavar="RULES",
                    help="expert rules (fold-se, fold-rpp): a file of rules for the positive "
                         "class (.lp asp, .pl prolog, .txt text); kept first in the program and "
                         "marked, FOLD learns what they leave and exceptions where the data "
                         "contradicts them")
    le.add_argument("--class-weight", metavar="WEIGHTS",
                    help="weigh the classes: 'balanced' (each class n_rows / (K x its rows), K classes), "
                         "or CLASS=W,CLASS=W or a JSON object {\"CLASS\": W} (others weigh 1)")
    le.add_argument("--sample-weight", metavar="COLUMN",
                    help="weigh each row by the number in this column (a row of weight k "
                         "counts as k copies of it, 0 as none); the column is not a feature")
    le.add_argument("--trace", action="store_true",
                    help="print each learning step (FOLD learners): literal, heuristic value, "
                         "exceptions")
    le.add_argument("--dask", nargs="?", const="local", metavar="SCHEDULER",
                    help="fit fold-se or fold-rpp on a Dask cluster (pip install 'aspml[dask]'): "
                         "the file is read in chunks onto the workers, never whole in this "
                         "process; bare --dask starts one on this machine, or give a "
                         "scheduler's address (tcp://host:8786)")
    le.add_argument("--chunksize", type=int, metavar="ROWS",
                    help="with --dask: rows per partition (default 100000)")
    le.add_argument("-o", "--output", metavar="MODEL.lp",
                    help="save the learned program here, in the dialect its suffix names: .lp "
                         "clingo, .pl Prolog (any other suffix but .txt and .scasp: clingo); with "
                         "its header and a checksum line")
    le.add_argument("--quiet", action="store_true",
                    help="no progress bar (there is one only when stderr is a terminal)")
    separator(le)
    le.set_defaults(run=cmd_learn)

    e = sub.add_parser("export", help="print a program in another dialect", formatter_class=raw,
                       epilog="examples:\n"
                              "  aspml export examples/birds/birds.lp --to prolog\n"
                              "  aspml export examples/birds/birds.lp --to prolog --facts "
                              "examples/birds/birds.csv > birds.pl\n"
                              "  swipl -q -g \"forall(flies(R), writeln(R))\" -t halt birds.pl\n"
                              "  aspml export examples/birds/birds.lp --to prolog --facts "
                              "examples/birds/birds.csv --key name --prefix birds\n"
                              "  aspml export examples/birds/birds.lp --to prolog --names")
    common(e)
    e.add_argument("--to", required=True, choices=["asp", "prolog", "scasp", "text"])
    e.add_argument("--facts", metavar="DATA.csv",
                   help="append the rows of DATA.csv as facts (asp, prolog): a file clingo or "
                        "swipl runs alone; row ids count from 0")
    e.add_argument("--key", metavar="COLUMN",
                   help="with --facts: name each row by its value in COLUMN instead of its "
                        "number (an integer stays one, any other value is a string or quoted "
                        "atom); every row needs a key of its own")
    e.add_argument("--prefix", metavar="NAME",
                   help="put NAME_ in front of the exception and helper predicates "
                        "(NAME_ab1, NAME_row), so programs share one knowledge base; feature "
                        "and target predicates are not prefixed")
    e.add_argument("--names", action="store_true",
                   help="list the predicates of the print instead: kind, name (JSON), "
                        "predicate/arity, one per line, tab-separated")
    e.add_argument("--alongside", nargs="+", action="extend", metavar="MODEL",
                   help="the knowledge base also holds these programs (saved models or "
                        "exports, with their prefixes): refuse, in one line, a program whose "
                        "predicates clash with theirs (one name for two columns, a column "
                        "read as two kinds or scales, a target or exception two programs "
                        "define)")
    separator(e)
    e.set_defaults(run=cmd_export)

    p = sub.add_parser("predict", help="predict the rows of a CSV file", formatter_class=raw,
                       epilog="example: aspml predict examples/birds/birds.lp examples/birds/birds.csv")
    common(p)
    p.add_argument("data", help="a CSV file with a column per feature (or a Parquet file)")
    p.add_argument("--engine", choices=["fast", "clingo", "prolog"], default="fast")
    p.add_argument("-o", "--output", help="write the predictions here (CSV) instead of stdout")
    p.add_argument("--keep", nargs="+", action="extend", metavar="COLUMN",
                   help="also write these columns of DATA (an identifier), as the file "
                        "holds them, after the row number")
    p.add_argument("--rule", action="store_true",
                   help="also a column 'rule': the number of the rule that decided each row "
                        "(as the printed program and check count them; empty where no rule "
                        "fires), from the fast path, whichever --engine answers")
    p.add_argument("--chunksize", type=int, metavar="ROWS",
                   help="read, predict and write ROWS rows at a time: memory stays that of one "
                        "chunk however large the file (same answers as reading it whole)")
    p.add_argument("--quiet", action="store_true",
                   help="no progress bar with --chunksize (there is one only when stderr is a "
                        "terminal)")
    separator(p)
    p.set_defaults(run=cmd_predict)

    c = sub.add_parser("check", help="fast path against clingo (--prolog: and SWI-Prolog); coverage and precision per rule", formatter_class=raw,
                       epilog="example: aspml check examples/birds/birds.lp examples/birds/birds.csv")
    common(c)
    c.add_argument("data", help="a CSV file with a column per feature")
    c.add_argument("--target", metavar="COLUMN",
                   help="the label column, for precision per rule (default: the column named "
                        "like the target, when there is one)")
    c.add_argument("--prolog", action="store_true",
                   help="also run the program in SWI-Prolog (swipl), the engine a Prolog "
                        "deployment ships, and check that it gives every row's answer")
    scored_weight(c)
    separator(c)
    c.set_defaults(run=cmd_check)

    x = sub.add_parser("explain", help="why (or why not) one row gets its answer", formatter_class=raw,
                       epilog="example: aspml explain examples/birds/birds.lp "
                              "examples/birds/birds.csv --row 1 --minimal --counterfactual")
    common(x)
    x.add_argument("data", help="a CSV file with a column per feature")
    x.add_argument("--row", type=int, required=True, help="the row to explain (0 is the first)")
    x.add_argument("--minimal", action="store_true",
                   help="also a minimal set of the row's values that forces the answer")
    x.add_argument("--why-not", metavar="CLASS",
                   help="a multi-class program: why the row does not get CLASS, in place of "
                        "why its class (each rule of CLASS, and what failed or came first); "
                        "a binary one: one of its two answers (its explanation says why "
                        "the other does not hold)")
    x.add_argument("--counterfactual", action="store_true",
                   help="also the fewest changes that give the other answer (multi-class: "
                        "the --why-not CLASS, else the nearest other class); "
                        "--counterfactual CLASS: as --why-not CLASS --counterfactual")
    # --counterfactual CLASS, as main() reads it (a value taken by argparse here would
    # swallow MODEL or DATA written after the option)
    x.add_argument("--counterfactual-class", dest="counterfactual_class", help=argparse.SUPPRESS)
    x.add_argument("--immutable", nargs="+", action="extend", metavar="FEATURE",
                   help="features a counterfactual may not change")
    x.add_argument("--json", action="store_true", help="print JSON instead of text")
    separator(x)
    x.set_defaults(run=cmd_explain)

    from .generalize.command import add_arguments
    g = sub.add_parser("simplify", help="a smaller descriptive model of a large rule set",
                       formatter_class=raw,
                       description="Unite congruent rules of a large rule set (an aspml program, "
                                   "a JSON rule list, or a scikit-learn tree or forest saved with "
                                   "skops) into a descriptive model whose rules keep a coherence "
                                   "(and, with --reference, a fidelity) of at least --rho. A "
                                   "joblib/pickle file loads only with --allow-pickle: unpickling "
                                   "runs any code the file holds (unsafe).",
                       epilog="examples:\n"
                              "  aspml simplify examples/walk/walk_time.json --rho 1 --epsilon 10 "
                              "--hierarchy\n"
                              "  aspml simplify tree.skops --rho 0.8 --reference train.csv "
                              "--html model.html")
    add_arguments(g)
    g.set_defaults(run=cmd_simplify)

    r = sub.add_parser("report", help="one offline HTML page: rules, coverage, confusion matrix",
                       formatter_class=raw,
                       description="Write one self-contained HTML page (no script, no network): "
                                   "the rules as text and ASP, each rule's coverage and precision "
                                   "on DATA, the confusion matrix, and with --bench the plots of "
                                   "F1 against rules per learner from aspml bench --out.",
                       epilog="examples:\n"
                              "  aspml report examples/birds/birds.lp examples/birds/birds.csv "
                              "-o birds.html\n"
                              "  aspml report model.lp data.csv --target label --bench "
                              "results.json -o report.html")
    common(r)
    r.add_argument("data", help="a CSV file with a column per feature (and the label)")
    r.add_argument("-o", "--output", required=True, metavar="REPORT.html")
    r.add_argument("--target", metavar="COLUMN",
                   help="the label column (default: the column named like the target)")
    scored_weight(r)
    r.add_argument("--bench", metavar="RESULTS.json", help="results of aspml bench --out")
    separator(r)
    r.set_defaults(run=cmd_report)

    b = sub.add_parser("bench", help="cross-validated comparison of the learners on datasets",
                       formatter_class=raw,
                       description="Cross-validate learners on one CSV file (DATA.csv --target "
                                   "COLUMN) or on the datasets of a manifest "
                                   "(DIR/MANIFEST.tsv: name, label_column, positive_value, "
                                   "categorical_columns, numeric_columns, files; with no kinds "
                                   "listed they are inferred) and print a "
                                   "table: accuracy, F1, rules, literals, training seconds. "
                                   "The exit status is 1 when a run failed. "
                                   "Besides aspml's learners: foldrpp (reference FOLD-R++), "
                                   "ripper (wittgenstein), tree (scikit-learn, depth 5; "
                                   "tree:max_depth=N) and figs (imodels' FIGS) when installed. "
                                   "Scores: accuracy, the positive class's F1, precision and "
                                   "recall, balanced accuracy (on a multi-class dataset: "
                                   "macro averages over the classes). NAME:balanced runs a "
                                   "learner with class_weight=balanced.",
                       epilog="examples:\n"
                              "  python examples/breast_cancer/make_data.py breast_cancer.csv\n"
                              "  aspml bench breast_cancer.csv --target diagnosis --positive "
                              "malignant --learners fold-se libre --folds 3\n"
                              "  aspml bench --data-dir ../shared/data --datasets heart breastw "
                              "--learners fold-se fold-rpp --folds 3\n"
                              "  aspml bench --data-dir ../shared/data --out results   "
                              "# results.csv, results.json\n"
                              "  aspml bench --data-dir ../shared/data --datasets heart --positive "
                              "heart=present --learners libre libre:max_rules=3")
    b.add_argument("data", nargs="?", metavar="DATA.csv",
                   help="one CSV file with a header line (instead of --data-dir)")
    b.add_argument("--target", metavar="COLUMN", help="with DATA.csv: the label column")
    b.add_argument("--ignore", nargs="+", action="extend", metavar="COLUMN",
                   help="columns that are not features (an identifier, a second label), "
                        "left out of every dataset that has them")
    b.add_argument("--kind", action="append", metavar="COLUMN=KIND",
                   help="read a column as numeric, categorical, mixed or boolean, as aspml "
                        "learn --kind does (repeatable); with --data-dir, in every dataset "
                        "that has the column")
    b.add_argument("--missing", action="append", metavar="TOKEN",
                   help=MISSING_HELP + "; default: ?, as aspml learn reads it")
    b.add_argument("--data-dir", metavar="DIR", help="folder with MANIFEST.tsv")
    b.add_argument("--datasets", nargs="+", action="extend", metavar="NAME",
                   help="datasets of the manifest, NAME@VALUE for another positive class "
                        "(default: every one with a positive value, and the positive classes "
                        "of the learners' tables: " + " ".join(L.ISSUE_VARIANTS) + ")")
    b.add_argument("--learners", nargs="+", action="extend", metavar="NAME",
                   help="default: every available one (fold-se fold-rpp libre mrs, and "
                        "foldrpp ripper tree figs when installed) and libre:max_rules=3; "
                        "NAME:KEY=VALUE,... sets parameters of an aspml learner, "
                        "NAME:balanced its class_weight")
    b.add_argument("--class-weight", choices=["balanced"],
                   help="also run each learner that takes a class weight (aspml's, tree, figs) "
                        "with class_weight=balanced, as its own column NAME:balanced")
    b.add_argument("--folds", type=int, default=5, help="stratified folds (default 5)")
    b.add_argument("--seed", type=int, default=0, help="seed of the folds and learners")
    b.add_argument("--positive", nargs="+", action="extend", metavar="DATASET=VALUE",
                   help="another positive class than the manifest's; with DATA.csv just VALUE "
                        "(default: the second of two label values, sorted)")
    b.add_argument("--multiclass", action="store_true",
                   help="learn every class of each dataset (one multi-class program) instead "
                        "of its positive class against the rest; datasets the manifest marks "
                        "(multi-class), and a CSV label of 3+ values, are multi-class anyway")
    b.add_argument("--reference-max-rows", type=int, default=50_000, metavar="N",
                   help="skip foldrpp, ripper and tree on larger datasets (default 50000)")
    b.add_argument("--out", metavar="PREFIX", help="also write PREFIX.csv and PREFIX.json")
    b.add_argument("--quiet", action="store_true", help="no progress bar")
    b.set_defaults(run=cmd_bench)
    return ap


class _ClosedStdout(io.TextIOBase):
    """Standard output when the shell closed it (``>&-``): writing is the refused system
    call it would be on a closed descriptor, so it ends as one line and exit 2."""

    def write(self, text):
        raise OSError(errno.EBADF, "the standard output is closed")

    def flush(self):
        pass

    def fileno(self):
        raise OSError(errno.EBADF, "the standard output is closed")


@contextlib.contextmanager
def _notes(command: str):
    """aspml's warnings as one line each, ``aspml COMMAND: note: ...``, each once (a
    warning of the data, met again in every chunk, is one note); other warnings as
    Python shows them.  ``learn`` prints its fit's notes itself (:func:`_fit`)."""
    shown, default = set(), warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if not issubclass(category, AspmlWarning):
            default(message, category, filename, lineno, file, line)
        elif str(message) not in shown:
            shown.add(str(message))
            print(f"aspml {command}: note: {message}", file=sys.stderr)

    with warnings.catch_warnings():
        warnings.simplefilter("always", AspmlWarning)
        warnings.showwarning = show
        yield


def _counterfactual_class(argv: list) -> list:
    """``explain``'s ``--counterfactual CLASS`` (or ``--counterfactual=CLASS``) as the
    hidden ``--counterfactual-class CLASS``: a word after the option that is not an option
    and names no file is its class; a file is MODEL or DATA (``explain --counterfactual
    m.lp d.csv`` reads as it always did)."""
    if argv[:1] != ["explain"]:
        return argv
    out, k = [], 0
    while k < len(argv):
        word = argv[k]
        if word.startswith("--counterfactual="):
            out += ["--counterfactual-class", word.split("=", 1)[1]]
        elif (word == "--counterfactual" and k + 1 < len(argv)
              and not argv[k + 1].startswith("-") and not Path(argv[k + 1]).exists()):
            out += ["--counterfactual-class", argv[k + 1]]
            k += 1
        else:
            out.append(word)
        k += 1
    return out


# options whose value may begin with "-" (a class "-1" or "-inf", a missing-value word "-")
_DASH_VALUES = ("--positive", "--why-not", "--missing", "--target")


def _dash_values(argv: list, parser) -> list:
    """``--positive -inf`` as ``--positive=-inf`` (argparse reads a word that begins with
    "-" and is not a negative number as an option, and says the option lacks its value):
    a word after one of :data:`_DASH_VALUES` that no command knows as an option is its
    value (a fuzz trial: ``--positive -x`` refused, ``--positive=-x`` learned)."""
    known = set(parser._option_string_actions)
    for action in parser._actions:
        for sub in (getattr(action, "choices", None) or {}).values():
            if hasattr(sub, "_option_string_actions"):
                known |= set(sub._option_string_actions)

    def option(word: str) -> bool:
        """Whether argparse would read the word as an option: a known one, an
        abbreviation of a long one, a short one with its value attached, or ``--``."""
        head = word.split("=", 1)[0]
        return (head in known or word == "--" or word[:2] in known
                or word.startswith("--") and any(k.startswith(head) for k in known))
    out, k = [], 0
    while k < len(argv):
        word = argv[k]
        nxt = argv[k + 1] if k + 1 < len(argv) else None
        if word in _DASH_VALUES and nxt is not None and nxt.startswith("-") and not option(nxt):
            out.append(f"{word}={nxt}")
            k += 2
            continue
        out.append(word)
        k += 1
    return out


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if sys.stdout is None:                    # started with stdout closed (>&-)
        sys.stdout = _ClosedStdout()
    try:
        if argv[:1] == ["--version"]:         # at once: building the parser imports the learners
            from . import __version__
            print(f"aspml {__version__}")
            sys.stdout.flush()
            return 0
        try:
            parser = build_parser()
            args = parser.parse_args(_dash_values(_counterfactual_class(argv), parser))
        finally:                              # --help printed (and exits): flush it here
            sys.stdout.flush()
    except OSError as e:
        if e.errno is None:                   # not a refused write: a broken install
            raise
        print(f"aspml: {_system_error(e)}", file=sys.stderr)
        _drop_stdout()
        return 2
    try:
        with _notes(args.command):
            code = args.run(args)
        sys.stdout.flush()                    # a full disk shows here, not at exit
        return code
    except AspmlError as e:
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        print(f"aspml {args.command}: {first}", file=sys.stderr)
        _flush_or_drop_stdout()
        return 2
    except BrokenPipeError:
        # the reader (head, less) stopped early: not an error; keep Python quiet at exit
        _drop_stdout()
        return 0
    except KeyboardInterrupt:
        return 130
    except MemoryError:                       # clingo, pandas or numpy ran out of memory
        print(f"aspml {args.command}: out of memory (try fewer rows, or a machine with more "
              f"memory)", file=sys.stderr)
        _flush_or_drop_stdout()
        return 2
    except Exception as e:  # noqa: BLE001 - a bug of aspml: still one line, unless debugging
        if isinstance(e, OSError) and e.errno is not None:   # the system refused: a full disk
            print(f"aspml {args.command}: {_system_error(e)}", file=sys.stderr)
            _drop_stdout()
            return 2
        if os.environ.get("ASPML_DEBUG"):
            raise
        first = (str(e).splitlines() or [""])[0]
        print(f"aspml {args.command}: unexpected error {type(e).__name__}: {first} "
              "(this is a bug of aspml; ASPML_DEBUG=1 shows the traceback)", file=sys.stderr)
        return 1


def _drop_stdout() -> None:
    """Send what is left in stdout's buffer to /dev/null, so Python's flush at exit does not
    fail a second time (and print a traceback) on a closed pipe or a full disk."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):   # no real file behind stdout (tests)
        pass


def _flush_or_drop_stdout() -> None:
    """Flush what a failed command printed; on a full disk or closed pipe, drop it."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        _drop_stdout()


def _system_error(e: OSError) -> str:
    """One line for a refused system call that reached main: the file it names, else
    (a full disk, a quota: writing the standard output, the one file aspml writes
    without naming it) the standard output."""
    reason = e.strerror or str(e)
    if getattr(e, "filename", None):
        return f"{e.filename}: {reason}"
    if e.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EBADF):
        return f"cannot write the standard output: {reason}"
    return reason


if __name__ == "__main__":
    sys.exit(main())
