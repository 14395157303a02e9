"""Every reading at once, as a reader sees it: the one-line verdict ("holds under 郑注 and 敖继公
alike", or where it flips and at which lines), the text and JSON of `readings FILE` (also `check
--all-readings`), the section of the HTML report (`report FILE --all-readings`), and the command
itself (`run`). What is compared is constraints/allreadings.py's; each reading is named with who
reads it so (`by` in constraints/readings.toml) and, in JSON and HTML, its quoted source.

Exit status of the command: 2 when a staging cannot be read, else 3 when a bound stopped the
comparison of some staging before every combination was checked (inconclusive: never "holds under
every reading"), else 1 when some staging fails under some reading, else 0.
"""

from __future__ import annotations

import itertools
import json
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from xiangshe.constraints.allreadings import LIMIT, Comparison, Under, compare
from xiangshe.constraints.check import Finding, Result, unreadable
from xiangshe.constraints.readings import Readings, points
from xiangshe.domain.messages import Join, Message
from xiangshe.domain.visible import visible
from xiangshe.reports import messages as msg
from xiangshe.reports.messages import prose, t

if TYPE_CHECKING:
    from xiangshe.constraints.rulebook import Rule
    from xiangshe.constraints.select import Selection
    from xiangshe.domain.sources import Source
    from xiangshe.domain.trace import Trace

#: findings listed per group in text (the rest counted)
SHOWN = 8


# -- the words ---------------------------------------------------------------------------------------


def reading_label(point: str, option: str) -> str:
    """`guan=zheng (郑注, 贾疏, 张尔岐)`: a reading and who reads it so."""
    by = t(points()[point].options[option].by)
    return f"{point}={option} ({by})" if by else f"{point}={option}"


def combination_label(u: Under) -> str:
    return ", ".join(reading_label(p, o) for p, o in u.varied) or "—"


def short_label(u: Under) -> str:
    """`guan=zheng, xian-huo=margin`: a combination without its sources (shown with the points)."""
    return ", ".join(f"{p}={o}" for p, o in u.varied) or "—"


def _condition(c: Comparison, picked: set[int]) -> list[tuple[str, str]] | None:
    """The fewest readings (one or two points) that pick out exactly the combinations `picked`
    among those checked ([] for all of them), or None."""
    combos = c.combinations
    if len(picked) == len(combos):
        return []
    for k in (1, 2):
        for bears in itertools.combinations(c.varying, k):
            for options in itertools.product(*(b.options for b in bears)):
                cond = list(zip((b.point for b in bears), options, strict=True))
                if {i for i, u in enumerate(combos) if all(u.readings[p] == o for p, o in cond)} == picked:
                    return cond
    return None


def _under(c: Comparison, picked: Sequence[int]) -> Join | Message:
    """The combinations `picked`, named as briefly as the readings allow."""
    cond = _condition(c, set(picked))
    if cond == [] and c.complete:
        return Message("readings.under-every")
    if cond:
        return Join([reading_label(p, o) for p, o in cond], " with ", "、")
    return Join([combination_label(c.combinations[i]) for i in picked], "; ", "；")


def _lines(findings: Sequence[Finding]) -> Message:
    """`line 40 (bu-guan-bu-shi)`, `line 1986, 2876 (audit.n10)`: where the findings are, by rule."""
    by_rule: dict[str, list[str]] = {}
    for f in sorted(findings, key=lambda f: f.sort_key):
        got = by_rule.setdefault(f.rule, [])
        shown = str(f.line) if f.line else "—"
        if shown not in got:
            got.append(shown)
    parts = [f"{', '.join(ls[:3])}{' …' if len(ls) > 3 else ''} ({rule})" for rule, ls in list(by_rule.items())[:3]]
    return Message("readings.lines", lines="; ".join(parts) + (" …" if len(by_rule) > 3 else ""))


def verdict(c: Comparison) -> Message:
    """The one line a scholar reads first: alike under every reading, or where it flips."""
    if not c.varying:
        return Message(
            "readings.none-bear",
            verdict=Message("readings.holds" if all(u.ok for u in c.combinations) else "readings.fails"),
        )
    if not c.complete:
        return bound_message(c)
    everyone = Join([reading_label(b.point, o) for b in c.varying for o in b.options], ", ", "、")
    if not c.fails:
        return Message("readings.all-hold", readings=everyone)
    if not c.holds:
        differ = c.differing()
        return Message(
            "readings.all-fail",
            readings=everyone,
            differ=Message("readings.differ", points=", ".join(differ)) if differ else "",
        )
    failing = [f for ch in c.changes if set(ch.under) & set(c.fails) for f in (ch.finding,)]
    return Message(
        "readings.flips",
        holds=_under(c, c.holds),
        fails=Message("readings.at-lines", readings=_under(c, c.fails), lines=_lines(failing)),
    )


