"""The overview strip of the HTML report: the whole ceremony in the page's width, at a glance.

The phases as labelled bands and every violating event as a mark MARK_W px wide, however many
events share a pixel: at 4 px an event the swimlane's red columns are lost in a ceremony of
thousands of events, the overview's marks are not. Marks closer than a mark's width (at the
width the page is laid out for) are drawn as one, which names every finding under it and links
to the first. x is in percent of the strip's width, so that it fills whatever width the page has.
"""

from __future__ import annotations

from collections.abc import Sequence

from xiangshe.constraints.check import Finding
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.trace import Trace
from xiangshe.reports.timeline import findings_by_event, phase_runs

WIDTH = 1336  # px: the strip's width at a 1400 px window, where labels and merged marks are judged
MARK_W = 6  # px: the width of a violation's mark, at any length of trace
HEIGHT = 56
ID_CHAR, NAME_CHAR = 7.0, 12.0  # px per character of a phase's id and of its name


@dataclass(frozen=True)
class PhaseBand:
    x: float  # percent of the width
    w: float
    id: str
    name: str
    id_label: str  # '' when it does not fit
    name_label: str
    shade: bool


@dataclass(frozen=True)
class ViolationMark:
    x: float  # percent of the width: the centre of the mark
    first: int  # the events it covers (0-based, inclusive)
    last: int
    href: str  # the first finding under it
    title: str
    count: int  # findings under it


@dataclass(frozen=True)
class Overview:
    bands: tuple[PhaseBand, ...]
    marks: tuple[ViolationMark, ...]
    events: int
    mark_w: int = MARK_W
    height: int = HEIGHT


def _fits(text: str, width_pc: float, char: float) -> bool:
    return len(text) * char + 6 <= width_pc * WIDTH / 100


def overview(trace: Trace, findings: Sequence[tuple[Finding, str]]) -> Overview:
    """The strip of `trace`, with each of `findings` (a finding and the anchor of its card in the page)."""
    events = trace.events
    n = max(len(events), 1)
    bands: list[PhaseBand] = []
    for start, end, pid, name in phase_runs(events):
        x, w = start * 100 / n, (end - start) * 100 / n
        id_label = pid if _fits(pid, w, ID_CHAR) else ""
        name_label = name if _fits(name, w, NAME_CHAR) else ""
        bands.append(PhaseBand(x, w, pid, name, id_label, name_label, len(bands) % 2 == 1))
    anchor = {id(f): a for f, a in findings}
    at = findings_by_event(trace, [f for f, _ in findings])
    located = [(i, f) for i in sorted(at) for f in at[i]]
    reach = MARK_W * n / WIDTH  # events within one mark's width, at WIDTH
    marks: list[ViolationMark] = []
    k = 0
    while k < len(located):
        group = [located[k]]
        k += 1
        while k < len(located) and located[k][0] - group[0][0] <= reach:
            group.append(located[k])
            k += 1
        first, last = group[0][0], group[-1][0]
        lines = [f"#{i + 1} line {f.line}: ✗ {f.rule} {f.name} — {f.message}" for i, f in group]
        shown = lines[:12] + ([f"… and {len(lines) - 12} more"] if len(lines) > 12 else [])
        centre = (first + last + 1) / 2 * 100 / n
        marks.append(ViolationMark(centre, first, last, "#" + anchor[id(group[0][1])], "\n".join(shown), len(group)))
    return Overview(tuple(bands), tuple(marks), len(events))
