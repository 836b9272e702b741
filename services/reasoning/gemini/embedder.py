"""``gemini-embedding-001`` behind the ``Embedder`` port.

Vectors are asked for at ``embedding_dimension`` (Matryoshka truncation on the
server) and re-normalised here, because only the full 3072-d output comes back
unit length. Documents and queries use different task types, as the model was
trained for asymmetric retrieval: ``embed`` embeds documents, ``for_queries()``
gives a twin embedder (same client) for search queries.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Literal

import httpx
import numpy as np
from google.genai import types

from services.common.errors import EngineError
from services.common.settings import EmbedderSettings
from services.reasoning.embedders import normalise
from services.reasoning.gemini.client import LazyClient, engine_errors

logger = logging.getLogger(__name__)

MAX_BATCH = 100  # the batchEmbedContents limit per request

TaskType = Literal["RETRIEVAL_DOCUMENT", "RETRIEVAL_QUERY"]


class GeminiEmbedder:
    def __init__(
        self,
        settings: EmbedderSettings,
        *,
        task_type: TaskType = "RETRIEVAL_DOCUMENT",
        transport: httpx.BaseTransport | None = None,
        client: LazyClient | None = None,
    ):
        self.settings = settings
        self.model = settings.gemini_embedding_model
        self.name = settings.gemini_embedding_model
        self.dimension = settings.embedding_dimension
        self.task_type = task_type
        self.batch_size = max(1, min(settings.embed_batch_size, MAX_BATCH))
        self._client = client or LazyClient(settings, transport)

    def for_queries(self) -> GeminiEmbedder:
        """The same model and client, embedding with task type RETRIEVAL_QUERY."""
        return GeminiEmbedder(self.settings, task_type="RETRIEVAL_QUERY", client=self._client)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        client = self._client.get()
        config = types.EmbedContentConfig(
            task_type=self.task_type, output_dimensionality=self.dimension
        )
        parts = []
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start : start + self.batch_size])
            with engine_errors(f"embedding {len(batch)} texts with {self.model}"):
                response = client.models.embed_content(
                    model=self.model, contents=batch, config=config
                )
            parts.append(self._vectors(response, len(batch)))
        return normalise(np.vstack(parts))

    def _vectors(self, response: types.EmbedContentResponse, expected: int) -> np.ndarray:
        embeddings = response.embeddings or []
        if len(embeddings) != expected:
            raise EngineError(
                f"{self.model} returned {len(embeddings)} embeddings for {expected} texts"
            )
        sizes = {len(e.values or []) for e in embeddings}
        if sizes != {self.dimension}:
            raise EngineError(
                f"{self.model} returned vectors of sizes {sorted(sizes)}, expected {self.dimension}"
            )
        return np.asarray([e.values for e in embeddings], dtype=np.float32)
