"""Φ01–Φ13: the drinking (戒宾 … 立司正, text lines 3–71).

Ported from the hand-written traces/canonical.trace (its events, conventions, instance choices and
text-line comments), then parametrised on the Options:

- zhongbin: every 众宾 follows, enters, bows, ascends and takes his mat; in the 献众宾 (Φ08) the
  three 众宾之长 go up and bow in receiving (「众宾之长升拜受者三人」), each other 众宾 receives
  without bowing (「众宾皆不拜，受爵」); each is served 脯醢 as he drinks (「每一人献，则荐诸其席」).
  The 荐 has 12 instances only, so — as in the canonical — these later 荐 have no object.
- dafu, zhugong: Φ10 is left out when no 遵者 comes (若无大夫); otherwise it is staged once per
  遵者, 诸公 first, each with his own 爵, 荐, 俎, 肺 and 席 (see `zunzhe_items`).  记 L247–248
  「若有诸公，则如宾礼，大夫如介礼。无诸公，则大夫如宾礼」 (RULES.md R038): the 诸公 are received
  as Φ10 is written — the manner the 记 calls 如宾礼 for a 大夫 when no 公 is there — and the 大夫,
  when 诸公 are present, in the simpler manner of a 介 (see `_zunzhe_wash`).
- taishi: 「大师则为之洗」 — the 爵 of the 工 is washed (and the 宾 comes down with the host) only if
  there is a 大师.

Blocks are written `EVENT | LINE | WORDS` (one event a line; `# …` lines are comments) and may name
persons and instances with {fields}.
"""

from __future__ import annotations

from xiangshe.domain.staging import Staging
from xiangshe.domain.vocabulary import vocabulary


def _run(s: Staging, block: str, **names: str) -> None:
    """Write a block of `EVENT | LINE | WORDS` rows, filling in {fields} from `names`."""
    for raw in block.strip("\n").splitlines():
        row = raw.strip()
        if not row:
            continue
        if row.startswith("#"):
            s.comment(row[1:].strip().format(**names))
            continue
        text, line, *words = [cell.strip() for cell in row.split("|")]
        s.ev(text.format(**names), line.format(**names), (words[0] if words else "").format(**names))  # type: ignore[arg-type]


def _each(s: Staging, persons: list[str], row: str, first_note: str = "") -> None:
    """One event per person (`{p}` in `row`), the text's words on the first only."""
    text, line = [cell.strip() for cell in row.split("|")]
    for i, p in enumerate(persons):
        s.ev(text.format(p=p), line, first_note if i == 0 else "")  # type: ignore[arg-type]


def _zhongbin(s: Staging) -> list[str]:
    return [f"众宾{i}" for i in range(1, s.o.zhongbin + 1)]


def zunzhe(s: Staging) -> list[str]:
    """The 遵者 in the order they are received: the 诸公 first, then the 大夫."""
    return s.zhugong_names + s.dafu_names


def zunzhe_items(s: Staging, name: str) -> dict[str, str]:
    """The instances a 遵者 is served with in Φ10 (for later phases, e.g. the 彻俎, to look up).

    The first 遵者 keeps the canonical instances (爵2, 荐3, 俎3, 肺3, 席6).  Each further one takes
    the next instances down from the top of the vocabulary's range (爵9, 荐14, 俎11, 肺11, 席13,
    then 爵8 …), so that the numbers just after the canonical ones stay free for later phases (the
    获者's and 释获者's 荐 and 俎)."""
    k = zunzhe(s).index(name)
    if k == 0:
        return {"jue": "爵2", "jian": "荐3", "zu": "俎3", "fei": "肺3", "xi": "席6"}
    objects = vocabulary().objects
    return {key: f"{kind}{objects[kind].instances + 1 - k}"
            for key, kind in (("jue", "爵"), ("jian", "荐"), ("zu", "俎"), ("fei", "肺"), ("xi", "席"))}


def phases(s: Staging) -> None:
    for step in (_phi01, _phi02, _phi03, _phi04, _phi05, _phi06, _phi07, _phi08, _phi09, _phi10,
                 _phi11, _phi12, _phi13):
        if not step(s):
            return


# -- Φ01–Φ04: the invitation, the setting out, the summons, the entry ------------------------

PHI01 = """
    主人 戒 to=宾                 | 3 | 主人戒宾
    宾 出迎 to=主人               | 3 | 宾出迎
    宾 拜 to=主人 n=2             | 3 | 再拜
    主人 答拜 to=宾 n=2           | 3 | 主人答再拜
    主人 请 to=宾                 | 3 | 乃请
    宾 礼辞 to=主人               | 3 | 宾礼辞
    宾 许 to=主人                 | 3 | 许
    主人 拜 to=宾 n=2             | 3–4 | 主人再拜
    宾 答拜 to=主人 n=2           | 4 | 宾答再拜
    主人 退                       | 4 | 主人退
    宾 送 to=主人                 | 4 | 宾送
    宾 拜 to=主人 n=2             | 4 | 再拜
    # L4 无介: the cast has no 介
"""


def _phi01(s: Staging) -> bool:
    if not s.phase("Φ01", "主人戒宾"):
        return False
    _run(s, PHI01)
    return True


PHI02 = """
    弟子7 设 席1 to=宾 face=南面  | 5 | 乃席宾，南面，东上
    弟子7 设 席2 to=众宾1 face=南面 | 5 | 众宾之席，继而西
    弟子7 设 席3 to=众宾2 face=南面 | 5 | 继而西
    弟子7 设 席4 to=众宾3 face=南面 | 5 | 继而西
    弟子7 设 席5 to=主人 at=阼阶上 face=西面 | 5 | 席主人于阼阶上，西面
    弟子7 设 尊 at=宾席之东       | 5–6 | 尊于宾席之东
    弟子7 设 斯禁                 | 6 | 两壶，斯禁
    弟子7 设 壶1                  | 6 | 两壶 (壶1, on the left, holds the 玄酒)
    弟子7 设 壶2                  | 6 | 两壶
    弟子7 设 玄酒                 | 6 | 左玄酒
    弟子7 设 勺1                  | 6 | 皆加勺
    弟子7 设 勺2                  | 6 | 皆加勺
    弟子7 设 幂                   | 242–243 | (记) 尊，绤幂
    弟子7 设 篚1 at=上篚          | 6 | 篚在其南，东肆
    弟子7 设 洗                   | 6–7 | 设洗于阼阶东南，南北以堂深，东西当东荣
    弟子7 设 水 at=洗东           | 7 | 水在洗东
    弟子7 设 篚2 at=洗西          | 7 | 篚在洗西，南肆
    弟子7 设 县 face=西面         | 7 | 县于洗东北，西面
    弟子7 张侯 侯 kind=采侯         | 7–8 | 乃张侯，下纲不及地武。不系左下纲，中掩束之
    弟子7 设 at=乏                | 8 | 乏参侯道，居侯党之一，西五步
"""


def _phi02(s: Staging) -> bool:
    if not s.phase("Φ02", "陈设"):
        return False
    _run(s, PHI02)
    return True


