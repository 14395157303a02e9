"""xiangshe — a verifier of the rules of 《仪礼·乡射礼》, for programs and notebooks.

The command line (`xiangshe check …`) and this API share one checker. Check a staging file, a
staging written as text, or the bundled canonical ceremony, and read the findings:

    >>> import xiangshe
    >>> result = xiangshe.check(xiangshe.CANONICAL)
    >>> result.ok, result.events > 3000
    (True, True)
    >>> bad = xiangshe.check_text("fragment Φ51\\nphase Φ51\\n主人 拜辱 to=宾\\n", name="plan.trace")
    >>> [(f.rule, f.line) for f in bad.findings]
    [('bai-ci-bai-ru', 3), ('bai-ru-nai-tui', 3), ('sui-cong-zhi', 3)]

A `Result` has `path`, `events`, `ok`, `findings` (each a `Finding`: `rule`, `name`, `line`,
`message`, `citation`) and `scoring` (the scoring audit). Bad input raises `xiangshe.BadTrace`,
whose `str()` is the located message the command line prints (`path:line: error: …`).
`readings` maps a contested point to an option (`{"guan": "zheng"}`), as `--reading` does.
Nothing here imports z3.
"""

from __future__ import annotations

import functools
from pathlib import Path

from xiangshe.domain.bundled import CANONICAL  # the bundled stagings are listed in domain/bundled.py

__all__ = ["CANONICAL", "BadTrace", "check", "check_text", "__version__"]


@functools.cache
def version() -> str:
    """The installed distribution's version; in a bare checkout, pyproject.toml's. Read when asked
    (importlib.metadata costs more to import than the rest of `check`'s start-up)."""
    from importlib import metadata

    try:
        return metadata.version("xiangshe")
    except metadata.PackageNotFoundError:
        import tomllib

        try:
            with open(Path(__file__).with_name("pyproject.toml"), "rb") as f:
                return str(tomllib.load(f)["project"]["version"])
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "0+unknown"


def __getattr__(name: str) -> str:
    if name == "__version__":
        return version()
    raise AttributeError(f"module 'xiangshe' has no attribute {name!r}")


class BadTrace(ValueError):
    """A staging, or a readings choice, that cannot be read; str() is the located message."""


def _readings(readings: dict[str, str] | None) -> dict[str, str]:
    from xiangshe.constraints.readings import select
    from xiangshe.domain.errors import InputError

    try:
        return select([f"{k}={v}" for k, v in (readings or {}).items()], None, "readings")
    except InputError as err:
        raise BadTrace(err.render()) from None


def _check(parse, readings: dict[str, str] | None):
    from xiangshe.constraints.check import check_trace
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.domain.errors import InputError
    from xiangshe.domain.parse import TraceErrors

    chosen = _readings(readings)
    try:
        return check_trace(parse(), active_rules(chosen), chosen)
    except (TraceErrors, InputError) as err:
        raise BadTrace(err.render()) from None


def check(path: str | Path, readings: dict[str, str] | None = None):
    """Check the staging file at `path` (`.trace`, `.jsonl`, `.json`, `.yaml`, `.yml`)."""
    from xiangshe.domain.parse import parse_file

    p = Path(path)
    return _check(lambda: parse_file(p, str(p)), readings)


def check_text(text: str, fmt: str = "trace", readings: dict[str, str] | None = None, name: str = "<trace>"):
    """Check a staging given as text: `fmt` is "trace" (the line format), "jsonl", "json" or "yaml"."""
    from xiangshe.domain.parse import READERS as readers

    if fmt not in readers:
        raise ValueError(f"fmt is one of {', '.join(readers)}, not {fmt!r}")
    return _check(lambda: readers[fmt](text, name), readings)
