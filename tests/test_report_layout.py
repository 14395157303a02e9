"""The HTML report readable at any length (issue 16, point 5): measurable properties of the page.

- the state diagrams: no label lies on a state, on an arrow or on another label (geometry read
  back from the SVG, tests/svg_geometry.py; and measured after rendering, in Chromium);
- the swimlane fills the page for a short trace and scrolls for a long one;
- the overview strip: every violation has a mark wide enough to see and to click, linked to it.
"""

from __future__ import annotations

from itertools import groupby
from pathlib import Path

import pytest

from tests.svg_geometry import collisions, diagrams
from tests.test_report import CANONICAL, elements, invoke

# -- the state diagrams -----------------------------------------------------------------------------


def test_every_machine_diagram_is_read_back(short_page: Path) -> None:
    """Every page draws every machine (the 2-event trace's page is the cheapest to make)."""
    from xiangshe.fsm.table import tables

    shapes = {d.machine: d for d in diagrams(short_page.read_text(encoding="utf-8"))}
    assert set(shapes) == {t.name for t in tables()}
    for t in tables():
        d = shapes[t.name]
        assert len([n for n, _ in d.nodes]) >= len(t.states), t.name
        pairs = {(e.source, e.dest) for e in t.edges if e.source != e.dest}
        assert len([o for o, _ in d.edges if "→" in o]) == len(pairs), t.name
        assert sum(1 for _, _, o in d.labels if "→" in o) == len(pairs), t.name


def test_no_diagram_label_lies_on_a_state_an_arrow_or_another_label(short_page: Path) -> None:
    found = [c for d in diagrams(short_page.read_text(encoding="utf-8")) for c in collisions(d)]
    assert not found, "\n".join(found)


def test_the_overlap_check_sees_an_overlap() -> None:
    """The check itself: a label put on a state, and one put across another arrow, are caught."""
    from tests.svg_geometry import DiagramShapes, path_points, text_box

    d = DiagramShapes("test")
    d.nodes.append(("堂上", (100.0, 100.0, 164.0, 134.0)))
    d.edges.append(("堂下→堂上", path_points("M0,200 Q100,200 200,200")))
    d.labels.append(("升席·就席", text_box(130, 120, "升席·就席", 11.5), "a→b"))
    d.labels.append(("降", text_box(50, 204, "降", 11.5), "c→d"))
    d.labels.append(("降", text_box(300, 300, "降", 11.5), "c→d"))
    assert collisions(d) == ["test: label '升席·就席' on state 堂上", "test: label '降' on the edge of 堂下→堂上"]


# -- the swimlane at any length ---------------------------------------------------------------------


def first_events(n: int) -> str:
    """The canonical ceremony cut after its first `n` events (its cast, and the phase they are in)."""
    from tests.test_report import parse

    trace = parse(CANONICAL)
    last = trace.events[n - 1].line
    return "\n".join(CANONICAL.read_text(encoding="utf-8").splitlines()[:last]) + "\n"


def with_faults(k: tuple[int, ...] = (300, 1500, 3000)) -> str:
    """The canonical ceremony with the events at indexes `k` left out: violations spread over it."""
    from tests.test_report import parse

    lines = CANONICAL.read_text(encoding="utf-8").splitlines()
    events = parse(CANONICAL).events
    for i in k:
        lines[events[i].line - 1] = "# left out: " + lines[events[i].line - 1]
    return "\n".join(lines) + "\n"


def percent(value: str) -> float:
    assert value.endswith("%"), value
    return float(value[:-1])


@pytest.fixture(scope="module")
def short_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("short")
    trace = out / "two.trace"
    trace.write_text(first_events(2), encoding="utf-8")
    page = out / "two.html"
    assert invoke("report", str(trace), "-o", str(page)).exit_code in (0, 1)
    return page


@pytest.fixture(scope="module")
def faulty_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    out = tmp_path_factory.mktemp("faulty")
    trace = out / "faulty.trace"
    trace.write_text(with_faults(), encoding="utf-8")
    page = out / "faulty.html"
    assert invoke("report", str(trace), "-o", str(page)).exit_code == 1
    return trace, page


def swimlane(html: str) -> tuple[dict[str, str], list[tuple[str, dict[str, str]]]]:
    """The swimlane's <svg> attributes and every element inside it."""
    tags = [(t, a) for t, a, _ in elements(html)]
    start = next(i for i, (t, a) in enumerate(tags) if a.get("id") == "swimlane")
    end = next(i for i, (t, a) in enumerate(tags) if a.get("id") == "findings")
    return tags[start][1], tags[start + 1 : end]


