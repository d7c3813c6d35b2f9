"""A griffe extension for the API reference: the docstrings are written in
reStructuredText's inline style (``code``, :meth:`fit`, :class:`Program`), which
Markdown misreads (``not (x <= v)`` lost its ``<= v)`` as an HTML tag).  Each docstring
is rewritten to Markdown's inline code before mkdocstrings renders it; the sources stay
as they are (they read well in ``help()``)."""

import re

import griffe

ROLE = re.compile(r":(?:meth|func|class|mod|attr|obj|data|exc|py:\w+):`~?\.?([^`]+)`")
DOUBLE = re.compile(r"``(.+?)``", re.S)


def to_markdown(text: str) -> str:
    text = ROLE.sub(lambda m: f"`{m.group(1)}`", text)
    return DOUBLE.sub(lambda m: "`" + m.group(1).replace("`", "") + "`", text)


class RstInline(griffe.Extension):
    def on_object(self, *, obj, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = to_markdown(obj.docstring.value)
