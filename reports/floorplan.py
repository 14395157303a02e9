"""The floor plan in the HTML report: where everyone stands, phase by phase (small multiples).

Each phase of the trace gets one self-contained SVG panel: the 堂 and the 庭 drawn from the table
domain/floorplan.toml (its outline and its landmarks: 阼阶, 西阶, 序, 楹, 物, 侯, 乏, 洗, 篚, 中, 楅 …);
for each person acting in the phase, his positions — the `at=` places of his events, in order — with
an arrow for each move between two successive places; a person with no `at=` in the phase stands at
his station (his 位, from the table), drawn hollow; a violation is marked at the place of its event
(the event's `at=`, else where its actor stands then), with the finding's rule id in its <title>.
Labels are placed so that no two overlap (first free spot around the point, else the panel's list).
The layout is computed here; reports/templates/floorplan.svg.j2 writes each panel (autoescaped:
nothing from the trace reaches the SVG raw).
"""

from __future__ import annotations

from collections.abc import Sequence

from xiangshe.constraints.check import Finding
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.floorplan import HEIGHT, WIDTH, FloorPlan, Point, floorplan
from xiangshe.domain.occasion import occasion_of
from xiangshe.domain.trace import Event, Trace
from xiangshe.domain.vocabulary import vocabulary
from xiangshe.reports.timeline import findings_by_event, rule_anchor

SCALE = 2.2  # px per unit of the plan
PAD = 6.0
PANEL_W = WIDTH * SCALE + 2 * PAD
PANEL_H = HEIGHT * SCALE + 2 * PAD
FONT = '"Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Micro Hei", "PingFang SC", "Microsoft YaHei", sans-serif'
PERSON_SIZE = 10.0
LANDMARK_SIZE = 9.0
DOT = 3.2
MARK = 7.2  # the radius of a violation's ring
CROWD_ROW = 6  # people side by side at one point, in rows of this many
#: colours by role (the rest: ink)
COLOURS = {
    "宾": "#3f5f8f",
    "主人": "#8f3f3f",
    "大夫": "#7a3f99",
    "众宾": "#2f7d7d",
    "乐正": "#2f7d5b",
    "工": "#2f7d5b",
    "大师": "#2f7d5b",
    "笙": "#2f7d5b",
    "司射": "#b7791f",
    "司正": "#8a5a2b",
    "获者": "#6b7d2f",
    "释获者": "#b0447a",
    "弟子": "#6f6a64",
}

Box = tuple[float, float, float, float]  # x0, y0, x1, y1


def text_width(text: str, size: float) -> float:
    """A generous estimate of the drawn width: a CJK character is one em, anything else 0.62 em."""
    return sum(size if ord(c) > 0x2E7F else 0.62 * size for c in text)


def label_box(x: float, y: float, text: str, size: float, width: float | None = None) -> Box:
    """The box of a label drawn with text-anchor start at (x, y), y its baseline (`width`: its text_width)."""
    w = text_width(text, size) if width is None else width
    return (x - 1, y - 0.92 * size, x + w + 1, y + 0.28 * size)


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def px(p: Point) -> Point:
    return (PAD + p[0] * SCALE, PAD + p[1] * SCALE)