# -- text -------------------------------------------------------------------------------------------


def _width(text: str) -> int:
    """Columns `text` takes in a terminal (a Chinese character takes two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _finding_line(f: Finding, path: str) -> str:
    where = f"{path}:{f.line}" if f.line else path
    name = f.rule if not f.catalogue else f"{f.rule} {f.catalogue} {f.name}"
    return f"    {where}: {name}: {msg.say(f.message)}"


def _listed(findings: Sequence[Finding], path: str) -> list[str]:
    out = [_finding_line(f, path) for f in findings[:SHOWN]]
    if len(findings) > SHOWN:
        more = Message("readings.findings", n=len(findings) - SHOWN)
        out.append(f"    … {msg.say(more)}")
    return out


def comparison_text(c: Comparison) -> list[str]:
    """What `readings` says of one staging: the verdict, each bearing point with its readings and
    who reads them so, each combination's verdict, and the findings that come and go."""
    out = [f"{c.path}: {msg.say(verdict(c))}"]
    for b in c.bearing:
        p = points()[b.point]
        out.append(f"  {b.point}  「{p.quote}」" + (f"  {p.question}" if prose(p.question) else ""))
        bears = Message("readings.bears", why=Join(b.why))
        out.append(f"    {msg.say(bears)}")
        for o in p.options.values():
            mark = f" ({t('default')})" if o.name == p.default else ""
            if b.pinned and o.name == b.options[0]:
                mark += " (--reading)"
            if o.name in b.options:
                tail = f" — {o.label}" if prose(o.label) else ""
            elif not o.encoded:
                reason = prose(o.reason) or ""
                tail = " — " + msg.say(Message("readings.unchecked", reason=reason)).rstrip("：: ")
            else:
                continue  # an encodable reading held off by --reading
            out.append(f"    {o.name}{mark}  {t(o.by)}{tail}")
    if c.varying:
        width = max(_width(short_label(u)) for u in c.combinations)
        for u in c.combinations:
            label = short_label(u)
            count = msg.say(Message("readings.findings", n=len(u.result.findings)))
            out.append(f"  {'✓' if u.ok else '✗'} {label}{' ' * (width - _width(label))}  {count}")
    groups: dict[tuple[int, ...], list[Finding]] = {}
    for ch in c.changes:
        groups.setdefault(ch.under, []).append(ch.finding)
    checked = Join([combination_label(u) for u in c.combinations], "; ", "；")
    for under, found in groups.items():
        only = Message("readings.only-under", readings=_under(c, under))
        out.append(f"  {msg.say(only)}:")
        out += _listed(found, c.path)
    if c.stable:
        every = Message("readings.under-every") if c.complete else Message("readings.only-under", readings=checked)
        out.append(msg.say(every).join(("  ", ":")))
        out += _listed(c.stable, c.path)
    if c.varying and c.flips:
        turns = Message("readings.turns-on", points=", ".join(c.deciding()))
        out.append(f"  {msg.say(turns)}")
    if not c.complete:
        out.append(f"  {msg.say(bound_message(c))}")
    return out


def bound_message(c: Comparison) -> Message:
    return Message("readings.bound", checked=len(c.combinations), total=c.total, limit=len(c.combinations))


# -- JSON -------------------------------------------------------------------------------------------


def _verdict_word(c: Comparison) -> str:
    if not c.complete:
        return "inconclusive"
    return "depends" if c.flips else "holds" if not c.fails else "fails"


def comparison_json(c: Comparison) -> dict:
    from xiangshe.reports.render import finding_json

    return {
        "path": c.path,
        "events": c.events,
        "verdict": _verdict_word(c),
        "summary": str(verdict(c)),
        "complete": c.complete,
        "combinations_total": c.total,
        "deciding": list(c.deciding()),
        "points": [
            {
                "point": b.point,
                "question": points()[b.point].question,
                "quote": points()[b.point].quote,
                "bears": [str(w) for w in b.why],
                "varies": b.varies,
                "pinned": b.pinned,
                "options": [
                    {
                        "option": o.name,
                        "by": o.by,
                        "label": o.label,
                        "source": o.source,
                        "default": o.name == points()[b.point].default,
                        "checked": o.name in b.options,
                        "reason": o.reason,
                    }
                    for o in points()[b.point].options.values()
                ],
            }
            for b in c.bearing
        ],
        "combinations": [
            {"readings": dict(u.varied), "ok": u.ok, "findings": len(u.result.findings)} for u in c.combinations
        ],
        "changes": [finding_json(ch.finding) | {"under": list(ch.under)} for ch in c.changes],
        "stable": [finding_json(f) for f in c.stable],
    }


