"""Saved models: the ``asp`` print, readable and runnable, with a checksum line.

``Program.save(path)`` writes the program as clingo reads it (its ``% aspml:``
header carries the schema, scales, target and provenance) and ends with
``% aspml-sha256: <hex>`` over everything before that line.  ``load(path)``
checks the line first, so a file that was edited or cut short is refused with
a clear error instead of being read as some other model.  No pickle.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..errors import AspmlError
from .model import Program
from .parser import parse

CHECK_PREFIX = "% aspml-sha256: "


def dumps(program: Program) -> str:
    text = program.to_asp()
    return text + CHECK_PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest() + "\n"


def save(program: Program, path) -> None:
    Path(path).write_text(dumps(program), encoding="utf-8")


def loads(text: str, source: str = "the model") -> Program:
    body, sep, tail = text.rpartition(CHECK_PREFIX)
    if not sep or body.count(CHECK_PREFIX):
        raise AspmlError(f"{source} has no '% aspml-sha256:' line at its end: it is not a "
                         "model saved by aspml, or it was cut short")
    digest = tail.strip()
    if hashlib.sha256(body.encode("utf-8")).hexdigest() != digest:
        raise AspmlError(f"{source} was changed after it was saved (its checksum does not "
                         "match); parse it with aspml.parse(text, 'asp') to read it anyway")
    return parse(body, "asp")


def load(path) -> Program:
    """Read a model written by :meth:`Program.save`, refusing edited or truncated files."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise AspmlError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise AspmlError(f"{path} is not a text file") from None
    return loads(text, str(path))
