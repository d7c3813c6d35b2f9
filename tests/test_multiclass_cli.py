"""Multi-class programs through the command line and the tools around it (issue #17):
``aspml learn`` without ``--positive``, ``predict``, ``check``, ``explain``, ``export``,
``report``, ``bench`` and ``simplify``, each as a user runs it."""

import io
import json
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import f1_score, precision_score, recall_score

import aspml
from aspml.bench import fold_scores, macro_scores
from aspml.logic.model import Compare, Program, Rule, Target


def _iris():
    from sklearn.datasets import load_iris
    X, y = load_iris(return_X_y=True, as_frame=True)
    X.columns = ["sepal_length", "sepal_width", "petal_length", "petal_width"]
    names = np.array(["setosa", "versicolor", "virginica"], dtype=object)
    return X, names[y.to_numpy()]


def _hand_program():
    t = Target("species", classes=("setosa", "versicolor", "virginica"), default="virginica")
    return Program((Rule(None, (Compare("petal_length", "<=", 2.5),), label="setosa"),
                    Rule(None, (Compare("petal_width", "<=", 1.7),), label="versicolor")),
                   target=t)


def test_macro_scores_equal_scikit_learn():
    rng = np.random.default_rng(0)
    truth = rng.choice(np.array(["a", "b", "c", "d"], dtype=object), 200)
    pred = truth.copy()
    flip = rng.random(200) < 0.4
    pred[flip] = rng.choice(np.array(["a", "b", "c"], dtype=object), flip.sum())  # "d" never
    s = macro_scores(pred, truth)
    assert s["acc"] == pytest.approx(np.mean(pred == truth))
    assert s["f1"] == pytest.approx(f1_score(truth, pred, average="macro", zero_division=0))
    assert s["precision"] == pytest.approx(precision_score(truth, pred, average="macro",
                                                          zero_division=0))
    assert s["recall"] == s["bal_acc"] == pytest.approx(recall_score(truth, pred, average="macro"))
    assert fold_scores(pred, truth) == s                 # labels, not Booleans: macro
    # a row with no class (None) is wrong for every class, and one more label
    pred[:10] = None
    s = macro_scores(pred, truth)
    assert s["acc"] == pytest.approx(np.mean(pred == truth))
    named = np.where(pred == None, "(no class)", pred)               # noqa: E711
    assert s["f1"] == pytest.approx(f1_score(truth, named, average="macro", zero_division=0))
    # a class given but never seen counts at F1 0 (scikit-learn's f1_macro, which the
    # docs recommend to GridSearchCV); balanced accuracy averages the seen classes
    pred[10:30] = "e"
    s = macro_scores(pred, truth)
    named = np.where(pred == None, "(no class)", pred)               # noqa: E711
    for key, score in (("f1", f1_score), ("precision", precision_score),
                       ("recall", recall_score)):
        assert s[key] == pytest.approx(score(truth, named, average="macro", zero_division=0))
    from sklearn.metrics import balanced_accuracy_score
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "y_pred contains classes not in y_true"
        assert s["bal_acc"] == pytest.approx(balanced_accuracy_score(truth, named))


def test_simplify_reads_a_multiclass_programs_rules():
    X, y = _iris()
    p = _hand_program()
    m = aspml.generalize(p, rho=0.8, reference=X)
    predictions = {r.prediction for r in m.rules}
    assert predictions == {"setosa", "versicolor"}       # each rule predicts its own class
    assert "THEN species = \"setosa\"" in m.to_text()


def test_simplify_says_when_two_classes_rules_of_a_decision_list_overlap(tmp_path):
    # a trial: rule 3 of A after two rules of B; the descriptive model printed 'IF a >= 0.526
    # THEN A [CC 1.00]' though the program answers B on part of that box, without a word
    X = pd.DataFrame({"a": [0.1, 0.6, 0.9, 0.7, 0.2], "b": [1.0, 1.0, 5.0, 5.0, 5.0]})
    rules = (Rule(None, (Compare("b", "<", 2),), label="B"),
             Rule(None, (Compare("a", ">=", 0.5),), label="A"))
    p = Program(rules, Target("y", classes=("B", "A", "C"), default="C"))
    with pytest.warns(aspml.errors.AspmlWarning,
                      match=r"rules 1 \('B'\) and 2 \('A'\) of this decision list can hold on one"):
        aspml.generalize(p, rho=0.8, reference=X)
    apart = Program((rules[0], Rule(None, (Compare("b", ">=", 2), Compare("a", ">=", 0.5)),
                                    label="A")), p.target)
    with warnings.catch_warnings():
        warnings.simplefilter("error")               # the boxes exclude each other: no note
        aspml.generalize(apart, rho=0.8, reference=X)
    X.assign(y=p.predict(X)).to_csv(tmp_path / "d.csv", index=False)
    aspml.logic.store.save(p, tmp_path / "p.lp")
    done = run_aspml("simplify", tmp_path / "p.lp", "--rho", 0.8, "--reference", tmp_path / "d.csv")
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("aspml simplify: note: rules 1 ('B') and 2 ('A')")


# -- the command line -----------------------------------------------------------------

from conftest import ROOT, one_line_error, predict_with_every_engine, run_aspml  # noqa: E402


@pytest.fixture(scope="module")
def iris_csv(tmp_path_factory):
    X, y = _iris()
    path = tmp_path_factory.mktemp("iris") / "iris.csv"
    X.assign(species=y).to_csv(path, index=False)
    return path


