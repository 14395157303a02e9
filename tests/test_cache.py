"""The cache of derived artefacts (domain/cache.py): used on the second run, invalidated by an edit
of a source, never an error (a corrupt or foreign entry, an unwritable directory), never hiding a
load error, and safe for processes that fill it at the same time."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from xiangshe.constraints import rulebook as rulebook_module
from xiangshe.constraints.rulebook import RULES_DIR, cached_rules, load_rules
from xiangshe.domain import cache
from xiangshe.domain.errors import RulebookError

ROOT = Path(__file__).resolve().parents[1]
CANONICAL = ROOT / "traces" / "canonical.trace"
ARTEFACTS = {"vocabulary", "tables", "rulebook", "occasion", "machine-edges", "readings", "dataclass-code"}


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("XIANGSHE_CACHE_DIR", str(folder))
    monkeypatch.delenv("XIANGSHE_NO_CACHE", raising=False)
    return folder


def entries(folder: Path) -> dict[str, Path]:
    return {p.name.rsplit("-", 1)[0]: p for p in folder.glob("*.pickle")}


class Counted:
    def __init__(self, value: object) -> None:
        self.value, self.calls = value, 0

    def __call__(self) -> object:
        self.calls += 1
        return self.value


def test_the_second_call_reads_what_the_first_stored(cache_dir: Path, tmp_path: Path) -> None:
    source = tmp_path / "source.txt"
    source.write_text("one", encoding="utf-8")
    build = Counted({"derived": ("from", "one")})
    assert cache.derived("thing", [("source.txt", source)], build) == {"derived": ("from", "one")}
    assert cache.derived("thing", [("source.txt", source)], build) == {"derived": ("from", "one")}
    assert build.calls == 1
    assert list(entries(cache_dir)) == ["thing"]
    assert entries(cache_dir)["thing"].stat().st_mode & 0o077 == 0  # the user's alone
    source.write_text("two", encoding="utf-8")  # an edited source is another key
    cache.derived("thing", [("source.txt", source)], build)
    assert build.calls == 2


def test_the_bundled_rulebook_is_read_from_the_cache_on_the_second_load(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = cached_rules()
    assert "rulebook" in entries(cache_dir)  # the rules can be stored: nothing in them refuses pickling

    def refuse(*_args: object) -> None:
        raise AssertionError("the rulebook was derived again")

    monkeypatch.setattr(rulebook_module, "load_rules", refuse)
    assert cached_rules() == first


@pytest.mark.usefixtures("cache_dir")
def test_the_stored_rulebook_keeps_its_patterns_layouts_and_its_templates_gates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each pattern of a stored rulebook keeps its layout (where its candidates come from) and each
    template its gates, read back from the cache equal to what is worked out without them; a pattern
    compiles alike with or without its layout, and its compiled form is never pickled."""
    import pickle

    from xiangshe.constraints.pattern import COMPILED, LAYOUT, Compiled, Pattern, compiled, layout
    from xiangshe.constraints.templates import GATES, _gates

    cached_rules()
    monkeypatch.setattr(rulebook_module, "load_rules", lambda *_a: pytest.fail("derived again"))
    templates = [r.meaning for r in cached_rules() if r.meaning is not None]
    for t in templates:
        assert t.__dict__[GATES] == _gates(t), t
    patterns = [v for t in templates for v in vars(t).values() if isinstance(v, Pattern)]
    assert len(patterns) > 1000
    slots = Compiled.__slots__
    for p in patterns:
        assert p.__dict__[LAYOUT] == layout(p), p.text
        bare = Pattern(p.text, p.roles, p.acts, p.objs, p.conds)  # equal, with no layout kept
        assert bare == p and LAYOUT not in bare.__dict__
        kept, worked_out = Compiled(p, 0), Compiled(bare, 0)
        assert {s: getattr(kept, s) for s in slots if s != "test"} == {
            s: getattr(worked_out, s) for s in slots if s != "test"
        }
        assert (kept.test is None) == (worked_out.test is None)
    p = patterns[0]
    assert compiled(p) is p.__dict__[COMPILED] is compiled(p)
    again = pickle.loads(pickle.dumps(p))
    assert again == p and COMPILED not in again.__dict__ and again.__dict__[LAYOUT] == p.__dict__[LAYOUT]
    assert compiled(again) is compiled(p)  # an equal pattern object shares the compiled pattern


