"""Birds fly unless they are penguins: one program, four dialects, three engines.

    python examples/birds/run.py
"""

from pathlib import Path

import pandas as pd

import aspml

here = Path(__file__).parent
program = aspml.parse((here / "birds.lp").read_text(), dialect="asp")
table = pd.read_csv(here / "birds.csv", dtype=str).set_index("name")

print("The program, as people read it:\n")
print(program.to_text())
print("As SWI-Prolog reads it:\n")
print(program.to_prolog())

fast = program.predict(table)                  # numpy, vectorised over rows
clingo = aspml.asp.predict(program, table)     # the reference semantics
print("who flies?")
for name, f, c in zip(table.index, fast, clingo):
    print(f"  {name:8s} fast path: {str(bool(f)):5s}  clingo: {bool(c)}")
assert (fast == clingo).all()

try:
    prolog = aspml.prolog.predict(program, table)
    assert (prolog == fast).all()
    print("SWI-Prolog agrees on every row.")
except aspml.EngineError as e:
    print(f"(SWI-Prolog not run: {e})")
