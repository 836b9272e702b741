"""Avro wire format for every event.

Default: Avro single-object encoding — ``C3 01`` + 8-byte CRC-64-AVRO
fingerprint of the writer schema's canonical form + the binary body. The
fingerprint says which schema wrote the bytes, so a reader resolves old
(released) versions against the current one without any registry.

With ``SCHEMA_REGISTRY_URL`` set: Confluent framing — ``00`` + 4-byte schema id
+ body, the id registered under ``<topic>-value``.
"""

from __future__ import annotations

import io
import struct
from functools import cache
from typing import Any, TypeVar

import fastavro
import httpx
from fastavro.schema import fingerprint, to_parsing_canonical_form

from services.common.errors import AvroDecodeError
from services.common.events import EVENT_TYPES, from_record, to_record
from services.common.schemas import EVENTS, load_event_schema, released_versions

E = TypeVar("E")

SINGLE_OBJECT_MAGIC = b"\xc3\x01"
CONFLUENT_MAGIC = b"\x00"


@cache
def _parsed(event: str) -> Any:
    return fastavro.parse_schema(load_event_schema(event))


def schema_fingerprint(schema: dict[str, Any]) -> bytes:
    return bytes.fromhex(fingerprint(to_parsing_canonical_form(schema), "CRC-64-AVRO"))


@cache
def _header(event: str) -> bytes:
    return SINGLE_OBJECT_MAGIC + schema_fingerprint(load_event_schema(event))


@cache
def _writers_by_fingerprint() -> dict[bytes, tuple[str, Any]]:
    """Every schema a writer may have used: current and released versions."""
    writers = {}
    for event in EVENTS:
        for schema in [s for _, s in released_versions(event)] + [load_event_schema(event)]:
            writers[schema_fingerprint(schema)] = (event, fastavro.parse_schema(schema))
    return writers


class SchemaRegistry:
    """The two calls of the Confluent Schema Registry REST API the codec needs."""

    def __init__(self, url: str, client: httpx.Client | None = None):
        self.client = client or httpx.Client(base_url=url, timeout=10)
        self._ids: dict[tuple[str, str], int] = {}
        self._schemas: dict[int, Any] = {}

    def register(self, subject: str, schema: dict[str, Any]) -> int:
        canonical = to_parsing_canonical_form(schema)
        if (subject, canonical) not in self._ids:
            reply = self.client.post(
                f"/subjects/{subject}/versions",
                json={"schema": canonical},
                headers={"Content-Type": "application/vnd.schemaregistry.v1+json"},
            )
            reply.raise_for_status()
            self._ids[(subject, canonical)] = reply.json()["id"]
        return self._ids[(subject, canonical)]

    def schema(self, schema_id: int) -> Any:
        if schema_id not in self._schemas:
            reply = self.client.get(f"/schemas/ids/{schema_id}")
            reply.raise_for_status()
            import json

            self._schemas[schema_id] = fastavro.parse_schema(json.loads(reply.json()["schema"]))
        return self._schemas[schema_id]


class AvroCodec:
    def __init__(self, registry: SchemaRegistry | None = None):
        self.registry = registry

    def encode(self, event: Any, topic: str = "") -> bytes:
        name = type(event).__name__
        body = io.BytesIO()
        fastavro.schemaless_writer(body, _parsed(name), to_record(event))
        if self.registry is not None:
            schema_id = self.registry.register(f"{topic}-value", load_event_schema(name))
            return CONFLUENT_MAGIC + struct.pack(">I", schema_id) + body.getvalue()
        return _header(name) + body.getvalue()

    def event_name(self, data: bytes | None) -> str | None:
        """The event type whose schema wrote ``data``, from its header (None if unknown).

        For readers of several topics at once (the insights service), which learn the type
        from the bytes rather than from the topic.
        """
        if not data:
            return None
        if data[:2] == SINGLE_OBJECT_MAGIC:
            found = _writers_by_fingerprint().get(bytes(data[2:10]))
            return found[0] if found else None
        if data[:1] == CONFLUENT_MAGIC and self.registry is not None and len(data) >= 5:
            name = self.registry.schema(struct.unpack(">I", data[1:5])[0]).get("name", "")
            return name.rsplit(".", 1)[-1] if name.rsplit(".", 1)[-1] in EVENT_TYPES else None
        return None

    def decode_event(
        self, data: bytes | None, topic: str = "?", partition: int = -1, offset: int = -1
    ) -> Any:
        """Bytes → the event of whichever type wrote them; AvroDecodeError otherwise."""
        name = self.event_name(data)
        if name is None:
            raise AvroDecodeError("no known event schema in the header", topic, partition, offset)
        return self.decode(EVENT_TYPES[name], data, topic, partition, offset)

    def decode(
        self,
        cls: type[E],
        data: bytes | None,
        topic: str = "?",
        partition: int = -1,
        offset: int = -1,
    ) -> E:
        """Bytes → event of type ``cls``; anything else raises AvroDecodeError with the position."""

        def fail(reason: str) -> AvroDecodeError:
            return AvroDecodeError(reason, topic, partition, offset)

        if not data:
            raise fail("empty message")
        try:
            if data[:2] == SINGLE_OBJECT_MAGIC:
                found = _writers_by_fingerprint().get(bytes(data[2:10]))
                if found is None:
                    raise fail(f"unknown schema fingerprint {bytes(data[2:10]).hex()}")
                writer_event, writer = found
                if writer_event != cls.__name__:
                    raise fail(f"expected {cls.__name__}, got {writer_event}")
                body = data[10:]
            elif data[:1] == CONFLUENT_MAGIC and self.registry is not None and len(data) >= 5:
                writer = self.registry.schema(struct.unpack(">I", data[1:5])[0])
                body = data[5:]
            else:
                raise fail("no Avro single-object or registry header")
            stream = io.BytesIO(body)
            record = fastavro.schemaless_reader(stream, writer, _parsed(cls.__name__))
            if stream.read(1):
                raise fail("trailing bytes after the record")
            return from_record(cls, record)  # type: ignore[arg-type]
        except AvroDecodeError:
            raise
        except Exception as exc:  # fastavro raises many kinds on garbage
            raise fail(f"{type(exc).__name__}: {exc}") from exc


def event_type(name: str) -> type:
    return EVENT_TYPES[name]
