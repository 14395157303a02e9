"""The libretto: the bundled ceremony and variants are its performances, and all pass; its errors are located."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from xiangshe.constraints.check import check_trace
from xiangshe.domain import bundled
from xiangshe.domain.libretto import Cast, Options, StagingError, generate, performance
from xiangshe.domain.libretto.bundle import bundle
from xiangshe.domain.libretto.perform import perform
from xiangshe.domain.parse import parse_file, parse_lines
from xiangshe.verify import cli

ROOT = Path(__file__).resolve().parents[1]
#: the bundled stagings the libretto writes (test_the_bundle_is_these_stagings checks the list)
BUNDLED = [bundled.CANONICAL, *sorted(bundled.VARIANTS.glob("*.trace"))]


@cache
def performances() -> dict[Path, str]:
    """The libretto's text of every bundled staging, generated once per process (when first needed)."""
    return bundle()


def test_the_bundle_is_these_stagings() -> None:
    assert sorted(performances()) == sorted(BUNDLED)


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_bundled_staging_is_the_librettos_performance(path: Path) -> None:
    assert path.exists(), f"run python -m xiangshe.domain.libretto.bundle to write {path.name}"
    assert path.read_text(encoding="utf-8") == performances()[path], (
        f"{path.name} is stale: run python -m xiangshe.domain.libretto.bundle"
    )


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_bundled_staging_keeps_every_machine_and_rule(path: Path) -> None:
    result = check_trace(parse_file(path, path.name))
    assert result.ok, [(f.line, f.rule, f.message) for f in result.findings[:8]]


def test_canonical_ceremony_is_whole_and_every_event_cites_the_text() -> None:
    trace = parse_file(ROOT / "traces" / "canonical.trace")
    phases = {e.phase for e in trace}
    assert {"Φ01", "Φ33", "Φ43", "Φ52"} <= phases
    assert all(e.source_line for e in trace), [e.text for e in trace if not e.source_line][:5]


@pytest.mark.parametrize(
    "options",
    [
        Options(seed=7),
        Options(outcome=("左", "钧"), seed=3),
        Options(dafu=0, zhugong=1),
        Options(until="Φ13"),
    ],
    ids=["seed7", "left-tie", "no-dafu-zhugong", "until-13"],
)
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


@pytest.mark.parametrize(
    "args", [["--arrow", "2:上耦:上射=中正"], ["--zhongbin", "3", "--zhongbin-pairs", "2"], ["--outcome", "右", "中"]]
)
def test_generate_cli_rejects_bad_options(args: list[str]) -> None:
    result = CliRunner().invoke(cli, ["generate", *args])
    assert result.exit_code == 2 and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("phase Φ01 x\n§ 主人戒宾\n{{ nosuch }} 戒 to=宾\n", "'nosuch' is undefined"),
        ("phase Φ01 x\n§ 主人戒宾\n% if\n", "libretto:3: error: Expected an expression"),
        ("phase Φ01 x\n§ 没有这句话\n主人 戒\n", "libretto, phase Φ01: 「没有这句话」 is not in the text"),
        ("phase Φ01 x\n主人 戒\n", "libretto, phase Φ01: an event before any § clause"),
        ("phase Φ01 x\n§ L99 主人戒宾\n主人 戒 to=宾\n", "does not occur at line 99"),
    ],
    ids=["undefined", "syntax", "not-in-text", "no-clause", "wrong-line"],
)
def test_libretto_errors_are_located(source: str, message: str) -> None:
    o = Options()
    with pytest.raises(StagingError, match=None) as err:
        perform(o, Cast(o), source)
    assert message in str(err.value)


def test_clauses_are_located_forward_and_repeat_in_loops() -> None:
    o = Options()
    source = (
        "phase Φ01 x\n§ 主人戒宾\n主人 戒 to=宾\n§ 再拜\n宾 拜 to=主人 n=2\n"
        "% for i in range(2)\n§ 宾出迎\n宾 出迎 to=主人\n% endfor\n§ 无介 | not enacted: no 介\n"
    )
    perf = perform(o, Cast(o), source)
    lines = [c.cite.line for c in perf.clauses]
    assert lines == [3, 3, 3, 3, 4], lines  # 再拜 is the first one after 主人戒宾 (L3), not L4's
    assert [c.events for c in perf.clauses] == [1, 1, 1, 1, 0]
    assert perf.clauses[-1].reason == "no 介"
    assert "# L4 「无介」 not enacted: no 介" in perf.lines


def test_every_not_enacted_clause_of_the_libretto_gives_its_reason() -> None:
    clauses = performance().clauses
    assert clauses
    marked = [c for c in clauses if c.reason is not None]
    assert marked and all(c.reason and c.events == 0 for c in marked)


def test_the_libretto_mentions_every_clause_of_the_main_text() -> None:
    """Each clause of the main text (戒宾 … 息司正, L3–241) is in the libretto: enacted by some
    bundled option set, or marked `not enacted` with its reason."""
    import re
    import tomllib

    from xiangshe.constraints.coverage import clauses
    from xiangshe.domain.libretto.bundle import MANIFEST
    from xiangshe.domain.text import TEXT

    specs: list[dict] = [{}]
    for spec in tomllib.loads(MANIFEST.read_text(encoding="utf-8")).values():
        specs.append({k: tuple(v) if k == "outcome" else v for k, v in spec.items() if k != "title"})
    cited = {(c.cite.quote, c.cite.line) for s in specs for c in performance(Options(**s)).clauses}
    spans = [
        (m.start(), m.end())
        for quote, line in cited
        for m in re.finditer(re.escape(quote), TEXT.flat)
        if TEXT._line_of[m.start()] == line
    ]
    missing = [
        f"L{c.line} {c.text}"
        for c in clauses()
        if 3 <= c.line <= 241 and not any(a < c.end and c.start < b for a, b in spans)
    ]
    assert not missing, missing[:10]
