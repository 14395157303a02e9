"""Φ44–Φ52: after the archery — 旅酬, 二人举觯, 彻俎, 无算爵, 宾出, the next day, 息司正 (L206–241).

Conventions (docs/trace-format.md, the canonical's drinking part):
  * The 司马 is 司正 again from Φ44 on; he is written 司正.
  * The 旅酬 (Φ45) opens with the cup the 宾 set back at his 荐西 in Φ09 (觯2 in the canonical; found
    in the staging written so far).  Each link is 「如宾酬主人之礼」: the pledger sets the cup down,
    bows, drains it without 祭 (it was refilled unwashed: 不洗者不祭), refills it unwashed (凡旅不洗),
    the receiver bows and receives, the pledger bows him off (拜送).  Nobody bows between his 卒觯 and
    his refill.  The chain runs 宾 → 主人 → the 遵者 by rank (诸公, then 大夫) → the 众宾 by rank →
    those below (在下者: the 司射 and the 乐正, who 「与立者齿」); without a 遵者 the 主人 pledges the
    eldest guest (若无大夫，则长受酬，亦如之).  From the first link the 主人 does not make himself,
    the 司正 calls every receiver (「某酬某子」).
  * Φ46 uses two fresh 觯 (the next free instances): one for the 宾, one for the senior 遵者 (the
    诸公 if there is one — 若有诸公，则如宾礼，大夫如介礼 — else the first 大夫); with several 大夫 only
    the senior is served (the text names two persons, 「使二人举觯于宾与大夫」).  Without a 遵者 only
    one 举觯者 acts (若无大夫，则唯宾).
  * Φ48 (无算爵): the two cups cross (错).  The 宾's cup goes to the 主人, the 遵者's cup to the
    长 (the eldest guest); then the two cups alternate down the seated guests, each drinker draining
    and refilling (不洗, 不拜); the last seated holders rise and pass them to those below at 西阶上
    (以旅在下者), the 执觯者 taking part (执觯者皆与旅); each cup's last receiver returns it empty to
    the 篚, and the 执觯者 wash, fill and set the cups back before the 宾 and the 遵者.  Two cycles
    are staged (the number is free: 无算).  Without a 遵者, only the 宾's cup circulates.
  * Φ52 (息司正) is another day and a reduced party; persons are reused thus: the 主人 is the host;
    the 司正 is the guest of honour (the text's 「宾酢主人」 there is his act); the 众宾之长 (众宾1–3)
    are the invited guests (征唯所欲); 弟子7 carries the invitation (使人速) and serves (荐, 羞);
    举觯者1 raises the one cup (一人举觯) and pours for the 无算爵; 工1 plays (乡乐唯欲).  The 宾
    and the 大夫 of the main day take no part (宾不与): no event of theirs in Φ52.  The 爵 and the 觯
    are instances that are in a basket (or still unused) at the end of the main day.  Between the
    一人举觯 and the 无算爵 the request to sit, the 说屦 and the 升坐 are staged as 郑注 reads 「遂」
    (「言遂者明其閒闕也賓坐奠觶于其所擯者遂受命于主人請坐于賓賓降説屨升坐矣」); 弟子7 is the 擯者
    (无司正: 「使擯者而已不立之」).  The 司正 washes the 爵 for his 酢 (不拜洗 drops only the bows).
"""

from __future__ import annotations

import re

from xiangshe.domain.vocabulary import vocabulary
from xiangshe.domain.staging import Staging

_EVENT = re.compile(r"^(\S+) (\S+)(?: ([^\s=]+))?((?: \S+=\S+)*)\s*(?:#.*)?$")
MAX = {"觯": 7, "爵": 4}           # instances the vocabulary allows


# -- reading back what the earlier phases wrote ---------------------------------------------------
def _events(s: Staging):
    """(phase, actor, act, obj, attrs) for every event written so far."""
    phase = ""
    for line in s.lines:
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        if text.startswith("phase "):
            phase = text.split()[1]
            continue
        m = _EVENT.match(text)
        if m:
            attrs = dict(kv.split("=", 1) for kv in m.group(4).split())
            yield phase, m.group(1), m.group(2), m.group(3), attrs


def _inst(obj: str | None, kind: str) -> str | None:
    if not obj or not obj.startswith(kind):
        return None
    return obj if obj != kind else f"{kind}1"


def _opening_cup(s: Staging) -> str:
    """The 觯 the 宾 set back at his 荐西 in Φ09 (一人举觯): it opens the 旅酬."""
    cup = None
    for phase, actor, act, obj, _ in _events(s):
        if phase == "Φ09" and actor == "宾" and act in ("奠", "反奠") and _inst(obj, "觯"):
            cup = _inst(obj, "觯")
    return cup or "觯2"


def _zu_of(s: Staging, person: str) -> str | None:
    """The 俎 set before `person` (and not removed since), if the staging has one."""
    zu = None
    for _, _, act, obj, attrs in _events(s):
        inst = _inst(obj, "俎")
        if inst and act == "设" and attrs.get("to") == person:
            zu = inst
        elif inst and act == "彻" and inst == zu:
            zu = None
    return zu