def test_a_two_event_trace_fills_the_width(short_page: Path) -> None:
    svg, inside = swimlane(short_page.read_text(encoding="utf-8"))
    assert svg["data-events"] == "2"
    assert svg["width"] == "100%"  # the chart takes the page's width …
    assert svg["style"] == "min-width: 8px"  # … and is never narrower than 4 px an event
    bands = [a for t, a in inside if t == "rect" and "band" in a.get("class", "")]
    assert sum(percent(b["width"]) for b in bands) == pytest.approx(100)
    marks = sorted(percent(a["x"]) for t, a in inside if t == "rect" and "mk" in a.get("class", ""))
    assert marks == [25, 75]  # the centres of the two events' columns: each event half the width
    lanes = [a for t, a in inside if "data-person" in a]
    assert lanes and all(a["width"] == "100%" for a in lanes)


def test_a_long_trace_scrolls_at_4_px_an_event(faulty_page: tuple[Path, Path]) -> None:
    from tests.test_report import parse

    svg, inside = swimlane(faulty_page[1].read_text(encoding="utf-8"))
    n = len(parse(faulty_page[0]).events)
    assert n > 3000
    assert svg["data-events"] == str(n) and svg["style"] == f"min-width: {4 * n}px"
    marks = [a for t, a in inside if t == "rect" and "mk" in a.get("class", "")]
    assert len(marks) == n
    assert float(marks[0]["width"]) == 3  # 4 px an event: a mark of 3 px and a px of air
    assert percent(marks[-1]["x"]) == pytest.approx(100 * (n - 0.5) / n)


