"""Every reading at once: the contested points of readings.toml that bear on a staging, the
combinations of their readings, the staging checked under each, and what changes between them.

A point bears on a staging when something whose meaning depends on it applies there:

- a rule whose `when` names the point and whose gate (constraints/gates.py) the staging opens — a
  rule that can find nothing in the staging, under any reading, does not make its point matter;
- the scoring audit (constraints/scoring.py): 贯 (`guan`) where a shot of rounds 2–3 has a result
  that scores under one reading and not under another (中侯); 贤获 (`xian-huo`) where a round's
  announcement names a winner (N10 compares the count said with the 贤获 under the reading).

A bearing point varies when it has two or more readings that can be checked; a reading that cannot
be checked on a trace (`encoded = false`) is named with its reason and never checked under. A point
the user pinned (`--reading point=option`) is held at that option. The combinations are the product
of the varying points' readings, in readings.toml's order, each point's default first, so the first
combination is the readings in force; at most `limit` of them are checked, and a comparison that
stops there says so (`complete` is False: `readings` exits 3, never "holds under every reading").

Each combination is checked exactly as `check --reading …` checks it (`check_trace` under the rules
active in it), then `finish` (the linter's selection and inline suppressions, when the command line
has them); the findings are compared by rule, line, event and message.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from functools import cache

from xiangshe.constraints.check import Finding, Result, check_trace
from xiangshe.constraints.gates import plan
from xiangshe.constraints.pattern import Context
from xiangshe.constraints.readings import Readings, defaults, points
from xiangshe.constraints.rulebook import Rule, active_rules, rulebook
from xiangshe.constraints.scoring import SCORING, WORDS
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.messages import Message
from xiangshe.domain.trace import Trace
from xiangshe.fsm.replay import replay

#: the combinations checked at most, unless the command line says otherwise
LIMIT = 64

#: a finding as the comparison tells findings apart
Key = tuple[str, int | None, int | None, str]


@dataclass(frozen=True)
class Bearing:
    """A contested point that bears on the staging: why (the rules and audit checks that apply),
    the readings it is checked under (the default first, or only the pinned one) and those that
    cannot be checked."""

    point: str
    why: tuple[str, ...]
    options: tuple[str, ...]
    unchecked: tuple[str, ...]
    pinned: bool = False

    @property
    def varies(self) -> bool:
        return len(self.options) > 1


@dataclass(frozen=True)
class Under:
    """The staging checked under one combination of readings."""

    readings: dict[str, str]  # every point, as `check --reading …` would have them
    varied: tuple[tuple[str, str], ...]  # the varying points' readings in this combination
    result: Result

    @property
    def ok(self) -> bool:
        return self.result.ok


@dataclass(frozen=True)
class Change:
    """A finding that some combinations have and others not: the combinations that have it."""

    finding: Finding
    under: tuple[int, ...]  # indices into Comparison.combinations


@dataclass(frozen=True)
class Comparison:
    """A staging under every combination of the readings that bear on it."""

    path: str
    events: int
    bearing: tuple[Bearing, ...]
    combinations: tuple[Under, ...]  # those checked, in order (the first: the readings in force)
    total: int  # how many combinations there are
    stable: tuple[Finding, ...]  # the findings under every combination checked
    changes: tuple[Change, ...]  # the findings under some combinations only

    @property
    def complete(self) -> bool:
        return len(self.combinations) == self.total

    @property
    def varying(self) -> tuple[Bearing, ...]:
        return tuple(b for b in self.bearing if b.varies)

    @property
    def holds(self) -> tuple[int, ...]:
        return tuple(i for i, u in enumerate(self.combinations) if u.ok)

    @property
    def fails(self) -> tuple[int, ...]:
        return tuple(i for i, u in enumerate(self.combinations) if not u.ok)

    @property
    def flips(self) -> bool:
        """The verdict differs between the combinations checked."""
        return bool(self.holds) and bool(self.fails)

    def deciding(self) -> tuple[str, ...]:
        """The varying points the verdict turns on: those where two combinations that differ in
        that point alone have different verdicts."""
        return self._turning(lambda u: u.ok)

    def differing(self) -> tuple[str, ...]:
        """The varying points the findings turn on (as `deciding`, for the findings themselves)."""
        return self._turning(lambda u: frozenset(map(key, u.result.findings)))

    def _turning(self, value: Callable[[Under], object]) -> tuple[str, ...]:
        seen = {u.varied: value(u) for u in self.combinations}
        out = []
        for i, b in enumerate(self.varying):
            for varied, v in seen.items():
                others = ((*varied[:i], (b.point, o), *varied[i + 1 :]) for o in b.options if o != varied[i][1])
                if any(other in seen and seen[other] != v for other in others):
                    out.append(b.point)
                    break
        return tuple(out)


def key(f: Finding) -> Key:
    return (f.rule, f.line, f.event, str(f.message))


@cache
def conditional_rules() -> tuple[Rule, ...]:
    """The encoded rules of the rulebook that hold under some readings only (`when`)."""
    return tuple(r for r in rulebook() if r.when and r.encoded)


def bearing(trace: Trace, base: Readings | None = None, pinned: Sequence[str] = ()) -> tuple[Bearing, ...]:
    """The contested points that bear on `trace`, in readings.toml's order (see the module's doc)."""
    chosen = base or defaults()
    ctx = Context(trace, replay(trace))
    why: dict[str, list[str]] = {}
    for r in plan(conditional_rules()).run(ctx):
        for point, _ in r.when:
            if r.id not in why.setdefault(point, []):
                why[point].append(r.id)
    why.update({p: why.get(p, []) + w for p, w in _audit_bearing(trace).items()})
    out = []
    for name, p in points().items():
        if name not in why:
            continue
        encoded = [o for o in p.options.values() if o.encoded]
        options: tuple[str, ...]
        if name in pinned:
            options = (chosen[name],)
        else:
            options = tuple(sorted((o.name for o in encoded), key=lambda o: o != p.default))
        unchecked = tuple(o.name for o in p.options.values() if not o.encoded)
        out.append(Bearing(name, tuple(why[name]), options, unchecked, name in pinned))
    return tuple(out)


def _audit_bearing(trace: Trace) -> dict[str, list[str]]:
    """The points the scoring audit reads that bear on `trace`: 贯 where a shot of rounds 2–3 has a
    result that scores under some encoded reading of 贯 and not under another; 贤获 where an
    announcement names a winner."""
    scoring = list(SCORING.values())
    disputed = {r for s in scoring for r in s} - {r for r in scoring[0] if all(r in s for s in scoring)}
    shots = [e.line for e in trace if e.act == "射" and e.round in (2, 3) and e.get("result") in disputed]
    wins = [e.line for e in trace if e.act == "告" and e.round and e.get("words") in (WORDS["右"], WORDS["左"])]
    out: dict[str, list[str]] = {}
    if shots:
        out["guan"] = [Message("readings.audit-guan", n=len(shots), line=shots[0])]
    if wins:
        out["xian-huo"] = [Message("readings.audit-xian-huo", n=len(wins), line=wins[0])]
    return out


def combinations(bears: Sequence[Bearing], base: Readings | None = None) -> tuple[Iterator[Readings], int]:
    """Every combination of the bearing points' readings over `base` (the first: the readings in
    force), lazily, so that a bound never builds the whole product; and how many there are."""
    chosen = base or defaults()
    varying = [b for b in bears if b.varies]
    fixed = chosen | {b.point: b.options[0] for b in bears}
    names = [b.point for b in varying]
    product = itertools.product(*(b.options for b in varying))
    return (fixed | dict(zip(names, combo, strict=True)) for combo in product), math.prod(
        len(b.options) for b in varying
    )


def compare(
    trace: Trace,
    base: Readings | None = None,
    pinned: Sequence[str] = (),
    limit: int = LIMIT,
    finish: Callable[[Result, Sequence[Rule]], Result] | None = None,
) -> Comparison:
    """Check `trace` under every combination of the readings that bear on it (at most `limit`)."""
    bears = bearing(trace, base, pinned)
    varying = [b.point for b in bears if b.varies]
    every, total = combinations(bears, base)
    under = []
    for readings in itertools.islice(every, max(limit, 1)):
        rules = active_rules(readings)
        result = check_trace(trace, rules, readings)
        if finish is not None:
            result = finish(result, rules)
        under.append(Under(readings, tuple((p, readings[p]) for p in varying), result))
    return Comparison(trace.path, len(trace), bears, tuple(under), total, *_compare(under))


def _compare(under: Sequence[Under]) -> tuple[tuple[Finding, ...], tuple[Change, ...]]:
    seen: dict[Key, tuple[Finding, list[int]]] = {}
    for i, u in enumerate(under):
        for f in u.result.findings:
            got = seen.setdefault(key(f), (f, []))
            if not got[1] or got[1][-1] != i:
                got[1].append(i)
    stable = tuple(f for f, at in seen.values() if len(at) == len(under))
    changes = tuple(Change(f, tuple(at)) for f, at in seen.values() if len(at) < len(under))
    return stable, tuple(sorted(changes, key=lambda c: c.finding.sort_key))
