"""The floor plan: its table (domain/floorplan.toml) and its panels in the HTML report (reports/floorplan.py).

The table: every quote is located in the text, a missing or ambiguous one is a load error, every
place code of the vocabulary has a point or a reason. The panels: one per phase, the people of
each phase, moves as arrows, a violation marked at its place, labels that never overlap; and, in
headless Chromium (the helpers of tests/test_report.py), labels that do not overlap as drawn and
Chinese that draws with a font, not as tofu.
"""

from __future__ import annotations

import json
import re
from html import unescape
from itertools import combinations
from pathlib import Path

import pytest
from click.testing import CliRunner

from xiangshe.constraints.check import check_trace
from xiangshe.domain.errors import QuoteError, RulebookError
from xiangshe.domain.floorplan import FLOORPLAN_PATH, floorplan, load_floorplan
from xiangshe.domain.parse import parse_file, parse_lines
from xiangshe.domain.text import TEXT
from xiangshe.domain.vocabulary import vocabulary
from xiangshe.reports.floorplan import PANEL_H, PANEL_W, label_box, overlaps, panels, px
from xiangshe.verify import cli

ROOT = Path(__file__).resolve().parents[1]
CANONICAL = ROOT / "traces" / "canonical.trace"
VIOLATING = ROOT / "traces" / "violations" / "bu-guan-bu-shi.trace"


def report(trace: Path, page: Path) -> str:
    CliRunner().invoke(cli, ["report", str(trace), "-o", str(page)], catch_exceptions=False)
    return page.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def canonical_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    page = tmp_path_factory.mktemp("floorplan") / "canonical.html"
    report(CANONICAL, page)
    return page


def svgs(html: str) -> dict[str, str]:
    """Each panel's SVG by its phase."""
    pattern = r'<svg[^>]*class="fp-plan" data-phase="([^"]+)".*?</svg>'
    return {m.group(1): m.group(0) for m in re.finditer(pattern, html, flags=re.S)}


def labels(svg: str) -> list[tuple[float, float, float, str]]:
    """Every label of a panel: x, y, font size, text (without its tooltip)."""
    out = []
    for m in re.finditer(
        r'<text class="fp-label[^"]*" x="([\d.]+)" y="([\d.]+)" font-size="([\d.]+)"[^>]*>(.*?)<title>', svg
    ):
        out.append((float(m.group(1)), float(m.group(2)), float(m.group(3)), unescape(m.group(4))))
    return out


# -- the table ------------------------------------------------------------------------------------


def test_the_table_loads_and_every_quote_is_located() -> None:
    plan = load_floorplan()
    cited = [p.citation for p in plan.places.values() if p.citation] + [s.citation for s in plan.stations]
    assert len(cited) > 100
    for c in cited:
        assert c is not None and (c.line, c.end_line) in TEXT.occurrences(c.quote), c
    for p in plan.places.values():
        assert (p.point is None) == (p.citation is None) == (p.reason is not None), p.code
        assert p.point is None or p.note.strip(), f"{p.code}: say where the commentaries put it (or that they do not)"
    assert all(s.note.strip() for s in plan.stations)


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    text = FLOORPLAN_PATH.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "floorplan.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_a_missing_quote_is_a_load_error(tmp_path: Path) -> None:
    path = _edited(tmp_path, 'quote = "以至于乏"', 'quote = "以至于堂"')
    with pytest.raises(QuoteError, match=r'\[places\."乏"\].*「以至于堂」 is not in xiangsheli.txt'):
        load_floorplan(path)


def test_an_ambiguous_quote_is_a_load_error_unless_a_line_picks_one(tmp_path: Path) -> None:
    path = _edited(tmp_path, 'quote = "以至于乏"', 'quote = "适洗"')
    with pytest.raises(QuoteError, match=r"「适洗」 occurs 3 times"):
        load_floorplan(path)
    picked = _edited(tmp_path, 'quote = "以至于乏"', 'quote = "适洗"\nline = 176')
    assert load_floorplan(picked).places["乏"].citation.line == 176


