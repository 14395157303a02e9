"""Who takes part in a staging: the cast and the pairs (耦), from the options.

The libretto names people by these names (主人, 宾, 大夫 or 大夫1 …, 众宾1 …, 弟子1 …) and loops
over the groups this module lists (`zhongbin`, `zunzhe`, `pairs`, `dafu_pairs` …).
"""

from __future__ import annotations

from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.errors import did_you_mean
from xiangshe.domain.libretto.options import Options, StagingError
from xiangshe.domain.vocabulary import vocabulary


@dataclass(frozen=True)
class Pair:
    name: str
    upper: str  # 上射, on the right
    lower: str  # 下射, on the left

    @property
    def both(self) -> tuple[str, str]:
        return self.upper, self.lower


#: the officers and musicians every staging has: (name, role, note)
OFFICERS = (
    ("司正", "司正", "the 相, made 司正, who becomes 司马 for the archery"),
    ("司射", "司射", ""),
    ("获者", "获者", ""),
    ("释获者", "释获者", ""),
    ("执算者", "执算者", ""),
    ("乐正", "乐正", ""),
)
MUSICIANS = (
    ("工2", "工"),
    ("工3", "工"),
    ("工4", "工"),
    ("笙1", "笙"),
    ("笙2", "笙"),
    ("笙3", "笙"),
    ("相者1", "相者"),
    ("相者2", "相者"),
)
HELPERS = (
    ("有司", "有司"),
    ("举觯者1", "举觯者"),
    ("举觯者2", "举觯者"),
    ("执爵者", "执爵者"),
    ("胜者之弟子", "胜者之弟子"),
    ("执觯者1", "执觯者"),
    ("执觯者2", "执觯者"),
)


