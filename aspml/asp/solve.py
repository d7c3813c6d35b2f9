"""One door to clingo: load text parts, ground, solve, convert symbols.

Errors clingo reports come back as :class:`aspml.EngineError` naming the part
(the program, the facts, an encoding), the line and the text of that line.
"""

from __future__ import annotations

import re

import clingo

from ..errors import EngineError

_LOCATION = re.compile(r"<block>:(\d+):(\d+)(?:-\d+(?::\d+)?)?:\s*(.*)")


def solve(parts, program_part: int | None = None, max_models: int = 1,
          arguments=("--warn=none",)) -> list[list[clingo.Symbol]]:
    """Ground and solve the text ``parts``; return the shown atoms of each model.

    ``parts`` are added one by one so an error points at the right text;
    ``program_part`` names which part is the user's program in messages.
    """
    session = Session(parts, program_part, [*arguments, f"--models={max_models}"])
    models: list[list[clingo.Symbol]] = []
    with session.ctl.solve(yield_=True) as handle:
        for model in handle:
            models.append(list(model.symbols(shown=True)))
    if not models:
        raise EngineError("clingo found no answer set (the program is inconsistent)")
    return models


def atoms(model) -> list[str]:
    """A model as sorted strings, for tests that read like answer sets."""
    return sorted(str(s) for s in model)


def _error(messages: list[str], text: str, what: str, verb: str = "rejected") -> EngineError:
    lines = text.split("\n")     # as clingo counts lines: not at U+2028 or U+0085 in a string
    for message in messages:
        m = _LOCATION.search(message)
        if m:
            line, column, rest = int(m.group(1)), int(m.group(2)), m.group(3)
            src = lines[line - 1] if 0 < line <= len(lines) else ""
            return EngineError(f"clingo {verb} {what} at line {line}, column {column}: "
                               f"{rest.strip()}\n{src}")
    return EngineError(f"clingo {verb} {what}: " + "; ".join(messages))


class Session:
    """One grounded program, solved once or many times (assumptions, optimisation)."""

    def __init__(self, parts, program_part: int | None = None,
                 arguments=("--warn=none",)) -> None:
        self.messages: list[str] = []
        self.ctl = clingo.Control(list(arguments), logger=lambda c, m: self.messages.append(m),
                                  message_limit=5)

        def what(k: int) -> str:
            return "the program" if k == program_part else f"part {k + 1}"

        for k, text in enumerate(parts):
            try:
                self.ctl.add("base", [], text)
            except RuntimeError:
                raise _error(self.messages, text, what(k)) from None
        try:
            self.ctl.ground([("base", [])])
        except RuntimeError:
            k = program_part if program_part is not None else len(parts) - 1
            raise _error(self.messages, parts[k], what(k), verb="could not ground") from None

    def literal(self, symbol: clingo.Symbol) -> int:
        return self.ctl.symbolic_atoms[symbol].literal

    def solve(self, assumptions=()):
        """``(satisfiable, core, last model's shown atoms)``; the core when unsatisfiable."""
        core: list[int] = []
        models: list[list[clingo.Symbol]] = []
        result = self.ctl.solve(assumptions=list(assumptions), on_core=core.extend,
                                on_model=lambda m: models.append(list(m.symbols(shown=True))))
        return bool(result.satisfiable), core, (models[-1] if models else None)
