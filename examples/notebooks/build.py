"""Write the teaching notebooks (``NN_name.ipynb``) from their sources (``src/NN_name.py``).

    python examples/notebooks/build.py          # write every notebook, without outputs
    python examples/notebooks/build.py --check  # fail when a notebook differs from its source

A source is a Python file in the "percent" format (as jupytext reads it): ``# %%``
starts a code cell, ``# %% [markdown]`` a text cell whose lines are comments.  A line
``# needs: swipl`` before the first cell records, in the notebook's metadata, that it
runs SWI-Prolog (the test that executes the notebooks skips it when swipl is absent).
The notebooks are committed without outputs; edit the sources, then rebuild.
"""

import sys
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent


def cells_of(text: str) -> tuple[list, list]:
    """(cells, needs) of a source: each cell as ("code" | "markdown", its text)."""
    cells, needs, kind, lines = [], [], None, []

    def flush():
        if kind is not None:
            body = "\n".join(lines).strip("\n")
            if kind == "markdown":
                body = "\n".join(line[2:] if line.startswith("# ") else line.lstrip("#")
                                 for line in body.split("\n"))
            cells.append((kind, body))

    for line in text.split("\n"):
        if line.startswith("# %%"):
            flush()
            kind, lines = ("markdown" if "[markdown]" in line else "code"), []
        elif kind is None:
            if line.startswith("# needs:"):
                needs += line.split(":", 1)[1].split()
        else:
            lines.append(line)
    flush()
    return cells, needs


def notebook(source: Path) -> nbformat.NotebookNode:
    cells, needs = cells_of(source.read_text(encoding="utf-8"))
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    if needs:
        nb.metadata["aspml"] = {"needs": needs}
    for k, (kind, body) in enumerate(cells):
        cell = (nbformat.v4.new_markdown_cell(body) if kind == "markdown"
                else nbformat.v4.new_code_cell(body))
        cell["id"] = f"{source.stem[:2]}-{k:02d}"      # stable ids: a rebuild changes nothing
        nb.cells.append(cell)
    nbformat.validate(nb)
    return nb


def main(argv) -> int:
    check = "--check" in argv
    sources = sorted((HERE / "src").glob("[0-9][0-9]_*.py"))
    stale = []
    for source in sources:
        target = HERE / (source.stem + ".ipynb")
        text = nbformat.writes(notebook(source)) + "\n"
        if check:
            if not target.is_file() or target.read_text(encoding="utf-8") != text:
                stale.append(target.name)
        else:
            target.write_text(text, encoding="utf-8")
    if check and stale:
        print("out of date (run python examples/notebooks/build.py): " + ", ".join(stale))
        return 1
    print(f"{len(sources)} notebooks {'match their sources' if check else 'written'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
