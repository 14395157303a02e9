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
    assert _spec is not None and _spec.loader is not None  # a file location always has a spec and a loader
    sys.modules["xiangshe"] = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(sys.modules["xiangshe"])

from xiangshe import CANONICAL, version  # noqa: E402  (pyproject.toml's version, read when asked)
from xiangshe.domain.files import display as _display  # noqa: E402 (after the bootstrap above)
from xiangshe.domain.messages import Message  # noqa: E402
from xiangshe.reports.cli import BadInput, github_input_errors, located  # noqa: E402
from xiangshe.reports.echo import Group, echo  # noqa: E402
from xiangshe.reports.options import (  # noqa: E402
    FORMATS,
    STDIN_FORMATS,  # noqa: F401 (tests read it here)
    check_options,
    check_rules_options,
    counterexample_options,
    coverage_options,
    explain_options,
    frontier_options,
    generate_options,
    lint_options,
    query_options,
    reading_options,
    report_options,
    staging_options,
    stdin_options,
)


def _save(output: Path, text: str, force: bool | None = False) -> None:
    """domain.files.save: never over a file that exists, unless --force (None: no --force to offer)."""
    from xiangshe.domain.files import save

    located(save, output, text, force)


def _readings(
    reading: tuple[str, ...], readings_file: Path | None, base: dict[str, str] | None = None
) -> dict[str, str]:
    from xiangshe.constraints.readings import select

    return located(select, list(reading), readings_file, base=base)


def _lint_settings(lint: dict):
    """The configuration in force and the selection of checks (command line over file)."""
    from xiangshe.constraints.lint import chosen

    if lint.get("force") and lint.get("write_baseline") is None:
        raise BadInput(Message("input.error-bare", message=Message("usage.force-without-baseline")))
    return located(chosen, Path.cwd(), lint["config_file"], lint["isolated"], lint["select"], lint["ignore"], _display)


def _lint(results, rules, cfg, selection, lint: dict, use_baseline: bool = True):
    """Apply the selection, the inline suppressions and (with `use_baseline`) the baseline;
    --write-baseline writes the findings and exits."""
    from xiangshe.constraints.lint import lint as apply

    out = lint.get("write_baseline")
    if out is None:
        return located(
            apply,
            results,
            rules,
            selection,
            (lint.get("baseline_file") or cfg.baseline) if use_baseline else None,
            _display,
        )
    from xiangshe.constraints.lint import write_baseline
    from xiangshe.reports.messages import wrote_baseline

    n = located(write_baseline, results, rules, selection, out, lint["force"])
    echo(wrote_baseline(_display(out), n), err=True)
    sys.exit(0)


def _sources(files: tuple[str, ...], stdin_format: str | None, stdin_filename: str | None, limit: int | None = None):
    from xiangshe.domain.sources import MAX_BYTES, named

    return located(named, files, stdin_format, stdin_filename, _display, CANONICAL, limit or MAX_BYTES)


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