PHI03_SUMMONS = """
    # L9 羹定
    主人 速 to=宾                 | 9 | 主人朝服，乃速宾
    宾 出迎 to=主人               | 9 | 宾朝服出迎
    宾 拜 to=主人 n=2             | 9 | 再拜
    主人 答拜 to=宾 n=2           | 9 | 主人答再拜
    主人 退                       | 9 | 退
    宾 送 to=主人                 | 9 | 宾送
    宾 拜 to=主人 n=2             | 9–10 | 再拜
"""


def _phi03(s: Staging) -> bool:
    if not s.phase("Φ03", "速宾"):
        return False
    _run(s, PHI03_SUMMONS)
    s.ev("宾 从 to=主人", 10, "宾及众宾遂从之")
    _each(s, _zhongbin(s), "{p} 从 to=主人 | 10")
    return True


PHI04_AT_THE_GATE = """
    主人 出迎 to=宾 at=门外       | 11 | 及门，主人一相出迎于门外
    司正 从 to=主人               | 11 | 一相 (the 相, made 司正 in Φ13)
    主人 拜 to=宾 n=2             | 11 | 再拜
    宾 答拜 to=主人 n=2           | 11 | 宾答再拜
    主人 揖 to=众宾1              | 11 | 揖众宾 (the group, addressed through its senior)
    主人 揖 to=宾                 | 11 | 主人以宾揖
    主人 入                       | 11 | 先入
    宾 厌 to=众宾1                | 12 | 宾厌众宾
    宾 入                         | 12
    弟子7 彻 幂                   | 243 | (记) 宾至，彻之
"""

PHI04_UP = """
    宾 少进                       | 12 | 宾少进
    主人 揖 to=宾 n=3             | 12 | 主人以宾三揖，皆行
    主人 让 to=宾 n=3             | 12–13 | 及阶，三让
    主人 升 at=阼阶               | 13 | 主人升一等
    宾 升 at=西阶                 | 13 | 宾升
    主人 拜至 to=宾 n=2 at=当楣 face=北面 | 13 | 主人阼阶上当楣北面再拜
    宾 答拜 to=主人 n=2 at=当楣 face=北面 | 13 | 宾西阶上当楣北面答再拜
"""


def _phi04(s: Staging) -> bool:
    if not s.phase("Φ04", "迎宾·拜至"):
        return False
    _run(s, PHI04_AT_THE_GATE)
    _each(s, _zhongbin(s), "{p} 入 at=门左 face=东面 | 12", "众宾皆入门左，东面北上")
    _run(s, PHI04_UP)
    return True


# -- Φ05–Φ07: 主人献宾, 宾酢主人, 主人酬宾 (fixed: they involve only the 宾 and the 主人) --------

PHI05 = """
    主人 坐                       | 14 | 主人坐
    主人 取 爵1 at=上篚           | 14 | 主人坐取爵于上篚
    主人 降 at=阼阶               | 14 | 以降
    宾 降 at=西阶                 | 14 | 宾降
    主人 坐 at=阼阶前 face=西面   | 14 | 主人阼阶前西面坐
    主人 奠 爵1 at=阼阶前         | 14 | 奠爵
    主人 兴                       | 14 | 兴
    主人 辞降 to=宾               | 14 | 辞降
    宾 对 to=主人                 | 14 | 宾对
    主人 坐                       | 15 | 主人坐
    主人 取 爵1                   | 15 | 取爵
    主人 兴                       | 15 | 兴
    主人 适 at=洗                 | 15 | 适洗
    主人 坐 face=南面             | 15 | 南面坐
    主人 奠 爵1 at=篚下           | 15 | 奠爵于篚下
    主人 盥                       | 15 | 盥洗
    主人 取 爵1                   | 15 | (he takes the cup up to wash it)
    主人 洗 爵1                   | 15 | 盥洗
    宾 进                         | 15 | 宾进
    宾 辞洗 to=主人 face=东北面   | 15 | 东北面辞洗
    主人 坐                       | 15 | 主人坐
    主人 奠于篚 爵1 at=下篚       | 15–16 | 奠爵于篚 (in the middle of the washing)
    主人 兴                       | 16 | 兴
    主人 对 to=宾                 | 16 | 对
    宾 反位                       | 16 | 宾反位
    主人 取 爵1                   | 16 | (takes the cup up again)
    主人 卒洗                     | 16 | 主人卒洗
    主人 揖 to=宾 n=1             | 16 | 壹揖
    主人 让 to=宾 n=1             | 16 | 壹让
    主人 升 at=阼阶               | 16 | 以宾升
    宾 升 at=西阶                 | 16
    宾 拜洗 to=主人 at=西阶上 face=北面 | 16 | 宾西阶上北面拜洗
    主人 奠 爵1 at=阼阶上 face=北面 | 17 | 主人阼阶上北面奠爵
    主人 答拜 to=宾               | 17 | 遂答拜
    主人 降 at=阼阶               | 17 | 乃降
    宾 降 at=西阶                 | 17 | 宾降
    主人 辞降 to=宾               | 17 | 主人辞降
    宾 对 to=主人                 | 17 | 宾对
    主人 卒盥                     | 17 | 主人卒盥
    主人 揖 to=宾 n=1             | 17 | 壹揖
    主人 让 to=宾 n=1             | 17–18 | 壹让
    主人 升 at=阼阶               | 18 | 升
    宾 升 at=西阶                 | 18 | 宾升
    宾 疑立 at=西阶上             | 18 | 西阶上疑立
    主人 坐                       | 18 | 主人坐
    主人 取 爵1                   | 18 | 取爵
    主人 实 爵1 at=席前           | 18 | 实之宾席之前
    主人 献 爵1 to=宾 face=西北面 | 18 | 西北面献宾
    宾 拜 to=主人 at=西阶上 face=北面 | 18–19 | 宾西阶上北面拜
    主人 少退                     | 19 | 主人少退
    宾 进                         | 19 | 宾进
    宾 受 爵1 at=席前             | 19 | 受爵于席前
    宾 复位                       | 19 | 复位
    主人 拜送 to=宾 at=阼阶上     | 19 | 主人阼阶上拜送爵
    宾 少退                       | 19 | 宾少退
    弟子7 荐 荐1 to=宾            | 19–20 | 荐脯醢
    宾 升席 from=西方              | 20 | 宾升席，自西方
    弟子7 设 俎1 to=宾            | 20 | 乃设折俎
    主人 疑立 at=阼阶之东         | 20 | 主人阼阶东疑立
    宾 坐                         | 20 | 宾坐
    宾 执 爵1                     | 20 | 左执爵
    宾 祭 荐1                     | 20 | 右祭脯醢
    宾 奠 爵1 at=荐西             | 21 | 奠爵于荐西
    宾 兴                         | 21 | 兴
    宾 取 肺1                     | 21 | 取肺
    宾 坐                         | 21 | 坐
    宾 绝祭 肺1                   | 21 | 绝祭，尚左手
    宾 哜 肺1                     | 21 | 哜之
    宾 兴                         | 21 | 兴
    宾 加 肺1                     | 21 | 加于俎
    宾 坐                         | 21 | 坐
    宾 棁手                       | 21 | 棁手
    宾 执 爵1                     | 21 | 执爵
    宾 祭 爵1                     | 22 | 遂祭酒
    宾 兴                         | 22 | 兴
    宾 坐 at=席末                 | 22 | 席末坐
    宾 啐 爵1                     | 22 | 啐酒
    宾 降席 from=西方              | 22 | 降席 (郑注 降席席西也)
    宾 坐                         | 22 | 坐
    宾 奠 爵1                     | 22 | 尊爵 (the file's 尊 for 奠)
    宾 拜 to=主人                 | 22 | 拜
    宾 告旨 to=主人               | 22 | 告旨
    宾 执 爵1                     | 22 | 执爵
    宾 兴                         | 22 | 兴
    主人 答拜 to=宾 at=阼阶上     | 22 | 主人阼阶上答拜
    宾 坐 at=西阶上 face=北面     | 23 | 宾西阶上北面坐
    宾 卒爵 爵1 at=西阶上         | 23 | 卒爵
    宾 兴                         | 23 | 兴
    宾 坐                         | 23 | 坐
    宾 奠 爵1                     | 23 | 奠爵
    宾 拜 to=主人                 | 23 | 遂拜
    宾 执 爵1                     | 23 | 执爵
    宾 兴                         | 23 | 兴
    主人 答拜 to=宾 at=阼阶上     | 23 | 主人阼阶上答拜
"""