@pytest.fixture(scope="module")
def learned(iris_csv):
    """``aspml learn`` without --positive, saved as .lp and as .pl."""
    out = {}
    for suffix in ("lp", "pl"):
        model = iris_csv.parent / f"iris.{suffix}"
        done = run_aspml("learn", iris_csv, "--target", "species", "-o", model)
        assert done.returncode == 0, done.stderr
        out[suffix] = (model, done.stdout)
    return out


def test_learn_without_positive_learns_every_class(learned, iris_csv):
    model, stdout = learned["lp"]
    assert "for 3 classes" in stdout and "macro-F1" in stdout
    assert 'THEN species = "setosa"' in stdout and "\nELSE species = " in stdout
    p = aspml.load(model)
    assert p.is_multiclass and set(p.classes) == {"setosa", "versicolor", "virginica"}
    assert aspml.load(learned["pl"][0]) == p                 # .pl and .lp: one program
    # --positive keeps today's binary program
    done = run_aspml("learn", iris_csv, "--target", "species", "--positive", "setosa")
    assert done.returncode == 0 and "for 3 classes" not in done.stdout
    assert "macro-F1" not in done.stdout and "ELSE species = \"not setosa\"" in done.stdout


def test_predict_gives_each_rows_class_in_every_engine(learned, iris_csv):
    X, y = _iris()
    for suffix in ("lp", "pl"):
        model = learned[suffix][0]
        answers = predict_with_every_engine(model, iris_csv)
        assert answers["fast"] == answers["clingo"] == answers["prolog"]
        got = np.array([line.split(",", 1)[1] for line in answers["fast"]], dtype=object)
        assert np.mean(got == y) > 0.9
        # a file written by predict reads back as the same classes
    out = iris_csv.parent / "predicted.csv"
    assert run_aspml("predict", learned["lp"][0], iris_csv, "-o", out).returncode == 0
    again = pd.read_csv(out)
    assert list(again["species"]) == list(aspml.load(learned["lp"][0]).predict(X))


def test_check_prints_classes_rules_and_the_confusion_matrix(learned, iris_csv):
    done = run_aspml("check", learned["lp"][0], iris_csv)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "fast path and clingo agree on every row: True" in text
    for c in ("setosa", "versicolor", "virginica"):
        assert f'class "{c}": given to' in text
    default = aspml.load(learned["lp"][0]).target.default
    line = next(line for line in text.splitlines() if f'class "{default}": given to' in line)
    # "1 rule and the default" (a trial read "(1 rule, the default)" as the rule being it)
    assert re.search(r"\((the default|\d+ rules? and the default)\)", line), line
    assert "confusion matrix" in text and "macro-F1" in text
    matrix = text.split("confusion matrix")[1].splitlines()[2:5]
    counts = [[int(n) for n in line.split()[1:]] for line in matrix]
    assert sum(map(sum, counts)) == 150
    assert "decides" in text
    # without a label column: the classes given, no matrix
    X, _ = _iris()
    bare = iris_csv.parent / "bare.csv"
    X.to_csv(bare, index=False)
    done = run_aspml("check", learned["lp"][0], bare)
    assert done.returncode == 0 and "confusion" not in done.stdout and "given to" in done.stdout


@pytest.mark.parametrize("suffix", ["lp", "pl"])
def test_check_runs_swi_prolog_when_asked(learned, iris_csv, swipl, suffix):
    """``check --prolog`` runs the program in SWI-Prolog too (a deployment trial: no
    command checked the engine a Prolog deployer ships); binary programs too."""
    done = run_aspml("check", learned[suffix][0], iris_csv, "--prolog")
    assert done.returncode == 0, done.stderr
    assert "150 rows; fast path and clingo agree on every row: True\n" \
        "150 rows; fast path and SWI-Prolog agree on every row: True\n" in done.stdout
    assert "SWI-Prolog" not in run_aspml("check", learned[suffix][0], iris_csv).stdout
    birds = ROOT / "examples" / "birds"
    done = run_aspml("check", birds / "birds.lp", birds / "birds.csv", "--prolog")
    assert done.returncode == 0 and "fast path and SWI-Prolog agree on every row: True" \
        in done.stdout


def test_check_prolog_without_swipl_says_so_first(monkeypatch, tmp_path):
    """No swipl on PATH: one line, exit 2, before clingo runs (a review: after it)."""
    monkeypatch.setenv("PATH", str(tmp_path))
    called = []
    monkeypatch.setattr(aspml.asp, "predict", lambda *a, **k: called.append(1))
    birds = ROOT / "examples" / "birds"
    done = run_aspml("check", birds / "birds.lp", birds / "birds.csv", "--prolog")
    assert done.returncode == 2 and "swipl" in done.stderr and done.stdout == "" and not called
    assert len(done.stderr.strip().splitlines()) == 1


def test_check_names_the_rows_an_engine_answers_otherwise(monkeypatch, capsys):
    """The report of a disagreement names the rows (an engine made to answer otherwise on
    rows 1 and 3: aspml's engines agree, so only a changed one can show the message)."""
    from aspml import cli
    birds = ROOT / "examples" / "birds"
    real = aspml.asp.predict

    def wrong(program, X, *a, **k):
        out = np.asarray(real(program, X, *a, **k)).copy()
        out[[1, 3]] = ~out[[1, 3]]
        return out
    monkeypatch.setattr(aspml.asp, "predict", wrong)
    assert cli.main(["check", str(birds / "birds.lp"), str(birds / "birds.csv")]) == 1
    assert "fast path and clingo agree on every row: False (rows 1, 3)" in capsys.readouterr().out


