"""The scoring audit: from a trace's shots and tallies, per arrow whether it scored and why, the
count per side in 纯 and 奇, and checks of the announced result and of the numeric facts.

What scores follows the readings in force: `guan` (贯犹中, 郑注: only a hit on the 正 scores, 「不中正，
不释算」; or, the encoder's alternative, any hit on the 侯) and, in
round 3, `gu` (the release on the drum beat). What is announced follows `xian-huo` (the margin,
or the winner's whole count). Round 1 never scores: 获而未释获.

Three checks read the count itself (only where the trace stages it; nothing is ticked that was
not compared):
- R132, the side announced (右贤于左 / 左贤于右 / 左右钧) is the side the tallies favour;
- N10, the count announced with it (`告 … chun=N qi=M`, or a following `告 words=奇`) is the 贤获
  in 纯 and 奇 under the reading `xian-huo` (以纯数告；若有奇者，亦曰奇); 「左右钧」 carries no count.
  It is compared once the side is right (a wrong side is one finding, R132, which says the count due);
  an announcement of a win with no count at all fails it (以纯数告);
- R131, each side counted (数获) is laid out as the text lays it: every ten 纯 a bundle
  (`缩 chun=10`, 十纯则缩而委之，每委异之), the 纯 left over crosswise (`横 chun=N`, N < 10, 有余纯，
  则横于下), the odd tally lengthwise under them (`奇`, one: 一算为奇，奇则又缩诸纯下), and together
  they are the side's tallies.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import field
from functools import cache

from xiangshe.constraints.readings import defaults
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.messages import Join, Message
from xiangshe.domain.text import TEXT, Citation
from xiangshe.domain.trace import Person, Trace

#: the results that score under each encoded reading of 贯 (readings.toml [guan])
SCORING = {"zheng": {"中正"}, "hou": {"中正", "中侯"}}
#: how the audit names what scores, per reading
SCORING_LABEL = {"zheng": Message("arrow.zheng"), "hou": Message("arrow.hou")}
#: the words of the text the audit checks (counted as cited by `coverage`)
CITED = (
    ("获而未释获", 102),
    ("不贯不释", None),
    ("不鼓不释", None),
    ("每一个释一算", None),
    ("拾发，以将乘矢", None),
    ("凿背容八算", None),
    ("箭筹八十", None),
    ("若右胜，则曰：“右贤于左。”", None),
    ("若左胜，则曰：“左贤于右。”", None),
    ("以纯数告；若有奇者，亦曰奇", None),
    ("若左右钧，则左右皆执一算以告，曰：“左右钧。”", None),
    ("二算为纯", None),
    ("一算为奇", None),
    ("十纯则缩而委之，每委异之", None),
    ("有余纯，则横于下", None),
    ("奇则又缩诸纯下", None),
    ("一纯以委，十则异之，其余如右获", None),
)
WORDS = {"右": "右贤于左", "左": "左贤于右", "钧": "左右钧"}
#: what the text says for each result (the quote an announcement check cites)
SAID = {
    "右": "若右胜，则曰：“右贤于左。”",
    "左": "若左胜，则曰：“左贤于右。”",
    "钧": "若左右钧，则左右皆执一算以告，曰：“左右钧。”",
}
#: the acts of the 释获者 laying out a counted side (L151–153)
LAYOUT = ("缩", "横", "奇")
#: how the audit names each reading of 贤获 (readings.toml [xian-huo])
XIAN_HUO_LABEL = {"margin": Message("audit.xian-huo.margin"), "whole": Message("audit.xian-huo.whole")}

#: the checks of the audit that can fail, each a finding `audit.<catalogue>` (`audit_id`): catalogue
#: id, what is checked, the quote of the text it checks
AUDIT_CHECKS: tuple[tuple[str, str, str], ...] = (
    (
        "R132",
        "the announcement (右贤于左 / 左贤于右 / 左右钧) agrees with the tallies",
        "若右胜，则曰：“右贤于左。”若左胜，则曰：“左贤于右。”以纯数告；若有奇者，亦曰奇",
    ),
    (
        "N10",
        "the count announced (chun= 纯, qi= 奇) is the 贤获 under the reading xian-huo; 「左右钧」 has none",
        "以纯数告；若有奇者，亦曰奇",
    ),
    (
        "R131",
        "each side counted is laid out in bundles of ten 纯 (缩), the 纯 left over (横) and the 奇 "
        "under them, which together are its tallies",
        "十纯则缩而委之，每委异之；有余纯，则横于下",
    ),
    ("N01", "no shooter looses more than a set of four arrows (乘矢) in a round", "拾发，以将乘矢"),
    ("N06", "no more than 72 tallies released in a round: of 80 (箭筹八十) eight stay in the 中", "箭筹八十"),
    ("N08", "no more than eight tallies for one pair in a round: the 中 holds eight", "凿背容八算"),
)


#: each check's own name, as its catalogue entry has it (`audit_name`)
AUDIT_NAMES = {"R132": "告贤获", "N10": "以纯数告", "R131": "委算", "N01": "乘矢", "N06": "箭筹八十", "N08": "中容八算"}
#: the words of the text an announcement follows, by the result of the round (RoundScore.winner)
ANNOUNCE_QUOTES = {
    "右": "若右胜，则曰：“右贤于左。”",
    "左": "若左胜，则曰：“左贤于右。”",
    "钧": "若左右钧，则左右皆执一算以告，曰：“左右钧。”",
}


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


#: a message of the audit's arrows, made once for its words (a long staging shoots many times alike)
_arrow_message = cache(Message)


@cache  # the same few quotes for every staging
def _cite(quote: str, line: int | None = None) -> Citation:
    return TEXT.cite(quote, line)


@dataclass(frozen=True)
class Arrow:
    """One arrow shot in a round of shooting: its event, its shooter and side, and how it went."""

    index: int
    line: int
    round: int
    shooter: str
    side: str | None  # 上射 / 下射
    arrow: str | None
    result: str | None
    beat: str | None
    scores: bool
    tallied: int  # how many tallies were released for it
    why: str
    cite: Citation


@dataclass(frozen=True)
class Check:
    """One check of the scoring audit: whether it holds, what it says, where, and the text it quotes."""

    ok: bool
    what: str
    line: int | None
    cite: Citation
    catalogue: str


@dataclass
class RoundScore:
    """A round of shooting as the scoring audit sees it: its arrows, the tallies released and due, what was
    announced, and the checks."""

    round: int
    arrows: list[Arrow] = field(default_factory=list)
    tallies: Counter[str] = field(default_factory=Counter)  # side (右/左) -> tallies released
    expected: Counter[str] = field(default_factory=Counter)  # side -> tallies that should be
    announced: tuple[str, int] | None = None  # (words, line)
    #: the count announced with it: 纯 and 奇 (None where the announcement does not say it)
    said_chun: int | None = None
    said_qi: int | None = None
    #: side → the line of its 数获 (the count of that side), if staged
    counted_at: dict[str, int] = field(default_factory=dict)
    #: side → what was laid out: (act 缩/横/奇, 纯, 奇, line) per event
    layout: dict[str, list[tuple[str, int | None, int, int]]] = field(default_factory=dict)
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
_UNITS = ((10**8, "亿"), (10**4, "万"), (1000, "千"), (100, "百"), (10, "十"))


def chinese_number(k: int) -> str:
    """A whole number ≥ 0 in Chinese numerals, for any size: 十 for 10–19 at the head, 零 for a
    gap (一百零一), 万 and 亿 grouping the larger ones.

    >>> [chinese_number(k) for k in (0, 1, 9, 10, 11, 19, 20)]
    ['零', '一', '九', '十', '十一', '十九', '二十']
    >>> [chinese_number(k) for k in (99, 100, 101, 110, 999, 1000, 1001)]
    ['九十九', '一百', '一百零一', '一百一十', '九百九十九', '一千', '一千零一']
    >>> chinese_number(10_000), chinese_number(100_010), chinese_number(123_456_789)
    ('一万', '十万零一十', '一亿二千三百四十五万六千七百八十九')
    """
    if k < 0:
        raise ValueError(f"not a count: {k}")

    def below(k: int, head: bool) -> str:  # k < 10**4, or grouped by 万 and 亿 above
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
        raise AssertionError(k)  # not reached: k ≥ 10 is ≥ the smallest size

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


#: the acts the audit reads (every other event is passed over at once)
_AUDITED = frozenset({"释获", "告", "数获", "射", *LAYOUT})


def audit(trace: Trace, readings: dict[str, str] | None = None) -> list[RoundScore]:
    """The audit of every round with shots by the pairs (the 司射's 诱射 is not scored)."""
    chosen = readings or defaults()
    scoring = SCORING[chosen["guan"]]
    persons = trace.cast.persons
    rounds: dict[int, RoundScore] = {}
    tallies: Counter[tuple[int, str | None, str | None]] = Counter()  # (round, shooter, arrow) -> tallies released
    side: str | None = None  # the side being counted (the latest 数获)
    shots = []  # the 射 events, in trace order (the second pass reads only them)
    for e in trace:
        if e.act not in _AUDITED:
            continue
        if e.act == "射":
            shots.append(e)
        if e.act == "释获" and e.round:
            tallies[(e.round, e.get("for"), e.get("arrow"))] += 1
            rs = rounds.setdefault(e.round, RoundScore(e.round))
            if tallied := e.get("side"):
                rs.tallies[tallied] += 1
        if e.act == "告" and (words := e.get("words")) is not None and words in WORDS.values() and e.round:
            rs = rounds.setdefault(e.round, RoundScore(e.round))
            rs.announced = (words, e.line)
            rs.said_chun, rs.said_qi = _count(e.get("chun")), _count(e.get("qi"))
            side = None
        elif e.act == "告" and e.get("words") == "奇" and e.round in rounds and rounds[e.round].announced:
            rs = rounds[e.round]  # 若有奇者，亦曰奇: said after the 纯
            rs.said_qi = (rs.said_qi or 0) + 1
        if e.act == "数获" and e.round:
            side = e.get("side")
            rs = rounds.setdefault(e.round, RoundScore(e.round))
            if side:
                rs.counted_at.setdefault(side, e.line)
        if e.act in LAYOUT and e.actor == "释获者" and e.round:
            rs = rounds.setdefault(e.round, RoundScore(e.round))
            where = e.get("side") or side or "?"
            chun = _count(e.get("chun"))
            qi = _count(e.get("qi"))
            if e.act == "缩" and chun is None and qi is None:
                chun = 10  # 十纯则缩而委之: a bundle is ten 纯
            if e.act == "奇" and qi is None:
                qi = 1  # 一算为奇
            rs.layout.setdefault(where, []).append((e.act, chun, qi or 0, e.line))
    shots_by: Counter[tuple[int, str]] = Counter()
    for e in shots:
        if not e.round:
            continue
        rs = rounds.setdefault(e.round, RoundScore(e.round))
        p = persons[e.actor]
        result, beat = e.get("result"), e.get("beat")
        shots_by[(e.round, e.actor)] += 1
        if e.round == 1:
            scores, why, cite = False, _arrow_message("arrow.round-1"), _cite("获而未释获", 102)
        elif result not in scoring:
            label = SCORING_LABEL[chosen["guan"]]
            why = (
                _arrow_message("arrow.not-scoring", result=result, label=label)
                if result
                else _arrow_message("arrow.no-result", label=label)
            )
            scores, cite = False, _cite("不贯不释")
        elif e.round == 3 and beat != "是":
            scores, why, cite = False, _arrow_message("arrow.off-beat"), _cite("不鼓不释")
        else:
            scores = True
            why = _arrow_message("arrow.scores-on-beat" if e.round == 3 else "arrow.scores", result=result)
            cite = _cite("每一个释一算")
        n = tallies[(e.round, e.actor, e.get("arrow"))]
        rs.arrows.append(
            Arrow(e.index, e.line, e.round, e.actor, p.side, e.get("arrow"), result, beat, scores, n, why, cite)
        )
        if scores:
            rs.expected["右" if p.side == "上射" else "左"] += 1
    for (rnd, who), n in shots_by.items():
        if n > 4:
            rounds[rnd].checks.append(
                Check(
                    False,
                    Message("audit.arrows", who=who, n=n, round=rnd),
                    None,
                    _cite("拾发，以将乘矢"),
                    "N01",
                )
            )
    for rs in rounds.values():
        _round_checks(rs, chosen, persons)
    return [rounds[r] for r in sorted(rounds)]


def _round_checks(rs: RoundScore, chosen: dict[str, str], persons: dict[str, Person]) -> None:
    per_pair: Counter[str | None] = Counter()
    for a in rs.arrows:
        per_pair[persons[a.shooter].pair] += a.tallied
    for pair, n in per_pair.items():
        if n > 8:
            rs.checks.append(
                Check(
                    False,
                    Message("audit.pair-tallies", n=n, pair=pair, round=rs.round),
                    None,
                    _cite("凿背容八算"),
                    "N08",
                )
            )
    total = rs.tallies["右"] + rs.tallies["左"]
    if total > 72:
        rs.checks.append(
            Check(
                False,
                Message("audit.round-tallies", n=total, round=rs.round),
                None,
                _cite("箭筹八十"),
                "N06",
            )
        )
    if rs.announced is not None:
        _announcement_checks(rs, chosen)
    for side in ("右", "左"):
        if side in rs.counted_at or side in rs.layout:
            rs.checks.append(_layout_check(rs, side))
    for side in sorted(set(rs.layout) - {"右", "左"}):
        lines = [ln for *_, ln in rs.layout[side]]
        rs.checks.append(
            Check(
                False,
                Message("audit.no-side", n=len(lines)),
                lines[0],
                _cite("十纯则缩而委之，每委异之"),
                "R131",
            )
        )


def _count(value: str | None) -> int | None:
    """An attribute count as the parser left it (ASCII digits), or None."""
    return int(value) if value is not None and value.isdigit() else None


def _said(chun: int, qi: int) -> str:
    """A count as the 释获者 says it: 一纯一奇, 三纯, 一奇; 零 for nothing."""
    parts = ([f"{chinese_number(chun)}纯"] if chun else []) + ([f"{chinese_number(qi)}奇"] if qi else [])
    return "".join(parts) or "零"


def _announcement_checks(rs: RoundScore, chosen: dict[str, str]) -> None:
    """R132: the side announced; N10: the count announced, under the reading of 贤获."""
    assert rs.announced is not None  # the caller checks only a round that was announced
    words, line = rs.announced
    want = WORDS[rs.winner]
    due = "" if rs.winner == "钧" else Message("audit.due", count=_said(*rs.counted(chosen["xian-huo"])))
    rs.checks.append(
        Check(
            words == want,
            Message(
                "audit.announced",
                words=words,
                right=rs.tallies["右"],
                left=rs.tallies["左"],
                want=want,
                due="" if words == want else due,
            ),
            line,
            _cite(SAID[rs.winner]),
            "R132",
        )
    )
    if words != want:
        return  # one fault, one finding: the count is compared once the side is right
    said = (rs.said_chun or 0, rs.said_qi or 0)
    gave = rs.said_chun is not None or rs.said_qi is not None
    if rs.winner == "钧":
        ok = said == (0, 0)
        rs.checks.append(
            Check(
                ok,
                (
                    Message("audit.even")
                    if ok
                    else Message("audit.even-counted", said=_said(*said) if gave else Message("audit.no-count"))
                ),
                line,
                _cite("若左右钧，则左右皆执一算以告，曰：“左右钧。”"),
                "N10",
            )
        )
        return
    reading = chosen["xian-huo"]
    chun, qi = rs.counted(reading)
    r, lft = rs.tallies["右"], rs.tallies["左"]
    basis = f"{max(r, lft)} − {min(r, lft)} = {abs(r - lft)}" if reading == "margin" else f"{max(r, lft)}"
    label = XIAN_HUO_LABEL[reading]
    ok = gave and said == (chun, qi)
    if not gave:
        what = Message("audit.xian-huo-uncounted", reading=reading, label=label, basis=basis, want=_said(chun, qi))
        quote = "以纯数告"
    else:
        what = Message(
            "audit.xian-huo", said=_said(*said), reading=reading, label=label, basis=basis, want=_said(chun, qi)
        )
        quote = "若有奇者，亦曰奇" if said[0] == chun and said[1] != qi else "以纯数告"
    rs.checks.append(Check(ok, what, line, _cite("以纯数告；若有奇者，亦曰奇" if ok else quote), "N10"))


def _layout(bundles: list[int], heng: int, qi: int) -> str:
    parts = []
    if bundles:
        parts.append(
            f"缩 {'+'.join(map(str, bundles))} 纯"
            if any(b != 10 for b in bundles)
            else Message("layout.bundles", n=len(bundles))
        )
    if heng:
        parts.append(f"横 {heng} 纯")
    if qi:
        parts.append(f"奇 {qi}")
    return Join(parts) if parts else Message("layout.nothing")


def _layout_check(rs: RoundScore, side: str) -> Check:
    """R131: how one counted side is laid out, against its tallies."""
    n = rs.tallies[side]
    pairs, odd = divmod(n, 2)
    tens, rest = divmod(pairs, 10)
    laid = rs.layout.get(side, [])
    bundles = [c for act, c, _, _ in laid if act == "缩"]
    crosswise = [c for act, c, _, _ in laid if act == "横"]
    odds = sum(q for act, _, q, _ in laid if act == "奇")
    extra_qi = sum(q for act, _, q, _ in laid if act != "奇")
    line = rs.counted_at.get(side) or laid[0][3]
    want = _layout([10] * tens, rest, odd)
    head = Message("layout.side", side=side, n=n, count=chun_qi(n))
    left = side == "左"
    if None in crosswise:
        return Check(
            False,
            Message("layout.crosswise-uncounted", head=head, want=want),
            [ln for act, c, _, ln in laid if act == "横" and c is None][0],
            _cite("有余纯，则横于下"),
            "R131",
        )
    counted = [c for c in crosswise if c is not None]  # every one of them, past the check above
    if any(b != 10 for b in bundles if b is not None) or None in bundles or extra_qi:
        return Check(
            False,
            Message("layout.bundle", head=head, got=_layout([b or 0 for b in bundles], sum(counted), odds), want=want),
            line,
            _cite("一纯以委，十则异之，其余如右获" if left else "十纯则缩而委之，每委异之"),
            "R131",
        )
    heng = sum(counted)
    got = _layout([b for b in bundles if b is not None], heng, odds)  # every one, past the check above
    if heng >= 10:
        return Check(
            False,
            Message("layout.crosswise", head=head, got=got, want=want),
            line,
            _cite("十纯则缩而委之，每委异之"),
            "R131",
        )
    if odds > 1:
        return Check(
            False,
            Message("layout.odd", head=head, got=got, want=want),
            line,
            _cite("一算为奇，奇则又缩诸纯下"),
            "R131",
        )
    ok = (len(bundles), heng, odds) == (tens, rest, odd)
    if ok:
        return Check(
            True,
            Message("layout.ok", head=head, got=got),
            line,
            _cite("一纯以委，十则异之，其余如右获" if left else "十纯则缩而委之，每委异之；有余纯，则横于下"),
            "R131",
        )
    quote = (
        "一算为奇，奇则又缩诸纯下"
        if (len(bundles), heng) == (tens, rest)
        else "一纯以委，十则异之，其余如右获"
        if left
        else "十纯则缩而委之，每委异之；有余纯，则横于下"
    )
    total = 20 * len(bundles) + 2 * heng + odds
    return Check(
        False,
        Message("layout.wrong-one" if total == 1 else "layout.wrong", head=head, got=got, total=total, want=want),
        line,
        _cite(quote),
        "R131",
    )
