"""``aspml report``: one self-contained HTML page about a program on a table.

The page holds the rules (as text and as clingo input), each rule's coverage
and precision on the table, the confusion matrix and scores, and, given the
results of ``aspml bench`` (its JSON), plots of F1 against the number of rules
per learner.  Plots are inline SVG; there is no script, no external file and
no network access.  Every string that comes from the user (file names,
feature names, values, labels, learner names) goes through ``aspml._html.e``
(``html.escape``, invisible characters shown as escapes).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ._html import e as _e, pre as _pre
from ._words import count
from .evaluate import default_indices, evaluate, first_of_coverage
from .logic.model import Program
from .logic.names import text_name
from .logic.printers import text_head, text_literal, text_value
from .logic.values import read_as_csv

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf"]

CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222;
       padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; border-bottom: 1px solid #ccc; margin-top: 1.6em; }
table { border-collapse: collapse; margin: .6em 0; }
th, td { border: 1px solid #bbb; padding: .25em .6em; text-align: left; vertical-align: top; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
pre { background: #f6f6f6; border: 1px solid #ddd; padding: .8em; overflow-x: auto;
      white-space: pre-wrap; word-break: break-all; }
.cm td { width: 7em; text-align: center; font-size: 1.1em; }
.muted { color: #666; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; }
code { background: #f0f0f0; padding: 0 .2em; }
"""


def truth_of(labels: pd.Series, positive, missing=("?",)) -> tuple[np.ndarray, np.ndarray]:
    """(known, is positive) for a label column read as text; the positive label may be a
    number, or None for a target without a label (then true / 1 / yes is positive).
    Empty cells and the ``missing`` tokens (the program's) are unknown labels."""
    text = labels.astype(object)
    known = text.notna() & ~text.isin(list(missing)) & (text != "")
    if positive is None:                      # a target without a label: flies(X)
        low = text.astype(str).str.strip().str.lower()
        return known.to_numpy(), low.isin(["true", "1", "yes"]).to_numpy()
    hit = text == str(positive)
    if isinstance(positive, str) and positive != read_as_csv(positive):
        # a label fitted in Python keeps its leading spaces (" >50K"); read from a CSV it
        # has none, as every value (data.md): the same label either way
        hit |= text.map(read_as_csv) == read_as_csv(positive)
    if isinstance(positive, (int, float)) and not isinstance(positive, bool):
        hit |= pd.to_numeric(text, errors="coerce") == positive
    return known.to_numpy(), hit.to_numpy()


def other_labels_note(program: Program, labels: pd.Series) -> str | None:
    """A binary program's note on the labelled rows that hold neither its positive nor
    its negative label, which are scored as not positive (a trial's ``maybe`` rows were
    counted as ``no`` without a word), or None."""
    t = program.target
    if (t.is_multiclass or t.positive is None or t.negative is None
            or str(t.negative).startswith(f"not {t.positive}")):    # (learn's "the others")
        return None
    known, positive = truth_of(labels, t.positive, program.missing)
    _, negative = truth_of(labels, t.negative, program.missing)
    other = known & ~positive & ~negative
    if not other.any() or not positive[known].any():   # (else: the wrong column's note)
        return None
    values = list(dict.fromkeys(labels[other].astype(str)))
    shown = ", ".join(repr(v) for v in values[:3]) + (", ..." if len(values) > 3 else "")
    n = int(other.sum())
    return (f"{count(n, 'labelled row')} of column {labels.name!r} hold{'s' if n == 1 else ''} "
            f"neither {t.positive!r} nor {t.negative!r} ({shown}): scored as not {t.positive!r}")


def _depths(program: Program) -> list[int]:
    """Nesting depth of each rule: 0 for default rules, d+1 for an exception of a depth-d rule."""
    depth_of_head: dict = {None: 0}
    changed = True
    while changed:
        changed = False
        for rule in program.rules:
            d = depth_of_head.get(rule.head)
            if d is None:
                continue
            for ab in rule.exceptions:
                if depth_of_head.get(ab, math.inf) > d + 1:
                    depth_of_head[ab] = d + 1
                    changed = True
    return [depth_of_head.get(r.head, 1) for r in program.rules]


def weigh(mask, weights=None):
    """How many rows ``mask`` holds (an int), or their total weight (a float) when the rows
    are weighted (``weights``: one number >= 0 a row, as ``fit``'s ``sample_weight``)."""
    return int(np.count_nonzero(mask)) if weights is None else float(np.sum(weights[mask]))


def amount(x) -> str:
    """A count or a total weight as text: ``12``, ``12.5`` (a whole weight as a whole
    number)."""
    return f"{x:.12g}" if isinstance(x, float) else str(x)


def share_text(right, total, of: str = "") -> str:
    """A precision as ``check`` and ``report`` print it: ``0.883 (181/205)``, or with
    ``of`` what the rows are, ``0.883 (181/205 positive)``."""
    return f"{right / total:.3f} ({amount(right)}/{amount(total)}{' ' + of if of else ''})"


