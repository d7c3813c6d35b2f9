"""The notebook views (_repr_html_): structure, figures, escaping, and headless Chromium.

Golden-free: each page is parsed with html.parser into a tree and checked against
the objects it shows (the nesting of exception rules, every literal with the
row's value and its truth, the figures of aspml report)."""

import re
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings

import aspml
from aspml.explain import _show
from aspml.logic.model import NotAtom, Flag
from aspml.logic.names import text_name, visible
from aspml.report import rule_rows, truth_of
from conftest import dom_text, dump_dom, png_pixels, screenshot
from strategies import multiclass_programs_with_tables, programs_with_tables

VOID = {"br", "hr", "img", "meta", "input", "wbr"}
TAGS = {"div", "style", "p", "ol", "ul", "li", "span", "details", "summary", "b", "table", "tr",
        "th", "td", "h4", "code"}


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children, self.texts = [], []

    @property
    def classes(self):
        return set((self.attrs.get("class") or "").split())

    def text(self):
        return "".join(t if isinstance(t, str) else t.text() for t in self.texts)

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()

    def ancestors(self):
        n = self.parent
        while n is not None:
            yield n
            n = n.parent

    def find(self, tag=None, cls=None, **attrs):
        return [n for n in self.walk() if (tag is None or n.tag == tag)
                and (cls is None or cls in n.classes)
                and all(n.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())]


class Tree(HTMLParser):
    def __init__(self, html):
        super().__init__(convert_charrefs=True)
        self.root = Node("root", {}, None)
        self.at = self.root
        self.feed(html)
        self.close()
        assert self.at is self.root, f"unclosed <{self.at.tag}>"

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.at)
        self.at.children.append(node)
        self.at.texts.append(node)
        if tag not in VOID:
            self.at = node

    def handle_endtag(self, tag):
        assert self.at.tag == tag, f"</{tag}> closes <{self.at.tag}>"
        self.at = self.at.parent

    def handle_data(self, data):
        if self.at.tag != "style":
            self.at.texts.append(data)


def tree(html, tags=TAGS):
    t = Tree(html).root
    assert tags is None or {n.tag for n in t.walk()} - {"root"} <= tags
    return t


BIRDS = """flies(X) :- bird(X), not ab1(X).
ab1(X) :- penguin(X), not ab2(X).
ab2(X) :- superpenguin(X).
ab1(X) :- wounded(X)."""
ANIMALS = pd.DataFrame({"bird": ["true", "true", "true", "true", "false"],
                        "penguin": ["false", "true", "true", "false", "false"],
                        "superpenguin": ["false", "false", "true", "false", "false"],
                        "wounded": ["false", "false", "false", "true", "false"],
                        "flies": ["yes", "no", "yes", "no", "no"]})


def rule_items(t):
    return {int(n.attrs["data-rule"]): n for n in t.find("li", cls="rule")}


def test_exceptions_are_nested_under_the_rules_that_use_them():
    program = aspml.parse(BIRDS, "asp")
    t = tree(program._repr_html_())
    items = rule_items(t)
    assert sorted(items) == [1, 2, 3, 4]
    assert items[1].parent.tag == "ol"                      # the default rule at the top
    for exc, user in ((2, 1), (4, 1), (3, 2)):              # ab1's two rules, ab2's one
        assert items[user] in items[exc].ancestors()
        assert "exception" in items[exc].classes
    assert items[2] not in items[4].ancestors()             # siblings, not nested
    text = items[1].text()
    assert "IF bird AND NOT ab1 THEN flies" in re.sub(r"\s+", " ", text)
    assert "fires on" not in text                           # a plain program: no data, no figures
    assert repr(program).startswith("Program(")             # the plain repr is unchanged


def test_figures_are_the_reports():
    program = aspml.parse(BIRDS, "asp")
    t = tree(program.to_html(ANIMALS, ANIMALS["flies"]))
    known, truth = truth_of(ANIMALS["flies"], None)
    for r in rule_rows(program, ANIMALS, known, truth):
        fig = rule_items(t)[r["index"]].find("span", cls="fig")[0].text()
        assert f"fires on {r['covers']}" in fig
        assert f"precision {r['precision']:.3f} ({r['right']}/{r['labelled']})" in fig


def test_a_fitted_learner_shows_its_training_figures():
    X = pd.DataFrame({"a": np.arange(40) % 7, "b": np.arange(40) % 5})
    y = np.where((X["a"] > 3) & (X["b"] != 2), "yes", "no")
    clf = aspml.FoldSE()
    assert "aspml-program" not in clf._repr_mimebundle_()["text/html"]   # sklearn's diagram
    clf.fit(X, y)
    t = tree(clf._repr_mimebundle_()["text/html"])
    program = clf.program_
    known, truth = truth_of(pd.Series(y), program.target.positive)
    rows = rule_rows(program, X, known, truth)
    items = rule_items(t)
    assert len(items) == program.n_rules == len(rows)
    for r in rows:
        fig = items[r["index"]].find("span", cls="fig")[0].text()
        assert f"fires on {r['covers']}" in fig and f"({r['right']}/{r['labelled']})" in fig
    assert "FoldSE" in t.text() and "training rows" in t.text()


