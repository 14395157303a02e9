"""Colour for `check`'s text output, on a terminal only: `enabled` says when (stdout is a terminal and
NO_COLOR is unset, unless --color/--no-color forces it); `paint` styles rendered text line by line,
so the plain text stays the single source of what is said.
"""

from __future__ import annotations

import os
import re
import sys

import click

from xiangshe.domain.regex import lazy

_ERROR = lazy(r"^(\S.*?: )(error)(: )")
_MARK = {"✗": "red", "✓": "green"}


def enabled(forced: bool | None) -> bool:
    if forced is not None:
        return forced
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def _line(line: str) -> str:
    m = _ERROR.match(line)
    if m:
        return (
            click.style(m.group(1), bold=True)
            + click.style(m.group(2), fg="red", bold=True)
            + m.group(3)
            + line[m.end() :]
        )
    if line.startswith("ok:"):
        return click.style(line, fg="green", bold=True)
    if re.match(r"^(\d+ violations? in |bad input: |输入有误：)", line):
        return click.style(line, fg="red", bold=True)
    stripped = line.lstrip()
    if stripped[:1] in _MARK:
        indent = line[: len(line) - len(stripped)]
        return indent + click.style(stripped[0], fg=_MARK[stripped[0]]) + stripped[1:]
    if stripped.startswith(("why ", "rule ", "text ", "readings:")):
        return click.style(line, dim=True)
    return line


def paint(text: str) -> str:
    return "\n".join(_line(line) for line in text.split("\n"))