PHI06 = """
    宾 降 at=西阶                 | 24 | 宾以虚爵降
    主人 降 at=阼阶               | 24 | 主人降
    宾 坐 at=西阶前 face=东面     | 24 | 宾西阶前东面坐
    宾 奠 爵1 at=西阶前           | 24 | 奠爵
    宾 兴                         | 24 | 兴
    宾 辞降 to=主人               | 24 | 辞降
    主人 对 to=宾                 | 24 | 主人对
    宾 坐                         | 24 | 宾坐
    宾 取 爵1                     | 24 | 取爵
    宾 适 at=洗                   | 25 | 适洗
    宾 坐 face=北面               | 25 | 北面坐
    宾 奠 爵1 at=篚下             | 25 | 奠爵于篚下
    宾 兴                         | 25 | 兴
    宾 盥                         | 25 | 盥洗
    宾 取 爵1                     | 25 | (takes the cup up to wash it)
    宾 洗 爵1                     | 25 | 盥洗
    主人 辞洗 to=宾 at=阼阶之东 face=南面 | 25 | 主人阼阶之东，南面辞洗
    宾 坐                         | 25 | 宾坐
    宾 奠于篚 爵1 at=下篚         | 25 | 奠爵于篚
    宾 兴                         | 26 | 兴
    宾 对 to=主人                 | 26 | 对
    主人 反位                     | 26 | 主人反位
    宾 取 爵1                     | 26 | (takes the cup up again)
    宾 卒洗                       | 26 | 宾卒洗
    主人 揖 to=宾 n=1             | 26 | 揖让如初
    主人 让 to=宾 n=1             | 26 | 揖让如初
    主人 升 at=阼阶               | 26 | 升
    宾 升 at=西阶                 | 26 | 升
    主人 拜洗 to=宾 at=阼阶上 face=北面 | 26 | 主人拜洗
    宾 奠 爵1                     | 26 | (如主人之礼: he sets the cup down to answer)
    宾 答拜 to=主人               | 26 | 宾答拜
    宾 兴                         | 26 | 兴
    宾 降 at=西阶                 | 26 | 降盥
    主人 降 at=阼阶               | 26–27 | 如主人之礼 (the other descends with him)
    宾 辞降 to=主人               | 26–27 | 如主人之礼
    主人 对 to=宾                 | 26–27 | 如主人之礼
    宾 卒盥                       | 26 | 降盥
    主人 揖 to=宾 n=1             | 26–27 | 如主人之礼 (壹揖)
    主人 让 to=宾 n=1             | 26–27 | 如主人之礼 (壹让)
    主人 升 at=阼阶               | 27 | (主人升一等)
    宾 升 at=西阶                 | 27 | 宾升
    宾 取 爵1                     | 27 | (takes up the cup)
    宾 实 爵1 at=席前             | 27 | 实爵主人之席前
    宾 酢 爵1 to=主人 face=东南面 | 27 | 东南面酢主人
    主人 拜 to=宾 at=阼阶上       | 27 | 主人阼阶上拜
    宾 少退                       | 27 | 宾少退
    主人 进                       | 27–28 | 主人进
    主人 受 爵1                   | 28 | 受爵
    主人 复位                     | 28 | 复位
    宾 拜送 to=主人 at=西阶上     | 28 | 宾西阶上拜送爵
    弟子7 荐 荐2 to=主人          | 28 | 荐脯醢
    主人 升席 from=北方            | 28 | 主人升席自北方
    弟子7 设 俎2 to=主人          | 28 | 乃设折俎
    主人 坐                       | 28–29 | 祭如宾礼
    主人 执 爵1                   | 28–29 | 祭如宾礼 (左执爵)
    主人 祭 荐2                   | 28–29 | 祭如宾礼 (右祭脯醢)
    主人 奠 爵1 at=荐西           | 28–29 | 祭如宾礼
    主人 兴                       | 28–29 | 祭如宾礼
    主人 取 肺2                   | 28–29 | 祭如宾礼 (取肺)
    主人 坐                       | 28–29
    主人 绝祭 肺2                 | 28–29 | 祭如宾礼 (绝祭)
    主人 哜 肺2                   | 28–29 | 祭如宾礼 (哜之)
    主人 兴                       | 28–29
    主人 加 肺2                   | 28–29 | 祭如宾礼 (加于俎)
    主人 坐                       | 28–29
    主人 棁手                     | 28–29 | 祭如宾礼 (棁手)
    主人 执 爵1                   | 28–29 | 祭如宾礼 (执爵)
    主人 祭 爵1                   | 28–29 | 祭如宾礼 (祭酒)
    主人 兴                       | 28–29
    主人 坐 at=席末               | 28–29 | (席末坐)
    主人 啐 爵1                   | 28–29 | 祭如宾礼 (啐酒; only 告旨 is omitted)
    主人 降席                     | 29 | (自席前)
    # L29 不告旨
    主人 适 at=阼阶上             | 29 | 自席前适阼阶上
    主人 坐 face=北面             | 29 | 北面坐
    主人 卒爵 爵1 at=阼阶上       | 29 | 卒爵
    主人 兴                       | 29 | 兴
    主人 坐                       | 29 | 坐
    主人 奠 爵1                   | 29 | 奠爵
    主人 拜 to=宾                 | 29 | 遂拜
    主人 执 爵1                   | 29 | 执爵
    主人 兴                       | 29 | 兴
    宾 答拜 to=主人 at=西阶上 face=北面 | 29–30 | 宾西阶上北面答拜
    主人 坐                       | 30 | 主人坐
    主人 奠 爵1 at=序端           | 30 | 奠爵于序端
    主人 崇酒 to=宾 n=2 at=阼阶上 | 30 | 阼阶上再拜崇酒
    宾 答拜 to=主人 n=2 at=西阶上 | 30 | 宾西阶上答再拜
"""