@pytest.mark.parametrize("as_given", [lambda y: y, lambda y: np.asarray(y), list])
def test_binary_figures_read_labels_of_the_type_fit_takes(as_given):
    """``to_html(X, y)`` with the labels ``fit`` took (booleans, a numpy array, a list):
    the training figures, not precision 0 and not a crash."""
    X = pd.DataFrame({"a": np.arange(100), "b": np.arange(100) % 3})
    y = X["a"] > 50
    clf = aspml.FoldSE().fit(X, y)
    shown = aspml.display.rule_figures(clf.program_, X, as_given(y))
    assert shown == clf.training_figures_
    assert shown[0]["precision"] == 1.0


def test_multiclass_program_figures_decide_in_order():
    X = pd.DataFrame({"x": np.arange(60) % 10, "z": np.arange(60) % 3})
    y = np.where(X["x"] < 3, "low", np.where(X["x"] < 7, "mid", "high"))
    clf = aspml.FoldSE().fit(X, y)
    p = clf.program_
    t = tree(clf._repr_mimebundle_()["text/html"])
    items = rule_items(t)
    first = aspml.evaluate.first_rules(p, X)
    default = [i for i, r in enumerate(p.rules) if r.head is None]
    for k, i in enumerate(default):
        fig = items[i + 1].find("span", cls="fig")[0].text()
        assert f"decides {int((first == k).sum())}" in fig
        words = items[i + 1].text()
        assert ("ELSE IF" in words) == (k > 0)
    assert "ELSE" in t.find("div", cls="else")[0].text()


def checks_of(details):
    """The check items directly under a rule's <details>."""
    ul = [c for c in details.children if c.tag == "ul" and "checks" in c.classes][0]
    return [c for c in ul.children if c.tag == "li"]


def assert_matches(rule_check, details, row):
    """A rule's <details> shows each literal of the rule, its truth, and the row's value;
    each exception's rules nested inside its item."""
    assert int(details.attrs["data-rule"]) == rule_check.index + 1
    assert ("fires" in details.classes) == rule_check.fires
    items = checks_of(details)
    assert len(items) == len(rule_check.checks)
    for c, li in zip(rule_check.checks, items):
        assert li.attrs["data-holds"] == str(c.holds).lower()
        if c.exception is not None:
            name = c.literal.name if isinstance(c.literal, NotAtom) else c.literal.feature
            assert li.attrs["data-atom"] == visible(name) or li.attrs["data-atom"] == name
            inner = [d for d in li.find("details", cls="rule")
                     if d.parent.parent is li or d.parent is li.children[0]]
            for r, d in zip(c.exception.rules, inner):
                assert_matches(r, d, row)
        else:
            value = li.find("span", cls="row-value")[0]
            assert value.attrs["data-feature"] == c.literal.feature
            assert value.text() == visible(f"{text_name(c.literal.feature)} = {_show(c.value)}")


@pytest.mark.parametrize("k", range(len(ANIMALS)))
def test_explanation_tree_holds_every_literal_with_the_rows_value(k):
    program = aspml.parse(BIRDS, "asp")
    x = aspml.explain(program, ANIMALS.iloc[k])
    t = tree(x._repr_html_())
    top = [d for d in t.find("details", cls="rule")
           if not any(a.tag == "li" for a in d.ancestors())]
    assert sorted(int(d.attrs["data-rule"]) for d in top) == [r.index + 1 for r in x.target.rules]
    for d in top:
        assert_matches(next(r for r in x.target.rules if r.index + 1 == int(d.attrs["data-rule"])),
                       d, ANIMALS.iloc[k])
    verdict = t.find("p", cls="verdict")[0].text()
    assert ("does not hold" in verdict) != bool(x.prediction)
    # the exception's reasons are nested under NOT ab1: ab1's rules (2 and 4) inside rule 1
    one = next(d for d in top if d.attrs["data-rule"] == "1")
    ab1 = one.find("li", data_atom="ab1")[0]
    assert {d.attrs["data-rule"] for d in ab1.find("details", cls="rule")} >= {"2", "4"}


