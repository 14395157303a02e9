"""The command line: golden outputs (with exit codes) and the JSON contract of DESIGN.md.

Full golden outputs for a dozen representative runs (GOLDEN_CASES: the canonical ceremony, a variant,
a violating example of each broad kind of rule, an audit finding, JSON, JSON Lines and YAML input,
Chinese output); for every other violating example, the first line, the exit status and the rule's
id (a few of each template kind by default, every one under `pytest -m slow`). A file in
tests/golden that no test reads fails the run. `pytest --update-golden` rewrites the golden files.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from sampling import rules_by_kind, sample_or_slow

from xiangshe.constraints.rulebook import rulebook
from xiangshe.domain.parse import parse_file, to_jsonl
from xiangshe.verify import cli

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
VIOLATIONS = sorted((ROOT / "traces" / "violations").glob("*.trace"))
SAMPLED = {r.id for r in rules_by_kind(rulebook())}


def invoke(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def readings_for(trace: Path) -> list[str]:
    """--reading options for an example written against a rule's non-default reading."""
    from xiangshe.constraints.rulebook import rulebook

    rule = next((r for r in rulebook() if r.id == trace.stem.split(".")[0]), None)
    return [a for p, o in (rule.when if rule else ()) for a in ("--reading", f"{p}={o}")]


def violation(stem: str) -> str:
    return f"traces/violations/{stem}.trace"


def as_jsonl(path: str) -> str:
    return to_jsonl(parse_file(ROOT / path, path))


def as_yaml(path: str) -> str:
    records = [json.loads(line) for line in as_jsonl(path).splitlines()]
    return yaml.safe_dump(records, allow_unicode=True)


#: name → (arguments, what makes standard input or None); the golden output is tests/golden/NAME.out
GOLDEN_CASES: dict[str, tuple[tuple[str, ...], Callable[[], str] | None]] = {
    "canonical": (("check", "traces/canonical.trace"), None),
    "yan-she": (("check", "traces/variants/yan-she.trace"), None),  # a variant: the 君 shoots
    "r131": (("check", "traces/audit/r131.trace"), None),  # the scoring audit
    # a violating example of each broad kind of rule (the first also under its reading, with scoring)
    "bu-guan-bu-shi": (("check", violation("bu-guan-bu-shi"), "--reading", "guan=zheng"), None),
    "gong-bu-ci-xi": (("check", violation("gong-bu-ci-xi")), None),  # absence
    "yi-jue-bai-zhe-bu-tu-zuo": (("check", violation("yi-jue-bai-zhe-bu-tu-zuo")), None),  # response
    "bin-bu-ci-xi": (("check", violation("bin-bu-ci-xi")), None),  # absence between
    "xian-gong-you-jian": (
        ("check", violation("xian-gong-you-jian"), "--reading", "san-zuo=three-xian"),
        None,
    ),  # a count
    "bin-li-ci-xu": (("check", violation("bin-li-ci-xu")), None),  # alternation
    "zhu-ren-yu-bin-wei-ou": (("check", violation("zhu-ren-yu-bin-wei-ou")), None),  # a pair
    "wu-jie": (("check", violation("wu-jie")), None),  # the cast, no line
    "yu-ze-gou-ying-nei": (("check", violation("yu-ze-gou-ying-nei")), None),  # the occasion
    "bu-guan-bu-shi-json": (("check", "--format", "json", violation("bu-guan-bu-shi")), None),
    "wu-jie-jsonl": (
        ("check", "-", "--stdin-format", "jsonl", "--stdin-filename", "wu-jie.jsonl"),
        lambda: as_jsonl(violation("wu-jie")),
    ),
    "gong-bu-ci-xi-yaml": (
        ("check", "-", "--stdin-format", "yaml", "--stdin-filename", "gong-bu-ci-xi.yaml"),
        lambda: as_yaml(violation("gong-bu-ci-xi")),
    ),
    "bu-guan-bu-shi-zh": (("--lang", "zh", "check", violation("bu-guan-bu-shi")), None),
}


@pytest.mark.parametrize("name", GOLDEN_CASES)
def test_check_golden(name: str, update_golden: bool) -> None:
    args, stdin = GOLDEN_CASES[name]
    result = invoke(*args, input=stdin() if stdin else None)
    shown = " ".join(args) + (f" < {args[-1]}" if stdin is not None else "")
    actual = f"$ xiangshe {shown}\n{result.output}[exit {result.exit_code}]\n"
    golden = GOLDEN / f"{name}.out"
    if update_golden:
        golden.write_text(actual, encoding="utf-8")
    assert golden.exists(), f"no golden output {golden.name}: run pytest --update-golden"
    assert actual == golden.read_text(encoding="utf-8")


def test_every_golden_file_is_read_by_a_test() -> None:
    from test_explain import GOLDEN_CASES as EXPLAIN_CASES
    from test_explain import golden_name

    used = {f"{n}.out" for n in GOLDEN_CASES} | {golden_name(a) for a in EXPLAIN_CASES}
    orphans = sorted(p.name for p in GOLDEN.iterdir() if p.name not in used)
    assert not orphans, f"golden files no test reads (delete them): {orphans}"
    assert all((GOLDEN / n).exists() for n in used)


@pytest.mark.parametrize(
    "trace", sample_or_slow(VIOLATIONS, lambda p: p.stem.split(".")[0] in SAMPLED, lambda p: p.stem)
)
def test_check_of_a_violating_example_names_its_rule_first(trace: Path) -> None:
    """The first line is the example's finding, located in the file and naming the rule; exit 1."""
    rel = str(trace.relative_to(ROOT))
    rule = trace.stem.split(".")[0]
    result = invoke("check", rel, *readings_for(trace))
    first = result.output.splitlines()[0]
    assert result.exit_code == 1, result.output
    assert re.match(rf"{re.escape(rel)}(:\d+)?: error: .+ \[{re.escape(rule)} ", first), first


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
