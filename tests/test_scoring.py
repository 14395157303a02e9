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
    body = ("phase Φ27\n甲 射 矢 arrow=1 result=中正\n乙 射 矢 arrow=1 result=中侯\n"
            "甲 射 矢 arrow=2 result=不中\n")
    [zheng] = rounds(body)
    [hou] = rounds(body, guan="hou")
    assert defaults()["guan"] == "zheng"
    assert [a.scores for a in zheng.arrows] == [True, False, False]
    assert "不中正" in zheng.arrows[1].why
    assert [a.scores for a in hou.arrows] == [True, True, False]


def test_round_three_needs_the_beat() -> None:
    [r3] = rounds("phase Φ39\n甲 射 矢 arrow=1 result=中正 beat=否\n乙 射 矢 arrow=1 result=中正 beat=是\n")
    assert [a.scores for a in r3.arrows] == [False, True] and "不鼓不释" in r3.arrows[0].why


def test_announcement_is_checked_against_the_tallies() -> None:
    body = ("phase Φ27\n甲 射 矢 arrow=1 result=中正\n释获者 释获 算 for=甲 arrow=1 side=右\n"
            "甲 射 矢 arrow=2 result=中正\n释获者 释获 算 for=甲 arrow=2 side=右\n"
            "乙 射 矢 arrow=1 result=中正\n释获者 释获 算 for=乙 arrow=1 side=左\n"
            "phase Φ32\n释获者 告 to=宾 words={}\n")
    [good] = rounds(body.format("右贤于左"))
    [bad] = rounds(body.format("左右钧"))
    assert good.checks[-1].ok and "一奇" in good.checks[-1].what
    assert not bad.checks[-1].ok and bad.checks[-1].catalogue == "R132"
    [whole] = rounds(body.format("右贤于左"), **{"xian-huo": "whole"})
    assert "一纯" in whole.checks[-1].what            # the winner's whole count: 2 tallies


def test_more_than_four_arrows_is_reported() -> None:
    [r] = rounds("phase Φ27\n" + "".join(f"甲 射 矢 arrow={i} result=不中\n" for i in (1, 2, 3, 4, 1)))
    assert any(not c.ok and c.catalogue == "N01" for c in r.checks)


def test_chun_qi_counts_in_the_texts_units() -> None:
    assert [chun_qi(n) for n in (1, 2, 3, 20, 21, 22)] == ["一奇", "一纯", "一纯一奇", "十纯",
                                                         "十纯一奇", "十一纯"]


@pytest.mark.parametrize(("n", "words"), [
    (0, "零"), (1, "一奇"), (2, "一纯"), (19, "九纯一奇"), (20, "十纯"), (39, "十九纯一奇"),
    (199, "九十九纯一奇"), (200, "一百纯"), (201, "一百纯一奇"), (202, "一百零一纯"), (220, "一百一十纯"),
    (2000, "一千纯"), (2002, "一千零一纯"), (20_000, "一万纯"), (2 * 10 ** 8, "一亿纯"),
])
def test_chun_qi_is_total(n: int, words: str) -> None:
    assert chun_qi(n) == words


def test_chinese_numbers_read_back() -> None:
    """Every number below 100,000 has its own words (no two collide), and none is empty."""
    seen = {chinese_number(k) for k in range(100_000)}
    assert len(seen) == 100_000 and "" not in seen
    with pytest.raises(ValueError):
        chinese_number(-1)
