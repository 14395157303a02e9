"""xiangshe — check stagings of 《仪礼·乡射礼》 against its machines and its rulebook.

\b
Exit status:
  0    ok: no violations
  1    violations found
  2    bad input: a trace, the rulebook, a quote, or the usage
  3    inconclusive: the solver gave up
  70   internal error: a bug in xiangshe (XIANGSHE_DEBUG=1 shows the traceback)
  130  interrupted (Ctrl-C): nothing is concluded
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

if __name__ == "__main__" and not __package__:  # `python verify.py …` in a checkout: the checkout is xiangshe
    import importlib.util

    _spec = importlib.util.spec_from_file_location(
        "xiangshe",
        Path(__file__).with_name("__init__.py"),
        submodule_search_locations=[str(Path(__file__).resolve().parent)],
    )
    sys.modules["xiangshe"] = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(sys.modules["xiangshe"])

from xiangshe import CANONICAL, version  # noqa: E402  (pyproject.toml's version, read when asked)
from xiangshe.domain.visible import visible  # noqa: E402 (after the bootstrap above)
from xiangshe.reports.echo import Group, echo  # noqa: E402
from xiangshe.reports.options import ArrowSpec, Percent, PhaseId  # noqa: E402

ROOT = Path(__file__).resolve().parent
VIOLATIONS = ROOT / "traces" / "violations"
FORMATS = click.Choice(["text", "json"])
CHECK_FORMATS = click.Choice(["text", "json", "sarif", "junit", "github"])
STDIN_FORMATS = ("trace", "jsonl", "json", "yaml")  # domain/parse.py READERS


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


class BadInput(click.ClickException):
    """Input problems, already located as `path:line: error: …`; exit 2."""

    exit_code = 2

    def show(self, file=None) -> None:
        from xiangshe.reports.messages import input_errors

        echo(input_errors(self.message), err=True)


def _save(output: Path, text: str, force: bool | None = False) -> None:
    """Write a file the command made; never over one that exists, unless --force."""
    advice = "choose another name or use --force" if force is not None else "choose another name"
    if output.exists() and not force:
        raise BadInput(f"{_display(output)}: error: the file exists; {advice}")
    try:
        with output.open("w" if force else "x", encoding="utf-8") as f:  # "x": never over a file
            f.write(text)
    except FileExistsError:
        raise BadInput(f"{_display(output)}: error: the file exists; {advice}") from None
    except OSError as err:
        raise BadInput(f"{_display(output)}: error: cannot write: {err.strerror}") from None


def _violation_files() -> dict[str, list[Path]]:
    """The bundled violating examples (traces/violations/<rule id>[.N].trace), by rule id."""
    out: dict[str, list[Path]] = {}
    for p in sorted(VIOLATIONS.glob("*.trace")):
        out.setdefault(p.name.split(".")[0], []).append(p)
    return out


def _bad(err: Exception) -> BadInput:
    render = getattr(err, "render", None)
    return BadInput(render() if render else str(err))


def _show_version(ctx: click.Context) -> None:
    """--version: read only when asked (click's version_option would need the version at import)."""
    echo(f"xiangshe, version {version()}")
    ctx.exit()


@click.group(cls=Group, help=__doc__)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    help="Show the version and exit.",
    callback=lambda ctx, _param, value: _show_version(ctx) if value and not ctx.resilient_parsing else None,
)
@click.option(
    "--lang",
    type=click.Choice(["en", "zh"]),
    envvar="XIANGSHE_LANG",
    default="en",
    show_default=True,
    help="the fixed words of text output in English or Chinese (also "
    "XIANGSHE_LANG); JSON, SARIF and JUnit are not translated",
)
def cli(lang: str) -> None:
    from xiangshe.reports.messages import set_language

    set_language(lang)


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


def _readings(
    reading: tuple[str, ...], readings_file: Path | None, base: dict[str, str] | None = None
) -> dict[str, str]:
    from xiangshe.constraints.readings import select
    from xiangshe.domain.errors import InputError

    try:
        return select(list(reading), readings_file, base=base)
    except InputError as err:
        raise _bad(err) from None


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


