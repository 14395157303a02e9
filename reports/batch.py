"""`check` of a batch of stagings over several processes (`--jobs N`), its report streamed in the
order the stagings were named, as each is done.

Each staging is read, checked, linted (the selection and the inline suppressions) and rendered in
a worker process (constraints/workers.py `in_order`: forked on Linux once the rulebook is loaded and
the batch listed, else spawned and loading it once per worker), given chunks of stagings (their
span in the batch) that shrink towards the batch's end; it sends back each staging's part of the
report, already encoded as standard output writes it, and one `Tally` of its chunk (of the rules
and first scopes, only what that worker has not sent before); this process writes the parts in
input order as soon as each and all before it are done, and keeps only the tally (counts, the
scopes' union, the first few scopes): never a staging's result once it is written. A file that
cannot be read has its located errors written on stderr in its place. What is written is, byte for
byte, what `check` writes of the whole batch at once (reports/outputs.py), whatever the number of
processes:

- text: each staging's findings and scoring audit, then the summary lines (render.summary_text);
- json: the document's head, each staging's object as it comes, then the readings (a single JSON
  document written incrementally: it is complete once the command ends);
- github: each staging's annotations.

SARIF and JUnit name the batch's totals and rules before its results, and a baseline counts its
entries over the whole batch: those are rendered once every staging is done (`results`, still
checked in the workers), as they always were.
"""

from __future__ import annotations

import sys
from collections.abc import Generator, Sequence
from contextlib import closing
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

from xiangshe.constraints.check import Result, check_source
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.gcpause import gc_paused
from xiangshe.domain.messages import Join
from xiangshe.domain.visible import visible
from xiangshe.reports.tally import SCOPE_LINES, Tally

if TYPE_CHECKING:
    from xiangshe.constraints.lint import Outcome
    from xiangshe.constraints.rulebook import Rule
    from xiangshe.constraints.select import Selection
    from xiangshe.domain.sources import Source

STREAMED = ("text", "json", "github")  # the formats written staging by staging
PER_WORKER = 16  # a worker costs about as much to start as checking this many stagings
CHUNK = 8  # stagings sent to a worker at once (fewer when the batch is small)


@dataclass(frozen=True)
class Settings:
    """What every worker needs to know: the readings, the selection, the format (None: send back the
    staging's result itself, unlinted), and the language of the text."""

    readings: dict[str, str]
    selection: Selection | None = None
    fmt: str | None = None
    scoring: bool = False
    verbose: bool = False
    lang: str = "en"
    encoding: tuple[str, str] | None = None  # a worker sends its parts encoded so (stream: _bytes_written)


class Done(NamedTuple):
    """One staging, done: its part of the report (None: it adds nothing), its tally, and, if it could
    not be read, its located input errors (written on stderr in its place)."""

    part: str | bytes | None  # bytes: from a worker, encoded as standard output writes it
    tally: Tally | None  # None: counted in a later one's (a worker's chunk sends one tally)
    errors: str | None


