"""Engines behind ports: LLM (``llm.py``) and embeddings (``embedders.py``)."""

from __future__ import annotations

from services.common.engines.embedders import Embedder
from services.common.engines.llm import LLMEngine
from services.common.settings import LLMSettings


def make_llm(settings: LLMSettings, embedder: Embedder | None = None) -> LLMEngine:
    """``gemini`` when GEMINI_API_KEY is set (or LLM_ENGINE=gemini), else ``extractive``.

    The embedder, when given, lets the extractive engine add sentence similarity
    to its lexical evidence scores; Gemini does not need it.
    """
    if settings.engine == "gemini":
        from services.common.engines.gemini_llm import GeminiLLM

        return GeminiLLM(settings)
    from services.common.engines.extractive import ExtractiveLLM

    return ExtractiveLLM(embedder)
