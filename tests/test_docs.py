"""The README a newcomer reads and the documentation site beside it (issue #22).

The README is short and its tour runs from a fresh clone: the commands between
``<!-- tour -->`` and ``<!-- /tour -->`` run, as a user types them, in a copy of the
files a clone has, with the installed ``aspml`` command, and what they write is
ignored by git.  (tests/test_examples.py also runs them in-process and compares their
output with the one shown.)  Every measured table that left the README is on a
Benchmarks page of docs/ with the command that reproduces it.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import ROOT  # noqa: E402
from test_examples import blocks  # noqa: E402

README = ROOT / "README.md"
DOCS = ROOT / "docs"

# The measured sections the README held before issue #22 and the Benchmarks page each
# moved to (the page's title, or a heading on it).
MOVED = {
    "engines.md": "Engines",
    "fold.md": "FOLD-SE and FOLD-R++ against the reference FOLD-R++",
    "libre.md": "Compact by default (issue #20)",
    "mrs.md": "Multi-value Rule Sets",
    "multiclass.md": "Multi-class: measured",
    "side-by-side.md": "All learners side by side",
    "class-weights.md": "Class weights on imbalanced tables",
    "explanations.md": "Explanations",
    "descriptive.md": "Descriptive models: measured",
    "background.md": "Background knowledge",
    "expert.md": "Expert rules",
    "real-tables.md": "Real tables the learners were not tuned on",
}


def tour_commands() -> list[str]:
    """The shell commands of the README's tour, in order."""
    text = README.read_text(encoding="utf-8")
    start, end = text.index("<!-- tour -->"), text.index("<!-- /tour -->")
    first, last = text[:start].count("\n") + 1, text[:end].count("\n") + 1
    return [command for line, commands in blocks(README) if first <= line <= last
            for command, _ in commands]


def test_the_readme_is_short_and_keeps_the_ci_command():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    assert "pip install -e '.[test]' && python -m pytest -q" in text


def test_the_readme_states_no_counts_that_go_stale():
    """Counts of tests, examples or notebooks change with every commit: not stated."""
    text = re.sub(r"\s+", " ", README.read_text(encoding="utf-8"))
    found = re.findall(r"\b\d[\d,]*\s+(?:\w+\s+)?(?:tests?|test files|examples|notebooks|"
                       r"datasets|pages)\b", text)
    assert not found, found


def _clone(tmp: Path) -> Path:
    """The files a clone of the working tree has (tracked, and new files not ignored)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout.decode()
    clone = tmp / "aspml"
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, clone / name)
    subprocess.run(["git", "init", "-q"], cwd=clone, check=True)
    return clone


def _aspml_command() -> str:
    """The ``aspml`` a user runs: the console script installed beside this interpreter."""
    beside = Path(sys.executable).parent / "aspml"
    found = str(beside) if beside.is_file() else shutil.which("aspml")
    if found is None:
        pytest.fail("the aspml command is not installed (pip install -e .)")
    return found


def _in_process(args: list[str], cwd: Path) -> tuple[int, str]:
    """``aspml ARGS`` through the installed console script's entry point, in this process
    (a new interpreter costs seconds of imports per command on a loaded machine)."""
    from importlib.metadata import entry_points
    (script,) = entry_points(group="console_scripts", name="aspml")
    main = script.load()
    err = io.StringIO()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            try:
                code = main(args)
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else 1
    finally:
        os.chdir(here)
    return code or 0, err.getvalue()


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_tour_runs_from_a_fresh_clone(tmp_path):
    """Each tour command, typed in the clone's top folder, exits 0; what they write is
    ignored by git (.gitignore), so a user's clone stays clean.  The first ``aspml``
    command and every ``python`` command run as a user runs them, in a new process (the
    installed script, from the clone's top folder); the other ``aspml`` commands call the
    same console-script entry point in this process, to keep the test fast."""
    commands = tour_commands()
    assert any(c.startswith("aspml bench") for c in commands)
    assert all("shared/data" not in c for c in commands)
    clone = _clone(tmp_path)
    before = {p for p in clone.rglob("*") if ".git" not in p.parts}
    aspml, started = _aspml_command(), False
    for command in commands:
        words = shlex.split(command)
        assert words[0] in ("aspml", "python"), command
        if words[0] == "aspml" and started:
            code, stderr = _in_process(words[1:], clone)
        else:
            argv = [aspml if words[0] == "aspml" else sys.executable, *words[1:]]
            done = subprocess.run(argv, cwd=clone, capture_output=True, text=True, timeout=300,
                                  stdin=subprocess.DEVNULL)
            code, stderr = done.returncode, done.stderr
            started = started or words[0] == "aspml"
        assert code == 0, f"$ {command}\nexit {code}\n{stderr}"
    written = sorted(str(p.relative_to(clone)) for p in clone.rglob("*")
                     if ".git" not in p.parts and p.is_file() and p not in before)
    assert {"birds.lp", "birds.html", "breast_cancer.csv", "results.json"} <= set(written)
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all", "--", *written],
                            cwd=clone, capture_output=True, text=True, check=True).stdout
    assert status == "", f"the tour writes files .gitignore does not cover:\n{status}"


def _fenced(text: str) -> list[str]:
    return re.findall(r"^```[a-z]*\n(.*?)^```", text, flags=re.S | re.M)


def _outside_fences(text: str) -> str:
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


@pytest.mark.parametrize("page", sorted(MOVED))
def test_each_benchmark_page_holds_a_table_and_its_command(page):
    text = (DOCS / "benchmarks" / page).read_text(encoding="utf-8")
    headings = [h.strip() for h in re.findall(r"^#+ (.*)$", _outside_fences(text), flags=re.M)]
    assert MOVED[page] in headings
    assert re.search(r"^\|[-: |]+\|$", _outside_fences(text), flags=re.M), "no table"
    commands = [line for block in _fenced(text) for line in block.splitlines()
                if re.match(r"(cd benchmarks|(nice -n \d+ )?python |aspml bench)", line)]
    assert commands, "no command in a code block"


def test_every_benchmark_page_is_in_the_site():
    """Every Benchmarks page is listed in mkdocs.yml's nav, and no measured table is left
    in the README (its only tables: the learners and the links; the tour's bench output
    is a console block)."""
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in [*MOVED, "index.md"]:
        assert f"benchmarks/{page}" in nav
    assert {p.name for p in (DOCS / "benchmarks").glob("*.md")} == {*MOVED, "index.md"}
    tables = re.findall(r"^\|[-: |]+\|$", _outside_fences(README.read_text(encoding="utf-8")),
                        flags=re.M)
    assert len(tables) == 2


def test_the_notebooks_page_lists_the_teaching_notebooks():
    text = (DOCS / "notebooks.md").read_text(encoding="utf-8")
    listed = re.findall(r"`(examples/notebooks/\d\d_\w+\.ipynb)`", text)
    assert len(listed) == 7 and len(set(listed)) == 7
    for path in (ROOT / "examples" / "notebooks").glob("*.ipynb"):
        assert f"examples/notebooks/{path.name}" in listed, f"{path.name} is not on the page"


def test_the_readme_links_to_pages_that_exist():
    """The README's links into docs/ (and the repository) point at files of the clone."""
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", _outside_fences(text))
    local = [link for link in links if not re.match(r"[a-z]+://", link)]
    assert any(link.startswith("docs/") for link in local)
    for link in local:
        assert (ROOT / link).exists(), link
