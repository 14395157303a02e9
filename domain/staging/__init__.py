"""Generate stagings of the whole ceremony from options.

The bundled canonical ceremony and its variants (no 大夫, 诸公 present, who shoots, who wins …)
are all produced here, so that users can make their own starting points with `xiangshe generate`.
Each event carries the line of the text it enacts (`# L14 …`).

The phases are written by four modules, in order: `drinking` (Φ01–Φ13), `archery` (Φ14–Φ33),
`archery3` (Φ34–Φ43) and `after` (Φ44–Φ52). Each exposes `phases(s: Staging) -> None`, writes
its events with `s.ev(text, line, words)`, and stops when `s.phase(…)` returns False.
"""

from __future__ import annotations

from dataclasses import dataclass, field

OUTCOMES = ("右", "左", "钧")          # the right side (上射) wins, the left wins, a tie
RESULTS = ("中正", "中侯", "不中", "射获", "猎获")   # where an arrow strikes (the 获者 calls 中正 and 中侯)
SIDES = ("上射", "下射")
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
    xiangshe.domain.staging.StagingError: 2:上耦:上射=x,y: four results, not 2 (x, y); each one of 中正, 中侯, 不中, 射获, 猎获
    """
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
        what = f"not {len(results)} ({', '.join(results)})" if len(results) != 4 else \
            f"not {', '.join(bad)}"
        raise StagingError(f"{spec}: four results, {what}; each one of {', '.join(RESULTS)}")


@dataclass(frozen=True)
class Options:
    """What a staging varies on (RULES.md §J)."""

    zhongbin: int = 6                 # number of 众宾 (the first three are the 众宾之长)
    dafu: int = 1                     # number of 大夫 (遵者); 0: 若无大夫
    zhugong: int = 0                  # number of 诸公 (记: 若有诸公，则如宾礼，大夫如介礼)
    taishi: bool = True               # a 大师 among the 工 (大师则为之洗)
    bin_zhuren_shoot: bool = True     # the 宾 and the 主人 shoot (as a pair: 主人与宾为耦)
    dafu_shoot: bool = True           # the 大夫 shoot (each with a 士 partner: 大夫与士为耦)
    zhongbin_pairs: int = 1           # pairs of 众宾 shooting, besides the 大夫's partners
    shi_bu_bei: bool = True           # 若矢不备 after round 1 (取矢不索)
    outcome: tuple[str, str] = ("右", "右")   # who wins round 2 and round 3: 右, 左 or 钧
    dafu_partner_loses: bool = False  # in round 2 the 大夫's partner loses and the 大夫 wins
    seed: int = 0                     # varies the arrows' results within the chosen outcomes
    until: str = "Φ52"                # the last phase to stage
    arrows: dict[str, tuple[str, ...]] = field(default_factory=dict, hash=False, compare=False)
    # explicit results: key "2:上耦:上射" → 4 results (中正, 中侯, 不中, 射获, 猎获)

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
        if self.dafu_partner_loses and not (self.dafu and self.dafu_shoot):
            raise StagingError("dafu_partner_loses needs a 大夫 who shoots")
        if self.dafu_partner_loses and self.outcome[0] != "左":
            raise StagingError("dafu_partner_loses: the 大夫 is a 下射, so his side, the left, wins "
                             "round 2; give outcome 左 for round 2")


@dataclass(frozen=True)
class Pair:
    name: str
    upper: str
    lower: str


class Staging:
    """Collects the lines of one staging: cast, pairs, phases and events with their text lines."""

    def __init__(self, options: Options) -> None:
        self.o = options
        self.lines: list[str] = []
        self.cast: list[tuple[str, str, str]] = []      # (name, role, comment)
        self.pairs: list[Pair] = []
        self._build_cast()
        pairs = {p.name for p in self.pairs}
        for key in options.arrows:
            rnd, pair, _ = key.split(":")
            if pair not in pairs:
                from xiangshe.domain.errors import did_you_mean
                raise StagingError(f"arrows {key}: no pair {pair} in this staging; "
                                   f"{did_you_mean(pair, pairs)}")
            if rnd == "1" and pair not in [p.name for p in self.pairs[:3]]:
                raise StagingError(f"arrows {key}: only the 三耦 ({', '.join(p.name for p in self.pairs[:3])}) "
                                   "shoot in round 1")

    # -- who is there ---------------------------------------------------------------------------
    def _build_cast(self) -> None:
        o = self.o
        add = self.cast.append
        add(("主人", "主人", "州长, the host"))
        add(("宾", "宾", "a 公士, since a 大夫 takes part" if o.dafu else "the guest"))
        for name in self.dafu_names:
            add((name, "大夫", "a 遵者"))
        for name in self.zhugong_names:
            add((name, "诸公", "a 公 (记: 若有诸公)"))
        for i in range(1, o.zhongbin + 1):
            add((f"众宾{i}", "众宾", "one of the 众宾之长" if i <= 3 else ""))
        for name, role, note in (("司正", "司正", "the 相, made 司正, who becomes 司马 for the archery"),
                                 ("司射", "司射", ""), ("获者", "获者", ""), ("释获者", "释获者", ""),
                                 ("执算者", "执算者", ""), ("乐正", "乐正", "")):
            add((name, role, note))
        add(("工1", "大师" if o.taishi else "工", "the 大师, one of the 工" if o.taishi else ""))
        for name, role in [("工2", "工"), ("工3", "工"), ("工4", "工"), ("笙1", "笙"), ("笙2", "笙"),
                           ("笙3", "笙"), ("相者1", "相者"), ("相者2", "相者")]:
            add((name, role, ""))
        for i in range(1, 8):
            add((f"弟子{i}", "弟子", "the 三耦 are 弟子" if i == 1 else
                 "a student who does the manual work" if i == 7 else ""))
        for name, role in [("有司", "有司"), ("举觯者1", "举觯者"), ("举觯者2", "举觯者"),
                           ("执爵者", "执爵者"), ("胜者之弟子", "胜者之弟子")]:
            add((name, role, ""))
        for i in (1, 2):                # the cup-bearers of the 无算爵 (Φ48: 执觯者受觯，遂实之)
            add((f"执觯者{i}", "执觯者", ""))
        self.pairs = [Pair("上耦", "弟子1", "弟子2"), Pair("次耦", "弟子3", "弟子4"),
                      Pair("下耦", "弟子5", "弟子6")]
        if o.bin_zhuren_shoot:
            self.pairs.append(Pair("宾耦", "宾", "主人"))
        partner = 4
        if o.dafu_shoot:
            for i, name in enumerate(self.dafu_names):
                self.pairs.append(Pair(f"大夫耦{i + 1}" if o.dafu > 1 else "大夫耦",
                                       f"众宾{partner}", name))
                partner += 1
        for i in range(o.zhongbin_pairs):
            self.pairs.append(Pair(f"众耦{i + 1}" if o.zhongbin_pairs > 1 else "众耦",
                                   f"众宾{partner}", f"众宾{partner + 1}"))
            partner += 2

    @property
    def dafu_names(self) -> list[str]:
        return ["大夫"] if self.o.dafu == 1 else [f"大夫{i}" for i in range(1, self.o.dafu + 1)]

    @property
    def zhugong_names(self) -> list[str]:
        return ["诸公"] if self.o.zhugong == 1 else [f"诸公{i}" for i in range(1, self.o.zhugong + 1)]

    @property
    def shooters(self) -> list[str]:
        return [n for p in self.pairs for n in (p.upper, p.lower)]

    # -- writing --------------------------------------------------------------------------------
    def phase(self, pid: str, title: str) -> bool:
        """Start a phase; False once past `until`, so that a generator can stop early."""
        if pid > self.o.until:
            return False
        self.lines += ["", f"# -- {pid} {title} " + "-" * max(4, 76 - len(title)), f"phase {pid}"]
        return True

    def ev(self, text: str, line: int, note: str = "") -> None:
        """An event and the line of the text it enacts (with the words it enacts, if given)."""
        self.lines.append(f"{text:<44}# L{line}" + (f" {note}" if note else ""))

    def comment(self, text: str) -> None:
        self.lines.append(f"# {text}")

    def text(self, title: str) -> str:
        head = [f"# {title}", "# Generated by `xiangshe generate` (domain/staging); options:",
                f"#   {self.o}", "",
                *([f"fragment Φ01–{self.o.until}", ""] if self.o.until != "Φ52" else []),
                "# -- the occasion: the main text's, as 郑注 and 贾疏 read it (the 州长 shooting in his 序) -----",
                OCCASION, "", "# -- the cast " + "-" * 70]
        for name, role, note in self.cast:
            head.append(f"cast {name} {role}" + (f"    # {note}" if note else ""))
        head += ["", "# -- the pairs (耦): 上射 is the senior, on the right " + "-" * 30]
        head += [f"pair {p.name} 上射={p.upper} 下射={p.lower}" for p in self.pairs]
        return "\n".join(head + self.lines) + "\n"


#: the default occasion (domain/occasion.py), written out: 「此射於序」 (郑注), 「釋獲者執鹿中」
OCCASION = "occasion presiding=州长 venue=序 hou=采侯 zhong=鹿中 jing=翿旌"


def generate(options: Options | None = None, title: str = "乡射礼 — a staging") -> str:
    """The staging for `options`, as trace text."""
    from xiangshe.domain.staging import after, archery, archery3, drinking

    s = Staging(options or Options())
    for module in (drinking, archery, archery3, after):
        module.phases(s)
    return s.text(title)