PHI07 = """
    主人 坐                       | 31 | 主人坐
    主人 取 觯1 at=上篚           | 31 | 取觯于篚
    主人 降 at=阼阶               | 31 | 以降
    宾 降 at=西阶                 | 31 | 宾降
    主人 奠 觯1                   | 31 | 主人奠觯
    主人 辞降 to=宾               | 31 | 辞降
    宾 对 to=主人                 | 31 | 宾对
    宾 立 face=东面               | 31 | 东面立
    主人 坐                       | 31 | 主人坐
    主人 取 觯1                   | 31 | 取觯
    主人 洗 觯1                   | 32 | 洗
    # L32 宾不辞洗
    主人 卒洗                     | 32 | 卒洗
    主人 揖 to=宾 n=1             | 32 | 揖让升
    主人 让 to=宾 n=1             | 32 | 揖让升
    主人 升 at=阼阶               | 32 | 升
    宾 升 at=西阶                 | 32 | 升
    宾 疑立 at=西阶上             | 32 | 宾西阶上疑立
    主人 实 觯1                   | 32 | 主人实觯
    主人 酬 觯1 to=宾             | 32 | 酬之
    主人 坐 at=阼阶上 face=北面   | 32 | 阼阶上北面坐
    主人 奠 觯1                   | 32–33 | 奠觯
    主人 拜 to=宾                 | 33 | 遂拜
    主人 执 觯1                   | 33 | 执觯
    主人 兴                       | 33 | 兴
    宾 答拜 to=主人 at=西阶上 face=北面 | 33 | 宾西阶上北面答拜
    主人 坐                       | 33 | 主人坐
    主人 祭 觯1                   | 33 | 祭
    主人 饮 觯1                   | 33 | 遂饮
    主人 卒觯 觯1                 | 33 | 卒觯
    主人 兴                       | 33 | 兴
    主人 坐                       | 33 | 坐
    主人 奠 觯1                   | 33 | 奠觯
    主人 拜 to=宾                 | 34 | 遂拜
    主人 执 觯1                   | 34 | 执觯
    主人 兴                       | 34 | 兴
    宾 答拜 to=主人 at=西阶上 face=北面 | 34 | 宾西阶上北面答拜
    主人 降 at=阼阶               | 34 | 主人降洗
    宾 降 at=西阶                 | 34 | 宾降
    主人 洗 觯1                   | 34 | (降)洗
    宾 辞洗 to=主人               | 34 | 宾降辞，如献礼: he declines the washing (郑注 以将酌己: the cup is for him)
    主人 对 to=宾                 | 34 | 如献礼
    主人 卒洗                     | 34 | (卒洗)
    主人 揖 to=宾 n=1             | 34 | 如献礼 (壹揖)
    主人 让 to=宾 n=1             | 34 | 如献礼 (壹让)
    主人 升 at=阼阶               | 34 | 升
    宾 升 at=西阶                 | 34 | 升
    # L34 不拜洗
    宾 立 at=西阶上               | 35 | 宾西阶上立
    主人 实 觯1 at=席前           | 35 | 主人实觯宾之席前
    主人 立 face=北面             | 35 | 北面
    宾 拜 to=主人 at=西阶上       | 35 | 宾西阶上拜
    主人 坐                       | 35 | 主人坐
    主人 奠 觯1 at=荐西           | 35 | 奠觯于荐西
    宾 辞 to=主人                 | 35 | 宾辞
    宾 坐                         | 35 | 坐
    宾 取 觯1 at=荐西             | 35–36 | 取觯
    宾 兴                         | 36 | 以兴
    宾 反位                       | 36 | 反位
    主人 拜送 to=宾 at=阼阶上     | 36 | 主人阼阶上拜送
    宾 坐 face=北面               | 36 | 宾北面坐
    宾 奠 觯1 at=荐东             | 36 | 奠觯于荐东
    宾 反位                       | 36 | 反位
"""


def _phi05(s: Staging) -> bool:
    if not s.phase("Φ05", "主人献宾"):
        return False
    _run(s, PHI05)
    return True


def _phi06(s: Staging) -> bool:
    if not s.phase("Φ06", "宾酢主人"):
        return False
    _run(s, PHI06)
    return True


def _phi07(s: Staging) -> bool:
    if not s.phase("Φ07", "主人酬宾"):
        return False
    _run(s, PHI07)
    return True


# -- Φ08: 主人献众宾 --------------------------------------------------------------------------

PHI08_BOWS = """
    主人 揖 to=宾                 | 37 | 主人揖降
    主人 降 at=阼阶               | 37 | 降
    宾 降 at=西阶                 | 37 | 宾降
    宾 立 at=西阶西 face=东面     | 37 | 东面立于西阶西，当西序
    主人 拜 to=众宾1 n=3 face=西南面 | 37 | 主人西南面三拜众宾 (the group, through its senior)
"""

PHI08_WASH = """
    主人 揖                       | 38 | 主人揖升
    主人 升 at=阼阶               | 38 | 升
    主人 坐                       | 38 | 坐
    主人 取 爵1 at=序端           | 38 | 取爵于序端
    主人 降 at=阼阶               | 38 | 降洗
    主人 洗 爵1                   | 38 | 洗
    众宾1 辞洗 to=主人            | 247 | (记) 众宾之长，一人辞洗，如宾礼
    主人 坐                       | 247 | 如宾礼
    主人 奠于篚 爵1 at=下篚       | 247 | 如宾礼 (奠爵于篚)
    主人 兴                       | 247 | 如宾礼
    主人 对 to=众宾1              | 247 | 如宾礼 (兴对)
    主人 取 爵1                   | 247 | (takes the cup up again)
    主人 卒洗                     | 38 | (洗)
    主人 升 at=阼阶               | 38 | 升
"""

# one of the three 众宾之长: 「众宾之长升拜受者三人，主人拜送。坐祭，立饮，不拜；既爵，授主人爵；降复位」
XIAN_ZHANG = """
    {p} 升 at=西阶 | 38–39 | {up}
    主人 献 爵1 to={p} at=西阶上 | 38 | {xian}
    {p} 拜受 to=主人 | 39 | 拜受
    {p} 受 爵1 | 39
    主人 拜送 to={p} | 39 | 主人拜送
    {p} 坐 | 39 | 坐
    {p} 祭 爵1 | 39 | 祭
    {p} 兴 | 39 | 立
    {p} 卒爵 爵1 | 39 | 立饮，不拜；既爵
    {p} 授 爵1 to=主人 | 39 | 授主人爵
    {p} 降 at=西阶 | 39 | 降
    {p} 复位 | 39 | 复位
"""