def test_an_edited_rule_file_invalidates_the_cache(cache_dir: Path, tmp_path: Path) -> None:
    rules = tmp_path / "copy" / "constraints" / "rules"
    shutil.copytree(RULES_DIR, rules)
    rule = next(r for r in cached_rules(rules) if r.id == "chu-ying-zai-bai")
    assert rule.extra["note"].startswith("that it is a 再拜 is R301a.")
    assert cached_rules(rules) == cached_rules(rules)  # and from the cache
    path = rules / "a2_L003-029.md"
    path.write_text(
        path.read_text(encoding="utf-8").replace("that it is a 再拜 is R301a.", "edited: R301a."), encoding="utf-8"
    )
    edited = next(r for r in cached_rules(rules) if r.id == "chu-ying-zai-bai")
    assert edited.extra["note"].startswith("edited: R301a.")
    assert edited.path == rule.path == "constraints/rules/a2_L003-029.md"
    assert len(list(cache_dir.glob("rulebook-*.pickle"))) == 2  # one entry for each content


def test_a_rulebook_that_does_not_load_is_reported_on_every_run_and_never_stored(
    cache_dir: Path, tmp_path: Path
) -> None:
    rules = tmp_path / "copy" / "constraints" / "rules"
    shutil.copytree(RULES_DIR, rules)
    path = rules / "a2_L003-029.md"
    path.write_text(path.read_text(encoding="utf-8").replace('kind = "response"', 'kind = "respons"', 1), "utf-8")
    with pytest.raises(RulebookError) as plain:
        load_rules(rules)
    for _ in range(2):
        with pytest.raises(RulebookError) as cached:
            cached_rules(rules)
        assert (cached.value.path, cached.value.line, cached.value.message, cached.value.hint) == (
            plain.value.path,
            plain.value.line,
            plain.value.message,
            plain.value.hint,
        )
    assert "rulebook" not in entries(cache_dir)


@pytest.mark.parametrize("damage", ["garbage", "truncated", "another key", "writable by others"])
def test_a_damaged_entry_is_derived_again(cache_dir: Path, tmp_path: Path, damage: str) -> None:
    source = tmp_path / "source.txt"
    source.write_text("one", encoding="utf-8")
    build = Counted(["value"])
    cache.derived("thing", [("source.txt", source)], build)
    entry = entries(cache_dir)["thing"]
    if damage == "garbage":
        entry.write_bytes(b"\x00not a pickle")
    elif damage == "truncated":
        entry.write_bytes(entry.read_bytes()[:10])
    elif damage == "another key":
        entry.write_bytes(pickle.dumps((cache.FORMAT, "0" * 64, ["forged"])))
    else:
        os.chmod(entry, 0o666)
    assert cache.derived("thing", [("source.txt", source)], build) == ["value"]
    assert build.calls == 2
    assert cache.derived("thing", [("source.txt", source)], build) == ["value"]
    assert build.calls == 2  # the entry was written again, whole


def test_no_cache_without_a_usable_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("XIANGSHE_CACHE_DIR", str(blocker / "cache"))  # cannot be made
    build = Counted(1)
    assert cache.derived("thing", [], build) == cache.derived("thing", [], build) == 1
    assert build.calls == 2
    monkeypatch.setenv("XIANGSHE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XIANGSHE_NO_CACHE", "1")
    assert cache.cache_dir() is None
    cache.derived("thing", [], build)
    assert build.calls == 3 and not (tmp_path / "cache").exists()


