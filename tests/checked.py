"""The bundled stagings parsed and checked once per process, shared by the test modules that read
them (test_explain's passing examples, test_libretto's bundled stagings, conftest's canonical).

Under xdist each worker computes what its own tests ask for: mark the heavy consumers
`xdist_group("bundled-checks")` so that one worker computes each result once. Read the results; do
not change them.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import tracegen

from xiangshe.constraints.check import Result, check_trace
from xiangshe.constraints.readings import defaults
from xiangshe.constraints.rulebook import active_rules
from xiangshe.domain.parse import parse_file
from xiangshe.domain.trace import Trace

ROOT = Path(__file__).resolve().parents[1]


@cache
def parsed(path: str) -> Trace:
    """The staging at `path` (relative to the repository's root, as its name in messages); the
    canonical ceremony is tracegen's."""
    if path == "traces/canonical.trace":
        return tracegen.canonical()
    return parse_file(ROOT / path, path)


def checked(path: str, readings: dict[str, str] | None = None) -> Result:
    """The check result of the staging at `path` under `readings` (complete or partial: the
    defaults fill the rest; None: the defaults), with the rules in force under them."""
    full = defaults() | (readings or {})
    return _checked(path, tuple(sorted(full.items())))


@cache
def _checked(path: str, readings: tuple[tuple[str, str], ...]) -> Result:
    chosen = dict(readings)
    return check_trace(parsed(path), active_rules(chosen), chosen)
