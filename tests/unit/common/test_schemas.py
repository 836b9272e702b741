"""Schemas: the dataclasses match them, and evolution only adds fields with defaults."""

import copy
import dataclasses

import fastavro
import pytest

from services.common.errors import SchemaCompatibilityError
from services.common.events import EVENT_TYPES
from services.common.schemas import (
    EVENTS,
    check_all_released,
    check_compatible,
    load_event_schema,
)


def _records(schema, found=None):
    """Every named record in an expanded schema, by name."""
    found = {} if found is None else found
    if isinstance(schema, dict):
        if schema.get("type") == "record":
            found[schema["name"]] = schema
            for f in schema["fields"]:
                _records(f["type"], found)
        else:
            for key in ("items", "values", "type"):
                if key in schema:
                    _records(schema[key], found)
    elif isinstance(schema, list):
        for item in schema:
            _records(item, found)
    return found


@pytest.mark.parametrize("event", EVENTS)
def test_schema_parses_and_matches_its_dataclass(event):
    schema = load_event_schema(event)
    fastavro.parse_schema(schema)
    import services.common.events as ev

    for name, record in _records(schema).items():
        cls = getattr(ev, name)
        assert [f["name"] for f in record["fields"]] and {
            f.name for f in dataclasses.fields(cls)
        } == {f["name"] for f in record["fields"]}, name
    assert event in EVENT_TYPES


def test_every_current_schema_is_compatible_with_its_released_versions():
    checked = check_all_released()
    assert len(checked) >= len(EVENTS)


def _with_field(schema, field):
    changed = copy.deepcopy(schema)
    changed["fields"].append(field)
    return changed


def test_adding_a_field_without_default_is_rejected():
    old = load_event_schema("QuestionAsked")
    new = _with_field(old, {"name": "locale", "type": "string"})
    with pytest.raises(SchemaCompatibilityError, match="locale: new field without a default"):
        check_compatible(old, new)


def test_adding_a_field_with_default_is_accepted_and_old_data_reads():
    old = load_event_schema("QuestionAsked")
    new = _with_field(old, {"name": "locale", "type": "string", "default": "ja"})
    check_compatible(old, new)
    # and Avro resolution agrees: data written with the old schema reads with the new one
    import io

    record = {
        "session_id": "s",
        "subject_id": "x",
        "user_id": "u",
        "question": "q",
        "asked_at_ms": 1,
        "max_iterations": None,
        "timeout_ms": None,
    }
    buf = io.BytesIO()
    fastavro.schemaless_writer(buf, fastavro.parse_schema(old), record)
    buf.seek(0)
    read = fastavro.schemaless_reader(buf, fastavro.parse_schema(old), fastavro.parse_schema(new))
    assert read["locale"] == "ja"


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda s: s["fields"].pop(0), "field removed"),
        (lambda s: s["fields"][3].update(type="int"), "type string became int"),
    ],
)
def test_removing_or_retyping_a_field_is_rejected(mutate, message):
    old = load_event_schema("QuestionAsked")
    new = copy.deepcopy(old)
    mutate(new)
    with pytest.raises(SchemaCompatibilityError, match=message):
        check_compatible(old, new)


def test_nested_record_changes_are_checked():
    old = load_event_schema("SearchRequest")
    new = copy.deepcopy(old)
    state = next(f for f in new["fields"] if f["name"] == "state")["type"]
    state["fields"].append({"name": "budget", "type": "int"})
    with pytest.raises(SchemaCompatibilityError, match="state.budget"):
        check_compatible(old, new)
