"""The READMEs and the docs pages as tests: every ```console block runs, and its output is compared.

A block holds commands (lines starting with ``$ ``) each followed by the
output it prints (stdout and stderr together).  A line ``...`` stands for any
number of lines, and ``...`` inside a line for any text; a command shown with
no output is only required to succeed.  ``aspml`` commands run in this process
through ``aspml.cli.main`` (a new interpreter costs seconds of imports each).  Commands run in a fresh folder where
``examples`` points at the repository's examples (and ``../shared/data`` at
the shared datasets), so what they write stays out of the repository; one
block's commands share that folder.  ``aspml`` and ``python`` run with this
interpreter; a command ending in ``> FILE`` writes its stdout there; blocks
that need ``swipl`` or ``../shared/data`` are skipped when those are absent.

    python tests/test_examples.py README.md    # print what each command prints now
"""

from __future__ import annotations

import functools
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import DATA, ROOT, have_swipl  # noqa: E402

DOCS = sorted((ROOT / "docs").rglob("*.md"))
READMES = [ROOT / "README.md", *sorted((ROOT / "examples").glob("*/README.md")), *DOCS]


def blocks(path: Path) -> list[tuple[int, list[tuple[str, list[str]]]]]:
    """(line number, [(command, expected output lines)]) for each console block."""
    out, current, start = [], None, 0
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if current is None:
            if line.strip() == "```console":
                current, start = [], n
            continue
        if line.strip() == "```":
            out.append((start, current))
            current = None
        elif line.startswith("$ "):
            current.append((line[2:], []))
        elif current:
            current[-1][1].append(line)
    return out


def cases():
    for path in READMES:
        if blocks(path):
            yield pytest.param(path, id=str(path.relative_to(ROOT)))


def _argv(command: str) -> tuple[list[str], str | None]:
    words = shlex.split(command)
    target = None
    if len(words) >= 2 and words[-2] == ">":
        words, target = words[:-2], words[-1]
    if words[0] == "aspml":
        words = [sys.executable, "-m", "aspml", *words[1:]]
    elif words[0] == "python":
        words = [sys.executable, *words[1:]]
    return words, target


@functools.lru_cache(maxsize=None)
def _installed_is_this_checkout() -> bool:
    """Whether a new interpreter outside the repository imports this checkout's aspml."""
    probe = subprocess.run([sys.executable, "-c", "import importlib.util; "
                            "print(importlib.util.find_spec('aspml').origin)"],
                           cwd=Path(tempfile.gettempdir()), capture_output=True, text=True)
    return Path(probe.stdout.strip()).resolve().parent == (ROOT / "aspml").resolve()


def _package_path(tmp: Path) -> str | None:
    """A folder holding only ``aspml`` -> this checkout's package, when the installed aspml is
    another checkout's (a development worktree); None when it is this one (a fresh install)."""
    if _installed_is_this_checkout():
        return None
    pkg = tmp / "pkg"
    pkg.mkdir(exist_ok=True)
    if not (pkg / "aspml").exists():
        (pkg / "aspml").symlink_to(ROOT / "aspml")
    return str(pkg)


def run_aspml(args: list[str], cwd: Path, target: str | None) -> tuple[int, str]:
    """``aspml ARGS`` in this process (the same ``main`` the console script calls; much
    faster than a new interpreter per command): exit code and what it printed."""
    import contextlib
    import io

    from aspml.cli import main
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err if target else out):
            try:
                code = main(args)
            except SystemExit as e:          # argparse: --help, usage mistakes
                code = e.code if isinstance(e.code, int) else 1
    finally:
        os.chdir(here)
    if target:
        (cwd / target).write_text(out.getvalue(), encoding="utf-8")
        return code, err.getvalue()
    return code, out.getvalue()


def run(command: str, cwd: Path) -> tuple[int, str]:
    words = shlex.split(command)
    if words[0] == "aspml":
        target = words[-1] if len(words) >= 3 and words[-2] == ">" else None
        return run_aspml(words[1:-2] if target else words[1:], cwd, target)
    argv, target = _argv(command)
    env = {**os.environ, "COLUMNS": "100", "PYTHONHASHSEED": "0"}
    pkg = _package_path(cwd.parent)
    if pkg:
        env["PYTHONPATH"] = pkg
    if target is None:
        p = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, env=env, timeout=300)
        return p.returncode, p.stdout
    with open(cwd / target, "w", encoding="utf-8") as fh:
        p = subprocess.run(argv, cwd=cwd, stdout=fh, stderr=subprocess.PIPE, text=True, env=env,
                           timeout=300)
    return p.returncode, p.stderr