def _lint_settings(lint: dict):
    """The configuration in force and the selection of checks (command line over file)."""
    from xiangshe.constraints.config import settings
    from xiangshe.constraints.select import terms
    from xiangshe.domain.errors import InputError

    if lint.get("force") and lint.get("write_baseline") is None:
        raise BadInput("error: --force goes with --write-baseline (check never writes otherwise)")
    try:
        cfg = settings(Path.cwd(), lint["config_file"], lint["isolated"], lambda p: _display(Path(p)))
        select = terms(lint["select"], "--select") if lint["select"] else None
        ignore = terms(lint["ignore"], "--ignore") if lint["ignore"] else None
    except InputError as err:
        raise _bad(err) from None
    return cfg, cfg.selection(select, ignore)


def _lint(results, rules, cfg, selection, lint: dict, use_baseline: bool = True):
    """Apply the selection, the inline suppressions and (with `use_baseline`) the baseline;
    --write-baseline writes the findings and exits."""
    from xiangshe.constraints.lint import apply
    from xiangshe.constraints.select import in_force
    from xiangshe.domain.errors import InputError

    ids = in_force(rules)
    out = lint.get("write_baseline")
    path = (lint.get("baseline_file") or cfg.baseline) if use_baseline else None
    if out is None and path is None:
        return apply(results, selection, ids)
    from xiangshe.constraints import baseline as bl

    if out is not None:
        outcome = apply(results, selection, ids)
        _save(out, bl.render(outcome.results, out.parent), lint["force"])
        n = sum(len(r.findings) for r in outcome.results)
        echo(f"wrote {_display(out)}: {n} finding{'s' if n != 1 else ''} in the baseline", err=True)
        sys.exit(0)
    try:
        baseline = bl.load(path, _display(path))
    except InputError as err:
        raise _bad(err) from None
    return apply(results, selection, ids, baseline)


def _github_input_errors(f):
    """With --format github, input errors (exit 2) are also printed as annotations."""
    import functools

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except BadInput as err:
            if click.get_current_context().meta.get("xiangshe.format", kwargs.get("fmt")) == "github":
                from xiangshe.reports.github import input_errors

                echo(input_errors(err.message))
            raise

    return wrapper


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


def _sources(files: tuple[str, ...], stdin_format: str | None, stdin_filename: str | None):
    """The stagings FILES name (files, directories, `-`); with no FILE, the canonical ceremony —
    unless standard input holds something, which is refused rather than silently ignored."""
    from xiangshe.domain import sources

    if (stdin_format or stdin_filename) and sources.STDIN not in files:
        option = "--stdin-format" if stdin_format else "--stdin-filename"
        raise BadInput(f"error: {option} is for `-` (standard input), which is not among the FILEs")
    if files:
        return sources.expand(files, _display, stdin_format, stdin_filename)
    state = sources.stdin_state()
    if state == "data":
        raise BadInput(
            "error: standard input has data but no FILE was given; to check it, pass - "
            "(xiangshe check - [--stdin-format trace|jsonl|json|yaml]); to check the "
            "bundled canonical ceremony, give no input (< /dev/null)"
        )
    if state == "silent":
        raise BadInput(
            f"error: standard input is an open pipe that sent nothing within "
            f"{sources.STDIN_WAIT:g} s and no FILE was given; to check it, pass -; to "
            "check the bundled canonical ceremony, give no input (< /dev/null)"
        )
    return [sources.Source(_display(CANONICAL), CANONICAL, "trace")]