def test_explain_why_and_why_not_from_the_command_line(learned, iris_csv):
    model = learned["pl"][0]
    p = aspml.load(model)
    X, _ = _iris()
    row = 120
    got = p.predict(X.iloc[[row]])[0]
    other = next(c for c in p.classes if c != got)
    done = run_aspml("explain", model, iris_csv, "--row", row, "--why-not", other,
                     "--counterfactual")
    assert done.returncode == 0, done.stderr
    assert f'species = "{other}" does not hold' in done.stdout
    assert f'To get class "{other}": change' in done.stdout
    done = run_aspml("explain", model, iris_csv, "--row", row, "--why-not", other,
                     "--counterfactual", "--json")
    import json
    out = json.loads(done.stdout)
    assert out["counterfactual"]["class"] == other
    # the supporting atoms name the row asked about, as export --facts numbers it (a trial:
    # --row 62 gave species(0,...)), and so does Python's explain of X.iloc[row]
    assert f'species({row},"{got}")' in out["supporting_atoms"]
    assert not any("(0" in a for a in out["supporting_atoms"])
    assert aspml.explain(p, X.iloc[row]).to_dict()["supporting_atoms"] == out["supporting_atoms"]
    changed = X.iloc[[row]].copy()
    for f, (_, new) in out["counterfactual"]["changes"].items():
        changed[f] = new
    assert p.predict(changed)[0] == other                      # the change does give it
    # no --why-not: the nearest other class
    done = run_aspml("explain", model, iris_csv, "--row", row, "--counterfactual")
    assert done.returncode == 0 and "To get another class: change" in done.stdout
    one_line_error(run_aspml("explain", model, iris_csv, "--row", row, "--why-not", "tulip"),
                   "tulip", "setosa")
    # --counterfactual CLASS: as --why-not CLASS --counterfactual (a trial wrote it so
    # and was told "unrecognized arguments"), with --json too; an unknown or second
    # class is one line naming the option
    for extra in ((), ("--json",)):
        named = run_aspml("explain", model, iris_csv, "--row", row, "--counterfactual", other,
                          *extra)
        assert named.returncode == 0, named.stderr
        assert named.stdout == run_aspml("explain", model, iris_csv, "--row", row, "--why-not",
                                         other, "--counterfactual", *extra).stdout
    assert run_aspml("explain", model, iris_csv, "--row", row, f"--counterfactual={other}",
                     "--json").stdout == named.stdout
    # the option before MODEL or DATA takes no file for its class (a review: argparse's
    # optional value swallowed them)
    plain = run_aspml("explain", model, iris_csv, "--row", row, "--counterfactual")
    for words in (("--counterfactual", model, iris_csv), (model, "--counterfactual", iris_csv)):
        done = run_aspml("explain", *words, "--row", row)
        assert done.returncode == 0 and done.stdout == plain.stdout, done.stderr
    one_line_error(run_aspml("explain", model, iris_csv, "--row", row, "--counterfactual",
                             "tulip"), "--counterfactual", "tulip")
    one_line_error(run_aspml("explain", model, iris_csv, "--row", row, "--why-not", got,
                             "--counterfactual", other), "name two classes")


def test_why_not_names_a_number_class_as_python_does(tmp_path):
    """A trial: ``--why-not 2.0`` was refused where Python's ``why_not=2.0`` names the
    class 2; the text of a number names a number class (not a number: still an error)."""
    p = aspml.parse("CLASSES 1, 2, 3\nIF x > 1 THEN label = 2\nELSE IF x > 0 THEN label = 3\n"
                    "ELSE label = 1", "text")
    model, data = tmp_path / "m.lp", tmp_path / "d.csv"
    p.save(model)
    data.write_text("x\n-1\n0.5\n")
    for text in ("2", "2.0", " 2"):
        out = run_aspml("explain", model, data, "--row", 0, "--why-not", text)
        assert out.returncode == 0 and "label = 2 does not hold" in out.stdout, out.stderr
    assert aspml.explain(p, {"x": -1}, why_not=2.0).to_text() == \
        aspml.explain(p, {"x": -1}, why_not="2.0").to_text()
    one_line_error(run_aspml("explain", model, data, "--row", 0, "--why-not", "2.5"), "2.5")


def test_why_not_on_a_binary_program_names_one_of_its_answers(iris_csv, tmp_path):
    """A program learned with --positive answers its label or "not" it: --why-not names
    one of them (a trial typed the class it had learned; it was refused), and the
    explanation is the binary one, which says why the other answer does not hold; any
    other value is one line."""
    model = tmp_path / "binary.lp"
    assert run_aspml("learn", iris_csv, "--target", "species", "--positive", "setosa",
                     "-o", model).returncode == 0
    plain = run_aspml("explain", model, iris_csv, "--row", 0)      # a setosa row
    assert plain.returncode == 0 and 'species = "setosa" holds' in plain.stdout
    p = aspml.load(model)
    row = _iris()[0].iloc[0]
    for asked in ("setosa", "not setosa", "True", "false"):
        done = run_aspml("explain", model, iris_csv, "--row", 0, "--why-not", asked)
        assert done.returncode == 0, done.stderr
        # as Python's explain answers it: its own answer "does not arise"
        answer = asked in ("setosa", "True")
        assert done.stdout == aspml.explain(p, row, why_not=answer).to_text()
        assert done.stdout.startswith("The row gets this answer") == answer
        assert done.stdout.endswith(plain.stdout)
    same = run_aspml("explain", model, iris_csv, "--row", 0, "--why-not", "setosa",
                     "--counterfactual")
    assert same.stdout.endswith('No change is needed: the row already gets "setosa".\n')
    other = run_aspml("explain", model, iris_csv, "--row", 0, "--why-not", "not setosa",
                      "--counterfactual")
    assert other.stdout == run_aspml("explain", model, iris_csv, "--row", 0,
                                     "--counterfactual").stdout
    assert "To get the other answer: change" in other.stdout
    assert run_aspml("explain", model, iris_csv, "--row", 0, "--counterfactual",
                     "not setosa").stdout == other.stdout
    done = run_aspml("explain", model, iris_csv, "--row", 0, "--why-not", "setosa",
                     "--counterfactual", "--json")
    assert json.loads(done.stdout)["counterfactual"] == {"changes": {}, "rule": None,
                                                         "distance": 0.0, "any_other": [],
                                                         "answer": "setosa"}
    one_line_error(run_aspml("explain", model, iris_csv, "--row", 0, "--why-not",
                             "virginica"), "--why-not", "not an answer of this binary")


