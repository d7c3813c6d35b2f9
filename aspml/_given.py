"""What the functions that run, explain or print a program accept as that program.

A :class:`~aspml.Program`, or a fitted aspml estimator (``FoldSE``, ``Libre`` ...),
whose learned program is ``program_``: ``aspml.explain(clf, row)`` works as
``aspml.explain(clf.program_, row)``, and with the missing-value tokens the
estimator was fitted with.  Anything else is a TypeError that says what to pass.
"""

from __future__ import annotations

from .logic.model import Program


def as_program(given, what: str) -> Program:
    """The Program ``given`` is: a Program, or a fitted aspml estimator's ``program_``
    (which carries the estimator's ``missing`` tokens).  ``what`` names the function,
    for the error."""
    if isinstance(given, Program):
        return given
    if _is_aspml_estimator(given):
        program = getattr(given, "program_", None)
        if not isinstance(program, Program):
            from sklearn.exceptions import NotFittedError
            raise NotFittedError(f"{what}: this {type(given).__name__} is not fitted yet; call "
                                 "fit(X, y) first")
        return program
    raise TypeError(f"{what} takes an aspml Program or a fitted aspml estimator (FoldSE, "
                    f"FoldRpp, Libre, MultiValueRuleSet), not {type(given).__name__}")


def engine_program(given, what: str) -> Program:
    """The program an engine runs: :func:`as_program`, without its prefix.  The prefix
    names the exception and helper predicates of a print that lives in a knowledge base
    (``heart_ab1``, ``heart_row``); the engines write their own facts and ask for the
    program's own names (``ab1``), so a prefixed program answers as the unprefixed one."""
    program = as_program(given, what)
    return program if program.prefix is None else program.with_prefix(None)


def _is_aspml_estimator(obj) -> bool:
    return type(obj).__module__.startswith("aspml.learners") and hasattr(obj, "get_params")
