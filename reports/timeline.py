"""The swimlane timeline of a trace, as plain geometry for the HTML template.

x is the event index, in percent of the chart's width: the chart fills the width of the page and
is never narrower than PX px per event (a short trace spreads across the page, a long one scrolls
sideways); the geometry is computed at ROOM px (the page's width at a 1400 px window) and written
as percentages (Timeline.pc), so the browser scales it to the width it has. One lane per person of
the cast; the phases as bands; each event a mark in its actor's lane (a line down to
the person it addresses); the violating events red. Below the lanes, one strip per vessel and
implement instance: its machine's state over time, from the replay.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from xiangshe.constraints.check import Finding
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.trace import Event, Trace
from xiangshe.domain.vocabulary import vocabulary
from xiangshe.fsm.replay import Replay
from xiangshe.fsm.table import table_for_object, tables

PX = 4  # px per event at the least: a longer trace scrolls
ROOM = 1150  # px: the width of the chart at a 1400 px window, where a label's fit is judged
MARK_MAX = 8  # px: the widest mark of an event, however wide its column
LANE_H = 18
STRIP_H = 16
HEAD_H = 58  # rounds, phase ids, phase names
RULER_H = 16
ALARM_TOP = HEAD_H
GAP_H = 30  # between the lanes and the strips (their heading)
LABEL_EVERY = 480  # px: a long state segment repeats its label, so that it shows when scrolled
ROUND_NAMES = {1: "第一番射", 2: "第二番射", 3: "第三番射"}
#: the state colours of a strip, pale enough for black text
PALETTE = (
    "#dbe8f6",
    "#f6e3c4",
    "#d6eed5",
    "#f1d5e3",
    "#e6dcf4",
    "#f4f0c2",
    "#cdebea",
    "#f3d9cf",
    "#e0e0e0",
    "#d9e9c6",
    "#f6cfd0",
    "#cfdcf0",
    "#efe1d0",
    "#d5ecdf",
)


@dataclass(frozen=True)
class Lane:
    name: str
    label: str  # name, role, pair
    y: float
    events: int


@dataclass(frozen=True)
class Band:
    x: float
    w: float
    id: str
    name: str
    label: str  # what fits in the band ('' if nothing does)
    id_label: str
    shade: bool
    first_line: int


@dataclass(frozen=True)
class Mark:
    x: float  # the left edge at ROOM scale; cx the centre of the event's column
    y: float
    h: float
    kind: str  # css class: ev, shot-hit, shot-part, shot-miss, tally, bad
    title: str
    to_y: float | None  # the lane of the person addressed (to=/for=)
    href: str | None  # the rule of a violation
    cx: float = 0.0


@dataclass(frozen=True)
class Segment:
    x: float
    w: float
    state: str
    colour: str
    label: str
    title: str
    label_xs: tuple[float, ...] = ()  # where the label is drawn: repeated along a long segment
    label_dxs: tuple[float, ...] = ()  # the same, from the segment's left edge


@dataclass(frozen=True)
class Strip:
    key: str
    machine: str
    y: float
    segments: tuple[Segment, ...]


@dataclass(frozen=True)
class Alarm:
    """A violating event's column (one slice of it per rule broken there), linked to the rule."""

    x: float
    y: float
    h: float
    href: str
    title: str


@dataclass(frozen=True)
class Timeline:
    width: float
    height: float
    lanes: tuple[Lane, ...]
    bands: tuple[Band, ...]
    rounds: tuple[Band, ...]
    marks: tuple[Mark, ...]
    strips: tuple[Strip, ...]
    alarms: tuple[Alarm, ...]
    ticks: tuple[tuple[float, int], ...]
    lanes_bottom: float
    strips_top: float
    px: float  # px per event at ROOM scale (the page scales it)
    mark_w: float
    min_width: float  # px: the chart is never narrower (PX per event)

    def pc(self, x: float) -> str:
        """`x` (at ROOM scale) in percent of the chart's width, for an SVG coordinate."""
        return f"{x * 100 / self.width:.4f}".rstrip("0").rstrip(".") + "%"


