"""The errors aspml raises on purpose.

Every error a user can provoke with bad input is one of these, with a message
that says what is wrong and where; all derive from :class:`AspmlError` (itself a
``ValueError``) so ``except ValueError`` keeps working for scikit-learn users.
"""

from __future__ import annotations


class AspmlError(ValueError):
    """Base class of the errors aspml raises on purpose."""


class ParseError(AspmlError):
    """Malformed program text: carries the line, the column and an excerpt."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None,
                 excerpt: str = "") -> None:
        self.message = message
        self.line = line
        self.column = column
        self.excerpt = excerpt
        where = f"line {line}, column {column}: " if line is not None else ""
        text = f"{where}{message}"
        if excerpt:
            text += "\n" + excerpt
        super().__init__(text)


class ScaleError(AspmlError):
    """A number that cannot be written as a 32-bit clingo integer at its feature's scale."""


class DialectError(AspmlError):
    """A program that a dialect cannot express (the message says what to do instead)."""


class EngineError(AspmlError):
    """An external engine (clingo, SWI-Prolog) refused the program or failed."""


class AspmlWarning(UserWarning):
    """A fit that worked but may not give what its user wants (no rules, rules no better
    than a constant guess): the message says why and what to try."""
