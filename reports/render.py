"""Render check results and the rulebook as text (for people) and JSON (for programs)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from xiangshe.constraints.check import Finding, Result
from xiangshe.constraints.rulebook import Rule
from xiangshe.domain.text import TEXT
from xiangshe.domain.visible import clip, shorten, visible
from xiangshe.reports.messages import ok_summary, t, violations_summary


def finding_text(f: Finding, path: str) -> str:
    """`path:line: error: message [rule]`, then the offending line, the rule and the quoted text."""
    where = f"{path}:{f.line}" if f.line else path
    label = f.rule if not f.catalogue else f"{f.rule} {f.catalogue} {f.name}"
    out = [f"{where}: {t('error')}: {shorten(f.message)} [{label}]"]
    if f.line:
        out.append(f"  {f.line:>4} | {clip(f.excerpt.strip())}")
    crumbs = "  " + " › ".join(f.headings) if f.headings else ""
    if f.reading:
        out.append(f"  {t('why'):<5} {f.reading}")
    out.append(f"  {t('rule'):<5} {f.defined}{crumbs}")
    out.append(f"  {t('text'):<5} {f.citation}")
    return visible("\n".join(out))


def scoring_text(r: Result, detail: bool = False) -> list[str]:
    """The scoring audit of one trace: a line per round, and per arrow where asked or where amiss."""
    from xiangshe.constraints.scoring import chun_qi

    if not r.scoring:
        return []
    out = [f"{r.path}: {t('scoring audit')}"]
    for rs in r.scoring:
        if rs.round == 1:
            hits = sum(1 for a in rs.arrows if a.result in ("贯", "中不贯"))
            out.append(f"  round 1: {len(rs.arrows)} arrows, {hits} hits called, none tallied (获而未释获)")
            continue
        right, left = rs.tallies["右"], rs.tallies["左"]
        out.append(f"  round {rs.round}: 右 {right} ({chun_qi(right)}), 左 {left} ({chun_qi(left)}); "
                   f"{len(rs.arrows)} arrows, {sum(a.scores for a in rs.arrows)} score")
        for c in rs.checks:
            mark = "✓" if c.ok else "✗"
            where = f" (line {c.line})" if c.line else ""
            out.append(f"    {mark} {c.what}{where}  [{c.catalogue} 「{c.cite.quote}」]")
    for rs in r.scoring:
        for a in rs.arrows:
            amiss = a.tallied != (1 if a.scores else 0)
            if detail or amiss:
                mark = "✗" if amiss else " "
                tally = f"{a.tallied} tall{'y' if a.tallied == 1 else 'ies'}"
                out.append(f"  {mark} {r.path}:{a.line}  round {a.round} {a.shooter} ({a.side}) arrow "
                           f"{a.arrow}: {a.why}; {tally}  [xiangsheli.txt:{a.cite.line}]")
    return out


def scoring_json(r: Result) -> list[dict]:
    return [{"round": rs.round, "right": rs.tallies["右"], "left": rs.tallies["左"],
             "announced": rs.announced[0] if rs.announced else None,
             "checks": [{"ok": c.ok, "what": c.what, "line": c.line, "catalogue": c.catalogue,
                         "quote": c.cite.quote} for c in rs.checks],
             "arrows": [{"event": a.index, "line": a.line, "shooter": a.shooter, "side": a.side,
                         "arrow": a.arrow, "result": a.result, "beat": a.beat, "scores": a.scores,
                         "tallied": a.tallied, "why": a.why, "source_line": a.cite.line}
                        for a in rs.arrows]}
            for rs in r.scoring]


def check_text(results: Sequence[Result], readings: dict[str, str] | None = None,
               scoring: bool = False) -> str:
    out = []
    for r in results:
        out += [finding_text(f, r.path) for f in r.findings]
        out += scoring_text(r, scoring)
    total = sum(len(r.findings) for r in results)
    events = sum(r.events for r in results)
    bad = sum(1 for r in results if not r.ok)
    if total:
        out.append(violations_summary(total, bad, len(results), events))
    else:
        out.append(ok_summary(len(results), events))
    if readings is not None:
        from xiangshe.constraints.readings import describe
        out.append(f"{t('readings')}: {describe(readings)}")
    return "\n".join(out)


def finding_json(f: Finding) -> dict:
    return {"rule": f.rule, "name": f.name, "catalogue": f.catalogue, "event": f.event,
            "line": f.line, "message": f.message, "quote": f.citation.quote,
            "source_line": f.citation.line, "defined": f.defined, "reading": f.reading}


def check_json(results: Sequence[Result], readings: dict[str, str] | None = None) -> str:
    doc = {"traces": [{"path": r.path, "ok": r.ok, "events": r.events,
                       "violations": [finding_json(f) for f in r.findings],
                       "scoring": scoring_json(r)} for r in results]}
    if readings is not None:
        doc["readings"] = readings
    return json.dumps(doc, ensure_ascii=False, indent=2)


def rule_json(r: Rule, readings: dict[str, str] | None = None) -> dict:
    doc = {"id": r.id, "name": r.name, "catalogue": r.catalogue, "status": r.status,
           "quotes": [{"text": c.quote, "source_line": c.line} for c in r.citations],
           "defined": r.location}
    if r.when:
        doc["when"] = [f"{p}={o}" for p, o in r.when]
        doc["active"] = r.active(readings)
    if r.template is not None:
        doc["kind"] = r.template.kind
    if r.reason:
        doc["reason"] = r.reason
    if r.reading:
        doc["reading"] = r.reading
    return doc


def rules_json(rules: Iterable[Rule], readings: dict[str, str] | None = None) -> str:
    doc = {"rules": [rule_json(r, readings) for r in rules]}
    if readings is not None:
        doc["readings"] = readings
    return json.dumps(doc, ensure_ascii=False, indent=2)


def rules_text(rules: Sequence[Rule], readings: dict[str, str] | None = None) -> str:
    out = []
    for r in rules:
        status = r.template.kind if r.template else r.status
        when = ""
        if r.when:
            when = "  when " + ",".join(f"{p}={o}" for p, o in r.when)
            when += "" if r.active(readings) else " (not in force)"
        out.append(f"{r.catalogue or '    '}  {r.name}  {r.id}  [{status}]  "
                   f"{r.citations[0].source}:{r.citations[0].line}{when}")
    counts = {s: sum(1 for r in rules if r.status == s) for s in ("encoded", "descriptive", "deferred")}
    out.append(f"{len(rules)} rules: " + ", ".join(f"{n} {s}" for s, n in counts.items()))
    return "\n".join(out)


def explain_text(x) -> str:
    """`explain`: the rule, its quotes in context, the contested readings that concern it, and a
    passing and a failing example (x: constraints.explain.Explanation)."""
    r = x.rule
    out = [f"{r.name}  ({r.id}{', ' + r.catalogue if r.catalogue else ''})",
           f"  defined  {r.location}" + ("  " + " › ".join(r.headings) if r.headings else ""),
           f"  status   {r.status}" + (f": {r.reason}" if r.reason else "")]
    if r.template is not None:
        out.append(f"  kind     {r.template.kind}")
        for name in r.template.fields:
            out.append(f"  {name:<8} {getattr(r.template, name)}")
        same = getattr(r.template, "same", ())
        if same:
            out.append("  same     " + ", ".join(a if a == b else f"{a}={b}" for a, b in same))
        for name in ("who", "partner", "n", "op"):
            if hasattr(r.template, name):
                out.append(f"  {name:<8} {getattr(r.template, name)}")
    if r.reading:
        out.append(f"  reading  {r.reading}")
    out.append("  text:")
    for c in r.citations:
        before, quote, after = TEXT.context(c)
        out.append(f"    {c.source}:{c.line}  …{before}【{quote}】{after}…")
    out += _concerns_text(x.concerns)
    out += _example_text("passing", x.passing, x.rule)
    out += _example_text("failing", x.failing, x.rule)
    for path in x.failing_files:
        if x.failing is None or path != x.failing.path:
            out.append(f"  also failing     {path}")
    return "\n".join(out)


def _concerns_text(concerns) -> list[str]:
    if not concerns:
        return []
    out = ["  contested readings:"]
    for c in concerns:
        p = c.point
        out.append(f"    {p.name}  {p.question}")
        for o in p.options.values():
            mark = "▸" if o.name == c.follows else " "
            tags = [t for t, on in (("default", o.name == p.default),
                                    ("this rule", o.name == c.follows)) if on]
            tags += [] if o.encoded else [f"not checkable: {o.reason}"]
            out.append(f"      {mark} {o.name:<15} {o.label}" + (f"  [{'; '.join(tags)}]" if tags else ""))
            out.append(f"        {'':<15} — {o.source}")
        if c.follows is None:
            out.append("      the rule holds under every reading of this point")
    return out


def _example_text(kind: str, ex, rule: Rule) -> list[str]:
    label = f"  {kind} example  "
    if ex is None:
        if kind == "failing":
            why = "no violating example is bundled for this rule" if rule.encoded else \
                f"the rule is {rule.status}: nothing is checked"
        else:
            why = "none: " + ("no bundled staging triggers the rule and keeps it" if rule.encoded
                              else f"the rule is {rule.status}: nothing is checked")
        return [label + why]
    where = f"{ex.path}:{ex.line}" if ex.line else ex.path
    out = [f"{label}{where}  ({ex.note})"]
    mark = "✗" if kind == "failing" else "✓"
    for n, text in ex.window:
        out.append(f"    {mark if n == ex.line else ' '} {n:>4} | {text}")
    if ex.finding is not None:
        out.append(f"    error: {ex.finding.message} [{ex.finding.rule}]")
    return out


def explain_json(x) -> dict:
    """`explain --format json`: the rule's fields, `contested` readings and `examples`."""
    return rule_json(x.rule) | {
        "contested": [c.to_json() for c in x.concerns],
        "examples": {"passing": x.passing.to_json() if x.passing else None,
                     "failing": x.failing.to_json() if x.failing else None,
                     "failing_files": list(x.failing_files)}}




