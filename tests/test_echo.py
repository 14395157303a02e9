"""What a trace says is shown, never acted on: its words, comments and file name reach error
messages and findings with every character that would act on a terminal (ESC, CR, C1 controls, bidi
overrides …) written as an escape, in every format; JUnit stays well-formed XML 1.0; a long line is
quoted cut to a window around the error.

A table, as in test_badinput: (where the characters are planted, the expected exit status).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from xiangshe.domain.visible import WIDTH
from xiangshe.verify import cli

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = (ROOT / "traces" / "violations" / "bu-guan-bu-shi.trace").read_text(encoding="utf-8")
# what acts on a terminal and is not a line break or a space to the trace formats
NASTY = "\x1b[31m\x1b]0;pwned\x07\x01\x7f\x9b2J\u202e\u2066\ufffe"
ACTING = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufffe\uffff]")


def _comments(text: str) -> str:  # every event line ends in a comment full of controls
    return "\n".join(
        f"{line}  # {NASTY}" if line and not line.startswith(("#", "cast", "pair", "phase")) else line
        for line in text.split("\n")
    )


def _person(text: str) -> str:  # 弟子1 is declared with a name full of controls
    name = f"甲{NASTY}"
    return f"cast {name} 弟子\n" + text.replace("上射=弟子1", f"上射={name}").replace("弟子1 ", f"{name} ").replace(
        "for=弟子1", f"for={name}"
    ).replace("to=弟子1", f"to={name}")


CASES: list[tuple[str, str, str, int]] = [
    # (what, file name, text, exit status)
    ("comments", "bad.trace", _comments(EXAMPLE), 1),
    ("person", "bad.trace", _person(EXAMPLE), 1),
    ("file name", f"bad{NASTY}\r\x85.trace", EXAMPLE, 1),
    ("unknown word", "bad.trace", f"主人 揖\n主人{NASTY} 献{NASTY} 爵 at=上{NASTY}\n", 2),
    ("unknown word", "bad.jsonl", json.dumps({"actor": "主人", "act": "献\r\x85\u2028" + NASTY}) + "\n", 2),
    ("unknown word", "bad.yaml", "- {actor: 主人, act: \"献\\e[31m\\x9b\\u202e\"}\n", 2),
    ("comment in a bad line", "bad.trace", f"主人 揖\n主人 献爵 爵  # {NASTY}\n", 2),
]


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "junit"])
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1][-5:]}")
def test_no_character_that_acts_reaches_the_output(tmp_path: Path, case: tuple, fmt: str) -> None:
    _what, name, text, status = case
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--format", fmt, str(path)])
    assert result.exit_code == status, result.output[-800:]
    assert not ACTING.search(result.output), repr(ACTING.search(result.output))
    if fmt in ("text", "junit") or status == 2:
        assert "\\u001b" in result.output  # shown, as an escape, where the line is quoted
    if status == 1 and fmt == "junit":
        ET.fromstring(result.output.encode("utf-8"))  # well-formed: no character XML 1.0 forbids
    if status == 1 and fmt in ("json", "sarif"):
        doc = json.loads(result.output)  # the escapes are JSON's: the same text
        if fmt == "json":
            assert doc["traces"][0]["path"] == str(path)


def test_junit_of_a_trace_with_controls_parses_and_keeps_them_visible(tmp_path: Path) -> None:
    path = tmp_path / "bad\x01.trace"
    path.write_text(_comments(_person(EXAMPLE)), encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--format", "junit", str(path)])
    assert result.exit_code == 1
    root = ET.fromstring(result.output.encode("utf-8"))
    failures = root.findall(".//failure")
    assert failures and all("\\u001b[31m" in f.text for f in failures)
    assert root.find("testsuite").get("name").endswith("bad\\u0001.trace")


def test_click_usage_errors_quote_what_was_typed_visibly() -> None:
    for args in (
        ["check", "--\x1b[31m"],
        ["generate", "--arrow", "\x1b[2J"],
        ["explain", "x\x1b[2J"],
        ["\x1b[2Jcheck"],
    ):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 2 and "\x1b" not in result.output, (args, result.output)


def test_no_raw_escape_byte_reaches_stdout_or_stderr_of_the_process(tmp_path: Path) -> None:
    bad = tmp_path / "bad\x1b[1m.trace"
    bad.write_text(_comments(_person(EXAMPLE)), encoding="utf-8")
    unknown = tmp_path / "unknown\x1b[1m.trace"
    unknown.write_text(f"主人{NASTY} 揖\n", encoding="utf-8")
    for path, status in ((bad, 1), (unknown, 2)):
        done = subprocess.run([sys.executable, "-m", "xiangshe", "check", str(path)], capture_output=True, timeout=120)
        assert done.returncode == status, done.stderr[-500:]
        for stream in (done.stdout, done.stderr):
            assert b"\x1b" not in stream and b"\r" not in stream and b"\xc2\x9b" not in stream
            assert "\u202e".encode() not in stream
        assert b"\\u001b" in done.stdout + done.stderr


# -- long lines: quoted cut to a window around the error --------------------------------------------

LONG = 4 * 1024 * 1024
LONG_CASES: list[tuple[str, str, str]] = [
    # (file name, text, what the message says)
    ("long.trace", "主人 揖 " + "x" * LONG + "\n", "unknown object xxxx"),
    ("long.trace", "主人 揖 " + "y " * (LONG // 2) + "\n", "too many words before key=value"),
    ("long.trace", "主人 揖\n主人 " + "z" * LONG + " 爵\n", "unknown act zzzz"),
    ("long.jsonl", '{"actor": "主人", "act": "揖", "words": "' + "w" * LONG + '", }\n', "not valid JSON"),
    ("long.yaml", "- {actor: 主人, act: 揖, words: " + "v" * LONG + ", words: x}\n", "duplicate key words"),
    ("long.yaml", "- {actor: 主人, act: 揖, words: " + "v" * LONG + ": x: y}\n", "not valid YAML"),
    ("long.trace", "主人 揖  # " + "c" * LONG + "\n主人 献爵 爵  # " + "c" * LONG + "\n", "unknown act 献爵"),
]


@pytest.mark.parametrize("case", LONG_CASES, ids=lambda c: c[2][:20])
def test_a_long_line_is_quoted_cut(tmp_path: Path, case: tuple) -> None:
    name, text, fragment = case
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 2 and fragment in result.output, result.output[:600]
    assert len(result.output) < 20 * WIDTH + len(str(path)) * 4, len(result.output)
    quoted = [line for line in result.output.split("\n") if " | " in line]
    assert quoted and all(re.search(r"\((column \d+ of \d+|\d+ characters)\)$", q) for q in quoted), quoted


def test_a_finding_on_a_long_line_is_quoted_cut(tmp_path: Path) -> None:
    path = tmp_path / "long.trace"
    path.write_text(_comments(EXAMPLE).replace(NASTY, "c" * 100_000), encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 1 and "[bu-guan-bu-shi" in result.output
    assert len(result.output) < 10_000 and "(100" in result.output


def test_colour_paints_the_escaped_text_not_the_users_sequences(tmp_path: Path) -> None:
    path = tmp_path / "bad.trace"
    path.write_text(_comments(_person(EXAMPLE)), encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--color", str(path)], color=True)
    assert result.exit_code == 1
    assert "\x1b[31m" in result.output  # our colour …
    assert "\x1b]0;pwned" not in result.output and "\\u001b]0;pwned" in result.output  # … not theirs
    assert not re.search("[\x00-\x08\x0b-\x1a\x1c-\x1f\x7f-\x9f\u202e\u2066]", result.output)


def test_visible_escapes_every_acting_character_and_only_those() -> None:
    """Every character of the plane is escaped exactly when the pattern of acting characters
    matches it (the plain path leaves printable texts, tabs and newlines to themselves, without
    the pattern), alone and inside printable text, Chinese included."""
    from xiangshe.domain import visible as module

    acting = re.compile(module._ACTING.pattern)
    for code in range(0x110000):
        ch = chr(code)
        expected = f"\\u{code:04x}" if acting.match(ch) else ch
        assert module.visible(ch) == expected, hex(code)
        if code % 97 == 0 or acting.match(ch):
            assert module.visible(f"主人 揖\t{ch}\n") == f"主人 揖\t{expected}\n", hex(code)
