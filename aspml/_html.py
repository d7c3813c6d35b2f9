"""HTML pieces shared by the report page and the notebook views (``_repr_html_``).

Every string that comes from the user (feature names, values, labels, file
names) goes through :func:`e`: HTML-escaped, with invisible characters
(zero-width, bidi, controls) written as ``\\u200b`` so that "ro\\u200bme" does
not look like "rome".  Literals are printed as the ``text`` dialect prints
them, token by token, each token in a ``<span>`` whose class colours it.
"""

from __future__ import annotations

from html import escape

from .logic.model import Compare, Flag, InSet, Interval, Literal, NotAtom, NotCompare
from .logic.names import text_name, visible
from .logic.printers import _TEXT_OPS, text_literal, text_value


def e(value) -> str:
    """HTML-escaped text with invisible characters shown as ``\\u200b``."""
    return escape(visible(str(value)), quote=True)


def pre(text: str) -> str:
    """A multi-line text for <pre>: each line as :func:`e` shows it, the line breaks kept."""
    return "\n".join(e(line) for line in text.split("\n"))


def scope_css(css: str, root: str) -> str:
    """``css`` with every selector put under ``root`` (``body`` becomes ``root`` itself),
    so a page's style sheet can sit inside a notebook cell without restyling the
    notebook around it."""
    out = []
    for block in css.split("}"):
        if "{" not in block:
            continue
        selectors, rules = block.split("{", 1)
        scoped = []
        for s in selectors.split(","):
            s = s.strip()
            scoped.append(root if s in ("body", "html") else f"{root} {s}")
        out.append(", ".join(scoped) + " {" + rules.strip() + "}")
    return "\n".join(out)


# -- rules with their syntax coloured -----------------------------------------------

SYNTAX_CSS = """
.kw { color: #7b3294; font-weight: 600; }
.ft { color: #1f4e9c; }
.op { color: #555; }
.va { color: #1a7f37; }
.ab { color: #b35900; font-weight: 600; }
.hd { color: #a1002a; font-weight: 600; }
"""


def span(cls: str, text: str) -> str:
    return f'<span class="{cls}">{e(text)}</span>'


def literal_html(lit: Literal) -> str:
    """One literal as the text dialect prints it, its tokens coloured: feature names,
    operators, values, exception names and the keywords NOT and in."""
    if isinstance(lit, NotAtom):
        return span("kw", "NOT") + " " + span("ab", lit.name)
    if isinstance(lit, Flag):
        text = text_literal(lit)
        name = text[4:] if text.startswith("NOT ") and not lit.positive else text
        return (span("kw", "NOT") + " " if not lit.positive else "") + span("ft", name)
    name = span("ft", text_name(lit.feature))
    if isinstance(lit, Compare):
        return f"{name} {span('op', _TEXT_OPS[lit.op])} {span('va', text_value(lit.value))}"
    if isinstance(lit, NotCompare):
        return (span("kw", "NOT") + f" ({name} {span('op', lit.op)} "
                f"{span('va', text_value(lit.value))})")
    if isinstance(lit, Interval) and lit.any_number:
        return f"{name} {span('kw', 'is a number')}"
    if isinstance(lit, (Interval, InSet)):
        # what follows "name in ": the bounds or the members (a name may hold " in " itself)
        where = text_literal(lit)[len(text_name(lit.feature)) + len(" in "):]
        return f"{name} {span('kw', 'in')} {span('va', where)}"
    return e(text_literal(lit))  # pragma: no cover


def body_html(body) -> str:
    """A rule body: its literals joined by AND, or TRUE."""
    if not body:
        return span("kw", "TRUE")
    return f" {span('kw', 'AND')} ".join(literal_html(lit) for lit in body)

