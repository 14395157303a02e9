"""The scoring audit: per arrow, per side, the announcement and the numeric facts."""

from __future__ import annotations

import pytest

from xiangshe.constraints.readings import defaults
from xiangshe.constraints.scoring import audit, chinese_number, chun_qi
from xiangshe.domain.parse import parse_lines

CAST = "cast 甲 弟子\ncast 乙 弟子\npair 上耦 上射=甲 下射=乙\n"


def rounds(body: str, **readings: str):
    return audit(parse_lines(CAST + body, "t.trace"), defaults() | readings)


def test_round_one_never_scores() -> None:
    [r1] = rounds("phase Φ21\n甲 射 矢 arrow=1 result=中正\n")
    assert not r1.arrows[0].scores and "获而未释获" in r1.arrows[0].why


def test_what_scores_follows_the_reading_of_guan() -> None:
    """郑注 (the default): only a hit on the 正 scores, 「不中正，不释算」; a hit on the 侯 outside the
    正 and a miss do not. Under the encoder's alternative (guan=hou) any hit on the 侯 scores."""
    body = "phase Φ27\n甲 射 矢 arrow=1 result=中正\n乙 射 矢 arrow=1 result=中侯\n甲 射 矢 arrow=2 result=不中\n"
    [zheng] = rounds(body)
    [hou] = rounds(body, guan="hou")
    assert defaults()["guan"] == "zheng"
    assert [a.scores for a in zheng.arrows] == [True, False, False]
    assert "不中正" in zheng.arrows[1].why
    assert [a.scores for a in hou.arrows] == [True, True, False]


def test_round_three_needs_the_beat() -> None:
    [r3] = rounds("phase Φ39\n甲 射 矢 arrow=1 result=中正 beat=否\n乙 射 矢 arrow=1 result=中正 beat=是\n")
    assert [a.scores for a in r3.arrows] == [False, True] and "不鼓不释" in r3.arrows[0].why


TALLIES = (
    "phase Φ27\n甲 射 矢 arrow=1 result=中正\n释获者 释获 算 for=甲 arrow=1 side=右\n"
    "甲 射 矢 arrow=2 result=中正\n释获者 释获 算 for=甲 arrow=2 side=右\n"
    "甲 射 矢 arrow=3 result=中正\n释获者 释获 算 for=甲 arrow=3 side=右\n"
    "乙 射 矢 arrow=1 result=中正\n释获者 释获 算 for=乙 arrow=1 side=左\n"
)  # 右 3, 左 1


def checks(body: str, **readings: str) -> dict[str, list]:
    [r] = rounds(TALLIES + "phase Φ32\n" + body, **readings)
    out: dict[str, list] = {}
    for c in r.checks:
        out.setdefault(c.catalogue, []).append(c)
    return out


def test_the_side_announced_is_checked_against_the_tallies() -> None:
    good = checks("释获者 告 to=宾 words=右贤于左 chun=一\n")
    bad = checks("释获者 告 to=宾 words=左右钧\n")
    assert good["R132"][0].ok and "若右胜" in good["R132"][0].cite.quote
    [side] = bad["R132"]
    assert not side.ok and side.what.endswith(": 「右贤于左」, 一纯")  # and the count due
    assert "N10" not in bad  # one fault, one finding: the count is not compared


def test_the_announcement_cites_what_the_text_says_for_that_result() -> None:
    left = rounds(
        "phase Φ27\n乙 射 矢 arrow=1 result=中正\n释获者 释获 算 for=乙 arrow=1 side=左\n"
        "phase Φ32\n释获者 告 to=宾 words=左贤于右 qi=一\n"
    )[0]
    tie = rounds("phase Φ32\n释获者 告 to=宾 words=左右钧\n")[0]
    assert "若左胜" in left.checks[0].cite.quote and "左右钧" in tie.checks[0].cite.quote


@pytest.mark.parametrize(
    ("said", "margin", "whole"),
    [
        ("chun=一", True, False),  # 3 − 1 = 2 = 一纯; the whole count 3 = 一纯一奇
        ("chun=1", True, False),  # ASCII digits
        ("chun=一 qi=一", False, True),
        ("chun=一\n释获者 告 to=宾 words=奇", False, True),  # 「若有奇者，亦曰奇」, said after the 纯
        ("qi=一", False, False),  # the 纯 left out
        ("chun=二", False, False),  # miscounted
        ("", False, False),  # 以纯数告: no count at all
    ],
)
def test_the_count_announced_follows_the_reading_of_xian_huo(said: str, margin: bool, whole: bool) -> None:
    """The 贤获 is the margin (郑注 「齊之而取其餘」, the default) or the winner's whole count
    (xian-huo=whole): the same announcement passes under one and fails under the other."""
    body = f"释获者 告 to=宾 words=右贤于左 {said}\n"
    [n10] = checks(body)["N10"]
    [n10_whole] = checks(body, **{"xian-huo": "whole"})["N10"]
    assert (n10.ok, n10_whole.ok) == (margin, whole), (n10.what, n10_whole.what)
    assert "xian-huo=margin" in n10.what and "xian-huo=whole" in n10_whole.what