def rule_rows(program: Program, X: pd.DataFrame, known, positive_truth,
              cov=None, weights=None) -> list[dict]:
    """Per rule: rows where it fires, and how many of them have the class it argues for
    (``cov``: the rows x rules coverage of ``X``, when the caller has it).  With
    ``weights`` (one a row) the labelled rows and the right ones are their weights, and
    precision is weighted; ``covers`` counts rows."""
    if cov is None:
        _, cov, _ = evaluate(program, X)
    out = []
    for i, (rule, depth) in enumerate(zip(program.rules, _depths(program))):
        fires = cov[:, i]
        argues_positive = depth % 2 == 0
        n = int(fires.sum())
        labelled = fires & known
        right = weigh(labelled & (positive_truth == argues_positive), weights)
        total = weigh(labelled, weights)
        out.append({"index": i + 1, "head": text_head(program, rule),
                    "body": " AND ".join(text_literal(lit) for lit in rule.body) or "TRUE",
                    "depth": depth, "argues": "positive" if argues_positive else "negative",
                    "covers": n, "labelled": total, "right": right,
                    "precision": right / total if total else None})
    return out


def binary_scores(prediction, truth, known, weights=None) -> dict:
    """A binary program's confusion on the labelled rows (``known``): ``tp``, ``fp``,
    ``fn``, ``tn`` (row counts, or weights), ``accuracy``, ``precision``, ``recall``,
    ``f1`` (0.0 where nothing is counted), as ``aspml learn``, ``check`` and ``report``
    print them."""
    yes, no = known & prediction, known & ~prediction
    tp, fp = weigh(yes & truth, weights), weigh(yes & ~truth, weights)
    fn, tn = weigh(no & truth, weights), weigh(no & ~truth, weights)
    n = tp + fp + fn + tn
    return {"tp": tp, "fp": fp, "fn": fn, "tn": tn, "labelled": n,
            "accuracy": (tp + tn) / n if n else 0.0,
            "precision": tp / (tp + fp) if tp + fp else 0.0,
            "recall": tp / (tp + fn) if tp + fn else 0.0,
            "f1": 2 * tp / (2 * tp + fp + fn) if tp else 0.0}


# ---------------------------------------------------------------------------
# multi-class figures (issue #17): per-class coverage and precision, confusion matrix
# ---------------------------------------------------------------------------

def class_of_labels(program: Program, labels) -> tuple[np.ndarray, np.ndarray]:
    """``(known, class)`` for a label column: each labelled row's class of ``program``
    (a label read as text names the class that prints as it: "2" is the class 2), or
    the label's own text when the program has no such class.  Empty cells and the
    program's missing tokens are unknown (``known`` False, class None)."""
    text = pd.Series(labels).reset_index(drop=True).astype(object)
    known = (text.notna() & ~text.isin(list(program.missing)) & (text != "")).to_numpy()
    by_text: dict = {}
    for c in program.classes:
        by_text.setdefault(str(c), c)
    for c in program.classes:       # " hi" fitted in Python is "hi" read from a CSV
        if isinstance(c, str):
            by_text.setdefault(read_as_csv(c), c)
    out = np.empty(len(text), dtype=object)
    for k, v in enumerate(text):
        if not known[k]:
            out[k] = None
        elif any(_is(v, c) for c in program.classes):
            out[k] = v
        elif str(v) in by_text:
            out[k] = by_text[str(v)]
        else:
            number = pd.to_numeric(pd.Series([v]), errors="coerce")[0]
            hit = [c for c in program.classes if isinstance(c, (int, float))
                   and not isinstance(c, bool) and number == c]
            out[k] = hit[0] if hit else str(v)
    return known, out


def _multiclass(program: Program, what: str) -> None:
    from .errors import AspmlError
    if not program.is_multiclass:
        raise AspmlError(f"{what} reads a multi-class program; this one is binary "
                         "(its figures: precision and recall of the positive class)")


