"""The project's settings for `check`: `xiangshe.toml` (or `.xiangshe.toml`), else `[tool.xiangshe]`
in `pyproject.toml`, as ruff finds `ruff.toml` and `pyproject.toml`.

The search starts in the working directory and walks up to the repository's root (a directory
with `.git`) or the filesystem's; in each directory `.xiangshe.toml`, `xiangshe.toml`, then a
`pyproject.toml` that has a `[tool.xiangshe]` table, and the first found is the only one read.

    [tool.xiangshe]
    select = ["ALL"]                        # the terms of --select (constraints/select.py)
    ignore = ["machine.jue", "R120"]
    readings = { guan = "zheng" }           # as a --readings file
    format = "text"                         # text, json, sarif, junit or github
    baseline = "xiangshe-baseline.jsonl"    # relative to this file

    [tool.xiangshe.per-file-ignores]
    "drafts/*.trace" = ["audit"]            # globs relative to this file; without /, the file name

Options on the command line override the file. Every key and value is checked: an unknown key,
a wrong type or an unknown rule is bad input located at its line, with a "did you mean".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import field
from pathlib import Path
from typing import Any

from xiangshe.constraints.readings import points
from xiangshe.constraints.select import Selection, Term, terms
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.errors import InputError, did_you_mean
from xiangshe.domain.messages import Message
from xiangshe.domain.regex import lazy

FILENAMES = (".xiangshe.toml", "xiangshe.toml")
PYPROJECT = "pyproject.toml"
FORMATS = ("text", "json", "sarif", "junit", "github")
KEYS = ("select", "ignore", "per-file-ignores", "readings", "format", "baseline")


@dataclass(frozen=True)
class Config:
    path: Path | None = None
    shown: str | None = None
    select: tuple[Term, ...] | None = None
    ignore: tuple[Term, ...] = ()
    per_file: tuple[tuple[str, tuple[Term, ...]], ...] = ()
    readings: dict[str, str] = field(default_factory=dict)
    format: str | None = None
    baseline: Path | None = None

    def selection(self, select: tuple[Term, ...] | None, ignore: tuple[Term, ...] | None) -> Selection:
        """The selection in force: the command line's select/ignore, where given, over the file's."""
        return Selection(
            select if select is not None else self.select,
            ignore if ignore is not None else self.ignore,
            self.per_file,
            self.path.parent if self.path else None,
        )


def find(start: Path) -> Path | None:
    """The nearest configuration file from `start` up to the repository's root."""
    for d in [start, *start.parents]:
        for name in FILENAMES:
            if (d / name).is_file():
                return d / name
        py = d / PYPROJECT
        if py.is_file() and _has_table(py):
            return py
        if (d / ".git").exists():
            return None
    return None


def _has_table(py: Path) -> bool:
    try:
        return re.search(r"^\s*\[\s*tool\s*\.\s*xiangshe\s*[.\]]", py.read_text(encoding="utf-8"), re.M) is not None
    except (OSError, UnicodeDecodeError):
        return False


