"""Pictures of a descriptive model: one self-contained HTML page with inline SVG.

* The **table view** (the paper's Figs. 2-3): a row per rule, a column per
  feature; each condition is a bar placed within the feature's range (a value
  set is a row of squares, one per value); then the rule's glyph and columns
  for coherence, fidelity, covered rules (correct / wrong), the originals it
  stands for and the depth of its hierarchy.  Under each union a collapsible
  ``<details>`` lists the rules it was derived from, down to the originals
  (drill-down without script).
* The **glyph view** (§4, Figs. 5-8): a glyph per rule with a vertical axis per
  feature and a bar for each condition; the frame's colour is the prediction,
  CC is written above the glyph and fidelity below.

No scripts, fonts, images or style sheets are fetched: the page opens offline.
"""

from __future__ import annotations

from .._html import e as escape

from .._words import count
from ..logic.model import InSet
from .rules import format_prediction

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf"]
CELL_W, CELL_H = 60, 14

CSS = """
body{font:13px/1.35 system-ui,-apple-system,"Segoe UI",sans-serif;margin:16px;color:#222;background:#fff}
h1{font-size:18px;margin:0 0 4px} h2{font-size:15px;margin:18px 0 6px}
p.meta{color:#555;margin:0 0 10px}
table.rules{border-collapse:collapse} table.rules th,table.rules td{border:1px solid #ddd;padding:2px 4px}
table.rules th{background:#f3f3f3;font-weight:600;font-size:11px;vertical-align:bottom}
th.feat{writing-mode:vertical-rl;transform:rotate(180deg);max-height:130px;white-space:nowrap}
td.num{text-align:right;font-variant-numeric:tabular-nums}
td.pred{font-weight:600;white-space:nowrap} tr.union td.id{font-weight:600}
td.sub{background:#fafafa;padding:4px 8px 6px 24px} details summary{cursor:pointer;color:#333}
tr.exception td{background:#fff1f0}
div.glyphs{display:flex;flex-wrap:wrap;gap:10px}
div.scroll{overflow-x:auto;max-width:100%}
table.rules td.id{position:sticky;left:0;background:#fff;z-index:1}
tr.exception td.id{background:#fff1f0}
div.glyph{text-align:center;font-size:11px} svg{display:block}
"""


def _color(model, prediction) -> str:
    if model.task == "classification":
        classes = model.classes()
        i = classes.index(prediction) if prediction in classes else 0
        return PALETTE[i % len(PALETTE)]
    lo, hi = _pred_span(model)
    mid = (sum(prediction) / 2) if isinstance(prediction, tuple) else float(prediction)
    t = 0.5 if hi <= lo else (mid - lo) / (hi - lo)
    r, g, b = int(40 + 200 * t), int(80 + 60 * (1 - abs(2 * t - 1))), int(230 - 200 * t)
    return f"#{r:02x}{g:02x}{b:02x}"


def _pred_span(model):
    vals = []
    for r in model.original:
        p = r.prediction
        vals += list(p) if isinstance(p, tuple) else [float(p)]
    return min(vals), max(vals)


def _frac(model, feature, v, default):
    if v is None:
        return default
    vmin, vmax = model.ranges[feature]
    if vmax <= vmin:
        return 0.5
    return min(max((v - vmin) / (vmax - vmin), 0.0), 1.0)


def _cond_title(c) -> str:
    from ..logic.printers import text_literal
    from .rules import _printable
    return text_literal(_printable(c))


