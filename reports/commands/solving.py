"""`counterexample`, `query` and `check-rules`: the questions asked of z3 about the rulebook."""

from __future__ import annotations

import sys
from pathlib import Path

from xiangshe.domain.files import display
from xiangshe.reports.cli import located
from xiangshe.reports.commands.common import readings, save
from xiangshe.reports.echo import echo


def counterexample(
    rule: str,
    depth: int,
    output: Path | None,
    force: bool,
    fmt: str,
    reading: tuple[str, ...],
    readings_file: Path | None,
) -> int:
    """A shortest trace the machines and the other rules allow and RULE forbids: exit 1 found,
    0 none up to `depth` steps (not a proof), 3 the solver gave up."""
    from xiangshe.constraints.counterexample import counterexample as search
    from xiangshe.constraints.counterexample import target
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.reports.outputs import counterexample_file, counterexample_output

    chosen = readings(reading, readings_file)
    rules_in_force = active_rules(chosen)
    found = search(located(target, rule, rules_in_force), rules_in_force, chosen, depth, display)
    saved = None
    if found.found and output is not None:
        save(output, counterexample_file(found), force)
        saved = display(output)
    echo(counterexample_output(found, fmt, saved))
    return found.exit_code


def query(
    kind: str,
    same: tuple[str, ...],
    depth: int,
    output: Path | None,
    fmt: str,
    reading: tuple[str, ...],
    readings_file: Path | None,
    then_: str | None = None,
    a_: str | None = None,
    b_: str | None = None,
    **patterns,
) -> int:
    """Does the property (a template `kind` with its `patterns`: pattern, first, then, after, forbid,
    a, b, n, op) hold for every trace of at most `depth` steps: exit 0 up to `depth` (not a proof),
    1 a counterexample, 3 the solver gave up."""
    from xiangshe.constraints.query import ask, fields
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.reports.outputs import query_output

    chosen = readings(reading, readings_file)
    given = patterns | {"then": then_, "a": a_, "b": b_}  # click's names for the template's fields
    order = ("pattern", "first", "then", "after", "forbid", "a", "b", "n", "op")
    data = fields(kind, same, **{k: given.get(k) for k in order})
    rules_in_force = active_rules(chosen)
    answer = located(ask, data, rules_in_force, chosen, depth)
    saved = None
    if answer.text is not None and output is not None:
        save(output, answer.text, force=None)  # query has no --force
        saved = display(output)
    echo(query_output(answer, fmt, sum(r.encoded for r in rules_in_force), saved))
    return answer.exit_code


def check_rules(
    fmt: str,
    redundancy: int,
    search_all: bool,
    jobs: int,
    rule_words: tuple[str, ...],
    reading: tuple[str, ...],
    readings_file: Path | None,
) -> int:
    """The rulebook's own checks (of the named rules only, when `rule_words` names some): exit 0
    every check holds, 1 one fails."""
    from xiangshe.constraints.counterexample import target
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.constraints.rulecheck import check_bundled
    from xiangshe.reports.outputs import rulecheck_output

    chosen = readings(reading, readings_file)
    only = [located(target, word, active_rules(chosen)).id for word in rule_words]
    tty = sys.stderr.isatty()
    progress = (lambda msg: echo(f"\r\033[K… {msg}", err=True, nl=False)) if tty else None
    report = check_bundled(chosen, redundancy, search_all, progress, jobs, only)
    if tty:
        echo("\r\033[K", err=True, nl=False)
    echo(rulecheck_output(report, fmt, chosen, search_all))
    return 0 if report.ok else 1
