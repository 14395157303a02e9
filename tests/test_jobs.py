"""`check --jobs N`: the report of a batch is the same, byte for byte, whatever N (the stagings are
checked in worker processes and their parts written in input order as they are done); a file that
cannot be read is reported in its place, with exit 2, as in one process. A small batch (enough for
two workers) of the bundled stagings: the canonical, the variants, some violating examples, and a
file that cannot be read in the middle."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from sampling import sample_or_slow

from xiangshe.domain.sources import Source
from xiangshe.reports.batch import PER_WORKER, processes
from xiangshe.verify import cli

ROOT = Path(__file__).resolve().parents[1]
BAD = '{"actor": "主人", "act": "揖", "act": "拜"}\n'  # a duplicate key: exit 2


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """2 × PER_WORKER + 1 stagings (a variant and the shortest violating examples: quick to check),
    numbered in the order `check` reads them, the bad one among them."""
    shortest = sorted((ROOT / "traces" / "violations").glob("*.trace"), key=lambda p: (p.stat().st_size, p.name))
    stagings = [ROOT / "traces" / "variants" / "lv-yu.trace", *shortest[: 2 * PER_WORKER - 1]]
    out = tmp_path_factory.mktemp("batch")
    for i, path in enumerate(stagings):
        shutil.copy(path, out / f"{i:03d}-{path.name}")
    (out / f"{len(stagings) // 2:03d}-bad.jsonl").write_text(BAD, encoding="utf-8")
    return out


def _check(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "xiangshe", "check", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )


#: by default the streamed text and SARIF (written once the batch is done); JSON, github and JUnit under -m slow
SAME_FORMATS = sample_or_slow(["text", "json", "github", "sarif", "junit"], lambda f: f in ("text", "sarif"), str)


@pytest.mark.parametrize("fmt", SAME_FORMATS)
def test_the_report_is_the_same_whatever_the_number_of_processes(batch: Path, fmt: str) -> None:
    one, two = (_check("--format", fmt, "--jobs", str(n), str(batch)) for n in (1, 2))
    assert processes([Source(p.name, p) for p in batch.iterdir()], 2) == 2  # two workers, really
    assert one.returncode == two.returncode == 2, (one.stderr[-500:], two.stderr[-500:])
    assert one.stdout == two.stdout
    assert one.stderr == two.stderr
    assert "bad.jsonl:1: error: duplicate key act" in two.stderr


@pytest.mark.parametrize("encoding", ["latin-1:backslashreplace", "utf-8:backslashreplace"])
def test_the_report_is_the_same_whatever_the_encoding_of_standard_output(batch: Path, encoding: str) -> None:
    """A worker sends its parts as the bytes standard output would write of them when that is UTF-8,
    and as text otherwise (here Latin-1, which the stream writes every Chinese character of as an
    escape)."""
    import os

    env = {**os.environ, "PYTHONIOENCODING": encoding}
    one, two = (
        subprocess.run(
            [sys.executable, "-m", "xiangshe", "check", "--jobs", str(n), str(batch)],
            cwd=ROOT,
            capture_output=True,
            env=env,
            timeout=600,
        )
        for n in (1, 2)
    )
    assert one.returncode == two.returncode == 2
    assert one.stdout == two.stdout and one.stderr == two.stderr
    assert ("主人".encode() in two.stdout) == encoding.startswith("utf-8")  # itself, or escaped: \u4e3b\u4eba


def test_the_stagings_are_reported_in_input_order_the_unreadable_one_in_its_place(batch: Path) -> None:
    done = _check("--format", "json", "--jobs", "2", str(batch))
    traces = json.loads(done.stdout)["traces"]
    names = [Path(t["path"]).name for t in traces]
    assert names == sorted(p.name for p in batch.iterdir())
    [bad] = [i for i, t in enumerate(traces) if "error" in t]
    assert names[bad].endswith("-bad.jsonl") and 0 < bad < len(traces) - 1
    assert all(t["ok"] == (not t["violations"]) for t in traces if "error" not in t)
    assert any(t["violations"] for t in traces) and any(t["ok"] for t in traces)


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_the_streamed_report_is_the_report_of_the_whole_batch(batch: Path, fmt: str) -> None:
    """Written staging by staging (here in this process), it is what reports/outputs.py renders of
    every result at once."""
    from xiangshe.constraints.check import check_source
    from xiangshe.constraints.lint import apply
    from xiangshe.constraints.readings import select
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.constraints.select import Selection, in_force
    from xiangshe.domain.files import display
    from xiangshe.domain.sources import expand
    from xiangshe.reports.outputs import check_output

    readings = select([])  # the default readings, as `check` follows them
    rules = active_rules(readings)
    sources = expand([str(batch)], display, None, None)
    linted = apply([check_source(s, rules, readings) for s in sources], Selection(), in_force(rules))
    whole = check_output(fmt, linted.results, rules, readings, linted)
    result = CliRunner().invoke(cli, ["check", "--isolated", "--format", fmt, "--jobs", "1", str(batch)])
    assert result.exit_code == 2
    assert result.stdout == whole + ("\n" if fmt != "github" or any(r.findings for r in linted.results) else "")


def test_a_small_batch_or_standard_input_is_checked_in_this_process() -> None:
    from xiangshe.domain.sources import stdin_source

    files = [Source(f"{i}.trace", Path(f"{i}.trace")) for i in range(3 * PER_WORKER)]
    assert processes(files, 8) == 3 and processes(files, 2) == 2 and processes(files, 1) == 1
    assert processes(files[: PER_WORKER - 1], 8) == 0
    assert processes([*files, stdin_source()], 8) == 1


def test_chunks_cover_the_batch_in_order_and_shrink_towards_its_end() -> None:
    from xiangshe.reports.batch import CHUNK, spans

    parts = spans(1000, 2)
    sizes = [stop - start for start, stop in parts]
    assert [i for start, stop in parts for i in range(start, stop)] == list(range(1000))
    assert sizes[0] == CHUNK and sizes == sorted(sizes, reverse=True) and sizes[-8:] == [1] * 8
    assert sizes[0] > 1 and spans(20, 2)[0] == (0, 2)  # a small batch: small chunks from the start


def test_input_errors_cross_to_and_from_worker_processes() -> None:
    """What a worker sends back pickles and comes back equal (an exception whose arguments are not
    its constructor's once made the pool hang, waiting for a result it could not read)."""
    import pickle

    from xiangshe.domain.errors import InputError, RulebookError, TraceError, UsageError
    from xiangshe.domain.messages import Message
    from xiangshe.domain.parse import TraceErrors

    errors = [
        TraceError("a.trace", 3, "unknown act", "宾 飞", "did you mean 升", 4),
        RulebookError("rules/x.md", 9, "bad kind"),
        UsageError(Message("usage.report-directory"), "plans"),
        InputError("b.trace", None, "no such file"),
    ]
    for err in [*errors, TraceErrors(errors[:2], more=5)]:
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is type(err) and back.render("en") == err.render("en") and back.args == err.args


def test_a_batch_in_two_processes_with_an_unreadable_file_ends(tmp_path: Path) -> None:
    """More stagings than stay in one process, and a name that does not exist: exit 2, not a hang."""
    for i in range(2 * PER_WORKER + 2):
        shutil.copy(ROOT / "traces" / "violations" / "bu-guan-bu-shi.trace", tmp_path / f"v{i:02d}.trace")
    done = subprocess.run(
        [sys.executable, "-m", "xiangshe", "check", "--format", "json", "--jobs", "2", str(tmp_path), "missing.trace"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2, done.stderr[-800:]
    assert "missing.trace: error: no such file" in done.stderr
    assert len(json.loads(done.stdout)["traces"]) == 2 * PER_WORKER + 3


def test_workers_are_forked_only_on_linux_from_a_process_without_other_threads() -> None:
    """A fork copies the locks another thread holds, held for ever in the copy: spawned instead."""
    import threading

    from xiangshe.constraints.workers import forked

    if threading.active_count() == 1:
        assert forked() == sys.platform.startswith("linux")
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert not forked()
    finally:
        release.set()
        other.join()


# -- the workers themselves (constraints/workers.py in_order) -------------------------------------------


def _square(n: int) -> int:
    if n == 13:
        raise ValueError("thirteen")
    if n == 666:
        import os

        os._exit(3)  # a worker killed half-way
    return n * n


def test_in_order_answers_each_task_in_order_whichever_worker_did_it() -> None:
    from xiangshe.constraints.workers import in_order

    assert list(in_order(2, _square, list(range(12)), fork=True)) == [n * n for n in range(12)]
    assert list(in_order(3, _square, [5], fork=True)) == [25]  # fewer tasks than workers
    assert list(in_order(2, _square, [], fork=True)) == []


def test_in_order_raises_a_tasks_exception_in_its_place_and_stops_its_workers() -> None:
    import multiprocessing

    from xiangshe.constraints.workers import in_order

    answers = in_order(2, _square, list(range(20)), fork=True)
    got = []
    with pytest.raises(ValueError, match="thirteen"):
        for a in answers:
            got.append(a)
    assert got == [n * n for n in range(13)]  # every answer before it, in order
    assert multiprocessing.active_children() == []


def test_a_worker_that_dies_is_an_error_not_a_wait_for_ever() -> None:
    import multiprocessing

    from xiangshe.constraints.workers import WorkerDied, in_order

    with pytest.raises(WorkerDied):
        list(in_order(2, _square, [1, 2, 666, 4, 5, 6], fork=True))
    assert multiprocessing.active_children() == []


def test_a_batch_stopped_half_way_stops_its_workers(batch: Path) -> None:
    """The report's consumer gone (a closed pipe, a Ctrl-C): its workers are terminated at once, not
    left until the generator is collected."""
    import multiprocessing

    from xiangshe.constraints.readings import select
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.constraints.select import Selection
    from xiangshe.domain.files import display
    from xiangshe.domain.sources import expand
    from xiangshe.reports.batch import Settings, checked

    readings = select([])
    sources = expand([str(batch)], display, None, None)
    done = checked(sources, Settings(readings, Selection(), "json"), active_rules(readings), 2)
    assert next(done).part is not None
    assert len(multiprocessing.active_children()) == 2
    done.close()
    assert multiprocessing.active_children() == []


def test_spawned_workers_report_the_same_batch(batch: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where workers cannot be forked (macOS, Windows, another thread running), they are spawned: each
    loads what it needs, and is given the batch's list once; the report is the same."""
    from xiangshe.constraints import workers

    monkeypatch.setattr(workers, "forked", lambda: False)
    one, two = (
        CliRunner().invoke(cli, ["check", "--isolated", "--format", "json", "--jobs", str(n), str(batch)])
        for n in (1, 2)
    )
    assert one.exit_code == two.exit_code == 2
    assert one.stdout == two.stdout and one.stderr == two.stderr
