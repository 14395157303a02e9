"""Deterministic samples for the default run and the inner loop; the rest of the breadth is marked `slow`.

A parametrized test lists every case; `sample_or_slow` marks the cases outside the default sample
`slow`, so that `pytest` runs the sample, `pytest -m slow` the rest, and `pytest -m "slow or not slow"`
all of it. `tiered` also marks the cases of the default sample outside the inner loop's `wide`: the
default run (no -m) runs them, the inner loop (`-m "not z3 and not browser"`) leaves them out.
The sample is chosen by rule, never at random: from each template kind, a few rules evenly spaced
in id order (every rule of a kind with fewer), and every rule written against a non-default reading;
the inner loop's, one rule of each kind (the first in id order) and the same contested ones.
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


def first_of_each_kind(rules: Iterable[Rule]) -> list[Rule]:
    """Of the encoded `rules`, the first of each template kind in id order (no contested extra); in id order."""
    first: dict[str, Rule] = {}
    for r in sorted((r for r in rules if r.encoded), key=lambda r: r.id):
        first.setdefault(r.template.kind, r)
    return sorted(first.values(), key=lambda r: r.id)


def sample_or_slow(cases: Sequence[T], in_sample: Callable[[T], bool], ids: Callable[[T], str]) -> list:
    """`cases` as pytest params, those outside the sample marked `slow`."""
    return [
        pytest.param(c, id=ids(c), marks=() if in_sample(c) else pytest.mark.slow)  # type: ignore[arg-type]
        for c in cases
    ]


def tiered(
    cases: Sequence[T], inner: Callable[[T], bool], in_sample: Callable[[T], bool], ids: Callable[[T], str]
) -> list:
    """`cases` as pytest params: those of the inner loop's sample plain, the rest of the default
    sample marked `wide`, the rest marked `slow` (a case of the inner sample must be in the default one)."""

    def marks(c: T) -> object:
        if not in_sample(c):
            assert not inner(c), f"{ids(c)} is in the inner loop's sample but not in the default one"
            return pytest.mark.slow
        return () if inner(c) else pytest.mark.wide

    return [pytest.param(c, id=ids(c), marks=marks(c)) for c in cases]  # type: ignore[arg-type]


def inner_or_wide(cases: Sequence[T], inner: Callable[[T], bool], ids: Callable[[T], str]) -> list:
    """`cases` (all in the default run) as pytest params, those outside the inner loop's sample `wide`."""
    return tiered(cases, inner, lambda _: True, ids)


def rule_params(rules: Sequence[Rule], per_kind: int = PER_KIND, inner_per_kind: int | None = None) -> list:
    """`rules` as pytest params (ids: the rule ids), those outside `rules_by_kind(rules, per_kind)`
    marked `slow`; with `inner_per_kind`, those of that sample outside `rules_by_kind(rules,
    inner_per_kind)` marked `wide`."""
    sampled = {r.id for r in rules_by_kind(rules, per_kind)}
    inner = sampled if inner_per_kind is None else {r.id for r in rules_by_kind(rules, inner_per_kind)}
    return tiered(rules, lambda r: r.id in inner, lambda r: r.id in sampled, lambda r: r.id)
