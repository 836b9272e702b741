"""A canned Gemini REST server as an httpx transport: records requests, replays bodies."""

from __future__ import annotations

import json
from collections.abc import Callable

import httpx

from services.common.settings import EmbedderSettings

BASE_URL = "http://gemini.test"


class CannedGemini:
    """``responder(request_json, path) -> (status, body)``; every request is kept."""

    def __init__(self, responder: Callable[[dict, str], tuple[int, dict]]):
        self.responder = responder
        self.requests: list[tuple[str, dict, httpx.Headers]] = []

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self._handle)

    def _handle(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content or b"{}")
        self.requests.append((request.url.path, body, request.headers))
        status, payload = self.responder(body, request.url.path)
        return httpx.Response(status, json=payload)


def gemini_settings(**overrides) -> EmbedderSettings:
    fields = dict(
        gemini_api_key="test-key",
        gemini_base_url=BASE_URL,
        gemini_timeout_ms=5_000,
        gemini_attempts=2,
        embedder="gemini",
        embedding_dimension=4,
    )
    return EmbedderSettings(**{**fields, **overrides})


def api_error(code: int, status: str) -> tuple[int, dict]:
    return code, {"error": {"code": code, "message": f"canned {status}", "status": status}}
