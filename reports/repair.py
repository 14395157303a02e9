"""What `repair` prints: the repairs of a staging as ritual instructions (text), or JSON
(schemas/repair.schema.json).

Each step is said in the staging's own terms — its line numbers, and the event as its format
writes it: a line of the line format for a `.trace` file, a record for JSON Lines, JSON and YAML —
with the text that asks for it, quoted verbatim with its line (the quote comes located from
domain/text.py: the libretto clause the event enacts, or the rule's or the machine edge's quote).
"""

from __future__ import annotations

import json

from xiangshe.constraints.check import causes
from xiangshe.constraints.repair import Edit, Outcome
from xiangshe.domain.messages import Join, Message


def record(body: str) -> dict[str, str]:
    """An event or an occasion written in the line format, as the record JSON Lines and YAML write.

    >>> record("司射 去扑 at=西阶西")
    {'actor': '司射', 'act': '去扑', 'at': '西阶西'}
    >>> record("弟子1 射 矢 arrow=1 result=中正")
    {'actor': '弟子1', 'act': '射', 'obj': '矢', 'arrow': '1', 'result': '中正'}
    """
    words = body.split()
    if words and words[0] in ("occasion", "phase", "fragment"):
        return {words[0]: " ".join(words[1:])}
    plain = [w for w in words if "=" not in w]
    out = dict(zip(("actor", "act", "obj"), plain, strict=False))
    out.update(w.partition("=")[::2] for w in words if "=" in w)
    return out


def shown(body: str, fmt: str) -> str:
    """The event as the staging's format writes it, quoted: `…` for a line, the record otherwise."""
    if fmt == "trace":
        return f"`{body}`"
    return json.dumps(record(body), ensure_ascii=False)


def step(e: Edit, fmt: str) -> Message:
    if e.group:
        return _group_step(e, fmt)
    if e.kind == "insert":
        if e.after_new:
            return Message("repair.insert-after-new", event=shown(e.new, fmt), before=shown(e.after_new, fmt))
        if e.anchor is None:
            return Message("repair.insert-first", event=shown(e.new, fmt))
        return Message("repair.insert", line=e.anchor, event=shown(e.new, fmt))
    if e.kind == "delete" and e.also:
        return Message(
            "repair.delete-with",
            line=e.anchor,
            event=shown(e.old, fmt),
            lines=", ".join(str(line) for line, _ in e.also),
            events=", ".join(shown(body, fmt) for _, body in e.also),
        )
    if e.kind == "delete":
        return Message("repair.delete", line=e.anchor, event=shown(e.old, fmt))
    if e.kind == "change":
        return Message(
            "repair.change", line=e.anchor, old=shown(e.old, fmt), new=shown(e.new, fmt), fields=Join(e.fields)
        )
    if e.kind == "rename":
        lines = f"{e.moved[0]}–{e.moved[1]}"
        return Message("repair.rename", old=e.old, new=e.new, n=e.span, lines=lines)
    first, last = e.moved
    to = e.anchor if e.anchor is not None else 0
    if e.span > 1:
        return Message(
            "repair.move-block", first=first, last=last, n=e.span, event=shown(e.new.removesuffix(" …"), fmt), to=to
        )
    return Message("repair.move", line=first, event=shown(e.new, fmt), to=to)


def _group_step(e: Edit, fmt: str) -> Message:
    """An edit of several events that is one change: a run of the libretto's events inserted, one
    person's steps in a row deleted, persons withdrawn from a round."""
    events = Join(shown(body, fmt) for _, body in e.also)
    if e.group == "libretto-run":
        first = step(Edit(e.kind, e.anchor, e.where, e.new, e.old, e.cite, e.source, after_new=e.after_new), fmt)
        return Message("repair.insert-run", step=first, n=len(e.also), events=events)
    lines = [line for line in (e.anchor, *(line for line, _ in e.also)) if line is not None]
    if e.group == "round":
        return Message(
            "repair.delete-round",
            persons=Join(e.persons),
            round=e.round,
            n=e.span,
            lines=f"{min(lines)}–{max(lines)}",
        )
    return Message(
        "repair.delete-run",
        first=min(lines),
        last=max(lines),
        n=e.span,
        person=e.old.split()[0],
        events=Join([shown(e.old, fmt), *events.items]),
    )