def test_export_report_and_simplify_read_a_multiclass_program(learned, iris_csv, tmp_path):
    model = learned["lp"][0]
    p = aspml.load(model)
    for dialect in ("asp", "prolog", "scasp", "text"):
        done = run_aspml("export", model, "--to", dialect)
        assert done.returncode == 0, done.stderr
        back = aspml.parse(done.stdout, dialect)
        assert back.classes == p.classes or dialect in ("scasp", "text")
        X, _ = _iris()
        assert list(back.predict(X)) == list(p.predict(X))
    page = tmp_path / "r.html"
    done = run_aspml("report", model, iris_csv, "-o", page)
    assert done.returncode == 0, done.stderr
    assert "Confusion matrix" in page.read_text(encoding="utf-8")
    libre = tmp_path / "libre.lp"
    assert run_aspml("learn", iris_csv, "--target", "species", "--learner", "mrs",
                     "-o", libre).returncode == 0
    done = run_aspml("simplify", libre, "--rho", 0.8, "--reference", iris_csv)
    assert done.returncode == 0, done.stderr
    assert "THEN species = " in done.stdout


def test_bench_on_a_multiclass_csv_reports_macro_scores(iris_csv, tmp_path):
    import importlib.util
    binary_only = ["foldrpp"] if importlib.util.find_spec("foldrpp") else []
    done = run_aspml("bench", iris_csv, "--target", "species", "--learners", "fold-se", "tree",
                     *binary_only, "--folds", 3, "--quiet", "--out", tmp_path / "res")
    assert done.returncode == 0, done.stderr                            # a skip is no failure
    assert "on the multi-class iris: F1, precision and recall are macro averages" in done.stdout
    import json
    results = json.loads((tmp_path / "res.json").read_text())["results"]
    got = {r["learner"]: r for r in results}
    assert set(got) >= {"fold-se", "tree"} and "foldrpp" not in got   # binary-only: left out
    for r in got.values():
        assert r["acc"] > 0.85 and 0.8 < r["f1"] <= 1
        assert r["bal_acc"] == pytest.approx(r["recall"])


def test_bench_runs_manifest_datasets_with_every_class(data_dir, tmp_path):
    # balance says (multi-class) in the manifest: named, it runs with all its classes;
    # wine names a positive class: --multiclass runs every class
    done = run_aspml("bench", "--data-dir", data_dir, "--datasets", "balance", "wine",
                     "--multiclass", "--learners", "fold-se", "--folds", 3, "--quiet",
                     "--out", tmp_path / "res")
    assert done.returncode == 0, done.stderr
    import json
    saved = json.loads((tmp_path / "res.json").read_text())
    assert saved["settings"]["positive"] == {"balance": None, "wine": None}
    assert all(r["acc"] > 0.6 for r in saved["results"])
    one_line_error(run_aspml("bench", "--data-dir", data_dir, "--datasets", "wine@3",
                             "--multiclass", "--learners", "fold-se"), "wine@3", "every class")
    # without --multiclass, the default run leaves the (multi-class) datasets out
    from aspml.bench import default_names, read_manifest
    manifest = read_manifest(data_dir)
    assert "wine" in default_names(manifest, {}) and "balance" not in default_names(manifest, {})
    assert "balance" in default_names(manifest, {}, multiclass=True)
    assert "balance" in default_names(manifest, {"balance": "B"})


def test_label_codes_that_read_as_one_number_stay_apart(tmp_path):
    # "01" and "1" are two codes: read as numbers they would merge into one class
    X, y = _iris()
    codes = np.array(["01", "1", "2"], dtype=object)[pd.Series(y).map(
        {"setosa": 0, "versicolor": 1, "virginica": 2}).to_numpy()]
    data = tmp_path / "codes.csv"
    X.assign(y=codes).to_csv(data, index=False)
    model = tmp_path / "codes.lp"
    done = run_aspml("learn", data, "--target", "y", "-o", model)
    assert done.returncode == 0 and "for 3 classes" in done.stdout, done.stderr
    assert set(aspml.load(model).classes) == {"01", "1", "2"}
    answers = predict_with_every_engine(model, data)
    assert answers["fast"] == answers["clingo"] == answers["prolog"]
    got = [line.split(",", 1)[1] for line in answers["fast"]]
    assert np.mean(np.array(got, dtype=object) == codes) > 0.9 and "01" in got


