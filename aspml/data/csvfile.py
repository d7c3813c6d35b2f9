"""Reading a CSV file for the ``aspml`` command: every cell as text, nothing guessed silently.

- **Separator**: ``sep`` when given, else the one of ``,`` tab ``;`` ``|`` that
  splits the header line into the most fields (a comma on a tie).  Spaces
  right after a separator are not part of the value (``a, b`` files).
- **Header**: names are stripped of surrounding whitespace; a name given twice
  is an error; an unnamed column is ``Unnamed: I`` (as pandas names it) and is
  dropped when it is empty on every row (a separator at the end of each line,
  the header's too).
- **Rows**: a row with more fields than the header is an error (pandas would
  silently take the first field as a row label and shift every column), and so
  is a row with fewer (pandas would fill the missing fields with missing values,
  and a row cut short or a value holding an unquoted line break would go
  unnoticed).  A missing value is an empty field: ``4,5,`` not ``4,5``.  In a
  file of one column a blank line between rows is an error too: pandas skips it,
  and every later row would be answered under the wrong row number (``to_csv``
  writes a missing value there as ``""``).  The file is read a second time for
  this only for one column or when the last column holds a missing value (a
  short row reads as one there): its lines counted with numpy a block at a time,
  or, when it holds a quote character, its records with Python's csv module.
- **Compressed files** (gzip, bz2, xz, or a zip of one file; told by their
  first bytes, not their suffix) are unpacked while streaming, and refused once
  they unpack to more than ``MAX_RATIO`` times their size on disk (always
  allowed up to ``FLOOR`` bytes): the CSVs we measured pack 2 to 25 times, a
  decompression bomb a thousand.  A file really that big reads once unpacked.
"""

from __future__ import annotations

import bz2
import csv
import gzip
import io
import lzma
import os
import re
import zipfile

import numpy as np
import pandas as pd

from ..errors import AspmlError

SEPARATORS = (",", "\t", ";", "|")
MAX_RATIO = 100
FLOOR = 64 * 2**20

_MAGIC = ((b"\x1f\x8b", "gzip"), (b"BZh", "bz2"), (b"\xfd7zXZ\x00", "xz"),
          (b"PK\x03\x04", "zip"), (b"\x28\xb5\x2f\xfd", "zstd"))
_CHUNK = 2**20
_CHECK_BLOCK = 16 * _CHUNK   # bytes a block of the short-row check reads at a time


def read_csv(path, sep: str | None = None) -> pd.DataFrame:
    """The table in the CSV file ``path`` as the ``aspml`` command reads it: every cell
    as text, only empty cells missing (NaN), so ``aspml.load(model).predict(
    aspml.read_csv(path))`` answers what ``aspml predict model path`` prints.

    ``pd.read_csv(path)`` differs: it reads ``NA``, ``None``, ``null``, ``n/a``,
    ``NaN`` and a dozen other words as missing, where the command keeps them as
    values, and reads codes as numbers (``001`` as 1; ``pd.read_csv(path, dtype=str,
    skipinitialspace=True, keep_default_na=False, na_values=[""])`` reads the cells as
    the command does).  Cells that read as
    numbers stay text here; the learners and the Program read ``"5.1"`` as the
    number 5.1.  To learn in Python what ``aspml learn`` learns: the command takes a
    label column of numbers as numbers (give ``y`` as numbers); a column of only
    ``true``/``false`` cells is a Boolean feature in Python too, and a model reads
    those text cells as the command does either way.  ``sep``: the separator, else the one of ``,`` tab ``;``
    ``|`` that splits the header into the most fields; see the module's notes for
    headers, compressed files and malformed rows (one :class:`~aspml.AspmlError`).
    ``path`` may also be an open file or a stream (``io.StringIO(text)``, ``io.BytesIO``,
    a web response's body): its content is read as a file's."""
    if hasattr(path, "read"):
        return _read_stream(path, sep)
    path = str(path)
    sep, kind, names = _prepare(path, sep)
    with _reading(path, len(names)):
        with _open(path, kind) as raw:
            table = pd.read_csv(raw, **_options(sep, names))
    _check_first_row(table, path, sep, names)
    with _reading(path, len(names)):
        _check_short_rows(table, path, kind, sep, names)
    empty = [n for n in names if n.startswith("Unnamed: ") and table[n].isna().all()]
    return table.drop(columns=empty) if empty else table


