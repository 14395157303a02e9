"""What a short `check` spends before and after checking (issue 15, canonical_s): the modules it
imports, the worker processes' imports, and the collector (domain/gcpause.py `own_process`, reports/batch.py
`_start`). Figures are measured by benchmarks/startup.py, not here."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from xiangshe.verify import cli

ROOT = Path(__file__).resolve().parents[1]
CANONICAL = ROOT / "traces" / "canonical.trace"
#: what a plain `check` has no use for: the solver, the HTML report, the schemas' validator, the
#: libraries that derive the cached artefacts, the YAML reader, the package's metadata, the pool,
#: the writer of the cache's entries (pickle: _pickle reads them) and SHA-256 (their keys hash with
#: importlib.util.source_hash; domain/text.py takes the text's own hash only when it is asked for)
NOT_FOR_CHECK = (
    "hashlib",
    "pickle",
    "tempfile",
    "signal",  # reports/interrupt.py calls _signal, the C module under it
    "xiangshe.reports.commands.solving",  # the other commands' modules: imported by their commands
    "xiangshe.reports.commands.repairing",
    "z3",
    "jinja2",
    "rich",
    "jsonschema",
    "transitions",
    "tomllib",
    "yaml",
    "opencc",
    "importlib.metadata",
    "multiprocessing",
)


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "XIANGSHE_NO_CACHE"}
    env["XIANGSHE_CACHE_DIR"] = str(tmp_path / "cache")
    return env


def _imported(args: list[str], env: dict[str, str]) -> set[str]:
    """The modules a whole process imports (python -X importtime), run in the checkout."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode in (0, 1), done.stderr[-2000:]
    return {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}


def test_a_plain_check_imports_nothing_it_does_not_use(tmp_path: Path) -> None:
    env = _env(tmp_path)
    args = ["-m", "xiangshe", "check", str(CANONICAL)]
    _imported(args, env)  # the first run derives and stores the cached artefacts
    warm = _imported(args, env)
    assert "xiangshe.constraints.check" in warm  # the probe sees the process's imports
    assert sorted(m for m in NOT_FOR_CHECK if m in warm) == []


def test_a_worker_imports_no_click(tmp_path: Path) -> None:
    """A worker of `check --jobs` checks and renders; the process that started it writes."""
    code = (
        "import sys\nfrom pathlib import Path\nfrom xiangshe.reports import batch\n"
        "from xiangshe.constraints.lint import chosen\nfrom xiangshe.domain.sources import Source\n"
        "_, selection = chosen(Path.cwd(), None, True, (), (), str)\n"  # no configuration, nothing selected
        "batch._start(batch.Settings({}, selection, 'json'))\n"
        f"done = batch._one(Source('canonical.trace', Path({str(CANONICAL)!r})))\n"
        "print(done.part is not None, 'click' in sys.modules, __import__('gc').get_freeze_count() > 0)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=_env(tmp_path), capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["True", "False", "True"]  # rendered; no click; its rulebook frozen


def test_the_command_lines_process_freezes_what_it_loaded(tmp_path: Path) -> None:
    """The process of the command line moves its modules and rulebook out of the collector's sight."""
    code = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 1000))\n"
        f"sys.argv = ['xiangshe', 'check', {str(CANONICAL)!r}]\n"
        "from xiangshe.verify import main\nmain()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=_env(tmp_path), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[-1] == "frozen True"


def test_a_check_called_in_process_leaves_the_collector_alone(monkeypatch) -> None:
    """A program (or a test) that calls the command in-process keeps its collector as it was, even after
    it ran the command line's `run` in-process once (as tests/test_cli_support.py does): `run` says
    this process is the command line's only while its command runs."""
    from xiangshe.reports.cli import run

    monkeypatch.setattr("sys.argv", ["xiangshe", "--help"])
    with pytest.raises(SystemExit):
        run(cli)
    before = gc.get_freeze_count()
    result = CliRunner().invoke(cli, ["check", str(CANONICAL)])
    assert result.exit_code == 0, result.output
    assert gc.get_freeze_count() <= before  # nothing frozen (a frozen object freed meanwhile leaves the count)


def test_a_cache_entry_is_frozen_only_in_the_command_lines_process(tmp_path: Path) -> None:
    """domain/cache.py: an entry read from the cache joins a frozen start-up in the command line's own
    process (domain/gcpause.py `own_process`), before a collection of the young objects walks it;
    elsewhere the collector is left alone, even where the program froze something itself (a test worker
    that ran the command line before, say)."""
    code = (
        "import gc, sys\nfrom xiangshe.constraints.rulebook import rulebook\n"
        "from xiangshe.domain import gcpause\n"
        "if sys.argv[1] == 'own':\n    gcpause.own_process()\n"
        "if sys.argv[1] == 'other':\n    gc.freeze()\n"
        "before = gc.get_freeze_count()\nrulebook()\nprint(before, gc.get_freeze_count())"
    )
    env = _env(tmp_path)
    subprocess.run([sys.executable, "-c", code, "plain"], cwd=tmp_path, env=env, check=True)  # stores the entry

    def counts(mode: str) -> tuple[int, int]:
        done = subprocess.run(
            [sys.executable, "-c", code, mode], cwd=tmp_path, env=env, capture_output=True, text=True, check=True
        )
        before, after = map(int, done.stdout.split())
        return before, after

    assert counts("plain") == (0, 0)
    before, after = counts("other")
    assert before > 0 and after == before  # the program's own freeze, and nothing of ours added to it
    before, after = counts("own")
    assert after - before > 5_000  # the rulebook's objects (8,000 or so: cache.shared makes equal ones one)


def test_loading_pauses_the_collector_and_freezes_only_in_the_command_lines_process() -> None:
    """domain/gcpause.py `loading`: the collector is paused inside and as it was after; what was made
    inside is frozen only in the command line's own process (`python -m xiangshe` imports it so)."""
    from xiangshe.domain import gcpause

    assert gc.isenabled()
    before = gc.get_freeze_count()
    with gcpause.loading():
        assert not gc.isenabled()
        made = [[i] for i in range(1000)]
    assert gc.isenabled() and gc.get_freeze_count() <= before  # nothing frozen: not the command line's process
    code = (
        "import gc\nfrom xiangshe.domain import gcpause\ngcpause.own_process()\nbefore = gc.get_freeze_count()\n"
        "with gcpause.loading():\n    made = [[i] for i in range(1000)]\n"
        "print(gc.isenabled(), gc.get_freeze_count() - before >= 1000)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "True"]
    assert len(made) == 1000
