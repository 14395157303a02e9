"""reports/cli.py, called directly: the exit statuses of the command line (2 bad input, 70 a bug in
xiangshe, documented in verify.py's help, the README and docs/workflows.md) and the conversion of
the checker's input errors."""

from __future__ import annotations

import click
import pytest

from xiangshe.domain.errors import InputError, UsageError
from xiangshe.domain.messages import Message
from xiangshe.reports.cli import BadInput, located, run


def _group(exc: BaseException) -> click.Group:
    @click.group()
    def group() -> None:
        pass

    @group.command()
    def boom() -> None:
        raise exc

    return group


def _run(monkeypatch, exc: BaseException, capsys) -> tuple[int, str]:
    monkeypatch.setattr("sys.argv", ["xiangshe", "boom"])
    with pytest.raises(SystemExit) as done:
        run(_group(exc))
    return done.value.code, capsys.readouterr().err


def test_a_bug_is_one_line_and_exit_70(monkeypatch, capsys) -> None:
    monkeypatch.delenv("XIANGSHE_DEBUG", raising=False)
    code, err = _run(monkeypatch, KeyError("x"), capsys)
    assert code == 70
    assert err == "xiangshe: internal error: KeyError: 'x' (set XIANGSHE_DEBUG=1 for the traceback)\n"


def test_xiangshe_debug_raises_the_bug(monkeypatch) -> None:
    monkeypatch.setenv("XIANGSHE_DEBUG", "1")
    monkeypatch.setattr("sys.argv", ["xiangshe", "boom"])
    with pytest.raises(KeyError):
        run(_group(KeyError("x")))


def test_input_errors_and_too_much_input_exit_2(monkeypatch, capsys) -> None:
    code, err = _run(monkeypatch, InputError("rules.md", 3, "broken"), capsys)
    assert code == 2 and err == "rules.md:3: error: broken\n"
    code, err = _run(monkeypatch, MemoryError(), capsys)
    assert code == 2 and "out of memory" in err


def test_located_turns_input_errors_into_bad_input_exit_2() -> None:
    def bad() -> None:
        raise UsageError(Message("usage.force-without-baseline"))

    with pytest.raises(BadInput) as err:
        located(bad)
    message = err.value.message
    assert (
        err.value.exit_code == 2
        and message == "error: --force goes with --write-baseline (check never writes otherwise)"
    )
    assert message.render("zh").startswith("错误: --force 须与")
    assert located(lambda x, y=0: x + y, 1, y=2) == 3