def _decisions(program: Program, X, cov=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(each row's class, the deciding default rule's index in program.rules or -1,
    rows x rules coverage; ``cov`` when the caller has it)."""
    if cov is None:
        _, cov, _ = evaluate(program, X)
    first = first_of_coverage(program, cov)     # the first default rule that fires decides
    index = np.array(default_indices(program) + [-1])
    labels = np.array([r.label for r in program.default_rules] + [program.target.default],
                      dtype=object)
    return labels[first], index[first], cov


def confusion(program: Program, X: pd.DataFrame, y, weights=None) -> dict:
    """The confusion matrix of a multi-class program on ``X`` against the labels ``y``.

    ``{"classes": [...], "matrix": [[...]], "labelled": n, "accuracy": a,
    "macro_f1": f}``: row ``i`` counts the labelled rows whose actual class is
    ``classes[i]``, column ``j`` those the program gives ``classes[j]``.  The classes
    are the program's, then any label the data holds that is not one of them (a row
    of its own; no column, the program never gives it), then ``"(no class)"`` as a
    column when the program has no default class and leaves rows without one.
    Unlabelled rows (empty, the missing tokens) are left out.  Macro-F1 is
    scikit-learn's ``f1_macro``: the mean F1 of every class the rows hold or the
    program gives them ("(no class)" included, at F1 0); a class neither seen nor
    given is left out.  With ``weights`` (one a row) each cell is the rows' total
    weight, and so are accuracy and macro-F1 (``labelled`` still counts rows,
    ``weight`` is the labelled rows' total weight)."""
    _multiclass(program, "confusion")
    known, actual = class_of_labels(program, y)
    predicted = _decisions(program, X)[0]
    pred, act = predicted[known], actual[known]
    w = np.ones(len(pred)) if weights is None else np.asarray(weights, dtype=float)[known]
    classes = list(program.classes)
    # a label or "(no class)" only rows of weight 0 have is not in the file of the rows
    # repeated their weight: no row or column of its own, no F1 of 0 in the mean
    counts = w > 0
    extra = [v for v in dict.fromkeys(act[counts]) if not any(_is(v, c) for c in classes)]
    rows = classes + extra
    cols = classes + ([None] if any(v is None for v in pred[counts]) else [])
    matrix = np.zeros((len(rows), len(cols)), dtype=np.int64 if weights is None else float)
    for a, p, wk in zip(act, pred, w):
        if not wk:
            continue            # (weight 0: it adds nothing, and may have no row or column)
        i = next(k for k, c in enumerate(rows) if _is(a, c))
        j = next(k for k, c in enumerate(cols) if _is(p, c))
        matrix[i, j] += 1 if weights is None else wk
    n = int(known.sum())
    total = matrix.sum()
    right = sum(matrix[k, k] for k in range(len(classes)))
    f1s = []
    for k in range(len(classes)):
        given, seen = matrix[:, k].sum(), matrix[k, :].sum()
        if given + seen:
            f1s.append(2 * matrix[k, k] / (given + seen))
    # the labels the program never gives, and "(no class)", which no row is: F1 0 each
    f1s += [0.0] * (len(extra) + (len(cols) > len(classes)))
    return {"classes": [_plain(c) for c in rows], "predicted": [_plain(c) for c in cols],
            "matrix": matrix.tolist(), "labelled": n, "weight": _plain(total),
            "accuracy": float(right / total) if total else None,
            "macro_f1": float(np.mean(f1s)) if total else None}


def _is(a, b) -> bool:
    """One class: equal values of one kind (the class 2 is not the label "2" here; labels
    read as text are mapped to classes first, by :func:`class_of_labels`)."""
    if a is None or b is None:
        return a is b
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    return a == b


def _plain(v):
    return v.item() if isinstance(v, np.generic) else v


def rule_decisions(program: Program, decider, cov, known, hit, weights=None) -> list[dict]:
    """Per rule of a multi-class program: the rows its body holds on (``covers``), the
    rows it decides (``decider``: each row's deciding rule, as :func:`_decisions` gives
    it), the labelled ones among them, and those of them that are right (``hit``: the
    row is labelled with the class it is given); with ``weights``, the labelled and
    right rows' weights."""
    n = len(program.rules)
    slot = np.where(decider >= 0, decider, n)          # rows no rule decides: slot n
    decides = np.bincount(slot, minlength=n + 1)

    def summed(mask):
        if weights is None:
            return [int(x) for x in np.bincount(slot[mask], minlength=n + 1)]
        return [float(x) for x in np.bincount(slot[mask], weights=weights[mask],
                                              minlength=n + 1)]
    labelled, right = summed(known), summed(known & hit)
    covers = np.count_nonzero(cov, axis=0) if n else np.zeros(0, dtype=np.int64)
    out = []
    for i in range(n):
        out.append({"covers": int(covers[i]), "decides": int(decides[i]),
                    "labelled": labelled[i], "right": right[i],
                    "precision": right[i] / labelled[i] if labelled[i] else None})
    return out


def class_figures(program: Program, X: pd.DataFrame, y=None, weights=None) -> dict:
    """Per class and per rule figures of a multi-class program on ``X`` (labels ``y``, or
    None: coverage only).

    ``{"classes": [{"class", "rules", "default", "given", "labelled", "actual", "right",
    "precision", "recall", "f1"}], "rules": [{"index", "class", "covers", "decides", "labelled", "right",
    "precision"}], "no_class": n}``.  For a class: the (1-based) numbers of its
    default rules, whether it is the default class, the rows the program gives it (and
    how many of them are labelled), the labelled rows that have it,
    and of the labelled rows it is given those that have it (precision = right /
    labelled given, recall = right / actual).  For a rule: the rows its body holds
    on (``covers``; its exceptions included), the rows it decides (the first rule
    that fires: ``decides``), and among the labelled rows it decides those with its
    class (``precision``).  An exception rule has ``class`` None and decides no row.
    ``no_class``: rows that get no class (a program without a default class);
    ``by_default``: rows no rule decides (the default class's), ``default_labelled`` and
    ``default_right`` the labelled ones among them and those of the default class.
    Precision and recall are None where nothing is counted.  With ``weights`` (one a
    row) every figure of labelled rows (``labelled``, ``actual``, ``right``, the
    default's) is their total weight, and precision, recall and F1 are weighted;
    ``given``, ``covers``, ``decides``, ``by_default`` count rows."""
    _multiclass(program, "class_figures")
    if weights is not None:
        weights = np.asarray(weights, dtype=float)
    given, decider, cov = _decisions(program, X)
    if y is None:
        known, actual = np.zeros(len(given), dtype=bool), np.full(len(given), None, dtype=object)
    else:
        known, actual = class_of_labels(program, y)
    hit = np.array([known[k] and _is(actual[k], given[k]) if given[k] is not None else False
                    for k in range(len(given))], dtype=bool)
    classes = []
    for c in program.classes:
        gets = np.array([g is not None and _is(g, c) for g in given], dtype=bool)
        has = known & np.array([a is not None and _is(a, c) for a in actual], dtype=bool)
        right = weigh(gets & has, weights)
        labelled_given = weigh(gets & known, weights)
        actual_c = weigh(has, weights)
        precision = right / labelled_given if labelled_given else None
        recall = right / actual_c if actual_c else None
        f1 = 2 * right / (labelled_given + actual_c) if labelled_given + actual_c else None
        classes.append({"class": _plain(c),
                        "rules": [i + 1 for i, r in enumerate(program.rules)
                                  if r.head is None and _is(r.label, c)],
                        "default": _is(c, program.target.default),
                        "given": int(gets.sum()), "labelled": labelled_given,
                        "actual": actual_c, "right": right,
                        "precision": precision, "recall": recall, "f1": f1})
    rules = [{"index": i + 1, "class": _plain(r.label), "head": r.head, **fig}
             for i, (r, fig) in enumerate(zip(program.rules,
                                              rule_decisions(program, decider, cov, known, hit,
                                                             weights)))]
    by_default = decider < 0
    return {"classes": classes, "rules": rules,
            "no_class": int(sum(g is None for g in given)),
            "by_default": int(by_default.sum()),
            "default_labelled": weigh(by_default & known, weights),
            "default_right": weigh(by_default & hit, weights)}


def scatter_svg(points: list[tuple[str, float, float, str]], title: str, width: int = 520,
                height: int = 340) -> str:
    """An SVG scatter plot: points (series, rules, F1, tooltip), x on a log scale."""
    left, right, top, bottom = 55, 130, 30, 45
    pw, ph = width - left - right, height - top - bottom
    xs = [p[1] for p in points if p[1] == p[1]]
    x_max = max([1.0] + xs) * 1.3
    lx = lambda v: left + pw * math.log10(1 + v) / math.log10(1 + x_max)   # noqa: E731
    ly = lambda v: top + ph * (1 - v)                                        # noqa: E731
    series = list(dict.fromkeys(p[0] for p in points))
    colour = {s: COLOURS[i % len(COLOURS)] for i, s in enumerate(series)}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{_e(title)}">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{left}" y="18" font-size="14" font-weight="bold">{_e(title)}</text>']
    for f in (0, .25, .5, .75, 1):
        y = ly(f)
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + pw}" y2="{y:.1f}" '
                     f'stroke="#ddd"/><text x="{left - 6}" y="{y + 4:.1f}" font-size="11" '
                     f'text-anchor="end">{f:.2f}</text>')
    ticks = [0] + [m * 10**k for k in range(7) for m in (1, 2, 5) if m * 10**k <= x_max]
    if len(ticks) > 9:                     # a wide range: powers of ten only
        ticks = [t for t in ticks if t == 0 or str(t).startswith("1")]
    for t in ticks:
        x = lx(t)
        parts.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + ph}" stroke="#eee"/>'
                     f'<text x="{x:.1f}" y="{top + ph + 15}" font-size="11" '
                     f'text-anchor="middle">{t}</text>')
    parts.append(f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" '
                 f'stroke="#444"/>')
    parts.append(f'<text x="{left + pw / 2}" y="{height - 8}" font-size="12" '
                 f'text-anchor="middle">rules (log scale)</text>')
    parts.append(f'<text x="14" y="{top + ph / 2}" font-size="12" text-anchor="middle" '
                 f'transform="rotate(-90 14 {top + ph / 2})">F1</text>')
    for s, x, y, tip in points:
        if x != x or y != y:
            continue
        parts.append(f'<circle cx="{lx(x):.1f}" cy="{ly(y):.1f}" r="5" fill="{colour[s]}" '
                     f'fill-opacity="0.8" stroke="#222" stroke-width="0.5">'
                     f'<title>{_e(tip)}</title></circle>')
    for k, s in enumerate(series):
        y = top + 10 + 18 * k
        parts.append(f'<circle cx="{left + pw + 15}" cy="{y}" r="5" fill="{colour[s]}"/>'
                     f'<text x="{left + pw + 25}" y="{y + 4}" font-size="12">{_e(s)}</text>')
    parts.append("</svg>")
    return "".join(parts)