class Cast:
    """The people of one staging and the pairs they shoot in."""

    def __init__(self, o: Options) -> None:
        self.o = o
        self.dafu = ["大夫"] if o.dafu == 1 else [f"大夫{i}" for i in range(1, o.dafu + 1)]
        self.zhugong = ["诸公"] if o.zhugong == 1 else [f"诸公{i}" for i in range(1, o.zhugong + 1)]
        self.zhongbin = [f"众宾{i}" for i in range(1, o.zhongbin + 1)]
        self.members: list[tuple[str, str, str]] = self._members()
        self.pairs: list[Pair] = self._pairs()
        self._check_arrows()

    def _members(self) -> list[tuple[str, str, str]]:
        o = self.o
        out = [
            (
                "主人",
                "主人",
                "州长, the host"
                if not o.jun
                else "the host: at the ruler's 燕射 his 宰夫 (燕礼 郑注 「主人，宰夫也」)",
            ),
            ("宾", "宾", "a 公士, since a 大夫 takes part" if o.dafu else "the guest"),
        ]
        out += [(n, "大夫", "a 遵者") for n in self.dafu]
        out += [(n, "诸公", "a 公 (记: 若有诸公)") for n in self.zhugong]
        out += [(n, "众宾", "one of the 众宾之长" if i < 3 else "") for i, n in enumerate(self.zhongbin)]
        out += list(OFFICERS)
        out.append(("工1", "大师" if o.taishi else "工", "the 大师, one of the 工" if o.taishi else ""))
        out += [(n, r, "") for n, r in MUSICIANS]
        out += [
            (
                f"弟子{i}",
                "弟子",
                "the 三耦 are 弟子" if i == 1 else "a student who does the manual work" if i == 7 else "",
            )
            for i in range(1, 8)
        ]
        out += [(n, r, "") for n, r in HELPERS]
        if o.jun:
            out += [
                ("君", "君", "the ruler, at his 燕射 (记 「君，国中射」): he shoots with the 宾"),
                ("小臣", "小臣", "hands the 君 his arrows (记 「小臣以巾执矢以授」)"),
            ]
        return out

    def _pairs(self) -> list[Pair]:
        o = self.o
        pairs = [Pair("上耦", "弟子1", "弟子2"), Pair("次耦", "弟子3", "弟子4"), Pair("下耦", "弟子5", "弟子6")]
        if o.jun == "与射":  # 郑注 (燕礼): 「君與賓為耦」; 记: 「君射，则为下射」
            pairs.append(Pair("君耦", "宾", "君"))
        elif o.bin_zhuren_shoot:
            pairs.append(Pair("宾耦", "宾", "主人"))
        # the 众宾 who shoot: those below (众宾4 on), or from the three 长 on (zhang_shoot). The 长 may
        # shoot or not: 记 「众宾不与射者，不降」, 贾疏 「三賓已上容其有文無武者許其不射」; when they do, they
        # go down at L117 and up again at L203 (贾疏 on 「皆升就席」 「衆賓則三賓也」; 敖继公 「謂衆賔三人也」).
        partner = 1 if o.zhang_shoot else 4
        if o.dafu_shoot:
            for i, name in enumerate(self.dafu):
                pairs.append(Pair(f"大夫耦{i + 1}" if o.dafu > 1 else "大夫耦", f"众宾{partner}", name))
                partner += 1
        for i in range(o.zhongbin_pairs):
            pairs.append(
                Pair(f"众耦{i + 1}" if o.zhongbin_pairs > 1 else "众耦", f"众宾{partner}", f"众宾{partner + 1}")
            )
            partner += 2
        return pairs

    def _check_arrows(self) -> None:
        names = [p.name for p in self.pairs]
        for key in self.o.arrows:
            rnd, pair, _ = key.split(":")
            if pair not in names:
                raise StagingError(f"arrows {key}: no pair {pair} in this staging; {did_you_mean(pair, names)}")
            if rnd == "1" and pair not in names[:3]:
                raise StagingError(f"arrows {key}: only the 三耦 ({', '.join(names[:3])}) shoot in round 1")

    # -- the groups the libretto loops over ------------------------------------------------------
    @property
    def zunzhe(self) -> list[str]:
        """The 遵者 in the order they are received: the 诸公 first, then the 大夫."""
        return self.zhugong + self.dafu

    @property
    def shooters(self) -> list[str]:
        return [n for p in self.pairs for n in p.both]

    def is_zun(self, who: str) -> bool:
        """The 宾, the 主人 and the 大夫 (宾、主人、大夫不胜，则不执弓): they shoot from their mats; so
        does the 君."""
        return who in ("宾", "主人", "君") or who in self.dafu

    @property
    def san_ou(self) -> list[Pair]:
        return self.pairs[:3]

    @property
    def bin_pair(self) -> Pair | None:
        """The 宾 and the 主人 (主人与宾为耦), if they shoot together."""
        return next((p for p in self.pairs if p.both == ("宾", "主人")), None)

    @property
    def jun_pair(self) -> Pair | None:
        """The 宾 and the 君 (君與賓為耦, the 君 as 下射), if the 君 shoots."""
        return next((p for p in self.pairs if p.lower == "君"), None)

    # -- the occasion (domain/occasion.py): the 州长's in his 序, or the 君's 燕射 ---------------
    @property
    def occasion(self) -> dict[str, str]:
        """The occasion's fields, written out: presiding, venue, hou, zhong, jing (and site)."""
        if self.o.jun:  # 记 「君，国中射，则皮树中，以翿旌获」; 郑注 on 凡侯 「燕射則張之」 (麋侯)
            return {"presiding": "君", "site": "国中", "venue": "庠", "hou": "麋侯", "zhong": "皮树中", "jing": "翿旌"}
        return {"presiding": "州长", "venue": "序", "hou": "采侯", "zhong": "鹿中", "jing": "翿旌"}

    @property
    def dafu_pairs(self) -> list[Pair]:
        return [p for p in self.pairs if p.lower in self.dafu]

    @property
    def zhong_pairs(self) -> list[Pair]:
        return [p for p in self.pairs[3:] if not self.is_zun(p.upper) and not self.is_zun(p.lower)]

    @property
    def zhongbin_shooters(self) -> list[str]:
        return [w for p in self.pairs[3:] for w in p.both if not self.is_zun(w)]

    @property
    def zhongbin_zhang(self) -> list[str]:
        """The 众宾之长, 「众宾之长升拜受者三人」 (L38): the only 众宾 with mats (席2–4, 「众宾之席，继而西」),
        hence the only ones who go up to them (「众宾皆升，就席」 L42, L54). 敖继公 on L5: 「衆賔亦衆賔之長三人
        也」; 贾疏 on 每一人献则荐诸其席: 「此還據堂上三人有席者」; on 众宾辩有脯醢: 「還據堂下無席者」."""
        return self.zhongbin[:3]

    @property
    def zhongbin_below(self) -> list[str]:
        """The 众宾 beyond the three 长: they have no mats and stand below from the 献 on. They go up to
        receive the cup without bowing and come back down (张尔岐 on 众宾皆不拜受爵 「亦升受但不拜」; 郑注 on
        众宾辩有脯醢 「薦於其位」, 张尔岐 「堂下之位」); 「众宾皆升，就席」 (L42, L54) takes up the 长 only
        (敖继公 on L54 「衆賔其長三人也」); those who shoot go to 堂西 without coming down (敖继公 on L117
        「堂下之衆賔皆從之」), stay below after the archery (L203: 郑注 「三耦及弟子自若畱下」, 贾疏 「衆賓則三賓
        也」, 敖继公 「三人旣升則餘人以次立於西方」) and are among those below whom the 旅酬 reaches
        (「辩，遂酬在下者；皆升」, L213)."""
        return self.zhongbin[3:]

    def items(self, name: str) -> dict[str, str]:
        """The instances a 遵者 is served with in Φ10 (爵, 荐, 俎, 肺, 席), for later phases to use.

        The first 遵者 has 爵2, 荐3, 俎3, 肺3, 席6; each further one the next instances down from the
        top of the vocabulary's range (爵9, 荐14 …), so that the numbers just after the first ones stay
        free for later phases (the 获者's and 释获者's 荐 and 俎)."""
        k = self.zunzhe.index(name)
        if k == 0:
            return {"jue": "爵2", "jian": "荐3", "zu": "俎3", "fei": "肺3", "xi": "席6"}
        objects = vocabulary().objects
        return {
            key: f"{kind}{objects[kind].instances + 1 - k}"
            for key, kind in (("jue", "爵"), ("jian", "荐"), ("zu", "俎"), ("fei", "肺"), ("xi", "席"))
        }
