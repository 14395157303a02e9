"""The published JSON Schemas of xiangshe's inputs and outputs, shipped with the
package so that `xiangshe schema NAME` prints them:

- `trace` (draft-07, what editors implement): trace files in record form (YAML, JSON, JSON Lines
  records); generated from the vocabulary
  by `python -m xiangshe.domain.schema --write`;
- `check`, `rules`, `explain`, `coverage`, `counterexample`, `query`, `check-rules`, `readings`,
  `repair`, `next`, `complete` (draft 2020-12): what those commands print with `--format json`
  (every command that has it; `generate --format jsonl` writes trace records, whose schema is
  `trace`).
"""

from __future__ import annotations

import json

#: what `xiangshe schema NAME` accepts (its choices)
NAMES = (
    "check",
    "trace",
    "rules",
    "explain",
    "coverage",
    "counterexample",
    "query",
    "check-rules",
    "readings",
    "repair",
    "next",
    "complete",
)


def text(name: str) -> str:
    """The schema NAME as published (the file's text)."""
    if name not in NAMES:
        raise KeyError(name)
    from importlib.resources import files  # only when a schema is asked for (42 ms to import)

    return files(__name__).joinpath(f"{name}.schema.json").read_text(encoding="utf-8")


def load(name: str) -> dict:
    return json.loads(text(name))
