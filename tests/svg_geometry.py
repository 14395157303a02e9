"""Geometry read back from the report's SVG, without a browser: the boxes of the state diagrams'
labels and nodes and the points along their edges, so that a test can say which label lies on
what. Text boxes are estimated from the font size (a CJK character is one em wide, other
characters 0.6 em); the Chromium test measures the rendered ones.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

Box = tuple[float, float, float, float]  # x0, y0, x1, y1

#: the font sizes of the diagram's text classes (reports/templates/report.css)
FONT = {"edge-label": 11.5, "loop-acts": 11.0, "state": 14.0}


def text_width(text: str, size: float) -> float:
    return sum(size if ord(c) > 0x2000 else 0.6 * size for c in text)


def text_box(x: float, y: float, text: str, size: float) -> Box:
    """A text drawn with text-anchor: middle at baseline y."""
    w = text_width(text, size)
    return (x - w / 2, y - 0.9 * size, x + w / 2, y + 0.2 * size)


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(p: tuple[float, float], b: Box) -> bool:
    return b[0] < p[0] < b[2] and b[1] < p[1] < b[3]


def path_points(d: str, steps: int = 60) -> list[tuple[float, float]]:
    """Points along an SVG path made of M, L, Q and C commands with absolute coordinates."""
    nums = iter(float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d))
    out: list[tuple[float, float]] = []
    pos = (0.0, 0.0)
    for cmd in re.findall(r"[MLQC]", d):
        n = {"M": 1, "L": 1, "Q": 2, "C": 3}[cmd]
        pts = [(next(nums), next(nums)) for _ in range(n)]
        if cmd == "M":
            pos = pts[0]
            continue
        ctrl = [pos, *pts]
        for i in range(1, steps + 1):
            t = i / steps
            q = ctrl
            while len(q) > 1:  # de Casteljau
                q = [(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t) for a, b in zip(q, q[1:], strict=False)]
            out.append(q[0])
        out.append(pos)
        pos = pts[-1]
    return out


@dataclass
class DiagramShapes:
    machine: str
    labels: list[tuple[str, Box, str]] = field(default_factory=list)  # (text, box, owner)
    nodes: list[tuple[str, Box]] = field(default_factory=list)
    edges: list[tuple[str, list[tuple[float, float]]]] = field(default_factory=list)  # (owner, points)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.diagrams: list[DiagramShapes] = []
        self.current: DiagramShapes | None = None
        self.owner = ""
        self.text: tuple[str, float, float] | None = None
        self.buffer = ""

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "article" and "data-machine" in a:
            self.current = DiagramShapes(a["data-machine"])
            self.diagrams.append(self.current)
        d = self.current
        if d is None:
            return
        cls = a.get("class", "").split()
        if tag == "g" and ("arrow" in cls or "node" in cls):
            self.owner = a.get("data-edge") or a.get("data-state") or f"arrow{len(d.edges)}"
        elif tag == "path" and "edge" in cls:
            d.edges.append((self.owner or "start", path_points(a["d"])))
        elif tag == "rect" and "x" in a and "width" in a and self.owner:
            x, y, w, h = (float(a[k]) for k in ("x", "y", "width", "height"))
            d.nodes.append((self.owner, (x, y, x + w, y + h)))
        elif tag == "text" and any(c in FONT for c in cls):
            kind = next(c for c in cls if c in FONT)
            self.text = (kind, float(a["x"]), float(a["y"]))
            self.buffer = ""

    def handle_data(self, data):
        if self.text is not None:
            self.buffer += data

    def handle_endtag(self, tag):
        if tag == "text" and self.text is not None and self.current is not None:
            kind, x, y = self.text
            if kind != "state":
                self.current.labels.append((self.buffer, text_box(x, y, self.buffer, FONT[kind]), self.owner))
            self.text = None
        elif tag == "g":
            self.owner = ""
        elif tag == "article":
            self.current = None


def diagrams(html: str) -> list[DiagramShapes]:
    r = _Reader()
    r.feed(html)
    return r.diagrams


def collisions(d: DiagramShapes) -> list[str]:
    """Every label that lies on a node, on an edge (other than its own) or on another label."""
    out = []
    for i, (text, box, owner) in enumerate(d.labels):
        for name, nb in d.nodes:
            if overlap(box, nb):
                out.append(f"{d.machine}: label {text!r} on state {name}")
        for eo, pts in d.edges:
            if eo != owner and any(inside(p, box) for p in pts):
                out.append(f"{d.machine}: label {text!r} on the edge of {eo}")
        for text2, box2, _ in d.labels[i + 1 :]:
            if overlap(box, box2):
                out.append(f"{d.machine}: label {text!r} on label {text2!r}")
    return out
