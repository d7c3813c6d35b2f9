"""Learn the triage levels, print the decision list, and explain three patients.

    python examples/multiclass/explain_triage.py [OUT.lp]

Learns a multi-class FOLD-SE program from the made-up triage table (make_triage.py,
seed 0), prints it, its confusion matrix and per-class figures on the table, then for
three patients answers "why this level?", "why not urgent?" and "what is the smallest
change that makes the patient urgent?" (routine, for the urgent one).  With OUT.lp it saves the program (the .pl
suffix saves it in Prolog) for `aspml check`, `aspml export` and swipl.
"""

import sys
from pathlib import Path

import aspml
from aspml.report import class_figures, confusion

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_triage import triage_table  # noqa: E402

table = triage_table(400, seed=0)
X, y = table.drop(columns="level"), table["level"]
clf = aspml.FoldSE(tail=0.015, target="level").fit(X, y)
program = clf.program_
print(f"Learned from {len(X)} patients: {program.n_rules} rules, {program.n_literals} "
      f"literals, classes {list(program.classes)}, default {program.target.default!r}.")
print()
print(program.to_text())

cm = confusion(program, X, y)
print(f"On the table: accuracy {cm['accuracy']:.3f}, macro-F1 {cm['macro_f1']:.3f}")
width = max(len(str(c)) for c in cm["classes"]) + 2
print("actual \\ given".ljust(width + 7) + "".join(str(c).rjust(width) for c in cm["predicted"]))
for c, row in zip(cm["classes"], cm["matrix"]):
    print(f"actual {c}".ljust(width + 7) + "".join(str(n).rjust(width) for n in row))
for f in class_figures(program, X, y)["classes"]:
    print(f"  {f['class']}: rules {f['rules'] or '-'}{' (default)' if f['default'] else ''}, "
          f"given to {f['given']} patients, precision {f['precision']:.3f}, "
          f"recall {f['recall']:.3f}")

levels = clf.predict(X)
patients = {
    "an urgent patient": next(k for k in range(len(X)) if levels[k] == "urgent"),
    "a child with a fever": next(k for k in range(len(X)) if X.age[k] <= 13
                                 and 38.4 < X.temp[k] < 39.5 and levels[k] == "routine"),
    "an emergency": next(k for k in range(len(X)) if levels[k] == "emergency"),
}
for what, k in patients.items():
    row = X.iloc[k]
    values = ", ".join(f"{f} {v}" for f, v in row.items())
    print(f"\n== patient {k}, {what} ({values})")
    print(aspml.explain(clf, row, minimal=True).to_text())
    if levels[k] != "urgent":
        print(aspml.explain(clf, row, why_not="urgent").to_text())
        cf = aspml.counterfactual(clf, row, target="urgent", immutable=("age",))
        print("To make the patient urgent (age kept): "
              + ("impossible\n" if cf is None else cf.to_text(program)), end="")
    else:
        cf = aspml.counterfactual(clf, row, target="routine", immutable=("age",))
        print("To make the patient routine (age kept): "
              + ("impossible\n" if cf is None else cf.to_text(program)), end="")

if len(sys.argv) > 1:
    program.save(sys.argv[1])
    print(f"\nsaved {sys.argv[1]}")
