"""The learners the ``aspml`` command knows, in one place.

``LEARNERS`` maps a command-line name to the estimator's name in ``aspml``
and a one-line summary.  A learner whose class is not (yet) in ``aspml`` is
left out, so adding one is one line here.  ``OPTIONS`` maps the command's
learner options (``--ratio``, ``--n-estimators`` ...) to estimator parameters;
``--param key=value`` reaches any other parameter.
"""

from __future__ import annotations

import ast
import warnings

import aspml

from .data.csvfile import show_names as _columns
from .errors import AspmlError, AspmlWarning

LEARNERS = {
    "fold-se": ("FoldSE", "FOLD-SE: few, short default rules with exceptions (the default)"),
    "fold-rpp": ("FoldRpp", "FOLD-R++: information gain, more rules, close to the reference"),
    "libre": ("Libre", "LIBRE: bottom-up interval rules, strong on a rare positive class"),
    "mrs": ("MultiValueRuleSet", "Multi-value Rule Sets: conditions on sets of values"),
}

# The learners' own tables use other positive classes than MANIFEST.tsv for some
# datasets (LIBRE's and MRS's papers, the FOLD table's heloc); the default run of
# ``aspml bench`` adds them as ``NAME@POSITIVE`` entries, so that one run holds every
# table's figures.
ISSUE_VARIANTS = ("adult@>50K", "balance@B", "heart@present", "sonar@Rock", "credit_card@1",
                  "heloc@Good")

# command-line option -> (estimator parameter, type, help)
OPTIONS = {
    "ratio": ("ratio", float, "FOLD: learn exceptions once false positives <= RATIO x true positives"),
    "tail": ("tail", float, ("FOLD: a rule must cover at least this share of the rows "
                             "(fold-se 0.005, fold-rpp 0); above 0, a multi-class rule must "
                             "also decide 3 rows of its class")),
    "max_depth": ("max_depth", int, "FOLD: deepest nesting of exceptions"),
    "n_estimators": ("n_estimators", int, "LIBRE: number of weak learners"),
    "max_features": ("max_features", int, "LIBRE: features per weak learner"),
    "max_rules": ("max_rules", int, "LIBRE: at most this many rules for the target, exception rules not counted (libre 3: 3); FOLD: a multi-class program's most rules, exceptions counted, at least two a class but the default (fold-se 20, fold-rpp 32; --param max_rules=None: no budget; binary programs have none)"),
    "random_state": ("random_state", int, "seed of a randomised learner (libre, mrs): 0 "
                                          "unless given, so the same command learns the "
                                          "same program"),
    "max_bins": ("max_bins", int, "FOLD: each numeric column on at most N quantile bins "
                                  "(256 with --dask); LIBRE: at most N ChiMerge bins"),
}


def available() -> dict:
    """Command-line name -> estimator class, for the learners this aspml has."""
    out = {}
    for name, (cls_name, _) in LEARNERS.items():
        cls = getattr(aspml, cls_name, None)
        if cls is not None:
            out[name] = cls
    return out


def describe() -> str:
    """The learners for ``--help``: one line each (without importing them: scikit-learn,
    which they need, takes seconds to import, and only ``learn`` and ``bench`` use it)."""
    return "\n".join(f"  {name:9s} {summary}" for name, (_, summary) in LEARNERS.items())