@cli.command()
@check_options
@stdin_options
@reading_options
@lint_options()
@github_input_errors
def check(
    files: tuple[str, ...],
    fmt: str | None,
    scoring: bool,
    reading: tuple[str, ...],
    readings_file: Path | None,
    verbose: bool = False,
    color: bool | None = None,
    show_progress: bool | None = None,
    jobs: int = 1,
    stdin_format: str | None = None,
    stdin_filename: str | None = None,
    max_input_size: int | None = None,
    **lint,
) -> None:
    """Replay FILES through the machines and the rules (no FILE: the canonical ceremony, when
    standard input holds nothing; piped data needs -).

    \b
    A FILE is a staging (.trace, .jsonl, .json, .yaml, .yml), a directory (every staging below
    it), or - for standard input. A FILE that cannot be read is reported in its place, the others
    are still checked, and the exit status is 2.
    """
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.reports import batch, render
    from xiangshe.reports.messages import input_errors, language
    from xiangshe.reports.outputs import check_output

    cfg, selection = _lint_settings(lint)
    fmt = click.get_current_context().meta["xiangshe.format"] = fmt or cfg.format or "text"
    chosen = _readings(reading, readings_file, cfg.readings)
    rules_in_force = active_rules(chosen)
    sources = _sources(files, stdin_format, stdin_filename, max_input_size)
    if fmt in batch.STREAMED and lint.get("write_baseline") is None and not (lint.get("baseline_file") or cfg.baseline):
        settings = batch.Settings(chosen, selection, fmt, scoring, verbose, language())
        sys.exit(batch.stream(sources, settings, rules_in_force, jobs, color, show_progress))
    results = batch.results(sources, rules_in_force, chosen, jobs, show_progress)
    unreadable = render.input_errors_text(results)
    if unreadable:  # located errors first, on stderr, in every format
        echo(input_errors(unreadable), err=True)
        if lint.get("write_baseline") is not None:
            echo(input_errors(Message("input.error-bare", message=Message("usage.no-baseline-unreadable"))), err=True)
            sys.exit(2)
    linted = _lint(results, rules_in_force, cfg, selection, lint)
    results = linted.results
    out = check_output(fmt, results, rules_in_force, chosen, linted, scoring, verbose)
    if fmt == "text":
        from xiangshe.reports import colour

        paint = colour.enabled(color)
        click.echo(colour.paint(out) if paint else out, color=paint)
    else:
        echo(out, nl=fmt != "github" or any(r.findings for r in results))
    sys.exit(2 if unreadable else 0 if all(r.ok for r in results) else 1)


@cli.command()
@report_options
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
    from xiangshe.domain.files import report_path
    from xiangshe.reports.html import html_report
    from xiangshe.reports.messages import wrote_report

    cfg, selection = _lint_settings(lint)
    chosen = _readings(reading, readings_file, cfg.readings)
    if Path(file).is_dir() and file != "-":
        raise BadInput(Message("input.error", where=_display(Path(file)), message=Message("usage.report-directory")))
    [source] = _sources((file,), stdin_format, stdin_filename)
    trace = located(source.read)
    rules = located(active_rules, chosen)
    result = located(check_trace, trace, rules, chosen)
    [result] = _lint([result], rules, cfg, selection, lint, use_baseline=False).results
    stem = Path(source.display).stem if not source.is_stdin or stdin_filename else "stdin"
    output = located(report_path, output, Path("reports") / f"{stem}.html")
    _save(output, html_report(trace, result, chosen, f"xiangshe {version()}"), force)
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
@generate_options
@staging_options
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
        raise BadInput(Message("input.error-bare", message=str(err))) from None
    if fmt == "jsonl":
        text = to_jsonl(parse_lines(text, "<generated>"))
    if output is None:
        echo(text, nl=False)
        return
    _save(output, text, force)
    echo(f"wrote {_display(output)}", err=True)


@cli.command()
@explain_options
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
        raise BadInput(Message("input.error-bare", message=err.args[0])) from None
    if isinstance(subject, list):
        from xiangshe.domain import bundled

        echo(explain_output([gather(r, bundled.VIOLATIONS, bundled.stagings(), bundled.ROOT) for r in subject], fmt))
    else:
        echo(explain_output(subject, fmt))


@cli.command()
@counterexample_options
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
    from xiangshe.constraints.counterexample import counterexample as search
    from xiangshe.constraints.counterexample import target
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.reports.outputs import counterexample_file, counterexample_output

    chosen = _readings(reading, readings_file)
    rules_in_force = active_rules(chosen)
    found = search(located(target, rule, rules_in_force), rules_in_force, chosen, depth, _display)
    saved = None
    if found.found and output is not None:
        _save(output, counterexample_file(found), force)
        saved = _display(output)
    echo(counterexample_output(found, fmt, saved))
    sys.exit(found.exit_code)