@cli.command()
@click.argument("files", nargs=-1, type=click.Path(allow_dash=True, path_type=str))
@click.option(
    "--format",
    "fmt",
    type=CHECK_FORMATS,
    default=None,
    help="text (the default), json, sarif (SARIF 2.1.0, for code scanning), junit (JUnit XML, "
    "for CI) or github (GitHub Actions annotations)",
)
@click.option("--scoring", is_flag=True, help="show the scoring audit arrow by arrow")
@click.option(
    "--verbose",
    "-v",
    is_flag=True,
    help="text: show every finding, also those that follow from another (by default counted "
    "under the finding they follow from; JSON always has them all, with caused_by)",
)
@click.option(
    "--color/--no-color",
    "color",
    default=None,
    help="colour the text output (default: on a terminal, unless NO_COLOR is set)",
)
@click.option(
    "--progress/--no-progress",
    "show_progress",
    default=None,
    hidden=True,
    help="a progress bar on stderr (default: on a terminal, for many files)",
)
@stdin_options
@reading_options
@lint_options()
@_github_input_errors
def check(
    files: tuple[str, ...],
    fmt: str | None,
    scoring: bool,
    reading: tuple[str, ...],
    readings_file: Path | None,
    verbose: bool = False,
    color: bool | None = None,
    show_progress: bool | None = None,
    stdin_format: str | None = None,
    stdin_filename: str | None = None,
    **lint,
) -> None:
    """Replay FILES through the machines and the rules (no FILE: the canonical ceremony, when
    standard input holds nothing; piped data needs -).

    \b
    A FILE is a staging (.trace, .jsonl, .json, .yaml, .yml), a directory (every staging below
    it), or - for standard input. A FILE that cannot be read is reported in its place, the others
    are still checked, and the exit status is 2.
    """
    from xiangshe.constraints.check import check_source
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.reports import render
    from xiangshe.reports.messages import input_errors
    from xiangshe.reports.progress import progress

    cfg, selection = _lint_settings(lint)
    fmt = click.get_current_context().meta["xiangshe.format"] = fmt or cfg.format or "text"
    chosen = _readings(reading, readings_file, cfg.readings)
    rules_in_force = active_rules(chosen)
    sources = _sources(files, stdin_format, stdin_filename)
    results = [check_source(s, rules_in_force, chosen) for s in progress(sources, show_progress)]
    unreadable = render.input_errors_text(results)
    if unreadable:  # located errors first, on stderr, in every format
        echo(input_errors(unreadable), err=True)
        if lint.get("write_baseline") is not None:
            echo("error: no baseline is written while a staging cannot be read", err=True)
            sys.exit(2)
    linted = _lint(results, rules_in_force, cfg, selection, lint)
    results = linted.results
    if fmt == "sarif":
        from xiangshe.reports.sarif import check_sarif

        echo(check_sarif(results, rules_in_force, chosen, version(), linted.not_applied))
    elif fmt == "junit":
        from xiangshe.reports.junit import check_junit

        echo(check_junit(results, rules_in_force, chosen))
    elif fmt == "github":
        from xiangshe.reports.github import check_github

        echo(check_github(results), nl=any(r.findings for r in results))
    elif fmt == "json":
        echo(render.check_json(results, chosen, linted))
    else:
        from xiangshe.reports import colour

        text, paint = visible(render.check_text(results, chosen, scoring, linted, verbose)), colour.enabled(color)
        click.echo(colour.paint(text) if paint else text, color=paint)
    sys.exit(2 if unreadable else 0 if all(r.ok for r in results) else 1)