# any other 众宾: 「众宾皆不拜，受爵，坐祭，立饮」
XIAN_ZHONG = """
    {p} 升 at=西阶 | 38 | {up}
    主人 献 爵1 to={p} at=西阶上 | 38 | 献从宾
    {p} 受 爵1 | 39–40 | 众宾皆不拜，受爵
    {p} 坐 | 40 | 坐
    {p} 祭 爵1 | 40 | 祭
    {p} 兴 | 40 | 立
    {p} 卒爵 爵1 | 40 | 立饮
    {p} 授 爵1 to=主人 | 39 | {give}
    {p} 降 at=西阶 | 39 | {down}
"""


def _xian_zhongbin(s: Staging, i: int, last: bool) -> None:
    """The 献 to the i-th 众宾 (1-based): the 爵 is filled, offered, drunk; then his 脯醢."""
    p = f"众宾{i}"
    if i == 1:
        s.ev("主人 实 爵1", 38, "实爵")
    else:
        s.ev("主人 实 爵1", 38, "(refilled for the next: the text washes once)" if i == 2 else "(refilled)")
    if i <= 3:
        _run(s, XIAN_ZHANG, p=p,
             up="众宾之长升拜受者三人" if i == 1 else "升",
             xian="西阶上献从宾" if i == 1 else "献从宾")
    else:
        first = i == 4
        _run(s, XIAN_ZHONG, p=p, up="(to receive at 西阶上)" if first else "",
             give="(hands the cup back, as the 长 do)" if first else "",
             down="(back to his place)" if first else "")
    # 荐 has 12 instances: the 众宾's 脯醢 are objectless, as in the canonical
    s.ev(f"弟子7 荐 to={p}", 40, "每一人献，则荐诸其席" + ("；众宾辩有脯醢" if last else ""))


def _phi08(s: Staging) -> bool:
    if not s.phase("Φ08", "主人献众宾"):
        return False
    zb = _zhongbin(s)
    _run(s, PHI08_BOWS)
    s.ev("众宾1 答拜 to=主人 n=1", "37–38", "众宾皆答一拜")  # type: ignore[arg-type]
    _each(s, zb[1:], "{p} 答拜 to=主人 n=1 | 38")
    _run(s, PHI08_WASH)
    for i in range(1, len(zb) + 1):
        _xian_zhongbin(s, i, last=i == len(zb))
    s.ev("主人 降 at=阼阶", "40–41", "主人以虚爵降")  # type: ignore[arg-type]
    s.ev("主人 奠于篚 爵1 at=下篚", 41, "奠于篚")
    return True


# -- Φ09: 一人举觯 ----------------------------------------------------------------------------

PHI09_UP = """
    主人 揖 to=宾 n=1             | 42 | 揖让升
    主人 让 to=宾 n=1             | 42 | 揖让升
    主人 升 at=阼阶               | 42 | 升
    宾 升 at=西阶                 | 42 | 升
    宾 厌 to=众宾1                | 42 | 宾厌众宾升
"""

PHI09_JUZHI = """
    举觯者1 取 觯2 at=下篚        | 42 | 一人洗 (the cup from the 下篚)
    举觯者1 洗 觯2                | 42 | 一人洗
    举觯者1 升 at=西阶            | 42 | 升
    举觯者1 实 觯2                | 42 | 实觯
    举觯者1 举觯 觯2 to=宾        | 42 | 举觯于宾
    举觯者1 坐 at=西阶上          | 42–43 | 西阶上坐
    举觯者1 奠 觯2 at=西阶上      | 43 | 奠觯
    举觯者1 拜 to=宾              | 43 | 拜
    举觯者1 执 觯2                | 43 | 执觯
    举觯者1 兴                    | 43 | 兴
    宾 答拜 to=举觯者1 at=席末    | 43 | 宾席末答拜
    举觯者1 坐                    | 43 | 举觯者坐
    举觯者1 祭 觯2                | 43 | 祭
    举觯者1 饮 觯2                | 43 | 遂饮
    举觯者1 卒觯 觯2              | 43 | 卒觯
    举觯者1 兴                    | 43 | 兴
    举觯者1 坐                    | 43 | 坐
    举觯者1 奠 觯2                | 43 | 奠觯
    举觯者1 拜 to=宾              | 44 | 拜
    举觯者1 执 觯2                | 44 | 执觯
    举觯者1 兴                    | 44 | 兴
    宾 答拜 to=举觯者1            | 44 | 宾答拜
    举觯者1 降 at=西阶            | 44 | 降洗
    举觯者1 洗 觯2                | 44 | 洗
    举觯者1 升 at=西阶            | 44 | 升
    举觯者1 实 觯2                | 44 | 实之
    举觯者1 立 at=西阶上 face=北面 | 44 | 西阶上北面
    宾 拜 to=举觯者1              | 44 | 宾拜
    举觯者1 进                    | 44 | 举觯者进
    举觯者1 坐                    | 44 | 坐
    举觯者1 奠 觯2 at=荐西        | 44–45 | 奠觯于荐西
    宾 辞 to=举觯者1              | 45 | 宾辞
    宾 坐                         | 45 | 坐
    宾 取 觯2 at=荐西             | 45 | 取
    宾 兴                         | 45 | 以兴
    举觯者1 拜送 to=宾 at=西阶上  | 45 | 举觯者西阶上拜送
    宾 反奠 觯2 at=荐西           | 45 | 宾反奠于其所
    举觯者1 降 at=西阶            | 45 | 举觯者降
"""


def _phi09(s: Staging) -> bool:
    if not s.phase("Φ09", "一人举觯"):
        return False
    zb = _zhongbin(s)
    _run(s, PHI09_UP)
    _each(s, zb, "{p} 升 at=西阶 | 42", "众宾皆升")
    s.ev("宾 就席", 43, "(宾席末答拜: he is at his mat)")
    _each(s, zb, "{p} 就席 | 42", "就席")
    if not zunzhe(s):
        # no 遵者: the host takes his mat now (with 遵者 he does so at the end of Φ10)
        s.ev("主人 就席", 42, "就席")
    _run(s, PHI09_JUZHI)
    return True


# -- Φ10: the 遵者 (大夫, 诸公) ----------------------------------------------------------------
# One reception per 遵者, 诸公 first.  记 L247–248 「若有诸公，则如宾礼，大夫如介礼。无诸公，则大夫
# 如宾礼」 (R038, deferred in the rulebook).  Choice made here: "如宾礼" is the manner Φ10 is written
# in — the 记 itself says a 大夫 is received 如宾礼 when no 公 is there, and Φ10 says 「大夫辞洗，
# 如宾礼」 — so a 公 is received exactly as Φ10 is written.  "如介礼" (the 介 of 乡饮酒礼, whose
# reception Φ10 already follows in 不拜洗, 不哜肺, 不啐酒, 不告旨 and 主人自酢) is staged as Φ10
# without the one courtesy Φ10 marks as the 宾's: the 辞洗 「如宾礼」 (R038's violating example: a
# 大夫 who, with a 公 present, receives 辞洗 exactly as the 宾).  Whether the 公 enter at the same
# point as the 大夫 is not said (R038 note): they enter together here.  乡饮酒's 「公…辞一席，使一人
# 去之」 is not staged: R034 reads the 加席 as never removed.