def _last_acts(s: Staging, kind: str) -> dict[str, str]:
    last: dict[str, str] = {}
    for _, _, act, obj, _ in _events(s):
        inst = _inst(obj, kind)
        if inst:
            last[inst] = act
    return last


def _free(s: Staging, kind: str, n: int) -> list[str]:
    """`n` instances of `kind` not used so far."""
    used = _last_acts(s, kind)
    free = [f"{kind}{i}" for i in range(1, MAX[kind] + 1) if f"{kind}{i}" not in used]
    if len(free) < n:
        raise ValueError(f"not enough free {kind} instances for the later phases: {free}")
    return free[:n]


def _in_basket(s: Staging, kind: str) -> str:
    """An instance of `kind` that is in a basket (or unused) at this point, unused ones first."""
    last = _last_acts(s, kind)
    for i in range(1, MAX[kind] + 1):
        if f"{kind}{i}" not in last:
            return f"{kind}{i}"
    for i in range(1, MAX[kind] + 1):
        if last[f"{kind}{i}"] == "奠于篚":
            return f"{kind}{i}"
    raise ValueError(f"no {kind} in a basket for the 息司正")


# -- persons -------------------------------------------------------------------------------------
def _zunzhe(s: Staging) -> list[str]:
    """The 遵者 by rank: 诸公 first (如宾礼), then the 大夫."""
    return (s.zhugong_names if s.o.zhugong else []) + (s.dafu_names if s.o.dafu else [])


def _zhongbin(s: Staging) -> list[str]:
    return [f"众宾{i}" for i in range(1, s.o.zhongbin + 1)]


BELOW = ["司射", "乐正"]            # those below the hall who come up for the 旅 (乐正与立者齿)


# -- Φ44 -----------------------------------------------------------------------------------------
def _phi44(s: Staging) -> None:
    if not s.phase("Φ44", "司马反为司正·工即位"):
        return
    s.ev("司正 反为司正", 206, "司马反为司正")
    s.ev("司正 退", 206, "退")
    s.ev("司正 立 at=觯南 face=北面", 206, "复觯南而立")
    s.ev("乐正 命 to=弟子7", 206, "乐正命弟子赞工即位")
    s.ev("弟子7 赞工", 206, "赞工即位")
    s.ev("弟子7 相工", 206, "弟子相工，如其降也")
    for i in range(1, 5):
        s.ev(f"工{i} 升 at=西阶", 207, "升自西阶" if i == 1 else "")
    for i in range(1, 5):
        s.ev(f"工{i} 坐", 207, "反坐" if i == 1 else "")


# -- Φ45 旅酬 --------------------------------------------------------------------------------------
def _chou_link(s: Staging, giver: str, taker: str, cup: str, line: int, first: bool = False) -> None:
    """One link of the 旅酬, 「如宾酬主人之礼」 (L207–210): the taker is already standing."""
    L = 208 if first else line
    s.ev(f"{giver} 坐", L, "宾坐奠觯" if first else "")
    s.ev(f"{giver} 奠 {cup}", L, "奠觯" if first else "")
    s.ev(f"{giver} 拜 to={taker}", L, "拜" if first else "")
    s.ev(f"{giver} 执 {cup}", L, "执觯兴" if first else "")
    s.ev(f"{giver} 兴", L)
    s.ev(f"{taker} 答拜 to={giver}", L, "主人答拜" if first else "")
    s.ev(f"{giver} 卒觯 {cup}", L, "宾不祭，卒觯，不拜" if first else "(不祭，卒觯，不拜)")
    s.ev(f"{giver} 实 {cup}", 209 if first else L, "不洗，实之" if first else "(不洗，实之)")
    s.ev(f"{giver} 进 face=东南面" if first else f"{giver} 进", 209 if first else L,
         "进东南面" if first else "")
    s.ev(f"{taker} 拜 to={giver}", 209 if first else L, "主人阼阶上北面拜" if first else "")
    if first:
        s.ev(f"{giver} 少退", 209, "宾少退")
        s.ev(f"{taker} 进", 209, "主人进受觯")
    s.ev(f"{taker} 受 {cup}", 209 if first else L, "受觯" if first else "")
    s.ev(f"{giver} 拜送 to={taker}", 209 if first else L,
         "宾主人之西北面拜送" if first else "(拜送)")