# what aspml bench --out writes in its JSON: measure -> (lowest, highest, may be NaN)
BENCH_MEASURES = {"acc": (0, 1, False), "f1": (0, 1, False), "rules": (0, math.inf, False),
                  "literals": (0, math.inf, True), "train_s": (0, math.inf, False)}
# measures aspml bench writes since it reports the positive class's side (older files lack them)
BENCH_OPTIONAL = {"bal_acc": (0, 1, False), "precision": (0, 1, False), "recall": (0, 1, False)}
BENCH_SETTINGS = {"folds": int, "seed": int, "data_dir": str, "datasets": list,
                  "learners": list, "positive": dict,
                  # how the tables were read (--kind, --missing; older files lack them)
                  "kinds": dict, "missing": list}


def check_bench(bench) -> None:
    """Raise AspmlError unless ``bench`` is what ``aspml bench --out`` writes (its JSON):
    ``{"settings": {...}, "results": [{"data", "learner", "acc", "f1", "rules", "literals",
    "train_s", "folds": [...]}]}``, each measure a number in its range (literals may be
    NaN: the reference FOLD-R++'s program does not always parse).  The message names
    the first wrong place, as ``results[2].rules``."""
    from .errors import AspmlError
    if not isinstance(bench, dict) or set(bench) != {"settings", "results"}:
        raise AspmlError("expected an object with \"settings\" and \"results\" (and nothing "
                         "else)")
    settings = bench["settings"]
    if not isinstance(settings, dict):
        raise AspmlError("settings: expected an object")
    for key in ("folds", "seed"):
        if key not in settings:
            raise AspmlError(f"settings: no {key!r}")
    for key, value in settings.items():
        kind = BENCH_SETTINGS.get(key)
        if kind is None:
            raise AspmlError(f"settings: unknown key {key!r}")
        if not isinstance(value, kind) or isinstance(value, bool):
            raise AspmlError(f"settings.{key}: {value!r} is not {_a(kind)}")
    if settings["folds"] < 2:
        raise AspmlError(f"settings.folds: {settings['folds']} (cross-validation has 2 or more)")
    if not isinstance(bench["results"], list):
        raise AspmlError("results: expected a list")
    for i, r in enumerate(bench["results"]):
        where = f"results[{i}]"
        if not isinstance(r, dict):
            raise AspmlError(f"{where}: expected an object")
        need = {"data", "learner", *BENCH_MEASURES}
        if not need <= set(r) or not set(r) <= need | {"folds", *BENCH_OPTIONAL}:
            raise AspmlError(f"{where}: expected the keys {sorted(need)} (and \"folds\")")
        for key in ("data", "learner"):
            if not isinstance(r[key], str) or not r[key]:
                raise AspmlError(f"{where}.{key}: {r[key]!r} is not a name")
        _check_measures(r, where)
        folds = r.get("folds", [])
        if not isinstance(folds, list):
            raise AspmlError(f"{where}.folds: expected a list")
        for k, fold in enumerate(folds):
            if not isinstance(fold, dict) or not (set(BENCH_MEASURES) <= set(fold) <= {
                    *BENCH_MEASURES, *BENCH_OPTIONAL}):
                raise AspmlError(f"{where}.folds[{k}]: expected the keys {sorted(BENCH_MEASURES)}")
            _check_measures(fold, f"{where}.folds[{k}]")


