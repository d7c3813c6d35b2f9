"""Ask clingo what the README asks SWI-Prolog: the exported program with its facts, and
the clinic's knowledge base, in one run.

    python examples/knowledge_base/ask.py readmission_kb.lp examples/knowledge_base/wards.lp
"""

import sys

import clingo

QUESTIONS = """
% how many patients of each ward come back, and who leads the ward
per_ward(W, D, N) :- leads(D, W), N = #count { P : ward(P, W), readmitted(P, "yes") }.
% elderly patients of cardiology the program lets go home: its exception holds for them
sent_home(P) :- clinic_elderly(P), clinic_ab1(P), ward(P, cardiology).
#show per_ward/3.
#show sent_home/1.
"""

control = clingo.Control(["--warn=none"])
for path in sys.argv[1:]:
    control.load(path)
control.add("base", [], QUESTIONS)
control.ground([("base", [])])
with control.solve(yield_=True) as answers:
    shown = next(iter(answers)).symbols(shown=True)     # a stratified program: one answer set
for atom in sorted(shown, key=lambda a: (a.name, [str(x) for x in a.arguments])):
    if atom.name == "per_ward":
        ward, lead, n = atom.arguments
        print(f"{ward} ({lead.string}): {n} readmitted")
    else:
        print(f"sent home: {atom.arguments[0].string}")
