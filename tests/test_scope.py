"""What "ok" covers: a trace is a whole ceremony unless it declares itself a fragment; a whole
ceremony stages every phase and leaves nothing open; `check` states the scope it verified."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from xiangshe.constraints.check import check_trace
from xiangshe.domain.parse import parse_jsonl, parse_lines
from xiangshe.verify import cli

ROOT = Path(__file__).resolve().parents[1]
CANONICAL = (ROOT / "traces" / "canonical.trace").read_text(encoding="utf-8")


def rules_of(text: str) -> set[str]:
    return {f.rule for f in check_trace(parse_lines(text, "t.trace")).findings}


def run(tmp_path: Path, text: str, *args: str):
    path = tmp_path / "t.trace"
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(cli, ["check", *args, str(path)], catch_exceptions=False)


def test_a_one_line_trace_is_not_an_ok_ceremony(tmp_path: Path) -> None:
    result = run(tmp_path, "宾 拜 to=主人\n")
    assert result.exit_code == 1
    assert "[scope.phases]" in result.output and "declare it before its first event" in result.output


def test_a_million_bows_are_not_a_ceremony_either() -> None:
    # not a ceremony (scope.phases); and the 宾's bows, never answered, break 拜答相承 (R301c)
    assert rules_of("phase Φ04\n" + "宾 拜 to=主人\n" * 2000) == {"scope.phases", "bai-da-xiang-cheng"}


def test_the_same_line_as_a_declared_fragment_is_ok_and_says_so(tmp_path: Path) -> None:
    result = run(tmp_path, "fragment Φ04\nphase Φ04\n宾 拜 to=主人\n")
    assert result.exit_code == 0, result.output
    assert "scope: a fragment (Φ04) — 1 phase staged (Φ04); rules in force:" in result.output
    assert "not triggered:" in result.output


def test_the_canonical_is_a_whole_ceremony_with_nothing_open(canonical_result) -> None:
    result = canonical_result
    s = result.scope
    assert result.ok and s is not None and s.whole and not s.missing and not s.open
    assert len(s.phases) == 52 and s.reached and s.throughout


def test_a_staging_that_stops_midway_fails_until_it_declares_the_part_it_is() -> None:
    cut = CANONICAL[: CANONICAL.index("phase Φ22")]
    found = check_trace(parse_lines(cut, "cut.trace")).findings
    assert [f.rule for f in found] == ["scope.phases"]
    assert "Φ22–Φ52" in found[0].message and "fragment Φ01–Φ21" in found[0].message
    declared = check_trace(parse_lines("fragment Φ01–Φ21\n" + cut, "cut.trace"))
    assert declared.ok and declared.scope is not None and not declared.scope.whole


def test_what_a_staging_cut_short_owes_in_a_phase_it_declares_is_a_fault() -> None:
    # cut before Φ22, the 工 who went down in Φ18 owe their going up in Φ44 (R533d): listed as open while
    # Φ44 is missing, a fault once the staging declares Φ44 (empty), as the scope counts it staged
    cut = CANONICAL[: CANONICAL.index("phase Φ22")]
    result = check_trace(parse_lines(cut, "cut.trace"))
    assert result.scope is not None and "gong-sheng-zi-xi-jie-fan-zuo" in {p.rule for p in result.scope.pending}
    found = check_trace(parse_lines(cut + "phase Φ44\n", "cut.trace")).findings
    assert "gong-sheng-zi-xi-jie-fan-zuo" in {f.rule for f in found}


def test_something_left_open_at_the_end_of_a_whole_ceremony_is_a_fault() -> None:
    lines = CANONICAL.splitlines(keepends=True)
    kept = "".join(line for line in lines if not line.startswith("弟子7 说左下纲 侯"))
    assert kept != CANONICAL
    found = [f for f in check_trace(parse_lines(kept, "open.trace")).findings]
    assert [f.rule for f in found] == ["scope.open"]
    assert "侯" in found[0].message and "释" in found[0].message
    assert "说侯之左下纲而释之" in found[0].citation.quote
    # in a fragment the same thing is listed, not faulted
    part = check_trace(parse_lines("fragment\n" + kept, "open.trace"))
    assert part.ok and part.scope is not None and [o.instance for o in part.scope.open] == ["侯1"]


def test_a_fragment_keeps_to_its_phases() -> None:
    text = "fragment Φ04\nphase Φ04\n宾 拜 to=主人\nphase Φ05\n主人 拜 to=宾\n"
    found = check_trace(parse_lines(text, "t.trace")).findings
    assert [(f.rule, f.line) for f in found] == [("scope.fragment", 5)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "phase Φ04\n宾 拜 to=主人\nfragment Φ04\n",
            "t.trace:3: error: a fragment declaration goes before the first event",
        ),
        ("fragment Φ04\nfragment Φ05\nphase Φ04\n宾 拜 to=主人\n", "t.trace:2: error: a second fragment declaration"),
        ("fragment Φ4\nphase Φ04\n宾 拜 to=主人\n", "t.trace:1: error: fragment: unknown phase Φ4"),
        ("fragment Φ07–Φ03\nphase Φ04\n宾 拜 to=主人\n", "runs backwards"),
        ("fragment Φ03–Φ05–Φ07\nphase Φ04\n宾 拜 to=主人\n", "is not a phase or a span of phases"),
    ],
)
def test_bad_fragment_declarations_are_input_errors(tmp_path: Path, text: str, expected: str) -> None:
    result = run(tmp_path, text)
    assert result.exit_code == 2 and expected in result.output, result.output


@pytest.mark.parametrize("spec", ["Φ03–Φ05", "Φ03-Φ05", "Φ03..Φ05", "Φ03, Φ04，Φ05", "Φ03 Φ04 Φ05"])
def test_fragment_spellings(spec: str) -> None:
    t = parse_lines(f"fragment {spec}\nphase Φ04\n宾 拜 to=主人\n", "t.trace")
    assert t.fragment is not None and t.fragment.phases == ("Φ03", "Φ04", "Φ05")


def test_fragment_record_in_json_lines() -> None:
    t = parse_jsonl('{"fragment": "Φ04"}\n{"phase": "Φ04"}\n{"actor": "宾", "act": "拜", "to": "主人"}\n', "t.jsonl")
    assert t.fragment is not None and t.fragment.phases == ("Φ04",)
    assert check_trace(t).ok


def test_json_carries_the_scope(tmp_path: Path) -> None:
    result = run(tmp_path, "fragment Φ04\nphase Φ04\n宾 拜 to=主人\n", "--format", "json")
    scope = json.loads(result.output)["traces"][0]["scope"]
    assert scope["whole"] is False and scope["fragment"] == ["Φ04"] and scope["phases"] == ["Φ04"]
    assert scope["rules_not_reached"] and scope["open"] == [] and scope["missing_phases"] == []


def test_every_bundled_example_that_is_not_whole_declares_its_part() -> None:
    """A violating or keeping example is a declared fragment, or else a whole ceremony (an edit of
    the canonical): never a part that passes itself off as the whole."""
    from xiangshe.domain.parse import parse_file

    for path in sorted((ROOT / "traces").glob("*/*.trace")):
        if path.parent.name in ("violations", "keeps"):
            first = next(
                line
                for line in path.read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.lstrip().startswith("#")
            )
            if not first.startswith("fragment"):
                scope = check_trace(parse_file(path, path.name)).scope
                assert scope is not None and scope.whole and not scope.missing, path.name


def test_a_fragment_lists_what_is_due_after_its_end_and_faults_what_was_due_within() -> None:
    from xiangshe.domain.libretto import Options, generate

    text = generate(Options(until="Φ05"))
    assert "fragment Φ01–Φ05" in text  # generate says it stopped early
    result = check_trace(parse_lines(text, "u.trace"))
    assert result.ok and result.scope is not None
    pending = sorted({p.rule for p in result.scope.pending})
    assert pending == ["san-bin-reng-bai-shou", "yi-jue-bai-zhe-bu-tu-zuo"]  # the 酢 is Φ06's, the 长's 拜受 Φ08's
    claimed = text.replace("fragment Φ01–Φ05", "fragment Φ01–Φ10")  # claims Φ06 and Φ08 too
    assert rules_of(claimed) == {"yi-jue-bai-zhe-bu-tu-zuo", "san-bin-reng-bai-shou"}


@pytest.mark.z3
def test_a_counterexample_declares_itself_a_fragment(tmp_path: Path) -> None:
    out = tmp_path / "cex.trace"
    result = CliRunner().invoke(
        cli, ["counterexample", "wu-jie", "--depth", "4", "-o", str(out)], catch_exceptions=False
    )
    assert result.exit_code == 1, result.output  # found: the rule can be broken
    first = next(
        line for line in out.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")
    )
    assert first.startswith("fragment")
    assert rules_of(out.read_text(encoding="utf-8")) == {"wu-jie"}
