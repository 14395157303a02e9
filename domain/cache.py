"""A cache of what is derived from the sources: the vocabulary, the machine tables, the rulebook.

Loading them means parsing TOML, locating every quote in the text and checking every pattern
against the vocabulary — most of a short `check`. The result depends only on the package's code
and data files, so it is kept in the user's cache directory (`platformdirs.user_cache_dir`, or
`XIANGSHE_CACHE_DIR`), one file per artefact, keyed by the Python version, the package's code
(domain/, fsm/, constraints/) and the source files it was derived from: by each file's path and the hash
Python itself checks a hash-based .pyc against (`importlib.util.source_hash`, 64 bits of SipHash — a
tenth of SHA-256's instructions, which were an eighth of a short check's). The entry holds that whole
key and is named by a hash of it; an entry whose key is not the one sought is not read. The code is hashed
rather than the package's version: an edited checkout gets a new key without a new version number
(and reading the version would cost an import of importlib.metadata on every run). An edited source
gives another name: the old entry is never read again, and is pruned once four newer ones of its
artefact are there. `XIANGSHE_NO_CACHE=1` bypasses the cache.

A table (`read_table`, `write_table`) is an entry of another kind: it maps texts to what this Python
makes of them (the compiled code of the dataclasses' methods, domain/dataclass.py), so its name
depends on the Python alone; it is read whole, and what a run adds to it is stored as the run ends.

Only a successful load is stored: a load that raises (a bad rule, a missing quote …) raises on every
run, exactly as without the cache. Anything wrong with the cache itself — a missing or read-only
directory, a corrupt, truncated or foreign entry — only means the artefact is derived again.

The entries are pickles. Unpickling runs code named in the file, so a pickle is read only if it is
a regular file owned by this user and writable by no one else, as this program writes them (mode
0600): a file that someone else could have written — even in a shared directory — is ignored, and
anyone who can write as the user can already change the package itself.
A pickle keeps the objects' sharing and needs no serialiser to keep in step with the dataclasses;
it is written to a temporary file in the same directory and renamed into place (`os.replace`), so
concurrent runs each read a whole entry or none.

An entry's objects live as long as the process: they are unpickled with the collector paused, and in
a process that froze what it loaded (`gc.freeze`: the command line's, domain/gcpause.py `own_process`) they are frozen
with it at once, so that no collection ever walks them.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable, Collection, Iterable
from functools import cache
from importlib.util import source_hash
from pathlib import Path
from typing import Any, TypeVar

from xiangshe.domain.gcpause import gc_paused, settle

try:  # pickle's reader in C, without the module `pickle` (its pickler in Python: millions of instructions to import)
    from _pickle import load as _load
except ImportError:  # a Python without it
    from pickle import load as _load

T = TypeVar("T")

ROOT = Path(__file__).resolve().parents[1]  # the package: domain/, fsm/, constraints/ …
#: the code that derives the artefacts and defines their classes: any change to it invalidates them
CODE = (("domain", ".py"), ("fsm", ".py"), ("constraints", ".py"))
#: the package's data files that every artefact may read (vocabulary, text, tables, readings …)
DATA = (("domain", ".toml"), ("domain", ".txt"), ("fsm/tables", ".toml"), ("constraints", ".toml"))
FORMAT = 1  # the layout of an entry: (FORMAT, key, payload)
KEEP = 4  # entries of one artefact kept (other checkouts, other Python versions); older ones are pruned
ENV_DIR = "XIANGSHE_CACHE_DIR"
ENV_OFF = "XIANGSHE_NO_CACHE"


def cache_dir() -> Path | None:
    """Where the entries live: $XIANGSHE_CACHE_DIR, else the user's cache directory; None when
    XIANGSHE_NO_CACHE is set (to anything but 0, false, no or nothing)."""
    if os.environ.get(ENV_OFF, "").strip().lower() not in ("", "0", "false", "no"):
        return None
    chosen = os.environ.get(ENV_DIR)
    if chosen:
        return Path(chosen)
    plain = _plain_cache_dir()
    if plain is not None:
        return Path(plain)
    import platformdirs  # only when it is needed: XIANGSHE_CACHE_DIR (or a plain Linux) spares the import

    return Path(platformdirs.user_cache_dir("xiangshe", appauthor=False))


def _plain_cache_dir() -> str | None:
    """`platformdirs.user_cache_dir("xiangshe", appauthor=False)` where every version of platformdirs we
    accept (3 and 4) says the same, without importing it (platformdirs 4 imports tempfile, shutil, bz2,
    lzma, random …: a twentieth of a short check): on Linux, not Android, $XDG_CACHE_HOME/xiangshe when
    that is an absolute path, else, when it is unset or empty, ~/.cache/xiangshe with an absolute $HOME.
    Anything else (another system, a relative or padded variable, no HOME) is left to platformdirs: None."""
    env = os.environ
    if sys.platform != "linux" or hasattr(sys, "getandroidapilevel") or "ANDROID_DATA" in env or "ANDROID_ROOT" in env:
        return None
    xdg = env.get("XDG_CACHE_HOME", "")
    if xdg:
        return os.path.join(xdg, "xiangshe") if xdg.startswith("/") and xdg == xdg.strip() else None
    home = env.get("HOME", "")
    if not home.startswith("/") or home != home.strip():
        return None
    return os.path.join(os.path.expanduser("~/.cache"), "xiangshe")


def _files(folder: str, suffix: str) -> list[str]:
    """The files of `folder` (in the package) whose names end with `suffix`, by name, as 'folder/name'."""
    try:
        names = os.listdir(os.path.join(ROOT, folder))
    except OSError:
        return []
    return [f"{folder}/{n}" for n in sorted(names) if n.endswith(suffix)]


@cache
def _base_digest() -> bytes:
    """The Python version, the package's code and its data files: each file's path and hash (os.listdir
    and open, not pathlib's glob and read_bytes: a tenth of their instructions for the hundred files)."""
    parts = [f"{FORMAT}\0{sys.version}\0{sys.implementation.cache_tag}\0".encode()]
    names = ["__init__.py"]
    for folder, suffix in CODE + DATA:
        names += _files(folder, suffix)
    for name in names:
        with open(os.path.join(ROOT, name), "rb") as f:
            parts.append(name.encode() + b"\0" + source_hash(f.read()))
    return b"\0".join(parts)


def key(name: str, sources: Iterable[tuple[str, Path]]) -> bytes:
    """The key of artefact `name` derived from `sources` ((the name it shows, its file) pairs)
    besides the package's own code and data: every path with its file's hash, stored whole in the entry."""
    parts = [_base_digest(), name.encode()]
    for shown, path in sources:
        parts.append(shown.encode() + b"\0" + source_hash(path.read_bytes()))
    return b"\0".join(parts)


def _entry(folder: Path, name: str, entry_key: bytes) -> Path:
    """The file of the entry of `name` with key `entry_key`."""
    return folder / f"{name}-{source_hash(entry_key).hex()}.pickle"


def _trusted(fd: int) -> bool:
    """An entry this user wrote and no one else could have: see the module's docstring."""
    if not hasattr(os, "getuid"):  # Windows: the user's own profile holds the cache
        return True
    mine = os.fstat(fd)
    return (
        stat.S_ISREG(mine.st_mode) and mine.st_uid == os.getuid() and not mine.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    )


def _read(path: Path, entry_key: bytes) -> tuple[bool, Any]:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False, None
    try:
        with os.fdopen(fd, "rb") as f:
            if not _trusted(f.fileno()):
                return False, None
            with gc_paused():  # the entry's many objects live as long as the process: no collection walks them
                found = _load(f)
                settle()  # the command line's process freezes the entry before a collection walks it
    except Exception:  # noqa: BLE001 — any damage to an entry means "derive it again", never an error
        return False, None
    if not (isinstance(found, tuple) and len(found) == 3 and found[0] == FORMAT and found[1] == entry_key):
        return False, None
    return True, found[2]


def shared(value: T) -> T:
    """`value` with its equal strings, tuples, frozensets and frozen dataclass instances made one object
    each, so that an entry holds each once and reading it makes each once (the rulebook's 33,000 objects
    become 20,000, read a third faster; of its 1,509 conditions 309 are distinct, of its 955 citations
    656). Done in place: an object's attributes, a dict's values and a list's items are replaced by
    equal objects of the same type (a tuple or a frozenset is one another's only if their items are the
    same objects: (1,) and (True,) stay apart; an instance of a frozen dataclass is another's only if it
    is of the same class and its attributes are the same objects, by name and in order). Nothing else is
    touched; the value is returned."""
    canon: dict[object, Any] = {}
    done: set[int] = set()
    merged: dict[int, tuple[Any, Any]] = {}  # a frozen instance's id → (the one kept, itself: its id stays its own)

    def one(v: Any) -> Any:
        kind = type(v)
        if kind is str:
            return canon.setdefault(v, v)
        if kind is tuple or kind is frozenset:
            items = [one(x) for x in v]
            key = (kind, tuple(map(id, items)) if kind is tuple else frozenset(map(id, items)))
            got = canon.get(key)
            if got is None:  # the items are kept with it: their ids name them while the walk lasts
                same = all(a is b for a, b in zip(items, v, strict=True))
                got = canon[key] = (v if same else kind(items), items)
            return got[0]
        if id(v) in merged:
            return merged[id(v)][0]
        if id(v) in done:
            return v
        done.add(id(v))
        if kind is dict:
            for k, x in v.items():
                v[k] = one(x)
        elif kind is list:
            v[:] = [one(x) for x in v]
        else:
            attrs = getattr(v, "__dict__", None)
            if type(attrs) is dict:  # a frozen dataclass's fields too: equal values, the object unchanged
                for k, x in attrs.items():
                    attrs[k] = one(x)
                params = getattr(kind, "__dataclass_params__", None)
                if params is not None and params.frozen:  # immutable: equal instances can be one
                    kept = canon.setdefault((kind, tuple((k, id(x)) for k, x in attrs.items())), v)
                    merged[id(v)] = (kept, v)
                    return kept
        return v

    return one(value)


def _write(folder: Path, name: str, entry_key: bytes, value: object) -> None:
    import pickle  # only to write: a warm run does without them
    import tempfile

    try:
        folder.mkdir(parents=True, exist_ok=True)
        data = pickle.dumps((FORMAT, entry_key, shared(value)), protocol=pickle.HIGHEST_PROTOCOL)
        fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{name}-", suffix=".tmp")  # mode 0600
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(temp, _entry(folder, name, entry_key))
        except BaseException:
            os.unlink(temp)
            raise
        _prune(folder, name)
    except Exception:  # noqa: BLE001 — a cache that cannot be written is no cache, not an error
        return


def _prune(folder: Path, name: str) -> None:
    """Keep the newest KEEP entries of `name` (a source edited many times leaves no trail)."""
    entries = []
    for path in folder.glob(f"{name}-*.pickle"):
        try:
            entries.append((path.stat().st_mtime, path))
        except OSError:
            continue
    for _, path in sorted(entries, reverse=True)[KEEP:]:
        try:
            path.unlink()
        except OSError:
            pass


def _folder() -> Path | None:
    try:
        return cache_dir()
    except Exception:  # noqa: BLE001 — no home directory to find a cache in: no cache
        return None


def _table_key(name: str) -> bytes:
    """The key of a table (`read_table`): what it holds depends on the Python only, not on the package."""
    return f"{FORMAT}\0{sys.version}\0{sys.implementation.cache_tag}\0{sys.flags.optimize}\0{name}".encode()


def read_table(name: str) -> dict[str, bytes] | None:
    """The table `name` as stored (empty: nothing stored yet), or None when there is no cache.

    A table maps texts to what this Python makes of them (domain/dataclass.py: the compiled code of a
    dataclass's methods): it grows as programs run (`write_table`) and is never derived as a whole."""
    folder = _folder()
    return None if folder is None else _stored_table(folder, name)


def _stored_table(folder: Path, name: str) -> dict[str, bytes]:
    """The table `name` as stored in `folder` (empty: nothing stored yet)."""
    entry_key = _table_key(name)
    hit, value = _read(_entry(folder, name, entry_key), entry_key)
    return value if hit and isinstance(value, dict) else {}


def write_table(name: str, added: dict[str, bytes], used: Collection[str] = (), most: int | None = None) -> None:
    """Store the table `name` with `added`: what is stored now (another process may have added to it
    meanwhile), updated with `added`. A table that would hold more than `most` texts keeps only those
    this run `used` and `added` (the texts of code edited since are not carried on for ever)."""
    if not added:
        return
    folder = _folder()
    if folder is None:
        return
    table = _stored_table(folder, name) | added
    if most is not None and len(table) > most:
        table = {k: v for k, v in table.items() if k in added or k in used}
    _write(folder, name, _table_key(name), table)


def derived(name: str, sources: Iterable[tuple[str, Path]], build: Callable[[], T]) -> T:
    """The artefact `name`: from the cache if an entry for these sources is there, else `build()`
    (stored when it returns; whatever it raises is raised, and nothing is stored)."""
    folder = _folder()
    if folder is None:
        return build()
    try:
        entry_key = key(name, sources)
    except OSError:  # a source that cannot be read: the build reports it as it always has
        return build()
    hit, value = _read(_entry(folder, name, entry_key), entry_key)
    if hit:
        return value  # what `build` returned when it was stored (the key names the sources and the code)
    value = build()
    _write(folder, name, entry_key, value)
    return value
