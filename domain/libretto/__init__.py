"""The ceremony as data: the libretto of the text, and the stagings performed from it.

`text/` holds the libretto: the text clause by clause, in its own order, each clause with the
events that enact it and the text's own branches as conditions (若无大夫, 若有诸公, 若矢不备 …). The
Python here only performs it: `options` (what a staging varies on), `cast` (who takes part),
`arrows` (where each arrow strikes), `perform` (render and locate each clause in the text).
`bundle` writes the bundled stagings: `python -m xiangshe.domain.libretto.bundle`.
"""

from __future__ import annotations

from xiangshe.domain.libretto.cast import Cast, Pair
from xiangshe.domain.libretto.options import ARROW_SPEC, OUTCOMES, RESULTS, SIDES, Options, StagingError, parse_arrow
from xiangshe.domain.libretto.perform import Performance, header, perform

__all__ = [
    "ARROW_SPEC",
    "OUTCOMES",
    "RESULTS",
    "SIDES",
    "Cast",
    "Options",
    "Pair",
    "Performance",
    "StagingError",
    "generate",
    "parse_arrow",
    "performance",
]


def performance(options: Options | None = None) -> Performance:
    """The libretto performed for `options`: the trace lines and the clauses they enact."""
    o = options or Options()
    return perform(o, Cast(o))


def generate(options: Options | None = None, title: str = "乡射礼 — a staging") -> str:
    """The staging for `options`, as trace text."""
    o = options or Options()
    cast = Cast(o)
    return "\n".join(header(o, cast, title) + perform(o, cast).lines) + "\n"