def _read_stream(stream, sep):
    """:func:`read_csv` of a stream's content (text as UTF-8, or bytes, packed or not),
    through a file of its own that is gone after; an error names the stream, not that file
    (a trial: ``read_csv(io.StringIO(...))`` said "No such file or directory")."""
    import tempfile
    name = getattr(stream, "name", None)
    name = name if isinstance(name, str) else "the stream"
    try:
        content = stream.read()
    except (OSError, ValueError) as e:
        raise AspmlError(f"cannot read {name}: {e}") from None
    if isinstance(content, str):
        content = content.encode("utf-8")
    elif not isinstance(content, (bytes, bytearray, memoryview)):
        raise AspmlError(f"cannot read {name}: its read() gave {type(content).__name__}, "
                         "not text or bytes")
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "table.csv")
        with open(path, "wb") as fh:
            fh.write(content)
        try:
            return read_csv(path, sep)
        except AspmlError as e:
            raise AspmlError(str(e).replace(path, name)) from None


def iter_csv(path, sep: str | None = None, chunksize: int = 100_000):
    """:func:`read_csv` in tables of at most ``chunksize`` rows, read as they are taken (the
    file is never whole in memory); the cells read as :func:`read_csv` reads them.  An
    unnamed column stays even where it is empty (whether it is empty on every row is
    known only at the end)."""
    path = str(path)
    sep, kind, names = _prepare(path, sep)
    with _reading(path, len(names)):
        with _open(path, kind) as raw:
            checked = False
            for i, table in enumerate(pd.read_csv(raw, chunksize=chunksize,
                                                  **_options(sep, names))):
                if i == 0:
                    _check_first_row(table, path, sep, names)
                if not checked:         # (the whole file once, at the first chunk it may be)
                    checked = _check_short_rows(table, path, kind, sep, names)
                yield table


def _prepare(path: str, sep):
    """(separator, packing, column names) of the CSV file ``path``."""
    sep = _separator_option(sep)
    kind = _packing(path)
    with _reading(path, 0):
        if kind is not None:
            _check_unpacked_size(path, kind)
        with _open(path, kind) as raw:
            # the header is the first record, not the first line: a quoted name may hold
            # a line break ("a\r\nb"), so it is read with csv, from the file's first MiB
            text = io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")
            head = text.read(_CHUNK)
            text.detach()       # the file is the with's to close (no unclosed wrapper left)
        if not head.strip():
            raise AspmlError(f"cannot read {path}: it has no header line (the file is empty)")
        sep = sep or _sniff(head)
        return sep, kind, _header(head, sep, path)


def _options(sep: str, names: list) -> dict:
    return dict(sep=sep, header=0, names=names, dtype=str, keep_default_na=False,
                na_values=[""], skipinitialspace=True, encoding="utf-8-sig")


class _reading:
    """Turns what pandas, csv and the unpackers raise while reading into one AspmlError."""

    def __init__(self, path: str, n_names: int) -> None:
        self.path, self.n_names = path, n_names

    def __enter__(self):
        return self

    def __exit__(self, kind, e, tb):
        if e is None or isinstance(e, (AspmlError, GeneratorExit)):
            return False
        if isinstance(e, pd.errors.ParserError):
            raise AspmlError(_parser_message(self.path, e, self.n_names)) from None
        if isinstance(e, UnicodeDecodeError):
            line = _first_undecodable_line(self.path)
            if line is not None:
                byte = e.object[e.start] if e.start < len(e.object) else None
                held = f" (it holds the byte 0x{byte:02x})" if byte is not None else ""
                raise AspmlError(f"cannot read {self.path}: line {line} is not UTF-8 "
                                 f"text{held}; save the file as UTF-8") from None
        if isinstance(e, (OSError, EOFError, UnicodeDecodeError, lzma.LZMAError,
                          zipfile.BadZipFile, RuntimeError, pd.errors.EmptyDataError, csv.Error)):
            raise AspmlError(f"cannot read {self.path}: {_reason(e)}") from None
        return False