@cli.command()
@query_options
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
    from xiangshe.constraints.query import ask, fields
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.reports.outputs import query_output

    chosen = _readings(reading, readings_file)
    data = fields(
        kind, same, pattern=pattern, first=first, then=then_, after=after, forbid=forbid, a=a_, b=b_, n=n, op=op
    )
    rules_in_force = active_rules(chosen)
    answer = located(ask, data, rules_in_force, chosen, depth)
    if answer.text is not None and output is not None:
        _save(output, answer.text, force=None)  # query has no --force
    saved = _display(output) if output is not None and answer.text is not None else None
    echo(query_output(answer, fmt, sum(r.encoded for r in rules_in_force), saved))
    sys.exit(answer.exit_code)


@cli.command("check-rules")
@check_rules_options
@reading_options
def check_rules(
    fmt: str,
    redundancy: int,
    search_all: bool,
    jobs: int,
    rule_words: tuple[str, ...],
    reading: tuple[str, ...],
    readings_file: Path | None,
) -> None:
    """CI checks on the rulebook: quotes, machines, vacuity, consistency (and redundancy).

    \b
    Exit status: 0 every check holds; 1 a check fails.
    """
    from xiangshe.constraints.counterexample import target
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.constraints.rulecheck import check_bundled
    from xiangshe.reports.outputs import rulecheck_output

    chosen = _readings(reading, readings_file)
    only = [located(target, word, active_rules(chosen)).id for word in rule_words]
    tty = sys.stderr.isatty()
    progress = (lambda msg: echo(f"\r\033[K… {msg}", err=True, nl=False)) if tty else None
    report = check_bundled(chosen, redundancy, search_all, progress, jobs, only)
    if tty:
        echo("\r\033[K", err=True, nl=False)
    echo(rulecheck_output(report, fmt, chosen, search_all))
    sys.exit(0 if report.ok else 1)


@cli.command()
@coverage_options
def coverage(fmt: str, show_all: bool, minimum: float | None) -> None:
    """What checks each clause of the text: a rule or machine (enforced), only the libretto (staged),
    nothing because it is descriptive, or nothing at all (unaccounted)."""
    from xiangshe.constraints.coverage import coverage as measure
    from xiangshe.constraints.rulebook import rulebook
    from xiangshe.fsm.table import tables
    from xiangshe.reports.outputs import coverage_output

    cov = measure(rulebook(), tables())
    echo(coverage_output(cov, fmt, show_all))
    if minimum is not None and cov.totals()["percent_enforced"] < minimum:
        sys.exit(1)


@cli.command("next")
@frontier_options()
@reading_options
def next_(**options) -> None:
    """What may come next after the partial staging FILE, and what must still happen.

    \b
    Exit status: 0 listed (the staging holds so far); 1 it already breaks a rule or a machine
    (still listed); 2 bad input.
    """
    from xiangshe.reports.frontier import next_command

    sys.exit(next_command(**options))


@cli.command()
@frontier_options(complete=True)
@reading_options
def complete(**options) -> None:
    """Complete the partial staging FILE from the libretto, to the end of its phase (--to phase) or
    of the ceremony (--to end), and check the result; FILE itself is never changed.

    \b
    Exit status: 0 the completion holds; 1 FILE already breaks a rule or a machine; 2 bad input;
    3 no completion: FILE departs from the libretto, or its continuation does not hold.
    """
    from xiangshe.reports.frontier import complete_command

    sys.exit(complete_command(**options))


@cli.command()
@click.argument(
    "name",
    type=click.Choice(
        ["check", "trace", "rules", "explain", "coverage", "counterexample", "query", "check-rules", "next", "complete"]
    ),
)
def schema(name: str) -> None:
    """Print the JSON Schema of NAME: `trace` files, or the JSON output of a command."""
    from xiangshe import schemas

    echo(schemas.text(name), nl=False)


def main() -> None:
    """Entry point of the console script: usage errors and bad input exit 2, never a traceback;
    Ctrl-C exits 130; a bug exits 70 (reports/cli.py run)."""
    from xiangshe.reports.cli import run

    run(cli)


if __name__ == "__main__":
    main()
