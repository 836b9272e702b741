"""What the gateway talks to: a PostgreSQL pool, the producer SDK, the blob store.

Each is built at first use, so the app starts, renders its OpenAPI schema and
refuses unauthenticated requests without any infrastructure.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from psycopg_pool import ConnectionPool

from services.common import db
from services.common.blobstore import BlobStore
from services.gateway.settings import GatewaySettings
from services.sdk import Client

if TYPE_CHECKING:
    from services.reasoning.embedders import Embedder
    from services.reasoning.llm import LLMEngine


class Backends:
    def __init__(
        self,
        settings: GatewaySettings,
        *,
        pool: ConnectionPool | None = None,
        client: Client | None = None,
        blobs: BlobStore | None = None,
        embedder: Embedder | None = None,
        engine: LLMEngine | None = None,
    ):
        self.settings = settings
        self._pool, self._client, self._blobs = pool, client, blobs
        self._embedder, self._engine = embedder, engine
        self._lock = threading.Lock()

    @property
    def pool(self) -> ConnectionPool:
        with self._lock:
            if self._pool is None:
                self._pool = db.pool(self.settings)
            return self._pool

    @property
    def client(self) -> Client:
        with self._lock:
            if self._client is None:
                self._client = Client(self.settings)
            return self._client

    @property
    def blobs(self) -> BlobStore:
        with self._lock:
            if self._blobs is None:
                self._blobs = BlobStore(self.settings)
            return self._blobs

    @property
    def embedder(self) -> Embedder:
        """For the teachers' search test only: loaded at its first use."""
        with self._lock:
            if self._embedder is None:
                from services.reasoning import make_embedder

                self._embedder = make_embedder(self.settings)
            return self._embedder

    @property
    def engine(self) -> LLMEngine:
        embedder = self.embedder
        with self._lock:
            if self._engine is None:
                from services.reasoning import make_llm

                self._engine = make_llm(self.settings, embedder=embedder)
            return self._engine

    def close(self) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.close()
            if self._client is not None:
                self._client.publisher.producer.flush(10)
