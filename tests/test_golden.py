"""Golden files: known programs print exactly as the expected files say.

Each case is ``golden/<case>.<dialect>`` (the input) and
``golden/expected/<case>.{lp,pl,scasp,txt}``.  Set ASPML_REGEN_GOLDEN=1 to
rewrite the expected files after a deliberate change, then read the diff.
"""

import os

import pytest

import aspml
from conftest import GOLDEN

CASES = {
    "birds.lp": "asp",                  # the birds / penguins default theory (FOLD-SE paper)
    "fold_se_adult.scasp": "scasp",     # rules (1)-(9) of the FOLD-SE paper, as printed there
    "foldrpp_kidney.scasp": "scasp",    # FOLD-R++ output style
    "mixed.txt": "text",                # intervals, value sets, negated comparison, flags
    "mixed_kinds.lp": "asp",            # a mixed column: type guards
    "multiclass.lp": "asp",             # a decision list of three classes (issue #17)
    "foldrm_wine.scasp": "scasp",       # the reference FOLD-RM's README program, as printed there
}
SUFFIX = {"asp": "lp", "prolog": "pl", "scasp": "scasp", "text": "txt"}
# prints a dialect refuses: (case, dialect) -> what the error says
REFUSED = {
    # an exception compares a mixed column: s(CASP)'s dual of a comparison fails on a
    # string, where the other engines hold (printers._refuse_negated_mixed_comparisons)
    ("mixed_kinds.lp", "scasp"): "opposite comparison",
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("dialect", ["asp", "prolog", "scasp", "text"])
def test_golden(case, dialect):
    program = aspml.parse((GOLDEN / case).read_text(), CASES[case])
    expected = GOLDEN / "expected" / f"{case.rsplit('.', 1)[0]}.{SUFFIX[dialect]}"
    if (case, dialect) in REFUSED:
        with pytest.raises(aspml.errors.DialectError, match=REFUSED[case, dialect]):
            program.print(dialect)
        assert not expected.exists()
        return
    got = program.print(dialect)
    if os.environ.get("ASPML_REGEN_GOLDEN"):
        expected.parent.mkdir(exist_ok=True)
        expected.write_text(got)
    assert got == expected.read_text()
    again = aspml.parse(got, dialect)
    if dialect in ("asp", "prolog"):
        assert again == program


def test_fold_paper_program_shape():
    p = aspml.parse((GOLDEN / "fold_se_adult.scasp").read_text(), "scasp")
    assert p.target == aspml.Target("income", "<=50K")
    assert (p.n_rules, len(p.default_rules), len(p.exception_rules)) == (9, 3, 6)
    assert p.derived == ("ab1", "ab2", "ab3", "ab4", "ab5", "ab6")
    assert p.n_literals == 32
    assert "capital_gain" in p.features_used and p.schema["age"].kind == "numeric"


def test_birds_semantics_in_clingo():
    p = aspml.parse((GOLDEN / "birds.lp").read_text(), "asp")
    facts = "row(tweety). bird(tweety). row(pingu). bird(pingu). penguin(pingu)."
    facts += " row(super). bird(super). penguin(super). superpenguin(super). row(rock)."
    model = aspml.asp.solve([p.to_asp(), facts, "#show flies/1."])
    assert aspml.asp.atoms(model[0]) == ["flies(super)", "flies(tweety)"]


def test_negated_comparisons_expand_into_exceptions():
    p = aspml.parse((GOLDEN / "mixed.txt").read_text(), "text")
    q = p.expand_negated_comparisons()
    assert not any(isinstance(lit, aspml.NotCompare) for lit in q.literals)
    assert q.n_rules == p.n_rules + 1
    assert aspml.parse(q.to_scasp(), "scasp").n_rules == q.n_rules
