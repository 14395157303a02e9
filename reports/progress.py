"""A progress bar on stderr for long batch work (`check` of many files): click's progress bar, shown
when stderr is a terminal and the batch is long (MANY files or more), or for any batch when forced
with the hidden `--progress`. On a non-terminal the bar is never drawn (forced, click writes its
label once), so piped and CI output stays clean.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from typing import TypeVar

import click

from xiangshe.domain.visible import visible

T = TypeVar("T")
MANY = 8  # fewer files than this are checked faster than a bar can be read


def shown(n: int, forced: bool | None) -> bool:
    """Whether to show a bar for a batch of n items: forced on or off, else on a terminal when long."""
    return forced if forced is not None else n >= MANY and sys.stderr.isatty()


def progress(items: Sequence[T], forced: bool | None = None, label: str = "checking") -> Iterator[T]:
    """Yield the items, drawing a bar on stderr while they are worked on, if `shown`."""
    if not shown(len(items), forced):
        yield from items
        return
    with click.progressbar(
        items,
        label=label,
        file=sys.stderr,
        show_pos=True,
        item_show_func=lambda p: visible(str(p)) if p is not None else None,
    ) as bar:
        yield from bar
