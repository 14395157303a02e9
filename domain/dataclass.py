"""`dataclass`: the standard library's, with the code of the methods it writes compiled once.

Making a dataclass writes the source of its methods (`__init__`, `__repr__`, `__eq__`, a frozen
class's `__hash__`, `__setattr__` and `__delattr__`) and compiles it: most of the half millisecond a
class costs, and a `check` imports some sixty of them — a sixth of a short check's instructions. The
compiled code depends on nothing but its text and the Python that compiled it, so it is kept in the
cache of derived artefacts (domain/cache.py `read_table`), by text, one table per Python version: a
class is made by the standard library exactly as it always is, from the very code that compiling
its text gives (`compile(text, "<string>", "exec")`, as `exec(text)` compiles it), only not compiled
again. A text the table does not hold yet is compiled here, and stored when the process ends.

While one of our classes is made, the module `dataclasses` finds `exec` here (a global of the module,
set then removed): another thread's dataclass made meanwhile takes the same path, with the same code.
XIANGSHE_NO_CACHE=1 (no table) leaves `dataclasses` alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # checkers know the standard library's dataclass (its fields, frozen, slots …)
    from dataclasses import dataclass as dataclass
else:
    import dataclasses
    import marshal

    NAME = "dataclass-code"  # the cache's entry (domain/cache.py)
    MOST = 2000  # texts the table holds at most (a check uses some 340): past it, a run keeps its own

    _table: dict[str, bytes] | None = None  # the stored code by text (None: no cache)
    _read = False
    _made: dict[str, bytes] = {}  # compiled in this process, not yet stored
    _used: set[str] = set()  # found in the table by this process
    _making = 0  # classes being made (a class made while another is: none of ours, but harmless)

    def dataclass(cls=None, /, **options):
        """`dataclasses.dataclass(cls, **options)`, with its methods' code compiled once."""

        def make(c):
            global _making
            if _stored() is None:
                return dataclasses.dataclass(c, **options)
            _making += 1
            dataclasses.exec = _exec
            try:
                return dataclasses.dataclass(c, **options)
            finally:
                _making -= 1
                if not _making:
                    vars(dataclasses).pop("exec", None)

        return make if cls is None else make(cls)

    def _stored():
        global _table, _read
        if not _read:
            from xiangshe.domain.cache import read_table

            _read = True
            _table = read_table(NAME)
        return _table

    def _exec(source, globals=None, locals=None, /):
        """`exec` for the module `dataclasses`: a text it wrote runs as the code compiled from it."""
        exec(_code(source) if type(source) is str else source, globals, locals)

    def _code(text):
        data = (_table or {}).get(text)
        if data is not None:
            try:
                code = marshal.loads(data)
                _used.add(text)
                return code
            except (EOFError, ValueError, TypeError):  # a damaged entry: compiled again, as if absent
                pass
        # dont_inherit: compiled with no __future__ flags of this module, as `exec(text)` compiles it
        # in `dataclasses`, which has none (tests/test_dataclass.py compares the two)
        code = compile(text, "<string>", "exec", dont_inherit=True)
        if not _made:
            import atexit

            atexit.register(_store)
        _made[text] = marshal.dumps(code)
        return code

    def _store():
        from xiangshe.domain.cache import write_table

        write_table(NAME, _made, _used, MOST)
