"""Every reading at once (constraints/allreadings.py, reports/allreadings.py; `readings FILE`,
`check --all-readings`, `report FILE --all-readings`): the points that bear on a staging, the
combinations, the findings under each matched against `check --reading …` for that combination,
the verdict that flips, the bound, the JSON and its schema, the HTML section."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from xiangshe import schemas
from xiangshe.constraints.allreadings import LIMIT, bearing, compare, key
from xiangshe.constraints.check import check_trace
from xiangshe.constraints.readings import defaults, points
from xiangshe.constraints.rulebook import active_rules
from xiangshe.domain import bundled
from xiangshe.domain.sources import parse_path
from xiangshe.reports.allreadings import comparison_text, verdict
from xiangshe.verify import cli

ROOT = Path(__file__).resolve().parents[1]
BU_GUAN = ROOT / "traces" / "violations" / "bu-guan-bu-shi.trace"
SI_MA = ROOT / "traces" / "violations" / "si-ma-bu-jue-sui.trace"


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def readings_json(*args: str) -> tuple[int, dict]:
    result = invoke("readings", "--format", "json", *args)
    return result.exit_code, json.loads(result.stdout)


def check_json(*args: str) -> dict:
    result = invoke("check", "--format", "json", *args)
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def findings_of(doc: dict) -> set[tuple]:
    return {(v["rule"], v["line"], v["message"]) for t in doc["traces"] for v in t["violations"]}


def under(comparison: dict, i: int) -> set[tuple]:
    """The findings of combination i, as `readings` reports them: the stable ones and the changes
    that appear under it."""
    found = comparison["stable"] + [c for c in comparison["changes"] if i in c["under"]]
    return {(v["rule"], v["line"], v["message"]) for v in found}


def si_ma_round_2(tmp_path: Path) -> Path:
    """The canonical ceremony with the 司马 putting on the ring in round 2, as L148 says
    (「司马袒决执弓，升命取矢，如初」): the text as it stands allows it; 郑注, 贾疏, 敖继公 and 吴廷华
    read the 决 as a slip (si-ma-jue-sui=never)."""
    lines = bundled.CANONICAL.read_text(encoding="utf-8").splitlines(keepends=True)
    [at] = [i for i, ln in enumerate(lines) if ln.startswith("司马 袒 ") and "L148 司马袒决执弓" in ln]
    lines[at] = lines[at].replace("司马 袒 ", "司马 袒决", 1)
    out = tmp_path / "si-ma-round-2.trace"
    out.write_text("".join(lines), encoding="utf-8")
    return out


# -- the points that bear, the combinations --------------------------------------------------------


def test_only_the_points_that_bear_are_varied() -> None:
    bears = bearing(parse_path(BU_GUAN))
    assert [b.point for b in bears] == ["guan"]
    [guan] = bears
    assert guan.options == ("zheng", "hou")  # the default first; ao and jin cannot be checked
    assert guan.unchecked == ("ao", "jin")
    assert {"bu-guan-bu-shi", "bu-guan-bu-shi-hou"} <= set(guan.why)
    assert any("中侯" in w and "line 39" in w for w in guan.why)  # the audit: the shot that scores under one reading


def test_a_staging_no_reading_bears_on_is_checked_once() -> None:
    trace = parse_path(ROOT / "traces" / "violations" / "bai-xi.trace")
    c = compare(trace)
    assert not c.varying and len(c.combinations) == c.total == 1
    assert c.combinations[0].readings == defaults()
    assert str(verdict(c)) == (
        "no contested point with two readings that can be checked bears on it: fails under every reading"
    )


def test_a_pinned_point_is_held() -> None:
    trace = parse_path(BU_GUAN)
    c = compare(trace, defaults() | {"guan": "hou"}, pinned=("guan",))
    assert c.total == 1 and c.combinations[0].readings["guan"] == "hou" and c.combinations[0].ok


# -- each combination is what `check --reading …` finds --------------------------------------------


def test_the_flip_matches_the_per_reading_checks_through_the_cli() -> None:
    code, doc = readings_json(str(BU_GUAN))
    assert code == 1
    [c] = doc["stagings"]
    assert c["verdict"] == "depends" and c["deciding"] == ["guan"]
    for i, combo in enumerate(c["combinations"]):
        choices = [a for p, o in combo["readings"].items() for a in ("--reading", f"{p}={o}")]
        per_reading = findings_of(check_json(*choices, str(BU_GUAN)))
        assert under(c, i) == per_reading
        assert combo["ok"] == (not per_reading) and combo["findings"] == len(per_reading)
    by = {tuple(combo["readings"].items()): combo["ok"] for combo in c["combinations"]}
    assert by == {(("guan", "zheng"),): False, (("guan", "hou"),): True}
    assert c["summary"] == (
        "holds under guan=hou (the encoder's own); "
        "fails under guan=zheng (郑注, 贾疏, 张尔岐) at line 40 (bu-guan-bu-shi)"
    )


WHOLE = pytest.mark.slow  # a whole ceremony under eight combinations, each checked twice


@pytest.mark.parametrize(
    "name", ["bu-guan-bu-shi", "bu-guan-bu-shi-hou", "si-ma-bu-jue-sui", pytest.param("n10.whole", marks=WHOLE)]
)
def test_each_combination_is_the_check_under_its_readings(name: str) -> None:
    [path] = [p for p in (ROOT / "traces").rglob(f"{name}.trace")]
    _matches(path)


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted((ROOT / "traces" / "violations").glob("*.trace")), ids=lambda p: p.stem)
def test_every_violating_example_under_every_reading_is_its_check(path: Path) -> None:
    _matches(path)


def _matches(path: Path) -> None:
    """Each combination's findings are `check_trace`'s under its readings; the stable findings are
    those under every combination; a change appears exactly under the combinations it names."""
    trace = parse_path(path)
    c = compare(trace)
    for u in c.combinations:
        alone = check_trace(trace, active_rules(u.readings), u.readings)
        assert [key(f) for f in u.result.findings] == [key(f) for f in alone.findings]
    keys = [{key(f) for f in u.result.findings} for u in c.combinations]
    assert {key(f) for f in c.stable} == set.intersection(*keys)
    for ch in c.changes:
        assert {i for i, k in enumerate(keys) if key(ch.finding) in k} == set(ch.under)


def test_the_canonical_ceremony_holds_under_every_reading_but_the_whole_xian_huo() -> None:
    """The canonical ceremony announces the 贤获 as the margin (郑注 「齊之而取其餘」): under the
    encoder's own xian-huo=whole the two announcements fail (N10), and under nothing else."""
    trace = parse_path(bundled.CANONICAL)
    c = compare(trace)
    assert [b.point for b in c.varying] == ["guan", "xian-huo", "san-zuo"]
    assert c.complete and c.total == 8
    assert c.deciding() == ("xian-huo",)
    assert {u.varied for u in c.combinations if not u.ok} == {
        u.varied for u in c.combinations if dict(u.varied)["xian-huo"] == "whole"
    }
    assert not c.stable
    assert {(ch.finding.rule, ch.finding.line) for ch in c.changes} == {("audit.n10", 1978), ("audit.n10", 2875)}
    assert str(verdict(c)) == (
        "holds under xian-huo=margin (郑注, 贾疏, 敖继公, 张尔岐); "
        "fails under xian-huo=whole (the encoder's own) at line 1978, 2875 (audit.n10)"
    )


