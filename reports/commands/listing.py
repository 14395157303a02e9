"""`rules`, `explain`, `coverage`, `generate` and `schema`: what the rulebook, the text and the
libretto hold, shown or staged."""

from __future__ import annotations

from pathlib import Path

import click

from xiangshe.domain.files import display
from xiangshe.domain.messages import Message
from xiangshe.reports.cli import BadInput
from xiangshe.reports.commands.common import readings, save
from xiangshe.reports.echo import echo


def rules(fmt: str, reading: tuple[str, ...], readings_file: Path | None) -> int:
    """The rulebook, the rules in force under the chosen readings marked."""
    from xiangshe.constraints.rulebook import rulebook
    from xiangshe.reports import render

    chosen = readings(reading, readings_file)
    rb = rulebook()
    echo(render.rules_json(rb, chosen) if fmt == "json" else render.rules_text(rb, chosen))
    return 0


def explain(rule: str, fmt: str) -> int:
    """A rule, a machine (machine.<slug>) or a check of the scoring audit (audit.<catalogue>)."""
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
    return 0


def coverage(fmt: str, show_all: bool, minimum: float | None) -> int:
    """What checks each clause of the text; exit 1 when the share enforced is under `minimum`."""
    from xiangshe.constraints.coverage import coverage as measure
    from xiangshe.constraints.rulebook import rulebook
    from xiangshe.fsm.table import tables
    from xiangshe.reports.outputs import coverage_output

    cov = measure(rulebook(), tables())
    echo(coverage_output(cov, fmt, show_all))
    return 1 if minimum is not None and cov.totals()["percent_enforced"] < minimum else 0


def generate(
    output: Path | None, force: bool, fmt: str, arrows: tuple[tuple[str, tuple[str, ...]], ...], **options
) -> int:
    """The ceremony staged from `options`, on standard output or in `output`."""
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
        return 0
    save(output, text, force)
    echo(f"wrote {display(output)}", err=True)
    return 0


def schema(name: str) -> int:
    """The JSON Schema of `name`: trace files, or the JSON output of a command."""
    from xiangshe import schemas

    echo(schemas.text(name), nl=False)
    return 0