ZUN_UP = """
    主人 揖 to={d} n=1 | 46 | 主人揖让
    主人 让 to={d} n=1 | 46 | 揖让
    主人 升 at=阼阶 | 46–47 | 以大夫升
    {d} 升 at=西阶 | 47
    主人 拜至 to={d} n=2 | 47 | 拜至
    {d} 答拜 to=主人 | 47 | 大夫答拜
    主人 取 {jue} at=上篚 | 47 | 主人以爵 (source not stated: the 上篚 on the hall)
    主人 降 at=阼阶 | 47 | 降
    {d} 降 at=西阶 | 47 | 大夫降
    主人 坐 | 47 | (奠爵 to speak, as in Φ05)
    主人 奠 {jue} at=阼阶前 | 47
    主人 兴 | 47
    主人 辞降 to={d} | 47 | 主人辞降
    {d} 对 to=主人 | 47 | (as in Φ05)
    主人 取 {jue} | 47
    主人 适 at=洗 | 47
    主人 洗 {jue} | 47 | (洗)
"""

# 「大夫辞洗，如宾礼」: the 宾's exchange of Φ05 (奠爵于篚，兴对，宾反位)
ZUN_CI_XI = """
    {d} 辞洗 to=主人 | 47 | 大夫辞洗，如宾礼
    主人 坐 | 47 | 如宾礼
    主人 奠于篚 {jue} at=下篚 | 47 | 如宾礼 (奠爵于篚)
    主人 兴 | 47 | 如宾礼
    主人 对 to={d} | 47 | 如宾礼 (兴对)
    {d} 反位 | 47 | 如宾礼 (反位)
    主人 取 {jue} | 47 | (takes the cup up again)
"""

ZUN_XIAN = """
    主人 卒洗 | 47 | {ru} (卒洗)
    主人 揖 to={d} n=1 | 47 | {ru} (壹揖)
    主人 让 to={d} n=1 | 47 | {ru} (壹让)
    弟子7 设 {xi} to={d} at=尊东 | 48 | 席于尊东
    主人 升 at=阼阶 | 48 | 升
    {d} 升 at=西阶 | 48 | 升
    # L48 不拜洗
    主人 实 {jue} at=席前 | 48 | 主人实爵，席前
    主人 献 {jue} to={d} | 48 | 献于大夫
    {d} 拜 to=主人 at=西阶上 | 48 | 大夫西阶上拜
    {d} 进 | 48 | 进
    {d} 受 {jue} | 48 | 受爵
    {d} 反位 | 48–49 | 反位
    主人 拜送 to={d} | 49 | 主人大夫之右拜送
    {d} 辞加席 to=主人 | 49 | 大夫辞加席
    主人 对 to={d} | 49 | 主人对，不去加席
    弟子7 荐 {jian} to={d} | 49 | 乃荐脯醢
    {d} 升席 from=东方 | 49 | 大夫升席 (郑注 大夫升席由东方)
    弟子7 设 {zu} to={d} | 50 | 设折俎
    {d} 坐 | 50 | 祭如宾礼
    {d} 执 {jue} | 50 | 祭如宾礼 (左执爵)
    {d} 祭 {jian} | 50 | 祭如宾礼 (右祭脯醢)
    {d} 奠 {jue} at=荐西 | 50 | 祭如宾礼
    {d} 兴 | 50
    {d} 取 {fei} | 50 | 祭如宾礼 (取肺)
    {d} 坐 | 50
    {d} 绝祭 {fei} | 50 | 祭如宾礼 (绝祭)
    # L50 不哜肺
    {d} 兴 | 50
    {d} 加 {fei} | 50 | 祭如宾礼 (加于俎)
    {d} 坐 | 50
    {d} 棁手 | 50 | 祭如宾礼
    {d} 执 {jue} | 50 | 祭如宾礼 (执爵)
    {d} 祭 {jue} | 50 | 祭如宾礼 (祭酒)
    {d} 兴 | 50
    # L50 不啐酒，不告旨
    {d} 降席 | 50 | (to the west steps)
    {d} 卒爵 {jue} at=西阶上 | 50 | 西阶上卒爵
    {d} 拜 to=主人 | 50 | 拜
    主人 答拜 to={d} | 50 | 主人答拜
"""

# 「大夫降洗，主人复阼阶，降辞如初。卒洗。主人盥，揖让升。大夫授主人爵于两楹间，复位。主人实爵，
#  以酢于西阶上…主人坐奠爵于西楹南，再拜崇酒，大夫答拜。主人复阼阶，揖降。大夫降，立于宾南」
ZUN_ZUO = """
    {d} 降 at=西阶 | 50–51 | 大夫降洗
    主人 适 at=阼阶上 | 51 | 主人复阼阶
    主人 降 at=阼阶 | 51 | 降
    {d} 坐 | 51 | (as the 宾 in Φ06)
    {d} 奠 {jue} at=西阶前 | 51
    {d} 兴 | 51
    {d} 辞降 to=主人 | 51 | 辞如初
    主人 对 to={d} | 51 | 如初
    {d} 取 {jue} | 51
    {d} 适 at=洗 | 51
    {d} 洗 {jue} | 50–51 | 大夫降洗
    {d} 卒洗 | 51 | 卒洗
    主人 盥 | 51 | 主人盥
    主人 揖 to={d} n=1 | 51 | 揖让升
    主人 让 to={d} n=1 | 51 | 揖让升
    主人 升 at=阼阶 | 51 | 升
    {d} 升 at=西阶 | 51 | 升
    {d} 授 {jue} to=主人 at=两楹间 | 51–52 | 大夫授主人爵于两楹间
    主人 受 {jue} | 51–52
    {d} 复位 | 52 | 复位
    主人 实 {jue} | 52 | 主人实爵
    主人 酢 {jue} at=西阶上 | 52 | 以酢于西阶上 (he pours his own 酢, on the 大夫's behalf)
    主人 坐 | 52 | 坐
    主人 奠 {jue} | 52 | 奠爵
    主人 拜 to={d} | 52 | 拜
    {d} 答拜 to=主人 | 52 | 大夫答拜
    主人 坐 | 52 | 坐
    主人 执 {jue} | 52
    主人 祭 {jue} | 52 | 祭
    主人 卒爵 {jue} at=西阶上 | 52 | 卒爵
    主人 拜 to={d} | 52 | 拜
    {d} 答拜 to=主人 | 52–53 | 大夫答拜
    主人 坐 | 53 | 主人坐
    主人 奠 {jue} at=西楹南 | 53 | 奠爵于西楹南
    主人 崇酒 to={d} n=2 | 53 | 再拜崇酒
    {d} 答拜 to=主人 | 53 | 大夫答拜
    主人 适 at=阼阶上 | 53 | 主人复阼阶
    主人 揖 to={d} | 53 | 揖
    主人 降 at=阼阶 | 53 | 降
    {d} 降 at=西阶 | 53–54 | 大夫降
    {d} 立 at=宾南 face=东面 | 54 | 立于宾南
"""


