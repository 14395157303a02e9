"""The libretto's performance as the repair search aligns a staging with it (constraints/repair.py):
each event of the canonical performance for a cast's options, with the clause it enacts, located by
the program (domain/text.py); the libretto's pairs; the options a staging's cast suggests."""

from __future__ import annotations

import re
from functools import cache

from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.text import TEXT, Citation
from xiangshe.domain.trace import Trace


@dataclass(frozen=True)
class Expected:
    """One event of the libretto's performance: its phase, its line-format text, the clause it enacts."""

    phase: str | None
    body: str
    key: tuple[str | None, str]
    cite: Citation | None
    act: str
    obj: str | None
    actor: str


_NOTE = re.compile(r"\s*\([^()]*\)\s*$")
_WHERE = re.compile(r"L(\d+)(?:[–-](\d+))?\s*(.*)$")


def _clause(comment: str) -> tuple[int, int, list[str]] | None:
    """(first line, last line, quotes) of a libretto comment `L15–16 主人坐… (note)`; no quotes
    when it only names the lines (the events after the first of a clause)."""
    m = _WHERE.match(comment.strip())
    if not m:
        return None
    lo = int(m.group(1))
    hi = int(m.group(2) or lo)
    rest = m.group(3).strip()
    while True:
        cut = _NOTE.sub("", rest)
        if cut == rest:
            break
        rest = cut.strip()
    quotes = [q.strip() for q in rest.split(" … ") if q.strip() and not q.strip().startswith("(")]
    return lo, hi, quotes


def _cite(quote: str, lo: int, hi: int) -> Citation | None:
    """`quote` located by the program (domain/text.py) at its occurrence within lines lo–hi."""
    found = TEXT.occurrences(quote)
    if not found:
        return None
    first, last = min(found, key=lambda f: (not (lo <= f[0] <= hi), abs(f[0] - lo)))
    return TEXT.cite(quote, first)


@cache
def reference(dafu: int = 1, zhugong: int = 0, zhongbin: int = 6, taishi: bool = True) -> tuple[Expected, ...]:
    """The libretto performed for these options: each event with the clause it enacts (kept with the
    other derived artefacts, domain/cache.py: the key names the libretto's templates)."""
    from xiangshe.domain.cache import derived
    from xiangshe.domain.libretto.perform import LIBRETTO

    sources = [(p.name, p) for p in sorted(LIBRETTO.glob("*.j2"))]
    name = f"repair-reference-{dafu}-{zhugong}-{zhongbin}-{int(taishi)}"
    return derived(name, sources, lambda: _perform(dafu, zhugong, zhongbin, taishi))


@cache
def pairs(dafu: int = 1, zhugong: int = 0, zhongbin: int = 6, taishi: bool = True) -> dict[str, str]:
    """The libretto's pairs (耦) for these options, by name, as `pair` lines."""
    from xiangshe.domain.libretto import Cast, Options

    try:
        options = Options(dafu=dafu, zhugong=zhugong, zhongbin=zhongbin, taishi=taishi)
    except Exception:  # noqa: BLE001 — options the libretto refuses: the canonical cast
        options = Options()
    return {p.name: f"pair {p.name} 上射={p.upper} 下射={p.lower}" for p in Cast(options).pairs}


def _perform(dafu: int, zhugong: int, zhongbin: int, taishi: bool) -> tuple[Expected, ...]:
    from xiangshe.domain.libretto import Options, performance

    try:
        options = Options(dafu=dafu, zhugong=zhugong, zhongbin=zhongbin, taishi=taishi)
    except Exception:  # noqa: BLE001 — options the libretto refuses: the canonical performance
        options = Options()
    out: list[Expected] = []
    phase: str | None = None
    cite: Citation | None = None
    for raw in performance(options).lines:
        body, _, comment = raw.partition("#")
        body = " ".join(body.split())
        if not body:
            continue
        if body.startswith("phase "):
            phase = body.split()[1]
            continue
        clause = _clause(comment)
        if clause is not None and clause[2]:
            lo, hi, quotes = clause
            cite = _cite(quotes[0], lo, hi) or cite
        words = body.split()
        plain = [w for w in words if "=" not in w]
        obj = plain[2] if len(plain) > 2 else None
        out.append(Expected(phase, body, (phase, body), cite, plain[1], obj, plain[0]))
    return tuple(out)


def options_of(trace: Trace) -> tuple[int, int, int, bool]:
    """The libretto's options a staging's cast suggests: its 大夫, 公 and 众宾, a 大师 among the 工
    (a fragment is aligned with the canonical performance)."""
    if trace.fragment is not None:
        return (1, 0, 6, True)
    roles = [p.role for p in trace.cast.persons.values()]
    zhongbin = max(3, roles.count("众宾")) if "众宾" in roles else 6
    return (roles.count("大夫"), roles.count("公"), zhongbin, "大师" in roles or "工" not in roles)


def _label(options: tuple[int, int, int, bool]) -> str:
    dafu, zhugong, zhongbin, taishi = options
    return f"dafu={dafu} zhugong={zhugong} zhongbin={zhongbin} taishi={'yes' if taishi else 'no'}"
