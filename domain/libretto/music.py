"""Helpers the libretto calls (see perform.py). Keep this small: prefer the templates.

The beats of round 3, shot to 《驺虞》: 「不鼓不释」 (L193), only a 中正 on the beat is tallied (R154).
"""

from __future__ import annotations

import random

from xiangshe.domain.libretto.arrows import Arrows, tallies
from xiangshe.domain.libretto.options import SIDES

Beats = dict[str, tuple[tuple[str, ...], tuple[str, ...]]]  # pair name -> (上射's four, 下射's four)


def beats(arrows: Arrows) -> Beats:
    """Per pair, the beats of round 3 (是 on the beat, 否 off it), fitted to the outcome of round 3.

    A shot that is not a 中正 falls on or off the beat at random; a 中正 is on the beat, except a few
    of the shooters not given in options.arrows, chosen so that the tallies still give the outcome:
    they show 不鼓不释 at work (a 中正 off the beat is called by the 获者 but not tallied)."""
    o, results = arrows.o, arrows.results(3)
    rng = random.Random(o.seed * 7919 + 3)
    out = {
        p.name: [["是" if r == "中正" or rng.random() < 0.7 else "否" for r in rs] for rs in results[p.name]]
        for p in arrows.cast.pairs
    }
    right, left = tallies(results)
    free = [
        (p.name, k, i)
        for p in arrows.cast.pairs
        for k, side in enumerate(SIDES)
        if f"3:{p.name}:{side}" not in o.arrows
        for i, r in enumerate(results[p.name][k])
        if r == "中正"
    ]
    rng.shuffle(free)
    off = [0, 0]
    outcome = o.outcome[1]
    for name, k, i in free[: max(1, len(free) // 5)]:
        r, left_ = right - off[0] - (k == 0), left - off[1] - (k == 1)
        if outcome != "钧" and ((r > left_) if outcome == "右" else (left_ > r)):
            out[name][k][i] = "否"
            off[k] += 1
    if outcome == "钧":  # 钧: one 中正 of each side off the beat
        rs, ls = [x for x in free if x[1] == 0], [x for x in free if x[1] == 1]
        if rs and ls and right > 1:
            for name, k, i in (rs[0], ls[0]):
                out[name][k][i] = "否"
    return {name: (tuple(u), tuple(w)) for name, (u, w) in out.items()}


def scored(arrows: Arrows, beat: Beats) -> tuple[int, int]:
    """The tallies of round 3 (右, 左): the 中正 on the beat."""
    res = arrows.results(3)
    return tuple(
        sum(r == "中正" and b == "是" for name in res for r, b in zip(res[name][k], beat[name][k], strict=False))
        for k in (0, 1)
    )  # type: ignore[return-value]
