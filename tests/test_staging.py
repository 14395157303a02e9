"""The generator of stagings: the bundled ceremony and variants are its output, and all pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from xiangshe.constraints.check import check_trace
from xiangshe.domain.parse import parse_file, parse_lines
from xiangshe.domain.staging import Options, generate
from xiangshe.domain.staging.bundle import bundle
from xiangshe.verify import cli

ROOT = Path(__file__).resolve().parents[1]
BUNDLE = bundle()


@pytest.mark.parametrize("path", list(BUNDLE), ids=lambda p: p.stem)
def test_bundled_staging_is_the_generators_output(path: Path) -> None:
    assert path.exists(), f"run python -m domain.staging.bundle to write {path.name}"
    assert path.read_text(encoding="utf-8") == BUNDLE[path], \
        f"{path.name} is stale: run python -m domain.staging.bundle"


@pytest.mark.parametrize("path", list(BUNDLE), ids=lambda p: p.stem)
def test_bundled_staging_keeps_every_machine_and_rule(path: Path) -> None:
    result = check_trace(parse_file(path, path.name))
    assert result.ok, [(f.line, f.rule, f.message) for f in result.findings[:8]]


def test_canonical_ceremony_is_whole_and_every_event_cites_the_text() -> None:
    trace = parse_file(ROOT / "traces" / "canonical.trace")
    phases = {e.phase for e in trace}
    assert {"Φ01", "Φ33", "Φ43", "Φ52"} <= phases
    assert all(e.source_line for e in trace), [e.text for e in trace if not e.source_line][:5]


@pytest.mark.parametrize("options", [
    Options(seed=7), Options(outcome=("左", "钧"), seed=3), Options(dafu=0, zhugong=1),
    Options(until="Φ13"),
], ids=["seed7", "left-tie", "no-dafu-zhugong", "until-13"])
def test_other_options_also_pass(options: Options) -> None:
    trace = parse_lines(generate(options), "generated.trace")
    result = check_trace(trace)
    assert result.ok, [(f.line, f.rule, f.message) for f in result.findings[:8]]


def test_generation_is_deterministic() -> None:
    assert generate(Options(seed=5)) == generate(Options(seed=5))


def test_generate_cli_never_overwrites(tmp_path: Path) -> None:
    out = tmp_path / "mine.trace"
    out.write_text("# my staging\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["generate", "--until", "Φ02", "-o", str(out)])
    assert result.exit_code == 2 and "exists" in result.output
    assert out.read_text(encoding="utf-8") == "# my staging\n"
    result = CliRunner().invoke(cli, ["generate", "--until", "Φ02", "-o", str(out), "--force"])
    assert result.exit_code == 0 and "phase Φ02" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("args", [["--arrow", "2:上耦:上射=中正"], ["--zhongbin", "3", "--zhongbin-pairs", "2"],
                                  ["--outcome", "右", "中"]])
def test_generate_cli_rejects_bad_options(args: list[str]) -> None:
    result = CliRunner().invoke(cli, ["generate", *args])
    assert result.exit_code == 2 and "Traceback" not in result.output
