"""A made-up emergency-department triage table: four measurements, three levels.

    python make_triage.py triage.csv [ROWS] [SEED]

Each row is a patient (age, pulse, temperature, pain, breathing); the level follows
a few plain rules, with a little noise (a nurse's judgement differs from the rules on
about one row in forty):

* ``emergency``: laboured breathing with a pulse over 120, or a temperature of 40.5 or
  more, or a pulse over 140;
* ``urgent``: severe pain, or a temperature of 38.5 or more, or moderate pain at 65 or
  older; but a child (under 12) with only a fever under 39.5 is ``routine``;
* ``routine``: everyone else.

The same seed writes the same file; the table is aspml's own, for teaching only.
"""

import sys

import numpy as np
import pandas as pd


def triage_table(rows: int = 400, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    age = rng.integers(1, 95, rows)
    pulse = np.clip(rng.normal(95, 25, rows).round(), 40, 190).astype(int)
    temp = np.clip(rng.normal(37.8, 1.2, rows), 35.0, 42.0).round(1)
    pain = rng.choice(["none", "mild", "moderate", "severe"], rows, p=[.4, .3, .2, .1])
    breathing = rng.choice(["normal", "laboured"], rows, p=[.7, .3])
    emergency = (((breathing == "laboured") & (pulse > 120)) | (temp >= 40.5) | (pulse > 140))
    child_fever = (age < 12) & (temp < 39.5) & (pain != "severe")
    urgent = ((pain == "severe") | (temp >= 38.5) | ((pain == "moderate") & (age >= 65))) \
        & ~child_fever
    level = np.where(emergency, "emergency", np.where(urgent, "urgent", "routine"))
    noise = rng.random(rows) < 0.025          # a different judgement now and then
    level = np.where(noise, rng.choice(["emergency", "urgent", "routine"], rows), level)
    return pd.DataFrame({"age": age, "pulse": pulse, "temp": temp, "pain": pain,
                         "breathing": breathing, "level": level})


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "triage.csv"
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    triage_table(rows, seed).to_csv(out, index=False)
    print(f"wrote {out}: {rows} patients, seed {seed}")
