"""The engine agrees with a GURPS battle written by hand (benchmarks/reference_gurps.py),
which imports nothing of it: the distributions of the winner, the Strategy margin and each
side's dead and wounded over the same number of battles pass a chi-square test of
homogeneity at p > 0.001 (benchmarks/compare_reference.py; docs/performance.md gives the
10,000-battle run). The seeds are fixed, so the test cannot flake; and it has the power to
see a rule gone wrong: the same sample rejects a reference that forgets armour."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import compare_reference  # noqa: E402
import reference_gurps  # noqa: E402

N = 300
#: a share per bin of the pooled numbers large enough for the smaller sample
SHARE = 0.02


@pytest.fixture(scope="module")
def engine():
    return compare_reference.engine_outcomes(N, 0)


def test_the_engine_and_the_reference_agree(engine):
    rows = compare_reference.compare(engine, compare_reference.reference_outcomes(N, 0), SHARE)
    assert {r["quantity"] for r in rows} == {
        "winner", "margin", "Megalos dead", "Megalos wounded", "Al-Wazif dead",
        "Al-Wazif wounded"}
    for r in rows:
        assert r["dof"] >= 2, r  # a test with categories to compare
        assert r["p"] > compare_reference.ALPHA, r


def test_the_sample_rejects_a_reference_that_forgets_armour(engine, monkeypatch):
    no_armour = {troop: (ts, 0, mounted)
                 for troop, (ts, _, mounted) in reference_gurps.TROOPS.items()}
    monkeypatch.setattr(reference_gurps, "TROOPS", no_armour)
    rows = compare_reference.compare(engine, compare_reference.reference_outcomes(N, 0), SHARE)
    rejected = {r["quantity"] for r in rows if r["p"] <= compare_reference.ALPHA}
    assert {"Megalos dead", "Al-Wazif dead"} <= rejected
    assert "winner" not in rejected  # armour changes the losses, not who wins


def test_the_chi_square_p_values_are_right():
    # tabulated critical values of the chi-square distribution
    assert compare_reference.chi_square_p(3.841, 1) == pytest.approx(0.05, abs=1e-4)
    assert compare_reference.chi_square_p(13.816, 2) == pytest.approx(0.001, abs=1e-5)
    assert compare_reference.chi_square_p(45.315, 20) == pytest.approx(0.001, abs=1e-5)
    assert compare_reference.chi_square_p(124.342, 100) == pytest.approx(0.05, abs=1e-4)
    assert compare_reference.chi_square_p(0.0, 4) == 1.0
