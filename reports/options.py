"""click parameter types for options whose values have a shape of their own: each value is checked
when the command line is read, and a bad one is a usage error (exit 2) that names the option, says
what was expected and, where it helps, what was probably meant; and the groups of options that
several commands share (the readings, the linter's, standard input's)."""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

import click

from xiangshe.domain.errors import did_you_mean

#: the path types of the options, one object each (click asks gettext for a name as it makes one)
A_FILE = click.Path(dir_okay=False, path_type=Path)  # a file to read or write, not a directory
A_STAGING = click.Path(allow_dash=True, path_type=str)  # a staging, a directory of them, or - (standard input)


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


class ByteSize(click.ParamType):
    """A size in bytes: 4096, 200M, 1G (domain/sources.py parse_size)."""

    name = "size"

    def convert(self, value, param, ctx):
        from xiangshe.domain.sources import parse_size

        try:
            return value if isinstance(value, int) else parse_size(value)
        except ValueError as err:
            self.fail(str(err), param, ctx)


# -- the options several commands share -----------------------------------------------------------

STDIN_FORMATS = ("trace", "jsonl", "json", "yaml")  # domain/parse.py READERS


def reading_options(f):
    """--reading point=option (repeatable) and --readings FILE: the contested readings in force."""
    f = click.option(
        "--readings",
        "readings_file",
        type=A_FILE,
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
            type=A_FILE,
            help="the configuration file (default: the nearest xiangshe.toml, or pyproject.toml with [tool.xiangshe])",
        ),
        click.option("--isolated", is_flag=True, help="read no configuration file"),
    ]
    if baseline:
        options += [
            click.option(
                "--baseline",
                "baseline_file",
                type=A_FILE,
                help="report only the findings that are not in this baseline file",
            ),
            click.option(
                "--write-baseline",
                "write_baseline",
                metavar="FILE",
                type=A_FILE,
                help="record the current findings in FILE and exit 0 (refused if FILE exists, unless --force)",
            ),
            click.option("--force", is_flag=True, help="with --write-baseline: replace the file"),
        ]

    return lambda f: _apply(options, f)


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
            "--zhang-shoot",
            is_flag=True,
            help="the three 众宾之长 shoot (partners and 众耦 from 众宾1 on; 记 众宾不与射者，不降)",
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
    return _apply(options, f)


def _apply(options: list, f):
    """`f` with `options` applied as decorators written in this order (the first is shown first)."""
    for option in reversed(options):
        f = option(f)
    return f


def jobs_option(help: str):
    """--jobs N: how many processes (default: the cores this process may use)."""
    cores = getattr(os, "process_cpu_count", os.cpu_count)() or 1  # process_cpu_count: Python 3.13
    return click.option("--jobs", type=click.IntRange(1, 64), default=cores, show_default="the cores", help=help)


FORMATS = click.Choice(["text", "json"])
CHECK_FORMATS = click.Choice(["text", "json", "sarif", "junit", "github"])


def check_options(f):
    """The options of `check`."""
    options = [
        click.argument("files", nargs=-1, type=A_STAGING),
        click.option(
            "--format",
            "fmt",
            type=CHECK_FORMATS,
            default=None,
            help="text (the default), json, sarif (SARIF 2.1.0, for code scanning), junit (JUnit XML, "
            "for CI) or github (GitHub Actions annotations)",
        ),
        click.option("--scoring", is_flag=True, help="show the scoring audit arrow by arrow"),
        click.option(
            "--max-input-size",
            type=ByteSize(),
            default="64M",
            metavar="SIZE",
            help="refuse (exit 2) a FILE larger than SIZE; default 64M (K, M, G: KiB, MiB, GiB)",
        ),
        click.option(
            "--verbose",
            "-v",
            is_flag=True,
            help="text: show every finding, also those that follow from another (by default counted "
            "under the finding they follow from; JSON always has them all, with caused_by)",
        ),
        click.option(
            "--color/--no-color",
            "color",
            default=None,
            help="colour the text output (default: on a terminal, unless NO_COLOR is set)",
        ),
        click.option(
            "--progress/--no-progress",
            "show_progress",
            default=None,
            hidden=True,
            help="a progress bar on stderr (default: on a terminal, for many files)",
        ),
        jobs_option("processes checking the stagings (a small batch is checked in one)"),
    ]
    return _apply(options, f)