def _phi45(s: Staging) -> None:
    if not s.phase("Φ45", "旅酬"):
        return
    cup = _opening_cup(s)
    zun, zhong = _zunzhe(s), _zhongbin(s)
    s.comment(f"the cup of the 一人举觯 ({cup}, 奠于荐西 in Φ09) opens the travelling toast")
    s.ev("宾 降席", 207, "(he leaves his mat for the cup before it)")
    s.ev("宾 坐 face=北面", 207, "宾北面坐")
    s.ev(f"宾 取 {cup} at=俎西", 207, "取俎西之觯")
    s.ev("宾 兴", 207, "兴")
    s.ev("宾 适 at=阼阶上 face=北面", 207, "阼阶上北面")
    s.ev(f"宾 酬 {cup} to=主人", 207, "酬主人")
    s.ev("主人 降席", 207, "主人降席")
    s.ev("主人 立 at=阼阶上", 208, "立于宾东")
    _chou_link(s, "宾", "主人", cup, 208, first=True)
    s.ev("宾 揖 to=主人", 210, "宾揖")
    s.ev("宾 就席", 210, "就席")
    # 主人 → the first 遵者 (or the 长)
    first = zun[0] if zun else zhong[0]
    s.ev("主人 适 at=西阶上", 210, "主人以觯适西阶上")
    s.ev(f"主人 酬 {cup} to={first}", 210 if zun else 211,
         "酬大夫" if zun else "若无大夫，则长受酬，亦如之")
    s.ev(f"{first} 降席", 210, "大夫降席" if zun else "")
    s.ev(f"{first} 立 at=西阶上", 210, "立于主人之西" if zun else "")
    _chou_link(s, "主人", first, cup, 210 if zun else 211)
    s.ev(f"主人 揖 to={first}", 211, "主人揖")
    s.ev("主人 就席", 211, "就席")
    # the 司正 assists from here on
    s.ev("司正 升 at=西阶", 211, "司正升自西阶")
    s.ev("司正 相旅", 211, "相旅")
    chain = [first] + [p for p in zun[1:] + zhong if p != first]
    for k, (giver, taker) in enumerate(zip(chain, chain[1:])):
        s.ev(f"司正 作 to={taker} words=某酬某子", 212, "作受酬者曰：“某酬某子。”" if k == 0 else "")
        s.ev(f"{taker} 降席", 212, "受酬者降席" if k == 0 else "")
        if k == 0:
            s.ev("司正 退 at=西序端 face=东面", 212, "司正退立于西序端，东面")
        s.ev(f"{taker} 立 at=西阶上", 212)
        s.ev(f"{giver} 酬 {cup} to={taker}", 213, "众受酬者拜、兴、饮，皆如宾酬主人之礼" if k == 0 else "")
        _chou_link(s, giver, taker, cup, 213)
        s.ev(f"{giver} 就席", 213, "(pledger back to his mat)")
    # those below
    last = chain[-1]
    s.comment("辩，遂酬 在下者 (L213): those below come up and receive at 西阶上")
    giver = last
    for k, taker in enumerate(BELOW):
        s.ev(f"司正 作 to={taker} words=某酬某子", 212)
        s.ev(f"{taker} 升 at=西阶", 213, "皆升" if k == 0 else "")
        s.ev(f"{taker} 立 at=西阶上", 213, "受酬于西阶上" if k == 0 else "")
        s.ev(f"{giver} 酬 {cup} to={taker}", 213, "辩，遂酬 在下者" if k == 0 else "")
        _chou_link(s, giver, taker, cup, 213)
        s.ev(f"{giver} 就席" if giver == last else f"{giver} 降 at=西阶", 213)
        giver = taker
    s.ev(f"{giver} 卒觯 {cup}", 213, "(the last receiver drinks: 众受酬者 … 饮)")
    s.ev(f"{giver} 降 at=西阶", 214, "卒受者以觯降")
    s.ev(f"{giver} 奠于篚 {cup}", 214, "奠于篚")


# -- Φ46 二人举觯 ----------------------------------------------------------------------------------
def _phi46(s: Staging) -> None:
    if not s.phase("Φ46", "二人举觯"):
        return
    zun = _zunzhe(s)
    targets = ["宾"] + zun[:1]
    cups = _free(s, "觯", len(targets))
    men = [f"举觯者{i + 1}" for i in range(len(targets))]
    trio = list(zip(men, cups, targets))
    s.comment(f"cups {', '.join(cups)} for {'、'.join(targets)}" +
              ("" if zun else " — 若无大夫，则唯宾: one 举觯者"))
    if len(zun) > 1:
        s.comment(f"several 遵者: the second cup goes to the senior, {zun[0]}")
    s.ev("司正 降 at=西阶", 215, "司正降复位")
    s.ev("司正 复位", 215)
    for k, (m, _, _) in enumerate(trio):
        s.ev(f"司正 命 to={m}", 215, "" if k else "使二人举觯于宾与大夫" if zun else "(若无大夫，则唯宾)")

    def each(fmt: str, line: int, words: str = "") -> None:
        for k, (m, c, t) in enumerate(trio):
            s.ev(fmt.format(m=m, c=c, t=t), line, words if k == 0 else "")

    each("{m} 取 {c} at=下篚", 215, "举觯者皆洗觯")
    each("{m} 洗 {c}", 215, "洗觯")
    each("{m} 升 at=西阶", 215, "升")
    each("{m} 实 {c}", 215, "实之")
    each("{m} 立 at=西阶上 face=北面", 215, "西阶上北面")
    each("{m} 坐", 216, "皆坐奠觯")
    each("{m} 奠 {c}", 216, "奠觯")
    each("{m} 拜 to={t}", 216, "拜")
    each("{m} 执 {c}", 216, "执觯兴")
    each("{m} 兴", 216)
    each("{t} 答拜 to={m} at=席末", 216, "宾与大夫皆席末答拜")
    each("{m} 坐", 216, "兴觯者皆坐祭")
    each("{m} 祭 {c}", 216, "祭")
    each("{m} 饮 {c}", 216, "遂饮")
    each("{m} 卒觯 {c}", 216, "卒觯")
    each("{m} 兴", 216, "兴")
    each("{m} 坐", 217, "坐奠觯")
    each("{m} 奠 {c}", 217)
    each("{m} 拜 to={t}", 217, "拜")
    each("{m} 执 {c}", 217, "执觯兴")
    each("{m} 兴", 217)
    each("{t} 答拜 to={m}", 217, "宾与大夫皆答拜")
    for m, c, t in reversed(trio):          # 逆降: the last up goes down first
        s.ev(f"{m} 降 at=西阶", 217, "举觯者逆降")
    each("{m} 洗 {c}", 217, "洗")
    each("{m} 升 at=西阶", 217, "升实觯")
    each("{m} 实 {c}", 217)
    each("{m} 立 at=西阶上 face=北面", 217, "皆立于西阶上，北面，东上")
    each("{t} 拜 to={m}", 218, "宾与大夫拜")
    each("{m} 进", 218, "举觯者皆进")
    each("{m} 坐", 218)
    each("{m} 奠 {c} at=荐右", 218, "坐奠于荐右")
    each("{t} 辞 to={m}", 218, "宾与大夫辞")
    each("{t} 坐", 218)
    each("{t} 取 {c} at=荐右", 218, "坐受觯")
    each("{t} 兴", 219, "以兴")
    each("{m} 退", 219, "举觯者退反位")
    each("{m} 拜送 to={t}", 219, "皆拜送")
    each("{m} 降 at=西阶", 219, "乃降")
    each("{t} 坐", 219, "宾与大夫坐")
    each("{t} 反奠 {c} at=荐右", 219, "反奠于其所")
    each("{t} 兴", 219, "兴")


