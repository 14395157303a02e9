"""The commands' behaviour as plain functions (reports/commands/), without click's CliRunner: what
each writes and the exit status it returns. The command line (verify.py) only wires these."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from xiangshe.reports.cli import BadInput
from xiangshe.reports.commands import checking, listing, solving

ROOT = Path(__file__).resolve().parents[1]
LINT = {"select": (), "ignore": (), "config_file": None, "isolated": True}


def _check(files: tuple[str, ...], fmt: str = "json", **extra) -> int:
    return checking.check(files, fmt, False, (), None, jobs=1, **(LINT | extra))


def test_check_returns_0_for_the_canonical_and_writes_its_report(capsys):
    assert _check((str(ROOT / "traces" / "canonical.trace"),)) == 0
    [trace] = json.loads(capsys.readouterr().out)["traces"]
    assert trace["ok"] and trace["events"] > 500


def test_check_returns_1_for_a_violation_and_names_the_rule(capsys):
    assert _check((str(ROOT / "traces" / "violations" / "bu-guan-bu-shi.trace"),)) == 1
    [trace] = json.loads(capsys.readouterr().out)["traces"]
    assert "bu-guan-bu-shi" in {v["rule"] for v in trace["violations"]}


def test_check_returns_2_when_a_file_cannot_be_read_and_still_checks_the_others(tmp_path, capsys):
    bad = tmp_path / "bad.trace"
    bad.write_bytes(b"\xff\xfe not text")
    good = str(ROOT / "traces" / "canonical.trace")
    assert _check((str(bad), good), fmt="text") == 2
    out = capsys.readouterr()
    assert "bad.trace" in out.err and "canonical.trace" in out.out


def test_check_with_a_selection_applies_only_it(capsys):
    path = str(ROOT / "traces" / "violations" / "bu-guan-bu-shi.trace")
    assert _check((path,), select=("machine",)) == 0  # the rule broken is not selected
    assert json.loads(capsys.readouterr().out)["traces"][0]["violations"] == []


def test_a_missing_file_is_reported_in_its_place_exit_2(capsys):
    assert _check(("no-such.trace",), fmt="text") == 2
    assert "no-such.trace: error: no such file" in capsys.readouterr().err


def test_a_directory_is_bad_input_for_report(tmp_path):
    with pytest.raises(BadInput) as err:
        checking.report(str(tmp_path), None, False, (), None, **LINT)
    assert tmp_path.name in err.value.message


def test_coverage_returns_1_under_its_minimum_and_0_at_it(capsys):
    assert listing.coverage("json", False, None) == 0
    share = json.loads(capsys.readouterr().out)["percent_enforced"]
    assert listing.coverage("json", False, share) == 0
    assert listing.coverage("json", False, share + 0.1) == 1


def test_rules_lists_the_rulebook(capsys):
    assert listing.rules("json", (), None) == 0
    ids = {r["id"] for r in json.loads(capsys.readouterr().out)["rules"]}
    assert "bu-guan-bu-shi" in ids


def test_generate_refuses_an_arrow_given_twice():
    import click

    arrows = (("弟子1", ("中正",)), ("弟子1", ("中侯",)))
    with pytest.raises(click.BadParameter, match="弟子1 is given twice"):
        listing.generate(None, False, "trace", arrows, outcome=())


def test_explain_an_unknown_rule_is_bad_input_with_a_suggestion():
    with pytest.raises(BadInput) as err:
        listing.explain("bu-guan-bu-sh", "text")
    assert "bu-guan-bu-shi" in err.value.message


@pytest.mark.z3
def test_query_returns_the_answers_exit_status(capsys):
    status = solving.query(
        "absence", (), 3, None, "json", (), None, pattern="司射 升 * actor.司射=袒·搢扑", first=None, after=None
    )
    answer = json.loads(capsys.readouterr().out)
    assert answer["property"] == {"kind": "absence", "pattern": "司射 升 * actor.司射=袒·搢扑"}
    assert status == (0 if answer["holds"] else 1)