def test_a_tie_is_announced_without_a_count() -> None:
    [ok] = rounds("phase Φ32\n释获者 告 to=宾 words=左右钧\n")[0].checks[1:]
    [bad] = rounds("phase Φ32\n释获者 告 to=宾 words=左右钧 chun=一\n")[0].checks[1:]
    assert ok.ok and ok.catalogue == "N10" and not bad.ok


def layout(body: str, **readings: str) -> list:
    return [c for c in checks(body, **readings).get("R131", [])]


def test_the_layout_of_the_count_is_checked() -> None:
    """右 3 = 一纯一奇: one 纯 crosswise (有余纯，则横于下), the 奇 under it; 左 1 = 一奇."""
    good = layout(
        "释获者 数获 算 side=右\n释获者 横 算 side=右 chun=一\n释获者 奇 算 side=右\n"
        "释获者 数获 算 side=左\n释获者 奇 算 side=左 qi=一\n"
    )
    assert [c.ok for c in good] == [True, True]
    # deleting the layout fails: what is laid out is not the count
    gone = layout("释获者 数获 算 side=右\n释获者 数获 算 side=左\n")
    assert [c.ok for c in gone] == [False, False] and "laid out nothing" in gone[0].what
    # the 奇 left out, two 奇, a 横 that does not say its 纯, a layout with no side
    assert not layout("释获者 数获 算 side=右\n释获者 横 算 side=右 chun=一\n")[0].ok
    assert not layout("释获者 数获 算 side=右\n释获者 横 算 side=右 chun=一\n释获者 奇 算 side=右 qi=2\n")[0].ok
    assert "chun=" in layout("释获者 数获 算 side=右\n释获者 横 算 side=右\n释获者 奇 算 side=右\n")[0].what
    assert not layout("释获者 横 算 chun=一\n")[0].ok


def test_bundles_are_ten_chun_and_the_rest_lies_crosswise() -> None:
    """十纯则缩而委之，每委异之；有余纯，则横于下: 45 tallies = two bundles of ten 纯, 二纯 横, the 奇."""
    body = "phase Φ27\n" + "释获者 释获 算 for=甲 arrow=1 side=右\n" * 45 + "phase Φ32\n释获者 数获 算 side=右\n"

    def right(lay: str):
        [r] = rounds(body + lay)
        return next(c for c in r.checks if c.catalogue == "R131")

    assert right("释获者 缩 算 chun=十\n释获者 缩 算 chun=10\n释获者 横 算 chun=二\n释获者 奇 算 qi=一\n").ok
    assert right("释获者 缩 算\n释获者 缩 算\n释获者 横 算 chun=二\n释获者 奇 算\n").ok  # a 缩 is ten 纯
    assert not right("释获者 缩 算 chun=十\n释获者 横 算 chun=十二\n释获者 奇 算\n").ok  # twelve crosswise
    assert not right("释获者 缩 算 chun=二十\n释获者 横 算 chun=二\n释获者 奇 算\n").ok  # a bundle of twenty
    assert not right("释获者 缩 算 chun=十\n释获者 缩 算 chun=十\n释获者 横 算 chun=二\n").ok  # no 奇


def test_the_audit_ticks_only_what_it_compared() -> None:
    """No announcement, no count: nothing about them is ticked."""
    [r] = rounds(TALLIES)
    assert not r.checks


def test_more_than_four_arrows_is_reported() -> None:
    [r] = rounds("phase Φ27\n" + "".join(f"甲 射 矢 arrow={i} result=不中\n" for i in (1, 2, 3, 4, 1)))
    assert any(not c.ok and c.catalogue == "N01" for c in r.checks)


def test_chun_qi_counts_in_the_texts_units() -> None:
    assert [chun_qi(n) for n in (1, 2, 3, 20, 21, 22)] == ["一奇", "一纯", "一纯一奇", "十纯", "十纯一奇", "十一纯"]


@pytest.mark.parametrize(
    ("n", "words"),
    [
        (0, "零"),
        (1, "一奇"),
        (2, "一纯"),
        (19, "九纯一奇"),
        (20, "十纯"),
        (39, "十九纯一奇"),
        (199, "九十九纯一奇"),
        (200, "一百纯"),
        (201, "一百纯一奇"),
        (202, "一百零一纯"),
        (220, "一百一十纯"),
        (2000, "一千纯"),
        (2002, "一千零一纯"),
        (20_000, "一万纯"),
        (2 * 10**8, "一亿纯"),
    ],
)
def test_chun_qi_is_total(n: int, words: str) -> None:
    assert chun_qi(n) == words


