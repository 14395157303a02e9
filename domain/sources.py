"""Where stagings come from, and which reader each takes.

The FILE arguments of `check` (and `report`) are

- a file, read by its suffix, in any letter case: `.trace` the line format, `.jsonl` JSON Lines,
  `.json` a JSON array of records, `.yaml` / `.yml` YAML; any other suffix is an input error (with
  a "did you mean" where one is close), never read as something it may not be;
- a directory: every staging file below it, recursively, sorted, by those suffixes; hidden files
  and directories (a name starting with `.`) are skipped; a directory holding none is an error;
- `-`: standard input, read as `--stdin-format` says (else by the suffix of `--stdin-filename`,
  else the line format) and named in messages `--stdin-filename` or `<stdin>`.

Every source is read up to the size limit (64 MiB, or `check --max-input-size`: `parse_size`) and
no further (parse.read_bounded). A source that cannot be used at all (no such file, an unknown
suffix, an empty directory) is a `Source` carrying its error, so that it is reported in its place
among the others.

With no FILE, `check` checks the bundled canonical ceremony, but only when standard input holds
nothing: `stdin_state` says whether it does (a terminal, a closed stream or an empty one hold
nothing; a pipe, a file or a device with data, or an open pipe that stays silent, are refused by
the caller, never silently ignored).
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import BinaryIO, cast

from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.errors import TraceError, UsageError, close_matches
from xiangshe.domain.messages import Message
from xiangshe.domain.parse import (
    MAX_BYTES,
    READERS,
    TraceErrors,
    decode,
    parse_jsonl_data,
    read_bounded,
    read_path_data,
)
from xiangshe.domain.trace import Trace
from xiangshe.domain.vocabulary import Vocabulary

#: a staging file's suffix (lower-cased) → its reader (parse.READERS)
SUFFIXES = {".trace": "trace", ".jsonl": "jsonl", ".json": "json", ".yaml": "yaml", ".yml": "yaml"}
FORMATS = tuple(READERS)  # what --stdin-format accepts
STDIN = "-"
STDIN_NAME = "<stdin>"
#: with no FILE, how long an open pipe on standard input may stay silent before it is refused
STDIN_WAIT = 1.0
KNOWN = ".trace, .jsonl, .json, .yaml or .yml"


@dataclass(frozen=True)
class Source:
    """One staging to read: a file (`path`), or standard input (`path` None); `error` if it cannot
    be read at all."""

    display: str  # the name in messages, JSON, SARIF and JUnit
    path: Path | None = None
    fmt: str = "trace"
    error: TraceErrors | None = None
    limit: int = MAX_BYTES  # bytes read at most

    def __str__(self) -> str:
        return self.display

    @property
    def is_stdin(self) -> bool:
        return self.path is None and self.error is None

    def read(self, vocab: Vocabulary | None = None, stdin: BinaryIO | None = None) -> Trace:
        """The trace; TraceErrors (located) if it cannot be read as one."""
        if self.error is not None:
            raise self.error
        if self.path is None:
            data = read_stdin_data(self.display, stdin, self.limit)
        else:
            data = read_path_data(self.path, self.display, self.limit)
        return read_data(self.fmt, data, self.display, vocab)


def _fail(display: str, message: str, line: int | None = None) -> Source:
    return Source(display, error=TraceErrors([TraceError(display, line, message)]))


def format_of(path: Path | str, display: str) -> str:
    """The reader for a file, by its suffix in any letter case; TraceErrors for any other suffix."""
    suffix = Path(path).suffix
    fmt = SUFFIXES.get(suffix.lower())
    if fmt is not None:
        return fmt
    what = suffix if suffix else "(no extension)"
    close = close_matches(suffix.lower(), SUFFIXES, n=2, cutoff=0.75) if suffix else []
    hint = Message("input.did-you-mean", words=", ".join(close)) if close else None
    raise TraceErrors([TraceError(display, None, Message("input.file-type", what=what, known=KNOWN), hint=hint)])


def parse_path(
    path: Path, display: str | None = None, vocab: Vocabulary | None = None, limit: int = MAX_BYTES
) -> Trace:
    """Read and parse a staging file by its suffix (see `format_of`)."""
    shown = display or str(path)
    return read_data(format_of(path, shown), read_path_data(path, shown, limit), shown, vocab)


def read_data(fmt: str, data: bytes | bytearray, display: str, vocab: Vocabulary | None = None) -> Trace:
    """A staging from the bytes of its file: JSON Lines read line by line (`parse_jsonl_data`: a line
    read before is never decoded again), any other format decoded whole, then read."""
    if fmt == "jsonl":
        return parse_jsonl_data(data, display, vocab)
    return READERS[fmt](decode(data, display), display, vocab)


def _stdin_binary() -> BinaryIO | None:
    stream = sys.stdin
    # a replaced sys.stdin (a test's BytesIO) has no buffer: it is the binary stream itself
    return None if stream is None else cast(BinaryIO, getattr(stream, "buffer", stream))


def read_stdin_data(display: str = STDIN_NAME, stream: BinaryIO | None = None, limit: int = MAX_BYTES) -> bytearray:
    """The bytes on standard input (or `stream`), read up to the size limit and no further."""
    stream = stream if stream is not None else _stdin_binary()
    if stream is None:
        raise TraceErrors([TraceError(display, None, "cannot read: standard input is closed")])
    return read_bounded(stream, display, limit)


def stdin_source(stdin_format: str | None = None, stdin_filename: str | None = None, limit: int = MAX_BYTES) -> Source:
    """Standard input as a source: read as `stdin_format`, else by the suffix of `stdin_filename`
    when it is a staging suffix, else as the line format."""
    fmt = stdin_format
    if fmt is None and stdin_filename:
        fmt = SUFFIXES.get(Path(stdin_filename).suffix.lower())
    return Source(stdin_filename or STDIN_NAME, None, fmt or "trace", limit=limit)


def _hidden(name: str) -> bool:
    return name.startswith(".") and name not in (".", "..")


def walk(directory: Path) -> list[Path]:
    """The staging files below `directory`, recursively, sorted by their path (component by
    component); hidden files and directories skipped, symbolic links to directories not followed.
    OSError if a directory cannot be read."""
    return [path for path, _ in _listed(directory)]


def _listed(directory: Path) -> list[tuple[Path, Path]]:
    """`walk(directory)`, each file with its path resolved (`Path.resolve`): the directory's, resolved
    once, and the file's path below it, for all but a symbolic link (resolved itself). No directory
    listed is a link (they are not followed), so no file needs its path looked up again."""
    found: list[tuple[Path, Path]] = []
    below = [(directory, directory.resolve())]
    while below:
        folder, real = below.pop()
        with os.scandir(folder) as listing:  # as os.walk lists it: an OSError if it cannot be read
            entries = list(listing)
        for entry in entries:
            if _hidden(entry.name):
                continue
            try:
                is_dir = entry.is_dir()  # a link to a directory is one, as os.walk counts it: not a file
            except OSError:
                is_dir = False
            if is_dir:
                if not entry.is_symlink():
                    below.append((folder / entry.name, real / entry.name))
            elif os.path.splitext(entry.name)[1].lower() in SUFFIXES:
                path = folder / entry.name
                found.append((path, path.resolve() if entry.is_symlink() else real / entry.name))
    return sorted(found, key=lambda p: p[0].parts)


def expand(
    args: Sequence[str],
    display: Callable[[Path], str],
    stdin_format: str | None = None,
    stdin_filename: str | None = None,
    limit: int = MAX_BYTES,
) -> list[Source]:
    """The sources that FILE arguments name, in order: files, the stagings below directories,
    standard input for `-`. A file reached twice is read once; each is read up to `limit` bytes."""
    out: list[Source] = []
    seen: set[Path] = set()
    stdin_taken = False

    def add(path: Path, shown: str, key: Path | None = None) -> None:
        key = key if key is not None else path.resolve()
        if key in seen:
            return
        seen.add(key)
        try:
            out.append(Source(shown, path, format_of(path, shown), limit=limit))
        except TraceErrors as err:
            out.append(Source(shown, path, error=err))

    for arg in args:
        if arg == STDIN:
            if stdin_taken:
                out.append(_fail(STDIN, "standard input is named twice; it can be read once"))
            else:
                out.append(stdin_source(stdin_format, stdin_filename, limit))
            stdin_taken = True
            continue
        if not arg:  # `check "$PLAN"` with PLAN unset: not the current directory
            out.append(_fail("''", "an empty FILE argument; name a file, a directory (. for this one) or -"))
            continue
        path = Path(arg)
        shown = display(path)
        try:
            info = path.stat()
        except FileNotFoundError:
            out.append(_fail(shown, Message("input.no-such-file")))
            continue
        except OSError as err:
            out.append(_fail(shown, f"cannot read: {err.strerror or err}"))
            continue
        if not stat.S_ISDIR(info.st_mode):
            add(path, shown)
            continue
        try:
            found = _listed(path)
        except OSError as err:
            where = display(Path(err.filename)) if err.filename else shown
            out.append(_fail(where, f"cannot read the directory: {err.strerror or err}"))
            continue
        if not found:
            out.append(_fail(shown, Message("input.no-stagings", known=KNOWN)))
        for p, key in found:
            add(p, display(p), key)
    return out


def stdin_state(stream: object = None, wait: float = STDIN_WAIT) -> str:
    """What standard input (or `stream`) holds, for a command given no FILE:

    - "none": a terminal, a closed or invalid stream, an empty file, or a pipe or device that is at
      its end (`< /dev/null`, `true |`) — nothing to read;
    - "data": a pipe, file or device with data;
    - "silent": an open pipe that sent nothing within `wait` seconds.

    Only the first byte is read (from a pipe or device), and only to tell "data" from "none".
    """
    stream = sys.stdin if stream is None else stream
    if stream is None:
        return "none"
    try:
        fd = stream.fileno()  # type: ignore[union-attr]  # any object: one without fileno is caught below
    except (OSError, ValueError, AttributeError):  # an in-memory stream
        try:
            first = getattr(stream, "buffer", stream).read(1)  # type: ignore[attr-defined]
        except (OSError, ValueError):
            return "none"
        return "data" if first else "none"
    try:
        info = os.fstat(fd)
        if os.isatty(fd):
            return "none"
    except OSError:
        return "none"
    if stat.S_ISREG(info.st_mode):
        try:
            position = os.lseek(fd, 0, os.SEEK_CUR)
        except OSError:
            position = 0
        return "data" if info.st_size > position else "none"
    if stat.S_ISDIR(info.st_mode):
        return "none"
    import select

    if hasattr(select, "poll"):  # a pipe, FIFO, socket or device: wait for a byte or EOF
        poll = select.poll()
        poll.register(fd, select.POLLIN | select.POLLPRI)
        if not poll.poll(int(wait * 1000)):
            return "silent"
    try:
        first = os.read(fd, 1)
    except BlockingIOError:
        return "silent"
    except OSError:
        return "none"
    return "data" if first else "none"


def named(
    files: Sequence[str],
    stdin_format: str | None,
    stdin_filename: str | None,
    display: Callable[[Path], str],
    default: Path,
    limit: int = MAX_BYTES,
) -> list[Source]:
    """The stagings FILES name (files, directories, `-`); with no FILE, `default` (the canonical
    ceremony) — unless standard input holds something, which is refused (a UsageError) rather than
    silently ignored."""
    if (stdin_format or stdin_filename) and STDIN not in files:
        option = "--stdin-format" if stdin_format else "--stdin-filename"
        raise UsageError(Message("usage.stdin-option", option=option))
    if files:
        return expand(files, display, stdin_format, stdin_filename, limit)
    state = stdin_state()
    if state == "data":
        raise UsageError(Message("usage.stdin-unread"))
    if state == "silent":
        raise UsageError(Message("usage.stdin-silent", wait=f"{STDIN_WAIT:g}"))
    return [Source(display(default), default, "trace", limit=limit)]


_SIZE = re.compile(r"([0-9]{1,15})\s*(?:([KMGT])(?:i?B)?|B)?", re.IGNORECASE)
_UNITS = {None: 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_size(text: str) -> int:
    """A size in bytes, as `check --max-input-size` takes it: a whole number of bytes, or with K, M,
    G or T (KiB, MiB, GiB, TiB: powers of 1024; a B or iB after the letter changes nothing). ValueError
    if it is none of these, or not above 0.

    >>> parse_size("200M"), parse_size("64MiB"), parse_size("1g"), parse_size("4096")
    (209715200, 67108864, 1073741824, 4096)
    """
    m = _SIZE.fullmatch(text.strip())
    size = int(m.group(1)) * _UNITS[m.group(2) and m.group(2).upper()] if m else 0
    if size <= 0:
        raise ValueError(f"{text!r} is not a size: write a number of bytes, or with K, M or G (200M, 1G)")
    return size