def test_a_code_beside_a_float_written_label_keeps_every_label_as_written(tmp_path):
    """"1", "01" and "1.0": "01" is a code, so every label stays as written, three
    classes, in learn as in check and bench (a new-user trial: learn merged "1.0" into
    "1", a program of two classes where check found 41 rows of neither)."""
    rng = np.random.default_rng(2)
    x = rng.integers(0, 30, 120)
    labels = np.where(x < 10, "1", np.where(x < 20, "01", "1.0"))
    data = tmp_path / "numstr.csv"
    pd.DataFrame({"x": x, "label": labels}).to_csv(data, index=False)
    model = tmp_path / "ns.lp"
    done = run_aspml("learn", data, "--target", "label", "-o", model, "--quiet")
    assert done.returncode == 0 and "for 3 classes" in done.stdout, done.stderr
    assert set(aspml.load(model).classes) == {"1", "01", "1.0"}
    done = run_aspml("check", model, data)
    assert "accuracy 1.000" in done.stdout and "neither" not in done.stdout, done.stdout
    got = [line.split(",", 1)[1] for line in predict_with_every_engine(model, data)["fast"]]
    assert got == labels.tolist()
    done = run_aspml("learn", data, "--target", "label", "--positive", "1.0", "--quiet")
    assert done.returncode == 0 and 'ELSE label = "not 1.0"' in done.stdout, done.stderr
    done = run_aspml("learn", data, "--target", "label", "--positive", "01", "--quiet")
    assert done.returncode == 0 and 'ELSE label = "not 01"' in done.stdout, done.stderr


def test_a_label_of_fractions_is_a_quantity_not_classes(tmp_path):
    X, _ = _iris()
    data = tmp_path / "f.csv"
    X.assign(f=X["petal_length"] / 7).to_csv(data, index=False)
    for command in (("learn", data, "--target", "f"),
                    ("bench", data, "--target", "f", "--learners", "fold-se")):
        one_line_error(run_aspml(*command), "not whole", "--positive")


def test_a_few_fractions_are_classes_and_not_x_is_no_class_of_the_table(tmp_path, swipl):
    """A label of three values 1.5, 2 and 3 is classes (it was refused as a quantity, with
    no way round it); and with --positive, the others' label is not a class the table
    already holds ("not setosa" beside "setosa" and "other": every "other" row used to
    be predicted "not setosa", silently)."""
    X, y = _iris()
    data = tmp_path / "g.csv"
    X.assign(g=np.select([y == "setosa", y == "versicolor"], [1.5, 2.0], 3.0)).to_csv(
        data, index=False)
    model = tmp_path / "g.lp"
    done = run_aspml("learn", data, "--target", "g", "-o", model)
    assert done.returncode == 0 and "for 3 classes" in done.stdout, done.stderr
    assert sorted(aspml.load(model).classes) == [1.5, 2, 3]
    answers = predict_with_every_engine(model, data)
    assert answers["fast"] == answers["clingo"] == answers["prolog"]
    named = tmp_path / "n.csv"
    X.assign(kind=np.select([y == "setosa", y == "versicolor"], ["setosa", "not setosa"],
                            "other")).to_csv(named, index=False)
    model = tmp_path / "n.lp"
    done = run_aspml("learn", named, "--target", "kind", "--positive", "setosa", "-o", model)
    assert done.returncode == 0, done.stderr
    p = aspml.load(model)
    assert p.target.positive == "setosa" and p.target.negative == "not setosa (2)"
    got = predict_with_every_engine(model, named)["fast"]
    assert {line.split(",", 1)[1] for line in got} == {"setosa", "not setosa (2)"}


def test_a_descriptive_model_of_one_class_says_not_that_class_elsewhere():
    # the default class has no rules: "the other class" is not the one other class with rules
    X, _ = _iris()
    p = _hand_program()                       # rules for setosa, versicolor; default virginica
    one = aspml.generalize(p, rho=0.8, reference=X).to_program(positive="versicolor")
    assert one.target.positive == "versicolor" and one.target.negative is None
    two = Program(p.rules[:1], target=Target("species", classes=("setosa", "other"),
                                            default="other"))
    assert aspml.generalize(two, rho=0.8, reference=X).to_program(
        positive="setosa").target.negative == "other"     # two classes: the other one


def test_trace_names_each_class_and_the_default(tmp_path, monkeypatch):
    """``aspml learn --trace`` on a multi-class label says which class each default rule is
    for and how the default class was chosen (a trial: "start a default rule: 1006
    example(s)" named no class); ``aspml check`` gives the default's precision."""
    rng = np.random.default_rng(3)
    n = 2000
    x = rng.uniform(0, 100, n)
    dx = np.where(x < 50, "common_a", "common_b").astype(object)
    rare = rng.choice(n, 4, replace=False)
    x[rare] = rng.uniform(120, 130, 4)
    dx[rare] = "sepsis"
    pd.DataFrame({"x": x.round(1), "dx": dx}).to_csv(tmp_path / "t.csv", index=False)
    out = run_aspml("learn", tmp_path / "t.csv", "--target", "dx", "--trace",
                    "-o", tmp_path / "m.lp")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert any(line.startswith('class "common_a": a rule for its') for line in lines)
    assert 'default class "sepsis": 4 of the 4 row(s) no rule covers are of it' in out.stdout
    out = run_aspml("check", tmp_path / "m.lp", tmp_path / "t.csv", "--target", "dx")
    assert 'default (dx = "sepsis"): decides 4, precision 1.000 (4/4)' in out.stdout
    # every row covered (the triage example's table): the default's line says so
    # (decides 0), the trace too
    monkeypatch.syspath_prepend(str(ROOT / "examples" / "multiclass"))
    from make_triage import triage_table
    triage_table(400, 0).to_csv(tmp_path / "all.csv", index=False)
    out = run_aspml("learn", tmp_path / "all.csv", "--target", "level", "--tail", "0.015",
                    "--trace", "-o", tmp_path / "all.lp")
    assert 'default class "routine": every row is covered' in out.stdout, out.stdout
    out = run_aspml("check", tmp_path / "all.lp", tmp_path / "all.csv", "--target", "level")
    assert 'default (level = "routine"): decides 0\n' in out.stdout, out.stdout