def _receive_zunzhe(s: Staging, d: str, as_jie: bool) -> None:
    """献 and 酢 of one 遵者: 如宾礼 (Φ10 as written) or, for a 大夫 when 诸公 are present, 如介礼."""
    items = zunzhe_items(s, d)
    if as_jie:
        s.comment(f"{d} 如介礼 (记 L247 若有诸公，则如宾礼，大夫如介礼): no 辞洗 如宾礼")
    elif d in s.zhugong_names:
        s.comment(f"{d} 如宾礼 (记 L247 若有诸公，则如宾礼): received as Φ10 is written")
    _run(s, ZUN_UP, d=d, **items)
    if not as_jie:
        _run(s, ZUN_CI_XI, d=d, **items)
    _run(s, ZUN_XIAN, d=d, ru="如介礼" if as_jie else "如宾礼", **items)
    _run(s, ZUN_ZUO, d=d, **items)


def _phi10(s: Staging) -> bool:
    zun = zunzhe(s)
    if not zun:
        if s.o.until < "Φ10":
            return False
        s.comment("Φ10 is not staged: 大夫若有遵者 (L46) — no 遵者 comes (若无大夫)")
        return True
    if not s.phase("Φ10", "遵者入·献大夫"):
        return False
    zb = _zhongbin(s)
    _each(s, zun, "{p} 入 at=门左 | 46", "大夫若有遵者，则入门左")
    s.ev("主人 降 at=阼阶", 46, "主人降")
    s.ev("宾 降 at=西阶", 46, "宾及众宾皆降，复初位")
    _each(s, zb, "{p} 降 at=西阶 | 46")
    s.ev("宾 复位", 46, "复初位")
    for d in zun:
        _receive_zunzhe(s, d, as_jie=bool(s.zhugong_names) and d in s.dafu_names)
    s.ev("主人 揖 to=宾 n=1", 54, "主人揖让")
    s.ev("主人 让 to=宾 n=1", 54, "揖让")
    s.ev("主人 升 at=阼阶", 54, "以宾升")
    s.ev("宾 升 at=西阶", 54)
    _each(s, zun + zb, "{p} 升 at=西阶 | 54", "大夫及众宾皆升")
    s.ev("宾 就席", 54, "就席")
    _each(s, zun + zb, "{p} 就席 | 54")
    s.ev("主人 就席", 54, "(the host to his mat: 主人降席自南方 in Φ13)")
    return True


# -- Φ11: 合乐 --------------------------------------------------------------------------------

PHI11 = """
    弟子7 设 席7 to=工1 at=西阶上 | 55 | 席工于西阶上，少东
    乐正 升 at=西阶               | 55 | 乐正先升
    乐正 立 at=西阶上 face=北面   | 55 | 北面立于其西
    相者1 何瑟 瑟1                | 55–56 | 相者皆左何瑟，面鼓，执越，内弦
    相者2 何瑟 瑟2                | 55–56
    相者1 相工 to=工1             | 56 | 右手相
    相者2 相工 to=工2             | 56 | 右手相
    工1 入                        | 55–56 | 瑟先 … 入
    工2 入                        | 56
    工3 入                        | 56
    工4 入                        | 56
    工1 升 at=西阶                | 56 | 升自西阶
    工2 升 at=西阶                | 56
    工3 升 at=西阶                | 56
    工4 升 at=西阶                | 56 | 北面东上
    工1 坐                        | 56 | 工坐
    工2 坐                        | 56
    工3 坐                        | 56
    工4 坐                        | 56
    相者1 坐                      | 56 | 相者坐
    相者1 授瑟 瑟1 to=工1         | 56–57 | 授瑟
    相者2 坐                      | 56
    相者2 授瑟 瑟2 to=工2         | 56–57 | 授瑟
    相者1 降                      | 57 | 乃降
    相者2 降                      | 57
    笙1 入                        | 57 | 笙入
    笙1 立 at=县中 face=西面      | 57 | 立于县中，西面
    笙2 入                        | 57
    笙2 立 at=县中 face=西面      | 57
    笙3 入                        | 57
    笙3 立 at=县中 face=西面      | 57
    工1 合乐                      | 57 | 乃合乐：《周南·关雎》
    工1 合乐                      | 57 | 《葛覃》
    工1 合乐                      | 58 | 《卷耳》
    工1 合乐                      | 58 | 《召南·鹊巢》
    工1 合乐                      | 58 | 《采蘩》
    工1 合乐                      | 58 | 《采蘋》
    工1 告 to=乐正 words=正歌备   | 58–59 | 工不兴，告于乐正，曰：“正歌备。”
    乐正 告 to=宾                 | 59 | 乐正告于宾
    乐正 降                       | 59 | 乃降
"""


def _phi11(s: Staging) -> bool:
    if not s.phase("Φ11", "合乐"):
        return False
    _run(s, PHI11)
    return True


# -- Φ12: 献工·献笙 ----------------------------------------------------------------------------

# 「主人取爵于上篚，献工。大师则为之洗。宾降，主人辞降。工不辞洗。卒洗，升实爵」
PHI12_WASH = """
    主人 降 at=阼阶 | 60 | (to wash: 大师则为之洗; the 大师 of Φ38 is present)
    宾 降 at=西阶 | 60 | 宾降
    主人 辞降 to=宾 | 60 | 主人辞降
    主人 洗 爵3 | 60 | 大师则为之洗
    # L60 工不辞洗
    主人 卒洗 | 60 | 卒洗
    主人 升 at=阼阶 | 61 | 升
    宾 升 at=西阶 | 61 | (he returns up)
    宾 反就席 | 61 | (back to his mat)
"""

# 「工不兴，左瑟，一人拜受爵。主人阼阶上拜送爵。荐脯醢。使人相祭。工饮，不拜既爵，授主人爵」
PHI12_GONG1 = """
    主人 献 爵3 to=工1 | 60 | 献工
    工1 左瑟 瑟1 | 61 | 工不兴，左瑟
    工1 拜受 to=主人 | 61 | 一人拜受爵
    工1 受 爵3 | 61
    主人 拜送 to=工1 at=阼阶上 | 61 | 主人阼阶上拜送爵
    弟子7 荐 荐4 to=工1 | 61 | 荐脯醢
    使人1 相祭 to=工1 | 61 | 使人相祭
    工1 祭 荐4 | 61 | (相祭: 脯醢)
    工1 祭 爵3 | 61 | (相祭: 酒)
    工1 卒爵 爵3 | 62 | 工饮 (seated: 工不兴)
    工1 授 爵3 to=主人 | 62 | 不拜既爵，授主人爵
"""

# 「众工不拜，受爵，祭饮，辩有脯醢。不祭，不洗」
PHI12_GONG = """
    主人 实 爵3 | 62 | {fill}
    主人 献 爵3 to={p} | 62
    {p} 受 爵3 | 62 | {recv}
    {p} 祭 爵3 | 62 | 祭饮
    {p} 卒爵 爵3 | 62 | {drink}
    {p} 授 爵3 to=主人 | 62
    弟子7 荐 to={p} | 62 | {jian}
"""

