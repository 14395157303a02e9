"""`next` and `complete` as text and JSON (constraints/frontier.py computes them).

Every quote shown is a `Citation` the program located in the text (a clause of the libretto, a
rule's quote, a machine edge's quote), printed with its line.
"""

from __future__ import annotations

import json

from xiangshe.domain.messages import Message
from xiangshe.domain.text import Citation
from xiangshe.domain.vocabulary import vocabulary
from xiangshe.reports.messages import say

_SOURCES = {"header": "frontier.source-header", "cast": "frontier.source-cast"}
_HEADER = {
    "inserted": "frontier.fragment-inserted",
    "replaced": "frontier.fragment-replaced",
    "removed": "frontier.fragment-removed",
}


def _cite(c: Citation) -> dict:
    return {"quote": c.quote, "line": c.line, "end_line": c.end_line, "source": c.source}


def _where(c: Citation) -> str:
    lines = f"L{c.line}" + (f"–{c.end_line}" if c.end_line != c.line else "")
    return f"「{c.quote}」 ({c.source}:{lines})"


def _phase(phase: str | None) -> str:
    if phase is None:
        return say(Message("frontier.no-events"))
    return f"{phase} {vocabulary().phases[phase].name}"


def _departure_json(d) -> dict | None:
    if d is None:
        return None
    return {"line": d.line, "found": d.found, "expected": d.expected, "quotes": [_cite(c) for c in d.clauses]}


def departure_text(path: str, d) -> str:
    """The located line saying where a staging leaves the libretto."""
    expected = d.expected if d.expected is not None else say(Message("frontier.libretto-ended"))
    msg = say(Message("frontier.departs", found=d.found, expected=expected))
    tail = "".join(f"\n    {_where(c)}" for c in d.clauses)
    return f"{path}:{d.line}: note: {msg}{tail}"


def _finding(f) -> dict:
    return {"rule": f.rule, "name": f.name, "line": f.line, "message": str(f.message)}


def _standing(s) -> dict:
    return {
        "who": s.who,
        "states": [{"machine": m, "state": st} for m, st in s.states],
        "allowed": [{"act": a.act, "machine": a.machine, "state": a.state, "quote": _cite(a.cite)} for a in s.allowed],
    }


def next_json(fr) -> dict:
    return {
        "path": fr.path,
        "events": fr.events,
        "phase": fr.phase,
        "phase_name": vocabulary().phases[fr.phase].name if fr.phase else None,
        "options": repr(fr.options),
        "options_source": fr.source,
        "aligned": fr.aligned,
        "departure": _departure_json(fr.departure),
        "ok": not fr.findings,
        "findings": [_finding(f) for f in fr.findings],
        "next": [
            {
                "who": c.who,
                "event": c.event,
                "first": c.first,
                "breaks": list(c.breaks),
                "quotes": [_cite(q) for q in c.cites],
            }
            for c in fr.candidates
        ],
        "obligations": [
            {
                "kind": o.kind,
                "message": str(o.what),
                "line": o.line,
                "rule": o.rule,
                "quotes": [_cite(q) for q in o.cites],
            }
            for o in fr.obligations
        ],
        "persons": [_standing(s) for s in fr.persons],
        "objects": [_standing(s) for s in fr.objects],
    }


_KINDS = {  # what an obligation is, by its kind
    "cup": "frontier.kind-cup",
    "round": "frontier.kind-round",
    "rule": "frontier.kind-rule",
    "implement": "frontier.kind-implement",
    "clause": "frontier.kind-clause",
}


def _kind(kind: str) -> str:
    """What an obligation is (cup, round, rule, implement, clause), in the output's language."""
    return say(Message(_KINDS[kind]))


