"""Render check results as SARIF 2.1.0 (for code-scanning UIs): one run, a rule descriptor for every
encoded rule in force, every machine table and every check of the scoring audit, one result per
finding, and a result (rule `input-error`) per input error of a staging that could not be read.
Plain dicts and `json`; tests/test_formats.py validates the output against the official
schema (tests/schemas/sarif-schema-2.1.0.json).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import PurePath, PurePosixPath, PureWindowsPath
from urllib.parse import quote

from xiangshe.constraints.check import Finding, Result, Suppressed, causes
from xiangshe.constraints.rulebook import Rule
from xiangshe.constraints.scoring import AUDIT_CHECKS, audit_id, audit_name
from xiangshe.constraints.select import UNUSED
from xiangshe.domain.messages import BY_CODE, Message, parameters
from xiangshe.domain.text import TEXT, Citation
from xiangshe.fsm.table import Table, tables

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
TEXT_URI = "domain/xiangsheli.txt"
AUDIT_DEFINED = "constraints/scoring.py"


def artifact_uri(path: str) -> str:
    """A trace path as a SARIF URI reference: relative paths stay relative (with / separators and
    percent-encoding where needed); absolute paths become file: URIs."""
    p: PurePath = PureWindowsPath(path) if "\\" in path else PurePosixPath(path)
    if p.is_absolute():
        return p.as_uri()
    return quote(p.as_posix(), safe="/")


def _message(text: str) -> dict:
    """A SARIF message (§3.11): its text; for a Message of the catalogue (domain/messages.py) also its
    `id` and `arguments`, which refer to the `messageStrings` of the result's rule (`_message_strings`)."""
    if isinstance(text, Message):
        return {"text": str(text), "id": text.code, "arguments": text.arguments()}
    return {"text": text}


def message_string(code: str) -> dict:
    """A catalogue message as SARIF's `messageStrings` hold it: its English template with the
    parameters numbered ({0}, {1} …) in the order of `Message.arguments`."""
    entry = BY_CODE[code]
    names = parameters(entry.en)
    return {"text": entry.en.format_map({n: f"{{{i}}}" for i, n in enumerate(names)})}


def _message_strings(rules: list[dict], found: list[dict]) -> None:
    """Give each rule the messageStrings its results' message ids refer to; a result whose rule is
    not described keeps only its text."""
    for doc in found:
        message = doc["message"]
        if "id" not in message:
            continue
        if "ruleIndex" not in doc:
            del message["id"], message["arguments"]
            continue
        strings = rules[doc["ruleIndex"]].setdefault("messageStrings", {})
        strings.setdefault(message["id"], message_string(message["id"]))


def _quotes(citations: Sequence[Citation]) -> list[dict]:
    return [{"text": c.quote, "source_line": c.line} for c in citations]


def _quote_lines(citations: Sequence[Citation]) -> list[str]:
    return [
        f"「{c.quote}」  {c.source}:{c.line}" + (f"–{c.end_line}" if c.end_line != c.line else "") for c in citations
    ]


def rule_descriptor(r: Rule) -> dict:
    short = f"{r.catalogue} {r.name}" if r.catalogue else r.name
    crumbs = " › ".join(r.headings)
    help_lines = [*_quote_lines(r.citations), f"rule  {r.location}" + (f"  {crumbs}" if crumbs else "")]
    props: dict = {
        "kind": "rule",
        "catalogue": r.catalogue,
        "quotes": _quotes(r.citations),
        "category": r.category,
        "defined": r.location,
    }
    if r.category:
        props["tags"] = [r.category]
    if r.when:
        props["when"] = [f"{p}={o}" for p, o in r.when]
    markdown = "\n\n".join(
        [
            f"**{short}**" + (f": {r.reading}" if r.reading else ""),
            *(f"> 「{c.quote}」 — `{c.source}:{c.line}`" for c in r.citations),
            f"Defined in `{r.location}`"
            + (f" ({crumbs})" if crumbs else "")
            + f"; `xiangshe explain {r.id}` shows passing and failing examples.",
        ]
    )
    return {
        "id": r.id,
        "name": r.name,
        "shortDescription": _message(short),
        "fullDescription": _message(r.reading or short),
        "help": {"text": "\n".join(help_lines), "markdown": markdown},
        "defaultConfiguration": {"level": "error"},
        "properties": props,
    }


def machine_descriptor(t: Table) -> dict:
    cites = list({e.cite.quote: e.cite for e in t.edges}.values())
    help_lines = [
        f"machine  {t.path}: {len(t.edges)} edges from {t.initial}",
        *(f"  {e.act}: {e.source} → {e.dest}  「{e.cite.quote}」  {e.cite.source}:{e.cite.line}" for e in t.edges),
    ]
    return {
        "id": f"machine.{t.slug}",
        "name": t.name,
        "shortDescription": _message(f"the {t.name} machine"),
        "fullDescription": _message(t.gloss or f"the {t.name} machine"),
        "help": _message("\n".join(help_lines)),
        "defaultConfiguration": {"level": "error"},
        "properties": {
            "kind": "machine",
            "catalogue": None,
            "quotes": _quotes(cites),
            "category": "machine",
            "defined": t.path,
            "tags": ["machine"],
        },
    }


