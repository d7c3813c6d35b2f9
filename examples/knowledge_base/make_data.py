"""Write patients.csv: 120 made-up patients of a small clinic, keyed by name.

    python examples/knowledge_base/make_data.py

Readmission within 30 days follows the clinic's own concepts: an elderly patient (65 or older) who is obese (BMI over 30) or
hypertensive (systolic pressure 140 or more) comes back, and so does a smoker
with diabetes.  The concepts are the background theory in ``clinic.lp``.
"""

from pathlib import Path

import numpy as np
import pandas as pd

FIRST = ["Ann", "Bo", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jo", "Kai", "Lea"]
LAST = ["Lee", "O'Brien", "Smith", "Ng", "Diaz", "Kowalski", "Haddad", "Sato", "Okafor", "Novak"]


def patients(n: int = 120, random_state: int = 4) -> pd.DataFrame:
    rng = np.random.default_rng(random_state)
    names = [f"{f} {l}" for l in LAST for f in FIRST]
    rng.shuffle(names)
    names = names[:n]
    age = rng.integers(30, 90, n)
    bmi = np.round(rng.normal(28, 5, n), 1)
    systolic = rng.integers(105, 175, n)
    smoker = rng.choice(["yes", "no"], n, p=[0.3, 0.7])
    diabetic = rng.choice(["yes", "no"], n, p=[0.25, 0.75])
    elderly = age >= 65
    at_risk = (elderly & ((bmi > 30) | (systolic >= 140))) | ((smoker == "yes") & (diabetic == "yes"))
    readmitted = np.where(at_risk, "yes", "no")
    return pd.DataFrame({"name": names, "age": age, "bmi": bmi, "systolic": systolic,
                         "smoker": smoker, "diabetic": diabetic, "readmitted": readmitted})


if __name__ == "__main__":
    out = Path(__file__).with_name("patients.csv")
    patients().to_csv(out, index=False)
    print(f"wrote {out}")