def _first_undecodable_line(path: str) -> int | None:
    """The number (1 the header) of the first line of ``path`` that is not UTF-8, read
    again for it: the decoder's position is within a block, not the file (a scale trial:
    "position 64621" of a 120 MB file).  None when it cannot be found."""
    try:
        with _open(path, _packing(path)) as raw:
            for number, line in enumerate(raw, start=1):
                try:
                    line.decode("utf-8")
                except UnicodeDecodeError:
                    return number
    except (OSError, EOFError, AspmlError, lzma.LZMAError, zipfile.BadZipFile):
        return None
    return None


def _check_first_row(table: pd.DataFrame, path: str, sep: str, names: list) -> None:
    if not isinstance(table.index, pd.RangeIndex):  # one field more on the first row
        raise AspmlError(f"{path}: row 0 has {len(names) + 1} fields but the header names "
                         f"{len(names)} columns ({show_names(names)}); a {_sep_name(sep)} at "
                         f"the end of each line? Remove it, or name the extra column")


def _check_short_rows(table: pd.DataFrame, path: str, kind, sep: str, names: list) -> bool:
    """Refuse a row with fewer fields than the header, and in a file of one column a blank
    line between rows (see the module's notes); reads the file again only for one column,
    or when the last column of ``table`` holds a missing value, which is where a short
    row shows.  Returns whether it read the file.  Unnamed columns at the end of the
    header (a separator ending it) may be left out of a row: they are dropped when empty."""
    one = len(names) == 1
    if not one and not table[names[-1]].isna().any():
        return False
    need = len(names)
    while need > 1 and names[need - 1].startswith("Unnamed: "):
        need -= 1
    with _open(path, kind) as raw:
        found = _short_line_quoteless(raw, sep, need, one)
    if found == "quoted":
        with _open(path, kind) as raw:
            found = _short_line_quoted(raw, sep, need, one)
    if found is not None:
        line, fields = found
        if fields is None:
            raise AspmlError(
                f"{path}: line {line} is blank: in a file of one column a blank line between "
                "rows may be a missing value or no row at all, and is read as no row; write a "
                'missing value as "" (as pandas\' to_csv does), or remove the line')
        raise AspmlError(
            f"{path}: line {line} has {fields} field{'s' if fields != 1 else ''} but the "
            f"header names {len(names)} columns ({show_names(names)}); write a missing value "
            f"as an empty field, its {_sep_name(sep)} kept, and quote a value that holds a "
            "line break")
    return True


def _short_line_quoteless(raw, sep: str, need: int, one: bool):
    """:func:`_short_line_quoted` for a stream without a quote character, where a record
    is a line: each block's lines and separators counted with numpy, not a Python step a
    line, one block in memory at a time.  ``"quoted"`` when a quote character shows."""
    carry, offset = b"", 0          # a line cut at a block's end; the lines before the block
    header, last_row = False, -1    # (one column) the line of the last row
    first = True
    while True:
        block = raw.read(_CHECK_BLOCK)
        if first and block.startswith(b"\xef\xbb\xbf"):
            block = block[3:]
        first = False
        if b'"' in block:
            return "quoted"
        data = carry + block
        if not block:
            if not data:
                return None
            data += b"\n"
        cut = data.rfind(b"\n") + 1
        data, carry = data[:cut], data[cut:]
        if not data:
            continue
        buf = np.frombuffer(data, dtype=np.uint8)
        ends = np.flatnonzero(buf == 10)
        starts = np.concatenate(([0], ends[:-1] + 1))
        seps = np.flatnonzero(buf == ord(sep))
        fields = np.searchsorted(seps, ends) - np.searchsorted(seps, starts) + 1
        # a line of one field is blank when it holds nothing but spaces, tabs and a CR
        blank = np.zeros(len(ends), dtype=bool)
        ones = np.flatnonzero(fields == 1)
        if len(ones) > 1000:                            # a one-column file: vectorised
            seen = np.flatnonzero(buf > 32)
            blank[ones] = (np.searchsorted(seen, ends[ones])
                           - np.searchsorted(seen, starts[ones])) == 0
        else:
            blank[ones] = [not data[a:b].strip() for a, b in zip(starts[ones], ends[ones])]
        rows = np.flatnonzero(~blank)
        if not header and len(rows):
            header, rows = True, rows[1:]               # the first line not blank
        if one and len(rows):
            lines = np.concatenate(([last_row], rows + offset)) if last_row >= 0 else rows + offset
            gaps = np.flatnonzero(np.diff(lines) > 1)
            if len(gaps):
                return int(lines[gaps[0]] + 2), None
            last_row = int(lines[-1])
        elif len(rows):
            short = rows[fields[rows] < need]
            if len(short):
                return int(short[0] + offset + 1), int(fields[short[0]])
        offset += len(ends)
        if not block:
            return None


