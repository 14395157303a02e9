"""Input errors, each located as `path:line: error: …` and, where it helps, with a "did you mean"."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from xiangshe.domain.messages import Localised, Message, render
from xiangshe.domain.visible import clip, shorten, visible


class InputError(Exception):
    """Bad input of any kind: a trace, a rulebook, a machine table, a quote or a usage error."""

    def __init__(
        self,
        path: str,
        line: int | None,
        message: str,
        excerpt: str | None = None,
        hint: str | None = None,
        column: int | None = None,
    ) -> None:
        super().__init__(message)
        self.path, self.line, self.message, self.excerpt, self.hint = path, line, message, excerpt, hint
        self.column = column

    def __reduce__(self):  # pickled to and from worker processes (check --jobs): rebuilt from its fields
        return (type(self), (self.path, self.line, self.message, self.excerpt, self.hint, self.column))

    def render(self, lang: str | None = None) -> str:
        """`path:line: error: message`, the line quoted (cut to a window around the error if long),
        the hint; the user's words with every character that would act on a terminal escaped. In
        English, as a `Localised` that can say itself in another language; or in `lang`."""
        if lang is None:
            return Localised(self.render)
        where = f"{self.path}:{self.line}" if self.line else self.path
        out = [Message("input.error", where=where, message=shorten(render(self.message, lang))).render(lang)]
        if self.excerpt is not None and self.line:
            out.append(f"  {self.line:>4} | {clip(self.excerpt, self.column)}")
        if self.hint:
            out.append(f"  {shorten(render(self.hint, lang))}")
        return visible("\n".join(out))

    def __str__(self) -> str:
        return self.render()


class TraceError(InputError):
    """A trace file that cannot be read as a trace."""


class RulebookError(InputError):
    """A rule, a machine table or the vocabulary is malformed."""


class QuoteError(RulebookError):
    """A citation that is missing from the text or ambiguous in it."""


def did_you_mean(word: str, choices: Iterable[str], n: int = 3) -> str:
    """A "did you mean" hint for an unknown word, or a list of what is known when nothing is close.

    >>> did_you_mean("释获着", ["释获者", "获者", "司射"])
    'did you mean 释获者, 获者?'
    """
    return _did_you_mean(word[:_LONGEST], tuple(sorted(set(choices))), n)


_LONGEST = 64  # a longer word is like no known word: compared by its first characters only


def close_matches(word: str, pool: Iterable[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
    """difflib's close matches, difflib imported only when a word is not known (a run that meets
    no bad input does without it)."""
    import difflib

    return difflib.get_close_matches(word, pool, n=n, cutoff=cutoff)


@lru_cache(maxsize=4096)
def _did_you_mean(word: str, pool: tuple[str, ...], n: int) -> str:
    close = close_matches(word, pool, n=n, cutoff=0.4)
    if not close:
        # single-character differences in CJK words are common: look for shared characters
        close = [c for c in pool if set(c) & set(word)][:n]
    if close:
        return Message("input.did-you-mean", words=", ".join(close))
    shown = ", ".join(pool[:12]) + (" …" if len(pool) > 12 else "")
    return Message("input.known", words=shown)


class UsageError(InputError):
    """Bad input about the way a command was called or the file it writes: `where: error: …` (the file
    concerned), or `error: …` when no file is concerned. The message is a catalogue Message."""

    def __init__(self, message: str, where: str | None = None) -> None:
        super().__init__(where or "", None, message)

    def __reduce__(self):
        return (type(self), (self.message, self.path or None))

    def render(self, lang: str | None = None) -> str:
        if lang is None:
            return Localised(self.render)
        if self.path:
            return Message("input.error", where=self.path, message=render(self.message, lang)).render(lang)
        return Message("input.error-bare", message=render(self.message, lang)).render(lang)
