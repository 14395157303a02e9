"""`lazy`: a regular expression compiled when it is first used, not when its module is imported.

A module-level `re.compile` runs on every start, used or not: the patterns that only loading the
rulebook, a selection, a configuration file, a YAML staging or a long message need cost a plain
`check` some 5 M instructions to compile. `lazy(text, flags)` stands for `re.compile(text, flags)`:
every attribute of the pattern (`match`, `search`, `sub`, `split`, `pattern` …) is the compiled
pattern's, compiled at the first. Not for a pattern used once per event (a call costs an attribute
lookup more), nor for one handed to the `re` module's functions (they want the compiled pattern).
"""

from __future__ import annotations

import re
from typing import Any, cast


class _Lazy:
    __slots__ = ("_compiled", "_flags", "_text")

    def __init__(self, text: str, flags: int) -> None:
        self._text, self._flags = text, flags
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self._text, self._flags)
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._text!r}, {self._flags!r})"


def lazy(text: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(text, flags)`, compiled when it is first used.

    >>> word = lazy(r"[a-z]+")
    >>> word.match("abc1").group(), word.sub("-", "ab1cd"), word.pattern
    ('abc', '-1-', '[a-z]+')
    """
    return cast("re.Pattern[str]", _Lazy(text, flags))