def test_every_place_of_the_vocabulary_has_a_point_or_a_reason(tmp_path: Path) -> None:
    plan = floorplan()
    assert set(plan.places) == set(vocabulary().places)
    for code, place in plan.places.items():
        assert place.point is not None or (place.reason and len(place.reason) > 20), code
    not_drawn = {c for c, p in plan.places.items() if p.point is None}
    assert not_drawn == {"侯道", "国中", "郊", "竟"}
    for needed in (
        "阼阶",
        "西阶",
        "西序",
        "东序",
        "楹",
        "物",
        "侯",
        "乏",
        "洗",
        "下篚",
        "中",
        "楅",
        "门",
        "堂上",
        "堂下",
    ):
        assert plan.places[needed].point is not None, needed
    # an entry left out, or not drawable without a reason, is a load error
    gone = _edited(tmp_path, '[places."乏南"]', '[unused."乏南"]')
    with pytest.raises(RulebookError, match="no point for the place code 乏南"):
        load_floorplan(gone)
    no_reason = _edited(tmp_path, 'drawable = false\nreason = "a distance', 'drawable = false\nwhy = "a distance')
    with pytest.raises(RulebookError, match=r'\[places\."侯道"\] is not drawable but gives no reason'):
        load_floorplan(no_reason)
    outside = _edited(tmp_path, 'x = 38\ny = 93', 'x = 38\ny = 930')
    with pytest.raises(RulebookError, match="outside the plan"):
        load_floorplan(outside)


def test_the_officers_have_stations() -> None:
    plan = floorplan()
    for role in ("宾", "主人", "大夫", "众宾", "乐正", "工", "笙", "司射", "司正", "获者", "释获者"):
        assert plan.station(role, 0) or plan.station(role, 1), role
    # the 司正 is the 司马 for the shooting: his station then is the 司马's
    assert plan.station("司正", 1).point == plan.places["司马位"].point
    assert plan.station("司正", 0).point == plan.places["觯南"].point


# -- the panels -------------------------------------------------------------------------------------


def test_one_panel_per_phase_with_the_people_of_the_phase(canonical_page: Path) -> None:
    html = canonical_page.read_text(encoding="utf-8")
    trace = parse_file(CANONICAL, str(CANONICAL))
    phases = list(dict.fromkeys(e.phase for e in trace.events if e.phase))
    found = svgs(html)
    assert list(found) == phases and len(phases) == 52
    for phase, svg in found.items():
        actors = {e.actor for e in trace.events if e.phase == phase}
        drawn = set(re.findall(r'<g class="fp-person[^"]*" data-who="([^"]+)"', svg))
        figure = html[html.index(f'id="plan-{phase}"') :]
        figure = figure[: figure.index("</figure>")]
        listed = re.search(r'<p class="fp-more">no place: (.*?)</p>', figure)
        unplaced = set(listed.group(1).split("、")) if listed else set()
        assert drawn | unplaced == actors and not drawn & unplaced, phase
        placed = {e.actor for e in trace.events if e.phase == phase and e.get("at")}
        assert placed <= drawn, phase
    section = html[html.index('<section id="floorplan">') : html.index('<section id="findings">')]
    assert "<script" not in section and "url(#fp-arrow-" in section
    assert not re.search(r"""(href|src)=["'](?!#)|url\((?!#)""", section)  # self-contained: nothing fetched


def test_no_two_labels_overlap_in_the_canonical_ceremony(canonical_page: Path) -> None:
    html = canonical_page.read_text(encoding="utf-8")
    checked = 0
    for phase, svg in svgs(html).items():
        boxes = [(label_box(x, y, text, size), text) for x, y, size, text in labels(svg)]
        for box, text in boxes:
            assert box[0] >= 0 and box[1] >= 0 and box[2] <= PANEL_W and box[3] <= PANEL_H, (phase, text)
        for (a, ta), (b, tb) in combinations(boxes, 2):
            assert not overlaps(a, b), (phase, ta, tb)
            checked += 1
    assert checked > 5000


