"""Φ14–Φ33: the first two rounds of archery (text lines 72–169).

Round 1 (Φ14–Φ22): 请射, 纳射器, 比三耦, 张侯·倚旌, 迁乐, 三耦取弓矢, 司射诱射, the 三耦 shoot
(获而未释获), 取矢·设楅·乘矢 (and, 若矢不备, 「取矢不索」).
Round 2 (Φ23–Φ33): 请射·比众耦, 三耦拾取矢, 众宾就射位, 请释获·设中, every pair shoots with
tallies (三耦, 宾耦, 大夫耦, 众耦), 取矢, 数获·告贤获, 饮不胜者.

Options honoured: the pairs (s.pairs: 三耦 first, then 宾耦, 大夫耦…, 众耦…), shi_bu_bei, the round-2
outcome (s.o.outcome[0]; dafu_partner_loses makes it 左, see `outcome_of`), seed and arrows.

The helpers at module level (`results_for`, `tallies`, `shoot_pair`, `ascend_pair`,
`descend_pair`, `reload_tallies`, `report_done`, `collect_arrows`, `count_and_announce`,
`losers_for`, `drink_losers`) are meant to be reused for round 3 (domain/staging/archery3.py):
their names and signatures are stable.
"""

from __future__ import annotations

import random

from xiangshe.domain.staging import RESULTS, SIDES, Pair, Staging, StagingError

HITS = ("中正", "中侯")          # the 获者 calls a hit on the 侯 (获); only 中正 is tallied (不贯不释: 郑注 不中正不释算)

# The arrows of the canonical staging (seed 0): pair name -> (上射's four, 下射's four).
CANONICAL_RESULTS: dict[int, dict[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    1: {
        "上耦": (("中正", "不中", "中正", "中侯"), ("不中", "中正", "中正", "不中")),
        "次耦": (("中正", "中正", "不中", "中正"), ("中侯", "不中", "中正", "不中")),
        "下耦": (("不中", "中正", "不中", "不中"), ("中正", "不中", "中侯", "中正")),
    },
    2: {
        "上耦": (("中正", "不中", "中正", "中侯"), ("不中", "中正", "不中", "不中")),
        "次耦": (("中正", "中正", "不中", "中正"), ("中正", "不中", "中侯", "中正")),
        "下耦": (("不中", "中正", "不中", "不中"), ("不中", "不中", "中正", "不中")),
        "宾耦": (("中正", "不中", "中正", "不中"), ("不中", "中正", "不中", "不中")),
        "大夫耦": (("不中", "中正", "不中", "不中"), ("中正", "不中", "不中", "中正")),
        "众耦": (("中正", "不中", "不中", "不中"), ("不中", "不中", "不中", "不中")),
    },
}

DIGITS = "零一二三四五六七八九"


def _ev(s: Staging, text: str, line: int | str, note: str = "") -> None:
    """s.ev, allowing a line range such as "73–74" (the parser reads the first number)."""
    s.ev(text, line, note)  # type: ignore[arg-type]


def _num(n: int) -> str:
    """A number in Chinese (0–99)."""
    if n < 10:
        return DIGITS[n]
    tens, units = divmod(n, 10)
    return ("" if tens == 1 else DIGITS[tens]) + "十" + (DIGITS[units] if units else "")


def chun(n: int) -> str:
    """A count of tallies in 纯 (two) and 奇 (one): 10 → 五纯, 7 → 三纯一奇, 1 → 一奇."""
    pairs, odd = divmod(n, 2)
    words = (f"{_num(pairs)}纯" if pairs else "") + ("一奇" if odd else "")
    return words or "零"


# -- who is who ------------------------------------------------------------------------------
def is_zun(s: Staging, who: str) -> bool:
    """The 宾, the 主人 and the 大夫 (宾、主人、大夫不胜，则不执弓): they shoot from and return to their mats."""
    return who in ("宾", "主人") or who in s.dafu_names


def dafu_pairs(s: Staging) -> list[Pair]:
    """The pairs of the 大夫 (each 大夫 with a 士 partner, the 大夫 as 下射)."""
    return [p for p in s.pairs if p.lower in s.dafu_names]


def bin_pair(s: Staging) -> Pair | None:
    """The pair of the 宾 and the 主人, if they shoot."""
    return next((p for p in s.pairs if p.upper == "宾"), None)


def zhong_pairs(s: Staging) -> list[Pair]:
    """The pairs of 众宾 only (众耦), after the 大夫's pairs."""
    return [p for p in s.pairs[3:] if not is_zun(s, p.upper) and not is_zun(s, p.lower)]


def zhongbin_shooters(s: Staging) -> list[str]:
    """The 众宾 who shoot (the 大夫's partners and the 众耦), in the shooting order."""
    return [w for p in s.pairs[3:] for w in (p.upper, p.lower) if not is_zun(s, w)]


# -- results ---------------------------------------------------------------------------------
def outcome_of(s: Staging, rnd: int) -> str:
    """The winning side of round `rnd` (2 or 3): 右, 左 or 钧.

    Round 2: s.o.outcome[0], except that dafu_partner_loses makes it 左: the 大夫 is a 下射 (左) and
    his partner a 上射 (右), and the winners are a whole side (右贤于左 / 左贤于右), so the partner
    loses and the 大夫 wins exactly when the left wins.
    """
    if rnd == 2:
        return "左" if s.o.dafu_partner_loses else s.o.outcome[0]
    return s.o.outcome[1]


def tallies(results: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]) -> tuple[int, int]:
    """The tallies of a round's results (pair name -> (上射's, 下射's)): (右, 左), one per 中正 (a hit on the 正)."""
    right = sum(r == "中正" for up, _ in results.values() for r in up)
    left = sum(r == "中正" for _, low in results.values() for r in low)
    return right, left


def _fit(res: dict[str, list[list[str]]], fixed: set[tuple[str, int]], outcome: str,
         rng: random.Random) -> None:
    """Change free arrows (not given in options.arrows) until the tallies give `outcome`."""
    def margin() -> int:
        r, l = tallies({k: (tuple(u), tuple(w)) for k, (u, w) in res.items()})
        return r - l

    def ok(m: int) -> bool:
        return m > 0 if outcome == "右" else m < 0 if outcome == "左" else m == 0

    m = margin()
    if ok(m):
        return
    target = 0 if outcome == "钧" else (1 + rng.randrange(3)) * (1 if outcome == "右" else -1)
    while m != target:
        up = m < target
        cands = []
        for name in sorted(res):
            for k in (0, 1):
                if (name, k) in fixed:
                    continue
                for i, r in enumerate(res[name][k]):
                    # raise the margin: a 上射 hits or a 下射 misses; lower it: the reverse
                    if (k == 0) == up and r != "中正" or (k == 1) == up and r == "中正":
                        cands.append((name, k, i))
        if not cands:
            if ok(m):
                return
            raise StagingError(f"the arrows given leave no way to reach the outcome {outcome}")
        name, k, i = rng.choice(cands)
        hit = res[name][k][i] != "中正"
        res[name][k][i] = "中正" if hit else rng.choice(("不中", "不中", "中侯"))
        m = margin()


def results_for(s: Staging, rnd: int) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """The arrows of round `rnd`: pair name -> (上射's four results, 下射's four results).

    Round 1: the 三耦 only (no tally, no outcome). Rounds 2 and 3: every pair, and the 中正 (one
    tally each) give the outcome `outcome_of(s, rnd)`. Explicit results in s.o.arrows (key
    "<round>:<pair name>:上射|下射") are kept as given; the others are the canonical ones (seed 0, for
    the pairs of the canonical staging) or drawn from random.Random(seed), then changed as little
    as needed to reach the outcome. Computed once per staging and round (cached on `s`).
    For round 3 every 中正 is counted: the caller must put every 中正 on the beat (beat=是), or count
    itself. Raises StagingError if the explicit arrows make the outcome impossible.
    """
    cache: dict[int, dict] = s.__dict__.setdefault("_arrow_results", {})
    if rnd in cache:
        return cache[rnd]
    rng = random.Random(s.o.seed * 1009 + rnd)
    pairs = s.pairs[:3] if rnd == 1 else s.pairs
    res: dict[str, list[list[str]]] = {}
    fixed: set[tuple[str, int]] = set()
    canon = CANONICAL_RESULTS.get(rnd, {}) if s.o.seed == 0 else {}
    for p in pairs:
        both = []
        for k, side in enumerate(SIDES):
            key = f"{rnd}:{p.name}:{side}"
            if key in s.o.arrows:
                given = list(s.o.arrows[key])
                both.append(given)
                fixed.add((p.name, k))
            elif p.name in canon:
                both.append(list(canon[p.name][k]))
            else:
                both.append(rng.choices(("中正", "中侯", "不中"), weights=(4, 2, 4), k=4))
        res[p.name] = both
    if rnd >= 2:
        _fit(res, fixed, outcome_of(s, rnd), rng)
    out = {name: (tuple(u), tuple(w)) for name, (u, w) in res.items()}
    cache[rnd] = out
    return out