def counterexample_text(rule: Rule, trace, steps: int, saved: str | None, shortest: bool = True) -> str:
    """TLC-style: numbered steps with the state changes each causes; the violating step marked."""
    from xiangshe.constraints.check import check_trace
    from xiangshe.fsm.replay import replay

    rep = replay(trace)
    findings = check_trace(trace, [rule]).findings       # the rule's, and the scoring audit's
    bad = {f.event for f in findings if f.rule == rule.id}
    plural = f"{steps} step{'s' if steps != 1 else ''}" + (", shortest" if shortest else "")
    if rule.path == "query":
        out = [f"counterexample to the property: the machines and the rules allow it ({plural})"]
    else:
        out = [f"{rule.location}: counterexample: the machines and the other rules allow what "
               f"{rule.id} ({rule.catalogue} {rule.name}) forbids ({plural})"]
    for p in trace.cast.pairs.values():
        out.append(f"     pair {p.name}: 上射 {p.upper}, 下射 {p.lower}")
    for e in trace.events:
        changes = "; ".join(f"{who}: {a} → {b}" for who, a, b in rep.changes[e.index])
        mark = "  ✗" if e.index in bad else ""
        note = f"  # {changes}" if changes else ""
        out.append(f"  {e.index + 1:>2}  {e.phase or '':<4} {e.render()}{note}{mark}")
    if any(e is None for e in bad):
        out.append("  ✗ the cast itself (the pairs) breaks the rule")
    audit = [f for f in findings if f.rule.startswith("audit.")]
    for f in audit:
        out.append(f"  note: the scoring audit also objects: {f.message} [{f.rule}]")
    for c in rule.citations if rule.path != "query" else ():
        out.append(f"  text  {c}")
    if saved:
        out.append(f"  saved {saved}  (xiangshe check {saved} reports exactly {rule.id})")
    return "\n".join(out)
