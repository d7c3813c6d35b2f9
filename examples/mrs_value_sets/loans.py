"""The made-up loans table of this example: 800 applicants whose defaults follow three
hidden rules over sets of values, with 3% of the labels flipped."""

import numpy as np
import pandas as pd


def loans(n=800, seed=0):
    """``(X, y)``: state, age and job of ``n`` applicants, and whether each defaults."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "state": rng.choice(["AZ", "CA", "FL", "GA", "IL", "NY", "OH", "PA", "TX", "WA"], n),
        "age": rng.integers(18, 71, n),
        "job": rng.choice(["none", "part-time", "full-time", "retired"], n)})
    hidden = ((X.state.isin(["AZ", "CA", "TX"]) & (X.age < 30))
              | (X.state.isin(["NY", "PA"]) & (X.job == "none"))
              | (X.state.isin(["FL", "GA"]) & (X.job == "retired") & (X.age >= 45)))
    return X, np.where(rng.random(n) < 0.03, ~hidden, hidden)