def _short_line_quoted(raw, sep: str, need: int, one: bool):
    """(line, fields) of the first record with fewer than ``need`` fields, (line, None)
    for a blank line between rows of a one-column file, or None: with Python's csv
    module, as pandas splits quoted fields (a line of spaces, or nothing, is no row)."""
    text = io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")
    lines = _Lines(text)
    records = csv.reader(lines, delimiter=sep, skipinitialspace=True)
    limit = csv.field_size_limit()
    csv.field_size_limit(2**31 - 1)     # a long text is a field (pandas has no limit)
    try:
        header = seen = False
        blank = None                    # (one column) the first blank line after a row
        for record in records:
            if len(record) <= 1 and not "".join(record).strip() and '"' not in lines.last:
                blank = blank or (records.line_num if seen else None)
            elif not header:
                header = True
            elif one and blank:
                return blank, None
            elif len(record) < need:
                return records.line_num, len(record)
            else:
                seen, blank = True, None
    finally:
        csv.field_size_limit(limit)
        text.detach()       # the caller closes the file
    return None


class _Lines:
    """The lines of a text stream, the last one handed out kept (``last``)."""

    def __init__(self, text) -> None:
        self.text, self.last = text, ""

    def __iter__(self):
        for line in self.text:
            self.last = line
            yield line


def _separator_option(sep):
    if sep is None:
        return None
    named = {"tab": "\t", "\\t": "\t", "comma": ",", "semicolon": ";", "pipe": "|"}
    sep = named.get(sep.lower(), sep)
    if len(sep) != 1 or sep in "\"\r\n" or sep.isalnum():
        raise AspmlError(f"--sep {sep!r}: give one character such as , ; | or 'tab'")
    return sep


def _first_record(head: str, sep: str, **kw) -> list[str]:
    """The first record of ``head`` that is not blank, read with separator ``sep``."""
    records = csv.reader(io.StringIO(head, newline=""), delimiter=sep, **kw)
    return next((r for r in records if any(f.strip() for f in r)), [])


def _sniff(head: str) -> str:
    """The separator that splits the header into the most fields (a comma on a tie)."""
    best, most = ",", 1
    for sep in SEPARATORS:
        n = len(_first_record(head, sep))
        if n > most:
            best, most = sep, n
    return best


def _header(head: str, sep: str, path: str) -> list[str]:
    raw = _first_record(head, sep, skipinitialspace=True)
    names = [n.strip() or f"Unnamed: {i}" for i, n in enumerate(raw)]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:                                   # pandas would rename them a, a.1: refuse
        raise AspmlError(f"{path} names the column(s) {twice} more than once; rename them")
    return names