def unreadable_json(r: Result) -> dict:
    from xiangshe.reports.render import input_error_json

    return {
        "path": r.path,
        "verdict": "unreadable",
        "error": r.input_text(),
        "input_errors": [input_error_json(e) for e in r.input_errors],
    }


def readings_json(docs: Sequence[dict], base: Readings, limit: int) -> str:
    return json.dumps(
        {"stagings": list(docs), "readings": base, "max_combinations": limit}, ensure_ascii=False, indent=2
    )


# -- HTML -------------------------------------------------------------------------------------------


def html_section(c: Comparison) -> str:
    """The section of the HTML report: the verdict, the readings with their sources, the
    combinations and the findings that come and go (reports/templates/allreadings.html.j2)."""
    from markupsafe import Markup

    from xiangshe.reports.html import _env

    groups: dict[tuple[int, ...], list[Finding]] = {}
    for ch in c.changes:
        groups.setdefault(ch.under, []).append(ch.finding)
    html = (
        _env()
        .get_template("allreadings.html.j2")
        .render(
            c=c,
            verdict=str(verdict(c)),
            word=_verdict_word(c),
            points=points(),
            combos=[(u, combination_label(u)) for u in c.combinations],
            groups=[(str(_under(c, under)), found) for under, found in groups.items()],
            deciding=c.deciding(),
            bound=str(bound_message(c)) if not c.complete else "",
        )
    )
    return Markup(html)


# -- the command ------------------------------------------------------------------------------------


def pinned(choices: Sequence[str], path: object = None) -> tuple[str, ...]:
    """The points the command line names (`--reading point=option`, a readings file): held, not varied."""
    names = [c.partition("=")[0] for c in choices]
    if path is not None:
        import tomllib
        from pathlib import Path

        names += list(tomllib.loads(Path(str(path)).read_text(encoding="utf-8")))
    return tuple(names)


def section_of(
    trace: Trace, base: Readings, choices: Sequence[str], path: object, selection: Selection | None, limit: int
) -> str:
    """The HTML section of `report FILE --all-readings`: `trace` compared under every reading that
    bears on it, the points named on the command line held."""
    return html_section(compare(trace, base, pinned(choices, path), limit, _linter(selection)))


def run(
    sources: Sequence[Source],
    base: Readings,
    held: Sequence[str],
    selection: Selection | None,
    fmt: str | None,
    limit: int = LIMIT,
    given: dict | None = None,
) -> int:
    """Compare each staging under every reading that bears on it; write the report in `fmt` (text
    as each staging is done, JSON at the end); the exit status. `given`: the other options of the
    command line (`check --all-readings` forwards its own): a baseline is refused, as is a format
    other than text or json."""
    from xiangshe.domain.errors import TraceError
    from xiangshe.domain.parse import TraceErrors
    from xiangshe.reports.cli import BadInput
    from xiangshe.reports.echo import echo
    from xiangshe.reports.messages import input_errors

    given = given or {}
    if given.get("write_baseline") is not None or given.get("baseline_file") is not None:
        raise BadInput(Message("input.error-bare", message=Message("readings.no-baseline")))
    if fmt not in (None, "text", "json"):
        raise click.BadParameter(f"{fmt}: every reading at once is written as text or json", param_hint="--format")
    fmt = fmt or "text"
    finish = _linter(selection)
    docs: list[dict] = []
    unread = incomplete = failing = False
    flips = combos = 0
    for source in sources:
        try:
            trace = source.read()
        except (TraceErrors, TraceError) as err:
            r = unreadable(source.display, err)
            echo(input_errors(r.input_text()), err=True)
            docs.append(unreadable_json(r))
            unread = True
            continue
        c = compare(trace, base, held, limit, finish)
        combos += len(c.combinations)
        flips += c.flips
        incomplete |= not c.complete
        failing |= bool(c.fails)
        if fmt == "json":
            docs.append(comparison_json(c))
        else:
            click.echo(visible("\n".join(comparison_text(c))))
    if fmt == "json":
        click.echo(visible(readings_json(docs, base, limit)))
    else:
        summary = Message("readings.summary", stagings=len(sources), combinations=combos, flips=flips)
        click.echo(visible(msg.say(summary)))
    return 2 if unread else 3 if incomplete else 1 if failing else 0


def _linter(selection: Selection | None):
    """The selection and inline suppressions applied to each combination's result, as `check` applies
    them (None: nothing to apply)."""
    if selection is None:
        return None
    from xiangshe.constraints.lint import apply
    from xiangshe.constraints.select import in_force

    def finish(result: Result, rules: Sequence[Rule]) -> Result:
        return apply([result], selection, in_force(rules)).results[0]

    return finish
