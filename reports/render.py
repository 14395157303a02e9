"""Render check results and the rulebook as text (for people) and JSON (for programs)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from xiangshe.constraints.check import Finding, Result, Suppressed, causes
from xiangshe.constraints.rulebook import Rule
from xiangshe.domain.messages import Join, Message
from xiangshe.domain.text import TEXT
from xiangshe.domain.visible import clip, shorten, visible
from xiangshe.reports import messages as msg
from xiangshe.reports.messages import label, ok_summary, prose, t, violations_summary

if TYPE_CHECKING:
    from xiangshe.constraints.lint import Outcome
    from xiangshe.reports.tally import Tally


def finding_text(f: Finding, path: str) -> str:
    """`path:line: error: message [rule]`, then the offending line, the rule and the quoted text."""
    where = f"{path}:{f.line}" if f.line else path
    label = f.rule if not f.catalogue else f"{f.rule} {f.catalogue} {f.name}"
    out = [f"{where}: {t('error')}: {shorten(msg.say(f.message))} [{label}]"]
    if f.line:
        out.append(f"  {f.line:>4} | {clip(f.excerpt.strip())}")
    heads = msg.headings(f.headings)
    crumbs = "  " + " › ".join(heads) if heads else ""
    if prose(f.reading):
        out.append(f"  {t('why'):<5} {f.reading}")
    out.append(f"  {t('rule'):<5} {msg.say(f.defined)}{crumbs}")
    out.append(f"  {t('text'):<5} {f.citation}")
    return visible("\n".join(out))


def findings_text(r: Result, verbose: bool = False) -> list[str]:
    """The findings of one trace, one cause each (constraints/check.py `causes`): the findings that
    follow from a cause are counted under it, and shown, each marked, with `verbose`."""
    caused_by = causes(r.findings)
    under: dict[int, list[int]] = {}
    for i, c in enumerate(caused_by):
        if c is not None:
            under.setdefault(c, []).append(i)
    out = []
    for i, f in enumerate(r.findings):
        c = caused_by[i]
        if c is not None:
            if verbose:
                root = r.findings[c]
                out.append(finding_text(f, r.path) + "\n" + msg.follows_line(root.line, root.rule))
            continue
        block = finding_text(f, r.path)
        if i in under:
            grouped = [r.findings[j] for j in under[i]]
            rules: dict[str, int] = {}
            for g in grouped:
                rules[g.rule] = rules.get(g.rule, 0) + 1
            lines = [g.line for g in grouped if g.line]
            block += "\n" + visible(
                msg.followers_line(
                    len(grouped), rules, min(lines) if lines else None, max(lines) if lines else None, verbose
                )
            )
        out.append(block)
    return out


def cause_count(r: Result) -> int:
    """How many of the findings of `r` are causes (not following from another)."""
    return sum(1 for c in causes(r.findings) if c is None)


def scoring_text(r: Result, detail: bool = False) -> list[str]:
    """The scoring audit of one trace: a line per round, and per arrow where asked or where amiss."""
    from xiangshe.constraints.scoring import chun_qi

    if not r.scoring:
        return []
    out = [f"{r.path}: {t('scoring audit')}"]
    for rs in r.scoring:
        if rs.round == 1:
            hits = sum(1 for a in rs.arrows if a.result in ("中正", "中侯"))
            out.append(msg.round1_line(len(rs.arrows), hits))
            continue
        right, left = rs.tallies["右"], rs.tallies["左"]
        out.append(
            msg.round_line(
                rs.round, right, chun_qi(right), left, chun_qi(left), len(rs.arrows), sum(a.scores for a in rs.arrows)
            )
        )
        for c in rs.checks:
            mark = "✓" if c.ok else "✗"
            out.append(f"    {mark} {msg.say(c.what)}{msg.at_line(c.line)}  [{c.catalogue} 「{c.cite.quote}」]")
    for rs in r.scoring:
        for a in rs.arrows:
            amiss = a.tallied != (1 if a.scores else 0)
            if detail or amiss:
                mark = "✗" if amiss else " "
                out.append(
                    msg.arrow_line(
                        mark, f"{r.path}:{a.line}", a.round, a.shooter, a.side, a.arrow, a.why, a.tallied, a.cite.line
                    )
                )
    return out


def scoring_json(r: Result) -> list[dict] | None:
    if r.scoring is None:  # the audit was not made: no audit.* check applied (--select, --ignore)
        return None
    return [
        {
            "round": rs.round,
            "right": rs.tallies["右"],
            "left": rs.tallies["左"],
            "announced": rs.announced[0] if rs.announced else None,
            "announced_count": ({"chun": rs.said_chun, "qi": rs.said_qi} if rs.announced else None),
            "layout": [
                {"side": side, "act": act, "chun": chun, "qi": qi, "line": line}
                for side in sorted(rs.layout, key=lambda x: "右左?".find(x))
                for act, chun, qi, line in rs.layout[side]
            ],
            "checks": [
                {"ok": c.ok, "what": c.what, "line": c.line, "catalogue": c.catalogue, "quote": c.cite.quote}
                for c in rs.checks
            ],
            "arrows": [
                {
                    "event": a.index,
                    "line": a.line,
                    "shooter": a.shooter,
                    "side": a.side,
                    "arrow": a.arrow,
                    "result": a.result,
                    "beat": a.beat,
                    "scores": a.scores,
                    "tallied": a.tallied,
                    "why": a.why,
                    "source_line": a.cite.line,
                }
                for a in rs.arrows
            ],
        }
        for rs in r.scoring
    ]


def input_errors_text(results: Sequence[Result]) -> str:
    """The located input errors of the stagings that could not be read, in their order."""
    return Join((r.input_text() for r in results if r.input_errors), "\n", "\n")  # each in the language shown


def check_text(
    results: Sequence[Result],
    readings: dict[str, str] | None = None,
    scoring: bool = False,
    lint: Outcome | None = None,
    verbose: bool = False,
) -> str:
    """The findings (one per cause; every one with `verbose`) and scoring audit of each staging
    that was read, and a summary that counts the causes and the ones that could not be read
    (their errors are `input_errors_text`, shown before this)."""
    from xiangshe.reports.tally import Tally

    out = [line for r in results for line in trace_text(r, scoring, verbose)]
    return "\n".join(out + summary_text(Tally.of(results, lint), readings, lint))


def trace_text(r: Result, scoring: bool = False, verbose: bool = False) -> list[str]:
    """What `check_text` says of one staging before its summary: its findings and scoring audit."""
    return findings_text(r, verbose) + scoring_text(r, scoring) if r.readable else []


def summary_text(tally: Tally, readings: dict[str, str] | None = None, lint: Outcome | None = None) -> list[str]:
    """What `check_text` says after the stagings: their scopes, the counts, the linter's lines and
    the readings followed."""
    from xiangshe.reports.messages import unreadable_summary

    out = scope_text(tally)
    if tally.unreadable:
        n = tally.stagings
        out.append(unreadable_summary(tally.unreadable, n, tally.causes, tally.bad, tally.events, tally.findings))
    elif tally.causes:
        out.append(violations_summary(tally.causes, tally.bad, tally.stagings, tally.events, tally.findings))
    else:
        out.append(ok_summary(tally.stagings, tally.events))
    if lint is not None:
        from xiangshe.reports.lint import lint_text

        out += lint_text(tally, lint)
    if readings is not None:
        from xiangshe.constraints.readings import describe

        out.append(f"{t('readings')}: {msg.say(describe(readings))}")
    return out


def scope_text(tally: Tally) -> list[str]:
    """What each check covered (constraints/scope.py): one line per staging, or one for a batch."""
    from xiangshe.domain.trace import phase_span
    from xiangshe.reports.messages import batch_scope, scope_summary
    from xiangshe.reports.tally import SCOPE_LINES

    if not tally.scoped:
        return []
    if tally.scoped > SCOPE_LINES:
        whole = tally.whole
        return [f"{t('scope')}: {batch_scope(whole, tally.scoped - whole, len(tally.reached), len(tally.rules))}"]
    out = []
    for path, s in tally.scopes:
        line = scope_summary(
            s.claim(),
            len(s.phases),
            phase_span(s.phases) if s.phases else "",
            len(s.throughout),
            len(s.reached),
            list(s.unreached),
            [f"{o.instance} {o.state}" for o in s.open or ()] + [f"{p.rule} ({t('line')} {p.line})" for p in s.pending],
            s.whole,
            s.open is not None,
            s.narrowed,
        )
        out.append(f"{t('scope')}: " + (f"{path}: " if tally.scoped > 1 else "") + line)
    return out


def scope_json(r: Result) -> dict | None:
    s = r.scope
    if s is None:
        return None
    return {
        "whole": s.whole,
        "fragment": list(s.declared) if s.declared else ([] if not s.whole else None),
        "phases": list(s.phases),
        "missing_phases": list(s.missing),
        "rules_throughout": list(s.throughout),
        "rules_reached": list(s.reached),
        "rules_not_reached": list(s.unreached),
        "open": [
            {"instance": o.instance, "machine": o.machine, "state": o.state, "final": list(o.final), "line": o.line}
            for o in s.open
        ]
        if s.open is not None
        else None,
        "pending": [{"rule": p.rule, "line": p.line, "message": p.message} for p in s.pending],
        "occasion": occasion_json(s.occasion),
    }


def occasion_json(o) -> dict | None:
    """The occasion the rules were checked under: every field (declared or default), which the
    trace declared, and the line of its `occasion` header (null: nothing declared)."""
    if o is None:
        return None
    return {
        "presiding": o.presiding,
        "venue": o.venue,
        "site": o.site,
        "hou": o.hou,
        "zhong": o.zhong,
        "jing": o.jing,
        "jun": o.jun,
        "rank": o.rank,
        "declared": list(o.declared),
        "line": o.line,
    }


def finding_json(f: Finding, caused_by: int | None = None) -> dict:
    return {
        "rule": f.rule,
        "name": f.name,
        "catalogue": f.catalogue,
        "event": f.event,
        "line": f.line,
        "message": f.message,
        "quote": f.citation.quote,
        "source_line": f.citation.line,
        "defined": f.defined,
        "reading": f.reading,
        "caused_by": caused_by,
    }


def suppressed_json(s: Suppressed) -> dict:
    doc = finding_json(s.finding)
    del doc["caused_by"]  # a suppressed finding is grouped under nothing
    return doc | {"suppressed": True, "kind": s.kind, "reason": s.reason, "suppression_line": s.line}


def input_error_json(e) -> dict:
    """One input error: where, what, the hint, and the located message as `check` prints it."""
    return {"path": e.path, "line": e.line, "message": e.message, "hint": e.hint, "text": e.render()}


def trace_json(r: Result) -> dict:
    doc = {
        "path": r.path,
        "ok": r.ok,
        "events": r.events,
        "violations": [finding_json(f, c) for f, c in zip(r.findings, causes(r.findings), strict=True)],
        "causes": cause_count(r),
        "suppressed": [suppressed_json(s) for s in r.suppressed],
        "not_applied": list(r.not_applied),
        "scoring": scoring_json(r),
        "scope": scope_json(r),
    }
    if r.input_errors:
        doc["error"] = r.input_text()
        doc["input_errors"] = [input_error_json(e) for e in r.input_errors]
    return doc


def check_json(results: Sequence[Result], readings: dict[str, str] | None = None, lint: Outcome | None = None) -> str:
    doc: dict = {"traces": [trace_json(r) for r in results]}
    if readings is not None:
        doc["readings"] = readings
    if lint is not None and lint.baseline is not None:
        b = lint.baseline
        doc["baseline"] = {"file": b.shown, "baselined": b.baselined, "absent": b.absent}
    return json.dumps(doc, ensure_ascii=False, indent=2)


def rule_json(r: Rule, readings: dict[str, str] | None = None) -> dict:
    doc: dict[str, object] = {
        "id": r.id,
        "name": r.name,
        "catalogue": r.catalogue,
        "status": r.status,
        "quotes": [{"text": c.quote, "source_line": c.line} for c in r.citations],
        "defined": r.location,
    }
    if r.when:
        doc["when"] = [f"{p}={o}" for p, o in r.when]
        doc["active"] = r.active(readings)
    if r.encoded:
        doc["kind"] = r.template.kind
    if r.reason:
        doc["reason"] = r.reason
    if r.reading:
        doc["reading"] = r.reading
    return doc


def rules_json(rules: Iterable[Rule], readings: dict[str, str] | None = None) -> str:
    doc: dict[str, object] = {"rules": [rule_json(r, readings) for r in rules]}
    if readings is not None:
        doc["readings"] = readings
    return json.dumps(doc, ensure_ascii=False, indent=2)


def rules_text(rules: Sequence[Rule], readings: dict[str, str] | None = None) -> str:
    out = []
    for r in rules:
        status = t(r.template.kind if r.encoded else r.status)
        when = msg.when_text(",".join(f"{p}={o}" for p, o in r.when), r.active(readings)) if r.when else ""
        out.append(
            f"{r.catalogue or '    '}  {r.name}  {r.id}  [{status}]  "
            f"{r.citations[0].source}:{r.citations[0].line}{when}"
        )
    counts = {s: sum(1 for r in rules if r.status == s) for s in ("encoded", "descriptive", "deferred")}
    out.append(msg.rules_summary(len(rules), counts))
    return "\n".join(out)


def explain_text(x) -> str:
    """`explain`: the rule, its quotes in context, the contested readings that concern it, and a
    passing and a failing example (x: constraints.explain.Explanation)."""
    r = x.rule
    heads = msg.headings(r.headings)
    out = [
        f"{r.name}  ({r.id}{', ' + r.catalogue if r.catalogue else ''})",
        f"  {label('defined')}{r.location}" + ("  " + " › ".join(heads) if heads else ""),
        f"  {label('status')}{t(r.status)}" + (f": {prose(r.reason)}" if prose(r.reason) else ""),
    ]
    if r.encoded:
        out.append(f"  {label('kind')}{t(r.template.kind)}")
        for name, value, quoted in r.template.shown():
            out.append(f"  {label(name)}{_quoted(value) if quoted else value}")
    if prose(r.reading):
        out.append(f"  {label('reading')}{r.reading}")
    out.append(f"  {t('text')}:")
    for c in r.citations:
        before, quote, after = TEXT.context(c)
        out.append(f"    {c.source}:{c.line}  …{before}【{quote}】{after}…")
    out += _concerns_text(x.concerns)
    out += _example_text("passing", x.passing, x.rule)
    out += _example_text("failing", x.failing, x.rule)
    for path in x.failing_files:
        if x.failing is None or path != x.failing.path:
            out.append(f"  {t('also failing'):<16} {path}")
    return "\n".join(out)


def _quoted(value) -> str:
    """A pattern of the rule language as explain shows it: as written, and 「quoted」 under zh."""
    return f"「{value}」" if msg.zh() else str(value)


def _concerns_text(concerns) -> list[str]:
    if not concerns:
        return []
    out = [f"  {t('contested readings')}:"]
    for c in concerns:
        p = c.point
        out.append(f"    {p.name}  {prose(p.question) or '「' + p.quote + '」'}")
        for o in p.options.values():
            mark = "▸" if o.name == c.follows else " "
            tags = [t(tag) for tag, on in (("default", o.name == p.default), ("this rule", o.name == c.follows)) if on]
            if not o.encoded:
                tags.append(f"{t('not checkable')}: {prose(o.reason)}" if prose(o.reason) else t("not checkable"))
            label = prose(o.label) or ""
            out.append(f"      {mark} {o.name:<15} {label}".rstrip() + (f"  [{'; '.join(tags)}]" if tags else ""))
            if msg.source_note(o.source):
                out.append(f"        {'':<15} — {o.source}")
        if c.follows is None:
            out.append(f"      {t('the rule holds under every reading of this point')}")
    return out


def _example_text(kind: str, ex, rule: Rule) -> list[str]:
    label = f"  {t(kind + ' example')}  "
    if ex is None:
        if kind == "failing":
            why = t("no violating example is bundled for this rule") if rule.encoded else msg.status_text(rule.status)
        else:
            why = f"{t('none')}: " + (
                t("no bundled staging triggers the rule and keeps it") if rule.encoded else msg.status_text(rule.status)
            )
        return [label + why]
    where = f"{ex.path}:{ex.line}" if ex.line else ex.path
    note = msg.say(ex.note)
    out = [f"{label}{where}  " + (f"（{note}）" if msg.zh() else f"({note})")]
    mark = "✗" if kind == "failing" else "✓"
    for n, text in ex.window:
        out.append(f"    {mark if n == ex.line else ' '} {n:>4} | {text}")
    if ex.finding is not None:
        out.append(f"    {t('error')}: {msg.say(ex.finding.message)} [{ex.finding.rule}]")
    return out


def explain_json(x) -> dict:
    """`explain --format json`: the rule's fields, `contested` readings and `examples`."""
    return rule_json(x.rule) | {
        "contested": [c.to_json() for c in x.concerns],
        "examples": {
            "passing": x.passing.to_json() if x.passing else None,
            "failing": x.failing.to_json() if x.failing else None,
            "failing_files": list(x.failing_files),
        },
    }


