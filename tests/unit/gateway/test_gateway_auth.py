"""Gateway auth and request validation, through FastAPI's TestClient: no Kafka, no database.

Every request here is refused (401/413/422) before the gateway touches any backend,
and the app builds its backends lazily, so none is ever created.
"""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from services.common.errors import InvalidInput
from services.gateway.app import create_app
from services.gateway.auth import TokenTable, parse_tokens
from services.gateway.settings import GatewaySettings

TOKENS = "tok-alice=alice, tok-bob=bob"

BODIES = {
    "/v1/questions": {"json": {"subject_id": "s", "question": "What is a p-value?"}},
    "/v1/subjects/{subject_id}/materials": {"files": {"file": ("a.md", b"# A\n")}},
}


def _every_v1_route() -> list[tuple[str, str, dict]]:
    """Every API route: none may answer without a valid token (a new one is covered too)."""
    spec = create_app(GatewaySettings(gateway_tokens=TOKENS)).openapi()
    found = []
    for template, operations in spec["paths"].items():
        if template.startswith("/v1/"):
            path = re.sub(r"\{[^}]+\}", "abc", template)
            for method in operations:
                kwargs = BODIES.get(template, {}) if method == "post" else {}
                found.append((method, path, kwargs))
    return found


AUTHENTICATED = _every_v1_route()


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app(GatewaySettings(gateway_tokens=TOKENS, max_upload_bytes=1000)))


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_tokens_parse_to_users_ignoring_blanks_and_spaces():
    assert parse_tokens(" t1 = u1 ,, t2=u2,") == {"t1": "u1", "t2": "u2"}
    assert parse_tokens("") == {}


@pytest.mark.parametrize("spec", ["t1", "=u1", "t1=", "t1=u1,t1=u2"])
def test_malformed_token_lists_are_refused_without_echoing_secrets(spec):
    with pytest.raises(InvalidInput, match="GATEWAY_TOKENS entry") as info:
        parse_tokens(spec)
    assert "t1" not in str(info.value)


def test_token_table_matches_whole_tokens_only():
    table = TokenTable(parse_tokens(TOKENS))
    assert table.user_for("tok-alice") == "alice"
    assert table.user_for("tok-bob") == "bob"
    for wrong in ("tok-ali", "tok-alice2", "TOK-ALICE", "", "alice"):
        assert table.user_for(wrong) is None


def test_app_refuses_a_malformed_token_list_at_start():
    with pytest.raises(InvalidInput):
        create_app(GatewaySettings(gateway_tokens="no-equals-sign"))


@pytest.mark.parametrize(("method", "path", "kwargs"), AUTHENTICATED)
def test_authenticated_routes_answer_401_without_a_token(client, method, path, kwargs):
    response = client.request(method, path, **kwargs)
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    assert response.json()["detail"] == "missing, unknown, expired or invalid bearer token"


@pytest.mark.parametrize(("method", "path", "kwargs"), AUTHENTICATED)
@pytest.mark.parametrize(
    "header", ["Bearer tok-mallory", "Bearer tok-alic", "Basic dG9rLWFsaWNlOg==", "tok-alice"]
)
def test_authenticated_routes_answer_401_with_a_bad_token(client, method, path, kwargs, header):
    response = client.request(method, path, headers={"Authorization": header}, **kwargs)
    assert response.status_code == 401


def test_empty_token_list_lets_nobody_in():
    client = TestClient(create_app(GatewaySettings(gateway_tokens="")))
    response = client.post(
        "/v1/questions", json={"subject_id": "s", "question": "q"}, headers=bearer("")
    )
    assert response.status_code == 401


def test_auth_is_checked_before_the_body(client):
    response = client.post("/v1/questions", json={"subject_id": "s", "question": ""})
    assert response.status_code == 401


@pytest.mark.parametrize(
    ("question", "message"),
    [
        ("", "the question is empty"),
        ("   \n ", "the question is empty"),
        ("x" * 2001, "the question has 2001 characters; at most 2000"),
    ],
)
def test_empty_or_oversized_questions_are_422_with_a_clear_message(client, question, message):
    response = client.post(
        "/v1/questions", json={"subject_id": "s", "question": question}, headers=bearer("tok-alice")
    )
    assert response.status_code == 422
    assert [e["msg"] for e in response.json()["detail"]] == [f"Value error, {message}"]


@pytest.mark.parametrize("iterations", [0, 6, -1])
def test_max_iterations_outside_the_professors_bound_is_422(client, iterations):
    response = client.post(
        "/v1/questions",
        json={"subject_id": "s", "question": "q?", "max_iterations": iterations},
        headers=bearer("tok-bob"),
    )
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "max_iterations"]


def test_a_declared_body_over_the_upload_limit_is_413_before_it_is_read(client):
    big = b"x" * (1000 + 64 * 1024 + 1)
    response = client.post(
        "/v1/subjects/s/materials", files={"file": ("big.txt", big)}, headers=bearer("tok-alice")
    )
    assert response.status_code == 413
    assert "at most" in response.json()["detail"]


def test_health_metrics_and_console_need_no_token(client):
    assert client.get("/healthz").json() == {"status": "ok"}
    client.get("/v1/sessions/x")  # one refusal, counted below
    metrics = client.get("/metrics")
    assert metrics.status_code == 200
    assert "eduanima_gateway_auth_failures_total" in metrics.text
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "/static/console.js" in page.text and "/static/markdown.js" in page.text
    script = client.get("/static/console.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert "/v1/questions" in script.text and "Authorization" in script.text


def test_every_v1_route_is_covered():
    paths = {path for _m, path, _k in AUTHENTICATED}
    assert len(AUTHENTICATED) >= 17
    assert {"/v1/me", "/v1/materials/abc", "/v1/subjects/abc/search-test"} <= paths
