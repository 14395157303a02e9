"""Terminal niceties of `check`: colour only on a terminal (NO_COLOR, --color/--no-color) and a
progress bar on stderr only when stderr is a terminal and the batch is long (or --progress).
The terminal cases run the program under a pseudo-terminal.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from xiangshe.reports.progress import MANY
from xiangshe.verify import cli

ROOT = Path(__file__).resolve().parents[1]
BAD = "traces/violations/bu-guan-bu-shi.trace"
MANY_FILES = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "traces" / "violations").glob("*.trace"))][: MANY + 2]
ESC = "\x1b["


def invoke(*args: str, env: dict | None = None):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, env=env)


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def under_tty(args: list[str], stream: str, env: dict | None = None) -> tuple[int, str, str]:
    """Run `verify.py ARGS` with `stream` (stdout or stderr) on a pseudo-terminal; the other piped.
    Returns the exit code, what the terminal got, and what the pipe got."""
    master, slave = os.openpty()
    kwargs = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, stream: slave}
    environ = {k: v for k, v in os.environ.items() if k != "NO_COLOR"} | (env or {})
    proc = subprocess.run([sys.executable, "-m", "xiangshe", *args], cwd=ROOT, env=environ, **kwargs)
    os.close(slave)
    chunks = []
    try:
        while chunk := os.read(master, 65536):
            chunks.append(chunk)
    except OSError:  # EIO: the terminal's other end is closed
        pass
    os.close(master)
    piped = proc.stderr if stream == "stdout" else proc.stdout
    return proc.returncode, b"".join(chunks).decode("utf-8", "replace"), piped.decode("utf-8")


# -- colour ------------------------------------------------------------------------------------


def test_piped_output_has_no_colour() -> None:
    result = invoke("check", BAD)
    assert result.exit_code == 1 and "error:" in result.stdout
    assert ESC not in result.stdout and ESC not in result.stderr


def test_color_forces_colour_and_no_color_removes_it() -> None:
    coloured = invoke("check", BAD, "--color").stdout
    assert f"{ESC}31m" in coloured and f"{ESC}0m" in coloured  # error in red
    assert ESC not in invoke("check", BAD, "--no-color").stdout
    ok = invoke("check", "--color").stdout
    assert f"{ESC}32m" in ok and "ok: 1 trace" in ok  # ok in green


def test_colour_changes_nothing_but_the_escapes() -> None:
    import re

    plain = invoke("check", BAD, "--scoring").stdout
    coloured = invoke("check", BAD, "--scoring", "--color").stdout
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


def test_other_formats_are_never_coloured() -> None:
    for fmt in ("json", "sarif", "junit"):
        assert ESC not in invoke("check", BAD, "--format", fmt, "--color").stdout


def test_a_terminal_gets_colour_unless_no_color() -> None:
    code, tty, _ = under_tty(["check", BAD], "stdout")
    assert code == 1 and f"{ESC}31m" in tty
    code, tty, _ = under_tty(["check", BAD], "stdout", {"NO_COLOR": "1"})
    assert code == 1 and "error:" in tty and ESC not in tty


# -- progress ----------------------------------------------------------------------------------


def test_no_progress_on_a_non_terminal() -> None:
    result = invoke("check", *MANY_FILES)
    assert result.exit_code == 1 and result.stderr == ""


def test_a_terminal_gets_a_bar_for_many_files() -> None:
    code, tty, piped = under_tty(["check", *MANY_FILES], "stderr")
    assert code == 1
    assert f"[{'#' * 10}" in tty and f"{len(MANY_FILES)}/{len(MANY_FILES)}" in tty
    assert ESC not in piped and "[#" not in piped  # stdout stays clean


def test_few_files_get_no_bar_unless_forced() -> None:
    _, tty, _ = under_tty(["check", BAD], "stderr")
    assert "checking" not in tty
    _, tty, _ = under_tty(["check", BAD, "--progress"], "stderr")
    assert "checking" in tty and "1/1" in tty
    _, tty, _ = under_tty(["check", *MANY_FILES, "--no-progress"], "stderr")
    assert "checking" not in tty