def losers_for(s: Staging, rnd: int) -> list[str]:
    """The losers of round `rnd` (2 or 3), in the shooting order: the losing side's member of each
    pair (the 下射 if the right wins, the 上射 if the left wins); nobody if 左右钧."""
    outcome = outcome_of(s, rnd)
    if outcome == "钧":
        return []
    return [p.lower if outcome == "右" else p.upper for p in s.pairs]


# -- recurring sequences ---------------------------------------------------------------------
def shoot_pair(s: Staging, rnd: int, pair: Pair, upper_results, lower_results, tally: bool,
               beat=None, line: int | None = None, each_arrow=None) -> tuple[int, int]:
    """A pair's four arrows each, shot in turn (拾发以将乘矢): 上射, 下射, four times.

    Per arrow: the shot (`射 矢 arrow=N result=…`, with `beat=` when `beat` is given as two lists of
    four 是/否, the 上射's and the 下射's), the 获者's call for a hit on the 侯 (中正 or 中侯), the tally
    (`释获者 释获 算`, side 右 for the 上射, 左 for the 下射) when `tally` and the shot is 中正 (and on
    the beat, when beats are given), and the next arrow put on the string (挟, not after the 4th).
    Round 1 (tally=False) writes 挟 before the call, as the canonical staging does.
    `line`: the text line of the shots (default 100 in round 1, 136 otherwise).
    `each_arrow`: called with the arrow's number (1–4) before the pair shoots it (round 3: the run
    of the song, 终, that the two shots of that 节 fall in).
    Returns the number of tallies released for (上射, 下射).
    """
    line = line or (100 if rnd == 1 else 136)
    released = [0, 0]
    for i in range(4):
        if each_arrow:
            each_arrow(i + 1)
        shots = ((pair.upper, upper_results[i], "右"), (pair.lower, lower_results[i], "左"))
        for k, (who, res, side) in enumerate(shots):
            b = f" beat={beat[k][i]}" if beat else ""
            if not tally:
                note = "乃射，上射既发" if k == 0 else "而后下射射，拾发"
                _ev(s, f"{who} 射 矢 arrow={i + 1} result={res}{b}",
                    f"{line}–{line + 1}" if k == 0 else line + 1, note)
                if i < 3:
                    _ev(s, f"{who} 挟 矢", 101, "挟弓矢")
                if res in HITS:
                    _ev(s, f"获者 获 for={who} arrow={i + 1}", "101–102", "获者坐而获 … 获而未释获")
                continue
            _ev(s, f"{who} 射 矢 arrow={i + 1} result={res}{b}", line,
                "乃射" if i == 0 and k == 0 else "")
            if res in HITS:
                _ev(s, f"获者 获 for={who} arrow={i + 1}", 101, "获者坐而获 (如初)")
            if res == "中正" and (not beat or beat[k][i] == "是"):
                _ev(s, f"释获者 释获 算 for={who} arrow={i + 1} side={side}", 136,
                    "若中，则释获者坐而释获；上射于右，下射于左")
                released[k] += 1
            if i < 3:
                _ev(s, f"{who} 挟 矢", 101, "挟弓矢 (如初)")
    return released[0], released[1]


def ascend_pair(s: Staging, pair: Pair, line: int = 130, note: str = "揖升如初") -> None:
    """A pair goes up to shoot (揖升如初): both 揖, go up the west stairs, stand on their marks."""
    u, l = pair.upper, pair.lower
    _ev(s, f"{u} 揖", line, note)
    _ev(s, f"{l} 揖", line)
    _ev(s, f"{u} 升 at=西阶", line)
    _ev(s, f"{l} 升 at=西阶", line)
    _ev(s, f"{u} 履物 at=右物", line)
    _ev(s, f"{l} 履物 at=左物", line)


def descend_pair(s: Staging, pair: Pair) -> None:
    """After shooting (如初): 南面揖, down the west stairs, to the 堂西; 释弓，说决拾，袭."""
    u, l = pair.upper, pair.lower
    _ev(s, f"{u} 揖", 102, "卒射，皆执弓不挟，南面揖 (如初)")
    _ev(s, f"{l} 揖", 102)
    _ev(s, f"{u} 降 at=西阶", 102)
    _ev(s, f"{l} 降 at=西阶", 102)
    for k, who in enumerate((u, l)):
        _ev(s, f"{who} 适 at=堂西", 103, "由司马之南，适堂西 (如初)" if k == 0 else "")
        _ev(s, f"{who} 释弓 弓", 104, "释弓，说决拾，袭而俟于堂西" if k == 0 else "")
        _ev(s, f"{who} 说决拾", 104)
        _ev(s, f"{who} 袭", 104)


def reload_tallies(s: Staging, released: int) -> None:
    """Between two pairs: the unused tallies go back (若有馀算，则反委之 — none if all eight were
    released) and the 释获者 takes eight fresh ones from the 中."""
    if released < 8:
        _ev(s, "释获者 反委 算", 137, "若有馀算，则反委之")
    else:
        s.comment("L136–137 all eight tallies were released: no 馀算 to return")
    _ev(s, "释获者 取算 算", 137, "又取中之八算")
    _ev(s, "释获者 实算 算", 137, "改实八算于中，兴，执而俟")


def report_done(s: Staging, released: int) -> None:
    """After the last pair: the 释获者 reports 「左右卒射」 to the 宾 and lays down what is left of his
    eight tallies (`released`: how many of them the last pair took)."""
    _ev(s, "释获者 升 at=西阶", 146, "释获者遂以所执余获，升自西阶，尽阶，不升堂")
    _ev(s, "释获者 告 to=宾 words=左右卒射", 146, "告于宾曰：“左右卒射。”")
    _ev(s, "释获者 降", 146, "降，反位")
    if released < 8:
        _ev(s, "释获者 委余获 算", 146, "坐委余获于中西；兴，共而俟")
    else:
        s.comment("L146 the last pair released all eight tallies: no 余获 in hand")


def collect_arrows(s: Staging, rnd: int, line: int = 148) -> None:
    """The 司马 has the arrows taken (命取矢) and laid on the 楅, each shooter's four (委矢), the
    大夫's bound with grass (束矢), and groups them (乘矢). `line`: the text line of 「命取矢」."""
    _ev(s, "司马 袒", line, "司马袒决执弓")
    _ev(s, "司马 执弓 弓", line)
    _ev(s, "司马 升 at=西阶", line, "升命取矢，如初")
    _ev(s, "司马 命取矢", line)
    _ev(s, "获者 许诺", line, "获者许诺")
    _ev(s, "获者 负侯", line, "以旌负侯，如初")
    _ev(s, "司马 降 at=西阶", line, "司马降")
    _ev(s, "司马 释弓 弓", line + 1, "释弓")
    _ev(s, "司马 袭", line + 1, "(袭，如初)")
    _ev(s, "司马 反位", line + 1, "反位")
    _ev(s, "弟子7 取矢", line + 1, "弟子委矢，如初")
    for who in s.shooters:
        _ev(s, f"弟子7 委矢 矢 to={who} at=楅", line + 1, "北面坐委于楅；北括 (如初, L110–111)")
    for p in dafu_pairs(s):
        _ev(s, f"弟子7 束矢 矢 to={p.lower}", line + 1, "大夫之矢，则兼束之以茅，上握焉")
    _ev(s, "司马 乘矢 楅", line + 1, "司马乘矢如初")


def lay_out_count(s: Staging, side: str, n: int) -> None:
    """How the counted tallies of one side are laid out (L151–153): every ten 纯 lengthwise, each
    bundle apart (十纯则缩而委之，每委异之), the remaining 纯 crosswise below them (有余纯，则横于下),
    an odd tally lengthwise below the 纯 (奇则又缩诸纯下); the left side likewise (一纯以委，十则异之，
    其余如右获)."""
    pairs, odd = divmod(n, 2)
    tens, rest = divmod(pairs, 10)
    right = side == "右"
    for i in range(tens):
        if right:
            _ev(s, "释获者 缩 算 side=右 chun=十", 151, "十纯则缩而委之" if i == 0 else "每委异之")
        else:
            _ev(s, "释获者 缩 算 side=左 chun=十", 153, "一纯以委，十则异之" if i == 0 else "十则异之")
    if rest:
        if right:
            _ev(s, f"释获者 横 算 side=右 chun={_num(rest)}", 152, "有余纯，则横于下" if tens else
                f"({rest} 纯, fewer than ten: all laid crosswise)")
        else:
            _ev(s, f"释获者 横 算 side=左 chun={_num(rest)}", 153, f"其余如右获 ({rest} 纯 laid crosswise)")
    if odd:
        if right:
            _ev(s, "释获者 奇 算 side=右 qi=一", 152, "一算为奇，奇则又缩诸纯下")
        else:
            _ev(s, "释获者 奇 算 side=左 qi=一", 153, "其余如右获 (奇则又缩诸纯下)")