def parse_value(text: str):
    """A ``--param`` value: a Python literal (``3``, ``0.5``, ``None``, ``'H2'``) or the text."""
    low = text.strip().lower()
    if low in ("none", "null"):
        return None
    if low in ("true", "false"):
        return low == "true"
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def estimator(name: str, options: dict, params: list[str], positive, target: str, kinds: dict,
              missing=None):
    """The estimator ``name`` with its options set; a mistake is one clear AspmlError."""
    have = available()
    if name not in have:
        known = ", ".join(have)
        raise AspmlError(f"unknown learner {name!r}; this aspml has: {known}")
    cls = have[name]
    accepted = cls().get_params()
    chosen: dict = {}
    for option, value in options.items():
        if value is None:
            continue
        param = OPTIONS[option][0]
        if param not in accepted:
            raise AspmlError(f"--{option.replace('_', '-')} does not apply to {name} "
                             f"(its parameters: {', '.join(sorted(accepted))})")
        chosen[param] = value
    for item in params or ():
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise AspmlError(f"--param {item!r}: write it as KEY=VALUE")
        if key not in accepted:
            raise AspmlError(f"--param {key}: {name} has no such parameter "
                             f"(its parameters: {', '.join(sorted(accepted))})")
        chosen[key] = parse_value(value)
    # a randomised learner's seed is 0 unless given: the same command learns the same
    # program (in Python, random_state=None draws a new one each fit, as scikit-learn does)
    for key, value in (("positive", positive), ("target", target), ("kinds", kinds),
                       ("missing", missing), ("random_state", 0)):
        if key in accepted and key not in chosen:
            chosen[key] = value
    return cls(**chosen)


_FLAGS = {"true", "false"}


def labelled(labels, missing=None) -> np.ndarray:
    """The rows of a label column that have a label: not empty, not a ``missing`` token
    (``?`` by default); the rows :func:`learning_data` learns from."""
    from .logic.model import missing_tokens
    return (labels.notna() & ~labels.isin(missing_tokens(missing))).to_numpy()


def learning_data(df, path: str, target: str, positive, ignore=(), kinds=None, missing=None):
    """(X, y, positive label, kinds) from a CSV table read as text; mistakes are one line.

    A label of three or more values and no ``positive`` is multi-class: ``y``
    holds the labels (numbers when they all are) and the positive label is
    ``None``; with ``positive`` it is that class against all the others.

    Rows without a label (empty, or a ``missing`` token: ``?`` by default) are
    left out.  A column that holds only ``true``/``false`` (any case) besides
    missing values is a Boolean feature; ``kinds`` (``{column: kind}``)
    overrides the inference.
    """
    from .logic.model import missing_tokens
    missing = missing_tokens(missing)
    import numpy as np

    features = check_columns(list(df.columns), path, target, ignore, kinds)
    df = df[labelled(df[target], missing)].reset_index(drop=True)
    if len(df) == 0:
        raise AspmlError(f"no row of {path} has a value in column {target!r}")
    df = df.assign(**{target: _numbers_if_all(df[target])})
    values = sorted(df[target].unique(), key=lambda v: (isinstance(v, str), v))
    positive = choose_positive(values, target, positive, len(df))
    if len(values) > 2:
        warn_missing_word_labels(df[target].value_counts().to_dict(), target, positive)
    y = df[target].to_numpy(dtype=object)
    if len(values) > 2 and positive is not None:               # the positive class against all others, as text labels
        texts = df[target].astype(str).to_numpy()
        # the others' label, which must not be a class of the table (it would merge with it)
        taken, other, k = set(texts.tolist()), f"not {positive}", 2
        while other in taken:
            other, k = f"not {positive} ({k})", k + 1
        y = np.where(texts == positive, positive, other)
    X = df[features]
    chosen = {c: "boolean" for c in features if is_flag_column(flag_values(X[c], missing))}
    chosen.update(kinds or {})
    return X, y, positive, chosen


def warn_missing_word_labels(counts: dict, target: str, positive) -> None:
    """With ``--positive``, a label that is a word other tools write for a missing value
    ('NaN', 'N/A') merges into the other class without a word (a scale trial: 2% of a
    fraud label written 'NaN' were learned as not fraud); the fit's own note sees only the
    two classes.  ``counts``: label -> rows."""
    from .learners._base import missing_word_labels
    said = None if positive is None else missing_word_labels(
        (v, int(n)) for v, n in counts.items() if v != positive)
    if said is None:
        return
    shown, flags = said
    warnings.warn(f"column {target!r} holds {shown}, a word other tools write for a missing "
                  f"label: learned as not {positive!r} here; if those rows have no label, "
                  f"{flags} leaves them out", AspmlWarning, stacklevel=3)