@cli.command()
@click.argument("file", type=click.Path(allow_dash=True, path_type=str))
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="where to write the page (default: reports/<trace>.html; refused if it exists, unless --force)",
)
@click.option("--force", is_flag=True, help="overwrite the output file")
@stdin_options
@reading_options
@lint_options(baseline=False)
def report(
    file: str,
    output: Path | None,
    force: bool,
    reading: tuple[str, ...],
    readings_file: Path | None,
    stdin_format: str | None = None,
    stdin_filename: str | None = None,
    **lint,
) -> None:
    """Write the HTML report of FILE (a staging, or - for standard input): timeline, vessel states,
    findings, scoring, machine diagrams.

    \b
    The configuration file, --select/--ignore and inline suppressions apply as for check (not a
    baseline: the page shows every finding).
    Exit status (as for check): 0 ok, 1 violations (the page is still written), 2 bad input.
    """
    from xiangshe.constraints.check import check_trace
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.domain.errors import InputError
    from xiangshe.domain.parse import TraceErrors
    from xiangshe.reports.html import html_report

    cfg, selection = _lint_settings(lint)
    chosen = _readings(reading, readings_file, cfg.readings)
    if Path(file).is_dir() and file != "-":
        raise BadInput(
            f"{_display(Path(file))}: error: is a directory; report takes one staging file (check takes directories)"
        )
    [source] = _sources((file,), stdin_format, stdin_filename)
    try:
        trace = source.read()
        rules = active_rules(chosen)
        result = check_trace(trace, rules, chosen)
    except (TraceErrors, InputError) as err:
        raise _bad(err) from None
    [result] = _lint([result], rules, cfg, selection, lint, use_baseline=False).results
    if output is None:
        stem = Path(source.display).stem if not source.is_stdin or stdin_filename else "stdin"
        output = Path("reports") / f"{stem}.html"
        try:
            output.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise BadInput(
                f"{_display(output.parent)}: error: cannot make the directory for the "
                f"report: {err.strerror}; choose another place with -o"
            ) from None
    elif not output.parent.is_dir():
        raise BadInput(f"{_display(output)}: error: no such directory {_display(output.parent)}")
    _save(output, html_report(trace, result, chosen, f"xiangshe {version()}"), force)
    from xiangshe.reports.messages import wrote_report

    echo(wrote_report(_display(output), result.events, len(result.findings)), err=True)
    sys.exit(0 if result.ok else 1)


@cli.command()
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
@reading_options
def rules(fmt: str, reading: tuple[str, ...], readings_file: Path | None) -> None:
    """List the rulebook (the rules in force under the chosen readings are marked)."""
    from xiangshe.constraints.rulebook import rulebook
    from xiangshe.reports import render

    chosen = _readings(reading, readings_file)
    rb = rulebook()
    echo(render.rules_json(rb, chosen) if fmt == "json" else render.rules_text(rb, chosen))


@cli.command()
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="write the staging here (refused if the file exists, unless --force)",
)
@click.option("--force", is_flag=True, help="overwrite the output file")
@click.option("--format", "fmt", type=click.Choice(["trace", "jsonl"]), default="trace", show_default=True)
@click.option("--zhongbin", type=click.IntRange(3, 30), default=6, show_default=True, help="number of 众宾")
@click.option("--dafu", type=click.IntRange(0, 4), default=1, show_default=True, help="number of 大夫 (0: 若无大夫)")
@click.option("--zhugong", type=click.IntRange(0, 3), default=0, show_default=True, help="number of 诸公")
@click.option("--taishi/--no-taishi", default=True, show_default=True, help="a 大师 among the 工")
@click.option(
    "--bin-zhuren-shoot/--no-bin-zhuren-shoot",
    default=True,
    show_default=True,
    help="the 宾 and the 主人 shoot, as a pair",
)
@click.option("--dafu-shoot/--no-dafu-shoot", default=True, show_default=True, help="the 大夫 shoot")
@click.option(
    "--zhongbin-pairs",
    type=click.IntRange(0, 13),
    default=1,
    show_default=True,
    help="pairs of 众宾 shooting besides the 大夫's partners",
)
@click.option(
    "--shi-bu-bei/--no-shi-bu-bei", default=True, show_default=True, help="若矢不备: arrows missing after round 1"
)
@click.option(
    "--outcome",
    "outcome",
    nargs=2,
    type=click.Choice(["右", "左", "钧"]),
    default=("右", "右"),
    show_default=True,
    help="who wins rounds 2 and 3: 右, 左 or 钧",
)
@click.option("--dafu-partner-loses", is_flag=True, help="in round 2 the 大夫 wins and his partner loses")
@click.option(
    "--jun",
    type=click.Choice(["", "与射"]),
    default="",
    show_default=True,
    help="与射: the ruler's 燕射 (记 君，国中射), the 君 shooting as the 宾's partner",
)
@click.option("--yu", is_flag=True, help="古者于旅也语: the 宾 and the 主人 converse at the 旅酬")
@click.option(
    "--arrow",
    "arrows",
    multiple=True,
    type=ArrowSpec(),
    metavar="R:PAIR:SIDE=RESULTS",
    help="explicit results, e.g. 2:上耦:上射=中正,不中,中正,中侯",
)
@click.option("--seed", type=int, default=0, show_default=True, help="varies the arrows' results")
@click.option("--until", type=PhaseId(), default="Φ52", show_default=True, help="the last phase to stage")
def generate(
    output: Path | None, force: bool, fmt: str, arrows: tuple[tuple[str, tuple[str, ...]], ...], **options
) -> None:
    """Stage the ceremony from options: a starting point for your own staging."""
    from xiangshe.domain.libretto import Options, StagingError
    from xiangshe.domain.libretto import generate as stage
    from xiangshe.domain.parse import parse_lines, to_jsonl

    explicit = dict(arrows)
    if len(explicit) != len(arrows):
        twice = sorted({k for k, _ in arrows if sum(k == j for j, _ in arrows) > 1})
        raise click.BadParameter(f"{', '.join(twice)} is given twice", param_hint="'--arrow'")
    options["outcome"] = tuple(options["outcome"])
    try:
        text = stage(Options(arrows=explicit, **options))
    except StagingError as err:
        raise BadInput(f"error: {err}") from None
    if fmt == "jsonl":
        text = to_jsonl(parse_lines(text, "<generated>"))
    if output is None:
        echo(text, nl=False)
        return
    _save(output, text, force)
    echo(f"wrote {_display(output)}", err=True)