def processes(sources: Sequence[Source], jobs: int) -> int:
    """How many worker processes check `sources` (0 or 1: this one does): at most `jobs`, one per
    PER_WORKER stagings; none when standard input is among them (it is this process's to read)."""
    if any(s.is_stdin for s in sources):
        return 1
    return min(jobs, len(sources) // PER_WORKER)


def checked(sources: Sequence[Source], settings: Settings, rules: Sequence[Rule], jobs: int) -> Generator:
    """For each source, in order, as it is done: a `Done` (or, with no format, its Result; None if
    it could not be read: input errors are not sent between processes)."""
    n = processes(sources, jobs)
    if n <= 1:
        _state.update(_state_of(settings, rules))
        try:
            yield from map(_one, sources)
        finally:
            _state.clear()
        return
    from xiangshe.constraints.workers import in_order

    # forked copies: no start-up of their own, and the sources there already (a chunk is sent as its span)
    done = in_order(n, _many, spans(len(sources), n), _start, (settings, sources), fork=True)
    try:
        for chunk in done:
            yield from chunk  # type: ignore[misc]  # what _many answers: a list
    finally:
        done.close()  # its workers stop now, not when it is collected


def spans(total: int, n: int) -> list[tuple[int, int]]:
    """The stagings 0 … total - 1 in chunks for `n` workers, in order, as (start, stop): CHUNK
    stagings, fewer as the batch nears its end (a quarter of what is left a worker), so that the
    workers finish together rather than one waiting for another's last chunk."""
    out, i = [], 0
    while i < total:
        size = max(1, min(CHUNK, (total - i) // (n * 4)))
        out.append((i, i + size))
        i += size
    return out


def results(
    sources: Sequence[Source],
    rules: Sequence[Rule],
    readings: dict[str, str],
    jobs: int,
    forced: bool | None,
    selection: Selection | None = None,
) -> list[Result]:
    """Every source's result, unlinted, in order (what SARIF, JUnit and a baseline need at once);
    with a `selection`, the rules it does not apply are left out of the check (the linter drops
    their findings)."""
    from xiangshe.reports.progress import progress

    with closing(checked(sources, Settings(readings, selection), rules, jobs)) as done:  # workers stopped on leaving
        return [
            r if r is not None else check_source(s, rules, readings)  # read again here: it fails fast
            for s, r in zip(progress(sources, forced), done, strict=True)
        ]


def stream(
    sources: Sequence[Source],
    settings: Settings,
    rules: Sequence[Rule],
    jobs: int,
    color: bool | None = None,
    forced: bool | None = None,
) -> int:
    """Check `sources` and write the report in `settings.fmt` (one of STREAMED) as they are done;
    the exit status."""
    import click  # here, not at the top: a worker process writes nothing, and does without click

    from xiangshe.reports import colour, interrupt, render
    from xiangshe.reports.echo import echo
    from xiangshe.reports.progress import progress

    fmt, outcome = settings.fmt, _outcome(settings, rules)
    paint = fmt == "text" and colour.enabled(color)
    if forced is None and sys.stdout.isatty():
        forced = False  # no bar drawn among the lines written to the same terminal
    encoding = None if paint else _bytes_written()
    settings = replace(settings, encoding=encoding)
    tally, first = Tally(), True
    json_head, json_tail = render.check_json([], settings.readings, outcome).split("[]", 1)
    done_all = checked(sources, settings, rules, jobs)
    with closing(done_all):  # however this ends, the workers stop now
        for _, done in zip(progress(sources, forced), done_all, strict=True):
            interrupt.check()
            if done.tally is not None:
                tally.merge(done.tally)
            if done.errors is not None:
                echo(done.errors, err=True)
            part = done.part
            if part is None:
                continue
            if fmt == "json":
                before = json_head + "[\n" if first else ",\n"
            elif fmt == "github":
                before = "" if first else "\n"
            else:
                before = ""
                part = colour.paint(part) if paint else part
            # a worker's part comes as the bytes to write; color=True: click would look for escapes to
            # strip in each part, and a part has none (domain.visible) but the colours painted here
            if isinstance(part, bytes) and encoding is not None:
                click.echo(before.encode(*encoding) + part, nl=fmt == "text")
            else:
                click.echo(before + part, nl=fmt == "text", color=True)
            first = False
    interrupt.check()
    if fmt == "json":
        click.echo(visible(json_head + "[]" + json_tail if first else "\n  ]" + json_tail))
    elif fmt == "github":
        click.echo("", nl=bool(tally.findings))
    else:
        tail = visible("\n".join(render.summary_text(tally, settings.readings, outcome)))
        click.echo(colour.paint(tail) if paint else tail, color=paint)
    return tally.exit_code


def _bytes_written() -> tuple[str, str] | None:
    """How standard output turns text into bytes (its encoding and errors), when a worker can do the
    same: a text stream that click writes to as it is (it wraps one whose encoding is ASCII, or that
    has none), in UTF-8, with its bytes beneath it and no line ends translated. Else None: the parts
    come as text, written through the stream as they always were."""
    import codecs
    import os

    stream = sys.stdout
    encoding, errors = getattr(stream, "encoding", None), getattr(stream, "errors", None)
    if os.linesep != "\n" or getattr(stream, "buffer", None) is None:
        return None
    if not isinstance(encoding, str) or not isinstance(errors, str):
        return None
    try:
        return ("utf-8", errors) if codecs.lookup(encoding).name == "utf-8" else None
    except LookupError:
        return None


# -- in a worker (or in this process, for a small batch) -------------------------------------------

_state: dict = {}  # the settings and the rules in force, set once per worker


def _start(settings: Settings, sources: Sequence[Source] = ()) -> None:
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.domain import gcpause
    from xiangshe.reports.messages import set_language

    # the worker lives as long as the command: its modules are frozen now, the rulebook as it is read
    # (domain/cache), and what it keeps for every staging below: no collection walks any of it again
    gcpause.own_process()
    set_language(settings.lang)
    _state.update(_state_of(settings, active_rules(settings.readings)), sources=sources, sent=_Sent())
    gcpause.settle()


def _state_of(settings: Settings, rules: Sequence[Rule]) -> dict:
    """What `_one` needs: the settings, the rules in force, the linter's outcome of an empty batch and
    the checks the selection applies to every staging."""
    outcome = _outcome(settings, rules)
    everywhere = frozenset(outcome.selection.applied(outcome.in_force)) if outcome is not None else None
    return {"settings": settings, "rules": rules, "outcome": outcome, "everywhere": everywhere}


def _outcome(settings: Settings, rules: Sequence[Rule]) -> Outcome | None:
    """What the selection applies to no staging (the linter's outcome of an empty batch)."""
    if settings.selection is None:
        return None
    from xiangshe.constraints.lint import apply
    from xiangshe.constraints.select import in_force

    return apply([], settings.selection, in_force(rules))


class _Sent:
    """What a worker has sent of its tallies: the rules (a union: each need be sent once) and how
    many scopes (the batch keeps the first few; a worker's chunks come in input order, so once it
    has sent that many, none of its later ones can be among them)."""

    def __init__(self) -> None:
        self.reached: set[str] = set()
        self.rules: set[str] = set()
        self.scopes = 0

    def news(self, tally: Tally) -> Tally:
        """`tally` as sent: what it adds to what was sent before, for the batch's sums."""
        tally.reached -= self.reached
        tally.rules -= self.rules
        self.reached |= tally.reached
        self.rules |= tally.rules
        del tally.scopes[max(0, SCOPE_LINES + 1 - self.scopes) :]
        self.scopes += len(tally.scopes)
        return tally


def _many(span: tuple[int, int]) -> list:
    """A worker's chunk (the stagings start … stop - 1), done: each staging's part of the report
    encoded as this process writes it (bytes: it need only write them), and the stagings' tallies
    counted together in the last one's, with only what this worker has not sent before."""
    done = [_one(s) for s in _state["sources"][span[0] : span[1]]]
    parts = [d for d in done if isinstance(d, Done)]
    if not parts or len(parts) < len(done):  # no format: the results themselves
        return done
    tally = Tally()
    for d in parts:
        if d.tally is not None:
            tally.merge(d.tally)
    encoding = _state["settings"].encoding
    if encoding is not None:
        parts = [d._replace(part=_encoded(d.part, encoding)) for d in parts]
    tally = _state["sent"].news(tally)
    return [d._replace(tally=None) for d in parts[:-1]] + [parts[-1]._replace(tally=tally)]


def _encoded(part: str | bytes | None, encoding: tuple[str, str]) -> str | bytes | None:
    """`part` in the bytes the stream that writes it would write (it as it is, if they cannot say it:
    it fails there, as it would have)."""
    try:
        return part.encode(*encoding) if isinstance(part, str) else part
    except UnicodeError:
        return part


@gc_paused()  # a staging's objects are freed as it is done: the collector need not walk them meanwhile
def _one(source: Source) -> Done | Result | None:
    settings: Settings = _state["settings"]
    outcome = _state["outcome"]
    applied = None  # the rules not selected for this staging are not evaluated (the linter drops their findings)
    if outcome is not None and not outcome.selection.default:
        applied = _state["everywhere"] - outcome.selection.ignored_in(source.display)
    r = check_source(source, _state["rules"], settings.readings, applied)
    if settings.fmt is None:
        return r if r.readable else None
    from xiangshe.constraints.lint import apply

    [r] = apply([r], outcome.selection, outcome.in_force).results
    tally = Tally()
    tally.add(r, outcome)
    return Done(_part(r, settings), tally, None if r.readable else _errors(r))


def _errors(r: Result) -> str:
    """The located input errors of `r`, as `check` writes them on stderr (in the language in force)."""
    from xiangshe.reports.messages import input_errors

    return str(input_errors(Join((r.input_text(),), "\n", "\n")))


def _part(r: Result, settings: Settings) -> str | None:
    """The staging's part of the report in `settings.fmt`, as `check` writes it of a whole batch."""
    from xiangshe.reports import render

    if settings.fmt == "json":
        from xiangshe.reports.jsontext import dumps

        return visible("    " + dumps(render.trace_json(r), "    "))  # an element of the "traces" array
    if settings.fmt == "github":
        from xiangshe.reports.github import check_github

        return visible(check_github([r])) or None
    lines = render.trace_text(r, settings.scoring, settings.verbose)
    return visible("\n".join(lines)) if lines else None