def test_chinese_numbers_read_back() -> None:
    """Every number below 100,000 has its own words (no two collide), and none is empty."""
    seen = {chinese_number(k) for k in range(100_000)}
    assert len(seen) == 100_000 and "" not in seen
    with pytest.raises(ValueError):
        chinese_number(-1)


# -- the bundled examples of the audit (traces/audit/, written by domain/libretto/bundle.py) ----------

from pathlib import Path  # noqa: E402

from click.testing import CliRunner  # noqa: E402

from xiangshe.constraints.check import check_trace  # noqa: E402
from xiangshe.constraints.rulebook import active_rules  # noqa: E402
from xiangshe.domain.libretto.bundle import audit_examples  # noqa: E402
from xiangshe.domain.numerals import read_count  # noqa: E402
from xiangshe.domain.parse import parse_file  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
AUDIT = ROOT / "traces" / "audit"
#: example → (the audit findings under xian-huo=margin, under xian-huo=whole)
EXPECTED = {
    "n10.margin": ({"audit.n10"}, set()),
    "n10.whole": (set(), {"audit.n10"}),
    "n10.qi": ({"audit.n10"}, {"audit.n10"}),
    "r131": ({"audit.r131"}, {"audit.r131", "audit.n10"}),
    "r131.2": ({"audit.r131"}, {"audit.r131", "audit.n10"}),
}


def test_audit_examples_are_the_generators_output() -> None:
    examples = audit_examples()
    assert {p.stem for p in examples} == set(EXPECTED) == {p.stem for p in AUDIT.glob("*.trace")}
    for path, text in examples.items():
        assert path.read_text(encoding="utf-8") == text, (
            f"{path.name} is stale: python -m xiangshe.domain.libretto.bundle"
        )


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_audit_example_fails_under_the_reading_that_makes_it_wrong(name: str) -> None:
    """A wrong count fails under the reading that makes it wrong and passes under the other."""
    path = AUDIT / f"{name}.trace"
    trace = parse_file(path, path.name)
    for reading, want in zip(("margin", "whole"), EXPECTED[name], strict=True):
        chosen = defaults() | {"xian-huo": reading}
        result = check_trace(trace, active_rules(chosen), chosen)
        assert {f.rule for f in result.findings} == want, (reading, [f.message for f in result.findings])


def test_check_reading_switch_on_the_command_line() -> None:
    from xiangshe.verify import cli

    run = CliRunner().invoke
    margin = run(cli, ["check", str(AUDIT / "n10.margin.trace")])
    whole = run(cli, ["check", "--reading", "xian-huo=whole", str(AUDIT / "n10.margin.trace")])
    assert margin.exit_code == 1 and "audit.n10" in margin.output
    assert whole.exit_code == 0, whole.output
    scoring = run(cli, ["check", "--scoring", "traces/canonical.trace"]).output
    assert "✓ announced 一纯一奇; the 贤获 under xian-huo=margin" in scoring
    assert "✓ the 左 tallies, 7 (三纯一奇), laid out 横 3 纯, 奇 1" in scoring


@pytest.mark.parametrize(
    ("word", "n"),
    [
        ("3", 3),
        ("三", 3),
        ("十", 10),
        ("十一", 11),
        ("二十", 20),
        ("一百零一", 101),
        ("參", None),
        ("三三", None),
        ("", None),
    ],
)
def test_counts_are_read_as_the_text_writes_them(word: str, n: int | None) -> None:
    assert read_count(word) == n


def test_a_count_that_is_not_a_number_is_an_input_error() -> None:
    from xiangshe.domain.parse import TraceErrors

    with pytest.raises(TraceErrors) as err:
        parse_lines(CAST + "phase Φ32\n释获者 告 to=宾 words=右贤于左 chun=三三\n", "t.trace")
    assert "chun=三三: chun is a count" in str(err.value)
    t = parse_lines(CAST + "phase Φ32\n释获者 告 to=宾 words=右贤于左 chun=十一 qi=1\n", "t.trace")
    assert [e.get("chun") for e in t] == ["11"] and [e.get("qi") for e in t] == ["1"]


def test_the_trace_format_documents_every_key_and_the_counting_acts() -> None:
    from xiangshe.domain.vocabulary import vocabulary

    doc = (ROOT / "docs" / "trace-format.md").read_text(encoding="utf-8")
    for key in vocabulary().attributes:
        assert f"| `{key}` |" in doc, key
    for word in (
        "释获者 缩 算 side=右 chun=十",
        "释获者 横 算",
        "释获者 奇 算 side=右 qi=一",
        "words=右贤于左 chun=一 qi=一",
        "xian-huo=whole",
    ):
        assert word in doc, word
