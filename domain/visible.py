"""User text made safe to show: what a trace says (its words, comments, file name) is echoed in
error messages and findings, and must not act on the terminal it is shown on.

`visible` writes the characters that would act — C0 and C1 controls (ESC starts the terminal's
escape sequences, CR moves back over a line, CSI is a one-character ESC[), DEL, the bidirectional
controls that reorder a line, the line and paragraph separators, lone surrogates (an undecodable
file name) and the noncharacters XML forbids — as escapes (`\\u001b`, `\\u202e`); tab and newline stay.
`clip` cuts a long line to a window around the place of the error, `shorten` the long words of a
message (a message quotes the user's words; it is cut to WIDTH * 2 after that).
"""

from __future__ import annotations

import re

from xiangshe.domain.messages import Localised, Text
from xiangshe.domain.regex import lazy

WIDTH = 200  # the most characters of a trace line quoted back
LONGEST_WORD = 60  # the most characters of one of the user's words quoted in a message

#: every character that would act; none of them is printable (str.isprintable: `_inert` relies on it)
_ACTING = lazy("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]")


def _escape(m: re.Match) -> str:
    return f"\\u{ord(m.group()):04x}"


def visible(text: str) -> str:
    r"""`text` with every character that would act on a terminal written as an escape, `\u001b`:
    the same escape in JSON (where it stands for the same character), text, XML or HTML.

    >>> print(visible("主人\x1b[2J 揖\r\u202e爵 ok"))
    主人\u001b[2J 揖\u000d\u202e爵 ok
    >>> import json; json.loads(visible(json.dumps("a\x85b", ensure_ascii=False)))
    'a\x85b'
    """
    if isinstance(text, Text):  # a message that can say itself in Chinese keeps that, made visible
        return Localised(lambda lang: _made_visible(text.render(lang)))
    return _made_visible(text)


def _made_visible(text: str) -> str:
    return text if _inert(text) else _ACTING.sub(_escape, text)


def _inert(text: str) -> bool:
    """No character of `text` would act: each is printable, but for tabs and newlines (every acting
    character is unprintable, so the pattern need not be compiled, nor run, for most texts)."""
    return text.isprintable() or text.replace("\n", "").replace("\t", "").isprintable()


def clip(line: str, column: int | None = None, width: int = WIDTH) -> str:
    """A line of at most `width` characters as it is; a longer one cut to `width` characters around
    `column` (1-based, where the error is; else from the start), saying where it was cut.

    >>> clip("甲 揖")
    '甲 揖'
    >>> clip("x" * 10 + "BAD" + "y" * 10, column=11, width=8)
    '…xxBADyyy…  (column 11 of 23)'
    >>> clip("z" * 300)[-24:]
    'zzzzz…  (300 characters)'
    """
    if len(line) <= width:
        return line
    start = 0
    if column is not None and column > width * 3 // 4:
        start = max(0, min(column - 1 - width // 4, len(line) - width))
    end = start + width
    where = f"column {column} of {len(line)}" if column is not None else f"{len(line)} characters"
    return ("…" if start else "") + line[start:end] + ("…" if end < len(line) else "") + f"  ({where})"


_LONG_WORD = lazy(rf"[^\s:;,=|]{{{LONGEST_WORD + 1},}}")


def shorten(message: str, width: int = 2 * WIDTH) -> str:
    """A message with each word longer than LONGEST_WORD cut (saying how long it was), then cut
    to `width` characters: what the message says about the word stays.

    >>> shorten("爵" + "1" * 5000 + ": 爵 has instances 1–9")
    '爵11111111111111111111111111111111111111111111111111111111111…(5001 characters): 爵 has instances 1–9'
    """
    message = _LONG_WORD.sub(lambda m: f"{m.group()[:LONGEST_WORD]}…({len(m.group())} characters)", message)
    return clip(message, width=width)
