"""The HTML report: the page's structure, escaping, the CLI contract, and rendering in headless Chromium.

The Chromium tests skip when no Chromium is installed, except under CI (the CI variable set),
where a missing browser is a failure: .ci/run installs it.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import zlib
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from xiangshe.verify import cli

ROOT = Path(__file__).resolve().parents[1]
CANONICAL = ROOT / "traces" / "canonical.trace"
VIOLATING = ROOT / "traces" / "violations" / "bu-guan-bu-shi.trace"


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, int]]:
    """The report of the canonical ceremony and of a violating trace, with their exit codes."""
    out = tmp_path_factory.mktemp("pages")
    done = {}
    for name, trace in (("canonical", CANONICAL), ("violating", VIOLATING)):
        page = out / f"{name}.html"
        result = invoke("report", str(trace), "-o", str(page))
        done[name] = (page, result.exit_code)
    return done


class Elements(HTMLParser):
    """Every start tag with its attributes, and the machine (article) each one is inside."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str], str | None]] = []
        self.machine: str | None = None
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "article":
            self.machine = a.get("data-machine")
        self.tags.append((tag, a, self.machine))

    def handle_endtag(self, tag):
        if tag == "article":
            self.machine = None


def elements(html: str) -> list[tuple[str, dict[str, str], str | None]]:
    p = Elements()
    p.feed(html)
    return p.tags


def parse(path: Path):
    from xiangshe.domain.parse import parse_file

    return parse_file(path, str(path))


# -- the command line -----------------------------------------------------------------------------


def test_exit_status_like_check(pages) -> None:
    assert pages["canonical"][1] == 0
    assert pages["violating"][1] == 1  # violations: exit 1, the page is still written
    assert pages["violating"][0].stat().st_size > 0


def test_default_output_under_reports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke("report", str(VIOLATING))
    assert result.exit_code == 1
    assert (tmp_path / "reports" / "bu-guan-bu-shi.html").is_file()
    assert "wrote reports/bu-guan-bu-shi.html" in result.stderr


def test_overwrite_refused_unless_force(tmp_path: Path) -> None:
    page = tmp_path / "mine.html"
    page.write_text("the user's own file", encoding="utf-8")
    result = invoke("report", str(VIOLATING), "-o", str(page))
    assert result.exit_code == 2
    assert "mine.html: error: the file exists" in result.stderr
    assert page.read_text(encoding="utf-8") == "the user's own file"
    forced = invoke("report", str(VIOLATING), "-o", str(page), "--force")
    assert forced.exit_code == 1
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_bad_input_exits_2_located(tmp_path: Path) -> None:
    missing = invoke("report", str(tmp_path / "nope.trace"), "-o", str(tmp_path / "x.html"))
    assert missing.exit_code == 2
    assert "nope.trace: error: no such file" in missing.stderr
    bad = tmp_path / "bad.trace"
    bad.write_text("phase Φ14\n宾 飞 爵\n", encoding="utf-8")
    result = invoke("report", str(bad), "-o", str(tmp_path / "bad.html"))
    assert result.exit_code == 2
    assert re.search(r"bad\.trace:2: error: unknown act 飞", result.stderr)
    assert "Traceback" not in result.output
    assert not (tmp_path / "bad.html").exists()
    nodir = invoke("report", str(VIOLATING), "-o", str(tmp_path / "no" / "such" / "x.html"))
    assert nodir.exit_code == 2 and "error: no such directory" in nodir.stderr
    reading = invoke("report", str(VIOLATING), "--reading", "guan=nonsense", "-o", str(tmp_path / "r.html"))
    assert reading.exit_code == 2


def test_reading_changes_the_verdict(tmp_path: Path) -> None:
    """Under guan=hou (any hit on the 侯 scores) the 中侯 arrow scores, so its tally breaks no rule."""
    page = tmp_path / "hou.html"
    result = invoke("report", str(VIOLATING), "--reading", "guan=hou", "-o", str(page))
    html = page.read_text(encoding="utf-8")
    assert result.exit_code == 0, result.stderr
    assert "guan=hou" in html
    assert 'id="rule-bu-guan-bu-shi"' not in html


# -- what the page holds ----------------------------------------------------------------------------