def rule_anchor(rule: str) -> str:
    return f"rule-{rule}"


def _fits(text: str, width: float, char: float = 12.5) -> bool:
    return len(text) * char + 4 <= width


def _lane_label(trace: Trace, name: str) -> str:
    p = trace.cast.persons[name]
    parts = [name]
    if p.role != name and not name.startswith(p.role):
        parts.append(p.role)
    if p.pair:
        parts.append(f"{p.pair}{p.side}")
    return " · ".join(parts)


def phase_runs(events: Sequence[Event]) -> Iterator[tuple[int, int, str, str]]:
    """The runs of consecutive events of one phase: (first index, end index, phase id, its name)."""
    phases = vocabulary().phases
    start = 0
    for i in range(1, len(events) + 1):
        if i == len(events) or events[i].phase != events[start].phase:
            pid = events[start].phase or ""
            yield start, i, pid, phases[pid].name if pid else "(no phase)"
            start = i


def _bands(events: Sequence[Event], px: float) -> tuple[list[Band], list[Band]]:
    bands: list[Band] = []
    rounds: list[Band] = []
    for start, end, pid, name in phase_runs(events):
        x, w = start * px, (end - start) * px
        bands.append(
            Band(
                x,
                w,
                pid,
                name,
                name if _fits(name, w) else "",
                pid if _fits(pid, w, 7.5) else "",
                len(bands) % 2 == 1,
                events[start].line,
            )
        )
    start = 0
    for i in range(1, len(events) + 1):
        if i == len(events) or events[i].round != events[start].round:
            rnd = events[start].round
            if rnd:
                x, w = start * px, (i - start) * px
                name = ROUND_NAMES.get(rnd, f"round {rnd}")
                rounds.append(Band(x, w, str(rnd), name, name if _fits(name, w) else "", "", False, events[start].line))
            start = i
    return bands, rounds


def _kind(e: Event) -> str:
    if e.act == "射":
        return {"中正": "shot-hit", "中侯": "shot-part"}.get(e.get("result") or "", "shot-miss")
    if e.act == "释获":
        return "tally"
    return "ev"


def _event_title(e: Event) -> str:
    phase = f"{e.phase} " if e.phase else ""
    return f"#{e.index + 1}  line {e.line}  {phase}{e.render()}"


def findings_by_event(trace: Trace, findings: Sequence[Finding]) -> dict[int, list[Finding]]:
    """Each finding at its event; one located only by a line goes to the first event from there."""
    out: dict[int, list[Finding]] = {}
    for f in findings:
        at = f.event
        if at is None and f.line:
            at = next((e.index for e in trace.events if e.line >= f.line), None)
        if at is not None:
            out.setdefault(at, []).append(f)
    return out


