"""Φ34–Φ43: the 献 to the 获者 and the 释获者, the third round (shot to 《驺虞》), 射毕.

Text lines 170–205 (P34–P43).  The third round repeats the second 「如初」: the events follow the
conventions of the second round (Φ23–Φ33, `archery.py`), expanded through each 如初, with the
third round's own differences:

- everyone takes his arrows from the 楅 (拾取矢); the 大夫 unties his bundle (说矢束) and his
  partner, then he, take their four arrows at once (兼取乘矢, R152);
- the 司射 asks leave to shoot to music (请以乐乐于宾), commands 「不鼓不释」, and the 乐正 has the
  大师 play 《驺虞》; every shot carries `beat=是|否`, and only a hit on the 正 (中正) on the beat
  is tallied (R154);
- the last 拾取矢 puts the arrows away (矢不挟，兼诸弦弣以退 … 授有司) and the gear is cleared (射毕).

Options honoured: the pairs (bin_zhuren_shoot, dafu_shoot, dafu, zhongbin_pairs: through s.pairs),
outcome[1] (右 / 左 / 钧; 钧: nobody drinks, R133), seed and arrows (keys "3:<pair>:上射|下射": the
results come from archery.results_for(s, 3); the beats are chosen here, see `round3_shots`).  The
round-2 outcome enters only through the state the earlier phases leave behind (who is still bared
with his bow in hand after the drinking, which 爵 lies in the 篚, which 荐/俎 are taken), read by
replaying the machines over the staging written so far.

The recurring sequences of round 2 are reused from domain/staging/archery.py (shoot_pair,
ascend_pair, descend_pair, reload_tallies, report_done, collect_arrows, drink_losers, results_for,
losers_for); under `ruchu(s, line)` the events they write cite the round-3 line they enact 「如初」
and keep the round-2 line in their comment.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager

from xiangshe.domain.staging import Pair, Staging
from xiangshe.domain.staging.archery import (SIDES, ascend_pair, bin_, bin_pair, chun, collect_arrows, dafu_pairs,
                                    announced_count, descend_pair, drink_losers, lay_out_count, losers_for,
                                    reload_tallies,
                                    report_done, results_for, shoot_pair, tallies)


TAISHI = "工1"        # the 大师 who plays 《驺虞》 (the first 工, as in Φ38: 「大师不兴，许诺」)


# -- who is who --------------------------------------------------------------------------------
def kind(s: Staging, p: Pair) -> str:
    """三耦, 宾耦, 大夫耦 or 众耦."""
    if p in s.pairs[:3]:
        return "三耦"
    if p is bin_pair(s):
        return "宾耦"
    if p in dafu_pairs(s):
        return "大夫耦"
    return "众耦"


def _states(s: Staging) -> dict[tuple[str, str], str]:
    """The machines' states at the end of what has been staged so far: (machine, person or
    object key) → state.  Machines never moved are absent (they are in their initial state)."""
    from xiangshe.domain.parse import parse_lines
    from xiangshe.fsm.replay import replay
    from xiangshe.fsm.table import tables

    try:
        trace = parse_lines(s.text("prefix"))
    except Exception:                   # an earlier part that does not parse: assume nothing
        return {}
    person_machines = {t.name for t in tables() if t.is_person}
    out: dict[tuple[str, str], str] = {}
    for e, changes in zip(trace.events, replay(trace).changes):
        for name, _before, after in changes:
            if name in person_machines:
                out[(name, e.actor)] = after
            elif e.obj is not None:
                out[(e.obj.kind, name)] = after
    return out


def _next_instance(s: Staging, kind_: str, at_least: int) -> int:
    """The lowest instance number (from `at_least` on) of an object kind not used so far (the
    drinking numbers the food of a second 大夫 or of the 诸公 from the top instance down)."""
    used = {int(n) for line in s.lines for n in re.findall(rf"(?<![^\s]){kind_}(\d+)\b", line)}
    n = at_least
    while n in used:
        n += 1
    return n


def _cup_in_basket(s: Staging, states: dict[tuple[str, str], str]) -> str:
    """A 爵 that lies in the lower 篚 at this point (the last one put there), for the 献获者."""
    last = None
    for line in s.lines:
        m = re.match(r"\S+ 奠于篚 (爵\d)(?: |$)", line)
        if m and "at=上篚" not in line:
            last = m.group(1)
    if last and states.get(("爵", last), "在篚") == "在篚":
        return last
    for i in range(1, 5):
        if states.get(("爵", f"爵{i}"), "在篚") == "在篚":
            return f"爵{i}"
    return "爵4"


# -- the arrows of round 3 ---------------------------------------------------------------------
def round3_shots(s: Staging) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """Per pair, the beats of round 3: (上射's four, 下射's four), each 是 or 否.

    The results are archery.results_for(s, 3) (s.o.arrows "3:<pair>:上射|下射", else drawn from
    the seed, fitted to s.o.outcome[1] counting every 中正).  The beats are then chosen so that the
    outcome stays the same: a shot that is not a 中正 falls on or off the beat at random; a 中正 is on
    the beat, except a few of the shooters not given in s.o.arrows, chosen so that the tallies
    still give the outcome — those show 不鼓不释 at work (a 中正 off the beat is called by the 获者
    but not tallied)."""
    results = results_for(s, 3)
    rng = random.Random(s.o.seed * 7919 + 3)
    beats: dict[str, list[list[str]]] = {}
    for p in s.pairs:
        beats[p.name] = [["是" if r == "中正" or rng.random() < 0.7 else "否" for r in rs]
                         for rs in results[p.name]]
    right, left = tallies(results)
    free = [(p.name, k, i) for p in s.pairs for k, side in enumerate(SIDES)
            if f"3:{p.name}:{side}" not in s.o.arrows
            for i, r in enumerate(results[p.name][k]) if r == "中正"]
    rng.shuffle(free)
    off = [0, 0]
    for name, k, i in free[:max(1, len(free) // 5)]:
        r, l = right - off[0] - (k == 0), left - off[1] - (k == 1)
        keeps = (r > l) if s.o.outcome[1] == "右" else (l > r) if s.o.outcome[1] == "左" else None
        if keeps is None:
            continue            # 钧: taken off in twos below
        if keeps:
            beats[name][k][i] = "否"
            off[k] += 1
    if s.o.outcome[1] == "钧":
        rs = [x for x in free if x[1] == 0]
        ls = [x for x in free if x[1] == 1]
        if rs and ls and right > 1:
            for name, k, i in (rs[0], ls[0]):
                beats[name][k][i] = "否"
    return {name: (tuple(u), tuple(l)) for name, (u, l) in beats.items()}


def scored(s: Staging, beats) -> tuple[int, int]:
    """The tallies of round 3 (右, 左): the 中正 on the beat."""
    results = results_for(s, 3)
    return tuple(sum(r == "中正" and b == "是" for p in s.pairs
                     for r, b in zip(results[p.name][k], beats[p.name][k]))
                 for k in (0, 1))  # type: ignore[return-value]


@contextmanager
def ruchu(s: Staging, line: int, says: dict[str, str] | None = None) -> Iterator[None]:
    """Events written by a reused round-2 sequence enact the round-3 line `line` (「如初」): they
    cite it, and keep the round-2 words they repeat, with their line, as a note in parentheses
    (a note, not a quotation of line `line`). `says` maps an act to the words of line `line`
    itself that the first event with that act enacts (「卒射，降」 → {"降": "卒射，降"})."""
    ev = s.ev
    own = dict(says or {})

    def cite(text: str, orig, note: str = "") -> None:
        words = own.pop(text.split()[1], "")
        note = re.sub(r"[()]", "", note).strip()
        ref = f"(如初, L{orig}: {note})" if note else f"(如初, L{orig})"
        ev(text, line, f"{words} {ref}" if words else ref)

    s.ev = cite  # type: ignore[method-assign]
    try:
        yield
    finally:
        del s.ev


# -- phases ------------------------------------------------------------------------------------
def phases(s: Staging) -> None:
    if s.o.until < "Φ34":
        return
    states = _states(s)                 # after Φ33: cups, and who is still bared with his bow
    jue = _cup_in_basket(s, states)
    if s.phase("Φ34", "献获者"):
        xian_huo_zhe(s, jue)
    if s.phase("Φ35", "献释获者"):
        xian_shi_huo_zhe(s, jue)
    if not s.phase("Φ36", "第三番·请射·就位"):
        return
    qing_she(s, states)
    if not s.phase("Φ37", "第三番·拾取矢"):
        return
    shi_qu_shi(s, states)
    if not s.phase("Φ38", "请以乐·不鼓不释"):
        return
    qing_yi_yue(s)
    beats = round3_shots(s)
    if not s.phase("Φ39", "第三番射 (以乐)"):
        return
    she(s, beats)
    if not s.phase("Φ40", "第三番·取矢·数获"):
        return
    qu_shi(s)
    shu_huo(s, beats)
    if not s.phase("Φ41", "第三番·饮不胜者"):
        return
    yin_bu_sheng_zhe(s)
    if not s.phase("Φ42", "拾取矢 (矢不挟，授有司)"):
        return
    states = _states(s)
    shi_qu_shi_final(s, states)
    if not s.phase("Φ43", "射毕"):
        return
    she_bi(s)


# -- Φ34 献获者 ---------------------------------------------------------------------------------
def _food(s: Staging) -> tuple[str, str, str]:
    """The next free 荐, 俎 and 肺 instances (荐1–6, 俎1–3 and 肺1–3 serve the drinking)."""
    return (f"荐{_next_instance(s, '荐', 7)}", f"俎{_next_instance(s, '俎', 4)}",
            f"肺{_next_instance(s, '肺', 4)}")


def _ji_series(s: Staging, who: str, jue: str, jian: str, fei: str, line: int, face: str,
               note: str = "", at: str = "") -> None:
    """左执爵，祭脯醢；执爵兴，取肺，坐祭，遂祭酒；兴 — one series of offerings; `at`: where the
    offerings go (the 获者's: the station of the 侯 he offers to, 右个 / 左个 / 侯中)."""
    where = f" at={at}" if at else ""
    s.ev(f"{who} 坐" + (f" face={face}" if face else ""), line, f"{who}{face}坐{note}")
    s.ev(f"{who} 执 {jue}", line, "左执爵")
    s.ev(f"{who} 祭 {jian}{where}", line, "祭脯醢")
    s.ev(f"{who} 兴", line, "执爵兴" if who == "获者" else "兴")
    s.ev(f"{who} 取 {fei}", line, "取肺")
    s.ev(f"{who} 坐", line, "坐祭")
    s.ev(f"{who} 祭 {fei}{where}", line, "坐祭")
    s.ev(f"{who} 祭 {jue}{where}", line, "遂祭酒")
    s.ev(f"{who} 兴", line, "兴")


def xian_huo_zhe(s: Staging, jue: str) -> None:
    jian, zu, fei = _food(s)
    s.comment(f"The 获者's food: {jian}, {zu} ({fei} on it); the cup: {jue}, from the 下篚.")
    s.ev("司马 适 at=洗", 170, "司马洗爵")
    s.ev(f"司马 取 {jue} at=下篚", 170, "司马洗爵 (the 爵 from the 下篚 by the 洗)")
    s.ev(f"司马 洗 {jue}", 170, "洗爵")
    s.ev("司马 升 at=西阶", 170, "升实之")
    s.ev(f"司马 实 {jue}", 170, "升实之")
    s.ev("司马 降 at=西阶", 170, "以降")
    s.ev("司马 适 at=侯", 170, "献获者于侯")
    s.ev(f"司马 献 {jue} to=获者 at=侯", 170, "献获者于侯")
    s.ev(f"弟子7 荐 {jian} to=获者", 170, "荐脯醢")
    s.ev(f"弟子7 设 {zu} to=获者", 170, "设折俎，俎与荐皆三祭")
    s.ev("获者 拜受 to=司马 at=负侯 face=北面", 170, "获者负侯，北面拜受爵")
    s.ev(f"获者 受 {jue}", 171, "拜受爵")
    s.ev("司马 拜送 to=获者 face=西面", 171, "司马西面拜送爵")
    s.ev(f"获者 执 {jue}", 171, "获者执爵")
    s.ev(f"弟子7 执 {jian}", 171, "使人执其荐与俎从之 (弟子7 does the serving)")
    s.ev(f"弟子7 执 {zu}", 171, "使人执其荐与俎从之")
    s.ev("获者 适 at=右个", 171, "适右个")
    s.ev(f"弟子7 设 {jian} at=右个", 172, "设荐俎")
    s.ev(f"弟子7 设 {zu} at=右个", 172, "设荐俎")
    _ji_series(s, "获者", jue, jian, fei, 172, "南面", at="右个")
    s.ev("获者 适 at=左个", 173, "适左个")
    _ji_series(s, "获者", jue, jian, fei, 173, "", " (中皆如之: 俎与荐皆三祭, L170)", at="左个")
    s.ev("获者 适 at=侯中", 173, "中皆如之 (郑注: 先祭左个後中者以外即之至中若神在中也)")
    _ji_series(s, "获者", jue, jian, fei, 173, "", " (中皆如之)", at="侯中")
    s.ev(f"弟子7 执 {jian}", 173, "左个之西北三步，东面设荐俎")
    s.ev(f"弟子7 执 {zu}", 173, "")
    s.ev(f"弟子7 设 {jian} at=左个之西北三步 face=东面", 173, "左个之西北三步，东面设荐俎")
    s.ev(f"弟子7 设 {zu} at=左个之西北三步 face=东面", 173, "")
    s.ev("获者 立 at=荐右 face=东面", 173, "获者荐右东面立饮")
    s.ev(f"获者 卒爵 {jue} face=东面", 173, "立饮，不拜既爵")
    s.ev(f"司马 受 {jue}", 174, "司马受爵")
    s.ev(f"司马 奠于篚 {jue} at=下篚", 174, "奠于篚")
    s.ev("司马 复位 at=司马位", 174, "复位")
    s.ev(f"获者 执 {jian}", 174, "获者执其荐")
    s.ev(f"弟子7 执 {zu}", 174, "使人执俎从之")
    s.ev(f"获者 设 {jian} at=乏南", 174, "辟设于乏南")
    s.ev(f"弟子7 设 {zu} at=乏南", 174, "辟设于乏南")
    s.ev("获者 负侯", 175, "获者负侯而俟")


# -- Φ35 献释获者 -------------------------------------------------------------------------------
def xian_shi_huo_zhe(s: Staging, jue: str) -> None:
    """The same 爵, put back into the 下篚 by the 司马 (奠于篚), is washed again by the 司射."""
    jian, zu, fei = _food(s)
    s.comment(f"The 释获者's food: {jian}, {zu} ({fei} on it); the cup: {jue}, from the 下篚.")
    s.ev("司射 适 at=阶西", 176, "司射适阶西")
    s.ev("司射 释弓矢 弓", 176, "释弓矢")
    s.ev("司射 去扑", 176, "去扑")
    s.ev("司射 说决拾", 176, "说决拾")
    s.ev("司射 袭", 176, "袭")
    s.ev("司射 适 at=洗", 176, "适洗")
    s.ev(f"司射 取 {jue} at=下篚", 176, "洗爵")
    s.ev(f"司射 洗 {jue}", 176, "洗爵")
    s.ev("司射 升 at=西阶", 176, "升实之")
    s.ev(f"司射 实 {jue}", 176, "升实之")
    s.ev("司射 降 at=西阶", 176, "以降")
    s.ev(f"司射 献 {jue} to=释获者 at=中西", 177, "献释获者于其位，少南")
    s.ev(f"弟子7 荐 {jian} to=释获者", 177, "荐脯醢")
    s.ev(f"弟子7 设 {zu} to=释获者", 177, "折俎，有祭")
    s.ev("释获者 拜受 to=司射 at=荐右 face=东面", 177, "释获者荐右东面拜受爵")
    s.ev(f"释获者 受 {jue}", 177, "拜受爵")
    s.ev("司射 拜送 to=释获者 face=北面", 177, "司射北面拜送爵")
    _ji_series(s, "释获者", jue, jian, fei, 178, "", " (释获者就其荐坐)")
    s.ev("释获者 适 face=北面", 178, "司射之西")
    s.ev(f"释获者 卒爵 {jue} face=北面", 179, "北面立饮，不拜既爵")
    s.ev(f"司射 受 {jue}", 179, "司射受爵")
    s.ev(f"司射 奠于篚 {jue} at=下篚", 179, "奠于篚")
    s.ev(f"释获者 辟 {jian}", 179, "释获者少西辟荐")
    s.ev("释获者 反位", 179, "反位")


# -- Φ36 第三番·请射·就位 ------------------------------------------------------------------------
def _arm(s: Staging, who: str, states: dict[tuple[str, str], str], line: int, note: str,
         at: str = "") -> None:
    """袒决遂，执弓 — unless he is still bared with his bow in hand (a winner of the last
    drinking, who was told 「胜者皆袒决遂，执张弓」 and has not put them off since)."""
    where = f" at={at}" if at else ""
    state = states.get(("射者", who), "袭")
    if state.startswith("袒"):
        s.ev(f"{who} 执弓 弓{where}", line, f"{note} (still 袒决遂 since the drinking)")
    else:
        s.ev(f"{who} 袒决遂{where}", line, note)
        s.ev(f"{who} 执弓 弓", line, "执弓")
    states[("射者", who)] = "袒·执弓"


def qing_she(s: Staging, states: dict[tuple[str, str], str]) -> None:
    s.ev("司射 适 at=堂西", 180, "司射适堂西")
    s.ev("司射 袒决遂", 180, "袒决遂")
    s.ev("司射 取弓 弓 at=阶西", 180, "取弓于阶西")
    s.ev("司射 挟", 180, "挟一个 (his arrow: not tracked)")
    s.ev("司射 搢扑", 180, "搢扑")
    s.ev("司射 反位 at=司射位", 180, "以反位")
    s.ev("司射 去扑 at=阶西", 180, "司射去扑，倚于阶西")
    s.ev("司射 升 at=西阶", 181, "升请射于宾，如初")
    s.ev("司射 请 to=宾", 181, "请射于宾，如初")
    s.ev("宾 许", 181, "宾许")
    s.ev("司射 降 at=西阶", 181, "司射降")
    s.ev("司射 搢扑", 181, "搢扑")
    s.ev("司射 适 at=堂西", 181, "由司马之南适堂西")
    s.ev("司射 命 words=皆袒决遂，执弓就位", 182, "命三耦及众宾：“皆袒决遂，执弓就位！”")
    s.ev("司射 反位 at=司射位", 182, "司射先反位")
    for p in s.pairs:
        k = kind(s, p)
        if k == "宾耦":
            continue
        members = [p.upper, p.lower] if k != "大夫耦" else [p.upper]
        for who in members:
            _arm(s, who, states, 182, "三耦及众宾皆袒决遂，执弓")
        for who in members:
            s.ev(f"{who} 进 at=射位", 183, "各以其耦进，反于射位")


# -- Φ37 第三番·拾取矢 ---------------------------------------------------------------------------
def take_arrows_alternately(s: Staging, p: Pair, line: int) -> None:
    """拾取矢 at the 楅 如初 (L121–124): the 上射 and the 下射 by turns, one arrow at a time;
    the events cite `line`, the round-3 line that says 如初 / 如三耦."""
    u, l = p.upper, p.lower
    with ruchu(s, line):
        s.ev(f"{u} 揖", 121, "揖进；当楅北面揖，及楅揖")
        s.ev(f"{l} 揖", 121)
        for i in range(1, 5):
            s.ev(f"{u} 横弓 弓", 122, "上射…坐，横弓")
            s.ev(f"{u} 拾取矢 矢 arrow={i}", 122, "却手自弓下取一个，兼诸弣，顺羽")
            s.ev(f"{u} 执弓 弓", 123, "且兴；执弦而左还")
            s.ev(f"{l} 横弓 弓", 123, "下射进，坐，横弓")
            s.ev(f"{l} 拾取矢 矢 arrow={i}", 123, "覆手自弓上取一个")
            s.ev(f"{l} 执弓 弓", 124, "兴；其他如上射")


def _belt(s: Staging, p: Pair, line: int) -> None:
    """当楅南，皆左还，北面，搢三挟一个 … 退反位 (L124–125), 如初."""
    with ruchu(s, line):
        for who in (p.upper, p.lower):
            s.ev(f"{who} 搢三挟一个 矢", 125, "当楅南，皆左还，北面，搢三挟一个")
        for who in (p.upper, p.lower):
            s.ev(f"{who} 反位", 125, "退反位")


def take_arrows_dafu(s: Staging, p: Pair, final: bool = False) -> None:
    """The 大夫's pair (L187–189): the 大夫 unties his bundle, his partner takes his four arrows
    at once, then the 大夫 (R152)."""
    ou, dafu = p.upper, p.lower
    s.ev(f"{dafu} 揖", 187, "揖皆进，如三耦")
    s.ev(f"{ou} 揖", 187, "")
    s.ev(f"{ou} 立 face=东面", 187, "耦东面")
    s.ev(f"{dafu} 立 face=西面", 187, "大夫西面")
    s.ev(f"{dafu} 进", 187, "大夫进坐")
    s.ev(f"{dafu} 坐", 187, "大夫进坐")
    s.ev(f"{dafu} 说矢束 矢", 188, "说矢束")
    s.ev(f"{dafu} 兴", 188, "兴反位")
    if final:       # 不反位 (L203): he only steps back from the 楅 for his partner
        s.ev(f"{dafu} 退", 188, "兴反位 (如初; in the last 拾取矢 he only steps back: 不反位)")
    else:
        s.ev(f"{dafu} 反位", 188, "兴反位")
    s.ev(f"{ou} 揖", 188, "而后耦揖进坐")
    s.ev(f"{ou} 进", 188, "")
    s.ev(f"{ou} 坐", 188, "")
    s.ev(f"{ou} 兼取乘矢 矢", 188, "兼取乘矢")
    s.ev(f"{ou} 兴", 188, "顺羽而兴")
    if final:
        return
    s.ev(f"{ou} 搢三挟一个 矢", 188, "(如三耦: 北面，搢三挟一个; 大夫 … 如其耦)")
    s.ev(f"{ou} 反位", 188, "反位")
    s.ev(f"{ou} 揖", 188, "揖")
    s.ev(f"{dafu} 进", 188, "大夫进坐")
    s.ev(f"{dafu} 坐", 188, "")
    s.ev(f"{dafu} 兼取乘矢 矢", 189, "亦兼取乘矢，如其耦")
    s.ev(f"{dafu} 兴", 189, "")
    s.ev(f"{dafu} 搢三挟一个 矢 face=北面", 189, "北面，搢三挟一个")
    s.ev(f"{dafu} 揖", 189, "揖退")
    s.ev(f"{dafu} 退", 189, "揖退")
    s.ev(f"{ou} 反位", 189, "耦反位")


def _descend_guests(s: Staging, line: int, note: str, usher: bool = False) -> None:
    """宾、主人、大夫降揖 (those of them who shoot); `usher`: the 司射 ushers the 宾 and the 主人 down
    (司射摈升降, when they go down to shoot)."""
    downs = []
    for p in s.pairs:
        k = kind(s, p)
        if k == "宾耦":
            downs += [("宾", "西阶"), ("主人", "阼阶")]
        elif k == "大夫耦":
            downs.append((p.lower, "西阶"))
    for who, _ in downs:
        s.ev(f"{who} 揖", line, note)
    if usher and bin_pair(s):
        bin_(s, line)
    for who, stairs in downs:
        s.ev(f"{who} 降 at={stairs}", line, "皆由其阶降揖")


def shi_qu_shi(s: Staging, states: dict[tuple[str, str], str]) -> None:
    first = s.pairs[0]
    s.ev(f"司射 作 to={first.upper}", 184, "司射作拾取矢")
    for p in s.pairs:
        k = kind(s, p)
        if k == "三耦":
            take_arrows_alternately(s, p, 184)
            _belt(s, p, 184)
        elif k == "宾耦":
            _descend_guests(s, 184, "宾、主人、大夫降揖如初")
            s.ev("主人 袒决遂 at=堂东", 185, "主人堂东，皆袒决遂")
            s.ev("主人 取弓 弓 at=堂东", 185, "执弓 (he takes up the bow he laid down at the 序东, L140)")
            s.ev("宾 袒决遂 at=堂西", 185, "宾堂西，皆袒决遂")
            s.ev("宾 取弓 弓 at=堂西", 185, "执弓 (唯宾与大夫降阶，遂西取弓矢, L254)")
            s.ev("宾 揖 at=阶前", 185, "皆进阶前揖")
            s.ev("主人 揖 at=阶前", 185, "")
            take_arrows_alternately(s, p, 185)
            s.ev("宾 搢三挟一个 矢 face=北面", 185, "卒，北面搢三挟一个")
            s.ev("主人 搢三挟一个 矢 face=北面", 185, "")
            s.ev("宾 揖", 186, "揖退")
            s.ev("主人 揖", 186, "")
            s.ev("宾 释弓矢 弓 at=堂西", 186, "宾堂西，主人堂东，皆释弓矢，袭")
            s.ev("宾 袭", 186, "")
            s.ev("主人 释弓矢 弓 at=堂东", 186, "")
            s.ev("主人 袭", 186, "")
            s.ev("主人 升 at=阼阶", 186, "及阶揖，升堂揖 (主人升一等，宾升)")
            s.ev("宾 升 at=西阶", 186, "")
            s.ev("宾 就席", 187, "就席")
            s.ev("主人 就席", 187, "")
        elif k == "大夫耦":
            if bin_pair(s) is None and p == dafu_pairs(s)[0]:
                _descend_guests(s, 184, "大夫降揖如初")
            s.ev(f"{p.lower} 袒决遂", 187, "大夫袒决遂")
            s.ev(f"{p.lower} 取弓 弓 at=堂西", 187, "执弓 (唯宾与大夫降阶，遂西取弓矢, L254)")
            s.ev(f"{p.lower} 进 at=司射之西", 187, "就其耦")
            take_arrows_dafu(s, p)
            s.ev(f"{p.lower} 适 at=序西", 189, "大夫遂适序西")
            s.ev(f"{p.lower} 释弓矢 弓", 190, "释弓矢")
            s.ev(f"{p.lower} 袭", 190, "袭")
            s.ev(f"{p.lower} 升 at=西阶", 190, "升即席")
            s.ev(f"{p.lower} 即席", 190, "升即席")
        else:
            take_arrows_alternately(s, p, 190)
            _belt(s, p, 190)


# -- Φ38 请以乐乐于宾·不鼓不释 --------------------------------------------------------------------
def qing_yi_yue(s: Staging) -> None:
    p = s.pairs[0]
    s.ev("司射 进", 191, "司射犹挟一个以进")
    s.ev(f"司射 作 to={p.upper}", 191, "作上射如初")
    s.ev(f"{p.upper} 揖", 191, "一耦揖升如初")
    s.ev(f"{p.lower} 揖", 191, "")
    s.ev(f"{p.upper} 升 at=西阶", 191, "")
    s.ev(f"{p.lower} 升 at=西阶", 191, "")
    s.ev(f"{p.upper} 履物 at=右物", 191, "")
    s.ev(f"{p.lower} 履物 at=左物", 191, "")
    s.ev("司马 袒", 191, "司马升 (袒执弓，如初)")
    s.ev("司马 执弓 弓", 191, "")
    s.ev("司马 升 at=西阶", 191, "司马升")
    s.ev("司马 命去侯", 191, "命去侯")
    s.ev("获者 许诺", 191, "获者许诺")
    s.ev("获者 去侯 at=乏", 191, "(以至于乏，如初)")
    s.ev("司马 降 at=西阶", 192, "司马降")
    s.ev("司马 释弓 弓", 192, "释弓反位")
    s.ev("司马 袭", 192, "")
    s.ev("司马 反位 at=司马位", 192, "")
    s.ev("司射 交 to=司马 at=阶前", 192, "司射与司马交于阶前")
    s.ev("司射 去扑", 192, "去扑")
    s.ev("司射 袭", 192, "袭")
    s.ev("司射 升 at=西阶", 192, "升")
    s.ev("司射 请 to=宾", 192, "请以乐乐于宾")
    s.ev("宾 许诺", 193, "宾许诺")
    s.ev("司射 降 at=西阶", 193, "司射降")
    s.ev("司射 搢扑", 193, "搢扑")
    s.ev("司射 命 to=乐正 face=东面 words=请以乐乐于宾，宾许", 193,
         "东面命乐正，曰：“请以乐乐于宾，宾许。”")
    s.ev("司射 适 at=阶间", 193, "司射遂适阶间")
    s.ev("司射 命 face=北面 words=不鼓不释", 194, "堂下北面命曰：“不鼓不释！”")
    s.ev(f"{p.upper} 揖", 194, "上射揖")
    s.ev("司射 退", 194, "司射退反位")
    s.ev("司射 反位 at=司射位", 194, "")
    s.ev("乐正 命 to=工1 face=东面 words=奏《驺虞》，间若一", 194,
         "乐正东面命大师，曰：“奏《驺虞》，间若一。”" + ("" if s.o.taishi else
                                                          " (no 大师: the first 工)"))
    s.ev("工1 许诺", 195, "大师不兴，许诺")
    s.ev("乐正 退", 195, "乐正退反位")
    s.ev("乐正 反位", 195, "")
    s.ev("释获者 取算 算", 135, "释获者坐取中之八算 (释获如初)")
    s.ev("释获者 实算 算", 135, "改实八算于中，兴，执而俟")


# -- Φ39 第三番射 --------------------------------------------------------------------------------
def _bin_zhuren(s: Staging, p: Pair, shoot, says: dict[str, str] | None = None) -> None:
    """宾·主人 shoot as in Φ28 (如初); their arrows, taken up and belted in Φ37, come with the bow
    (no 有司 授矢, no second 搢三挟一个)."""
    _descend_guests(s, 196, "宾、主人、大夫、众宾继射 (宾、主人、大夫揖，皆由其阶降揖, 如初)", usher=True)
    s.ev("主人 袒决遂 at=堂东", 196, "(如初: 主人堂东袒决遂)")
    s.ev("主人 取弓 弓 at=堂东", 196, "(执弓; his arrows are 搢三挟一个 since Φ37)")
    s.ev("宾 袒决遂 at=堂西", 196, "(如初: 宾于堂西亦如之)")
    s.ev("宾 取弓 弓 at=堂西", 196, "(唯宾与大夫降阶，遂西取弓矢, L254)")
    with ruchu(s, 196, says):
        s.ev("宾 揖", 139, "皆由其阶，阶下揖")
        s.ev("主人 揖", 139)
        bin_(s, 139)
        s.ev("主人 升 at=阼阶", 139, "升堂揖 (主人升一等，宾升)")
        s.ev("宾 升 at=西阶", 139)
        s.ev("宾 履物 at=右物", 139, "主人为下射，皆当其物，北面揖，及物揖")
        s.ev("主人 履物 at=左物", 139)
        shoot(p)
        s.ev("宾 揖", 140, "卒，南面揖")
        s.ev("主人 揖", 140)
        bin_(s, 140)
        s.ev("宾 降 at=西阶", 140, "皆由其阶，阶上揖，降阶揖")
        s.ev("主人 降 at=阼阶", 140)
        s.ev("宾 释弓 弓 at=序西", 140, "宾序西，主人序东，皆释弓")
        s.ev("宾 说决拾", 141, "说决拾")
        s.ev("宾 袭", 141, "袭")
        s.ev("主人 释弓 弓 at=序东", 140)
        s.ev("主人 说决拾", 141)
        s.ev("主人 袭", 141)
        bin_(s, 141)
        s.ev("主人 升 at=阼阶", 141, "升，及阶揖，升堂揖 (主人升一等，宾升)")
        s.ev("宾 升 at=西阶", 141)
        s.ev("宾 就席", 141, "皆就席")
        s.ev("主人 就席", 141)
    s.ev("司射 反位", 260, "卒射即席，而反位卒事")


def _dafu(s: Staging, p: Pair, shoot, says: dict[str, str] | None = None) -> None:
    """A 大夫 and his partner shoot as in Φ29 (如初); the 大夫's arrows are 搢三挟一个 since Φ37."""
    ou, dafu = p.upper, p.lower
    if bin_pair(s) is None and p is dafu_pairs(s)[0]:
        _descend_guests(s, 196, "宾、主人、大夫、众宾继射 (大夫揖，由其阶降, 如初)")
    s.ev(f"{dafu} 袒决遂 at=堂西", 196, "(如初: 大夫袒决遂)")
    s.ev(f"{dafu} 取弓 弓 at=堂西", 196, "(执弓, 唯宾与大夫降阶，遂西取弓矢, L254; his arrows are 搢三挟一个 since Φ37)")
    with ruchu(s, 196, says):
        s.ev(f"{dafu} 进 at=司射之西", 142, "由堂西出于司射之西，就其耦")
        s.ev(f"{dafu} 揖", 143, "大夫为下射，揖进")
        s.ev(f"{ou} 少退", 143, "耦少退")
        s.ev(f"{ou} 揖", 143, "揖如三耦")
        s.ev(f"{ou} 升 at=西阶", 143, "及阶，耦先升")
        s.ev(f"{dafu} 升 at=西阶", 143)
        s.ev(f"{ou} 履物 at=右物", 143)
        s.ev(f"{dafu} 履物 at=左物", 143)
        shoot(p)
        s.ev(f"{dafu} 揖", 143, "卒射，揖如升射")
        s.ev(f"{ou} 降 at=西阶", 143, "耦先降")
        s.ev(f"{dafu} 降 at=西阶", 143)
        s.ev(f"{ou} 少退", 144, "降阶，耦少退")
        s.ev(f"{ou} 释弓 弓 at=堂西", 144, "皆释弓于堂西，袭")
        s.ev(f"{ou} 袭", 144)
        s.ev(f"{dafu} 释弓 弓 at=堂西", 144)
        s.ev(f"{dafu} 袭", 144)
        s.ev(f"{dafu} 升 at=西阶", 144, "耦遂止于堂西，大夫升就席")
        s.ev(f"{dafu} 就席", 144)


def she(s: Staging, beats) -> None:
    """乃奏《驺虞》以射: every pair in turn, 释获如初 but 不鼓不释 (a 中正 off the beat is not tallied)."""
    results = results_for(s, 3)
    right, left = scored(s, beats)
    s.ev("工1 奏", 196, "乃奏《驺虞》以射")
    s.comment(f"Round 3: the 中正 on the beat are tallied: 右 {right}, 左 {left} ({s.o.outcome[1]}).")
    released = 0

    def shoot(p: Pair) -> None:
        nonlocal released
        # 歌《驺虞》…皆五终 (L265): five runs of the song for each pair, one heard before shooting,
        # then one for each 拾 (郑注 「鄉射之鼓五節歌五終所以將八矢一節之閒當拾發四節四拾其一節先以聽也」)
        own = type(s).ev               # the 记's own line, not a 如初 of round 2 (ruchu rebinds s.ev)
        own(s, f"{TAISHI} 终 for={p.upper}", 265, "歌《驺虞》…皆五终 (郑注: 其一節先以聽也)")

        def run(n: int) -> None:
            own(s, f"{TAISHI} 终 for={p.upper}", 265, f"(郑注: 一節之閒當拾發, arrow {n})")

        up, low = shoot_pair(s, 3, p, *results[p.name], tally=True, beat=beats[p.name], line=196,
                             each_arrow=run)
        released = up + low

    for n, p in enumerate(s.pairs):
        k = kind(s, p)
        s.comment(f"{p.name}: {p.upper} (上射) / {p.lower} (下射)")
        says = {"降": "卒射，降"} if n == len(s.pairs) - 1 else None     # the last pair
        if k == "宾耦":
            _bin_zhuren(s, p, shoot, says)
        elif k == "大夫耦":
            _dafu(s, p, shoot, says)
        else:
            with ruchu(s, 196, says):
                if n:
                    ascend_pair(s, p)
                shoot(p)
                descend_pair(s, p)
        if n == len(s.pairs) - 1:
            break
        with ruchu(s, 196):
            reload_tallies(s, released)
        if n == 2:
            s.comment("三耦卒射 (L196)")
    with ruchu(s, 197, {"升": "释获者执余获，升" if released < 8 else "升",
                        "告": "告左右卒射，如初"}):
        report_done(s, released)


# -- Φ40 取矢·数获 --------------------------------------------------------------------------------
def qu_shi(s: Staging) -> None:
    """司马升，命取矢 … 弟子委矢，司马乘之，皆如初 (archery.collect_arrows)."""
    with ruchu(s, 198, {"升": "司马升", "命取矢": "命取矢", "许诺": "获者许诺", "降": "司马降",
                        "释弓": "释弓反位", "反位": "释弓反位", "委矢": "弟子委矢",
                        "乘矢": "司马乘之，皆如初"}):
        collect_arrows(s, 3)


def shu_huo(s: Staging, beats) -> None:
    """司射释弓视算，如初；释获者以贤获与钧告，如初 (L199).  Written here rather than with
    archery.count_and_announce: the 司射 has been 袭 since 请以乐 (L192), so the count's 「袭」 is
    not repeated, and his 扑 comes off (去扑) as in round 2."""
    right, left = scored(s, beats)
    margin = abs(right - left)
    s.ev("司射 适 at=西阶西", 199, "司射释弓视算，如初 (L150 适西阶西)")
    s.ev("司射 释弓 弓", 199, "释弓")
    s.ev("司射 去扑", 199, "(如初, L150: 去扑; he is 袭 since 请以乐, L192)")
    with ruchu(s, 199):
        s.ev("司射 进", 150, "进由中东")
        s.ev("司射 立 at=中南 face=北面", 150, "立于中南")
        s.ev("司射 视算", 150, "北面视算")
        s.ev("释获者 数获 算 side=右", 151, f"先数右获 ({right} = {chun(right)})")
        lay_out_count(s, "右", right)
        s.ev("释获者 数获 算 side=左", 153, f"其余如右获 ({left} = {chun(left)})")
        lay_out_count(s, "左", left)
        s.ev("司射 复位", 153, "司射复位")
    out = s.o.outcome[1]
    if out == "钧":
        s.ev("释获者 取贤获 算", 199, "释获者以贤获与钧告 (左右钧: 左右皆执一算, L156)")
    else:
        s.ev("释获者 取贤获 算", 199, f"释获者以贤获与钧告 ({margin} = {chun(margin)})")
    s.ev("释获者 升 at=西阶", 199, "(如初, L154: 执以升，自西阶，尽阶不升堂)")
    words = {"右": "右贤于左", "左": "左贤于右", "钧": "左右钧"}[out]
    count = announced_count(margin) if out != "钧" else ""
    s.ev(f"释获者 告 to=宾 words={words}{count}", 199, "以贤获与钧告，如初" +
         (f" (L155 {'以纯数告' if margin > 1 else ''}{'；' if margin > 2 and margin % 2 else ''}"
          f"{'若有奇者，亦曰奇' if margin % 2 else ''}: {chun(margin)})" if count else ""))
    s.ev("释获者 降", 199, "降复位")
    with ruchu(s, 199):
        s.ev("释获者 敛算 算", 156, "坐，兼敛算")
        s.ev("释获者 实算 算", 156, "实八算于中")
        s.ev("释获者 委算 算", 157, "委其余于中西；兴，共而俟")


# -- Φ41 饮不胜者 ---------------------------------------------------------------------------------
def yin_bu_sheng_zhe(s: Staging) -> None:
    """司射命设丰，设丰、实觯如初；遂命胜者执张弓，不胜者执弛弓，升饮如初 (archery.drink_losers)."""
    losers = losers_for(s, 3)
    if not losers:
        s.comment("L199 左右钧: no side won, so nobody drinks — no 丰 is set (R133 左右钧则不饮, an")
        s.comment("inference from the text's silence). The 司射 takes up his bow, arrow and 扑 as for the")
        s.comment("drinking (L159–160), for he is still 「袒决遂，左执弓」 in the last 拾取矢 (L201).")
        with ruchu(s, 200):
            s.ev("司射 适 at=堂西", 158, "司射适堂西")
            s.ev("司射 袒", 159, "司射遂袒执弓")
            s.ev("司射 执弓 弓", 159)
            s.ev("司射 挟", 159, "挟一个 (his arrow: not tracked)")
            s.ev("司射 搢扑", 160, "搢扑")
            s.ev("司射 反位", 161, "司射先反位")
        return
    with ruchu(s, 200):
        drink_losers(s, 3, losers)


# -- Φ42 拾取矢 (final) ---------------------------------------------------------------------------
def _put_away(s: Staging, who: str) -> None:
    """矢不挟，兼诸弦弣以退，不反位，遂授有司于堂西."""
    s.ev(f"{who} 兼诸弣", 203, "矢不挟，兼诸弦弣以退")
    s.ev(f"{who} 退", 203, "不反位")
    s.ev(f"{who} 授 to=有司 at=堂西", 203, "遂授有司于堂西")


def shi_qu_shi_final(s: Staging, states: dict[tuple[str, str], str]) -> None:
    s.ev("司射 执弓 弓", 201, "司射犹袒决遂，左执弓")
    s.ev("司射 兼诸弦", 201, "右执一个，兼诸弦，面镞")
    s.ev("司射 适 at=堂西", 201, "适堂西")
    s.ev("司射 命", 201, "以命拾取矢，如初")
    s.ev("司射 反位", 202, "司射反位")
    for p in s.pairs:
        k = kind(s, p)
        if k in ("三耦", "众耦"):
            for who in (p.upper, p.lower):
                _arm(s, who, states, 202, "皆袒决遂")
            take_arrows_alternately(s, p, 202)
            for who in (p.upper, p.lower):
                _put_away(s, who)
        elif k == "宾耦":
            _descend_guests(s, 202, "宾、主人 … 皆袒决遂，拾取矢，如初 (降揖如初)")
            s.ev("主人 袒决遂 at=堂东", 202, "皆袒决遂 (如初: 主人堂东)")
            s.ev("主人 执弓 弓", 202, "")
            s.ev("宾 袒决遂 at=堂西", 202, "(如初: 宾堂西)")
            s.ev("宾 执弓 弓", 202, "")
            take_arrows_alternately(s, p, 202)
            _put_away(s, "宾")
            _put_away(s, "主人")
        else:
            if bin_pair(s) is None and p == dafu_pairs(s)[0]:
                _descend_guests(s, 202, "大夫 … 皆袒决遂，拾取矢，如初 (降揖如初)")
            dafu = p.lower
            _arm(s, p.upper, states, 202, "皆袒决遂")
            s.ev(f"{dafu} 袒决遂", 202, "皆袒决遂 (如初)")
            s.ev(f"{dafu} 执弓 弓", 202, "")
            with ruchu(s, 202):
                take_arrows_dafu(s, p, final=True)
            s.ev(f"{dafu} 进", 202, "(如初: 大夫进坐，亦兼取乘矢)")
            s.ev(f"{dafu} 坐", 202, "")
            s.ev(f"{dafu} 兼取乘矢 矢", 202, "")
            s.ev(f"{dafu} 兴", 202, "")
            _put_away(s, p.upper)
            _put_away(s, dafu)
    s.comment("辩拾取矢 (L203): the bows are put down and the shooters cover again, as after "
              "their shooting (L104, L140–141), before going up to their mats.")
    for who in s.shooters:
        at = {"宾": "序西", "主人": "序东"}.get(who, "堂西")
        s.ev(f"{who} 释弓 弓 at={at}", 203, "(释弓，说决拾，袭, 如初)")
        s.ev(f"{who} 说决拾", 203, "")
        s.ev(f"{who} 袭", 203, "")
    for who in s.shooters:
        s.ev(f"{who} 揖", 203, "辩拾取矢，揖")
    # 郑注: 「主人以賓揖升大夫及衆賓從升」 — the host leads (主人升一等，宾升), the others follow
    for who in sorted(s.shooters, key=lambda w: w != "主人"):
        if who.startswith("弟子"):
            continue
        stairs = "阼阶" if who == "主人" else "西阶"
        s.ev(f"{who} 升 at={stairs}", 203, "皆升就席")
        s.ev(f"{who} 就席", 203, "皆升就席")
    s.comment("(the 三耦 are 弟子 and have no mats: they stay at 堂西)")


# -- Φ43 射毕 ------------------------------------------------------------------------------------
def she_bi(s: Staging) -> None:
    s.ev("司射 适 at=堂西", 204, "司射乃适堂西")
    s.ev("司射 释弓 弓", 204, "释弓")
    s.ev("司射 去扑", 204, "去扑")
    s.ev("司射 说决拾", 204, "说决拾")
    s.ev("司射 袭", 204, "袭")
    s.ev("司射 反位 at=司射位", 204, "反位")
    s.ev("司马 命 to=弟子7", 204, "司马命弟子说侯之左下纲而释之")
    s.ev("弟子7 说左下纲 侯", 204, "说侯之左下纲而释之")
    s.ev("司马 命 to=获者", 205, "命获者以旌退")
    s.ev("获者 以旌退 旌", 205, "以旌退")
    s.ev("司马 命 to=弟子7", 205, "命弟子退楅")
    s.ev("弟子7 退楅 楅", 205, "退楅")
    s.ev("司射 命 to=释获者", 205, "司射命释获者退中与算")
    s.ev("释获者 退中 中", 205, "退中与算")
    s.ev("释获者 俟", 205, "而俟")