@cli.command()
@click.argument("rule")
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
def explain(rule: str, fmt: str) -> None:
    """Show RULE (ASCII id, Chinese name or catalogue id, in any script or case): quotes in context,
    contested readings, a passing and a failing example; or a machine (machine.<slug>: its states,
    edges and their quotes) or a check of the scoring audit (audit.<catalogue>)."""
    from xiangshe.constraints.explain import UnknownSubject, resolve
    from xiangshe.constraints.explain import explain as gather
    from xiangshe.reports.explain import explain_output

    try:
        subject = resolve(rule)
    except UnknownSubject as err:
        raise BadInput(f"error: {err}") from None
    if isinstance(subject, list):
        stagings = [CANONICAL, *sorted((ROOT / "traces" / "variants").glob("*.trace"))]
        subject = [gather(r, VIOLATIONS, stagings, ROOT) for r in subject]
    echo(explain_output(subject, fmt))


@cli.command()
@click.argument("rule")
@click.option("--depth", type=click.IntRange(1, 40), default=16, show_default=True, help="the longest trace searched")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="save the counterexample as a trace (refused if the file exists, unless --force)",
)
@click.option("--force", is_flag=True, help="overwrite the output file")
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
@reading_options
def counterexample(
    rule: str,
    depth: int,
    output: Path | None,
    force: bool,
    fmt: str,
    reading: tuple[str, ...],
    readings_file: Path | None,
) -> None:
    """A shortest trace that the machines and all the other rules allow but RULE forbids.

    \b
    Exit status: 1 a counterexample was found; 0 none up to --depth steps (not a proof);
    3 the solver gave up.
    """
    import json

    from xiangshe.constraints.rulebook import active_rules, find_rule
    from xiangshe.constraints.search import Exhausted, Refuted, Unknown, minimise, refute, witness
    from xiangshe.domain.parse import parse_file, parse_lines
    from xiangshe.reports import render

    chosen = _readings(reading, readings_file)
    rules_in_force = active_rules(chosen)
    found = [r for r in find_rule(rule) if r.encoded and r in rules_in_force]
    if len(found) != 1:
        from xiangshe.constraints.rulebook import rulebook
        from xiangshe.domain.errors import did_you_mean

        names = [r.id for r in rulebook()] + [r.name for r in rulebook()]
        what = (
            "is ambiguous: " + ", ".join(r.id for r in found)
            if found
            else f"is not an encoded rule in force; {did_you_mean(rule, names)}"
        )
        raise BadInput(f"error: {rule} {what}")
    target = found[0]
    outcome = refute(target, rules_in_force, depth)
    doc = {
        "rule": target.id,
        "name": target.name,
        "catalogue": target.catalogue,
        "depth": depth,
        "found": isinstance(outcome, Refuted),
        "steps": getattr(outcome, "steps", None),
        "trace_file": None,
        "readings": chosen,
    }
    from xiangshe.reports import messages

    if isinstance(outcome, Exhausted):
        doc["outcome"] = f"none up to {depth} steps"
        said = messages.no_counterexample(target.location, target.id, depth)
    elif isinstance(outcome, Unknown):
        doc["outcome"] = f"unknown: {outcome.reason}"
        said = messages.solver_gave_up(target.location, outcome.depth, outcome.reason)
    text = source = None
    if isinstance(outcome, Refuted):
        text = minimise(outcome.text, target, rules_in_force, chosen)
    else:
        # z3 found none within its bounds: a bundled violating example that breaks the rule alone
        # is a counterexample all the same, though not shown to be a shortest one
        files = {_display(p): p for p in _violation_files().get(target.id, [])}
        seen = witness(target, [parse_file(p, name) for name, p in files.items()], rules_in_force, chosen)
        if seen is not None:
            source = seen.path
            text = minimise(files[source].read_text(encoding="utf-8"), target, rules_in_force, chosen)
    if text is None:
        echo(json.dumps(doc, ensure_ascii=False, indent=2) if fmt == "json" else said)
        sys.exit(0 if isinstance(outcome, Exhausted) else 3)
    trace = parse_lines(text, "<counterexample>")
    steps = outcome.steps if isinstance(outcome, Refuted) else len(trace)
    doc |= {"found": True, "steps": steps, "shortest": source is None}
    if source is not None:
        doc["source"] = source
    if output is not None:
        how = "shortest" if source is None else f"minimised from {source}, not shown to be shortest"
        header = (
            f"# a counterexample to {target.id} ({target.catalogue} {target.name}): "
            f"{steps} steps, {how}; `xiangshe check` reports exactly this rule\n"
        )
        _save(output, header + text, force)
        doc["trace_file"] = _display(output)
    doc["trace"] = text
    if fmt == "json":
        echo(json.dumps(doc, ensure_ascii=False, indent=2))
    else:
        if source is not None:
            echo(f"{said}\n{messages.bundled_counterexample(target.location, source)}")
        echo(render.counterexample_text(target, trace, steps, doc["trace_file"], source is None))
    sys.exit(1)


