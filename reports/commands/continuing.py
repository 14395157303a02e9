"""`next` and `complete`: what may follow a partial staging and what it still owes; the staging
completed from the libretto and checked (constraints/frontier.py computes them, reports/frontier.py
writes them)."""

from __future__ import annotations

from pathlib import Path

from xiangshe.domain.files import display
from xiangshe.domain.messages import Message
from xiangshe.reports.cli import BadInput, located
from xiangshe.reports.commands.common import readings, save, sources
from xiangshe.reports.echo import echo


def refuse(file: str, output=None, line_format: bool = True) -> None:
    """Bad input for `next` and `complete` (exit 2, located): a directory, a FILE not in the line
    format (`complete`), or -o naming FILE."""
    why = None
    if Path(file).is_dir():
        why = Message("usage.report-directory")
    elif line_format and Path(file).suffix.lower() != ".trace":
        why = Message("frontier.not-line-format")
    elif output is not None and Path(file).resolve() == Path(output).resolve():
        why = Message("frontier.same-file")
    if why is not None:
        raise BadInput(Message("input.error", where=file, message=why))


def _staging(file: str):
    """The one staging FILE names, read (its input errors located: exit 2)."""
    [source] = sources((file,), None, None)
    return located(source.read)


def next_(file: str, fmt: str, reading: tuple[str, ...], readings_file: Path | None) -> int:
    """`next FILE`: print what may come next and what is owed; the exit status (0, 1; 2 raised)."""
    from xiangshe.constraints.frontier import next_steps
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.reports.frontier import next_output

    refuse(file, line_format=False)
    chosen = readings(reading, readings_file)
    trace = _staging(file)
    fr = next_steps(trace, located(active_rules, chosen), chosen)
    echo(next_output(fr, fmt, len(trace.source_lines)))
    return 1 if fr.findings else 0


def complete(
    file: str,
    fmt: str,
    to: str,
    output: Path | None,
    force: bool,
    reading: tuple[str, ...],
    readings_file: Path | None,
) -> int:
    """`complete FILE`: complete, check, print or write (-o); the exit status (0, 1, 3; 2 raised)."""
    from xiangshe.constraints.frontier import complete as extend
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.reports.frontier import complete_output

    refuse(file, output)
    chosen = readings(reading, readings_file)
    done = extend(_staging(file), located(active_rules, chosen), chosen, to)
    if done.text is not None and output is not None:
        save(output, done.text, force)
    complete_output(done, fmt, display(output) if output is not None and done.text is not None else None)
    return done.exit_code
