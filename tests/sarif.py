"""The official SARIF 2.1.0 schema's validator (tests/schemas/sarif-schema-2.1.0.json), made once per
process and shared by the tests that validate SARIF logs (test_formats, test_lint, test_sources).

The schema asks `uniqueItems` of arrays of objects (a run's rules, a log's runs…): jsonschema
checks those by comparing every pair (its sort fails on dicts), and a log of the whole rulebook has
hundreds of rule descriptors — about 0.3 s a log. This validator checks `uniqueItems` by comparing
each item's canonical form instead (JSON with sorted keys, an integral float written as the int):
the same equality as jsonschema's (keys in any order, 1 == 1.0, true != 1), in one pass;
test_formats compares the two on arrays that tell them apart."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema import ValidationError
from jsonschema.validators import extend

SCHEMA = Path(__file__).resolve().parent / "schemas" / "sarif-schema-2.1.0.json"


def canonical(value: Any) -> Any:
    """`value` with its integral floats as ints (JSON's booleans stay booleans: true is not 1)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    return value


def unique(items: list) -> bool:
    forms = [json.dumps(canonical(i), sort_keys=True, ensure_ascii=False) for i in items]
    return len(set(forms)) == len(forms)


def _unique_items(validator: Any, wanted: bool, instance: Any, schema: dict) -> Any:  # noqa: ARG001
    if wanted and validator.is_type(instance, "array") and not unique(instance):
        yield ValidationError(f"{instance!r} has non-unique elements")


#: Draft 4 (the SARIF schema's) with the one-pass uniqueItems
FastUniqueDraft4 = extend(jsonschema.Draft4Validator, {"uniqueItems": _unique_items})


@cache
def validator() -> Any:
    """The SARIF schema's validator (its formats checked too); the schema is checked once."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    return FastUniqueDraft4(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
