"""Rich views for Jupyter: the HTML that ``_repr_html_`` shows for a program, an
explanation, a counterfactual and a fitted learner.

* :func:`program_html`: the rules with their syntax coloured, each exception
  rule indented under the rules that use it (``NOT ab1``), the background
  knowledge, and, given data (or by a fitted learner: its training rows), each
  rule's coverage and precision, the figures ``aspml report`` gives.
* :func:`explanation_html`: a collapsible justification tree
  (``<details>``/``<summary>``): which rule fired, each literal with the row's
  value and whether it holds, each exception and why it did or did not hold; a
  multi-class explanation answers "why class c" or "why not class d".
* :func:`counterfactual_html`: the changes, and the rule that then fires.

Each view is one ``<div>`` with its own style sheet scoped under the view's
class, no script and nothing fetched; every user string is escaped by
:func:`aspml._html.e`.  The plain ``repr`` of each object is unchanged.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._html import SYNTAX_CSS, body_html, e, literal_html, scope_css, span
from .logic.model import NotAtom, Program, Rule
from .logic.names import text_name
from .logic.printers import EXPERT_TEXT, text_head, text_value

ROOT = "aspml-view"

CSS = scope_css(SYNTAX_CSS + """
body { font: 13px/1.45 system-ui, sans-serif; color: #222; }
p.meta { color: #555; margin: .2em 0 .5em; }
ol.rules, ul.exceptions, ul.checks, ul.background { margin: .15em 0; padding-left: 1.6em; }
ol.rules { list-style: none; padding-left: .4em; }
ul.exceptions { border-left: 2px solid #f0c8a0; list-style: none; padding-left: 1.1em; }
li.rule { margin: .15em 0; }
code, .rule-text { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12.5px; }
.fig { color: #555; font-size: 12px; margin-left: .6em; font-family: system-ui, sans-serif; }
.num { color: #888; }
.else { margin: .2em 0 0 .4em; }
.note { color: #777; font-style: italic; }
details { margin: .1em 0; }
summary { cursor: pointer; }
li.check { list-style: none; margin: .1em 0; }
.yes { color: #1a7f37; font-weight: 700; }
.no { color: #c62828; font-weight: 700; }
.first-fail { border-left: 3px solid #c62828; padding-left: .3em; }
.words { color: #333; margin-left: .4em; font-family: system-ui, sans-serif; }
.row-value { color: #444; background: #f3f3f3; padding: 0 .3em; border-radius: 3px; }
.verdict { font-weight: 600; margin: .2em 0 .4em; }
h4 { margin: .6em 0 .2em; font-size: 13px; }
table { border-collapse: collapse; margin: .3em 0; }
th, td { border: 1px solid #ccc; padding: .15em .5em; text-align: left; }
""", f".{ROOT}")


def _head(program: Program, rule: Rule) -> str:
    """A rule's head coloured: an exception's name, or the target (and class) it concludes."""
    if rule.head is not None:
        return span("ab", rule.head)
    return span("hd", text_head(program, rule))


def _open(kind: str) -> str:
    return f'<div class="{ROOT} {kind}"><style>{CSS}</style>'


# ---------------------------------------------------------------------------
# per-rule figures
# ---------------------------------------------------------------------------

def rule_figures(program: Program, X, y=None) -> list[dict]:
    """Each rule's figures on ``X`` (labels ``y``, or None: coverage only), in the order of
    ``program.rules``: ``covers`` (rows its body holds on, its exceptions included),
    ``labelled``, ``right`` and ``precision`` as ``aspml report`` counts them.

    Binary program: a default rule argues for the positive class, its exceptions
    for the negative one, and so on down; precision is the share of the labelled
    rows a rule fires on that have the class it argues for.  Multi-class: a default
    rule also has ``decides`` (the rows it is the first rule to fire on), and its
    precision is the share of the labelled rows it decides that have its class; an
    exception rule has coverage only."""
    from .logic.values import as_label
    from .report import _is, class_of_labels, truth_of
    n = len(X)
    if program.is_multiclass:
        if y is None:
            known, actual = np.zeros(n, dtype=bool), np.full(n, -1)
        else:
            known, cls = class_of_labels(program, y)
            actual = np.array([next((k for k, c in enumerate(program.classes) if _is(v, c)), -1)
                               for v in cls], dtype=np.int64)
        return _figures(program, X, known, actual)
    if y is None:
        known, truth = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
    else:
        # labels read as text ("yes", "1") or as fit takes them (True, 1, in a list or an
        # array; the program's label is fit's as_label of the class): either reading
        # saying positive is enough
        labels = pd.Series(np.asarray(y, dtype=object))
        known, truth = truth_of(labels, program.target.positive, program.missing)
        positive = program.target.positive
        truth = truth | np.array([k and _is(as_label(v), positive)
                                  for k, v in zip(known, labels)], dtype=bool)
    return _figures(program, X, known, truth)


def _figures(program: Program, X, known: np.ndarray, actual: np.ndarray,
             cov=None) -> list[dict]:
    """:func:`rule_figures` from arrays: ``known`` (labelled rows) and ``actual`` (binary:
    is the row positive; multi-class: the index of its class in ``program.classes``);
    ``cov``: the program's rows x rules coverage of ``X`` when the caller has it."""
    from .report import _decisions, _is, rule_decisions, rule_rows
    if not program.is_multiclass:
        return [{**{k: r[k] for k in ("covers", "labelled", "right", "argues")},
                 "precision": None if r["precision"] is None else float(r["precision"])}
                for r in rule_rows(program, X, known, actual, cov)]
    _, decider, cov = _decisions(program, X, cov)
    # the index of the class each row is given (-1: no rule decides it)
    class_of = np.full(len(program.rules) + 1, -1)
    for i, rule in enumerate(program.rules):
        if rule.head is None:
            class_of[i] = next(j for j, c in enumerate(program.classes) if _is(c, rule.label))
    given = class_of[decider]                  # (decider -1 reads the last slot: -1)
    hit = known & (given >= 0) & (actual == given)
    out = []
    for rule, fig in zip(program.rules, rule_decisions(program, decider, cov, known, hit)):
        if rule.head is not None:               # an exception decides no row
            out.append({"covers": fig["covers"]})
            continue
        precision = fig["precision"]
        out.append({**fig, "precision": None if precision is None else float(precision),
                    "argues": rule.label})
    return out


def _figure_text(fig: dict | None) -> str:
    if fig is None:
        return ""
    parts = [f"fires on {fig['covers']}"]
    if "decides" in fig:
        parts.append(f"decides {fig['decides']}")
    if fig.get("precision") is not None:
        parts.append(f"precision {fig['precision']:.3f} ({fig['right']}/{fig['labelled']})")
    return f'<span class="fig">{" · ".join(parts)}</span>'


# ---------------------------------------------------------------------------
# a program
# ---------------------------------------------------------------------------

def program_html(program: Program, X=None, y=None, figures=None, note: str = "") -> str:
    """The program as HTML: the rules coloured, each exception rule under the rules that
    use it; with data ``X`` (and labels ``y``) or ready ``figures`` (one dict per rule,
    :func:`rule_figures`), each rule's coverage and precision on it.  ``note``: a line
    (already HTML) said under the heading."""
    if figures is None and X is not None:
        figures = rule_figures(program, X, y)
    return _ProgramView(program, figures).html(note)


class _ProgramView:
    def __init__(self, program: Program, figures) -> None:
        self.p = program
        self.fig = figures
        self.by_head: dict = {}
        for i, r in enumerate(program.rules):
            self.by_head.setdefault(r.head, []).append(i)

    def rule(self, i: int, path: tuple, word: str = "IF") -> str:
        """Rule ``i`` as a list item, the rules of its exceptions nested under it."""
        r = self.p.rules[i]
        expert = f' <span class="note">{e(EXPERT_TEXT.strip())}</span>' if i in self.p.expert else ""
        fig = _figure_text(self.fig[i] if self.fig is not None else None)
        kind = "default" if r.head is None else "exception"
        out = [f'<li class="rule {kind}" data-rule="{i + 1}"><span class="rule-text">'
               f'<span class="num">{i + 1}.</span> {span("kw", word)} {body_html(r.body)} '
               f'{span("kw", "THEN")} {_head(self.p, r)}</span>{expert}{fig}']
        inner = []
        for name in r.exceptions:
            if name in path:                # not stratified: never printed twice round
                continue
            users = self.by_head.get(name, [])
            if not users:
                inner.append(f'<li class="undefined">{span("kw", "NOT")} {span("ab", name)}'
                             f'<span class="note"> no rule defines {e(name)}: it never holds'
                             "</span></li>")
            for j in users:
                inner.append(self.rule(j, path + (name,)))
        if inner:
            out.append('<ul class="exceptions">' + "".join(inner) + "</ul>")
        out.append("</li>")
        return "".join(out)

    def html(self, note: str = "") -> str:
        p, t = self.p, self.p.target
        prov = p.provenance_dict
        if p.is_multiclass:
            what = (f"{span('hd', text_name(t.name))} with the classes "
                    + ", ".join(span("va", text_value(c)) for c in t.classes))
        else:
            what = span("hd", text_head(p, Rule(None, ())))
        learned = f"; learned by {e(prov['learner'])}" if "learner" in prov else ""
        out = [_open("aspml-program"),
               f'<p class="meta">{what}: {p.n_rules} rule{"s" * (p.n_rules != 1)}, '
               f'{p.n_literals} literal{"s" * (p.n_literals != 1)}{learned}.'
               + (f" {note}" if note else "") + "</p>",
               '<ol class="rules">']
        first = True
        for i in self.by_head.get(None, []):
            word = "IF" if first or not p.is_multiclass else "ELSE IF"
            out.append(self.rule(i, (), word))
            first = False
        out.append("</ol>")
        out.append(f'<div class="else rule-text">{self._else()}</div>')
        used = {n for r in p.rules for n in r.exceptions}
        orphans = [i for i, r in enumerate(p.rules) if r.head is not None and r.head not in used]
        if orphans:
            out.append('<p class="meta">Exception rules no rule uses:</p><ol class="rules">'
                       + "".join(self.rule(i, ()) for i in orphans) + "</ol>")
        if p.background:
            out.append('<p class="meta">Background knowledge:</p><ul class="background">'
                       + "".join(f'<li class="rule-text">{span("kw", "WHERE")} '
                                 f'{span("ft", text_name(r.head))} {span("kw", "IF")} '
                                 f"{body_html(r.body)}</li>" for r in p.background) + "</ul>")
        out.append("</div>")
        return "".join(out)

    def _else(self) -> str:
        t = self.p.target
        name = text_name(t.name)
        if self.p.is_multiclass:
            if t.default is None:
                return span("kw", "ELSE") + " " + span("note", "no class")
            return (span("kw", "ELSE") + " " + span("hd", f"{name} = {text_value(t.default)}")
                    + '<span class="note"> (the default class)</span>')
        if t.negative is not None:
            return span("kw", "ELSE") + " " + span("hd", f"{name} = {text_value(t.negative)}")
        if t.positive is not None:
            return span("kw", "ELSE") + " " + span("hd", f"{name} != {text_value(t.positive)}")
        return span("kw", "ELSE") + " " + span("kw", "NOT") + " " + span("hd", name)


# ---------------------------------------------------------------------------
# an explanation
# ---------------------------------------------------------------------------

def explanation_html(explanation) -> str:
    """A justification tree: the verdict, then each rule that decides it as a
    ``<details>`` block holding each literal with the row's value and whether it holds,
    and each exception's rules nested under its ``NOT abK``."""
    return _ExplanationView(explanation).html()


def _mark(holds: bool) -> str:
    return '<span class="yes">✓</span>' if holds else '<span class="no">✗</span>'


def _value_text(value) -> str:
    from .explain import _show
    return _show(value)


class _ExplanationView:
    def __init__(self, explanation) -> None:
        self.x = explanation
        self.p = explanation.program

    def rule(self, r, opened: bool, extra: str = "") -> str:
        """One RuleCheck: ``rule k fires`` or ``does not fire``, its literals inside."""
        from .explain import _rule_name
        verb = "fires" if r.fires else "does not fire"
        failing = r.failing
        items = [self.check(c, c is failing) for c in r.checks] or \
            ['<li class="check"><span class="note">an empty body: the rule always fires</span></li>']
        return (f'<details class="rule {"fires" if r.fires else "fails"}" data-rule="{r.index + 1}"'
                f'{" open" if opened else ""}><summary>{_mark(r.fires)} '
                f"<b>{e(_rule_name(self.p, r))} {verb}</b>: <span class=\"rule-text\">"
                f'{span("kw", "IF")} {body_html(r.rule.body)} {span("kw", "THEN")} '
                f"{_head(self.p, r.rule)}</span>{extra}</summary>"
                f'<ul class="checks">{"".join(items)}</ul></details>')

    def check(self, c, first_fail: bool) -> str:
        from .explain import describe
        cls = f'check {"holds" if c.holds else "fails"}{" first-fail" if first_fail else ""}'
        lit = c.literal
        if c.exception is not None:         # NOT abK, or a background atom: its own rules
            a = c.exception
            name = lit.name if isinstance(lit, NotAtom) else lit.feature
            if isinstance(lit, NotAtom):
                words = (f"there is no evidence that {name} holds" if c.holds
                         else f"the exception {name} holds")
                kind = "exception"
            else:
                words = describe(c)
                kind = "background"
            # open: why an exception holds or not is the heart of the justification
            inner = self.atom(a, opened=True)
            return (f'<li class="{cls} {kind}" data-atom="{e(name)}" '
                    f'data-holds="{str(c.holds).lower()}"><details open>'
                    f'<summary>{_mark(c.holds)} <span class="rule-text">{literal_html(lit)}'
                    f'</span><span class="words">{e(words)}</span></summary>{inner}</details></li>')
        value = ""
        if lit.feature is not None:
            value = (f' <span class="row-value" data-feature="{e(lit.feature)}">'
                     f"{e(text_name(lit.feature))} = {e(_value_text(c.value))}</span>")
        return (f'<li class="{cls}" data-holds="{str(c.holds).lower()}">{_mark(c.holds)} '
                f'<span class="rule-text">{literal_html(lit)}</span>{value}'
                f'<span class="words">— {e(describe(c))}</span></li>')

    def atom(self, a, opened: bool) -> str:
        if not a.rules:
            return (f'<p class="note">no rule defines {e(a.name)}: it never holds</p>')
        return "".join(self.rule(r, opened or r.fires) for r in a.rules)

    def html(self) -> str:
        x = self.x
        out = [_open("aspml-explanation")]
        if self.p.is_multiclass:
            out += self.multiclass()
        else:
            t = x.target
            out.append(f'<p class="verdict">{span("hd", text_head(self.p, Rule(None, ())))} '
                       f'{"holds" if t.holds else "does not hold"} for this row'
                       + (" because" if t.holds else ":") + "</p>")
            if x.why_not is not None and x.why_not == x.prediction:
                out.insert(1, '<p class="note">The row gets this answer; the question why not '
                              "does not arise. Why it gets it:</p>")
            if t.holds:
                out.append(self.atom_firing(t))
            else:
                out.append(self.atom(t, opened=True) if t.rules else
                           '<p class="note">the program has no rules</p>')
        out.append(self.minimal())
        out.append(self.row())
        out.append("</div>")
        return "".join(out)

    def atom_firing(self, a) -> str:
        """The rules that fire open, the others folded under one summary."""
        fire = "".join(self.rule(r, True) for r in a.firing)
        rest = [r for r in a.rules if not r.fires]
        if rest:
            fire += (f"<details><summary>the other {len(rest)} rule{'s' * (len(rest) != 1)}, "
                     "which do not fire</summary>"
                     + "".join(self.rule(r, False) for r in rest) + "</details>")
        return fire

    def multiclass(self) -> list[str]:
        from .explain import class_head
        x, p = self.x, self.p
        rules = x.target.rules
        first = x.target.first_firing
        out = []
        d = x.why_not
        if d is not None and d != x.prediction:
            got = ("it has no class" if x.prediction is None
                   else f"its class is {text_value(x.prediction)}")
            out.append(f'<p class="verdict">{span("hd", class_head(p, d))} does not hold for '
                       f"this row ({e(got)}):</p>")
            own = [r for r in rules if r.rule.label == d]
            for r in own:
                extra = ""
                if r.fires and first is not None:
                    extra = (f' <span class="note">but rule {first.index + 1}, of another class, '
                             "fires first</span>")
                out.append(self.rule(r, True, extra))
                if r.fires and first is not None:
                    out.append('<ul class="exceptions">' + self.rule(first, False) + "</ul>")
            if d == p.target.default and first is not None:
                out.append(f'<p>{span("va", text_value(d))} is the default class: a row gets it '
                           "when no rule of another class fires first, and here one does:</p>")
                out.append(self.rule(first, True))
            elif not own:
                out.append(f'<p class="note">no rule concludes {e(text_value(d))}, and it is '
                           "not the default class</p>")
            return out
        if d is not None:
            out.append(f'<p class="note">The row gets {e(class_head(p, d))}; the question why '
                       "not does not arise. Why it gets it:</p>")
        if first is not None:
            out.append(f'<p class="verdict">{span("hd", class_head(p, x.prediction))} for this '
                       "row because</p>")
            out.append(self.rule(first, True))
            earlier = x.earlier
            if earlier:
                out.append("<h4>and no earlier rule of another class fires:</h4>")
                out += [self.rule(r, True) for r in earlier]
            elif first is rules[0]:
                out.append('<p class="note">and it is the first rule of the list</p>')
            else:
                out.append('<p class="note">and no earlier rule concludes another class</p>')
        else:
            if x.prediction is not None:
                out.append(f'<p class="verdict">{span("hd", class_head(p, x.prediction))} for '
                           "this row because no rule covers it, and "
                           f"{e(text_value(x.prediction))} is the default class:</p>")
            else:
                out.append(f'<p class="verdict">{e(text_name(p.target.name))} has no class for '
                           "this row: no rule covers it, and the program has no default "
                           "class:</p>")
            out += [self.rule(r, True) for r in rules]
            if not rules:
                out.append('<p class="note">the program has no rules</p>')
        return out

    def minimal(self) -> str:
        m = self.x.minimal
        if m is None:
            return ""
        parts = ", ".join(f"{e(text_name(k))} = {e(_value_text(v))}" for k, v in m.items())
        return ('<p class="minimal"><b>These values alone are enough for this answer:</b> '
                + (parts or "none (the program always answers so)") + ".</p>")

    def row(self) -> str:
        cells = "".join(f"<tr><th>{e(text_name(k))}</th><td>{e(_value_text(v))}</td></tr>"
                        for k, v in self.x.row.items())
        return f"<details><summary>the row's values</summary><table>{cells}</table></details>"


# ---------------------------------------------------------------------------
# a counterfactual
# ---------------------------------------------------------------------------

def counterfactual_html(cf, program: Program | None = None) -> str:
    """The changes as a table (feature, from, to), then the rule that fires in the
    changed row (with its body when the program is known) and the distance."""
    from .asp.explain import _show
    program = program if program is not None else getattr(cf, "program", None)
    out = [_open("aspml-counterfactual")]
    if cf.changes:
        out.append("<table><tr><th>feature</th><th>from</th><th>to</th></tr>"
                   + "".join(f'<tr data-feature="{e(f)}"><th>{e(text_name(f))}</th>'
                             f"<td>{e(_show(o))}</td><td><b>{e(_show(n, f in cf.any_other))}"
                             "</b></td></tr>"
                             for f, (o, n) in cf.changes.items()) + "</table>")
    else:
        out.append('<p class="note">no change: the row already gets this answer</p>')
    if cf.rule is not None:
        if program is not None:
            r = program.rules[cf.rule]
            head = text_head(program, r)
            which = "is the first rule that fires" if program.is_multiclass else "fires"
            out.append(f'<p>then rule {cf.rule + 1} {which}: <span class="rule-text">{span("kw", "IF")} {body_html(r.body)} '
                       f'{span("kw", "THEN")} {span("hd", head)}</span></p>')
        else:
            out.append(f"<p>then rule {cf.rule + 1} fires</p>")
    elif cf.label is not None:
        out.append(f'<p>then no rule fires, and the default class applies: '
                   f'{span("va", text_value(cf.label))}</p>')
    out.append(f'<p class="meta">distance {cf.distance:.3g}</p></div>')
    return "".join(out)