def counterexample_text(rule: Rule, trace, steps: int, saved: str | None, shortest: bool = True) -> str:
    """TLC-style: numbered steps with the state changes each causes; the violating step marked."""
    from xiangshe.constraints.check import check_trace
    from xiangshe.fsm.replay import replay

    rep = replay(trace)
    findings = check_trace(trace, [rule]).findings  # the rule's, and the scoring audit's
    bad = {f.event for f in findings if f.rule == rule.id}
    plural = msg.steps_text(steps, shortest)
    zh = msg.zh()
    if rule.asked:
        out = [
            f"所问性质的反例：状态机与规则都允许它（{plural}）"
            if zh
            else f"counterexample to the property: the machines and the rules allow it ({plural})"
        ]
    elif zh:
        out = [
            f"{rule.location}: 反例：状态机与其他规则都允许、而 {rule.id}（{rule.catalogue} {rule.name}）"
            f"所禁止的仪注（{plural}）"
        ]
    else:
        out = [
            f"{rule.location}: counterexample: the machines and the other rules allow what "
            f"{rule.id} ({rule.catalogue} {rule.name}) forbids ({plural})"
        ]
    for p in trace.cast.pairs.values():
        out.append(
            f"     耦 {p.name}：上射 {p.upper}，下射 {p.lower}"
            if zh
            else f"     pair {p.name}: 上射 {p.upper}, 下射 {p.lower}"
        )
    for e in trace.events:
        changes = "; ".join(f"{who}: {a} → {b}" for who, a, b in rep.changes[e.index])
        mark = "  ✗" if e.index in bad else ""
        note = f"  # {changes}" if changes else ""
        out.append(f"  {e.index + 1:>2}  {e.phase or '':<4} {e.render()}{note}{mark}")
    if any(e is None for e in bad):
        out.append("  ✗ 人员本身（其耦）违反此规则" if zh else "  ✗ the cast itself (the pairs) breaks the rule")
    audit = [f for f in findings if f.rule.startswith("audit.")]
    for f in audit:
        out.append(
            f"  注：计分核查亦有异议：{msg.say(f.message)} [{f.rule}]"
            if zh
            else f"  note: the scoring audit also objects: {f.message} [{f.rule}]"
        )
    for c in rule.citations if not rule.asked else ():
        out.append(f"  {t('text')}  {c}")
    if saved:
        out.append(
            f"  已存 {saved}（xiangshe check {saved} 恰报 {rule.id}）"
            if zh
            else f"  saved {saved}  (xiangshe check {saved} reports exactly {rule.id})"
        )
    return "\n".join(out)