def test_one_lane_per_person(pages) -> None:
    for name, trace in (("canonical", CANONICAL), ("violating", VIOLATING)):
        html = pages[name][0].read_text(encoding="utf-8")
        lanes = [a["data-person"] for t, a, _ in elements(html) if "data-person" in a]
        assert lanes == list(parse(trace).cast.persons), name


def test_every_link_has_its_anchor_and_every_finding_is_linked(pages) -> None:
    from xiangshe.constraints.check import check_trace

    for name, trace in (("canonical", CANONICAL), ("violating", VIOLATING)):
        tags = elements(pages[name][0].read_text(encoding="utf-8"))
        ids = {a["id"] for _, a, _ in tags if "id" in a}
        hrefs = {a["href"][1:] for t, a, _ in tags if t == "a" and a.get("href", "").startswith("#")}
        assert hrefs <= ids, hrefs - ids
        rules = {f.rule for f in check_trace(parse(trace)).findings}
        assert {f"rule-{r}" for r in rules} <= hrefs
        assert {f"rule-{r}" for r in rules} <= ids
    assert "rule-bu-guan-bu-shi" in hrefs


def test_an_event_breaking_several_rules_links_to_each(tmp_path: Path) -> None:
    """Draining a cup still in its basket: the 爵's machine refuses, and R030 (献宾 has 荐) objects."""
    trace = tmp_path / "two.trace"
    trace.write_text("phase Φ05\n宾 卒爵 爵1\n", encoding="utf-8")
    page = tmp_path / "two.html"
    assert invoke("report", str(trace), "-o", str(page)).exit_code == 1
    tags = elements(page.read_text(encoding="utf-8"))
    hrefs = {a["href"] for t, a, _ in tags if t == "a"}
    ids = {a["id"] for _, a, _ in tags if "id" in a}
    assert {"#rule-machine.jue", "#rule-fan-ju-jue-san-zuo-er-bu-tu-jue"} <= hrefs
    assert {"rule-machine.jue", "rule-fan-ju-jue-san-zuo-er-bu-tu-jue"} <= ids


def test_violation_section_quotes_the_text_in_context(pages) -> None:
    html = pages["violating"][0].read_text(encoding="utf-8")
    section = html[html.index('id="rule-bu-guan-bu-shi"') :]
    section = section[: section.index("</article>")]
    assert "R120" in section and "不贯不释" in section
    assert "<mark>不贯不释</mark>" in section  # the quote, marked in its context
    assert "xiangsheli.txt:134" in section
    assert re.search(r'class="hit"><i>40</i> 释获者 释获 算 for=弟子1', section)  # the trace line


def test_state_diagram_has_one_node_per_state(pages) -> None:
    from xiangshe.fsm.table import tables

    tags = elements(pages["canonical"][0].read_text(encoding="utf-8"))
    for t in tables():
        nodes = [
            a["data-state"] for tag, a, m in tags if m == t.name and tag == "g" and "node" in a.get("class", "").split()
        ]
        assert sorted(nodes) == sorted(t.states), t.name


def test_mermaid_text_names_every_state_and_edge() -> None:
    from xiangshe.fsm.table import tables
    from xiangshe.reports.diagram import mermaid

    for t in tables():
        text = mermaid(t)
        assert text.startswith("stateDiagram-v2\n")
        states = re.findall(r'^    state "(.+)" as s\d+$', text, re.M)
        assert states == list(t.states), t.name
        arrows = re.findall(r"^    s\d+ --> s\d+: (.+)$", text, re.M)
        assert arrows == [", ".join(acts) for acts in _by_pair(t).values()], t.name
        assert f"[*] --> s{t.states.index(t.initial)}" in text


def _by_pair(t) -> dict[tuple[str, str], list[str]]:
    out: dict[tuple[str, str], list[str]] = {}
    for e in t.edges:
        acts = out.setdefault((e.source, e.dest), [])
        if e.act not in acts:
            acts.append(e.act)
    return out