def test_zheng_zhu_and_ao_jigong_against_the_text_as_it_stands(tmp_path: Path) -> None:
    """The 决 of L148: allowed as the text stands, a slip for 郑注, 贾疏, 敖继公 and 吴廷华. The other
    points that bear on the whole ceremony are held with --reading (two combinations, not sixteen)."""
    staging = si_ma_round_2(tmp_path)
    held = ["--reading", "guan=zheng", "--reading", "xian-huo=margin", "--reading", "san-zuo=three-xian"]
    code, doc = readings_json(*held, str(staging))
    assert code == 1
    [c] = doc["stagings"]
    assert [p["point"] for p in c["points"] if p["varies"]] == ["si-ma-jue-sui"]
    assert {p["point"] for p in c["points"] if p["pinned"]} == {"guan", "xian-huo", "san-zuo"}
    line = next(
        n for n, ln in enumerate(staging.read_text(encoding="utf-8").splitlines(), 1) if ln.startswith("司马 袒决")
    )
    assert c["summary"] == (
        "holds under si-ma-jue-sui=text-per-round (the text as it stands); fails under si-ma-jue-sui=never "
        f"(郑注, 贾疏, 敖继公, 吴廷华) at line {line} (si-ma-bu-jue-sui-never)"
    )
    for i, combo in enumerate(c["combinations"]):
        choices = [a for p, o in combo["readings"].items() for a in ("--reading", f"{p}={o}")]
        assert under(c, i) == findings_of(check_json(*held, *choices, str(staging)))


