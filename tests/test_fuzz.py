"""Fuzzing the readers and the checker (Hypothesis): random bytes and text into each parser, mutated
bundled traces through the check path the command line uses, and some through the command line
itself — as files, on standard input (`check -`), and as directories of several (`check DIR`: one
result per file, a bad one hiding none of the others). Only the project's own input errors may come
out; any other exception fails the test.

Default run: 660 inputs (80 byte strings, 4×60 texts, 160 mutated traces, 40 through the CLI, 40
through stdin, 30 directories, 40 compared between stdin and the file, 30 directories compared).
`pytest -m slow` tries 50 times as many. `python benchmarks/fuzz.py N` runs N inputs and counts them.
The inner loop (`-m "not z3 and not browser"`) tries a quarter of each (conftest's `examples`: at
least 10 of each kind of input, the first of the same derandomized draws).
"""

from __future__ import annotations

import random
import tempfile
from collections import Counter
from pathlib import Path

import fuzzgen
import pytest
from click.testing import CliRunner
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from xiangshe.domain.parse import TraceErrors, parse_file, parse_json, parse_jsonl, parse_lines, parse_yaml
from xiangshe.verify import cli

TMP = Path(tempfile.mkdtemp(prefix="xiangshe-fuzz-"))
PARSERS = {"lines": parse_lines, "jsonl": parse_jsonl, "json": parse_json, "yaml": parse_yaml}


def _file(suffix: str, data: bytes) -> Path:
    path = TMP / f"fuzz.{suffix}"
    path.write_bytes(data)
    return path


def _bytes_into_each_reader(data: bytes, suffix: str) -> None:
    path = _file(suffix, data)
    try:
        parse_file(path)
    except TraceErrors as err:
        assert err.errors and all(e.render().startswith(f"{path}") for e in err.errors)


def _text_into_parser(name: str, text: str) -> None:
    try:
        trace = PARSERS[name](text, "fuzz")
    except TraceErrors as err:
        assert all(e.line is None or e.line >= 1 for e in err.errors)
    else:
        assert len(trace) >= 1


def _mutated_trace_is_checked(seed: int) -> None:
    suffix, data = fuzzgen.fuzz_input(random.Random(seed))
    assert fuzzgen.run(_file(suffix, data)) in ("ok", "violations", "bad input")


def _mutated_trace_through_the_cli(seed: int) -> None:
    suffix, data = fuzzgen.fuzz_input(random.Random(seed))
    path = _file(suffix, data)
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 1, 2), result.output
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        assert result.output.startswith(f"{path}:"), result.output[:200]
    assert path.read_bytes() == data


def _mutated_trace_through_stdin(seed: int) -> None:
    """`check -` reads the bytes as the file would be read: the same outcome, named as asked."""
    suffix, data = fuzzgen.fuzz_input(random.Random(seed))
    fmt = {"yml": "yaml"}.get(suffix, suffix)
    name = f"plans/fuzz.{suffix}"
    result = CliRunner().invoke(cli, ["check", "-", "--stdin-format", fmt, "--stdin-filename", name], input=data)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    expected = fuzzgen.run(_file(suffix, data))
    assert result.exit_code == {"ok": 0, "violations": 1, "bad input": 2}[expected], result.output[:300]
    if result.exit_code == 2:
        assert result.stderr.startswith(f"{name}:"), result.stderr[:200]


def _stdin_reads_as_the_file(seed: int) -> None:
    suffix, data = fuzzgen.fuzz_input(random.Random(seed))
    assert fuzzgen.run_stdin(data, suffix) == fuzzgen.run(_file(suffix, data))


def _directory_through_the_cli(seed: int) -> None:
    """`check --format json DIR`: every staging below, in order, each with the outcome it has alone;
    the exit status is the worst of them (bad input 2, violations 1)."""
    import json
    import shutil

    root = TMP / f"dir-{seed}"
    shutil.rmtree(root, ignore_errors=True)
    made = fuzzgen.fuzz_directory(random.Random(seed), root)
    alone = [fuzzgen.run(p) for p in made]
    result = CliRunner().invoke(cli, ["check", "--format", "json", str(root)])
    assert "Traceback" not in result.output
    doc = json.loads(result.stdout)
    assert [t["path"] for t in doc["traces"]] == [str(p) for p in made]
    got = ["bad input" if "input_errors" in t else "ok" if t["ok"] else "violations" for t in doc["traces"]]
    assert got == alone
    assert result.exit_code == (2 if "bad input" in alone else 1 if "violations" in alone else 0)
    shutil.rmtree(root)