def _check_measures(r: dict, where: str) -> None:
    from .errors import AspmlError
    for key, (lo, hi, nan) in {**BENCH_MEASURES, **BENCH_OPTIONAL}.items():
        if key not in r:
            continue                     # an optional measure (BENCH_MEASURES are checked above)
        v = r[key]
        ok = isinstance(v, (int, float)) and not isinstance(v, bool) and (
            (nan and math.isnan(v)) or lo <= v <= hi)
        if not ok:
            span = f"from {lo} to {hi}" if hi != math.inf else f">= {lo}"
            raise AspmlError(f"{where}.{key}: {v!r} is not a number {span}")


def _a(kind) -> str:
    return {int: "an integer", str: "a string", list: "a list", dict: "an object"}[kind]


def bench_section(bench: dict) -> str:
    check_bench(bench)
    results = [{**r, "f1": float(r["f1"]), "rules": float(r["rules"])} for r in bench["results"]]
    if not results:
        return "<h2>Learners compared</h2><p>The bench file holds no results.</p>"
    s = bench["settings"]
    html = ["<h2>Learners compared</h2>",
            f"<p class=muted>{_e(s.get('folds', '?'))}-fold stratified cross-validation, "
            f"seed {_e(s.get('seed', '?'))} (<code>aspml bench</code>). Each point is one "
            "dataset; hover for its name. F1 is the positive class's, or on a multi-class "
            "dataset the macro average over its classes.</p>"]
    points = [(r["learner"], r["rules"], r["f1"], f"{r['data']}: {r['learner']}, F1 "
               f"{r['f1']:.3f}, {r['rules']:.1f} rules") for r in results]
    html.append('<div class="plots">')
    html.append(scatter_svg(points, "F1 against rules, all datasets"))
    for data in dict.fromkeys(r["data"] for r in results):
        pts = [(r["learner"], r["rules"], r["f1"], f"{r['learner']}: F1 {r['f1']:.3f}, "
                f"{r['rules']:.1f} rules") for r in results if r["data"] == data]
        html.append(scatter_svg(pts, str(data), width=360, height=260))
    html.append("</div>")
    # the rare class's measures when the file has them (older bench files do not)
    optional = [k for k in BENCH_OPTIONAL if any(k in r for r in results)]
    columns = [("acc", "accuracy", 3), ("f1", "F1", 3),
               *[(k, {"bal_acc": "bal. acc."}.get(k, k), 3) for k in optional],
               ("rules", "rules", 1), ("literals", "literals", 1), ("train_s", "train s/fold", 4)]
    html.append("<table><tr><th>data</th><th>learner</th>"
                + "".join(f"<th class=n>{title}</th>" for _, title, _ in columns) + "</tr>")
    for r in results:
        html.append(f"<tr><td>{_e(r['data'])}</td><td>{_e(r['learner'])}</td>"
                    + "".join(f"<td class=n>{_num(r.get(k), d)}</td>" for k, _, d in columns)
                    + "</tr>")
    html.append("</table>")
    return "\n".join(html)


