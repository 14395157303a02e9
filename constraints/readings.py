"""Contested readings as switches (`readings.toml`), and which rules each selection makes active.

A rule block may say `when = "guan=zheng"` (or a list): it is active only under that reading. A
rule without `when` holds under every reading. The default of each point is the reading the
rulebook follows; `--reading point=option` or a readings file (TOML: `point = "option"`) selects
another. A reading that cannot be checked on a trace (`encoded = false`) is refused with its reason.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.errors import InputError, RulebookError, did_you_mean
from xiangshe.domain.messages import Join, Message

READINGS_PATH = Path(__file__).with_name("readings.toml")


@dataclass(frozen=True)
class Option:
    """One reading of a contested point: its label, its source, who reads it so, and whether it can be checked."""

    name: str
    label: str
    source: str
    encoded: bool = True
    reason: str | None = None
    by: str = ""  # who reads it so, in a few words (郑注, 贾疏 …; the encoder's own)


@dataclass(frozen=True)
class Point:
    """A contested point of the text (readings.toml): its question, its quote, its options and the default one."""

    name: str
    question: str
    quote: str
    default: str
    options: dict[str, Option]


@cache
def points() -> dict[str, Point]:
    """The contested points of constraints/readings.toml, from the cache of derived artefacts when
    it is there (domain/cache.py)."""
    from xiangshe.domain.cache import derived

    return derived("readings", (), load_points)


def load_points() -> dict[str, Point]:
    import tomllib  # only when a source is read: the cache (domain/cache.py) spares the import

    data = tomllib.loads(READINGS_PATH.read_text(encoding="utf-8"))
    out = {}
    for name, p in data.items():
        options = {
            o: Option(o, v["label"], v["source"], v.get("encoded", True), v.get("reason"), v.get("by", ""))
            for o, v in p["options"].items()
        }
        if p["default"] not in options:
            raise RulebookError(str(READINGS_PATH), None, f"[{name}] default {p['default']} is no option")
        out[name] = Point(name, p["question"], p["quote"], p["default"], options)
    return out


Readings = dict[str, str]  # point -> option, complete (defaults filled in)


def defaults() -> Readings:
    return {name: p.default for name, p in points().items()}


def select(
    choices: list[str], path: Path | None = None, where: str = "--reading", base: Readings | None = None
) -> Readings:
    """The readings in force: defaults, then `base` (a configuration file's, already checked), then
    a readings file, then `point=option` choices."""
    chosen = defaults() | (base or {})
    pairs: list[tuple[str, str, str]] = []
    if path is not None:
        import tomllib  # only for a readings file

        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as err:
            raise InputError(str(path), None, f"cannot read the readings file: {err}") from None
        except tomllib.TOMLDecodeError as err:
            raise InputError(str(path), None, f"not valid TOML: {err}") from None
        pairs += [(str(k), str(v), str(path)) for k, v in data.items()]
    for c in choices:
        point, eq, option = c.partition("=")
        if not eq:
            raise InputError(where, None, f"{c}: write point=option, e.g. guan=zheng")
        pairs.append((point, option, where))
    for point, option, src in pairs:
        p = points().get(point)
        if p is None:
            raise InputError(src, None, f"unknown reading point {point}", hint=did_you_mean(point, points()))
        o = p.options.get(option)
        if o is None:
            raise InputError(
                src, None, f"{point} has no reading {option}", hint=f"readings of {point}: {', '.join(p.options)}"
            )
        if not o.encoded:
            raise InputError(src, None, f"the reading {point}={option} ({o.label}) cannot be checked: {o.reason}")
        chosen[point] = option
    return chosen


def parse_when(value: Any, where: str, at: int) -> tuple[tuple[str, str], ...]:
    items = [value] if isinstance(value, str) else list(value or [])
    out = []
    for item in items:
        point, eq, option = str(item).partition("=")
        p = points().get(point)
        if not eq or p is None or option not in p.options:
            raise RulebookError(
                where, at, f"when = {item!r}: not a reading point=option", hint=did_you_mean(point, points())
            )
        out.append((point, option))
    return tuple(out)


def describe(chosen: Readings) -> str:
    parts = [
        f"{k}={v}" if v == points()[k].default else Message("reading.not-default", point=k, value=v)
        for k, v in chosen.items()
    ]
    return Join(parts, ", ", ", ")