# -- Φ47 请坐·彻俎 ---------------------------------------------------------------------------------
def _phi47(s: Staging) -> None:
    if not s.phase("Φ47", "请坐·彻俎"):
        return
    zun, zhong = _zunzhe(s), _zhongbin(s)
    s.ev("司正 升 at=西阶", 221, "司正升自西阶")
    s.ev("司正 受命 at=阼阶上", 221, "阼阶上受命于主人")
    s.ev("司正 适 at=西阶上", 221, "适西阶上")
    s.ev("司正 请 to=宾 face=北面", 221, "北面请坐于宾")
    s.ev("宾 辞以俎 to=司正", 221, "宾辞以俎")
    s.ev("司正 反命 to=主人", 222, "反命于主人")
    s.ev("主人 命 to=司正 words=请彻俎", 222, "主人曰：“请彻俎。”")
    s.ev("宾 许", 222, "宾许")
    s.ev("司正 降 at=西阶", 222, "司正降自西阶")
    s.ev("司正 命 to=弟子7 at=阶前", 222, "阶前命弟子俟彻俎")
    s.ev("司正 升 at=西阶", 223, "司正升")
    s.ev("司正 立 at=序端", 223, "立于序端")
    s.ev("宾 降席 face=北面", 223, "宾降席，北面")
    s.ev("主人 降席", 223, "主人降席自南方")
    s.ev("主人 立 at=阼阶上 face=北面", 223, "阼阶上北面")
    for k, z in enumerate(zun):
        s.ev(f"{z} 降席", 223, "大夫降席" if k == 0 else "")
        s.ev(f"{z} 立 face=南面", 223, "席东南面 (east of his mat, facing south)" if k == 0 else "")
    zu = _zu_of(s, "宾")
    if zu:
        s.ev(f"宾 取 {zu}", 224, "宾取俎")
        s.ev(f"宾 授 {zu} to=司正", 224, "还授司正")
        s.ev(f"司正 受 {zu}", 224)
    s.ev("司正 降 at=西阶", 224, "司正以降自西阶")
    s.ev("宾 降 at=西阶", 224, "宾从之降")
    s.ev("宾 立 at=阶西 face=东面", 224, "遂立于阶西，东面")
    s.ev("司正 出", 225, "司正以俎出")
    if zu:
        s.ev(f"司正 授 {zu} to=从者1", 225, "授从者")
        s.ev(f"从者1 彻 {zu}", 225, "(the 宾's attendant takes it away)")
    s.ev("司正 入", 225, "(he comes back in)")
    zu = _zu_of(s, "主人")
    if zu:
        s.ev(f"主人 取 {zu}", 225, "主人取俎")
        s.ev(f"主人 授 {zu} to=弟子7", 225, "还授弟子")
        s.ev(f"弟子7 受 {zu}", 225, "弟子受俎")
        s.ev("弟子7 降 at=西阶", 225, "降自西阶以东")
        s.ev(f"弟子7 彻 {zu}", 225, "(以东: taken to the east)")
    s.ev("主人 降 at=阼阶", 225, "主人降自阼阶")
    s.ev("主人 立 face=西面", 226, "西面立")
    for k, z in enumerate(zun):
        zu = _zu_of(s, z)
        helper = f"弟子{k + 1}"
        if zu:
            s.ev(f"{z} 取 {zu}", 226, "大夫取俎" if k == 0 else "")
            s.ev(f"{z} 授 {zu} to={helper}", 226, "还授弟子" if k == 0 else "")
            s.ev(f"{helper} 受 {zu}", 226)
            s.ev(f"{helper} 降 at=西阶", 226, "弟子以降自西阶" if k == 0 else "")
            s.ev(f"{helper} 出", 226, "遂出授从者" if k == 0 else "")
            s.ev(f"{helper} 授 {zu} to=从者{k + 2}", 226)
            s.ev(f"从者{k + 2} 彻 {zu}", 226)
        s.ev(f"{z} 降", 226, "大夫从之降" if k == 0 else "")
        s.ev(f"{z} 立 at=阶西", 227, "立于宾南" if k == 0 else "")
    for k, z in enumerate(zhong):
        s.ev(f"{z} 降 at=西阶", 227, "众宾皆降" if k == 0 else "")
    for k, z in enumerate(zhong):
        s.ev(f"{z} 立 at=阶西", 227, "立于大夫之南，少退，北上" if k == 0 else "")