def test_fails_under_every_reading_with_findings_that_differ() -> None:
    c = compare(parse_path(SI_MA))
    assert not c.holds and c.differing() == ("si-ma-jue-sui",) and not c.deciding()
    assert str(verdict(c)) == (
        "fails under every reading that bears on it: si-ma-jue-sui=text-per-round (the text as it stands), "
        "si-ma-jue-sui=never (郑注, 贾疏, 敖继公, 吴廷华) alike (the findings differ with si-ma-jue-sui)"
    )


# -- the bound, the aliases, bad input ---------------------------------------------------------------


def test_the_bound_is_inconclusive_exit_3() -> None:
    result = invoke("readings", "--max-combinations", "1", str(BU_GUAN))
    assert result.exit_code == 3
    assert "only 1 of 2 combinations checked (--max-combinations 1): inconclusive" in result.output
    code, doc = readings_json("--max-combinations", "1", str(BU_GUAN))
    assert code == 3 and doc["stagings"][0]["verdict"] == "inconclusive" and not doc["stagings"][0]["complete"]


def test_the_default_bound_is_the_modules() -> None:
    [opt] = [p for p in cli.commands["readings"].params if p.name == "max_combinations"]
    assert opt.default == LIMIT


def test_check_all_readings_is_the_readings_command() -> None:
    a = invoke("check", "--all-readings", str(BU_GUAN))
    b = invoke("readings", str(BU_GUAN))
    assert a.exit_code == b.exit_code == 1 and a.stdout == b.stdout
    assert "holds under guan=hou" in a.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("check", "--all-readings", "--format", "sarif"), "text or json"),
        (("check", "--all-readings", "--baseline", "b.json"), "a baseline does not apply"),
        (("readings", "--reading", "guan=ao"), "cannot be checked"),
        (("readings", "--max-combinations", "0"), "--max-combinations"),
    ],
)
def test_bad_usage_exits_2(args: tuple[str, ...], says: str) -> None:
    result = invoke(*args, str(BU_GUAN))
    assert result.exit_code == 2 and says in result.output


def test_an_unreadable_staging_exits_2_and_its_json_validates(tmp_path: Path) -> None:
    bad = tmp_path / "bad.trace"
    bad.write_text("宾 飞\n", encoding="utf-8")
    code, doc = readings_json(str(bad), str(BU_GUAN))
    assert code == 2
    assert [s["verdict"] for s in doc["stagings"]] == ["unreadable", "depends"]
    _valid(doc)


def test_the_selection_applies_under_every_reading() -> None:
    code, doc = readings_json("--ignore", "R120", str(BU_GUAN))
    assert code == 0 and doc["stagings"][0]["verdict"] == "holds"