def audit_descriptor(catalogue: str, what: str, quote_: str) -> dict:
    cite = TEXT.cite(quote_)
    return {
        "id": audit_id(catalogue),
        "name": audit_name(catalogue),
        "shortDescription": _message(f"{catalogue} {audit_name(catalogue)}: {what}"),
        "fullDescription": _message(f"the scoring audit: {what}"),
        "help": _message("\n".join([*_quote_lines([cite]), f"audit  {AUDIT_DEFINED}"])),
        "defaultConfiguration": {"level": "error"},
        "properties": {
            "kind": "audit",
            "catalogue": catalogue,
            "quotes": _quotes([cite]),
            "category": "scoring",
            "defined": AUDIT_DEFINED,
            "tags": ["scoring"],
        },
    }


def descriptors(rules: Sequence[Rule]) -> list[dict]:
    """Every check `check` makes: the encoded rules in force, the machines, the scoring audit."""
    return (
        [rule_descriptor(r) for r in rules if r.encoded]
        + [machine_descriptor(t) for t in tables()]
        + [audit_descriptor(*a) for a in AUDIT_CHECKS]
    )


def fingerprint(f: Finding, path: str) -> str:
    return f"{f.rule}:{path}:{f.line if f.line is not None else ''}"


def result(f: Finding, path: str, index: dict[str, int], caused_by: int | None = None) -> dict:
    physical: dict = {"artifactLocation": {"uri": artifact_uri(path)}}
    if f.line is not None:
        physical["region"] = {"startLine": f.line}
    c = f.citation
    text_region = {"startLine": c.line}
    if c.end_line != c.line:
        text_region["endLine"] = c.end_line
    doc: dict = {"ruleId": f.rule}
    if f.rule in index:
        doc["ruleIndex"] = index[f.rule]
    doc |= {
        "level": "error",
        "message": _message(f.message),
        "locations": [{"physicalLocation": physical}],
        "relatedLocations": [
            {
                "id": 1,
                "physicalLocation": {"artifactLocation": {"uri": TEXT_URI}, "region": text_region},
                "message": _message(f"「{c.quote}」"),
            }
        ],
        "partialFingerprints": {"xiangshe/v1": fingerprint(f, path)},
        "properties": {
            "name": f.name,
            "catalogue": f.catalogue,
            "event": f.event,
            "quote": c.quote,
            "source_line": c.line,
            "defined": f.defined,
            "reading": f.reading,
            # as in the JSON of check: the index, among this staging's violations, of
            # the finding this one follows from (None: a cause)
            "caused_by": caused_by,
        },
    }
    return doc


def suppression_descriptor() -> dict:
    return {
        "id": UNUSED,
        "name": "未用之豁免",
        "shortDescription": _message("an inline suppression that suppresses nothing"),
        "defaultConfiguration": {"level": "error"},
        "properties": {"kind": "suppression", "catalogue": None, "category": "suppression"},
    }


def suppressed_result(s: Suppressed, path: str, index: dict[str, int]) -> dict:
    """A suppressed finding: SARIF keeps it, with `suppressions` (inSource: an inline suppression,
    with its reason; external: the baseline file)."""
    doc = result(s.finding, path, index)
    sup: dict = {"kind": "inSource" if s.kind == "inline" else "external", "justification": s.reason}
    if s.line is not None:
        sup["location"] = {
            "physicalLocation": {"artifactLocation": {"uri": artifact_uri(path)}, "region": {"startLine": s.line}}
        }
    doc["suppressions"] = [sup]
    return doc


INPUT_ERROR = "input-error"
INPUT_DEFINED = "docs/trace-format.md"


def input_error_descriptor() -> dict:
    """The rule of the results that say a staging could not be read (exit 2)."""
    what = "a staging that cannot be read as a trace: malformed, an unknown word, not UTF-8, too large"
    return {
        "id": INPUT_ERROR,
        "name": "input error",
        "shortDescription": _message("the staging cannot be read as a trace"),
        "fullDescription": _message(what),
        "help": {
            "text": f"{what}. The formats and their limits: {INPUT_DEFINED}.",
            "markdown": f"{what}. The formats and their limits: `{INPUT_DEFINED}`.",
        },
        "defaultConfiguration": {"level": "error"},
        "properties": {
            "kind": "input",
            "catalogue": None,
            "quotes": [],
            "category": "input",
            "defined": INPUT_DEFINED,
            "tags": ["input"],
        },
    }


def input_result(e, index: dict[str, int]) -> dict:
    """An input error as a SARIF result, at its file and line."""
    physical: dict = {"artifactLocation": {"uri": artifact_uri(e.path)}}
    if e.line:
        physical["region"] = {"startLine": e.line}
    message = _message(e.message)  # its id and arguments: the message; the text says the hint too
    message["text"] = e.message + (f" ({e.hint})" if e.hint else "")
    return {
        "ruleId": INPUT_ERROR,
        "ruleIndex": index[INPUT_ERROR],
        "level": "error",
        "message": message,
        "locations": [{"physicalLocation": physical}],
        "partialFingerprints": {"xiangshe/v1": f"{INPUT_ERROR}:{e.path}:{e.line or ''}"},
        "properties": {"hint": str(e.hint) if e.hint is not None else None},
    }


