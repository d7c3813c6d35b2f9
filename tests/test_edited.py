"""Issue #18, item 5: a saved model that a person edited runs from the command line with
one explicit flag (``--edited``; ``aspml.load(path, edited=True)``), its header still
giving the schema and scales; without the flag the file stays refused."""

import pandas as pd
import pytest

import aspml
from conftest import predict_with_every_engine, run_aspml

@pytest.fixture
def saved(tmp_path):
    X = pd.DataFrame({"x": [1.5, 2.5, 3.5, 4.5, 5.5, 6.5] * 5})
    y = ["no", "no", "no", "yes", "yes", "yes"] * 5
    data = tmp_path / "d.csv"
    X.to_csv(data, index=False)
    p = aspml.FoldSE(positive="yes").fit(X, y).program_
    assert "x > 3.5" in p.to_text()               # scaled by 10 in asp: 35
    return p, data, X


@pytest.mark.parametrize("suffix", [".lp", ".pl"])
def test_an_edited_model_runs_only_with_the_flag(saved, suffix, tmp_path, swipl):
    p, data, X = saved
    model = tmp_path / ("m" + suffix)
    p.save(model)
    text = model.read_text(encoding="utf-8")
    old, new = ("N1 > 35", "N1 > 55") if suffix == ".lp" else ("N1 > 3.5", "N1 > 5.5")
    assert text.count(old) == 1
    model.write_text(text.replace(old, new), encoding="utf-8")
    refused = run_aspml("predict", model, data)
    assert refused.returncode == 2 and "--edited" in refused.stderr, refused.stderr
    with pytest.raises(aspml.AspmlError, match="edited"):
        aspml.load(model)
    edited = aspml.load(model, edited=True)
    want = (X["x"] > 5.5).tolist()                 # the edit, read with the header's scale
    assert edited.predict(X).tolist() == want
    for engine, got in predict_with_every_engine(model, data, "--edited").items():
        assert [line.split(",")[1] == "yes" for line in got] == want, engine
    checked = run_aspml("check", model, data, "--edited")
    assert checked.returncode == 0 and "agree on every row: True" in checked.stdout
    # without its checksum line too
    cut = tmp_path / ("cut" + suffix)
    cut.write_text(model.read_text(encoding="utf-8").rpartition("% aspml-sha256:")[0],
                   encoding="utf-8")
    assert run_aspml("predict", cut, data).returncode == 2
    assert aspml.load(cut, edited=True) == edited


def test_edited_needs_a_saved_models_header(tmp_path):
    plain = tmp_path / "p.lp"
    plain.write_text('label(X) :- x(X,N), N > 1.\n', encoding="utf-8")
    done = run_aspml("export", plain, "--to", "text", "--edited")
    assert done.returncode == 2 and "--edited reads a model saved by aspml" in done.stderr
