"""Helpers the libretto calls (see perform.py). Keep this small: prefer the templates."""

from __future__ import annotations


def released(ups, lows, beat=None) -> int:
    """The tallies a pair released (shooting.j2 shoot_pair): one per 中正, on the beat when beats are
    given (round 3, 不鼓不释: `beat` is two lists of four 是/否, the 上射's and the 下射's)."""
    return sum(
        r == "中正" and (not beat or beat[k][i] == "是")
        for k, four in enumerate((ups, lows))
        for i, r in enumerate(four)
    )
