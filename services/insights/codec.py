"""The project's Avro codec, registered with faust once, under ``CODEC``.

faust decodes every message of a topic whose ``value_serializer`` names a codec with that
codec (``faust/serializers/codecs.py``: a ``Codec`` with ``_loads``/``_dumps``, then
``codecs.register(name, codec)``). Insights reads several event types through one stream,
so the codec learns each message's type from its writer schema (the single-object
fingerprint, or the registry's schema when ``SCHEMA_REGISTRY_URL`` is set) and returns the
project's event dataclass.
"""

from __future__ import annotations

from typing import Any

from faust.serializers import codecs

from services.common.avro_codec import AvroCodec
from services.common.kafka_io import codec_for
from services.common.settings import KafkaSettings

CODEC = "eduanima-avro"


class AvroEventCodec(codecs.Codec):
    def __init__(self, avro: AvroCodec, **kwargs: Any):
        # in kwargs too: faust's Codec.clone rebuilds a codec from its kwargs
        super().__init__(avro=avro, **kwargs)
        self.avro = avro

    def _loads(self, s: bytes) -> Any:
        return self.avro.decode_event(s)

    def _dumps(self, s: Any) -> bytes:
        return self.avro.encode(s)


def register(settings: KafkaSettings) -> None:
    """Make ``CODEC`` decode with this deployment's wire format (idempotent)."""
    codecs.register(CODEC, AvroEventCodec(codec_for(settings)))