@cli.command()
@click.argument(
    "kind",
    type=click.Choice(
        ["absence", "precedence", "response", "unique", "at_most", "count_before", "absence_between", "alternate"]
    ),
)
@click.option("--pattern", help="absence, unique, at_most: the events it speaks of")
@click.option("--first", help="precedence, response, count_before: the earlier events")
@click.option("--then", "then_", help="precedence, response, count_before, absence_between: the later events")
@click.option("--after", help="absence_between: the event that opens the window")
@click.option("--forbid", help="absence_between: what may not happen in the window")
@click.option("-a", "a_", help="alternate: the events that come first")
@click.option("-b", "b_", help="alternate: the events that answer them")
@click.option("--same", multiple=True, metavar="KEY[=KEY]", help="correlate the events on these keys")
@click.option("-n", type=click.IntRange(min=0), help="at_most, count_before: the number")
@click.option("--op", type=click.Choice(["==", "<=", ">="]), help="count_before: the comparison")
@click.option("--depth", type=click.IntRange(1, 40), default=8, show_default=True)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="save a counterexample as a trace (refused if the file exists)",
)
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
@reading_options
def query(
    kind: str,
    pattern,
    first,
    then_,
    after,
    forbid,
    a_,
    b_,
    same: tuple[str, ...],
    n,
    op,
    depth: int,
    output: Path | None,
    fmt: str,
    reading: tuple[str, ...],
    readings_file: Path | None,
) -> None:
    """Does a property hold for every trace of at most --depth steps that the machines and the
    rules allow?  The property is a rule template with its patterns, e.g.

    \b
      xiangshe query absence --pattern "司射 升 * actor.司射=袒·搢扑"
      xiangshe query precedence --first "* 洗 爵|觯" --then "* 实 爵|觯" --same obj

    \b
    Exit status: 0 it holds up to --depth steps (not a proof); 1 a counterexample;
    3 the solver gave up.
    """
    import json

    from xiangshe.constraints.rulebook import active_rules, query_rule
    from xiangshe.constraints.search import Exhausted, Refuted, minimise, refute
    from xiangshe.domain.errors import InputError
    from xiangshe.domain.parse import parse_lines
    from xiangshe.reports import render

    chosen = _readings(reading, readings_file)
    fields = {
        "kind": kind,
        "pattern": pattern,
        "first": first,
        "then": then_,
        "after": after,
        "forbid": forbid,
        "a": a_,
        "b": b_,
        "n": n,
        "op": op,
    }
    data = {k: v for k, v in fields.items() if v is not None}
    if same:
        data["same"] = {k: (v or k) for k, _, v in (x.partition("=") for x in same)}
    try:
        prop = query_rule(data)
    except InputError as err:
        raise _bad(err) from None
    rules_in_force = active_rules(chosen)
    outcome = refute(prop, rules_in_force, depth)
    doc = {
        "property": {k: v for k, v in data.items()},
        "depth": depth,
        "holds": isinstance(outcome, Exhausted),
        "readings": chosen,
    }
    if isinstance(outcome, Refuted):
        text = minimise(outcome.text, prop, [*rules_in_force, prop], chosen)
        if output is not None:
            _save(output, text, force=None)  # query has no --force
        doc |= {"counterexample": text, "steps": outcome.steps}
        echo(
            json.dumps(doc, ensure_ascii=False, indent=2)
            if fmt == "json"
            else render.counterexample_text(
                prop, parse_lines(text, "<counterexample>"), outcome.steps, _display(output) if output else None
            )
        )
        sys.exit(1)
    if isinstance(outcome, Exhausted):
        from xiangshe.reports.messages import query_holds

        echo(
            json.dumps(doc, ensure_ascii=False, indent=2)
            if fmt == "json"
            else query_holds(depth, sum(r.encoded for r in rules_in_force))
        )
        sys.exit(0)
    doc |= {"holds": None, "outcome": f"unknown: {outcome.reason}"}
    from xiangshe.reports.messages import solver_gave_up

    echo(json.dumps(doc, ensure_ascii=False, indent=2) if fmt == "json" else solver_gave_up(None, None, outcome.reason))
    sys.exit(3)