def announced_count(margin: int) -> str:
    """The count said with 「右贤于左」/「左贤于右」 (以纯数告；若有奇者，亦曰奇), as attributes: the 贤获
    in 纯 and 奇 (the margin, reading xian-huo=margin): 3 → ` chun=一 qi=一`, 1 → ` qi=一`."""
    pairs, odd = divmod(margin, 2)
    return (f" chun={_num(pairs)}" if pairs else "") + (" qi=一" if odd else "")


def count_and_announce(s: Staging, rnd: int, right: int, left: int) -> str:
    """数获·告贤获 (L150–157): the 司射 watches, the 释获者 counts the right, then the left, takes
    the 贤获 (the winner's surplus; one tally of each side if 钧), announces it to the 宾 —
    「右贤于左」 / 「左贤于右」 with the margin in 纯 and 奇 (`chun=` `qi=`) or 「左右钧」 — and
    puts eight tallies back in the 中. Returns the outcome: 右, 左 or 钧."""
    _ev(s, "司射 适 at=西阶西", 150, "司射遂适西阶西")
    _ev(s, "司射 释弓 弓", 150, "释弓")
    _ev(s, "司射 去扑", 150, "去扑")
    _ev(s, "司射 袭", 150, "袭")
    _ev(s, "司射 进", 150, "进由中东")
    _ev(s, "司射 立 at=中南 face=北面", 150, "立于中南")
    _ev(s, "司射 视算", 150, "北面视算")
    _ev(s, "释获者 数获 算 side=右", 151, f"释获者东面于中西坐，先数右获 ({right} = {chun(right)})")
    lay_out_count(s, "右", right)
    _ev(s, "释获者 数获 算 side=左", 153,
        f"自前适左，东面；坐，兼敛算 … 其余如右获 ({left} = {chun(left)})")
    lay_out_count(s, "左", left)
    _ev(s, "司射 复位", 153, "司射复位")
    margin = abs(right - left)
    if right == left:
        outcome = "钧"
        _ev(s, "释获者 取贤获 算", 154, "释获者遂进取贤获 (左右钧: 左右皆执一算以告, L156)")
    else:
        outcome = "右" if right > left else "左"
        _ev(s, "释获者 取贤获 算", 154, f"释获者遂进取贤获 ({margin} = {chun(margin)})")
    _ev(s, "释获者 升 at=西阶", 154, "执以升，自西阶，尽阶不升堂")
    if outcome == "钧":
        _ev(s, "释获者 告 to=宾 words=左右钧", 155, "若左右钧，则左右皆执一算以告，曰：“左右钧。”")
    else:
        words = "右贤于左" if outcome == "右" else "左贤于右"
        said = "若右胜，则曰：“右贤于左。”" if outcome == "右" else "若左胜，则曰：“左贤于右。”"
        _ev(s, f"释获者 告 to=宾 words={words}{announced_count(margin)}", "154–155" if outcome == "右" else 155,
            f"告于宾。{said}" + ("以纯数告" if margin > 1 else "") + ("；若有奇者，亦曰奇" if margin % 2 else "")
            + f" (the 贤获, the margin: {chun(margin)})")
    _ev(s, "释获者 降", 156, "降复位")
    _ev(s, "释获者 敛算 算", 156, "坐，兼敛算")
    _ev(s, "释获者 实算 算", 156, "实八算于中")
    _ev(s, "释获者 委算 算", 157, "委其余于中西；兴，共而俟")
    return outcome


def _drink_at_feng(s: Staging, loser: str, winner: str | None) -> None:
    """A loser drinks the penalty cup at the 丰 (L162–165); his winning partner goes up first,
    unless the loser goes up alone (特升饮, the partner of a winning 大夫: winner=None)."""
    if winner:
        _ev(s, f"{winner} 揖", 162, "一耦进，揖如升射")
        _ev(s, f"{loser} 揖", 162)
        _ev(s, f"{winner} 升 at=西阶", 163, "及阶，胜者先升，升堂，少右")
        _ev(s, f"{loser} 升 at=西阶", 163)
    else:
        _ev(s, f"{loser} 揖", 162, "揖如升射")
        _ev(s, f"{loser} 升 at=西阶", 168, "若大夫之耦不胜，则亦执弛弓，特升饮")
    _ev(s, f"{loser} 取 觯4 at=丰上 face=北面", 163, "不胜者进，北面坐取丰上之觯")
    _ev(s, f"{loser} 卒觯 觯4", 163, "兴，少退，立卒斛")
    _ev(s, f"{loser} 奠 觯4 at=丰下", 164, "进，坐奠于丰下")
    _ev(s, f"{loser} 揖", 164, "兴，揖")
    _ev(s, f"{loser} 降 at=西阶", 164, "不胜者先降")
    if winner:
        _ev(s, f"{winner} 降 at=西阶", 164, "(胜者从降)")
    _ev(s, f"{loser} 适 at=堂西", 164, "与升饮者相左，交于阶前，相揖；出于司马之南，遂适堂西")
    _ev(s, f"{loser} 释弓 弓", 165, "释弓，袭而俟")


def _drink_at_mat(s: Staging, who: str, take: bool) -> None:
    """A losing 宾 / 主人 / 大夫 (L166–167): no bow; the 执爵者 takes the cup (if `take`: from below
    the 丰), washes and fills it, hands it to him at his mat; he drinks at the top of the west
    stairs (主人亦饮于西阶上), gives the cup back and returns to his mat."""
    if take:
        _ev(s, "执爵者 取 觯4 at=丰下", 166, "宾、主人、大夫不胜，则不执弓，执爵者取觯")
    _ev(s, "执爵者 降", 166, "降洗")
    _ev(s, "执爵者 洗 觯4", 166)
    _ev(s, "执爵者 升 at=西阶", 167, "升实之")
    _ev(s, "执爵者 实 觯4", 167)
    _ev(s, f"执爵者 授 觯4 to={who} at=席前", 167, "以授于席前")
    _ev(s, f"{who} 降席", 167)
    _ev(s, f"{who} 受 觯4", 167, "受觯")
    _ev(s, f"{who} 适 at=西阶上", 167, "以适西阶上" + (" (主人亦饮于西阶上, L263)" if who == "主人" else ""))
    note = "北面立饮；卒觯"
    if who in s.dafu_names:
        note += " (大夫饮，则耦不升: his partner stays below)"
    _ev(s, f"{who} 卒觯 觯4 at=西阶上 face=北面", 167, note)
    _ev(s, f"{who} 授 觯4 to=执爵者", 167, "授执爵者")
    _ev(s, "执爵者 受 觯4", 167)
    _ev(s, f"{who} 反就席", 167, "反就席")


