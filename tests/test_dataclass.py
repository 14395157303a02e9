"""domain/dataclass.py: our dataclasses are the standard library's, made from the same code, whose
compiled form is kept in the cache (domain/cache.py `read_table`) and not compiled again."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import types
from dataclasses import InitVar, field
from pathlib import Path
from typing import ClassVar

import pytest

from xiangshe.domain import dataclass as ours

ROOT = Path(__file__).resolve().parents[1]
OPTIONS = [
    {},
    {"frozen": True},
    {"frozen": True, "slots": True},
    {"order": True, "unsafe_hash": True},
    {"eq": False, "repr": False},
    {"kw_only": True},
]


def _methods(cls: type) -> dict[str, types.FunctionType]:
    return {k: v for k, v in vars(cls).items() if isinstance(v, types.FunctionType)}


def _same_code(a: types.CodeType, b: types.CodeType) -> None:
    for attr in ("co_code", "co_names", "co_varnames", "co_freevars", "co_cellvars", "co_flags", "co_filename"):
        assert getattr(a, attr) == getattr(b, attr), attr
    assert len(a.co_consts) == len(b.co_consts)
    for x, y in zip(a.co_consts, b.co_consts, strict=True):
        if isinstance(x, types.CodeType):
            _same_code(x, y)
        else:
            assert x == y


def _define(decorate):
    @decorate
    class Point:
        x: int
        y: str = "y"
        z: list[int] = field(default_factory=list)
        scale: InitVar[int] = 1
        unit: ClassVar[str] = "步"

        def __post_init__(self, scale: int) -> None:
            pass

    return Point


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, bytes]:
    """A cache of this test's own, its table read afresh (empty)."""
    monkeypatch.setenv("XIANGSHE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("XIANGSHE_NO_CACHE", raising=False)
    monkeypatch.setattr(ours, "_read", False)
    monkeypatch.setattr(ours, "_table", None)
    monkeypatch.setattr(ours, "_made", {})
    assert ours._stored() == {}
    return ours._table  # type: ignore[return-value]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o) or "plain")
def test_a_class_is_made_from_the_code_the_standard_library_compiles(options, table) -> None:
    plain = _define(dataclasses.dataclass(**options))
    compiled = _define(ours.dataclass(**options))  # compiled here: a text the table does not hold
    assert ours._made and not table
    table.update(ours._made)  # as the next process reads it
    ours._made.clear()
    kept = _define(ours.dataclass(**options))  # from the table: none of its texts compiled again
    assert ours._made == {}
    assert not hasattr(dataclasses, "exec")  # the module is left as it was
    for made in (compiled, kept):
        assert _methods(made).keys() == _methods(plain).keys()
        for name, fn in _methods(plain).items():
            _same_code(fn.__code__, _methods(made)[name].__code__)
            assert _methods(made)[name].__annotations__.keys() == fn.__annotations__.keys()
            assert _methods(made)[name].__qualname__ == fn.__qualname__
        assert [f.name for f in dataclasses.fields(made)] == [f.name for f in dataclasses.fields(plain)]
        a, b, c = made(x=1, y="a"), made(x=1, y="a"), made(x=2, y="a")
        if options.get("eq", True):
            assert a == b and a != c
        if options.get("repr", True):
            assert repr(a) == repr(plain(x=1, y="a"))


def test_a_damaged_table_entry_is_compiled_again(table) -> None:
    _define(ours.dataclass(frozen=True))
    table.update(dict.fromkeys(ours._made, b"\x00damaged"))
    ours._made.clear()
    made = _define(ours.dataclass(frozen=True))
    assert made(1) == made(1) and len(ours._made) == len(table)  # each compiled again, to be stored


def test_without_a_cache_the_standard_library_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XIANGSHE_NO_CACHE", "1")
    monkeypatch.setattr(ours, "_read", False)
    monkeypatch.setattr(ours, "_table", None)
    monkeypatch.setattr(ours, "_made", {})
    made = _define(ours.dataclass(frozen=True))
    assert made(1) == made(1) and ours._table is None and ours._made == {}


def test_a_second_process_compiles_no_dataclass(tmp_path: Path) -> None:
    """The first process stores what it compiled as it ends; the next compiles none of it again."""
    code = (
        "import sys\nfrom xiangshe.domain import dataclass\n"
        "import xiangshe.verify, xiangshe.constraints.check, xiangshe.reports.batch\n"
        "print(len(dataclass._table), len(dataclass._made))"
    )
    env = {k: v for k, v in os.environ.items() if k != "XIANGSHE_NO_CACHE"}
    env["XIANGSHE_CACHE_DIR"] = str(tmp_path / "cache")

    def run() -> list[int]:
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-2000:]
        return [int(n) for n in done.stdout.split()]

    stored, compiled = run()
    assert stored == 0 and compiled > 100  # some sixty classes, several methods each
    assert run() == [compiled, 0]


def test_a_full_table_keeps_only_what_a_run_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """domain/cache.py write_table: past `most` texts, what this run neither used nor added is dropped."""
    from xiangshe.domain import cache

    monkeypatch.setenv("XIANGSHE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("XIANGSHE_NO_CACHE", raising=False)
    cache.write_table("t", {"old": b"1", "kept": b"2"})
    cache.write_table("t", {"new": b"3"}, used={"kept"}, most=3)  # 3 texts: within the bound
    assert cache.read_table("t") == {"old": b"1", "kept": b"2", "new": b"3"}
    cache.write_table("t", {"newer": b"4"}, used={"kept"}, most=3)  # 4: past it
    assert cache.read_table("t") == {"kept": b"2", "newer": b"4"}
