"""Fuzzing the readers and the checker (Hypothesis): random bytes and text into each parser, mutated
bundled traces through the check path the command line uses, and some through the command line
itself. Only the project's own input errors may come out; any other exception fails the test.

Default run: 460 inputs (80 byte strings, 3×60 texts, 160 mutated traces, 40 through the CLI).
`pytest -m slow` tries 50 times as many. `python benchmarks/fuzz.py N` runs N inputs and counts them.
"""

from __future__ import annotations

import random
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from xiangshe.domain.parse import TraceErrors, parse_file, parse_jsonl, parse_lines, parse_yaml
import fuzzgen
from xiangshe.verify import cli

TMP = Path(tempfile.mkdtemp(prefix="xiangshe-fuzz-"))
PARSERS = {"lines": parse_lines, "jsonl": parse_jsonl, "yaml": parse_yaml}


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


@settings(max_examples=80)
@given(data=st.binary(max_size=3000), suffix=st.sampled_from(fuzzgen.SUFFIXES))
def test_random_bytes_into_each_reader(data: bytes, suffix: str) -> None:
    _bytes_into_each_reader(data, suffix)


@pytest.mark.parametrize("name", PARSERS)
@settings(max_examples=60)
@given(text=st.text(st.characters(codec="utf-8"), max_size=500)
       | st.lists(st.sampled_from(fuzzgen.words() + fuzzgen.GARBAGE), max_size=30).map(" ".join))
def test_random_text_into_each_parser(name: str, text: str) -> None:
    _text_into_parser(name, text)


@settings(max_examples=160)
@given(seed=st.integers(0, 2**32 - 1))
def test_mutated_traces_are_checked_without_a_crash(seed: int) -> None:
    _mutated_trace_is_checked(seed)


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32 - 1))
def test_mutated_traces_through_the_command_line(seed: int) -> None:
    _mutated_trace_through_the_cli(seed)


def test_the_generator_makes_every_outcome() -> None:
    """The fuzz inputs reach the checker: a good share parse and are checked, others are bad input."""
    seen = Counter(fuzzgen.run(_file(*fuzzgen.fuzz_input(random.Random(seed)))) for seed in range(200))
    assert seen["bad input"] >= 40 and seen["ok"] + seen["violations"] >= 40, seen


# -- the same, many more (`pytest -m slow`) ------------------------------------------------------------

@pytest.mark.slow
@settings(max_examples=4000)
@given(data=st.binary(max_size=3000), suffix=st.sampled_from(fuzzgen.SUFFIXES))
def test_random_bytes_into_each_reader_thoroughly(data: bytes, suffix: str) -> None:
    _bytes_into_each_reader(data, suffix)


@pytest.mark.slow
@pytest.mark.parametrize("name", PARSERS)
@settings(max_examples=3000)
@given(text=st.text(st.characters(codec="utf-8"), max_size=500)
       | st.lists(st.sampled_from(fuzzgen.words() + fuzzgen.GARBAGE), max_size=30).map(" ".join))
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