def coverage_text(cov, totals: dict, show_all: bool) -> str:
    """`coverage`: the worklist (the normative clauses nothing enforces, in the text's order) or,
    with --all, every clause with its category; then the totals."""
    out = [] if show_all else [msg.coverage_worklist(totals)]
    for c in cov.clauses if show_all else cov.worklist:
        quoted: dict[str, str | None] = {}
        for q in c.quotes:
            if not q.enforces:  # an edge's self-loops once per machine and act
                quoted.setdefault(q.label.split(":")[0] if q.why_not == "self-loop" else q.label, q.why_not)
        notes = msg.coverage_notes(
            c.category,
            [msg.coverage_label(x) for x in c.enforced_by],
            [msg.coverage_label(x, why) for x, why in sorted(quoted.items())],
            c.not_enacted,
            c.descriptive,
        )
        out.append(msg.coverage_line(c.line, c.category, c.text, notes))
    out.append(msg.coverage_summary(totals))
    return "\n".join(out)


def rulecheck_text(report, search_all: bool) -> str:
    """`check-rules`: the checks that fail or warn (and the notes, with --search-all), then a count
    per kind of check."""
    out = []
    for i in report.items:
        allowed = i.check == "vacuity" and i.message.startswith("not staged:")
        if not i.ok or i.severity == "warning" or (i.severity == "note" and (search_all or allowed)):
            where = f"{i.location}: " if i.location else ""
            subject = t(i.subject) if i.subject == "all" else i.subject
            out.append(f"{where}{t(i.severity if not i.ok else 'note')}: {t(i.check)}: {subject}: {msg.say(i.message)}")
    by: dict[str, tuple[int, int]] = {}
    for i in report.items:
        good, total = by.get(i.check, (0, 0))
        by[i.check] = (good + (i.ok or i.severity != "error"), total + 1)
    if report.only is not None:
        out.append(msg.say(Message("rulecheck.only", n=len(report.only), ids=", ".join(report.only))))
    out.append(msg.rulecheck_summary(by, report.ok))
    return "\n".join(out)
