"""The files a command names and writes: a path as messages show it (relative to the working
directory when it is below it), and a file written without ever replacing one, unless asked to."""

from __future__ import annotations

from pathlib import Path

from xiangshe.domain.errors import UsageError


def display(path: Path) -> str:
    """`path` relative to the working directory if it is below it, else as given."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def save(output: Path, text: str, force: bool | None = False) -> None:
    """Write a file the command made; never over one that exists, unless `force` (None: the command
    has no --force, and the advice does not offer it). A UsageError if it cannot be written."""
    advice = "choose another name or use --force" if force is not None else "choose another name"
    if output.exists() and not force:
        raise UsageError(f"{display(output)}: error: the file exists; {advice}")
    try:
        with output.open("w" if force else "x", encoding="utf-8") as f:  # "x": never over a file
            f.write(text)
    except FileExistsError:
        raise UsageError(f"{display(output)}: error: the file exists; {advice}") from None
    except OSError as err:
        raise UsageError(f"{display(output)}: error: cannot write: {err.strerror}") from None


def report_path(output: Path | None, default: Path) -> Path:
    """Where `report` writes its page: `output` (-o), whose directory must exist; else `default`,
    whose directory is made if it is missing. A UsageError if neither can be."""
    if output is not None:
        if not output.parent.is_dir():
            raise UsageError(f"{display(output)}: error: no such directory {display(output.parent)}")
        return output
    try:
        default.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise UsageError(
            f"{display(default.parent)}: error: cannot make the directory for the "
            f"report: {err.strerror}; choose another place with -o"
        ) from None
    return default
