"""`repair`: the smallest edits after which a failing staging holds, each re-checked."""

from __future__ import annotations

from pathlib import Path

from xiangshe.domain.files import display
from xiangshe.domain.messages import Message
from xiangshe.reports.cli import BadInput, located
from xiangshe.reports.commands.common import readings, save, sources
from xiangshe.reports.echo import echo


def repair(
    file: str,
    output: Path | None,
    force: bool,
    fmt: str,
    stdin_format: str | None,
    reading: tuple[str, ...],
    readings_file: Path | None,
    **bounds,
) -> int:
    """The repairs of FILE (the first written to `output`): exit 0 it holds, 1 violations with
    repairs, 3 none within the bounds (`bounds`: max_edits, budget, timeout, keep)."""
    from xiangshe.constraints.repair import repair as search
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.reports.messages import language
    from xiangshe.reports.repair import repair_output

    chosen = readings(reading, readings_file)
    if Path(file).is_dir() and file != "-":
        raise BadInput(Message("input.error", where=display(Path(file)), message=Message("usage.repair-directory")))
    [source] = sources((file,), stdin_format, None)
    found = search(located(source.read), source.fmt, located(active_rules, chosen), chosen, **bounds)
    saved = display(output) if found.repairs and output is not None else None
    if saved is not None and output is not None:
        save(output, found.repairs[0].text, force)
    echo(repair_output(found, source.display, source.fmt, fmt, saved))
    if found.status != "ok":  # the time taken, apart: the report itself is the same on every run
        echo(Message("repair.time", path=source.display, seconds=f"{found.seconds:.2f}").render(language()), err=True)
    return found.exit_code