def matches(expected: list[str], actual: list[str]) -> bool:
    """Line-by-line equality where a line ``...`` is any lines and ``...`` in a line any text."""
    if not expected:
        return not actual
    head = expected[0]
    if head.strip() == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    if not actual:
        return False
    pattern = ".*".join(re.escape(part) for part in head.rstrip().split("..."))
    return re.fullmatch(pattern, actual[0].rstrip()) is not None and matches(expected[1:], actual[1:])


def workspace(tmp: Path) -> Path:
    repo = tmp / "repo"
    repo.mkdir()
    (repo / "examples").symlink_to(ROOT / "examples")
    if DATA.is_dir():
        (tmp / "shared").mkdir()
        (tmp / "shared" / "data").symlink_to(DATA)
    return repo


def needs(commands) -> str | None:
    """Why a block cannot run here (None when it can)."""
    text = " ".join(c for c, _ in commands)
    if "shared/data" in text and not DATA.is_dir():
        return "../shared/data is not present"
    if re.search(r"(^|\s)swipl\s", text) and not have_swipl():
        if os.environ.get("ASPML_REQUIRE_SWIPL"):
            pytest.fail("swipl is required (ASPML_REQUIRE_SWIPL) but not installed")
        return "SWI-Prolog (swipl) is not installed"
    return None


@pytest.mark.parametrize("path", list(cases()))
def test_readme(path, tmp_path):
    """Each README's blocks run in order in one fresh folder (later ones use earlier files)."""
    cwd = workspace(tmp_path)
    skipped = []
    for start, commands in blocks(path):
        why = needs(commands)
        if why:
            skipped.append(f"line {start}: {why}")
            continue
        for command, expected in commands:
            code, output = run(command, cwd)
            lines = output.rstrip("\n").splitlines() if output.strip() else []
            fails = any(re.match(r"aspml \w+: (?!note: )", line) for line in expected)
            assert (code != 0) == fails, f"line {start}: $ {command}\nexit {code}\n{output}"
            if expected:
                assert matches(expected, lines), (
                    f"line {start}: $ {command}\n--- expected\n" + "\n".join(expected)
                    + "\n--- got\n" + output)
    if skipped:
        pytest.skip("; ".join(skipped))


def test_every_example_has_a_tested_readme():
    for folder in sorted(p for p in (ROOT / "examples").iterdir() if p.is_dir()):
        readme = folder / "README.md"
        assert readme.is_file(), folder
        assert blocks(readme), f"{readme} shows no ```console block"


if __name__ == "__main__":          # print what the commands of a README print now
    with tempfile.TemporaryDirectory() as tmp:
        cwd = workspace(Path(tmp))
        pkg = _package_path(Path(tmp))
        if pkg:
            sys.path.insert(0, pkg)       # this checkout's aspml, for the in-process commands
        for start, commands in blocks(Path(sys.argv[1]).resolve()):
            print(f"```console  (line {start})")
            for command, _ in commands:
                code, output = run(command, cwd)
                print(f"$ {command}")
                sys.stdout.write(output)
                if code:
                    print(f"[exit {code}]")
            print("```")


def python_blocks(path: Path) -> list[tuple[int, str]]:
    """(line number, source) of each ```python block, in order."""
    out, current, start = [], None, 0
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if current is None:
            if line.strip() == "```python":
                current, start = [], n
            continue
        if line.strip() == "```":
            out.append((start, "\n".join(current) + "\n"))
            current = None
        else:
            current.append(line)
    return out


PAGES_WITH_PYTHON = [path for path in [ROOT / "README.md", *DOCS] if python_blocks(path)]


def test_the_docs_show_python():
    """The guide's Python examples moved out of the README; they must not get lost."""
    assert sum(len(python_blocks(path)) for path in PAGES_WITH_PYTHON) >= 10


@pytest.mark.parametrize("path", PAGES_WITH_PYTHON, ids=lambda p: str(p.relative_to(ROOT)))
def test_python_blocks_run_in_order(path, tmp_path, monkeypatch):
    """A page's Python blocks, run one after the other in one namespace (a later block
    may use what an earlier one made), in a fresh folder where ``examples`` is the
    repository's."""
    blocks_ = python_blocks(path)
    if "prolog." in "".join(source for _, source in blocks_) and not have_swipl():
        if os.environ.get("ASPML_REQUIRE_SWIPL"):
            pytest.fail("swipl is required (ASPML_REQUIRE_SWIPL) but not installed")
        pytest.skip("the page runs a program in SWI-Prolog")
    monkeypatch.chdir(workspace(tmp_path))
    namespace: dict = {"__name__": "docs"}
    name = path.relative_to(ROOT)
    for line, source in blocks_:
        try:
            exec(compile(source, f"{name}, block at line {line}", "exec"), namespace)
        except Exception as error:  # pragma: no cover - the message names the block
            raise AssertionError(f"{name} block at line {line} fails: {error!r}") from error
