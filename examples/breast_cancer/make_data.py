"""Write scikit-learn's breast-cancer table (569 tumours, 30 measurements) as a CSV file.

    python examples/breast_cancer/make_data.py breast_cancer.csv

The data ships with scikit-learn (Wisconsin Diagnostic Breast Cancer, UCI);
``diagnosis`` is ``malignant`` or ``benign``.
"""

import sys

from sklearn.datasets import load_breast_cancer

out = sys.argv[1] if len(sys.argv) > 1 else "breast_cancer.csv"
data = load_breast_cancer(as_frame=True)
table = data.data.copy()
table["diagnosis"] = data.target.map(dict(enumerate(data.target_names)))
table.to_csv(out, index=False)
counts = table["diagnosis"].value_counts()
print(f"wrote {out}: {len(table)} rows, {table.shape[1] - 1} features; "
      f"{counts['malignant']} malignant, {counts['benign']} benign")
