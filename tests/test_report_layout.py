"""The HTML report readable at any length (issue 16, point 5): measurable properties of the page.

- the state diagrams: no label lies on a state, on an arrow or on another label (geometry read
  back from the SVG, tests/svg_geometry.py; and measured after rendering, in Chromium);
- the swimlane fills the page for a short trace and scrolls for a long one;
- the overview strip: every violation has a mark wide enough to see and to click, linked to it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.svg_geometry import collisions, diagrams
from tests.test_report import CANONICAL, elements, invoke


@pytest.fixture(scope="module")
def canonical_page(tmp_path_factory: pytest.TempPathFactory) -> str:
    page = tmp_path_factory.mktemp("layout") / "canonical.html"
    assert invoke("report", str(CANONICAL), "-o", str(page)).exit_code == 0
    return page.read_text(encoding="utf-8")


# -- the state diagrams -----------------------------------------------------------------------------


def test_every_machine_diagram_is_read_back(canonical_page: str) -> None:
    from xiangshe.fsm.table import tables

    shapes = {d.machine: d for d in diagrams(canonical_page)}
    assert set(shapes) == {t.name for t in tables()}
    for t in tables():
        d = shapes[t.name]
        assert len([n for n, _ in d.nodes]) >= len(t.states), t.name
        pairs = {(e.source, e.dest) for e in t.edges if e.source != e.dest}
        assert len([o for o, _ in d.edges if "→" in o]) == len(pairs), t.name
        assert sum(1 for _, _, o in d.labels if "→" in o) == len(pairs), t.name


def test_no_diagram_label_lies_on_a_state_an_arrow_or_another_label(canonical_page: str) -> None:
    found = [c for d in diagrams(canonical_page) for c in collisions(d)]
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