def check_columns(columns: list, path: str, target: str, ignore=(), kinds=None) -> list:
    """The feature columns of a table with these ``columns``: all but the target and the
    ignored ones; a column named that the table lacks is one clear error."""
    if target not in columns:
        raise AspmlError(f"{path} has no column {target!r} (its columns: {_columns(columns)})")
    for c in [*ignore, *(kinds or {})]:
        if c not in columns:
            raise AspmlError(f"{path} has no column {c!r} (its columns: {_columns(columns)})")
    if target in ignore or target in (kinds or {}):
        raise AspmlError(f"{target!r} is the --target column: it is not a feature to "
                         f"{'ignore' if target in ignore else 'give a kind'}")
    features = [c for c in columns if c != target and c not in ignore]
    if not features:
        raise AspmlError(f"{path} has no feature column besides {target!r}")
    return features


def choose_positive(values: list, target: str, positive, n_rows: int):
    """The positive label for the label's distinct ``values`` (sorted, as learned): the
    one given (as a number when the labels are), else the second of two values, or None
    for a multi-class program (three or more values); with three or more values and a
    positive class, its text."""
    import pandas as pd
    if positive is not None and not isinstance(values[0], str):
        positive = _numbers_if_all(pd.Series([positive])).iloc[0]
    if len(values) < 2:
        raise AspmlError(f"column {target!r} holds only {values[0]!r}: a classifier needs two classes")
    if positive is None and len(values) > 2:
        check_classes(target, values, n_rows)     # every class: one multi-class program
    elif positive is None:
        positive = values[1]
    elif positive not in values:
        raise AspmlError(f"--positive {positive!r} is not a value of column {target!r} "
                         f"(its values: {_show(values)})")
    if len(values) > 2 and positive is not None:
        positive = str(positive)
    return positive


def flag_values(column, missing) -> set:
    """The distinct values of a text column, stripped and lower-cased, missing ones left out."""
    return {str(v).strip().lower() for v in column.dropna().unique() if v not in missing}


def is_flag_column(distinct: set) -> bool:
    """Whether a column of these :func:`flag_values` is a Boolean feature."""
    return bool(distinct) and distinct <= _FLAGS


def check_classes(target: str, values, n_rows: int) -> None:
    """A label of three or more values is learned class by class, unless most rows have
    a value of their own (an identifier, a measurement), or it is numbers of more than
    ``QUANTITY_VALUES`` values, some of them fractions (a quantity): that is no label
    to learn.  A few fractions (grades 1.5, 2.0, 3) are classes."""
    fractions = [v for v in values if isinstance(v, float) and not float(v).is_integer()]
    if fractions and len(values) > QUANTITY_VALUES and len(fractions) + sum(
            isinstance(v, (int, float)) for v in values if v not in fractions) == len(values):
        raise AspmlError(f"column {target!r} holds numbers that are not whole "
                         f"({fractions[0]!r}, ...): a quantity, not classes. Bin it into "
                         "classes first, or say which value is the positive class with "
                         "--positive")
    if len(values) > n_rows / 2:
        raise AspmlError(f"column {target!r} holds {len(values)} different values in "
                         f"{n_rows} rows, too many to learn each as a class: is it the label "
                         f"column? To learn one class against the others, say which is the "
                         f"positive class with --positive (one of: {_show(values)})")


# More distinct numbers than this in a label, some of them fractions, make it a quantity
# (check_classes); as many or fewer are classes that happen to be written as numbers.
QUANTITY_VALUES = 20


