"""What a staging of the ceremony varies on: the options of `xiangshe generate` and the variants.

Each option is one of the text's own branches (若无大夫, 若有诸公, 若矢不备, 若右胜/左胜/左右钧 …);
the libretto (domain/libretto/text/) reads them by name.
"""

from __future__ import annotations

from dataclasses import field, fields

from xiangshe.domain.dataclass import dataclass

OUTCOMES = ("右", "左", "钧")  # the right side (上射) wins, the left wins, a tie
RESULTS = ("中正", "中侯", "不中", "射获", "猎获")  # where an arrow strikes (the 获者 calls 中正 and 中侯)
SIDES = ("上射", "下射")
#: the ruler (记 L268–273): "" none; "与射" his 燕射 by the 乡射之礼, and he shoots as the 宾's partner
#: (燕礼 「若射，则大射正为司射，如乡射之礼」; 郑注 「君與賓為耦」; 燕礼记 「君與射，則爲下射」)
JUN = ("", "与射")
ARROW_SPEC = "ROUND:PAIR:上射|下射=R1,R2,R3,R4"


class StagingError(ValueError):
    """Options that make no staging (say which and why)."""


def parse_arrow(spec: str) -> tuple[str, tuple[str, ...]]:
    """An --arrow spec `2:上耦:上射=中正,不中,中正,中侯` as Options.arrows' key and its four results.

    >>> parse_arrow("2:上耦:上射=中正,不中,中正,中侯")
    ('2:上耦:上射', ('中正', '不中', '中正', '中侯'))
    >>> parse_arrow("2:上耦:上射=x,y")
    Traceback (most recent call last):
    ...
    xiangshe.domain.libretto.options.StagingError: 2:上耦:上射=x,y: four results, not 2 (x, y); each one of 中正, 中侯, 不中, 射获, 猎获
    """  # noqa: E501 (a doctest's expected message is one line)
    key, eq, values = spec.partition("=")
    parts = key.split(":")
    if not eq or len(parts) != 3:
        raise StagingError(f"{spec}: write {ARROW_SPEC}, e.g. 2:上耦:上射=中正,不中,中正,中侯")
    results = tuple(v.strip() for v in values.split(","))
    _check_arrow(spec, parts, results)
    return key, results


def _check_arrow(spec: str, parts: list[str], results: tuple[str, ...]) -> None:
    rnd, _pair, side = parts
    if rnd not in ("1", "2", "3"):
        raise StagingError(f"{spec}: the round is 1, 2 or 3, not {rnd!r}")
    if side not in SIDES:
        raise StagingError(f"{spec}: the side is 上射 or 下射, not {side!r}")
    bad = [r for r in results if r not in RESULTS]
    if len(results) != 4 or bad:
        what = f"not {len(results)} ({', '.join(results)})" if len(results) != 4 else f"not {', '.join(bad)}"
        raise StagingError(f"{spec}: four results, {what}; each one of {', '.join(RESULTS)}")


@dataclass(frozen=True)
class Options:
    """What a staging varies on: the text's branches, the numbers of people, the arrows."""

    zhongbin: int = 6  # number of 众宾 (the first three are the 众宾之长)
    dafu: int = 1  # number of 大夫 (遵者); 0: 若无大夫
    zhugong: int = 0  # number of 诸公 (记: 若有诸公，则如宾礼，大夫如介礼)
    taishi: bool = True  # a 大师 among the 工 (大师则为之洗)
    bin_zhuren_shoot: bool = True  # the 宾 and the 主人 shoot (as a pair: 主人与宾为耦)
    dafu_shoot: bool = True  # the 大夫 shoot (each with a 士 partner: 大夫与士为耦)
    zhongbin_pairs: int = 1  # pairs of 众宾 shooting, besides the 大夫's partners
    zhang_shoot: bool = False  # the three 众宾之长 shoot: the partners and 众耦 are taken from 众宾1 on, not 众宾4
    shi_bu_bei: bool = True  # 若矢不备 after round 1 (取矢不索)
    outcome: tuple[str, str] = ("右", "右")  # who wins round 2 and round 3: 右, 左 or 钧
    dafu_partner_loses: bool = False  # in round 2 the 大夫's partner loses and the 大夫 wins
    seed: int = 0  # varies the arrows' results within the chosen outcomes
    jun: str = ""  # the ruler: "" none, "与射" (his 燕射 in the city; he shoots with the 宾)
    yu: bool = False  # 古者于旅也语: the 宾 and the 主人 converse at the 旅酬
    until: str = "Φ52"  # the last phase to stage
    arrows: dict[str, tuple[str, ...]] = field(default_factory=dict, hash=False, compare=False)
    # explicit results: key "2:上耦:上射" → 4 results (中正, 中侯, 不中, 射获, 猎获)

    def __repr__(self) -> str:
        """As the dataclass's, without the ruler's options, 古者于旅也语 and zhang_shoot when they are
        not used (so that the stagings without them keep their header)."""
        hidden = ("jun", "yu", "zhang_shoot")
        shown = [f for f in fields(self) if f.repr and not (f.name in hidden and getattr(self, f.name) == f.default)]
        return f"Options({', '.join(f'{f.name}={getattr(self, f.name)!r}' for f in shown)})"

    def __post_init__(self) -> None:
        from xiangshe.domain.errors import did_you_mean
        from xiangshe.domain.vocabulary import vocabulary

        phases = vocabulary().phases
        if self.until not in phases:
            raise StagingError(f"until: no phase {self.until!r}; {did_you_mean(self.until, phases)}")
        for key, results in self.arrows.items():
            parts = key.split(":")
            if len(parts) != 3:
                raise StagingError(f"arrows: {key!r}: write {ARROW_SPEC.split('=')[0]}")
            _check_arrow(f"{key}={','.join(results)}", parts, tuple(results))
        if not 3 <= self.zhongbin <= 30:
            raise StagingError("zhongbin must be between 3 and 30")
        if not 0 <= self.dafu <= 4 or not 0 <= self.zhugong <= 3:
            raise StagingError("dafu must be 0–4 and zhugong 0–3")
        if any(o not in OUTCOMES for o in self.outcome) or len(self.outcome) != 2:
            raise StagingError("outcome is two of 右, 左, 钧 (rounds 2 and 3)")
        needed = (self.dafu if self.dafu_shoot else 0) + 2 * self.zhongbin_pairs
        if needed > self.zhongbin:
            raise StagingError(f"{needed} 众宾 are needed as partners and 众耦; zhongbin is {self.zhongbin}")
        if self.jun not in JUN:
            raise StagingError(f"jun is one of {', '.join(repr(j) for j in JUN)}, not {self.jun!r}")
        if self.jun == "与射" and not self.bin_zhuren_shoot:
            raise StagingError("jun=与射: the 君 shoots with the 宾 (君與賓為耦), so the 宾 shoots (bin_zhuren_shoot)")
        if self.dafu_partner_loses and not (self.dafu and self.dafu_shoot):
            raise StagingError("dafu_partner_loses needs a 大夫 who shoots")
        if self.dafu_partner_loses and self.outcome[0] != "左":
            raise StagingError(
                "dafu_partner_loses: the 大夫 is a 下射, so his side, the left, wins "
                "round 2; give outcome 左 for round 2"
            )
