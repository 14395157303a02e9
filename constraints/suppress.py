"""Inline suppressions, each with its reason, as mypy's `# type: ignore[code]` and ruff's `# noqa`.

In the line format, a comment on the statement, or on a line of its own just before it:

    释获者 释获 算 for=甲 arrow=1 side=右   # xiangshe: ignore[R120] 依郑注，中即释获
    # xiangshe: ignore[bu-guan-bu-shi, audit.r132] the 2017 staging did this on purpose
    释获者 释获 算 for=甲 arrow=1 side=右

In JSON Lines and YAML, a field of the record: `"ignore": "R120: 依郑注，中即释获"` (terms, a colon,
the reason). The terms are those of `--select` (constraints/select.py). A suppression suppresses
the findings of the checks it names at the line it concerns; they stay visible as suppressed (JSON,
SARIF) and are not violations. A suppression without a reason, with an unknown term, or that
names no rule, is bad input (exit 2). One that suppresses nothing is itself reported, as
`suppression.unused` (exit 1), like ruff's RUF100.
"""

from __future__ import annotations

import re

from xiangshe.constraints.select import Term, terms
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.errors import InputError, TraceError
from xiangshe.domain.parse import MAX_ERRORS, TraceErrors
from xiangshe.domain.trace import Directive, Trace

_COMMENT = re.compile(r"^ignore\s*\[([^\]]*)\]\s*(.*)$", re.S)
_FIELD = re.compile(r"^([^:：]*)[:：]\s*(.*)$", re.S)
COMMENT_FORM = "# xiangshe: ignore[RULE, …] reason"
FIELD_FORM = '"ignore": "RULE, …: reason"'


@dataclass(frozen=True)
class Suppression:
    line: int  # where it is written
    target: int  # the line whose findings it suppresses
    terms: tuple[Term, ...]
    reason: str
    excerpt: str  # the line it is written on


def _read(d: Directive, path: str, excerpt: str) -> Suppression:
    def bad(message: str, hint: str | None = None) -> TraceError:
        return TraceError(path, d.line, message, excerpt, hint)

    form = COMMENT_FORM if d.form == "comment" else FIELD_FORM
    m = (_COMMENT if d.form == "comment" else _FIELD).match(d.text)
    if m is None:
        if d.form == "comment" and d.text.split()[:1] == ["ignore"]:
            raise bad("a suppression names the rules it suppresses", f"write {form}")
        raise bad(f"not a suppression: {d.text or '(nothing)'}", f"write {form}")
    words, reason = m.group(1), m.group(2).strip()
    if not words.strip(" ,"):
        raise bad("a suppression names the rules it suppresses", f"write {form}")
    try:
        ts = terms([words], path, d.line, excerpt)
    except InputError as err:
        raise TraceError(err.path, err.line, err.message, err.excerpt, err.hint) from None
    if not reason:
        raise bad(f"the suppression of {', '.join(map(str, ts))} gives no reason", f"say why it is right here: {form}")
    if d.target is None:
        raise bad("the suppression is followed by no statement to apply to")
    return Suppression(d.line, d.target, ts, reason, excerpt)


def read(trace: Trace) -> tuple[Suppression, ...]:
    """The trace's suppressions; every malformed one is reported (TraceErrors, exit 2)."""
    out, errors = [], []
    for d in trace.directives:
        try:
            out.append(_read(d, trace.path, trace.line_text(d.line)))
        except TraceError as err:
            errors.append(err)
    if errors:
        raise TraceErrors(errors[:MAX_ERRORS])
    return tuple(out)
