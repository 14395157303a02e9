"""The files a command names and writes: a path as messages show it (relative to the working
directory when it is below it), and a file written without ever replacing one, unless asked to."""

from __future__ import annotations

from pathlib import Path

from xiangshe.domain.errors import UsageError
from xiangshe.domain.messages import Message


def display(path: Path) -> str:
    """`path` relative to the working directory if it is below it, else as given."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def save(output: Path, text: str, force: bool | None = False) -> None:
    """Write a file the command made; never over one that exists, unless `force` (None: the command
    has no --force, and the advice does not offer it). A UsageError if it cannot be written."""
    advice = Message("usage.advice-force") if force is not None else Message("usage.advice")
    if output.exists() and not force:
        raise UsageError(Message("usage.file-exists", advice=advice), display(output))
    try:
        with output.open("w" if force else "x", encoding="utf-8") as f:  # "x": never over a file
            f.write(text)
    except FileExistsError:
        raise UsageError(Message("usage.file-exists", advice=advice), display(output)) from None
    except OSError as err:
        raise UsageError(Message("usage.cannot-write", reason=err.strerror), display(output)) from None


def report_path(output: Path | None, default: Path) -> Path:
    """Where `report` writes its page: `output` (-o), whose directory must exist; else `default`,
    whose directory is made if it is missing. A UsageError if neither can be."""
    if output is not None:
        if not output.parent.is_dir():
            raise UsageError(Message("usage.no-directory", path=display(output.parent)), display(output))
        return output
    try:
        default.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise UsageError(Message("usage.cannot-mkdir", reason=err.strerror), display(default.parent)) from None
    return default