# -- Φ48 说屦·羞·无算爵 -----------------------------------------------------------------------------
def _phi48(s: Staging) -> None:
    if not s.phase("Φ48", "说屦·羞·无算爵"):
        return
    zun, zhong = _zunzhe(s), _zhongbin(s)
    targets = ["宾"] + zun[:1]
    cups = _last_cups(s, targets)
    s.ev("主人 揖 to=宾", 228, "主人以宾揖让")
    s.ev("主人 让 to=宾", 228)
    s.ev("主人 说屦", 228, "说屦")
    s.ev("宾 说屦", 228)
    s.ev("主人 升 at=阼阶", 228, "乃升")
    s.ev("宾 升 at=西阶", 228)
    for k, z in enumerate(zun + zhong):
        s.ev(f"{z} 说屦", 228, "大夫及众宾皆说屦" if k == 0 else "")
        s.ev(f"{z} 升 at=西阶", 228, "升" if k == 0 else "")
    for k, z in enumerate(["宾", "主人"] + zun + zhong):
        s.ev(f"{z} 就席", 228, "坐" if k == 0 else "")
    s.ev("弟子7 羞", 228, "乃羞")
    s.comment("无算爵 (L228–232): two cycles are staged; the cups cross (错) and go down to those below")
    s.ev("主人 命 to=执觯者1", 228, "无算爵。使二人举觯" if zun else
         "无算爵 (若无大夫，则唯宾: one cup)")
    if zun:
        s.ev("主人 命 to=执觯者2", 229)
    for cycle in range(2):
        _wu_suan_cycle(s, cups, targets, zun, zhong, first=cycle == 0)


def _last_cups(s: Staging, targets: list[str]) -> list[str]:
    """The cups set back (反奠) before the 宾 and the 遵者 in Φ46."""
    found: dict[str, str] = {}
    for phase, actor, act, obj, _ in _events(s):
        if phase == "Φ46" and act == "反奠" and actor in targets and _inst(obj, "觯"):
            found[actor] = _inst(obj, "觯")
    return [found.get(t, f"觯{5 + k}") for k, t in enumerate(targets)]


def _wu_suan_cycle(s: Staging, cups: list[str], targets: list[str], zun: list[str],
                   zhong: list[str], first: bool) -> None:
    w = (lambda words: words) if first else (lambda words: "")
    bearers = [f"执觯者{k + 1}" for k in range(len(cups))]
    # the seated receivers, and those below, split between the cups (错)
    if len(cups) == 2:
        seated = ["主人", zhong[0]] + zun[1:] + zhong[1:]
        below = BELOW + bearers
    else:
        seated = ["主人"] + zhong
        below = BELOW + bearers[:1]
    chains = [[targets[k]] + seated[k::len(cups)] for k in range(len(cups))]
    belows = [below[k::len(cups)] for k in range(len(cups))]
    for k, t in enumerate(targets):
        s.ev(f"{t} 取 {cups[k]}", 229, w("宾与大夫不兴，取奠觯饮"))
        s.ev(f"{t} 饮 {cups[k]}", 229)
        s.ev(f"{t} 卒觯 {cups[k]}", 229, w("卒觯，不拜"))
    for k, b in enumerate(bearers):
        s.ev(f"{b} 受 {cups[k]}", 229, w("执觯者受觯"))
        s.ev(f"{b} 实 {cups[k]}", 229, w("遂实之"))
    for k, b in enumerate(bearers):
        to = chains[k][1]
        s.ev(f"{b} 授 {cups[k]} to={to}", 230, w("宾觯以之主人" if k == 0 else "大夫之觯长受"))
        s.ev(f"{to} 受 {cups[k]}", 230, w("而错，皆不拜") if k == len(bearers) - 1 else "")
    # down the seated guests, the two cups alternating
    holders = [c[1] for c in chains]
    steps = max(len(c) for c in chains) - 2
    for i in range(steps):
        for k in range(len(cups)):
            if i + 2 < len(chains[k]):
                giver, taker = chains[k][i + 1], chains[k][i + 2]
                _pass_on(s, giver, taker, cups[k], "错", 230)
                holders[k] = taker
    # the last seated holders rise and pass the cups to those below, at 西阶上
    for k in range(len(cups)):
        giver = holders[k]
        s.ev(f"{giver} 兴", 230, w("辩，卒受者兴") if k == 0 else "")
        s.ev(f"{giver} 适 at=西阶上", 230, w("以旅在下者于西阶上") if k == 0 else "")
        for j, taker in enumerate(belows[k]):
            if taker in bearers:
                s.ev(f"{taker} 升 at=西阶", 232, w("执觯者皆与旅") if taker == bearers[0] else "")
            else:
                s.ev(f"{taker} 升 at=西阶", 231)
            _pass_on(s, giver, taker, cups[k], "旅", 231,
                     w("长受酬，酬者不拜，乃饮，卒觯，以实之") if k == 0 and j == 0 else "")
            if giver == holders[k]:
                s.ev(f"{giver} 就席", 231)
            else:
                s.ev(f"{giver} 降 at=西阶", 231)
            giver = taker
        s.ev(f"{giver} 卒觯 {cups[k]}", 231, w("辩旅，皆不拜") if k == 0 else "")
        s.ev(f"{giver} 降 at=西阶", 232, w("卒受者以虚觯降奠于篚") if k == 0 else "")
        s.ev(f"{giver} 奠于篚 {cups[k]}", 232)
    for k, b in enumerate(bearers):
        s.ev(f"{b} 取 {cups[k]} at=下篚", 232)
        s.ev(f"{b} 洗 {cups[k]}", 232, w("执觯者洗") if k == 0 else "")
    for k, b in enumerate(bearers):
        s.ev(f"{b} 升 at=西阶", 232, w("升实觯") if k == 0 else "")
        s.ev(f"{b} 实 {cups[k]}", 232)
        s.ev(f"{b} 反奠 {cups[k]} at=荐右", 232, w("反奠于宾与大夫") if k == 0 else "")
        s.ev(f"{b} 降 at=西阶", 232)