# 「遂献笙于西阶上。笙一人拜于下，尽阶，不升堂。受爵，主人拜送爵。阶前坐祭，立饮，不拜既爵，
#  升，授主人爵」
PHI12_SHENG1 = """
    主人 实 爵3 | 63
    主人 献 爵3 to=笙1 at=西阶上 | 63 | 遂献笙于西阶上
    笙1 拜 to=主人 | 63 | 笙一人拜于下
    笙1 尽阶 | 63 | 尽阶，不升堂
    笙1 受 爵3 | 63 | 受爵
    主人 拜送 to=笙1 | 63 | 主人拜送爵
    笙1 坐 at=阶前 | 63 | 阶前坐
    笙1 祭 爵3 | 63 | 祭
    笙1 兴 | 64 | 立
    笙1 卒爵 爵3 | 64 | 立饮，不拜既爵
    笙1 尽阶 | 64 | 升 (to the top step: 不升堂)
    笙1 授 爵3 to=主人 | 64 | 授主人爵
    弟子7 荐 荐5 to=笙1 | 64 | 辩有脯醢
"""

# 「众笙不拜，受爵，坐祭，立饮，辩有脯醢，不祭」
PHI12_SHENG = """
    主人 实 爵3 | 64 | (refilled)
    主人 献 爵3 to={p} at=西阶上 | 63 | {xian}
    {p} 受 爵3 | 64 | {recv}
    {p} 坐 | 64 | 坐
    {p} 祭 爵3 | 64 | 祭
    {p} 兴 | 64 | 立
    {p} 卒爵 爵3 | 64 | 立饮
    {p} 授 爵3 to=主人 | 64
    弟子7 荐 to={p} | {jian_line} | 辩有脯醢，不祭
"""

PHI12_END = """
    主人 降 at=阼阶 | 65 | 主人以爵降
    主人 奠于篚 爵3 at=下篚 | 65 | 尊于篚 (the file's 尊 for 奠)
    主人 升 at=阼阶 | 65 | 反升
    主人 就席 | 65 | 就席
"""


def _phi12(s: Staging) -> bool:
    if not s.phase("Φ12", "献工·献笙"):
        return False
    s.ev("主人 降席", 60, "(from his mat)")
    s.ev("主人 取 爵3 at=上篚", 60, "主人取爵于上篚，献工")
    if s.o.taishi:
        _run(s, PHI12_WASH)
    else:
        s.comment("L60 大师则为之洗: no 大师 among the 工, so the 爵 is not washed and nobody descends")
    s.ev("主人 实 爵3", 61, "实爵")
    _run(s, PHI12_GONG1)
    gong = ["工2", "工3", "工4"]
    for i, p in enumerate(gong):
        first, last = i == 0, i == len(gong) - 1
        _run(s, PHI12_GONG, p=p, fill="(refilled: 不洗)" if first else "不洗",
             recv="众工不拜，受爵" if first else "受爵", drink="(饮)" if first else "",
             jian="辩有脯醢" + ("；不祭，不洗" if last else ""))
    _run(s, PHI12_SHENG1)
    for i, p in enumerate(["笙2", "笙3"]):
        first = i == 0
        _run(s, PHI12_SHENG, p=p, xian="(献笙)" if first else "",
             recv="众笙不拜，受爵" if first else "受爵", jian_line="64" if first else "64–65")
    _run(s, PHI12_END)
    return True


# -- Φ13: 立司正 ------------------------------------------------------------------------------

PHI13 = """
    主人 降席 from=南方            | 66 | 主人降席自南方
    主人 侧降                     | 66 | 侧降
    主人 作 to=司正               | 66 | 作相为司正
    司正 为司正                   | 66
    司正 礼辞 to=主人             | 66 | 司正礼辞
    司正 许诺 to=主人             | 66 | 许诺
    主人 拜 to=司正 n=2           | 66 | 主人再拜
    司正 答拜 to=主人             | 66–67 | 司正答拜
    主人 升 at=阼阶               | 67 | 主人升
    主人 就席                     | 67 | 就席
    司正 取 觯3 at=下篚           | 67 | (the cup from the 下篚)
    司正 洗 觯3                   | 67 | 司正洗觯
    司正 升 at=西阶               | 67 | 升自西阶
    司正 由楹内                   | 67 | 由楹内
    司正 适 at=阼阶上             | 67 | 适阼阶上
    司正 受命 to=主人 face=北面   | 67 | 北面受命于主人
    司正 适 at=西阶上             | 67–68 | 西阶上
    司正 请 to=宾 at=西阶上 face=北面 | 68 | 北面请安于宾
    宾 礼辞 to=司正               | 68 | 宾礼辞
    宾 许 to=司正                 | 68 | 许
    司正 告 to=主人               | 68 | 司正告于主人
    司正 立 at=楹间               | 68 | 遂立于楹间
    司正 相                       | 68 | 以相拜
    主人 降席 from=南方            | 68 | (to 阼阶上; 禮殺由便, as L66)
    宾 降席 from=西方              | 68 | (to 西阶上; 賓升降由下)
    主人 拜 to=宾 n=2 at=阼阶上   | 68–69 | 主人阼阶上再拜
    宾 答拜 to=主人 n=2 at=西阶上 | 69 | 宾西阶上答再拜
    主人 揖 to=宾                 | 69 | 皆揖
    宾 揖 to=主人                 | 69 | 皆揖
    主人 就席                     | 69 | 就席
    宾 就席                       | 69 | 就席
    司正 实 觯3                   | 69 | 司正实觯
    司正 降 at=西阶               | 69 | 降自西阶
    司正 坐 at=中庭 face=北面     | 69 | 中庭北面坐
    司正 奠 觯3 at=中庭           | 69 | 奠觯
    司正 兴                       | 70 | 兴
    司正 退                       | 70 | 退
    司正 少立                     | 70 | 少立
    司正 进                       | 70 | 进
    司正 坐                       | 70 | 坐
    司正 取 觯3                   | 70 | 取觯
    司正 兴                       | 70 | 兴
    司正 坐                       | 70 | 反坐
    # L70 不祭
    司正 卒觯 觯3                 | 70 | 遂卒觯
    司正 兴                       | 70 | 兴
    司正 坐                       | 70 | 坐
    司正 奠 觯3                   | 70 | 奠觯
    司正 拜                       | 70 | 拜
    司正 执 觯3                   | 70 | 执觯
    司正 兴                       | 70–71 | 兴
    司正 洗 觯3                   | 71 | 洗
    司正 坐 face=北面             | 71 | 北面坐
    司正 奠 觯3 at=中庭           | 71 | 奠于其所
    司正 兴                       | 71 | 兴
    司正 少退                     | 71 | 少退
    司正 立 at=觯南 face=北面     | 71 | 北面立于觯南
    弟子7 荐 荐6 to=司正 at=觯南  | 250 | (记) 司正既举觯，而荐诸其位
    # L71 未旅: the 旅酬 waits until after the archery (Φ45)
"""


def _phi13(s: Staging) -> bool:
    if not s.phase("Φ13", "立司正"):
        return False
    _run(s, PHI13)
    return True