def drink_losers(s: Staging, rnd: int, losers: list[str]) -> None:
    """饮不胜者 (L158–169) of round `rnd`, the penalty cup being 觯4: 设丰, the winners' 弟子 fills
    the cup, the 司射's command (winners 袒决遂·执张弓, losers 执弛弓), the pairs advance, and each
    loser in the shooting order drinks — at the 丰 with his winning partner going up first, alone
    (特升饮) if he is the partner of a winning 大夫, or served at his mat if he is the 宾, the 主人 or
    a 大夫 (whose partner then does not go up) — the 执爵者 refilling between; then 彻丰与觯.
    `losers`: the losing persons (see `losers_for`); none (左右钧): nobody drinks (R133, inferred)."""
    if not losers:
        s.comment("L155–156 左右钧: no side won, so nobody drinks — no 丰 is set (R133 左右钧则不饮,")
        s.comment("an inference from the text's silence). The 司射 still takes up his bow and 扑 as for")
        s.comment("the drinking: he lays them down again to offer to the 释获者 (L176 释弓矢，去扑).")
        _ev(s, "司射 适 at=堂西", 158, "司射适堂西")
        _ev(s, "司射 袒", 159, "司射遂袒执弓")
        _ev(s, "司射 执弓 弓", 159)
        _ev(s, "司射 挟", 159, "挟一个 (his arrow: not tracked)")
        _ev(s, "司射 搢扑", 160, "搢扑")
        _ev(s, "司射 反位", 161, "司射先反位")
        return
    lost = set(losers)
    drinkers = [(p, p.lower if p.lower in lost else p.upper) for p in s.pairs
                if p.lower in lost or p.upper in lost]
    partner = {p.upper: p.lower for p in s.pairs} | {p.lower: p.upper for p in s.pairs}
    _ev(s, "司射 适 at=堂西", 158, "司射适堂西")
    _ev(s, "司射 命设丰", 158, "命弟子设丰")
    _ev(s, "弟子7 升 at=西阶", 158, "弟子奉丰升")
    _ev(s, "弟子7 设丰 丰 at=西楹之西", 158, "设于西楹之西")
    _ev(s, "弟子7 降", 158, "乃降")
    _ev(s, "胜者之弟子 取 觯4 at=下篚", 158, "胜者之弟子洗觯")
    _ev(s, "胜者之弟子 洗 觯4", 159)
    _ev(s, "胜者之弟子 升 at=西阶", 159, "升酌")
    _ev(s, "胜者之弟子 酌 觯4", 159)
    _ev(s, "胜者之弟子 奠 觯4 at=丰上 face=南面", 159, "南面坐奠于丰上")
    _ev(s, "胜者之弟子 降", 159, "降，袒执弓，反位")
    _ev(s, "司射 袒", 159, "司射遂袒执弓")
    _ev(s, "司射 执弓 弓", 159)
    _ev(s, "司射 挟", 159, "挟一个 (his arrow: not tracked)")
    _ev(s, "司射 搢扑", 160, "搢扑")
    _ev(s, "司射 命 face=北面 words=胜者皆袒决遂，执张弓。不胜者皆袭，说决拾，却左手，右加弛弓于其上，遂以执弣",
        160, "北面于三耦之南，命三耦及众宾")
    archers = [w for w in s.shooters if not is_zun(s, w)]
    for w in archers:
        if w not in lost:
            _ev(s, f"{w} 袒决遂", 160, "胜者皆袒决遂，执张弓")
            _ev(s, f"{w} 执张弓 弓", 160)
    for w in archers:
        if w in lost:
            _ev(s, f"{w} 执弛弓 弓", 161, "不胜者皆袭，说决拾 … 右加弛弓于其上，遂以执弣")
    _ev(s, "司射 反位", 161, "司射先反位")
    going_up = [p.upper for p in s.pairs[:3]] + [p.lower for p in s.pairs[:3]]
    for p in s.pairs[3:]:
        # not the 宾, 主人, 大夫 (at their mats), nor a 大夫's winning partner (大夫饮，则耦不升)
        going_up += [w for w in (p.upper, p.lower)
                     if not is_zun(s, w) and (w in lost or not is_zun(s, partner[w]))]
    for w in going_up:
        _ev(s, f"{w} 进 at=射位", 162, "三耦及众射者皆与其耦进立于射位，北上")
    _ev(s, f"司射 作 to={drinkers[0][1]}", 162, "司射作升饮者，如作射")
    cup = "丰上"                          # where the cup is: 丰上 (full), 丰下 (empty), 执爵者 (empty)
    for n, (p, loser) in enumerate(drinkers):
        if n == 3:
            s.comment("三耦卒饮 (L166)")
        if is_zun(s, loser):
            _drink_at_mat(s, loser, take=(cup == "丰下"))
            cup = "执爵者"
            continue
        if cup == "丰下":
            _ev(s, "执爵者 取 觯4 at=丰下", 165, "有执爵者。执爵者坐取觯")
        if cup != "丰上":
            _ev(s, "执爵者 实 觯4", 165, "实之" if cup == "丰下" else "(实之，反奠于丰上，如初)")
            _ev(s, "执爵者 奠 觯4 at=丰上", 165, "反奠于丰上")
        winner = None if is_zun(s, partner[loser]) else partner[loser]
        if winner is None:
            s.comment(f"L168 若大夫之耦不胜: {loser} goes up alone (特升饮); the 大夫 {partner[loser]} does not")
        elif p == next(iter(zhong_pairs(s)), None):
            s.comment("众宾继饮 (L168)")
        _drink_at_feng(s, loser, winner)
        cup = "丰下"
    if cup == "执爵者":
        _ev(s, "执爵者 奠 觯4 at=丰下", 169, "(the cup goes back to the 丰, to be removed with it)")
    _ev(s, "弟子7 升 at=西阶", 169, "射爵者辩，乃彻丰与觯")
    _ev(s, "弟子7 彻丰 丰", 169)
    _ev(s, "弟子7 彻 觯4", 169)
    _ev(s, "弟子7 降", 169)


# -- round 1 ---------------------------------------------------------------------------------
def phase14(s: Staging) -> None:
    """请射 (L72–74)."""
    for p in s.pairs[:3]:
        for w in (p.upper, p.lower):
            _ev(s, f"{w} 俟 at=堂西 face=南面", 72, "三耦俟于堂西，南面东上")
    _ev(s, "司射 适 at=堂西", 72, "司射适堂西")
    _ev(s, "司射 袒决遂", 72, "袒决遂")
    _ev(s, "司射 取弓 弓 at=阶西", 72, "取弓于阶西")
    _ev(s, "司射 兼挟乘矢 矢", 72, "兼挟乘矢")
    _ev(s, "司射 升 at=西阶", 73, "升自西阶")
    _ev(s, "司射 告 to=宾 at=西阶上 face=北面 words=弓矢既具，有司请射", 73, "阶上北面告于宾")
    _ev(s, "宾 对 to=司射 words=某不能。为二三子", "73–74", "宾对曰：“某不能。为二三子。”")
    _ev(s, "宾 许诺 to=司射", 74, "许诺")
    _ev(s, "司射 适 at=阼阶上", 74, "司射适阼阶上")
    _ev(s, "司射 告 to=主人 face=东北面 words=请射于宾，宾许", 74, "东北面告于主人")


def phase15(s: Staging) -> None:
    """纳射器 (L75–77)."""
    _ev(s, "司射 降 at=西阶", 75, "司射降自西阶")
    _ev(s, "司射 命 to=弟子7 at=阶前 face=西面", 75, "阶前西面，命弟子纳射器")
    _ev(s, "弟子7 纳射器 at=堂西", 75, "乃纳射器，皆在堂西")
    lay_gear(s)


def lay_gear(s: Staging) -> None:
    """Where the gear of those who shoot is laid (L75–77): the 宾's and the 大夫's bows lean on
    the 西序 with the arrows beneath them, the 众's bows lean at the 堂西 with the arrows on top,
    the 主人's bow and arrows are east of the 东序."""
    first: set[str] = set()

    def words(key: str, text: str) -> str:
        if key in first:
            return f"({text})"
        first.add(key)
        return text

    for who in s.shooters:
        if who == "宾" or who in s.dafu_names:
            _ev(s, f"弟子7 倚 弓 to={who} at=西序", 75, words("西序弓", "宾与大夫之弓倚于西序"))
            _ev(s, f"弟子7 奠 矢 to={who} at=西序", 75, words("西序矢", "矢在弓下，北括"))
        elif who == "主人":
            _ev(s, "弟子7 倚 弓 to=主人 at=东序东", "76–77", "主人之弓矢，在东序东")
            _ev(s, "弟子7 奠 矢 to=主人 at=东序东", "76–77", "主人之弓矢，在东序东")
        else:
            _ev(s, f"弟子7 倚 弓 to={who} at=堂西", 76, words("众弓", "众弓倚于堂西"))
            _ev(s, f"弟子7 奠 矢 to={who} at=堂西", 76, words("众矢", "矢在其上"))


def phase16(s: Staging) -> None:
    """比三耦 (L78–79)."""
    _ev(s, "司射 比 at=堂西", 78, "司射不释弓矢，遂以比三耦于堂西")
    for p in s.pairs[:3]:
        _ev(s, f"司射 命 to={p.upper} face=北面 words=某御于子", 78, "三耦之南，北面，命上射曰：“某御于子。”")
        _ev(s, f"司射 命 to={p.lower} face=北面 words=子与某子射", 79, "命下射曰：“子与某子射。”")


def phase17(s: Staging) -> None:
    """司正为司马·张侯·倚旌 (L80–81)."""
    _ev(s, "司正 为司马", 80, "司正为司马")
    _ev(s, "司马 命张侯 at=阶前", 80, "司马命张侯 (L251 司马阶前命张侯)")
    _ev(s, "弟子7 说束 侯", 80, "弟子说束")
    _ev(s, "弟子7 系左下纲 侯", 80, "遂系左下纲")
    _ev(s, "司马 命 to=获者 at=阶前 words=倚旌于侯中", "80–81",
        "司马又命获者：“倚旌于侯中。” (L251 遂命倚旌: from the 阶前 too)")
    _ev(s, "获者 取 旌 at=西方 kind=翿旌", 81, "获者由西方，坐取旌 (记: 「士，鹿中，翿旌以获」)")
    _ev(s, "获者 倚旌 旌 at=侯中", 81, "倚于侯中")
    _ev(s, "获者 退", 81, "乃退")


def phase18(s: Staging) -> None:
    """迁乐于下 (L82–83)."""
    _ev(s, "乐正 适 at=西方", 82, "乐正适西方")
    _ev(s, "乐正 命 to=弟子7", 82, "命弟子赞工")
    _ev(s, "弟子7 赞工", 82, "命弟子赞工，迁乐于下")
    _ev(s, "弟子7 相工", 82, "弟子相工，如初入")
    gong = ["工1", "工2", "工3", "工4"]
    for g in gong:
        _ev(s, f"{g} 降 at=西阶", 82, "降自西阶")
    _ev(s, "弟子7 迁乐 at=阼阶下之东南", "82–83", "迁乐于下 … 阼阶下之东南，堂前三笴")
    for g in gong:
        _ev(s, f"{g} 坐 at=堂前三笴 face=西面", 83, "堂前三笴，西面北上坐")
    _ev(s, "乐正 立 face=北面", 83, "乐正北面立于其南")


