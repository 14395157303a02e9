"""click parameter types for options whose values have a shape of their own: each value is checked
when the command line is read, and a bad one is a usage error (exit 2) that names the option, says
what was expected and, where it helps, what was probably meant."""

from __future__ import annotations

import math
import re

import click

from xiangshe.domain.errors import did_you_mean


class ArrowSpec(click.ParamType):
    """`--arrow 2:上耦:上射=贯,不中,贯,中不贯`, as (key, four results)."""

    name = "arrow"

    def convert(self, value, param, ctx):
        from xiangshe.domain.libretto import StagingError, parse_arrow

        if isinstance(value, tuple):
            return value
        try:
            return parse_arrow(value)
        except StagingError as err:
            self.fail(str(err), param, ctx)


class PhaseId(click.ParamType):
    """A phase of the ceremony as the vocabulary names it (Φ01 … Φ52)."""

    name = "phase"

    def convert(self, value, param, ctx):
        from xiangshe.domain.vocabulary import vocabulary

        phases = vocabulary().phases
        m = re.fullmatch(r"(?:Φ|phi|PHI)\s*([0-9]{1,2})", value.strip())
        if m and f"Φ{int(m.group(1)):02d}" in phases:  # Φ5, phi05 → Φ05
            return f"Φ{int(m.group(1)):02d}"
        if value not in phases:
            self.fail(
                f"no phase {value!r}; {did_you_mean(value, phases)} (the phases are {min(phases)} … {max(phases)})",
                param,
                ctx,
            )
        return value


class Percent(click.FloatRange):
    """A percentage: a number from 0 to 100 (not nan)."""

    def __init__(self) -> None:
        super().__init__(0, 100)

    def convert(self, value, param, ctx):
        rv = super().convert(value, param, ctx)
        if math.isnan(rv):
            self.fail("nan is not a percentage; give a number from 0 to 100", param, ctx)
        return rv
