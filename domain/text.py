"""The ceremony text, searchable across its hard line breaks, and citations located in it.

The text is hard-wrapped mid-sentence, so every quote is searched in the text with its line
breaks removed and its line number is worked out by the program. A quote that is missing, or that
occurs more than once without a `line` to pick one occurrence, is an error.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import cache, cached_property
from pathlib import Path

from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.errors import QuoteError

TEXT_PATH = Path(__file__).with_name("xiangsheli.txt")
TEXT_SHA256 = "7af7ba8bbfd8a25897aa925cebac83157007ccea2b2ee9975cb745f4a05aa182"


@dataclass(frozen=True)
class Citation:
    """A verbatim quote of the text and the line of the text where it starts."""

    quote: str
    line: int
    end_line: int
    source: str = "xiangsheli.txt"

    def __str__(self) -> str:
        return f"{self.source}:{self.line}  「{self.quote}」"


class SourceText:
    """The text with its line breaks removed, and a map from each character back to its line.

    The file is read when something of it is first asked for: a check whose rulebook and tables come
    from the cache (domain/cache.py) never reads it, nor imports hashlib."""

    def __init__(self, path: Path = TEXT_PATH) -> None:
        self.path = path
        self.name = path.name

    @cached_property
    def _raw(self) -> str:
        return self.path.read_text(encoding="utf-8")

    @cached_property
    def sha256(self) -> str:
        import hashlib

        return hashlib.sha256(self._raw.encode("utf-8")).hexdigest()

    @cached_property
    def lines(self) -> list[str]:
        return self._raw.splitlines()

    @cached_property
    def flat(self) -> str:
        return "".join(self.lines)

    @cached_property
    def _line_of(self) -> list[int]:
        return [n for n, text in enumerate(self.lines, 1) for _ in text]

    @cached_property
    def _starts(self) -> list[int]:
        """Where each line starts in `flat` (a character's line is found by bisection)."""
        starts, at = [], 0
        for text in self.lines:
            starts.append(at)
            at += len(text)
        return starts

    def occurrences(self, quote: str) -> list[tuple[int, int]]:
        """The (first line, last line) of every occurrence of `quote`, found left to right without
        overlapping (as `re.finditer` of the quote finds them: no pattern to compile)."""
        if not quote:
            return []
        flat, starts, found = self.flat, self._starts, []
        at = flat.find(quote)
        while at >= 0:
            end = at + len(quote)
            found.append((bisect_right(starts, at), bisect_right(starts, end - 1)))
            at = flat.find(quote, end)
        return found

    def cite(self, quote: str, line: int | None = None, *, where: str = "", at: int | None = None) -> Citation:
        """Locate `quote`; `line` picks one occurrence when the text repeats itself.

        >>> TEXT.cite("不贯不释")
        Citation(quote='不贯不释', line=134, end_line=134, source='xiangsheli.txt')
        >>> TEXT.cite("宾坐取爵，适洗").line, TEXT.cite("宾坐取爵，适洗").end_line
        (24, 25)
        """
        found = self.occurrences(quote)
        if not found:
            near = self._nearest(quote)
            hint = f"closest passage: 「{near}」" if near else None
            raise QuoteError(where or self.name, at, f"「{quote}」 is not in {self.name}", hint=hint)
        if line is None and len(found) == 1:
            return Citation(quote, *found[0], source=self.name)
        starts = [f"{a}" for a, _ in found]
        for first, last in found:
            if line is not None and first <= line <= last:
                return Citation(quote, first, last, source=self.name)
        if line is None:
            raise QuoteError(
                where or self.name,
                at,
                f"「{quote}」 occurs {len(found)} times in {self.name} "
                f"(lines {', '.join(starts)}); quote more of the sentence or add line = N",
            )
        raise QuoteError(
            where or self.name,
            at,
            f"「{quote}」 does not occur at line {line} of {self.name} (it occurs at lines {', '.join(starts)})",
        )

    def context(self, citation: Citation, width: int = 18) -> tuple[str, str, str]:
        """The quote with `width` characters of text either side (line breaks removed)."""
        starts = [m.start() for m in re.finditer(re.escape(citation.quote), self.flat)]
        start = next(s for s in starts if self._line_of[s] == citation.line)
        end = start + len(citation.quote)
        return (self.flat[max(0, start - width) : start], citation.quote, self.flat[end : end + width])

    def line_span(self, first: int, last: int) -> str:
        return "".join(self.lines[first - 1 : last])

    def _nearest(self, quote: str) -> str | None:
        """The longest prefix of `quote` (at least two characters) that the text has, in context."""
        for n in range(len(quote) - 1, 1, -1):
            i = self.flat.find(quote[:n])
            if i >= 0:
                return self.flat[i : i + len(quote) + 2]
        return None


@cache
def source_text() -> SourceText:
    return SourceText()


TEXT = source_text()
