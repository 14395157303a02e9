"""`readings` (also `check --all-readings`): each staging under every combination of the contested
readings that bears on it (reports/allreadings.py)."""

from __future__ import annotations

from pathlib import Path

from xiangshe.reports.cli import located
from xiangshe.reports.commands.common import lint_settings, sources
from xiangshe.reports.commands.common import readings as chosen_readings


def readings(
    files: tuple[str, ...],
    fmt: str | None,
    max_combinations: int,
    reading: tuple[str, ...],
    readings_file: Path | None,
    stdin_format: str | None = None,
    stdin_filename: str | None = None,
    max_input_size: int | None = None,
    **lint,
) -> int:
    """Compare each staging FILES name; the exit status: 0 holds under every reading, 1 fails under
    some, 2 bad input, 3 a bound stopped a comparison. `lint` may hold `check`'s other options (its
    own --all-readings forwards them): a baseline is refused, the rest that do not apply are left."""
    from xiangshe.reports.allreadings import pinned, run

    cfg, selection = lint_settings(lint | {"force": False})
    chosen = chosen_readings(reading, readings_file, cfg.readings)
    staged = sources(files, stdin_format, stdin_filename, max_input_size)
    held = located(pinned, reading, readings_file)
    return run(staged, chosen, held, selection, fmt or cfg.format, max_combinations, lint)