def test_labels_of_numbers_beside_words_stay_as_written(tmp_path):
    """A trial: learn read the label 3.0 beside words as the class 3 (1.0 beside 1 and x
    as 1: a binary program of a three-class label), while check, report and explain
    read 3.0: accuracy 1.000 from learn, 0.667 from check on the same rows.  With a word
    among them every label stays as written, through every door: learn, check, explain
    --why-not, and Python on aspml.read_csv's frame."""
    from conftest import run_aspml
    cases = {"a.csv": ("1", "two", "3.0"), "b.csv": ("1", "1.0", "x")}
    for name, labels in cases.items():
        data = tmp_path / name
        data.write_text("x,y\n" + "".join(f"{i},{labels[(i - 1) // 10]}\n" for i in range(1, 31)))
        model = tmp_path / f"{name}.lp"
        done = run_aspml("learn", data, "--target", "y", "--tail", "0", "-o", model)
        assert done.returncode == 0, done.stderr
        assert "for 3 classes" in done.stdout and "accuracy 1.000" in done.stdout
        program = aspml.load(model)
        assert set(program.classes) == set(labels)
        done = run_aspml("check", model, data)
        assert "accuracy 1.000, macro-F1 1.000" in done.stdout, done.stdout
        done = run_aspml("explain", model, data, "--row", "0", "--why-not", labels[2])
        assert done.returncode == 0, done.stderr
        done = run_aspml("predict", model, data)         # the classes as the file has them
        assert done.stdout.splitlines()[1:] == [f"{i},{labels[i // 10]}" for i in range(30)]
        saved = tmp_path / f"{name}.pl"                   # and the program as Prolog
        assert run_aspml("learn", data, "--target", "y", "--tail", "0", "-o",
                         saved).returncode == 0
        assert set(aspml.load(saved).classes) == set(labels)
        assert "accuracy 1.000" in run_aspml("check", saved, data).stdout
        frame = aspml.read_csv(data)
        fitted = aspml.FoldSE(tail=0).fit(frame[["x"]], frame["y"])
        assert set(fitted.program_.classes) == set(labels)


def test_check_names_a_class_of_the_labels_the_program_does_not_know(learned, iris_csv,
                                                                     tmp_path):
    """Labels holding a class the program has no rule or default for (a trial's class
    seen only in the evaluation rows): one note naming it and its rows, every such row
    wrong; none when the labels hold only the program's classes."""
    done = run_aspml("check", learned["lp"][0], iris_csv)
    assert "does not know" not in done.stderr
    X, y = _iris()
    y = np.where(np.arange(len(y)) % 30 == 0, "hybrid", y)
    path = tmp_path / "hybrid.csv"
    X.assign(species=y).to_csv(path, index=False)
    for model in (learned["lp"][0], learned["pl"][0]):
        done = run_aspml("check", model, path)
        assert done.returncode == 0, done.stderr
        notes = [line for line in done.stderr.splitlines() if "does not know" in line]
        assert notes == [('aspml check: note: the labels hold a class the program does not know: "hybrid" '
                          '(5 rows); the program never gives it, so each such row counts as '
                          'wrong and macro-F1 counts F1 0 for it')], done.stderr
        # the report's class table names it too, beside the program's classes
        page = tmp_path / "hybrid.html"
        done = run_aspml("report", model, path, "-o", page)
        assert done.returncode == 0, done.stderr
        text = page.read_text()
        assert ('<tr><td>&quot;hybrid&quot;</td><td>– (not a class of the program)</td>'
                '<td class=n>0</td><td class=n>5</td><td class=n>–</td><td class=n>0.000</td>'
                '<td class=n>0.000</td></tr>') in text
        assert ("The labels hold a class the program does not know: &quot;hybrid&quot;; the "
                "program never gives it, so each such row counts as wrong and macro-F1 counts "
                "F1 0 for it.") in text
    page = tmp_path / "plain.html"
    assert run_aspml("report", learned["lp"][0], iris_csv, "-o", page).returncode == 0
    assert "does not know" not in page.read_text()


def test_check_says_how_many_given_rows_are_labelled(tmp_path):
    """Precision reads the given rows that are labelled: where some are not, check says
    how many of them are (a trial read "given to 242 rows ... precision" as of the 242);
    where all are, the line is as before."""
    import pandas as pd
    from conftest import run_aspml
    from sklearn.datasets import load_iris
    d = load_iris(as_frame=True)
    frame = d.frame.rename(columns=lambda c: c.replace(" (cm)", "").replace(" ", "_"))
    frame["target"] = frame["target"].map(dict(enumerate(d.target_names)))
    data, odd, model = tmp_path / "iris.csv", tmp_path / "odd.csv", tmp_path / "m.lp"
    frame.to_csv(data, index=False)
    frame.loc[[0, 1], "target"] = None
    frame.to_csv(odd, index=False)
    assert run_aspml("learn", data, "--target", "target", "-o", model).returncode == 0
    program = aspml.load(model)
    given = pd.Series(program.predict(pd.read_csv(odd)))
    setosa = int((given == "setosa").sum())
    out = run_aspml("check", model, odd).stdout
    line = next(x for x in out.splitlines() if 'class "setosa"' in x)
    assert f"given to {setosa} rows" in line and f"{setosa - 2} of them labelled" in line
    assert "of them labelled" not in next(x for x in out.splitlines() if 'class "virginica"' in x)
    assert "of them labelled" not in run_aspml("check", model, data).stdout