def next_text(fr, last_line: int) -> str:
    out = [say(Message("frontier.after", path=fr.path, line=last_line, events=fr.events, phase=_phase(fr.phase)))]
    out.append(
        "  " + say(Message("frontier.options", options=repr(fr.options), source=say(Message(_SOURCES[fr.source]))))
    )
    if fr.findings:
        f = fr.findings[0]
        out.append(say(Message("frontier.prefix-breaks", findings=len(fr.findings), first=f"{f.rule} (line {f.line})")))
    if fr.departure is not None:
        out.append(departure_text(fr.path, fr.departure))
    out += ["", say(Message("frontier.next")) + ":"]
    if not fr.candidates:
        out.append("  " + say(Message("frontier.nothing-next")))
    for c in fr.candidates:
        mark = "→" if c.first else " "
        out.append(f"  {mark} {c.who}: {c.event}")
        for q in c.cites:
            out.append(f"      {_where(q)}")
        if c.breaks:
            out.append("      ✗ " + say(Message("frontier.would-break", ids=", ".join(c.breaks))))
    out += ["", say(Message("frontier.owed")) + ":"]
    clause_heading = None
    lines_of: dict[tuple[str, str], list[int]] = {}  # a rule owed by many (each shooter): one entry, its lines
    for o in fr.obligations:
        if o.kind == "rule" and o.line:
            lines_of.setdefault((o.rule or "", str(o.what)), []).append(o.line)
    shown_rules: set[tuple[str, str]] = set()
    for o in fr.obligations:
        at = " " + say(Message("frontier.at-line", line=o.line)) if o.line else ""
        if o.kind == "rule":
            key = (o.rule or "", str(o.what))
            if key in shown_rules:
                continue
            shown_rules.add(key)
            many = lines_of.get(key, [])
            more = f", … +{len(many) - 5}" if len(many) > 5 else ""
            lines = ", ".join(map(str, many[:5])) + more
            at = " " + say(Message("frontier.at-lines", lines=lines)) if len(many) > 1 else at
        if o.kind == "clause":  # the clauses of the phase still to be enacted: under one heading
            if clause_heading != str(o.what):
                clause_heading = str(o.what)
                out.append(f"  - {_kind(o.kind)}: {say(o.what)}")
        else:
            out.append(f"  - {_kind(o.kind)}: {say(o.what)}{at}")
        for q in o.cites:
            out.append(f"      {_where(q)}")
    who = {c.who for c in fr.candidates}
    shown = [s for s in fr.persons if s.who in who and s.states]
    if shown:
        out += ["", say(Message("frontier.machines")) + ":"]
        for s in shown:
            states = ", ".join(f"{m} {st}" for m, st in s.states)
            acts = ", ".join(dict.fromkeys(a.act for a in s.allowed)) or "—"
            out.append(f"  {s.who} ({states}): {acts}")
    return "\n".join(out)


def next_output(fr, fmt: str, last_line: int) -> str:
    if fmt == "json":
        return json.dumps(next_json(fr), ensure_ascii=False, indent=2)
    return next_text(fr, last_line)


def _header_json(h) -> dict | None:
    if h is None:
        return None
    how, line, text = h
    return {"action": how, "line": line, "text": text}


def complete_json(c, saved: str | None) -> dict:
    r = c.result
    return {
        "path": c.path,
        "to": c.to,
        "holds": c.holds,
        "until": c.until,
        "options": repr(c.options),
        "options_source": c.source,
        "departure": _departure_json(c.departure),
        "prefix_findings": [_finding(f) for f in c.faults],
        "added_lines": c.added,
        "added_events": c.added_events,
        "header": _header_json(c.header),
        "findings": [_finding(f) for f in r.findings] if r is not None else [],
        "output": saved,
        "text": c.text if saved is None else None,
    }


def complete_summary(c) -> str:
    """What `complete` says on stderr (text format): what it did, or why it made nothing."""
    out = []
    if c.departure is not None:
        out.append(departure_text(c.path, c.departure))
    broken = list(c.faults)
    if c.departure is not None and not broken:
        return "\n".join(out)
    if broken:
        out.append(f"{c.path}: " + say(Message("frontier.prefix-fails", findings=len(broken))))
        out += [f"{c.path}:{f.line}: {f.rule} {say(f.message)}" for f in broken[:5]]
        return "\n".join(out)
    if c.header is not None:
        how, line, text = c.header
        out.append(f"{c.path}:{line}: note: " + say(Message(_HEADER[how], line=line, text=text)))
    if c.holds:
        out.append(
            f"{c.path}: " + say(Message("frontier.holds", until=_phase(c.until), added=c.added, events=c.added_events))
        )
    elif c.result is not None:
        f = c.result.findings[0]
        first = f"{f.rule} (line {f.line}): {say(f.message)}"
        out.append(f"{c.path}: " + say(Message("frontier.fails", findings=len(c.result.findings), first=first)))
    return "\n".join(out)


def complete_output(done, fmt: str, saved: str | None) -> None:
    """Print `complete`'s result: JSON, or the completed staging on stdout and what was done on stderr."""
    from xiangshe.reports.echo import echo

    if fmt == "json":
        echo(json.dumps(complete_json(done, saved), ensure_ascii=False, indent=2))
    elif done.text is not None and saved is None:
        echo(done.text, nl=False)
    echo(complete_summary(done), err=True)