# -- JSON, text, HTML ---------------------------------------------------------------------------------


def _valid(doc: dict) -> None:
    schema = schemas.load("readings")
    jsonschema.Draft202012Validator.check_schema(schema)
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(doc))
    assert not errors, jsonschema.exceptions.best_match(errors)


def test_the_json_validates_and_the_schema_is_strict() -> None:
    _, doc = readings_json(str(BU_GUAN), str(SI_MA))
    _valid(doc)
    broken = json.loads(json.dumps(doc))
    broken["stagings"][0]["verdict"] = "maybe"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schemas.load("readings"), cls=jsonschema.Draft202012Validator)
    broken = json.loads(json.dumps(doc))
    del broken["stagings"][0]["changes"][0]["under"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schemas.load("readings"), cls=jsonschema.Draft202012Validator)


def test_each_reading_is_shown_with_who_reads_it_so() -> None:
    for p in points().values():
        for o in p.options.values():
            assert o.by, f"[{p.name}.options.{o.name}] says nobody: write `by`"
    text = "\n".join(comparison_text(compare(parse_path(BU_GUAN))))
    assert "zheng (default)  郑注, 贾疏, 张尔岐" in text
    assert "ao  敖继公 — cannot be checked: a trace records where an arrow struck" in text


def test_the_verdict_under_lang_zh() -> None:
    result = invoke("--lang", "zh", "readings", str(BU_GUAN))
    first = result.stdout.splitlines()[0]
    assert "从guan=hou (编者自拟)则合；从guan=zheng (郑注, 贾疏, 张尔岐)（第 40 (bu-guan-bu-shi) 行）则不合" in first


def test_the_report_has_the_section_only_when_asked(tmp_path: Path) -> None:
    with_it, without = tmp_path / "a.html", tmp_path / "b.html"
    assert invoke("report", str(BU_GUAN), "--all-readings", "-o", str(with_it)).exit_code == 1
    assert invoke("report", str(BU_GUAN), "-o", str(without)).exit_code == 1
    page = with_it.read_text(encoding="utf-8")
    assert 'id="all-readings"' in page and 'href="#all-readings"' in page
    assert "holds under guan=hou (the encoder&#39;s own); fails under guan=zheng (郑注, 贾疏, 张尔岐)" in page
    assert "貫謂中而不脫" in page  # 敖继公's reading, quoted, though it cannot be checked
    assert 'data-ok="false"' in page and 'data-ok="true"' in page
    assert 'id="all-readings"' not in without.read_text(encoding="utf-8")


def test_a_bound_never_says_every_reading() -> None:
    c = compare(parse_path(BU_GUAN), limit=1)
    assert not c.complete and c.total == 2 and len(c.combinations) == 1
    text = "\n".join(comparison_text(c))
    assert "every reading" not in text and "alike" not in text
    assert text.splitlines()[0].endswith("only 1 of 2 combinations checked (--max-combinations 1): inconclusive")


def test_the_command_as_a_plain_function(capsys: pytest.CaptureFixture[str]) -> None:
    """reports/commands/everyreading.py without the command line: what it writes, what it returns."""
    from xiangshe.reports.cli import BadInput
    from xiangshe.reports.commands.everyreading import readings

    lint = {"select": (), "ignore": (), "config_file": None, "isolated": True}
    assert readings((str(BU_GUAN),), "json", LIMIT, (), None, **lint) == 1
    [c] = json.loads(capsys.readouterr().out)["stagings"]
    assert c["verdict"] == "depends"
    assert readings((str(BU_GUAN),), "text", LIMIT, ("guan=hou",), None, **lint) == 0
    assert capsys.readouterr().out.startswith(f"{BU_GUAN.relative_to(ROOT)}: no contested point with two readings")
    with pytest.raises(BadInput):
        readings((str(BU_GUAN),), "text", LIMIT, (), None, baseline_file=Path("b.json"), **lint)
