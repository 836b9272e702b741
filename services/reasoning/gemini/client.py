"""The one place a google-genai ``Client`` is built, for every Gemini adapter.

The SDK retries nothing unless told, so timeout and attempts always come from
settings. Tests pass an httpx ``transport`` that serves canned REST bodies,
which keeps them offline while still exercising the SDK's request building
and response parsing.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
from google import genai
from google.genai import errors as genai_errors
from google.genai import types

from services.common.errors import EngineError
from services.common.settings import GeminiSettings

NEEDS_GEMINI = "needs Gemini (set GEMINI_API_KEY)"


def make_client(
    settings: GeminiSettings, *, transport: httpx.BaseTransport | None = None
) -> genai.Client:
    """A configured client, or EngineError when no API key is set."""
    if settings.gemini_api_key is None or not settings.gemini_api_key.get_secret_value():
        raise EngineError(NEEDS_GEMINI)
    options = types.HttpOptions(
        timeout=settings.gemini_timeout_ms,
        retry_options=types.HttpRetryOptions(attempts=settings.gemini_attempts),
    )
    if settings.gemini_base_url:
        options.base_url = settings.gemini_base_url
    if transport is not None:
        options.client_args = {"transport": transport}
    return genai.Client(api_key=settings.gemini_api_key.get_secret_value(), http_options=options)


class LazyClient:
    """Builds the client at first use, so constructing an adapter never needs the key."""

    def __init__(self, settings: GeminiSettings, transport: httpx.BaseTransport | None = None):
        self._settings, self._transport = settings, transport
        self._client: genai.Client | None = None
        self._lock = threading.Lock()

    def get(self) -> genai.Client:
        with self._lock:
            if self._client is None:
                self._client = make_client(self._settings, transport=self._transport)
            return self._client


@contextmanager
def engine_errors(what: str) -> Iterator[None]:
    """Turn SDK and transport failures (after the SDK's own retries) into EngineError."""
    try:
        yield
    except EngineError:
        raise
    except genai_errors.APIError as exc:
        raise EngineError(
            f"{what} failed: Gemini answered {exc.code} {exc.status}: {exc.message}"
        ) from exc
    except httpx.HTTPError as exc:
        raise EngineError(f"{what} failed: {type(exc).__name__}: {exc}") from exc