def _directory_as_files(seed: int) -> None:
    import shutil

    root = TMP / f"lib-{seed}"
    shutil.rmtree(root, ignore_errors=True)
    made = fuzzgen.fuzz_directory(random.Random(seed), root)
    assert fuzzgen.run_directory(root) == [(p, fuzzgen.run(p)) for p in made]
    shutil.rmtree(root)


@settings(max_examples=examples(80))
@given(data=st.binary(max_size=3000), suffix=st.sampled_from(fuzzgen.SUFFIXES))
def test_random_bytes_into_each_reader(data: bytes, suffix: str) -> None:
    _bytes_into_each_reader(data, suffix)


@pytest.mark.parametrize("name", PARSERS)
@settings(max_examples=examples(60))
@given(
    text=st.text(st.characters(codec="utf-8"), max_size=500)
    | st.lists(st.sampled_from(fuzzgen.words() + fuzzgen.GARBAGE), max_size=30).map(" ".join)
)
def test_random_text_into_each_parser(name: str, text: str) -> None:
    _text_into_parser(name, text)


@settings(max_examples=examples(160))
@given(seed=st.integers(0, 2**32 - 1))
def test_mutated_traces_are_checked_without_a_crash(seed: int) -> None:
    _mutated_trace_is_checked(seed)


@settings(max_examples=examples(40))
@given(seed=st.integers(0, 2**32 - 1))
def test_mutated_traces_through_the_command_line(seed: int) -> None:
    _mutated_trace_through_the_cli(seed)


@settings(max_examples=examples(40))
@given(seed=st.integers(0, 2**32 - 1))
def test_mutated_traces_through_standard_input(seed: int) -> None:
    _mutated_trace_through_stdin(seed)


@settings(max_examples=examples(40))
@given(seed=st.integers(0, 2**32 - 1))
def test_standard_input_reads_as_the_file(seed: int) -> None:
    _stdin_reads_as_the_file(seed)


@settings(max_examples=examples(30))
@given(seed=st.integers(0, 2**32 - 1))
def test_fuzzed_directories_through_the_command_line(seed: int) -> None:
    _directory_through_the_cli(seed)


@settings(max_examples=examples(30))
@given(seed=st.integers(0, 2**32 - 1))
def test_fuzzed_directories_find_and_check_every_file(seed: int) -> None:
    _directory_as_files(seed)


def test_the_generator_makes_every_outcome() -> None:
    """The fuzz inputs reach the checker: a good share parse and are checked, others are bad input."""
    seen = Counter(fuzzgen.run(_file(*fuzzgen.fuzz_input(random.Random(seed)))) for seed in range(200))
    assert seen["bad input"] >= 40 and seen["ok"] + seen["violations"] >= 40, seen


def test_the_generator_makes_every_outcome_in_json_too() -> None:
    inputs = [fuzzgen.fuzz_input(random.Random(seed)) for seed in range(600)]
    seen = Counter(fuzzgen.run(_file(sfx, data)) for sfx, data in inputs if sfx == "json")
    assert seen["bad input"] >= 20 and seen["ok"] + seen["violations"] >= 20, seen


# -- the same, many more (`pytest -m slow`) ------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=4000)
@given(data=st.binary(max_size=3000), suffix=st.sampled_from(fuzzgen.SUFFIXES))
def test_random_bytes_into_each_reader_thoroughly(data: bytes, suffix: str) -> None:
    _bytes_into_each_reader(data, suffix)


@pytest.mark.slow
@pytest.mark.parametrize("name", PARSERS)
@settings(max_examples=3000)
@given(
    text=st.text(st.characters(codec="utf-8"), max_size=500)
    | st.lists(st.sampled_from(fuzzgen.words() + fuzzgen.GARBAGE), max_size=30).map(" ".join)
)
def test_random_text_into_each_parser_thoroughly(name: str, text: str) -> None:
    _text_into_parser(name, text)


@pytest.mark.slow
@settings(max_examples=8000)
@given(seed=st.integers(0, 2**32 - 1))
def test_mutated_traces_are_checked_thoroughly(seed: int) -> None:
    _mutated_trace_is_checked(seed)


@pytest.mark.slow
@settings(max_examples=2000)
@given(seed=st.integers(0, 2**32 - 1))
def test_mutated_traces_through_the_command_line_thoroughly(seed: int) -> None:
    _mutated_trace_through_the_cli(seed)


@pytest.mark.slow
@settings(max_examples=2000)
@given(seed=st.integers(0, 2**32 - 1))
def test_mutated_traces_through_standard_input_thoroughly(seed: int) -> None:
    _mutated_trace_through_stdin(seed)


@pytest.mark.slow
@settings(max_examples=1000)
@given(seed=st.integers(0, 2**32 - 1))
def test_fuzzed_directories_through_the_command_line_thoroughly(seed: int) -> None:
    _directory_through_the_cli(seed)
