"""State diagrams of the machine tables, laid out in Python: SVG geometry and Mermaid text.

No system binary and no JavaScript: states are placed in columns by their distance (BFS) from
the initial state, edges between the same two states are merged into one arrow labelled with
every act, and the acts that leave a state where it is are listed under it or above its self-loop.
Every label is placed where it touches no state, no arrow and no other label; the columns and
rows spread until each finds such a spot.
The geometry is plain data; the HTML template draws it (and escapes every word).
"""

from __future__ import annotations

from collections import deque
from functools import cache

from xiangshe.domain.dataclass import dataclass
from xiangshe.fsm.table import Table

COL_GAP = 165  # px between the centres of two columns
ROW_GAP = 104  # px between the centres of two states in a column
NODE_H = 34
CHAR_W = 15  # a CJK character at the diagram's font size, with some air
PAD = 40
LOOP_ACTS_PER_LINE = 5
MAX_COLUMNS = 7  # a longer chain of columns is folded into rows
BAND_GAP = 56  # px between two rows of columns
EDGE_SIZE = 11.5  # px: the font size of an arrow's label (report.css, text.edge-label)
LOOP_SIZE = 11.0  # px: the font size of the acts that keep a state (text.loop-acts)
LOOP_LINE = 14  # px between two lines of those acts
EDGE_SAMPLES = 48  # points along each arrow that a label must keep clear of
BENDS = (0.3, 0.45, 0.6)  # how far an arrow may bend around a state, in parts of its length
LABEL_TS = (0.5, 0.4, 0.6, 0.3, 0.7, 0.22, 0.78, 0.15, 0.85)  # where along its arrow a label may sit, best first
#: how far the layout spreads its columns and rows to free its labels, the smallest area first
SPREADS = tuple(
    sorted(
        ((c, r) for c in (1.0, 1.15, 1.3, 1.5, 1.75, 2.0, 2.5) for r in (1.0, 1.15, 1.3, 1.5, 1.75, 2.0, 2.5)),
        key=lambda cr: (cr[0] * cr[1], cr),
    )
)

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True)
class Node:
    state: str
    x: float  # centre
    y: float
    w: float
    h: float
    initial: bool
    final: bool
    gloss: str
    loop: tuple[str, ...]  # the acts that keep the state (self-loops), wrapped in lines
    loop_title: str  # each of them with its quote, for the tooltip
    loop_y: float  # the baseline of the first line of those acts


@dataclass(frozen=True)
class Arrow:
    source: str
    dest: str
    path: str  # SVG path data
    label: str  # the acts, joined
    lx: float
    ly: float
    title: str  # each act with its quote and line


@dataclass(frozen=True)
class Diagram:
    table: Table
    nodes: tuple[Node, ...]
    arrows: tuple[Arrow, ...]
    width: float
    height: float
    start: tuple[float, float, float, float]  # the initial marker: dot centre, and arrow end


def _layers(table: Table) -> list[list[str]]:
    """States in columns by BFS distance from the initial state; unreachable ones last."""
    succ: dict[str, list[str]] = {s: [] for s in table.states}
    for e in table.edges:
        if e.dest not in succ[e.source]:
            succ[e.source].append(e.dest)
    depth = {table.initial: 0}
    queue = deque([table.initial])
    while queue:
        s = queue.popleft()
        for d in succ[s]:
            if d not in depth:
                depth[d] = depth[s] + 1
                queue.append(d)
    last = max(depth.values()) + 1
    layers: list[list[str]] = [[] for _ in range(last + 1)]
    for s in table.states:
        layers[depth.get(s, last)].append(s)
    return [layer for layer in layers if layer]


def _acts_title(table: Table, source: str, dest: str) -> tuple[list[str], str]:
    acts, lines = [], []
    for e in table.edges:
        if e.source == source and e.dest == dest and e.act not in acts:
            acts.append(e.act)
            lines.append(f"{e.act}: {source} → {dest}  「{e.cite.quote}」 {e.cite.source}:{e.cite.line}")
    return acts, "\n".join(lines)