def _pass_on(s: Staging, giver: str, taker: str, cup: str, act: str, line: int, words: str = "") -> None:
    """The holder drinks, refills unwashed and hands the cup on; nobody bows (L230–231)."""
    s.ev(f"{giver} 饮 {cup}", line, words)
    s.ev(f"{giver} 卒觯 {cup}", line)
    s.ev(f"{giver} 实 {cup}", line)
    s.ev(f"{giver} {act} {cup} to={taker}", line, "受酬者不拜受" if act == "旅" and words else "")
    s.ev(f"{taker} 受 {cup}", line)


# -- Φ49–Φ51 -------------------------------------------------------------------------------------
def _phi49(s: Staging) -> None:
    if not s.phase("Φ49", "无算乐"):
        return
    s.ev("工1 无算乐", 233, "无算乐")
    s.ev("笙1 无算乐", 233)


def _phi50(s: Staging) -> None:
    if not s.phase("Φ50", "宾出"):
        return
    zun, zhong = _zunzhe(s), _zhongbin(s)
    s.ev("宾 兴", 234, "宾兴")
    s.ev("乐正 命 to=工1", 234, "乐正命奏《陔》")
    s.ev("宾 降 at=西阶", 234, "宾降及阶")
    s.ev("工1 奏", 234, "《陔》作")
    s.ev("宾 出", 234, "宾出")
    for k, z in enumerate(zhong):
        s.ev(f"{z} 降 at=西阶", 234, "众宾皆出" if k == 0 else "")
        s.ev(f"{z} 出", 234)
    s.ev("主人 降 at=阼阶", 234)
    s.ev("主人 送 to=宾 at=门外", 234, "主人送于门外")
    s.ev("主人 拜 to=宾 n=2", 235, "再拜")
    for k, z in enumerate(zun):
        s.ev(f"{z} 降 at=西阶", 266, "(记) 大夫后出" if k == 0 else "")
        s.ev(f"{z} 出", 266)
        s.ev(f"主人 送 to={z} at=门外", 266, "(记) 主人送于门外" if k == 0 else "")
        s.ev(f"主人 拜 to={z} n=2", 266, "再拜" if k == 0 else "")


def _phi51(s: Staging) -> None:
    if not s.phase("Φ51", "拜赐·拜辱"):
        return
    s.comment("明日 (the next day): the 宾 in court dress (朝服) at the host's gate")
    s.ev("宾 拜赐 to=主人 at=门外", 236, "宾朝服以拜赐于门外")
    s.comment("L236 主人不见: the host does not receive him")
    s.ev("主人 从 to=宾", 236, "如宾服，遂从之")
    s.ev("主人 拜辱 to=宾 at=门外", 236, "拜辱于门外")
    s.ev("主人 退", 237, "乃退")


