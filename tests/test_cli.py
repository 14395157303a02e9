"""The command line: golden outputs (with exit codes) and the JSON contract of DESIGN.md.

`pytest --update-golden` rewrites tests/golden/*.out from the current output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from xiangshe.verify import cli

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
TRACES = [ROOT / "traces" / "canonical.trace", *sorted((ROOT / "traces" / "violations").glob("*.trace"))]


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def readings_for(trace: Path) -> list[str]:
    """--reading options for an example written against a rule's non-default reading."""
    from xiangshe.constraints.rulebook import rulebook

    rule = next((r for r in rulebook() if r.id == trace.stem.split(".")[0]), None)
    return [a for p, o in (rule.when if rule else ()) for a in ("--reading", f"{p}={o}")]


@pytest.mark.parametrize("trace", TRACES, ids=lambda p: p.stem)
def test_check_golden(trace: Path, update_golden: bool) -> None:
    rel = str(trace.relative_to(ROOT))
    args = ["check", rel, *readings_for(trace)]
    result = invoke(*args)
    actual = f"$ xiangshe {' '.join(args)}\n{result.output}[exit {result.exit_code}]\n"
    golden = GOLDEN / f"{trace.stem}.out"
    if update_golden:
        golden.write_text(actual, encoding="utf-8")
    assert golden.exists(), f"no golden output {golden.name}: run pytest --update-golden"
    assert actual == golden.read_text(encoding="utf-8")


def test_check_without_file_checks_the_canonical_ceremony() -> None:
    result = invoke("check")
    assert result.exit_code == 0 and "ok: 1 trace" in result.output
    assert "readings: guan=zheng" in result.output


def test_check_json_fields() -> None:
    bad = sorted((ROOT / "traces" / "violations").glob("*.trace"))[0]
    result = invoke("check", "--format", "json", str(bad.relative_to(ROOT)), "traces/canonical.trace")
    doc = json.loads(result.output)
    assert result.exit_code == 1
    first, canon = doc["traces"]
    assert first["ok"] is False and canon["ok"] is True and canon["violations"] == []
    v = first["violations"][0]
    assert set(v) >= {"rule", "name", "catalogue", "event", "line", "message", "quote", "source_line"}
    assert isinstance(v["event"], int) or v["event"] is None


def test_rules_json_contract() -> None:
    doc = json.loads(invoke("rules", "--format", "json").output)
    for r in doc["rules"]:
        assert set(r) >= {"id", "name", "catalogue", "status", "quotes"}
        assert r["status"] in ("encoded", "descriptive", "deferred")
        assert r["status"] == "encoded" or r.get("reason")
        assert all(set(q) >= {"text", "source_line"} for q in r["quotes"])


def test_explain_accepts_id_name_and_catalogue() -> None:
    from xiangshe.constraints.rulebook import rulebook

    r = next(r for r in rulebook() if r.encoded and r.catalogue)
    outs = [invoke("explain", w).output for w in (r.id, r.name, r.catalogue)]
    assert all(r.name in o and r.citations[0].quote in o for o in outs)
    assert "failing example" in outs[0] and "passing example" in outs[0]


def test_explain_unknown_rule_is_usage_error() -> None:
    result = invoke("explain", "不贯不放")
    assert result.exit_code == 2 and "did you mean" in result.output


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("主人 献爵 爵\n", "unknown act 献爵"),
        ("\x00\x01", "binary file"),
        ("", "no events"),
    ],
)
def test_bad_input_exits_2_with_a_located_message(tmp_path: Path, content: str, expected: str) -> None:
    p = tmp_path / "bad.trace"
    p.write_text(content, encoding="utf-8")
    result = invoke("check", str(p))
    assert result.exit_code == 2
    assert expected in result.output and "Traceback" not in result.output
    assert p.read_text(encoding="utf-8") == content  # the user's file is untouched


def test_missing_file_exits_2() -> None:
    result = invoke("check", "no/such.trace")
    assert result.exit_code == 2 and "no such file" in result.output


def test_check_path_never_imports_z3() -> None:
    import subprocess
    import sys

    code = (
        "import sys\nfrom xiangshe import verify\n"
        "try:\n    verify.cli.main(['check'], standalone_mode=False)\n"
        "except SystemExit:\n    pass\n"
        "print('z3' in sys.modules)"
    )
    out = (
        subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
        .stdout.strip()
        .splitlines()[-1]
    )
    assert out == "False"


def test_version_is_pyprojects_and_check_never_reads_package_metadata() -> None:
    """--version reads the version when asked; the check path does not import importlib.metadata
    (it costs more than the rest of check's start-up)."""
    import subprocess
    import sys
    import tomllib

    expected = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert invoke("--version").output == f"xiangshe, version {expected}\n"
    code = (
        "import sys\nfrom xiangshe import verify\n"
        "try:\n    verify.cli.main(['check'], standalone_mode=False)\n"
        "except SystemExit:\n    pass\n"
        "print('importlib.metadata' in sys.modules)"
    )
    out = (
        subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL, check=True
        )
        .stdout.strip()
        .splitlines()[-1]
    )
    assert out == "False"
