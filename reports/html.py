"""The HTML report of one checked trace: one self-contained page (inline CSS and SVG, no network).

Sections: a summary; the swimlane timeline with the phases and the state of every vessel and
implement; the findings, each rule with its reading and its quotes in context; the scoring audit;
the state diagram of every machine (SVG laid out here, and Mermaid text to copy).
Everything is rendered by jinja2 with autoescape on: nothing from the trace reaches the page raw.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from xiangshe.constraints.check import Finding, Result
from xiangshe.constraints.rulebook import Rule, rulebook
from xiangshe.constraints.scoring import chun_qi
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.text import TEXT, Citation
from xiangshe.domain.trace import Trace
from xiangshe.fsm.replay import replay
from xiangshe.fsm.table import tables
from xiangshe.reports.diagram import layout, mermaid
from xiangshe.reports.floorplan import panels
from xiangshe.reports.overview import overview
from xiangshe.reports.timeline import findings_by_event, rule_anchor, timeline

TEMPLATES = Path(__file__).with_name("templates")
CONTEXT_WIDTH = 24  # characters of the text either side of a quote


@dataclass(frozen=True)
class Quote:
    before: str
    quote: str
    after: str
    where: str  # xiangsheli.txt:134 or :134–135


@dataclass(frozen=True)
class Occurrence:
    finding: Finding
    anchor: str
    excerpt: tuple[tuple[int, str, bool], ...]  # trace lines around it: (line, text, is it)


@dataclass(frozen=True)
class RuleGroup:
    rule: str
    anchor: str
    name: str
    catalogue: str | None
    kind: str  # rule, machine, audit
    reading: str | None
    defined: str
    headings: tuple[str, ...]
    quotes: tuple[Quote, ...]
    occurrences: tuple[Occurrence, ...]


def quote_in_context(c: Citation) -> Quote:
    before, quote, after = TEXT.context(c, CONTEXT_WIDTH)
    span = f"{c.line}" if c.end_line == c.line else f"{c.line}–{c.end_line}"
    return Quote(before, quote, after, f"{c.source}:{span}")


def _excerpt(trace: Trace, line: int | None, around: int = 2) -> tuple[tuple[int, str, bool], ...]:
    if not line:
        return ()
    first, last = max(1, line - around), min(len(trace.source_lines), line + around)
    return tuple((n, trace.line_text(n), n == line) for n in range(first, last + 1))


def rule_groups(trace: Trace, findings: Sequence[Finding]) -> list[RuleGroup]:
    """The findings grouped by rule, in order of first occurrence, with each rule's quotes."""
    by_id: dict[str, Rule] = {r.id: r for r in rulebook()}
    groups: dict[str, list[Finding]] = {}
    for f in findings:
        groups.setdefault(f.rule, []).append(f)
    out = []
    n = 0
    for rid, fs in groups.items():
        rule = by_id.get(rid)
        cites = rule.citations if rule else (fs[0].citation,)
        kind = "machine" if rid.startswith("machine.") else "audit" if rid.startswith("audit.") else "rule"
        occ = []
        for f in fs:
            n += 1
            occ.append(Occurrence(f, f"finding-{n}", _excerpt(trace, f.line)))
        out.append(
            RuleGroup(
                rid,
                rule_anchor(rid),
                fs[0].name,
                fs[0].catalogue,
                kind,
                fs[0].reading,
                rule.location if rule else fs[0].defined,
                rule.headings if rule else fs[0].headings,
                tuple(quote_in_context(c) for c in dict.fromkeys(cites)),
                tuple(occ),
            )
        )
    return out


@dataclass(frozen=True)
class MachineView:
    diagram: object
    mermaid: str
    anchor: str
    applies: str


def machine_views() -> list[MachineView]:
    out = []
    for t in tables():
        applies = ", ".join(t.objects) if t.objects else ", ".join(t.roles) or ""
        if t.shooters:
            applies = (applies + ", " if applies else "") + "every shooter in a pair (耦)"
        out.append(MachineView(layout(t), mermaid(t), f"machine-{t.slug}", applies))
    return out


@cache
def _env() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["chun_qi"] = chun_qi
    env.filters["n"] = lambda v: f"{v:.1f}".rstrip("0").rstrip(".")
    return env


def html_report(
    trace: Trace, result: Result, readings: dict[str, str], generator: str = "xiangshe", all_readings: str = ""
) -> str:
    """The report page of `trace`, checked as `result` under `readings` (`all_readings`: the section of
    reports/allreadings.py, when asked for)."""
    from xiangshe.constraints.readings import describe

    rep = replay(trace)
    tl = timeline(trace, rep, result.findings)
    groups = rule_groups(trace, result.findings)
    strip = overview(trace, [(o.finding, o.anchor) for g in groups for o in g.occurrences])
    located = findings_by_event(trace, result.findings)
    unplaced = [f for f in result.findings if not any(f in fs for fs in located.values())]
    phases = sorted({e.phase for e in trace.events if e.phase})
    return (
        _env()
        .get_template("report.html.j2")
        .render(
            trace=trace,
            result=result,
            tl=tl,
            floorplan=panels(trace, result.findings),
            ov=strip,
            groups=groups,
            unplaced=unplaced,
            machines=machine_views(),
            readings=describe(readings),
            generator=generator,
            persons=len(trace.cast.persons),
            phases=phases,
            rules_hit=len(groups),
            text_name=TEXT.name,
            all_readings=all_readings,
        )
    )