def test_state_strips_follow_the_replay() -> None:
    """Before each event on an object, its strip shows the state its machine was in."""
    from xiangshe.constraints.check import check_trace
    from xiangshe.fsm.replay import replay
    from xiangshe.reports.timeline import timeline

    trace = parse(CANONICAL)
    rep = replay(trace)
    tl = timeline(trace, rep, check_trace(trace).findings)
    strips = {s.key: s for s in tl.strips}
    checked = 0
    for e in trace.events:
        if e.obj is None or rep.obj_state[e.index] is None:
            continue
        x = e.index * tl.px
        seg = next(g for g in strips[e.obj.key].segments if g.x <= x < g.x + g.w)
        assert seg.state == rep.obj_state[e.index], (e.line, e.obj.key)
        checked += 1
    assert checked > 1000
    assert {"爵1", "觯1", "侯1", "旌1", "算1"} <= set(strips)


def test_scoring_audit_per_round(pages) -> None:
    html = pages["canonical"][0].read_text(encoding="utf-8")
    assert all(f'id="round-{n}"' in html for n in (1, 2, 3))
    violating = pages["violating"][0].read_text(encoding="utf-8")
    assert '<tr class="amiss"><td><code>39</code></td><td>弟子1</td>' in violating


def test_self_contained_and_small(pages) -> None:
    html = pages["canonical"][0].read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)  # nothing fetched
    assert "<script" not in html
    assert pages["canonical"][0].stat().st_size < 5 * 1024 * 1024


def test_everything_from_the_trace_is_escaped(tmp_path: Path) -> None:
    evil = '<script>alert("x")</script>'
    text = VIOLATING.read_text(encoding="utf-8")
    text = text.replace("cast 有司 有司", f"cast 有司 有司\ncast {evil} 弟子\ncast <svg/onload> 弟子")
    text = text.replace(
        "释获者 释获 算 for=弟子1 arrow=1 side=右", f"释获者 释获 算 for=弟子1 arrow=1 side=右   # </pre>{evil}"
    )
    text += f"\n{evil} 揖 to=<svg/onload>\n"
    trace = tmp_path / "<i>evil.trace"
    trace.write_text(text, encoding="utf-8")
    page = tmp_path / "evil.html"
    result = invoke("report", str(trace), "-o", str(page))
    assert result.exit_code == 1, result.stderr
    html = page.read_text(encoding="utf-8")
    assert "<script" not in html and "<svg/onload" not in html and "<i>evil" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html  # in the lanes and the excerpt
    assert "&lt;i&gt;evil.trace" in html
    lanes = [a["data-person"] for t, a, _ in elements(html) if "data-person" in a]
    assert evil in lanes  # the name, intact


# -- headless Chromium ------------------------------------------------------------------------------


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("CI"):
        pytest.fail("Chromium is not installed: CI must render the report (.ci/run installs it)")
    pytest.skip("Chromium is not installed")