class Labeller:
    """Places labels one by one where they overlap no box placed before (the dots', the marks', the
    labels') and stay in the panel. The boxes are kept in a grid of CELL px, so that a spot is tested
    only against the boxes near it."""

    CELL = 24.0
    #: spots tried around the anchor: (-1 left of it, 0 centred on it, 1 right of it; the baseline's
    #: offset from it, in font sizes), nearest first, then further out
    SPOTS = ((1, 0.35), (-1, 0.35), (0, -0.55), (0, 1.25), (1, -0.55), (1, 1.25), (-1, -0.55), (-1, 1.25))
    RINGS = (1.0, 1.8, 2.8, 4.0, 5.5, 7.0, 9.0)

    def __init__(self, boxes: Sequence[Box] = ()) -> None:
        self.grid: dict[tuple[int, int], list[Box]] = {}
        for box in boxes:
            self.add(box)

    def _cells(self, box: Box) -> list[tuple[int, int]]:
        c = self.CELL
        return [
            (i, j)
            for i in range(int(box[0] // c), int(box[2] // c) + 1)
            for j in range(int(box[1] // c), int(box[3] // c) + 1)
        ]

    def add(self, box: Box) -> None:
        for cell in self._cells(box):
            self.grid.setdefault(cell, []).append(box)

    def free(self, box: Box) -> bool:
        x0, y0, x1, y1 = box
        return not any(
            x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1
            for cell in self._cells(box)
            for b in self.grid.get(cell, ())
        )

    def place(self, anchor: Point, text: str, size: float) -> tuple[float, float] | None:
        """The baseline start of the label, or None when no spot is free."""
        w = text_width(text, size)
        for ring in self.RINGS:
            for side, dy in self.SPOTS:
                gap = (DOT + 2) * ring
                x = anchor[0] + gap if side > 0 else anchor[0] - gap - w if side < 0 else anchor[0] - w / 2
                x, y = round(x, 1), round(anchor[1] + dy * size * ring, 1)  # as the SVG writes them
                box = label_box(x, y, text, size, w)
                if box[0] < 0 or box[1] < 0 or box[2] > PANEL_W or box[3] > PANEL_H:
                    continue
                if self.free(box):
                    self.add(box)
                    return (x, y)
        return None


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    title: str


@dataclass(frozen=True)
class Move:
    x0: float
    y0: float
    x1: float
    y1: float
    title: str


@dataclass(frozen=True)
class Figure:
    """One person in one phase: his dots (in order), the moves between them, his colour."""

    name: str
    colour: str
    station: bool  # no at= in the phase: drawn at his station, hollow
    dots: tuple[Dot, ...]
    moves: tuple[Move, ...]


@dataclass(frozen=True)
class Label:
    x: float
    y: float
    text: str
    size: float
    kind: str  # landmark | person
    title: str = ""
    colour: str = "#2a2520"
    leader: tuple[float, float, float, float] | None = None  # a line from the point to a label set far off


@dataclass(frozen=True)
class ViolationMark:
    x: float
    y: float
    rules: tuple[str, ...]
    href: str
    place: str
    line: int
    title: str


@dataclass(frozen=True)
class Shape:
    kind: str  # line | rect | circle | cross
    cls: str
    coords: tuple[float, ...]


@dataclass(frozen=True)
class Panel:
    phase: str
    name: str
    index: int  # for ids unique in the page
    shapes: tuple[Shape, ...]
    figures: tuple[Figure, ...]
    labels: tuple[Label, ...]
    marks: tuple[ViolationMark, ...]
    unplaced: tuple[str, ...]  # acting in the phase, but with no place and no station
    unlabelled: tuple[str, ...]  # drawn, but no free spot for the label: listed under the panel
    unmarked: int  # violations of the phase with no place to mark
    width: float = PANEL_W
    height: float = PANEL_H
    font: str = FONT
    dot: float = DOT
    mark_r: float = MARK

    @property
    def persons(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.figures)


#: how many later events of the phase on the same object are searched for the one who takes it
HANDOVER = 4


def concerned_role(trace: Trace, e: Event, roles: dict[str, Point], later: Sequence[Event] = ()) -> str | None:
    """For a place relative to someone (a mat, a 荐), the role it is taken for: the `to=` person's;
    else that of the next other person to handle the event's object (within its next HANDOVER events) (主人 实 爵1
    at=席前, then 宾 受 爵1: the 宾's mat); else the actor's. None if the place has no point for it."""
    names = [e.get("to")]
    if e.obj is not None:
        handled = [n for n in later if n.obj == e.obj][:HANDOVER]
        names += [n.actor for n in handled if n.actor != e.actor][:1]
    for name in [*names, e.actor]:
        person = trace.cast.persons.get(name) if name else None
        if person is not None:
            for role in _roles_of(person.role):
                if role in roles:
                    return role
    return None


def _roles_of(role: str) -> tuple[str, ...]:
    term = vocabulary().roles.get(role)
    parent = getattr(term, "kind_of", None)
    return (role, parent) if parent else (role,)


def event_point(trace: Trace, e: Event, plan: FloorPlan, venue: str, later: Sequence[Event] = ()) -> Point | None:
    """Where the event happens on the plan (its at= place, for the person it concerns), or None."""
    code = e.get("at")
    place = plan.places.get(code) if code else None
    if place is None or place.point is None:
        return None
    return place.at(concerned_role(trace, e, place.roles, later) if place.roles else None, venue)


def panels(trace: Trace, findings: Sequence[Finding], plan: FloorPlan | None = None) -> list[Panel]:
    """One panel per phase of the trace, in the trace's order."""
    plan = plan or floorplan()
    venue = occasion_of(trace.cast).venue
    bad = findings_by_event(trace, findings)
    by_phase: dict[str, list[Event]] = {}
    for e in trace.events:
        if e.phase:
            by_phase.setdefault(e.phase, []).append(e)
    return [_panel(trace, phase, events, plan, venue, bad, n) for n, (phase, events) in enumerate(by_phase.items())]


def _panel(
    trace: Trace,
    phase: str,
    events: list[Event],
    plan: FloorPlan,
    venue: str,
    bad: dict[int, list[Finding]],
    n: int,
) -> Panel:
    ph = vocabulary().phases.get(phase)
    round_ = ph.round if ph else 0
    # each person's positions, in order (successive repeats of one point collapsed)
    paths: dict[str, list[tuple[Point, Event | None]]] = {}
    actors: list[str] = []
    for k, e in enumerate(events):
        if e.actor not in actors:
            actors.append(e.actor)
        p = event_point(trace, e, plan, venue, events[k + 1 :])
        if p is not None:
            path = paths.setdefault(e.actor, [])
            if not path or path[-1][0] != p:
                path.append((p, e))
    stationed: set[str] = set()
    unplaced = []
    for name in actors:
        if name in paths:
            continue
        person = trace.cast.persons.get(name)
        station = None
        if person is not None:
            station = next((s for r in _roles_of(person.role) if (s := plan.station(r, round_))), None)
        if station is None:
            unplaced.append(name)
        else:
            paths[name] = [(station.point, None)]
            stationed.add(name)
    # people sharing a point stand side by side (one spot each, however often he comes back to it)
    crowd: dict[Point, list[str]] = {}
    for name, path in paths.items():
        for p, _ in path:
            if name not in crowd.setdefault(p, []):
                crowd[p].append(name)
    slots = {
        (p, name): xy for p, names in crowd.items() for name, xy in zip(names, _crowd(px(p), len(names)), strict=True)
    }
    spot = {(name, i): slots[(p, name)] for name, path in paths.items() for i, (p, _) in enumerate(path)}
    shapes = _building(plan, venue)
    marks, unmarked = _violations(trace, events, plan, venue, bad, paths, stationed)
    labeller = Labeller(
        [(x - DOT, y - DOT, x + DOT, y + DOT) for x, y in spot.values()]
        + [(m.x - MARK, m.y - MARK, m.x + MARK, m.y + MARK) for m in marks]
        + _obstacles(shapes)
    )
    labels: list[Label] = []
    for place in plan.places.values():  # the landmarks' words first, then the people's
        if place.landmark and place.point is not None:
            anchor = px(place.at(None, venue) or place.point)
            at = labeller.place(anchor, place.landmark, LANDMARK_SIZE)
            if at is not None:
                quote = place.citation.quote if place.citation else ""
                labels.append(Label(*at, place.landmark, LANDMARK_SIZE, "landmark", f"{place.code}: 「{quote}」"))
    figures, unlabelled = [], []
    for name, path in paths.items():
        person = trace.cast.persons.get(name)
        colour = COLOURS.get(person.role if person else "", "#2a2520")
        dots, moves = [], []
        for i, (_, ev) in enumerate(path):
            x, y = spot[(name, i)]
            if ev is None:
                dots.append(Dot(x, y, f"{name}: no at= in {phase}; his station by the text"))
            else:
                dots.append(Dot(x, y, f"{name} at {ev.get('at')} (line {ev.line}: {ev.render()})"))
            if i:
                (x0, y0), prev = spot[(name, i - 1)], path[i - 1][1]
                frm = prev.get("at") if prev is not None else "his station"
                line = ev.line if ev is not None else ""
                moves.append(Move(x0, y0, x, y, f"{name}: {frm} → {ev.get('at') if ev else ''} (line {line})"))
        figures.append(Figure(name, colour, name in stationed, tuple(dots), tuple(moves)))
        anchor = spot[(name, len(path) - 1)]
        at = labeller.place(anchor, name, PERSON_SIZE)
        if at is None:
            unlabelled.append(name)
        else:
            labels.append(Label(*at, name, PERSON_SIZE, "person", name, colour, _leader(anchor, at, name)))
    return Panel(
        phase,
        ph.name if ph else "",
        n,
        tuple(shapes),
        tuple(figures),
        tuple(labels),
        tuple(marks),
        tuple(unplaced),
        tuple(unlabelled),
        unmarked,
    )


def _leader(anchor: Point, at: tuple[float, float], text: str) -> tuple[float, float, float, float] | None:
    """A line from the point to its label when the label is set off further than its nearest spots."""
    x0, y0, x1, y1 = label_box(*at, text, PERSON_SIZE)
    nx, ny = min(max(anchor[0], x0), x1), min(max(anchor[1], y0), y1)
    if (nx - anchor[0]) ** 2 + (ny - anchor[1]) ** 2 < (2.2 * PERSON_SIZE) ** 2:
        return None
    return (anchor[0], anchor[1], nx, ny)


def _crowd(centre: Point, n: int) -> list[Point]:
    """`n` spots around `centre`, in rows of at most CROWD_ROW, the whole block kept inside the panel."""
    step = 2 * DOT + 1.5
    cols = min(n, CROWD_ROW)
    rows = -(-n // cols)
    w, h = (cols - 1) * step, (rows - 1) * step
    x0 = min(max(centre[0] - w / 2, DOT + 1), PANEL_W - DOT - 1 - w)
    y0 = min(max(centre[1] - h / 2, DOT + 1), PANEL_H - DOT - 1 - h)
    return [(x0 + (j % cols) * step, y0 + (j // cols) * step) for j in range(n)]


def _violations(
    trace: Trace,
    events: list[Event],
    plan: FloorPlan,
    venue: str,
    bad: dict[int, list[Finding]],
    paths: dict[str, list[tuple[Point, Event | None]]],
    stationed: set[str],
) -> tuple[list[ViolationMark], int]:
    """A mark at the place of each violating event: its at=, else where its actor stands then."""
    marks, unmarked = [], 0
    where: dict[str, Point] = {name: paths[name][0][0] for name in stationed}
    for k, e in enumerate(events):
        p = event_point(trace, e, plan, venue, events[k + 1 :])
        if p is not None:
            where[e.actor] = p
        found = bad.get(e.index)
        if not found:
            continue
        point = p or where.get(e.actor)
        if point is None:
            unmarked += 1
            continue
        x, y = px(point)
        rules = tuple(dict.fromkeys(f.rule for f in found))
        why = "\n".join(f"✗ {f.rule}{' ' + f.name if f.name else ''}: {f.message}" for f in found)
        title = f"line {e.line}: {e.render()}\n{why}"
        marks.append(ViolationMark(x, y, rules, "#" + rule_anchor(rules[0]), e.get("at") or "", e.line, title))
    return marks, unmarked


def _obstacles(shapes: list[Shape]) -> list[Box]:
    """The boxes of the small things drawn (points, pillars, the 物, the stairs, the 侯), kept free of labels."""
    out: list[Box] = []
    for s in shapes:
        c = s.coords
        if s.kind in ("circle", "cross"):
            out.append((c[0] - c[2], c[1] - c[2], c[0] + c[2], c[1] + c[2]))
        elif s.kind == "rect" and s.cls in ("fp-stair", "fp-hou"):
            out.append((c[0], c[1], c[0] + c[2], c[1] + c[3]))
    return out


def _building(plan: FloorPlan, venue: str) -> list[Shape]:
    """The court, the hall, the 序, the 楹, the stairs, the 物, the 侯道, the 侯 and the landmarks' points."""
    o = plan.outline
    out: list[Shape] = []

    def rect(x0: float, y0: float, x1: float, y1: float, cls: str) -> None:
        (a, b), (c, d) = px((x0, y0)), px((x1, y1))
        out.append(Shape("rect", cls, (a, b, c - a, d - b)))

    def line(p: Point, q: Point, cls: str) -> None:
        out.append(Shape("line", cls, (*px(p), *px(q))))

    def at(code: str) -> Point | None:
        place = plan.places.get(code)
        return place.at(None, venue) if place else None

    cw, cn, ce, cs = o.court
    gw, ge = o.gate
    line((cw, cn), (cw, cs), "fp-wall")
    line((ce, cn), (ce, cs), "fp-wall")
    line((cw, cs), (gw, cs), "fp-wall")
    line((ge, cs), (ce, cs), "fp-wall")
    rect(*o.hall, "fp-hall")
    for code, end in (("西序", at("西序端")), ("东序", at("序端"))):
        p = at(code)
        if p is not None and end is not None:
            line((p[0], o.hall[1]), (p[0], end[1]), "fp-xu")
    west, mid = at("楹"), at("楹间")
    if west is not None and mid is not None:
        for x in (west[0], 2 * mid[0] - west[0]):
            out.append(Shape("circle", "fp-ying", (*px((x, west[1])), 2.5)))
    for code in ("阼阶", "西阶"):
        p = at(code)
        if p is not None:
            rect(p[0] - 3, o.hall[3], p[0] + 3, p[1] + 3, "fp-stair")
    wu = [p for p in (at("右物"), at("左物")) if p is not None]
    for p in wu:
        out.append(Shape("cross", "fp-wu", (*px(p), 4.0)))
    hou, left, right = at("侯"), at("左个"), at("右个")
    if hou is not None and wu:
        line((hou[0], wu[0][1] + 2), (hou[0], hou[1] - 3), "fp-houdao")
    if left is not None and right is not None and hou is not None:
        rect(left[0], hou[1] - 1.5, right[0], hou[1] + 1.5, "fp-hou")
    for place in plan.places.values():
        if place.landmark and place.point is not None and place.code not in ("堂上", "庭", "物"):
            out.append(Shape("circle", "fp-point", (*px(place.at(None, venue) or place.point), 1.6)))
    return out