def _wrap(acts: list[str], n: int = LOOP_ACTS_PER_LINE) -> tuple[str, ...]:
    return tuple("·".join(acts[i : i + n]) for i in range(0, len(acts), n))


def label_width(text: str, size: float) -> float:
    """The drawn width of `text` at `size` px: a CJK character (or a symbol) is one em, others 0.6 em."""
    return sum(size if ord(c) > 0x2000 else 0.6 * size for c in text)


class _Points:
    """The points along the arrows, bucketed in a grid, so that a box asks only the cells it covers."""

    CELL = 24.0

    def __init__(self, points: list[Point]) -> None:
        self.cells: dict[tuple[int, int], list[Point]] = {}
        for p in points:
            self.cells.setdefault((int(p[0] // self.CELL), int(p[1] // self.CELL)), []).append(p)

    def count(self, box: Box, first: bool) -> int:
        hits = 0
        for i in range(int(box[0] // self.CELL), int(box[2] // self.CELL) + 1):
            for j in range(int(box[1] // self.CELL), int(box[3] // self.CELL) + 1):
                for x, y in self.cells.get((i, j), ()):
                    if box[0] <= x <= box[2] and box[1] <= y <= box[3]:
                        hits += 1
                        if first:
                            return hits
        return hits


def _free(box: Box, obstacles: list[Box], points: _Points, first: bool = False) -> int:
    """How many obstacles and edge points `box` runs into (0: it is free); with `first`, 1 at the first."""
    hits = 0
    for o in obstacles:
        if box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and o[1] < box[3]:
            hits += 1
            if first:
                return hits
    return hits + points.count(box, first and not hits)


def _quad(p0: Point, p1: Point, p2: Point, t: float) -> Point:
    a, b = 1 - t, t
    return (a * a * p0[0] + 2 * a * b * p1[0] + b * b * p2[0], a * a * p0[1] + 2 * a * b * p1[1] + b * b * p2[1])


def _quad_tangent(p0: Point, p1: Point, p2: Point, t: float) -> Point:
    dx = 2 * (1 - t) * (p1[0] - p0[0]) + 2 * t * (p2[0] - p1[0])
    dy = 2 * (1 - t) * (p1[1] - p0[1]) + 2 * t * (p2[1] - p1[1])
    n = (dx * dx + dy * dy) ** 0.5 or 1.0
    return dx / n, dy / n


def _box_at(cx: float, cy: float, w: float, h: float) -> Box:
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


@cache  # the tables are loaded once (fsm.table.tables); a batch of reports lays each out once
def layout(table: Table) -> Diagram:
    """The diagram of `table`, spread out until every label lies clear of every state, edge and other label.

    Placing a label at the middle of its arrow (as this layout once did) put long lists of acts on
    the neighbouring states and across other arrows wherever the columns were closer than the label
    was long (射者, 算, 宾, 大夫): the labels are now placed among candidate spots beside their own
    curve, and the columns and rows are spread until every label finds a free spot.
    """
    for spread in SPREADS:
        d = _layout(table, spread, give_up=True)
        if d is not None:
            return d
    d = _layout(table, SPREADS[-1], give_up=False)  # the widest, with the labels that found no room
    assert d is not None
    return d


def _layout(table: Table, spread: tuple[float, float], give_up: bool) -> Diagram | None:
    """The diagram with its columns and rows `spread` apart; None if a label finds no free spot and `give_up`."""
    layers = _layers(table)
    gloss = dict(table.state_gloss)
    loops = {s: _acts_title(table, s, s) for s in table.states}
    tallest = max(len(layer) for layer in layers)
    widest = max(CHAR_W * len(st) + 24 for st in table.states)
    # A long chain of columns is folded into rows, right to left on every other row.
    bands = -(-len(layers) // MAX_COLUMNS)
    per_row = -(-len(layers) // bands)
    col_gap = max(widest + 70, min(COL_GAP, 1240 // max(per_row - 1, 1))) * spread[0]
    loop_room = max((len(_wrap(a)) for a, _ in loops.values()), default=0) * LOOP_LINE
    row_gap = (ROW_GAP + loop_room) * spread[1]
    band_h = (tallest - 1) * row_gap + NODE_H + 2 * loop_room + BAND_GAP
    top_room = PAD + 40 + loop_room  # room above the first row for a self-loop's acts
    height = top_room + PAD + bands * band_h - BAND_GAP
    centres: dict[str, Point] = {}
    for k, layer in enumerate(layers):
        band, col = divmod(k, per_row)
        if band % 2:
            col = per_row - 1 - col
        x = PAD + 70 + col * col_gap
        top = top_room + band * band_h + (tallest - len(layer)) * row_gap / 2
        for row, state in enumerate(layer):
            centres[state] = (x, top + row * row_gap + NODE_H / 2)
    width = PAD * 2 + 140 + (min(per_row, len(layers)) - 1) * col_gap
    bare = {
        s: Node(s, x, y, max(64, CHAR_W * len(s) + 24), NODE_H, s == table.initial, s in table.final, "", (), "", 0.0)
        for s, (x, y) in centres.items()
    }
    # A state, the arc of its self-loop above it and the acts of that loop below it are one block:
    # arrows leave and enter at the block's edge and bend around other blocks.
    nodes: dict[str, Node] = {}
    blocks: dict[str, list[Box]] = {}
    for s, n in bare.items():
        acts, title = loops[s]
        lines = _wrap(acts)
        block = [_box_at(n.x, n.y, n.w + 10, n.h + 10)]  # with the double border of a final state
        first = 0.0
        if lines:
            w = max(label_width(("↻ " if i == 0 else "") + line, LOOP_SIZE) for i, line in enumerate(lines)) + 4
            top = n.y + n.h / 2 + 5
            block.append((n.x - w / 2, top, n.x + w / 2, top + len(lines) * LOOP_LINE + 2))
            block.append((n.x - 24, n.y - n.h / 2 - 28, n.x + 24, n.y - n.h / 2 - 3))
            first = top + LOOP_LINE - 2
        blocks[s] = block
        nodes[s] = Node(s, n.x, n.y, n.w, n.h, n.initial, n.final, gloss.get(s, ""), lines, title, first)
    init = bare[table.initial]
    start = (init.x - init.w / 2 - 34, init.y, init.x - init.w / 2 - 2, init.y)
    boxes = [box for block in blocks.values() for box in block]
    boxes.append((start[0] - 6, start[1] - 6, start[2], start[1] + 6))
    pairs = list(dict.fromkeys((e.source, e.dest) for e in table.edges if e.source != e.dest))
    frame = (PAD / 2, 8.0, width - PAD / 2, height - 8)
    curves = {(a, b): _curve(a, b, (b, a) in pairs, centres, blocks, frame) for a, b in pairs}
    inset = [(b[0] + 1, b[1] + 1, b[2] - 1, b[3] - 1) for b in boxes]  # an arrow may start on its block's edge
    coarse = [_quad(*c, i / 16) for c in curves.values() for i in range(17)]  # a quick look first
    if give_up and any(o[0] < x < o[2] and o[1] < y < o[3] for x, y in coarse for o in inset):
        return None  # an arrow runs through a state, its self-loop or its acts
    points: list[Point] = []
    for p0, p1, p2 in curves.values():
        length = abs(p2[0] - p0[0]) + abs(p2[1] - p0[1]) + 2 * abs(p1[0] - p0[0]) + 2 * abs(p1[1] - p0[1])
        steps = max(16, int(length / 3))  # a point every 3 px or so: closer than a label is small
        ts = [i / steps for i in range(steps + 1)]
        points += [
            (
                (1 - t) * (1 - t) * p0[0] + 2 * (1 - t) * t * p1[0] + t * t * p2[0],
                (1 - t) * (1 - t) * p0[1] + 2 * (1 - t) * t * p1[1] + t * t * p2[1],
            )
            for t in ts
        ]
    grid = _Points(points)
    if give_up and any(_free(box, [], grid, first=True) for box in inset):
        return None  # an arrow runs through a state, its self-loop or its acts
    picture = (0.0, 0.0, float("inf"), float("inf"))  # the picture grows to the right and down to hold a label
    # the arrows' labels, the longest first: beside their own curve, where nothing else is
    labels: dict[tuple[str, str], tuple[str, Point]] = {}
    for a, b in sorted(pairs, key=lambda p: -label_width(_label(table, *p), EDGE_SIZE)):
        text = _label(table, a, b)
        w, h = label_width(text, EDGE_SIZE) + 4, EDGE_SIZE + 3
        p0, p1, p2 = curves[(a, b)]
        spots = []
        for t in LABEL_TS:
            x, y = _quad(p0, p1, p2, t)
            tx, ty = _quad_tangent(p0, p1, p2, t)
            nx, ny = -ty, tx  # the box touches the curve at its corner or side nearest to it
            d = w / 2 * abs(nx) + h / 2 * abs(ny) + 3
            spots += [(x + nx * d, y + ny * d), (x - nx * d, y - ny * d)]
            spots += [(x, y - h / 2 - 3), (x, y + h / 2 + 3), (x + w / 2 + 5, y), (x - w / 2 - 5, y)]
        (cx, cy), hits = _choose(spots, w, h, boxes, grid, picture)
        if hits and give_up:
            return None
        boxes.append(_box_at(cx, cy, w, h))
        labels[(a, b)] = (text, (cx, cy + EDGE_SIZE * 0.35))
    arrows = []
    for a, b in pairs:
        acts, title = _acts_title(table, a, b)
        (sx, sy), (mx, my), (ex, ey) = curves[(a, b)]
        text, (lx, ly) = labels[(a, b)]
        arrows.append(Arrow(a, b, f"M{sx:.1f},{sy:.1f} Q{mx:.1f},{my:.1f} {ex:.1f},{ey:.1f}", text, lx, ly, title))
    width = max([width, *(box[2] + PAD / 2 for box in boxes)])
    height = max([height, *(box[3] + 8 for box in boxes)])
    diagram = Diagram(table, tuple(nodes[s] for s in table.states), tuple(arrows), width, height, start)
    return diagram


def _choose(spots: list[Point], w: float, h: float, boxes: list[Box], points: _Points, picture: Box):
    """The first spot where a w × h box is free and inside the picture (and 0), else the first spot (and 1)."""
    inside = [_box_at(cx, cy, w, h) for cx, cy in spots]
    inside = [
        b for b in inside if picture[0] <= b[0] and picture[1] <= b[1] and b[2] <= picture[2] and b[3] <= picture[3]
    ]
    for box in inside:
        if _free(box, boxes, points, first=True) == 0:
            return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), 0
    if not inside:
        return spots[0], 1
    return ((inside[0][0] + inside[0][2]) / 2, (inside[0][1] + inside[0][3]) / 2), 1


def _label(table: Table, source: str, dest: str) -> str:
    acts, _ = _acts_title(table, source, dest)
    return "·".join(acts) if len(acts) <= 3 else "·".join(acts[:3]) + f" +{len(acts) - 3}"


def _exit(block: list[Box], x: float, y: float, dx: float, dy: float) -> Point:
    """Where the ray from (x, y) in direction (dx, dy) leaves the boxes of `block` for good."""
    last = 0.0
    for b in block:
        near, far = 0.0, float("inf")
        for p, d, lo, hi in ((x, dx, b[0], b[2]), (y, dy, b[1], b[3])):
            if d:
                t0, t1 = sorted(((lo - p) / d, (hi - p) / d))
                near, far = max(near, t0), min(far, t1)
            elif not lo <= p <= hi:
                near, far = 1.0, 0.0
        if near <= far:
            last = max(last, far)
    return x + dx * last, y + dy * last


def _crosses(x0: float, y0: float, x1: float, y1: float, box: Box) -> bool:
    """Does the segment from (x0, y0) to (x1, y1) pass through `box` (Liang–Barsky clipping)?"""
    t0, t1 = 0.0, 1.0
    for p, q in ((x0 - x1, x0 - box[0]), (x1 - x0, box[2] - x0), (y0 - y1, y0 - box[1]), (y1 - y0, box[3] - y0)):
        if p == 0:
            if q < 0:
                return False
        elif p < 0:
            t0 = max(t0, q / p)
        else:
            t1 = min(t1, q / p)
    return t0 < t1


def _blocked(a: str, b: str, centres: dict[str, Point], blocks: dict[str, list[Box]]) -> bool:
    """Would a straight line from `a` to `b` run through another state's block (4 px of air around it)?"""
    (ax, ay), (bx, by) = centres[a], centres[b]
    return any(
        _crosses(ax, ay, bx, by, (o[0] - 4, o[1] - 4, o[2] + 4, o[3] + 4))
        for s, block in blocks.items()
        if s not in (a, b)
        for o in block
    )


def _curve(
    a: str, b: str, both_ways: bool, centres: dict[str, Point], blocks: dict[str, list[Box]], frame: Box
) -> tuple[Point, Point, Point]:
    """The quadratic curve of the arrow from `a` to `b`: its start, control point and end.

    Straight, or bent to the left when a partner goes back; when that runs through another state's
    block, bent further, to the left or to the right, the first bend that clears them all.
    """
    (ax, ay), (bx, by) = centres[a], centres[b]
    dx, dy = bx - ax, by - ay
    dist = (dx * dx + dy * dy) ** 0.5 or 1.0
    nx, ny = -dy / dist, dx / dist  # the left-hand normal: a pair's two arrows part
    others = [(o[0] + 1, o[1] + 1, o[2] - 1, o[3] - 1) for s, bl in blocks.items() if s not in (a, b) for o in bl]
    first = 26.0 if both_ways else 0.0
    bends = [first] if not _blocked(a, b, centres, blocks) else []
    bends += [max(first, k * dist) for k in BENDS] + [-k * dist for k in BENDS if not both_ways]
    curve = None
    for bend in bends:
        mx = min(max((ax + bx) / 2 + nx * bend, frame[0]), frame[2])  # the curve stays in the picture
        my = min(max((ay + by) / 2 + ny * bend, frame[1]), frame[3])
        start = _exit(blocks[a], ax, ay, mx - ax, my - ay)
        end = _exit(blocks[b], bx, by, mx - bx, my - by)
        curve = curve or (start, (mx, my), end)
        samples = [_quad(start, (mx, my), end, i / 24) for i in range(25)]
        if not any(o[0] < x < o[2] and o[1] < y < o[3] for x, y in samples for o in others):
            return start, (mx, my), end
    assert curve is not None
    return curve  # the first: the layout will spread


def mermaid(table: Table) -> str:
    """The table as a Mermaid `stateDiagram-v2` (states by index, labelled with their names).

    >>> from xiangshe.fsm.table import table_named
    >>> print(mermaid(table_named("篚")))
    stateDiagram-v2
        state "未设" as s0
        state "已设" as s1
        [*] --> s0
        s0 --> s1: 设
        s1 --> [*]
    """
    ids = {s: f"s{i}" for i, s in enumerate(table.states)}
    out = ["stateDiagram-v2"]
    out += [f'    state "{s}" as {ids[s]}' for s in table.states]
    out.append(f"    [*] --> {ids[table.initial]}")
    for a, b in dict.fromkeys((e.source, e.dest) for e in table.edges):
        acts, _ = _acts_title(table, a, b)
        out.append(f"    {ids[a]} --> {ids[b]}: {', '.join(acts)}")
    out += [f"    {ids[s]} --> [*]" for s in table.final]
    return "\n".join(out)
