import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
GOLDEN = Path(__file__).resolve().parent / "golden"


def have_swipl() -> bool:
    return shutil.which("swipl") is not None


@pytest.fixture(scope="session")
def swipl():
    """Skip when swipl is absent, unless ASPML_REQUIRE_SWIPL is set (CI sets it)."""
    if not have_swipl():
        if os.environ.get("ASPML_REQUIRE_SWIPL"):
            pytest.fail("swipl is required (ASPML_REQUIRE_SWIPL) but not installed")
        pytest.skip("SWI-Prolog (swipl) is not installed")


@pytest.fixture(scope="session")
def data_dir():
    if not DATA.is_dir():
        pytest.skip("../shared/data is not present")
    return DATA
