"""Minimal reasons and counterfactuals ground each rule's features apart.

Over one row whose values are open to change, each feature ranges over every value
worth trying (hundreds, for a program of many thresholds).  A rule body that binds
several features at once grounds their product: a trial's ``aspml explain --minimal`` on
a 331-rule multi-class program passed 20 GB.  The world's program reads each feature's
conditions in an atom of its own (``LogicPrinter.split_rule``): the same answers, a
ground program of the sum.
"""

import numpy as np
import pandas as pd
import pytest

import aspml
from aspml.asp import _prepare
from aspml.asp.explain import _World
from aspml.asp.solve import solve
from aspml.evaluate import predict
from aspml.logic.printers import LogicPrinter


def _table(seed, n=240):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "a": rng.normal(size=n).round(3),
        "b b": rng.integers(0, 50, size=n).astype(float),
        "c": rng.normal(size=n).round(2),
        "kind": rng.choice(["x", "y", "z w"], size=n),
    })
    X.loc[rng.random(n) < 0.1, "a"] = np.nan
    score = X["a"].fillna(0) + X["b b"] / 25 - X["c"] + (X["kind"] == "x")
    y = np.where(score > 1.5, "hi", np.where(score > 0.3, "mid", "lo"))
    flip = rng.random(n) < 0.15
    y[flip] = rng.choice(["hi", "mid", "lo"], size=flip.sum())
    return X, pd.Series(y, name="level")


def _answers(program, X, split):
    """Each row's answer from clingo, the program printed whole or split."""
    p, naming, table, facts = _prepare(program, X, None)
    text = LogicPrinter(p, "asp").program(split=split)
    if p.is_multiclass:
        out = np.full(table.n_rows, None, dtype=object)
        by_term = {LogicPrinter(p, "asp").label(c): c for c in p.classes}
        for sym in solve([text, facts, f"#show {naming.target}/2."], program_part=0)[0]:
            out[sym.arguments[0].number] = by_term[str(sym.arguments[1])]
        return out
    arity = 1 if p.target.positive is None else 2
    out = np.zeros(table.n_rows, dtype=bool)
    for sym in solve([text, facts, f"#show {naming.target}/{arity}."], program_part=0)[0]:
        out[sym.arguments[0].number] = True
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("binary", [False, True])
def test_split_program_gives_every_row_the_same_answer(seed, binary):
    X, y = _table(seed)
    if binary:
        y = (y == "hi").map({True: "yes", False: "no"})
        model = aspml.FoldSE(positive="yes").fit(X, y)
    else:
        model = aspml.FoldSE().fit(X, y)
    p = model.program_
    # rules reading two features or more, with exceptions: the split has work to do
    assert any(len({lit.feature for lit in r.body if lit.feature is not None}) >= 2
               for r in p.rules)
    split = LogicPrinter(p, "asp").program(split=True)
    assert "aspml_part(" in split
    whole = _answers(p, X, split=False)
    assert list(_answers(p, X, split=True)) == list(whole)
    assert list(whole) == list(predict(p, X))


def _many_thresholds(n_rules=12):
    """A program whose rules each read three numeric features at thresholds of their own:
    about 3 * n_rules + 2 values worth trying a feature."""
    lines = []
    for k in range(n_rules):
        lines.append(f"IF a <= {k + 0.5} AND b > {2 * k + 0.25} AND c <= {3 * k + 0.75} "
                     "THEN risk")
    return aspml.parse("\n".join(lines) + "\n", "text")


def test_world_grounds_the_sum_of_the_features_values_not_their_product():
    p = _many_thresholds()
    row = pd.DataFrame({"a": [0.0], "b": [100.0], "c": [0.0]})
    world = _World(aspml.asp.explain.engine_program(p, "test"), row, None)
    sizes = [len(d.terms) for d in world.domains]
    assert min(sizes) >= 30
    s = world.session(False)
    s.solve()
    ground = s.ctl.statistics["problem"]["lp"]["rules"]
    # the sum of the domains times the rules, give or take; the product was ~30^3 a rule
    assert ground < 20 * len(p.rules) * sum(sizes), ground
    reason = aspml.explain(p, row.iloc[0].to_dict(), minimal=True).minimal
    assert set(reason) <= {"a", "b", "c"} and reason
    cf = aspml.counterfactual(p, row.iloc[0].to_dict(), target=False)
    assert cf is not None and not predict(p, cf.row.to_frame().T)[0]
