"""The insights service's subject view, fetched for the gateway's teachers."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx

from services.common.errors import EduanimaError


class InsightsUnavailable(EduanimaError):
    """The insights service did not answer (503)."""


class InsightsFailed(EduanimaError):
    """The insights service answered with an error (502)."""


async def subject_view(base_url: str, subject_id: str, timeout_s: float = 15.0) -> dict[str, Any]:
    url = f"{base_url.rstrip('/')}/insights/subjects/{quote(subject_id, safe='')}"
    try:
        async with httpx.AsyncClient(timeout=timeout_s) as client:
            reply = await client.get(url)
    except httpx.TransportError as exc:
        raise InsightsUnavailable(f"the insights service at {base_url} does not answer") from exc
    if reply.status_code != 200:
        raise InsightsFailed(f"the insights service answered {reply.status_code}")
    return reply.json()
