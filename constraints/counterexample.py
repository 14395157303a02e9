"""A counterexample to a rule: a trace that the machines and every other rule in force allow but the
rule forbids. z3 searches for a shortest one (constraints/search.py) within a work budget
(search.BUDGET: z3's resource count, deterministic); when it finds none within its bounds, a bundled
violating example (traces/violations/) that breaks the rule and nothing else is a counterexample all
the same, though not shown to be a shortest one. Either is minimised: a bundled example as far as
REPLAYS events replayed by the checker allow (a few are whole ceremonies of thousands of events).

`counterexample` returns a `Counterexample` for the command line to print; it prints nothing."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from xiangshe.constraints import search
from xiangshe.constraints.rulebook import Rule, find_rule, rulebook
from xiangshe.constraints.search import Exhausted, Outcome, Refuted
from xiangshe.domain import bundled
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.errors import UsageError, did_you_mean
from xiangshe.domain.messages import Message
from xiangshe.domain.parse import parse_file, parse_lines

#: the events the checker may replay while minimising a bundled example (a count, not a time: the
#: same answer on any machine); about 4 s under load for the longest examples that finish
REPLAYS = 40_000


@dataclass(frozen=True)
class Counterexample:
    rule: Rule
    depth: int  # the longest trace searched
    readings: dict[str, str]
    outcome: Outcome  # z3's answer
    text: str | None = None  # the counterexample, minimised; None: there is none to show
    steps: int | None = None
    source: str | None = None  # the bundled example it comes from; None: z3's, a shortest one
    minimal: bool = True  # False: its minimising stopped at REPLAYS (every step confirmed)

    @property
    def found(self) -> bool:
        return self.text is not None

    @property
    def shortest(self) -> bool:
        return self.source is None

    @property
    def exit_code(self) -> int:
        """1 a counterexample; 0 none up to the depth (not a proof); 3 the solver gave up."""
        return 1 if self.found else 0 if isinstance(self.outcome, Exhausted) else 3


def target(word: str, rules_in_force: Sequence[Rule]) -> Rule:
    """The one encoded rule in force that `word` names (id, Chinese name or catalogue id); a
    UsageError (with a "did you mean") if it names none or several."""
    found = [r for r in find_rule(word) if r.encoded and r in rules_in_force]
    if len(found) == 1:
        return found[0]
    names = [r.id for r in rulebook()] + [r.name for r in rulebook()]
    if found:
        raise UsageError(Message("usage.rule-ambiguous", word=word, ids=", ".join(r.id for r in found)))
    raise UsageError(Message("usage.rule-not-encoded", word=word, hint=did_you_mean(word, names)))


def fallback(
    rule: Rule,
    rules_in_force: Sequence[Rule],
    readings: dict[str, str],
    display: Callable[[Path], str] = str,
) -> tuple[str, str, bool] | None:
    """The first bundled violating example of `rule` that breaks it alone, minimised (within
    REPLAYS), with its name (as `display` shows it) and whether it is minimal; None if there is none."""
    files = {display(p): p for p in bundled.violations().get(rule.id, [])}
    seen = search.witness(rule, [parse_file(p, name) for name, p in files.items()], rules_in_force, readings)
    if seen is None:
        return None
    text = files[seen.path].read_text(encoding="utf-8")
    small, minimal = search.minimise_within(text, rule, rules_in_force, readings, REPLAYS)
    return small, seen.path, minimal


def counterexample(
    rule: Rule,
    rules_in_force: Sequence[Rule],
    readings: dict[str, str],
    depth: int,
    display: Callable[[Path], str] = str,
) -> Counterexample:
    """z3's shortest counterexample to `rule` up to `depth` steps, else the bundled fallback, else none.
    z3 has a work budget for the whole search (search.BUDGET): a rule it cannot settle within it
    gets its bundled example, if it has one, rather than a long wait."""
    outcome = search.refute(rule, rules_in_force, depth, budget=search.BUDGET)
    if isinstance(outcome, Refuted):
        text = search.minimise(outcome.text, rule, rules_in_force, readings)
        return Counterexample(rule, depth, readings, outcome, text, outcome.steps)
    found = fallback(rule, rules_in_force, readings, display)
    if found is None:
        return Counterexample(rule, depth, readings, outcome)
    text, source, minimal = found
    steps = len(parse_lines(text, "<counterexample>"))
    return Counterexample(rule, depth, readings, outcome, text, steps, source, minimal)