def phase19(s: Staging) -> None:
    """三耦取弓矢 (L84–86)."""
    san = [w for p in s.pairs[:3] for w in (p.upper, p.lower)]
    _ev(s, "司射 命 words=各与其耦让取弓矢，拾", 84, "司射犹挟乘矢，以命三耦")
    for w in san:
        _ev(s, f"{w} 袒决遂", 84, "三耦皆袒决遂")
    for w in san:
        _ev(s, f"有司 授弓 弓 to={w}", "84–85", "有司左执弣，右执弦，而授弓")
        _ev(s, f"有司 授 矢 to={w}", 85, "遂授矢")
    for w in san:
        _ev(s, f"{w} 执弓 弓", 85, "三耦皆执弓")
        _ev(s, f"{w} 搢三挟一个 矢", 85, "搢三而挟一个")
    _ev(s, "司射 立 at=司射位 face=东面", "85–86", "司射先立于所设中之西南，东面")
    for w in san:
        _ev(s, f"{w} 进 at=射位 face=东面", 86, "三耦皆进，由司射之西，立于其西南，东面北上而俟")


def phase20(s: Staging) -> None:
    """司射诱射 (L87–91): the 司射 shows the way, four arrows, no tally."""
    _ev(s, "司射 立 face=东面", 87, "司射东面立于三耦之北")
    _ev(s, "司射 搢三挟一个 矢", 87, "搢三而挟一个")
    _ev(s, "司射 揖", 87, "揖进")
    _ev(s, "司射 进", 87, "揖进")
    _ev(s, "司射 揖 face=北面", 87, "当阶，北面揖")
    _ev(s, "司射 揖", 87, "及阶，揖")
    _ev(s, "司射 升 at=西阶", 88, "升常 (= 升堂)")
    _ev(s, "司射 揖", 88, "揖")
    _ev(s, "司射 由楹内", 88, "豫则钩楹内 (the default occasion: the 州长's 序)")
    _ev(s, "司射 揖 face=北面", 88, "当左物，北面揖")
    _ev(s, "司射 揖", 88, "及物，揖")
    _ev(s, "司射 履物 at=左物", 88, "左足履物，不方足")
    _ev(s, "司射 还视侯中", 89, "还；视侯中")
    _ev(s, "司射 俯正足", 89, "俯正足")
    for i, res in enumerate(("中正", "中侯", "中正", "中正")):
        _ev(s, f"司射 诱射 矢 arrow={i + 1} result={res}", 89, "不去旌。诱射，将乘矢")
        if i < 3:
            _ev(s, "司射 挟 矢", 89, "将乘矢 (he puts the next arrow on the string)")
    _ev(s, "司射 执弓 弓", 89, "执弓不挟，右执弦")
    _ev(s, "司射 揖 face=南面", "89–90", "南面揖")
    _ev(s, "司射 降 at=西阶", 90, "揖如升射；降")
    _ev(s, "司射 适 at=堂西", 90, "出于其位南；适堂西")
    _ev(s, "司射 挟 矢", 90, "改取一个，挟之 (a fresh arrow)")
    _ev(s, "司射 适 at=阶西", 90, "遂适阶西")
    _ev(s, "司射 取扑 扑", "90–91", "取扑，搢之")
    _ev(s, "司射 反位 at=司射位", 91, "以反位")


def _approach_r1(s: Staging, p: Pair, first: bool) -> None:
    """Round 1: a pair comes forward to the stairs (揖进 … 及阶，揖)."""
    u, l = p.upper, p.lower
    if first:
        _ev(s, f"{u} 揖", 93, "上耦揖进")
        _ev(s, f"{l} 揖", 93, "上耦揖进")
    else:
        _ev(s, f"{u} 揖", "104–105", "三耦卒射，亦如之 (揖进)")
        _ev(s, f"{l} 揖", "104–105", "亦如之")
    _ev(s, f"{u} 并行", 93, "上射在左，并行")
    _ev(s, f"{u} 揖 face=北面", 93, "当阶，北面揖")
    _ev(s, f"{l} 揖 face=北面", 93, "当阶，北面揖")
    _ev(s, f"{u} 揖", 93, "及阶，揖")
    _ev(s, f"{l} 揖", 93, "及阶，揖")


def _mount_r1(s: Staging, p: Pair) -> None:
    """Round 1: a pair goes up and takes its marks (L94–95)."""
    u, l = p.upper, p.lower
    _ev(s, f"{u} 升 at=西阶", 94, "上射先升三等")
    _ev(s, f"{l} 升 at=西阶", 94, "下射从之，中等")
    _ev(s, f"{u} 揖 to={l}", 94, "上射升堂，少左；下射升，上射揖，并行")
    _ev(s, f"{u} 揖 face=北面", "94–95", "皆当其物，北面揖")
    _ev(s, f"{l} 揖 face=北面", "94–95", "皆当其物，北面揖")
    _ev(s, f"{u} 揖", 95, "及物，揖")
    _ev(s, f"{l} 揖", 95, "及物，揖")
    _ev(s, f"{u} 履物 at=右物", 95, "皆左足履物")
    _ev(s, f"{l} 履物 at=左物", 95, "皆左足履物")
    _ev(s, f"{u} 还视侯中", 95, "还视侯中")
    _ev(s, f"{l} 还视侯中", 95, "还视侯中")
    _ev(s, f"{u} 合足", 95, "合足而俟")
    _ev(s, f"{l} 合足", 95, "合足而俟")


def _si_ma_qu_hou_r1(s: Staging) -> None:
    """Round 1: the 司马 goes up and has the 获者 leave the target (命去侯, L95–99)."""
    _ev(s, "司马 适 at=堂西", 95, "司马适堂西")
    _ev(s, "司马 袒", 96, "不决遂，袒执弓")
    _ev(s, "司马 执弓 弓", 96, "袒执弓")
    _ev(s, "司马 升 at=西阶", 96, "出于司射之南，升自西阶")
    _ev(s, "司马 钩楹", 96, "钩楹")
    _ev(s, "司马 立 at=物间 face=西南面", "96–97", "由上射之后，西南面立于物间")
    _ev(s, "司马 扬弓 弓", 97, "右执箫，南扬弓")
    _ev(s, "司马 命去侯", 97, "命去侯")
    _ev(s, "获者 执 旌", 97, "获者执旌许诺")
    _ev(s, "获者 许诺", 97, "许诺，声不绝")
    _ev(s, "获者 去侯 at=乏", 97, "以至于乏")
    _ev(s, "获者 坐", 97, "坐")
    _ev(s, "获者 偃旌 旌 face=东面", "97–98", "东面偃旌")
    _ev(s, "获者 兴", 98, "兴而俟")
    _ev(s, "司马 降 at=西阶", 98, "司马出于下射之南，还其后，降自西阶")
    _ev(s, "司马 适 at=堂西", 98, "反由司射之南，适堂西")
    _ev(s, "司马 释弓 弓", 99, "释弓")
    _ev(s, "司马 袭", 99, "袭")
    _ev(s, "司马 反位 at=司马位", 99, "反位，立于司射之南")


def _leave_r1(s: Staging, p: Pair, nxt: Pair | None) -> None:
    """Round 1: a pair comes down, crossing the next pair at the stairs, and waits at the 堂西."""
    u, l = p.upper, p.lower
    _ev(s, f"{u} 降 at=西阶", 102, "上射降三等")
    _ev(s, f"{l} 降 at=西阶", "102–103", "下射少右，从之，中等")
    _ev(s, f"{u} 并行", 103, "并行，上射于左")
    if nxt:
        _ev(s, f"{u} 相揖 to={nxt.upper} at=阶前", 103, "与升射者相左，交于阶前，相揖")
        _ev(s, f"{l} 相揖 to={nxt.lower} at=阶前", 103, "与升射者相左，交于阶前，相揖")
    for w in (u, l):
        _ev(s, f"{w} 适 at=堂西", "103–104", "由司马之南，适堂西")
        _ev(s, f"{w} 释弓 弓", 104, "释弓")
        _ev(s, f"{w} 说决拾", 104, "说决拾")
        _ev(s, f"{w} 袭", 104, "袭")
        _ev(s, f"{w} 俟 at=堂西 face=南面", 104, "而俟于堂西，南面，东上")


