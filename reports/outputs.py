"""What each command prints, in each of its formats: the command line calls one of these and echoes
the text it returns (the wording itself is in render.py, messages.py and the format modules)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from xiangshe.domain.visible import visible


def check_output(fmt, results, rules, readings, linted, scoring=False, verbose=False) -> str:
    """`check`'s report of `results` in `fmt` (text uncoloured: the caller paints it for a terminal).
    The version (for SARIF) is read only for SARIF: the package metadata is slow to import."""
    from xiangshe.reports import render

    if fmt == "sarif":
        from xiangshe import version
        from xiangshe.reports.sarif import check_sarif

        return check_sarif(results, rules, readings, version(), linted.not_applied)
    if fmt == "junit":
        from xiangshe.reports.junit import check_junit

        return check_junit(results, rules, readings)
    if fmt == "github":
        from xiangshe.reports.github import check_github

        return check_github(results)
    if fmt == "json":
        return render.check_json(results, readings, linted)
    return visible(render.check_text(results, readings, scoring, linted, verbose))


def rulecheck_json(report, readings: dict[str, str]) -> str:
    """`check-rules --format json`: the verdict and every check."""
    checks = [
        {
            "check": i.check,
            "subject": i.subject,
            "ok": i.ok,
            "severity": i.severity,
            "message": i.message,
            "location": i.location,
            "quote": i.quote,
            "source_line": i.source_line,
        }
        for i in report.items
    ]
    doc: dict = {"ok": report.ok, "readings": readings}
    if report.only is not None:  # check-rules --rule: the rules it checked
        doc["rules"] = report.only
    doc["checks"] = checks
    return json.dumps(doc, ensure_ascii=False, indent=2)


def rulecheck_output(report, fmt: str, readings: dict[str, str], search_all: bool) -> str:
    """`check-rules`' report in `fmt`: text, json, sarif or junit."""
    if fmt == "sarif":
        from xiangshe import version
        from xiangshe.reports.sarif import rulecheck_sarif

        return rulecheck_sarif(report, readings, version())
    if fmt == "junit":
        from xiangshe.reports.junit import rulecheck_junit

        return rulecheck_junit(report)
    if fmt == "json":
        return rulecheck_json(report, readings)
    from xiangshe.reports.render import rulecheck_text

    return rulecheck_text(report, search_all)


def coverage_output(cov, fmt: str, show_all: bool) -> str:
    """`coverage`'s report: the JSON document, or the text (every clause with --all)."""
    if fmt == "json":
        from xiangshe.constraints.coverage import document

        return json.dumps(document(cov), ensure_ascii=False, indent=2)
    from xiangshe.reports.render import coverage_text

    return coverage_text(cov, cov.totals(), show_all)


def counterexample_json(cx, trace_file: str | None = None) -> dict:
    """`counterexample --format json` (schemas/counterexample.schema.json); `trace_file` is where the
    counterexample was saved, if it was."""
    from xiangshe.constraints.search import Exhausted, Refuted, Unknown

    outcome = cx.outcome
    doc = {
        "rule": cx.rule.id,
        "name": cx.rule.name,
        "catalogue": cx.rule.catalogue,
        "depth": cx.depth,
        "found": isinstance(outcome, Refuted),
        "steps": getattr(outcome, "steps", None),
        "trace_file": None,
        "readings": cx.readings,
    }
    if isinstance(outcome, Exhausted):
        doc["outcome"] = f"none up to {cx.depth} steps"
    elif isinstance(outcome, Unknown):
        doc["outcome"] = f"unknown: {outcome.reason}"
    if not cx.found:
        return doc
    doc |= {"found": True, "steps": cx.steps, "shortest": cx.shortest}
    if cx.source is not None:
        doc["source"] = cx.source
    if not cx.minimal:
        doc["minimal"] = False
    doc["trace_file"] = trace_file
    doc["trace"] = cx.text
    return doc


def counterexample_text(cx, trace_file: str | None = None) -> str:
    """What `counterexample` says: the counterexample and its trace, or why there is none to show."""
    from xiangshe.constraints.search import Exhausted, Unknown
    from xiangshe.domain.messages import Message
    from xiangshe.domain.parse import parse_lines
    from xiangshe.reports import messages, render

    rule, outcome = cx.rule, cx.outcome
    said: Sequence[str] = ()
    if isinstance(outcome, Exhausted):
        said = [messages.no_counterexample(rule.location, rule.id, cx.depth)]
    elif isinstance(outcome, Unknown):
        said = [messages.solver_gave_up(rule.location, outcome.depth, outcome.reason)]
    if not cx.found:
        return "\n".join(said)
    if cx.source is not None:
        said = [*said, messages.bundled_counterexample(rule.location, cx.source)]
    if not cx.minimal:
        said = [*said, messages.say(Message("counterexample.not-minimal", where=rule.location))]
    trace = parse_lines(cx.text, "<counterexample>")
    return "\n".join([*said, render.counterexample_text(rule, trace, cx.steps, trace_file, cx.shortest)])


def counterexample_output(cx, fmt: str, trace_file: str | None = None) -> str:
    """`counterexample`'s report in `fmt` (text or json)."""
    if fmt == "json":
        return json.dumps(counterexample_json(cx, trace_file), ensure_ascii=False, indent=2)
    return counterexample_text(cx, trace_file)


def counterexample_file(cx) -> str:
    """The trace file `counterexample -o FILE` writes: a comment saying what it is, then the trace."""
    how = "shortest" if cx.shortest else f"minimised from {cx.source}, not shown to be shortest"
    how += "" if cx.minimal else " (nor minimal: its minimising stopped at a bound)"
    header = (
        f"# a counterexample to {cx.rule.id} ({cx.rule.catalogue} {cx.rule.name}): "
        f"{cx.steps} steps, {how}; `xiangshe check` reports exactly this rule\n"
    )
    return header + cx.text


def query_json(answer) -> dict:
    """`query --format json` (schemas/query.schema.json)."""
    doc = {
        "property": dict(answer.data),
        "depth": answer.depth,
        "holds": answer.holds,  # True, False, or None when the solver gave up
        "readings": answer.readings,
    }
    if answer.holds is False:
        doc |= {"counterexample": answer.text, "steps": answer.steps}
    elif answer.holds is None:
        doc["outcome"] = f"unknown: {answer.reason}"
    return doc


def query_output(answer, fmt: str, encoded: int, trace_file: str | None = None) -> str:
    """`query`'s report in `fmt` (text or json): the counterexample, "holds up to the depth" (with the
    number of `encoded` rules it was asked under), or that the solver gave up."""
    from xiangshe.domain.parse import parse_lines
    from xiangshe.reports import messages, render

    if fmt == "json":
        return json.dumps(query_json(answer), ensure_ascii=False, indent=2)
    if answer.holds is False:
        trace = parse_lines(answer.text, "<counterexample>")
        return render.counterexample_text(answer.prop, trace, answer.steps, trace_file)
    if answer.holds:
        return messages.query_holds(answer.depth, encoded)
    return messages.solver_gave_up(None, None, answer.reason)
