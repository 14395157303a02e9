"""`check --format github`: GitHub Actions workflow commands, one annotation per finding, as
`ruff --output-format github` prints them:

    ::error file=plan.trace,line=35,title=bu-guan-bu-shi R120 不贯不释::no earlier 「* 射 矢 …」 …

The runner reads them from the step's output and shows each on the line of the file in the pull
request. Data is escaped as the Actions toolkit escapes it (`%`, CR, LF); property values also
escape `:` and `,`. Input errors (exit 2) are annotations too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from xiangshe.constraints.check import Finding, Result


def escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(s: str) -> str:
    return escape_data(s).replace(":", "%3A").replace(",", "%2C")


def command(kind: str, message: str, file: str | None = None, line: int | None = None, title: str | None = None) -> str:
    props = [(k, v) for k, v in (("file", file), ("line", str(line) if line else None), ("title", title)) if v]
    head = f"::{kind}" + (" " + ",".join(f"{k}={escape_property(v)}" for k, v in props) if props else "")
    return f"{head}::{escape_data(message)}"


def _title(f: Finding) -> str:
    return f"{f.rule} {f.catalogue} {f.name}" if f.catalogue else f"{f.rule} {f.name}"


def check_github(results: Sequence[Result]) -> str:
    """An `::error` per input error of a staging that could not be read, and per finding, each
    staging's in its place (suppressed findings are not annotated)."""
    out = []
    for r in results:
        if r.input_errors:
            out.append(input_errors("\n".join(e.render() for e in r.input_errors)))
        out += [command("error", f"{f.message}\n{f.citation}", r.path, f.line, _title(f)) for f in r.findings]
    return "\n".join(out)


_LOCATED = re.compile(r"^(?P<file>.+?)(?::(?P<line>\d+))?: error: (?P<message>.*)$")


def input_errors(text: str) -> str:
    """Located input errors (`path:line: error: …`, each perhaps followed by indented lines) as
    annotations; the indented lines (the offending line, the hint) join the message."""
    out: list[list] = []
    for raw in text.splitlines():
        m = _LOCATED.match(raw)
        if m:
            file = m["file"] if m["file"] != "error" else None
            out.append([file, int(m["line"]) if m["line"] else None, [m["message"]]])
        elif raw.startswith("error: "):
            out.append([None, None, [raw[len("error: ") :]]])
        elif out and raw.strip():
            out[-1][2].append(raw.strip())
        elif raw.strip():
            out.append([None, None, [raw.strip()]])
    return "\n".join(command("error", "\n".join(msg), file, line, "xiangshe: bad input") for file, line, msg in out)