def test_moves_and_stations(tmp_path: Path) -> None:
    """The 司射 goes 阶西 → 西阶 → 右物: two arrows; the 司马 does something with no at=: his station, hollow."""
    trace = parse_lines(
        "fragment Φ20\nphase Φ20\n司射 适 at=阶西\n司射 升 at=西阶\n司射 揖 at=右物\n司马 揖\n", "moves.trace"
    )
    (panel,) = panels(trace, check_trace(trace).findings)
    by_name = {f.name: f for f in panel.figures}
    shooter = by_name["司射"]
    assert [d.title.split(" (")[0] for d in shooter.dots] == ["司射 at 阶西", "司射 at 西阶", "司射 at 右物"]
    assert len(shooter.moves) == 2 and not shooter.station
    plan = floorplan()
    assert (shooter.dots[2].x, shooter.dots[2].y) == px(plan.places["右物"].point)
    assert (shooter.moves[0].x1, shooter.moves[0].y1) == (shooter.dots[1].x, shooter.dots[1].y)
    ma = by_name["司正"]
    assert ma.station and (ma.dots[0].x, ma.dots[0].y) == px(plan.places["司马位"].point)
    html = report_text(tmp_path, "fragment Φ20\nphase Φ20\n司射 适 at=阶西\n司射 升 at=西阶\n司射 揖 at=右物\n")
    assert html.count('class="fp-move"') == 2 and 'marker-end="url(#fp-arrow-0)"' in html


def test_a_place_relative_to_someone_is_taken_at_his_mat() -> None:
    """席前 is the mat of the one the cup is for: the `to=` person, else the next other to handle it."""
    trace = parse_file(CANONICAL, str(CANONICAL))
    plan = floorplan()
    by_line = {e.line: (e, [n for n in trace.events[e.index + 1 :] if n.phase == e.phase]) for e in trace.events}
    from xiangshe.reports.floorplan import event_point

    mats = plan.places["席前"].roles
    # the first of each, found by what it stages (the canonical's line numbers move when it is restaged)
    staged = ("主人 实 爵1 at=席前", "宾 实 爵1 at=席前", "主人 实 爵2 at=席前", "执爵者 授 觯4 to=主人 at=席前")
    lines = [next(e.line for e in trace.events if e.render() == text) for text in staged]
    where = [event_point(trace, *by_line[line][:1], plan, "序", by_line[line][1]) for line in lines]
    assert where == [mats["宾"], mats["主人"], mats["大夫"], mats["主人"]]


def test_the_marks_lie_under_the_lintel_in_a_xiang() -> None:
    """序则物当栋，堂则物当楣: the same staging, in a 序 and in a 庠 (堂)."""
    plan = floorplan()
    for venue, code_point in (("序", plan.places["左物"].point), ("庠", plan.places["左物"].venue["庠"])):
        trace = parse_lines(f"fragment Φ20\noccasion venue={venue}\nphase Φ20\n司射 揖 at=左物\n", "venue.trace")
        (panel,) = panels(trace, ())
        (dot,) = panel.figures[0].dots
        assert (dot.x, dot.y) == px(code_point), venue
    assert plan.places["左物"].venue["庠"][1] > plan.places["左物"].point[1]  # the lintel is south of the ridge


def report_text(tmp_path: Path, text: str) -> str:
    trace = tmp_path / "t.trace"
    trace.write_text(text, encoding="utf-8")
    return report(trace, tmp_path / "t.html")


def test_a_violation_is_marked_at_its_place(tmp_path: Path) -> None:
    """Draining a cup still in its basket, at the top of the west stairs: the 爵's machine refuses."""
    html = report_text(tmp_path, "phase Φ05\n宾 卒爵 爵1 at=西阶上\n")
    (mark,) = re.findall(r'<a href="#rule-[^"]+" class="fp-violation"[^>]*>.*?</a>', html, flags=re.S)
    assert 'data-place="西阶上"' in mark and re.search(r'data-rule="[^"]*\bmachine\.jue\b', mark)
    assert re.search(r"<title>line 2: 宾 卒爵 爵1 at=西阶上\n(✗ .*\n)*✗ machine.jue", mark)
    x, y = px(floorplan().places["西阶上"].point)
    cx, cy = re.search(r'<circle cx="([\d.]+)" cy="([\d.]+)"', mark).groups()
    assert (float(cx), float(cy)) == pytest.approx((x, y), abs=0.06)
    href = re.search(r'<a href="#([^"]+)" class="fp-violation"', mark).group(1)
    assert f'id="{href}"' in html  # the mark links to its rule


