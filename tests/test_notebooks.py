"""The teaching notebooks (examples/notebooks/) run from top to bottom without an error.

Each notebook is executed with nbclient in a fresh Python kernel, in its own folder
(its cells read ``../birds/`` and the like); a cell that raises fails the test with
the cell's source and the error.  A notebook whose metadata says it needs swipl
(``# needs: swipl`` in its source) is skipped when swipl is absent, unless
ASPML_REQUIRE_SWIPL is set (CI sets it).  The committed notebooks carry no outputs
and are what ``build.py`` writes from ``src/``.
"""

import subprocess
import sys

import pytest

from conftest import ROOT, dom_text, dump_dom, png_pixels, screenshot

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

FOLDER = ROOT / "examples" / "notebooks"
NOTEBOOKS = sorted(FOLDER.glob("[0-9][0-9]_*.ipynb"))
LESSONS = ["01_default_rules", "02_fold_se_step_by_step", "03_libre_lattice",
           "04_mrs_posterior", "05_explanations", "06_descriptive_models", "07_knowledge_base"]


def test_the_seven_lessons_are_there_without_outputs():
    assert [p.stem for p in NOTEBOOKS] == LESSONS
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert not cell.outputs and cell.execution_count is None, path.name
        assert any(c.cell_type == "markdown" and "Questions" in c.source for c in nb.cells), \
            f"{path.name} asks the reader no questions"


def test_notebooks_are_built_from_their_sources():
    done = subprocess.run([sys.executable, str(FOLDER / "build.py"), "--check"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def html_outputs(nb) -> str:
    return "".join(o.get("data", {}).get("text/html", "") for c in nb.cells
                   if c.cell_type == "code" for o in c.outputs)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, request, tmp_path):
    nb = nbformat.read(path, as_version=4)
    if "swipl" in nb.metadata.get("aspml", {}).get("needs", []):
        request.getfixturevalue("swipl")            # skips (or fails in CI) without swipl
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(FOLDER)}})
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as error:
        pytest.fail(f"{path.name}: a cell failed\n{error}", pytrace=False)
    html = html_outputs(nb)
    # the lessons show programs and explanations with aspml's notebook views
    assert "aspml-view" in html or "aspml-descriptive" in html, path.name
    if path.stem == "05_explanations":
        assert "aspml-explanation" in html and "aspml-counterfactual" in html
        assert 'data-rule=' in html and "row-value" in html
        rendered_in_chromium(nb, tmp_path)
    if path.stem == "06_descriptive_models":
        assert "aspml-descriptive" in html


def rendered_in_chromium(nb, tmp_path):
    """The executed lesson 5's program and explanations, as the notebook shows them, in
    headless Chromium: a picture far from blank, and the text of the rules and of the
    patient's values in the page."""
    page = tmp_path / "outputs.html"
    page.write_text('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>'
                    + html_outputs(nb) + "</body></html>", encoding="utf-8")
    width, height, colours, nonwhite = png_pixels(screenshot(page, tmp_path / "shot.png",
                                                             (1000, 800)))
    assert colours >= 6 and 0.005 < nonwhite < 0.6
    text = dom_text(dump_dom(page))
    for words in ('level with the classes "emergency", "routine", "urgent"', "ELSE IF",
                  'level = "routine" for this row because', 'level = "urgent" does not hold',
                  "age = 9", "temp = 38.5", "the exception ab2 holds"):
        assert words in text, words
