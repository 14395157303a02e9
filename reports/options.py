"""click parameter types for options whose values have a shape of their own: each value is checked
when the command line is read, and a bad one is a usage error (exit 2) that names the option, says
what was expected and, where it helps, what was probably meant; and the groups of options that
several commands share (the readings, the linter's, standard input's)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import click

from xiangshe.domain.errors import did_you_mean


class ArrowSpec(click.ParamType):
    """`--arrow 2:上耦:上射=贯,不中,贯,中不贯`, as (key, four results)."""

    name = "arrow"

    def convert(self, value, param, ctx):
        from xiangshe.domain.libretto import StagingError, parse_arrow

        if isinstance(value, tuple):
            return value
        try:
            return parse_arrow(value)
        except StagingError as err:
            self.fail(str(err), param, ctx)


class PhaseId(click.ParamType):
    """A phase of the ceremony as the vocabulary names it (Φ01 … Φ52)."""

    name = "phase"

    def convert(self, value, param, ctx):
        from xiangshe.domain.vocabulary import vocabulary

        phases = vocabulary().phases
        m = re.fullmatch(r"(?:Φ|phi|PHI)\s*([0-9]{1,2})", value.strip())
        if m and f"Φ{int(m.group(1)):02d}" in phases:  # Φ5, phi05 → Φ05
            return f"Φ{int(m.group(1)):02d}"
        if value not in phases:
            self.fail(
                f"no phase {value!r}; {did_you_mean(value, phases)} (the phases are {min(phases)} … {max(phases)})",
                param,
                ctx,
            )
        return value


class Percent(click.FloatRange):
    """A percentage: a number from 0 to 100 (not nan)."""

    def __init__(self) -> None:
        super().__init__(0, 100)

    def convert(self, value, param, ctx):
        rv = super().convert(value, param, ctx)
        if math.isnan(rv):
            self.fail("nan is not a percentage; give a number from 0 to 100", param, ctx)
        return rv


# -- the options several commands share -----------------------------------------------------------

STDIN_FORMATS = ("trace", "jsonl", "json", "yaml")  # domain/parse.py READERS


def reading_options(f):
    """--reading point=option (repeatable) and --readings FILE: the contested readings in force."""
    f = click.option(
        "--readings",
        "readings_file",
        type=click.Path(dir_okay=False, path_type=Path),
        help="a TOML file of point = \"option\" lines",
    )(f)
    return click.option(
        "--reading",
        "reading",
        multiple=True,
        metavar="POINT=OPTION",
        help="follow another reading of a contested point, e.g. guan=zheng",
    )(f)


def lint_options(baseline: bool = True):
    """The options of a linter (README "Using it like a linter"): which checks apply, the
    configuration file and, with `baseline`, the baseline."""
    terms = (
        "rule ids, Chinese names, catalogue ids (R120), machine.<slug>, audit.<id>, or groups: "
        "machine, audit, a category, a section A–H, R1 (a catalogue prefix), ALL"
    )
    options = [
        click.option(
            "--select",
            multiple=True,
            metavar="RULES",
            help=f"apply only these checks (comma-separated, repeatable): {terms}",
        ),
        click.option("--ignore", multiple=True, metavar="RULES", help="do not apply these checks"),
        click.option(
            "--config",
            "config_file",
            type=click.Path(dir_okay=False, path_type=Path),
            help="the configuration file (default: the nearest xiangshe.toml, or pyproject.toml with [tool.xiangshe])",
        ),
        click.option("--isolated", is_flag=True, help="read no configuration file"),
    ]
    if baseline:
        options += [
            click.option(
                "--baseline",
                "baseline_file",
                type=click.Path(dir_okay=False, path_type=Path),
                help="report only the findings that are not in this baseline file",
            ),
            click.option(
                "--write-baseline",
                "write_baseline",
                metavar="FILE",
                type=click.Path(dir_okay=False, path_type=Path),
                help="record the current findings in FILE and exit 0 (refused if FILE exists, unless --force)",
            ),
            click.option("--force", is_flag=True, help="with --write-baseline: replace the file"),
        ]

    def decorate(f):
        for opt in reversed(options):
            f = opt(f)
        return f

    return decorate


def stdin_options(f):
    """--stdin-format and --stdin-filename: how to read `-` (standard input) and what to call it."""
    f = click.option(
        "--stdin-filename", metavar="NAME", help="the name of `-` in messages, JSON, SARIF and JUnit (default: <stdin>)"
    )(f)
    return click.option(
        "--stdin-format",
        type=click.Choice(list(STDIN_FORMATS)),
        help="how to read `-`: trace, jsonl, json or yaml (default: by the suffix of --stdin-filename, else trace)",
    )(f)