def _num(v, digits: int) -> str:
    try:
        return f"{float(v):.{digits}f}"
    except (TypeError, ValueError):
        return _e(v)



def _head(program: Program, X, model_name: str, data_name: str, target: str) -> list[str]:
    """The page up to its sections: title, the target (``target``, HTML), the program's
    size and learner, and its provenance."""
    title = f"aspml report: {model_name} on {data_name}"
    prov = dict(program.provenance)
    html = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{_e(title)}</title><style>{CSS}</style></head><body>",
            f"<h1>{_e(title)}</h1>",
            f"<p>Target {target}; {count(program.n_rules, 'rule')}, "
            f"{count(program.n_literals, 'literal')}; "
            f"{len(X)} rows" + (f"; learned by {_e(prov['learner'])}" if "learner" in prov
                                else "") + ".</p>"]
    if prov:
        html.append("<details><summary>Provenance</summary><table>"
                    + "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in prov.items())
                    + "</table></details>")
    return html

def render(program: Program, X: pd.DataFrame, labels: pd.Series | None, model_name: str,
           data_name: str, bench: dict | None = None, weights=None,
           weight_name: str | None = None) -> str:
    """The report page as one HTML string.  ``weights`` (one number a row, the column
    ``weight_name``): the figures of labelled rows weigh each row by it, as ``fit``'s
    ``sample_weight`` does."""
    t = program.target
    if weights is not None:
        weights = np.asarray(weights, dtype=float)
    if program.is_multiclass:
        return _page(program, X, model_name, data_name, bench,
                     multiclass_sections(program, X, labels, weights, weight_name))
    prediction = program.predict(X)
    if labels is not None:
        known, truth = truth_of(labels, t.positive, program.missing)
    else:
        known, truth = np.zeros(len(X), dtype=bool), np.zeros(len(X), dtype=bool)
    html = _head(program, X, model_name, data_name,
                 f"<code>{_e(text_head(program, _default_rule()))}</code>")
    if labels is not None and known.any() and (weights is None or weights[known].sum() > 0):
        b = binary_scores(prediction, truth, known, weights)
        tp, fp, fn, tn = (amount(b[k]) for k in ("tp", "fp", "fn", "tn"))
        if t.positive is None:
            pos, neg = _e(t.name), _e(f"not {t.name}")
        else:
            pos = _e(t.positive)
            neg = _e(t.negative if t.negative is not None else f"not {t.positive}")
        html += ["<h2>Confusion matrix</h2>",
                 f"<p>{int(known.sum())} labelled rows{_weighted(b['labelled'], weight_name)}. "
                 f"Accuracy {b['accuracy']:.3f}, precision {b['precision']:.3f}, recall "
                 f"{b['recall']:.3f}, F1 {b['f1']:.3f}.</p>",
                 '<table class="cm"><tr><th></th><th>predicted ' + pos + "</th><th>predicted "
                 + neg + "</th></tr>",
                 f"<tr><th>actual {pos}</th><td style='background:#d8f0d8'>{tp}</td>"
                 f"<td style='background:#f6dada'>{fn}</td></tr>",
                 f"<tr><th>actual {neg}</th><td style='background:#f6dada'>{fp}</td>"
                 f"<td style='background:#d8f0d8'>{tn}</td></tr></table>"]
    else:
        html.append("<p class=muted>The data has no label column for this target: no "
                    "precision and no confusion matrix (give one with --target).</p>")
    html += ["<h2>Rules: coverage and precision</h2>",
             "<p class=muted>A rule fires on a row when its whole body holds (its exceptions "
             "included). Default rules argue for the positive class, their exceptions for the "
             "negative one, exceptions of exceptions for the positive one again; precision is "
             "the share of the labelled rows a rule fires on that have the class it argues "
             "for.</p>",
             "<table><tr><th class=n>#</th><th>rule</th><th>argues for</th><th class=n>fires on"
             "</th><th class=n>precision</th></tr>"]
    for r in rule_rows(program, X, known, truth, weights=weights):
        prec = "–" if r["precision"] is None else share_text(r["right"], r["labelled"])
        mark = " <em>(expert rule)</em>" if r["index"] - 1 in program.expert else ""
        html.append(f"<tr><td class=n>{r['index']}</td><td>IF {_e(r['body'])} THEN "
                    f"{_e(r['head'])}{mark}</td><td>{r['argues']}</td><td class=n>{r['covers']}</td>"
                    f"<td class=n>{prec}</td></tr>")
    html.append("</table>")
    return _foot(program, html, bench)


