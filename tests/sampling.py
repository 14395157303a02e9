"""Deterministic samples for the default run; the rest of the breadth is marked `slow`.

A parametrized test lists every case; `sample_or_slow` marks the cases outside the default sample
`slow`, so that `pytest` runs the sample, `pytest -m slow` the rest, and `pytest -m "slow or not slow"`
all of it.
The sample is chosen by rule, never at random: from each template kind, a few rules evenly spaced
in id order (every rule of a kind with fewer), and every rule written against a non-default reading.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

import pytest

from xiangshe.constraints.rulebook import Rule

T = TypeVar("T")

PER_KIND = 3


def rules_by_kind(rules: Iterable[Rule], per_kind: int = PER_KIND) -> list[Rule]:
    """Of the encoded `rules` (a descriptive or deferred rule has no template, so no kind): from each
    template kind, `per_kind` rules evenly spaced in id order, and every rule that reads a contested
    point otherwise than by default; in id order."""
    rules = [r for r in rules if r.encoded]
    groups: dict[str, list[Rule]] = defaultdict(list)
    for r in sorted(rules, key=lambda r: r.id):
        groups[r.template.kind].append(r)
    chosen = {r.id: r for r in rules if r.when}
    for members in groups.values():
        step = max(1.0, len(members) / per_kind)
        for i in range(min(per_kind, len(members))):
            r = members[int(i * step)]
            chosen[r.id] = r
    return sorted(chosen.values(), key=lambda r: r.id)


def sample_or_slow(cases: Sequence[T], in_sample: Callable[[T], bool], ids: Callable[[T], str]) -> list:
    """`cases` as pytest params, those outside the sample marked `slow`."""
    return [
        pytest.param(c, id=ids(c), marks=() if in_sample(c) else pytest.mark.slow)  # type: ignore[arg-type]
        for c in cases
    ]


def rule_params(rules: Sequence[Rule]) -> list:
    """`rules` as pytest params (ids: the rule ids), those outside `rules_by_kind` marked `slow`."""
    sampled = {r.id for r in rules_by_kind(rules)}
    return sample_or_slow(rules, lambda r: r.id in sampled, lambda r: r.id)
