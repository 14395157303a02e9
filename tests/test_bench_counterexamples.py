"""`benchmarks/counterexamples.py` measures every encoded rule (`cex_max_s` of issue 15): those in force
under the default readings, and those of another reading of a contested point, each under its own."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

if str(Path(__file__).resolve().parents[1]) not in sys.path:  # `pytest` as well as `python -m pytest`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import counterexamples  # noqa: E402
from xiangshe.constraints.readings import select  # noqa: E402
from xiangshe.constraints.rulebook import active_rules, load_rules  # noqa: E402


def test_every_encoded_rule_is_measured_the_default_ones_first() -> None:
    ids = counterexamples.encoded_rules()
    encoded = {r.id for r in load_rules() if r.encoded}
    assert len(ids) == len(set(ids)) and set(ids) == encoded
    default = {r.id for r in active_rules(select([], None)) if r.encoded}
    assert default < encoded  # some rules are in force only under another reading
    assert set(ids[: len(default)]) == default


def test_a_rule_of_another_reading_is_measured_under_it() -> None:
    assert counterexamples.reading_of("bu-guan-bu-shi-hou") == (("guan", "hou"),)
    assert counterexamples.reading_of("bu-guan-bu-shi") != (("guan", "hou"),)


@pytest.mark.z3
def test_a_rule_of_another_reading_gets_its_counterexample() -> None:
    row = counterexamples.one("si-ma-bu-jue-sui-never", 16)
    assert row["kind"] == "found" and row["steps"] == 1
