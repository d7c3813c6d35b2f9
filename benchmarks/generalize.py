"""Descriptive models of large rule sets, measured on the paper's three tasks.

    python benchmarks/generalize.py                      # everything (a few minutes)
    python benchmarks/generalize.py --only cardio speed  # some parts

Prints markdown:

* **cardiotocography** (3 classes, NSP): a decision tree on 1,700 training rows
  (``train_test_split(train_size=1700, stratify=y, random_state=0)``, no depth
  limit), generalized for rho = 1.00, 0.95, ..., 0.60 by Algorithm 1 (each run
  from the original rules) and by the iterative variant (rho from 1 down to the
  row's rho by 0.05), both with the training rows as reference data (fidelity
  >= rho is part of the acceptance test, §3.4); and Algorithm 1 without
  reference data (coherence alone).  The paper's figures are printed alongside.
* **HELOC**: records with special (negative) values and the two categorical
  features (MaxDelq2PublicRecLast12M, MaxDelqEver) dropped, as in the paper; a
  random forest of 50 unrestricted trees, and a decision-tree mimic of it with
  384 leaves (the size of the paper's mimic), generalized with the rows as
  reference.
* **nomad2018** (regression, formation energy): a regression tree with 396
  leaves (the size of the paper's RuleFit ensemble; RuleFit itself is not used)
  on the 2,400 rows; epsilon at the 2%, 5% and 10% percentiles of the target.
* **speed**: the first 100, 1,000 and 5,000 leaf rules of a random forest on
  the cardiotocography training rows; rho = 0.8 with reference rows (and, up to
  1,000 rules, also without them and with rho = 1).

Data: ``../shared/data/<name>/``; a part whose data is absent is skipped.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))          # this checkout's aspml, not an installed one
import aspml  # noqa: E402
from aspml.generalize import rules_from_sklearn  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
RHOS = [1.00, 0.95, 0.90, 0.85, 0.80, 0.75, 0.70, 0.65, 0.60]


def cardio():
    path = DATA / "cardiotocography" / "cardiotocography.csv"
    if not path.exists():
        return None
    from sklearn.model_selection import train_test_split
    df = pd.read_csv(path, na_values=["?"])
    X, y = df.drop(columns=["CLASS", "NSP"]), df["NSP"]
    Xtr, _, ytr, _ = train_test_split(X, y, train_size=1700, stratify=y, random_state=0)
    return Xtr, ytr


def table(runs, paper=None) -> str:
    head = ("| rho | rules | conditions | cond./rule | rules > 5 cond. | min CC | rough rules "
            "| min rule fidelity | fidelity | unions made | union rules (originals) | depth | CPU s |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for rho, m, secs in runs:
        s = m.stats()
        fid = "-" if s["fidelity"] is None else f"{s['fidelity']:.3f}"
        mfid = "-" if s["min_rule_fidelity"] is None else f"{s['min_rule_fidelity']:.2f}"
        pct = 100 * s["complex_rules"] / s["rules"]
        lines.append(f"| {rho:.2f} | {s['rules']} | {s['conditions']} | {s['conditions_per_rule']:.2f} "
                     f"| {s['complex_rules']} ({pct:.0f}%) | {s['min_cc']:.2f} | {s['rough_rules']} "
                     f"| {mfid} | {fid} | {s['unions']} | {s['union_rules']} ({s['originals_in_unions']}) "
                     f"| {s['depth']} | {secs:.2f} |")
    return "\n".join(lines)


def sweep(model, rhos=RHOS, **kw):
    runs = []
    for rho in rhos:
        t0 = time.process_time()
        m = aspml.generalize(model, rho=rho, **kw)
        runs.append((rho, m, time.process_time() - t0))
    return runs


def original_line(rules) -> str:
    n_cond = sum(len(r.conditions) for r in rules)
    big = sum(len(r.conditions) > 5 for r in rules)
    return (f"original: {len(rules)} rules, {n_cond} conditions, {n_cond / len(rules):.2f} per rule, "
            f"{big} with more than 5 conditions, {len({c.feature for r in rules for c in r.conditions})} "
            f"features")


def part_cardio():
    data = cardio()
    if data is None:
        print("## Cardiotocography\n\n(skipped: data absent)\n")
        return
    from sklearn.tree import DecisionTreeClassifier
    Xtr, ytr = data
    tree = DecisionTreeClassifier(random_state=0).fit(Xtr, ytr)
    rules = rules_from_sklearn(tree)
    print("## Cardiotocography, 3 classes (NSP), decision tree on 1,700 rows\n")
    print(original_line(rules) + f"; tree depth {tree.get_depth()}\n")
    print("Paper (§3.5, Fig. 1): 109 rules / 818 conditions; rho = 0.6: base algorithm 54 rules / "
          "342 conditions (33 unchanged, 21 unions of 76 originals, CC 0.6-1); iterative variant "
          "62 rules / 399 conditions (43 unchanged, 19 unions, CC 0.67-1).\n")
    print("### Algorithm 1, training rows as reference (CC >= rho and fidelity >= rho)\n")
    print(table(sweep(tree, reference=Xtr)) + "\n")
    print("### Iterative variant (rho from 1.00 down to the row's rho by 0.05), same reference\n")
    print(table(sweep(tree, reference=Xtr, iterative=True)) + "\n")
    print("### Algorithm 1 on coherence alone (CC >= rho; fidelity on the training rows only "
          "measured)\n")
    print(table(sweep(tree, reference=Xtr, check_fidelity=False)) + "\n")
    print("### Iterative variant on coherence alone (fidelity only measured)\n")
    print(table(sweep(tree, reference=Xtr, check_fidelity=False, iterative=True)) + "\n")


def part_heloc():
    path = DATA / "heloc" / "heloc_dataset_v1.csv"
    if not path.exists():
        print("## HELOC\n\n(skipped: data absent)\n")
        return
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.tree import DecisionTreeClassifier
    df = pd.read_csv(path)
    X = df.drop(columns=["RiskPerformance", "MaxDelq2PublicRecLast12M", "MaxDelqEver"])
    keep = ~(X < 0).any(axis=1)
    X, y = X[keep].reset_index(drop=True), df["RiskPerformance"][keep].reset_index(drop=True)
    forest = RandomForestClassifier(n_estimators=50, random_state=0, n_jobs=1).fit(X, y)
    target = forest.predict(X)
    mimic = DecisionTreeClassifier(max_leaf_nodes=384, random_state=0).fit(X, target)
    rules = rules_from_sklearn(mimic)
    agree = (mimic.predict(X) == target).mean()
    print(f"## HELOC, 2 classes: random-forest mimic\n\n{len(X)} rows without special values, "
          f"{X.shape[1]} features; forest of 50 trees (training accuracy "
          f"{(target == y).mean():.3f}); mimic tree agrees with the forest on {agree:.3f} of the rows.\n")
    print(original_line(rules) + "\n")
    print("Paper (§5.2): the mimic has 384 rules, 3,019 conditions, 21 features.\n")
    print("### Algorithm 1, the rows as reference\n")
    print(table(sweep(mimic, reference=X)) + "\n")


def part_nomad():
    path = DATA / "nomad2018" / "nomad2018.csv"
    if not path.exists():
        print("## nomad2018\n\n(skipped: data absent)\n")
        return
    from sklearn.tree import DecisionTreeRegressor
    df = pd.read_csv(path)
    y = df["formation_energy_ev_natom"]
    X = df.drop(columns=["id", "formation_energy_ev_natom", "bandgap_energy_ev"])
    tree = DecisionTreeRegressor(max_leaf_nodes=396, random_state=0).fit(X, y)
    rules = rules_from_sklearn(tree)
    eps = np.percentile(y, [2, 5, 10])
    print("## nomad2018, regression (formation energy), regression tree with 396 leaves\n")
    print(original_line(rules) + f"; target from {y.min():.4f} to {y.max():.4f}\n")
    print("Paper (§5.3, RuleFit, 396 rules): epsilon 0.010 / 0.020 / 0.050; rho 1 -> 0.6 cuts rules "
          "by 6% (eps 0.010) to 14% (eps 0.050); eps 0.075 -> 80 rules / 494 conditions, "
          "eps 0.25 -> 22 / 94.\n")
    for q, e in zip((2, 5, 10), eps):
        print(f"### epsilon = {e:.4f} (the {q}% percentile of the target), rows as reference\n")
        print(table(sweep(tree, epsilon=float(e), reference=X)) + "\n")
    for e in (0.075, 0.25):
        runs = sweep(tree, rhos=[1.0], epsilon=e, reference=X)
        print(f"### epsilon = {e} (the paper's coarse runs), rho = 1\n")
        print(table(runs) + "\n")


def part_speed(sizes=(100, 1000, 5000)):
    data = cardio()
    if data is None:
        print("## Speed\n\n(skipped: data absent)\n")
        return
    from sklearn.ensemble import RandomForestClassifier
    Xtr, ytr = data
    forest = RandomForestClassifier(n_estimators=80, random_state=0, n_jobs=1).fit(Xtr, ytr)
    rules = rules_from_sklearn(forest)
    answers = forest.predict(Xtr).tolist()
    print(f"## Speed\n\nThe first N of the {len(rules)} leaf rules of a random forest (80 trees) on "
          "the cardiotocography training rows; 1,700 reference rows (the forest's answers); one "
          "core.\n")
    print("| rules | rho | reference | result rules | unions | pairs tried | CPU s | wall s |")
    print("|---|---|---|---|---|---|---|---|")
    aspml.generalize(rules[:20], rho=0.8, reference=Xtr, reference_predictions=answers)  # compile
    for n in sizes:
        configs = ((0.8, True), (0.8, False), (1.0, True)) if n <= 1000 else ((0.8, True),)
        for rho, ref in configs:
            kw = dict(reference=Xtr, reference_predictions=answers) if ref else {}
            t0, c0 = time.perf_counter(), time.process_time()
            m = aspml.generalize(rules[:n], rho=rho, **kw)
            cpu, wall = time.process_time() - c0, time.perf_counter() - t0
            print(f"| {n} | {rho} | {'yes' if ref else 'no'} | {len(m.rules)} | {m.n_unions} "
                  f"| {m.pairs_tried} | {cpu:.2f} | {wall:.2f} |", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="+", choices=["cardio", "heloc", "nomad", "speed"])
    ap.add_argument("--sizes", nargs="+", type=int, default=[100, 1000, 5000])
    args = ap.parse_args(argv)
    parts = args.only or ["cardio", "heloc", "nomad", "speed"]
    print(f"# Rule-set generalization benchmark\n\n`python benchmarks/generalize.py"
          f"{' --only ' + ' '.join(args.only) if args.only else ''}`\n")
    for p in parts:
        if p == "speed":
            part_speed(args.sizes)
        else:
            {"cardio": part_cardio, "heloc": part_heloc, "nomad": part_nomad}[p]()
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