class _Lines:
    """Line numbers of keys in a TOML text (tomllib gives none): the line of `key =` in the table
    `table` (a dotted path), or of the inline table holding it, or of the table's header."""

    _HEADER = lazy(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(?:#.*)?$")

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.where: dict[tuple[tuple[str, ...], str], int] = {}
        self.headers: dict[tuple[str, ...], int] = {}
        table: tuple[str, ...] = ()
        for n, raw in enumerate(self.lines, 1):
            m = self._HEADER.match(raw)
            if m:
                table = self._path(m.group(1))
                self.headers.setdefault(table, n)
                continue
            k = re.match(r'^\s*("(?:[^"\\]|\\.)*"|\'[^\']*\'|[A-Za-z0-9_.-]+)\s*=', raw)
            if k:
                *parents, last = self._path(k.group(1))
                self.where.setdefault((table + tuple(parents), last), n)

    @staticmethod
    def _path(dotted: str) -> tuple[str, ...]:
        parts = re.findall(r'"((?:[^"\\]|\\.)*)"|\'([^\']*)\'|([^.\s]+)', dotted)
        return tuple(a or b or c for a, b, c in parts)

    def line(self, table: tuple[str, ...], key: str | None = None) -> int | None:
        if key is not None and (table, key) in self.where:
            return self.where[(table, key)]
        if table in self.headers:
            return self.headers[table]
        if table and (table[:-1], table[-1]) in self.where:
            return self.where[(table[:-1], table[-1])]
        return self.line(table[:-1]) if table else None

    def text(self, n: int | None) -> str | None:
        return self.lines[n - 1] if n and 0 < n <= len(self.lines) else None


def load(path: Path, shown: str) -> Config:
    """Read and check a configuration file (a pyproject.toml: its [tool.xiangshe] table)."""
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise InputError(shown, None, Message("input.no-such-file")) from None
    except OSError as err:
        raise InputError(shown, None, f"cannot read: {err.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(shown, None, "not UTF-8 text") from None
    import tomllib  # only when there is a configuration file to read

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        m = re.search(r"\(at line (\d+), column \d+\)", str(err))
        lines = text.splitlines()
        line = int(m.group(1)) if m else len(lines) if "end of document" in str(err) else None
        raise InputError(
            shown,
            line or None,
            f"not valid TOML: {re.sub(r' [(]at .*[)]$', '', str(err))}",
            lines[line - 1] if line and line <= len(lines) else None,
        ) from None
    at = _Lines(text)
    table: tuple[str, ...] = ()
    if path.name == PYPROJECT:
        table = ("tool", "xiangshe")
        data = data.get("tool", {}).get("xiangshe", {})
        if not isinstance(data, dict):
            n = at.line(("tool",), "xiangshe")
            raise InputError(shown, n, "tool.xiangshe is a table of settings", at.text(n))
    return _read(data, path, shown, at, table)


def _read(data: dict[str, Any], path: Path, shown: str, at: _Lines, table: tuple[str, ...]) -> Config:
    def bad(key: str, message: str, hint: str | None = None, sub: tuple[str, ...] = ()) -> InputError:
        n = at.line(table + sub, key)
        return InputError(shown, n, message, at.text(n), hint)

    def words(key: str, value: object, sub: tuple[str, ...] = ()) -> tuple[Term, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise bad(key, f"{key} is a list of rules, e.g. {key} = [\"R120\", \"machine.jue\"]", sub=sub)
        n = at.line(table + sub, key)
        return terms(value, shown, n, at.text(n))

    for key in data:
        if key not in KEYS:
            raise bad(key, f"unknown key {key}", did_you_mean(key, KEYS))
    out: dict[str, Any] = {}  # the fields of Config, by name
    if "select" in data:
        out["select"] = words("select", data["select"])
    if "ignore" in data:
        out["ignore"] = words("ignore", data["ignore"])
    if "per-file-ignores" in data:
        pfi = data["per-file-ignores"]
        if not isinstance(pfi, dict):
            raise bad(
                "per-file-ignores",
                "per-file-ignores is a table of glob = [rules]",
                'e.g. [tool.xiangshe.per-file-ignores] "drafts/*.trace" = ["audit"]',
            )
        out["per_file"] = tuple((glob, words(glob, v, ("per-file-ignores",))) for glob, v in pfi.items())
    if "readings" in data:
        out["readings"] = _readings(data["readings"], bad)
    if "format" in data:
        fmt = data["format"]
        if fmt not in FORMATS:
            raise bad(
                "format",
                f"format = {fmt!r}: one of {', '.join(FORMATS)}",
                did_you_mean(str(fmt), FORMATS) if isinstance(fmt, str) else None,
            )
        out["format"] = fmt
    if "baseline" in data:
        if not isinstance(data["baseline"], str) or not data["baseline"]:
            raise bad("baseline", "baseline is the path of a baseline file, relative to this file")
        out["baseline"] = path.parent / data["baseline"]
    return Config(path, shown, **out)


def _readings(value: object, bad: Callable[..., InputError]) -> dict[str, str]:
    if not isinstance(value, dict):
        raise bad("readings", "readings is a table of point = \"option\"", 'e.g. readings = { guan = "zheng" }')
    out = {}
    for point, option in value.items():
        p = points().get(point)
        if p is None:
            raise bad(point, f"unknown reading point {point}", did_you_mean(point, points()), ("readings",))
        if not isinstance(option, str) or option not in p.options:
            raise bad(
                point,
                f"{point} has no reading {option!r}",
                f"readings of {point}: {', '.join(p.options)}",
                ("readings",),
            )
        if not p.options[option].encoded:
            raise bad(
                point,
                f"the reading {point}={option} ({p.options[option].label}) cannot be "
                f"checked: {p.options[option].reason}",
                sub=("readings",),
            )
        out[point] = option
    return out


def settings(
    cwd: Path, config_file: Path | None = None, isolated: bool = False, display: Callable[[Path], str] = str
) -> Config:
    """The configuration in force: none with `isolated`, `config_file` if given, else the nearest
    file from `cwd` up (constraints/config.find), else the defaults. `display` shows a path."""
    if isolated and config_file is not None:
        raise InputError("--isolated", None, "--isolated reads no configuration file; drop --config")
    if isolated:
        return Config()
    path = config_file if config_file is not None else find(cwd)
    return load(path, display(path)) if path is not None else Config()
