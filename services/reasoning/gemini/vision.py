"""Gemini reads a PDF without a text layer, or an image, into Markdown chunks.

Structured output (a JSON schema) makes the model return only ``chunks[]``
(seed 001, Ingestion step 5); the ingestor then applies its own size bounds.
Thinking is kept minimal, as the seed recommends for ingestion.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import httpx
from google.genai import types

from services.common.errors import EngineError
from services.common.materials import Chunk
from services.common.settings import GeminiSettings
from services.reasoning.gemini.client import LazyClient, engine_errors

logger = logging.getLogger(__name__)

CHUNKS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "chunks": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "text": {"type": "string", "description": "Markdown text of one meaning unit."},
                    "page": {
                        "type": "integer",
                        "description": "1-based page number; 1 for an image.",
                    },
                    "heading_path": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "Headings above this unit, outermost first.",
                    },
                },
                "required": ["text", "page", "heading_path"],
            },
        }
    },
    "required": ["chunks"],
}

PROMPT = """You convert course material into Markdown for a search index.
Transcribe ALL of the content of the attached file faithfully, in its original language;
do not summarise, translate or add anything. Describe figures, charts and tables in words
(axes, legends, line styles, what they show) and write tables as Markdown tables.
Split the text into meaning units: one section or a few paragraphs on one topic each,
at most about 800 characters. For each unit give its Markdown text, the 1-based page it is
on, and the heading path above it (outermost heading first, empty if none)."""


DEFAULT_MODEL = "gemini-3-flash-preview"


class GeminiVisionReader:
    """Implements ``services.ingestor.stages.VisionReader``.

    The model is ``model`` if given, else the settings' ``professor_gemini_model_ingestion``
    (``IngestionSettings``), else DEFAULT_MODEL.
    """

    def __init__(
        self,
        settings: GeminiSettings,
        model: str | None = None,
        *,
        transport: httpx.BaseTransport | None = None,
    ):
        self.model = model or getattr(settings, "professor_gemini_model_ingestion", DEFAULT_MODEL)
        self._client = LazyClient(settings, transport)

    def read(self, data: bytes, mime_type: str, filename: str) -> list[Chunk]:
        client = self._client.get()
        config = types.GenerateContentConfig(
            response_mime_type="application/json",
            response_json_schema=CHUNKS_SCHEMA,
            thinking_config=types.ThinkingConfig(thinking_level=types.ThinkingLevel.MINIMAL),
        )
        contents = [types.Part.from_bytes(data=data, mime_type=mime_type), PROMPT]
        with engine_errors(f"reading {filename!r} with {self.model}"):
            response = client.models.generate_content(
                model=self.model, contents=contents, config=config
            )
        return _chunks(response.text, filename, self.model)


def _headings(raw: object) -> tuple[str, ...]:
    if not isinstance(raw, list):
        return ()
    return tuple(str(h).strip() for h in raw if str(h).strip())


def _chunks(body: str | None, filename: str, model: str) -> list[Chunk]:
    try:
        items = json.loads(body or "")["chunks"]
        chunks = [
            Chunk(
                ordinal=n,
                text=str(item["text"]).strip(),
                page=int(item["page"]) if item.get("page") is not None else None,
                heading_path=_headings(item.get("heading_path")),
            )
            for n, item in enumerate(items)
        ]
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise EngineError(f"{model} returned unusable chunks for {filename!r}: {exc}") from exc
    chunks = [c for c in chunks if c.text]
    logger.info("vision chunks", extra={"material": filename, "chunks": len(chunks)})
    return chunks