def _output(text: str) -> list:
    """-o/--output, a file the command writes (never over one that exists: domain/files.save), and
    --force, which lets it."""
    return [
        click.option("-o", "--output", type=A_FILE, help=text),
        click.option("--force", is_flag=True, help="overwrite the output file"),
    ]


def report_options(f):
    """The options of `report`."""
    options = [
        click.argument("file", type=A_STAGING),
        *_output("where to write the page (default: reports/<trace>.html; refused if it exists, unless --force)"),
    ]
    return _apply(options, f)


def generate_options(f):
    """The options of `generate`."""
    options = [
        *_output("write the staging here (refused if the file exists, unless --force)"),
        click.option("--format", "fmt", type=click.Choice(["trace", "jsonl"]), default="trace", show_default=True),
    ]
    return _apply(options, f)


def explain_options(f):
    """The options of `explain`."""
    options = [
        click.argument("rule"),
        click.option("--format", "fmt", type=FORMATS, default="text", show_default=True),
    ]
    return _apply(options, f)


def counterexample_options(f):
    """The options of `counterexample`."""
    options = [
        click.argument("rule"),
        click.option(
            "--depth", type=click.IntRange(1, 40), default=16, show_default=True, help="the longest trace searched"
        ),
        *_output("save the counterexample as a trace (refused if the file exists, unless --force)"),
        click.option("--format", "fmt", type=FORMATS, default="text", show_default=True),
    ]
    return _apply(options, f)


def query_options(f):
    """The options of `query`."""
    options = [
        click.argument(
            "kind",
            type=click.Choice(
                [
                    "absence",
                    "precedence",
                    "response",
                    "unique",
                    "at_most",
                    "count_before",
                    "absence_between",
                    "alternate",
                ]
            ),
        ),
        click.option("--pattern", help="absence, unique, at_most: the events it speaks of"),
        click.option("--first", help="precedence, response, count_before: the earlier events"),
        click.option("--then", "then_", help="precedence, response, count_before, absence_between: the later events"),
        click.option("--after", help="absence_between: the event that opens the window"),
        click.option("--forbid", help="absence_between: what may not happen in the window"),
        click.option("-a", "a_", help="alternate: the events that come first"),
        click.option("-b", "b_", help="alternate: the events that answer them"),
        click.option("--same", multiple=True, metavar="KEY[=KEY]", help="correlate the events on these keys"),
        click.option("-n", type=click.IntRange(min=0), help="at_most, count_before: the number"),
        click.option("--op", type=click.Choice(["==", "<=", ">="]), help="count_before: the comparison"),
        click.option("--depth", type=click.IntRange(1, 40), default=8, show_default=True),
        click.option(
            "-o",
            "--output",
            type=A_FILE,
            help="save a counterexample as a trace (refused if the file exists)",
        ),
        click.option("--format", "fmt", type=FORMATS, default="text", show_default=True),
    ]
    return _apply(options, f)


def check_rules_options(f):
    """The options of `check-rules`."""
    options = [
        click.option(
            "--format", "fmt", type=click.Choice(["text", "json", "sarif", "junit"]), default="text", show_default=True
        ),
        click.option(
            "--redundancy",
            type=click.IntRange(0, 40),
            default=16,
            show_default=True,
            help="search a rule that no violating example breaks alone for a counterexample of up "
            "to this many steps (0: no search)",
        ),
        click.option(
            "--search-all",
            is_flag=True,
            help="search every rule with z3, even one whose violating example is a witness (slow)",
        ),
        jobs_option("processes for the z3 searches"),
        click.option(
            "--rule",
            "rule_words",
            multiple=True,
            metavar="RULE",
            help="check only this rule (id, Chinese name or catalogue id; repeatable): its vacuity, its "
            "consistency with the machines and its independence of every other rule in force",
        ),
    ]
    return _apply(options, f)


