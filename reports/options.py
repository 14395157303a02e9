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


def staging_options(f):
    """The options of `generate`: what a staging of the ceremony varies on (domain/libretto/options.py)."""
    options = [
        click.option("--zhongbin", type=click.IntRange(3, 30), default=6, show_default=True, help="number of 众宾"),
        click.option(
            "--dafu", type=click.IntRange(0, 4), default=1, show_default=True, help="number of 大夫 (0: 若无大夫)"
        ),
        click.option("--zhugong", type=click.IntRange(0, 3), default=0, show_default=True, help="number of 诸公"),
        click.option("--taishi/--no-taishi", default=True, show_default=True, help="a 大师 among the 工"),
        click.option(
            "--bin-zhuren-shoot/--no-bin-zhuren-shoot",
            default=True,
            show_default=True,
            help="the 宾 and the 主人 shoot, as a pair",
        ),
        click.option("--dafu-shoot/--no-dafu-shoot", default=True, show_default=True, help="the 大夫 shoot"),
        click.option(
            "--zhongbin-pairs",
            type=click.IntRange(0, 13),
            default=1,
            show_default=True,
            help="pairs of 众宾 shooting besides the 大夫's partners",
        ),
        click.option(
            "--shi-bu-bei/--no-shi-bu-bei",
            default=True,
            show_default=True,
            help="若矢不备: arrows missing after round 1",
        ),
        click.option(
            "--outcome",
            "outcome",
            nargs=2,
            type=click.Choice(["右", "左", "钧"]),
            default=("右", "右"),
            show_default=True,
            help="who wins rounds 2 and 3: 右, 左 or 钧",
        ),
        click.option("--dafu-partner-loses", is_flag=True, help="in round 2 the 大夫 wins and his partner loses"),
        click.option(
            "--jun",
            type=click.Choice(["", "与射"]),
            default="",
            show_default=True,
            help="与射: the ruler's 燕射 (记 君，国中射), the 君 shooting as the 宾's partner",
        ),
        click.option("--yu", is_flag=True, help="古者于旅也语: the 宾 and the 主人 converse at the 旅酬"),
        click.option(
            "--arrow",
            "arrows",
            multiple=True,
            type=ArrowSpec(),
            metavar="R:PAIR:SIDE=RESULTS",
            help="explicit results, e.g. 2:上耦:上射=中正,不中,中正,中侯",
        ),
        click.option("--seed", type=int, default=0, show_default=True, help="varies the arrows' results"),
        click.option("--until", type=PhaseId(), default="Φ52", show_default=True, help="the last phase to stage"),
    ]
    for opt in reversed(options):
        f = opt(f)
    return f