def test_multiclass_explanation_why_and_why_not():
    program = aspml.parse('CLASSES "a", "b", "c"\n'
                          'IF x > 5 AND NOT ab1 THEN label = "a"\n'
                          'ELSE IF z = "red" THEN label = "b"\n'
                          'ELSE IF x > 2 THEN label = "a"\n'
                          'ELSE label = "c"\n'
                          'IF z = "blue" THEN ab1\n', "text")
    row = {"x": 7, "z": "blue"}                 # ab1 blocks rule 1; rule 2 fails; rule 3 decides
    x = aspml.explain(program, row)
    assert x.prediction == "a"
    t = tree(x._repr_html_())
    assert 'label = "a" for this row because' in t.find("p", cls="verdict")[0].text()
    rules = {d.attrs["data-rule"]: d for d in t.find("details", cls="rule")
             if not any(a.tag == "li" for a in d.ancestors())}
    assert "fires" in rules["3"].classes and "open" in rules["3"].attrs
    assert "fails" in rules["2"].classes              # the earlier rule of another class
    assert "2" in {str(r.index + 1) for r in x.earlier}
    w = aspml.explain(program, row, why_not="b")
    t = tree(w._repr_html_())
    assert 'label = "b" does not hold for this row' in t.find("p", cls="verdict")[0].text()
    own = [d for d in t.find("details", cls="rule") if d.attrs["data-rule"] == "2"]
    assert own and "fails" in own[0].classes
    li = [c for c in checks_of(own[0]) if c.attrs["data-holds"] == "false"][0]
    assert li.find("span", cls="row-value")[0].text() == 'z = "blue"'
    c = aspml.explain(program, row, why_not="c")        # the default class: which rule blocks it
    assert "is the default class" in tree(c._repr_html_()).text()


def test_counterfactual_view():
    program = aspml.parse(BIRDS, "asp")
    cf = aspml.counterfactual(program, ANIMALS.iloc[1], target=True)
    t = tree(cf._repr_html_())
    rows = t.find("tr")[1:]
    assert {r.attrs["data-feature"] for r in rows} == set(cf.changes)
    assert f"then rule {cf.rule + 1} fires" in t.text()
    assert "IF bird AND NOT ab1 THEN flies" in re.sub(r"\s+", " ", t.text())


def test_descriptive_model_view_is_scoped():
    from sklearn.tree import DecisionTreeClassifier
    from aspml.generalize import generalize
    X = pd.DataFrame({"a": np.arange(30) % 6, "b": np.arange(30) % 4})
    y = (X["a"] > 2).astype(int)
    model = generalize(DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y), rho=0.8,
                       reference=X)
    html = model._repr_html_()
    assert tree(html, None).children[0].classes == {"aspml-descriptive"}
    style = re.search(r"<style>(.*?)</style>", html, re.S).group(1)
    # no rule of the page's sheet restyles the notebook around the view
    for selectors in re.findall(r"([^{}]+)\{", style):
        for s in selectors.split(","):
            assert s.strip().startswith(".aspml-descriptive"), s
    assert "Table view" in html and "Glyph view" in html


def hostile_checks(program, X):
    html = program.to_html(X)
    t = tree(html)
    text = t.text()
    assert "<script" not in html.lower()
    for f in program.features_used:
        assert visible(text_name(f)) in text
    assert len(rule_items(t)) >= len(program.default_rules)
    for k in range(min(len(X), 2)):
        x = aspml.explain(program, X.iloc[k])
        tx = tree(x._repr_html_())
        shown = {visible(f"{text_name(f)} = {_show(v)}") for f, v in x.row.items()}
        for li in tx.find("span", cls="row-value"):
            assert li.text() in shown


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(programs_with_tables())
def test_hostile_strings_are_escaped_binary(pt):
    hostile_checks(*pt)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(multiclass_programs_with_tables())
def test_hostile_strings_are_escaped_multiclass(pt):
    hostile_checks(*pt)


def test_a_hostile_name_is_text_not_markup():
    program = aspml.Program((aspml.Rule(None, (aspml.Compare("<b>x</b>", "==", "<i>y'\"&</i>"),
                                               aspml.Flag("ro\u200bme", True))),),
                            aspml.Target("<script>alert(1)</script>", "<img src=x>"))
    html = program._repr_html_()
    assert "<script>" not in html and "<img" not in html and "<b>x" not in html
    t = tree(html)
    assert 'ro\\u200bme' in t.text() and "<script>alert(1)</script>" in t.text()
    x = aspml.explain(program, {"<b>x</b>": "<i>y'\"&</i>", "ro\u200bme": True})
    tx = tree(x._repr_html_())
    assert "\"<i>y'\\\"&</i>\"" in tx.text()


# -- headless Chromium: the views as a notebook shows them ---------------------------

def test_views_render_in_headless_chromium(tmp_path):
    program = aspml.parse(BIRDS, "asp")
    x = aspml.explain(program, ANIMALS.iloc[2])        # a superpenguin: the exception fails
    page = tmp_path / "views.html"
    page.write_text('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>'
                    + program.to_html(ANIMALS, ANIMALS["flies"]) + x._repr_html_()
                    + "</body></html>", encoding="utf-8")
    width, height, colours, nonwhite = png_pixels(screenshot(page, tmp_path / "shot.png",
                                                             (900, 600)))
    assert (width, height) == (900, 600)
    assert colours >= 6 and 0.005 < nonwhite < 0.6       # coloured text, far from blank
    text = dom_text(dump_dom(page))
    for words in ("IF bird AND NOT ab1 THEN flies", "IF penguin AND NOT ab2 THEN ab1",
                  "IF superpenguin THEN ab2", "fires on 2 · precision 1.000 (2/2)",
                  "superpenguin = true",
                  "rule 3 fires", "flies holds for this row"):
        assert words in text, words
