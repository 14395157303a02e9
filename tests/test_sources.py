"""Where stagings come from: standard input (`-`, and what `check` does with no FILE when stdin is a
pipe, a file, a terminal, /dev/null or closed — as real processes, not only CliRunner), directories,
reads bounded on pipes, FIFOs and devices, and one bad file reported in its place, never hiding the
others, in every output format.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
import sarif as sarif_schema
from click.testing import CliRunner

from xiangshe import schemas
from xiangshe.domain import sources
from xiangshe.domain.parse import MAX_BYTES, READERS, TraceErrors, parse_file, read_bounded
from xiangshe.verify import STDIN_FORMATS, cli

ROOT = Path(__file__).resolve().parents[1]
CANONICAL = ROOT / "traces" / "canonical.trace"
VIOLATION = ROOT / "traces" / "violations" / "bu-guan-bu-shi.trace"
POSIX = pytest.mark.skipif(os.name != "posix", reason="pipes, FIFOs, ptys and /dev are POSIX")
SHORT = "fragment\n主人 揖\n主人 拜 to=宾 n=2\n"  # a part of the ceremony, declared so
BAD = "主人 揖\n主人 献爵 爵\n"  # line 2: unknown act


def run(*args: str, cwd: Path = ROOT, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    """`xiangshe ARGS` as a real process; stdin as given in kwargs (else /dev/null)."""
    kwargs.setdefault("stdin", subprocess.DEVNULL if "input" not in kwargs else None)
    if kwargs["stdin"] is None:
        del kwargs["stdin"]
    env = {k: v for k, v in os.environ.items() if k != "XIANGSHE_LANG"}
    return subprocess.run(
        [sys.executable, "-m", "xiangshe", *args], cwd=cwd, capture_output=True, timeout=timeout, env=env, **kwargs
    )


def invoke(*args: str, input: bytes | str | None = None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


# -- no FILE: the canonical ceremony only when standard input holds nothing -------------------------

N_CANONICAL = len(parse_file(CANONICAL).events)
CANONICAL_OK = f"ok: 1 trace, {N_CANONICAL} events, no violations".encode()


@POSIX
def test_no_file_and_stdin_at_dev_null_checks_the_canonical() -> None:
    out = run("check")  # stdin=/dev/null, as CI runs it
    assert out.returncode == 0 and CANONICAL_OK in out.stdout, out.stderr


@POSIX
def test_no_file_and_an_empty_closed_pipe_checks_the_canonical() -> None:
    out = run("check", input=b"")  # `true | xiangshe check`
    assert out.returncode == 0 and CANONICAL_OK in out.stdout, out.stderr


@POSIX
def test_no_file_and_stdin_closed_checks_the_canonical() -> None:
    out = run("check", stdin=None, preexec_fn=lambda: os.close(0))  # `xiangshe check <&-`
    assert out.returncode == 0 and CANONICAL_OK in out.stdout, out.stderr


@POSIX
def test_no_file_and_an_empty_file_on_stdin_checks_the_canonical(tmp_path: Path) -> None:
    empty = tmp_path / "empty.trace"
    empty.write_bytes(b"")
    with empty.open("rb") as f:
        out = run("check", stdin=f)
    assert out.returncode == 0 and CANONICAL_OK in out.stdout, out.stderr


@POSIX
def test_no_file_and_a_terminal_on_stdin_checks_the_canonical() -> None:
    master, slave = os.openpty()
    try:
        out = run("check", stdin=slave)  # the README's first command, typed
    finally:
        os.close(slave)
        os.close(master)
    assert out.returncode == 0 and CANONICAL_OK in out.stdout, out.stderr


@POSIX
def test_no_file_and_piped_data_is_refused_not_a_false_pass() -> None:
    out = run("check", input=BAD.encode())  # `cat bad.trace | xiangshe check`
    assert out.returncode == 2, out.stdout
    assert out.stderr.decode().startswith("error: standard input has data but no FILE was given; to check it, pass -")
    assert out.stdout == b""


@POSIX
def test_no_file_and_a_file_with_data_on_stdin_is_refused(tmp_path: Path) -> None:
    plan = tmp_path / "plan.trace"
    plan.write_text(BAD, encoding="utf-8")
    with plan.open("rb") as f:
        out = run("check", stdin=f)  # `xiangshe check < plan.trace`
    assert out.returncode == 2 and b"pass -" in out.stderr and out.stdout == b""


@POSIX
def test_no_file_and_dev_zero_on_stdin_is_refused() -> None:
    with open("/dev/zero", "rb") as f:
        out = run("check", stdin=f, timeout=60)
    assert out.returncode == 2 and b"standard input has data" in out.stderr


@POSIX
def test_no_file_and_an_open_silent_pipe_is_refused_after_a_wait() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "xiangshe", "check"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        code = proc.wait(timeout=120)  # the pipe stays open and says nothing
        err = proc.stderr.read().decode()
    finally:
        proc.stdin.close()
        proc.stdout.close()
        proc.stderr.close()
    assert code == 2, err
    assert err.startswith(f"error: standard input is an open pipe that sent nothing within {sources.STDIN_WAIT:g} s"), (
        err
    )


@pytest.mark.parametrize(
    ("stream", "expected"),
    [
        (io.BytesIO(b""), "none"),
        (io.BytesIO(b"x"), "data"),
        (None, None),
    ],
)
def test_stdin_state_of_in_memory_streams(monkeypatch: pytest.MonkeyPatch, stream, expected) -> None:
    if stream is None:
        monkeypatch.setattr(sys, "stdin", None)
        assert sources.stdin_state() == "none"
    else:
        assert sources.stdin_state(stream) == expected


def test_cli_runner_without_input_still_checks_the_canonical() -> None:
    result = invoke("check")
    assert result.exit_code == 0 and f"ok: 1 trace, {N_CANONICAL} events" in result.stdout


# -- `-`: standard input as a FILE --------------------------------------------------------------


@POSIX
def test_dash_reads_a_pipe_and_names_it() -> None:
    out = run("check", "-", "--format", "json", input=VIOLATION.read_bytes())
    doc = json.loads(out.stdout)
    assert out.returncode == 1
    [trace] = doc["traces"]
    assert trace["path"] == "<stdin>" and [v["line"] for v in trace["violations"]] == [40]
    named = run("check", "-", "--stdin-filename", "plans/b.trace", input=VIOLATION.read_bytes())
    assert named.returncode == 1 and b"plans/b.trace:40: error: " in named.stdout


@pytest.mark.parametrize("fmt", STDIN_FORMATS)
def test_dash_reads_each_format(fmt: str) -> None:
    text = {
        "trace": SHORT,
        "jsonl": '{"fragment": ""}\n{"actor": "主人", "act": "揖"}\n'
        '{"actor": "主人", "act": "拜", "to": "宾", "n": "2"}\n',
        "json": '[{"fragment": ""}, {"actor": "主人", "act": "揖"},\n'
        ' {"actor": "主人", "act": "拜", "to": "宾", "n": 2}]\n',
        "yaml": "- {fragment: ''}\n- {actor: 主人, act: 揖}\n- {actor: 主人, act: 拜, to: 宾, n: 2}\n",
    }[fmt]
    result = invoke("check", "-", "--stdin-format", fmt, input=text)
    assert result.exit_code == 0 and "ok: 1 trace, 2 events" in result.stdout, result.output
    wrong = "trace" if fmt != "trace" else "json"  # the format says how to read it
    assert invoke("check", "-", "--stdin-format", wrong, input=text).exit_code == 2


@pytest.mark.parametrize(
    ("name", "ok"), [("plan.yaml", True), ("plan.YML", True), ("plan.trace", False), ("plan.txt", False)]
)
def test_dash_format_follows_the_stdin_filename(name: str, ok: bool) -> None:
    """Without --stdin-format, a staging suffix of --stdin-filename chooses the reader, else trace."""
    result = invoke("check", "-", "--stdin-filename", name, input="- {fragment: ''}\n- {actor: 主人, act: 揖}\n")
    assert result.exit_code == (0 if ok else 2), result.output
    if not ok:
        assert result.stderr.startswith(f"{name}:1: error: unknown person -")  # read as a .trace


def test_stdin_format_wins_over_the_stdin_filename() -> None:
    result = invoke("check", "-", "--stdin-format", "trace", "--stdin-filename", "plan.yaml", input=SHORT)
    assert result.exit_code == 0, result.output


def test_dash_among_files_keeps_its_place() -> None:
    result = invoke("check", "--format", "json", str(VIOLATION.relative_to(ROOT)), "-", str(CANONICAL), input=SHORT)
    paths = [t["path"] for t in json.loads(result.stdout)["traces"]]
    assert paths[1] == "<stdin>" and len(paths) == 3


@POSIX
def test_dash_refuses_dev_zero_and_dev_urandom() -> None:
    for device in ("/dev/zero", "/dev/urandom"):
        if not Path(device).exists():
            pytest.skip(f"no {device}")
        with open(device, "rb") as f:
            out = run("check", "-", stdin=f, timeout=60)
        assert out.returncode == 2 and out.stderr.startswith(b"<stdin>:"), (device, out.stderr[:200])
        assert b"binary file" in out.stderr or f"the limit is {MAX_BYTES}".encode() in out.stderr


@POSIX
def test_a_pipe_past_the_limit_is_refused_after_reading_at_most_the_limit() -> None:
    """A writer that would send MAX_BYTES + 16 MiB (text, no NUL) into `check -`: refused, and the
    writer could push no more than the limit and a pipe's buffer before the reader stopped."""
    mib = 1 << 20
    writer_code = (
        "import os, sys\n"
        f"chunk = (b'#' * 1023 + b'\\n') * 1024\n"
        "total = 0\n"
        "try:\n"
        f"    for _ in range({MAX_BYTES // mib + 16}):\n"
        "        sys.stdout.buffer.write(chunk); sys.stdout.buffer.flush(); total += len(chunk)\n"
        "except BrokenPipeError:\n"
        "    pass\n"
        "sys.stderr.write(str(total)); sys.stderr.flush(); os._exit(0)\n"
    )
    writer = subprocess.Popen([sys.executable, "-c", writer_code], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    reader = subprocess.Popen(
        [sys.executable, "-m", "xiangshe", "check", "-"],
        cwd=ROOT,
        stdin=writer.stdout,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    writer.stdout.close()  # only the reader holds the pipe's read end
    out, err = reader.communicate(timeout=120)
    _, written = writer.communicate(timeout=120)
    assert reader.returncode == 2, err[:300]
    assert err.decode().startswith(f"<stdin>:1: error: more than {MAX_BYTES} bytes; the limit is {MAX_BYTES}")
    assert MAX_BYTES < int(written) <= MAX_BYTES + 1 + 2 * mib, int(written)


class Endless(io.RawIOBase):
    """A stream that never ends (as /dev/zero, but text), counting what it hands out."""

    def __init__(self, byte: bytes = b"#") -> None:
        self.byte, self.served = byte, 0

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        n = len(b)
        b[:n] = self.byte * n
        self.served += n
        return n


def test_an_endless_stream_is_read_to_the_limit_plus_one_and_no_further() -> None:
    raw = Endless()
    with pytest.raises(TraceErrors) as err:
        read_bounded(raw, "endless")
    assert f"the limit is {MAX_BYTES}" in err.value.render()
    assert raw.served == MAX_BYTES + 1
    zeros = Endless(b"\x00")
    with pytest.raises(TraceErrors) as err:
        read_bounded(zeros, "zeros")
    assert "binary file" in err.value.render() and zeros.served <= 8192


def test_max_input_size_sets_the_limit_both_ways(tmp_path: Path) -> None:
    """`--max-input-size` is the limit: a file of SIZE bytes passes, one byte less refuses it (exit 2, a
    located message that names the option); the same for standard input."""
    path = tmp_path / "short.trace"
    path.write_text(SHORT, encoding="utf-8")
    size = path.stat().st_size
    result = CliRunner().invoke(cli, ["check", str(path), "--max-input-size", str(size)])
    assert result.exit_code == 0, result.output
    for args, stdin in (([str(path)], None), (["-"], SHORT)):
        result = CliRunner().invoke(cli, ["check", *args, "--max-input-size", str(size - 1)], input=stdin)
        assert result.exit_code == 2, result.output
        where = "<stdin>" if stdin else str(path)
        assert result.stderr.startswith(f"{where}:1: error: "), result.stderr
        assert f"the limit is {size - 1}" in result.stderr and "--max-input-size" in result.stderr, result.stderr


def test_max_input_size_lifts_the_default_limit(tmp_path: Path) -> None:
    """A file over 64 MiB is refused for its size by default, and read with a larger --max-input-size (this
    one, sparse, is then refused as binary: what is read is read as before)."""
    path = tmp_path / "huge.trace"
    with path.open("wb") as f:
        f.truncate(MAX_BYTES + 1)
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 2 and f"the limit is {MAX_BYTES}" in result.stderr, result.stderr
    assert "--max-input-size" in result.stderr
    for size in ("65M", "65MiB", "1g", str(MAX_BYTES + 1)):
        result = CliRunner().invoke(cli, ["check", str(path), "--max-input-size", size])
        assert result.exit_code == 2 and "binary file" in result.stderr, (size, result.stderr)
        assert "the limit is" not in result.stderr, (size, result.stderr)
    assert sources.parse_size("200M") == 200 << 20 and sources.parse_size("64 MiB") == MAX_BYTES
    assert [sources.Source("x", path, limit=n).limit for n in (1, MAX_BYTES)] == [1, MAX_BYTES]


@pytest.mark.parametrize("size", ["", "0", "-5", "1.5M", "12X", "M", "200MM", "ten"])
def test_a_malformed_max_input_size_is_a_usage_error(size: str) -> None:
    result = CliRunner().invoke(cli, ["check", str(CANONICAL), "--max-input-size", size])
    assert result.exit_code == 2, result.output
    assert "--max-input-size" in result.output and "is not a size" in result.output, result.output
    with pytest.raises(ValueError, match="is not a size"):
        sources.parse_size(size)


@POSIX
def test_special_files_named_as_stagings_are_read_bounded(tmp_path: Path) -> None:
    for device in ("/dev/zero", "/dev/urandom"):
        if not Path(device).exists():
            pytest.skip(f"no {device}")
        link = tmp_path / f"{Path(device).name}.trace"
        link.symlink_to(device)
        out = run("check", str(link), timeout=60)
        assert out.returncode == 2 and out.stderr.decode().startswith(f"{link}:"), out.stderr[:200]


def _feed_fifo(fifo: Path, data_chunks, done: list) -> None:
    written = 0
    try:
        with fifo.open("wb") as f:
            for chunk in data_chunks:
                f.write(chunk)
                written += len(chunk)
    except BrokenPipeError:
        pass
    done.append(written)


@POSIX
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_read_and_a_fifo_past_the_limit_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "plan.trace"
    os.mkfifo(fifo)
    done: list[int] = []
    feeder = threading.Thread(target=_feed_fifo, args=(fifo, [SHORT.encode()], done), daemon=True)
    feeder.start()
    out = run("check", str(fifo), timeout=60)
    feeder.join(30)
    assert out.returncode == 0 and b"ok: 1 trace, 2 events" in out.stdout, out.stderr
    mib = 1 << 20
    chunk = (b"#" * 1023 + b"\n") * 1024
    done.clear()
    feeder = threading.Thread(target=_feed_fifo, args=(fifo, [chunk] * (MAX_BYTES // mib + 16), done), daemon=True)
    feeder.start()
    out = run("check", str(fifo), timeout=120)
    feeder.join(60)
    assert out.returncode == 2 and f"the limit is {MAX_BYTES}".encode() in out.stderr, out.stderr[:300]
    assert done and done[0] <= MAX_BYTES + 1 + 2 * mib


@POSIX
def test_dash_with_stdin_closed_is_bad_input_in_its_place() -> None:
    out = run("check", "-", str(CANONICAL), stdin=None, preexec_fn=lambda: os.close(0))
    assert out.returncode == 2, out.stderr
    assert out.stderr.startswith(b"<stdin>: error: cannot read: standard input is closed")
    assert (
        f"bad input: 1 of 2 traces could not be read; the other 1: no violations ({N_CANONICAL} events)".encode()
        in out.stdout
    )


def test_dash_twice_and_stdin_options_without_dash_are_refused() -> None:
    assert invoke("check", "-", "-", input=SHORT).exit_code == 2
    assert invoke("check", str(CANONICAL), "--stdin-filename", "x.trace").exit_code == 2


# -- report - ------------------------------------------------------------------------------------


def test_report_reads_standard_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["report", "-", "--stdin-filename", "plans/b.trace"], input=VIOLATION.read_bytes())
    assert result.exit_code == 1, result.output
    page = (tmp_path / "reports" / "b.html").read_text(encoding="utf-8")
    assert "plans/b.trace" in page
    result = CliRunner().invoke(
        cli, ["report", "-", "--stdin-format", "json"], input='[{"fragment": ""}, {"actor": "主人", "act": "揖"}]'
    )
    assert result.exit_code == 0 and (tmp_path / "reports" / "stdin.html").exists(), result.output
    bad = CliRunner().invoke(cli, ["report", "-"], input=BAD)
    assert bad.exit_code == 2 and bad.stderr.startswith("<stdin>:2: error: unknown act 献爵")


def test_report_refuses_a_directory_and_an_unknown_suffix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plans").mkdir()
    (tmp_path / "plan.toml").write_text(SHORT, encoding="utf-8")
    d = CliRunner().invoke(cli, ["report", "plans"])
    assert d.exit_code == 2 and d.stderr.startswith("plans: error: is a directory")
    t = CliRunner().invoke(cli, ["report", "plan.toml"])
    assert t.exit_code == 2 and t.stderr.startswith("plan.toml: error: unknown file type .toml")
    assert not (tmp_path / "reports").exists() or not list((tmp_path / "reports").iterdir())


# -- directories -----------------------------------------------------------------------------------


def _tree(root: Path, files: dict[str, str | bytes]) -> None:
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))


def test_a_directory_is_every_staging_below_it_sorted_hidden_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _tree(
        tmp_path,
        {
            "plans/b.trace": SHORT,
            "plans/a/z.JSON": '[{"fragment": ""}, {"actor": "主人", "act": "揖"}]',
            "plans/a/y.yaml": "- {fragment: ''}\n- {actor: 主人, act: 揖}\n",
            "plans/a/deep/x.jsonl": '{"fragment": ""}\n{"actor": "主人", "act": "揖"}\n',
            "plans/c.yml": "- {fragment: ''}\n- {actor: 主人, act: 揖}\n",
            "plans/.hidden/bad.trace": BAD,
            "plans/.draft.trace": BAD,  # hidden: skipped
            "plans/notes.txt": "not a staging",
            "plans/c.toml": "x",  # other suffixes: skipped
        },
    )
    result = invoke("check", "--format", "json", "plans")
    assert result.exit_code == 0, result.output
    paths = [t["path"] for t in json.loads(result.stdout)["traces"]]
    assert paths == ["plans/a/deep/x.jsonl", "plans/a/y.yaml", "plans/a/z.JSON", "plans/b.trace", "plans/c.yml"]
    both = invoke("check", "--format", "json", "plans/b.trace", "plans", "./plans/a")  # each file once
    assert [t["path"] for t in json.loads(both.stdout)["traces"]] == [
        "plans/b.trace",
        "plans/a/deep/x.jsonl",
        "plans/a/y.yaml",
        "plans/a/z.JSON",
        "plans/c.yml",
    ]
    hidden_root = invoke("check", "--format", "json", "plans/.hidden")  # named, a hidden dir is read
    assert [t["path"] for t in json.loads(hidden_root.stdout)["traces"]] == ["plans/.hidden/bad.trace"]
    assert hidden_root.exit_code == 2


def test_a_directory_with_a_bad_file_checks_the_others(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _tree(
        tmp_path, {"plans/a.trace": SHORT, "plans/b.trace": BAD, "plans/c.trace": VIOLATION.read_text(encoding="utf-8")}
    )
    result = invoke("check", "plans")
    assert result.exit_code == 2
    assert result.stderr.startswith("plans/b.trace:2: error: unknown act 献爵")
    assert "plans/c.trace:40: error: " in result.stdout
    assert "bad input: 1 of 3 traces could not be read; the other 2: 1 violation in 1" in result.stdout


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="permissions (not as root)")
def test_an_unreadable_directory_is_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _tree(tmp_path, {"plans/locked/a.trace": SHORT})
    (tmp_path / "plans" / "locked").chmod(0)
    try:
        result = invoke("check", "plans")
    finally:
        (tmp_path / "plans" / "locked").chmod(0o755)
    assert result.exit_code == 2 and "plans/locked: error: cannot read the directory" in result.stderr


# -- one bad file never hides the others, in every format ---------------------------------------------


@pytest.fixture
def mix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A good staging, a violating one, one that cannot be read (line 2), a missing one, one of an
    unknown type — in that order."""
    monkeypatch.chdir(tmp_path)
    _tree(
        tmp_path,
        {
            "good.yaml": "- {fragment: ''}\n- {actor: 主人, act: 揖}\n",
            "violating.trace": VIOLATION.read_text(encoding="utf-8"),
            "bad.json": '[{"actor": "主人", "act": "揖"},\n {"actor": "主人", "act": "献爵"}]',
            "plan.toml": SHORT,
        },
    )
    return ["good.yaml", "violating.trace", "bad.json", "missing.trace", "plan.toml"]


def test_mix_in_text(mix: list[str]) -> None:
    result = invoke("check", *mix)
    assert result.exit_code == 2  # bad input wins over violations
    err = result.stderr.splitlines()
    assert err[0] == "bad.json:2: error: unknown act 献爵"
    assert "missing.trace: error: no such file" in err
    assert any(line.startswith("plan.toml: error: unknown file type .toml") for line in err)
    assert "violating.trace:40: error: " in result.stdout  # the others are still checked
    events = 1 + len(parse_file(VIOLATION).events)
    assert (
        f"bad input: 3 of 5 traces could not be read; the other 2: 1 violation in 1 ({events} events)" in result.stdout
    )
    # streamed in input order (good, violating, bad, missing, toml): each file's errors in its place
    out = result.output
    assert out.index("violating.trace:40") < out.index("bad.json:2: error") < out.index("missing.trace: error")


def test_mix_in_json(mix: list[str]) -> None:
    result = invoke("check", "--format", "json", *mix)
    assert result.exit_code == 2
    doc = json.loads(result.stdout)
    schema = schemas.load("check")
    jsonschema.Draft202012Validator(schema).validate(doc)
    traces = doc["traces"]
    assert [t["path"] for t in traces] == mix
    good, violating, bad, missing, toml = traces
    assert good["ok"] and good["events"] == 1 and "error" not in good
    assert not violating["ok"] and [v["line"] for v in violating["violations"]] == [40]
    assert bad["ok"] is False and bad["events"] == 0 and bad["violations"] == []
    assert bad["error"].startswith("bad.json:2: error: unknown act 献爵")
    [e] = bad["input_errors"]
    assert (e["path"], e["line"], e["message"]) == ("bad.json", 2, "unknown act 献爵")
    assert e["text"].startswith("bad.json:2: error: ") and "did you mean" in e["hint"]
    assert missing["input_errors"][0]["line"] is None and missing["error"] == "missing.trace: error: no such file"
    assert toml["input_errors"][0]["message"].startswith("unknown file type .toml")


def test_the_check_schema_rejects_a_bad_entry_that_claims_ok() -> None:
    doc = {
        "traces": [
            {
                "path": "a.trace",
                "ok": True,
                "events": 0,
                "violations": [],
                "scoring": [],
                "suppressed": [],
                "not_applied": [],
                "causes": 0,
                "scope": None,
                "error": "a.trace: error: no such file",
                "input_errors": [
                    {
                        "path": "a.trace",
                        "line": None,
                        "message": "no such file",
                        "hint": None,
                        "text": "a.trace: error: no such file",
                    }
                ],
            }
        ]
    }
    validator = jsonschema.Draft202012Validator(schemas.load("check"))
    assert list(validator.iter_errors(doc))
    doc["traces"][0]["ok"] = False
    assert not list(validator.iter_errors(doc))
    del doc["traces"][0]["error"]
    assert list(validator.iter_errors(doc))


def test_mix_in_sarif(mix: list[str]) -> None:
    result = invoke("check", "--format", "sarif", *mix)
    assert result.exit_code == 2
    log = json.loads(result.stdout)
    validator = sarif_schema.validator()
    assert not list(validator.iter_errors(log))
    [run_] = log["runs"]
    rules = run_["tool"]["driver"]["rules"]
    inputs = [r for r in run_["results"] if r["ruleId"] == "input-error"]
    assert [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in inputs] == [
        "bad.json",
        "missing.trace",
        "plan.toml",
    ]
    first = inputs[0]
    assert first["level"] == "error" and first["message"]["text"].startswith("unknown act 献爵")
    assert first["locations"][0]["physicalLocation"]["region"] == {"startLine": 2}
    assert "region" not in inputs[1]["locations"][0]["physicalLocation"]
    assert rules[first["ruleIndex"]]["id"] == "input-error"
    assert {r["ruleId"] for r in run_["results"]} == {"input-error", "bu-guan-bu-shi"}
    traces = run_["properties"]["traces"]
    assert [(t["path"], t["input_errors"]) for t in traces] == [(p, int(p not in mix[:2])) for p in mix]


def test_sarif_without_bad_input_has_no_input_error_rule() -> None:
    log = json.loads(invoke("check", "--format", "sarif", str(VIOLATION)).stdout)
    assert "input-error" not in [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]]


def test_mix_in_junit(mix: list[str]) -> None:
    result = invoke("check", "--format", "junit", *mix)
    assert result.exit_code == 2
    root = ET.fromstring(result.stdout.encode("utf-8"))
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == mix
    assert (root.get("errors"), root.get("failures")) == ("3", "1")
    bad = suites[2]
    assert (bad.get("tests"), bad.get("errors"), bad.get("failures")) == ("1", "1", "0")
    [case] = bad.findall("testcase")
    error = case.find("error")
    assert case.get("name") == "input-error" and error.get("type") == "input-error"
    assert error.get("message") == "bad.json:2: error: unknown act 献爵"
    assert "did you mean" in error.text
    assert int(root.get("tests")) == sum(int(s.get("tests")) for s in suites)


def test_mix_in_chinese(mix: list[str]) -> None:
    result = invoke("--lang", "zh", "check", *mix)
    assert result.exit_code == 2
    assert "plan.toml: 错误: 未知的文件类型 .toml；仪注文件是" in result.stderr
    assert "输入有误：5 份仪注中 3 份无法读取" in result.stdout


# -- the pieces agree ------------------------------------------------------------------------------


def test_stdin_formats_are_the_readers() -> None:
    assert tuple(READERS) == STDIN_FORMATS == sources.FORMATS
    assert set(sources.SUFFIXES.values()) == set(READERS)


def test_the_pre_commit_hook_selects_every_suffix_the_reader_knows() -> None:
    import re

    import yaml

    hook = next(
        h
        for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
        if h["id"] == "xiangshe-check"
    )
    for suffix in sources.SUFFIXES:
        for name in (f"plans/a{suffix}", f"plans/a{suffix.upper()}"):
            assert re.search(hook["files"], name), name


def test_docs_name_every_suffix_and_the_stdin_options() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    fmt = (ROOT / "docs" / "trace-format.md").read_text(encoding="utf-8")
    for text in (readme, fmt):
        assert "--stdin-format" in text and "--stdin-filename" in text
        for suffix in sources.SUFFIXES:
            assert f"`{suffix}`" in text or f"`*{suffix}`" in text, suffix


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs a shell")
@POSIX
def test_cat_bad_trace_pipe_check_is_no_longer_a_false_pass(tmp_path: Path) -> None:
    """The issue as reported: `cat bad.trace | xiangshe check` checked the canonical and said ok."""
    (tmp_path / "bad.trace").write_text(BAD, encoding="utf-8")
    out = subprocess.run(
        ["sh", "-c", f'cat bad.trace | "{sys.executable}" -m xiangshe check'],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert out.returncode == 2 and b"pass -" in out.stderr
    dash = subprocess.run(
        ["sh", "-c", f'cat bad.trace | "{sys.executable}" -m xiangshe check -'],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert dash.returncode == 2 and dash.stderr.startswith(b"<stdin>:2: error: unknown act")
