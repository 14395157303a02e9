"""Render check results as JUnit XML (for CI test reports): a <testsuite> per trace, a <testcase>
per check made (every encoded rule in force, every machine, every check of the scoring audit), a
<failure> per finding holding the finding as `check` prints it; a staging that could not be read is
a <testsuite> of one <testcase> in <error>, holding its located input errors. `xml.etree` only.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from xiangshe.constraints.check import Result
from xiangshe.constraints.rulebook import Rule
from xiangshe.domain.visible import visible
from xiangshe.fsm.table import tables
from xiangshe.reports.render import finding_text
from xiangshe.reports.sarif import AUDIT_CHECKS, INPUT_ERROR, audit_id


def check_ids(rules: Sequence[Rule] | None = None) -> list[str]:
    """The ids of the checks `check` makes: the encoded rules in force (the rules in force under the
    default readings if None), the machines (machine.<slug>), the audit (audit.<catalogue>)."""
    if rules is None:
        from xiangshe.constraints.rulebook import active_rules

        rules = active_rules()
    return (
        [r.id for r in rules if r.encoded]
        + [f"machine.{t.slug}" for t in tables()]
        + [audit_id(c) for c, _, _ in AUDIT_CHECKS]
    )


def check_junit(
    results: Sequence[Result], rules: Sequence[Rule] | None = None, readings: dict[str, str] | None = None
) -> str:
    ids = check_ids(rules)
    root = ET.Element("testsuites", name="xiangshe")
    total_tests = total_failures = total_errors = 0
    for r in results:
        if r.input_errors:  # could not be read: one test case, in error
            suite = ET.SubElement(root, "testsuite", name=r.path, tests="1", failures="0", errors="1", skipped="0")
            case = ET.SubElement(suite, "testcase", classname=r.path, name=INPUT_ERROR)
            first = r.input_errors[0]
            error = ET.SubElement(case, "error", message=first.render().split("\n")[0], type=INPUT_ERROR)
            error.text = "\n".join(e.render() for e in r.input_errors)
            total_tests += 1
            total_errors += 1
            continue
        by_rule: dict[str, list] = {}
        for f in r.findings:
            by_rule.setdefault(f.rule, []).append(f)
        names = ids + [rid for rid in by_rule if rid not in ids]
        skipped = set(r.not_applied)
        suite = ET.SubElement(
            root,
            "testsuite",
            name=r.path,
            tests=str(len(names)),
            failures=str(len(r.findings)),
            errors="0",
            skipped=str(sum(rid in skipped for rid in names)),
        )
        if readings is not None:
            props = ET.SubElement(suite, "properties")
            for point, option in readings.items():
                ET.SubElement(props, "property", name=f"reading.{point}", value=option)
        for rid in names:
            case = ET.SubElement(suite, "testcase", classname=r.path, name=rid)
            if rid in skipped:
                ET.SubElement(case, "skipped", message="not applied (--select, --ignore, per-file-ignores)")
            for f in by_rule.get(rid, ()):
                where = f"{r.path}:{f.line}" if f.line else r.path
                failure = ET.SubElement(
                    case, "failure", message=f"{where}: {f.message}", type=rid.split(".")[0] if "." in rid else "rule"
                )
                failure.text = finding_text(f, r.path)
        total_tests += len(names)
        total_failures += len(r.findings)
    root.set("tests", str(total_tests))
    root.set("failures", str(total_failures))
    root.set("errors", str(total_errors))
    root.set("skipped", str(sum(int(s.get("skipped", "0")) for s in root.findall("testsuite"))))
    return _xml(root)


def _xml(root: ET.Element) -> str:
    """The document as text, every text and attribute made visible first: XML 1.0 forbids most
    control characters (a trace's words, comments and file name may hold them), and a CI page
    shows the rest raw."""
    for el in root.iter():
        if el.text:
            el.text = visible(el.text)
        for name, value in el.attrib.items():
            el.set(name, visible(value))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True)


def rulecheck_junit(report) -> str:
    """The JUnit XML of `check-rules`: a testcase per check item; failed items fail."""
    failed = [i for i in report.items if not i.ok and i.severity == "error"]
    suites = ET.Element(
        "testsuites", name="xiangshe check-rules", tests=str(len(report.items)), failures=str(len(failed))
    )
    suite = ET.SubElement(
        suites,
        "testsuite",
        name="check-rules",
        tests=str(len(report.items)),
        failures=str(len(failed)),
        errors="0",
        skipped="0",
    )
    for i in report.items:
        case = ET.SubElement(suite, "testcase", classname=f"check-rules.{i.check}", name=i.subject)
        if not i.ok and i.severity == "error":
            ET.SubElement(case, "failure", message=i.message).text = f"{i.location or ''} {i.message}".strip()
        elif not i.ok or i.severity != "error":
            ET.SubElement(case, "system-out").text = f"{i.severity}: {i.message}"
    return _xml(suites)