def test_fold_rpp_tail_from_the_command_line(tmp_path, swipl):
    """``aspml learn --learner fold-rpp --tail T`` learns Python's ``FoldRpp(tail=T)``
    program, shorter than at the default tail 0, saved as .lp and .pl, and every engine
    gives its classes; a tail outside [0, 1) is one line."""
    rng = np.random.default_rng(5)
    n = 1500
    X = pd.DataFrame({"a": rng.uniform(0, 1, n).round(3), "b": rng.uniform(0, 1, n).round(3)})
    y = np.array([f"k{int(4 * a) + 4 * int(2 * b)}" for a, b in zip(X.a, X.b)], dtype=object)
    y[rng.random(n) < 0.15] = "k0"
    data = tmp_path / "many.csv"
    X.assign(kind=y).to_csv(data, index=False)
    frame = aspml.read_csv(data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        python = aspml.FoldRpp(tail=0.05).fit(frame.drop(columns="kind"), frame["kind"])
    sizes = {}
    for tail in ("0", "0.05"):
        for suffix in ("lp", "pl"):
            model = tmp_path / f"m{tail}.{suffix}"
            done = run_aspml("learn", data, "--target", "kind", "--learner", "fold-rpp",
                             "--tail", tail, "-o", model, "--quiet")
            assert done.returncode == 0, done.stderr
            sizes[tail] = aspml.load(model).n_rules
    assert aspml.load(tmp_path / "m0.05.lp").rules == python.program_.rules
    assert aspml.load(tmp_path / "m0.05.pl") == aspml.load(tmp_path / "m0.05.lp")
    assert sizes["0.05"] < sizes["0"], sizes
    answers = predict_with_every_engine(tmp_path / "m0.05.pl", data)
    assert answers["fast"] == answers["clingo"] == answers["prolog"]
    got = [line.split(",", 1)[1] for line in answers["fast"]]
    assert got == [str(c) for c in python.predict(frame.drop(columns="kind"))]
    one_line_error(run_aspml("learn", data, "--target", "kind", "--learner", "fold-rpp",
                             "--tail", "1.5"), "tail")


@pytest.mark.parametrize("target", ["row", "rule"])
def test_a_target_named_like_predicts_own_columns_keeps_its_answers(tmp_path, target, swipl):
    """A trial's target ``rule``: with ``--rule`` the answers and the rule numbers shared
    one header and the answers were lost (``row`` lost the row numbers).  The answer keeps
    the target's name, the other column becomes ``row_number`` / ``rule_number`` (a note
    says so), in every engine, whole or in chunks, from .lp and .pl; binary too."""
    data = tmp_path / "t.csv"
    pd.DataFrame({"a": [1, 5, 9] * 4, "b": [2, 6, 9] * 4,
                  target: ["x", "y", "z"] * 4}).to_csv(data, index=False)
    other = {"row": "row_number", "rule": "rule_number"}[target]
    for positive in ((), ("--positive", "x")):
        for suffix in ("lp", "pl"):
            model = tmp_path / f"m{len(positive)}.{suffix}"
            assert run_aspml("learn", data, "--target", target, *positive, "-o", model,
                             "--quiet").returncode == 0
            for chunks in ((), ("--chunksize", "5")):
                done = run_aspml("predict", model, data, "--rule", *chunks)
                assert done.returncode == 0
                assert done.stderr.count(f"in the column '{other}'") == 1
                frame = pd.read_csv(io.StringIO(done.stdout), dtype=str, keep_default_na=False)
                row_name = "row_number" if target == "row" else "row"
                rule_name = "rule_number" if target == "rule" else "rule"
                assert list(frame.columns) == [row_name, target, rule_name]
                assert frame[row_name].tolist() == [str(i) for i in range(12)]
                want = (["x", "y", "z"] * 4 if not positive
                        else ["x", "not x", "not x"] * 4)
                assert frame[target].tolist() == want
                answers = predict_with_every_engine(model, data, "--rule", *chunks)
                assert answers["fast"] == answers["clingo"] == answers["prolog"]
    kept = tmp_path / "kept.csv"
    pd.read_csv(data).assign(**{other: 1}).to_csv(kept, index=False)
    one_line_error(run_aspml("predict", model, kept, "--keep", other, "--rule"),
                   f"--keep '{other}'", f"(the target is named '{target}')", "rename it")


def test_predict_keeps_columns_and_says_which_rule_decided(learned, iris_csv, tmp_path, swipl):
    """``predict --keep COL --rule``: the kept columns as the file holds them, and the
    rule that decided each row (numbered as check numbers them; empty for the default
    class), the same in every engine, whole or in chunks, .lp or .pl; the rule is the
    explanation's deciding rule."""
    from aspml.cli import _read_table
    frame = _read_table(str(iris_csv))
    ided = tmp_path / "ided.csv"
    frame.assign(id=[f"p{i:04d}" for i in range(len(frame))]).to_csv(ided, index=False)
    for suffix in ("lp", "pl"):
        model = learned[suffix][0]
        p = aspml.load(model)
        plain = predict_with_every_engine(model, ided)["fast"]
        for chunks in ((), ("--chunksize", "17")):
            answers = predict_with_every_engine(model, ided, "--keep", "id", "sepal_width",
                                                "--rule", *chunks)
            assert answers["fast"] == answers["clingo"] == answers["prolog"]
            for line, before in zip(answers["fast"], plain):
                row, ident, width, label, rule = line.split(",")
                assert (row, label) == tuple(before.split(",")) and ident == f"p{int(row):04d}"
                assert width == frame["sepal_width"].iloc[int(row)]
                e = aspml.explain(p, frame.drop(columns="species").iloc[int(row)])
                assert rule == ("" if e.deciding_rule is None else str(e.deciding_rule + 1))
        assert any(line.endswith(",") for line in answers["fast"])       # the default class
    header = run_aspml("predict", learned["lp"][0], ided, "--keep", "id", "--rule").stdout
    assert header.splitlines()[0] == "row,id,species,rule"
    # a binary program: the first default rule that holds, empty where the target does not
    binary = tmp_path / "binary.lp"
    assert run_aspml("learn", iris_csv, "--target", "species", "--positive", "setosa",
                     "-o", binary, "--quiet").returncode == 0
    lines = run_aspml("predict", binary, ided, "--rule").stdout.splitlines()[1:]
    assert {line.split(",")[1] for line in lines if line.endswith(",")} == {"not setosa"}
    assert {line.split(",")[2] for line in lines if "not setosa" not in line} == {"1"}
    # a file of no rows, whole or in chunks (a Parquet file gives no chunk at all)
    empty = tmp_path / "empty.parquet"
    frame.iloc[:0].assign(id=pd.Series([], dtype=str)).to_parquet(empty)
    for chunks in ((), ("--chunksize", "2")):
        done = run_aspml("predict", binary, empty, "--keep", "id", "--rule", *chunks)
        assert done.returncode == 0 and done.stdout.strip() == "row,id,species,rule"
        one_line_error(run_aspml("predict", binary, empty, "--keep", "bogus", *chunks),
                       "--keep 'bogus'")
    # a column named rule is a feature, not a label: not sent to aspml check (a trial)
    ruled = tmp_path / "ruled.csv"
    frame.assign(rule=1).to_csv(ruled, index=False)
    for keep, words, data in ((("nope",), ("--keep 'nope'", "no column"), ided),
                              (("species",), ("--keep 'species'", "aspml check"), ided),
                              (("id", "id"), ("twice",), ided),
                              (("rule", "--rule"), ("give their rule numbers in a column 'rule'",
                                                    "rename it in the file"), ruled)):
        one_line_error(run_aspml("predict", binary, data, "--keep", *keep), *words)
        one_line_error(run_aspml("predict", binary, data, "--keep", *keep, "--chunksize",
                                 "5"), *words)


def test_learn_suggests_digits_for_thresholds_of_many_digits(tmp_path):
    """Computed numbers (a lab ratio) give thresholds of 17 digits a person cannot read
    (a multi-class trial: "trop <= 0.023673227402110336"); learn says --digits rounds
    them, and says nothing with --digits or on numbers of few digits."""
    rng = np.random.default_rng(0)
    x = rng.random(400) * 0.05
    frame = pd.DataFrame({"trop": x, "label": np.where(x > 0.0236732274, "yes", "no")})
    frame.to_csv(tmp_path / "t.csv", index=False)
    frame.assign(trop=frame.trop.round(3)).to_csv(tmp_path / "short.csv", index=False)
    for data, extra, said in (("t.csv", (), True), ("t.csv", ("--digits", "4"), False),
                              ("short.csv", (), False)):
        done = run_aspml("learn", tmp_path / data, "--target", "label", "--positive", "yes",
                         *extra, "-o", tmp_path / "m.lp")
        assert done.returncode == 0, done.stderr
        assert ("--digits N rounds" in done.stderr) == said, done.stderr
        if said:
            assert re.search(r"up to 1[5-7] digits \(0\.02\d+\)", done.stderr)


def test_max_rules_holds_a_long_list_from_every_door(tmp_path):
    """A noisy six-class table whose whole FOLD list is long: ``--max-rules`` (and the
    default) hold it; the Python door learns the same program; the saved file reads back
    and answers alike in clingo and SWI-Prolog; ``--param max_rules=None`` learns the
    whole list."""
    rng = np.random.default_rng(0)
    n = 600
    c = rng.integers(0, 6, n)
    X = pd.DataFrame({f"f{j}": np.round(c * 0.4 + rng.normal(0, 1, n), 2) for j in range(4)})
    y = np.array([f"k{v}" for v in c], dtype=object)
    data = tmp_path / "six.csv"
    X.assign(y=y).to_csv(data, index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        whole = aspml.FoldSE(max_rules=None).fit(X, y).program_
        held = aspml.FoldSE(max_rules=12).fit(X, y).program_
    assert whole.n_rules > 12 >= held.n_rules >= 1
    model = tmp_path / "six.pl"
    done = run_aspml("learn", data, "--target", "y", "--max-rules", 12, "-o", model)
    assert done.returncode == 0, done.stderr
    assert "passed max_rules=12 rules, exceptions counted" in done.stderr
    assert aspml.load(model).rules == held.rules
    answers = predict_with_every_engine(model, data)
    fast = [str(v) for v in held.predict(X)]
    for engine, lines in answers.items():
        assert [line.split(",")[-1].strip('"') for line in lines] == fast, engine
    done = run_aspml("learn", data, "--target", "y", "--param", "max_rules=None",
                     "-o", tmp_path / "whole.lp")
    assert done.returncode == 0 and "max_rules" not in done.stderr
    assert aspml.load(tmp_path / "whole.lp").rules == whole.rules
    # a binary program has no budget, and learn says so when it is given one
    done = run_aspml("learn", data, "--target", "y", "--positive", "k0", "--max-rules", 3)
    assert done.returncode == 0, done.stderr
    assert ("note: --max-rules holds a multi-class program; a binary one has no budget"
            in done.stderr)