def test_the_timeline_scale(short_page: Path) -> None:
    from xiangshe.reports.timeline import MARK_MAX, PX, ROOM, scale

    assert scale(2) == ROOM / 2 and scale(1) == ROOM
    assert scale(ROOM // PX) >= PX and scale(10_000) == PX
    _, inside = swimlane(short_page.read_text(encoding="utf-8"))
    widths = {a["width"] for t, a in inside if t == "rect" and a.get("class", "").startswith("mk")}
    assert widths <= {str(MARK_MAX), str(MARK_MAX + 2)}  # 8 px (a violation's 10), not half the page


# -- the overview ------------------------------------------------------------------------------------


def overview_marks(html: str) -> list[dict[str, str]]:
    return [a for t, a, _ in elements(html) if t == "a" and a.get("class") == "ov-mark"]


def test_every_violation_has_a_visible_mark_in_the_overview(faulty_page: tuple[Path, Path]) -> None:
    """Each finding at an event is under a mark ≥ 6 px wide, linked to a finding in the page."""
    from tests.test_report import parse
    from xiangshe.constraints.check import check_trace
    from xiangshe.reports.overview import MARK_W, WIDTH
    from xiangshe.reports.timeline import findings_by_event

    trace, page = faulty_page
    html = page.read_text(encoding="utf-8")
    tags = elements(html)
    ids = {a["id"] for _, a, _ in tags if "id" in a}
    marks = overview_marks(html)
    bars = [a for t, a, _ in tags if t == "rect" and a.get("class") == "bar"]
    assert len(bars) == len(marks) >= 3  # the three faults are far apart: three marks at least
    assert all(float(b["width"]) >= MARK_W >= 6 for b in bars)
    assert all(m["href"].startswith("#finding-") and m["href"][1:] in ids for m in marks)
    t = parse(trace)
    located = findings_by_event(t, check_trace(t).findings)
    n = len(t.events)
    for i, fs in located.items():
        covering = [m for m in marks if int(m["data-first"]) <= i <= int(m["data-last"])]
        assert covering, f"event #{i + 1} ({fs[0].rule}) has no mark in the overview"
    assert sum(int(m["data-count"]) for m in marks) == sum(len(fs) for fs in located.values())
    for m, b in zip(marks, bars, strict=True):  # the mark, centred, covers its events at the page's width
        centre = percent(b["x"]) / 100 * WIDTH
        for i in (int(m["data-first"]), int(m["data-last"])):
            assert abs((i + 0.5) / n * WIDTH - centre) <= MARK_W / 2 + 1e-6


def test_the_overview_phases_cover_the_trace(faulty_page: tuple[Path, Path]) -> None:
    from tests.test_report import parse

    html = faulty_page[1].read_text(encoding="utf-8")
    tags = elements(html)
    phases = [a for t, a, _ in tags if t == "a" and a.get("class") == "ov-phase"]
    trace = parse(faulty_page[0])
    ids = [p["data-phase"] for p in phases]
    assert ids == [k for k, _ in groupby(e.phase for e in trace.events)]
    # each band links to the same phase's band in the chart
    bands = {a["id"]: a["data-phase"] for t, a, _ in tags if t == "g" and a.get("class") == "phase"}
    assert all(bands[p["href"][1:]] == p["data-phase"] for p in phases)
    marks = overview_marks(html)
    count = sum(int(m["data-count"]) for m in marks)
    assert f"{count} violations at {len(marks)} places</span>" in html


# -- measured after rendering, in headless Chromium --------------------------------------------------

#: appended to a copy of a report (the report itself has no script): measures the rendered page and
#: writes the figures as JSON into <pre id="probe">, which --dump-dom returns.
PROBE = """<pre id="probe">pending</pre><script>
window.addEventListener("load", () => {
const out = {};
const lane = document.getElementById("swimlane"), scroller = lane.parentElement;
const box = lane.getBoundingClientRect();
const marks = [...lane.querySelectorAll("rect.mk")].map(r => r.getBoundingClientRect());
out.swimlane = {width: box.width, room: scroller.clientWidth, window: window.innerWidth,
  first: marks.length ? Math.min(...marks.map(m => m.left)) - box.left : null,
  last: marks.length ? Math.max(...marks.map(m => m.right)) - box.left : null};
out.overview = [...document.querySelectorAll(".ov-mark .bar")].map(r => r.getBoundingClientRect().width);
out.overviewWidth = document.querySelector("svg.ov").getBoundingClientRect().width;
out.scrolled = scroller.scrollLeft;
const clash = [];
for (const svg of document.querySelectorAll("svg.diagram")) {
  const name = svg.closest("article").dataset.machine;
  const labels = [...svg.querySelectorAll("text.edge-label, text.loop-acts")].map(t => [t, t.getBBox()]);
  const nodes = [...svg.querySelectorAll("g.node > rect")].map(r => [r.closest("g"), r.getBBox()]);
  const edges = [...svg.querySelectorAll("path.edge")].map(p => {
    const pts = [], n = p.getTotalLength();
    for (let s = 0; s <= n; s += 2) pts.push(p.getPointAtLength(s));
    return [p.closest("g"), pts];
  });
  const hit = (b, x, y) => x > b.x && x < b.x + b.width && y > b.y && y < b.y + b.height;
  const meet = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  labels.forEach(([t, b], i) => {
    for (const [g, nb] of nodes) if (meet(b, nb)) clash.push(`${name}: ${t.textContent} on ${g.dataset.state}`);
    for (const [g, pts] of edges) if (g !== t.closest("g") && pts.some(p => hit(b, p.x, p.y)))
      clash.push(`${name}: ${t.textContent} on the edge of ${g ? (g.dataset.edge || g.dataset.state) : "start"}`);
    for (const [t2, b2] of labels.slice(i + 1))
      if (meet(b, b2)) clash.push(`${name}: ${t.textContent} on ${t2.textContent}`);
  });
}
out.clashes = clash;
document.getElementById("probe").textContent = JSON.stringify(out);
});
</script>"""


def measure(page: Path, tmp_path: Path, window: str = "1400,1000", fragment: str = "") -> dict:
    import html as html_module
    import json
    import re

    from tests.test_report import run_chromium

    probe = tmp_path / f"probe-{page.stem}-{window.replace(',', 'x')}.html"
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
    run = run_chromium(f"--window-size={window}", "--dump-dom", probe.as_uri() + fragment)
    found = re.search(r'<pre id="probe">(.*?)</pre>', run.stdout, flags=re.S)
    assert found and found.group(1) != "pending", run.stderr[-2000:]
    return json.loads(html_module.unescape(found.group(1)))


@pytest.mark.browser
@pytest.mark.parametrize("window", ["1400,1000", "900,1000", "2200,1000"])
def test_rendered_two_event_trace_fills_the_width(short_page: Path, tmp_path: Path, window: str) -> None:
    lane = measure(short_page, tmp_path, window)["swimlane"]
    assert lane["width"] >= 0.99 * lane["room"]  # the chart is as wide as the page gives it
    assert lane["window"] == int(window.split(",")[0])
    assert lane["width"] > 0.5 * lane["window"]
    assert lane["first"] < 0.3 * lane["width"] and lane["last"] > 0.7 * lane["width"]  # the events spread


@pytest.mark.browser
def test_rendered_overview_marks_and_diagram_labels(faulty_page: tuple[Path, Path], tmp_path: Path) -> None:
    from xiangshe.reports.overview import MARK_W

    got = measure(faulty_page[1], tmp_path)
    assert got["overview"] and all(w >= MARK_W - 0.01 for w in got["overview"]), got["overview"]
    assert got["overviewWidth"] > 1000  # the whole ceremony in the page's width, no scrolling
    assert got["swimlane"]["width"] >= 4 * 3800  # the swimlane itself scrolls, 4 px an event
    assert not got["clashes"], "\n".join(got["clashes"])


@pytest.mark.browser
def test_a_phase_in_the_overview_scrolls_the_chart_to_it(faulty_page: tuple[Path, Path], tmp_path: Path) -> None:
    """Following an overview band's link (#phase-band-N) scrolls the swimlane sideways to that phase."""
    page = faulty_page[1]
    tags = elements(page.read_text(encoding="utf-8"))
    late = [a for t, a, _ in tags if t == "a" and a.get("class") == "ov-phase"][-1]["href"]
    assert measure(page, tmp_path)["scrolled"] == 0
    assert measure(page, tmp_path, fragment=late)["scrolled"] > 10_000
