"""The SDK's HTTP client of the gateway: what a user (not an operator) may do, as that user.

Every call carries the user's bearer token, so the gateway decides who the user is and
what their role allows: a student's ``deactivate`` of a teacher's material answers 403
here exactly as it does in the console.

from services.gateway_client import GatewayClient
client = GatewayClient("http://127.0.0.1:8765", token)
client.materials("stats101")
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from services.common.errors import EduanimaError


class GatewayRequestError(EduanimaError):
    """The gateway refused or failed a request (``status`` is the HTTP status)."""

    def __init__(self, status: int, detail: str):
        self.status, self.detail = status, detail
        super().__init__(f"{status}: {detail}")


def _detail(response: httpx.Response) -> str:
    try:
        detail = response.json().get("detail")
    except ValueError:
        return response.text[:300] or response.reason_phrase
    if isinstance(detail, list):  # FastAPI's validation errors
        return "; ".join(str(d.get("msg", d)) for d in detail)
    return str(detail)


class GatewayClient:
    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        timeout: float = 60.0,
        transport: httpx.BaseTransport | None = None,
    ):
        self._http = httpx.Client(
            base_url=base_url.rstrip("/"),
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
            transport=transport,
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> GatewayClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        try:
            response = self._http.request(method, path, **kwargs)
        except httpx.TransportError as exc:
            raise GatewayRequestError(
                503, f"cannot reach the gateway at {self._http.base_url}: {exc}"
            ) from exc
        if response.status_code >= 400:
            raise GatewayRequestError(response.status_code, _detail(response))
        return response.json()

    # --- subjects -----------------------------------------------------------------------

    def me(self) -> str:
        return self._call("GET", "/v1/me")["user_id"]

    def subjects(self) -> list[dict[str, Any]]:
        return self._call("GET", "/v1/subjects")

    def enroll(self, subject_id: str, user_id: str, role: str = "student") -> dict[str, Any]:
        return self._call(
            "POST",
            f"/v1/subjects/{subject_id}/enrollments",
            json={"user_id": user_id, "role": role},
        )

    # --- materials ----------------------------------------------------------------------

    def upload(
        self, path: Path, subject_id: str, *, title: str = "", visibility: str = "subject"
    ) -> dict[str, Any]:
        path = Path(path)
        return self._call(
            "POST",
            f"/v1/subjects/{subject_id}/materials",
            files={"file": (path.name, path.read_bytes())},
            data={"title": title, "visibility": visibility},
        )

    def ingest_status(self, idempotency_key: str) -> dict[str, Any]:
        return self._call("GET", f"/v1/ingest/{idempotency_key}")

    def wait_for_ingest(self, idempotency_key: str, timeout: float = 600.0) -> dict[str, Any]:
        """Poll until the upload leaves PENDING (STORED, DUPLICATE or FAILED)."""
        deadline = time.monotonic() + timeout
        while True:
            status = self.ingest_status(idempotency_key)
            if status["status"] != "PENDING":
                return status
            if time.monotonic() >= deadline:
                raise TimeoutError(f"upload {idempotency_key} still PENDING after {timeout}s")
            time.sleep(0.5)

    def materials(self, subject_id: str) -> dict[str, Any]:
        return self._call("GET", f"/v1/subjects/{subject_id}/materials")

    def history(self, material_id: str) -> list[dict[str, Any]]:
        return self._call("GET", f"/v1/materials/{material_id}/history")

    def deactivate(self, material_id: str) -> dict[str, Any]:
        return self._call("POST", f"/v1/materials/{material_id}/deactivate")

    def reactivate(self, material_id: str) -> dict[str, Any]:
        return self._call("POST", f"/v1/materials/{material_id}/reactivate")

    def reread(self, material_id: str) -> dict[str, Any]:
        """Read the active version's original again with today's parser (an ingest job)."""
        return self._call("POST", f"/v1/materials/{material_id}/reread")

    def delete(self, material_id: str) -> dict[str, Any]:
        return self._call("DELETE", f"/v1/materials/{material_id}")

    def passage(self, chunk_id: str) -> dict[str, Any]:
        return self._call("GET", f"/v1/chunks/{chunk_id}")

    # --- questions, the unanswered log, the search test ------------------------------------------

    def ask(
        self, subject_id: str, question: str, *, conversation_id: str | None = None
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"subject_id": subject_id, "question": question}
        if conversation_id:
            body["conversation_id"] = conversation_id
        return self._call("POST", "/v1/questions", json=body)

    def unanswered(self, subject_id: str, *, include_resolved: bool = False) -> dict[str, Any]:
        return self._call(
            "GET",
            f"/v1/subjects/{subject_id}/unanswered",
            params={"include_resolved": include_resolved},
        )

    def insights(self, subject_id: str) -> dict[str, Any]:
        """The subject's live insights (teachers): counts per hour and day, latency, what the
        materials do not cover, how often answers cite each material."""
        return self._call("GET", f"/v1/subjects/{subject_id}/insights")

    def resolve(self, session_id: str, note: str = "") -> dict[str, Any]:
        return self._call("POST", f"/v1/unanswered/{session_id}/resolve", json={"note": note})

    def search_test(
        self,
        subject_id: str,
        query: str,
        *,
        mode: str = "hybrid",
        k: int | None = None,
        loop: bool = False,
    ) -> dict[str, Any]:
        body = {"query": query, "mode": mode, "k": k, "loop": loop}
        return self._call("POST", f"/v1/subjects/{subject_id}/search-test", json=body)
