"""Engines start clean (issue #19): a user's own SWI-Prolog configuration must
not run inside ``aspml predict --engine prolog``.

The init file here prints row ids (which aspml would read as answers) and
rewrites every rule to ``Head :- true`` (so every row would be positive).
"""


import numpy as np
import pandas as pd
import pytest

import aspml
from aspml import prolog
from conftest import predict_with_every_engine, run_swipl

EVIL_INIT = """\
:- multifile user:term_expansion/2.
user:term_expansion((H :- _), (H :- true)) :- H \\= (:- _).
:- format("0~n1~n2~n").
"""


@pytest.fixture
def evil_home(tmp_path, monkeypatch, swipl):
    """HOME and XDG_CONFIG_HOME holding an init.pl that prints and rewrites rules."""
    home, xdg = tmp_path / "home", tmp_path / "xdg"
    for init in (home / ".config" / "swi-prolog" / "init.pl", xdg / "swi-prolog" / "init.pl",
                 home / ".swiplrc"):
        init.parent.mkdir(parents=True, exist_ok=True)
        init.write_text(EVIL_INIT)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(xdg))
    # the init file is real: a plain swipl runs it
    plain = run_swipl("true", options=(), timeout=60)
    assert plain.stdout.split() == ["0", "1", "2"]
    return home


PROGRAM = "IF f > 5 THEN label = 1\nELSE label = 0\n"
ROWS = pd.DataFrame({"f": [1, 2, 9, None]})


def test_prolog_engine_ignores_the_users_init_file(evil_home):
    p = aspml.parse(PROGRAM, "text")
    want = np.array([False, False, True, False])
    assert prolog.predict(p, ROWS).tolist() == want.tolist()
    assert aspml.evaluate.predict(p, ROWS).tolist() == want.tolist()
    assert prolog.consult_messages([p.to_prolog()]) == [""]


def test_cli_prolog_engine_ignores_the_users_init_file(evil_home, tmp_path):
    model, data = tmp_path / "m.txt", tmp_path / "d.csv"
    model.write_text(PROGRAM)
    ROWS.to_csv(data, index=False)
    outs = predict_with_every_engine(model, data)
    assert outs["prolog"] == outs["fast"] == outs["clingo"] == ["0,0", "1,0", "2,1", "3,0"]