def _weighted(total, weight_name) -> str:
    """`` of total weight 30.5 (column w), each figure below weighted``, or nothing when
    the rows are not weighted."""
    if weight_name is None:
        return ""
    return (f" of total weight {amount(total)} (column {_e(weight_name)}), every figure "
            "of labelled rows weighted by it")


def _page(program: Program, X, model_name: str, data_name: str, bench, sections) -> str:
    """The page around ``sections`` (a multi-class program's figures): title, target,
    provenance, then the sections, the program's text and ASP prints and the bench plots."""
    t = program.target
    classes = ", ".join(_e(text_value(c)) for c in t.classes)
    default = ("no default class" if t.default is None
               else f"default class <code>{_e(text_value(t.default))}</code>")
    html = _head(program, X, model_name, data_name,
                 f"<code>{_e(text_name(t.name))}</code> with the classes {classes}; {default}")
    return _foot(program, html + sections, bench)


def _foot(program: Program, html: list[str], bench) -> str:
    """The page ``html`` begins, finished: the program's text and ASP prints, the bench
    plots, the closing note."""
    html = html + ["<h2>The program</h2>", "<h3>As text</h3>", f"<pre>{_pre(program.to_text())}</pre>",
                   "<h3>As clingo reads it (ASP)</h3>", f"<pre>{_pre(program.to_asp())}</pre>"]
    if bench is not None:
        html.append(bench_section(bench))
    html.append("<p class=muted>Written by aspml; this page needs no network and no "
                "script.</p></body></html>")
    return "\n".join(html) + "\n"


def unknown_classes_note(said: str, n: int) -> str:
    """What labels of ``n`` classes the program does not know do to its figures
    (``said``: the classes, as the caller shows them)."""
    one = n == 1
    return (f"the labels hold {'a class' if one else 'classes'} the program does not know: "
            f"{said}; the program never gives {'it' if one else 'them'}, so each such row "
            f"counts as wrong and macro-F1 counts F1 0 for {'it' if one else 'each'}")


