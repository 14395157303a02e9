"""The arrows of a staging: where each one strikes, the tallies, the winners, the counts in 纯.

Round 1 is the 三耦's alone and scores nothing (获而未释获); rounds 2 and 3 give the outcome the
options ask for (若右胜 / 左胜 / 左右钧). The canonical staging's arrows are fixed below; other
stagings draw theirs from `random.Random(seed)` and change as few as needed to reach the outcome.
"""

from __future__ import annotations

import random

from xiangshe.domain.libretto.cast import Cast
from xiangshe.domain.libretto.options import SIDES, StagingError

HITS = ("中正", "中侯")  # the 获者 calls a hit on the 侯; only 中正 is tallied (郑注 「不中正不釋算也」)
Results = dict[str, tuple[tuple[str, ...], tuple[str, ...]]]  # pair name -> (上射's four, 下射's four)

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


def num(n: int) -> str:
    """A number in Chinese (0–99)."""
    if n < 10:
        return DIGITS[n]
    tens, units = divmod(n, 10)
    return ("" if tens == 1 else DIGITS[tens]) + "十" + (DIGITS[units] if units else "")


def chun(n: int) -> str:
    """A count of tallies in 纯 (two) and 奇 (one): 10 → 五纯, 7 → 三纯一奇, 1 → 一奇."""
    pairs, odd = divmod(n, 2)
    words = (f"{num(pairs)}纯" if pairs else "") + ("一奇" if odd else "")
    return words or "零"


def tallies(results: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]) -> tuple[int, int]:
    """The tallies of a round's results (pair name -> (上射's, 下射's)): (右, 左), one per 中正 (a hit on the 正)."""
    right = sum(r == "中正" for up, _ in results.values() for r in up)
    left = sum(r == "中正" for _, low in results.values() for r in low)
    return right, left


def _fit(res: dict[str, list[list[str]]], fixed: set[tuple[str, int]], outcome: str, rng: random.Random) -> None:
    """Change free arrows (not given in options.arrows) until the tallies give `outcome`."""

    def margin() -> int:
        right, left = tallies({k: (tuple(u), tuple(w)) for k, (u, w) in res.items()})
        return right - left

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


class Arrows:
    """The results of each round for one cast (computed once per round)."""

    def __init__(self, cast: Cast) -> None:
        self.cast, self.o = cast, cast.o
        self._rounds: dict[int, Results] = {}

    def outcome(self, rnd: int) -> str:
        """The winning side of round `rnd` (2 or 3): 右, 左 or 钧. In round 2, dafu_partner_loses makes
        it 左: the 大夫 is a 下射 (左) and the winners are a whole side (右贤于左 / 左贤于右)."""
        if rnd == 2:
            return "左" if self.o.dafu_partner_loses else self.o.outcome[0]
        return self.o.outcome[1]

    def results(self, rnd: int) -> Results:
        """Round `rnd`'s arrows. Explicit ones (options.arrows, key "<round>:<pair>:上射|下射") are kept;
        the rest are the canonical ones (seed 0) or drawn, then fitted to the outcome."""
        if rnd in self._rounds:
            return self._rounds[rnd]
        rng = random.Random(self.o.seed * 1009 + rnd)
        pairs = self.cast.pairs[:3] if rnd == 1 else self.cast.pairs
        res: dict[str, list[list[str]]] = {}
        fixed: set[tuple[str, int]] = set()
        canon = CANONICAL_RESULTS.get(rnd, {}) if self.o.seed == 0 else {}
        for p in pairs:
            both = []
            for k, side in enumerate(SIDES):
                key = f"{rnd}:{p.name}:{side}"
                if key in self.o.arrows:
                    both.append(list(self.o.arrows[key]))
                    fixed.add((p.name, k))
                elif p.name in canon:
                    both.append(list(canon[p.name][k]))
                else:
                    both.append(rng.choices(("中正", "中侯", "不中"), weights=(4, 2, 4), k=4))
            res[p.name] = both
        if rnd >= 2:
            _fit(res, fixed, self.outcome(rnd), rng)
        self._rounds[rnd] = {name: (tuple(u), tuple(w)) for name, (u, w) in res.items()}
        return self._rounds[rnd]

    def losers(self, rnd: int) -> list[str]:
        """The losing side's member of each pair, in the shooting order; nobody if 左右钧."""
        outcome = self.outcome(rnd)
        if outcome == "钧":
            return []
        return [p.lower if outcome == "右" else p.upper for p in self.cast.pairs]


def announced(margin: int) -> str:
    """The count said with 「右贤于左」/「左贤于右」 (以纯数告；若有奇者，亦曰奇) as attributes:
    3 → ` chun=一 qi=一`."""
    pairs, odd = divmod(margin, 2)
    return (f" chun={num(pairs)}" if pairs else "") + (" qi=一" if odd else "")