def phase21(s: Staging) -> None:
    """第一番射 (L92–105): the 三耦 shoot; the 获者 calls the hits, nothing is tallied."""
    san = s.pairs[:3]
    results = results_for(s, 1)
    _ev(s, "司马 命负侯 to=获者 at=司马位", 92, "司马命获者执旌以负侯 (L253–254 命负侯者，由其位)")
    _ev(s, "获者 适 at=侯", 92, "获者适侯")
    _ev(s, "获者 执 旌", 92, "执旌")
    _ev(s, "获者 负侯", 92, "执旌负侯而俟")
    _ev(s, "司射 还 face=西面", 92, "司射还，当上耦西面")
    _ev(s, f"司射 作 to={san[0].upper}", 93, "作上耦射")
    _ev(s, "司射 反位 at=司射位", 93, "司射反位")
    _approach_r1(s, san[0], first=True)
    _mount_r1(s, san[0])
    _si_ma_qu_hou_r1(s)
    _ev(s, "司射 进", 99, "司射进")
    _ev(s, "司射 交 to=司马 at=阶前", 99, "与司马交于阶前，相左")
    _ev(s, f"司射 命 to={san[0].upper} at=堂下西阶之东 face=北面 words=无射获，无猎获", "99–100",
        "北面视上射，命曰")
    _ev(s, f"{san[0].upper} 揖", 100, "上射揖")
    _ev(s, "司射 退", 100, "司射退")
    _ev(s, "司射 反位 at=司射位", 100, "反位")
    for k, p in enumerate(san):
        nxt = san[k + 1] if k + 1 < len(san) else None
        if k:
            _mount_r1(s, p)
        shoot_pair(s, 1, p, *results[p.name], tally=False)
        _ev(s, f"{p.upper} 执弓 弓", 102, "卒射，皆执弓不挟")
        _ev(s, f"{p.lower} 执弓 弓", 102, "卒射，皆执弓不挟")
        _ev(s, f"{p.upper} 揖 face=南面", 102, "南面揖，揖如升射")
        _ev(s, f"{p.lower} 揖 face=南面", 102, "南面揖，揖如升射")
        if nxt:
            _approach_r1(s, nxt, first=False)
        _leave_r1(s, p, nxt)
    _ev(s, "司射 去扑 扑", 105, "司射去扑，倚于西阶之西")
    _ev(s, "司射 升 at=西阶", 105, "升堂")
    _ev(s, "司射 告 to=宾 face=北面 words=三耦卒射", 105, "北面告于宾，曰：“三耦卒射。”")
    _ev(s, "宾 揖", 105, "宾揖")


def phase22(s: Staging) -> None:
    """第一番·取矢·乘矢 (L106–113); 若矢不备 (shi_bu_bei), 「取矢不索」 and the arrows are sought."""
    _ev(s, "司射 降 at=西阶", 106, "司射降")
    _ev(s, "司射 搢扑 扑", 106, "搢扑")
    _ev(s, "司射 反位 at=司射位", 106, "反位")
    _ev(s, "司马 适 at=堂西", 106, "司马适堂西")
    _ev(s, "司马 袒", 106, "袒执弓")
    _ev(s, "司马 执弓 弓", 106, "袒执弓")
    _ev(s, "司马 进", 106, "由其位南，进")
    _ev(s, "司马 交 to=司射 at=阶前", "106–107", "与司射交于阶前，相左")
    _ev(s, "司马 升 at=西阶", 107, "升自西阶")
    _ev(s, "司马 钩楹", 107, "钩楹")
    _ev(s, "司马 立 at=物间 face=西南面", 107, "自右物之后，立于物间；西南面")
    _ev(s, "司马 揖弓 弓", 107, "揖弓")
    _ev(s, "司马 命取矢", 107, "命取矢")
    _ev(s, "获者 执 旌", 108, "获者执旌许诺")
    _ev(s, "获者 许诺", 108, "许诺，声不绝")
    _ev(s, "获者 负侯", 108, "以旌负侯而俟")
    _ev(s, "司马 降 at=西阶", 108, "司马出于左物之南，还其后，降自西阶")
    _ev(s, "司马 适 at=堂前", 109, "遂适堂前")
    _ev(s, "司马 立 at=楅南 face=北面", 109, "北面立于所设楅之南")
    _ev(s, "司马 命设楅 to=弟子7", 109, "命弟子设楅")
    _ev(s, "弟子7 设楅 楅 at=中庭", "109–110", "乃设楅于中庭，南当洗，东肆")
    _ev(s, "司马 退", 110, "司马由司射之南，退")
    _ev(s, "司马 释弓 弓 at=堂西", 110, "释弓于堂西")
    _ev(s, "司马 袭", 110, "袭")
    _ev(s, "司马 反位 at=司马位", 110, "反位")
    _ev(s, "弟子7 取矢 at=侯", 110, "弟子取矢 (the 司射's four 诱射 arrows are gathered with the others)")
    for p in s.pairs[:3]:
        for w in (p.upper, p.lower):
            _ev(s, f"弟子7 委矢 矢 to={w} at=楅 face=北面", "110–111", "北面坐委于楅；北括")
    _ev(s, "弟子7 退", 111, "乃退")
    _ev(s, "司马 进", 111, "司马袭进")
    _ev(s, "司马 坐 at=楅南 face=北面", 111, "当楅南，北面坐")
    _ev(s, "司马 乘矢 楅", 111, "左右抚矢而乘之")
    if not s.o.shi_bu_bei:
        s.comment("L111–113 the arrows are all there (not 若矢不备): no 「取矢不索」")
        return
    short = s.pairs[2].lower
    _ev(s, f"司马 不备 矢 to={short}", 112, "若矢不备 (one of his four is not found)")
    _ev(s, "司马 袒", 112, "若矢不备，则司马又袒执弓如初")
    _ev(s, "司马 执弓 弓", 112, "袒执弓如初")
    _ev(s, "司马 升 at=西阶", 112, "升")
    _ev(s, "司马 命 words=取矢不索", 112, "命曰：“取矢不索！”")
    _ev(s, "弟子7 应 at=西方 words=诺", 112, "弟子自西方应曰：“诺！”")
    _ev(s, "弟子7 复求矢 楅", "112–113", "乃复求矢")
    _ev(s, f"弟子7 加 矢 to={short} at=楅", 113, "加于楅")
    _ev(s, "司马 降 at=西阶", 112, "如初 (he comes down as after 命取矢, L108)")
    _ev(s, "司马 释弓 弓 at=堂西", 112, "如初 (L110 释弓于堂西)")
    _ev(s, "司马 袭", 112, "如初 (L110 袭)")
    _ev(s, "司马 反位 at=司马位", 112, "如初 (L110 反位)")
    _ev(s, "司马 乘矢 楅", 111, "乘之 (implied: the arrows are grouped again once complete)")


# -- round 2 ---------------------------------------------------------------------------------
def phase23(s: Staging) -> None:
    """第二番·请射·比众耦 (L114–119)."""
    _ev(s, "司射 倚扑 at=阶西", 114, "司射倚扑于阶西")
    _ev(s, "司射 升 at=西阶", 114, "升")
    _ev(s, "司射 请 to=宾", 114, "请射于宾，如初")
    _ev(s, "宾 许诺", 114, "宾许诺")
    if bin_pair(s):
        _ev(s, "司射 告 to=宾", 115, "则遂告于宾")
        _ev(s, "司射 适 at=阼阶上", 115, "适阼阶上")
        _ev(s, "司射 告 to=主人 at=阼阶上", 115, "告于主人，主人与宾为耦")
    else:
        s.comment("L114 the 宾 and the 主人 do not shoot: they are not told of a partner")
    for p in dafu_pairs(s):
        _ev(s, f"司射 告 to={p.lower} words=某御于子", 116,
            "以耦告于大夫，曰：“某御于子。”" + (" (大夫虽众，皆与士为耦, L115–116)" if len(dafu_pairs(s)) > 1 else ""))
    zb = zhongbin_shooters(s)
    if zb:
        _ev(s, "司射 作 at=西阶上 face=北面", 116, "西阶上，北面作众宾射")
    _ev(s, "司射 降 at=西阶", 116, "司射降")
    _ev(s, "司射 搢扑", 117, "搢扑")
    _ev(s, "司射 适 at=堂西", 117, "由司马之南适堂西")
    _ev(s, "司射 立 at=堂西", 117, "立")
    for w in zb:
        _ev(s, f"{w} 降", 117, "众宾将与射者皆降")
        _ev(s, f"{w} 适 at=堂西", 117, "由司马之南适堂西，继三耦而立")
    _ev(s, "司射 比 at=堂西", 117, "比众耦 (宾、主人与大夫皆未降)")
    for p in dafu_pairs(s):
        _ev(s, f"司射 命 to={p.upper} words=子与某子射", 118, "大夫之耦为上")
    for p in zhong_pairs(s):
        _ev(s, f"司射 命 to={p.upper} words=某御于子", 119, "司射乃比众耦辩")
        _ev(s, f"司射 命 to={p.lower} words=子与某子射", 119, "司射乃比众耦辩")