def test_a_violation_with_no_at_is_marked_where_its_actor_stands(tmp_path: Path) -> None:
    html = report(VIOLATING, tmp_path / "v.html")
    (mark,) = re.findall(r'<a href="#rule-bu-guan-bu-shi" class="fp-violation"[^>]*>.*?</a>', html, flags=re.S)
    x, y = px(floorplan().station("释获者", 2).point)
    cx, cy = re.search(r'<circle cx="([\d.]+)" cy="([\d.]+)"', mark).groups()
    assert (float(cx), float(cy)) == pytest.approx((x, y), abs=0.06)


def test_everything_from_the_trace_is_escaped(tmp_path: Path) -> None:
    evil = '<script>alert("x")</script>'
    html = report_text(tmp_path, f"fragment Φ20\ncast {evil} 弟子\nphase Φ20\n{evil} 揖 at=西阶\n")
    section = html[html.index('id="floorplan"') : html.index('id="findings"')]
    assert "<script" not in section and "&lt;script&gt;" in section


# -- headless Chromium ------------------------------------------------------------------------------

#: draws the report's floor plan and reports, per panel, the labels whose drawn boxes overlap
OVERLAP_PROBE = """<script>
const out = [];
for (const svg of document.querySelectorAll("svg.fp-plan")) {
  const boxes = [...svg.querySelectorAll("text.fp-label")].map(t => [t.textContent, t.getBBox()]);
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [ta, a] = boxes[i], [tb, b] = boxes[j];
    if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height)
      out.push([svg.dataset.phase, ta, tb]);
  }
  out.push(["labels", svg.dataset.phase, boxes.length, boxes.filter(([, b]) => b.width > 0).length]);
}
const pre = document.createElement("pre");
pre.id = "overlaps";
pre.textContent = JSON.stringify(out);
document.body.append(pre);
</script>"""


@pytest.mark.browser
def test_the_floor_plan_renders_in_chromium_without_overlaps_or_tofu(canonical_page: Path, tmp_path: Path) -> None:
    from test_report import GLYPH_PROBE, cjk_characters, run_chromium

    html = canonical_page.read_text(encoding="utf-8")
    probe = tmp_path / "overlaps.html"
    probe.write_text(html.replace("</body>", OVERLAP_PROBE + "</body>"), encoding="utf-8")
    dom = run_chromium("--dump-dom", probe.as_uri()).stdout
    found = re.search(r'<pre id="overlaps">(.*?)</pre>', dom, flags=re.S)
    assert found, dom[-2000:]
    result = json.loads(unescape(found.group(1)))
    counts = [r for r in result if r[0] == "labels"]
    assert len(counts) == 52 and all(n > 10 and drawn == n for _, _, n, drawn in counts)
    assert [r for r in result if r[0] != "labels"] == []

    # every Chinese character of the plans, drawn in the plans' own font stack, is not the .notdef box
    section = html[html.index('<section id="floorplan">') : html.index('<section id="findings">')]
    family = re.search(r'class="fp-plan"[^>]*font-family="([^"]+)"', section).group(1)
    chars = ["乡", "射", "礼", *(c for c in cjk_characters(section) if c not in "乡射礼")]
    assert len(chars) > 40
    selectors = '[".kicker", "blockquote.quote", "pre"]'
    assert selectors in GLYPH_PROBE
    styles = f"<style>.fp-text {{ font-family: {unescape(family)}; }}</style>"
    page = GLYPH_PROBE.replace(selectors, '[".fp-text"]').replace("<pre>乡射礼</pre>", '<p class="fp-text">乡射礼</p>')
    glyphs = tmp_path / "glyphs.html"
    glyphs.write_text(page.format(styles=styles, chars=json.dumps(chars, ensure_ascii=False)), encoding="utf-8")
    dom = run_chromium("--dump-dom", glyphs.as_uri()).stdout
    found = re.search(r'<pre id="result">(.*?)</pre>', dom, flags=re.S)
    assert found and found.group(1) != "pending", dom[-2000:]
    ((selector, shown, tested, distinct, tofu_ink, missing, blank),) = json.loads(unescape(found.group(1)))
    assert tested == len(chars) and tofu_ink > 0, (selector, shown)
    assert not missing, f"{len(missing)} characters of the floor plan draw as tofu in {shown}: install a CJK font"
    assert not blank and distinct > 0.9 * tested