def coverage_options(f):
    """The options of `coverage`."""
    options = [
        click.option("--format", "fmt", type=FORMATS, default="text", show_default=True),
        click.option(
            "--all",
            "show_all",
            is_flag=True,
            help="list every clause with its category, not only those nothing enforces",
        ),
        click.option(
            "--min",
            "minimum",
            type=Percent(),
            default=None,
            help="exit 1 if the share of the normative clauses enforced (percent_enforced) is below this percentage",
        ),
    ]
    return _apply(options, f)


def all_readings_options(command: str = "readings"):
    """Every reading at once (reports/allreadings.py): for `readings`, its stagings and format; for
    `check` and `report`, the flag --all-readings that asks for it; for all, the bound."""
    bound = click.option(
        "--max-combinations",
        type=click.IntRange(1),
        default=64,  # constraints/allreadings.py LIMIT (not imported here: every command reads this module)
        show_default=True,
        metavar="N",
        help="check at most N combinations of readings per staging (past it: exit 3, inconclusive)",
    )
    if command == "readings":
        options = [
            click.argument("files", nargs=-1, type=A_STAGING),
            click.option("--format", "fmt", type=click.Choice(["text", "json"]), default=None, help="text or json"),
            bound,
        ]
    else:
        flag = click.option(
            "--all-readings",
            is_flag=True,
            help="check under every combination of the contested readings that bears on the staging"
            + (" (as the readings command; text or json)" if command == "check" else ": a section of the page"),
        )
        options = [flag, bound]
    return lambda f: _apply(options, f)


def repair_options(f):
    """The options of `repair`: its FILE, where the repaired staging goes, and the bounds of the search."""
    options = [
        click.argument("file", type=A_STAGING),
        *_output(
            "write the first (smallest) repaired staging here, in FILE's format (refused if the file "
            "exists, unless --force; FILE itself is never touched)"
        ),
        click.option("--format", "fmt", type=FORMATS, default="text", show_default=True),
        click.option(
            "--max-edits",
            type=click.IntRange(1, 4),
            default=2,
            show_default=True,
            help="the most edits a repair may have",
        ),
        click.option(
            "--budget",
            type=click.IntRange(1, 100000),
            default=400,
            show_default=True,
            help="the most candidate stagings checked",
        ),
        click.option(
            "--timeout",
            "seconds",
            type=click.FloatRange(0.1, 3600),
            default=60.0,
            show_default=True,
            help="the most seconds spent searching",
        ),
        click.option(
            "--keep", type=click.IntRange(1, 50), default=5, show_default=True, help="the most repairs listed"
        ),
        click.option("--stdin-format", type=click.Choice(list(STDIN_FORMATS)), help="how to read `-` (default: trace)"),
    ]
    return _apply(options, f)


def frontier_options(complete: bool = False):
    """The options of `next` and (with `complete=True`) of `complete`: FILE, --format, and for
    `complete` --to, -o/--output and --force."""

    def wrap(f):
        options = [
            click.argument("file"),
            click.option("--format", "fmt", type=FORMATS, default="text", show_default=True),
        ]
        if complete:
            options += [
                click.option(
                    "--to",
                    type=click.Choice(["phase", "end"]),
                    default="phase",
                    show_default=True,
                    help="complete to the end of the current phase, or of the ceremony",
                ),
                *_output("write the completed staging here (refused if the file exists, unless --force)"),
            ]
        return _apply(options, f)

    return wrap
