"""`explain` output: a rule (reports.render.explain_text / explain_json), a machine (its table:
states, edges and the quote of each) or a check of the scoring audit (what it checks, its quote).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import partial

from xiangshe.constraints.explain import AuditCheck, Explanation, ScopeCheck
from xiangshe.constraints.scoring import audit_name
from xiangshe.domain.text import TEXT, Citation
from xiangshe.fsm.table import Table
from xiangshe.reports.messages import label, prose, t


def _in_context(c: Citation) -> str:
    before, quote, after = TEXT.context(c)
    return f"{c.source}:{c.line}  …{before}【{quote}】{after}…"


def _runs(table: Table) -> str:
    who = []
    if table.objects:
        who.append(t("every instance of") + " " + "、".join(table.objects))
    if table.roles:
        who.append(t("every person whose role is") + " " + "、".join(table.roles))
    if table.shooters:
        who.append(t("every shooter in a pair (耦)"))
    return "; ".join(who)


def machine_text(table: Table) -> str:
    """The machine's table as `explain` shows it: what runs it, its states, its edges with quotes."""
    glosses = dict(table.state_gloss)
    width = max(len(s) for s in table.states)
    out = [f"{table.name}  (machine.{table.slug})", f"  {label('defined')}{table.path}"]
    if prose(table.gloss):
        out.append(f"  {label('gloss')}{prose(table.gloss)}")
    out += [f"  {label('runs')}{_runs(table)}", f"  {label('initial')}{table.initial}"]
    if table.final:
        out.append(f"  {label('final')}{', '.join(table.final)}")
    out.append(f"  {t('states')}:")
    for s in table.states:
        out.append(f"    {s:<{width}}  {prose(glosses.get(s)) or ''}".rstrip())
    out.append(f"  {t('edges')}:")
    groups: dict[int, list] = {}  # an edge of the table with several sources is one group
    for e in table.edges:
        groups.setdefault(e.defined_at, []).append(e)
    for at, edges in groups.items():
        sources = ", ".join(e.source for e in edges)
        dests = {e.dest for e in edges}
        dest = (
            f"({t('unchanged')})"
            if all(e.dest == e.source for e in edges) and len(edges) > 1
            else ", ".join(dict.fromkeys(e.dest for e in edges))
            if len(dests) > 1
            else edges[0].dest
        )
        out.append(f"    {edges[0].act}: {sources} → {dest}  {table.path}:{at}")
        out.append(f"      {_in_context(edges[0].cite)}")
    return "\n".join(out)


def machine_json(table: Table) -> dict:
    glosses = dict(table.state_gloss)
    return {
        "id": f"machine.{table.slug}",
        "name": table.name,
        "kind": "machine",
        "gloss": table.gloss,
        "defined": table.path,
        "objects": list(table.objects),
        "roles": list(table.roles),
        "shooters": table.shooters,
        "initial": table.initial,
        "final": list(table.final),
        "states": [{"state": s, "gloss": glosses.get(s)} for s in table.states],
        "edges": [
            {
                "act": e.act,
                "from": e.source,
                "to": e.dest,
                "defined": f"{table.path}:{e.defined_at}",
                "quote": e.cite.quote,
                "source_line": e.cite.line,
            }
            for e in table.edges
        ],
    }


def _check_text(title: str, defined: str, checks: str, citation: Citation) -> str:
    """A check that is not a rule (of the audit, of the scope): what it checks, where, its text."""
    return "\n".join(
        [
            title,
            f"  {label('defined')}{defined}",
            f"  {label('checks')}{checks}",
            f"  {t('text')}:",
            f"    {_in_context(citation)}",
        ]
    )


def audit_text(check: AuditCheck) -> str:
    """A check of the scoring audit: what it checks, where, and the text it checks."""
    return _check_text(
        f"{audit_name(check.catalogue)}  ({check.id}, {check.catalogue})",
        f"{check.defined}  {t('the scoring audit')}",
        t(check.what),
        check.citation,
    )


def audit_json(check: AuditCheck) -> dict:
    return {
        "id": check.id,
        "name": audit_name(check.catalogue),
        "catalogue": check.catalogue,
        "kind": "audit",
        "checks": check.what,
        "defined": check.defined,
        "quotes": [{"text": check.citation.quote, "source_line": check.citation.line}],
    }


def scope_text(check: ScopeCheck) -> str:
    """A check of what a staging claims to be (a whole ceremony, a fragment)."""
    return _check_text(f"{check.name}  ({check.id})", check.defined, prose(check.what) or check.name, check.citation)


def scope_json(check: ScopeCheck) -> dict:
    return {
        "id": check.id,
        "name": check.name,
        "kind": "scope",
        "checks": check.what,
        "defined": check.defined,
        "quotes": [{"text": check.citation.quote, "source_line": check.citation.line}],
    }


def explain_output(subject: Sequence[Explanation] | Table | AuditCheck | ScopeCheck, fmt: str) -> str:
    """The whole output of `explain` in `fmt` (text or json): rules' explanations, a machine, or an
    audit check. JSON: `{"rules": […]}`, `{"machines": [{…}]}` or `{"audits": [{…}]}`."""
    from xiangshe.reports import render

    if isinstance(subject, Table):
        doc, text = {"machines": [machine_json(subject)]}, partial(machine_text, subject)
    elif isinstance(subject, AuditCheck):
        doc, text = {"audits": [audit_json(subject)]}, partial(audit_text, subject)
    elif isinstance(subject, ScopeCheck):
        doc, text = {"scopes": [scope_json(subject)]}, partial(scope_text, subject)
    else:
        if fmt == "json":
            return json.dumps({"rules": [render.explain_json(x) for x in subject]}, ensure_ascii=False, indent=2)
        return "\n\n".join(render.explain_text(x) for x in subject)
    return json.dumps(doc, ensure_ascii=False, indent=2) if fmt == "json" else text()
