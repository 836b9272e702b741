"""The reasoning engine: everything that thinks, behind two ports.

- ``llm.py``: the LLM port (plan, evaluate, refine, answer, review) and its data types.
- ``extractive/``: the offline engine, no model; one module per role
  (``planner``, ``judge``, ``answerer``, ``review``) over shared ``text`` and ``scoring``.
- ``gemini/``: the google-genai adapters (LLM, embedder, vision reader) and their prompts.
- ``embedders.py``: the embedding port and the offline USE-m3 embedder.

The two factories below are the only place that picks an adapter. The services
import this package; nothing in ``services.common`` (the plumbing) does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from services.common.settings import EmbedderSettings, LLMSettings
    from services.reasoning.embedders import Embedder
    from services.reasoning.llm import LLMEngine


def make_llm(settings: LLMSettings, embedder: Embedder | None = None) -> LLMEngine:
    """``gemini`` when GEMINI_API_KEY is set (or LLM_ENGINE=gemini), else ``extractive``.
    Gemini comes wrapped in a fallback to ``extractive`` unless LLM_FALLBACK=none.

    The embedder, when given, lets the extractive engine add sentence similarity
    to its lexical evidence scores; Gemini does not need it.
    """
    from services.reasoning.extractive import ExtractiveLLM

    if settings.engine == "gemini":
        from services.reasoning.fallback import FallbackLLM
        from services.reasoning.gemini.llm import GeminiLLM

        if settings.llm_fallback == "none":
            return GeminiLLM(settings)
        # a step Gemini fails (after its retries) is taken by the offline engine
        return FallbackLLM(GeminiLLM(settings), ExtractiveLLM(embedder))
    return ExtractiveLLM(embedder)


def make_embedder(settings: EmbedderSettings) -> Embedder:
    """``gemini`` when EMBEDDER=gemini, else the offline USE-m3."""
    if settings.embedder == "gemini":
        from services.reasoning.gemini.embedder import GeminiEmbedder

        return GeminiEmbedder(settings)
    from services.reasoning.embedders import UseM3Embedder

    return UseM3Embedder(batch_size=settings.embed_batch_size, threads=settings.embed_threads)
