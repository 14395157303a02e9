"""Helpers the libretto calls (see perform.py). Keep this small: prefer the templates.

The 无算爵 (L228–232, Φ48): who drinks from which cup, in what order.  The two cups the 二人举觯
set before the 宾 and the senior 遵者 (Φ46) cross (错): the 宾's goes to the 主人, the 遵者's to the
长 (the eldest guest); then they alternate down the seated guests (the other 遵者, then the 众宾);
the 执觯者 fill them on the hall after each drinker (郑注 「執觶者酌在上，辯，降復位」), and the last
holders take them to those below at 西阶上 (以旅在下者), pouring for themselves from there on (郑注
「不使執觶者酌」; 敖继公 「實之謂自實之」), the 执觯者 among those below (执觯者皆与旅).
Without a 遵者 only the 宾's cup goes round (若无大夫，则唯宾).

Those below, after 郑注 on L230 (reading `wu-suan-xian-chou=zheng`): 「衆賓之末飲而酬主人之贊者，大夫之末
飲而酬賓黨，亦錯焉…其末若皆衆賓，則先酬主人之贊者」: the last drinker of each cup on the hall is a
众宾 in every staging, so each cup goes first to the host's officers (ZAN_ZHE), then to the 宾党 below,
the 执觯者 last (郑注 「亦自以齒與於旅也」: their place by age is free).
"""

from __future__ import annotations

from xiangshe.domain.dataclass import dataclass

#: those below who come up for the 旅酬 (Φ45): 在下者 are the 宾党 in the courtyard (郑注 「在下謂賓黨也」;
#: 敖继公 「在下者迭升受酬亦如上禮可知」). Of the cast: the 乐正 (记 「乐正，与立者齿」, 郑注 「尊樂正同於賓黨」)
#: and the 弟子, 「賓黨之年少者」 (郑注 on L75 and on the 记 L250 「三耦者，使弟子」), who stay below when the
#: guests go up (郑注 on L203 「三耦及弟子自若畱下」): the 获者 (郑注 「獲者亦弟子也」, 贾疏 「由西方是賓黨弟子可知」,
#: 敖继公 「獲者與釋獲者皆賔之弟子」), the 三耦 and the 弟子 who serve, the 有司 who hand out the bows
#: (郑注 「有司弟子納射器者也」) and the 胜者之弟子. In order of age (齿): the 乐正 among the grown men,
#: the 弟子, the young, after him (their order among themselves is free); the 众宾 below, those beyond
#: the three 长 (cast.zhongbin_below), come before the 乐正 (after.j2). Not pledged: the host's
#: officers (郑注 citing the 鄉飲酒記 「主人之贊者…不與，無算爵然後與」; the 司射 is 「主人之吏」, he waits
#: for the 无算爵); nor those whose party no source settles (the 释获者, 宾党 only for 敖继公; the
#: 执算者; the 相者, 弟子 for 贾疏 but the 工's own for 吴廷华; the 笙).
BELOW = ("乐正", "获者", "弟子1", "弟子2", "弟子3", "弟子4", "弟子5", "弟子6", "弟子7", "有司", "胜者之弟子")

#: the host's officers (主人之赞者) who come up for the 无算爵 (Φ48) besides the 执觯者: they were not
#: pledged in the 旅酬 and join now (郑注 on L231 「主人之贊者於此始旅」, citing the 鄉飲酒記 「不與，無算爵
#: 然後與」; 敖继公 「曏者旅酬之時主人之賛者不與信矣」): the 司射 (郑注 on L72 「司射主人之吏也」) and the
#: 执爵者 (郑注 on L165 「主人使贊者代弟子酌也」). The 司正 is left out: he is there to watch the 旅
#: (郑注 on L205 「當監旅酬」), and no source has him drink in it. The 宾党 below are those of the 旅酬
#: (the 众宾 below, then BELOW): 「辩旅」, all of them, the 获者 and the 弟子 too (郑注 「大夫之末飲而酬賓黨」;
#: 敖继公 「長謂堂下賔黨之長也」).
ZAN_ZHE = ("司射", "执爵者")

#: those below whose party no source settles (see BELOW), left out of the 旅酬: in the 无算爵 both parties
#: drink, so they are pledged whichever is theirs — the 释获者 (敖继公 「獲者與釋獲者皆賔之弟子」) and the
#: 执算者 who follows him (「一人执算以从之」). Not the 相者 (弟子 for 贾疏, the 工's own for 吴廷华), who
#: go with the musicians.
EITHER = ("释获者", "执算者")


@dataclass(frozen=True)
class Cup:
    cup: str  # the 觯 of the 二人举觯 (Φ46)
    bearer: str  # the 执觯者 who fills it (执觯者受觯，遂实之)
    holder: str  # before whom it stands: the 宾, or the senior 遵者
    seated: list[str]  # who drinks from it on the mats, in order (the first receives it from the bearer)
    below: list[str]  # who drinks from it at 西阶上 (以旅在下者), in order


def wu_suan(cast) -> list[Cup]:
    """The cups of the 无算爵 and their drinkers, from the cast."""
    zun, zhong = cast.zunzhe, cast.zhongbin_zhang
    n = 2 if zun else 1
    bearers = [f"执觯者{k + 1}" for k in range(n)]
    seated = ["主人", zhong[0], *zun[1:], *zhong[1:]] if zun else ["主人", *zhong]
    dang = [*cast.zhongbin_below, *BELOW, *EITHER]  # the 宾党 below, as in the 旅酬, and the 释获者
    return [
        Cup(cup, bearers[k], holder, seated[k::n], [*ZAN_ZHE[k::n], *dang[k::n], bearers[k]])
        for k, (cup, holder) in enumerate(zip(("觯5", "觯6"), ["宾", *zun[:1]], strict=False))
    ]


def crossing(cups: list[Cup]) -> list[tuple[str, str, str, str]]:
    """(giver, taker, cup, bearer) down the seated guests, the cups alternating (而错).

    The giver drains the cup on his mat; its bearer (the 执觯者) takes it, fills it and carries it to
    the taker: 郑注 on L229 「錯者實主人之觶以之次賓也」, on L230 「執觶者酌在上，辯，降復位」 (贾疏 「謂二人
    舉觶酌堂上衆賓已上辯，其堂下自酌相旅」; 敖继公 「此舉觶謂取而酌之，即下文所云執觶者受觶遂實之之事也」).
    """
    return [
        (c.seated[i], c.seated[i + 1], c.cup, c.bearer)
        for i in range(max(len(c.seated) for c in cups) - 1)
        for c in cups
        if i + 1 < len(c.seated)
    ]