def phase24(s: Staging) -> None:
    """第二番·三耦拾取矢 (L120–127): each of the 三耦 takes his four arrows from the 楅, in turn."""
    san = s.pairs[:3]
    _ev(s, "司射 命", 120, "遂命三耦拾取矢")
    _ev(s, "司射 反位", 120, "司射反位")
    for p in san:
        for w in (p.upper, p.lower):
            _ev(s, f"{w} 袒决遂", 120, "三耦拾取矢，皆袒决遂")
            _ev(s, f"{w} 执弓 弓", 120, "执弓")
            _ev(s, f"{w} 进", 120, "进立于司马之西南")
    _ev(s, f"司射 作 to={san[0].upper}", 121, "司射作上耦取矢")
    _ev(s, "司射 反位", 121, "司射反位")
    _advance_r2(s, san[0], first=True)
    for k, p in enumerate(san):
        u, l = p.upper, p.lower
        _ev(s, f"{u} 揖 face=北面", 121, "当楅北面揖")
        _ev(s, f"{l} 揖 face=北面", 121)
        _ev(s, f"{u} 揖 at=楅", 121, "及楅揖")
        _ev(s, f"{l} 揖 at=楅", 121)
        _ev(s, f"{u} 立 at=楅 face=东面", "121–122", "上射东面")
        _ev(s, f"{l} 立 at=楅 face=西面", 122, "下射西面")
        for i in range(1, 5):
            _ev(s, f"{u} 横弓 弓", 122, "上射揖进，坐，横弓")
            _ev(s, f"{u} 拾取矢 矢 arrow={i}", 122, "却手自弓下取一个，兼诸弣，顺羽")
            _ev(s, f"{u} 执弓 弓", 123, "且兴；执弦而左还")
            _ev(s, f"{l} 横弓 弓", 123, "下射进，坐，横弓")
            _ev(s, f"{l} 拾取矢 矢 arrow={i}", 123, "覆手自弓上取一个")
            _ev(s, f"{l} 执弓 弓", 124, "兴；其他如上射")
        _withdraw_r2(s, p, san[k + 1] if k + 1 < len(san) else None)
    last = san[-1].lower
    _ev(s, f"{last} 取矢 at=楅", 126, "后者遂取诱射之矢，兼乘矢而取之")
    _ev(s, f"{last} 授 to=有司 at=西方", 126, "以授有司于西方")
    _ev(s, f"{last} 反位", 127, "而后反位")


def _advance_r2(s: Staging, p: Pair, first: bool) -> None:
    """A pair of the 三耦 comes forward to take its arrows (上耦揖进; the next ones 亦如之)."""
    if first:
        _ev(s, f"{p.upper} 揖", 121, "上耦揖进")
    else:
        _ev(s, f"{p.upper} 揖", 126, "三耦拾取矢，亦如之 (上耦揖进)")
    _ev(s, f"{p.lower} 揖", 121 if first else 126)


def _withdraw_r2(s: Staging, p: Pair, nxt: Pair | None) -> None:
    """A pair has its four arrows each and withdraws (L124–125), passing the next pair as it
    comes forward (与进者相左，相揖)."""
    u, l = p.upper, p.lower
    _ev(s, f"{u} 揖", 124, "既拾取乘矢，揖")
    _ev(s, f"{l} 揖", 124)
    _ev(s, f"{u} 左还", 124, "皆左还")
    _ev(s, f"{l} 左还", 124)
    _ev(s, f"{u} 揖 face=南面", 124, "南面揖")
    _ev(s, f"{l} 揖 face=南面", 124)
    _ev(s, f"{u} 少进", 124, "皆少进")
    _ev(s, f"{l} 少进", 124)
    _ev(s, f"{u} 左还 at=楅南", "124–125", "当楅南，皆左还")
    _ev(s, f"{l} 左还 at=楅南", "124–125")
    _ev(s, f"{u} 搢三挟一个 矢 face=北面", 125, "北面，搢三挟一个")
    _ev(s, f"{l} 搢三挟一个 矢 face=北面", 125)
    _ev(s, f"{u} 揖", 125, "揖，皆左还，上射于右")
    _ev(s, f"{l} 揖", 125)
    _ev(s, f"{u} 左还", 125, "皆左还，上射于右")
    _ev(s, f"{l} 左还", 125)
    if nxt:
        _advance_r2(s, nxt, first=False)
        _ev(s, f"{u} 相揖 to={nxt.upper}", 125, "与进者相左，相揖")
        _ev(s, f"{l} 相揖 to={nxt.lower}", 125, "与进者相左，相揖")
    _ev(s, f"{u} 反位", 125, "退反位")
    if nxt:
        _ev(s, f"{l} 反位", 125)
    else:
        s.comment("L126 the last (后者) goes on to take the 诱射 arrows before he goes back")


def phase25(s: Staging) -> None:
    """众宾就射位 (L128–129): the 众宾 who shoot arm themselves and stand south of the 三耦."""
    zb = zhongbin_shooters(s)
    if not zb:
        s.comment("L128 no 众宾 shoot")
    for w in zb:
        _ev(s, f"{w} 袒决遂", 128, "众宾未拾取矢，皆袒决遂")
        _ev(s, f"有司 授弓 弓 to={w}", 128, "(众弓倚于堂西，矢在其上, L76; 郑注 on L85 「凡納射器者皆執以俟事」)")
        _ev(s, f"{w} 执弓 弓", 128, "执弓")
        _ev(s, f"有司 授 矢 to={w}", 128, "(遂授矢, as to the 三耦: 张尔岐 「衆賔初射當於堂西受弓矢於有司」)")
        _ev(s, f"{w} 搢三挟一个 矢", 128, "搢三挟一个")
        _ev(s, f"{w} 进", 128, "由堂西进，继三耦之南而立，东面，北上 (大夫之耦为上)")


def phase26(s: Staging) -> None:
    """第二番·请释获·设中·不贯不释 (L130–135)."""
    first = s.pairs[0]
    _ev(s, f"司射 作 to={first.upper}", 130, "司射作射如初")
    ascend_pair(s, first, note="一耦揖升如初")
    _ev(s, "司马 袒", 130, "司马命去侯 (如初: 袒执弓，升)")
    _ev(s, "司马 执弓 弓", 130)
    _ev(s, "司马 升 at=西阶", 130)
    _ev(s, "司马 命去侯", 130, "司马命去侯")
    _ev(s, "获者 许诺", 130, "获者许诺")
    _ev(s, "获者 去侯", 130, "(以至于乏，如初)")
    _ev(s, "司马 降 at=西阶", 130, "司马降")
    _ev(s, "司马 释弓 弓", 130, "释弓反位")
    _ev(s, "司马 袭", 130)
    _ev(s, "司马 反位", 130)
    _ev(s, "司射 去扑", 131, "司射犹挟一个，去扑")
    _ev(s, "司射 升 at=西阶", 131, "与司马交于阶前，升")
    _ev(s, "司射 请 to=宾", 131, "请释获于宾")
    _ev(s, "宾 许", 131, "宾许")
    _ev(s, "司射 降 at=西阶", 131, "降")
    _ev(s, "司射 搢扑", 131, "搢扑")
    _ev(s, "司射 立 at=中东 face=西面", 131, "西面立于所设中之东")
    _ev(s, "司射 命设中 face=北面", 132, "北面命释获者设中，遂视之")
    _ev(s, "释获者 执 中 kind=鹿中", 132, "释获者执鹿中")
    _ev(s, "执算者 执 算", 132, "一人执算以从之")
    _ev(s, "释获者 设中 中 face=东面", 133, "释获者坐设中，南当楅，西当西序，东面")
    _ev(s, "释获者 受算 算", 133, "兴受算")
    _ev(s, "释获者 实算 算", 133, "坐实八算于中")
    _ev(s, "释获者 委算 算", 133, "横委其馀于中西，南末")
    _ev(s, "释获者 兴", 134, "兴，共而俟")
    _ev(s, "释获者 俟", 134, "共而俟")
    _ev(s, "司射 进", 134, "司射遂进，由堂下")
    _ev(s, "司射 命 face=北面 words=不贯不释", 134, "北面命曰：“不贯不释！”")
    _ev(s, f"{first.upper} 揖", 134, "上射揖")
    _ev(s, "司射 反位", 134, "司射退反位")
    _ev(s, "释获者 取算 算", 135, "释获者坐取中之八算")
    _ev(s, "释获者 实算 算", 135, "改实八算于中，兴，执而俟")


class _Round2:
    """The shooting of round 2 across Φ27–Φ30: which pair is last, and the tallies released."""

    def __init__(self, s: Staging) -> None:
        self.s = s
        self.results = results_for(s, 2)
        self.last = s.pairs[-1]
        self.released = 0

    def shoot(self, p: Pair, line: int = 136) -> None:
        """The pair shoots; then the 释获者 reloads, unless it is the last pair of the round."""
        up, low = shoot_pair(self.s, 2, p, *self.results[p.name], tally=True, line=line)
        self.released = up + low

    def after(self, p: Pair) -> None:
        if p != self.last:
            reload_tallies(self.s, self.released)


def phase27(s: Staging, r2: _Round2) -> None:
    """第二番·三耦射，释获 (L136–137)."""
    for k, p in enumerate(s.pairs[:3]):
        s.comment(f"{p.name}: {p.upper} (上射) / {p.lower} (下射)")
        if k:
            ascend_pair(s, p)
        r2.shoot(p)
        descend_pair(s, p)
        r2.after(p)