def _cell_width(features) -> int:
    """Narrower condition bars when there are many features (60 px for up to 11)."""
    return int(max(24, min(CELL_W, 660 // max(1, len(features)))))


def _cell(model, feature, cond, w=CELL_W) -> str:
    """One table cell: the condition's bar within the feature's range (empty when absent)."""
    if cond is None:
        return "<td></td>"
    title = escape(_cond_title(cond))
    h = CELL_H
    parts = [f'<svg width="{w}" height="{h}" role="img"><title>{title}</title>',
             f'<rect x="0" y="{h // 2 - 1}" width="{w}" height="2" fill="#ccc"/>']
    if isinstance(cond, InSet):
        dom = model.domains.get(feature, [])
        n = max(len(dom), 1)
        step = w / n
        for i, v in enumerate(dom):
            fill = "#333" if v in cond.members else "#fff"
            parts.append(f'<rect x="{i * step + 1:.1f}" y="3" width="{max(step - 2, 1):.1f}" '
                         f'height="{h - 6}" fill="{fill}" stroke="#333" stroke-width="0.6"/>')
    else:
        a = _frac(model, feature, cond.lo, 0.0) * w
        b = _frac(model, feature, cond.hi, 1.0) * w
        parts.append(f'<rect x="{a:.1f}" y="3" width="{max(b - a, 2):.1f}" height="{h - 6}" '
                     f'fill="#4a90d9"/>')
    parts.append("</svg>")
    return f'<td title="{title}">{"".join(parts)}</td>'


def glyph(model, rule, features, width=None, height=60, label=None, frame=True) -> str:
    """§4: a vertical axis per feature, a bar per condition, a frame in the prediction's colour."""
    n = max(len(features), 1)
    step = 9
    width = width or max(n * step + 8, 36)
    color = _color(model, rule.prediction)
    out = [f'<svg width="{width}" height="{height}" role="img">',
           f'<title>{escape(label or "")}</title>']
    if frame:
        out.append(f'<rect x="0.5" y="0.5" width="{width - 1}" height="{height - 1}" fill="#fff" '
                   f'stroke="{color}" stroke-width="2"/>')
    top, bottom = 4, height - 4
    span = bottom - top
    for i, f in enumerate(features):
        x = 4 + i * step + step / 2
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{bottom}" stroke="#bbb" stroke-width="1"/>')
        c = rule.condition(f) if hasattr(rule, "condition") else None
        if c is None:
            continue
        if isinstance(c, InSet):
            dom = model.domains.get(f, [])
            k = max(len(dom), 1)
            for j, v in enumerate(dom):
                if v in c.members:
                    y = bottom - (j + 1) * span / k
                    out.append(f'<rect x="{x - 3:.1f}" y="{y:.1f}" width="6" height="{span / k:.1f}" '
                               f'fill="#333"/>')
        else:
            y1 = bottom - _frac(model, f, c.hi, 1.0) * span
            y2 = bottom - _frac(model, f, c.lo, 0.0) * span
            out.append(f'<rect x="{x - 3:.1f}" y="{y1:.1f}" width="6" height="{max(y2 - y1, 2):.1f}" '
                       f'fill="#333"/>')
    out.append("</svg>")
    return "".join(out)


def _fmt(v, digits=2) -> str:
    return "" if v is None else f"{v:.{digits}f}"


def _row(model, r, features, cls="", original=False, wrong=False) -> str:
    tag = f"U{r.id}" if getattr(r, "is_union", False) else f"R{r.id}"
    cells = [f'<td class="id">{tag}</td>',
             f'<td class="pred" style="color:{_color(model, r.prediction)}">'
             f'{escape(format_prediction(r.prediction))}</td>']
    w = _cell_width(features)
    cells += [_cell(model, f, r.rule.condition(f), w) for f in features]
    cells.append(f"<td>{glyph(model, r.rule, model.features, height=34, label=model.rule_text(r))}</td>")
    cells.append(f'<td class="num">{_fmt(r.cc)}</td><td class="num">{_fmt(r.fidelity)}</td>')
    cells.append(f'<td class="num">{len(r.covered)} / {len(r.exceptions)}</td>')
    cells.append(f'<td class="num">{len(r.members)}</td><td class="num">{r.depth}</td>')
    klass = " ".join(c for c in (cls, "union" if r.is_union else "", "exception" if wrong else "") if c)
    return f'<tr class="{klass}">' + "".join(cells) + "</tr>"


def _header(features) -> str:
    cols = ['<th>rule</th>', '<th>prediction</th>']
    cols += [f'<th class="feat">{escape(f)}</th>' for f in features]
    cols += ['<th>glyph</th>', '<th>CC</th>', '<th>fidelity</th>', '<th>covered<br>ok / wrong</th>',
             '<th>originals</th>', '<th>depth</th>']
    return "<tr>" + "".join(cols) + "</tr>"


def _drill(model, r, features, ncols, level=0) -> str:
    """The rules a union was derived from, and its exceptions, in a nested table."""
    if not r.is_union or level > 12:
        return ""
    shown = [model.node(c) for c in r.children] + [model.node(e) for e in r.exceptions]
    used = {c.feature for x in shown + [r] for c in x.conditions}
    features = [f for f in model.features if f in used]
    ncols = len(features) + 8
    inner = [f'<table class="rules">{_header(features)}']
    for c in r.children:
        child = model.node(c)
        inner.append(_row(model, child, features))
        sub = _drill(model, child, features, ncols, level + 1)
        if sub:
            inner.append(sub)
    for e in r.exceptions:
        inner.append(_row(model, model.node(e), features, wrong=True))
    inner.append("</table>")
    n_ex = len(r.exceptions)
    summary = (f"U{r.id}: united from {count(len(r.children), 'rule')}, stands for "
               f"{count(len(r.members), 'original')}"
               + (f", {n_ex} exception{'s' if n_ex != 1 else ''} (shaded)" if n_ex else ""))
    return (f'<tr><td class="sub" colspan="{ncols}"><details><summary>{escape(summary)}'
            f'</summary>{"".join(inner)}</details></td></tr>')


def _order_key(model, classes, p):
    if model.task == "classification":
        return classes.index(p) if p in classes else len(classes)
    return sum(p) / 2 if isinstance(p, tuple) else float(p)


def render_html(model, title: str | None = None) -> str:
    """The descriptive model as one self-contained page: the table view, then the glyph view."""
    title, body = _views(model, title)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>{CSS}</style></head><body>"
            f"{body}</body></html>\n")


def render_fragment(model, title: str | None = None) -> str:
    """The page's views as one ``<div>`` for a notebook cell (``_repr_html_``): the same
    table and glyph views, the style sheet scoped to the ``<div>``."""
    from .._html import scope_css
    _, body = _views(model, title)
    return (f'<div class="aspml-descriptive"><style>{scope_css(CSS, ".aspml-descriptive")}'
            f"</style>{body}</div>")


def _views(model, title) -> tuple[str, str]:
    use = {}
    for r in model.rules:
        for c in r.conditions:
            use[c.feature] = use.get(c.feature, 0) + 1
    features = sorted(use, key=lambda f: (-use[f], model.features.index(f)))
    s = model.stats()
    title = title or f"Descriptive model: {count(s['rules'], 'rule')} from {len(model.original)}"
    ncols = len(features) + 8
    fid = "" if s["fidelity"] is None else f", fidelity {s['fidelity']:.3f}"
    meta = (f"{count(len(model.original), 'original rule')} &rarr; {count(s['rules'], 'rule')}, "
            f"{count(s['conditions'], 'condition')}, {count(s['union_rules'], 'union rule')} "
            f"({count(s['unions'], 'union')} made), minimal CC "
            f"{s['min_cc']:.2f}{fid}; &rho; = {model.rho:g}"
            + (f", &epsilon; = {model.epsilon:g}" if model.task == "regression" else ""))
    rows = [_header(features)]
    classes = model.classes()
    ordered = sorted(model.rules, key=lambda r: (_order_key(model, classes, r.prediction),
                                                 -len(r.members), r.id))
    for r in ordered:
        rows.append(_row(model, r, features))
        rows.append(_drill(model, r, features, ncols))
    glyphs = []
    for r in ordered:
        tag = f"U{r.id}" if r.is_union else f"R{r.id}"
        cc = f"CC {r.cc:.2f}"
        fd = "" if r.fidelity is None else f"fid. {r.fidelity:.2f}"
        glyphs.append(f'<div class="glyph"><div>{tag} &middot; {cc}</div>'
                      f'{glyph(model, r.rule, model.features, height=70, label=model.rule_text(r))}'
                      f'<div>{escape(format_prediction(r.prediction))} {fd}</div></div>')
    legend = ""
    if model.task == "classification":
        classes = model.classes()
        legend = " ".join(f'<span style="color:{_color(model, c)}">&#9632; {escape(format_prediction(c))}'
                          f'</span>' for c in classes)
    return title, (
            f"<h1>{escape(title)}</h1><p class=\"meta\">{meta}</p><p class=\"meta\">{legend}</p>"
            f"<h2>Table view</h2><div class=\"scroll\"><table class=\"rules\">{''.join(rows)}"
            f"</table></div>"
            f"<h2>Glyph view</h2><p class=\"meta\">axes, left to right: "
            f"{escape(', '.join(model.features))}</p>"
            f"<div class=\"glyphs\">{''.join(glyphs)}</div>")


def write_html(model, path, title=None) -> None:
    from ..errors import AspmlError
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(render_html(model, title))
    except OSError as e:
        raise AspmlError(f"cannot write {path}: {e.strerror or e}") from None

