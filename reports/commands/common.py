"""What several commands share once their options are parsed: the readings chosen, the lint
configuration and its application, the stagings named on the command line, saving a file."""

from __future__ import annotations

import sys
from pathlib import Path

from xiangshe import CANONICAL
from xiangshe.domain.files import display
from xiangshe.domain.messages import Message
from xiangshe.reports.cli import BadInput, located
from xiangshe.reports.echo import echo


def save(output: Path, text: str, force: bool | None = False) -> None:
    """domain.files.save: never over a file that exists, unless --force (None: no --force to offer)."""
    from xiangshe.domain.files import save as write

    located(write, output, text, force)


def readings(
    reading: tuple[str, ...], readings_file: Path | None, base: dict[str, str] | None = None
) -> dict[str, str]:
    """The readings chosen by --reading and --readings-file (over `base`, the configuration's)."""
    from xiangshe.constraints.readings import select

    return located(select, list(reading), readings_file, base=base)


def lint_settings(lint: dict):
    """The configuration in force and the selection of checks (command line over file)."""
    from xiangshe.constraints.lint import chosen

    if lint.get("force") and lint.get("write_baseline") is None:
        raise BadInput(Message("input.error-bare", message=Message("usage.force-without-baseline")))
    return located(chosen, Path.cwd(), lint["config_file"], lint["isolated"], lint["select"], lint["ignore"], display)


def apply_lint(results, rules, cfg, selection, lint: dict, use_baseline: bool = True):
    """Apply the selection, the inline suppressions and (with `use_baseline`) the baseline;
    --write-baseline writes the findings and exits."""
    from xiangshe.constraints.lint import lint as apply

    out = lint.get("write_baseline")
    if out is None:
        baseline = (lint.get("baseline_file") or cfg.baseline) if use_baseline else None
        return located(apply, results, rules, selection, baseline, display)
    from xiangshe.constraints.lint import write_baseline
    from xiangshe.reports.messages import wrote_baseline

    n = located(write_baseline, results, rules, selection, out, lint["force"])
    echo(wrote_baseline(display(out), n), err=True)
    sys.exit(0)


def sources(files: tuple[str, ...], stdin_format: str | None, stdin_filename: str | None, limit: int | None = None):
    """The stagings FILES name (directories walked, - for standard input; none: the canonical)."""
    from xiangshe.domain.sources import MAX_BYTES, named

    return located(named, files, stdin_format, stdin_filename, display, CANONICAL, limit or MAX_BYTES)