def run_chromium(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            chromium(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--window-size=1400,1000",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def png_pixels(path: Path) -> tuple[int, int, list[bytes]]:
    """Decode an 8-bit RGB/RGBA PNG (what Chromium writes): width, height, rows of pixels."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0
    bpp = 3 if colour == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, [bytes(r[i : i + 3]) for r in rows[::7] for i in range(0, stride, bpp * 7)]


@pytest.mark.browser
@pytest.mark.parametrize("name", ["canonical", "violating"])
def test_renders_in_headless_chromium(pages, name: str, tmp_path: Path) -> None:
    page = pages[name][0]
    shot = tmp_path / f"{name}.png"
    run = run_chromium(f"--screenshot={shot}", page.as_uri())
    assert shot.is_file(), run.stderr[-2000:]
    width, height, pixels = png_pixels(shot)
    assert (width, height) == (1400, 1000)
    colours = set(pixels)
    commonest = max(pixels.count(c) for c in colours)
    assert len(colours) > 40 and commonest < 0.9 * len(pixels), "the screenshot is blank"

    dom = run_chromium("--dump-dom", page.as_uri()).stdout
    tags = elements(dom)
    ids = {a["id"] for _, a, _ in tags if "id" in a}
    assert {"timeline", "swimlane", "states", "findings", "machines"} <= ids
    lanes = [a["data-person"] for _, a, _ in tags if "data-person" in a]
    trace = CANONICAL if name == "canonical" else VIOLATING
    assert lanes == list(parse(trace).cast.persons)
    if name == "violating":
        assert any(t == "a" and a.get("href") == "#rule-bu-guan-bu-shi" for t, a, _ in tags)
        assert "rule-bu-guan-bu-shi" in ids
        assert "scoring" in ids


#: a test-only page (the report itself has no scripts): the report's own stylesheet, an element of
#: each kind that shows Chinese in the report, and a script that draws each character in the font
#: that element resolves to, next to a code point no font has (U+10FFFD, drawn as the .notdef box,
#: "tofu"). Characters that draw as that box, or that all draw alike, have no font.
GLYPH_PROBE = """<!doctype html><html><head><meta charset="utf-8">{styles}</head><body>
<header class="top"><span class="kicker">乡射礼</span></header><blockquote class="quote">乡射礼</blockquote>
<pre>乡射礼</pre><pre id="result">pending</pre>
<script>
const chars = {chars};
function ink(font, ch) {{
  const c = document.createElement("canvas"); c.width = c.height = 72;
  const g = c.getContext("2d"); g.font = font; g.fillStyle = "#000"; g.textBaseline = "top";
  g.fillText(ch, 8, 8);
  const a = g.getImageData(0, 0, 72, 72).data; let h = 2166136261, n = 0;
  for (let i = 3; i < a.length; i += 4) {{ if (a[i]) n++; h = Math.imul(h ^ a[i], 16777619) >>> 0; }}
  return [n, h];
}}
const out = [];
for (const sel of [".kicker", "blockquote.quote", "pre"]) {{
  const css = getComputedStyle(document.querySelector(sel));
  const font = "48px " + css.fontFamily;
  const tofu = ink(font, String.fromCodePoint(0x10FFFD));
  const seen = new Set(), missing = [], blank = [];
  for (const ch of chars) {{
    const [n, h] = ink(font, ch);
    if (!n) blank.push(ch.codePointAt(0).toString(16));
    else if (n === tofu[0] && h === tofu[1]) missing.push(ch.codePointAt(0).toString(16));
    seen.add(h);
  }}
  out.push([sel, css.fontFamily.replace(/[^ -~]/g, "?"), chars.length, seen.size, tofu[0], missing, blank]);
}}
document.getElementById("result").textContent = JSON.stringify(out);
</script></body></html>
"""


def cjk_characters(html: str) -> list[str]:
    text = re.sub(r"<style.*?</style>|<[^>]+>", "", html, flags=re.S)
    return sorted({c for c in text if "\u3400" <= c <= "\u9fff"})


@pytest.mark.browser
@pytest.mark.parametrize("name", ["violating"])
def test_chinese_characters_render_with_a_font_not_as_tofu(pages, name: str, tmp_path: Path) -> None:
    """Without a CJK font, Chromium draws every character of the report as the same empty box and
    a screenshot still looks like a page: draw 乡射礼 and every CJK character of the report in the
    report's own font stacks and compare each with the .notdef box."""
    import json

    html = pages[name][0].read_text(encoding="utf-8")
    styles = "".join(re.findall(r"<style.*?</style>", html, flags=re.S))
    assert "font-family" in styles
    chars = ["乡", "射", "礼", *(c for c in cjk_characters(html) if c not in "乡射礼")]
    assert len(chars) > 50
    probe = tmp_path / "probe.html"
    probe.write_text(GLYPH_PROBE.format(styles=styles, chars=json.dumps(chars, ensure_ascii=False)), encoding="utf-8")
    dom = run_chromium("--dump-dom", probe.as_uri()).stdout
    found = re.search(r'<pre id="result">(.*?)</pre>', dom, flags=re.S)
    assert found and found.group(1) != "pending", dom[-2000:]
    import html as html_module

    for selector, family, tested, distinct, tofu_ink, missing, blank in json.loads(
        html_module.unescape(found.group(1))
    ):
        assert tested == len(chars) and tofu_ink > 0, (selector, family)
        shown = ", ".join(chr(int(c, 16)) for c in missing[:20])
        assert not missing, (
            f"{len(missing)} of {tested} characters draw as the .notdef box (tofu) "
            f"in {selector} ({family}): {shown}; install a CJK font, e.g. "
            "apt-get install fonts-wqy-microhei"
        )
        assert not blank, (selector, blank[:20])
        assert distinct > 0.9 * tested, f"{selector}: {tested} characters draw as {distinct} shapes"