@cli.command("check-rules")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json", "sarif", "junit"]), default="text", show_default=True
)
@click.option(
    "--redundancy",
    type=click.IntRange(0, 40),
    default=16,
    show_default=True,
    help="search a rule that no violating example breaks alone for a counterexample of up "
    "to this many steps (0: no search)",
)
@click.option(
    "--search-all", is_flag=True, help="search every rule with z3, even one whose violating example is a witness (slow)"
)
@click.option(
    "--jobs",
    type=click.IntRange(1, 64),
    default=os.cpu_count() or 1,
    show_default="the cores",
    help="processes for the z3 searches",
)
@reading_options
def check_rules(
    fmt: str, redundancy: int, search_all: bool, jobs: int, reading: tuple[str, ...], readings_file: Path | None
) -> None:
    """CI checks on the rulebook: quotes, machines, vacuity, consistency (and redundancy).

    \b
    Exit status: 0 every check holds; 1 a check fails.
    """
    import json

    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.constraints.rulecheck import check_rulebook
    from xiangshe.domain.parse import parse_file
    from xiangshe.fsm.table import tables

    chosen = _readings(reading, readings_file)
    stagings = [
        parse_file(p, str(p.relative_to(ROOT)))
        for p in [CANONICAL, *sorted((ROOT / "traces" / "variants").glob("*.trace"))]
    ]
    tty = sys.stderr.isatty()
    progress = (lambda msg: echo(f"\r\033[K… {msg}", err=True, nl=False)) if tty else None
    examples = {
        rid: [parse_file(p, str(p.relative_to(ROOT))) for p in paths] for rid, paths in _violation_files().items()
    }
    report = check_rulebook(
        active_rules(chosen), tables(), stagings, chosen, examples, redundancy, search_all, progress, jobs
    )
    if tty:
        echo("\r\033[K", err=True, nl=False)
    if fmt == "sarif":
        from xiangshe.reports.sarif import rulecheck_sarif

        echo(rulecheck_sarif(report, chosen, version()))
    elif fmt == "junit":
        from xiangshe.reports.junit import rulecheck_junit

        echo(rulecheck_junit(report))
    elif fmt == "json":
        echo(
            json.dumps(
                {
                    "ok": report.ok,
                    "readings": chosen,
                    "checks": [
                        {
                            "check": i.check,
                            "subject": i.subject,
                            "ok": i.ok,
                            "severity": i.severity,
                            "message": i.message,
                            "location": i.location,
                            "quote": i.quote,
                            "source_line": i.source_line,
                        }
                        for i in report.items
                    ],
                },
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        from xiangshe.reports.render import rulecheck_text

        echo(rulecheck_text(report, search_all))
    sys.exit(0 if report.ok else 1)


@cli.command()
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
@click.option(
    "--all", "show_all", is_flag=True, help="list every clause with its category, not only those nothing enforces"
)
@click.option(
    "--min",
    "minimum",
    type=Percent(),
    default=None,
    help="exit 1 if the share of the normative clauses enforced (percent_enforced) is below this percentage",
)
def coverage(fmt: str, show_all: bool, minimum: float | None) -> None:
    """What checks each clause of the text: a rule or machine (enforced), only the libretto (staged),
    nothing because it is descriptive, or nothing at all (unaccounted)."""
    import json

    from xiangshe.constraints.coverage import coverage as measure
    from xiangshe.constraints.coverage import document
    from xiangshe.constraints.rulebook import rulebook
    from xiangshe.fsm.table import tables

    cov = measure(rulebook(), tables())
    totals = cov.totals()
    if fmt == "json":
        echo(json.dumps(document(cov), ensure_ascii=False, indent=2))
    else:
        from xiangshe.reports.render import coverage_text

        echo(coverage_text(cov, totals, show_all))
    if minimum is not None and totals["percent_enforced"] < minimum:
        sys.exit(1)


@cli.command()
@click.argument(
    "name",
    type=click.Choice(["check", "trace", "rules", "explain", "coverage", "counterexample", "query", "check-rules"]),
)
def schema(name: str) -> None:
    """Print the JSON Schema of NAME: `trace` files, or the JSON output of a command."""
    from xiangshe import schemas

    echo(schemas.text(name), nl=False)


def main() -> None:
    """Entry point of the console script: usage errors and bad input exit 2, never a traceback;
    Ctrl-C exits 130."""
    from xiangshe.domain.errors import InputError
    from xiangshe.domain.parse import TraceErrors
    from xiangshe.reports import interrupt

    interrupt.install()
    try:
        try:
            cli.main(standalone_mode=True)
        finally:
            interrupt.check()  # a Ctrl-C swallowed on the way (in a __del__) still stops it
    except interrupt.Interrupted:
        interrupt.stop()
    except (InputError, TraceErrors) as err:  # e.g. a broken rulebook or machine table
        from xiangshe.reports.messages import input_errors

        echo(input_errors(err.render()), err=True)
        sys.exit(2)
    except MemoryError:  # the input, not the program: too much of it
        echo("xiangshe: error: out of memory: the input is too large to check at once", err=True)
        sys.exit(2)
    except Exception as err:  # a bug: say so plainly, exit 70 (EX_SOFTWARE)
        if os.environ.get("XIANGSHE_DEBUG"):
            raise
        echo(
            f"xiangshe: internal error: {type(err).__name__}: {err} (set XIANGSHE_DEBUG=1 for the traceback)", err=True
        )
        sys.exit(70)


if __name__ == "__main__":
    main()
