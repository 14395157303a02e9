"""`check` and `report`: stagings through the machines and the rules, as a report on the terminal
(or JSON, SARIF, JUnit, GitHub annotations) and as an HTML page."""

from __future__ import annotations

from pathlib import Path

import click

from xiangshe import version
from xiangshe.domain.files import display
from xiangshe.domain.gcpause import loading
from xiangshe.domain.messages import Message
from xiangshe.reports.cli import BadInput, located
from xiangshe.reports.commands.common import apply_lint, lint_settings, readings, save, sources
from xiangshe.reports.echo import echo


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
) -> int:
    """Check each staging FILES name; the exit status: 0 ok, 1 violations, 2 a file unreadable.

    Text, JSON and GitHub annotations stream, staging by staging (reports/batch.py); SARIF, JUnit,
    a baseline to apply or to write need the whole batch first."""
    with loading():  # the checker's modules, the rulebook and what it was derived with live as long as the command
        from xiangshe.constraints.rulebook import active_rules
        from xiangshe.reports import batch, render
        from xiangshe.reports.messages import input_errors, language
        from xiangshe.reports.outputs import check_output

        cfg, selection = lint_settings(lint)
        fmt = fmt or cfg.format or "text"
        ctx = click.get_current_context(silent=True)
        if ctx is not None:  # for --format github's annotations of bad input (reports/cli.py)
            ctx.meta["xiangshe.format"] = fmt
        chosen = readings(reading, readings_file, cfg.readings)
        rules_in_force = active_rules(chosen)
    staged = sources(files, stdin_format, stdin_filename, max_input_size)
    baseline = lint.get("write_baseline") is not None or bool(lint.get("baseline_file") or cfg.baseline)
    if fmt in batch.STREAMED and not baseline:
        settings = batch.Settings(chosen, selection, fmt, scoring, verbose, language())
        return batch.stream(staged, settings, rules_in_force, jobs, color, show_progress)
    results = batch.results(staged, rules_in_force, chosen, jobs, show_progress, selection)
    unreadable = render.input_errors_text(results)
    if unreadable:  # located errors first, on stderr, in every format
        echo(input_errors(unreadable), err=True)
        if lint.get("write_baseline") is not None:
            echo(input_errors(Message("input.error-bare", message=Message("usage.no-baseline-unreadable"))), err=True)
            return 2
    linted = apply_lint(results, rules_in_force, cfg, selection, lint)
    results = linted.results
    out = check_output(fmt, results, rules_in_force, chosen, linted, scoring, verbose)
    if fmt == "text":
        from xiangshe.reports import colour

        paint = colour.enabled(color)
        click.echo(colour.paint(out) if paint else out, color=paint)
    else:
        echo(out, nl=fmt != "github" or any(r.findings for r in results))
    return 2 if unreadable else 0 if all(r.ok for r in results) else 1


def report(
    file: str,
    output: Path | None,
    force: bool,
    reading: tuple[str, ...],
    readings_file: Path | None,
    stdin_format: str | None = None,
    stdin_filename: str | None = None,
    **lint,
) -> int:
    """Write the HTML report of FILE; the exit status as check's (the page is written either way)."""
    from xiangshe.constraints.check import check_trace
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.domain.files import report_path
    from xiangshe.reports.html import html_report
    from xiangshe.reports.messages import wrote_report

    cfg, selection = lint_settings(lint)
    chosen = readings(reading, readings_file, cfg.readings)
    if Path(file).is_dir() and file != "-":
        raise BadInput(Message("input.error", where=display(Path(file)), message=Message("usage.report-directory")))
    [source] = sources((file,), stdin_format, stdin_filename)
    trace = located(source.read)
    rules = located(active_rules, chosen)
    result = located(check_trace, trace, rules, chosen)
    [result] = apply_lint([result], rules, cfg, selection, lint, use_baseline=False).results
    stem = Path(source.display).stem if not source.is_stdin or stdin_filename else "stdin"
    output = located(report_path, output, Path("reports") / f"{stem}.html")
    section = ""
    if lint.get("all_readings"):  # every reading at once: a section of the page (reports/allreadings.py)
        from xiangshe.reports.allreadings import section_of

        section = located(section_of, trace, chosen, reading, readings_file, selection, lint["max_combinations"])
    save(output, html_report(trace, result, chosen, f"xiangshe {version()}", section), force)
    echo(wrote_report(display(output), result.events, len(result.findings)), err=True)
    return 0 if result.ok else 1
