"""``aspml simplify`` on scikit-learn models read from files: skops by default, a pickle
only when the user says so (``--allow-pickle``), since unpickling runs the file's code."""

import pickle

import numpy as np
import pandas as pd
import pytest

from conftest import run_aspml as aspml

pytest.importorskip("sklearn")


class _Planted:
    """Unpickling this opens (creates) a file: what a crafted model file can do."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return open, (self.path, "w")


def _tree():
    from sklearn.tree import DecisionTreeClassifier
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.integers(0, 10, 80), "b": rng.random(80).round(2)})
    y = np.where((X.a > 4) & (X.b < 0.6), "yes", "no")
    return DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y), X


@pytest.mark.parametrize("suffix", [".joblib", ".pkl", ".pickle"])
def test_a_crafted_pickle_runs_nothing_without_allow_pickle(suffix, tmp_path):
    planted = tmp_path / "planted"
    model = tmp_path / f"model{suffix}"
    model.write_bytes(pickle.dumps(_Planted(planted)))
    out = aspml("simplify", model, "--rho", "1")
    assert out.returncode == 2, out.stderr
    assert not planted.exists()
    assert "--allow-pickle" in out.stderr and "skops" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    # the file is what it claims: with the flag, loading it runs its code (then is refused)
    out = aspml("simplify", model, "--rho", "1", "--allow-pickle")
    assert planted.exists() and out.returncode == 2, out.stderr


def test_allow_pickle_is_named_unsafe_in_help():
    out = aspml("simplify", "--help")
    text = " ".join(out.stdout.split())
    assert "--allow-pickle UNSAFE" in text and "skops" in text


def test_a_skops_file_reads_like_the_pickle_of_the_same_tree(tmp_path):
    skops_io = pytest.importorskip("skops.io")
    import joblib
    tree, X = _tree()
    skops_io.dump(tree, tmp_path / "tree.skops")
    joblib.dump(tree, tmp_path / "tree.joblib")
    X.to_csv(tmp_path / "X.csv", index=False)
    a = aspml("simplify", tmp_path / "tree.skops", "--rho", "0.9", "--reference", tmp_path / "X.csv")
    b = aspml("simplify", tmp_path / "tree.joblib", "--allow-pickle", "--rho", "0.9",
              "--reference", tmp_path / "X.csv")
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout and "IF" in a.stdout


def test_a_skops_file_with_other_types_is_refused(tmp_path):
    import os
    skops_io = pytest.importorskip("skops.io")
    skops_io.dump({"run": os.system}, tmp_path / "odd.skops")
    out = aspml("simplify", tmp_path / "odd.skops", "--rho", "1")
    assert out.returncode == 2 and "holds types aspml does not load: posix.system" in out.stderr


def test_a_tree_with_node_indexes_out_of_range_is_refused(tmp_path):
    """skops loads scikit-learn's node storage as it is; scikit-learn would follow the
    indexes without bounds checks (--reference predicts with the tree): refuse first."""
    skops_io = pytest.importorskip("skops.io")
    import aspml as api
    tree, X = _tree()
    tree.tree_.children_left[0] = 10 ** 6
    skops_io.dump(tree, tmp_path / "bad.skops")
    X.to_csv(tmp_path / "X.csv", index=False)
    out = aspml("simplify", tmp_path / "bad.skops", "--rho", "1", "--reference", tmp_path / "X.csv")
    assert out.returncode == 2 and "tree 1 of the scikit-learn model is malformed" in out.stderr
    with pytest.raises(api.AspmlError, match="malformed"):
        api.rules_from_sklearn(tree)


def test_not_a_skops_file_is_one_line(tmp_path):
    pytest.importorskip("skops.io")
    (tmp_path / "x.skops").write_text("hello")
    out = aspml("simplify", tmp_path / "x.skops", "--rho", "1")
    assert out.returncode == 2 and "not a skops file" in out.stderr
    out = aspml("simplify", tmp_path / "none.skops", "--rho", "1")
    assert out.returncode == 2 and "no such file" in out.stderr
