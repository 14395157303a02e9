"""Keep the literate rulebook in its written form: `python -m xiangshe.constraints.literate [FILE…]`.

It rewrites each `constraints/rules/*.md` (or the FILEs named) in place, and changes nothing a rule
means:

- above each ```rule block, the block quote of the passages the rule encodes, each with its line
  (`> 升即席 (L190)`), made from the rule's located quotes (the loader checks that it is there and
  agrees with them: `rulebook.block_quote`);
- a `note` or `reason` longer than the line width becomes a TOML multi-line string wrapped at
  `WIDTH` display columns, each line ending in a line-ending backslash, so that its text is the
  same, character for character, as the one-line string it replaces.

With `--check` it writes nothing and exits 1 if a file would change (for CI).
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
import unicodedata
from pathlib import Path

from xiangshe.constraints.rulebook import RULES_DIR, block_quote, parse_rule_block
from xiangshe.domain.errors import InputError
from xiangshe.domain.vocabulary import vocabulary

WIDTH = 100  # display columns; a CJK character takes two
WRAPPED = ("note", "reason")
_ONE_LINE = re.compile(r'^(note|reason) = "')


def columns(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _escape(text: str) -> str:
    """`text` as the body of a TOML basic multi-line string."""
    out = text.replace("\\", "\\\\").replace('"""', '""\\"')
    return "".join(c if c in "\t" or c >= " " and c != "\x7f" else f"\\u{ord(c):04x}" for c in out)


def _pieces(body: str) -> list[str]:
    """The escaped body cut where a line may break: after a space, or between two characters
    neither of which is a space or part of an escape."""
    pieces: list[str] = []
    i = 0
    while i < len(body):
        if body[i] == "\\":  # an escape stays whole
            n = 6 if body[i + 1 : i + 2] == "u" else 2
            pieces.append(body[i : i + n])
            i += n
            continue
        c = body[i]
        if c.isascii() and not c.isspace() and pieces and pieces[-1][-1:].isascii() and pieces[-1][-1:] != " ":
            pieces[-1] += c  # an ASCII word stays whole
        elif c == " " and pieces:
            pieces[-1] += c  # a space ends the piece before it
        else:
            pieces.append(c)
        i += 1
    return pieces


def wrap_value(key: str, value: str, width: int = WIDTH) -> list[str]:
    """`key = ` and `value` as a TOML multi-line string over as many lines as it takes, none wider
    than `width` columns where a piece fits; the TOML value is `value` exactly."""
    lines: list[str] = []
    current = ""
    for piece in _pieces(_escape(value)):  # a piece never starts with a space but the first
        if current and columns(current + piece) + 1 > width:
            lines.append(current + "\\")
            current = ""
        current += piece
    lines.append(current + '"""')
    text = [f'{key} = """'] + lines
    if tomllib.loads("\n".join(text))[key] != value:  # cannot happen: the wrapping adds nothing
        raise ValueError(f"wrapping changed the {key}: {value!r}")
    return text


def wrap_notes(block: list[str], width: int = WIDTH) -> list[str]:
    """The lines of a rule block with each one-line `note` / `reason` wider than `width` wrapped."""
    out = []
    for line in block:
        if _ONE_LINE.match(line) and columns(line) > width:
            key, value = next(iter(tomllib.loads(line).items()))
            out += wrap_value(key, value, width)
        else:
            out.append(line)
    return out


def rewrite(text: str, where: str) -> str:
    """A literate rule file with block quotes and wrapped notes."""
    vocab = vocabulary()
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        if lines[i].strip() != "```rule":
            out.append(lines[i])
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        block = lines[i + 1 : j]
        rule = parse_rule_block("\n".join(block), where, len(out) + 1, (), vocab)
        while out and out[-1].startswith(">"):
            out.pop()
        out += block_quote(rule)
        out.append(lines[i])
        out += wrap_notes(block)
        i = j
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m xiangshe.constraints.literate", description=__doc__)
    parser.add_argument("files", nargs="*", type=Path, help="literate rule files (default: constraints/rules/*.md)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file would change")
    args = parser.parse_args(argv)
    rewritten: list[tuple[Path, str]] = []
    for path in args.files or sorted(RULES_DIR.glob("*.md")):
        old = path.read_text(encoding="utf-8")
        try:
            new = rewrite(old, str(path))
        except InputError as err:  # a rule that does not load: located, and no file is written
            print(err, file=sys.stderr)
            return 2
        if new != old:
            rewritten.append((path, new))
    for path, new in rewritten:
        if not args.check:
            path.write_text(new, encoding="utf-8")
        print(f"{'would rewrite' if args.check else 'rewrote'} {path}", file=sys.stderr)
    return 1 if args.check and rewritten else 0


if __name__ == "__main__":
    sys.exit(main())