# -- Φ52 息司正 ------------------------------------------------------------------------------------
def _phi52(s: Staging) -> None:
    if not s.phase("Φ52", "息司正"):
        return
    guests = _zhongbin(s)[:3]
    jue = _in_basket(s, "爵")
    zhi = _in_basket(s, "觯")
    jian = _free_jian(s)
    s.comment("a separate occasion: the 司正 is the guest of honour, the 众宾之长 the invited guests;")
    s.comment(f"宾不与 (L240): the 宾 (and the 大夫) take no part.  Cups: {jue}, {zhi}")
    _xi_arrival(s, guests)
    _xi_xian(s, guests, jue, jian)
    _xi_ju_zhi(s, zhi)
    _xi_qing_zuo(s, guests)
    _xi_wu_suan(s, guests, zhi)
    s.comment("L240 无司正: nobody is made 司正 at this party")
    s.ev("弟子7 羞", 241, "羞唯所有")
    s.ev("工1 奏", 241, "乡乐唯欲")


def _xi_arrival(s: Staging, guests: list[str]) -> None:
    """息司正: the invitation and the reception, reduced (L238)."""
    s.ev("主人 释服", 238, "主人释服")
    s.ev("主人 息 to=司正", 238, "乃息司正")
    s.comment("L238 无介: nobody is made 介.  L238 不杀: no victim, hence no 俎 (L239 无俎)")
    for k, g in enumerate(guests):
        s.ev(f"主人 征 to={g}", 240, "征唯所欲" if k == 0 else "")
    s.ev("弟子7 速 to=司正", 238, "使人速")
    for g in guests:
        s.ev(f"弟子7 速 to={g}", 238)
    s.ev("主人 迎 to=司正 at=门外", 238, "迎于门外，不拜")
    s.ev("主人 揖 to=司正", 238, "入")
    s.ev("主人 入", 238)
    s.ev("司正 入", 238)
    for g in guests:
        s.ev(f"{g} 入", 238)
    s.ev("主人 升 at=阼阶", 238, "升")
    s.ev("司正 升 at=西阶", 238)
    for g in guests:
        s.ev(f"{g} 升 at=西阶", 238)
    s.comment("L238–239 不拜至 (no bow on arrival)")


def _xi_xian(s: Staging, guests: list[str], jue: str, jian: str) -> None:
    """息司正: 献 to the 司正, his 酢, 献 to the guests (L239): 不拜洗, 无俎, 不崇酒, 不拜众宾."""
    s.ev(f"主人 取 {jue} at=上篚", 239)
    s.ev("主人 降 at=阼阶", 239)
    s.ev(f"主人 洗 {jue}", 239, "不拜洗")
    s.ev("主人 升 at=阼阶", 239)
    s.ev(f"主人 实 {jue}", 239)
    s.ev(f"主人 献 {jue} to=司正", 239, "(主人献宾: the 司正 is the 宾 of this party)")
    s.ev("司正 拜受 to=主人", 239)
    s.ev(f"司正 受 {jue}", 239)
    s.ev("主人 拜送 to=司正", 239)
    s.ev(f"弟子7 荐 {jian} to=司正", 239, "荐脯醢，无俎")
    s.ev(f"司正 祭 {jian}", 239)
    s.ev(f"司正 祭 {jue}", 239)
    s.ev(f"司正 卒爵 {jue}", 239)
    s.ev("司正 拜 to=主人", 239)
    s.ev("主人 答拜 to=司正", 239)
    # 宾酢主人, 主人不崇酒.  The 司正 washes the 爵 for the 酢 as the 宾 does on the main day (L24
    # 「宾以虚爵降 … 盥洗」): 「不拜洗」 drops the bows for the washing, not the washing.
    s.ev("司正 降 at=西阶", 239, "(不拜洗: the 司正 washes for the 酢, without 拜洗)")
    s.ev(f"司正 洗 {jue}", 239)
    s.ev("司正 升 at=西阶", 239)
    s.ev(f"司正 实 {jue}", 239)
    s.ev(f"司正 酢 {jue} to=主人", 239, "宾酢主人")
    s.ev("主人 拜受 to=司正", 239)
    s.ev(f"主人 受 {jue}", 239)
    s.ev("司正 拜送 to=主人", 239)
    s.ev(f"主人 祭 {jue}", 239)
    s.ev(f"主人 卒爵 {jue}", 239, "主人不崇酒")
    s.ev("主人 拜 to=司正", 239)
    s.ev("司正 答拜 to=主人", 239)
    # 献众宾, 不拜众宾
    s.comment("L239 不拜众宾: the host does not bow to the guests before the 献")
    for k, g in enumerate(guests):
        s.ev(f"主人 实 {jue}", 239)
        s.ev(f"主人 献 {jue} to={g}", 239, "既献众宾" if k == 0 else "")
        s.ev(f"{g} 受 {jue}", 239)
        s.ev(f"弟子7 荐 to={g}", 239)
        s.ev(f"{g} 祭 {jue}", 239)
        s.ev(f"{g} 卒爵 {jue}", 239)
        s.ev(f"{g} 授 {jue} to=主人", 239)
    s.ev(f"主人 奠于篚 {jue}", 239)


