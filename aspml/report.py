"""``aspml report``: one self-contained HTML page about a program on a table.

The page holds the rules (as text and as clingo input), each rule's coverage
and precision on the table, the confusion matrix and scores, and, given the
results of ``aspml bench`` (its JSON), plots of F1 against the number of rules
per learner.  Plots are inline SVG; there is no script, no external file and
no network access.  Every string that comes from the user (file names,
feature names, values, labels, learner names) goes through ``html.escape``.
"""

from __future__ import annotations

import math
from html import escape

import numpy as np
import pandas as pd

from .evaluate import evaluate
from .logic.model import Program
from .logic.names import visible
from .logic.printers import text_head, text_literal

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


def _e(value) -> str:
    """HTML-escaped text with invisible characters (zero-width, bidi, controls) shown as
    ``\\u200b``: "ro\\u200bme" must not look like "rome" in the report."""
    return escape(visible(str(value)), quote=True)


def _pre(text: str) -> str:
    """A multi-line text for <pre>: each line as _e shows it, the line breaks kept."""
    return "\n".join(_e(line) for line in text.split("\n"))


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
    if isinstance(positive, (int, float)) and not isinstance(positive, bool):
        hit |= pd.to_numeric(text, errors="coerce") == positive
    return known.to_numpy(), hit.to_numpy()


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


def rule_rows(program: Program, X: pd.DataFrame, known, positive_truth) -> list[dict]:
    """Per rule: rows where it fires, and how many of them have the class it argues for."""
    _, cov, _ = evaluate(program, X)
    out = []
    for i, (rule, depth) in enumerate(zip(program.rules, _depths(program))):
        fires = cov[:, i]
        argues_positive = depth % 2 == 0
        n = int(fires.sum())
        labelled = fires & known
        right = int(np.sum(labelled & (positive_truth == argues_positive)))
        out.append({"index": i + 1, "head": text_head(program, rule),
                    "body": " AND ".join(text_literal(lit) for lit in rule.body) or "TRUE",
                    "depth": depth, "argues": "positive" if argues_positive else "negative",
                    "covers": n, "labelled": int(labelled.sum()), "right": right,
                    "precision": right / labelled.sum() if labelled.any() else None})
    return out


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
                  "learners": list, "positive": dict}


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
            "dataset; hover for its name.</p>"]
    points = [(r["learner"], r["rules"], r["f1"], f"{r['data']}: {r['learner']}, F1 "
               f"{r['f1']:.3f}, {r['rules']:.1f} rules") for r in results]
    html.append('<div class="plots">')
    html.append(scatter_svg(points, "F1 against rules, all datasets"))
    for data in dict.fromkeys(r["data"] for r in results):
        pts = [(r["learner"], r["rules"], r["f1"], f"{r['learner']}: F1 {r['f1']:.3f}, "
                f"{r['rules']:.1f} rules") for r in results if r["data"] == data]
        html.append(scatter_svg(pts, str(data), width=360, height=260))
    html.append("</div>")
    html.append("<table><tr><th>data</th><th>learner</th><th class=n>accuracy</th>"
                "<th class=n>F1</th><th class=n>rules</th><th class=n>literals</th>"
                "<th class=n>train s/fold</th></tr>")
    for r in results:
        html.append(f"<tr><td>{_e(r['data'])}</td><td>{_e(r['learner'])}</td>"
                    + "".join(f"<td class=n>{_num(r.get(k), d)}</td>" for k, d in
                              (("acc", 3), ("f1", 3), ("rules", 1), ("literals", 1),
                               ("train_s", 4)))
                    + "</tr>")
    html.append("</table>")
    return "\n".join(html)


def _num(v, digits: int) -> str:
    try:
        return f"{float(v):.{digits}f}"
    except (TypeError, ValueError):
        return _e(v)


def render(program: Program, X: pd.DataFrame, labels: pd.Series | None, model_name: str,
           data_name: str, bench: dict | None = None) -> str:
    """The report page as one HTML string."""
    t = program.target
    prediction = program.predict(X)
    if labels is not None:
        known, truth = truth_of(labels, t.positive, program.missing)
    else:
        known, truth = np.zeros(len(X), dtype=bool), np.zeros(len(X), dtype=bool)
    title = f"aspml report: {model_name} on {data_name}"
    prov = dict(program.provenance)
    html = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{_e(title)}</title><style>{CSS}</style></head><body>",
            f"<h1>{_e(title)}</h1>",
            f"<p>Target <code>{_e(text_head(program, _default_rule()))}</code>; "
            f"{program.n_rules} rules, {program.n_literals} literals; {len(X)} rows"
            + (f"; learned by {_e(prov['learner'])}" if "learner" in prov else "") + ".</p>"]
    if prov:
        html.append("<details><summary>Provenance</summary><table>"
                    + "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in prov.items())
                    + "</table></details>")
    if labels is not None and known.any():
        p, y = prediction[known], truth[known]
        tp, fp = int(np.sum(p & y)), int(np.sum(p & ~y))
        fn, tn = int(np.sum(~p & y)), int(np.sum(~p & ~y))
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
        if t.positive is None:
            pos, neg = _e(t.name), _e(f"not {t.name}")
        else:
            pos = _e(t.positive)
            neg = _e(t.negative if t.negative is not None else f"not {t.positive}")
        html += ["<h2>Confusion matrix</h2>",
                 f"<p>{int(known.sum())} labelled rows. Accuracy {(tp + tn) / known.sum():.3f}, "
                 f"precision {precision:.3f}, recall {recall:.3f}, F1 {f1:.3f}.</p>",
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
    for r in rule_rows(program, X, known, truth):
        prec = "–" if r["precision"] is None else f"{r['precision']:.3f} ({r['right']}/{r['labelled']})"
        mark = " <em>(expert rule)</em>" if r["index"] - 1 in program.expert else ""
        html.append(f"<tr><td class=n>{r['index']}</td><td>IF {_e(r['body'])} THEN "
                    f"{_e(r['head'])}{mark}</td><td>{r['argues']}</td><td class=n>{r['covers']}</td>"
                    f"<td class=n>{prec}</td></tr>")
    html.append("</table>")
    html += ["<h2>The program</h2>", "<h3>As text</h3>", f"<pre>{_pre(program.to_text())}</pre>",
             "<h3>As clingo reads it (ASP)</h3>", f"<pre>{_pre(program.to_asp())}</pre>"]
    if bench is not None:
        html.append(bench_section(bench))
    html.append("<p class=muted>Written by aspml; this page needs no network and no "
                "script.</p></body></html>")
    return "\n".join(html) + "\n"


def _default_rule():
    from .logic.model import Rule
    return Rule(None, ())
