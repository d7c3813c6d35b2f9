"""Saved models and program files: a print that runs as it is, with a checksum line.

``Program.save(path)`` writes the program in the dialect its suffix names
(``.pl`` the Prolog print, ``.lp`` and any other suffix the asp print clingo
reads) and ends it with ``% aspml-sha256: <hex>`` over everything before that
line, a comment in both.  These two prints read back as the very program;
``.txt`` (the text print keeps no schema) and ``.scasp`` (an interval reads
back as two comparisons) are refused.  The ``% aspml:`` header of the print
carries the dialect, schema, scales, target, missing-value tokens and
provenance.  Files are written and read as exact UTF-8 bytes: no newline
translation, so a value holding ``\\r`` or ``\\r\\n`` reads back as it was.

``load(path)`` checks the line, reads the program in the dialect its header
names, and checks what a checksum cannot: the checksum catches accidents (a
file cut short, a stray change), not deliberate edits, since anyone can sign a
file again.  A signed file is still refused when a scale is not a power of ten
(the parser checks the header) or when its text is not what aspml prints for
the program it holds.  No pickle.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from ..errors import AspmlError, ParseError
from .model import Program
from .parser import parse, power_of_ten
from .printers import META_PREFIX

CHECK_PREFIX = "% aspml-sha256: "
SUFFIX_DIALECT = {".lp": "asp", ".pl": "prolog", ".pro": "prolog", ".prolog": "prolog",
                  ".scasp": "scasp", ".txt": "text"}


def suffix_dialect(path, default=None):
    """The dialect a file's suffix names, in any case (``m.PL`` is Prolog)."""
    return SUFFIX_DIALECT.get(Path(path).suffix.lower(), default)
SAVE_DIALECTS = ("asp", "prolog")
_HEADER = re.compile("^" + re.escape(META_PREFIX) + r"(\{.*)$", re.MULTILINE)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def save_dialect(path) -> str:
    """The dialect a model saved at ``path`` is written in: the one its suffix names."""
    dialect = suffix_dialect(path, "asp")
    if dialect not in SAVE_DIALECTS:
        why = ("the text print keeps no schema, scales or missing-value tokens" if dialect == "text"
               else "the s(CASP) print does not read back as the same program (an interval "
                    "becomes two comparisons)")
        raise AspmlError(f"cannot save a model as {path}: {why}; save it as .lp (clingo) or .pl "
                         f"(Prolog), and print {dialect} with aspml export --to {dialect}")
    return dialect


def odd_scales(program: Program) -> list:
    """The features whose scale is not a power of ten: a model with one is not saved."""
    return [f for f in program.schema.features if f.scale is not None and not power_of_ten(f.scale)]


def dumps(program: Program, dialect: str = "asp") -> str:
    """The saved form of ``program``: its print in ``dialect`` and the checksum line."""
    if dialect not in SAVE_DIALECTS:
        raise AspmlError(f"a model is saved as {', '.join(SAVE_DIALECTS)}, not {dialect!r}")
    odd = odd_scales(program)
    if odd:                 # reading refuses such a header: refuse to write it
        raise AspmlError(f"feature {odd[0].name!r} has scale {odd[0].scale}; a saved model's "
                         f"scales are powers of ten (1, 10, 100, ...)")
    text = program.print(dialect)
    return text + CHECK_PREFIX + _digest(text) + "\n"


def write_text(path, text: str) -> None:
    """``text`` to ``path`` as exact UTF-8 bytes (text mode would not translate on
    POSIX, but exact bytes say what is meant and hold everywhere)."""
    Path(path).write_bytes(text.encode("utf-8"))


def save(program: Program, path) -> None:
    write_text(path, dumps(program, save_dialect(path)))


def read_text(path) -> str:
    """The text of a program file, exactly: no newline translation (text-mode reading
    turns ``\\r`` and ``\\r\\n`` into ``\\n``, and a value holding them would change)."""
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise AspmlError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise AspmlError(f"{path} is not a program file: it is not text (a program is "
                         f".lp, .pl, .scasp or .txt text)") from None


def header_dialect(text: str) -> str | None:
    """The dialect the ``% aspml:`` header of ``text`` names (None: no readable header)."""
    found = _HEADER.search(text)
    if found is None:
        return None
    try:
        dialect = json.loads(found.group(1)).get("dialect")
    except (ValueError, AttributeError, RecursionError):
        return None                     # the parser says what is wrong with it
    return dialect if isinstance(dialect, str) else None