def _xi_ju_zhi(s: Staging, zhi: str) -> None:
    """息司正: 一人举觯 (L240), as in Φ09 (L42–45), to the 司正."""
    s.comment("一人举觯 (L240), done as in Φ09 (L42–45), to the 司正")
    s.ev(f"举觯者1 取 {zhi} at=下篚", 240, "一人举觯")
    s.ev(f"举觯者1 洗 {zhi}", 240)
    s.ev("举觯者1 升 at=西阶", 240)
    s.ev(f"举觯者1 实 {zhi}", 240)
    s.ev(f"举觯者1 举觯 {zhi} to=司正", 240)
    s.ev("举觯者1 坐", 240)
    s.ev(f"举觯者1 奠 {zhi}", 240)
    s.ev("举觯者1 拜 to=司正", 240)
    s.ev(f"举觯者1 执 {zhi}", 240)
    s.ev("举觯者1 兴", 240)
    s.ev("司正 答拜 to=举觯者1", 240)
    s.ev("举觯者1 坐", 240)
    s.ev(f"举觯者1 祭 {zhi}", 240)
    s.ev(f"举觯者1 卒觯 {zhi}", 240)
    s.ev("举觯者1 兴", 240)
    s.ev("举觯者1 坐", 240)
    s.ev(f"举觯者1 奠 {zhi}", 240)
    s.ev("举觯者1 拜 to=司正", 240)
    s.ev(f"举觯者1 执 {zhi}", 240)
    s.ev("举觯者1 兴", 240)
    s.ev("司正 答拜 to=举觯者1", 240)
    s.ev("举觯者1 降 at=西阶", 240)
    s.ev(f"举觯者1 洗 {zhi}", 240)
    s.ev("举觯者1 升 at=西阶", 240)
    s.ev(f"举觯者1 实 {zhi}", 240)
    s.ev("司正 拜 to=举觯者1", 240)
    s.ev("举觯者1 进", 240)
    s.ev(f"举觯者1 奠 {zhi} at=荐西", 240)
    s.ev(f"司正 取 {zhi} at=荐西", 240)
    s.ev("举觯者1 拜送 to=司正", 240)
    s.ev(f"司正 反奠 {zhi} at=荐西", 240)
    s.ev("举觯者1 降 at=西阶", 240)


def _xi_qing_zuo(s: Staging, guests: list[str]) -> None:
    """息司正: the request to sit, as on the main day (郑注 on 「遂无算爵」: 「賓坐奠觶于其所擯者遂受命于
    主人請坐于賓賓降説屨升坐矣」).  无司正: the usher (擯者, here 弟子7) carries the request."""
    s.comment("郑注 (L240 遂无算爵): 擯者遂受命于主人，請坐于賓，賓降，説屨，升坐 — no 司正 (使擯者而已)")
    s.ev("弟子7 受命 at=阼阶上", 240, "(郑注: 擯者遂受命于主人)")
    s.ev("弟子7 请 to=司正", 240, "(請坐于賓)")
    s.ev("司正 许", 240)
    s.ev("司正 降 at=西阶", 240, "(賓降)")
    s.ev("主人 降 at=阼阶", 240)
    for g in guests:
        s.ev(f"{g} 降 at=西阶", 240)
    s.ev("主人 说屦", 240, "(説屨)")
    s.ev("司正 说屦", 240)
    for g in guests:
        s.ev(f"{g} 说屦", 240)
    s.ev("主人 升 at=阼阶", 240, "(升坐)")
    s.ev("司正 升 at=西阶", 240)
    for g in guests:
        s.ev(f"{g} 升 at=西阶", 240)
    for p in ["司正", "主人"] + guests:
        s.ev(f"{p} 就席", 240)


def _xi_wu_suan(s: Staging, guests: list[str], zhi: str) -> None:
    """息司正: 遂无算爵 (L240) — one cup goes round, no bows."""
    s.comment("遂无算爵 (L240): one cup goes round without bows, as in Φ48")
    s.ev(f"司正 取 {zhi}", 240, "遂无算爵")
    s.ev(f"司正 饮 {zhi}", 240)
    s.ev(f"司正 卒觯 {zhi}", 240)
    s.ev(f"举觯者1 受 {zhi}", 240)
    s.ev(f"举觯者1 实 {zhi}", 240)
    s.ev(f"举觯者1 授 {zhi} to=主人", 240)
    s.ev(f"主人 受 {zhi}", 240)
    holder = "主人"
    for g in guests:
        s.ev(f"{holder} 卒觯 {zhi}", 240)
        s.ev(f"{holder} 实 {zhi}", 240)
        s.ev(f"{holder} 错 {zhi} to={g}", 240)
        s.ev(f"{g} 受 {zhi}", 240)
        holder = g
    s.ev(f"{holder} 卒觯 {zhi}", 240)
    s.ev(f"{holder} 授 {zhi} to=举觯者1", 240)
    s.ev(f"举觯者1 受 {zhi}", 240)
    s.ev(f"举觯者1 奠于篚 {zhi}", 240)


def _free_jian(s: Staging) -> str:
    used = {_inst(obj, "荐") for _, _, _, obj, _ in _events(s)} - {None}
    for i in range(1, vocabulary().objects["荐"].instances + 1):
        if f"荐{i}" not in used:
            return f"荐{i}"
    raise ValueError("no free 荐 instance for the 息司正")


def phases(s: Staging) -> None:
    for phase in (_phi44, _phi45, _phi46, _phi47, _phi48, _phi49, _phi50, _phi51, _phi52):
        phase(s)
