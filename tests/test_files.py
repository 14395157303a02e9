"""domain/files.py and domain/sources.named, called directly: what the commands write and read, and
the bad input each refuses (a UsageError: exit 2 on the command line)."""

from __future__ import annotations

from pathlib import Path

import pytest

from xiangshe.domain import sources
from xiangshe.domain.bundled import CANONICAL
from xiangshe.domain.errors import UsageError
from xiangshe.domain.files import display, report_path, save


def test_display_is_relative_to_the_working_directory_below_it(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    assert display(tmp_path / "a" / "b.trace") == "a/b.trace"
    assert display(Path("/elsewhere/b.trace")) == "/elsewhere/b.trace"


def test_save_never_replaces_a_file_unless_forced(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out.trace"
    save(out, "one")
    with pytest.raises(UsageError) as err:
        save(out, "two")
    assert err.value.render() == "out.trace: error: the file exists; choose another name or use --force"
    with pytest.raises(UsageError, match="the file exists; choose another name$"):
        save(out, "two", force=None)  # a command without --force does not offer it
    assert out.read_text(encoding="utf-8") == "one"
    save(out, "two", force=True)
    assert out.read_text(encoding="utf-8") == "two"


def test_save_reports_a_file_it_cannot_write(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError, match=r"^no/such\.trace: error: cannot write: No such file or directory$"):
        save(Path("no/such.trace"), "x")


def test_report_path_makes_the_default_directory_and_wants_the_given_one(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    assert report_path(None, Path("reports/a.html")) == Path("reports/a.html") and Path("reports").is_dir()
    assert report_path(Path("b.html"), Path("reports/a.html")) == Path("b.html")
    with pytest.raises(UsageError, match="^none/b.html: error: no such directory none$"):
        report_path(Path("none/b.html"), Path("reports/a.html"))
    Path("file").write_text("", encoding="utf-8")
    with pytest.raises(UsageError, match="^file: error: cannot make the directory for the report: .*; choose another"):
        report_path(None, Path("file/a.html"))


def test_named_files_are_expanded_and_no_file_is_the_canonical_ceremony(monkeypatch) -> None:
    [s] = sources.named(("traces/canonical.trace",), None, None, str, CANONICAL)
    assert s.display == "traces/canonical.trace" and s.fmt == "trace"
    monkeypatch.setattr(sources, "stdin_state", lambda: "none")
    [s] = sources.named((), None, None, lambda p: "CANON:" + p.name, CANONICAL)
    assert s.path == CANONICAL and s.display == "CANON:canonical.trace"


@pytest.mark.parametrize(
    ("state", "said"), [("data", "standard input has data"), ("silent", "standard input is an open pipe")]
)
def test_named_refuses_to_ignore_standard_input(monkeypatch, state: str, said: str) -> None:
    monkeypatch.setattr(sources, "stdin_state", lambda: state)
    with pytest.raises(UsageError, match=f"^error: {said}"):
        sources.named((), None, None, str, CANONICAL)


@pytest.mark.parametrize(
    ("fmt", "name", "option"), [("jsonl", None, "--stdin-format"), (None, "x", "--stdin-filename")]
)
def test_named_refuses_stdin_options_without_dash(fmt, name, option: str) -> None:
    with pytest.raises(UsageError, match=f"^error: {option} is for `-`"):
        sources.named(("traces/canonical.trace",), fmt, name, str, CANONICAL)
    [s] = sources.named(("-",), fmt, name, str, CANONICAL)
    assert s.is_stdin and s.display == (name or "<stdin>") and s.fmt == (fmt or "trace")
