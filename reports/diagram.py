"""State diagrams of the machine tables, laid out in Python: SVG geometry and Mermaid text.

No system binary and no JavaScript: states are placed in columns by their distance (BFS) from
the initial state, edges between the same two states are merged into one arrow labelled with
every act, and the acts that leave a state where it is are listed under it (a self-loop).
The geometry is plain data; the HTML template draws it (and escapes every word).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from xiangshe.fsm.table import Table

COL_GAP = 165  # px between the centres of two columns
ROW_GAP = 104  # px between the centres of two states in a column
NODE_H = 34
CHAR_W = 15  # a CJK character at the diagram's font size, with some air
PAD = 40
LOOP_ACTS_PER_LINE = 5
MAX_COLUMNS = 7  # a longer chain of columns is folded into rows
BAND_GAP = 56  # px between two rows of columns


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


def layout(table: Table) -> Diagram:
    layers = _layers(table)
    gloss = dict(table.state_gloss)
    loops = {s: _acts_title(table, s, s) for s in table.states}
    tallest = max(len(layer) for layer in layers)
    widest = max(CHAR_W * len(st) + 24 for st in table.states)
    # A long chain of columns is folded into rows, right to left on every other row.
    bands = -(-len(layers) // MAX_COLUMNS)
    per_row = -(-len(layers) // bands)
    col_gap = max(widest + 70, min(COL_GAP, 1240 // max(per_row - 1, 1)))
    loop_room = max((len(_wrap(a)) for a, _ in loops.values()), default=0) * 14
    row_gap = ROW_GAP + loop_room
    band_h = (tallest - 1) * row_gap + NODE_H + loop_room + BAND_GAP
    height = PAD * 2 + 40 + bands * band_h - BAND_GAP
    nodes: dict[str, Node] = {}
    for k, layer in enumerate(layers):
        band, col = divmod(k, per_row)
        if band % 2:
            col = per_row - 1 - col
        x = PAD + 70 + col * col_gap
        top = PAD + 40 + band * band_h + (tallest - len(layer)) * row_gap / 2
        for row, state in enumerate(layer):
            acts, title = loops[state]
            w = max(64, CHAR_W * len(state) + 24)
            nodes[state] = Node(
                state,
                x,
                top + row * row_gap + NODE_H / 2,
                w,
                NODE_H,
                state == table.initial,
                state in table.final,
                gloss.get(state, ""),
                _wrap(acts),
                title,
            )
    width = PAD * 2 + 140 + (min(per_row, len(layers)) - 1) * col_gap
    pairs = list(dict.fromkeys((e.source, e.dest) for e in table.edges if e.source != e.dest))
    box = (PAD / 2, 8.0, width - PAD / 2, height - 8)
    arrows = [_arrow(table, nodes[a], nodes[b], (b, a) in pairs, list(nodes.values()), box) for a, b in pairs]
    init = nodes[table.initial]
    start = (init.x - init.w / 2 - 34, init.y, init.x - init.w / 2 - 2, init.y)
    return Diagram(table, tuple(nodes[s] for s in table.states), tuple(arrows), width, height, start)


def _border(n: Node, dx: float, dy: float) -> tuple[float, float]:
    """Where the ray from the centre of `n` in direction (dx, dy) leaves its box."""
    hw, hh = n.w / 2 + 3, n.h / 2 + 3
    tx = hw / abs(dx) if dx else float("inf")
    ty = hh / abs(dy) if dy else float("inf")
    t = min(tx, ty)
    return n.x + dx * t, n.y + dy * t


def _blocked(a: Node, b: Node, nodes: list[Node]) -> bool:
    """Would a straight line from `a` to `b` run through another state?"""
    others = [n for n in nodes if n is not a and n is not b]
    for i in range(1, 40):
        t = i / 40
        x, y = a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t
        if any(abs(x - n.x) < n.w / 2 + 6 and abs(y - n.y) < n.h / 2 + 6 for n in others):
            return True
    return False


def _arrow(
    table: Table, a: Node, b: Node, both_ways: bool, nodes: list[Node], box: tuple[float, float, float, float]
) -> Arrow:
    acts, title = _acts_title(table, a.state, b.state)
    dx, dy = b.x - a.x, b.y - a.y
    dist = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / dist, dy / dist
    # Bend an arrow when it has a partner going back, or when it would run through a state.
    bend = 26.0 if both_ways else 0.0
    if _blocked(a, b, nodes):
        bend = max(bend, 0.3 * dist)
    nx, ny = -uy, ux  # the left-hand normal: a pair's two arrows part
    mx = min(max((a.x + b.x) / 2 + nx * bend, box[0]), box[2])  # the curve stays in the picture
    my = min(max((a.y + b.y) / 2 + ny * bend, box[1]), box[3])
    sx, sy = _border(a, mx - a.x, my - a.y)
    ex, ey = _border(b, mx - b.x, my - b.y)
    path = f"M{sx:.1f},{sy:.1f} Q{mx:.1f},{my:.1f} {ex:.1f},{ey:.1f}"
    lx, ly = 0.25 * sx + 0.5 * mx + 0.25 * ex, 0.25 * sy + 0.5 * my + 0.25 * ey
    label = "·".join(acts) if len(acts) <= 3 else "·".join(acts[:3]) + f" +{len(acts) - 3}"
    return Arrow(a.state, b.state, path, label, lx, ly - 4, title)


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