def multiclass_sections(program: Program, X: pd.DataFrame, labels, weights=None,
                        weight_name=None) -> list[str]:
    """The HTML of a multi-class program's figures: the confusion matrix for all classes
    with accuracy and macro-F1, each class's figures, each rule's coverage and precision
    (weighted by ``weights``, the column ``weight_name``, when given)."""
    html = []
    figures = class_figures(program, X, labels, weights)
    if labels is not None:
        cm = confusion(program, X, labels, weights)
    if labels is not None and cm["labelled"] and cm["accuracy"] is not None:
        html += ["<h2>Confusion matrix</h2>",
                 f"<p>{cm['labelled']} labelled rows{_weighted(cm['weight'], weight_name)}. "
                 f"Accuracy {cm['accuracy']:.3f}, "
                 f"macro-F1 {cm['macro_f1']:.3f}. Rows: the actual class; columns: the class "
                 "the program gives.</p>",
                 '<table class="cm"><tr><th></th>'
                 + "".join(f"<th>predicted {_e(_class_text(c))}</th>" for c in cm["predicted"])
                 + "</tr>"]
        top = max((max(r) for r in cm["matrix"]), default=0) or 1     # (weights may be < 1)
        for i, (actual, row) in enumerate(zip(cm["classes"], cm["matrix"])):
            cells = []
            for j, n in enumerate(row):
                same = i < len(program.classes) and j == i
                shade = (216, 240, 216) if same else (246, 218, 218)
                alpha = 0.25 + 0.75 * n / top if n else 0.0
                colour = "#fff" if not n else "#%02x%02x%02x" % tuple(
                    round(255 - (255 - v) * alpha) for v in shade)
                cells.append(f"<td style='background:{colour}'>{amount(n)}</td>")
            html.append(f"<tr><th>actual {_e(_class_text(actual))}</th>{''.join(cells)}</tr>")
        html.append("</table>")
    else:
        html.append("<p class=muted>The data has no label column for this target: no "
                    "precision and no confusion matrix (give one with --target).</p>")
    # given: rows; actual: rows, or their weight (a trial read 83 against 103 as one unit)
    actual = "actual" if weights is None else "actual (weight)"
    html += ["<h2>Classes</h2>", "<table><tr><th>class</th><th>rules</th><th class=n>given "
             f"(rows)</th><th class=n>{actual}</th><th class=n>precision</th>"
             "<th class=n>recall</th><th class=n>F1</th></tr>"]
    for c in figures["classes"]:
        rules = ", ".join(str(k) for k in c["rules"]) or "–"
        if c["default"]:
            rules += " (default class)"
        html.append(f"<tr><td>{_e(_class_text(c['class']))}</td><td>{rules}</td>"
                    f"<td class=n>{c['given']}</td><td class=n>{amount(c['actual'])}</td>"
                    + "".join(f"<td class=n>{_ratio(c[k])}</td>" for k in ("precision", "recall",
                                                                           "f1"))
                    + "</tr>")
    # a class of the labels the program does not know: every row of it is wrong, and
    # macro-F1 counts it at 0 (the table named only the program's classes)
    unknown = [] if labels is None or not cm["labelled"] else \
        list(zip(cm["classes"][len(program.classes):], cm["matrix"][len(program.classes):]))
    for c, row in unknown:
        html.append(f"<tr><td>{_e(_class_text(c))}</td><td>– (not a class of the program)"
                    f"</td><td class=n>0</td><td class=n>{amount(sum(row))}</td>"
                    "<td class=n>–</td><td class=n>0.000</td><td class=n>0.000</td></tr>")
    html.append("</table>")
    if unknown:
        said = ", ".join(_e(_class_text(c)) for c, _ in unknown)
        text = unknown_classes_note(said, len(unknown))
        html.append(f"<p>{text[0].upper()}{text[1:]}.</p>")
    if figures["no_class"]:
        html.append(f"<p>{figures['no_class']} rows get no class (no rule covers them and the "
                    "program has no default class).</p>")
    html += ["<h2>Rules: coverage and precision</h2>",
             "<p class=muted>The default rules form a decision list: a row gets the class of "
             "the first rule that fires on it. A rule <em>covers</em> the rows its whole body "
             "holds on (its exceptions included) and <em>decides</em> those where it is the "
             "first; precision is the share of the labelled rows it decides that have its "
             "class.</p>",
             "<table><tr><th class=n>#</th><th>rule</th><th class=n>covers</th>"
             "<th class=n>decides</th><th class=n>precision</th></tr>"]
    for r, rule in zip(figures["rules"], program.rules):
        from .explain import _cond
        prec = "–" if r["precision"] is None else share_text(r["right"], r["labelled"])
        decides = r["decides"] if rule.head is None else "–"
        mark = " <em>(expert rule)</em>" if r["index"] - 1 in program.expert else ""
        html.append(f"<tr><td class=n>{r['index']}</td><td>IF {_e(_cond(rule))} THEN "
                    f"{_e(text_head(program, rule))}{mark}</td><td class=n>{r['covers']}</td>"
                    f"<td class=n>{decides}</td><td class=n>{prec}</td></tr>")
    if program.target.default is not None:          # the rows no rule decides
        right, labelled = figures["default_right"], figures["default_labelled"]
        prec = share_text(right, labelled) if labelled else "–"
        html.append(f"<tr><td class=n></td><td>ELSE {_e(program.target.name)} = "
                    f"{_e(text_value(program.target.default))} <em>(default class)</em></td>"
                    f"<td class=n>–</td><td class=n>{figures['by_default']}</td>"
                    f"<td class=n>{prec}</td></tr>")
    html.append("</table>")
    return html


def _class_text(c) -> str:
    return "(no class)" if c is None else text_value(c)


def _ratio(v) -> str:
    return "–" if v is None else f"{v:.3f}"


def _default_rule():
    from .logic.model import Rule
    return Rule(None, ())