def step_text(e: Edit, fmt: str) -> Message:
    s = step(e, fmt)
    if e.cite is None:
        return s
    return Message("repair.cite", step=s, quote=e.cite.quote, where=f"{e.cite.source}:{e.cite.line}")


def _why(o: Outcome) -> Message:
    if o.bound == "candidates":
        return Message("repair.bound-candidates", budget=o.budget)
    if o.bound == "time":
        return Message("repair.bound-time", seconds=f"{o.time_budget:g}")
    return Message("repair.bound-edits")


def repair_text(o: Outcome, path: str, fmt: str, saved: str | None = None) -> str:
    from xiangshe.reports.messages import language

    lang = language()
    if o.status == "ok":
        return Message("repair.ok", path=path).render(lang)
    if not o.repairs:
        return Message("repair.none", path=path, edits=o.max_edits, why=_why(o), tried=o.tried).render(lang)
    roots = sum(1 for c in causes(o.findings) if c is None)
    edits = len(o.repairs[0].edits)
    out = [
        Message(
            "repair.found", path=path, findings=len(o.findings), causes=roots, count=len(o.repairs), edits=edits
        ).render(lang)
    ]
    for f, c in zip(o.findings, causes(o.findings), strict=True):
        if c is None:
            rule = " ".join(x for x in (f.rule, f.catalogue or "", f.name) if x)
            out.append(
                "  "
                + Message("repair.first", what=Message("repair.finding"), rule=rule, line=f.line or "-").render(lang)
            )
    for n, r in enumerate(o.repairs, 1):
        out.append(Message("repair.heading", n=n, edits=len(r.edits)).render(lang))
        out += ["  " + step_text(e, fmt).render(lang) for e in r.edits]
    if o.bound == "time":  # repairs found, but not every candidate of their size checked
        out.append(Message("repair.cut", seconds=f"{o.time_budget:g}").render(lang))
    out.append(Message("repair.searched", tried=o.tried, reference=o.reference).render(lang))
    if saved is not None:
        out.append(Message("repair.wrote", path=saved).render(lang))
    return "\n".join(out)


def edit_json(e: Edit, fmt: str) -> dict:
    doc: dict = {
        "kind": e.kind,
        "line": e.anchor,
        "where": e.where,
        "event": (record(e.new) if fmt != "trace" else e.new) if e.new else None,
        "old": (record(e.old) if fmt != "trace" else e.old) if e.old else None,
        "fields": list(e.fields),
        "proposed_by": e.source,
        "instruction": str(step(e, fmt)),
        "quote": e.cite.quote if e.cite else None,
        "source_line": e.cite.line if e.cite else None,
    }
    if e.kind in ("move", "rename"):
        doc["moved"] = {"first": e.moved[0], "last": e.moved[1], "events": e.span}
    if e.also:
        doc["also"] = [{"line": line, "event": record(body) if fmt != "trace" else body} for line, body in e.also]
    if e.group:
        doc["group"] = e.group
    if e.group == "round":
        doc["withdrawn"] = {"persons": list(e.persons), "round": e.round}
    return doc


def repair_json(o: Outcome, path: str, fmt: str, saved: str | None = None) -> dict:
    """`repair --format json` (schemas/repair.schema.json)."""
    return {
        "path": path,
        "format": fmt,
        "status": o.status,
        "ok": o.status == "ok",
        "findings": [
            {"rule": f.rule, "name": f.name, "line": f.line, "caused_by": c, "message": str(f.message)}
            for f, c in zip(o.findings, causes(o.findings), strict=True)
        ],
        "repairs": [
            {
                "size": len(r.edits),
                "edits": [edit_json(e, fmt) for e in r.edits],
                "events": r.events,
                "rechecked": True,
                "staging": r.text,
            }
            for r in o.repairs
        ],
        "bound": o.bound,
        "search": {
            "max_edits": o.max_edits,
            "budget": o.budget,
            "timeout_s": o.time_budget,
            "candidates_checked": o.tried,
            "reference": o.reference,
        },
        "output_file": saved,
        "readings": o.readings,
    }


def repair_output(o: Outcome, path: str, fmt: str, out_fmt: str, saved: str | None = None) -> str:
    """`repair`'s report in `out_fmt` (text or json); `fmt` is the staging's own format."""
    if out_fmt == "json":
        return json.dumps(repair_json(o, path, fmt, saved), ensure_ascii=False, indent=2)
    return repair_text(o, path, fmt, saved)
