"""Loading the Avro schemas in ``schemas/`` and holding them against released versions.

Events live in ``schemas/<Event>.avsc``; record types shared between events in
``schemas/types/<Name>.avsc``, referenced by full name. Loading expands each
reference once, so every event schema is self-contained (its fingerprint and
its released copies stand alone). Released versions: ``schemas/released/<Event>/<n>.avsc``.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

from services.common.errors import SchemaCompatibilityError

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schemas"
NAMESPACE = "eduanima.events"
EVENTS = (
    "IngestJob",
    "ChunksStored",
    "QuestionAsked",
    "SearchRequest",
    "SearchResult",
    "Evaluation",
    "AnswerEvent",
    "SessionState",
    "MaterialChanged",
)

Schema = dict[str, Any]


def _read(path: Path) -> Schema:
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def _shared_types() -> dict[str, Schema]:
    types = {}
    for path in sorted((SCHEMA_DIR / "types").glob("*.avsc")):
        schema = _read(path)
        types[f"{schema['namespace']}.{schema['name']}"] = schema
    return types


def _expand(node: Any, defined: set[str]) -> Any:
    """Replace the first reference to each shared type by its definition."""
    if isinstance(node, str):
        full = node if "." in node else f"{NAMESPACE}.{node}"
        if full in _shared_types() and full not in defined:
            defined.add(full)
            return _expand(copy.deepcopy(_shared_types()[full]), defined)
        return node
    if isinstance(node, list):
        return [_expand(item, defined) for item in node]
    if isinstance(node, dict):
        if node.get("type") in ("record", "enum", "fixed"):
            defined.add(f"{node.get('namespace', NAMESPACE)}.{node['name']}")
        return {
            key: (
                value
                if key in ("name", "namespace", "doc", "default", "symbols")
                else _expand(value, defined)
            )
            for key, value in node.items()
        }
    return node


@cache
def load_event_schema(event: str) -> Schema:
    """The current, self-contained schema of an event."""
    return _expand(_read(SCHEMA_DIR / f"{event}.avsc"), set())


def released_versions(event: str) -> list[tuple[int, Schema]]:
    folder = SCHEMA_DIR / "released" / event
    return sorted((int(p.stem), _read(p)) for p in folder.glob("*.avsc"))


# --- compatibility: evolve only by adding fields with defaults -------------------------


def check_compatible(old: Schema, new: Schema, path: str = "") -> None:
    """Raise SchemaCompatibilityError unless ``new`` only adds fields with defaults to ``old``.

    Readers of either version can then read data written with the other
    (full compatibility in Avro's resolution rules).
    """
    where = path or old.get("name", "?")
    if isinstance(old, dict) and old.get("type") == "record":
        if not (
            isinstance(new, dict) and new.get("type") == "record" and new["name"] == old["name"]
        ):
            raise SchemaCompatibilityError(f"{where}: record {old['name']} changed kind or name")
        new_fields = {f["name"]: f for f in new["fields"]}
        old_fields = {f["name"]: f for f in old["fields"]}
        for name, field in old_fields.items():
            if name not in new_fields:
                raise SchemaCompatibilityError(f"{where}.{name}: field removed")
            check_compatible(field["type"], new_fields[name]["type"], f"{where}.{name}")
        for name, field in new_fields.items():
            if name not in old_fields and "default" not in field:
                raise SchemaCompatibilityError(f"{where}.{name}: new field without a default")
        return
    if isinstance(old, dict) and old.get("type") == "enum":
        if not (isinstance(new, dict) and new.get("type") == "enum"):
            raise SchemaCompatibilityError(f"{where}: enum changed kind")
        if new["symbols"][: len(old["symbols"])] != old["symbols"]:
            raise SchemaCompatibilityError(f"{where}: enum symbols removed or reordered")
        return
    if isinstance(old, dict) and old.get("type") in ("array", "map"):
        key = "items" if old["type"] == "array" else "values"
        if not (isinstance(new, dict) and new.get("type") == old["type"]):
            raise SchemaCompatibilityError(f"{where}: {old['type']} changed kind")
        check_compatible(old[key], new[key], f"{where}[]")
        return
    if isinstance(old, list):
        if not isinstance(new, list) or len(new) != len(old):
            raise SchemaCompatibilityError(f"{where}: union changed")
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            check_compatible(a, b, f"{where}|{i}")
        return
    if _name(old) != _name(new):
        raise SchemaCompatibilityError(f"{where}: type {_name(old)} became {_name(new)}")


def _name(node: Any) -> Any:
    return node.get("name", node.get("type")) if isinstance(node, dict) else node


def check_all_released() -> list[str]:
    """Check every event against each of its released versions; return what was checked."""
    checked = []
    for event in EVENTS:
        for version, released in released_versions(event):
            check_compatible(released, load_event_schema(event))
            checked.append(f"{event}/{version}")
    return checked