def _parser_message(path: str, e: Exception, n: int) -> str:
    m = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", str(e))
    if m:
        return (f"{path}: line {m[2]} has {m[3]} fields but the header names {n} columns "
                f"(a separator inside a value needs quotes: \"a,b\")")
    m = re.search(r"EOF inside string starting at row (\d+)", str(e))
    if m:       # pandas counts the file's lines from 0 (a scale trial read three numberings)
        return (f"{path}: line {int(m[1]) + 1} opens a quoted value that no quote closes "
                "(the file ends inside it); close it, and write a quote inside a value "
                'as two ("")')
    return f"cannot read {path}: {_reason(e)}"


def _reason(e: Exception) -> str:
    text = getattr(e, "strerror", None) or str(e) or type(e).__name__
    return text.splitlines()[0]


def _sep_name(sep: str) -> str:
    return {",": "comma", "\t": "tab", ";": "semicolon", "|": "bar"}.get(sep, repr(sep))


def show_names(names, limit: int = 30) -> str:
    """Column names for a message, quoted (``'age', ' inc'``), the first ``limit`` of them."""
    names = list(names)
    shown = ", ".join(repr(n) for n in names[:limit])
    return shown + (f", ... ({len(names)} in all)" if len(names) > limit else "")


# -- compressed files ---------------------------------------------------------------------

def _packing(path: str) -> str | None:
    """'gzip', 'bz2', 'xz', 'zip' or 'zstd' from the file's first bytes; None for plain text."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(6)
    except OSError as e:
        raise AspmlError(f"cannot read {path}: {_reason(e)}") from None
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            if kind == "zstd":
                raise AspmlError(f"cannot read {path}: it is zstd-compressed; unpack it first "
                                 f"(aspml reads gzip, bz2, xz and zip)")
            return kind
    return None


def _open(path: str, kind: str | None):
    """A binary stream of the file's bytes, unpacked when ``kind`` says it is packed."""
    if kind is None:
        return open(path, "rb")
    if kind == "gzip":
        raw = gzip.open(path, "rb")
    elif kind == "bz2":
        raw = bz2.open(path, "rb")
    elif kind == "xz":
        raw = lzma.open(path, "rb")
    else:
        archive = zipfile.ZipFile(path)
        files = [i for i in archive.infolist() if not i.is_dir()]
        if len(files) != 1:
            raise AspmlError(f"cannot read {path}: a zip archive of {len(files)} files; aspml "
                             f"reads a zip of one CSV file")
        raw = archive.open(files[0])
    return io.BufferedReader(_Capped(raw, _limit(path), path), _CHUNK)


def _limit(path: str) -> int:
    """The most bytes a packed file may unpack to."""
    return max(FLOOR, MAX_RATIO * os.path.getsize(path))


def check_packed(path) -> None:
    """Refuse a packed file that unpacks past the limit (see the module's docstring), for
    the readers that take a file as pandas reads it (``bench``, ``simplify --reference``)."""
    kind = _packing(str(path))
    if kind is not None:
        _check_unpacked_size(str(path), kind)


def _check_unpacked_size(path: str, kind: str) -> None:
    """Unpack the file once without keeping anything, so that a bomb is refused before
    pandas builds a table of it."""
    with _open(path, kind) as raw:
        while raw.read(_CHUNK):
            pass


class _Capped(io.RawIOBase):
    """A packed stream that stops with an AspmlError past ``limit`` unpacked bytes."""

    def __init__(self, raw, limit: int, path: str) -> None:
        self.raw, self.limit, self.path, self.total = raw, limit, path, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self.raw.read(min(len(buffer), self.limit + 1 - self.total))
        n = len(data)
        buffer[:n] = data
        self.total += n
        if self.total > self.limit:
            size = os.path.getsize(self.path)
            raise AspmlError(f"{self.path} unpacks to more than {_mb(self.limit)}, the most "
                             f"aspml unpacks from a file of {_mb(size)} ({MAX_RATIO} times its "
                             f"size, at least {_mb(FLOOR)}): not read, as it may be a "
                             f"decompression bomb (unpack it yourself if the data is real)")
        return n

    def close(self) -> None:
        if not self.closed:
            self.raw.close()
        super().close()


def _mb(n: int) -> str:
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n} bytes"
