"""aspml report: one self-contained page, hostile strings escaped, opened in headless Chromium."""

import json

import numpy as np
import pandas as pd
import pytest

import aspml
from aspml.cli import main
from aspml.report import render, scatter_svg
from conftest import png_pixels, screenshot

HOSTILE = '<script>alert("x")</script> & </pre>'


def hostile_program():
    """A program whose feature, value and labels are markup."""
    from aspml import Compare, NotAtom, Program, Rule, Target
    return Program((Rule(None, (Compare(HOSTILE, ">", 5), NotAtom("ab1"))),
                    Rule("ab1", (Compare("colour", "==", "</td><td>red"),))),
                   Target("lab<b>el", "<i>yes</i>", "no&amp;"))


def hostile_table():
    return pd.DataFrame({HOSTILE: ["7", "9", "1", "8"],
                         "colour": ["</td><td>red", "blue", "blue", "green"],
                         "lab<b>el": ["<i>yes</i>", "<i>yes</i>", "no&amp;", "no&amp;"]})


BENCH = {"settings": {"folds": 3, "seed": 0},
         "results": [{"data": "heart", "learner": "fold-se", "acc": .75, "f1": .77, "rules": 8.6,
                      "literals": 25.0, "train_s": .004},
                     {"data": "heart", "learner": "<svg onload=alert(1)>", "acc": .7, "f1": .72,
                      "rules": 4.7, "literals": 12.0, "train_s": .1},
                     {"data": "breastw", "learner": "fold-se", "acc": .93, "f1": .90,
                      "rules": 4.0, "literals": 8.7, "train_s": .003}]}


def test_hostile_strings_are_escaped():
    page = render(hostile_program(), hostile_table(), hostile_table()["lab<b>el"], "m<x>.lp",
                  "d&.csv", BENCH)
    assert "<script" not in page and "<svg onload" not in page and "<i>" not in page
    assert "&lt;script&gt;" in page and "m&lt;x&gt;.lp" in page
    assert "</td><td>red" not in page
    # the structure stayed: every table and pre closes what it opens
    for tag in ("table", "pre", "svg", "tr"):
        assert page.count(f"<{tag}") == page.count(f"</{tag}>"), tag
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "<script" not in page and "src=" not in page   # no script, nothing fetched


def test_malformed_bench_is_refused_naming_the_place():
    bench = {"settings": {"folds": 3, "seed": 0},
             "results": [BENCH["results"][0], {"data": "a", "learner": "c", "f1": 0.5,
                                               "rules": "2"}]}
    with pytest.raises(aspml.AspmlError, match=r"results\[1\]: expected the keys"):
        render(hostile_program(), hostile_table(), None, "m", "d", bench)


def test_report_numbers():
    page = render(hostile_program(), hostile_table(), hostile_table()["lab<b>el"], "m", "d")
    # rows: 7 red (the exception fires) -> no, label yes: fn; 9 -> yes: tp; 1 -> no: tn;
    # 8 -> yes, label no: fp
    assert "Accuracy 0.500, precision 0.500, recall 0.500, F1 0.500" in page
    assert "0.500 (1/2)" in page          # the default rule fires on rows 1 and 3
    assert "0.000 (0/1)" in page          # the exception fires on row 0, a positive row


def test_scatter_svg_handles_nan_and_zero():
    svg = scatter_svg([("a", 0.0, 1.0, "t"), ("b", float("nan"), 0.5, "n"), ("a", 300.0, 0.2, "x")],
                      "t")
    assert svg.startswith("<svg") and svg.count("<circle") == 2 + 2   # 2 points + 2 legend dots


def test_report_opens_in_headless_chromium(tmp_path, capsys):
    model, data, bench = tmp_path / "model.lp", tmp_path / "data.csv", tmp_path / "bench.json"
    hostile_program().save(model)
    hostile_table().to_csv(data, index=False)
    bench.write_text(json.dumps(BENCH))
    out = tmp_path / "report.html"
    assert main(["report", str(model), str(data), "--bench", str(bench), "-o", str(out)]) == 0
    png = screenshot(out, tmp_path / "shot.png", (1200, 900))
    width, height, colours, nonwhite = png_pixels(png)
    assert (width, height) == (1200, 900)
    # a page with text, tables and plots, far from a blank page
    assert colours >= 6 and 0.01 < nonwhite < 0.9


def test_target_without_a_label():
    program = aspml.parse("flies(X) :- bird(X), not penguin(X).", "asp")
    X = pd.DataFrame({"bird": ["true", "true", "false"], "penguin": ["false", "true", "false"],
                      "flies": ["yes", "no", "no"]})
    page = render(program, X, X["flies"], "m", "d")
    assert "Accuracy 1.000" in page and "predicted not flies" in page


def test_multiclass_report_holds_the_confusion_matrix_of_every_class(tmp_path):
    """A multi-class program (issue #17): the confusion matrix over all its classes (and a
    label it does not know), each class's figures, each rule's coverage; through the
    command line, opened in headless Chromium; hostile class labels escaped."""
    from test_multiclass_explain import FIG_X, FIG_Y, triage
    p = triage(classes=("<b>emergency</b>", "urgent & co", "routine"))
    y = FIG_Y.replace({"emergency": "<b>emergency</b>", "urgent": "urgent & co"})
    model, data, out = tmp_path / "model.lp", tmp_path / "data.csv", tmp_path / "report.html"
    p.save(model)
    FIG_X.assign(triage=y).to_csv(data, index=False)
    assert main(["report", str(model), str(data), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    from aspml.data.csvfile import read_csv
    table = read_csv(str(data))
    assert page == render(p, table, table["triage"], "model.lp", "data.csv")
    assert "<b>" not in page and "&lt;b&gt;emergency&lt;/b&gt;" in page
    from sklearn.metrics import f1_score
    known = (y != "?").to_numpy()                              # "?": unlabelled
    macro = f1_score(y[known].astype(str),
                     np.asarray(p.predict(FIG_X[known]), dtype=object).astype(str),
                     average="macro", zero_division=0)       # "other": F1 0, as scikit-learn
    assert f"macro-F1 {macro:.3f}" in page and "Accuracy 0.667" in page
    for c in ("&quot;urgent &amp; co&quot;", "&quot;routine&quot;", "&quot;other&quot;"):
        assert f"actual {c}" in page
    assert page.count("<tr><th>actual ") == 4 and page.count("<th>predicted ") == 3
    assert "ELSE IF" in page and "rule2(X)" in page      # the decision list, its ASP print
    # the default class in the rules' table: the rows it decides, and its precision
    from aspml.report import class_figures
    f = class_figures(p, FIG_X, y)
    assert f["by_default"] and (f"<td>ELSE triage = &quot;routine&quot; <em>(default class)"
                                f"</em></td><td class=n>–</td><td class=n>{f['by_default']}"
                                "</td>") in page
    for tag in ("table", "pre", "tr"):
        assert page.count(f"<{tag}") == page.count(f"</{tag}>"), tag
    png = screenshot(out, tmp_path / "shot.png", (1000, 800))
    width, height, colours, nonwhite = png_pixels(png)
    assert (width, height) == (1000, 800) and colours >= 6 and 0.01 < nonwhite < 0.9