def check_sarif(
    results: Sequence[Result],
    rules: Sequence[Rule],
    readings: dict[str, str] | None = None,
    version: str | None = None,
    not_applied: Sequence[str] = (),
) -> str:
    """The SARIF log of one `check` invocation: `rules` are the rules in force (the encoded ones are
    described), `readings` the contested readings followed, `version` the tool's version,
    `not_applied` the checks --select/--ignore left out (disabled in the invocation's overrides)."""
    driver: dict = {"name": "xiangshe"}
    if version:
        driver["version"] = version
    driver["rules"] = descriptors(rules)
    if any(f.rule == UNUSED for r in results for f in r.findings):
        driver["rules"].append(suppression_descriptor())
    if any(r.input_errors for r in results):  # described only when a staging could not be read
        driver["rules"].append(input_error_descriptor())
    index = {d["id"]: i for i, d in enumerate(driver["rules"])}
    found = []
    for r in results:  # each staging's results in its place
        found += [input_result(e, index) for e in r.input_errors]
        found += [result(f, r.path, index, c) for f, c in zip(r.findings, causes(r.findings), strict=True)]
        found += [suppressed_result(s, r.path, index) for s in r.suppressed]
    _message_strings(driver["rules"], found)
    run: dict = {
        "tool": {"driver": driver},
        "results": found,
        "properties": {
            "readings": dict(readings) if readings is not None else None,
            "traces": [
                {
                    "path": r.path,
                    "ok": r.ok,
                    "events": r.events,
                    "violations": len(r.findings),
                    "causes": sum(c is None for c in causes(r.findings)),
                    "suppressed": len(r.suppressed),
                    "not_applied": list(r.not_applied),
                    "input_errors": len(r.input_errors),
                }
                for r in results
            ],
        },
    }
    if not_applied:
        overrides = [
            {"descriptor": {"id": i} | ({"index": index[i]} if i in index else {}), "configuration": {"enabled": False}}
            for i in not_applied
        ]
        run["invocations"] = [{"executionSuccessful": True, "ruleConfigurationOverrides": overrides}]
    log = {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}
    return json.dumps(log, ensure_ascii=False, indent=2)


RULEBOOK_CHECKS = {
    "quotes": "every quote of the rules and machine edges is verbatim and unambiguous in the text",
    "machines": "every machine state is reachable, and only declared final states have no way out",
    "vacuity": "every rule is triggered in the bundled stagings",
    "consistency": "the machines and the rules hold together (the bundled stagings; z3 with an unsat core)",
    "redundancy": "a rule with no counterexample up to k steps is implied by the others up to that length",
}
_LEVEL = {"error": "error", "warning": "warning", "note": "note"}


def _defined_at(location: str | None) -> dict | None:
    if not location:
        return None
    path, _, rest = location.partition(":")
    line = rest.split()[0] if rest else ""
    loc: dict = {"physicalLocation": {"artifactLocation": {"uri": artifact_uri(path)}}}
    if line.isdigit():
        loc["physicalLocation"]["region"] = {"startLine": int(line)}
    return loc


def rulecheck_sarif(report, readings: dict[str, str] | None = None, version: str | None = None) -> str:
    """The SARIF log of `check-rules`: a descriptor per kind of check, a result per finding
    (failed checks at level error; warnings and notes at their level)."""
    driver: dict = {"name": "xiangshe check-rules"}
    if version:
        driver["version"] = version
    driver["rules"] = [
        {
            "id": f"check-rules.{name}",
            "name": name,
            "shortDescription": _message(text),
            "defaultConfiguration": {"level": "error"},
        }
        for name, text in RULEBOOK_CHECKS.items()
    ]
    index = {d["id"]: i for i, d in enumerate(driver["rules"])}
    results = []
    for item in report.items:
        if item.ok and item.severity == "error":
            continue
        rid = f"check-rules.{item.check}"
        res: dict = {
            "ruleId": rid,
            "ruleIndex": index[rid],
            "level": _LEVEL[item.severity] if not item.ok else "note",
            "message": _message(f"{item.subject}: {item.message}"),
        }
        where = _defined_at(item.location)
        if where:
            res["locations"] = [where]
        if item.quote and item.source_line:
            res["relatedLocations"] = [
                {
                    "id": 1,
                    "message": _message(f"「{item.quote}」"),
                    "physicalLocation": {
                        "artifactLocation": {"uri": TEXT_URI},
                        "region": {"startLine": item.source_line},
                    },
                }
            ]
        results.append(res)
    run = {
        "tool": {"driver": driver},
        "results": results,
        "properties": {"ok": report.ok, "readings": dict(readings) if readings else None},
    }
    return json.dumps({"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}, ensure_ascii=False, indent=2)