def _strips(trace: Trace, rep: Replay, px: float, top: float) -> list[Strip]:
    """The state of every vessel and implement named in the trace, event by event."""
    order = {t.name: n for n, t in enumerate(sorted(tables(), key=_machine_rank))}
    seen: dict[str, tuple] = {}
    for e in trace.events:
        if e.obj is not None and e.obj.key not in seen:
            t = table_for_object(e.obj.kind)
            if t is not None:
                seen[e.obj.key] = (order[t.name], e.obj.kind, e.obj.instance.isdigit(), e.obj.instance.zfill(3), t)
    keys = sorted(seen, key=lambda k: seen[k][:4])
    state = {k: seen[k][4].initial for k in keys}
    runs: dict[str, list[list]] = {k: [[0, state[k]]] for k in keys}
    for e in trace.events:
        if e.obj is None or e.obj.key not in state:
            continue
        for who, _before, after in rep.changes[e.index]:
            if who == e.obj.key and after != state[who]:
                state[who] = after
                runs[who].append([e.index + 1, after])
    end = len(trace.events)
    out = []
    for n, k in enumerate(keys):
        t = seen[k][4]
        colours = {s: PALETTE[i % len(PALETTE)] for i, s in enumerate(t.states)}
        segs = []
        for i, (start, st) in enumerate(runs[k]):
            stop = runs[k][i + 1][0] if i + 1 < len(runs[k]) else end
            if stop <= start:
                continue
            x, w = start * px, (stop - start) * px
            gloss = dict(t.state_gloss).get(st)
            title = f"{k}: {st}  (events {start + 1}–{stop}{', ' + gloss if gloss else ''})"
            label = st if _fits(st, w, 11) else ""
            dxs = tuple(3 + k * LABEL_EVERY for k in range(int((w - 40) // LABEL_EVERY) + 1)) if label else ()
            segs.append(Segment(x, w, st, colours[st], label, title, tuple(x + d for d in dxs), dxs))
        out.append(Strip(k, t.name, top + n * STRIP_H, tuple(segs)))
    return out


#: vessels first, then the implements of the archery, then the rest
_FIRST = ("爵", "觯", "侯", "旌", "算", "中", "楅", "扑", "丰", "弓", "矢")


def _machine_rank(t) -> tuple[int, str]:
    names = [o for o in t.objects if o in _FIRST]
    return (_FIRST.index(names[0]) if names else len(_FIRST), t.slug)


def scale(n_events: int, room: int = ROOM) -> float:
    """px per event at ROOM scale: a short trace fills the page, a long one scrolls at PX per event."""
    return max(float(PX), room / max(n_events, 1))


def _tick_step(px: float) -> int:
    for step in (1, 2, 5, 10, 20, 50, 100, 200, 500):
        if step * px >= 90:
            return step
    return 1000


def timeline(trace: Trace, rep: Replay, findings: Sequence[Finding], px: float | None = None) -> Timeline:
    events = trace.events
    px = px or scale(len(events))
    mark_w = min(px - 1, MARK_MAX)
    names = list(trace.cast.persons)
    counts = {n: 0 for n in names}
    for e in events:
        counts[e.actor] = counts.get(e.actor, 0) + 1
    top = HEAD_H + RULER_H
    lanes = [Lane(n, _lane_label(trace, n), top + i * LANE_H, counts[n]) for i, n in enumerate(names)]
    lane_y = {lane.name: lane.y for lane in lanes}
    bad = findings_by_event(trace, findings)
    marks, alarms = [], []
    for e in events:
        x = e.index * px + (px - 1 - mark_w) / 2
        y = lane_y[e.actor]
        other = e.get("to") or e.get("for")
        to_y = lane_y[other] + LANE_H / 2 if other in lane_y and other != e.actor else None
        title = _event_title(e)
        found = bad.get(e.index)
        if found:
            rules = list(dict.fromkeys(f.rule for f in found))
            why = "\n".join(f"✗ {f.rule}{' ' + f.name if f.name else ''}: {f.message}" for f in found)
            href = "#" + rule_anchor(rules[0])
            marks.append(Mark(x, y + 1, LANE_H - 2, "bad", f"{title}\n{why}", to_y, href, (e.index + 0.5) * px))
            alarms.append((e.index * px, rules, f"{title}\n{why}"))
        else:
            marks.append(Mark(x, y + 4, LANE_H - 8, _kind(e), title, to_y, None, (e.index + 0.5) * px))
    lanes_bottom = top + len(lanes) * LANE_H
    strips_top = lanes_bottom + GAP_H
    strips = _strips(trace, rep, px, strips_top)
    height = strips_top + len(strips) * STRIP_H + 8
    columns = []
    for x, rules, why in alarms:
        h = (height - ALARM_TOP) / len(rules)
        columns += [Alarm(x, ALARM_TOP + k * h, h, "#" + rule_anchor(r), why) for k, r in enumerate(rules)]
    bands, rounds = _bands(events, px)
    ticks = tuple((i * px, i) for i in range(0, len(events) + 1, _tick_step(px)))
    return Timeline(
        max(len(events), 1) * px,
        height,
        tuple(lanes),
        tuple(bands),
        tuple(rounds),
        tuple(marks),
        tuple(strips),
        tuple(columns),
        ticks,
        lanes_bottom,
        strips_top,
        px,
        mark_w,
        max(len(events), 1) * PX,
    )