@pytest.mark.parametrize(
    ("xdg", "home"),
    [
        (None, "/home/u"),
        ("", "/home/u/"),
        ("/srv/caches", "/home/u"),
        ("/srv/caches/", None),
        ("relative/caches", "/home/u"),
        (" /srv/caches", "/home/u"),
        (None, "relative/home"),
        (None, " /home/u"),
        (None, "/"),
    ],
)
def test_the_default_directory_is_the_users_cache_directory(
    monkeypatch: pytest.MonkeyPatch, xdg: str | None, home: str | None
) -> None:
    """cache_dir says what platformdirs says, whether it asks it (anything unusual) or not (a plain Linux)."""
    import platformdirs

    monkeypatch.delenv("XIANGSHE_CACHE_DIR", raising=False)
    monkeypatch.delenv("XIANGSHE_NO_CACHE", raising=False)
    for name, value in (("XDG_CACHE_HOME", xdg), ("HOME", home)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert cache.cache_dir() == Path(platformdirs.user_cache_dir("xiangshe", appauthor=False))


@pytest.mark.skipif(sys.platform != "linux", reason="the directory is platformdirs' to find off Linux")
def test_a_check_finds_the_default_directory_without_platformdirs(tmp_path: Path) -> None:
    """On Linux the user's cache directory is found without importing platformdirs, and used."""
    code = (
        "import sys\nfrom xiangshe import verify\n"
        "try:\n    verify.cli.main(['check', '-'], standalone_mode=False)\n"
        "except SystemExit:\n    pass\n"
        "print('platformdirs' in sys.modules)"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("XIANGSHE_NO_CACHE", "XIANGSHE_CACHE_DIR")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    one = "fragment Φ01\nphase Φ01\n主人 戒 to=宾\n"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, input=one, capture_output=True, text=True, check=True
    )
    assert done.stdout.splitlines()[-1] == "False"
    assert set(entries(tmp_path / "xdg" / "xiangshe")) == ARTEFACTS


def _check(env: dict[str, str], *files: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "xiangshe", "check", "--format", "json", *map(str, files)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_runs_fill_the_cache_together_then_read_it_and_say_the_same(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    env = {k: v for k, v in os.environ.items() if k != "XIANGSHE_NO_CACHE"}
    plain = _check(env | {"XIANGSHE_NO_CACHE": "1"}, CANONICAL).communicate()
    assert plain[0] and not plain[1]
    env["XIANGSHE_CACHE_DIR"] = str(folder)
    together = [_check(env, CANONICAL) for _ in range(2)]  # both find the cache empty, both write it
    for process in together:
        assert process.communicate() == plain and process.returncode == 0
    assert set(entries(folder)) == ARTEFACTS and not list(folder.glob("*.tmp"))
    written = {name: path.stat().st_mtime_ns for name, path in entries(folder).items()}
    again = _check(env, CANONICAL)
    assert again.communicate() == plain
    assert {name: path.stat().st_mtime_ns for name, path in entries(folder).items()} == written  # read, not written
    for path in entries(folder).values():
        path.write_bytes(b"corrupt")
    assert _check(env, CANONICAL).communicate() == plain
    assert all(path.read_bytes() != b"corrupt" for path in entries(folder).values())


def test_a_warm_check_imports_neither_transitions_nor_tomllib(tmp_path: Path) -> None:
    """What the cache holds is not derived again: the libraries that derive it stay unimported."""
    code = (
        "import sys\nfrom xiangshe import verify\n"
        "try:\n    verify.cli.main(['check', '-'], standalone_mode=False)\n"
        "except SystemExit:\n    pass\n"
        "print(sorted(m for m in ('transitions', 'tomllib', 'z3', 'jinja2') if m in sys.modules))"
    )
    env = {k: v for k, v in os.environ.items() if k != "XIANGSHE_NO_CACHE"}
    env["XIANGSHE_CACHE_DIR"] = str(tmp_path / "cache")
    one = "fragment Φ01\nphase Φ01\n主人 戒 to=宾\n"
    run = [sys.executable, "-c", code]
    cold = subprocess.run(run, cwd=tmp_path, env=env, input=one, capture_output=True, text=True, check=True)
    assert cold.stdout.splitlines()[-1] == "['tomllib', 'transitions']"  # derived, and stored
    warm = subprocess.run(run, cwd=tmp_path, env=env, input=one, capture_output=True, text=True, check=True)
    assert warm.stdout.splitlines()[-1] == "[]"


@dataclass
class Mutable:
    """An instance of a dataclass that is not frozen: never one with another (either may change)."""

    values: frozenset[str]


def test_an_entry_holds_equal_strings_tuples_frozensets_and_frozen_instances_once() -> None:
    """cache.shared: equal immutable values become one object (of the same type), nothing else changes."""
    from xiangshe.constraints.pattern import Cond

    a, b = "".join(["主", "人"]), "".join(["主", "人"])
    assert a == b and a is not b
    conds = [
        Cond("actor", frozenset({a}), False),
        Cond("actor", frozenset({b}), False),
        Cond("actor", frozenset({a}), True),
    ]
    mutables = [Mutable(frozenset({a})), Mutable(frozenset({b}))]
    value = {"x": (a, 1), "y": [(b, 1), (b, True)], "conds": conds, "kept": (1.0,), "mutables": mutables}
    value["pair"] = (conds[1], Cond("actor", frozenset({b}), False))
    before = pickle.loads(pickle.dumps(value))
    assert cache.shared(value) is value and value == before
    assert value["x"] is value["y"][0] and value["x"][0] is a  # one tuple, one string
    assert value["y"][1] is not value["x"] and type(value["y"][1][1]) is bool  # (…, True) is not (…, 1)
    assert conds[0] is conds[1] and value["pair"][0] is value["pair"][1] is conds[0]  # one frozen instance
    assert conds[2] is not conds[0] and conds[2] == before["conds"][2]  # unequal instances stay apart
    assert mutables[0] is not mutables[1] and mutables[0].values is mutables[1].values  # a mutable one is kept
    stored = pickle.loads(pickle.dumps(value))
    assert stored == before and stored["x"] is stored["y"][0] and stored["conds"][0] is stored["conds"][1]
