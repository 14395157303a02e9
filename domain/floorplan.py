"""The floor plan of the 堂 and the 庭: where each place of the text lies (domain/floorplan.toml).

One table that a scholar can read and correct: every place code of the vocabulary (`at=X` in a
trace) has a point on the plan, or says why it cannot be drawn; each point carries a verbatim quote
of the text that puts it there (located here, through domain/text.py: a missing or ambiguous quote
is a load error) and a note of where the commentaries put it. `stations` are where an officer
stands (his 位) when a trace gives him no place in a phase. reports/floorplan.py draws the plan.
"""

from __future__ import annotations

from dataclasses import field
from functools import cache
from pathlib import Path
from typing import Any

from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.errors import RulebookError
from xiangshe.domain.text import TEXT, Citation

FLOORPLAN_PATH = Path(__file__).with_name("floorplan.toml")
#: the plan's extent, in its own units (x west → east, y north → south)
WIDTH, HEIGHT = 100, 155

Point = tuple[float, float]


@dataclass(frozen=True)
class Place:
    """A place code and where it lies; `reason` instead of a point when it cannot be drawn."""

    code: str
    point: Point | None
    citation: Citation | None
    note: str = ""
    landmark: str | None = None
    roles: dict[str, Point] = field(default_factory=dict)
    venue: dict[str, Point] = field(default_factory=dict)
    reason: str | None = None

    def at(self, role: str | None = None, venue: str | None = None) -> Point | None:
        """The point for someone of `role` (a place relative to him), in the building `venue`."""
        if role is not None and role in self.roles:
            return self.roles[role]
        if venue is not None and venue in self.venue:
            return self.venue[venue]
        return self.point


@dataclass(frozen=True)
class Station:
    """Where an officer of `role` stands in the phases of `rounds` (None: every phase)."""

    name: str
    role: str
    point: Point
    citation: Citation
    note: str
    rounds: frozenset[int] | None


@dataclass(frozen=True)
class Outline:
    """The building: the hall (west, north, east, south), the court, the gate's opening (west, east)."""

    hall: tuple[float, float, float, float]
    court: tuple[float, float, float, float]
    gate: tuple[float, float]


@dataclass(frozen=True)
class FloorPlan:
    places: dict[str, Place]
    stations: tuple[Station, ...]
    outline: Outline

    def station(self, role: str, round_: int) -> Station | None:
        return next(
            (s for s in self.stations if s.role == role and (s.rounds is None or round_ in s.rounds)),
            None,
        )


def _point(value: Any, where: str, what: str) -> Point:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        raise RulebookError(where, None, f"{what}: a point is [x, y], two numbers; got {value!r}")
    x, y = float(value[0]), float(value[1])
    if not (0 <= x <= WIDTH and 0 <= y <= HEIGHT):
        raise RulebookError(where, None, f"{what}: ({x:g}, {y:g}) lies outside the plan (0–{WIDTH}, 0–{HEIGHT})")
    return (x, y)


def _cite(entry: dict[str, Any], where: str, what: str) -> Citation:
    quote = entry.get("quote")
    if not isinstance(quote, str) or not quote:
        raise RulebookError(where, None, f"{what} has no quote: every point quotes the text that puts it there")
    line = entry.get("line")
    return TEXT.cite(quote, line if isinstance(line, int) else None, where=f"{where} {what}")


def _points(entry: dict[str, Any], key: str, where: str, what: str) -> dict[str, Point]:
    table = entry.get(key, {})
    if not isinstance(table, dict):
        raise RulebookError(where, None, f"{what}.{key} must be a table of points")
    return {str(k): _point(v, where, f"{what}.{key}.{k}") for k, v in table.items()}


def load_floorplan(path: Path = FLOORPLAN_PATH, place_codes: tuple[str, ...] | None = None) -> FloorPlan:
    """The table at `path`; every code of `place_codes` (default: the vocabulary's) must have an entry."""
    import tomllib

    where = str(path.name)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise RulebookError(where, None, f"not valid TOML: {err}") from None
    if place_codes is None:
        from xiangshe.domain.vocabulary import vocabulary

        place_codes = tuple(vocabulary().places)
    places: dict[str, Place] = {}
    for code, entry in data.get("places", {}).items():
        what = f'[places."{code}"]'
        if code not in place_codes:
            raise RulebookError(where, None, f"{what} is not a place code of the vocabulary")
        if entry.get("drawable", True) is False:
            reason = entry.get("reason")
            if not isinstance(reason, str) or not reason.strip():
                raise RulebookError(where, None, f"{what} is not drawable but gives no reason")
            places[code] = Place(code, None, None, reason=reason)
            continue
        places[code] = Place(
            code,
            _point([entry.get("x"), entry.get("y")], where, what),
            _cite(entry, where, what),
            str(entry.get("note", "")),
            entry.get("landmark"),
            _points(entry, "roles", where, what),
            _points(entry, "venue", where, what),
        )
    missing = [c for c in place_codes if c not in places]
    if missing:
        raise RulebookError(
            where,
            None,
            f"no point for the place code{'s' if len(missing) > 1 else ''} {', '.join(missing)}: "
            "give x and y with a quote, or drawable = false with a reason",
        )
    stations = []
    for name, entry in data.get("stations", {}).items():
        what = f'[stations."{name}"]'
        rounds = entry.get("rounds")
        stations.append(
            Station(
                name,
                str(entry.get("role", name)),
                _point([entry.get("x"), entry.get("y")], where, what),
                _cite(entry, where, what),
                str(entry.get("note", "")),
                frozenset(int(r) for r in rounds) if rounds is not None else None,
            )
        )
    return FloorPlan(places, tuple(stations), _outline(data.get("outline", {}), where))


def _outline(table: dict[str, Any], where: str) -> Outline:
    def numbers(key: str, n: int) -> tuple[float, ...]:
        value = table.get(key)
        if not isinstance(value, list) or len(value) != n or not all(isinstance(v, int | float) for v in value):
            raise RulebookError(where, None, f"[outline] {key} must be a list of {n} numbers; got {value!r}")
        return tuple(float(v) for v in value)

    hall, court, gate = numbers("hall", 4), numbers("court", 4), numbers("gate", 2)
    return Outline((hall[0], hall[1], hall[2], hall[3]), (court[0], court[1], court[2], court[3]), (gate[0], gate[1]))


@cache
def floorplan() -> FloorPlan:
    return load_floorplan()