def loads(text: str, source: str = "the model") -> Program:
    """A saved model from its text: checksum, then the header's dialect, then the re-print."""
    body, sep, tail = text.rpartition(CHECK_PREFIX)
    if not sep or body.count(CHECK_PREFIX):
        raise AspmlError(f"{source} has no '% aspml-sha256:' line at its end: it is not a "
                         "model saved by aspml, or it was cut short")
    if _digest(body) != tail.strip():
        crlf = "\r\n" in body and _digest(body.replace("\r\n", "\n")) == tail.strip()
        why = ("its line ends were turned into \\r\\n, by an editor or git's autocrlf: "
               "restore them" if crlf else "its checksum does not match")
        raise AspmlError(f"{source} was changed after it was saved ({why}); to run an "
                         "edited model anyway, give --edited (aspml.load(path, edited=True))")
    dialect = header_dialect(body)
    if dialect not in SAVE_DIALECTS:
        raise AspmlError(f"{source} has no '% aspml:' header naming asp or prolog: it "
                         "is not a model saved by aspml")
    program = parse(body, dialect)
    if not _same_print(program.print(dialect), body):
        # signed again after an edit: aspml would print the program it now holds otherwise
        # (a scale changed in the header but not in the numbers' comment, a number
        # written in another form...)
        raise AspmlError(f"{source} is not the text aspml prints for the program it holds: "
                         f"it was edited and signed again (or saved by another version of "
                         f"aspml); parse it with aspml.parse(text, {dialect!r}) to read it anyway")
    return program


# lines of a print that say nothing of what the program answers, which an aspml of
# another version printed otherwise: the "% Input:" comment (a Boolean feature's facts
# said since 2026-12-05) and the ":- discontiguous" declaration (the feature facts since
# 2026-12-05).  A model saved before reads back (a review: every .pl saved before was
# refused as "edited and signed again").
_VERSIONED = re.compile(r"^(% Input: |:- discontiguous ).*\n", re.MULTILINE)


def _same_print(printed: str, body: str) -> bool:
    """Whether ``body`` is the text aspml prints (``printed``), or printed it in another
    version: the same but for the :data:`_VERSIONED` lines."""
    return printed == body or _VERSIONED.sub("", printed) == _VERSIONED.sub("", body)


def load(path, edited: bool = False) -> Program:
    """Read a model written by :meth:`Program.save`, refusing edited or truncated files.

    ``edited=True`` reads a model a person changed after it was saved: its checksum
    line is not trusted (nor required), and its ``% aspml:`` header still gives the
    dialect, schema, scales and missing-value tokens.
    """
    if edited:
        return read_program(path, edited=True)
    return loads(read_text(path), str(path))


def read_program(path, dialect: str | None = None, edited: bool = False) -> Program:
    """A program file: a saved model (checked as :func:`load` checks it) or program text.

    The dialect is the one the file's ``% aspml:`` header names, else ``dialect``
    (``--from``), else the suffix's.  A header is trusted over the suffix (an
    older aspml saved the asp print under any suffix); a ``dialect`` that
    contradicts the header is refused, as is an asp or prolog file with aspml's
    header but no checksum line unless ``dialect`` is given (an export; else a
    save cut short).  ``edited`` (``--edited``) reads a saved model without trusting
    its checksum: the whole text but its checksum line is parsed, header and all.
    """
    text = read_text(path)
    if not text.strip():
        raise AspmlError(f"{path} is empty: there is no program in it")
    said = header_dialect(text)
    if dialect is not None and said is not None and dialect != said:
        raise AspmlError(f"{path} is in the {said} dialect (its '% aspml:' header says so), "
                         f"not {dialect}: give --from {said} or leave --from out")
    chosen = dialect or said or suffix_dialect(path)
    if chosen is None:
        raise AspmlError(f"cannot tell the dialect of {path}; give --from asp|prolog|scasp|text")
    try:
        if edited:
            if said not in SAVE_DIALECTS:
                raise AspmlError(f"{path} has no '% aspml:' header naming asp or prolog: "
                                 f"--edited reads a model saved by aspml and then edited")
            # the whole file but the checksum line: a rule added after it is part of the
            # edit (swipl and clingo read it), never silently left out
            body = re.sub(r"(?m)^" + re.escape(CHECK_PREFIX) + r"[0-9a-f]*[ \t]*(\r?\n|\Z)", "",
                          text)
            return parse(body, said)
        if CHECK_PREFIX in text:
            return loads(text, str(path))         # a saved model: check it was not altered
        if said in SAVE_DIALECTS and re.search(r"(?m)^% rows( of |$)", text):
            # an export with --facts: the program and its rows' facts, no checksum line
            raise AspmlError(f"{path} is an export with the rows' facts (export --facts): "
                             "aspml reads a program without facts and the rows from a CSV "
                             "file; give the saved model, or an export without --facts")
        if said in SAVE_DIALECTS and dialect is None:
            raise AspmlError(f"{path} has aspml's header but no '{CHECK_PREFIX.strip()}' line "
                             f"at its end: a saved model cut short (an exported program "
                             f"loads with --from {said})")
        return parse(text, chosen)
    except ParseError as e:
        raise AspmlError(f"{path}: {e}") from None