def _numbers_if_all(labels):
    """Labels read as text from a file that are all numbers (``0``, ``1``, ``2.5``) as
    numbers; others unchanged (every label as written when one of them is a word).  A
    number written as ``to_csv`` writes a float is that number (``"1.0"`` is the class
    ``1``, as ``pd.read_csv`` reads it); written otherwise
    (``"01"``, ``"1e0"``) it is a code, as in a categorical column
    (:func:`aspml.data.table.category_text`).  Each distinct label is read once: a Python
    step per value, not per row (texts: no two distinct ones hash alike, as 1 and True)."""
    import pandas as pd

    from .data.table import _NUMBER_TEXT, _as_number, category_text, number_text
    from .logic.values import normalize_value
    if any(_as_number(u) is None for u in pd.unique(labels)):
        # a word among them: every label as written, as aspml.read_csv's frame holds it and
        # as check and report read it ("3.0" beside "two" is the class "3.0"; a new-user
        # trial: learn made it "3", check then found no row of the class, and "1" beside
        # "1.0" and "x" made a binary program of three classes)
        return labels
    written = labels
    changed = {u: c for u in pd.unique(labels)
               if isinstance(u, str) and _NUMBER_TEXT.match(u) and (c := category_text(u)) != u}
    if changed:
        labels = labels.replace(changed)
    number = {u: _as_number(u) for u in pd.unique(labels)}
    if any(isinstance(u, str) and u != number_text(n) for u, n in number.items()):
        # a code ("01", "1e0": not the number's own text, which category_text made of
        # every other number above) keeps every label as written ("01", "02", "10" were
        # the classes 1, 2 and 10, and predict wrote 1 for a row labelled "01"; a
        # new-user trial; "01" beside "1" were two codes, as they stay); distinct texts
        # of numbers' own are distinct numbers.  As written: not with "1.0" made "1"
        # above (a new-user trial: "1", "01" and "1.0" learned as two classes, "1.0"
        # merged into "1", where check, report and bench read three)
        return written
    number = {u: normalize_value(n) for u, n in number.items()}
    return labels.__class__([number[v] for v in labels], index=labels.index, dtype=object)


def _show(values, limit: int = 8) -> str:
    shown = ", ".join(repr(v) for v in values[:limit])
    return shown + (f", ... ({len(values)} in all)" if len(values) > limit else "")


def _condition(rule) -> str:
    from .logic.printers import text_literal
    return "IF " + (" AND ".join(text_literal(lit) for lit in rule.body) or "TRUE")


def format_step(event: dict) -> str:
    """One learning step of ``fit(..., trace=...)`` as a line for people."""
    from .logic.printers import text_literal, text_value
    depth = event["depth"]
    pad = "  " * depth
    what = "a default rule" if depth == 0 else f"an exception (depth {depth})"
    step = event["step"]
    if step == "rule":
        return (f"{pad}start {what}: {event['tp']} example(s) to cover, "
                f"{event['fp']} to exclude")
    if step == "literal":
        return (f"{pad}  add {text_literal(event['literal'])}  (heuristic {event['score'] + 0.0:.4f}): "
                f"covers {event['tp']}, wrongly {event['fp']}")
    if step == "exceptions":
        return f"{pad}  {event['fp']} wrongly covered: learn exceptions for them"
    if step == "stop":
        return f"{pad}  no literal helps: rule {'kept' if event['kept'] else 'dropped'}"
    if step == "empty":
        return f"{pad}  no row of its own left: the rule stops ({event['fp']} wrongly)"
    if step == "class":
        return (f'{pad}class {text_value(event["label"])}: a rule for its {event["tp"]} '
                f"remaining row(s), against {event['fp']} of other classes")
    if step == "default":
        left = event["tp"] + event["fp"]
        return (f"{pad}default class {text_value(event['label'])}: " + (
            f"{event['tp']} of the {left} row(s) no rule covers are of it" + (
                " (counted beside the tail bar's worth of rows at the classes' shares of "
                "all rows)" if event["bar"] else "") if left else
            "every row is covered; the class of most rows"))
    if step == "budget":
        return (f"{pad}the list passed its budget of {event['budget']} rules (max_rules): "
                "learned again, each rule to cover at least 0.1 x the rows no rule decides "
                "yet / the rules the budget has left")
    if step == "expert":
        return (f"{pad}keep the expert's rule {_condition(event['rule'])}: covers "
                f"{event['tp']} example(s), wrongly {event['fp']}")
    if step == "covered":
        tail = "" if event["kept"] else " (too few: dropped)"
        return f"{pad}  rule done: covers {event['tp']} example(s){tail}"
    return f"{pad}{event}"
