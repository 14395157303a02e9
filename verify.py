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

from xiangshe import schemas, version  # noqa: E402  (pyproject.toml's version, read when asked)
from xiangshe.reports.cli import github_input_errors  # noqa: E402 (after the bootstrap above)
from xiangshe.reports.commands import checking  # noqa: E402 (the others are imported by the command that runs them)
from xiangshe.reports.echo import Group, echo  # noqa: E402
from xiangshe.reports.options import (  # noqa: E402
    FORMATS,
    STDIN_FORMATS,  # noqa: F401 (tests read it here)
    all_readings_options,
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
    repair_options,
    report_options,
    staging_options,
    stdin_options,
)


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
@all_readings_options("check")
@github_input_errors
def check(**options) -> None:
    """Replay FILES through the machines and the rules (no FILE: the canonical ceremony, when
    standard input holds nothing; piped data needs -).

    \b
    A FILE is a staging (.trace, .jsonl, .json, .yaml, .yml), a directory (every staging below
    it), or - for standard input. A FILE that cannot be read is reported in its place, the others
    are still checked, and the exit status is 2.
    """
    if options.pop("all_readings"):  # every reading at once: the readings command, with check's options
        from xiangshe.reports.commands import everyreading

        sys.exit(everyreading.readings(**options))
    sys.exit(checking.check(**options))


@cli.command()
@report_options
@stdin_options
@reading_options
@lint_options(baseline=False)
@all_readings_options("report")
def report(**options) -> None:
    """Write the HTML report of FILE (a staging, or - for standard input): timeline, vessel states,
    findings, scoring, machine diagrams.

    \b
    The configuration file, --select/--ignore and inline suppressions apply as for check (not a
    baseline: the page shows every finding).
    Exit status (as for check): 0 ok, 1 violations (the page is still written), 2 bad input.
    """
    sys.exit(checking.report(**options))


@cli.command("readings")
@all_readings_options()
@stdin_options
@reading_options
@lint_options(baseline=False)
@github_input_errors
def readings(**options) -> None:
    """Check FILES (none: the canonical ceremony) under every combination of the contested readings
    that bears on them: where the verdict flips, the findings that come and go, who reads each reading
    so. --reading holds a point. Exit: 0 holds under all, 1 fails under some, 2 bad input, 3 bound hit."""
    from xiangshe.reports.commands import everyreading

    sys.exit(everyreading.readings(**options))


@cli.command()
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
@reading_options
def rules(**options) -> None:
    """List the rulebook (the rules in force under the chosen readings are marked)."""
    from xiangshe.reports.commands import listing

    sys.exit(listing.rules(**options))


@cli.command()
@generate_options
@staging_options
def generate(**options) -> None:
    """Stage the ceremony from options: a starting point for your own staging."""
    from xiangshe.reports.commands import listing

    sys.exit(listing.generate(**options))


@cli.command()
@explain_options
def explain(**options) -> None:
    """Show RULE (ASCII id, Chinese name or catalogue id, in any script or case): quotes in context,
    contested readings, a passing and a failing example; or a machine (machine.<slug>: its states,
    edges and their quotes) or a check of the scoring audit (audit.<catalogue>)."""
    from xiangshe.reports.commands import listing

    sys.exit(listing.explain(**options))


@cli.command()
@counterexample_options
@reading_options
def counterexample(**options) -> None:
    """A shortest trace that the machines and all the other rules allow but RULE forbids.

    \b
    Exit status: 1 a counterexample was found; 0 none up to --depth steps (not a proof);
    3 the solver gave up.
    """
    from xiangshe.reports.commands import solving

    sys.exit(solving.counterexample(**options))


@cli.command()
@query_options
@reading_options
def query(**options) -> None:
    """Does a property hold for every trace of at most --depth steps that the machines and the
    rules allow?  The property is a rule template with its patterns, e.g.

    \b
      xiangshe query absence --pattern "司射 升 * actor.司射=袒·搢扑"
      xiangshe query precedence --first "* 洗 爵|觯" --then "* 实 爵|觯" --same obj

    \b
    Exit status: 0 it holds up to --depth steps (not a proof); 1 a counterexample;
    3 the solver gave up.
    """
    from xiangshe.reports.commands import solving

    sys.exit(solving.query(**options))


@cli.command("check-rules")
@check_rules_options
@reading_options
def check_rules(**options) -> None:
    """CI checks on the rulebook: quotes, machines, vacuity, consistency (and redundancy).

    \b
    Exit status: 0 every check holds; 1 a check fails.
    """
    from xiangshe.reports.commands import solving

    sys.exit(solving.check_rules(**options))


@cli.command()
@coverage_options
def coverage(**options) -> None:
    """What checks each clause of the text: a rule or machine (enforced), only the libretto (staged),
    nothing because it is descriptive, or nothing at all (unaccounted)."""
    from xiangshe.reports.commands import listing

    sys.exit(listing.coverage(**options))


@cli.command("repair")
@repair_options
@reading_options
def repair_(**options) -> None:
    """The smallest repairs of a failing staging FILE, each step quoting the text that asks for it (-o: write it).

    \b
    Exit status: 0 FILE holds; 1 violations, with repairs (each re-checked); 2 bad input;
    3 no repair within the bound (--max-edits, --budget, --timeout): not a proof that none exists."""
    from xiangshe.reports.commands import repairing

    sys.exit(repairing.repair(**options))


@cli.command("next")
@frontier_options()
@reading_options
def next_(**options) -> None:
    """What may come next after the partial staging FILE, and what must still happen.

    \b
    Exit status: 0 listed (the staging holds so far); 1 it already breaks a rule or a machine
    (still listed); 2 bad input.
    """
    from xiangshe.reports.commands import continuing

    sys.exit(continuing.next_(**options))


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
    from xiangshe.reports.commands import continuing

    sys.exit(continuing.complete(**options))


@cli.command()
@click.argument(
    "name",
    type=click.Choice(schemas.NAMES),
)
def schema(name: str) -> None:
    """Print the JSON Schema of NAME: `trace` files, or the JSON output of a command."""
    from xiangshe.reports.commands import listing

    sys.exit(listing.schema(name))


def main() -> None:
    """Entry point of the console script: usage errors and bad input exit 2, never a traceback;
    Ctrl-C exits 130; a bug exits 70 (reports/cli.py run)."""
    from xiangshe.reports.cli import run

    run(cli)


if __name__ == "__main__":
    main()
