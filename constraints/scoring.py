"""The scoring audit: from a trace's shots and tallies, per arrow whether it scored and why, the
count per side in 纯 and 奇, and checks of the announced result and of the numeric facts.

What scores follows the readings in force: `guan` (贯犹中, 郑注: only a hit on the 正 scores, 「不中正，
不释算」; or, the encoder's alternative, any hit on the 侯) and, in
round 3, `gu` (the release on the drum beat). What is announced follows `xian-huo` (the margin,
or the winner's whole count). Round 1 never scores: 获而未释获.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from xiangshe.constraints.readings import defaults
from xiangshe.domain.text import TEXT, Citation
from xiangshe.domain.trace import Trace

#: the results that score under each encoded reading of 贯 (readings.toml [guan])
SCORING = {"zheng": {"中正"}, "hou": {"中正", "中侯"}}
#: how the audit names what scores, per reading
SCORING_LABEL = {"zheng": "a hit on the 正 (中正; 郑注 贯犹中, 不中正不释算)", "hou": "a hit on the 侯 (中正 or 中侯)"}
#: the words of the text the audit checks (counted as cited by `coverage`)
CITED = (("获而未释获", 102), ("不贯不释", None), ("不鼓不释", None), ("每一个释一算", None),
         ("拾发，以将乘矢", None), ("凿背容八算", None), ("箭筹八十", None),
         ("若右胜，则曰：“右贤于左。”", None), ("若左胜，则曰：“左贤于右。”", None),
         ("以纯数告；若有奇者，亦曰奇", None), ("若左右钧，则左右皆执一算以告，曰：“左右钧。”", None),
         ("二算为纯", None), ("一算为奇", None))
WORDS = {"右": "右贤于左", "左": "左贤于右", "钧": "左右钧"}

#: the checks of the audit that can fail, each a finding `audit.<catalogue>` (`audit_id`): catalogue
#: id, what is checked, the quote of the text it checks
AUDIT_CHECKS: tuple[tuple[str, str, str], ...] = (
    ("R132", "the announcement (右贤于左 / 左贤于右 / 左右钧) agrees with the tallies",
     "若右胜，则曰：“右贤于左。”若左胜，则曰：“左贤于右。”以纯数告；若有奇者，亦曰奇"),
    ("N01", "no shooter looses more than a set of four arrows (乘矢) in a round", "拾发，以将乘矢"),
    ("N06", "no more than 72 tallies released in a round: of 80 (箭筹八十) eight stay in the 中",
     "箭筹八十"),
    ("N08", "no more than eight tallies for one pair in a round: the 中 holds eight", "凿背容八算"),
)


#: each check's own name, as its catalogue entry has it (`audit_name`)
AUDIT_NAMES = {"R132": "告贤获", "N01": "乘矢", "N06": "箭筹八十", "N08": "中容八算"}
#: the words of the text an announcement follows, by the result of the round (RoundScore.winner)
ANNOUNCE_QUOTES = {"右": "若右胜，则曰：“右贤于左。”", "左": "若左胜，则曰：“左贤于右。”",
                   "钧": "若左右钧，则左右皆执一算以告，曰：“左右钧。”"}


def audit_name(catalogue: str) -> str:
    """The name of an audit check (its catalogue entry's); 数获, the audit's, for one not named.

    >>> audit_name("R132"), audit_name("N08")
    ('告贤获', '中容八算')
    """
    return AUDIT_NAMES.get(catalogue, "数获")


def audit_id(catalogue: str) -> str:
    """The id of an audit check's findings.

    >>> audit_id("R132")
    'audit.r132'
    """
    return f"audit.{catalogue.lower()}"


def _cite(quote: str, line: int | None = None) -> Citation:
    return TEXT.cite(quote, line)


@dataclass(frozen=True)
class Arrow:
    index: int
    line: int
    round: int
    shooter: str
    side: str | None          # 上射 / 下射
    arrow: str | None
    result: str | None
    beat: str | None
    scores: bool
    tallied: int              # how many tallies were released for it
    why: str
    cite: Citation


@dataclass(frozen=True)
class Check:
    ok: bool
    what: str
    line: int | None
    cite: Citation
    catalogue: str


@dataclass
class RoundScore:
    round: int
    arrows: list[Arrow] = field(default_factory=list)
    tallies: Counter = field(default_factory=Counter)          # side (右/左) -> tallies released
    expected: Counter = field(default_factory=Counter)         # side -> tallies that should be
    announced: tuple[str, int] | None = None                   # (words, line)
    checks: list[Check] = field(default_factory=list)

    @property
    def winner(self) -> str:
        r, lft = self.tallies["右"], self.tallies["左"]
        return "右" if r > lft else "左" if lft > r else "钧"

    def counted(self, reading: str) -> tuple[int, int]:
        """What the 释获者 announces, in 纯 and 奇, under the 贤获 reading."""
        r, lft = self.tallies["右"], self.tallies["左"]
        n = abs(r - lft) if reading == "margin" else max(r, lft)
        return n // 2, n % 2


_DIGITS = "零一二三四五六七八九"
_UNITS = ((10 ** 8, "亿"), (10 ** 4, "万"), (1000, "千"), (100, "百"), (10, "十"))


def chinese_number(k: int) -> str:
    """A whole number ≥ 0 in Chinese numerals, for any size: 十 for 10–19 at the head, 零 for a
    gap (一百零一), 万 and 亿 grouping the larger ones.

    >>> [chinese_number(k) for k in (0, 1, 9, 10, 11, 19, 20, 99, 100, 101, 110, 999, 1000, 1001)]
    ['零', '一', '九', '十', '十一', '十九', '二十', '九十九', '一百', '一百零一', '一百一十', '九百九十九', '一千', '一千零一']
    >>> chinese_number(10_000), chinese_number(100_010), chinese_number(123_456_789)
    ('一万', '十万零一十', '一亿二千三百四十五万六千七百八十九')
    """
    if k < 0:
        raise ValueError(f"not a count: {k}")

    def below(k: int, head: bool) -> str:          # k < 10**4, or grouped by 万 and 亿 above
        if k < 10:
            return _DIGITS[k]
        for size, unit in _UNITS:
            if k >= size:
                top, rest = divmod(k, size)
                word = ("" if head and size == 10 and top == 1 else below(top, head)) + unit
                if rest:
                    gap = "零" if rest * 10 < size else ""
                    word += gap + below(rest, False)
                return word
        raise AssertionError(k)                     # not reached: k ≥ 10 is ≥ the smallest size

    return below(k, True)


def chun_qi(n: int) -> str:
    """A count of tallies in the text's units: 二算为纯, 一算为奇. Any count ≥ 0.

    >>> chun_qi(7), chun_qi(2), chun_qi(0)
    ('三纯一奇', '一纯', '零')
    >>> [chun_qi(n) for n in (1, 19, 20, 199, 200, 201, 2000)]
    ['一奇', '九纯一奇', '十纯', '九十九纯一奇', '一百纯', '一百纯一奇', '一千纯']
    """
    chun, qi = divmod(n, 2)
    parts = ([f"{chinese_number(chun)}纯"] if chun else []) + (["一奇"] if qi else [])
    return "".join(parts) or "零"


def audit(trace: Trace, readings: dict[str, str] | None = None) -> list[RoundScore]:
    """The audit of every round with shots by the pairs (the 司射's 诱射 is not scored)."""
    chosen = readings or defaults()
    scoring = SCORING[chosen["guan"]]
    persons = trace.cast.persons
    rounds: dict[int, RoundScore] = {}
    tallies: Counter = Counter()            # (round, shooter, arrow) -> tallies released
    for e in trace:
        if e.act == "释获" and e.round:
            tallies[(e.round, e.get("for"), e.get("arrow"))] += 1
            rs = rounds.setdefault(e.round, RoundScore(e.round))
            if e.get("side"):
                rs.tallies[e.get("side")] += 1
        if e.act == "告" and e.get("words") in WORDS.values() and e.round:
            rounds.setdefault(e.round, RoundScore(e.round)).announced = (e.get("words"), e.line)
    shots_by: Counter = Counter()
    for e in trace:
        if e.act != "射" or not e.round:
            continue
        rs = rounds.setdefault(e.round, RoundScore(e.round))
        p = persons[e.actor]
        result, beat = e.get("result"), e.get("beat")
        shots_by[(e.round, e.actor)] += 1
        if e.round == 1:
            scores, why, cite = False, "round 1: 获而未释获 (hits are called, not tallied)", _cite("获而未释获", 102)
        elif result not in scoring:
            label = SCORING_LABEL[chosen["guan"]]
            scores, why, cite = False, f"{result or 'no result'} is not {label}: 不贯不释", _cite("不贯不释")
        elif e.round == 3 and beat != "是":
            scores, why, cite = False, "not on the drum beat: 不鼓不释", _cite("不鼓不释")
        else:
            scores = True
            why = f"{result}" + (" on the beat" if e.round == 3 else "") + ": 每一个释一算"
            cite = _cite("每一个释一算")
        n = tallies[(e.round, e.actor, e.get("arrow"))]
        rs.arrows.append(Arrow(e.index, e.line, e.round, e.actor, p.side, e.get("arrow"), result,
                               beat, scores, n, why, cite))
        if scores:
            rs.expected["右" if p.side == "上射" else "左"] += 1
    for (rnd, who), n in shots_by.items():
        if n > 4:
            rounds[rnd].checks.append(Check(False, f"{who} shot {n} arrows in round {rnd}; a set is 乘矢, four",
                                            None, _cite("拾发，以将乘矢"), "N01"))
    for rs in rounds.values():
        _round_checks(rs, chosen, persons)
    return [rounds[r] for r in sorted(rounds)]


def _round_checks(rs: RoundScore, chosen: dict[str, str], persons) -> None:
    per_pair: Counter = Counter()
    for a in rs.arrows:
        per_pair[persons[a.shooter].pair] += a.tallied
    for pair, n in per_pair.items():
        if n > 8:
            rs.checks.append(Check(False, f"{n} tallies for pair {pair} in round {rs.round}; the 中 holds "
                                          "eight (鹿中容八算)", None, _cite("凿背容八算"), "N08"))
    total = rs.tallies["右"] + rs.tallies["左"]
    if total > 72:
        rs.checks.append(Check(False, f"{total} tallies released in round {rs.round}; of 80 (箭筹八十) "
                                      "eight stay in the 中", None, _cite("箭筹八十"), "N06"))
    if rs.announced is not None:
        words, line = rs.announced
        want = WORDS[rs.winner]
        chun, qi = rs.counted(chosen["xian-huo"])
        count = chun_qi(2 * chun + qi)
        ok = words == want
        what = (f"announced 「{words}」; the tallies are 右 {rs.tallies['右']}, 左 {rs.tallies['左']}: "
                f"「{want}」" + ("" if rs.winner == "钧" else f", {count}"))
        rs.checks.append(Check(ok, what, line, _cite(ANNOUNCE_QUOTES[rs.winner]), "R132"))