def _dafu_descend(s: Staging, with_bin: bool) -> None:
    """The 宾, the 主人 and the shooting 大夫 bow and go down, each by his own stairs (L138)."""
    who = (["宾", "主人"] if with_bin else []) + [p.lower for p in dafu_pairs(s)]
    for k, w in enumerate(who):
        _ev(s, f"{w} 揖", 138, "宾、主人、大夫揖" if k == 0 else "")
    if with_bin:
        bin_(s, 138)
    for k, w in enumerate(who):
        _ev(s, f"{w} 降 at={'阼阶' if w == '主人' else '西阶'}", 138, "皆由其阶降揖" if k == 0 else "")


def bin_(s: Staging, line: int) -> None:
    """The 司射 ushers (摈) the 宾 and the 主人 at each of their descents and ascents when they shoot
    (记 「宾、主人射，则司射摈升降」, L260; 郑注 「擯賓主人升降者皆尊之也」), one 摈 for each of them,
    bow in hand (郑注 on L262 「然則擯升降不釋」)."""
    _ev(s, "司射 摈 to=宾", line, "司射摈升降 (L260)")
    _ev(s, "司射 摈 to=主人", line, "")


def phase28(s: Staging, r2: _Round2) -> None:
    """宾·主人射 (L138–141), if they shoot."""
    p = bin_pair(s)
    if p is None:
        s.comment("L138–141 the 宾 and the 主人 do not shoot")
        return
    _dafu_descend(s, with_bin=True)
    _ev(s, "主人 袒决遂 at=堂东", 138, "主人堂东袒决遂")
    _ev(s, "主人 取弓 弓 at=堂东", 138, "执弓 (主人之弓矢，在东序东, L76: he takes them himself, no 有司 is named)")
    _ev(s, "主人 取 矢 at=堂东", 138, "")
    _ev(s, "主人 搢三挟一个 矢", 138, "搢三挟一个")
    _ev(s, "宾 袒决遂 at=堂西", 139, "宾于堂西亦如之")
    _ev(s, "宾 取弓 弓 at=堂西", 139, "唯宾与大夫降阶，遂西取弓矢 (L254; 郑注 尊者宜逸由便也)")
    _ev(s, "宾 取 矢 at=堂西", 139, "")
    _ev(s, "宾 搢三挟一个 矢", 139)
    _ev(s, "宾 揖", 139, "皆由其阶，阶下揖")
    _ev(s, "主人 揖", 139)
    bin_(s, 139)
    _ev(s, "主人 升 at=阼阶", 139, "升堂揖 (主人升一等，宾升: the host leads, L13)")
    _ev(s, "宾 升 at=西阶", 139)
    _ev(s, "宾 履物 at=右物", 139, "主人为下射，皆当其物，北面揖，及物揖")
    _ev(s, "主人 履物 at=左物", 139)
    r2.shoot(p, line=140)
    _ev(s, "宾 揖", 140, "卒，南面揖")
    _ev(s, "主人 揖", 140)
    bin_(s, 140)
    _ev(s, "宾 降 at=西阶", 140, "皆由其阶，阶上揖，降阶揖")
    _ev(s, "主人 降 at=阼阶", 140)
    _ev(s, "宾 释弓 弓 at=序西", 140, "宾序西，主人序东，皆释弓")
    _ev(s, "宾 说决拾", 141, "说决拾")
    _ev(s, "宾 袭", 141, "袭")
    _ev(s, "主人 释弓 弓 at=序东", 140)
    _ev(s, "主人 说决拾", 141)
    _ev(s, "主人 袭", 141)
    bin_(s, 141)
    _ev(s, "主人 升 at=阼阶", 141, "升，及阶揖，升堂揖 (主人升一等，宾升)")
    _ev(s, "宾 升 at=西阶", 141)
    _ev(s, "宾 就席", 141, "皆就席")
    _ev(s, "主人 就席", 141)
    _ev(s, "司射 反位", 260, "卒射即席，而反位卒事")
    r2.after(p)


def phase29(s: Staging, r2: _Round2) -> None:
    """大夫射 (L142–144): each 大夫 with his 士 partner (the partner is the 上射)."""
    pairs = dafu_pairs(s)
    if not pairs:
        s.comment("L142–144 no 大夫 shoots" if s.o.dafu else "L142–144 若无大夫: no 大夫 shoots")
        return
    if bin_pair(s) is None:
        _dafu_descend(s, with_bin=False)
    for p in pairs:
        d, o = p.lower, p.upper
        if len(pairs) > 1:
            s.comment(f"{p.name}: {o} (上射) / {d} (下射)")
        _ev(s, f"{d} 袒决遂 at=堂西", 142, "大夫袒决遂")
        _ev(s, f"{d} 取弓 弓 at=堂西", 142, "执弓 (唯宾与大夫降阶，遂西取弓矢, L254)")
        _ev(s, f"{d} 取 矢 at=堂西", 142, "")
        _ev(s, f"{d} 搢三挟一个 矢", 142, "搢三挟一个")
        _ev(s, f"{d} 进 at=司射之西", 142, "由堂西出于司射之西，就其耦")
        _ev(s, f"{d} 揖", 143, "大夫为下射，揖进")
        _ev(s, f"{o} 少退", 143, "耦少退")
        _ev(s, f"{o} 揖", 143, "揖如三耦")
        _ev(s, f"{o} 升 at=西阶", 143, "及阶，耦先升")
        _ev(s, f"{d} 升 at=西阶", 143)
        _ev(s, f"{o} 履物 at=右物", 143)
        _ev(s, f"{d} 履物 at=左物", 143)
        r2.shoot(p, line=143)
        _ev(s, f"{d} 揖", 143, "卒射，揖如升射")
        _ev(s, f"{o} 降 at=西阶", 143, "耦先降")
        _ev(s, f"{d} 降 at=西阶", 143)
        _ev(s, f"{o} 少退", 144, "降阶，耦少退")
        _ev(s, f"{o} 释弓 弓 at=堂西", 144, "皆释弓于堂西，袭")
        _ev(s, f"{o} 袭", 144)
        _ev(s, f"{d} 释弓 弓 at=堂西", 144)
        _ev(s, f"{d} 袭", 144)
        _ev(s, f"{d} 升 at=西阶", 144, "耦遂止于堂西，大夫升就席")
        _ev(s, f"{d} 就席", 144)
        r2.after(p)


def phase30(s: Staging, r2: _Round2) -> None:
    """众宾射·告左右卒射 (L145–147)."""
    for k, p in enumerate(zhong_pairs(s)):
        s.comment(f"{p.name}: {p.upper} (上射) / {p.lower} (下射)"
                  + ("; 司射所作，唯上耦 (L145)" if k == 0 else ""))
        ascend_pair(s, p)
        r2.shoot(p, line=145)
        descend_pair(s, p)
        r2.after(p)
    report_done(s, r2.released)


def phase31(s: Staging) -> None:
    """第二番·取矢 (L148–149)."""
    collect_arrows(s, 2)


def phase32(s: Staging) -> str:
    """数获·告贤获 (L150–157); returns the outcome."""
    right, left = tallies(results_for(s, 2))
    if s.o.dafu_partner_loses and s.o.outcome[0] != "左":
        s.comment("dafu_partner_loses: the 大夫 (左) wins and his partner (右) loses, so the left wins")
    return count_and_announce(s, 2, right, left)


def phase33(s: Staging) -> None:
    """饮不胜者 (L158–169)."""
    drink_losers(s, 2, losers_for(s, 2))


def phases(s: Staging) -> None:
    """Φ14–Φ33, each phase started with s.phase (which stops at options.until)."""
    before = [("Φ14", "请射", phase14), ("Φ15", "纳射器", phase15), ("Φ16", "比三耦", phase16),
              ("Φ17", "司正为司马·张侯·倚旌", phase17), ("Φ18", "迁乐于下", phase18),
              ("Φ19", "三耦取弓矢", phase19), ("Φ20", "司射诱射", phase20),
              ("Φ21", "第一番射", phase21), ("Φ22", "第一番·取矢·乘矢", phase22),
              ("Φ23", "第二番·请射·比众耦", phase23), ("Φ24", "第二番·三耦拾取矢", phase24),
              ("Φ25", "众宾就射位", phase25), ("Φ26", "第二番·请释获·设中·不贯不释", phase26)]
    for pid, title, fn in before:
        if not s.phase(pid, title):
            return
        fn(s)
    r2 = _Round2(s)
    for pid, title, fn in [("Φ27", "第二番·三耦射，释获", phase27), ("Φ28", "宾·主人射", phase28),
                           ("Φ29", "大夫射", phase29), ("Φ30", "众宾射·告左右卒射", phase30)]:
        if not s.phase(pid, title):
            return
        fn(s, r2)
    for pid, title, fn in [("Φ31", "第二番·取矢", phase31), ("Φ32", "数获·告贤获", phase32),
                           ("Φ33", "饮不胜者", phase33)]:
        if not s.phase(pid, title):
            return
        fn(s)
